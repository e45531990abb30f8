"""One counting run per store: :class:`StoreLock`.

Exported by :mod:`counting.store.database` as well; it lives here because it is about
processes, not about the file format or the rows.
"""
from __future__ import annotations

import json
import os
import socket
import stat
from datetime import datetime, timezone
from pathlib import Path

from counting.store.format import StoreError, StoreRefused

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

__all__ = ["StoreLock", "StoreLockedError", "acquire_early", "holder"]

INFO_BYTES = 4096  # a lock file's description is read up to this many bytes


class StoreLockedError(StoreRefused):
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

    The lock belongs to the file, not to the name it was given, and depends
    on nothing in the environment.  It is two ``flock`` locks:

    * on ``STORE.lock`` beside the store's real path (symlinks resolved, so
      ``link.sqlite`` and ``s.sqlite`` share it, and so do hosts sharing the
      directory): it exists before the store does, so two runs that would
      create one store are one after the other;
    * on the database file itself, once it exists, so that a hard link in
      any directory is the same store, whatever ``$XDG_RUNTIME_DIR`` or
      ``$TMPDIR`` each process has (an inode lock file in a per-user
      directory named by the environment let a cron job and a login shell
      count one store at once: issue 38, item 6).  A store created after the
      lock was taken is locked by :meth:`hold_file`.  SQLite's own locks are
      POSIX ``fcntl`` locks, which on Linux are independent of ``flock``
      (not on NFS, where SQLite's WAL mode does not work anyway).

    The kernel releases an flock when the holding process ends, however it
    ends (``kill -9`` included), so a crashed run never leaves the store
    locked: the next run simply takes it.  ``STORE.lock`` holds the
    holder's pid, host, start time, what it does and the store's name, for
    messages and for :func:`holder` (what ``status`` shows) only; a holder
    met through a hard link is found by its pid (``/proc/locks``) and the
    descriptor it holds on the store (``/proc/PID/fd``).  On release the
    file is removed while still locked; a process that opened it just
    before then finds, once it gets the lock, that the path no longer names
    the file it locked, and tries again.  (Without ``fcntl``, i.e. not on
    POSIX, the lock is a no-op.)

    Release the lock only after closing this process's connections to the
    store: closing any descriptor of a file drops every POSIX lock that the
    process holds on it, SQLite's included.

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d, StoreLock.acquire(Path(d) / "s.sqlite"):
    ...     pass
    """

    def __init__(self, path: Path, fd: int | None):
        self.path = path  # the lock file beside the store's real path
        self._fd = fd
        self._files: list[tuple[tuple[int, int], int]] = []  # ((dev, inode), fd) of the store
        self._unused: list[int] = []   # descriptors of the store to close on release
        self._store: Path | None = None   # the store's path as given
        self._doing = "counted"

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
                "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "store": str(real)}
        lock = cls(path, _lock_file(path, store_path, info))
        lock._store, lock._doing = store_path, doing
        try:
            lock.hold_file()
        except BaseException:
            lock.release()
            raise
        return lock

    def hold_file(self) -> None:
        """flock the store's file too, if it exists now and is not locked by
        this lock yet (call it once a store is created, or made anew by
        ``--fresh``: a new file, a new inode).

        Raises
        ------
        StoreLockedError
            Another process holds the file (through another name: a hard link).
        """
        if self._fd is None or self._store is None:
            return
        try:
            st = os.stat(self._store)
        except OSError:
            return  # not created yet: no inode, no hard link to it either
        if not stat.S_ISREG(st.st_mode) or \
                any(key == (st.st_dev, st.st_ino) for key, _ in self._files):
            return  # a FIFO, a directory...: opening the store refuses it
        try:
            fd = os.open(self._store, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError as exc:
            raise StoreError(f"cannot lock {self._store}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            self._unused.append(fd)   # closed on release, after the caller's connections
            if isinstance(exc, BlockingIOError):
                raise StoreLockedError(_locked_message(
                    self._store, _holder_of_file(os.fstat(fd), skip=(os.getpid(), fd)),
                    self._doing)) from None
            raise StoreError(f"cannot lock {self._store}: {exc.strerror or exc}") from exc
        locked = os.fstat(fd)   # the file locked, should the name have been replaced meanwhile
        self._files.append(((locked.st_dev, locked.st_ino), fd))

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock file and release the lock (idempotent)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        files, self._files = self._files, []
        unused, self._unused = self._unused, []
        for other in [f for _, f in files] + unused:
            os.close(other)
        _unlock(self.path, fd)

    def __enter__(self) -> "StoreLock":
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()


def acquire_early(store_path: str | os.PathLike | None,
                  doing: str = "counted") -> StoreLock | None:
    """:meth:`StoreLock.acquire`, taken before a count estimates anything (a
    user is never told an estimate and then refused); None for no path, or
    when the store's directory does not exist yet (nobody holds a lock
    there: the lock is taken later, or the missing directory said)."""
    if store_path is None or not Path(store_path).absolute().parent.is_dir():
        return None
    return StoreLock.acquire(store_path, doing)


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
            found = _read_info(fd)
            os.close(fd)
            raise StoreLockedError(_locked_message(store_path, found, info["doing"])) from None
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


def _read_info(fd: int) -> dict | None:
    """A lock file's description of its holder; None when it says nothing
    readable (just created, or not written by gridcount)."""
    try:
        info = json.loads(os.pread(fd, INFO_BYTES, 0).decode() or "null")
    except (OSError, ValueError, RecursionError):
        return None
    return info if isinstance(info, dict) else None


def _locked_message(store_path: Path, info: dict | None, doing: str) -> str:
    """``STORE is being counted by another process (pid 123 on host h since
    T, as OTHER NAME); ...``, as far as ``info`` says."""
    try:
        doing = str(info.get("doing", doing))
        said = f"pid {int(info['pid'])} on host {info['host']}"
        if info.get("since"):
            said += f" since {info['since']}"
        if info.get("store") and info["store"] != os.path.realpath(store_path):
            said += f", as {info['store']}"   # through another name: a hard link
    except (ValueError, KeyError, TypeError, AttributeError):
        doing, said = "used", "pid unknown: it has just started"
    return (f"{store_path} is being {doing} by another process ({said}); wait for it "
            f"to finish or stop it (read-only commands such as status work meanwhile)")


def _holder_of_file(st: os.stat_result, skip: tuple[int, int] | None = None) -> dict | None:
    """The description of the process of this machine that flocks the file
    whose stat is ``st`` (the store itself): its pid from ``/proc/locks``,
    and, when its descriptor of the file can be seen in ``/proc/PID/fd``,
    the lock file beside the name it opened.  None when nobody holds it.
    ``skip``: (pid, fd) of a descriptor of the caller's own, not the holder's."""
    pid = (_flocked() or {}).get((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
    if pid is None:
        return None
    info = {"pid": pid, "host": socket.gethostname()}
    fd_dir = Path(f"/proc/{pid}/fd")
    try:
        entries = sorted(os.listdir(fd_dir), key=lambda n: int(n) if n.isdigit() else -1)
    except OSError:
        return info   # another user's process: its pid is all that can be said
    for name in entries:
        if skip is not None and (pid, name) == (skip[0], str(skip[1])):
            continue
        try:
            if not os.path.samestat(os.stat(fd_dir / name), st):
                continue
            opened = os.readlink(fd_dir / name)
        except OSError:
            continue
        try:
            fd = os.open(f"{opened}.lock", os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            said = _read_info(fd)
        finally:
            os.close(fd)
        if said is not None and said.get("pid") == pid:
            return said
    return info


def holder(store_path: str | os.PathLike) -> dict | None:
    """Who holds the lock of the store at ``store_path``, read without
    taking it (``status`` must never stand in a count's way): the holder's
    description (``pid``, ``host``, ``doing``, ``since``, ``store``) when a
    process of this machine holds its lock file or flocks the store itself
    (``/proc/locks`` says so: through a hard link elsewhere, only the pid
    and host may be known), or when a lock file names another host (then
    with ``"unverified": True``: a lock held there cannot be seen from
    here, and a file left by a crashed run looks the same); None when
    nobody holds it.  Creates nothing."""
    real = Path(os.path.realpath(store_path))
    held = _flocked()
    try:
        st = os.stat(real)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        found = _holder_of_file(st)
        if found is not None:
            return found
    try:
        fd = os.open(f"{real}.lock", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        lock_st = os.fstat(fd)
        info = _read_info(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    if info is None:
        return None
    if held is not None and \
            (os.major(lock_st.st_dev), os.minor(lock_st.st_dev), lock_st.st_ino) in held:
        return info
    if info.get("host") != socket.gethostname():
        return {**info, "unverified": True}
    if held is None and _alive(info.get("pid")):   # pragma: no cover - no /proc/locks
        return info
    return None


def _flocked() -> dict[tuple[int, int, int], int] | None:
    """``(major, minor, inode) -> pid`` of every file flocked on this
    machine (``/proc/locks``); None where that cannot be read."""
    try:
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:  # pragma: no cover - not Linux
        return None
    out = {}
    for line in lines:
        parts = line.split()   # "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF"
        if "FLOCK" not in parts or "->" in parts:   # "->": a waiter, not a holder
            continue
        try:
            at = parts.index("FLOCK")
            major, minor, inode = parts[at + 4].split(":")
            out[(int(major, 16), int(minor, 16), int(inode))] = int(parts[at + 3])
        except (ValueError, IndexError):
            continue
    return out


def _alive(pid) -> bool:  # pragma: no cover - only where /proc/locks is missing
    try:
        os.kill(int(pid), 0)
    except (OSError, TypeError, ValueError):
        return False
    return True
