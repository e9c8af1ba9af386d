"""Paths of Glory map: spaces and connections against the digest and the real data, VASSAL positions, names."""

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from pbem.formats.notation.names import Names
from pbem.model.module import load_module
from pbem.model.names import fold

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
MODULE = REPO / "modules" / "paths-of-glory"
DATA = SHARED / "data" / "paths-of-glory"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data/paths-of-glory is absent")


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, MODULE / "tools" / f"{name}.py")
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)
    return code


def neighbours(pog, name):
    m = pog.map
    return sorted(m.label(n) for n in m.neighbours[m.index(name)])


def test_both_sheets_every_space_and_connection(pog):
    m = pog.map
    assert len(m) == 281
    assert sum(len(n) for n in m.neighbours) // 2 == 476
    sheets = [m.extra[i]["sheet"] for i in range(len(m))]
    assert sheets.count("europe") == 218 and sheets.count("neareast") == 63


def test_western_front_connections_follow_the_digest(pog):
    # Digest 4.8's Western Front table, a few rows in full.
    assert neighbours(pog, "Sedan") == ["Brussels", "Cambrai", "Chateau Thierry", "Koblenz", "Liege", "Metz", "Verdun"]
    assert neighbours(pog, "Paris") == ["Amiens", "Chateau Thierry", "Melun", "Orleans", "Rouen"]
    assert neighbours(pog, "Calais") == ["Amiens", "Cambrai", "London", "Ostend"]
    assert neighbours(pog, "Belfort") == ["Dijon", "Mulhouse", "Nancy"]
    m = pog.map
    # The seed's own retreat example (12.5.5): Sedan -> Cambrai -> Chateau Thierry.
    assert m.is_adjacent(m.index("Sedan"), m.index("Cambrai")) and m.is_adjacent(m.index("Cambrai"), m.index("Chateau Thierry"))
    assert m.distance(m.index("Sedan"), m.index("Chateau Thierry")) == 1


def test_nation_restricted_connections(pog):
    m = pog.map
    restricted = {tuple(sorted((m.label(a), m.label(b)))): sorted(n) for (a, b), n in m.restricted.items()}
    assert len(restricted) == 24
    assert restricted[("Calais", "London")] == ["BR"]
    assert restricted[("Taranto", "Valona")] == ["IT"]
    assert restricted[("Caucasus", "Grozny")] == ["RU"]
    assert restricted[("Aqaba", "Medina")] == ["ANA", "TU"]
    assert restricted[("Gallipoli", "MEF1")] == ["MEF"]
    london, calais = m.index("London"), m.index("Calais")
    assert m.may_cross(london, calais, "BR") and not m.may_cross(london, calais, "FR")
    assert m.may_cross(m.index("Paris"), m.index("Amiens"), "GE")


def test_forts_ports_capitals_supply_terrain(pog):
    m = pog.map
    forts = {m.label(i): m.extra[i]["fort"] for i in range(len(m)) if "fort" in m.extra[i]}
    # Digest 4.8: forts with their LF (= CF).
    expected = {
        "Paris": 1, "Antwerp": 1, "Liege": 3, "Verdun": 3, "Nancy": 2, "Belfort": 2, "Strasbourg": 3, "Metz": 3,
        "Trent": 3, "Trieste": 3, "Breslau": 2, "Posen": 2, "Thorn": 2, "Danzig": 2, "Konigsberg": 3, "Cracow": 2,
        "Belgrade": 1, "Ivangorod": 1, "Warsaw": 2, "Lomza": 1, "Riga": 3, "Kovno": 1, "Grodno": 1,
        "Brest Litovsk": 1, "Lutsk": 1, "Dubno": 1, "Przemysl": 3, "Odessa": 3, "Trebizond": 1, "Erzerum": 1,
        "Basra": 1, "Aqaba": 1, "Beersheba": 2, "Gaza": 2,
    }  # fmt: skip
    assert forts == expected
    ports = {m.label(i): m.extra[i]["port"] for i in range(len(m)) if "port" in m.extra[i]}
    assert sorted(p for p, side in ports.items() if side == "cp") == sorted(
        ["Wilhelmshaven", "Kiel", "Rostock", "Stettin", "Kolberg", "Danzig", "Konigsberg", "Memel", "Libau", "Riga"]
    )
    assert len([p for p, side in ports.items() if side == "ap"]) == 19
    capitals = {m.label(i): m.extra[i]["capital_of"] for i in range(len(m)) if "capital" in m.features[i]}
    assert capitals["Brussels"] == "BE" and capitals["Vienna"] == capitals["Budapest"] == "AH" and len(capitals) == 13
    sources = {m.label(i): m.supply[i] for i in range(len(m)) if m.supply[i]}
    assert sources == {
        "London": "ap", "Essen": "cp", "Breslau": "cp", "Belgrade": "ap", "Petrograd": "ap", "Moscow": "ap",
        "Kharkov": "ap", "Caucasus": "ap", "Sofia": "cp", "Constantinople": "cp",
    }  # fmt: skip
    assert m.extra[m.index("Moscow")]["supply_for"] == ["RU", "RO", "SB"]
    terrain = {name: m.terrain[m.index(name)] for name in ("Calais", "Sedan", "Belfort", "Medina", "Paris")}
    assert terrain == {"Calais": "swamp", "Sedan": "forest", "Belfort": "mountain", "Medina": "desert", "Paris": "clear"}
    assert "near_east" in m.features[m.index("Bursa")] and "near_east" not in m.features[m.index("Adrianople")]
    assert "vp" not in m.features[m.index("Liege")]
    # VP spaces: the standard (classic) map, and the historical map of LR2022 5.7.2.2-5.7.2.3 (the CSV's set).
    vp = {m.label(i) for i in range(len(m)) if "vp" in m.features[i]}
    historical = {m.label(i) for i in range(len(m)) if "vp_historical" in m.features[i]}
    assert vp - historical == {"Ahwaz", "Venice", "Minsk", "Jerusalem", "Kharput"}
    assert historical - vp == {"Kovno", "Sedan", "Amiens", "Koblenz", "Aachen"}
    assert len(vp) == len(historical) == 62 and {"Paris", "Berlin", "Verdun", "Warsaw"} <= vp & historical


