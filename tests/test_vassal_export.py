"""pbem module export: the .vmod read back by pbem's own VASSAL reader names every location and piece as the
module does; the scenario saves put every unit on its location; importing the export gives back the map and
counters; the same module gives the same bytes; names from data never escape the zip."""

from __future__ import annotations

import pytest

from pbem.export.vmod import export_module, vmod_bytes
from pbem.formats.vassal.importer import import_module
from pbem.formats.vassal.layout import map_layout
from pbem.formats.vassal.modulefile import module_from_archive
from pbem.formats.vassal.modulewriter import hex_numbering, member_name, vassal_hex_grid
from pbem.formats.vassal.archive import read_zip
from pbem.formats.vassal.savefile import read_saved_game
from pbem.model.errors import PbemError
from pbem.model.hexgrid import HexGridSpec
from pbem.model.jsonsource import load_json
from pbem.model.maps import HexMap
from pbem.model.module import load_module
from pbem.model.state import State

MODULES = ["china-war-1980", "red-winter", "paths-of-glory", "no-retreat"]  # no-retreat: pointy hexes, a sideways grid


@pytest.fixture(scope="module", params=MODULES)
def exported(request):
    module = load_module(request.param)
    result = export_module(module)
    data = vmod_bytes(result)
    return module, result, data, module_from_archive(read_zip(data, "x.vmod"), "x.vmod")


def test_every_location_named_as_the_module_labels_it(exported):
    module, result, _, read_back = exported
    (vassal_map,) = read_back.module.maps
    layout = map_layout(vassal_map)
    game_map = module.map
    wrong = []
    for index in range(len(game_map)):
        label = game_map.label(index)
        x, y = _centre(result, label, read_back)
        names = {layout.location_name(x, y)}
        if isinstance(game_map, HexMap):  # anywhere well inside the hex, not only its centre
            grid = vassal_map.boards[0].grid
            reach = int(min(grid.dx, grid.dy) * 0.4)
            names |= {layout.location_name(x + dx, y + dy) for dx in (-reach, 0, reach) for dy in (-reach, 0, reach)}
        if names != {label}:
            wrong.append((label, names))
    assert not wrong, wrong[:5]
    assert result.locations == len(game_map)


def _centre(result, label, read_back):
    (vassal_map,) = read_back.module.maps
    point = map_layout(vassal_map).point_of(label)
    assert point is not None, label
    return point


def test_every_unit_is_a_palette_piece_with_both_faces(exported):
    module, result, data, read_back = exported
    names = {slot.piece.name for slot in read_back.module.slots}
    assert names == set(module.units)
    archive = read_zip(data, "x.vmod")
    for slot in read_back.module.slots:
        layer = next(t for t in slot.traits if t.kind == "emb2;")
        faces = layer.fields[15].split(",")
        assert len(faces) == 2 and all(archive.get(f"images/{face}") for face in faces), slot.name


def test_scenario_saves_put_every_unit_on_its_location(exported):
    _check_saves(*exported)


def test_every_snap_centre_is_named_as_its_location(exported):
    """Where the export puts a unit (its snap centre, computed apart from the reader's point_of) is its hex."""
    module, result, _, read_back = exported
    from pbem.export.vmod import hex_board, point_board

    board = hex_board(module) if isinstance(module.map, HexMap) else point_board(module)
    layout = map_layout(read_back.module.maps[0])
    assert {label: layout.location_name(*point) for label, point in board.centres.items()} == {label: label for label in board.centres}
    if isinstance(module.map, HexMap):  # and the snap centre is the hex pbem drew on the board picture
        from pbem.art.maps import map_picture
        from pbem.art.style import load_style
        from pbem.export.vmod import HEX_SIZE

        drawn = map_picture(module.map, load_style(module.path), hex_size=HEX_SIZE).layout
        far = {label: point for label, point in board.centres.items()
               if max(abs(a - b) for a, b in zip(point, drawn.label_center(label))) > 1.5}
        assert not far, list(far.items())[:3]


def test_sideways_saves_put_every_sample_unit_on_its_hex(samples_as_scenarios):
    module = load_module(samples_as_scenarios("no-retreat"))
    result = export_module(module)
    data = vmod_bytes(result)
    placed = _check_saves(module, result, data, module_from_archive(read_zip(data, "x.vmod"), "x.vmod"))
    assert placed >= 60  # the six sample states put 72 units on the map


def _check_saves(module, result, data, read_back) -> int:
    placed_count = 0
    archive = read_zip(data, "x.vmod")
    layout = map_layout(read_back.module.maps[0])
    for scenario, path in module.scenarios.items():
        state = State.from_json(module, load_json(path))
        game = read_saved_game(archive.get(f"{scenario}.vsav"), scenario)
        pieces, stacks = game.pieces()
        placed = {piece.name.removesuffix(" (reduced)"): piece for piece in pieces.values()}
        on_map = {uid: u for uid, u in state.units.items() if u.at >= 0}
        assert set(placed) == set(on_map)
        assert sorted(result.off_map[scenario]) == sorted(set(state.units) - set(on_map))
        for unit_id, unit in on_map.items():
            piece = placed[unit_id]
            assert layout.location_name(piece.x, piece.y) == module.map.label(unit.at), unit_id
            layer = next(t for t in piece.traits if t.kind == "emb2;")
            assert int(layer.state) == (2 if unit.step else 1), unit_id
            assert piece.name == unit_id + (" (reduced)" if unit.step else "")
        members = [m for stack in stacks.values() for m in stack.children]
        assert sorted(members) == sorted(p.id for p in pieces.values())
        placed_count += len(on_map)
    return placed_count


