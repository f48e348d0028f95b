"""Command line: `python -m pygames list | score | replay | play` (see README)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence, TextIO

from . import GAMES, DiceSampler, GameError, Match, Player, find_game, load_match
from .bots import bot_for
from .dice import counts
from .yams import YamsGame, YamsState


class UsageError(GameError):
    pass


def _option_value(text: str):
    low = text.lower()
    if low in ("1", "true", "yes", "oui", "on"):
        return True
    if low in ("0", "false", "no", "non", "off"):
        return False
    return int(text) if text.lstrip("-").isdigit() else text


def parse_options(pairs: Sequence[str]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"Option « {pair} » : écrire NOM=VALEUR.")
        options[key] = _option_value(value)
    return options


def parse_players(text: str) -> list[Player]:
    """'Alice,Bob:simple' -> two players, Bob played by the computer."""
    players = []
    for item in text.split(","):
        name, _, seat = item.partition(":")
        players.append(Player(name.strip(), seat.strip() or "human"))
    return players


def cmd_list(args, out: TextIO) -> int:
    for game in GAMES.values():
        out.write(f"{game.id}\t{game.title} ({game.min_players}–{game.max_players} joueurs)\n")
        for opt in game.options:
            kind = "|".join(map(str, opt.choices)) if opt.choices else "oui|non"
            out.write(f"    {opt.id}={opt.default!s:<6} {opt.label} [{kind}]\n")
    return 0


def cmd_score(args, out: TextIO) -> int:
    game = find_game(args.ruleset)
    if not isinstance(game, YamsGame):
        raise UsageError(f"« score » ne vaut que pour les feuilles de Yams, pas {game.id}.")
    if len(args.dice) != 5:
        raise UsageError("Il faut exactement 5 dés.")
    dice = game.parse_action("dice " + " ".join(args.dice)).faces
    rules = game.rules(game.resolve_options(parse_options(args.option)))
    box = next((b for b in rules.boxes if b.id == args.box), None)
    if box is None:
        ids = " ".join(b.id for b in rules.boxes)
        raise UsageError(f"Case inconnue dans {game.id} : « {args.box} » (cases : {ids}).")
    out.write(f"{box.score(counts(dice), sum(dice), rules)}\n")
    return 0


def result_json(match: Match) -> dict:
    state = match.state
    return {
        "game": match.game.id,
        "finished": state.is_terminal(),
        "scores": [{"name": p.name, "score": s} for p, s in zip(match.players, state.scores())],
        "ranking": [[match.players[i].name for i in place] for place in state.ranking()],
    }


def cmd_replay(args, out: TextIO) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UsageError(f"Impossible de lire {args.file} : {err}") from None
    match = load_match(record)
    out.write(json.dumps(result_json(match), ensure_ascii=False) + "\n")
    return 0


def render_yams(match: Match) -> str:
    state = match.state
    assert isinstance(state, YamsState)
    lines = []
    names = [p.name[:10] for p in match.players]
    lines.append(f"{'':16}" + "".join(f"{n:>11}" for n in names))
    potential = state.potential()
    sheets = [state.sheet(p) for p in range(len(names))]
    for box in state.rules.boxes:
        row = f"{box.label[:15]:16}"
        for p, sheet in enumerate(sheets):
            value = sheet.boxes[box.id]
            if value is None and p == state.player and box.id in potential:
                row += f"{'(' + str(potential[box.id]) + ')':>11}"
            else:
                row += f"{'' if value is None else value:>11}"
        lines.append(f"{row}   {box.id}")
        if box.id == "sixes":
            lines.append(f"{'Prime (≥63)':16}" + "".join(f"{s.bonus:>11}" for s in sheets))
    if state.rules.primes:
        lines.append(f"{'Primes Yam':16}" + "".join(f"{s.primes:>11}" for s in sheets))
    lines.append(f"{'TOTAL':16}" + "".join(f"{s.total:>11}" for s in sheets))
    return "\n".join(lines)


def cmd_play(args, out: TextIO, inp: TextIO = sys.stdin) -> int:
    game = find_game(args.game)
    players = parse_players(args.players)
    match = Match(game, players, parse_options(args.option), DiceSampler(args.seed))
    bots = {i: bot_for(game, p.seat) for i, p in enumerate(players) if p.is_computer}
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance():
            match.throw()
            continue
        who = state.current_player()
        if who in bots:
            action = bots[who](state)
            out.write(f"{players[who].name} : {action}\n")
            match.apply(action)
            continue
        if isinstance(state, YamsState) and state.dice:
            out.write("\n" + render_yams(match) + "\n")
            out.write(f"Dés : {' '.join(map(str, state.dice))}  (lancer {state.rolls}/3)\n")
        out.write(f"{players[who].name} > ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\nPartie interrompue.\n")
            return 1
        line = line.strip()
        if line in ("?", "aide", "help"):
            out.write("Coups possibles : " + ", ".join(map(str, state.legal_actions())) + "\n")
            continue
        try:
            match.apply(line)
        except GameError as err:
            out.write(f"{err}  (tapez ? pour la liste des coups)\n")
    out.write("\n" + render_yams(match) + "\n")
    out.write(json.dumps(result_json(match), ensure_ascii=False) + "\n")
    return 0

# --- solve and simulate (the Yams solver and its expert) -----------------------------


def cmd_solve(args, out: TextIO) -> int:
    """Solve a ruleset (or every one) exactly; optionally write the expert's tables."""
    import os
    import time

    from .solver import all_configs, build_table

    if args.all:
        configs = all_configs()
    else:
        if not args.ruleset:
            raise UsageError("Donner un jeu (yams, yams-boite, yahtzee) ou --all.")
        game = find_game(args.ruleset)
        if not isinstance(game, YamsGame):
            raise UsageError(f"« solve » ne vaut que pour les feuilles de Yams, pas {game.id}.")
        configs = [(game, parse_options(args.option))]
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UsageError("Le solveur a besoin de numpy : pip install -e '.[solve]'.") from None
    for game, options in configs:
        start = time.perf_counter()
        data, info = build_table(game, options, evaluate_policy=args.write is not None)
        seconds = time.perf_counter() - start
        out.write(f"{info['name']}: {info['expected']:.4f} (solved in {info['seconds']:.1f} s)\n")
        if args.write is not None:
            os.makedirs(args.write, exist_ok=True)
            path = os.path.join(args.write, info["name"] + ".bin")
            with open(path, "wb") as f:
                f.write(data)
            loss = info["expected"] - info["policy_expected"]
            out.write(f"    {path}: {len(data):,} bytes; policy from the table "
                      f"{info['policy_expected']:.6f} (loses {loss:.2e}); {seconds:.1f} s in all\n")
        out.flush()
    return 0


