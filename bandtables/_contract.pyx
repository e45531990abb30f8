# cython: language_level=3
"""The band-table contraction: Σ over band-2 choices of l(band 2)·l(band 3).

Private: :mod:`bandtables.api` validates every argument, proves that the
128-bit accumulator cannot overflow, and owns the docstrings.  Here the
arrays are trusted (dtype, contiguity, index ranges).

What is summed
--------------
Band 1's ordered code in stack ``s`` admits ``K`` band-2 codes; choice
``x`` of stack ``s`` gives band 2 the unordered code ``b[s, x]`` and band 3
``c[s, x]`` (:func:`bandtables.partitions.compatible_pairs`).  A band-2
choice is one ``x_s`` per stack, ``K^R`` in all, and the sum is

    Σ_{x_0 .. x_{R-1}}  l(b[0,x_0], .., b[R-1,x_{R-1}]) · l(c[0,x_0], .., c[R-1,x_{R-1}])

where ``l(u_0, .., u_{R-1})`` (rectangles of a band with those box codes,
rows ordered by column 1) is read as ``T[act[u_0, u_1], .., act[u_0, u_{R-1}]]``:
``act[u_0]`` relabels the digits so that box 0 becomes the standard code
(``l`` is unchanged by relabelling), and ``T`` is the table of ``l`` over
the other ``R - 1`` boxes, flat, ``U^(R-1)`` entries, row-major.

Loop order (why it is fast)
---------------------------
Stack 0 is outermost: it fixes the two rows ``act[b[0,x_0]]`` and
``act[c[0,x_0]]`` (``U`` uint16 each, in L1).  Stacks ``1 .. R-2`` run as
an odometer that keeps the partial flat indices ``ib[s]``, ``ic[s]``
(index of the prefix ``x_1 .. x_s`` in ``T``, scaled by ``U`` per stack);
stack ``R-1`` is the inner loop: two gathers from ``T`` and one multiply.
[For R = 3 and U = 280, T is 78,400 uint64 = 627 KB: it stays in L2, so
the whole 3×3 contraction is a few milliseconds.]
"""
from libc.stdint cimport uint16_t, uint64_t, int64_t, int32_t, uint32_t
from libc.stdlib cimport malloc, free

cdef extern from *:
    """
    typedef unsigned __int128 bt_acc_t;
    """
    # 128-bit unsigned accumulator (gcc/clang extension); Python sees it as
    # two 64-bit halves.  The caller proves max(T)² · K^R < 2^128.
    ctypedef unsigned long long acc_t "bt_acc_t"

ctypedef fused lt_t:       # an entry of LT: uint32 (l itself) or uint16 (l / its row's scale)
    uint32_t
    uint16_t

cdef enum:
    MAX_R = 8  # largest number of stacks the odometer holds

#: x0 values contract4 sorts and sums together by default (see contract4).
BATCH4 = 16


cdef int _contract(const uint16_t* act, const uint64_t* T, const uint16_t* b,
                   const uint16_t* c, int R, int K, int K1, int64_t U, int x0_start, int x0_stop,
                   acc_t* out) noexcept nogil:
    """Add the terms with ``x0_start <= x_0 < x0_stop`` and ``x_1 < K1`` to
    ``*out`` (the other stacks run over all ``K``).  Returns 0."""
    cdef int64_t ib[MAX_R]          # ib[s]: flat index of (x_1 .. x_s) in T for band 2, unscaled tail
    cdef int64_t ic[MAX_R]          # the same for band 3
    cdef int pos[MAX_R]             # odometer digits x_1 .. x_{R-2}
    cdef const uint16_t* rb          # act row of band 2's box 0
    cdef const uint16_t* rc          # act row of band 3's box 0
    cdef const uint16_t* bl = b + (R - 1) * K   # last stack's choices
    cdef const uint16_t* cl = c + (R - 1) * K
    cdef acc_t acc = 0
    cdef int x0, x, s
    for x0 in range(x0_start, x0_stop):
        rb = act + <int64_t>b[x0] * U
        rc = act + <int64_t>c[x0] * U
        ib[0] = 0
        ic[0] = 0
        for s in range(1, R - 1):       # odometer at (0, .., 0)
            pos[s] = 0
            ib[s] = (ib[s - 1] + rb[b[s * K]]) * U
            ic[s] = (ic[s - 1] + rc[c[s * K]]) * U
        while True:
            # invariant: ib[R-2] = Σ_{s=1..R-2} act[b0, b[s, pos[s]]] · U^(R-1-s)
            for x in range(K1 if R == 2 else K):
                acc += <acc_t>T[ib[R - 2] + rb[bl[x]]] * T[ic[R - 2] + rc[cl[x]]]
            s = R - 2                   # advance the odometer, last digit fastest
            while s >= 1:
                pos[s] += 1
                if pos[s] < (K1 if s == 1 else K):
                    break
                pos[s] = 0
                s -= 1
            if s < 1:
                break
            while s <= R - 2:           # recompute the partial indices from s on
                ib[s] = (ib[s - 1] + rb[b[s * K + pos[s]]]) * U
                ic[s] = (ic[s - 1] + rc[c[s * K + pos[s]]]) * U
                s += 1
    out[0] += acc
    return 0


