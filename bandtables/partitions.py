"""Box column codes: the partitions of ``N = 3R`` digits into three ``R``-sets.

A box of ``R`` rows × 3 columns holds every digit ``0 .. N-1`` once, so its
three columns split the digits into three ``R``-sets: the box's *column
code*.  Written digit by digit, an ordered code is a vector
``col[d] ∈ {0, 1, 2}`` (the column of digit ``d``) taking each value ``R``
times; there are ``M = N! / (R!)³`` of them.  Forgetting the order of the
columns leaves an *unordered* code (a partition); there are ``M / 6``.

Numbering
---------
An unordered code is written canonically as its *labels*: the blocks
numbered 0, 1, 2 in the order of their smallest digits.  Unordered codes
are numbered ``0 .. U-1`` in increasing order of their labels read as a
base-3 number (digit 0 most significant).  Code 0 is therefore
``{0..R-1}, {R..2R-1}, {2R..3R-1}`` (labels ``0^R 1^R 2^R``, the smallest
canonical labels): the *standard* code.

Relabelling digits
------------------
A permutation ``g`` of the digits acts on a code by moving digit ``d`` to
``g[d]``.  Two tables of this action are built here, both as flat arrays
of unordered-code numbers:

* :func:`normalisers` — for every code ``u`` one permutation ``π_u`` with
  ``π_u(u) = 0`` (block ``k``'s ``i``-th smallest digit goes to
  ``k·R + i``), and ``act[u, v] = π_u(v)``;
* :func:`standard_stabiliser` — every permutation fixing code 0 (permute
  inside the three blocks, then permute the blocks: ``(R!)³·3!`` of them)
  and ``act0[g, v] = g(v)``.

Everything here is plain NumPy: it runs once per process per ``R``.
"""
from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np

__all__ = ["ordered_codes", "unordered_codes", "canonical_labels", "code_index",
           "normalisers", "standard_stabiliser", "compatible_pairs", "band2_choices",
           "block_sets"]


def _check_R(R: int) -> int:
    if isinstance(R, bool) or not isinstance(R, (int, np.integer)) or not 1 <= R <= 5:
        raise ValueError(f"box column codes are built for R = 1..5 rows, got {R!r}")
    return int(R)


@lru_cache(maxsize=None)
def ordered_codes(R: int) -> np.ndarray:
    """Every ordered code, ``(M, 3R)`` uint8, in lexicographic order.

    >>> ordered_codes(1).tolist()
    [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    """
    R = _check_R(R)
    N = 3 * R
    out = []
    for zeros in itertools.combinations(range(N), R):
        rest = [d for d in range(N) if d not in zeros]
        for ones in itertools.combinations(rest, R):
            v = [2] * N
            for d in zeros:
                v[d] = 0
            for d in ones:
                v[d] = 1
            out.append(v)
    arr = np.array(sorted(out), dtype=np.uint8)
    assert len(arr) == math.factorial(N) // math.factorial(R) ** 3
    return arr


def canonical_labels(codes: np.ndarray) -> np.ndarray:
    """Canonical labels of a batch of codes ``(B, N)``: each row's values
    renamed 0, 1, 2 in the order of their first occurrence."""
    codes = np.asarray(codes)
    first = np.stack([np.argmax(codes == k, axis=1) for k in range(3)], axis=1)  # (B, 3)
    rank = np.argsort(np.argsort(first, axis=1), axis=1)                        # value -> label
    return np.take_along_axis(rank, codes.astype(np.int64), axis=1).astype(np.uint8)


def _base3(labels: np.ndarray) -> np.ndarray:
    N = labels.shape[1]
    return (labels.astype(np.int64) * (3 ** np.arange(N - 1, -1, -1, dtype=np.int64))).sum(1)


@lru_cache(maxsize=None)
def code_lookup(R: int) -> tuple[np.ndarray, np.ndarray]:
    """``(labels (U, N) uint8, index of every base-3 word or -1 (3^N,) int32)``."""
    o = ordered_codes(R)
    labels = np.unique(canonical_labels(o), axis=0)        # sorted rows = sorted base-3 words
    words = _base3(labels)
    assert np.all(np.diff(words) > 0)
    index = np.full(3 ** (3 * R), -1, dtype=np.int32)
    index[words] = np.arange(len(labels), dtype=np.int32)
    return labels, index


def unordered_codes(R: int) -> np.ndarray:
    """Canonical labels of every unordered code, ``(U, 3R)`` uint8, in numbering order.

    >>> unordered_codes(2).shape, unordered_codes(2)[0].tolist()
    ((15, 6), [0, 0, 1, 1, 2, 2])
    """
    return code_lookup(_check_R(R))[0]


def code_index(codes: np.ndarray, R: int) -> np.ndarray:
    """Number of the unordered code of each (ordered or not) code in a batch ``(B, 3R)``."""
    codes = np.atleast_2d(np.asarray(codes))
    idx = code_lookup(R)[1][_base3(canonical_labels(codes))]
    if np.any(idx < 0):
        raise ValueError("not a box column code: every value 0, 1, 2 must occur R times")
    return idx


