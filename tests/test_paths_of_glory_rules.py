"""Paths of Glory rules in isolation (activation cost, control), and the card-driven turn vocabulary's input errors."""

import json
from pathlib import Path

import pytest

from pbem.art.style import face_values
from pbem.engine.rulesets import module_ruleset
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "paths-of-glory"


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


@pytest.fixture
def state(pog):
    return State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))


def cost(pog, state, space, unit_ids):
    rules = module_ruleset(pog)
    location = pog.map.index(space)
    for unit_id in unit_ids:
        state.place(unit_id, location)
    return len(rules.activation_groups([state.units[u] for u in unit_ids], location))


@pytest.mark.parametrize(
    "space, units, expected",
    [
        ("Antwerp", ["BE-1-ARMY", "BR-BEF-ARMY"], 1),  # 9.2.3 (a): Belgians count as British in Antwerp
        ("Amiens", ["BE-CORPS", "BR-1-ARMY"], 1),
        ("Brussels", ["BE-1-ARMY", "BR-BEF-ARMY"], 2),  # ... but not in Brussels
        ("Amiens", ["BR-BEF-ARMY", "FR-5-ARMY"], 2),  # digest 6.1.1: France is not on the FR/US list for the British
        ("Nancy", ["FR-1-ARMY", "US-1-ARMY"], 1),  # 9.2.3 (c): French and US in France
        ("Metz", ["FR-1-ARMY", "US-1-ARMY"], 1),  # ... and in Germany
        ("Brussels", ["FR-1-ARMY", "US-1-ARMY"], 2),  # ... not in Belgium
        ("Cairo", ["BR-CORPS-01", "BR-AUS-CORPS", "BR-ANA-CORPS"], 1),  # 9.2.3 (b): the British family
        ("Verdun", ["FR-3-ARMY", "FR-4-ARMY", "FR-CORPS-01"], 1),
    ],
)
def test_activation_cost_per_space(pog, state, space, units, expected):
    assert cost(pog, state, space, units) == expected


def test_senussi_count_as_turks_only_in_the_2022_edition(pog, state):
    import dataclasses

    location = pog.map.index("Libya")
    units = [state.units["TU-SN-CORPS"], state.units["TU-CORPS-01"]]
    assert units[0].unit.type.nationality == "SN"
    assert len(module_ruleset(pog).activation_groups(units, location)) == 2  # the seed's 9.2.3 has no such clause
    lr2022 = type(module_ruleset(pog))(dataclasses.replace(pog, options={"edition": "lr2022"}))
    assert len(lr2022.activation_groups(units, location)) == 1  # LR2022 9.2.3: SN counts as TU


def test_control_neutrals_and_forts(pog, state):
    rules = module_ruleset(pog)
    m = pog.map
    assert rules.controller(state, m.index("Sedan")) == "ap" and rules.controller(state, m.index("Metz")) == "cp"
    assert rules.controller(state, m.index("Turin")) is None  # Italy is neutral in 1914
    state.status["neutral_nations"].remove("IT")
    assert rules.controller(state, m.index("Turin")) == "ap"
    assert rules.fort(state, m.index("Liege")) == 3
    state.status["forts"]["Liege"] = "destroyed"
    assert rules.fort(state, m.index("Liege")) == 0


def test_entering_a_vp_space_moves_the_vp_and_takes_trenches(pog, state):
    rules = module_ruleset(pog)
    m = pog.map
    rules.enter(state, m.index("Sedan"), "cp")  # not a VP space on the standard map
    assert state.status["vp"] == 10 and state.status["control"]["Sedan"] == "cp"
    rules.enter(state, m.index("Verdun"), "cp")  # an intact French fort: no control, no VP
    rules.enter(state, m.index("Bar le Duc"), "cp")
    assert state.status["vp"] == 11
    state.status["vp_map"] = "historical"  # LR2022 5.7.2.3: Amiens is a VP space on the historical map
    rules.enter(state, m.index("Amiens"), "cp")
    assert state.status["vp"] == 12
    rules.enter(state, m.index("Belfort"), "cp")  # an intact enemy fort keeps its space (15.1.9); the trench falls
    assert "Belfort" not in state.status["control"] and "Belfort" not in state.status["trenches"]
    state.status["trenches"]["Nancy"] = {"level": 2, "owner": "ap"}
    rules.enter(state, m.index("Nancy"), "cp")  # 11.2.6: a level 2 trench becomes an enemy level 1
    assert state.status["trenches"]["Nancy"] == {"level": 1, "owner": "cp"}


