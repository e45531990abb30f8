"""The human-style rule solver behind :func:`grids.puzzles.explain`.

Candidates are bit masks (bit ``d-1`` for digit ``d``).  The rules, simplest
first, restart from the top after every change: naked single, hidden single
(row, column, box), pointing and claiming (locked candidates), naked pair,
hidden pair, naked triple, hidden triple (:data:`BASIC_RULES`, here), then
the stronger techniques of :mod:`grids.puzzles.techniques` (fish, wings,
colouring, chains).  When none applies the solver guesses the first
candidate of a cell with fewest candidates (of those, the cell whose
candidates its peers share most); a guess that ends in a contradiction is
undone and its digit removed.  Units, peers and box-line
crossings come from :mod:`grids.puzzles.geometry`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from grids.grid import ALPHABET, cell_name
from grids.puzzles.geometry import Geometry, digits_of, popcount
from grids.puzzles.techniques import TECHNIQUES

__all__ = ["BASIC_RULES", "RULES", "Step", "RuleSolver"]

#: The rules of this module, in the order they are tried.
BASIC_RULES = (
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
#: Every rule in the order it is tried (and rows of the statistics table).
RULES = BASIC_RULES + tuple(name for name, _ in TECHNIQUES)


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
    candidates : tuple
        For a branch: the digits the cell could still hold (the guess is the
        first of them).
    reason : str or None
        For a contradiction: what went wrong inside the guess.
    """

    rule: str
    depth: int
    text: str
    placement: tuple[int, int] | None = None
    eliminations: tuple[tuple[int, int], ...] = ()
    candidates: tuple[int, ...] = ()
    reason: str | None = None



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

    _digits = staticmethod(digits_of)

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

    def _technique(self, fn):
        """A technique of :mod:`grids.puzzles.techniques` as a rule of this solver."""
        def rule() -> bool:
            found = fn(self.g, self.cand)
            if found is None:
                return False
            self._eliminate(found.rule, list(found.eliminations), found.why)
            return True
        return rule

    # -- driver ------------------------------------------------------------
    def _propagate(self) -> bool:
        """Apply rules until solved (True) or stalled (False); may raise _Contradiction."""
        steps = (self._naked_singles, self._hidden_singles, self._locked_candidates,
                 lambda: self._naked_subset(2), lambda: self._hidden_subset(2),
                 lambda: self._naked_subset(3), lambda: self._hidden_subset(3),
                 *(self._technique(fn) for _, fn in TECHNIQUES))
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
            k = self._guess_cell()
            digits = self._digits(self.cand[k])
            d = digits[0]
            self.branches += 1
            if self.record:
                opts = ",".join(self._sym(x) for x in digits)
                self.steps.append(Step("branch", self.depth,
                                       f"{self._name(k)} = {self._sym(d)}  branch: a guess "
                                       f"(candidates {opts})", (k, d),
                                       candidates=tuple(digits)))
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
                                       f"≠{self._sym(d)}", None, ((k, d),),
                                       reason=self.reason))

    def _guess_cell(self) -> int:
        """The cell to guess: fewest candidates, and among those the one whose
        candidates its peers share most (a guess there settles most), the
        first in row-major order on a tie (``max`` keeps the first)."""
        g, cand = self.g, self.cand
        empty = [k for k in range(g.nn) if not self.value[k]]
        few = min(popcount(cand[k]) for k in empty)
        best = [k for k in empty if popcount(cand[k]) == few]
        return max(best, key=lambda k: sum(popcount(cand[p] & cand[k]) for p in g.peers[k]))

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

