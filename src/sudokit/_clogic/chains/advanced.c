/*
 * Chains, advanced rules (part of chains.c): what a dynamic (+) chaining deduces besides the
 * basic links: locking, hidden and naked pairs, X-Wings, each emitted as nodes whose parents
 * are the removed candidates it relies on (ch_advanced in nested.c applies them in turn, then
 * the inner engines of nested levels).
 */
/* One advanced hint: its removable candidates and the removed candidates it relies on. */
static void ch_emit(ch_Engine *e, ch_IVec *out, const int *rem, int nrem, const int *parents, int npar,
                 int nested_cx, uint64_t nested_sig) {
    if (!npar) return;
    for (int i = 0; i < nrem; i++) {
        int q = ch_node_new(e, rem[i] * 2, CH_CAUSE_ADV);
        e->nodes[q].nested_cx = nested_cx;
        e->nodes[q].nested_sig = nested_sig;
        for (int k = 0; k < npar; k++) ch_node_parent(e, q, e->off_map[parents[k]]);
        ch_iv_push(out, q);
    }
}

/* The advanced rules emit a finding only with parents, candidates gone since the run's grid;
 * all of them are among the "off"s (gone through when the rules run): per unit, the digits
 * (dig) and the places (idx) of those. A rule looks only where these may give parents, in
 * its own order. */
typedef struct { ch_mask_t dig[3 * SUDOKIT_MAX_SIDE], idx[3 * SUDOKIT_MAX_SIDE]; } ch_Gone;

static void ch_gone(const ch_Engine *e, ch_Gone *gn) {
    const lgeo *g = e->g;
    memset(gn->dig, 0, sizeof(ch_mask_t) * (size_t)g->nunit);
    memset(gn->idx, 0, sizeof(ch_mask_t) * (size_t)g->nunit);
    for (int i = 0; i < e->off_ord.len; i++) {
        const lcand *cg = g->cg + e->off_ord.a[i];
        for (int t = 0; t < 3; t++) {
            gn->dig[cg->unit[t]] |= (ch_mask_t)1 << cg->digit;
            gn->idx[cg->unit[t]] |= (ch_mask_t)1 << cg->idx[t];
        }
    }
}

static void ch_rule_locking(ch_Engine *e, const ch_mask_t *src, const ch_Gone *gn, ch_IVec *out) {
    (void)src;  /* the removed places come from srcpos */
    const lgeo *g = e->g;
    int n = g->n;
    int rem[SUDOKIT_MAX_SIDE], par[SUDOKIT_MAX_SIDE];
    const ch_mask_t *chg = gn->dig;  /* the parents: places of the digit in u1 gone */
    for (int k = 0; k < g->nlock; k++) {
        int u1 = g->locking[2 * k], u2 = g->locking[2 * k + 1];
        const int *c1 = g->unit_cells + u1 * n, *c2 = g->unit_cells + u2 * n;
        ch_mask_t in1 = g->lock_in[2 * k], in2 = g->lock_in[2 * k + 1];
        for (ch_mask_t dm = chg[u1]; dm; dm &= dm - 1) {
            int d = ch_lowbit(dm);
            ch_mask_t p1 = e->pos[u1 * n + d];
            if (!ch_many(p1) || (p1 & ~in1)) continue;
            ch_mask_t r2 = e->pos[u2 * n + d] & ~in2;
            if (!r2) continue;
            int nr = 0, np = 0;
            while (r2) { int i = ch_lowbit(r2); r2 &= r2 - 1; rem[nr++] = c2[i] * n + d; }
            ch_mask_t gone = e->srcpos[u1 * n + d] & ~p1 & ~in1;
            while (gone) { int i = ch_lowbit(gone); gone &= gone - 1; par[np++] = c1[i] * n + d; }
            ch_emit(e, out, rem, nr, par, np, -1, 0);
        }
    }
}

static void ch_rule_hidden_pairs(ch_Engine *e, const ch_mask_t *src, const ch_Gone *gn, ch_IVec *out) {
    const lgeo *g = e->g;
    int n = g->n;
    int rem[2 * SUDOKIT_MAX_SIDE], par[2 * SUDOKIT_MAX_SIDE];
    for (int t = 0; t < 3; t++) {
        int base = t == 0 ? 2 * n : (t == 1 ? n : 0);  /* boxes, columns, rows */
        for (int ui = 0; ui < n; ui++) {
            int u = base + ui;
            if (e->empties[u] <= 4) continue;
            /* the parents: places of the pair's digits in u gone */
            ch_mask_t chg = gn->dig[u];
            if (!chg) continue;
            const int *uc = g->unit_cells + u * n;
            /* two digits of two places each, the same two: the pairs (a, b) in SE's order
             * (b, then a, ascending), of the digits with two places only */
            ch_mask_t two = 0;
            for (int d = 0; d < n; d++) two |= (ch_mask_t)ch_two_bits(e->pos[u * n + d]) << d;
            for (ch_mask_t mb = two & (two - 1); mb; mb &= mb - 1)
            for (ch_mask_t ma = two & (((ch_mask_t)1 << ch_lowbit(mb)) - 1); ma; ma &= ma - 1) {
                int a = ch_lowbit(ma), b = ch_lowbit(mb);
                if (!((chg >> a | chg >> b) & 1)) continue;
                ch_mask_t uni = e->pos[u * n + a];
                if (uni != e->pos[u * n + b]) continue;
                ch_mask_t pair = ((ch_mask_t)1 << a) | ((ch_mask_t)1 << b);
                int nr = 0, np = 0;
                for (int i = 0; i < n; i++) {
                    if (!(uni >> i & 1)) continue;
                    int q = uc[i];
                    ch_mask_t m = e->cand[q] & ~pair;
                    while (m) { int v = ch_lowbit(m); m &= m - 1; rem[nr++] = q * n + v; }
                }
                if (!nr) continue;
                for (int i = 0; i < n; i++) {
                    if (uni >> i & 1) continue;
                    int q = uc[i];
                    if (src[q] >> a & 1) par[np++] = q * n + a;
                    if (src[q] >> b & 1) par[np++] = q * n + b;
                }
                ch_emit(e, out, rem, nr, par, np, -1, 0);
            }
        }
    }
}

