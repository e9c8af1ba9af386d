"""``pbem art``: counter images, counter sheets, map pictures and turn overlays."""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path
from typing import Callable, Iterator

import click

from pbem.cli import EXIT_OK, EXIT_VIOLATIONS, WrappingGroup
from pbem.model.errors import PbemError
from pbem.model.printable import unescaped

OutPath = click.Path(dir_okay=False, path_type=Path)
InPath = click.Path(dir_okay=False, path_type=Path)
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".pdf")


@click.group(cls=WrappingGroup)
def art() -> None:
    """Pictures: counters, counter sheets, maps and turn overlays (same input, same bytes)."""


@contextlib.contextmanager
def _progress(total: int, what: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on a terminal; silent otherwise (scripts, pipes, CI)."""
    from rich.console import Console

    console = Console(file=unescaped(sys.stderr))  # the bar's own escapes pass; its text is ours
    if not console.is_terminal or total < 20:
        yield lambda _n: None
        return
    from rich.progress import Progress

    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(what, total=total)
        yield lambda _n: progress.advance(task)


def _suffix(path: Path, allowed: tuple[str, ...] = PICTURE_SUFFIXES) -> str:
    suffix = path.suffix.lower()
    if suffix not in allowed:
        raise PbemError.at(path, f"output must end in {', '.join(allowed)}")
    return suffix


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:100] or "counter"


@art.command()
@click.argument("module_name", metavar="MODULE")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path), help="Folder for the images (made if missing).")
@click.option("--size", default=75, show_default=True, help="Counter side in pixels.")
@click.option("--dpi", default=150, show_default=True, help="Resolution recorded in the PNGs.")
@click.option("--svg", "as_svg", is_flag=True, help="Write SVG instead of PNG.")
def counters(module_name: str, out_dir: Path, size: int, dpi: int, as_svg: bool) -> int:
    """Every face of every counter type of MODULE: TYPE-front.png, TYPE-back.png.

    A counter with more steps, whose style draws a bar per face, also gets TYPE-face3.png and on.
    """
    from pbem.art.counters import counter_svg, render_counter
    from pbem.art.images import encode
    from pbem.art.style import load_style
    from pbem.model.files import write_atomic
    from pbem.model.module import load_module

    module = load_module(module_name)
    style = load_style(module.path)
    outputs: list[tuple[Path, bytes]] = []
    types = list(module.counter_types.values())
    with _progress(len(types), "counters") as advance:
        for counter_type in types:
            names = ("front", "back") + tuple(f"face{n + 1}" for n in range(2, style.faces(counter_type)))
            for face, name in enumerate(names):
                target = out_dir / f"{_safe_name(counter_type.id)}-{name}.{'svg' if as_svg else 'png'}"
                if as_svg:
                    data = counter_svg(counter_type, face, style, size).encode("utf-8")
                else:
                    data = encode(render_counter(counter_type, face, style, size, dpi), target, dpi)
                outputs.append((target, data))
            advance(1)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PbemError.at(out_dir, f"cannot make the folder: {error.strerror or error}") from None
    for target, data in outputs:
        write_atomic(target, data)
    click.echo(f"{len(outputs)} images of {len(types)} counter types written to {out_dir}")
    return EXIT_OK


@art.command()
@click.argument("module_name", metavar="MODULE")
@click.option("--out", required=True, type=OutPath, help="FILE.pdf (fronts and backs, one page each) or FILE.png.")
@click.option("--page", type=click.Choice(["letter", "a4"]), default="letter", show_default=True)
@click.option("--dpi", default=300, show_default=True)
@click.option("--counter-mm", default=12.7, show_default=True, help="Counter side in millimetres.")
def sheet(module_name: str, out: Path, page: str, dpi: int, counter_mm: float) -> int:
    """Counter sheets of MODULE's order of battle: fronts, and backs mirrored for duplex, with cut lines.

    A PDF is drawn in vector shapes and text (sharp at any printer resolution); a PNG is a picture of the pages.
    """
    from pbem.art.counters import render_counter
    from pbem.art.images import encode
    from pbem.art.sheets import SheetSpec, pages_png, sheet_pages
    from pbem.art.style import load_style
    from pbem.model.files import write_atomic
    from pbem.model.module import load_module

    suffix = _suffix(out, (".pdf", ".png"))
    module = load_module(module_name)
    style = load_style(module.path)
    units = list(module.units.values())
    spec = SheetSpec(page=page, dpi=dpi, counter_mm=counter_mm)
    # Counters printed at different sizes (5/8" armies, 1/2" corps): --counter-mm is the smallest's, the others scale.
    scales = [style.scale_of(u.type) for u in units]
    base = min(scales)
    scales = [round(s / base, 4) for s in scales]
    with _progress(len(units), "counter sheet") as advance:
        if suffix == ".pdf":  # vector: shapes and text, sharp at any printer's resolution
            from pbem.art.pdf import sheet_pdf
            from pbem.art.sheets import sheet_layout

            page_count = len(sheet_layout(len(units), spec, module.name, scales))
            data = sheet_pdf(len(units), lambda n: (units[n].type, style.designation_of(units[n].id)), style, spec, module.name, advance, scales)
        else:
            pages = sheet_pages(
                len(units), lambda n, face, px: render_counter(units[n].type, face, style, px, dpi, style.designation_of(units[n].id)),
                spec, module.name, advance, scales,
            )  # fmt: skip
            page_count = len(pages)
            data = encode(pages_png(pages), out, dpi)
    write_atomic(out, data)
    click.echo(f"{len(units)} counters on {page_count} pages written to {out}")
    return EXIT_OK


BACKGROUND_HELP = (
    "Draw over your own copy of the map image (e.g. a scan), placed by the module's calibration.json; "
    "the image is read, never copied. It keeps its size unless --hex-size is given."
)
HEX_SIZE_HELP = "Hex radius in pixels [default: {}; with --background: the image's own]."


def _map_picture(module, style, hex_size: float | None, default_size: float, background: Path | None, status: dict | None = None, numbers: bool = False):
    """The module's map drawn by pbem (with the features the game's ``status`` chooses), or the user's map image
    with the module's grid fitted to it (and its hex numbers printed over it with ``numbers``)."""
    from pbem.art.maps import map_picture

    if hex_size is not None:
        _check_hex_size(hex_size)
    if background is None:
        return map_picture(module.map, style, hex_size=hex_size or default_size, status=status)
    from pbem.art.background import load_background

    image, layout = load_background(background, module.path, module.map, module.id, hex_size)
    return map_picture(module.map, style, layout=layout, background=image, numbers=numbers)


