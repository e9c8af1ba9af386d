"""``pbem check --explain`` for Paths of Glory: an attack worked out as the fire tables give it (12.2-12.3), the same
tables, shifts and modifiers the check of 12.2.8 uses: each side's strength and table (army or corps/fort), its column,
the terrain and trench shifts, the die roll modifiers (Sinai, combat cards), a flank attempt, and the loss number
each side inflicts for every roll of its die. Also the flank attempt's claimed modifier (``"flank": {"pin": ..., "roll": 4,
"drm": 1}``), checked against 12.3.2's count of free attacking spaces."""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.combat import FireWorking, SideFire
from pbem.rules.ruleset import TurnContext, mismatch

from .combat import CombatRules, _fort_lost
from .events import ROLL_CARDS


class ExplainRules(CombatRules):
    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_attack(action, state, ctx)
        if action.flank_pin is None or action.flank_drm is None:
            return found
        attackers = [state.units[u] for u in action.attackers]
        if not attackers or not all(u.on_map for u in attackers):
            return found
        free = self._free_flank_spaces(action, state, attackers)
        drm = len(free) * self.module.tables["flank_attack"]["drm_per_free_space"]
        if action.flank_drm != drm:
            spaces = ", ".join(self.where(s) for s in free) or "none"
            found.append(mismatch("12.3.2", f"the flank roll's modifier is {drm:+d} (attacking spaces not joined to another enemy-occupied space: {spaces}), not {action.flank_drm:+d}", action))
        return found

    def _free_flank_spaces(self, action, state: State, attackers: list[UnitState]) -> list[int]:
        """12.3.2: the attacking spaces, but the pinning one, that add +1 to the flank roll."""
        spaces = sorted({u.at for u in attackers})
        return [s for s in spaces if s != action.flank_pin and self._free_flank(state, s, action.target, attackers[0].side)]

    def odds_attack(self, action, state: State, ctx: TurnContext) -> FireWorking | None:
        attackers = [state.units[u] for u in action.attackers if u in state.units]
        if not attackers or not all(u.on_map for u in attackers):
            return None
        side = attackers[0].side
        target = action.target
        play = self.current_play(ctx)
        retreated = play.retreated_into.get(target, set()) if play is not None else set()
        defenders = [u for u in self.enemy_units(state, target, side) if u.id not in retreated]
        fort = self.fort(state, target) if self.controller(state, target) != side else 0
        if not defenders and not fort:
            return None
        terrain = self.module.map.terrain[target]
        effects = self.module.tables["terrain_effects"]
        terrain_effect = effects["terrain"].get(terrain, effects["terrain"]["clear"])
        attacker_shifts: list[tuple[str, int, str]] = []
        defender_shifts: list[tuple[str, int, str]] = []
        if terrain_effect["attacker_shift"]:
            attacker_shifts.append((terrain, terrain_effect["attacker_shift"], "12.2.8, Terrain Effects Chart"))
        if terrain_effect["defender_shift"]:
            defender_shifts.append((terrain, terrain_effect["defender_shift"], "12.2.8, Terrain Effects Chart"))
        trench = self.trench(state, target)
        if trench and defenders:  # 15.1.6: an unoccupied fort gets no trench benefit
            level = effects["trench"][str(trench["level"])]
            attacker_shifts.append((f"trench level {trench['level']}", level["attacker_shift"], "12.2.8, Terrain Effects Chart"))
            defender_shifts.append((f"trench level {trench['level']}", level["defender_shift"], "12.2.8, Terrain Effects Chart"))
        attacker_drms: list[tuple[str, int, str]] = []
        defender_drms: list[tuple[str, int, str]] = []
        if all(self.where(u.at) == "Sinai" for u in attackers):
            attacker_drms.append(("all attackers in Sinai", self.module.tables["fire"]["sinai_drm"], "12.2.6"))
        notes: list[str] = []
        for card_id in action.cards:
            card = self.module.cards.get(card_id)
            if card is None:
                continue
            attacking = card["side"] == side
            drm = ROLL_CARDS.get(card_id)
            applies = drm is not None and self._card_applies(card_id, state, action, attackers if attacking else defenders, attacking, defenders)  # type: ignore[attr-defined]
            if applies:
                (attacker_drms if attacking else defender_drms).append((f"{card_id} {card['name']}", drm, "12.2.6, card"))
            else:
                why = "its condition does not hold here" if drm is not None else "it does more than modify a roll"
                notes.append(f"combat card {card_id} {card['name']}: not counted below ({why}); the check leaves this combat's results unjudged")
        sequenced, waiting = None, ""
        if action.flank_pin is not None:
            notes.append(self._flank_note(action, state, attackers, defenders))
            sequenced, waiting = self._flank_sequence(action, state, attackers, defenders, fort)
        return FireWorking(
            target=self.where(target),
            attacker=self._side_fire("attacker", "roll", attackers, 0, attacker_shifts, attacker_drms),
            defender=self._side_fire("defender", "defender_roll", defenders, fort, defender_shifts, defender_drms),
            notes=tuple(notes), simultaneous=action.flank_pin is None, sequenced=sequenced, waiting=waiting,
        )  # fmt: skip

    def _flank_sequence(self, action, state: State, attackers: list[UnitState], defenders: list[UnitState], fort: int) -> tuple[str | None, str]:
        """12.3.3: the result of a flank attack for the rolls written, fired in sequence as the check of 12.2.8 fires
        it (a success: the attacker first, the defender with what is left; a failure: the defender first, the
        attacker with what is left, the losses the first fire caused being those written); or, when it cannot be
        worked out, what the player must add, named exactly."""
        missing = [what for what, value in (("the attacker's roll", action.roll), ("the defender's roll (defender_roll)", action.defender_roll),
                                            ("the flank roll", action.flank_roll)) if value is None]
        if missing:
            return None, f"{' and '.join(missing)} missing: write {'them' if len(missing) > 1 else 'it'}, or the result"
        side = attackers[0].side
        card_drm = self.card_drms(action, state, side) if action.cards else (0, 0)
        if card_drm is None:
            return None, f"combat cards {', '.join(action.cards)} not all modelled: write the result"
        drm = self.module.tables["fire"]["sinai_drm"] if all(self.where(u.at) == "Sinai" for u in attackers) else 0
        drm += card_drm[0]
        attacker_shift, defender_shift = self.shifts(state, action.target, fort_only=not defenders)
        spaces = sorted({u.at for u in attackers})
        if self.flank_refused(state, action.target, attackers, defenders, spaces) or action.flank_pin not in spaces:
            # no flank attack may be made here (the check says why, 12.3.1-12.3.2): both sides fire together
            attacker_loss = self.fire(defenders, fort, defender_shift, action.defender_roll + card_drm[1])[0]
            return f"{attacker_loss}/{self.fire(attackers, 0, attacker_shift, action.roll + drm)[0]}", ""
        free = self._free_flank_spaces(action, state, attackers)
        flank = action.flank_roll + len(free) * self.module.tables["flank_attack"]["drm_per_free_space"]
        if flank >= self.module.tables["flank_attack"]["success_at_least"]:  # the attacker fires first
            defender_loss = self.fire(attackers, 0, attacker_shift, action.roll + drm)[0]
            cancel = "cancel_retreat" in action.declared and action.losses_defender
            fired_at = action.losses_defender[:-1] if cancel else action.losses_defender
            if not fired_at and self._most_loss(state, defenders, defender_loss):
                return None, (f"the flank attempt succeeds (12.3.3): the attacker fires first and inflicts {defender_loss}, and the defender fires with what "
                              "that leaves: write the defender's losses (\"defender loses ...\"), or the result")
            firing = self._after(state, defenders, fired_at, action.replacements)[0]
            attacker_loss = self.fire(firing, 0 if _fort_lost(action) else fort, defender_shift, action.defender_roll + card_drm[1])[0]
        else:  # a failed attempt: the defender fires first
            attacker_loss = self.fire(defenders, fort, defender_shift, action.defender_roll + card_drm[1])[0]
            if not action.losses_attacker and self._most_loss(state, attackers, attacker_loss):
                return None, (f"the flank attempt fails (12.3.3): the defender fires first and inflicts {attacker_loss}, and the attacker fires with what "
                              "that leaves: write the attacker's losses (\"attacker loses ...\"), or the result")
            shooting = self._after(state, attackers, action.losses_attacker, action.replacements)[0]
            defender_loss = self.fire(shooting, 0, attacker_shift, action.roll + drm)[0]
        return f"{attacker_loss}/{defender_loss}", ""

    def _side_fire(self, who: str, field: str, units: list[UnitState], fort: int, shifts, drms) -> SideFire:
        army, corps = self._tables()
        armies = any(self.is_army(u) for u in units)
        table = army if armies else corps
        strength = sum(u.face.attack for u in units) + fort
        parts = tuple(f"{self.name(u.id)}{' (reduced)' if u.step else ''} {u.face.attack}" for u in units) + ((f"fort {fort}",) if fort else ())
        shift = sum(n for _, n, _ in shifts)
        drm = sum(n for _, n, _ in drms)
        low, high = self.module.tables["fire"]["die_min"], self.module.tables["fire"]["die_max"]
        return SideFire(
            side=who, roll_field=field, strength=strength, parts=parts, table="army" if armies else "corps/fort",
            column=table.columns[table.column(strength)], shifts=tuple(shifts), final_column=table.columns[table.shifted(strength, shift)],
            drms=tuple(drms), losses=tuple((roll, table.result(strength, shift, roll + drm)) for roll in range(low, high + 1)),
        )  # fmt: skip

    def _flank_note(self, action, state: State, attackers: list[UnitState], defenders: list[UnitState]) -> str:
        """12.3: the flank attempt as the check reads it (eligibility is judged by the check, not here)."""
        free = self._free_flank_spaces(action, state, attackers)
        needed = self.module.tables["flank_attack"]["success_at_least"]
        drm = len(free) * self.module.tables["flank_attack"]["drm_per_free_space"]
        total = action.flank_roll + drm
        working = f"flank roll {action.flank_roll} {drm:+d} ({len(free)} attacking space(s) not joined to another enemy-occupied space, 12.3.2) = {total}"
        if total >= needed:
            return f"flank attempt succeeds: {working}, {needed} or more (12.3.3): the attacker fires first, the defender fires with the units the attacker's fire leaves"
        return f"flank attempt fails: {working}, below {needed} (12.3.3): the defender fires first, the attacker with the units its fire leaves"
