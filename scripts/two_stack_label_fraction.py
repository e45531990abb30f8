"""A second route for the Burnside terms of 2xC elements that swap the stacks,
swap the two rows of every band (or exchange two bands) and relabel by 1 or
one transposition: fractions of labellings, not stabilisers.

For such ``g`` (``g² = 1``) a fixed grid is any left stack whose pattern
satisfies ``S_ρ(r) = comp π(S_r)``; in the codes of ``patterns2`` (bit ``s``
of a digit's code: the digit is in the second column of stack ``s`` of the
``C × 2`` orientation) that is one condition per digit, so
``#fixed = Σ_K |K| · L(K) · φ_K`` over the pattern classes ``K`` without
duality, ``L`` the rectangles of the class (:func:`factorization.api.count_factorizations`)
and ``φ_K`` the fraction of the class's patterns that satisfy it:

* ``ρ`` swaps the rows of every band, ``π = 1``: every pattern, ``φ = 1``;
* the same with ``π = (a b)``: the sets are ``π``-invariant, i.e. ``a`` and
  ``b`` share a code; the labellings act on a class transitively, so
  ``φ = Σ_x m_x (m_x − 1) / (N (N − 1))`` over the code multiplicities;
* ``ρ`` swaps the rows of bands ``1..C−2`` and maps band ``C−1`` onto band
  ``C`` top row to top row, ``π = 1``: every digit has bit ``C−1`` the
  complement of bit ``C−2``; the digits' labels do not matter, so ``φ`` is the
  fraction of ``B_C``'s elements that map the class's multiset to one that
  satisfies it.

``A_t(g) = #fixed / z_t`` (``z_t``: ``N!`` for ``1^N``, ``2·(N−2)!`` for a
transposition).  For 2x5 these are units 19, 41 (``1^10``) and 20
(``2 1^8``) of ``counting.group.burnside.symmetry_units``; the script prints
the three and the class count::

    nice python scripts/two_stack_label_fraction.py 5
"""
from __future__ import annotations

import argparse
import itertools
import math
from collections import Counter

from counting.reduction.patterns2 import pattern_classes
from factorization.api import FactorizationCounter, count_factorizations


def _codes(sets, R: int) -> list[int]:
    out = []
    for d in range(1, 2 * R + 1):
        out.append(sum(1 << s for s in range(R) if d in sets[2 * s + 1]))
    return out


def _image(code: int, perm, flip: int, R: int) -> int:
    return sum(1 << perm[s] for s in range(R) if code >> s & 1) ^ flip


def terms(R: int) -> dict[str, int]:
    """The three terms for ``2xR`` (``R ≥ 3``), exact."""
    n = 2 * R
    counter = FactorizationCounter(n)
    hyper = [(p, f) for p in itertools.permutations(range(R)) for f in range(2 ** R)]
    every = same_code = paired = 0
    classes = pattern_classes(R, dual=False)
    for k in classes:
        L = count_factorizations([list(x) for x in k.representative], counter=counter)
        codes = _codes(k.representative, R)
        every += k.weight * L
        same_code += k.weight * L * sum(m * (m - 1) for m in Counter(codes).values())
        good = sum(1 for p, f in hyper
                   if all((_image(c, p, f, R) >> (R - 1) & 1) != (_image(c, p, f, R) >> (R - 2) & 1)
                          for c in codes))
        paired += k.weight * L * good
    out = {}
    for name, num, den in (("swap every band, pi = 1", every, math.factorial(n)),
                           ("swap every band, pi a transposition", same_code,
                            n * (n - 1) * 2 * math.factorial(n - 2)),
                           ("swap R-2 bands, exchange the last two, pi = 1", paired,
                            len(hyper) * math.factorial(n))):
        q, r = divmod(num, den)
        if r:
            raise ArithmeticError(f"{name}: {num:,} is not a multiple of {den:,}")
        out[name] = q
    out["classes"] = len(classes)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("R", type=int, help="the boxes are 2 x R (R >= 3)")
    R = ap.parse_args().R
    if not 3 <= R <= 5:
        ap.error(f"R must be 3, 4 or 5, got {R}")
    for name, value in terms(R).items():
        print(f"{name:48s} {value:>26,}")


if __name__ == "__main__":
    main()
