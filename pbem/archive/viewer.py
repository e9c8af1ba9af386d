"""The replay viewer: one self-contained HTML file (inline CSS, JS and SVG; no network) to step through a game.

Python does the game work: it replays the game, records after each action which counters changed (so the
page only has to add up differences) and writes every action's text, violations and random event (the dice and
what they did, in the module's words). The page draws the
map from the module's geometry (or over the user's own map image, placed by the module's calibration), the
counters (``pbem.art``'s pictures as data URIs when it is available, plain NATO-box counters otherwise), and
the current action's marks: move arrows, attacks, fire (firers to target, with the result), special orders
(whatever orders the module defines) and steps lost, each labelled on the map. Phase and order
names come from the module's ``art.json`` (``phases``, ``orders``).
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from pathlib import Path
from typing import Any

from pbem.archive.play import PlayedGame
from pbem.archive.safetext import without_surrogates
from pbem.model.cards import piles_lines
from pbem.model import actions as act
from pbem.model.module import Module
from pbem.model.state import State

HEX_SIZE = 30.0  # centre to corner, pixels
COUNTER = 34  # counter side, pixels
POINT_SCALE = 1.0
SIDE_COLOURS = ["#c8372d", "#e0b03a", "#3a6fc8", "#3a9a55", "#8a4fb0", "#666666"]
TERRAIN_FALLBACK = {"clear": "#eef0d0", "forest": "#9cc486", "mountain": "#c8a878", "desert": "#f3e2ad", "swamp": "#a8c8b8",
                    "rough": "#d8c8a0", "hills": "#dccb92", "lake": "#a8d0f0", "sea": "#9cc3e6", "urban": "#c9c0b8"}  # fmt: skip


# Characters that must not appear raw in JSON inside <script>: "<" could close the element or open a
# comment, ">" and "&" are escaped for good measure, U+2028/U+2029 end a line in older JavaScript, a
# lone surrogate cannot be written as UTF-8, and control characters and bidi controls would otherwise sit
# raw in the file (a bidi override reorders what an editor or a "view source" shows). Each becomes its
# \uXXXX escape, which JSON.parse reads back.
_SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029\ud800-\udfff\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SLOT = re.compile(r"__(TITLE|DATA|CSS|JS)__")


def render_html(game: PlayedGame, *, title: str, metadata: dict[str, Any] | None = None, background: Any = None) -> str:
    """The viewer page for a replayed game.

    The page is filled in one pass over the template: text put into a slot is never searched again, so
    a note or a title that reads ``__JS__`` stays a note. The game is JSON inside a
    ``<script type="application/json">`` element (never run), with every character that could end the
    element escaped; the page's script reads it with ``JSON.parse`` and shows text with ``textContent``.
    ``background`` is ``(image, layout)``: the user's map image and the module's grid fitted to it
    (``pbem.art.background.load_background``).
    """
    data = game_data(game, title=title, metadata=metadata or {}, background=background)
    slots = {
        "TITLE": html.escape(without_surrogates(title)),
        "DATA": script_json(data),
        "CSS": _CSS,
        "JS": _JS,
    }
    return _SLOT.sub(lambda match: slots[match.group(1)], _PAGE)


def script_json(value: Any) -> str:
    """``value`` as JSON that can sit inside a ``<script>`` element whatever its strings hold."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def game_data(game: PlayedGame, *, title: str, metadata: dict[str, Any], background: Any = None) -> dict[str, Any]:
    """Everything the page shows, as plain JSON."""
    module = game.module
    style = _style(module)
    locations, geometry = _map_data(module, background)
    state = game.start
    units = {uid: _unit_info(module, state, uid) for uid in state.units}
    start = {uid: _where(u) for uid, u in state.units.items()}
    frames: list[dict[str, Any]] = []
    turns = []
    for seq, turn in enumerate(game.turns):
        header = turn.turn.header
        side_name = style.side_name(header.side) if style is not None else header.side
        turns.append({"name": turn.name, "turn": header.turn, "side": header.side, "side_name": side_name,
                      "first": len(frames) + 1, "actions": turn.actions, "ok": turn.ok,
                      "cards": _piles_text(turn.state.get("cards", {}))})  # fmt: skip
        by_index: dict[int, list[dict[str, Any]]] = {}
        last = turn.turn.actions[-1].index if turn.turn.actions else 0
        for v in turn.violations:
            by_index.setdefault(v.index if v.index is not None else last, []).append(
                {"rule": v.rule, "severity": v.severity, "message": v.message, "line": v.source.line if v.source else None, "at": v.at}
            )
        events = {e.index: e.text() for e in turn.events if e.index is not None}
        phase = state.phase
        for action in turn.turn.actions:
            before = {uid: _where(u) for uid, u in state.units.items()}
            marks = _marks(action, state, style)
            state.apply(action)
            if action.kind == "phase":
                phase = action.name  # type: ignore[attr-defined]
            changes = {uid: w for uid, u in state.units.items() if (w := _where(u)) != before.get(uid)}
            frames.append({"turn": seq, "phase": _phase_name(style, phase), "index": action.index, "kind": action.kind,
                           "text": describe(action, module, style), "note": action.note or "", "line": action.source.line,
                           "violations": by_index.get(action.index, []), "changes": changes,
                           **({"event": events[action.index]} if action.index in events else {}), **marks})  # fmt: skip
    return {
        "title": title,
        "module": {"id": module.id, "name": module.name, "version": module.version, "illustrative": bool(module.metadata.get("illustrative"))},
        "metadata": {k: v for k, v in metadata.items() if v},
        "map": geometry,
        "locations": locations,
        "units": units,
        "counters": _counter_pictures(module, state, units, geometry["counter"]),
        "sides": {side: SIDE_COLOURS[k % len(SIDE_COLOURS)] for k, side in enumerate(module.sides)},
        "start": start,
        "turns": turns,
        "frames": frames,
        "dice": _dice(game),
    }


def _dice(game: PlayedGame) -> dict[str, Any]:
    """The game's dice for the page: what ``pbem dice stats`` reports (without the roll-by-roll list)."""
    from pbem.engine.dicestats import dice_stats

    data = dice_stats(game.dice()).as_json()
    data.pop("every_roll")
    return data
def _piles_text(cards: dict[str, Any]) -> str:
    """Each side's card piles after a turn, as ``pbem state show`` prints them (public information only)."""
    return "\n".join(line for side, piles in cards.items() for line in piles_lines(side, piles))


