"""``#fixed(g, π)`` of a 2xC shape when ``g`` swaps the stacks and ``g² = 1``.

:mod:`.two_stack_fixed` counts the grids fixed by ``g`` with relabelling
``π`` as ``Σ_S FL(S; ρ², βα, π²)`` over the patterns ``S`` with
``S_ρ(r) = comp π(S_r)``.  When ``ρ² = 1``, ``βα = 1`` and ``π² = 1`` the
stack left to fill is unrestricted: ``FL(S; 1, 1, 1) = F(S)``, the stack's
fillings, which the factorization kernel counts (``L(P)`` of
:mod:`counting.reduction.patterns2`, transposed).  Its walk over patterns
then has nothing to cut: for ``ρ`` swapping the two rows of every band and
``π = 1`` every one of the ``C(2C, C)^C`` patterns is valid (2x5: 10^12).
This module counts those elements by orbits of patterns instead.

Codes
-----
Bit ``b`` of digit ``d``'s code is ``[d ∈ S_{2b+1}]`` (:mod:`.balanced_codes`).
``ρ`` moves band ``b`` to band ``τ(b)``, row ``2b + i`` to row
``2τ(b) + (i XOR e_b)``.  For ``r = 2b + 1``, ``πd ∈ S_ρ(r)`` exactly when
``d ∉ S_r``:

* ``e_b = 0``: ``ρ(r) = 2τ(b) + 1``, so bit ``τ(b)`` of ``code(πd)`` is
  bit ``b`` of ``code(d)`` complemented;
* ``e_b = 1``: ``ρ(r) = 2τ(b)``, so it is bit ``b`` of ``code(d)``.

(Row ``2b`` gives the same: its set is the complement.)  So ``S`` is valid
exactly when ``code(πd) = T(code(d))`` for the element ``T`` of ``B_C``
moving bit ``b`` to ``τ(b)`` and complementing it where ``e_b = 0``.

Fixed points of ``h = (T, π)``
------------------------------
``G = B_C × S_N`` acts on patterns by ``(T', σ)·code = T'∘code∘σ⁻¹``; the
valid patterns are the fixed points of ``h``.  ``F`` is constant on the
``G``-orbits (permuting bands and the rows of a band permutes the stack's
rows; relabelling relabels), which are the classes of balanced code
multisets (:func:`~.balanced_codes.balanced_orbits`).  Duality (digits and
rows exchanged) keeps ``F`` too but is not in ``G`` and does not act on the
valid patterns of ``h``: the classes are taken without it.  So
``#fixed = Σ_K F(K)·Fix_K(h)``, and on a transitive ``G``-set ``K`` with a
point ``P0`` and stabiliser ``H``::

    Fix_K(h) = |C_G(h)|·|h^G ∩ H| / |H| = |K|·|h^G ∩ H| / |h^G|

(count pairs (point, conjugate of ``h`` fixing it)).  Conjugacy in
``G`` is factorwise: ``T^B`` is the elements of ``B_C`` of ``T``'s signed
cycle type, ``π^S`` those of ``π``'s cycle type.  ``(T', σ)`` fixes
``P0`` (code multiset ``M``) when ``T'`` keeps ``M`` and ``σ`` maps the
digits of code ``x`` onto those of code ``T'x``.  On a ``T'``-orbit of
``m`` code values, each held by ``k`` digits, ``σ^m`` restricted to the
digits of one of them is any ``τ ∈ S_k``, a ``τ``-cycle of length ``l`` is
a ``σ``-cycle of length ``m·l``, and each ``τ`` comes from ``(k!)^(m-1)``
``σ``'s: so the ``σ``'s of ``π``'s cycle type are counted from the
partitions of each ``k`` (:func:`stabilising_relabellings`), never listed.

The tests check :func:`involution_fixed` against the pattern walk and the
whole-grid search on every unit of 2x3, 3x2 and 2x4 it applies to.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from counting.group.balanced_codes import (balanced_orbits, signed_element, signed_permutations)
from counting.group.permutations import centraliser_order, cycle_type, partitions
from factorization.api import FactorizationCounter, count_factorizations

__all__ = ["InvolutionCount", "is_stack_swapping_involution", "involution_fixed",
           "pattern_element", "stabilising_relabellings"]


@dataclass(frozen=True)
class InvolutionCount:
    """``#fixed(g, π)`` by orbits of patterns and what it took.

    Attributes
    ----------
    fixed : int
        Grids fixed by ``g`` with the relabelling ``π``.
    classes : int
        Classes of patterns with valid patterns (their ``F`` was used).
    stack_counts : int
        ``F`` counted by the factorization kernel (one per such class).
    group_order : int
        ``|B_C × S_N|``, the group the patterns were sorted by.
    """

    fixed: int
    classes: int
    stack_counts: int
    group_order: int


def is_stack_swapping_involution(rows, cols, pi) -> bool:
    """Whether a 2xC element (rows ``ρ``, columns ``κ``) swaps the stacks
    and, with relabelling ``π``, squares to the identity."""
    n = len(rows)
    c = n // 2
    return (cols[0] >= c and all(rows[rows[r]] == r for r in range(n))
            and all(cols[cols[x]] == x for x in range(n))
            and all(pi[pi[d]] == d for d in range(n)))


def pattern_element(rows):
    """``T``: the element of ``B_C`` (:func:`~.balanced_codes.signed_element`)
    that valid patterns satisfy ``code(πd) = T(code(d))`` with."""
    c = len(rows) // 2
    tau = [rows[2 * b] // 2 for b in range(c)]
    flips = sum(1 << b for b in range(c) if rows[2 * b] % 2 == 0)
    return signed_element(tau, flips)


def involution_fixed(rows: tuple[int, ...], cols: tuple[int, ...], pi: tuple[int, ...],
                     counter: FactorizationCounter | None = None) -> InvolutionCount:
    """``#fixed(g, π)`` of a 2xC element swapping the stacks with ``g² = 1``.

    ``rows``, ``cols``: ``g``'s permutations of the rows and columns of the
    2xC grid (0-based); ``pi`` the relabelling.  Raises ``ValueError`` (one
    line) for another element, ``ArithmeticError`` when a class's fixed
    points come out fractional (a wrong count, never rounded).
    """
    n = len(rows)
    c = n // 2
    if not is_stack_swapping_involution(rows, cols, pi):
        raise ValueError("counting by pattern classes needs an element swapping the stacks "
                         "whose square (with the relabelling) is the identity")
    T = pattern_element(rows)
    conjugates = [t for t in signed_permutations(c) if t.signed_type == T.signed_type]
    mu = Counter(cycle_type(pi))
    pi_class = math.factorial(n) // centraliser_order(cycle_type(pi))
    group = 2 ** c * math.factorial(c)
    if counter is None:
        counter = FactorizationCounter(n)
    fixed = classes = 0
    for codes, stabiliser in sorted(balanced_orbits(c).items()):
        mult = Counter(codes)
        pairs = 0                      # |h^G ∩ H|: conjugates of h fixing this pattern
        for t in conjugates:
            if all(mult[t.table[x]] == k for x, k in mult.items()):
                pairs += stabilising_relabellings(t.table, mult, mu)
        if not pairs:
            continue
        size = group // stabiliser * math.factorial(n) // math.prod(
            math.factorial(k) for k in mult.values())
        fix, rest = divmod(size * pairs, len(conjugates) * pi_class)
        if rest:
            raise ArithmeticError(f"class {codes}: {size:,} × {pairs:,} / "
                                  f"{len(conjugates) * pi_class:,} fixed patterns is not whole")
        sets = [[d for d, x in enumerate(codes) if (x >> b & 1) == i]
                for b in range(c) for i in (0, 1)]
        fixed += fix * count_factorizations(sets, c, counter=counter)
        classes += 1
    return InvolutionCount(fixed, classes, classes, group * math.factorial(n))


def stabilising_relabellings(table, mult: Counter, mu: Counter) -> int:
    """Digit permutations of cycle type ``mu`` mapping the digits of each
    code ``x`` onto those of ``table[x]``.

    ``table`` maps codes to codes (an element of ``B_C`` keeping the
    multiset), ``mult`` counts the digits of each code, ``mu`` the cycles
    of each length (a ``Counter``).  Counted per orbit of ``table`` on the
    codes (the module docstring), never listed.

    Example
    -------
    >>> from collections import Counter
    >>> stabilising_relabellings((1, 0), Counter({0: 2, 1: 2}), Counter({2: 2}))
    2
    """
    ways = {(): 1}                          # cycles so far (sorted (length, count)) -> σ's
    seen = set()
    for x in mult:
        if x in seen:
            continue
        m, y = 0, x
        while y not in seen:
            seen.add(y)
            m += 1
            y = table[y]
        k = mult[x]
        choices = []                        # (cycles of σ on this orbit, σ's giving them)
        for lam in partitions(k):
            cycles = Counter(m * part for part in lam)
            if all(cycles[ell] <= mu[ell] for ell in cycles):
                choices.append((cycles, math.factorial(k) ** (m - 1)
                                * math.factorial(k) // centraliser_order(lam)))
        new: dict[tuple, int] = {}
        for have, count in ways.items():
            for cycles, w in choices:
                total = Counter(dict(have)) + cycles
                if all(total[ell] <= mu[ell] for ell in total):
                    key = tuple(sorted(total.items()))
                    new[key] = new.get(key, 0) + count * w
        ways = new
    return ways.get(tuple(sorted(mu.items())), 0)
