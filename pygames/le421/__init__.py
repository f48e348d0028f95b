"""Le 421: three dice, a pot of tokens, the charge, the décharge and its rampos.

`rules` (the hands ranked by a rule, the rounds), `bots` (*débutant*, *facile*, *expert*,
and the advisor), `tables` (the expert's solved table: name, format, reading), `solver`
(numpy, build time only), `cli` (its commands), `messages` (its words: hands, rounds,
errors).
"""

from ..core import Family
from . import messages, tables
from .bots import ExpertBot, NaiveBot, SimpleBot, advise
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.le421.X)
from .rules import GAMES

FAMILY = Family.of_package(
    __name__,
    GAMES,
    view="le421_view",
    bots={"naive": lambda tables: NaiveBot(), "simple": lambda tables: SimpleBot(),
          "expert": ExpertBot},
    text=messages,
    commands=("rank421",),
    tables=tables,
    advise=advise,
)
