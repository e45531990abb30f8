# The dancing-links engine: data layout and invariants.
#
# Layout (after Knuth's DLX1, with columns called "items" and rows "options"):
#
#   items   1 .. n_items        item i is column i-1 of the problem; items
#                               1..n_primary are primary, the rest secondary.
#   item 0                      ROOT: head of the circular list of primary
#                               items still to cover, linked through ll/rl and
#                               ordered by (priority, column) at build time.
#   item n_items+1              head of the circular list of secondary items.
#
#   nodes   1 .. n_items        node i is the header of item i's vertical list.
#   node n_items+1              the first spacer; then each option's nodes,
#                               each option followed by a spacer.
#
# Invariants while the search runs:
#   * length[i] is the number of nodes in item i's vertical list, plus
#     COVERED (2**30) while i is covered (its list is frozen then);
#   * for an option node q: top[q] = its item (>= 1), orow[q] = its row;
#   * for a spacer s: top[s] <= 0, ul[s] = first node of the option before s,
#     dl[s] = last node of the option after s, so every option can be walked
#     circularly in both directions;
#   * bit i of `live` is set exactly when item i is not covered, and
#     `zhash` is the XOR of zobrist[i] over the covered items;
#   * n_live_primary = number of primary items still in the ROOT list.
# Nothing is allocated during a search: every array is sized at build time.

from dlx._typedefs cimport link_t, word_t, count_t

# The memo table (dlx/_memo.pxi): subproblem counts keyed on the live-item
# bitset.  Layout of a bucket (bucket_words words, the table 64-byte aligned):
#   words 0..3      hash of slot 0..3 (the full Zobrist hash of its key)
#   words 4..5      uint32 work of slot 0..3: subtree nodes, saturated;
#                   0 = empty slot
#   words 6..7      uint32 generation (count call) that stored slot 0..3
#   then slot s at 8 + s * (key_words + 2): key_words key words, then the
#   128-bit count as two words (low, high).
# Invariant: a slot with work != 0 holds the exact count of the subproblem
# whose uncovered items are its key, whatever the hash (keys are compared
# in full, so the hash only picks the bucket and the candidate slots).
cdef struct MemoTable:
    word_t *words                   # buckets * bucket_words words (NULL: none)
    word_t buckets                  # a power of two (0: no table)
    link_t bucket_words             # 8 header words + BUCKET * (key_words + 2)
    link_t key_words                # words of a key (the engine's n_words)
    word_t gen                      # generation of the current count call
    word_t lookups                  # lookups in the current count call
    word_t hits                     # ... of which found their key
    word_t stores                   # entries written in the current call
    word_t used                     # slots holding an entry

