"""``State.changed_since``: the locations whose stacks changed since an earlier layout number of the same state, so a
rule can bring what it derived from where units stood up to date instead of reading every stack again."""

from pbem.model.jsonsource import load_json
from pbem.model.state import OFF_MAP, State

# A Paths of Glory module and its 1914 start: the same fixtures as the supply tests that rely on the journal.
from test_paths_of_glory_supply_cache import MODULE, pog, state  # noqa: F401


def test_nothing_changed_since_the_current_layout(state):
    assert state.changed_since(state.layout) == set()


def test_a_move_changes_both_ends_and_a_loss_its_space(pog, state):
    m = pog.map
    unit = state.units["GE-8-ARMY"]
    start, before = unit.at, state.layout
    state.place(unit.id, m.index("Kovno"))
    assert state.changed_since(before) == {start, m.index("Kovno")}
    middle = state.layout
    state.remove(unit.id)
    assert state.changed_since(middle) == {m.index("Kovno")}
    assert state.changed_since(before) == {start, m.index("Kovno")}


def test_a_unit_placed_from_off_the_map_changes_only_where_it_goes(pog, state):
    off = next(u for u in state.units.values() if u.at == OFF_MAP)
    before = state.layout
    state.place(off.id, pog.map.index("Paris"))
    assert state.changed_since(before) == {pog.map.index("Paris")}


def test_a_move_to_where_the_unit_already_is_changes_nothing(state):
    unit = state.units["GE-8-ARMY"]
    before = state.layout
    state.place(unit.id, unit.at)
    assert state.layout == before and state.changed_since(before) == set()


def test_unknown_or_forgotten_numbers_give_none(pog, state):
    other = State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))
    assert state.changed_since(other.layout) is None  # another state's number
    unit = state.units["GE-8-ARMY"]
    first, home = state.layout, unit.at
    for n in range(600):  # more changes than the journal keeps
        state.place(unit.id, pog.map.neighbours[home][0] if n % 2 == 0 else home)
    assert state.changed_since(first) is None
    recent = state.layout
    state.place(unit.id, pog.map.neighbours[home][0])
    assert state.changed_since(recent) == {home, pog.map.neighbours[home][0]}


def test_the_locations_changed_are_every_stack_that_differs(pog, state):
    # Whatever happened in between, every location whose stack differs from the snapshot is in the answer.
    import random

    rng = random.Random(7)
    on_map = [u.id for u in state.units.values() if u.on_map]
    for _ in range(20):
        snapshot, before = {k: list(v) for k, v in state.stacks.items()}, state.layout
        for _ in range(rng.randrange(1, 12)):
            unit_id = rng.choice(on_map)
            if rng.random() < 0.2:
                state.remove(unit_id)
            else:
                state.place(unit_id, rng.randrange(len(pog.map)))
        differs = {loc for loc in set(snapshot) | set(state.stacks) if snapshot.get(loc) != state.stacks.get(loc)}
        assert differs <= state.changed_since(before)
