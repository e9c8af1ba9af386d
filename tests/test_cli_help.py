"""Help a newcomer reads: whole descriptions in every group listing, no reStructuredText markup."""

from __future__ import annotations

import pytest

GROUPS = [(), ("archive",), ("art",), ("module",), ("vassal",)]


@pytest.mark.parametrize("group", GROUPS)
def test_group_listings_are_never_cut_off(pbem, group):
    result = pbem(*group, "--help")
    assert result.code == 0
    listing = result.out.split("Commands:", 1)[1]
    assert "..." not in listing and listing.strip()


@pytest.mark.parametrize(
    "command", [("check",), ("convert",), ("replay",), ("archive", "add"), ("archive", "verify"), ("vassal", "log"), ("art", "turn")]
)
def test_no_rst_quoting_in_help(pbem, command):
    result = pbem(*command, "--help")
    assert result.code == 0 and "``" not in result.out and ":class:" not in result.out
