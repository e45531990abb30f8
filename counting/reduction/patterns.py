"""The "patterns" reduction ("44" for 3x3): classes by column-set patterns.

The *column-set pattern* of a band is, for each box, the set of its
columns' digit sets (:func:`column_set_pattern`).  Two reduced bands are in
one class when their patterns are equivalent: equal after reordering the
boxes and relabelling the digits (REDUCTION.md); bands with equivalent
patterns have equal completion counts.  For 3×3 there are 44 classes,
coarser than the 71 of the five moves.

:func:`pattern_labels` builds the classes by closing the set of patterns
under generators of the equivalence (a union-find over pattern keys);
:func:`canonical_column_set_pattern` computes REDUCTION.md's canonical form
by brute force, for checks.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from counting.reduction.band_reduction import BandReduction
from counting.reduction.bands import column_sets, reduced_bands, standard_box1, swap_axis
from counting.reduction.classes import components
from counting.reduction.normal_form import as_bands
from grids.shape import Shape, as_shape

__all__ = ["column_set_pattern", "canonical_column_set_pattern", "pattern_labels",
           "PatternsReduction"]

# A pattern is, for each box of the band, the set of its columns' digit sets.
# Internally a pattern with standard box 1 is an (m, R, C) array of column
# bit masks, each box's masks sorted ascending; its key packs boxes 2..R
# (box 1 is always the standard {1,4,7},{2,5,8},{3,6,9}).

def _std_column_masks(s: Shape) -> np.ndarray:
    """Masks of box 1's column sets when box 1 is standard, ascending."""
    return column_sets(standard_box1(s)[None])[0]


def _mask_digits(s: Shape) -> np.ndarray:
    """Table: mask → its R digits (0-based, ascending); only R-bit masks used."""
    table = np.zeros((1 << s.n, s.box_rows), dtype=np.int64)
    for combo in itertools.combinations(range(s.n), s.box_rows):
        table[sum(1 << d for d in combo)] = combo
    return table


def _relabel_masks(masks: np.ndarray, perm: np.ndarray, s: Shape) -> np.ndarray:
    """Apply 0-based digit permutations ``perm`` (m, N) to masks (m, ...)."""
    bits = (masks[..., None] >> np.arange(s.n)) & 1
    shape = (len(masks),) + (1,) * (masks.ndim - 1) + (s.n,)
    return (bits << perm.reshape(shape)).sum(axis=-1)


def _restore_box1(pattern: np.ndarray, s: Shape) -> np.ndarray:
    """Relabel so that box 1's column sets become the standard ones.

    Box 1's sets, ascending, go to the standard sets in order, each set's
    digits ascending onto the standard set's digits ascending.  Any other
    choice differs by a relabelling that keeps box 1 standard, which the
    ``"44"`` equivalence allows anyway.
    """
    m = len(pattern)
    digits = _mask_digits(s)
    src = digits[np.sort(pattern[:, 0, :], axis=-1)].reshape(m, -1)  # (m, N) old digits
    dst = digits[_std_column_masks(s)].reshape(-1)  # matching new digits
    perm = np.zeros((m, s.n), dtype=np.int64)
    perm[np.arange(m)[:, None], src] = dst
    return _relabel_masks(pattern, perm, s)


def _pattern_keys(pattern: np.ndarray, s: Shape) -> np.ndarray:
    """Sort each box's masks and pack boxes 2..R into one int64."""
    # Invariant: box 1 holds the standard column sets (in some order).
    assert np.array_equal(np.sort(pattern[:, 0, :], axis=-1),
                          np.broadcast_to(_std_column_masks(s), pattern[:, 0, :].shape))
    tail = np.sort(pattern[:, 1:, :], axis=-1).reshape(len(pattern), -1)
    if s.n * tail.shape[1] >= 63:
        raise ValueError(f"shape {s.name}: column-set patterns do not fit an int64 key")
    shifts = s.n * np.arange(tail.shape[1] - 1, -1, -1, dtype=np.int64)
    return (tail << shifts).sum(axis=1)


