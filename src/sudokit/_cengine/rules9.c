/*
 * sudokit._engine, 9x9 under rules: the search of run_general for rules geometries of side 9
 * without killer cages, on bitboards.  Included by _engine.c (one translation unit): it uses
 * its Geo, Ctx, Rng and bit helpers.
 *
 * The 81 cells are the bits of one 128-bit word; for each digit, a board holds the cells it
 * may still take (its placed cells too).  Placing a digit clears the cell from the other
 * boards, and the cell's peers (houses, neighbour rules) and, under nc, its orthogonal
 * neighbours from the digits next to it, from its own board: a few word operations, where the
 * general path walks the peers' masks one by one.  Propagation: naked singles (counted across
 * the nine boards at once), hidden singles in every house where the digit is not placed yet, a
 * digit left without a place in a house (a contradiction); under nc, for each digit d, the
 * cells whose candidates all lie in d-1..d+1 leave d out of their orthogonal neighbours
 * (whichever of the three the cell takes, a neighbour cannot hold d), as shifts of whole
 * boards; and where the boxes are not houses (jigsaw) or a neighbour rule reaches past the
 * houses (anti-knight), the shared-peers step: two or three places left to a digit in a house
 * take it out of every cell that sees them all (box/line interactions and their
 * generalisation to regions and to the neighbour rules).  What the hidden singles and that
 * step find for a digit depends on its board alone, so each state remembers the board they
 * last looked at and they pass over a digit whose board is the same.
 *
 * The search branches on a bivalue cell (without an rng, the one that sees the most open
 * cells), else on a digit with two places left in a house (no rng), else on a cell with the
 * fewest candidates; with `prefer` it tries the preferred grid's digit first, with an rng it
 * draws the cell among the ties (nc: the first, as the general path does) and the digit.  The
 * answers are those of the general path (counts, first solutions when unique); the order of
 * solutions and the nodes visited differ.
 */

typedef unsigned __int128 B81;

#define R9_ALL ((((B81)1) << 81) - 1)
#define R9_MAX_HOUSES 64

typedef struct R9 {
    B81 peer[81]; /* each cell's peers, itself left out */
    B81 adj[81];  /* nc: each cell's orthogonal neighbours */
    B81 house[R9_MAX_HOUSES];
    uint64_t houses_of[81]; /* each cell's houses, as bits */
    uint64_t all;           /* every house */
    int nhouses;
    int nc;      /* the non-consecutive relation */
    int shared;  /* the shared-peers step (jigsaw layouts: the boxes are not houses) */
} R9;

typedef struct {
    B81 cand[9];     /* digit d's cells */
    B81 solved;
    uint64_t done[9]; /* the houses where digit d is placed */
    B81 shared[9];    /* digit d's board when the shared-peers step last looked at it */
    B81 hidden[9];    /* and when the hidden singles last did */
} S81;

static inline B81 r9_bit(int c) { return ((B81)1) << c; }

static inline int r9_ctz(B81 x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? ctz64(lo) : 64 + ctz64((uint64_t)(x >> 64));
}

static inline int r9_count(B81 x) { return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64)); }

/* The k-th set bit (0-based) of x. */
static inline int r9_nth(B81 x, int k)
{
    while (k-- > 0)
        x &= x - 1;
    return r9_ctz(x);
}

/* Cells of column 0 and of column 8. */
#define R9_COL0 ((((B81)0x100) << 64) | UINT64_C(0x8040201008040201))
#define R9_COL8 ((((B81)0x10080) << 64) | UINT64_C(0x4020100804020100))

/* The orthogonal neighbours of the cells of x. */
static inline B81 r9_around(B81 x)
{
    return (((x & ~R9_COL8) << 1) | ((x & ~R9_COL0) >> 1) | (x << 9) | (x >> 9)) & R9_ALL;
}

/* The bitboard tables of a rules geometry of side 9 (no cages), or NULL when it has more houses
 * than they hold or memory ran out (the general path serves it then). */
static R9 *r9_build(const Geo *g)
{
    if (g->n != 9 || g->nunits > R9_MAX_HOUSES || g->ncages)
        return NULL;
    R9 *r = calloc(1, sizeof(R9));
    if (!r)
        return NULL;
    for (int c = 0; c < 81; c++) {
        for (int i = 0; i < g->npeers; i++)
            r->peer[c] |= r9_bit(g->peers[(size_t)c * g->npeers + i]);
        r->peer[c] &= ~r9_bit(c);
        if (g->adj)
            for (int i = 0; i < 4; i++)
                r->adj[c] |= r9_bit(g->adj[c * 4 + i]);
    }
    r->nhouses = g->nunits;
    for (int h = 0; h < g->nunits; h++)
        for (int i = 0; i < 9; i++) {
            r->house[h] |= r9_bit(g->units[h * 9 + i]);
            r->houses_of[g->units[h * 9 + i]] |= UINT64_C(1) << h;
        }
    r->all = g->nunits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << g->nunits) - 1;
    r->nc = g->adj != NULL;
    /* the shared-peers step where the boxes are not houses, or where a neighbour rule reaches
     * past the houses (anti-knight: about twice as fast; elsewhere it finds too little for
     * its cost) */
    B81 houses_of_centre = 0;
    for (int h = 0; h < g->nunits; h++)
        if (r->house[h] & r9_bit(40))
            houses_of_centre |= r->house[h];
    r->shared = !g->boxes || r9_count(r->peer[40] & ~houses_of_centre) > 4;
    return r;
}

