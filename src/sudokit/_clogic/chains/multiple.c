/*
 * Chains, binary, cell and region chainings (part of chains.c): Nishio, multiple and dynamic
 * forcing chains. The potentials common to the closures of every digit of a cell or every
 * place of a digit in a unit (with bit sets on grids up to CH_REACH_MAX candidates, lists
 * beyond), contradictions and double implications of a candidate's "off". ch_multiple_chains
 * is these engines' search loop over the cells.
 */
/* Intersect an ordered list of (cand, node) pairs with the cands of closure side
 * (start, len); the result keeps the list's order and nodes. */
static void ch_retain(ch_Engine *e, ch_IVec *list, int start, int len) {
    if (!list->len) return;
    int gen = ++e->gen;
    const int *a = e->cpool.a + start;
    for (int i = 0; i < len; i++) e->scratch[a[2 * i]] = gen;
    int k = 0;
    for (int i = 0; i < list->len; i += 2)
        if (e->scratch[list->a[i]] == gen) {
            list->a[k++] = list->a[i]; list->a[k++] = list->a[i + 1];
        }
    list->len = k;
}

/* Copy the (cand, node) pairs of a closure side into ``list``: all of them, or (when memory
 * ran out) none, so the list always holds whole pairs. */
static void ch_copy_side(ch_Engine *e, ch_IVec *list, int start, int len) {
    list->len = 0;
    if (!len) return;
    if (ch_iv_reserve(list, 2 * len)) { e->failed = 1; return; }
    memcpy(list->a, e->cpool.a + start, sizeof(int) * 2 * (size_t)len);
    list->len = 2 * len;
}

/* With bit sets (bw > 0): acc (both sides) &= those of closure ``id``; whether any is left. */
static int ch_bits_and(const ch_Engine *e, uint64_t *acc, int id) {
    const uint64_t *b = ch_clos_bits(e, id);
    uint64_t any = 0;
    for (int i = 0; i < 2 * e->bw; i++) any |= acc[i] &= b[i];
    return any != 0;
}

/* With bit sets: the reductions to the potentials common to closures ids[0..np) (acc: their
 * sets ANDed), in the order of the first closure's "on" side, then its "off" side: what
 * retaining, in that order, the closures' sides one after another leaves. */
static void ch_common_hints(ch_Engine *e, int kind, const int *ids, int np, const uint64_t *acc, int source,
                            int region, int value) {
    ch_IVec *rows = &e->common;  /* per potential, its node in each closure (np ints) */
    for (int side = 0; side < 2; side++) {
        const uint64_t *bits = acc + side * e->bw;
        int m = 0;
        for (int k = 0; k < np; k++) {
            /* each closure's side once: the potentials in common, numbered in the first
             * closure's order (cslot), each closure's node put in that potential's row */
            const ch_Closure *cl = ch_clos_at(e, ids[k]);
            int start = side == 0 ? cl->on_start : cl->off_start, len = side == 0 ? cl->on_len : cl->off_len;
            const int *a = e->cpool.a + start;
            if (k == 0 && ch_iv_reserve(rows, len * np)) { e->failed = 1; return; }
            for (int i = 0; i < 2 * len; i += 2) {
                int cand = a[i];
                if (!(bits[cand >> 6] >> (cand & 63) & 1)) continue;
                if (k == 0) e->cslot[cand] = m++;
                rows->a[e->cslot[cand] * np + k] = a[i + 1];
            }
            if (!m) break;
        }
        for (int j = 0; j < m; j++) {
            const int *chains = rows->a + j * np;
            ch_reduction_hint(e, kind, chains[0], chains, np, source, region, value);
        }
    }
}

/* Static multiple chains (reach_off built): whether the closures of the "on"s of the k
 * candidates ``cands`` may have a potential in common. Each closure's "on"s and "off"s are
 * among those its reach sets hold (all of them, unless it stopped at a contradiction), so
 * when these have none in common, neither have the closures. */
