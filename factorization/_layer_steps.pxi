# Included by _kernel.pyx (one compilation unit): one layer of the layer
# method (factorization/layers.py explains it; factorization/layer_steps.py
# validates the inputs and owns the public behaviour).
#
# A *state* is the multiset of the 2C digits' occurrence masks (bit 2s + b:
# column b of stack s), at most one bit a stack.  A transition takes parents
# (canonical states with their T, a count below 2^128) and, for every row f
# that extends one (column j gets a digit whose mask avoids j's stack, each
# mask type used by its multiplicity), adds T·weight to the child
# {mask(f(j)) | 1 << j} in its canonical form.  Invariants:
#   * the canonical form is the least image (masks sorted, then compared as
#     a sequence; for states with many admissible elements, compared first
#     on the top stack positions: _layer_descend) over the *admissible*
#     elements of G = C2 wr S_C: those that order the stacks by an invariant
#     signature and each stack's columns by an invariant colour.  Colours are ranks of invariant keys (_rank of
#     _canon.pxi), so they are equivariant and A(g·v) = A(v)·g^-1: every
#     image of v has the same form.  Hash collisions only merge keys, which
#     admits more elements (slower, never wrong);
#   * the admissible elements giving the form are g0·Stab(v), so their
#     number is the stabiliser's order; a parent, being its own form, has
#     the identity admissible, and its admissible elements fixing it are its
#     whole stabiliser;
#   * rows are enumerated up to the parent's stabiliser as layers.py's
#     NumPy path does (orbit representatives of the column being filled
#     under the elements fixing the filled columns and their types, weighted
#     by the orbit's size), then column by column;
#   * accumulators are unsigned 128-bit with checked multiplies and adds: an
#     overflow sets a flag and the caller redoes the layer with Python ints.
# An element of G is stored as its column map (column j -> column cmap[j];
# a map that keeps stack pairs together), which is all the code needs.

cdef extern from *:
    """
    static inline int gc_mul_add(gc_count_t *acc, gc_count_t t, uint64_t w) {
        gc_count_t p;
        if (__builtin_mul_overflow(t, (gc_count_t)w, &p)) return 1;
        return __builtin_add_overflow(*acc, p, acc);
    }
    static inline int gc_add(gc_count_t *acc, gc_count_t v) {
        return __builtin_add_overflow(*acc, v, acc);
    }
    static inline gc_count_t gc_make(uint64_t lo, uint64_t hi) {
        return ((gc_count_t)hi << 64) | (gc_count_t)lo;
    }
    static inline uint64_t gc_lo(gc_count_t v) { return (uint64_t)v; }
    static inline uint64_t gc_hi(gc_count_t v) { return (uint64_t)(v >> 64); }
    """
    int gc_mul_add(gc_count_t* acc, gc_count_t t, uint64_t w) noexcept nogil
    int gc_add(gc_count_t* acc, gc_count_t v) noexcept nogil
    gc_count_t gc_make(uint64_t lo, uint64_t hi) noexcept nogil
    uint64_t gc_lo(gc_count_t v) noexcept nogil
    uint64_t gc_hi(gc_count_t v) noexcept nogil

cdef enum:
    _LAYER_PLAIN = 8        # admissible elements (bound) imaged plainly, without pruning
    LMAXC = 6               # stacks (masks of 12 bits, 16 bits a mask in a key)
    LMAXN = 12              # digits = columns = 2C
    LKEYW = 3               # key words: 12 masks of 16 bits, mask i in word i >> 2
    LMAXG = 46080           # |C2 wr S_6|

cdef uint64_t _LR2[256]     # and for (pair count, column colour) in refinement
cdef uint8_t _LPOP[1 << LMAXN]   # popcount of a mask of LMAXN bits (digit masks, column sets)


cdef inline uint64_t _lmix(uint64_t x) noexcept nogil:
    """splitmix64's finaliser (a bijection)."""
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef void _layer_tables() noexcept:
    cdef uint64_t s = 0x243F6A8885A308D3ULL
    cdef int i
    for i in range(256):
        s += 0x9E3779B97F4A7C15ULL
        _LR2[i] = _lmix(s)
    for i in range(1 << LMAXN):
        _LPOP[i] = <uint8_t>gc_popcount(<unsigned int>i)


