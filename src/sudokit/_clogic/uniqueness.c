/*
 * Unique rectangles and loops, types 1-4 (reference: tests/logic/pyref/uniqueness.py), and
 * small_unions, the pruned subset search that bug.c uses too.
 *
 * Sudoku Explainer's UniqueLoops order: from every bivalue cell (row-major), a depth-first
 * search for loops on its two digits, at each cell the box, row, column (not the kind the path
 * arrived by) and their cells in unit order. Every hint of every unique loop is collected (a
 * loop's cell set counted once: a later path through the same cells gives the same hints), then
 * sorted by (unrounded rating, type), ties in discovery order; steps carry the rating rounded.
 *
 * Info: type, the number of extra cells, the extra cells, then for type 2 the digit; for type 3
 * naked (1) or hidden (0), the number of set cells, the set cells, the set digits.
 */

/* ------------------------------------------------------------------ small unions */

/* The k-subsets of items (mask[0..m)) whose masks joined with `start` have at most `limit`
 * bits, each passed to `cb` with the picked item positions (ascending) and the union, in
 * Sudoku Explainer's Permutations order (increasing bitmask of the positions: colexicographic,
 * so the highest position is chosen first, lowest first). cb returns nonzero to stop. */
typedef int (*su_cb)(void *ctx, const int *picked, int k, dmask un);

typedef struct {
    const dmask *mask;
    int k, limit;
    int picked[64];
    su_cb cb;
    void *ctx;
} su_run;

/* choose positions picked[0..left) below `below`; returns nonzero to stop */
static int su_grow(su_run *r, int left, int below, dmask un) {
    if (left == 0) return r->cb(r->ctx, r->picked, r->k, un);
    for (int j = left - 1; j < below; j++) {
        dmask joined = un | r->mask[j];
        if (dm_count(joined) > r->limit) continue;
        r->picked[left - 1] = j;
        if (su_grow(r, left - 1, j, joined)) return 1;
    }
    return 0;
}

static int small_unions(const dmask *mask, int m, int k, int limit, dmask start, su_cb cb, void *ctx) {
    if (k < 0 || k > m || k > 64 || dm_count(start) > limit) return 0;
    su_run r;
    r.mask = mask; r.k = k; r.limit = limit; r.cb = cb; r.ctx = ctx;
    return su_grow(&r, k, m, start);
}

/* Python's round(x, 1) for the ratings here (sums of tenths, never near a half). */
static inline double round1(double x) { return __builtin_round(x * 10.0) / 10.0; }

/* ------------------------------------------------------------------ unique loops */

/* A set of houses: the classic 3n (<= 108) fit two words, a rules geometry's up to 12n. */
#define US_WORDS ((12 * LG_MAXN + 63) / 64)
typedef struct { uint64_t w[US_WORDS]; } uset;

static inline void us_add(uset *a, int u) { a->w[u >> 6] |= (uint64_t)1 << (u & 63); }
static inline int us_has(const uset *a, int u) { return (int)((a->w[u >> 6] >> (u & 63)) & 1); }
static inline int us_meets(const uset *a, const uset *b, int uw) {
    for (int i = 0; i < uw; i++) if (a->w[i] & b->w[i]) return 1;
    return 0;
}
static inline int us_equal(const uset *a, const uset *b, int uw) {
    for (int i = 0; i < uw; i++) if (a->w[i] != b->w[i]) return 0;
    return 1;
}

typedef struct {
    const lstate *s;
    lsink *out;
    int start, uw;             /* uw: words of a uset in use */
    dmask pair, not_pair;
    int v1, v2;
    uint8_t inboth[LG_MAXC];   /* cells with both digits */
    uint8_t used[LG_MAXC];
    uset ubits[LG_MAXC];       /* only filled for cells in inboth */
    int loop[LG_MAXC];
    int len;
    uint64_t *seen;            /* cell sets of the unique loops processed, nw words each */
    int nseen, capseen;
    int stop;
} ul_ctx;

static void ul_process(ul_ctx *x);

