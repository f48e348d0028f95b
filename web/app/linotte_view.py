"""The Jeu de la linotte view: five dice on the felt with Lancer, Passer and the appel
buttons; beside them the 5×5 board drawn as a board (each cell's combination in words or
as a small die, the pawns as round ● and square ■ shapes, the cells the dice allow
highlighted and clickable, the scoring runs drawn as lines over it), and each player's
pawns left and points.  Clicks and keys become action notations.

The shell (shell.py) owns everything else.  Kept dice are the page's own state until the
next throw (`held`, saved with the game so that a reload keeps them); the roll button's
``data-action`` always says what a click plays (``roll``, or ``keep 3 3 5 @1,2,4``).
The board is one tab stop (a roving tabindex): the arrows move over it, Enter or Space
places a pawn on the focused cell when the dice allow it.
"""

import asyncio

from dom import by_id, clear, document, el, on, spawn
from tray import DiceTray, TrayView

from pygames.linotte import (
    EMPTY,
    ROLLS,
    SIZE,
    Announce,
    Pass,
    Place,
    Roll,
    cell_name,
    describe_dice,
    kind_label,
)
from pygames.linotte.messages import events as move_events
from pygames.linotte.messages import run_text
from pygames.messages import Msg, Name, Series, render, sentences
from pygames.messages import text as words

SVG = "http://www.w3.org/2000/svg"
MARKS = ("●", "■")  # round pawns and square pawns: never colour alone
# The cells whose small words under their name say what they take (brelans are drawn as a die).
CELL_NOTES = ("quinte", "carre", "small", "yam", "sec", "appel")


def kind_text(kind):
    return words(kind_label(kind))


def label(kind):
    """A combination's name as a cell, a chip or an appel button shows it ("Full", "Carré")."""
    text = kind_text(kind)
    return text[0].upper() + text[1:]


def cell_note(kind):
    """The small words under a cell's name ("4 pareils"), or ""."""
    return words(f"view.linotte.cell.{kind}") if kind in CELL_NOTES else ""


def roll_label(rolls, kept, limit=ROLLS):
    """The roll button: "Lancer les dés", "Relancer (tout)", "Relancer (2 dés)", "Plus de lancer"."""
    if rolls == 0:
        return words("view.common.roll_dice")
    if rolls >= limit:
        return words("view.common.no_roll_left")
    return words("view.common.reroll_some", n=5 - kept) if kept else words("view.common.reroll_all")


def events_text(state):
    """What the last move did, clause by clause, in French."""
    return tuple(words(m) for m in move_events(state))


def svg(tag, **attrs):
    node = document.createElementNS(SVG, tag)
    for name, value in attrs.items():
        node.setAttribute(name.replace("_", "-"), str(value))
    return node


