/*
 * Chains, chaining (part of chains.c): SE's doChaining, the hot loop that completes the sets of
 * an assumption with every consequence (static or dynamic links, the advanced rules when
 * nesting); the closures it stores, cached per assumption; the binary and reduction hints made
 * from them.
 */
static void ch_advanced(ch_Engine *e, const ch_mask_t *src, ch_IVec *out);

/* One "off" potential of candidate ``cand`` deduced from "on" node p by rule ``cause``, its
 * depth ``depth`` (do_chaining's hot loop, where room was made): a contradiction when cand is
 * "on" already (return 1, with the two nodes), else a new node unless cand is "off" already. */
static inline int ch_on_off(ch_Engine *e, int p, int depth, int cand, int cause, int *absurd_on, int *absurd_off) {
    if (e->on_map[cand] >= 0) {
        *absurd_on = e->on_map[cand];
        *absurd_off = ch_node_reserved(e, cand * 2, cause, p, depth);
        return 1;
    }
    if (e->off_map[cand] < 0) {
        e->off_map[cand] = ch_node_reserved(e, cand * 2, cause, p, depth);
        e->off_ord.a[e->off_ord.len++] = cand;
    }
    return 0;
}

/* doChaining: complete the sets (on_map/off_map, already holding the assumption) with every
 * consequence; return 1 and the contradiction (an on node and an off node) if one is found.
 * The grid is restored on return. The queues are the sets' insertion orders (on_ord, off_ord):
 * within do_chaining a candidate enters a set once, at the end of its order, and its node
 * there is the one queued. ``dynamic``, ``y_links`` (not nishio) and ``advanced`` (nesting)
 * are the engine's settings, given as constants by ch_do_chaining. */
static inline __attribute__((always_inline)) int ch_chaining(ch_Engine *e, int *absurd_on, int *absurd_off,
                                                            const int dynamic, const int y_links,
                                                            const int advanced) {
    const lgeo *g = e->g;
    int n = g->n, ncell = g->size, nu = g->nunit;
    /* the engine's buffers: do_chaining never runs inside itself on one engine (nested
     * chains run in inner engines); the grid it starts from is always the run's, of which
     * src_buf and srcpos are the copies (ch_engine_run) */
    const ch_mask_t *src = e->src_buf;
    int found = 0;
    ch_IVec adv = e->adv;
    adv.len = 0;
    ch_Proto made[CH_MAX_PROTO];
    int hon = 0, hoff = 0;
    const ch_mask_t *hidden = dynamic ? src : NULL;
    for (;;) {
        while ((hon < e->on_ord.len || hoff < e->off_ord.len) && !e->failed) {
            if (hon < e->on_ord.len) {
                /* the hot loop: getOnToOff's potentials (ch_on_to_off, without live sets) taken
                 * as they are made; an "off" has one parent (no hidden ones), so room for all of
                 * them is made first and the nodes are written directly */
                int pc = e->on_ord.a[hon++], p = e->on_map[pc], pdepth = e->nodes[p].depth + 1;
                const lcand *cg = g->cg + pc;
                int c = cg->cell, d = cg->digit;
                if (ch_node_reserve(e, 4 * n) || ch_iv_reserve(&e->off_ord, 4 * n)) {
                    e->failed = 1;
                    break;
                }
                if (y_links)
                    for (ch_mask_t m = e->cand[c] & ~((ch_mask_t)1 << d); m; m &= m - 1)
                        if (ch_on_off(e, p, pdepth, c * n + ch_lowbit(m), CH_CAUSE_CELL, absurd_on, absurd_off)) {
                            found = 1;
                            goto done;
                        }
                const ch_mask_t *skip = g->skip + 3 * c;
                for (int t = 0; t < 3; t++) {
                    const int *uc = g->unit_cells + cg->ucells[t];
                    for (ch_mask_t m = e->pos[cg->pos[t]] & ~skip[t]; m; m &= m - 1)
                        if (ch_on_off(e, p, pdepth, uc[ch_lowbit(m)] * n + d, cg->unit[t], absurd_on, absurd_off)) {
                            found = 1;
                            goto done;
                        }
                }
            } else {
                int pc = e->off_ord.a[hoff++], k = 0, removed = 0;
                const lcand *cg = g->cg + pc;
                ch_mask_t bit = (ch_mask_t)1 << cg->digit, left = 0, lpos[3] = {0, 0, 0};
                if (dynamic && (e->cand[cg->cell] & bit)) {
                    /* getOffToOn and the removal in one go: what the cell and the digit's places in
                     * its units keep once the candidate is gone (written after the nodes are made,
                     * whose hidden parents are taken from the grid before the removal); one left
                     * is two before, as ch_off_to_on tests */
                    int c = cg->cell, d = cg->digit;
                    removed = 1;
                    left = e->cand[c] & ~bit;
                    if (y_links && left && !(left & (left - 1))) {
                        made[k].key = (c * n + ch_lowbit(left)) * 2 + 1; made[k++].cause = CH_CAUSE_CELL;
                    }
                    int k0 = k;
                    for (int t = 0; t < 3; t++) {
                        ch_mask_t pm = lpos[t] = e->pos[cg->pos[t]] & ~((ch_mask_t)1 << cg->idx[t]);
                        if (!pm || (pm & (pm - 1))) continue;
                        int key = (g->unit_cells[cg->ucells[t] + ch_lowbit(pm)] * n + d) * 2 + 1, dup = 0;
                        for (int s = k0; s < k; s++) if (made[s].key == key) dup = 1;
                        if (dup) continue;
                        made[k].key = key; made[k++].cause = cg->unit[t];
                    }
                } else {
                    k = ch_off_to_on(e, pc, y_links, 1, made);
                }
                if (k) {
                    int p = e->off_map[pc];
                    for (int j = 0; j < k; j++) {
                        int cand = made[j].key >> 1;
                        if (e->off_map[cand] >= 0) {
                            *absurd_on = ch_make_node(e, p, made[j], hidden);
                            *absurd_off = e->off_map[cand];
                            found = 1;
                            goto done;
                        }
                        if (e->on_map[cand] < 0) ch_set_add(e, 1, ch_make_node(e, p, made[j], hidden));
                    }
                }
                /* the removal comes after the nodes: hidden parents are taken before it */
                if (removed) {
                    e->cand[cg->cell] = left;
                    for (int t = 0; t < 3; t++) e->pos[cg->pos[t]] = lpos[t];
                }
            }
        }
        if (e->failed || !advanced) break;
        /* both queues are drained: the advanced rules, whose "off"s go on */
        ch_advanced(e, src, &adv);
        int before = e->off_ord.len;
        for (int k = 0; k < adv.len; k++) {
            int q = adv.a[k], cand = e->nodes[q].key >> 1;
            if (e->off_map[cand] < 0) ch_set_add(e, 0, q);
        }
        if (e->off_ord.len == before) break;
    }
done:
    if (dynamic && hoff < 6) {
        /* only dynamic chaining removes candidates, and only those of the "off"s it went
         * through: a few are put back one by one (each was in the grid the run began from);
         * past that, copying the grid back costs less (the cutoff matters little near 6,
         * much if it is set far higher) */
        for (int i = 0; i < hoff; i++) {
            const lcand *cg = g->cg + e->off_ord.a[i];
            if (!(src[cg->cell] >> cg->digit & 1)) continue;
            e->cand[cg->cell] |= (ch_mask_t)1 << cg->digit;
            for (int t = 0; t < 3; t++) e->pos[cg->pos[t]] |= (ch_mask_t)1 << cg->idx[t];
        }
    } else if (dynamic) {
        memcpy(e->cand, src, sizeof(ch_mask_t) * ncell);
        memcpy(e->pos, e->srcpos, sizeof(ch_mask_t) * nu * n);
    }
    e->adv = adv;
    return found;
}

