"""Two-band bands counted for every pattern class at once, row by row.

A band of a two-band shape (``C`` stacks of two columns, ``C`` rows,
``2C`` digits; the ``C × 2`` boxes of a ``2C × 2C`` grid, or by
transposition the ``2 × C`` ones) is a ``C × 2C`` Latin rectangle with a
digit at most once in each stack.  Its *pattern* (every column's digit set)
is a ``C``-regular bipartite graph ``Q`` columns–digits, and the bands of one
pattern are the ordered 1-factorizations of ``Q``: ``F_C(Q)`` of them
(:mod:`factorization.api`).  The per-class counts of the ``patterns2``
reduction are these ``F_C``, one kernel count per class; here they are
counted for all the classes together, by layers (the method of
linche89/sudoku-enumeration's ``docs/methods/layer-dp.md``).

States and the recurrence
-------------------------
After ``L`` rows a band's *state* is the multiset of its digits'
occurrence masks (:mod:`factorization.layer_canon`), taken up to the
coordinate group ``G = C₂ ≀ S_C``; the rows still to come depend on nothing
else.  For a class ``x`` let ``m_x = |G| / |Stab(x)|`` (its column-labelled
multisets), ``F_L(x)`` the number of ``L``-row rectangles with the column
contents of one digit labelling of ``x``, and ``T_L(x) = m_x·F_L(x)``.  A
next row from a representative ``u`` of ``x`` is a map ``f`` from the
columns to the mask types of ``u`` (type ``i`` used by its multiplicity
``k_i`` of columns, never in a stack it already uses); the ``Π k_i!``
assignments of the digits of each type to its columns are the labelled rows
of ``f``.  Counting the labelled ``(L+1)``-row rectangles of the class
``y`` two ways gives, exactly::

    T_1(start) = 1,
    T_{L+1}(y) = Π_j k_j(y)! · Σ_x T_L(x) · #{f from u_x : u_x + f ∈ y}

(``k_j(y)`` the multiplicities of ``y``'s masks).  Every ``T_L(x)`` is
checked to be a multiple of ``m_x`` (``F_L`` is a count).  After ``C`` rows
the masks are full (the pattern's digit *codes*, :mod:`counting.reduction.patterns2`'s
``B_C`` classes before duality), ``F_C(q) = T_C(q) / m_q``, and with
``ℓ_q = (2C)! / Π k_j(q)!`` digit labellings::

    bands of the shape's grids = Σ_q m_q · ℓ_q · F_C(q)²

(a grid is two bands of swapped patterns with equal ``F``, as ``patterns2``
explains).

Work saved by symmetry
----------------------
The rows from a parent ``u`` with a non-trivial stabiliser ``S`` are
enumerated up to ``S``: the column ``j`` being filled gets one type per
orbit of the elements of ``S`` fixing the columns filled so far, their
types and ``j``, weighted by the orbit's size (the children of ``g·f`` are
the images of ``f``'s, so they fall in the same classes).  The rest of a row
is enumerated column by column.

Two engines
-----------
``engine="compiled"`` (the default) runs each transition in C
(:mod:`factorization.layer_steps`: the rows, the children's canonical forms
and the sums, unsigned 128-bit with checked arithmetic, in open-addressing
tables filled by ``threads`` threads); a layer whose sums do not fit in 128
bits is redone by the NumPy path with Python ints.  ``engine="numpy"`` is
the first implementation, kept as the reference the tests compare against
state by state.  Both give their states in the compiled canonical form
(:func:`factorization.layer_steps.layer_form`), the keys of
:attr:`LayerCounts.last` and :attr:`LayerCounts.classes`.

Example
-------
>>> r = layer_counts(3)
>>> r.sizes, r.total
((1, 5, 4), 28200960)
"""
from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from factorization.layer_canon import canonical_states, coordinate_group, stabiliser
from factorization.layer_steps import SumOverflow, layer_forms_of, next_layer

__all__ = ["LayerClass", "LayerCounts", "layer_counts", "pattern_form", "MAX_LAYER_C", "ENGINES"]

MAX_LAYER_C = 6         # masks of 12 bits; C = 6 is 12 digits (only its first layers are cheap)
_CHILDREN_BATCH = 400_000   # child states canonicalised at once (NumPy path)
ENGINES = ("compiled", "numpy")


@dataclass(frozen=True)
class LayerClass:
    """One class of complete bands' patterns.

    Attributes
    ----------
    form : tuple of int
        The canonical multiset of full occurrence masks.
    m : int
        Column-labelled patterns in the class, ``|G| / |Stab|``.
    ell : int
        Digit labellings of one of them, ``(2C)! / Π mult!``.
    F : int
        Bands of one pattern: ``F_C``, the ordered 1-factorizations.
    """

    form: tuple[int, ...]
    m: int
    ell: int
    F: int


