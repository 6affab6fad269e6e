/*
 * Chains, static (part of chains.c): forcing X/Y chains and X/Y/XY cycles (SE's
 * doUnaryChaining with the x and y links of each loop): breadth-first searches from each
 * candidate, bounded by the cheapest hint so far, and their hints. ch_loops is this engine's
 * search loop over the candidates.
 */
/* The largest node count a hint of rating ``base`` may have and still come before the cheapest
 * hint found so far (SE's order: difficulty, then complexity; equal ones may still win on sort
 * key), or INT32_MAX when there is none yet or every hint is wanted. A static chain's node count
 * is its length, so the breadth-first searches stop at that depth: what lies beyond could only
 * give hints that are never taken. */
static int ch_cap(ch_Engine *e, double base) {
    if (!e->best_only || !e->bounded) return INT32_MAX;
    for (int i = 0; i < e->ncaps; i++) if (e->cap_base[i] == base) return e->cap_val[i];
    int cap = ch_prune_at(base, e->bound_d, e->bound_cx) - 1;
    if (e->ncaps < 4) { e->cap_base[e->ncaps] = base; e->cap_val[e->ncaps++] = cap; }
    return cap;
}

/* Cycles through ``src`` of at most ``cap`` nodes (a cycle found at length L has L). */
static void ch_do_cycles(ch_Engine *e, int src, int y_links, int x_links, ch_IVec *cycles, int cap) {
    ch_IVec pon = e->pon, poff = e->poff;  /* the engine's buffers: never nested */
    pon.len = poff.len = 0;
    ch_Proto made[CH_MAX_PROTO];
    int skey = e->nodes[src].key;
    int pushed = ++e->gen;  /* stamp[key] == pushed: that "off" was queued (may be an ancestor) */
    /* An "off" met again gives no new "on" (the first one queued gave them all), so it is only
     * worth another node when it may close the cycle: when it is one of the "off"s that lead
     * to ``src`` (the strong links of its candidate). */
    ch_Proto closing[2 + LG_HMAX];
    int nclosing = ch_off_to_on(e, skey >> 1, y_links, x_links, closing);
    /* Every "on" of a cycle through src lies in src's strongly connected component, and an
     * "on" outside it never makes a node that one inside would have made (its "off"s lead
     * only outside, or src would reach back through it): the search leaves those out and
     * finds the same cycles with the same nodes. A reach built with more links has larger
     * components, which is as exact. */
    const int *comp = e->reach.ok && (e->reach.y || !y_links) ? e->reach.comp : NULL;
    int scomp = comp ? comp[skey >> 1] : -1;
    ch_set_clear(e);
    ch_set_add(e, 1, src);
    ch_iv_push(&pon, src);
    int length = 0;
    while (pon.len || poff.len) {
        length++;
        if (length + 1 > cap) break;  /* the next cycle would have length + 1 nodes or more */
        for (int i = 0; i < pon.len; i++) {
            int p = pon.a[i], k = ch_on_to_off(e, e->nodes[p].key >> 1, y_links, 1, -1, made);
            for (int j = 0; j < k; j++) {
                int key = made[j].key;
                if (e->stamp[key] == pushed) {
                    int closes = 0;
                    for (int t = 0; t < nclosing; t++) closes |= closing[t].key == (key | 1);
                    if (!closes || ch_is_parent_key(e, p, key)) continue;
                }
                e->stamp[key] = pushed;
                ch_iv_push(&poff, ch_make_node(e, p, made[j], NULL));
            }
        }
        pon.len = 0;
        length++;
        if (length > cap) break;
        for (int i = 0; i < poff.len; i++) {
            int p = poff.a[i], k = ch_off_to_on(e, e->nodes[p].key >> 1, y_links, x_links, made);
            for (int j = 0; j < k; j++) {
                int key = made[j].key, cycle = length >= 4 && key == skey;
                int fresh = e->on_map[key >> 1] < 0;
                if (!cycle && (!fresh || (comp && comp[key >> 1] != scomp))) continue;
                int q = ch_make_node(e, p, made[j], NULL);
                if (cycle) ch_iv_push(cycles, q);
                if (fresh) { ch_iv_push(&pon, q); ch_set_add(e, 1, q); }
            }
        }
        poff.len = 0;
        if (e->failed) break;
    }
    ch_set_clear(e);
    e->pon = pon; e->poff = poff;
}

/* Forcing chains from ``src`` (on or off); found targets are appended to ``chains`` unless a
 * potential with the same key is there already. */
