"""Count a kind with one extra house of one cell per box by three-band tables (issue 35).

The plain three-band method (:mod:`bandtables.api`) sums, over band 1 and every band 2
whose columns avoid band 1's, ``L(band 2) · L(band 3)``, band 3 forced column by column.
A kind whose extra house has one cell in every box (centre-dot, girandola, asterisk)
adds one thing a band must carry: the digits on its house cells, one per box.  So each
band has a table keyed by its column sets *and* its house digits,

    W_b[P, (h_0, .., h_{R-1})] = fillings of band b with column sets P and digit h_s on the
                                 house cell of box s,

and the number of grids is

    N! · Σ_{band 1, row 1 = 1..N}  Σ_{P2 compatible}  Σ_{H2}  W_2[P2, H2] · W_3[P3, H3],

``H3`` forced like ``P3``: the house digits of the three bands partition ``1..N``.
Row 1 is fixed by relabelling (a house is a house: relabelling maps grids of the kind
onto grids of the kind, freely), which gives the ``N!``.

Bands differ in where their house cells are (girandola, asterisk), so each band has its
own table, built from its own cells; the column sets and house digits of a band are
unchanged by permuting its rows, so two bands whose cells differ only by a row order
share a table.  Tables are read in the frame of a band's box 0 (relabelled to the
standard code, as :mod:`bandtables.partitions` does), every relabelling of every band
filling added in that frame, so no symmetry of the kind beyond relabelling is assumed
anywhere: a band-1 filling stands for itself and its relabellings only.

The kernel is :mod:`bandtables._kinds` (``nogil``; ``R <= 3``).  Plain grids (no extra
house) go through the same code with an empty house, which checks it against the known
9×9 total.

The whole count at once, on forked workers:
:func:`bandtables.kind_count.count_kind_by_band_tables`; in units stored and resumed: the
``kind-tables`` reduction of ``gridcount count`` (:mod:`counting.reduction.kind_band_tables`).

Example
-------
>>> kt = KindBandTables("2x3")
>>> keys, mults = kt.orbits
>>> kt.factor * kt.count(keys, mults)
28200960
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
import time
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from bandtables import _kinds
from bandtables.kind_bands import band_fillings, band_house_columns
from bandtables.kind_cache import cached_arrays, cached_entry
from bandtables.partitions import ordered_codes
from grids.kind import as_kind

__all__ = ["KindBandTables", "default_first", "band_house_columns", "band_fillings",
           "column_symmetries", "METHOD", "band1_orbits"]

#: The version of what this module makes: the band tables (what an entry of a table
#: holds, in which layout) and the band-1 orbits (their canonical keys, their order and
#: their multiplicities).  Bump it with any change that alters either for the same kind:
#: the machine's cache keys every entry by it (:func:`bandtables.kind_cache.cached_arrays`),
#: so an entry made by another version is another entry, never read as this one's; the
#: units of the ``kind-tables`` reduction are ranges of these orbits, and its results
#: name it (:data:`counting.reduction.kind_band_tables.TABLES_VERSION`).
METHOD = 1


# ---------------------------------------------------------------- codes and relabellings
@dataclass(frozen=True)
class _Codes:
    R: int
    N: int
    M: int                   # ordered codes of a box
    cm: np.ndarray           # (M, 3) uint16: column masks of each code
    code_of: np.ndarray      # (2^(2N),) int32: code of (mask col 0 << N | mask col 1), -1 if none
    std: int                 # the standard code: columns 0..R-1, R..2R-1, 2R..3R-1
    sig: np.ndarray          # (M, N) int8: the relabelling sending code c to std
    sig_inv: np.ndarray      # (M, N) int8: its inverse
    smask: np.ndarray        # (M, 2^N) uint16: sig[c] applied to a mask
    act: np.ndarray          # (M, M) int32: code of sig[c] applied to code c'
    stab: np.ndarray         # (G, N) int8: relabellings keeping std (inside its blocks)
    stab_act: np.ndarray     # (G, M) int32: code of stab[g] applied to a code
    compa: np.ndarray        # (M, K) int32: band-2 codes whose columns avoid code c's
    compb: np.ndarray        # (M, K) int32: the band-3 code each forces


def _apply(perms: np.ndarray, N: int) -> np.ndarray:
    """``(P, 2^N)`` uint16: the image of every mask under every permutation ``perms[p]``."""
    masks = np.arange(1 << N)
    bits = (masks[:, None] >> np.arange(N)) & 1                    # (2^N, N)
    return np.ascontiguousarray((bits @ (1 << perms.astype(np.int64)).T).T, dtype=np.uint16)


@lru_cache(maxsize=None)
def _codes(R: int) -> _Codes:
    N = 3 * R
    labels = ordered_codes(R).astype(np.int64)                     # (M, N): column of digit d
    M = len(labels)
    cm = np.stack([((labels == k) << np.arange(N)).sum(1) for k in range(3)], 1).astype(np.uint16)
    code_of = np.full(1 << (2 * N), -1, dtype=np.int32)
    code_of[(cm[:, 0].astype(np.int64) << N) | cm[:, 1]] = np.arange(M, dtype=np.int32)
    block = np.repeat(np.arange(3), R)
    std = int(code_of[(int(((block == 0) << np.arange(N)).sum()) << N)
                      | int(((block == 1) << np.arange(N)).sum())])
    order = np.argsort(labels, axis=1, kind="stable")              # digits column by column
    sig = np.empty((M, N), dtype=np.int8)
    np.put_along_axis(sig, order, np.arange(N, dtype=np.int8)[None, :], axis=1)
    sig_inv = order.astype(np.int8)
    smask = _apply(sig, N)
    act = code_of[(smask[:, cm[:, 0]].astype(np.int64) << N) | smask[:, cm[:, 1]]]
    stab = np.array([np.concatenate([k * R + np.array(p) for k, p in enumerate(ps)])
                     for ps in itertools.product(itertools.permutations(range(R)), repeat=3)],
                    dtype=np.int8)
    smask_g = _apply(stab, N)
    stab_act = code_of[(smask_g[:, cm[:, 0]].astype(np.int64) << N) | smask_g[:, cm[:, 1]]]
    disjoint = np.ones((M, M), dtype=bool)
    for k in range(3):
        disjoint &= (cm[:, None, k] & cm[None, :, k]) == 0
    K = int(disjoint[0].sum())
    compa = np.argwhere(disjoint)[:, 1].reshape(M, K).astype(np.int32)
    full = (1 << N) - 1
    third = full ^ cm[:, None, :] ^ cm[compa]                      # (M, K, 3)
    compb = code_of[(third[..., 0].astype(np.int64) << N) | third[..., 1]].astype(np.int32)
    for a in (act, stab_act, compb):
        assert a.min() >= 0
    def c32(a):
        return np.ascontiguousarray(a, dtype=np.int32)

    return _Codes(R, N, M, cm, code_of, std, sig, sig_inv, smask, c32(act), stab, c32(stab_act),
                  c32(compa), c32(compb))


# ---------------------------------------------------------------- per band
def _band_keys(R: int, cells) -> tuple[np.ndarray, np.ndarray]:
    """``(codes (F, R) int32, house digits (F, R) int8)`` of the band fillings that keep
    the house inside the band (its digits distinct); house digits -1 with no house."""
    c = _codes(R)
    f = band_fillings(R)                                           # int8, kept small
    bits = np.zeros((len(f), c.N), dtype=np.uint16)                # (F, N) column masks
    for r in range(R):
        bits |= np.left_shift(np.uint16(1), f[:, r, :].astype(np.uint16))
    codes = np.stack([c.code_of[(bits[:, 3 * s].astype(np.int64) << c.N) | bits[:, 3 * s + 1]]
                      for s in range(R)], axis=1).astype(np.int32)
    if cells is None:
        return codes, np.full(codes.shape, -1, dtype=np.int8)
    house = np.stack([f[:, r, 3 * s + j] for s, (r, j) in enumerate(cells)], axis=1)
    ok = np.ones(len(f), dtype=bool)
    for a, b in itertools.combinations(range(R), 2):
        ok &= house[:, a] != house[:, b]
    return np.ascontiguousarray(codes[ok]), np.ascontiguousarray(house[ok].astype(np.int8))


def _table(R: int, cells) -> np.ndarray:
    """The table ``W`` of a band with these house cells (module docstring; the frame of
    box 0): ``M^(R-1) · R^R`` uint16 counts (``R^R`` → 1 with no house)."""
    c = _codes(R)
    codes, house = _band_keys(R, cells)
    RR = R ** R if cells is not None else 1
    W = np.zeros(c.M ** (R - 1) * RR, dtype=np.uint16)
    # an entry counts fillings of one (column sets, house digits): at most L of the band,
    # R!·(the largest l, 288 for R = 3), far below 2^16.  Checked: an entry that wrapped
    # would leave the entries' sum short of the fillings added.
    _kinds.build_table(codes, house, _house_cols(cells, R), c.cm, c.sig, c.act,
                       c.stab, c.stab_act, W, R, c.M)
    if int(W.sum(dtype=np.int64)) != len(codes) * len(c.stab):
        raise OverflowError("a band table entry does not fit in 16 bits")
    return W


def _house_cols(cells, R: int) -> np.ndarray:
    return np.array([j for _, j in cells] if cells is not None else [0] * R, dtype=np.int8)


def band1_orbits(R: int, cells) -> tuple[np.ndarray, np.ndarray]:
    """Band 1's orbits, listed (what :attr:`KindBandTables.orbits` lists once per
    machine into its cache, and reads from there after): band 1's distinct keys, each
    relabelled to its canonical form (box 0 the standard code, then the least image
    under the relabellings keeping it): ``(keys (Q,) int64 sorted, multiplicities
    (Q,))``, a key ``(rest << N) | house mask``."""
    c = _codes(R)
    codes, house = _band_keys(R, cells)
    hm = np.zeros(len(codes), dtype=np.int64) if cells is None else \
        (1 << house.astype(np.int64)).sum(axis=1)
    keys = _canonical(c, codes, hm)
    return np.unique(keys, return_counts=True)


def _canonical(c: _Codes, codes: np.ndarray, hm: np.ndarray) -> np.ndarray:
    """The canonical key of bands with box codes ``codes (Q, R)`` and house masks ``hm``:
    relabelled so that box 0 is the standard code, then the least key over the
    relabellings that keep it (every relabelling class of (column sets, house digits)
    has one key)."""
    c0 = codes[:, 0].astype(np.int64)
    rest = [c.act[c0, codes[:, s]] for s in range(1, c.R)]
    h = c.smask[c0, hm]
    smask_g = _apply(c.stab, c.N)
    best = None
    for g in range(len(c.stab)):
        key = np.zeros(len(codes), dtype=np.int64)
        for r in rest:
            key = key * c.M + c.stab_act[g, r]
        key = (key << c.N) | smask_g[g, h]
        best = key if best is None else np.minimum(best, key)
    return best


def _decode(c: _Codes, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(codes (Q, R) int32, house masks (Q,))`` of canonical keys."""
    hm = keys & ((1 << c.N) - 1)
    rest = keys >> c.N
    out = np.empty((len(keys), c.R), dtype=np.int32)
    out[:, 0] = c.std
    for s in range(c.R - 1, 0, -1):
        out[:, s] = rest % c.M
        rest = rest // c.M
    return out, hm


