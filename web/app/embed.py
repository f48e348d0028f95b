"""The embed form of a game page (``embed-yams.html``): what the embedder fixed in the URL.

Pure Python (no browser import), so the parsing is unit-tested with plain CPython
(tests/test_embed_params.py). The URL parameters, all optional:

* ``game=yahtzee``                      the ruleset id (``yams``, ``yams-boite``, ``yahtzee``);
  the setup screen then offers no ruleset choice. With ``options`` or ``players`` but no
  ``game``, the ruleset is the family's first one (``yams``).
* ``options=single_prime,forced_scoring=no``   the options, comma-separated: ``ID`` alone
  means yes, ``ID=VALUE`` with yes/no (also oui/non, 1/0, true/false, on/off) or a
  choice's value. Unlisted options keep their default; the setup offers no option choice.
* ``players=Alice,Ordi:simple``         the players in order, ``NAME`` or ``NAME:SEAT``
  (seat ``human``, the default, or a computer level such as ``simple``), as in the CLI's
  ``--players``. With players the game starts at once, without a setup screen.
* ``id=blog-yams-1``                    the instance: letters, digits, ``-`` and ``_`` (64 at
  most). Frames with different ids keep separate saved games in the browser.

Anything wrong gives an `EmbedError` with a French message that the frame shows.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from pygames import GAMES, GameError, Player

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
YES = ("1", "true", "yes", "oui", "on")
NO = ("0", "false", "no", "non", "off")
MAX_PARAM_LENGTH = 1000


class EmbedError(ValueError):
    """A URL parameter the embed page cannot use; the message is French and readable."""


@dataclass(frozen=True)
class EmbedConfig:
    instance: str | None = None  # the `id` parameter
    game: object | None = None  # a fixed ruleset (a pygames Game), or None: the reader picks
    options: dict | None = None  # fixed option values, or None: the reader picks
    players: tuple | None = None  # fixed players, or None: the setup screen asks

    def store_key(self, base: str) -> str:
        """localStorage key of this instance: ``<base>:<id>``, or ``<base>:embed``."""
        return f"{base}:{self.instance or 'embed'}"

    @property
    def signature(self) -> str:
        """What the embedder fixed, to tell whether a saved game still fits the URL."""
        return json.dumps(
            {
                "game": self.game.id if self.game else None,
                "options": self.options,
                "players": [p.to_json() for p in self.players] if self.players else None,
            },
            sort_keys=True,
        )


def parse_embed(query: str, family: str = "yams", seats=("human", "simple", "expert")) -> EmbedConfig:
    """Read ``location.search`` (with or without the leading ``?``) of an embed page;
    *seats* are the seats the page can play (``human`` and its computer levels)."""
    params = {}
    for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if len(value) > MAX_PARAM_LENGTH:
            raise EmbedError(f"Le paramètre « {key[:30]} » est trop long.")
        params[key] = value
    instance = params.get("id")
    if instance is not None and not ID_PATTERN.fullmatch(instance):
        raise EmbedError(
            "Le paramètre « id » ne peut contenir que des lettres sans accent, des chiffres, "
            "« - » et « _ » (64 au plus)."
        )
    game = None
    rulesets = {g.id: g for g in GAMES.values() if g.family == family}
    if "game" in params:
        game = rulesets.get(params["game"].strip())
        if game is None:
            raise EmbedError(
                f"Règle inconnue : « {params['game'][:40]} » (au choix : {', '.join(rulesets)})."
            )
    if game is None and ("options" in params or "players" in params):
        game = next(iter(rulesets.values()))  # options and players belong to a ruleset
    options = None
    if "options" in params:
        options = parse_options(game, params["options"])
    players = None
    if "players" in params:
        players = parse_players(game, params["players"], seats)
        if options is None:
            options = game.resolve_options({})
    return EmbedConfig(instance, game, options, players)


def parse_options(game, text: str) -> dict:
    known = {o.id: o for o in game.options}
    values = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        opt = known.get(key)
        if opt is None:
            names = ", ".join(known) or "aucune"
            raise EmbedError(f"Option inconnue pour {game.title} : « {key[:40]} » (options : {names}).")
        if opt.choices:
            match = [c for c in opt.choices if str(c) == raw]
            if not match:
                allowed = ", ".join(map(str, opt.choices))
                raise EmbedError(f"Option {key} : valeur « {raw[:20]} » invalide ({allowed}).")
            values[key] = match[0]
        elif not sep or raw.lower() in YES:
            values[key] = True
        elif raw.lower() in NO:
            values[key] = False
        else:
            raise EmbedError(f"Option {key} : « oui » ou « non » attendu, pas « {raw[:20]} ».")
    try:
        return game.resolve_options(values)
    except GameError as err:
        raise EmbedError(str(err)) from None


def parse_players(game, text: str, seats=("human", "simple", "expert")) -> tuple:
    players = []
    for n, item in enumerate(text.split(","), 1):
        name, _, seat = item.partition(":")
        name, seat = name.strip(), seat.strip().lower() or "human"
        if not name:
            raise EmbedError(f"Joueur {n} sans nom dans « players » (exemple : players=Alice,Ordi:simple).")
        if seat not in seats:
            raise EmbedError(f"Joueur {n} ({name[:40]}) : place « {seat[:20]} » inconnue ({', '.join(seats)}).")
        try:
            players.append(Player(name, seat))
        except GameError as err:
            raise EmbedError(f"Joueur {n} : {err}") from None
    try:
        game.check_players(players)
    except GameError as err:
        raise EmbedError(str(err)) from None
    return tuple(players)
