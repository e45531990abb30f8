"""Fixtures of the store tests (test_store.py, test_store_format.py): the
sample job, a database path, and an open store of that job there.  The
results and helpers they use are in ``tests/store_samples.py``."""
from __future__ import annotations

from pathlib import Path

import pytest

from counting.store.database import JobInfo, Store

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
