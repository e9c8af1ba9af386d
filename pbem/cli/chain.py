"""``pbem check`` of a chain of VASSAL logs and saves (several files, or a folder of them)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pbem.cli import EXIT_OK, EXIT_VIOLATIONS, one_line
from pbem.model.errors import PbemError

VASSAL = (".vlog", ".vsav")


def chain_files(turns: tuple[Path, ...]) -> list[Path] | None:
    """The files of a chain, in order, or None when ``turns`` is one turn file. A folder gives its VASSAL files
    in the order of their names; several files must all be VASSAL's."""
    from pbem.archive.gamefiles import natural_key

    if len(turns) == 1 and not turns[0].is_dir():
        return None
    if len(turns) == 1:
        folder = turns[0]
        found = sorted((p for p in folder.iterdir() if p.suffix.lower() in VASSAL and p.is_file() and not p.name.startswith(".")),
                       key=lambda p: natural_key(p.name))
        if not found:
            raise PbemError.at(folder, "a folder to check holds VASSAL logs or saves (.vlog, .vsav); for a game of turn files use 'pbem archive add' or 'pbem replay'")
        return found
    for path in turns:
        if path.suffix.lower() not in VASSAL:
            raise PbemError.at(path, "several files are checked as a chain of VASSAL logs and saves (.vlog, .vsav); check turn files one at a time, "
                                     "or a whole game with 'pbem archive add' or 'pbem replay'")
    names = [p.name for p in turns]
    if len(set(names)) != len(names):
        raise PbemError.at(turns[0], "two files of the chain have the same name")
    return list(turns)


def check_chain_command(files: list[Path], module_name: str | None, output: str, write_state: Path | None) -> int:
    from pbem.archive.logchain import check_chain
    from pbem.model.files import read_bytes, write_atomic
    from pbem.model.module import load_module

    module = load_module(module_name) if module_name else _module_of(files)
    result = check_chain(module, [(p.name, read_bytes(p)) for p in files])
    if output != "json":
        for path in files:  # which version of the VASSAL module each file is from, as a single file's check says
            if result.versions.get(path.name):
                click.echo(one_line(f"{path}: {result.versions[path.name]}"), err=True)
    state_text = None
    if write_state and result.played is not None:
        state_text = json.dumps(result.played.turns[-1].state, indent=1, ensure_ascii=False) + "\n"
    if output == "json":
        click.echo(json.dumps(chain_json(result), indent=2, ensure_ascii=False))
    else:
        for line in chain_lines(result):
            click.echo(one_line(line))
    if state_text is not None:
        write_atomic(write_state, state_text)
        verdict = "" if result.ok else " (the chain had violations: the state is the files as written)"
        click.echo(one_line(f"state after the last log written to {write_state}{verdict}"), err=True)
    return EXIT_OK if result.ok else EXIT_VIOLATIONS


def _module_of(files: list[Path]):
    from pbem.formats.vassal.to_state import open_game

    return open_game(str(files[0])).module


def chain_lines(result) -> list[str]:
    lines = []
    played = {t.name: t for t in result.played.turns} if result.played else {}
    for name in result.files:
        turn = played.get(name)
        if turn is None:
            found = result.continuity.get(name, [])
            lines.extend(str(v) for v in found)
            lines.append(f"{name}: a save: a position in the chain" + (", it does not follow on from the file before" if found else ""))
            continue
        lines.extend(str(v) for v in turn.violations)
        counts = {s: sum(v.severity == s for v in turn.violations) for s in ("illegal", "mismatch", "warning")}
        found = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
        lines.append(f"{name}: {turn.actions} actions checked, {'all legal' if turn.ok else 'violations found'}" + (f" ({found})" if found else ""))
    lines.extend(undo_lines(result.dice))
    broken = sum(len(v) for v in result.continuity.values())
    lines.append(f"chain of {len(result.files)} files: " + ("every file opens where the one before ended" if not broken else
                                                            f"{broken} piece(s) not where the file before left them (rule continuity)"))
    return lines


def undo_lines(dice) -> list[str]:
    """Per player, the rolls taken back and rolled again, with their steps and files."""
    if dice is None:
        return []
    lines = []
    undone = [r for r in dice.rolls if r["undone"]]
    players = sorted({r.get("player") or "unknown" for r in undone} | {r.get("player") or "unknown" for r in dice.rerolls})
    if not players:
        return ["undos: no roll was taken back in any file"]
    lines.append("undos and re-rolls, by player:")
    for player in players:
        taken = [r for r in undone if (r.get("player") or "unknown") == player]
        again = [r for r in dice.rerolls if (r.get("player") or "unknown") == player]
        lines.append(f"  {player}: {len(taken)} roll(s) taken back, {len(again)} rolled again")
        for r in again:
            lines.append(f"    {r['file']}: {r['button'] or 'dice'} {','.join(map(str, r['before']))} at step {r['undone_step']} (undone), "
                         f"rolled again: {','.join(map(str, r['after']))} at step {r['step']}")
        rerolled = {(r["file"], r["undone_step"]) for r in again}
        for r in taken:
            if (r["file"], r["step"]) not in rerolled:
                lines.append(f"    {r['file']}: {r['button'] or 'dice'} {','.join(map(str, r['values']))} at step {r['step']} taken back, not rolled again")
    return lines


def chain_json(result) -> dict:
    played = {t.name: t for t in result.played.turns} if result.played else {}
    files = []
    for name in result.files:
        turn = played.get(name)
        if turn is None:
            files.append({"file": name, "kind": "save", **_version(result, name), "violations": [v.as_json() for v in result.continuity.get(name, [])],
                          "ok": not result.continuity.get(name)})
        else:
            files.append({"file": name, "kind": "log", **_version(result, name), "actions": turn.actions, "violations": [v.as_json() for v in turn.violations], "ok": turn.ok})
    dice = result.dice
    return {"chain": files, "continuity": [v.as_json() for vs in result.continuity.values() for v in vs],
            "undone_rolls": [r for r in dice.rolls if r["undone"]] if dice else [], "rerolls": dice.rerolls if dice else [], "ok": result.ok}


def _version(result, name: str) -> dict:
    """The ``vassal`` entry of a file in the chain's JSON report, as a single file's report has it."""
    return {"vassal": result.versions[name]} if result.versions.get(name) else {}
