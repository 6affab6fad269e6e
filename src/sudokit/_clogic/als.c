/*
 * ALS-XZ (reference: tests/logic/pyref/als.py; HoDoKu 2.2's getAlses, getRestrictedCommons,
 * AlsSolver.getAlsXZ).
 *
 * Almost locked sets are collected unit by unit (rows, columns, boxes), each unit's empty cells'
 * subsets depth first (preorder), a set already found in an earlier unit skipped: a set of cells
 * lies in an earlier unit exactly when the reference's `known` has it. Per set and digit, the
 * "seers": the cells outside the set, with the digit, seeing all the set's cells with it.
 * Pairs of sets (i < j) that share no cell and where B meets A's reach are tried in order;
 * restricted commons ascending, the first two used; every pair with eliminations is a step.
 *
 * Info: |A|, A's cells, |A's digits|, A's digits, then the same for B.
 */

typedef struct {
    int unit;
    dmask digits;
    size_t off;   /* words: cells (nw), reach (nw), then seers (nw) per digit of `digits` */
} als_set;

typedef struct {
    const lstate *s;
    als_set *sets;
    size_t nsets, cap;
    uint64_t *words;
    size_t nwords, wcap;
    int failed;
} als_list;

static uint64_t *als_cells(const als_list *l, const als_set *a) { return l->words + a->off; }
static uint64_t *als_reach(const als_list *l, const als_set *a) {
    return l->words + a->off + (size_t)l->s->g->nw;
}
/* seers of digit index d0 (which must be one of the set's digits) */
static uint64_t *als_seers(const als_list *l, const als_set *a, int d0) {
    int rank = dm_count(a->digits & (((dmask)1 << d0) - 1));
    return l->words + a->off + (size_t)(2 + rank) * (size_t)l->s->g->nw;
}

/* Append the set of `chosen` cells (found in unit u) unless an earlier unit holds them all. */
static void als_add(als_list *l, const int *chosen, int k, dmask digits, int u) {
    const lstate *s = l->s;
    const lgeo *g = s->g;
    int nw = g->nw;
    cset cells;
    cs_clear(&cells, nw);
    for (int i = 0; i < k; i++) cs_add(&cells, chosen[i]);
    for (int j = 0; j < 3; j++) {
        int v = g->units_of[3 * chosen[0] + j];
        if (v < u && cs_within(&cells, &g->unit_mask[v], nw)) return;
    }
    int nd = dm_count(digits);
    size_t need = (size_t)(2 + nd) * (size_t)nw;
    if (l->nsets == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        als_set *a = realloc(l->sets, sizeof(als_set) * cap);
        if (!a) { l->failed = 1; return; }
        l->sets = a;
        l->cap = cap;
    }
    if (l->nwords + need > l->wcap) {
        size_t cap = l->wcap ? 2 * l->wcap : 4096;
        while (cap < l->nwords + need) cap *= 2;
        uint64_t *w = realloc(l->words, sizeof(uint64_t) * cap);
        if (!w) { l->failed = 1; return; }
        l->words = w;
        l->wcap = cap;
    }
    als_set *a = l->sets + l->nsets++;
    a->unit = u;
    a->digits = digits;
    a->off = l->nwords;
    l->nwords += need;
    uint64_t *wc = als_cells(l, a), *reach = als_reach(l, a);
    memcpy(wc, cells.w, sizeof(uint64_t) * (size_t)nw);
    memset(reach, 0, sizeof(uint64_t) * (size_t)nw);
    int d0, rank = 0;
    DM_FOREACH(d0, digits) {
        const cset *wd = &s->where[d0 + 1];
        uint64_t *se = l->words + a->off + (size_t)(2 + rank++) * (size_t)nw;
        for (int i = 0; i < nw; i++) se[i] = wd->w[i] & ~cells.w[i];
        for (int i = 0; i < k; i++)
            if (s->cand[chosen[i]] >> d0 & 1) {
                const cset *pm = &g->peer_mask[chosen[i]];
                for (int w = 0; w < nw; w++) se[w] &= pm->w[w];
            }
        for (int i = 0; i < nw; i++) reach[i] |= se[i];
    }
}

/* The reference's _subsets: the sets among chosen[0..k) plus cells of empty[start..), preorder. */
static void als_subsets(als_list *l, const int *empty, int ne, int start, int *chosen, int k,
                        dmask digits, int limit, int u) {
    for (int i = start; i < ne && !l->failed; i++) {
        dmask sub = digits | l->s->cand[empty[i]];
        int size = k + 1, count = dm_count(sub);
        chosen[k] = empty[i];
        if (count == size + 1) als_add(l, chosen, size, sub, u);
        int room = ne - i - 1;
        if (limit - size < room) room = limit - size;
        if (room > 0 && count <= size + 1 + room)
            als_subsets(l, empty, ne, i + 1, chosen, size, sub, limit, u);
    }
}

