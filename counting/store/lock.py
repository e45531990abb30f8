"""One counting run per store: :class:`StoreLock`.

Exported by :mod:`counting.store.database` as well; it lives here because it is about
processes, not about the file format or the rows.
"""
from __future__ import annotations

import json
import os
import socket
from datetime import datetime, timezone
from pathlib import Path

from counting.store.format import StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

__all__ = ["StoreLock", "StoreLockedError"]


class StoreLockedError(StoreError):
    """Another process is counting into the store (:class:`StoreLock`)."""


class StoreLock:
    """An exclusive claim on a store for one counting run.

    Two ``gridcount count`` runs on one store would both count every unit
    the store lacks (the store itself stays consistent, but the work is
    done twice).  The run therefore takes this lock first, before ``--fresh``
    deletes anything, and holds it until it ends; a second run is refused
    with a message naming the holder.  Reading a store (``status``,
    ``export``, ``recount``, ``merge`` sources) never takes it.

    The lock is an ``flock`` on the file ``STORE.lock`` beside the store.
    The kernel releases it when the holding process ends, however it ends
    (``kill -9`` included), so a crashed run never leaves the store locked:
    the next run simply takes it.  The file holds the holder's pid, host and
    start time, for the message only.  On release the file is removed while
    still locked; a process that opened it just before then finds, once it
    gets the lock, that the path no longer names the file it locked, and
    tries again.  (Without ``fcntl``, i.e. not on POSIX, the lock is a no-op.)

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d, StoreLock.acquire(Path(d) / "s.sqlite"):
    ...     pass
    """

    def __init__(self, path: Path, fd: int | None):
        self.path = path  # the lock file
        self._fd = fd

    @classmethod
    def acquire(cls, store_path: str | os.PathLike) -> "StoreLock":
        """Take the lock of the store at ``store_path`` (which need not exist yet).

        Raises
        ------
        StoreLockedError
            Another process holds it; the message names its pid and host.
        StoreError
            The lock file cannot be created (missing or read-only directory).
        """
        store_path = Path(store_path)
        path = Path(f"{store_path}.lock")
        if fcntl is None:  # pragma: no cover - not POSIX
            return cls(path, None)
        parent = path.absolute().parent
        if not parent.is_dir():
            raise StoreError(f"cannot create database {store_path}: directory {parent} does not exist")
        for _ in range(100):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise StoreError(f"cannot lock {store_path}: cannot open {path}: "
                                 f"{exc.strerror or exc}") from exc
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise StoreLockedError(
                    f"{store_path} is being counted by another process ({holder}); wait for it "
                    f"to finish or stop it (read-only commands such as status work meanwhile)"
                ) from None
            except OSError as exc:
                os.close(fd)
                raise StoreError(f"cannot lock {store_path}: {exc.strerror or exc}") from exc
            try:
                current = os.stat(path)
            except FileNotFoundError:
                current = None
            if current is not None and os.path.samestat(os.fstat(fd), current):
                lock = cls(path, fd)
                lock._describe_holder()
                return lock
            os.close(fd)  # released and removed meanwhile: take the new file
        raise StoreError(f"cannot lock {store_path}: {path} keeps being replaced")  # pragma: no cover

    def _describe_holder(self) -> None:
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        try:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, (json.dumps(info) + "\n").encode(), 0)
        except OSError:
            pass  # the description is a courtesy; the flock is the lock

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock file and release the lock (idempotent)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if os.path.samestat(os.fstat(fd), os.stat(self.path)):
                os.unlink(self.path)
        except OSError:
            pass  # gone already, or an unwritable directory: the flock still ends below
        os.close(fd)

    def __enter__(self) -> "StoreLock":
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()


def _holder(fd: int) -> str:
    """'pid 123 on host h since T' from a lock file, as far as it says."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
        return f"pid {int(info['pid'])} on host {info['host']} since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "pid unknown: it has just started"
