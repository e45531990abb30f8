"""A second route for the Burnside terms of 2xC elements that swap the two
stacks column for column, with ``ρ² = 1`` and a relabelling ``π`` with
``π² = 1``: fractions of labellings over the pattern classes, not the
two-stack walk or its pattern classes.

For such ``g`` a fixed grid is any left stack whose pattern satisfies
``S_ρ(r) = comp π(S_r)`` (:mod:`counting.group.two_stack_fixed`: the left
stack is then fixed by ``(ρ², βα, π²) = 1``, i.e. unrestricted).  Code each
digit ``x`` by the bits ``c_s(x) = [x ∈ S_{2s+1}]`` (the bottom row of band
``s``, as :mod:`counting.reduction.patterns2` does).  With ``ρ`` taking row
``2s+1`` to row ``2s'+b`` and ``π`` an involution, ``x ∈ S_ρ(2s+1)`` iff
``π x ∉ S_{2s+1}``, so the condition is one map ``T`` on codes:

    code(π x) = T(code(x)),   T(c)_s = c_{s'} xor [b = 1]  (b = 1: a bottom row).

Every pattern class ``K`` of ``patterns2`` (without duality) is one orbit of
``B_C × S_N``, so the fraction ``φ_K`` of its ``|K|`` patterns that obey the
condition is the average over ``h ∈ B_C`` and all labellings of the codes
``h(code)``; for one multiset of codes (``m_x`` digits of code ``x``) the
labellings that obey it, for ``π`` with ``k`` transpositions, are counted
exactly: each transposition lands on two slots of codes ``x, T x`` and each
fixed digit on a code with ``T x = x``:

    k!·(N−2k)! · Σ Π_{x = Tx} m_x! / (j_x!·f_x!) · Π_{x ≠ Tx pairs} j!·2^j

(``j_x`` transpositions and ``f_x = m_x − 2 j_x`` fixed digits in a code
``x = T x``; a pair ``{x, T x}`` takes ``j = m_x = m_{Tx}`` transpositions).
Then ``#fixed = Σ_K |K| · L(K) · φ_K`` with ``L`` the stack fillings of the
class (:func:`factorization.api.count_factorizations`), and
``A_t(g) = #fixed / z_t``, ``z_t = 2^k · k! · (N−2k)!``.

This shares with the walk only the pattern classes and the factorization
kernel (whose weighted sum over the same classes is the published grid
count).  For 2x5 it checks the 27 stack-swapping units with ``ρ² = π² = 1``
(``units`` of :func:`counting.group.burnside.symmetry_units`) against the
table of ``results/2x5-symmetry-two-stack.tsv``; for 2x3 and 2x4 against
:func:`counting.group.two_stack_fixed.two_stack_count` run here::

    nice python scripts/two_stack_label_fraction.py 5     # about 4 minutes
"""
from __future__ import annotations

import argparse
import itertools
import math
from collections import Counter
from fractions import Fraction

from counting.group.burnside import symmetry_units
from counting.group.two_stack_fixed import two_stack_count
from counting.reduction.patterns2 import pattern_classes
from factorization.api import FactorizationCounter, count_factorizations
from two_stack_results import table   # scripts/: the two-stack table's A column


def _codes(sets, R: int) -> list[int]:
    return [sum(1 << s for s in range(R) if d in sets[2 * s + 1]) for d in range(1, 2 * R + 1)]


