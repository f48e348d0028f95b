"""The Yams view: five dice and the score sheet of the Yams family (yams, yams-boite,
yahtzee), drawn from the state; clicks and keys become moves through the table.

The shell (shell.py) owns everything else (view.py says what it asks of a view).  The dice
tray (tray.py) keeps the dice a person holds until the turn is over (saved with the game,
so that a reload keeps them); the roll button's ``data-action`` always says what a click
plays (``roll``, or ``keep 3 5 @1,4``).
"""

from dom import by_id, clear, el, row, set_text
from tray import DiceTray, TrayView
from words import decimal as points

from pygames.messages import Msg, Name, render, sentences, text
from pygames.yams import UPPER_IDS, Roll, Score
from pygames.yams.advisor import advise, analyse
from pygames.yams.messages import describe as describe_move

ROLLS = 3
NBSP = "\u00a0"  # a list of dice never breaks across lines


def roll_label(rolls, kept, limit=ROLLS):
    """The roll button of five dice (the Yams, the Linotte): "Lancer les dés", "Relancer (tout)",
    "Relancer (2 dés)", "Plus de lancer"."""
    if rolls == 0:
        return text("view.common.roll_dice")
    if rolls >= limit:
        return text("view.common.no_roll_left")
    return text("view.common.reroll_some", n=5 - kept) if kept else text("view.common.reroll_all")


