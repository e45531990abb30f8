"""Finished units leaving one store and entering another: ``merge``, and the
units export that carries them between machines.

A long job need not live and die with one machine.  ``gridcount export
STORE --units FILE`` writes every finished unit of a store to a *units
export*, a small JSON file with what is needed to check it anywhere: the
job (shape, reduction, ``n_units``, engine version), and per unit every
column of its row with the row's checksum
(:func:`counting.store.format.row_checksum`), plus a checksum of the whole
list and of every field of the job (:func:`units_checksum`); for a kind
file's kind also its rules (``kind_rules``, as a store keeps them:
:mod:`counting.store.kinds`; checked against the digest in the kind's name,
which the checksum covers), so the export is counted on elsewhere without the
file.  ``gridcount merge TARGET FILE`` accepts such a file wherever it
accepts a store: it is read and checked in full first (any damaged unit,
a missing or added unit, or another job is refused, one line naming
what), and its units then enter TARGET like those of a store: all or none,
twice is harmless (a unit already present with the same count is left as
it is), a unit present with a different count is refused.  A missing
TARGET is created for the export's job.

:func:`merge_paths` is the library call behind ``gridcount merge``.  It
takes the target's :class:`~counting.store.lock.StoreLock` (like a count)
for the whole merge, so two merges into one target run one after the
other, and a merge that fails deletes the target only if this very call
created it.

Export formats
--------------
1. ``units_checksum`` covers the job's shape, reduction and ``n_units`` but
   not its ``engine_version``: edited to ``"zzz"``, an export entered a new
   store as a store of engine ``zzz``, which ``count`` then refused (issue
   38, item 4).  Still read, and its uncovered field checked instead: its
   ``engine_version`` must be the one this gridcount records for that job
   (:attr:`~counting.reduction.base.Reduction.engine_version`).
2. ``units_checksum`` covers the format version and every field of the job.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import reprlib
from pathlib import Path
from typing import Iterable

from counting.reduction import get_reduction
from counting.reduction.registry import group_of
from counting.store import format as fmt
from counting.store.database import Store
from counting.store.format import (
    CorruptStoreError, ForeignStoreError, JobInfo, OtherJobError, StoreError,
)
from counting.store.kinds import KEY as KIND_RULES
from grids.variants.kindcontent import learn_texts, texts_named
from counting.store.lock import StoreLock
from counting.units import UnitResult

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "UnitsExport", "units_export", "units_checksum",
           "open_source", "merge_paths", "SameFileError"]

EXPORT_FORMAT = "gridcount-units"  # the "format" of a units export
EXPORT_VERSION = 2  # the "format_version" written (see the module docstring)
READ_VERSIONS = (1, 2)  # the export formats read
_KEYS = ("format", "format_version", "job", "units", "units_checksum")
_JOB_FIELDS = tuple(f.name for f in dataclasses.fields(JobInfo))   # the keys of its job


class SameFileError(StoreError):
    """A merge whose target is one of its sources."""


def units_checksum(job: JobInfo, checksums: list[str], version: int = EXPORT_VERSION) -> str:
    """The checksum of a whole export of format ``version``: every field of
    its job and every row checksum, in order (format 1: the job without its
    ``engine_version``).

    Example
    -------
    >>> job = JobInfo("2x2", "moves", "v", 2)
    >>> units_checksum(job, ["a", "b"]) == units_checksum(job, ["b", "a"])
    False
    >>> units_checksum(job, ["a"]) == units_checksum(JobInfo("2x2", "moves", "w", 2), ["a"])
    False
    """
    if version == 1:
        fields = [EXPORT_FORMAT, job.shape, job.reduction, job.n_units, checksums]
    else:
        fields = [EXPORT_FORMAT, version, job.shape, job.reduction, job.n_units,
                  job.engine_version, checksums]
    text = json.dumps(fields, separators=(",", ":"))   # ASCII: \u escapes, as format 1 had
    return hashlib.sha256(text.encode()).hexdigest()[:fmt.CHECKSUM_DIGITS]


def _check_uncovered_engine(path: Path, job: JobInfo) -> None:
    """Refuse an export of format 1 whose job's ``engine_version`` (which its
    checksum does not cover) is not the one this gridcount records for that job."""
    why = None
    try:
        expected = get_reduction(job.shape, job.reduction).engine_version
    except ValueError as exc:
        expected, why = None, f"a job this gridcount does not count: {exc}"
    if why is None and job.engine_version != expected:
        why = f"{job.engine_version!r}, where this gridcount records {expected!r}"
    if why is not None:
        raise CorruptStoreError(
            f"{path} is a units export of format 1, whose checksum does not cover its job's "
            f"engine_version, and that cannot be checked ({why}); nothing was merged: "
            f"export its store again with this gridcount")


def _row(result: UnitResult) -> list:
    """``result`` as the values of ``fmt.COLUMNS``, as a store holds them."""
    return [str(getattr(result, c)) if c in fmt.EXACT else getattr(result, c)
            for c in fmt.COLUMNS]


def units_export(store: Store) -> str:
    """Every finished unit of ``store`` as the text of a units export.

    Every row is read and checked (:meth:`Store.results`) first, so a
    damaged store gives a :class:`CorruptStoreError`, never an export.  A
    store of format 1 is refused (:class:`StoreError`): its rows carry no
    checksum, and an export must not vouch for rows nobody checked.
    """
    if store.format_version < fmt.FORMAT_VERSION:
        raise StoreError(
            f"{store.path} is of store format {store.format_version}: its rows carry no "
            f"checksums, so they cannot be exported checked; upgrade it first "
            f"(gridcount merge NEW.sqlite {store.path}) and export NEW.sqlite")
    job = store.job
    units, checksums = [], []
    for result in store.results():
        row = _row(result)
        checksum = fmt.row_checksum(job, row)
        units.append({**dict(zip(fmt.COLUMNS, row)), "checksum": checksum})
        checksums.append(checksum)
    doc = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "job": {"shape": job.shape, "reduction": job.reduction, "n_units": job.n_units,
                "engine_version": job.engine_version},
        "units": units,
        "units_checksum": units_checksum(job, checksums),
    }
    rules = texts_named(job.shape)   # the store made them known when it was opened
    if rules:
        doc[KIND_RULES] = rules
    return json.dumps(doc, indent=1) + "\n"


class UnitsExport:
    """A units export, read and checked in full: a source of :meth:`Store.merge_all`.

    Attributes
    ----------
    path : pathlib.Path
    job : JobInfo
        The job of the store it was exported from.
    """

    def __init__(self, path: Path, job: JobInfo, results: list[UnitResult]):
        self.path, self.job, self._results = path, job, results

    @classmethod
    def read(cls, path: str | os.PathLike) -> "UnitsExport":
        """Read and check the export at ``path``.

        Raises
        ------
        StoreError
            It cannot be read.
        ForeignStoreError
            It is not a units export.
        CorruptStoreError
            It is damaged or was edited: a unit's checksum does not match its
            fields, a unit was removed or added, a field is unreadable.
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ForeignStoreError(f"{path} is neither a gridcount store nor a units "
                                    f"export") from None
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
        try:
            doc = json.loads(text)
        except RecursionError:
            if text.lstrip().startswith("{"):
                raise CorruptStoreError(f"{path} is a damaged units export (its JSON is nested "
                                        f"too deeply to be read)") from None
            raise ForeignStoreError(f"{path} is neither a gridcount store nor a units "
                                    f"export") from None
        except ValueError as exc:
            if text.lstrip().startswith("{"):
                raise CorruptStoreError(f"{path} is a damaged units export (not valid JSON: "
                                        f"{exc})") from None
            raise ForeignStoreError(f"{path} is neither a gridcount store nor a units "
                                    f"export") from None
        try:
            return cls._checked(path, doc)
        except RecursionError:    # a value nested deeply, though not too deeply to be parsed
            raise CorruptStoreError(f"{path} is a damaged or edited units export (a value in "
                                    f"it is nested too deeply)") from None

    @classmethod
    def _checked(cls, path: Path, doc) -> "UnitsExport":
        """The export ``doc`` read from ``path``, checked (see :meth:`read`)."""
        if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
            raise ForeignStoreError(f"{path} is not a gridcount units export (no format "
                                    f"{EXPORT_FORMAT!r})")
        version = doc.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool) or \
                version not in READ_VERSIONS:
            raise StoreError(f"{path} is a units export of format {reprlib.repr(version)}; "
                             f"this gridcount reads formats "
                             f"{' and '.join(map(str, READ_VERSIONS))}")
        damaged = f"{path} is a damaged or edited units export"
        if sorted(set(doc) - {KIND_RULES}) != sorted(_KEYS) or not isinstance(doc["units"], list):
            raise CorruptStoreError(f"{damaged} (its keys are {', '.join(sorted(doc))})")
        if KIND_RULES in doc:
            _learn_rules(path, doc[KIND_RULES], damaged)
        if not isinstance(doc["job"], dict):
            raise CorruptStoreError(f"{damaged} (its job is not an object)")
        if sorted(doc["job"]) != sorted(_JOB_FIELDS):
            names = [reprlib.repr(name)[1:-1] for name in sorted(doc["job"])]
            shown = ", ".join(names[:8]) + (", …" if len(names) > 8 else "")
            raise CorruptStoreError(f"{damaged} (its job's fields are {shown} (not "
                                    f"{', '.join(sorted(_JOB_FIELDS))}))")
        try:
            job = JobInfo(**doc["job"])
        except (TypeError, ValueError) as exc:
            raise CorruptStoreError(f"{damaged} (its job is unreadable: {exc})") from None
        results, checksums, seen = [], [], set()
        for i, unit in enumerate(doc["units"]):
            result, checksum = _checked_unit(path, job, i, unit)
            if result.unit_id in seen:
                raise CorruptStoreError(f"{damaged} (unit {result.unit_id} is in it twice)")
            seen.add(result.unit_id)
            results.append(result)
            checksums.append(checksum)
        if doc["units_checksum"] != units_checksum(job, checksums, version):
            raise CorruptStoreError(f"{damaged} (its units_checksum does not match its job "
                                    f"and units: a unit was removed, added or moved, or a "
                                    f"field of the job was changed)")
        if version == 1:
            _check_uncovered_engine(path, job)
        return cls(path, job, sorted(results, key=lambda r: r.unit_id))

    def results(self) -> list[UnitResult]:
        """Every unit of the export, sorted by unit id (checked when it was read)."""
        return list(self._results)

    def close(self) -> None:
        """Nothing to close (a source of :func:`merge_paths`, like a Store)."""