static int ch_may_share(const ch_Engine *e, const int *cands, int k) {
    const ch_Reach *r = &e->reach;
    int nw = r->nw;
    const uint64_t *on[SUDOKIT_MAX_SIDE], *off[SUDOKIT_MAX_SIDE];
    for (int i = 0; i < k; i++) {
        on[i] = r->reach + (size_t)r->comp[cands[i]] * (size_t)nw;
        off[i] = r->reach_off + (size_t)r->comp[cands[i]] * (size_t)nw;
    }
    for (int b = 0; b < nw; b++) {
        uint64_t a = on[0][b], o = off[0][b];
        for (int i = 1; i < k && (a | o); i++) { a &= on[i][b]; o &= off[i][b]; }
        if (a | o) return 1;
    }
    return 0;
}

/* The units (bit t: se_units[3 * c + t]) whose region chainings start from candidate (c, d):
 * those where the digit has two places (more with multiple chains), c the first; with reach_off,
 * only those whose places' closures may have a potential in common. */
static int ch_region_units(const ch_Engine *e, int c, int d) {
    const lgeo *g = e->g;
    int n = g->n, units = 0;
    for (int t = 0; t < 3; t++) {
        int u = g->se_units[3 * c + t];
        ch_mask_t pm = e->pos[u * n + d];
        /* two places, or more with multiple chains */
        if (!ch_many(pm) || (!e->multiple && ch_many(pm & (pm - 1)))) continue;
        const int *uc = g->unit_cells + u * n;
        if (uc[ch_lowbit(pm)] != c) continue;  /* c is the digit's first place there */
        if (e->reach.ok && e->reach.off) {
            int cands[SUDOKIT_MAX_SIDE] = {0}, k = 0;
            for (ch_mask_t m = pm; m; m &= m - 1) cands[k++] = uc[ch_lowbit(m)] * n + d;
            if (!ch_may_share(e, cands, k)) continue;
        }
        units |= 1 << t;
    }
    return units;
}

/* ch_region_chainings with bit sets (bw > 0), in the units ``units`` (ch_region_units). */
static void ch_region_chainings_bits(ch_Engine *e, int c, int d, int cl_id, int units) {
    const lgeo *g = e->g;
    int n = g->n, bw = e->bw;
    int pos_cl[SUDOKIT_MAX_SIDE];
    uint64_t acc[2 * ((CH_REACH_MAX + 63) / 64)];
    for (int t = 0; t < 3; t++) {
        if (!(units >> t & 1)) continue;
        int u = g->se_units[3 * c + t];
        ch_mask_t pm = e->pos[u * n + d];
        const int *uc = g->unit_cells + u * n;
        int np = 0;
        uint64_t any = 0;
        pos_cl[np++] = cl_id;
        memcpy(acc, ch_clos_bits(e, cl_id), sizeof(uint64_t) * 2 * (size_t)bw);
        for (int i = 0; i < 2 * bw; i++) any |= acc[i];
        for (ch_mask_t m = pm & (pm - 1); m; m &= m - 1) {
            /* nothing left in common: no hint here, and the other places' closures (the same
             * whenever they are made) are left until something asks */
            if (!any) break;
            int id = ch_closure_on(e, uc[ch_lowbit(m)] * n + d);
            pos_cl[np++] = id;
            any = ch_bits_and(e, acc, id);
        }
        if (e->failed || ch_out_of_memory) break;
        if (any) ch_common_hints(e, CH_K_REGION, pos_cl, np, acc, -1, u, d + 1);
    }
}

/* Without bit sets: the reductions to the potentials of ``on`` and ``off`` ((cand, node) pairs
 * of the first closure, what retaining the others left), each with its node in every closure
 * ids[0..np), in that order. */
static void ch_list_hints(ch_Engine *e, int kind, const int *ids, int np, const ch_IVec *on, const ch_IVec *off,
                          int source, int region, int value) {
    int chains[SUDOKIT_MAX_SIDE];
    for (int side = 0; side < 2; side++) {
        const ch_IVec *list = side == 0 ? on : off;
        for (int i = 0; i < list->len; i += 2) {
            int cand = list->a[i];
            for (int k = 0; k < np; k++) {
                const ch_Closure *cl = ch_clos_at(e, ids[k]);
                chains[k] = side == 0 ? ch_clos_get(e, cl->on_start, cl->on_len, cand)
                                      : ch_clos_get(e, cl->off_start, cl->off_len, cand);
            }
            ch_reduction_hint(e, kind, list->a[i + 1], chains, np, source, region, value);
        }
    }
}

