"""Property-based attacks (hypothesis) over every registered game: random and mutated
records into `load_match` and `replay`, garbage notations into `parse_action` and
`Match.apply`, bad arguments for every CLI command (the generic ones and each family's
own).  The only outcomes allowed: the project's own errors (GameError), exit 2 with one
short line, and an unchanged state.  Example counts are bounded so the module stays fast.
"""

from __future__ import annotations

import io
import json
import random
import string

import pytest
from support import reason_text

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pygames import FAMILIES, GAMES, GameError, Match, Player, load_match  # noqa: E402
from pygames.bots import RandomBot  # noqa: E402
from pygames.cli import main  # noqa: E402
from pygames.core import BadRecord, play_out  # noqa: E402

GAME_IDS = sorted(GAMES)
FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def record_of(game_id: str, seed: int, plies: int) -> dict:
    """A real record: a game played at random for up to `plies` actions."""
    game = GAMES[game_id]
    players = [Player(f"P{i + 1}") for i in range(max(game.min_players, 1))]
    from pygames import DiceSampler

    match = Match(game, players, sampler=DiceSampler(f"h{seed}"))
    rng = random.Random(seed)
    while not match.state.is_terminal() and len(match.history) < plies:
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    return match.to_record()


RECORDS = {g: [record_of(g, s, n) for s, n in ((1, 0), (2, 7), (3, 40))] for g in GAME_IDS}

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                      st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def mutate(record: dict, data) -> object:
    """A record with one field, one action, one player or one option replaced."""
    record = json.loads(json.dumps(record))
    where = data.draw(st.sampled_from(["field", "action", "player", "option", "drop", "whole"]))
    if where == "field":
        record[data.draw(st.sampled_from(sorted(record)))] = data.draw(json_value)
    elif where == "action" and record["actions"]:
        i = data.draw(st.integers(0, len(record["actions"]) - 1))
        record["actions"][i] = data.draw(st.one_of(json_value, st.text(max_size=20),
                                                   st.sampled_from(sum(RECORDS.values(), [])[-1]["actions"]
                                                                   or ["roll"])))
    elif where == "player":
        record["players"][0] = data.draw(st.one_of(json_value, st.fixed_dictionaries(
            {"name": st.text(max_size=50), "seat": st.text(max_size=10)})))
    elif where == "option":
        record["options"][data.draw(st.text(max_size=10))] = data.draw(json_value)
    elif where == "drop":
        record.pop(data.draw(st.sampled_from(sorted(record))))
    else:
        return data.draw(json_value)
    return record


@pytest.mark.parametrize("game_id", GAME_IDS)
@FAST
@given(data=st.data())
def test_mutated_records_load_or_give_bad_record(game_id, data):
    base = data.draw(st.sampled_from(RECORDS[game_id]))
    record = mutate(base, data)
    for form in (record, json.dumps(record)):
        try:
            match = load_match(form)
        except BadRecord:
            continue
        # What loads replays the same and saves back to a loadable record.
        assert load_match(match.to_record()).to_record() == match.to_record()


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_replay_of_mutated_files_exits_0_or_2(game_id, data, tmp_path_factory, capsys):
    base = data.draw(st.sampled_from(RECORDS[game_id]))
    record = mutate(base, data)
    text = json.dumps(record)
    if data.draw(st.booleans()):  # cut or damage the text itself
        cut = data.draw(st.integers(0, len(text)))
        text = text[:cut] + data.draw(st.text(max_size=5))
    path = tmp_path_factory.mktemp("r") / "game.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    out = io.StringIO()
    code = main(["replay", str(path)], out)
    err = capsys.readouterr().err
    assert code in (0, 2)
    if code == 2:
        assert err.startswith("erreur\u00a0: ") and err.count("\n") == 1 and len(err) < 500
    else:
        json.loads(out.getvalue())


notation_words = st.one_of(
    st.sampled_from(sorted({v for g in GAMES.values() for k in g.actions for v in k.verbs} | {"dice"})),
    st.text(alphabet=string.printable + "é²½\u202e\u200b", max_size=6),
    st.integers(-3, 9).map(str),
    st.sampled_from(["@1,2", "@0", "@9,9,9", "+", "-", "1e9", "½"]),
)
notations = st.lists(notation_words, max_size=8).map(" ".join) | st.text(max_size=60)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(text=notations, which=st.integers(0, 2))
def test_garbage_notations_are_refused_and_change_nothing(game_id, text, which):
    game = GAMES[game_id]
    match = load_match(RECORDS[game_id][which])
    state, history = match.state, list(match.history)
    try:
        action = game.parse_action(text)
    except GameError:
        return
    assert game.parse_action(action.notation()) == action  # what parses round-trips
    try:
        match.apply(action)
    except GameError:
        assert match.state is state and match.history == history
        return
    assert action in state.legal_actions() or state.is_chance()


# --- the CLI: every command, bad arguments ---------------------------------------------

COMMANDS = ["list", "replay", "play", "simulate", "solve"] + [
    name for family in FAMILIES.values() for name in family.commands]
bad_arg = st.one_of(
    st.sampled_from(["-o", "--option", "--players", "--seed", "--games", "--tables", "--start",
                     "--jobs", "--seat", "--target", "--floor", "--all", "--write"]),
    st.sampled_from(GAME_IDS + ["", "nope", "-", "--", "²", "0", "-5", "9" * 5000, "\udcff",
                                "A:expert,B:nope", "{}", "[", "x=y", "single_prime=²"]),
    st.text(alphabet=string.printable + "é²\u202e", max_size=12),
)


@pytest.mark.parametrize("command", COMMANDS)
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(args=st.lists(bad_arg, max_size=6))
def test_bad_arguments_give_exit_2_and_one_line(command, args, capsys, monkeypatch, tmp_path):
    if command == "solve" or "--write" in args:  # the solver runs for minutes: only its refusals
        args = [a for a in args if a not in ("--all", "--write")]
    if command == "simulate":
        args = args + ["--games", "2", "--jobs", "1"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play: an empty input ends the game
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    if command == "solve" and args and args[0] in GAMES and not any(a.startswith("-") for a in args):
        return  # a real solve: not a bad argument
    try:
        code = main([command, *args], out)
    except SystemExit as exit_:  # argparse's own usage errors
        code = exit_.code
    err = capsys.readouterr().err
    assert code in (0, 1, 2), (command, args)
    if code == 2 and err.startswith("erreur"):
        assert err.count("\n") == 1 and len(err) < 500


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_games_end_with_an_outcome(game_id):
    """Random play (the random bot) ends every game, with a readable outcome."""
    game = GAMES[game_id]
    for seed in range(3):
        players = [Player(f"P{i}") for i in range(max(game.min_players, 2) if game.max_players > 1 else 1)]
        from pygames import DiceSampler

        match = Match(game, players, sampler=DiceSampler(f"rnd{seed}"))
        bot = RandomBot(seed)
        play_out(match, bot)
        assert reason_text(match)
