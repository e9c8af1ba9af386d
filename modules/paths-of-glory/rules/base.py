"""Paths of Glory: what every check needs -- the game's status in the state, space control, nationalities,
the sequence of play (action rounds) and the card play that the round's actions spend.

Rule numbers are the seed translation's (an older edition; see the digest's numbering notes), and the 2022
living rules' where the seed is silent (marked LR2022 in messages).

The game's status lives in ``state.status`` (the scenario starts it): ``vp``, ``war_status`` (per side),
``combined_war_status``, ``commitment`` (per side), ``trenches`` (space -> level and owner), ``control``
(space -> side, where it differs from the map's starting side), ``forts`` (space -> besieged or destroyed),
``events_played`` and ``removed_cards`` (card ids), ``neutral_nations``, ``round`` (the last action round
begun) and ``last_play`` (per side: turn, round and use of its last card play), ``entries`` (the turn of the
last neutral entry, reinforcement events by nation and turn).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import Ruleset, TurnContext, illegal

PHASES = ("mandated_offensive", "action", "attrition", "siege", "war_status", "replacement", "draw", "end")
PHASE_ORDER = {name: n for n, name in enumerate(PHASES)}
COMMITMENT = ("mobilization", "limited_war", "total_war")
ROUNDS = 6
# 9.2.3: units that count as one nationality for activation (group -> members).
BRITISH = frozenset({"BR", "AUS", "CND", "PT", "ANA", "BEF", "MEF"})
CHANNEL_PORTS = ("Amiens", "Calais", "Ostend")


@dataclass
class Play:
    """The card play of the current action round and what its actions have spent so far."""

    side: str
    card: str | None
    use: str
    ops: int = 0
    sr: int = 0
    spent_ops: int = 0
    spent_sr: int = 0
    activated: dict[int, str] = field(default_factory=dict)
    moved: dict[str, int] = field(default_factory=dict)  # unit -> MP spent this round
    redeployed: set[str] = field(default_factory=set)
    attacked_with: set[str] = field(default_factory=set)
    attacked_out: set[str] = field(default_factory=set)  # units that left a siege to attack next door (15.2.3)
    retreated_into: dict[int, set[str]] = field(default_factory=dict)
    attacked_spaces: set[int] = field(default_factory=set)  # LR2022 12.1.6: each space attacked once an action
    grants: frozenset[str] = frozenset()  # what an event play also allows ("ops", "sr"): events.py
    notes: dict = field(default_factory=dict)  # per-round notes of an event's effect (the Sud Army stack)


@dataclass(frozen=True)
class Spaces:
    """Per-space columns of the map that the checks read on every action (by location index)."""

    labels: list[str]
    country: list[str | None]
    side: list[str | None]  # the side the map gives the space
    fort: list[int]  # the LF of its fort (0: none)


@dataclass
class Round:
    number: int
    side: str
    play: Play | None = None


def pog(ctx: TurnContext) -> dict[str, Any]:
    """The game's own notes on the turn (``ctx.extra["pog"]``), made on first use."""
    try:
        return ctx.extra["pog"]
    except KeyError:
        found = ctx.extra["pog"] = {}
        return found


