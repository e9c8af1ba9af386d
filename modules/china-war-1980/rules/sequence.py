"""Sequence of play (4.1, 4.2): a game-turn is the political events phase, then each player-turn's
reinforcement, movement, reaction (by the other player) and combat phases, in order.

A turn file holds one player-turn or a whole game-turn, or continues from the phase a written state stopped in.
Omitting a phase of one's own with nothing in it is allowed; going back, repeating a phase, or leaving out the
opponent's reaction phase is not. Stacking (8.0) is judged at the end of the movement, reaction and combat phases.
"""

from __future__ import annotations

from pbem.model.actions import Phase, Turn
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal
from pbem.rules.stacking import over_limit

from .base import COMBAT, MOVEMENT, PHASES, POLITICAL, REACTION, REINFORCEMENT, ChinaWarBase


class SequenceRules(ChinaWarBase):
    def sequence(self, state: State) -> list[tuple[str, str, str]]:
        """(phase, side acting in it, side whose player-turn it is) for one game-turn."""
        first = state.first_side or self.module.sides[0]
        steps = [(POLITICAL, "both", first)]
        for side in (first, self.other(first)):
            steps += [(REINFORCEMENT, side, side), (MOVEMENT, side, side), (REACTION, self.other(side), side), (COMBAT, side, side)]
        return steps

    def begin(self, state: State, turn: Turn) -> TurnContext:
        ctx = super().begin(state, turn)
        ctx.extra.update(pacified=set(state.status.get("pacified", ())), follow_up=set(), stopped={}, railed=set(), flown=set())
        # Where each unit began the phase, which moves it made (see ``ChinaWarRules.check``): ready before the first move.
        ctx.extra.update(phase_start={}, moved_with={}, move_sequences={})
        steps = self.sequence(state)
        ctx.extra["steps"] = steps
        ctx.extra["start_problems"] = []
        header = turn.header
        position = None
        if state.phase is not None and state.turn == header.turn:
            position = next((k for k, (name, _, owner) in enumerate(steps) if name == state.phase and owner == state.side), None)
        elif state.phase is not None and header.turn != state.turn + 1:
            ctx.extra["start_problems"].append(illegal("4.1", f"this file is game-turn {header.turn}, but the state it starts from ends game-turn {state.turn}"))
        if position is None:
            # A fresh start: just before the header side's player-turn (the political phase may open the file).
            own = next(k for k, (name, _, owner) in enumerate(steps) if name == REINFORCEMENT and owner == header.side)
            position = -1 if own == 1 else own - 1
            self.start_player_turn(header.side, state, ctx)
        else:
            name, actor, owner = steps[position]
            ctx.phase, ctx.phase_side, ctx.active_side = name, (owner if actor == "both" else actor), owner
        ctx.extra["position"] = position
        state.turn = header.turn
        return ctx

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        found = self._end_of_phase(state, ctx) + ctx.extra.pop("start_problems", [])
        steps, position = ctx.extra["steps"], ctx.extra["position"]
        if action.name not in PHASES:
            return found + [illegal("4.2", f"there is no {action.name!r} phase (phases: {', '.join(PHASES)})", action)]
        later = self._later(steps, position, action)
        last_reaction = max(k for k, step in enumerate(steps) if step[0] == REACTION)
        if not later and position > last_reaction:
            # The game-turn is over: the file goes on into the next one.
            found.extend(self._end_of_phase(state, ctx))
            self._leave(position, state, ctx, action, found)
            state.turn += 1
            position = ctx.extra["position"] = -1
            later = self._later(steps, position, action)
        if not later:
            where = f"the {self.describe_step(steps[position])}" if position >= 0 else "the start"
            found.append(illegal("4.2", f"a {action.name} phase cannot follow {where}: phases go in order and are not repeated", action))
            return found
        target = later[0]
        for k in range(position + 1, target):
            name, actor, owner = steps[k]
            if name == REACTION:
                found.append(illegal("4.2", f"the {self.side_name(actor)} reaction phase was skipped: it comes between the {self.side_name(owner)} movement and combat phases", action))
        self._leave(position, state, ctx, action, found)
        name, actor, owner = steps[target]
        if owner != ctx.active_side:
            self.start_player_turn(owner, state, ctx)
        ctx.new_phase(name, owner if actor == "both" else actor)
        ctx.active_side = owner
        for key in ("phase_start", "moved_with", "stopped", "railed", "flown", "vacated"):
            ctx.extra[key] = {} if key in ("phase_start", "moved_with", "stopped") else set()
        state.status.pop("vacated", None)  # what the last reaction phase vacated (kept for a file that goes on in it)
        ctx.extra["position"] = target
        if name == POLITICAL:
            ctx.extra["political_rolled"] = False
        return found

    @staticmethod
    def _later(steps: list[tuple[str, str, str]], position: int, action: Phase) -> list[int]:
        """Positions after ``position`` that ``action`` (a phase marker) can name."""
        return [k for k in range(position + 1, len(steps)) if steps[k][0] == action.name and action.side in (None, steps[k][1], steps[k][2])]

    def describe_step(self, step: tuple[str, str, str]) -> str:
        name, actor, owner = step
        return f"{self.side_name(owner if actor == 'both' else actor)} {name} phase"

    def _leave(self, position: int, state: State, ctx: TurnContext, action, found: list[Violation]) -> None:
        """Checks due when a phase ends."""
        rolled = ctx.extra.get("political_rolled") or state.status.get("political_roll_turn") == state.turn
        if position >= 0 and ctx.extra["steps"][position][0] == POLITICAL and not rolled:
            found.append(illegal("5.0", "the political events phase ended without the political roll", action))

    def start_player_turn(self, side: str, state: State, ctx: TurnContext) -> None:
        """A new player-turn: minor nations that joined the war change hands now (5.15)."""
        ctx.active_side = side
        ctx.extra["follow_up"] = set()
        pending = state.status.get("pending_control", {})
        for nationality, controller in sorted(pending.items()):
            state.control[nationality] = controller
            for unit in state.units.values():
                if unit.unit.type.nationality == nationality:
                    unit.side = controller
        state.status.pop("pending_control", None)

    def after_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        state.side = ctx.active_side
        return []

    def check_any(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        """Every action but a phase marker needs a phase to happen in."""
        if ctx.phase is None and action.kind not in ("phase", "comment"):
            return [illegal("4.2", f"a {action.kind} action before any phase marker: start the file with its phase, e.g. {{\"phase\": \"movement\"}}", action)]
        return []

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        found = self._end_of_phase(state, ctx)
        state.status["pacified"] = sorted(ctx.extra["pacified"])
        return found

    def _end_of_phase(self, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase not in (MOVEMENT, REACTION, COMBAT) or not ctx.touched:
            ctx.touched.clear()
            return []
        found = []
        for location, weight, limit in over_limit(state, ctx.touched, self.weight, self.stack_limit.__getitem__):
            terrain = self.pop[location] or self.map.terrain[location]
            found.append(
                illegal(
                    "8.0",
                    f"{self.where(location)} ({terrain}) holds {weight} divisions at the end of the {ctx.phase} phase, "
                    f"limit {limit}; the excess must be eliminated",
                    ctx.last_entry.get(location),
                )
            )
        ctx.touched.clear()
        return found
