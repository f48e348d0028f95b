"""Hostile input, over every registered game (issue 13, minor items 4-9): the CLI ends
with exit 2 and one short readable line, error messages quote a short prefix, names with
nothing visible are refused, core actions with wrong field types are IllegalAction; and
the page's guard (web/app/guard.py) on what it reads from storage."""

from __future__ import annotations

import io
from pathlib import Path

import guard
import pytest

from pygames import GAMES, GameError, IllegalAction, Match, Player, family_of, load_match
from pygames.cli import main
from pygames.core import Action, BadRecord, Throw
from pygames.dice import Roll

ROOT = Path(__file__).resolve().parent.parent


GAME_IDS = sorted(GAMES)


def run(argv, capsys):
    out = io.StringIO()
    code = main(list(argv), out)
    err = capsys.readouterr().err
    return code, out.getvalue(), err


def first_players(game):
    return [Player(f"P{i + 1}") for i in range(max(game.min_players, 1))]


def started(game):
    match = Match(game, first_players(game))
    match.advance_chance()
    return match


# --- item 4: replay ---------------------------------------------------------------------


def test_replay_of_a_lone_surrogate_name_is_refused(tmp_path, capsys):
    path = tmp_path / "sur.json"
    path.write_text('{"format":"pygames/1","game":"yams","players":[{"name":"\\ud800"}],'
                    '"options":{},"actions":[]}')
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "invalide" in err


@pytest.mark.parametrize("text", [
    '{"a":' + "[" * 20000 + "]" * 20000 + "}",
    '{"format":"pygames/1","game":"yams","n":' + "9" * 5000 + "}",
    "\xff\xfe",
])
def test_replay_of_unreadable_json_is_one_line(tmp_path, capsys, text):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="latin-1")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and err.startswith("erreur\u00a0: ") and err.count("\n") == 1 and len(err) < 400


# --- item 5: options, seeds, tables in every subcommand ---------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("value", ["²", "--5", "9" * 5000, ""])
def test_a_bad_option_value_is_one_line(game_id, value, capsys):
    game = GAMES[game_id]
    if not game.options:
        pytest.skip("no option")
    opt = game.options[0].id
    seats = ",".join(f"B{i}:simple" for i in range(max(game.min_players, 1)))
    for argv in (["play", game_id, "-o", f"{opt}={value}", "--players", seats],
                 ["simulate", game_id, "-o", f"{opt}={value}", "--games", "2", "--players", seats]):
        code, out, err = run(argv, capsys)
        assert code == 2 and err.count("\n") == 1 and len(err) < 400, argv


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_seed_that_is_not_text_still_plays(game_id, capsys):
    game = GAMES[game_id]
    seats = ",".join(f"B{i}:simple" for i in range(max(game.min_players, 1)))
    code, out, err = run(["play", game_id, "--seed", "\udcff", "--players", seats], capsys)
    assert code == 0 and err == ""


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if family_of(GAMES[g]).game_tables(
    GAMES[g], {}) and "expert" in GAMES[g].seats])
@pytest.mark.parametrize("content", [b"\x00\x01", b"[1, 2]", b""])
def test_simulate_with_a_bad_table_is_one_line(game_id, content, tmp_path, capsys):
    game = GAMES[game_id]
    name = family_of(game).game_tables(game, {})
    (tmp_path / (name.split("/")[-1] + ".bin")).write_bytes(content)
    seats = "A:expert" if game.min_players <= 1 else "A:expert,B:simple"
    code, out, err = run(["simulate", game_id, "--players", seats, "--games", "2",
                          "--tables", str(tmp_path)], capsys)
    assert code == 2 and err.count("\n") == 1


# --- item 6: score's dice ---------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["score", "yams", "four_kind", "1", "1", "1", "1", ""],
    ["score", "yams", "four_kind", "1", "1", "1", "6 6"],
    ["rank421", "4", "2", ""],
    ["landais-throw", "2", "3", "6 6"],
])
def test_a_die_is_one_face(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1


# --- item 7: short quotes ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_error_messages_quote_a_short_prefix(game_id):
    game = GAMES[game_id]
    with pytest.raises(GameError) as err:
        game.resolve_options({str(i) * 3: 1 for i in range(100_000)})
    assert len(str(err.value)) < 300
    for text in ("x" * 5_000_000, "dice " + "1 " * 100_000, "keep " + "9" * 10_000):
        with pytest.raises(GameError) as err:
            started(game).apply(text)
        assert len(str(err.value)) < 300
    with pytest.raises(BadRecord) as err:
        load_match({"format": "pygames/1", "game": game_id, "players": [{"name": "A" * 10**6}],
                    "actions": []})
    assert len(str(err.value)) < 300


def test_a_page_notice_is_short():
    assert len(guard.short("x" * 2_000_000)) <= guard.MAX_NOTICE


# --- item 8: names -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\u200b", "\u202e", " \u200b\u200c\u2060 ", "\u3164", "\u0301",
                                  "\ud800", "a\udfff"])
