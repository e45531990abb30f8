# cython: language_level=3
"""A whole row of l at once: l(b0, b1, b2, v) for every box-4 code v (R = 4).

Private: :func:`bandtables.tables4.prefix_rows` prepares the tables and
calls :func:`prefix_row`.

Why a row costs about as much as one l
--------------------------------------
Fill the first three boxes of a 4-row band (columns 0..8, column 0 read
increasing downwards): a partial rectangle ``Q``.  Each digit lies once in
each box, so it is missing from exactly one row of ``Q``: the *row code*
``ρ(Q)``, four 3-sets partitioning the 12 digits.  Box 4 with code ``v``
(blocks ``V0, V1, V2`` of 4 digits) then completes ``Q`` exactly when every
row's missing set meets every block once (cell (r, j) must hold a digit of
``ρ_r ∩ V_j``, and the 3 cells of row r take its 3 digits), and then in one
way.  So

    l(b0, b1, b2, v) = #{Q : ρ(Q) ⊥ v} = Σ_{ρ ⊥ v} N(ρ)

with ``N(ρ)`` the number of ``Q`` of row code ``ρ``.  ``Q`` is enumerated
once (depth first, column by column, each column's digits given to the
rows), ``N`` is kept by the rank of ``ρ`` (369,600 ordered row codes), and
every ``ρ`` with ``N > 0`` is added to its 216 orthogonal codes ``v``
(row 0's digits to blocks 0, 1, 2 in order, the other rows permuted:
6³ ways, blocks unordered).
"""
from libc.stdint cimport uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil
    int __builtin_popcount(unsigned int x) nogil

cdef enum:
    N = 12           # digits
    ROWS = 4         # rows of a band
    FULL = 0xFFF     # every digit
    N_RHO = 369600   # ordered row codes: C(12,3)·C(9,3)·C(6,3)

cdef int64_t _C2[13]     # C(n, 2)
cdef int64_t _C3[13]     # C(n, 3)
cdef unsigned char _POP[FULL + 1]   # bits set in each 12-bit mask
cdef int _n
for _n in range(FULL + 1):
    _POP[_n] = bin(_n).count("1")
for _n in range(13):
    _C2[_n] = _n * (_n - 1) // 2
    _C3[_n] = _n * (_n - 1) * (_n - 2) // 6


cdef inline int64_t _rank3(uint32_t m) noexcept nogil:
    """Colex rank of a 3-subset (bit mask) among all 3-subsets: C(a,1)+C(b,2)+C(c,3)."""
    cdef int a = __builtin_ctz(m)
    m &= m - 1
    cdef int b = __builtin_ctz(m)
    m &= m - 1
    cdef int c = __builtin_ctz(m)
    return a + _C2[b] + _C3[c]


cdef inline int64_t _rank3_within(uint32_t m, uint32_t left) noexcept nogil:
    """Colex rank of the 3-subset ``m`` of ``left`` with ``left``'s digits
    renumbered 0, 1, ...: each digit's new number is how many digits of
    ``left`` lie below it (what BMI2's ``pext(m, left)`` computes, written
    portably so that no instruction beyond x86-64's baseline is needed)."""
    cdef uint32_t low = m & (~m + 1)
    cdef int a = _POP[left & (low - 1)]
    m ^= low
    low = m & (~m + 1)
    cdef int b = _POP[left & (low - 1)]
    m ^= low
    cdef int c = _POP[left & ((m & (~m + 1)) - 1)]
    return a + _C2[b] + _C3[c]


cdef inline int64_t _rank_rho(uint32_t r0, uint32_t r1, uint32_t r2) noexcept nogil:
    """Rank of the ordered row code (r0, r1, r2, rest): r1 and r2 renumbered
    within the digits the earlier rows leave, ranks combined in base
    C(9,3) = 84 and C(6,3) = 20."""
    cdef uint32_t left1 = FULL & ~r0
    cdef uint32_t left2 = left1 & ~r1
    return (_rank3(r0) * 84 + _rank3_within(r1, left1)) * 20 + _rank3_within(r2, left2)


def rank_rho(uint32_t r0, uint32_t r1, uint32_t r2):
    """Python view of the rank (for building the decoding table)."""
    return _rank_rho(r0, r1, r2)


