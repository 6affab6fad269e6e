/*
 * Subsets (reference: tests/logic/pyref/subsets.py): naked pairs, triples and quads, hidden
 * pairs, triples and quads, direct hidden pairs and triples. Sudoku Explainer's order: units
 * as boxes, then columns, then rows (se_unit, singles.c); within a unit the k-sets of the
 * pool (cells with 2..k candidates, or digits with 2..k places) in colexicographic order.
 *
 * Both searches are "k masks whose union has k bits": candidate masks of cells for a naked
 * set, for a hidden set the places of digits as a mask over the unit's positions (a unit's
 * cells are ascending, so position order is cell order).
 *
 * Info of a direct hidden step: the cleared candidates as (cell, digit) pairs.
 */

#define LG_MAXSET 4

/* The k-subsets of pool[0..m) whose masks' union has exactly k bits, in colexicographic
 * order (the largest index varies slowest), with idx[0] < ... < idx[k-1]. A branch whose
 * partial union already has more than k bits is cut: that skips only sets that fail, so the
 * order of the others is kept. visit returns nonzero to stop; so does colex_sets then. */
typedef int (*lset_visit)(void *ctx, const int *idx, uint64_t uni);

typedef struct {
    const uint64_t *mask;
    int k;
    int idx[LG_MAXSET];
    lset_visit visit;
    void *ctx;
} lcolex;

static int colex_level(lcolex *x, int level, int limit, uint64_t acc) {
    for (int i = level; i < limit; i++) {
        uint64_t a = acc | x->mask[i];
        if (dm_count(a) > x->k) continue;
        x->idx[level] = i;
        if (level == 0) {
            if (dm_count(a) == x->k && x->visit(x->ctx, x->idx, a)) return 1;
        } else if (colex_level(x, level - 1, i, a)) {
            return 1;
        }
    }
    return 0;
}

static int colex_sets(const uint64_t *mask, int m, int k, lset_visit visit, void *ctx) {
    if (k < 1 || k > LG_MAXSET || m < k) return 0;
    lcolex x;
    x.mask = mask;
    x.k = k;
    x.visit = visit;
    x.ctx = ctx;
    return colex_level(&x, k - 1, m, 0);
}

/* ------------------------------------------------------------------ naked sets */

typedef struct {
    const lstate *s;
    lsink *out;
    int u, k, kind;
    double rating;
    const int *pool;    /* cells */
} lnaked;

static int naked_visit(void *ctx, const int *idx, uint64_t uni) {
    lnaked *x = ctx;
    const lstate *s = x->s;
    const lgeo *g = s->g;
    const int *cells = lg_unit(g, x->u);
    int n = g->n, k = x->k, m = 0;
    /* members are ascending cells; the others of the unit in order */
    for (int i = 0; i < n; i++) {
        int c = cells[i];
        if (m < k && x->pool[idx[m]] == c) { m++; continue; }
        if (s->cand[c] & uni) goto found;
    }
    return 0;
found:
    lstep_begin(x->out, x->kind, x->rating);
    m = 0;
    for (int i = 0; i < n; i++) {
        int c = cells[i], d0;
        if (m < k && x->pool[idx[m]] == c) { m++; continue; }
        DM_FOREACH(d0, s->cand[c] & uni) lstep_elim(x->out, c, d0 + 1);
    }
    for (int j = 0; j < k; j++) lstep_cell(x->out, x->pool[idx[j]]);
    lstep_unit(x->out, x->u);
    int d0;
    DM_FOREACH(d0, uni) lstep_digit(x->out, d0 + 1);
    return lstep_end(x->out);
}

static void naked_sets(const lstate *s, lsink *out, int k) {
    static const int kinds[5] = {0, 0, K_NAKED_PAIR, K_NAKED_TRIPLE, K_NAKED_QUAD};
    static const double ratings[5] = {0, 0, 3.0, 3.6, 5.0};
    const lgeo *g = s->g;
    int n = g->n;
    lnaked x = {s, out, 0, k, kinds[k], ratings[k], NULL};
    /* the classic units, then a rules geometry's extra houses naked sets visit (g->nscan_h:
     * SukakuExplainer's NakedSet leaves the diagonals out) */
    int nscan = g->nunit + g->nnscan;
    for (int i = 0; i < nscan; i++) {
        int u = i < g->nunit ? se_unit(g, i) : g->nscan_h[i - g->nunit], empty = 0;
        const int *cells = lg_unit(g, u);
        for (int j = 0; j < n; j++) empty += !s->values[cells[j]];
        if (empty < 2 * k) continue;
        int pool[LG_MAXN], m = 0;
        uint64_t mask[LG_MAXN];
        for (int j = 0; j < n; j++) {
            int c = cells[j], nc = dm_count(s->cand[c]);
            if (nc >= 2 && nc <= k) { pool[m] = c; mask[m++] = s->cand[c]; }
        }
        x.u = u;
        x.pool = pool;
        if (colex_sets(mask, m, k, naked_visit, &x)) return;
    }
}

