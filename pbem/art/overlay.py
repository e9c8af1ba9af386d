"""Turn overlays: the map with the units as counters, each move as an arrow along its path, each attack
as an arrow into the defender with its odds and result, and each violation ringed in red with its rule.

``overlay(picture, state, marks, style)`` is a pure function; :func:`turn_marks` derives the marks from
a turn, its start state and its replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageDraw

from pbem.art.counters import render_counter
from pbem.art.fonts import font
from pbem.art.maps import MapPicture, arrow
from pbem.art.style import CounterStyle
from pbem.model import actions as act
from pbem.model.state import State
from pbem.model.violation import Violation

MOVE = (20, 60, 200)
ATTACK = (200, 30, 30)
VIOLATION = (230, 0, 0)
SIDE_COLOURS = ((20, 60, 200), (0, 120, 60), (130, 40, 150), (160, 100, 0))


@dataclass(frozen=True)
class MoveMark:
    """Units moving along ``path`` (locations, start first)."""

    path: tuple[int, ...]
    label: str = ""
    side: int = 0  # index of the moving side, for its arrow colour


@dataclass(frozen=True)
class AttackMark:
    """An attack from ``sources`` into ``target``, labelled with odds and result."""

    sources: tuple[int, ...]
    target: int
    label: str


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


Mark = MoveMark | AttackMark | ViolationMark | ActivationMark
ACTIVATION = {"move": (20, 110, 40), "attack": (200, 30, 30)}


def turn_marks(turn: act.Turn, start: State, violations: Sequence[Violation], sides: Sequence[str] = ()) -> list[Mark]:
    """Marks for every move, attack and violation of ``turn``, replayed on ``start`` (changed in place:
    pass a state of its own) so that each attack arrow starts where its attackers stood at the time."""
    marks: list[Mark] = []
    where: dict[int, int | None] = {}
    for action in turn.actions:
        if isinstance(action, act.Move) and len(action.path) >= 1:
            side = start.units[action.units[0]].side if action.units and action.units[0] in start.units else ""
            marks.append(MoveMark(tuple(action.path), ", ".join(action.units), sides.index(side) if side in sides else 0))
            where[action.index] = action.path[-1]
        elif isinstance(action, act.Combat):
            sources = tuple(sorted({start.units[u].at for u in action.attackers if u in start.units and start.units[u].on_map}))
            odds = action.column or action.odds or "?"
            label = f"{odds}  roll {action.roll}: {action.result}" if action.defender_roll is None else f"rolls {action.roll}/{action.defender_roll}: {action.result}"
            marks.append(AttackMark(sources, action.target, label))
            where[action.index] = action.target
        elif isinstance(action, act.Reinforce):
            where[action.index] = action.at
        elif isinstance(action, act.Activate):
            marks.extend(ActivationMark(location, purpose) for location, purpose in action.spaces.items())
            where[action.index] = next(iter(action.spaces), None)
        start.apply(action)
    for number, violation in enumerate(violations, 1):
        location = where.get(violation.index) if violation.index is not None else None
        marks.append(ViolationMark(location, violation.rule, number, violation.message, violation.severity))
    return marks


def overlay(
    picture: MapPicture, state: State, marks: Sequence[Mark], style: CounterStyle, *, legend: bool = True, crop: bool = False
) -> Image.Image:
    """The map with ``state``'s units as counters and ``marks`` drawn over them; ``crop`` keeps only the
    part with units and marks (plus two hexes), ``legend`` lists the violations under the picture."""
    image = picture.image.copy().convert("RGBA")
    centers = picture.centers
    unit = picture.radius * 2
    counter_px = max(16, round(unit * 0.72))
    draw = ImageDraw.Draw(image)
    # Units: stacks fanned up and to the right like counters on a table.
    for location in sorted(state.stacks):
        stack = state.units_at(location)
        x, y = centers[location]
        step = max(2, counter_px // 8)
        for k, unit_state in enumerate(stack):
            face = 0 if unit_state.step == 0 else 1
            counter = render_counter(unit_state.unit.type, face, style, counter_px)
            left = round(x - counter_px / 2 + k * step)
            top = round(y - counter_px / 2 - k * step)
            draw.rectangle([left + 2, top + 2, left + counter_px + 1, top + counter_px + 1], fill=(0, 0, 0, 90))
            image.paste(counter, (left, top))
            draw.rectangle([left, top, left + counter_px - 1, top + counter_px - 1], outline=(0, 0, 0, 255))
        if len(stack) > 1:
            # A stack shows its top counter; the badge says how many lie under it.
            bx, by = round(x + counter_px / 2 + (len(stack) - 1) * step), round(y - counter_px / 2 - (len(stack) - 1) * step)
            r = max(6, counter_px // 6)
            draw.ellipse([bx - r, by - r, bx + r, by + r], fill=(255, 255, 255, 255), outline=(0, 0, 0, 255), width=1)
            draw.text((bx, by), str(len(stack)), font=font(round(r * 1.5)), fill=(0, 0, 0, 255), anchor="mm")
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
            ldraw.rectangle([x - r, y - r, x + r, y + r], outline=colour + (230,), width=max(2, width - 1))
            badge = max(6.0, unit * 0.16)
            ldraw.rectangle([x + r - 2 * badge, y + r - 2 * badge, x + r, y + r], fill=colour + (240,))
            ldraw.text((x + r - badge, y + r - badge), mark.purpose[:1].upper(), font=font(round(badge * 1.6)), fill=(255, 255, 255, 255), anchor="mm")
    for mark in marks:
        if isinstance(mark, MoveMark) and len(mark.path) >= 2:
            colour = SIDE_COLOURS[mark.side % len(SIDE_COLOURS)]
            points = [centers[i] for i in mark.path]
            sx, sy = points[0]
            ldraw.ellipse([sx - width * 1.2, sy - width * 1.2, sx + width * 1.2, sy + width * 1.2], fill=colour + (220,))
            arrow(ldraw, points, fill=colour + (220,), width=width, head=head)
    for mark in marks:
        if isinstance(mark, AttackMark):
            tx, ty = centers[mark.target]
            for source in mark.sources:
                sx, sy = centers[source]
                # Stop short of the centre so the arrowhead sits on the defender's counter edge.
                end = (sx + (tx - sx) * 0.8, sy + (ty - sy) * 0.8)
                arrow(ldraw, [(sx, sy), end], fill=ATTACK + (235,), width=width + 1, head=head * 1.1)
            _label(ldraw, (tx, ty + unit * 0.55), mark.label, label_font, fill=ATTACK)
    for mark in marks:
        if isinstance(mark, ViolationMark) and mark.location is not None:
            x, y = centers[mark.location]
            r = unit * 0.6
            ldraw.ellipse([x - r, y - r, x + r, y + r], outline=VIOLATION + (255,), width=max(3, width))
            _label(ldraw, (x - r * 0.8, y - r * 0.95), f"{mark.number}: {mark.rule}", label_font, fill=VIOLATION, background=(255, 255, 255, 235))
    image = Image.alpha_composite(image, layer).convert("RGB")
    if crop:
        points = [centers[i] for i in state.stacks]
        for mark in marks:
            if isinstance(mark, MoveMark):
                points += [centers[i] for i in mark.path]
            elif isinstance(mark, AttackMark):
                points += [centers[i] for i in mark.sources + (mark.target,)]
            elif mark.location is not None:
                points.append(centers[mark.location])
        box = crop_to(image.size, points, unit * 2)
        if box is not None:
            image = image.crop(box)
    violations = [m for m in marks if isinstance(m, ViolationMark)]
    if legend and violations:
        image = _with_legend(image, violations, max(11, round(unit * 0.3)))
    return image


def _label(draw: ImageDraw.ImageDraw, at, text: str, text_font, *, fill, background=(255, 255, 255, 220)) -> None:
    box = draw.textbbox(at, text, font=text_font, anchor="mm")
    pad = 3
    draw.rectangle([box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad], fill=background, outline=tuple(fill) + (255,))
    draw.text(at, text, font=text_font, fill=tuple(fill) + (255,), anchor="mm")


def _with_legend(image: Image.Image, violations: Sequence[ViolationMark], size: int) -> Image.Image:
    """The picture with the violations listed under it: number, rule, severity and message."""
    text_font = font(size)
    line_height = round(size * 1.45)
    lines = [f"{v.number}: {v.rule} {v.severity}: {v.message}" + ("" if v.location is not None else " (no place)") for v in violations[:60]]
    if len(violations) > 60:
        lines.append(f"… and {len(violations) - 60} more")
    height = line_height * len(lines) + size
    out = Image.new("RGB", (image.width, image.height + height), "white")
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    for k, line in enumerate(lines):
        draw.text((size // 2, image.height + size // 2 + k * line_height), line, font=text_font, fill=VIOLATION)
    return out


def crop_to(image_size: tuple[int, int], points: Sequence[tuple[float, float]], margin: float) -> tuple[int, int, int, int] | None:
    """A crop box around ``points`` with ``margin`` pixels, inside the picture; ``None`` without points."""
    if not points:
        return None
    x0 = max(0, int(min(p[0] for p in points) - margin))
    y0 = max(0, int(min(p[1] for p in points) - margin))
    x1 = min(image_size[0], int(max(p[0] for p in points) + margin))
    y1 = min(image_size[1], int(max(p[1] for p in points) + margin))
    return (x0, y0, x1, y1)
