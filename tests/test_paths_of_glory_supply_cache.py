"""Issue 24 (speed): Paths of Glory's supply lines and space control are worked out once per situation and kept;
what is kept must follow every change of control, neutral nations, events and where units stand."""

from pathlib import Path

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

MODULE = Path(__file__).resolve().parents[1] / "modules" / "paths-of-glory"


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


@pytest.fixture
def state(pog):
    return State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))


def _fresh(pog):
    """A ruleset that has kept nothing yet: its answers are traced from scratch."""
    return type(module_ruleset(pog))(pog)


def _agree(pog, state):
    rules, fresh = module_ruleset(pog), _fresh(pog)
    assert rules.controllers(state) == [fresh.controller(state, loc) for loc in range(len(pog.map))]
    on_map = [u for u in state.units.values() if u.on_map]
    assert [rules.in_supply(state, u) for u in on_map] == [fresh.in_supply(state, u) for u in on_map]
    # The Attrition phase asks for every unit at once: the same answers as unit by unit.
    assert _fresh(pog).out_of_supply_on_map(state) == {u.id for u in on_map if not fresh.in_supply(state, u)}
    for side in ("cp", "ap"):
        assert rules.supplied_spaces(state, side) == fresh.supplied_spaces(state, side)


def test_kept_control_and_supply_follow_every_change(pog, state):
    m = pog.map
    _agree(pog, state)
    for name in ("Warsaw", "Lodz", "Ivangorod", "Lublin"):  # control markers change
        state.status["control"][name] = "cp"
        _agree(pog, state)
    state.place("GE-8-ARMY", m.index("Kovno"))  # a unit moves: its own line and the enemy's change
    _agree(pog, state)
    state.remove("GE-8-ARMY")
    _agree(pog, state)
    state.status["neutral_nations"].remove("IT")  # a nation enters the war
    _agree(pog, state)
    state.status["events_played"].append("AP-30")  # Salonika: Greece's limited entry (9.5.2.4)
    _agree(pog, state)
    state.place("GR-CORPS-01", m.index("Salonika"))  # a Greek unit closes its space again
    _agree(pog, state)
    state.status["mef_beachhead"] = "Gallipoli"
    _agree(pog, state)


def test_a_unit_cut_off_and_joined_again(pog, state):
    # 14.1.3: enemy units in every neighbouring space cut the line; when they leave it is open again (nothing
    # traced before is kept once the units have moved).
    rules, m = module_ruleset(pog), pog.map
    unit = state.units["GE-8-ARMY"]  # in Insterberg
    assert rules.in_supply(state, unit)
    corps = [u.id for u in state.units.values() if u.side == "ap" and u.unit.type.nationality == "RU" and u.unit.type.size != "XXXX"]
    placed = list(zip(m.neighbours[unit.at], corps))
    for location, corps_id in placed:
        state.place(corps_id, location)
    assert not rules.in_supply(state, unit)
    state.remove(placed[0][1])
    assert rules.in_supply(state, unit)


def test_kept_answers_follow_random_moves_losses_and_control(pog, state):
    # The enemy's spaces are brought up to date from the spaces a move changed, and a network is reused when a new
    # situation leaves its inputs as they were: after every random change the kept answers are a fresh trace's.
    import random

    from pbem.model.state import OFF_MAP

    rng = random.Random(20261128)
    rules, m = module_ruleset(pog), pog.map
    labels = list(m.labels)
    for step in range(60):
        on_map = [u for u in state.units.values() if u.on_map]
        roll = rng.random()
        if roll < 0.6:  # a unit moves to a neighbouring space, or anywhere (a strategic redeployment)
            unit = rng.choice(on_map)
            there = rng.choice(m.neighbours[unit.at]) if rng.random() < 0.7 else rng.randrange(len(m))
            state.place(unit.id, there)
        elif roll < 0.75:  # a unit is eliminated, or one comes back from off the map
            off = [u for u in state.units.values() if u.at == OFF_MAP]
            if off and rng.random() < 0.5:
                state.place(rng.choice(off).id, rng.randrange(len(m)))
            else:
                state.remove(rng.choice(on_map).id)
        else:  # a space changes hands
            state.status["control"][rng.choice(labels)] = rng.choice(("cp", "ap"))
        fresh = _fresh(pog)
        for side in ("cp", "ap"):
            assert rules.enemy_spaces(state, side) == fresh.enemy_spaces(state, side), step
        if step % 3 == 0:
            _agree(pog, state)


