"""The 4x3 band tables: classes, ``l`` per class, the row table ``LT`` and its chain.

For ``R = 4`` a dense table over rests would hold 1.9·10¹¹ entries
(:mod:`bandtables.tables`), so ``l`` is looked up through the stabiliser
chain of :mod:`bandtables.orbits`.  The chain, for a band ``(u0, u1, u2, u3)``:

1. ``v_j = act[u0, u_j]`` (box 0 relabelled to the standard code);
2. ``g1 = trans1[v1]`` brings box 1 to its ``G0``-representative (orbit
   ``i1``), and boxes 2 and 3 to ``v2' = act0[g1, v2]``, ``v3' = act0[g1, v3]``;
3. ``g2 = trans2[i1, v2']`` (it fixes box 1's representative) brings box 2
   to its representative: the pair ``p = pair_index[i1, rep2[i1, v2']]``;
4. ``l = LT[p, act0[g2, v3']]``: the row ``LT[p]`` (:func:`prefix_rows`)
   holds ``l`` of ``(0, w1, w2, v)`` for every code ``v`` of box 3.

Only the relabellings the transversals name are kept (:func:`compact`):
6,822 of the 82,944 rows of ``act0``, 75 MiB instead of 914 MiB, with
``trans1`` and ``trans2`` numbering those rows; the tables a machine maps
are then about 175 MiB in all.

:func:`build` computes the chain, the classes and ``LT`` (~0.2 s a row:
:mod:`bandtables._rows4`, where ``l`` of one band by
:func:`bandtables._rect.count_l` takes ~20 ms; :func:`class_l` stays as the
check) and writes what the kernel reads as ``.npy`` files; :func:`load`
memory-maps them read-only, so the workers of one machine share one copy
through the page cache.  ``l < 2^32`` is checked against Bregman's bound
(:func:`bandtables.api.max_terms_bound`).  Where the files live, and how
they are built on first use and checked, is :mod:`bandtables.cache`.
"""
from __future__ import annotations

import itertools
import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from bandtables import kernels
from bandtables.kernels import count_l
from bandtables.partitions import band2_choices, normalisers, unordered_codes

__all__ = ["block_masks", "class_l", "prefix_rows", "compact", "scaled_rows", "build", "load",
           "Tables4", "completions4", "completions4_by_orbits", "ARRAYS", "FORMAT"]

#: The version of the files :func:`build` writes (the cache directory's name carries it):
#: bumped whenever they change.  1: the chain's arrays; 2: ``act0`` compacted (:func:`compact`).
FORMAT = 2
#: The arrays :func:`build` writes and :func:`load` maps, by file stem ``R4-NAME``.
ARRAYS = ("act", "act0", "rep1", "trans1", "index1", "rep2", "trans2", "pair_index", "LT",
          "l", "reps", "sizes")


def block_masks(R: int) -> np.ndarray:
    """``(U, 3)`` uint32: the digit bitmask of each block of each unordered code."""
    labels = unordered_codes(R)
    bits = (1 << np.arange(3 * R, dtype=np.int64))
    return np.stack([((labels == k) * bits).sum(1) for k in range(3)], axis=1).astype(np.uint32)


def class_l(reps, R: int, threads: int = 1) -> np.ndarray:
    """``l`` of each representative (tuples of unordered codes), uint32,
    counted by :func:`bandtables._rect.count_l` on ``threads`` threads."""
    masks = block_masks(R)
    sets = [np.ascontiguousarray(masks[list(rep)].ravel()) for rep in reps]
    with ThreadPoolExecutor(max_workers=threads) as pool:
        values = list(pool.map(lambda m: count_l(m, R), sets, chunksize=64))
    return np.array(values, dtype=np.uint32)