# ---------------------------------------------------------------- column symmetries
def _table_key(cells):
    """What a band's table depends on: its house column in each box and which house
    cells share a row (rows renamed by first use: a row order of the band maps its
    fillings onto those of the reordered band, column sets and house digits kept)."""
    if cells is None:
        return None
    names: dict = {}
    return tuple(j for _, j in cells), tuple(names.setdefault(r, len(names)) for r, _ in cells)


def column_symmetries(R: int, tables) -> list[tuple[int, ...]]:
    """The permutations of the ``3R`` columns that keep the boxes (stacks permuted,
    columns permuted inside each stack) and map each band of ``tables`` (its house
    cells, :func:`band_house_columns`) onto a band with the same table: a sum over
    those bands' fillings is unchanged by them.  ``g[new column] = old column``."""
    out = []
    for order in itertools.permutations(range(R)):
        for inner in itertools.product(itertools.permutations(range(3)), repeat=R):
            g = tuple(3 * order[t] + inner[t][j] for t in range(R) for j in range(3))
            if all(_table_key(_moved(cells, g)) == _table_key(cells) for cells in tables):
                out.append(g)
    return out


def _moved(cells, g):
    """House cells ``(row, column in box)`` by box after the column permutation ``g``."""
    if cells is None:
        return None
    row_at = {3 * s + j: r for s, (r, j) in enumerate(cells)}        # old column -> row
    return tuple(next((row_at[g[3 * t + j]], j) for j in range(3) if g[3 * t + j] in row_at)
                 for t in range(len(cells)))


