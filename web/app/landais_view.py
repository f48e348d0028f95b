"""The Dé Landais view: three dice on the felt, the floating points of the series in
big, Lancer and Sceller, and each player's sealed points on a track to the target
(the current player's floating points as a ghost segment, the gifts and losses of the
last throw as badges), drawn from the state; clicks and keys become `roll` / `seal`.

The shell (shell.py) owns everything else.  The opening throw (one die each, the
highest starts) is made of chance actions only: `adopt` lets those dice fall at once
(they are in the record like any other throw) and the table shows them through the first
two series.  The journal of the series (the opening throw, then each series throw by throw
and how it ended: `pygames.landais.Journal`) is built from the record when a match is
adopted, then grows move by move; the last series over stays in view above it ("Série
précédente") while the next one is played, so that a computer's series can be read.
Nothing is page-only state: a reload (or a replay) redraws everything from the record.

The setup offers "reprendre une partie sur papier": a checkbox revealing one field of
sealed points per player row (kept in step with the rows as they are added, removed or
renamed) and who throws first; `read_setup_extra` turns them into the engine's starting
position ({"scores": [...], "first": seat}).
"""

from dom import by_id, clear, el, on, set_text, show
from tray import DiceTray, TrayView
from words import number as fmt
from words import percent, signed

from pygames import GameError
from pygames.core import quote
from pygames.dice import Roll
from pygames.landais import DICE, GIFTS, Journal, Seal, SeriesPlayed
from pygames.landais.bots import advise
from pygames.landais.messages import journal_entry, throw_text
from pygames.messages import Msg, Name, Series, render, sentences
from pygames.messages import text as words

NBSP, THIN = "\u00a0", "\u202f"


def parse_points(text):
    """What a player typed as a score ("1 450", "1'450", "−150") → int, or None."""
    clean = text.strip()
    for junk in (" ", NBSP, THIN, "'", "’", "."):
        clean = clean.replace(junk, "")
    clean = clean.replace("−", "-").replace("–", "-")
    if clean.startswith("+"):
        clean = clean[1:]
    if not clean or not clean.lstrip("-").isdigit() or clean.count("-") > 1:
        return None
    return int(clean)


