"""The test run's cache (tests/conftest.py): what the tests make in the
cache directory (memo files, band tables, locks) goes to a directory of
the run, never into this machine's cache, where a long count may keep its
memo file; only the tests of the real 4x3 tables read the machine's."""
import pytest

from bandtables.cache import cache_root
from factorization import api as factor_api


def test_a_memo_file_a_test_makes_is_not_in_the_machines_cache(machine_cache_root, monkeypatch):
    # the tests that opened process_counter without setting XDG_CACHE_HOME left
    # memo files of 64 MiB in ~/.cache/gridcount
    factor_api.forget_process_counters()         # as a new process would
    path = factor_api.process_counter(5, 1.0).memo_file.path
    assert path.exists() and path.parent == cache_root()
    assert not path.is_relative_to(machine_cache_root)


@pytest.fixture
def tables4_cache(machine_cache_root):
    """A stand-in for the fixture of the real 4x3 tables (nothing is built)."""
    return machine_cache_root / "bandtables4-v1"


def test_a_test_of_the_real_4x3_tables_reads_them_from_the_machines_cache(
        tables4_cache, machine_cache_root):
    assert cache_root() == machine_cache_root