def _where(unit) -> list:
    return [unit.at if unit.on_map else -1, unit.step, unit.box or ""]


def _style(module: Module) -> Any:
    """The module's art style (names of phases and orders, colours), or ``None`` without the art package."""
    try:
        from pbem.art.style import load_style

        return load_style(module.path)
    except ImportError:
        return None


def _phase_name(style: Any, phase: str | None) -> str:
    if not phase:
        return ""
    return style.phase_name(phase) if style is not None else phase.replace("_", " ").capitalize() + " phase"


def _order_name(style: Any, order: str) -> str:
    return style.order_name(order) if style is not None else order.replace("_", " ").capitalize()


def _spots(state: State, units) -> list[int]:
    return sorted({state.units[u].at for u in units if u in state.units and state.units[u].on_map})


def _marks(action: act.Action, state: State, style: Any = None) -> dict[str, Any]:
    """Arrows and markers of an action, from where the counters stand before it."""
    if isinstance(action, act.Fire):
        return {"fire": {"target": action.target, "from": _spots(state, action.units), "label": _fire_result(action, style)}}
    if isinstance(action, act.Special):
        sources = _spots(state, action.units)
        at = action.at if action.at is not None else (sources[0] if sources else None)
        if at is None:
            return {}
        return {"order": {"at": at, "from": [s for s in sources if s != at], "label": _order_label(action, style)}}
    if isinstance(action, (act.Loss, act.Eliminate)):
        units = (action.unit,) if isinstance(action, act.Loss) else action.units
        what = "−1 step" if isinstance(action, act.Loss) else "eliminated"
        return {"loss": {"at": _spots(state, units), "label": what + (f" ({action.reason})" if action.reason else "")}}
    if action.kind == "move":
        return {"arrows": [list(action.path)]}  # type: ignore[attr-defined]
    if action.kind in ("attack", "overrun"):
        combat: act.Combat = action  # type: ignore[assignment]
        origins = sorted({state.units[u].at for u in combat.attackers if state.units[u].on_map})
        return {
            "attack": {"target": combat.target, "from": origins},
            "arrows": [list(path) if path and path[0] == state.units[u].at else [state.units[u].at, *path]
                       for u, path in (combat.retreats | combat.defender_advance).items() if state.units[u].on_map and path],
            "advance": [[state.units[u].at, *combat.advance_paths.get(u, (combat.target,))] for u in combat.advance if state.units[u].on_map],
        }  # fmt: skip
    if action.kind == "reinforce":
        return {"place": action.at}  # type: ignore[attr-defined]
    if isinstance(action, act.Replace) and action.at is not None:
        return {"place": action.at}
    if isinstance(action, act.Control):
        by_side: dict[str, list[int]] = {}
        for location, side in action.spaces.items():
            by_side.setdefault(side, []).append(location)
        return {"control": [{"at": spaces, "label": f"{_side_name(style, side)} control"} for side, spaces in by_side.items()]}
    return {}


def _side_name(style: Any, side: str) -> str:
    return style.side_name(side) if style is not None else side


def _fire_result(action: act.Fire, style: Any) -> str:
    from pbem.art.overlay import fire_label
    from pbem.art.style import CounterStyle

    return fire_label(action, style or CounterStyle())  # the same words as the turn picture's


def _order_label(action: act.Special, style: Any) -> str:
    from pbem.art.overlay import order_label
    from pbem.art.style import CounterStyle

    return order_label(action, style or CounterStyle())


def describe(action: act.Action, module: Module, style: Any = None) -> str:
    """One line a player reads: what the action did, with unit names, map labels and the module's words."""
    label = module.map.label

    def names(ids) -> str:
        return ", ".join(module.units[u].display() for u in ids)

    kind = action.kind
    if isinstance(action, act.Phase):
        text = _phase_name(style, action.name)
        if action.round is not None:
            text += f", round {action.round}"
        return text + (f" ({action.side})" if action.side else "")
    if isinstance(action, act.Fire):
        kind = "anti_tank" if "anti_tank" in action.declared else "fire"
        rolls = ", ".join(str(r) for r in action.rolls)
        text = f"{_order_name(style, kind)} by {names(action.units)} at {label(action.target)}, roll {rolls}"
        text += f": {action.result}" if action.result else ""
        if action.spotter:
            text += f"; spotter {names([action.spotter])}"
        if action.losses_attacker:
            text += f"; firer loses {names(action.losses_attacker)}"
        if action.losses_defender:
            text += f"; target loses {names(action.losses_defender)}"
        if action.eliminated:
            text += f"; eliminated {names(action.eliminated)}"
        return text
    if isinstance(action, act.Special):
        parts = [_order_name(style, action.order)]
        if action.units:
            parts.append(f"by {names(action.units)}")
        if action.at is not None:
            parts.append(f"at {label(action.at)}")
        if action.rolls:
            parts.append(f"roll {', '.join(str(r) for r in action.rolls)}")
        return " ".join(parts) + (f": {action.result}" if action.result else "")
    if isinstance(action, act.Move):
        how = "" if action.by == "land" else f" by {action.by}"
        return f"{names(action.units)} moves{how} {' → '.join(label(i) for i in action.path)}"
    if isinstance(action, act.Combat):
        parts = [f"{'Overrun' if kind == 'overrun' else 'Attack'} on {label(action.target)} by {names(action.attackers)}"]
        if action.odds:
            parts.append(f"odds {action.odds}" + (f", column {action.column}" if action.column else ""))
        if action.flank_pin is not None:
            parts.append(f"flank attempt pinned from {label(action.flank_pin)}, roll {action.flank_roll}")
        if action.cards:
            parts.append(f"cards {', '.join(action.cards)}")
        rolls = f"roll {action.roll}" + (f", defender {action.defender_roll}" if action.defender_roll is not None else "")
        parts.append(f"{rolls}: {action.result}" if action.result else rolls)  # no result written: the tables' is taken
        if action.losses_attacker:
            parts.append(f"attacker loses {names(action.losses_attacker)}")
        if action.losses_defender:
            parts.append(f"defender loses {names(action.losses_defender)}")
        if action.eliminated:
            parts.append(f"eliminated {names(action.eliminated)}")
        for old, new in action.replacements.items():
            parts.append(f"{names([new])} replaces {names([old])}")
        for unit, path in action.retreats.items():
            parts.append(f"{names([unit])} retreats to {' → '.join(label(i) for i in path)}")
        if action.declared:
            parts.append("declares " + ", ".join(sorted(d.replace("_", " ") for d in action.declared)))
        if action.negated:
            parts.append(f"loss negated for {names(action.negated)}")
        for unit in action.advance:
            if unit in action.advance_paths:
                parts.append(f"{names([unit])} advances to {' → '.join(label(i) for i in action.advance_paths[unit])}")
        plain = [u for u in action.advance if u not in action.advance_paths]
        if plain:
            parts.append(f"{names(plain)} advance")
        for unit, path in action.defender_advance.items():
            parts.append(f"defending {names([unit])} advances to {' → '.join(label(i) for i in path)}")
        return "; ".join(parts)
    if isinstance(action, act.Eliminate):
        return f"{names(action.units)} eliminated" + (f" ({action.reason})" if action.reason else "")
    if isinstance(action, act.Loss):
        return f"{names([action.unit])} loses a step" + (f" ({action.reason})" if action.reason else "")
    if isinstance(action, act.Reinforce):
        return f"{names(action.units)} enter at {label(action.at)}"
    if isinstance(action, act.Replace):
        if action.at is not None:
            return f"{names([action.unit])} rebuilt at {label(action.at)}"
        if action.box is not None:
            return f"{names([action.unit])} rebuilt into the {action.box.replace('_', ' ')} box"
        return f"{names([action.unit])} regains a step"
    if isinstance(action, act.Control):
        return "Control: " + ", ".join(f"{label(i)} to {_side_name(style, side)}" for i, side in action.spaces.items())
    if isinstance(action, act.Roll):
        values = "+".join(str(v) for v in action.values)
        return f"Roll {action.dice} for {action.purpose}: {values}" + (f" → {action.result}" if action.result else "")
    if isinstance(action, act.CardPlay):
        if action.card is None:
            return f"No card: {action.use.replace('_', ' ')}"
        card = module.cards.get(action.card, {})
        return f"Card {action.card}" + (f" {card['name']}" if card.get("name") else "") + f" played for {action.use}"
    if isinstance(action, act.Activate):
        spaces = ", ".join(f"{label(i)} ({purpose})" for i, purpose in action.spaces.items())
        return f"Activate {spaces}" + (f" for {action.cost}" if action.cost is not None else "")
    if isinstance(action, act.Comment):
        return f"“{action.text}”"
    return kind


