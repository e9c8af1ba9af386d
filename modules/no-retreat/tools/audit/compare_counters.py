"""Compare counters.json with the reviewer's own parse of UnitCounters.xml, both faces.

Every counter is compared (cheap); the report lists the random sample of 15 that was also looked at by hand.
"""
import json
import random
import sys
import xml.etree.ElementTree as ET

from compare_map import MODULE, SHARED

ARM = {"Tank": "armour", "Mechanized": "mechanized", "Infantry": "infantry", "Fortified": "fortified",
       "Regional": "regional", "SSTank": "ss_armour", "SSMechanized": "ss_mechanized", "Shock": "shock"}
MECH = {"Tank", "Mechanized", "SSTank", "SSMechanized"}


def xml_units() -> dict[int, dict]:
    out = {}
    for u in ET.parse(SHARED / "UnitCounters.xml").getroot().iter("Unit"):
        faces = []
        for s in u.iter("Side"):
            st = s.find("Strength")
            faces.append({"name": s.get("name"), "arm": ARM[s.get("type")], "mechanized": s.get("type") in MECH,
                          "strength": int(st.text), "zoc": st.get("type") != "NoZOC",
                          "move": int(s.find("Movement").text)})
        out[int(u.get("id"))] = {"country": u.get("country"), "faces": faces}
    return out


def main() -> int:
    xu = xml_units()
    mod = json.loads((MODULE / "counters.json").read_text())["counter_types"]
    by_id = {v["attributes"]["xml_id"]: (k, v) for k, v in mod.items()}
    bad = []
    if set(by_id) != set(xu):
        bad.append(f"ids: module {sorted(by_id)} XML {sorted(xu)}")
    for i, x in sorted(xu.items()):
        if i not in by_id:
            continue
        key, m = by_id[i]
        side = "axis" if x["country"] == "Germany" else "soviet"
        if m["side"] != side:
            bad.append(f"{key}: side module {m['side']} XML country {x['country']}")
        for n, (xf, mf) in enumerate(zip(x["faces"], m["attributes"]["faces"])):
            for f in ("name", "arm", "mechanized", "strength", "zoc", "move"):
                if xf[f] != mf[f]:
                    bad.append(f"{key} face {n} {f}: module {mf[f]!r} XML {xf[f]!r}")
            st = m["steps"][n]
            if (st["attack"], st["defence"], st["move"]) != (xf["strength"], xf["strength"], xf["move"]):
                bad.append(f"{key} step {n}: module {st} XML strength {xf['strength']} move {xf['move']}")
    sample = sorted(random.Random(2026).sample(sorted(xu), 15))
    print(f"{len(xu)} counters compared (both faces); hand-checked sample ids: {sample}")
    for i in sample:
        k, m = by_id[i]
        print(f"  {i:3d} {k:18s} " + " | ".join(
            f"{f['name']} {f['arm']} {f['strength']}-{f['move']}{'' if f['zoc'] else ' NoZOC'}"
            for f in m["attributes"]["faces"]))
    print(f"{len(bad)} disagreements")
    for line in bad:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
