"""pbem module export of a counter with three establishment states (WWII Campaign: Crusader, ③ ② ①): every unit is a
palette piece whose layer carries all its faces, pbem's own VASSAL reader finds each one and the map, a piece on its
third face reads back as step 2, and importing the export gives three steps back (issue 29)."""

from __future__ import annotations

import json
import zipfile

import pytest

from pbem.export.vmod import export_module, vmod_bytes
from pbem.formats.vassal.archive import read_zip
from pbem.formats.vassal.layout import map_layout
from pbem.formats.vassal.modulefile import module_from_archive
from pbem.formats.vassal.modulewriter import level_names, piece_type
from pbem.formats.vassal.sequence import join_chain, split
from pbem.formats.vassal.traits import decode_piece
from pbem.model.module import load_module

MODULE = "ww2-crusader"


@pytest.fixture(scope="module")
def exported():
    module = load_module(MODULE)
    result = export_module(module)
    data = vmod_bytes(result)
    return module, result, data, module_from_archive(read_zip(data, "crusader.vmod"), "crusader.vmod")


def test_every_unit_has_a_face_per_step(exported):
    module, _, data, read_back = exported
    archive = read_zip(data, "crusader.vmod")
    slots = {slot.piece.name: slot for slot in read_back.module.slots}
    assert set(slots) == set(module.units)
    three = 0
    for unit_id, unit in module.units.items():
        layer = next(t for t in slots[unit_id].piece.traits if t.kind == "emb2;")
        faces = split(layer.fields[15], ",")
        names = split(layer.fields[16], ",")
        steps = len(unit.type.steps)
        assert len(faces) == max(2, steps), unit_id
        assert len(set(faces)) == len(faces) and all(archive.get(f"images/{face}") for face in faces), unit_id
        assert names == level_names(len(faces), steps)
        three += steps == 3
    assert three >= 20  # most divisions have three states; brigades two


def _faces(data: bytes, read_back, unit_id: str):
    from io import BytesIO

    from PIL import Image

    archive = read_zip(data, "crusader.vmod")
    slot = next(slot for slot in read_back.module.slots if slot.piece.name == unit_id)
    layer = next(t for t in slot.piece.traits if t.kind == "emb2;")
    return [Image.open(BytesIO(archive.get(f"images/{face}"))).convert("RGB") for face in split(layer.fields[15], ",")]