static void ul_extend(ul_ctx *x, int cell, int allowed, dmask extra, int last, uset same, uset other) {
    const lgeo *g = x->s->g;
    const dmask *cand = x->s->cand;
    int n = g->n, nregs;
    /* box, row, column (then the rules' extra houses): SukakuExplainer's region order. A
     * cell is in one house of each kind, so skipping the house the path arrived by is
     * skipping its kind. */
    const int *regs = lg_houses(g, cell, &nregs);
    for (int kind = 0; kind < nregs; kind++) {
        if (regs[kind] == last) continue;
        const int *uc = lg_unit(g, regs[kind]);
        for (int i = 0; i < n; i++) {
            int nxt = uc[i];
            if (nxt == x->start) {
                if (x->len >= 4) {
                    ul_process(x);
                    if (x->stop) return;
                }
                continue;
            }
            if (!x->inboth[nxt] || x->used[nxt]) continue;
            dmask m = cand[nxt];
            extra |= m & x->not_pair;
            int wide = dm_count(m) > 2;
            if ((!wide || dm_count(extra) == 1 || allowed > 0) && !us_meets(&same, &x->ubits[nxt], x->uw)) {
                uset grown = same;
                for (int w = 0; w < x->uw; w++) grown.w[w] |= x->ubits[nxt].w[w];
                x->loop[x->len++] = nxt;
                x->used[nxt] = 1;
                ul_extend(x, nxt, allowed - wide, extra, regs[kind], other, grown);
                x->used[nxt] = 0;
                x->len--;
                if (x->stop) return;
            }
        }
    }
}

static int ul_is_unique(const ul_ctx *x) {
    const lgeo *g = x->s->g;
    uset even, odd;
    memset(&even, 0, sizeof even);
    memset(&odd, 0, sizeof odd);
    for (int i = 0; i < x->len; i++) {
        uset *p = (i & 1) ? &odd : &even;
        int nh;
        const int *hs = lg_houses(g, x->loop[i], &nh);
        for (int k = 0; k < nh; k++) {
            if (us_has(p, hs[k])) return 0;
            us_add(p, hs[k]);
        }
    }
    return us_equal(&even, &odd, x->uw);
}

/* SukakuExplainer's check under neighbour rules (anti-king, anti-knight): a loop is no
 * deadly pattern when a cell a neighbour rule ties to one of its cells (and no house does)
 * may still hold either digit: that cell's value could tell the two solutions apart. */
static int ul_restricted(const ul_ctx *x) {
    const lstate *s = x->s;
    const lgeo *g = s->g;
    int nw = g->nw;
    cset either;
    cs_or(&either, &s->where[x->v1], &s->where[x->v2], nw);
    for (int i = 0; i < x->len; i++) {
        int c = x->loop[i];  /* the cells tied to c by no house: g->nbr (geo_rules_chain_tables) */
        for (int j = g->nbr_start[c]; j < g->nbr_start[c + 1]; j++)
            if (cs_has(&either, g->nbr[j])) return 1;
    }
    return 0;
}

static double ul_base(int size) {
    double rating = 4.5;
    if (size >= 10) rating += 0.3;
    if (size >= 8) rating += 0.2;
    else if (size >= 6) rating += 0.1;
    return rating;
}

/* begin a step on the loop (unrounded rating; lf_unique_loops sorts and rounds) */
static void ul_begin(ul_ctx *x, double rating, int type) {
    lsink *o = x->out;
    lstep_begin(o, x->len == 4 ? K_UNIQUE_RECTANGLE : K_UNIQUE_LOOP, rating);
    lstep_complexity(o, x->len);
    for (int i = 0; i < x->len; i++) lstep_cell(o, x->loop[i]);
    lstep_info(o, type);
}

static void ul_end(ul_ctx *x) {
    if (lstep_end(x->out)) x->stop = 1;
}

static void ul_type1(ul_ctx *x, double base, int cell) {
    ul_begin(x, base, 1);
    lstep_elim(x->out, cell, x->v1);
    lstep_elim(x->out, cell, x->v2);
    lstep_digit(x->out, x->v1);
    lstep_digit(x->out, x->v2);
    lstep_info(x->out, 1);
    lstep_info(x->out, cell);
    ul_end(x);
}

