"""A resumable SQLite store of finished work units, one database per counting job.

Why a database and not a results file: a full count runs for hours across many
processes, and it must be possible to kill it at any moment (``kill -9``
included) and carry on later without recounting what was finished and without
ever counting a unit twice.  SQLite gives us exactly that when finished units
are committed in transactions: after a crash the database holds every unit
whose ``COMMIT`` returned, complete, and nothing of the ones in flight.
:meth:`Store.record` commits one unit; a run commits its units in small
batches (:mod:`counting.store.batch`), one transaction each.

The library comes first and the CLI is a thin layer over it (STYLE.md §3.1):
:class:`Store` does all the work, raises only the typed exceptions below
(§3.4), and groups writes with :meth:`Store.atomic` (§3.5).

The file format (schema, header markers, row checksums) and the checks made
on a file before it is trusted live in :mod:`counting.store.format`, with
:class:`JobInfo`; the exceptions are :mod:`counting.store.errors`'s, exported here.
Merging stores of one job is :mod:`counting.store.merge` (:meth:`Store.merge_all`).

Every row read is checked (:func:`~counting.store.format.row_checksum`, and
its unit id against the job), so a damaged or hand-edited row stops the
command that reads it with a :class:`CorruptStoreError` naming the unit,
instead of giving a wrong total.  :class:`StoreLock` keeps a second
``gridcount count`` off a store that is being counted.
"""
from __future__ import annotations

import operator
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence


from counting.store import format as fmt
from counting.store import kinds, versions
from counting.store.format import (
    APPLICATION_ID,
    FORMAT,
    FORMAT_VERSION,
    ConflictError,
    CorruptStoreError,
    ForeignStoreError,
    JobInfo,
    OtherJobError,
    StoreError,
    StoreRefused,
)
from counting.store.lock import StoreLock, StoreLockedError
from counting.store.merge import MergeReport, merge_into
from counting.units import UnitResult

__all__ = [
    "APPLICATION_ID",
    "CHECKPOINT_EVERY",
    "CHECKPOINT_SECONDS",
    "FORMAT",
    "FORMAT_VERSION",
    "ConflictError",
    "CorruptStoreError",
    "ForeignStoreError",
    "JobInfo",
    "MergeReport",
    "OtherJobError",
    "Store",
    "StoreError",
    "StoreLock",
    "StoreLockedError",
    "StoreRefused",
]


# How often :meth:`Store.record` copies the -wal file into the main file (a
# passive checkpoint): after this many recorded units, or this many seconds.
# SQLite's own checkpoint waits for ~4 MB of WAL, hundreds of units; until
# then the units live in the -wal file only, and a run whose -wal file was
# deleted ("a temporary file") and that then died lost every one of them.
CHECKPOINT_EVERY = 8
CHECKPOINT_SECONDS = 30.0

# ---------------------------------------------------------------------------
# Small records and helpers.


