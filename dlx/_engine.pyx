# cython: language_level=3
"""Dancing links (Knuth's Algorithm X, DLX1 layout) with optional memoized counting.

This module is private: ``dlx.api`` validates every input and is the only
caller.  The engine trusts what it is given (int32 CSR arrays with columns in
range, no repeats inside a row, no empty rows, distinct in-range givens).

One compilation unit: this file (cover/uncover, the branching rule, the
search loop, the Python-facing methods) includes ``_build.pxi`` (building
the links), ``_memo.pxi`` (the memo table), ``_memokey.pxi`` (its key at a
memo point, without dead items), ``_tail.pxi`` (the closed-form
tail), ``_checks.pxi`` (invariant checks for tests), ``_batch.pxi``
(solve_batch) and ``_enter.pxi`` (the node-entry shortcuts, ``_enter_node``);
``_simd.h`` holds the vector scans of the flat branching rule.
``_engine.pxd`` declares the data and its invariants.

Why it is shaped this way
-------------------------
* One flat set of int32 arrays, allocated when the matrix is built, never
  during a search (DLX1 §6-§7).  Links are indices, not pointers.
* cover/uncover/hide/unhide are tiny inline routines (TAOCP 7.2.2.1,
  Algorithm D names); their orderings are stated beside the loops.
* The search is an explicit stack machine (no recursion) whose state lives in
  the object, so it can stop after each solution and resume, and so an
  interrupt can unwind it to the pristine matrix.  Its phases are DLX1's
  labels forward / advance / backup / recover (§30-§35); every shortcut a
  node can take on entry is one routine, ``_enter_node`` (``_enter.pxi``).
* The branching item is the minimum-remaining-values item *within the first
  priority class still present*: the item list is ordered by (priority,
  column), so the current class is a prefix of the list.  Without priorities
  every item has class 0 and this is plain MRV.  The scan stops at LEN <= 1.
  With one class it reads the LEN array with vector compares (a covered
  item's LEN carries COVERED, so it never wins) instead of following links.
* Counting mode takes three shortcuts that never change a count:
  - the last level is counted from column lengths: if every option of the
    chosen item covers exactly the primary items that remain, each option
    is a solution and none needs covering;
  - memoization (Nishino, Yasuda, Minato, Nagata, AAAI 2017): the remaining
    subproblem is determined by the set of uncovered items, so its count is
    cached under that set (compared in full; the hash only picks the
    bucket), without the secondary items no option still choosable covers
    (``_memokey.pxi``);
  - a declared tail (``configure_tail``): once a given priority class is
    reached the rest is a Latin rectangle with prescribed column sets
    (possibly after one lead row), counted without searching.
* Counts are 128-bit and every addition of a cached count is checked, so no
  count ever wraps silently.  Statistics are 64-bit: 2**64 nodes is beyond
  any run (centuries at a billion nodes a second).
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint32_t, uint64_t

import numpy as np
cimport numpy as cnp

from dlx._typedefs cimport link_t, word_t, count_t, count_add_overflow

cnp.import_array()

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef extern from "_simd.h":
    # first i in [0, n) with a[i] < t (n if none); min(a[0..n)), n >= 1
    link_t _first_below "dlx_first_below" (const link_t *a, link_t n, link_t t) noexcept nogil
    link_t _min_of "dlx_min" (const link_t *a, link_t n) noexcept nogil

# Phases of the resumable search loop (DLX1 §30-§35 labels).
cdef enum:
    FORWARD = 0       # enter a node at `level` (nothing covered there yet)
    ADVANCE = 1       # try choice[level]; best[level] is covered
    BACKUP = 2        # options of best[level] exhausted: uncover it, go up
    LEAVE = 3         # go up from `level` with nothing covered there (the
                      # end of DLX1's backup; a phase of its own so that a
                      # search stopped at a solution keeps its level)
    RECOVER = 4       # undo choice[level], move to the next option
    DONE = 5

cdef enum:
    ROOT = 0                    # head of the list of primary items to cover
    COVERED = 1 << 30           # added to LEN while an item is covered
    SIGNAL_MASK = (1 << 22) - 1 # check for Ctrl-C every 4M nodes

# Return codes of _run (besides -1, which means a Python exception is set).
RC_DONE = 0
RC_SOLUTION = 1
RC_LIMIT = 2
RC_OVERFLOW = 3
cdef enum:
    _RC_DONE = 0
    _RC_SOLUTION = 1
    _RC_LIMIT = 2
    _RC_OVERFLOW = 3
    # what _enter_node decided, besides stopping the run with one of the above
    _BRANCH = 10      # branch on best[level] (chosen, not yet covered)
    _FINISHED = 11    # the node is counted whole: leave it


cdef inline object _count_to_int(count_t c):
    cdef uint64_t lo = <uint64_t>c
    cdef uint64_t hi = <uint64_t>(c >> 64)
    return (int(hi) << 64) | int(lo)


cdef inline count_t _int_to_count(object v):
    # v in 0 .. 2**128 - 1 (dlx.api checks count limits)
    cdef uint64_t lo = <uint64_t>(v & 0xFFFFFFFFFFFFFFFF)
    cdef uint64_t hi = <uint64_t>(v >> 64)
    return ((<count_t>hi) << 64) | <count_t>lo


cdef inline word_t _splitmix(word_t *state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef word_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


include "_build.pxi"
include "_memo.pxi"
include "_memokey.pxi"
include "_tail.pxi"
include "_checks.pxi"
include "_batch.pxi"
include "_enter.pxi"


cdef class Engine:
    """Owner of the link arrays of one exact-cover matrix (private)."""

    def __cinit__(self):
        # (Cython zeroes the object: every pointer is NULL, the memo table
        # empty.)  No tail until configure_tail.
        self.tail_prio = -1

    def __init__(self, cnp.int32_t[::1] indptr not None,
                 cnp.int32_t[::1] indices not None,
                 link_t n_primary, link_t n_secondary,
                 cnp.int32_t[::1] priority not None):
        """Build the links from CSR rows; `priority` has one entry per column."""
        _build(self, indptr, indices, n_primary, n_secondary, priority)

    def __dealloc__(self):
        free(self.ll); free(self.rl); free(self.prio); free(self.length)
        free(self.ul); free(self.dl); free(self.top); free(self.orow)
        free(self.row_first); free(self.rsize)
        free(self.choice); free(self.best); free(self.best_prio)
        free(self.givens); free(self.zobrist); free(self.live)
        free(self.pristine)
        free(self.nodes_at_entry); free(self.sol_at_entry)
        free(self.memo_pending); free(self.memo_class)
        free(self.memo.words)
        free(self.key_mask_of); free(self.key_masks); free(self.memo_key)
        _tail_free(self)

    # ------------------------------------------------------------------
    # cover / uncover (TAOCP 7.2.2.1 D; DLX1 §23-§29)

    cdef inline void _hide(self, link_t p) noexcept nogil:
        # Remove every other node of p's option from its item list, going
        # rightward; a spacer sends us back to the option's first node.
        # (The arrays are read into locals: stores through one int pointer
        # would otherwise make the compiler reload the others.)
        cdef link_t *top = self.top
        cdef link_t *ul = self.ul
        cdef link_t *dl = self.dl
        cdef link_t *length = self.length
        cdef link_t q = p + 1, x, u, d
        while q != p:
            x = top[q]
            u = ul[q]
            d = dl[q]
            if x <= 0:
                q = u
            else:
                dl[u] = d
                ul[d] = u
                length[x] -= 1
                q += 1

    cdef inline void _unhide(self, link_t p) noexcept nogil:
        # Exact mirror of _hide: leftward, relinking in reverse order.
        cdef link_t *top = self.top
        cdef link_t *ul = self.ul
        cdef link_t *dl = self.dl
        cdef link_t *length = self.length
        cdef link_t q = p - 1, x, u, d
        while q != p:
            x = top[q]
            u = ul[q]
            d = dl[q]
            if x <= 0:
                q = d
            else:
                dl[u] = q
                ul[d] = q
                length[x] += 1
                q -= 1

    cdef inline void _cover(self, link_t i) noexcept nogil:
        # Hide every option of item i (top to bottom), then unlink i from
        # its item list.  Keeps the live bitset, hash and primary count.
        cdef link_t *dl = self.dl
        cdef link_t p = dl[i]
        cdef link_t l, r
        while p != i:
            self._hide(p)
            p = dl[p]
        l = self.ll[i]
        r = self.rl[i]
        self.rl[l] = r
        self.ll[r] = l
        self.length[i] += COVERED
        self.live[i >> 6] ^= (<word_t>1) << (i & 63)
        self.zhash ^= self.zobrist[i]
        self.updates += 1
        if i <= self.n_primary:
            self.n_live_primary -= 1

    cdef inline void _uncover(self, link_t i) noexcept nogil:
        # Relink i, then unhide its options bottom to top (reverse of _cover).
        cdef link_t l = self.ll[i], r = self.rl[i]
        cdef link_t p
        self.rl[l] = i
        self.ll[r] = i
        self.length[i] -= COVERED
        self.live[i >> 6] ^= (<word_t>1) << (i & 63)
        self.zhash ^= self.zobrist[i]
        if i <= self.n_primary:
            self.n_live_primary += 1
        cdef link_t *ul = self.ul
        p = ul[i]
        while p != i:
            self._unhide(p)
            p = ul[p]

    cdef inline void _cover_row_rest(self, link_t p) noexcept nogil:
        # Cover the other items of p's option, rightward (DLX1 §28).
        cdef link_t q = p + 1, j
        while q != p:
            j = self.top[q]
            if j <= 0:
                q = self.ul[q]
            else:
                self._cover(j)
                q += 1

    cdef inline void _uncover_row_rest(self, link_t p) noexcept nogil:
        # Uncover them leftward: the exact reverse of _cover_row_rest
        # ("the choreography is delicate", DLX1 §29).
        cdef link_t q = p - 1, j
        while q != p:
            j = self.top[q]
            if j <= 0:
                q = self.dl[q]
            else:
                self._uncover(j)
                q -= 1

    cdef inline link_t _choose_flat(self) noexcept nogil:
        # The same rule as _choose for a single class (the ROOT list is then
        # items 1..n_primary in order), restated: the leftmost item with
        # LEN <= 1 if there is one (the scan stops there), else the leftmost
        # of minimum LEN.  Covered items carry COVERED in their LEN, so the
        # primary LENs are one array scanned by vector compares, without
        # following links (most nodes end in the first pass: 97% of them on
        # 17-clue Sudoku).
        cdef const link_t *len1 = self.length + 1      # len1[k]: item k + 1
        cdef link_t n = self.n_primary
        cdef link_t k = _first_below(len1, n, 2)
        if k < n:
            return k + 1
        return _first_below(len1, n, _min_of(len1, n) + 1) + 1

    cdef inline link_t _choose(self) noexcept nogil:
        # Minimum remaining values within the first priority class present
        # (a prefix of the ROOT list); leftmost on ties; stop at LEN <= 1.
        if self.flat:
            return self._choose_flat()
        cdef link_t p = self.rl[ROOT]
        cdef link_t cls = self.prio[p]
        cdef link_t best = p
        cdef link_t best_len = self.length[p]
        p = self.rl[p]
        while best_len > 1 and p != ROOT and self.prio[p] == cls:
            if self.length[p] < best_len:
                best = p
                best_len = self.length[p]
            p = self.rl[p]
        return best

    # ------------------------------------------------------------------
    # The search (DLX1 §30-§35 as a resumable state machine)

    cdef int _run(self, bint stop_at_solution) except -1 nogil:
        """Run until done, a solution (if stop_at_solution), the limit, or
        a count overflow.  Returns an _RC_* code; -1 if a signal handler
        raised (the state is then consistent and can be unwound).

        Invariant at the top of the loop: levels 0 .. lvl-1 each have
        best[k] covered and the rest of choice[k]'s option covered, in that
        order; at lvl, best[lvl] is covered in ADVANCE and BACKUP, and
        choice[lvl]'s rest too in RECOVER; nothing is covered at lvl in
        FORWARD and LEAVE.  (_unwind relies on exactly this.)"""
        cdef link_t lvl = self.level
        cdef link_t cur
        cdef int rc
        cdef const word_t *key
        cdef word_t h
        while True:
            if self.phase == FORWARD:
                # forward: enter a node; finish it at once or branch
                self.nodes += 1
                if (self.nodes & SIGNAL_MASK) == 0:
                    self.level = lvl
                    with gil:
                        PyErr_CheckSignals()
                rc = _enter_node(self, lvl, stop_at_solution)
                if rc == _BRANCH:
                    self._cover(self.best[lvl])
                    self.choice[lvl] = self.dl[self.best[lvl]]
                    self.phase = ADVANCE
                else:
                    self.phase = LEAVE
                    if rc != _FINISHED:
                        self.level = lvl
                        return rc
            elif self.phase == ADVANCE:
                # advance: try the next option of best[lvl], one level down
                cur = self.choice[lvl]
                if cur == self.best[lvl]:
                    self.phase = BACKUP
                    continue
                self._cover_row_rest(cur)
                lvl += 1
                self.phase = FORWARD
            elif self.phase == BACKUP:
                # backup: every option of best[lvl] was tried
                self._uncover(self.best[lvl])
                if self.memo_pending[lvl]:
                    # the state is again exactly the one at this node's entry
                    self.memo_pending[lvl] = 0
                    key = _memo_key(self, self.rl[ROOT], &h)
                    _memo_store(&self.memo, key, h,
                                self.solutions - self.sol_at_entry[lvl],
                                self.nodes - self.nodes_at_entry[lvl])
                self.phase = LEAVE
            elif self.phase == LEAVE:
                # (the end of backup) return to the level above
                if lvl == 0:
                    self.phase = DONE
                    self.level = 0
                    return _RC_DONE
                lvl -= 1
                self.phase = RECOVER
            elif self.phase == RECOVER:
                # recover: undo choice[lvl], then advance to the next option
                cur = self.choice[lvl]
                self._uncover_row_rest(cur)
                self.choice[lvl] = self.dl[cur]
                self.phase = ADVANCE
            else:
                self.level = lvl
                return _RC_DONE

    cdef void _unwind(self) noexcept nogil:
        """Undo a suspended search, then the givens: the matrix is pristine."""
        cdef link_t lvl = self.level
        cdef link_t k, q, p
        if self.running:
            if self.phase == ADVANCE or self.phase == BACKUP:
                # best[lvl] covered, no row of this level covered
                self._uncover(self.best[lvl])
            # FORWARD / LEAVE / DONE: nothing covered at lvl itself.
            # RECOVER at lvl: choice[lvl]'s rest is still covered.
            if self.phase == RECOVER:
                self._uncover_row_rest(self.choice[lvl])
                self._uncover(self.best[lvl])
            k = lvl - 1
            while k >= 0:
                self._uncover_row_rest(self.choice[k])
                self._uncover(self.best[k])
                k -= 1
            memset(self.memo_pending, 0, self.depth_cap)
            # givens: reverse order, each row's items right to left
            k = self.n_givens - 1
            while k >= 0:
                p = self.row_first[self.givens[k]]
                q = p
                while self.top[q + 1] > 0:
                    q += 1
                while q >= p:
                    self._uncover(self.top[q])
                    q -= 1
                k -= 1
        self.n_givens = 0
        self.level = 0
        self.phase = DONE
        self.running = False

    # ------------------------------------------------------------------
    # Python-facing methods (called only by dlx.api)

    def start(self, cnp.int32_t[::1] given_rows not None, object limit,
              bint memo, bint memo_all, cnp.int8_t[::1] memo_class not None,
              bint tail=False):
        """Cover the given rows and arm a search (api checked them).
        memo_class[col] != 0: entering col's priority class is a memo point.
        tail: count the configured tail in closed form (counting only)."""
        cdef link_t k
        if self.running:
            self._unwind()
        if memo and self.memo.buckets == 0:
            raise RuntimeError("memo table not configured")
        if tail and self.tail_prio < 0:
            raise RuntimeError("tail not configured")
        if given_rows.shape[0] > self.n_rows:
            raise ValueError("more given rows than the matrix has")
        self._reset_stats()
        self.tail_on = tail
        self.limit = 0 if limit is None else _int_to_count(limit)
        self.memo_on = memo
        self.memo_all = memo_all
        self.memo.gen += 1
        for k in range(self.n_items):
            self.memo_class[k + 1] = memo_class[k]
        self.n_givens = given_rows.shape[0]
        for k in range(self.n_givens):
            self.givens[k] = given_rows[k]
        if not self._apply_givens():
            raise ValueError("given rows share a column")

    cdef void _reset_stats(self) noexcept nogil:
        """Zero the statistics of a run (nodes, solutions, memo traffic,
        tail calls) before a new search or batch."""
        self.nodes = self.dead_ends = self.updates = 0
        self.solutions = 0
        self.memo.lookups = self.memo.hits = self.memo.stores = 0
        self.tail_calls = self.tail_steps = 0

    cdef bint _apply_givens(self) noexcept nogil:
        """Cover the rows self.givens[0:n_givens] and arm the search.
        A given row with an item already covered conflicts with an earlier
        one: everything is undone and False returned."""
        cdef link_t k, p, q, i
        for k in range(self.n_givens):
            p = self.row_first[self.givens[k]]
            q = p
            while self.top[q] > 0:
                i = self.top[q]
                if not (self.live[i >> 6] >> (i & 63)) & 1:
                    # nothing of row k is covered yet (checked before any
                    # cover): undo rows 0..k-1 only
                    self.n_givens = k
                    self.running = True
                    self.phase = DONE
                    self.level = 0
                    self._unwind()
                    return False
                q += 1
            q = p
            while self.top[q] > 0:
                self._cover(self.top[q])
                q += 1
        self.running = True
        self.level = 0
        self.phase = FORWARD
        return True

    def solve_batch(self, cnp.int32_t[::1] indptr not None,
                    cnp.int32_t[::1] given not None, link_t limit,
                    cnp.int64_t[::1] out_count not None,
                    cnp.int32_t[:, ::1] out_rows not None):
        """Search one problem per range given[indptr[p]:indptr[p+1]],
        without the GIL, into out_count and out_rows (see _batch.pxi)."""
        _solve_batch(self, indptr, given, limit, out_count, out_rows)

    def run(self, bint stop_at_solution):
        """Continue the armed search; returns an RC_* code."""
        cdef int rc
        if not self.running or self.phase == DONE:
            return RC_DONE
        try:
            with nogil:
                rc = self._run(stop_at_solution)
        except BaseException:
            self._unwind()
            raise
        return rc

    def solution_rows(self):
        """Rows of the solution the search is stopped at (givens first)."""
        cdef link_t k
        rows = [self.givens[k] for k in range(self.n_givens)]
        for k in range(self.level):
            rows.append(self.orow[self.choice[k]])
        return rows

    def finish(self):
        """Restore the pristine matrix (idempotent)."""
        self._unwind()

    def configure_memo(self, word_t max_bytes):
        """Allocate (or re-allocate) the memo table within max_bytes;
        returns its size in bytes."""
        return _memo_alloc(&self.memo, max_bytes)

    def configure_tail(self, link_t prio, cnp.int32_t[::1] cell not None,
                       cnp.int32_t[::1] rowsym not None,
                       cnp.int32_t[::1] colsym not None,
                       link_t lead_cell=-1, link_t lead_rowsym=-1,
                       cnp.int32_t[::1] lead_box=None,
                       cnp.int32_t[::1] lead_stack=None):
        """Declare that once the class `prio` is entered, the uncovered
        problem is the Latin rectangle on these 0-based columns, after the
        lead row if one is given.  Every argument is the first column of a
        group of N consecutive ones (api checked): cell and rowsym per row
        (R <= N <= 64), colsym per column; lead_cell, lead_rowsym, lead_box
        per stack (S), and lead_stack, the stack of each of the N cells."""
        if self.running:
            self._unwind()
        _tail_set(self, prio, cell, rowsym, colsym, lead_cell, lead_rowsym,
                  lead_box, lead_stack)

    def clear_memo(self):
        """Empty the memo table (keeping its size)."""
        _memo_clear(&self.memo)

    def collide_hashes(self):
        """For tests: make every Zobrist word 0, so every key hashes to 0
        and shares one bucket; only the full key compare of the memo table
        then tells states apart.  Irreversible for this object."""
        if self.running:
            self._unwind()
        memset(self.zobrist, 0, (self.n_items + 2) * sizeof(word_t))
        self.zhash = 0
        self.hash_mask = 0

    def stats(self):
        return {
            "nodes": self.nodes,
            "solutions": _count_to_int(self.solutions),
            "dead_ends": self.dead_ends,
            "updates": self.updates,
            "memo_lookups": self.memo.lookups,
            "memo_hits": self.memo.hits,
            "memo_stores": self.memo.stores,
            "memo_entries": self.memo.used,
            "memo_slots": self.memo.buckets * BUCKET,
            "memo_bytes": self.memo.buckets * self.memo.bucket_words * sizeof(word_t),
            "tail_calls": self.tail_calls,
            "tail_steps": self.tail_steps,
        }

    def snapshot(self):
        """Copies of every link array (for tests: equal before and after)."""
        return _snapshot(self)

    def check_invariants(self):
        """Walk every list; raise AssertionError on any inconsistency
        (DLX1 §12 `sanity`)."""
        _check_invariants(self)
