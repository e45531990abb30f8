"""The prefix reduction: orbits of fillings of a set of cells, for any grid kind.

For a grid kind (:mod:`grids.kind`, variants included) choose a *prefix*
``P``, a set of cells containing at least one whole house (the first rows,
say).  Every grid restricts to a *filling* of ``P``: digits on ``P`` that
keep every rule whose cells all lie in ``P``.  Then

    grids = Σ_{fillings F of P} completions(F).

Let ``K`` be the part of the kind's group (:mod:`counting.group.kind_group`)
that maps ``P`` onto itself, with relabelling.  An element of ``K`` maps
fillings of ``P`` to fillings of ``P`` and the completions of one to those of
the other, so ``completions`` is constant on ``K``-orbits and

    grids = N! · Σ_{orbits O} |O| · completions(rep(O))

where the orbits are taken on *normal* fillings: the first house inside
``P`` (in the order rows, columns, boxes or regions, extra houses) reads
``1..N`` in cell order.  Relabelling acts freely on fillings (``P`` holds a
house), so each relabelling class has exactly one normal member (factor
``N!``), and ``g ∈ K`` acts on normal fillings by moving the cells and
relabelling back to normal.  A work unit is one orbit: its representative
is its lexicographically smallest normal filling (cells of ``P`` in
increasing order), its weight the orbit's size, its count the completions
the engine finds (memo on, one matrix per process, so the memo table carries
over from unit to unit).  Unit ids follow the representatives' order.

How the units are found
-----------------------
The normal fillings are enumerated all at once, a cell at a time
(:func:`prefix_fillings`: an array of partial fillings, each next cell's
free digits from a bit mask of its peers), and the orbits found from the
images of every filling under a few *generators* of ``K``
(:attr:`PrefixReduction.generators`, a deterministic generating set) by
min-label propagation over integer codes (:mod:`counting.group.orbits`);
only the representatives and orbit sizes are kept.  9×9 SudokuP with band
1 given: 2,612,736 normal fillings, 6 generators of the 432 elements that
keep the band, 12,542 orbits, in about 5 s of CPU and a peak of 530 MiB
(:data:`MAX_FILLINGS` allows a little over twice that many fillings).

Checks that hold by construction: Σ weight = number of normal fillings of
``P`` (unextendable fillings are units counting 0), and different prefixes
give the same total (the tests compare them on small kinds).

Choosing the prefix
-------------------
:func:`prefix_cells` reads a prefix text (:data:`PREFIX_HELP`): named parts
joined by commas, ``rows=K`` / ``cols=K`` (the first ``K`` rows / columns),
``band``, ``boxes=1,5,9``, ``diagonals``, or cells ``r1c1,r1c2,…``; the
reduction's stored name is ``"prefix-"`` plus the canonical spelling
(:func:`prefix_spelling`), so a store of one prefix is another job than a
store of another.  :func:`choose_prefix` measures the candidates
(the first 1, 2, … rows, up to the first band) with Knuth's estimator
(:mod:`dlx.estimate`) on a sample of each one's units and keeps the one with
the smallest estimated total time.  The estimator's counts are not used.

Example
-------
>>> r = PrefixReduction("2x2+x", "rows=2")
>>> r.factor, len(r.units()), sum(u.weight for u in r.units())
(24, 3, 4)
>>> r.total(r.count_all())
48
"""
from __future__ import annotations

import functools
import math
import random
import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from counting.group.kind_group import KindGroup, kind_group
from counting.group.orbits import generating_set, orbit_classes
from counting.group.symmetries import Symmetry
from counting.reduction.base import BandClass, Reduction
from counting.reduction.cost import even_work, smallest_class_first
from counting.units import UnitProblem, WorkUnit
from grids.kind import GridKind, as_kind
from grids.variants.encoding import unit_cells, variant_exact_cover
from grids.variants.implied import implied_houses
from grids.variants.kindfile import parse_cell

