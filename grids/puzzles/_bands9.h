/* The 9x9 puzzle kernel on band bit-boards (grids/puzzles/_boards.h calls
   b9_solve for every 9x9 puzzle with 3x3 boxes; other shapes keep the
   per-cell boards there).

   The board is, for each digit d and band b (rows 3b..3b+2), one 27-bit
   word F[d][b]: bit 9 r + c set when digit d is still possible in cell
   (3b + r, c).  `solved[b]` marks the cells placed.  So one AND clears a
   digit from a whole band, and a row, a box or a column of one digit is a
   few shifts and masks of three words, not nine cells read one at a time.
   (The layout is the well-known one of JCZSolve and of tdoku's band
   triads; this code is gridcount's own.)

   Invariants of a board between routines:
     * a placed cell (bit in `solved`) is in its digit's word only, and no
       peer of it has that digit;
     * a candidate is only removed by the consequences of placements (never
       guessed away), so every solution consistent with the placements
       keeps all its digits as candidates.
   So a board whose 81 cells are all placed is a solution: each cell has
   one digit and no two peers share one.

   Propagation, until nothing changes: naked singles (a cell with one
   candidate is placed) and empty cells (a contradiction), found for a whole
   band at once by a bit-sliced count over the nine digits; hidden singles
   (a digit with one place in a row, a column or a box is placed there) and
   empty units (a contradiction), for each digit whose words changed since
   its last scan.  Then the search branches on an unplaced cell of fewest
   candidates (a cell of two when there is one); the last candidate of a
   branch is placed on the same board, the others on a copy one level
   down.  The stack is explicit: at most 81 levels, each a board and the
   cell and digits left to try. */
#ifndef GRIDS_BANDS9_H
#define GRIDS_BANDS9_H

#include <stdint.h>
#include <string.h>

#define B9_FULL 0x7FFFFFFu    /* the 27 cells of a band */
#define B9_ROW 0x1FFu         /* the 9 cells of a band's first row */

typedef struct {
    uint32_t F[9][3];         /* F[d][b]: cells of band b where digit d + 1 is possible */
    uint32_t solved[3];       /* cells placed */
    uint32_t changed;         /* bit 3 d + b: F[d][b] changed since d's last hidden-single scan */
} b9_board;

typedef struct {
    uint32_t peers[81][3];    /* the 20 peers of a cell, per band (the cell itself excluded) */
} b9_tables;

typedef struct {
    int cell;                 /* the cell branched on at this level */
    uint32_t left;            /* the digits still to try there (bit d: digit d + 1) */
} b9_branch;

#define B9_INLINE static inline __attribute__((always_inline))

/* The peers of each cell, as masks per band. */
static void b9_make_tables(b9_tables *T) {
    int x, y;
    memset(T, 0, sizeof *T);
    for (x = 0; x < 81; x++)
        for (y = 0; y < 81; y++) {
            int rx = x / 9, cx = x % 9, ry = y / 9, cy = y % 9;
            if (y != x && (rx == ry || cx == cy || (rx / 3 == ry / 3 && cx / 3 == cy / 3)))
                T->peers[x][y / 27] |= 1u << (y % 27);
        }
}

/* Place digit d (0..8) in cell c, which has it as a candidate: clear c from
   the other digits and d from c's peers. */
B9_INLINE void b9_place(b9_board *B, const b9_tables *T, int d, int c) {
    int b = c / 27, p = c % 27, e;
    uint32_t bit = 1u << p, changed = 0;
    for (e = 0; e < 9; e++) {       /* branch-free: which digits lose the cell */
        changed |= ((B->F[e][b] >> p) & 1u) << (3 * e + b);
        B->F[e][b] &= ~bit;
    }
    B->changed |= changed | (7u << (3 * d));
    B->F[d][b] |= bit;
    B->F[d][0] &= ~T->peers[c][0];
    B->F[d][1] &= ~T->peers[c][1];
    B->F[d][2] &= ~T->peers[c][2];
    B->solved[b] |= bit;
}

/* Naked singles of the whole board, one bit-sliced pass per band: 1 when
   some cell was placed, 0 when none, -1 on an empty cell. */
