"""JSON Schema checks of every input, with errors that name the file, the JSON pointer and the line.

Two validators of the same schemas: jsonschema-rs (compiled) gives the verdict on the fast path, and only
when it finds a fault does jsonschema (pure Python, slow to import and to run) look again to explain it
with a pointer and a short message. jsonschema stays the reference: should the two ever disagree, its
verdict stands (tests/test_schema_fast_path.py holds them to the same verdict on every input we have).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from pbem.model.jsonsource import JsonDocument, escape_pointer_token
from pbem.model.resources import data_dir

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

SCHEMA_BASE = "https://pbem.invalid/schemas/"


@cache
def _schema_files() -> tuple[tuple[str, Any], ...]:
    """Every schema in ``schemas/`` as (``$id``, contents)."""
    found = []
    for path in sorted(data_dir("schemas").glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        found.append((contents["$id"], contents))
    return tuple(found)


@cache
def registry() -> Registry:
    """Every schema in ``schemas/``, resolvable by its ``$id`` without any network access."""
    from referencing import Registry, Resource

    return Registry().with_resources((uri, Resource.from_contents(ecma_anchors(contents))) for uri, contents in _schema_files())


def ecma_anchors(value: Any) -> Any:
    """``value`` with each ``pattern`` ending in ``$`` made to end in ``\\Z``.

    JSON Schema patterns are ECMA-262 regular expressions, where ``$`` is the end of the text; Python's
    ``$`` also matches before a final newline, so jsonschema alone took ``"soviet\\n"`` for ``^[a-z]+$``.
    With ``\\Z`` both validators refuse it.
    """
    if isinstance(value, dict):
        out = {k: ecma_anchors(v) for k, v in value.items()}
        pattern = value.get("pattern")
        if isinstance(pattern, str) and pattern.endswith("$") and not pattern.endswith("\\$"):
            out["pattern"] = pattern[:-1] + "\\Z"
        return out
    if isinstance(value, list):
        return [ecma_anchors(item) for item in value]
    return value


@cache
def _fast_registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry(list(_schema_files()))


@cache
def fast_validator(name: str) -> jsonschema_rs.Validator:
    """The compiled validator for ``schemas/<name>.schema.json`` (the verdict only, no explanation)."""
    return jsonschema_rs.Draft202012Validator(dict(_schema_files())[f"{SCHEMA_BASE}{name}.schema.json"], registry=_fast_registry())


class Checker:
    """A schema that stands alone (a module's own ``status`` schema): compiled for the verdict, and
    jsonschema's validator, built only when a value breaks it, for the explanation."""

    def __init__(self, schema: dict):
        self.schema = schema
        self.fast = jsonschema_rs.Draft202012Validator(schema)
        self._slow: Draft202012Validator | None = None

    @property
    def slow(self) -> Draft202012Validator:
        if self._slow is None:
            from jsonschema import Draft202012Validator

            self._slow = Draft202012Validator(ecma_anchors(self.schema))
        return self._slow


@cache
def validator(name: str) -> Draft202012Validator:
    """The explaining validator for ``schemas/<name>.schema.json``."""
    from jsonschema import Draft202012Validator

    schema = registry().contents(f"{SCHEMA_BASE}{name}.schema.json")
    return Draft202012Validator(schema, registry=registry())


@cache
def fragment_validator(name: str, fragment: str) -> Draft202012Validator:
    """The validator for one part of a schema, e.g. ``turn`` ``/$defs/move``.

    Its local ``$ref``s are inlined: the part is checked once per action, and resolving references was
    half the time of checking a long turn.
    """
    whole = registry().contents(f"{SCHEMA_BASE}{name}.schema.json")
    part = _inline(_resolve(whole, fragment), whole, ())
    schema = {"$id": f"{SCHEMA_BASE}{name}-{fragment.strip('/').replace('/', '-')}.schema.json", "$defs": whole.get("$defs", {})}
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_bounds_first(schema | part if isinstance(part, dict) else part), registry=registry())


_BOUNDS = ("type", "maxItems", "maxLength", "maxProperties")


def _bounds_first(value: object) -> object:
    """``value`` with the cheap bounds of each subschema ahead of its other keywords: jsonschema checks them
    in order, so a 500,000-item list is refused by its length before its items are looked at."""
    if isinstance(value, dict):
        ordered = {k: value[k] for k in _BOUNDS if k in value}
        ordered.update((k, _bounds_first(v)) for k, v in value.items() if k not in ordered)
        return ordered
    if isinstance(value, list):
        return [_bounds_first(item) for item in value]
    return value


