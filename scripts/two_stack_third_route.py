"""Third routes for four of 2x5's Burnside terms (issue 34): elements that
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
for row (unit 41, ``π = 1``).  ``scripts/two_stack_gap_audit.py --third``
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


def exchanged_pair_fixed(c: int) -> int:
    """``#fixed`` of the element exchanging the last two bands row for row,
    swapping the rows of every other band and the stacks column for column,
    with ``π = 1`` (2x5: unit 41).

    The left stack's row sets must satisfy ``S_ρ(r) = comp S_r``: the other
    bands are free (two orders per (column, band), ``2^(C(C−2))``), and in the
    exchanged bands a digit's row in the second is the other row than in the
    first.  Digits sharing a column in either band take different rows, so
    the rows of the two bands are one 2-colouring of the union of two
    matchings: ``2^cycles``.  Give each digit its columns ``(a, b)`` in the two
    bands (``a ≠ b``); the matrix ``Q`` of how many digits have each
    ``(a, b)`` (row and column sums 2) fixes the cycles (those of ``Q`` as a
    2-regular bipartite multigraph) and the ways ``W(Q)`` to give each digit
    the other bands in its other columns, two digits per (column, band).
    ``#fixed = 2^(C(C−2)) · Σ_Q (2C)!/Π Q! · 2^cycles(Q) · W(Q)``."""
    n = 2 * c
    cells = [(a, b) for a in range(c) for b in range(c) if a != b]
    bands = list(itertools.permutations(range(c - 2)))

    def matrices(k: int, rows: list[int], cols: list[int], chosen: tuple):
        if k == len(cells):
            if not any(rows) and not any(cols):
                yield chosen
            return
        a, b = cells[k]
        for q in range(min(rows[a], cols[b]) + 1):
            rows[a] -= q
            cols[b] -= q
            yield from matrices(k + 1, rows, cols, chosen + (q,))
            rows[a] += q
            cols[b] += q

    def cycles(q: tuple) -> int:
        parent = list(range(2 * c))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        for (a, b), m in zip(cells, q):
            if m:
                parent[find(a)] = find(c + b)
        return len({find(x) for x in range(2 * c)})

    def ways_left(digits: list[tuple[int, ...]]) -> int:
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
        return go(0, tuple([2] * (c * (c - 2))))

    total = 0
    for q in matrices(0, [2] * c, [2] * c, ()):
        digits = []
        for (a, b), m in zip(cells, q):
            digits += [tuple(x for x in range(c) if x not in (a, b))] * m
        labellings = math.factorial(n) // math.prod(math.factorial(m) for m in q)
        total += labellings * 2 ** cycles(q) * ways_left(sorted(digits))
    return 2 ** (c * (c - 2)) * total


def exchanged_pair_element(c: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`exchanged_pair_fixed`'s element."""
    n = 2 * c
    rows = [r ^ 1 for r in range(n - 4)] + [n - 2, n - 1, n - 4, n - 3]
    return tuple(rows), tuple((x + c) % n for x in range(n))


def band_swap_element(c: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Step 5's element: every band's rows swapped, the stacks exchanged column for column."""
    n = 2 * c
    return tuple(r ^ 1 for r in range(n)), tuple((x + c) % n for x in range(n))
