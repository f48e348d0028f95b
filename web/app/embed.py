"""The embed form of a game page (``embed-<id>.html``): what the embedder fixed in the URL.

Pure Python (no browser import), so the parsing is unit-tested with plain CPython
(tests/test_embed_params.py). The URL parameters, all optional:

* ``game=yahtzee``                      the ruleset id (for Yams: ``yams``, ``yams-boite``,
  ``yahtzee``); the setup screen then offers no ruleset choice. With ``options`` or
  ``players`` but no ``game``, the ruleset is the family's first one.
* ``options=single_prime,forced_scoring=no``   the options, comma-separated: ``ID`` alone
  means yes, ``ID=VALUE`` with yes/no (also oui/non, 1/0, true/false, on/off) or a
  choice's value. Unlisted options keep their default; the setup offers no option choice.
* ``players=Alice,Ordi:simple``         the players in order, ``NAME`` or ``NAME:SEAT``
  (seat ``human``, the default, or a computer level such as ``simple``), as in the CLI's
  ``--players`` (both use `pygames.core.parse_players`, and options
  `pygames.core.parse_option_items`). With players the game starts at once.
* ``dice=real``                         played *avec de vrais dés*: the people type in what
  their own dice show (the setup offers no choice of dice).
* ``id=blog-yams-1``                    the instance: letters, digits, ``-`` and ``_`` (64 at
  most). Frames with different ids keep separate saved games in the browser.

Anything wrong gives an `EmbedError` with a French message that the frame shows.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from pygames import FAMILIES, GameError
from pygames.core import parse_option_items, parse_players, quote
from pygames.messages import text

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_PARAM_LENGTH = 1000


class EmbedError(ValueError):
    """A URL parameter the embed page cannot use; the message is readable, in the page's language."""


@dataclass(frozen=True)
class EmbedConfig:
    instance: str | None = None  # the `id` parameter
    game: object | None = None  # a fixed ruleset (a pygames Game), or None: the reader picks
    options: dict | None = None  # fixed option values, or None: the reader picks
    players: tuple | None = None  # fixed players, or None: the setup screen asks
    dice: str | None = None  # "real": played with real dice (fixed), or None: the reader picks

    def store_key(self, base: str) -> str:
        """localStorage key of this instance: ``<base>:<id>``, or ``<base>:embed``."""
        return f"{base}:{self.instance or 'embed'}"

    @property
    def signature(self) -> str:
        """What the embedder fixed, to tell whether a saved game still fits the URL."""
        fixed = {
            "game": self.game.id if self.game else None,
            "options": self.options,
            "players": [p.to_json() for p in self.players] if self.players else None,
        }
        if self.dice:  # only when given: the signatures of games saved before stay the same
            fixed["dice"] = self.dice
        return json.dumps(fixed, sort_keys=True)


def parse_embed(query: str, family: str = "yams") -> EmbedConfig:
    """Read ``location.search`` (with or without the leading ``?``) of a game's embed page."""
    params = {}
    for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if len(value) > MAX_PARAM_LENGTH:
            raise EmbedError(text("site.embed.too_long", key=quote(key)))
        params[key] = value
    instance = params.get("id")
    if instance is not None and not ID_PATTERN.fullmatch(instance):
        raise EmbedError(text("site.embed.bad_id"))
    rulesets = {g.id: g for g in FAMILIES[family].games}
    game = None
    if "game" in params:
        game = rulesets.get(params["game"].strip())
        if game is None:
            raise EmbedError(text("site.embed.unknown_game", game=quote(params["game"]), choices=", ".join(rulesets)))
    if game is None and ("options" in params or "players" in params):
        game = next(iter(rulesets.values()))  # options and players belong to a ruleset
    options = None
    try:
        if "options" in params:
            options = game.resolve_options(parse_option_items(game, params["options"].split(",")))
        players = None
        if "players" in params:
            players = tuple(parse_players(params["players"]))
            game.check_players(players)
            if options is None:
                options = game.resolve_options({})
    except GameError as err:
        raise EmbedError(str(err)) from None
    dice = params.get("dice")
    if dice is not None and dice.strip() != "real":
        raise EmbedError(text("site.embed.bad_dice", dice=quote(dice)))
    return EmbedConfig(instance, game, options, players, "real" if dice is not None else None)
