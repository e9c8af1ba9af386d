"""Convert the campaign set-up (``data/red-winter/campaign-setup.json``) to ``scenarios/campaign.json``.

The set-up is a log of placement events in a 3300 x 5100 board space, twice the 150 dpi image: a counter's
``left``/``top`` is its top-left corner, and the counter's centre lies ``PIECE_OFFSET`` board units further
on (fitted: the Soviet stacks then land on Q25 and R27 as printed on their counters, F21 and H19 likewise).
Pieces on the turn track go to the ``turn_track`` box; units the set-up never places go to ``off_map``
(the St batteries, the variable armour, optional counters) or ``turn_track`` (a turn of arrival printed).
Events after the log's 'SETUP COMPLETE' message are play, not set-up, and are ignored.
Usage: ``python modules/red-winter/tools/build_setup.py ../shared/data/red-winter/campaign-setup.json``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
PIECE_OFFSET = (40, 36)  # board units from a counter's top-left corner to its centre (least-squares over all pieces)
BOARD_SCALE = 2.0  # board units per image pixel
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"


def calibration() -> dict:
    return json.loads((HERE / "calibration.json").read_text())


def hex_at(x: float, y: float, cal: dict) -> tuple[str | None, float]:
    """The hex whose centre is nearest to image pixel (x, y), and the distance in column pitches."""
    (ox, oy), (px, py) = cal["origin"], cal["pitch"]
    best: tuple[float, str | None] = (math.inf, None)
    guess = round((x - ox) / px) + 1
    for column in (guess - 1, guess, guess + 1):
        if not 1 <= column <= 24:
            continue
        top = oy - (0 if column % 2 else py / 2)
        row_guess = round((y - top) / py) + 1
        for row in (row_guess - 1, row_guess, row_guess + 1):
            if not 1 <= row <= (30 if column % 2 else 31):
                continue
            d = math.hypot(x - (ox + (column - 1) * px), y - (top + (row - 1) * py))
            if d < best[0]:
                best = (d, f"{LETTERS[column - 1]}{row}")
    return best[1], best[0] / px


def final_pieces(events: list[dict]) -> dict[str, dict]:
    """Component id -> its last known piece name, board, position and side up, replaying the log."""
    pieces: dict[str, dict] = {}
    for event in events:
        kind, p = event["event_type"], event["payload"]
        if kind == "chat" and "SETUP COMPLETE" in p.get("message", ""):
            break  # what follows is a game played from the set-up, not the set-up
        cid = p.get("component_id")
        if kind == "create_component":
            pieces[cid] = {"tray": p["tray_component_id"], "board": p["game_board_id"], "left": p["left"], "top": p["top"], "flips": 0}
        elif cid in pieces and kind == "move_component":
            pieces[cid].update(left=p["left"], top=p["top"])
            if "game_board_id" in p:
                pieces[cid]["board"] = p["game_board_id"]
        elif cid in pieces and kind == "flip_component":
            pieces[cid]["flips"] += 1
        elif kind == "delete_component":
            pieces.pop(cid, None)
    return pieces


def piece_name(tray: str) -> tuple[str, bool]:
    """``C_3-erp112_back`` -> (``3-erp112``, reduced)."""
    name = tray[2:] if tray.startswith("C_") else tray
    reduced = name.endswith("_back")
    name = name.removesuffix("_back").replace("_at", " at")
    return name, reduced


def convert(events: list[dict]) -> tuple[list[dict], list[str]]:
    cal = calibration()
    counters = json.loads((HERE / "counters.json").read_text())
    by_piece = {u["aliases"][0]: u["id"] for u in counters["units"]}
    codes = json.loads((HERE / "tables.json").read_text())["setup_codes"]["units"]
    found: dict[str, list[dict]] = {}
    notes: list[str] = []
    for piece in final_pieces(events).values():
        name, reduced = piece_name(piece["tray"])
        unit = by_piece.get(name)
        if unit is None:
            continue  # markers
        entry: dict = {"id": unit}
        if piece["board"] == "main_game_board":
            x = (piece["left"] + PIECE_OFFSET[0]) / BOARD_SCALE
            y = (piece["top"] + PIECE_OFFSET[1]) / BOARD_SCALE
            label, distance = hex_at(x, y, cal)
            entry["at"] = label or "off_map"
            entry["_distance"] = round(distance, 2)
        else:
            entry["at"] = "turn_track"
        if reduced != bool(piece["flips"] % 2):
            entry["step"] = 1
        found.setdefault(unit, []).append(entry)
    units = []
    for unit, entries in found.items():
        if len(entries) > 1:
            # The author's log placed some counters twice; keep a copy on its printed hex, else the last one.
            printed = codes.get(unit, "").split(" ")[0]
            chosen = next((e for e in entries if e["at"] == printed), entries[-1])
            notes.append(f"{unit} placed {len(entries)} times ({', '.join(e['at'] for e in entries)}): kept {chosen['at']}")
            entries = [chosen]
        entry = entries[0]
        entry.pop("_distance", None)
        units.append(entry)
    for uid in by_piece.values():
        if uid not in found:
            code = codes.get(uid, "")
            units.append({"id": uid, "at": "turn_track" if code.split(" ")[0].isdigit() else "off_map"})
    units.sort(key=lambda u: u["id"])
    return units, notes


def main(path: str) -> None:
    events = json.loads(Path(path).read_text())
    units, notes = convert(events)
    scenario = {
        "$schema": "../../../schemas/scenario.schema.json",
        "id": "campaign",
        "title": "17.1 The Campaign Game - The Battle of Tolvajärvi",
        "module": "red-winter",
        "source": "data/red-winter/campaign-setup.json (HerrEklund/wasa, marked 'semi complete' by its author), converted by tools/build_setup.py",
        "note": "Piece positions converted from the set-up log's board pixels to hexes. " + "; ".join(notes),
        "turn": 1,
        "last_turn": 32,
        "first_side": "soviet",
        "side": "soviet",
        "units": units,
        "status": {"ammo": {"soviet": 10, "finnish": 3}},
    }
    (HERE / "scenarios" / "campaign.json").write_text(json.dumps(scenario, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("\n".join(notes))


if __name__ == "__main__":
    main(sys.argv[1])