__all__ = ["PrefixReduction", "PrefixUnit", "prefix_cells", "prefix_fillings", "choose_prefix",
           "MAX_FILLINGS", "NAME", "PREFIX_HELP", "prefix_spelling"]

NAME = "prefix"

#: Most normal fillings (or partial ones) of a prefix enumerated; a larger prefix is
#: refused.  Measured: 2,612,736 (SudokuP's band 1) take about 5 CPU-seconds and
#: 530 MiB at the peak; scaled linearly (not measured), this many take about 12 s
#: and 1.2 GiB.
MAX_FILLINGS = 6_000_000


@dataclass(frozen=True)
class PrefixUnit(WorkUnit):
    """One orbit of fillings of the prefix.

    ``shape`` is the grid kind's canonical text (``"3x3+windoku"``: what
    every unit of a kind carries, :mod:`grids.kind`), ``reduction`` the
    reduction's stored name (``"prefix-rows=2"``), ``class_id = unit_id``,
    ``form_id = 0``, ``weight`` the orbit's size.

    Attributes
    ----------
    givens : tuple of (row, col, digit)
        The representative filling: 0-based cells, digits 1..N.
    """

    givens: tuple[tuple[int, int, int], ...] = field(default=(), repr=False)


#: The named parts of a prefix (:func:`prefix_cells`), as ``--prefix`` documents them.
PREFIX_HELP = ("a prefix is one or more parts joined by commas: 'rows=K' (the first K rows), "
               "'cols=K' (the first K columns), 'band' (the rows of band 1), 'boxes=1,5,9' "
               "(those boxes), 'diagonals' (both main diagonals), or cells 'r1c1,r1c2,...'")


def _named_cells(kind: GridKind, name: str, values: list[str], text: str) -> list[int]:
    """The cells of one named part of a prefix (``rows``, ``cols``, ``band``,
    ``boxes``, ``diagonals``); ValueError naming the part."""
    s = kind.shape
    n = s.n

    def numbers(low: int, high: int, what: str) -> list[int]:
        if not values or not all(v.isdigit() and low <= int(v) <= high for v in values):
            raise ValueError(f"bad prefix {text!r}: {name}= takes {what} from {low} to {high}")
        return [int(v) for v in values]

    if name in ("rows", "cols"):
        if len(values) != 1:
            raise ValueError(f"bad prefix {text!r}: {name}=K takes one number (the first K)")
        lines = range(numbers(1, n, "a number K")[0])
        return [r * n + c for r in lines for c in range(n)] if name == "rows" else \
            [r * n + c for c in lines for r in range(n)]
    if name == "boxes":
        if kind.regions() is not None or s.latin:
            raise ValueError(f"bad prefix {text!r}: {kind.name} has no boxes")
        return [int(c) for b in numbers(1, n, "box numbers") for c in s.box_cells[b - 1]]
    if values and name in ("band", "diagonals"):
        raise ValueError(f"bad prefix {text!r}: {name!r} takes no value")
    if name == "band":
        return list(range((3 if s.latin else s.box_rows) * n))
    if name == "diagonals":
        return [i * n + i for i in range(n)] + [i * n + n - 1 - i for i in range(n)]
    raise ValueError(f"bad prefix {text!r}: unknown part {name!r} ({PREFIX_HELP})")