def _learn_rules(path: Path, rules, damaged: str) -> None:
    """Know the kind files whose rules an export carries (each checked against its digest)."""
    if not isinstance(rules, dict) or not all(isinstance(t, str) for t in rules.values()):
        raise CorruptStoreError(f"{damaged} (its {KIND_RULES} are not a table of rules)")
    try:
        learn_texts(rules, f"its {KIND_RULES}")
    except ValueError as e:
        raise CorruptStoreError(f"{damaged} ({e})") from None


def _checked_unit(path: Path, job: JobInfo, i: int, unit) -> tuple[UnitResult, str]:
    """Unit number ``i`` of an export, checked: its result and checksum."""
    name = f"unit {reprlib.repr(unit.get('unit_id', f'#{i}'))}" if isinstance(unit, dict) \
        else f"entry {i}"
    where = f"{name} in {path}"
    if not isinstance(unit, dict) or sorted(unit) != sorted((*fmt.COLUMNS, "checksum")):
        raise CorruptStoreError(f"{where} is damaged or was edited (its fields are not "
                                f"those of a unit); nothing was merged")
    row = [unit[c] for c in fmt.COLUMNS]
    for c, value in zip(fmt.COLUMNS, row):
        if c in ("unit_id", "class_id", "form_id"):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif c == "seconds":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        elif c in fmt.EXACT:
            ok = isinstance(value, str) and value.isdigit() and value.isascii() and \
                (value == "0" or not value.startswith("0"))
        else:
            ok = isinstance(value, str)
        if not ok:
            raise CorruptStoreError(f"{where} has an unreadable {c} {reprlib.repr(value)}; "
                                    f"nothing was merged")
    row[fmt.COLUMNS.index("seconds")] = float(row[fmt.COLUMNS.index("seconds")])
    if unit["checksum"] != fmt.row_checksum(job, row):
        raise CorruptStoreError(f"{where} is damaged or was edited (its checksum does not "
                                f"match its fields); nothing was merged")
    if not 0 <= row[0] < job.n_units:
        raise CorruptStoreError(f"{where} is outside range({job.n_units}) of its job; "
                                f"nothing was merged")
    fields = dict(zip(fmt.COLUMNS, row))
    for c in fmt.EXACT:
        fields[c] = int(fields[c])
    return UnitResult(**fields), unit["checksum"]