_layer_tables()


cdef struct LSlot:
    uint64_t key[LKEYW]     # the canonical state; all zero: empty slot
    int64_t stab            # its stabiliser's order
    gc_count_t acc          # Σ T(parent)·rows into it


cdef struct LWork:
    int C, n                # stacks, digits
    # the canonical form (scratch)
    mask_t masks[LMAXN]     # the state being canonicalised
    uint8_t colour[LMAXN]   # column colours (invariant ranks)
    int sig[LMAXC]          # stack signatures
    int want[LMAXC]         # signatures in increasing order: position t takes want[t]
    int used                # stacks placed so far (bits)
    uint8_t cmap[LMAXN]     # the element being built
    mask_t image[LMAXC][4]  # and what it makes of the two bits of each stack
    mask_t partial[LMAXN]   # mode 0: the digits' images on the positions placed so far
    mask_t cur[LMAXC][LMAXN]   # sorted partial images after placing position t (t..C-1)
    mask_t bestl[LMAXC][LMAXN] # the best element's, level by level
    uint64_t updates        # bumped whenever the best changes
    int mode                # 0: the least image; 1: collect the elements fixing target
    int have_best
    uint64_t best[LKEYW]
    uint64_t count          # elements giving best
    uint64_t target[LKEYW]
    uint8_t* elems          # mode 1: collected column maps, n bytes each (LMAXG of them)
    int nelems
    # the rows of a parent
    int ntypes
    mask_t types[LMAXN]     # its distinct masks
    int rem[LMAXN]          # multiplicities still to place
    mask_t child[LMAXN]     # the child being built: child[j] = type of column j | 1 << j
    int* typeimg            # typeimg[g * LMAXN + t]: the type element g sends type t to
    int* fix                # fix[j * LMAXG ...]: elements fixing the prefix and column j
    int* keep               # keep[j * LMAXG ...]: the stabiliser of the prefix 0..j-1
    gc_count_t T            # the parent's T
    uint64_t rows           # rows enumerated (statistics)
    uint64_t leaves         # admissible elements tried by their forms (statistics)
    int overflow            # a 128-bit accumulator overflowed
    # the table
    LSlot* slots
    uint64_t cap, size


cdef inline void _layer_rank(int n, const uint64_t* key, uint8_t* colour, int* ncells) noexcept nogil:
    """colour[i] = the rank of key[i] among the distinct keys, ncells their
    number: _canon.pxi's _rank without its hash or sort (a vertex's rank
    is the number of distinct smaller keys, first occurrences counted),
    with no data-dependent branch.  [_rank's insertion sort was 16% of
    perf's samples of layer_counts(5); results/layers-count.md, pass 1.]"""
    cdef uint8_t first[LMAXN]
    cdef int i, j, r, m = 0, f
    for i in range(n):
        f = 1
        for j in range(i):
            f &= key[j] != key[i]
        first[i] = <uint8_t>f
        m += f
    for i in range(n):
        r = 0
        for j in range(n):
            r += first[j] & (key[j] < key[i])
        colour[i] = <uint8_t>r
    ncells[0] = m


cdef inline void _layer_digit_keys(int n, const mask_t* masks, uint64_t* key) noexcept nogil:
    """_canon.pxi's _common_neighbour_keys for masks of at most LMAXN bits
    (the popcounts looked up in _LPOP): each digit's histogram of
    |masks[v] & masks[w]| over w != v, 4 bits a count."""
    cdef int v, w
    cdef mask_t mv
    cdef uint64_t acc
    for v in range(n):                       # every w, then v's own term taken off:
        mv = masks[v]                        # a sum in a register, not n stores
        acc = 0
        for w in range(n):
            acc += (<uint64_t>1) << (4 * _LPOP[mv & masks[w]])
        key[v] = acc - ((<uint64_t>1) << (4 * _LPOP[mv]))