def _pattern_from_keys(keys: np.ndarray, s: Shape) -> np.ndarray:
    """Inverse of :func:`_pattern_keys` (box 1 set to the standard sets)."""
    width = (s.n_stacks - 1) * s.box_cols
    shifts = s.n * np.arange(width - 1, -1, -1, dtype=np.int64)
    tail = (keys[:, None] >> shifts) & ((1 << s.n) - 1)
    box1 = np.broadcast_to(_std_column_masks(s), (len(keys), s.box_cols))
    return np.concatenate([box1, tail], axis=1).reshape(len(keys), s.n_stacks, s.box_cols)


def _wreath_generators(s: Shape) -> list[np.ndarray]:
    """Digit permutations (0-based) generating all relabellings that keep
    box 1's column sets, as a set of sets: swaps of adjacent column sets
    (with their digits in order) and swaps of adjacent digits inside the
    first set.  Conjugating the latter by the former reaches every set.
    """
    std = _mask_digits(s)[_std_column_masks(s)]  # (C, R): set j, its digits ascending
    gens = []
    for j in range(s.box_cols - 1):
        perm = np.arange(s.n)
        perm[std[j]], perm[std[j + 1]] = std[j + 1], std[j]
        gens.append(perm)
    for i in range(s.box_rows - 1):
        perm = np.arange(s.n)
        perm[[std[0, i], std[0, i + 1]]] = std[0, i + 1], std[0, i]
        gens.append(perm)
    return gens


def _pattern_moves(pattern: np.ndarray, s: Shape) -> list[np.ndarray]:
    """Images of patterns under generators of the ``"44"`` equivalence."""
    out = []
    for a in range(s.n_stacks - 1):  # adjacent box swaps generate all box orders
        swapped = swap_axis(pattern, 1, a, a + 1)
        out.append(_restore_box1(swapped, s) if a == 0 else swapped)
    for perm in _wreath_generators(s):
        out.append(_relabel_masks(pattern, np.broadcast_to(perm, (len(pattern), s.n)), s))
    return out


@lru_cache(maxsize=None)
def _pattern_labels(s: Shape) -> np.ndarray:
    bands = reduced_bands(s)
    pattern = column_sets(bands).reshape(len(bands), s.n_stacks, s.box_cols)
    band_keys = _pattern_keys(pattern, s)
    # Close the set of patterns under the generators, recording edges.
    known = np.unique(band_keys)
    frontier, edge_a, edge_b = known, [], []
    while len(frontier):
        current = _pattern_from_keys(frontier, s)
        found = []
        for image in _pattern_moves(current, s):
            keys = _pattern_keys(image, s)
            edge_a.append(frontier)
            edge_b.append(keys)
            found.append(keys)
        if not found:
            break  # no generators (1x1): every pattern is its own class
        frontier = np.setdiff1d(np.concatenate(found), known)  # unique, sorted
        known = np.union1d(known, frontier)
    a = np.searchsorted(known, np.concatenate(edge_a or [known[:0]]))
    b = np.searchsorted(known, np.concatenate(edge_b or [known[:0]]))
    root = components(len(known), a, b)[np.searchsorted(known, band_keys)]
    # Label each band by the smallest band index sharing its pattern orbit.
    first = np.full(len(known), len(bands))
    np.minimum.at(first, root, np.arange(len(bands)))
    return first[root]


def pattern_labels(shape: Shape | str) -> np.ndarray:
    """Index of the smallest reduced band with an equivalent pattern, per
    reduced band (computed once per shape).

    Examples
    --------
    >>> len(set(pattern_labels("3x3").tolist()))
    44
    """
    return _pattern_labels(as_shape(shape))


def column_set_pattern(band: object, shape: Shape | str) -> tuple:
    """The column-set pattern of a band: per box, the set of column sets.

    Returns
    -------
    tuple
        One entry per box; each is the sorted tuple of its columns' digit
        sets, each set a sorted tuple of digits.

    Examples
    --------
    >>> column_set_pattern(reduced_bands("3x3")[0], "3x3")[0]
    ((1, 4, 7), (2, 5, 8), (3, 6, 9))
    """
    s = as_shape(shape)
    stack, single = as_bands(band, s)
    if not single:
        raise ValueError(f"column_set_pattern takes one band of shape ({s.box_rows}, {s.n})")
    cols = np.sort(stack[0], axis=0).T.reshape(s.n_stacks, s.box_cols, s.box_rows)
    return tuple(tuple(sorted(tuple(int(d) for d in c) for c in box)) for box in cols)


