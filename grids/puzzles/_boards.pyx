# cython: language_level=3
"""The candidate bit-board solver (private; ``grids.puzzles.boards`` checks
every input and is the only caller).  The kernel is ``_boards.h``: one
16-bit candidate mask per cell, naked and hidden singles, branching on a
cell of fewest candidates; the whole batch runs without the GIL."""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t

cnp.import_array()

cdef extern from "_boards.h":
    int bb_solve_batch(int n, int n_cells, int n_units, const int32_t *units,
                       int n_peers, const int32_t *peers, const int64_t *grids,
                       int64_t m, int64_t limit, int64_t *counts,
                       int64_t *sols) noexcept nogil


def solve_batch(int n, cnp.int32_t[:, ::1] units not None, cnp.int32_t[:, ::1] peers not None,
                cnp.int64_t[:, ::1] grids not None, int64_t limit,
                cnp.int64_t[::1] counts not None, cnp.int64_t[:, ::1] sols not None):
    """Fill ``counts`` and ``sols`` (see ``bb_solve_batch``); the caller
    checked the shapes, ``n <= 16``, the digits and ``limit >= 1``."""
    cdef int rc
    cdef int64_t m = grids.shape[0]
    if m == 0:
        return
    with nogil:
        rc = bb_solve_batch(n, <int>grids.shape[1], <int>units.shape[0],
                            <const int32_t *>&units[0, 0], <int>peers.shape[1],
                            <const int32_t *>&peers[0, 0], <const int64_t *>&grids[0, 0],
                            m, limit, <int64_t *>&counts[0], <int64_t *>&sols[0, 0])
    if rc == -1:
        raise MemoryError("cannot allocate the boards")
    if rc <= -2:
        raise RuntimeError(f"puzzle {-2 - rc}: the solution found fails its check "
                           "(a defect of the board solver)")
