"""An independent count of 2x5's Burnside unit 49 (and any two-stack term of
the same kind): the element keeps the stacks, moves columns by an involution
``κ`` inside each stack and rows by an involution of whole bands, and the
relabelling π is an involution that may have fixed digits.  A band is then a
*fixed band* (both rows kept: unit 49's band 1), a *perm band* (its two rows
swapped) or half of a *couple* (two bands exchanged, either row order).  It
reads the elements and the walk's values from
``results/2x5-symmetry-two-stack.tsv`` and shares no code with
``counting/group/two_stack_fixed.py`` nor with
``scripts/two_stack_couple_check.py`` (plain Python and numpy); the tests
compare it with the whole-grid search on 2x3 and on 2x4 units 35 and 75-77.

The fixed grids
---------------
A fixed grid has ``X(ρ(r), κ(c)) = π X(r, c)``.  Call a row *free* if it is
the top row of a perm band or a row of the first band of a couple; every
other row is fixed (``ρ(r) = r``) or the partner ``ρ(y)`` of a free row
``y``, and then ``X(ρ(y), c) = π y[κ(c)]``: a free row decides its partner.

* A fixed row ``p`` has ``p[κ(c)] = π p[c]``: a π-fixed digit sits in a
  column ``κ`` fixes, a π-pair fills a swapped pair of columns.
* Column ``c`` holds ``p[c]`` for each fixed row and ``y[c]``,
  ``π y[κ(c)]`` for each free row, and column ``κ(c)`` holds π of these:
  so only the columns ``c ≤ κ(c)`` (the *orbit columns*) are checked, each
  by an exact cover of the ``2C`` digits: one bit a fixed row, two bits a
  free row (a free row whose two entries coincide clashes with itself: a
  π-fixed digit in a column ``κ`` fixes, or a π-pair across swapped columns).
* Boxes and rows depend only on the stack sets: a fixed band's rows hold
  ``S`` and ``comp S`` in the left stack, ``comp S`` and ``S`` in the right;
  a couple's free rows ``D, E`` hold ``X, comp X`` left and ``comp X, X``
  right (the partner band's box is π of theirs); a perm band's top row holds
  ``S`` left and ``comp S`` right, and its box ``S ∪ π S`` is every digit
  exactly when ``S`` holds one digit of each π-pair (so π has no fixed digit).

So a fixed grid is its *data* (an ``S`` per fixed or perm band, an ``X`` per
couple) and, in each stack independently, an arrangement of every fixed and
free row's stack set over the stack's columns meeting the orbit columns'
exact covers:

    #fixed = Σ_data  N(κ_L; rows_L(data)) · N(κ_R; rows_R(data))

``N`` meets in the middle: the fixed rows and the first free rows are joined
into a table of (bits → arrangements), the last two free rows into another,
and the first table's keys are matched with the second's complements.

Fewer data
----------
A relabelling ``h`` commuting with π (π-pairs permuted and flipped, fixed
digits permuted: π's centraliser, of order ``z``) maps fixed grids to fixed
grids and data to data with the same ``N`` in both stacks, so the sum runs
over the data's orbits under generators of that group, each weighted by its
size; ``N`` is cached on (κ, fixed rows' sets, free rows' sets), both as
multisets.  Finally ``A = #fixed / z``, as the table's terms are defined.

    python scripts/two_stack_fixed_band_check.py [--record] [UNIT ...]   # default: 27 and 49

``--record`` writes the table as the last section of
``results/2x5-symmetry-two-stack.md``.
"""
from __future__ import annotations

import argparse
import itertools
import math
import os
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from two_stack_results import record   # scripts/: the --record section

TABLE = Path(__file__).resolve().parent.parent / "results" / "2x5-symmetry-two-stack.tsv"
RESULTS = TABLE.with_suffix(".md")
UNITS = (27, 49)          # the 2x5 units with a fixed band this script counts


def read_table(path: Path = TABLE) -> dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]]:
    """unit → (π's cycle type, row map, column map (0-based), the walk's ``A``)."""
    out = {}
    for line in path.read_text().splitlines():
        f = line.split("\t")
        rows, cols = (tuple(int(v) - 1 for v in part.split("=")[1].split(","))
                      for part in f[3].split())
        ctype = tuple(int(k) for part in f[2].split()
                      for k in ([part.split("^")[0]] * int(part.split("^")[1])
                                if "^" in part else [part]))
        out[int(f[0])] = (ctype, rows, cols, int(f[4]))
    return out


