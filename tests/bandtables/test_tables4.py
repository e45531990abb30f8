"""Specification of the 4x3 band tables (bandtables/orbits.py, tables4.py,
_rect.pyx, and contract4 in _contract.pyx).

Fast tests check the pieces on small cases; the tests on the real 4x3
tables read them from this machine's cache (:mod:`bandtables.cache`: built
by the first 4x3 count, or ``python -c "from bandtables.cache import
tables4_dir; tables4_dir()"``); they are slow, and where the cache holds
none the ``tables4_cache`` fixture (``tests/conftest.py``) builds it first,
about 5 minutes of CPU, so a fresh clone runs them too.

Published reference: 144,578 band-1 column-set classes of 12×12 Sudoku
with boxes of 4 × 3 (Silver), the same classification that gives Russell's
44 for 9×9.
"""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from bandtables import kernels
from bandtables.kernels import count_l
from bandtables.orbits import chain_classes
from bandtables.tables import class_table, pattern_column_sets
from bandtables.tables4 import Tables4, block_masks, class_l, compact, scaled_rows

SILVER_4X3_CLASSES = 144_578


def masks_of(sets):
    return np.array([sum(1 << (d - 1) for d in s) for s in sets], dtype=np.uint32)


def brute_force_l(column_sets):
    N, R = len(column_sets), len(column_sets[0])
    sets = [set(s) for s in column_sets]
    rows = [p for p in itertools.permutations(range(1, N + 1))
            if all(p[c] in sets[c] for c in range(N))]
    return sum(1 for choice in itertools.combinations(rows, R)
               if all(len({r[c] for r in choice}) == R for c in range(N)))


# ---------------------------------------------------------------------------
# The l counter
# ---------------------------------------------------------------------------

def test_count_l_equals_brute_force_for_every_R_2_class():
    for rep in class_table(2).reps:
        sets = pattern_column_sets(rep, 2)
        assert count_l(masks_of(sets), 2) == brute_force_l(sets)


def test_count_l_equals_the_dlx_table_for_every_R_3_class():
    ct = class_table(3)
    assert class_l(ct.reps, 3, threads=2).tolist() == ct.l.tolist()


@pytest.mark.slow
def test_count_l_equals_the_engine_on_a_4x3_band():
    from grids.rectangle import ColumnSetRectangles
    sets = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)] * 4     # the engine: ~20 s
    rect = ColumnSetRectangles(4, 12)
    assert count_l(masks_of(sets), 4) == rect.count(sets, order_rows=True)


def test_count_l_of_4x3_bands_is_unchanged_by_moves():
    """Relabelling digits and permuting columns anywhere keep l (R = 4)."""
    rng = random.Random(4)
    masks = block_masks(4)
    for _ in range(5):
        boxes = [rng.randrange(5775) for _ in range(4)]
        sets = pattern_column_sets(boxes, 4)
        relabel = dict(zip(range(1, 13), rng.sample(range(1, 13), 12)))
        moved = [tuple(relabel[d] for d in s) for s in rng.sample(sets, 12)]
        base = count_l(np.ascontiguousarray(masks[boxes].ravel()), 4)
        assert count_l(masks_of(moved), 4) == base > 0


def test_a_prefix_row_equals_the_counter_code_by_code():
    """l(b0, b1, b2, v) for all 5,775 codes v at once, against count_l."""
    from bandtables.tables4 import prefix_rows
    rng = random.Random(12)
    prefix = (0, rng.randrange(5775), rng.randrange(5775))
    row = prefix_rows([prefix])[0]
    masks = block_masks(4)
    for v in rng.sample(range(5775), 12):
        assert int(row[v]) == count_l(np.ascontiguousarray(masks[list(prefix) + [v]].ravel()), 4)
    assert int(row.min()) > 0          # every band with these column sets exists (König)


def test_block_masks_partition_the_digits():
    m = block_masks(4).astype(np.int64)
    assert np.all((m[:, 0] | m[:, 1] | m[:, 2]) == (1 << 12) - 1)
    assert np.all((m[:, 0] & m[:, 1]) == 0) and np.all((m[:, 1] & m[:, 2]) == 0)


# ---------------------------------------------------------------------------
# Classes through the chain
# ---------------------------------------------------------------------------

def test_the_chain_finds_the_44_classes_of_R_3_with_their_sizes():
    cc, ct = chain_classes(3), class_table(3)
    assert len(cc.reps) == 44
    assert sorted(cc.sizes) == sorted(ct.sizes)
    # each chain class is one table class
    U = ct.U
    assert len({int(ct.rest_class[rep[1] * U + rep[2]]) for rep in cc.reps}) == 44


