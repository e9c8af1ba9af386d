"""``pbem module``: list the bundled modules, show one, validate a module folder."""

from __future__ import annotations

import json

import click

from pbem.cli import EXIT_OK, WrappingGroup
from pbem.model.module import bundled_modules, load_module


@click.group(cls=WrappingGroup)
def module() -> None:
    """Game modules: bundled ones, or a folder of your own."""


@module.command("list")
def list_modules() -> int:
    """List the bundled modules."""
    for path in bundled_modules():
        data = json.loads((path / "module.json").read_text(encoding="utf-8"))
        click.echo(f"{data['id']:<20} {data['version']:<8} {data.get('title', data['name'])}")
    return EXIT_OK


@module.command()
@click.argument("name")
@click.option("--units", "list_units", is_flag=True, help="List every unit: id, printed name, aliases, type, values.")
@click.option("--locations", "list_locations", is_flag=True, help="List every hex or space: label, name, terrain.")
@click.option("--near", metavar="LOCATION", help="With --locations: only those within --radius of LOCATION (a label or a name), nearest first.")
@click.option("--radius", type=click.IntRange(0, 50), default=2, show_default=True, help="How far --near looks (hexes or connections).")
@click.option("--cards", "list_cards", is_flag=True,
              help="List every card: number, name, side, OPS/SR/RP, commitment, combat card, removed after its event.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def show(name: str, list_units: bool, list_locations: bool, list_cards: bool, output: str, near: str | None, radius: int) -> int:
    """Show what module NAME (an id or a folder) contains; --units, --locations and --cards list the ids a turn uses."""
    loaded = load_module(name)
    game_map = loaded.map
    info = {
        "id": loaded.id,
        "name": loaded.name,
        "version": loaded.version,
        "path": str(loaded.path),
        "sides": list(loaded.sides),
        "map": {"kind": game_map.kind, "locations": len(game_map), "illustrative": game_map.illustrative},
        "counter_types": len(loaded.counter_types),
        "units": len(loaded.units),
        "tables": sorted(loaded.tables),
        "scenarios": sorted(loaded.scenarios),
        "cards": len(loaded.cards),
        "options": loaded.options,
        "option_choices": loaded.option_choices,
        "notes": loaded.metadata.get("notes", []),
    }
    units = [_unit_entry(unit) for unit in loaded.units.values()] if list_units else []
    list_locations = list_locations or near is not None
    locations = [_location_entry(game_map, i) for i in range(len(game_map))] if list_locations else []
    if near is not None:
        centre = _find_location(game_map, near)
        distances = {i: game_map.distance(centre, i) for i in range(len(game_map))}
        locations = [{**locations[i], "distance": d} for i, d in sorted(distances.items(), key=lambda item: (item[1], item[0])) if d <= radius]
    if list_units:
        info["unit_list"] = units
    if list_locations:
        info["location_list"] = locations
    cards = [_card_entry(card_id, card) for card_id, card in loaded.cards.items()] if list_cards else []
    if list_cards:
        info["card_list"] = cards
    if output == "json":
        click.echo(json.dumps(info, indent=2, ensure_ascii=False))
        return EXIT_OK
    click.echo(f"{loaded.name} ({loaded.id} {loaded.version}) — {loaded.path}")
    click.echo(f"  sides: {', '.join(loaded.sides)}")
    click.echo(f"  map: {game_map.kind}, {len(game_map)} locations{' (ILLUSTRATIVE)' if game_map.illustrative else ''}")
    click.echo(f"  counters: {len(loaded.counter_types)} types, {len(loaded.units)} units")
    click.echo(f"  tables: {', '.join(sorted(loaded.tables)) or 'none'}")
    click.echo(f"  scenarios: {', '.join(sorted(loaded.scenarios)) or 'none'}")
    if loaded.cards:
        click.echo(f"  cards: {len(loaded.cards)}")
    for name, allowed in loaded.option_choices.items():
        values = ", ".join(json.dumps(v) for v in allowed)
        click.echo(f"  option {name}: {values} (default {json.dumps(loaded.options.get(name))}; a game chooses in its files)")
    for note in info["notes"]:
        click.echo(f"  note: {note}")
    if list_units:
        click.echo("units:")
        for unit in units:
            also = ", ".join(dict.fromkeys(n for n in (unit.get("name"), *unit["aliases"]) if n and n != unit["id"]))
            click.echo(f"  {unit['id']}{f' ({also})' if also else ''}: {unit['side']} {unit['type']}, {unit['values']}")
    if list_locations:
        click.echo("locations:")
        for location in locations:
            named = f" {location['name']}" if "name" in location else ""
            away = f" ({location['distance']} away)" if location.get("distance") else ""
            click.echo(f"  {location['label']}{named}: {location['terrain']}{away}")
    if list_cards:
        click.echo("cards:" if cards else "cards: none (the module has no cards)")
        for card in cards:
            click.echo("  " + _card_line(card))
    return EXIT_OK


def _card_entry(card_id: str, card: dict) -> dict:
    """A card's printed facts, as ``--cards`` lists them."""
    entry = {"id": card_id, "number": card["number"], "name": card["name"], "side": card["side"], "ops": card["ops"]}
    for key in ("sr", "rp", "commitment", "combat_card", "removed_after_event", "optional"):
        if key in card:
            entry[key] = card[key]
    return entry


def _card_line(card: dict) -> str:
    """``CP-01 Guns of August: cp, OPS 3, SR 4, RP AH 1 GE 2 TU 1, mobilization, removed after event``."""
    facts = [card["side"], f"OPS {card['ops']}"]
    if "sr" in card:
        facts.append(f"SR {card['sr']}")
    if card.get("rp"):
        facts.append("RP " + " ".join(f"{pool} {points}" for pool, points in card["rp"].items()))
    if "commitment" in card:
        facts.append(card["commitment"].replace("_", " "))
    if card.get("combat_card"):
        facts.append("combat card")
    if card.get("removed_after_event"):
        facts.append("removed after event")
    if card.get("optional"):
        facts.append("optional")
    return f"{card['id']} {card['name']}: {', '.join(facts)}"


def _unit_entry(unit) -> dict:
    faces = " / ".join(s.printed() for s in unit.type.steps)
    entry = {"id": unit.id, "side": unit.side, "type": unit.type.name, "values": faces, "aliases": list(unit.aliases)}
    if unit.name:
        entry["name"] = unit.name
    return entry


def _find_location(game_map, written: str) -> int:
    """A location by its label or its name (any case, accents optional); a usage error naming the input if none."""
    from pbem.model.names import fold

    found = game_map.find(written)
    if found is None:
        named = [i for i in range(len(game_map)) if fold(game_map.names[i] or "") == fold(written)]
        found = named[0] if len(named) == 1 else None
    if found is None:
        raise click.BadParameter(f"no location {written!r} on the map", param_hint="--near")
    return found


def _location_entry(game_map, index: int) -> dict:
    entry = {"label": game_map.label(index), "terrain": game_map.terrain[index]}
    if game_map.names[index]:
        entry["name"] = game_map.names[index]
    return entry


@module.command()
@click.argument("name")
def validate(name: str) -> int:
    """Check module NAME (an id or a folder): schemas, cross-references, scenarios and rules code."""
    from pbem.engine.rulesets import module_ruleset
    from pbem.model import schemas
    from pbem.model.jsonsource import load_json
    from pbem.model.state import State

    loaded = load_module(name, reuse=False)  # checked from its files, whatever pbem's cache holds
    module_ruleset(loaded)  # builds the rules: a broken rules.py or table fails here
    for path in sorted(loaded.scenarios.values()):
        document = load_json(path)
        schemas.check(document, "scenario")
        State.from_json(loaded, document)
    from pbem.formats.vassal.mapping import load_mapping, mapping_path

    vassal = mapping_path(loaded).is_file()
    if vassal:
        load_mapping(loaded)
    click.echo(f"{loaded.id} {loaded.version}: valid ({len(loaded.map)} locations, {len(loaded.units)} units, {len(loaded.scenarios)} scenarios{', a VASSAL mapping' if vassal else ''})")
    return EXIT_OK


def _board_sizes(values: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    from pbem.model.errors import PbemError

    sizes = {}
    for value in values:
        name, _, size = value.rpartition("=")
        width, _, height = size.partition("x")
        if not name or not width.isdigit() or not height.isdigit() or not (0 < int(width) <= 10**6 and 0 < int(height) <= 10**6):
            raise PbemError(f"--board-size {value!r}: give BOARD=WIDTHxHEIGHT in pixels, e.g. 'Main Map=2048x2593'")
        sizes[name] = (int(width), int(height))
    return sizes


@module.command("import")
@click.argument("source", type=click.Path(path_type=str))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=str),
              help="The new module folder (must not exist yet).")