static void ul_type2(ul_ctx *x, double base, const int *ex, int nex) {
    const lstate *s = x->s;
    const lgeo *g = s->g;
    int nw = g->nw;
    dmask rest = s->cand[ex[0]] & ~x->pair;
    if (!rest) return;  /* cannot happen: an extra cell has other digits */
    int xd = 64 - __builtin_clzll(rest);  /* bit_length */
    cset hit = s->where[xd];
    for (int i = 0; i < nex; i++) cs_and(&hit, &hit, &g->peer_mask[ex[i]], nw);
    if (cs_empty(&hit, nw)) return;
    ul_begin(x, base, 2);
    CS_FOREACH(c, &hit, nw) lstep_elim(x->out, c, xd);
    lstep_digit(x->out, x->v1);
    lstep_digit(x->out, x->v2);
    lstep_info(x->out, nex);
    for (int i = 0; i < nex; i++) lstep_info(x->out, ex[i]);
    lstep_info(x->out, xd);
    ul_end(x);
}

/* type 3: the unit being searched */
typedef struct {
    ul_ctx *x;
    double base;
    int c1, c2, u, degree;
    const int *unit;
    dmask both_rest;
    const int *pos;       /* naked: unit positions of the items */
    const int *others;    /* hidden: the digits of the items */
    int i1;
} ul_t3;

/* A type 3 step's unit, its two digits and its two cells, after its eliminations. */
static void ul_write_pair(const ul_t3 *t) {
    ul_ctx *x = t->x;
    lstep_unit(x->out, t->u);
    lstep_digit(x->out, x->v1);
    lstep_digit(x->out, x->v2);
    lstep_info(x->out, 2);
    lstep_info(x->out, t->c1);
    lstep_info(x->out, t->c2);
}

/* The end of a type 3 naked-set step, its eliminations written: the unit, the two digits, the
 * two cells, and the set (its cells and digits). */
static int ul_naked_end(ul_t3 *t, const int *picked, int k, dmask un) {
    ul_ctx *x = t->x;
    int d0;
    ul_write_pair(t);
    lstep_info(x->out, 1);
    lstep_info(x->out, k);
    for (int j = 0; j < k; j++) lstep_info(x->out, t->unit[t->pos[picked[j]]]);
    DM_FOREACH(d0, un) lstep_info(x->out, d0 + 1);
    ul_end(x);
    return x->stop;
}

/* The naked set of a type 3 under rules, as SukakuExplainer takes it: each of its digits goes
 * from every cell that sees all the set's cells holding it (c1 and c2 among them), whatever
 * house or neighbour rule makes them see each other. */
static int ul_naked_rules(ul_t3 *t, const int *picked, int k, dmask un) {
    ul_ctx *x = t->x;
    const lstate *s = x->s;
    const lgeo *g = s->g;
    int nw = g->nw, cells[LG_MAXN + 2], ncells = 0, d0;
    for (int j = 0; j < k; j++) cells[ncells++] = t->unit[t->pos[picked[j]]];
    cells[ncells++] = t->c1;
    cells[ncells++] = t->c2;
    cset victims[LG_MAXN], any;
    cs_clear(&any, nw);
    DM_FOREACH(d0, un) {
        cset *v = &victims[d0];
        *v = s->where[d0 + 1];
        for (int i = 0; i < ncells; i++)
            if ((s->cand[cells[i]] >> d0) & 1) cs_and(v, v, &g->peer_mask[cells[i]], nw);
        cs_or(&any, &any, v, nw);
    }
    if (cs_empty(&any, nw)) return 0;
    ul_begin(x, t->base + (t->degree - 1) * 0.1, 3);
    CS_FOREACH(c, &any, nw) {
        DM_FOREACH(d0, un) if (cs_has(&victims[d0], c)) lstep_elim(x->out, c, d0 + 1);
    }
    return ul_naked_end(t, picked, k, un);
}

