"""A_t(g) for a two-stack shape (boxes of 2 rows × C columns) by the two-stack method.

:func:`counting.group.fixed.count_fixed` searches the whole grid for the
grids ``g`` fixes.  For boxes of 2 rows (``2xC``, grids of side ``N = 2C``:
``C`` bands of two rows, **two stacks** of ``C`` columns) a grid splits into
a pattern and two independent stack fillings, as the grid count does
(:mod:`factorization`), and so does a fixed grid.  This module counts it
that way: the same number, by a different route.

The pattern
-----------
Row ``r`` of the left stack holds a ``C``-set ``S_r`` of the digits and the
right stack its complement; the two rows of a band share a left box, so
``S_{2b+1} = comp S_{2b}``.  Conversely, any such pattern and any fillings of
the two stacks (a ``N×C`` array, row ``r`` a permutation of its set, each
column holding every digit once) make a grid.

The fixed grids
---------------
``g`` moves rows by ``ρ`` (whole bands) and columns by ``κ`` (whole stacks;
no transposition: ``R ≠ C``, and for 2×2 only the elements without it).
Fix a relabelling ``π``.  A grid is fixed when
``X(ρ(r), κ(c)) = π(X(r, c))`` for every cell.

* ``κ`` keeps the stacks (``κ = κ_L ⊕ κ_R``): the pattern satisfies
  ``S_{ρ(r)} = π(S_r)``, and each stack is fixed on its own,
  ``#fixed = Σ_S FL(S; ρ, κ_L, π) · FL(comp S; ρ, κ_R, π)``.
* ``κ`` swaps them (left column ``c`` to right column ``α(c)``, right
  column ``c`` to left column ``β(c)``): the right stack is the left one moved,
  ``R(ρ(r), α(c)) = π(L(r, c))``, the pattern satisfies
  ``S_{ρ(r)} = comp π(S_r)``, and the left stack must be fixed by the square,
  ``L(ρ²(r), βα(c)) = π²(L(r, c))``; then ``R`` is a filling of the right
  stack and the second condition holds:
  ``#fixed = Σ_S FL(S; ρ², βα, π²)``.

``FL(S; ρ, κ, π)`` counts the fillings of one stack fixed by ``(ρ, κ, π)``:
an exact cover (dlx) with one option per (cell orbit, digit of its first
cell), covering "cell filled", "row ``r`` has digit ``d``" (``d ∈ S_r``) and
"column ``c`` has digit ``d``", memoized on the pattern within one count.

Finally ``A_t(g) = #fixed(g, π_t) / z_t`` (``π_t`` any relabelling of type
``t``, ``z_t`` its centraliser order, :func:`~counting.group.permutations.centraliser_order`):
the grids fixed with some ``π`` of type ``t`` are ``N!/z_t`` times
``#fixed(g, π_t)``, and :mod:`.fixed` divides by ``N!`` (one standard unit).

Fewer patterns
--------------
The pattern is chosen band cycle by band cycle of ``ρ``: a band cycle's
first row fixes the sets of all its rows (``S_{ρ(r)} = φ(S_r)``,
``φ = π`` or ``comp∘π``), and only the first sets that close the cycle are
kept.  A relabelling ``σ`` commuting with ``π`` maps fixed grids to fixed
grids (``σX∘g = σπX = π(σX)``), so it maps patterns to patterns with equal
``FL·FR``: the band cycles are walked one at a time, one first set per
orbit of the stabiliser of the sets chosen so far, weighted by the orbit
size.  The group is the centraliser of ``π`` in ``S_N``
(cycles of equal length permuted, each rotated), cut to a subgroup of at
most :data:`GROUP_LIMIT` elements when larger (any subgroup gives the same
count).

Elements swapping the stacks with ``g² = 1`` (and ``π² = 1``) leave one
unrestricted stack, and every pattern may be valid (2x5: 10^12 of them):
those are counted by classes of patterns under ``B_C × S_N`` instead
(:mod:`.two_stack_involution`), unless ``method="walk"`` asks for the walk.

Shapes ``Cx2`` (two bands) are counted through the transpose: ``Y = Xᵀ`` is
a ``2xC`` grid fixed by ``(κ, ρ)`` with the same ``π``.

The tests check :func:`two_stack_fixed` against :func:`~counting.group.fixed.count_fixed`
on every unit of 2×3, 3×2 and 2×4.

Example
-------
>>> from counting.group.symmetries import Symmetry
>>> two_stack_fixed("2x3", Symmetry.identity("2x3"), (1,) * 6)   # 28,200,960 / 6!
39168
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from counting.group.permutations import centraliser_order, type_representative
from counting.group.symmetries import Symmetry
from counting.group.two_stack_involution import involution_fixed, is_stack_swapping_involution
from dlx.api import ExactCover
from factorization.api import FactorizationCounter, count_factorizations
from grids.kind import as_kind

__all__ = ["GROUP_LIMIT", "METHODS", "TwoStackCount", "is_two_stack", "two_stack_fixed", "two_stack_count"]

#: Most relabellings used to sort patterns into classes (a subgroup of the
#: centraliser of ``π`` when it is larger).
GROUP_LIMIT = 4_000

#: Ways to count: by :func:`two_stack_count`'s choice, the pattern walk, the pattern classes.
METHODS = ("auto", "walk", "classes")


@dataclass(frozen=True)
class TwoStackCount:
    """``A_t(g)`` by the two-stack method and what it took.

    Attributes
    ----------
    count : int
        ``A_t(g)``.
    fixed : int
        ``#fixed(g, π_t)``: grids fixed with the one relabelling ``π_t``.
    patterns : int
        Patterns (one per class) whose stack counts were multiplied (by
        pattern classes: the classes with valid patterns).
    stack_counts : int
        Stack fillings counted by exact cover or the factorization kernel
        (the others came from the memo).
    group_order : int
        Order of the relabelling group the patterns were sorted by (by
        pattern classes: of ``B_C × S_N``).
    """

    count: int
    fixed: int
    patterns: int
    stack_counts: int
    group_order: int


def is_two_stack(shape) -> bool:
    """Whether ``shape`` is a plain box shape with boxes of 2 rows or 2 columns."""
    kind = as_kind(shape)
    return kind.plain and 2 in (kind.shape.box_rows, kind.shape.box_cols)


def two_stack_fixed(shape, g: Symmetry, pi_type: tuple[int, ...], method: str = "auto") -> int:
    """``A_t(g)`` for ``t = pi_type``: :func:`two_stack_count`'s count."""
    return two_stack_count(shape, g, pi_type, method).count


