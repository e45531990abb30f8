"""The on-disk format of a gridcount store, and the checks that recognise one.

:mod:`counting.store.database` is the library to use (:class:`~counting.store.database.Store`);
this module is its lower half: the schema and header markers, the job a
store belongs to (:class:`JobInfo`), and the steps that look at a file
before anything trusts it, let alone writes to it (``check_file_header``,
``is_blank``, ``read_job``, ``check_job``, ``check_deletable``), that create
a store (``initialise``), and the checksum every unit row carries
(``row_checksum``).  The typed exceptions and the one transaction helper
every write goes through (``transaction``, with ``store_error`` for what
SQLite errors become) are :mod:`counting.store.errors`'s, re-exported here.

Schema (format version 2)
-------------------------
``meta(key TEXT PRIMARY KEY, value TEXT)`` holds ``format = "gridcount-store"``,
``format_version``, ``format_seal`` (:func:`format_seal`: the format the store
was written in, checksummed; see :mod:`counting.store.versions`), the :class:`JobInfo`
fields ``shape``, ``reduction``, ``engine_version`` and ``n_units``, and for a
kind-file kind its rules (``kind_rules``, :mod:`counting.store.kinds`).  The header also carries
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
    worker         TEXT    worker process that counted it ('' if unknown)
    checksum       TEXT    row_checksum of the row within its job (16 hex digits)

All columns are ``NOT NULL``.  [The three statistics are stored as TEXT like the
count: the engine keeps them as uint64, whose upper half does not fit SQLite's
signed 64-bit INTEGER, and a long unit of a larger shape can pass 2**63 nodes.
One representation for all four exact counters keeps the reading code simple.]
CHECK constraints make every exact counter a canonical non-negative decimal
(digits only, no leading zero), so equal numbers are equal strings.  Reading
converts them back to Python ints exactly.

The checksum
------------
``checksum`` is the first 64 bits (16 hex digits) of the SHA-256 of every
other column of the row together with the job's ``shape``, ``reduction`` and
``n_units`` (:func:`row_checksum`).  Every read checks it, so a row that was
damaged on disk, or edited by hand (one digit of a count), is refused with a
message naming its unit instead of silently giving a wrong total.  It guards
against accidents, not against an adversary: anyone who can edit the file
can recompute the checksum (it is not keyed).  A row copied into another
store of the same job (``merge``) keeps a valid checksum; a row moved into a
store of another job does not.

Format history
--------------
1. The columns above up to ``finished_at``.
2. Adds ``worker`` and ``checksum``.  :func:`counting.store.versions.migrate`
   upgrades a version-1 store when it is opened for writing, in one
   transaction, by computing the checksums of its rows as they are: the
   migration vouches for the rows it finds (the CHECK constraints were their
   only guard until then), it cannot tell whether one was edited earlier.
   Read-only opening leaves a version-1 store as it is and reads its rows
   unchecked.  Only a store that is format 1 in every marker is
   (:mod:`counting.store.versions`): editing ``format_version`` switches no
   checksum off.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, fields
from pathlib import Path

from counting.store.errors import (BUSY_TIMEOUT, ConflictError, CorruptStoreError,
                                   ForeignStoreError, OtherJobError, StoreError, StoreRefused,
                                   as_store_errors, is_corruption, open_error, reason,
                                   store_error, transaction)
from counting.store.foreign import not_a_store_line
from counting.units import UnitResult

__all__ = [
    "APPLICATION_ID", "FORMAT", "FORMAT_VERSION", "SQLITE_MAGIC", "BUSY_TIMEOUT",
    "COLUMNS", "EXACT", "META_KEYS", "CHECKSUM_DIGITS",
    "StoreError", "ForeignStoreError", "CorruptStoreError", "ConflictError", "JobInfo",
    "StoreRefused", "OtherJobError",
    "reason", "is_corruption", "store_error", "as_store_errors", "transaction",
    "open_error", "check_file_header", "check_deletable", "connect",
    "connect_read_only", "set_pragmas", "is_blank", "initialise", "read_job", "check_job",
    "row_checksum", "columns_of", "SEAL_KEY", "format_seal", "quick_check_line",
]

APPLICATION_ID = 0x67726964  # "grid" in ASCII: PRAGMA application_id of every gridcount store
FORMAT = "gridcount-store"  # value of meta key "format"
FORMAT_VERSION = 2  # schema version written by this module (meta "format_version", user_version)

SQLITE_MAGIC = b"SQLite format 3\x00"  # first 16 bytes of every SQLite 3 database file

# An exact counter column: non-empty, digits only, no leading zero.
_DECIMAL = "{0} <> '' AND {0} NOT GLOB '*[^0-9]*' AND ({0} = '0' OR {0} NOT GLOB '0*')"

CHECKSUM_DIGITS = 16  # hex digits of SHA-256 kept in the checksum column (64 bits)

META_TABLE = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
)"""

