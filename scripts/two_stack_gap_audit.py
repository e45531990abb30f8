"""Issue 34: audit what the two routes to 2x5's Burnside terms share, by code
that shares nothing with the package (plain Python, no package import; the
two-stack table is read through ``scripts/two_stack_results.py``).

Both routes of ``results/2x5-symmetry-second-routes.md`` take from the
package the list of conjugacy classes of G, their sizes, the (class,
relabelling type) pairs kept as units and the final division.  This script
computes each of those again from the definitions and compares them with the
table ``results/2xC-symmetry-two-stack.tsv``:

1. **The group.**  Rows: ``S_2 ≀ S_C`` (band ``b`` = rows ``2b, 2b+1``; a band
   permutation and a flip per band), columns: ``S_C ≀ S_2`` (two stacks of
   ``C`` columns), every element listed.  Classes by closing each element
   under conjugation by the generators; the classes of ``G = rows × columns``
   are the products.  Their sizes must sum to ``|G|``.
2. **The pairs that can be non-zero.**  ``X(g(c)) = π(X(c))`` for every
   cell ``c``.  (a) If ``g^k`` maps a house ``U`` (row, column, box) onto
   itself, ``X`` restricted to ``U`` is a bijection onto the digits carrying
   ``g^k|U`` to ``π^k``: ``π^k`` has the cycle type of ``g^k|U`` (and two
   such houses of different types leave nothing).  (b) A digit on a cell
   orbit of length ``L`` has ``π^L`` fixing it, so its ``π``-cycle length
   divides ``L``; every digit fills ``N`` cells, so for each ``ℓ`` the
   digits on ``π``-cycles of length divisible by ``ℓ`` need ``N`` times as
   many cells on orbits of length divisible by ``ℓ``.  A type failing (a) or
   (b) fixes no grid; the others must be exactly the table's units.  (For
   2x2 to 2x5, (b) removes no pair that (a) keeps: measured, 27, 55, 156 and
   129 pairs either way.)
3. **Each unit's class and size.**  The unit's element is looked up among
   the listed elements: its class here must have the table's size.
4. **The division.**  ``E = (N/N! + Σ size·A) / |G|``, exact, with the
   sizes from step 1 and ``A`` from the table; ``N/N!`` must be an integer.
5. **A third route for five terms** (``--third``;
   ``scripts/two_stack_third_route.py``): elements swapping the stacks column
   for column, counted from the left stack's digits (each meets every band
   once over the ``C`` columns) without patterns, pattern classes, the
   factorization kernel or exact cover: every band's rows swapped with ``π``
   of ``k = 0, 1, 2`` transpositions (2x5: units 19, 20, 21), and the last
   two bands exchanged row for row, the others' rows swapped, ``π`` of
   ``k = 0, 1`` transpositions (units 41, 42).  Compared with the table, or with brute force under ``--brute``.
6. **Brute force on a small shape** (``--brute``, 2x2 and 2x3): every grid
   with box 1 standard, every element of G; ``A_t(g)`` per (class, type)
   and ``E``; no (class, type) with a fixed grid may be one step 2 drops.

Run (2x5: a few seconds; ``--third`` about 100 s more at load 4.4)::

    nice python scripts/two_stack_gap_audit.py 2x5 --third
    python scripts/two_stack_gap_audit.py 2x3 --brute --json
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections import Counter
from fractions import Fraction

from two_stack_results import units   # scripts/: the two-stack table's rows
from two_stack_third_route import (band_swap_element, band_swap_fixed, exchanged_pair_element,
                                   exchanged_pair_fixed, involution_type)

__all__ = ["row_group", "column_group", "row_generators", "column_generators", "classes",
           "cell_permutation", "possible_types", "possible_pairs", "table_term", "brute_term",
           "band_swap_unit", "band_swap_term", "third_route", "type_text", "z_order", "brute_force", "audit",
           "main"]


# -- permutations (tuples of images) ------------------------------------------

def _compose(a, b):
    """``a∘b``: first ``b``, then ``a``."""
    return tuple(a[x] for x in b)


def _inverse(a):
    out = [0] * len(a)
    for i, x in enumerate(a):
        out[x] = i
    return tuple(out)


def _cycles(perm) -> list[list[int]]:
    seen, out = set(), []
    for s in range(len(perm)):
        if s not in seen:
            cyc, x = [], s
            while x not in seen:
                seen.add(x)
                cyc.append(x)
                x = perm[x]
            out.append(cyc)
    return out


def _type(perm) -> tuple[int, ...]:
    return tuple(sorted((len(c) for c in _cycles(perm)), reverse=True))


def _partitions(n: int, most: int | None = None):
    most = n if most is None else most
    if n == 0:
        yield ()
        return
    for first in range(min(n, most), 0, -1):
        for rest in _partitions(n - first, first):
            yield (first,) + rest


def _power_type(t: tuple[int, ...], k: int) -> tuple[int, ...]:
    out = []
    for length in t:
        d = math.gcd(length, k)
        out += [length // d] * d
    return tuple(sorted(out, reverse=True))


def z_order(t: tuple[int, ...]) -> int:
    """Centraliser order in S_N of a permutation of cycle type ``t``."""
    return math.prod(k ** m * math.factorial(m) for k, m in Counter(t).items())


# -- 1. the group and its classes ----------------------------------------------

def row_group(c: int) -> list[tuple[int, ...]]:
    """Every element of ``S_2 ≀ S_C`` on the ``2C`` rows."""
    out = []
    for tau in itertools.permutations(range(c)):
        for flips in itertools.product((0, 1), repeat=c):
            out.append(tuple(2 * tau[r // 2] + ((r % 2) ^ flips[r // 2]) for r in range(2 * c)))
    return out


def column_group(c: int) -> list[tuple[int, ...]]:
    """Every element of ``S_C ≀ S_2`` on the ``2C`` columns."""
    out = []
    for swap in (0, 1):
        for p0 in itertools.permutations(range(c)):
            for p1 in itertools.permutations(range(c)):
                p = (p0, p1)
                out.append(tuple(c * ((x // c) ^ swap) + p[x // c][x % c] for x in range(2 * c)))
    return out


def _swap(n: int, a: int, b: int) -> tuple[int, ...]:
    out = list(range(n))
    out[a], out[b] = b, a
    return tuple(out)


def row_generators(c: int) -> list[tuple[int, ...]]:
    """Generators of ``S_2 ≀ S_C``: two adjacent bands exchanged, band 1's rows swapped."""
    n = 2 * c
    gens = [_swap(n, 0, 1)]
    for b in range(c - 1):
        gens.append(_compose(_swap(n, 2 * b, 2 * b + 2), _swap(n, 2 * b + 1, 2 * b + 3)))
    return gens


