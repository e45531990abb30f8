# Building the links of an Engine from CSR rows (included by _engine.pyx).
#
# The input phase, where "brute force is the rule" (DLX1 §14): dlx.api has
# checked everything (columns in range, no repeats in a row, no empty row,
# sizes within 32-bit links), so this only allocates every array once, at
# its final size (nothing is allocated during a search), and links items
# and options as _engine.pxd lays them out (DLX1 §16-§17).


cdef int _build(Engine eng, const cnp.int32_t[::1] indptr,
                const cnp.int32_t[::1] indices, link_t n_primary,
                link_t n_secondary, const cnp.int32_t[::1] priority) except -1:
    # priority: one entry per column.  Raises MemoryError (the object is
    # then freed by __dealloc__, whatever was allocated).
    cdef link_t n_rows = indptr.shape[0] - 1
    cdef link_t n_items = n_primary + n_secondary
    cdef link_t nnz = indptr[n_rows]
    cdef link_t i, r, k, q, col, last_spacer, prev_item
    cdef word_t seed = 0x5EED5EED1234ULL
    eng.n_items = n_items
    eng.n_primary = n_primary
    eng.n_rows = n_rows
    # node 0 unused, headers 1..n_items, then one spacer per row plus one
    eng.n_nodes = n_items + 1 + nnz + n_rows + 1
    eng.n_words = (n_items + 1 + 63) // 64
    eng.depth_cap = n_primary + 2

    eng.ll = <link_t *>calloc(n_items + 2, sizeof(link_t))
    eng.rl = <link_t *>calloc(n_items + 2, sizeof(link_t))
    eng.prio = <link_t *>calloc(n_items + 2, sizeof(link_t))
    eng.length = <link_t *>calloc(n_items + 2, sizeof(link_t))
    eng.ul = <link_t *>calloc(eng.n_nodes, sizeof(link_t))
    eng.dl = <link_t *>calloc(eng.n_nodes, sizeof(link_t))
    eng.top = <link_t *>calloc(eng.n_nodes, sizeof(link_t))
    eng.orow = <link_t *>calloc(eng.n_nodes, sizeof(link_t))
    eng.row_first = <link_t *>calloc(n_rows + 1, sizeof(link_t))
    eng.rsize = <link_t *>calloc(n_rows + 1, sizeof(link_t))
    eng.choice = <link_t *>calloc(eng.depth_cap, sizeof(link_t))
    eng.best = <link_t *>calloc(eng.depth_cap, sizeof(link_t))
    eng.best_prio = <link_t *>calloc(eng.depth_cap, sizeof(link_t))
    eng.givens = <link_t *>calloc(n_rows + 1, sizeof(link_t))
    eng.zobrist = <word_t *>calloc(n_items + 2, sizeof(word_t))
    eng.live = <word_t *>calloc(eng.n_words, sizeof(word_t))
    eng.nodes_at_entry = <word_t *>calloc(eng.depth_cap, sizeof(word_t))
    eng.sol_at_entry = <count_t *>calloc(eng.depth_cap, sizeof(count_t))
    eng.memo_pending = <char *>calloc(eng.depth_cap, sizeof(char))
    eng.memo_class = <char *>calloc(n_items + 2, sizeof(char))
    if (eng.ll == NULL or eng.rl == NULL or eng.prio == NULL
            or eng.length == NULL or eng.ul == NULL or eng.dl == NULL
            or eng.top == NULL or eng.orow == NULL
            or eng.row_first == NULL or eng.rsize == NULL
            or eng.choice == NULL or eng.best == NULL
            or eng.best_prio == NULL or eng.givens == NULL
            or eng.zobrist == NULL or eng.live == NULL
            or eng.nodes_at_entry == NULL or eng.sol_at_entry == NULL
            or eng.memo_pending == NULL or eng.memo_class == NULL):
        raise MemoryError("cannot allocate the dancing-links arrays")
    _memo_init(&eng.memo, eng.n_words)

    # Items: the ROOT list holds the primary items in (priority, column)
    # order, so the current priority class is always a prefix of it.
    order = np.lexsort((np.arange(n_primary), np.asarray(priority[:n_primary])))
    prev_item = ROOT
    for k in range(n_primary):
        i = <link_t>order[k] + 1
        eng.ll[i] = prev_item
        eng.rl[prev_item] = i
        prev_item = i
    eng.ll[ROOT] = prev_item
    eng.rl[prev_item] = ROOT
    # Secondary items: their own circular list headed by n_items + 1.
    prev_item = n_items + 1
    for i in range(n_primary + 1, n_items + 1):
        eng.ll[i] = prev_item
        eng.rl[prev_item] = i
        prev_item = i
    eng.ll[n_items + 1] = prev_item
    eng.rl[prev_item] = n_items + 1
    for i in range(1, n_items + 1):
        eng.prio[i] = priority[i - 1]
        eng.ul[i] = i
        eng.dl[i] = i
        eng.top[i] = 0
        eng.orow[i] = -1
        eng.zobrist[i] = _splitmix(&seed)
        eng.live[i >> 6] |= (<word_t>1) << (i & 63)

    # Options: spacer, nodes, spacer, nodes, ..., spacer (DLX1 §16-§17).
    q = n_items + 1
    last_spacer = q
    eng.top[q] = 0
    eng.orow[q] = -1
    eng.max_rsize = 0
    for r in range(n_rows):
        eng.row_first[r] = q + 1
        eng.rsize[r] = 0
        for k in range(indptr[r], indptr[r + 1]):
            q += 1
            col = indices[k]
            i = col + 1
            eng.top[q] = i
            eng.orow[q] = r
            eng.length[i] += 1
            # append q at the bottom of item i's list
            eng.ul[q] = eng.ul[i]
            eng.dl[q] = i
            eng.dl[eng.ul[i]] = q
            eng.ul[i] = q
            if i <= n_primary:
                eng.rsize[r] += 1
        if eng.rsize[r] > eng.max_rsize:
            eng.max_rsize = eng.rsize[r]
        # close the option: previous spacer points down to our last node,
        # the new spacer points up to our first node
        eng.dl[last_spacer] = q
        q += 1
        eng.top[q] = -(r + 1)
        eng.orow[q] = -1
        eng.ul[q] = eng.row_first[r]
        last_spacer = q
    eng.dl[last_spacer] = 0  # no option after the final spacer
    # With a single priority class the ROOT list stays in item order,
    # so the live bitset lists the uncovered primaries in list order.
    eng.flat = n_primary == 0 or (np.min(priority[:n_primary]) == np.max(priority[:n_primary]))
    _key_masks_build(eng, indptr, indices, n_primary, priority)
    eng.n_live_primary = n_primary
    eng.level = 0
    eng.phase = DONE
    eng.running = False
    return 0
