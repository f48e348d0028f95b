"""Le 421: three dice, a pot of tokens, the charge, the décharge and its rampos.

`rules` (the hands ranked by a rule, the rounds), `bots` (*débutant*, *facile*, *expert*,
and the advisor), `tables` (the expert's solved table: name, format, reading), `solver`
(numpy, build time only), `cli` (its commands), `messages` (its words: hands, rounds,
errors).
"""

from ..core import Family
from . import messages
from .bots import ExpertBot, NaiveBot, SimpleBot, advise
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.le421.X)
from .rules import GAMES
from .tables import load_tables, tables_name

FAMILY = Family(
    id="421",
    games=GAMES,
    view="le421_view",
    bots={"naive": lambda tables: NaiveBot(), "simple": lambda tables: SimpleBot(),
          "expert": ExpertBot},
    text=messages,
    commands=("rank421",),
    cli="pygames.le421.cli",
    solver=True,
    tables_name=tables_name,
    load_tables=load_tables,
    advise=advise,
)
