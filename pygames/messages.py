"""The words: every sentence the core and the command line say, and the machinery that
turns a game's facts into text.

The rules state facts (`Outcome`, typed events, errors carrying a `Msg`: a message id and
its parameters); each game's ``messages.py`` registers its own catalogue here and renders
its facts; this module holds the core's and the CLI's entries, and:

* `Msg(id, **params)`: a message as data.  Parameters are plain values, other `Msg`
  (rendered in place), `Name` (a player's name, placed as data, never searched for in the
  text afterwards) or lists of names ("Léa, Paul et Zoé").
* `render(msg)` -> pieces ``[(text, is_name), …]``: the page puts each name in its own
  ``<bdi>``, a terminal isolates it (`isolated`), so a right-to-left name cannot turn the
  sentence around.  `text(msg)` is the plain string.
* A catalogue entry is a template with ``{param}`` fields, or a pair (singular, plural)
  chosen by the parameter ``n`` as French does (0 and 1 singular).  A field may name a
  filter after a bar: ``{name|de}`` gives "de Paul", "d'Ordinateur"; ``{points|n}`` gives
  "3\u202f000" (thousands apart, as the pages write numbers).

The catalogue is French, the reference language; nothing here chooses a language.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Mapping, Sequence

Pieces = list  # [(text, is_name), ...]


class Msg:
    """A message: its catalogue id and parameters (what errors and facts carry)."""

    __slots__ = ("id", "params")

    def __init__(self, id: str, /, **params: Any):
        self.id = id
        self.params = params

    def __eq__(self, other):
        return isinstance(other, Msg) and (self.id, self.params) == (other.id, other.params)

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Msg({self.id!r}{args})"

    def __str__(self):
        return text(self)


class Name(str):
    """A player's name inside a message: rendered as its own piece."""

    __slots__ = ()


class AnyOf(tuple):
    """Alternatives inside a message: "A ou B", "A, B ou C"."""

    __slots__ = ()


class Series(tuple):
    """Items listed with commas only: "A, B, C"."""

    __slots__ = ()


CATALOGUE: dict[str, Any] = {}


def register(entries: Mapping[str, Any]) -> None:
    """Add a game's entries (its ids are prefixed with its family or game id)."""
    for key, value in entries.items():
        if key in CATALOGUE and CATALOGUE[key] != value:
            raise ValueError(f"message id {key!r} registered twice")
        CATALOGUE[key] = value


_FIELD = re.compile(r"\{(\w+)(?:\|(\w+))?\}")


def _vowel(word: str) -> bool:
    first = word.lstrip("«\u00a0 ")[:1].lower()
    return bool(first) and first in "aeiouyàâäéèêëîïôöùûüœh"


def de(word: str) -> str:
    """"de Paul", "d'Ordinateur": the preposition, elided before a vowel or a mute h."""
    return ("d'" if _vowel(word) else "de ") + word


def thousands(text: str) -> str:
    """"3000" as "3\u202f000" (a narrow no-break space between the thousands); other
    text as it is."""
    sign, digits = ("−", text[1:]) if text[:1] in "-−" else ("", text)
    if not digits.isdigit() or len(digits) < 4:
        return text
    groups = []
    while digits:
        digits, groups = digits[:-3], [digits[-3:], *groups]
    return sign + "\u202f".join(groups)


FILTERS = {"de": de, "n": thousands}


def _join(parts: list[Pieces], last: str = " et ") -> Pieces:
    """'A', 'A et B', 'A, B et C' (pieces of each kept)."""
    out: Pieces = []
    for i, part in enumerate(parts):
        if i:
            out.append((last if i == len(parts) - 1 else ", ", False))
        out.extend(part)
    return out


def _value(value: Any) -> Pieces:
    if isinstance(value, Name):
        return [(str(value), True)]
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, AnyOf):
        return _join([_value(v) for v in value], " ou ")
    if isinstance(value, Series):
        return _join([_value(v) for v in value], ", ")
    if isinstance(value, (list, tuple)):
        return _join([_value(v) for v in value])
    if isinstance(value, bool):
        return [("oui" if value else "non", False)]
    return [(str(value), False)]


