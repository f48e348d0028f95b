"""The 421 view: three dice, the pot and each player's tokens drawn as coins, this
round's hands, the last round's result and a journal of the rounds, drawn from the
state; clicks and keys become action notations.  In the décharge a line under the dice
says where the player throwing stands (his hand against the hand to beat, and the tokens
that would move: `Le421State.standing`); in a rampo, its throws so far.

The shell (shell.py) owns everything else.  Kept dice are the page's own state until
the next throw (`held`, saved with the game so that a reload keeps them); the roll
button's ``data-action`` always says what a click plays (``roll``, or ``keep 4 1 @1,3``).

Between two hands the table is empty (the engine clears the dice); the page keeps the
dice of the last hand thrown in view, dimmed, with whose they were (`shown`), so that a
computer's throw can be followed; a hand of an earlier round, or a rampo's throw, says
so.  The journal of the rounds is rebuilt by replaying the record when a game is
adopted, then grows as rounds end.

*Charge auto* plays every human throw of the charge, one `roll` at a time through the
shell, exactly as clicks on Lancer would; the computer's throws in between are played
by the shell's own loop.  It stops when the pot is empty (or the game ends, or another
game starts).
"""

import asyncio

from dom import by_id, clear, el, on, set_text, show
from tray import DiceTray, TrayView

from pygames import GameError
from pygames.core import Throw
from pygames.dice import Roll
from pygames.le421 import DICE, Stop, advise
from pygames.le421.messages import (
    advice_choice,
    advice_value,
    describe_events,
    hand_label,
    rampo_line,
    round_sentence,
    standing_line,
    standing_outcome,
    to_beat,
)
from pygames.messages import Msg, Name, render
from pygames.messages import text as words

MAX_COINS = 21  # coins drawn per stack; the number is always written beside them


def landed(before, action, throw):
    """The dice in their places once `throw` lands after `action` (a Roll) on `before`."""
    return before.apply(action).cup.land(throw.faces).dice


def keepable(state):
    """Dice may be kept between throws (décharge, throws left)."""
    return bool(state.dice) and 0 < state.throws < state.limit


def hand_id(state):
    """The hand the kept dice belong to: this round's, this rampo's, this player's."""
    return (state.round, state.rampos, state.turn)


