"""The scripts' tests load a script from its file (the ``load_script``
fixture); ``scripts/`` goes first on ``sys.path``, as ``python scripts/NAME.py``
puts it there, so the script finds the module it shares with its siblings
(``scripts/two_stack_results.py``)."""
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


def _load(name: str) -> ModuleType:
    """``scripts/NAME.py`` run as a module named ``name`` (its ``main`` not called)."""
    path = SCRIPTS / f"{name}.py"
    if not path.is_file():
        raise FileNotFoundError(f"no script {path}")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_script():
    """``load_script(NAME)``: the module of ``scripts/NAME.py``, loaded from its file."""
    return _load
