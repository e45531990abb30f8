"""A symmetry store's identity unit and the grid store it was taken from.

The identity class of Burnside's sum fixes every grid, so unit 0 of a
symmetry job counts the grids with box 1 standard: the grid count over
``N!``, taken from a grid count's store (:func:`counting.plan.prepare_identity`)
by the reduction's :meth:`~counting.reduction.base.Reduction.identity_result`
(``--group loops`` of order 8: the reduced Latin squares, over ``N!·(N-1)!``).
Burnside's divisibility check cannot see an error there that is a multiple
of ``|G|`` (the identity's class has size 1), so the identity is tied to
its grid store instead:

* **when it is taken**, the grid total is recomputed from the grid store's
  rows as they are read (each checked against its checksum), and the
  identity unit's ``worker`` names the grid store and a digest of those rows
  (:func:`link`: ``grid count PATH rows DIGEST``; the row checksum covers it);
* **whenever the symmetry store is summarised** (``status``, ``export``,
  ``count``, ``report``), :func:`check_identity` reads the grid store again:
  its rows must still have that digest and its total over ``N!`` (by the
  same relation) must still be the identity's count.  A change of either file is refused in one line
  naming both.

What this does not guard: a grid-store row whose count was changed *and its
checksum recomputed* before the identity was taken from it (the digest is
then of the forged rows; no checksum can tell a forged row from a true one),
and an identity whose link was rewritten together with its count.  Counting
again is the check for those: ``gridcount recount GRID_STORE``.  When the
grid store is not where the link says (another machine), the identity is not
checked and ``status`` says so.

Example
-------
>>> link("results/2x3-rmoves.sqlite", "0123456789abcdef")
'grid count results/2x3-rmoves.sqlite rows 0123456789abcdef'
>>> parse_link(link("results/2x3-rmoves.sqlite", "0123456789abcdef"))
('results/2x3-rmoves.sqlite', '0123456789abcdef')
>>> parse_link("grid count results/2x3-rmoves.sqlite")   # recorded before the digest
('results/2x3-rmoves.sqlite', None)
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from counting.reduction import get_reduction
from counting.store.database import Store
from counting.store.format import CHECKSUM_DIGITS, JobInfo, OtherJobError, StoreError
from counting.units import UnitResult
from grids.kind import as_kind

__all__ = ["GridRows", "read_grid_store", "grid_store_to_count", "rows_digest", "link",
           "parse_link", "IdentityCheck", "check_identity"]

_PREFIX = "grid count "
_LINK = re.compile(rf"{_PREFIX}(?P<path>.+?)(?: rows (?P<digest>[0-9a-f]{{{CHECKSUM_DIGITS}}}))?")


def rows_digest(job: JobInfo, counts: dict[int, int]) -> str:
    """A digest of what a grid store's total is made of: its job (shape,
    reduction, number of units) and every ``(unit_id, count)``.  Timings
    and hosts are left out, so counting the same store again gives the
    same digest."""
    text = json.dumps(["gridcount-grid-rows", job.shape, job.reduction, job.n_units,
                       sorted(counts.items())], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:CHECKSUM_DIGITS]


@dataclass(frozen=True)
class GridRows:
    """A grid count's store as read once: its total (None unless
    complete) and the :func:`rows_digest` of the same rows."""

    path: Path
    job: JobInfo
    total: int | None
    digest: str


def read_grid_store(path: str | os.PathLike, shape: str) -> GridRows | None:
    """The grid count of ``shape`` in the store at ``path``, recomputed
    from its rows (each checked as it is read); None when there is no file.

    Raises
    ------
    StoreError
        The store is damaged; :class:`~counting.store.format.OtherJobError`,
        it counts another shape, or is a symmetry store, or its units are not
        this gridcount's and its total is not computed here (a ``factor`` store
        of another kernel: :meth:`~counting.reduction.base.Reduction.foreign_total_refused`).
    """
    path = Path(path)
    if not path.exists():
        return None
    with Store.open(path) as store:
        job = store.job
        if job.shape != shape:
            raise OtherJobError(f"{path} counts {job.shape} grids, not {shape}")
        red = get_reduction(job.shape, job.reduction)
        if red.counts_orbits:
            raise OtherJobError(f"{path} is a store of essentially different grids, "
                             f"not of the grid count")
        refused = red.total_refused_for(job.engine_version)
        if refused is not None:   # this gridcount's weights on its ids: a wrong total
            raise OtherJobError(f"{path}: {red.foreign_engine(job.engine_version)}; its total "
                                f"is not computed here: {refused}")
        counts = {r.unit_id: r.count for r in store.results()}
    try:
        total = red.complete_total(counts, job.n_units) if len(counts) == job.n_units else None
    except ValueError as e:
        raise StoreError(f"{path}: {e}") from None
    return GridRows(path, job, total, rows_digest(job, counts))


def grid_store_to_count(grid: str | os.PathLike, shape: str,
                        store: str | os.PathLike) -> Path | None:
    """``grid`` when a symmetry job whose store is ``store`` is to count its
    identity's grids into it (:func:`counting.plan.prepare_identity`): it
    holds no complete count of ``shape``; None when it does, is ``store``
    itself, or cannot be read (the identity step says why)."""
    if os.path.realpath(grid) == os.path.realpath(store):
        return None
    try:
        rows = read_grid_store(grid, shape)
    except StoreError:
        return None
    return Path(grid) if rows is None or rows.total is None else None


def link(path: str | os.PathLike, digest: str | None) -> str:
    """The identity unit's ``worker``: where its count comes from."""
    return f"{_PREFIX}{path}" + (f" rows {digest}" if digest else "")


