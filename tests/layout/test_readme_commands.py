"""The README opens with the two commands a newcomer runs, and CI runs the
second of them verbatim (plus ``--runslow``), so a step the README lacks fails
CI instead of a new user's first test run."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "the README opens with a sh block of commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines()
            if line.strip()]


def _ci_commands() -> list[str]:
    return [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_readme_opens_with_an_install_and_count_and_an_install_and_test_command():
    install_and_count, install_and_test = _readme_commands()
    assert install_and_count.startswith("python -m pip install -e . && gridcount count 3x3")
    assert install_and_test.startswith("python -m pip install -e '.[test]' && python -m pytest")


def test_ci_runs_the_readme_test_command_verbatim_plus_the_slow_checks():
    _, install_and_test = _readme_commands()
    assert f"{install_and_test} --runslow" in _ci_commands()


def test_the_full_symmetry_group_s_library_is_a_dependency_not_only_an_extra():
    # issue 34: classes --group, status's group note and count --group full need
    # pynauty, which installs as a wheel: a plain install brings it
    pyproject = (ROOT / "pyproject.toml").read_text()
    dependencies = re.search(r"^dependencies = \[(.*?)\n\]", pyproject, re.S | re.M).group(1)
    assert '"pynauty>=' in dependencies


def test_the_test_extra_brings_what_the_tests_of_the_optional_parts_import():
    # a test of an extra either runs under the README's command or skips with a
    # message; the report and Dask tests run, so the test extra brings them
    pyproject = (ROOT / "pyproject.toml").read_text()
    test_extra = re.search(r"^test = \[(.*?)\n\]", pyproject, re.S | re.M).group(1)
    for needed in ("pytest", "hypothesis", "matplotlib", "dask[distributed]", "pynauty"):
        assert f'"{needed}>=' in test_extra, needed
