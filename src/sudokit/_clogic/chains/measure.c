/*
 * Chains, hint measure and order (part of chains.c): making a hint, its rating (base + SE's
 * length bonus), its node count (the ancestor walk, getAncestorCount) and nested complexity,
 * the bound past which a hint can no longer be the cheapest (ch_prune_at), and SE's order of
 * hints with the de-duplication by removable (ch_engine_sort).
 */
/* SE's chain length bonus for a hint of ``complexity`` nodes (its length is the node count
 * less 2). */
static inline double ch_length_bonus(int complexity) { return length_bonus(complexity - 2); }

static double ch_rule_difficulty(const ch_Engine *e) {
    if (e->nesting >= 2) return 9.5 + 0.5 * (e->nesting - 2);
    if (e->nesting > 0) return 8.5 + 0.5 * e->nesting;
    if (e->nishio) return 7.5;
    if (e->dynamic) return 8.5;
    return 8.0;
}

static ch_Hint *ch_hint_new(ch_Engine *e, int kind, double base, int sort_key) {
    if (e->nhints == e->caphints) {
        ch_Hint *a = e->caphints < INT32_MAX / 4 ? realloc(e->hints, sizeof(ch_Hint) * ((size_t)e->caphints * 2 + 1)) : NULL;
        if (!a) { e->failed = 1; return NULL; }
        e->hints = a; e->caphints *= 2;
    }
    ch_Hint *h = e->hints + e->nhints;
    memset(h, 0, sizeof *h);
    h->kind = kind; h->base = base; h->sort_key = sort_key; h->index = e->nhints;
    h->rstart = e->rem.len; h->tstart = e->targ.len; h->result_key = -1;
    h->source = h->region = -1;
    h->x = h->y = 1;
    h->complexity = -1;
    return h;
}

static void ch_hint_drop(ch_Engine *e, ch_Hint *h) {
    e->rem.len = h->rstart; e->targ.len = h->tstart;
}

/* Keep the hint made last; after a failed allocation nothing more is kept (its counts may be
 * short of what the search found, and the whole answer is dropped anyway). */
static void ch_hint_commit(ch_Engine *e) { if (!e->failed && !ch_out_of_memory) e->nhints++; }

/* Removable of a target potential: "on" keeps only its digit, "off" removes it. */
static int ch_add_removable(ch_Engine *e, ch_Hint *h, int cand, int keep) {
    int n = e->g->n, c = cand / n, d = cand % n;
    if (keep) {
        ch_mask_t m = e->cand[c] & ~((ch_mask_t)1 << d);
        while (m) { int v = ch_lowbit(m); m &= m - 1; if (!ch_iv_push(&e->rem, c * n + v)) h->nrem++; }
    } else if (!ch_iv_push(&e->rem, cand)) {
        h->nrem++;
    }
    return h->nrem;
}

static int ch_walk(ch_Engine *e, int node, int cap);

static uint64_t ch_mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static void ch_set_complexity(ch_Hint *h, int complexity) {
    h->complexity = complexity;
    h->difficulty = h->base + ch_length_bonus(complexity);
}

/* A hint's node count (getAncestorCount over its targets, a cycle's first only), counted only
 * up to ``cap`` (then cap or more). In dynamic chains (a potential has one node a closure) the
 * targets' depths bound it from below, which often tells without a walk. */
static int ch_flat_count(ch_Engine *e, const ch_Hint *h, int cap) {
    int flat = 0, ntarg = h->kind == CH_K_CYCLE ? 1 : h->ntarg;
    if (e->dynamic && cap < INT32_MAX) {
        for (int t = 0; t < ntarg && flat < cap; t++) flat += e->nodes[e->targ.a[h->tstart + t]].depth;
        if (flat >= cap) return flat;
        flat = 0;
    }
    for (int t = 0; t < ntarg && flat < cap; t++) flat += ch_walk(e, e->targ.a[h->tstart + t], cap - flat);
    return flat;
}

/* An engine that nests: getNestedComplexity, the distinct nested chains along the chains
 * (FullChain-deduped), over the node count (the walk that lists a target's chain counts it). */