def test_import_gives_back_the_map_and_the_counters(exported):
    module, result, data, read_back = exported
    imported = import_module(read_back)
    spaces = imported.files["map.json"]["spaces"]
    game_map = module.map
    labels = {game_map.label(i) for i in range(len(game_map))}
    assert labels <= set(spaces)
    if isinstance(game_map, HexMap):
        # VASSAL knows the board, not the map's edge: cells of the picture's margin (and a ragged edge's
        # absent hexes) come back too, and nothing else.
        spec = game_map.spec
        absent = set(load_json(module.path / "map.json").data.get("absent", []))
        for extra in set(spaces) - labels:
            try:
                h = spec.parse(extra)
            except ValueError:
                pytest.fail(f"{extra} is no label of the grid")
            assert not spec.contains(h) or extra in absent, extra
        expected = sorted(sorted([game_map.label(a), game_map.label(b)]) for a in range(len(game_map))
                          for b in game_map.neighbours[a] if game_map.label(a) < game_map.label(b))
        got = [c["between"] for c in imported.files["map.json"]["connections"] if set(c["between"]) <= labels]
        assert got == expected
    else:
        assert set(spaces) == labels
    assert {u["name"] for u in imported.files["counters.json"]["units"]} == set(module.units)
    assert imported.files["module.json"]["sides"] == list(module.sides)


def test_same_module_same_bytes(exported):
    module, _, data, _ = exported
    assert vmod_bytes(export_module(module)) == data


@pytest.mark.parametrize("name", ["../evil.png", "/etc/passwd", "a/../../b", "images/../../x", "", "a\\b", "x\x00.png", "a/b/c.png"])
def test_member_names_from_data_are_checked(name):
    with pytest.raises(PbemError):
        member_name(name)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("label,shifted,first", [("CCRR", "even", 10), ("CCRR", "odd", 1), ("letter-number", "odd", 1),
                                                 ("letter-number", "even", 2), ("CCCRRR", "even", 1), ("CCRR", "odd", 4)])
def test_numbering_matches_labels_for_any_first_column_and_shift(label, shifted, first, orientation):
    from pbem.art.layout import HexLayout
    from pbem.formats.vassal.grids import HexGrid, Numbering

    spec = HexGridSpec(label=label, first_column=first, columns=7, first_row=first + 2, rows=5, shifted=shifted,
                       orientation=orientation)
    layout = HexLayout.regular(spec, 30.0, margin=8.0)
    _, attributes = hex_numbering(spec)
    _, geometry = vassal_hex_grid(spec, layout.origin, layout.pitch)
    assert geometry["sideways"] == (orientation == "pointy")
    grid = HexGrid(**geometry, numbering=Numbering(first=attributes["first"], h_type=attributes["hType"], v_type=attributes["vType"],
                                                   h_off=attributes["hOff"], v_off=attributes["vOff"],
                                                   h_leading=attributes["hLeading"], v_leading=attributes["vLeading"], stagger=False))
    reach = int(min(layout.pitch) * 0.4)
    for h in spec.hexes():
        x, y = layout.center(h)
        names = {grid.location_name((round(x) + dx, round(y) + dy)) for dx in (-reach, 0, reach) for dy in (-reach, 0, reach)}
        assert names == {spec.label_of(h)}
        assert grid.location_name(grid.point_of(spec.label_of(h))) == spec.label_of(h)


def test_wide_letter_maps_are_refused():
    with pytest.raises(PbemError, match="26 columns"):
        hex_numbering(HexGridSpec(label="letter-number", first_column=1, columns=30, rows=3, shifted="odd"))


@pytest.mark.parametrize("name", ["china-war-1980", "red-winter", "no-retreat"])
def test_round_trip_through_the_cli_keeps_every_unit_on_its_hex(name, tmp_path, pbem, samples_as_scenarios):
    vmod = tmp_path / f"{name}.vmod"
    source = name if load_module(name).scenarios else samples_as_scenarios(name)
    assert pbem("module", "export", source, "--out", vmod).code == 0
    back = tmp_path / "back"
    result = pbem("module", "import", vmod, "--out", back)
    assert result.code == 0, result.err
    assert pbem("module", "validate", back).code == 0
    original, copy = load_module(source), load_module(back)
    assert original.scenarios
    by_name = {unit.name: unit_id for unit_id, unit in copy.units.items()}
    for scenario, path in original.scenarios.items():
        state = State.from_json(original, load_json(path))
        again = State.from_json(copy, load_json(copy.scenarios[scenario]))
        expected = {u: (original.map.label(s.at), s.step) for u, s in state.units.items() if s.at >= 0}
        got = {copy.units[u].name: (copy.map.label(s.at), s.step) for u, s in again.units.items() if s.at >= 0}
        assert got == expected
        assert set(by_name) == set(original.units)


def test_export_refuses_a_scenario_name_that_is_a_path(tmp_path, pbem):
    import shutil

    folder = tmp_path / "cw"
    shutil.copytree(load_module("china-war-1980").path, folder)
    manifest = (folder / "module.json").read_text().replace('"border-war": "scenarios/border-war.json"', '"../evil": "scenarios/border-war.json"')
    (folder / "module.json").write_text(manifest)
    result = pbem("module", "export", folder, "--out", tmp_path / "cw.vmod")
    assert result.code == 2 and "refusing" in result.err
    assert not (tmp_path / "cw.vmod").exists()
