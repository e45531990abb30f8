"""The files a command writes: checked before anything is written, then
written all at once or not at all.

Every command that writes a file (``export``, ``report``, ``verify
--report``; ``merge`` for its target store) first calls
:func:`check_outputs` with what it reads and what it will write, and then
writes text through :func:`write_atomic`.  The check exists because an
output named like an input (``gridcount export s.sqlite --csv s.sqlite``)
used to replace the store it had just read, hours of counting gone.

Refused, before anything is written, with one line naming the file:

* an output that *is* an input: the same file by device and inode, whatever
  the spelling (a symlink, a hard link, ``./``), or an input's ``-wal`` or
  ``-shm`` file;
* an output that is a directory, a device, a FIFO or a socket (writing to a
  FIFO blocks for ever; to ``/dev/sda`` is worse), or that lies under
  ``/proc``, ``/sys`` or ``/dev``;
* an output that is an SQLite database (a gridcount store): text outputs
  never replace a store, even one that this command does not read;
* two outputs that are one file (``--csv x --summary x``);
* an output whose directory does not exist.

:func:`write_atomic` writes each file to a temporary beside it and renames
them into place only when all are complete; on any failure (full disk,
unwritable directory, Ctrl-C) every temporary is removed and the old files
are left as they were.  Errors are :class:`OutputError`, one line.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Iterable, Mapping

__all__ = ["OutputError", "OutputRefused", "check_outputs", "write_atomic", "why_not_written"]

SQLITE_MAGIC = b"SQLite format 3\x00"  # first 16 bytes of every SQLite 3 database
PSEUDO_FILE_SYSTEMS = ("/proc", "/sys", "/dev")  # kernel interfaces, never a place for results


class OutputError(Exception):
    """An output that could not be written; one line naming it."""


class OutputRefused(OutputError):
    """An output that must not be written (the input, a device...); one line naming it."""


def why_not_written(exc: OSError) -> str:
    """A short reason for a failed write: ``disk full`` for ENOSPC and EDQUOT."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full ({exc.strerror or os.strerror(exc.errno)})"
    return exc.strerror or str(exc)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def _input_files(inputs: Iterable) -> list[tuple[Path, os.stat_result]]:
    """Every existing file of ``inputs`` with its stat, a store's -wal and -shm included."""
    found = []
    for given in inputs:
        if given is None:
            continue
        for p in (Path(given), Path(f"{given}-wal"), Path(f"{given}-shm")):
            try:
                found.append((Path(given), os.stat(p)))
            except OSError:
                continue
    return found


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def check_outputs(inputs: Iterable, outputs: Iterable) -> None:
    """Refuse outputs that must not be written (see the module docstring).

    Parameters
    ----------
    inputs : iterable of path-like or None
        What the command reads (stores, export files); ``None`` is skipped.
    outputs : iterable of path-like or None
        What it will write; ``None`` is skipped.

    Raises
    ------
    OutputRefused
        One line naming the output and why it must not be written.
    OutputError
        Its directory does not exist.
    """
    read = _input_files(inputs)
    seen: list[tuple[Path, str, os.stat_result | None]] = []
    for given in outputs:
        if given is None:
            continue
        path = Path(given)
        real = os.path.realpath(path)
        if any(real == top or real.startswith(top + os.sep) for top in PSEUDO_FILE_SYSTEMS):
            raise OutputRefused(f"refusing to write {path}: {real.split(os.sep)[1]} is a kernel "
                              f"file system, not a place for files")
        st = _stat(path)
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                raise OutputRefused(f"refusing to write {path}: it is a directory")
            if not stat.S_ISREG(st.st_mode):
                raise OutputRefused(f"refusing to write {path}: it is not a regular file "
                                  f"(a device, FIFO or socket)")
            for source, sst in read:
                if os.path.samestat(st, sst):
                    raise OutputRefused(f"refusing to write {path}: it is {source}, which this "
                                      f"command reads; name another output file")
            if _is_sqlite(path):
                raise OutputRefused(f"refusing to write {path}: it is an SQLite database "
                                  f"(a gridcount store?), not an output file")
        for other, other_real, other_st in seen:
            if real == other_real or (st and other_st and os.path.samestat(st, other_st)):
                raise OutputRefused(f"refusing to write {path}: it is also named as another "
                                  f"output ({other}); give each output its own file")
        seen.append((path, real, st))
        parent = path.absolute().parent
        if not parent.exists():
            raise OutputError(f"cannot write {path}: directory {parent} does not exist")
        if not parent.is_dir():
            raise OutputError(f"cannot write {path}: Not a directory ({parent} is a file)")


def write_atomic(files: Mapping) -> None:
    """Write ``{path: text or bytes}``: all files, or none.

    Each is written to a temporary beside it, flushed to disk, and renamed
    into place once every one is complete.  On any failure every temporary
    is removed, and the files written are the old ones (a failure between
    two renames leaves the first file new; the renames cannot run out of
    space).

    Raises
    ------
    OutputError
        ``cannot write PATH: REASON`` (``disk full`` for ENOSPC).
    """
    written: dict[Path, Path] = {}
    try:
        for given, data in files.items():
            path = Path(given)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            blob = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                written[path] = tmp
                try:
                    view = memoryview(blob)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as exc:
                raise OutputError(f"cannot write {path}: {why_not_written(exc)}") from None
        for path, tmp in written.items():
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise OutputError(f"cannot write {path}: {why_not_written(exc)}") from None
    except BaseException:
        for tmp in written.values():
            try:
                tmp.unlink()
            except OSError:
                pass  # renamed already
        raise
