"""A kind's full symmetry group, computed from its exact cover with nauty.

Today's group (:mod:`.kind_group`) is the part of the box shape's geometric
group G that keeps a kind's rules, times relabelling.  The kind's real
symmetry can be larger: a Latin square's rows, columns and digits exchange
roles (paratopy), SudokuP exchanges rows with boxes, Windoku exchanges its
windows with the houses they imply.  One definition finds them all, with
nothing typed per kind:

*The automorphisms of the option–item incidence graph of the kind's exact
cover.*  The graph (:func:`cover_graph`) has one vertex per option (place
digit ``d`` in cell ``k``; option ``k·N + d``), one per item, and an edge
where an option covers an item.  The items are those of
:func:`grids.variants.encoding.variant_columns` *with the implied houses*
(they are part of the rules: every grid fills them once).  Options, primary
items and secondary items (difference pairs, covered at most once) are three
colours, so no automorphism turns an "exactly once" into an "at most once".
Items covering the same options (a house named twice) are one vertex: they
say one thing.  An automorphism maps the solutions of the cover (the grids)
onto the solutions, so it is a symmetry of the kind; relabelling, the
geometric group and transposition are among them.

The group acts faithfully on the options (an automorphism fixing every
option fixes every item, items being determined by their options), so its
order is the number of distinct permutations of the options it makes.

The exact order
---------------
nauty's ``grpsize`` is a floating-point number (exact only below ``2**53``,
and the 9×9 group is about ``10**17.6``).  The order here is the product of
orbit lengths down a stabiliser chain (the orbit–stabiliser theorem):
``|A| = |v₁^A| · |A_{v₁}|``, ``A_{v₁}`` being the automorphisms of the graph
with option ``v₁`` given a colour of its own; nauty's orbits are exact (a
partition of the vertices), so each factor is an exact integer, and the chain
ends when nauty finds no generator (the trivial group).  nauty's own
``grpsize`` is checked against the product to 9 significant digits.

What it adds
------------
The items have *types*: cells, rows (row has digit), columns, boxes or
regions, each constraint's extra houses, implied houses, difference pairs.
Today's group maps cells to cells, rows to rows or (transposing) to
columns, and every other type to itself.  :attr:`CoverGroup.joined` lists
the pairs of types some automorphism maps onto each other (two types are
joined when one orbit of items holds both); :func:`compare` sets them
beside today's group's.

Example
-------
>>> g = cover_group("1x3")                  # Latin squares of order 3
>>> g.order == 6 * 6 ** 3                   # paratopy: 3! · (3!)³
True
>>> g.joined[:2]
(('cells', 'rows'), ('cells', 'columns'))
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from counting.group.generators import generating_subset
from counting.group.kind_group import kind_group
from counting.group.symmetries import Symmetry, group_order
from grids.kind import GridKind, as_kind
from grids.variants.encoding import variant_columns
from grids.variants.implied import implied_houses

__all__ = ["CoverGraph", "CoverGroup", "Comparison", "cover_graph", "cover_group", "compare",
           "nauty_missing", "INSTALL_HINT"]

INSTALL_HINT = "pip install 'gridcount[nauty]' (in a source tree: pip install -e '.[nauty]')"
#: Relative agreement asked of nauty's floating-point group size.
GRPSIZE_TOLERANCE = 1e-9
#: What exchanging two of a Latin square's three coordinate types means.
GLOSSES = {
    ("cells", "rows"): "columns and digits exchange roles",
    ("cells", "columns"): "rows and digits exchange roles",
    ("rows", "columns"): "rows and columns exchange roles",
}


def nauty_missing() -> str | None:
    """None when pynauty imports, else the one line saying how to install it."""
    try:
        import pynauty  # noqa: F401
    except ImportError:
        return f"the full symmetry group needs pynauty: {INSTALL_HINT}"
    return None


@dataclass(frozen=True)
class CoverGraph:
    """The option–item incidence graph of a kind's exact cover.

    Attributes
    ----------
    n_options : int
        ``N³``: vertices ``0..N³-1`` are the options, option ``k·N + d``
        placing digit ``d`` (0-based) in cell ``k``.
    items : tuple of frozenset
        Vertex ``n_options + j`` is item ``j``: the options covering it.
    primary : tuple of bool
        Per item: covered exactly once (True) or at most once (False).
    types : tuple of tuple of str
        Per item: its types (more than one when equal items were merged).
    """

    n_options: int
    items: tuple
    primary: tuple
    types: tuple

    @property
    def n_vertices(self) -> int:
        return self.n_options + len(self.items)

    def adjacency(self) -> dict[int, list[int]]:
        """Option vertex -> the item vertices it covers."""
        adj: dict[int, list[int]] = {o: [] for o in range(self.n_options)}
        for j, options in enumerate(self.items):
            for o in options:
                adj[o].append(self.n_options + j)
        return adj

    def colouring(self) -> list[set[int]]:
        """Options, primary items, secondary items (the non-empty ones)."""
        base = self.n_options
        parts = [set(range(base)),
                 {base + j for j, p in enumerate(self.primary) if p},
                 {base + j for j, p in enumerate(self.primary) if not p}]
        return [p for p in parts if p]


def item_types(kind: GridKind, implied: bool = True) -> list[str]:
    """The type of every column of :func:`variant_columns`, in its order."""
    s = kind.shape
    n, nn = s.n, s.n * s.n
    types = ["cells"] * nn + ["rows"] * nn + ["columns"] * nn
    if kind.regions() is not None:
        types += ["regions"] * nn
    elif not s.latin:
        types += ["boxes"] * nn
    for c in kind.constraints:
        label = getattr(c, "label", c.name)
        types += [f"houses of +{label}"] * (len(c.houses(s)) * n)
    if implied:
        types += ["implied houses"] * (len(implied_houses(kind)) * n)
    types += ["difference pairs"] * (len(kind.differences()) * n)
    return types


def cover_graph(kind, implied: bool = True) -> CoverGraph:
    """The incidence graph of ``kind``'s exact cover (see the module docstring).

    ``implied=False`` leaves out the implied houses: a different (smaller)
    rule set, kept for the tests.
    """
    kind = as_kind(kind)
    rows, n_primary, n_secondary = variant_columns(kind, implied)
    types = item_types(kind, implied)
    if len(types) != n_primary + n_secondary:
        raise ArithmeticError(f"{kind.name}: {len(types)} item types for "
                              f"{n_primary + n_secondary} columns")
    covers: list[list[int]] = [[] for _ in range(n_primary + n_secondary)]
    for option, cols in enumerate(rows):
        for col in cols:
            covers[col].append(option)
    index: dict[tuple, int] = {}
    items, primary, merged = [], [], []
    for col, options in enumerate(covers):
        key = (col < n_primary, frozenset(options))
        if key not in index:
            index[key] = len(items)
            items.append(key[1])
            primary.append(key[0])
            merged.append([])
        if types[col] not in merged[index[key]]:
            merged[index[key]].append(types[col])
    return CoverGraph(len(rows), tuple(items), tuple(primary), tuple(tuple(t) for t in merged))


@dataclass(frozen=True)
class CoverGroup:
    """The automorphism group of a kind's exact cover.

    Attributes
    ----------
    kind : GridKind
    order : int
        Exact: the number of permutations of the options it makes.
    generators : tuple of tuple of int
        nauty's generators, as permutations of the options.
    joined : tuple of (str, str)
        Pairs of item types some automorphism maps onto each other, in the
        order of the types.
    """

    kind: GridKind
    order: int
    generators: tuple
    joined: tuple

    def cells_and_digits(self, i: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Generator ``i`` as ``(cell permutation, digit permutation)`` when
        it moves cells and relabels digits (option ``(k, d)`` to ``(p[k],
        q[d])``), else None (it mixes cells with digits)."""
        n = self.kind.shape.n
        perm = self.generators[i]
        cells, digits = {}, {}
        for option, image in enumerate(perm):
            (k, d), (k2, d2) = divmod(option, n), divmod(image, n)
            if cells.setdefault(k, k2) != k2 or digits.setdefault(d, d2) != d2:
                return None
        return tuple(cells[k] for k in range(n * n)), tuple(digits[d] for d in range(n))