/* Place digit d at cell c.  Return 0 when d is no longer a candidate there. */
static inline int r9_place(const R9 *r, S81 *s, int d, int c)
{
    B81 b = r9_bit(c);
    if (!(s->cand[d] & b))
        return 0;
    s->solved |= b;
    s->done[d] |= r->houses_of[c];
    for (int e = 0; e < 9; e++)
        s->cand[e] &= ~b;
    s->cand[d] = (s->cand[d] & ~r->peer[c]) | b;
    if (r->nc) {
        if (d > 0)
            s->cand[d - 1] &= ~r->adj[c];
        if (d < 8)
            s->cand[d + 1] &= ~r->adj[c];
    }
    return 1;
}

/* The nc step (see the top): 1 when something was eliminated, else 0. */
static int r9_nc_step(S81 *s)
{
    B81 below[10], above[10]; /* below[d]: the boards of digits < d; above[d]: of digits >= d */
    below[0] = 0;
    for (int d = 0; d < 9; d++)
        below[d + 1] = below[d] | s->cand[d];
    above[9] = 0;
    for (int d = 8; d >= 0; d--)
        above[d] = above[d + 1] | s->cand[d];
    int found = 0;
    for (int d = 0; d < 9; d++) {
        B81 outside = (d >= 1 ? below[d - 1] : 0) | above[d + 2 < 9 ? d + 2 : 9];
        B81 near = r9_around(~outside & R9_ALL & ~s->solved);
        B81 gone = near & s->cand[d] & ~s->solved;
        if (gone) {
            s->cand[d] &= ~gone;
            found = 1;
        }
    }
    return found;
}

/* The shared-peers step (see the top): 1 when something was eliminated, else 0.  Under nc,
 * the cells next to every place left to d in a house lose d - 1 and d + 1 as well. */
static int r9_shared_step(const R9 *r, S81 *s)
{
    int found = 0;
    for (int d = 0; d < 9; d++) {
        if (s->shared[d] == s->cand[d])
            continue; /* what it finds depends on this board alone: nothing new */
        s->shared[d] = s->cand[d];
        B81 board = s->cand[d] & ~s->solved;
        for (uint64_t t = r->all & ~s->done[d]; t; t &= t - 1) {
            B81 m = board & r->house[ctz64(t)];
            B81 r1 = m & (m - 1), r2 = r1 & (r1 - 1);
            if (!m || (r2 & (r2 - 1)))
                continue; /* four places or more seldom see a cell in common */
            int c = r9_ctz(m);
            B81 common = r->peer[c] & board, near = r->nc ? r->adj[c] : 0;
            for (m &= m - 1; m && (common | near); m &= m - 1) {
                c = r9_ctz(m);
                common &= r->peer[c];
                near &= r->adj[c];
            }
            if (common) {
                s->cand[d] &= ~common;
                board &= ~common;
                found = 1;
            }
            if (near) {
                B81 gone = near & ~s->solved & ((d > 0 ? s->cand[d - 1] : 0) | (d < 8 ? s->cand[d + 1] : 0));
                if (gone) {
                    if (d > 0)
                        s->cand[d - 1] &= ~gone;
                    if (d < 8)
                        s->cand[d + 1] &= ~gone;
                    found = 1;
                }
            }
        }
    }
    return found;
}

/* Propagate to a fixpoint.  Return 0 on a contradiction, else 1 (solved when s->solved is
 * every cell). */
static int r9_propagate(const R9 *r, S81 *s)
{
    for (;;) {
        B81 one = 0, two = 0;
        for (int d = 0; d < 9; d++) {
            two |= one & s->cand[d];
            one |= s->cand[d];
        }
        if (one != R9_ALL)
            return 0; /* a cell without a candidate */
        B81 singles = one & ~two & ~s->solved;
        if (singles) {
            for (int d = 0; d < 9; d++)
                for (B81 m = singles & s->cand[d]; m; m &= m - 1)
                    if (!r9_place(r, s, d, r9_ctz(m)))
                        return 0;
            continue;
        }
        int found = 0;
        for (int d = 0; d < 9; d++) {
            if (s->hidden[d] == s->cand[d])
                continue; /* what they find depends on this board alone: nothing new */
            s->hidden[d] = s->cand[d];
            for (uint64_t t = r->all & ~s->done[d]; t; t &= t - 1) {
                B81 m = s->cand[d] & r->house[ctz64(t)];
                if (!m)
                    return 0; /* a digit without a place in the house */
                if (!(m & (m - 1))) {
                    if (!r9_place(r, s, d, r9_ctz(m)))
                        return 0;
                    found = 1;
                }
            }
        }
        if (found)
            continue;
        if (s->solved == R9_ALL)
            return 1;
        if (r->nc && r9_nc_step(s))
            continue;
        if (r->shared && r9_shared_step(r, s))
            continue;
        return 1;
    }
}

