"""Third routes for five of 2x5's Burnside terms (issue 34): elements that
swap the two stacks column for column and the rows of bands, counted from the
left stack's digits without patterns, pattern classes, the factorization
kernel or exact cover; plain Python, no package code.

A grid fixed by such an element ``g`` with an involution ``π`` is any left
stack (``2C × C``: each column all digits, each band's box all digits) whose
row sets obey ``π(S_ρ(r)) = comp S_r``; the right stack is then the left one
moved by ``ρ`` and relabelled by ``π``.  Each digit meets every band once over
the ``C`` columns (a permutation of the bands), each (column, band) holds two
digits in either order, and the condition on the row sets becomes one on
those orders.  :func:`band_swap_fixed` counts the element that swaps the rows
of every band (2x5: units 19, 20, 21 for ``π`` of 0, 1, 2 transpositions),
:func:`exchanged_pair_fixed` the one that exchanges the last two bands row
for row (units 41 and 42, ``π`` of 0 and 1 transpositions).  ``scripts/two_stack_gap_audit.py --third``
compares them with the tables and with brute force.
"""
from __future__ import annotations

import itertools
import math
from functools import lru_cache

__all__ = ["band_swap_fixed", "band_swap_element", "exchanged_pair_fixed", "exchanged_pair_element",
           "involution_type"]


def involution_type(c: int, k: int) -> tuple[int, ...]:
    """The cycle type of an involution of ``2C`` digits with ``k`` transpositions."""
    return (2,) * k + (1,) * (2 * c - 2 * k)



def band_swap_fixed(c: int, k: int = 0) -> int:
    """``#fixed`` of the element swapping every band's rows and the stacks
    column for column, with ``π`` of ``k`` transpositions (docstring, step 5).

    A digit's bands over the ``C`` columns are a permutation ``σ_d``; each
    (column, band) holds two digits.  The row sets must be ``π``-invariant:
    the two digits of a transposition lie in one row of every band, so never
    in one (column, band).  In band ``b`` the digits sharing a column (``C``
    edges "other row") and ``π``'s pairs (``k`` edges "same row") make
    ``C − k`` paths and cycles plus one per cycle; a cycle is consistent when
    it has an even number of pairs, and each consistent part has two row
    choices.  The ``2k`` digits of ``π``'s pairs are placed one permutation
    each (the first taken as the identity, times ``C!`` for the band
    orders), the rest counted by the memoized recursion ``P`` on the matrix of
    places left."""
    perms = list(itertools.permutations(range(c)))

    def canon(m: tuple[int, ...]) -> tuple[int, ...]:
        # any row and column order of the matrix leaves the count unchanged
        rows = sorted(tuple(m[c * i:c * i + c]) for i in range(c))
        cols = sorted(zip(*rows))
        rows = sorted(zip(*cols))
        return tuple(x for r in rows for x in r)

    @lru_cache(maxsize=None)
    def ways(m: tuple[int, ...], left: int) -> int:
        if left == 0:
            return 1
        total = 0
        for p in perms:
            if all(m[c * j + p[j]] for j in range(c)):
                nxt = list(m)
                for j in range(c):
                    nxt[c * j + p[j]] -= 1
                total += ways(canon(tuple(nxt)), left - 1)
        return total

    def weight(sigmas) -> int:
        """``Π_b 2^(C − k + cycles)``, 0 if a cycle has an odd number of pairs."""
        exponent = 0
        for b in range(c):
            share = {}                                  # column -> π-digits in band b there
            for d, sg in enumerate(sigmas):
                share.setdefault(sg.index(b), []).append(d)
            other = {}
            for ds in share.values():
                if len(ds) == 2:
                    other[ds[0]], other[ds[1]] = ds[1], ds[0]
            seen, cycles = set(), 0
            for start in range(2 * k):
                if start in seen or start not in other:
                    continue
                x, pairs, closed = start, 0, False
                while True:                              # walk: pair edge, then column edge
                    seen.add(x)
                    y = x ^ 1                           # digits 2i, 2i+1 are π's pair i
                    seen.add(y)
                    pairs += 1
                    if y not in other:
                        break
                    x = other[y]
                    if x == start:
                        closed = True
                        break
                    if x in seen:
                        break
                if closed:
                    if pairs % 2:
                        return 0
                    cycles += 1
            exponent += c - k + cycles
        return 2 ** exponent

    if k == 0:
        return 2 ** (c * c) * ways(tuple([2] * (c * c)), 2 * c)
    total = 0
    for rest in itertools.product(perms, repeat=2 * k - 1):
        sigmas = (tuple(range(c)),) + rest
        m = [2] * (c * c)
        for sg in sigmas:
            for j in range(c):
                m[c * j + sg[j]] -= 1
        if min(m) < 0:
            continue
        w = weight(sigmas)
        if w:
            total += w * ways(canon(tuple(m)), 2 * c - 2 * k)
    return math.factorial(c) * total


