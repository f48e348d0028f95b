"""The Yams page: binds the HTML dice and score sheet to a `pygames` match.

The page holds one `Match`; a click or a key becomes a `pygames` action, the match is
saved to localStorage after every action, and the page is redrawn from the state. Game
facts are never read back from the DOM.
"""

import asyncio
import json

from dom import by_id, clear, el, on, query_params, show, storage
from embed import EmbedError, parse_embed
from pyscript import document, fetch, window

from pygames import GAMES, BadRecord, DiceSampler, GameError, Match, Player, load_match
from pygames.bots import bot_for
from pygames.expert import advise, analyse, load_tables, rules_name
from pygames.yams import UPPER_IDS, Roll, Score

STORE_KEY = "pygames:yams:match"
SETUP_KEY = "pygames:yams:setup"
RULESETS = [g for g in GAMES.values() if g.family == "yams"]
DEFAULT_PACE_MS = 650
SEAT_LABELS = {"human": "Humain", "simple": "Ordinateur (facile)", "expert": "Ordinateur (expert)"}
MAX_PLAYERS = max(g.max_players for g in RULESETS)


def plural(n, word):
    return f"{n} {word}{'s' if abs(n) > 1 else ''}"


def points(value):
    return f"{value:.1f}".replace(".", ",")


def place_name(i):
    return "1er" if i == 0 else f"{i + 1}e"


