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
    """An exclusive claim on a store for one counting run or one merge.

    Two ``gridcount count`` runs on one store would both count every unit
    the store lacks (the store itself stays consistent, but the work is
    done twice), and a merge that fails must not undo a target that another
    merge has meanwhile filled.  ``count`` and ``merge`` therefore take this
    lock first, before ``--fresh`` deletes anything, and hold it until they
    end; a second one is refused with a message naming the holder.  Reading
    a store (``status``, ``export``, ``recount``, ``merge`` sources) never
    takes it.

    The lock belongs to the file, not to the name it was given: it is an
    ``flock`` on ``STORE.lock`` beside the store's real path (symlinks
    resolved, so ``link.sqlite`` and ``s.sqlite`` share it) and, once the
    store exists, also on ``.gridcount-DEV-INODE.lock`` in that directory
    (so a hard link in the same directory shares it too; a hard link in
    another directory does not).  The kernel releases an flock when the
    holding process ends, however it ends (``kill -9`` included), so a
    crashed run never leaves the store locked: the next run simply takes
    it.  The files hold the holder's pid, host, start time and what it does,
    for the message only.  On release each file is removed while still
    locked; a process that opened one just before then finds, once it gets
    the lock, that the path no longer names the file it locked, and tries
    again.  (Without ``fcntl``, i.e. not on POSIX, the lock is a no-op.)

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d, StoreLock.acquire(Path(d) / "s.sqlite"):
    ...     pass
    """

    def __init__(self, path: Path, fd: int | None, more: tuple[tuple[Path, int], ...] = ()):
        self.path = path  # the lock file beside the store's real path
        self._fd = fd
        self._more = more  # (path, fd) of the lock of the store's inode, if it existed

    @classmethod
    def acquire(cls, store_path: str | os.PathLike, doing: str = "counted") -> "StoreLock":
        """Take the lock of the store at ``store_path`` (which need not exist yet).

        ``doing`` says what the holder does to the store, for the message a
        second process gets (``"counted"``, ``"merged into"``).

        Raises
        ------
        StoreLockedError
            Another process holds it; the message names its pid and host.
        StoreError
            The lock file cannot be created (missing or read-only directory).
        """
        store_path = Path(store_path)
        real = Path(os.path.realpath(store_path))
        path = Path(f"{real}.lock") if real.name else Path(f"{store_path}.lock")
        if fcntl is None:  # pragma: no cover - not POSIX
            return cls(path, None)
        parent = path.parent
        if not parent.is_dir():
            parent = store_path.absolute().parent
            raise StoreError(f"cannot create database {store_path}: directory {parent} does not exist")
        info = {"pid": os.getpid(), "host": socket.gethostname(), "doing": doing,
                "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        fd = _lock_file(path, store_path, info)
        try:
            st = os.stat(real)
        except OSError:
            return cls(path, fd)  # not created yet: no inode, no hard link to it either
        inode = parent / f".gridcount-{st.st_dev:x}-{st.st_ino}.lock"
        try:
            return cls(path, fd, ((inode, _lock_file(inode, store_path, info)),))
        except BaseException:
            _unlock(path, fd)
            raise

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock files and release the lock (idempotent)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        more, self._more = self._more, ()
        for path, other in more:
            _unlock(path, other)
        _unlock(self.path, fd)

    def __enter__(self) -> "StoreLock":
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()


def _lock_file(path: Path, store_path: Path, info: dict) -> int:
    """flock the lock file ``path`` of the store ``store_path``; its fd."""
    for _ in range(100):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot lock {store_path}: cannot open {path}: "
                             f"{exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            doing, holder = _holder(fd)
            os.close(fd)
            raise StoreLockedError(
                f"{store_path} is being {doing} by another process ({holder}); wait for it "
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
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
            except OSError:
                pass  # the description is a courtesy; the flock is the lock
            return fd
        os.close(fd)  # released and removed meanwhile: take the new file
    raise StoreError(f"cannot lock {store_path}: {path} keeps being replaced")  # pragma: no cover


def _unlock(path: Path, fd: int) -> None:
    try:
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            os.unlink(path)
    except OSError:
        pass  # gone already, or an unwritable directory: the flock still ends below
    os.close(fd)


def _holder(fd: int) -> tuple[str, str]:
    """What the holder does ('counted') and 'pid 123 on host h since T',
    from a lock file, as far as it says."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
        doing = str(info.get("doing", "counted"))
        return doing, f"pid {int(info['pid'])} on host {info['host']} since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "used", "pid unknown: it has just started"
