"""The Yams family: `yams` (the full French sheet), `yams-boite` and `yahtzee`.

`rules` (the sheet as data, the state machine), `bots` (*facile* and *expert*), `tables`
(the expert's solved tables: name, format, reading), `advisor` (Conseil and the game's
analysis), `solver` (numpy, build time only), `cli` (its commands), `messages` (its words).
"""

from ..core import Family
from . import messages, tables
from .advisor import advise
from .bots import ExpertBot, SimpleBot
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.yams.X)
from .rules import GAMES

FAMILY = Family.of_package(
    __name__,
    GAMES,
    view="yams_view",
    bots={"simple": lambda tables: SimpleBot(), "expert": ExpertBot},
    text=messages,
    commands=("score",),
    tables=tables,
    advise=advise,
)
