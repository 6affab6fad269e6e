/*
 * Aligned pair exclusion (6.2) and aligned triple exclusion (7.5) (reference:
 * tests/logic/pyref/exclusion.py, Sudoku Explainer's AlignedPairExclusion / AlignedExclusion).
 *
 * Base cells: two candidates or more, no peer with a single candidate, some "small" peer (2 to
 * `degree` candidates). Pairs (a, b), a < b, in SE's colexicographic order (b, then a); a pair
 * counts only when a and b have two common small peers (the excluders). For triples, the third
 * cell t is a small base cell that sees a or b and two of the pair's excluders; the findings
 * of one pair are put in SE's twin-area order (a's house order, then b's).
 *
 * The verdict on a set of base cells: a candidate is removed when no combination uses it; a
 * combination is impossible when two base cells sharing a unit get one digit or an excluder's
 * candidates are all used. That is symmetric in the base cells, so the two cells with fewest
 * candidates are enumerated and the other's possible values come out at once as a mask.
 *
 * A trio can come up again from another of its pairs (same verdict, removals already given):
 * the reference keeps a set of tried trios. Here, whether an earlier pair of the trio reached
 * it is decided from the cells: an earlier pair (p, q) with third r reached it exactly when r is
 * small and sees p or q (the shared excluders are the same for every pair of the trio).
 *
 * Info: for each excluder (ascending): its cell, its candidate count, its digits.
 */

#define AX_MAXX (3 * LG_MAXN)       /* excluders of a pair: common peers */

/* The candidates of two base cells found in no possible combination (excluders: 2 digits). */
static inline void apx_verdict(dmask ma, dmask mb, int ab, const dmask *xs, int nx, dmask *ga, dmask *gb) {
    dmask ok_a = 0, ok_b = 0, rest = mb;
    while (rest) {
        dmask q = rest & (~rest + 1);
        rest &= rest - 1;
        dmask blocked = ab ? q : 0;
        for (int i = 0; i < nx; i++)
            if (xs[i] & q) blocked |= xs[i] & ~q;
        dmask p = ma & ~blocked;
        if (p) { ok_a |= p; ok_b |= q; }
    }
    *ga = ma & ~ok_a;
    *gb = mb & ~ok_b;
}

/* Three base cells: i is enumerated through its possible values as a mask, j and k one by one. */
static inline void atx_sweep(dmask mi, dmask mj, dmask mk, int ij, int ik, int jk, const dmask *xs, int nx,
                      dmask *gi, dmask *gj, dmask *gk) {
    dmask ok_i = 0, ok_j = 0, ok_k = 0, rj = mj;
    while (rj) {
        dmask q = rj & (~rj + 1);
        rj &= rj - 1;
        dmask rk = mk;
        while (rk) {
            dmask r = rk & (~rk + 1);
            rk &= rk - 1;
            if (jk && q == r) continue;
            dmask used = q | r, blocked = (ij ? q : 0) | (ik ? r : 0);
            int dead = 0;
            for (int x = 0; x < nx; x++) {
                dmask left = xs[x] & ~used;
                if (!left) { dead = 1; break; }
                if (!(left & (left - 1))) blocked |= left;
            }
            if (dead) continue;
            dmask p = mi & ~blocked;
            if (p) {
                ok_i |= p; ok_j |= q; ok_k |= r;
                if (ok_i == mi && ok_j == mj && ok_k == mk) { *gi = *gj = *gk = 0; return; }
            }
        }
    }
    *gi = mi & ~ok_i;
    *gj = mj & ~ok_j;
    *gk = mk & ~ok_k;
}

static void atx_verdict(dmask ma, dmask mb, dmask mc, int ka, int kb, int kc, int ab, int ac, int bc,
                        const dmask *xs, int nx, dmask *ga, dmask *gb, dmask *gc) {
    if (ka >= kb && ka >= kc) atx_sweep(ma, mb, mc, ab, ac, bc, xs, nx, ga, gb, gc);
    else if (kb >= kc) atx_sweep(mb, ma, mc, ab, bc, ac, xs, nx, gb, ga, gc);
    else atx_sweep(mc, ma, mb, ac, bc, ab, xs, nx, gc, ga, gb);
}

