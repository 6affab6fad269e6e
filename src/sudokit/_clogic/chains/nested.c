/*
 * Chains, nested levels (part of chains.c): the inner engines of nested forcing chains, the
 * path's memo of what they find on each grid (ch_Memo) and ch_advanced, which applies the
 * advanced rules (advanced.c) and then the inner engines.
 */
/* The inner engines are engines like any other (engine.c). */
static ch_Engine *ch_engine_new(const lgeo *g, int multiple, int dynamic, int nishio, int nesting);
static void ch_engine_free(ch_Engine *e);
static void ch_engine_run(ch_Engine *e, const uint8_t *values, const ch_mask_t *cand, const ch_Engine *from);

/* ------------------------------------------------------------------ inner engines' memo */

/* What an inner engine (nested chains) finds on a grid depends on the grid alone (its
 * candidates and placed values) and on the engine's settings; which removed candidates each
 * finding relies on (getRuleParents) depends besides on the grid the outer run began from,
 * but only through the causes along its chains. So a path keeps, per inner engine setting and
 * grid, the findings with their causes, and every outer run of every nesting level and step
 * reads them from there: the same grids come back across runs (an outer run meets the grids
 * the run of the step before met, less what that step removed; nested chains 3 meet the grids
 * that level 2 met on the same step), and within a run (the closures of different assumptions
 * reach the same places).
 *
 * An entry in pool at offset o: hash (2 ints), the key (kw ints: the engine's setting, the
 * candidates as bits, the placed values), the length L of what follows, then per finding in
 * SE's order: nrem, rem..., ncause, (cause, cand)..., complexity, signature (2 ints). A cause
 * is an "on" node's rule along the chains (CH_CAUSE_CELL, or its unit), the first of each cell
 * (cell rule) or unit and digit (unit rule), in getRuleParents' visiting order. */
typedef struct ch_Memo {
    const lgeo *g;
    int kw;                 /* key length in ints */
    int *slot; int cap, count;  /* hash table: entry offset + 1, or 0 */
    ch_IVec pool;
    int *seen; int gen;     /* ncell + nunit * n: a cause already listed for this finding */
} ch_Memo;

/* The key's length in ints: the setting, the candidates' bits, the values' bytes. */
static int ch_memo_words(const lgeo *g) { return 1 + (g->ncand + 31) / 32 + (g->size + 3) / 4; }

/* Entries are dropped all at once when the pool passes this many ints (64 MB; the hardest
 * 9x9 paths of hardest_1106 keep about 20 MB). */
#define CH_MEMO_MAX (1 << 24)

static void ch_memo_free(ch_Memo *m) {
    if (!m) return;
    free(m->slot); free(m->pool.a); free(m->seen); free(m);
}

static ch_Memo *ch_memo_new(const lgeo *g) {
    ch_Memo *m = calloc(1, sizeof(ch_Memo));
    if (!m) return NULL;
    m->g = g;
    m->kw = ch_memo_words(g);
    m->cap = 1024;
    m->slot = calloc((size_t)m->cap, sizeof(int));
    m->seen = calloc((size_t)(g->size + g->nunit * g->n), sizeof(int));
    if (!m->slot || !m->seen) { ch_memo_free(m); return NULL; }
    return m;
}