def _resolve(schema: dict, fragment: str) -> object:
    for token in fragment.strip("/").split("/"):
        schema = schema[token.replace("~1", "/").replace("~0", "~")]
    return schema


def _inline(value: object, whole: dict, seen: tuple[str, ...]) -> object:
    """``value`` with every ``{"$ref": "#/..."}`` replaced by what it names (a recursive one is kept)."""
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and ref not in seen:
            target = _inline(_resolve(whole, ref[1:]), whole, (*seen, ref))
            if isinstance(target, dict):
                merged = {k: v for k, v in value.items() if k != "$ref"}
                # Siblings of $ref (a description, a bound) apply too: keep both when they overlap.
                return target | merged if not set(target) & set(merged) - {"description"} else {"allOf": [target, merged]}
        return {k: _inline(v, whole, seen) for k, v in value.items()}
    if isinstance(value, list):
        return [_inline(item, whole, seen) for item in value]
    return value


@cache
def shallow_validator(name: str, array: str) -> Draft202012Validator:
    """Schema ``name`` with the items of its top-level ``array`` only required to be objects.

    Large arrays of tagged items (a turn's actions) are then checked item by item against the one
    definition each item's tag selects, which is what the full schema's if/then chain would pick anyway.
    """
    schema = copy.deepcopy(registry().contents(f"{SCHEMA_BASE}{name}.schema.json"))
    schema["$id"] = f"{SCHEMA_BASE}{name}-shallow.schema.json"
    bounds = {k: v for k, v in schema["properties"][array].items() if k in ("maxItems", "minItems")}
    schema["properties"][array] = {"type": "array"} | bounds | {"items": {"type": "object"}}
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema, registry=registry())


def error_pointer(error: ValidationError) -> str:
    return "".join(f"/{escape_pointer_token(str(part))}" for part in error.absolute_path)


def describe(error: ValidationError) -> str:
    """A short message: jsonschema's own text quotes whole objects, which is no help on one line."""
    if error.validator == "required":
        return error.message.replace(" is a required property", " is missing")
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"unexpected key{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
    if error.validator in ("oneOf", "anyOf") and isinstance(error.instance, dict | list):
        return "is not one of the shapes this field may take"
    if error.validator == "enum":
        return f"{_short(error.instance)} is not one of {', '.join(map(repr, error.validator_value))}"
    if error.validator == "maxItems":
        return f"has {len(error.instance):,} items, more than the {error.validator_value:,} allowed"
    if error.validator == "minItems":
        return f"has {len(error.instance)} item{'s' if len(error.instance) != 1 else ''}, fewer than the {error.validator_value} needed"
    if error.validator in ("minimum", "maximum") and "x-message" in error.schema:
        return str(error.schema["x-message"]).replace("{value}", _short(error.instance))
    if error.validator in ("minimum", "maximum"):
        bound = "less than the smallest" if error.validator == "minimum" else "more than the largest"
        return f"{_short(error.instance)} is {bound} value allowed here, {error.validator_value}"
    if error.validator == "type":
        return f"{_short(error.instance)} is not of type {error.validator_value!r}"
    return error.message if len(error.message) < 160 else error.message[:157] + "..."


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check(document: JsonDocument, name: str) -> None:
    """Raise a :class:`PbemError` at the most relevant place if ``document`` breaks schema ``name``."""
    if fast_validator(name).is_valid(document.data):
        return
    check_value(document, validator(name), document.data, "")


def check_value(document: JsonDocument, checker: Checker | Draft202012Validator, value: object, base: str) -> None:
    """Check ``value`` (found at pointer ``base`` of ``document``); the error names its place.

    A :class:`Checker` gives the verdict first; a jsonschema validator always explains.
    """
    if isinstance(checker, Checker):
        if checker.fast.is_valid(value):
            return
        checker = checker.slow
    from jsonschema.exceptions import best_match

    errors = checker.iter_errors(value)
    first = next(errors, None)
    if first is None:
        return
    # An oversized value is the error to report, and looking for others would walk all of it.
    if first.validator in _BOUNDS[1:]:
        error = first
    else:
        # A key that breaks its own sub-schema also leaves every key "unevaluated"; name the real fault instead.
        candidates = [first, *errors]
        real = [e for e in candidates if e.validator != "unevaluatedProperties"]
        error = best_match(real or candidates)
    if error is not None:
        raise document.error(base + error_pointer(error), describe(error))
