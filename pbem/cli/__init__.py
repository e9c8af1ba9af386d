"""The ``pbem`` command: a click group whose verbs live one per file in this package.

Verbs are imported only when used, so ``pbem check`` does not pay for VASSAL's XML or the art's images.
Every command returns its exit code: 0 all legal, 1 violations found, 2 input error; 3 is pbem's own fault
(an unexpected exception), told in one line, with the traceback only under ``--debug`` or ``PBEM_DEBUG=1``.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import sys
from pathlib import Path

import click

from pbem import __version__
from pbem.model.errors import OwnOutputError, PbemError
from pbem.model.printable import EscapingStream, one_line

# click 8.2 raises this when a group is called without a verb; older versions print the help themselves.
NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_INPUT_ERROR = 2
EXIT_INTERNAL_ERROR = 3  # a bug in pbem, never to be read as a verdict or as the input's fault

DEBUG_ENV = "PBEM_DEBUG"
_debug = False
_one_command = False  # this process runs one command and ends (not a caller running several in-process)

# verb -> "module:attribute"; a verb whose module is absent is simply not offered.
COMMANDS: dict[str, str] = {
    "check": "pbem.cli.check:check",
    "module": "pbem.cli.module:module",
    "convert": "pbem.cli.convert:convert",
    "vassal": "pbem.cli.vassal:vassal",
    "art": "pbem.cli.art:art",
    "archive": "pbem.cli.archive:archive",
    "replay": "pbem.cli.replay:replay",
    "state": "pbem.cli.state:state",
    "dice": "pbem.cli.dice:dice",
}


def counted(n: int, noun: str) -> str:
    """``1 turn``, ``3 turns``: a count and its noun, singular or plural as English wants."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


class WrappingGroup(click.Group):
    """A group whose listing shows each verb's whole first sentence, wrapped, never cut off with '...'."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or _first_sentence(command.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _first_sentence(text: str) -> str:
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[: end + 1]


class LazyGroup(WrappingGroup):
    """A group that imports a verb's module only when that verb is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, target in COMMANDS.items() if importlib.util.find_spec(target.split(":")[0])]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None or importlib.util.find_spec(target.split(":")[0]) is None:
            return None
        module_name, attribute = target.split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if _one_command:
            gc.freeze()  # what the verb's imports made lives to the end as well
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
@click.option("--debug", is_flag=True, help=f"On an internal error (exit 3), print the traceback (also {DEBUG_ENV}=1).")
@click.option("--no-cache", is_flag=True, help="Build every module from its files, without pbem's cache (also PBEM_NO_CACHE=1); the verdicts are the same.")
def cli(debug: bool, no_cache: bool) -> None:
    """Check, picture and archive board wargame turns played by email."""
    global _debug
    _debug = _debug or debug
    from pbem.model import cache

    cache.turn_off(no_cache)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``pbem`` script and ``python -m pbem``."""
    global _debug, _one_command
    _debug = os.environ.get(DEBUG_ENV, "") not in ("", "0")
    if argv is None:  # the ``pbem`` script itself, whose process ends with the command
        # Everything made so far (the interpreter's own objects, click, this module) lives as long as the
        # process: moved out of the collector's reach, it is not walked again at each collection (~3% of a check).
        _one_command = True
        gc.freeze()
    for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 is printed escaped, never a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    saved = sys.stdout, sys.stderr
    # Every line any command prints goes through the one escaping function: a name, chat line or note from
    # a file can never drive the terminal, whichever command prints it.
    sys.stdout, sys.stderr = EscapingStream(sys.stdout), EscapingStream(sys.stderr)
    try:
        _run(argv)
    finally:
        sys.stdout, sys.stderr = saved


def _run(argv: list[str] | None) -> None:
    for argument in sys.argv[1:] if argv is None else argv:
        _check_text(argument)
    try:
        code = cli.main(args=argv, prog_name="pbem", standalone_mode=False)
    except PbemError as error:
        _fail(f"error: {error}", getattr(error, "exit_code", EXIT_INPUT_ERROR))
    except click.exceptions.Abort:
        _fail("aborted", code=130)
    except NO_ARGS_IS_HELP as error:  # a group called without a verb: show its help
        error.show()
        sys.exit(EXIT_INPUT_ERROR)
    except click.UsageError as error:
        where = error.ctx.command_path if error.ctx is not None else "pbem"
        _fail(f"error: {error.format_message()} (see '{where} --help')")
    except click.ClickException as error:
        _fail(f"error: {error.format_message()}")
    except KeyboardInterrupt:
        _fail("interrupted", code=130)
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    except OwnOutputError as error:  # pbem's own output is wrong: a bug, named by the key it got wrong
        _fail(f"internal error: {error} (a bug in pbem, please report it; nothing was written)", EXIT_INTERNAL_ERROR)
    except MemoryError:
        _internal("out of memory", None)
    except RecursionError as error:
        _internal("nested too deeply", error)
    except Exception as error:  # noqa: BLE001 - the last line of defence: one line, its own exit code
        _internal(type(error).__name__, error)
    sys.exit(code if isinstance(code, int) else EXIT_OK)


def _check_text(argument: str) -> None:
    """An argument with bytes that are not UTF-8 (Python keeps them as lone surrogates) is refused, unless
    it names an existing file: a name, title or note must be text pbem can store and print."""
    try:
        argument.encode("utf-8")
    except UnicodeEncodeError:
        value = argument.split("=", 1)[-1] if argument.startswith("--") else argument
        if not os.path.lexists(value):
            _fail(f"error: argument '{one_line(argument)}' is not UTF-8 text")


def _fail(message: str, code: int = EXIT_INPUT_ERROR) -> None:
    click.echo(one_line(message), err=True)
    sys.exit(code)


def _internal(what: str, error: BaseException | None) -> None:
    """An unexpected exception: one line (no message text, which may quote a hostile file), exit 3."""
    import traceback  # only here: it costs ~6 ms of every start

    if _debug:
        traceback.print_exc()
    where = _where(error) if error is not None else ""
    hint = "" if _debug else f"; 'pbem --debug ...' or {DEBUG_ENV}=1 shows the traceback"
    _fail(f"internal error: {what}{where} (a bug in pbem, please report it{hint})", EXIT_INTERNAL_ERROR)


def _where(error: BaseException) -> str:
    """`` in pbem/x/y.py:123``: the innermost frame inside pbem or a module's rules, for the bug report."""
    import traceback

    package = Path(__file__).resolve().parents[1]
    found = ""
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        if package in path.parents or "rules" in path.parts:
            found = f" in {'/'.join(path.parts[-3:])}:{frame.lineno}"
    return found
