# cython: language_level=3
"""The candidate bit-board solver (private; ``grids.puzzles.boards`` checks
every input and is the only caller).  The kernel is ``_boards.h``: one
16-bit candidate mask per cell, naked and hidden singles, branching on a
cell of fewest candidates; the whole batch runs without the GIL.  Cells are
int64 (:func:`solve_batch`) or one byte each (:func:`solve_batch_bytes`)."""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint8_t

cnp.import_array()

cdef extern from "_boards.h":
    int bb_solve_batch(int n, int n_cells, int n_units, const int32_t *units,
                       int n_peers, const int32_t *peers, const int64_t *grids,
                       const uint8_t *grids8, int64_t m, int64_t limit, int64_t *counts,
                       int64_t *sols, uint8_t *sols8) noexcept nogil


cdef _raise(int rc):
    """The exception of a kernel return code (none for 0)."""
    if rc == -1:
        raise MemoryError("cannot allocate the boards")
    if rc <= -2:
        raise RuntimeError(f"puzzle {-2 - rc}: the solution found fails its check "
                           "(a defect of the board solver)")


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
                            <const int32_t *>&peers[0, 0], <const int64_t *>&grids[0, 0], NULL,
                            m, limit, <int64_t *>&counts[0], <int64_t *>&sols[0, 0], NULL)
    _raise(rc)


def solve_batch_bytes(int n, cnp.int32_t[:, ::1] units not None,
                      cnp.int32_t[:, ::1] peers not None, const cnp.uint8_t[:, ::1] grids not None,
                      int64_t limit, cnp.int64_t[::1] counts not None,
                      cnp.uint8_t[:, ::1] sols not None):
    """:func:`solve_batch` on one byte a cell (grids and solutions uint8)."""
    cdef int rc
    cdef int64_t m = grids.shape[0]
    if m == 0:
        return
    with nogil:
        rc = bb_solve_batch(n, <int>grids.shape[1], <int>units.shape[0],
                            <const int32_t *>&units[0, 0], <int>peers.shape[1],
                            <const int32_t *>&peers[0, 0], NULL, <const uint8_t *>&grids[0, 0],
                            m, limit, <int64_t *>&counts[0], NULL, <uint8_t *>&sols[0, 0])
    _raise(rc)
