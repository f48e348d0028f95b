"""The contract between the shell and a game's view: every hook the shell calls, with its
default and when it is called.

A game's view (``<family view>.py``, e.g. yams_view.py) subclasses `View`, draws the state
and turns clicks and keys into moves through its `Table` (table.py: the match, whose turn
it is, one entry for a person's move, announcements).  It never names the shell, and the
shell never probes it for a hook: what a view does not draw keeps the default here.

Controls that play carry ``data-action="<notation>"`` inside ``#table``: the shell plays
that notation when a person clicks one (the view keeps those attributes up to date).

A move goes, in order: `preview` (a computer's move, shown before it is played), the rules
apply it and its dice land, `moved` (the view's own state follows: kept dice dropped, the
last move marked, a journal line), `describe` and `joy` (pure: the announcement), `render`.
"""

from __future__ import annotations

from dom import by_id, clear, el, set_text

from pygames.messages import text


class View:
    #: The unit the statistics count a score in, and `stats_value` turns a score into it
    #: (the 421: tokens left, fewer is better): a key of the catalogue's ``site.stats.unit.*``
    #: ("points", "jetons"), or a catalogue id of the view's own.
    stats_unit = "points"
    #: The statistics' figures per player (stats_view.py), in this game's sense of better:
    #: "best" (the best score) and "average" (the mean score) columns, and the site's record
    #: ("Record : 377 points, Léa") when a best score means something.
    stats_columns = ("best", "average")
    stats_record = True
    #: The end screen offers "Analyse de la partie" (`analysis`).
    has_analysis = False

    def __init__(self, table):
        self.table = table

    @property
    def match(self):
        return self.table.match

    @property
    def names(self) -> list[str]:
        return self.table.names

    # --- once, when the page starts ------------------------------------------------------

    def bind(self) -> None:
        """Build the table's fixed parts (dice, buttons) and listen to them."""

    # --- the setup screen ---------------------------------------------------------------

    def build_setup_extra(self, box, game) -> None:
        """Each time the setup is shown: the view's own fields in `box` (a start on paper)."""
        while box.firstChild:
            box.removeChild(box.firstChild)

    def read_setup_extra(self, game, players):
        """When the setup is submitted: a starting position from those fields, or None;
        a `GameError` is shown under the form."""
        return None

    # --- a match --------------------------------------------------------------------------

    def adopt(self, match) -> None:
        """A match is on the table: new, resumed, caught up from another tab, taken back by
        an undo, or a replay's position.  Per-match drawings follow its history
        (`Match.positions`)."""

    def restore_ui(self, blob: dict) -> None:
        """After `adopt` of a saved game: the page-only state `ui_state` saved with it."""

    def ui_state(self) -> dict:
        """The page-only state to save with the game (kept dice): a JSON object."""
        return {}

    # --- a move ---------------------------------------------------------------------------

    async def preview(self, state, action, pause: float):
        """A computer's move before it is played (show the dice it keeps for `pause`
        seconds); returns the action to play (e.g. with the places of the kept dice)."""
        return action

    def moved(self, before, action, after) -> None:
        """A move was played and its dice have landed: the view's own state follows."""

    def describe(self, before, action, after):
        """The move's announcement: a text, a message or pieces (names placed as data).
        Pure: it changes nothing."""
        return ""

    def joy(self, before, action, after):
        """A moment of joy for a person's move ("Yams !"), or None."""
        return None

    def confirm(self, state, action):
        """Before a person's move: a question to ask first (or ``(question, button)``), or
        None to play it at once (the Yams: a 0 while another box would score)."""
        return None

    # --- drawing and keys -------------------------------------------------------------------

    def render(self) -> None:
        """Draw the table from the state (after every move, and when shown): `draw`, except
        at a chance node (the dice are still in the air; the next position draws)."""
        state = self.match.state
        if not state.is_chance():
            self.draw(state, self.table.to_move)

    def draw(self, state, current: int) -> None:
        """Draw the table for `state`, where `current` plays next (see `render`)."""

    def turn_info(self, current, before=None, after=None):
        """The line over the dice (#turn-info): `before` (a text or a node), the name of
        the player to move (`current`), then `after`; "Partie terminée." once nobody moves
        (`current` None).  Returns the line."""
        info = by_id("turn-info")
        clear(info)
        if current is None:
            info.textContent = text("site.turn.over")
            return info
        for piece in (before, el("span", self.names[current], "who"), after):
            if piece:
                info.appendChild(el("span", piece) if isinstance(piece, str) else piece)
        return info

    def draw_journal(self, entries) -> None:
        """The journal (``#journal-list``, an ``<ol reversed>`` in a ``<details>``): `entries`
        oldest first, each ``(number, text)`` (a text, a message or pieces: names placed as
        data); drawn newest first."""
        listing = by_id("journal-list")
        clear(listing)
        for number, line in reversed(entries):
            item = el("li", None, value=number)
            set_text(item, line)
            listing.appendChild(item)

    def focus(self) -> None:
        """Put the keyboard focus where a person plays next (Lancer, in practice)."""

    def hint_text(self):
        """The line under the table for the position on it."""
        return ""

    def score_text(self, player: int, score: int) -> str:
        """A player's score as the end screen says it."""
        return str(score)

    def score_lines(self, player: int) -> list:
        """What earned a player's score, one line each, listed under it on the end screen
        (the Linotte: the runs that scored, "B1–E1 : 2 points"): texts."""
        return []

    def on_key(self, event) -> None:
        """A key the table may use (never one a focused control or field takes)."""

    # --- the advisor, the analysis, the statistics -----------------------------------------

    def advice(self, state, tables):
        """The advisor's panel for `state`: (nodes, what to announce); ([], "") for none."""
        return [], ""

    def take_advice(self, notation: str) -> None:
        """A choice of the advisor's panel was clicked."""
        self.table.play(notation)

    def analysis(self, match, tables) -> list:
        """The end screen's analysis of the game: nodes (with `has_analysis`)."""
        return []

    def highlights(self, match) -> dict:
        """For the statistics: what a finished game counts besides its scores
        ({"Yams réalisés": 2})."""
        return {}

    def stats_value(self, score: int):
        """A score in the statistics' unit (`stats_unit`)."""
        return score
