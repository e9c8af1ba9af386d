"""The Sub-Zero Loss Phase (SZ-1, SZ-2; digest 3.21 and the Sub-Zero Loss Table 4.7), night turns only.

How a turn file expresses it: one ``{"special": "sub_zero", "at": HEX, "units": [STACK], "roll": n,
"result": "step" | "none"}`` per rolling stack, and right after a ``step`` result the step it costs as a plain
``{"loss": UNIT}`` (or ``{"eliminate": [UNIT]}`` for a unit on its last step) naming one unit of that stack,
the owner's choice. ``units`` may be left out (the stack is then the hex's rolling units); if given it must
be the whole rolling stack. The roll's result is checked against the table (``mismatch`` when wrong), the
loss against the result (``illegal`` when missing, extra or taken by a unit outside the stack).

Who rolls (per stack, as the PAC says): in each hex, the Soviet units not under a Bonfire marker (units that
arrived after the bonfire was lit sit on top of it and roll, BF-2) and the Finnish units with a Skull marker
(night raiders, NR-6). The stacks are taken as they stand when the phase begins; every one must roll before
the phase ends — both sides' stacks, since the phase belongs to both players.
"""

from __future__ import annotations

from pbem.model.actions import Action, Eliminate, Loss, Phase, Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext

from .base import FINNISH, SOVIET, SUB_ZERO, illegal, mismatch

SUB_ZERO_RESULTS = ("step", "none")