def _generators(group: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """A few elements of ``group`` (closed under composition) that generate it."""
    def closure(gens):
        seen = {tuple(range(len(group[0])))}
        frontier = list(seen)
        while frontier:
            nxt = []
            for a in frontier:
                for b in gens:
                    ab = tuple(a[i] for i in b)
                    if ab not in seen:
                        seen.add(ab)
                        nxt.append(ab)
            frontier = nxt
        return seen

    gens: list = []
    have = closure(gens)
    for g in group:
        if g not in have:
            gens.append(g)
            have = closure(gens)
    assert have == set(group), "the column symmetries are not a group"
    return gens


def _orbits(c: _Codes, keys: np.ndarray, mult: np.ndarray, gens) -> tuple[np.ndarray, np.ndarray]:
    """Merge the band-1 keys that the column symmetries ``gens`` relate: ``(one key per
    orbit, the orbit's multiplicity)``.  A key whose image is not a band-1 key (its
    house cells moved off band 1's) keeps its own orbit there: merging less is slower,
    never wrong."""
    label = np.arange(len(keys))
    codes, hm = _decode(c, keys)
    cols = c.cm[codes].reshape(len(keys), -1).astype(np.int64)    # (Q, 3R) column masks
    edges = []
    for g in gens:
        moved = cols[:, list(g)]
        new = np.stack([c.code_of[(moved[:, 3 * s] << c.N) | moved[:, 3 * s + 1]]
                        for s in range(c.R)], axis=1)
        img = _canonical(c, new, hm)
        at = np.searchsorted(keys, img).clip(0, len(keys) - 1)
        found = keys[at] == img
        edges.append((np.flatnonzero(found), at[found]))
    while True:
        before = label.copy()
        for a, b in edges:
            low = np.minimum(label[a], label[b])
            np.minimum.at(label, a, low)
            np.minimum.at(label, b, low)
        label = label[label]
        if np.array_equal(before, label):
            break
    roots, inverse = np.unique(label, return_inverse=True)
    return keys[roots], _sum_by(inverse, mult, len(roots))


def _sum_by(inverse: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact int64 sums of ``values`` grouped by ``inverse``."""
    out = np.zeros(n, dtype=np.int64)
    np.add.at(out, inverse, values.astype(np.int64))
    return out


# ---------------------------------------------------------------- the contraction
def default_first(kind) -> int:
    """The band a count enumerates by default: the first (0, 1, 2) whose other two bands
    read one table with one house column per box, so that the contraction sums half the
    stack-0 choices and doubles (band 2 for girandola and asterisk); band 0 if none is."""
    kind = as_kind(kind)
    bands = band_house_columns(kind)
    cells = [None] * 3 if bands is None else list(bands)
    for b in range(3):
        o = [x for x in range(3) if x != b]
        if _table_key(cells[o[0]]) == _table_key(cells[o[1]]):
            return b
    return 0


class KindBandTables:
    """The three-band sum of one kind (module docstring) in parts: the band-1 orbits, the
    other two bands' tables, and the contraction of any orbits, each made on first use.

    A count is ``N! · Σ_q mult[q] · contract(key[q])`` over the orbits
    (:attr:`orbits`); :meth:`count` sums any part of it, so the orbits may be split into
    units counted apart, anywhere, from their keys alone.  The tables and the orbits are
    made once per machine into its cache and memory-mapped read-only by every process
    after (:mod:`bandtables.kind_cache`).

    Parameters
    ----------
    kind : GridKind or str
        Boxes of 2 or 3 rows × 3 columns, at most one extra house with one cell per box.
    first : int or None
        The band (0, 1, 2) whose fillings are enumerated (None: :func:`default_first`).
    columns : sequence of int or None
        The house moved by this box-keeping column permutation (``columns[new] = old``),
        as :func:`bandtables.kind_count.count_kind_by_band_tables` says.

    Attributes
    ----------
    kind : GridKind
    R : int
        Rows of a band (2 for 6×6, 3 for 9×9).
    first : int
        The band enumerated; ``others`` the two read from tables, in order.
    cells : list
        Each band's house cells, ``(row in the band, column in the box)`` by box (house
        moved by ``columns``), or None in each for a kind with no extra house.
    has_house : bool

    Raises
    ------
    ValueError
        For a kind :func:`band_house_columns` refuses, ``first`` not 0, 1, 2, or
        ``columns`` not a column move that keeps the boxes.
    """

    def __init__(self, kind, first: int | None = None, columns=None):
        self.kind = as_kind(kind)
        bands = band_house_columns(self.kind)
        self.first = default_first(self.kind) if first is None else first
        if self.first not in (0, 1, 2):
            raise ValueError(f"first must be a band 0, 1 or 2, got {first!r}")
        self.R = R = self.kind.shape.box_rows
        if columns is not None:
            g = tuple(int(v) for v in columns)
            if g not in column_symmetries(R, []):
                raise ValueError(f"columns must permute the stacks and the columns inside "
                                 f"them, got {columns!r}")
            bands = None if bands is None else tuple(_moved(cells, g) for cells in bands)
        self.has_house = bands is not None
        self.cells = [None] * 3 if bands is None else list(bands)
        self.others = [b for b in range(3) if b != self.first]
        self._codes = _codes(R)
        self._tables: dict | None = None
        #: Wall seconds this process took to make the tables (None until it has).
        self.build_seconds: float | None = None
        self._orbits: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def factor(self) -> int:
        """``N!``: row 1 fixed by relabelling."""
        return math.factorial(self._codes.N)

    @property
    def orbits(self) -> tuple[np.ndarray, np.ndarray]:
        """``(keys, multiplicities)``, int64 arrays sorted by key: one canonical band-1
        key per orbit under the column moves that keep the other bands' tables, and the
        band-1 fillings (row 1 fixed) the orbit stands for.  Enumerated once per machine
        (9×9: about 20 s and 1.4 GiB at the peak), read-only maps of the cache after
        (:mod:`bandtables.kind_cache`)."""
        if self._orbits is None:
            first, others = self.cells[self.first], [self.cells[b] for b in self.others]

            def enumerate_orbits():
                keys, mult = band1_orbits(self.R, first)
                gens = _generators(column_symmetries(self.R, others))
                keys, mult = _orbits(self._codes, keys, mult, gens)
                return {"keys": keys, "mults": mult}

            got = cached_arrays("orbits", self._orbits_key(), enumerate_orbits, method=METHOD)
            self._orbits = got["keys"], got["mults"]
        return self._orbits

    def _orbits_key(self) -> tuple:
        """What the orbits depend on: band 1's house cells, the other bands' tables' keys."""
        return (self.R, self.cells[self.first],
                tuple(_table_key(self.cells[b]) for b in self.others))

    def orbits_cached(self) -> bool:
        """Whether :attr:`orbits` is quick now: read by this process already, or
        made into this machine's cache (not checked: :attr:`orbits` checks it)."""
        return self._orbits is not None or \
            cached_entry("orbits", self._orbits_key(), method=METHOD) is not None

    def _table_keys(self) -> set:
        """What the other two bands' tables depend on: one key a distinct table."""
        return {(self.R, _table_key(self.cells[b])) for b in self.others}

    @property
    def n_tables(self) -> int:
        """The distinct tables the other two bands read (1 where their house cells
        differ only by a row order)."""
        return len(self._table_keys())

    def tables_cached(self) -> bool:
        """Whether :meth:`build_tables` is quick now: made or mapped by this process
        already, or every table in this machine's cache (not checked: it checks)."""
        return self._tables is not None or all(
            cached_entry("table", key, method=METHOD) is not None for key in self._table_keys())

    def build_tables(self) -> None:
        """Map the other two bands' tables now (on first use otherwise), made first if
        this machine's cache has none (9×9: about a minute and 152 MB a table;
        :mod:`bandtables.kind_cache`), one table for bands whose house cells differ only
        by a row order."""
        if self._tables is not None:
            return
        t0 = time.perf_counter()
        made: dict = {}

        def table(b):
            key = _table_key(self.cells[b])
            if key not in made:
                made[key] = cached_arrays("table", (self.R, key),
                                          lambda: {"W": _table(self.R, self.cells[b])},
                                          method=METHOD)["W"]
            return made[key]

        b2, b3 = self.others
        t = dict(W2=table(b2), hc2=_house_cols(self.cells[b2], self.R), W3=table(b3),
                 hc3=_house_cols(self.cells[b3], self.R))
        # bands 2 and 3 alike (one table, one house column per box): each term equals the
        # term with the two bands exchanged, so half the stack-0 choices are summed, doubled
        t["half"] = int(t["W2"] is t["W3"] and np.array_equal(t["hc2"], t["hc3"]))
        self._tables = t
        self.build_seconds = time.perf_counter() - t0

    @property
    def tables(self) -> Mapping[str, np.ndarray]:
        """The other two bands' tables, ``{"W2": ..., "W3": ...}`` (one array twice
        for bands whose house cells differ only by a row order): read-only maps of
        this machine's cache, made on first use (:meth:`build_tables`)."""
        self.build_tables()
        return MappingProxyType({"W2": self._tables["W2"], "W3": self._tables["W3"]})

    @property
    def table_bytes(self) -> int:
        """Bytes of the distinct tables, without making them: ``M^(R-1) · R^R`` uint16
        entries each (9×9: 152 MB)."""
        entries = self._codes.M ** (self.R - 1) * (self.R ** self.R if self.has_house else 1)
        return self.n_tables * entries * 2

    @property
    def worker_bytes(self) -> int:
        """Bytes a process holds to make and keep the tables: the tables, the band
        fillings (kept) and, while a table is made, their column masks, codes and house
        digits (9×9: about 330 MB; measured 345 MB resident for centre-dot)."""
        F, N, R = len(band_fillings(self.R)), self._codes.N, self.R
        return self.table_bytes + F * (R * N + 2 * N + 4 * R + R + 8)

    def band1_sets(self, key: int) -> tuple[list[int], int]:
        """``(column masks, house mask)`` of a band 1 of canonical key ``key``: the digit
        set (bit ``d`` for digit ``d``, 0-based) of each of its ``N`` columns and of its
        house cells, in the key's frame (all that its completions depend on)."""
        codes, hm = _decode(self._codes, np.array([key], dtype=np.int64))
        return [int(m) for m in self._codes.cm[codes[0]].reshape(-1)], int(hm[0])

    def count(self, keys, mults) -> int:
        """``Σ mults[i] · (completions of bands 2 and 3 of a band 1 of key keys[i])``,
        an exact int: a part of the count before the factor ``N!``."""
        keys = np.asarray(keys, dtype=np.int64).reshape(-1)
        if not len(keys):
            return 0
        self.build_tables()
        c, t = self._codes, self._tables
        band1, h1 = _decode(c, keys)
        total = 0
        for q, m in enumerate(mults):
            total += int(m) * int(_kinds.contract(
                band1[q], int(h1[q]), c.compa, c.compb, c.cm, c.sig, c.sig_inv, c.act,
                c.smask, t["W2"], t["hc2"], t["W3"], t["hc3"], c.R, c.M, int(self.has_house),
                t["half"]))
        return total
