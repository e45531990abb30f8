"""Simple colouring (single-digit chains of conjugate pairs).

For one digit, two cells are a *conjugate pair* when they are the digit's
only two places in some row, column or box: exactly one of them holds it.
Colour each connected group of such pairs in two colours, alternating along
every pair: one colour holds the digit everywhere, the other nowhere.

* colour wrap: two cells of one colour see each other, so that colour is
  the false one: the digit is removed from every cell of that colour;
* colour trap: a cell outside the group that sees both colours cannot hold
  the digit (one of the cells it sees does).

A group whose colouring does not close (an odd cycle of pairs, possible
only inside a guess that is already wrong) is left alone.
"""
from __future__ import annotations

from grids.puzzles.geometry import Deduction, Geometry

__all__ = ["SIMPLE_COLOURING", "conjugate_pairs", "conjugates_by_digit", "simple_colouring"]

#: The rule's name.
SIMPLE_COLOURING = "simple colouring"


def conjugate_pairs(g: Geometry, cand: list[int], d: int) -> dict[int, list[int]]:
    """Each cell's conjugate partners for digit ``d`` (cells in a unit where
    ``d`` has exactly two places)."""
    bit = 1 << (d - 1)
    links: dict[int, list[int]] = {}
    for unit in g.units:
        where = [k for k in unit if cand[k] & bit]
        if len(where) == 2:
            a, b = where
            if b not in links.setdefault(a, []):
                links[a].append(b)
                links.setdefault(b, []).append(a)
    return links


def conjugates_by_digit(g: Geometry, cand: list[int]) -> dict[int, dict[int, list[int]]]:
    """:func:`conjugate_pairs` of every digit, by digit."""
    return {d: conjugate_pairs(g, cand, d) for d in range(1, g.n + 1)}


def _colour(links: dict[int, list[int]], start: int) -> dict[int, int] | None:
    colour = {start: 0}
    todo = [start]
    while todo:
        a = todo.pop()
        for b in links[a]:
            if b not in colour:
                colour[b] = 1 - colour[a]
                todo.append(b)
            elif colour[b] == colour[a]:
                return None
    return colour


def simple_colouring(g: Geometry, cand: list[int]) -> Deduction | None:
    """The first colour wrap or colour trap that removes a candidate, or ``None``."""
    for d in range(1, g.n + 1):
        bit = 1 << (d - 1)
        links = conjugate_pairs(g, cand, d)
        seen: set[int] = set()
        for start in sorted(links):
            if start in seen:
                continue
            colour = _colour(links, start)
            if colour is None:
                seen.add(start)
                continue
            seen |= colour.keys()
            if len(colour) < 3:
                continue
            groups = [sorted(k for k, c in colour.items() if c == side) for side in (0, 1)]
            names = [",".join(g.name(k) for k in cells) for cells in groups]
            for side, cells in enumerate(groups):
                clash = next(((a, b) for i, a in enumerate(cells) for b in cells[i + 1:]
                              if b in g.peer_set[a]), None)
                if clash:
                    why = (f"simple colouring on {g.sym(d)}: colour wrap, {g.name(clash[0])} "
                           f"and {g.name(clash[1])} share a colour and see each other, so "
                           f"none of {names[side]} is {g.sym(d)} (the other colour: "
                           f"{names[1 - side]})")
                    return Deduction(SIMPLE_COLOURING, tuple((k, d) for k in cells), why)
            elims = tuple((k, d) for k in range(g.nn)
                          if cand[k] & bit and k not in colour
                          and any(c in g.peer_set[k] for c in groups[0])
                          and any(c in g.peer_set[k] for c in groups[1]))
            if elims:
                why = (f"simple colouring on {g.sym(d)}: colour trap, either every one of "
                       f"{names[0]} or every one of {names[1]} is {g.sym(d)}")
                return Deduction(SIMPLE_COLOURING, elims, why)
    return None
