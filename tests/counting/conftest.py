"""Fixtures of the store tests (test_store.py, test_store_format.py): the
sample job, a database path, and an open store of that job there; and of the
store-command tests (test_cli_store*.py): a 3x3 store made by ``gridcount
count``; an empty working directory for the commands' default stores.  The
results and helpers they use are in ``tests/store_samples.py``."""
from __future__ import annotations

from pathlib import Path

import pytest

from counting.store.database import JobInfo, Store

from cli_samples import invoke
from store_samples import make_job


@pytest.fixture
def job() -> JobInfo:
    return make_job()


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "job.db"


@pytest.fixture
def store(db, job):
    with Store.create_or_open(db, job) as s:
        yield s


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """A 3x3 store holding units 0, 1, 2 and 10 (``store_cli_samples.STORE_UNITS``),
    made by ``gridcount count`` (read only)."""
    db = tmp_path_factory.mktemp("counted") / "part.sqlite"
    res = invoke("count", "3x3", "--units", "0-2,10", "--db", db, "--workers", "1", "--quiet")
    assert res.exit_code == 0 and "4 of 710 units done" in res.output
    return db


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Run in an empty directory: the default stores go to ./results."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