def test_a_source_lost_under_enemy_units_is_no_source_any_more(pog, state):
    # Essen holds an enemy unit (closed to the Central Powers' lines either way); when it changes hands it stops
    # being their source although no space opened or closed: the network is traced again, not reused.
    rules, m = module_ruleset(pog), pog.map
    essen = m.index("Essen")
    german = state.units["GE-8-ARMY"]
    french = next(u for u in state.units.values() if u.side == "ap" and u.on_map and u.unit.type.nationality == "FR")
    state.place(french.id, essen)
    assert essen in rules._network(state, german).sources
    state.status["control"]["Essen"] = "ap"
    assert essen not in rules._network(state, german).sources
    assert rules._network(state, german).sources == _fresh(pog)._network(state, german).sources


def test_two_games_checked_in_turn_by_one_ruleset(pog, state):
    # One process checks files of several games: the kept enemy spaces of one game are never brought up to date
    # with the other's moves (another state's journal does not know the layout number).
    rules, m = module_ruleset(pog), pog.map
    other = State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))
    french = next(u.id for u in state.units.values() if u.side == "ap" and u.on_map and u.unit.type.nationality == "FR")
    for n, there in enumerate(("Essen", "Sedan", "Metz", "Strasbourg")):
        game = state if n % 2 == 0 else other
        game.place(french, m.index(there))
        for one in (state, other):
            for side in ("cp", "ap"):
                assert rules.enemy_spaces(one, side) == _fresh(pog).enemy_spaces(one, side)
    assert state.units[french].at != other.units[french].at


def test_attrition_asks_every_unit_at_once_with_the_same_exceptions(pog, state):
    # 14.1.6: a Serbian unit in Serbia is in supply even when cut off; a French corps beside it is not. The Attrition
    # phase's question for every unit at once must keep that exception (and every other unit's answer).
    rules, m = _fresh(pog), pog.map
    valjevo = m.index("Valjevo")
    enemy = [u.id for u in state.units.values() if u.side == "cp" and u.on_map and u.unit.type.nationality == "AH"]
    for location, unit_id in zip(m.neighbours[valjevo], enemy):
        state.place(unit_id, location)
    french = next(u.id for u in state.units.values() if u.side == "ap" and u.unit.type.nationality == "FR" and u.unit.type.size != "XXXX")
    state.place(french, valjevo)
    out = rules.out_of_supply_on_map(state)
    assert "SB-2-ARMY" not in out and rules.in_supply(state, state.units["SB-2-ARMY"])
    assert french in out and not rules.in_supply(state, state.units[french])
    _agree(pog, state)


# --- the kept situation of each side (SupplyRules._tracked): brought up to date from what changed ---------------


def _same_as_traced(rules, state):
    """Every kind of unit's kept network is, field by field, the one traced from scratch (``_reference_network``),
    and so is every unit's answer: a network left stale by a change fails here even when no answer moves."""
    seen = {}
    for unit in state.units.values():
        if not unit.on_map:
            continue
        net = rules._network(state, unit)
        kind = id(net)
        if kind not in seen:
            fresh = seen[kind] = rules._reference_network(state, unit)
            for what in ("sources", "reached", "ports", "landings", "open_"):
                assert getattr(net, what) == getattr(fresh, what), (unit.id, what)
            if net.symmetric:  # the spaces joined to a port (kept across changes once asked)
                assert net.sea() == fresh.sea(), unit.id
        by_sea = unit.unit.type.nationality not in ("RU", "RO", "SB")
        assert net.supplies(unit.at, by_sea) == seen[kind].supplies(unit.at, by_sea), unit.id
    for side in ("cp", "ap"):  # as the Attrition phase's control asks (supplied_spaces)
        anyone = next(u for u in state.units.values() if u.side == side and u.on_map)
        assert rules._open_spaces(state, side) == rules._reference_network(state, anyone).open_, side


def _russian(state):
    return next(u for u in state.units.values() if u.on_map and u.unit.type.nationality == "RU")


def test_a_move_into_and_out_of_a_network_closes_and_opens_its_space(pog, state):
    # An enemy unit entering a space of the network closes it (traced again); leaving opens it again: the network
    # grows from it (``grow``), the same as a fresh trace.
    rules, m = _fresh(pog), pog.map
    russian = _russian(state)
    _same_as_traced(rules, state)
    before = rules._network(state, russian)
    warsaw = m.index("Warsaw")
    assert warsaw in before.reached
    state.place("GE-CORPS-10", warsaw)
    after = rules._network(state, russian)
    assert warsaw not in after.reached
    _same_as_traced(rules, state)
    state.place("GE-CORPS-10", m.index("Insterberg"))
    again = rules._network(state, russian)
    assert warsaw in again.reached and again.reached == before.reached
    _same_as_traced(rules, state)


