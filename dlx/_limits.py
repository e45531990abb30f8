"""Limits of what the engine accepts (private; re-exported by ``dlx.api``).

The largest search limits its counters hold, and the largest memo table
this machine can hold, with the validator of memo sizes that every layer
(the API, the counting options, the command line) shares.
"""
from __future__ import annotations

import math
import os

import numpy as np

#: Largest ``limit`` of :meth:`ExactCover.count`: the engine's counters are
#: 128-bit.
COUNT_LIMIT_MAX = 2**128 - 1
#: Largest ``limit`` of :meth:`ExactCover.solve_batch`: its per-problem
#: counts are 32-bit in the engine.
BATCH_LIMIT_MAX = 2**31 - 1


def _physical_mib() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 2**20


#: Largest memo table accepted, in MiB: this machine's physical memory
#: (a table that cannot fit would fail with MemoryError or swap forever).
MEMO_MB_MAX = min(2**20, _physical_mib())


def check_memo_mb(memo_mb) -> float:
    """Validate a memo-table size in MiB: a finite number in ``(0, MEMO_MB_MAX]``.

    Raises ``ValueError`` with a one-line message otherwise; returns it as float.
    """
    if isinstance(memo_mb, bool) or not isinstance(memo_mb, (int, float, np.integer, np.floating)) \
            or not math.isfinite(memo_mb) or not 0 < memo_mb <= MEMO_MB_MAX:
        raise ValueError(f"memo size must be a number of MiB in (0, {MEMO_MB_MAX:,}] "
                         f"(this machine's memory), got {memo_mb!r}")
    return float(memo_mb)
