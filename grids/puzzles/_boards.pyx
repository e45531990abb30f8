# cython: language_level=3
"""The candidate bit-board solver (private; ``grids.puzzles.boards`` checks
every input and is the only caller).  The kernel is ``_boards.h``: one
16-bit candidate mask per cell, naked and hidden singles, branching on a
cell of fewest candidates; the whole batch runs without the GIL.  Cells are
int64 (:func:`solve_batch`) or one byte each (:func:`solve_batch_bytes`).

The arguments are flat typed memoryviews, so any contiguous buffer of the
right item type does (NumPy arrays, ``array.array``, ``bytearray``): the
module imports no NumPy, and
:mod:`grids.puzzles.plain` solves a file without it (issue 37)."""
from libc.stdint cimport int32_t, int64_t, uint8_t

cdef extern from "_boards.h":
    int bb_solve_batch(int n, int n_cells, int n_units, const int32_t *units,
                       int n_peers, const int32_t *peers, const int64_t *grids,
                       const uint8_t *grids8, int64_t m, int64_t limit, int64_t *counts,
                       int64_t *sols, uint8_t *sols8, int64_t row8) noexcept nogil


cdef _raise(int rc):
    """The exception of a kernel return code (none for 0)."""
    if rc == -1:
        raise MemoryError("cannot allocate the boards")
    if rc <= -2:
        raise RuntimeError(f"puzzle {-2 - rc}: the solution found fails its check "
                           "(a defect of the board solver)")


def solve_batch(int n, const int32_t[::1] units not None, const int32_t[::1] peers not None,
                const int64_t[::1] grids not None, int64_t limit,
                int64_t[::1] counts not None, int64_t[::1] sols not None):
    """Fill ``counts`` and ``sols`` (see ``bb_solve_batch``).  Every buffer
    is flat: ``units`` rows of ``N`` cells, ``peers`` rows of as many peers
    for each of the ``N²`` cells, ``grids`` and ``sols`` rows of ``N²``
    cells, one count a row; the caller checked the sizes, ``n <= 16``, the
    digits and ``limit >= 1``."""
    cdef int rc
    cdef int nn = n * n
    cdef int64_t m = counts.shape[0]
    if m == 0:
        return
    with nogil:
        rc = bb_solve_batch(n, nn, <int>(units.shape[0] // n), &units[0],
                            <int>(peers.shape[0] // nn), &peers[0], &grids[0], NULL,
                            m, limit, &counts[0], &sols[0], NULL, 0)
    _raise(rc)


def solve_batch_bytes(int n, const int32_t[::1] units not None,
                      const int32_t[::1] peers not None, const uint8_t[::1] grids not None,
                      int64_t limit, int64_t[::1] counts not None, uint8_t[::1] sols not None,
                      int64_t row=0):
    """:func:`solve_batch` on one byte a cell (grids and solutions).  The
    solutions are ``row`` bytes apart (``N²`` when 0); the bytes after the
    ``N²`` of a longer row are left as they are (room for a newline)."""
    cdef int rc
    cdef int nn = n * n
    cdef int64_t m = counts.shape[0]
    if m == 0:
        return
    if row == 0:
        row = nn
    if row < nn or sols.shape[0] < m * row:
        raise ValueError(f"the solutions need {m} rows of {row} >= {nn} bytes, "
                         f"got {sols.shape[0]} bytes")
    with nogil:
        rc = bb_solve_batch(n, nn, <int>(units.shape[0] // n), &units[0],
                            <int>(peers.shape[0] // nn), &peers[0], NULL, &grids[0],
                            m, limit, &counts[0], NULL, &sols[0], row)
    _raise(rc)
