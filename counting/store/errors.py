"""What goes wrong with a store, in one line naming the file; and the one transaction helper.

The typed exceptions every store module raises (:class:`StoreError` and its
kinds), what an SQLite error becomes (:func:`reason`, :func:`store_error`,
:func:`open_error`) and :func:`transaction`, through which every write to a
store goes.  :mod:`counting.store.format` re-exports them all, and
:mod:`counting.store.database` the exceptions (the public API).
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["BUSY_TIMEOUT", "StoreError", "StoreRefused", "ForeignStoreError", "OtherJobError",
           "CorruptStoreError", "ConflictError", "reason", "is_corruption", "store_error",
           "as_store_errors", "transaction", "open_error"]

BUSY_TIMEOUT = 30.0  # seconds a writer waits for another process's write transaction


# Exceptions: one line each, always naming the file.


class StoreError(Exception):
    """Base class of every error a store raises (here and in :mod:`counting.store.database`)."""


class StoreRefused(StoreError):
    """What was given is not a store this command can take: not a store at
    all, or missing (:class:`ForeignStoreError`), another job's
    (:class:`OtherJobError`), or a store another process is counting or
    merging into (:class:`~counting.store.lock.StoreLockedError`).  The
    CLI's refusals, exit code 2, like its other refusals; a damaged store
    (:class:`CorruptStoreError`) is not one of them."""


class ForeignStoreError(StoreRefused):
    """The file is not a gridcount store (a directory, a device, a text...),
    is not there, or belongs to another job."""


class OtherJobError(ForeignStoreError):
    """The store or units export belongs to another job (shape, reduction,
    number of units, engine or kernel) than the one asked for."""


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


# SQLite errors in a few words.


def reason(exc: sqlite3.Error) -> str:
    """A short human reason for a SQLite error."""
    name = getattr(exc, "sqlite_errorname", "")  # Python >= 3.11
    text = str(exc)
    if name == "SQLITE_FULL" or "disk is full" in text:
        return "disk full"
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return "read-only database or file"
    if name.startswith("SQLITE_BUSY") or "database is locked" in text:
        return f"database is locked by another process (waited {BUSY_TIMEOUT:g} s)"
    if name.startswith("SQLITE_IOERR") or "disk I/O error" in text:
        return "disk I/O error (is the disk full?)"
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return "unable to open the database file"
    return text


def is_corruption(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc)
    return (
        name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
        or "malformed" in text
        or "not a database" in text
    )


def store_error(path: Path, exc: sqlite3.Error, doing: str) -> StoreError:
    """The error to raise for ``exc``, met on the store at ``path`` while
    ``doing`` (``f"write to {path}"``): a :class:`CorruptStoreError` if the
    file is damaged, else a :class:`StoreError` saying ``cannot {doing}``
    and why."""
    if is_corruption(exc):
        return CorruptStoreError(f"{path} is damaged: {exc}")
    return StoreError(f"cannot {doing}: {reason(exc)}")


@contextmanager
def as_store_errors(path: Path, doing: str) -> Iterator[None]:
    """Raise an SQLite error of the block as :func:`store_error` (``path``, ``doing``)."""
    try:
        yield
    except sqlite3.Error as exc:
        raise store_error(path, exc, doing) from exc


@contextmanager
def transaction(conn: sqlite3.Connection, path: Path, doing: str) -> Iterator[sqlite3.Connection]:
    """Run the block in one transaction on ``conn`` (an autocommit connection).

    At top level this is ``BEGIN IMMEDIATE`` ... ``COMMIT``; nested, a
    SAVEPOINT.  Any exception, ``KeyboardInterrupt`` included
    (``BaseException``), rolls the block back and is re-raised; SQLite
    errors as :func:`store_error` (``path``, ``doing``).  The one home of
    every transaction on a store (:meth:`counting.store.database.Store.atomic`,
    :func:`counting.store.format.initialise`, :func:`counting.store.versions.migrate`).

    [IMMEDIATE takes the write lock up front: a deferred transaction that
    reads and then writes can fail with SQLITE_BUSY in WAL mode instead of
    waiting for the busy timeout.]
    """
    nested = conn.in_transaction
    with as_store_errors(path, doing):
        conn.execute("SAVEPOINT gridcount" if nested else "BEGIN IMMEDIATE")
    try:
        yield conn
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
            raise store_error(path, exc, doing) from exc
        raise
    try:
        conn.execute("RELEASE SAVEPOINT gridcount" if nested else "COMMIT")
    except sqlite3.Error as exc:
        if not nested and conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        raise store_error(path, exc, doing) from exc


def open_error(path: Path, exc: sqlite3.Error) -> StoreError:
    if is_corruption(exc):
        return CorruptStoreError(f"{path} is a damaged SQLite database ({exc})")
    return StoreError(f"cannot open {path}: {reason(exc)}")
