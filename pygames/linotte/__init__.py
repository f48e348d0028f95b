"""Le Jeu de la linotte: five dice, three rolls, twelve pawns each on a 5×5 board.

`rules` (the board as data, sec, appel, alignments), `bots` (*facile*, *moyen*, *expert*),
`search` (the expert's dice, board value and reply), `weights` (its fitted board value),
`cli` (its command), `messages` (its words).
"""

from ..core import Family
from . import messages
from .bots import ExpertBot, MediumBot, SimpleBot
from .rules import *  # noqa: F401,F403  (the rules' names, as pygames.linotte.X)
from .rules import GAMES

FAMILY = Family.of_package(
    __name__,
    GAMES,
    view="linotte_view",
    bots={"simple": lambda tables: SimpleBot(), "medium": lambda tables: MediumBot(),
          "expert": lambda tables: ExpertBot()},
    text=messages,
    commands=("linotte-score",),
)