static void als_emit_set(lsink *out, const als_list *l, const als_set *a) {
    int nw = l->s->g->nw, d0;
    cset cells;
    memcpy(cells.w, als_cells(l, a), sizeof(uint64_t) * (size_t)nw);
    lstep_info(out, cs_count(&cells, nw));
    CS_FOREACH(c, &cells, nw) lstep_info(out, c);
    lstep_info(out, dm_count(a->digits));
    DM_FOREACH(d0, a->digits) lstep_info(out, d0 + 1);
}

static void lf_als_xz(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    als_list l = {s, NULL, 0, 0, NULL, 0, 0, 0};
    int empty[LG_MAXN], chosen[LG_MAXN];
    for (int u = 0; u < 3 * n && !l.failed; u++) {
        const int *uc = lg_unit(g, u);
        int ne = 0;
        for (int i = 0; i < n; i++)
            if (!s->values[uc[i]]) empty[ne++] = uc[i];
        als_subsets(&l, empty, ne, 0, chosen, 0, 0, n - 1, u);
    }
    if (l.failed) { out->failed = 1; goto done; }
    cset rem[LG_MAXN];
    for (size_t i = 0; i < l.nsets; i++) {
        const als_set *a = l.sets + i;
        const uint64_t *ca = als_cells(&l, a), *ra = als_reach(&l, a);
        for (size_t j = i + 1; j < l.nsets; j++) {
            const als_set *b = l.sets + j;
            const uint64_t *cb = als_cells(&l, b);
            int skip = 0, meet = 0;
            for (int w = 0; w < nw; w++) {
                if (cb[w] & ca[w]) { skip = 1; break; }
                if (cb[w] & ra[w]) meet = 1;
            }
            if (skip || !meet) continue;
            /* restricted commons: every cell of one set's x sees every cell of the other's */
            dmask common = a->digits & b->digits;
            int rcs[2], nrc = 0, d0;
            DM_FOREACH(d0, common) {
                const uint64_t *wd = s->where[d0 + 1].w;
                const uint64_t *sa = als_seers(&l, a, d0), *sb = als_seers(&l, b, d0);
                int ok = 1;
                for (int w = 0; w < nw && ok; w++)
                    if ((cb[w] & wd[w] & ~sa[w]) || (ca[w] & wd[w] & ~sb[w])) ok = 0;
                if (ok) {
                    rcs[nrc++] = d0;
                    if (nrc == 2) break;
                }
            }
            if (!nrc) continue;
            dmask touched = 0;
            for (int r = 0; r < nrc; r++) {
                int z0;
                DM_FOREACH(z0, common & ~((dmask)1 << rcs[r])) {
                    const uint64_t *sa = als_seers(&l, a, z0), *sb = als_seers(&l, b, z0);
                    if (!(touched >> z0 & 1)) { cs_clear(&rem[z0], nw); touched |= (dmask)1 << z0; }
                    for (int w = 0; w < nw; w++) rem[z0].w[w] |= sa[w] & sb[w];
                }
            }
            if (nrc >= 2) {
                dmask locked = ((dmask)1 << rcs[0]) | ((dmask)1 << rcs[1]);
                for (int side = 0; side < 2; side++) {
                    const als_set *one = side ? b : a;
                    const uint64_t *other = side ? ca : cb;
                    int z0;
                    DM_FOREACH(z0, one->digits & ~locked) {
                        const uint64_t *so = als_seers(&l, one, z0);
                        if (!(touched >> z0 & 1)) { cs_clear(&rem[z0], nw); touched |= (dmask)1 << z0; }
                        for (int w = 0; w < nw; w++) rem[z0].w[w] |= so[w] & ~other[w];
                    }
                }
            }
            int any = 0, z0;
            DM_FOREACH(z0, touched) if (!cs_empty(&rem[z0], nw)) { any = 1; break; }
            if (!any) continue;
            lstep_begin(out, K_ALS_XZ, 7.0);
            DM_FOREACH(z0, touched) CS_FOREACH(c, &rem[z0], nw) lstep_elim(out, c, z0 + 1);
            cset both;
            for (int w = 0; w < nw; w++) both.w[w] = ca[w] | cb[w];
            CS_FOREACH(c, &both, nw) lstep_cell(out, c);
            lstep_unit(out, a->unit);
            lstep_unit(out, b->unit);
            for (int r = 0; r < nrc; r++) lstep_digit(out, rcs[r] + 1);
            lstep_complexity(out, cs_count(&both, nw));
            als_emit_set(out, &l, a);
            als_emit_set(out, &l, b);
            if (lstep_end(out)) goto done;
        }
    }
done:
    free(l.sets);
    free(l.words);
}
