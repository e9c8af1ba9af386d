"""Build ``counters.json`` (values read off the counter images, ranged values as type attributes) and the set-up codes.

Every value below was read by eye from the counter images of the VASSAL module (data/red-winter/counters,
front and back). Printed order on a counter: CS (boxed = doubled on defence, in parentheses = defence
only), RAS with its range as a superscript (yellow box = indirect fire, range "inf" = off-map, red box =
anti-tank strength), MP. The set-up code is the top-right print of the front (or back, where it is
printed there: those units start reduced).
"""

from __future__ import annotations

import json
from pathlib import Path

# type id: (name, side, arm, faces [(cs, ras, range, mp)], attributes)
TYPES = {
    "sov_rifle_company": ("Soviet rifle company", "soviet", "infantry", [(5, 4, 2, 5), (3, 4, 2, 5)], {"infantry_company": True}),
    "sov_mg_company": ("Soviet machine-gun company", "soviet", "mg", [(4, 5, 3, 4), (2, 4, 3, 4)], {"boxed": True}),
    "sov_mortar": ("Soviet regimental mortars", "soviet", "mortar", [(1, 5, 6, 2)], {"defence_only": True, "indirect": True}),
    "sov_infantry_gun": ("Soviet regimental infantry guns", "soviet", "infantry_gun", [(2, 3, 10, 2)], {"indirect": True}),
    "sov_at_gun": ("Soviet 45 mm anti-tank section (139 AT)", "soviet", "at_gun", [(1, 1, 3, 3)], {"boxed": True}),
    "sov_artillery_122": ("Soviet 122 mm battery (354th)", "soviet", "artillery", [(0, 7, None, 0)], {"indirect": True, "off_map": True}),
    "sov_artillery_152": ("Soviet 152 mm battery (354th)", "soviet", "artillery", [(0, 8, None, 0)], {"indirect": True, "off_map": True}),
    "sov_artillery_76": ("Soviet 76 mm battery (47th)", "soviet", "artillery", [(0, 5, None, 0)], {"indirect": True, "off_map": True}),
    "sov_t26m31": ("T-26 m31 tank company", "soviet", "armour", [(10, 8, 3, 8), (6, 6, 3, 8)], {"armour": "tank"}),
    "sov_t26m33": ("T-26 m33 tank company", "soviet", "armour", [(7, 6, 3, 8), (4, 5, 3, 8)], {"armour": "tank"}),
    "sov_t37": ("T-37 tank company", "soviet", "armour", [(5, 5, 3, 9), (3, 4, 3, 9)], {"armour": "tank"}),
    "sov_ba10": ("BA-10 armoured-car company", "soviet", "armour", [(8, 6, 3, 12), (5, 5, 3, 12)], {"armour": "armoured_car"}),
    "fin_jr16_company": ("Finnish JR16 rifle company", "finnish", "infantry", [(5, 2, 2, 6), (3, 2, 2, 6)], {"infantry_company": True}),
    "fin_jr37_company": ("Finnish JR37 rifle company", "finnish", "infantry", [(5, 2, 2, 6), (3, 2, 2, 6)], {"infantry_company": True}),
    "fin_erp_company": ("Finnish independent battalion (ErP) company", "finnish", "infantry", [(5, 1, 2, 6), (3, 1, 2, 6)], {"infantry_company": True}),
    "fin_ktpr_company": ("Finnish 13th KT-Pr company", "finnish", "infantry", [(4, 1, 2, 6), (2, 1, 2, 6)], {"infantry_company": True}),
    "fin_bicycle_company": ("Finnish PPP7 bicycle company", "finnish", "infantry", [(4, 1, 2, 6), (2, 1, 2, 6)], {"infantry_company": True, "bicycle": True}),
    "fin_prov_company": ("Finnish provisional company Prov/TF-P", "finnish", "infantry", [(3, 1, 2, 6), (2, 1, 2, 6)], {"infantry_company": True}),
    "fin_mg_company": ("Finnish machine-gun company", "finnish", "mg", [(3, 4, 3, 4), (2, 3, 3, 4)], {"boxed": True}),
    "fin_mg_erp112": ("Finnish MG/ErP112", "finnish", "mg", [(1, 2, 3, 4)], {"boxed": True}),
    "fin_mortar": ("Finnish mortars", "finnish", "mortar", [(1, 4, 6, 3)], {"defence_only": True, "indirect": True}),
    "fin_at_jr16": ("Finnish AT/JR16 anti-tank guns", "finnish", "at_gun", [(2, 2, 4, 2), (1, 1, 4, 2)], {"at_strength": 2}),
    "fin_at_obuhov": ("Finnish Obuhov anti-tank gun", "finnish", "at_gun", [(1, 1, 2, 2)], {"at_strength": 2}),
    "fin_engineer": ("Finnish engineers Eng/JR16", "finnish", "engineer", [(2, 0, 0, 6), (1, 0, 0, 6)], {}),
    "fin_artillery_76": ("Finnish 76 mm battery", "finnish", "artillery", [(0, 2, None, 0)], {"indirect": True, "off_map": True}),
    "fin_leader": ("Finnish leader (Pajari)", "finnish", "leader", [(0, 0, 0, 7)], {"leader": True, "shift": "1L/1R"}),
    "fin_platoon": ("Finnish breakdown platoon (optional)", "finnish", "infantry", [(1, 1, 2, 6)], {"optional": True}),
    "fin_platoon_weak": ("Finnish breakdown platoon, weak fire (optional)", "finnish", "infantry", [(1, 0, 2, 6)], {"optional": True}),
    "fin_section": ("Finnish ErP section (optional)", "finnish", "infantry", [(1, 0, 0, 6)], {"optional": True}),
    "fin_field_kitchen": ("Finnish field kitchen (optional 20.8)", "finnish", "kitchen", [(1, 0, 0, 2)], {"defence_only": True, "optional": True}),
}