def column_generators(c: int) -> list[tuple[int, ...]]:
    """Generators of ``S_C ≀ S_2``: adjacent columns of stack 1, the stacks exchanged."""
    n = 2 * c
    return [_swap(n, x, x + 1) for x in range(c - 1)] + [tuple((x + c) % n for x in range(n))]


def classes(elements: list[tuple[int, ...]], gens: list[tuple[int, ...]]):
    """``(class_of, sizes)``: each element's class number and each class's
    size, classes numbered by their first element in ``elements``; a class
    is an element closed under conjugation by the generators ``gens``."""
    members = set(elements)
    class_of, sizes = {}, []
    for e in elements:
        if e in class_of:
            continue
        k = len(sizes)
        class_of[e], todo, size = k, [e], 1
        while todo:
            x = todo.pop()
            for h in gens:
                y = _compose(_compose(h, x), _inverse(h))
                if y not in class_of:
                    if y not in members:
                        raise AssertionError("a conjugate left the group")
                    class_of[y] = k
                    todo.append(y)
                    size += 1
        sizes.append(size)
    if len(class_of) != len(members):
        raise AssertionError("an element in no class")
    return class_of, sizes


# -- 2. the relabelling types that can be non-zero -----------------------------

def _houses(c: int) -> list[list[int]]:
    n = 2 * c
    rows = [[r * n + x for x in range(n)] for r in range(n)]
    cols = [[r * n + x for r in range(n)] for x in range(n)]
    boxes = [[(2 * b + i) * n + c * s + j for i in range(2) for j in range(c)]
             for b in range(c) for s in range(2)]
    return rows + cols + boxes