static int ul_naked_cb(void *ctx, const int *picked, int k, dmask un) {
    ul_t3 *t = ctx;
    ul_ctx *x = t->x;
    const lstate *s = x->s;
    const int *unit = t->unit;
    int n = s->g->n;
    if (dm_count(un) != t->degree) return 0;
    dmask inner = t->both_rest;
    uint64_t inset = 0;  /* unit positions of the set's other cells */
    for (int j = 0; j < k; j++) {
        int p = t->pos[picked[j]];
        inner |= s->cand[unit[p]];
        inset |= (uint64_t)1 << p;
    }
    if (dm_count(inner) != t->degree) return 0;
    if (s->g->rules) return ul_naked_rules(t, picked, k, un);
    int any = 0;
    for (int i = 0; i < n && !any; i++) {
        int c = unit[i];
        if ((inset >> i) & 1 || c == t->c1 || c == t->c2) continue;
        if (s->cand[c] & un) any = 1;
    }
    if (!any) return 0;
    ul_begin(x, t->base + (t->degree - 1) * 0.1, 3);
    for (int i = 0; i < n; i++) {
        int c = unit[i], d0;
        if ((inset >> i) & 1 || c == t->c1 || c == t->c2) continue;
        DM_FOREACH(d0, s->cand[c] & un) lstep_elim(x->out, c, d0 + 1);
    }
    return ul_naked_end(t, picked, k, un);
}

static int ul_hidden_cb(void *ctx, const int *picked, int k, dmask un) {
    ul_t3 *t = ctx;
    ul_ctx *x = t->x;
    const lstate *s = x->s;
    const int *unit = t->unit;
    if (dm_count(un) != t->degree) return 0;
    dmask hidden = ((dmask)1 << (x->v1 - 1)) | ((dmask)1 << (x->v2 - 1));
    for (int j = 0; j < k; j++) hidden |= (dmask)1 << (t->others[picked[j]] - 1);
    uint64_t cellsp = un & ~((uint64_t)1 << t->i1);
    int any = 0, ncells = 0, i;
    DM_FOREACH(i, cellsp) {
        ncells++;
        if (s->cand[unit[i]] & ~hidden) any = 1;
    }
    if (!any) return 0;
    ul_begin(x, t->base + (ncells - 1) * 0.1, 3);
    DM_FOREACH(i, cellsp) {
        int c = unit[i], d0;
        DM_FOREACH(d0, s->cand[c] & ~hidden) lstep_elim(x->out, c, d0 + 1);
    }
    ul_write_pair(t);
    lstep_info(x->out, 0);
    lstep_info(x->out, ncells);
    DM_FOREACH(i, cellsp) lstep_info(x->out, unit[i]);
    int d0;
    DM_FOREACH(d0, hidden) lstep_info(x->out, d0 + 1);
    ul_end(x);
    return x->stop;
}

/* The houses cells c1 and c2 share, in SukakuExplainer's region order; their count. */
static int ul_shared(const lgeo *g, int c1, int c2, int *shared) {
    int n1, n2, k = 0;
    const int *h1 = lg_houses(g, c1, &n1), *h2 = lg_houses(g, c2, &n2);
    for (int i = 0; i < n1; i++)
        for (int j = 0; j < n2; j++)
            if (h1[i] == h2[j]) shared[k++] = h1[i];
    return k;
}

