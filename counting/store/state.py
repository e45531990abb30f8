"""What the store at a path holds of a job, read without locking or changing it.

``count`` looks before it estimates (:func:`counting.plan.check_reach`): a complete
store is not estimated, one that the run will refuse is not either (the refusal comes
at once), and only the units a store lacks are; the notices said before slow first
steps (:mod:`counting.plan_notices`) look the same way.  (Moved from
:mod:`counting.plan`, which still exports both.)
"""
from __future__ import annotations

from pathlib import Path

from counting.store.database import Store, StoreError

__all__ = ["store_state", "units_left"]


def store_state(path: Path, shape: str, reduction: str) -> tuple[str, int]:
    """What the store at ``path`` holds of the job ``shape`` by ``reduction``
    (read-only), and how many of its units: ``"complete"``; ``"to do"`` (no
    store there, or some units left); ``"refused"`` (another job's store, or
    no store that can be read: the run refuses it with the reason)."""
    path = Path(path)
    if not path.exists():
        return "to do", 0
    try:
        with Store.open(path) as held:
            if (held.job.shape, held.job.reduction) != (shape, reduction):
                return "refused", 0
            done = len(held)
            return ("complete" if done == held.job.n_units else "to do"), done
    except (StoreError, ValueError, OSError):
        return "refused", 0


def units_left(path: Path) -> list[int]:
    """Ids of the units the store at ``path`` lacks (read-only; the caller
    has found it readable and of its job, :func:`store_state`)."""
    with Store.open(Path(path)) as held:
        return held.remaining_ids()