/* ------------------------------------------------------------------ hidden sets */

typedef struct {
    const lstate *s;
    lsink *out;
    int u, k, kind, direct;
    double rating;
    const int *pool;              /* digits */
    const uint64_t *places;       /* places[d]: positions of digit d in the unit */
} lhidden;

static int hidden_visit(void *ctx, const int *idx, uint64_t uni) {
    lhidden *x = ctx;
    const lstate *s = x->s;
    const lgeo *g = s->g;
    const int *cells = lg_unit(g, x->u);
    int n = g->n, k = x->k, d0;
    dmask keep = 0;
    for (int j = 0; j < k; j++) keep |= (dmask)1 << (x->pool[idx[j]] - 1);
    if (!x->direct) {
        int any = 0;
        DM_FOREACH(d0, uni) if (s->cand[cells[d0]] & ~keep) { any = 1; break; }
        if (!any) return 0;
        lstep_begin(x->out, x->kind, x->rating);
        int p;
        DM_FOREACH(p, uni) {
            int c = cells[p];
            DM_FOREACH(d0, s->cand[c] & ~keep) lstep_elim(x->out, c, d0 + 1);
        }
    } else {
        /* the first other digit left one place once the set's cells lose their others */
        int d = 1, cell = -1;
        for (; d <= n; d++) {
            uint64_t pl = x->places[d];
            if ((keep >> (d - 1) & 1) || dm_count(pl) < 2) continue;
            uint64_t left = pl & ~uni;
            if (dm_single(left)) { cell = cells[dm_low(left)]; break; }
        }
        if (cell < 0) return 0;
        lstep_begin(x->out, x->kind, x->rating);
        lstep_place(x->out, cell, d);
        int p;
        DM_FOREACH(p, uni) {
            int c = cells[p];
            DM_FOREACH(d0, s->cand[c] & ~keep) { lstep_info(x->out, c); lstep_info(x->out, d0 + 1); }
        }
    }
    int p;
    DM_FOREACH(p, uni) lstep_cell(x->out, cells[p]);
    lstep_unit(x->out, x->u);
    for (int j = 0; j < k; j++) lstep_digit(x->out, x->pool[idx[j]]);
    return lstep_end(x->out);
}

static void hidden_sets(const lstate *s, lsink *out, int k, int direct) {
    static const int kinds[5] = {0, 0, K_HIDDEN_PAIR, K_HIDDEN_TRIPLE, K_HIDDEN_QUAD};
    static const double ratings[5] = {0, 0, 3.4, 4.0, 5.4};
    static const int dkinds[4] = {0, 0, K_DIRECT_HIDDEN_PAIR, K_DIRECT_HIDDEN_TRIPLE};
    static const double dratings[4] = {0, 0, 2.0, 2.5};
    const lgeo *g = s->g;
    int n = g->n;
    uint64_t places[LG_MAXN + 1];
    lhidden x = {s, out, 0, k, direct ? dkinds[k] : kinds[k], direct,
                 direct ? dratings[k] : ratings[k], NULL, places};
    int nscan = g->nunit + g->nscan;
    for (int i = 0; i < nscan; i++) {
        int u = scan_unit(g, i), empty = 0;
        const int *cells = lg_unit(g, u);
        for (int j = 0; j < n; j++) empty += !s->values[cells[j]];
        if (!(empty > 2 * k || (direct && empty > k))) continue;
        memset(places, 0, sizeof(uint64_t) * (size_t)(n + 1));
        for (int j = 0; j < n; j++) {
            int d0;
            DM_FOREACH(d0, s->cand[cells[j]]) places[d0 + 1] |= (uint64_t)1 << j;
        }
        int pool[LG_MAXN], m = 0;
        uint64_t mask[LG_MAXN];
        for (int d = 1; d <= n; d++) {
            int np = dm_count(places[d]);
            if (np >= 2 && np <= k) { pool[m] = d; mask[m++] = places[d]; }
        }
        x.u = u;
        x.pool = pool;
        if (colex_sets(mask, m, k, hidden_visit, &x)) return;
    }
}

static void lf_direct_hidden_pairs(const lstate *s, lsink *out) { hidden_sets(s, out, 2, 1); }
static void lf_direct_hidden_triples(const lstate *s, lsink *out) { hidden_sets(s, out, 3, 1); }
static void lf_naked_pairs(const lstate *s, lsink *out) { naked_sets(s, out, 2); }
static void lf_naked_triples(const lstate *s, lsink *out) { naked_sets(s, out, 3); }
static void lf_naked_quads(const lstate *s, lsink *out) { naked_sets(s, out, 4); }
static void lf_hidden_pairs(const lstate *s, lsink *out) { hidden_sets(s, out, 2, 0); }
static void lf_hidden_triples(const lstate *s, lsink *out) { hidden_sets(s, out, 3, 0); }
static void lf_hidden_quads(const lstate *s, lsink *out) { hidden_sets(s, out, 4, 0); }
