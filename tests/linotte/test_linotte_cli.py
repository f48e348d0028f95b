"""`python -m pygames linotte-score BOARD`, and the generic commands on the Linotte."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pygames import DiceSampler, Match, Player, find_game
from pygames.cli import build_parser, cmd_play, main
from pygames.core import play_out
from pygames.linotte.bots import SimpleBot

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


@pytest.mark.parametrize("board, printed", [
    ("." * 25, "0 0"),
    ("AAAA." "....." "BBB.." "....." ".....", "2 1"),
    ("AAAAA" ".A..." "..A.." "...A." "....A", "6 0"),
    ("..A.." "...A." "....A" "B...." "BB...", "1 0"),
    ("AAABB" "BBBAA" "....." "....." ".....", "1 1"),
])
def test_linotte_score_prints_both_players_points(board, printed):
    assert run("linotte-score", board) == (0, printed + "\n")


@pytest.mark.parametrize("board, message", [
    ("." * 24, "Plateau\u00a0: 25 caractères attendus (A, B ou .), pas 24"),
    ("." * 26, "pas 26"),
    ("", "pas 0"),
    ("AAAAx" + "." * 20, "«\u00a0x\u00a0» n'est ni A, ni B, ni «\u00a0.\u00a0»"),
    ("aaaa." + "." * 20, "«\u00a0a\u00a0» n'est ni A"),
])
def test_linotte_score_refuses_bad_boards_with_exit_2(board, message, capsys):
    code, out = run("linotte-score", board)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.startswith("erreur\u00a0: ") and message in err and err.count("\n") == 1


def test_linotte_score_needs_its_board(capsys):
    assert run("linotte-score")[0] == 2


def test_linotte_score_from_the_command_line():
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "pygames", "linotte-score", "BBB.." + "." * 20],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == "0 1\n"


def test_list_shows_the_linotte_and_its_command():
    code, out = run("list")
    assert code == 0 and "linotte\tJeu de la linotte" in out and "linotte-score" in out
    for option in ("appel_own_cell", "yam_master", "defi"):
        assert option in out


def test_play_draws_the_board_with_cell_names():
    out = io.StringIO()
    args = build_parser().parse_args(["play", "linotte", "--players", "Alice,Ordi:simple",
                                      "--seed", "cli"])
    code = cmd_play(args, out, io.StringIO("roll\n?\nplace z9\npass\n"))
    text = out.getvalue()
    assert code == 1 and "Partie interrompue." in text
    assert "A           B           C           D           E\n1       1           3" in text
    assert "appel" in text and "yam" in text and "A = Alice" in text and "Dés\u00a0: " in text
    assert "Coups possibles\u00a0: " in text and "place z9" in text


def test_simulate_and_replay(tmp_path):
    code, out = run("simulate", "linotte", "--players", "A:expert,B:simple", "--games", "4",
                    "--seed", "cli")
    assert code == 0 and out.startswith("linotte: 4 games")
    assert "A (expert): wins" in out and "B (simple): wins" in out
    match = Match(find_game("linotte"), [Player("A"), Player("B")], None, DiceSampler("replay"))
    play_out(match, SimpleBot("replay"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    code, out = run("replay", str(path))
    result = json.loads(out)
    assert code == 0 and result["finished"] and result["game"] == "linotte"
    assert [s["score"] for s in result["scores"]] == match.state.scores()