def block_sets(u: int, R: int) -> tuple[tuple[int, ...], ...]:
    """The three blocks (digits 0-based, sorted) of unordered code ``u``, by smallest digit."""
    lab = unordered_codes(R)[u]
    return tuple(tuple(int(d) for d in np.flatnonzero(lab == k)) for k in range(3))


def act_table(perms: np.ndarray, R: int) -> np.ndarray:
    """``out[i, v]`` = number of ``perms[i](v)``: digit ``d`` of ``v`` moves to ``perms[i][d]``."""
    labels = unordered_codes(R)
    out = np.empty((len(perms), len(labels)), dtype=np.uint16)
    moved = np.empty_like(labels)
    for i, g in enumerate(perms):
        moved[:, g] = labels
        out[i] = code_index(moved, R)
    return out


@lru_cache(maxsize=None)
def normalisers(R: int) -> tuple[np.ndarray, np.ndarray]:
    """``(perms (U, N), act (U, U) uint16)``: ``π_u`` sends code ``u`` to 0,
    and ``act[u, v]`` is the number of ``π_u(v)``.  ``act[u, u] = 0``."""
    labels = unordered_codes(R)
    # π_u(d) = label(d)·R + (rank of d inside its block): sort by (label, digit)
    order = np.argsort(labels, axis=1, kind="stable")      # digits listed block by block
    perms = np.empty_like(order)
    np.put_along_axis(perms, order, np.arange(3 * R)[None, :], axis=1)
    act = act_table(perms, R)
    assert np.all(act[np.arange(len(labels)), np.arange(len(labels))] == 0)
    return perms, act


@lru_cache(maxsize=None)
def standard_stabiliser(R: int) -> tuple[np.ndarray, np.ndarray]:
    """``(perms (G, N), act0 (G, U) uint16)``: the ``(R!)³·3!`` permutations
    fixing the standard code 0, and their action on every code."""
    inside = list(itertools.permutations(range(R)))
    perms = []
    for blocks in itertools.permutations(range(3)):
        for p0, p1, p2 in itertools.product(inside, repeat=3):
            g = np.empty(3 * R, dtype=np.int64)
            for k, p in enumerate((p0, p1, p2)):
                g[k * R + np.arange(R)] = blocks[k] * R + np.array(p)
            perms.append(g)
    perms = np.array(perms)
    act0 = act_table(perms, R)
    assert np.all(act0[:, 0] == 0)
    return perms, act0


def compatible_pairs(column: np.ndarray, R: int, *, half: bool = False
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Band 2 and band 3 of one stack, given band 1's ordered code there.

    In a stack each grid column holds every digit once, so digit ``d``
    sits in a different column of the stack in each band: band 2's ordered
    code ``o`` must have ``o[d] != column[d]`` for every ``d``, and band
    3's is then forced, ``3 - column[d] - o[d]`` (again a code: each value
    ``R`` times, because each column of the stack holds ``N`` digits).
    Returns the unordered numbers ``(b, c)`` of band 2 and band 3 for every
    such ``o``, as uint16 arrays of one length ``K`` (the same for every
    ``column``: relabelling digits maps the choices of one onto another's).

    With ``half``, only the choices whose band-2 code is below its band-3
    code (as digit vectors, lexicographically) are kept: exchanging bands 2
    and 3 maps the choices onto themselves with no fixed point (``o[d]``
    and the third code differ at every digit), so this is exactly one of
    each exchanged pair, ``K/2`` in all.
    """
    column = np.asarray(column, dtype=np.int64)
    o = ordered_codes(R).astype(np.int64)
    ok = np.all(o != column[None, :], axis=1)
    b, third = o[ok], 3 - column[None, :] - o[ok]
    if half:
        first = np.argmax(b != third, axis=1)                  # first digit where they differ
        keep = b[np.arange(len(b)), first] < third[np.arange(len(b)), first]
        assert 2 * int(keep.sum()) == len(b)
        b, third = b[keep], third[keep]
    return code_index(b, R).astype(np.uint16), code_index(third, R).astype(np.uint16)


def band2_choices(codes: np.ndarray, R: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's ``(b, c)``, ``(R, K)`` uint16 each, for band 1's ordered
    codes ``(R, 3R)``: stack 0 keeps one choice of each pair exchanged by
    swapping bands 2 and 3 (its first ``K/2`` columns hold them; the rest
    repeat them and are never read: the kernel is asked for ``x_0 < K/2``).

    Every term ``l(P2)·l(P3)`` is symmetric in the two bands, so the whole
    sum is twice the sum over ``x_0 < K/2``.
    """
    rows_b, rows_c = [], []
    for s in range(R):
        b, c = compatible_pairs(codes[s], R, half=(s == 0))
        if s == 0:
            b, c = np.concatenate([b, b]), np.concatenate([c, c])
        rows_b.append(b)
        rows_c.append(c)
    return (np.ascontiguousarray(rows_b, dtype=np.uint16),
            np.ascontiguousarray(rows_c, dtype=np.uint16))