def cell_permutation(c: int, rho, kappa) -> tuple[int, ...]:
    """``g`` on cells: cell ``(r, x)`` to ``(ρ(r), κ(x))``."""
    n = 2 * c
    return tuple(rho[r] * n + kappa[x] for r in range(n) for x in range(n))


def possible_types(c: int, perm) -> list[tuple[int, ...]]:
    """The relabelling types passing tests (a) and (b) of the docstring."""
    n = 2 * c
    order = math.lcm(*(len(cy) for cy in _cycles(perm)))
    houses = _houses(c)
    forced = {}
    power = tuple(range(len(perm)))
    for k in range(1, order + 1):
        power = _compose(perm, power)
        seen = set()
        for h in houses:
            if {power[x] for x in h} == set(h):
                where = {cell: i for i, cell in enumerate(h)}
                seen.add(_type(tuple(where[power[x]] for x in h)))
        if len(seen) > 1:
            return []
        if seen:
            forced[k] = seen.pop()
    on = Counter()
    for cy in _cycles(perm):
        for ell in range(2, n + 1):
            if len(cy) % ell == 0:
                on[ell] += len(cy)
    out = []
    for t in _partitions(n):
        if any(_power_type(t, k) != u for k, u in forced.items()):
            continue
        if any(n * sum(x for x in t if x % ell == 0) > on[ell] for ell in range(2, n + 1)):
            continue
        out.append(t)
    return out


# -- 5. a third route: scripts/two_stack_third_route.py ---------------------------

def table_term(table: list[dict], element, t: tuple[int, ...]) -> int | None:
    """``A`` of ``element`` (row and column images) with ``π`` of type ``t``
    in the two-stack table (None: no such unit)."""
    for u in table:
        if _parse_element(u["element"]) == element and _parse_type(u["type"]) == t:
            return u["A"]
    return None


def brute_term(c: int, terms: dict, element, t: tuple[int, ...]) -> Fraction:
    """``A`` of ``element`` with ``π`` of type ``t`` from :func:`brute_force`'s
    sums over classes (divided by the class size)."""
    rho, kappa = element
    rclass, rsizes = classes(row_group(c), row_generators(c))
    cclass, csizes = classes(column_group(c), column_generators(c))
    i, j = rclass[rho], cclass[kappa]
    return Fraction(terms.get((i, j, t), 0), rsizes[i] * csizes[j])


def band_swap_unit(c: int, table: list[dict], k: int = 0) -> int | None:
    """``A`` of step 5's element with ``π`` of ``k`` transpositions in the table."""
    return table_term(table, band_swap_element(c), involution_type(c, k))


def band_swap_term(c: int, terms: dict, k: int = 0) -> Fraction:
    """``A`` of step 5's element with ``π`` of ``k`` transpositions by brute force."""
    return brute_term(c, terms, band_swap_element(c), involution_type(c, k))


def third_route(c: int, k: int) -> Fraction:
    """``A`` of step 5's element with ``π`` of ``k`` transpositions: ``#fixed / z``."""
    return Fraction(band_swap_fixed(c, k), z_order(involution_type(c, k)))


# -- 6. brute force on a small shape -------------------------------------------

def _standard_grids(c: int) -> list[tuple[int, ...]]:
    """Every grid of the 2xC shape with box 1 holding 0..N-1 in reading order."""
    n = 2 * c
    houses = _houses(c)
    of = [[i for i, h in enumerate(houses) if cell in h] for cell in range(n * n)]
    grid = [-1] * (n * n)
    used = [0] * len(houses)
    for i, cell in enumerate(houses[2 * n]):          # box 1
        grid[cell] = i
        for h in of[cell]:
            used[h] |= 1 << i
    free = [x for x in range(n * n) if grid[x] < 0]
    out = []

    def fill(k: int) -> None:
        if k == len(free):
            out.append(tuple(grid))
            return
        cell = free[k]
        busy = 0
        for h in of[cell]:
            busy |= used[h]
        for d in range(n):
            if not busy >> d & 1:
                grid[cell] = d
                for h in of[cell]:
                    used[h] |= 1 << d
                fill(k + 1)
                for h in of[cell]:
                    used[h] &= ~(1 << d)
        grid[cell] = -1

    fill(0)
    return out


