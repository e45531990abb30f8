"""Which group a symmetry job counts under: a ``--group`` checked against the
kind (:func:`check_group`), and a store of another group refused naming both
(:func:`other_group`).  Step 3 of :mod:`counting.plan`.
"""
from __future__ import annotations

from pathlib import Path

from counting.group.full_terms import refusal as full_group_refusal
from counting.job import Job, default_db_path
from counting.reduction.latin_orbits import refusal as latin_group_refusal
from counting.reduction.registry import GROUPS, LATIN_ONLY_GROUPS, group_of, symmetry_reduction
from counting.store.database import Store, StoreError
from grids.kind import as_kind

__all__ = ["GroupRefused", "check_group", "other_group"]


class GroupRefused(ValueError):
    """A ``--group`` that cannot count this kind (its full group mixes cells
    with digits, or is too large to list): one line saying why."""


def check_group(shape: str, group: str | None) -> None:
    """:class:`GroupRefused`, in one line, when essentially different grids
    of ``shape`` cannot be counted under ``group`` (``"full"``: its full
    group is not cells × relabelling, or too large to list, or nauty is
    missing; a Latin-square group: ``shape`` is no plain Latin square, or
    of too large an order); ``ValueError`` for an unknown group."""
    symmetry_reduction(group)
    why = None
    kind = as_kind(shape)
    if group == "full":
        why = full_group_refusal(kind)
        if why is not None and kind.plain and kind.shape.latin:     # they have their own
            why += " (Latin squares: --group main-class counts their main classes, paratopy)"
    elif group in LATIN_ONLY_GROUPS:
        why = latin_group_refusal(kind, group)
    if why is not None:
        raise GroupRefused(f"{kind.name}: {why}")


def other_group(path: Path, job: Job) -> str | None:
    """Why the store at ``path`` cannot take ``job``'s units because it
    counts essentially different grids of the same kind under another
    group (one line naming both groups); None otherwise (no store there,
    the same group, or another job, which the store itself refuses)."""
    mine = group_of(job.reduction)
    if mine is None or not path.exists():
        return None
    try:
        with Store.open(path) as held:
            stored = held.job
    except StoreError:
        return None    # refused (or deleted by --fresh) with its own reason
    theirs = group_of(stored.reduction)
    if stored.shape != job.shape or theirs is None or theirs == mine:
        return None
    return (f"{path} counts the essentially different grids of {job.shape} under the "
            f"{theirs} group (--group {theirs}), not the {mine} group (--group {mine}) asked "
            f"for: use another --db (the {mine} group's default is "
            f"{default_db_path(job.shape, GROUPS[mine])})")