@art.command("map")
@click.argument("module_name", metavar="MODULE")
@click.option("--state", "state_path", type=InPath, help="Draw the units of this state (or scenario) file.")
@click.option("--out", required=True, type=OutPath)
@click.option("--hex-size", type=float, help=HEX_SIZE_HELP.format(28))
@click.option("--background", type=InPath, help=BACKGROUND_HELP)
@click.option("--numbers", is_flag=True, help="Print the module's hex numbers over --background (for a printed map that has none).")
def map_command(module_name: str, state_path: Path | None, out: Path, hex_size: float | None, background: Path | None, numbers: bool) -> int:
    """A picture of MODULE's map: terrain, labels, rivers, roads, rails, borders, cities (and units)."""
    from pbem.art.images import save
    from pbem.art.overlay import overlay
    from pbem.art.style import load_style
    from pbem.model.module import load_module
    from pbem.model.state import State, load_state_document

    _suffix(out)
    module = load_module(module_name)
    style = load_style(module.path)
    state = State.from_json(module, load_state_document(state_path)) if state_path is not None else None
    picture = _map_picture(module, style, hex_size, 28.0, background, state.status if state is not None else None, numbers)
    image = picture.image
    if state is not None:
        image = overlay(picture, state, [], style)
    save(image, out)
    click.echo(f"map {module.map.id} ({len(module.map)} locations) written to {out}")
    return EXIT_OK


def _check_hex_size(hex_size: float) -> None:
    if not 4 <= hex_size <= 400:
        raise PbemError(f"--hex-size must be 4 to 400 pixels, not {hex_size}")