@dataclass(frozen=True)
class LayerCounts:
    """The result of :func:`layer_counts`.

    Attributes
    ----------
    C : int
    sizes : tuple of int
        States (classes) at each layer ``1..C``.
    classes : dict
        ``form -> LayerClass`` at layer ``C``.
    seconds : tuple of float
        Wall time of each transition ``L -> L+1``.
    cpu : tuple of float
        CPU time of each transition (the process's: every thread's).
    rows : tuple of int
        Rows ``f`` enumerated at each transition (after the symmetry saving).
    last : dict
        The last layer computed: ``form -> (T, stabiliser order)``, with
        ``F_L = T / (|G| / stabiliser)`` the number of ``L``-row rectangles
        with one labelling's column contents.
    """

    C: int
    sizes: tuple[int, ...]
    classes: dict
    seconds: tuple[float, ...]
    rows: tuple[int, ...]
    last: dict
    cpu: tuple[float, ...] = ()

    @property
    def total(self) -> int:
        """Grids: ``Σ m·ℓ·F²``."""
        return sum(c.m * c.ell * c.F * c.F for c in self.classes.values())


def _multiplicity_factorial(form) -> int:
    return math.prod(math.factorial(k) for k in np.unique(form, return_counts=True)[1].tolist())


def _column_image(C: int, p: int, f: int, j: int) -> int:
    grp = coordinate_group(C)
    s = j >> 1
    return 2 * int(grp.perms[p, s]) + ((j & 1) ^ int(grp.flips[f, s]))


def _mask_image(C: int, p: int, f: int, mask: int) -> int:
    img = coordinate_group(C).image[p, f]
    return int(sum(int(img[s, (mask >> (2 * s)) & 3]) for s in range(C)))


def _symmetric_prefixes(types, counts, allowed, C, stab) -> list[tuple[list, np.ndarray, int]]:
    """Prefixes ``(types of columns 0..j-1, remaining counts, weight)``
    enumerated up to the parent's stabiliser ``stab`` (``(perm, flip)``
    index arrays), down to the first column where every prefix's group is
    trivial."""
    index = {int(t): i for i, t in enumerate(types)}
    work = [([], counts.copy(), 1, list(zip(stab[0].tolist(), stab[1].tolist())))]
    j = 0
    while j < 2 * C and any(len(h) > 1 for *_, h in work):
        nxt = []
        for prefix, rem, w, h in work:
            fixing = [g for g in h if _column_image(C, *g, j) == j]
            seen: set[int] = set()
            for t in np.nonzero(allowed[:, j] & (rem > 0))[0].tolist():
                if t in seen:
                    continue
                orbit = {index[_mask_image(C, *g, int(types[t]))] for g in fixing}
                seen |= orbit
                keep = [g for g in fixing if _mask_image(C, *g, int(types[t])) == types[t]]
                r = rem.copy()
                r[t] -= 1
                nxt.append((prefix + [t], r, w * len(orbit), keep))
        work = nxt
        j += 1
    return [(prefix, rem, w) for prefix, rem, w, _ in work]


