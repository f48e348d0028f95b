"""The 421 view: three dice, the pot and each player's tokens drawn as coins, this
round's hands, the last round's result and a journal of the rounds, drawn from the
state; clicks and keys become action notations.

The shell (shell.py) owns everything else.  Kept dice are the page's own state until
the next throw (`held`, saved with the game so that a reload keeps them); the roll
button's ``data-action`` always says what a click plays (``roll``, or ``keep 4 1 @1,3``).

Between two hands the table is empty (the engine clears the dice); the page keeps the
dice of the last hand thrown in view, dimmed, with whose they were (`shown`), so that a
computer's throw can be followed.  The journal of the rounds is rebuilt by replaying
the record when a game is adopted, then grows as rounds end.

*Charge auto* plays every human throw of the charge, one `roll` at a time through the
shell, exactly as clicks on Lancer would; the computer's throws in between are played
by the shell's own loop.  It stops when the pot is empty (or the game ends, or another
game starts).
"""

import asyncio

from dom import by_id, clear, el, on, said, set_text, show

from pygames import GameError
from pygames.core import Throw
from pygames.dice import Roll
from pygames.le421 import DICE, Stop
from pygames.le421.messages import describe_events, hand_label, round_sentence
from pygames.messages import Name, render
from pygames.messages import text as words

MAX_COINS = 21  # coins drawn per stack; the number is always written beside them


def plural(n, word):
    return f"{n} {word}{'s' if abs(n) > 1 else ''}"


def landed(before, action, throw):
    """The dice in their places once `throw` lands after `action` (a Roll) on `before`."""
    return before.apply(action).cup.land(throw.faces).dice


