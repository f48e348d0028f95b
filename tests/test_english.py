"""The games and the command line in English: every sentence the games' words make over
seeded games (a Yams game's narration, the 421's round sentences and standing lines, the
Linotte's events, the Dé Landais's throws and journal, every game's outcome and text
rendering) is English, with every field filled; the command line speaks English when the
terminal asks for it (PYGAMES_LANG=en)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pygames import GAMES, family_of, find_game, messages
from pygames.core import bot_for
from pygames.landais import messages as landais_words
from pygames.landais.rules import journal
from pygames.le421 import messages as words_421
from pygames.linotte import messages as linotte_words
from pygames.messages import Msg, Name, text
from pygames.yams.messages import describe

ROOT = Path(__file__).resolve().parent.parent

#: Words that say the text fell back to French (or was written in French in the code).
FRENCH = (" et ", " le ", " la ", "jetons", "joueur", "partie", "lancer", "gagne", "«", "»",
          " de ", " d'", "Le ", "La ")
FIELD = re.compile(r"\{\w+(?:\|\w+)?\}")


@pytest.fixture(autouse=True)
def english():
    messages.use("en")
    yield
    messages.use("fr")


def english_text(value) -> str:
    """The text of a message, checked: no French word, no field left unfilled."""
    said = value if isinstance(value, str) else text(value)
    for word in FRENCH:
        assert word not in said, (word, said)
    assert not FIELD.search(said), said
    return said


def ids(msg) -> set[str]:
    """Every message id a message is made of (its own and its parameters')."""
    if isinstance(msg, Msg):
        found = {msg.id}
        for value in msg.params.values():
            found |= ids(value)
        return found
    if isinstance(msg, (list, tuple)) and not isinstance(msg, str):
        return set().union(*(ids(v) for v in msg)) if msg else set()
    return set()


class Games:
    """Seeded games between computer players (tests/conftest.py `simulate`)."""

    def __init__(self, simulate):
        self.simulate = simulate

    def seated(self, game_id, names, seats, seed, options=None):
        """A seeded game between computer players of a level (random moves: "random")."""
        if seats == "random":
            return self.simulate(game_id, names, options, seed=seed)
        game = find_game(game_id)
        bots = [bot_for(game, seats, None) for _ in names]
        return self.simulate(game_id, names, options, seed=seed,
                             bot=lambda st: bots[st.current_player()](st))

    def __call__(self, game_id, names, options_list=(None,), count=3):
        for options in options_list:
            for i in range(count):
                for seats in ("random", "simple"):
                    yield self.seated(game_id, names, seats, f"english/{i}", options)


@pytest.fixture
def matches(simulated):
    return Games(simulated)


def test_a_yams_game_is_told_in_english(matches):
    said, used = [], set()
    for game_id in ("yams", "yams-boite", "yahtzee"):
        for match in matches(game_id, ("Alice", "Bob"), count=1):
            for pos in match.positions():
                if pos.before.is_chance():
                    continue
                for msg in describe(pos.before, pos.action, pos.after, match.names, persons=(0, 1)):
                    used |= ids(msg)
                    said.append(english_text(msg))
            english_text(family_of(match.game).text.render_text(match.state, match.names))
    assert {"yams.scored", "yams.keeps", "yams.rolled", "yams.next_player", "yams.box.ones",
            "yams.box.yahtzee", "yams.box.yams", "yams.box.pair"} <= used
    assert any(s.startswith("Alice scores ") and " in Full House. Total " in s for s in said)
    assert "Bob's turn." in said


def test_yahtzee_and_yams_sheets_say_their_own_bonus_rows(matches):
    for game_id, row in (("yahtzee", "Yahtzee bonuses"), ("yams", "Yam bonuses")):
        match = matches.seated(game_id, ("Alice",), "simple", "english/sheet")
        shown = english_text(family_of(match.game).text.render_text(match.state, match.names))
        assert row in shown and "Bonus (≥63)" in shown and "Aces" in shown
    messages.use("fr")
    match = matches.seated("yahtzee", ("Alice",), "simple", "english/sheet")
    assert "Primes Yam" in family_of(match.game).text.render_text(match.state, match.names)


def test_the_421_rounds_and_standing_lines_are_english(matches):
    used = set()
    said = []
    for match in matches("421", ("Alice", "Bob", "Zoé"), (None, {"nenette_four": True}), count=4):
        names = match.names
        for pos in match.positions():
            for msg in words_421.events(pos.after, names):
                used |= ids(msg)
                said.append(english_text(msg))
            standing = pos.after.standing()
            if standing is not None:
                for msg in (words_421.standing_line(standing, names),
                            words_421.standing_outcome(standing, names),
                            words_421.to_beat(standing, names)):
                    if msg is not None:
                        used |= ids(msg)
                        said.append(english_text(msg))
            if pos.after.rampo_throws:
                english_text(words_421.rampo_line(pos.after.rampo_throws, names))
            english_text(words_421.render_text(pos.after, names))
    assert {"421.round.charge", "421.round.decharge", "421.rampos", "421.standing.to_beat",
            "421.standing.gives", "421.standing.receives", "421.standing.between",
            "421.decharge_starts", "421.left", "421.lost", "421.thrown", "421.stopped",
            "421.hand.fiche", "count.throws", "count.tokens"} <= used
    assert any(re.fullmatch(r"\w+ \(.+\) receives \d+ tokens? from \w+ \(.+\)\.", s) for s in said)
    assert any(re.fullmatch(r"\w+: .+ in \d throws?; to beat: .+ by .+ in \d throws?\.", s) for s in said)


def test_the_421_decharge_says_from_whom_without_the_french_elision():
    msg = Msg("421.round.decharge", worst=Name("Paul"), worst_hand="631", best=Name("Ordinateur"),
              best_hand="421", tokens=Msg("count.tokens", n=10), rampos="", short="")
    assert text(msg) == "Paul (631) receives 10 tokens from Ordinateur (421)."
    messages.use("fr")
    assert text(msg) == "Paul (631) reçoit 10 jetons d'Ordinateur (421)."


def test_the_421_advice_is_written_the_english_way():
    assert text(words_421.advice_value("win", 0.1234)) == "12.3% chance of winning the game"
    assert text(words_421.advice_value("tokens", -0.5)).startswith("\u22120.50 tokens on average")
    messages.use("fr")
    assert text(words_421.advice_value("win", 0.1234)) == "12,3\u00a0% de chances de gagner la partie"
    assert text(words_421.advice_value("tokens", 1.257)).startswith("+1,26 jetons")


def test_the_linotte_events_are_english(matches):
    used = set()
    options = (None, {"yam_master": True}, {"defi": True})
    for match in matches("linotte", ("Alice", "Bob"), options, count=2):
        for pos in match.positions():
            for msg in linotte_words.events(pos.after):
                used |= ids(msg)
                english_text(msg)
            if pos.after.events and not pos.after.is_terminal():
                board = english_text(linotte_words.render_text(pos.after, match.names))
                rows = board.splitlines()[:6]
                # the cells start under their column's letter, whatever their words' length
                starts = [rows[0].index(c) for c in "ABCDE"]
                for row in rows[1:]:
                    assert all(row[s - 1] == " " and row[s] != " " for s in starts[1:]), row
    assert {"linotte.ev.pawn", "linotte.ev.appel", "linotte.ev.line", "linotte.ev.points",
            "linotte.why.sec", "linotte.why.appel", "linotte.kind.carre", "linotte.kind.quinte"} <= used


def test_the_de_landais_throws_and_journal_are_english(matches):
    used = set()
    for match in matches("de-landais", ("Alice", "Bob", "Zoé"), (None, {"manches": 2, "target": 1000}),
                         count=3):
        names = match.names
        for pos in match.positions():
            if pos.after.last is not None:
                msg = landais_words.throw_text(pos.after.last)
                used |= ids(msg)
                english_text(msg)
            english_text(landais_words.pending_text(pos.after))
            english_text(landais_words.render_text(pos.after, names))
        for entry in journal(match.positions()):
            msg = landais_words.journal_entry(entry, names)
            used |= ids(msg)
            english_text(msg)
    assert {"landais.throw.poigne", "landais.throw.points", "landais.throw.troll",
            "landais.throw.licorne", "landais.journal.series", "landais.journal.end.seal",
            "landais.journal.end.vide", "landais.journal.opening", "landais.journal.won"} <= used


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_says_its_outcome_in_english(game_id, matches):
    game = find_game(game_id)
    names = ("Alice", "Bob", "Zoé")[: max(game.min_players, min(3, game.max_players))]
    options = [None] + ([{"manches": 2, "target": 1000}] if game_id == "de-landais" else [])
    for match in matches(game_id, names, options, count=1 if game_id.startswith("y") else 2):
        reason = english_text(family_of(game).text.reason(match.outcome(), match.names))
        assert re.search(r"\b(wins|loses|Game over|Draw)\b", reason), reason
    solo = english_text(family_of(game).text.reason(match.outcome(), match.names))
    assert solo.endswith(".")


# --- the command line -------------------------------------------------------------------


def cli(*argv: str, stdin: str = "", language: str = "en") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8", PYGAMES_LANG=language)
    return subprocess.run([sys.executable, "-m", "pygames", *argv], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=120)


def without_titles(out: str) -> str:
    """The output without the games' names, which stay French ("Jeu de la linotte")."""
    for game in GAMES.values():
        out = out.replace(str(game.title), "")
    return out.replace("Jeu de la linotte", "")


def test_the_help_is_english():
    done = cli("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m pygames [-h] COMMAND ...\n\nDice games.\n")
    assert "show this help" in done.stdout and "play in the terminal" in done.stdout
    english_text(done.stdout)
    for command in ("list", "replay", "play", "simulate", "solve", "score", "rank421", "linotte-score",
                    "landais-throw"):
        done = cli(command, "--help")
        assert done.returncode == 0 and done.stdout.startswith("usage: python -m pygames " + command)
        assert "  -h, --help" in done.stdout and "show this help" in done.stdout
        english_text(done.stdout)
    assert "NAME=VALUE" in cli("play", "--help").stdout


def test_list_is_english():
    done = cli("list")
    assert done.returncode == 0
    english_text(without_titles(done.stdout))
    assert "# Yams, 1 to 6 players, or solo against the sheet — Five dice, three rolls" in done.stdout
    assert "Four of a Kind counts as Two Pairs [yes|no]" in done.stdout
    assert "    computer: naive, simple, expert\n" in done.stdout
    assert "3,000 points" in done.stdout


def test_a_yams_game_is_played_in_english():
    done = cli("play", "yahtzee", "--seed", "1", "--players", "Léa",
               stdin="score chance\nroll\n?\nkeep 9\nscore nope\n")
    assert done.returncode == 1  # the input ran out
    out = done.stdout
    english_text(without_titles(out))
    assert "Aces" in out and "Full House" in out and "Yahtzee bonuses" in out and "Dice: " in out
    assert "Roll the dice first.  (type ? for the list of moves)" in out
    assert "Possible moves: " in out and "“keep 9”: write for example “keep 3 3 5”." in out
    assert "Unknown box in Yahtzee (international rules): “nope”." in out
    assert out.endswith("\nGame interrupted.\n")


def test_a_421_game_against_the_computer_ends_in_english():
    done = cli("play", "421", "--seed", "4", "--players", "Léa:simple,Paul:simple,Zoé:naive")
    assert done.returncode == 0
    english_text(without_titles(done.stdout))
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["outcome"]["reason"].endswith(" has all the tokens and loses the game.")
    assert "421 — " in done.stdout and " tokens" in done.stdout


def test_simulate_and_replay_in_english(tmp_path):
    done = cli("simulate", "421", "--games", "3", "--players", "A:simple,B:simple")
    assert done.returncode == 0 and done.stdout.startswith("421: 3 games")
    record = {"format": "pygames/1", "game": "421", "options": {}, "players":
              [{"name": "Léa", "seat": "human"}, {"name": "Paul", "seat": "human"}], "actions": []}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] is False
    record["actions"] = ["roll", "dice 1 1 1", "nonsense"]
    path.write_text(json.dumps(record), encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 2
    assert done.stderr == "error: Invalid move no. 3 (“nonsense”): Unknown move: “nonsense”.\n"
    english_text(done.stderr)


@pytest.mark.parametrize("argv, said", [
    (("play", "nope"), "error: Unknown game: “nope” (games: "),
    (("play", "421", "--players", "Alice"), "error: 421 is played by 2 to 6 players."),
    (("play", "421", "--players", "A,B:wizard"), "error: Unknown seat for \u2068B\u2069: “wizard”"),
    (("play", "yams", "-o", "single_prime=maybe"), "error: Option single_prime: “yes” or “no” expected"),
    (("play", "yams", "-o", "foo=1"), "error: Unknown option for Yams (full sheet): “foo”"),
    (("simulate", "421"), "error: 421 needs several players: give --players"),
    (("simulate", "yams", "--games", "x"), "error: --games: whole number expected, not “x” (help: "),
    (("play",), "error: missing GAME (help: python -m pygames play --help)"),
    (("replay", "/nonexistent/game.json"), "error: Cannot read /nonexistent/game.json: no such file"),
    (("rank421", "4", "2"), "error: Exactly 3 dice are needed (for example: rank421 4 2 1)."),
    (("landais-throw", "9", "9", "9"), "error: “9” is not a die (a face from 1 to 6)."),
    (("linotte-score", "AAA"), "error: Board: 25 characters expected (A, B or .), not 3: “AAA”."),
])
def test_errors_are_english(argv, said):
    done = cli(*argv)
    assert done.returncode == 2
    assert done.stderr.startswith(said), done.stderr
    english_text(without_titles(done.stderr))


def test_the_games_own_commands_answer_in_english():
    assert cli("rank421", "1", "1", "4").stdout == "7 fiche of 4 4\n"
    assert cli("rank421", "6", "6", "6").stdout.split(" ", 1)[1] == "three 6s 6\n"
    assert cli("rank421", "1", "1", "4", language="fr").stdout == "7 fiche de 4 4\n"
