"""Count work units, in this process or in a pool of worker processes.

One progress bar in the parent counts finished units; workers draw nothing.
Each result is handed to the caller (who commits it) as soon as it arrives.
Workers ignore SIGINT; on Ctrl-C the parent stops handing out units,
terminates the workers and re-raises, so every unit committed so far stays
committed and the units in flight are simply not recorded.

Example
-------
>>> from counting.reduction import get_reduction
>>> from counting.pool import count_unit
>>> count_unit(get_reduction("3x3", "71").units()[0]).count > 0
True
"""
from __future__ import annotations

import math
import multiprocessing as mp
import os
import socket
import time
from datetime import datetime, timezone
from typing import Iterable, Iterator

import numpy as np

from counting.units import UnitResult, UnitSpec
from dlx import ENGINE_VERSION, ExactCover
from dlx._pools import ignore_sigint, spawn_pool
from dlx.sudoku import Sudoku

__all__ = ["count_unit", "run_units", "estimate_cost", "default_workers"]

# Per-process cache: one ExactCover per shape, so a worker's memo table is
# kept from one unit to the next (its keys are exact states of the same
# matrix, so sharing it between units is always correct).
_ENGINES: dict[tuple[str, str | None], ExactCover] = {}
_OPTIONS: dict = {"memo": True, "memo_mb": 16.0, "tail": None}



def _exact_cover(shape: str, priority: str | None) -> ExactCover:
    key = (shape, priority)
    ec = _ENGINES.get(key)
    if ec is None:
        ec = _ENGINES[key] = Sudoku.from_shape(shape).exact_cover(priority=priority)
    return ec


def count_unit(spec: UnitSpec, *, memo: bool | None = None,
               memo_mb: float | None = None, fresh_memo: bool = False,
               tail: bool | None = None) -> UnitResult:
    """Count one unit with the engine (band 1 and column 1 given).

    Memo counting fills the grid row by row (``Sudoku.row_priority``) and
    memoizes at row ends; plain counting uses the same order, which is also
    the fastest plain order measured (``results/bench_engine.md``).
    ``tail`` counts the last band in closed form (``Sudoku.tail_rows``);
    by default it goes with ``memo``, so plain counting is plain dancing
    links throughout.  ``fresh_memo`` empties the memo table first
    (independent recounts).
    """
    memo = _OPTIONS["memo"] if memo is None else memo
    memo_mb = _OPTIONS["memo_mb"] if memo_mb is None else memo_mb
    tail = _OPTIONS["tail"] if tail is None else tail
    if tail is None:
        tail = memo
    sud = Sudoku.from_shape(spec.shape)
    ec = _exact_cover(spec.shape, "rows")
    if fresh_memo:
        ec.clear_memo()
    given = [sud.row_index(r, c, d) for r, c, d in spec.givens]
    count = ec.count(given=given, memo=memo, memo_mb=memo_mb,
                     tail=tail and ec.has_tail)
    st = ec.stats
    return UnitResult(
        unit_id=spec.unit_id, class_id=spec.class_id, form_id=spec.form_id,
        count=count, nodes=st.nodes, dead_ends=st.dead_ends, memo_hits=st.memo_hits,
        seconds=round(st.seconds, 6), host=socket.gethostname(),
        engine_version=ENGINE_VERSION,
        finished_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )


def estimate_cost(spec: UnitSpec) -> float:
    """A cheap, computed guess of a unit's search cost (for ordering only).

    The log of the product of candidate counts over the blank cells after
    the givens: more freedom means a larger tree.  It decides only the order
    in which units are handed out (longest first); counts never depend on it.
    """
    sud = Sudoku.from_shape(spec.shape)
    n = sud.n
    grid = np.zeros((n, n), dtype=np.int64)
    for r, c, d in spec.givens:
        grid[r, c] = d
    cost = 0.0
    for r in range(n):
        for c in range(n):
            if grid[r, c]:
                continue
            b0r = (r // sud.box_rows) * sud.box_rows
            b0c = (c // sud.box_cols) * sud.box_cols
            used = set(grid[r, :]) | set(grid[:, c]) | \
                set(grid[b0r:b0r + sud.box_rows, b0c:b0c + sud.box_cols].ravel())
            free = n - len(used - {0})
            cost += math.log(max(free, 1))
    return cost


def _worker_init(options: dict) -> None:
    ignore_sigint()
    _OPTIONS.update(options)


def _pool_count(spec: UnitSpec) -> UnitResult:
    return count_unit(spec)


def run_units(specs: Iterable[UnitSpec], *, workers: int = 1, memo: bool = True,
              memo_mb: float = 16.0, tail: bool | None = None) -> Iterator[UnitResult]:
    """Count ``specs`` (longest first) and yield each result as it arrives.

    ``workers=1`` counts in this process; more use a ``multiprocessing``
    pool (spawn context, so it behaves the same on every platform).  On
    ``KeyboardInterrupt`` the pool is terminated and the interrupt re-raised:
    results already yielded are the caller's to keep.  ``memo``, ``memo_mb``
    and ``tail`` are as for :func:`count_unit`.
    """
    ordered = sorted(specs, key=lambda s: (-estimate_cost(s), s.unit_id))
    options = {"memo": memo, "memo_mb": memo_mb, "tail": tail}
    if workers <= 1 or len(ordered) <= 1:
        saved = dict(_OPTIONS)
        _OPTIONS.update(options)
        try:
            for spec in ordered:
                yield count_unit(spec)
        finally:
            _OPTIONS.update(saved)
        return
    with spawn_pool(min(workers, len(ordered)), _worker_init, (options,)) as pool:
        it = pool.imap_unordered(_pool_count, ordered, chunksize=1)
        remaining = len(ordered)
        while remaining:
            try:
                # a timed wait keeps Ctrl-C responsive (an untimed one can
                # swallow it)
                result = it.next(timeout=0.2)
            except mp.TimeoutError:
                continue
            remaining -= 1
            yield result


def default_workers() -> int:
    """Cores available to this process."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
