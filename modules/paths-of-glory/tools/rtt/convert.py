"""One game recorded by ``play.js`` into pbem game-turn files: a start state and a turn file per game-turn.

The start state of each game-turn is the engine's own state at that moment (units, steps, control, trenches, forts,
VP, war status, commitment, RP, neutral nations, events, removed cards), so a converter mistake in one turn never
carries into the next. The actions come from the engine's action stream and the changes each step made (piece
locations, steps, control, forts); the dice come from the log lines. What a player did that pbem's turn format
cannot say is counted by kind in ``TurnFile.unwritable`` (and, where it changes the board, noted in the file).
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ids import AP_ELIMINATED, AP_RESERVE, CP_ELIMINATED, CP_RESERVE, MODULE, PERM_ELIMINATED, Ids

HISTORICAL = "1914-historical"
_SCHEMA = (MODULE.parents[1] / "schemas" / "turn.schema.json").read_text()
# Forms the turn format has (issue 24 class 3 adds them): used when pbem reads them, counted as unwritable before.
FORMS = {
    "control": '"control": {' in _SCHEMA and "Locations changing hands" in _SCHEMA,
    "rebuild": "An eliminated unit rebuilt" in _SCHEMA,
    "advance_path": "Each advancing unit with the spaces it enters" in _SCHEMA,
    "negated": '"negated"' in _SCHEMA,
}
COMMITMENT = {"Mobilization": "mobilization", "Limited War": "limited_war", "Total War": "total_war",
              "mobilization": "mobilization", "limited": "limited_war", "total": "total_war"}
RP_POOLS = {"ge": "GE", "ah": "AH", "fr": "FR", "br": "BR", "ru": "RU", "allied": "A", "bu": "BU", "tu": "TU", "it": "IT", "us": "US"}
NEUTRALS = {"it": "IT", "tu": "TU", "bu": "BU", "us": "US", "ro": "RO", "gr": "GR"}
MO_RESULT = {"None": "none", "Germany": "GE", "Austria-Hungary": "AH", "Turkey": "TU", "France": "FR", "Britain": "BR",
             "Italy": "IT", "Russia": "RU", "Austria-Hungary (Italy)": "AH_IT"}
COMBAT_STATES = {
    "confirm_attack", "negate_trench", "choose_flank_attack", "attacker_combat_cards", "defender_combat_cards",
    "eliminate_retreated_units", "apply_defender_losses", "choose_defender_replacement", "withdrawal_negate_step_loss",
    "withdrawal_negate_step_loss_confirm", "apply_attacker_losses", "choose_attacker_replacement", "cancel_retreat",
    "cancel_retreat_confirm", "choose_retreat_canceling_replacement", "defender_retreat", "attacker_advance",
    "great_retreat_option", "great_retreat", "brusilov_offensive_option", "kerensky_offensive_option",
}
APPLIED_BY_PBEM = {"guns_of_august"}  # events whose fixed effect pbem applies when the card is played
MOVE_STATES = {"choose_move_space", "choose_pieces_to_move", "move_stack"}
FIRE = re.compile(r"^>([BW])(\d) \u00d7 .* = (\d+)$")
ROLL = re.compile(r"([BW])(\d)(?: ([+-]) (\d+) = -?\d+)?")
ROUND = re.compile(r"^\.h3(ap|cp) Turn \d+ -- Action (\d+)")


@dataclass
class TurnFile:
    turn: int
    state: dict[str, Any]
    document: dict[str, Any]
    unwritable: Counter = field(default_factory=Counter)
    actions: int = 0


class Light:
    """What the converter keeps of the board between turn starts: locations, reduced pieces, control."""

    def __init__(self, start: dict):
        self.location = list(start["location"])
        self.control = list(start["control"])
        self.besieged = set(start["forts"]["besieged"])

    def controller(self, space: int) -> str:
        return "cp" if (self.control[space >> 5] >> (space & 31)) & 1 else "ap"

    def apply(self, step: dict) -> None:
        for piece, _, to in step.get("m", ()):
            self.location[piece] = to
        for space, bit in step.get("fb", ()):
            (self.besieged.add if bit else self.besieged.discard)(space)
        for space, bit in step.get("c", ()):
            if bit:
                self.control[space >> 5] |= 1 << (space & 31)
            else:
                self.control[space >> 5] &= ~(1 << (space & 31))


class Converter:
    def __init__(self, ids: Ids):
        self.ids = ids
        self.map = json.loads((MODULE / "map.json").read_text())
        self.scenario = json.loads((MODULE / "scenarios" / "1914-historical.json").read_text())
        self.cards = json.loads((MODULE / "cards.json").read_text())["cards"]
        self.neighbours: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for edge in self.map["connections"]:
            a, b = edge["between"]
            only = tuple(edge.get("nationalities", ()))
            self.neighbours.setdefault(a, []).append((b, only))
            self.neighbours.setdefault(b, []).append((a, only))
        self.event_cards: dict[str, list[str]] = {}
        for number, card in enumerate(ids.engine["cards"]):
            if card and card.get("event"):
                self.event_cards.setdefault(card["event"], []).append(ids.card[number])
        counters = json.loads((MODULE / "counters.json").read_text())
        self.unit_type = {u["id"]: counters["counter_types"][u["type"]] for u in counters["units"]}

    # --- the start state -------------------------------------------------------------------------------
    def state(self, game: dict, snap: dict) -> dict[str, Any]:
        ids = self.ids
        removed = set(snap.get("removed", ()))
        reduced = set(snap["reduced"])
        units = []
        neutral_keys = {key for key in NEUTRALS if not snap["war"].get(key)}
        if snap.get("events", {}).get("salonika"):
            neutral_keys.discard("gr")  # 9.5.2.4: after the Salonika event the Greek units stand on the map, still neutral
        for piece, unit in sorted(ids.piece.items(), key=lambda kv: kv[1]):
            entry: dict[str, Any] = {"id": unit, "at": ids.location(snap["location"][piece], piece, piece in removed)}
            if ids.engine["pieces"][piece]["nation"] in neutral_keys and snap["location"][piece] in ids.space:
                entry["at"] = "reinforcements"  # pbem sets a neutral nation's units up when it enters (4.2.2)
            if piece in reduced:
                entry["step"] = 1
            units.append(entry)
        status = json.loads(json.dumps(self.scenario["status"]))
        light = Light(snap)
        control = {}
        for number, label in ids.space.items():
            side = light.controller(number)
            if self.map["spaces"][label].get("side") != side:
                control[label] = side
        trenches = {}
        for side in ("ap", "cp"):
            levels = snap[side]["trenches"]
            for k in range(0, len(levels), 2):
                trenches[ids.space[levels[k]]] = {"level": levels[k + 1], "owner": side}
        forts = {ids.space[s]: "destroyed" for s in snap["forts"]["destroyed"]}
        forts.update({ids.space[s]: "besieged" for s in snap["forts"]["besieged"]})
        neutral = [code for key, code in NEUTRALS.items() if not snap["war"].get(key)]
        events = []
        for key, value in snap.get("events", {}).items():
            if not value:
                continue
            if key == "reinforcements":  # the reinforcement cards played as events, by engine number
                found = [ids.card[c] for c in value if c in ids.card]
            elif key == "entrench":  # one flag for both Entrench cards: the turn, +128 the Allies', +256 the CP's
                found = [self.event_cards["ap_entrench"][0]] if value & 128 else [self.event_cards["cp_entrench"][0]]
            else:
                found = self.event_cards.get(key, [])
            events += [c for c in found if c not in events]
        status.update({
            "vp": snap["vp"],
            "war_status": {"cp": snap["cp"]["ws"], "ap": snap["ap"]["ws"]},
            "combined_war_status": snap["cp"]["ws"] + snap["ap"]["ws"],
            "commitment": {side: COMMITMENT[snap[side]["commitment"]] for side in ("cp", "ap")},
            "replacement_points": {RP_POOLS[k]: v for k, v in snap["rp"].items() if v},
            "current_cp_russian_vp": snap["cp"].get("ru_vp", 0),
            "vp_map": "historical",
            "trenches": trenches,
            "control": control,
            "forts": forts,
            "events_played": events,
            "removed_cards": [ids.card[c] for c in snap["ap"]["removed"] + snap["cp"]["removed"]],
            "neutral_nations": neutral,
        })
        status["neutral_setup"] = {k: v for k, v in status.get("neutral_setup", {}).items() if k in neutral}
        if snap.get("mef_beachhead") and not snap.get("mef_beachhead_captured"):
            status["mef_beachhead"] = ids.space[snap["mef_beachhead"]]
        else:
            status.pop("mef_beachhead", None)
        return {"module": "paths-of-glory", "scenario": HISTORICAL, "turn": snap["turn"], "first_side": "cp",
                "options": options_of(game), "units": units, "status": status, "cards": self.piles(snap)}

    def piles(self, snap: dict) -> dict[str, Any]:
        """Each side's card piles as the engine has them (hand and draw pile by count, the rest by card)."""
        levels = ["mobilization", "limited_war", "total_war"]
        out = {}
        for side in ("cp", "ap"):
            mine = snap[side]
            level = COMMITMENT[mine["commitment"]]
            entry: dict[str, Any] = {
                "hand": len(mine["hand"]), "draw": len(mine["deck"]), "decks": levels[: levels.index(level) + 1],
                "discard": [self.ids.card[c] for c in mine["discard"]], "removed": [self.ids.card[c] for c in mine["removed"]],
                "in_play": [{"card": self.ids.card[c]} for c in snap.get("combat_cards", []) if self.ids.engine["cards"][c]["faction"] == side],
                "played": [],
            }
            drawn = snap["turn"] - 1  # the draw of the turn before has been made (the Great War begins before turn 10's)
            if drawn:
                entry["drawn"] = drawn
            if mine.get("shuffle"):
                entry["shuffle"] = True
            out[side] = entry
        return out

    # --- a game-turn -------------------------------------------------------------------------------------
    def turn(self, game: dict, index: int) -> TurnFile:
        record = game["turns"][index]
        snap = record["start"]
        work = _TurnWork(self, snap)
        if snap.get("state") == "replacement_phase":
            work.emit({"phase": "replacement"})
        else:
            work.opening(record.get("opening", []))
        for step in record["steps"]:
            work.step(step)
        work.close()
        state = self.state(game, snap)
        name = f"t{record['turn']:02d}"
        document = {"module": "paths-of-glory", "scenario": HISTORICAL, "turn": record["turn"], "side": "cp",
                    "start": {"state": f"{name}-start.json"},
                    "note": f"Rally the Troops game: seed {game['seed']}, {game['scenario']}, options {sorted(k for k in game['options'] if k != 'no_supply_warnings')}",
                    "actions": work.actions}
        return TurnFile(record["turn"], state, document, work.unwritable, len(work.actions))

    # --- strategic redeployment routes --------------------------------------------------------------------
    def sr_route(self, light: Light, unit: str, start: str, end: str, side: str, closed: set[str] = frozenset()) -> tuple[list[str], str]:
        """A land route pbem accepts (friendly-controlled spaces without enemy units, usable connections), else
        a sea route between two friendly ports, else the bare two spaces."""
        nationality = self.unit_type[unit]["nationality"]
        enemy_at = {self.ids.space[loc] for p, loc in enumerate(light.location)
                    if loc in self.ids.space and p in self.ids.piece and self.ids.engine["pieces"][p]["faction"] != side}
        number = {label: n for n, label in self.ids.space.items()}
        russian = nationality == "RU"
        seen = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == end:
                break
            for there, only in self.neighbours.get(here, ()):
                if there in seen or there in enemy_at or there in closed:
                    continue
                if light.controller(number[there]) != side and number[there] not in light.besieged:
                    continue  # 13.1.6: friendly spaces, or a besieged enemy fort
                if only and nationality not in only:
                    continue
                if russian and self.map["spaces"][there].get("country") != "RU":
                    continue
                seen[there] = here
                queue.append(there)
        if end in seen:
            path = [end]
            while seen[path[-1]] is not None:
                path.append(seen[path[-1]])
            return path[::-1], "strategic"
        ports = [self.map["spaces"][x].get("port") == side or "mef_landing" in self.map["spaces"][x].get("features", ()) for x in (start, end)]
        if all(ports):
            return [start, end], "sea"
        return [start, end], "strategic"


