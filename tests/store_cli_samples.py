"""Helpers of the store-command tests (test_cli_store.py, test_cli_store_access.py):
a 3x3 store with chosen counts, a directory listing, a private mount namespace."""
from __future__ import annotations

import subprocess

import pytest

from counting.job import Job
from counting.store.database import Store
from counting.units import UnitResult

from store_samples import make_result

#: the 3x3 units in the store of the ``counted`` fixture (tests/counting/conftest.py)
STORE_UNITS = [0, 1, 2, 10]


def fake_store(path, counts):
    """A 3x3 store (reduction 71) holding ``counts`` (unit id -> count), written directly."""
    with Store.create_or_open(path, Job.load("3x3", "71").info()) as st:
        for u, n in counts.items():
            st.record(UnitResult(u, u // 10, u % 10, n, 1, 0, 0, 0.1, "h", "v", "t"))


def listing(path):
    """The names in a directory, sorted."""
    return sorted(p.name for p in path.iterdir())


def unshare_mount_works():
    try:
        return subprocess.run(["unshare", "--mount", "sh", "-c",
                               "mount -t tmpfs -o size=4k tmpfs /mnt"],
                              capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


needs_mounts = pytest.mark.skipif(not unshare_mount_works(),
                                  reason="needs unshare --mount and mount (root or user namespaces)")


def in_mount_namespace(script, **kw):
    """Run a shell script in a private mount namespace: its mounts vanish with it."""
    return subprocess.run(["unshare", "--mount", "sh", "-ec", script], capture_output=True,
                          text=True, timeout=120, **kw)


def store_of_an_older_reduction(db, shape: str = "2x3") -> Job:
    """A store at ``db`` made when ``shape``'s reduction made 5 units more
    than today's (its unit ids name other units now), holding one unit past
    today's last; today's job."""
    job = Job.load(shape)
    info = job.info()
    with Store.create_or_open(db, type(info)(info.shape, info.reduction, info.engine_version,
                                             info.n_units + 5)) as st:
        st.record(make_result(job.n_units + 2, count=7, class_id=0, form_id=0,
                              engine_version=info.engine_version))
    return job
