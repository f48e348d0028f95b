"""Command line: `python -m pygames list | play | replay | simulate | solve`, and the
commands each game declares in its family (`score`, `rank421`, …; see README).

Every game is served by the same code through the registry; a family's own commands
live in its `cli` module, imported only when one of them runs (so `list` imports no
solver and no numpy).  Bad input of any kind, argparse's usage errors among it, ends
with exit 2 and one readable French line; Ctrl-C with one line and exit 130.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import errno
import functools
import json
import math
import os
import re
import signal
import sys
import tempfile
import time
import unicodedata
from importlib import import_module
from typing import Callable, Sequence, TextIO

from . import FAMILIES, GAMES, DiceSampler, GameError, Match, family_of, find_game, load_match
from .core import (
    MAX_QUOTE,
    bot_for,
    default_name,
    parse_option_items,
    parse_players,
    play_out,
    players_text,
    quote,
)
from .messages import STEERING, Msg, Name, isolated, render, terminal_name, text


class UsageError(GameError):
    pass


def parse_options(game, pairs: Sequence[str]) -> dict:
    """`-o NAME=VALUE` (or `-o NAME` for yes), read by the game's own option types; an
    option with no name (`-o =`, `-o ""`) is refused."""
    for item in pairs:
        if not item.partition("=")[0].strip():
            raise UsageError("cli.option_no_name", item=quote(item))
    return game.resolve_options(parse_option_items(game, pairs))


def players_given(args) -> str | None:
    """`--players` as given (None if not), refused when it is empty."""
    if args.players is not None and not args.players.strip():
        raise UsageError("cli.players_empty")
    return args.players


#: Why a file could not be read or written, by errno (else its number).
OS_REASONS = {
    errno.ENOENT: "not_found", errno.EACCES: "denied", errno.EPERM: "denied",
    errno.EROFS: "read_only", errno.ENOSPC: "full", errno.EEXIST: "exists",
    errno.ENOTDIR: "not_dir", errno.EISDIR: "is_dir", errno.ENAMETOOLONG: "too_long",
}


def os_reason(err: OSError) -> Msg:
    why = OS_REASONS.get(err.errno)
    return Msg(f"cli.os.{why}") if why else Msg("cli.os.other", n=err.errno)


def cmd_list(args, out: TextIO) -> int:
    for family in FAMILIES.values():
        out.write(text("cli.list_family", title=family.title, players=family.players_text(),
                       description=family.description) + "\n")
        for game in family.games:
            out.write(text("cli.list_game", id=game.id, title=game.title,
                           players=players_text(game.min_players, game.max_players)) + "\n")
            for opt in game.options:
                kind = "|".join(map(str, opt.choices)) if opt.choices else text("cli.yes_no")
                out.write(f"    {opt.id}={opt.default!s:<6} {text(opt.label)} [{kind}]\n")
            seats = ", ".join(s for s in game.seats if s != "human")
            out.write(text("cli.computer", seats=seats or Msg("word.nobody")) + "\n")
        if family.commands:
            out.write(text("cli.commands", commands=", ".join(family.commands)) + "\n")
    return 0


def reason(match: Match) -> Msg | None:
    """The outcome's reason, in the family's words (None while the game goes on)."""
    outcome = match.outcome()
    return None if outcome is None else family_of(match.game).text.reason(outcome, match.names)


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
        result["outcome"] = dict(outcome.to_json(match.names), reason=text(reason(match)))
    return result


def _read_json_file(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(50_000_000)
        return json.loads(text)
    except OSError as err:
        why = os_reason(err)
    except UnicodeDecodeError:
        why = Msg("cli.why.utf8")
    except ValueError:
        why = Msg("cli.why.json")
    except RecursionError:
        why = Msg("cli.why.deep")
    raise UsageError("cli.cannot_read", path=quote(path), error=why)


def cmd_replay(args, out: TextIO) -> int:
    match = load_match(_read_json_file(args.file))
    out.write(json.dumps(result_json(match), ensure_ascii=True) + "\n")
    return 0


#: Where the command line finds the experts' tables unless told (--tables): the site's own
#: copy beside this package, in a checkout of the repository.
DEFAULT_TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "web", "tables")


def read_tables(game, options, directory: str | None = None):
    """The expert's tables of a game and options, read from `directory` (or
    `DEFAULT_TABLES`): a table file is named by the family (``yams/yams+single_prime``)."""
    family = family_of(game)
    name = family.game_tables(game, options)
    if name is None:
        return None
    if directory is None:
        path = os.path.join(DEFAULT_TABLES, name + ".bin")
    else:  # --tables DIR: the family's folder, or one holding the files themselves
        path = os.path.join(directory, os.path.basename(name) + ".bin")
        if not os.path.isfile(path):
            path = os.path.join(directory, name + ".bin")
    try:
        with open(path, "rb") as f:
            data = f.read(64 << 20)
    except OSError:
        raise UsageError("cli.tables_not_found", path=quote(path)) from None
    return family.load_tables(data)


def writable_folder(folder: str) -> None:
    """`solve --write DIR`: the folder, made if need be, can take files (checked before
    any solving, which takes minutes, with a file that leaves no trace); else one
    readable error."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as err:
        raise UsageError("cli.cannot_write", path=quote(folder), error=os_reason(err)) from None


