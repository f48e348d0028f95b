"""Command line: `python -m pygames list | play | replay | simulate | solve`, and the
commands each game declares in its family (`score`, `rank421`, …; see README).

Every game is served by the same code through the registry; a family's own commands
live in its `cli_module`, imported only when one of them runs (so `list` imports no
solver and no numpy).  Bad input of any kind ends with exit 2 and one readable line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from importlib import import_module
from typing import Sequence, TextIO

from . import FAMILIES, GAMES, DiceSampler, GameError, Match, family_of, find_game, load_match
from .bots import bot_for
from .core import MAX_QUOTE, parse_option_items, parse_players, play_out, quote


class UsageError(GameError):
    pass


def parse_options(game, pairs: Sequence[str]) -> dict:
    """`-o NAME=VALUE` (or `-o NAME` for yes), read by the game's own option types."""
    return game.resolve_options(parse_option_items(game, pairs))


def cmd_list(args, out: TextIO) -> int:
    for family in FAMILIES.values():
        out.write(f"# {family.title} ({family.players_text()}) — {family.description}\n")
        for game in family.games:
            out.write(f"{game.id}\t{game.title} ({game.min_players}–{game.max_players} joueurs)\n")
            for opt in game.options:
                kind = "|".join(map(str, opt.choices)) if opt.choices else "oui|non"
                out.write(f"    {opt.id}={opt.default!s:<6} {opt.label} [{kind}]\n")
            seats = ", ".join(s for s in game.seats if s != "human")
            out.write(f"    ordinateur : {seats or 'aucun'}\n")
        if family.commands:
            out.write("    commandes : " + ", ".join(family.commands) + "\n")
    return 0


def result_json(match: Match) -> dict:
    state = match.state
    outcome = match.outcome()
    result = {
        "game": match.game.id,
        "finished": state.is_terminal(),
        "scores": [{"name": p.name, "score": s} for p, s in zip(match.players, state.scores())],
        "ranking": [[match.players[i].name for i in place] for place in state.ranking()],
    }
    if outcome is not None:
        result["outcome"] = outcome.to_json(match.names)
    return result


