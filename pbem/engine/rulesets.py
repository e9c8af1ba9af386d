"""A module's ruleset, built by the factory its module names: the model holds where the rules are, the engine builds them.

The module's ``rules_file`` (a file or a package) is code the user chose to run, like a plugin; its function
``module.rules_factory`` (``build_ruleset``) is called with the module once, and the ruleset it returns is kept
with that module object for the rest of the process. A module without rules code gets the kernel's empty
:class:`Ruleset`, which checks nothing and warns about every action kind it has no check for.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from pbem.model.errors import PbemError
from pbem.model.module import Module
from pbem.rules.ruleset import Ruleset

_KEPT = "_built_ruleset"  # where a Module object keeps the ruleset built for it (as functools.cached_property would)


def module_ruleset(module: Module) -> Ruleset:
    """The game's rules for ``module``, built on first use by the factory in the module's rules code."""
    kept = vars(module).get(_KEPT)
    if kept is None:
        kept = vars(module)[_KEPT] = _build(module)
    return kept


def _build(module: Module) -> Ruleset:
    if module.rules_file is None:
        return Ruleset(module)
    code = _rules_code(module)
    with _the_modules_failure(module):
        return getattr(code, module.rules_factory)(module)


@contextmanager
def _the_modules_failure(module: Module) -> Iterator[None]:
    """An exception in a user's module folder's rules code as an input error naming the module (exit 2); in a bundled
    module, pbem's own code on its own data, a bug reported as one (exit 3)."""
    try:
        yield
    except (PbemError, MemoryError, RecursionError):
        raise
    except Exception as error:
        if module.bundled:
            raise
        # A module folder the user chose: its code and data belong together, and a failure is the module's.
        raise module.failure(error, "the module's rules could not be built from its data") from None


_CODE: dict[tuple[str, str], object] = {}  # a bundled module's rules code, loaded once: each game's options reuse it


def _rules_code(module: Module):
    """The module's rules code: a bundled module's once a process (every choice of options builds its ruleset from
    it); a folder the user chose is loaded again for each module object, as it may have changed."""
    assert module.rules_file is not None
    key = (module.id, str(module.rules_file))
    if key in _CODE:
        return _CODE[key]
    name = "pbem_module_" + re.sub(r"\W", "_", module.id)
    if module.rules_file.is_dir():  # a package: rules/__init__.py and its sibling files
        spec = importlib.util.spec_from_file_location(
            name, module.rules_file / "__init__.py", submodule_search_locations=[str(module.rules_file)]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, module.rules_file)
    if spec is None or spec.loader is None:
        raise PbemError.at(module.rules_file, "cannot load the module's rules code")
    code = importlib.util.module_from_spec(spec)
    sys.modules[name] = code
    with _the_modules_failure(module):
        spec.loader.exec_module(code)
    if module.bundled:
        _CODE[key] = code
    return code


__all__ = ["module_ruleset"]