def two_stack_count(shape, g: Symmetry, pi_type: tuple[int, ...],
                    method: str = "auto") -> TwoStackCount:
    """``A_t(g)`` of a two-stack shape, exact (see the module docstring).

    Parameters
    ----------
    shape : Shape or str
        A plain box shape ``2xC`` or ``Cx2``.
    g : Symmetry
        An element of its group without transposition.
    pi_type : tuple of int
        A partition of N: the cycle type of the relabelling.
    method : str
        ``"walk"``: the pattern walk; ``"classes"``: the pattern classes of
        :mod:`.two_stack_involution` (elements swapping the stacks with
        ``g² = 1`` and ``π² = 1`` only); ``"auto"`` (the default): the
        classes where they apply, else the walk.

    Raises ``ValueError`` (one line) for another shape, a transposing ``g``,
    a type that is not a partition of N, an unknown method or ``"classes"``
    for an element it does not apply to.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    kind = as_kind(shape)
    s = kind.shape
    if not is_two_stack(kind):
        raise ValueError(f"the two-stack method needs boxes of 2 rows or 2 columns, not {kind.name}")
    if g.transpose:
        raise ValueError("the two-stack method does not count transposing elements")
    pi_type = tuple(sorted((int(x) for x in pi_type), reverse=True))
    if sum(pi_type) != s.n or min(pi_type, default=0) < 1:
        raise ValueError(f"relabelling type must be a partition of {s.n}, got {pi_type}")
    rows, cols = tuple(g.rows), tuple(g.cols)
    if s.box_rows != 2:                       # Cx2: count the transpose, a 2xC grid
        rows, cols = cols, rows
    pi = type_representative(pi_type)
    if method == "classes" or (method == "auto" and is_stack_swapping_involution(rows, cols, pi)):
        by_classes = involution_fixed(rows, cols, pi)
        fixed, patterns, searches, order = (by_classes.fixed, by_classes.classes,
                                            by_classes.stack_counts, by_classes.group_order)
    else:
        counter = _Counter(s.n, rows, cols, pi)
        fixed, patterns, searches, order = (counter.fixed(), counter.patterns, counter.searches,
                                            len(counter.group))
    z = centraliser_order(pi_type)
    count, r = divmod(fixed, z)
    if r:
        raise ArithmeticError(f"{fixed:,} fixed grids are not a multiple of z = {z:,}: "
                              "the two-stack count is wrong")
    return TwoStackCount(count, fixed, patterns, searches, order)


def _apply(perm, mask: int) -> int:
    """The image of a digit set (bit mask) under a digit permutation."""
    out, d = 0, 0
    while mask:
        if mask & 1:
            out |= 1 << perm[d]
        mask >>= 1
        d += 1
    return out


def _is_identity(perm) -> bool:
    return all(i == v for i, v in enumerate(perm))


def _digits(mask: int) -> list[int]:
    return [d for d in range(mask.bit_length()) if mask >> d & 1]


def _centraliser(pi: tuple[int, ...], limit: int) -> list[tuple[int, ...]]:
    """Elements of the centraliser of ``pi`` in ``S_N``: cycles of equal
    length permuted among blocks, each cycle rotated; the blocks are cut
    until there are at most ``limit`` elements (always a subgroup)."""
    n = len(pi)
    cycles, seen = [], [False] * n
    for a in range(n):
        if not seen[a]:
            cyc, x = [], a
            while not seen[x]:
                seen[x] = True
                cyc.append(x)
                x = pi[x]
            cycles.append(cyc)
    by_length: dict[int, list[list[int]]] = {}
    for cyc in cycles:
        by_length.setdefault(len(cyc), []).append(cyc)
    blocks = [group for group in by_length.values()]      # cycles of one length, permuted freely

    def order(blocks):
        return math.prod(len(b[0]) ** len(b) * math.factorial(len(b)) for b in blocks)

    while order(blocks) > limit:
        big = max(range(len(blocks)), key=lambda i: (math.factorial(len(blocks[i])), i))
        if len(blocks[big]) == 1:
            blocks[big:big + 1] = []                        # drop a cycle's rotations
            continue
        blocks[big:big + 1] = [blocks[big][:-1], blocks[big][-1:]]

    factors = []
    for block in blocks:
        ell, elements = len(block[0]), []
        for order_ in itertools.permutations(range(len(block))):
            for shifts in itertools.product(range(ell), repeat=len(block)):
                m = {}
                for i, j in enumerate(order_):
                    for k in range(ell):
                        m[block[i][k]] = block[j][(k + shifts[i]) % ell]
                elements.append(m)
        factors.append(elements)
    out = []
    for combo in itertools.product(*factors):
        perm = list(range(n))
        for m in combo:
            for a, b in m.items():
                perm[a] = b
        out.append(tuple(perm))
    return out


def _canonical(sets: tuple[int, ...], rho: tuple[int, ...], pi: tuple[int, ...]) -> bytes:
    """The rows' sets up to a row permutation commuting with ``rho`` and a
    relabelling commuting with ``pi`` (nauty's certificate of the digraph
    rows → their digits, ``r → ρ(r)``, ``d → π(d)``, rows and digits told
    apart): a stack's fixed fillings move with both, so they count the same."""
    import pynauty
    n = len(sets)
    adjacency = {}
    for r in range(n):
        out = [n + d for d in range(n) if sets[r] >> d & 1]
        if rho[r] != r:
            out.append(rho[r])
        adjacency[r] = out
    for d in range(n):
        if pi[d] != d:
            adjacency[n + d] = [n + pi[d]]
    graph = pynauty.Graph(2 * n, directed=True, adjacency_dict=adjacency,
                          vertex_coloring=[set(range(n)), set(range(n, 2 * n))])
    return pynauty.certificate(graph)