def test_a_move_inside_its_own_lines_keeps_every_network(pog, state):
    # The common case the tracker is for: a unit moving between spaces its side controls opens or closes nothing,
    # for either side: every kept network is the same object afterwards (nothing traced again).
    rules, m = _fresh(pog), pog.map
    russian, german = _russian(state), state.units["GE-8-ARMY"]
    kept = (rules._network(state, russian), rules._network(state, german))
    state.place("RU-CORPS-08", m.index("Vilna"))
    state.place("GE-CORPS-10", m.index("Tannenberg"))
    assert (rules._network(state, russian), rules._network(state, german)) == kept
    assert all(a is b for a, b in zip((rules._network(state, russian), rules._network(state, german)), kept))
    _same_as_traced(rules, state)


def test_a_space_closed_outside_a_network_keeps_its_reach(pog, state):
    # An enemy unit in a space the network never entered: the same spaces reached (not traced again), the stretches
    # for the sea worked out again (the open spaces changed).
    rules, m = _fresh(pog), pog.map
    russian = _russian(state)
    before = rules._network(state, russian)
    chateau_thierry = m.index("Chateau Thierry")  # Allied, but cut off by land from the Russian sources
    assert chateau_thierry not in before.reached
    state.place("GE-CORPS-10", chateau_thierry)
    after = rules._network(state, russian)
    assert after is not before and after.reached is before.reached
    _same_as_traced(rules, state)


def test_control_flips_in_and_out_of_a_network(pog, state):
    rules = _fresh(pog)
    _same_as_traced(rules, state)
    for name, side in (("Lodz", "cp"), ("Warsaw", "cp"), ("Warsaw", "ap"), ("Koblenz", "ap"), ("Lodz", "ap"), ("Koblenz", "cp")):
        state.status["control"][name] = side
        _same_as_traced(rules, state)
    del state.status["control"]["Warsaw"]  # a marker taken off: the map's side again
    _same_as_traced(rules, state)


def test_a_fort_besieged_lifted_and_destroyed(pog, state):
    # 14.1.3: a besieged enemy fort may be traced through, a besieged friendly one not; the siege lasts while the
    # besiegers stand in it (a move alone lifts it), and a destroyed fort is a space like any other.
    rules, m = _fresh(pog), pog.map
    _same_as_traced(rules, state)
    state.status.setdefault("forts", {})["Liege"] = "besieged"
    _same_as_traced(rules, state)
    state.place("GE-1-ARMY", m.index("Liege"))  # the besieger enters: its side may trace through, the other not
    _same_as_traced(rules, state)
    state.place("GE-1-ARMY", m.index("Aachen"))  # and leaves: the siege is lifted
    _same_as_traced(rules, state)
    state.place("GE-1-ARMY", m.index("Liege"))
    _same_as_traced(rules, state)
    state.status["forts"]["Liege"] = "destroyed"
    _same_as_traced(rules, state)


def test_a_neutral_nation_entering_and_the_salonika_event(pog, state):
    rules, m = _fresh(pog), pog.map
    _same_as_traced(rules, state)
    state.status["neutral_nations"].remove("IT")
    _same_as_traced(rules, state)
    state.status["events_played"].append("AP-30")  # Salonika: Greece's spaces open to both sides (9.5.2.4)
    _same_as_traced(rules, state)
    greek = next(u for u in state.units.values() if u.unit.type.nationality == "GR")
    state.place(greek.id, m.index("Salonika"))  # a Greek unit closes its space again (control follows the units)
    _same_as_traced(rules, state)
    state.remove(greek.id)
    _same_as_traced(rules, state)
    state.status["events_played"].append("CP-01")  # an event that changes no supply line
    _same_as_traced(rules, state)


def test_the_beachhead_placed_moved_past_and_removed(pog, state):
    # The situation is kept per beach-head (9.2.7.1 asks with and without it): the one not asked about while units
    # moved is brought up to date when asked again.
    rules, m = _fresh(pog), pog.map
    state.status["neutral_nations"].remove("TU")
    _same_as_traced(rules, state)
    state.status["mef_beachhead"] = "Gallipoli"
    _same_as_traced(rules, state)
    del state.status["mef_beachhead"]
    _same_as_traced(rules, state)
    state.place("GE-CORPS-10", m.index("Warsaw"))
    state.status["control"]["Lodz"] = "cp"
    state.status["mef_beachhead"] = "Gallipoli"
    _same_as_traced(rules, state)
    state.place("GE-CORPS-10", m.index("Insterberg"))
    del state.status["mef_beachhead"]
    _same_as_traced(rules, state)


def test_the_next_file_with_the_same_ruleset(pog, state):
    # A new state (the next game-turn's file, or another game) is never brought up to date from the last one's moves.
    rules, m = _fresh(pog), pog.map
    other = State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))
    _same_as_traced(rules, state)
    state.place("GE-CORPS-10", m.index("Warsaw"))
    _same_as_traced(rules, other)
    _same_as_traced(rules, state)
    other.place("RU-1-ARMY", m.index("Konigsberg"))
    _same_as_traced(rules, state)
    _same_as_traced(rules, other)