class View(TrayView):
    def __init__(self, table):
        super().__init__(table)
        self.tray = DiceTray(table, 5, redraw=self.render,
                             keepable=lambda state: bool(state.dice) and 0 < state.rolls < ROLLS,
                             hand=lambda state: (state.player, state.board))
        self.cells = []
        self.rows = []
        self.cursor = 12  # the board's roving tab stop (the centre first)
        self.last_move = None  # (player, events) of the last placement or pass
        self.last_cell = None

    # --- hooks called by the shell (view.py) ---------------------------------------------

    def bind(self):
        self.tray.bind()
        board = by_id("board")
        on(board, "click", self._on_board_click)
        on(board, "focusin", self._on_board_focus)

    def adopt(self, match):
        self.tray.drop()
        self.cursor = 12
        self._build_board(match.state)
        self._build_scores(match)
        self._build_appel(match.state)
        self.last_move, self.last_cell = self._replay_last_move(match)
        seats = {p.seat for p in match.players}
        if seats & {"medium", "expert"}:
            spawn(self._warm_bots(seats))

    @staticmethod
    async def _warm_bots(seats):
        """The computer's dice tables take a moment to build: do it now, not on its first move."""
        await asyncio.sleep(0.05)
        from pygames.linotte.bots import warm

        warm(seats)

    @staticmethod
    def _replay_last_move(match):
        last, cell = None, None
        for step in match.positions():
            if isinstance(step.action, (Place, Pass)):
                last = (step.before.current_player(), events_text(step.after))
                cell = step.action.cell if isinstance(step.action, Place) else None
        return last, cell

    def focus(self):
        state = self.match.state
        cells = state.placeable_cells() if self.table.my_turn else []
        roll = by_id("roll")
        if cells and (state.rolls >= ROLLS or roll.disabled):
            self._focus_cell(self.cursor if self.cursor in cells else cells[0])
        elif not roll.disabled:
            roll.focus()
        elif not by_id("pass").disabled:
            by_id("pass").focus()

    def score_text(self, player, score):
        return Msg("count.points", n=score)  # as data: the statistics keep it so

    def score_lines(self, player):
        """The end screen: the runs that scored for `player`, by their end cells."""
        return [words(run_text(run)) for run in self.match.state.scoring_runs(player)]

    def moved(self, before, action, after):
        self.tray.thrown(before, action)
        if isinstance(action, (Place, Pass)):
            self.tray.drop()
            self.last_move = (before.current_player(), events_text(after))
            self.last_cell = action.cell if isinstance(action, Place) else None

    async def preview(self, state, action, pause):
        """Show the dice a computer keeps, or the cell it takes, for a moment."""
        if isinstance(action, Roll):
            return await self.tray.preview(state, action, pause)
        if isinstance(action, Place) and pause:
            self.cells[action.cell].classList.add("preview")
            await asyncio.sleep(pause)
            self.cells[action.cell].classList.remove("preview")
        return action

    def describe(self, before, action, after):
        p = before.current_player()
        state, name = after, Name(self.names[p])
        if isinstance(action, Place):
            return render("view.linotte.placed", player=name, mark=MARKS[p],
                          events=", ".join(events_text(state))) + self._next_text(state)
        if isinstance(action, Pass):
            return render("view.linotte.passed", player=name, events=", ".join(events_text(state))) \
                + self._next_text(state)
        if isinstance(action, Announce):
            return render("view.linotte.announced", player=name, target=kind_text(action.target))
        said = [Msg("view.linotte.keeps", player=name, dice=" ".join(map(str, action.keep)))] if action.keep else []
        said.append(Msg("view.linotte.rolled", player=name, roll=state.rolls, dice=", ".join(map(str, state.dice)),
                        combinations=describe_dice(state.dice)))
        if state.target:
            target = kind_text(state.target)
            said.append(Msg("view.linotte.rolled.appel_made" if state.appel_fulfilled()
                            else "view.linotte.rolled.appel_pending", target=target))
        elif state.sec_available():
            said.append(Msg("view.linotte.rolled.sec"))
        if self.table.my_turn:
            cells = state.placeable_cells()
            said.append(Msg("view.linotte.rolled.cells", cells=", ".join(cell_name(c) for c in cells))
                        if cells else Msg("view.linotte.rolled.no_cell"))
        return sentences(said)

    def _next_text(self, state):
        """After a placement or a pass: the points, and whose turn it is (a person's)."""
        if state.is_terminal():
            return []
        scores = Series(Msg("view.linotte.score", player=Name(n), points=score)
                        for n, score in zip(self.names, state.scores()))
        said = [Msg("view.linotte.scores", scores=scores)]
        if self.table.is_person(state.current_player()):
            said.append(Msg("view.linotte.next_player", player=Name(self.names[state.current_player()])))
        return [(" ", False)] + sentences(said)

    def highlights(self, match):
        """For the statistics (stats_view.py): the five of a kind thrown in a finished game
        (the "Yam !" of the joy below), counted by replaying its actions."""
        from stats import landed_throws

        return {"site.highlight.yams_thrown": sum(len(s.dice) == 5 and len(set(s.dice)) == 1
                                    for s in landed_throws(match, Roll))}

    def joy(self, before, action, after):
        """A moment of joy (the shell's hook): five of a kind thrown."""
        if isinstance(action, Roll) and len(after.dice) == 5 and len(set(after.dice)) == 1:
            return words("view.linotte.joy")
        return None

    def on_key(self, event):
        key, target = event.key, event.target
        if self.tray.on_key(event) or self.roll_key(event):
            return
        if key in ("p", "P"):
            event.preventDefault()
            if self._can_pass():
                self.table.play(Pass())
        elif key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"):
            cell = target.closest("[data-cell]") if hasattr(target, "closest") else None
            if cell is None or not by_id("board").contains(cell):
                return
            event.preventDefault()
            i = int(cell.dataset.cell)
            r, c = divmod(i, SIZE)
            if key == "ArrowLeft":
                c = (c - 1) % SIZE
            elif key == "ArrowRight":
                c = (c + 1) % SIZE
            elif key == "ArrowUp":
                r = (r - 1) % SIZE
            elif key == "ArrowDown":
                r = (r + 1) % SIZE
            elif key == "Home":
                c = 0
            else:
                c = SIZE - 1
            self._focus_cell(r * SIZE + c)

    # --- the player's hand ------------------------------------------------------------

    def can_roll(self):
        state = self.table.state
        return self.table.my_turn and state.rolls < ROLLS and len(self.tray.held) < 5

    def _can_pass(self):
        return self.table.my_turn and self.table.state.rolls > 0

    def _on_board_click(self, event):
        cell = event.target.closest("[data-cell]")
        if cell is None:
            return
        i = int(cell.dataset.cell)
        self.cursor = i
        if cell.hasAttribute("data-action") or not self.table.my_turn:
            return  # the shell plays it (or it is not the human's turn)
        self.table.hint(self.table.state.why_illegal(Place(i)))

    def _on_board_focus(self, event):
        cell = event.target.closest("[data-cell]")
        if cell is not None:
            self._set_cursor(int(cell.dataset.cell))

    def _set_cursor(self, i):
        if self.cells:
            self.cells[self.cursor].setAttribute("tabindex", "-1")
            self.cells[i].setAttribute("tabindex", "0")
        self.cursor = i

    def _focus_cell(self, i):
        self._set_cursor(i)
        self.cells[i].focus()

    # --- building -----------------------------------------------------------------------

    def _build_board(self, state):
        board = by_id("board")
        clear(board)
        self.cells = []
        for i, kind in enumerate(state.rules.cells):
            cell = el("button", None, "cell", type="button", data_cell=i, data_kind=kind,
                      tabindex="0" if i == self.cursor else "-1")
            face = el("span", None, "face", aria_hidden="true")
            if kind.isdigit():
                face.classList.add("brelan")
                face.appendChild(el("span", None, "die mini", data_face=kind))
                face.appendChild(el("span", words("view.linotte.cell.brelan"), "sub"))
            else:
                sub = cell_note(kind)
                face.appendChild(el("span", label(kind), "big"))
                if sub:  # a space between the words (not drawn in the flex box): "Appel annoncé"
                    face.appendChild(document.createTextNode(" "))
                    face.appendChild(el("span", sub, "sub"))
            cell.appendChild(face)
            cell.appendChild(el("span", None, "pawn", aria_hidden="true"))
            cell.appendChild(el("span", None, "last-mark", aria_hidden="true"))
            board.appendChild(cell)
            self.cells.append(cell)

    def _build_scores(self, match):
        box = by_id("scores")
        clear(box)
        self.rows = []
        for p, player in enumerate(match.players):
            item = el("li", None, f"seat p{p}", data_player=p)
            head = el("span", None, "who")
            head.appendChild(el("span", None, f"pawn p{p}", aria_hidden="true"))
            head.appendChild(el("span", player.name, "name"))
            head.appendChild(el("span", " " + words(f"view.linotte.pawns.{p}", mark=MARKS[p]), "sr-only"))
            if player.is_computer:
                head.appendChild(self.table.seat_badge(player))
            turn = el("span", "", "turn")
            head.appendChild(turn)
            item.appendChild(head)
            points = el("strong", "", "points")
            left = el("span", "", "left")
            item.appendChild(points)
            item.appendChild(left)
            box.appendChild(item)
            self.rows.append({"li": item, "points": points, "left": left, "turn": turn})

    def _build_appel(self, state):
        box = by_id("appel-buttons")
        clear(box)
        for target in state.appel_targets():
            box.appendChild(el("button", label(target), "ghost small appel", type="button",
                               data_action=f"announce {target}",
                               aria_label=words("view.linotte.appel", target=kind_text(target))))

    # --- drawing ----------------------------------------------------------------------

    def draw(self, state, current):
        human = self.table.my_turn
        placeable = set(state.placeable_cells()) if human else set()
        self._draw_board(state, placeable)
        self._draw_scores(state, current)
        self._draw_dice(state, human)
        self._draw_controls(state, human)
        self._draw_last()
        if current is None:
            self.turn_info(None)
            self.table.hint("")
            return
        self.turn_info(current, el("span", None, f"pawn p{current}", aria_hidden="true"),
                       words("view.common.roll_of", roll=state.rolls, rolls=ROLLS))
        self.table.hint(self.hint_text())

    def _draw_board(self, state, placeable):
        runs = state.scoring_runs()
        in_run = {c for _, cells in runs for c in cells}
        names = self.names
        if placeable and self.cursor not in placeable and not by_id("board").contains(document.activeElement):
            self._set_cursor(min(placeable))
        for i, cell in enumerate(self.cells):
            owner = state.board[i]
            kind = state.rules.cells[i]
            cls = "cell"
            if owner != EMPTY:
                cls += f" taken p{owner}"
            if i in placeable:
                cls += " placeable"
            elif placeable:
                cls += " dim"
            if i in in_run:
                cls += " in-run"
            if i == self.last_cell and owner != EMPTY:
                cls += " last"
            if "preview" in cell.className:
                cls += " preview"
            cell.className = cls
            parts = [cell_name(i), kind_text(kind)]
            if cell_note(kind):  # the name holds the cell's visible words
                parts.append(cell_note(kind))
            if owner != EMPTY:
                parts.append(words("view.linotte.aria.pawn", mark=MARKS[owner], player=Name(names[owner])))
                if i in in_run:
                    parts.append(words("view.linotte.aria.in_run"))
                if i == self.last_cell:
                    parts.append(words("view.linotte.aria.last"))
            elif i in placeable:
                parts.append(words("view.linotte.aria.placeable", why=state.why_cell(i)))
            else:
                parts.append(words("view.linotte.aria.free"))
            cell.setAttribute("aria-label", ", ".join(parts))
            if i in placeable:
                cell.dataset.action = f"place {cell_name(i).lower()}"
                cell.removeAttribute("aria-disabled")
            else:
                cell.removeAttribute("data-action")
                cell.setAttribute("aria-disabled", "true")
        lines = by_id("runs")
        clear(lines)
        for p, cells in runs:
            (r0, c0), (r1, c1) = divmod(cells[0], SIZE), divmod(cells[-1], SIZE)
            ends = dict(x1=c0 + .5, y1=r0 + .5, x2=c1 + .5, y2=r1 + .5)
            group = svg("g", **{"class": f"run p{p}", "data-cells": ",".join(cell_name(c) for c in cells)})
            group.appendChild(svg("line", **ends, **{"class": "halo"}))
            group.appendChild(svg("line", **ends, **{"class": "stroke"}))
            for c in (cells[0], cells[-1]):
                r, col = divmod(c, SIZE)
                group.appendChild(svg("circle", cx=col + .5, cy=r + .5, r=.09, **{"class": "end"}))
            lines.appendChild(group)

    def _draw_scores(self, state, current):
        scores, left = state.scores(), state.pawns_left()
        for p, row in enumerate(self.rows):
            row["li"].classList.toggle("current", p == current)
            row["li"].dataset.points = str(scores[p])
            row["li"].dataset.left = str(left[p])
            row["points"].textContent = words("count.points", n=scores[p])
            row["left"].textContent = words("view.linotte.to_place", pawns=Msg("count.pawns", n=left[p]))
            row["turn"].textContent = words("view.linotte.seat.to_play") if p == current else ""

    def _draw_dice(self, state, human):
        self.tray.draw()
        caption = by_id("dice-caption")
        clear(caption)
        if state.target:
            chip = el("span", None, "chip appel-status", id="appel-status")
            chip.appendChild(el("span", words("view.linotte.appel", target=kind_text(state.target)), "what"))
            if state.rolls >= 2:
                done = state.appel_fulfilled()
                said = ("view.linotte.chip.made" if done else
                        "view.linotte.chip.missed" if state.rolls >= ROLLS else "view.linotte.chip.not_yet")
                chip.appendChild(el("span", " " + words(said), "state " + ("ok" if done else "no")))
            else:
                chip.appendChild(el("span", " " + words("view.linotte.chip.reroll"), "state"))
            caption.appendChild(chip)
        if state.dice and not state.rerolling and not state.is_terminal() and not state.target:
            # (after an appel only the named majeure counts: its chip says whether it is there)
            kinds = state.combinations()
            if kinds:
                for kind in kinds:
                    caption.appendChild(el("span", label(kind), "chip combo"))
            else:
                none = words("linotte.no_combination")
                caption.appendChild(el("span", none[:1].upper() + none[1:], "chip none"))
            if state.sec_available():
                caption.appendChild(el("span", words("view.linotte.chip.sec"), "chip sec",
                                       title=words("view.linotte.chip.sec_title")))

    def _draw_controls(self, state, human):
        roll = by_id("roll")
        roll.disabled = not self.can_roll()
        roll.dataset.action = self.tray.notation()
        kept = len(self.tray.held) if state.dice else 0
        roll.textContent = roll_label(state.rolls, kept)
        by_id("pass").disabled = not self._can_pass()
        counter = by_id("roll-count")
        clear(counter)
        for i in range(ROLLS):
            counter.appendChild(el("i", None, "used" if i < state.rolls else None))
        appel = human and state.rolls == 1 and not state.target
        by_id("appel-row").hidden = not appel
        legal = {a.notation() for a in state.legal_actions()} if appel else set()
        for button in by_id("appel-buttons").querySelectorAll("button"):
            button.disabled = button.dataset.action not in legal

    def _draw_last(self):
        node = by_id("last-move")
        clear(node)
        if self.last_move is None:
            return
        p, events = self.last_move
        node.appendChild(el("span", words("view.linotte.last_move"), "label"))
        node.appendChild(el("span", None, f"pawn p{p}", aria_hidden="true"))
        line = el("span")  # the name and its colon together: no gap of the row between them
        line.appendChild(el("bdi", self.names[p], "name"))
        line.appendChild(document.createTextNode(words("view.common.colon") + ", ".join(events)))
        node.appendChild(line)

    def hint_text(self):
        state = self.match.state
        if state.is_terminal():
            return ""
        if not self.table.my_turn:
            return render("view.common.thinking", player=Name(self.names[state.current_player()]))
        if state.rolls == 0:
            return words("view.common.throw_hint")
        cells = state.placeable_cells()
        if state.target:
            target = kind_text(state.target)
            if state.rolls == 1:
                return words("view.linotte.hint.appel_keep", target=target)
            if state.appel_fulfilled():
                return words("view.linotte.hint.appel_place" if cells else "view.linotte.hint.appel_full")
            if state.rolls < ROLLS:
                return words("view.linotte.hint.appel_pending", target=target)
            return words("view.linotte.hint.appel_missed")
        more = state.rolls < ROLLS
        if cells:
            if more:
                return words("view.linotte.hint.place_keep_appel" if state.rolls == 1
                             else "view.linotte.hint.place_keep")
            return words("view.linotte.hint.place_pass")
        if more:
            return words("view.linotte.hint.none_keep_appel" if state.rolls == 1 else "view.linotte.hint.none_keep")
        return words("view.linotte.hint.none_pass")
