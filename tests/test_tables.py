"""Malformed expert tables, for every family that has some (issue "Nothing lost across
versions", item 10): `load_tables` raises the one error (`GameError`, ``tables.unreadable``,
or ``tables.stale`` for a sound table of other rules) for every defect, inflates no more
than the header's states, and the command line says it in one French line."""

from __future__ import annotations

import hashlib
import io
import json
import struct
import time
import tracemalloc
import zlib
from importlib import import_module
from pathlib import Path

import pytest

from pygames import FAMILIES, GAMES, GameError, family_of
from pygames.cli import main
from pygames.tables import write_table

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "web" / "tables"
FAMILY_IDS = sorted(f.id for f in FAMILIES.values() if f.load_tables)
#: The smallest table each family ships (its header and payload serve the rebuilt ones).
SHIPPED = {"yams": "yams/yahtzee+plain.bin", "421": "421/421.bin",
           "de-landais": "de-landais/de-landais+target_1000.bin"}
BYTES_PER_STATE = {"yams": 2, "421": 8, "de-landais": 4}


def tables_module(family_id: str):
    return import_module(FAMILIES[family_id].load_tables.__module__)


def container(family_id: str, header, rest: bytes = b"") -> bytes:
    """The family's magic, then any JSON header, then `rest`."""
    text = json.dumps(header).encode()
    return tables_module(family_id).TABLE_MAGIC + struct.pack("<I", len(text)) + text + rest


def shipped(family_id: str) -> tuple[dict, bytes]:
    """(header, inflated payload) of the family's smallest shipped table."""
    data = (TABLES / SHIPPED[family_id]).read_bytes()
    magic = tables_module(family_id).TABLE_MAGIC
    (length,) = struct.unpack_from("<I", data, len(magic))
    start = len(magic) + 4
    return json.loads(data[start : start + length]), zlib.decompress(data[start + length :])


