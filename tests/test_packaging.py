"""The README's quick start and CI run the same test command; an installed pbem finds its data."""

import re
from pathlib import Path

import pbem
from pbem.model.resources import data_dir

REPO = Path(__file__).resolve().parents[1]


def quick_start() -> list[str]:
    section = (REPO / "README.md").read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, flags=re.S)


def test_quick_start_is_two_commands():
    commands = quick_start()
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    assert "pbem check samples/" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    ci = (REPO / ".ci" / "run").read_text()
    assert quick_start()[1] in ci.splitlines()


def test_quick_start_sample_exists():
    sample = re.search(r"pbem check (\S+)", quick_start()[0]).group(1)
    assert (REPO / sample).is_file()


def test_data_found_where_pbem_is_installed():
    package = Path(pbem.__file__).resolve().parent
    for name in ("modules", "schemas", "samples"):
        found = data_dir(name)
        assert found.is_dir()
        if not package.is_relative_to(REPO):  # a plain (non-editable) install: data travels inside the wheel
            assert found == package / "_data" / name