def _parse_prefix(kind: GridKind, text: str) -> tuple[list[int], str]:
    """The cells of a prefix text and its canonical spelling (module docstring)."""
    n = kind.shape.n
    if not text.isascii():
        raise ValueError(f"bad prefix {text!r}: not ASCII")
    parts: list[tuple[str, list[str]]] = []
    for word in text.replace(" ", ",").split(","):
        if not word:
            continue
        name, eq, value = word.partition("=")
        if eq or not parts or word[0].isalpha():
            parts.append((name.strip().lower(), [value.strip()] if eq else []))
        else:
            parts[-1][1].append(word.strip())
    cells, spelled, loose = [], [], []
    for name, values in parts:
        if re.fullmatch(r"r\d+c\d+", name):
            if values:   # r1c1=5: a prefix names cells; their digits are what is enumerated
                raise ValueError(f"bad prefix {text!r}: the cell {name} takes no value (a prefix "
                                 f"names cells; the units are their fillings)")
            r, c = parse_cell(name, f"prefix {text!r}")
            if r >= n or c >= n:
                raise ValueError(f"prefix {text!r}: {name} is off the {n}×{n} grid")
            loose.append(r * n + c)
            continue
        cells += _named_cells(kind, name, values, text)
        if name == "band":
            name, values = "rows", [str(3 if kind.shape.latin else kind.shape.box_rows)]
        spelled.append(name + ("=" + ",".join(str(v) for v in sorted({int(v) for v in values}))
                               if values else ""))
    cells += loose
    spelled += [f"r{c // n + 1}c{c % n + 1}" for c in sorted(set(loose))]
    return cells, ",".join(spelled)


def prefix_spelling(kind, prefix) -> str:
    """The canonical text of a prefix: its named parts normalised (``band`` is
    ``rows=R``), loose cells sorted; for cell indices, ``rows=K`` when they are
    the first K rows, else the cells.  :func:`prefix_cells` reads it back."""
    kind = as_kind(kind)
    n = kind.shape.n
    if isinstance(prefix, str):
        return _parse_prefix(kind, prefix.strip())[1]
    cells = prefix_cells(kind, prefix)
    if cells == tuple(range(len(cells))) and len(cells) % n == 0:
        return f"rows={len(cells) // n}"
    return ",".join(f"r{c // n + 1}c{c % n + 1}" for c in cells)


def prefix_cells(kind, prefix) -> tuple[int, ...]:
    """The prefix as sorted cell indices, from a prefix text (:data:`PREFIX_HELP`:
    ``"rows=2"``, ``"boxes=1,5,9"``, ``"diagonals"``, ``"r1c1,r1c2"``, parts
    joined by commas) or an iterable of cell indices; ValueError naming the problem."""
    kind = as_kind(kind)
    n = kind.shape.n
    if isinstance(prefix, str):
        cells = _parse_prefix(kind, prefix.strip())[0]
    else:
        cells = [int(c) for c in prefix]
        if any(not 0 <= c < n * n for c in cells):
            raise ValueError(f"prefix cells must be in 0..{n * n - 1}")
    out = tuple(sorted(set(cells)))
    if not out:
        raise ValueError(f"prefix {prefix!r} has no cells")
    return out


def _normal_house(kind: GridKind, cells: tuple[int, ...]) -> tuple[int, ...]:
    inside = set(cells)
    for house in unit_cells(kind):
        if inside.issuperset(house):
            return tuple(sorted(house))
    raise ValueError(f"the prefix must contain a whole house of {kind.name} (a row, say)")


def _peers(kind: GridKind, cells: tuple[int, ...]) -> list[list[int]]:
    """For each cell of the prefix (by position), the positions of the cells
    of the prefix it must differ from: houses, the implied houses
    (:mod:`grids.variants.implied`, as the matrix has them: a filling that
    breaks one has no completion, and as givens its rows would clash) and
    difference pairs."""
    pos = {c: i for i, c in enumerate(cells)}
    peers = [set() for _ in cells]
    for house in unit_cells(kind) + implied_houses(kind):
        members = [pos[c] for c in house if c in pos]
        for a in members:
            peers[a].update(b for b in members if b != a)
    for a, b in kind.differences():
        if a in pos and b in pos:
            peers[pos[a]].add(pos[b])
            peers[pos[b]].add(pos[a])
    return [sorted(p) for p in peers]


