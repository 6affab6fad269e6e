/*
 * Chains, reachability (part of chains.c): which "on" candidates each "on" leads to through
 * static links (strongly connected components), so that the static searches skip candidates
 * from which no forcing chain or cycle can exist, and static multiple chains skip closures
 * that cannot share a potential.
 */

/* Per candidate in ch_Reach.oto: its "off"'s "on"s, counted (the cell's other candidate, and
 * one per house of the cell). */
#define CH_OTO (2 + LG_HMAX)

static void ch_reach_free(ch_Reach *r) {
    free(r->reach); free(r->reach_off); free(r->comp); free(r->csize); free(r->span); free(r->oto); free(r->start); free(r->idx); free(r->low); free(r->stk);
    free(r->call); free(r->it); free(r->adj); free(r->onstk);
    memset(r, 0, sizeof *r);
}

/* Which "on" candidates each "on" leads to through the static links of this loop (x links,
 * y links when asked): Tarjan's components, each one's set the union of its members and of
 * the sets of the components it links to (found before it). Grids beyond CH_REACH_MAX
 * candidates go without (r->ok 0: every search is run); memory running out fails the engine,
 * as everywhere else. */
static void ch_reach_build(ch_Engine *e, int y_links, int with_off) {
    const lgeo *g = e->g;
    ch_Reach *r = &e->reach;
    int ncand = g->ncand, nw = (ncand + 63) / 64;
    r->ok = 0; r->off = 0;
    if (ncand > CH_REACH_MAX) return;
    if (with_off && !r->reach_off) {
        r->reach_off = malloc(sizeof(uint64_t) * (size_t)ncand * (size_t)nw);
        if (!r->reach_off) { e->failed = 1; return; }
    }
    if (!r->reach) {
        r->nw = nw;
        r->reach = malloc(sizeof(uint64_t) * (size_t)ncand * (size_t)nw);
        r->comp = malloc(sizeof(int) * (size_t)ncand);
        r->csize = malloc(sizeof(int) * (size_t)ncand);
        r->span = malloc(sizeof(int) * 2 * (size_t)ncand);
        r->oto = malloc(sizeof(int) * CH_OTO * (size_t)ncand);
        r->start = malloc(sizeof(int) * ((size_t)ncand + 1));
        r->idx = malloc(sizeof(int) * (size_t)ncand);
        r->low = malloc(sizeof(int) * (size_t)ncand);
        r->stk = malloc(sizeof(int) * (size_t)ncand);
        r->call = malloc(sizeof(int) * (size_t)ncand);
        r->it = malloc(sizeof(int) * (size_t)ncand);
        r->onstk = malloc((size_t)ncand);
        r->cap = 16 * ncand;
        r->adj = malloc(sizeof(int) * (size_t)r->cap);
        if (!r->reach || !r->comp || !r->csize || !r->span || !r->oto || !r->start || !r->idx || !r->low || !r->stk || !r->call ||
            !r->it || !r->onstk || !r->adj) {
            ch_reach_free(r);
            e->failed = 1;
            return;
        }
    }
    /* with_off: the candidates present, as a bit set */
    uint64_t present[(CH_REACH_MAX + 63) / 64];
    if (with_off) {
        memset(present, 0, sizeof(uint64_t) * (size_t)nw);
        for (int c = 0; c < g->size; c++)
            for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) {
                int x = c * g->n + ch_lowbit(cm);
                present[x >> 6] |= (uint64_t)1 << (x & 63);
            }
    }
    /* the "on" -> "on" links, as lists per candidate */
    ch_Proto offs[CH_MAX_PROTO], ons[2 + LG_HMAX];
    int len = 0;
    /* only the candidates present are visited (the grids of nested chains are sparse), in
     * ascending order: a candidate's links run from start[cand] to start[cand + 1] */
    int n = g->n;
    for (int c = 0; c < g->size; c++)
        for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) r->oto[CH_OTO * (c * n + ch_lowbit(cm))] = -1;
    for (int c = 0; c < g->size; c++)
    for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) {
        int cand = c * n + ch_lowbit(cm);
        r->start[cand] = len;
        r->idx[cand] = -1; r->comp[cand] = -1; r->onstk[cand] = 0;
        int k = ch_on_to_off(e, cand, y_links, 1, -1, offs);
        for (int j = 0; j < k; j++) {
            int *o = r->oto + CH_OTO * (offs[j].key >> 1);  /* an "off" of a candidate present */
            if (o[0] < 0) {
                o[0] = ch_off_to_on(e, offs[j].key >> 1, y_links, 1, ons);
                for (int i = 0; i < o[0]; i++) o[1 + i] = ons[i].key >> 1;
            }
            int k2 = o[0];
            if (len + k2 > r->cap) {
                int cap = 2 * r->cap;
                int *a = realloc(r->adj, sizeof(int) * (size_t)cap);
                if (!a) { e->failed = 1; return; }
                r->adj = a; r->cap = cap;
            }
            for (int i = 0; i < k2; i++) r->adj[len++] = o[1 + i];
        }
        r->start[cand + 1] = len;
    }
    /* Tarjan, without recursion, from the candidates present in ascending order */
    int counter = 0, sp = 0, ncomp = 0;
    for (int c = 0; c < g->size; c++)
    for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) {
        int root = c * n + ch_lowbit(cm);
        if (r->idx[root] >= 0) continue;
        int csp = 0;
        r->idx[root] = r->low[root] = counter++;
        r->stk[sp++] = root; r->onstk[root] = 1; r->it[root] = r->start[root];
        r->call[csp++] = root;
        while (csp) {
            int v = r->call[csp - 1];
            if (r->it[v] < r->start[v + 1]) {
                int w = r->adj[r->it[v]++];
                if (r->idx[w] < 0) {
                    r->idx[w] = r->low[w] = counter++;
                    r->stk[sp++] = w; r->onstk[w] = 1; r->it[w] = r->start[w];
                    r->call[csp++] = w;
                } else if (r->onstk[w] && r->idx[w] < r->low[v]) {
                    r->low[v] = r->idx[w];
                }
                continue;
            }
            csp--;
            if (csp && r->low[v] < r->low[r->call[csp - 1]]) r->low[r->call[csp - 1]] = r->low[v];
            if (r->low[v] != r->idx[v]) continue;
            /* v roots a component: the members are the stack from v up */
            int first = sp;
            while (r->stk[first - 1] != v) first--;
            first--;
            int id = ncomp++;
            uint64_t *set = r->reach + (size_t)id * (size_t)nw;
            memset(set, 0, sizeof(uint64_t) * (size_t)nw);
            r->csize[id] = sp - first;
            int lo = nw, hi = 0;  /* the span of the set's nonzero words */
            for (int i = first; i < sp; i++) {
                int w = r->stk[i];
                r->onstk[w] = 0; r->comp[w] = id;
                set[w >> 6] |= (uint64_t)1 << (w & 63);
                if (w >> 6 < lo) lo = w >> 6;
                if ((w >> 6) + 1 > hi) hi = (w >> 6) + 1;
            }
            /* with_off: the "off"s the members lead to in one step (getOnToOff's: the cell's
             * other digits, the digit in the peers), those of the linked components after */
            uint64_t *so = with_off ? r->reach_off + (size_t)id * (size_t)nw : NULL;
            if (so) {
                memset(so, 0, sizeof(uint64_t) * (size_t)nw);
                for (int i = first; i < sp; i++) {
                    int w = r->stk[i], wc = g->cell_of[w], wd = g->digit_of[w];
                    const uint64_t *pb = g->peerbits + (size_t)w * (size_t)nw;
                    for (int b = 0; b < nw; b++) so[b] |= pb[b] & present[b];
                    for (ch_mask_t cm = e->cand[wc] & ~((ch_mask_t)1 << wd); cm; cm &= cm - 1) {
                        int x = wc * g->n + ch_lowbit(cm);
                        so[x >> 6] |= (uint64_t)1 << (x & 63);
                    }
                }
            }
            int gen = ++e->gen;  /* scratch[x] == gen: component x's set is in already */
            for (int i = first; i < sp; i++) {
                int w = r->stk[i];
                for (int k = r->start[w]; k < r->start[w + 1]; k++) {
                    int x = r->comp[r->adj[k]];
                    if (x == id || e->scratch[x] == gen) continue;
                    e->scratch[x] = gen;
                    const uint64_t *other = r->reach + (size_t)x * (size_t)nw;
                    int xlo = r->span[2 * x], xhi = r->span[2 * x + 1];
                    for (int b = xlo; b < xhi; b++) set[b] |= other[b];
                    if (xlo < lo) lo = xlo;
                    if (xhi > hi) hi = xhi;
                    if (so) {
                        other = r->reach_off + (size_t)x * (size_t)nw;
                        for (int b = 0; b < nw; b++) so[b] |= other[b];
                    }
                }
            }
            r->span[2 * id] = lo; r->span[2 * id + 1] = hi;
            sp = first;
        }
    }
    r->ok = 1; r->y = y_links; r->off = with_off;
}