static int ch_chain_seen(const ch_Engine *e, const ch_IVec *chains, int key) {
    for (int s = 0; s < chains->len; s++) if (e->nodes[chains->a[s]].key == key) return 1;
    return 0;
}

/* Forcing chains from ``src`` of at most ``cap`` nodes (a target at depth L has L + 1). The one
 * target (the opposite of ``src``) ends the search when found: what follows cannot change it. */
static void ch_do_forcing_chains(ch_Engine *e, int src, int y_links, ch_IVec *chains, int cap) {
    ch_IVec pon = e->pon, poff = e->poff;  /* the engine's buffers: never nested */
    pon.len = poff.len = 0;
    ch_Proto made[CH_MAX_PROTO];
    int skey = e->nodes[src].key, depth = 0;
    int keep = skey & 1 ? skey >> 1 : -1;  /* from "on": the target is an "off" */
    ch_set_clear(e);
    if (skey & 1) { ch_set_add(e, 1, src); ch_iv_push(&pon, src); }
    else { ch_set_add(e, 0, src); ch_iv_push(&poff, src); }
    while (pon.len || poff.len) {
        if (pon.len && ++depth + 1 > cap) break;
        for (int i = 0; i < pon.len; i++) {
            int p = pon.a[i], k = ch_on_to_off(e, e->nodes[p].key >> 1, y_links, 1, keep, made);
            for (int j = 0; j < k; j++) {
                int key = made[j].key;
                int found = (key ^ 1) == skey && !ch_chain_seen(e, chains, key);
                /* every "off" on a chain was added to off_map, so a new one is no ancestor:
                 * SE's isParent test cannot fail here */
                int add = e->off_map[key >> 1] < 0;
                if (!found && !add) continue;
                int q = ch_make_node(e, p, made[j], NULL);
                if (found) { ch_iv_push(chains, q); goto out; }
                ch_iv_push(&poff, q); ch_set_add(e, 0, q);
            }
        }
        pon.len = 0;
        if (poff.len && ++depth + 1 > cap) break;
        for (int i = 0; i < poff.len; i++) {
            int p = poff.a[i], k = ch_off_to_on(e, e->nodes[p].key >> 1, y_links, 1, made);
            for (int j = 0; j < k; j++) {
                int key = made[j].key;
                int found = (key ^ 1) == skey && !ch_chain_seen(e, chains, key);
                int add = e->on_map[key >> 1] < 0;
                if (!found && !add) continue;
                int q = ch_make_node(e, p, made[j], NULL);
                if (found) { ch_iv_push(chains, q); goto out; }
                ch_iv_push(&pon, q); ch_set_add(e, 1, q);
            }
        }
        poff.len = 0;
        if (e->failed) break;
    }
out:
    ch_set_clear(e);
    e->pon = pon; e->poff = poff;
}

static int ch_reversed_cycle(ch_Engine *e, int dst_on) {
    ch_IVec chain = {0};
    for (int p = dst_on; p >= 0; p = ch_first_parent(e, p)) ch_iv_push(&chain, p);
    int prev = -1;
    for (int i = 0; i < chain.len; i++) {
        const ch_Node *o = e->nodes + chain.a[i];
        int key = o->key ^ 1, cause = o->cause;
        int r = ch_node_new(e, key, cause);
        if (prev >= 0) ch_node_parent(e, r, prev);
        prev = r;
    }
    free(chain.a);
    return prev;
}

