"""The layers of DESIGN.md, read from the code: no file under ``pbem/formats/`` or ``pbem/model/`` imports a higher layer.

``formats/`` may import ``model/`` (and itself) only; ``model/`` imports nothing of pbem but itself (and the
bare ``pbem`` package for its version). Every import counts: at the top, inside a function, under
``TYPE_CHECKING``, relative (``from ..art import x``) and ``importlib.import_module("pbem....")`` with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pbem"
ALLOWED = {  # a layer -> the pbem packages its files may import
    "formats": ("pbem.formats", "pbem.model"),
    "model": ("pbem.model",),
}
_DYNAMIC = {"import_module", "__import__"}


def imported_names(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module name ``source`` (the code of ``module``) imports, with its line, relative imports resolved."""
    found = []
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # ``from pbem import art`` imports the package pbem.art
            found += [(node.lineno, f"{name}.{alias.name}" if name == "pbem" else name) for alias in node.names]
        elif isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if called in _DYNAMIC and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def breaches(layer: str, source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` (a file of ``layer``) that reach a pbem package the layer may not import."""
    allowed = ALLOWED[layer]
    wrong = []
    for line, name in imported_names(source, module, is_package):
        if name.startswith("pbem.") and not any(name == ok or name.startswith(ok + ".") for ok in allowed):
            wrong.append(f"{module}:{line} imports {name}")
    return wrong


def layer_files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_no_file_of_a_lower_layer_imports_a_higher_one(layer):
    files = layer_files(layer)
    assert len(files) > 5  # the layer is there and was read
    wrong = []
    for path in files:
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        wrong += breaches(layer, path.read_text(encoding="utf-8"), module, is_package)
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("layer", "source"), [
    ("formats", "from pbem.art.counters import render_counter"),
    ("formats", "import pbem.archive.store"),
    ("formats", "def f():\n    from pbem.engine.replay import replay"),
    ("formats", "from ...art import maps"),
    ("formats", "from pbem import cli"),
    ("formats", "import importlib\nimportlib.import_module('pbem.export.vmod')"),
    ("model", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pbem.rules.ruleset import Ruleset"),
    ("model", "from pbem.formats.turnfile import load_turn"),
    ("model", "from ..engine import rulesets"),
])
def test_the_check_sees_every_kind_of_import(layer, source):
    assert breaches(layer, source, "pbem.formats.vassal.x" if layer == "formats" else "pbem.model.x")


@pytest.mark.parametrize(("layer", "source"), [
    ("formats", "from pbem.model.module import Module\nfrom pbem.formats.vassal.archive import write_zip\nimport json"),
    ("formats", "from .archive import write_zip\nfrom ..turnfile import load_turn"),
    ("model", "import pbem\nfrom pbem.model.errors import PbemError\nfrom . import schemas"),
])
def test_imports_within_the_allowed_layers_pass(layer, source):
    assert breaches(layer, source, "pbem.formats.vassal.x" if layer == "formats" else "pbem.model.x") == []