def _simulate_chunk(job) -> list[int]:
    game_id, options, seat, seed, first, count, tables_dir = job
    from .core import play_out

    game = find_game(game_id)
    tables = None
    if seat == "expert":
        from .expert import DirectoryTables

        tables = DirectoryTables(tables_dir) if tables_dir else DirectoryTables()
    bot = bot_for(game, seat, tables) if seat == "expert" else bot_for(game, seat)
    scores = []
    for i in range(first, first + count):
        match = Match(game, [Player("Solo", seat)], options, DiceSampler(f"{seed}/{i}"))
        scores.append(play_out(match, bot).state.scores()[0])
    return scores


def cmd_simulate(args, out: TextIO) -> int:
    """Play solitaire games with a computer seat; mean score and its standard error."""
    import math
    import time

    game = find_game(args.ruleset)
    if not isinstance(game, YamsGame):
        raise UsageError(f"« simulate » ne vaut que pour les feuilles de Yams, pas {game.id}.")
    options = game.resolve_options(parse_options(args.option))
    if args.games < 2:
        raise UsageError("Il faut au moins 2 parties.")
    jobs = max(1, args.jobs)
    size = -(-args.games // jobs)
    work = [(game.id, options, args.seat, args.seed, lo, min(size, args.games - lo), args.tables)
            for lo in range(0, args.games, size)]
    start = time.perf_counter()
    if jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(jobs) as pool:
            scores = [s for chunk in pool.map(_simulate_chunk, work) for s in chunk]
    else:
        scores = [s for job in work for s in _simulate_chunk(job)]
    seconds = time.perf_counter() - start
    n = len(scores)
    mean = sum(scores) / n
    stderr = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n)
    out.write(f"{game.id} {args.seat}: {n} games, mean {mean:.2f} ± {stderr:.2f} "
              f"(standard error), {seconds:.1f} s\n")
    if args.seat == "expert":
        from .expert import DirectoryTables

        source = DirectoryTables(args.tables) if args.tables else DirectoryTables()
        expected = source.tables_for(game.rules(options)).expected
        out.write(f"    solved value {expected:.4f}: {(mean - expected) / stderr:+.2f} standard errors\n")
    return 0


def _add_solver_commands(sub) -> None:
    p = sub.add_parser("solve", help="stratégie optimale d'une feuille de Yams (numpy)")
    p.add_argument("ruleset", nargs="?")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    p.add_argument("--all", action="store_true", help="toutes les règles et options")
    p.add_argument("--write", metavar="DOSSIER", help="écrire les tables (ex. web/tables)")
    p = sub.add_parser("simulate", help="parties en solitaire jouées par l'ordinateur")
    p.add_argument("ruleset")
    p.add_argument("--seat", default="expert")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", default="simulate")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--tables", default=None, metavar="DOSSIER")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")


SOLVER_COMMANDS = {"solve": cmd_solve, "simulate": cmd_simulate}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pygames", description="Jeux de dés.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="les jeux, leurs règles et leurs options")
    p = sub.add_parser("score", help="ce que vaut une case pour cinq dés")
    p.add_argument("ruleset")
    p.add_argument("box")
    p.add_argument("dice", nargs="*")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    p = sub.add_parser("replay", help="rejoue une partie enregistrée (JSON)")
    p.add_argument("file")
    p = sub.add_parser("play", help="jouer dans le terminal")
    p.add_argument("game")
    p.add_argument("--players", default="Joueur", help="ex. « Alice,Bob:simple »")
    p.add_argument("--seed", default=None)
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    _add_solver_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = build_parser().parse_args(argv)
    commands = {"list": cmd_list, "score": cmd_score, "replay": cmd_replay, "play": cmd_play,
                **SOLVER_COMMANDS}
    try:
        return commands[args.command](args, out)
    except GameError as err:
        sys.stderr.write(f"erreur : {err}\n")
        return 2