def refused(family_id: str, data, ids=("tables.unreadable",)) -> GameError:
    with pytest.raises(GameError) as err:
        FAMILIES[family_id].load_tables(data)
    assert type(err.value) is GameError and err.value.message.id in ids, err.value
    return err.value


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """About 1 MB that inflates to 1 GiB of zeros."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_RLE)
    zeros = bytes(1 << 24)
    data = b"".join([packer.compress(zeros) for _ in range(64)] + [packer.flush()])
    assert len(data) < 1_100_000
    return data


@pytest.mark.parametrize("family_id", FAMILY_IDS)
def test_a_table_of_the_magic_alone_is_refused(family_id):
    magic = tables_module(family_id).TABLE_MAGIC
    assert len(magic) == 8
    refused(family_id, magic)


@pytest.mark.parametrize("family_id", FAMILY_IDS)
@pytest.mark.parametrize("header", [
    [1, 2], "table", 3, None,
    {"format": 1, "states": 1.5, "sha256": "0" * 64},
    {"format": 1, "states": True, "sha256": "0" * 64},
    {"format": 1, "states": 0, "sha256": "0" * 64},
    {"format": 1, "states": -4, "sha256": "0" * 64},
    {"format": 1, "states": 10**40, "sha256": "0" * 64},
    {"format": 1, "states": "4", "sha256": "0" * 64},
    {"format": 1.0, "states": 4, "sha256": "0" * 64},
    {"format": 1, "states": 4, "sha256": None},
])
def test_a_header_of_the_wrong_shape_is_refused(family_id, header):
    refused(family_id, container(family_id, header, zlib.compress(bytes(32))))


@pytest.mark.parametrize("family_id", FAMILY_IDS)
def test_a_payload_that_inflates_to_a_gibibyte_fails_fast_and_small(family_id, bomb):
    """The header announces as many states as a table may hold: inflating stops one byte
    past them, whatever the payload holds."""
    states = tables_module(family_id).MAX_STATES
    data = container(family_id, {"format": 1, "states": states, "sha256": "0" * 64}, bomb)
    tracemalloc.start()
    try:
        start = time.perf_counter()
        err = refused(family_id, data)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "mauvaise longueur" in str(err)
    assert seconds < 10 and peak < 64 << 20, (seconds, peak)


@pytest.mark.parametrize("family_id", FAMILY_IDS)
def test_a_shipped_table_loads_and_any_byte_after_its_end_is_a_defect(family_id):
    data = (TABLES / SHIPPED[family_id]).read_bytes()
    assert FAMILIES[family_id].load_tables(data) is not None
    refused(family_id, data + b"\0")
    refused(family_id, data[:-1])


@pytest.mark.parametrize("change", [{"dice": -1}, {"dice": 0}, {"dice": True}, {"dice": 6},
                                    {"dice": 5.0}, {"rolls": 0}, {"rolls": 1.5}, {"rolls": 10**9}])
def test_a_yams_table_for_other_dice_is_refused_before_its_layout(change):
    header, payload = shipped("yams")
    refused("yams", write_table(tables_module("yams").TABLE_MAGIC, {**header, **change}, payload))


@pytest.mark.parametrize("target, floor", [(10**12, -2000), (1000, -10**12), (10**6, -2000)])
def test_a_landais_table_too_large_for_its_values_is_refused_before_its_rows(target, floor):
    """Even with the fingerprint of its target and floor, which anyone can compute."""
    module = tables_module("de-landais")
    header, payload = shipped("de-landais")
    header = dict(header, target=target, floor=floor, fingerprint=module.fingerprint(target, floor))
    start = time.perf_counter()
    refused("de-landais", write_table(module.TABLE_MAGIC, header, payload))
    assert time.perf_counter() - start < 5


def _raw(family_id: str, payload: bytes, states: int) -> bytes:
    module = tables_module(family_id)
    return {"yams": getattr(module, "_raw_codes", None), "de-landais": getattr(module, "_raw", None)}.get(
        family_id, lambda payload, states: payload)(payload, states)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def header_fields(family_id: str):
    """A header that passes the container's checks (format, states, sha256 of its payload)
    with the family's own fields drawn near and far from what they should be."""
    header, _ = shipped(family_id)
    games = sorted({g.id for g in GAMES.values() if family_of(g).id == family_id}) + ["yams", "421", ""]
    near = {
        "game": st.sampled_from(games),
        "options": st.dictionaries(st.sampled_from([o.id for g in GAMES.values() for o in g.options]),
                                   json_values, max_size=3),
        "dice": st.integers(-2, 7), "rolls": st.integers(-2, 4),
        "target": st.sampled_from([50, 1000, 3000, -50, 0]), "floor": st.sampled_from([0, -50, -2000, 50]),
        "scale": st.sampled_from([0, 1, 256, 2**32 - 1, -1]),
    }
    fields = {key: st.one_of(st.just(value), near.get(key, json_values), json_values)
              for key, value in header.items() if key not in ("format", "states", "sha256")}
    return st.fixed_dictionaries({}, optional=fields)


@pytest.mark.parametrize("family_id", FAMILY_IDS)
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_header_over_a_sound_container_is_the_one_error_or_loads(family_id, data):
    states = data.draw(st.integers(1, 40), label="states")
    payload = data.draw(st.binary(min_size=states * BYTES_PER_STATE[family_id],
                                  max_size=states * BYTES_PER_STATE[family_id]), label="payload")
    header = dict(data.draw(header_fields(family_id), label="header"), format=1, states=states,
                  sha256=hashlib.sha256(_raw(family_id, payload, states)).hexdigest())
    blob = write_table(tables_module(family_id).TABLE_MAGIC, header, payload)
    try:
        FAMILIES[family_id].load_tables(blob)
    except GameError as err:
        assert type(err) is GameError and err.message.id in ("tables.unreadable", "tables.stale"), err


@pytest.mark.parametrize("family_id", FAMILY_IDS)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_damaged_shipped_table_is_the_one_error_or_loads(family_id, data):
    """Bytes changed, cut or added anywhere in the 421's table (small), or in the first
    hundreds of bytes of the others (their header and the start of their payload)."""
    original = (TABLES / SHIPPED[family_id]).read_bytes()
    reach = len(original) if family_id == "421" else 600
    damaged = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4), label="changes")):
        at = data.draw(st.integers(0, reach - 1), label="at")
        kind = data.draw(st.sampled_from(["flip", "cut", "insert"]), label="kind")
        if kind == "flip":
            damaged[at] ^= data.draw(st.integers(1, 255), label="mask")
        elif kind == "cut":
            del damaged[at : at + data.draw(st.integers(1, 8), label="length")]
        else:
            damaged[at:at] = data.draw(st.binary(min_size=1, max_size=8), label="bytes")
    if bytes(damaged) == original:
        return
    try:
        FAMILIES[family_id].load_tables(bytes(damaged))  # a harmless change in the JSON loads
    except GameError as err:
        assert type(err) is GameError and err.message.id in ("tables.unreadable", "tables.stale"), err