def involution(ctype: tuple[int, ...]) -> tuple[int, ...]:
    """π of cycle type ``ctype`` (parts 1 and 2 only): digits ``2k, 2k+1``
    the k-th pair, the fixed digits last."""
    if any(k not in (1, 2) for k in ctype):
        raise ValueError(f"π of type {ctype} is not an involution")
    pairs = sum(k == 2 for k in ctype)
    return tuple(d ^ 1 if d < 2 * pairs else d for d in range(sum(ctype)))


class Layout(NamedTuple):
    """The bands of an element: ``fixed`` (top, bottom row), ``perm`` (top
    row), ``couples`` (the first band's two rows), and each stack's κ."""
    fixed: tuple[tuple[int, int], ...]
    perm: tuple[int, ...]
    couples: tuple[tuple[int, int], ...]
    kappa_l: tuple[int, ...]
    kappa_r: tuple[int, ...]


def structure(rows: tuple[int, ...], cols: tuple[int, ...]) -> Layout:
    """The :class:`Layout` of an element of a ``2xC`` shape (0-based maps);
    ValueError for an element this script does not count."""
    size = len(cols) // 2
    if len(rows) != 2 * size or sorted(rows) != list(range(2 * size)) or \
            sorted(cols) != list(range(2 * size)):
        raise ValueError("rows and columns must be permutations of one 2xC grid")
    if any(c // size != cols[c] // size for c in range(2 * size)) or \
            any(cols[cols[c]] != c for c in range(2 * size)):
        raise ValueError("columns must be an involution keeping each stack")
    fixed, perm, couples = [], [], []
    for b in range(size):
        top, bottom = 2 * b, 2 * b + 1
        if rows[top] // 2 != rows[bottom] // 2 or rows[rows[top]] != top or \
                rows[rows[bottom]] != bottom:
            raise ValueError("rows must move whole bands, an involution")
        image = rows[top] // 2
        if image == b:
            (fixed.append((top, bottom)) if rows[top] == top else perm.append(top))
        elif image > b:
            couples.append((top, bottom))
    return Layout(tuple(fixed), tuple(perm), tuple(couples),
                  tuple(cols[:size]), tuple(c - size for c in cols[size:]))


class Stack:
    """``N(κ; fixed rows' sets, free rows' sets)`` for one stack's column
    involution ``κ`` and the relabelling π."""

    def __init__(self, kappa: tuple[int, ...], pi: tuple[int, ...]):
        self.kappa, self.pi = kappa, pi
        n = len(pi)
        self.orbit = [c for c in range(len(kappa)) if c <= kappa[c]]   # the checked columns
        self.slot = {c: i * n for i, c in enumerate(self.orbit)}       # its bits: slot + digit
        self.full = (1 << (n * len(self.orbit))) - 1
        self._fixed: dict[tuple[int, ...], np.ndarray] = {}
        self._free: dict[tuple[int, ...], np.ndarray] = {}
        self._counts: dict[tuple, int] = {}

    def fixed_masks(self, digits: tuple[int, ...]) -> np.ndarray:
        """Bits of each arrangement of a fixed row's set (``p[κ(c)] = π p[c]``)."""
        if digits not in self._fixed:
            out = []
            for p in itertools.permutations(digits):
                if all(p[self.kappa[c]] == self.pi[p[c]] for c in range(len(p))):
                    out.append(sum(1 << (self.slot[c] + p[c]) for c in self.orbit))
            self._fixed[digits] = np.array(out, dtype=np.int64)
        return self._fixed[digits]

    def free_masks(self, digits: tuple[int, ...]) -> np.ndarray:
        """Bits of each arrangement of a free row's set: ``y[c]`` and
        ``π y[κ(c)]`` in orbit column ``c``.  A row clashing with itself is
        dropped here only to save work: its two entries would set one bit,
        too few for the cover to be completed."""
        if digits not in self._free:
            out = []
            for p in itertools.permutations(digits):
                m, ok = 0, True
                for c in self.orbit:
                    a, b = p[c], self.pi[p[self.kappa[c]]]
                    if a == b:
                        ok = False
                        break
                    m |= (1 << (self.slot[c] + a)) | (1 << (self.slot[c] + b))
                if ok:
                    out.append(m)
            self._free[digits] = np.array(out, dtype=np.int64)
        return self._free[digits]

    def count(self, fixed: list[tuple[int, ...]], free: list[tuple[int, ...]]) -> int:
        """``N``: arrangements of every row with disjoint bits covering all."""
        key = (tuple(sorted(fixed)), tuple(sorted(free)))
        if key not in self._counts:
            tables = [self.fixed_masks(s) for s in key[0]] + [self.free_masks(s) for s in key[1]]
            split = max(1, len(tables) - 2)
            a = fold(tables[:split])
            b = fold(tables[split:])
            self._counts[key] = match(a, b, self.full)
        return self._counts[key]


def fold(tables: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(sorted distinct unions, arrangements each) of one arrangement per
    table with pairwise disjoint bits."""
    keys, weights = np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)
    for t in tables:
        ok = (keys[:, None] & t[None, :]) == 0
        keys = (keys[:, None] | t[None, :])[ok]
        weights = np.broadcast_to(weights[:, None], ok.shape)[ok]
        if len(keys) == 0:
            break
        order = np.argsort(keys, kind="stable")
        keys, weights = keys[order], weights[order]
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        keys, weights = keys[starts], np.add.reduceat(weights, starts)
    return keys, weights


def match(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray], full: int) -> int:
    """Σ weight_a · weight_b over key pairs that partition ``full``."""
    (ka, wa), (kb, wb) = a, b
    if len(ka) == 0 or len(kb) == 0:
        return 0
    ok = (ka & ~full) == 0
    need = full ^ ka[ok]
    at = np.searchsorted(kb, need)
    at[at == len(kb)] = 0
    hit = kb[at] == need
    return sum(x * y for x, y in zip(wa[ok][hit].tolist(), wb[at[hit]].tolist()))


def generators(pi: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Generators of π's centraliser: neighbouring pairs exchanged, the first
    pair flipped, neighbouring fixed digits exchanged."""
    n = len(pi)
    pairs = [d for d in range(n) if pi[d] == d + 1]
    fixed = [d for d in range(n) if pi[d] == d]
    gens = []
    for x, y in zip(pairs, pairs[1:]):
        g = list(range(n))
        g[x], g[x + 1], g[y], g[y + 1] = y, y + 1, x, x + 1
        gens.append(tuple(g))
    if pairs:
        g = list(range(n))
        g[pairs[0]], g[pairs[0] + 1] = pairs[0] + 1, pairs[0]
        gens.append(tuple(g))
    for x, y in zip(fixed, fixed[1:]):
        g = list(range(n))
        g[x], g[y] = y, x
        gens.append(tuple(g))
    return gens


def centraliser(ctype: tuple[int, ...]) -> int:
    """``Π k^m_k m_k!``: the order of π's centraliser in ``S_N``."""
    out = 1
    for k in set(ctype):
        m = ctype.count(k)
        out *= k ** m * math.factorial(m)
    return out


def fixed_count(layout: Layout, pi: tuple[int, ...]) -> int:
    """``#fixed``: the sum over the data's orbits (see the module docstring)."""
    n = len(pi)
    size = n // 2
    full = (1 << n) - 1
    left, right = Stack(layout.kappa_l, pi), Stack(layout.kappa_r, pi)

    def digits(mask: int) -> tuple[int, ...]:
        return tuple(d for d in range(n) if mask >> d & 1)

    subsets = [sum(1 << d for d in s) for s in itertools.combinations(range(n), size)]
    fixed_ok = [s for s in subsets
                if all(len(st.fixed_masks(digits(m))) for st in (left, right) for m in (s, full ^ s))]
    # a set some row cannot be arranged with makes N = 0: dropped before the
    # orbits (a couple's rows hold X and comp X in each stack, a perm band's
    # top row S on the left and comp S on the right)
    free_ok = [s for s in subsets
               if all(len(st.free_masks(digits(m))) for st in (left, right) for m in (s, full ^ s))]
    perm_ok = [s for s in subsets if all(s >> d & 1 != s >> pi[d] & 1 for d in range(n))
               and len(left.free_masks(digits(s))) and len(right.free_masks(digits(full ^ s)))]
    choices = [fixed_ok] * len(layout.fixed) + [perm_ok] * len(layout.perm) + \
        [free_ok] * len(layout.couples)
    images = [[sum(1 << g[d] for d in range(n) if m >> d & 1) for m in range(full + 1)]
              for g in generators(pi)]
    seen: set[tuple[int, ...]] = set()
    total = 0
    nf, nperm = len(layout.fixed), len(layout.perm)
    for data in itertools.product(*choices):
        if data in seen:
            continue
        orbit, todo = {data}, [data]
        while todo:
            x = todo.pop()
            for img in images:
                y = tuple(img[m] for m in x)
                if y not in orbit:
                    orbit.add(y)
                    todo.append(y)
        seen |= orbit
        fixed_l, free_l, fixed_r, free_r = [], [], [], []
        for i, m in enumerate(data):
            s, c = digits(m), digits(full ^ m)
            if i < nf:
                fixed_l += [s, c]
                fixed_r += [c, s]
            elif i < nf + nperm:
                free_l.append(s)
                free_r.append(c)
            else:
                free_l += [s, c]
                free_r += [c, s]
        nl = left.count(fixed_l, free_l)
        if nl:
            total += len(orbit) * nl * right.count(fixed_r, free_r)
    return total


def unit_a(rows: tuple[int, ...], cols: tuple[int, ...], ctype: tuple[int, ...]) -> int:
    """``A`` of the element (0-based row and column maps of a ``2xC`` grid)
    and π of type ``ctype``: ``#fixed`` over π's centraliser order."""
    layout = structure(rows, cols)
    pi = involution(ctype)
    if len(pi) != len(rows):
        raise ValueError(f"π of type {ctype} does not relabel {len(rows)} digits")
    a, r = divmod(fixed_count(layout, pi), centraliser(ctype))
    assert r == 0, "#fixed is not a multiple of the centraliser order"
    return a


SECTION = "## Units 27 and 49 by the fixed band's and the free rows' digit sets"


WRITTEN_BY = ("Written by `python scripts/two_stack_fixed_band_check.py --record`: `A` of the units"
              " that keep the stacks with a band whose rows are both fixed (π then has fixed "
              "digits: a fixed row puts them in the columns κ fixes), counted again as a sum over "
              "the digit sets of the fixed band's rows and of the free rows (two exchanged bands: a"
              " 5-set and its complement), by orbits under π's centraliser, of two per-stack exact "
              "covers (one per column orbit of κ), plain Python and numpy, sharing no code with "
              "`counting.group.two_stack_fixed` (the derivation is the script's docstring; "
              "`tests/scripts/test_two_stack_fixed_band_check.py` compares it with the whole-grid "
              "search on 2x3 and 2x4).")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("units", nargs="*", type=int, default=list(UNITS))
    ap.add_argument("--record", action="store_true",
                    help=f"write the table into {RESULTS.name} (section {SECTION[3:]!r})")
    args = ap.parse_args()
    table = read_table()
    for unit in args.units:
        if unit not in table:
            ap.error(f"unit {unit} is not in {TABLE.name}")
        ctype, rows, cols, _ = table[unit]
        try:
            structure(rows, cols)
            involution(ctype)
        except ValueError as e:
            ap.error(f"unit {unit}: {e}")
    load_start, begin, lines = os.getloadavg()[0], time.perf_counter(), []
    for unit in args.units:
        ctype, rows, cols, walk = table[unit]
        start = time.perf_counter()
        a = unit_a(rows, cols, ctype)
        seconds = time.perf_counter() - start
        verdict = "equal" if a == walk else f"DIFFERENT (by {a - walk:,})"
        element = "rows={} cols={}".format(",".join(str(r + 1) for r in rows),
                                           ",".join(str(c + 1) for c in cols))
        lines.append(f"| {unit} | {element} | {a:,} | {walk:,} | {verdict} | {seconds:.1f} s |")
        print(f"unit {unit}: A = {a:,}  table {walk:,}  {verdict}  ({seconds:.1f} s)", flush=True)
    if args.record:
        record(RESULTS, SECTION, WRITTEN_BY, lines, (load_start, os.getloadavg()[0]),
               time.perf_counter() - begin)
        print(f"recorded in {RESULTS}")


if __name__ == "__main__":
    main()
