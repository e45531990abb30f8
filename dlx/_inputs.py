"""Checks of the raw input of :class:`dlx.ExactCover` (private).

Plain, validating conversions of what users pass (DLX1 §14: in the input
phase "brute force is the rule"): each raises ``ValueError`` with a one-line
message naming what is wrong, and returns values of the exact type the
engine needs.
"""
from __future__ import annotations

import operator

import numpy as np

#: Largest int32: the engine's links, row numbers and batch offsets.
INT32_MAX = int(np.iinfo(np.int32).max)


def as_index(value, what: str) -> int:
    """``value`` as a Python int (any integer type but bool)."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be an integer, got {value!r}") from None


def column_counts(n_primary, n_secondary) -> tuple[int, int]:
    """The numbers of primary and secondary columns, checked (>= 0)."""
    n_primary = as_index(n_primary, "n_primary")
    n_secondary = as_index(n_secondary, "n_secondary")
    if n_primary < 0 or n_secondary < 0:
        raise ValueError(f"column counts must be >= 0, got n_primary={n_primary}, "
                         f"n_secondary={n_secondary}")
    return n_primary, n_secondary


def check_indptr(indptr: np.ndarray, indices: np.ndarray) -> None:
    """CSR offsets (as :func:`int_array` returns them): ``indptr`` 1-d,
    starting at 0, non-decreasing and ending at ``len(indices)``; ``indices``
    1-d.  Raises ValueError otherwise."""
    if indptr.ndim != 1 or indptr.size < 1 or indptr[0] != 0:
        raise ValueError("indptr must be a 1-d array starting at 0")
    if indices.ndim != 1:
        raise ValueError(f"indices must be a 1-d array, got shape {indices.shape}")
    if np.any(np.diff(indptr) < 0) or indptr[-1] != indices.size:
        raise ValueError("indptr must be non-decreasing and end at len(indices)")


def increasing_in_groups(indptr: np.ndarray, values: np.ndarray) -> bool:
    """Whether every group ``values[indptr[g]:indptr[g+1]]`` is strictly
    increasing, so that none lists a value twice.  One pass, no sort: the
    shortcut of :func:`first_repeat` for batches written in order (a
    Sudoku batch's given rows rise with the cell)."""
    if values.size < 2:
        return True
    rising = values[1:] > values[:-1]
    # rising[k] compares values[k + 1] with values[k]: where k + 1 starts
    # a group, it compares two groups and says nothing
    starts = indptr[1:-1]
    starts = starts[(starts > 0) & (starts < values.size)]
    rising[starts - 1] = True
    return bool(rising.all())


def first_repeat(indptr: np.ndarray, values: np.ndarray) -> tuple[int, int] | None:
    """``(group, value)`` of a value listed twice in one group
    ``values[indptr[g]:indptr[g+1]]`` (the smallest such group and value),
    or None.  Groups already in increasing order are answered without
    sorting (:func:`increasing_in_groups`); the others by one lexsort."""
    if increasing_in_groups(indptr, values):
        return None
    group = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    order = np.lexsort((values, group))
    g, v = group[order], values[order]
    dup = np.flatnonzero((g[1:] == g[:-1]) & (v[1:] == v[:-1]))
    if dup.size == 0:
        return None
    return int(g[dup[0]]), int(v[dup[0]])


def first_out_of_range(indptr: np.ndarray, values: np.ndarray,
                       limit: int) -> tuple[int, int] | None:
    """``(group, value)`` of the first value outside ``0..limit-1`` (groups
    ``values[indptr[g]:indptr[g+1]]``), or None."""
    if not values.size or (values.min() >= 0 and values.max() < limit):
        return None
    k = int(np.flatnonzero((values < 0) | (values >= limit))[0])
    return int(np.searchsorted(indptr, k, side="right") - 1), int(values[k])


def check_entries(indptr: np.ndarray, values: np.ndarray, limit: int, group: str, entry: str,
                  twice: str) -> None:
    """Every group ``values[indptr[g]:indptr[g+1]]`` lies in ``0..limit-1``
    and lists no value twice (a matrix's rows of columns, a batch's problems
    of given rows); else a ValueError naming the first such group and value,
    ``"{group} g: {entry} v is out of range 0..limit-1"`` or
    ``"{group} g: {entry} v {twice}"``."""
    outside = first_out_of_range(indptr, values, limit)
    if outside is not None:
        raise ValueError(f"{group} {outside[0]}: {entry} {outside[1]} is out of range "
                         f"0..{limit - 1}")
    repeat = first_repeat(indptr, values)
    if repeat is not None:
        raise ValueError(f"{group} {repeat[0]}: {entry} {repeat[1]} {twice}")


def int_array(values, what: str) -> np.ndarray:
    """``values`` as an int64 array; integers only, each fitting in 64 bits."""
    try:
        arr = np.asarray(values)
    except (OverflowError, ValueError) as e:
        raise ValueError(f"{what} must hold integers that fit in 64 bits ({e})") from None
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype == object and all(isinstance(v, int) and not isinstance(v, bool)
                                   for v in arr.ravel()):
        raise ValueError(f"{what} must hold integers that fit in 64 bits")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{what} must hold integers, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and arr.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{what} must hold integers that fit in 64 bits, "
                         f"got {int(arr.max())}")
    return arr.astype(np.int64, copy=False)


def check_limit(limit, maximum: int, shown: str) -> int:
    """A search limit: an integer in ``1..maximum`` (``shown`` in messages)."""
    limit = as_index(limit, "limit")
    if not 1 <= limit <= maximum:
        raise ValueError(f"limit must be in 1..{shown}, got {limit}")
    return limit


