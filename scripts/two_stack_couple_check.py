"""An independent count of 2x5's Burnside terms whose element keeps the
stacks, moves columns by an involution inside each stack and relabels by a
fixed-point-free involution π (type 2^5), every band's rows either swapped
within the band or the band swapped with another: units 12-17, 34-39 and
52-57 of ``counting.group.burnside.symmetry_units("2x5")``.  It reads the
elements and the walk's values from ``results/2x5-symmetry-two-stack.tsv``
and shares no code with ``counting/group/two_stack_fixed.py`` (nor with the
package: plain Python and numpy).  Written for five columns a stack, it
works for any ``2xC`` (``C`` bands, ``C`` columns a stack, ``2C`` digits,
π of type ``2^C``; the tests compare it with the package on 2x3 and 2x4).

The fixed grids
---------------
Digit ``d`` is ``(pair d // 2, sign d % 2)``; ``π d = d ^ 1``.  The element
moves columns by ``κ`` (an involution of each stack's five columns) and a
fixed grid has ``G[ρ(r), κ(c)] = π G[r, c]``.

* A band whose two rows are swapped (a *perm band*): its bottom row is
  ``π x∘κ`` for its top row ``x``.  The left box is ``x_L ∪ π x_L``
  (``κ`` keeps the stack), all ten digits exactly when ``x_L`` holds one
  digit of each pair: a set ``S`` of 32; then the row makes ``x_R`` the
  other five, ``π S``.  Conversely any such ``x`` makes both rows and both
  boxes right.
* Two bands swapped (a *couple*: rows ``D, E`` free, the other band ``π D∘κ,
  π E∘κ``): the box ``D_L ∪ E_L`` is every digit, so with ``X`` the set of
  ``D_L`` (any 5 of the 10 digits, 252 choices), ``E_L`` holds ``comp X``;
  the rows make ``D_R = comp X`` and ``E_R = X``.  The partner band's rows and
  boxes are π of these, so right.
* Column ``c`` holds ``y[c]`` and ``π y[κ(c)]`` for each of the five free
  rows ``y`` (perm rows and couple rows alike: the partner row of ``D`` at
  column ``c`` is ``π D[κ(c)]``).  For ``κ(c) = c`` that is ``y[c]`` and
  its pair-mate: the five free entries need five different pairs.  For
  ``κ`` swapping ``a, b``, column ``a`` holds ``y[a]`` and ``π y[b]``: these
  ten must be different digits (then column ``b``, π of column ``a``, is too).

So a fixed grid is the free rows' digit sets (the *data*: ``S`` per perm
band, ``X`` per couple) and, in each stack independently, an arrangement of
each free row's stack set over the five columns that meets the column
conditions:

    #fixed = Σ_data  N(κ_L; rows_L(data)) · N(κ_R; rows_R(data))

with ``rows_L = (S_i…, X_k, comp X_k …)`` and ``rows_R = (π S_i…,
comp X_k, X_k …)``.  ``N`` is an exact cover of bit masks (a fixed column
5 bits, one per pair; a swapped pair of columns 10 bits, the digits of its
first column), counted row by row: the first two rows' masks and the last
two rows' masks are tabulated, the middle row joins them.

Fewer data
----------
A relabelling ``h`` that commutes with π (pairs permuted, signs flipped
within pairs) maps fixed grids to fixed grids and data to data with the
same ``N`` in both stacks.  Flipping signs moves the first perm band's ``S``
to the all-even set, freely (a factor ``2^C = 32``: so at least one band
must have its rows swapped).  Then the data are, pair by pair,
a code (the pair's sign in the other perm bands' ``S``, and which of its two
digits each ``X`` holds), and permuting the pairs permutes the codes: the
sum runs over the multisets of five codes (each ``X`` of size 5), weighted
by ``5!/Π mult!``.  A column permutation commuting with ``κ`` maps
arrangements to arrangements and acts freely on the first row's, so only
one first row per orbit is arranged, times the orbit size.

Finally ``A = #fixed / 3840`` (3840 = ``2^5·5!``, the centraliser of π of
type 2^5 in S_10), as the table's terms are defined.

    python scripts/two_stack_couple_check.py [--markdown] [--record] [UNIT ...]   # default: all 18

``--record`` writes the table as the last section of
``results/2x5-symmetry-two-stack.md`` (``scripts/bench_two_stack.py`` keeps
it when it rewrites the file).
"""
from __future__ import annotations

