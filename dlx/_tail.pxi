# The closed-form tail (included by _engine.pyx): once a declared priority
# class is reached, what is left is a Latin rectangle with prescribed column
# sets, counted without searching.
#
# When the search fills a Sudoku row by row, the moment the last band is
# entered every row above it is complete.  Then (i) each column still needs
# exactly the symbols missing from it, one per empty cell of the band, and
# (ii) each box of the band gets each symbol exactly once whatever the order:
# a symbol missing from a stack's columns is missing from exactly one of
# them, so box constraints are implied.  What is left is to count arrays of
# R rows with: row r holds exactly need[r] in its empty cells empty[r], and
# column c exactly colmask[c] in its empty cells (all sets as bitmasks).
#
# With two rows left the count is closed: a column empty in one row only is
# forced; the columns empty in both, each with two symbols {x, y}, are the
# edges of a graph on symbols in which a symbol needed by both rows has
# degree 2 and one needed by one row has degree 1.  Giving each edge's
# symbols one to each row is fixed along a path (which must end at a symbol
# of the other row, else 0 ways) and has 2 ways around each cycle, so the
# count is 0 or 2**cycles.  With more rows left the first row's assignments
# are enumerated (a system of distinct representatives) and the rest counted
# the same way.  `steps` counts enumeration steps (the work of a tail, used
# like a subtree size by the memo table).

cdef inline bint _take_forced(word_t cols, const word_t *colmask,
                              word_t *need) noexcept nogil:
    # Each column of `cols` has one empty cell left, in this row, and one
    # symbol left (the sizes were checked): the row must still need it.
    cdef word_t s
    while cols:
        s = colmask[__builtin_ctzll(cols)]
        cols &= cols - 1
        if (s & need[0]) == 0:
            return False
        need[0] ^= s
    return True


cdef count_t _tail_two_rows(word_t need_a, word_t need_b, word_t empty_a,
                            word_t empty_b, const word_t *colmask,
                            word_t *steps) noexcept nogil:
    cdef word_t both = empty_a & empty_b
    cdef word_t only = empty_a ^ both
    cdef word_t s, pair, bit_x
    cdef int c, e, x, y, cur, cycles = 0
    cdef int deg[64]
    cdef int adj[64][2]
    cdef word_t unvisited
    if not _take_forced(only, colmask, &need_a) or \
            not _take_forced(empty_b ^ both, colmask, &need_b):
        return 0
    # the graph: symbols are vertices, columns empty in both rows are edges
    pair = need_a | need_b
    while pair:
        x = __builtin_ctzll(pair)
        pair &= pair - 1
        deg[x] = 0
    pair = both
    while pair:
        c = __builtin_ctzll(pair)
        pair &= pair - 1
        s = colmask[c]
        steps[0] += 1
        if (s & ~(need_a | need_b)) != 0 or __builtin_popcountll(s) != 2:
            return 0
        x = __builtin_ctzll(s)
        y = __builtin_ctzll(s & (s - 1))
        if deg[x] == 2 or deg[y] == 2:
            return 0
        adj[x][deg[x]] = c
        deg[x] += 1
        adj[y][deg[y]] = c
        deg[y] += 1
    # degree = number of rows needing the symbol
    pair = need_a | need_b
    while pair:
        x = __builtin_ctzll(pair)
        bit_x = pair & (~pair + 1)
        pair &= pair - 1
        if deg[x] != ((need_a & bit_x) != 0) + ((need_b & bit_x) != 0):
            return 0
    unvisited = both
    # paths: from each unvisited end, alternate to the other end, which must
    # be needed by the other row than the start
    pair = need_a ^ need_b          # the degree-1 symbols
    while pair:
        x = __builtin_ctzll(pair)
        pair &= pair - 1
        e = adj[x][0]
        if not (unvisited >> e) & 1:
            continue
        cur = x
        while True:
            unvisited &= ~((<word_t>1) << e)
            cur = __builtin_ctzll(colmask[e] ^ ((<word_t>1) << cur))
            if deg[cur] == 1:
                break
            e = adj[cur][1] if adj[cur][0] == e else adj[cur][0]
        if ((need_a >> x) & 1) == ((need_a >> cur) & 1):
            return 0
        pair &= ~((<word_t>1) << cur)
    # what is left are cycles
    while unvisited:
        e = __builtin_ctzll(unvisited)
        cur = __builtin_ctzll(colmask[e])
        x = cur
        while True:
            unvisited &= ~((<word_t>1) << e)
            cur = __builtin_ctzll(colmask[e] ^ ((<word_t>1) << cur))
            if cur == x:
                break
            e = adj[cur][1] if adj[cur][0] == e else adj[cur][0]
        cycles += 1
    return (<count_t>1) << cycles


