# The batch solver (included by _engine.pyx): Engine.solve_batch searches
# one problem after another without the GIL, each from its own givens.
#
# A finished problem is undone by copying saved link arrays back when
# enough items are covered that this is cheaper than uncovering them
# (_restore); otherwise by uncovering (Engine._unwind).  Undoing every
# cover restores a DLX matrix exactly, so both give the same matrix.


cdef void _copy_links(Engine eng, bint save) noexcept nogil:
    # The arrays a search changes (ll, rl, length, ul, dl, live), one
    # after the other in the block `pristine`: copied into it (save) or
    # back from it.
    cdef size_t ni = eng.n_items + 2, nn = eng.n_nodes, k
    cdef link_t *arrays[5]
    cdef size_t sizes[5]
    cdef char *block = <char *>eng.pristine
    arrays[0] = eng.ll; arrays[1] = eng.rl; arrays[2] = eng.length
    arrays[3] = eng.ul; arrays[4] = eng.dl
    sizes[0] = sizes[1] = sizes[2] = ni * sizeof(link_t)
    sizes[3] = sizes[4] = nn * sizeof(link_t)
    for k in range(5):
        if save:
            memcpy(block, arrays[k], sizes[k])
        else:
            memcpy(arrays[k], block, sizes[k])
        block += sizes[k]
    if save:
        memcpy(block, eng.live, eng.n_words * sizeof(word_t))
    else:
        memcpy(eng.live, block, eng.n_words * sizeof(word_t))



cdef void _restore(Engine eng) noexcept nogil:
    # The end state of Engine._unwind by copying: every array a search
    # changes is set back from the copy in `pristine`, and the counters
    # to their pristine values.  Undoing every cover restores a DLX
    # matrix exactly (each list keeps its order), so the two agree;
    # copying costs the same whatever the search did.  solve_batch only:
    # no memo entry is pending there.
    _copy_links(eng, False)
    eng.zhash = 0
    eng.n_live_primary = eng.n_primary
    eng.n_givens = 0
    eng.level = 0
    eng.phase = DONE
    eng.running = False



cdef int _save_pristine(Engine eng) except -1:
    # Copy the (pristine) link arrays for _restore, once; set the number
    # of covered items from which copying is the cheaper undo.
    cdef size_t ni = eng.n_items + 2, nn = eng.n_nodes
    cdef size_t n_links = 3 * ni + 2 * nn
    cdef double nnz, per_item
    if eng.pristine != NULL:
        return 0
    eng.pristine = <link_t *>malloc(n_links * sizeof(link_t)
                                    + eng.n_words * sizeof(word_t))
    if eng.pristine == NULL:
        raise MemoryError("cannot allocate the copy of the links")
    _copy_links(eng, True)
    # Uncovering an item relinks about (mean LEN) * (mean option
    # size - 1) nodes at ~12 instructions each; copying moves 32 bytes
    # in ~2.  Copy once the covered items would relink n_links / 8
    # nodes (measured on 9x9 Sudoku: results/bench_puzzles.md).
    nnz = <double>(eng.n_nodes - eng.n_items - 2 - eng.n_rows)
    per_item = 0.0
    if eng.n_items > 0 and eng.n_rows > 0:
        per_item = (nnz / eng.n_items) * (nnz / eng.n_rows - 1.0)
    if per_item < 1.0:
        per_item = 1.0
    eng.restore_covers = <link_t>(n_links / (8.0 * per_item)) + 1
    return 0


cdef int _solve_batch(Engine eng, cnp.int32_t[::1] indptr, cnp.int32_t[::1] given,
                     link_t limit, cnp.int64_t[::1] out_count,
                     cnp.int32_t[:, ::1] out_rows) except -1:
    # Engine.solve_batch: search one problem per range
    # given[indptr[p]:indptr[p+1]].  out_count[p]: solutions found,
    # stopping at `limit` (-1 if the given rows conflict); out_rows[p]: the
    # first solution's rows (givens first, then the search's choices, -1
    # padded).  The whole batch runs without the GIL (it is taken back
    # only to check for Ctrl-C).
    cdef Py_ssize_t n_prob = indptr.shape[0] - 1
    cdef Py_ssize_t width = out_rows.shape[1]
    cdef Py_ssize_t pb, k, j
    cdef link_t found
    cdef count_t total = 0
    cdef int rc
    for pb in range(n_prob):
        # distinct given rows (api checked) fit in eng.givens
        if indptr[pb + 1] - indptr[pb] > eng.n_rows:
            raise ValueError(f"problem {pb}: more given rows than the matrix has")
    if eng.running:
        eng._unwind()
    _save_pristine(eng)
    eng.memo_on = False
    eng.tail_on = False
    eng.limit = 0
    eng._reset_stats()
    try:
        with nogil:
            for pb in range(n_prob):
                eng.n_givens = <link_t>(indptr[pb + 1] - indptr[pb])
                for k in range(eng.n_givens):
                    eng.givens[k] = given[indptr[pb] + k]
                for j in range(width):
                    out_rows[pb, j] = -1
                if not eng._apply_givens():
                    out_count[pb] = -1
                    continue
                eng.solutions = 0
                found = 0
                while found < limit:
                    rc = eng._run(True)
                    if rc != _RC_SOLUTION:
                        break
                    found += 1
                    if found == 1:
                        j = 0
                        for k in range(eng.n_givens):
                            if j < width:
                                out_rows[pb, j] = eng.givens[k]
                            j += 1
                        for k in range(eng.level):
                            if j < width:
                                out_rows[pb, j] = eng.orow[eng.choice[k]]
                            j += 1
                out_count[pb] = found
                total += found
                if eng.n_primary - eng.n_live_primary >= eng.restore_covers:
                    _restore(eng)
                else:
                    eng._unwind()
    except BaseException:
        eng._unwind()
        raise
    finally:
        eng.solutions = total      # the stats: the batch's solutions
    return 0
