"""Turn overlays: the map with the units as counters, each move as an arrow along its path, each attack
as an arrow into the defender with its odds and result, each ranged or anti-tank fire as a dashed line from
the firers with its result, each special order the module defines and each step lost outside
combat as a labelled badge on its hex, and each violation ringed in red with its rule.

``overlay(picture, state, marks, style)`` is a pure function; :func:`turn_marks` derives the marks from
a turn, its start state and its replay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageColor, ImageDraw

from pbem.art.counters import render_counter
from pbem.art.fonts import font
from pbem.art.layout import Point
from pbem.art.maps import MapPicture, dashed, arrow, star_points
from pbem.art.style import CounterStyle, fill_template
from pbem.model import actions as act
from pbem.model.state import State
from pbem.model.event import Event
from pbem.model.violation import Violation

MOVE = (20, 60, 200)
ATTACK = (200, 30, 30)
FIRE = (224, 110, 0)
ORDER = (90, 40, 140)
LOSS = (120, 20, 20)
VIOLATION = (230, 0, 0)
EVENT = (30, 30, 60)
SIDE_COLOURS = ((20, 60, 200), (0, 120, 60), (130, 40, 150), (160, 100, 0))


@dataclass(frozen=True)
class MoveMark:
    """Units moving along ``path`` (locations, start first)."""

    path: tuple[int, ...]
    label: str = ""
    side: int = 0  # index of the moving side, for its arrow colour
    kind: str = "move"  # move | strategic (SR, rail, sea, air) | retreat | advance


@dataclass(frozen=True)
class AttackMark:
    """An attack from ``sources`` into ``target``, labelled with odds and result."""

    sources: tuple[int, ...]
    target: int
    label: str


@dataclass(frozen=True)
class FireMark:
    """Fire from ``sources`` at ``target`` (ranged or anti-tank), labelled with its roll and result."""

    sources: tuple[int, ...]
    target: int
    label: str


@dataclass(frozen=True)
class OrderMark:
    """A special order at ``location`` (carried out by units in ``sources`` when they stand elsewhere), or a step lost."""

    location: int
    label: str
    sources: tuple[int, ...] = ()
    loss: bool = False


@dataclass(frozen=True)
class ViolationMark:
    """A broken rule at ``location`` (``None`` when the violation names no place), numbered ``number``."""

    location: int | None
    rule: str
    number: int
    message: str
    severity: str


@dataclass(frozen=True)
class ActivationMark:
    """A location activated for an operation, with its purpose (``move``, ``attack``...)."""

    location: int
    purpose: str


@dataclass(frozen=True)
class EventMark:
    """A random event with no place on the map (a political roll, a mandated offensive), or what a roll drawn on the
    map did in the module's words: listed under the picture."""

    text: str


Mark = MoveMark | AttackMark | FireMark | OrderMark | ViolationMark | ActivationMark | EventMark
ACTIVATION = {"move": (20, 110, 40), "attack": (200, 30, 30)}
MOVE_KINDS = {"strategic": (110, 40, 150), "retreat": (90, 60, 30), "advance": (0, 120, 60)}


def _touched(marks: Sequence[Mark]) -> set[int]:
    """Every location a mark starts, passes or ends at."""
    out: set[int] = set()
    for mark in marks:
        if isinstance(mark, MoveMark):
            out.update(mark.path)
        elif isinstance(mark, (AttackMark, FireMark)):
            out.update(mark.sources + (mark.target,))
        elif isinstance(mark, OrderMark):
            out.update(mark.sources + (mark.location,))
        elif isinstance(mark, (ViolationMark, ActivationMark)) and mark.location is not None:
            out.add(mark.location)
    return out


def _fit_chip(text: str, chip: float) -> int:
    size = max(6, round(chip * 0.7))
    while size > 6 and font(size, True).getlength(text) > chip * 0.9:
        size -= 1
    return size


def _shortened(points: list[Point], by: float) -> list[Point]:
    """``points`` with the first segment starting ``by`` pixels later."""
    (ax, ay), (bx, by_) = points[0], points[1]
    length = math.dist((ax, ay), (bx, by_))
    if length <= by * 2:
        return points
    t = by / length
    return [(ax + (bx - ax) * t, ay + (by_ - ay) * t)] + points[1:]