def _rows(parent: tuple[int, ...], C: int, symmetric: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """The children of a parent (sorted masks, ``(P, 2C)``, distinct), how
    many rows ``f`` give each (weights of the symmetry saving included) and
    how many rows were enumerated."""
    n = 2 * C
    types, counts = np.unique(np.asarray(parent, dtype=np.int64), return_counts=True)
    stack_bits = 3 << (2 * (np.arange(n) >> 1))
    allowed = (types[:, None] & stack_bits[None, :]) == 0          # (type, column)
    if symmetric:
        prefixes = _symmetric_prefixes(types, counts, allowed, C, stabiliser(parent, C))
    else:
        prefixes = [([], counts, 1)]
    start = len(prefixes[0][0])
    part = np.array([p for p, _, _ in prefixes], dtype=np.int64).reshape(len(prefixes), start)
    rem = np.array([r for _, r, _ in prefixes], dtype=np.int64)
    weight = np.array([w for _, _, w in prefixes], dtype=np.int64)
    for j in range(start, n):
        which, t = np.nonzero(allowed[:, j][None, :] & (rem > 0))
        part = np.concatenate([part[which], t[:, None]], axis=1)
        rem = rem[which]
        rem[np.arange(len(t)), t] -= 1
        weight = weight[which]
    children = np.sort(types[part] | (1 << np.arange(n))[None, :], axis=1)
    children, inverse = np.unique(children, axis=0, return_inverse=True)
    sums = np.zeros(len(children), dtype=np.int64)
    np.add.at(sums, inverse.ravel(), weight)
    return children, sums, len(part)


def _next_layer(layer: dict, C: int) -> tuple[dict, int]:
    """``{form: (T, stabiliser order)}`` of layer ``L + 1`` from layer ``L``'s."""
    order = coordinate_group(C).order
    out: dict[tuple, list] = defaultdict(lambda: [0, 0])
    n_rows = 0
    pending: list = []          # (parent T, children, weights)
    size = 0

    def flush():
        nonlocal pending, size
        if not pending:
            return
        kids = np.concatenate([c for _, c, _ in pending])
        forms, stab = canonical_states(kids, C)
        forms, first, inverse = np.unique(forms, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        keys = [tuple(f) for f in forms.tolist()]
        for i, k in enumerate(keys):
            out[k][1] = int(stab[first[i]])
        a = 0
        for t, c, w in pending:
            ids = inverse[a:a + len(c)]
            a += len(c)
            sums = np.zeros(len(keys), dtype=np.int64)
            np.add.at(sums, ids, w)
            for i in np.nonzero(sums)[0].tolist():
                out[keys[i]][0] += t * int(sums[i])
        pending, size = [], 0

    for x, (t, stab) in layer.items():
        kids, w, enumerated = _rows(x, C, symmetric=stab > 1)
        n_rows += enumerated
        pending.append((t, kids, w))
        size += len(kids)
        if size >= _CHILDREN_BATCH:
            flush()
    flush()
    nxt = {}
    for k, (s, stab) in out.items():
        t = _multiplicity_factorial(k) * s
        if t % (order // stab):
            raise ArithmeticError(f"layer state {k}: T = {t} is not a multiple of its "
                                  f"{order // stab} labellings")
        nxt[k] = (t, stab)
    return nxt, n_rows


def _reform(layer: dict, C: int, form) -> dict:
    """The layer with its states in another canonical form (``form``: a
    batch function like :func:`canonical_states`); ``T`` and the stabiliser
    orders are class functions, so they carry over."""
    if not layer:
        return {}
    forms, _ = form(np.array(list(layer), dtype=np.int64), C)
    return {tuple(f): v for f, v in zip(forms.tolist(), layer.values())}


def _step(layer: dict, C: int, engine: str, threads: int) -> tuple[dict, int]:
    """One transition in the compiled form; the NumPy path when asked, or
    when a sum does not fit in 128 bits."""
    if engine == "compiled":
        try:
            return next_layer(layer, C, threads=threads)
        except SumOverflow:
            pass
    nxt, n = _next_layer(_reform(layer, C, canonical_states), C)
    return _reform(nxt, C, layer_forms_of), n


def layer_counts(C: int, upto: int | None = None, *, engine: str = "compiled",
                 threads: int = 1) -> LayerCounts:
    """Count the bands of ``C`` stacks by layers; every complete class's ``F_C``.

    Parameters
    ----------
    C : int
        Stacks (rows of a band): ``2 .. MAX_LAYER_C``.
    upto : int, optional
        Stop after this layer (default ``C``); ``classes`` is then empty
        unless it is ``C``.
    engine : {"compiled", "numpy"}
        The transitions in C (default) or in NumPy (the reference).
    threads : int
        Threads of a compiled transition.

    Returns
    -------
    LayerCounts
    """
    if isinstance(C, bool) or not isinstance(C, int) or not 2 <= C <= MAX_LAYER_C:
        raise ValueError(f"stacks must be an integer in 2..{MAX_LAYER_C}, got {C!r}")
    upto = C if upto is None else upto
    if isinstance(upto, bool) or not isinstance(upto, int) or not 1 <= upto <= C:
        raise ValueError(f"upto must be an integer in 1..{C}, got {upto!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    order = coordinate_group(C).order
    layer = {tuple(1 << j for j in range(2 * C)): (1, order)}
    sizes, seconds, rows, cpu = [1], [], [], []
    for _ in range(1, upto):
        t0, c0 = time.perf_counter(), time.process_time()
        layer, n = _step(layer, C, engine, threads)
        seconds.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        sizes.append(len(layer))
        rows.append(n)
    classes = {}
    if upto == C:
        n_labels = math.factorial(2 * C)
        for form, (t, stab) in layer.items():
            m = order // stab
            classes[form] = LayerClass(form, m, n_labels // _multiplicity_factorial(form), t // m)
    return LayerCounts(C, tuple(sizes), classes, tuple(seconds), tuple(rows), layer, tuple(cpu))


def pattern_form(column_sets) -> tuple[int, ...]:
    """The canonical form of a band pattern given as ``2C`` column sets
    (columns ``2s``, ``2s + 1`` make stack ``s``; complementary sets of
    ``C`` digits in each stack): the key of its class in
    :attr:`LayerCounts.classes`."""
    sets = [set(s) for s in column_sets]
    C = len(sets) // 2
    if len(sets) != 2 * C or not 1 <= C <= MAX_LAYER_C:
        raise ValueError(f"a pattern needs an even number 2..{2 * MAX_LAYER_C} of column "
                         f"sets, got {len(sets)}")
    digits = sorted(set().union(*sets))
    if len(digits) != 2 * C:
        raise ValueError(f"{2 * C} columns need {2 * C} digits, got {len(digits)}")
    for s in range(C):
        if sets[2 * s] & sets[2 * s + 1] or len(sets[2 * s] | sets[2 * s + 1]) != 2 * C:
            raise ValueError(f"stack {s}: its two column sets are not complementary")
    masks = [sum(1 << j for j, col in enumerate(sets) if d in col) for d in digits]
    forms, _ = layer_forms_of(np.array([masks]), C)
    return tuple(forms[0].tolist())
