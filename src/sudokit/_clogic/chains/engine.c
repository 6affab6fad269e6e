/*
 * Chains, engine and step (part of chains.c): an engine's making, reset and run (ch_engine_run
 * starts the producer's search: ch_loops in static.c or ch_multiple_chains in multiple.c), the
 * step emitted from the chosen hint, the engines a sink keeps, and the finders (ch_find and
 * the lf_* entries of the technique table).
 */
static ch_Engine *ch_engine_new(const lgeo *g, int multiple, int dynamic, int nishio, int nesting) {
    ch_Engine *e = calloc(1, sizeof(ch_Engine));
    if (!e) return NULL;
    e->g = g; e->multiple = multiple; e->dynamic = dynamic; e->nishio = nishio; e->nesting = nesting;
    e->cand = malloc(sizeof(ch_mask_t) * g->size);
    int nu = ch_nunits(g);
    e->pos = malloc(sizeof(ch_mask_t) * nu * g->n);
    e->srcpos = malloc(sizeof(ch_mask_t) * nu * g->n);
    e->src_buf = malloc(sizeof(ch_mask_t) * g->size);
    e->empties = malloc(sizeof(int) * nu);
    e->livecell = e->livemem_cell = malloc(sizeof(ch_mask_t) * 2 * g->size);
    e->livepos = e->livemem_pos = malloc(sizeof(ch_mask_t) * 2 * nu * g->n);
    e->on_map = malloc(sizeof(int) * g->ncand);
    e->off_map = malloc(sizeof(int) * g->ncand);
    e->cache = malloc(sizeof(int) * g->ncand);
    e->stamp = calloc(2 * (size_t)g->ncand, sizeof(int));
    e->scratch = calloc((size_t)g->ncand, sizeof(int));
    /* the pools, each with its sink slot (see node_new) */
    e->capnodes = 4096; e->nodes = malloc(sizeof(ch_Node) * (e->capnodes + 1));
    e->caphints = 64; e->hints = malloc(sizeof(ch_Hint) * (e->caphints + 1));
    e->capclos = 256; e->clos = malloc(sizeof(ch_Closure) * e->capclos);
    if (g->ncand <= CH_REACH_MAX) {  /* the closures' bit sets, and the sink's (empty) */
        e->bw = (g->ncand + 63) / 64;
        e->cbits = calloc(2 * (size_t)e->bw * ((size_t)e->capclos + 1), sizeof(uint64_t));
        e->cslot = malloc(sizeof(int) * (size_t)g->ncand);
        if (!e->cbits || !e->cslot) { ch_engine_free(e); return NULL; }
    }
    if (nesting >= 2) {
        e->memokey = malloc(sizeof(int) * (size_t)ch_memo_words(g));
        if (!e->memokey) { ch_engine_free(e); return NULL; }
    }
    if (!e->cand || !e->pos || !e->srcpos || !e->src_buf || !e->empties || !e->livecell || !e->livepos || !e->on_map || !e->off_map || !e->cache || !e->stamp || !e->scratch ||
        !e->nodes || !e->hints || !e->clos) {
        ch_engine_free(e);
        return NULL;
    }
    for (int i = 0; i < g->ncand; i++) e->on_map[i] = e->off_map[i] = e->cache[i] = -1;
    return e;
}

static void ch_engine_reset(ch_Engine *e) {
    e->nnodes = 0; e->par.len = 0; e->nhints = 0; e->rem.len = 0; e->targ.len = 0;
    e->nclos = 0; e->cpool.len = 0;
    e->bounded = 0; e->ncaps = 0; e->reach.ok = 0; e->live_xy = 0;
    if (e->gen > (1 << 30)) {  /* an engine kept for long: start the stamps over */
        memset(e->stamp, 0, sizeof(int) * 2 * (size_t)e->g->ncand);
        memset(e->scratch, 0, sizeof(int) * (size_t)e->g->ncand);
        e->gen = 0;
    }
    ch_set_clear(e);
    memset(e->cache, 0xff, sizeof(int) * (size_t)e->g->ncand);  /* -1 each */
}