static void ch_nested_complexity(ch_Engine *e, ch_Hint *h) {
    int flat = 0, nested = 0;
    /* the first 256 distinct signatures met (as a list of 256 would keep), in a hash set */
    uint64_t seen[1024]; unsigned char used[1024]; int nseen = 0;
    memset(used, 0, sizeof used);
    for (int t = 0; t < h->ntarg; t++) {
        int count = ch_walk(e, e->targ.a[h->tstart + t], INT32_MAX);
        if (h->kind != CH_K_CYCLE || t == 0) flat += count;
        for (int i = 0; i < count; i++) {
            const ch_Node *nd = e->nodes + e->bfs_a.a[i];
            if (nd->nested_cx < 0) continue;
            uint64_t sig = nd->nested_sig;
            int slot = (int)((sig ^ sig >> 31) * 0x9e3779b97f4a7c15ULL >> 54), dup = 0;
            for (; used[slot]; slot = (slot + 1) & 1023) if (seen[slot] == sig) { dup = 1; break; }
            if (dup) continue;
            if (nseen < 256) { seen[slot] = sig; used[slot] = 1; nseen++; }
            nested += nd->nested_cx;
        }
    }
    ch_set_complexity(h, flat + nested);
}

/* Measure hint h against ``cap``, the node count at which it can no longer come before the
 * best hint so far (ch_prune_at; INT32_MAX: none): 0 when it reaches cap, else 1 with its
 * complexity set. The node count is counted once: in full only below cap, and for an engine
 * that nests only to rule a hint out (its complexity adds the nested chains'). */
static int ch_measure(ch_Engine *e, ch_Hint *h, int cap) {
    if (e->nesting >= 2) {
        if (cap < INT32_MAX && ch_flat_count(e, h, cap) >= cap) return 0;
        ch_nested_complexity(e, h);
        return 1;
    }
    int flat = ch_flat_count(e, h, cap);
    if (flat >= cap) return 0;
    ch_set_complexity(h, flat);
    return 1;
}

static void ch_hint_complexity(ch_Engine *e, ch_Hint *h) { ch_measure(e, h, INT32_MAX); }

/* ------------------------------------------------------------------ the bound */

/* The smallest node count k at which a hint of rating ``base`` can no longer come before the
 * best so far (difficulty dbest, complexity cbest): base + bonus(k) above dbest, or equal with
 * k above cbest. The bonus grows with k, so this is a binary search. */
static int ch_prune_at(double base, double dbest, int cbest) {
    /* the best's own base (or one that rates cbest alike): one past its count, as the bonus
     * never falls as the count grows */
    if (base + ch_length_bonus(cbest) == dbest) return cbest + 1;
    int lo = 0, hi = 1 << 24;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        double d = base + ch_length_bonus(mid);
        if (d > dbest || (d == dbest && mid > cbest)) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* ------------------------------------------------------------------ the ancestor walk */

/* The walk of getAncestorCount and getChain: the nodes reachable from ``node`` through their
 * parents, breadth-first, each key once (the first node met with it), into e->bfs_a in the
 * order visited, stopping once ``cap`` are there; their count (cap at most). A key is marked
 * when first queued, not when taken, so the queue holds each once and no more: in first-in
 * first-out order the first node queued with a key is the first taken with it, so the nodes
 * and their order are those of the walk that skips a key already seen when it takes a node. */
static int ch_walk(ch_Engine *e, int node, int cap) {
    int gen = ++e->gen;
    ch_IVec *q = &e->bfs_a;
    q->len = 0;
    if (ch_iv_reserve(q, 1)) return 0;
    e->stamp[e->nodes[node].key] = gen;
    q->a[q->len++] = node;
    for (int h = 0; h < q->len && q->len < cap; h++) {
        const ch_Node *nd = e->nodes + q->a[h];
        if (ch_iv_reserve(q, nd->np)) break;
        const int *pp = e->par.a + nd->pstart;
        for (int k = 0; k < nd->np; k++) {
            int p = pp[k], key = e->nodes[p].key;
            if (e->stamp[key] == gen) continue;
            e->stamp[key] = gen;
            q->a[q->len++] = p;
            if (q->len >= cap) break;
        }
    }
    return q->len < cap ? q->len : cap;
}

/* ------------------------------------------------------------------ order */

/* SE's order: difficulty (the unrounded double), complexity, sort key; then discovery order. */
static int ch_hint_before(const ch_Engine *e, int a, int b) {
    const ch_Hint *h1 = e->hints + a, *h2 = e->hints + b;
    if (h1->difficulty != h2->difficulty) return h1->difficulty < h2->difficulty;
    if (h1->complexity != h2->complexity) return h1->complexity < h2->complexity;
    if (h1->sort_key != h2->sort_key) return h1->sort_key < h2->sort_key;
    return h1->index < h2->index;
}

/* Merge sort of hint indexes (no global comparator state: the GIL is released meanwhile). */
static void ch_sort_hints(const ch_Engine *e, int *a, int *tmp, int len) {
    if (len < 2) return;
    int mid = len / 2;
    ch_sort_hints(e, a, tmp, mid);
    ch_sort_hints(e, a + mid, tmp, len - mid);
    int i = 0, j = mid, k = 0;
    while (i < mid && j < len) tmp[k++] = ch_hint_before(e, a[j], a[i]) ? a[j++] : a[i++];
    while (i < mid) tmp[k++] = a[i++];
    while (j < len) tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof(int) * len);
}