def contract(const uint16_t[:, ::1] act, const uint64_t[::1] T, const uint16_t[:, ::1] b,
             const uint16_t[:, ::1] c, int x0_start, int x0_stop, int K1=-1):
    """Σ of the terms with ``x0_start <= x_0 < x0_stop``, as ``(high, low)`` 64-bit halves.

    ``K1`` (``0 <= K1 <= K``; -1: ``K``): only stack 1's first ``K1`` choices."""
    cdef int R = b.shape[0]
    cdef int K = b.shape[1]
    cdef int64_t U = act.shape[0]
    cdef acc_t acc = 0
    if K1 == -1:
        K1 = K
    if not 0 <= K1 <= K:
        raise ValueError(f"contract: K1 must be in 0..{K}, got {K1}")
    if K1 == 0:
        return 0, 0
    with nogil:
        _contract(&act[0, 0], &T[0], &b[0, 0], &c[0, 0], R, K, K1, U, x0_start, x0_stop, &acc)
    return <uint64_t>(acc >> 64), <uint64_t>acc


# ---------------------------------------------------------------------------
# R = 4: l read through the stabiliser chain (bandtables/tables4.py)
# ---------------------------------------------------------------------------
# The row LT[p] (box 3's code -> l of (0, w1, w2, ·)) and the relabelling
# rows act0[g1], act0[g2] replace the dense table T.  Per batch of x0 (by
# default BATCH4 of them: the x0 of a unit share band 1 and read the same
# tables):
#   x0, x1   : g1 and i1, and boxes 2 and 3 of every choice relabelled by
#              act0[g1] (2K gathers per band, amortised over K² terms); box 3's
#              codes are kept for every (x0, x1) (B·K² uint16 per band);
#   x0,x1,x2 : g2 and the pair p of each band, for all B·K² prefixes;
#   order    : the prefixes sorted by (band 2's g2, p, band 3's g2, p), so
#              that prefixes reading the same act0 and LT rows follow one
#              another in both bands and find them in L1/L2 instead of
#              fetching them again (the terms are a sum: any order gives it);
#   x3       : l2 = LT[p_b, act0[g2_b, v3b]] and l3 likewise, one multiply.
# Each prefix's inner sum has K terms below bound² (checked by the caller:
# bound² · K < 2^64), so it is summed in 64 bits and added to the 128-bit total.
# LT is uint32 (l itself) or uint16 with a scale a row (l = scale[p] · LT[p, v],
# tables4.scaled_rows): half the bytes a row to fetch; the inner sum of 16-bit
# products is then multiplied by scale[p_b] · scale[p_c] once a prefix (128-bit
# product; it equals the unscaled inner sum, so it is below 2^64 as well).

cdef struct _Chain:
    const uint16_t* act        # (U, U): box 0 -> standard code
    const uint16_t* act0       # (n_elements, U): the relabellings the transversals name
    const uint16_t* rep1       # (U,): G0-representative of box 1
    const int32_t* trans1      # (U,): a row of act0 reaching it
    const int32_t* index1      # (U,): row of a representative in rep2/trans2/pair_index
    const uint16_t* rep2       # (n1, U): S1-representative of box 2
    const int32_t* trans2      # (n1, U): a row of act0 reaching it
    const int32_t* pair_index  # (n1, U): pair number of (w1, w2)
    int64_t U
    int64_t n_pairs            # rows of LT
    int64_t n_rows             # rows of act0