def _rho_decoding() -> np.ndarray:
    """``(369600, 4)`` uint16: the four row sets of each ordered row code, by
    the rank :mod:`bandtables._rows4` gives it (every rank checked once)."""
    from bandtables.kernels import rank_rho
    decode = np.zeros((369600, 4), dtype=np.uint16)
    seen = np.zeros(len(decode), dtype=bool)
    digits = range(12)
    for a in itertools.combinations(digits, 3):
        rest1 = [d for d in digits if d not in a]
        for b in itertools.combinations(rest1, 3):
            rest2 = [d for d in rest1 if d not in b]
            for c in itertools.combinations(rest2, 3):
                ma, mb, mc = (sum(1 << d for d in x) for x in (a, b, c))
                k = rank_rho(ma, mb, mc)
                if seen[k]:
                    raise AssertionError(f"row codes share rank {k}")
                seen[k] = True
                decode[k] = (ma, mb, mc, 0xFFF & ~(ma | mb | mc))
    if not seen.all():
        raise AssertionError("some rank has no row code")
    return decode


def prefix_rows(prefixes, threads: int = 1, done=None) -> np.ndarray:
    """``l(b0, b1, b2, v)`` for each prefix ``(b0, b1, b2)`` (unordered codes)
    and every code ``v``: ``(len(prefixes), U)`` uint64, a row at a time by
    :func:`bandtables._rows4.prefix_row` (about 0.2 s a row); ``done()`` is
    called after each row (a progress bar's update)."""
    from bandtables.kernels import prefix_row
    from bandtables.partitions import code_lookup
    R = 4
    masks = block_masks(R)
    decode = _rho_decoding()
    pw = np.array([sum(3 ** (11 - d) for d in range(12) if m >> d & 1) for m in range(4096)],
                  dtype=np.uint32)
    word_index = code_lookup(R)[1]
    out = np.zeros((len(prefixes), len(masks)), dtype=np.uint64)

    def row(i):
        prefix = np.ascontiguousarray(masks[list(prefixes[i])])
        n = prefix_row(prefix, decode, pw, word_index, out[i])
        if done is not None:
            done()
        return n

    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(row, range(len(prefixes))))
    return out


def compact(act0: np.ndarray, trans1: np.ndarray, trans2: np.ndarray):
    """``(act0, trans1, trans2)`` keeping only the rows of ``act0`` that
    ``trans1`` or ``trans2`` name, renumbered in their order (the lookup
    reads no other row)."""
    used = np.unique(np.concatenate([np.ravel(trans1), np.ravel(trans2)]))
    number = np.full(len(act0), -1, dtype=np.int32)
    number[used] = np.arange(len(used), dtype=np.int32)
    return (np.ascontiguousarray(act0[used]), number[trans1].astype(np.int32),
            number[trans2].astype(np.int32))


def scaled_rows(LT: np.ndarray, block: int = 128) -> tuple[np.ndarray, np.ndarray] | None:
    """``(LT16, scale)`` with ``LT[p, v] == scale[p] · LT16[p, v]`` exactly,
    ``LT16`` uint16 and ``scale[p]`` (uint64) the gcd of row ``p``; None when
    some row's entries divided by its gcd do not fit in 16 bits.

    The kernel then reads rows of half the bytes (``contract4(..., LT16, ...,
    scale=scale)``: the products of a prefix summed in 16-bit factors, the sum
    multiplied once by the two rows' scales).  For the real 4x3 ``LT`` the
    largest quotient is computed, not assumed (38,912); :attr:`Tables4.kernel_rows`
    falls back to ``LT`` itself on None.  ``block`` rows at a time, so the
    temporaries stay a few MiB."""
    LT = np.asarray(LT)
    LT16 = np.empty(LT.shape, dtype=np.uint16)
    scale = np.empty(len(LT), dtype=np.uint64)
    for lo in range(0, len(LT), block):
        rows = np.asarray(LT[lo:lo + block])
        g = np.gcd.reduce(rows, axis=1)
        g[g == 0] = 1                                   # a row of zeros: any scale
        quotient = rows // g[:, None]
        if quotient.size and int(quotient.max()) > np.iinfo(np.uint16).max:
            return None
        LT16[lo:lo + block], scale[lo:lo + block] = quotient, g
        if not np.array_equal(LT16[lo:lo + block] * scale[lo:lo + block, None], rows):
            raise AssertionError("LT16 · scale differs from LT")  # exact, whatever the dtypes did
    return LT16, scale