static void ch_engine_free(ch_Engine *e) {
    if (!e) return;
    for (int i = 0; i < e->ninner; i++) ch_engine_free(e->inner[i]);
    free(e->memokey);
    free(e->cand); free(e->pos); free(e->srcpos); free(e->src_buf); free(e->empties);
    free(e->livemem_cell); free(e->livemem_pos);
    ch_reach_free(&e->reach);
    free(e->adv.a);
    free(e->pon.a); free(e->poff.a); free(e->ucycles.a); free(e->uchains.a); free(e->on_map); free(e->off_map); free(e->cache);
    free(e->stamp); free(e->scratch); free(e->nodes); free(e->par.a); free(e->on_ord.a);
    free(e->off_ord.a); free(e->hints); free(e->rem.a);
    free(e->targ.a); free(e->clos); free(e->cbits); free(e->cslot); free(e->common.a); free(e->cpool.a); free(e->bfs_a.a);
    free(e);
}

/* With ``from`` (an outer engine whose current grid is values and cand: nested chains), the
 * places, empty cells and placed values are copied from it instead of worked out again. */
static void ch_engine_run(ch_Engine *e, const uint8_t *values, const ch_mask_t *cand, const ch_Engine *from) {
    const lgeo *g = e->g;
    int n = g->n, nu = ch_nunits(g);
    ch_engine_reset(e);
    e->values = values;
    memcpy(e->cand, cand, sizeof(ch_mask_t) * g->size);
    if (from) {
        memcpy(e->pos, from->pos, sizeof(ch_mask_t) * nu * n);
        memcpy(e->empties, from->empties, sizeof(int) * nu);
        memcpy(e->placed, from->placed, sizeof e->placed);
    } else {
        memset(e->pos, 0, sizeof(ch_mask_t) * nu * n);
        memset(e->empties, 0, sizeof(int) * nu);
        memset(e->placed, 0, sizeof e->placed);
    }
    for (int c = 0; c < g->size && !from && g->rules; c++) {  /* every house of the cell */
        int nh;
        const int *hs = lg_houses(g, c, &nh), *hi = g->cell_hidx + c * LG_HMAX;
        if (values[c]) e->placed[values[c] - 1]++;
        else for (int t = 0; t < nh; t++) e->empties[hs[t]]++;
        for (ch_mask_t m = e->cand[c]; m; m &= m - 1) {
            int d = ch_lowbit(m);
            for (int t = 0; t < nh; t++) e->pos[hs[t] * n + d] |= (ch_mask_t)1 << hi[t];
        }
    }
    for (int c = 0; c < g->size && !from && !g->rules; c++) {
        const int *su = g->se_units + 3 * c, *ui = g->unit_index + 3 * c;
        if (values[c]) e->placed[values[c] - 1]++;
        else for (int t = 0; t < 3; t++) e->empties[su[t]]++;
        ch_mask_t m = e->cand[c];
        while (m) {
            int d = ch_lowbit(m); m &= m - 1;
            for (int t = 0; t < 3; t++) e->pos[su[t] * n + d] |= (ch_mask_t)1 << ui[t];
        }
    }
    memcpy(e->src_buf, e->cand, sizeof(ch_mask_t) * g->size);
    memcpy(e->srcpos, e->pos, sizeof(ch_mask_t) * nu * n);
    if (e->multiple && !e->dynamic && !e->nishio) {
        /* static multiple chains: which closures may share a potential (ch_may_share) */
        ch_set_live(e, 1, 1);
        ch_reach_build(e, 1, 1);
    }
    if (e->multiple || e->dynamic) ch_multiple_chains(e);
    else { ch_loops(e, 0, 1); ch_loops(e, 1, 0); ch_loops(e, 1, 1); }
    /* the hints' complexities: ch_find counts those of the cheapest candidates, ch_rule_nested
     * all of them, on its walk along their chains */
}