static inline int ch_reaches(const ch_Reach *r, int from, int to) {
    return (int)(r->reach[(size_t)r->comp[from] * (size_t)r->nw + (size_t)(to >> 6)] >> (to & 63) & 1);
}

/* Whether the forcing chain search from ``cand`` "on" (on = 1: it leads to a candidate that
 * excludes cand) or "off" (on = 0: it leads back to cand "on") finds its target. */
static int ch_forcing_exists(const ch_Engine *e, int cand, int y_links, int on) {
    const ch_Reach *r = &e->reach;
    if (!r->ok) return 1;
    if (on) {
        /* a candidate "on" of cand leads to that excludes it (getOnToOff's, without building
         * them: the reach set holds only candidates present) */
        const lgeo *g = e->g;
        int n = g->n, c = g->cell_of[cand], d = g->digit_of[cand];
        int comp = r->comp[cand];
        const uint64_t *set = r->reach + (size_t)comp * (size_t)r->nw;
        if (y_links) {  /* the cell's other digits: n bits from c * n */
            int lo = c * n, sh = lo & 63;
            uint64_t w = set[lo >> 6] >> sh;
            if (sh + n > 64) w |= set[(lo >> 6) + 1] << (64 - sh);
            if (w & ((((uint64_t)1 << n) - 1) & ~((uint64_t)1 << d))) return 1;
        }
        /* the digit in the peers (r->ok: the grid has at most CH_REACH_MAX candidates) */
        const uint64_t *pb = g->peerbits + (size_t)cand * (size_t)g->ncw;
        for (int b = r->span[2 * comp]; b < r->span[2 * comp + 1]; b++) if (set[b] & pb[b]) return 1;
        return 0;
    }
    ch_Proto made[CH_MAX_PROTO];
    int k = ch_off_to_on(e, cand, y_links, 1, made);
    for (int j = 0; j < k; j++) if (ch_reaches(r, made[j].key >> 1, cand)) return 1;
    return 0;
}