UNITS: list[tuple[str, str, str, str, str]] = []  # (id, type, printed name, piece name, set-up code)


def add(uid: str, kind: str, name: str, piece: str, code: str) -> None:
    UNITS.append((uid, kind, name, piece, code))


SOV_CODES = {"364": ["2", "3", "3"], "609": ["Q25", "R27", "1"], "718": ["11", "13", "14"]}
for regt, codes in SOV_CODES.items():
    for company in range(1, 10):
        bn = (company - 1) // 3 + 1
        add(f"SOV-{company}-{bn}-{regt}", "sov_rifle_company", f"{company}/{bn}/{regt}", f"{company}-{bn}-{regt}", codes[bn - 1])
    for bn in range(1, 4):
        add(f"SOV-MG-{bn}-{regt}", "sov_mg_company", f"MG/{bn}/{regt}", f"mg-{bn}-{regt}", codes[bn - 1])
    add(f"SOV-MTR-{regt}", "sov_mortar", f"Mtr/{regt}", f"mtr-{regt}", codes[2])
    add(f"SOV-IG-{regt}", "sov_infantry_gun", f"IG/{regt}", f"ig-{regt}", codes[2])
for a, b, code in [(1, 1, "4"), (1, 2, "4"), (1, 3, "14"), (2, 1, "4"), (2, 2, "4"), (2, 3, "14")]:
    add(f"SOV-AT-{a}-{b}-139", "sov_at_gun", f"{a}/{b}/139 AT", f"{a}-{b}-139 at", code)
for n in (1, 2):
    add(f"SOV-ART-{n}-354", "sov_artillery_122", f"{n}/354 122mm", f"{n}-354", "8")
add("SOV-ART-3-354", "sov_artillery_152", "3/354 152mm", "3-354", "8")
for n, code in ((1, "2"), (2, "2"), (3, "5")):
    add(f"SOV-ART-{n}-47", "sov_artillery_76", f"{n}/47 76mm", f"{n}-47", code)
add("SOV-T26M31", "sov_t26m31", "T-26 m31", "t-26m31", "variable")
add("SOV-T26M33", "sov_t26m33", "T-26 m33", "t-26m33", "variable")
add("SOV-T37", "sov_t37", "T-37", "t-37", "variable")
add("SOV-BA10", "sov_ba10", "BA-10", "ba-10", "variable")

for company in range(1, 10):
    bn = (company - 1) // 3 + 1
    code = {1: "O19", 2: "3" if company == 4 else "4 (-2 MP)", 3: "1"}[bn]
    add(f"FIN-{company}-{bn}-JR16", "fin_jr16_company", f"{company}/{bn}/JR16", f"{company}-{bn}-jr16", code)
add("FIN-8-3-JR37", "fin_jr37_company", "8/3/JR37", "8-3-jr37", "F21 (reduced)")
for bn, codes in (("ERP9", ["25", "25", "25"]), ("ERP10", ["22", "25", "25"]), ("ERP112", ["6", "6", "F21 (reduced)"])):
    for company in range(1, 4):
        add(f"FIN-{company}-{bn}", "fin_erp_company", f"{company}/{bn.replace('ERP', 'ErP')}", f"{company}-{bn.lower()}", codes[company - 1])
for company in range(1, 4):
    add(f"FIN-{company}-13-KTPR", "fin_ktpr_company", f"{company}/13/KT-Pr", f"{company}-13-kt-pr", "*")
    add(f"FIN-{company}-PPP7", "fin_bicycle_company", f"{company}/PPP7", f"{company}-ppp7", "H19 (reduced)")
for bn, code in ((1, "O19"), (2, "5"), (3, "1")):
    add(f"FIN-MG-{bn}-JR16", "fin_mg_company", f"MG/{bn}/JR16", f"mg-{bn}-jr16", code)
