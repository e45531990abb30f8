"""The lines ``count`` says at once before its slow first steps: which jobs list units
or make tables before the first unit, and so whose notices are said.

A job's units may take seconds to list (:meth:`~counting.reduction.base.Reduction.listing_notice`)
and its tables a minute to make (:meth:`~counting.reduction.base.Reduction.tables_notice`:
the ``kind-tables`` band tables of a 9×9 kind, made by the estimate or the first unit).
Both are said before they start, on a pipe too (:func:`counting.plan.count`), for the job
counted and, under ``--up-to-symmetry``, for the grid count behind its identity where
that is listed or counted too.
"""
from __future__ import annotations

from pathlib import Path

from counting.job import default_db_path
from counting.store.state import store_state
from grids.kind import as_kind

__all__ = ["grid_store_complete", "lists_grid_units", "tables_notices"]


def grid_store_complete(kind, grid) -> bool:
    """Whether the store of the grid count ``grid`` (a reduction of ``kind``) behind a
    symmetry job's identity, at its default path, is complete: read once by ``count``,
    and the answer given to :func:`lists_grid_units` and :func:`tables_notices`."""
    return _complete(as_kind(kind), grid)


def lists_grid_units(kind, symmetry, grid, grid_complete: bool) -> bool:
    """Whether ``count`` of ``kind`` under the symmetry reduction ``symmetry`` lists
    the units of its grid job ``grid`` (a reduction) before the identity step: a kind
    with extra constraints does (its grid job is loaded with the symmetry job, or its
    complete store read, whose total lists them unless
    :attr:`~counting.reduction.base.Reduction.total_lists_units` is false), and so does
    the estimate of a grid count behind the identity whose store is not complete
    (``grid_complete``: :func:`grid_store_complete`).  (:func:`counting.plan.prepare_identity`
    lists them too: it says so itself.)"""
    if not as_kind(kind).plain:
        return not grid_complete or grid.total_lists_units
    return symmetry.identity_from_grid and not grid_complete


def tables_notices(kind, job, path: Path, fresh: bool, grid=None,
                   grid_complete: bool = False) -> list[str]:
    """The :meth:`~counting.reduction.base.Reduction.tables_notice` lines of the jobs
    ``count`` will count: ``job`` (a reduction of ``kind``) whose store is at ``path``,
    unless that store is complete and not ``fresh``; and ``grid``, a symmetry job's
    grid count behind the identity, unless its store is complete (``grid_complete``:
    :func:`grid_store_complete`)."""
    kind = as_kind(kind)
    counted = [] if _complete(kind, job, path) and not fresh else [job]
    if grid is not None and not grid_complete:
        counted.append(grid)
    return [line for line in (red.tables_notice() for red in counted) if line]


def _complete(kind, red, path: Path | None = None) -> bool:
    """Whether the store of ``red``'s job at ``path`` (default: its default path) is complete."""
    at = default_db_path(kind.name, red.name) if path is None else path
    return store_state(at, kind.name, red.name)[0] == "complete"
