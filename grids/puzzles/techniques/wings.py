"""Wings: XY-Wing and XYZ-Wing.

XY-Wing: a pivot with candidates {x,y} sees a pincer {x,z} and a pincer
{y,z}.  Whichever of x, y the pivot takes, one pincer is z, so z is removed
from every cell that sees both pincers.

XYZ-Wing: a pivot {x,y,z} sees pincers {x,z} and {y,z}.  One of the three
holds z, so z is removed from every cell that sees all three.
"""
from __future__ import annotations

from grids.puzzles.geometry import Deduction, Geometry, digits_of, popcount

__all__ = ["XY_WING", "XYZ_WING", "xy_wing", "xyz_wing"]

#: The rules' names.
XY_WING, XYZ_WING = "XY-Wing", "XYZ-Wing"


def _wing(g: Geometry, cand: list[int], pivot_size: int) -> Deduction | None:
    rule = XY_WING if pivot_size == 2 else XYZ_WING
    bivalue = [k for k in range(g.nn) if popcount(cand[k]) == 2]
    for pivot in range(g.nn):
        pm = cand[pivot]
        if popcount(pm) != pivot_size:
            continue
        sees = g.peer_set[pivot]
        if pivot_size == 2:
            # pincers share one digit with the pivot and bring a third
            wings = [k for k in bivalue if k in sees and popcount(cand[k] & pm) == 1]
        else:
            # pincers are two of the pivot's three digits
            wings = [k for k in bivalue if k in sees and cand[k] & pm == cand[k]]
        for i, p1 in enumerate(wings):
            for p2 in wings[i + 1:]:
                m1, m2 = cand[p1], cand[p2]
                z = m1 & m2
                if popcount(z) != 1 or (m1 | m2) & pm != pm or z & pm != (
                        z if pivot_size == 3 else 0):
                    continue
                if pivot_size == 2 and (m1 | m2) != pm | z:
                    continue
                d = z.bit_length()
                need = [p1, p2] + ([pivot] if pivot_size == 3 else [])
                elims = tuple((k, d) for k in g.peers[p1]
                              if cand[k] & z and k not in need
                              and all(k in g.peer_set[c] for c in need[1:]))
                if elims:
                    why = (f"{rule}: pivot {g.name(pivot)} {{{_set(g, pm)}}}, pincers "
                           f"{g.name(p1)} {{{_set(g, m1)}}} and {g.name(p2)} {{{_set(g, m2)}}}: "
                           f"one of them is {g.sym(d)}")
                    return Deduction(rule, elims, why)
    return None


def _set(g: Geometry, mask: int) -> str:
    return ",".join(g.sym(d) for d in digits_of(mask))


def xy_wing(g: Geometry, cand: list[int]) -> Deduction | None:
    """The first XY-Wing that removes a candidate, or ``None``."""
    return _wing(g, cand, 2)


def xyz_wing(g: Geometry, cand: list[int]) -> Deduction | None:
    """The first XYZ-Wing that removes a candidate, or ``None``."""
    return _wing(g, cand, 3)