/* What to branch on (see the top): a cell and a digit. */
static void r9_choose(const R9 *r, const S81 *s, Rng *rng, const uint8_t *prefer, int *out_cell, int *out_digit)
{
    B81 c1 = 0, c2 = 0, c3 = 0;
    for (int d = 0; d < 9; d++) {
        B81 m = s->cand[d];
        c3 |= c2 & m;
        c2 |= c1 & m;
        c1 |= m;
    }
    B81 open = R9_ALL & ~s->solved;
    B81 pick = c2 & ~c3 & open; /* bivalue cells */
    int cell = -1;
    if (!rng && (pick & (pick - 1))) { /* the bivalue cell that sees the most open cells */
        int best = -1;
        for (B81 t = pick; t; t &= t - 1) {
            int c = r9_ctz(t), k = r9_count(r->peer[c] & open);
            if (k > best) {
                best = k;
                cell = c;
            }
        }
        pick = 0;
    }
    if (cell >= 0) {
    } else if (pick) {
        cell = rng && !r->nc ? r9_nth(pick, (int)rng_below(rng, (uint32_t)r9_count(pick))) : r9_ctz(pick);
    } else if (!rng) {
        for (int d = 0; d < 9; d++)
            for (uint64_t t = r->all & ~s->done[d]; t; t &= t - 1) {
                B81 m = s->cand[d] & r->house[ctz64(t)];
                B81 rest = m & (m - 1);
                if (!rest || (rest & (rest - 1)))
                    continue;
                cell = r9_ctz(m);
                if (prefer && prefer[cell] != d + 1 && prefer[r9_ctz(rest)] == d + 1)
                    cell = r9_ctz(rest);
                *out_cell = cell;
                *out_digit = d;
                return;
            }
    }
    if (cell < 0) { /* the fewest candidates */
        int best = 10, ties = 0;
        for (B81 t = open; t; t &= t - 1) {
            int c = r9_ctz(t), k = 0;
            B81 b = r9_bit(c);
            for (int d = 0; d < 9; d++)
                k += (s->cand[d] & b) != 0;
            if (k < best) {
                best = k;
                cell = c;
                ties = 1;
            } else if (k == best && rng && !r->nc && rng_below(rng, (uint32_t)++ties) == 0) {
                cell = c;
            }
        }
    }
    B81 b = r9_bit(cell);
    int digits[9], k = 0;
    for (int d = 0; d < 9; d++)
        if (s->cand[d] & b)
            digits[k++] = d;
    *out_cell = cell;
    if (prefer && (s->cand[prefer[cell] - 1] & b))
        *out_digit = prefer[cell] - 1;
    else
        *out_digit = rng ? digits[rng_below(rng, (uint32_t)k)] : digits[0];
}

/* Search from `s` (this level's own copy).  Return 1 to stop, 0 to go on. */
static int r9_search(const R9 *r, S81 *s, Ctx *ctx)
{
    for (;;) {
        if (!r9_propagate(r, s))
            return 0;
        if (s->solved == R9_ALL) {
            uint8_t *out = ctx->count == 0 ? ctx->solution : ctx->count == 1 ? ctx->second : NULL;
            if (out)
                for (int d = 0; d < 9; d++)
                    for (B81 m = s->cand[d]; m; m &= m - 1)
                        out[r9_ctz(m)] = (uint8_t)(d + 1);
            return ++ctx->count >= ctx->limit;
        }
        if ((ctx->node_limit && ++ctx->nodes > ctx->node_limit) || sudokit_interrupted()) {
            ctx->aborted = 1;
            return 1;
        }
        int cell, digit;
        r9_choose(r, s, ctx->rng, ctx->rng ? NULL : ctx->prefer, &cell, &digit);
        S81 next = *s;
        r9_place(r, &next, digit, cell);
        int res = r9_search(r, &next, ctx);
        if (res)
            return res;
        s->cand[digit] &= ~r9_bit(cell);
    }
}

/* run_general on the bitboards: search the puzzle `cells` (excl_cell as there). */
static void r9_run(const R9 *r, const uint8_t *cells, Ctx *ctx, int excl_cell, int excl_digit)
{
    S81 s;
    for (int d = 0; d < 9; d++)
        s.cand[d] = R9_ALL;
    s.solved = 0;
    memset(s.done, 0, sizeof(s.done));
    memset(s.shared, 0, sizeof(s.shared));
    memset(s.hidden, 0, sizeof(s.hidden));
    for (int c = 0; c < 81; c++)
        if (cells[c] && !r9_place(r, &s, cells[c] - 1, c))
            return; /* two clues that clash */
    if (excl_cell >= 0 && !cells[excl_cell])
        s.cand[excl_digit - 1] &= ~r9_bit(excl_cell);
    r9_search(r, &s, ctx);
}