class View(TrayView):
    has_analysis = True

    def __init__(self, table):
        super().__init__(table)
        self.tray = DiceTray(table, 5, redraw=self.render,
                             keepable=lambda state: bool(state.dice) and 0 < state.rolls < ROLLS,
                             hand=lambda state: (state.player, state.turn))
        self.cells = {}
        self.cell_cache = {}
        self.heads = []
        self.just_scored = None

    # --- hooks called by the shell (view.py) ---------------------------------------------

    def bind(self):
        self.tray.bind()

    def adopt(self, match):
        self.tray.drop()
        self.just_scored = None
        self._build_sheet()

    def focus(self):
        by_id("roll").focus()

    def score_text(self, player, score):
        return Msg("count.points", n=score)  # as data: the statistics keep it so

    def highlights(self, match):
        """For the statistics (stats_view.py): the Yams made in a finished game, every
        five of a kind put on the sheet, counted by replaying its actions."""
        made = sum(1 for step in match.positions() if isinstance(step.action, Score)
                   and len(step.before.dice) == 5 and len(set(step.before.dice)) == 1)
        return {"site.highlight." + ("yahtzee_made" if match.game.id == "yahtzee" else "yams_made"): made}

    def moved(self, before, action, after):
        self.tray.thrown(before, action)
        self.just_scored = (before.current_player(), action.box) if isinstance(action, Score) else None
        if isinstance(action, Score):
            self.tray.drop()

    async def preview(self, state, action, pause):
        """Show the dice a computer keeps before it rolls the others."""
        return await self.tray.preview(state, action, pause)

    def confirm(self, state, action):
        """The shell's confirmation before a 0 (table_tools.py): a question when this box
        would get 0 while another box the player may fill would score; else None."""
        if not isinstance(action, Score) or state.is_chance() or state.is_terminal():
            return None
        points = state.potential()
        if points.get(action.box) != 0:
            return None
        better = [(pts, b) for b, pts in points.items()
                  if b in set(state.scorable()) and b != action.box and pts > 0]
        if not better:
            return None
        pts, box = max(better, key=lambda item: item[0])
        index = state.rules.index
        label, other = state.rules.boxes[index[action.box]].label, state.rules.boxes[index[box]].label
        return (text("view.yams.confirm.question", box=label, other=other, points=Msg("count.points", n=pts)),
                text("view.yams.confirm.button"))

    def describe(self, before, action, after):
        table = self.table
        return sentences(describe_move(before, action, after, table.names, table.persons()))

    def joy(self, before, action, after):
        """A moment of joy: five of a kind thrown."""
        if isinstance(action, Roll) and len(after.dice) == 5 and len(set(after.dice)) == 1:
            return text("view.yams.joy." + ("yahtzee" if self.match.game.id == "yahtzee" else "yams"))
        return None

    def on_key(self, event):
        if not self.tray.on_key(event):
            self.roll_key(event)

    # --- the player's hand ------------------------------------------------------------

    def can_roll(self):
        state = self.table.state
        return self.table.my_turn and state.rolls < ROLLS and len(self.tray.held) < 5

    # --- drawing ----------------------------------------------------------------------

    def _build_sheet(self):
        match = self.match
        head, body = by_id("sheet-head"), by_id("sheet-body")
        clear(head)
        clear(body)
        head.appendChild(el("th", text("view.yams.sheet.box"), scope="col"))
        by_id("sheet").classList.toggle("many", len(match.players) >= 4)
        self.heads = []
        for p in match.players:
            th = el("th", None, scope="col", title=p.name)
            th.appendChild(el("span", p.name, "name"))
            if p.is_computer:
                th.appendChild(self.table.seat_badge(p, parenthesised=True))
            head.appendChild(th)
            self.heads.append(th)
        self.cells, self.cell_cache = {}, {}
        rules = match.state.rules

        def row(key, label, cls=None, note=None, spoken=None):
            tr = el("tr", None, cls)
            th = el("th", label, scope="row")
            if spoken:  # what a screen reader says instead of the short label
                th.firstChild.remove()
                th.appendChild(el("span", label, aria_hidden="true"))
                th.appendChild(el("span", spoken, "sr-only"))
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
            row(box.id, box.label, None, box.help if not box.upper else None)
            if box.id == "sixes":
                row("upper", text("view.yams.sheet.upper"), "total",
                    text("view.yams.sheet.upper_note", threshold=threshold))
                row("bonus", text("view.yams.sheet.bonus", bonus=rules.bonus), "sub", None,
                    text("view.yams.sheet.bonus_said", bonus=rules.bonus))
        if rules.primes:
            yahtzee = match.game.id == "yahtzee"
            row("primes", text("view.yams.sheet.second_yahtzee" if yahtzee else "view.yams.sheet.second_yams"), "sub",
                text("view.yams.sheet.primes_note_yahtzee" if yahtzee else "view.yams.sheet.primes_note"))
        row("lower", text("view.yams.sheet.lower"), "total")
        row("total", text("yams.text.total"), "total grand")
        self._legend(rules)

    @staticmethod
    def _legend(rules):
        """Under the sheet, in words: the subtotal's bracket and the prime's "−12"."""
        legend = by_id("sheet-legend")
        if not legend:
            return
        clear(legend)
        legend.appendChild(el("b", text("view.yams.sheet.upper")))
        legend.appendChild(el("span", text("view.yams.legend.upper")))
        legend.appendChild(el("b", text("view.yams.sheet.bonus", bonus=rules.bonus)))
        legend.appendChild(el("span", text("view.yams.legend.bonus", bonus=rules.bonus,
                                           threshold=rules.bonus_threshold)))

    def _set_cell(self, key, p, value):
        """Draw one cell; value is ("text", str, cls) or ("box", id, points, legal, label)."""
        if self.cell_cache.get((key, p)) == value:
            return
        self.cell_cache[key, p] = value
        td = self.cells[key, p]
        if value[0] == "text":
            clear(td)
            td.className = value[2] if len(value) > 2 else ""
            if len(value) > 3 and value[3]:  # shown short, said in words
                td.appendChild(el("span", value[1], aria_hidden="true"))
                td.appendChild(el("span", value[3], "sr-only"))
            else:
                td.textContent = value[1]
            return
        _, box, pts, legal, label = value
        clear(td)
        td.className = ""
        button = el(
            "button", str(pts), "box" + (" zero" if pts == 0 else ""),
            type="button", data_box=box, data_action=f"score {box}",
            aria_label=text("view.yams.score_box", points=pts, box=label),
        )
        button.disabled = not legal
        if not legal:
            button.title = text("option.forced_scoring")
        td.appendChild(button)

    def draw(self, state, current):
        match = self.match
        human = self.table.my_turn
        potential = state.potential() if human else {}
        legal = set(state.scorable()) if human else set()
        for p, th in enumerate(self.heads):
            th.classList.toggle("current", p == current)
        for p in range(len(match.players)):
            sheet = state.sheet(p)
            cls = "current" if p == current else ""
            for box in state.rules.boxes:
                value = sheet.boxes[box.id]
                if value is not None:
                    just = ("filled just" if self.just_scored == (p, box.id) else "filled") + (
                        " current" if cls else "")
                    self._set_cell(box.id, p, ("text", str(value), just))
                elif p == current and box.id in potential:
                    self._set_cell(box.id, p, ("box", box.id, potential[box.id], box.id in legal, box.label))
                else:
                    self._set_cell(box.id, p, ("text", "", cls))
            started = any(sheet.boxes[b] is not None for b in UPPER_IDS)
            par = f" ({sheet.par:+d})".replace("-", "−") if started else ""
            ahead = ("view.yams.upper.ahead" if sheet.par > 0 else
                     "view.yams.upper.behind" if sheet.par < 0 else "view.yams.upper.even")
            said = text(ahead, upper=sheet.upper, n=abs(sheet.par)) if started else ""
            self._set_cell("upper", p, ("text", f"{sheet.upper}{par}", cls, said))
            missing = not sheet.bonus and self._upper_open(sheet)
            bonus = str(sheet.bonus) if sheet.bonus else (
                f"−{sheet.missing_for_bonus}" if missing else "0")
            said = (text("view.yams.bonus.missing", points=Msg("count.points", n=sheet.missing_for_bonus),
                         bonus=state.rules.bonus) if missing else "")
            self._set_cell("bonus", p, ("text", bonus, cls, said))
            if ("primes", p) in self.cells:
                self._set_cell("primes", p, ("text", str(sheet.primes) if sheet.primes else "", cls))
            self._set_cell("lower", p, ("text", str(sheet.lower), cls))
            self._set_cell("total", p, ("text", str(sheet.total), cls))
        self.tray.draw()
        roll = by_id("roll")
        roll.disabled = not self.can_roll()
        roll.dataset.action = self.tray.notation()
        kept = len(self.tray.held)
        roll.textContent = roll_label(state.rolls, kept)
        counter = by_id("roll-count")
        clear(counter)
        for i in range(ROLLS):
            counter.appendChild(el("i", None, "used" if i < state.rolls else None))
        if current is None:
            self.turn_info(None)
            self.table.hint("")
            return
        self.turn_info(current, text("view.yams.turn", turn=min(state.turn, state.turns), turns=state.turns),
                       text("view.common.roll_of", roll=state.rolls, rolls=ROLLS))
        self.table.hint(self.hint_text())
        by_id("advise").disabled = not human

    @staticmethod
    def _upper_open(sheet):
        return any(sheet.boxes[b] is None for b in UPPER_IDS)

    def hint_text(self):
        state = self.match.state
        if state.is_terminal():
            return ""
        if not self.table.my_turn:
            return render("view.common.thinking", player=Name(self.match.players[state.current_player()].name))
        if state.rolls == 0:
            return text("view.common.throw_hint")
        notes = [text("view.yams.hint.joker")] if state.joker_active() else []
        notes += self._refused_zero(state)
        if state.rolls >= ROLLS:
            return " ".join([text("view.yams.hint.choose"), *notes])
        if len(self.tray.held) == 5:
            return text("view.yams.hint.release")
        return " ".join([text("view.yams.hint.keep"), *notes])

    @staticmethod
    def _refused_zero(state):
        """Why the boxes that would score 0 are closed (the Boîte à jeux's forced scoring):
        a sentence in a list, or none."""
        if not state.rules.forced_scoring or state.rolls == 0:
            return []
        legal = set(state.scorable())
        if any(b not in legal for b in state.potential()):
            return [text("view.yams.hint.forced")]
        return []

    # --- the advisor and the analysis ------------------------------------------------

    def _describe_choice(self, state, action):
        if isinstance(action, Score):
            box = state.rules.boxes[state.rules.index[action.box]]
            return text("view.yams.score_box", points=state.potential()[action.box], box=box.label)
        if state.rolls == 0:
            return text("view.common.roll_dice")
        if not action.keep:
            return text("view.yams.choice.reroll_all")
        return text("view.yams.choice.keep", dice=" ".join(map(str, action.keep)))

    def advice(self, state, tables):
        """The advisor's panel: (nodes, what to announce)."""
        choices = [(c.action, c.value) for c in advise(state, tables).choices]
        if not choices:
            return [], ""
        best = choices[0][1]
        nodes = [el("p", text("view.yams.advice.best", points=points(best)), "advice-best")]
        listing = el("ol", None, "advice-list")
        for action, value in choices[:6]:
            item = el("li")
            button = el("button", self._describe_choice(state, action), "choice-button ghost small",
                        type="button", data_advice=action.notation())
            item.appendChild(button)
            gap = best - value
            item.appendChild(el("span", points(value) + (f" (−{points(gap)})" if gap >= 0.05 else ""),
                                "advice-value"))
            listing.appendChild(item)
        nodes.append(listing)
        if len(choices) > 6:
            nodes.append(el("p", text("view.yams.advice.more", n=len(choices) - 6), "hint"))
        return nodes, text("view.common.advice", advice=self._describe_choice(state, choices[0][0]))

    def take_advice(self, notation):
        self.tray.take_advice(self.match.game.parse_action(notation))

    def analysis(self, match, tables):
        reviews = analyse(match, tables)
        state, players = match.state, match.players
        nodes = []
        for p, player in enumerate(players):
            mine = [r for r in reviews if r.player == p]
            lost = sum(r.loss for r in mine)
            section = el("section", None, "review")
            title = el("h3")
            set_text(title, render("view.yams.analysis.lost", player=Name(player.name), points=points(lost))
                     if lost >= 0.05 else render("view.yams.analysis.perfect", player=Name(player.name)))
            section.appendChild(title)
            # Turn by turn: what was played, and where it strayed, the best choice instead.
            table = el("table", None, "review-table")
            heads = ("turn", "played", "best", "loss")
            table.appendChild(row(tuple(text(f"view.yams.analysis.{h}") for h in heads), tag="th", scope="col"))
            for review in mine:
                played = " → ".join(self._notation(state, d.played) for d in review.decisions)
                strays = [d for d in review.decisions if d.loss >= 0.05]
                best = "; ".join(  # the roll says which of the turn's choices it was
                    text("view.yams.analysis.instead", choice=self._notation(state, d.best), roll=d.roll,
                         dice=NBSP.join(map(str, d.dice))) for d in strays
                )
                loss = points(review.loss) if review.loss >= 0.05 else "0"
                table.appendChild(row((str(review.turn), played, best or "—", loss),
                                      "stray" if strays else None))
            section.appendChild(table)
            nodes.append(section)
        return nodes

    @staticmethod
    def _notation(state, action):
        if isinstance(action, Score):
            return str(state.rules.boxes[state.rules.index[action.box]].label)
        if action.keep:
            return text("view.yams.analysis.keep", dice=NBSP.join(map(str, action.keep)))
        return text("view.yams.analysis.reroll_all")