def brute_force(c: int) -> dict:
    """``{(row class, column class, type): Σ_{g in the class} A_t(g)}`` and ``E``
    by trying every element on every grid with box 1 standard."""
    n = 2 * c
    grids = _standard_grids(c)
    rows, cols = row_group(c), column_group(c)
    rclass, _ = classes(rows, row_generators(c))
    cclass, _ = classes(cols, column_generators(c))
    box1 = _houses(c)[2 * n]
    sums = Counter()
    for rho in rows:
        for kappa in cols:
            g = cell_permutation(c, rho, kappa)
            for x in grids:
                pi = [0] * n
                for cell in box1:
                    pi[x[cell]] = x[g[cell]]
                if all(x[g[cell]] == pi[x[cell]] for cell in range(n * n)):
                    sums[(rclass[rho], cclass[kappa], _type(tuple(pi)))] += 1
    total = sum(sums.values())
    order = len(rows) * len(cols)
    kept = possible_pairs(c)[0]
    identity = (rclass[tuple(range(n))], cclass[tuple(range(n))])
    dropped = [k for k in sums if k[:2] != identity and k not in kept]
    return {"grids_box1_standard": len(grids), "terms": dict(sums),
            "non_zero_pairs": len(sums) - 1, "possible_pairs": len(kept),
            "essentially_different": Fraction(total, order),
            "problems": [f"rows {k[0]} cols {k[1]} type {k[2]}: {sums[k]:,} fixed grids, "
                         "but step 2 rules it out" for k in dropped]}


# -- the audit -----------------------------------------------------------------

