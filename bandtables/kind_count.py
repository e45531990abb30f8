"""Count a kind with one extra house of one cell per box all at once, by the kind band
tables (:class:`bandtables.kind_tables.KindBandTables`), on forked workers: what
``scripts/count_kind_band_tables.py`` runs, with a timing sample for an estimate.
``gridcount count`` counts the same sum in stored, resumable units (the ``kind-tables``
reduction, :mod:`counting.reduction.kind_band_tables`).

Example
-------
>>> count_kind_by_band_tables("2x3").grids
28200960
"""
from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass

import numpy as np

from bandtables.kind_tables import KindBandTables

__all__ = ["KindBandCount", "count_kind_by_band_tables"]


@dataclass(frozen=True)
class KindBandCount:
    """The result of :func:`count_kind_by_band_tables`.

    Attributes
    ----------
    kind : str
    grids : int or None
        The number of grids of the kind (None for a timing sample).
    first : int
        The band whose fillings were enumerated (0-based); the other two were read from
        tables.
    band1_keys : int
        Band-1 orbits the count contracts (column sets and house digits up to
        relabelling and the column moves the other bands' houses keep).
    contracted : int
        Orbits contracted here (all of them, or a timing sample's).
    contract_seconds : float
        Wall time of the contraction alone.
    seconds : float
        Wall time of the whole call (tables and contraction).
    """

    kind: str
    grids: int | None
    first: int
    band1_keys: int
    contracted: int
    contract_seconds: float
    seconds: float

    def estimate_seconds(self) -> float:
        """The contraction's wall time for every orbit, scaled from those contracted."""
        return self.contract_seconds * self.band1_keys / max(self.contracted, 1)


_FORKED: list = []      # the tables a forked pool's workers contract with (set before forking)


def _count_forked(part) -> int:
    return _FORKED[0].count(*part)


def count_kind_by_band_tables(kind, *, first: int = 0, workers: int = 1,
                              sample: int | None = None, seed: int = 0,
                              columns=None) -> KindBandCount:
    """The number of grids of ``kind`` by three-band tables that carry the house digits
    (:class:`KindBandTables`, all at once).

    Parameters
    ----------
    kind : GridKind or str
        Boxes of 2 or 3 rows × 3 columns, at most one extra house with one cell per box
        (``"3x3+centre"``, ``"3x3+girandola"``, ``"3x3+asterisk"``, ``"3x3"``).
    first : int
        The band (0, 1, 2) whose fillings are enumerated; the other two are read from
        their tables.  Every choice gives the same total by a different sum (a check).
    workers : int
        Processes sharing the band-1 keys (forked: the tables are shared read-only).
    sample, seed : int or None, int
        Contract only ``sample`` band-1 orbits drawn at random (seeded): a timing sample
        for :meth:`KindBandCount.estimate_seconds`; ``grids`` is then None.
    columns : sequence of int or None
        Count instead the kind with its house moved by this column permutation
        (``columns[new] = old``), which must keep the boxes: it maps the grids of the kind
        one to one onto those of the moved kind, so the total is the same, reached through
        other tables, frames and orbits (a check).

    Raises
    ------
    ValueError
        For a kind :func:`band_house_columns` refuses, or ``first`` not 0, 1, 2.
    """
    t0 = time.perf_counter()
    kt = KindBandTables(kind, first, columns)
    keys, mult = kt.orbits
    n_orbits = len(keys)
    if sample is not None:
        pick = np.sort(np.random.default_rng(seed).choice(n_orbits, min(sample, n_orbits),
                                                          replace=False))
        keys, mult = keys[pick], mult[pick]
    kt.build_tables()
    n = len(keys)
    chunks = [(keys[i:i + 64], mult[i:i + 64]) for i in range(0, n, 64)]
    t1 = time.perf_counter()
    if workers > 1:
        _FORKED[:] = [kt]
        try:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                total = sum(pool.imap_unordered(_count_forked, chunks))
        finally:
            _FORKED.clear()
    else:
        total = sum(kt.count(*part) for part in chunks)
    t2 = time.perf_counter()
    grids = None if sample is not None else kt.factor * total
    return KindBandCount(kt.kind.name, grids, kt.first, n_orbits, n, t2 - t1, t2 - t0)