UNITS_TABLE = f"""
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
    finished_at    TEXT NOT NULL,
    worker         TEXT NOT NULL DEFAULT '',
    checksum       TEXT NOT NULL CHECK (length(checksum) = {CHECKSUM_DIGITS}
                                        AND checksum NOT GLOB '*[^0-9a-f]*')
)"""

COLUMNS = tuple(f.name for f in fields(UnitResult))  # units columns but checksum, in UnitResult order
EXACT = ("count", "nodes", "dead_ends", "memo_hits")  # columns stored as decimal TEXT
META_KEYS = ("format", "format_version", "shape", "reduction", "engine_version", "n_units")


# The job a store belongs to.


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


# Opening, step by step.  Nothing is written to a file before it is known to
# be a gridcount store (or a brand-new / empty database).


def check_file_header(path: Path, *, allow_empty: bool) -> None:
    """Refuse directories and non-SQLite files before SQLite touches them."""
    if not path.exists():
        return
    if path.is_dir():
        raise ForeignStoreError(f"{path} is a directory, not a database file")
    if not path.is_file():  # opening a FIFO would wait for a writer for ever
        raise ForeignStoreError(f"{path} is not a regular file (a FIFO, device or socket), "
                                f"not a database file")
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not head:
        if allow_empty:
            return
        raise ForeignStoreError(f"{path} is an empty file, not a gridcount store")
    if head != SQLITE_MAGIC:
        raise ForeignStoreError(f"{path} is not a gridcount store (not an SQLite database)")


def check_deletable(path: Path) -> None:
    """Refuse to delete anything but a gridcount store (see :meth:`Store.delete`)."""
    check_file_header(path, allow_empty=True)  # directories, non-SQLite files
    with open(path, "rb") as f:
        head = f.read(100)
    if not head:
        return
    app_id, n_objects = int.from_bytes(head[68:72], "big"), None
    if app_id == 0:
        # A store killed before its first checkpoint has its header only in
        # the -wal file, so ask SQLite (read-only; without a -wal the main
        # file is everything, read as immutable so no -wal/-shm is created).
        try:
            conn = connect_read_only(path)
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                n_objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            finally:
                conn.close()
        except (sqlite3.Error, StoreError):
            pass  # unreadable: the header's word stands
    if app_id == APPLICATION_ID or (app_id == 0 and n_objects == 0):
        return
    raise ForeignStoreError(
        f"refusing to delete {path}: it is not a gridcount store (application_id {app_id})"
    )


def connect(path: Path, mode: str) -> sqlite3.Connection:
    """Connect in autocommit mode (transactions are explicit, see Store.atomic)."""
    uri = f"{path.absolute().as_uri()}?mode={mode}"
    try:
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {reason(exc)}") from exc