B9_INLINE int b9_naked_singles(b9_board *B, const b9_tables *T) {
    int b, d, placed = 0;
    for (b = 0; b < 3; b++) {
        uint32_t one = 0, two = 0, single;
        for (d = 0; d < 9; d++) {
            two |= one & B->F[d][b];
            one |= B->F[d][b];
        }
        if (one != B9_FULL)
            return -1;
        single = one & ~two & ~B->solved[b];
        if (!single)
            continue;
        placed = 1;
        for (d = 0; d < 9; d++) {
            uint32_t s = single & B->F[d][b];
            while (s) {
                int p = __builtin_ctz(s);
                s &= s - 1;
                if (!(B->F[d][b] & (1u << p)))  /* emptied by a single placed just before */
                    return -1;
                b9_place(B, T, d, b * 27 + p);
            }
        }
    }
    return placed;
}

/* The cell of a unit in which digit d has exactly one place, given as the
   unit's cells of d in band words w0..w2; -2 when d has no place there,
   -1 when it has two or more. */
B9_INLINE int b9_only(uint32_t w0, uint32_t w1, uint32_t w2) {
    uint32_t any = (w0 != 0) + (w1 != 0) + (w2 != 0);
    if (!any)
        return -2;
    if (any > 1)
        return -1;
    {
        int b = w0 ? 0 : (w1 ? 1 : 2);
        uint32_t w = w0 | w1 | w2;
        if (w & (w - 1))
            return -1;
        return b * 27 + __builtin_ctz(w);
    }
}

/* Hidden singles of digit d: each row, box and column holding d in one
   unplaced cell gets it (rows and boxes only in the bands of `bands`, the
   others unchanged since their last scan).  1 when some cell was placed, 0
   when none, -1 when d has no place in some unit. */
B9_INLINE int b9_hidden_digit(b9_board *B, const b9_tables *T, int d, uint32_t bands) {
    int b, k, placed = 0;
    uint32_t col_one = 0, col_two = 0;
    for (b = 0; b < 3; b++) {
        uint32_t w = B->F[d][b], un = ~B->solved[b];
        uint32_t r0 = w & B9_ROW, r1 = (w >> 9) & B9_ROW, r2 = w >> 18;
        uint32_t cols = r0 | r1 | r2;
        uint32_t hit = 0;
        /* columns: count to two over the three bands (below) */
        col_two |= col_one & cols;
        col_two |= (r0 & r1) | (r0 & r2) | (r1 & r2);
        col_one |= cols;
        if (!(bands & (1u << b)))
            continue;
        /* rows: a 9-bit group with one bit */
        if (!r0 || !r1 || !r2)
            return -1;
        if (!(r0 & (r0 - 1))) hit |= r0;
        if (!(r1 & (r1 - 1))) hit |= r1 << 9;
        if (!(r2 & (r2 - 1))) hit |= r2 << 18;
        /* boxes: three 3-bit groups, one per row, folded onto one */
        for (k = 0; k < 3; k++) {
            uint32_t x = (w >> (3 * k)) & 0x1C0E07u;   /* box k: bits 0-2, 9-11, 18-20 */
            if (!x)
                return -1;
            if (!(x & (x - 1)))
                hit |= x << (3 * k);
        }
        hit &= un;
        while (hit) {
            int p = __builtin_ctz(hit);
            hit &= hit - 1;
            if (!(B->F[d][b] & (1u << p)))      /* cleared by a placement of this loop */
                return -1;
            b9_place(B, T, d, b * 27 + p);
            placed = 1;
        }
    }
    if (col_one != B9_ROW)
        return -1;
    col_one &= ~col_two;
    while (col_one) {
        int c = __builtin_ctz(col_one), cell;
        uint32_t m = 0x40201u << c;             /* column c of a band: bits c, c+9, c+18 */
        col_one &= col_one - 1;
        cell = b9_only(B->F[d][0] & m, B->F[d][1] & m, B->F[d][2] & m);
        if (cell == -2)
            return -1;
        if (cell >= 0 && !(B->solved[cell / 27] & (1u << (cell % 27)))) {
            b9_place(B, T, d, cell);
            placed = 1;
        }
    }
    return placed;
}

