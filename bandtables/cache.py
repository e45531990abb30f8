"""Where the band tables live: built on first use, checked by a digest, shared.

Every table a ``patterns3`` unit reads is built once per machine, on first
use, into a cache directory, and memory-mapped read-only from there by every
process that counts, so a machine holds one copy in its page cache whatever
its number of workers:

* the 4x3 tables (:mod:`bandtables.tables4`; minutes of one core, about
  175 MiB) in ``$XDG_CACHE_HOME/gridcount/bandtables4-vF``
  (``~/.cache/gridcount/...`` when ``XDG_CACHE_HOME`` is unset; ``F`` is
  :data:`bandtables.tables4.FORMAT`);
* the dense tables of 2x3 and 3x3 (:func:`bandtables.tables.save_dense`; a
  fraction of a second, about 1 MiB for 3x3) in ``bandtables2-vD`` and
  ``bandtables3-vD`` beside them (``D`` is :data:`bandtables.tables.DENSE_FORMAT`).

Nothing has to be set or copied beforehand: a worker of a Dask cluster
builds them on its machine the first time it counts a unit.

* **Built once.**  The build holds an ``flock`` on ``bandtables4-vF.lock``:
  other processes of the machine wait for it and then map the result.  It
  writes into a temporary directory beside the cache and renames it into
  place when every file and the manifest are written, so an interrupted
  build leaves no half-built cache.  What a killed build left beside the
  cache (its temporary, or the damaged cache it was replacing) is removed
  by the next process that takes the lock.
* **Checked.**  ``manifest.json`` records each file's size and SHA-256;
  :func:`tables_dir` checks every file against it once per process
  before anything is read (about 175 MiB for 4x3: under a second).  A cache whose files differ
  from their digests (damaged, truncated, edited), or whose manifest is
  missing, unreadable or not of a manifest's shape
  (:func:`bandtables.cache_files.read_manifest`),
  or where something other than a regular file stands (a FIFO: never
  waited on, :mod:`bandtables.cache_files`) is said in one line and built
  again; the old files are removed only after the new ones are in place.
"""
from __future__ import annotations

import fcntl
import json
import os
import sys
from pathlib import Path

from bandtables.cache_files import (MANIFEST, DamagedTables, check_file, file_entry,
                                   move_into_place, read_manifest, remove_leftovers,
                                   remove_path)
from bandtables.tables import DENSE_ARRAYS, DENSE_FORMAT, DENSE_MAX_R
from bandtables.tables4 import ARRAYS, FORMAT

__all__ = ["cache_root", "tables_path", "tables_dir", "cached_tables", "tables4_path",
           "tables4_dir", "cached_tables4", "DamagedTables", "MANIFEST", "table_bytes",
           "verify", "forget_checked"]

_CHECKED: set[str] = set()     # directories whose digests this process has checked


