"""A store of a kind file's kind keeps its rules (``counting.store.kinds``):
read from the store alone, checked against the digest its job names, and a
store that names a kind file by its path (made before) refused in one line;
a units export of such a store carries them the same way."""
from __future__ import annotations

import json
import sqlite3

import pytest

from counting.job import Job
from counting.run.counter import count_unit
from counting.store.database import CorruptStoreError, JobInfo, Store, StoreError
from counting.store.exchange import UnitsExport, units_export
from counting.store.kinds import KEY
from grids.kind import as_kind
from grids.variants import kindcontent

RULES = "regions\nAABB\nACBB\nACDD\nCCDD\nhouse r1c1 r2c2 r3c3 r4c4\n"


@pytest.fixture
def kind_store(tmp_path):
    """A store of a kind file's job (made while the file was there) and its job."""
    path = tmp_path / "j.kind"
    path.write_text(RULES)
    job = Job.load(f"2x2+@{path}")
    db = tmp_path / "s.sqlite"
    Store.create_or_open(db, job.info()).close()
    path.unlink()
    return db, job


def forget_every_kind_file(monkeypatch):
    """As in a new process: no kind file read yet."""
    monkeypatch.setattr(kindcontent, "_KNOWN", {})


def test_a_kind_file_store_opens_in_a_process_that_never_read_the_file(kind_store, monkeypatch):
    db, job = kind_store
    forget_every_kind_file(monkeypatch)
    with pytest.raises(ValueError, match="has not read"):
        as_kind(job.shape)
    with Store.open(db) as st:
        assert st.job.shape == job.shape
    assert as_kind(job.shape).houses() == ((0, 5, 10, 15),)
    assert Job.load(job.shape).n_units == job.n_units


@pytest.mark.parametrize("edit, says", [
    (lambda rules: None, "keeps no rules for kind-"),
    (lambda rules: "{not json", "is not JSON"),
    (lambda rules: "[" * 100_000 + "]" * 100_000, "is not JSON"),   # was a RecursionError traceback
    (lambda rules: json.dumps({d: t.replace("r4c4", "r4c3") for d, t in json.loads(rules).items()}),
     "are not those of that digest"),
])
def test_kept_rules_that_were_edited_or_lost_are_refused(kind_store, monkeypatch, edit, says):
    db, _ = kind_store
    con = sqlite3.connect(db)
    rules = con.execute("SELECT value FROM meta WHERE key = ?", (KEY,)).fetchone()[0]
    new = edit(rules)
    with con:
        if new is None:
            con.execute("DELETE FROM meta WHERE key = ?", (KEY,))
        else:
            con.execute("UPDATE meta SET value = ? WHERE key = ?", (new, KEY))
    con.close()
    forget_every_kind_file(monkeypatch)
    with pytest.raises(CorruptStoreError, match=says) as err:
        Store.open(db)
    assert "\n" not in str(err.value) and str(db) in str(err.value)


def test_a_store_naming_a_kind_file_by_its_path_is_refused_in_one_line(tmp_path):
    # made before kinds were named by content: it counted what the file said then
    db = tmp_path / "old.sqlite"
    Store.create_or_open(db, JobInfo("2x3+@/abs/dir/jig6.kind", "prefix-rows=2", "v", 12)).close()
    for writable in (False, True):
        with pytest.raises(StoreError, match=r"made by an older gridcount for the kind file "
                                             r"'/abs/dir/jig6.kind' named by its path") as err:
            Store.open(db, writable=writable)
        assert "\n" not in str(err.value)


def test_a_store_of_a_built_in_kind_keeps_no_rules(tmp_path):
    db = tmp_path / "x.sqlite"
    Store.create_or_open(db, Job.load("2x2+x").info()).close()
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM meta WHERE key = ?", (KEY,)).fetchone()[0] == 0
    con.close()
    with Store.open(db) as st:
        assert st.job.shape == "2x2+x"


@pytest.mark.parametrize("forget", [False, True])
def test_a_units_export_carries_the_rules_checked_against_their_digest(
        kind_store, tmp_path, monkeypatch, forget):
    db, job = kind_store
    with Store.open(db, writable=True) as st:
        st.record(count_unit(job.units[0]))
    with Store.open(db) as st:
        doc = json.loads(units_export(st))
    [(digest, text)] = doc[KEY].items()
    assert job.shape.endswith(f"kind-{digest}") and "house r1c1 r2c2 r3c3 r4c4" in text
    if forget:
        forget_every_kind_file(monkeypatch)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(doc))
    bad.write_text(json.dumps({**doc, KEY: {digest: text.replace("r4c4", "r4c3")}}))
    with pytest.raises(CorruptStoreError, match="are not those of that digest") as err:
        UnitsExport.read(bad)
    assert "\n" not in str(err.value)
    assert [r.unit_id for r in UnitsExport.read(good).results()] == [0]
    assert as_kind(job.shape).houses() == ((0, 5, 10, 15),)
