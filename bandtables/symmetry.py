"""Band 1's symmetries: one slice per orbit of a stack's band-2 choices.

A unit's sum ``Σ_{P2} l(P2)·l(P3)`` (:mod:`bandtables.api`,
:func:`bandtables.tables4.completions4`) runs over one band-2 choice per
stack, ``K^R`` of them; its slices are the sums with stack 1's choice
fixed.  When band 1 has symmetries, many slices are equal, and only one of
each class of equal slices needs counting.

The identity (proof)
--------------------
Write ``u_s`` for the unordered code of band 1's box ``s`` and a choice of
stack ``s`` as the pair ``(β, γ)`` of unordered codes it gives bands 2 and
3 there (:func:`bandtables.partitions.compatible_pairs`).  Let ``h`` be a
relabelling of the digits with ``h(u_0) = u_0`` and ``{h(u_1), …,
h(u_{R-1})} = {u_1, …, u_{R-1}}`` as multisets, say ``h(u_s) =
u_{π(s)}`` with ``π`` a permutation of ``1 .. R-1``.

1. ``h`` maps the choices of stack ``s`` onto those of stack ``π(s)``
   (stack 0 onto itself): a choice is an ordered band-2 code ``o`` with
   ``o[d] ≠ col[d]`` for every digit, band 3 taking the third column;
   relabelling ``o`` and ``col`` together keeps both conditions, and
   reordering the columns of a stack (to turn ``h(col)`` into band 1's
   own ordered code there) maps choices to choices without changing their
   unordered codes.  So ``(β, γ) ↦ (h β, h γ)`` is a bijection of the
   choice pairs of stack 0, and of stack ``s`` onto stack ``π(s)``.
2. ``l`` of a band is unchanged by relabelling its digits and by permuting
   its boxes (it counts bands with those column sets; both moves map such
   bands one to one).  So a whole choice ``(x_0, …, x_{R-1})`` and its image
   (stack ``π(s)`` taking the image of ``x_s``) have the same term
   ``l(band 2)·l(band 3)``.
3. Summing over all choices with stack 0's fixed at ``(β, γ)``:
   ``slice(β, γ) = slice(h β, h γ)``.  Exchanging bands 2 and 3 (every
   term is symmetric in them) gives ``slice(β, γ) = slice(γ, β)``.

Hence for any set of such ``h`` (a subgroup's generators suffice, and even
a set that generates less than the whole stabiliser only makes the orbits
finer, never wrong), with ``O`` the orbits of stack 0's ``K`` choices
under those ``h`` and the exchange,

    Σ_{P2} l(P2)·l(P3) = Σ_{x_0} slice(x_0) = Σ_O |O| · slice(rep O).

*Level 2.*  The same argument with ``x_0`` fixed: the elements above (or
``h`` composed with the exchange) that fix stack 0's choice ``x_0`` and
stack 1's code ``u_1`` map the terms with ``(x_0, x_1)`` one to one onto
those with ``(x_0, g x_1)`` (stacks 2 .. R-1 among themselves), so
``slice(x_0) = Σ_{O'} |O'| · Σ_{x_2..} term(x_0, rep O', x_2, ..)`` over the
orbits ``O'`` of stack 1's choices under that stabiliser
(:func:`orbit_plan`; the kernels take ``K1``, the stack-1 choices to sum).

Any stack may play stack 0 (the sum is the same for any order of the
stacks, by 2.), and any relabelling of band 1 may be applied first (it
maps the unit's terms one to one, by 1. and 2.): :func:`first_stack_orbits`
relabels the band so that the chosen stack's box has the standard code,
whose stabiliser (``(R!)³·3!`` relabellings, :func:`standard_stabiliser_perms`)
contains every ``h`` above, and keeps the stack with the fewest orbits.

What it saves on 4×3 (the 46 % of classes with no symmetry fixing a stack
save nothing): see ``results/bench_patterns3.md``.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from bandtables.partitions import code_index, compatible_pairs, unordered_codes

__all__ = ["standard_stabiliser_perms", "stack_symmetries", "choice_orbits",
           "first_stack_orbits", "orbit_plan", "orbit_completions", "MAX_GENERATORS"]

#: At most this many of a stack's symmetries are used as generators of its
#: orbits (evenly spaced through the list; fewer generators can only make
#: the orbits finer, never the sum wrong).
MAX_GENERATORS = 64


@lru_cache(maxsize=None)
def standard_stabiliser_perms(R: int) -> np.ndarray:
    """The ``(R!)³·3!`` digit permutations fixing the standard code 0
    (blocks ``0..R-1``, ``R..2R-1``, ``2R..3R-1``), ``(G, 3R)`` int64:
    digit ``d`` moves to ``out[i, d]``; the identity first."""
    N = 3 * R
    inside = np.array(list(itertools.permutations(range(R))), dtype=np.int64)    # (R!, R)
    out = []
    for blocks in itertools.permutations(range(3)):
        parts = [blocks[k] * R + inside for k in range(3)]                       # (R!, R) each
        grid = np.array(list(itertools.product(range(len(inside)), repeat=3)))   # (R!³, 3)
        out.append(np.concatenate([parts[k][grid[:, k]] for k in range(3)], axis=1))
    perms = np.concatenate(out).reshape(-1, N)
    assert np.array_equal(perms[0], np.arange(N))
    return perms


def _images(perms: np.ndarray, labels: np.ndarray, R: int) -> np.ndarray:
    """Code numbers of ``perms[i]`` applied to ``labels[i]`` (rows of digit
    labels; digit ``d`` moves to ``perms[i, d]``)."""
    moved = np.empty(perms.shape, dtype=np.uint8)
    np.put_along_axis(moved, perms, labels.astype(np.uint8), axis=1)
    return code_index(moved, R)


def stack_symmetries(codes: np.ndarray, R: int) -> np.ndarray:
    """The relabellings ``h`` of band 1 (ordered codes ``(R, 3R)``, box 0's
    code standard) with ``h(u_0) = u_0`` and ``h`` permuting the multiset of
    the other boxes' codes: ``(m, 3R)``, the identity first."""
    codes = np.asarray(codes)
    u = code_index(codes, R)
    if u[0] != 0:
        raise ValueError(f"box 0 must have the standard code 0, got {int(u[0])}")
    perms = standard_stabiliser_perms(R)
    others = np.sort(u[1:])
    labels = unordered_codes(R)
    keep = np.ones(len(perms), dtype=bool)
    for t in range(1, R):                       # the image of box t must be one of the others
        img = _images(perms[keep], np.broadcast_to(labels[u[t]], perms[keep].shape), R)
        keep[np.flatnonzero(keep)[~np.isin(img, others)]] = False
    H = perms[keep]
    imgs = np.stack([_images(H, np.broadcast_to(labels[u[t]], H.shape), R)
                     for t in range(1, R)], axis=1)
    return H[np.all(np.sort(imgs, axis=1) == others[None, :], axis=1)]