# ---------------------------------------------------------------------------
# The R = 4 kernel, on synthetic tables
# ---------------------------------------------------------------------------

class SyntheticChain:
    """A stabiliser chain's arrays, random, with the lookup the chain defines
    (bandtables/tables4.py, steps 1-4): the reference the composed tables
    and the kernel are checked against."""

    def __init__(self, rng, U=7, G=40, n1=3, P=4, high=1000):
        self.act = rng.integers(0, U, (U, U), dtype=np.uint16)
        self.act0 = rng.integers(0, U, (G, U), dtype=np.uint16)
        self.rep1 = rng.integers(0, U, U, dtype=np.uint16)
        self.trans1 = rng.integers(0, G, U, dtype=np.int32)
        self.index1 = rng.integers(0, n1, U, dtype=np.int32)
        self.rep2 = rng.integers(0, U, (n1, U), dtype=np.uint16)
        self.trans2 = rng.integers(0, G, (n1, U), dtype=np.int32)
        self.pair_index = rng.integers(0, P, (n1, U), dtype=np.int32)
        self.LT = rng.integers(0, high, (P, U), dtype=np.uint32)

    def lookup(self, boxes) -> int:
        u0, u1, u2, u3 = (int(x) for x in boxes)
        v1, v2, v3 = (int(self.act[u0, u]) for u in (u1, u2, u3))
        g1 = int(self.trans1[v1])
        i1 = int(self.index1[self.rep1[v1]])
        v2 = int(self.act0[g1, v2])
        g2 = int(self.trans2[i1, v2])
        p = int(self.pair_index[i1, self.rep2[i1, v2]])
        return int(self.LT[p, self.act0[g2, self.act0[g1, v3]]])

    def tables(self) -> Tables4:
        act0, trans1, trans2 = compact(self.act0, self.trans1, self.trans2)
        return Tables4(act=self.act, act0=act0, rep1=self.rep1, trans1=trans1,
                       index1=self.index1, rep2=self.rep2, trans2=trans2,
                       pair_index=self.pair_index, LT=self.LT, l=np.zeros(1, np.uint32),
                       reps=np.zeros((1, 4), np.uint16), sizes=np.zeros(1, np.int64))


@pytest.mark.parametrize("seed", range(3))
def test_the_compacted_tables_give_the_chain_lookup_on_every_band(seed):
    chain = SyntheticChain(np.random.default_rng(seed))
    t = chain.tables()
    assert len(t.act0) < len(chain.act0)           # rows no transversal names are gone
    for boxes in itertools.product(range(7), repeat=4):
        assert t.lookup(boxes) == chain.lookup(boxes)


@pytest.mark.parametrize("seed", range(4))
def test_contract4_equals_the_chain_lookup_term_by_term(seed):
    rng = np.random.default_rng(seed)
    chain = SyntheticChain(rng)
    t = chain.tables()
    K = 5
    b = rng.integers(0, 7, (4, K), dtype=np.uint16)
    c = rng.integers(0, 7, (4, K), dtype=np.uint16)
    expected = sum(chain.lookup(b[range(4), x]) * chain.lookup(c[range(4), x])
                   for x in itertools.product(range(K), repeat=4) if 1 <= x[0] < 3)
    hi, lo = kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                                 t.pair_index, t.LT, b, c, 1, 3)
    assert (int(hi) << 64 | int(lo)) == expected


def written_out_sum(chain, b, c, x0_start, x0_stop) -> int:
    """Σ over x0 in the range and every x1, x2, x3 of l(band 2)·l(band 3), term by term."""
    K = b.shape[1]
    return sum(chain.lookup(b[range(4), x]) * chain.lookup(c[range(4), x])
               for x in itertools.product(range(x0_start, x0_stop), *[range(K)] * 3))


@pytest.mark.parametrize("seed, U, G, P", [(10, 7, 40, 4), (11, 40, 300, 60), (12, 60, 500, 200)])
@pytest.mark.parametrize("batch", [1, 2, 3, 16])
def test_contract4_gives_the_same_sum_for_every_batch_of_x0(seed, U, G, P, batch):
    """The x0 of a batch are sorted by the rows they read and summed together
    (batches of 1, 2, 3 and 16 over 5 values of x0: the last batch short);
    small tables (many prefixes read one row) and larger ones (rows change
    from prefix to prefix) give the written-out sum alike."""
    rng = np.random.default_rng(seed)
    chain = SyntheticChain(rng, U=U, G=G, P=P, high=1 << 29)   # K·high² < 2^64
    t = chain.tables()
    K = 6
    b = rng.integers(0, U, (4, K), dtype=np.uint16)
    c = rng.integers(0, U, (4, K), dtype=np.uint16)
    hi, lo = kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                               t.pair_index, t.LT, b, c, 1, 6, batch=batch)
    assert (int(hi) << 64 | int(lo)) == written_out_sum(chain, b, c, 1, 6)


