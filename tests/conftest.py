"""Shared test helpers: run the real CLI in-process, find the repo's folders."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from pbem.model.resources import data_dir

# Property tests judge behaviour, not speed: on a loaded machine (parallel workers, CI) a slow example is not a
# failure, so no per-example deadline and no "too slow" health check (speed has its own tests and benchmarks).
settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("pbem")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session", autouse=True)
def _module_cache_in_tmp(tmp_path_factory):
    """pbem's cache of built modules lives in a folder of this test run (subprocesses inherit it), never in
    the user's own cache."""
    from pbem.model import cache

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cache.CACHE_DIR_ENV, str(tmp_path_factory.mktemp("pbem-cache")))
        patch.delenv(cache.NO_CACHE_ENV, raising=False)
        yield


@pytest.fixture
def pbem(capsys):
    """``pbem(*args)`` runs the ``pbem`` command as a user would and returns its exit code and output."""
    from pbem.cli import main

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(exit_info.value.code or 0, captured.out, captured.err)

    return run


@pytest.fixture(scope="session")
def samples() -> Path:
    return data_dir("samples") / "china-war-1980"


class _AgreeingValidator:
    """jsonschema-rs's verdict, checked against jsonschema's on the same value (see the fixture below)."""

    def __init__(self, name: str):
        from pbem.model import schemas

        self.name, self.fast, self.slow = name, _fast_validator(name), schemas.validator(name)

    def is_valid(self, value: object) -> bool:
        verdict = self.fast.is_valid(value)
        assert verdict == self.slow.is_valid(value), f"jsonschema-rs says {verdict}, jsonschema {not verdict}, schema {self.name}: {value!r:.300}"
        return verdict


def _fast_validator(name: str):
    from pbem.model import schemas

    return _real_fast_validator(schemas)(name)


def _real_fast_validator(schemas):
    if "real" not in _REAL:
        _REAL["real"] = schemas.fast_validator
    return _REAL["real"]


_REAL: dict = {}


_agreeing: dict[str, _AgreeingValidator] = {}


@pytest.fixture(autouse=True)
def _schema_verdicts_agree(monkeypatch):
    """Every value any test validates (samples, fixtures, generated hostile inputs) gets both validators'
    verdicts, which must be the same: the fast path may only say sooner what jsonschema would say."""
    from pbem.model import schemas

    _real_fast_validator(schemas)

    def agreeing(name: str) -> _AgreeingValidator:
        if name not in _agreeing:
            _agreeing[name] = _AgreeingValidator(name)
        return _agreeing[name]

    monkeypatch.setattr(schemas, "fast_validator", agreeing)


@pytest.fixture
def samples_as_scenarios(tmp_path):
    """``samples_as_scenarios(name)``: a copy of module ``name`` whose scenarios are its sample states
    (No Retreat! ships no scenario, its samples are the set-ups there are)."""
    import json
    import shutil

    from pbem.model.module import load_module

    def copy(name: str) -> Path:
        folder = tmp_path / f"{name}-with-samples"
        shutil.copytree(load_module(name).path, folder)
        (folder / "scenarios").mkdir(exist_ok=True)
        scenarios = {}
        for sample in sorted((data_dir("samples") / name).glob("state-*.json")):
            shutil.copy(sample, folder / "scenarios" / sample.name)
            scenarios[sample.stem] = f"scenarios/{sample.name}"
        assert scenarios, f"module {name} has no sample states"
        manifest = json.loads((folder / "module.json").read_text())
        manifest["scenarios"] = scenarios
        (folder / "module.json").write_text(json.dumps(manifest))
        return folder

    return copy


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server for the club-archive tests (``tests/pg_support.py``): a throwaway cluster on a Unix
    socket, stopped at the end, or ``$PBEM_TEST_POSTGRES``; skips, saying why, when none can be had."""
    import pg_support

    server = pg_support.start()
    if isinstance(server, str):
        pytest.skip(server)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server):
    """The URL of a new, empty database on the test server (dropped after the test)."""
    name = pg_server.new_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop_database(name)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright, once per test module (skipped where either is missing)."""
    from browser_support import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        pytest.skip("headless browser test needs Debian's chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