cdef inline int _layer_settled(LWork* W) noexcept nogil:
    """Whether the colours already fix the one admissible element that any
    refinement of them would: the two columns of every stack differ in
    colour and the stacks' lower colours are distinct.  Refining only splits
    classes and keeps the order of distinct colours, so each stack keeps its
    lower column, and the stacks' signatures (lower colour first) keep their
    order: the same single element, the same image, stabiliser order 1.
    [3 -> 4 of C = 5: the refinement's pair counts were 1/3 of the colouring.]"""
    cdef int s, lo, a, b
    cdef uint32_t seen = 0
    for s in range(W.C):
        a = W.colour[2 * s]
        b = W.colour[2 * s + 1]
        if a == b:
            return 0
        lo = a if a < b else b
        if seen >> lo & 1:
            return 0
        seen |= (<uint32_t>1) << lo
    return 1


cdef void _layer_colours(LWork* W) noexcept nogil:
    """Equivariant column colours (W.colour, ranks 0..n-1) of W.masks.

    Digits start from their common-neighbour histograms (_canon.pxi: how
    many columns they share with each other digit, equal masks included);
    a column's key is the multiset of its digits' colours; then the columns
    are refined by their pair counts with every other column (digits in
    both; the stack partner and the column itself marked apart) until no
    class splits, unless refining cannot change the element chosen
    (_layer_settled)."""
    cdef int n = W.n, j, k, nc, before
    cdef mask_t bit
    cdef uint64_t dkey[LMAXN]
    cdef mask_t cadj[LMAXN]
    cdef mask_t m
    cdef uint64_t key[LMAXN]
    cdef uint64_t h
    cdef uint8_t pair[LMAXN][LMAXN]
    _layer_digit_keys(n, W.masks, dkey)
    for j in range(n):
        dkey[j] = _lmix(dkey[j])
    for j in range(n):                       # Σ dkey over column j's digits, and the
        h = 0                                # transpose, without a branch a bit
        m = 0
        for k in range(n):
            bit = (W.masks[k] >> j) & 1
            h += dkey[k] & (<uint64_t>0 - <uint64_t>bit)
            m |= bit << k
        key[j] = h
        cadj[j] = m
    _layer_rank(n, key, W.colour, &nc)
    if nc == n or _layer_settled(W):
        return
    for j in range(n):
        pair[j][j] = 15
        pair[j][j ^ 1] = 14
        for k in range(j + 1, n):
            if k != (j ^ 1):
                pair[j][k] = pair[k][j] = _LPOP[cadj[j] & cadj[k]]
    while True:
        before = nc
        for j in range(n):
            h = 0
            for k in range(n):
                h += _LR2[pair[j][k] * 16 + W.colour[k]]
            key[j] = ((<uint64_t>W.colour[j]) << 58) | (_lmix(h) >> 6)
        _layer_rank(n, key, W.colour, &nc)
        if nc == before or nc == n:
            break


cdef inline mask_t _mask_image(const uint8_t* cmap, mask_t m) noexcept nogil:
    cdef mask_t out = 0
    while m:
        out |= (<mask_t>1) << cmap[gc_ctz(m)]
        m &= m - 1
    return out


cdef inline void _sorted_key(int n, mask_t* v, uint64_t* key) noexcept nogil:
    """Sort the n masks of v (in place) and pack them into key.  Each mask
    goes to its place, the masks below it and the equal ones before it
    counted: no data-dependent branch (the insertion sort's were a tenth of
    a transition's time)."""
    cdef int i, j, at
    cdef mask_t t
    cdef mask_t out[LMAXN]
    for i in range(n):
        t = v[i]
        at = 0
        for j in range(n):
            at += (v[j] < t) | ((v[j] == t) & (j < i))
        out[at] = t
    memcpy(v, out, n * sizeof(mask_t))
    key[0] = key[1] = key[2] = 0
    for i in range(n):
        key[i >> 2] |= (<uint64_t>v[i]) << (16 * (3 - (i & 3)))


cdef inline int _key_cmp(const uint64_t* a, const uint64_t* b) noexcept nogil:
    cdef int w
    for w in range(LKEYW):
        if a[w] != b[w]:
            return -1 if a[w] < b[w] else 1
    return 0


