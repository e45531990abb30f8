"""The ``counting`` package itself: its version is read when asked, not at import."""
import os
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

import counting

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_library_reads_no_package_metadata():
    # issue 37: `import counting` read the installed version through
    # importlib.metadata, 20-60 ms of the start-up of every process that counts
    # (the CLI and each worker of a pool)
    probe = ("import sys, counting.run.counter, counting.reduction, dlx.pools; "
             "print('importlib.metadata' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_the_version_is_the_installed_package_s():
    try:
        installed = version("gridcount")
    except PackageNotFoundError:
        installed = "0+unknown"
    assert counting.__version__ == installed
    assert "__version__" in counting.__all__
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        counting.no_such_name