MAX_EMBEDDED_PIXELS = 9_000_000  # a larger map image is scaled down before it goes into the page


def _embedded_image(background: Any) -> tuple[str, float, Any]:
    """The user's map image as a JPEG data URI, scaled to at most :data:`MAX_EMBEDDED_PIXELS`; its scale and layout."""
    import io

    from pbem.art.background import scaled

    image, layout = background
    factor = min(1.0, math.sqrt(MAX_EMBEDDED_PIXELS / (image.width * image.height)))
    if factor < 1.0:
        size = (max(1, int(image.width * factor)), max(1, int(image.height * factor)))
        layout = scaled(layout, size[0] / image.width, size[1] / image.height)
        image = image.resize(size)
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=85)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"), factor, (image.size, layout)


def _map_data(module: Module, background: Any = None) -> tuple[list[list], dict[str, Any]]:
    """Each location as [x, y, label, terrain colour, name or ""], and the map's lines and bounds."""
    game_map = module.map
    colours = dict(TERRAIN_FALLBACK)
    try:
        from pbem.art.style import load_style

        colours.update(load_style(module.path).terrain)
    except Exception:  # noqa: BLE001 - the art package is optional here; its absence only costs colours
        pass
    hexes = getattr(game_map, "hexes", None)
    image_uri, size, counter = None, HEX_SIZE, COUNTER
    if background is not None and hexes is not None:
        from pbem.art.background import hex_radius

        image_uri, _, ((width, height), layout) = _embedded_image(background)
        points = [layout.center(h) for h in hexes]
        size = hex_radius(layout)
        counter = round(COUNTER * size / HEX_SIZE)
        x0, y0 = 0.0, 0.0
        xs, ys, pad = [0.0, float(width)], [0.0, float(height)], 0.0
    else:
        if hexes is not None:
            flat = getattr(game_map.spec, "orientation", "flat") == "flat"  # type: ignore[attr-defined]
            points = [_hex_pixel(h.q, h.r, flat) for h in hexes]
        else:
            raw = game_map.positions  # type: ignore[attr-defined]
            points = [(p[0] * POINT_SCALE, p[1] * POINT_SCALE) if p else (0.0, 0.0) for p in raw]
        xs = [p[0] for p in points] or [0.0]
        ys = [p[1] for p in points] or [0.0]
        pad = HEX_SIZE * 1.5
        x0, y0 = min(xs) - pad, min(ys) - pad
    locations = [
        [round(x - x0, 1), round(y - y0, 1), game_map.labels[i], colours.get(game_map.terrain[i], "#e8e8e8"),
         game_map.city[i] or game_map.names[i] or ""]
        for i, (x, y) in enumerate(points)
    ]  # fmt: skip
    rivers = []
    for (a, b), features in game_map.side_features.items():
        if hexes is not None and features & {"river", "major_river", "minor_river", "strait"}:
            rivers.append([a, b])
    return locations, {
        "kind": "hex" if hexes is not None else "point",
        "flat": hexes is None or getattr(game_map.spec, "orientation", "flat") == "flat",  # type: ignore[attr-defined]
        "size": round(size, 2),
        "counter": counter,
        "background": image_uri,
        "width": round(max(xs) - min(xs) + 2 * pad, 1),
        "height": round(max(ys) - min(ys) + 2 * pad, 1),
        "rivers": rivers,
        "roads": sorted([a, b] for a, b in game_map.roads),
        "rails": sorted([a, b] for a, b in game_map.rails),
        "links": sorted([a, b] for a in range(len(game_map)) for b in game_map.neighbours[a] if a < b) if hexes is None else [],
        "illustrative": bool(game_map.illustrative),
    }


def _hex_pixel(q: int, r: int, flat: bool) -> tuple[float, float]:
    if flat:
        return HEX_SIZE * 1.5 * q, HEX_SIZE * math.sqrt(3) * (r + q / 2)
    return HEX_SIZE * math.sqrt(3) * (q + r / 2), HEX_SIZE * 1.5 * r


def _unit_info(module: Module, state: State, uid: str) -> dict[str, Any]:
    definition = module.units[uid]
    counter_type = definition.type
    return {
        "name": definition.display(),
        "side": state.units[uid].side,
        "type": counter_type.id,
        "size": counter_type.size,
        "arm": counter_type.arm,
        "faces": [f"{s.attack}-{s.defence}-{s.move}" for s in counter_type.steps],
    }


