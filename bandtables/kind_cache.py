"""The kind band tables and band-1 orbits built once per machine (issue 35).

:class:`bandtables.kind_tables.KindBandTables` reads two things that take long to make
and never change: each band's table (9×9: 152 MB of uint16, 40–60 s) and the band-1
orbits (9×9: 15–20 s).  Before, every worker process made the tables on its first unit,
the calling process once more for the estimate, and again on every resume; every
listing of the units (``gridcount status`` too) enumerated the orbits again.  Here each
is made once per machine, into the cache directory of the plain band tables
(:func:`bandtables.cache.cache_root`), in ``kindtables-vF`` (``F`` is :data:`FORMAT`),
and memory-mapped read-only by every process after: one copy in the page cache.

An entry is a directory ``WHAT-DIGEST`` (``DIGEST``: of the version of the method that
makes the arrays and of what they depend on, ``repr((method, key))``) holding one
``NAME.npy`` an array and ``manifest.json``: the format, the method's version, the key
written out in full, and each file's size and SHA-256.  The method's version
(:data:`bandtables.kind_tables.METHOD`) is part of what an entry is: arrays made by
another version of the code are another entry, never read as this one's (review of
issue 35: the key alone named what the arrays were made from, not by what).  The conventions are those of
:mod:`bandtables.cache`:

* **Built once.**  The build holds an ``flock`` on ``WHAT-DIGEST.lock``: other
  processes wait for it, then map the result.  It writes into ``WHAT-DIGEST.build-PID``
  and renames it into place when every file and the manifest are written, so an
  interrupted build leaves no half-made entry; what one left is removed by the next
  process that takes the lock.
* **Checked.**  Each process checks an entry's files against its manifest once, before
  anything is read.  A damaged entry (a changed byte, a truncated or missing file, a
  manifest missing, unreadable or of another shape, something other than a regular
  file) or a foreign one (another format, another key) is said in one line and made
  again; it is never believed.

Example
-------
>>> import tempfile
>>> root = tempfile.mkdtemp()
>>> made = []
>>> def build():
...     made.append(1)
...     return {"squares": np.arange(4) ** 2}
>>> cached_arrays("demo", (2, "x"), build, method=1, root=root)["squares"].tolist()
[0, 1, 4, 9]
>>> cached_arrays("demo", (2, "x"), build, method=1, root=root)["squares"].flags.writeable
False
>>> cached_arrays("demo", (2, "x"), build, method=2, root=root)["squares"].tolist(), len(made)
([0, 1, 4, 9], 2)
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

from bandtables.cache import cache_root
from bandtables.cache_files import (MANIFEST, DamagedTables, check_file, file_entry,
                                   move_into_place, read_manifest, remove_leftovers,
                                   remove_path)

__all__ = ["FORMAT", "kind_cache_path", "entry_path", "cached_arrays", "cached_entry",
           "verify_entry", "shared_here"]

#: The layout of an entry; a new one is another directory, never a misread file
#: (2: the manifest names the method's version).
FORMAT = 2

_MAPPED: dict[str, dict[str, np.ndarray]] = {}   # entries this process has checked, mapped


def kind_cache_path(root: Path | str | None = None) -> Path:
    """The directory of the kind tables' entries under ``root`` (default
    :func:`bandtables.cache.cache_root`)."""
    return Path(root if root is not None else cache_root()) / f"kindtables-v{FORMAT}"


def shared_here(root: Path | str | None = None) -> bool:
    """Whether entries can be made into this machine's cache (``root``, default
    :func:`bandtables.cache.cache_root`) and so mapped, one copy shared by every
    process: its directory, or the nearest one that exists above it, is a
    directory this process may write.  False: each process makes its own copy
    (:func:`cached_arrays`), and a memory estimate must count one a process."""
    p = kind_cache_path(root)
    while not (p.exists() or p.is_symlink()) and p.parent != p:
        p = p.parent
    return p.is_dir() and os.access(p, os.W_OK | os.X_OK)


def entry_path(what: str, key, root: Path | str | None = None, *, method: int) -> Path:
    """The directory of the entry ``what`` made by version ``method`` of its method from
    ``key`` (a ``repr``-stable value)."""
    digest = hashlib.sha256(repr((method, key)).encode()).hexdigest()[:24]
    return kind_cache_path(root) / f"{what}-{digest}"


def cached_entry(what: str, key, root: Path | str | None = None, *,
                 method: int) -> Path | None:
    """The entry's directory if it has been made (not checked), else None."""
    d = entry_path(what, key, root, method=method)
    return d if (d / MANIFEST).exists() else None