/* Singles until none is left: 0, or -1 on a contradiction. */
B9_INLINE int b9_propagate(b9_board *B, const b9_tables *T) {
    for (;;) {
        int r = b9_naked_singles(B, T), d;
        if (r < 0)
            return -1;
        if (r)
            continue;
        if (!B->changed)
            return 0;
        for (d = 0; d < 9; d++)
            if (B->changed & (7u << (3 * d))) {
                uint32_t bands = (B->changed >> (3 * d)) & 7u;
                B->changed &= ~(7u << (3 * d));
                r = b9_hidden_digit(B, T, d, bands);
                if (r < 0)
                    return -1;
                if (r)
                    break;      /* naked singles first again */
            }
    }
}

/* An unplaced cell of fewest candidates: the first cell of two candidates
   when there is one; -1 when every cell is placed. */
B9_INLINE int b9_choose(const b9_board *B) {
    int b, d, best = -1, best_k = 10;
    for (b = 0; b < 3; b++) {
        uint32_t one = 0, two = 0, three = 0, pair;
        for (d = 0; d < 9; d++) {
            uint32_t w = B->F[d][b];
            three |= two & w;
            two |= one & w;
            one |= w;
        }
        pair = two & ~three & ~B->solved[b];
        if (pair)
            return b * 27 + __builtin_ctz(pair);
    }
    for (b = 0; b < 3; b++) {
        uint32_t open = ~B->solved[b] & B9_FULL;
        while (open) {
            int p = __builtin_ctz(open), k = 0;
            open &= open - 1;
            for (d = 0; d < 9; d++)
                k += (B->F[d][b] >> p) & 1;
            if (k < best_k) {
                best = b * 27 + p;
                best_k = k;
            }
        }
    }
    return best;
}

/* The digits (bit d: digit d + 1) still possible in cell c. */
B9_INLINE uint32_t b9_digits(const b9_board *B, int c) {
    uint32_t m = 0;
    int d;
    for (d = 0; d < 9; d++)
        m |= ((B->F[d][c / 27] >> (c % 27)) & 1u) << d;
    return m;
}

/* The digits of a board whose cells are all placed (each cell in one
   digit's word). */
static void b9_write(const b9_board *B, int64_t *sol) {
    int b, d;
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t w = B->F[d][b];
            while (w) {
                sol[b * 27 + __builtin_ctz(w)] = d + 1;
                w &= w - 1;
            }
        }
}

/* Solve `grid` (81 digits 0..9, 0 blank; no two givens of a unit share a
   digit, checked by the caller): the number of solutions, at most `limit`;
   the first written to `sol` as digits 1..9 (left as it was when there is
   none).  `stack` holds 82 boards, `branch` 81 entries. */
static int64_t b9_solve(const b9_tables *T, const int64_t *grid, int64_t limit,
                        int64_t *sol, b9_board *stack, b9_branch *branch) {
    b9_board *B = stack;
    int level = 0, c, d;
    int64_t found = 0;
    for (d = 0; d < 9; d++)
        B->F[d][0] = B->F[d][1] = B->F[d][2] = B9_FULL;
    B->solved[0] = B->solved[1] = B->solved[2] = 0;
    B->changed = 0;
    for (c = 0; c < 81; c++)
        if (grid[c]) {
            d = (int)grid[c] - 1;
            if (!(B->F[d][c / 27] & (1u << (c % 27))))
                return 0;
            b9_place(B, T, d, c);
        }
    B->changed = B9_FULL;
    for (;;) {
        /* forward: propagate the board at `level`, then branch or record */
        B = stack + level;
        if (b9_propagate(B, T) == 0) {
            c = b9_choose(B);
            if (c < 0) {
                if (found == 0)
                    b9_write(B, sol);
                if (++found >= limit)
                    return found;
            } else {
                branch[level].cell = c;
                branch[level].left = b9_digits(B, c);
                goto next;
            }
        }
        /* backtrack: to the nearest level with digits left */
        if (level == 0)
            return found;
        level--;
    next:
        {
            b9_branch *br = branch + level;
            uint32_t left = br->left;
            d = __builtin_ctz(left);
            left &= left - 1;
            br->left = left;
            B = stack + level;
            if (left) {             /* more to try here: this digit on a copy */
                memcpy(B + 1, B, sizeof *B);
                level++;
                B++;
            }                       /* else the last digit, on this board */
            B->changed = 0;
            b9_place(B, T, d, br->cell);
        }
    }
}

#endif /* GRIDS_BANDS9_H */