def _counter_pictures(module: Module, state: State, units: dict[str, Any], size: int = COUNTER) -> dict[str, list[str]]:
    """Counter type id -> a data URI per face, drawn by ``pbem.art`` if it is installed (else empty)."""
    try:
        from pbem.art.counters import counter_svg
        from pbem.art.style import load_style

        style = load_style(module.path)
    except Exception:  # noqa: BLE001 - without the art package the page draws its own counters
        return {}
    pictures: dict[str, list[str]] = {}
    for info in units.values():
        type_id = info["type"]
        if type_id in pictures:
            continue
        counter_type = module.counter_types[type_id]
        room = any(u["type"] == type_id and style.designation_of(uid) for uid, u in units.items())
        faces = []
        for face in range(len(counter_type.steps)):
            try:
                svg = counter_svg(counter_type, face, style, size, designation_room=room)
            except Exception:  # noqa: BLE001 - one counter the art cannot draw falls back to the plain one
                faces = []
                break
            faces.append("data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii"))
        pictures[type_id] = faces
    _add_designations(module, style, units, size)
    return pictures


def _add_designations(module: Module, style: Any, units: dict[str, Any], size: int) -> None:
    """Each unit's designation as its counter prints it (the pictures are per type, so the page adds it):
    ``[text, x, y, font size, colour]`` from the counter's top-left corner."""
    from pbem.art.counters import counter_layout, designation_place

    layout = counter_layout(size, style.layout, True)
    for uid, info in units.items():
        text = style.designation_of(uid)
        if text and info["type"] in module.counter_types:
            x, y, font_size = designation_place(layout, text)
            # The page's counters are small: the number is printed larger than in print, over the echelon if it must.
            info["designation"] = [text, x, y, max(font_size, round(size * 0.2, 1)), style.colours(module.counter_types[info["type"]]).text]


def write_viewer(game: PlayedGame, out: Path, *, title: str, metadata: dict[str, Any] | None = None, background: Any = None) -> int:
    """Write the page to ``out`` (whole or not at all); return its size in bytes."""
    from pbem.model.files import write_atomic

    text = render_html(game, title=title, metadata=metadata, background=background)
    write_atomic(out, text)
    return len(text.encode("utf-8"))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__CSS__</style>
</head>
<body>
<header><h1 id="title">__TITLE__</h1><div id="subtitle"></div></header>
<main>
<section id="board"><svg id="map" xmlns="http://www.w3.org/2000/svg"></svg></section>
<aside>
 <div id="controls">
  <button id="step-first" title="Start of the game (Home)">|◀</button>
  <button id="step-prev" title="Back one action (←)">◀</button>
  <button id="play" title="Play / pause (space)">▶ play</button>
  <button id="step-next" title="Forward one action (→)">▶</button>
  <button id="step-last" title="End of the game (End)">▶|</button>
 </div>
 <div id="jumps">
  <label>turn <select id="turn-select"></select></label>
  <label>phase <select id="phase-select"></select></label>
  <label>speed <select id="speed"><option value="1500">slow</option><option value="700" selected>normal</option><option value="250">fast</option></select></label>
 </div>
 <input id="scrub" type="range" min="0" value="0" aria-label="position in the game">
 <div id="position"></div>
 <div id="current"><div id="action-text"></div><div id="action-event"></div><div id="action-note"></div><ul id="violations"></ul></div>
 <pre id="piles" title="Card piles after this turn (public information)"></pre>
 <ol id="actions"></ol>
 <div id="legend"></div>
 <details id="dice"><summary>Dice on record</summary><div id="dice-body"></div></details>
</aside>
</main>
<script type="application/json" id="game">__DATA__</script>
<script>__JS__</script>
</body>
</html>
"""

_CSS = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;background:#f4f1ea;height:100vh;display:flex;flex-direction:column}
header{padding:6px 12px;background:#2d3a2e;color:#fff}
header h1{font-size:17px;margin:0}
#subtitle{font-size:12px;opacity:.85}
main{flex:1;display:flex;min-height:0}
#board{flex:1;overflow:auto;background:#cfd8dc}
#map{display:block}
aside{width:380px;display:flex;flex-direction:column;border-left:1px solid #bbb;background:#fbfaf6;min-height:0}
#controls,#jumps{display:flex;gap:4px;padding:6px 8px;flex-wrap:wrap}
#controls button{font-size:15px;padding:3px 9px;cursor:pointer}
#play{min-width:80px}
#scrub{margin:0 8px}
#position{padding:2px 8px;font-weight:600}
#current{padding:6px 8px;border-top:1px solid #ddd;border-bottom:1px solid #ddd;min-height:76px}
#action-text{font-size:15px}
#action-note{font-style:italic;color:#555}
#action-event{color:#1e1e3c;font-weight:600}
#violations{margin:4px 0 0;padding-left:18px}
#violations li.illegal{color:#b00020}
#violations li.mismatch{color:#9a6700}
#violations li.warning{color:#246}
#actions{flex:1;overflow:auto;margin:0;padding:4px 4px 4px 34px;font-size:13px}
#actions li{cursor:pointer;padding:1px 3px;border-radius:3px}
#actions li.done{color:#777}
#actions li.now{background:#ffe9a8;color:#000}
#actions li.bad::after{content:" ⚠";color:#b00020}
#actions li.phase{font-weight:600}
#legend{font-size:11px;color:#555;padding:4px 8px;border-top:1px solid #ddd}
#dice{font-size:12px;padding:4px 8px;border-top:1px solid #ddd;max-height:45vh;overflow:auto}
#dice summary{cursor:pointer;font-weight:600}
#dice .group{margin:6px 0}
#dice .meaning{color:#555;font-style:italic}
#dice svg .bar{fill:#5b7c99}#dice svg .expected{stroke:#b00020;stroke-width:1.5}#dice svg text{font-size:9px;fill:#333}
.hex{stroke:#8a8f7a;stroke-width:.6}
.hexlabel{font-size:7px;fill:#555;text-anchor:middle;font-family:sans-serif}
.city{font-size:8px;fill:#000;text-anchor:middle;font-weight:600;font-family:sans-serif}
.river{stroke:#2f6fd0;stroke-width:3;stroke-linecap:round}
.road{stroke:#8b5a2b;stroke-width:1.6;stroke-dasharray:4 2;fill:none}
.rail{stroke:#333;stroke-width:1.4;fill:none}
.link{stroke:#777;stroke-width:2}
.unit text{font-family:sans-serif;pointer-events:none}
.arrow{fill:none;stroke:#1b5e20;stroke-width:4;stroke-linejoin:round;stroke-linecap:round;opacity:.85}
.arrow.retreat{stroke:#6a1b9a;stroke-dasharray:7 4}
.arrow.advance{stroke:#0d47a1}
.attack line{stroke:#d50000;stroke-width:3;stroke-dasharray:5 3}
.attack circle{fill:none;stroke:#d50000;stroke-width:3}
.badhex{fill:none;stroke:#b00020;stroke-width:4}
.hex.over{fill:none;stroke:none}
.names text{font-size:9px;fill:#111;text-anchor:middle;font-weight:600;font-family:sans-serif;paint-order:stroke;stroke:#fff;stroke-width:2.5px;stroke-linejoin:round}
.fire line{stroke:#e06e00;stroke-width:3;stroke-dasharray:6 3}
.fire circle{fill:none;stroke:#e06e00;stroke-width:3}
.order circle{fill:none;stroke:#5a288c;stroke-width:3}
.order line{stroke:#5a288c;stroke-width:2.5;stroke-dasharray:4 3}
.loss circle{fill:#fff;stroke:#781414;stroke-width:2}
.tag rect{fill:#fff;fill-opacity:.92;stroke-width:1.2}
.tag text{font:600 11px sans-serif;text-anchor:middle;dominant-baseline:central}
.fire .tag rect{stroke:#e06e00}.fire .tag text{fill:#a04800}
.order .tag rect{stroke:#5a288c}.order .tag text{fill:#5a288c}
.loss .tag rect{stroke:#781414}.loss .tag text{fill:#781414}
.control circle{fill:none;stroke:#0d6e3c;stroke-width:3;stroke-dasharray:6 3}
.control .tag rect{stroke:#0d6e3c}.control .tag text{fill:#0d6e3c}
"""