def build(directory, threads: int = 1, log=print, progress=None) -> dict:
    """Build every 4x3 table and write it under ``directory``; timings in seconds.

    ``progress(total)`` (optional) returns a callable called once per
    finished step of the longest part, the ``LT`` rows (a progress bar).
    """
    from bandtables.api import max_terms_bound
    from bandtables.orbits import chain_classes, stabiliser_chain
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    R = 4
    t0 = time.perf_counter()
    chain = stabiliser_chain(R)
    t1 = time.perf_counter()
    log(f"chain: {len(chain.w1)} box-1 orbits, {len(chain.pair_w):,} pairs, {t1 - t0:.0f} s")
    classes = chain_classes(R, chain)
    t2 = time.perf_counter()
    log(f"classes: {len(classes.reps):,}, {t2 - t1:.0f} s")
    prefixes = [(0, int(w1), int(w2)) for w1, w2 in chain.pair_w.tolist()]
    LT = prefix_rows(prefixes, threads, None if progress is None else progress(len(prefixes)))
    t3 = time.perf_counter()
    log(f"LT: {LT.shape[0]:,} rows of l, {t3 - t2:.0f} s")
    if int(LT.max()) >= max_terms_bound(R):
        raise ValueError("an l exceeds Bregman's bound: a table is wrong")
    LT = LT.astype(np.uint32)
    reps = np.array(classes.reps, dtype=np.int64)
    pair_of = chain.pair_index[chain.index1[reps[:, 1]], reps[:, 2]]
    l = LT[pair_of, reps[:, 3]]
    act0, trans1, trans2 = compact(chain.act0, chain.trans1, chain.trans2)
    arrays = {"act": normalisers(R)[1], "act0": act0, "rep1": chain.rep1.astype(np.uint16),
              "trans1": trans1, "index1": chain.index1.astype(np.int32),
              "rep2": chain.rep2, "trans2": trans2, "pair_index": chain.pair_index, "LT": LT,
              "l": l, "reps": reps.astype(np.uint16),
              "sizes": np.array(classes.sizes, dtype=np.int64)}
    for name, arr in arrays.items():
        tmp = d / f"R4-{name}.npy.tmp"
        with open(tmp, "wb") as fh:
            np.save(fh, np.ascontiguousarray(arr))
        tmp.replace(d / f"R4-{name}.npy")
    timings = {"chain_s": t1 - t0, "classes_s": t2 - t1, "LT_s": t3 - t2,
               "write_s": time.perf_counter() - t3, "classes": len(classes.reps),
               "pairs": len(chain.pair_w)}
    (d / "R4-build.json").write_text(json.dumps(timings, indent=1))
    return timings


