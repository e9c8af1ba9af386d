"""Run under Python >= 3.12 with pywargame: read a .vmod and its set-ups with pywargame, print what it found as JSON.

Used by tests/test_vassal_pywargame.py as an independent reader of what ``pbem module export`` writes.
"""

import tempfile
import json
import sys
import zipfile

from pywargame.vassal import BuildFile, SaveIO, VMod, WithTraits


def main(path: str) -> None:
    out = {"pieces": [], "boards": [], "grids": [], "dice": [], "setups": {}, "turn_tracks": 0}
    with VMod(path, "r") as vmod:
        build = BuildFile(vmod.getBuildFile())
        game = build.getGame()
        for piece in game.getPieces(asdict=False):
            traits = piece.getTraits()
            basic = traits[-1]
            out["pieces"].append({"entry": piece["entryName"], "name": basic["name"], "traits": [t.ID for t in traits]})
        for name, board in game.getBoards(asdict=True).items():
            out["boards"].append(name)
            for grid in board.getGrids(single=False) + board.getRegionGrids(single=False):
                out["grids"].append(type(grid).__name__)
                if type(grid).__name__ == "HexGrid":
                    out.setdefault("sideways", []).append(grid["sideways"])
                if hasattr(grid, "getRegions"):
                    out.setdefault("regions", []).extend(grid.getRegions())  # a dict keyed by region name
        out["dice"] = sorted(game.getDiceButtons(asdict=True))
        out["turn_tracks"] = len(game.getTurnTracks(asdict=True))
        setups = game.getPredefinedSetups(asdict=True)
    archive = zipfile.ZipFile(path)
    for name, setup in setups.items():
        with tempfile.TemporaryDirectory() as folder:
            save = f"{folder}/setup.vsav"
            with open(save, "wb") as handle:
                handle.write(archive.read(setup["file"]))
            key, lines = SaveIO.readSave(save)
        pieces = []
        for line in lines:
            line = line.replace("\\", "")
            if line.startswith("+/") and "/stack/" not in line:
                iden, traits = WithTraits.decodeAdd2(line)
                pieces.append(traits[-1]["name"])
        out["setups"][name] = pieces
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