import argparse
import itertools
import math
import os
import time
from collections import Counter
from pathlib import Path

import numpy as np

from two_stack_results import record   # scripts/: the --record section

TABLE = Path(__file__).resolve().parent.parent / "results" / "2x5-symmetry-two-stack.tsv"
RESULTS = TABLE.with_suffix(".md")
UNITS = (12, 13, 14, 15, 16, 17, 34, 35, 36, 37, 38, 39, 52, 53, 54, 55, 56, 57)


def read_table(path: Path = TABLE) -> dict[int, tuple[str, tuple[int, ...], tuple[int, ...], int]]:
    """unit → (type, row map, column map (0-based), the walk's ``A``)."""
    out = {}
    for line in path.read_text().splitlines():
        f = line.split("\t")
        rows, cols = (tuple(int(v) - 1 for v in part.split("=")[1].split(","))
                      for part in f[3].split())
        out[int(f[0])] = (f[2], rows, cols, int(f[4]))
    return out


def structure(rows: tuple[int, ...], cols: tuple[int, ...]) -> tuple[int, int, tuple, tuple]:
    """(perm bands, couples, κ_L, κ_R) of an element of a ``2xC`` shape
    (``C = len(cols) // 2`` bands and columns a stack) this script counts."""
    size = len(cols) // 2
    if any(c // size != cols[c] // size for c in range(2 * size)) or \
            any(cols[cols[c]] != c for c in range(2 * size)):
        raise ValueError("columns must be an involution keeping each stack")
    n_perm = n_couple = 0
    for b in range(size):
        images = {rows[2 * b] // 2, rows[2 * b + 1] // 2}
        if len(images) != 1 or any(rows[rows[r]] != r for r in (2 * b, 2 * b + 1)):
            raise ValueError("rows must move whole bands, an involution")
        image = images.pop()
        if image == b:
            if rows[2 * b] == 2 * b:
                raise ValueError("a band with its rows fixed has no fixed grid for this π")
            n_perm += 1
        elif image > b:
            n_couple += 1
    kappa_l = tuple(cols[c] for c in range(size))
    kappa_r = tuple(cols[c] - size for c in range(size, 2 * size))
    return n_perm, n_couple, kappa_l, kappa_r


class Stack:
    """``N(κ; row sets)`` for one stack's column involution ``κ`` (``C``
    columns, ``C`` free rows, ``2C`` digits)."""

    def __init__(self, kappa: tuple[int, ...]):
        self.kappa = kappa
        size = len(kappa)
        self.bits: list[tuple[str, int]] = []      # per column: how a digit there sets a bit
        offset = 0
        first = {}
        for c in range(size):
            k = kappa[c]
            if k == c:
                self.bits.append(("pair", offset))
                offset += size
            elif k > c:
                first[c] = offset
                self.bits.append(("own", offset))
                offset += 2 * size
            else:
                self.bits.append(("mate", first[k]))
        self.full = (1 << offset) - 1
        assert offset == size * size
        cent = [p for p in itertools.permutations(range(size))
                if all(p[kappa[c]] == kappa[p[c]] for c in range(size))]
        self.centraliser = cent
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self._firsts: dict[tuple[int, ...], np.ndarray] = {}

    def mask(self, arrangement: tuple[int, ...]) -> int:
        """Bits of one row's arrangement (digit per column), or -1 if it
        clashes with itself (both digits of a pair in a swapped column pair)."""
        m = 0
        for c, d in enumerate(arrangement):
            how, off = self.bits[c]
            bit = 1 << (off + (d // 2 if how == "pair" else d if how == "own" else d ^ 1))
            if m & bit:
                return -1
            m |= bit
        return m

    def masks(self, digits: tuple[int, ...]) -> np.ndarray:
        """Every valid arrangement's bits for the row set ``digits`` (sorted),
        one entry per arrangement: two arrangements may set the same bits (a
        fixed column records only the pair)."""
        if digits not in self._masks:
            ms = [self.mask(p) for p in itertools.permutations(digits)]
            self._masks[digits] = np.array(sorted(m for m in ms if m >= 0), dtype=np.int64)
            # one arrangement per orbit of the columns' centraliser: the least
            reps = []
            for p in itertools.permutations(digits):
                if p == min(tuple(p[q[c]] for c in range(len(p))) for q in self.centraliser):
                    m = self.mask(p)
                    if m >= 0:
                        reps.append(m)
            self._firsts[digits] = np.array(reps, dtype=np.int64)
        return self._masks[digits]

    def firsts(self, digits: tuple[int, ...]) -> np.ndarray:
        """:meth:`masks` of one arrangement per orbit of the columns' centraliser."""
        self.masks(digits)
        return self._firsts[digits]

    def count(self, rows: list[tuple[int, ...]]) -> int:
        """``N``: arrangements of the rows (at least 3) with disjoint bits:
        the first two joined, the rest after the third joined, the third
        matched between them."""
        keys, weights = _join(self.firsts(rows[0]), None, self.masks(rows[1]), None)
        lkeys, lweights = np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)
        for row in rows[3:]:
            lkeys, lweights = _join(lkeys, lweights, self.masks(row), None)
        middle = self.masks(rows[2])
        if len(keys) == 0 or len(lkeys) == 0:
            return 0
        total = 0
        for m in middle:
            ok = (keys & m) == 0
            need = self.full ^ m ^ keys[ok]
            at = np.searchsorted(lkeys, need)
            at[at == len(lkeys)] = 0
            hit = lkeys[at] == need
            total += int(np.dot(weights[ok][hit], lweights[at[hit]]))
        return total * len(self.centraliser)


def _join(a: np.ndarray, wa, b: np.ndarray, wb) -> tuple[np.ndarray, np.ndarray]:
    """Disjoint unions of two rows' masks, summed by union (sorted keys)."""
    wa = np.ones(len(a), dtype=np.int64) if wa is None else wa
    wb = np.ones(len(b), dtype=np.int64) if wb is None else wb
    ok = (a[:, None] & b[None, :]) == 0
    keys = (a[:, None] | b[None, :])[ok]
    w = (wa[:, None] * wb[None, :])[ok]
    order = np.argsort(keys, kind="stable")
    keys, w = keys[order], w[order]
    if len(keys) == 0:
        return keys, w
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(w, starts)


def codes(n_perm: int, n_couple: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """A pair's possible codes: its sign in perm bands 2.. and, per couple,
    which of its digits ``X`` holds (a subset of {even, odd})."""
    signs = list(itertools.product((0, 1), repeat=n_perm - 1))
    holds = list(itertools.product(((), (0,), (1,), (0, 1)), repeat=n_couple))
    return [(s, h) for s in signs for h in holds]


def fixed_count(n_perm: int, n_couple: int, left: Stack, right: Stack) -> int:
    """``#fixed``: the sum over the data's classes (see the module docstring)."""
    size = len(left.kappa)
    if n_perm < 1 or n_perm + 2 * n_couple != size or size < 3:
        raise ValueError("needs a perm band, every band accounted for, and C >= 3")
    code_list = codes(n_perm, n_couple)
    all_digits = frozenset(range(2 * size))
    total = 0
    for multiset in itertools.combinations_with_replacement(range(len(code_list)), size):
        chosen = [code_list[i] for i in multiset]
        if any(sum(len(h[k]) for _, h in chosen) != size for k in range(n_couple)):
            continue
        perm_sets = [tuple(2 * p for p in range(size))]
        for i in range(n_perm - 1):
            perm_sets.append(tuple(2 * p + s[i] for p, (s, _) in enumerate(chosen)))
        xs = [tuple(sorted(2 * p + e for p, (_, h) in enumerate(chosen) for e in h[k]))
              for k in range(n_couple)]
        comp = [tuple(sorted(all_digits - set(x))) for x in xs]
        rows_l = perm_sets + [r for k in range(n_couple) for r in (xs[k], comp[k])]
        rows_r = [tuple(sorted(d ^ 1 for d in s)) for s in perm_sets] + \
            [r for k in range(n_couple) for r in (comp[k], xs[k])]
        nl = left.count(rows_l)
        if nl == 0:
            continue
        weight = math.factorial(size)
        for m in Counter(multiset).values():
            weight //= math.factorial(m)
        total += weight * nl * right.count(rows_r)
    return 2 ** size * total


def unit_a(rows: tuple[int, ...], cols: tuple[int, ...]) -> int:
    """``A`` of the element (0-based row and column maps of a ``2xC`` grid)
    with π of type ``2^C``: ``#fixed`` over π's centraliser order ``2^C·C!``."""
    n_perm, n_couple, kl, kr = structure(rows, cols)
    fixed = fixed_count(n_perm, n_couple, Stack(kl), Stack(kr))
    a, r = divmod(fixed, 2 ** len(kl) * math.factorial(len(kl)))
    assert r == 0, "#fixed is not a multiple of the centraliser order"
    return a


SECTION = "## Units 12-17, 34-39 and 52-57 by the free rows' digit sets"


WRITTEN_BY = ("Written by `python scripts/two_stack_couple_check.py --record`: `A` of every unit "
              "that keeps the stacks with π of type 2^5, counted again as a sum over the free rows'"
              " digit sets (a band with its rows swapped: one digit of each π-pair; two exchanged "
              "bands: a 5-set and its complement) of two per-stack exact covers, plain Python and "
              "numpy, sharing no code with `counting.group.two_stack_fixed` (the derivation is the "
              "script's docstring; `tests/scripts/test_two_stack_couple_check.py` compares it with "
              "the package on 2x3 and 2x4).")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("units", nargs="*", type=int, default=list(UNITS))
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--record", action="store_true",
                    help=f"write the table into {RESULTS.name} (section {SECTION[3:]!r})")
    args = ap.parse_args()
    table = read_table()
    for unit in args.units:
        if unit not in table:
            ap.error(f"unit {unit} is not in {TABLE.name}")
        kind, rows, cols, _ = table[unit]
        if kind != "2^5":
            ap.error(f"unit {unit}: π of type {kind}, not 2^5")
        try:
            structure(rows, cols)
        except ValueError as e:
            ap.error(f"unit {unit}: {e}")
    if args.markdown:
        print("| unit | element | A here | A in the table | | seconds |")
        print("|---:|---|---:|---:|---|---:|")
    load_start, begin, lines = os.getloadavg()[0], time.perf_counter(), []
    for unit in args.units:
        _, rows, cols, walk = table[unit]
        start = time.perf_counter()
        a = unit_a(rows, cols)
        seconds = time.perf_counter() - start
        verdict = "equal" if a == walk else f"DIFFERENT (by {a - walk:,})"
        element = "rows={} cols={}".format(",".join(str(r + 1) for r in rows),
                                           ",".join(str(c + 1) for c in cols))
        lines.append(f"| {unit} | {element} | {a:,} | {walk:,} | {verdict} | {seconds:.1f} s |")
        if args.markdown:
            print(lines[-1], flush=True)
        else:
            print(f"unit {unit}: A = {a:,}  table {walk:,}  {verdict}  ({seconds:.1f} s)",
                  flush=True)
    if args.record:
        record(RESULTS, SECTION, WRITTEN_BY, lines, (load_start, os.getloadavg()[0]),
               time.perf_counter() - begin)
        print(f"recorded in {RESULTS}")


if __name__ == "__main__":
    main()