static void ch_cycle_hint(ch_Engine *e, int dst_on, int y_links, int x_links) {
    const lgeo *g = e->g;
    int n = g->n, both = x_links && y_links;
    int gen = ++e->gen;        /* stamp[cell] == gen: a cell of the cycle */
    int gen_f = ++e->gen;      /* scratch[cand] == gen_f: cancelled forward; ... */
    for (int p = dst_on; ch_first_parent(e, p) >= 0; p = ch_first_parent(e, p))
        e->stamp[(e->nodes[p].key >> 1) / n] = gen;
    /* forward set in scratch (generation gen_f), backward intersected afterwards */
    ch_IVec back = {0};
    for (int p = dst_on; ch_first_parent(e, p) >= 0; p = ch_first_parent(e, p)) {
        int key = e->nodes[p].key, cand = key >> 1, c = cand / n, d = cand % n;
        ch_mask_t bit = (ch_mask_t)1 << d;
        int np;
        const int *pp = lg_peers(g, c, &np);
        for (int k = 0; k < np; k++) {
            int q = pp[k];
            if (e->stamp[q] == gen || !(e->cand[q] & bit)) continue;
            if (key & 1) e->scratch[q * n + d] = gen_f;
            else ch_iv_push(&back, q * n + d);
        }
    }
    ch_Hint *h = ch_hint_new(e, CH_K_CYCLE, both ? 7.0 : 6.5, both ? 4 : (y_links ? 3 : 2));
    if (!h) { free(back.a); return; }
    /* removable: forward and backward, sorted, unique */
    int gen_r = ++e->gen;
    ch_IVec rem = {0};
    for (int i = 0; i < back.len; i++) {
        int cand = back.a[i];
        if (e->scratch[cand] == gen_f && e->stamp[cand + e->g->ncand] != gen_r) {
            e->stamp[cand + e->g->ncand] = gen_r;
            ch_iv_push(&rem, cand);
        }
    }
    free(back.a);
    if (!rem.len) { free(rem.a); return; }
    /* sort removable */
    for (int i = 1; i < rem.len; i++) {
        int x = rem.a[i], j = i - 1;
        while (j >= 0 && rem.a[j] > x) { rem.a[j + 1] = rem.a[j]; j--; }
        rem.a[j + 1] = x;
    }
    for (int i = 0; i < rem.len; i++) ch_iv_push(&e->rem, rem.a[i]);
    h->nrem = e->rem.len - h->rstart;
    free(rem.a);
    int dst_off = ch_reversed_cycle(e, dst_on);
    ch_iv_push2(&e->targ, dst_on, dst_off); h->ntarg = e->targ.len - h->tstart;
    h->source = e->nodes[dst_on].key >> 1;
    h->x = x_links; h->y = y_links;
    ch_hint_commit(e);
}

static void ch_forcing_hint(ch_Engine *e, int target, int y_links, int x_links) {
    int both = x_links && y_links;
    ch_Hint *h = ch_hint_new(e, CH_K_FORCING, both ? 7.0 : 6.6, both ? 4 : (y_links ? 3 : 2));
    if (!h) return;
    int key = e->nodes[target].key;
    if (!ch_add_removable(e, h, key >> 1, key & 1)) { ch_hint_drop(e, h); return; }
    ch_iv_push(&e->targ, target); h->ntarg = e->targ.len - h->tstart;
    h->result_key = key;
    h->source = key >> 1;
    h->x = x_links; h->y = y_links;
    ch_hint_commit(e);
}

static void ch_unary(ch_Engine *e, int cand, int y_links, int x_links) {
    int n = e->g->n, c = cand / n, both = x_links && y_links;
    if (ch_many(e->cand[c] & (e->cand[c] - 1)) && !x_links) return;  /* more than two */
    int cap_cycle = ch_cap(e, both ? 7.0 : 6.5), cap_forcing = ch_cap(e, both ? 7.0 : 6.6);
    if (cap_cycle < 4 && cap_forcing < 2) return;  /* no hint here can be taken */
    int mark = e->nnodes, pmark = e->par.len, h0 = e->nhints;
    ch_IVec cycles = e->ucycles, chains = e->uchains;  /* the engine's buffers */
    cycles.len = chains.len = 0;
    int p_on = ch_node_new(e, cand * 2 + 1, CH_CAUSE_NONE);
    /* a cycle through cand needs another "on" in its component (ch_do_cycles) */
    const ch_Reach *r = &e->reach;
    if (!r->ok || !(r->y || !y_links) || r->csize[r->comp[cand]] > 1)
        ch_do_cycles(e, p_on, y_links, x_links, &cycles, cap_cycle);
    if (x_links) {
        if (ch_forcing_exists(e, cand, y_links, 1))
            ch_do_forcing_chains(e, p_on, y_links, &chains, cap_forcing);
        if (ch_forcing_exists(e, cand, y_links, 0)) {
            int p_off = ch_node_new(e, cand * 2, CH_CAUSE_NONE);
            ch_do_forcing_chains(e, p_off, y_links, &chains, cap_forcing);
        }
    }
    for (int i = 0; i < cycles.len; i++) ch_cycle_hint(e, cycles.a[i], y_links, x_links);
    for (int i = 0; i < chains.len; i++) ch_forcing_hint(e, chains.a[i], y_links, x_links);
    e->ucycles = cycles; e->uchains = chains;
    if (e->nhints == h0) { e->nnodes = mark; e->par.len = pmark; return; }  /* nothing kept them */
    if (!e->best_only || e->failed) return;
    /* the bound: the cheapest hint so far */
    for (int i = h0; i < e->nhints; i++) {
        ch_Hint *h = e->hints + i;
        ch_hint_complexity(e, h);
        if (!e->bounded || h->difficulty < e->bound_d ||
            (h->difficulty == e->bound_d && h->complexity < e->bound_cx)) {
            e->bounded = 1; e->bound_d = h->difficulty; e->bound_cx = h->complexity;
            e->ncaps = 0;
        }
    }
}

