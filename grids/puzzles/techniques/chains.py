"""Chains: X-chain (one digit), XY-chain (cells of two candidates) and the
alternating inference chain (AIC) that mixes both kinds of link.

A chain alternates two kinds of link between candidates (a candidate is a
digit in a cell):

* a *strong* link ``A = B``: at least one of A, B is true (the digit's only
  two places in a unit, or the only two digits of a cell);
* a *weak* link ``A - B``: not both are true (one digit in two cells that
  see each other, or two digits of one cell).

Starting from a candidate assumed false and following strong, weak, strong
... links, every candidate reached by a strong link is true under that
assumption; so the first and the last candidate of a chain that ends with a
strong link are not both false.  When both are the same digit in two cells,
every cell that sees both loses that digit; in an AIC, two digits of one
cell leave that cell with only those two, and two different digits in two
cells that see each other remove each from the other cell.

The search is breadth-first from each candidate in turn (cell order, then
digit), so the chain shown is a shortest one from its start, at most
:data:`MAX_LINKS` links long.  Chains are written in Eureka notation:
``(4)r1c1 = (4)r1c5 - (4)r6c5 = (4)r6c2``.
"""
from __future__ import annotations

from typing import Callable, Iterable

from grids.puzzles.geometry import Deduction, Geometry, digits_of, popcount
from grids.puzzles.techniques.colouring import conjugates_by_digit

__all__ = ["MAX_LINKS", "X_CHAIN", "XY_CHAIN", "AIC", "x_chain", "xy_chain", "aic"]

#: The rules' names.
X_CHAIN, XY_CHAIN, AIC = "X-chain", "XY-chain", "AIC"

#: Longest chain searched (links).
MAX_LINKS = 15

Node = tuple[int, int]      # (cell, digit)


def _search(g: Geometry, rule: str, starts: Iterable[Node],
            strong: Callable[[Node], Iterable[Node]], weak: Callable[[Node], Iterable[Node]],
            conclude: Callable[[Node, Node], tuple]) -> Deduction | None:
    for s in starts:
        parent: dict[tuple[Node, bool], tuple[Node, bool] | None] = {(s, False): None}
        frontier = [(s, False)]
        for _ in range(MAX_LINKS):
            if not frontier:
                break
            nxt = []
            for state in frontier:
                u, on = state
                for v in (weak(u) if on else strong(u)):
                    st = (v, not on)
                    if st in parent:
                        continue
                    parent[st] = state
                    nxt.append(st)
                    if on:
                        continue
                    elims = conclude(s, v)
                    if elims:
                        return Deduction(rule, elims, _describe(g, rule, parent, st, elims))
            frontier = nxt
    return None


def _describe(g: Geometry, rule: str, parent: dict, end: tuple[Node, bool], elims) -> str:
    path = []
    st = end
    while st is not None:
        path.append(st)
        st = parent[st]
    path.reverse()
    text = f"({g.sym(path[0][0][1])}){g.name(path[0][0][0])}"
    for (node, on) in path[1:]:
        text += f" {'=' if on else '-'} ({g.sym(node[1])}){g.name(node[0])}"
    (a, x), (b, y) = path[0][0], path[-1][0]
    return (f"{rule} ({len(path) - 1} links): {text}, so {g.name(a)}={g.sym(x)} or "
            f"{g.name(b)}={g.sym(y)}")


def _ends_see(g: Geometry, cand: list[int]) -> Callable[[Node, Node], tuple]:
    """Same digit at both ends, in two cells: off every cell that sees both."""
    def conclude(s: Node, v: Node) -> tuple:
        (a, x), (b, y) = s, v
        if x != y or a == b:
            return ()
        bit = 1 << (x - 1)
        return tuple((k, x) for k in g.peers[a]
                     if k != b and cand[k] & bit and k in g.peer_set[b])
    return conclude


def x_chain(g: Geometry, cand: list[int]) -> Deduction | None:
    """The first X-chain (one digit, strong links are conjugate pairs) that
    removes a candidate, or ``None``."""
    conj = conjugates_by_digit(g, cand)

    def strong(u: Node):
        return ((k, u[1]) for k in conj[u[1]].get(u[0], ()))

    def weak(u: Node):
        bit = 1 << (u[1] - 1)
        return ((k, u[1]) for k in g.peers[u[0]] if cand[k] & bit)

    for d in range(1, g.n + 1):
        starts = [(k, d) for k in sorted(conj[d])]
        found = _search(g, X_CHAIN, starts, strong, weak, _ends_see(g, cand))
        if found:
            return found
    return None


def xy_chain(g: Geometry, cand: list[int]) -> Deduction | None:
    """The first XY-chain (cells of two candidates, each linked to the next by a
    shared digit) that removes a candidate, or ``None``."""
    bivalue = [k for k in range(g.nn) if popcount(cand[k]) == 2]
    biset = set(bivalue)

    def strong(u: Node):
        k, d = u
        return ((k, e) for e in digits_of(cand[k] & ~(1 << (d - 1))))

    def weak(u: Node):
        k, d = u
        bit = 1 << (d - 1)
        return ((p, d) for p in g.peers[k] if p in biset and cand[p] & bit)

    starts = [(k, d) for k in bivalue for d in digits_of(cand[k])]
    return _search(g, XY_CHAIN, starts, strong, weak, _ends_see(g, cand))


def aic(g: Geometry, cand: list[int]) -> Deduction | None:
    """The first alternating inference chain (links within cells and within
    units mixed) that removes a candidate, or ``None``."""
    conj = conjugates_by_digit(g, cand)

    def strong(u: Node):
        k, d = u
        out = [(p, d) for p in conj[d].get(k, ())]
        rest = cand[k] & ~(1 << (d - 1))
        if popcount(rest) == 1:
            out.append((k, rest.bit_length()))
        return out

    def weak(u: Node):
        k, d = u
        bit = 1 << (d - 1)
        out = [(p, d) for p in g.peers[k] if cand[p] & bit]
        out += [(k, e) for e in digits_of(cand[k] & ~bit)]
        return out

    same_digit = _ends_see(g, cand)

    def conclude(s: Node, v: Node) -> tuple:
        (a, x), (b, y) = s, v
        if x == y:
            return same_digit(s, v)
        if a == b:       # the cell is x or y
            return tuple((a, e) for e in digits_of(cand[a] & ~(1 << (x - 1)) & ~(1 << (y - 1))))
        if b not in g.peer_set[a]:
            return ()
        # a=x or b=y, a and b see each other: a=y would make both false
        return tuple(e for e in ((a, y), (b, x)) if cand[e[0]] & (1 << (e[1] - 1)))

    starts = [(k, d) for k in range(g.nn) for d in digits_of(cand[k])]
    return _search(g, AIC, starts, strong, weak, conclude)