def template(msg_id: str, params: Mapping[str, Any]) -> str:
    entry = CATALOGUE.get(msg_id)
    if entry is None:
        return msg_id  # an id nobody registered shows as itself, never a crash
    if isinstance(entry, tuple):
        n = params.get("n", 0)
        return entry[1] if isinstance(n, (int, float)) and abs(n) > 1 else entry[0]
    return entry


def render(msg: Msg | str, /, **params: Any) -> Pieces:
    """A message (or an id and its parameters) as pieces, names marked."""
    if not isinstance(msg, Msg):
        msg = Msg(msg, **params)
    source = template(msg.id, msg.params)
    out: Pieces = []
    at = 0
    for m in _FIELD.finditer(source):
        if m.start() > at:
            out.append((source[at:m.start()], False))
        key, flt = m.group(1), m.group(2)
        if key not in msg.params:
            out.append((m.group(0), False))
        else:
            value = msg.params[key]
            pieces = _value(value)
            if flt:
                joined = "".join(t for t, _ in pieces)
                word = FILTERS[flt](joined)
                if word.endswith(joined):  # a word before the value ("d'", "de ")
                    if word != joined:
                        out.append((word[: len(word) - len(joined)], False))
                else:  # the value itself written otherwise (a number's thousands)
                    pieces = [(word, False)]
            out.extend(pieces)
        at = m.end()
    if at < len(source):
        out.append((source[at:], False))
    return _merged(out)


def _merged(pieces: Pieces) -> Pieces:
    out: Pieces = []
    for chunk, is_name in pieces:
        if not chunk:
            continue
        if out and not is_name and not out[-1][1]:
            out[-1] = (out[-1][0] + chunk, False)
        else:
            out.append((chunk, is_name))
    return out


def plain(pieces: Iterable[tuple[str, bool]]) -> str:
    return "".join(chunk for chunk, _ in pieces)


def text(msg: Msg | str, /, **params: Any) -> str:
    """A message as plain text."""
    return plain(render(msg, **params))


FSI, PDI = "\u2068", "\u2069"


#: The categories of the characters that steer a terminal's text rather than draw: controls,
#: formats (bidi overrides and isolates, zero-width marks) and line separators.
STEERING = ("Cc", "Cf", "Zl", "Zp")
#: What a name keeps of them: the joiners, which Persian spellings and emoji sequences need
#: and which move nothing.
JOINERS = "\u200c\u200d"


def terminal_name(name: str) -> str:
    """A name as a terminal shows it: its `STEERING` characters (a right-to-left override,
    an isolate that would close ours…) but the joiners as U+FFFD."""
    return "".join("\ufffd" if unicodedata.category(c) in STEERING and c not in JOINERS else c
                   for c in name)


def isolated(pieces: Iterable[tuple[str, bool]]) -> str:
    """Plain text with every name isolated (first strong isolate … pop) and shown as
    `terminal_name`, for a terminal: a name cannot turn the line around."""
    return "".join(f"{FSI}{terminal_name(chunk)}{PDI}" if is_name else chunk
                   for chunk, is_name in pieces)


def sentences(msgs: Sequence[Msg | None]) -> Pieces:
    """Several messages one after the other, a space between them."""
    out: Pieces = []
    for msg in msgs:
        if msg is None:
            continue
        if out:
            out.append((" ", False))
        out.extend(render(msg))
    return _merged(out)


def points_reason(outcome, names: Sequence[str], unit: str = "count.points") -> Msg:
    """The reason of a game won on points (an `Outcome`), every game's default."""
    top = outcome.winners
    points = Msg(unit, n=outcome.scores[top[0]])
    if len(names) == 1:
        return Msg("outcome.solo", points=points)
    if outcome.draw:
        return Msg("outcome.draw", players=[Name(names[p]) for p in top], points=points)
    return Msg("outcome.won", player=Name(names[top[0]]), points=points)


# --- the core's and the command line's words ------------------------------------------

#: How a yes or a no may be written in the CLI's -o and in embed URLs, in every language.
YES_WORDS = ("1", "true", "yes", "oui", "on")
NO_WORDS = ("0", "false", "no", "non", "off")