def verify_entry(d: Path, what: str, key, *, method: int) -> list[str]:
    """The array names of the entry ``d``, once every file is checked against its
    manifest and the manifest against ``what``, ``method``, ``key`` and :data:`FORMAT`
    (:func:`bandtables.cache_files.read_manifest`).

    Raises
    ------
    DamagedTables
        Naming, in one line, the first thing wrong.
    """
    files = read_manifest(d, {"format": FORMAT, "what": what, "method": method,
                              "key": repr(key)})
    for name, (size, digest) in files.items():
        check_file(d / name, size, digest)
    names = [name[:-len(".npy")] for name in files]
    path = d / MANIFEST
    if not names:
        raise DamagedTables(f"{path} lists no arrays")
    return names


def _map(d: Path, names: list[str]) -> dict[str, np.ndarray]:
    return {n: np.load(d / f"{n}.npy", mmap_mode="r", allow_pickle=False) for n in names}


def cached_arrays(what: str, key, build, *, method: int, root: Path | str | None = None,
                  say=None) -> dict[str, np.ndarray]:
    """The arrays ``build()`` returns (``{name: array}``) for ``key``, made once per
    machine into the entry ``what``/``method``/``key`` and memory-mapped read-only
    (module docstring); checked once per process.  ``method``: the version of the code
    ``build`` runs (an int), bumped whenever what it makes from ``key`` changes meaning.

    ``say`` receives the line said when a damaged or foreign entry is made again, or
    when no cache can be written here (a read-only home, a full disk: the arrays are
    then made in this process, once) (default: standard error).
    """
    say = say or (lambda msg: print(msg, file=sys.stderr, flush=True))
    if type(method) is not int:
        raise TypeError(f"method must be an int version, got {method!r}")
    d = entry_path(what, key, root, method=method)
    if str(d) not in _MAPPED:
        try:
            _MAPPED[str(d)] = _made_and_mapped(d, (what, method, key), build, say)
        except OSError as e:      # no cache can be written here: this process's own copy
            say(f"the kind tables' cache cannot be used ({e}): the {what} is made in this "
                f"process")
            _MAPPED[str(d)] = build()
    return _MAPPED[str(d)]


def _made_and_mapped(d: Path, entry: tuple, build, say) -> dict[str, np.ndarray]:
    """``entry``: ``(what, method, key)``."""
    what, method, key = entry
    d.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(d.parent / f"{d.name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)   # another process making it: wait, then map
        remove_leftovers(d)
        if d.exists() or d.is_symlink():
            try:
                return _map(d, verify_entry(d, what, key, method=method))
            except DamagedTables as e:
                say(f"the cached {what} is damaged ({e}): making it again")
        _build_into(d, entry, build)
        return _map(d, verify_entry(d, what, key, method=method))
    finally:
        os.close(fd)   # releases the flock


def _build_into(d: Path, entry: tuple, build) -> None:
    """Make the entry ``(what, method, key)`` in a temporary beside ``d`` and rename it
    into place."""
    what, method, key = entry
    tmp = d.parent / f"{d.name}.build-{os.getpid()}"
    try:
        remove_path(tmp)
        tmp.mkdir()
        files = {}
        for name, array in build().items():
            path = tmp / f"{name}.npy"
            np.save(path, np.ascontiguousarray(array), allow_pickle=False)
            files[path.name] = file_entry(path)
        (tmp / MANIFEST).write_text(json.dumps(
            {"format": FORMAT, "what": what, "method": method, "key": repr(key),
             "files": files}, indent=1))
        move_into_place(tmp, d)
    except BaseException:
        remove_path(tmp)
        raise