@needs_data
def test_map_file_is_what_the_tool_builds_from_the_data():
    built = _tool("build_map").build(SHARED)
    assert json.loads((MODULE / "map.json").read_text(encoding="utf-8")) == built


@needs_data
def test_every_csv_space_has_a_vassal_region_and_the_rest_are_listed():
    regions = _tool("build_map").classic_regions(DATA / "vassal" / "buildFile.xml")
    rows = [r for r in csv.DictReader((DATA / "rtt" / "spaces.csv").open(encoding="utf-8")) if r["map"] in ("europe", "neareast")]
    assert len(rows) == 281
    assert [r["name"] for r in rows if r["name"] not in regions] == []
    spaces = {r["name"] for r in rows}
    # Regions of the VASSAL board that are not spaces of the CSVs (README lists them): sea and front
    # labels, and the two "virtual" spaces VASSAL keeps for Bursa and Constantinople on the Europe sheet.
    extra = {name for name, _ in regions.items() if name not in spaces and not name[:1].isdigit()}
    on_map = {n for n in extra if 100 < regions[n][0] < 5000 and 100 < regions[n][1] < 3250}
    assert {
        "Austria", "Bursa Virtual Space", "Constantinople Virtual Space", "France", "Mediterranean",
        "Near East Approach", "North Sea", "Russia",
    } <= on_map  # fmt: skip


def _affine_residuals(src, dst):
    def det(m):
        return (
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        )

    rows = [(x, y, 1.0) for x, y in src]
    normal = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]

    def solve(values):
        d = det(normal)
        out = []
        for k in range(3):
            m = [row[:] for row in normal]
            for i in range(3):
                m[i][k] = values[i]
            out.append(det(m) / d)
        return out

    cx = solve([sum(r[i] * t[0] for r, t in zip(rows, dst)) for i in range(3)])
    cy = solve([sum(r[i] * t[1] for r, t in zip(rows, dst)) for i in range(3)])
    return [
        ((cx[0] * x + cx[1] * y + cx[2] - a) ** 2 + (cy[0] * x + cy[1] * y + cy[2] - b) ** 2) ** 0.5
        for (x, y), (a, b) in zip(src, dst)
    ], cx


@needs_data
def test_vassal_positions_agree_with_the_rtt_map_on_each_sheet(pog):
    # The two implementations drew the same map at different scales: one affine map per sheet carries every
    # RTT position to within half a space (about 45 VASSAL pixels) of the VASSAL region.
    rows = list(csv.DictReader((DATA / "rtt" / "spaces.csv").open(encoding="utf-8")))
    m = pog.map
    for sheet in ("europe", "neareast"):
        chosen = [r for r in rows if r["map"] == sheet]
        residuals, cx = _affine_residuals(
            [(float(r["x"]), float(r["y"])) for r in chosen], [m.positions[m.index(r["name"])] for r in chosen]
        )
        assert 2.0 < cx[0] < 2.1
        worst = max(zip(residuals, (r["name"] for r in chosen)))
        assert worst[0] < 45, worst


def test_names_as_players_write_them(pog):
    m = pog.map
    assert m.label(m.index("Château-Thierry")) == "Chateau Thierry"
    assert m.label(m.index("st amand")) == "St. Amand"
    assert m.label(m.index("BREST-LITOVSK")) == "Brest Litovsk"
    with pytest.raises(KeyError):
        m.index("Chateau")  # the model wants a whole name; the notation takes prefixes
    names = Names(pog)
    assert names.location("Chât") == ("Chateau Thierry", "")
    assert names.location("Cana")[0] == "Cana Kale"
    found, refusal = names.location("Con")
    assert found is None and "Constanta" in refusal and "Constantinople" in refusal
    assert fold("Çanakkale") == "canakkale"


def test_the_map_picture_shows_forts_vp_spaces_and_ports(pog):
    from pbem.art.maps import map_picture

    picture = map_picture(pog.map, scale=0.5)
    image = picture.image.convert("RGB")
    m = pog.map

    def pixels_near(name, dx, dy, radius=3):
        x, y = picture.centers[m.index(name)]
        return {image.getpixel((round(x + dx + i), round(y + dy + j))) for i in range(-radius, radius + 1) for j in range(-radius, radius + 1)}

    half = picture.radius
    wide = half * 1.3  # a space's box is wider than tall (a long name widens it further)
    assert (0x10, 0x10, 0x10) in pixels_near("Verdun", -wide, -half)  # fort badge
    assert (0x10, 0x10, 0x10) not in pixels_near("Cambrai", -wide, -half)
    assert (0x1D, 0x3F, 0x8F) in pixels_near("Calais", wide, half, radius=4)  # port: an anchor
    names = {label.text: label for label in picture.name_labels}

    def red_near(name):
        x, y = names[name].at
        return {image.getpixel((round(x + i), round(y + j))) for i in range(-8, 9) for j in range(-3, 4)} & {(0xC0, 0, 0)}

    assert red_near("Verdun") and not red_near("Liege")  # a VP space's name is red (3.0)
    x, y = picture.centers[m.index("Verdun")]
    assert image.getpixel((round(x), round(y + half - 1))) == (0xC0, 0, 0)  # and so is its outline