@dataclass
class Tables4:
    """The 4x3 tables, memory-mapped read-only (see the module doc)."""

    act: np.ndarray
    act0: np.ndarray
    rep1: np.ndarray
    trans1: np.ndarray
    index1: np.ndarray
    rep2: np.ndarray
    trans2: np.ndarray
    pair_index: np.ndarray
    LT: np.ndarray
    l: np.ndarray
    reps: np.ndarray
    sizes: np.ndarray

    @cached_property
    def kernel_rows(self) -> tuple[np.ndarray, dict]:
        """``(LT16, {"scale": scale})`` of :func:`scaled_rows` (computed once
        per process, about 0.1-0.4 s and 17 MiB private for 4x3), or
        ``(LT, {})`` when the rows do not fit: ``contract4``'s ``LT`` argument
        and keywords."""
        scaled = scaled_rows(self.LT)
        return (self.LT, {}) if scaled is None else (scaled[0], {"scale": scaled[1]})

    def lookup(self, boxes) -> int:
        """``l`` of one band by unordered codes, through the chain (as the kernel reads it)."""
        u0, u1, u2, u3 = (int(x) for x in boxes)
        v1, v2, v3 = (int(self.act[u0, u]) for u in (u1, u2, u3))
        g1 = int(self.trans1[v1])
        i1 = int(self.index1[self.rep1[v1]])
        v2 = int(self.act0[g1, v2])
        g2 = int(self.trans2[i1, v2])
        p = int(self.pair_index[i1, self.rep2[i1, v2]])
        return int(self.LT[p, self.act0[g2, self.act0[g1, v3]]])


def load(directory) -> Tables4:
    """Memory-map the tables :func:`build` wrote."""
    d = Path(directory)
    return Tables4(**{name: np.load(d / f"R4-{name}.npy", mmap_mode="r") for name in ARRAYS})


def completions4(t: Tables4, codes: np.ndarray, x0: tuple[int, int] | None = None) -> int:
    """``Σ_{P2} l(P2)·l(P3)`` for band 1's ordered box codes ``codes (4, 12)``
    (:func:`bandtables.api.band_codes`), exact: twice the sum over stack 1's
    first ``K/2`` choices (:func:`bandtables.partitions.band2_choices`),
    restricted to ``x0 = (start, stop)`` (a slice, also doubled; None: all).

    Raises
    ------
    OverflowError
        If ``K`` terms below Bregman's bound could pass 2^64 in the kernel's
        64-bit prefix sums, or ``K^4`` of them 2^128.
    """
    R = 4
    codes = np.asarray(codes)
    if codes.shape != (R, 3 * R):
        raise ValueError(f"band 1 of 4x3 has codes of shape (4, 12), got {codes.shape}")
    b, c = band2_choices(codes, R)
    K = b.shape[1]
    start, stop = (0, K // 2) if x0 is None else x0
    if not (isinstance(start, int) and isinstance(stop, int) and 0 <= start <= stop <= K // 2):
        raise ValueError(f"x0 must be a range inside 0..{K // 2}, got {x0!r}")
    _check_bounds(K)
    LT, scale = t.kernel_rows
    hi, lo = kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                               t.pair_index, LT, b, c, start, stop, **scale)
    return 2 * ((int(hi) << 64) | int(lo))


def completions4_by_orbits(t: Tables4, codes: np.ndarray) -> tuple[int, int]:
    """The whole of :func:`completions4` (``x0=None``) and the number of
    terms summed for it: one choice per orbit in two stacks under band 1's
    symmetries (:func:`bandtables.symmetry.orbit_completions`: the same sum,
    fewer terms when band 1 has a symmetry fixing a stack than the
    ``K/2 · K³`` of :func:`completions4`)."""
    from bandtables.symmetry import orbit_completions
    codes = np.asarray(codes)
    if codes.shape != (4, 12):
        raise ValueError(f"band 1 of 4x3 has codes of shape (4, 12), got {codes.shape}")
    _check_bounds(len(band2_choices(codes, 4)[0][0]))
    LT, scale = t.kernel_rows

    def kernel(b, c, start, stop, K1):
        return kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                                 t.pair_index, LT, b, c, start, stop, K1=K1, **scale)
    return orbit_completions(codes, 4, kernel)


def _check_bounds(K: int) -> None:
    """Refuse sizes whose 64-bit prefix sums or 128-bit total are not proven safe."""
    from bandtables.api import max_terms_bound
    bound = max_terms_bound(4)
    if bound ** 2 * K >= 2 ** 64 or bound ** 2 * K ** 4 >= 2 ** 128:
        raise OverflowError("the kernel's 64/128-bit sums are not proven safe for these sizes")