class PathsOfGloryBase(Ruleset):
    """Status, control, nationalities, and the sequence of play."""

    unchecked_ok = frozenset({"comment"})

    def __init__(self, module) -> None:
        super().__init__(module)
        game_map = module.map
        # Read on every action; worked out once per ruleset, as the module's map never changes.
        self.spaces = Spaces(
            labels=game_map.labels,
            country=game_map.country,
            side=[extra.get("side") for extra in game_map.extra],
            fort=[int(extra.get("fort", 0)) for extra in game_map.extra],
        )
        # The steps along a dashed (or MEF) connection, each way: only there may a unit be barred (``may_use``).
        self.restricted_steps = frozenset(step for a, b in game_map.restricted for step in ((a, b), (b, a)))

    # --- status -------------------------------------------------------------------------------------
    @staticmethod
    def status(state: State) -> dict[str, Any]:
        return state.status

    def edition(self) -> str:
        return self.module.options.get("edition", "seed")

    def played(self, state: State, event: str) -> bool:
        """Whether a card with event key ``event`` has been played as an event."""
        played = state.status.get("events_played", ())
        # Asked ~100 times a turn (and by every supply question) while the list rarely changes: its events are kept
        # with a copy of the list they were read from, compared by value (a C-level compare), so any change renews them.
        last = self.__dict__.get("_events_of_played")
        if last is None or last[0] != played:
            cards = self.module.cards
            kept = played if played.__class__ is tuple else list(played)  # no events played yet: the default ``()``
            last = self.__dict__["_events_of_played"] = (kept, {cards.get(c, {}).get("event") for c in played})
        return event in last[1]

    def capitals_of(self, nation: str) -> list[int]:
        """The spaces the map marks as ``nation``'s capital (Vienna and Budapest for AH), in map order."""
        found = self.__dict__.get("_capitals")
        if found is None:
            found = self.__dict__["_capitals"] = {}
            for location, extra in enumerate(self.module.map.extra):
                if extra.get("capital_of") is not None:
                    found.setdefault(extra["capital_of"], []).append(location)
        return found.get(nation, [])

    def neutral(self, state: State, nation: str | None) -> bool:
        return nation in state.status.get("neutral_nations", ())

    def controller(self, state: State, location: int) -> str | None:
        """The side controlling a space: its control marker, else the side the map gives it. (``SupplyRules.controllers``
        gives the same for every space at once: change both together.)"""
        spaces = self.spaces
        status = state.status
        control = status.get("control")
        if control:
            marked = control.get(spaces.labels[location])
            if marked:
                return marked
        neutral = status.get("neutral_nations")
        if neutral and spaces.country[location] in neutral and not self.greek_open(state, location):
            return None  # a neutral nation's spaces belong to neither side until it enters the war
        return spaces.side[location]

    def greek_open(self, state: State, location: int) -> bool:
        """9.5.2.4: after the Salonika event a still neutral Greece's spaces that hold no Greek unit are open to
        both sides (entered, attacked, controlled, traced through); those holding Greek units stay closed."""
        if self.module.map.country[location] != "GR" or not self.neutral(state, "GR") or not self.played(state, "salonika"):
            return False
        return not any(u.unit.type.nationality == "GR" for u in state.units_at(location))

    def vp_space(self, state: State, location: int) -> bool:
        """Whether a space is a VP space on the map the scenario uses (the classic map, or the historical one of 5.7.2)."""
        feature = "vp_historical" if state.status.get("vp_map") == "historical" else "vp"
        return feature in self.module.map.features[location]

    def enemy_of(self, side: str) -> str:
        return "ap" if side == "cp" else "cp"

    def fort(self, state: State, location: int) -> int:
        """The LF of an intact fort in the space (0 if none or destroyed)."""
        spaces = self.spaces
        lf = spaces.fort[location]
        if lf and state.status.get("forts", {}).get(spaces.labels[location]) == "destroyed":
            return 0
        return lf

    def besieged(self, state: State, location: int) -> bool:
        """A fort is besieged while its marker is on and enemy units stand in its space: once the last besieger
        leaves, the siege is lifted (15.2.1, 15.2.4) and the fort blocks supply and SR again (14.1.3)."""
        forts = state.status.get("forts")
        if not forts or forts.get(self.module.map.labels[location]) != "besieged":
            return False
        holder = self.spaces.side[location]
        return any(u.side != holder for u in state.units_at(location))

    def trench(self, state: State, location: int) -> dict[str, Any] | None:
        return state.status.get("trenches", {}).get(self.module.map.label(location))

    def out_of_supply(self, state: State, unit: UnitState) -> bool:
        """Whether 14.3 bars the unit; SupplyRules traces it, this fallback reads the state's flag."""
        return not unit.supplied

    def enemy_units(self, state: State, location: int, side: str) -> list[UnitState]:
        ids = state.stacks.get(location)
        if not ids:
            return []  # most spaces a move or an SR passes are empty
        units = state.units
        return [unit for unit in map(units.__getitem__, ids) if unit.side != side]

    # --- units --------------------------------------------------------------------------------------
    @staticmethod
    def is_army(unit: UnitState) -> bool:
        return unit.unit.type.size == "XXXX"

    @staticmethod
    def token(unit: UnitState) -> str:
        """The nationality a dashed connection names for this unit (ANA for the Arab Northern Army)."""
        contingent = unit.unit.type.attributes.get("contingent")
        return contingent if contingent in ("ANA",) else unit.unit.type.nationality

    def may_use(self, state: State, here: int, there: int, unit: UnitState) -> bool:
        """Whether ``unit`` may use the connection here-there: dashed lines name nationalities (11.1.4); the
        MEF lines are open only at the space holding the MEF beach-head (11.1.10)."""
        game_map = self.module.map
        allowed = game_map.restricted.get((here, there) if here < there else (there, here))
        if allowed is None or self.token(unit) in allowed:
            return True
        if allowed == frozenset({"MEF"}):
            beachhead = state.status.get("mef_beachhead")
            return beachhead in (game_map.label(here), game_map.label(there))
        return False

    def activation_groups(self, units: list[UnitState], location: int) -> set[str]:
        """Nationalities a space pays for when activated (9.2.3 and its exceptions)."""
        game_map = self.module.map
        country = game_map.country[location]
        label = game_map.label(location)
        groups: set[str] = set()
        nations = {u.unit.type.nationality for u in units}
        lr2022 = self.edition() == "lr2022"
        for nation in nations:
            group = nation
            if nation in BRITISH:
                group = "BR"
            if nation == "US" and country in ("FR", "GE"):
                group = "FR"  # 9.2.3 (c): French and US units in France or Germany
            if lr2022 and nation == "SN":
                group = "TU"
            if lr2022 and nation == "MN":
                group = "SB"
            groups.add(group)
        # 9.2.3 (a): Belgian units in Antwerp, Ostend, Calais or Amiens may count as British.
        if label in ("Antwerp", "Ostend", "Calais", "Amiens") and "BE" in groups and "BR" in groups:
            groups.discard("BE")
        return groups

    # --- sequence of play ---------------------------------------------------------------------------
    def begin(self, state: State, turn) -> TurnContext:
        ctx = super().begin(state, turn)
        data = pog(ctx)
        same_turn = state.turn == turn.header.turn  # a file may carry on the turn its start state stopped in
        last = state.status.get("round")
        data["round"] = Round(last["number"], last["side"]) if last and same_turn else None
        data["phase"] = state.phase if same_turn else None
        if not same_turn:
            state.status.pop("round", None)
            state.phase = None
        state.turn = turn.header.turn
        return ctx

    @staticmethod
    def _open_start(header, number: int, side: str) -> bool:
        """Whether a file whose start state records no action round of this turn may open with round ``number`` of
        ``side``: when its header says it starts there (``Starts: action round 3 (ap)``), or when it starts from a
        state file (not the scenario's opening, where the CP's round 1 comes first) with a round of its own side, so
        an Allied file needs no CP round before it."""
        declared = header.start_at or {}
        if declared.get("phase") == "action" and declared.get("round") in (None, number) and declared.get("side") in (None, side):
            return True
        return header.start_scenario is None and side == header.side

    def current_play(self, ctx: TurnContext) -> Play | None:
        current = (ctx.extra.get("pog") or pog(ctx)).get("round")
        return current.play if current is not None else None

    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        name = action.name
        if name not in PHASES:
            return [illegal("6.0", f"unknown phase {name!r}: the phases are {', '.join(PHASES)}", action)]
        data = pog(ctx)
        previous = data.get("phase")
        if previous in PHASE_ORDER and PHASE_ORDER[name] < PHASE_ORDER[previous] and name != "action":
            return [illegal("6.0", f"the {name} phase comes before the {previous} phase (6.0)", action)]
        data["phase"] = name
        if name != "action":
            data["round"] = None
            return []
        side = action.side or ctx.active_side
        number = action.round
        current: Round | None = data.get("round")
        expected = (1, "cp") if current is None else ((current.number, "ap") if current.side == "cp" else (current.number + 1, "cp"))
        if current is None and not data.get("rounds_begun") and number is not None and self._open_start(ctx.turn.header, number, side):
            expected = (number, side)
        data["rounds_begun"] = True
        if number is None:
            # A round marker without its number is the next round (a VASSAL log does not know which round it opens in).
            number = expected[0]
        data["round"] = Round(number, side)
        state.status["round"] = {"number": number, "side": side}
        if number > ROUNDS:
            return [illegal("8.1.1", f"a turn has {ROUNDS} action rounds; round {number} is one too many", action)]
        if (number, side) != expected:
            return [illegal("8.1.1", f"action round {number} of the {side.upper()} comes out of turn: next is round {expected[0]} of the {expected[1].upper()} (the CP acts first in each round)", action)]
        return []

    def acting_side(self, action, ctx: TurnContext) -> str:
        current: Round | None = pog(ctx).get("round")
        return current.side if current is not None else ctx.active_side

    def need_play(self, action, ctx: TurnContext, use: tuple[str, ...], rule: str, what: str) -> tuple[Play | None, list]:
        play = self.current_play(ctx)
        if play is None or (play.use not in use and not play.grants & set(use)):
            had = "no card play" if play is None else f"a card played for {play.use}"
            return None, [illegal(rule, f"{what} needs a card played for {' or '.join(use)} in this action round; the round has {had}", action)]
        return play, []