# --- the command line -----------------------------------------------------------------


def expert_game(family_id: str):
    """A game of the family, its expert seats, and its table's file name (under the family)."""
    game = next(g for g in GAMES.values() if family_of(g).id == family_id and "expert" in g.seats)
    seats = "A:expert" if game.min_players <= 1 else "A:expert,B:simple"
    return game, seats, FAMILIES[family_id].game_tables(game, {})


def bad_tables(family_id: str, bomb: bytes) -> dict[str, bytes]:
    return {
        "magic": tables_module(family_id).TABLE_MAGIC,
        "list": container(family_id, [1, 2]),
        "states": container(family_id, {"format": 1, "states": 1.5, "sha256": "0" * 64}),
        "bomb": container(family_id, {"format": 1, "states": tables_module(family_id).MAX_STATES,
                                      "sha256": "0" * 64}, bomb),
    }


def run(argv, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue(), capsys.readouterr().err


@pytest.mark.parametrize("family_id", FAMILY_IDS)
@pytest.mark.parametrize("defect", ["magic", "list", "states", "bomb"])
def test_simulate_and_play_with_a_malformed_table_say_it_in_one_line(
        family_id, defect, bomb, tmp_path, capsys, monkeypatch):
    game, seats, name = expert_game(family_id)
    path = tmp_path / (name + ".bin")
    path.parent.mkdir(parents=True)
    path.write_bytes(bad_tables(family_id, bomb)[defect])
    code, out, err = run(["simulate", game.id, "--players", seats, "--games", "2",
                          "--tables", str(path.parent)], capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("erreur\u00a0: Tables de l'expert illisibles\u00a0: ") and err.count("\n") == 1, err
    monkeypatch.setattr("pygames.cli.DEFAULT_TABLES", str(tmp_path))  # where play reads them
    code, out, err = run(["play", game.id, "--players", seats, "--seed", "1"], capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("erreur\u00a0: Tables de l'expert illisibles\u00a0: ") and err.count("\n") == 1, err


STEPPED = sorted(f.id for f in FAMILIES.values() if f.load_steps)


def run_steps(family_id: str, data: bytes):
    """(the tables, how many times the reading yielded) of `load_steps` run a step at a time."""
    steps, count = FAMILIES[family_id].load_steps(data), 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value, count
        count += 1


def test_the_large_tables_are_read_in_steps_for_the_page():
    """web/app/shell.py reads a table a slice per task: Yams' and the Dé Landais' have steps."""
    assert STEPPED == ["de-landais", "yams"]


@pytest.mark.parametrize("name, least", [("yams/yams.bin", 80), ("de-landais/de-landais.bin", 8)])
def test_a_table_read_in_steps_is_the_table_read_at_once(name, least):
    family_id = name.split("/")[0]
    data = (TABLES / name).read_bytes()
    stepped, count = run_steps(family_id, data)
    whole = FAMILIES[family_id].load_tables(data)
    assert count >= least  # slices of at most STEP_STATES states, INFLATE_PIECE, HASH_PIECE bytes
    assert stepped.codes == whole.codes and stepped.header == whole.header
    if family_id == "yams":
        assert stepped.value(0, 0) == whole.value(0, 0) == pytest.approx(316.85, abs=0.01)


@pytest.mark.parametrize("family_id", STEPPED)
def test_a_damaged_table_read_in_steps_is_refused_as_at_once(family_id):
    header, payload = shipped(family_id)
    damaged = bytearray(payload)
    damaged[len(damaged) // 2] ^= 0x40
    module = tables_module(family_id)
    data = write_table(module.TABLE_MAGIC, header, bytes(damaged))
    with pytest.raises(GameError) as err:
        run_steps(family_id, data)
    assert err.value.message.id == "tables.unreadable"
    assert refused(family_id, data).args == err.value.args