cdef struct _Fill:
    uint32_t cols[9]      # digit mask of each of the 9 prefix columns
    uint32_t used[ROWS]   # digits already in each row
    uint64_t* counts      # N by rank of the row code
    uint64_t leaves       # partial rectangles found


cdef void _column(_Fill* f, int c) noexcept nogil:
    if c == 9:
        f.counts[_rank_rho(FULL & ~f.used[0], FULL & ~f.used[1], FULL & ~f.used[2])] += 1
        f.leaves += 1
        return
    _place(f, c, 0, f.cols[c])


cdef void _place(_Fill* f, int c, int r, uint32_t left) noexcept nogil:
    """Give column c's digits ``left`` to rows r..3, one each, none twice in a row."""
    cdef uint32_t options, b
    if r == ROWS:
        _column(f, c + 1)
        return
    options = left & ~f.used[r]
    while options:
        b = options & (~options + 1)
        options ^= b
        f.used[r] |= b
        _place(f, c, r + 1, left ^ b)
        f.used[r] ^= b


cdef void _scatter(const uint16_t* decode, const uint64_t* counts, const uint32_t* pw,
                   const int32_t* word_index, uint64_t* out) noexcept nogil:
    """out[v] += N(ρ) for every ρ and each of its 216 orthogonal codes v."""
    cdef int64_t k
    cdef int d[ROWS][3]
    cdef int perm[6][3]
    cdef int i, r, p1, p2, p3, j
    cdef uint32_t blk[3]
    cdef uint32_t m, x, y
    cdef uint64_t n
    # the six orders of three slots
    perm[0][0], perm[0][1], perm[0][2] = 0, 1, 2
    perm[1][0], perm[1][1], perm[1][2] = 0, 2, 1
    perm[2][0], perm[2][1], perm[2][2] = 1, 0, 2
    perm[3][0], perm[3][1], perm[3][2] = 1, 2, 0
    perm[4][0], perm[4][1], perm[4][2] = 2, 0, 1
    perm[5][0], perm[5][1], perm[5][2] = 2, 1, 0
    for k in range(N_RHO):
        n = counts[k]
        if n == 0:
            continue
        for r in range(ROWS):
            m = decode[k * ROWS + r]
            for i in range(3):
                d[r][i] = __builtin_ctz(m)
                m &= m - 1
        for p1 in range(6):
            for p2 in range(6):
                for p3 in range(6):
                    for j in range(3):
                        blk[j] = (1u << d[0][j]) | (1u << d[1][perm[p1][j]]) \
                            | (1u << d[2][perm[p2][j]]) | (1u << d[3][perm[p3][j]])
                    # canonical labels: the block of digit 0 first, then by smallest digit
                    if blk[0] & 1:
                        x, y = blk[1], blk[2]
                    elif blk[1] & 1:
                        x, y = blk[0], blk[2]
                    else:
                        x, y = blk[0], blk[1]
                    if (y & (~y + 1)) < (x & (~x + 1)):
                        x, y = y, x
                    out[word_index[pw[x] + 2 * pw[y]]] += n


def prefix_row(const uint32_t[:, ::1] prefix, const uint16_t[:, ::1] decode,
               const uint32_t[::1] pw, const int32_t[::1] word_index, uint64_t[::1] out):
    """Add l(prefix, v) to out[v] for every code v; returns the number of partial
    rectangles Q.  ``prefix`` is (3, 3): the block masks of boxes 1..3, box 1's
    block 0 holding the smallest digit 0..3 (column 1, read increasing)."""
    cdef _Fill f
    cdef int b, j, r
    cdef uint32_t col0
    f.counts = <uint64_t*>calloc(N_RHO, sizeof(uint64_t))
    if f.counts == NULL:
        raise MemoryError()
    for b in range(3):
        for j in range(3):
            f.cols[3 * b + j] = prefix[b, j]
    try:
        with nogil:
            col0 = f.cols[0]
            for r in range(ROWS):           # column 1 increasing: its r-th smallest digit in row r
                f.used[r] = col0 & (~col0 + 1)
                col0 &= col0 - 1
            f.leaves = 0
            _column(&f, 1)
            _scatter(&decode[0, 0], f.counts, &pw[0], &word_index[0], &out[0])
    finally:
        free(f.counts)
    return f.leaves
