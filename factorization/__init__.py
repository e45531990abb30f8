"""Latin rectangles and squares counted by ordered 1-factorizations.

The public API lives in :mod:`factorization.api` (re-exported here); the
counting core is the private Cython module ``factorization._kernel``.
"""
from factorization.api import (CANON_VERSION, ENGINE_NAME, KERNEL_VERSION, MAX_N, PROCESS_MEMO_MIN_MB, FactorizationCounter,
                               LatinUnit, adjacency, count_factorizations, count_unit_chunk,
                               count_unit_class, latin_rectangles, latin_squares, latin_units,
                               NoRoomForMemo, process_counter, process_memo_mb,
                               reserve_process_memo, shared_memo_refusal)

__all__ = ["count_factorizations", "latin_rectangles", "latin_squares", "latin_units",
           "count_unit_class", "count_unit_chunk", "adjacency", "LatinUnit",
           "FactorizationCounter", "MAX_N", "process_counter", "process_memo_mb",
           "reserve_process_memo", "shared_memo_refusal", "NoRoomForMemo", "PROCESS_MEMO_MIN_MB", "ENGINE_NAME", "KERNEL_VERSION", "CANON_VERSION"]
