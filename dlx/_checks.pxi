# Checks for tests (included by _engine.pyx): the invariants of
# _engine.pxd walked in full, and copies of the link arrays.  Never called
# by a search.


cdef tuple _snapshot(Engine eng):
    # Copies of every link array (for tests: equal before and after).
    cdef link_t ni = eng.n_items + 2
    cdef link_t nn = eng.n_nodes
    return (np.asarray(<link_t[:ni]> eng.ll).copy(),
            np.asarray(<link_t[:ni]> eng.rl).copy(),
            np.asarray(<link_t[:ni]> eng.length).copy(),
            np.asarray(<link_t[:nn]> eng.ul).copy(),
            np.asarray(<link_t[:nn]> eng.dl).copy(),
            np.asarray(<link_t[:nn]> eng.top).copy())


cdef int _check_invariants(Engine eng) except -1:
    # Walk every list; raise AssertionError on any inconsistency (DLX1 §12
    # `sanity`): every vertical list closes, its up links mirror its down
    # links, its nodes name their item and LEN counts them; both item
    # lists close with mirrored links and hold every primary (secondary)
    # item; nothing is marked covered.  Only between searches.
    cdef link_t i, p, n, prev, head, h, expected
    cdef link_t heads[2]
    if eng.running:
        raise AssertionError("a search is in progress")
    for i in range(1, eng.n_items + 1):
        n = 0
        prev = i
        p = eng.dl[i]
        while p != i:
            if eng.ul[p] != prev:
                raise AssertionError(f"item {i}: up link of node {p} is {eng.ul[p]}, expected {prev}")
            if eng.top[p] != i:
                raise AssertionError(f"item {i}: node {p} has top {eng.top[p]}")
            n += 1
            prev = p
            p = eng.dl[p]
            if n > eng.n_nodes:
                raise AssertionError(f"item {i}: vertical list does not close")
        if eng.ul[i] != prev:
            raise AssertionError(f"item {i}: header up link {eng.ul[i]}, expected {prev}")
        if n != eng.length[i]:
            raise AssertionError(f"item {i}: LEN {eng.length[i]} but {n} nodes")
        if not (eng.live[i >> 6] >> (i & 63)) & 1:
            raise AssertionError(f"item {i}: marked covered")
    heads[0] = ROOT
    heads[1] = eng.n_items + 1
    for h in range(2):
        head = heads[h]
        n = 0
        p = eng.rl[head]
        prev = head
        while p != head:
            if eng.ll[p] != prev:
                raise AssertionError(f"item list: left link of {p} is {eng.ll[p]}")
            prev = p
            p = eng.rl[p]
            n += 1
            if n > eng.n_items:
                raise AssertionError("item list does not close")
        if eng.ll[head] != prev:
            raise AssertionError("item list: head left link wrong")
        expected = eng.n_primary if head == ROOT else eng.n_items - eng.n_primary
        if n != expected:
            raise AssertionError(f"item list {head}: {n} items, expected {expected}")
    if eng.n_live_primary != eng.n_primary or eng.zhash != 0:
        raise AssertionError("covered-item bookkeeping not restored")
    # No memo point awaits its store between searches: a flag left set by an
    # interrupted search would store a stale count at that level next time.
    if eng.memo_pending != NULL:
        for i in range(eng.depth_cap):
            if eng.memo_pending[i]:
                raise AssertionError(f"memo point at level {i} still pending")
    return 0
