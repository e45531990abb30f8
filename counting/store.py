"""A resumable SQLite store of finished work units, one database per counting job.

Why a database and not a results file: a full count runs for hours across many
processes, and it must be possible to kill it at any moment (``kill -9``
included) and carry on later without recounting what was finished and without
ever counting a unit twice.  SQLite gives us exactly that when every finished
unit is committed in its own transaction: after a crash the database holds every
unit whose ``COMMIT`` returned, complete, and nothing of the ones in flight.

The library comes first and the CLI is a thin layer over it (STYLE.md §3.1):
:class:`Store` does all the work, raises only the typed exceptions below
(§3.4), and groups writes with :meth:`Store.atomic` (§3.5).

Schema (format version 1)
-------------------------
``meta(key TEXT PRIMARY KEY, value TEXT)`` holds ``format = "gridcount-store"``,
``format_version``, and the :class:`JobInfo` fields ``shape``, ``reduction``,
``engine_version`` and ``n_units``.  The database header also carries
``PRAGMA application_id = APPLICATION_ID`` and ``PRAGMA user_version =
FORMAT_VERSION``, so a foreign SQLite file is recognised before anything is
read from it, let alone written to it.

``units`` holds one row per finished unit::

    unit_id        INTEGER PRIMARY KEY   0 <= unit_id < n_units
    class_id       INTEGER
    form_id        INTEGER
    count          TEXT    exact decimal integer (may exceed 2**64)
    nodes          TEXT    exact decimal integer (see below)
    dead_ends      TEXT    exact decimal integer
    memo_hits      TEXT    exact decimal integer
    seconds        REAL    wall-clock time of the engine run
    host           TEXT    machine that ran it
    engine_version TEXT    engine that produced it (may differ from the job's
                           when the store was opened with allow_mismatch)
    finished_at    TEXT    timestamp written by the worker

All columns are ``NOT NULL``.  [The three statistics are stored as TEXT like the
count: the engine keeps them as uint64, whose upper half does not fit SQLite's
signed 64-bit INTEGER, and a long unit of a larger shape can pass 2**63 nodes.
One representation for all four exact counters keeps the reading code simple.]
CHECK constraints make every exact counter a canonical non-negative decimal
(digits only, no leading zero), so equal numbers are equal strings.  Reading
converts them back to Python ints exactly.
"""
from __future__ import annotations

import operator
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Iterator

from counting.units import UnitResult

__all__ = [
    "APPLICATION_ID",
    "FORMAT",
    "FORMAT_VERSION",
    "ConflictError",
    "CorruptStoreError",
    "ForeignStoreError",
    "JobInfo",
    "MergeReport",
    "Store",
    "StoreError",
]

APPLICATION_ID = 0x67726964  # "grid" in ASCII: PRAGMA application_id of every gridcount store
FORMAT = "gridcount-store"  # value of meta key "format"
FORMAT_VERSION = 1  # schema version written by this module (meta "format_version", user_version)

_SQLITE_MAGIC = b"SQLite format 3\x00"  # first 16 bytes of every SQLite 3 database file
_BUSY_TIMEOUT = 30.0  # seconds a writer waits for another process's write transaction

# An exact counter column: non-empty, digits only, no leading zero.
_DECIMAL = "{0} <> '' AND {0} NOT GLOB '*[^0-9]*' AND ({0} = '0' OR {0} NOT GLOB '0*')"

_SCHEMA = f"""
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE units (
    unit_id        INTEGER PRIMARY KEY NOT NULL CHECK (unit_id >= 0),
    class_id       INTEGER NOT NULL CHECK (typeof(class_id) = 'integer'),
    form_id        INTEGER NOT NULL CHECK (typeof(form_id) = 'integer'),
    count          TEXT NOT NULL CHECK ({_DECIMAL.format("count")}),
    nodes          TEXT NOT NULL CHECK ({_DECIMAL.format("nodes")}),
    dead_ends      TEXT NOT NULL CHECK ({_DECIMAL.format("dead_ends")}),
    memo_hits      TEXT NOT NULL CHECK ({_DECIMAL.format("memo_hits")}),
    seconds        REAL NOT NULL,
    host           TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    finished_at    TEXT NOT NULL
);
"""

_COLUMNS = tuple(f.name for f in fields(UnitResult))  # units columns, in UnitResult order
_EXACT = ("count", "nodes", "dead_ends", "memo_hits")  # columns stored as decimal TEXT
_META_KEYS = ("format", "format_version", "shape", "reduction", "engine_version", "n_units")