cdef void _layer_leaf(LWork* W) noexcept nogil:
    """An admissible element (W.cmap): compare its image with the best."""
    cdef mask_t img[LMAXN]
    cdef uint64_t key[LKEYW]
    cdef mask_t m, v
    cdef int d, c, s
    W.leaves += 1
    for d in range(W.n):
        m = W.masks[d]
        v = 0
        for s in range(W.C):
            v |= W.image[s][(m >> (2 * s)) & 3]
        img[d] = v
    _sorted_key(W.n, img, key)
    if W.mode == 1:
        if _key_cmp(key, W.target) == 0 and W.nelems < LMAXG:
            memcpy(W.elems + W.nelems * W.n, W.cmap, W.n)
            W.nelems += 1
        return
    c = 1 if not W.have_best else _key_cmp(key, W.best)
    if c < 0 or not W.have_best:
        memcpy(W.best, key, sizeof(key))
        W.have_best = 1
        W.count = 1
    elif c == 0:
        W.count += 1


cdef inline void _layer_stack_image(LWork* W, int s) noexcept nogil:
    cdef mask_t a = (<mask_t>1) << W.cmap[2 * s], b = (<mask_t>1) << W.cmap[2 * s + 1]
    W.image[s][0] = 0
    W.image[s][1] = a
    W.image[s][2] = b
    W.image[s][3] = a | b


cdef void _layer_place(LWork* W, int t) noexcept nogil:
    """Position t of the stacks: every unplaced stack of signature want[t],
    with its columns in colour order (both ways when they tie)."""
    cdef int s, c0, c1
    if t == W.C:
        _layer_leaf(W)
        return
    for s in range(W.C):
        if W.used & (1 << s) or W.sig[s] != W.want[t]:
            continue
        W.used |= 1 << s
        c0 = W.colour[2 * s]
        c1 = W.colour[2 * s + 1]
        if c0 <= c1:
            W.cmap[2 * s] = <uint8_t>(2 * t)
            W.cmap[2 * s + 1] = <uint8_t>(2 * t + 1)
            _layer_stack_image(W, s)
            _layer_place(W, t + 1)
        if c1 <= c0:
            W.cmap[2 * s] = <uint8_t>(2 * t + 1)
            W.cmap[2 * s + 1] = <uint8_t>(2 * t)
            _layer_stack_image(W, s)
            _layer_place(W, t + 1)
        W.used &= ~(1 << s)


cdef void _layer_only(LWork* W) noexcept nogil:
    """_layer_place's one leaf when there is one admissible element (the
    stacks' signatures distinct, each stack's colours distinct): stack s to
    the position of its signature, its lower colour first.  [95% of 3 -> 4's
    children; the recursion's scans were a tenth of the transition.]"""
    cdef int s, t
    for s in range(W.C):
        t = 0
        while W.want[t] != W.sig[s]:
            t += 1
        if W.colour[2 * s] < W.colour[2 * s + 1]:
            W.cmap[2 * s] = <uint8_t>(2 * t)
            W.cmap[2 * s + 1] = <uint8_t>(2 * t + 1)
        else:
            W.cmap[2 * s] = <uint8_t>(2 * t + 1)
            W.cmap[2 * s + 1] = <uint8_t>(2 * t)
        _layer_stack_image(W, s)
    _layer_leaf(W)


cdef int _layer_bound(LWork* W, int t, int cmp) noexcept nogil:
    """Mode 0, positions placed from the top (C-1 down to t): the digits'
    images on the positions placed, sorted, against the best's; 1 to prune
    (larger), else the comparison state for below (0 equal so far, -1
    smaller or no best yet)."""
    cdef int n = W.n, d, i, j
    cdef mask_t v
    cdef mask_t* a = W.cur[t]
    for d in range(n):
        v = W.partial[d]
        j = d
        while j > 0 and a[j - 1] > v:
            a[j] = a[j - 1]
            j -= 1
        a[j] = v
    if not W.have_best or cmp < 0:
        return -1
    for i in range(n):
        if a[i] != W.bestl[t][i]:
            return 1 if a[i] > W.bestl[t][i] else -1
    return 0