cdef void _count_pass(const uint64_t* key, const uint32_t* idx, uint64_t* key_out,
                      uint32_t* idx_out, uint32_t* count, int64_t n, int shift,
                      uint64_t mask) noexcept nogil:
    """One stable counting pass: ``(key, idx)`` ordered by the digit
    ``(key >> shift) & mask`` into ``(key_out, idx_out)``; ``count`` holds
    ``mask + 2`` entries."""
    cdef int64_t i
    cdef uint64_t d
    for i in range(<int64_t>mask + 2):
        count[i] = 0
    for i in range(n):
        count[((key[i] >> shift) & mask) + 1] += 1
    for i in range(<int64_t>mask + 1):
        count[i + 1] += count[i]
    for i in range(n):
        d = (key[i] >> shift) & mask
        key_out[count[d]] = key[i]
        idx_out[count[d]] = idx[i]
        count[d] += 1


cdef void _sort_by_rows(uint64_t* key, uint32_t* idx, uint64_t* tmp, uint32_t* itmp,
                        uint32_t* count, int64_t n, int rbits, int pbits) noexcept nogil:
    """Sort the ``n`` prefixes (``key``, their numbers ``idx``) by the four
    rows they read: band 2's act0 row and pair, then band 3's (the key's
    fields from the top, see :func:`_contract4`), stably, by four counting
    passes, least significant field first: ``O(n)``.  ``count`` holds
    ``2^max(rbits, pbits) + 1`` entries, ``tmp`` and ``itmp`` ``n``."""
    cdef uint64_t rmask = (<uint64_t>1 << rbits) - 1, pmask = (<uint64_t>1 << pbits) - 1
    _count_pass(key, idx, tmp, itmp, count, n, 0, pmask)
    _count_pass(tmp, itmp, key, idx, count, n, pbits, rmask)
    _count_pass(key, idx, tmp, itmp, count, n, pbits + rbits, pmask)
    _count_pass(tmp, itmp, key, idx, count, n, 2 * pbits + rbits, rmask)


cdef struct _Scratch:
    uint32_t* v2b         # (K,) box 2 of each choice, relabelled (one x1 at a time)
    uint32_t* v2c
    uint16_t* v3b         # (B, K, K) box 3 relabelled, by x0 of the batch, x1 and x3
    uint16_t* v3c
    uint64_t* key         # (B·K²,) the four rows a prefix reads, packed (see _contract4)
    uint64_t* tmp         # (B·K²,) the sort's second buffer
    uint32_t* idx         # (B·K²,) the prefix's number (x0 - batch start, x1, x2) in the batch
    uint32_t* itmp        # (B·K²,) the sort's second buffer
    uint32_t* count       # (2^max(rbits, pbits) + 1,) the sort's counts
    void* comp            # (U + K,) lt_t: band 2's rows composed, LT[p_b, act0[g2_b, v]] for
                          # every v, then band 2's factors of one prefix
    int rbits             # bits of an act0 row number, of a pair number
    int pbits
    double min_run        # compose band 2's rows when its run has at least min_run·U terms
                          # (1: the U gathers composing costs are saved again in the run)


cdef extern from *:
    """
    #define BT_PREFETCH(p) __builtin_prefetch((const void*)(p), 0, 1)
    """
    void prefetch "BT_PREFETCH"(const void* p) noexcept nogil