class _Counter:
    """``#fixed(g, π)`` for a 2xC grid: patterns × stack fillings."""

    def __init__(self, n: int, rows: tuple[int, ...], cols: tuple[int, ...], pi: tuple[int, ...]):
        self.n, self.c = n, n // 2
        self.rho, self.kappa, self.pi = rows, cols, pi
        self.full = (1 << n) - 1
        self.swap = cols[0] >= self.c
        self.group = _centraliser(pi, GROUP_LIMIT)
        self.memo: dict[tuple, int] = {}
        self.factorizations = None              # the kernel's counter, made when first needed
        self.patterns = self.searches = 0
        c = self.c
        if self.swap:
            alpha = [cols[x] - c for x in range(c)]
            beta = [cols[c + x] for x in range(c)]
            square = tuple(rows[rows[r]] for r in range(n))
            pi2 = tuple(pi[pi[d]] for d in range(n))
            self.stacks = [(square, tuple(beta[alpha[x]] for x in range(c)), pi2, False)]
        else:
            self.stacks = [(rows, tuple(cols[:c]), pi, False),
                           (rows, tuple(x - c for x in cols[c:]), pi, True)]

    def _phi(self, mask: int) -> int:
        image = _apply(self.pi, mask)
        return self.full ^ image if self.swap else image

    def _band_cycles(self) -> list[list[int]]:
        """The bands' cycles under ρ, each as its rows from the first band's top row."""
        seen, out = set(), []
        for b in range(self.c):
            if b in seen:
                continue
            cyc, x = [], b
            while x not in seen:
                seen.add(x)
                cyc.append(x)
                x = self.rho[2 * x] // 2
            out.append([r for band in cyc for r in (2 * band, 2 * band + 1)])
        return out

    def _closing(self, rows: list[int]) -> list[int]:
        """The first sets of a band cycle that give every row of it a set
        consistent with the pattern conditions."""
        out = []
        for combo in itertools.combinations(range(self.n), self.c):
            x = sum(1 << d for d in combo)
            sets = self._propagate(rows[0], x)
            if sets is not None:
                out.append(x)
        return out

    def _propagate(self, top: int, x: int) -> dict[int, int] | None:
        sets = {top: x, top + 1: self.full ^ x}
        todo = [top, top + 1]
        while todo:
            r = todo.pop()
            image, target = self._phi(sets[r]), self.rho[r]
            if target in sets:
                if sets[target] != image:
                    return None
            else:
                sets[target] = image
                todo.append(target)
        return sets

    def fixed(self) -> int:
        cycles = self._band_cycles()
        choices = [self._closing(rows) for rows in cycles]
        if any(not x for x in choices):
            return 0
        return self._walk(cycles, choices, 0, self.group, {})

    def _walk(self, cycles, choices, i: int, group, sets: dict[int, int]) -> int:
        if i == len(cycles):
            self.patterns += 1
            pattern = tuple(sets[r] for r in range(self.n))
            out = 1
            for stack in self.stacks:
                out *= self._stack(pattern, *stack)
                if not out:
                    break
            return out
        total, seen = 0, set()
        for x in choices[i]:
            if x in seen:
                continue
            orbit = {_apply(h, x) for h in group}
            seen |= orbit
            stabiliser = [h for h in group if _apply(h, x) == x]
            more = dict(sets)
            more.update(self._propagate(cycles[i][0], x))
            total += len(orbit) * self._walk(cycles, choices, i + 1, stabiliser, more)
        return total

    def _stack(self, pattern, rho, kappa, pi, complement: bool) -> int:
        """Fillings of one stack (``N×C``, row ``r`` holding its set) fixed by
        ``(ρ, κ, π)``, by exact cover; memoized."""
        sets = tuple(self.full ^ m for m in pattern) if complement else pattern
        key = (_canonical(sets, rho, pi), rho, kappa, pi)
        if key in self.memo:
            return self.memo[key]
        n, c = self.n, self.c
        if _is_identity(rho) and _is_identity(kappa) and _is_identity(pi):
            # nothing to keep: the stack's fillings are the ordered
            # 1-factorizations of rows vs digits (C × N Latin rectangles
            # with column r holding S_r), counted by the factorization kernel
            if self.factorizations is None:
                self.factorizations = FactorizationCounter(n)
            out = count_factorizations([_digits(m) for m in sets], c, counter=self.factorizations)
            self.searches += 1
            self.memo[key] = out
            return out
        items: dict[tuple, int] = {}

        def item(*name) -> int:
            return items.setdefault(name, len(items))

        for r in range(n):
            for col in range(c):
                item("cell", r, col)
            for d in range(n):
                if sets[r] >> d & 1:
                    item("row", r, d)
        for col in range(c):
            for d in range(n):
                item("col", col, d)
        options, seen = [], set()
        for r0 in range(n):
            for c0 in range(c):
                if (r0, c0) in seen:
                    continue
                orbit, (r, col) = [], (r0, c0)
                while (r, col) not in seen:
                    seen.add((r, col))
                    orbit.append((r, col))
                    r, col = rho[r], kappa[col]
                for d in range(n):
                    if not sets[r0] >> d & 1:
                        continue
                    covered, v = [], d
                    for (r, col) in orbit:
                        if not sets[r] >> v & 1:
                            break
                        covered += [items[("cell", r, col)], items[("row", r, v)],
                                    items[("col", col, v)]]
                        v = pi[v]
                    else:
                        if v == d and len(set(covered)) == len(covered):
                            options.append(covered)
        self.searches += 1
        out = 0
        if options:
            # fill column by column, memoized where a column is done: what is
            # left is then which digits each row still needs
            priority = [c if kind == "row" else (a if kind == "col" else b)
                        for kind, a, b in items]
            out = ExactCover(options, len(items), priority=priority).count(memo=True)
        self.memo[key] = out
        return out