def parse_link(worker: str) -> tuple[str, str | None] | None:
    """``(grid store path, rows digest or None)`` from an identity's
    ``worker``; None when it names no grid store."""
    m = _LINK.fullmatch(worker)
    return (m["path"], m["digest"]) if m else None


@dataclass(frozen=True)
class IdentityCheck:
    """What :func:`check_identity` found: the grid store the identity names
    and whether it was checked against it (``why_not``: why it was not)."""

    grid_store: str | None
    checked: bool
    why_not: str = ""

    def describe(self) -> str:
        if self.checked:
            return f"checked against {self.grid_store}"
        return f"not checked: {self.why_not}"

    def as_json(self) -> dict:
        doc = {"grid_store": self.grid_store, "checked": self.checked}
        if not self.checked:
            doc["why_not"] = self.why_not
        return doc


def _where(recorded: str, store: Store) -> Path | None:
    """The grid store a link names: the path as recorded, else a file of
    that name beside the symmetry store (run from another directory)."""
    p = Path(recorded)
    for candidate in (p, store.path.parent / p.name):
        if candidate.is_file():
            return candidate
    return None


def check_identity(store: Store, identity: UnitResult) -> IdentityCheck:
    """Check the identity unit of the symmetry ``store`` against the grid
    store it was taken from (see the module docstring).

    Raises
    ------
    StoreError
        The grid store's rows changed since the identity was taken from
        them, or its total over ``N!`` is not the identity's count; the
        message names both stores.
    """
    named = parse_link(identity.worker)
    if named is None:
        return IdentityCheck(None, False, f"unit 0 names no grid store ({identity.worker!r})")
    recorded, digest = named
    path = _where(recorded, store)
    if path is None:
        return IdentityCheck(recorded, False, f"{recorded} is not here")
    grid = read_grid_store(path, store.job.shape)
    where = f"the identity (unit 0) of {store.path} was taken from {path}"
    if digest is not None and grid.digest != digest:
        raise StoreError(f"{where}, whose rows have changed since (digest {digest} then, "
                         f"{grid.digest} now): one of the two was edited, or the grid store "
                         f"was made anew; gridcount recount {path} checks the grid counts")
    if grid.total is None:
        return IdentityCheck(recorded, False, f"{path} is not complete")
    red = get_reduction(store.job.shape, store.job.reduction)
    try:   # the reduction's relation: grid count / N! (loops: / N!·(N-1)!)
        expected = red.identity_result(grid.total, identity.worker).count
    except ValueError as e:
        raise StoreError(f"{path}: {e}") from None
    if identity.count != expected:
        edited = (f"{store.path} was edited" if digest is not None else
                  f"one of the two was edited; gridcount recount {path} checks the grid counts")
        per = red.identity_divisor(as_kind(store.job.shape).shape.n)
        raise StoreError(f"{where}, whose grid count / {per} is {expected:,}, but unit 0 "
                         f"holds {identity.count:,}: {edited}")
    return IdentityCheck(recorded, True)
