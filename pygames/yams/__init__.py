"""The Yams family: `yams` (the full French sheet), `yams-boite` and `yahtzee`.

`rules` (the sheet as data, the state machine), `bots` (*facile* and *expert*), `tables`
(the expert's solved tables: name, format, reading), `advisor` (Conseil and the game's
analysis), `solver` (numpy, build time only), `cli` (its commands), `messages` (its words).
"""

from ..core import Family
from . import messages
from .advisor import advise
from .bots import ExpertBot, SimpleBot
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.yams.X)
from .rules import GAMES
from .tables import load_tables, tables_name

FAMILY = Family(
    id="yams",
    games=GAMES,
    view="yams_view",
    bots={"simple": lambda tables: SimpleBot(), "expert": ExpertBot},
    text=messages,
    commands=("score",),
    cli="pygames.yams.cli",
    solver=True,
    tables_name=tables_name,
    load_tables=load_tables,
    advise=advise,
)
