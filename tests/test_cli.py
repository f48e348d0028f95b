"""`python -m pygames list | score | replay | play`."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pygames import GAMES
from pygames.cli import build_parser, cmd_play, main

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def run_module(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pygames", *argv], input=stdin, capture_output=True,
        text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=120,
    )


def test_list_names_every_game_and_option():
    code, out = run("list")
    assert code == 0
    for game in GAMES.values():
        assert game.id in out and str(game.title) in out
        for option in game.options:
            assert option.id in out and str(option.label) in out


def test_list_says_how_many_play_plainly():
    """No "(2–2 joueurs)" and no parentheses inside parentheses, nor one after another
    (issue 20, item 11): "1 à 6 joueurs, seul contre la feuille"."""
    code, out = run("list")
    assert code == 0
    assert "# Yams, 1 à 6 joueurs, seul contre la feuille — " in out
    assert "yams\tYams (feuille complète), 1 à 6 joueurs, seul contre la feuille\n" in out
    assert "421\tLe 421, 2 à 6 joueurs\n" in out
    two = [g for g in GAMES.values() if g.min_players == g.max_players]
    assert two
    for game in two:
        assert f"{game.id}\t{game.title}, {game.min_players} joueurs\n" in out
        assert f"{game.min_players}–{game.max_players}" not in out
    for line in out.splitlines():
        assert "((" not in line and "))" not in line and "–" not in line, line
        if "joueurs" in line:  # how many play is said without parentheses
            assert "(" not in line.split(", ")[-1].split(" — ")[0], line


def test_list_from_the_command_line():
    done = run_module("list")
    assert done.returncode == 0
    assert all(game_id in done.stdout for game_id in ("yams", "yams-boite", "yahtzee"))


# What `score` answers: the points it prints (a number), or the error it refuses with (a text).
SCORE_CASES = [
    (["yams", "twos", "3", "3", "3", "2", "2"], 4),
    (["yams", "threes", "3", "3", "3", "2", "2"], 9),
    (["yams", "three_kind", "3", "3", "3", "2", "2"], 13),
    (["yams", "full", "3", "3", "3", "2", "2"], 25),
    (["yams", "full", "2", "3", "2", "3", "3"], 25),
    (["yams", "full", "3", "3", "3", "3", "2"], 0),
    (["yams", "two_pairs", "4", "4", "4", "4", "2"], 0),
    (["yams", "two_pairs", "4", "4", "4", "4", "2", "-o", "four_kind_is_two_pairs=oui"], 18),
    (["yams", "small_straight", "1", "2", "3", "4", "5"], 30),
    (["yams-boite", "three_kind", "3", "3", "3", "2", "2"], 9),
    (["yams-boite", "four_kind", "6", "1", "6", "6", "6"], 24),
    (["yahtzee", "four_kind", "6", "1", "6", "6", "6"], 25),
    (["yahtzee", "yams", "1", "1", "1", "1", "1"], 50),
    (["yams", "full", "3", "3", "3", "2", "7"], "«\u00a07\u00a0» n'est pas un dé"),
    (["yams", "full", "3", "3", "3", "2", "x"], "«\u00a0x\u00a0» n'est pas un dé"),
    (["yams", "jackpot", "3", "3", "3", "2", "2"], "Case inconnue dans yams\u00a0: «\u00a0jackpot\u00a0»"),
    (["yahtzee", "pair", "3", "3", "3", "2", "2"], "Case inconnue dans yahtzee"),
    (["yams", "full", "3", "3", "3", "2"], "Il faut exactement 5 dés."),
    (["yams", "full", "3", "3", "3", "2", "2", "1"], "Il faut exactement 5 dés."),
    (["yams", "full"], "Il faut exactement 5 dés."),
    (["poker", "full", "3", "3", "3", "2", "2"], "Jeu inconnu\u00a0: «\u00a0poker\u00a0»"),
    (["yams", "full", "3", "3", "3", "2", "2", "-o", "turbo=1"], "Option inconnue"),
    (["yams", "full", "3", "3", "3", "2", "2", "-o", "single_prime=peut-être"],
     "«\u00a0oui\u00a0» ou «\u00a0non\u00a0» attendu"),
    (["yams", "four_kind", "1", "1", "1", "1", ""], "«\u00a0\u00a0» n'est pas un dé"),
    (["yams", "four_kind", "1", "1", "1", "1", "6 6"], "«\u00a06 6\u00a0» n'est pas un dé"),
]


@pytest.mark.parametrize("argv, points", [case for case in SCORE_CASES if isinstance(case[1], int)])
def test_score_prints_the_points(argv, points):
    assert run("score", *argv) == (0, f"{points}\n")


@pytest.mark.parametrize("argv, message", [case for case in SCORE_CASES if isinstance(case[1], str)])
def test_score_refuses_bad_input_with_exit_2(argv, message, capsys):
    code, out = run("score", *argv)
    assert (code, out) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("erreur\u00a0: ") and message in err


def test_score_from_the_command_line():
    done = run_module("score", "yams", "full", "3", "3", "3", "2", "2")
    assert (done.returncode, done.stdout) == (0, "25\n")
    done = run_module("score", "yams", "full", "3", "3", "3", "2", "9")
    assert done.returncode == 2 and "«\u00a09\u00a0» n'est pas un dé" in done.stderr
    assert "Traceback" not in done.stderr


def test_replay_prints_the_final_scores(tmp_path, simulated):
    match = simulated("yams", names=["Alice", "<b>Bob</b>"], seed="cli")
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(match.to_record(), ensure_ascii=False), encoding="utf-8")
    code, out = run("replay", str(path))
    assert code == 0
    result = json.loads(out)
    scores = match.state.scores()
    assert result["game"] == "yams" and result["finished"] is True
    assert result["scores"] == [
        {"name": "Alice", "score": scores[0]}, {"name": "<b>Bob</b>", "score": scores[1]},
    ]
    names = [n for place in result["ranking"] for n in place]
    assert sorted(names) == ["<b>Bob</b>", "Alice"]
    done = run_module("replay", str(path))
    assert done.returncode == 0 and json.loads(done.stdout) == result


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"format": "pygames/1", "game": "yams", "play', "Impossible de lire"),
        ('{"format": "pygames/9"}', "version plus récente de pygames (pygames/9)"),
        ('{"format": "pygames/one"}', "Format de partie inconnu"),
        ('{"format": "pygames/1", "game": "go", "players": [], "actions": []}', "Jeu inconnu"),
        ('{"format": "pygames/1", "game": "yams", "players": [{"name": "A"}],'
         ' "actions": ["roll", "dice 1 2 3 4 5", "score nope"]}', "Coup n° 3"),
    ],
)
def test_replay_refuses_a_bad_file_with_exit_2(tmp_path, content, message, capsys):
    path = tmp_path / "partie.json"
    path.write_text(content, encoding="utf-8")
    assert run("replay", str(path)) == (2, "")
    assert message in capsys.readouterr().err


def test_replay_of_a_missing_file(tmp_path, capsys):
    assert run("replay", str(tmp_path / "absent.json")) == (2, "")
    assert "Impossible de lire" in capsys.readouterr().err


YAMS_BOXES = [
    "ones", "twos", "threes", "fours", "fives", "sixes", "pair", "two_pairs", "three_kind",
    "four_kind", "full", "small_straight", "large_straight", "yams", "chance",
]


def human_script(boxes) -> str:
    """A human who rolls once and fills the boxes in order (with a slip and a question)."""
    lines = ["?", "score full", "roll", "keep 9"]
    lines.append(f"score {boxes[0]}")
    for box in boxes[1:]:
        lines += ["roll", f"score {box}"]
    return "\n".join(lines) + "\n"


def play_args(*argv):
    return build_parser().parse_args(["play", *argv])


def test_play_to_the_end_against_the_computer():
    out = io.StringIO()
    args = play_args("yams", "--players", "Alice,Robot:simple", "--seed", "partie")
    assert cmd_play(args, out, io.StringIO(human_script(YAMS_BOXES))) == 0
    text = out.getvalue()
    assert "Coups possibles\u00a0: roll" in text  # the answer to "?"
    assert "Lancez d'abord les dés." in text  # the slip is explained, the game goes on
    assert "«\u00a0keep 9\u00a0»\u00a0: écrire par exemple" in text
    # names are isolated (FSI … PDI): a right-to-left name cannot turn the line around
    assert text.count("\u2068Robot\u2069\u00a0: score ") == 15
    result = json.loads(text.strip().splitlines()[-1])
    assert result["finished"] is True
    assert [s["name"] for s in result["scores"]] == ["Alice", "Robot"]
    assert all(isinstance(s["score"], int) for s in result["scores"])


def test_play_with_real_dice_asks_the_persons_faces_not_the_computers():
    """--real-dice: the person types in each throw's faces (a slip is explained and asked
    again); the computer throws the page's dice; the record marks the typed throws."""
    lines = []
    for n, box in enumerate(YAMS_BOXES):
        lines += ["roll", "7" if n == 0 else "1234", f"{n % 6 + 1}{n % 6 + 1}{(n + 1) % 6 + 1}25", f"score {box}"]
    out = io.StringIO()
    args = play_args("yams", "--players", "Alice,Robot:simple", "--seed", "vrais", "--real-dice")
    assert cmd_play(args, out, io.StringIO("\n".join(lines) + "\n")) == 0
    text = out.getvalue()
    assert text.count("\u2068Alice\u2069, faces des dés lancés (5) > ") == 15 + 1 + 14
    assert "«\u00a07\u00a0» n'est pas un dé" in text and "Il faut le résultat de 5 dés." in text
    assert "Robot\u2069, faces" not in text and text.count("\u2068Robot\u2069\u00a0: score ") == 15
    assert json.loads(text.strip().splitlines()[-1])["finished"] is True