def turn_marks(
    turn: act.Turn,
    start: State,
    violations: Sequence[Violation],
    sides: Sequence[str] = (),
    style: CounterStyle | None = None,
    events: Sequence[Event] = (),
) -> list[Mark]:
    """Marks for every move, attack, fire, special order, loss, rebuild, control change and violation of ``turn``, replayed on ``start``
    (changed in place: pass a state of its own) so that each arrow starts where its units stood at the time.
    ``style`` gives the names of the module's special orders. Of the replay's random ``events``, those the map
    does not show (a roll outside combat, and what any roll did in the module's words) are listed under it."""
    style = style or CounterStyle()
    marks: list[Mark] = []
    where: dict[int, int | None] = {}

    def spots(units: Sequence[str]) -> tuple[int, ...]:
        return tuple(sorted({start.units[u].at for u in units if u in start.units and start.units[u].on_map}))

    for action in turn.actions:
        if isinstance(action, act.Move) and len(action.path) >= 1:
            side = start.units[action.units[0]].side if action.units and action.units[0] in start.units else ""
            kind = "move" if action.by == "land" else "strategic"
            label = style.label(kind, "") if kind == "strategic" else ""
            marks.append(MoveMark(tuple(action.path), label, sides.index(side) if side in sides else 0, kind))
            where[action.index] = action.path[-1]
        elif isinstance(action, act.Combat):
            marks.append(AttackMark(spots(action.attackers), action.target, combat_label(action, start, style)))
            marks.extend(_after_combat(action, start, style, sides))
            where[action.index] = action.target
        elif isinstance(action, act.Fire):
            marks.append(FireMark(spots(action.units), action.target, fire_label(action, style)))
            where[action.index] = action.target
        elif isinstance(action, act.Special):
            sources = spots(action.units)
            location = action.at if action.at is not None else (sources[0] if sources else None)
            if location is not None:
                marks.append(OrderMark(location, order_label(action, style), tuple(s for s in sources if s != location)))
            where[action.index] = location
        elif isinstance(action, (act.Loss, act.Eliminate)):
            units = (action.unit,) if isinstance(action, act.Loss) else action.units
            for location in spots(units):
                what = "-1 step" if isinstance(action, act.Loss) else "eliminated"
                marks.append(OrderMark(location, what + (f" ({action.reason})" if action.reason else ""), loss=True))
                where[action.index] = location
        elif isinstance(action, act.Reinforce):
            marks.append(OrderMark(action.at, style.label("reinforce", "arrives")))
            where[action.index] = action.at
        elif isinstance(action, act.Remove):
            for location in spots(action.units):
                marks.append(OrderMark(location, style.label("remove", "to the {box} box", box=action.to)))
                where[action.index] = location
        elif isinstance(action, act.Replace) and action.at is not None:
            marks.append(OrderMark(action.at, "rebuilt"))
            where[action.index] = action.at
        elif isinstance(action, act.Control):
            for location, side in action.spaces.items():
                marks.append(OrderMark(location, f"{style.side_name(side)} control"))
            where[action.index] = next(iter(action.spaces), None)
        elif isinstance(action, act.Activate):
            marks.extend(ActivationMark(location, purpose) for location, purpose in action.spaces.items())
            where[action.index] = next(iter(action.spaces), None)
        start.apply(action)
    marks.extend(EventMark(event.text()) for event in events if event.kind == "roll" or event.outcome)
    for number, violation in enumerate(violations, 1):
        location = violation.at if violation.at is not None else where.get(violation.index) if violation.index is not None else None
        marks.append(ViolationMark(location, violation.rule, number, violation.message, violation.severity))
    return marks


def _steps(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''} lost" if count else "no loss"


