"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven through Playwright (no download).

The ``browser`` fixture (tests/conftest.py) launches it once per test module and skips where it is missing."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def open_page(browser, path: Path):
    """A new page at ``path``, its script errors and console errors kept in ``page.errors``."""
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(path.as_uri())
    page.errors = errors
    return page