def code_map(rows: tuple[int, ...], R: int):
    """``T`` of the module docstring for the row permutation ``rows`` (0-based)."""
    spec = [(rows[2 * s + 1] // 2, rows[2 * s + 1] % 2) for s in range(R)]

    def T(c: int) -> int:
        return sum((((c >> s2) & 1) ^ bottom) << s for s, (s2, bottom) in enumerate(spec))
    return T


def obeying(mult: dict[int, int], T, k: int, n: int) -> int:
    """Labellings of a code multiset under which ``π`` (``k`` transpositions)
    maps every digit's code by ``T``."""
    classes, seen = [], set()
    for x, m in mult.items():
        if x in seen:
            continue
        tx = T(x)
        seen |= {x, tx}
        if tx == x:
            classes.append((True, m))
        elif mult.get(tx, 0) != m:
            return 0
        else:
            classes.append((False, m))
    fixed_digits = n - 2 * k
    states = {(0, 0): 1}                      # (transpositions, fixed digits placed) -> weight
    for fixed_code, m in classes:
        new: dict[tuple[int, int], int] = {}
        for (j0, f0), w in states.items():
            options = ([(j, m - 2 * j) for j in range(m // 2 + 1)] if fixed_code else [(m, 0)])
            for j, f in options:
                if j0 + j > k or f0 + f > fixed_digits:
                    continue
                if fixed_code:
                    val = w * (math.factorial(m) // (math.factorial(j) * math.factorial(f)))
                else:
                    val = w * math.factorial(j) * 2 ** j
                new[(j0 + j, f0 + f)] = new.get((j0 + j, f0 + f), 0) + val
        states = new
    return states.get((k, fixed_digits), 0) * math.factorial(k) * math.factorial(fixed_digits)


def stack_swapping_units(R: int):
    n, swap = 2 * R, tuple(list(range(R, 2 * R)) + list(range(R)))
    out = []
    for u in symmetry_units(f"2x{R}")[1:]:
        rows, cols = tuple(u.symmetry.rows), tuple(u.symmetry.cols)
        if (cols == swap and not u.symmetry.transpose and all(rows[rows[r]] == r for r in range(n))
                and max(u.pi_type) <= 2):
            out.append(u)
    return out


def terms(R: int) -> dict[int, int]:
    """``{unit id: A_t(g)}`` for :func:`stack_swapping_units`, exact."""
    n = 2 * R
    units = stack_swapping_units(R)
    maps = {u.unit_id: code_map(tuple(u.symmetry.rows), R) for u in units}
    hyper = [(p, f) for p in itertools.permutations(range(R)) for f in range(2 ** R)]
    counter = FactorizationCounter(n)
    acc = {u.unit_id: Fraction(0) for u in units}
    for K in pattern_classes(R, dual=False):
        L = count_factorizations([list(x) for x in K.representative], counter=counter)
        codes = _codes(K.representative, R)
        images = Counter(tuple(sorted(Counter(
            sum(1 << p[s] for s in range(R) if c >> s & 1) ^ f for c in codes).items()))
            for p, f in hyper)
        for u in units:
            k = u.pi_type.count(2)
            good = sum(times * obeying(dict(m), maps[u.unit_id], k, n) for m, times in images.items())
            acc[u.unit_id] += K.weight * L * Fraction(good, len(hyper) * math.factorial(n))
    out = {}
    for u in units:
        k = u.pi_type.count(2)
        value = acc[u.unit_id] / (2 ** k * math.factorial(k) * math.factorial(n - 2 * k))
        if value.denominator != 1:
            raise ArithmeticError(f"unit {u.unit_id}: A = {value} is not an integer")
        out[u.unit_id] = int(value)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("R", type=int, help="the boxes are 2 x R (3, 4 or 5)")
    R = ap.parse_args().R
    if not 3 <= R <= 5:
        ap.error(f"R must be 3, 4 or 5, got {R}")
    values = terms(R)
    reference = table("2x5") if R == 5 else None
    units = {u.unit_id: u for u in stack_swapping_units(R)}
    differ = 0
    for uid, value in values.items():
        u = units[uid]
        other = (reference[uid] if reference is not None
                 else two_stack_count(f"2x{R}", u.symmetry, u.pi_type).count)
        same = value == other
        differ += not same
        label = " ".join(f"{x}" for x in u.pi_type)
        print(f"unit {uid:>4}  pi {label:<20} {value:>26,}  {'equal' if same else f'DIFFERENT: {other:,}'}")
    print(f"{len(values)} units, {differ} different")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
