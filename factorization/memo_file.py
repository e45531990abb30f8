"""The kernel's memo table in a file: shared by the processes of a machine,
kept from one run (and sitting) to the next.

A file ``factor-memo-canonC-layoutL-nN-SLOTS.bin`` in the cache directory
(``$XDG_CACHE_HOME/gridcount``, as :func:`bandtables.cache.cache_root`) is
a header of :data:`HEADER_BYTES` and ``SLOTS`` (a power of two) slots of
the kernel's memo (``_memo.h``), mapped ``MAP_SHARED`` by every process
that counts graphs of ``N + N`` vertices.  Its name and its header say what
it belongs to: the canonical form's version ``C`` (the key of a slot is a
canonical form), the slot layout ``L``, ``N`` and the number of slots; a file
whose header differs in any of these, or whose header checksum fails, or
that is not a regular file (a FIFO is never waited on), is refused
(:class:`MemoFileError`, one line) and never read.  The count of claimed
slots in the header (at ``COUNT_OFFSET``) is added to by every process, so
no checksum covers it: one that cannot be right is counted again from the
slots when the file is opened (:func:`check_count`).

Safety of the slots is the kernel's: insert-only, a slot claimed by
compare-and-swap, its key, value and checksum written before it is
published by a release store, and believed only after an acquire load and
a matching checksum (its index included), so a slot torn by a crash or
damaged on disk is recomputed, never used.  The table is bounded: at 3/4
full further results are computed and not stored.  Every block of the
file is reserved on the disk when it is made (``posix_fallocate``): a
sparse file would take its blocks as slots are written, and a process
writing a slot when the disk has filled meanwhile would die of SIGBUS.  A
disk without room for all of it gets no file (:class:`NoRoomForMemo`).  It
is made under a temporary name, which a process killed meanwhile leaves
behind: the next process to open a memo file of the directory removes it
(:func:`remove_stale_temporaries`).

Example
-------
>>> import tempfile, numpy as np
>>> from factorization._kernel import Kernel
>>> d = tempfile.mkdtemp()
>>> memo = open_memo(5, 1.0, directory=d)
>>> k = Kernel(5, memo_buffer=memo.buffer)
>>> k.count(np.full(5, 31, dtype=np.uint32), 5), k.stats()["entries"] > 0
(161280, True)
>>> memo.path.name
'factor-memo-canon2-layout1-n5-16384.bin'
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import mmap
import os
import stat
import struct
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bandtables.cache import cache_root
from bandtables.cache_files import NotARegularFile, open_regular
from factorization._kernel import (CANON_VERSION, COUNT_OFFSET, HEADER_BYTES, SLOT_BYTES,
                                   recount_claimed)

__all__ = ["MemoFile", "MemoFileError", "NoRoomForMemo", "open_memo", "reserve", "refusal",
           "memo_path", "slots_for", "describe", "check_count", "remove_stale_temporaries", "LAYOUT",
           "HEADER_BYTES", "COUNT_OFFSET"]

LAYOUT = 1                  # the header and slot layout of this module and _memo.h
KEY_WORDS = 4               # 64-bit words of a canonical key
_MAGIC = b"gridcount factorization memo\n\0\0\0"
_FIELDS = struct.Struct("<32sIIIIIQ")   # magic, layout, slot bytes, key words, canon, n, slots
_DIGEST_BYTES = 16
_SAMPLE = 4096              # slots read to check the count of claimed slots against
_SLACK = 0.05               # the count and the sample may differ by this share of the slots
_STALE_SECONDS = 3600       # an unlocked temporary older than this is a dead process's


class MemoFileError(ValueError):
    """A memo file that is not this kernel's (another version, ``n``, layout
    or size, or a damaged header): not read."""


class NoRoomForMemo(OSError):
    """The disk has no room for a memo file of its full size: nothing made
    (one line naming the file and its size)."""


@dataclass(frozen=True)
class MemoFile:
    """A mapped memo file: ``buffer`` (the whole file, for the kernel),
    ``path``, ``slots``, whether this call ``created`` it, and whether it
    found the count of claimed slots wrong and ``recounted`` them
    (:func:`check_count`)."""

    path: Path
    slots: int
    buffer: mmap.mmap
    created: bool
    recounted: tuple[int, int] | None = None   # (count found, slots claimed) when corrected

    @property
    def mib(self) -> float:
        """Size of the file in MiB."""
        return (HEADER_BYTES + self.slots * SLOT_BYTES) / 2**20


def slots_for(memo_mb: float) -> int:
    """The slots of a table of at most ``memo_mb`` MiB: the largest power of
    two that fits (at least 1), as the private table's."""
    slots = 1
    while slots * 2 * SLOT_BYTES <= memo_mb * 2**20:
        slots *= 2
    return slots