/* ch_chaining made for each kind of engine (the hot loop with its settings as constants). */
static int ch_do_chaining(ch_Engine *e, int *absurd_on, int *absurd_off) {
    /* Ctrl+C (_interrupt.h): unwind as when memory runs out, and the engine is dropped */
    if (sudokit_interrupted()) { e->failed = 1; return 0; }
    if (e->dynamic && e->nesting <= 0 && !e->nishio) return ch_chaining(e, absurd_on, absurd_off, 1, 1, 0);
    return ch_chaining(e, absurd_on, absurd_off, e->dynamic, !e->nishio, e->nesting > 0);
}

/* The closure with id ``id``; -1 is the empty sink left by a failed store. */
static ch_Closure *ch_clos_at(ch_Engine *e, int id) { return id < 0 ? &e->sink : e->clos + id; }

/* The bit sets of closure ``id`` (bw > 0); the sink's are empty. */
static const uint64_t *ch_clos_bits(const ch_Engine *e, int id) {
    return e->cbits + (id < 0 ? (size_t)e->capclos : (size_t)id) * 2 * (size_t)e->bw;
}

/* Store the current sets as a closure; clear them. */
static int ch_closure_store(ch_Engine *e, int found, int aon, int aoff) {
    if (e->nclos == e->capclos) {
        ch_Closure *a = e->capclos < INT32_MAX / 4 ? realloc(e->clos, sizeof(ch_Closure) * ((size_t)e->capclos * 2)) : NULL;
        if (a) e->clos = a;
        uint64_t *b = NULL;
        if (a && e->bw) {  /* room for twice the closures, and the sink's empty sets past them */
            size_t w = 2 * (size_t)e->bw;
            b = realloc(e->cbits, sizeof(uint64_t) * w * ((size_t)e->capclos * 2 + 1));
            if (b) memset(b + w * (size_t)e->capclos * 2, 0, sizeof(uint64_t) * w);
            if (b) e->cbits = b;
        }
        if (!a || (e->bw && !b)) {
            e->failed = 1;
            e->sink = (ch_Closure){e->cpool.len, 0, e->cpool.len, 0, -1, -1};
            ch_set_clear(e);
            return -1;
        }
        e->capclos *= 2;
    }
    ch_Closure *cl = e->clos + e->nclos;
    uint64_t *bon = e->bw ? e->cbits + (size_t)e->nclos * 2 * (size_t)e->bw : NULL;
    uint64_t *boff = bon ? bon + e->bw : NULL;
    if (bon) memset(bon, 0, sizeof(uint64_t) * 2 * (size_t)e->bw);
    if (ch_iv_reserve(&e->cpool, 2 * (e->on_ord.len + e->off_ord.len))) {
        e->failed = 1;
        *cl = (ch_Closure){e->cpool.len, 0, e->cpool.len, 0, -1, -1};
        ch_set_clear(e);
        return e->nclos++;
    }
    /* the pairs in insertion order; the sets are cleared on the way */
    int *out = e->cpool.a + e->cpool.len;
    cl->on_start = e->cpool.len;
    cl->on_len = e->on_ord.len;
    for (int i = 0; i < e->on_ord.len; i++) {
        int cand = e->on_ord.a[i];
        *out++ = cand; *out++ = e->on_map[cand];
        e->on_map[cand] = -1;
        if (bon) bon[cand >> 6] |= (uint64_t)1 << (cand & 63);
    }
    cl->off_start = cl->on_start + 2 * cl->on_len;
    cl->off_len = e->off_ord.len;
    for (int i = 0; i < e->off_ord.len; i++) {
        int cand = e->off_ord.a[i];
        *out++ = cand; *out++ = e->off_map[cand];
        e->off_map[cand] = -1;
        if (boff) boff[cand >> 6] |= (uint64_t)1 << (cand & 63);
    }
    e->cpool.len = cl->off_start + 2 * cl->off_len;
    e->on_ord.len = e->off_ord.len = 0;
    cl->absurd_on = found ? aon : -1;
    cl->absurd_off = found ? aoff : -1;
    return e->nclos++;
}