static void ch_region_chainings(ch_Engine *e, int c, int d, int cl_id, int units) {
    const lgeo *g = e->g;
    int n = g->n;
    ch_mask_t bit = (ch_mask_t)1 << d;
    if (e->bw) { ch_region_chainings_bits(e, c, d, cl_id, units); return; }
    ch_IVec ron = {0}, roff = {0};
    int pos_cl[SUDOKIT_MAX_SIDE];
    for (int t = 0; t < 3; t++) {
        if (!(units >> t & 1)) continue;
        int u = g->se_units[3 * c + t];
        const int *uc = g->unit_cells + u * n;
        int np = 0;
        for (int i = 0; i < n; i++) {
            int q = uc[i];
            if (!(e->cand[q] & bit)) continue;
            if (q == c) {
                pos_cl[np++] = cl_id;
                ch_Closure *cl = ch_clos_at(e, cl_id);
                ch_copy_side(e, &ron, cl->on_start, cl->on_len);
                ch_copy_side(e, &roff, cl->off_start, cl->off_len);
            } else {
                /* nothing left in common: no hint here, and the other places' closures
                 * (the same whenever they are made) are left until something asks */
                if (!ron.len && !roff.len) break;
                int id = ch_closure_on(e, q * n + d);
                pos_cl[np++] = id;
                ch_Closure *cl = ch_clos_at(e, id);
                ch_retain(e, &ron, cl->on_start, cl->on_len);
                ch_retain(e, &roff, cl->off_start, cl->off_len);
            }
        }
        if (e->failed || ch_out_of_memory) break;
        ch_list_hints(e, CH_K_REGION, pos_cl, np, &ron, &roff, -1, u, d + 1);
    }
    free(ron.a); free(roff.a);
}

/* The "off" half of SE's doBinaryChaining for candidate ``cand`` (``on``: the closure of its
 * "on"): the contradiction its "off" leads to, and with ``do_double`` the potentials both
 * lead to. Its sets are read where they are made (nothing else reads them) and cleared. */
static void ch_off_branch(ch_Engine *e, int cand, const ch_Closure *on, int do_contra, int do_double) {
    int p_on_key = cand * 2 + 1, p_off_key = cand * 2;
    ch_set_clear(e);
    int p_off = ch_node_new(e, p_off_key, CH_CAUSE_NONE);
    ch_set_add(e, 0, p_off);
    int aon = -1, aoff = -1;
    int found = ch_do_chaining(e, &aon, &aoff);
    if (do_contra && found) ch_binary_hint(e, aon, aoff, p_off_key, p_off, 1, 1);
    if (do_double) {
        const int *b = e->cpool.a + on->on_start;
        for (int i = 0; i < on->on_len; i++) {
            int q = e->on_map[b[2 * i]];
            if (q >= 0) ch_binary_hint(e, b[2 * i + 1], q, p_on_key, b[2 * i + 1], 0, 1);
        }
        b = e->cpool.a + on->off_start;
        for (int i = 0; i < on->off_len; i++) {
            int q = e->off_map[b[2 * i]];
            if (q >= 0) ch_binary_hint(e, b[2 * i + 1], q, p_off_key, q, 0, 0);
        }
    }
    ch_set_clear(e);
}