cdef void _layer_descend(LWork* W, int t, int cmp) noexcept nogil:
    """Mode 0: the least image under the order that compares the sorted
    images on positions C-1.. first, then C-1..C-2, ..., then whole (a total
    order on sorted images: its last component is the image itself), with
    branches pruned as soon as their placed positions compare larger."""
    cdef int s, c0, c1, flip, d, c
    cdef uint64_t seen
    cdef mask_t add[LMAXN]
    if t < 0:
        if cmp < 0 or not W.have_best:
            memcpy(W.bestl, W.cur, sizeof(W.cur))
            W.best[0] = W.best[1] = W.best[2] = 0
            for d in range(W.n):
                W.best[d >> 2] |= (<uint64_t>W.cur[0][d]) << (16 * (3 - (d & 3)))
            W.have_best = 1
            W.count = 1
            W.updates += 1
        else:
            W.count += 1
        W.leaves += 1
        return
    for s in range(W.C):
        if W.used & (1 << s) or W.sig[s] != W.want[t]:
            continue
        W.used |= 1 << s
        c0 = W.colour[2 * s]
        c1 = W.colour[2 * s + 1]
        for flip in range(2):
            if (flip == 0 and c0 > c1) or (flip == 1 and c1 > c0):
                continue
            W.cmap[2 * s] = <uint8_t>(2 * t + flip)
            W.cmap[2 * s + 1] = <uint8_t>(2 * t + 1 - flip)
            _layer_stack_image(W, s)
            for d in range(W.n):
                add[d] = W.image[s][(W.masks[d] >> (2 * s)) & 3]
                W.partial[d] |= add[d]
            c = _layer_bound(W, t, cmp)
            if c <= 0:
                seen = W.updates
                _layer_descend(W, t - 1, c)
                if W.updates != seen:
                    cmp = 0        # the best now lies below this node: same prefix
            for d in range(W.n):
                W.partial[d] &= ~add[d]
        W.used &= ~(1 << s)


cdef void _layer_admissible(LWork* W) noexcept nogil:
    """Colour W.masks and find the least image of its admissible elements:
    all of them through _layer_leaf when few (a bound on their number at
    most _LAYER_PLAIN: the plain order, sorted images compared), else by
    _layer_descend (its order, with pruning).  The bound is an invariant, so
    every state of an orbit uses the same order: forms stay canonical.
    Mode 1 (a stabiliser) always images them all."""
    cdef int s, t, i, x, lo, hi
    cdef uint64_t size
    _layer_colours(W)
    for s in range(W.C):
        lo = W.colour[2 * s]
        hi = W.colour[2 * s + 1]
        if lo > hi:
            lo, hi = hi, lo
        W.sig[s] = lo * 16 + hi
        W.want[s] = W.sig[s]
    for i in range(1, W.C):
        x = W.want[i]
        t = i
        while t > 0 and W.want[t - 1] > x:
            W.want[t] = W.want[t - 1]
            t -= 1
        W.want[t] = x
    size = 1                                 # admissible elements: an invariant
    for s in range(W.C):
        if W.colour[2 * s] == W.colour[2 * s + 1]:
            size *= 2
        for t in range(s):
            if W.sig[t] == W.sig[s]:
                size *= 2                    # (a tie group of k stacks: k! <= 2^(k(k-1)/2))
    W.used = 0
    W.have_best = 0
    W.count = 0
    if size == 1:
        _layer_only(W)
    elif W.mode == 1 or size <= _LAYER_PLAIN:
        _layer_place(W, 0)
    else:
        memset(W.partial, 0, sizeof(W.partial))
        _layer_descend(W, W.C - 1, -1)


cdef uint64_t _layer_form(LWork* W, const mask_t* state, uint64_t* key) noexcept nogil:
    """The canonical key of a state; returns its stabiliser's order."""
    memcpy(W.masks, state, W.n * sizeof(mask_t))
    W.mode = 0
    _layer_admissible(W)
    memcpy(key, W.best, LKEYW * sizeof(uint64_t))
    return W.count