def test_a_name_with_nothing_visible_is_refused(name):
    with pytest.raises(GameError):
        Player(name)


@pytest.mark.parametrize("name", ["Zoé", "李", "\u202eAlice", "عمر", "a\u200bb"])
def test_names_with_something_visible_are_kept(name):
    assert Player(name).name == name


def test_names_are_placed_as_data_never_searched_for():
    """A name that also occurs in the sentence's words ("a", "Ann" in "Anna") is marked
    only where the message put it."""
    from pygames.messages import Msg, Name, isolated, render, text

    msg = Msg("outcome.won", player=Name("a"), points=Msg("count.points", n=80))
    assert render(msg) == [("a", True), (" gagne avec 80 points.", False)]
    both = Msg("outcome.draw", players=[Name("Ann"), Name("Anna")], points=Msg("count.points", n=1))
    assert [c for c, is_name in render(both) if is_name] == ["Ann", "Anna"]
    assert text(both) == "Égalité entre Ann et Anna (1 point)."
    assert isolated(render(msg)) == "\u2068a\u2069 gagne avec 80 points."


def test_a_long_text_is_cut_with_its_names_kept_apart():
    pieces = guard.short_pieces([("Zoé", True), (" gagne " + "x" * 400, False)], 20)
    assert pieces[0] == ("Zoé", True) and sum(len(c) for c, _ in pieces) == 20
    assert pieces[-1][0].endswith("…")


def test_the_stylesheet_isolates_every_name():
    css = (ROOT / "web" / "static" / "css" / "style.css").read_text(encoding="utf-8")
    assert ".name, .who, .whose, bdi { unicode-bidi: isolate; }" in css
    shell = (ROOT / "web" / "app" / "shell.py").read_text(encoding="utf-8")
    assert 'el("span", players[p].name' not in shell


# --- item 9: core actions with wrong field types -------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_actions_with_wrong_field_types_are_illegal(game_id):
    game = GAMES[game_id]
    match = started(game)
    state = match.state
    bad = [Action(), Throw((2.0,) * 5), Throw((True,) * 5), Throw("11111"), Throw(None)]
    for action in bad:
        with pytest.raises(IllegalAction):
            state.apply(action)
    with pytest.raises(IllegalAction):
        Roll((), positions=(0,))
    with pytest.raises(IllegalAction):
        Roll((3, 3), positions=(0,))
    for kind in game.actions:
        for args in ((), (None,), ([1],), ("x",), (2.5,)):
            try:
                action = kind(*args)
            except (IllegalAction, TypeError):
                continue  # TypeError: the constructor itself wants other arguments
            try:
                state.apply(action)
            except IllegalAction:
                pass
    # the state is unchanged and still plays
    assert match.state is state and state.legal_actions()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_throws_of_wrong_types_are_illegal_at_a_chance_node(game_id):
    game = GAMES[game_id]
    match = Match(game, first_players(game))
    while not match.state.is_chance() and not match.state.is_terminal():
        match.apply(match.state.legal_actions()[0])
    state = match.state
    if not state.is_chance():
        pytest.skip("no chance node")
    n = state.dice_to_throw()
    for faces in ((2.0,) * n, (True,) * n, (0,) * n, (7,) * n, (1,) * (n + 1)):
        with pytest.raises(IllegalAction):
            state.apply(Throw(faces))


# --- the page's guard on stored values -----------------------------------------------------


def test_depth_is_measured_on_the_raw_text_before_json():
    deep = '{"record":' + "[" * 20000 + "]" * 20000 + "}"
    assert guard.nesting_depth(deep) > guard.MAX_DEPTH
    assert guard.nesting_depth('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"["}') == 1
    with pytest.raises(guard.BadStored):
        guard.read_json(deep)
    with pytest.raises(guard.BadStored):
        guard.read_json("x" * (guard.MAX_STORED + 1))
    for text in ("{", "NaN]", "1e999999", None, "[" + "9" * 5000 + "]"):
        with pytest.raises(guard.BadStored):
            guard.read_json(text)


@pytest.mark.parametrize("value", [[], "x", 5, None, {"record": []}, {"record": "x"},
                                   {"record": {}, "embed": 3}])
def test_a_saved_match_blob_is_checked(value):
    with pytest.raises(guard.BadStored):
        guard.check_saved_match(value)


# (The stored setup preferences: tests/test_setup_rules.py.)


def test_a_bad_value_is_kept_aside_bounded():
    assert guard.aside_key("pygames:yams:match", 12) == "pygames:corrupt:pygames:yams:match:12"
    assert len(guard.aside_value("x" * 10**7)) <= guard.MAX_ASIDE + 1