# ---------------------------------------------------------------------------
# Exceptions: one line each, always naming the file.


class StoreError(Exception):
    """Base class of every error raised by this module."""


class ForeignStoreError(StoreError):
    """The file is not a gridcount store, or belongs to another job."""


class CorruptStoreError(StoreError):
    """The file claims to be a SQLite database / gridcount store but is damaged."""


class ConflictError(StoreError):
    """A unit was counted twice with different results.

    Attributes
    ----------
    conflicts : list of (unit_id, stored_count, new_count)
        Every disagreeing unit, sorted by unit id.
    """

    def __init__(self, message: str, conflicts: list[tuple[int, int, int]]):
        super().__init__(message)
        self.conflicts = conflicts


# ---------------------------------------------------------------------------
# Small records.


@dataclass(frozen=True)
class JobInfo:
    """What a store belongs to.

    Attributes
    ----------
    shape : str
        Box shape ``"RxC"`` (``"3x3"`` for 9×9 Sudoku).
    reduction : str
        Name of the reduction (``"71"`` or ``"44"``).
    engine_version : str
        Version of the engine that counts the units.
    n_units : int
        Number of work units of the job; unit ids are ``range(n_units)``.
    """

    shape: str
    reduction: str
    engine_version: str
    n_units: int

    def __post_init__(self):
        for name in ("shape", "reduction", "engine_version"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"JobInfo.{name} must be a non-empty str, got {value!r}")
        if isinstance(self.n_units, bool) or not isinstance(self.n_units, int) or self.n_units < 1:
            raise ValueError(f"JobInfo.n_units must be a positive int, got {self.n_units!r}")


@dataclass(frozen=True)
class MergeReport:
    """Outcome of :meth:`Store.merge_from`.

    Attributes
    ----------
    added : int
        Units copied from the other store.
    identical : int
        Units present in both stores with the same count (left unchanged).
    """

    added: int
    identical: int


# ---------------------------------------------------------------------------
# Helpers.


def _reason(exc: sqlite3.Error) -> str:
    """A short human reason for a SQLite error."""
    name = getattr(exc, "sqlite_errorname", "")  # Python >= 3.11
    text = str(exc)
    if name == "SQLITE_FULL" or "disk is full" in text:
        return "disk full"
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return "read-only database or file"
    if name.startswith("SQLITE_BUSY") or "database is locked" in text:
        return f"database is locked by another process (waited {_BUSY_TIMEOUT:g} s)"
    if name.startswith("SQLITE_IOERR") or "disk I/O error" in text:
        return "disk I/O error"
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return "unable to open the database file"
    return text


def _is_corruption(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc)
    return (
        name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
        or "malformed" in text
        or "not a database" in text
    )


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


def _row_to_result(row: tuple) -> UnitResult:
    values = dict(zip(_COLUMNS, row))
    for name in _EXACT:
        values[name] = int(values[name])
    return UnitResult(**values)


