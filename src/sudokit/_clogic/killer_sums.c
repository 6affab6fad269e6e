/*
 * Killer sums (part of sudokit._logic, included by _logic.c before killer.c and killer45.c):
 * which digits each cell of a sum can still take.
 *
 * A sum (ksum) is some empty cells whose digits add up to a total: a cage's empty cells (its
 * sum less its placed digits), or the innies or outies the rule of 45 finds. A digit stays
 * in a cell only when some filling of every cell of the sum with its candidates makes the
 * total, with the digits of any two cells that are peers different. What is left of each
 * cell's candidates is its support; a candidate outside it can go.
 *
 * Cells that are all peers of each other (a cage, the innies of one house) take different
 * digits: kl_solve then walks the digit sets cell by cell (each layer holds the sets of
 * digits the first i cells can take, pruned by what the rest can still add), which also
 * gives the digit sets that make the sum (its combinations) and the digits in all of them.
 * Other cells (innies of two or three houses, outies) are filled by a search with the peer
 * rule between each pair, for a few cells only (KL_LOOSE_MAX): a person does not add up
 * more either.
 */

#define KL_MAXCELLS LG_MAXN
#define KL_MAXCOMBO 64
#define KL_LOOSE_MAX 5
#define KL_LOOSE_BUDGET 200000
#define KL_MAXSIDE 16  /* killer's largest side (rules.py CAGE_MAX_SIDE): digit sets < 2^16 */

typedef struct {
    int k, total;                 /* in: the cells and their sum */
    int cells[KL_MAXCELLS];
    dmask supp[KL_MAXCELLS];      /* out: the digits each cell can take */
    int clique;                   /* out: every two cells are peers */
    dmask required;               /* out (clique): the digits in every set that makes it */
    int ncombo;                   /* out (clique): the digit sets that make it */
    dmask combo[KL_MAXCOMBO];     /* the first KL_MAXCOMBO of them, ascending */
} ksum;

static int kl_digit_sum(dmask m) {
    int t = 0, d0;
    DM_FOREACH(d0, m) t += d0 + 1;
    return t;
}

/* Whether every two of the cells are peers. */
static int kl_is_clique(const lgeo *g, const int *cells, int k) {
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (!cs_has(&g->peer_mask[cells[i]], cells[j])) return 0;
    return 1;
}

/* Whether r more different digits, none in `used`, can bring `sum` to `total`. */
static int kl_reachable(int n, dmask used, int sum, int r, int total) {
    int lo = sum, hi = sum, got = 0;
    for (int d = 1; d <= n && got < r; d++) if (!(used >> (d - 1) & 1)) { lo += d; got++; }
    if (got < r) return 0;
    got = 0;
    for (int d = n; d >= 1 && got < r; d--) if (!(used >> (d - 1) & 1)) { hi += d; got++; }
    return lo <= total && total <= hi;
}

/* A set of digit sets (masks below 2^n): a list and a bitmap to find them in. */
typedef struct { dmask *a; int len; uint64_t *bits; } klset;

static inline int kls_has(const klset *x, dmask m) { return (int)(x->bits[m >> 6] >> (m & 63) & 1); }
static inline void kls_add(klset *x, dmask m) {
    if (kls_has(x, m)) return;
    x->bits[m >> 6] |= (uint64_t)1 << (m & 63);
    x->a[x->len++] = m;
}

/* Up to this side the layers of kl_solve_clique live on the stack (C(9, i) <= 126 sets a
 * layer, 512 sets in 9 words): every step of a 9x9 killer asks for them, and allocating them
 * (the bitmaps zeroed) took a tenth of a killer's rating. */
#define KL_STACK_N 9
#define KL_STACK_CAP 126
#define KL_STACK_WORDS ((1 << KL_STACK_N) / 64 + 1)

/* Different digits for every cell: the layers of digit sets. 1 when the sum can be made, 0
 * when not, -1 when memory ran out. */
