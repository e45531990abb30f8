"""Merging stores of one job: every unit the target lacks, all in one transaction or nothing.

:meth:`counting.store.database.Store.merge_all` (``gridcount merge``, and
:mod:`counting.store.exchange` for units exports) calls :func:`merge_into`:
every source is checked to be of the target's job, read and checked in full
(row checksums) before anything is written; a unit stored with another count
anywhere stops the merge with a :class:`ConflictError` naming every
disagreeing unit, and nothing is written.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from counting.store.format import ConflictError, OtherJobError
from counting.units import UnitResult

__all__ = ["MergeReport", "merge_into"]


@dataclass(frozen=True)
class MergeReport:
    """Outcome of :meth:`~counting.store.database.Store.merge_from`.

    Attributes
    ----------
    added : int
        Units copied from the other store.
    identical : int
        Units present in both stores with the same count (left unchanged).
    """

    added: int
    identical: int


def merge_into(target, others: Sequence, add: Callable[[UnitResult], None]
               ) -> list[MergeReport]:
    """Copy into the store ``target`` every unit of ``others`` it lacks, each
    by ``add`` (the target's checked insert): all of them in one transaction
    (``target.atomic()``), or nothing.

    A source is a store or anything with its ``path``, ``job`` and
    ``results()`` (a :class:`counting.store.exchange.UnitsExport`).

    The stores must belong to the same job in shape, reduction and
    ``n_units``; engine versions may differ (each row keeps its own).
    Every source is read and checked (row checksums) before anything is
    written; a unit present in several sources is taken from the first.

    Returns
    -------
    list of MergeReport
        One per store of ``others``, in order.

    Raises
    ------
    OtherJobError
        A source belongs to another job.
    CorruptStoreError
        A source (or the target) holds a damaged row.
    ConflictError
        Some unit has different counts in the target and in a source, or in
        two sources; the error names the source and lists its disagreeing
        units.
    """
    for other in others:
        if not callable(getattr(other, "results", None)):
            raise TypeError(f"can only merge a Store or a units export, "
                            f"got {type(other).__name__}")
        differing = [
            f"{name} is {getattr(other.job, name)!r} there but {getattr(target.job, name)!r} here"
            for name in ("shape", "reduction", "n_units")
            if getattr(other.job, name) != getattr(target.job, name)
        ]
        if differing:
            raise OtherJobError(
                f"cannot merge {other.path} into {target.path}: they belong to different jobs ("
                + "; ".join(differing) + "); nothing was merged"
            )
    incoming = [(other, other.results()) for other in others]
    reports = []
    with target.atomic():
        # unit id -> (count, where it comes from: None for the target)
        have: dict[int, tuple[int, Path | None]] = {
            r.unit_id: (r.count, None) for r in target.results()}
        for other, results in incoming:
            conflicts = [(r.unit_id, have[r.unit_id], r.count) for r in results
                         if r.unit_id in have and have[r.unit_id][0] != r.count]
            if conflicts:
                listing = ", ".join(
                    f"unit {u}: {mine:,} {'here' if where is None else f'in {where}'} vs "
                    f"{theirs:,} there" for u, (mine, where), theirs in conflicts
                )
                raise ConflictError(
                    f"cannot merge {other.path} into {target.path}: {len(conflicts):,} unit(s) "
                    f"disagree ({listing}); nothing was merged",
                    [(u, mine, theirs) for u, (mine, _), theirs in conflicts],
                )
            added = identical = 0
            for r in results:
                if r.unit_id in have:
                    identical += 1
                else:
                    add(r)
                    have[r.unit_id] = (r.count, other.path)
                    added += 1
            reports.append(MergeReport(added=added, identical=identical))
    target.checkpoint()
    return reports
