"""Le Dé Landais: three dice, floating points to seal in time, tirs that make the others
win or lose, exactly 3000 points to win.

`rules` (throws, tirs, sealing, manches), `bots` (*facile*, *expert*, and the advisor),
`tables` (the expert's solved table: name, format, reading), `solver` (numpy, build time
only), `cli` (its commands), `messages` (its words).
"""

from ..core import Family
from . import messages
from .bots import ExpertBot, ThresholdBot, advise
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.landais.X)
from .rules import GAMES
from .tables import load_tables, tables_name

FAMILY = Family(
    id="de-landais",
    games=GAMES,
    view="landais_view",
    bots={"simple": lambda tables: ThresholdBot(300), "expert": ExpertBot},
    text=messages,
    commands=("landais-throw",),
    cli="pygames.landais.cli",
    solver=True,
    tables_name=tables_name,
    load_tables=load_tables,
    advise=advise,
)