def write_bytes(path: str, data: bytes) -> None:
    """Write a file the command line made (a solved table), whole or not at all (written
    beside it, then renamed over it), with one readable error."""
    partial = path + ".part"
    try:
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(partial, "wb") as f:
            f.write(data)
        os.replace(partial, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise UsageError("cli.cannot_write", path=quote(path), error=os_reason(err)) from None


def make_bots(game, options, players, tables_dir=None) -> dict:
    tables = None
    if any(p.seat == "expert" for p in players):
        tables = read_tables(game, options, tables_dir)
    return {i: bot_for(game, p.seat, tables) for i, p in enumerate(players) if p.is_computer}


def terminal_json(value) -> str:
    """JSON for a terminal: the text as is, but the characters that steer it (a name's
    right-to-left override, a line separator…) escaped, as JSON allows in a string."""
    return "".join(json.dumps(c)[1:-1] if unicodedata.category(c) in STEERING else c
                   for c in json.dumps(value, ensure_ascii=False))


def cmd_play(args, out: TextIO, inp: TextIO | None = None) -> int:
    inp = sys.stdin if inp is None else inp
    game = find_game(args.game)
    seats = ["human"] if game.min_players <= 1 else ["human", "simple"]
    default = ",".join(f"{text(default_name(n, seat))}:{seat}" for n, seat in enumerate(seats, 1))
    given = players_given(args)
    players = parse_players(default if given is None else given)
    options = parse_options(game, args.option)
    start = json.loads(args.start) if args.start else None
    match = Match(game, players, options, DiceSampler(args.seed), start,
                  dice="real" if args.real_dice else "page")
    bots = make_bots(game, match.options, players)
    names = match.names
    board_names = [terminal_name(n) for n in names]  # the board's columns: no isolates
    words = family_of(game).text
    shown = None

    def say(msg_id, **params):  # names isolated: a right-to-left name cannot turn the line
        out.write(isolated(render(msg_id, **params)))

    while not match.state.is_terminal():
        state = match.state
        if state.is_chance() and not match.needs_faces():
            match.throw()
            continue
        who = state.thrower() if state.is_chance() else state.current_player()
        if who in bots:
            action = bots[who](state)
            say("cli.bot_move", player=Name(names[who]), action=action.notation())
            out.write("\n")
            match.apply(action)
            continue
        if shown is not state:
            out.write("\n" + words.render_text(state, board_names) + "\n")
            shown = state
        if state.is_chance():
            say("cli.faces_prompt", player=Name(names[who]), n=state.dice_to_throw())
        else:
            say("cli.prompt", player=Name(names[who]))
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n" + text("cli.interrupted") + "\n")
            return 1
        line = line.strip()
        if line in ("?", "aide", "help"):
            out.write(text("cli.legal", actions=", ".join(map(str, state.legal_actions()))) + "\n")
            continue
        try:
            match.type_throw(line) if state.is_chance() else match.apply(line)
        except GameError as err:
            say("cli.error_hint", error=err.message)
            out.write("\n")
    out.write("\n" + words.render_text(match.state, board_names) + "\n")
    if match.outcome() is not None:
        out.write(isolated(render(reason(match))) + "\n")
    out.write(terminal_json(result_json(match)) + "\n")
    return 0


# --- simulate: many seeded games between computer seats --------------------------------


def write_solved(args, name: str, data: bytes, out: TextIO, *lines: str) -> None:
    """A solved table's report: its `lines` on `out`, then, with ``solve --write DIR``, its
    file into DIR (named by the last part of `name`), said on `out`; then `out` is flushed,
    so that a long solve says each table as it comes."""
    for line in lines:
        out.write(line + "\n")
    if args.write is not None:
        path = os.path.join(args.write, os.path.basename(name) + ".bin")
        write_bytes(path, data)
        out.write(f"    wrote {path}\n")
    out.flush()


def expert_rate(players, results) -> tuple[int, float, float] | None:
    """For a family's ``simulate_report``: when an expert played a simple player (two
    players) and numpy is there to compute the exact rate, the expert's seat and its
    measured win rate with its standard error; else None."""
    if len(players) != 2 or sorted(p.seat for p in players) != ["expert", "simple"]:
        return None
    try:
        import numpy  # noqa: F401
    except ImportError:
        return None
    j = next(i for i, p in enumerate(players) if p.seat == "expert")
    return (j, *_mean_se([r[1][j] for r in results]))


def report_expert_rate(players, results, out: TextIO, what: str, rate_of: Callable[[], float]) -> None:
    """For a family's ``simulate_report``: when `expert_rate` measured one, the expert's
    win rate the family computes (`rate_of()`, called only then; `what` says how it is
    known) beside the measured one, in standard errors."""
    measured = expert_rate(players, results)
    if measured is None:
        return
    expected = rate_of()
    _, rate, se = measured
    out.write(f"    expert {what} {expected:.4f}: measured {rate:.4f} ± {se:.4f}, "
              f"{(rate - expected) / se:+.2f} standard errors\n")


def _simulate_chunk(job, bots: dict | None = None) -> list[tuple[list[int], list[int], list[int], bool]]:
    """Play games `first`..`first+count`; the seating turns by one each game so that
    every player starts equally often. Returns, per game, each original player's
    (score, won, lost) and whether it was a draw.  `bots`: the run's (else, in a
    worker, made once for the worker)."""
    game_id, options, seat_text, seed, first, count, tables_dir = job
    game = find_game(game_id)
    players = parse_players(seat_text)
    if bots is None:
        bots = _worker_bots(game_id, tuple(sorted(options.items())), seat_text, tables_dir)
    n = len(players)
    results = []
    for i in range(first, first + count):
        order = [(i + k) % n for k in range(n)]  # order[seat] = original player
        seated = [players[j] for j in order]
        match = Match(game, seated, options, DiceSampler(f"{seed}/{i}"))
        seat_bots = {s: bots[j] for s, j in enumerate(order)}
        state = play_out(match, lambda st: seat_bots[st.current_player()](st)).state
        outcome = state.outcome()
        scores, won, lost = [0] * n, [0] * n, [0] * n
        for s, j in enumerate(order):
            scores[j] = state.scores()[s]
            won[j] = int(s in outcome.winners and not outcome.draw)
            lost[j] = int(s in outcome.losers)
        results.append((scores, won, lost, outcome.draw))
    return results


@functools.lru_cache(maxsize=1)
def _worker_bots(game_id: str, options: tuple, seat_text: str, tables_dir: str | None) -> dict:
    """The bots of a simulation in a worker process (of a pool that lives for one run),
    made once (its tables read once) for the chunks it plays."""
    game = find_game(game_id)
    return make_bots(game, dict(options), parse_players(seat_text), tables_dir)


def _ignore_interrupts() -> None:  # a worker: Ctrl-C is the parent's to handle
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: The most games one `simulate` plays (every game's result is kept for the report).
MAX_GAMES = 1_000_000
#: Games per chunk of work: the progress is told between chunks.
CHUNK_GAMES = 500
#: Progress is told on stderr at most this often (seconds), when stderr is a terminal or
#: the run has at least PROGRESS_GAMES games.
PROGRESS_SECONDS = 5.0
PROGRESS_GAMES = 100_000


class Progress:
    """`simulate`'s progress, one line on stderr every `PROGRESS_SECONDS` at most, for a
    run a person watches (stderr a terminal) or a long one."""

    def __init__(self, total: int, stream: TextIO | None = None):
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        isatty = getattr(self.stream, "isatty", None)
        self.shown = total >= PROGRESS_GAMES or bool(isatty and isatty())
        self.start = self.last = time.monotonic()

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if not self.shown or done >= self.total or now - self.last < PROGRESS_SECONDS:
            return
        self.last = now
        self.stream.write(text("cli.progress", command="simulate", done=done, total=self.total,
                               percent=100 * done // self.total, seconds=round(now - self.start)) + "\n")
        self.stream.flush()


def _mean_se(values) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def cmd_simulate(args, out: TextIO) -> int:
    """Seeded games between computer seats: mean scores, win, loss and draw rates."""
    game = find_game(args.game)
    options = parse_options(game, args.option)
    if args.games < 2:
        raise UsageError("cli.two_games")
    if args.games > MAX_GAMES:
        raise UsageError("cli.too_many_games", max=MAX_GAMES)
    if players_given(args) is not None:
        seat_text = args.players
    elif game.min_players <= 1:
        seat_text = f"Solo:{args.seat}"
    else:
        raise UsageError("cli.several_players", game=game.title)
    players = parse_players(seat_text)
    game.check_players(players)
    if not all(p.is_computer for p in players):
        raise UsageError("cli.all_computer")
    bots = make_bots(game, options, players, args.tables)  # fail early on a bad seat or table
    jobs = max(1, min(args.jobs, 64))
    size = min(CHUNK_GAMES, -(-args.games // jobs))
    work = [(game.id, options, seat_text, args.seed, lo, min(size, args.games - lo), args.tables)
            for lo in range(0, args.games, size)]
    start = time.perf_counter()
    progress = Progress(args.games)
    results: list = []
    with contextlib.ExitStack() as stack:
        if jobs > 1:
            import multiprocessing

            pool = stack.enter_context(multiprocessing.Pool(jobs, initializer=_ignore_interrupts))
            chunks = pool.imap(_simulate_chunk, work)
        else:
            chunks = (_simulate_chunk(job, bots) for job in work)
        for chunk in chunks:
            results += chunk
            progress(len(results))
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
    if family.cli:
        report = getattr(import_module(family.cli), "simulate_report", None)
        if report:
            report(game, options, players, results, args, out)
    return 0


def cmd_solve(args, out: TextIO) -> int:
    """A family's exact solver (its `solver` module); the game id picks the family."""
    if args.write is not None:
        writable_folder(args.write)
    if args.all:  # every option set: of the game's family if one is named, else of all
        families = [family_of(find_game(args.game))] if args.game else FAMILIES.values()
        for family in families:
            if family.solver:
                _solver(family)(None, {}, args, out)
        return 0
    if not args.game:
        raise UsageError("cli.solve_which", games=", ".join(
            g.id for g in GAMES.values() if family_of(g).solver))
    game = find_game(args.game)
    family = family_of(game)
    if not family.solver:
        raise UsageError("cli.no_solver", game=game.title)
    return _solver(family)(game, parse_options(game, args.option), args, out)


def _solver(family):
    """The family's `solve` (its cli module's), once numpy, which every solver needs, is there."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UsageError("cli.needs_numpy") from None
    return import_module(family.cli).solve


def _family_commands() -> dict[str, object]:
    return {name: family for family in FAMILIES.values() for name in family.commands}


#: argparse's own messages (English whatever the locale), read back into the catalogue's:
#: (pattern, message id); an ``error`` group is itself such a message.
ARGPARSE_MESSAGES = [
    (r"argument (?P<arg>\S+): (?P<error>.+)", "cli.usage.argument"),
    (r"the following arguments are required: (?P<args>.+)", "cli.usage.required"),
    (r"unrecognized arguments: (?P<args>.*)", "cli.usage.unrecognized"),
    (r"invalid int value: (?P<value>.+)", "cli.usage.invalid_int"),
    (r"invalid \w+ value: (?P<value>.+)", "cli.usage.invalid_value"),
    (r"invalid choice: (?P<value>.+?)(?:, maybe you meant .+\?)? \(choose from (?P<choices>.+)\)",
     "cli.usage.invalid_choice"),
    (r"expected one argument", "cli.usage.one_value"),
    (r"expected at most one argument", "cli.usage.at_most_one"),
    (r"expected at least one argument", "cli.usage.at_least_one"),
    (r"expected (?P<n>\d+) arguments?", "cli.usage.values"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)", "cli.usage.ambiguous"),
    (r"ignored explicit argument (?P<value>.+)", "cli.usage.explicit"),
    (r"not allowed with argument (?P<arg>.+)", "cli.usage.not_allowed"),
    (r"one of the arguments (?P<args>.+) is required", "cli.usage.one_of"),
]


def usage_message(message: str) -> Msg | str:
    """One of argparse's messages in the catalogue's words (else as it is, on one line)."""
    for pattern, msg_id in ARGPARSE_MESSAGES:
        m = re.fullmatch(pattern, message, re.DOTALL)
        if m:
            params = m.groupdict()
            if "error" in params:
                params["error"] = usage_message(params["error"])
            if "value" in params:
                params["value"] = Msg("word.quoted", text=quote(_literal(params["value"])))
            if "choices" in params:
                params["choices"] = params["choices"].replace("'", "")
            return Msg(msg_id, **params)
    return message


def _literal(written: str) -> str:
    """A value argparse wrote with repr, as it was typed."""
    try:
        value = ast.literal_eval(written)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return written
    return value if isinstance(value, str) else written


class HelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, text("cli.usage_prefix") if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """argparse, with its help in French and its usage errors a `UsageError`: one French
    line (and where to find the help), exit 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **dict(kwargs, add_help=False, formatter_class=HelpFormatter))
        self._positionals.title = text("cli.positionals")
        self.add_argument("-h", "--help", action="help", help=text("cli.help_help"))

    def error(self, message: str):
        raise UsageError("cli.usage", error=usage_message(message), prog=self.prog)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    option = {"action": "append", "default": [], "metavar": text("cli.option_metavar")}
    parser = Parser(prog="python -m pygames", description=text("cli.description"))
    sub = parser.add_subparsers(dest="command", required=True, metavar=text("cli.command_metavar"))
    sub.add_parser("list", help=text("cli.list"))
    p = sub.add_parser("replay", help=text("cli.replay"))
    p.add_argument("file", metavar=text("cli.file_metavar"))
    p = sub.add_parser("play", help=text("cli.play"))
    p.add_argument("game", metavar=text("cli.game_metavar"))
    p.add_argument("--players", default=None, help=text("cli.players_help"))
    p.add_argument("--seed", default=None)
    p.add_argument("--start", default=None, help=text("cli.start_help"))
    p.add_argument("--real-dice", action="store_true", help=text("cli.real_dice_help"))
    p.add_argument("--option", "-o", **option)
    p = sub.add_parser("simulate", help=text("cli.simulate"))
    p.add_argument("game", metavar=text("cli.game_metavar"))
    p.add_argument("--seat", default="expert", help=text("cli.seat_help"))
    p.add_argument("--players", default=None, help=text("cli.players_help"))
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", default="simulate")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--tables", default=None, metavar=text("cli.folder_metavar"),
                   help=text("cli.tables_help"))
    p.add_argument("--option", "-o", **option)
    p = sub.add_parser("solve", help=text("cli.solve"))
    p.add_argument("game", nargs="?", metavar=text("cli.game_metavar"))
    p.add_argument("--option", "-o", **option)
    p.add_argument("--all", action="store_true", help=text("cli.all_help"))
    p.add_argument("--write", metavar=text("cli.folder_metavar"), help=text("cli.write_help"))
    p.add_argument("--target", type=int, default=None, help=text("cli.target_help"))
    p.add_argument("--floor", type=int, default=None, help=text("cli.floor_help"))
    for name, family in _family_commands().items():
        p = sub.add_parser(name, help=text(f"cli.command.{name}"))
        if name == command:  # only the command that runs imports its module
            import_module(family.cli).add_arguments(name, p)
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
    try:
        code = _run(argv, out)
        out.flush()  # here, so that a reader gone (a broken pipe) is said below
        return code
    except KeyboardInterrupt:  # Ctrl-C, wherever it comes: one line, never a traceback
        with contextlib.suppress(Exception):
            out.flush()
        lead = "\n" if getattr(sys.stderr, "isatty", lambda: False)() else ""  # after ^C
        sys.stderr.write(lead + text("cli.keyboard_interrupt") + "\n")
        return 130
    except BrokenPipeError:  # `… | head`: the reader has gone, the rest is nobody's
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run(argv: list[str], out: TextIO) -> int:
    command = next((a for a in argv if not a.startswith("-")), None)
    commands = {"list": cmd_list, "replay": cmd_replay, "play": cmd_play,
                "simulate": cmd_simulate, "solve": cmd_solve}
    try:
        try:
            args = build_parser(command).parse_args(argv)
        except SystemExit as exit_:  # --help
            return 2 if exit_.code else 0
        if args.command in commands:
            return commands[args.command](args, out)
        family = _family_commands()[args.command]
        return import_module(family.cli).run(args.command, args, out)
    except GameError as err:  # names isolated, as in every line the terminal shows
        sys.stderr.write(_one_line(isolated(render("cli.error", error=err.message))) + "\n")
        return 2
    except (ValueError, RecursionError, OverflowError, UnicodeError) as err:
        sys.stderr.write(text("cli.bad_input", error=_one_line(str(err))) + "\n")
        return 2


def _one_line(text: str) -> str:  # spaces and line breaks as one space; no-break spaces kept
    text = re.sub(r"[ \t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+", " ", text).strip(" ")
    limit = 4 * MAX_QUOTE + 200
    return text if len(text) <= limit else text[: limit - 1] + "…"
