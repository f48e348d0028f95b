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
    """No "(2–2 joueurs)" and no parentheses inside parentheses (issue 20, item 11)."""
    code, out = run("list")
    assert code == 0
    assert "# Yams, 1 à 6 joueurs (seul contre la feuille) — " in out
    assert "yams\tYams (feuille complète), 1 à 6 joueurs (seul contre la feuille)\n" in out
    assert "421\tLe 421, 2 à 6 joueurs\n" in out
    two = [g for g in GAMES.values() if g.min_players == g.max_players]
    for game in two:
        assert f"{game.id}\t{game.title}, {game.min_players} joueurs\n" in out
    for line in out.splitlines():
        assert "((" not in line and "))" not in line and "–" not in line, line


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
    (["yams", "full", "3", "3", "3", "2", "7"], "« 7 » n'est pas un dé"),
    (["yams", "full", "3", "3", "3", "2", "x"], "« x » n'est pas un dé"),
    (["yams", "jackpot", "3", "3", "3", "2", "2"], "Case inconnue dans yams : « jackpot »"),
    (["yahtzee", "pair", "3", "3", "3", "2", "2"], "Case inconnue dans yahtzee"),
    (["yams", "full", "3", "3", "3", "2"], "Il faut exactement 5 dés."),
    (["yams", "full", "3", "3", "3", "2", "2", "1"], "Il faut exactement 5 dés."),
    (["yams", "full"], "Il faut exactement 5 dés."),
    (["poker", "full", "3", "3", "3", "2", "2"], "Jeu inconnu : « poker »"),
    (["yams", "full", "3", "3", "3", "2", "2", "-o", "turbo=1"], "Option inconnue"),
    (["yams", "full", "3", "3", "3", "2", "2", "-o", "single_prime=peut-être"], "« oui » ou « non » attendu"),
    (["yams", "four_kind", "1", "1", "1", "1", ""], "« » n'est pas un dé"),
    (["yams", "four_kind", "1", "1", "1", "1", "6 6"], "« 6 6 » n'est pas un dé"),
]


@pytest.mark.parametrize("argv, points", [case for case in SCORE_CASES if isinstance(case[1], int)])
def test_score_prints_the_points(argv, points):
    assert run("score", *argv) == (0, f"{points}\n")


@pytest.mark.parametrize("argv, message", [case for case in SCORE_CASES if isinstance(case[1], str)])
def test_score_refuses_bad_input_with_exit_2(argv, message, capsys):
    code, out = run("score", *argv)
    assert (code, out) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("erreur : ") and message in err


def test_score_from_the_command_line():
    done = run_module("score", "yams", "full", "3", "3", "3", "2", "2")
    assert (done.returncode, done.stdout) == (0, "25\n")
    done = run_module("score", "yams", "full", "3", "3", "3", "2", "9")
    assert done.returncode == 2 and "« 9 » n'est pas un dé" in done.stderr
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
        ('{"format": "pygames/9"}', "Format de partie inconnu"),
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
    assert "Coups possibles : roll" in text  # the answer to "?"
    assert "Lancez d'abord les dés." in text  # the slip is explained, the game goes on
    assert "« keep 9 » : écrire par exemple" in text
    # names are isolated (FSI … PDI): a right-to-left name cannot turn the line around
    assert text.count("\u2068Robot\u2069 : score ") == 15
    result = json.loads(text.strip().splitlines()[-1])
    assert result["finished"] is True
    assert [s["name"] for s in result["scores"]] == ["Alice", "Robot"]
    assert all(isinstance(s["score"], int) for s in result["scores"])


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
    assert done.stdout.count("\u2068Robot\u2069 : score ") == 13


def test_play_stops_when_the_input_ends():
    out = io.StringIO()
    code = cmd_play(play_args("yahtzee", "--seed", "1"), out, io.StringIO("roll\n"))
    assert code == 1 and "Partie interrompue." in out.getvalue()


def test_play_refuses_an_unknown_seat(capsys):
    assert run("play", "yams", "--players", "Alice:genius") == (2, "")
    assert "Place inconnue" in capsys.readouterr().err