cdef count_t _tail_fill_row(word_t cols, word_t avail, int nrows,
                            const word_t *need, const word_t *empty,
                            word_t *colmask, word_t *steps) noexcept nogil:
    # Give the empty cells `cols` of the first row distinct symbols from
    # `avail`, each allowed by its column; then count the other rows.
    cdef count_t total = 0
    cdef int c
    cdef word_t cand, s
    if cols == 0:
        return _tail_rows(nrows - 1, need + 1, empty + 1, colmask, steps)
    c = __builtin_ctzll(cols)
    cand = colmask[c] & avail
    while cand:
        s = cand & (~cand + 1)
        cand ^= s
        steps[0] += 1
        colmask[c] ^= s
        total += _tail_fill_row(cols & (cols - 1), avail ^ s, nrows, need,
                                empty, colmask, steps)
        colmask[c] ^= s
    return total


cdef count_t _tail_rows(int nrows, const word_t *need, const word_t *empty,
                        word_t *colmask, word_t *steps) noexcept nogil:
    # Counts stay far below 2**128: they are enumerated leaves (fewer than
    # 2**64 in any feasible run) times 2**cycles with cycles <= 32.
    if nrows <= 1:
        return 1        # the last row takes what its columns have left
    if nrows == 2:
        return _tail_two_rows(need[0], need[1], empty[0], empty[1], colmask, steps)
    return _tail_fill_row(empty[0], need[0], nrows, need, empty, colmask, steps)


# ----------------------------------------------------------------------
# Reading the tail off the engine's live bitset.


cdef inline word_t _live_bits(const word_t *live, link_t first, link_t n) noexcept nogil:
    # Live flags of items first .. first+n-1 (n <= 64) as bits 0 .. n-1.
    cdef link_t w = first >> 6, b = first & 63
    cdef word_t x = live[w] >> b
    if b + n > 64:
        x |= live[w + 1] << (64 - b)
    return x if n == 64 else x & (((<word_t>1) << n) - 1)


cdef inline word_t _clear_group(Engine eng, word_t *key, link_t first, link_t n) noexcept nogil:
    # Clear the live items first .. first+n-1 in key; return the XOR of
    # their Zobrist words (what covering them adds to the hash).
    cdef link_t w = first >> 6, b = first & 63
    cdef word_t bits = _live_bits(eng.live, first, n), h = 0
    key[w] &= ~(bits << b)
    if b + n > 64:
        key[w + 1] &= ~(bits >> (64 - b))
    while bits:
        h ^= eng.zobrist[first + __builtin_ctzll(bits)]
        bits &= bits - 1
    return h


cdef bint _tail_count(Engine eng, count_t *out, word_t *work) noexcept nogil:
    # Read the rectangle (and the lead row) off the live bitset and count
    # it.  The sizes are checked first: each row needs as many symbols
    # as it has empty cells, each column as many as its empty cells, and
    # each box of the lead row as many as its empty cells there; if they
    # do not agree this is not the promised tail and the search goes on.
    cdef link_t R = eng.tail_rows, N = eng.tail_syms, S = eng.tail_stacks
    cdef link_t r, c, s
    cdef word_t need[64]
    cdef word_t empty[64]
    cdef word_t colmask[64]
    cdef word_t boxneed[64]
    cdef link_t col_empty[64]
    cdef int live_rows = 0
    cdef word_t steps = 0, lead_empty = 0, lead_need = 0, union = 0, h, e
    for c in range(N):
        colmask[c] = _live_bits(eng.live, eng.tail_colsym[c], N)
        col_empty[c] = 0
    for r in range(R):
        need[live_rows] = _live_bits(eng.live, eng.tail_rowsym[r], N)
        e = empty[live_rows] = _live_bits(eng.live, eng.tail_cell[r], N)
        if __builtin_popcountll(need[live_rows]) != __builtin_popcountll(e):
            return False
        while e:
            col_empty[__builtin_ctzll(e)] += 1
            e &= e - 1
        if empty[live_rows]:
            live_rows += 1
    if eng.tail_lead:
        lead_need = _live_bits(eng.live, eng.lead_rowsym, N)
        e = lead_empty = _live_bits(eng.live, eng.lead_cell, N)
        while e:
            col_empty[__builtin_ctzll(e)] += 1
            e &= e - 1
        for s in range(S):
            boxneed[s] = _live_bits(eng.live, eng.lead_box[s], N)
            union |= boxneed[s]
            if __builtin_popcountll(boxneed[s]) != \
                    __builtin_popcountll(lead_empty & eng.lead_stackcols[s]):
                return False
        if union != lead_need:
            return False
    for c in range(N):
        if __builtin_popcountll(colmask[c]) != col_empty[c]:
            return False
    if not eng.tail_lead:
        out[0] = _tail_rows(live_rows, need, empty, colmask, &steps)
    else:
        # The key of the state after the lead row: its cells, its row's
        # symbols and its boxes' symbols are all covered by then (the
        # column symbols it takes are cleared as they are chosen).
        memcpy(eng.tail_key, eng.live, eng.n_words * sizeof(word_t))
        h = eng.zhash
        h ^= _clear_group(eng, eng.tail_key, eng.lead_cell, N)
        h ^= _clear_group(eng, eng.tail_key, eng.lead_rowsym, N)
        for s in range(S):
            h ^= _clear_group(eng, eng.tail_key, eng.lead_box[s], N)
        out[0] = _tail_lead(eng, lead_empty, lead_need, boxneed, eng.tail_key, h,
                            live_rows, need, empty, colmask, &steps)
    work[0] = steps + 1
    eng.tail_calls += 1
    eng.tail_steps += steps
    return True


