"""Canonical forms of band states under the coordinate group ``C₂ ≀ S_C``.

A *state* of a band of ``C`` stacks (two columns each, ``2C`` digits) after
``L`` rows is the multiset of the digits' *occurrence masks*: bit
``2s + b`` of a digit's mask is set when the digit stands in column ``b``
of stack ``s``.  A digit stands at most once in a stack, so a mask has at
most one bit in each pair; after ``L`` rows every mask has ``L`` bits.
Relabelling the digits is already forgotten (a multiset); the *coordinate
group* ``G = C₂ ≀ S_C`` permutes the stacks and swaps the two columns of
any stack (order ``2^C·C!``).  An element ``g = (p, φ)`` sends bit
``2s + b`` to ``2·p[s] + (b ⊕ φ_s)``.

The canonical form
------------------
The form of ``v`` is the smallest of its images ``g·v`` (each sorted, then
compared as sequences) over the *admissible* elements ``A(v) ⊆ G``: those
that put the stacks in increasing order of an invariant signature and each
stack's two columns in increasing order of an invariant colour.  The colours
are computed by colour refinement on the digits and columns (a digit starts
with its mask's multiplicity in ``v``, a column with nothing; each round
hashes in the multiset of the other side's colours, and a column its stack
partner's); they are *equivariant* (the colour of column ``g(j)`` in
``g·v`` is that of ``j`` in ``v``), which is all that exactness needs:
``A(g·v) = A(v)·g⁻¹``, so ``g·v`` and ``v`` have the same set of admissible
images and the same form.  Hash collisions only admit more elements (slower,
never wrong).  The elements of ``A(v)`` giving the form are
``g₀·Stab(v)``, so their number is the stabiliser's order, returned with the
form.  With ``prune=False`` every element is admissible: the definition,
which the tests compare against.

Example
-------
>>> import numpy as np
>>> forms, stab = canonical_states(np.array([[1, 2, 4, 8], [2, 1, 8, 4]]), 2)
>>> forms.tolist()
[[1, 2, 4, 8], [1, 2, 4, 8]]
>>> stab.tolist()   # the start state is fixed by the whole group (order 8)
[8, 8]
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["CoordinateGroup", "coordinate_group", "canonical_states", "act", "stabiliser",
           "MAX_C"]

MAX_C = 7            # 2C digits of 2C bits: masks in 14 bits, forms in int64 words
_BATCH_PAIRS = 1 << 20   # (state, element) pairs imaged at once: bounds the memory


@dataclass(frozen=True)
class CoordinateGroup:
    """``C₂ ≀ S_C`` as arrays.

    Attributes
    ----------
    C : int
    perms : ndarray, ``(C!, C)``
        Stack permutations ``p`` (stack ``s`` goes to ``p[s]``).
    inverse : ndarray, ``(C!, C)``
        Their inverses.
    flips : ndarray, ``(2^C, C)``
        Flip vectors ``φ`` (0/1 per stack).
    image : ndarray, ``(C!, 2^C, C, 4)``
        ``image[p, φ, s, v]``: the bits that the two bits ``v`` of stack
        ``s`` become.
    """

    C: int
    perms: np.ndarray
    inverse: np.ndarray
    flips: np.ndarray
    image: np.ndarray

    @property
    def order(self) -> int:
        return len(self.perms) * len(self.flips)


@lru_cache(maxsize=None)
def coordinate_group(C: int) -> CoordinateGroup:
    """The coordinate group of ``C`` stacks (cached)."""
    if isinstance(C, bool) or not isinstance(C, int) or not 1 <= C <= MAX_C:
        raise ValueError(f"stacks must be an integer in 1..{MAX_C}, got {C!r}")
    perms = np.array(list(itertools.permutations(range(C))), dtype=np.int64).reshape(-1, C)
    inverse = np.argsort(perms, axis=1)
    flips = (np.arange(1 << C)[:, None] >> np.arange(C)) & 1
    v = np.arange(4)
    image = np.zeros((len(perms), len(flips), C, 4), dtype=np.int64)
    for s in range(C):
        for b in (0, 1):
            bit = (v >> b) & 1                                     # (4,)
            col = b ^ flips[:, s]                                  # (2^C,)
            image[:, :, s, :] |= bit[None, None, :] << (2 * perms[:, s, None, None]
                                                        + col[None, :, None])
    return CoordinateGroup(C, perms, inverse, flips, image)


@lru_cache(maxsize=None)
def _mask_table(C: int) -> np.ndarray | None:
    """``table[p, φ, mask]``: every mask's image under every element, where
    it is small (``C <= 5``: 3,840 × 1,024 int16); None above."""
    if C > 5:
        return None
    grp = coordinate_group(C)
    masks = np.arange(1 << (2 * C))
    table = np.zeros((len(grp.perms), len(grp.flips), masks.size), dtype=np.int16)
    for s in range(C):
        table |= grp.image[:, :, s, (masks >> (2 * s)) & 3].astype(np.int16)
    return table


def act(states: np.ndarray, C: int, perm: np.ndarray, flip: np.ndarray) -> np.ndarray:
    """The images ``g·v`` (sorted) of states ``(K, 2C)`` under elements given
    by indices ``perm``, ``flip`` ``(K,)`` into :func:`coordinate_group`."""
    states = np.asarray(states, dtype=np.int64)
    table = _mask_table(C)
    if table is not None:
        out = table[perm[:, None], flip[:, None], states].astype(np.int64)
    else:
        grp = coordinate_group(C)
        out = np.zeros_like(states)
        for s in range(C):
            out |= grp.image[perm[:, None], flip[:, None], s, (states >> (2 * s)) & 3]
    return np.sort(out, axis=1)


_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    """A bijective 64-bit mixer (splitmix64's finaliser), elementwise."""
    x = x.astype(np.uint64, copy=False)
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def _colours(states: np.ndarray, C: int, rounds: int = 2) -> np.ndarray:
    """Equivariant column colours ``(B, 2C)`` uint64 by colour refinement.

    The band's graph is regular, so plain refinement on it splits nothing;
    it runs instead on the columns with the pair counts ``co[j, j']`` (the
    digits standing in both; a stack's partner column marked apart), started
    from the digits' colours (their masks' multiplicities and the columns
    they share with each other digit)."""
    n = 2 * C
    inc = ((states[:, :, None] >> np.arange(n)) & 1).astype(np.int64)      # (B, digit, column)
    same = (states[:, :, None] == states[:, None, :]).sum(axis=2)
    co = np.einsum("bdj,bdk->bjk", inc, inc)                              # (B, column, column)
    co[:, np.arange(n), np.arange(n) ^ 1] = n + 1                         # the stack partner
    co[:, np.arange(n), np.arange(n)] = n + 2
    # a digit's colour: its multiplicity and how many columns it shares with
    # each other digit (a column and its partner have complementary digits, so
    # their pair counts alone tie them in a complete band)
    shared = np.einsum("bdj,bej->bde", inc, inc)                            # (B, digit, digit)
    digit = _mix(same.astype(np.uint64) + np.uint64(1)) ^ \
        _mix(shared.astype(np.uint64) + np.uint64(3)).sum(axis=2, dtype=np.uint64)
    col = np.einsum("bdj,bd->bj", inc.astype(np.uint64), _mix(digit), dtype=np.uint64)
    pair = _mix(co.astype(np.uint64) + np.uint64(7))
    for _ in range(rounds):
        col = _mix(col ^ _mix(pair + col[:, None, :]).sum(axis=2, dtype=np.uint64))
    return col


def _admissible(states: np.ndarray, C: int, prune: bool, limit: int | None = None
                ) -> tuple[np.ndarray, ...] | None:
    """``(state, perm, flip)`` index triples of the admissible elements; None
    when there are more than ``limit`` of them and more than one state."""
    grp = coordinate_group(C)
    B = len(states)
    if not prune:
        b, p, f = np.meshgrid(np.arange(B), np.arange(len(grp.perms)),
                              np.arange(len(grp.flips)), indexing="ij")
        return b.ravel(), p.ravel(), f.ravel()
    col = _colours(states, C).reshape(B, C, 2)
    lo, hi = col.min(axis=2), col.max(axis=2)
    sig = _mix(lo) ^ hi                                                # (B, C) stack signatures
    # without ties one element is admissible: stack s goes to the rank of its
    # signature, and its columns are swapped when they come in falling order
    ordered = np.sort(sig, axis=1)
    plain = np.all(ordered[:, 1:] != ordered[:, :-1], axis=1) & np.all(lo != hi, axis=1)
    rank = np.argsort(np.argsort(sig[plain], axis=1), axis=1)
    perm = _perm_index(C)[(rank * C ** np.arange(C)).sum(axis=1)]
    flip = ((col[plain, :, 0] > col[plain, :, 1]) << np.arange(C)).sum(axis=1)
    # with ties, every element whose images keep the signatures and colours in order
    tied = np.nonzero(~plain)[0]
    ranked = sig[tied][:, grp.inverse]         # (tied, C!, C): position t holds stack inverse[t]
    ok_perm = np.all(ranked[:, :, 1:] >= ranked[:, :, :-1], axis=2)
    side = col[tied]
    ok_side = np.stack([side[:, :, 0] <= side[:, :, 1], side[:, :, 1] <= side[:, :, 0]], axis=2)
    ok_flip = np.all(ok_side[:, np.arange(C)[None, :], grp.flips], axis=2)  # (tied, 2^C)
    pb, tp = np.nonzero(ok_perm)               # the product of the two lists, state by state
    fb, tf = np.nonzero(ok_flip)
    n_flips = np.bincount(fb, minlength=len(tied))
    first_flip = np.cumsum(n_flips) - n_flips
    reps = n_flips[pb]
    if limit is not None and B > 1 and len(perm) + int(reps.sum()) > limit:
        return None
    t = np.repeat(pb, reps)
    tp = np.repeat(tp, reps)
    within = np.arange(len(t)) - np.repeat(np.cumsum(reps) - reps, reps)
    tf = tf[first_flip[t] + within]
    return (np.concatenate([np.nonzero(plain)[0], tied[t]]), np.concatenate([perm, tp]),
            np.concatenate([flip, tf]))


@lru_cache(maxsize=None)
def _perm_index(C: int) -> np.ndarray:
    """Position in :func:`coordinate_group`'s ``perms`` of the permutation
    ``p``, indexed by ``Σ p[s]·C^s``."""
    perms = coordinate_group(C).perms
    index = np.full(C ** C, -1, dtype=np.int64)
    index[(perms * C ** np.arange(C)).sum(axis=1)] = np.arange(len(perms))
    return index


def _pack(forms: np.ndarray, C: int) -> list[np.ndarray]:
    """Sorted forms as int64 words, compared word by word (``2C`` bits a mask)."""
    per = 62 // (2 * C)
    words = []
    for a in range(0, forms.shape[1], per):
        w = np.zeros(len(forms), dtype=np.int64)
        for c in range(a, min(a + per, forms.shape[1])):
            w = (w << (2 * C)) | forms[:, c]
        words.append(w)
    return words


def canonical_states(states, C: int, prune: bool = True,
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Canonical forms and stabiliser orders of a batch of states.

    Parameters
    ----------
    states : array-like, ``(B, 2C)``
        Occurrence masks (each with at most one bit per stack).
    C : int
        Stacks.
    prune : bool
        Admit only the elements ordering the invariant colours (default);
        False tries the whole group (the definition, for tests).

    Returns
    -------
    forms : ndarray ``(B, 2C)`` int64
        Each state's form: its smallest admissible image, sorted.
    stabiliser : ndarray ``(B,)`` int64
        The order of each state's stabiliser in the group.
    """
    states = np.asarray(states, dtype=np.int64)
    B = len(states)
    if B == 0:
        return states.reshape(0, 2 * C).copy(), np.zeros(0, dtype=np.int64)
    forms = np.empty_like(states)
    stab = np.empty(B, dtype=np.int64)
    order = coordinate_group(C).order
    step = max(1, _BATCH_PAIRS // (order if not prune else 64))
    todo = [(a, min(a + step, B)) for a in range(0, B, step)][::-1]
    while todo:
        lo, hi = todo.pop()
        part = states[lo:hi]
        pairs = _admissible(part, C, prune, limit=_BATCH_PAIRS)
        if pairs is None:                                 # too many: halve the part
            mid = (lo + hi) // 2
            todo += [(mid, hi), (lo, mid)]
            continue
        b, p, f = pairs
        images = act(part[b], C, p, f)
        words = _pack(images, C)
        by = np.lexsort(tuple(reversed(words)) + (b,))
        first = np.ones(len(by), dtype=bool)
        first[1:] = b[by][1:] != b[by][:-1]
        best = by[first]                                  # the smallest image of each state
        same = np.ones(len(b), dtype=bool)
        for w in words:
            same &= w == w[best][b]
        forms[lo:hi] = images[best]
        stab[lo:hi] = np.bincount(b[same], minlength=len(part))
    return forms, stab


def stabiliser(state, C: int) -> tuple[np.ndarray, np.ndarray]:
    """The elements fixing a *canonical* state (one of :func:`canonical_states`'
    forms), as ``(perm, flip)`` index arrays: its form is itself, so the
    identity is admissible and the admissible elements fixing it are all of
    its stabiliser."""
    state = np.sort(np.asarray(state, dtype=np.int64))[None, :]
    _, p, f = _admissible(state, C, True)
    images = act(np.repeat(state, len(p), axis=0), C, p, f)
    keep = np.all(images == state, axis=1)
    return p[keep], f[keep]