register({
    # players and seats
    "seat.human": "Humain",
    "seat.naive": "Ordinateur (débutant)",
    "seat.simple": "Ordinateur (facile)",
    "seat.medium": "Ordinateur (moyen)",
    "seat.expert": "Ordinateur (expert)",
    "player.default": "Joueur {n}",
    "player.computer": "Ordinateur",
    "count.players": ("{n} joueur", "{n} joueurs"),
    "count.points": ("{n} point", "{n} points"),
    "count.tokens": ("{n} jeton", "{n} jetons"),
    "players.range": "{lo} à {hi} joueurs",
    "players.range_solo": "{lo} à {hi} joueurs, seul contre la feuille",
    "players.exactly": "{n} joueurs",
    # errors: actions
    "error.action_no_notation": "Coup sans notation\u00a0: {kind}.",
    "error.action_unknown": "Coup inconnu\u00a0: «\u00a0{text}\u00a0».",
    "error.action_unreadable": "Coup illisible.",
    "error.action_unreadable_value": "Coup illisible\u00a0: «\u00a0{text}\u00a0».",
    "error.action_too_long": "Coup trop long\u00a0: «\u00a0{text}\u00a0».",
    "error.action_impossible": "Coup impossible maintenant\u00a0: «\u00a0{text}\u00a0».",
    "error.throw_count": ("Il faut le résultat de {n} dé.", "Il faut le résultat de {n} dés."),
    "error.not_a_face": "«\u00a0{text}\u00a0» n'est pas {what} (une face de 1 à 6).",
    "word.a_die": "un dé",
    "error.not_throw_time": "Ce n'est pas le moment de lancer les dés.",
    "error.game_over": "La partie est terminée.",
    "error.no_undo": "Il n'y a pas de décision à reprendre.",
    # errors: the dice cup
    "error.kept_unreadable": "Dés gardés illisibles.",
    "error.kept_places_unreadable": "Places des dés gardés illisibles.",
    "error.keep_syntax": "«\u00a0{text}\u00a0»\u00a0: écrire par exemple «\u00a0keep 3 3 5\u00a0».",
    "error.keep_places_count": "«\u00a0{text}\u00a0»\u00a0: autant de places que de dés gardés.",
    "error.keep_not_on_table": "On ne peut garder que des dés qui sont sur la table.",
    "error.throw_first": "Lancez d'abord les dés.",
    "error.keep_mismatch": "Les dés gardés ne correspondent pas aux dés sur la table.",
    "error.reroll_one": "Il faut relancer au moins un dé.",
    # errors: options, players, starts
    "error.option_bad_choice": "Option {option}\u00a0: valeur «\u00a0{value}\u00a0» invalide ({allowed}).",
    "error.option_yes_no": "Option {option}\u00a0: oui ou non attendu, pas «\u00a0{value}\u00a0».",
    "error.option_yes_no_text": ("Option {option}\u00a0: «\u00a0oui\u00a0» ou «\u00a0non\u00a0» attendu, "
                                 "pas «\u00a0{value}\u00a0»."),
    "error.option_unknown_for": "Option inconnue pour {game}\u00a0: «\u00a0{key}\u00a0» (options\u00a0: {known}).",
    "error.option_unknown": "Option inconnue pour {game}\u00a0: {keys}.",
    "word.none": "aucune",
    "word.quoted": "«\u00a0{text}\u00a0»",
    "word.nobody": "aucun",
    "word.list": "{items}",
    "error.players_text_long": "Liste de joueurs trop longue.",
    "error.player_no_name": "Joueur {n} sans nom (exemple\u00a0: Alice,Ordi:simple).",
    "error.player_n": "Joueur {n}\u00a0: {error}",
    "error.name_missing": "Chaque joueur a besoin d'un nom.",
    "error.name_long": "Nom trop long (au plus {max} caractères).",
    "error.name_control": "Le nom contient un caractère de contrôle.",
    "error.name_invalid": "Le nom contient un caractère invalide.",
    "error.name_invisible": "Le nom doit contenir au moins un caractère visible.",
    "error.seat_unreadable": "Place illisible\u00a0: «\u00a0{seat}\u00a0».",
    "error.players_exactly": "{game} se joue à {n} joueurs.",
    "error.players_range": "{game} se joue de {lo} à {hi} joueurs.",
    "error.seat_unknown": "Place inconnue pour {name}\u00a0: «\u00a0{seat}\u00a0» ({game}\u00a0: {seats}).",
    "error.no_start": "{game} ne peut pas commencer d'une position donnée.",
    "error.no_computer": "Pas de joueur ordinateur «\u00a0{seat}\u00a0» pour {game}.",
    "error.no_tables": "{game} n'a pas de tables.",
    "error.undo_setting": "Réglage d'annulation illisible\u00a0: oui ou non attendu.",
    "error.game_unknown": "Jeu inconnu\u00a0: «\u00a0{game}\u00a0» (jeux\u00a0: {known}).",
    # errors: records
    "record.unreadable_json": "Partie enregistrée illisible\u00a0: JSON invalide ou tronqué.",
    "record.not_object": "Partie enregistrée illisible\u00a0: un objet JSON est attendu.",
    "record.format_unknown": "Format de partie inconnu\u00a0: {format}.",
    "record.format_newer": ("Partie enregistrée par une version plus récente de pygames ({format})\u00a0: "
                            "celle-ci ne sait pas la lire."),
    "record.game_unknown": "Jeu inconnu\u00a0: {game}.",
    "record.players_unreadable": "Liste des joueurs illisible.",
    "record.options_unreadable": "Options illisibles.",
    "record.actions_unreadable": "Liste des coups illisible.",
    "record.undo_unreadable": "Réglage d'annulation illisible.",
    "record.invalid": "Partie enregistrée invalide\u00a0: {error}",
    "record.bad_action": "Coup n° {n} («\u00a0{text}\u00a0») invalide\u00a0: {error}",
    # errors: solved tables
    "tables.unreadable": "Tables de l'expert illisibles\u00a0: {why}.",
    "tables.why.bytes": "ce ne sont pas des octets",
    "tables.why.magic": "ce n'est pas une table de ce jeu",
    "tables.why.truncated": "en-tête tronqué",
    "tables.why.header": "en-tête illisible",
    "tables.why.format": "format inconnu",
    "tables.why.states": "nombre d'états invalide",
    "tables.why.digest": "empreinte absente",
    "tables.why.corrupt": "données corrompues",
    "tables.why.length": "données de mauvaise longueur",
    "tables.why.hash": "données corrompues (empreinte)",
    "tables.why.fields": "en-tête incomplet ou incohérent",
    "tables.why.values": "valeurs hors de [0, 1]",
    "tables.stale": "Les tables «\u00a0{name}\u00a0» ne correspondent plus aux règles\u00a0: il faut les "
                    "reconstruire ({command}).",
    "tables.missing": "Tables de l'expert introuvables\u00a0: {path} ({command}).",
    "tables.wrong_rules": "Ces tables sont celles de «\u00a0{name}\u00a0», pas de cette partie.",
    "tables.none_for_rules": "Pas de tables pour ces règles.",
    # outcomes
    "outcome.solo": "Partie terminée\u00a0: {points}.",
    "outcome.draw": "Égalité entre {players} ({points}).",
    "outcome.won": "{player} gagne avec {points}.",
    # the end screen
    "end.draw": "Égalité\u00a0: {players}",
    "end.wins": "{player} gagne\u202f!",
    # the command line
    "cli.description": "Jeux de dés.",
    "cli.list": "les jeux, leurs règles et leurs options",
    "cli.replay": "rejoue une partie enregistrée (JSON)",
    "cli.play": "jouer dans le terminal",
    "cli.simulate": "parties jouées par l'ordinateur\u00a0: scores, victoires",
    "cli.solve": "stratégie optimale calculée (numpy)",
    "cli.players_help": "ex. «\u00a0Alice,Bob:simple\u00a0»",
    "cli.start_help": "position de départ (JSON), si le jeu en accepte",
    "cli.seat_help": "seul contre la feuille\u00a0: le niveau",
    "cli.all_help": "toutes les règles et options",
    "cli.write_help": "écrire les tables (ex. web/tables/yams)",
    "cli.target_help": "(Dé Landais) le but, 3000 par défaut",
    "cli.floor_help": "(Dé Landais) plancher des scores",
    "cli.tables_help": "le dossier des tables de l'expert (par défaut\u00a0: web/tables/)",
    "cli.option_metavar": "NOM=VALEUR",
    "cli.folder_metavar": "DOSSIER",
    "cli.list_family": "# {title}, {players} — {description}",
    "cli.list_game": "{id}\t{title}, {players}",
    "cli.yes_no": "oui|non",
    "cli.computer": "    ordinateur\u00a0: {seats}",
    "cli.commands": "    commandes\u00a0: {commands}",
    "cli.prompt": "{player} > ",
    "cli.bot_move": "{player}\u00a0: {action}",
    "cli.legal": "Coups possibles\u00a0: {actions}",
    "cli.error_hint": "{error}  (tapez\u202f? pour la liste des coups)",
    "cli.interrupted": "Partie interrompue.",
    "cli.error": "erreur\u00a0: {error}",
    "cli.keyboard_interrupt": "Interrompu.",
    "cli.help_help": "afficher cette aide",
    "cli.command_metavar": "COMMANDE",
    "cli.game_metavar": "JEU",
    "cli.file_metavar": "FICHIER",
    "cli.die_metavar": "DÉ",
    "cli.usage_prefix": "utilisation\u00a0: ",
    "cli.positionals": "arguments",
    "cli.usage": "{error} (aide\u00a0: {prog} --help)",
    "cli.usage.required": "il manque {args}",
    "cli.usage.unrecognized": "arguments inattendus\u00a0: {args}",
    "cli.usage.argument": "{arg}\u00a0: {error}",
    "cli.usage.invalid_int": "nombre entier attendu, pas {value}",
    "cli.usage.invalid_value": "valeur invalide\u00a0: {value}",
    "cli.usage.invalid_choice": "choix inconnu\u00a0: {value} (choix\u00a0: {choices})",
    "cli.usage.one_value": "une valeur attendue",
    "cli.usage.at_most_one": "au plus une valeur attendue",
    "cli.usage.at_least_one": "au moins une valeur attendue",
    "cli.usage.values": "{n} valeurs attendues",
    "cli.usage.ambiguous": "option ambiguë\u00a0: {option} (peut-être {matches})",
    "cli.usage.explicit": "l'option ne prend pas de valeur\u00a0: {value}",
    "cli.usage.not_allowed": "incompatible avec {arg}",
    "cli.usage.one_of": "il faut l'un de {args}",
    "cli.option_no_name": "Option sans nom\u00a0: «\u00a0{item}\u00a0» (écrire -o NOM=VALEUR).",
    "cli.players_empty": "--players est vide\u00a0: donner les joueurs (par exemple «\u00a0Alice,Ordi:simple\u00a0»).",
    "cli.too_many_games": "Au plus {max|n} parties (--games).",
    "cli.progress": "{command}\u00a0: {done|n} parties sur {total|n} ({percent} %), {seconds} s",
    "cli.why.json": "JSON invalide ou tronqué",
    "cli.why.utf8": "le fichier n'est pas en UTF-8",
    "cli.why.deep": "JSON trop imbriqué",
    "cli.os.not_found": "fichier ou dossier introuvable",
    "cli.os.denied": "permission refusée",
    "cli.os.read_only": "système de fichiers en lecture seule",
    "cli.os.full": "plus de place sur le disque",
    "cli.os.exists": "existe déjà et n'est pas un dossier",
    "cli.os.not_dir": "un élément du chemin n'est pas un dossier",
    "cli.os.is_dir": "c'est un dossier",
    "cli.os.too_long": "nom trop long",
    "cli.os.other": "erreur système n° {n}",
    "cli.bad_input": "erreur\u00a0: entrée invalide ({error})",
    "cli.cannot_read": "Impossible de lire {path}\u00a0: {error}",
    "cli.tables_not_found": "Tables introuvables\u00a0: {path}.",
    "cli.cannot_write": "Impossible d'écrire {path}\u00a0: {error}",
    "cli.two_games": "Il faut au moins 2 parties.",
    "cli.several_players": "{game} se joue à plusieurs\u00a0: donner --players (par exemple "
                           "«\u00a0A:expert,B:simple\u00a0»).",
    "cli.all_computer": "simulate\u00a0: toutes les places doivent être tenues par l'ordinateur.",
    "cli.solve_which": "Donner un jeu ({games}) ou --all.",
    "cli.no_solver": "«\u00a0solve\u00a0»\u00a0: pas de solveur pour {game}.",
    "cli.needs_numpy": "Le solveur a besoin de numpy\u00a0: pip install -e '.[solve]'.",
    "cli.exactly_dice": "Il faut exactement {n} dés (par exemple\u00a0: {example}).",
})