class YamsPage:
    def __init__(self):
        params = query_params()
        self.seed = params.get("seed")
        try:
            self.pace = max(0, int(params.get("pace", DEFAULT_PACE_MS))) / 1000
        except ValueError:
            self.pace = DEFAULT_PACE_MS / 1000
        self.preferred = params.get("game")
        self.match = None
        self.held = set()
        self.bots = {}
        self.generation = 0  # bumps on every new match so old bot loops stop
        self.tables = {}  # rules name -> the expert's solved tables
        self.bot_players = {}
        self.cells = {}
        self.cell_cache = {}
        self.dice_nodes = []
        self.last_rolled = ()
        self.setup_rows = []
        self.embed = None  # the embed page's EmbedConfig (see _embed_start)
        self.store_key, self.setup_key = STORE_KEY, SETUP_KEY

    # --- start-up ---------------------------------------------------------------------

    def start(self):
        self._bind()
        if document.body.hasAttribute("data-embed") and not self._embed_start():
            return
        saved = storage.get(self.store_key)
        if saved and "fresh" not in query_params():
            try:
                blob = json.loads(saved)
                if not isinstance(blob, dict):
                    raise BadRecord("Sauvegarde illisible.")
                self._resume(blob)
                return
            except (ValueError, BadRecord) as err:
                storage.remove(self.store_key)
                why = str(err) if isinstance(err, GameError) else "sauvegarde illisible"
                self.show_setup(
                    f"La partie enregistrée n'a pas pu être reprise ({why}). "
                    "Une nouvelle partie vous attend."
                )
                return
        self.show_setup()

    def _resume(self, blob):
        match = load_match(blob.get("record"), self._sampler())
        self._adopt(match)
        held = blob.get("held", [])
        state = match.state
        if isinstance(held, list) and state.dice and 0 < state.rolls < 3:
            self.held = {p for p in held if isinstance(p, int) and 0 <= p < 5}
        self.show_table()
        if state.is_terminal():
            self.show_end()
            return
        self._announce("Partie reprise.")
        self._schedule_bots()

    def _sampler(self):
        return DiceSampler(self.seed) if self.seed else DiceSampler()

    def _adopt(self, match):
        self.generation += 1
        self.match = match
        self.held = set()
        self.last_rolled = ()
        self.bots = {i: p.seat for i, p in enumerate(match.players) if p.is_computer}
        self.bot_players = {}
        self._build_sheet()
        self._update_rules_panel(match.game, match.options)
        document.body.dataset.game = match.game.id  # read by js/embed-dialog.js

    def _bind(self):
        on(by_id("roll"), "click", lambda e: self.roll())
        on(by_id("dice"), "click", self._on_dice_click)
        on(by_id("sheet-body"), "click", self._on_sheet_click)
        on(document, "keydown", self._on_key)
        on(by_id("setup-form"), "submit", self._on_setup_submit)
        on(by_id("add-player"), "click", lambda e: self._add_player_row())
        on(by_id("again"), "click", lambda e: self._again())
        on(by_id("to-setup"), "click", lambda e: self.show_setup())
        on(by_id("quit"), "click", self._on_quit)
        on(by_id("advise"), "click", self._on_advise)
        on(by_id("advice"), "click", self._on_advice_click)
        on(by_id("analyse"), "click", self._on_analyse)
        on(window, "resize", lambda e: self._measure_play())
        for i in range(5):
            die = el("button", None, "die", type="button", data_die=i, data_face=0)
            die.appendChild(el("span", str(i + 1), "num", aria_hidden="true"))
            by_id("dice").appendChild(die)
            self.dice_nodes.append(die)

    # --- screens ----------------------------------------------------------------------

    def _screen(self, name):
        for section in ("loading", "setup", "table", "end", "error"):
            show(by_id(section), section == name)
        show(by_id("quit"), name == "table")
        by_id("table").classList.remove("finished")

    def show_setup(self, notice=None):
        if self.embed and self.embed.players:
            return self._embed_new_match()
        self.generation += 1
        self._build_setup()
        note = by_id("setup-notice")
        note.textContent = notice or ""
        show(note, bool(notice))
        self._screen("setup")

    def show_table(self):
        self._screen("table")
        self.render()

    def show_end(self):
        state, players = self.match.state, self.match.players
        ranking = by_id("ranking")
        clear(ranking)
        scores = state.scores()
        for place, group in enumerate(state.ranking()):
            for p in group:
                item = el("li", None, value=place + 1)
                item.appendChild(el("span", players[p].name, "name"))
                item.appendChild(el("span", plural(scores[p], "point"), "score"))
                if len(group) > 1:
                    item.appendChild(el("span", " (ex aequo)"))
                ranking.appendChild(item)
        best = state.ranking()[0]
        winners = " et ".join(players[p].name for p in best)
        title = by_id("end-title")
        if len(players) == 1:
            title.textContent = f"Partie terminée : {plural(scores[0], 'point')}"
        elif len(best) > 1:
            title.textContent = f"Égalité : {winners}"
        else:
            title.textContent = f"{winners} gagne !"
        self._screen("end")
        show(by_id("analysis"), False)
        by_id("analyse").setAttribute("aria-expanded", "false")
        # The final sheet stays in view under the ranking.
        end, table = by_id("end"), by_id("table")
        table.parentNode.insertBefore(end, table)
        table.classList.add("finished")
        show(table, True)
        self._announce(title.textContent)
        by_id("again").focus()

    # --- setup ------------------------------------------------------------------------

    def _saved_setup(self):
        try:
            data = json.loads(storage.get(self.setup_key) or "{}")
            return data if isinstance(data, dict) else {}
        except ValueError:
            return {}

    def _build_setup(self):
        saved = self._saved_setup()
        chosen = self.preferred if self.preferred in GAMES else saved.get("game", "yams")
        if chosen not in GAMES:
            chosen = "yams"
        box = by_id("ruleset-choices")
        clear(box)
        for game in RULESETS:
            label = el("label", None, "choice")
            radio = el("input", None, type="radio", name="ruleset", value=game.id)
            radio.checked = game.id == chosen
            on(radio, "change", lambda e: self._build_options({}))
            text = el("span")
            text.appendChild(el("strong", game.title))
            text.appendChild(el("small", game.summary))
            label.appendChild(radio)
            label.appendChild(text)
            box.appendChild(label)
        self._build_options(saved.get("options", {}) if saved.get("game") == chosen else {})
        rows = by_id("player-rows")
        clear(rows)
        self.setup_rows = []
        players = saved.get("players") or [{"name": "Joueur 1", "seat": "human"}]
        for p in players[:MAX_PLAYERS]:
            if isinstance(p, dict):
                self._add_player_row(str(p.get("name", ""))[:40], p.get("seat", "human"))
        if not self.setup_rows:
            self._add_player_row()
        show(by_id("setup-error"), False)
        if self.embed:
            self._embed_setup()

    def _chosen_game(self):
        for radio in document.querySelectorAll("input[name=ruleset]"):
            if radio.checked:
                return GAMES[radio.value]
        return GAMES["yams"]

    def _build_options(self, values):
        game = self._chosen_game()
        box = by_id("option-choices")
        clear(box)
        for opt in game.options:
            label = el("label")
            if opt.choices:
                select = el("select", None, name=f"opt-{opt.id}", data_option=opt.id)
                for choice in opt.choices:
                    option = el("option", str(choice), value=str(choice))
                    option.selected = values.get(opt.id, opt.default) == choice
                    select.appendChild(option)
                label.appendChild(el("span", opt.label))
                label.appendChild(select)
            else:
                check = el("input", None, type="checkbox", data_option=opt.id)
                check.checked = bool(values.get(opt.id, opt.default))
                on(check, "change", lambda e: self._update_rules_panel(*self._setup_choice()))
                label.appendChild(check)
                label.appendChild(el("span", opt.label))
            box.appendChild(label)
        if not game.options:
            box.appendChild(el("p", "Aucune option pour cette règle.", "empty"))
        self._update_rules_panel(*self._setup_choice())

    def _setup_choice(self):
        """The ruleset and options chosen on the setup screen."""
        game = self._chosen_game()
        options = {}
        for node in by_id("option-choices").querySelectorAll("[data-option]"):
            opt = next(o for o in game.options if o.id == node.dataset.option)
            options[opt.id] = node.checked if not opt.choices else type(opt.default)(node.value)
        return game, options

    def _add_player_row(self, name=None, seat="human"):
        if len(self.setup_rows) >= MAX_PLAYERS:
            return
        n = len(self.setup_rows) + 1
        row = el("li")
        name_input = el(
            "input", None, type="text", maxlength=40, autocomplete="off",
            aria_label=f"Nom du joueur {n}",
        )
        name_input.value = name if name is not None else f"Joueur {n}"
        seat_select = el("select", None, aria_label=f"Joueur {n} : humain ou ordinateur")
        for value, text in SEAT_LABELS.items():
            option = el("option", text, value=value)
            option.selected = value == seat
            seat_select.appendChild(option)
        remove = el("button", "Retirer", "ghost small remove", type="button")
        row.appendChild(name_input)
        row.appendChild(seat_select)
        row.appendChild(remove)
        entry = (row, name_input, seat_select)
        self.setup_rows.append(entry)
        on(remove, "click", lambda e: self._remove_player_row(entry))
        by_id("player-rows").appendChild(row)
        self._refresh_player_rows()

    def _remove_player_row(self, entry):
        if len(self.setup_rows) > 1:
            self.setup_rows.remove(entry)
            entry[0].remove()
            self._refresh_player_rows()

    def _refresh_player_rows(self):
        for row, _, _ in self.setup_rows:
            row.querySelector(".remove").disabled = len(self.setup_rows) == 1
        by_id("add-player").disabled = len(self.setup_rows) >= MAX_PLAYERS

    def _on_setup_submit(self, event):
        event.preventDefault()
        game, options = self._setup_choice()
        try:
            players = [
                Player(name.value.strip() or f"Joueur {i + 1}", seat.value)
                for i, (_, name, seat) in enumerate(self.setup_rows)
            ]
            match = Match(game, players, options, self._sampler())
        except GameError as err:
            error = by_id("setup-error")
            error.textContent = str(err)
            show(error, True)
            return
        storage.set(
            self.setup_key,
            json.dumps({"game": game.id, "options": options, "players": [p.to_json() for p in players]}),
        )
        self._begin(match)

    def _begin(self, match):
        self._adopt(match)
        self._save()
        self.show_table()
        self._announce(f"Nouvelle partie de {match.game.title}.")
        self._schedule_bots()
        by_id("roll").focus()

    def _again(self):
        m = self.match
        self._begin(Match(m.game, m.players, m.options, self._sampler()))

    def _on_quit(self, event):
        if self.match and not self.match.state.is_terminal():
            if not window.confirm("Abandonner la partie en cours ?"):
                return
        storage.remove(self.store_key)
        self.show_setup()

    # --- playing ----------------------------------------------------------------------

    def _human_turn(self):
        state = self.match.state if self.match else None
        return (
            state is not None
            and not state.is_terminal()
            and not state.is_chance()
            and state.current_player() not in self.bots
            and not by_id("table").hidden
        )

    def can_roll(self):
        state = self.match.state
        return self._human_turn() and state.rolls < 3 and len(self.held) < 5

    def roll(self):
        if not self.can_roll():
            return
        state = self.match.state
        if state.rolls == 0:
            action = Roll()
        else:
            places = tuple(sorted(self.held))
            action = Roll(tuple(sorted(state.dice[p] for p in places)), places or None)
        self._play(action)

    def toggle(self, place):
        state = self.match.state if self.match else None
        if not self._human_turn() or not state.dice or state.rolls >= 3:
            return
        self.held ^= {place}
        self._save()
        self.render()
        face = state.dice[place]
        self._announce(f"Dé {place + 1} ({face}) {'gardé' if place in self.held else 'relâché'}.")

    def score(self, box):
        if self._human_turn() and box in self.match.state.scorable():
            self._play(Score(box))

    def _play(self, action, by_bot=False):
        """Apply a player's action, let any dice fall, save, redraw."""
        actor = self.match.state.current_player()
        try:
            self.match.apply(action)
        except GameError as err:
            self._hint(str(err))
            return
        self._close_advice()
        rolled = self.match.state.rerolling
        self.match.advance_chance()
        self.last_rolled = rolled
        if isinstance(action, Score):
            self.held = set()
        self._save()
        self._describe(actor, action)
        if self.match.state.is_terminal():
            self.render()
            self.show_end()
            return
        self.render()
        if not by_bot:
            self._schedule_bots()

    def _schedule_bots(self):
        state = self.match.state
        if self.bots_running != self.generation and not state.is_terminal() and state.current_player() in self.bots:
            self.bots_running = self.generation
            asyncio.ensure_future(self._run_bots(self.generation))

    bots_running = None

    async def _run_bots(self, generation):
        try:
            await self._bot_loop(generation)
        finally:
            if self.bots_running == generation:
                self.bots_running = None

    async def _bot_loop(self, generation):
        while generation == self.generation:
            state = self.match.state
            if state.is_terminal() or state.current_player() not in self.bots:
                return
            await asyncio.sleep(self.pace)
            if generation != self.generation:
                return
            bot = await self._bot(self.bots[state.current_player()])
            if generation != self.generation:
                return
            action = bot(state)
            if isinstance(action, Roll) and action.keep:
                self.held = set(state.places_of(action.keep))
                self.render()
                await asyncio.sleep(self.pace / 2)
                if generation != self.generation:
                    return
                action = Roll(action.keep, tuple(sorted(self.held)))
            self._play(action, by_bot=True)

    async def _bot(self, seat):
        """The computer player of a seat; the expert's tables are fetched on first use."""
        if seat not in self.bot_players:
            level, tables = seat, None
            if seat == "expert":
                try:
                    tables = await self._tables()
                except GameError as err:
                    self._announce(f"{err} L'ordinateur joue en mode facile.")
                    level = "simple"
            self.bot_players[seat] = bot_for(self.match.game, level, tables)
        return self.bot_players[seat]

    async def _tables(self):
        """The solved tables of this game's rules, fetched once (tables/NAME.bin)."""
        name = rules_name(self.match.state.rules)
        if name not in self.tables:
            self._hint("Chargement des tables de l'expert…")
            try:
                response = await fetch(f"tables/{name}.bin")
                ok = response.ok
                data = bytes(await response.bytearray()) if ok else b""
            except Exception:
                ok = False
            if not ok:
                raise GameError("Les tables de l'expert n'ont pas pu être chargées.")
            self.tables[name] = load_tables(data)
        return self.tables[name]

    # --- the advisor and the analysis ------------------------------------------------

    def _on_advise(self, event):
        panel = by_id("advice")
        if not panel.hidden:
            self._close_advice()
            return
        by_id("advise").setAttribute("aria-expanded", "true")
        by_id("table").querySelector(".play").classList.add("advising")
        self._measure_play()
        show(panel, True)
        clear(panel)
        panel.appendChild(el("p", "Le conseiller réfléchit…", "hint"))
        asyncio.ensure_future(self._show_advice(self.generation, len(self.match.history)))

    def _close_advice(self):
        show(by_id("advice"), False)
        by_id("table").querySelector(".play").classList.remove("advising")
        self._measure_play()
        by_id("advise").setAttribute("aria-expanded", "false")

    def _describe_choice(self, state, action):
        if isinstance(action, Score):
            box = state.rules.boxes[state.rules.index[action.box]]
            return f"Inscrire {state.potential()[action.box]} en {box.label}"
        if state.rolls == 0:
            return "Lancer les dés"
        if not action.keep:
            return "Tout relancer"
        return "Garder " + " ".join(map(str, action.keep))

    async def _show_advice(self, generation, ply):
        try:
            tables = await self._tables()
        except GameError as err:
            self._fill_advice([el("p", str(err), "hint")])
            return
        if generation != self.generation or ply != len(self.match.history):
            return  # the game moved on meanwhile
        self._hint(self._advice(self._human_turn()))
        state = self.match.state
        choices = advise(state, tables)
        if not choices:
            self._close_advice()
            return
        best = choices[0][1]
        nodes = [el("p", f"Score final espéré en jouant au mieux : {points(best)}", "advice-best")]
        listing = el("ol", None, "advice-list")
        for action, value in choices[:6]:
            item = el("li")
            button = el("button", self._describe_choice(state, action), "choice-button ghost small",
                        type="button", data_advice=action.notation())
            item.appendChild(button)
            gap = best - value
            item.appendChild(el("span", points(value) + (f" (−{points(gap)})" if gap >= 0.05 else ""), "advice-value"))
            listing.appendChild(item)
        nodes.append(listing)
        if len(choices) > 6:
            nodes.append(el("p", f"… et {len(choices) - 6} autres choix, moins bons.", "hint"))
        self._fill_advice(nodes)
        self._announce("Conseil : " + self._describe_choice(state, choices[0][0]) + ".")

    def _fill_advice(self, nodes):
        panel = by_id("advice")
        clear(panel)
        for node in nodes:
            panel.appendChild(node)

    def _on_advice_click(self, event):
        button = event.target.closest("button[data-advice]")
        if not button or not self._human_turn():
            return
        action = self.match.game.parse_action(button.dataset.advice)
        if isinstance(action, Roll) and action.keep:
            # Show the advised dice as kept; the player rolls when ready.
            self.held = set(self.match.state.places_of(action.keep))
            self._save()
            self.render()
            by_id("roll").focus()
        elif isinstance(action, Roll):
            self.held = set()
            self.roll()
        else:
            self._play(action)

    def _on_analyse(self, event):
        panel = by_id("analysis")
        if not panel.hidden:
            show(panel, False)
            by_id("analyse").setAttribute("aria-expanded", "false")
            return
        by_id("analyse").setAttribute("aria-expanded", "true")
        show(panel, True)
        clear(panel)
        panel.appendChild(el("p", "Analyse en cours…", "hint"))
        asyncio.ensure_future(self._show_analysis())

    async def _show_analysis(self):
        panel = by_id("analysis")
        try:
            reviews = analyse(self.match, await self._tables())
        except GameError as err:
            clear(panel)
            panel.appendChild(el("p", str(err), "hint"))
            return
        clear(panel)
        state, players = self.match.state, self.match.players
        for p, player in enumerate(players):
            mine = [r for r in reviews if r.player == p]
            lost = sum(r.loss for r in mine)
            section = el("section", None, "review")
            title = f"{player.name} : {points(lost)} points perdus en espérance"
            section.appendChild(el("h3", title if lost >= 0.05 else f"{player.name} : aucun point perdu, jeu parfait"))
            # Turn by turn: what was played, and where it strayed, the best choice instead.
            table = el("table", None, "review-table")
            head = el("tr")
            for text in ("Tour", "Joué", "Le mieux", "Perte"):
                head.appendChild(el("th", text, scope="col"))
            table.appendChild(head)
            for review in mine:
                played = " → ".join(self._notation_fr(state, d.played) for d in review.decisions)
                strays = [d for d in review.decisions if d.loss >= 0.05]
                best = "; ".join(
                    f"{self._notation_fr(state, d.best)} (dés {' '.join(map(str, d.dice))})" for d in strays
                )
                row = el("tr", None, "stray" if strays else None)
                row.appendChild(el("td", str(review.turn)))
                row.appendChild(el("td", played))
                row.appendChild(el("td", best or "—"))
                row.appendChild(el("td", points(review.loss) if review.loss >= 0.05 else "0"))
                table.appendChild(row)
            section.appendChild(table)
            panel.appendChild(section)

    @staticmethod
    def _notation_fr(state, action):
        if isinstance(action, Score):
            return state.rules.boxes[state.rules.index[action.box]].label
        return "garder " + " ".join(map(str, action.keep)) if action.keep else "tout relancer"

    def _save(self):
        blob = {"record": self.match.to_record(), "held": sorted(self.held)}
        if self.embed:
            blob["embed"] = self.embed.signature
        storage.set(self.store_key, json.dumps(blob))

    # --- embed form (embed-yams.html; its URL parameters are parsed by embed.py) ------

    def _embed_start(self):
        """Take the embedder's choices; False if they are wrong (the frame then says why)."""
        try:
            self.embed = parse_embed(window.location.search, seats=tuple(SEAT_LABELS))
        except EmbedError as err:
            by_id("error-text").textContent = f"Ce jeu intégré est mal configuré : {err}"
            show(by_id("error-reload"), False)
            self._screen("error")
            return False
        self.store_key = self.embed.store_key(STORE_KEY)
        self.setup_key = self.embed.store_key(SETUP_KEY)
        if self.embed.game:
            self.preferred = self.embed.game.id
        if self.embed.players:
            show(by_id("to-setup"), False)
        try:  # a game saved under other parameters (the embedder changed them) is dropped
            stale = json.loads(storage.get(self.store_key) or "{}").get("embed") != self.embed.signature
        except (ValueError, AttributeError):
            stale = False  # unreadable: start() says so
        if stale:
            storage.remove(self.store_key)
        return True

    def _embed_setup(self):
        """The setup screen offers only what the embedder left open."""
        embed = self.embed
        show(by_id("ruleset-choices").parentNode, embed.game is None)
        if embed.options is not None:
            self._build_options(embed.options)
        show(by_id("option-choices").parentNode, embed.options is None)
        if embed.game:
            by_id("setup-title").textContent = embed.game.title

    def _embed_new_match(self):
        """_begin without moving the focus: a frame must not scroll the host page to itself."""
        embed = self.embed
        self._adopt(Match(embed.game, embed.players, embed.options, self._sampler()))
        self._save()
        self.show_table()
        self._announce(f"Nouvelle partie de {embed.game.title}.")
        self._schedule_bots()

    # --- events -----------------------------------------------------------------------

    def _on_dice_click(self, event):
        die = event.target.closest("[data-die]")
        if die:
            self.toggle(int(die.dataset.die))

    def _on_sheet_click(self, event):
        button = event.target.closest("button[data-box]")
        if button and not button.disabled:
            self.score(button.dataset.box)

    def _on_key(self, event):
        if event.ctrlKey or event.metaKey or event.altKey or document.querySelector("dialog[open]"):
            return
        target = event.target
        tag = target.tagName
        if tag in ("INPUT", "SELECT", "TEXTAREA") or by_id("table").hidden:
            return
        key = event.key
        if key in ("1", "2", "3", "4", "5"):
            event.preventDefault()
            self.toggle(int(key) - 1)
        elif key in (" ", "Enter", "Spacebar"):
            is_die = target.hasAttribute("data-die")
            if tag == "BUTTON" and not is_die:
                return  # the focused button (a box, "Lancer") handles its own key
            event.preventDefault()
            self.roll()

    # --- drawing ----------------------------------------------------------------------

    def _build_sheet(self):
        match = self.match
        head, body = by_id("sheet-head"), by_id("sheet-body")
        clear(head)
        clear(body)
        head.appendChild(el("th", "Case", scope="col"))
        self.heads = []
        for p in match.players:
            th = el("th", None, scope="col", title=p.name)
            th.appendChild(el("span", p.name))
            if p.is_computer:
                th.appendChild(el("span", " (expert)" if p.seat == "expert" else " (ordi)", "bot"))
            head.appendChild(th)
            self.heads.append(th)
        self.cells, self.cell_cache = {}, {}
        rules = match.state.rules

        def row(key, label, cls=None, note=None):
            tr = el("tr", None, cls)
            th = el("th", label, scope="row")
            if note:
                th.appendChild(el("small", note))
            tr.appendChild(th)
            for p in range(len(match.players)):
                td = el("td")
                tr.appendChild(td)
                self.cells[key, p] = td
            body.appendChild(tr)

        threshold = rules.bonus_threshold
        for box in rules.boxes:
            row(box.id, box.label, None, box.hint if not box.upper else None)
            if box.id == "sixes":
                row("upper", "Sous-total", "total", f"prime à {threshold}")
                row("bonus", f"Prime +{rules.bonus}", "sub")
        if rules.primes:
            label = "Deuxième Yahtzee" if match.game.id == "yahtzee" else "Deuxième Yam"
            row("primes", label, "sub", "+100 par Yam de plus")
        row("lower", "Partie basse", "total")
        row("total", "TOTAL", "total grand")

    def _set_cell(self, key, p, value):
        """Draw one cell; value is ("text", str) or ("box", points, legal, label)."""
        if self.cell_cache.get((key, p)) == value:
            return
        self.cell_cache[key, p] = value
        td = self.cells[key, p]
        if value[0] == "text":
            clear(td)
            td.textContent = value[1]
            td.className = value[2] if len(value) > 2 else ""
            return
        _, box, points, legal, label = value
        clear(td)
        td.className = ""
        button = el(
            "button", str(points), "box" + (" zero" if points == 0 else ""),
            type="button", data_box=box,
            aria_label=f"Inscrire {points} en {label}",
        )
        button.disabled = not legal
        td.appendChild(button)

    def render(self):
        match = self.match
        state = match.state
        if state.is_chance():
            return
        current = state.current_player() if not state.is_terminal() else None
        human = self._human_turn()
        potential = state.potential() if human else {}
        legal = set(state.scorable()) if human else set()
        # the sheet
        for p, th in enumerate(self.heads):
            th.classList.toggle("current", p == current)
        for p in range(len(match.players)):
            sheet = state.sheet(p)
            cls = "current" if p == current else ""
            for box in state.rules.boxes:
                value = sheet.boxes[box.id]
                if value is not None:
                    just = (
                        "filled just" if self.just_scored == (p, box.id) else "filled"
                    ) + (" current" if cls else "")
                    self._set_cell(box.id, p, ("text", str(value), just))
                elif p == current and box.id in potential:
                    self._set_cell(box.id, p, ("box", box.id, potential[box.id], box.id in legal, box.label))
                else:
                    self._set_cell(box.id, p, ("text", "", cls))
            par = f" ({sheet.par:+d})".replace("-", "−") if any(sheet.boxes[b] is not None for b in UPPER_IDS) else ""
            self._set_cell("upper", p, ("text", f"{sheet.upper}{par}", cls))
            bonus = str(sheet.bonus) if sheet.bonus else (f"−{sheet.missing_for_bonus}" if self._upper_open(sheet) else "0")
            self._set_cell("bonus", p, ("text", bonus, cls))
            if ("primes", p) in self.cells:
                self._set_cell("primes", p, ("text", str(sheet.primes) if sheet.primes else "", cls))
            self._set_cell("lower", p, ("text", str(sheet.lower), cls))
            self._set_cell("total", p, ("text", str(sheet.total), cls))
        # the dice
        for place, die in enumerate(self.dice_nodes):
            face = state.dice[place] if state.dice else 0
            die.dataset.face = str(face)
            held = place in self.held and bool(state.dice)
            die.setAttribute("aria-pressed", "true" if held else "false")
            die.setAttribute("aria-label", f"Dé {place + 1} : {face}" + (", gardé" if held else "") if face else f"Dé {place + 1} : pas encore lancé")
            die.disabled = not (human and state.dice and state.rolls < 3)
            if place in self.last_rolled:
                die.classList.remove("rolling")
                die.offsetWidth  # restart the animation
                die.classList.add("rolling")
        self.last_rolled = ()
        # controls and captions
        roll = by_id("roll")
        roll.disabled = not self.can_roll()
        roll.textContent = (
            "Lancer les dés" if state.rolls == 0
            else "Relancer" + (" (tout)" if not self.held else f" ({5 - len(self.held)} dé{'s' if 5 - len(self.held) > 1 else ''})")
            if state.rolls < 3 else "Plus de lancer"
        )
        counter = by_id("roll-count")
        clear(counter)
        for i in range(3):
            counter.appendChild(el("i", None, "used" if i < state.rolls else None))
        info = by_id("turn-info")
        clear(info)
        if current is None:
            info.textContent = "Partie terminée."
            self._hint("")
            return
        info.appendChild(el("span", f"Tour {min(state.turn, state.turns)}/{state.turns} · "))
        info.appendChild(el("span", match.players[current].name, "who"))
        info.appendChild(el("span", f" · lancer {state.rolls}/3"))
        self._hint(self._advice(human))
        by_id("advise").disabled = not human
        self._measure_play()

    def _measure_play(self):
        # On phones the dice panel is sticky: the sheet's column names stick just below it.
        if window.innerWidth >= 860:
            return  # wider screens: the panel does not cover the sheet (see style.css)
        play = by_id("table").querySelector(".play")
        height = 0 if play.classList.contains("advising") else play.offsetHeight
        document.documentElement.style.setProperty("--play-h", f"{height}px")

    @staticmethod
    def _upper_open(sheet):
        return any(sheet.boxes[b] is None for b in UPPER_IDS)

    just_scored = None

    def _advice(self, human):
        state = self.match.state
        if state.is_terminal():
            return ""
        if not human:
            return f"{self.match.players[state.current_player()].name} (ordinateur) réfléchit…"
        if state.rolls == 0:
            return "Lancez les dés (Espace ou Entrée)."
        joker = " Yam joker : il compte pleine valeur en bas." if state.joker_active() else ""
        if state.rolls >= 3:
            return "Choisissez une case sur la feuille." + joker
        if len(self.held) == 5:
            return "Relâchez au moins un dé pour relancer, ou choisissez une case."
        return "Touchez les dés à garder (1 à 5), relancez, ou choisissez une case." + joker

    def _hint(self, text):
        by_id("hint").textContent = text

    def _announce(self, text):
        by_id("live").textContent = text

    def _describe(self, p, action):
        state, players = self.match.state, self.match.players
        if isinstance(action, Score):
            sheet = state.sheet(p)
            label = state.rules.boxes[state.rules.index[action.box]].label
            self.just_scored = (p, action.box)
            self._announce(
                f"{players[p].name} inscrit {sheet.boxes[action.box]} en {label}. Total {sheet.total}."
            )
        else:
            self.just_scored = None
            name = players[p].name
            self._announce(
                f"{name}, lancer {state.rolls} sur 3 : " + ", ".join(map(str, state.dice)) + "."
            )

    def _update_rules_panel(self, game, options):
        for section in document.querySelectorAll("#rules [data-ruleset]"):
            show(section, section.dataset.ruleset == game.id)
        for node in document.querySelectorAll("#rules [data-option]"):
            wanted = node.dataset.when == "true"
            show(node, bool(options.get(node.dataset.option)) == wanted)


def main():
    page = YamsPage()
    try:
        page.start()
    except Exception as err:  # never a blank page
        by_id("error-text").textContent = f"Le jeu n'a pas pu démarrer : {err}"
        page._screen("error")
        raise
    window.pygamesPage = "ready"
    document.body.dataset.ready = "1"
    document.dispatchEvent(window.CustomEvent.new("pygames:ready"))
    return page


PAGE = main()