def _parse_element(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    def images(word: str) -> tuple[int, ...]:       # "1,2,…,10", or "12345678" below 10
        return tuple(int(v) - 1 for v in (word.split(",") if "," in word else word))
    rows, cols = (part.split("=")[1] for part in text.split())
    return images(rows), images(cols)


def type_text(t: tuple[int, ...]) -> str:
    """``(2, 2, 1, 1)`` as the table writes it: ``2^2 1^2``."""
    return " ".join(f"{k}^{m}" if m > 1 else f"{k}" for k, m in Counter(t).items())


def _parse_type(text: str) -> tuple[int, ...]:
    out = []
    for part in text.split():
        base, _, mult = part.partition("^")
        out += [int(base)] * int(mult or 1)
    return tuple(sorted(out, reverse=True))


def possible_pairs(c: int):
    """``(kept, rclass, cclass, pair_sizes, rrep, crep)``: the (row class,
    column class, type) triples passing step 2 with their class sizes, each
    row and column element's class, every class pair's size and the classes'
    first elements."""
    n = 2 * c
    rows, cols = row_group(c), column_group(c)
    rclass, rsizes = classes(rows, row_generators(c))
    cclass, csizes = classes(cols, column_generators(c))
    rrep = {k: e for e, k in reversed(list(rclass.items()))}
    crep = {k: e for e, k in reversed(list(cclass.items()))}
    pair_sizes = {(i, j): rsizes[i] * csizes[j] for i in range(len(rsizes)) for j in range(len(csizes))}
    identity = (rclass[tuple(range(n))], cclass[tuple(range(n))])
    kept = {}
    for (i, j), size in pair_sizes.items():
        if (i, j) != identity:
            for t in possible_types(c, cell_permutation(c, rrep[i], crep[j])):
                kept[(i, j, t)] = size
    return kept, rclass, cclass, pair_sizes, rrep, crep


def audit(c: int, table: list[dict], grid_total: int) -> dict:
    """Steps 1-4 of the docstring against the rows of the two-stack table."""
    n = 2 * c
    kept, rclass, cclass, pair_sizes, rrep, crep = possible_pairs(c)
    rsizes = Counter(rclass.values())
    csizes = Counter(cclass.values())
    order = sum(rsizes.values()) * sum(csizes.values())
    problems, seen, weighted = [], set(), 0
    for u in table:
        rho, kappa = _parse_element(u["element"])
        key = (rclass[rho], cclass[kappa], _parse_type(u["type"]))
        if pair_sizes[key[:2]] != u["size"]:
            problems.append(f"unit {u['unit']}: class size {u['size']:,} in the table, "
                            f"{pair_sizes[key[:2]]:,} here")
        if key not in kept:
            problems.append(f"unit {u['unit']}: type {u['type']} is ruled out here")
        if key in seen:
            problems.append(f"unit {u['unit']}: a second unit for the same class and type")
        seen.add(key)
        weighted += pair_sizes[key[:2]] * u["A"]      # the size found here, not the table's
    missing = sorted(k for k in kept if k not in seen)
    for i, j, t in missing:
        problems.append(f"class rows {rrep[i]} cols {crep[j]} type {t} can be non-zero "
                        "but has no unit")
    identity_term = Fraction(grid_total, math.factorial(n))
    total = (identity_term + weighted) / order
    return {
        "shape": f"2x{c}", "row_classes": len(rsizes), "column_classes": len(csizes),
        "row_order": sum(rsizes.values()), "column_order": sum(csizes.values()), "group_order": order,
        "classes": len(pair_sizes), "class_sizes_sum": sum(pair_sizes.values()),
        "classes_with_a_possible_type": len({k[:2] for k in kept}),
        "possible_pairs": len(kept), "units_in_table": len(table),
        "identity_term": identity_term, "weighted_sum": weighted,
        "essentially_different": total, "problems": problems,
    }


def _exact(value):
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", help="a two-stack shape 2xC with a table in results/ (2x3, 2x4, 2x5)")
    parser.add_argument("--grids", type=int, help="the grid count (default: the table's own line)")
    parser.add_argument("--third", action="store_true",
                        help="count units 19-21 (band swap, π of 0, 1, 2 transpositions) and 41-42 a third way")
    parser.add_argument("--brute", action="store_true", help="brute force (2x2 and 2x3 only)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        r, c = (int(v) for v in args.shape.split("x"))
        if r != 2 or not 2 <= c <= 5:
            raise ValueError
    except ValueError:
        parser.exit(2, f"error: shape must be 2xC with C from 2 to 5, got {args.shape!r}\n")
    if args.brute and c > 3:
        parser.exit(2, f"error: --brute is for 2x2 and 2x3 only, not {args.shape}\n")
    out = {}
    if not args.brute:
        table, grids = units(args.shape)
        out["audit"] = audit(c, table, args.grids or grids)
    if args.brute:
        out["brute_force"] = brute_force(c)
    if args.third:
        rows = {}
        for k in range(min(2, c) + 1):
            a = third_route(c, k)
            if args.brute:
                other, where = band_swap_term(c, out["brute_force"]["terms"], k), "brute force"
            else:
                other, where = band_swap_unit(c, table, k), "the table"
            label = type_text(involution_type(c, k))
            rows[f"A, π of type {label}"] = a
            rows[f"A, π of type {label}, in {where}"] = other
            if a != (other or 0):
                rows.setdefault("problems", []).append(f"k = {k}: A {_exact(a)} here, "
                                                       f"{_exact(other)} in {where}")
        for k in (0, 1):
            t = involution_type(c, k)
            a = Fraction(exchanged_pair_fixed(c, k), z_order(t))
            element = exchanged_pair_element(c)
            other = (brute_term(c, out["brute_force"]["terms"], element, t) if args.brute
                     else table_term(table, element, t))
            rows[f"A, last bands exchanged, π of type {type_text(t)}"] = a
            rows[f"A, last bands exchanged, π of type {type_text(t)}, in {where}"] = other
            if a != (other or 0):
                rows.setdefault("problems", []).append(f"exchanged bands, k = {k}: A {_exact(a)} "
                                                       f"here, {_exact(other)} in {where}")
        rows.setdefault("problems", [])
        out["third_route"] = rows
    if args.json:
        def enc(o):
            if isinstance(o, dict):
                return {str(k): enc(v) for k, v in o.items()}
            if isinstance(o, list):
                return [enc(v) for v in o]
            o = _exact(o)
            return str(o) if isinstance(o, int) and abs(o) > 2 ** 53 else o
        print(json.dumps(enc(out), indent=1))
    else:
        for section, values in out.items():
            print(f"{section}:")
            for k, v in values.items():
                if k == "terms":
                    continue
                v = _exact(v)
                if isinstance(v, list):
                    print(f"  {k:<60} {len(v)}")
                    for line in v:
                        print(f"    {line}")
                elif isinstance(v, int):
                    print(f"  {k:<60} {v:>26,}")
                else:
                    print(f"  {k:<60} {v:>26}")
    bad = [p for section in out.values() for p in section.get("problems", [])]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