# ---------------------------------------------------------------------------
# The store.


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
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, job: JobInfo):
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.job = job

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
            The file is not a gridcount store, or is the store of another job.
        CorruptStoreError
            The file is a damaged database.
        StoreError
            The directory does not exist or the file cannot be created.
        """
        if not isinstance(job, JobInfo):
            raise TypeError(f"job must be a JobInfo, got {type(job).__name__}")
        path = Path(path)
        if not path.exists():
            parent = path.absolute().parent
            if not parent.is_dir():
                raise StoreError(f"cannot create database {path}: directory {parent} does not exist")
        _check_file_header(path, allow_empty=True)
        conn = _connect(path, "rwc")
        try:
            if _is_blank(conn, path):
                created = _initialise(conn, path, job)
                if created:
                    return cls(conn, path, job)
            stored = _read_job(conn, path)
            _check_job(path, stored, job, allow_mismatch=allow_mismatch)
            return cls(conn, path, stored)
        except BaseException:
            conn.close()
            raise

    @classmethod
    def open(cls, path: str | os.PathLike) -> "Store":
        """Open an existing store (for ``status``, ``export``, ``merge``...).

        The job is read from the database.

        Raises
        ------
        StoreError
            The file does not exist.
        ForeignStoreError
            The file is not a gridcount store.
        CorruptStoreError
            The file is a damaged database.
        """
        path = Path(path)
        if not path.exists():
            raise StoreError(f"no such database: {path}")
        _check_file_header(path, allow_empty=False)
        conn = _connect(path, "rw")
        try:
            if _is_blank(conn, path):
                raise ForeignStoreError(f"{path} is an empty SQLite database, not a gridcount store")
            return cls(conn, path, _read_job(conn, path))
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
        otherwise read them into a new database of that name.

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
            _check_deletable(path)
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
        errors become :class:`StoreError` naming the file.

        [IMMEDIATE takes the write lock up front: a deferred transaction that
        reads and then writes can fail with SQLITE_BUSY in WAL mode instead of
        waiting for the busy timeout.]
        """
        conn = self._db
        nested = conn.in_transaction
        try:
            conn.execute("SAVEPOINT gridcount" if nested else "BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._write_error(exc) from exc
        try:
            yield self
        except BaseException as exc:
            # SQLite may already have rolled back by itself (e.g. on SQLITE_FULL).
            if conn.in_transaction:
                try:
                    if nested:
                        conn.execute("ROLLBACK TO SAVEPOINT gridcount")
                        conn.execute("RELEASE SAVEPOINT gridcount")
                    else:
                        conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the original error is the one worth reporting
            if isinstance(exc, sqlite3.Error):
                raise self._write_error(exc) from exc
            raise
        try:
            conn.execute("RELEASE SAVEPOINT gridcount" if nested else "COMMIT")
        except sqlite3.Error as exc:
            if not nested and conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise self._write_error(exc) from exc

    def _write_error(self, exc: sqlite3.Error) -> StoreError:
        if _is_corruption(exc):
            return CorruptStoreError(f"{self.path} is damaged: {exc}")
        return StoreError(f"cannot write to {self.path}: {_reason(exc)}")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        conn = self._db
        try:
            yield conn
        except sqlite3.Error as exc:
            if _is_corruption(exc):
                raise CorruptStoreError(f"{self.path} is damaged: {exc}") from exc
            raise StoreError(f"cannot read {self.path}: {_reason(exc)}") from exc

    # -- writing -----------------------------------------------------------

    def record(self, result: UnitResult) -> bool:
        """Store one finished unit in its own transaction.

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
        StoreError
            The database cannot be written (disk full, read-only...).
        """
        row = self._validated_row(result)
        with self.atomic():
            stored = self._db.execute(
                "SELECT count FROM units WHERE unit_id = ?", (row[0],)
            ).fetchone()
            if stored is not None:
                if stored[0] == row[3]:
                    return False
                raise ConflictError(
                    f"unit {row[0]} in {self.path} is already recorded with count {stored[0]}, "
                    f"but the new result has count {row[3]}; recount it to find out which is right",
                    [(row[0], int(stored[0]), int(row[3]))],
                )
            self._insert(row)
        return True

    def merge_from(self, other: "Store") -> MergeReport:
        """Copy into this store every unit of ``other`` it lacks, in one transaction.

        The stores must belong to the same job in shape, reduction and
        ``n_units``; engine versions may differ (each row keeps its own).

        Raises
        ------
        ForeignStoreError
            The jobs differ.
        ConflictError
            Some units have different counts in the two stores; the error
            lists all of them and nothing is written.
        """
        if not isinstance(other, Store):
            raise TypeError(f"can only merge a Store, got {type(other).__name__}")
        differing = [
            f"{name} is {getattr(other.job, name)!r} there but {getattr(self.job, name)!r} here"
            for name in ("shape", "reduction", "n_units")
            if getattr(other.job, name) != getattr(self.job, name)
        ]
        if differing:
            raise ForeignStoreError(
                f"cannot merge {other.path} into {self.path}: they belong to different jobs ("
                + "; ".join(differing) + ")"
            )
        incoming = other.results()
        added = identical = 0
        with self.atomic():
            ours = {
                unit_id: count
                for unit_id, count in self._db.execute("SELECT unit_id, count FROM units")
            }
            conflicts = [
                (r.unit_id, int(ours[r.unit_id]), r.count)
                for r in incoming
                if r.unit_id in ours and ours[r.unit_id] != str(r.count)
            ]
            if conflicts:
                listing = ", ".join(
                    f"unit {u}: {mine} here vs {theirs} there" for u, mine, theirs in conflicts
                )
                raise ConflictError(
                    f"cannot merge {other.path} into {self.path}: {len(conflicts)} unit(s) "
                    f"disagree ({listing}); nothing was merged",
                    conflicts,
                )
            for r in incoming:
                if r.unit_id in ours:
                    identical += 1
                else:
                    self._insert(self._validated_row(r))
                    added += 1
        return MergeReport(added=added, identical=identical)

    def _validated_row(self, result: UnitResult) -> tuple:
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
        for name in _COLUMNS:
            value = getattr(result, name)
            if name == "unit_id":
                value = unit_id
            elif name in ("class_id", "form_id"):
                value = _to_exact(value, name)
            elif name in _EXACT:
                value = str(_to_exact(value, name))
            elif name == "seconds":
                value = float(value)
            elif not isinstance(value, str):
                raise TypeError(f"{name} must be a str, got {type(value).__name__}")
            row.append(value)
        return tuple(row)

    def _insert(self, row: tuple) -> None:
        self._db.execute(
            f"INSERT INTO units ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
            row,
        )

    # -- reading -----------------------------------------------------------

    def __len__(self) -> int:
        with self._reading() as conn:
            return conn.execute("SELECT count(*) FROM units").fetchone()[0]

    def done_ids(self) -> set[int]:
        """Ids of the stored units."""
        with self._reading() as conn:
            return {row[0] for row in conn.execute("SELECT unit_id FROM units")}

    def remaining_ids(self) -> list[int]:
        """Ids in ``range(job.n_units)`` not stored yet, ascending."""
        done = self.done_ids()
        return [u for u in range(self.job.n_units) if u not in done]

    def get(self, unit_id: int) -> UnitResult | None:
        """The stored result of one unit, or None."""
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM units WHERE unit_id = ?", (unit_id,)
            ).fetchone()
        return None if row is None else _row_to_result(row)

    def results(self) -> list[UnitResult]:
        """Every stored result, sorted by unit id, counters as exact ints."""
        with self._reading() as conn:
            rows = conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM units ORDER BY unit_id").fetchall()
        return [_row_to_result(row) for row in rows]