/* The key of ``in``'s run on the grid (values, cand) into key (kw ints); its hash. */
static uint64_t ch_memo_key(const ch_Memo *m, const ch_Engine *in, const uint8_t *values, const ch_mask_t *cand,
                            int *key) {
    const lgeo *g = m->g;
    int n = g->n, nb = (g->ncand + 31) / 32;
    memset(key, 0, sizeof(int) * (size_t)m->kw);
    key[0] = in->multiple | in->dynamic << 1 | in->nishio << 2 | in->nesting << 3;
    uint32_t *bits = (uint32_t *)(key + 1);
    for (int c = 0; c < g->size; c++) {
        ch_mask_t x = cand[c];
        while (x) {
            int b = c * n + ch_lowbit(x); x &= x - 1;
            bits[b >> 5] |= (uint32_t)1 << (b & 31);
        }
    }
    uint8_t *vals = (uint8_t *)(key + 1 + nb);
    memcpy(vals, values, (size_t)g->size);
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < m->kw; i++) {
        h = (h ^ (uint32_t)key[i]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

static int ch_memo_slot(const ch_Memo *m, uint64_t h) { return (int)((h ^ h >> 29) & (uint64_t)(m->cap - 1)); }

/* The offset of the entry for key (hash h), or -1. */
static int ch_memo_find(const ch_Memo *m, uint64_t h, const int *key) {
    const int *a = m->pool.a;
    for (int i = ch_memo_slot(m, h); m->slot[i]; i = (i + 1) & (m->cap - 1)) {
        int o = m->slot[i] - 1;
        if ((uint32_t)a[o] == (uint32_t)h && (uint32_t)a[o + 1] == (uint32_t)(h >> 32) &&
            !memcmp(a + o + 2, key, sizeof(int) * (size_t)m->kw))
            return o;
    }
    return -1;
}

/* File the entry for key (hash h) with the findings ``body``; its offset, or -1 when memory
 * ran out (the caller's engine fails). */
static int ch_memo_put(ch_Memo *m, uint64_t h, const int *key, const ch_IVec *body) {
    if (m->pool.len > CH_MEMO_MAX) {  /* start over */
        memset(m->slot, 0, sizeof(int) * (size_t)m->cap);
        m->count = 0; m->pool.len = 0;
    }
    if (2 * (m->count + 1) > m->cap) {  /* grow, and file every entry again */
        int cap = m->cap * 2;
        int *t = cap < INT32_MAX / 4 ? calloc((size_t)cap, sizeof(int)) : NULL;
        if (!t) return -1;
        free(m->slot);
        m->slot = t; m->cap = cap;
        const int *a = m->pool.a;
        for (int q = 0; q < m->pool.len; q += 3 + m->kw + a[q + 2 + m->kw]) {
            uint64_t hq = (uint64_t)(uint32_t)a[q] | (uint64_t)(uint32_t)a[q + 1] << 32;
            int i = ch_memo_slot(m, hq);
            while (m->slot[i]) i = (i + 1) & (cap - 1);
            m->slot[i] = q + 1;
        }
    }
    ch_IVec *p = &m->pool;
    if (p->len > INT32_MAX - 3 - m->kw - body->len || ch_iv_reserve(p, 3 + m->kw + body->len)) return -1;
    int o = p->len;
    p->a[o] = (int)(uint32_t)h; p->a[o + 1] = (int)(uint32_t)(h >> 32);
    memcpy(p->a + o + 2, key, sizeof(int) * (size_t)m->kw);
    p->a[o + 2 + m->kw] = body->len;
    if (body->len) memcpy(p->a + o + 3 + m->kw, body->a, sizeof(int) * (size_t)body->len);
    p->len += 3 + m->kw + body->len;
    int i = ch_memo_slot(m, h);
    while (m->slot[i]) i = (i + 1) & (m->cap - 1);
    m->slot[i] = o + 1;
    m->count++;
    return o;
}

/* Record finding h of inner engine ``in`` into body: its removable, the causes along its
 * chains (getRuleParents' walk, breadth-first from each target: the nodes in getChain's
 * order), its complexity (ch_engine_sort measured it) and its FullChain signature (the same
 * walk). */
static void ch_memo_record(ch_Memo *m, ch_Engine *in, ch_Hint *h, ch_IVec *body) {
    const lgeo *g = m->g;
    int n = g->n;
    if (ch_iv_reserve(body, h->nrem + 2) ) { in->failed = 1; return; }
    body->a[body->len++] = h->nrem;
    memcpy(body->a + body->len, in->rem.a + h->rstart, sizeof(int) * (size_t)h->nrem);
    body->len += h->nrem;
    int at = body->len;  /* ncause goes here */
    body->a[body->len++] = 0;
    int hgen = ++m->gen;
    uint64_t sig = 1469598103934665603ULL;
    for (int t = 0; t < h->ntarg; t++) {
        int target = in->targ.a[h->tstart + t];
        sig = ch_mix(sig, (uint64_t)in->nodes[target].key + 7);
        int len = ch_walk(in, target, INT32_MAX);
        for (int i = 0; i < len; i++) {
            const ch_Node *nd = in->nodes + in->bfs_a.a[i];
            sig = ch_mix(sig, (uint64_t)nd->key);
            int cause = nd->cause;
            if (cause == CH_CAUSE_NONE) {
                if (h->kind == CH_K_CELL) cause = CH_CAUSE_CELL;
                else if (h->kind == CH_K_REGION) cause = h->region;
            }
            if ((nd->key & 1) && cause != CH_CAUSE_NONE && cause != CH_CAUSE_ADV) {
                int cand = nd->key >> 1;
                int id = cause == CH_CAUSE_CELL ? g->cell_of[cand] : g->size + cause * n + g->digit_of[cand];
                if (m->seen[id] != hgen) {
                    m->seen[id] = hgen;
                    if (ch_iv_push2(body, cause, cand)) { in->failed = 1; return; }
                    body->a[at]++;
                }
            }
        }
        sig = ch_mix(sig, 0xabcdefULL);
    }
    if (ch_iv_reserve(body, 3)) { in->failed = 1; return; }
    body->a[body->len++] = h->complexity;
    body->a[body->len++] = (int)(uint32_t)sig;
    body->a[body->len++] = (int)(uint32_t)(sig >> 32);
}

/* Emit the findings of the entry at o for this run (``src``: the grid it began from): each
 * as an advanced node per removable candidate, its parents the removed candidates its causes
 * rely on (getRuleParents); a finding that relies on none is left out. */
static void ch_memo_emit(ch_Engine *e, const ch_Memo *m, int o, const ch_mask_t *src, ch_IVec *out) {
    const lgeo *g = e->g;
    int n = g->n;
    int pos = o + 3 + m->kw, end = pos + m->pool.a[pos - 1];
    ch_IVec *parents = &e->bfs_a;  /* free here: the outer engine walks no chain meanwhile */
    while (pos < end && !e->failed) {
        const int *a = m->pool.a;
        int nrem = a[pos], ncause = a[pos + 1 + nrem];
        const int *rem = a + pos + 1, *cs = a + pos + 2 + nrem;
        pos += 2 + nrem + 2 * ncause;
        int cx = a[pos];
        uint64_t sig = (uint64_t)(uint32_t)a[pos + 1] | (uint64_t)(uint32_t)a[pos + 2] << 32;
        pos += 3;
        int gen_out = ++e->gen;
        parents->len = 0;
        for (int k = 0; k < ncause; k++) {
            int cause = cs[2 * k], cand = cs[2 * k + 1], c = g->cell_of[cand], d = g->digit_of[cand];
            if (cause == CH_CAUSE_CELL) {
                ch_mask_t x = src[c] & ~e->cand[c];
                while (x) {
                    int pc = c * n + ch_lowbit(x); x &= x - 1;
                    if (e->scratch[pc] != gen_out) { e->scratch[pc] = gen_out; ch_iv_push(parents, pc); }
                }
            } else {
                /* the unit of the rule: the digit's places there that are gone */
                const int *uc = g->unit_cells + cause * n;
                ch_mask_t x = e->srcpos[cause * n + d] & ~e->pos[cause * n + d];
                while (x) {
                    int pc = uc[ch_lowbit(x)] * n + d; x &= x - 1;
                    if (e->scratch[pc] != gen_out) { e->scratch[pc] = gen_out; ch_iv_push(parents, pc); }
                }
            }
        }
        ch_emit(e, out, rem, nrem, parents->a, parents->len, cx, sig);
    }
}

/* What inner engine ``in`` finds on the current grid, from the memo (run and filed there when
 * the grid is new); the findings emitted into out. */
static void ch_rule_nested(ch_Engine *e, ch_Engine *in, const ch_mask_t *src, ch_IVec *out) {
    ch_Memo *m = e->memo;
    uint64_t h = ch_memo_key(m, in, e->values, e->cand, e->memokey);
    int o = ch_memo_find(m, h, e->memokey);
    if (o < 0) {
        ch_engine_run(in, e->values, e->cand, e);
        if (in->failed) { e->failed = 1; return; }
        /* the findings SE keeps (LinkedHashSet), in its order, each with its record */
        int *order = NULL, norder = 0;
        ch_IVec body = {0};
        ch_engine_sort(in, &order, &norder);
        for (int k = 0; k < norder && !in->failed; k++) ch_memo_record(m, in, in->hints + order[k], &body);
        free(order);
        if (!in->failed && !ch_out_of_memory) o = ch_memo_put(m, h, e->memokey, &body);
        free(body.a);
        if (o < 0) { e->failed = 1; return; }
    }
    ch_memo_emit(e, m, o, src, out);
}

/* ------------------------------------------------------------------ the advanced potentials */

/* SE's getAdvancedPotentials: into ``out`` (nodes), the findings on the current grid of the
 * first that finds any of the advanced rules (advanced.c), then of the inner engines. */
static void ch_advanced(ch_Engine *e, const ch_mask_t *src, ch_IVec *out) {
    out->len = 0;
    ch_Gone gn;
    ch_gone(e, &gn);
    ch_rule_locking(e, src, &gn, out);
    if (out->len) return;
    ch_rule_hidden_pairs(e, src, &gn, out);
    if (out->len) return;
    ch_rule_naked_pairs(e, src, &gn, out);
    if (out->len) return;
    ch_rule_x_wings(e, src, &gn, out);
    if (out->len) return;
    if (e->nesting >= 2 && e->ninner == 0) {
        const lgeo *g = e->g;
        if (e->nesting < 4) {
            e->inner[e->ninner++] = ch_engine_new(g, 0, 0, 0, 0);
            if (e->nesting >= 3) e->inner[e->ninner++] = ch_engine_new(g, 1, 0, 0, 0);
        } else {
            e->inner[e->ninner++] = ch_engine_new(g, 1, 1, 0, 0);
            if (e->nesting >= 5) e->inner[e->ninner++] = ch_engine_new(g, 1, 1, 0, e->nesting - 3);
        }
        for (int i = 0; i < e->ninner; i++) if (!e->inner[i]) { e->failed = 1; return; }
    }
    if (!e->ninner) return;
    if (!e->memo) { e->failed = 1; return; }  /* ch_find gives nesting engines one */
    for (int i = 0; i < e->ninner; i++) {
        e->inner[i]->memo = e->memo;  /* an inner engine that nests reads the same memo */
        ch_rule_nested(e, e->inner[i], src, out);
        if (out->len || e->failed) break;
    }
}