def test_the_oracle_compares_every_answer_with_a_fresh_trace(pog, state, monkeypatch):
    # PBEM_SUPPLY_ORACLE=1: a kept network that differs from a fresh trace raises at once.
    import sys

    rules = _fresh(pog)
    monkeypatch.setattr(sys.modules[type(rules)._tracked.__module__], "ORACLE", True)
    russian = _russian(state)
    assert rules.in_supply(state, russian)
    tracked = rules._tracked(state, "ap")
    net = rules._network(state, russian)
    net.reached.discard(next(iter(net.reached)))  # a stale network
    with pytest.raises(AssertionError, match="differs from a fresh trace"):
        rules.in_supply(state, russian)
    assert tracked is rules._tracked(state, "ap")


def test_what_a_caller_holds_is_never_changed_under_it(pog, state):
    # The open spaces and the networks handed out stay as they were when asked (a new list after a change): the
    # Attrition phase holds them while it judges every unit, control.supplied_spaces while it traces.
    rules, m = _fresh(pog), pog.map
    russian = _russian(state)
    open_ = rules._open_spaces(state, "ap")
    held = list(open_)
    net = rules._network(state, russian)
    reached = set(net.reached)
    state.place("GE-CORPS-10", m.index("Warsaw"))
    state.place("GE-1-ARMY", m.index("Chateau Thierry"))
    assert rules._open_spaces(state, "ap") != held
    assert open_ == held and net.reached == reached and net.open_ == held


def test_lines_not_both_ways_are_traced_again_after_every_change(pog, state, monkeypatch):
    # Growing a network from the spaces that opened, and the spaces joined to a port by one spread, hold for lines
    # that run both ways (checked once per lines); for others every change traces again and the stretches are
    # labelled over the whole map, as before: the same answers either way.
    rules, m = _fresh(pog), pog.map
    monkeypatch.setattr(type(rules), "_symmetric", lambda self, lines: False)
    state.status["neutral_nations"].remove("TU")
    state.status["mef_beachhead"] = "Gallipoli"
    _same_as_traced(rules, state)
    russian = _russian(state)
    before = rules._network(state, russian)
    assert not before.symmetric
    state.place("GE-CORPS-10", m.index("Chateau Thierry"))  # closes a space outside the Russian network
    after = rules._network(state, russian)
    assert after.reached is not before.reached and after.reached == before.reached  # traced again all the same
    _same_as_traced(rules, state)
    state.place("GE-CORPS-10", m.index("Warsaw"))
    _same_as_traced(rules, state)


def test_the_spaces_joined_to_a_port_are_the_stretches_holding_one(pog):
    # _Network.sea (one spread from the open friendly ports) answers as the stretches labelled over the whole map,
    # for symmetric lines, whatever is open.
    import random
    import sys

    supply = sys.modules[type(module_ruleset(pog))._tracked.__module__]
    lines = [tuple(n) for n in pog.map.neighbours]
    assert supply._symmetric(lines) and not supply._symmetric([(1,), (), ()])
    rng = random.Random(24)
    for _ in range(20):
        open_ = [rng.random() < 0.6 for _ in lines]
        ports = set(rng.sample(range(len(lines)), 6))
        fast = supply._Network(set(), set(), lines, ports, [0], open_, {}, True)
        slow = supply._Network(set(), set(), lines, ports, [0], open_, {}, False)
        assert [fast.supplies(here, True) for here in range(len(lines))] == [slow.supplies(here, True) for here in range(len(lines))]


def test_constantinople_stops_being_a_port_when_gallipoli_changes_hands(pog, state):
    # 14.1.4: Constantinople is an Allied port only while the Allies control Gallipoli: a port lost while its space
    # stays open (the spaces joined to a port are worked out again, not grown).
    rules, m = _fresh(pog), pog.map
    state.status["neutral_nations"].remove("TU")
    for unit in [u for u in state.units.values() if u.on_map and u.unit.type.nationality == "TU"]:
        state.remove(unit.id)
    for name in ("Constantinople", "Gallipoli"):
        state.status["control"][name] = "ap"
    constantinople = m.index("Constantinople")
    british = next(u for u in state.units.values() if u.on_map and u.unit.type.nationality == "BR")
    assert constantinople in rules._network(state, british).ports
    _same_as_traced(rules, state)
    state.status["control"]["Gallipoli"] = "cp"
    assert constantinople not in rules._network(state, british).ports
    _same_as_traced(rules, state)
