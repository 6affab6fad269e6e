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
    size_t off;   /* in the seers pool: nw words per digit of `digits`, ascending */
} als_set;

/* The sets; their cells and reach (the union of their seers) in arrays of their own, nw words
 * each, for the pair loop's filter. */
typedef struct {
    const lstate *s;
    als_set *sets;
    uint64_t *cellv, *reachv;
    size_t nsets, cap;
    uint64_t *seerv;
    size_t nseer, scap;
    int failed;
} als_list;

static int als_grow(als_list *l, size_t need) {
    size_t nw = (size_t)l->s->g->nw;
    if (l->nsets == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        als_set *a = realloc(l->sets, sizeof(als_set) * cap);
        if (!a) return -1;
        l->sets = a;
        uint64_t *c = realloc(l->cellv, sizeof(uint64_t) * nw * cap);
        if (!c) return -1;
        l->cellv = c;
        uint64_t *r = realloc(l->reachv, sizeof(uint64_t) * nw * cap);
        if (!r) return -1;
        l->reachv = r;
        l->cap = cap;
    }
    if (l->nseer + need > l->scap) {
        size_t cap = l->scap ? 2 * l->scap : 4096;
        while (cap < l->nseer + need) cap *= 2;
        uint64_t *w = realloc(l->seerv, sizeof(uint64_t) * cap);
        if (!w) return -1;
        l->seerv = w;
        l->scap = cap;
    }
    return 0;
}

/* Each digit's seers of set a, by digit index (entries for other digits left alone). */
static void als_seer_table(const als_list *l, const als_set *a, const uint64_t **of) {
    size_t nw = (size_t)l->s->g->nw, k = 0;
    int d0;
    DM_FOREACH(d0, a->digits) of[d0] = l->seerv + a->off + nw * k++;
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
    size_t need = (size_t)(k + 1) * (size_t)nw;  /* k cells hold k + 1 digits */
    if (als_grow(l, need)) { l->failed = 1; return; }
    size_t i = l->nsets++;
    als_set *a = l->sets + i;
    a->unit = u;
    a->digits = digits;
    a->off = l->nseer;
    l->nseer += need;
    uint64_t *reach = l->reachv + i * (size_t)nw, *se = l->seerv + a->off;
    memcpy(l->cellv + i * (size_t)nw, cells.w, sizeof(uint64_t) * (size_t)nw);
    memset(reach, 0, sizeof(uint64_t) * (size_t)nw);
    int d0;
    DM_FOREACH(d0, digits) {
        const cset *wd = &s->where[d0 + 1];
        for (int w = 0; w < nw; w++) se[w] = wd->w[w] & ~cells.w[w];
        for (int c = 0; c < k; c++)
            if (s->cand[chosen[c]] >> d0 & 1) {
                const cset *pm = &g->peer_mask[chosen[c]];
                for (int w = 0; w < nw; w++) se[w] &= pm->w[w];
            }
        for (int w = 0; w < nw; w++) reach[w] |= se[w];
        se += nw;
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

static void als_emit_set(lsink *out, const als_list *l, size_t i) {
    int nw = l->s->g->nw, d0;
    cset cells;
    memcpy(cells.w, l->cellv + i * (size_t)nw, sizeof(uint64_t) * (size_t)nw);
    lstep_info(out, cs_count(&cells, nw));
    CS_FOREACH(c, &cells, nw) lstep_info(out, c);
    lstep_info(out, dm_count(l->sets[i].digits));
    DM_FOREACH(d0, l->sets[i].digits) lstep_info(out, d0 + 1);
}

static void lf_als_xz(const lstate *s, lsink *out) {
    const lgeo *g = s->g;
    int n = g->n, nw = g->nw;
    als_list l = {s, NULL, NULL, NULL, 0, 0, NULL, 0, 0, 0};
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
    const uint64_t *sa_of[LG_MAXN], *sb_of[LG_MAXN];
    for (size_t i = 0; i < l.nsets; i++) {
        const als_set *a = l.sets + i;
        const uint64_t *ca = l.cellv + i * (size_t)nw, *ra = l.reachv + i * (size_t)nw;
        als_seer_table(&l, a, sa_of);
        for (size_t j = i + 1; j < l.nsets; j++) {
            const uint64_t *cb = l.cellv + j * (size_t)nw;
            int skip = 0, meet = 0;
            for (int w = 0; w < nw; w++) {
                if (cb[w] & ca[w]) { skip = 1; break; }
                if (cb[w] & ra[w]) meet = 1;
            }
            if (skip || !meet) continue;
            const als_set *b = l.sets + j;
            als_seer_table(&l, b, sb_of);
            /* restricted commons: every cell of one set's x sees every cell of the other's */
            dmask common = a->digits & b->digits;
            int rcs[2], nrc = 0, d0;
            DM_FOREACH(d0, common) {
                const uint64_t *wd = s->where[d0 + 1].w, *sa = sa_of[d0], *sb = sb_of[d0];
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
                    const uint64_t *sa = sa_of[z0], *sb = sb_of[z0];
                    if (!(touched >> z0 & 1)) { cs_clear(&rem[z0], nw); touched |= (dmask)1 << z0; }
                    for (int w = 0; w < nw; w++) rem[z0].w[w] |= sa[w] & sb[w];
                }
            }
            if (nrc >= 2) {
                dmask locked = ((dmask)1 << rcs[0]) | ((dmask)1 << rcs[1]);
                for (int side = 0; side < 2; side++) {
                    const als_set *one = side ? b : a;
                    const uint64_t *other = side ? ca : cb, **so_of = side ? sb_of : sa_of;
                    int z0;
                    DM_FOREACH(z0, one->digits & ~locked) {
                        const uint64_t *so = so_of[z0];
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
            als_emit_set(out, &l, i);
            als_emit_set(out, &l, j);
            if (lstep_end(out)) goto done;
        }
    }
done:
    free(l.sets);
    free(l.cellv);
    free(l.reachv);
    free(l.seerv);
}