def forget_checked() -> None:
    """Forget which directories this process has checked, as a new process starts:
    the next :func:`tables_dir` of each checks its digests again."""
    _CHECKED.clear()


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/gridcount`` (``~/.cache/gridcount`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gridcount"


def _layout(R: int) -> tuple[int, tuple[str, ...]]:
    """``(format, array names)`` of the tables of bands of ``R`` rows (files ``R{R}-NAME.npy``)."""
    if R == 4:
        return FORMAT, ARRAYS
    if isinstance(R, int) and 2 <= R <= DENSE_MAX_R:
        return DENSE_FORMAT, DENSE_ARRAYS
    raise ValueError(f"band tables are cached for R = 2..4, not {R!r}")


def tables_path(R: int, root: Path | str | None = None) -> Path:
    """The directory of the tables of ``R`` under ``root`` (default :func:`cache_root`)."""
    return Path(root if root is not None else cache_root()) / f"bandtables{R}-v{_layout(R)[0]}"


def tables4_path(root: Path | str | None = None) -> Path:
    """The directory of the 4x3 tables under ``root`` (default :func:`cache_root`)."""
    return tables_path(4, root)


def _write_manifest(d: Path, R: int) -> None:
    files = {p.name: file_entry(p) for p in sorted(d.iterdir()) if p.suffix == ".npy"}
    (d / MANIFEST).write_text(json.dumps({"format": _layout(R)[0], "files": files}, indent=1))


def verify(d: Path, R: int = 4) -> None:
    """Check every file of ``d`` (the tables of ``R``) against its manifest
    (:func:`bandtables.cache_files.read_manifest`: of ``R``'s format).

    Raises
    ------
    DamagedTables
        Naming the first file missing, not a regular file, of another size
        or digest, or a manifest that is missing, unreadable or not of a
        manifest's shape.
    """
    files = read_manifest(d, {"format": _layout(R)[0]})
    for name in _layout(R)[1]:
        path = d / f"R{R}-{name}.npy"
        if path.name not in files:
            raise DamagedTables(f"{path} is not in the manifest")
        check_file(path, *files[path.name])


def cached_tables(R: int, root: Path | str | None = None) -> Path | None:
    """The directory of the tables of ``R`` if they are built there (not checked), else None."""
    d = tables_path(R, root)
    return d if (d / MANIFEST).exists() else None


def cached_tables4(root: Path | str | None = None) -> Path | None:
    """The 4x3 tables' directory if they are built there (not checked), else None."""
    return cached_tables(4, root)


def table_bytes(d: Path) -> int:
    """Bytes of the mapped files in ``d`` (what a machine's page cache holds)."""
    return sum(p.stat().st_size for p in d.glob("R*-*.npy"))


def tables4_dir(root: Path | str | None = None, *, threads: int = 1, say=None,
                progress: bool | None = None) -> Path:
    """The directory of checked 4x3 tables, built first if need be (:func:`tables_dir`)."""
    return tables_dir(4, root, threads=threads, say=say, progress=progress)


def tables_dir(R: int, root: Path | str | None = None, *, threads: int = 1, say=None,
               progress: bool | None = None) -> Path:
    """The directory of checked tables of bands of ``R`` rows, built first if need be.

    ``say`` receives the lines a person is told (default: standard error;
    the dense tables of ``R <= 3``, built in a fraction of a second, are
    built without a word); ``progress`` shows a progress bar while building
    the 4x3 tables (None: on a terminal).
    """
    say = say or (lambda msg: print(msg, file=sys.stderr, flush=True))
    d = tables_path(R, root)
    key = str(d)
    if key in _CHECKED:
        return d
    d.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(d.parent / f"{d.name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)   # another process building: wait for it
        remove_leftovers(d)
        if (d / MANIFEST).exists() or d.exists():
            try:
                verify(d, R)
                _CHECKED.add(key)
                return d
            except DamagedTables as e:
                say(f"the {R}x3 band tables are damaged ({e}): building them again")
        _build_into(d, R, threads, say, progress)
        _CHECKED.add(key)
        return d
    finally:
        os.close(fd)   # releases the flock


def _build_into(d: Path, R: int, threads: int, say, progress: bool | None) -> None:
    from tqdm import tqdm

    tmp = d.parent / f"{d.name}.build-{os.getpid()}"
    if R == 4:
        from bandtables.tables4 import build
        say(f"building the 4x3 band tables once for this machine into {d} "
            f"(minutes of {threads} core{'s' * (threads != 1)})")
    else:
        from bandtables.tables import save_dense

        def build(directory, **kw):
            save_dense(R, directory)
    bars = []

    def bar(total):
        b = tqdm(total=total, unit="rows", desc="4x3 tables: rows of l", leave=False,
                 disable=None if progress is None else not progress)   # None: on a terminal
        bars.append(b)
        return lambda: b.update(1)

    try:
        build(tmp, threads=threads, log=lambda msg: None, progress=bar)
        for b in bars:
            b.close()
        _write_manifest(tmp, R)
        move_into_place(tmp, d)
    except BaseException:
        for b in bars:
            b.close()
        remove_path(tmp)
        raise
    if R == 4:
        say(f"the 4x3 band tables are in {d} ({table_bytes(d) / 2 ** 20:,.0f} MiB)")
