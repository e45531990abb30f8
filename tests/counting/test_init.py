"""The ``counting`` package itself: its version is read when asked, not at import."""
from importlib.metadata import PackageNotFoundError, version

import pytest

import counting


def test_importing_the_library_reads_no_package_metadata(python_probe):
    # issue 37: `import counting` read the installed version through
    # importlib.metadata, 20-60 ms of the start-up of every process that counts
    # (the CLI and each worker of a pool)
    probe = ("import sys, counting.run.counter, counting.reduction, dlx.pools; "
             "print('importlib.metadata' in sys.modules)")
    assert python_probe(probe) == "False"


def test_the_version_is_the_installed_package_s():
    try:
        installed = version("gridcount")
    except PackageNotFoundError:
        installed = "0+unknown"
    assert counting.__version__ == installed
    assert "__version__" in counting.__all__
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        counting.no_such_name