class View(TrayView):
    def __init__(self, table):
        super().__init__(table)
        self.tray = DiceTray(table, DICE, keeping=False)  # drawn only: every throw is of three
        self.rows = []
        self.openings = []  # [(contenders, faces)] of the opening throw, one per round of it
        self.greet = False  # a new match: say who won the opening throw with "Nouvelle partie"
        self.paper = None  # the paper start's nodes (built by build_setup_extra)
        self.paper_values = []  # the paper scores typed so far, by row
        self.paper_first = ""
        self.journal = Journal()  # the opening and every series, from the record
        self.drawn = None  # what the journal and the last series were drawn for

    # --- hooks called by the shell (view.py) ---------------------------------------------

    def bind(self):
        self.tray.bind()
        # The paper start's fields follow the player rows (the shell's handlers run first).
        on(by_id("add-player"), "click", lambda e: self._sync_paper())
        on(by_id("player-rows"), "click", lambda e: self._sync_paper())
        on(by_id("player-rows"), "input", lambda e: self._sync_paper())
        on(by_id("player-rows"), "change", lambda e: self._sync_paper())

    # --- setup: a game taken up from paper ----------------------------------------------

    def build_setup_extra(self, box, game):
        clear(box)
        self.paper_values, self.paper_first = [], ""
        field = el("fieldset", None, "paper")
        field.appendChild(el("legend", words("view.landais.paper.legend")))
        label = el("label", None, "paper-toggle")
        check = el("input", None, type="checkbox", id="paper-start", aria_controls="paper-fields")
        self.paper = {"check": check}
        on(check, "change", lambda e: self._sync_paper())
        label.appendChild(check)
        label.appendChild(el("span", words("view.landais.paper.toggle")))
        field.appendChild(label)
        fields = el("div", None, "paper-fields", id="paper-fields", hidden=True)
        fields.appendChild(el("p", words("view.landais.paper.scores"), "hint"))
        self.paper["list"] = el("ol", None, "paper-scores", id="paper-scores")
        fields.appendChild(self.paper["list"])
        first = el("label", None, "paper-first")
        first.appendChild(el("span", words("view.landais.paper.first")))
        self.paper["first"] = el("select", None, id="paper-first")
        first.appendChild(self.paper["first"])
        self.paper["fields"] = fields
        fields.appendChild(first)
        field.appendChild(fields)
        box.appendChild(field)
        self._sync_paper()

    def _setup_names(self):
        return self.table.setup_names()

    def _sync_paper(self):
        """One score field per player row, labelled with the row's name; typed values kept."""
        if self.paper is None:
            return
        check, listing, select = self.paper["check"], self.paper["list"], self.paper["first"]
        show(self.paper["fields"], check.checked)
        inputs = listing.querySelectorAll("input")
        for i in range(inputs.length):
            if i < len(self.paper_values):
                self.paper_values[i] = inputs.item(i).value
            else:
                self.paper_values.append(inputs.item(i).value)
        if select.options.length:
            self.paper_first = select.value
        names = self._setup_names()
        if inputs.length != len(names):
            clear(listing)
            for i in range(len(names)):
                item = el("li")
                field = el("input", None, type="text", inputmode="numeric", autocomplete="off",
                           data_paper=i, size=7)
                field.value = self.paper_values[i] if i < len(self.paper_values) else "0"
                item.appendChild(el("label", None, "paper-name", for_=f"paper-score-{i}"))
                field.id = f"paper-score-{i}"
                item.appendChild(field)
                listing.appendChild(item)
        labels = listing.querySelectorAll("label")
        for i, name in enumerate(names):
            labels.item(i).textContent = name
        wanted = [""] + [str(i) for i in range(len(names))]
        if [select.options.item(i).value for i in range(select.options.length)] != wanted or any(
                select.options.item(i + 1).textContent != n for i, n in enumerate(names)):
            clear(select)
            select.appendChild(el("option", words("view.landais.paper.opening"), value=""))
            for i, name in enumerate(names):
                select.appendChild(el("option", name, value=str(i)))
            select.value = self.paper_first if self.paper_first in wanted else ""

    def read_setup_extra(self, game, players):
        if self.paper is None or not self.paper["check"].checked:
            return None
        self._sync_paper()
        inputs = self.paper["list"].querySelectorAll("input")
        scores = []
        for i, player in enumerate(players):
            text = inputs.item(i).value if i < inputs.length else ""
            value = parse_points(text)
            if value is None:
                raise GameError(Msg("view.landais.paper.not_number", player=quote(player.name), text=quote(text)))
            scores.append(value)
        start = {"scores": scores}
        first = self.paper["first"].value
        if first:
            start["first"] = int(first)
        return start

    # --- a match ------------------------------------------------------------------------

    def adopt(self, match):
        # The opening throw is chance only: its dice fall now and go into the record.
        self.greet = match.state.is_chance()
        match.advance_chance()
        self.journal, self.drawn = Journal(), None
        for step in match.positions():
            self.journal.add(step.before, step.action, step.after)
        self.openings = next((list(e.rounds) for e in self.journal.done if not isinstance(e, SeriesPlayed)), [])
        self._build_tracks()

    def focus(self):
        if self.greet:
            self.greet = False
            opening = self._opening_text()
            if opening is not None:
                self.table.announce(render("view.landais.new_game", title=self.match.game.title, opening=opening))
        roll, seal = by_id("roll"), by_id("seal")
        if not roll.disabled:
            roll.focus()
        elif not seal.disabled:
            seal.focus()

    def score_text(self, player, score):
        state = self.match.state
        points = Msg("view.landais.score", n=score, points=fmt(score))
        if state.rules.manches > 1:
            return Msg("view.landais.score_manches", manches=Msg("count.manches", n=state.manches_won[player]),
                       points=points)
        return points

    def moved(self, before, action, after):
        if isinstance(action, Roll):
            self.tray.throw_all()
            rolled = before.apply(action)  # the dice in the air, then where they landed
            self.journal.add(before, action, rolled)
            if not after.is_chance():
                self.journal.add(rolled, self.match.history[-1], after)
        else:
            self.journal.add(before, action, after)

    # --- what happened, in words --------------------------------------------------------

    def _opening_text(self):
        """Who starts, and the opening throw that said so (a message), or None."""
        names = self.names
        if not self.openings:
            start = self.match.start or {}
            if "first" in start:
                return Msg("view.landais.first", player=Name(names[start["first"]]))
            return None
        rounds = None
        for contenders, faces in self.openings:
            dice = Series(Msg("landais.journal.opening_die", player=Name(names[p]), face=f)
                          for p, f in zip(contenders, faces))
            rounds = dice if rounds is None else Msg("view.landais.opening_tie", before=rounds, after=dice)
        return Msg("view.landais.opening", rounds=rounds, player=Name(names[self.match.state.first]))

    def _effects_text(self, last):
        """What the last throw gave or took from the others: pieces (names placed as data)."""
        names, parts = self.names, []
        if last.effects:
            parts.append(Msg("view.landais.effects", effects=Series(
                Msg("view.landais.score_item", player=Name(names[q]), points=signed(d)) for q, d in last.effects)))
        if last.capped:
            parts.append(Msg("view.landais.capped", players=[Name(names[q]) for q in last.capped]))
        return sentences(parts)

    def describe(self, before, action, after):
        p, state = before.current_player(), after
        names = [Name(n) for n in self.names]
        target = fmt(state.rules.target)
        if isinstance(action, Seal):
            total = before.sealed[p] + before.floating
            if before.floating:
                said = [Msg("view.landais.sealed", player=names[p], points=fmt(before.floating), total=fmt(total))]
            else:
                said = [Msg("view.landais.passed", player=names[p], total=fmt(total))]
        else:
            last = state.last
            said = [Msg("view.landais.threw", player=names[p], dice=", ".join(map(str, last.faces)),
                        what=throw_text(last))]
            effects = self._effects_text(last)
            if effects:
                said.append(effects)
            if not last.ended and not state.is_terminal() and state.player == p and state.floating:
                said.append(Msg("view.landais.in_play", points=fmt(state.floating)))
        if len(state.manche_winners) > len(before.manche_winners):
            w = state.manche_winners[-1]
            if state.is_terminal():
                said.append(Msg("view.landais.reached", player=names[w], target=target))
            else:
                said.append(Msg("view.landais.reached_manche", player=names[w], target=target, manche=before.manche,
                                next=state.manche, starter=names[state.player]))
            return self._sentences(said)
        if state.player != p or isinstance(action, Seal):
            said.append(Msg("view.landais.scores", scores=Series(
                Msg("view.landais.score_item", player=n, points=fmt(s)) for n, s in zip(names, state.sealed))))
            if self.table.is_person(state.player):
                said.append(Msg("view.common.to_throw", player=names[state.player]))
        return self._sentences(said)

    @staticmethod
    def _sentences(said):
        """Messages and pieces one after the other, a space between them."""
        out = []
        for part in said:
            if out:
                out.append((" ", False))
            out += part if isinstance(part, list) else render(part)
        return out

    # --- keys -----------------------------------------------------------------------------

    def highlights(self, match):
        """For the statistics (stats_view.py): the poignes that counted in a finished game
        (the "Poigne !" of the joy below), counted by replaying its actions."""
        from stats import landed_throws

        return {"site.highlight.poignes": sum(s.last is not None and s.last.kind == "poigne" and not s.last.gift
                               and not s.last.bust for s in landed_throws(match, Roll))}

    def joy(self, before, action, after):
        """A moment of joy (the shell's hook): a manche won (the end screen has the game's),
        or a poigne of one's own that counts."""
        if len(after.manche_winners) > len(before.manche_winners) and not after.is_terminal():
            return words("view.landais.joy.manche")
        last = after.last
        if (isinstance(action, Roll) and last is not None and last.kind == "poigne"
                and not last.gift and not last.bust):
            return words("view.landais.joy.poigne")
        return None

    def on_key(self, event):
        key = event.key
        if self.roll_key(event):
            return
        if key in ("s", "S"):
            event.preventDefault()
            if self._can_seal():
                self.table.play(Seal())

    def can_roll(self):
        return self.table.my_turn and self.match.state.can_roll

    def _can_seal(self):
        return self.table.my_turn and self.match.state.can_seal

    # --- the advisor --------------------------------------------------------------------

    def advice(self, state, tables):
        """Sealing now and throwing again, each with its probability of winning."""
        found = advise(state, tables)
        if state.current_player() < 0:
            return [], ""
        nodes = []

        def choice(notation):  # "sceller maintenant", "relancer"
            return words(f"view.landais.choice.{notation}")

        def button(notation):
            said = choice(notation)
            return el("button", said[:1].upper() + said[1:], "choice-button ghost small", type="button",
                      data_advice=notation)

        choices = [(c.action.notation(), c.value) for c in found.choices]
        if not choices:  # a gift throw: no choice to make
            nodes.append(el("p", words("view.landais.advice.forced"), "advice-best"))
            listing = el("ol", None, "advice-list")
            item = el("li")
            item.appendChild(button("roll"))
            listing.appendChild(item)
            nodes.append(listing)
            return nodes, words("view.landais.advice.forced_summary")
        nodes.append(el("p", words("view.landais.advice.best", choice=choice(choices[0][0])), "advice-best"))
        listing = el("ol", None, "advice-list")
        for notation, value in choices:
            item = el("li", None, "advice-" + notation)
            item.appendChild(button(notation))
            item.appendChild(el("span", words("view.landais.advice.chance", percent=percent(value)), "advice-value"))
            listing.appendChild(item)
        nodes.append(listing)
        if state.pending == "poigne":
            nodes.append(el("p", words("view.landais.advice.poigne"), "hint"))
        elif state.pending == "start":
            nodes.append(el("p", words("view.landais.advice.start"), "hint"))
        if not found.exact:
            nodes.append(el("p", words("view.landais.advice.approximation"), "hint"))
        items = words("view.common.semicolon").join(
            words("view.landais.advice.item", choice=choice(notation),
                  chance=Msg("view.landais.advice.chance", percent=percent(value)))
            for notation, value in choices)
        return nodes, words("view.landais.advice.summary" if found.exact else "view.landais.advice.summary_approx",
                            choices=items)

    def take_advice(self, notation):
        self.table.play(notation)

    # --- drawing ----------------------------------------------------------------------

    def _build_tracks(self):
        listing = by_id("tracks")
        clear(listing)
        self.rows = []
        for p, player in enumerate(self.match.players):
            item = el("li", None, "track-row", data_player=p)
            head = el("div", None, "track-head")
            head.appendChild(el("span", "▶", "mark", aria_hidden="true"))
            head.appendChild(el("span", player.name, "name"))
            if player.is_computer:
                head.appendChild(self.table.seat_badge(player))
            manches = el("span", "", "manches")
            head.appendChild(manches)
            status = el("span", "", "status")
            head.appendChild(status)
            score = el("div", None, "track-score")
            sealed = el("strong", "", "sealed")
            floating = el("span", "", "float")
            badges = el("span", None, "badges")
            score.appendChild(sealed)
            score.appendChild(floating)
            score.appendChild(badges)
            bar = el("div", None, "bar", aria_hidden="true")
            zero = el("i", None, "zero")
            fill = el("i", None, "fill")
            ghost = el("i", None, "ghost")
            goal = el("i", None, "goal")
            for part in (zero, fill, ghost, goal):
                bar.appendChild(part)
            item.appendChild(head)
            item.appendChild(score)
            item.appendChild(bar)
            listing.appendChild(item)
            self.rows.append({"li": item, "status": status, "manches": manches, "sealed": sealed,
                              "float": floating, "badges": badges, "zero": zero, "fill": fill,
                              "ghost": ghost})

    @staticmethod
    def _segment(node, a, b, lo, span):
        """Place a bar segment between the values a and b on the scale [lo, lo + span]."""
        def pos(v):
            return max(0.0, min(100.0, 100.0 * (v - lo) / span))
        left, right = pos(min(a, b)), pos(max(a, b))
        node.style.left = f"{left:.3f}%"
        node.style.width = f"{right - left:.3f}%"

    def _draw_tracks(self, state, current):
        target = state.rules.target
        # Negative scores get a zone of their own left of zero (at most a quarter of the bar).
        low = min(0, *state.sealed)
        lo = max(low, -target // 3)
        span = target - lo
        last = state.last
        fresh = last is not None and self._last_is_news(state)
        effects = dict(last.effects) if fresh else {}
        capped = set(last.capped) if fresh else set()
        top = state.is_terminal()
        for p, row in enumerate(self.rows):
            sealed = state.sealed[p]
            li = row["li"]
            li.dataset.sealed = str(sealed)
            li.classList.toggle("current", p == current)
            li.classList.toggle("negative", sealed < 0)
            li.classList.toggle("winner", top and p == state.winner)
            row["sealed"].textContent = fmt(sealed)
            floating = state.floating if p == current and not top else 0
            if floating:
                row["float"].textContent = words("view.landais.track.floating", floating=fmt(floating),
                                                 total=fmt(sealed + floating))
            elif not top and sealed < target:
                row["float"].textContent = words("view.landais.track.left", points=fmt(target - sealed))
            else:
                row["float"].textContent = ""
            li.dataset.floating = str(floating)
            badges = row["badges"]
            clear(badges)
            if p in effects:
                d = effects[p]
                badges.appendChild(el("span", signed(d), "badge " + ("gain" if d > 0 else "loss"),
                                      title=words("view.landais.badge.gain" if d > 0 else "view.landais.badge.loss")))
            if p in capped:
                badges.appendChild(el("span", words("view.landais.badge.capped"), "badge capped"))
            if fresh and last.kind == "vereux" and not last.gift and p == last.thrower:
                badges.appendChild(el("span", signed(-100), "badge loss", title=words("landais.tir.vereux")))
            status = ""
            if top and p == state.winner:
                status = words("view.landais.status.wins")
            elif p == current:
                status = words("view.landais.status.throws")
            row["status"].textContent = status
            if state.rules.manches > 1:
                won = state.manches_won[p]
                row["manches"].textContent = ("★" * won + " " if won else "") + words("view.landais.manches_won", n=won)
            else:
                row["manches"].textContent = ""
            self._segment(row["zero"], lo, lo, lo, span)
            show(row["zero"], lo < 0)
            self._segment(row["fill"], 0, sealed, lo, span)
            row["fill"].classList.toggle("neg", sealed < 0)
            self._segment(row["ghost"], sealed, sealed + floating, lo, span)
            show(row["ghost"], bool(floating))

    def _last_is_news(self, state):
        """The last throw is this manche's latest event (not an old throw before a seal)."""
        history = self.match.history
        return bool(history) and not isinstance(history[-1], Seal) and len(history) >= 2 \
            and isinstance(history[-2], Roll)

    def draw(self, state, current):
        target = state.rules.target
        last = state.last
        by_id("target").textContent = fmt(target)
        # The dice: the last throw, dimmed once its series is over.
        faces = last.faces if last is not None else (0,) * DICE
        old = last is not None and (last.thrower != current or not self._last_is_news(state))
        self.tray.draw(faces)
        box = by_id("dice")
        box.classList.toggle("previous", old)
        if last is None:
            box.setAttribute("aria-label", words("view.landais.dice.none"))
        else:
            box.setAttribute("aria-label", words("view.landais.dice.of", player=Name(self.names[last.thrower]),
                                                 faces=", ".join(map(str, last.faces))))
        # What the last throw was.
        name = by_id("throw-name")
        clear(name)
        name.className = "throw-name"
        if last is not None:
            if old:
                whose = el("span", None, "whose")
                whose.appendChild(el("span", self.names[last.thrower], "name"))
                whose.appendChild(el("span", words("view.common.colon")))
                name.appendChild(whose)
            name.appendChild(el("span", words(throw_text(last)), "what"))
            name.classList.add("kind-" + last.kind)
            if last.gift:
                name.classList.add("gift-" + last.gift)
            effects = self._effects_text(last) if self._last_is_news(state) else []
            if effects:
                said = el("span", None, "effects")
                set_text(said, [(" ", False)] + effects)
                name.appendChild(said)
        # The floating points.
        floating = state.floating if current is not None else 0
        by_id("floating").textContent = fmt(floating)
        pot = by_id("pot")
        pot.classList.toggle("empty", not floating)
        pot.classList.toggle("gift-pending", state.pending in GIFTS and current is not None)
        note = by_id("pot-note")
        if current is None:
            note.textContent = ""
        elif state.pending in GIFTS:
            note.textContent = words("view.landais.pot.gift")
        elif floating:
            sealed = state.sealed[current]
            note.textContent = words("view.landais.pot.sum", sealed=fmt(sealed), floating=fmt(floating),
                                     total=fmt(sealed + floating))
        else:
            note.textContent = ""
        # The controls.
        roll, seal = by_id("roll"), by_id("seal")
        roll.disabled = not self.can_roll()
        roll.textContent = words("view.landais.roll" if state.pending == "start" or current is None
                                 else "view.common.reroll")
        seal.disabled = not self._can_seal()
        seal.textContent = (words("view.landais.seal_points", points=fmt(floating)) if floating
                            else words("view.landais.seal"))
        if state.can_seal and not floating:
            seal.textContent = words("view.landais.pass")
        seal.classList.toggle("wins", state.seal_wins)
        # The tracks, the opening throw, the manches.
        self._draw_tracks(state, current)
        # The opening throw stays in view through the first two series; then the journal has it.
        opening = by_id("opening")
        played = sum(isinstance(e, SeriesPlayed) for e in self.journal.done)
        text = self._opening_text() if played < 2 and state.manche == 1 else None
        set_text(opening, text or "")
        show(opening, text is not None)
        self._draw_journal(state)
        self._draw_info(state, current)
        self.table.hint(self.hint_text())

    def _draw_journal(self, state):
        """The journal of the series and, above it, the last series over (it stays in view
        while the next one is played: a computer's series can be read after it)."""
        entries = self.journal.entries
        key = (len(self.journal.done), len(entries),
               len(entries[-1].throws) if entries and isinstance(entries[-1], SeriesPlayed) else 0,
               state.is_terminal())
        if key == self.drawn:
            return
        self.drawn = key
        names = self.names
        self.draw_journal([(n + 1, journal_entry(e, names)) for n, e in enumerate(entries)])
        over = [e for e in self.journal.done if isinstance(e, SeriesPlayed)]
        box = by_id("last-series")
        show(box, bool(over))
        if over:
            by_id("last-series-title").textContent = words("view.landais.last.final" if state.is_terminal()
                                                           else "view.landais.last.previous")
            set_text(by_id("last-series-text"), journal_entry(over[-1], names))

    def _draw_info(self, state, current):
        phase = by_id("manche-info")
        rules = state.rules
        parts = []  # (the target is in the board's title)
        if rules.manches > 1:
            parts.append(words("view.landais.info.manche", manche=state.manche,
                               manches=Msg("count.manches", n=rules.manches)))
            if state.manche_winners:
                parts.append(words("view.landais.info.won",
                                   players=Series(Name(self.names[w]) for w in state.manche_winners)))
        phase.textContent = " · ".join(parts)
        show(phase, bool(parts))
        if current is None:
            self.turn_info(None)
            return
        self.turn_info(current, None, words(f"view.landais.pending.{state.pending or 'free'}"))

    def hint_text(self):
        state = self.match.state
        if state.is_terminal() or state.is_chance():
            return ""
        name = Name(self.names[state.current_player()])
        if not self.table.my_turn:
            return render("view.landais.hint.computer", player=name)
        if state.pending == "start":
            return render("view.landais.hint.throw", player=name)
        if state.pending == "poigne":
            return words("view.landais.hint.poigne")
        if state.pending in GIFTS:
            return words("view.landais.hint.gift")
        if state.seal_wins:
            return words("view.landais.hint.wins", target=fmt(state.rules.target))
        if not state.floating:
            return words("view.landais.hint.pass")
        return words("view.landais.hint.seal", points=fmt(state.floating))