def memo_path(n: int, memo_mb: float, directory: str | os.PathLike | None = None) -> Path:
    """Where the memo file of ``n`` with a table of ``memo_mb`` MiB lives."""
    where = Path(directory) if directory is not None else cache_root()
    return where / f"factor-memo-canon{CANON_VERSION}-layout{LAYOUT}-n{n}-{slots_for(memo_mb)}.bin"


def _header(n: int, slots: int) -> bytes:
    fields = _FIELDS.pack(_MAGIC, LAYOUT, SLOT_BYTES, KEY_WORDS, CANON_VERSION, n, slots)
    return fields + hashlib.sha256(fields).digest()[:_DIGEST_BYTES]


def _check_header(path: Path, head: bytes, n: int, slots: int, size: int) -> None:
    """Raise :class:`MemoFileError` naming the first thing that is not ours."""
    if len(head) < _FIELDS.size + _DIGEST_BYTES or not head.startswith(_MAGIC):
        raise MemoFileError(f"{path} is not a gridcount memo file; not read")
    fields = head[:_FIELDS.size]
    if hashlib.sha256(fields).digest()[:_DIGEST_BYTES] != \
            head[_FIELDS.size:_FIELDS.size + _DIGEST_BYTES]:
        raise MemoFileError(f"{path}: its header is damaged; not read")
    _, layout, slot_bytes, words, canon, n_, slots_ = _FIELDS.unpack(fields)
    for what, got, want in (("slot layout", layout, LAYOUT), ("slot size", slot_bytes, SLOT_BYTES),
                            ("key words", words, KEY_WORDS),
                            ("canonical form version", canon, CANON_VERSION),
                            ("n", n_, n), ("slots", slots_, slots),
                            ("size in bytes", size, HEADER_BYTES + slots * SLOT_BYTES)):
        if got != want:
            raise MemoFileError(f"{path} is a memo file of {what} {got}, not {want}; not read")


def _allocate(f, size: int, path: Path) -> None:
    """Reserve all ``size`` bytes of the open file ``f`` on its disk
    (zeros); :class:`NoRoomForMemo` naming ``path`` when there is no room.
    Where ``posix_fallocate`` is missing the file is left sparse."""
    if not hasattr(os, "posix_fallocate"):   # pragma: no cover - not on Linux
        f.truncate(size)
        return
    try:
        os.posix_fallocate(f.fileno(), 0, size)
    except OSError as e:
        if e.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        raise NoRoomForMemo(f"no room for the memo file {path}: its {size / 2**20:,.0f} MiB "
                            f"({size:,} bytes) cannot be reserved on the disk "
                            f"({e.strerror})") from None


def _temporary(path: Path, pid: int) -> Path:
    """The name under which process ``pid`` makes the memo file ``path``."""
    return path.with_name(f".{path.name}.{pid}.tmp")