def open_source(path: str | os.PathLike) -> "Store | UnitsExport":
    """A store (read-only) or a units export, told apart by their first bytes."""
    path = Path(path)
    if not path.is_file():
        return Store.open(path)  # it says what is wrong: missing, a directory, a FIFO...
    try:
        with open(path, "rb") as f:
            is_db = f.read(len(fmt.SQLITE_MAGIC)) == fmt.SQLITE_MAGIC
    except OSError:
        is_db = True  # let Store.open say why it cannot be read
    return Store.open(path) if is_db else UnitsExport.read(path)


def _remove_created(target: Path) -> None:
    """Remove the target a failed merge created (and its -wal, -shm), quietly:
    the merge's own error is the one to report."""
    try:
        Store.delete(target)
    except StoreError:
        pass


def _check_kernels(stores) -> None:
    """Refuse (one line) a store or export of a job whose unit ids follow
    the kernel that counted them, made by another kernel than this
    gridcount's (:meth:`~counting.reduction.base.Reduction.foreign_engine`)."""
    for s in stores:
        try:
            red = get_reduction(s.job.shape, s.job.reduction)
        except ValueError:
            continue               # not a job this gridcount counts: merge_all says so
        why = red.foreign_engine(s.job.engine_version)
        if why is not None:
            raise OtherJobError(f"cannot merge {s.path}: {why}; nothing was merged")


