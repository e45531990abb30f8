# Included by _kernel.pyx after _layer_steps.pxi: the Python-visible owner
# of a layer's table (LayerTable) and the batch canonical form (layer_forms).
# factorization/layer_steps.py validates their inputs.

cdef class LayerTable:
    """The children of one transition: canonical state -> (stabiliser
    order, Σ T(parent)·rows), an open-addressing table in C.

    Private: :mod:`factorization.layer_steps` validates the inputs (parents
    canonical, sorted masks of ``C`` stacks, ``T < 2^128``) and turns the
    sums into the next layer's ``T``.  One thread at a time per table.
    """
    cdef LWork W
    cdef readonly int C

    def __cinit__(self, int C):
        if not 1 <= C <= LMAXC:
            raise ValueError(f"stacks must be 1..{LMAXC}, got {C}")
        memset(&self.W, 0, sizeof(LWork))
        self.C = C
        self.W.C = C
        self.W.n = 2 * C
        self.W.elems = <uint8_t*>calloc(LMAXG, LMAXN)
        self.W.typeimg = <int*>calloc(LMAXG * LMAXN, sizeof(int))
        self.W.fix = <int*>calloc((LMAXN + 1) * LMAXG, sizeof(int))
        self.W.keep = <int*>calloc((LMAXN + 1) * LMAXG, sizeof(int))
        if not (self.W.elems and self.W.typeimg and self.W.fix and self.W.keep) \
                or _layer_grow(&self.W) < 0:
            raise MemoryError("layer table")

    def __dealloc__(self):
        free(self.W.elems)
        free(self.W.typeimg)
        free(self.W.fix)
        free(self.W.keep)
        free(self.W.slots)

    def __len__(self):
        return self.W.size

    @property
    def rows(self):
        """Rows enumerated into this table."""
        return self.W.rows

    @property
    def slot_bytes(self):
        """Bytes of one slot of the table (a state, its stabiliser order and sum)."""
        return sizeof(LSlot)

    @property
    def capacity(self):
        """Slots allocated (a power of two; kept at least twice the states)."""
        return self.W.cap

    @property
    def leaves(self):
        """Admissible elements imaged by the canonical forms (statistics)."""
        return self.W.leaves

    @property
    def overflow(self):
        """Whether an accumulator overflowed 128 bits (the sums are then void)."""
        return bool(self.W.overflow)

    def extend(self, const int64_t[:, ::1] parents, const uint64_t[::1] t_lo,
               const uint64_t[::1] t_hi):
        """Add every row of the parents (canonical, sorted masks, one a row)
        with their ``T = t_hi·2^64 + t_lo``."""
        cdef int64_t i, B = parents.shape[0]
        cdef int n = self.W.n, j, rc = 0
        cdef mask_t par[LMAXN]
        if parents.shape[1] != n or t_lo.shape[0] != B or t_hi.shape[0] != B:
            raise ValueError(f"parents must be (B, {n}) with B values of T")
        with nogil:
            for i in range(B):
                for j in range(n):
                    par[j] = <mask_t>parents[i, j]
                rc = _layer_parent(&self.W, par, gc_make(t_lo[i], t_hi[i]))
                if rc < 0:
                    break
        if rc == -1:
            raise MemoryError("layer table")
        if rc == -2:
            raise ValueError(f"parent {i} is not a canonical state")

    def merge(self, LayerTable other):
        """Add the other table's sums into this one."""
        cdef uint64_t i
        cdef int rc = 0
        if other.C != self.C:
            raise ValueError("tables of different stacks")
        with nogil:
            for i in range(other.W.cap):
                if other.W.slots[i].stab:
                    rc = _layer_add(&self.W, other.W.slots[i].key, <uint64_t>other.W.slots[i].stab,
                                    other.W.slots[i].acc, 1)
                    if rc < 0:
                        break
        if rc < 0:
            raise MemoryError("layer table")
        self.W.rows += other.W.rows
        self.W.leaves += other.W.leaves
        self.W.overflow |= other.W.overflow

    def export(self):
        """``(forms (N, 2C) int64, stabiliser orders (N,), sums' low and high
        words (N,) uint64)``, in table order."""
        cdef int64_t N = self.W.size, k = 0
        cdef uint64_t i
        cdef int j, n = self.W.n
        forms = np.zeros((N, n), dtype=np.int64)
        stab = np.zeros(N, dtype=np.int64)
        lo = np.zeros(N, dtype=np.uint64)
        hi = np.zeros(N, dtype=np.uint64)
        cdef int64_t[:, ::1] f = forms
        cdef int64_t[::1] s = stab
        cdef uint64_t[::1] l = lo
        cdef uint64_t[::1] h = hi
        with nogil:
            for i in range(self.W.cap):
                if self.W.slots[i].stab:
                    for j in range(n):
                        f[k, j] = <int64_t>((self.W.slots[i].key[j >> 2] >> (16 * (3 - (j & 3))))
                                            & 0xFFFF)
                    s[k] = self.W.slots[i].stab
                    l[k] = gc_lo(self.W.slots[i].acc)
                    h[k] = gc_hi(self.W.slots[i].acc)
                    k += 1
        return forms, stab, lo, hi


def layer_forms(const int64_t[:, ::1] states, int C):
    """Canonical forms (sorted masks) and stabiliser orders of states ``(B, 2C)``."""
    cdef LayerTable work = LayerTable(C)
    cdef int64_t i, B = states.shape[0]
    cdef int j, n = 2 * C
    cdef mask_t v[LMAXN]
    cdef uint64_t key[LKEYW]
    if states.shape[1] != n:
        raise ValueError(f"states must be (B, {n})")
    forms = np.zeros((B, n), dtype=np.int64)
    stab = np.zeros(B, dtype=np.int64)
    cdef int64_t[:, ::1] f = forms
    cdef int64_t[::1] s = stab
    with nogil:
        for i in range(B):
            for j in range(n):
                v[j] = <mask_t>states[i, j]
            s[i] = <int64_t>_layer_form(&work.W, v, key)
            for j in range(n):
                f[i, j] = <int64_t>((key[j >> 2] >> (16 * (3 - (j & 3)))) & 0xFFFF)
    return forms, stab