class View(TrayView):
    # Fewer tokens is better, and a winner always ends with none: the mean tokens left at the
    # end is each player's figure; no best, no record.
    stats_columns = ("average",)
    stats_record = False

    @property
    def stats_unit(self):
        """For the statistics (stats_view.py): a score is minus the tokens left, fewer is better."""
        return words("view.421.stats_unit")

    def __init__(self, table):
        super().__init__(table)
        self.tray = DiceTray(table, DICE, redraw=self.render, keepable=keepable, hand=hand_id)
        self.rows = []
        self.shown = None  # (player, dice in places, throws, round, rampo) of the last throw
        self.log = []  # (round, sentence: a Msg) of every round played
        self.auto = None  # the Charge auto under way (table.task)
        self.paper = None  # the setup's "partie sur papier" fields (build_setup_extra)

    # --- hooks called by the shell (view.py) ---------------------------------------------

    def bind(self):
        self.tray.bind()
        on(by_id("auto-charge"), "click", lambda e: self.auto_charge())

    def build_setup_extra(self, box, game):
        """Optional: a game begun on paper (the pot, each player's tokens, who starts)."""
        clear(box)
        fieldset = el("fieldset", None, "paper")
        toggle = el("label", None, "paper-toggle")
        check = el("input", None, type="checkbox", id="paper")
        toggle.appendChild(check)
        toggle.appendChild(el("span", words("view.421.paper.toggle")))
        fieldset.appendChild(toggle)
        fields = el("div", None, "paper-fields", id="paper-fields", hidden=True)
        self.paper = {"check": check}  # kept: these nodes are not in the page's markup
        for key, text, hint in (
            # Not the option "Jetons au pot" (the tokens a game starts with): what is left.
            ("paper-pot", words("view.421.paper.pot"), words("view.421.paper.pot_hint")),
            ("paper-tokens", words("view.421.paper.tokens"), words("view.421.paper.tokens_hint")),
            ("paper-leader", words("view.421.paper.leader"), words("view.421.paper.leader_hint")),
        ):
            label = el("label", None, "paper-field")
            label.appendChild(el("span", text))
            field = el("input", None, type="text", id=key, inputmode="numeric",
                       autocomplete="off", placeholder=hint)
            self.paper[key] = field
            label.appendChild(field)
            fields.appendChild(label)
        fieldset.appendChild(fields)
        box.appendChild(fieldset)
        on(check, "change", lambda e: show(fields, check.checked))

    def read_setup_extra(self, game, players):
        paper = self.paper
        if not paper or not paper["check"].checked:
            return None

        def numbers(key, error):
            typed = paper[key].value.replace(",", " ").split()
            if not typed or not all(w.isdigit() and len(w) <= 4 for w in typed):
                raise GameError(Msg(error))
            return [int(w) for w in typed]

        pot = numbers("paper-pot", "view.421.paper.pot_numbers")
        tokens = numbers("paper-tokens", "view.421.paper.tokens_numbers")
        leader = paper["paper-leader"].value.strip() or "1"
        if not leader.isdigit() or not 1 <= int(leader) <= len(players):
            raise GameError(Msg("view.421.paper.leader_range", n=len(players)))
        return {"pot": pot[0], "tokens": tokens, "leader": int(leader) - 1}

    def adopt(self, match):
        self.tray.drop()
        self._replay(match)
        self._build_seats()

    def focus(self):
        roll, stop = by_id("roll"), by_id("stop")
        if not roll.disabled:
            roll.focus()
        elif not stop.disabled and not stop.hidden:
            stop.focus()

    def score_text(self, player, score):
        return Msg("count.tokens", n=-score)  # as data: the statistics keep it so

    def stats_value(self, score):
        return -score

    def highlights(self, match):
        """For the statistics: the throws that showed 4-2-1 in a finished game."""
        thrown = sum(1 for step in match.positions() if isinstance(step.action, Throw)
                     and not step.after.rolling and sorted(step.after.dice) == [1, 2, 4])
        return {"site.highlight.421_thrown": thrown}

    def moved(self, before, action, after):
        """The last hand thrown stays in view once the table is cleared; a round's end goes
        into the journal."""
        self.tray.thrown(before, action)
        match = self.match
        if isinstance(action, Roll) and match.history:
            self.shown = (before.current_player(), landed(before, action, match.history[-1]),
                          before.throws + 1, before.round, bool(before.rampo))
        if after.last is not None and after.last is not before.last:
            self.log.append((before.round, round_sentence(after.last, self.names)))

    async def preview(self, state, action, pause):
        """Show the dice a computer keeps before it throws the others."""
        return await self.tray.preview(state, action, pause)

    def describe(self, before, action, after):
        """What the action did; in the décharge, where a person stands after his throw
        (one sentence), and the hand to beat when his turn comes."""
        p, names = before.current_player(), self.names
        pieces = describe_events(after, names)
        if isinstance(action, Roll) and action.keep:
            kept = render("421.keeps", player=Name(names[p]), dice=" ".join(map(str, action.keep)))
            pieces = kept + [(" ", False)] + pieces
        if not after.is_terminal():
            nxt = after.current_player()
            standing = after.standing()
            if nxt == p and standing is not None and self.table.is_person(p):
                outcome = standing_outcome(standing, names)
                if outcome is not None:
                    pieces = pieces + [(" ", False)] + render(outcome)
            if nxt != p and self.table.is_person(nxt):
                pieces = pieces + [(" ", False)] + render("421.next_thrower", player=Name(names[nxt]))
                beat = to_beat(standing, names) if standing is not None else None
                if beat is not None:
                    pieces = pieces + [(" ", False)] + render(beat)
        return pieces

    def joy(self, before, action, after):
        """A moment of joy (the shell's hook): the 421 thrown."""
        if isinstance(action, Roll) and self.match.history:
            if sorted(landed(before, action, self.match.history[-1])) == [1, 2, 4]:
                return words("view.421.joy")
        return None

    def on_key(self, event):
        key = event.key
        if self.tray.on_key(event) or self.roll_key(event):
            return
        if key in ("s", "S"):
            event.preventDefault()
            if self._can_stop():
                self.table.play(Stop())

    # --- the advisor --------------------------------------------------------------------

    def advice(self, state, tables):
        """Stopping and each keep, with the probability of winning the game (two players:
        what the expert plays by), or the tokens shed in the round (three or more)."""
        found = advise(state, tables)
        if not found.choices:
            return [], ""
        best = found.choices[0]
        nodes = [el("p", words("421.advice.best", choice=advice_choice(state, best.action)), "advice-best")]
        listing = el("ol", None, "advice-list")
        for choice in found.choices:
            item = el("li")
            label = words(advice_choice(state, choice.action))
            item.appendChild(el("button", label[:1].upper() + label[1:], "choice-button ghost small",
                                type="button", data_advice=choice.action.notation()))
            item.appendChild(el("span", words(advice_value(found.measure, choice.value)), "advice-value"))
            listing.appendChild(item)
        nodes.append(listing)
        nodes.append(el("p", words("421.advice.exact" if found.exact else "421.advice.approximation"), "hint"))
        summary = words("421.advice.summary", choices=words("view.common.semicolon").join(
            words("421.advice.item", choice=advice_choice(state, c.action),
                  value=advice_value(found.measure, c.value)) for c in found.choices[:3]))
        return nodes, summary

    def take_advice(self, notation):
        self.tray.take_advice(self.match.game.parse_action(notation))

    # --- the player's hand ------------------------------------------------------------

    def can_roll(self):
        state = self.table.state
        return self.table.my_turn and state.throws < state.limit and len(self.tray.held) < DICE

    def _can_stop(self):
        return self.table.my_turn and self.table.state.throws >= 1

    # --- Charge auto ------------------------------------------------------------------

    def _auto_possible(self):
        match = self.match
        state = match.state if match else None
        return (state is not None and not state.is_terminal() and not state.decharge
                and not self.table.replaying  # a replay is read-only: nothing plays
                and any(self.table.is_person(p) for p in state.round_order))

    @property
    def _auto_running(self):
        return self.auto is not None and self.auto.running

    def auto_charge(self):
        if self._auto_running or not self._auto_possible():
            return
        self.auto = self.table.task(self._auto_loop)
        self.render()

    async def _auto_loop(self, live):
        """Each person's throw of the charge in turn; the computer's are the shell's."""
        try:
            while live():
                state = self.table.state
                if state.is_terminal() or state.decharge:
                    break
                if self.table.my_turn:
                    self.table.play(Roll())
                await asyncio.sleep(0.05)  # let the page draw each throw (or a computer's)
        finally:
            if live():
                self.auto = None
                self.render()
                self.focus()

    # --- the journal --------------------------------------------------------------------

    def _replay(self, match):
        """The rounds' sentences and the last hand thrown, from the record."""
        self.log, self.shown = [], None
        names = [p.name for p in match.players]
        history = match.history
        for step in match.positions():
            state, action, nxt = step.before, step.action, step.after
            if isinstance(action, Roll) and step.ply + 1 < len(history):
                self.shown = (state.current_player(), landed(state, action, history[step.ply + 1]),
                              state.throws + 1, state.round, bool(state.rampo))
            if nxt.last is not None and nxt.last is not state.last:
                self.log.append((state.round, round_sentence(nxt.last, names)))

    # --- drawing ----------------------------------------------------------------------

    @staticmethod
    def _coins(box, n):
        clear(box)
        for _ in range(min(n, MAX_COINS)):
            box.appendChild(el("i", None, "coin"))
        if n > MAX_COINS:
            box.appendChild(el("span", "…", "more"))

    def _mini_dice(self, dice, cls="hand-dice"):
        box = el("span", None, cls, aria_hidden="true")
        for face in dice:
            box.appendChild(el("span", None, "die mini", data_face=face))
        return box

    def _build_seats(self):
        body = by_id("seats")
        clear(body)
        self.rows = []
        for p, player in enumerate(self.match.players):
            tr = el("tr", None, "seat")
            name = el("th", None, "who", scope="row")
            name.appendChild(el("span", "▶ ", "mark", aria_hidden="true"))
            name.appendChild(el("span", player.name, "name", title=player.name))  # "…" if too long
            if player.is_computer:
                name.appendChild(self.table.seat_badge(player))
            name.appendChild(el("span", "", "status"))
            tokens = el("td", None, "tokens")
            coins = el("span", None, "coins", aria_hidden="true")
            count = el("span", "", "count")
            tokens.appendChild(coins)
            tokens.appendChild(count)
            hand = el("td", None, "hand")
            tr.appendChild(name)
            tr.appendChild(tokens)
            tr.appendChild(hand)
            body.appendChild(tr)
            self.rows.append({"tr": tr, "status": name.querySelector(".status"), "coins": coins,
                              "count": count, "hand": hand, "cache": None})

    def _draw_seats(self, state, current):
        out = {p for group in state.left for p in group}
        infos = state.hand_infos() if state.hands else []
        for p, row in enumerate(self.rows):
            tokens = state.tokens[p]
            if p in out:
                status = words("view.421.status.out")
            elif state.loser == p:
                status = words("view.421.status.lost")
            elif not state.is_terminal() and p == state.leader:
                status = words("view.421.status.leads" if state.decharge else "view.421.status.starts")
            else:
                status = ""
            hand = infos[p] if infos else None
            throws = state.hands[p].throws if hand else 0
            rampo = tuple(state.rampo_hands[p]) if state.rampo_hands else ()
            key = (tokens, status, p == current, p in out, state.loser == p,
                   hand and hand.dice, throws, rampo, state.decharge)
            if row["cache"] == key:
                continue
            row["cache"] = key
            tr = row["tr"]
            tr.classList.toggle("current", p == current)
            tr.classList.toggle("out", p in out)
            tr.classList.toggle("loser", state.loser == p)
            row["status"].textContent = status
            self._coins(row["coins"], tokens)
            row["count"].textContent = words("count.tokens", n=tokens)
            cell = row["hand"]
            clear(cell)
            if hand is not None:
                cell.appendChild(self._mini_dice(hand.dice))
                text = words(hand_label(hand.dice))
                detail = (words("view.421.hand.value_throws", value=hand.value, throws=Msg("count.throws", n=throws))
                          if state.decharge else words("view.421.hand.value", value=hand.value))
                label = el("span", None, "hand-label")
                label.appendChild(el("strong", text))
                label.appendChild(el("small", detail))
                cell.appendChild(label)
                if rampo:
                    cell.appendChild(el("span", words("view.421.rampo_tag",
                                                      hands=", ".join(words(hand_label(h)) for h in rampo)),
                                        "rampo-tag"))
            elif p in out:
                cell.appendChild(el("span", "—", "none"))
            elif not state.is_terminal() and p in state.round_order:
                doing = "view.421.seat.throwing" if p == current else "view.421.seat.to_throw"
                cell.appendChild(el("span", words(doing), "none"))

    def _draw_last(self, state):
        box = by_id("last-round")
        last = state.last
        box.hidden = last is None
        if last is None:
            return
        by_id("last-title").textContent = words("view.421.last.final" if state.is_terminal()
                                                else "view.421.last.previous")
        set_text(by_id("last-sentence"), round_sentence(last, self.names))
        hands = by_id("last-hands")
        clear(hands)
        for p, hand in enumerate(last.hands):
            if hand is None:
                continue
            item = el("span", None, "last-hand" + (" best" if p == last.best else "")
                      + (" worst" if p == last.worst else ""))
            item.appendChild(el("span", self.names[p], "name"))
            item.appendChild(el("span", " " + words(hand_label(hand.dice))))
            rampo = [words(hand_label(h)) for q, h in last.rampo_throws if q == p]
            if rampo:  # what made one of two equal hands the best or the worst
                item.appendChild(el("span", " " + words("view.421.last.rampo", hands=", ".join(rampo)),
                                    "rampo-throws"))
            if p == last.best:
                item.appendChild(el("small", " " + words("view.421.last.best")))
            if p == last.worst:
                item.appendChild(el("small", " " + words("view.421.last.worst")))
            hands.appendChild(item)
        notes = []
        if last.left:
            who = [Name(self.names[p]) for p in last.left]
            notes.append(words("view.421.last.left", players=who, n=len(who)))
        if last.charge_over and not state.is_terminal():
            notes.append(words("view.421.last.charge_over"))
        if notes:
            hands.appendChild(el("span", " ".join(notes), "note"))
        self.draw_journal([(number, render("view.421.journal.round", round=number, sentence=sentence))
                           for number, sentence in self.log])

    def draw(self, state, current):
        held = self.tray.held
        # The pot.
        self._coins(by_id("pot-coins"), state.pot)
        by_id("pot-count").textContent = (words("count.tokens", n=state.pot) if state.pot
                                          else words("view.421.pot.empty"))
        self._draw_seats(state, current)
        self._draw_last(state)
        # The dice: those on the table, else the last hand thrown (dimmed).
        dice, owner = state.dice, None
        if not dice and self.shown is not None:
            owner, dice, shown_throws, shown_round, shown_rampo = self.shown
        self.tray.draw(None if owner is None else dice, None if owner is None else self.names[owner])
        by_id("dice").classList.toggle("previous", owner is not None)
        caption = by_id("dice-caption")
        if owner is not None:
            clear(caption)  # the name isolated (bidi) from the rest of the caption
            if shown_round != state.round:  # the last throw of the round before
                caption.appendChild(el("span", words("view.421.caption.earlier"), "earlier"))
            caption.appendChild(el("span", self.names[owner], "name"))
            hand = hand_label(dice)
            said_hand = (words("view.421.caption.hand_throws", hand=hand, throws=Msg("count.throws", n=shown_throws))
                         if shown_throws > 1 else words("view.421.caption.hand", hand=hand))
            caption.appendChild(el("span", said_hand + (words("view.421.caption.rampo") if shown_rampo else "")))
        elif state.dice:
            caption.textContent = words(hand_label(state.dice))
        else:
            caption.textContent = ""
        # The controls.
        roll, stop, auto = by_id("roll"), by_id("stop"), by_id("auto-charge")
        roll.disabled = not self.can_roll()
        roll.dataset.action = self.tray.notation()
        kept = len(held)
        roll.textContent = (
            words("view.common.roll_dice") if state.throws == 0
            else words("view.421.reroll_some", n=DICE - kept) if kept else words("view.421.reroll_all")
        )
        stop.hidden = not state.decharge or state.is_terminal()
        stop.disabled = not self._can_stop()
        auto.hidden = state.decharge or state.is_terminal() or self.match.dice == "real"  # real dice: typed
        running = self._auto_running
        auto.disabled = running or not self._auto_possible()
        auto.textContent = words("view.421.auto.running" if running else "view.421.auto")
        counter = by_id("roll-count")
        counter.hidden = not state.decharge or bool(state.rampo)
        clear(counter)
        for i in range(state.limit if not state.is_terminal() else 0):
            counter.appendChild(el("i", None, "used" if i < state.throws else None))
        self._draw_standing(state)
        self._draw_info(state, current)
        self.table.hint(self.hint_text())

    def _draw_standing(self, state):
        """Under the dice: in the décharge, the thrower's hand against the hand to beat and
        what would move were he to stop; in a rampo, its throws so far."""
        box, line, outcome = by_id("standing"), by_id("standing-line"), by_id("standing-outcome")
        standing = state.standing()
        if standing is not None:
            set_text(line, standing_line(standing, self.names))
            found = standing_outcome(standing, self.names)
            set_text(outcome, found if found is not None else "")
        elif state.rampo and state.rampo_throws and not state.is_terminal():
            set_text(line, rampo_line(state.rampo_throws, self.names))
            set_text(outcome, "")
        else:
            set_text(line, "")
            set_text(outcome, "")
        box.hidden = not line.textContent

    def _draw_info(self, state, current):
        phase = by_id("phase-info")
        clear(phase)
        self.turn_info(current, words("view.421.turn", round=state.round))
        if current is None:
            set_text(phase, self.table.family.text.reason(state.outcome(), self.names))
            return
        badge = words(f"421.phase.{state.phase}")
        phase.appendChild(el("span", badge[:1].upper() + badge[1:], "phase " + state.phase))
        if state.rampo:
            phase.appendChild(el("span", words("view.421.info.rampo_best" if state.rampo == "best"
                                               else "view.421.info.rampo_worst")))
        else:
            left = state.limit - state.throws
            if state.decharge:
                text = words("view.421.info.throws_left", n=left) if state.throws else (
                    words("view.421.info.throws_limit", n=state.limit))
            else:
                text = words("view.421.info.charge")
            phase.appendChild(el("span", text))

    def hint_text(self):
        state = self.match.state
        if state.is_terminal():
            return ""
        name = Name(self.names[state.current_player()])
        if not self.table.my_turn:
            return render("view.421.hint.computer", player=name)
        if self._auto_running:
            return words("view.421.hint.auto")
        if state.throws == 0:
            if state.rampo:
                return render("view.421.hint.rampo", player=name)
            return render("view.421.hint.throw", player=name)
        if len(self.tray.held) == DICE:
            return words("view.421.hint.release")
        return words("view.421.hint.keep")