/* The closure of assuming ``cand`` on (cached per producer run). */
static int ch_closure_on(ch_Engine *e, int cand) {
    if (e->cache[cand] >= 0) return e->cache[cand];
    ch_set_clear(e);
    int p = ch_node_new(e, cand * 2 + 1, CH_CAUSE_NONE);
    ch_set_add(e, 1, p);
    int aon = -1, aoff = -1;
    int found = ch_do_chaining(e, &aon, &aoff);
    int id = ch_closure_store(e, found, aon, aoff);
    if (!e->failed) e->cache[cand] = id;  /* never the sink: its slot is reused on growth */
    return id;
}

/* Look up ``cand`` in one side of a closure (linear: used only for hint targets). */
static int ch_clos_get(const ch_Engine *e, int start, int len, int cand) {
    const int *a = e->cpool.a + start;
    for (int i = 0; i < len; i++) if (a[2 * i] == cand) return a[2 * i + 1];
    return -1;
}

/* Every node id a hint is made from exists, unless an allocation failed on the way (then a
 * closure may be an empty sink); the search is then over and nothing is made. */
static int ch_nodes_ok(ch_Engine *e, const int *ids, int count) {
    for (int i = 0; i < count; i++)
        if (ids[i] < 0 || ids[i] >= e->nnodes) { e->failed = 1; return 0; }
    return 1;
}

static void ch_binary_hint(ch_Engine *e, int dst_on, int dst_off, int src_key, int target, int absurd,
                        int keep) {
    int ids[3] = {dst_on, dst_off, target};
    if (!ch_nodes_ok(e, ids, 3)) return;
    ch_Hint *h = ch_hint_new(e, CH_K_BINARY, ch_rule_difficulty(e), absurd ? 7 : 1);
    if (!h) return;
    if (!ch_add_removable(e, h, e->nodes[target].key >> 1, keep)) { ch_hint_drop(e, h); return; }
    ch_iv_push2(&e->targ, dst_on, dst_off); h->ntarg = e->targ.len - h->tstart;
    h->result_key = (absurd || e->nishio) ? (src_key ^ 1) : e->nodes[dst_on].key;
    h->source = src_key;
    h->absurd = absurd;
    ch_hint_commit(e);
}

static void ch_reduction_hint(ch_Engine *e, int kind, int target, const int *chains, int nchains,
                           int source, int region, int value) {
    if (nchains < 1 || !ch_nodes_ok(e, &target, 1) || !ch_nodes_ok(e, chains, nchains)) return;
    ch_Hint *h = ch_hint_new(e, kind, ch_rule_difficulty(e), kind == CH_K_CELL ? 5 : 6);
    if (!h) return;
    int key = e->nodes[target].key;
    if (!ch_add_removable(e, h, key >> 1, key & 1)) { ch_hint_drop(e, h); return; }
    for (int i = 0; i < nchains; i++) ch_iv_push(&e->targ, chains[i]);
    h->ntarg = e->targ.len - h->tstart;
    h->result_key = e->nodes[chains[0]].key;
    h->source = source; h->region = region; h->value = value;
    ch_hint_commit(e);
}
