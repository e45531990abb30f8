"""Digit codes of two-stack patterns and the hyperoctahedral group on them.

A pattern of a shape with two stacks of ``R`` columns (``2xR``: row ``2b``
of the left stack holds an ``R``-set of the ``2R`` digits, row ``2b + 1``
its complement; transposed, the column sets of band 1 of ``Rx2``,
:mod:`counting.reduction.patterns2`) is a map from digits to *codes*:
bit ``b`` of a digit's code is 1 when it lies in the second row (column)
of band (stack) ``b``.  It is *balanced*: every bit is 1 in exactly ``R``
codes.  Relabelling digits leaves the multiset of codes; permuting bands
and swapping the two rows of a band act on codes as the hyperoctahedral
group ``B_R`` (permute bits, complement bits; order ``2^R·R!``).

This module is the one home of those codes: the ``B_R``-orbits of balanced
multisets (:func:`balanced_orbits`, with their stabilisers), their
canonical form (:func:`canonical_codes`), a pattern from codes
(:func:`pattern_from_codes`) and the elements of ``B_R`` as tables on codes
with their signed cycle types (:func:`signed_permutations`: two elements
are conjugate exactly when these agree).

Example
-------
>>> len(balanced_orbits(3)), pattern_from_codes((0, 0, 0, 7, 7, 7), 3)[:2]
(4, ((1, 2, 3), (4, 5, 6)))
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["balanced_orbits", "canonical_codes", "pattern_from_codes", "SignedPermutation",
           "signed_element", "signed_permutations"]


@lru_cache(maxsize=None)
def _cube(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(order, rank, weight, perms)`` of the k-cube: codes in (weight,
    code) order, each code's position in it, its weight, and the image of
    every code under every permutation of the bits, ``(k!, 2^k)``."""
    codes = np.arange(1 << k)
    weight = np.array([bin(v).count("1") for v in codes], dtype=np.int64)
    order = np.lexsort((codes, weight))
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    bits = (codes[:, None] >> np.arange(k)) & 1
    perms = np.array([(bits[:, list(p)] << np.arange(k)).sum(1)
                      for p in itertools.permutations(range(k))], dtype=np.int64)
    return order, rank, weight, perms