static void ch_rule_naked_pairs(ch_Engine *e, const ch_mask_t *src, const ch_Gone *gn, ch_IVec *out) {
    const lgeo *g = e->g;
    int n = g->n;
    int rem[2 * SUDOKIT_MAX_SIDE], par[2 * SUDOKIT_MAX_SIDE];
    for (int t = 0; t < 3; t++) {
        int base = t == 0 ? 2 * n : (t == 1 ? n : 0);
        for (int ui = 0; ui < n; ui++) {
            int u = base + ui;
            if (e->empties[u] < 4) continue;
            /* the parents: candidates of the pair's cells gone */
            ch_mask_t chg = gn->idx[u];
            if (!chg) continue;
            const int *uc = g->unit_cells + u * n;
            /* two cells of two candidates each, the same two: the pairs in SE's order, of
             * the cells with two candidates only */
            ch_mask_t two = 0;
            for (int i = 0; i < n; i++) two |= (ch_mask_t)ch_two_bits(e->cand[uc[i]]) << i;
            for (ch_mask_t mj = two & (two - 1); mj; mj &= mj - 1)
            for (ch_mask_t mi = two & (((ch_mask_t)1 << ch_lowbit(mj)) - 1); mi; mi &= mi - 1) {
                if (!((chg >> ch_lowbit(mi) | chg >> ch_lowbit(mj)) & 1)) continue;
                int ca = uc[ch_lowbit(mi)], cb = uc[ch_lowbit(mj)];
                ch_mask_t uni = e->cand[ca];
                if (uni != e->cand[cb]) continue;
                int nr = 0, np = 0;
                for (int i = 0; i < n; i++) {
                    int q = uc[i];
                    if (q == ca || q == cb) continue;
                    ch_mask_t m = e->cand[q] & uni;
                    while (m) { int v = ch_lowbit(m); m &= m - 1; rem[nr++] = q * n + v; }
                }
                if (!nr) continue;
                int cs[2] = {ca, cb};
                for (int s = 0; s < 2; s++) {
                    ch_mask_t m = src[cs[s]] & ~uni;
                    while (m) { int v = ch_lowbit(m); m &= m - 1; par[np++] = cs[s] * n + v; }
                }
                ch_emit(e, out, rem, nr, par, np, -1, 0);
            }
        }
    }
}

static void ch_rule_x_wings(ch_Engine *e, const ch_mask_t *src, const ch_Gone *gn, ch_IVec *out) {
    const lgeo *g = e->g;
    int n = g->n;
    int rem[2 * SUDOKIT_MAX_SIDE], par[2 * SUDOKIT_MAX_SIDE];
    const int *placed = e->placed;
    for (int t = 0; t < 2; t++) {
        int bases = t == 0 ? n : 0, covers = t == 0 ? 0 : n;  /* columns/rows, then rows/cols */
        /* per base line, the digits (placed at most n - 4 times) with two places there: an
         * x-wing's lines have the same two */
        ch_mask_t two[SUDOKIT_MAX_SIDE];
        for (int l = 0; l < n; l++) {
            two[l] = 0;
            for (int d = 0; d < n; d++)
                if (placed[d] + 4 <= n) two[l] |= (ch_mask_t)ch_two_bits(e->pos[(bases + l) * n + d]) << d;
        }
        for (int k = 0; k < g->npairs; k++) {
            int b1 = bases + g->pairs[2 * k], b2 = bases + g->pairs[2 * k + 1];
            /* the parents: places of the digit in the base lines gone */
            ch_mask_t chg = gn->dig[b1] | gn->dig[b2];
            for (ch_mask_t md = two[g->pairs[2 * k]] & two[g->pairs[2 * k + 1]] & chg; md; md &= md - 1) {
                int d = ch_lowbit(md);
                ch_mask_t uni = e->pos[b1 * n + d];  /* a position in a base line is a cover line index */
                if (uni != e->pos[b2 * n + d]) continue;
                ch_mask_t bit = (ch_mask_t)1 << d;
                int nr = 0, np = 0;
                for (int j = 0; j < n; j++) {
                    if (!(uni >> j & 1)) continue;
                    const int *cc = g->unit_cells + (covers + j) * n;
                    for (int i = 0; i < n; i++) {
                        int q = cc[i];
                        if ((e->cand[q] & bit) && !geo_cell_in_unit(g, b1, q) && !geo_cell_in_unit(g, b2, q))
                            rem[nr++] = q * n + d;
                    }
                }
                if (!nr) continue;
                /* removable sorted by cand for a stable order */
                for (int i = 1; i < nr; i++) {
                    int x = rem[i], j = i - 1;
                    while (j >= 0 && rem[j] > x) { rem[j + 1] = rem[j]; j--; }
                    rem[j + 1] = x;
                }
                int bl[2] = {b1, b2};
                for (int s = 0; s < 2; s++) {
                    const int *bc = g->unit_cells + bl[s] * n;
                    for (int i = 0; i < n; i++) {
                        int q = bc[i];
                        if ((src[q] & bit) && !(e->cand[q] & bit) && !(uni >> i & 1))
                            par[np++] = q * n + d;
                    }
                }
                ch_emit(e, out, rem, nr, par, np, -1, 0);
            }
        }
    }
}
