"""A store's format is what it was written in, not what one meta row says
(counting/store/versions.py; issue 26, item 8): setting ``format_version``
to 1 in a format-2 store switches no checksum off, and an older format is
upgraded only with its rows re-verified."""
import sqlite3

import pytest

from counting.store import format as fmt
from counting.store.database import FORMAT_VERSION, CorruptStoreError, Store

from store_samples import (assert_one_line_naming, edit_row, make_result, write_format_1_store,
                           write_store)


def _sql(db, *statements):
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for s in statements:
            conn.execute(s)
    finally:
        conn.close()


def _meta(db):
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute("SELECT key, value FROM meta")), \
            conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


CLAIM_1 = "UPDATE meta SET value = '1' WHERE key = 'format_version'"
HEADER_1 = "PRAGMA user_version = 1"
NO_SEAL = "DELETE FROM meta WHERE key = 'format_seal'"


@pytest.mark.parametrize("downgrade", [[CLAIM_1], [CLAIM_1, HEADER_1],
                                       [CLAIM_1, HEADER_1, NO_SEAL]])
def test_a_store_claiming_format_1_is_still_checked(db, job, downgrade):
    write_store(db, job, [0, 1, 2])
    edit_row(db, 1, count="12345")                 # a hand edit, checksum left as it was
    _sql(db, *downgrade)
    with Store.open(db) as st:
        assert st.format_version == FORMAT_VERSION
        with pytest.raises(CorruptStoreError, match="unit 1 in .* is damaged or was edited"):
            st.results()


def test_opening_a_downgraded_store_for_writing_never_vouches_for_an_edited_row(db, job):
    write_store(db, job, [0, 1, 2])
    edit_row(db, 1, count="12345")
    _sql(db, CLAIM_1, HEADER_1, NO_SEAL)
    for opener in (lambda: Store.create_or_open(db, job), lambda: Store.open(db, writable=True)):
        with pytest.raises(CorruptStoreError, match="unit 1 in") as exc:
            opener().close()
        assert_one_line_naming(exc, db)
    with Store.open(db) as st, pytest.raises(CorruptStoreError, match="unit 1 in"):
        st.results()                                # still refused: nothing was laundered


def test_a_downgraded_store_with_intact_rows_is_upgraded_back_as_it_was(db, job):
    write_store(db, job, [0, 1, 2])
    with Store.open(db) as st:
        before = st.results()
    assert any(r.worker for r in before)
    _sql(db, CLAIM_1, HEADER_1, NO_SEAL)
    with Store.open(db, writable=True) as st:
        assert st.format_version == FORMAT_VERSION and st.results() == before
    meta, user_version = _meta(db)
    assert meta["format_version"] == str(FORMAT_VERSION) and user_version == FORMAT_VERSION
    assert meta["format_seal"] == fmt.format_seal(job, FORMAT_VERSION)


def test_a_store_written_in_format_2_whose_checksums_were_dropped_is_refused(db, job):
    write_store(db, job, [0, 1])
    _sql(db, CLAIM_1, HEADER_1, "ALTER TABLE units DROP COLUMN checksum",
         "ALTER TABLE units DROP COLUMN worker")      # now shaped like format 1, but sealed 2
    for opener in (lambda: Store.open(db), lambda: Store.open(db, writable=True)):
        with pytest.raises(CorruptStoreError, match="was written in store format 2") as exc:
            opener().close()
        assert_one_line_naming(exc, db)


def test_a_damaged_seal_is_refused(db, job):
    write_store(db, job, [0])
    _sql(db, "UPDATE meta SET value = '1:0123456789abcdef' WHERE key = 'format_seal'")
    with pytest.raises(CorruptStoreError, match="format_seal") as exc:
        Store.open(db).close()
    assert_one_line_naming(exc, db)


def test_a_genuine_format_1_store_still_opens_and_is_sealed_when_upgraded(db, job):
    results = [make_result(u, worker="") for u in (0, 3)]
    write_format_1_store(db, job, results)
    with Store.open(db) as st:
        assert st.format_version == 1 and st.results() == results
    with Store.open(db, writable=True) as st:
        assert st.format_version == FORMAT_VERSION and st.results() == results
    assert _meta(db)[0]["format_seal"] == fmt.format_seal(job, FORMAT_VERSION)


def test_a_store_of_format_2_without_a_seal_gets_one_when_opened_for_writing(db, job):
    write_store(db, job, [0])
    _sql(db, NO_SEAL)
    with Store.open(db) as st:                       # reading writes nothing
        assert st.format_version == FORMAT_VERSION and len(st.results()) == 1
    assert "format_seal" not in _meta(db)[0]
    Store.open(db, writable=True).close()
    assert _meta(db)[0]["format_seal"] == fmt.format_seal(job, FORMAT_VERSION)
