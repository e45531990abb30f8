"""Specification of counting/store/unused.py: a store the command made and then
refused to use (before it held any unit) is removed, with its -wal and -shm; a store
that existed before, or holds a unit, or whose run stopped, is kept."""
import pytest

from counting.store.database import JobInfo, Store
from counting.store.unused import removed_if_unused
from store_samples import make_result

INFO = JobInfo("2x2", "cycles", "dlx1-memo-3", 4)


class Stopped(RuntimeError):
    """A run that stopped: its message names the store to resume."""


def files(d):
    return sorted(p.name for p in d.iterdir())


def refused(path, new, error=ValueError("refused"), *kept_by, record=False):
    store = Store.create_or_open(path, INFO)
    with pytest.raises(type(error)):
        with removed_if_unused(store, path, new, *kept_by):
            if record:
                store.record(make_result(0, 5))
            raise error


def test_a_new_store_refused_before_any_unit_leaves_no_file(tmp_path):
    refused(tmp_path / "s.sqlite", True)
    assert files(tmp_path) == []


def test_a_store_that_existed_before_is_kept_even_empty(tmp_path):
    Store.create_or_open(tmp_path / "s.sqlite", INFO).close()
    refused(tmp_path / "s.sqlite", False)
    assert "s.sqlite" in files(tmp_path)


def test_a_new_store_holding_a_unit_is_kept(tmp_path):
    refused(tmp_path / "s.sqlite", True, record=True)
    with Store.open(tmp_path / "s.sqlite") as st:
        assert len(st) == 1


@pytest.mark.parametrize("error", [KeyboardInterrupt(), Stopped("workers lost")])
def test_a_stopped_run_keeps_its_store_to_resume(tmp_path, error):
    refused(tmp_path / "s.sqlite", True, error, Stopped)
    assert "s.sqlite" in files(tmp_path)


def test_without_an_error_the_store_is_kept_and_closed(tmp_path):
    store = Store.create_or_open(tmp_path / "s.sqlite", INFO)
    with removed_if_unused(store, tmp_path / "s.sqlite", True) as held:
        assert held is store
    assert "s.sqlite" in files(tmp_path)