/* ------------------------------------------------------------------ the step */

/* Producer settings, as Sudoku Explainer builds them (logic/chains.py). */
typedef struct { int multiple, dynamic, nishio, nesting; } ch_spec;

/* Hint kinds as Step.info names them (the decoder in logic/chains.py reads these numbers). */
static int ch_technique(const ch_Hint *h, ch_spec sp) {
    if (h->kind == CH_K_CYCLE) return h->x && h->y ? K_XY_CYCLE : (h->y ? K_Y_CYCLE : K_X_CYCLE);
    if (h->kind == CH_K_FORCING)
        return h->x && h->y ? K_FORCING_CHAIN : (h->y ? K_FORCING_Y_CHAIN : K_FORCING_X_CHAIN);
    if (sp.nishio) return K_NISHIO;
    if (!sp.dynamic) return h->kind == CH_K_CELL ? K_CELL_FORCING_CHAIN : K_REGION_FORCING_CHAIN;
    if (sp.nesting == 0) return K_DYNAMIC_FORCING_CHAIN;
    if (sp.nesting == 1) return K_DYNAMIC_FORCING_CHAIN_PLUS;
    return K_NESTED_2 + sp.nesting - 2;
}

static int ch_int_cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The spine of a chain (reference: chains.py _spine): the nodes along first parents from the
 * assumption to ``target``; per node its key, whether its cause is an advanced rule, and the
 * keys of its other parents. Raw: length, then per node key, adv, m, m keys. */
static void ch_emit_spine(ch_Engine *e, int target, ch_IVec *tmp, lsink *out) {
    tmp->len = 0;
    for (int p = target; p >= 0; p = ch_first_parent(e, p)) ch_iv_push(tmp, p);
    lstep_info(out, tmp->len);
    for (int i = tmp->len - 1; i >= 0; i--) {
        const ch_Node *nd = e->nodes + tmp->a[i];
        lstep_info(out, nd->key);
        lstep_info(out, nd->cause == CH_CAUSE_ADV);
        int m = nd->np > 1 ? nd->np - 1 : 0;
        lstep_info(out, m);
        for (int k = 1; k <= m; k++) lstep_info(out, e->nodes[e->par.a[nd->pstart + k]].key);
    }
}

