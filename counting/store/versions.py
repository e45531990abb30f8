"""Which format a store really is: the one it was written in, not the one a
meta row claims.

Readers skip the row checksums of a store of format 1, which has none.  If
that decision followed ``meta.format_version`` alone, setting that one row
to ``1`` would switch every checksum off, and the next writer would
"migrate" the store by computing fresh checksums of rows nobody had
checked: a hand-edited count laundered into a valid one.  So the format is
read from everything that records it:

* the ``units`` table itself: format 2 has the ``checksum`` column;
* ``PRAGMA user_version`` in the database header;
* ``meta.format_seal`` (:func:`counting.store.format.format_seal`): the
  format the store was last written in, with a checksum tying it to the
  job; written when a store is created or upgraded;
* ``meta.format_version``.

A store is format 1 only when it is format 1 in every one: that is what a
genuine old store looks like (``tests/store_samples.py``,
``write_format_1_store``: 11 columns, ``user_version`` 1, no seal).  A
store whose rows still carry checksums is read as format 2 and checked,
whatever the other markers say; a store that some marker says was written
in format 2 but whose checksum column is gone is refused as damaged.  When
such a store is opened for writing its markers are put right again
(:func:`reseal`), but only after every row has been re-verified against
its checksum, in the same transaction: an edited row stops it, naming the
unit, and nothing is changed.

Bringing a store up to date before it is written is also this module's
(:func:`bring_up_to_date`): a store of format 1 is migrated (:func:`migrate`),
a format-2 store whose markers are wrong is resealed (:func:`reseal`).

[Like the checksums, this guards against accidents and casual edits, not
against someone who rebuilds the table in the old format and removes the
seal: such a store is indistinguishable from a genuine old one.]
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from counting.store import format as fmt
from counting.store.format import CorruptStoreError, JobInfo, StoreError

__all__ = ["check", "reseal", "migrate", "bring_up_to_date"]


def _markers(conn: sqlite3.Connection, path: Path) -> tuple[int, int, str | None]:
    """(format of the units table, user_version, the seal as stored)."""
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(units)")}
        header = conn.execute("PRAGMA user_version").fetchone()[0]
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (fmt.SEAL_KEY,)).fetchone()
    except sqlite3.Error as exc:
        raise fmt.open_error(path, exc) from exc
    return (2 if "checksum" in columns else 1), header, None if row is None else row[0]


def _sealed(path: Path, job: JobInfo, seal: str | None) -> int:
    """The version in the seal (0 without one); a damaged seal is refused."""
    if seal is None:
        return 0
    version, _, _ = seal.partition(":")
    if version.isdigit() and seal == fmt.format_seal(job, int(version)):
        return int(version)
    raise CorruptStoreError(f"{path} is damaged or was edited: its meta {fmt.SEAL_KEY} "
                            f"{seal!r} does not match its job")


def check(conn: sqlite3.Connection, path: Path, job: JobInfo, claimed: int) -> tuple[int, bool]:
    """The format the store on ``conn`` is read in, and whether its markers
    need putting right (:func:`reseal`) when it is opened for writing.

    ``claimed`` is ``meta.format_version`` (:func:`counting.store.format.read_job`).

    Raises
    ------
    CorruptStoreError
        The seal is damaged, or the store was written in a format whose
        checksums its units table no longer has.
    StoreError
        A marker names a format newer than this gridcount's.
    """
    schema, header, seal = _markers(conn, path)
    sealed = _sealed(path, job, seal)
    written = max(claimed, header, sealed)
    if written > fmt.FORMAT_VERSION:
        raise StoreError(f"{path} has store format {written}, newer than this gridcount "
                         f"supports ({fmt.FORMAT_VERSION}); upgrade gridcount")
    if written > schema:
        raise CorruptStoreError(
            f"{path} was written in store format {written}, but its units table has no "
            f"checksums (format {schema}): it was damaged or edited, and its rows cannot be "
            f"checked; count the job again from its last good copy or export")
    stale = (claimed, header, sealed) != (schema, schema, schema)
    return schema, stale and schema == fmt.FORMAT_VERSION


def reseal(conn: sqlite3.Connection, path: Path, job: JobInfo) -> None:
    """Re-verify every row of a format-2 store against its checksum, then
    set ``format_version``, ``user_version`` and the seal to the format it
    is in, all in one transaction.

    Raises
    ------
    CorruptStoreError
        A row does not match its checksum (naming its unit); nothing is changed.
    """
    version = fmt.FORMAT_VERSION
    with fmt.transaction(conn, path, f"upgrade {path} to store format {version}"):
        for *row, checksum in conn.execute(
                f"SELECT {', '.join(fmt.columns_of(version))} FROM units ORDER BY unit_id"):
            if checksum != fmt.row_checksum(job, row) or not 0 <= row[0] < job.n_units:
                raise CorruptStoreError(
                    f"unit {row[0]} in {path} is damaged or was edited (its checksum does not "
                    f"match its fields), so the store was not upgraded; to count it again, "
                    f"delete the row (sqlite3 {path} \"DELETE FROM units WHERE unit_id = "
                    f"{row[0]}\") and run the count again")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'format_version'", (str(version),))
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                     (fmt.SEAL_KEY, fmt.format_seal(job, version)))
        conn.execute(f"PRAGMA user_version = {version}")


def migrate(conn: sqlite3.Connection, path: Path, job: JobInfo) -> int:
    """Bring the store on ``conn`` up to
    :data:`~counting.store.format.FORMAT_VERSION`, in one transaction;
    return the version it had.

    Format 1 to 2: the units table is rebuilt with the ``worker`` column
    (``''``: version 1 did not record it) and the ``checksum`` of every row
    computed from the row as it is, so the migration vouches for rows it
    cannot check (:mod:`counting.store.format`, "Format history").  Another
    process may have migrated the store meanwhile: the version is read again
    inside the transaction.
    """
    doing = f"upgrade {path} from store format 1 to {fmt.FORMAT_VERSION}"
    with fmt.transaction(conn, path, doing):
        version = int(conn.execute(
            "SELECT value FROM meta WHERE key = 'format_version'").fetchone()[0])
        if version == 1:
            rows = conn.execute(
                f"SELECT {', '.join(fmt.columns_of(1)[:-1])} FROM units ORDER BY unit_id").fetchall()
            conn.execute("ALTER TABLE units RENAME TO units_format_1")
            conn.execute(fmt.UNITS_TABLE)
            conn.executemany(
                f"INSERT INTO units ({', '.join(fmt.COLUMNS)}, checksum) "
                f"VALUES ({', '.join('?' * (len(fmt.COLUMNS) + 1))})",
                [(*row, fmt.row_checksum(job, row)) for row in rows])
            conn.execute("DROP TABLE units_format_1")
            conn.execute("UPDATE meta SET value = ? WHERE key = 'format_version'",
                         (str(fmt.FORMAT_VERSION),))
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                         (fmt.SEAL_KEY, fmt.format_seal(job, fmt.FORMAT_VERSION)))
            conn.execute(f"PRAGMA user_version = {fmt.FORMAT_VERSION}")
    return version


def bring_up_to_date(conn: sqlite3.Connection, path: Path, job: JobInfo, claimed: int) -> int:
    """Before a store is written: migrate a format-1 store (:func:`migrate`),
    or put the markers of a format-2 one right after re-verifying its rows
    (:func:`reseal`); the format it then has (``claimed`` as for :func:`check`)."""
    version, stale = check(conn, path, job, claimed)
    if version < fmt.FORMAT_VERSION:
        migrate(conn, path, job)
    elif stale:
        reseal(conn, path, job)
    return fmt.FORMAT_VERSION
