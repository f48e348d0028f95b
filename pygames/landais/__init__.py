"""Le Dé Landais: three dice, floating points to seal in time, tirs that make the others
win or lose, exactly 3000 points to win.

`rules` (throws, tirs, sealing, manches), `bots` (*facile*, *expert*, and the advisor),
`tables` (the expert's solved table: name, format, reading), `solver` (numpy, build time
only), `cli` (its commands), `messages` (its words).
"""

from ..core import Family
from . import messages, tables
from .bots import ExpertBot, ThresholdBot, advise
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.landais.X)
from .rules import GAMES

FAMILY = Family.of_package(
    __name__,
    GAMES,
    view="landais_view",
    bots={"simple": lambda tables: ThresholdBot(300), "expert": ExpertBot},
    text=messages,
    commands=("landais-throw",),
    tables=tables,
    advise=advise,
)
