/* The killer generator (part of _engine.c's translation unit, included before its method table).
 *
 * From a random complete grid of the rules without cages, a random layout of connected cages
 * (sizes lo..hi, the digits of each different in the grid) is drawn, and refined until the
 * puzzle of its sums has one solution: while a second solution exists, a cage holding a cell
 * where it differs is split (a random connected piece holding that cell comes off it).  Asked
 * for minimal layouts, it then merges side-touching cages (digits different, hi cells at most)
 * while the puzzle stays unique, until no such pair can merge: a layout is "minimal in cages"
 * when no two side-touching cages can be merged so.  With a symmetry (its maps but the
 * identity), every cage's images are cages too: cages grow, split and merge with their images.
 * Givens, when asked, are whole orbits of cells at random, placed before the layout is
 * refined. */

typedef struct {
    const Geo *base;     /* the rules without cages */
    Work *w;             /* a workspace on the base's shape (its geometry swapped per search) */
    Rng *rng;
    int n, N, lo, hi, nmaps;
    const int *maps;     /* nmaps * N: each map's image of every cell */
    const uint8_t *sol;  /* the solution */
    const uint8_t *givens;
    uint64_t budget;     /* nodes a search, 0: no limit */
    int aborted;         /* the last search ran past the budget */
    int *of;             /* the layout: each cell's cage id */
    int next_id;         /* ids given so far (ids are never reused) */
    int stamp_now, *stamp; /* marks of cells (a fresh stamp_now clears every mark) */
} KGen;

static int kg_mark(KGen *K) { return ++K->stamp_now; }

/* The cage ints (as the rules blob lists them: count, then each cage's size, sum and cells, by
 * first cell) of the layout into ints (room 1 + 3N).  Return how many ints. */
static int kg_ints(KGen *K, const int *of, int32_t *ints)
{
    int N = K->N, at = 1, count = 0, m = kg_mark(K);
    for (int s = 0; s < N; s++) {
        if (K->stamp[s] == m)
            continue;
        int size_at = at, total = 0;
        at += 2;
        for (int c = s; c < N; c++)
            if (of[c] == of[s]) {
                K->stamp[c] = m;
                ints[at++] = c;
                total += K->sol[c];
            }
        ints[size_at] = at - size_at - 2;
        ints[size_at + 1] = total;
        count++;
    }
    ints[0] = count;
    return at;
}

/* A killer geometry: the base's with the cages of `ints` (trusted: made by kg_ints), derived as
 * geo_from_blob derives them.  NULL when memory runs out (with an exception set). */
static Geo *kg_geo(const Geo *b, const int32_t *ints)
{
    int n = b->n, N = b->N;
    Geo *g = calloc(1, sizeof(Geo));
    if (!g)
        return (Geo *)PyErr_NoMemory();
    *g = *b;
    g->next = NULL;
    g->r9 = NULL; /* (the bitboard search knows no cages; the base keeps its own) */
    g->units = malloc(sizeof(int) * (size_t)b->nunits * (size_t)n);
    g->peers = malloc(sizeof(int) * (size_t)N * (size_t)b->npeers);
    g->adj = b->adj ? malloc(sizeof(int) * (size_t)N * 4) : NULL;
    g->pmask = NULL;
    int ncages = ints[0], cells = 0;
    for (int i = 0, at = 1; i < ncages; i++) {
        cells += ints[at];
        at += 2 + ints[at];
    }
    g->cage_start = malloc(sizeof(int) * ((size_t)ncages + 1));
    g->cage_cells = malloc(sizeof(int) * (size_t)cells);
    g->cage_sum = malloc(sizeof(int) * (size_t)ncages);
    g->cage_of = NULL;
    if (!g->units || !g->peers || (b->adj && !g->adj) || !g->cage_start || !g->cage_cells ||
        !g->cage_sum || cage_tables(g) < 0) {
        geo_free(g);
        return (Geo *)PyErr_NoMemory();
    }
    memcpy(g->units, b->units, sizeof(int) * (size_t)b->nunits * (size_t)n);
    memcpy(g->peers, b->peers, sizeof(int) * (size_t)N * (size_t)b->npeers);
    if (b->adj)
        memcpy(g->adj, b->adj, sizeof(int) * (size_t)N * 4);
    int k = 0;
    for (int i = 0, at = 1; i < ncages; i++) {
        int size = ints[at];
        g->cage_start[i] = k;
        g->cage_sum[i] = ints[at + 1];
        for (int j = 0; j < size; j++)
            g->cage_cells[k++] = ints[at + 2 + j];
        at += 2 + size;
    }
    g->cage_start[ncages] = k;
    g->ncages = ncages;
    if (killer_derive(g) < 0 || geo_pmask(g) < 0) {
        geo_free(g);
        return NULL;
    }
    return g;
}

