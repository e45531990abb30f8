"""Files of the machine's cache directory, opened without ever waiting:
regular files only; and the manifest that checks them.

The cache directory (:func:`bandtables.cache.cache_root`) is shared by the
processes of a machine and by the people using it.  Whatever is found
where a band table, a manifest or a memo file belongs is opened with
:func:`open_regular`: a FIFO there would make a plain ``open`` wait for a
writer for ever (issue 38: ``count 1x9`` hung without a word), and a
device or a directory is not a file of ours.  The path is checked with
``stat`` and opened with ``O_NONBLOCK`` (which opening a FIFO or a device
honours, and a regular file ignores); what was opened is checked again
with ``fstat``, so something swapped in between the two is caught too.

Both caches of the package (the band tables, :mod:`bandtables.cache`, and the
kind tables, :mod:`bandtables.kind_cache`) record each directory's files in a
``manifest.json`` of one shape, read by :func:`read_manifest` (its shape
checked before anything is believed), written with :func:`file_entry`, and
each file checked against it by :func:`check_file`.  A directory is built
beside its place and moved there whole (:func:`move_into_place`), under a lock
on ``NAME.lock``; what a killed build left is removed by the next process that
takes the lock (:func:`remove_leftovers`).

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
import json
import os
import re
import shutil
import stat
from pathlib import Path

__all__ = ["NotARegularFile", "open_regular", "kind_of", "sha256_of", "remove_path",
           "DamagedTables", "MANIFEST", "read_manifest", "file_entry", "check_file",
           "remove_leftovers", "move_into_place"]

MANIFEST = "manifest.json"
_MANIFEST_MAX_BYTES = 1 << 20  # a manifest is a few hundred bytes a file: larger is damage
_SHA256 = re.compile(r"[0-9a-f]{64}")

_MODES = {"rb": os.O_RDONLY, "r+b": os.O_RDWR}
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class DamagedTables(ValueError):
    """A cache directory whose files do not match its manifest (one line)."""


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


def read_manifest(d: Path, fields: dict) -> dict[str, tuple[int, str]]:
    """``{file name: (bytes, SHA-256)}`` as the manifest of ``d`` records them,
    its shape checked before anything is believed.

    A manifest is an object of ``fields``' names, each holding the value
    ``fields`` gives (an int or a string: what the directory is), and
    ``"files": {NAME: {"bytes": B, "sha256": H}}``, each ``NAME`` the name of an
    array file of ``d`` (``*.npy``), ``B`` a whole number of bytes and ``H``
    64 hexadecimal digits.  Anything else (one changed byte in a key,
    ``"files": []``, an entry that is not an object, a FIFO in its place) is
    damage; another value of a field is a manifest of something else.

    Raises
    ------
    DamagedTables
        Naming what is wrong, in one line.
    """
    path = d / MANIFEST
    try:
        with open_regular(path) as fh:
            text = fh.read(_MANIFEST_MAX_BYTES + 1)
        if len(text) > _MANIFEST_MAX_BYTES:
            raise DamagedTables(f"{path} is too large for a manifest ({len(text):,}+ bytes)")
        manifest = json.loads(text)
    except NotARegularFile as e:
        raise DamagedTables(str(e)) from None
    except (OSError, ValueError, RecursionError) as e:
        if isinstance(e, DamagedTables):
            raise
        raise DamagedTables(f"{path} is missing or unreadable") from None
    if not isinstance(manifest, dict) or set(manifest) != {*fields, "files"}:
        raise DamagedTables(f"{path} is not a manifest (an object of "
                            f"{', '.join(fields)} and files)")
    for name, wanted in fields.items():
        got = manifest[name]
        if type(got) is not type(wanted):
            what = "a number" if isinstance(wanted, int) else "a string"
            raise DamagedTables(f"{path} has a {name} that is not {what}")
        if got != wanted:
            raise DamagedTables(f"{path} is of {name} {got!r}, not {wanted!r}")
    files = manifest["files"]
    if not isinstance(files, dict):
        raise DamagedTables(f"{path} has files that are not an object of file names")
    out = {}
    for name, entry in files.items():
        if not (name.endswith(".npy") and "/" not in name and name != ".npy"):
            raise DamagedTables(f"{path}: {name!r} is not the name of an array file")
        if not (isinstance(entry, dict) and set(entry) == {"bytes", "sha256"}
                and type(entry["bytes"]) is int and entry["bytes"] >= 0
                and isinstance(entry["sha256"], str) and _SHA256.fullmatch(entry["sha256"])):
            raise DamagedTables(f"{path}: the entry of {name!r} is not "
                                f"{{\"bytes\": a size, \"sha256\": a digest}}")
        out[name] = (entry["bytes"], entry["sha256"])
    return out


def file_entry(path: Path) -> dict:
    """The manifest's entry of the file ``path``: ``{"bytes": B, "sha256": H}``."""
    with open_regular(path) as fh:
        return {"bytes": os.fstat(fh.fileno()).st_size, "sha256": sha256_of(fh)}


def check_file(path: Path, size: int, digest: str) -> None:
    """Check the file ``path`` against its manifest's ``size`` and SHA-256 ``digest``.

    Raises
    ------
    DamagedTables
        Naming it, in one line: missing, not a regular file, or of another size
        or digest.
    """
    try:
        with open_regular(path) as fh:
            same = os.fstat(fh.fileno()).st_size == size and sha256_of(fh) == digest
    except NotARegularFile as e:
        raise DamagedTables(str(e)) from None
    except OSError:
        raise DamagedTables(f"{path} is missing") from None
    if not same:
        raise DamagedTables(f"{path} does not match its SHA-256 digest in {MANIFEST}")


def remove_leftovers(d: Path) -> None:
    """Remove what interrupted builds left beside ``d``: a build's temporary
    (``NAME.build-PID``) and a directory being replaced (``NAME.old-PID``, left
    by a kill between the two renames of :func:`move_into_place` or before its
    removal; issue 38).

    The caller holds ``NAME.lock``, and only a process holding it makes or
    removes these names, so each belongs to a build that is over: its process
    is gone, or alive and past it, or its PID has been reused meanwhile; none
    can still be in use.  The PID in the name only keeps two builds' names
    apart."""
    for stale in [*d.parent.glob(f"{d.name}.build-*"), *d.parent.glob(f"{d.name}.old-*")]:
        remove_path(stale)


def move_into_place(tmp: Path, d: Path) -> None:
    """Rename the finished directory ``tmp`` to ``d``; whatever stood at ``d``
    (a damaged directory, a file) is renamed aside to ``NAME.old-PID`` first and
    removed only once ``tmp`` is in place, so a kill leaves one or the other
    (and its leftovers for :func:`remove_leftovers`), never half of each."""
    old = None
    if d.exists() or d.is_symlink():
        old = d.parent / f"{d.name}.old-{os.getpid()}"
        d.rename(old)
    tmp.rename(d)
    if old is not None:
        remove_path(old)