def canonical_column_set_pattern(band: object, shape: Shape | str) -> tuple:
    """The canonical form of a band's column-set pattern, by brute force.

    Straight from REDUCTION.md: for every order of the boxes and every
    relabelling sending the new box 1's column sets onto the standard ones
    ({1,4,7}, {2,5,8}, {3,6,9} for 3×3; in any order, any order inside), read
    boxes 2..R as sorted lists of sorted sets; keep the smallest tuple.  Two
    bands are in the same ``"patterns"`` (``"44"``) class exactly when these
    forms are equal.  It tries all ``R! · C!·(R!)^C`` candidates (3!·3!·(3!)³
    for 3×3), so it serves checks; :func:`pattern_labels` builds the classes
    by a closure over generators instead.

    Returns
    -------
    tuple
        ``(box 2, box 3)``, each a sorted tuple of sorted digit tuples.

    Examples
    --------
    >>> b = reduced_bands("3x3")[0]
    >>> canonical_column_set_pattern(b, "3x3") == canonical_column_set_pattern(b[[2, 0, 1]], "3x3")
    True
    """
    s = as_shape(shape)
    pattern = np.array(column_set_pattern(band, s)) - 1  # (boxes, C, R), 0-based
    targets = _relabel_targets(s)  # (k, C, R)
    weights = np.int64(s.n) ** np.arange(s.box_rows - 1, -1, -1, dtype=np.int64)
    code_bits = int(s.n ** s.box_rows - 1).bit_length()  # one sorted column set
    width = (s.n_stacks - 1) * s.box_cols
    if code_bits * width >= 63:
        raise ValueError(f"shape {s.name}: canonical patterns do not fit an int64 key")
    shifts = code_bits * np.arange(width - 1, -1, -1, dtype=np.int64)
    best = None
    for order in itertools.permutations(range(s.n_stacks)):
        boxes = pattern[list(order)]
        # perm[k] sends the new box 1's set j, digit i, onto targets[k, j, i].
        perm = np.zeros((len(targets), s.n), dtype=np.int64)
        perm[:, boxes[0].reshape(-1)] = targets.reshape(len(targets), -1)
        image = np.sort(perm[:, boxes[1:]], axis=-1)  # (k, boxes-1, C, R)
        codes = np.sort(image @ weights, axis=-1).reshape(len(targets), width)
        key = int(((codes << shifts).sum(axis=1)).min())
        if best is None or key < best:
            best = key
    codes = [(best >> int(sh)) & ((1 << code_bits) - 1) for sh in shifts]
    sets = [tuple(int(c // int(w)) % s.n + 1 for w in weights) for c in codes]
    return tuple(tuple(sets[b * s.box_cols:(b + 1) * s.box_cols]) for b in range(s.n_stacks - 1))


def _relabel_targets(s: Shape) -> np.ndarray:
    """Every ordering of the standard column sets and of the digits inside
    them, as a (k, C, R) array of 0-based digits (k = C! · (R!)^C).
    """
    std = _mask_digits(s)[_std_column_masks(s)]  # (C, R)
    out = []
    for order in itertools.permutations(range(s.box_cols)):
        inner = [list(itertools.permutations(std[j])) for j in order]
        out.extend(itertools.product(*inner))
    return np.array(out, dtype=np.int64)


class PatternsReduction(BandReduction):
    """Classes of reduced bands with equivalent column-set patterns ("44" for 3×3).

    Examples
    --------
    >>> r = PatternsReduction("3x3")
    >>> r.name, len(r.classes())
    ('44', 44)
    """

    kind = "patterns"
    name_3x3 = "44"

    def labels(self) -> np.ndarray:
        return pattern_labels(self.shape)