def lead_arrays(lead, n: int) -> list:
    """``lead`` of :meth:`ExactCover.set_tail` as four int arrays of the right
    shapes (or []); its columns are checked with the rectangle's."""
    if lead is None:
        return []
    if isinstance(lead, (str, bytes)) or len(lead) != 4:
        raise ValueError("lead must be (cell, row_symbol, box_symbol, stack)")
    cell, row_symbol, box_symbol, stack = (
        int_array(a, f"lead {name}") for a, name in
        zip(lead, ("cell", "row_symbol", "box_symbol", "stack")))
    if cell.shape != (n,) or row_symbol.shape != (n,) or stack.shape != (n,):
        raise ValueError(f"lead cell, row_symbol and stack must have length {n}")
    if box_symbol.ndim != 2 or box_symbol.shape[1] != n or not 1 <= box_symbol.shape[0] <= n:
        raise ValueError(f"lead box_symbol must be S x {n} with 1 <= S <= {n}, "
                         f"got shape {box_symbol.shape}")
    if stack.min() < 0 or stack.max() >= box_symbol.shape[0]:
        raise ValueError(f"lead stack values must be in 0..{box_symbol.shape[0] - 1}")
    return [cell, row_symbol, box_symbol, stack]


def tail_arguments(priority, cell, row_symbol, column_symbol, lead, n_primary: int,
                   column_priority: np.ndarray) -> tuple[int, list]:
    """The arguments of :meth:`ExactCover.set_tail` checked against the
    matrix (``n_primary`` columns, each of priority ``column_priority[c]``):
    ``(priority, args)``, ``args`` what the engine's ``configure_tail`` takes
    after the priority (each column group's first column, int32)."""
    priority = as_index(priority, "tail priority")
    arrays = [int_array(a, name) for a, name in
              ((cell, "cell"), (row_symbol, "row_symbol"),
               (column_symbol, "column_symbol"))]
    cell_a, row_a, col_a = arrays
    if cell_a.ndim != 2 or not 1 <= cell_a.shape[0] <= cell_a.shape[1] <= 64:
        raise ValueError(f"cell must be an R x N array with 1 <= R <= N <= 64, "
                         f"got shape {cell_a.shape}")
    r, n = cell_a.shape
    if row_a.shape != (r, n) or col_a.shape != (n, n):
        raise ValueError(f"row_symbol must be {r} x {n} and column_symbol "
                         f"{n} x {n}, got {row_a.shape} and {col_a.shape}")
    lead_a = lead_arrays(lead, n)
    # the column groups: rows of the rectangle's arrays, then the lead
    # row's cell, row-symbol and box-symbol groups
    groups = [a.reshape(-1, n) for a in (*arrays, *lead_a[:3])]
    every = np.concatenate(groups).ravel()
    if every.min() < 0 or every.max() >= n_primary:
        raise ValueError("tail columns must be primary columns "
                         f"0..{n_primary - 1}")
    if np.unique(every).size != every.size:
        raise ValueError("tail columns must be distinct")
    cells = np.concatenate([cell_a.ravel(), *lead_a[:1]])
    if np.any(column_priority[cells] < priority):
        raise ValueError("the tail's cell columns must have priority >= "
                         f"{priority}")
    if any(np.any(g != g[:, :1] + np.arange(n)) for g in groups):
        raise ValueError(f"each row of the tail's column arrays must be {n} "
                         "consecutive columns (c, c+1, ..., c+N-1)")
    firsts = [np.ascontiguousarray(g[:, 0], dtype=np.int32) for g in groups]
    lead_first = []
    if lead_a:
        lead_first = [int(firsts[3][0]), int(firsts[4][0]), firsts[5],
                      lead_a[3].astype(np.int32)]
    return priority, [*firsts[:3], *lead_first]


def batch_givens(given, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """``given`` of :meth:`ExactCover.solve_batch` as checked int64 CSR
    arrays ``(indptr, indices)``: every problem's rows in ``0..n_rows-1`` and
    distinct (a repeated row is a ValueError naming the problem, as
    :meth:`ExactCover.count` refuses it)."""
    if isinstance(given, tuple) and len(given) == 2 and not isinstance(given[0], (list, tuple)):
        indptr = int_array(given[0], "indptr")
        indices = int_array(given[1], "indices")
        check_indptr(indptr, indices)
    else:
        if isinstance(given, (str, bytes)) or not hasattr(given, "__iter__"):
            raise ValueError("given must be a sequence of problems, each a "
                             "sequence of row indices, or (indptr, indices)")
        lists = []
        for k, problem in enumerate(given):
            if isinstance(problem, (str, bytes)) or not hasattr(problem, "__iter__"):
                raise ValueError(f"problem {k} must be a sequence of row indices, "
                                 f"got {problem!r}")
            rows = [as_index(g, f"problem {k}: given row") for g in problem]
            for g in rows:
                if not 0 <= g < n_rows:
                    raise ValueError(f"problem {k}: given row {g} is out of range "
                                     f"0..{n_rows - 1}")
            lists.append(rows)
        indptr = np.cumsum([0] + [len(x) for x in lists], dtype=np.int64)
        indices = np.asarray([g for x in lists for g in x], dtype=np.int64)
    if indices.size > INT32_MAX:
        raise ValueError(f"a batch holds at most {INT32_MAX:,} given rows in all; "
                         "split it")
    check_entries(indptr, indices, n_rows, "problem", "given row", "is listed twice")
    return indptr, indices