def exchanged_pair_fixed(c: int, k: int = 0) -> int:
    """``#fixed`` of the element exchanging the last two bands row for row,
    swapping the rows of every other band and the stacks column for column,
    with ``π`` of ``k`` = 0 or 1 transpositions (2x5: units 41 and 42).

    The left stack's row sets must satisfy ``π(S_ρ(r)) = comp S_r``.  A band
    with its rows swapped: its row sets are ``π``-invariant, as in
    :func:`band_swap_fixed` (``2^(C−k)`` row choices; 0 if ``π``'s pair shares
    a column there).  The exchanged bands: a digit ``d``'s row in the second
    is the other row than ``π d``'s in the first, so the rows of the first
    are one 2-colouring of the column matching ``M_1`` and ``π(M_2)``:
    ``2^cycles``.  Give each digit its columns ``(a, b)`` in the two bands
    (``a ≠ b``); the cycles are those of the 2-regular bipartite multigraph
    with an edge ``(a(d), b(π d))`` per digit.  For ``k = 0`` the matrix ``Q``
    of how many digits have each ``(a, b)`` (row and column sums 2) fixes
    them and the ways ``W`` to give each digit the other bands in its other
    columns, two digits per (column, band)::

        #fixed = 2^(C(C−2)) · Σ_Q (2C)!/Π Q! · 2^cycles · W(Q).

    For ``k = 1`` the pair's two digits are placed first (the first at
    columns (0, 1) with the other bands in order, times ``C(C−1)·(C−2)!`` for
    the column and band orders), the other ``2C − 2`` by ``Q`` as above."""
    if k not in (0, 1):
        raise ValueError(f"k must be 0 or 1, got {k}")
    n = 2 * c
    cells = [(a, b) for a in range(c) for b in range(c) if a != b]
    bands = list(itertools.permutations(range(c - 2)))

    def matrices(i: int, rows: list[int], cols: list[int], chosen: tuple):
        if i == len(cells):
            if not any(rows) and not any(cols):
                yield chosen
            return
        a, b = cells[i]
        for q in range(min(rows[a], cols[b]) + 1):
            rows[a] -= q
            cols[b] -= q
            yield from matrices(i + 1, rows, cols, chosen + (q,))
            rows[a] += q
            cols[b] += q

    def cycles(edges) -> int:
        parent = list(range(2 * c))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        for a, b in edges:
            parent[find(a)] = find(c + b)
        return len({find(x) for x in range(2 * c)})

    def ways_left(digits: list[tuple[int, ...]], cap0: tuple[int, ...]) -> int:
        @lru_cache(maxsize=None)
        def go(i: int, cap: tuple) -> int:
            if i == len(digits):
                return 1
            free, total = digits[i], 0
            for p in bands:
                spots = [free[t] * (c - 2) + p[t] for t in range(c - 2)]
                if all(cap[x] for x in spots):
                    nxt = list(cap)
                    for x in spots:
                        nxt[x] -= 1
                    total += go(i + 1, tuple(nxt))
            return total
        return go(0, cap0)

    def others(a: int, b: int) -> tuple[int, ...]:
        return tuple(x for x in range(c) if x not in (a, b))

    def summed(rows: list[int], cols: list[int], fixed_edges, cap: tuple[int, ...]) -> int:
        """Σ over the free digits' matrices Q: labellings · 2^cycles · W."""
        free = sum(rows)
        total = 0
        for q in matrices(0, rows, cols, ()):
            digits = []
            for (a, b), m in zip(cells, q):
                digits += [others(a, b)] * m
            edges = [cell for cell, m in zip(cells, q) if m] + list(fixed_edges)
            labellings = math.factorial(free) // math.prod(math.factorial(m) for m in q)
            total += labellings * 2 ** cycles(edges) * ways_left(sorted(digits), cap)
        return total

    full = tuple([2] * (c * (c - 2)))
    if k == 0:
        return 2 ** (c * (c - 2)) * summed([2] * c, [2] * c, (), full)
    a1, a2 = 0, 1                                   # the first digit's columns in the exchanged bands
    first = {(col, t) for t, col in enumerate(others(a1, a2))}
    total = 0
    for b1, b2 in cells:
        for p in bands:
            second = {(col, p[t]) for t, col in enumerate(others(b1, b2))}
            if first & second:
                continue                            # the pair in one column of a swapped band
            cap = list(full)
            for col, band in first | second:
                cap[col * (c - 2) + band] -= 1
            rows, cols = [2] * c, [2] * c
            for x in (a1, b1):
                rows[x] -= 1
            for x in (a2, b2):
                cols[x] -= 1
            # the pair's edges (a(d), b(π d)): first digit (a1, b2), second (b1, a2)
            total += summed(rows, cols, ((a1, b2), (b1, a2)), tuple(cap))
    return 2 ** ((c - 2) * (c - 1)) * c * (c - 1) * math.factorial(c - 2) * total


def exchanged_pair_element(c: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`exchanged_pair_fixed`'s element."""
    n = 2 * c
    rows = [r ^ 1 for r in range(n - 4)] + [n - 2, n - 1, n - 4, n - 3]
    return tuple(rows), tuple((x + c) % n for x in range(n))


def band_swap_element(c: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Step 5's element: every band's rows swapped, the stacks exchanged column for column."""
    n = 2 * c
    return tuple(r ^ 1 for r in range(n)), tuple((x + c) % n for x in range(n))