/* Whether the layout `of` (with the givens) makes a unique puzzle: 1 yes, 0 no (`other` then
 * holds a second solution, differing from K->sol), 2 the search ran past the budget, -1 out of
 * memory (exception set). */
static int kg_unique(KGen *K, const int *of, uint8_t *other)
{
    int32_t ints[1 + 3 * CAGE_MAX_SIDE * CAGE_MAX_SIDE];
    uint8_t first[CAGE_MAX_SIDE * CAGE_MAX_SIDE];
    kg_ints(K, of, ints);
    Geo *g = kg_geo(K->base, ints);
    if (!g)
        return -1;
    Ctx ctx = {0};
    ctx.limit = 2;
    ctx.solution = first;
    ctx.second = other;
    ctx.prefer = K->sol;
    ctx.node_limit = K->budget;
    K->w->g = g;
    cage_forget(K->w);
    int status = run_general(K->w, K->givens, &ctx, -1, 0);
    K->w->g = K->base;
    geo_free(g);
    if (status < 0) {
        PyErr_NoMemory();
        return -1;
    }
    if (ctx.aborted)
        return 2;
    if (ctx.count < 2)
        return 1;
    if (memcmp(other, K->sol, (size_t)K->N) == 0)
        memcpy(other, first, (size_t)K->N);
    return 0;
}

/* The image of cell c under map i (-1: the identity). */
static inline int kg_image(const KGen *K, int i, int c) { return i < 0 ? c : K->maps[(size_t)i * K->N + c]; }

/* Whether the cells set[0..k) (marked with mark) may be a cage with its images: each image
 * equal to it or apart from it, and the digits of each different. */
static int kg_fits(KGen *K, const int *set, int k, int mark)
{
    for (int i = -1; i < K->nmaps; i++) {
        int inside = 0;
        uint32_t digits = 0;
        for (int j = 0; j < k; j++) {
            int c = kg_image(K, i, set[j]);
            inside += K->stamp[c] == mark;
            digits |= UINT32_C(1) << K->sol[c];
        }
        if ((inside && inside != k) || popcount32(digits) != k)
            return 0;
    }
    return 1;
}

/* Give the cells set[0..k) and their images new cage ids (an image equal to the set gets the
 * set's). */
static void kg_commit(KGen *K, int *of, const int *set, int k)
{
    int m = kg_mark(K);
    for (int i = -1; i < K->nmaps; i++) {
        if (K->stamp[kg_image(K, i, set[0])] == m)
            continue; /* an image already given */
        int id = K->next_id++;
        for (int j = 0; j < k; j++) {
            int c = kg_image(K, i, set[j]);
            of[c] = id;
            K->stamp[c] = m;
        }
    }
}

/* The cells side-touching c, into near[0..4); return how many. */
static int kg_near(int n, int c, int *near)
{
    int r = c / n, col = c % n, k = 0;
    if (r)
        near[k++] = c - n;
    if (col)
        near[k++] = c - 1;
    if (col + 1 < n)
        near[k++] = c + 1;
    if (r + 1 < n)
        near[k++] = c + n;
    return k;
}

/* Without a symmetry: put the cells set[0..k) (a cage that could not grow to lo cells) into a
 * side-touching cage that takes them (hi cells at most, digits different).  1 done, else 0. */
static int kg_absorb(KGen *K, int *of, const int *set, int k)
{
    int near[4];
    if (K->nmaps)
        return 0;
    for (int j = 0; j < k; j++)
        for (int e = kg_near(K->n, set[j], near), q = 0; q < e; q++) {
            int id = of[near[q]], size = 0;
            if (id < 0)
                continue;
            uint32_t digits = 0;
            for (int c = 0; c < K->N; c++)
                if (of[c] == id) {
                    size++;
                    digits |= UINT32_C(1) << K->sol[c];
                }
            for (int i = 0; i < k; i++)
                digits |= UINT32_C(1) << K->sol[set[i]];
            if (size + k > K->hi || popcount32(digits) != size + k)
                continue;
            for (int i = 0; i < k; i++)
                of[set[i]] = id;
            return 1;
        }
    return 0;
}