/* The distinct candidate masks of the cells of x (the excluders: all that matters of them),
 * leaving out those with a digit outside `within` (the base cells' candidates): such a digit is
 * never used by a combination, so the excluder never empties, and the one value it can rule
 * out is that digit, which no base cell has. */
static int ax_kinds(const lstate *s, const cset *x, dmask within, dmask *xs) {
    int nx = 0;
    CS_FOREACH(c, x, s->g->nw) {
        dmask m = s->cand[c];
        if (m & ~within) continue;
        int k = 0;
        while (k < nx && xs[k] != m) k++;
        if (k == nx) xs[nx++] = m;
    }
    return nx;
}

/* Emit one step: base cells (in the reference's order), what goes from each, the excluders. */
static int ax_step(const lstate *s, lsink *out, int degree, const int *cells, const dmask *gone,
                   const cset *excluders) {
    const lgeo *g = s->g;
    lstep_begin(out, degree == 2 ? K_APE : K_ATE, degree == 2 ? 6.2 : 7.5);
    /* eliminations sorted by (cell, digit) */
    int order[3] = {0, 1, 2};
    for (int i = 1; i < degree; i++)
        for (int j = i; j > 0 && cells[order[j - 1]] > cells[order[j]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    dmask all = 0;
    for (int i = 0; i < degree; i++) {
        int k = order[i], d0;
        DM_FOREACH(d0, gone[k]) lstep_elim(out, cells[k], d0 + 1);
        all |= gone[k];
    }
    for (int i = 0; i < degree; i++) lstep_cell(out, cells[i]);
    int d0;
    DM_FOREACH(d0, all) lstep_digit(out, d0 + 1);
    CS_FOREACH(x, excluders, g->nw) {
        lstep_info(out, x);
        lstep_info(out, dm_count(s->cand[x]));
        int e0;
        DM_FOREACH(e0, s->cand[x]) lstep_info(out, e0 + 1);
    }
    return lstep_end(out);
}

/* The position of cell t in cell c's house order (box, row, column; under rules
 * SukakuExplainer's visible order, lg_peers). */
static int ax_house_pos(const lgeo *g, int c, int t) {
    int np;
    const int *ho = lg_peers(g, c, &np);
    for (int i = 0; i < np; i++)
        if (ho[i] == t) return i;
    return np;
}

/* The cells that see at least two of `cells` (once: scratch). */
static inline void ax_seen_twice(const lgeo *g, const cset *cells, cset *once, cset *twice) {
    int nw = g->nw;
    cs_clear(once, nw);
    cs_clear(twice, nw);
    CS_FOREACH(x, cells, nw) {
        const cset *px = &g->peer_mask[x];
        for (int i = 0; i < nw; i++) {
            twice->w[i] |= once->w[i] & px->w[i];
            once->w[i] |= px->w[i];
        }
    }
}

#define AX_MAXHITS (2 * LG_MAX_LINKS)  /* third cells of a pair: peers of a or b */

typedef struct { int t; dmask gone[3]; int rank; } ax_hit;

static void ax_search(const lstate *s, lsink *out, int degree) {
    const lgeo *g = s->g;
    int nw = g->nw;
    const dmask *cand = s->cand;
    cset small, singles, base;
    uint8_t cnt[LG_MAXC];  /* candidate counts of the empty cells */
    cs_clear(&small, nw);
    cs_clear(&singles, nw);
    cs_clear(&base, nw);
    CS_FOREACH(c, &s->empty, nw) {
        int k = cnt[c] = (uint8_t)dm_count(cand[c]);
        if (k == 1) cs_add(&singles, c);
        else if (k >= 2 && k <= degree) cs_add(&small, c);
    }
    int nbase = 0;
    CS_FOREACH(c, &s->empty, nw) {
        if (cnt[c] < 2) continue;
        const cset *pm = &g->peer_mask[c];
        if (cs_meets(pm, &singles, nw) || !cs_meets(pm, &small, nw)) continue;
        cs_add(&base, c);
        nbase++;
    }
    if (nbase < degree) return;
    dmask xs[AX_MAXX];
    ax_hit hits[AX_MAXHITS];
    CS_FOREACH(b, &base, nw) {
        const cset *pb = &g->peer_mask[b];
        cset excl_b, once, twice, partners;
        cs_and(&excl_b, pb, &small, nw);
        /* the base cells before b that see two of b's excluders */
        ax_seen_twice(g, &excl_b, &once, &twice);
        cs_and(&partners, &twice, &base, nw);
        {
            int wb = b >> 6;
            partners.w[wb] &= ((uint64_t)1 << (b & 63)) - 1;
            for (int i = wb + 1; i < nw; i++) partners.w[i] = 0;
        }
        dmask mb = cand[b];
        CS_FOREACH(a, &partners, nw) {
            const cset *pa = &g->peer_mask[a];
            cset common;
            cs_and(&common, &excl_b, pa, nw);
            int ab = cs_has(pa, b);
            dmask ma = cand[a];
            if (degree == 2) {
                int nx = ax_kinds(s, &common, ma | mb, xs);
                dmask gone[2];
                apx_verdict(ma, mb, ab, xs, nx, &gone[0], &gone[1]);
                if (gone[0] | gone[1]) {
                    int cells[2] = {a, b};
                    if (ax_step(s, out, 2, cells, gone, &common)) return;
                }
                continue;
            }
            /* third cells: small base cells seeing a or b and two of the excluders */
            cset third;
            ax_seen_twice(g, &common, &once, &third);
            for (int i = 0; i < nw; i++) third.w[i] &= (pa->w[i] | pb->w[i]) & small.w[i] & base.w[i];
            cs_del(&third, a);
            cs_del(&third, b);
            int nhits = 0;
            CS_FOREACH(t, &third, nw) {
                const cset *pt = &g->peer_mask[t];
                cset shared;
                cs_and(&shared, &common, pt, nw);
                /* reached before from an earlier pair of the trio? */
                if (t < b) {
                    /* pair (min(a,t), max(a,t)) with third b came first */
                    if (cs_has(&small, b) && (cs_has(pb, a) || cs_has(pb, t))) continue;
                    /* when t < a, pair (t, b) with third a came first too */
                    if (t < a && cs_has(&small, a) && (cs_has(pa, t) || cs_has(pa, b))) continue;
                }
                dmask gone[3];
                int nx = ax_kinds(s, &shared, ma | mb | cand[t], xs);
                atx_verdict(ma, mb, cand[t], cnt[a], cnt[b], cnt[t], ab, cs_has(pa, t), cs_has(pb, t), xs, nx, &gone[0],
                            &gone[1], &gone[2]);
                if (gone[0] | gone[1] | gone[2]) {
                    hits[nhits].t = t;
                    hits[nhits].gone[0] = gone[0];
                    hits[nhits].gone[1] = gone[1];
                    hits[nhits].gone[2] = gone[2];
                    int np_a;
                    lg_peers(g, a, &np_a);
                    hits[nhits].rank = cs_has(pa, t) ? ax_house_pos(g, a, t)
                                                     : np_a + ax_house_pos(g, b, t);
                    /* insertion in twin-area order */
                    for (int k = nhits; k > 0 && hits[k - 1].rank > hits[k].rank; k--) {
                        ax_hit tmp = hits[k];
                        hits[k] = hits[k - 1];
                        hits[k - 1] = tmp;
                    }
                    nhits++;
                }
            }
            for (int h = 0; h < nhits; h++) {
                int cells[3] = {a, b, hits[h].t};
                cset shared;
                cs_and(&shared, &common, &g->peer_mask[hits[h].t], nw);
                if (ax_step(s, out, 3, cells, hits[h].gone, &shared)) return;
            }
        }
    }
}

static void lf_aligned_pair_exclusions(const lstate *s, lsink *out) { ax_search(s, out, 2); }
static void lf_aligned_triple_exclusions(const lstate *s, lsink *out) { ax_search(s, out, 3); }
