"""The ``pbem`` command: a click group whose verbs live one per file in this package.

Verbs are imported only when used, so ``pbem check`` does not pay for VASSAL's XML or the art's images.
Every command returns its exit code: 0 all legal, 1 violations found, 2 input error.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import click

from pbem import __version__
from pbem.model.errors import PbemError

# click 8.2 raises this when a group is called without a verb; older versions print the help themselves.
NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_INPUT_ERROR = 2

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
        return getattr(importlib.import_module(module_name), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
def cli() -> None:
    """Check, picture and archive board wargame turns played by email."""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``pbem`` script and ``python -m pbem``."""
    try:
        code = cli.main(args=argv, prog_name="pbem", standalone_mode=False)
    except PbemError as error:
        _fail(f"error: {error}")
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
    sys.exit(code if isinstance(code, int) else EXIT_OK)


def _fail(message: str, code: int = EXIT_INPUT_ERROR) -> None:
    click.echo(message.replace("\n", " "), err=True)
    sys.exit(code)
