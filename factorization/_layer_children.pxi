# Included by _kernel.pyx right after _layer_steps.pxi (one compilation unit):
# a transition's children table (open addressing on the canonical key, grown
# at half full) and the enumeration of a parent's rows into it.  The
# invariants are _layer_steps.pxi's header: rows up to the parent's
# stabiliser, each child added in its canonical form (_layer_form), sums in
# checked unsigned 128-bit.


cdef inline uint64_t _slot_hash(const uint64_t* key) noexcept nogil:
    return _lmix(key[0] * 0x9E3779B97F4A7C15ULL + key[1] * 0xC2B2AE3D27D4EB4FULL + key[2])


cdef int _layer_grow(LWork* W) noexcept nogil:
    """Double the table; -1 when out of memory."""
    cdef uint64_t cap = W.cap * 2 if W.cap else 1024, i, p
    cdef LSlot* new = <LSlot*>calloc(cap, sizeof(LSlot))
    if new == NULL:
        return -1
    for i in range(W.cap):
        if W.slots[i].stab:
            p = _slot_hash(W.slots[i].key) & (cap - 1)
            while new[p].stab:
                p = (p + 1) & (cap - 1)
            new[p] = W.slots[i]
    free(W.slots)
    W.slots = new
    W.cap = cap
    return 0


cdef int _layer_add(LWork* W, const uint64_t* key, uint64_t stab, gc_count_t value,
                    uint64_t weight) noexcept nogil:
    """acc[key] += value·weight (checked); -1 when out of memory."""
    cdef uint64_t p
    cdef LSlot* s
    if 2 * (W.size + 1) > W.cap and _layer_grow(W) < 0:
        return -1
    p = _slot_hash(key) & (W.cap - 1)
    while True:
        s = &W.slots[p]
        if not s.stab:
            memcpy(s.key, key, LKEYW * sizeof(uint64_t))
            s.stab = <int64_t>stab
            W.size += 1
            break
        if _key_cmp(s.key, key) == 0:
            break
        p = (p + 1) & (W.cap - 1)
    if gc_mul_add(&s.acc, value, weight):
        W.overflow = 1
    return 0


cdef int _layer_rows(LWork* W, int j, uint64_t weight, int nh) noexcept nogil:
    """Fill column j onwards; keep[j * LMAXG ..][:nh] are the stabiliser's
    elements fixing columns 0..j-1 and their types.  -1: out of memory."""
    cdef int n = W.n, t, g, i, nf = 0, nk, r
    cdef mask_t stack = (<mask_t>3) << (2 * (j >> 1))
    cdef uint64_t key[LKEYW]
    cdef uint64_t stab
    cdef int seen = 0, orbit
    cdef const int* H
    cdef int* F = NULL
    cdef int* K
    if j == n:
        stab = _layer_form(W, W.child, key)
        W.rows += 1
        return _layer_add(W, key, stab, W.T, weight)
    if nh > 1:
        H = W.keep + j * LMAXG
        F = W.fix + j * LMAXG
        nf = 0
        for i in range(nh):
            if W.elems[H[i] * n + j] == j:
                F[nf] = H[i]
                nf += 1
    for t in range(W.ntypes):
        if W.rem[t] == 0 or W.types[t] & stack or seen >> t & 1:
            continue
        W.child[j] = W.types[t] | ((<mask_t>1) << j)
        W.rem[t] -= 1
        if nh > 1:
            orbit = 0
            nk = 0
            K = W.keep + (j + 1) * LMAXG
            for i in range(nf):
                g = F[i]
                orbit |= 1 << W.typeimg[g * LMAXN + t]
                if W.typeimg[g * LMAXN + t] == t:
                    K[nk] = g
                    nk += 1
            seen |= orbit
            r = _layer_rows(W, j + 1, weight * <uint64_t>gc_popcount(orbit), nk)
        else:
            r = _layer_rows(W, j + 1, weight, 0)
        W.rem[t] += 1
        if r < 0:
            return r
    return 0


cdef int _layer_parent(LWork* W, const mask_t* parent, gc_count_t T) noexcept nogil:
    """Every row from one canonical parent into the table.  -1: out of
    memory; -2: the parent is not in canonical form (its admissible elements
    do not include the identity)."""
    cdef int n = W.n, i, g, t, x
    cdef mask_t img
    memcpy(W.masks, parent, n * sizeof(mask_t))
    _sorted_key(n, W.masks, W.target)
    memcpy(W.masks, parent, n * sizeof(mask_t))
    W.mode = 1
    W.nelems = 0
    _layer_admissible(W)
    if W.nelems == 0:
        return -2
    W.ntypes = 0
    for i in range(n):                       # distinct masks (parent is sorted)
        if W.ntypes and W.types[W.ntypes - 1] == parent[i]:
            W.rem[W.ntypes - 1] += 1
        else:
            W.types[W.ntypes] = parent[i]
            W.rem[W.ntypes] = 1
            W.ntypes += 1
    for g in range(W.nelems):
        for t in range(W.ntypes):
            img = _mask_image(W.elems + g * n, W.types[t])
            x = 0
            while x < W.ntypes and W.types[x] != img:
                x += 1
            if x == W.ntypes:
                return -2
            W.typeimg[g * LMAXN + t] = x
    for g in range(W.nelems):
        W.keep[g] = g
    W.T = T
    return _layer_rows(W, 0, 1, W.nelems)
