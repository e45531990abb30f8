"""Permutations by cycle type: the one home of partitions, cycle types and
class sizes, shared by the Latin-square reductions
(:mod:`counting.reduction.cycles`) and the symmetry group
(:mod:`counting.group.symmetries`).

A permutation of ``0..n-1`` is given in one-line notation (``perm[i]`` is
the image of ``i``); a cycle type is a partition of ``n``, its parts (cycle
lengths) non-increasing.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

__all__ = ["partitions", "cycle_type", "centraliser_order", "class_size",
           "type_representative"]


@cache
def partitions(n: int, largest: int | None = None) -> tuple[tuple[int, ...], ...]:
    """Partitions of ``n`` (parts at most ``largest``) as non-increasing
    tuples, in reverse-lexicographic order (``(n,)`` first).

    Example
    -------
    >>> partitions(3)
    ((3,), (2, 1), (1, 1, 1))
    """
    if largest is None:
        largest = n
    if n == 0:
        return ((),)
    out = []
    for first in range(min(n, largest), 0, -1):
        out += [(first,) + rest for rest in partitions(n - first, first)]
    return tuple(out)


def cycle_type(perm: Sequence[int]) -> tuple[int, ...]:
    """Cycle lengths of a permutation of ``0..n-1``, largest first.

    Raises ``ValueError`` when ``perm`` is not a permutation of ``0..n-1``.

    Examples
    --------
    >>> cycle_type([1, 0, 3, 4, 2])
    (3, 2)
    >>> cycle_type([1, 0, 2])
    (2, 1)
    """
    p = [int(x) for x in perm]
    if sorted(p) != list(range(len(p))):
        raise ValueError(f"not a permutation of 0..{len(p) - 1}: {tuple(p)}")
    seen = [False] * len(p)
    lengths = []
    for start in range(len(p)):
        k, x = 0, start
        while not seen[x]:
            seen[x] = True
            x = p[x]
            k += 1
        if k:
            lengths.append(k)
    return tuple(sorted(lengths, reverse=True))


def centraliser_order(ctype: Iterable[int]) -> int:
    """``z = Π_k k^m_k · m_k!`` (``m_k`` cycles of length ``k``): the order
    of the centraliser in ``S_n`` of a permutation of type ``ctype``.

    Example
    -------
    >>> centraliser_order((2, 2)), centraliser_order((3, 1, 1))
    (8, 6)
    """
    parts = [int(k) for k in ctype]
    if any(k < 1 for k in parts):
        raise ValueError(f"cycle lengths must be >= 1, got {tuple(parts)}")
    return math.prod(k ** m * math.factorial(m) for k, m in Counter(parts).items())


def class_size(ctype: Iterable[int]) -> int:
    """Number of permutations of cycle type ``ctype``: ``n! / z``
    (:func:`centraliser_order`), ``n`` the sum of the parts.

    Examples
    --------
    >>> class_size((3, 2)), class_size((2, 2))
    (20, 3)
    """
    parts = [int(k) for k in ctype]
    z = centraliser_order(parts)   # checks the parts first
    return math.factorial(sum(parts)) // z


def type_representative(ctype: Iterable[int], offset: int = 0) -> tuple[int, ...]:
    """A permutation of ``offset..offset+n-1`` (as images) of type ``ctype``:
    cycles on consecutive symbols in the order of the parts, each
    ``x -> x + 1`` wrapping round.

    Examples
    --------
    >>> type_representative((3, 2))
    (1, 2, 0, 4, 3)
    >>> type_representative((1, 2), offset=3)
    (3, 5, 4)
    """
    out: list[int] = []
    start = offset
    parts = tuple(ctype)
    for k in (int(x) for x in parts):
        if k < 1:
            raise ValueError(f"cycle lengths must be >= 1, got {parts}")
        out += [start + (i + 1) % k for i in range(k)]
        start += k
    return tuple(out)