def _to_exact(value, what: str) -> int:
    """Validate one exact non-negative counter (accepts numpy integers, not bools/floats)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, got {type(value).__name__} {value!r}") from None
    if number < 0:
        raise ValueError(f"{what} must be >= 0, got {number}")
    return number


# ---------------------------------------------------------------------------
# The store.


#: The SQLite pragmas :meth:`Store.pragma` reads or sets: none of them
#: changes what the file is (its format, its application id) or its rows.
PRAGMAS = frozenset({"page_count", "max_page_count", "query_only"})


class Store:
    """A resumable SQLite store of finished work units of one counting job.

    Open it with :meth:`create_or_open` (the ``count`` command) or :meth:`open`
    (read commands and ``merge``); do not call the constructor directly.

    Every :meth:`record` is its own transaction, so a crash at any moment
    loses at most the units in flight and never records a unit twice or half.

    Attributes
    ----------
    path : pathlib.Path
        The database file.
    job : JobInfo
        The job as stored in the database.  With ``allow_mismatch=True`` its
        ``engine_version`` may differ from the one asked for; each unit row
        carries the engine version that produced it.
    format_version : int
        The store's format: :data:`FORMAT_VERSION` once opened for writing
        (older stores are migrated then); a read-only store keeps the one it
        has (rows of format 1 carry no checksum and are read unchecked).  It
        is the format the store is in, not the one ``meta.format_version``
        claims (:mod:`counting.store.versions`).
    read_only : bool
        Opened by :meth:`open` without ``writable``: every write raises
        :class:`StoreError`.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, job: JobInfo, *,
                 format_version: int = FORMAT_VERSION, read_only: bool = False):
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.job = job
        self.format_version = format_version
        self.read_only = read_only
        self._unsaved = 0  # units recorded since the last checkpoint
        self._saved_at = time.monotonic()

    # -- opening -----------------------------------------------------------

    @classmethod
    def create_or_open(
        cls, path: str | os.PathLike, job: JobInfo, *, allow_mismatch: bool = False
    ) -> "Store":
        """Create the store for ``job`` at ``path``, or open it to resume.

        Parameters
        ----------
        path : str or path-like
            Database file.  Its directory must exist.
        job : JobInfo
            The job about to be counted.
        allow_mismatch : bool, default False
            Accept an existing store whose ``engine_version`` differs from
            ``job.engine_version``.  Shape, reduction and ``n_units`` must
            always match.

        Returns
        -------
        Store

        Raises
        ------
        ForeignStoreError
            The file is not a gridcount store; :class:`OtherJobError` (a
            subclass), it is the store of another job.
        CorruptStoreError
            The file is a damaged database.
        StoreError
            The directory does not exist or the file cannot be created.

        A store of an older format is migrated to :data:`FORMAT_VERSION`
        first (:func:`counting.store.versions.bring_up_to_date`).
        """
        if not isinstance(job, JobInfo):
            raise TypeError(f"job must be a JobInfo, got {type(job).__name__}")
        path = Path(path)
        if not path.exists():
            parent = path.absolute().parent
            if not parent.is_dir():
                raise StoreError(f"cannot create database {path}: directory {parent} does not exist")
        fmt.check_file_header(path, allow_empty=True)
        conn = fmt.connect(path, "rwc")
        try:
            if fmt.is_blank(conn, path):
                created = fmt.initialise(conn, path, job, kinds.meta_rows(path, job))
                if created:
                    store = cls(conn, path, job)
                    store.checkpoint()  # the main file is a store from the start
                    return store
            stored, claimed = fmt.read_job(conn, path)
            kinds.learn_kept(conn, path, stored)
            fmt.check_job(path, stored, job, allow_mismatch=allow_mismatch)
            versions.bring_up_to_date(conn, path, stored, claimed)
            return cls(conn, path, stored)
        except BaseException:
            conn.close()
            raise

    @classmethod
    def open(cls, path: str | os.PathLike, *, writable: bool = False) -> "Store":
        """Open an existing store; the job is read from the database.

        Read-only by default (``status``, ``export``, ``recount``, the
        sources of ``merge``): nothing is written, and nothing is created
        beside the file, so a store on read-only media can be read (see
        :func:`counting.store.format.connect_read_only`).  ``writable=True``
        (the target of ``merge``) opens it for writing and migrates an older
        format, like :meth:`create_or_open`.

        Raises
        ------
        ForeignStoreError
            The file does not exist, or is not a gridcount store.
        CorruptStoreError
            The file is a damaged database.
        """
        path = Path(path)
        if not path.exists():
            raise ForeignStoreError(f"no such database: {path}")
        fmt.check_file_header(path, allow_empty=False)
        conn = fmt.connect(path, "rw") if writable else fmt.connect_read_only(path)
        try:
            if fmt.is_blank(conn, path):
                raise ForeignStoreError(f"{path} is an empty SQLite database, not a gridcount store")
            job, claimed = fmt.read_job(conn, path, writable=writable)
            kinds.learn_kept(conn, path, job)
            if writable:
                version = versions.bring_up_to_date(conn, path, job, claimed)
            else:
                version, _ = versions.check(conn, path, job, claimed)
            return cls(conn, path, job, format_version=version, read_only=not writable)
        except BaseException:
            conn.close()
            raise

    @staticmethod
    def delete(path: str | os.PathLike) -> list[Path]:
        """Delete the store at ``path`` and its ``-wal`` and ``-shm`` files
        (``gridcount count --fresh``).

        Only a gridcount store is deleted (damaged or not), or what an
        interrupted :meth:`create_or_open` leaves: an empty file or a blank
        database.  A missing ``path`` is not an error; stray ``-wal`` and
        ``-shm`` files beside it are still removed, since SQLite would
        otherwise read them into a new database of that name.  The
        :class:`StoreLock` file is left alone (the caller holds it).

        Returns
        -------
        list of pathlib.Path
            The files removed.

        Raises
        ------
        ForeignStoreError
            The file is not a gridcount store; nothing is deleted.
        StoreError
            ``path`` is a directory, or a file cannot be read or removed.
        """
        path = Path(path)
        if path.exists():
            fmt.check_deletable(path)
        removed = []
        for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            try:
                p.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise StoreError(f"cannot delete {p}: {exc.strerror or exc}") from exc
            removed.append(p)
        return removed

    # -- lifetime ----------------------------------------------------------

    def close(self) -> None:
        """Close the connection (idempotent)."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else f"{len(self)}/{self.job.n_units} units"
        return f"<Store {str(self.path)!r} {self.job.shape}/{self.job.reduction} {state}>"

    def pragma(self, name: str, value: int | None = None) -> int | None:
        """The SQLite ``PRAGMA name`` of this store's connection, set to
        ``value`` first unless None (a test's hook: a full disk is
        ``max_page_count``, a read-only file ``query_only``).  Only the
        pragmas in :data:`PRAGMAS` are answered: others (``user_version``,
        ``application_id``...) would change what the file says it is."""
        if name not in PRAGMAS:
            raise ValueError(f"{name!r} is not one of the store's pragmas "
                             f"({', '.join(sorted(PRAGMAS))})")
        if value is not None:
            self._db.execute(f"PRAGMA {name} = {int(value)}")
        row = self._db.execute(f"PRAGMA {name}").fetchone()
        return None if row is None else row[0]

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"store {self.path} is closed")
        return self._conn

    # -- transactions ------------------------------------------------------

    @contextmanager
    def atomic(self) -> Iterator["Store"]:
        """Group writes into one transaction.

        At top level this is ``BEGIN IMMEDIATE`` ... ``COMMIT``; nested, a
        SAVEPOINT.  Any exception, ``KeyboardInterrupt`` included
        (``BaseException``), rolls the block back and is re-raised.  SQLite
        errors become :class:`StoreError` naming the file
        (:func:`counting.store.errors.transaction`).
        """
        conn = self._db
        if self.read_only:
            raise StoreError(f"cannot write to {self.path}: it was opened read-only")
        with fmt.transaction(conn, self.path, f"write to {self.path}"):
            yield self

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open on the store (False once it is closed):
        after :meth:`atomic` or a failed write, none is."""
        return self._conn is not None and self._conn.in_transaction

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        conn = self._db
        with fmt.as_store_errors(self.path, f"read {self.path}"):
            yield conn

    # -- writing -----------------------------------------------------------

    def record(self, result: UnitResult) -> bool:
        """Store one finished unit in its own transaction (inside an
        :meth:`atomic` block: in a savepoint of the block's transaction).

        Returns
        -------
        bool
            True if the unit was added; False if it was already stored with
            the same count (nothing is changed).

        Raises
        ------
        ValueError
            ``result.unit_id`` is outside ``range(job.n_units)``, or a counter
            is negative.
        ConflictError
            The unit is already stored with a different count.
        CorruptStoreError
            The unit is already stored, in a damaged row.
        StoreError
            The database cannot be written (disk full, read-only...).
        """
        row = self._validated_row(result)
        with self.atomic():
            stored = self._read_rows("WHERE unit_id = ?", (row[0],))
            if stored:
                if stored[0].count == int(row[3]):
                    return False
                raise ConflictError(
                    f"unit {row[0]} in {self.path} is already recorded with count {stored[0].count}, "
                    f"but the new result has count {row[3]}; recount it to find out which is right",
                    [(row[0], stored[0].count, int(row[3]))],
                )
            self._insert(row)
        self._unsaved += 1
        self.checkpoint_if_due()
        return True

    def checkpoint_if_due(self) -> None:
        """:meth:`checkpoint` once :data:`CHECKPOINT_EVERY` units are recorded
        or :data:`CHECKPOINT_SECONDS` have passed since the last one (called
        again after a batch's transaction, :mod:`counting.store.batch`)."""
        if (self._unsaved >= CHECKPOINT_EVERY
                or time.monotonic() - self._saved_at >= CHECKPOINT_SECONDS):
            self.checkpoint()

    def checkpoint(self) -> None:
        """Copy the committed units from the -wal file into the main file
        (a passive checkpoint: it never waits for readers).  Best effort:
        the units are committed either way, so a failure is ignored here
        and met by the next write.  Inside a transaction (a ``record`` in an
        :meth:`atomic` block) it waits for the next call."""
        if self.read_only or self._db.in_transaction:
            return
        self._unsaved, self._saved_at = 0, time.monotonic()
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass

    def merge_from(self, other: "Store") -> MergeReport:
        """Copy into this store every unit of ``other`` it lacks, in one
        transaction (:meth:`merge_all` of one store)."""
        return self.merge_all([other])[0]

    def merge_all(self, others: Sequence) -> list[MergeReport]:
        """Copy into this store every unit of ``others`` it lacks: all of
        them in one transaction, or nothing (:func:`counting.store.merge.merge_into`
        says what a source may be, what is checked first and what is raised).

        Returns
        -------
        list of MergeReport
            One per store of ``others``, in order.
        """
        return merge_into(self, others, lambda r: self._insert(self._validated_row(r)))

    def _validated_row(self, result: UnitResult) -> tuple:
        """``result`` as the values of ``fmt.COLUMNS``, checked."""
        if not isinstance(result, UnitResult):
            raise TypeError(f"expected a UnitResult, got {type(result).__name__}")
        if isinstance(result.unit_id, bool):
            raise TypeError(f"unit_id must be an int, got {result.unit_id!r}")
        try:
            unit_id = operator.index(result.unit_id)
        except TypeError:
            raise TypeError(f"unit_id must be an int, got {result.unit_id!r}") from None
        if not 0 <= unit_id < self.job.n_units:
            raise ValueError(
                f"unit_id {unit_id} outside range({self.job.n_units}) of the "
                f"{self.job.shape}/{self.job.reduction} job in {self.path}"
            )
        row = []
        for name in fmt.COLUMNS:
            value = getattr(result, name)
            if name == "unit_id":
                value = unit_id
            elif name in ("class_id", "form_id"):
                value = _to_exact(value, name)
            elif name in fmt.EXACT:
                value = str(_to_exact(value, name))
            elif name == "seconds":
                value = float(value)
            elif not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type(value).__name__}")
            row.append(value)
        return tuple(row)

    def _insert(self, row: tuple) -> None:
        self._db.execute(
            f"INSERT INTO units ({', '.join(fmt.COLUMNS)}, checksum) "
            f"VALUES ({', '.join('?' * (len(fmt.COLUMNS) + 1))})",
            (*row, fmt.row_checksum(self.job, row)),
        )

    # -- reading -----------------------------------------------------------

    def __len__(self) -> int:
        with self._reading() as conn:
            return conn.execute("SELECT count(*) FROM units").fetchone()[0]

    def done_ids(self) -> set[int]:
        """Ids of the stored units.

        Raises :class:`CorruptStoreError` if one is outside the job's range
        (the rows themselves are checked when they are read).
        """
        with self._reading() as conn:
            ids = {row[0] for row in conn.execute("SELECT unit_id FROM units")}
        for unit_id in sorted(ids):
            self._check_unit_id(unit_id)
        return ids

    def remaining_ids(self) -> list[int]:
        """Ids in ``range(job.n_units)`` not stored yet, ascending."""
        done = self.done_ids()
        return [u for u in range(self.job.n_units) if u not in done]

    def get(self, unit_id: int) -> UnitResult | None:
        """The stored result of one unit, or None (the row is checked)."""
        rows = self._read_rows("WHERE unit_id = ?", (unit_id,))
        return rows[0] if rows else None

    def results(self) -> list[UnitResult]:
        """Every stored result, sorted by unit id, counters as exact ints.

        Raises :class:`CorruptStoreError`, naming the unit, at the first
        row whose checksum does not match its fields or whose unit id is
        outside the job.
        """
        return self._read_rows("ORDER BY unit_id")

    def _read_rows(self, where: str, args: tuple = ()) -> list[UnitResult]:
        with self._reading() as conn:
            rows = conn.execute(
                f"SELECT {', '.join(fmt.columns_of(self.format_version))} FROM units {where}", args
            ).fetchall()
        return [self._checked(row) for row in rows]

    def _check_unit_id(self, unit_id) -> None:
        if not (isinstance(unit_id, int) and 0 <= unit_id < self.job.n_units):
            raise CorruptStoreError(
                f"{self.path} holds a row for unit {unit_id!r}, outside range({self.job.n_units}) "
                f"of its {self.job.shape}/{self.job.reduction} job; {_REPAIR.format(self.path, unit_id)}"
            )

    def _checked(self, row: tuple) -> UnitResult:
        """The result in ``row`` (``fmt.columns_of`` order), once checked."""
        *values, checksum = row
        unit_id = values[0]
        self._check_unit_id(unit_id)
        if self.format_version >= 2 and checksum != fmt.row_checksum(self.job, values):
            raise CorruptStoreError(
                f"unit {unit_id} in {self.path} is damaged or was edited (its checksum does not "
                f"match its fields), so it is not used; {_REPAIR.format(self.path, unit_id)}"
            )
        fields = dict(zip(fmt.COLUMNS, values))
        try:
            for name in fmt.EXACT:
                fields[name] = int(fields[name])
        except (TypeError, ValueError):
            raise CorruptStoreError(f"unit {unit_id} in {self.path} has an unreadable "
                                    f"{name} {fields[name]!r}") from None
        return UnitResult(**fields)


# How to get rid of a bad row: there is deliberately no command for it.
_REPAIR = ("to count it again, delete the row (sqlite3 {0} \"DELETE FROM units WHERE "
           "unit_id = {1}\") and run the count again")
