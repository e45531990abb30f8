"""The scripts' tests load a script from its file; ``scripts/`` goes first on
``sys.path``, as ``python scripts/NAME.py`` puts it there, so the script
finds the module it shares with its siblings (``scripts/two_stack_results.py``)."""
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))
