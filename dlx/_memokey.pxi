# The memo key at a memo point: the live set without the items that can no
# longer matter there (included by _engine.pyx, after _build.pxi).
#
# Why dead items may be left out.  The ROOT list is ordered by priority, so
# at a node whose first ROOT item c has class k every primary item of a
# class < k is covered.  An option is still available only if all its items
# are uncovered, so no option with a primary item of a class < k can be
# chosen below this node: the options that can are among those whose
# *lowest* primary class is >= k.  A secondary item that no such option
# covers is dead from class k on: whether it is covered or not changes
# neither the options available nor the items to cover, so two states that
# differ only in dead items have the same count.  The key of a class-k memo
# point is therefore live & keep[k] (keep[k]: every primary item and every
# secondary item not yet dead), and it is still an exact state: it is the
# live set of a state with the dead items covered, whose count is the same.
# Primary items are all kept, so a key determines its class, and keys of
# different classes never meet.  (Difference pairs of filled rows are what
# this drops: without it, anti-king and anti-knight searches never met a
# state twice, results/variants-sharing.md.)
#
# Keeping more items than keep[k] is always sound (the key then determines
# the kept ones), so the masks may be coarsened: mask m drops the items
# dead from class cut[m] on, and class k uses the last cut <= k.  Items in
# no option never change, so they are never dropped; a class with nothing
# to drop keys on the live set and its Zobrist hash exactly as before.
# A masked key is hashed from its words (the incremental zhash covers
# every item): a sum of its words times distinct odd constants (each term
# a bijection of its word, so keys differing in one word hash apart), then
# one mix so the bucket bits depend on every word.
# The tail's keys after its lead row (_tail.pxi) stay whole live sets:
# exact states too (at worst a missed hit), and tails are only declared
# for kinds without secondary items.

cdef enum:
    KEY_MASK_WORDS_MAX = 1 << 18    # words of all masks together (2 MiB)


cdef int _key_masks_build(Engine eng, const cnp.int32_t[::1] indptr,
                          const cnp.int32_t[::1] indices, link_t n_primary,
                          const cnp.int32_t[::1] priority) except -1:
    # Fill key_mask_of (every item), key_masks and memo_key, once, when
    # the matrix is built (the input phase: plain NumPy).  Raises
    # MemoryError.
    cdef link_t n_items = eng.n_items, n_words = eng.n_words
    cdef link_t n_rows = indptr.shape[0] - 1
    cdef link_t i, m
    cdef cnp.uint64_t[:, ::1] w
    eng.hash_mask = ~(<word_t>0)
    eng.key_mask_of = <link_t *>malloc((n_items + 2) * sizeof(link_t))
    eng.memo_key = <word_t *>calloc(n_words, sizeof(word_t))
    if eng.key_mask_of == NULL or eng.memo_key == NULL:
        raise MemoryError("cannot allocate the memo key tables")
    for i in range(n_items + 2):
        eng.key_mask_of[i] = -1
    if n_primary == 0 or n_items == n_primary or n_rows == 0:
        return 0
    ptr = np.asarray(indptr, dtype=np.int64)
    ind = np.asarray(indices, dtype=np.int64)[:ptr[n_rows]]
    classes, rank = np.unique(np.asarray(priority[:n_primary]), return_inverse=True)
    n_ranks = classes.size
    row_of = np.repeat(np.arange(n_rows), np.diff(ptr))
    primary = ind < n_primary
    # each option's lowest primary class (n_ranks: it has none, never chosen,
    # and then kept anyway: keeping is always sound)
    lowest = np.full(n_rows, n_ranks, dtype=np.int64)
    np.minimum.at(lowest, row_of[primary], rank[ind[primary]])
    # each secondary item is dead from class death on: one past the highest
    # lowest class of an option covering it
    death = np.full(n_items - n_primary, -1, dtype=np.int64)
    np.maximum.at(death, ind[~primary] - n_primary, lowest[row_of[~primary]])
    death[death < 0] = n_ranks          # in no option: never changes, kept
    death += 1
    cuts = np.unique(death[death < n_ranks])
    if cuts.size == 0:
        return 0
    n_masks = max(1, KEY_MASK_WORDS_MAX // n_words)
    if cuts.size > n_masks:             # coarsen: a subset of the cuts
        cuts = np.unique(cuts[np.linspace(0, cuts.size - 1, n_masks).astype(np.int64)])
    masks = np.zeros((cuts.size, n_words * 64), dtype=np.uint8)
    masks[:, 1:n_items + 1] = 1
    for m in range(cuts.size):
        masks[m, 1 + n_primary + np.flatnonzero(death <= cuts[m])] = 0
    words = np.packbits(masks, axis=1, bitorder="little").view(np.uint64)
    words = np.ascontiguousarray(words)
    eng.key_masks = <word_t *>malloc(cuts.size * n_words * sizeof(word_t))
    if eng.key_masks == NULL:
        raise MemoryError("cannot allocate the memo key masks")
    w = words
    for m in range(cuts.size):
        memcpy(eng.key_masks + m * n_words, &w[m, 0], n_words * sizeof(word_t))
    # the mask of each primary item's class (-1: nothing dead there yet)
    of = np.searchsorted(cuts, rank, side="right") - 1
    for i in range(n_primary):
        eng.key_mask_of[i + 1] = <link_t>of[i]
    return 0


cdef inline word_t _mix(word_t z) noexcept nogil:
    # splitmix64's finalizer: a bijection whose low bits depend on all bits.
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline const word_t *_memo_key(Engine eng, link_t c, word_t *h) noexcept nogil:
    # The key of the memo point whose first ROOT item is c, and its hash in
    # h[0]: the live set itself when c's class has nothing dead, else the
    # live set masked into memo_key.  (Called at the point's entry and
    # again at its BACKUP, when the state, and so c, are the same.)
    cdef link_t m = eng.key_mask_of[c], j, n = eng.n_words
    cdef const word_t *mask
    cdef word_t x = 0, w, k = 0x9E3779B97F4A7C15ULL
    if m < 0:
        h[0] = eng.zhash
        return eng.live
    mask = eng.key_masks + m * n
    for j in range(n):
        w = eng.live[j] & mask[j]
        eng.memo_key[j] = w
        x += w * k
        k += 0xD6E8FEB86659FD92ULL         # even step: k stays odd
    h[0] = _mix(x) & eng.hash_mask
    return eng.memo_key