static void ul_type3(ul_ctx *x, double base, int c1, int c2, dmask rest) {
    const lstate *s = x->s;
    const lgeo *g = s->g;
    int n = g->n;
    int others[LG_MAXN], nothers = 0;
    for (int d = 1; d <= n; d++)
        if (d != x->v1 && d != x->v2 && !((rest >> (d - 1)) & 1)) others[nothers++] = d;
    /* the houses c1 and c2 share, in SukakuExplainer's region order */
    int shared[LG_HMAX], nshared = ul_shared(g, c1, c2, shared);
    if (!nshared) return;
    /* per shared unit: empty count, naked items, hidden items */
    int empty[LG_HMAX], npos[LG_HMAX], nhid[LG_HMAX], i1s[LG_HMAX];
    int pos[LG_HMAX][LG_MAXN], hid[LG_HMAX][LG_MAXN];
    dmask nmask[LG_HMAX][LG_MAXN], hmask[LG_HMAX][LG_MAXN], vplaces[LG_HMAX];
    for (int k = 0; k < nshared; k++) {
        const int *unit = lg_unit(g, shared[k]);
        int i2 = -1;
        empty[k] = 0; npos[k] = 0; nhid[k] = 0; i1s[k] = -1;
        for (int i = 0; i < n; i++) {
            int c = unit[i];
            if (!s->values[c]) empty[k]++;
            if (c == c1) i1s[k] = i;
            if (c == c2) i2 = i;
            if (c != c1 && c != c2 && dm_count(s->cand[c]) > 1) {
                pos[k][npos[k]] = i;
                nmask[k][npos[k]++] = s->cand[c];
            }
        }
        /* places of a digit: unit positions holding it, c2 left out */
        dmask pl[LG_MAXN + 1];
        for (int d = 1; d <= n; d++) pl[d] = 0;
        for (int i = 0; i < n; i++) {
            if (i == i2) continue;
            int d0;
            DM_FOREACH(d0, s->cand[unit[i]]) pl[d0 + 1] |= (dmask)1 << i;
        }
        vplaces[k] = pl[x->v1] | pl[x->v2];
        for (int j = 0; j < nothers; j++) {
            dmask at = pl[others[j]];
            if (at) { hid[k][nhid[k]] = j; hmask[k][nhid[k]++] = at; }
        }
    }
    ul_t3 t;
    t.x = x; t.base = base; t.c1 = c1; t.c2 = c2;
    t.both_rest = rest & s->cand[c1] & s->cand[c2];
    t.others = others;
    for (int degree = dm_count(rest); degree < n - 1; degree++) {
        t.degree = degree;
        for (int k = 0; k < nshared; k++) {
            t.u = shared[k];
            t.unit = lg_unit(g, shared[k]);
            if (degree * 2 <= empty[k]) {
                t.pos = pos[k];
                if (small_unions(nmask[k], npos[k], degree - 1, degree, rest, ul_naked_cb, &t)) return;
            }
            if (degree * 2 < empty[k] && nothers) {
                /* items are (index into others, places): picked positions map through hid[] */
                int map_others[LG_MAXN];
                for (int j = 0; j < nhid[k]; j++) map_others[j] = others[hid[k][j]];
                t.others = map_others;
                t.i1 = i1s[k];
                int r = small_unions(hmask[k], nhid[k], degree - 2, degree, vplaces[k], ul_hidden_cb, &t);
                t.others = others;
                if (r) return;
            }
        }
    }
}

static void ul_type4(ul_ctx *x, double base, int c1, int c2) {
    const lstate *s = x->s;
    const lgeo *g = s->g;
    int nw = g->nw;
    int shared[LG_HMAX], nshared = ul_shared(g, c1, c2, shared);
    int lock1 = -1, lock2 = -1;
    for (int k = 0; k < nshared; k++) {
        const cset *um = lg_mask(g, shared[k]);
        cset t;
        cs_and(&t, &s->where[x->v1], um, nw);
        cs_del(&t, c1); cs_del(&t, c2);
        if (cs_empty(&t, nw)) lock1 = shared[k];
        cs_and(&t, &s->where[x->v2], um, nw);
        cs_del(&t, c1); cs_del(&t, c2);
        if (cs_empty(&t, nw)) lock2 = shared[k];
    }
    int unit, lock, remove;
    if (lock1 >= 0) { unit = lock1; lock = x->v1; remove = x->v2; }
    else if (lock2 >= 0) { unit = lock2; lock = x->v2; remove = x->v1; }
    else return;
    ul_begin(x, base, 4);
    int a = c1 < c2 ? c1 : c2, b = c1 < c2 ? c2 : c1;
    lstep_elim(x->out, a, remove);
    lstep_elim(x->out, b, remove);
    lstep_unit(x->out, unit);
    lstep_digit(x->out, lock);
    lstep_digit(x->out, remove);
    lstep_info(x->out, 2);
    lstep_info(x->out, c1);
    lstep_info(x->out, c2);
    ul_end(x);
}