class View:
    def __init__(self, shell):
        self.shell = shell
        self.held = set()
        self.held_for = None  # the hand (round, rampos, turn) the held dice belong to
        self.dice_nodes = []
        self.rows = []
        self.last_rolled = ()
        self.shown = None  # (player, dice in places, throws) of the last hand thrown
        self.log = []  # (round, sentence) of every round played
        self.auto_generation = None  # the match generation a Charge auto runs for
        self.paper = None  # the setup's "partie sur papier" fields (build_setup_extra)

    @property
    def match(self):
        return self.shell.match

    @property
    def names(self):
        return [p.name for p in self.match.players]

    # --- hooks called by the shell ----------------------------------------------------

    def bind(self):
        on(by_id("dice"), "click", self._on_dice_click)
        on(by_id("auto-charge"), "click", lambda e: self.auto_charge())
        for i in range(DICE):
            die = el("button", None, "die", type="button", data_die=i, data_face=0)
            die.appendChild(el("span", str(i + 1), "num", aria_hidden="true"))
            by_id("dice").appendChild(die)
            self.dice_nodes.append(die)

    def default_players(self, game):
        return [{"name": name, "seat": seat} for name, seat in game.default_players]

    def build_setup_extra(self, box, game):
        """Optional: a game begun on paper (the pot, each player's tokens, who starts)."""
        clear(box)
        fieldset = el("fieldset", None, "paper")
        toggle = el("label", None, "paper-toggle")
        check = el("input", None, type="checkbox", id="paper")
        toggle.appendChild(check)
        toggle.appendChild(el("span", "Reprendre une partie commencée sur papier"))
        fieldset.appendChild(toggle)
        fields = el("div", None, "paper-fields", id="paper-fields", hidden=True)
        self.paper = {"check": check}  # kept: these nodes are not in the page's markup
        for key, text, hint in (
            ("paper-pot", "Jetons au pot", "0 si la charge est finie"),
            ("paper-tokens", "Jetons de chaque joueur, dans l'ordre", "par exemple : 4 0 7"),
            ("paper-leader", "Numéro du joueur qui commence", "1 pour le premier"),
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

        def numbers(key, what):
            words = paper[key].value.replace(",", " ").split()
            if not words or not all(w.isdigit() and len(w) <= 4 for w in words):
                raise GameError(f"Partie sur papier : {what} en nombres entiers, s'il vous plaît.")
            return [int(w) for w in words]

        pot = numbers("paper-pot", "le pot")
        tokens = numbers("paper-tokens", "les jetons")
        leader = paper["paper-leader"].value.strip() or "1"
        if not leader.isdigit() or not 1 <= int(leader) <= len(players):
            raise GameError(f"Partie sur papier : le joueur qui commence est un numéro de 1 à {len(players)}.")
        return {"pot": pot[0], "tokens": tokens, "leader": int(leader) - 1}

    def adopt(self, match):
        self.held = set()
        self.held_for = None
        self.last_rolled = ()
        self.auto_generation = None
        self._replay(match)
        self._build_seats()

    def restore_ui(self, blob):
        held = blob.get("held", [])
        state = self.match.state
        if isinstance(held, list) and self._keepable(state):
            self.held = {p for p in held if type(p) is int and 0 <= p < DICE}
            self.held_for = self._hand_id(state)

    def ui_state(self):
        return {"held": sorted(self.held)}

    def focus(self):
        roll, stop = by_id("roll"), by_id("stop")
        if not roll.disabled:
            roll.focus()
        elif not stop.disabled and not stop.hidden:
            stop.focus()

    def layout_changed(self):
        pass  # nothing to measure: the felt panel is not sticky on this page (421.css)

    def score_text(self, player, score):
        return plural(-score, "jeton")

    # For the statistics (stats_view.py): a score is minus the tokens left, fewer is better.
    stats_unit = "jetons"

    @staticmethod
    def stats_value(score):
        return -score

    def highlights(self, match):
        """For the statistics: the throws that showed 4-2-1 in a finished game."""
        thrown = sum(1 for step in match.positions() if isinstance(step.action, Throw)
                     and not step.after.rolling and sorted(step.after.dice) == [1, 2, 4])
        return {"421 obtenus": thrown}

    def before_chance(self, before, action):
        """Called once an action is applied, before the dice land."""
        self.last_rolled = self.match.state.rolling

    async def preview_bot_action(self, state, action, pause):
        """Show the dice a computer keeps before it throws the others."""
        if isinstance(action, Roll) and action.keep and state.dice:
            places = state.cup.places_of(action.keep)
            self.held = set(places)
            self.held_for = self._hand_id(state)
            self.render()
            self.shell.announce(said(Name(self.names[state.current_player()]),
                                     f" garde {' '.join(map(str, action.keep))}."))
            await asyncio.sleep(pause)
            return Roll(action.keep, places)
        return action

    def describe(self, p, action, before):
        match, state = self.match, self.match.state
        if isinstance(action, Roll) and match.history:
            self.shown = (p, landed(before, action, match.history[-1]), before.throws + 1)
        if state.last is not None and state.last is not before.last:
            self.log.append((before.round, render(round_sentence(state.last, self.names))))
        pieces = describe_events(state, self.names)
        if isinstance(action, Roll) and action.keep:
            pieces = said(Name(self.names[p]), f" garde {' '.join(map(str, action.keep))}. ") + pieces
        if not state.is_terminal():
            nxt = state.current_player()
            if nxt != p and nxt not in self.shell.bots:
                pieces = pieces + said(" À ", Name(self.names[nxt]), " de lancer.")
        return pieces

    def joy(self, before, action, after):
        """A moment of joy (the shell's hook): the 421 thrown."""
        if isinstance(action, Roll) and self.match.history:
            if sorted(landed(before, action, self.match.history[-1])) == [1, 2, 4]:
                return "421 !"
        return None

    def on_key(self, event):
        key = event.key
        if key in ("1", "2", "3"):
            event.preventDefault()
            self.toggle(int(key) - 1)
        elif key in ("s", "S"):
            event.preventDefault()
            if self._can_stop():
                self.shell.play(Stop())
        elif key in (" ", "Enter", "Spacebar"):
            # (never on a focused control: the shell leaves Space and Enter to it, flow.py)
            event.preventDefault()
            if self._can_roll():
                self.shell.play_text(by_id("roll").dataset.action)

    # --- the player's hand ------------------------------------------------------------

    @staticmethod
    def _hand_id(state):
        return (state.round, state.rampos, state.turn)

    @staticmethod
    def _keepable(state):
        """Dice may be kept between throws (décharge, throws left)."""
        return (not state.is_terminal() and not state.is_chance() and bool(state.dice)
                and 0 < state.throws < state.limit)

    def _held_now(self):
        state = self.match.state
        if self.held_for != self._hand_id(state) or not self._keepable(state):
            self.held = set()
        return self.held

    def _can_roll(self):
        state = self.match.state
        return (self.shell.human_turn() and state.throws < state.limit
                and len(self._held_now()) < DICE)

    def _can_stop(self):
        state = self.match.state
        return self.shell.human_turn() and state.throws >= 1

    def _roll_notation(self):
        state = self.match.state
        held = self._held_now()
        if not held:
            return "roll"
        places = tuple(sorted(held))
        return Roll(tuple(sorted(state.dice[p] for p in places)), places).notation()

    def toggle(self, place):
        state = self.match.state if self.match else None
        if not self.shell.human_turn() or not self._keepable(state):
            return
        held = self._held_now()
        held ^= {place}
        self.held_for = self._hand_id(state)
        self.shell.save()
        self.render()
        face = state.dice[place]
        self.shell.announce(f"Dé {place + 1} ({face}) {'gardé' if place in held else 'relâché'}.")

    def _on_dice_click(self, event):
        die = event.target.closest("[data-die]")
        if die:
            self.toggle(int(die.dataset.die))

    # --- Charge auto ------------------------------------------------------------------

    def _auto_possible(self):
        state = self.match.state if self.match else None
        return (state is not None and not state.is_terminal() and not state.decharge
                and any(p not in self.shell.bots for p in state.round_order))

    def auto_charge(self):
        if self.auto_generation == self.shell.generation or not self._auto_possible():
            return
        self.auto_generation = self.shell.generation
        self.render()
        asyncio.ensure_future(self._auto_loop(self.shell.generation))

    async def _auto_loop(self, generation):
        """Each human throw of the charge in turn; the computer's are the shell's."""
        try:
            while generation == self.shell.generation:
                state = self.match.state
                if state.is_terminal() or state.decharge:
                    break
                if self.shell.human_turn():
                    self.shell.play(Roll())
                    await asyncio.sleep(0.05)  # let the page draw each throw
                else:
                    await asyncio.sleep(0.05)  # a computer is throwing (the shell's loop)
        finally:
            if self.auto_generation == generation:
                self.auto_generation = None
                if generation == self.shell.generation:
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
                              state.throws + 1)
            if nxt.last is not None and nxt.last is not state.last:
                self.log.append((state.round, render(round_sentence(nxt.last, names))))

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
            name.appendChild(el("span", player.name, "name"))
            if player.is_computer:
                name.appendChild(el("span", "expert" if player.seat == "expert" else "ordi", "bot"))
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
                status = "sorti — gagné"
            elif state.loser == p:
                status = "perdu : tous les jetons"
            elif not state.is_terminal() and p == state.leader:
                status = "mène" if state.decharge else "commence"
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
            row["count"].textContent = plural(tokens, "jeton")
            cell = row["hand"]
            clear(cell)
            if hand is not None:
                cell.appendChild(self._mini_dice(hand.dice))
                text = words(hand_label(hand.dice))
                detail = f"vaut {hand.value}"
                if state.decharge:
                    detail += f", {plural(throws, 'coup')}"
                label = el("span", None, "hand-label")
                label.appendChild(el("strong", text))
                label.appendChild(el("small", detail))
                cell.appendChild(label)
                if rampo:
                    cell.appendChild(el("span", "rampo : " + ", ".join(words(hand_label(h)) for h in rampo),
                                        "rampo-tag"))
            elif p in out:
                cell.appendChild(el("span", "—", "none"))
            elif not state.is_terminal() and p in state.round_order:
                cell.appendChild(el("span", "en train de lancer…" if p == current else "à lancer",
                                    "none"))

    def _draw_last(self, state):
        box = by_id("last-round")
        last = state.last
        box.hidden = last is None
        if last is None:
            return
        box.querySelector("h3").textContent = "Dernier tour" if state.is_terminal() else "Tour précédent"
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
            if p == last.best:
                item.appendChild(el("small", " meilleure"))
            if p == last.worst:
                item.appendChild(el("small", " pire"))
            hands.appendChild(item)
        notes = []
        if last.left:
            who = [self.names[p] for p in last.left]
            notes.append(" et ".join(who) + (" sort" if len(who) == 1 else " sortent") + " — gagné.")
        if last.charge_over and not state.is_terminal():
            notes.append("Le pot est vide : la décharge commence.")
        if notes:
            hands.appendChild(el("span", " ".join(notes), "note"))
        listing = by_id("journal-list")
        clear(listing)
        for number, sentence in reversed(self.log):
            item = el("li", None, value=number)
            set_text(item, said(f"Tour {number} : ") + sentence)
            listing.appendChild(item)

    def render(self):
        match = self.match
        state = match.state
        if state.is_chance():
            return
        current = state.current_player() if not state.is_terminal() else None
        human = self.shell.human_turn()
        held = self._held_now()
        # The pot.
        self._coins(by_id("pot-coins"), state.pot)
        by_id("pot-count").textContent = plural(state.pot, "jeton") if state.pot else "vide"
        self._draw_seats(state, current)
        self._draw_last(state)
        # The dice: those on the table, else the last hand thrown (dimmed).
        dice, owner = state.dice, None
        if not dice and self.shown is not None:
            owner, dice, shown_throws = self.shown
        keepable = human and self._keepable(state)
        for place, die in enumerate(self.dice_nodes):
            face = dice[place] if dice else 0
            die.dataset.face = str(face)
            is_held = place in held and bool(state.dice)
            die.setAttribute("aria-pressed", "true" if is_held else "false")
            if not face:
                label = f"Dé {place + 1} : pas encore lancé"
            elif owner is not None:
                label = f"Dé {place + 1} : {face} (main de {self.names[owner]})"
            else:
                label = f"Dé {place + 1} : {face}" + (", gardé" if is_held else "")
            die.setAttribute("aria-label", label)
            die.disabled = not keepable
            if place in self.last_rolled and face:  # an empty slot never tumbles
                die.classList.remove("rolling")
                die.offsetWidth  # restart the animation
                die.classList.add("rolling")
        self.last_rolled = ()
        by_id("dice").classList.toggle("previous", owner is not None)
        caption = by_id("dice-caption")
        if owner is not None:
            clear(caption)  # the name isolated (bidi) from the rest of the caption
            caption.appendChild(el("span", self.names[owner], "name"))
            caption.appendChild(el(
                "span", f" : {words(hand_label(dice))}"
                + (f" en {shown_throws} coups" if shown_throws > 1 else "")))
        elif state.dice:
            caption.textContent = words(hand_label(state.dice))
        else:
            caption.textContent = ""
        # The controls.
        roll, stop, auto = by_id("roll"), by_id("stop"), by_id("auto-charge")
        roll.disabled = not self._can_roll()
        roll.dataset.action = self._roll_notation()
        kept = len(held)
        roll.textContent = (
            "Lancer les dés" if state.throws == 0
            else "Relancer" + (" les 3 dés" if not kept else f" {plural(DICE - kept, 'dé')}")
        )
        stop.hidden = not state.decharge or state.is_terminal()
        stop.disabled = not self._can_stop()
        auto.hidden = state.decharge or state.is_terminal()
        running = self.auto_generation == self.shell.generation
        auto.disabled = running or not self._auto_possible()
        auto.textContent = "Charge auto en cours…" if running else "Charge auto"
        counter = by_id("roll-count")
        counter.hidden = not state.decharge or bool(state.rampo)
        clear(counter)
        for i in range(state.limit if not state.is_terminal() else 0):
            counter.appendChild(el("i", None, "used" if i < state.throws else None))
        self._draw_info(state, current)
        self.shell.hint(self.hint_text())

    def _draw_info(self, state, current):
        info, phase = by_id("turn-info"), by_id("phase-info")
        clear(info)
        clear(phase)
        if current is None:
            info.textContent = "Partie terminée."
            set_text(phase, self.shell.family.text.reason(state.outcome(), self.names))
            return
        info.appendChild(el("span", f"Tour {state.round} · "))
        info.appendChild(el("span", self.names[current], "who"))
        badge = {"charge": "Charge", "decharge": "Décharge", "rampo": "Rampo"}[state.phase]
        phase.appendChild(el("span", badge, "phase " + state.phase))
        if state.rampo:
            where = "meilleure" if state.rampo == "best" else "pire"
            phase.appendChild(el("span", f" pour la {where} place, un lancer"))
        else:
            left = state.limit - state.throws
            text = f" lancer {state.throws + 1 if left else state.throws}/{state.limit}"
            if state.decharge:
                text = f" · encore {plural(left, 'lancer')} permis" if state.throws else (
                    f" · {plural(state.limit, 'lancer')} au plus")
            else:
                text = " · un lancer chacun"
            phase.appendChild(el("span", text))

    def hint_text(self):
        state = self.match.state
        if state.is_terminal():
            return ""
        name = self.names[state.current_player()]
        if not self.shell.human_turn():
            return f"{name} (ordinateur) lance…"
        if self.auto_generation == self.shell.generation:
            return "Charge auto : les lancers de la charge se jouent."
        if state.throws == 0:
            if state.rampo:
                return f"Rampo, {name} : lancez les trois dés (Espace ou Entrée)."
            return f"{name}, lancez les dés (Espace ou Entrée)."
        if len(self.held) == DICE:
            return "Relâchez au moins un dé pour relancer, ou gardez votre main (S)."
        return "Touchez les dés à garder (1 à 3), relancez, ou gardez votre main (S)."