_JS = r"""
"use strict";
const G = JSON.parse(document.getElementById("game").textContent);
const NS = "http://www.w3.org/2000/svg";
const L = G.locations, M = G.map, S = M.size, C = M.counter;
const units = Object.keys(G.units);
const el = (id) => document.getElementById(id);
function svg(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
// Positions after every frame (frame 0 = the start), built once by adding up each action's changes.
const positions = [Object.assign({}, G.start)];
for (const f of G.frames) positions.push(Object.assign({}, positions[positions.length - 1], f.changes));
const last = G.frames.length;
let frame = 0, timer = null;

// --- the map ---------------------------------------------------------------------------------------------
const map = el("map");
map.setAttribute("width", M.width); map.setAttribute("height", M.height);
map.setAttribute("viewBox", `0 0 ${M.width} ${M.height}`);
const defs = svg("defs", {}, map);
for (const [id, colour] of [["head", "#1b5e20"], ["head-retreat", "#6a1b9a"], ["head-advance", "#0d47a1"], ["head-fire", "#e06e00"]]) {
  const m = svg("marker", {id, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto"}, defs);
  svg("path", {d: "M0,0 L10,5 L0,10 z", fill: colour}, m);
}
const terrain = svg("g", {id: "terrain"}, map);
function corners(x, y) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (M.flat ? 60 * k : 60 * k - 30);
    pts.push((x + S * Math.cos(a)).toFixed(1) + "," + (y + S * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}
// Over the user's own map image the board shows terrain, roads and names: only the (invisible) hexes are added.
if (M.background) svg("image", {href: M.background, x: 0, y: 0, width: M.width, height: M.height}, terrain);
const hexLabels = {};  // location -> its number's text element, raised above a stack's top counter
const placeNames = {};  // location -> its name's text element: over its number while counters stand on it
if (M.kind === "hex") {
  L.forEach(([x, y, label, colour, name], i) => {
    const g = svg("g", {"data-loc": label}, terrain);
    if (M.background) { svg("polygon", {points: corners(x, y), class: "hex over"}, g); return; }
    svg("polygon", {points: corners(x, y), fill: colour, class: "hex"}, g);
    const t = svg("text", {x, y: y - S * 0.62, class: "hexlabel"}, g);
    t.textContent = label;
    hexLabels[i] = t;
  });
} else {
  for (const [a, b] of M.links) svg("line", {x1: L[a][0], y1: L[a][1], x2: L[b][0], y2: L[b][1], class: "link"}, terrain);
  L.forEach(([x, y, label, colour, name]) => {
    svg("circle", {cx: x, cy: y, r: C * 0.8, fill: colour, stroke: "#555"}, terrain);
    svg("text", {x, y: y + C, class: "city"}, terrain).textContent = name || label;
  });
}
// A river runs along the side two hexes share: the segment through the two corners nearest both centres.
for (const [a, b] of M.rivers) {
  const [ax, ay] = L[a], [bx, by] = L[b];
  const mx = (ax + bx) / 2, my = (ay + by) / 2, dx = bx - ax, dy = by - ay, n = Math.hypot(dx, dy) || 1;
  const half = S / 2;
  svg("line", {x1: mx - dy / n * half, y1: my + dx / n * half, x2: mx + dy / n * half, y2: my - dx / n * half, class: "river"}, terrain);
}
if (!M.background) {
  for (const [a, b] of M.roads) svg("line", {x1: L[a][0], y1: L[a][1], x2: L[b][0], y2: L[b][1], class: "road"}, terrain);
  for (const [a, b] of M.rails) svg("line", {x1: L[a][0], y1: L[a][1], x2: L[b][0], y2: L[b][1], class: "rail"}, terrain);
  // Place names last, over every hex and line, so that no neighbouring hex hides part of one.
  if (M.kind === "hex") {
    const names = svg("g", {class: "names"}, terrain);
    L.forEach(([x, y, label, colour, name], i) => {
      if (!name) return;
      const t = svg("text", {x, y: y + S * 0.5, "data-name": label}, names);
      placeNames[i] = t;
      t.textContent = name;
      // Keep the name whole inside the map: shift it in from the edges.
      const w = t.getComputedTextLength ? t.getComputedTextLength() : name.length * 5;
      t.setAttribute("x", Math.min(Math.max(x, w / 2 + 2), M.width - w / 2 - 2));
    });
  }
}
const marks = svg("g", {id: "marks"}, map);
const counters = svg("g", {id: "counters"}, map);
const overlay = svg("g", {id: "overlay"}, map);

// --- counters --------------------------------------------------------------------------------------------
const unitNodes = {};
for (const id of units) {
  const u = G.units[id];
  const g = svg("g", {class: "unit", "data-unit": id, "data-side": u.side}, counters);
  const title = svg("title", {}, g);
  title.textContent = u.name;
  unitNodes[id] = g;
}
function drawCounter(id, step) {
  const u = G.units[id], g = unitNodes[id];
  if (g.dataset.step === String(step)) return;
  g.dataset.step = String(step);
  while (g.childNodes.length > 1) g.removeChild(g.lastChild);
  const pics = G.counters[u.type];
  if (pics && pics[step]) {
    svg("image", {href: pics[step], width: C, height: C, x: -C / 2, y: -C / 2}, g);
    svg("rect", {x: -C / 2, y: -C / 2, width: C, height: C, fill: "none", stroke: "#000", "stroke-width": 1}, g);
    if (u.designation) {
      const [text, x, y, size, colour] = u.designation;
      const t = svg("text", {x: x - C / 2, y: y - C / 2, "font-size": size, "font-weight": "bold", "text-anchor": "end",
                             "dominant-baseline": "central", fill: colour, class: "designation"}, g);
      t.textContent = text;
    }
    return;
  }
  const colour = G.sides[u.side] || "#ddd";
  svg("rect", {x: -C / 2, y: -C / 2, width: C, height: C, rx: 2, fill: colour, stroke: "#000", "stroke-width": 1}, g);
  if (step > 0) svg("rect", {x: -C / 2, y: -C / 2, width: C, height: 3, fill: "#fff"}, g);
  const bw = C * 0.56, bh = C * 0.36, by = -C / 2 + C * 0.16;
  svg("rect", {x: -bw / 2, y: by, width: bw, height: bh, fill: "#fff", stroke: "#000", "stroke-width": 0.8}, g);
  if (/armou?r|tank|mech/i.test(u.arm)) svg("ellipse", {cx: 0, cy: by + bh / 2, rx: bw * 0.3, ry: bh * 0.3, fill: "none", stroke: "#000"}, g);
  if (/inf|mot|mech|militia|border/i.test(u.arm) || !/armou?r|tank/i.test(u.arm)) {
    svg("line", {x1: -bw / 2, y1: by, x2: bw / 2, y2: by + bh, stroke: "#000", "stroke-width": 0.8}, g);
    svg("line", {x1: -bw / 2, y1: by + bh, x2: bw / 2, y2: by, stroke: "#000", "stroke-width": 0.8}, g);
  }
  svg("text", {x: 0, y: by - 1, "font-size": 6, "text-anchor": "middle"}, g).textContent = u.size || "";
  svg("text", {x: 0, y: C / 2 - 3, "font-size": 8.5, "font-weight": "bold", "text-anchor": "middle"}, g).textContent = u.faces[Math.min(step, u.faces.length - 1)] || "";
}

// --- one moment ------------------------------------------------------------------------------------------
function showUnits(pos) {
  const stacks = {};
  for (const id of units) {
    const [at, step] = pos[id];
    const g = unitNodes[id];
    g.dataset.at = at >= 0 ? L[at][2] : (pos[id][2] || "off");
    if (at < 0) { g.style.display = "none"; continue; }
    g.style.display = "";
    drawCounter(id, step);
    const k = (stacks[at] = (stacks[at] || 0) + 1) - 1;
    g.setAttribute("transform", `translate(${L[at][0] + k * 4},${L[at][1] - k * 4})`);
  }
  // A stack fans upwards over its hex's number: the number moves up with the top counter.
  for (const [i, t] of Object.entries(hexLabels)) {
    const raised = Math.max(0, (stacks[i] || 1) - 1) * 4;
    t.setAttribute("y", L[i][1] - S * 0.62 - raised);
  }
  // Counters would hide a place's name (a town's garrison): while any stand there, the name goes above the number.
  for (const [i, t] of Object.entries(placeNames)) {
    const raised = Math.max(0, (stacks[i] || 1) - 1) * 4;
    t.setAttribute("y", stacks[i] ? L[i][1] - S * 0.62 - raised - 8 : L[i][1] + S * 0.5);
  }
}
function centre(i) { return [L[i][0], L[i][1]]; }
function arrow(path, cls, head) {
  if (path.length < 2) return;
  const pts = path.map(centre);
  // Stop short of the last centre so the head sits beside, not under, the counter.
  const [x1, y1] = pts[pts.length - 2], [x2, y2] = pts[pts.length - 1];
  const d = Math.hypot(x2 - x1, y2 - y1) || 1, cut = Math.min(C * 0.45, d / 2);
  pts[pts.length - 1] = [x2 - (x2 - x1) / d * cut, y2 - (y2 - y1) / d * cut];
  svg("polyline", {points: pts.map((p) => p.join(",")).join(" "), class: "arrow " + cls, "marker-end": `url(#${head})`}, overlay);
}
function showMarks(f) {
  overlay.textContent = ""; marks.textContent = "";
  if (!f) return;
  for (const p of f.arrows || []) arrow(p, f.kind === "move" ? "" : "retreat", f.kind === "move" ? "head" : "head-retreat");
  for (const p of f.advance || []) arrow(p, "advance", "head-advance");
  if (f.attack) {
    const g = svg("g", {class: "attack", "data-target": L[f.attack.target][2]}, overlay);
    const [tx, ty] = centre(f.attack.target);
    for (const o of f.attack.from) { const [x, y] = centre(o); svg("line", {x1: x, y1: y, x2: tx, y2: ty}, g); }
    svg("circle", {cx: tx, cy: ty, r: C * 0.7}, g);
    svg("text", {x: tx, y: ty - C * 0.8, "font-size": 16, "text-anchor": "middle", fill: "#d50000"}, g).textContent = "✸";
  }
  if (f.place !== undefined) svg("circle", {cx: L[f.place][0], cy: L[f.place][1], r: C * 0.7, class: "badhex", stroke: "#0d47a1"}, overlay);
  if (f.fire) {
    const g = svg("g", {class: "fire", "data-target": L[f.fire.target][2]}, overlay);
    const [tx, ty] = centre(f.fire.target);
    for (const o of f.fire.from) {
      const [x, y] = centre(o), d = Math.hypot(tx - x, ty - y) || 1, cut = Math.min(C * 0.7, d / 2);
      svg("line", {x1: x, y1: y, x2: tx - (tx - x) / d * cut, y2: ty - (ty - y) / d * cut, "marker-end": "url(#head-fire)"}, g);
    }
    svg("circle", {cx: tx, cy: ty, r: C * 0.7}, g);
    tag(g, tx, ty + C * 0.95, f.fire.label);
  }
  if (f.order) {
    const g = svg("g", {class: "order", "data-at": L[f.order.at][2]}, overlay);
    const [x, y] = centre(f.order.at);
    for (const o of f.order.from) { const [ox, oy] = centre(o); svg("line", {x1: ox, y1: oy, x2: x, y2: y}, g); }
    svg("circle", {cx: x, cy: y, r: C * 0.7}, g);
    tag(g, x, y + C * 0.95, f.order.label);
  }
  for (const c of f.control || []) {
    for (const at of c.at) {
      const g = svg("g", {class: "control", "data-at": L[at][2]}, overlay);
      const [x, y] = centre(at);
      svg("circle", {cx: x, cy: y, r: C * 0.7}, g);
      tag(g, x, y + C * 0.95, c.label);
    }
  }
  if (f.loss) {
    for (const at of f.loss.at) {
      const g = svg("g", {class: "loss", "data-at": L[at][2]}, overlay);
      const [x, y] = centre(at);
      tag(g, x, y + C * 0.95, f.loss.label);
    }
  }
  if (f.violations.length) {
    // A violation that names its place is marked there (a retreat into the wrong hex), else on the action's own.
    const own = f.attack ? f.attack.target : f.fire ? f.fire.target : f.order ? f.order.at : (f.loss && f.loss.at.length) ? f.loss.at[0] :
      (f.control && f.control.length) ? f.control[0].at[0] : f.place !== undefined ? f.place :
      (f.arrows && f.arrows.length ? f.arrows[0][f.arrows[0].length - 1] : null);
    const places = new Set(f.violations.map((v) => (v.at !== null && v.at !== undefined ? v.at : own)));
    for (const where of places) {
      if (where !== null && where !== undefined) svg("polygon", {points: corners(L[where][0], L[where][1]), class: "badhex", "data-at": L[where][2]}, marks);
    }
  }
}
// A label in a white box under a mark, kept inside the map.
function tag(parent, x, y, text) {
  const g = svg("g", {class: "tag"}, parent);
  const rect = svg("rect", {}, g);
  const t = svg("text", {x, y}, g);
  t.textContent = text;
  const w = (t.getComputedTextLength ? t.getComputedTextLength() : text.length * 6) + 8, h = 16;
  const cx = Math.min(Math.max(x, w / 2 + 1), M.width - w / 2 - 1), cy = Math.min(y, M.height - h / 2 - 1);
  t.setAttribute("x", cx); t.setAttribute("y", cy);
  for (const [k, v] of Object.entries({x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: 3})) rect.setAttribute(k, v);
}
const items = [];
function count(n, noun) { return `${n} ${noun}${n === 1 ? "" : "s"}`; }
function turnLabel(t) { const T = G.turns[t]; return `Turn ${T.turn} · ${T.side_name || T.side} · ${T.name}`; }
function show(n) {
  frame = Math.max(0, Math.min(last, n));
  const f = frame ? G.frames[frame - 1] : null;
  showUnits(positions[frame]);
  showMarks(f);
  el("scrub").value = frame;
  const violations = el("violations");
  violations.textContent = "";
  if (!f) {
    el("position").textContent = `Start of the game (${count(last, "action")} in ${count(G.turns.length, "turn")})`;
    el("action-text").textContent = "Set-up: step forward to play the first action.";
    el("action-event").textContent = "";
    el("action-note").textContent = "";
  } else {
    const T = G.turns[f.turn];
    el("position").textContent = `${turnLabel(f.turn)} · ${f.phase || "-"} · action ${f.index + 1}/${T.actions}`;
    el("action-text").textContent = f.text;
    el("action-event").textContent = f.event ? `Dice: ${f.event}` : "";
    el("action-note").textContent = f.note;
    for (const v of f.violations) {
      const li = document.createElement("li");
      li.className = v.severity;
      li.textContent = `rule ${v.rule} [${v.severity}] ${v.message}`;
      violations.appendChild(li);
    }
  }
  el("piles").textContent = f && G.turns[f.turn].cards ? `After this turn:\n${G.turns[f.turn].cards}` : "";
  el("turn-select").value = f ? f.turn : 0;
  fillPhases(f ? f.turn : 0, f ? f.phase : "");
  fillActions(f ? f.turn : 0);
  el("step-prev").disabled = frame === 0; el("step-first").disabled = frame === 0;
  el("step-next").disabled = frame === last; el("step-last").disabled = frame === last;
  document.body.dataset.frame = frame;
  const now = document.querySelector("#actions li.now");
  if (now) now.scrollIntoView({block: "nearest"});
  if (frame === last && timer) pause();
  follow(f);
}
// The locations an action's marks are drawn on.
function spotsOf(f) {
  const spots = [];
  if (!f) return spots;
  for (const p of f.arrows || []) spots.push(...p);
  if (f.attack) spots.push(f.attack.target, ...f.attack.from);
  if (f.place !== undefined) spots.push(f.place);
  if (f.fire) spots.push(f.fire.target, ...f.fire.from);
  if (f.order) spots.push(f.order.at, ...f.order.from);
  if (f.loss) spots.push(...f.loss.at);
  return spots;
}
// Keep the current action in view: scroll the board only when its marks are outside the visible part.
function follow(f) {
  const spots = spotsOf(f);
  if (!spots.length) return;
  const board = el("board"), scale = map.getBoundingClientRect().width / M.width || 1;
  const xs = spots.map((i) => L[i][0] * scale), ys = spots.map((i) => L[i][1] * scale);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys), m = C * scale * 1.5;
  const inside = x0 - m >= board.scrollLeft && x1 + m <= board.scrollLeft + board.clientWidth &&
                 y0 - m >= board.scrollTop && y1 + m <= board.scrollTop + board.clientHeight;
  if (!inside) board.scrollTo({left: (x0 + x1) / 2 - board.clientWidth / 2, top: (y0 + y1) / 2 - board.clientHeight / 2});
}
let listedTurn = -1;
function fillActions(t) {
  const list = el("actions");
  if (listedTurn !== t) {
    listedTurn = t; list.textContent = ""; items.length = 0;
    G.frames.forEach((f, k) => {
      if (f.turn !== t) return;
      const li = document.createElement("li");
      li.textContent = f.text + (f.violations.length ? "" : "");
      li.value = f.index + 1;
      li.dataset.frame = k + 1;
      if (f.kind === "phase") li.classList.add("phase");
      if (f.violations.some((v) => v.severity !== "warning")) li.classList.add("bad");
      li.title = [...(f.event ? [`Dice: ${f.event}`] : []), ...f.violations.map((v) => `rule ${v.rule}: ${v.message}`)].join("\n");
      li.addEventListener("click", () => { pause(); show(k + 1); });
      list.appendChild(li); items.push(li);
    });
  }
  for (const li of items) {
    const k = Number(li.dataset.frame);
    li.classList.toggle("now", k === frame);
    li.classList.toggle("done", k < frame);
  }
}
let phasesOf = -1;
function fillPhases(t, current) {
  const select = el("phase-select");
  if (phasesOf !== t) {
    phasesOf = t; select.textContent = "";
    G.frames.forEach((f, k) => {
      if (f.turn === t && f.kind === "phase") {
        const o = document.createElement("option"); o.value = k + 1; o.textContent = f.phase; select.appendChild(o);
      }
    });
    select.disabled = !select.options.length;
  }
  let chosen = null;
  for (const o of select.options) if (Number(o.value) <= frame) chosen = o.value;
  if (chosen !== null) select.value = chosen;
}
// --- controls --------------------------------------------------------------------------------------------
function play() {
  if (frame === last) show(0);
  el("play").textContent = "⏸ pause"; el("play").dataset.playing = "1";
  timer = setInterval(() => show(frame + 1), Number(el("speed").value));
}
function pause() {
  clearInterval(timer); timer = null;
  el("play").textContent = "▶ play"; el("play").dataset.playing = "";
}
el("play").addEventListener("click", () => (timer ? pause() : play()));
el("speed").addEventListener("change", () => { if (timer) { pause(); play(); } });
el("step-next").addEventListener("click", () => { pause(); show(frame + 1); });
el("step-prev").addEventListener("click", () => { pause(); show(frame - 1); });
el("step-first").addEventListener("click", () => { pause(); show(0); });
el("step-last").addEventListener("click", () => { pause(); show(last); });
el("scrub").max = last;
el("scrub").addEventListener("input", (e) => { pause(); show(Number(e.target.value)); });
G.turns.forEach((T, t) => {
  const o = document.createElement("option"); o.value = t; o.textContent = turnLabel(t) + (T.ok ? "" : " ⚠");
  el("turn-select").appendChild(o);
});
el("turn-select").addEventListener("change", (e) => { pause(); show(G.turns[Number(e.target.value)].first); });
el("phase-select").addEventListener("change", (e) => { pause(); show(Number(e.target.value)); });
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") { pause(); show(frame + 1); }
  else if (e.key === "ArrowLeft") { pause(); show(frame - 1); }
  else if (e.key === "Home") { pause(); show(0); }
  else if (e.key === "End") { pause(); show(last); }
  else if (e.key === " ") { e.preventDefault(); timer ? pause() : play(); }
  else return;
});
const md = G.metadata, players = md.players ? Object.entries(md.players).map(([s, n]) => `${n.join(", ")} (${s})`).join(" vs ") : "";
el("subtitle").textContent = [`${G.module.name} ${G.module.version}`, md.scenario || "", players, md.result ? "result: " + md.result : "",
  md.finished ? "finished " + md.finished : "", G.map.illustrative ? "illustrative map" : ""].filter(Boolean).join(" · ");
function showDice(D) {
  const body = el("dice-body");
  const line = (text, cls) => { const p = document.createElement("div"); p.textContent = text; if (cls) p.className = cls; body.appendChild(p); return p; };
  line(`${D.rolls} roll(s) on record: ${D.kept} kept, ${D.undone} taken back by an undo`);
  for (const player of Object.keys(D.by_player_and_purpose).sort()) {
    const purposes = D.by_player_and_purpose[player];
    line(`${player}: ` + Object.keys(purposes).sort().map((p) => `${p} ${purposes[p]}`).join(", "));
  }
  for (const g of D.groups) {
    const box = document.createElement("div");
    box.className = "group";
    body.appendChild(box);
    const title = document.createElement("div");
    title.textContent = `${g.player}, ${g.die}: ${g.observations} · mean ${g.mean === null ? "-" : g.mean.toFixed(2)} (expected ${g.expected_mean.toFixed(2)})` +
      (g.p_value === null ? " · no chi-square test" : ` · chi-square ${g.chi_square.toFixed(2)}, p = ${g.p_value.toFixed(3)}`) + (g.note ? ` · ${g.note}` : "");
    box.appendChild(title);
    const faces = Object.keys(g.counts);
    const most = Math.max(1, ...faces.map((f) => Math.max(g.counts[f], g.expected[f] || 0)));
    const w = 18, h = 50, chart = svg("svg", {width: faces.length * w + 4, height: h + 14, role: "img"}, box);
    svg("title", {}, chart).textContent = `counts per ${g.die.startsWith("d") ? "face" : "total"}, the red marks are what fair dice give on average`;
    faces.forEach((f, k) => {
      const bar = g.counts[f] / most * h;
      svg("rect", {class: "bar", x: 2 + k * w, y: h - bar, width: w - 4, height: bar}, chart);
      if (g.expected[f] !== undefined) {
        const y = h - g.expected[f] / most * h;
        svg("line", {class: "expected", x1: 1 + k * w, x2: 1 + k * w + w - 2, y1: y, y2: y}, chart);
      }
      const label = svg("text", {x: 2 + k * w + (w - 4) / 2, y: h + 11, "text-anchor": "middle"}, chart);
      label.textContent = f;
    });
  }
  for (const r of D.undone_rolls) {
    const again = D.rerolls.find((x) => x.file === r.file && `step ${x.undone_step}` === r.where);
    line(`${r.player}: ${r.file} ${r.where} ${r.purpose} ${(r.faces || [r.total]).join(",")} taken back` +
      (again ? `; rolled again at step ${again.step}: ${again.after.join(",")}` : "; not rolled again"));
  }
  line(D.meaning, "meaning");
}
showDice(G.dice);
el("legend").textContent = "← → step · space play/pause · Home/End · green arrow: move · red ring: attack · orange: fire · violet ring: special order · purple: retreat · blue: advance · red hex: violation";
show(0);
// Open where the game starts, on the first action drawn on the map, not at the map's west edge.
follow(G.frames.find((f) => spotsOf(f).length));
"""
