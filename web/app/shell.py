"""The shell of every game page: everything a page needs that is not the game itself.

A page's only Python is ``import shell; shell.main("<family id>")``.  The shell reads
the family from the registry (`pygames.FAMILIES`) and imports its view module (the
family's ``view``, e.g. ``yams_view``), which draws the state and turns clicks and keys
into action notations.  The shell owns the rest, the same for every game:

* the URL parameters (``seed``, ``pace``, ``game``, ``fresh``, ``dice=real``) and the embed form;
* the setup screen: plain HTML written by the build (web/tools/build.py) from the family's
  rulesets, their options, seats and number of players, kept working by js/setup-early.js
  before and after Python starts; the shell adopts it (a "Commencer" clicked early starts
  the game as soon as Python is ready) and adds whatever the view adds (e.g. a starting
  position);
* saving after every action and resuming, with a notice for a save it cannot read;
  and keeping the table as drawn, which js/view-early.js shows at once on the next visit;
* the computer's loop, with its pace and a generation counter so that a loop left over
  from an earlier game never plays in a new one;
* the table's tools (table_tools.py): Annuler (a person takes back their last decision;
  the generation counter drops a computer's move chosen meanwhile), the computer's speed
  (remembered; ``?pace=`` overrides it), and the confirmation the view may ask for before
  an action (``view.confirm_text(state, action)``, e.g. a 0 while a box would score);
* the Règles dialog following the chosen ruleset and options;
* the end screen, from the game's `Outcome`;
* announcements for screen readers (one aria-live region);
* the expert's tables, fetched on first use, and the advisor / analysis panels, whose
  contents the view provides.

Clicks: any element with ``data-action="<notation>"`` inside the table plays that
action when it is a human's turn; the view keeps those attributes up to date.
"""

import asyncio
import json
from importlib import import_module

import replay_view
from ask import ask
from daily import Daily
from dom import (
    by_id,
    clear,
    document,
    el,
    enabled,
    fetch,
    later,
    on,
    pieces_of,
    query_params,
    set_text,
    show,
    spawn,
    storage,
    window,
)
from duo import Duo
from embed import EmbedError, parse_embed
from flow import Flow
from guard import (
    CORRUPT_PREFIX,
    BadStored,
    aside_key,
    aside_value,
    check_saved_match,
    check_setup,
    read_json,
    short,
)
from remote_view import Remote
from stats import STATS_KEY
from stats_view import StatsView
from table import Table, bot_badge_text
from table_tools import TableTools
from tabs import Drive
from tray import focus_faces

from pygames import FAMILIES, BadRecord, DiceSampler, GameError, Match, NewerRecord, Player, load_match
from pygames.core import Throw, bot_for, default_name, read_faces
from pygames.messages import Msg, Name, plain, render, text

DEFAULT_PACE_MS = 650


#: The notices when a newer version of the site holds the saved game (catalogue ids: the
#: words are looked up when shown, never at import, shell.speak).
NEWER_SAVED = "site.newer.saved"
NEWER_ELSEWHERE = "site.newer.elsewhere"