@art.command()
@click.argument("turn_path", metavar="TURN", type=InPath)
@click.option("--out", required=True, type=OutPath)
@click.option("--state", "state_path", type=InPath, help="Start from this state (or scenario) file instead of the turn's header.")
@click.option("--module", "module_name", help="Module id or folder (default: the turn's header).")
@click.option("--hex-size", type=float, help=HEX_SIZE_HELP.format(36))
@click.option("--whole-map", is_flag=True, help="Show the whole map, not only the part where things happen.")
@click.option("--background", type=InPath, help=BACKGROUND_HELP)
def turn(
    turn_path: Path, out: Path, state_path: Path | None, module_name: str | None, hex_size: float | None, whole_map: bool, background: Path | None
) -> int:
    """TURN replayed on its map: units, moves, attacks (odds, result), fire, special orders, losses and
    violations in red; the rolls the map cannot show (a political roll) and what each roll did, listed under it.

    Exit code 0: all legal; 1: violations found (the picture shows them); 2: the input could not be read.
    """
    from pbem.art.images import save
    from pbem.art.overlay import overlay, turn_marks
    from pbem.art.style import load_style
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state, load_turn
    from pbem.model.module import load_module

    _suffix(out)
    if hex_size is not None:
        _check_hex_size(hex_size)
    module = load_module(module_name) if module_name else None
    parsed, module = load_turn(turn_path, module)
    result = replay(module, load_start_state(parsed, module, state_path), parsed)
    style = load_style(module.path)
    marks = turn_marks(parsed, load_start_state(parsed, module, state_path), result.violations, module.sides, style, result.events)
    picture = _map_picture(module, style, hex_size, 36.0, background, result.state.status)
    image = overlay(picture, result.state, marks, style, crop=not whole_map)
    save(image, out)
    click.echo(f"{turn_path}: {len(parsed.actions)} actions, {len(result.violations)} violation(s); picture written to {out}")
    return EXIT_OK if result.ok else EXIT_VIOLATIONS


@art.command()
@click.argument("calibration_path", metavar="CALIBRATION", type=InPath)
@click.option("--image", "image_path", required=True, type=InPath, help="The map image the calibration was measured on.")
@click.option("--out", required=True, type=OutPath)
def grid(calibration_path: Path, image_path: Path, out: Path) -> int:
    """The calibrated hex grid of CALIBRATION drawn over the map image, to check it by eye."""
    from pbem.art.images import open_image, save
    from pbem.art.layout import load_calibration
    from pbem.art.maps import grid_picture

    _suffix(out)
    calibration = load_calibration(calibration_path)
    background = open_image(image_path)
    if calibration.image_size and background.size != calibration.image_size:
        raise PbemError.at(image_path, f"image is {background.size[0]} x {background.size[1]}; the calibration was measured on {calibration.image_size[0]} x {calibration.image_size[1]}")
    save(grid_picture(calibration.layout, background), out)
    click.echo(f"grid {calibration.layout.spec.columns} x {calibration.layout.spec.rows} over {image_path} written to {out}")
    return EXIT_OK


@art.command()
@click.argument("spaces", type=InPath)
@click.argument("connections", type=InPath)
@click.option("--out", required=True, type=OutPath)
@click.option("--scale", default=1.0, show_default=True, help="Pixels per position unit.")
def points(spaces: Path, connections: Path, out: Path, scale: float) -> int:
    """A point-to-point map from CSV tables: SPACES (id,name,x,y[,w,terrain,nation]) and CONNECTIONS
    (a,b[,nations]); restricted connections are dashed in their nationality's colour."""
    from pbem.art.images import save
    from pbem.art.maps import render_map
    from pbem.art.pointcsv import point_map_from_csv

    _suffix(out)
    if not 0.05 <= scale <= 10:
        raise PbemError(f"--scale must be 0.05 to 10, not {scale}")
    game_map = point_map_from_csv(spaces, connections)
    save(render_map(game_map, scale=scale), out)
    count = sum(len(n) for n in game_map.neighbours) // 2
    click.echo(f"{len(game_map)} spaces, {count} connections ({len(game_map.restricted)} restricted) written to {out}")
    return EXIT_OK