def canonical_codes(multisets: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical forms of a batch of multisets of k-bit codes, ``(B, n)``.

    Returns the forms (codes sorted in (weight, code) order, ``(B, n)``) and
    the order of each multiset's stabiliser in ``B_k``.  The form is the
    smallest image (in the order of :func:`_cube`) under the group.  A
    group element maps some ``u ∈ M`` to 0, i.e. is a translate by ``u``
    followed by a bit permutation, and permutations keep weights: so only
    translates with the smallest sorted weights are tried, each under every
    permutation.  Keys: 6 bits per rank, ``n <= 12`` ranks in two int64.
    """
    order, rank, weight, perms = _cube(k)
    x = np.sort(multisets, axis=1)
    b, n = x.shape
    trans = x[:, :, None] ^ x[:, None, :]                  # (B, u, n)
    wkey = (np.sort(weight[trans], axis=-1) << (3 * np.arange(n - 1, -1, -1))).sum(-1)
    wkey[:, 1:][x[:, 1:] == x[:, :-1]] = np.iinfo(np.int64).max  # each u once
    child, u = np.nonzero(wkey == wkey.min(axis=1, keepdims=True))
    images = np.sort(rank[perms][:, trans[child, u]], axis=-1)   # (k!, K, n)
    h = n // 2
    key1 = (images[..., :h] << (6 * np.arange(h - 1, -1, -1))).sum(-1).ravel()
    key2 = (images[..., h:] << (6 * np.arange(n - h - 1, -1, -1))).sum(-1).ravel()
    owner = np.broadcast_to(child, images.shape[:2]).ravel()
    by = np.lexsort((key2, key1, owner))
    first = np.ones(by.size, dtype=bool)
    first[1:] = owner[by][1:] != owner[by][:-1]
    best = by[first]                                       # the minimum of each multiset
    same = (key1 == key1[best][owner]) & (key2 == key2[best][owner])
    stabiliser = np.bincount(owner[same], minlength=b)
    return order[images.reshape(-1, n)[best]], stabiliser


def _children(parent: tuple[int, ...], R: int, k: int) -> np.ndarray:
    """The ways to set bit ``k`` in exactly ``R`` codes of a multiset, up to
    complementing bit ``k`` (it sets ``m - c`` of ``m`` equal codes where
    ``c`` was set): those setting at most half of the first code's copies."""
    values, mult = np.unique(parent, return_counts=True)
    choices = np.array(list(itertools.product(*[range(m + 1) for m in mult])), dtype=np.int64)
    choices = choices[(choices.sum(axis=1) == R) & (2 * choices[:, 0] <= mult[0])]
    out = np.empty((len(choices), len(parent)), dtype=np.int64)
    for j, ones in enumerate(choices):
        out[j] = np.repeat(np.concatenate([values, values | (1 << k)]),
                           np.concatenate([mult - ones, ones]))
    return out


@lru_cache(maxsize=None)
def balanced_orbits(R: int) -> dict[tuple[int, ...], int]:
    """Canonical balanced multisets of ``2R`` R-bit codes -> stabiliser order."""
    level = {(0,) * R + (1,) * R: 0}          # one bit: the only balanced multiset
    for k in range(1, R + 1):
        if k > 1:
            kids = np.concatenate([_children(q, R, k - 1) for q in sorted(level)])
        else:
            kids = np.array(list(level), dtype=np.int64)
        level = {}
        for j in range(0, len(kids), 256):     # batches bound the memory
            forms, stab = canonical_codes(kids[j:j + 256], k)
            level.update(zip(map(tuple, forms.tolist()), stab.tolist()))
    return level


def pattern_from_codes(codes, R: int) -> tuple[tuple[int, ...], ...]:
    """Column sets of the pattern whose digit ``i + 1`` has code ``codes[i]``."""
    return tuple(tuple(i + 1 for i, v in enumerate(codes) if (v >> s) & 1 == b)
                 for s in range(R) for b in (0, 1))


@dataclass(frozen=True)
class SignedPermutation:
    """One element of ``B_R`` acting on ``R``-bit codes.

    Attributes
    ----------
    table : tuple of int
        ``table[x]`` is the image of code ``x``: bit ``b`` of ``x`` goes to
        bit ``perm[b]``, complemented where ``flips`` has bit ``b``.
    signed_type : tuple of (int, int)
        Its cycles on the bits as (length, parity of the complements along
        the cycle), sorted: the conjugacy class in ``B_R``.
    """

    table: tuple[int, ...]
    signed_type: tuple[tuple[int, int], ...]


def _signed(perm: tuple[int, ...], flips: int) -> SignedPermutation:
    R = len(perm)
    table = tuple(sum(((x >> b & 1) ^ (flips >> b & 1)) << perm[b] for b in range(R))
                  for x in range(1 << R))
    seen, kinds = set(), []
    for b in range(R):
        length, parity, x = 0, 0, b
        while x not in seen:
            seen.add(x)
            parity ^= flips >> x & 1
            length += 1
            x = perm[x]
        if length:
            kinds.append((length, parity))
    return SignedPermutation(table, tuple(sorted(kinds)))


def signed_element(perm, flips: int) -> SignedPermutation:
    """The element of ``B_R`` moving bit ``b`` to ``perm[b]`` and
    complementing the bits set in ``flips`` (before they move)."""
    return _signed(tuple(int(p) for p in perm), int(flips))


@lru_cache(maxsize=None)
def signed_permutations(R: int) -> tuple[SignedPermutation, ...]:
    """Every element of ``B_R`` (``2^R·R!`` of them), cached."""
    return tuple(_signed(perm, flips) for perm in itertools.permutations(range(R))
                 for flips in range(1 << R))