/* Emit hint h as a step: the fields chains.py's reference _step makes. */
static void ch_emit_step(ch_Engine *e, const ch_Hint *h, ch_spec sp, lsink *out) {
    const lgeo *g = e->g;
    int n = g->n, ncand = g->ncand;
    int ntarg = h->kind == CH_K_CYCLE ? 1 : h->ntarg;
    const int *targets = e->targ.a + h->tstart;
    double rating = round(h->difficulty * 10.0) / 10.0;
    lstep_begin(out, ch_technique(h, sp), rating);
    lstep_complexity(out, h->complexity);
    /* eliminations, sorted by cell then digit, unique; a placement of an "on" result */
    int *rem = malloc(sizeof(int) * (size_t)(h->nrem + 1));
    ch_IVec tmp = {0};
    uint64_t *table = NULL;
    if (!rem) { out->failed = 1; goto end; }
    memcpy(rem, e->rem.a + h->rstart, sizeof(int) * (size_t)h->nrem);
    qsort(rem, (size_t)h->nrem, sizeof(int), ch_int_cmp);
    int placed = -1;
    if (h->result_key >= 0 && (h->result_key & 1)) {
        int cand = h->result_key >> 1;
        placed = cand / n;
        lstep_place(out, placed, cand % n + 1);
    }
    for (int i = 0; i < h->nrem; i++) {
        if (i && rem[i] == rem[i - 1]) continue;
        if (rem[i] / n != placed) lstep_elim(out, rem[i] / n, rem[i] % n + 1);
    }
    /* cells (first appearance over the chains' nodes), digits (sorted), links (first of each
     * (cell, digit, cell2, digit2); nodes with more than 6 parents give none) */
    int gen_cand = ++e->gen;
    cset seen_cells;
    cs_clear(&seen_cells, LG_MAXW);
    dmask digits = 0;
    int nlinks_max = 0;
    for (int t = 0; t < ntarg; t++) {
        int len = ch_walk(e, targets[t], INT32_MAX);
        for (int i = 0; i < len; i++) {
            const ch_Node *nd = e->nodes + e->bfs_a.a[i];
            int cand = nd->key >> 1;
            nlinks_max += nd->np;
            if (e->scratch[cand] == gen_cand) continue;
            e->scratch[cand] = gen_cand;
            digits |= (dmask)1 << (cand % n);
            if (!cs_has(&seen_cells, cand / n)) {
                cs_add(&seen_cells, cand / n);
                lstep_cell(out, cand / n);
            }
        }
    }
    if (h->kind == CH_K_REGION) lstep_unit(out, h->region);
    int d0;
    DM_FOREACH(d0, digits) lstep_digit(out, d0 + 1);
    size_t tsize = 16;
    while (tsize < 2 * (size_t)nlinks_max + 2) tsize *= 2;
    table = calloc(tsize, sizeof(uint64_t));
    if (!table) { out->failed = 1; goto end; }
    for (int t = 0; t < ntarg; t++) {
        int len = ch_walk(e, targets[t], INT32_MAX);
        for (int i = 0; i < len; i++) {
            const ch_Node *nd = e->nodes + e->bfs_a.a[i];
            if (nd->np > 6) continue;
            int cand2 = nd->key >> 1;
            for (int k = 0; k < nd->np; k++) {
                int qkey = e->nodes[e->par.a[nd->pstart + k]].key, cand1 = qkey >> 1;
                uint64_t id = (uint64_t)cand1 * (uint64_t)ncand + (uint64_t)cand2 + 1;
                size_t slot = (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 20) & (tsize - 1);
                int dup = 0;
                while (table[slot]) {
                    if (table[slot] == id) { dup = 1; break; }
                    slot = (slot + 1) & (tsize - 1);
                }
                if (dup) continue;
                table[slot] = id;
                lstep_link(out, cand1 / n, cand1 % n + 1, cand2 / n, cand2 % n + 1,
                           !(qkey & 1) && (nd->key & 1));
            }
        }
    }
    /* info: shape, hint kind, nesting, the kind's fields, then the spines */
    lstep_info(out, g->br);
    lstep_info(out, g->bc);
    lstep_info(out, h->kind);
    lstep_info(out, sp.nesting);
    int a = 0, b = 0, c = 0;
    if (h->kind == CH_K_CELL) a = h->source;
    else if (h->kind == CH_K_REGION) { a = h->region; b = h->value; }
    else if (h->kind == CH_K_BINARY) { a = h->source >> 1; b = h->source % 2; c = h->absurd; }
    else if (h->kind == CH_K_FORCING) { a = h->source; b = 1 - (e->nodes[targets[0]].key & 1); }
    lstep_info(out, a);
    lstep_info(out, b);
    lstep_info(out, c);
    lstep_info(out, ntarg);
    for (int t = 0; t < ntarg; t++) ch_emit_spine(e, targets[t], &tmp, out);
    if (ch_out_of_memory) out->failed = 1;
end:
    free(rem); free(table); free(tmp.a);
    if (out->failed) lstep_cancel(out);
    else lstep_end(out);
}

/* ------------------------------------------------------------------ the finders */

/* Free the chain engines and the memo a sink keeps (sink_free in _logic.c). */
static void ch_sink_free(lsink *o) {
    for (int i = 0; i < LS_NCHAIN_ENGINES; i++) {
        ch_engine_free(o->chain_engines[i]);
        o->chain_engines[i] = NULL;
    }
    ch_memo_free(o->chain_memo);
    o->chain_memo = NULL;
}

/* The sink's engine for producer ``sp`` on shape ``g``: the one kept from an earlier call
 * (growing its pools again on every call was a tenth of the chains' time), or a new one; NULL
 * when memory ran out. An engine whose search failed is never kept. */
