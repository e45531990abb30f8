"""Band classes by stabiliser chains: the enumeration that reaches ``R = 4``.

:mod:`bandtables.tables` classifies every rest ``(v_1 .. v_{R-1})`` of a
band whose box 0 is the standard code — ``U^(R-1)`` of them, too many for
``R = 4`` (1.9·10¹¹).  Here only orbits are listed, one box at a time:

1. ``G0`` = the relabellings fixing code 0 (``(R!)³·3!``; 82,944 for R = 4),
   with its action on all ``U`` codes as a table ``act0 (|G0|, U)``, built
   by composing the rows of the three block-internal symmetric groups and
   the block permutations (gathers, not one relabelling per element);
2. the ``G0``-orbits on box 1's code (representative ``w1``, a transversal
   element per code), then for each ``w1`` the orbits of its stabiliser
   ``S1`` on box 2's code (``w2``, transversal), then for each ``(w1, w2)``
   the orbits of ``S2 = S1 ∩ Stab(w2)`` on box 3's code (``w3``);
3. the triples ``(w1, w2, w3)`` are the orbits of ``G0`` on ordered rests
   (``R = 4``), each of size ``|G0·w1|·|S1·w2|·|S2·w3|``; a class is a
   union of them, joined by the ``R!`` orders of the four boxes (the box
   moved to the front is relabelled to code 0 by ``π``, then the rest is
   brought to its orbit representative by the chain of step 2).

Only ``R = 3`` (a check against :mod:`bandtables.tables`) and ``R = 4`` are
built; ``act0`` for ``R = 4`` is 958 MiB.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from bandtables.partitions import act_table, normalisers

__all__ = ["StabiliserChain", "stabiliser_chain", "ChainClasses", "chain_classes"]


def _block_group_rows(R: int) -> np.ndarray:
    """``act0`` of the relabellings fixing code 0, ``(|G0|, U)`` uint16.

    An element is ``β ∘ (p_0, p_1, p_2)``: permutations ``p_k`` inside block
    ``k`` (they commute), then a permutation ``β`` of the blocks keeping
    each block's internal order.  Its row is the composition of rows.
    """
    N = 3 * R
    ident = np.arange(N)
    inside = []
    for k in range(3):
        perms = []
        for p in itertools.permutations(range(R)):
            g = ident.copy()
            g[k * R:(k + 1) * R] = k * R + np.array(p)
            perms.append(g)
        inside.append(act_table(np.array(perms), R).astype(np.int64))
    blocks = []
    for beta in itertools.permutations(range(3)):
        g = np.concatenate([beta[k] * R + np.arange(R) for k in range(3)])
        blocks.append(g)
    B = act_table(np.array(blocks), R)
    r = math.factorial(R)
    inner = np.empty((r ** 3, B.shape[1]), dtype=np.uint16)
    i = 0
    for a0, a1, a2 in itertools.product(inside[0], inside[1], inside[2]):
        inner[i] = a0[a1[a2]]                  # apply p_2, then p_1, then p_0
        i += 1
    out = np.empty((len(B) * len(inner), B.shape[1]), dtype=np.uint16)
    for j, b in enumerate(B):
        out[j * len(inner):(j + 1) * len(inner)] = b[inner]
    return out


@dataclass
class StabiliserChain:
    """Orbit representatives and transversals along ``G0 ⊃ S1 ⊃ S2``.

    Attributes
    ----------
    act0 : ndarray (|G0|, U) uint16
        The action of ``G0``.
    rep1, trans1 : ndarray (U,)
        ``G0``-orbit representative of each code, and an element index
        ``g`` with ``act0[g, v] = rep1[v]``.
    w1 : ndarray
        The representatives (sorted); ``index1[w]`` their positions.
    rep2, trans2 : ndarray (len(w1), U)
        The same for ``S1 = Stab(w1)``, row by representative ``w1``.
    pair_index : ndarray (len(w1), U) int32
        Number of the pair ``(w1, w2)`` when ``w2`` is an ``S1``
        representative, else -1.
    rep3 : ndarray (n_pairs, U) uint16
        ``S2``-orbit representative of box 3's code, by pair.
    orbit1, orbit2 : ndarray
        Orbit sizes: ``orbit1[v]`` of ``v``'s ``G0``-orbit; ``orbit2[i, v]``
        of its ``S1``-orbit.
    orbit3 : ndarray (n_pairs, U) int64
        Size of the ``S2``-orbit of each code.
    """

    act0: np.ndarray
    rep1: np.ndarray
    trans1: np.ndarray
    w1: np.ndarray
    index1: np.ndarray
    rep2: np.ndarray
    trans2: np.ndarray
    pair_index: np.ndarray
    pair_w: np.ndarray
    rep3: np.ndarray
    orbit1: np.ndarray
    orbit2: np.ndarray
    orbit3: np.ndarray

    def canonical(self, v1, v2, v3=None) -> np.ndarray:
        """Key of the ``G0``-orbit of each ordered rest: ``pair`` for a rest
        of two boxes, ``pair · U + w3`` for three."""
        U = self.act0.shape[1]
        g1 = self.trans1[v1]
        w1 = self.rep1[v1]
        i1 = self.index1[w1]
        v2 = self.act0[g1, v2]
        p = self.pair_index[i1, self.rep2[i1, v2]].astype(np.int64)
        if v3 is None:
            return p
        v3 = self.act0[self.trans2[i1, v2], self.act0[g1, v3]]
        return p * U + self.rep3[p, v3]


def _orbits(rows: np.ndarray, elements: np.ndarray | None = None):
    """Column minima (representatives), an element reaching each, orbit sizes."""
    rep = rows.min(axis=0)
    arg = rows.argmin(axis=0)
    trans = arg if elements is None else elements[arg]
    size = np.bincount(rep, minlength=rows.shape[1])[rep]
    return rep, trans, size


def stabiliser_chain(R: int) -> StabiliserChain:
    """Build the chain for ``R`` (3 or 4; minutes and ~2 GiB for 4)."""
    if R not in (3, 4):
        raise ValueError(f"stabiliser chains are built for R = 3 and 4, got {R!r}")
    act0 = _block_group_rows(R)
    U = act0.shape[1]
    rep1, trans1, orbit1 = _orbits(act0)
    w1 = np.unique(rep1)
    index1 = np.full(U, -1, dtype=np.int64)
    index1[w1] = np.arange(len(w1))
    rep2 = np.empty((len(w1), U), dtype=np.uint16)
    trans2 = np.empty((len(w1), U), dtype=np.int64)
    orbit2 = np.empty((len(w1), U), dtype=np.int64)
    pair_index = np.full((len(w1), U), -1, dtype=np.int32)
    pair_w, rep3, orbit3 = [], [], []
    for i, w in enumerate(w1.tolist()):
        S1 = np.flatnonzero(act0[:, w] == w)
        rows1 = act0 if len(S1) == len(act0) else act0[S1]
        rep2[i], trans2[i], orbit2[i] = _orbits(rows1, S1)
        for w2 in np.unique(rep2[i]).tolist():
            S2 = S1[rows1[:, w2] == w2]
            r3, _, o3 = _orbits(act0 if len(S2) == len(act0) else act0[S2])
            pair_index[i, w2] = len(pair_w)
            pair_w.append((w, w2))
            rep3.append(r3)
            orbit3.append(o3)
    return StabiliserChain(act0, rep1, trans1, w1, index1, rep2, trans2, pair_index,
                           np.array(pair_w), np.array(rep3, dtype=np.uint16),
                           orbit1, orbit2, np.array(orbit3, dtype=np.int64))


@dataclass(frozen=True)
class ChainClasses:
    """Band classes of ``R`` found through the chain.

    Attributes
    ----------
    reps : tuple of tuple of int
        ``(0, w1, w2, w3)`` (unordered codes) per class, classes ordered by
        their smallest orbit key.
    sizes : tuple of int
        Ordered patterns per class.
    nodes : ndarray of int64
        Sorted keys (:meth:`StabiliserChain.canonical`) of every
        ``G0``-orbit of ordered rests.
    node_class : ndarray of int64
        The class of each of them.
    """

    R: int
    reps: tuple
    sizes: tuple
    nodes: np.ndarray
    node_class: np.ndarray


def chain_classes(R: int, chain: StabiliserChain | None = None) -> ChainClasses:
    """The band classes of ``R = 3`` or ``4`` through the chain."""
    chain = stabiliser_chain(R) if chain is None else chain
    U = chain.act0.shape[1]
    _, act = normalisers(R)
    # every G0-orbit of ordered rests with its size: pairs (R = 3) or (pair, w3)
    w, w2 = chain.pair_w[:, 0], chain.pair_w[:, 1]
    pair_sizes = chain.orbit1[w] * chain.orbit2[chain.index1[w], w2]
    if R == 3:
        nodes = np.arange(len(w), dtype=np.int64)
        sizes = pair_sizes
        boxes = [np.zeros_like(nodes), w.astype(np.int64), w2.astype(np.int64)]
    else:
        nodes, sizes = [], []
        for p in range(len(w)):
            w3s = np.unique(chain.rep3[p])
            nodes.append(p * U + w3s.astype(np.int64))
            sizes.append(pair_sizes[p] * chain.orbit3[p, w3s])
        nodes, sizes = np.concatenate(nodes), np.concatenate(sizes)
        p = nodes // U
        boxes = [np.zeros_like(nodes), w[p].astype(np.int64), w2[p].astype(np.int64),
                 (nodes % U).astype(np.int64)]
    assert int(sizes.sum()) == U ** (R - 1)
    # union-find over node positions, joined by every order of the R boxes
    parent = np.arange(len(nodes))
    for order in list(itertools.permutations(range(R)))[1:]:
        b = [boxes[j] for j in order]
        key = chain.canonical(*[act[b[0], b[j]] for j in range(1, R)])
        other = np.searchsorted(nodes, key)
        assert np.all(nodes[other] == key)
        _union(parent, np.arange(len(nodes)), other)
    roots = _find_all(parent)
    labels, inverse = np.unique(roots, return_inverse=True)
    per_rest = U * 6 ** R
    totals = [0] * len(labels)
    for i, s in zip(inverse.tolist(), sizes.tolist()):
        totals[i] += int(s)
    reps = tuple((0,) + tuple(int(boxes[j][k]) for j in range(1, R)) for k in labels.tolist())
    return ChainClasses(R, reps, tuple(per_rest * t for t in totals), nodes, inverse)


def _find_all(parent: np.ndarray) -> np.ndarray:
    while True:
        grand = parent[parent]
        if np.array_equal(grand, parent):
            return parent
        parent[:] = grand


def _union(parent: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """Join the sets of ``a[i]`` and ``b[i]`` for every ``i`` (min-root linking, repeated)."""
    while True:
        ra, rb = _find_all(parent)[a], parent[b]
        differ = ra != rb
        if not differ.any():
            return
        lo, hi = np.minimum(ra[differ], rb[differ]), np.maximum(ra[differ], rb[differ])
        np.minimum.at(parent, hi, lo)