def test_play_from_the_command_line_with_a_scripted_stdin():
    boxes = YAMS_BOXES[:6] + [
        "three_kind", "four_kind", "full", "small_straight", "large_straight", "yams", "chance",
    ]
    done = run_module(
        "play", "yams-boite", "--players", "Alice,Robot:simple", "--seed", "7",
        "-o", "forced_scoring=non", stdin=human_script(boxes),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["game"] == "yams-boite" and result["finished"] is True
    assert done.stdout.count("\u2068Robot\u2069\u00a0: score ") == 13


def test_play_stops_when_the_input_ends():
    out = io.StringIO()
    code = cmd_play(play_args("yahtzee", "--seed", "1"), out, io.StringIO("roll\n"))
    assert code == 1 and "Partie interrompue." in out.getvalue()


def test_play_refuses_an_unknown_seat(capsys):
    assert run("play", "yams", "--players", "Alice:genius") == (2, "")
    assert "Place inconnue" in capsys.readouterr().err


# --- the rough edges (issue "Nothing lost across versions", items 4 and 10) --------------


def one_french_line(err: str, *words: str) -> None:
    assert err.startswith("erreur\u00a0: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "usage:" not in err and "error:" not in err, err
    for word in words:
        assert word in err, (word, err)


def test_solve_into_a_folder_that_cannot_be_written_is_one_french_line(tmp_path, monkeypatch, capsys):
    """Refused before any solving, in French (no "No such file or directory")."""
    monkeypatch.chdir(tmp_path)
    a_file = tmp_path / "table.bin"
    a_file.write_bytes(b"")
    for folder, why in (("/proc/x", "introuvable"), ("table.bin", "n'est pas un dossier")):
        assert run("solve", "421", "--write", folder) == (2, "")
        one_french_line(capsys.readouterr().err, f"Impossible d'écrire {folder}\u00a0: ", why)
    assert a_file.read_bytes() == b"" and os.listdir(tmp_path) == ["table.bin"]


def test_a_file_the_cli_writes_is_written_whole_or_not_at_all(tmp_path):
    from pygames.cli import UsageError, write_bytes

    path = tmp_path / "yams" / "t.bin"
    write_bytes(str(path), b"table")
    assert path.read_bytes() == b"table" and os.listdir(path.parent) == ["t.bin"]
    with pytest.raises(UsageError, match="c'est un dossier"):
        write_bytes(str(tmp_path / "yams"), b"x")
    assert os.listdir(tmp_path) == ["yams"] and os.listdir(path.parent) == ["t.bin"]


def test_simulate_bounds_the_number_of_games(monkeypatch, capsys):
    import pygames.cli as cli

    def played(*_):
        raise AssertionError("a game was played")

    monkeypatch.setattr(cli, "_simulate_chunk", played)
    for games in ("1000000000000", str(cli.MAX_GAMES + 1)):
        assert run("simulate", "421", "--players", "A:simple,B:naive", "--games", games) == (2, "")
        one_french_line(capsys.readouterr().err, "Au plus 1\u202f000\u202f000 parties (--games).")


def simulate_421(*argv: str) -> tuple[int, str]:
    code, out = run("simulate", "421", "--players", "A:simple,B:naive", "--seed", "progress", *argv)
    return code, out.split("\n", 1)[1]  # what follows the first line (it says the time)


def test_simulate_tells_its_progress_on_stderr_for_a_long_run(monkeypatch, capsys):
    import pygames.cli as cli

    code, quiet = simulate_421("--games", "7")
    assert code == 0 and capsys.readouterr().err == ""  # a short run, stderr no terminal
    monkeypatch.setattr(cli, "CHUNK_GAMES", 3)
    monkeypatch.setattr(cli, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(cli, "PROGRESS_GAMES", 7)  # 7 games make a long run
    assert simulate_421("--games", "7") == (0, quiet)  # the same games, played in chunks
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(", ")[0] for line in lines] == [
        "simulate\u00a0: 3 parties sur 7 (42 %)", "simulate\u00a0: 6 parties sur 7 (85 %)"]
    assert simulate_421("--games", "7", "--jobs", "2") == (0, quiet)
    assert len(capsys.readouterr().err.splitlines()) == 2


def test_progress_is_told_to_a_terminal_at_most_every_few_seconds(monkeypatch):
    import pygames.cli as cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    clock = iter([0.0, 1.0, 6.0, 7.0, 20.0])
    monkeypatch.setattr(cli.time, "monotonic", lambda: next(clock, 30.0))
    stream = Terminal()
    progress = cli.Progress(1000, stream)  # 0.0
    for done in (100, 200, 300):  # at 1 s (too soon), 6 s (told), 7 s (too soon)
        progress(done)
    progress(1000)  # the end is said by the report, not here
    assert stream.getvalue() == "simulate\u00a0: 200 parties sur 1\u202f000 (20 %), 6 s\n"
    assert cli.Progress(1000, io.StringIO()).shown is False  # no terminal, a short run
    assert cli.Progress(cli.PROGRESS_GAMES, io.StringIO()).shown is True


class Interrupting(io.StringIO):
    def readline(self, *_):
        raise KeyboardInterrupt


def test_ctrl_c_is_one_french_line_and_exit_130(monkeypatch, capsys):
    import pygames.cli as cli

    monkeypatch.setattr("sys.stdin", Interrupting())
    code, out = run("play", "yams", "--players", "Alice", "--seed", "1")
    assert code == 130 and out.endswith("Alice\u2069 > ")
    assert capsys.readouterr().err == "Interrompu.\n"

    def interrupted(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_simulate_chunk", interrupted)
    assert run("simulate", "421", "--players", "A:simple,B:naive", "--games", "4") == (130, "")
    assert capsys.readouterr().err == "Interrompu.\n"


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
def test_ctrl_c_stops_a_parallel_simulation_without_a_traceback():
    """Ctrl-C in a terminal reaches the whole group: the workers too, which leave it to
    the parent.  It comes once the simulation runs (its first progress line, which a run
    of 100,000 games or more writes within `PROGRESS_SECONDS`), not after a fixed sleep that
    a loaded machine may spend still importing."""
    import signal
    import threading

    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pygames", "simulate", "421", "--players", "A:simple,B:naive",
         "--games", "1000000", "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, encoding="utf-8", cwd=ROOT, env=env, start_new_session=True,
        # (a shell's background job ignores Ctrl-C, and its children inherit that: the
        # simulation is given the terminal's usual Ctrl-C, as a person's is)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: list[str] = []
    running = threading.Event()

    def read_stderr():
        for line in proc.stderr:
            lines.append(line)
            running.set()
        running.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert running.wait(120), "no progress line within 120 s"
        assert proc.poll() is None, "".join(lines)
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=60)  # (before reading: a run that does not stop fails, never hangs)
        out = proc.stdout.read()
        reader.join(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    err = "".join(lines)
    assert proc.returncode == 130 and out == ""
    assert "Traceback" not in err and err.splitlines()[-1] == "Interrompu.", err


@pytest.mark.parametrize("argv, words", [
    ([], ["il manque COMMANDE", "(aide\u00a0: python -m pygames --help)"]),
    (["poker"], ["COMMANDE\u00a0: choix inconnu\u00a0: «\u00a0poker\u00a0» (choix\u00a0: list, replay, play,"]),
    (["simulate"], ["il manque JEU", "(aide\u00a0: python -m pygames simulate --help)"]),
    (["simulate", "yams", "--games", "x"], ["--games\u00a0: nombre entier attendu, pas «\u00a0x\u00a0»"]),
    (["simulate", "yams", "--games"], ["--games\u00a0: une valeur attendue"]),
    (["play", "yams", "--bogus"], ["arguments inattendus\u00a0: --bogus"]),
    (["list", "extra"], ["arguments inattendus\u00a0: extra"]),
    (["score"], ["il manque JEU, CASE, DÉ", "(aide\u00a0: python -m pygames score --help)"]),
    (["linotte-score"], ["il manque PLATEAU"]),
])
def test_usage_errors_are_one_french_line(argv, words, capsys):
    assert run(*argv) == (2, "")
    one_french_line(capsys.readouterr().err, *words)


def test_usage_messages_of_every_python_read_back_in_french():
    """argparse's words as 3.11 to 3.14 write them (quoted choices or not, a suggestion)."""
    from pygames.cli import usage_message
    from pygames.messages import text

    assert text(usage_message("argument COMMANDE: invalid choice: 'plai', maybe you meant 'play'? "
                              "(choose from list, play)")) == (
        "COMMANDE\u00a0: choix inconnu\u00a0: «\u00a0plai\u00a0» (choix\u00a0: list, play)")
    assert text(usage_message("argument COMMANDE: invalid choice: 'x' (choose from 'list', 'play')")) == (
        "COMMANDE\u00a0: choix inconnu\u00a0: «\u00a0x\u00a0» (choix\u00a0: list, play)")
    assert text(usage_message("argument --jobs: invalid int value: '\\udcff'")) == (
        "--jobs\u00a0: nombre entier attendu, pas «\u00a0?\u00a0»")
    assert text(usage_message("ambiguous option: --s could match --seat, --seed")) == (
        "option ambiguë\u00a0: --s (peut-être --seat, --seed)")
    assert usage_message("something argparse says one day") == "something argparse says one day"


def test_the_help_is_french_and_exits_0(capsys):
    assert run("simulate", "--help") == (0, "")
    shown = capsys.readouterr().out
    assert shown.startswith("utilisation\u00a0: python -m pygames simulate ")
    assert "-h, --help" in shown and "afficher cette aide" in shown and "show this help" not in shown


@pytest.mark.parametrize("argv, words", [
    (["-o", "="], ["Option sans nom\u00a0: «\u00a0=\u00a0»"]),
    (["-o", ""], ["Option sans nom\u00a0: «\u00a0\u00a0»"]),
    (["-o", " =oui"], ["Option sans nom\u00a0: «\u00a0 =oui\u00a0»"]),
    (["--players", ""], ["--players est vide"]),
    (["--players", "  "], ["--players est vide"]),
])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_empty_option_or_player_list_is_refused(command, argv, words, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    seats = [] if "--players" in argv else ["--players", "A:simple,B:naive"]
    assert run(command, "421", *seats, *argv, "--games" if command == "simulate" else "--seed", "2") == (2, "")
    one_french_line(capsys.readouterr().err, *words)


def test_score_refuses_an_option_with_no_name(capsys):
    assert run("score", "yams", "full", "3", "3", "3", "2", "2", "-o", "=oui") == (2, "")
    one_french_line(capsys.readouterr().err, "Option sans nom")


STEERING_NAME = "\u202eAlice\u2069\u2028x"  # an override, an isolate's end, a line separator


def test_play_isolates_names_and_shows_no_character_that_steers_the_line():
    out = io.StringIO()
    args = play_args("yams", "--players", f"{STEERING_NAME},Bob:simple", "--seed", "partie")
    assert cmd_play(args, out, io.StringIO(human_script(YAMS_BOXES))) == 0
    shown = out.getvalue()
    for char in ("\u202e", "\u2028", "\u202a", "\u200e"):
        assert char not in shown
    shown_name = "\ufffdAlice\ufffd\ufffdx"
    assert f"\u2068{shown_name}\u2069 > " in shown  # the prompt: isolated, its steering replaced
    assert shown.count("\u2069") == shown.count("\u2068")  # every isolate is closed, once
    board = next(line for line in shown.splitlines() if line.startswith(" " * 16))  # the sheet's
    # header: the names, replaced, not isolated (the columns stay aligned)
    assert shown_name[:10] in board and "\u2068" not in board
    result = json.loads(shown.strip().splitlines()[-1])  # the data: the name as it was given
    assert result["scores"][0]["name"] == STEERING_NAME
    assert "\\u202e" in shown.strip().splitlines()[-1]


def test_errors_isolate_names_too(monkeypatch, capsys):
    import pygames.cli as cli
    from pygames.messages import Msg, Name, terminal_name

    assert terminal_name("a\u200db\u200cc\u061c\U000e0001") == "a\u200db\u200cc\ufffd\ufffd"  # joiners kept

    def refuse(args, out):
        raise cli.UsageError(Msg("outcome.won", player=Name(STEERING_NAME), points=3))

    monkeypatch.setattr(cli, "cmd_list", refuse)
    assert run("list") == (2, "")
    assert capsys.readouterr().err == "erreur\u00a0: \u2068\ufffdAlice\ufffd\ufffdx\u2069 gagne avec 3.\n"
