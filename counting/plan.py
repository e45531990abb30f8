"""The identity unit of a symmetry job: the grid count, from its store.

The identity fixes every grid, so its unit's count is the number of grids
over ``N!`` (:func:`counting.group.burnside.identity_fixed`).  It is not
counted by a worker: :func:`grid_total_in` reads it from the grid count's
store when that store holds a complete count of the same shape, and the
command line counts the grid job into that store first when it does not
(``gridcount count SHAPE --up-to-symmetry``).  :func:`record_identity`
then stores it as unit 0 of the symmetry job, naming the grid store as
the unit's worker, so the symmetry store says where its identity came from.
"""
from __future__ import annotations

from pathlib import Path

from counting.job import Job, summarise
from counting.reduction import get_reduction
from counting.reduction.orbits import SymmetryReduction
from counting.store.database import Store, StoreError

__all__ = ["grid_total_in", "record_identity", "needs_identity"]


def grid_total_in(path: Path | str, shape: str) -> int | None:
    """The grid count of ``shape`` held complete in the store at ``path``;
    None when there is no store there or it is not complete.

    Raises
    ------
    StoreError
        When the store is damaged or counts another shape (the user named
        it, or it sits where this shape's grid store belongs).
    """
    path = Path(path)
    if not path.exists():
        return None
    with Store.open(path) as store:
        if store.job.shape != shape:
            raise StoreError(f"{path} counts {store.job.shape} grids, not {shape}")
        job = Job.for_store(store)
        if job.reduction_object.divisors:
            raise StoreError(f"{path} is a store of essentially different grids, "
                             f"not of the grid count")
        summary = summarise(store, job)
    return summary.total if summary.complete else None


def needs_identity(store: Store) -> bool:
    """Whether the symmetry store lacks its identity unit (unit 0)."""
    return 0 not in store.done_ids()


def record_identity(store: Store, shape: str, grid_total: int, source: Path | str) -> int:
    """Store unit 0 of the symmetry job: ``grid_total / N!`` (checked exact).

    Returns the stored count.  Raises ``ValueError`` when ``grid_total`` is
    not a multiple of ``N!`` (then it is not a grid count).
    """
    red = get_reduction(shape, SymmetryReduction.kind)
    result = red.identity_result(grid_total, f"grid count {source}")
    store.record(result)
    return result.count