static int kl_solve_clique(const lstate *s, ksum *q) {
    int n = s->g->n, k = q->k;
    size_t nsets = (size_t)1 << n, words = nsets / 64 + 1;
    /* a layer holds at most C(n, i) sets, i <= k */
    size_t cap = 1;
    for (int i = 1, c = 1; i <= k; i++) { c = c * (n - i + 1) / i; if ((size_t)c > cap) cap = (size_t)c; }
    klset layer_s[KL_STACK_N + 1];
    dmask store_s[(KL_STACK_N + 1) * KL_STACK_CAP];
    uint64_t bits_s[(KL_STACK_N + 1) * KL_STACK_WORDS];
    int small = n <= KL_STACK_N;
    klset *layer = small ? layer_s : calloc((size_t)k + 1, sizeof(klset));
    dmask *store = small ? store_s : malloc(sizeof(dmask) * cap * ((size_t)k + 1));
    uint64_t *bits = small ? bits_s : calloc(words * ((size_t)k + 1), sizeof(uint64_t));
    int result = -1;
    if (!layer || !store || !bits) goto done;
    if (small) {
        memset(layer_s, 0, sizeof(klset) * ((size_t)k + 1));
        memset(bits_s, 0, sizeof(uint64_t) * words * ((size_t)k + 1));
    }
    for (int i = 0; i <= k; i++) { layer[i].a = store + cap * (size_t)i; layer[i].bits = bits + words * (size_t)i; }
    kls_add(&layer[0], 0);
    for (int i = 0; i < k; i++) {
        dmask cand = s->cand[q->cells[i]];
        for (int j = 0; j < layer[i].len; j++) {
            dmask m = layer[i].a[j];
            int sum = kl_digit_sum(m), d0;
            DM_FOREACH(d0, cand & ~m) {
                dmask m2 = m | (dmask)1 << d0;
                if (kl_reachable(n, m2, sum + d0 + 1, k - i - 1, q->total)) kls_add(&layer[i + 1], m2);
            }
        }
    }
    /* backwards: keep the sets that lead to the total; layer i + 1's bitmap becomes "good" */
    klset *last = &layer[k];
    int keep = 0;
    q->ncombo = 0;
    q->required = ~(dmask)0;
    for (int j = 0; j < last->len; j++) {
        dmask m = last->a[j];
        last->bits[m >> 6] &= ~((uint64_t)1 << (m & 63));
        if (kl_digit_sum(m) != q->total) continue;
        last->a[keep++] = m;
        last->bits[m >> 6] |= (uint64_t)1 << (m & 63);
    }
    last->len = keep;
    if (!keep) { result = 0; goto done; }
    for (int i = k - 1; i >= 0; i--) {
        dmask cand = s->cand[q->cells[i]], supp = 0;
        klset *here = &layer[i], *next = &layer[i + 1];
        int kept = 0;
        for (int j = 0; j < here->len; j++) {
            dmask m = here->a[j];
            int good = 0, d0;
            DM_FOREACH(d0, cand & ~m) if (kls_has(next, m | (dmask)1 << d0)) { supp |= (dmask)1 << d0; good = 1; }
            here->bits[m >> 6] &= ~((uint64_t)1 << (m & 63));
            if (good) { here->a[kept++] = m; here->bits[m >> 6] |= (uint64_t)1 << (m & 63); }
        }
        here->len = kept;
        q->supp[i] = supp;
    }
    /* the combinations, ascending (insertion into the short list) */
    for (int j = 0; j < last->len; j++) {
        dmask m = last->a[j];
        q->required &= m;
        if (q->ncombo < KL_MAXCOMBO) {
            int at = q->ncombo;
            while (at > 0 && q->combo[at - 1] > m) { q->combo[at] = q->combo[at - 1]; at--; }
            q->combo[at] = m;
        }
        q->ncombo++;
    }
    result = 1;
done:
    if (!small) { free(layer); free(store); free(bits); }
    return result;
}

typedef struct {
    const lstate *s;
    const ksum *q;
    int digit[KL_MAXCELLS];
    int lo[KL_MAXCELLS + 1], hi[KL_MAXCELLS + 1];  /* least and most the cells from i on add */
    dmask supp[KL_MAXCELLS];
    long nodes;
} klsearch;