def prefix_fillings(kind, cells, limit: int | None = None) -> np.ndarray:
    """Every normal filling of ``cells`` (sorted), lexicographically ordered:
    an ``(m, len(cells))`` uint8 array (see the module docstring).  A filling
    keeps every rule inside ``cells``, the implied houses
    (:mod:`grids.variants.implied`) included.

    The fillings are grown a cell at a time, all at once: the partial
    fillings of the first cells are an array, and each next cell takes, in
    every row, the digits none of its peers already holds (a bit mask per
    row), in increasing order, so the rows stay sorted.  More than
    ``limit`` (:data:`MAX_FILLINGS` by default) partial or whole fillings
    raise ``ValueError``.
    """
    kind = as_kind(kind)
    n = kind.shape.n
    limit = MAX_FILLINGS if limit is None else limit
    cells = tuple(sorted(cells))
    pos = {c: i for i, c in enumerate(cells)}
    peers = _peers(kind, cells)
    grid = np.zeros((1, len(cells)), dtype=np.uint8)
    for j, c in enumerate(_normal_house(kind, cells)):
        grid[0, pos[c]] = j + 1
    for i in np.flatnonzero(grid[0]):
        if any(grid[0, p] == grid[0, i] for p in peers[i]):
            return np.zeros((0, len(cells)), dtype=np.uint8)  # the normal house breaks a rule
    digits = np.arange(1, n + 1, dtype=np.int64)
    for i in np.flatnonzero(grid[0] == 0):
        used = np.zeros(len(grid), dtype=np.int64)        # bit d: a peer holds d (bit 0: empty)
        for p in peers[i]:
            used |= np.left_shift(1, grid[:, p].astype(np.int64))
        free = (used[:, None] >> digits[None, :]) & 1 == 0
        rows, d = np.nonzero(free)                        # by row, then by digit: still sorted
        if len(rows) > limit:
            whole = "" if (grid[0] == 0).sum() == 1 else " (or partial fillings of its first cells)"
            raise ValueError(f"the prefix has over {limit:,} normal fillings{whole}: "
                             f"choose a smaller one")
        grid = grid[rows]
        grid[:, i] = d + 1
    return grid