static void ch_cell_chains(ch_Engine *e, int c, int card) {
    const lgeo *g = e->g;
    int n = g->n;
    int dig_cl[SUDOKIT_MAX_SIDE], nd = 0;
    ch_IVec con = {0}, coff = {0};
    uint64_t acc[2 * ((CH_REACH_MAX + 63) / 64)];
    int any = 1;
    /* static multiple chains (reach_off built) make only the closures of the reductions that
     * may have something in common (ch_may_share): the others give no hint */
    int filter = e->reach.ok && e->reach.off, cell_ok = card == 2 || (e->multiple && card > 2);
    if (filter && cell_ok) {
        int cands[SUDOKIT_MAX_SIDE] = {0}, k = 0;
        for (ch_mask_t x = e->cand[c]; x; x &= x - 1) cands[k++] = c * n + ch_lowbit(x);
        cell_ok = ch_may_share(e, cands, k);
    }
    ch_mask_t m = e->cand[c];
    while (m && !e->failed) {
        int d = ch_lowbit(m); m &= m - 1;
        int cand = c * n + d;
        int do_double = card >= 3 && !e->nishio && e->dynamic;
        int do_contra = e->dynamic || e->nishio;
        int units = e->nishio ? 0 : ch_region_units(e, c, d);
        if (filter && !cell_ok && !units) continue;  /* no closure needed */
        int id = ch_closure_on(e, cand);
        ch_Closure on = *ch_clos_at(e, id);
        int p_on_key = cand * 2 + 1;
        if (do_contra && on.absurd_on >= 0)
            ch_binary_hint(e, on.absurd_on, on.absurd_off, p_on_key, on.on_len > 0 ?
                        e->cpool.a[on.on_start + 1] : -1, 1, 0);
        /* the "off" branch: SE runs it always, but only contradictions and double chains
         * read it (static multiple chains use neither), and it changes nothing else */
        /* In a cell of two (dynamic chains with y links), "off" of d gives "on" of the other
         * digit first, and the chaining then adds the same potentials in the same order as from
         * that "on" (both reach {d "off", other "on"} with the other's peers "off" next, on the
         * same grid, or the "on" branch meets a contradiction at once): when the other's closure
         * (needed next anyway) has no contradiction, this branch has none either, and it gives
         * nothing else here (no double chains in a cell of two). */
        int skip_off = 0;
        if (card == 2 && do_contra && !do_double && e->dynamic && !e->nishio) {
            int oid = ch_closure_on(e, c * n + ch_lowbit(e->cand[c] & ~((ch_mask_t)1 << d)));
            skip_off = !e->failed && oid >= 0 && ch_clos_at(e, oid)->absurd_on < 0;
        }
        if ((do_contra || do_double) && !skip_off) ch_off_branch(e, cand, &on, do_contra, do_double);
        if (units) ch_region_chainings(e, c, d, id, units);
        if (!cell_ok) continue;
        dig_cl[nd++] = id;
        if (e->nishio) continue;  /* nishio makes no cell reductions */
        if (e->bw) {  /* the potentials common to the digits' closures, as bit sets */
            if (nd == 1) memcpy(acc, ch_clos_bits(e, id), sizeof(uint64_t) * 2 * (size_t)e->bw);
            else if (any) any = ch_bits_and(e, acc, id);
            continue;
        }
        ch_Closure *cl = ch_clos_at(e, id);
        if (nd == 1) {
            ch_copy_side(e, &con, cl->on_start, cl->on_len);
            ch_copy_side(e, &coff, cl->off_start, cl->off_len);
        } else {
            ch_retain(e, &con, cl->on_start, cl->on_len);
            ch_retain(e, &coff, cl->off_start, cl->off_len);
        }
    }
    if (cell_ok && nd && !e->nishio && !e->failed && !ch_out_of_memory) {
        if (!e->bw) ch_list_hints(e, CH_K_CELL, dig_cl, nd, &con, &coff, c, -1, 0);
        else if (any) ch_common_hints(e, CH_K_CELL, dig_cl, nd, acc, c, -1, 0);
    }
    free(con.a); free(coff.a);
}

static void ch_multiple_chains(ch_Engine *e) {
    const lgeo *g = e->g;
    for (int c = 0; c < g->size && !e->failed; c++) {
        if (e->values[c]) continue;
        int card = ch_popcount(e->cand[c]);
        if (card > 2 || (card > 1 && e->dynamic)) ch_cell_chains(e, c, card);
    }
}