static ch_Engine *ch_sink_engine(lsink *out, const lgeo *g, ch_spec sp) {
    int slot = !sp.multiple && !sp.dynamic ? 0 : (sp.nishio ? 1 : (!sp.dynamic ? 2 : 3 + sp.nesting));
    if (slot >= LS_NCHAIN_ENGINES) return ch_engine_new(g, sp.multiple, sp.dynamic, sp.nishio, sp.nesting);
    ch_Engine *e = out->chain_engines[slot];
    if (e && e->g == g) return e;
    ch_engine_free(e);
    out->chain_engines[slot] = e = ch_engine_new(g, sp.multiple, sp.dynamic, sp.nishio, sp.nesting);
    return e;
}

/* Give back an engine from ch_sink_engine: kept in its slot unless its search failed. */
static void ch_sink_release(lsink *out, ch_Engine *e) {
    for (int i = 0; i < LS_NCHAIN_ENGINES; i++)
        if (out->chain_engines[i] == e) {
            if (!e->failed && !ch_out_of_memory) return;
            out->chain_engines[i] = NULL;
        }
    ch_engine_free(e);
}

/* Run one producer and emit its cheapest hint (SE's order: unrounded difficulty, complexity,
 * sort key, discovery). */
static void ch_find(const lstate *s, lsink *out, ch_spec sp) {
    const lgeo *g = s->g;
    ch_out_of_memory = 0;
    ch_Engine *e = ch_sink_engine(out, g, sp);
    if (!e) { out->failed = 1; return; }
    e->best_only = 1;
    if (sp.nesting >= 2) {  /* the path's memo of the inner engines' findings, for this shape */
        if (out->chain_memo && out->chain_memo->g != g) { ch_memo_free(out->chain_memo); out->chain_memo = NULL; }
        if (!out->chain_memo) out->chain_memo = ch_memo_new(g);
        if (!out->chain_memo) { out->failed = 1; ch_sink_release(out, e); return; }
    }
    e->memo = out->chain_memo;
    ch_engine_run(e, s->values, s->cand, NULL);
    if (e->failed || ch_out_of_memory) { out->failed = 1; ch_sink_release(out, e); return; }
    /* the cheapest hint; a hint's node count is only counted in full while it can still be
     * the cheapest (its lower bound, the count so far, decides) */
    int best = -1, cap = 0, cap_best = -1;
    double cap_base = -1.0;
    for (int i = 0; i < e->nhints && !e->failed; i++) {
        ch_Hint *h = e->hints + i;
        if (best >= 0) {
            const ch_Hint *b = e->hints + best;
            if (cap_best != best || cap_base != h->base) {  /* bases repeat: keep the last cap */
                cap = ch_prune_at(h->base, b->difficulty, b->complexity);
                cap_best = best; cap_base = h->base;
            }
        }
        if (!ch_measure(e, h, best >= 0 ? cap : INT32_MAX)) continue;
        if (best < 0 || ch_hint_before(e, i, best)) best = i;
    }
    if (e->failed || ch_out_of_memory) { out->failed = 1; ch_sink_release(out, e); return; }
    if (best >= 0) ch_emit_step(e, e->hints + best, sp, out);
    ch_sink_release(out, e);
}

static void lf_forcing_chains(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){0, 0, 0, 0}); }
static void lf_nishio(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){0, 1, 1, 0}); }
static void lf_multiple_forcing_chains(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 0, 0, 0}); }
static void lf_dynamic_forcing_chains(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 1, 0, 0}); }
static void lf_dynamic_forcing_chains_plus(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 1, 0, 1}); }
static void lf_nested_forcing_chains_2(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 1, 0, 2}); }
static void lf_nested_forcing_chains_3(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 1, 0, 3}); }
static void lf_nested_forcing_chains_4(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 1, 0, 4}); }
static void lf_nested_forcing_chains_5(const lstate *s, lsink *o) { ch_find(s, o, (ch_spec){1, 1, 0, 5}); }