/* ch_set_live on a rules geometry: every house of the cell. */
static void ch_set_live_rules(ch_Engine *e, int y_links, int x_links) {
    const lgeo *g = e->g;
    int n = g->n;
    for (int c = 0; c < g->size; c++) {
        int nh;
        const int *hs = lg_houses(g, c, &nh), *hi = g->cell_hidx + c * LG_HMAX;
        ch_mask_t m = e->cand[c], live = 0;
        if (y_links && ch_two_bits(m)) live = m;
        else if (x_links) {
            for (; m; m &= m - 1) {
                int d = ch_lowbit(m);
                for (int t = 0; t < nh; t++)
                    if (ch_two_bits(e->pos[hs[t] * n + d])) { live |= (ch_mask_t)1 << d; break; }
            }
        }
        e->livecell[c] = live;
        for (; live; live &= live - 1) {
            int d = ch_lowbit(live);
            for (int t = 0; t < nh; t++) e->livepos[hs[t] * n + d] |= (ch_mask_t)1 << hi[t];
        }
    }
}

/* Which "off" potentials have a consequence in static chains with these links (a two-digit
 * cell, or a digit with two places in one of the cell's units): the grid does not change while
 * they run, and the others are dead ends, never worth a node. */
static void ch_set_live(ch_Engine *e, int y_links, int x_links) {
    const lgeo *g = e->g;
    int n = g->n;
    memset(e->livepos, 0, sizeof(ch_mask_t) * (size_t)ch_nunits(g) * (size_t)n);
    if (g->rules) { ch_set_live_rules(e, y_links, x_links); return; }
    for (int c = 0; c < g->size; c++) {
        ch_mask_t m = e->cand[c], live = 0;
        if (y_links && ch_two_bits(m)) live = m;
        else if (x_links) {
            const int *su = g->se_units + 3 * c;
            while (m) {
                int d = ch_lowbit(m); m &= m - 1;
                for (int t = 0; t < 3; t++)
                    if (ch_two_bits(e->pos[su[t] * n + d])) { live |= (ch_mask_t)1 << d; break; }
            }
        }
        e->livecell[c] = live;
        /* livepos: the live candidates' places */
        const int *su = g->se_units + 3 * c, *ui = g->unit_index + 3 * c;
        for (; live; live &= live - 1) {
            int d = ch_lowbit(live);
            for (int t = 0; t < 3; t++) e->livepos[su[t] * n + d] |= (ch_mask_t)1 << ui[t];
        }
    }
}

/* Swap the live sets with the kept ones (see live_xy). */
static void ch_live_swap(ch_Engine *e) {
    const lgeo *g = e->g;
    size_t nc = (size_t)g->size, np = (size_t)ch_nunits(g) * (size_t)g->n;
    e->livecell = e->livecell == e->livemem_cell ? e->livemem_cell + nc : e->livemem_cell;
    e->livepos = e->livepos == e->livemem_pos ? e->livemem_pos + np : e->livemem_pos;
}

static void ch_loops(ch_Engine *e, int y_links, int x_links) {
    const lgeo *g = e->g;
    /* Every loop uses the reach of the xy links (more links, larger components and sets:
     * the cycles it allows and the forcing chains it says may exist hold those of fewer
     * links, so the searches find the same), built once in the first loop: the grid does not
     * change between the loops. Its live sets are kept for the xy loop (live_xy). */
    if (!(e->reach.ok && e->reach.y)) {
        ch_set_live(e, 1, 1); ch_reach_build(e, 1, 0);
        ch_live_swap(e); e->live_xy = 1;
    }
    if (y_links && x_links && e->live_xy) { ch_live_swap(e); e->live_xy = 0; }
    else ch_set_live(e, y_links, x_links);
    for (int c = 0; c < g->size && !e->failed; c++) {
        ch_mask_t m = e->cand[c];
        if (e->values[c] || !ch_many(m)) continue;
        while (m) {
            int d = ch_lowbit(m); m &= m - 1;
            ch_unary(e, c * g->n + d, y_links, x_links);
        }
    }
}
