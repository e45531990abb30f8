"""One counting run per store: :class:`StoreLock`.

Exported by :mod:`counting.store.database` as well; it lives here because it is about
processes, not about the file format or the rows.
"""
from __future__ import annotations

import json
import os
import socket
import stat
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from counting.store.format import StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

__all__ = ["StoreLock", "StoreLockedError", "holder", "inode_lock_dir"]


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
    resolved, so ``link.sqlite`` and ``s.sqlite`` share it, and so do hosts
    sharing the directory) and, once the store exists, also on
    ``DEV-INODE.lock`` in a per-user directory that does not depend on where
    the store is (:func:`inode_lock_dir`: ``$XDG_RUNTIME_DIR/gridcount``,
    else ``gridcount-UID`` in the temporary directory), so a hard link in
    any directory of this machine is the same store.  A store created after
    the lock was taken gets its inode lock from :meth:`hold_file`.  The
    kernel releases an flock when the holding process ends, however it ends
    (``kill -9`` included), so a crashed run never leaves the store locked:
    the next run simply takes it.  The files hold the holder's pid, host,
    start time, what it does and the store's name, for messages and for
    :func:`holder` (what ``status`` shows) only.  On release each file is
    removed while still locked; a process that opened one just before then
    finds, once it gets the lock, that the path no longer names the file it
    locked, and tries again.  (Without ``fcntl``, i.e. not on POSIX, the
    lock is a no-op.)

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d, StoreLock.acquire(Path(d) / "s.sqlite"):
    ...     pass
    """

    def __init__(self, path: Path, fd: int | None, more: tuple[tuple[Path, int], ...] = ()):
        self.path = path  # the lock file beside the store's real path
        self._fd = fd
        self._more = more  # (path, fd) of the lock of the store's inode, once it exists
        self._store: Path | None = None   # the store's path as given
        self._info: dict = {}

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
        lock._store, lock._info = store_path, info
        try:
            lock.hold_file()
        except BaseException:
            lock.release()
            raise
        return lock

    def hold_file(self) -> None:
        """Take the lock of the store's inode too, if the store exists now
        and that inode's lock is not held yet (call it once a store is
        created, or made anew by ``--fresh``: a new file, a new inode)."""
        if self._fd is None or self._store is None:
            return
        try:
            st = os.stat(self._store)
        except OSError:
            return  # not created yet: no inode, no hard link to it either
        inode = _inode_lock_path(st, Path(self.path).parent)
        if all(path != inode for path, _ in self._more):
            self._more += ((inode, _lock_file(inode, self._store, self._info)),)

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


def inode_lock_dir(create: bool = True) -> Path | None:
    """The per-user directory of the inode locks (created unless not
    ``create``, mode 0700): ``$XDG_RUNTIME_DIR/gridcount`` when that is set,
    else ``gridcount-UID`` in the temporary directory; None when it cannot
    be made or is not a directory of this user's own (then the store's
    directory serves)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime) / "gridcount" if runtime and os.path.isdir(runtime) else \
        Path(tempfile.gettempdir()) / f"gridcount-{os.getuid()}"
    try:
        if create:
            base.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(base)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        return None   # a symlink or someone else's: not trusted
    return base


def _inode_lock_path(st: os.stat_result, fallback: Path, create: bool = True) -> Path:
    """The lock file of the file whose ``stat`` is ``st``."""
    where = inode_lock_dir(create)
    name = f"{st.st_dev:x}-{st.st_ino}.lock"
    return where / name if where is not None else fallback / f".gridcount-{name}"


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
            doing, holder = _holder(fd, store_path)
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


def _holder(fd: int, store_path: Path) -> tuple[str, str]:
    """What the holder does ('counted') and 'pid 123 on host h since T',
    from a lock file, as far as it says."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
        doing = str(info.get("doing", "counted"))
        said = f"pid {int(info['pid'])} on host {info['host']} since {info['since']}"
        if info.get("store") and info["store"] != os.path.realpath(store_path):
            said += f", as {info['store']}"   # through another name: a hard link
        return doing, said
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "used", "pid unknown: it has just started"


def holder(store_path: str | os.PathLike) -> dict | None:
    """Who holds the lock of the store at ``store_path``, read without
    taking it (``status`` must never stand in a count's way): the holder's
    description (``pid``, ``host``, ``doing``, ``since``, ``store``) when a
    process of this machine holds one of its lock files (``/proc/locks``
    says so), or when a lock file names another host (then with
    ``"unverified": True``: a lock held there cannot be seen from here, and
    a file left by a crashed run looks the same); None when nobody holds it.
    Creates nothing."""
    real = Path(os.path.realpath(store_path))
    files = [Path(f"{real}.lock")]
    try:
        files.append(_inode_lock_path(os.stat(real), real.parent, create=False))
    except OSError:
        pass
    held = _flocked()
    for path in files:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            info = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
        except (OSError, ValueError):
            continue
        finally:
            os.close(fd)
        if not isinstance(info, dict):
            continue
        if held is not None and (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino) in held:
            return info
        if info.get("host") != socket.gethostname():
            return {**info, "unverified": True}
        if held is None and _alive(info.get("pid")):   # pragma: no cover - no /proc/locks
            return info
    return None


def _flocked() -> set[tuple[int, int, int]] | None:
    """``(major, minor, inode)`` of every file flocked on this machine
    (``/proc/locks``); None where that cannot be read."""
    try:
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:  # pragma: no cover - not Linux
        return None
    out = set()
    for line in lines:
        parts = line.split()   # "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF"
        if "FLOCK" not in parts or "->" in parts:   # "->": a waiter, not a holder
            continue
        try:
            major, minor, inode = parts[parts.index("FLOCK") + 4].split(":")
            out.add((int(major, 16), int(minor, 16), int(inode)))
        except (ValueError, IndexError):
            continue
    return out


def _alive(pid) -> bool:  # pragma: no cover - only where /proc/locks is missing
    try:
        os.kill(int(pid), 0)
    except (OSError, TypeError, ValueError):
        return False
    return True