def _create(path: Path, n: int, slots: int) -> bool:
    """Make the file (header, then zeros, every block reserved) unless it
    exists: written under a temporary name and linked into place, so nobody
    maps half a header; True when this call made it.  The temporary is
    ``flock``-ed from its creation until it is gone, so that
    :func:`remove_stale_temporaries` knows it is in use."""
    size = HEADER_BYTES + slots * SLOT_BYTES
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary(path, os.getpid())
    tmp.unlink(missing_ok=True)      # a dead process's of this PID: not in use
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with os.fdopen(fd, "r+b", closefd=False) as f:
            f.write(_header(n, slots))
            f.flush()
            _allocate(f, size, path)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        tmp.unlink(missing_ok=True)  # before the lock goes with the descriptor
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:          # another user's process
        return True
    except (OverflowError, OSError):
        return False
    return True


def remove_stale_temporaries(directory: str | os.PathLike) -> list[Path]:
    """Remove the temporaries of memo files (``.NAME.PID.tmp``, all of
    :data:`HEADER_BYTES` plus the slots reserved on the disk) that their
    processes left when killed while making them (issue 38: 64 MiB each,
    hidden, for ever); return those removed.

    A temporary is in use while its maker holds its ``flock``, which the
    kernel releases when the process dies, so one whose lock can be taken
    is left over, unless it was made an instant ago and is not yet locked.
    It is removed when its ``PID`` is not alive, or when that PID is alive
    (reused by another process since) and the file is older than an hour.
    One held by a live process is never removed, nor a file of that name
    that is not a regular file.
    """
    removed = []
    for tmp in Path(directory).glob(".factor-memo-*.bin.*.tmp"):
        pid = tmp.name.rsplit(".", 2)[-2]
        if not pid.isdigit():
            continue
        try:
            fd = os.open(tmp, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue                 # gone meanwhile, or not ours to open
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue             # its maker is at work
            if _alive(int(pid)) and time.time() - st.st_mtime < _STALE_SECONDS:
                continue             # made an instant ago, its lock about to be taken
            if os.stat(tmp).st_ino == st.st_ino:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def _plausible(buffer, slots: int) -> bool:
    """Whether the count of claimed slots at :data:`COUNT_OFFSET` of the
    mapped file ``buffer`` can be right: at most ``slots``, and within
    ``_SLACK`` of the share of not-empty slots among ``_SAMPLE`` evenly
    spaced ones (every slot of a smaller table)."""
    count = struct.unpack_from("<Q", buffer, COUNT_OFFSET)[0]
    if count > slots:
        return False
    stride = max(1, slots // _SAMPLE) * SLOT_BYTES // 4
    states = np.frombuffer(buffer, dtype="<u4", offset=HEADER_BYTES)[::stride]
    share = np.count_nonzero(states) / len(states)
    del states                       # the mapping is closed by its owner: no view may outlive it
    return abs(share - count / slots) <= _SLACK


def check_count(buffer, slots: int) -> tuple[int, int] | None:
    """Correct the count of claimed slots of a mapped memo file when it cannot
    be right (:func:`factorization._kernel.recount_claimed`); return
    ``(count found, slots claimed)`` then, None when it was plausible.

    Every process adds to the count as it claims a slot, so the header's
    checksum cannot cover it; it only says when the table is full (3/4 of
    its slots), and a wrong count is never believed: one above the slots
    (issue 38: 2^64 - 1 printed "18,446,744,073,709,551,615 classes") or
    far from a sample of the slots (a table that looked full stored
    nothing on every later run) is counted again from the slots.
    """
    return None if _plausible(buffer, slots) else recount_claimed(buffer)


def open_memo(n: int, memo_mb: float, directory: str | os.PathLike | None = None) -> MemoFile:
    """Map the memo file of ``n`` and ``memo_mb`` (:func:`memo_path`),
    making it if missing.

    Raises
    ------
    MemoFileError
        The file there is not this kernel's, or not a regular file (a FIFO
        there is never waited on): one line; it is left alone.
    NoRoomForMemo
        It is missing and the disk has no room for it (nothing made).
    OSError
        It cannot be made or mapped (no permission...).
    """
    slots = slots_for(memo_mb)
    path = memo_path(n, memo_mb, directory)
    created = reserve(n, memo_mb, directory)
    with _open_ours(path, "r+b") as f:
        size = os.fstat(f.fileno()).st_size
        _check_header(path, f.read(HEADER_BYTES), n, slots, size)
        buffer = mmap.mmap(f.fileno(), size, flags=mmap.MAP_SHARED,
                           prot=mmap.PROT_READ | mmap.PROT_WRITE)
        # Openers check the count one at a time: two recounting at once would
        # each take the damage off it.  Unlocked explicitly, since the mapping
        # keeps a duplicate of the descriptor, and with it the lock.
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            recounted = check_count(buffer, slots)
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
    return MemoFile(path, slots, buffer, created, recounted)


def _open_ours(path: Path, mode: str):
    """``path`` opened without waiting (:func:`bandtables.cache_files.open_regular`);
    :class:`MemoFileError` when it is a FIFO, a device, a directory."""
    try:
        return open_regular(path, mode)
    except NotARegularFile as e:
        raise MemoFileError(f"{e}; not read") from None


def reserve(n: int, memo_mb: float, directory: str | os.PathLike | None = None) -> bool:
    """Make the memo file of ``n`` and ``memo_mb`` (:func:`memo_path`), every
    block reserved, unless it exists; True when this call made it.
    :class:`NoRoomForMemo` (nothing made) when the disk has no room for it.
    Temporaries that killed processes left beside it are removed first
    (:func:`remove_stale_temporaries`)."""
    path = memo_path(n, memo_mb, directory)
    if path.parent.is_dir():
        remove_stale_temporaries(path.parent)
    return False if path.exists() else _create(path, n, slots_for(memo_mb))


def refusal(n: int, memo_mb: float, directory: str | os.PathLike | None = None) -> str | None:
    """Why the processes of this machine cannot share the memo file of ``n``
    and ``memo_mb`` (:func:`open_memo` would refuse it: not this kernel's,
    not a regular file, not to be opened for reading and writing), in one
    line; None when they can, or when it is missing (it is made then).

    For the process that starts the workers: it says this once, and gives
    them private tables instead of having each say it again."""
    path = memo_path(n, memo_mb, directory)
    if not path.exists():
        return None
    try:
        with _open_ours(path, "r+b") as f:
            _check_header(path, f.read(HEADER_BYTES), n, slots_for(memo_mb),
                          os.fstat(f.fileno()).st_size)
    except MemoFileError as e:
        return str(e)
    except OSError as e:
        return f"{path} cannot be opened for reading and writing ({e.strerror or e})"
    return None


def describe(n: int, memo_mb: float, directory: str | os.PathLike | None = None) -> str:
    """One line on the memo file of ``n`` and ``memo_mb``: where, how big,
    how full (its header, the count checked against a sample of its slots,
    mapped read-only; a count that cannot be right is said, not printed as
    a fill)."""
    slots = slots_for(memo_mb)
    path = memo_path(n, memo_mb, directory)
    size = f"{(HEADER_BYTES + slots * SLOT_BYTES) / 2**20:,.0f} MiB ({slots:,} slots)"
    if not path.exists():
        return f"{size}, new, shared by the workers of this machine and kept: {path}"
    why = refusal(n, memo_mb, directory)
    if why is not None:
        return f"{why}: each worker keeps its own"
    try:
        with _open_ours(path, "rb") as f:
            head = f.read(HEADER_BYTES)
            _check_header(path, head, n, slots, os.fstat(f.fileno()).st_size)
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buffer:
                plausible = _plausible(buffer, slots)
    except MemoFileError as e:
        return f"{e}: each worker keeps its own"
    except OSError as e:
        return f"{path} cannot be read ({e.strerror}): each worker keeps its own"
    entries = struct.unpack_from("<Q", head, COUNT_OFFSET)[0]
    if not plausible:
        return (f"{size}, its count of classes ({entries:,}) disagrees with its slots and "
                f"is counted again when it is opened, shared by the workers of this machine "
                f"and kept: {path}")
    return (f"{size}, {entries:,} classes ({100 * entries / slots:.1f} % full, stored up to "
            f"75 %), shared by the workers of this machine and kept: {path}")
