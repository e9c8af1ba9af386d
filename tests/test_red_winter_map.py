"""Red Winter map terrain against the eye verdicts of the contact-sheet pass (modules/red-winter/tools/README.md)."""

import importlib.util
from pathlib import Path

import pytest

from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "red-winter"
IMAGE = REPO.parent / "shared" / "data" / "red-winter" / "Red_Winter_Map-150.jpg"

# A sample of every terrain type, read on the contact sheets: plain hexes, hexes under roads or printed names,
# shores and islands, and every hex the issue-13 audit or the sheet pass corrected.
FOREST = "A1 A20 B13 C8 D13 E2 F14 G9 H25 I23 J16 K15 K25 L16 M8 M11 O21 O22 P15 Q25 R27 S19 W27 X21 X28"
SUO = (
    "A13 B1 C13 E14 G12 I7 J10 N19 O19 R29 T5 X1 X15 "
    # the audit's 32 (roads, trails and names over bog)
    "B14 B21 B22 C9 C13 D10 D14 D20 D21 E19 F9 F23 G12 J1 J14 K12 L1 L7 M7 N1 N2 O6 P18 P19 Q5 Q26 R18 T28 U27 "
    "V5 W4 X12 "
    "O18"  # the sheet pass: the road junction stands on bog
)
FROZEN_LAKE = (
    "B3 C3 G4 H7 H22 I20 J20 L14 N22 Q12 U5 W16 X23 "
    "P5 U29 V29 A16 K11 K16 L23 I24 I19 "  # the audit's lake names and island edges; I19 is not a village
    "V31"  # the sheet pass: the centre is on the ice
)
VILLAGE = "A21 E13 F21 G18 G19 G22 H18 H19 H20 H21 I17 I18 K20 M16 N16 O1 S11 T22"


@pytest.fixture(scope="module")
def rw():
    return load_module(MODULE)


@pytest.mark.parametrize(
    "label, terrain",
    [(label, "forest") for label in FOREST.split()]
    + [(label, "suo") for label in SUO.split()]
    + [(label, "frozen_lake") for label in FROZEN_LAKE.split()]
    + [(label, "village") for label in VILLAGE.split()],
)
def test_terrain_as_the_contact_sheets_show_it(rw, label, terrain):
    assert rw.map.terrain[rw.map.index(label)] == terrain


def test_every_terrain_type_is_sampled():
    assert {len(s.split()) >= 10 for s in (FOREST, SUO, FROZEN_LAKE, VILLAGE)} == {True}


def test_place_names_sit_where_the_map_prints_them(rw):
    m = rw.map
    assert m.names[m.index("O22")] == "Kivisalmi (bridge)" and "bridge" in m.hexside(m.index("O21"), m.index("O22"))
    assert m.names[m.index("N22")] is None
    assert m.names[m.index("J16")] == "Hevossalmi (bridge)" and "bridge" in m.hexside(m.index("J16"), m.index("K15"))


def test_contact_sheets_label_every_hex_asked_for(tmp_path):
    if not IMAGE.is_file():
        pytest.skip("../shared/data/red-winter/Red_Winter_Map-150.jpg is not present")
    from PIL import Image

    spec = importlib.util.spec_from_file_location("contact_sheets", MODULE / "tools" / "contact_sheets.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main([str(IMAGE), str(tmp_path), "--only", "A1,O18,V31", "--across", "2"]) == 0
    (sheet,) = sorted(tmp_path.glob("sheet-*.png"))
    with Image.open(sheet) as picture:
        size = picture.size
    # three tiles, two across: two columns and two rows of (tile + 4 px gap); a tile is 1.6 pitch x 2 wide
    width, height = size[0] // 2 - 4, size[1] // 2 - 4
    assert abs(width - 2 * 1.6 * 59.9) < 6 and abs(height - (2 * 1.6 * 69.2 + tool.CAPTION)) < 6
    assert tool.main([str(IMAGE), str(tmp_path), "--only", "A31"]) == 2  # not a hex: A31 is absent
    assert len(tool.terrain_by_label()) == 732


def test_contact_sheet_tool_refuses_bad_input_in_one_line(tmp_path, capsys):
    from PIL import Image

    spec = importlib.util.spec_from_file_location("contact_sheets", MODULE / "tools" / "contact_sheets.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    small = tmp_path / "small.png"
    Image.new("RGB", (40, 30)).save(small)
    out = tmp_path / "out"
    assert tool.main([str(small), str(out)]) == 2
    assert tool.main([str(tmp_path / "missing.jpg"), str(out)]) == 2
    assert tool.main([str(small), str(out), "--columns", "F-A"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert errors == [f"{small}: image is 40x30, the calibration was measured on 1650x2550", f"{tmp_path / 'missing.jpg'}: cannot read the image (No such file or directory)", "--columns: 'F-A' is not a range of columns A-X such as A-F"]
    assert not out.exists()  # nothing written
