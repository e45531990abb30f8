# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Band tables of a kind with one extra house, one cell per box: build and contract.

Private: :mod:`bandtables.kind_tables` builds every array these routines read
(codes, relabellings, tables), checks dtypes and shapes, and owns the docstrings.

Frames
------
An *ordered code* ``c`` is a box's three column sets, masks ``cm[c, 0..2]``
(bit ``d`` = digit ``d``, 0-based).  ``sig[c]`` is the relabelling sending
code ``c`` to the standard code (its columns to the blocks ``0..R-1``,
``R..2R-1``, ``2R..3R-1``, order kept inside each column set); ``act[c, c']``
is the code of ``sig[c]`` applied to ``c'``, ``smask[c, m]`` the image of mask
``m``.  A band is looked up in the frame of its box 0: the rest
``(act[c_0, c_1], ..)`` and, for box ``s``, the *position* of its house digit
inside its house column's set in that frame (``pos`` in ``0..R-1``), so the
table ``W`` holds ``R^R`` counts per rest: ``W[rest · R^R + Σ_s pos_s R^s]``
fillings of the band with those column sets and those house digits.
"""
from libc.stdint cimport uint16_t, uint64_t, int64_t, int32_t, int8_t, uint8_t

cdef enum:
    MAXR = 3    # largest R (rows of a band, stacks of the grid)
    MAXK = 64   # largest number of band-2 choices per stack (K = 56 for R = 3)


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil


cdef inline int _popcount(unsigned int x) noexcept nogil:
    return __builtin_popcount(x)


cdef inline int _nth_bit(unsigned int m, int p) noexcept nogil:
    """The ``p``-th lowest set bit of ``m`` (0-based), as a digit."""
    cdef int i
    for i in range(p):
        m &= m - 1
    return __builtin_ctz(m)


def build_table(const int32_t[:, ::1] fcodes, const int8_t[:, ::1] fhouse,
                const int8_t[::1] hcol, const uint16_t[:, ::1] cm,
                const int8_t[:, ::1] sig, const int32_t[:, ::1] act,
                const int8_t[:, ::1] stab, const int32_t[:, ::1] stab_act,
                uint16_t[::1] W, int R, int M):
    """Add to ``W`` every relabelling of every filling that puts box 0 in the standard
    code: filling ``f`` (codes ``fcodes[f]``, house digits ``fhouse[f]``, -1 for none) under
    ``stab[g] ∘ sig[fcodes[f, 0]]`` for each ``g`` of the stabiliser of the standard code.
    ``hcol[s]``: the house column (0..2) of box ``s``.  Returns the largest entry."""
    cdef Py_ssize_t F = fcodes.shape[0], G = stab.shape[0], f, g
    cdef int s, c0, code, d, RR = 1
    cdef int has_house = (fhouse[0, 0] >= 0) if F else 0
    cdef int64_t rest, idx, pw
    cdef int pos
    cdef unsigned int hm
    cdef uint16_t top = 0
    cdef int tmp[MAXR]
    for s in range(R):
        RR *= R if has_house else 1
    with nogil:
        for f in range(F):
            c0 = fcodes[f, 0]
            for s in range(1, R):
                tmp[s] = act[c0, fcodes[f, s]]
            for g in range(G):
                rest = 0
                idx = 0
                pw = 1
                for s in range(1, R):
                    rest = rest * M + stab_act[g, tmp[s]]
                if has_house:
                    for s in range(R):
                        d = stab[g, sig[c0, fhouse[f, s]]]          # the house digit, relabelled
                        if s == 0:
                            pos = d - hcol[0] * R
                        else:
                            code = stab_act[g, tmp[s]]
                            hm = cm[code, hcol[s]]
                            pos = _popcount(hm & ((1u << d) - 1))
                        idx += pos * pw
                        pw *= R
                idx += rest * RR
                W[idx] += 1
                if W[idx] > top:
                    top = W[idx]
    return top


def contract(const int32_t[::1] band1, unsigned int H1,
             const int32_t[:, ::1] compa, const int32_t[:, ::1] compb,
             const uint16_t[:, ::1] cm, const int8_t[:, ::1] sig, const int8_t[:, ::1] sig_inv,
             const int32_t[:, ::1] act, const uint16_t[:, ::1] smask,
             const uint16_t[::1] W2, const int8_t[::1] hcol2,
             const uint16_t[::1] W3, const int8_t[::1] hcol3,
             int R, int M, int has_house, int half):
    """Σ over band-2 choices of Σ over house digits of ``W2 · W3`` for one band 1
    (ordered codes ``band1``, house digits mask ``H1``): the completions of bands 2 and 3.
    With ``half`` (bands 2 and 3 read one table with one house column per box, so each
    term equals the term of the choice with bands 2 and 3 exchanged), only the stack-0
    choices whose band-2 code is below its band-3 code are summed, and the sum doubled."""
    cdef int K = compa.shape[1], N = 3 * R
    cdef unsigned int full = (1u << N) - 1
    cdef int RR = 1, s, x, x0, p, a0, b0, code, d
    cdef int na[MAXR][MAXK]                  # band 2's code of stack s, choice x, in its frame
    cdef int nb[MAXR][MAXK]                  # the same for band 3
    cdef unsigned int hbit2[MAXR][MAXK][MAXR]  # band 2: position p -> the actual digit's bit
    cdef unsigned int hmask3[MAXR][MAXK]     # band 3: box s's house column mask (actual digits)
    cdef unsigned int nmask3[MAXR][MAXK]     # the same mask in band 3's frame
    cdef int xs[MAXR]
    cdef int64_t rest2, rest3
    cdef unsigned int cb[MAXR][MAXR]        # band 2, this choice: box s, position p -> bit
    cdef unsigned int hm3[MAXR]             # band 3, this choice: house column masks
    cdef unsigned int curn[MAXR]            # the same in band 3's frame
    cdef uint64_t total = 0
    cdef const uint16_t* row2
    cdef const uint16_t* row3
    if K > MAXK or R > MAXR:
        raise ValueError(f"K = {K} or R = {R} over the kernel's limits")
    if has_house:
        for s in range(R):
            RR *= R
    with nogil:
        for x0 in range(K):
            xs[0] = x0
            a0 = compa[band1[0], x0]
            b0 = compb[band1[0], x0]
            if half and a0 > b0:
                continue
            for s in range(R):
                for x in range(K):
                    code = compa[band1[s], x]
                    na[s][x] = act[a0, code]
                    if has_house:
                        for p in range(R):
                            d = _nth_bit(cm[na[s][x], hcol2[s]], p)
                            hbit2[s][x][p] = 1u << sig_inv[a0, d]
                    code = compb[band1[s], x]
                    nb[s][x] = act[b0, code]
                    hmask3[s][x] = cm[code, hcol3[s]]
                    nmask3[s][x] = smask[b0, hmask3[s][x]]
            for s in range(1, R):               # odometer over stacks 1 .. R-1
                xs[s] = 0
            while True:
                rest2 = 0
                rest3 = 0
                for s in range(1, R):
                    rest2 = rest2 * M + na[s][xs[s]]
                    rest3 = rest3 * M + nb[s][xs[s]]
                row2 = &W2[rest2 * RR]
                row3 = &W3[rest3 * RR]
                if not has_house:
                    total += <uint64_t>row2[0] * row3[0]
                else:
                    for s in range(R):
                        for p in range(R):
                            cb[s][p] = hbit2[s][xs[s]][p]
                        hm3[s] = hmask3[s][xs[s]]
                        curn[s] = nmask3[s][xs[s]]
                    total += _band2(R, 0, H1, 0, 0, 1, cb, hm3, curn, &sig[b0, 0], row2, row3,
                                    full)
                s = R - 1                       # next choice of stacks 1 .. R-1
                while s >= 1:
                    xs[s] += 1
                    if xs[s] < K:
                        break
                    xs[s] = 0
                    s -= 1
                if s < 1:
                    break
    return 2 * total if half else total


cdef uint64_t _band2(int R, int s, unsigned int H1, unsigned int used, int idx, int pw,
                     unsigned int (*cb)[MAXR], const unsigned int* hm3,
                     const unsigned int* curn, const int8_t* sig3, const uint16_t* row2,
                     const uint16_t* row3, unsigned int full) noexcept nogil:
    """Σ over band 2's house digits for boxes ``s..R-1`` (position ``p`` of box ``s`` is the
    digit ``cb[s][p]``, outside ``H1`` and the digits ``used`` so far) of ``W2`` times
    band 3's counts with the digits left (:func:`_band3`)."""
    cdef uint64_t out = 0, w2, sub
    cdef unsigned int bit, H3
    cdef unsigned int cand[MAXR]
    cdef int p, t
    for p in range(R):
        bit = cb[s][p]
        if bit & (H1 | used):
            continue
        if s + 1 < R:
            out += _band2(R, s + 1, H1, used | bit, idx + p * pw, pw * R, cb, hm3, curn,
                          sig3, row2, row3, full)
            continue
        w2 = row2[idx + p * pw]
        if w2 == 0:
            continue
        H3 = full ^ H1 ^ used ^ bit
        for t in range(R):
            cand[t] = H3 & hm3[t]
            if cand[t] == 0:
                break
        else:
            sub = 0
            _band3(R, 0, H3, 0, 0, 1, cand, curn, sig3, row3, &sub)
            out += w2 * sub
    return out


cdef void _band3(int R, int s, unsigned int H3, unsigned int used, int idx, int pw,
                 const unsigned int* cand, const unsigned int* curn, const int8_t* sig3,
                 const uint16_t* row3, uint64_t* out) noexcept nogil:
    """Add to ``*out`` band 3's counts over every way of giving boxes ``s..R-1`` one digit
    of ``H3`` each from their house columns, all distinct (so all of ``H3`` is used);
    ``idx``: the positions of boxes ``0..s-1`` already chosen, ``pw = R^s``."""
    cdef unsigned int m = cand[s] & ~used
    cdef int d, e, pos
    while m:
        d = __builtin_ctz(m)
        m &= m - 1
        e = sig3[d]                              # the digit in band 3's frame
        pos = _popcount(curn[s] & ((1u << e) - 1))
        if s + 1 < R:
            _band3(R, s + 1, H3, used | (1u << d), idx + pos * pw, pw * R, cand, curn, sig3,
                   row3, out)
        else:
            out[0] += row3[idx + pos * pw]