def _automorphisms(graph: CoverGraph, colouring: list[set[int]]):
    import pynauty
    g = pynauty.Graph(graph.n_vertices, adjacency_dict=graph.adjacency(),
                      vertex_coloring=colouring)
    return pynauty.autgrp(g)


@lru_cache(maxsize=64)
def cover_group(kind, implied: bool = True) -> CoverGroup:
    """The automorphism group of ``kind``'s exact cover (needs pynauty;
    ImportError without it, :func:`nauty_missing` says how to install it)."""
    kind = as_kind(kind)
    graph = cover_graph(kind, implied)
    colouring = graph.colouring()
    generators, mantissa, exponent, orbits, _ = _automorphisms(graph, colouring)
    joined = _joined(graph, orbits)
    order = 1
    found = generators
    while found:
        size: dict[int, int] = {}
        for v in range(graph.n_options):
            size[orbits[v]] = size.get(orbits[v], 0) + 1
        moved = next((v for v in range(graph.n_options) if size[orbits[v]] > 1), None)
        if moved is None:
            raise ArithmeticError(f"{kind.name}: an automorphism fixes every option "
                                  f"but moves an item")
        order *= size[orbits[moved]]
        colouring = [part - {moved} for part in colouring] + [{moved}]
        colouring = [part for part in colouring if part]
        found, _, _, orbits, _ = _automorphisms(graph, colouring)
    approx = mantissa * 10.0 ** exponent
    if abs(order - approx) > GRPSIZE_TOLERANCE * approx:
        raise ArithmeticError(f"{kind.name}: the stabiliser chain gives order {order:,}, "
                              f"nauty {mantissa}e{exponent}")
    option_perms = tuple(tuple(int(v) for v in p[:graph.n_options]) for p in generators)
    return CoverGroup(kind, order, option_perms, joined)


def _type_order(graph: CoverGraph) -> list[str]:
    out: list[str] = []
    for types in graph.types:
        out += [t for t in types if t not in out]
    return out