def _turn(tmp_path, actions, module="paths-of-glory", start=None, side="cp"):
    data = {"module": module, "turn": 1, "side": side, "start": start or {"scenario": "1914"}, "actions": actions}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "actions, message",
    [
        ([{"card": "CP-99", "use": "ops"}], "unknown card 'CP-99'"),
        ([{"activate": {"Koblenz": "attack", "koblenz": "move"}}], "activated twice"),
        ([{"activate": {"Atlantis": "move"}}], "unknown space 'Atlantis'"),
        ([{"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 3, "result": "1/2", "cards": ["XX-1"]}], "unknown card 'XX-1'"),
        ([{"move": "GE-1-ARMY", "path": ["Aachen", "Liege"], "by": "train"}], "by"),
    ],
)
def test_bad_turn_files_are_input_errors(pbem, tmp_path, actions, message):
    result = pbem("check", _turn(tmp_path, actions))
    assert result.code == 2 and message in result.err, result.err


def test_a_unit_of_the_module_that_is_not_in_play_is_an_input_error(pbem, tmp_path):
    # Any module: a unit the start state does not list was a crash (KeyError) before.
    path = _turn(tmp_path, [{"phase": "movement"}, {"move": "SOV-TK-XX-1-04", "path": ["3004", "3005"]}],
                 module="china-war-1980", start={"scenario": "border-war"}, side="soviet")
    result = pbem("check", path)
    assert result.code == 2 and "SOV-TK-XX-1-04" in result.err and "is not in this scenario" in result.err


def test_counters_print_the_loss_factor():
    assert face_values("{attack}-{loss}-{move}", 5, 5, 3, 3) == "5-3-3"
    assert face_values("{attack}-{loss}-{move}", 6, 6, 9) == "6--9"


def test_dashed_connections_by_nationality_and_the_mef_beachhead(pog, state):
    rules = module_ruleset(pog)
    m = pog.map
    london, calais = m.index("London"), m.index("Calais")
    gallipoli, mef1 = m.index("Gallipoli"), m.index("MEF1")
    assert rules.may_use(state, london, calais, state.units["BR-1-ARMY"])
    assert not rules.may_use(state, london, calais, state.units["FR-1-ARMY"])
    corps = state.units["BR-CORPS-01"]
    assert not rules.may_use(state, mef1, gallipoli, corps)  # 11.1.10: only with the beach-head there
    state.status["mef_beachhead"] = "MEF1"
    assert rules.may_use(state, mef1, gallipoli, corps) and not rules.may_use(state, m.index("MEF2"), m.index("Cana Kale"), corps)
    arabia, medina = m.index("Arabia"), m.index("Medina")
    assert rules.may_use(state, arabia, medina, state.units["BR-ANA-CORPS"]) and not rules.may_use(state, arabia, medina, corps)


def test_a_new_turn_starts_its_rounds_again(pbem, tmp_path):
    samples = REPO / "samples" / "paths-of-glory"
    after = tmp_path / "after-1.json"
    assert pbem("check", samples / "legal-01-guns-of-august-opening.json", "--write-state", after).code == 0
    turn2 = {"module": "paths-of-glory", "turn": 2, "side": "cp", "start": {"state": "after-1.json"},
             "actions": [{"phase": "mandated_offensive"}, {"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-05", "use": "rp"}]}
    path = tmp_path / "turn-2.json"
    path.write_text(json.dumps(turn2))
    written = tmp_path / "after-2.json"
    result = pbem("check", path, "--write-state", written)
    assert result.code == 0, result.out
    assert json.loads(written.read_text())["turn"] == 2
    # The same file as turn 1 again would carry on the rounds already played: round 1 of the CP is out of turn.
    path.write_text(json.dumps(turn2 | {"turn": 1}))
    assert "8.1.1" in pbem("check", path).out


def test_the_war_status_phase_keeps_the_books(pbem, tmp_path):
    """7.1.3: the French offensive was not carried out (VP +1), the German one was (Sedan: no VP space on the
    standard map);
    16.1: CP war status 4 is Limited War, and Turkey enters with it (16.1.3)."""
    after = tmp_path / "after.json"
    assert pbem("check", REPO / "samples" / "paths-of-glory" / "legal-20-war-status-phase.json", "--write-state", after).code == 0
    status = json.loads(after.read_text())["status"]
    assert status["vp"] == 11
    assert status["commitment"] == {"cp": "limited_war", "ap": "mobilization"}
    assert "TU" not in status["neutral_nations"] and "IT" in status["neutral_nations"]
    assert "mandated_offensive" not in status and "result" not in status


def test_supply_lines(pog, state):
    rules = module_ruleset(pog)
    m = pog.map
    assert all(rules.in_supply(state, u) for u in state.units.values() if u.on_map)  # the 1914 set-up
    # LR2022 Extended Example: with the French in Sedan, the GE 3rd Army in Cambrai is out of supply...
    state.remove("FR-5-ARMY")
    state.place("GE-3-ARMY", m.index("Cambrai"))
    state.place("FR-3-ARMY", m.index("Sedan"))
    state.status["control"].update({"Cambrai": "cp"})
    assert not rules.in_supply(state, state.units["GE-3-ARMY"])
    # ... and back in supply once the GE 4th Army advances into Sedan.
    state.remove("FR-3-ARMY")
    state.place("GE-4-ARMY", m.index("Sedan"))
    state.status["control"]["Sedan"] = "cp"
    assert rules.in_supply(state, state.units["GE-3-ARMY"])


def test_supply_by_sea_and_the_exceptions(pog, state):
    rules = module_ruleset(pog)
    m = pog.map
    basra = state.units_at(m.index("Basra"))[0]
    assert basra.id == "BR-CORPS-04" and rules.in_supply(state, basra)  # a port: by sea to London
    state.status["control"]["Basra"] = "cp"  # without the port (say it were lost), no line
    state.status["control"]["Qurna"] = "cp"
    assert not rules.in_supply(state, basra)
    for name in [m.label(n) for n in m.neighbours[m.index("Cetinje")]]:
        state.status["control"][name] = "cp"
    assert rules.in_supply(state, state.units["MN-CORPS"])  # 14.1.5: always in supply
    # 14.2.2: a Russian corps does not trace by sea: from Odessa cut off by land it is out of supply.
    odessa = state.units["RU-CORPS-10"]
    for name in [m.label(n) for n in m.neighbours[odessa.at]]:
        state.status["control"][name] = "cp"
    assert not rules.in_supply(state, odessa)


def test_an_attacker_off_the_map_is_named_as_such(pbem, tmp_path):
    actions = [{"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-04", "use": "ops"},
               {"activate": {"Koblenz": "attack"}}, {"attack": ["GE-CORPS-01"], "target": "Sedan", "roll": 1, "defender_roll": 1, "result": "1/0"}]
    result = pbem("check", _turn(tmp_path, actions), "--format", "json")
    messages = [v["message"] for v in json.loads(result.out)["violations"]]
    assert result.code == 1 and any("GE Corps #1 is not on the map (it is in the reserve box)" in m for m in messages)


def test_the_mef_lands_with_its_beachhead(pbem, tmp_path):
    """9.5.3.5: the MEF Army lands in an MEF space with the beach-head marker, which opens the MEF line and is an
    Allied port (the MEF is in supply by sea); then it may move on to Gallipoli, activated for 3 OPS (9.2.7.1)."""
    samples = REPO / "samples" / "paths-of-glory"
    start = json.loads((samples / "state-spring-1915-limited-war.json").read_text())
    start["status"]["neutral_nations"] = ["BU", "GR", "IT", "RO", "US"]
    for unit in start["units"]:
        if unit["id"] == "TU-CORPS-02":
            unit["at"] = "reinforcements"  # Gallipoli left empty
    (tmp_path / "start.json").write_text(json.dumps(start))
    actions = [
        {"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-05", "use": "rp"},
        {"phase": "action", "round": 1, "side": "ap"}, {"card": "AP-31", "use": "event"},
        {"reinforce": "BR-MEF-ARMY", "at": "MEF1"},
        {"phase": "action", "round": 2, "side": "cp"}, {"card": "CP-04", "use": "sr"},
        {"phase": "action", "round": 2, "side": "ap"}, {"card": "AP-28", "use": "ops"},
        {"activate": {"MEF1": "move"}, "cost": 3}, {"move": "BR-MEF-ARMY", "path": ["MEF1", "Gallipoli"]},
    ]
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": 5, "side": "cp", "start": {"state": "start.json"}, "actions": actions}))
    after = tmp_path / "after.json"
    result = pbem("check", path, "--format", "json", "--write-state", after)
    report = json.loads(result.out)
    assert [v for v in report["violations"] if v["severity"] != "warning"] == [], report["violations"]
    assert json.loads(after.read_text())["status"]["mef_beachhead"] == "MEF1"


def test_the_mef_army_supplied_through_its_beachhead_costs_three(pog, state):
    m = pog.map
    state.status["mef_beachhead"] = "MEF1"
    state.status["neutral_nations"].remove("TU")
    state.place("BR-MEF-ARMY", m.index("MEF1"))
    state.place("BR-CORPS-05", m.index("MEF1"))
    rules = module_ruleset(pog)
    own = state.units_at(m.index("MEF1"))
    assert rules._space_cost(state, own, m.index("MEF1")) == 3 + 1  # 9.2.7.1: the MEF 3, each other unit 1