static int ch_same_removable(const ch_Engine *e, const ch_Hint *a, const ch_Hint *b) {
    if (a->nrem != b->nrem) return 0;
    /* removable lists are sorted except for cycles' (sorted too) and x-wing advanced */
    return memcmp(e->rem.a + a->rstart, e->rem.a + b->rstart, sizeof(int) * a->nrem) == 0;
}

/* SE's getHintList then LinkedHashSet: the hints in SE's order (ch_hint_before), each kept
 * unless one before it has the same removable. That is the first in SE's order of each
 * removable, in SE's order, and only those get a complexity: a hint is measured against the
 * best of its removable so far (ch_measure, as ch_find does; in a dynamic engine most hints
 * lose so). */
static void ch_engine_sort(ch_Engine *e, int **order, int *norder) {
    int nh = e->nhints, cap = 16;
    while (cap < 2 * nh) cap *= 2;
    int *ord = malloc(sizeof(int) * ((size_t)nh + 1)), *tmp = malloc(sizeof(int) * ((size_t)nh + 1));
    int *tab = calloc((size_t)cap, sizeof(int));  /* per removable, its best hint + 1 (0: free) */
    if (!ord || !tmp || !tab) {
        free(ord); free(tmp); free(tab);
        e->failed = 1; *order = NULL; *norder = 0;
        return;
    }
    int k = 0;
    for (int i = 0; i < nh && !e->failed; i++) {
        ch_Hint *h = e->hints + i;
        uint64_t hv = (uint64_t)h->nrem;
        for (int r = 0; r < h->nrem; r++) hv = ch_mix(hv, (uint64_t)e->rem.a[h->rstart + r]);
        int slot = (int)(hv & (uint64_t)(cap - 1));
        for (; tab[slot]; slot = (slot + 1) & (cap - 1))
            if (ch_same_removable(e, e->hints + tab[slot] - 1, h)) break;
        int b = tab[slot] - 1;
        const ch_Hint *hb = b >= 0 ? e->hints + b : NULL;
        if (!ch_measure(e, h, hb ? ch_prune_at(h->base, hb->difficulty, hb->complexity) : INT32_MAX)) continue;
        if (b < 0) ord[k++] = slot;  /* a new removable: its slot */
        if (b < 0 || ch_hint_before(e, i, b)) tab[slot] = i + 1;
    }
    /* the best of each removable (slots stay put), in SE's order */
    for (int j = 0; j < k; j++) ord[j] = tab[ord[j]] - 1;
    ch_sort_hints(e, ord, tmp, k);
    free(tmp); free(tab);
    *order = ord; *norder = k;
}