class _ChoiceUnion:
    """A union-find over the ``K`` choices ``(b[x], c[x])`` of a stack: an
    image pair joins the choice it came from to the first choice equal to
    it; equal pairs start joined.  :meth:`numbers` gives each choice its
    orbit's number, numbered by first occurrence."""

    def __init__(self, b: np.ndarray, c: np.ndarray, R: int):
        self.U = len(unordered_codes(R))
        self.first: dict[int, int] = {}
        for x, k in enumerate((b.astype(np.int64) * self.U + c).tolist()):
            self.first.setdefault(k, x)
        self.parent = list(range(len(b)))
        self.join(b, c)                          # equal pairs: one orbit

    def root(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(self, images: np.ndarray, other: np.ndarray) -> None:
        """Join choice ``x`` to the choice ``(images[x], other[x])``."""
        for x, k in enumerate((images.astype(np.int64) * self.U + other).tolist()):
            rx, ry = self.root(x), self.root(self.first[k])
            if rx != ry:
                self.parent[max(rx, ry)] = min(rx, ry)

    def numbers(self) -> np.ndarray:
        order: dict[int, int] = {}
        return np.array([order.setdefault(self.root(x), len(order))
                         for x in range(len(self.parent))])


def _orbits(b: np.ndarray, c: np.ndarray, H: np.ndarray, R: int) -> np.ndarray:
    """Orbit number of each of the ``K`` choices ``(b[x], c[x])`` under the
    relabellings ``H`` and the exchange of bands 2 and 3, numbered by first
    occurrence (a union-find over the choices; equal pairs join too)."""
    K = len(b)
    orbits = _ChoiceUnion(b, c, R)
    join = orbits.join
    join(c, b)                                   # bands 2 and 3 exchanged
    labels = unordered_codes(R)
    step = max(1, len(H) // MAX_GENERATORS)
    for h in H[1::step]:
        hs = np.broadcast_to(h, (K, 3 * R))
        join(_images(hs, labels[b], R), _images(hs, labels[c], R))
    return orbits.numbers()


def _normaliser(u: int, R: int) -> np.ndarray:
    """A relabelling sending code ``u`` to the standard code 0 (digit ``d``
    to ``out[d]``): the digits listed block by block (as
    :func:`bandtables.partitions.normalisers`, for one code)."""
    order = np.argsort(unordered_codes(R)[u], kind="stable")
    out = np.empty(3 * R, dtype=np.int64)
    out[order] = np.arange(3 * R)
    return out


def choice_orbits(band: np.ndarray, R: int) -> np.ndarray:
    """Orbit number of each of stack 0's ``K`` choices
    (``compatible_pairs(band[0], R)``) under :func:`stack_symmetries` and the
    exchange of bands 2 and 3; box 0's code must be standard."""
    b, c = compatible_pairs(band[0], R)
    return _orbits(b, c, stack_symmetries(band, R), R)


def first_stack_orbits(codes: np.ndarray, R: int):
    """Band 1 rearranged for :func:`orbit_completions`, and stack 0's orbits.

    Returns ``(band, reps, weights)``: ``band`` is band 1's ordered codes
    ``(R, 3R)``, relabelled and with its stacks reordered so that the stack
    with the fewest orbits comes first with the standard code (the unit's
    sum is the same); ``reps`` the choice numbers (of
    ``compatible_pairs(band[0], R)``) of one choice per orbit, ``weights``
    the orbits' sizes (they add up to ``K``)."""
    codes = np.asarray(codes, dtype=np.uint8)
    u = code_index(codes, R)
    best = None
    for s0 in range(R):
        band = np.empty_like(codes)
        band[:, _normaliser(int(u[s0]), R)] = codes     # box s0 now has the standard code
        band = band[[s0] + [t for t in range(R) if t != s0]]
        orbit = choice_orbits(band, R)
        if best is None or orbit.max() < best[1].max():
            best = (band, orbit)
    band, orbit = best
    reps = np.array([int(np.flatnonzero(orbit == o)[0]) for o in range(orbit.max() + 1)])
    weights = np.bincount(orbit)
    return band, reps, weights


def _second_stack(band: np.ndarray, R: int, H: np.ndarray) -> np.ndarray:
    """``band`` with the stack (of ``1 .. R-1``) whose code the most of ``H``
    fix moved to row 1 (the sum is the same for any order of the stacks)."""
    u = code_index(band, R)
    labels = unordered_codes(R)
    fixed = [int((_images(H, np.broadcast_to(labels[u[s]], H.shape), R) == u[s]).sum())
             for s in range(1, R)]
    s1 = 1 + int(np.argmax(fixed))
    return band[[0, s1] + [s for s in range(1, R) if s != s1]]


def _stabilisers(band: np.ndarray, R: int, H: np.ndarray, reps: np.ndarray):
    """For each of stack 0's choices ``reps``, the elements of the
    relabellings ``H`` and the exchange that fix it and stack 1's code (so
    they act on stack 1's choices), the identity left out:
    ``((i, exchanged), …)`` indexing ``H1``, the relabellings of ``H`` that
    fix stack 1's code.  Returns ``(list of those tuples, H1)``."""
    b0, c0 = compatible_pairs(band[0], R)
    labels = unordered_codes(R)
    u1 = code_index(band[1:2], R)[0]
    H1 = H[_images(H, np.broadcast_to(labels[u1], H.shape), R) == u1]
    identity = np.all(H1 == np.arange(3 * R)[None, :], axis=1)
    out = []
    for x0 in reps.tolist():
        hb = _images(H1, np.broadcast_to(labels[b0[x0]], H1.shape), R)
        hc = _images(H1, np.broadcast_to(labels[c0[x0]], H1.shape), R)
        plain = np.flatnonzero((hb == b0[x0]) & (hc == c0[x0]) & ~identity)
        swapped = np.flatnonzero((hc == b0[x0]) & (hb == c0[x0]))
        out.append(tuple([(int(i), False) for i in plain] + [(int(i), True) for i in swapped]))
    return out, H1


def _orbits_under(b: np.ndarray, c: np.ndarray, elements, R: int) -> np.ndarray:
    """Orbit number of each choice ``(b[x], c[x])`` under ``elements``
    (``(h, exchanged)``: ``(β, γ) ↦ (hβ, hγ)``, or ``(hγ, hβ)``), numbered
    by first occurrence; at most :data:`MAX_GENERATORS` of them are used."""
    K = len(b)
    orbits = _ChoiceUnion(b, c, R)
    join = orbits.join
    labels = unordered_codes(R)
    step = max(1, len(elements) // MAX_GENERATORS)
    for h, exchanged in elements[::step]:
        hs = np.broadcast_to(h, (K, 3 * R))
        hb, hc = _images(hs, labels[b], R), _images(hs, labels[c], R)
        join(hc, hb) if exchanged else join(hb, hc)
    return orbits.numbers()


def orbit_plan(codes: np.ndarray, R: int):
    """What :func:`orbit_completions` sums: ``(band, calls)``.

    ``band`` is band 1 rearranged (:func:`first_stack_orbits`, then the
    stack whose code most symmetries fix moved to row 1); each call is
    ``(weight, x0s, x1s)``: the sum over stack 0's choices ``x0s`` and stack
    1's ``x1s`` (all of the other stacks'), times ``weight``.  Level 1: one
    ``x_0`` per orbit of stack 0's choices, weight the orbit's size.  Level
    2: the symmetries fixing that ``x_0`` (and stack 1's code) map the terms
    with ``x_1`` onto those with its image, by the same argument, so stack 1
    too is summed one choice per orbit of that stabiliser, times its size."""
    band, reps, weights = first_stack_orbits(codes, R)
    H = stack_symmetries(band, R)
    band = _second_stack(band, R, H)
    b1, c1 = compatible_pairs(band[1], R)
    groups: dict[tuple, list[int]] = {}
    seen: dict[tuple, tuple[list[int], list[int]]] = {}     # stabiliser -> stack 1's orbits
    stabs, H1 = _stabilisers(band, R, H, reps)
    for x0, w0, stab in zip(reps.tolist(), weights.tolist(), stabs):
        if stab not in seen:
            orbit = _orbits_under(b1, c1, [(H1[i], ex) for i, ex in stab], R)
            seen[stab] = ([int(np.flatnonzero(orbit == o)[0]) for o in range(orbit.max() + 1)],
                          np.bincount(orbit).tolist())
        x1s, w1s = seen[stab]
        for w1 in sorted(set(w1s)):
            key = (w0 * w1, tuple(x for x, w in zip(x1s, w1s) if w == w1))
            groups.setdefault(key, []).append(x0)
    calls = [(w, np.array(x0s), np.array(x1s)) for (w, x1s), x0s in sorted(groups.items())]
    return band, calls


def orbit_completions(codes: np.ndarray, R: int, kernel) -> tuple[int, int]:
    """``(Σ_{P2} l(P2)·l(P3), terms summed)`` for band 1's ordered codes,
    exact, by :func:`orbit_plan`: one choice per orbit in stacks 0 and 1.

    ``kernel(b, c, start, stop, K1)`` is a contraction kernel's call
    (:func:`bandtables.kernels.contract` with its tables bound, or
    ``contract4``): the sum over stack 0's choices ``start <= x_0 < stop``
    and stack 1's first ``K1`` of ``b``, ``c`` ``(R, K)`` uint16, as
    ``(high, low)`` 64-bit halves.  Each call of the plan gathers its
    choices at the front of rows 0 and 1."""
    band, calls = orbit_plan(codes, R)
    rows = [compatible_pairs(band[s], R) for s in range(R)]
    b = np.ascontiguousarray([r[0] for r in rows], dtype=np.uint16)
    c = np.ascontiguousarray([r[1] for r in rows], dtype=np.uint16)
    K = b.shape[1]
    total = terms = 0
    for w, x0s, x1s in calls:
        bw, cw = b.copy(), c.copy()
        for row, chosen in ((0, x0s), (1, x1s)):
            bw[row, :len(chosen)], cw[row, :len(chosen)] = b[row, chosen], c[row, chosen]
        hi, lo = kernel(bw, cw, 0, len(x0s), len(x1s))
        total += int(w) * ((int(hi) << 64) | int(lo))
        terms += len(x0s) * len(x1s) * K ** (R - 2)
    return total, terms
