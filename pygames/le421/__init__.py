"""Le 421: three dice, a pot of tokens, the charge, the décharge and its rampos.

`rules` (the hands ranked by a rule, the rounds), `bots` (*débutant*, *facile*, *expert*),
`cli` (its command), `messages` (its words: hands, rounds, errors).
"""

from ..core import Family
from . import messages
from .bots import ExpertBot, NaiveBot, SimpleBot
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.le421.X)
from .rules import GAMES

FAMILY = Family(
    id="421",
    games=GAMES,
    view="le421_view",
    bots={"naive": lambda tables: NaiveBot(), "simple": lambda tables: SimpleBot(),
          "expert": lambda tables: ExpertBot()},
    text=messages,
    commands=("rank421",),
    cli="pygames.le421.cli",
)