def test_the_three_faces_differ_as_the_establishment_bar_does(exported):
    _, _, data, read_back = exported
    faces = _faces(data, read_back, "DE-5LEI-1941")
    top = [face.getpixel((face.width // 2, 2)) for face in faces]
    assert top[1] == (0x11, 0x11, 0x11) and top[2] == (255, 255, 255) and top[0] not in top[1:]


def test_each_counter_prints_its_designation(exported):
    """Pavia and Bologna have the same values and symbol: the export draws each unit's own counter, its number
    printed (art.json's export_designations), so the two differ only in the top-right corner."""
    _, _, data, read_back = exported
    pavia, bologna = (_faces(data, read_back, unit)[0] for unit in ("IT-17-PAVIA", "IT-25-BOLOGNA"))
    differ = [(x, y) for x in range(pavia.width) for y in range(pavia.height) if pavia.getpixel((x, y)) != bologna.getpixel((x, y))]
    assert differ and all(x > pavia.width // 2 and y < pavia.height // 4 for x, y in differ)


def test_the_map_reads_back_with_every_hex(exported):
    module, result, _, read_back = exported
    (vassal_map,) = read_back.module.maps
    layout = map_layout(vassal_map)
    labels = [module.map.label(i) for i in range(len(module.map))]
    assert result.locations == len(labels) >= 300
    assert all(layout.location_name(*layout.point_of(label)) == label for label in labels)


def test_a_third_face_reads_back_as_the_third_step(exported, tmp_path, pbem):
    """A piece flipped twice is named "ID (reduced 2)"; the imported module's mapping reads it as step 2, the plain
    "(reduced)" as step 1, and each imported counter has as many steps as the unit."""
    from pbem.formats.vassal.mapping import load_mapping

    module, _, data, _ = exported
    (tmp_path / "c.vmod").write_bytes(data)
    assert pbem("module", "import", tmp_path / "c.vmod", "--out", tmp_path / "back").code == 0
    copy = load_module(tmp_path / "back")
    mapping = load_mapping(copy)
    assert mapping.face("DE-5LEI-1941 (reduced 2)") == ("DE-5LEI-1941", 2)
    assert mapping.face("DE-5LEI-1941 (reduced)") == ("DE-5LEI-1941", 1)
    assert mapping.face("DE-5LEI-1941") == ("DE-5LEI-1941", 0)
    assert {unit.name: len(unit.type.steps) for unit in copy.units.values()} == {
        unit_id: len(unit.type.steps) for unit_id, unit in module.units.items()}


def test_piece_names_on_each_face():
    type_text = piece_type("DE-5LEI-1941", "f.png", "b.png", more=["t.png"])
    for level, name in ((1, "DE-5LEI-1941"), (2, "DE-5LEI-1941 (reduced)"), (3, "DE-5LEI-1941 (reduced 2)")):
        piece = decode_piece("1", type_text, join_chain([str(level), "null;0;0;1;0"]))
        assert piece.name == name


def test_two_face_counters_keep_their_old_type():
    """The two-face chain is what exports wrote before three faces existed (byte-identical modules)."""
    assert level_names(2, 2) == ["", "+ (reduced)"] and level_names(2, 1) == ["", ""]
    assert piece_type("X", "f.png", "b.png") == piece_type("X", "f.png", "b.png", more=())


def test_scenario_save_puts_every_set_up_unit_on_its_hex(exported):
    from pbem.formats.vassal.savefile import read_saved_game
    from pbem.model.jsonsource import load_json
    from pbem.model.state import State

    module, result, data, read_back = exported
    archive = read_zip(data, "crusader.vmod")
    layout = map_layout(read_back.module.maps[0])
    for scenario, path in module.scenarios.items():
        state = State.from_json(module, load_json(path))
        pieces, _ = read_saved_game(archive.get(f"{scenario}.vsav"), scenario).pieces()
        on_map = {uid: u for uid, u in state.units.items() if u.at >= 0}
        placed = {p.name.split(" (reduced")[0]: p for p in pieces.values()}
        assert set(placed) == set(on_map) and on_map
        for unit_id, unit in on_map.items():
            assert layout.location_name(placed[unit_id].x, placed[unit_id].y) == module.map.label(unit.at)


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_export_designations_must_be_true_or_false(tmp_path, value):
    from pbem.art.style import load_style
    from pbem.model.errors import PbemError

    (tmp_path / "art.json").write_text(json.dumps({"designation": "-([0-9]+)$", "export_designations": value}))
    with pytest.raises(PbemError, match="export_designations must be true or false"):
        load_style(tmp_path)


def test_without_export_designations_pictures_stay_one_per_type(exported, monkeypatch):
    """The key is what makes the difference: the same module without it shares one picture per counter type."""
    from dataclasses import replace

    import pbem.export.vmod as vmod

    module, _, _, _ = exported
    plain = replace(vmod.load_style(module.path), export_designations=False)
    monkeypatch.setattr(vmod, "load_style", lambda path: plain)
    files = export_module(module).files
    assert "images/it_17_pavia-front.png" in files and not any(name.startswith("images/IT-") for name in files)


def test_a_set_up_unit_on_its_third_face_reads_back_on_step_2(tmp_path, pbem):
    """A scenario with the 5th Light on ① and Ariete on ② exported, imported, and its save read as a pbem state:
    each unit on its hex and establishment state."""
    import shutil

    folder = tmp_path / "crusader"
    shutil.copytree(load_module(MODULE).path, folder, ignore=shutil.ignore_patterns("tools", "__pycache__"))
    scenario = folder / "scenarios" / "crusader.json"
    data = json.loads(scenario.read_text())
    placed = {unit["id"]: unit for unit in data["units"]}
    placed["DE-5LEI-1941"]["step"] = 2
    placed["IT-132-ARIETE"]["step"] = 1
    scenario.write_text(json.dumps(data))
    assert pbem("module", "export", folder, "--out", tmp_path / "c.vmod").code == 0
    assert pbem("module", "import", tmp_path / "c.vmod", "--out", tmp_path / "back").code == 0
    with zipfile.ZipFile(tmp_path / "c.vmod") as vmod:
        (tmp_path / "crusader.vsav").write_bytes(vmod.read("crusader.vsav"))
    result = pbem("vassal", "state", tmp_path / "crusader.vsav", "--module", tmp_path / "back", "--format", "json")
    assert result.code == 0, result.err
    units = {unit["id"]: unit for unit in json.loads(result.out)["units"]}
    assert (units["P-DE-5LEI-1941"]["at"], units["P-DE-5LEI-1941"].get("step")) == (placed["DE-5LEI-1941"]["at"], 2)
    assert (units["P-IT-132-ARIETE"]["at"], units["P-IT-132-ARIETE"].get("step")) == (placed["IT-132-ARIETE"]["at"], 1)
    assert units["P-IT-27-BRESCIA"].get("step", 0) == 0
