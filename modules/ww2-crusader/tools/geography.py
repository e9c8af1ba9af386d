"""The facts the Crusader map is built from: the grid, the projection and the real places.

Every coordinate is WGS84 latitude/longitude in decimal degrees; where each comes from is in
``tools/README.md`` (``SOURCE`` below names it per place). Imported by ``build_map.py`` only; the test
``tests/test_ww2_crusader_map.py`` reads the same numbers from ``map.json``'s ``geography`` key, so this
file is the one place they are written.
"""

from __future__ import annotations

import math

# --- the projection -----------------------------------------------------------------------------------
# Equirectangular about the map's middle latitude: x = (lon - WEST) * KM_PER_DEG_LAT * cos(MID_LAT),
# y = (NORTH - lat) * KM_PER_DEG_LAT. Over 1.2 degrees of latitude the scale error is under 1 %.
WEST = 23.10  # longitude of column 01's centre (west of Gazala)
NORTH = 32.30  # latitude of row 01's centre in odd columns (off the Gazala-Tobruk coast)
MID_LAT = 31.75
KM_PER_DEG_LAT = 111.2
KM_PER_DEG_LON = KM_PER_DEG_LAT * math.cos(math.radians(MID_LAT))

# --- the grid -----------------------------------------------------------------------------------------
# The source's scale: a hex is about 15 km across its flats. Flat-topped hexes in columns running north-south,
# numbered CCRR from 0101 at the north-west corner, columns west to east, rows north to south; even columns sit
# half a hex lower.
HEX_ACROSS_KM = 15.0
RADIUS_KM = HEX_ACROSS_KM / math.sqrt(3)  # centre to corner
COLUMN_PITCH_KM = 1.5 * RADIUS_KM  # 12.99 km between column centres
ROW_PITCH_KM = HEX_ACROSS_KM  # 15 km between row centres
COLUMNS = 35  # to 27.77 E: 50 km east of Mersa Matruh
ROWS = 10  # to 31.01 N: south of Bir el Gubi and Sidi Omar

# --- the places ---------------------------------------------------------------------------------------
# name, latitude, longitude, kind (town: main terrain town; place: a named desert place on plain; fort: a
# fortification), source key (README "Sources of coordinates"), coastal (must lie on land next to sea).
PLACES: list[tuple[str, float, float, str, str, bool]] = [
    ("Tobruk", 32.07611, 23.96139, "town", "wp-tobruk", True),
    ("Bardia", 31.767, 25.100, "town", "wp-bardia", True),
    ("Sollum", 31.5500, 25.1600, "town", "wp-sallum", True),
    ("Sidi Barrani", 31.61083, 25.92556, "town", "wp-sidi-barrani", True),
    ("Mersa Matruh", 31.3500, 27.2330, "town", "wp-mersa-matruh", True),
    ("Gazala", 32.14528, 23.35750, "place", "wp-gazala", True),
    ("Buq Buq", 31.5100, 25.5500, "place", "approx", True),
    ("El Adem", 31.8667, 23.9000, "place", "wp-el-adem", False),
    ("Fort Capuzzo", 31.575167, 25.063333, "fort", "wp-it-capuzzo", False),
    ("Sidi Rezegh", 31.9000, 24.2000, "place", "approx", False),
    ("Gambut", 31.9400, 24.5000, "place", "approx", False),
    ("Bir el Gubi", 31.5200, 23.9000, "place", "approx", False),
    ("Sidi Omar", 31.3900, 24.9700, "place", "approx", False),
    ("Sidi Azeiz", 31.6700, 24.9300, "place", "approx", False),
    ("Bir Hakeim", 31.59389, 23.48000, "place", "wp-bir-hakeim", False),
]
HALFAYA = ("Halfaya Pass", 31.500, 25.183, "wp-halfaya")

# The coast road (Litoranea / Via Balbia in Libya, the coast road in Egypt), west to east: points it passes,
# joined hex by hex. The road crossed the escarpment at Halfaya and Sollum.
ROAD_WAYPOINTS: list[tuple[float, float]] = [
    (32.10, 23.10),  # west map edge, towards Derna and Cyrenaica: the Axis supply source
    (32.145, 23.3575),  # Gazala
    (32.02, 23.70),  # Acroma
    (32.07611, 23.96139),  # Tobruk
    (31.94, 24.50),  # Gambut
    (31.767, 25.100),  # Bardia
    (31.575167, 25.063333),  # Fort Capuzzo
    (31.5500, 25.1600),  # Sollum (down the escarpment through the Halfaya/Sollum passes)
    (31.5100, 25.5500),  # Buq Buq
    (31.61083, 25.92556),  # Sidi Barrani
    (31.3500, 27.2330),  # Mersa Matruh
    (31.05, 27.76),  # east map edge, towards El Daba and Alexandria: the British supply source
]
# The Egyptian State Railways' line from Alexandria ended at Mersa Matruh (its westward extension was built
# during Crusader); on this map it runs from the east edge along the coast to Matruh.
RAIL_WAYPOINTS: list[tuple[float, float]] = [(31.05, 27.76), (31.3500, 27.2330)]

# Escarpments where they shape the fighting (approximate traces, see README): the Sollum-Halfaya scarp, which
# the coast road climbs, and the Sidi Rezegh - El Duda scarp south-east of Tobruk. Hexsides they cross carry the
# feature "escarpment".
ESCARPMENTS: dict[str, list[tuple[float, float]]] = {
    "Sollum-Halfaya escarpment": [(31.63, 25.11), (31.53, 25.13), (31.45, 25.25), (31.28, 25.48)],
    "Sidi Rezegh escarpment": [(31.99, 23.98), (31.96, 24.10), (31.92, 24.25), (31.90, 24.40)],
}


# The Egypt-Libya border, north to south (approximate trace, see README): it reaches the sea in the Gulf of Sollum
# 8 km west of Sollum, passes 5 km east of Fort Capuzzo, and runs south to the 25th meridian. A hex is Egyptian
# when its centre lies east of the trace at its latitude.
BORDER: list[tuple[float, float]] = [(32.40, 25.08), (31.64, 25.08), (31.575, 25.11), (31.45, 25.06), (31.30, 25.04), (30.90, 25.03)]


def border_lon(lat: float) -> float:
    """The border's longitude at ``lat`` (linear between the trace's points)."""
    for (la, lo), (lb, lob) in zip(BORDER, BORDER[1:]):
        if lb <= lat <= la:
            t = 0.0 if la == lb else (la - lat) / (la - lb)
            return lo + t * (lob - lo)
    raise ValueError(f"latitude {lat} is outside the border trace")


def to_km(lat: float, lon: float) -> tuple[float, float]:
    """Projected (x east, y south) in km from the centre of hex 0101."""
    return (lon - WEST) * KM_PER_DEG_LON, (NORTH - lat) * KM_PER_DEG_LAT


def to_latlon(x: float, y: float) -> tuple[float, float]:
    """Inverse of :func:`to_km`."""
    return NORTH - y / KM_PER_DEG_LAT, WEST + x / KM_PER_DEG_LON


def centre_km(column: int, row: int) -> tuple[float, float]:
    """Centre of printed hex (column, row) in projected km."""
    x = (column - 1) * COLUMN_PITCH_KM
    y = (row - 1) * ROW_PITCH_KM + (ROW_PITCH_KM / 2 if column % 2 == 0 else 0.0)
    return x, y


def label(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"