add("FIN-MG-13-KTPR", "fin_mg_company", "MG/13/KT-Pr", "mg-13-kt-pr", "*")
add("FIN-MG-ERP9", "fin_mg_company", "MG/ErP9", "mg-erp9", "F21")
add("FIN-MG-ERP112", "fin_mg_erp112", "MG/ErP112", "mg-erp112", "22")
add("FIN-MTR-13-KTPR", "fin_mortar", "Mtr/13/KT-Pr", "mtr-13-kt-pr", "*")
add("FIN-MTR-JR16-O19", "fin_mortar", "Mtr/JR16 (O19)", "mtr-jr16_o19", "O19")
add("FIN-MTR-JR16-T8", "fin_mortar", "Mtr/JR16 (turn 8)", "mtr-jr16_t8", "8")
add("FIN-AT-JR16", "fin_at_jr16", "AT/JR16", "at-jr16", "15")
add("FIN-AT-OBUHOV", "fin_at_obuhov", "Obuhov AT", "obukov at", "28")
add("FIN-ENG-JR16", "fin_engineer", "Eng/JR16", "eng-jr16", "8")
for uid, name, piece, code in (("5-KTR12", "5/KTR12", "5-ktr12", "St"), ("7-KTR6", "7/KTR6", "7-ktr6", "15"), ("8-KTR6", "8/KTR6", "8-ktr6", "15"), ("9-KTR13", "9/KTR13", "9-ktr13", "St")):
    add(f"FIN-ART-{uid}", "fin_artillery_76", f"{name} 76mm", piece, code)
add("FIN-PAJARI", "fin_leader", "Pajari", "pajari", "leader")
add("FIN-PROV-TFP", "fin_prov_company", "Prov/TF-P", "prov-tf-p", "special (RE-6)")
add("FIN-PLT-JR16-A", "fin_platoon", "JR16 platoon A", "1-1-2-6_jr16_platoon_a", "*")
add("FIN-PLT-JR16-B", "fin_platoon", "JR16 platoon B", "1-1-2-6_jr16_platoon_b", "*")
add("FIN-PLT-JR16-A-WEAK", "fin_platoon_weak", "JR16 platoon A (weak)", "1-0-2-6_jr16_platoon_a", "*")
add("FIN-PLT-JR16-B-WEAK", "fin_platoon_weak", "JR16 platoon B (weak)", "1-0-2-6_jr16_platoon_b", "*")
add("FIN-PLT-ERP", "fin_platoon", "ErP platoon", "1-1-2-6_erp_platoon", "*")
add("FIN-PLT-ERP-WEAK", "fin_platoon_weak", "ErP platoon (weak)", "1-0-2-6_erp_platoon", "*")
add("FIN-SEC-ERP", "fin_section", "ErP section", "1-0-0-6_erp_platoon", "*")
add("FIN-KITCHEN-1-JR16", "fin_field_kitchen", "1/JR16 field kitchen", "1-jr16_field_kitchen", "8")
add("FIN-KITCHEN-2-JR16", "fin_field_kitchen", "2/JR16 field kitchen", "2-jr16_field_kitchen", "8")

# NATO size symbols the counters print (schema enum); every other type is a company or battery ("I").
SIZES = {"fin_platoon": "•••", "fin_platoon_weak": "•••", "fin_section": "••", "fin_leader": "none"}


def main() -> None:
    here = Path(__file__).resolve().parents[1]
    counter_types = {}
    for tid, (name, side, arm, faces, attrs) in TYPES.items():
        counter_types[tid] = {
            "name": name, "side": side, "nationality": "USSR" if side == "soviet" else "Finland", "arm": arm,
            "size": SIZES.get(tid, "I"), "quality": None, "mechanized": arm == "armour",
            "steps": [{"attack": cs, "defence": cs, "move": mp} for cs, _, _, mp in faces],
            "retreats": arm not in ("artillery",), "source": "2",
            "note": "Values read from the counter images; attack and defence are the one printed CS (ranged fire, boxed and parenthesised CS are in attributes).",
            "attributes": {
                "ras": [ras for _, ras, _, _ in faces],
                "range": [rng if rng is not None else "inf" for _, _, rng, _ in faces],
                **attrs,
            },
        }
    units = [{"id": uid, "type": kind, "name": name, "aliases": [piece]} for uid, kind, name, piece, _ in UNITS]
    counters = {
        "note": "Red Winter counters, values read from the counter images (front, then back for two-step units). Sizes: companies and batteries 'I', breakdown platoons '•••', the ErP section '••', the leader 'none'. Per-face ranged strength (ras) and range ('inf' = off-map), boxed (doubled on defence), defence_only, indirect, at_strength and the other printed flags are each type's attributes. Set-up codes are in tables.json /setup_codes.",
        "counter_types": counter_types,
        "units": units,
    }
    (here / "counters.json").write_text(json.dumps(counters, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (here / "tools" / "counter_values.json").write_text(json.dumps({"setup_codes": {u[0]: u[4] for u in UNITS}}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(len(units), "units")


if __name__ == "__main__":
    main()