cdef count_t _tail_lead(Engine eng, word_t cols, word_t avail, const word_t *boxneed,
                        word_t *key, word_t h, int nrows, const word_t *need,
                        const word_t *empty, word_t *colmask,
                        word_t *steps) noexcept nogil:
    # Fill the lead row's empty cells `cols`: cell c takes a symbol its
    # column and its stack's box still lack.  Each filling leaves a
    # rectangle, looked up in (and stored to) the memo table under the
    # key the search itself would use there, or counted.
    cdef count_t total = 0, v
    cdef int c
    cdef link_t i
    cdef word_t cand, sbit, w0
    if cols == 0:
        if not eng.memo_on:
            return _tail_rows(nrows, need, empty, colmask, steps)
        if _memo_lookup(&eng.memo, key, h, &v):
            return v
        w0 = steps[0]
        v = _tail_rows(nrows, need, empty, colmask, steps)
        _memo_store(&eng.memo, key, h, v, steps[0] - w0 + 1)
        return v
    c = __builtin_ctzll(cols)
    cand = colmask[c] & boxneed[eng.lead_stack[c]] & avail
    while cand:
        sbit = cand & (~cand + 1)
        cand ^= sbit
        steps[0] += 1
        i = eng.tail_colsym[c] + __builtin_ctzll(sbit)
        colmask[c] ^= sbit
        key[i >> 6] ^= (<word_t>1) << (i & 63)
        total += _tail_lead(eng, cols & (cols - 1), avail ^ sbit, boxneed, key,
                            h ^ eng.zobrist[i], nrows, need, empty, colmask, steps)
        key[i >> 6] ^= (<word_t>1) << (i & 63)
        colmask[c] ^= sbit
    return total


# ----------------------------------------------------------------------
# Declaring the tail (Engine.configure_tail; dlx.api checked the columns).

cdef void _tail_free(Engine eng) noexcept nogil:
    # Free the tail tables and forget the tail (tail_prio -1: none).
    free(eng.tail_cell); free(eng.tail_rowsym); free(eng.tail_colsym)
    free(eng.lead_box); free(eng.lead_stack); free(eng.lead_stackcols)
    free(eng.tail_key)
    eng.tail_cell = eng.tail_rowsym = eng.tail_colsym = NULL
    eng.lead_box = eng.lead_stack = NULL
    eng.lead_stackcols = eng.tail_key = NULL
    eng.tail_prio = -1
    eng.tail_lead = False
    eng.tail_rows = eng.tail_syms = eng.tail_stacks = 0


cdef int _tail_set(Engine eng, link_t prio, const cnp.int32_t[::1] cell,
                   const cnp.int32_t[::1] rowsym, const cnp.int32_t[::1] colsym,
                   link_t lead_cell, link_t lead_rowsym,
                   const cnp.int32_t[::1] lead_box,
                   const cnp.int32_t[::1] lead_stack) except -1:
    # Store the tail's groups as 1-based first items (see
    # Engine.configure_tail); lead_box None: no lead row.  The tail is
    # declared (tail_prio set) only once every table is filled.
    cdef link_t R = cell.shape[0], N = colsym.shape[0], S = 0, r, k
    cdef bint lead = lead_box is not None
    _tail_free(eng)
    if lead:
        S = lead_box.shape[0]
    eng.tail_cell = <link_t *>malloc(R * sizeof(link_t))
    eng.tail_rowsym = <link_t *>malloc(R * sizeof(link_t))
    eng.tail_colsym = <link_t *>malloc(N * sizeof(link_t))
    eng.tail_key = <word_t *>malloc(eng.n_words * sizeof(word_t))
    if lead:
        eng.lead_box = <link_t *>malloc(S * sizeof(link_t))
        eng.lead_stack = <link_t *>malloc(N * sizeof(link_t))
        eng.lead_stackcols = <word_t *>calloc(S, sizeof(word_t))
    if (eng.tail_cell == NULL or eng.tail_rowsym == NULL or eng.tail_colsym == NULL
            or eng.tail_key == NULL or (lead and (
                eng.lead_box == NULL or eng.lead_stack == NULL
                or eng.lead_stackcols == NULL))):
        _tail_free(eng)
        raise MemoryError("cannot allocate the tail tables")
    for r in range(R):
        eng.tail_cell[r] = cell[r] + 1
        eng.tail_rowsym[r] = rowsym[r] + 1
    for k in range(N):
        eng.tail_colsym[k] = colsym[k] + 1
    if lead:
        eng.lead_cell = lead_cell + 1
        eng.lead_rowsym = lead_rowsym + 1
        for r in range(S):
            eng.lead_box[r] = lead_box[r] + 1
        for k in range(N):
            eng.lead_stack[k] = lead_stack[k]
            eng.lead_stackcols[lead_stack[k]] |= (<word_t>1) << k
    eng.tail_rows = R
    eng.tail_syms = N
    eng.tail_stacks = S
    eng.tail_lead = lead
    eng.tail_prio = prio
    return 0