class SubZeroRules:
    # --- who rolls -------------------------------------------------------------------------------------
    def sub_zero_stacks(self, state: State) -> dict[int, frozenset[str]]:
        """Hex -> the units there that must roll on the Sub-Zero Loss Table now (SZ-1)."""
        stacks: dict[int, set[str]] = {}
        for unit in state.units.values():
            if not unit.on_map:
                continue
            rolls = (unit.side == SOVIET and "bonfire" not in unit.markers) or (unit.side == FINNISH and "skull" in unit.markers)
            if rolls:
                stacks.setdefault(unit.at, set()).add(unit.id)
        return {at: frozenset(ids) for at, ids in stacks.items()}

    def sub_zero_modifiers(self, location: int, side: str) -> dict[str, int]:
        drm = self.module.tables["sub_zero_loss"]["drm"]
        found = {}
        if self.map.terrain[location] == "frozen_lake":
            found["frozen lake"] = drm["frozen_lake"]
        if side == FINNISH:
            found["Finnish stack"] = drm["finnish"]
        return found

    def sub_zero_result(self, total: int) -> str:
        table = self.module.tables["sub_zero_loss"]["results"]
        return next(r["result"] for r in table if r.get("min", -99) <= total <= r.get("max", 99))

    # --- the phase -------------------------------------------------------------------------------------
    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        found = super().check_phase(action, state, ctx)  # type: ignore[misc]
        if action.name == SUB_ZERO and state.turn in self.track["night_turns"]:
            ctx.extra["sub_zero"] = {"due": self.sub_zero_stacks(state), "rolled": set(), "pending": None, "start": action}
        else:
            ctx.extra.pop("sub_zero", None)
        return found

    def _end_of_phase(self, state: State, ctx: TurnContext) -> list[Violation]:
        found = super()._end_of_phase(state, ctx)  # type: ignore[misc]
        phase = ctx.extra.pop("sub_zero", None) if ctx.phase == SUB_ZERO else None
        if phase is None:
            return found
        found += self._unpaid(phase)
        for location in sorted(set(phase["due"]) - phase["rolled"]):
            names = ", ".join(self.name(u) for u in sorted(phase["due"][location]))
            found.append(illegal("SZ-1", f"the stack in {self.where(location)} ({names}) did not roll on the Sub-Zero Loss Table", phase["start"]))
        return found

    def _unpaid(self, phase: dict) -> list[Violation]:
        pending = phase.get("pending")
        phase["pending"] = None
        if pending is None:
            return []
        location, _, roll_action = pending
        return [illegal("SZ-1", f"the sub-zero roll in {self.where(location)} costs the stack a step: no loss was taken", roll_action)]

    # --- the roll ---------------------------------------------------------------------------------------
    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "sub_zero":
            return self._check_sub_zero(action, state, ctx)
        return super().check_special(action, state, ctx)  # type: ignore[misc]

    def _check_sub_zero(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        phase = ctx.extra.get("sub_zero")
        if ctx.phase != SUB_ZERO:
            return [illegal("SZ-1", f"sub-zero rolls are made in the Sub-Zero Loss Phase, not the {ctx.phase or 'no'} phase", action)]
        if phase is None:
            return []  # a Sub-Zero Loss Phase on a day turn is reported once, at the phase
        found = self._unpaid(phase)
        location = action.at if action.at is not None else (state.units[action.units[0]].at if action.units else None)
        if location is None:
            return found + [illegal("SZ-1", "name the hex (at) of the stack that rolls", action)]
        where = self.where(location)
        due = phase["due"].get(location)
        if due is None:
            return found + [illegal("SZ-1", f"no stack in {where} rolls: Soviet units under a Bonfire marker and Finnish units without a Skull marker skip the Sub-Zero Loss Table", action)]
        if location in phase["rolled"]:
            return found + [illegal("SZ-1", f"the stack in {where} has already rolled: one roll per stack", action)]
        phase["rolled"].add(location)
        if action.units and set(action.units) != due:
            found.append(illegal("SZ-1", f"the stack in {where} that rolls is {', '.join(self.name(u) for u in sorted(due))}: one roll for the whole stack, and only for it", action))
        if len(action.rolls) != 1 or not 1 <= action.rolls[0] <= 6:
            return found + [mismatch("SZ-1", f"the Sub-Zero Loss roll is one 1d6, not {list(action.rolls)}", action)]
        side = state.units[next(iter(due))].side
        modifiers = self.sub_zero_modifiers(location, side)
        total = action.rolls[0] + sum(modifiers.values())
        expected = self.sub_zero_result(total)
        claimed = (action.result or "").strip().lower()
        if claimed != expected:
            explained = "".join(f" {v:+d} {k}" for k, v in modifiers.items())
            found.append(mismatch("SZ-1", f"Sub-Zero Loss Table: {action.rolls[0]}{explained} = {total} gives {expected} (3 or less: a step), not {claimed or 'nothing'}", action))
        if "step" in (expected, claimed):  # a loss after a wrongly claimed 'step' is the mismatch already reported
            phase["pending"] = (location, due, action)
        return found

    # --- the loss it requires ------------------------------------------------------------------------------
    def check_loss(self, action: Loss, state: State, ctx: TurnContext) -> list[Violation]:
        return self._sub_zero_loss(action, [action.unit], state, ctx)

    def check_eliminate(self, action: Eliminate, state: State, ctx: TurnContext) -> list[Violation]:
        return self._sub_zero_loss(action, list(action.units), state, ctx)

    def _sub_zero_loss(self, action: Action, units: list[str], state: State, ctx: TurnContext) -> list[Violation]:
        """In the Sub-Zero Loss Phase a loss is the step a roll just required, taken by one unit of that stack.
        Outside it, ``loss`` and ``eliminate`` are not checked (over-stacking removals and the like)."""
        phase = ctx.extra.get("sub_zero")
        if ctx.phase != SUB_ZERO or phase is None:
            return []
        pending = phase.get("pending")
        if pending is None:
            return [illegal("SZ-1", f"{', '.join(self.name(u) for u in units)}: no sub-zero roll calls for this loss", action)]
        location, due, _ = pending
        phase["pending"] = None
        steps = sum(len(state.units[u].unit.type.steps) - state.units[u].step for u in units) if action.kind == "eliminate" else len(units)
        if len(units) != 1 or units[0] not in due:
            return [illegal("SZ-1", f"the sub-zero step is taken by one unit of the stack in {self.where(location)}, not by {', '.join(self.name(u) for u in units)}", action)]
        if steps != 1:
            return [illegal("SZ-1", f"the sub-zero roll costs one step: eliminating {self.name(units[0])} takes {steps}", action)]
        return []