# ---------------------------------------------------------------------------
# Opening, step by step.  Nothing is written to a file before it is known to
# be a gridcount store (or a brand-new / empty database).


def _check_file_header(path: Path, *, allow_empty: bool) -> None:
    """Refuse directories and non-SQLite files before SQLite touches them."""
    if not path.exists():
        return
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file")
    try:
        with open(path, "rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not head:
        if allow_empty:
            return
        raise ForeignStoreError(f"{path} is an empty file, not a gridcount store")
    if head != _SQLITE_MAGIC:
        raise ForeignStoreError(f"{path} is not a gridcount store (not an SQLite database)")


def _check_deletable(path: Path) -> None:
    """Refuse to delete anything but a gridcount store (see :meth:`Store.delete`)."""
    _check_file_header(path, allow_empty=True)  # directories, non-SQLite files
    with open(path, "rb") as f:
        head = f.read(100)
    if not head:
        return
    app_id, n_objects = int.from_bytes(head[68:72], "big"), None
    if app_id == 0:
        # A store killed before its first checkpoint has its header only in
        # the -wal file, so ask SQLite (read-only; without a -wal the main
        # file is everything, read as immutable so no -wal/-shm is created).
        wal = Path(f"{path}-wal").exists()
        uri = f"{path.absolute().as_uri()}?mode=ro" + ("" if wal else "&immutable=1")
        try:
            conn = sqlite3.connect(uri, uri=True)
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                n_objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            finally:
                conn.close()
        except sqlite3.Error:
            pass  # unreadable: the header's word stands
    if app_id == APPLICATION_ID or (app_id == 0 and n_objects == 0):
        return
    raise ForeignStoreError(
        f"refusing to delete {path}: it is not a gridcount store (application_id {app_id})"
    )


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    """Connect in autocommit mode (transactions are explicit, see Store.atomic)."""
    uri = f"{path.absolute().as_uri()}?mode={mode}"
    try:
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=_BUSY_TIMEOUT)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {_reason(exc)}") from exc


def _set_pragmas(conn: sqlite3.Connection) -> None:
    # Durability.  WAL: a commit appends to the -wal file and readers (status)
    # never block the writer.  In WAL mode a transaction is durable against a
    # crash of the *process* (kill -9) as soon as COMMIT returns, whatever the
    # synchronous setting, because the frames are already in the OS page cache.
    # synchronous=FULL adds an fsync of the WAL per commit, so units also
    # survive a power cut or kernel panic; that costs well under a millisecond
    # per unit on a local disk, negligible next to a unit's search time, and a
    # lost unit costs the whole search time again.  (NORMAL would survive
    # kill -9 too but could lose the last units on power loss.)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