@pytest.mark.parametrize("K1", [0, 1, 4, 6])
@pytest.mark.parametrize("batch", [1, 16])
def test_contract4_with_K1_sums_stack_2s_first_choices_only(K1, batch):
    """``K1``: stack 2's (row 1's) first K1 choices only, the other stacks
    over all K, against the written-out sum."""
    rng = np.random.default_rng(13)
    chain = SyntheticChain(rng, U=40, G=300, P=60, high=1 << 29)
    t = chain.tables()
    K = 6
    b = rng.integers(0, 40, (4, K), dtype=np.uint16)
    c = rng.integers(0, 40, (4, K), dtype=np.uint16)
    expected = sum(chain.lookup(b[range(4), x]) * chain.lookup(c[range(4), x])
                   for x in itertools.product(range(1, 5), range(K1), range(K), range(K)))
    hi, lo = kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                               t.pair_index, t.LT, b, c, 1, 5, batch=batch, K1=K1)
    assert (int(hi) << 64 | int(lo)) == expected


def test_contract4_refuses_a_batch_below_one():
    chain = SyntheticChain(np.random.default_rng(0))
    t = chain.tables()
    b = np.zeros((4, 3), np.uint16)
    with pytest.raises(ValueError, match="batch"):
        kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                          t.pair_index, t.LT, b, b, 0, 1, batch=0)


def test_scaled_rows_split_each_row_into_its_gcd_and_16_bit_quotients():
    rng = np.random.default_rng(20)
    q = rng.integers(0, 1 << 16, (5, 30), dtype=np.uint64)
    s = rng.integers(1, 1 << 13, 5, dtype=np.uint64)
    LT = (q * s[:, None]).astype(np.uint32)
    LT[3] = 0                                           # a row of zeros splits too
    LT16, scale = scaled_rows(LT)
    assert LT16.dtype == np.uint16 and scale.dtype == np.uint64
    assert np.array_equal(LT16 * scale[:, None], LT)
    assert all(math.gcd(*row) == 1 for row in LT16.tolist() if any(row))


def test_scaled_rows_refuse_a_row_whose_quotients_pass_16_bits():
    LT = np.array([[6, 12], [1, 1 << 16]], dtype=np.uint32)    # row 1: gcd 1, 65,536
    assert scaled_rows(LT) is None
    assert scaled_rows(LT[:1])[0].tolist() == [[1, 2]]


def scaled_chain(rng, U, G, P):
    """A synthetic chain whose LT rows are 16-bit quotients times a scale a row
    (below 2^29, so the uint32 kernel's bound holds too)."""
    chain = SyntheticChain(rng, U=U, G=G, P=P)
    q = rng.integers(0, 1 << 16, (P, U), dtype=np.uint64)
    chain.LT = (q * rng.integers(1, 1 << 13, P, dtype=np.uint64)[:, None]).astype(np.uint32)
    return chain


@pytest.mark.parametrize("seed, U, G, P", [(30, 7, 40, 4), (31, 40, 300, 60)])
@pytest.mark.parametrize("batch", [1, 3, 16])
@pytest.mark.parametrize("min_run", [0.0, 1.0, 1e9])
def test_contract4_on_16_bit_rows_with_scales_gives_the_uint32_sum(seed, U, G, P, batch, min_run):
    """The same chain summed through uint32 LT and through (LT16, scale):
    equal sums, and equal to the written-out sum (small tables: rows shared
    by many prefixes; larger: rows changing from prefix to prefix), with
    band 2's rows composed for every run (``min_run`` 0), for the long ones
    (1, the default) and for none (10⁹)."""
    rng = np.random.default_rng(seed)
    chain = scaled_chain(rng, U, G, P)
    t = chain.tables()
    LT16, scale = scaled_rows(t.LT)
    K = 6
    b = rng.integers(0, U, (4, K), dtype=np.uint16)
    c = rng.integers(0, U, (4, K), dtype=np.uint16)
    sums = [kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                              t.pair_index, LT, b, c, 1, 6, batch=batch, min_run=min_run, **kw)
            for LT, kw in ((t.LT, {}), (LT16, {"scale": scale}))]
    assert sums[0] == sums[1]
    assert (int(sums[1][0]) << 64 | int(sums[1][1])) == written_out_sum(chain, b, c, 1, 6)