def combat_label(action: act.Combat, state: State, style: CounterStyle) -> str:
    """An attack's label in the module's words (``labels.combat``, or ``labels.combat_both`` where both sides roll),
    from the fields ``roll``, ``defender_roll``, ``result``, ``odds``, ``column``, ``attacker_loss`` and
    ``defender_loss`` (the halves of an ``A/D`` result), ``attacker_steps``/``defender_steps`` ("1 step lost"),
    ``attacker``/``defender`` (side names); ``state`` is the position just before the attack."""
    negated = list(action.negated)
    lost = {"attacker": list(action.losses_attacker), "defender": list(action.losses_defender)}
    for unit in negated:
        for side in ("defender", "attacker"):
            if unit in lost[side]:
                lost[side].remove(unit)
                break
    halves = action.result.split("/") if action.result else []
    attacker_side = next((state.units[u].side for u in action.attackers if u in state.units), "")
    defender_side = next((u.side for u in state.units_at(action.target) if u.side != attacker_side), "")
    fields = {
        "roll": action.roll, "defender_roll": action.defender_roll,
        "result": action.result or "as the tables give",  # an attack written without its result
        "odds": action.odds or action.column or "?",
        "column": action.column or action.odds or "?", "attacker_loss": halves[0] if len(halves) == 2 else "?",
        "defender_loss": halves[1] if len(halves) == 2 else "?", "attacker_steps": _steps(len(lost["attacker"])),
        "defender_steps": _steps(len(lost["defender"]) + len(action.eliminated)),
        "attacker": style.side_name(attacker_side), "defender": style.side_name(defender_side) if defender_side else "defender",
    }  # fmt: skip
    if action.defender_roll is None:
        return style.label("combat", "{column}  roll {roll}: {result}", **fields)
    return style.label("combat_both", "rolls {roll}/{defender_roll}: {result}", **fields)


def _after_combat(action: act.Combat, state: State, style: CounterStyle, sides: Sequence[str]) -> list[Mark]:
    """The retreats and advances of an attack as arrows (``state``: the position just before it)."""
    marks: list[Mark] = []
    for unit, path in action.retreats.items():
        if path:
            side = state.units[unit].side if unit in state.units else ""
            marks.append(MoveMark((action.target,) + tuple(path), style.label("retreat", ""), sides.index(side) if side in sides else 0, "retreat"))
    for unit in action.advance:
        here = state.units[unit].at if unit in state.units and state.units[unit].on_map else None
        if here is None:
            continue
        path = action.advance_paths.get(unit) or (action.target,)
        side = state.units[unit].side
        marks.append(MoveMark((here,) + tuple(path), style.label("advance", ""), sides.index(side) if side in sides else 0, "advance"))
    return marks


def fire_label(action: act.Fire, style: CounterStyle) -> str:
    """``Anti-tank fire 4, 6: 1 hit`` — what a player says of a fire."""
    kind = "anti_tank" if "anti_tank" in action.declared else "fire"
    rolls = ", ".join(str(r) for r in action.rolls)
    result = action.result
    if not result:
        steps = len(action.losses_defender) + len(action.eliminated)
        result = f"{steps} step{'s' if steps != 1 else ''} lost" if steps else "no effect"
    return f"{style.order_name(kind)} {rolls}: {result}"


def order_label(action: act.Special, style: CounterStyle) -> str:
    """The order's name as the module gives it, its roll and result, e.g. ``Bombardment 4: hit``."""
    text = style.order_name(action.order)
    if action.rolls:
        text += " " + ", ".join(str(r) for r in action.rolls)
    if action.result:
        text += f": {action.result}"
    return text