class PrefixReduction(Reduction):
    """Orbits of normal fillings of a prefix under the kind's group (module docstring).

    Parameters
    ----------
    kind : GridKind or str
        The grid kind (``"3x3+windoku"``).
    prefix : str or iterable of int
        ``"rows=K"``, ``"r1c1 r1c2 …"`` or cell indices (:func:`prefix_cells`).
    row_order : sequence of int, optional
        The order the engine fills the rows in (:func:`variant_exact_cover`);
        counts do not depend on it, so it is not part of the name.
    """

    kind = NAME
    count_noun = "completions"
    members = "normal prefix fillings"

    def __init__(self, kind, prefix="rows=2", row_order=None):
        self.grid_kind = as_kind(kind)
        self.row_order = None if row_order is None else tuple(int(r) for r in row_order)
        self.shape = self.grid_kind.shape
        self.cells = prefix_cells(self.grid_kind, prefix)
        self.prefix_text = prefix_spelling(self.grid_kind, prefix)
        self.normal_house = _normal_house(self.grid_kind, self.cells)

    @property
    def name(self) -> str:
        """The stored name, ``"prefix-" + prefix_text``: unit ids depend on the
        prefix (a file-name part, so no colon)."""
        return f"{NAME}-{self.prefix_text}"

    @classmethod
    def from_name(cls, kind, name: str) -> "PrefixReduction":
        """The reduction a stored name (:attr:`name`) stands for."""
        head, sep, prefix = name.partition("-")
        if head != NAME or not sep:
            raise ValueError(f"not a prefix reduction name: {name!r} (expected 'prefix-rows=2')")
        return cls(kind, prefix)

    @property
    def factors(self) -> tuple[tuple[str, int], ...]:
        return (("relabel the first house of the prefix", math.factorial(self.shape.n)),)

    @cached_property
    def group(self):
        """The kind's group (:func:`counting.group.kind_group.kind_group`); when
        it is too large to search (box shapes from 10×10 on), the identity
        alone: every normal filling is then a unit of weight 1 (any subgroup
        gives classes of equal counts, a smaller one only more units)."""
        try:
            return kind_group(self.grid_kind)
        except ValueError:
            return KindGroup(self.grid_kind, (Symmetry.identity(self.shape),))

    @cached_property
    def stabiliser(self) -> np.ndarray:
        """``(|K|, N²)``: cell permutations of the elements that keep the prefix."""
        return self.group.cell_permutations[self.group.stabiliser(self.cells)]

    @property
    def fillings(self) -> np.ndarray:
        """Every normal filling of the prefix (:func:`prefix_fillings`),
        enumerated again at each call: the units keep only the orbits'
        representatives, not this array."""
        return prefix_fillings(self.grid_kind, self.cells)

    def images(self, perm: np.ndarray, fillings: np.ndarray | None = None) -> np.ndarray:
        """Every normal filling (of ``fillings``, by default all of them) moved
        by ``perm`` (a cell permutation that keeps the prefix) and relabelled
        back to normal: an array like ``fillings``, stored column by column
        (Fortran order), as it is made and read a cell at a time."""
        f = np.asfortranarray(self.fillings if fillings is None else fillings).T  # a row per cell
        n1 = self.shape.n + 1
        pos = {c: i for i, c in enumerate(self.cells)}
        source = {pos[int(perm[c])]: i for i, c in enumerate(self.cells)}  # image cell ← cell
        base = np.arange(f.shape[1], dtype=np.int64) * n1       # row i's relabelling at base[i]
        relabel = np.zeros(f.shape[1] * n1, dtype=np.uint8)
        at = np.empty_like(base)
        house = {pos[c]: j + 1 for j, c in enumerate(self.normal_house)}
        for i, j in house.items():
            relabel[np.add(base, f[source[i]], out=at)] = j
        moved = np.empty_like(f)
        for i, row in enumerate(moved):
            if i in house:                                      # normal again, by the relabelling
                row[:] = house[i]
            else:
                np.take(relabel, np.add(base, f[source[i]], out=at), out=row)
        return moved.T

    @cached_property
    def generators(self) -> np.ndarray:
        """A few rows of :attr:`stabiliser` that generate it as it acts on the
        prefix (:func:`counting.group.orbits.generating_set`)."""
        k = self.stabiliser
        cells = np.array(self.cells, dtype=np.int64)
        position = np.full(k.shape[1], -1, dtype=np.int64)
        position[cells] = np.arange(len(cells))
        return k[generating_set(position[k[:, cells]])] if len(k) else k

    @cached_property
    def orbit_table(self) -> tuple[np.ndarray, tuple[int, ...], int]:
        """``(representatives, sizes, fillings)``: the orbits of the normal
        fillings under :attr:`generators` (:func:`counting.group.orbits.orbit_classes`),
        each represented by its first (lexicographically smallest) filling, a
        row of the ``(orbits, len(cells))`` array, in that order; the orbit
        sizes; the number of normal fillings."""
        f = np.asfortranarray(self.fillings)
        if not len(f):
            return f, (), 0
        first, size, closed = orbit_classes(f, (self.images(g, f) for g in self.generators))
        if not closed.all():
            raise RuntimeError(f"a symmetry of {self.grid_kind.name} maps a filling of the prefix "
                               f"outside its fillings")
        return np.ascontiguousarray(f[first]), tuple(int(w) for w in size), len(f)

    def classes(self) -> list[BandClass]:
        reps, sizes, _ = self.orbit_table
        return [BandClass(k, (tuple(int(v) for v in rep),), size)
                for k, (rep, size) in enumerate(zip(reps, sizes))]

    def units(self) -> list[PrefixUnit]:
        n = self.shape.n
        out = []
        reps, sizes, _ = self.orbit_table
        for k, (rep, size) in enumerate(zip(reps, sizes)):
            givens = tuple((c // n, c % n, int(d)) for c, d in zip(self.cells, rep))
            out.append(PrefixUnit(self.grid_kind.name, self.name, k, k, 0, size, givens))
        return out

    def problem(self, spec: PrefixUnit) -> UnitProblem:
        """The kind's matrix (rows filled in :attr:`row_order`, memo points at
        row ends, no tail: the kind's rules may reach into the last band) and
        the unit's prefix filling as given rows."""
        if (spec.shape, spec.reduction) != (self.grid_kind.name, self.name):
            raise ValueError(f"a unit of {spec.shape} by {spec.reduction}, not of "
                             f"{self.grid_kind.name} by {self.name}")
        n = self.shape.n
        key = ("variant", self.grid_kind.name, tuple(self.row_order or ()))
        return UnitProblem(key, functools.partial(variant_exact_cover, self.grid_kind, "rows",
                                                  row_order=self.row_order),
                           tuple((r * n + c) * n + d - 1 for r, c, d in spec.givens))

    def hand_out(self, specs) -> list:
        return smallest_class_first(specs)

    def work_shares(self, specs) -> dict[int, float]:
        return even_work(specs)

    def count(self, spec: PrefixUnit, memo_mb: float = 64) -> int:
        """The completions of one unit on a matrix of its own (small kinds,
        tests; a run counts units with :func:`counting.run.counter.count_unit`)."""
        problem = self.problem(spec)
        return problem.build().count(given=list(problem.given), memo=True, memo_mb=memo_mb)

    def count_all(self) -> dict[int, int]:
        """Every unit's count, in this process, on one matrix (small kinds, tests)."""
        units = self.units()
        if not units:
            return {}
        ec = self.problem(units[0]).build()
        return {u.unit_id: ec.count(given=list(self.problem(u).given), memo=True) for u in units}

    def class_label(self, class_id: int) -> str:
        return f"orbit {class_id + 1} of prefix fillings"


def choose_prefix(kind, candidates=None, *, sample: int = 8, probes: int = 30, seed: int = 0,
                  max_seconds: float = 20.0) -> tuple[str, list[dict]]:
    """The candidate prefix with the smallest estimated counting time.

    Candidates default to ``"rows=K"`` for ``K`` = 1 up to the band height
    (``R``; 3 for Latin shapes), skipping those with too many fillings.
    For each, up to ``sample`` units drawn with ``seed`` are estimated with
    :func:`dlx.estimate.estimate` (``probes`` paths, at most ``max_seconds``
    each); the estimated time is the sample mean times the number of units.
    Returns the chosen prefix and one record per candidate (``prefix``,
    ``units``, ``fillings``, ``seconds``, or ``error``).
    """
    from dlx.estimate import estimate
    kind = as_kind(kind)
    if candidates is None:
        top = 3 if kind.shape.latin else kind.shape.box_rows
        candidates = [f"rows={k}" for k in range(1, min(top, kind.shape.n) + 1)]
    table = []
    for prefix in candidates:
        try:
            red = PrefixReduction(kind, prefix)
            units = red.units()
        except ValueError as e:
            table.append({"prefix": prefix, "error": str(e)})
            continue
        picked = random.Random(seed).sample(units, min(sample, len(units)))
        ec = variant_exact_cover(kind, "rows")
        n = kind.shape.n
        secs = []
        for u in picked:
            given = [(r * n + c) * n + d - 1 for r, c, d in u.givens]
            secs.append(estimate(ec, given=given, probes=probes, seed=seed,
                                 max_seconds=max_seconds).seconds)
        table.append({"prefix": prefix, "units": len(units), "fillings": red.orbit_table[2],
                      "seconds": float(np.mean(secs)) * len(units) if secs else 0.0})
    good = [t for t in table if "seconds" in t]
    if not good:
        raise ValueError(f"no usable prefix for {kind.name}: {table[-1]['error']}")
    return min(good, key=lambda t: t["seconds"])["prefix"], table