def _check_groups(target: Path, job_of, sources) -> None:
    """Refuse (one line) a source that counts the essentially different
    grids of the shape of ``job_of`` (the target, or the first source a new
    target is made for) under the other group (``--group full`` against
    ``--group grid``), naming both groups: the reduction names alone
    (``'symmetry-full'``, ``'symmetry'``) do not say so."""
    mine = group_of(job_of.job.reduction)
    for s in sources:
        theirs = group_of(s.job.reduction)
        if s.job.shape == job_of.job.shape and None not in (mine, theirs) and theirs != mine:
            raise OtherJobError(
                f"cannot merge {s.path} into {target}: {s.path} counts the essentially "
                f"different grids of {s.job.shape} under the {theirs} group (--group {theirs}), "
                f"{job_of.path} under the {mine} group (--group {mine}); nothing was merged")


def merge_paths(target: str | os.PathLike,
                sources: Iterable[str | os.PathLike]) -> list[tuple[Path, int, int]]:
    """Merge the stores and units exports ``sources`` into the store
    ``target`` (created for the first source's job if missing): every
    source or none.

    Returns (source, added, identical) per source.  The target's
    :class:`StoreLock` is held throughout.

    Raises
    ------
    StoreLockedError
        Another process counts or merges into ``target``; nothing is done.
    SameFileError
        ``target`` is one of the sources.
    StoreError
        A source cannot be opened, is damaged, belongs to another job (of
        essentially different grids under the other group: both groups
        named) or disagrees on a count (a subclass names it); nothing is
        written, and a target that this call created is removed again.
    """
    target = Path(target)
    sources = [Path(s) for s in sources]
    if not sources:
        raise ValueError("merge needs at least one source")
    with StoreLock.acquire(target, "merged into") as lock:
        for s in sources:
            if target.exists() and s.exists() and os.path.samefile(target, s):
                raise SameFileError(f"cannot merge {s} into {target}: it is the target itself")
        opened: list = []
        try:
            for s in sources:
                opened.append(open_source(s))
            _check_kernels(opened)
            existed = target.exists()  # under the lock: nobody else creates it meanwhile
            try:
                with (Store.open(target, writable=True) if existed else
                      Store.create_or_open(target, opened[0].job)) as tgt:
                    lock.hold_file()   # a new target has an inode now
                    _check_kernels([tgt])
                    _check_groups(target, tgt if existed else opened[0], opened)
                    reports = tgt.merge_all(opened)
            except BaseException:
                if not existed:
                    _remove_created(target)
                raise
        finally:
            for s in opened:
                s.close()
    return [(path, rep.added, rep.identical) for path, rep in zip(sources, reports)]