def overlay(
    picture: MapPicture, state: State, marks: Sequence[Mark], style: CounterStyle, *, legend: bool = True, crop: bool = False
) -> Image.Image:
    """The map with ``state``'s units as counters and ``marks`` drawn over them; ``crop`` keeps only the
    part with units and marks (plus two hexes), ``legend`` lists the random events and the violations under the picture."""
    image = picture.image.copy().convert("RGBA")
    centers = picture.centers
    unit = picture.radius * 2
    counter_px = max(16, round(unit * 0.72))
    draw = ImageDraw.Draw(image)
    taken: list[tuple[float, float, float, float]] = []  # counters' boxes: labels keep off them
    # Units: stacks fanned up and to the right like counters on a table (on a point map, below the space's name).
    ox, oy = picture.stack_offset
    down = 1 if picture.name_labels else -1  # below a name band, a stack fans down and to the right, away from the name
    for location in sorted(state.stacks):
        stack = state.units_at(location)
        x, y = centers[location][0] + ox, centers[location][1] + oy
        step = max(2, counter_px // 8)
        for k, unit_state in enumerate(stack):
            face = min(unit_state.step, style.faces(unit_state.unit.type) - 1)
            px = max(16, round(counter_px * style.scale_of(unit_state.unit.type)))
            counter = render_counter(unit_state.unit.type, face, style, px, designation=style.designation_of(unit_state.id))
            left = round(x - px / 2 + k * step)
            top = round(y - px / 2 + k * step * down)
            draw.rectangle([left + 2, top + 2, left + px + 1, top + px + 1], fill=(0, 0, 0, 90))
            image.paste(counter, (left, top))
            draw.rectangle([left, top, left + px - 1, top + px - 1], outline=(0, 0, 0, 255))
            taken.append((left, top, left + px, top + px))
        if len(stack) > 1:
            # A stack shows its top counter; the badge says how many lie under it.
            px = max(16, round(counter_px * style.scale_of(stack[-1].unit.type)))
            bx, by = round(x + px / 2 + (len(stack) - 1) * step), round(y + (px / 2 if down > 0 else -px / 2) + (len(stack) - 1) * step * down)
            r = max(6, counter_px // 6)
            draw.ellipse([bx - r, by - r, bx + r, by + r], fill=(255, 255, 255, 255), outline=(0, 0, 0, 255), width=1)
            draw.text((bx, by), str(len(stack)), font=font(round(r * 1.5)), fill=(0, 0, 0, 255), anchor="mm")
    occupied = {centers[location] for location in state.stacks}
    for name in picture.name_labels:
        # A place name stays readable over the counters that stand on its space.
        if any(abs(name.at[0] - cx) < unit * 2 and abs(name.at[1] - cy) < unit * 2 for cx, cy in occupied):
            x0, y0, x1, y1 = name.box
            draw.rectangle([x0 - 2, y0 - 1, x1 + 2, y1 + 1], fill=(255, 255, 255, 215))
            draw.text(name.at, name.text, font=font(name.size, True), fill=name.colour, anchor="mm")
            if name.capital:
                draw.polygon(star_points(x0 + (y1 - y0) * 0.3, name.at[1], (y1 - y0) * 0.55), fill=name.colour)
        taken.append(name.box)
    taken += _status_marks(draw, state, style, centers, unit)
    numbers = _hex_numbers_above(draw, state, centers, unit, counter_px) if picture.layout is not None else []
    taken += [box for box, _, _ in numbers]
    centers = tuple((x + ox, y + oy) for x, y in centers)  # marks point at the counters, not at a space's name
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ldraw = ImageDraw.Draw(layer)
    width = max(3, round(unit / 10))
    head = max(8.0, unit * 0.3)
    label_font = font(max(9, round(unit * 0.26)))
    for mark in marks:
        if isinstance(mark, ActivationMark):
            # An activation marker: a square ring in the purpose's colour with its initial (M, A) at a corner.
            x, y = centers[mark.location]
            r = unit * 0.62
            colour = ACTIVATION.get(mark.purpose, (90, 90, 90))
            if picture.name_labels:
                # On a point map, an activation marker beside the stack (as a player puts one), off the name.
                chip = unit * 0.5
                left, top = x + unit * 0.5, y - chip * 0.2
                ldraw.rectangle([left, top, left + chip, top + chip], fill=colour + (245,), outline=(0, 0, 0, 255))
                text = style.label(f"activation_{mark.purpose}", mark.purpose[:1].upper())
                ldraw.text((left + chip / 2, top + chip / 2), text, font=font(_fit_chip(text, chip), True), fill=(255, 255, 255, 255), anchor="mm")
                taken.append((left, top, left + chip, top + chip))
                continue
            ldraw.rectangle([x - r, y - r, x + r, y + r], outline=colour + (230,), width=max(2, width - 1))
            badge = max(6.0, unit * 0.16)
            ldraw.rectangle([x + r - 2 * badge, y + r - 2 * badge, x + r, y + r], fill=colour + (240,))
            ldraw.text((x + r - badge, y + r - badge), mark.purpose[:1].upper(), font=font(round(badge * 1.6)), fill=(255, 255, 255, 255), anchor="mm")
    move_labels: list[tuple[Point, str, tuple[int, int, int]]] = []
    for mark in marks:
        if isinstance(mark, MoveMark) and len(mark.path) >= 2:
            colour = MOVE_KINDS.get(mark.kind) or SIDE_COLOURS[mark.side % len(SIDE_COLOURS)]
            points = [centers[i] for i in mark.path]
            if mark.kind in ("retreat", "advance"):
                points = _shortened(points, unit * 0.35)  # from the defender's counters, not over them
            sx, sy = points[0]
            if mark.kind in ("strategic", "retreat"):
                # A strategic move jumps across the map; a retreat falls back: both dashed.
                for a, b in zip(points[:-2], points[1:-1]):
                    dashed(ldraw, a, b, fill=colour + (220,), width=width, dash=unit / 6)
                body = points[-2]
                dashed(ldraw, body, (body[0] + (points[-1][0] - body[0]) * 0.7, body[1] + (points[-1][1] - body[1]) * 0.7), fill=colour + (220,), width=width, dash=unit / 6)
                arrow(ldraw, [(body[0] + (points[-1][0] - body[0]) * 0.6, body[1] + (points[-1][1] - body[1]) * 0.6), points[-1]], fill=colour + (220,), width=width, head=head)
            else:
                ldraw.ellipse([sx - width * 1.2, sy - width * 1.2, sx + width * 1.2, sy + width * 1.2], fill=colour + (220,))
                arrow(ldraw, points, fill=colour + (220,), width=width, head=head)
            if mark.label:
                mid = len(points) // 2
                a, b = points[mid - 1], points[mid]
                move_labels.append((((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), mark.label, colour))
    ring_radius = unit * 0.6
    ring_width = max(3, width)
    rings = [centers[m.location] for m in marks if isinstance(m, ViolationMark) and m.location is not None]
    # Labels keep off the counters and off the violation rings (a ring's own label excepted).
    pad = ring_radius + ring_width
    labels = Labels(image.size, taken, rings=[(x - pad, y - pad, x + pad, y + pad) for x, y in rings])
    for at, text, colour in move_labels:
        labels.place(ldraw, at, 0, text, label_font, fill=colour)
    # In the order the actions were played: an earlier action's label sits nearer its hex.
    for mark in marks:
        if isinstance(mark, (AttackMark, FireMark)):
            tx, ty = centers[mark.target]
            fire = isinstance(mark, FireMark)
            colour = FIRE if fire else ATTACK
            for source in mark.sources:
                sx, sy = centers[source]
                # Stop short of the centre so the arrowhead sits on the defender's counter edge.
                end = (sx + (tx - sx) * 0.8, sy + (ty - sy) * 0.8)
                if fire:
                    dashed(ldraw, (sx, sy), end, fill=colour + (235,), width=width, dash=unit / 7)
                    arrow(ldraw, [(sx + (tx - sx) * 0.7, sy + (ty - sy) * 0.7), end], fill=colour + (235,), width=width, head=head)
                else:
                    start = _shortened([(sx, sy), end], unit * 0.3)[0] if picture.name_labels else (sx, sy)  # from the stack's edge
                    arrow(ldraw, [start, end], fill=colour + (235,), width=width + 1, head=head * 1.1)
            labels.place(ldraw, (tx, ty), unit * 0.55, mark.label, label_font, fill=colour)
        elif isinstance(mark, OrderMark):
            x, y = centers[mark.location]
            colour = LOSS if mark.loss else ORDER
            for source in mark.sources:
                sx, sy = centers[source]
                dashed(ldraw, (sx, sy), (sx + (x - sx) * 0.8, sy + (y - sy) * 0.8), fill=colour + (220,), width=max(2, width - 1), dash=unit / 9)
            if not mark.loss:
                r = unit * 0.5
                ldraw.ellipse([x - r, y - r, x + r, y + r], outline=colour + (255,), width=max(2, width - 1))
            labels.place(ldraw, (x, y), unit * 0.55, mark.label, label_font, fill=colour)
    for x, y in rings:
        r = ring_radius
        ldraw.ellipse([x - r, y - r, x + r, y + r], outline=VIOLATION + (255,), width=ring_width)
    for mark in marks:  # after every ring: a second ring on a hex never crosses the first one's label
        if isinstance(mark, ViolationMark) and mark.location is not None:
            x, y = centers[mark.location]
            r = ring_radius
            labels.place(
                ldraw, (x - r * 0.8, y), -r * 0.95, f"{mark.number}: {mark.rule}", label_font, fill=VIOLATION,
                background=(255, 255, 255, 235), over_rings=True,
            )  # fmt: skip
    labels.redraw(ldraw)
    if picture.name_labels:
        # The names of the spaces the turn touched, over the arrows that leave or enter them.
        touched = [picture.centers[i] for i in _touched(marks)]
        for name in picture.name_labels:
            if any(abs(name.at[0] - x) < unit and abs(name.at[1] - y) < unit for x, y in touched):
                x0, y0, x1, y1 = name.box
                ldraw.rectangle([x0 - 2, y0 - 1, x1 + 2, y1 + 1], fill=(255, 255, 255, 225))
                ldraw.text(name.at, name.text, font=font(name.size, True), fill=ImageColor.getrgb(name.colour)[:3] + (255,), anchor="mm")
                if name.capital:
                    ldraw.polygon(star_points(x0 + (y1 - y0) * 0.3, name.at[1], (y1 - y0) * 0.55), fill=ImageColor.getrgb(name.colour)[:3] + (255,))
    # Last, over the rings and arrows: a hex number stays readable.
    _draw_hex_numbers(ldraw, numbers, unit)
    image = Image.alpha_composite(image, layer).convert("RGB")
    if crop:
        # The part of the map where the turn happened; the units' places only when nothing happened.
        points = []
        for mark in marks:
            if isinstance(mark, MoveMark):
                points += [centers[i] for i in mark.path]
            elif isinstance(mark, (AttackMark, FireMark)):
                points += [centers[i] for i in mark.sources + (mark.target,)]
            elif isinstance(mark, OrderMark):
                points += [centers[i] for i in mark.sources + (mark.location,)]
            elif isinstance(mark, (ViolationMark, ActivationMark)) and mark.location is not None:
                points.append(centers[mark.location])
        if not points:
            points = [centers[i] for i in state.stacks]
        if points:
            # A turn in one place still shows its neighbourhood: at least eight hexes or spaces across.
            cx, cy = (min(p[0] for p in points) + max(p[0] for p in points)) / 2, (min(p[1] for p in points) + max(p[1] for p in points)) / 2
            points += [(cx - unit * 2, cy - unit * 1.5), (cx + unit * 2, cy + unit * 1.5)]
        box = crop_to(image.size, points, unit * 2)
        if box is not None:
            # Labels stay whole: a place name or a mark's label the crop would cut widens the crop instead.
            box = _widen(box, list(picture.names) + labels.boxes, image.size)
            image = image.crop(box)
    violations = [m for m in marks if isinstance(m, ViolationMark)]
    events = [m for m in marks if isinstance(m, EventMark)]
    if legend and (violations or events):
        image = _with_legend(image, violations, max(11, round(unit * 0.3)), events)
    return image


def _status_marks(draw: ImageDraw.ImageDraw, state: State, style: CounterStyle, centers, unit: float) -> list[tuple[float, float, float, float]]:
    """The style's status marks (a trench level, a control marker...) as badges at the lower left of their locations,
    one above the other; their boxes. A value's fields fill the mark's text, each also as ``{field_name}`` (the side's
    name for a side id)."""
    boxes = []
    game_map = state.module.map
    count: dict[int, int] = {}
    text_font = font(max(8, round(unit * 0.25)), True)
    for mark in style.status_marks:
        values = state.status.get(mark.status)
        if not isinstance(values, dict):
            continue
        for label, value in sorted(values.items(), key=lambda item: str(item[0])):
            location = game_map.find(str(label))
            if location is None:
                continue
            fields = dict(value) if isinstance(value, dict) else {"value": value}
            fields.update({f"{k}_name": style.side_name(v) for k, v in list(fields.items()) if isinstance(v, str)})
            if mark.unless_map is not None and fields.get(mark.key or "value") == game_map.extra[location].get(mark.unless_map):
                continue
            text = fill_template(mark.text, fields)
            colour = mark.fill.get(str(fields.get(mark.key))) if mark.key else None
            x, y = centers[location]
            k = count.get(location, 0)
            count[location] = k + 1
            right, top = x - unit * 0.52, y + unit * 0.35 - k * unit * 0.33  # left of the stack, not over it
            x0, y0, x1, y1 = draw.textbbox((right, top), text, font=text_font, anchor="rm")
            box = (x0 - 3, y0 - 2, x1 + 3, y1 + 2)
            draw.rectangle(box, fill=ImageColor.getrgb(colour or mark.default)[:3] + (255,), outline=(0, 0, 0, 255))
            draw.text((right, top), text, font=text_font, fill=(255, 255, 255, 255), anchor="rm")
            boxes.append(box)
    return boxes


HexNumber = tuple[tuple[float, float, float, float], tuple[float, float], str]  # box, text anchor, text


def _hex_numbers_above(draw: ImageDraw.ImageDraw, state: State, centers, unit: float, counter_px: int) -> list[HexNumber]:
    """Where each occupied hex's number goes again, just above its stack: the counters cover the printed
    one, and a player needs the number to write the next move. A named hex's name follows its number
    ("0703 Tobruk"): the counters cover the printed name too."""
    game_map = state.module.map
    labels = game_map.labels
    label_font = font(max(6, round(unit * 0.17)))
    step = max(2, counter_px // 8)
    numbers = []
    for location in sorted(state.stacks):
        x, y = centers[location]
        top = round(y - counter_px / 2 - (len(state.units_at(location)) - 1) * step)
        name = game_map.names[location] or game_map.city[location]
        text = f"{labels[location]} {name}" if name else labels[location]
        x0, y0, x1, y1 = draw.textbbox((x, top - 2), text, font=label_font, anchor="md")
        numbers.append(((x0 - 2, y0 - 1, x1 + 2, y1 + 1), (x, top - 2), text))
    return numbers


def _draw_hex_numbers(draw: ImageDraw.ImageDraw, numbers: Sequence[HexNumber], unit: float) -> None:
    from pbem.art.maps import LABEL

    label_font = font(max(6, round(unit * 0.17)))
    for box, at, text in numbers:
        draw.rectangle(box, fill=(255, 255, 255, 215))
        draw.text(at, text, font=label_font, fill=ImageColor.getrgb(LABEL) + (255,), anchor="md")


class Labels:
    """Labels in boxes inside the picture, off the counters and off one another: a label whose place is taken
    goes to the other side of its point, beside it, or further out on either side (16 places are tried; the last one is
    kept even if taken), tied to its point by a line when it lands away from it."""

    def __init__(
        self,
        size: tuple[int, int],
        obstacles: Sequence[tuple[float, float, float, float]] = (),
        rings: Sequence[tuple[float, float, float, float]] = (),
    ) -> None:
        self.size = size
        self.obstacles = list(obstacles)
        self.rings = list(rings)  # the boxes of the violation rings
        self.boxes: list[tuple[float, float, float, float]] = []
        self._drawn: list[tuple] = []  # what each label drew: box, text, font, colour, background

    def place(
        self, draw: ImageDraw.ImageDraw, at, offset: float, text: str, text_font, *, fill, background=(255, 255, 255, 220), over_rings: bool = False
    ) -> None:
        """Label ``text`` ``offset`` pixels below point ``at`` (above it for a negative offset), else the
        other side of it, beside it, or further out on either side until a free place is found. Only a
        ring's own label (``over_rings``) may lie on a violation ring."""
        obstacles = self.obstacles if over_rings else self.obstacles + self.rings
        pad = 3
        x, y = at
        box = self._box(draw, (x, y + offset), text, text_font, pad)
        height = box[3] - box[1] + 2
        half_width = (box[2] - box[0]) / 2
        beside = abs(offset) * 0.9 + half_width
        for k in range(16):
            if k == 0:
                candidate = (x, y + offset)
            elif k == 1:
                candidate = (x, y - offset)
            elif k in (2, 3):
                candidate = (x + (beside if k == 2 else -beside), y + offset / 3)
            else:  # further out, on either side in turn
                along = 1 if (k % 2 == 0) == (offset >= 0) else -1
                candidate = (x, y + along * (abs(offset) + (k - 2) // 2 * height))
            box = self._box(draw, candidate, text, text_font, pad)
            if not any(_overlap(box, other) for other in self.boxes + obstacles):
                break
        self.boxes.append(box)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if abs(cy - y - offset) > 1 or abs(cx - x) > 1:
            # Moved away from its place: a thin leader ties the label to its hex.
            near = (min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3]))
            length = math.dist((x, y), near)
            if length > abs(offset):
                # From the edge of the counters, not across them.
                start = abs(offset) * 0.75 / length
                draw.line([(x + (near[0] - x) * start, y + (near[1] - y) * start), near], fill=tuple(fill) + (255,), width=2)
        self._drawn.append((box, text, text_font, tuple(fill), background))
        self._label(draw, self._drawn[-1])

    def redraw(self, draw: ImageDraw.ImageDraw) -> None:
        """Every label again, over the leader lines of the labels placed after it."""
        for drawn in self._drawn:
            self._label(draw, drawn)

    @staticmethod
    def _label(draw: ImageDraw.ImageDraw, drawn) -> None:
        box, text, text_font, fill, background = drawn
        draw.rectangle(box, fill=background, outline=fill + (255,))
        draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, font=text_font, fill=fill + (255,), anchor="mm")

    def _box(self, draw: ImageDraw.ImageDraw, at, text: str, text_font, pad: int) -> tuple[float, float, float, float]:
        """The padded box of ``text`` centred on ``at``, moved inside the picture."""
        x0, y0, x1, y1 = draw.textbbox(at, text, font=text_font, anchor="mm")
        dx = max(0.0, pad + 1 - x0) - max(0.0, x1 + pad + 1 - self.size[0])
        dy = max(0.0, pad + 1 - y0) - max(0.0, y1 + pad + 1 - self.size[1])
        return (x0 - pad + dx, y0 - pad + dy, x1 + pad + dx, y1 + pad + dy)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _widen(box: tuple[int, int, int, int], labels, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """``box`` grown to hold every label it cuts, within the picture."""
    x0, y0, x1, y1 = box
    for lx0, ly0, lx1, ly1 in labels:
        if _overlap((x0, y0, x1, y1), (lx0, ly0, lx1, ly1)):
            x0, y0, x1, y1 = min(x0, int(lx0) - 2), min(y0, int(ly0) - 2), max(x1, int(lx1) + 3), max(y1, int(ly1) + 3)
    return (max(0, x0), max(0, y0), min(size[0], x1), min(size[1], y1))


def _with_legend(image: Image.Image, violations: Sequence[ViolationMark], size: int, events: Sequence[EventMark] = ()) -> Image.Image:
    """The picture with the random events (in ink) and the violations (in red) listed under it: each violation's
    number, rule, severity and message, each line wrapped to the picture's width."""
    text_font = font(size)
    line_height = round(size * 1.45)
    room = image.width - size  # half a line height of margin on either side
    lines: list[tuple[str, tuple[int, int, int]]] = []
    for e in events[:30]:
        lines += [(line, EVENT) for line in wrap(e.text, text_font, room, indent="    ")]
    if len(events) > 30:
        lines.append((f"… and {len(events) - 30} more rolls", EVENT))
    for v in violations[:60]:
        text = f"{v.number}: {v.rule} {v.severity}: {v.message}" + ("" if v.location is not None else " (no place)")
        lines += [(line, VIOLATION) for line in wrap(text, text_font, room, indent="    ")]
    if len(violations) > 60:
        lines.append((f"… and {len(violations) - 60} more", VIOLATION))
    height = line_height * len(lines) + size
    out = Image.new("RGB", (image.width, image.height + height), "white")
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    for k, (line, colour) in enumerate(lines):
        draw.text((size // 2, image.height + size // 2 + k * line_height), line, font=text_font, fill=colour)
    return out


def wrap(text: str, text_font, width: float, indent: str = "") -> list[str]:
    """``text`` in lines no wider than ``width`` pixels, broken between words (inside a word too long
    for a line); lines after the first start with ``indent``."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line.strip() else line + word
        if text_font.getlength(candidate) <= width:
            line = candidate
            continue
        if line.strip():
            lines.append(line)
            line = indent + word
        else:
            line = candidate
        while text_font.getlength(line) > width and len(line) > len(indent) + 1:
            cut = len(line) - 1
            while cut > len(indent) + 1 and text_font.getlength(line[:cut]) > width:
                cut -= 1
            lines.append(line[:cut])
            line = indent + line[cut:]
    if line.strip():
        lines.append(line)
    return lines


def crop_to(image_size: tuple[int, int], points: Sequence[tuple[float, float]], margin: float) -> tuple[int, int, int, int] | None:
    """A crop box around ``points`` with ``margin`` pixels, inside the picture; ``None`` without points."""
    if not points:
        return None
    x0 = max(0, int(min(p[0] for p in points) - margin))
    y0 = max(0, int(min(p[1] for p in points) - margin))
    x1 = min(image_size[0], int(max(p[0] for p in points) + margin))
    y1 = min(image_size[1], int(max(p[1] for p in points) + margin))
    return (x0, y0, x1, y1)
