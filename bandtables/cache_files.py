"""Files of the machine's cache directory, opened without ever waiting:
regular files only.

The cache directory (:func:`bandtables.cache.cache_root`) is shared by the
processes of a machine and by the people using it.  Whatever is found
where a band table, a manifest or a memo file belongs is opened with
:func:`open_regular`: a FIFO there would make a plain ``open`` wait for a
writer for ever (issue 38: ``count 1x9`` hung without a word), and a
device or a directory is not a file of ours.  The path is checked with
``stat`` and opened with ``O_NONBLOCK`` (which opening a FIFO or a device
honours, and a regular file ignores); what was opened is checked again
with ``fstat``, so something swapped in between the two is caught too.

Example
-------
>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> os.mkfifo(os.path.join(d, "manifest.json"))
>>> open_regular(os.path.join(d, "manifest.json"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bandtables.cache_files.NotARegularFile: /.../manifest.json is a FIFO, not a regular file
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

__all__ = ["NotARegularFile", "open_regular", "kind_of", "sha256_of", "remove_path"]

_MODES = {"rb": os.O_RDONLY, "r+b": os.O_RDWR}
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class NotARegularFile(ValueError):
    """Something other than a regular file (a FIFO, a device, a directory)
    where a file of the cache belongs: one line naming what is there."""


def kind_of(mode: int) -> str:
    """What a ``st_mode`` is, in words ("a FIFO", "a directory"...)."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "not a file"


def _refuse_unless_regular(path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise NotARegularFile(f"{path} is {kind_of(mode)}, not a regular file")


def open_regular(path: str | os.PathLike, mode: str = "rb"):
    """``path`` opened as a binary file object (``mode`` "rb" or "r+b"), never waiting.

    Raises
    ------
    NotARegularFile
        Something else is there (one line naming it); nothing was read.
    OSError
        Nothing is there (:class:`FileNotFoundError`), or it cannot be opened.
    """
    _refuse_unless_regular(path, os.stat(path).st_mode)
    fd = os.open(path, _MODES[mode] | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        _refuse_unless_regular(path, os.fstat(fd).st_mode)   # swapped since the stat
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, mode)


def sha256_of(fh) -> str:
    """SHA-256 (hexadecimal) of what is left to read in the open binary file ``fh``."""
    h = hashlib.sha256()
    while chunk := fh.read(1 << 22):
        h.update(chunk)
    return h.hexdigest()


def remove_path(p: Path) -> None:
    """Remove ``p`` (a directory, a file or a link), whatever is in it; quietly if it is gone."""
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p, ignore_errors=True)
    else:
        p.unlink(missing_ok=True)
