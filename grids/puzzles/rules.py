"""The human-style rule solver behind :func:`grids.puzzles.explain`.

Candidates are bit masks (bit ``d-1`` for digit ``d``).  The rules, simplest
first, restart from the top after every change: naked single, hidden single
(row, column, box), pointing and claiming (locked candidates), naked pair,
hidden pair, naked triple, hidden triple.  When none applies the solver
guesses the first candidate of a cell with fewest candidates; a guess that
ends in a contradiction is undone and its digit removed.  Units, peers and
box-line crossings come from :class:`grids.shape.Shape`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from grids.grid import ALPHABET, cell_name
from grids.shape import Shape

__all__ = ["RULES", "Step", "Geometry", "geometry", "RuleSolver"]

#: Rules in the order they are tried (and rows of the statistics table).
RULES = (
    "naked single",
    "hidden single (row)",
    "hidden single (column)",
    "hidden single (box)",
    "pointing",
    "claiming",
    "naked pair",
    "hidden pair",
    "naked triple",
    "hidden triple",
)


@dataclass(frozen=True)
class Step:
    """One step of an explanation.

    Attributes
    ----------
    rule : str
        A name from :data:`RULES`, or ``"branch"`` (a guess),
        ``"contradiction"`` (a guess failed; its digit is removed).
    depth : int
        Guesses in force when the step was taken (0: pure deduction).
    text : str
        What was done, for people (``r3c5 = 7``, ``r1c2 ≠ 4``).
    placement : tuple or None
        ``(cell, digit)`` placed: data, so the cell counts from 0, row-major
        (``cell = row·N + column``; :func:`grids.grid.cell_rc` splits it),
        the digit is its value 1..N.
    eliminations : tuple
        ``(cell, digit)`` pairs removed from the candidates, the same way.
    """

    rule: str
    depth: int
    text: str
    placement: tuple[int, int] | None = None
    eliminations: tuple[tuple[int, int], ...] = ()



class Geometry:
    """Units and their intersections for one shape, as the rules use them.

    Attributes
    ----------
    n, nn, full : int
        Digits, cells, and the mask of every digit (bit ``d-1`` for ``d``).
    latin : bool
        No box units (``1xN``, ``Nx1``).
    units : list of tuple of int
        Cells of every unit, in the order of :attr:`grids.shape.Shape.units`:
        ``N`` rows, ``N`` columns, then ``N`` boxes.
    label : list of str
        Name of every unit (``"box 3"``).
    peers : list of tuple of int
        The cells sharing a unit with each cell.
    crossings : list of tuple
        ``(box unit, line unit, cells of both, box cells off the line, line
        cells off the box)`` for every box and row or column that meet.
    """

    def __init__(self, shape: Shape):
        self.n = shape.n
        self.nn = shape.n_cells
        self.full = (1 << shape.n) - 1
        self.latin = shape.latin
        self.units = [tuple(cells.tolist()) for _, cells in shape.units]
        self.label = [name for name, _ in shape.units]
        self.peers = [tuple(p.tolist()) for p in shape.peers]
        n, units = self.n, self.units
        self.crossings: list[tuple[int, int, tuple, tuple, tuple]] = []
        if not shape.latin:
            for bu in range(2 * n, 3 * n):
                box = set(units[bu])
                for lu in range(2 * n):
                    both = box & set(units[lu])
                    if both:
                        self.crossings.append((bu, lu, tuple(sorted(both)),
                                               tuple(sorted(box - both)),
                                               tuple(sorted(set(units[lu]) - box))))


@lru_cache(maxsize=None)
def geometry(shape: Shape) -> Geometry:
    """The :class:`Geometry` of ``shape``, built once per shape."""
    return Geometry(shape)


class _Contradiction(Exception):
    def __init__(self, why: str):
        self.why = why


class RuleSolver:
    """Candidates as bit masks (bit d-1 for digit d); one instance per puzzle.

    :meth:`run` solves; afterwards ``value`` holds the grid (flat), ``steps``
    the recorded steps (with ``record``), ``counts`` the firings per rule,
    ``branches``, ``backtracks`` and ``max_depth`` the guessing, and
    ``reason`` why there is no solution.
    """

    def __init__(self, geo: Geometry, record: bool):
        self.g = geo
        self.record = record
        self.steps: list[Step] = []
        self.counts = dict.fromkeys(RULES, 0)
        self.branches = self.backtracks = self.max_depth = 0
        self.depth = 0
        self.value: list[int] = []
        self.cand: list[int] = []
        self.reason: str | None = None

    # -- helpers -----------------------------------------------------------
    def _name(self, k: int) -> str:
        return cell_name(k, self.g.n)

    @staticmethod
    def _digits(mask: int) -> list[int]:
        out, d = [], 1
        while mask:
            if mask & 1:
                out.append(d)
            mask >>= 1
            d += 1
        return out

    def _sym(self, d: int) -> str:
        return ALPHABET[d - 1]

    def _place(self, k: int, d: int, rule: str, why: str) -> None:
        bit = 1 << (d - 1)
        if not self.cand[k] & bit:
            raise _Contradiction(f"{self._name(k)} cannot be {self._sym(d)}")
        self.value[k] = d
        self.cand[k] = 0
        for p in self.g.peers[k]:
            self.cand[p] &= ~bit
        self.counts[rule] += 1
        if self.record:
            self.steps.append(Step(rule, self.depth, f"{self._name(k)} = {self._sym(d)}  {why}",
                                   (k, d)))

    def _eliminate(self, rule: str, elims: list[tuple[int, int]], why: str) -> None:
        for k, d in elims:
            self.cand[k] &= ~(1 << (d - 1))
        self.counts[rule] += 1
        if self.record:
            gone = ", ".join(f"{self._name(k)}≠{self._sym(d)}" for k, d in elims)
            self.steps.append(Step(rule, self.depth, f"{why} → {gone}", None, tuple(elims)))

    # -- rules: each returns True if it changed something ------------------
    def _naked_singles(self) -> bool:
        done = False
        value, cand = self.value, self.cand
        for k in range(self.g.nn):
            if value[k]:
                continue
            m = cand[k]
            if m == 0:
                raise _Contradiction(f"{self._name(k)} has no candidate left")
            if m & (m - 1) == 0:
                self._place(k, m.bit_length(), "naked single", "naked single")
                done = True
        return done

    def _hidden_singles(self) -> bool:
        g, value, cand = self.g, self.value, self.cand
        for kind in range(3 if not g.latin else 2):
            rule = RULES[1 + kind]
            done = False
            for ui in range(kind * g.n, (kind + 1) * g.n):
                unit = g.units[ui]
                once = twice = placed = 0
                for k in unit:
                    if value[k]:
                        placed |= 1 << (value[k] - 1)
                    else:
                        m = cand[k]
                        twice |= once & m
                        once |= m
                missing = g.full & ~placed & ~once
                if missing:
                    d = missing.bit_length()
                    raise _Contradiction(f"no place for {self._sym(d)} in {g.label[ui]}")
                single = once & ~twice
                while single:
                    bit = single & -single
                    single ^= bit
                    for k in unit:
                        if cand[k] & bit and not value[k]:
                            self._place(k, bit.bit_length(), rule,
                                        f"hidden single in {g.label[ui]}")
                            break
                    done = True
            if done:
                return True
        return False

    def _locked_candidates(self) -> bool:
        g, cand = self.g, self.cand
        for pointing in (True, False):
            rule = "pointing" if pointing else "claiming"
            for bu, lu, both, box_rest, line_rest in g.crossings:
                inside = 0
                for k in both:
                    inside |= cand[k]
                if not inside:
                    continue
                # pointing: digits of the box only on this line → off the line's rest
                # claiming: digits of the line only in this box → off the box's rest
                source, target = (box_rest, line_rest) if pointing else (line_rest, box_rest)
                outside = 0
                for k in source:
                    outside |= cand[k]
                locked = inside & ~outside
                if not locked:
                    continue
                hit = 0
                for k in target:
                    hit |= cand[k]
                locked &= hit
                if not locked:
                    continue
                d = (locked & -locked).bit_length()
                bit = 1 << (d - 1)
                elims = [(k, d) for k in target if cand[k] & bit]
                if pointing:
                    why = f"pointing: {self._sym(d)} in {g.label[bu]} only in {g.label[lu]}"
                else:
                    why = f"claiming: {self._sym(d)} in {g.label[lu]} only in {g.label[bu]}"
                self._eliminate(rule, elims, why)
                return True
        return False

    def _naked_subset(self, size: int) -> bool:
        g, value, cand = self.g, self.value, self.cand
        rule = "naked pair" if size == 2 else "naked triple"
        for ui, unit in enumerate(g.units):
            empty = [k for k in unit if not value[k]]
            if len(empty) <= size:
                continue
            small = [k for k in empty if bin(cand[k]).count("1") <= size]
            for combo in itertools.combinations(small, size):
                union = 0
                for k in combo:
                    union |= cand[k]
                if bin(union).count("1") != size:
                    continue
                elims = [(k, d) for k in empty if k not in combo
                         for d in self._digits(cand[k] & union)]
                if elims:
                    digits = ",".join(self._sym(d) for d in self._digits(union))
                    where = ",".join(self._name(k) for k in combo)
                    self._eliminate(rule, elims, f"{rule} {{{digits}}} in {where} ({g.label[ui]})")
                    return True
        return False

    def _hidden_subset(self, size: int) -> bool:
        g, value, cand = self.g, self.value, self.cand
        rule = "hidden pair" if size == 2 else "hidden triple"
        for ui, unit in enumerate(g.units):
            empty = [k for k in unit if not value[k]]
            if len(empty) <= size:
                continue
            where: dict[int, int] = {}   # digit → mask over positions in `empty`
            for i, k in enumerate(empty):
                for d in self._digits(cand[k]):
                    where[d] = where.get(d, 0) | (1 << i)
            few = [d for d, m in where.items() if bin(m).count("1") <= size]
            for combo in itertools.combinations(sorted(few), size):
                pos = 0
                for d in combo:
                    pos |= where[d]
                if bin(pos).count("1") != size:
                    continue
                keep = 0
                for d in combo:
                    keep |= 1 << (d - 1)
                cells = [empty[i] for i in range(len(empty)) if pos >> i & 1]
                elims = [(k, d) for k in cells for d in self._digits(cand[k] & ~keep)]
                if elims:
                    digits = ",".join(self._sym(d) for d in combo)
                    at = ",".join(self._name(k) for k in cells)
                    self._eliminate(rule, elims, f"{rule} {{{digits}}} in {at} ({g.label[ui]})")
                    return True
        return False

    # -- driver ------------------------------------------------------------
    def _propagate(self) -> bool:
        """Apply rules until solved (True) or stalled (False); may raise _Contradiction."""
        steps = (self._naked_singles, self._hidden_singles, self._locked_candidates,
                 lambda: self._naked_subset(2), lambda: self._hidden_subset(2),
                 lambda: self._naked_subset(3), lambda: self._hidden_subset(3))
        while True:
            if all(self.value):
                return True
            for rule in steps:
                if rule():
                    break
            else:
                return False

    def _search(self) -> bool:
        """Rules, then a guess on a cell with fewest candidates; True if solved."""
        while True:
            try:
                if self._propagate():
                    return True
            except _Contradiction as c:
                self.reason = c.why
                return False
            g = self.g
            k = min((k for k in range(g.nn) if not self.value[k]),
                    key=lambda k: bin(self.cand[k]).count("1"))
            digits = self._digits(self.cand[k])
            d = digits[0]
            self.branches += 1
            if self.record:
                opts = ",".join(self._sym(x) for x in digits)
                self.steps.append(Step("branch", self.depth,
                                       f"{self._name(k)} = {self._sym(d)}  branch: a guess "
                                       f"(candidates {opts})", (k, d)))
            saved = (self.value[:], self.cand[:])
            self.depth += 1
            self.max_depth = max(self.max_depth, self.depth)
            try:
                self._guess(k, d)
                ok = self._search()
            finally:
                self.depth -= 1
            if ok:
                return True
            self.value, self.cand = saved
            self.backtracks += 1
            self.cand[k] &= ~(1 << (d - 1))
            if self.record:
                self.steps.append(Step("contradiction", self.depth,
                                       f"contradiction ({self.reason}) → {self._name(k)}"
                                       f"≠{self._sym(d)}", None, ((k, d),)))

    def _guess(self, k: int, d: int) -> None:
        bit = 1 << (d - 1)
        self.value[k] = d
        self.cand[k] = 0
        for p in self.g.peers[k]:
            self.cand[p] &= ~bit

    def run(self, arr: np.ndarray) -> bool:
        """Solve the flat grid ``arr``; ``True`` if a solution was found."""
        g = self.g
        self.value = [int(v) for v in arr]
        self.cand = [0 if v else g.full for v in self.value]
        for k, v in enumerate(self.value):
            if v:
                bit = 1 << (v - 1)
                for p in g.peers[k]:
                    if self.value[p] == v:
                        self.reason = (f"{self._name(p)} and {self._name(k)} both hold "
                                       f"{self._sym(v)}")
                        return False
                    self.cand[p] &= ~bit
        self.reason = None
        return self._search()