def _read_json_file(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(50_000_000)
        return json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        raise UsageError(f"Impossible de lire {quote(path)} : {quote(str(err))}") from None


def cmd_replay(args, out: TextIO) -> int:
    match = load_match(_read_json_file(args.file))
    out.write(json.dumps(result_json(match), ensure_ascii=True) + "\n")
    return 0


def _tables(game, options, tables_dir):
    """The expert's tables for `--tables DIR` (None: the game's default)."""
    if tables_dir is None:
        return None
    import os

    name = game.tables_name(options)
    if name is None:
        return None
    path = os.path.join(tables_dir, os.path.basename(name) + ".bin")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        raise UsageError(f"Tables introuvables : {quote(path)}.") from None
    return game.load_tables(data)


def make_bots(game, options, players, tables_dir=None) -> dict:
    tables = None
    if any(p.seat == "expert" for p in players):
        tables = _tables(game, options, tables_dir)
    return {i: bot_for(game, p.seat, tables) for i, p in enumerate(players) if p.is_computer}


def cmd_play(args, out: TextIO, inp: TextIO = sys.stdin) -> int:
    game = find_game(args.game)
    default = "Joueur" if game.min_players <= 1 else "Joueur,Ordinateur:simple"
    players = parse_players(args.players or default)
    options = parse_options(game, args.option)
    start = json.loads(args.start) if args.start else None
    match = Match(game, players, options, DiceSampler(args.seed), start)
    bots = make_bots(game, match.options, players)
    names = match.names
    shown = None
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
        if shown is not state:
            out.write("\n" + game.render_text(state, names) + "\n")
            shown = state
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
    out.write("\n" + game.render_text(match.state, names) + "\n")
    outcome = match.outcome()
    if outcome is not None:
        out.write(outcome.reason + "\n")
    out.write(json.dumps(result_json(match), ensure_ascii=False) + "\n")
    return 0


# --- simulate: many seeded games between computer seats --------------------------------


def _simulate_chunk(job) -> list[tuple[list[int], list[int], list[int], bool]]:
    """Play games `first`..`first+count`; the seating turns by one each game so that
    every player starts equally often. Returns, per game, each original player's
    (score, won, lost) and whether it was a draw."""
    game_id, options, seat_text, seed, first, count, tables_dir = job
    game = find_game(game_id)
    players = parse_players(seat_text)
    bots = make_bots(game, options, players, tables_dir)
    n = len(players)
    results = []
    for i in range(first, first + count):
        order = [(i + k) % n for k in range(n)]  # order[seat] = original player
        seated = [players[j] for j in order]
        match = Match(game, seated, options, DiceSampler(f"{seed}/{i}"))
        seat_bots = {s: bots[j] for s, j in enumerate(order)}
        state = play_out(match, lambda st: seat_bots[st.current_player()](st)).state
        outcome = state.outcome(match.names)
        scores, won, lost = [0] * n, [0] * n, [0] * n
        for s, j in enumerate(order):
            scores[j] = state.scores()[s]
            won[j] = int(s in outcome.winners and not outcome.draw)
            lost[j] = int(s in outcome.losers)
        results.append((scores, won, lost, outcome.draw))
    return results


def _mean_se(values) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def cmd_simulate(args, out: TextIO) -> int:
    """Seeded games between computer seats: mean scores, win, loss and draw rates."""
    import time

    game = find_game(args.game)
    options = parse_options(game, args.option)
    if args.games < 2:
        raise UsageError("Il faut au moins 2 parties.")
    if args.players:
        seat_text = args.players
    elif game.min_players <= 1:
        seat_text = f"Solo:{args.seat}"
    else:
        raise UsageError(f"{game.title} se joue à plusieurs : donner --players "
                         "(par exemple « A:expert,B:simple »).")
    players = parse_players(seat_text)
    game.check_players(players)
    if not all(p.is_computer for p in players):
        raise UsageError("simulate : toutes les places doivent être tenues par l'ordinateur.")
    make_bots(game, options, players, args.tables)  # fail early on a bad seat or table
    jobs = max(1, min(args.jobs, 64))
    size = -(-args.games // jobs)
    work = [(game.id, options, seat_text, args.seed, lo, min(size, args.games - lo), args.tables)
            for lo in range(0, args.games, size)]
    start = time.perf_counter()
    if jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(jobs) as pool:
            results = [r for chunk in pool.map(_simulate_chunk, work) for r in chunk]
    else:
        results = [r for job in work for r in _simulate_chunk(job)]
    seconds = time.perf_counter() - start
    n = len(results)
    if len(players) == 1:
        mean, stderr = _mean_se([r[0][0] for r in results])
        out.write(f"{game.id} {players[0].seat}: {n} games, mean {mean:.2f} ± {stderr:.2f} "
                  f"(standard error), {seconds:.1f} s\n")
    else:
        draws = sum(r[3] for r in results)
        out.write(f"{game.id}: {n} games, {seconds:.1f} s; draws {draws / n:.4f}\n")
        for j, p in enumerate(players):
            score, score_se = _mean_se([r[0][j] for r in results])
            win, win_se = _mean_se([r[1][j] for r in results])
            loss, loss_se = _mean_se([r[2][j] for r in results])
            out.write(f"    {p.name} ({p.seat}): wins {win:.4f} ± {win_se:.4f}, "
                      f"losses {loss:.4f} ± {loss_se:.4f}, mean score {score:.2f} ± {score_se:.2f}\n")
    family = family_of(game)
    if family.solver:
        report = getattr(import_module(family.solver), "simulate_report", None)
        if report:
            report(game, options, players, results, args, out)
    return 0


def cmd_solve(args, out: TextIO) -> int:
    """A family's exact solver (its `solver` module); the game id picks the family."""
    if args.all:
        families = [f for f in FAMILIES.values() if f.solver]
        for family in families:
            import_module(family.solver).solve(None, {}, args, out)
        return 0
    if not args.game:
        raise UsageError("Donner un jeu (" + ", ".join(
            g.id for g in GAMES.values() if family_of(g).solver) + ") ou --all.")
    game = find_game(args.game)
    family = family_of(game)
    if not family.solver:
        raise UsageError(f"« solve » : pas de solveur pour {game.title}.")
    return import_module(family.solver).solve(game, parse_options(game, args.option), args, out)


def _family_commands() -> dict[str, tuple]:
    return {name: (family, text) for family in FAMILIES.values() for name, text in family.commands.items()}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pygames", description="Jeux de dés.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="les jeux, leurs règles et leurs options")
    p = sub.add_parser("replay", help="rejoue une partie enregistrée (JSON)")
    p.add_argument("file")
    p = sub.add_parser("play", help="jouer dans le terminal")
    p.add_argument("game")
    p.add_argument("--players", default=None, help="ex. « Alice,Bob:simple »")
    p.add_argument("--seed", default=None)
    p.add_argument("--start", default=None, help="position de départ (JSON), si le jeu en accepte")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    p = sub.add_parser("simulate", help="parties jouées par l'ordinateur : scores, victoires")
    p.add_argument("game")
    p.add_argument("--seat", default="expert", help="seul contre la feuille : le niveau")
    p.add_argument("--players", default=None, help="ex. « A:expert,B:simple »")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", default="simulate")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--tables", default=None, metavar="DOSSIER")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    p = sub.add_parser("solve", help="stratégie optimale calculée (numpy)")
    p.add_argument("game", nargs="?")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    p.add_argument("--all", action="store_true", help="toutes les règles et options")
    p.add_argument("--write", metavar="DOSSIER", help="écrire les tables (ex. web/tables/yams)")
    p.add_argument("--target", type=int, default=None, help="(Dé Landais) le but, 3000 par défaut")
    p.add_argument("--floor", type=int, default=None, help="(Dé Landais) plancher des scores")
    for name, (family, text) in _family_commands().items():
        p = sub.add_parser(name, help=text)
        if name == command:  # only the command that runs imports its module
            import_module(family.cli_module).add_arguments(name, p)
        else:
            p.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):  # an argument with a lone surrogate (bad bytes)
        try:                                   # is echoed, never a UnicodeEncodeError
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass
    command = next((a for a in argv if not a.startswith("-")), None)
    try:
        args = build_parser(command).parse_args(argv)
    except SystemExit as exit_:
        return 2 if exit_.code else 0
    commands = {"list": cmd_list, "replay": cmd_replay, "play": cmd_play,
                "simulate": cmd_simulate, "solve": cmd_solve}
    try:
        if args.command in commands:
            return commands[args.command](args, out)
        family, _ = _family_commands()[args.command]
        return import_module(family.cli_module).run(args.command, args, out)
    except GameError as err:
        sys.stderr.write(f"erreur : {_one_line(str(err))}\n")
        return 2
    except (ValueError, RecursionError, OverflowError, UnicodeError) as err:
        sys.stderr.write(f"erreur : entrée invalide ({_one_line(str(err))})\n")
        return 2


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    limit = 4 * MAX_QUOTE + 200
    return text if len(text) <= limit else text[: limit - 1] + "…"
