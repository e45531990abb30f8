"""The scripts' tests load a script with one fixture, ``load_script``
(tests/scripts/conftest.py): the module of ``scripts/NAME.py`` under its own
name, its ``main`` not run; a name with no script is refused naming the file."""
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_a_script_is_loaded_from_its_file_under_its_own_name(load_script):
    module = load_script("bench_two_stack")
    assert module.__name__ == "bench_two_stack"
    assert module.__file__ == str(SCRIPTS / "bench_two_stack.py")
    assert callable(module.with_kept_sections)


def test_a_name_with_no_script_is_refused_naming_the_file(load_script):
    with pytest.raises(FileNotFoundError, match="no_such_script.py"):
        load_script("no_such_script")