def connect_read_only(path: Path) -> sqlite3.Connection:
    """Connect for reading only, creating nothing beside the file.

    Without a ``-wal`` file no connection is writing the store (SQLite
    removes it when the last one closes, and a crash leaves it), so the
    main file is the whole store: it is opened ``immutable``, which needs
    neither a ``-shm`` file nor a writable directory, so stores on read-only
    media can be read.  With a ``-wal`` file (a count running, or one killed)
    the units in it are read through SQLite's shared-memory index, which
    needs the ``-shm`` file to exist or to be creatable.

    [immutable means "without locks": a writer that starts while this
    connection reads could checkpoint under it.  The read commands read
    everything they need at once, in milliseconds; a torn read shows up as a
    damaged page or a checksum mismatch, never as a silently wrong count.]
    """
    wal = Path(f"{path}-wal").is_file()
    uri = f"{path.absolute().as_uri()}?mode=ro" + ("" if wal else "&immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {reason(exc)}") from exc
    if wal:
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            if is_corruption(exc) or not reason(exc).startswith("unable to open"):
                raise open_error(path, exc) from exc
            raise StoreError(
                f"cannot read {path}: its -wal file holds units not yet in the main file, and "
                f"reading them needs {path.name}-shm beside it, which cannot be created there "
                f"(read-only media?); copy the store with its -wal file to a writable directory"
            ) from exc
    return conn


def set_pragmas(conn: sqlite3.Connection) -> None:
    # Durability.  WAL: a commit appends to the -wal file and readers (status)
    # never block the writer; a COMMIT that returned survives kill -9 whatever
    # the synchronous setting.  synchronous=FULL adds an fsync of the WAL per
    # commit, so units also survive a power cut (well under a millisecond per
    # unit, negligible next to its search time; NORMAL could lose the last
    # units on power loss).
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


def is_blank(conn: sqlite3.Connection, path: Path) -> bool:
    """True for a database with no schema at all (new, or killed while being created)."""
    try:
        n_objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.Error as exc:
        raise open_error(path, exc) from exc
    return n_objects == 0 and app_id == 0


def initialise(conn: sqlite3.Connection, path: Path, job: JobInfo, more=()) -> bool:
    """Create schema and meta (and ``more`` rows) in one transaction; False if beaten to it."""
    doing = f"create database {path}"
    with as_store_errors(path, doing):
        set_pragmas(conn)
    with transaction(conn, path, doing):
        if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            return False  # (committing a transaction that only read writes nothing)
        # Both pragmas write the database header and are part of the transaction.
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
        conn.execute(META_TABLE)
        conn.execute(UNITS_TABLE)
        conn.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [
                ("format", FORMAT),
                ("format_version", str(FORMAT_VERSION)),
                ("shape", job.shape),
                ("reduction", job.reduction),
                ("engine_version", job.engine_version),
                ("n_units", str(job.n_units)),
                (SEAL_KEY, format_seal(job, FORMAT_VERSION)), *more,
            ],
        )
    return True


def quick_check_line(problems: list[str]) -> str:
    """``PRAGMA quick_check``'s rows as one line: the first problem and how many
    more (a row can hold many lines, after ``*** in database main ***``)."""
    lines = [line.strip() for row in problems for line in str(row).splitlines()
             if line.strip() and not line.strip().startswith("*** in database")]
    more = len(lines) - 1
    return (lines[0] if lines else "damaged") + \
        (f"; and {more:,} more problem{'s' * (more != 1)}" if more > 0 else "")