class Shell:
    def __init__(self, family_id):
        self.family = FAMILIES[family_id]
        self.games = {g.id: g for g in self.family.games}
        params = query_params()
        self.seed = params.get("seed")
        try:
            self.pace = max(0, int(params.get("pace", DEFAULT_PACE_MS))) / 1000
        except ValueError:
            self.pace = DEFAULT_PACE_MS / 1000
        self.preferred = params.get("game")
        self.real_dice = params.get("dice") == "real"  # ?dice=real: "Avec de vrais dés" ticked
        self.match = None
        self.bots = {}
        self.generation = 0  # bumps on every new match so old bot loops stop
        self.bots_running = None
        self.tables = {}  # tables name -> the task that loads them (awaited by every user)
        self.bot_players = {}
        self.downgraded = set()  # seats playing a simpler level than their own (see _downgrade)
        self.embed = None  # the embed page's EmbedConfig (see _embed_start)
        self.store_key = f"pygames:{family_id}:match"
        self.setup_key = f"pygames:{family_id}:setup"
        self.view_key = f"pygames:{family_id}:view"  # the table as last drawn (js/view-early.js)
        self.setup_notice = None  # a notice from reading the setup preferences
        self.follow_pending = False  # a catch-up with another tab is scheduled
        self.last_saved = None  # the text this tab last saved (see _on_storage)
        self.halted = False  # a newer version holds the saved game: this tab writes nothing
        self.newer_saved = None  # that game's text, which the player may set aside
        self.replay = None  # a shared replay being shown (replay_view.py): read-only, never saved
        self.table = Table(self)  # what the view sees of the page (table.py)
        self.view = import_module(self.family.view).View(self.table)
        self.tools = TableTools(self)  # Annuler, the computer's speed, confirm a 0
        self.flow = Flow(self)  # keys, focus after a turn, the computer's status, joy (flow.py)
        self.stats = StatsView(self)  # the Statistiques dialog; records each finished game
        self.daily = Daily(self)  # the day's challenge (daily.py)
        self.remote = Remote(self)  # playing at a distance, by links (remote_view.py)
        self.duo = Duo(self)  # two devices at one table, linked (duo.py)

    # --- start-up ---------------------------------------------------------------------

    def start(self):
        self._bind()
        self.view.bind()
        self.stats.bind()
        self.tools.bind()
        self.flow.bind()
        self.daily.bind()
        self.remote.bind()
        self.duo.bind()
        self.duo.start()  # a host's code (#pair=…): this page joins its game, over whatever it shows
        if document.body.hasAttribute("data-embed") and not self._embed_start():
            return
        self.drive = Drive(self.store_key, self._drive_back)  # which tab plays the computer
        self.drive.bind()
        self.drive.take()
        if replay_view.start(self):  # a replay link (#replay=…): shown read-only, nothing saved
            return
        on(window, "storage", self._on_storage)
        on(window, "pygames-storage-refused", self._on_refused)
        on(by_id("error-aside"), "click", self._set_newer_aside)
        saved = storage.get(self.store_key)
        fresh = "fresh" in query_params()
        self.flow.drop_fresh()  # used once: a reload resumes the game begun since
        if self.remote.start(saved):  # a play link (#play=…): the game carried on (remote_view.py)
            return
        if self.daily.start(saved):  # ?daily=YYYY-MM-DD: that day's challenge (daily.py)
            return
        if saved is not None and not fresh:
            try:
                self._resume(check_saved_match(read_json(saved)))
                return
            except NewerRecord:  # not corrupt: kept in place, for the newer version
                self._halt(text(NEWER_SAVED), aside=saved)
                return
            except Exception as err:  # no stored value may stop the page from starting
                self.set_aside(self.store_key, saved)
                why = str(err) if isinstance(err, (GameError, BadStored)) else text("site.bad.save_unreadable")
                self.show_setup(text("site.resume.failed", why=short(why, 200)))
                return
        self.show_setup()

    def _halt(self, text, aside=None):
        """A newer version of the site wrote the saved game: this page cannot read it and
        must not write over it. It stops (its computer players too) and offers to reload;
        `aside`: the stored text, which the player may also set aside to play another game."""
        self.halted = True
        self.generation += 1
        by_id("error-text").textContent = text
        show(by_id("error-reload"), True)
        self.newer_saved = aside
        show(by_id("error-aside"), aside is not None)
        self.show_screen("error")

    def _set_newer_aside(self, event):
        raw = self.newer_saved
        if raw is None:
            return
        self.newer_saved = None
        if storage.get(self.store_key) == raw:
            self.set_aside(self.store_key, raw)
        self.halted = False
        self.last_saved = None
        self.match = None
        show(by_id("error-aside"), False)
        self.show_setup(text("site.newer.set_aside"))

    def set_aside(self, key, raw):
        """Move a stored value the page cannot use out of the way, keeping it (bounded)
        for a bug report under pygames:corrupt:<key>:<time>; only the newest two stay."""
        old = sorted(k for k in storage.keys() if isinstance(k, str) and k.startswith(CORRUPT_PREFIX))
        for k in old[:-1]:
            storage.remove(k)
        storage.remove(key)
        storage.set(aside_key(key, int(window.Date.now())), aside_value(raw))

    def _resume(self, blob):
        match = load_match(blob.get("record"), self._sampler())
        if match.game.family != self.family.id:
            raise BadRecord("site.resume.other_game")
        self._adopt(match)
        self.last_saved = storage.get(self.store_key)
        self.halted = False  # (a tab stopped by a newer version's game follows a readable one again)
        self.view.restore_ui(blob)
        self._resumed()

    def _resumed(self) -> None:
        """A game taken up again is on the table: its end screen, or the next move."""
        self.show_table()
        if self.match.state.is_terminal():
            self.show_end()
            return
        self.announce(text("site.resume.done"))
        self.schedule_bots()

    def _sampler(self):
        return DiceSampler(self.seed) if self.seed else DiceSampler()

    def _adopt(self, match):
        self.generation += 1
        self.match = match
        self.bots = {i: p.seat for i, p in enumerate(match.players) if p.is_computer}
        self.bot_players = {}
        self.downgraded = set()  # seats playing a simpler level (the expert without its tables)
        self.view.adopt(match)
        self.tools.adopt(match)
        self.daily.adopt(match)
        self.update_rules_panel(match.game, match.options)
        document.body.dataset.game = match.game.id  # read by js/embed-dialog.js
        if self.family.game_tables(match.game, match.options) and (
                self.family.advisor or "expert" in match.game.seats):
            spawn(self._prefetch_tables())

    async def _prefetch_tables(self):
        """Fetch this game's tables in the background as soon as it is set up, so that the
        expert and the advisor work offline later (the service worker keeps what is fetched)."""
        try:
            await self.load_tables(quiet=True)
        except Exception:
            pass  # the expert or the advisor says so when it is asked

    def _bind(self):
        on(by_id("table"), "click", self._on_table_click)
        on(document, "keydown", self._on_key)
        on(by_id("setup-form"), "submit", self._on_setup_submit)
        on(by_id("setup-form"), "change", lambda e: self.update_rules_panel(*self._setup_choice()))
        on(by_id("again"), "click", lambda e: self._again())
        on(by_id("to-setup"), "click", lambda e: self.show_setup())
        on(by_id("quit"), "click", self._on_quit)
        on(by_id("free-space"), "click", self._on_free_space)
        on(by_id("download-game"), "click", self._on_download)
        on(by_id("share-download"), "click", self._on_download)  # offered always (Partager)
        on(by_id("load-game"), "change", self._on_load_file)
        advise, analyse = by_id("advise"), by_id("analyse")
        if advise:
            on(advise, "click", self._on_advise)
            on(by_id("advice"), "click", self._on_advice_click)
            show(advise.parentNode, self.family.advisor)
        if analyse:
            on(analyse, "click", self._on_analyse)
            show(analyse, self.view.has_analysis)

    # --- screens ----------------------------------------------------------------------

    def show_screen(self, name):
        """Show one screen (loading, setup, table, end, error; the replay draws on the table)."""
        if by_id(name).hidden:  # a new screen opens at the top, the site header in view
            window.scrollTo(0, 0)
        for section in ("loading", "setup", "table", "end", "error"):
            show(by_id(section), section == name)
        show(by_id("quit"), name == "table")
        if by_id("daily"):
            show(by_id("daily"), name == "daily")
        self.daily.screen(name)
        self.remote.screen(name)
        self.duo.refresh()
        if by_id("share-open"):
            show(by_id("share-open"), name == "table" and self.replay is None)
        if name == "setup":
            show(by_id("save-trouble"), False)
        by_id("table").classList.remove("finished")

    def show_setup(self, notice=None):
        if self.embed and self.embed.players:  # no setup screen: the notice is the table's hint
            notice = " ".join(filter(None, (notice, self.setup_notice)))
            self.setup_notice = None
            self._embed_new_match()
            if notice:
                self.hint(short(notice, 600))
            return
        self.generation += 1
        self._build_setup()  # (reading the stored setup may leave a notice of its own)
        if self.setup_notice:
            notice = " ".join(filter(None, (notice, self.setup_notice)))
            self.setup_notice = None
        note = by_id("setup-notice")
        note.textContent = short(notice or "", 600)
        show(note, bool(notice))
        self.show_screen("setup")
        form = by_id("setup-form")
        if form.hasAttribute("data-pending"):  # "Commencer" clicked before Python was ready
            form.removeAttribute("data-pending")
            self._on_setup_submit(None)

    def show_table(self):
        self.show_screen("table")
        self.view.render()
        self.flow.mark_turn()
        self.tools.refresh()
        self._store_view()

    def _store_view(self):
        """Keep the table as drawn (after the dice land), for the next visit to show at once
        while Python starts (js/view-early.js: a bounded tree of tags and text, no HTML)."""
        early = getattr(window.pygames, "early", None)
        if early and self.replay is None:  # a replay is not the visitor's game
            early.storeView()

    def show_end(self):
        match = self.match
        state, players = match.state, match.players
        outcome = match.outcome()
        ranking = by_id("ranking")
        clear(ranking)
        scores = state.scores()
        for place, group in enumerate(outcome.ranking):
            for p in group:
                item = el("li", None, value=place + 1)
                item.appendChild(el("bdi", players[p].name, "name"))
                item.appendChild(el("span", self.view.score_text(p, scores[p]), "score"))
                if len(group) > 1:
                    item.appendChild(el("span", " " + text("site.end.tied")))
                lines = self.view.score_lines(p)
                if lines:  # one line each (not a list: the ranking's items stay its players)
                    box = el("span", None, "score-lines")
                    for n, line in enumerate(lines):
                        if n:
                            box.appendChild(el("span", text("site.end.lines_sep"), "sr-only"))
                        box.appendChild(el("span", line, "score-line"))
                    item.appendChild(box)
                ranking.appendChild(item)
        names = [Name(players[p].name) for p in outcome.winners]
        reason = render(self.family.text.reason(outcome, match.names))
        title = by_id("end-title")
        if len(players) == 1:
            title_pieces = reason[:-1] + [(reason[-1][0].rstrip("."), reason[-1][1])]
        elif outcome.draw:
            title_pieces = render(Msg("end.draw", players=names))
        elif outcome.losers and len(names) > 1:
            title_pieces = reason
        elif len(names) == 1:
            title_pieces = render(Msg("end.wins", player=names[0]))
        else:
            title_pieces = reason
        # Each name in its own <bdi>: a right-to-left name cannot reverse the sentence.
        set_text(title, title_pieces)
        reason_node = by_id("end-reason")
        if reason_node:
            set_text(reason_node, reason if plain(reason) != plain(title_pieces) else "")
        self.show_screen("end")
        analysis = by_id("analysis")
        if analysis:
            show(analysis, False)
            by_id("analyse").setAttribute("aria-expanded", "false")
        # The final table stays in view under the ranking.
        end, table = by_id("end"), by_id("table")
        table.parentNode.insertBefore(end, table)
        table.classList.add("finished")
        show(table, True)
        self._store_view()
        self.announce(title.textContent + ". " + (reason_node.textContent if reason_node else ""))
        by_id("again").focus()
        end.scrollIntoView(True)  # the end screen opens on its title and ranking
        if match.daily:  # the day's challenge: counted apart, and shared (daily.py)
            self.daily.finished(match)
        else:
            self.stats.record(match)  # once per game (keyed by its record); never raises

    # --- setup ------------------------------------------------------------------------

    def _saved_setup(self):
        """The last setup's choices; a bad stored value is set aside with a notice.  The
        setup's rules are the page's JSON (#setup-data), which js/setup-early.js reads too."""
        raw = storage.get(self.setup_key)
        try:
            return check_setup(raw, json.loads(by_id("setup-data").textContent))
        except BadStored as err:
            self.set_aside(self.setup_key, raw)
            self.setup_notice = text("site.prefs.set_aside", why=str(err))
            return {}

    def _build_setup(self):
        """The setup form is plain HTML written by the build (web/tools/build.py) and kept working
        by js/setup-early.js before and after Python starts (rulesets and their options,
        seats, player rows). The first time, if the player saw it before Python was ready,
        the shell adopts it as it is (they may have been choosing); otherwise the script
        resets it to the stored choices. A choice made early and submitted ("Démarrage…")
        starts the game now (see show_setup)."""
        self._saved_setup()  # a bad stored value is set aside here, with a notice
        form = by_id("setup-form")
        seen_early = document.body.getAttribute("data-early") == "setup"
        if form.getAttribute("data-owner") == "python" or not seen_early:
            early = getattr(window.pygames, "setup", None)
            if early:
                early.reset()
        form.setAttribute("data-owner", "python")
        start = by_id("start")
        start.textContent = text("site.setup.start")
        start.removeAttribute("aria-busy")
        show(by_id("setup-error"), False)
        self.view.build_setup_extra(by_id("setup-extra"), self._chosen_game())
        if self.real_dice and by_id("real-dice"):
            by_id("real-dice").checked = True
        if self.embed:
            self._embed_setup()
        self.update_rules_panel(*self._setup_choice())

    def _chosen_game(self):
        for radio in document.querySelectorAll("input[name=ruleset]"):
            if radio.checked:
                return self.games[radio.value]
        return next(iter(self.games.values()))

    def _set_options(self, values):
        """Option values put into the setup form (the embedder's)."""
        for node in by_id("option-choices").querySelectorAll("[data-option]"):
            if node.dataset.option in values:
                value = values[node.dataset.option]
                if node.type == "checkbox":
                    node.checked = value is True
                else:
                    node.value = str(value)

    def _setup_choice(self):
        """The ruleset and options chosen on the setup screen."""
        game = self._chosen_game()
        options = {}
        for node in by_id("option-choices").querySelectorAll("[data-option]"):
            opt = next(o for o in game.options if o.id == node.dataset.option)
            options[opt.id] = node.checked if not opt.choices else opt.parse(node.value)
        return game, options

    @property
    def setup_rows(self):
        """(row, name input, seat select) of each player row of the setup form."""
        return [(row, row.querySelector("input"), row.querySelector("select"))
                for row in by_id("player-rows").querySelectorAll("li")]

    def setup_names(self) -> list[str]:
        """The names typed in the setup's player rows ("Joueur n" for an empty one)."""
        return [name.value.strip() or str(default_name(i + 1, "human"))
                for i, (_, name, _) in enumerate(self.setup_rows)]

    def _on_setup_submit(self, event):
        if event is not None:
            event.preventDefault()
        game, options = self._setup_choice()
        try:
            players = [
                Player(name.value.strip() or str(default_name(i + 1, "human")), seat.value)
                for i, (_, name, seat) in enumerate(self.setup_rows)
            ]
            start = self.view.read_setup_extra(game, players)
            real = by_id("real-dice")
            match = Match(game, players, options, self._sampler(), start,
                          undo=not by_id("no-undo").checked if by_id("no-undo") else True,
                          dice="real" if real and real.checked else "page")
        except GameError as err:
            error = by_id("setup-error")
            error.textContent = str(err)
            show(error, True)
            return
        others = self.duo.setup_wanted()  # "Deux appareils": the seats on the other device
        why = self.duo.check_setup(match, others) if others is not None else None
        if why:
            error = by_id("setup-error")
            error.textContent = why
            show(error, True)
            return
        storage.set(
            self.setup_key,
            json.dumps({"game": game.id, "options": options, "players": [p.to_json() for p in players]}),
        )
        self.duo.new_match()
        self._begin(match)
        if others is not None:
            self.duo.host(match, others)

    def _begin(self, match, focus=True):
        self.drive.take()
        self._adopt(match)
        self.save(replace=True)
        self.show_table()
        self.announce(text("site.game.new", title=str(match.game.title)))
        self.schedule_bots()
        if focus:
            self.focus_view()

    def _again(self):
        m = self.match
        match = Match(m.game, m.players, m.options, self._sampler(), m.start, undo=m.undo_allowed, dice=m.dice)
        if not self.duo.rehost(match):  # two devices: the new game on both
            self.duo.new_match()
        self._begin(match)
        self.duo.changed()

    def _on_quit(self, event):
        if self.match and not self.match.state.is_terminal():
            ask(text("site.quit.title"), text("site.quit.text"), text("site.quit.accept"), self._quit,
                cancel=text("site.quit.cancel"))
            return
        self._quit()

    def _quit(self):
        storage.remove(self.store_key)
        storage.remove(self.view_key)
        self.last_saved = None
        self.show_setup()

    # --- playing ----------------------------------------------------------------------

    def human_turn(self):
        state = self.match.state if self.match else None
        return (
            state is not None
            and not state.is_terminal()
            and not state.is_chance()
            and state.current_player() not in self.bots
            and not by_id("table").hidden
            and self.replay is None
            and not self.remote.waiting()  # a person of another device plays (remote_view.py)
        )

    def play_text(self, notation, peer=False):
        """A human's action, from a data-action notation (a click or a key); `peer`: from the
        other device of a game on two (duo.py checked that its seat is to play).  Returns
        the reason if it is not played (also said in the hint for this page's own)."""
        if not (peer or self.human_turn()):
            return text("site.duo.not_your_turn")
        try:
            action = self.match.game.parse_action(notation)
        except GameError as err:
            if not peer:
                self.hint(str(err))
            return str(err)
        return self.play(action, peer=peer)

    def throw_faces(self, notation, written):
        """Real dice: a person's throw (`notation`) and the faces typed in for it, played
        as one move; the reason when the entry is wrong (nothing changes), else None."""
        if not self.human_turn() or self.match.dice != "real":
            return None
        try:
            action = self.match.game.parse_action(notation)
            landing = self.match.state.apply(action)  # checked before anything is played
            faces = read_faces(written, landing.dice_to_throw() if landing.is_chance() else 0)
        except GameError as err:
            return str(err)  # said under the field (tray.py), which screen readers hear
        if landing.apply(Throw(faces)).is_terminal():
            # a throw that ends the game could not be corrected after: it is confirmed first
            ask(text("site.real.last_title"), text("site.real.last_text", dice=" ".join(map(str, faces))),
                text("site.real.last_accept"), lambda: self.play(action, faces=faces),
                cancel=text("site.real.last_cancel"))
            return None
        self.play(action, faces=faces)
        return None

    def play(self, action, by_bot=False, faces=None, peer=False):
        """Apply a player's action, let any dice fall (or, with real dice, those of
        `faces`: typed in at the table), save, redraw.  `peer`: the other device's move, in
        a game on two devices (duo.py).  Returns the reason if it is not played."""
        if self.stale():
            return text("site.duo.stale")
        if faces is None and not by_bot and self._awaits_faces(action):
            self.hint(text("site.real.type_first"))
            focus_faces()
            return text("site.real.type_first")
        if not by_bot and not peer and self.tools.hold(action):
            return None  # it waits for the player's confirmation (table_tools.py)
        if not by_bot and not peer and self.duo.forward(action):
            return None  # the guest of two devices: the host plays it, and sends it back
        before = self.match.state
        actor = before.current_player()
        ply = len(self.match.history)
        try:
            self.match.apply(action)
            if faces is not None:
                self.match.type_throw(faces)
        except GameError as err:
            if not peer:
                self.hint(str(err))
            return str(err)
        if not by_bot:
            self.drive.take()  # a person plays here: this tab plays the computer's turns
        self.remote.played(actor, by_bot or peer)  # (a game by links: that seat is this device's)
        self.close_advice()
        after = self.match.advance_chance()
        self.duo.played(ply)  # the host: the move and its dice to the other device
        self.view.moved(before, action, after)
        if self._shown(before, action, plain(pieces_of(self.view.describe(before, action, after))),
                       by_bot, ply):
            return None
        if not by_bot:
            self.schedule_bots()
        self.flow.after_play(actor, by_bot or peer)
        return None

    def show_moves(self, before, action, actor, ply):
        """The guest of two devices: moves the host sent were applied to the match (from
        `before`, the first of them `action`, by `actor`): drawn and said as if played here."""
        after = self.match.state
        by_bot = actor is None or actor in self.bots or self.remote.waiting()
        self.close_advice()
        try:
            self.view.moved(before, action, after)
            said = plain(pieces_of(self.view.describe(before, action, after)))
        except Exception:  # (never a dice throw first: the host sends a decision and its dice)
            said = ""
        if not self._shown(before, action, said, by_bot, ply):
            self.flow.after_play(actor, True)

    def _shown(self, before, action, said, by_bot, ply) -> bool:
        """What follows a move drawn here, played on this device or received (`said`, its
        description): the game saved, the move cheered and said, the page drawn, the turn
        marked, the tools told; the end shown when it ended the game (then True)."""
        self.save()
        said = self.flow.cheer(before, action, said, by_bot)
        self.announce(said)
        self.view.render()
        self.flow.mark_turn()
        self.tools.played(ply, said)
        if not self.match.state.is_terminal():
            return False
        self.show_end()
        self.flow.won()
        return True

    def _awaits_faces(self, action):
        """With real dice, a person's throw without its faces (a Lancer pressed, a key, the
        421's Charge auto): it would leave dice in the air that only a person can type."""
        if self.match.dice != "real":
            return False
        try:
            landing = self.match.state.apply(action)
        except GameError:
            return False  # apply explains it
        return landing.is_chance() and landing.thrown_at_table() and \
            not self.match.players[landing.thrower()].is_computer

    def schedule_bots(self):
        if self.duo.holds_back():
            return  # the guest of two devices: the host plays the computer's seats
        state = self.match.state
        if (self.bots_running != self.generation and not state.is_terminal()
                and state.current_player() in self.bots):
            if not self.drive.mine:  # another tab plays them; this one follows it
                self.drive.watch(self.pace)
                return
            self.bots_running = self.generation
            spawn(self._run_bots(self.generation))

    def _drive_back(self):
        """This tab drives again (it came to the front, or the driving tab went quiet)."""
        if self.match is not None and self.replay is None and not by_id("table").hidden:
            self.schedule_bots()

    async def _run_bots(self, generation):
        # Beats while the loop runs: a tab that follows does not take a slow driver for a closed one.
        spawn(self.drive.beat(lambda: self.bots_running == generation and generation == self.generation))
        try:
            await self._bot_loop(generation)
        except Exception as err:  # a bot must never stall the game silently
            self.announce(text("site.bot.stopped", error=str(err)))
            raise
        finally:
            if self.bots_running == generation:
                self.bots_running = None

    async def _bot_loop(self, generation):
        while generation == self.generation and self.drive.mine:
            state = self.match.state
            if state.is_terminal() or state.current_player() not in self.bots:
                return
            # The pause, longer while the person's last decision may be taken back.
            await self.tools.computer_pause(self.pace, lambda: generation == self.generation)
            if generation != self.generation:
                return
            bot = await self._bot(self.bots[state.current_player()])
            if generation != self.generation:
                return
            started = window.performance.now()
            action = bot(state)
            self._record_decision(window.performance.now() - started)
            # The view may show the choice before it happens (e.g. the dice kept).
            action = await self.view.preview(state, action, self.pace / 2)
            if generation != self.generation or not self.drive.mine:
                break
            self.play(action, by_bot=True)
        if generation == self.generation and not self.drive.mine:
            self.drive.watch(self.pace)  # another tab took the drive: unless it goes quiet

    @staticmethod
    def _record_decision(ms):
        """For e2e/bench/bench_pages.py: the decision's time, if the page was asked to keep them."""
        times = getattr(window.pygames, "botTimes", None)
        if times is not None and hasattr(times, "push"):
            times.push(ms)

    async def _bot(self, seat):
        """The computer player of a seat; tables (if it needs any) are fetched on first use."""
        if seat not in self.bot_players:
            level, tables = seat, None
            if seat == "expert" and self.family.game_tables(self.match.game, self.match.options):
                try:
                    tables = await self.load_tables()
                except GameError as err:
                    fallback = "simple" if "simple" in self.match.game.seats else None
                    if fallback is None:
                        raise
                    self.announce(text("site.bot.downgraded", error=str(err)))
                    level = fallback
                    self._downgrade(seat)
            self.bot_players[seat] = bot_for(self.match.game, level, tables)
        return self.bot_players[seat]

    def _downgrade(self, seat):
        """Say on the table, beside each such player's name, that this seat plays simpler."""
        self.downgraded.add(seat)
        for badge in document.querySelectorAll(f'#table .bot[data-seat="{seat}"]'):
            badge_text = bot_badge_text(seat, True)
            badge.textContent = f" ({badge_text})" if badge.hasAttribute("data-paren") else badge_text

    async def load_tables(self, quiet=False):
        """The solved tables of this game's rules and options, fetched once: callers at the
        same time (the background prefetch, the expert, the advisor) share one fetch."""
        game, options = self.match.game, self.match.options
        name = self.family.game_tables(game, options)
        if name not in self.tables:
            if not quiet:
                self.hint(text("site.tables.loading"))
            self.tables[name] = asyncio.ensure_future(self._fetch_tables(self.family, name))
        try:
            return await self.tables[name]
        except GameError:
            self.tables.pop(name, None)  # the next call tries again
            if not quiet and self.match is not None:  # "Chargement des tables…" no more
                self.hint(self.view.hint_text())
            raise

    @staticmethod
    async def _fetch_tables(family, name):
        try:
            # From the site's root, whatever the page's language folder (<html data-root="../">).
            root = document.documentElement.getAttribute("data-root") or ""
            response = await fetch(f"{root}tables/{name}.bin")
            ok = response.ok
            # arrayBuffer(): one copy (Pyodide's to_py); PyScript's bytearray() copies byte
            # by byte through the JS bridge, a second of the main thread per MB at 4× CPU.
            data = bytes(await response.arrayBuffer()) if ok else b""
        except Exception:
            ok = False
        if not ok:
            raise GameError("site.tables.failed")
        if not family.load_steps:
            return family.load_tables(data)
        # A slice of the reading per task (Yams: 1.4 million states): a tap made meanwhile
        # is answered between two slices, not after seconds of decoding.
        steps = family.load_steps(data)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value
            await asyncio.sleep(0)

    # --- the advisor and the analysis (their contents come from the view) --------------

    def _on_advise(self, event):
        panel = by_id("advice")
        if not panel.hidden:
            self.close_advice()
            return
        by_id("advise").setAttribute("aria-expanded", "true")
        by_id("table").querySelector(".play").classList.add("advising")
        show(panel, True)
        clear(panel)
        panel.appendChild(el("p", text("site.advice.thinking"), "hint"))
        spawn(self._show_advice(self.generation, len(self.match.history)))

    def close_advice(self):
        """Close the advisor's panel (a move was played, or one was taken back)."""
        panel = by_id("advice")
        if not panel or panel.hidden:
            return
        show(panel, False)
        by_id("table").querySelector(".play").classList.remove("advising")
        by_id("advise").setAttribute("aria-expanded", "false")

    async def _show_advice(self, generation, ply):
        try:
            tables = await self.load_tables()
        except GameError as err:
            self._fill(by_id("advice"), [el("p", str(err), "hint")])
            return
        if generation != self.generation or ply != len(self.match.history):
            return  # the game moved on meanwhile
        self.hint(self.view.hint_text())
        nodes, summary = self.view.advice(self.match.state, tables)
        if not nodes:
            self.close_advice()
            return
        self._fill(by_id("advice"), nodes)
        self.announce(summary)

    def _on_advice_click(self, event):
        button = event.target.closest("button[data-advice]")
        if button and self.human_turn():
            self.view.take_advice(button.dataset.advice)

    def _on_analyse(self, event):
        panel = by_id("analysis")
        if not panel.hidden:
            show(panel, False)
            by_id("analyse").setAttribute("aria-expanded", "false")
            return
        by_id("analyse").setAttribute("aria-expanded", "true")
        show(panel, True)
        self._fill(panel, [el("p", text("site.analysis.running"), "hint")])
        spawn(self._show_analysis())

    async def _show_analysis(self):
        panel = by_id("analysis")
        try:
            nodes = self.view.analysis(self.match, await self.load_tables())
        except GameError as err:
            nodes = [el("p", str(err), "hint")]
        self._fill(panel, nodes)

    @staticmethod
    def _fill(panel, nodes):
        clear(panel)
        for node in nodes:
            panel.appendChild(node)

    def save(self, replace=False):
        """Write the game, unless another tab changed it since this one last saved or read
        it: then this tab follows that game (or stops, if a newer version wrote it) and
        writes nothing, so that no move made elsewhere is lost. `replace`: a new game, or
        one loaded from a file, by the player's own choice."""
        if self.replay is not None or self.halted:
            return  # a replay is never saved: the visitor's own game stays as it was
        current = storage.get(self.store_key)
        if not replace and current is not None and current != self.last_saved:
            self._follow(current)
            return
        blob = {"record": self.match.to_record(), **self.view.ui_state()}
        if self.match.state.is_terminal():
            blob["finished"] = True
        if self.embed:
            blob["embed"] = self.embed.signature
        data = json.dumps(blob)
        saved = storage.set(self.store_key, data)
        if not saved and storage.get(self.view_key) is not None:
            storage.remove(self.view_key)  # the drawing gives way to the game itself
            saved = storage.set(self.store_key, data)
        if saved:
            self.last_saved = data
            self._store_view()
            show(by_id("save-trouble"), False)
        elif not document.documentElement.hasAttribute("data-no-storage"):  # the frame says so
            by_id("save-trouble-text").textContent = text("site.save.full")
            show(by_id("save-trouble"), True)
            self.announce(text("site.save.failed"))

    # --- saving trouble, other tabs, a downloaded game ----------------------------------

    def _on_free_space(self, event):
        """Remove what the site itself keeps apart from this game: kept-aside bad values,
        then (if the player agrees) the other saved games of the site; save again."""
        mine = {self.store_key, self.setup_key, self.view_key, STATS_KEY}  # statistics stay (bounded)
        corrupt = [k for k in storage.keys() if isinstance(k, str) and k.startswith(CORRUPT_PREFIX)]
        for key in corrupt:
            storage.remove(key)
        if self.match:
            self.save()
        if by_id("save-trouble").hidden:
            return
        others = [k for k in storage.keys()
                  if isinstance(k, str) and k.startswith("pygames:") and k not in mine]

        def clear_others():
            for key in others:
                storage.remove(key)
            if self.match:
                self.save()
            still_full()

        def still_full():
            if not by_id("save-trouble").hidden:
                by_id("save-trouble-text").textContent = text("site.save.still_full")

        if others:
            ask(text("site.free.title", n=len(others)), text("site.free.text"),
                text("site.free.accept"), clear_others, on_cancel=still_full)
        else:
            still_full()

    def _on_download(self, event):
        """The game as a JSON record (what `python -m pygames replay` and this page read)."""
        if not self.match:
            return
        data = json.dumps(self.match.to_record(), ensure_ascii=False, indent=1)
        blob = window.Blob.new([data], {"type": "application/json"})
        url = window.URL.createObjectURL(blob)
        link = el("a", None, href=url, download=text("site.file.game", game=self.match.game.id))
        document.body.appendChild(link)
        link.click()
        link.remove()
        later(1000, lambda: window.URL.revokeObjectURL(url))

    def _on_load_file(self, event):
        files = event.target.files
        if files and files.length:
            spawn(self._load_file(files.item(0)))

    async def _load_file(self, file):
        error = by_id("setup-error")
        try:
            if file.size > 2_000_000:
                raise BadStored("site.bad.file_too_big")
            record = read_json(await file.text())
            if isinstance(record, dict) and isinstance(record.get("record"), dict):
                record = record["record"]  # a saved blob works too
            match = load_match(record, self._sampler())
            if match.game.family != self.family.id:
                raise BadRecord("site.load.other_family", title=str(match.game.title))
        except Exception as err:
            why = str(err) if isinstance(err, (GameError, BadStored)) else text("site.bad.file_unreadable")
            error.textContent = short(text("site.load.failed", why=why))
            show(error, True)
            return
        self.drive.take()
        self._adopt(match)
        self.save(replace=True)
        self._resumed()

    def _on_refused(self, event):
        """A save the page's storage refused after the fact: with the page's Python in a worker,
        the worker's copy of the storage took the game and the page found it full
        (web/worker/worker_host.py).  The stored game is the one before: this tab saves again,
        which its copy now refuses, and the player is told, as a refusal on the spot would."""
        if event.key == self.store_key and self.match is not None:
            self.last_saved = storage.get(self.store_key)
            self.save()

    def _on_storage(self, event):
        """Another tab saved (or abandoned) this game: follow it, so no action is lost."""
        if event.key != self.store_key or not self.match:
            return
        new = event.newValue if isinstance(event.newValue, str) else None  # JS null: removed
        if new == self.last_saved or self.follow_pending:
            return
        # Another tab may save many times in a row (its computer at full speed): catch up
        # once, with the newest value, rather than redraw every position in between.
        self.follow_pending = True
        spawn(self._follow_latest())

    async def _follow_latest(self):
        try:
            await asyncio.sleep(0.03)
        finally:
            self.follow_pending = False
        if not self.match:
            return
        current = storage.get(self.store_key)  # None: abandoned in another tab
        if current != self.last_saved:
            self._follow(current)

    def _follow(self, saved):
        self.last_saved = saved
        if saved is None:
            if not by_id("setup").hidden:
                return
            self.generation += 1  # stops this tab's computer players
            self.match = None
            self.show_setup(text("site.follow.abandoned"))
            return
        try:
            self._resume(check_saved_match(read_json(saved)))
        except NewerRecord:
            self._halt(text(NEWER_ELSEWHERE))
            return
        except Exception:  # the other tab's value is unreadable: kept aside, ours goes on
            self.set_aside(self.store_key, saved)
            self.last_saved = None
            self.save()
            return
        self.hint(text("site.follow.moved"))

    def stale(self):
        """True (after catching up) if another tab changed the saved game since this one
        saved it: the action asked for was meant for a position that is gone."""
        if self.last_saved is None:
            return False
        current = storage.get(self.store_key)  # None: abandoned in another tab
        if current == self.last_saved:
            return False
        self._follow(current)
        return True

    # --- embed form (embed-<id>.html; its URL parameters are parsed by embed.py) ------

    def _embed_start(self):
        """Take the embedder's choices; False if they are wrong (the frame then says why)."""
        try:
            self.embed = parse_embed(window.location.search, self.family.id)
        except EmbedError as err:
            by_id("error-text").textContent = text("site.embed.misconfigured", why=str(err))
            show(by_id("error-reload"), False)
            self.show_screen("error")
            return False
        self.store_key = self.embed.store_key(self.store_key)
        self.setup_key = self.embed.store_key(self.setup_key)
        self.view_key = self.embed.store_key(self.view_key)
        if self.embed.game:
            self.preferred = self.embed.game.id
        if self.embed.players:
            show(by_id("to-setup"), False)
        saved = storage.get(self.store_key)
        try:  # a game saved under other parameters (the embedder changed them) is set aside
            stale = check_saved_match(read_json(saved or "{}")).get("embed") != self.embed.signature
        except BadStored:
            stale = False  # unreadable: start() sets it aside and says so
        if stale:
            self.set_aside(self.store_key, saved)
            self.setup_notice = text("site.embed.stale")
        return True

    def _embed_setup(self):
        """The setup screen offers only what the embedder left open."""
        embed = self.embed
        show(by_id("ruleset-choices").parentNode, embed.game is None and len(self.games) > 1)
        if embed.options is not None:
            self._set_options(embed.options)
        show(by_id("option-choices").parentNode, embed.options is None)
        if embed.game:
            by_id("setup-title").textContent = str(embed.game.title)
        if embed.dice and by_id("real-dice"):
            by_id("real-dice").checked = True
            by_id("real-dice").disabled = True  # the embedder chose

    def _embed_new_match(self):
        """_begin without moving the focus: a frame must not scroll the host page to itself."""
        embed = self.embed
        self._begin(Match(embed.game, embed.players, embed.options, self._sampler(), dice=embed.dice or "page"),
                    focus=False)

    # --- events -----------------------------------------------------------------------

    def _on_table_click(self, event):
        target = event.target.closest("[data-action]")
        if enabled(target) and by_id("table").contains(target):
            self.play_text(target.dataset.action)

    def _on_key(self, event):
        if self.tools.on_key(event):  # U, Ctrl+Z: Annuler
            return
        if event.ctrlKey or event.metaKey or event.altKey or document.querySelector("dialog[open]"):
            return
        if self.replay is not None:  # a replay's own keys (replay_view.py); the game's play nothing
            self.replay.on_key(event)
            return
        if by_id("table").hidden or not self.flow.key_is_global(event):
            return  # a form field, or Space/Enter on a control: the focused element's key
        self.view.on_key(event)

    # --- what the shell's helpers (table_tools, replay_view, flow) may ask ------------

    def interrupt(self):
        """Whatever was under way for the position on the table stops: a computer's move
        chosen meanwhile never plays, a view's task ends (a new match, an undo, a replay)."""
        self.generation += 1

    def set_pace(self, seconds):
        """The computer's delay between moves."""
        self.pace = seconds

    def enter_replay(self, replay):
        """A shared replay takes the table for the whole visit: nothing is saved, no
        computer plays."""
        self.replay = replay
        self.interrupt()
        self.bots = {}

    def put_match(self, match):
        """A replay's position on the table, its seats as they were (the views describe a
        step as it was announced then); no computer plays it."""
        self.match = match
        self.bots = {i: p.seat for i, p in enumerate(match.players) if p.is_computer}

    # --- small services for the view --------------------------------------------------

    def focus_view(self):
        """The keyboard where a person plays next: the view's choice (Lancer, in practice),
        or, with real dice, the field where the faces are typed."""
        self.view.focus()
        focus_faces()

    def hint(self, text):
        """The line under the table: a text, a message or pieces (names placed as data)."""
        if self.remote.waiting():  # another device's turn: never "the computer thinks"
            text = self.duo.waiting_text() if self.duo.active else self.remote.hint_text()
        set_text(by_id("hint"), text, limit=300)

    def announce(self, text):
        """Say it to screen readers (a text, a message or pieces)."""
        by_id("live").textContent = plain(pieces_of(text))

    def update_rules_panel(self, game, options):
        """Show the parts of the Règles panel that the ruleset and options chosen follow."""
        for section in document.querySelectorAll("#rules [data-ruleset]"):
            show(section, section.dataset.ruleset == game.id)
        for node in document.querySelectorAll("#rules [data-option]"):
            wanted = node.dataset.when
            value = options.get(node.dataset.option)
            shown = (bool(value) == (wanted == "true")) if wanted in ("true", "false") else str(value) == wanted
            show(node, shown)


def speak():
    """Speak the page's language: its catalogue is in the page (``#catalogue``, written by
    web/tools/pages.py), read once Python is up, so that the memory snapshot holds no
    language and a page never reads a file for its words."""
    import json

    from pygames import messages

    data = json.loads(by_id("catalogue").textContent)
    messages.use(data["language"], data)


def main(family_id):
    speak()
    if not hasattr(window, "pygames"):  # the page's scripts make it; its absence stops nothing
        window.pygames = window.Object.new()
    early = getattr(window.pygames, "early", None)
    if early:
        early.release()  # the saved game's drawing (js/view-early.js) makes way for the live one
    shell = Shell(family_id)
    try:
        shell.start()
    except Exception as err:  # never a blank page
        by_id("error-text").textContent = text("site.start.failed", error=str(err))
        shell.show_screen("error")
        raise
    # The page's one ready signal (README, "window.pygames"), and when it came.
    window.pygames.readyAt = window.performance.now()
    document.body.dataset.ready = "1"
    if early:
        early.play()  # the taps and keys made on the drawing while Python woke, in order
    return shell
