"""Small exact-cover encodings and pure-Python references for the dlx tests.

Every builder returns ``(rows, n_primary, n_secondary)`` in the format that
``dlx.ExactCover`` takes: ``rows`` is a list of rows, each a list of column
indices; columns ``0 .. n_primary-1`` are primary (covered exactly once) and
``n_primary .. n_primary+n_secondary-1`` secondary (covered at most once).

Nothing here imports ``dlx``: these are the independent side of each check.
"""

import numpy as np

# --------------------------------------------------------------------------
# Worked examples
# --------------------------------------------------------------------------


def knuth_example():
    """The 6 x 7 matrix of Knuth's "Dancing Links" paper (arXiv cs/0011047).

    Universe {1..7} (columns 0..6); rows in order A..F:
    A={1,4,7}, B={1,4}, C={4,5,7}, D={3,5,6}, E={2,3,6,7}, F={2,7}.
    Its only exact cover is {B, D, F}, i.e. rows [1, 3, 5].
    """
    sets = [
        {1, 4, 7},  # A
        {1, 4},  # B
        {4, 5, 7},  # C
        {3, 5, 6},  # D
        {2, 3, 6, 7},  # E
        {2, 7},  # F
    ]
    rows = [sorted(x - 1 for x in s) for s in sets]
    return rows, 7, 0


def queen_row(n, rank, file):
    """Row index of the square (rank, file) in :func:`n_queens`."""
    return rank * n + file


def n_queens(n):
    """The n-queens problem (Knuth's encoding).

    One row per square, row ``rank * n + file`` (see :func:`queen_row`).
    Primary columns: the n ranks (``0 .. n-1``) then the n files
    (``n .. 2n-1``). Secondary columns: the 2n-1 diagonals ``rank + file``
    then the 2n-1 anti-diagonals ``rank - file + n - 1``.
    Solution counts: 1, 0, 0, 2, 10, 4, 40, 92 for n = 1..8.
    """
    n_diag = 2 * n - 1
    rows = []
    for rank in range(n):
        for file in range(n):
            rows.append(
                [
                    rank,
                    n + file,
                    2 * n + rank + file,
                    2 * n + n_diag + rank - file + n - 1,
                ]
            )
    return rows, 2 * n, 2 * n_diag


# The 12 free pentominoes, each as a picture with "#" for a cell.
PENTOMINOES = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("#.", "#.", "#.", "##"),
    "N": ("###.", "..##"),
    "P": ("##", "##", "#."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": (".#..", "####"),
    "Z": ("##.", ".#.", ".##"),
}


def _normalize(cells):
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(picture):
    """All distinct orientations (rotations and reflections) of a piece.

    Returns a sorted list of normalized cell tuples (top-left at (0, 0)).
    """
    cells = [(r, c) for r, line in enumerate(picture) for c, ch in enumerate(line) if ch == "#"]
    seen = set()
    for _ in range(2):
        for _ in range(4):
            seen.add(_normalize(cells))
            cells = [(c, -r) for r, c in cells]  # rotate by 90 degrees
        cells = [(r, -c) for r, c in cells]  # reflect
    return sorted(seen)


def pentominoes(height, width):
    """Pack the 12 pentominoes into a ``height`` x ``width`` rectangle
    (``height * width == 60``).

    Columns: the 12 pieces (``0 .. 11``, in the order of :data:`PENTOMINOES`)
    then the cells (``12 + width * r + c``); all primary. One row for every
    distinct orientation of every piece in every position. No symmetry
    breaking, so every tiling is counted once per symmetry of the rectangle
    (4 for the rectangles below).

    Covers: 3x20: 8, 4x15: 1,472, 5x12: 4,040, 6x10: 9,356.
    """
    if height * width != 60:
        raise ValueError("the 12 pentominoes cover 60 cells")
    rows = []
    for piece, picture in enumerate(PENTOMINOES.values()):
        for shape in orientations(picture):
            h = 1 + max(r for r, _ in shape)
            w = 1 + max(c for _, c in shape)
            for dr in range(height - h + 1):
                for dc in range(width - w + 1):
                    rows.append(
                        [piece] + sorted(12 + width * (r + dr) + (c + dc) for r, c in shape)
                    )
    return rows, 12 + height * width, 0


def pentominoes_6x10():
    """Pack the 12 pentominoes into a 6 x 10 rectangle (see :func:`pentominoes`).

    2,056 rows, 72 primary columns, 9,356 = 4 x 2,339 covers.
    """
    return pentominoes(6, 10)


def independent_choices(n_blocks, k):
    """``n_blocks`` primary columns, each covered by ``k`` one-column rows.

    Every column is chosen independently, so there are ``k ** n_blocks``
    covers; memoization on the set of uncovered columns counts them in a
    number of nodes linear in ``n_blocks``. Rows ``b*k .. b*k+k-1`` cover
    column ``b``.
    """
    rows = [[b] for b in range(n_blocks) for _ in range(k)]
    return rows, n_blocks, 0


# --------------------------------------------------------------------------
# Converters and references
# --------------------------------------------------------------------------


def to_csr(rows, indptr_dtype=np.intp, indices_dtype=np.intp):
    """``(indptr, indices)`` arrays describing ``rows`` in CSR layout."""
    indptr = np.zeros(len(rows) + 1, dtype=indptr_dtype)
    indptr[1:] = np.cumsum([len(r) for r in rows], dtype=np.int64)
    indices = np.array([c for r in rows for c in r], dtype=indices_dtype)
    return indptr, indices


def is_exact_cover(rows, n_primary, n_secondary, solution):
    """True if the rows in ``solution`` cover every primary column exactly
    once and every secondary column at most once."""
    counts = [0] * (n_primary + n_secondary)
    for i in solution:
        for c in rows[i]:
            counts[c] += 1
    return all(x == 1 for x in counts[:n_primary]) and all(x <= 1 for x in counts[n_primary:])


def brute_force_solutions(rows, n_primary, n_secondary=0):
    """Every exact cover, by plain include/exclude recursion over the rows.

    Each row is either left out or, if it is disjoint from the rows already
    taken, put in; a complete choice is kept when it covers every primary
    column. Pairwise disjoint rows cover every column at most once, so the
    result is exactly the set of subsets of rows that cover each primary
    column once and each secondary column at most once.

    Returns a sorted list of tuples of row indices (each tuple increasing).
    Note: a row made only of secondary columns may be added to or left out of
    any cover, which DLX (choosing rows through primary columns) never does;
    the random tests therefore give every row at least one primary column.
    """
    masks = []
    for row in rows:
        m = 0
        for c in row:
            m |= 1 << c
        masks.append(m)
    all_primary = (1 << n_primary) - 1
    out = []
    chosen = []

    def rec(i, used):
        if i == len(masks):
            if used & all_primary == all_primary:
                out.append(tuple(chosen))
            return
        rec(i + 1, used)
        if not masks[i] & used:
            chosen.append(i)
            rec(i + 1, used | masks[i])
            chosen.pop()

    rec(0, 0)
    return sorted(out)


def brute_force_count(rows, n_primary, n_secondary=0):
    """The number of exact covers (see :func:`brute_force_solutions`)."""
    return len(brute_force_solutions(rows, n_primary, n_secondary))