def _pairs_of(graph: CoverGraph, blocks) -> tuple:
    """The pairs of types that share a block of item indices (in type order)."""
    order = _type_order(graph)
    pairs = set()
    for block in blocks:
        present = sorted({t for j in block for t in graph.types[j]}, key=order.index)
        pairs.update((a, b) for i, a in enumerate(present) for b in present[i + 1:])
    return tuple(sorted(pairs, key=lambda p: (order.index(p[0]), order.index(p[1]))))


def _joined(graph: CoverGraph, orbits) -> tuple:
    """Type pairs joined by nauty's orbits of the item vertices."""
    blocks: dict[int, list[int]] = {}
    for j in range(len(graph.items)):
        blocks.setdefault(orbits[graph.n_options + j], []).append(j)
    return _pairs_of(graph, blocks.values())


def _today(kind: GridKind) -> tuple[int, list[Symmetry]]:
    """``(|H|, elements)``: the order of today's geometric part ``H`` and
    elements of it that, with relabelling (which keeps every item's type),
    join the same types as the whole of it: for a plain kind (``H`` is all of
    G, 3.4 M elements for 9×9) only transposition moves a type; otherwise
    elements generating ``H`` (:mod:`.generators`; ``H`` searched once:
    seconds for some kinds)."""
    s = kind.shape
    if kind.plain:
        ident = tuple(range(s.n))
        return group_order(s), [Symmetry(ident, ident, True)] if s.box_rows == s.box_cols else []
    h = kind_group(kind)
    return h.geometric_order, [h.elements[i] for i in generating_subset(h.cell_permutations)]


def today_joined(kind, elements=None, implied: bool = True) -> tuple:
    """Type pairs today's group (geometric part × relabelling) joins;
    ``elements`` are those of :func:`_today` (found when None).

    ArithmeticError if one of them is not an automorphism of the cover (it
    would then not be a subgroup of the full group)."""
    kind = as_kind(kind)
    if elements is None:
        elements = _today(kind)[1]
    graph = cover_graph(kind, implied)
    n = kind.shape.n
    where = {items: j for j, items in enumerate(graph.items)}
    parent = list(range(len(graph.items)))

    def root(j: int) -> int:
        while parent[j] != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        return j

    for g in elements:
        p = [int(v) for v in g.cell_permutation()]
        for j, items in enumerate(graph.items):
            image = frozenset(p[o // n] * n + o % n for o in items)
            if image not in where:
                raise ArithmeticError(f"{kind.name}: {g.describe()} is in today's group "
                                      f"but does not keep the exact cover")
            parent[root(j)] = root(where[image])
    blocks: dict[int, list[int]] = {}
    for j in range(len(graph.items)):
        blocks.setdefault(root(j), []).append(j)
    return _pairs_of(graph, blocks.values())


@dataclass(frozen=True)
class Comparison:
    """The full group beside today's (geometric part × relabelling).

    ``today_order`` and ``new_pairs`` are None when today's group is too
    large to search (``unknown`` says why)."""

    kind: GridKind
    full_order: int
    today_order: int | None
    new_pairs: tuple | None
    unknown: str | None = None

    @property
    def index(self) -> int | None:
        """``[full : today]`` (None when today's group is unknown);
        ArithmeticError if today's order does not divide the full one."""
        if self.today_order is None:
            return None
        if self.full_order % self.today_order:
            raise ArithmeticError(f"{self.kind.name}: today's group order {self.today_order:,} "
                                  f"does not divide the full order {self.full_order:,}")
        return self.full_order // self.today_order

    def describe(self) -> list[str]:
        """What the full group adds, one plain sentence per pair of types."""
        if self.new_pairs is None:
            return [f"what it adds is not known: {self.unknown}"]
        lines = []
        for a, b in self.new_pairs:
            gloss = GLOSSES.get((a, b))
            lines.append(f"it also maps {a} onto {b}" + (f" ({gloss})" if gloss else ""))
        if not lines and self.index > 1:
            lines.append("it maps every type of house onto itself, as today's group does, "
                         "but in more ways")
        return lines


def compare(kind, today: tuple[int, list[Symmetry]] | None = None) -> Comparison:
    """The full group of ``kind``'s cover beside today's group (needs pynauty).

    ``today`` is ``(|H|, elements generating H)`` when the caller knows them
    (a symmetry job's conjugacy class representatives generate ``H``: the
    subgroup they generate meets every class, so its conjugates cover
    ``H``, and no proper subgroup's do), else ``H`` is searched
    (:func:`.kind_group.kind_group`: seconds for some 9×9 kinds)."""
    kind = as_kind(kind)
    full = cover_group(kind)
    try:
        geometric, elements = today if today is not None else _today(kind)
    except ValueError as e:        # today's group is too large to search
        return Comparison(kind, full.order, None, None, str(e))
    # as permutations of the options: faithful, but on the 1×1 grid, whose
    # one option transposition fixes too
    today = geometric * math.factorial(kind.shape.n) if kind.shape.n > 1 else 1
    before = set(today_joined(kind, elements))
    return Comparison(kind, full.order, today, tuple(p for p in full.joined if p not in before))