def _is_blank(conn: sqlite3.Connection, path: Path) -> bool:
    """True for a database with no schema at all (new, or killed while being created)."""
    try:
        n_objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.Error as exc:
        raise _open_error(path, exc) from exc
    return n_objects == 0 and app_id == 0


def _initialise(conn: sqlite3.Connection, path: Path, job: JobInfo) -> bool:
    """Create schema and meta in one transaction; False if another process beat us to it."""
    try:
        _set_pragmas(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                conn.execute("ROLLBACK")
                return False
            # Both pragmas write the database header and are part of the transaction.
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("format", FORMAT),
                    ("format_version", str(FORMAT_VERSION)),
                    ("shape", job.shape),
                    ("reduction", job.reduction),
                    ("engine_version", job.engine_version),
                    ("n_units", str(job.n_units)),
                ],
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.Error as exc:
        if _is_corruption(exc):
            raise CorruptStoreError(f"{path} is damaged: {exc}") from exc
        raise StoreError(f"cannot create database {path}: {_reason(exc)}") from exc
    return True


def _open_error(path: Path, exc: sqlite3.Error) -> StoreError:
    if _is_corruption(exc):
        return CorruptStoreError(f"{path} is a damaged SQLite database ({exc})")
    return StoreError(f"cannot open {path}: {_reason(exc)}")


def _read_job(conn: sqlite3.Connection, path: Path) -> JobInfo:
    """Check the markers and integrity of an existing store and return its job."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id != APPLICATION_ID or "meta" not in tables:
            raise ForeignStoreError(
                f"{path} is an SQLite database but not a gridcount store "
                f"(application_id {app_id}, tables: {', '.join(sorted(tables)) or 'none'})"
            )
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        if meta.get("format") != FORMAT:
            raise ForeignStoreError(
                f"{path} is not a gridcount store (meta format is {meta.get('format')!r})"
            )
        try:
            version = int(meta.get("format_version", ""))
        except ValueError:
            raise CorruptStoreError(f"{path} has an unreadable format_version {meta.get('format_version')!r}") from None
        if version > FORMAT_VERSION:
            raise StoreError(
                f"{path} has store format {version}, newer than this gridcount supports "
                f"({FORMAT_VERSION}); upgrade gridcount"
            )
        missing = [key for key in _META_KEYS if key not in meta]
        if missing or "units" not in tables:
            what = ", ".join([f"meta key {k!r}" for k in missing] + ([] if "units" in tables else ["table 'units'"]))
            raise CorruptStoreError(f"{path} is a damaged gridcount store (missing {what})")
        # Cheap structural check (O(size), no index cross-checks): catches torn
        # or overwritten pages before we trust or extend the file.
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise CorruptStoreError(f"{path} is a damaged SQLite database (quick_check: {problems[0]})")
        _set_pragmas(conn)
    except sqlite3.Error as exc:
        raise _open_error(path, exc) from exc
    try:
        return JobInfo(
            shape=meta["shape"],
            reduction=meta["reduction"],
            engine_version=meta["engine_version"],
            n_units=int(meta["n_units"]),
        )
    except ValueError as exc:
        raise CorruptStoreError(f"{path} has unreadable job metadata ({exc})") from None


def _check_job(path: Path, stored: JobInfo, wanted: JobInfo, *, allow_mismatch: bool) -> None:
    fixed = [n for n in ("shape", "reduction", "n_units") if getattr(stored, n) != getattr(wanted, n)]
    engine = stored.engine_version != wanted.engine_version
    if not fixed and (not engine or allow_mismatch):
        return
    names = fixed + (["engine_version"] if engine else [])
    detail = "; ".join(
        f"{n} is {getattr(stored, n)!r} in the database but {getattr(wanted, n)!r} was asked for"
        for n in names
    )
    if fixed:
        advice = (
            "use another --db for this job (shape, reduction and n_units mismatches are never allowed)"
        )
    else:
        advice = (
            "use another --db, or pass --allow-mismatch to add units counted by this engine version"
        )
    raise ForeignStoreError(f"{path} belongs to another job ({detail}); {advice}")