def test_contract4_refuses_a_scale_not_one_a_row():
    chain = scaled_chain(np.random.default_rng(0), 7, 40, 4)
    t = chain.tables()
    LT16, scale = scaled_rows(t.LT)
    b = np.zeros((4, 3), np.uint16)
    with pytest.raises(ValueError, match="scale"):
        kernels.contract4(t.act, t.act0, t.rep1, t.trans1, t.index1, t.rep2, t.trans2,
                          t.pair_index, LT16, b, b, 0, 1, scale=scale[:-1])


# ---------------------------------------------------------------------------
# The real 4x3 tables (built beforehand; see the module doc)
# ---------------------------------------------------------------------------

def needs_tables(test):
    """Slow: the real tables (built into this machine's cache first if it has none)."""
    return pytest.mark.slow(test)


@pytest.fixture(scope="module")
def t4(tables4_cache):
    from bandtables.tables4 import load
    return load(tables4_cache)


@needs_tables
def test_4x3_has_silvers_classes_and_sizes_sum_to_every_pattern(t4):
    assert len(t4.reps) == SILVER_4X3_CLASSES
    assert sum(int(s) for s in t4.sizes) == (math.factorial(12) // math.factorial(4) ** 3) ** 4


@needs_tables
def test_the_4x3_lookup_equals_the_counter_on_random_bands(t4):
    rng = random.Random(44)
    masks = block_masks(4)
    for _ in range(40):
        boxes = [rng.randrange(5775) for _ in range(4)]
        assert t4.lookup(boxes) == count_l(np.ascontiguousarray(masks[boxes].ravel()), 4)


@needs_tables
def test_the_4x3_lookup_is_unchanged_by_box_order(t4):
    rng = random.Random(45)
    for _ in range(20):
        boxes = [rng.randrange(5775) for _ in range(4)]
        values = {t4.lookup(p) for p in itertools.permutations(boxes)}
        assert len(values) == 1


@needs_tables
def test_contract4_on_the_real_tables_equals_the_direct_counter(t4):
    """A corner of a real unit: the first 3 band-2 choices of every stack,
    summed by the kernel through the tables and term by term by count_l."""
    from bandtables.api import band_codes
    from bandtables.partitions import band2_choices
    masks = block_masks(4)
    rep = t4.reps[1234].tolist()
    codes = band_codes(pattern_column_sets(rep, 4), 4)
    b, c = band2_choices(codes, 4)
    b, c = np.ascontiguousarray(b[:, :3]), np.ascontiguousarray(c[:, :3])

    def l(boxes):
        return count_l(np.ascontiguousarray(masks[list(boxes)].ravel()), 4)

    expected = sum(l(b[range(4), x]) * l(c[range(4), x])
                   for x in itertools.product(range(1, 2), range(3), range(3), range(3)))
    hi, lo = kernels.contract4(t4.act, t4.act0, t4.rep1, t4.trans1, t4.index1, t4.rep2,
                                 t4.trans2, t4.pair_index, t4.LT, b, c, 1, 2)
    assert (int(hi) << 64 | int(lo)) == expected


@needs_tables
def test_the_real_4x3_rows_fit_16_bits_and_count_a_slice_as_the_uint32_rows(t4):
    """The kernel reads the real LT as 16-bit rows with scales (they fit:
    computed, not assumed), and one slice of a real unit sums the same
    through them as through LT itself."""
    from bandtables.api import band_codes
    from bandtables.partitions import band2_choices
    LT16, kw = t4.kernel_rows
    assert LT16.dtype == np.uint16 and set(kw) == {"scale"}
    b, c = band2_choices(band_codes(pattern_column_sets(t4.reps[1234].tolist(), 4), 4), 4)
    sums = [kernels.contract4(t4.act, t4.act0, t4.rep1, t4.trans1, t4.index1, t4.rep2,
                              t4.trans2, t4.pair_index, LT, b, c, 5, 6, **scale)
            for LT, scale in ((t4.LT, {}), (LT16, kw))]
    assert sums[0] == sums[1] != (0, 0)


@needs_tables
def test_class_l_is_the_table_at_the_representative(t4):
    rng = random.Random(46)
    masks = block_masks(4)
    for k in rng.sample(range(len(t4.reps)), 10):
        rep = t4.reps[k].tolist()
        assert int(t4.l[k]) == t4.lookup(rep) == count_l(np.ascontiguousarray(masks[rep].ravel()), 4)
