"""Every version of the Paths of Glory VASSAL module the mapping claims is read (issue 27, item 10): 10.0 and 10.1
name their counters in full ('GE 1st Army'), 10.2 to 10.8 short ('GE1'); a version it does not claim is refused in
one line; a position read empty, or with most unit pieces named by no rule, is an input error, never a report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pog_vassal_support import FAMILY_OF, NAMES, POSITION, Counter, log_bytes, save_bytes

from pbem.formats.vassal.mapping import check_mapping, load_mapping
from pbem.model.errors import PbemError

CLAIMED = ["10.0", "10.1", "10.2", "10.3", "10.4", "10.5", "10.6", "10.6a", "10.7", "10.8"]


@pytest.fixture(scope="module")
def pog():
    from pbem.model.module import load_module

    return load_module("paths-of-glory")


def _read(pog, path):
    from pbem.formats.vassal.to_state import open_game, state_of

    opened = open_game(str(path), pog)
    return state_of(opened), opened


def _position(state) -> dict:
    return {u["id"]: (u["at"], u.get("step", 0)) for u in state["units"]}


def test_the_mapping_claims_exactly_the_versions_its_families_read(pog):
    mapping = load_mapping(pog)
    assert [v for e in mapping.data["vassal_modules"] for v in e["versions"]] == CLAIMED
    assert {v: mapping.family_of(v)["name"] for v in CLAIMED} == FAMILY_OF
    assert not mapping.answers_to("Paths of Glory", "10.9") and not mapping.answers_to("Paths of Glory", "9.1")


@pytest.mark.parametrize("version", CLAIMED)
def test_each_version_reads_its_own_piece_names(pog, tmp_path, version):
    family = FAMILY_OF[version]
    save = tmp_path / "game.vsav"
    save.write_bytes(save_bytes(NAMES[family], version))
    state, opened = _read(pog, save)
    assert _position(state) == POSITION
    assert opened.mapping.version_read == f"VASSAL module Paths of Glory {version} (pieces named as in {family})"
    assert opened.namer.warnings == []


@pytest.mark.parametrize("family", sorted(NAMES))
def test_a_save_without_its_version_is_read_as_the_family_its_pieces_belong_to(pog, tmp_path, family):
    save = tmp_path / "setup.vsav"  # a module's predefined set-up records no version
    save.write_bytes(save_bytes(NAMES[family], None))
    state, opened = _read(pog, save)
    assert _position(state) == POSITION
    assert opened.mapping.family["name"] == family
    assert opened.mapping.version_read == f"VASSAL module version not recorded in the file; its pieces are named as in {family}"


def test_the_cli_reads_a_10_0_save_and_says_which_version_it_is(pbem, tmp_path):
    save = tmp_path / "old.vsav"
    save.write_bytes(save_bytes(NAMES["10.0-10.1"], "10.0"))
    result = pbem("vassal", "state", save)  # the module is found from the save's own moduledata
    assert result.code == 0, result.err
    assert "9 units, 6 on the map" in result.out and "Aachen: GE-1-ARMY" in result.out
    assert f"{save}: VASSAL module Paths of Glory 10.0 (pieces named as in 10.0-10.1)" in result.out
    out = tmp_path / "state.json"
    summary = json.loads(pbem("vassal", "state", save, "--out", out, "--format", "json").out)
    assert (summary["vassal_version"], summary["vassal_family"], summary["units"]) == ("10.0", "10.0-10.1", 9)


@pytest.mark.parametrize("version", ["10.1", "10.8"])
def test_pbem_check_reads_a_log_of_each_family(pbem, tmp_path, version):
    log = tmp_path / "turn.vlog"
    log.write_bytes(log_bytes(NAMES[FAMILY_OF[version]], version, [(0, "Liege")]))  # GE 1st Army, Aachen to Liege
    result = pbem("check", log, "--format", "json")
    assert result.code == 1, result.err  # read, and judged: no card was played for the move (9.2.5)
    report = json.loads(result.out)
    assert report["vassal"] == f"VASSAL module Paths of Glory {version} (pieces named as in {FAMILY_OF[version]})"
    assert report["actions"] == 1 and [v["rule"] for v in report["violations"]] == ["9.2.5"]
    text = pbem("check", log)
    assert f"{log}: VASSAL module Paths of Glory {version}" in text.err


@pytest.mark.parametrize("version", ["10.9", "9.1", "11.0"])
def test_a_version_the_mapping_does_not_claim_is_refused_in_one_line(pbem, tmp_path, version):
    save = tmp_path / "new.vsav"
    save.write_bytes(save_bytes(NAMES["10.2-10.8"], version))
    for args in ((), ("--module", "paths-of-glory")):
        result = pbem("vassal", "state", save, *args)
        assert result.code == 2 and result.out == ""
        assert len(result.err.strip().splitlines()) == 1, result.err
        assert f"'Paths of Glory' version '{version}'" in result.err and "10.0, 10.1, 10.2" in result.err
    assert pbem("check", save, "--state", save).code == 2


def test_a_save_whose_pieces_are_mostly_unnamed_is_an_error_not_a_warning_list(pbem, tmp_path):
    # A 10.0 save labelled 10.8 (or a version renaming its pieces again): two pieces named, six not ('RU Cav'
    # is named alike in both).
    counters = NAMES["10.2-10.8"][:2] + NAMES["10.0-10.1"][2:]
    save = tmp_path / "mislabelled.vsav"
    save.write_bytes(save_bytes(counters, "10.8"))
    out = tmp_path / "state.json"
    result = pbem("vassal", "state", save, "--out", out)
    assert result.code == 2 and not out.exists()
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "6 of 9 unit pieces are named by no rule" in result.err and "'BR BEF Army'" in result.err
    assert "reading VASSAL module Paths of Glory 10.8 (pieces named as in 10.2-10.8)" in result.err
    log = tmp_path / "mislabelled.vlog"
    log.write_bytes(log_bytes(counters, "10.8", [(0, "Liege")]))
    checked = pbem("check", log)
    assert checked.code == 2 and "6 of 9 unit pieces" in checked.err


def test_a_few_unnamed_pieces_are_warnings(pbem, tmp_path):
    save = tmp_path / "spare.vsav"
    save.write_bytes(save_bytes(NAMES["10.2-10.8"] + [Counter("Zeppelin", "Metz")], "10.8"))
    result = pbem("vassal", "state", save)
    assert result.code == 0 and "9 units" in result.out
    assert "warning: piece 'Zeppelin' at Map / Metz" in result.err and "no unit in the mapping" in result.err


@pytest.mark.parametrize("counters, message", [
    ([], "no unit piece named by the paths-of-glory VASSAL mapping"),
    (NAMES["10.0-10.1"][:-1], "8 unit pieces ('BR BEF Army', 'FR 5th Army', 'FR Army of the Orient', ...), none of them named"),
])
def test_an_empty_position_is_never_reported(pbem, tmp_path, counters, message):
    save = tmp_path / "empty.vsav"
    save.write_bytes(save_bytes(counters, "10.8", markers=3))
    result = pbem("vassal", "state", save)
    assert result.code == 2 and result.out == "" and len(result.err.strip().splitlines()) == 1
    assert message in result.err and "an empty position is not read" in result.err


def _changed(pog, change):
    from pbem.formats.vassal.mapping import Mapping
    from pbem.model.jsonsource import parse_json

    data = json.loads((Path(pog.path) / "vassal.json").read_text())
    change(data)
    return Mapping(pog, parse_json(json.dumps(data), "vassal.json"))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["version_families"][0]["versions"].append("10.9"), "not one the mapping claims"),
    (lambda d: d["version_families"][1].update(name="10.0-10.1"), "two version families"),
    (lambda d: d["version_families"][0]["units"]["pieces"].append({"name": "^(?P<a>X)$", "unit": "{b}-ARMY"}), "not a group"),
    (lambda d: d["version_families"][0]["units"]["pieces"].append({"name": "^(X$", "unit": "X"}), "not a regular expression"),
    (lambda d: d["version_families"][0]["units"].update(reduced_name="^\\((.+)\\)$"), "needs a group named 'name'"),
    (lambda d: d["markers"][0]["value"].update(level="{depth}"), "not a group of the marker's name regex"),
    (lambda d: d["cards"].update(card="{SIDE}-{num:02}"), "not a group of the card image regex"),
])
def test_version_families_are_checked_like_the_top_level(pog, change, message):
    with pytest.raises(PbemError, match=message):
        check_mapping(_changed(pog, change))


def test_a_save_on_the_deluxe_historical_board_is_read_with_its_own_places(pog, tmp_path):
    from pog_vassal_support import regions

    classic, deluxe = regions(), regions("Deluxe Historical Map")
    assert classic["Aachen"] != deluxe["Aachen"]  # the same space lies elsewhere on the other board
    save = tmp_path / "historical.vsav"
    save.write_bytes(save_bytes(NAMES["10.2-10.8"], "10.8", board="Deluxe Historical Map"))
    state, opened = _read(pog, save)
    assert _position(state) == POSITION
    assert state["scenario"] == "1914-historical" and state["status"]["vp_map"] == "historical"
    classic_save = tmp_path / "classic.vsav"
    classic_save.write_bytes(save_bytes(NAMES["10.2-10.8"], "10.8", board="Classic Map"))
    assert _read(pog, classic_save)[0]["status"]["vp_map"] == "classic"


def test_a_save_on_a_board_the_mapping_does_not_place_is_refused(pbem, tmp_path):
    save = tmp_path / "other-board.vsav"
    save.write_bytes(save_bytes(NAMES["10.2-10.8"], "10.8", board="Mystery Map", placed_on="Classic Map"))
    result = pbem("vassal", "state", save)
    assert result.code == 2 and result.out == "" and len(result.err.strip().splitlines()) == 1
    assert "map 'Map' holds board 'Mystery Map', which the paths-of-glory VASSAL mapping does not place" in result.err


def test_a_hostile_version_string_is_shown_short_and_on_one_line(pbem, tmp_path):
    from pog_vassal_support import HOW, metadata, restore_tree

    from pbem.formats.vassal.archive import write_zip
    from pbem.formats.vassal.commands import encode_tree
    from pbem.formats.vassal.obfuscation import obfuscate

    save = tmp_path / "hostile.vsav"
    raw = obfuscate(encode_tree(restore_tree(NAMES["10.2-10.8"])).encode("utf-8"), HOW)
    save.write_bytes(write_zip({"savedGame": raw, "moduledata": metadata("10.8\n" + "9" * 100_000)}))
    result = pbem("vassal", "state", save)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1 and len(result.err) < 600


def test_pbem_check_of_a_chain_names_each_log_s_module_version(pbem, tmp_path):
    logs = []
    for n, version in enumerate(("10.1", "10.8"), start=1):
        log = tmp_path / f"t{n}.vlog"
        log.write_bytes(log_bytes(NAMES[FAMILY_OF[version]], version, [(0, "Liege")]))
        logs.append(log)
    text = pbem("check", *logs)
    assert text.code == 1, text.err  # judged: no card was played for the moves (9.2.5)
    for log, version in zip(logs, ("10.1", "10.8")):
        assert f"{log}: VASSAL module Paths of Glory {version} (pieces named as in {FAMILY_OF[version]})" in text.err.splitlines()
    report = json.loads(pbem("check", *logs, "--format", "json").out)
    assert [f["vassal"] for f in report["chain"]] == [f"VASSAL module Paths of Glory {v} (pieces named as in {FAMILY_OF[v]})" for v in ("10.1", "10.8")]


def test_a_chain_s_file_without_a_recorded_version_says_so(pbem, tmp_path):
    log = tmp_path / "t1.vlog"
    log.write_bytes(log_bytes(NAMES["10.2-10.8"], "10.8", [(0, "Liege")]))
    save = tmp_path / "t2.vsav"
    save.write_bytes(save_bytes(NAMES["10.2-10.8"], None))  # a predefined set-up records no version
    text = pbem("check", log, save, "--module", "paths-of-glory")
    assert f"{log}: VASSAL module Paths of Glory 10.8" in text.err
    assert any(line.startswith(f"{save}: VASSAL module version not recorded in the file") for line in text.err.splitlines()), text.err
