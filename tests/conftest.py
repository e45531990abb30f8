"""Shared pytest configuration for gridcount.

Slow tests
----------
Tests marked ``@pytest.mark.slow`` are skipped unless ``--runslow`` is given
(the networkx recipe: ``pytest_addoption`` + ``pytest_collection_modifyitems``).

Hypothesis profiles
-------------------
Chosen with hypothesis' own ``--hypothesis-profile NAME`` option:

``ci``
    ``deadline=None, print_blob=True``: no timing-dependent failures, and every
    failure prints the ``@reproduce_failure`` blob needed to replay it.
``repro``
    ``derandomize=True, database=None``: the same examples on every run and no
    example database, so two runs of the suite do exactly the same work.
``dev`` (loaded when no profile is given)
    Like ``ci``: the engine's speed varies with the machine and the build, so
    no deadline applies, and failures print their reproduction blob.

The cache directory
-------------------
Every test runs with ``XDG_CACHE_HOME`` pointing at a directory of this
run (a session tmp dir), so the band tables, memo files and locks that
tests make never land in this machine's cache (``~/.cache/gridcount``, or
the ``XDG_CACHE_HOME`` the run was started with), where a long count may
keep its memo file.  The one exception is below.

The 4x3 band tables
-------------------
The slow tests on the real 4x3 tables take them from this machine's cache
through the ``tables4_cache`` fixture, which builds them there first if
the cache holds none (as the first 4x3 count would: about 5 minutes of
CPU on two threads, 1.9 GiB at its peak, once per machine), so a fresh
clone's ``--runslow`` (CI) runs them instead of skipping them.  A test
that uses that fixture sees the machine's cache as ``XDG_CACHE_HOME``.

A fresh Python process
----------------------
What importing a module loads, and how a script ends, are seen only in a new
process: ``run_python`` runs ``python ARGS`` there (this checkout first on
``PYTHONPATH``, the working directory its root, 60 s at most) and gives the
finished process; ``python_probe`` runs ``python -c CODE`` and gives its
stdout, failing the test with the process's stderr if it did not exit 0.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

import hypothesis
import pytest

hypothesis.settings.register_profile("ci", deadline=None, print_blob=True)
hypothesis.settings.register_profile("repro", derandomize=True, database=None)
hypothesis.settings.register_profile("dev", deadline=None, print_blob=True)
# Default profile; hypothesis' pytest plugin replaces it during
# pytest_configure when --hypothesis-profile is given.
hypothesis.settings.load_profile("dev")


# XDG_CACHE_HOME as the run found it (None: unset, ~/.cache): the machine's cache
_MACHINE_CACHE_HOME = os.environ.get("XDG_CACHE_HOME")


def _use_the_machine_cache(mp: pytest.MonkeyPatch) -> None:
    """Point ``XDG_CACHE_HOME`` back where the run found it."""
    if _MACHINE_CACHE_HOME is None:
        mp.delenv("XDG_CACHE_HOME", raising=False)
    else:
        mp.setenv("XDG_CACHE_HOME", _MACHINE_CACHE_HOME)


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False, help="run slow tests"
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: long correctness checks (run with --runslow)"
    )
    # A shell starts background jobs with SIGINT ignored (`pytest &`, nohup in
    # a script), and children inherit that: the tests of Ctrl-C would then
    # wait for a signal that never lands.  Ctrl-C means KeyboardInterrupt here,
    # as in a terminal, and the count subprocesses get the default again.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        # --runslow given on the command line: do not skip slow tests.
        return
    skip_slow = pytest.mark.skip(reason="need --runslow option to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


ROOT = Path(__file__).resolve().parents[1]   # the checkout


@pytest.fixture(scope="session")
def run_python():
    """``run(*args)``: ``python ARGS`` in a fresh process of this checkout (see
    the module), its :class:`subprocess.CompletedProcess` (text output)."""
    def run(*args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT),
                                                           os.environ.get("PYTHONPATH", "")]))
        return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=60)
    return run


@pytest.fixture(scope="session")
def python_probe(run_python):
    """``probe(code)``: the stripped stdout of ``python -c CODE`` in a fresh
    process; the test fails with its stderr if it exits other than 0."""
    def probe(code: str) -> str:
        out = run_python("-c", code)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()
    return probe


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's shared directory (``<checkout>/../shared``).

    Skips the requesting test when the directory does not exist, e.g. in a
    standalone checkout of the package.
    """
    path = Path(__file__).resolve().parents[2] / "shared"
    if not path.is_dir():
        pytest.skip(f"shared directory not found at {path} (expected next to the checkout)")
    return path


class Hung(BaseException):
    """Raised by :func:`fails_instead_of_hanging`: a BaseException, so the code
    under test cannot take it for one of its own errors (a TimeoutError is an
    OSError, which a connection's error handling turned into the very error
    the test expected, and the test passed)."""


@pytest.fixture
def fails_instead_of_hanging():
    """Fail the requesting test after 180 s instead of letting it hang the run.

    For in-process tests of waits that once lasted for ever (a pool waiting
    for a dead worker's result): a regression then fails, it does not stall
    CI.  SIGALRM raises :class:`Hung` in the main thread, which ends any wait there.
    """
    def expired(signum, frame):
        raise Hung("the test ran over 180 s: the wait it checks is not bounded")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(180)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="session", autouse=True)
def _a_cache_of_this_run(tmp_path_factory):
    """``XDG_CACHE_HOME`` is a directory of this run for every test (see the module)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        yield


@pytest.fixture(autouse=True)
def _the_machine_cache_for_the_4x3_tables(request, monkeypatch):
    """A test that uses ``tables4_cache`` reads the tables from the machine's cache."""
    if "tables4_cache" in request.fixturenames:
        _use_the_machine_cache(monkeypatch)


@pytest.fixture(scope="session")
def machine_cache_root() -> Path:
    """This machine's gridcount cache directory (:func:`bandtables.cache.cache_root`
    as the run found ``XDG_CACHE_HOME``), which tests do not write into."""
    from bandtables.cache import cache_root
    with pytest.MonkeyPatch.context() as mp:
        _use_the_machine_cache(mp)
        return cache_root()


@pytest.fixture(scope="session")
def tables4_cache():
    """The directory of this machine's 4x3 band tables, built first if need be."""
    from bandtables.cache import tables4_dir
    with pytest.MonkeyPatch.context() as mp:
        _use_the_machine_cache(mp)
        return tables4_dir(threads=2)
