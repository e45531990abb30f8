"""Band classes and the table of ``l`` over band patterns (``R <= 3``: dense).

A *band pattern* is the box column code of each of the ``R`` boxes of a
band of ``R`` rows (:mod:`bandtables.partitions`).  ``L(P)`` counts the
``R × N`` Latin rectangles with those column sets, and ``l = L / R!`` those
reading column 1 increasing (:mod:`grids.rectangle`).

Moves that keep ``l``
--------------------
Relabelling the digits, permuting the boxes, and permuting the columns
inside a box each map the rectangles of ``P`` one-to-one onto those of the
moved pattern, so ``l`` only depends on the class of ``P`` under the group
they generate.  Permuting a box's columns is already forgotten by using
unordered codes; a class is then an orbit of tuples ``(u_0, .., u_{R-1})``
of unordered codes under relabelling and box permutations.

Every class meets the patterns whose box 0 is the standard code 0 (relabel
by ``π_{u_0}``), so a pattern is written ``(0, v_1, .., v_{R-1})`` with the
*rest* ``v = (v_1 .. v_{R-1})``, and the table is ``T[v]``, flat and
row-major over ``U^(R-1)`` rests.  The patterns with box 0 standard that are
in the class of ``(0, v)`` are the images of ``(0, v)`` under (i) the
permutations fixing code 0 (:func:`~bandtables.partitions.standard_stabiliser`)
with any order of the rest, and (ii) the same after first moving box ``b``
to the front and relabelling by ``π_{v_b}``.  So

* ``rest_key(v)`` = the smallest sorted image of ``v`` under (i), written in
  base ``U``, is an invariant of (i);
* ``class_key(v)`` = the smallest ``rest_key`` over the ``R`` choices of
  the front box is an invariant of the class, and equal keys mean one class.

Class sizes count *ordered* patterns (each box's columns in order), the
objects summed over in :mod:`counting.reduction.patterns3`: a rest stands
for ``U`` unordered patterns (one per code of box 0, related by ``π``), and
each unordered pattern for ``6^R`` ordered ones.

Only ``R <= 3`` is built densely here: ``U^(R-1)`` is 15 (R = 2) and
78,400 (R = 3), but 1.9·10¹¹ for R = 4 (see ``results/bench_patterns3.md``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bandtables.partitions import act_table, block_sets, normalisers, unordered_codes

__all__ = ["DENSE_MAX_R", "DENSE_FORMAT", "DENSE_ARRAYS", "ClassTable", "class_table",
           "save_dense", "load_dense", "band_l", "pattern_column_sets"]

DENSE_MAX_R = 3  # largest R whose rests U^(R-1) are tabulated densely
#: The version of the files :func:`save_dense` writes (the cache directory's name carries it).
DENSE_FORMAT = 1
#: What :func:`save_dense` writes and :func:`load_dense` maps, by file stem ``R{R}-NAME``:
#: the normalising table ``act`` (:func:`bandtables.partitions.normalisers`) and the class table.
DENSE_ARRAYS = ("act", "T", "rest_class", "reps", "sizes", "l")


def band_l(column_sets, R: int) -> int:
    """``l``: the ``R × 3R`` rectangles with these column sets (digits
    ``1..3R``), rows ordered by column 1.  The one place the table asks for
    a rectangle count; a faster counter may replace the engine here."""
    from grids.rectangle import ColumnSetRectangles
    return int(ColumnSetRectangles(R, 3 * R).count(column_sets, order_rows=True))


def pattern_column_sets(boxes, R: int) -> tuple[tuple[int, ...], ...]:
    """Column sets (digits 1-based) of the band whose box ``i`` has unordered
    code ``boxes[i]``: columns ``3i .. 3i+2``, blocks by smallest digit."""
    return tuple(tuple(d + 1 for d in block) for u in boxes for block in block_sets(int(u), R))


@dataclass(frozen=True)
class ClassTable:
    """The band classes of one ``R`` and the table of ``l`` over rests.

    Attributes
    ----------
    R, U : int
        Rows of a band; number of unordered box codes.
    rest_class : ndarray of int32, shape (U^(R-1),)
        Class id of the pattern ``(0, v)``, by flat rest ``v``.
    reps : tuple of tuple of int
        Each class's representative ``(0, v_1, .., v_{R-1})`` (unordered
        codes), classes numbered by increasing ``class_key``.
    sizes : tuple of int
        Ordered patterns in each class (exact ints).
    l : ndarray of uint64, shape (n_classes,)
        ``l`` of each class.
    T : ndarray of uint64, shape (U^(R-1),)
        ``T[v] = l[rest_class[v]]``: the table the kernel reads.
    """

    R: int
    U: int
    rest_class: np.ndarray
    reps: tuple
    sizes: tuple
    l: np.ndarray
    T: np.ndarray


def _decode(keys: np.ndarray, U: int, width: int) -> np.ndarray:
    """Base-``U`` words of ``width`` digits, most significant first, ``(B, width)``."""
    return np.stack([(keys // U ** (width - 1 - i)) % U for i in range(width)], axis=1)


def _stabiliser_generators(R: int) -> list[np.ndarray]:
    """Four permutations generating the relabellings that fix code 0
    (``S_R ≀ S_3``): a transposition and an ``R``-cycle inside block 0, a
    swap of blocks 0 and 1, and a cycle of the three blocks."""
    N = 3 * R
    ident = np.arange(N)
    swap_in = ident.copy()
    swap_in[[0, 1]] = [1, 0]
    cycle_in = ident.copy()
    cycle_in[:R] = np.roll(np.arange(R), 1)
    swap_blocks = np.concatenate([np.arange(R, 2 * R), np.arange(R), np.arange(2 * R, N)])
    cycle_blocks = (ident + R) % N
    return [swap_in, cycle_in, swap_blocks, cycle_blocks]


def rest_keys(R: int) -> np.ndarray:
    """``rest_key`` of every rest, flat ``(U^(R-1),)`` int64 (see the module doc).

    Each rest starts with its own sorted word; then every rest takes the
    smaller of its key and the key of its image under each generator (of
    the relabellings fixing code 0, and adjacent swaps of the rest), until
    nothing changes.  A finite group's orbit is reached from any member by
    applying generators only forwards, so the fixed point is the orbit's
    minimum.  [About 0.1 s for R = 3, where the loop over all
    ``(R!)³·3! = 1296`` relabellings took 4.7 s.]
    """
    U = len(unordered_codes(R))
    rests = [a.ravel() for a in np.indices((U,) * (R - 1))]
    weights = U ** np.arange(R - 2, -1, -1, dtype=np.int64)

    def flat(tuple_):
        return (np.stack(tuple_).astype(np.int64) * weights[:, None]).sum(0)

    key = flat(list(np.sort(np.stack(rests), axis=0)))
    images = []
    for g in _stabiliser_generators(R):
        row = act_table(g[None, :], R)[0]
        images.append(flat([row[v] for v in rests]))
    for i in range(R - 2):                 # swap rest coordinates i, i+1
        swapped = list(rests)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        images.append(flat(swapped))
    while True:
        before = key.copy()
        for img in images:
            np.minimum(key, key[img], out=key)
        if np.array_equal(before, key):
            return key


@lru_cache(maxsize=None)
def class_table(R: int) -> ClassTable:
    """Build (once per process) the classes and the ``l`` table of ``R <= 3``."""
    if isinstance(R, bool) or not isinstance(R, int) or not 2 <= R <= DENSE_MAX_R:
        raise ValueError(f"dense band tables exist for R = 2..{DENSE_MAX_R}, got {R!r}")
    U = len(unordered_codes(R))
    _, act = normalisers(R)
    rest_key = rest_keys(R)
    rests = [a.ravel() for a in np.indices((U,) * (R - 1))]
    weights = U ** np.arange(R - 2, -1, -1, dtype=np.int64)
    boxes = [np.zeros_like(rests[0])] + rests
    class_key = rest_key.copy()
    for front in range(1, R):              # move box `front` first, relabel by π of its code
        others = [act[boxes[front], boxes[j]].astype(np.int64) for j in range(R) if j != front]
        flat = (np.stack(others) * weights[:, None]).sum(0)
        np.minimum(class_key, rest_key[flat], out=class_key)
    keys, rest_class, counts = np.unique(class_key, return_inverse=True, return_counts=True)
    reps = tuple((0,) + tuple(int(v) for v in row) for row in _decode(keys, U, R - 1))
    per_rest = U * 6 ** R                  # ordered patterns a rest stands for
    sizes = tuple(per_rest * int(n) for n in counts)
    assert sum(sizes) == (math.factorial(3 * R) // math.factorial(R) ** 3) ** R
    l = np.array([band_l(pattern_column_sets(rep, R), R) for rep in reps], dtype=np.uint64)
    T = l[rest_class]
    T.setflags(write=False)
    return ClassTable(R, U, rest_class.astype(np.int32), reps, sizes, l, T)


def save_dense(R: int, directory) -> None:
    """Write the tables of ``R <= 3`` (:data:`DENSE_ARRAYS`) under ``directory``
    as ``R{R}-NAME.npy``, each through a temporary renamed into place."""
    from pathlib import Path
    ct = class_table(R)
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    arrays = {"act": normalisers(R)[1], "T": ct.T, "rest_class": ct.rest_class,
              "reps": np.array(ct.reps, dtype=np.int64), "sizes": np.array(ct.sizes, np.int64),
              "l": ct.l}
    if [int(x) for x in arrays["sizes"]] != list(ct.sizes):
        raise OverflowError("a class size does not fit in 64 bits")
    for name in DENSE_ARRAYS:
        tmp = d / f"R{R}-{name}.npy.tmp"
        with open(tmp, "wb") as fh:
            np.save(fh, np.ascontiguousarray(arrays[name]))
        tmp.replace(d / f"R{R}-{name}.npy")


def load_dense(R: int, directory) -> tuple[np.ndarray, ClassTable]:
    """``(act, classes)`` of ``R <= 3`` as :func:`save_dense` wrote them: the
    large arrays (``act``, ``T``, ``rest_class``, ``l``) memory-mapped
    read-only, shared by every process of the machine through the page cache."""
    from pathlib import Path
    d = Path(directory)
    a = {name: np.load(d / f"R{R}-{name}.npy", mmap_mode="r") for name in DENSE_ARRAYS}
    reps = tuple(tuple(int(v) for v in row) for row in a["reps"].tolist())
    sizes = tuple(int(x) for x in a["sizes"].tolist())
    return a["act"], ClassTable(R, a["act"].shape[0], a["rest_class"], reps, sizes, a["l"], a["T"])
