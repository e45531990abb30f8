# Entering a node: the shortcuts (included by _engine.pyx, after the
# memo table and the tail they call).  None changes a count.  Each
# shortcut is its own routine and _enter_node tries them in order, so that
# Engine._run keeps to DLX1's four labels (forward / advance / backup /
# recover).  Module-level inline functions of the engine, so that the C
# compiler folds them into Engine._run (a method declared in _engine.pxd
# is never marked inline).

cdef inline bint _memo_point(Engine eng, link_t c, link_t lvl) noexcept nogil:
    # A memo point is the entry to a marked priority class (or every
    # node with memo_all).  The class is that of c, the first item of
    # the ROOT list (the branching item is chosen within it), so the
    # test comes before the choice and a hit skips it.
    return eng.memo_all or (eng.memo_class[c] and (
        lvl == 0 or eng.prio[c] != eng.best_prio[lvl - 1]))


cdef inline bint _last_level(Engine eng, link_t c) noexcept nogil:
    # Every option of c covers all the primary items still uncovered,
    # so each completes a solution by itself (none needs covering).
    cdef link_t p = eng.dl[c]
    while p != c:
        if eng.rsize[eng.orow[p]] != eng.n_live_primary:
            return False
        p = eng.dl[p]
    return True


cdef inline int _add_solutions(Engine eng, count_t n) noexcept nogil:
    # Add a subtree's count, checked: _FINISHED, or _RC_OVERFLOW when
    # the total would pass 2**128 - 1.
    if count_add_overflow(eng.solutions, n, &eng.solutions):
        return _RC_OVERFLOW
    return _FINISHED


cdef inline int _enter_node(Engine eng, link_t lvl, bint stop_at_solution) noexcept nogil:
    # The node at lvl has just been entered; nothing is covered there.
    # It is finished without branching when the first of these applies:
    #   1. no primary item is left: a solution;
    #   2. a memo point whose live set is in the table: its count;
    #   3. the tail's first class is reached: the rectangle's count;
    #   4. the chosen item has no option left: a dead end (0);
    #   5. counting, and every option of the chosen item is a solution
    #      by itself: their number (the last level, from lengths).
    # A memo point that misses is stored once its count is known: here
    # for 3-5, at BACKUP (memo_pending) when the node branches.
    # Returns _FINISHED; _BRANCH with best[lvl] chosen (not covered);
    # or _RC_SOLUTION / _RC_LIMIT / _RC_OVERFLOW to stop the run.
    cdef link_t c = eng.rl[ROOT], n
    cdef bint memo_here = False
    cdef count_t cached
    cdef word_t work, h = 0
    cdef const word_t *key = NULL
    cdef int rc
    if c == ROOT:
        eng.solutions += 1
        if stop_at_solution:
            return _RC_SOLUTION
        if eng.limit != 0 and eng.solutions >= eng.limit:
            return _RC_LIMIT
        return _FINISHED
    if eng.memo_on and _memo_point(eng, c, lvl):
        key = _memo_key(eng, c, &h)
        if _memo_lookup(&eng.memo, key, h, &cached):
            return _add_solutions(eng, cached)
        memo_here = True
    if eng.tail_on and eng.prio[c] >= eng.tail_prio and \
            _tail_count(eng, &cached, &work):
        rc = _add_solutions(eng, cached)
        if memo_here and rc == _FINISHED:
            _memo_store(&eng.memo, key, h, cached, work)
        return rc
    c = eng._choose()
    n = eng.length[c]
    if n == 0:
        eng.dead_ends += 1
        if memo_here:
            _memo_store(&eng.memo, key, h, 0, 1)
        return _FINISHED
    if not stop_at_solution and eng.n_live_primary <= eng.max_rsize \
            and _last_level(eng, c):
        eng.solutions += n
        if eng.limit != 0 and eng.solutions >= eng.limit:
            return _RC_LIMIT
        if memo_here:
            _memo_store(&eng.memo, key, h, <count_t>n, 1)
        return _FINISHED
    eng.best[lvl] = c
    eng.best_prio[lvl] = eng.prio[c]
    if memo_here:
        eng.memo_pending[lvl] = 1
        eng.sol_at_entry[lvl] = eng.solutions
        eng.nodes_at_entry[lvl] = eng.nodes
    return _BRANCH
