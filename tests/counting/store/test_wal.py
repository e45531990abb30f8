"""A count's units reach the main database file every few units, not only
when SQLite's own checkpoint runs (counting/store/database.py, Store.record):
a run whose -wal file is deleted and that is then killed keeps them."""
import subprocess
import sys
import textwrap
from pathlib import Path

from counting.store.database import Store

_RUN = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, sys.argv[2])
    from store_samples import make_job, make_result
    from counting.store.database import Store
    store = Store.create_or_open(sys.argv[1], make_job())
    for u in range(20):
        store.record(make_result(u))
    os.unlink(sys.argv[1] + "-wal")      # someone cleans up "temporary" files...
    store.record(make_result(20))
    os.kill(os.getpid(), signal.SIGKILL)  # ...and the machine goes down
""")


def test_a_killed_run_whose_wal_was_deleted_keeps_its_checkpointed_units(tmp_path):
    db = tmp_path / "s.sqlite"
    tests_dir = str(Path(__file__).parents[2])
    proc = subprocess.run([sys.executable, "-c", _RUN, str(db), tests_dir], timeout=60)
    assert proc.returncode < 0
    with Store.open(db) as st:
        kept = [r.unit_id for r in st.results()]
    assert len(kept) >= 16 and kept == list(range(len(kept)))