/* Whether the cells set[0..k) (marked with mark) are connected. */
static int kg_joined(KGen *K, const int *set, int k, int mark)
{
    int todo[CAGE_MAX_SIDE + 8], head = 0, tail = 0, near[4], seen = kg_mark(K);
    todo[tail++] = set[0];
    K->stamp[set[0]] = seen;
    while (head < tail)
        for (int e = kg_near(K->n, todo[head++], near), q = 0; q < e; q++) {
            int y = near[q], in = 0;
            for (int j = 0; j < k && !in; j++)
                in = set[j] == y;
            if (in && K->stamp[y] != seen) {
                K->stamp[y] = seen;
                todo[tail++] = y;
            }
        }
    for (int j = 0; j < k; j++)
        K->stamp[set[j]] = mark; /* (the marks of the set, back) */
    return tail == k;
}

/* Draw a random layout into of.  1, or 0 when a cage could not grow to lo cells. */
static int kg_layout(KGen *K, int *of)
{
    int N = K->N, n = K->n;
    int order[CAGE_MAX_SIDE * CAGE_MAX_SIDE], set[CAGE_MAX_SIDE + 8], cand[4 * CAGE_MAX_SIDE];
    for (int c = 0; c < N; c++) {
        of[c] = -1;
        order[c] = c;
    }
    for (int i = N - 1; i > 0; i--) {
        int j = (int)rng_below(K->rng, (uint32_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int o = 0; o < N; o++) {
        int s = order[o];
        if (of[s] >= 0)
            continue;
        int want = K->lo + (int)rng_below(K->rng, (uint32_t)(K->hi - K->lo + 1)), k = 1;
        int mark = kg_mark(K);
        set[0] = s;
        K->stamp[s] = mark;
        if (!kg_fits(K, set, 1, mark))
            return 0; /* (an image of one cell that is a different cell: never) */
        while (k < want) {
            int nc = 0, near[4];
            for (int j = 0; j < k; j++)
                for (int e = kg_near(n, set[j], near), q = 0; q < e; q++) {
                    int x = near[q];
                    if (of[x] >= 0 || K->stamp[x] == mark)
                        continue;
                    int dup = 0;
                    for (int t = 0; t < nc && !dup; t++)
                        dup = cand[t] == x;
                    if (!dup)
                        cand[nc++] = x;
                }
            int added = 0;
            while (nc && !added) {
                int t = (int)rng_below(K->rng, (uint32_t)nc), x = cand[t];
                cand[t] = cand[--nc];
                set[k] = x;
                K->stamp[x] = mark;
                if (kg_fits(K, set, k + 1, mark)) {
                    k++;
                    added = 1;
                    continue;
                }
                /* with a symmetry: x with its images, when they touch the cage too */
                int kk = k + 1;
                for (int i = 0; i < K->nmaps && kk <= want; i++) {
                    int y = kg_image(K, i, x);
                    if (K->stamp[y] != mark) {
                        set[kk++] = y;
                        K->stamp[y] = mark;
                    }
                }
                if (kk > k + 1 && kk <= want && kg_joined(K, set, kk, mark) && kg_fits(K, set, kk, mark)) {
                    k = kk;
                    added = 1;
                } else {
                    for (int j = k; j < kk; j++)
                        K->stamp[set[j]] = 0;
                }
            }
            if (!added)
                break;
        }
        if (k < K->lo && !kg_absorb(K, of, set, k))
            return 0;
        if (k >= K->lo)
            kg_commit(K, of, set, k);
    }
    return 1;
}

/* Re-label the cells of cage `id` that `in` says (in[c] == want) as connected components, each
 * a new id.  Return the size of the smallest. */
static int kg_components(KGen *K, int *of, int id, const uint8_t *in, int want, const int *cells, int k)
{
    int n = K->n, smallest = K->N, todo[CAGE_MAX_SIDE], near[4];
    int m = kg_mark(K);
    for (int j = 0; j < k; j++) {
        int s = cells[j];
        if (in[s] != want || K->stamp[s] == m)
            continue;
        int nid = K->next_id++, head = 0, tail = 0;
        todo[tail++] = s;
        K->stamp[s] = m;
        while (head < tail) {
            int c = todo[head++];
            of[c] = nid;
            for (int e = kg_near(n, c, near), q = 0; q < e; q++) {
                int x = near[q];
                if (of[x] == id && in[x] == want && K->stamp[x] != m) {
                    K->stamp[x] = m;
                    todo[tail++] = x;
                }
            }
        }
        if (tail < smallest)
            smallest = tail;
    }
    return smallest;
}

/* Split the cage of cell x (with its images): a random connected piece of it holding x, and
 * that piece's images, come off the cages they are in; what is left of each falls into its
 * connected components.  Return the smallest new cage's size. */
static int kg_split(KGen *K, int *of, int x)
{
    int N = K->N, n = K->n, id = of[x];
    int k = 0, piece[CAGE_MAX_SIDE], p = 1, near[4];
    for (int c = 0; c < N; c++)
        k += of[c] == id;
    if (k < 2 * K->lo)
        return 0; /* no piece leaves lo cells on both sides */
    int want = K->lo + (int)rng_below(K->rng, (uint32_t)(k - 2 * K->lo + 1));
    int m = kg_mark(K);
    piece[0] = x;
    K->stamp[x] = m;
    while (p < want) {
        int cand[4 * CAGE_MAX_SIDE], nc = 0;
        for (int j = 0; j < p; j++)
            for (int e = kg_near(n, piece[j], near), q = 0; q < e; q++)
                if (of[near[q]] == id && K->stamp[near[q]] != m)
                    cand[nc++] = near[q];
        if (!nc)
            break;
        int y = cand[rng_below(K->rng, (uint32_t)nc)];
        K->stamp[y] = m;
        piece[p++] = y;
    }
    /* the cut: the piece and its images, as a flag a cell */
    uint8_t cut[CAGE_MAX_SIDE * CAGE_MAX_SIDE] = {0};
    for (int i = -1; i < K->nmaps; i++)
        for (int j = 0; j < p; j++)
            cut[kg_image(K, i, piece[j])] = 1;
    int smallest = N, before = K->next_id;
    for (int c = 0; c < N; c++) {
        if (!cut[c] || of[c] >= before)
            continue; /* not cut, or in a cage made by this split */
        int old = of[c], mine[CAGE_MAX_SIDE], mk = 0;
        for (int e = 0; e < N; e++)
            if (of[e] == old)
                mine[mk++] = e;
        int a = kg_components(K, of, old, cut, 1, mine, mk);
        int b = mk;
        for (int j = 0; j < mk; j++)
            if (!cut[mine[j]]) {
                b = kg_components(K, of, old, cut, 0, mine, mk);
                break;
            }
        if (a < smallest)
            smallest = a;
        if (b < smallest)
            smallest = b;
    }
    if (of[x] != id) {
        int left = 0;
        for (int c = 0; c < N; c++)
            left += of[c] == of[x];
        if (left < k)
            return smallest;
    }
    /* the piece and its images were the whole cage: every cell of the cut on its own */
    for (int c = 0; c < N; c++)
        if (cut[c])
            of[c] = K->next_id++;
    return 1;
}

/* kg_split, drawn again (up to 8 times) while it leaves a cage below lo cells.  Return the
 * smallest new cage's size (below lo: every draw did). */
static int kg_split_lo(KGen *K, int *of, int x)
{
    if (K->lo == 1)
        return kg_split(K, of, x);
    int trial[CAGE_MAX_SIDE * CAGE_MAX_SIDE], smallest = 0;
    for (int t = 0; t < 8 && smallest < K->lo; t++) {
        memcpy(trial, of, sizeof(int) * (size_t)K->N);
        smallest = kg_split(K, trial, x);
    }
    if (smallest >= K->lo)
        memcpy(of, trial, sizeof(int) * (size_t)K->N);
    return smallest;
}

/* Merge side-touching cages while the puzzle stays unique, until no pair can merge (see the
 * top of this file): passes over the pairs in a random order, until a pass merges none.  Return 1 when that was decided, 0 when a search ran past its budget (the
 * pair was left apart: minimality is not claimed), -1 out of memory. */
static int kg_minimise(KGen *K, int *of, uint8_t *other)
{
    int N = K->N, n = K->n, decided = 1, near[4];
    int *trial = malloc(sizeof(int) * (size_t)N);
    int *pairs = malloc(sizeof(int) * (size_t)N * 4);
    if (!trial || !pairs) {
        free(trial);
        free(pairs);
        PyErr_NoMemory();
        return -1;
    }
    for (;;) {
        int np = 0, progress = 0;
        /* each side-touching pair of cages once, as (a cell of one, a cell of the other) */
        for (int c = 0; c < N; c++)
            for (int e = kg_near(n, c, near), q = 0; q < e; q++) {
                int x = near[q];
                if (x < c || of[x] == of[c])
                    continue;
                int dup = 0;
                for (int t = 0; t < np && !dup; t++)
                    dup = of[pairs[2 * t]] == of[c] && of[pairs[2 * t + 1]] == of[x];
                if (!dup) {
                    pairs[2 * np] = c;
                    pairs[2 * np + 1] = x;
                    np++;
                }
            }
        for (int i = np - 1; i > 0; i--) {
            int j = (int)rng_below(K->rng, (uint32_t)i + 1);
            for (int h = 0; h < 2; h++) {
                int t = pairs[2 * i + h];
                pairs[2 * i + h] = pairs[2 * j + h];
                pairs[2 * j + h] = t;
            }
        }
        for (int t = 0; t < np && !sudokit_stopped; t++) {
            int a = of[pairs[2 * t]], b = of[pairs[2 * t + 1]];
            if (a == b)
                continue; /* merged by an earlier pair of this pass */
            int set[2 * CAGE_MAX_SIDE], k = 0, mark = kg_mark(K);
            for (int c = 0; c < N && k <= K->hi; c++)
                if (of[c] == a || of[c] == b) {
                    set[k++] = c;
                    K->stamp[c] = mark;
                }
            if (k > K->hi || !kg_fits(K, set, k, mark))
                continue;
            memcpy(trial, of, sizeof(int) * (size_t)N);
            for (int i = -1; i < K->nmaps; i++) {
                int ia = trial[kg_image(K, i, pairs[2 * t])], ib = trial[kg_image(K, i, pairs[2 * t + 1])];
                if (ia == ib)
                    continue; /* an image merged already: the pair itself */
                int id = K->next_id++;
                for (int c = 0; c < N; c++)
                    if (trial[c] == ia || trial[c] == ib)
                        trial[c] = id;
            }
            int r = kg_unique(K, trial, other);
            if (r < 0) {
                decided = -1;
                break;
            }
            if (r == 2)
                decided = 0;
            if (r == 1) {
                memcpy(of, trial, sizeof(int) * (size_t)N);
                progress = 1;
            }
        }
        if (!progress || decided < 0 || sudokit_stopped)
            break;
    }
    free(trial);
    free(pairs);
    return decided;
}

/* Place `clues` givens, whole orbits at random.  1, or 0 when the orbits drawn cannot make
 * exactly that many. */
static int kg_givens(KGen *K, uint8_t *givens, int clues)
{
    int N = K->N, order[CAGE_MAX_SIDE * CAGE_MAX_SIDE], placed = 0;
    memset(givens, 0, (size_t)N);
    for (int c = 0; c < N; c++)
        order[c] = c;
    for (int i = N - 1; i > 0; i--) {
        int j = (int)rng_below(K->rng, (uint32_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int o = 0; o < N && placed < clues; o++) {
        int c = order[o], m = kg_mark(K), size = 0;
        if (givens[c])
            continue;
        for (int i = -1; i < K->nmaps; i++) {
            int x = kg_image(K, i, c);
            if (K->stamp[x] != m) {
                K->stamp[x] = m;
                size++;
            }
        }
        if (placed + size > clues)
            continue;
        for (int i = -1; i < K->nmaps; i++) {
            int x = kg_image(K, i, c);
            givens[x] = K->sol[x];
        }
        placed += size;
    }
    return placed == clues;
}

/* One puzzle: 1 made (of, givens), 0 this layout failed (a cage below lo cells, or a search
 * past its budget: draw another), -1 out of memory.  *minimal: 1 proven minimal in cages. */
static int kg_make(KGen *K, int *of, uint8_t *givens, int clues, int minimal, int *is_minimal)
{
    uint8_t other[CAGE_MAX_SIDE * CAGE_MAX_SIDE];
    int N = K->N, diff[CAGE_MAX_SIDE * CAGE_MAX_SIDE];
    *is_minimal = 0;
    K->next_id = 0;
    if (!kg_givens(K, givens, clues) || !kg_layout(K, of))
        return 0;
    for (;;) {
        int r = kg_unique(K, of, other);
        if (r < 0)
            return -1;
        if (r == 2 || sudokit_stopped)
            return 0;
        if (r == 1)
            break;
        int nd = 0;
        for (int c = 0; c < N; c++)
            if (other[c] != K->sol[c])
                diff[nd++] = c;
        int x = diff[rng_below(K->rng, (uint32_t)nd)];
        if (kg_split_lo(K, of, x) < K->lo)
            return 0;
    }
    if (minimal) {
        int r = kg_minimise(K, of, other);
        if (r < 0)
            return -1;
        *is_minimal = r;
    }
    return 1;
}

/* killer_generate(box_rows, box_cols, seed, geometry, lo, hi, maps, clues, minimal, budget,
 *                 tries) -> (cages, givens, solution, minimal) | None | int */
static PyObject *py_killer_generate(PyObject *self, PyObject *args)
{
    int br, bc, lo, hi, clues, minimal, tries;
    unsigned long long seed, budget;
    Py_buffer blob, mb;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiKy*iiy*ipKi:killer_generate", &br, &bc, &seed, &blob, &lo, &hi, &mb,
                          &clues, &minimal, &budget, &tries))
        return NULL;
    PyObject *result = NULL;
    Geo *base = NULL;
    int *maps = NULL, *of = NULL, *stamp = NULL;
    int n = sudokit_check_shape(br, bc), N = n * n;
    if (n < 0)
        goto done;
    if (n > CAGE_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "killer_generate: side %d (cages are taken up to side %d)", n,
                     CAGE_MAX_SIDE);
        goto done;
    }
    if (lo < 1 || hi < lo || hi > n || clues < 0 || clues > N || tries < 1 ||
        mb.len % (2 * (Py_ssize_t)N)) {
        PyErr_SetString(PyExc_ValueError, "killer_generate: arguments out of range");
        goto done;
    }
    base = geo_from_blob(br, bc, blob.buf, blob.len);
    if (!base)
        goto done;
    if (base->ncages) {
        PyErr_SetString(PyExc_ValueError, "killer_generate: the geometry has cages already");
        goto done;
    }
    /* The grid, too, from the general path the cage searches run on this workspace: with the
     * bitboard search's grids, layouts minimal in cages took four times as long (the median
     * one half as long again, the slowest seconds), though plain layouts did not. */
    free(base->r9);
    base->r9 = NULL;
    int nmaps = (int)(mb.len / (2 * N));
    maps = malloc(sizeof(int) * ((size_t)nmaps * N + 1));
    of = malloc(sizeof(int) * (size_t)N);
    stamp = calloc((size_t)N, sizeof(int));
    if (!maps || !of || !stamp || cage_tables(base) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)nmaps * N; i++) {
        const uint8_t *p = (const uint8_t *)mb.buf + 2 * i;
        maps[i] = p[0] | p[1] << 8;
        if (maps[i] >= N) {
            PyErr_SetString(PyExc_ValueError, "killer_generate: a map's cell out of range");
            goto done;
        }
    }
    uint8_t sol[CAGE_MAX_SIDE * CAGE_MAX_SIDE], givens[CAGE_MAX_SIDE * CAGE_MAX_SIDE];
    int made = 0, is_minimal = 0, grid = -1;
    Work w;
    Rng rng;
    rng_seed(&rng, seed ^ UINT64_C(0x6b696c6c65726b67));
    KGen K = {base, &w, &rng, n, N, lo, hi, nmaps, maps, sol, givens, budget, 0, of, 0, 0, stamp};
    int ok = work_init(&w, base);
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS;
    if (ok) {
        grid = random_grid(&w, seed, sol, 0);
        for (int t = 0; grid == 0 && t < tries && !made && !sudokit_stopped; t++)
            made = kg_make(&K, of, givens, clues, minimal, &is_minimal);
    }
    Py_END_ALLOW_THREADS;
    work_free(&w);
    if (sudokit_interrupt_end())
        goto done;
    if (!ok || grid < 0 || made < 0) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    if (grid > 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (!made) {
        result = PyLong_FromLong(tries);
        goto done;
    }
    int32_t ints[1 + 3 * CAGE_MAX_SIDE * CAGE_MAX_SIDE];
    int count = kg_ints(&K, of, ints);
    result = Py_BuildValue("(y#y#y#i)", (const char *)ints, (Py_ssize_t)count * 4, (const char *)givens,
                           (Py_ssize_t)N, (const char *)sol, (Py_ssize_t)N, is_minimal);
done:
    free(maps);
    free(of);
    free(stamp);
    geo_free(base);
    PyBuffer_Release(&blob);
    PyBuffer_Release(&mb);
    return result;
}