cdef class Engine:
    # --- problem size
    cdef link_t n_items             # columns, primary + secondary
    cdef link_t n_primary           # primary columns (items 1..n_primary)
    cdef link_t n_rows              # options
    cdef link_t n_nodes             # headers + option nodes + spacers (+ node 0)
    cdef link_t max_rsize           # largest number of primary items in one row
    cdef link_t n_words             # 64-bit words in a live-item bitset
    cdef bint flat                  # one priority class: ROOT list = item order

    # --- item list (horizontal), size n_items + 2
    cdef link_t *ll                 # left link of an item
    cdef link_t *rl                 # right link of an item
    cdef link_t *prio               # priority class of an item (smaller first)
    cdef link_t *length             # LEN: nodes left in an item's list

    # --- nodes (vertical lists), size n_nodes
    cdef link_t *ul                 # up link
    cdef link_t *dl                 # down link
    cdef link_t *top                # item of an option node; <= 0 for spacers
    cdef link_t *orow               # row of an option node; -1 otherwise

    # --- rows, size n_rows
    cdef link_t *row_first          # first node of each row
    cdef link_t *rsize              # number of primary items of each row

    # --- search state (resumable), stacks of size depth_cap
    cdef link_t depth_cap           # n_primary + 2 (a level covers >= 1 primary)
    cdef link_t level               # current level
    cdef int phase                  # where a suspended search resumes
    cdef link_t *choice             # node chosen at each level
    cdef link_t *best               # item branched on at each level
    cdef link_t *best_prio          # priority of that item (memo points)
    cdef link_t n_live_primary      # primary items not yet covered
    cdef bint running               # a search holds covered items
    cdef link_t *givens             # rows covered before the search
    cdef link_t n_givens            # <= n_rows (givens has n_rows + 1 entries)
    cdef link_t *pristine           # solve_batch: copies of ll, rl, length,
                                    # ul, dl, live of the pristine matrix
                                    # (NULL until first needed)
    cdef link_t restore_covers      # solve_batch: restore by copy when at
                                    # least this many items are covered

    # --- counting
    cdef count_t solutions          # solutions found so far in this run
    cdef count_t limit              # stop when solutions >= limit (0: none)
    cdef word_t nodes               # search-tree nodes entered
    cdef word_t dead_ends           # nodes whose chosen item had LEN 0
    cdef word_t updates             # items covered: one per _cover of an item

    # --- memo (Nishino et al. 2017): key = set of uncovered items
    cdef bint memo_on               # memoize subproblem counts in this run
    cdef bint memo_all              # at every node, not only at class changes
    cdef char *memo_class           # per item: entering its class is a memo point
    cdef word_t *zobrist            # random 64-bit word per item
    cdef word_t zhash               # XOR of zobrist over covered items
    cdef word_t *live               # bitset of uncovered items, n_words words
    cdef count_t *sol_at_entry      # solutions when a memo point was entered
    cdef word_t *nodes_at_entry     # nodes when a memo point was entered
    cdef char *memo_pending         # level is a memo point awaiting its store
    cdef MemoTable memo             # the table (dlx/_memo.pxi)
    # --- the memo key without dead items (dlx/_memokey.pxi), built once
    cdef link_t *key_mask_of        # per item c: the mask of the memo key
                                    # when c heads the ROOT list (-1: none,
                                    # the key is live itself, hash zhash)
    cdef word_t *key_masks          # masks, n_words words each: the items a
                                    # key keeps (primary + not yet dead)
    cdef word_t *memo_key           # n_words: the masked key of a memo point
    cdef word_t hash_mask           # all ones; 0 after collide_hashes (tests)

    # --- closed-form tail (dlx/_tail.pxi: a Latin rectangle is left once
    #     the class tail_prio is entered).  Every group of tail items is
    #     N consecutive items, so a group is its first item (1-based) and
    #     its live set is one shifted window of the live bitset.
    cdef bint tail_on               # use the tail in this run
    cdef link_t tail_prio           # first class of the tail (-1: none)
    cdef link_t tail_rows           # R: rows of the rectangle
    cdef link_t tail_syms           # N: its columns, and its symbols
    cdef link_t *tail_cell          # R: first item "cell (r, c) is filled"
    cdef link_t *tail_rowsym        # R: first item "row r holds symbol s"
    cdef link_t *tail_colsym        # N: first item "column c holds symbol s"
    cdef bint tail_lead             # a lead row comes before the rectangle:
    cdef link_t tail_stacks         #   the last row of the band above, whose
    cdef link_t lead_cell           #   cells (first item lead_cell) in stack
    cdef link_t lead_rowsym         #   lead_stack[c] take the symbols still
    cdef link_t *lead_box           #   missing from that stack's box (S:
    cdef link_t *lead_stack         #   first item "box s holds symbol d")
    cdef word_t *lead_stackcols     # S: the columns of each stack
    cdef word_t *tail_key           # n_words: a live set after the lead row
    cdef word_t tail_calls          # rectangles counted in this run
    cdef word_t tail_steps          # their enumeration steps

    # --- cover / uncover (DLX1 §23-§29) and the branching rule (§30);
    #     all noexcept nogil.  (The node-entry shortcuts are module-level
    #     inline functions in _enter.pxi, _memo.pxi and _tail.pxi: a
    #     method declared here is never compiled inline.)
    cdef void _cover(self, link_t i) noexcept nogil
    cdef void _uncover(self, link_t i) noexcept nogil
    cdef void _hide(self, link_t p) noexcept nogil
    cdef void _unhide(self, link_t p) noexcept nogil
    cdef void _cover_row_rest(self, link_t p) noexcept nogil
    cdef void _uncover_row_rest(self, link_t p) noexcept nogil
    cdef link_t _choose(self) noexcept nogil
    cdef link_t _choose_flat(self) noexcept nogil

    # --- the search, its givens and its undoing
    cdef int _run(self, bint stop_at_solution) except -1 nogil
    cdef void _reset_stats(self) noexcept nogil
    cdef bint _apply_givens(self) noexcept nogil
    cdef void _unwind(self) noexcept nogil
