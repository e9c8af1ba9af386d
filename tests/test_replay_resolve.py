"""The engine asks a ruleset's own ``resolve`` for every action, or for the kinds it names in ``resolved_kinds`` (the
kernel's, which changes nothing, is skipped)."""

from __future__ import annotations

from dataclasses import replace

from china_war_support import MODULE, SRC, H, move, phase, scenario_state

import pbem.engine.replay as engine
from pbem.model.actions import Turn, TurnHeader
from pbem.rules.ruleset import Ruleset


class Redirecting(Ruleset):
    """Every move ends one hex further than written: the engine must check and apply what ``resolve`` gives."""

    def __init__(self, module):
        super().__init__(module)
        self.resolved: list[int] = []
        self.checked: list[tuple[int, ...]] = []

    def resolve(self, action, state, ctx):
        self.resolved.append(action.index)
        if action.kind == "move":
            return replace(action, path=action.path + (H("2606"),))
        return action

    def check_move(self, action, state, ctx):
        self.checked.append(action.path)
        return []


def test_a_rulesets_own_resolve_is_asked_for_every_action(monkeypatch):
    rules = Redirecting(MODULE)
    monkeypatch.setattr(engine, "module_ruleset", lambda module: rules)
    actions = [phase("movement"), move("SOV-TK-XX-1-02", "2604", "2605")]
    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
    state = scenario_state()
    engine.replay(MODULE, state, Turn("test.json", TurnHeader(MODULE.id, "border-war", 1, "soviet", "border-war"), actions))
    assert rules.resolved == [0, 1]
    assert rules.checked == [(H("2604"), H("2605"), H("2606"))]
    assert state.units["SOV-TK-XX-1-02"].at == H("2606")


def test_the_kernels_resolve_changes_nothing():
    action = move("SOV-TK-XX-1-02", "2604", "2605")
    assert Ruleset(MODULE).resolve(action, scenario_state(), None) is action  # type: ignore[arg-type]


class MovesOnly(Redirecting):
    resolved_kinds = frozenset({"move"})


def test_a_ruleset_that_names_its_resolved_kinds_is_asked_about_those_only(monkeypatch):
    rules = MovesOnly(MODULE)
    monkeypatch.setattr(engine, "module_ruleset", lambda module: rules)
    actions = [phase("movement"), move("SOV-TK-XX-1-02", "2604", "2605")]
    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
    state = scenario_state()
    engine.replay(MODULE, state, Turn("test.json", TurnHeader(MODULE.id, "border-war", 1, "soviet", "border-war"), actions))
    assert rules.resolved == [1]  # not the phase
    assert rules.checked == [(H("2604"), H("2605"), H("2606"))]
    assert state.units["SOV-TK-XX-1-02"].at == H("2606")


class OwnDispatch(Ruleset):
    """A ruleset with its own ``check`` and ``after``: the engine must call them, not the kind's methods."""

    def check(self, action, state, ctx):
        return []

    def after(self, action, state, ctx):
        return []

    def check_move(self, action, state, ctx):  # never called by the engine: ``check`` decides
        raise AssertionError("check_move called past the ruleset's own check")


def test_hooks_are_the_kinds_methods_or_the_rulesets_own_dispatch():
    rules = Redirecting(MODULE)
    check, after = rules.hooks("move")
    assert check == rules.check_move and after is None  # no after_move: nothing to call
    check, after = rules.hooks("phase")
    assert check == rules.check and after is None  # no check_phase: ``check`` gives the unchecked warning
    own = OwnDispatch(MODULE)
    assert own.hooks("move") == (own.check, own.after)


def test_a_kind_without_a_check_is_reported_once_through_hooks():
    rules = Redirecting(MODULE)
    state = scenario_state()
    ctx = rules.begin(state, Turn("test.json", TurnHeader(MODULE.id, "border-war", 1, "soviet", "border-war"), []))
    check, _ = rules.hooks("phase")
    first, second = check(phase("movement"), state, ctx), check(phase("combat"), state, ctx)
    assert len(first) == 1 and "phase actions are not checked" in first[0].message and second == []