@click.option("--board-size", "board_sizes", multiple=True, metavar="BOARD=WxH",
              help="A board's size in pixels when its image is not in SOURCE (repeatable).")
@click.option("--id", "module_id", help="The new module's id (default: from the VASSAL module's name; never a module pbem already knows).")
def import_module(source: str, out: str, board_sizes: tuple[str, ...], module_id: str | None) -> int:
    """Write a pbem module folder from the VASSAL module SOURCE (.vmod, buildFile or unpacked folder)."""
    import tempfile
    from pathlib import Path

    from pbem.formats.vassal.importer import import_module as build
    from pbem.formats.vassal.importer import scenarios_from_setups, slug
    from pbem.formats.vassal.modulefile import open_module
    from pbem.formats.vassal.moduleio import oversized, write_module_folder
    from pbem.model.errors import PbemError
    from pbem.model.module import MODULE_ID, bundled_modules

    target = Path(out)
    if target.exists():
        raise PbemError.at(out, "already exists: give a new folder")
    known = {folder.name for folder in bundled_modules()}
    if module_id is not None:
        if not MODULE_ID.fullmatch(module_id) or len(module_id) > 100:
            raise PbemError(f"--id {module_id!r}: an id is lower-case letters, digits and '-' (e.g. my-game)")
        if module_id in known:
            raise PbemError(f"--id {module_id}: pbem already has a module {module_id!r}; an imported module needs an id of its own")
    found = open_module(source)
    sizes = _board_sizes(board_sizes)
    chosen = module_id
    if chosen is None:
        name = found.module.name or (found.metadata.name if found.metadata else "") or ""
        base = slug(name) if name else "x"
        if base == "x":
            raise PbemError.at(source, "the module has no name to make an id from (give one with --id)")
        chosen, n = base, 1
        while chosen in known:  # the bundled module of the same game keeps its id: this one is the VASSAL import
            chosen = f"{base}-vassal" + (f"-{n}" if n > 1 else "")
            n += 1
    imported = build(found, sizes, chosen)
    too_large = oversized(imported.files)
    if too_large:  # an input error (a module this large is refused), not pbem's failure to read back what it wrote
        raise PbemError.at(source, too_large)
    with tempfile.TemporaryDirectory() as scratch:  # the module as written is read back before it is kept
        draft = Path(scratch) / target.name
        write_module_folder(draft, imported.files)
        try:
            if imported.setups:
                scenarios_from_setups(imported, load_module(draft, reuse=False))
                too_large = oversized(imported.files)
                if too_large:
                    raise _TooLarge(too_large)
                draft_with_setups = Path(scratch) / "with-setups"
                write_module_folder(draft_with_setups, imported.files)
                draft = draft_with_setups
            load_module(draft, reuse=False)
        except _TooLarge as error:
            raise PbemError.at(source, str(error)) from None
        except PbemError as error:  # pbem made a module it refuses itself: its own failure, named without the scratch path
            where = error.message if error.source is None else f"{Path(error.source.file).name}: {error.message}"
            raise RuntimeError(f"the module made from {source} does not validate ({where})") from None
    write_module_folder(target, imported.files)
    counts = imported.counts
    click.echo(f"{out}: module {imported.module_id} with {counts['locations']} locations, {counts['connections']} connections,"
               f" {counts['units']} units, {counts['maps']} maps, {counts['dice']} dice buttons, {counts['decks']} decks,"
               f" {counts['scenarios']} scenarios")
    if module_id is None and chosen != slug(found.module.name or (found.metadata.name if found.metadata else "") or ""):
        click.echo(f"  id: {chosen}, as pbem's own module {chosen.rsplit('-vassal', 1)[0]} has that game's id (--id names it otherwise)")
    if counts["locations"] == 0:
        click.echo(f"warning: {out}: the module has no locations: VASSAL names no place on its maps (see 'not imported'"
                   " below), so a turn can name none; give --board-size for boards whose image is absent", err=True)
    for note in imported.not_imported:
        click.echo(f"  not imported: {note}")
    return EXIT_OK


@module.command("export")
@click.argument("name")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=str), help="The .vmod to write.")
@click.option("--scenario", "scenarios", multiple=True, help="Export only this scenario as a set-up (repeatable; default: all).")
def export_module(name: str, out: str, scenarios: tuple[str, ...]) -> int:
    """Write module NAME (an id or a folder) as a VASSAL module: board, grid, counters, dice, turn, set-ups."""
    from pbem.export.vmod import export_module as build
    from pbem.export.vmod import vmod_bytes
    from pbem.model.files import write_atomic

    loaded = load_module(name)
    exported = build(loaded, list(scenarios) or None)
    write_atomic(out, vmod_bytes(exported))
    click.echo(f"{out}: {loaded.name} {loaded.version} for VASSAL: {exported.locations} locations, {exported.pieces} counters,"
               f" {len(exported.off_map)} set-ups")
    for scenario, units in exported.off_map.items():
        if units:
            click.echo(f"  {scenario}: {len(units)} units are in boxes, not on the map (in the palette): {', '.join(units[:8])}{' ...' if len(units) > 8 else ''}")
    return EXIT_OK


class _TooLarge(Exception):
    """The set-ups' scenarios would make a module file larger than pbem reads back: an input error."""