def read_job(conn: sqlite3.Connection, path: Path, *, writable: bool = True) -> tuple[JobInfo, int]:
    """Check the markers and integrity of an existing store; return its job
    and its format version.  ``writable=False`` changes nothing in the file
    (a read-only connection)."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id != APPLICATION_ID or "meta" not in tables:
            raise ForeignStoreError(not_a_store_line(conn, path, app_id, tables))
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        if meta.get("format") != FORMAT:
            raise ForeignStoreError(
                f"{path} is not a gridcount store (meta format is {meta.get('format')!r})"
            )
        try:
            version = int(meta.get("format_version", ""))
        except ValueError:
            raise CorruptStoreError(f"{path} has an unreadable format_version {meta.get('format_version')!r}") from None
        if version < 1:
            raise CorruptStoreError(f"{path} has an unreadable format_version {version}")
        if version > FORMAT_VERSION:
            raise StoreError(
                f"{path} has store format {version}, newer than this gridcount supports "
                f"({FORMAT_VERSION}); upgrade gridcount"
            )
        missing = [key for key in META_KEYS if key not in meta]
        if missing or "units" not in tables:
            what = ", ".join([f"meta key {k!r}" for k in missing] + ([] if "units" in tables else ["table 'units'"]))
            raise CorruptStoreError(f"{path} is a damaged gridcount store (missing {what})")
        # Cheap structural check (O(size), no index cross-checks): catches torn
        # or overwritten pages before we trust or extend the file.
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise CorruptStoreError(f"{path} is a damaged SQLite database "
                                    f"(quick_check: {quick_check_line(problems)})")
        if writable:
            set_pragmas(conn)
    except sqlite3.Error as exc:
        raise open_error(path, exc) from exc
    try:
        job = JobInfo(
            shape=meta["shape"],
            reduction=meta["reduction"],
            engine_version=meta["engine_version"],
            n_units=int(meta["n_units"]),
        )
        return job, version
    except ValueError as exc:
        raise CorruptStoreError(f"{path} has unreadable job metadata ({exc})") from None


def check_job(path: Path, stored: JobInfo, wanted: JobInfo, *, allow_mismatch: bool) -> None:
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
    raise OtherJobError(f"{path} belongs to another job ({detail}); {advice}")


# Row checksums and the format seal.


def row_checksum(job: JobInfo, row) -> str:
    """The checksum of one ``units`` row of a store of ``job``.

    ``row`` holds the values of :data:`COLUMNS` in that order, as stored:
    ``unit_id``, ``class_id``, ``form_id`` as ints, the :data:`EXACT`
    counters as decimal strings, ``seconds`` as a float, the rest as strings.
    The job's ``shape``, ``reduction`` and ``n_units`` are hashed with them
    (not its ``engine_version``: each row names its own, and stores of one
    job with different engines can be merged).  The encoding is a JSON
    array, which separates the fields unambiguously and writes a float so
    that it reads back exactly.  SHA-256 cut to :data:`CHECKSUM_DIGITS` hex
    digits: it detects damage and hand edits, it is no defence against
    someone who edits the row and recomputes this function.

    Example
    -------
    >>> job = JobInfo("2x2", "moves", "v", 2)
    >>> row = (0, 0, 0, "2", "9", "1", "0", 0.5, "host", "v", "2026-01-01T00:00:00+00:00", "")
    >>> len(row_checksum(job, row)), row_checksum(job, row) == row_checksum(job, list(row))
    (16, True)
    """
    text = json.dumps(["gridcount-unit", job.shape, job.reduction, job.n_units, *row],
                      ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:CHECKSUM_DIGITS]


SEAL_KEY = "format_seal"  # meta key of the format a store was written in


def format_seal(job: JobInfo, version: int) -> str:
    """``"VERSION:CHECKSUM"``: the store format ``version`` of a store of
    ``job``, with a checksum of both, kept in meta beside ``format_version``
    so that a format row edited downwards is noticed."""
    text = json.dumps(["gridcount-format", job.shape, job.reduction, job.n_units, version])
    return f"{version}:{hashlib.sha256(text.encode()).hexdigest()[:CHECKSUM_DIGITS]}"


def columns_of(version: int) -> tuple[str, ...]:
    """SELECT expressions giving :data:`COLUMNS` then the checksum, for a
    store of format ``version`` (version 1 has no worker and no checksum:
    they read as ``''`` and NULL)."""
    if version >= 2:
        return (*COLUMNS, "checksum")
    return tuple("'' AS worker" if c == "worker" else c for c in COLUMNS) + ("NULL AS checksum",)
