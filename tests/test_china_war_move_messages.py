"""What a move over its allowance, or into a hex it may not enter, says: the words the move check puts together
only when a move needs them (the allowance's reason, the hexes that may bar entry, worked out once per side)."""

from __future__ import annotations

from china_war_support import MAP, MODULE, RULES, SRC, H, move, phase, scenario_state

from pbem.engine.replay import replay
from pbem.model.actions import Turn, TurnHeader
from pbem.model.state import State, UnitState
from pbem.rules.stacking import stack_weight

from importlib import import_module

base = import_module(type(RULES).__module__ + ".base")  # the module's rules package (not importable by its folder name)


def messages(side: str, actions: list, state: State | None = None) -> list[tuple[str, str]]:
    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
    turn = Turn("test.json", TurnHeader(MODULE.id, "border-war", 1, side, "border-war"), actions)
    return [(v.rule, v.message) for v in replay(MODULE, state or scenario_state(), turn).violations]


MOVEMENT = [phase("movement")]
REACTION = [phase("movement"), phase("reaction")]


def test_6_12_the_printed_allowance():
    assert messages("soviet", MOVEMENT + [move("SOV-TK-XX-1-02", "2604", "2605", "2606", "2607")]) == [
        ("6.12", "SOV-TK-XX-1-02 spends 10 MP (2605 mountain+river 4, 2606 mountain 3, 2607 forest 3) but has an MPA of 9")
    ]
    legs = [move("SOV-TK-XX-1-02", "2604", "2605", "2606"), move("SOV-TK-XX-1-02", "2606", "2607")]
    assert messages("soviet", MOVEMENT + legs) == [
        ("6.12", "SOV-TK-XX-1-02 spends 3 MP (2607 forest 3) after 7 MP earlier this phase but has an MPA of 9")
    ]


def test_6_23_half_out_of_supply():
    path = ("3603", "3703", "3803", "3903", "4003", "4103")
    assert messages("soviet", MOVEMENT + [move("SOV-MR-XX-1-03", *path)]) == [
        ("6.23", "SOV-MR-XX-1-03 spends 5 MP (3703 clear 1, 3803 clear 1, 3903 clear 1, 4003 clear 1, 4103 clear 1) but has 4 MP (half of 9: out of supply)")
    ]


def test_2_0_the_reaction_limits():
    assert messages("chinese", REACTION + [move("SOV-MR-XX-1-02", "3104", "3204", "3304")]) == [
        ("2.0", "SOV-MR-XX-1-02 spends 4 MP (3204 clear+river 2, 3304 clear+river 2) but has 2 MP in a reaction phase")
    ]
    assert messages("soviet", REACTION + [move("PLA-INF-XXX-2-01", "3105", "3205")]) == [
        ("2.0", "PLA-INF-XXX-2-01 may not react: only mechanized and 1st-line non-mechanized units move in a reaction phase")
    ]


def test_6_43_soviet_airborne():
    assert messages("soviet", MOVEMENT + [move("SOV-AB-XX-1-02", "3802", "3803", "3804", "3805")]) == [
        ("6.43", "SOV-AB-XX-1-02 spends 3 MP (3803 clear 1, 3804 clear+river 1, 3805 clear+river 1) but has an MPA of 2 (6.43: a Soviet airborne division has 2 MP without the optional rule 16.0)")
    ]
    assert messages("chinese", REACTION + [move("SOV-AB-XX-1-02", "3802", "3803")]) == [
        ("6.43", "SOV-AB-XX-1-02 is airborne and may not move in a reaction phase")
    ]


def test_5_13_a_minor_power_bars_entry():
    assert messages("soviet", MOVEMENT + [move("SOV-MR-XX-2-05", "4512", "4513")]) == [
        ("5.13", "SOV-MR-XX-2-05 enters 4513 in North Korea, which has not yet declared itself")
    ]


def test_the_hexes_that_may_bar_entry_are_those_the_rules_ask_about():
    """Every hex the move check skips is one where the entry rules have nothing to say (no militia of another
    side, not the Trans-Siberian, no minor power), for each side; and the others are asked."""
    for side in ("soviet", "chinese", "neutral"):
        may_bar = RULES.barring(side)
        assert len(may_bar) == len(MAP)
        for hex_ in range(len(MAP)):
            owner = RULES.militia_owner(hex_)
            asked = owner not in (None, side) or hex_ in RULES.trans_siberian or MAP.country[hex_] in base.MINOR_POWERS
            assert may_bar[hex_] == asked, (side, MAP.label(hex_))
    assert any(RULES.barring("soviet")) and not all(RULES.barring("soviet"))


def test_a_face_past_the_last_is_the_last():
    state = scenario_state()
    unit: UnitState = state.units["SOV-TK-XX-1-02"]
    steps = unit.unit.type.steps
    for step in range(len(steps) + 2):
        unit.step = step
        assert unit.face is steps[min(step, len(steps) - 1)]


def test_a_stacks_weight_sums_its_units():
    state = scenario_state()
    for location, ids in state.stacks.items():
        assert stack_weight(state, location, RULES.weight) == sum(RULES.weight(state.units[u]) for u in ids)
    assert stack_weight(state, H("2604"), lambda unit: 1) == len(state.stacks.get(H("2604"), ()))
    assert stack_weight(state, -5, RULES.weight) == 0