cdef inline void _rows_of(const _Chain* t, const lt_t* LT, const _Scratch* s, int K, int64_t k,
                          const uint16_t** g2c, const lt_t** lc,
                          const uint16_t** wc) noexcept nogil:
    """Band 3's act0 row, LT row and box-3 codes of the ``k``-th sorted prefix."""
    cdef uint64_t key = s.key[k]
    g2c[0] = t.act0 + <int64_t>((key >> s.pbits) & ((<uint64_t>1 << s.rbits) - 1)) * t.U
    lc[0] = LT + <int64_t>(key & ((<uint64_t>1 << s.pbits) - 1)) * t.U
    wc[0] = s.v3c + <int64_t>(s.idx[k] // K) * K


cdef acc_t _sorted_prefixes(const _Chain* t, const lt_t* LT, const uint64_t* scale,
                            const _Scratch* s, int K, int64_t n) noexcept nogil:
    """Σ over the ``n`` sorted prefixes of their inner sums over box 3.

    Band 2's rows change rarely in sorted order (runs of about 40 prefixes
    in the classes measured), so for a long run they are composed once into
    one row indexed by box 3's code, and each prefix's band-2 factors are
    gathered from it into ``fx`` first.  Band 3's rows change more often
    (they are the key's minor fields; runs of 2-12 prefixes), so they are
    fetched ahead in a software pipeline: while prefix ``k`` is summed, the
    act0 row of prefix ``k + 2`` is prefetched whole (one line-spaced address
    a term) and the LT entries of prefix ``k + 1`` (whose act0 row is then in
    cache) term by term; box 3's codes of prefix ``k + 2`` (a row of ``v3b``
    and of ``v3c`` for its ``(x0, x1)``, at random in sorted order) are
    fetched ahead too.  Prefetches change no value."""
    cdef int64_t U = t.U, k, last = n - 1
    cdef int64_t stride = (U + K - 1) // K   # K prefetches cover an act0 row
    cdef int shift_b = s.pbits + s.rbits
    cdef uint64_t pmask = (<uint64_t>1 << s.pbits) - 1
    cdef const uint16_t* g2b
    cdef const lt_t* lb
    cdef const uint16_t* wb
    cdef const uint16_t* g2c
    cdef const lt_t* lc
    cdef const uint16_t* wc
    cdef const uint16_t* g2c1
    cdef const lt_t* lc1
    cdef const uint16_t* wc1
    cdef const uint16_t* g2c2
    cdef const lt_t* lc2
    cdef const uint16_t* wc2
    cdef const uint16_t* wb2
    cdef int j
    cdef uint64_t inner, key, pb
    cdef acc_t acc = 0
    cdef int x3
    cdef int64_t v, run_end = 0          # the first prefix after band 2's current run
    cdef lt_t* fb = <lt_t*>s.comp
    cdef lt_t* fx = fb + U              # (K,) band 2's factors of the prefix
    cdef bint composed = False
    _rows_of(t, LT, s, K, 0, &g2c, &lc, &wc)
    _rows_of(t, LT, s, K, 1 if last >= 1 else last, &g2c1, &lc1, &wc1)
    for k in range(n):
        key = s.key[k] >> shift_b
        pb = key & pmask
        if k >= run_end:                # band 2's rows change: compose them if the run is long
            g2b = t.act0 + <int64_t>(key >> s.pbits) * U
            lb = LT + <int64_t>pb * U
            run_end = k + 1
            while run_end < n and (s.key[run_end] >> shift_b) == key:
                run_end += 1
            composed = (run_end - k) * K >= s.min_run * U
            if composed:
                for v in range(U):
                    fb[v] = lb[g2b[v]]
        wb = s.v3b + <int64_t>(s.idx[k] // K) * K
        _rows_of(t, LT, s, K, k + 2 if k + 2 <= last else last, &g2c2, &lc2, &wc2)
        wb2 = s.v3b + (wc2 - s.v3c)     # box 3's codes of prefix k + 2, both bands, fetched ahead
        for j in range(0, K, 32):       # (a row of (x0, x1) at random: not in cache)
            prefetch(wb2 + j)
            prefetch(wc2 + j)
        if composed:                    # band 2's factors F_b(x3), one gather each
            for x3 in range(K):
                fx[x3] = fb[wb[x3]]
        else:
            for x3 in range(K):
                fx[x3] = lb[g2b[wb[x3]]]
        inner = 0
        if lc1 == lc and lc2 == lc and g2c1 == g2c and g2c2 == g2c:
            for x3 in range(K):         # band 3's next rows are this one's: in cache
                inner += <uint64_t>fx[x3] * lc[g2c[wc[x3]]]
        else:
            for x3 in range(K):
                inner += <uint64_t>fx[x3] * lc[g2c[wc[x3]]]
                prefetch(g2c2 + x3 * stride)
                prefetch(&lc1[g2c1[wc1[x3]]])
        if scale == NULL:
            acc += inner
        else:                           # l = scale[p] · LT[p, v]: the rows' scales, once a prefix
            acc += <acc_t>inner * (scale[pb] * scale[(s.key[k] & pmask)])
        g2c, lc, wc = g2c1, lc1, wc1
        g2c1, lc1, wc1 = g2c2, lc2, wc2
    return acc


cdef int _contract4(const _Chain* t, const lt_t* LT, const uint64_t* scale, const uint16_t* b, const uint16_t* c, int K, int K1,
                    int x0_start, int x0_stop, int batch, _Scratch* s,
                    acc_t* out) noexcept nogil:
    """Add the R = 4 terms with ``x0_start <= x_0 < x0_stop`` and ``x_1 < K1``
    to ``*out``, ``batch`` values of x0 at a time.  Returns 0.

    A prefix's key packs, from the top, band 2's act0 row and pair, band 3's
    act0 row and pair (``rbits`` and ``pbits`` each); sorting the prefixes of
    a batch by it puts prefixes that read the same rows next to one another
    in both bands, and the more x0 a batch holds, the more prefixes share
    each row (the x0 of a unit share band 1, so they read the same tables)."""
    cdef int64_t U = t.U
    cdef const uint16_t* rb
    cdef const uint16_t* rc
    cdef const uint16_t* g1b
    cdef const uint16_t* g1c
    cdef int64_t i1b, i1c, vb, vc, n, KK = <int64_t>K1 * K, row
    cdef uint64_t key
    cdef acc_t acc = 0
    cdef int x0, x1, x2, x, j, nb, first
    cdef int pbits = s.pbits, rbits = s.rbits
    first = x0_start
    while first < x0_stop:
        nb = min(batch, x0_stop - first)
        for j in range(nb):
            x0 = first + j
            rb = t.act + <int64_t>b[x0] * U
            rc = t.act + <int64_t>c[x0] * U
            for x1 in range(K1):
                row = <int64_t>j * K1 + x1          # (x0, x1) in the batch
                vb = rb[b[K + x1]]
                vc = rc[c[K + x1]]
                g1b = t.act0 + <int64_t>t.trans1[vb] * U
                g1c = t.act0 + <int64_t>t.trans1[vc] * U
                i1b = t.index1[t.rep1[vb]] * U
                i1c = t.index1[t.rep1[vc]] * U
                for x in range(K):
                    s.v2b[x] = g1b[rb[b[2 * K + x]]]
                    s.v2c[x] = g1c[rc[c[2 * K + x]]]
                    s.v3b[row * K + x] = g1b[rb[b[3 * K + x]]]
                    s.v3c[row * K + x] = g1c[rc[c[3 * K + x]]]
                for x2 in range(K):
                    key = <uint64_t>t.trans2[i1b + s.v2b[x2]]
                    key = (key << pbits) | <uint64_t>t.pair_index[i1b + t.rep2[i1b + s.v2b[x2]]]
                    key = (key << rbits) | <uint64_t>t.trans2[i1c + s.v2c[x2]]
                    key = (key << pbits) | <uint64_t>t.pair_index[i1c + t.rep2[i1c + s.v2c[x2]]]
                    s.key[row * K + x2] = key
                    s.idx[row * K + x2] = <uint32_t>(row * K + x2)
        n = nb * KK
        _sort_by_rows(s.key, s.idx, s.tmp, s.itmp, s.count, n, rbits, pbits)
        acc += _sorted_prefixes(t, LT, scale, s, K, n)
        first += nb
    out[0] += acc
    return 0


def _bits(int64_t n):
    """Bits of the numbers ``0 .. n - 1`` (at least 1)."""
    cdef int k = 1
    while (<int64_t>1 << k) < n:
        k += 1
    return k


def contract4(const uint16_t[:, ::1] act, const uint16_t[:, ::1] act0,
              const uint16_t[::1] rep1, const int32_t[::1] trans1, const int32_t[::1] index1,
              const uint16_t[:, ::1] rep2, const int32_t[:, ::1] trans2,
              const int32_t[:, ::1] pair_index, const lt_t[:, ::1] LT,
              const uint16_t[:, ::1] b, const uint16_t[:, ::1] c, int x0_start, int x0_stop,
              int batch=BATCH4, int K1=-1, const uint64_t[::1] scale=None, double min_run=1.0):
    """Σ of the R = 4 terms with ``x0_start <= x_0 < x0_stop``, as ``(high, low)`` halves.

    ``K1`` (``0 <= K1 <= K``; -1: ``K``): only stack 1's first ``K1`` choices.

    ``min_run``: band 2's rows are composed (``LT[p, act0[g2, v]]`` for every
    code ``v``, one gather a term instead of two dependent ones) for a run of
    sorted prefixes reading them that has at least ``min_run · U`` terms (0:
    every run; the same sum for every value).

    ``LT`` uint32, or uint16 with ``scale`` (uint64, one a row): ``l = scale[p]
    · LT[p, v]`` (:func:`bandtables.tables4.scaled_rows`; the same sum).

    ``batch`` values of x0 are sorted and summed together (the same sum for
    every ``batch >= 1``; more reuse of the tables' rows, ``batch·K²·24``
    bytes of scratch).  The sort key packs two act0 row numbers and two pair
    numbers into 64 bits, the prefixes of a batch are numbered in 32 bits;
    larger inputs are refused."""
    cdef _Chain t
    cdef _Scratch s
    cdef int K = b.shape[1]
    cdef int64_t n
    cdef acc_t acc = 0
    cdef const uint64_t* sc = NULL
    if scale is not None:
        if scale.shape[0] != LT.shape[0]:
            raise ValueError(f"contract4: scale must have one entry a row of LT ({LT.shape[0]}), "
                             f"got {scale.shape[0]}")
        sc = &scale[0]
    if batch < 1:
        raise ValueError(f"contract4: batch must be at least 1, got {batch}")
    if K1 == -1:
        K1 = K
    if not 0 <= K1 <= K:
        raise ValueError(f"contract4: K1 must be in 0..{K}, got {K1}")
    if K1 == 0 or x0_stop <= x0_start:
        return 0, 0
    batch = max(1, min(batch, x0_stop - x0_start))
    n = <int64_t>batch * K * K
    s.rbits, s.pbits = _bits(act0.shape[0]), _bits(LT.shape[0])
    if 2 * (s.rbits + s.pbits) > 64 or n >= (<int64_t>1 << 32):
        raise ValueError("contract4: the pairs, the act0 rows or batch·K² are too many for its sort key")
    s.v2b = <uint32_t*>malloc(2 * K * sizeof(uint32_t))
    s.v3b = <uint16_t*>malloc(2 * n * sizeof(uint16_t))
    s.key = <uint64_t*>malloc(2 * n * sizeof(uint64_t))
    s.idx = <uint32_t*>malloc(2 * n * sizeof(uint32_t))
    s.count = <uint32_t*>malloc(((<int64_t>1 << max(s.rbits, s.pbits)) + 2) * sizeof(uint32_t))
    s.comp = malloc((act.shape[0] + K) * sizeof(uint32_t))
    s.min_run = min_run
    try:
        if (s.v2b == NULL or s.v3b == NULL or s.key == NULL or s.idx == NULL or s.count == NULL
                or s.comp == NULL):
            raise MemoryError()
        s.tmp, s.itmp = s.key + n, s.idx + n
        s.v2c, s.v3c = s.v2b + K, s.v3b + n
        t.act, t.act0, t.rep1, t.trans1 = &act[0, 0], &act0[0, 0], &rep1[0], &trans1[0]
        t.index1, t.rep2, t.trans2 = &index1[0], &rep2[0, 0], &trans2[0, 0]
        t.pair_index, t.U = &pair_index[0, 0], act.shape[0]
        t.n_pairs, t.n_rows = LT.shape[0], act0.shape[0]
        with nogil:
            _contract4(&t, &LT[0, 0], sc, &b[0, 0], &c[0, 0], K, K1, x0_start, x0_stop, batch,
                       &s, &acc)
    finally:
        free(s.v2b)
        free(s.v3b)
        free(s.key)
        free(s.idx)
        free(s.count)
        free(s.comp)
    return <uint64_t>(acc >> 64), <uint64_t>acc