/* A closed path of x->len cells: if it is a unique loop not seen before, its hints. */
static void ul_process(ul_ctx *x) {
    if (!ul_is_unique(x)) return;
    if (x->s->g->rules && ul_restricted(x)) return;
    const lstate *s = x->s;
    int nw = s->g->nw;
    cset mask;
    cs_clear(&mask, nw);
    for (int i = 0; i < x->len; i++) cs_add(&mask, x->loop[i]);
    for (int k = 0; k < x->nseen; k++)
        if (!memcmp(x->seen + (size_t)k * nw, mask.w, sizeof(uint64_t) * nw)) return;
    if (x->nseen == x->capseen) {
        int cap = x->capseen ? 2 * x->capseen : 16;
        uint64_t *a = realloc(x->seen, sizeof(uint64_t) * (size_t)nw * (size_t)cap);
        if (!a) { x->out->failed = 1; x->stop = 1; return; }
        x->seen = a;
        x->capseen = cap;
    }
    memcpy(x->seen + (size_t)x->nseen * nw, mask.w, sizeof(uint64_t) * nw);
    x->nseen++;

    int ex[LG_MAXC], nex = 0;
    for (int i = 0; i < x->len; i++)
        if (dm_count(s->cand[x->loop[i]]) > 2) ex[nex++] = x->loop[i];
    double base = ul_base(x->len);
    if (nex == 1) ul_type1(x, base, ex[0]);
    else if (nex > 2) ul_type2(x, base, ex, nex);
    else if (nex == 2) {
        int c1 = ex[0], c2 = ex[1];
        dmask rest = (s->cand[c1] | s->cand[c2]) & ~x->pair;
        if (dm_count(rest) == 1) ul_type2(x, base, ex, nex);
        else if (dm_count(rest) >= 2) ul_type3(x, base, c1, c2, rest);
        if (x->stop) return;
        ul_type4(x, base, c1, c2);
    }
}

static inline int ul_type_of(const lsink *o, const lstep *st) { return o->pool[P_INFO].a[st->start[P_INFO]]; }

static void lf_unique_loops(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    /* A loop is deadly only when swapping its two digits keeps every constraint: killer cages
     * would need their sums checked too, which the loops here do not. */
    if (g->ncage) return;
    int size = g->size, nw = g->nw;
    int want = out->want, first = out->nsteps;
    double max_rating = out->max_rating;
    out->want = 0;          /* every hint first: they are sorted before any is given */
    out->max_rating = -1;
    ul_ctx *x = malloc(sizeof(ul_ctx));
    if (!x) { out->failed = 1; goto done; }
    x->s = s; x->out = out; x->seen = NULL; x->nseen = x->capseen = 0; x->stop = 0;
    x->uw = ((g->rules ? g->nhouse : g->nunit) + 63) / 64;
    memset(x->used, 0, (size_t)size);
    for (int start = 0; start < size && !x->stop; start++) {
        dmask m = s->cand[start];
        if (dm_count(m) != 2) continue;
        int lo = dm_low(m) + 1, hi = 64 - __builtin_clzll(m);
        cset both;
        cs_and(&both, &s->where[hi], &s->where[lo], nw);
        if (cs_count(&both, nw) < 4) continue;
        memset(x->inboth, 0, (size_t)size);
        CS_FOREACH(c, &both, nw) {
            x->inboth[c] = 1;
            uset b;
            memset(&b, 0, sizeof b);
            int nh;
            const int *hs = lg_houses(g, c, &nh);
            for (int k = 0; k < nh; k++) us_add(&b, hs[k]);
            x->ubits[c] = b;
        }
        x->start = start;
        x->pair = m; x->not_pair = ~m;
        x->v1 = lo; x->v2 = hi;
        x->loop[0] = start; x->len = 1;
        x->used[start] = 1;
        uset none;
        memset(&none, 0, sizeof none);
        ul_extend(x, start, 2, 0, -1, none, x->ubits[start]);
        x->used[start] = 0;
    }
    free(x->seen);
    free(x);
done:
    out->want = want;
    out->max_rating = max_rating;
    if (out->failed) return;
    /* stable sort by (rating, type), then round the ratings, then the sink's cap and count */
    lstep *st = out->steps;
    for (int i = first + 1; i < out->nsteps; i++) {
        lstep key = st[i];
        int kt = ul_type_of(out, &key), j = i;
        while (j > first && (st[j - 1].rating > key.rating ||
                             (st[j - 1].rating == key.rating && ul_type_of(out, &st[j - 1]) > kt))) {
            st[j] = st[j - 1];
            j--;
        }
        st[j] = key;
    }
    int k = first;
    for (int i = first; i < out->nsteps; i++) {
        st[i].rating = round1(st[i].rating);
        if (max_rating >= 0 && st[i].rating > max_rating) continue;
        if (want && k - first >= want) break;
        st[k++] = st[i];
    }
    out->nsteps = k;
}