class _TurnWork:
    """The actions of one game-turn as they are worked out, step by step."""

    def __init__(self, conv: Converter, snap: dict):
        self.conv = conv
        self.ids = conv.ids
        self.light = Light(snap)
        self.actions: list[dict] = []
        self.unwritable: Counter = Counter()
        self.round: tuple[int, str] | None = None
        self.round_mark: tuple[int, Counter] | None = None
        self.activation: dict[str, str] = {}
        self.paths: dict[int, list[str]] = {}
        self.attack: dict | None = None
        self.event: str | None = None
        self.sr_piece: int | None = None
        self.entrenching: list[int] = []
        self.last_move: list[int] = []
        self.phase: str | None = None
        self.replacement_done = False
        self.last_k: dict | None = None
        self.entered: set[int] = set()
        self.neutral = {code for key, code in NEUTRALS.items() if not snap["war"].get(key)}
        self.salonika = bool(snap.get("events", {}).get("salonika"))

    # --- helpers ----------------------------------------------------------------------------------------
    def emit(self, action: dict) -> None:
        self.actions.append(action)

    def unit(self, piece: int) -> str | None:
        unit = self.ids.piece.get(piece)
        if unit is None:
            self.skip(f"a piece pbem has no counter for ({self.ids.unmapped_pieces.get(piece)})")
        return unit

    def label(self, space: int) -> str:
        return self.ids.space[space]

    def skip(self, kind: str, note: str | None = None) -> None:
        self.unwritable[kind] += 1
        if note:
            self.emit({"comment": f"not writable ({kind}): {note}"})

    def opening(self, lines: list[str]) -> None:
        """The mandated offensive rolls at the start of the turn."""
        self.emit({"phase": "mandated_offensive"})
        self.phase = "mandated_offensive"
        for line in lines:
            found = re.match(r"^(CP|AP): ([BW]\d(?: [+-] \d+ = -?\d+)?) -> (.*)$", line)
            if not found:
                continue
            roll = ROLL.match(found.group(2))
            value = int(roll.group(2))
            modifiers = {}
            if roll.group(3):
                modifiers["drm"] = int(roll.group(4)) * (1 if roll.group(3) == "+" else -1)
            action: dict[str, Any] = {"purpose": "mandated_offensive", "side": found.group(1).lower(), "value": value}
            if modifiers:
                action["modifiers"] = modifiers
            text = found.group(3).strip()
            result = "FR" if re.fullmatch(r"c\d+", text) else MO_RESULT.get(text)  # French Mutiny: still a French MO (7.1.8)
            if result:
                action["result"] = result
            else:
                self.skip("mandated offensive result the converter cannot name", found.group(3))
            self.emit({"roll": action})

    # --- one step ---------------------------------------------------------------------------------------
    def step(self, step: dict) -> None:
        state, name, arg = step["s"], step["n"], step.get("g")
        if step.get("k"):
            self.last_k = step["k"]
        if state == "confirm_mo":  # the Allies confirm their mandated offensive, possibly in the middle of an attack
            self.light.apply(step)
            self.after_log(step, set())
            return
        if self.attack is not None and state not in COMBAT_STATES:
            self.finish_attack()
        if self.paths and state not in MOVE_STATES:
            self.flush_moves()
        if self.activation and state != "activate_spaces":
            self.flush_activation()
        handler = getattr(self, f"on_{state}", None)
        consumed: set[int] = set()
        if handler is not None:
            consumed = handler(step, name, arg) or set()
        elif self.event and state not in COMBAT_STATES and state not in MOVE_STATES:
            consumed = self.event_changes(step)
        else:
            self.other(step, state, name)
            consumed = {m[0] for m in step.get("m", ())}
        self.light.apply(step)
        self.after_log(step, consumed)

    def after_log(self, step: dict, consumed: set[int]) -> None:
        """Phase headers in the step's log, and what the engine did by itself after them."""
        lines = step.get("L", ())
        rest = [m for m in step.get("m", ()) if m[0] not in consumed]
        phase_seen = False
        for line in lines:
            found = ROUND.match(line)
            if found:
                self.round = (int(found.group(2)), found.group(1))
                continue
            entry = re.match(r"^\.h3(?:ap|cp) (\w+) enters the war", line)
            if entry:
                self.enters(entry.group(1), consumed)
                continue
            for header, phase in ((".h2 Attrition Phase", "attrition"), (".h2 Siege Phase", "siege"),
                                  (".h2 War Status Phase", "war_status"), ("Replacement Phase", "replacement"),
                                  (".h2 Draw Strategy Cards Phase", "draw")):
                if line.startswith(".h2") and header in line and self.phase != phase:
                    self.emit({"phase": phase})
                    self.phase = phase
                    phase_seen = True
        if rest and phase_seen:
            for piece, frm, to in rest:
                unit = self.unit(piece)
                if unit is None:
                    continue
                if to in self.ids.space and frm not in self.ids.space:
                    self.emit({"reinforce": unit, "at": self.label(to)})
                elif to in (AP_RESERVE, CP_RESERVE) and frm not in self.ids.space:
                    self.emit({"remove": unit, "to": "reserve"})
                else:
                    self.skip(f"{self.phase} phase: engine moves a unit by itself", f"{unit} {frm}->{to}")

    def closed_spaces(self) -> set[str]:
        """Spaces of nations not at war (Albania is open; Greece's spaces without Greek units after Salonika)."""
        closed = set()
        greek_units = {self.light.location[p] for p, piece in enumerate(self.ids.engine["pieces"]) if piece and piece.get("nation") == "gr"}
        for number, label in self.ids.space.items():
            country = self.conv.map["spaces"][label].get("country")
            if country not in self.neutral or country == "AL":
                continue
            if country == "GR" and self.salonika and number not in greek_units:
                continue
            closed.add(label)
        return closed

    def enters(self, nation_name: str, consumed: set[int]) -> None:
        """A neutral nation enters: its units, on the engine's map all along, are set up in pbem (4.2.2)."""
        key = {"Turkey": "tu", "Italy": "it", "Bulgaria": "bu", "Romania": "ro", "Greece": "gr"}.get(nation_name)
        self.neutral.discard(NEUTRALS.get(key or "", ""))
        if key == "gr" and self.salonika:
            return  # set up on the Salonika event already (9.5.2.4)
        for piece, loc in enumerate(self.light.location):
            piece_data = self.ids.engine["pieces"][piece] if piece < len(self.ids.engine["pieces"]) else None
            if not piece_data or piece_data.get("nation") != key or loc not in self.ids.space or piece in consumed:
                continue
            if piece in self.entered:
                continue
            unit = self.unit(piece)
            if unit:
                self.entered.add(piece)
                self.emit({"reinforce": unit, "at": self.label(loc)})

    def other(self, step: dict, state: str, name: str) -> None:
        changes = step.get("m") or step.get("r") or step.get("c")
        if changes:
            kind = f"event {self.event}" if self.event else f"{state}.{name}"
            self.skip(kind, f"{state} {name} {step.get('g')} changes {json.dumps({k: step[k] for k in ('m', 'r', 'c') if k in step})}")

    # --- action rounds ----------------------------------------------------------------------------------
    def begin_round(self, card: str | None, use: str) -> None:
        number, side = self.round or (1, "cp")
        phase = {"phase": "action", "round": number, "side": side}
        if len(self.actions) >= 2 and self.actions[-2] == phase:
            del self.actions[-2:]  # the round was taken back (reset) to before its card play: played again now
        self.event = None
        self.emit(phase)
        self.phase = "action"
        self.emit({"card": card, "use": use})
        # a reset takes the round back to its card play (or before it: then the play comes again, above)
        self.round_mark = (len(self.actions), self.unwritable.copy())

    def on_action_phase(self, step, name, arg):
        card = self.ids.card.get(arg) if arg is not None else None
        if name == "play_event":
            self.begin_round(card, "event")
            self.event = self.ids.engine["cards"][arg].get("event") or self.ids.engine["cards"][arg]["name"]
            if self.event == "salonika":
                self.salonika = True
            return self.event_changes(step)
        if name == "play_ops":
            self.begin_round(card, "ops")
        elif name == "play_sr":
            self.begin_round(card, "sr")
        elif name == "play_rps":
            self.begin_round(card, "rp")
        elif name == "single_op":
            self.begin_round(None, "automatic")
        else:
            self.skip(f"action_phase.{name}")
        return set()

    def event_changes(self, step) -> set[int]:
        """Units an event places (reinforcements, neutral set-ups); anything else it does is not writable."""
        consumed = set()
        others = []
        if self.event in APPLIED_BY_PBEM:
            return {m[0] for m in step.get("m", ())}  # pbem applies the event's fixed effect itself
        for piece, frm, to in step.get("m", ()):
            consumed.add(piece)
            unit = self.unit(piece)
            if unit is None:
                continue
            off_map = frm not in self.ids.space and frm not in (AP_RESERVE, CP_RESERVE, AP_ELIMINATED, CP_ELIMINATED, PERM_ELIMINATED)
            if off_map and to in self.ids.space:
                self.emit({"reinforce": unit, "at": self.label(to)})
            elif off_map and to in (AP_RESERVE, CP_RESERVE):
                self.emit({"remove": unit, "to": "reserve"})
            elif to == PERM_ELIMINATED:
                self.emit({"remove": unit, "to": "permanently_eliminated"})
            else:
                others.append(f"{unit} {frm}->{to}")
        moved = {m[0] for m in step.get("m", ())}
        regained = [p for p, bit in step.get("r", ()) if not bit and p not in moved]
        for piece in regained:
            unit = self.unit(piece)
            if unit:
                self.emit({"replace": unit})  # Landwehr, Paris Taxis: a step regained with the event's RP
        flips = {self.label(sp): ("cp" if bit else "ap") for sp, bit in step.get("c", ()) if sp in self.ids.space}
        if flips and FORMS["control"]:
            self.emit({"control": flips})
            flips = {}
        for key in ("tap", "tcp"):
            side = key[1:]
            for sp, level in step.get(key, ()):
                army = next((p for p, loc in enumerate(self.light.location) if loc == sp and p in self.ids.piece
                             and self.ids.engine["pieces"][p]["faction"] == side and self.ids.engine["pieces"][p]["type"] == "army"), None)
                if level and army is not None and sp in self.ids.space:
                    self.emit({"special": "entrench", "units": [self.ids.piece[army]], "at": self.label(sp)})  # the Entrench event's trench
                else:
                    self.skip(f"event {self.event} changes a trench", f"{key} {sp} {level}")
        rest = {k: step[k] for k in ("fd",) if k in step}
        lost = [p for p, bit in step.get("r", ()) if bit and p not in moved]
        if others or flips or rest or lost:
            self.skip(f"event {self.event} changes the board", json.dumps({"moves": others, "control": flips, "reduced": lost, **rest}))
        return consumed

    def on_place_reinforcements(self, step, name, arg):
        return self.event_changes(step)

    def on_place_new_neutral_units(self, step, name, arg):
        return self.event_changes(step)

    def on_confirm_event(self, step, name, arg):
        return self.event_changes(step)

    def revert_round(self) -> None:
        if self.round_mark is not None:
            length, counts = self.round_mark
            del self.actions[length:]
            self.unwritable = counts
        self.paths.clear()
        self.activation.clear()
        self.attack = None

    def on_confirm_move_violations(self, step, name, arg):
        if name == "reset_phase":
            self.revert_round()
        return {m[0] for m in step.get("m", ())}

    def on_confirm_mo(self, step, name, arg):
        return set()

    def on_rps(self, step, name, arg):
        return set()

    def on_end_operations(self, step, name, arg):
        return set()

    # --- activation and movement --------------------------------------------------------------------------
    def on_activate_spaces(self, step, name, arg):
        # The engine offers activate_attack_mutiny for a French space in FR, BE or GE while a French MO is a French
        # Mutiny (7.1.8): the same attack activation, whose French attack will cost the Allies 1 VP (the card).
        if name in ("activate_move", "activate_attack", "activate_attack_mutiny"):
            self.activation[self.label(arg)] = "move" if name == "activate_move" else "attack"
        return set()

    def flush_activation(self) -> None:
        self.emit({"activate": dict(self.activation)})
        self.activation = {}

    def moves_of(self, step) -> set[int]:
        consumed = set()
        for piece, frm, to in step.get("m", ()):
            consumed.add(piece)
            if frm in self.ids.space and to in self.ids.space:
                path = self.paths.setdefault(piece, [self.label(frm)])
                path.append(self.label(to))
            else:
                self.skip("movement step off the map", f"piece {piece} {frm}->{to}")
        return consumed

    def flush_moves(self) -> None:
        for piece, path in self.paths.items():
            unit = self.unit(piece)
            if unit is not None and len(path) > 1:
                self.emit({"move": unit, "path": path})
        self.paths = {}

    def on_choose_move_space(self, step, name, arg):
        if name == "piece" and self.paths:
            self.flush_moves()
        return self.moves_of(step)

    def on_choose_pieces_to_move(self, step, name, arg):
        if name == "entrench":
            for line in step.get("L", ()):
                found = re.match(r"^>[Pp](\d+)(?:\(\d+,\d+\))? entrench", line)
                if found:
                    self.entrenching.append(int(found.group(1)))
        return self.moves_of(step)

    def on_move_stack(self, step, name, arg):
        return self.moves_of(step)

    def on_trench_rolls(self, step, name, arg):
        piece = arg
        if name == "space":
            here = [p for p in self.entrenching if self.light.location[p] == arg]
            piece = here[0] if here else None
        if piece is None:
            self.skip("entrench roll for a unit the converter did not see entrench")
            return set()
        if piece in self.entrenching:
            self.entrenching.remove(piece)
        unit = self.unit(piece)
        for line in step.get("L", ()):
            found = re.match(r"^>([BW])(\d)(?: ([+-]) (\d+) = -?\d+)? -> (Success|Failure)", line)
            if found and unit:
                action = {"special": "entrench", "units": [unit], "at": self.label(self.light.location[piece]),
                          "roll": int(found.group(2)), "result": found.group(5).lower()}
                self.emit(action)
        return set()

    # --- strategic redeployment -----------------------------------------------------------------------------
    def on_choose_sr_unit(self, step, name, arg):
        if name == "piece":
            self.sr_piece = arg
        elif name == "reset_phase":
            self.revert_round()
        return {m[0] for m in step.get("m", ())}

    def on_choose_sr_destination(self, step, name, arg):
        consumed = set()
        for piece, frm, to in step.get("m", ()):
            consumed.add(piece)
            unit = self.unit(piece)
            if unit is None:
                continue
            side = self.ids.engine["pieces"][piece]["faction"]
            if frm in (AP_RESERVE, CP_RESERVE) and to in self.ids.space:
                self.emit({"reinforce": unit, "at": self.label(to)})
            elif to in (AP_RESERVE, CP_RESERVE) and frm in self.ids.space:
                self.emit({"remove": unit, "to": "reserve"})
            elif frm in self.ids.space and to in self.ids.space:
                path, by = self.conv.sr_route(self.light, unit, self.label(frm), self.label(to), side, self.closed_spaces())
                self.emit({"move": unit, "path": path, "by": by})
            else:
                self.skip("SR between boxes", f"{unit} {frm}->{to}")
        return consumed

    def on_salonika(self, step, name, arg):
        return self.on_choose_sr_destination(step, name, arg)

    # --- attacks ------------------------------------------------------------------------------------------
    def on_choose_attackers(self, step, name, arg):
        return set()

    def on_confirm_attack(self, step, name, arg):
        attack = self.last_k or {}
        if name == "attack" or name == "confirm_mutiny_attack":
            pieces = list(attack.get("pieces", []))
            self.attack = {"pieces": pieces, "space": attack.get("space"), "steps": [], "lines": [],
                           "from": {p: self.light.location[p] for p in pieces}}
        return self.combat(step, name, arg)

    def combat(self, step, name, arg) -> set[int]:
        if self.attack is None:
            self.skip(f"{step['s']} outside an attack the converter saw")
            return set()
        self.attack["steps"].append(step)
        self.attack["lines"] += step.get("L", ())
        return {m[0] for m in step.get("m", ())}

    for _state in COMBAT_STATES - {"confirm_attack"}:
        locals()[f"on_{_state}"] = lambda self, step, name, arg: self.combat(step, name, arg)
    del _state

    def finish_attack(self) -> None:
        a, self.attack = self.attack, None
        ids = self.ids
        target = a["space"]
        attackers = [u for u in (self.unit(p) for p in a["pieces"]) if u]
        action: dict[str, Any] = {"attack": attackers, "target": self.label(target)}
        cards: list[str] = []
        losses: dict[str, list[str]] = {"attacker": [], "defender": []}
        replacements: dict[str, str] = {}
        retreats: dict[str, list[str]] = {}
        advance: dict[str, list[str]] = {}
        eliminated: list[str] = []
        declare: list[str] = []
        negated: list[str] = []
        last_eliminated: dict[str, str] = {}
        roll = defender_roll = None
        losses_number = {"attacker": 0, "defender": 0}
        mode = None
        flank_roll = None
        flankers: list[int] = []
        for line in a["lines"]:
            if line.startswith("Attacker's fire"):
                mode = "a"
            elif line.startswith("Defender's fire"):
                mode = "d"
            elif line.startswith("Flank attempt"):
                mode = "f"
            found = FIRE.match(line)
            if found and mode == "a" and roll is None:
                roll, losses_number["defender"] = int(found.group(2)), int(found.group(3))
            elif found and mode == "d" and defender_roll is None:
                defender_roll, losses_number["attacker"] = int(found.group(2)), int(found.group(3))
            elif mode == "f":
                plus = re.match(r"^>\+1 s(\d+)$", line)
                if plus:
                    flankers.append(int(plus.group(1)))
                done = re.match(r"^>([BW])(\d) (Success|Fail)", line)
                if done:
                    flank_roll = int(done.group(2))
        for step in a["steps"]:
            state, name, arg = step["s"], step["n"], step.get("g")
            if name == "card" and arg is not None:
                cards.append(ids.card[arg])
            if state in ("apply_defender_losses", "apply_attacker_losses") and name == "piece":
                who = "defender" if state == "apply_defender_losses" else "attacker"
                unit = self.unit(arg)
                if unit:
                    losses[who].append(unit)
                    if any(m[0] == arg and m[2] not in ids.space for m in step.get("m", ())):
                        last_eliminated[who] = unit
            elif state in ("apply_defender_losses",) and name == "space":
                if not any(sp == target and bit for sp, bit in step.get("fd", ())):
                    self.skip("loss taken by a fort space that survives")
            elif state in ("choose_defender_replacement", "choose_attacker_replacement", "choose_retreat_canceling_replacement") and name == "piece":
                who = "attacker" if state == "choose_attacker_replacement" else "defender"
                corps = self.unit(arg)
                if corps and last_eliminated.get(who):
                    replacements[last_eliminated.pop(who)] = corps
                else:
                    self.skip("replacement corps for a unit the converter did not see eliminated")
            elif state.startswith("withdrawal") and name == "piece":
                unit = self.unit(arg)
                if FORMS["negated"] and unit:
                    negated.append(unit)
                else:
                    self.skip("Withdrawal cancels a step loss")
            elif state == "cancel_retreat" and name == "piece":
                unit = self.unit(arg)
                if unit:
                    losses["defender"].append(unit)
                    if "cancel_retreat" not in declare:
                        declare.append("cancel_retreat")
                    if any(m[0] == arg and m[2] not in ids.space for m in step.get("m", ())):
                        last_eliminated["defender"] = unit
            elif state == "eliminate_retreated_units" and name == "piece":
                unit = self.unit(arg)
                if unit:
                    eliminated.append(unit)
            elif state in ("great_retreat", "great_retreat_option", "brusilov_offensive_option", "kerensky_offensive_option") and name not in ("pass", "done", "next"):
                self.skip(f"combat event option {state}.{name}")
            for piece, frm, to in step.get("m", ()):
                unit = self.unit(piece)
                if unit is None:
                    continue
                if frm in (AP_RESERVE, CP_RESERVE) and to in ids.space and state in ("apply_defender_losses", "apply_attacker_losses", "cancel_retreat"):
                    # the engine picks the only corps there is: the army breaks to it in the same step (12.4.4)
                    who = "attacker" if state == "apply_attacker_losses" else "defender"
                    if last_eliminated.get(who):
                        replacements[last_eliminated.pop(who)] = unit
                    continue
                if state == "defender_retreat" or state == "great_retreat":
                    if to in ids.space:
                        retreats.setdefault(unit, []).append(self.label(to))
                    elif unit not in eliminated:
                        eliminated.append(unit)
                elif state == "attacker_advance" and to in ids.space:
                    advance.setdefault(unit, []).append(self.label(to))
            for space, bit in step.get("fd", ()):
                if space == target and bit and "fort_destroyed" not in declare:
                    declare.append("fort_destroyed")
        if roll is None:
            self.skip("attack the engine did not resolve (no fire)")
            return
        action["roll"] = roll
        if defender_roll is not None:
            action["defender_roll"] = defender_roll
        else:
            self.skip("attack without defender's fire (nothing left to fire)")
        action["result"] = f"{losses_number['attacker']}/{losses_number['defender']}"
        if flank_roll is not None:
            spaces = sorted({a["from"][p] for p in a["pieces"]})
            pins = [s for s in spaces if s not in flankers]
            action["flank"] = {"pin": self.label(pins[0] if pins else spaces[0]), "roll": flank_roll}
        if cards:
            action["cards"] = cards
        action["losses"] = {k: v for k, v in losses.items() if v}
        if replacements:
            action["replacements"] = replacements
        if eliminated:
            action["eliminated"] = eliminated
        if retreats:
            action["retreats"] = retreats
        if negated:
            action["negated"] = negated
        if advance:
            if any(len(path) > 1 for path in advance.values()):
                if FORMS["advance_path"]:
                    action["advance"] = advance
                else:
                    self.skip("advance beyond the target space", json.dumps(advance))
                    action["advance"] = list(advance)
            else:
                action["advance"] = list(advance)
        if declare:
            action["declare"] = declare
        self.emit(action)

    # --- later phases ----------------------------------------------------------------------------------------
    def on_attrition_phase(self, step, name, arg):
        if name == "piece":
            unit = self.unit(arg)
            if unit:
                if self.ids.engine["pieces"][arg]["type"] == "army":
                    self.emit({"remove": unit, "to": "permanently_eliminated"})
                else:
                    self.emit({"eliminate": unit, "reason": "attrition"})
        elif name == "space":
            if FORMS["control"]:
                self.emit({"control": {self.label(arg): "ap" if step["a"] == "cp" else "cp"}})
            else:
                self.skip("attrition flips control of a space", self.label(arg))
        return {m[0] for m in step.get("m", ())}

    def on_siege_phase(self, step, name, arg):
        for line in step.get("L", ()):
            found = re.match(r"^Siege at s(\d+) \(\d+ CF\): ([BW])(\d)", line)
            if found:
                result = "destroyed" if any("Fort destroyed" in x for x in step.get("L", ())) else "holds"
                self.emit({"special": "siege", "at": self.label(int(found.group(1))), "roll": int(found.group(3)), "result": result})
        return set()

    def on_replacement_phase(self, step, name, arg):
        if self.phase != "replacement":
            self.emit({"phase": "replacement"})
            self.phase = "replacement"
        for line in step.get("L", ()):
            flipped = re.match(r"^Flipped P(\d+)", line)
            if flipped:
                unit = self.unit(int(flipped.group(1)))
                if unit:
                    self.emit({"replace": unit})
            if line.startswith("Rebuilt"):
                moved = [(p, to) for p, frm, to in step.get("m", ()) if frm in (AP_ELIMINATED, CP_ELIMINATED)]
                if FORMS["rebuild"] and moved and self.unit(moved[0][0]):
                    piece, to = moved[0]
                    self.emit({"replace": self.unit(piece), "at": self.label(to) if to in self.ids.space else "reserve"})
                else:
                    self.skip("rebuild an eliminated unit (17.1.5-17.1.6)", line)
        return {m[0] for m in step.get("m", ())}

    def on_draw_cards_phase(self, step, name, arg):
        if name == "card" and arg is not None:
            self.emit({"card": self.ids.card[arg], "use": "discard", "side": step["a"]})
        return set()

    def close(self) -> None:
        if self.attack is not None:
            self.finish_attack()
        if self.paths:
            self.flush_moves()
        if self.activation:
            self.flush_activation()


def options_of(game: dict) -> dict[str, Any]:
    """The module options of the engine's game: the 2022 living rules, the optional cards when the engine uses
    them (its Valiant variant swaps cards in and out: a selection), eight-card hands (both engine scenarios)."""
    chosen = game.get("options", {})
    optional = "all" if chosen.get("optional_cards") else "selected" if chosen.get("valiant") else "none"
    return {"edition": "lr2022", "optional_cards": optional, "hand_size": 8}


def convert_game(conv: Converter, game: dict, out: Path) -> list[TurnFile]:
    """Every game-turn of ``game`` into ``out``: ``tNN-start.json`` and ``tNN.json``."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for index in range(len(game["turns"])):
        turn = conv.turn(game, index)
        name = f"t{turn.turn:02d}"
        (out / f"{name}-start.json").write_text(json.dumps(turn.state, indent=1, ensure_ascii=False) + "\n")
        (out / f"{name}.json").write_text(json.dumps(turn.document, indent=1, ensure_ascii=False) + "\n")
        files.append(turn)
    return files