static void kl_loose_walk(klsearch *w, int i, int sum) {
    const ksum *q = w->q;
    if (w->nodes > KL_LOOSE_BUDGET) return;
    w->nodes++;
    if (i == q->k) {
        if (sum == q->total)
            for (int j = 0; j < q->k; j++) w->supp[j] |= (dmask)1 << (w->digit[j] - 1);
        return;
    }
    if (sum + w->lo[i] > q->total || sum + w->hi[i] < q->total) return;
    int cell = q->cells[i], d0;
    DM_FOREACH(d0, w->s->cand[cell]) {
        int ok = 1;
        for (int j = 0; j < i && ok; j++)
            if (w->digit[j] == d0 + 1 && cs_has(&w->s->g->peer_mask[cell], q->cells[j])) ok = 0;
        if (!ok) continue;
        w->digit[i] = d0 + 1;
        kl_loose_walk(w, i + 1, sum + d0 + 1);
    }
}

/* Cells with the peer rule between some pairs only: 1 when the sum can be made, 0 when not
 * (or when the search is too long to be one a person makes). */
static int kl_solve_loose(const lstate *s, ksum *q) {
    if (q->k > KL_LOOSE_MAX) return 0;
    klsearch w;
    memset(&w, 0, sizeof w);
    w.s = s; w.q = q;
    for (int i = q->k - 1; i >= 0; i--) {
        dmask c = s->cand[q->cells[i]];
        if (!c) return 0;
        w.lo[i] = w.lo[i + 1] + dm_low(c) + 1;
        w.hi[i] = w.hi[i + 1] + 64 - __builtin_clzll(c);
    }
    kl_loose_walk(&w, 0, 0);
    if (w.nodes > KL_LOOSE_BUDGET) return 0;
    int any = 0;
    for (int i = 0; i < q->k; i++) { q->supp[i] = w.supp[i]; any |= w.supp[i] != 0; }
    q->ncombo = 0;
    q->required = 0;
    return any;
}

/* The support of each cell of q (and, for a clique, its combinations): 1 when the sum can be
 * made, 0 when it cannot (a broken position, or too long a search), -1 out of memory. */
static int kl_solve(const lstate *s, ksum *q) {
    if (q->k < 1 || s->g->n > KL_MAXSIDE) return 0;
    for (int i = 0; i < q->k; i++) if (!s->cand[q->cells[i]]) return 0;
    q->clique = kl_is_clique(s->g, q->cells, q->k);
    return q->clique ? kl_solve_clique(s, q) : kl_solve_loose(s, q);
}

/* Build the step of a solved sum (after lstep_begin: the step's placements and eliminations
 * go in here): a cell left one digit that it did not have alone is placed (a sum of one cell
 * always places: its digit is the sum), the other candidates outside the support are
 * eliminated. Whether the step changes anything. */
static int kl_effects(const lstate *s, lsink *out, const ksum *q) {
    int changed = 0;
    for (int i = 0; i < q->k; i++) {
        int cell = q->cells[i];
        dmask c = s->cand[cell], sp = q->supp[i] & c;
        if (dm_single(sp) && (c != sp || q->k == 1)) {
            lstep_place(out, cell, dm_low(sp) + 1);
            changed = 1;
        }
    }
    for (int i = 0; i < q->k; i++) {
        int cell = q->cells[i], d0;
        dmask c = s->cand[cell], sp = q->supp[i] & c;
        if (dm_single(sp) && (c != sp || q->k == 1)) continue;
        DM_FOREACH(d0, c & ~sp) { lstep_elim(out, cell, d0 + 1); changed = 1; }
    }
    return changed;
}

/* Whether kl_effects would change anything (to skip a step before it is begun). */
static int kl_changes(const lstate *s, const ksum *q) {
    for (int i = 0; i < q->k; i++) {
        dmask c = s->cand[q->cells[i]], sp = q->supp[i] & c;
        if (c != sp || q->k == 1) return 1;
    }
    return 0;
}
