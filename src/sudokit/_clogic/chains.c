/*
 * Chains: Sudoku Explainer's chaining engine (forcing chains and cycles, Nishio, multiple,
 * dynamic, dynamic (+) and nested forcing chains), part of sudokit._logic.
 *
 * The same contract as the pure-Python reference, tests/logic/pyref/chain_engine.py (read its
 * docstring for the terms): one "producer" (multiple, dynamic, nishio, nesting) run on a
 * candidate grid finds its hints, and the finder emits the one Sudoku Explainer takes (the
 * cheapest by unrounded difficulty, then complexity, sort key and discovery order) as a step
 * with the fields tests/logic/pyref/chains.py builds. Every search order, tie-break and node
 * count follows the reference line by line, because the hint chosen and its rating depend on
 * them. Everything here is prefixed ch_ (the engine keeps its own types and tables).
 *
 * Terms used below:
 *   cand  = cell * n + digit index (0-based)
 *   key   = cand * 2 + on           (a potential: a candidate with a truth value)
 *   node  = a potential with its parents and cause, in a per-engine pool (nodes never change
 *           after creation; parents are stored contiguously in a parallel pool)
 *   set   = Sudoku Explainer's LinkedSet of one sign: cand -> node, iterated in insertion order
 *
 * Nesting (nesting >= 2) runs inner engines on the scratch grid; an "advanced" node that an inner
 * chaining hint produced records that hint's complexity and a signature of its chains, which
 * is all the outer hint needs (its node count and FullChain de-duplication).
 */
#include <math.h>
#include <stdatomic.h>

typedef uint64_t ch_mask_t;

#define CH_CAUSE_NONE (-1)
#define CH_CAUSE_CELL (-2)
#define CH_CAUSE_ADV (-3)

enum { CH_K_CYCLE = 0, CH_K_FORCING, CH_K_BINARY, CH_K_CELL, CH_K_REGION };

static inline int ch_popcount(ch_mask_t m) { return dm_count(m); }
/* More than one bit set. */
static inline int ch_many(ch_mask_t m) { return (m & (m - 1)) != 0; }
/* Exactly two bits set (cheaper than a popcount on CPUs without the instruction). */
static int ch_two_bits(ch_mask_t m) { ch_mask_t r = m & (m - 1); return r && !(r & (r - 1)); }
static int ch_lowbit(ch_mask_t m) { return __builtin_ctzll(m); }

/* ------------------------------------------------------------------ geometry */

/* Grids up to this many candidates get the reachability filter (its tables are ncand^2 bits)
 * and bit sets of candidates (the geometry's peer sets, the closures' sets). */
#define CH_REACH_MAX 4096

/* A candidate's places in its units, for the hot loops: for its box, row and column u (t = 0,
 * 1, 2), unit[t] = u, pos[t] = u * n + digit, ucells[t] = u * n, idx[t] its cell's index in u. */
typedef struct {
    int cell, digit, unit[3], pos[3], ucells[3], idx[3];
} ch_CandGeo;

typedef struct {
    int br, bc, n, ncell, ncand, nunit;
    int *unit_cells;  /* nunit * n, ascending */
    int *se_units;    /* ncell * 3: box, row, column */
    int npeer;
    int *peers;       /* ncell * npeer: box (w/o cell), row outside box, column outside box */
    int *peer_unit;   /* same layout: the unit that makes the peer (box, row or column) */
    int nlock;
    int *locking;     /* nlock * 2: crossing (unit1, unit2) in SE's order */
    int npairs;
    int *pairs;       /* npairs * 2: (i, j), i < j, in SE's Permutations order */
    int *unit_index;  /* ncell * 3: the cell's index in each of its se_units */
    ch_mask_t *lock_in;  /* nlock * 2: the indexes of unit1 inside unit2, of unit2 inside unit1 */
    ch_mask_t *skip;     /* ncell * 3: per se_unit of the cell, the indexes that are not its
                            peers there (box: the cell; row, column: the cells in its box) */
    int *cell_of, *digit_of;  /* ncand: cand / n and cand % n (no division in the hot loops) */
    ch_CandGeo *cg;           /* ncand */
    int nw;                   /* words of a bit set of candidates */
    uint64_t *peerbits;       /* grids up to CH_REACH_MAX candidates: per candidate, its digit's
                                 candidates in the cell's peers (nw words each); else NULL */
} ch_Geo;

static void ch_geo_free(ch_Geo *g) {
    free(g->unit_cells); free(g->se_units); free(g->peers); free(g->peer_unit);
    free(g->locking); free(g->pairs); free(g->unit_index); free(g->lock_in); free(g->skip);
    free(g->cell_of); free(g->digit_of); free(g->peerbits); free(g->cg);
}

static int ch_cell_in_unit(const ch_Geo *g, int u, int c) {
    const int *su = g->se_units + 3 * c;
    return su[0] == u || su[1] == u || su[2] == u;
}

static int ch_geo_init(ch_Geo *g, int br, int bc) {
    int n = br * bc;
    memset(g, 0, sizeof *g);
    g->br = br; g->bc = bc; g->n = n; g->ncell = n * n; g->ncand = n * n * n; g->nunit = 3 * n;
    g->unit_cells = malloc(sizeof(int) * 3 * n * n);
    g->se_units = malloc(sizeof(int) * 3 * n * n);
    g->npeer = (n - 1) + (n - bc) + (n - br);
    g->peers = malloc(sizeof(int) * g->ncell * g->npeer);
    g->peer_unit = malloc(sizeof(int) * g->ncell * g->npeer);
    g->npairs = n * (n - 1) / 2;
    g->pairs = malloc(sizeof(int) * 2 * (g->npairs + 1));
    g->unit_index = malloc(sizeof(int) * 3 * n * n);
    g->lock_in = malloc(sizeof(ch_mask_t) * 2 * (4 * n * n + 1));
    g->skip = malloc(sizeof(ch_mask_t) * 3 * n * n);
    g->cell_of = malloc(sizeof(int) * (size_t)g->ncand);
    g->digit_of = malloc(sizeof(int) * (size_t)g->ncand);
    if (!g->unit_index || !g->lock_in || !g->skip || !g->cell_of || !g->digit_of) return -1;
    for (int cand = 0; cand < g->ncand; cand++) { g->cell_of[cand] = cand / n; g->digit_of[cand] = cand % n; }
    g->locking = malloc(sizeof(int) * 2 * (4 * n * n + 1));
    if (!g->unit_cells || !g->se_units || !g->peers || !g->peer_unit || !g->pairs || !g->locking)
        return -1;
    for (int r = 0; r < n; r++)
        for (int k = 0; k < n; k++) {
            g->unit_cells[r * n + k] = r * n + k;            /* row r */
            g->unit_cells[(n + r) * n + k] = k * n + r;      /* column r */
        }
    for (int b = 0; b < n; b++) {
        /* boxes: br rows tall, bc columns wide; n / bc boxes per band, row-major */
        int per_band = n / bc;
        int r0 = (b / per_band) * br, c0 = (b % per_band) * bc;
        int k = 0;
        for (int r = r0; r < r0 + br; r++)
            for (int c = c0; c < c0 + bc; c++) g->unit_cells[(2 * n + b) * n + k++] = r * n + c;
    }
    for (int u = 0; u < 3 * n; u++)
        for (int k = 0; k < n; k++) {
            int c = g->unit_cells[u * n + k];
            g->se_units[3 * c + (u < n ? 1 : (u < 2 * n ? 2 : 0))] = u;
        }
    for (int c = 0; c < g->ncell; c++) {
        int *pp = g->peers + c * g->npeer, *pu = g->peer_unit + c * g->npeer, k = 0;
        int b = g->se_units[3 * c], r = g->se_units[3 * c + 1], col = g->se_units[3 * c + 2];
        for (int i = 0; i < n; i++) {
            int q = g->unit_cells[b * n + i];
            if (q != c) { pp[k] = q; pu[k++] = b; }
        }
        for (int i = 0; i < n; i++) {
            int q = g->unit_cells[r * n + i];
            if (!ch_cell_in_unit(g, b, q)) { pp[k] = q; pu[k++] = r; }
        }
        for (int i = 0; i < n; i++) {
            int q = g->unit_cells[col * n + i];
            if (!ch_cell_in_unit(g, b, q)) { pp[k] = q; pu[k++] = col; }
        }
    }
    int k = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) { g->pairs[2 * k] = i; g->pairs[2 * k + 1] = j; k++; }
    /* locking pairs: (box, column), (box, row), (column, box), (row, box) */
    int kinds[4][2] = {{2, 1}, {2, 0}, {1, 2}, {0, 2}};
    k = 0;
    for (int t = 0; t < 4; t++)
        for (int a = 0; a < n; a++)
            for (int bb = 0; bb < n; bb++) {
                int u1 = kinds[t][0] * n + a, u2 = kinds[t][1] * n + bb, cross = 0;
                for (int i = 0; i < n && !cross; i++)
                    if (ch_cell_in_unit(g, u2, g->unit_cells[u1 * n + i])) cross = 1;
                if (cross) { g->locking[2 * k] = u1; g->locking[2 * k + 1] = u2; k++; }
            }
    g->nlock = k;
    for (int c = 0; c < g->ncell; c++)
        for (int t = 0; t < 3; t++) {
            int u = g->se_units[3 * c + t];
            for (int i = 0; i < n; i++) if (g->unit_cells[u * n + i] == c) g->unit_index[3 * c + t] = i;
        }
    for (int c = 0; c < g->ncell; c++) {
        int b = g->se_units[3 * c];
        g->skip[3 * c] = (ch_mask_t)1 << g->unit_index[3 * c];
        for (int t = 1; t < 3; t++) {
            int u = g->se_units[3 * c + t];
            ch_mask_t m = 0;
            for (int i = 0; i < n; i++) if (ch_cell_in_unit(g, b, g->unit_cells[u * n + i])) m |= (ch_mask_t)1 << i;
            g->skip[3 * c + t] = m;
        }
    }
    g->cg = malloc(sizeof(ch_CandGeo) * (size_t)g->ncand);
    if (!g->cg) return -1;
    for (int cand = 0; cand < g->ncand; cand++) {
        ch_CandGeo *x = g->cg + cand;
        x->cell = cand / n; x->digit = cand % n;
        for (int t = 0; t < 3; t++) {
            int u = g->se_units[3 * x->cell + t];
            x->unit[t] = u; x->pos[t] = u * n + x->digit; x->ucells[t] = u * n; x->idx[t] = g->unit_index[3 * x->cell + t];
        }
    }
    g->nw = (g->ncand + 63) / 64;
    if (g->ncand <= CH_REACH_MAX) {
        g->peerbits = calloc((size_t)g->ncand * (size_t)g->nw, sizeof(uint64_t));
        if (!g->peerbits) return -1;
        for (int cand = 0; cand < g->ncand; cand++) {
            uint64_t *pb = g->peerbits + (size_t)cand * (size_t)g->nw;
            const int *pp = g->peers + (cand / n) * g->npeer;
            for (int i = 0; i < g->npeer; i++) {
                int x = pp[i] * n + cand % n;
                pb[x >> 6] |= (uint64_t)1 << (x & 63);
            }
        }
    }
    for (k = 0; k < g->nlock; k++) {
        int u1 = g->locking[2 * k], u2 = g->locking[2 * k + 1];
        ch_mask_t in1 = 0, in2 = 0;
        for (int i = 0; i < n; i++) {
            if (ch_cell_in_unit(g, u2, g->unit_cells[u1 * n + i])) in1 |= (ch_mask_t)1 << i;
            if (ch_cell_in_unit(g, u1, g->unit_cells[u2 * n + i])) in2 |= (ch_mask_t)1 << i;
        }
        g->lock_in[2 * k] = in1; g->lock_in[2 * k + 1] = in2;
    }
    return 0;
}

/* ------------------------------------------------------------------ growable int arrays */

typedef struct { int *a; int len, cap; } ch_IVec;

/* Set when an allocation failed during this thread's current call into the engine: the search
 * then runs out harmlessly (nothing is written past what was allocated, and every count is
 * read back from what was really stored) and py_hints raises MemoryError instead of answering. */
static _Thread_local int ch_out_of_memory;

/* Make room for `extra` more ints.  Return 0, or -1 (and flag out_of_memory) when memory ran
 * out; the vector is then unchanged. */
static int ch_iv_grow(ch_IVec *v, int extra);

static inline int ch_iv_reserve(ch_IVec *v, int extra) {
    if (__builtin_expect(v->len + extra <= v->cap, 1)) return 0;
    return ch_iv_grow(v, extra);
}

/* ch_iv_reserve when the vector is full. */
static int ch_iv_grow(ch_IVec *v, int extra) {
    int cap = v->cap ? v->cap : 256;
    while (cap < v->len + extra) {
        if (cap > INT32_MAX / 2) { ch_out_of_memory = 1; return -1; }
        cap *= 2;
    }
    int *a = realloc(v->a, sizeof(int) * (size_t)cap);
    if (!a) { ch_out_of_memory = 1; return -1; }
    v->a = a; v->cap = cap;
    return 0;
}

/* Append x.  Return 0, or -1 (vector unchanged, out_of_memory set). */
static inline int ch_iv_push(ch_IVec *v, int x) {
    if (ch_iv_reserve(v, 1)) return -1;
    v->a[v->len++] = x;
    return 0;
}

/* Append the pair (x, y), both or neither.  Return 0, or -1 as iv_push. */
static int ch_iv_push2(ch_IVec *v, int x, int y) {
    if (ch_iv_reserve(v, 2)) return -1;
    v->a[v->len++] = x;
    v->a[v->len++] = y;
    return 0;
}

/* ------------------------------------------------------------------ nodes */

typedef struct {
    int key, cause, pstart, np;
    int nested_cx;          /* complexity of the nested hint that produced it, or -1 */
    int depth;              /* nodes along first parents, itself included: distinct potentials
                               (a chain never repeats one), so at most its ancestor count */
    uint64_t nested_sig;    /* FullChain identity of that hint */
} ch_Node;

/* ------------------------------------------------------------------ hints */

typedef struct {
    int kind, sort_key, complexity, index;
    double base, difficulty;
    int rstart, nrem;       /* removable cands (sorted) in the engine's rem pool */
    int tstart, ntarg;      /* target nodes in the engine's target pool */
    int result_key;         /* the concluded potential, or -1 */
    int source, region, value, x, y, absurd;
} ch_Hint;

/* ------------------------------------------------------------------ stored closures */

typedef struct {
    int on_start, on_len, off_start, off_len;  /* (cand, node) pairs in the closure pool */
    int absurd_on, absurd_off;                 /* node ids, -1 if none */
} ch_Closure;

/* Reachability between "on" candidates in static chains (on -> off -> on), by strongly
 * connected components: reach + comp[cand] * nw is the bit set of candidates whose "on" an
 * "on" of cand leads to; csize[comp[cand]] is the size of cand's component. Built for the
 * links of a loop (ch_reach_build; y says with y links); ok is 0 when not built. */
typedef struct {
    int ok, y, nw, cap;
    uint64_t *reach;
    int *comp, *csize, *start, *idx, *low, *stk, *call, *it, *adj;
    int *span;  /* per component, the words of its set that may be nonzero: from the first
                   to past the last word that holds one of its members or of another
                   component's span it took in */
    uint64_t *reach_off;  /* with_off builds: per component, the "off"s its "on"s lead to */
    int off;              /* reach_off built */
    int *oto;   /* per candidate, 5 ints: how many "on"s its "off" gives (-1: not known yet), then
                   those candidates (ch_reach_build: the grid is the same for all "on"s) */
    char *onstk;
} ch_Reach;

typedef struct ch_Engine ch_Engine;

struct ch_Engine {
    const ch_Geo *g;
    int multiple, dynamic, nishio, nesting;
    /* the grid (scratch while chaining) */
    const uint8_t *values;
    ch_mask_t *cand;
    ch_mask_t *pos;         /* nunit * n: places of digit d in unit u (bit i: unit cell i) */
    ch_mask_t *src_buf, *srcpos;  /* cand and pos as the run began (do_chaining restores them) */
    int *empties;           /* nunit: empty cells of each unit */
    ch_mask_t *livecell;    /* ncell: digits whose "off" has a consequence (ch_set_live) */
    ch_mask_t *livepos;     /* nunit * n: the same by unit and digit, as places */
    /* each of livecell and livepos is one half of these; the other half keeps the sets of
     * the xy loop when live_xy is set (ch_loops) */
    ch_mask_t *livemem_cell, *livemem_pos;
    int live_xy;
    ch_Reach reach;         /* static chains: which forcing chains exist (ch_reach_build) */
    int placed[SUDOKIT_MAX_SIDE];  /* placed values of each digit */
    ch_IVec adv;            /* do_chaining's advanced findings */
    ch_IVec pon, poff, ucycles, uchains;  /* the static chains' queues and findings */
    /* node pool */
    ch_Node *nodes; int nnodes, capnodes;
    ch_IVec par;
    /* sets */
    int *on_map, *off_map;  /* cand -> node or -1 */
    ch_IVec on_ord, off_ord;   /* insertion order (cands) */
    /* hints */
    ch_Hint *hints; int nhints, caphints;
    ch_IVec rem, targ;
    /* closures */
    ch_Closure *clos; int nclos, capclos;
    /* grids up to CH_REACH_MAX candidates: each closure's candidates as two bit sets of bw
     * words ("on" side, then "off" side) at cbits + id * 2 * bw (bw 0: none, see ch_retain) */
    int bw;
    uint64_t *cbits;
    ch_Closure sink;           /* closure id -1: where a closure goes when storing one failed */
    ch_IVec cpool;             /* (cand, node) pairs */
    int *cache;             /* cand -> closure id or -1 */
    int *cslot;             /* bit sets: ch_common_hints' row of each potential in common */
    ch_IVec common;         /* and its rows */
    /* scratch */
    int *stamp; int gen;    /* size 2 * ncand */
    int *scratch;           /* size ncand */
    ch_IVec bfs_a;          /* ch_walk's queue */
    /* inner engines for nested chains */
    ch_Engine *inner[2]; int ninner;
    /* what inner engines found on the grids met (the path's, see ch_Memo; not owned) */
    struct ch_Memo *memo;
    int *memokey;           /* nesting >= 2: the key of the grid looked up (ch_memo_key) */
    int failed;
    int best_only;          /* the caller computes complexities itself (ch_find) */
    /* best_only static chains: the cheapest hint so far (bounded set), by which searches that
     * can only find dearer hints are cut short (see ch_cap) */
    int bounded, bound_cx;
    double bound_d;
    /* ch_cap's answers for the current bound (a binary search each: kept until it moves) */
    int ncaps;
    double cap_base[4];
    int cap_val[4];
};

/* The node pool keeps one slot past its capacity: when growing fails, the new node goes there
 * (a "sink", overwritten each time; the next node made takes that slot), so callers always get
 * a well-formed node and the engine runs out with e->failed set.  Closures have a sink of their
 * own (id -1, see clos_at); hints are simply not made.  engine_new allocates every pool, so
 * none is ever NULL.  tests/test_c_faults.py fails each allocation in turn under ASan. */
static int ch_node_grow(ch_Engine *e, int key, int cause);

static inline int ch_node_new(ch_Engine *e, int key, int cause) {
    if (__builtin_expect(e->nnodes == e->capnodes, 0)) return ch_node_grow(e, key, cause);
    ch_Node *nd = e->nodes + e->nnodes;
    nd->key = key; nd->cause = cause; nd->pstart = e->par.len; nd->np = 0;
    nd->nested_cx = -1; nd->depth = 1; nd->nested_sig = 0;
    return e->nnodes++;
}

/* ch_node_new when the pool is full: grow it, or use the sink. */
static int ch_node_grow(ch_Engine *e, int key, int cause) {
    ch_Node *nd;
    if (e->nnodes == e->capnodes) {
        ch_Node *a = e->capnodes < INT32_MAX / 4 ? realloc(e->nodes, sizeof(ch_Node) * ((size_t)e->capnodes * 2 + 1)) : NULL;
        if (!a) {
            e->failed = 1;
            nd = e->nodes + e->capnodes;
            nd->key = key; nd->cause = cause; nd->pstart = e->par.len; nd->np = 0;
            nd->nested_cx = -1; nd->depth = 1; nd->nested_sig = 0;
            return e->capnodes;
        }
        e->nodes = a; e->capnodes *= 2;
    }
    nd = e->nodes + e->nnodes;
    nd->key = key; nd->cause = cause; nd->pstart = e->par.len; nd->np = 0;
    nd->nested_cx = -1; nd->depth = 1; nd->nested_sig = 0;
    return e->nnodes++;
}

/* Room for ``k`` more nodes with one parent each.  Return 0, or -1 (failed set). */
static int ch_node_reserve(ch_Engine *e, int k) {
    if (ch_iv_reserve(&e->par, k)) { e->failed = 1; return -1; }
    if (e->nnodes + k <= e->capnodes) return 0;
    size_t cap = (size_t)e->capnodes;
    while (cap < (size_t)e->nnodes + (size_t)k) cap *= 2;
    ch_Node *a = cap < INT32_MAX / 4 ? realloc(e->nodes, sizeof(ch_Node) * (cap + 1)) : NULL;
    if (!a) { e->failed = 1; return -1; }
    e->nodes = a; e->capnodes = (int)cap;
    return 0;
}

/* A node with the one parent ``parent`` (whose depth is depth - 1), where ch_node_reserve
 * made room. */
static inline int ch_node_reserved(ch_Engine *e, int key, int cause, int parent, int depth) {
    ch_Node *nd = e->nodes + e->nnodes;
    nd->key = key; nd->cause = cause; nd->pstart = e->par.len; nd->np = 1;
    nd->nested_cx = -1; nd->depth = depth; nd->nested_sig = 0;
    e->par.a[e->par.len++] = parent;
    return e->nnodes++;
}

/* Add a parent to the node created last. */
static void ch_node_parent(ch_Engine *e, int node, int parent) {
    if (ch_iv_push(&e->par, parent)) e->failed = 1;
    else if (e->nodes[node].np++ == 0) e->nodes[node].depth = e->nodes[parent].depth + 1;
}

static int ch_first_parent(const ch_Engine *e, int node) {
    const ch_Node *nd = e->nodes + node;
    return nd->np ? e->par.a[nd->pstart] : -1;
}

/* ------------------------------------------------------------------ the basic rules */

/* A deduced potential before it becomes a node: most deductions are dropped at once (already
 * known), so nodes are made only for those that are kept. */
typedef struct { int key, cause; } ch_Proto;

#define CH_MAX_PROTO 256
/* on_to_off makes at most (n - 1) + 3 * (n - 1) protos */
_Static_assert(4 * SUDOKIT_MAX_SIDE <= CH_MAX_PROTO, "CH_MAX_PROTO too small for SUDOKIT_MAX_SIDE");

/* Sudoku Explainer's getOnToOff: the "off" potentials deduced from "on" candidate ``cand``, in its order
 * (other digits of the cell, then the digit's other places in box, row, column). With ``live``
 * (static chains, see ch_set_live), only the "off" potentials that lead somewhere, and the one
 * of candidate ``keep`` (a search's target; -1: none): the others are dead ends. */
static inline int ch_on_to_off(const ch_Engine *e, int cand, int y_links, int live, int keep, ch_Proto *out) {
    const ch_Geo *g = e->g;
    int n = g->n, c = g->cell_of[cand], d = g->digit_of[cand], k = 0;
    int kc = keep >= 0 ? g->cell_of[keep] : -1, kd = keep >= 0 ? g->digit_of[keep] : -1;
    if (y_links) {
        ch_mask_t m = e->cand[c] & ~((ch_mask_t)1 << d);
        if (live) m &= e->livecell[c] | (kc == c ? (ch_mask_t)1 << kd : 0);
        while (m) {
            int v = ch_lowbit(m); m &= m - 1;
            out[k].key = (c * n + v) * 2; out[k++].cause = CH_CAUSE_CELL;
        }
    }
    /* the peers in SE's order (box, then row and column outside the box), from the places */
    const int *su = g->se_units + 3 * c;
    const ch_mask_t *skip = g->skip + 3 * c;
    for (int t = 0; t < 3; t++) {
        int u = su[t];
        const int *uc = g->unit_cells + u * n;
        ch_mask_t m = e->pos[u * n + d] & ~skip[t];
        if (live) {
            ch_mask_t lm = e->livepos[u * n + d];
            if (kd == d && g->se_units[3 * kc + t] == u) lm |= (ch_mask_t)1 << g->unit_index[3 * kc + t];
            m &= lm;
        }
        while (m) {
            int i = ch_lowbit(m); m &= m - 1;
            out[k].key = (uc[i] * n + d) * 2; out[k++].cause = u;
        }
    }
    return k;
}

/* Sudoku Explainer's getOffToOn: the "on" potentials deduced from "off" candidate ``cand`` (the cell's
 * other candidate when two are left, then the digit's other place in box, row, column when two
 * are left; a potential given by two units is listed once). */
static inline int ch_off_to_on(const ch_Engine *e, int cand, int y_links, int x_links, ch_Proto *out) {
    const ch_Geo *g = e->g;
    const ch_CandGeo *cg = g->cg + cand;
    int n = g->n, c = cg->cell, d = cg->digit, k = 0;
    if (y_links) {
        ch_mask_t m = e->cand[c];
        if (ch_two_bits(m)) {
            int first = ch_lowbit(m), other = first;
            if (first == d) other = ch_lowbit(m & (m - 1));
            out[k].key = (c * n + other) * 2 + 1; out[k++].cause = CH_CAUSE_CELL;
        }
    }
    if (x_links) {
        int k0 = k;
        for (int t = 0; t < 3; t++) {
            ch_mask_t pm = e->pos[cg->pos[t]];
            if (!ch_two_bits(pm)) continue;
            pm &= ~((ch_mask_t)1 << cg->idx[t]);
            int other = g->unit_cells[cg->ucells[t] + ch_lowbit(pm)];
            int key = (other * n + d) * 2 + 1, dup = 0;
            for (int s = k0; s < k; s++) if (out[s].key == key) dup = 1;
            if (dup) continue;
            out[k].key = key; out[k++].cause = cg->unit[t];
        }
    }
    return k;
}

/* Make the node of a deduction from p. With ``src`` (dynamic chaining: the grid when the
 * chaining started), an "on" also gets its hidden parents: the removed candidates of its cell
 * (cell rule) or of its digit in its unit (unit rule), whose nodes ``off_map`` holds. Must be
 * called before p's own candidate is removed from the grid. */
static int ch_make_node(ch_Engine *e, int p, ch_Proto pr, const ch_mask_t *src) {
    int q = ch_node_new(e, pr.key, pr.cause);
    ch_mask_t gone = 0;
    const ch_Geo *g = e->g;
    int n = g->n, cand = pr.key >> 1, c = g->cell_of[cand], d = g->digit_of[cand];
    if (src && (pr.key & 1)) {
        if (pr.cause == CH_CAUSE_CELL) gone = src[c] & ~e->cand[c];
        else gone = e->srcpos[pr.cause * n + d] & ~e->pos[pr.cause * n + d];
    }
    /* the parents in one go: p, then the hidden ones */
    if (ch_iv_reserve(&e->par, 1 + n)) { e->failed = 1; return q; }  /* gone has at most n */
    int *par = e->par.a + e->par.len, np = 0;
    par[np++] = p;
    if (gone && pr.cause == CH_CAUSE_CELL) {
        while (gone) {
            int v = ch_lowbit(gone); gone &= gone - 1;
            par[np++] = e->off_map[c * n + v];
        }
    } else if (gone) {
        const int *uc = g->unit_cells + pr.cause * n;
        while (gone) {
            int i = ch_lowbit(gone); gone &= gone - 1;
            par[np++] = e->off_map[uc[i] * n + d];
        }
    }
    e->par.len += np;
    e->nodes[q].np = np;
    e->nodes[q].depth = e->nodes[p].depth + 1;
    return q;
}

static int ch_is_parent_key(const ch_Engine *e, int child, int key) {
    int p = child;
    for (;;) {
        p = ch_first_parent(e, p);
        if (p < 0) return 0;
        if (e->nodes[p].key == key) return 1;
    }
}

/* ------------------------------------------------------------------ sets */

static void ch_set_clear(ch_Engine *e) {
    for (int i = 0; i < e->on_ord.len; i++) e->on_map[e->on_ord.a[i]] = -1;
    for (int i = 0; i < e->off_ord.len; i++) e->off_map[e->off_ord.a[i]] = -1;
    e->on_ord.len = e->off_ord.len = 0;
}

static void ch_set_add(ch_Engine *e, int on, int node) {
    int cand = e->nodes[node].key >> 1;
    int *map = on ? e->on_map : e->off_map;
    if (map[cand] < 0 && ch_iv_push(on ? &e->on_ord : &e->off_ord, cand)) {
        e->failed = 1;  /* not recorded in the order, so not in the map either */
        return;
    }
    map[cand] = node;
}

/* ------------------------------------------------------------------ hints */

static double ch_length_bonus(int complexity) {
    double added = 0.0;
    int ceil = 4, length = complexity - 2, odd = 0;
    while (length > ceil) {
        added += 0.1;
        ceil = !odd ? ceil * 3 / 2 : ceil * 4 / 3;
        odd = !odd;
    }
    return added;
}

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

/* ------------------------------------------------------------------ forcing chain existence */


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
    const ch_Geo *g = e->g;
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
        r->oto = malloc(sizeof(int) * 5 * (size_t)ncand);
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
        for (int c = 0; c < g->ncell; c++)
            for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) {
                int x = c * g->n + ch_lowbit(cm);
                present[x >> 6] |= (uint64_t)1 << (x & 63);
            }
    }
    /* the "on" -> "on" links, as lists per candidate */
    ch_Proto offs[CH_MAX_PROTO], ons[8];
    int len = 0;
    /* only the candidates present are visited (the grids of nested chains are sparse), in
     * ascending order: a candidate's links run from start[cand] to start[cand + 1] */
    int n = g->n;
    for (int c = 0; c < g->ncell; c++)
        for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) r->oto[5 * (c * n + ch_lowbit(cm))] = -1;
    for (int c = 0; c < g->ncell; c++)
    for (ch_mask_t cm = e->cand[c]; cm; cm &= cm - 1) {
        int cand = c * n + ch_lowbit(cm);
        r->start[cand] = len;
        r->idx[cand] = -1; r->comp[cand] = -1; r->onstk[cand] = 0;
        int k = ch_on_to_off(e, cand, y_links, 1, -1, offs);
        for (int j = 0; j < k; j++) {
            int *o = r->oto + 5 * (offs[j].key >> 1);  /* an "off" of a candidate present */
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
    for (int c = 0; c < g->ncell; c++)
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
        const ch_Geo *g = e->g;
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
        const uint64_t *pb = g->peerbits + (size_t)cand * (size_t)g->nw;
        for (int b = r->span[2 * comp]; b < r->span[2 * comp + 1]; b++) if (set[b] & pb[b]) return 1;
        return 0;
    }
    ch_Proto made[CH_MAX_PROTO];
    int k = ch_off_to_on(e, cand, y_links, 1, made);
    for (int j = 0; j < k; j++) if (ch_reaches(r, made[j].key >> 1, cand)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ static chains */

static int ch_is_parent_key(const ch_Engine *e, int child, int key);
static int ch_prune_at(double base, double dbest, int cbest);

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
    ch_Proto closing[8];
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
    const ch_Geo *g = e->g;
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
        const int *pp = g->peers + c * g->npeer;
        for (int k = 0; k < g->npeer; k++) {
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

/* Which "off" potentials have a consequence in static chains with these links (a two-digit
 * cell, or a digit with two places in one of the cell's units): the grid does not change while
 * they run, and the others are dead ends, never worth a node. */
static void ch_set_live(ch_Engine *e, int y_links, int x_links) {
    const ch_Geo *g = e->g;
    int n = g->n;
    memset(e->livepos, 0, sizeof(ch_mask_t) * (size_t)g->nunit * (size_t)n);
    for (int c = 0; c < g->ncell; c++) {
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
    const ch_Geo *g = e->g;
    size_t nc = (size_t)g->ncell, np = (size_t)g->nunit * (size_t)g->n;
    e->livecell = e->livecell == e->livemem_cell ? e->livemem_cell + nc : e->livemem_cell;
    e->livepos = e->livepos == e->livemem_pos ? e->livemem_pos + np : e->livemem_pos;
}

static void ch_loops(ch_Engine *e, int y_links, int x_links) {
    const ch_Geo *g = e->g;
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
    for (int c = 0; c < g->ncell && !e->failed; c++) {
        ch_mask_t m = e->cand[c];
        if (e->values[c] || !ch_many(m)) continue;
        while (m) {
            int d = ch_lowbit(m); m &= m - 1;
            ch_unary(e, c * g->n + d, y_links, x_links);
        }
    }
}

/* ------------------------------------------------------------------ dynamic chaining */

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
    const ch_Geo *g = e->g;
    int n = g->n, ncell = g->ncell, nu = g->nunit;
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
                const ch_CandGeo *cg = g->cg + pc;
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
                const ch_CandGeo *cg = g->cg + pc;
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
         * past that, copying the grid back costs less (measured: 6 and 12 alike, 40 dearer) */
        for (int i = 0; i < hoff; i++) {
            const ch_CandGeo *cg = g->cg + e->off_ord.a[i];
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

/* Store the current sets as a closure; clear them. */
/* The closure with id ``id``; -1 is the empty sink left by a failed store. */
static ch_Closure *ch_clos_at(ch_Engine *e, int id) { return id < 0 ? &e->sink : e->clos + id; }

/* The bit sets of closure ``id`` (bw > 0); the sink's are empty. */
static const uint64_t *ch_clos_bits(const ch_Engine *e, int id) {
    return e->cbits + (id < 0 ? (size_t)e->capclos : (size_t)id) * 2 * (size_t)e->bw;
}

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
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
    for (int c = 0; c < g->ncell && !e->failed; c++) {
        if (e->values[c]) continue;
        int card = ch_popcount(e->cand[c]);
        if (card > 2 || (card > 1 && e->dynamic)) ch_cell_chains(e, c, card);
    }
}

/* ------------------------------------------------------------------ advanced rules */

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
    const ch_Geo *g = e->g;
    memset(gn->dig, 0, sizeof(ch_mask_t) * (size_t)g->nunit);
    memset(gn->idx, 0, sizeof(ch_mask_t) * (size_t)g->nunit);
    for (int i = 0; i < e->off_ord.len; i++) {
        const ch_CandGeo *cg = g->cg + e->off_ord.a[i];
        for (int t = 0; t < 3; t++) {
            gn->dig[cg->unit[t]] |= (ch_mask_t)1 << cg->digit;
            gn->idx[cg->unit[t]] |= (ch_mask_t)1 << cg->idx[t];
        }
    }
}

static void ch_rule_locking(ch_Engine *e, const ch_mask_t *src, const ch_Gone *gn, ch_IVec *out) {
    (void)src;  /* the removed places come from srcpos */
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
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
    const ch_Geo *g = e->g;
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
                        if ((e->cand[q] & bit) && !ch_cell_in_unit(g, b1, q) && !ch_cell_in_unit(g, b2, q))
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

static ch_Engine *ch_engine_new(const ch_Geo *g, int multiple, int dynamic, int nishio, int nesting);
static void ch_engine_free(ch_Engine *e);
static void ch_engine_run(ch_Engine *e, const uint8_t *values, const ch_mask_t *cand, const ch_Engine *from);
static void ch_engine_sort(ch_Engine *e, int **order, int *norder);

/* ------------------------------------------------------------------ nested chains' memo */

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
    const ch_Geo *g;
    int kw;                 /* key length in ints */
    int *slot; int cap, count;  /* hash table: entry offset + 1, or 0 */
    ch_IVec pool;
    int *seen; int gen;     /* ncell + nunit * n: a cause already listed for this finding */
} ch_Memo;

/* The key's length in ints: the setting, the candidates' bits, the values' bytes. */
static int ch_memo_words(const ch_Geo *g) { return 1 + (g->ncand + 31) / 32 + (g->ncell + 3) / 4; }

/* Entries are dropped all at once when the pool passes this many ints (64 MB; the hardest
 * 9x9 paths of hardest_1106 keep about 20 MB). */
#define CH_MEMO_MAX (1 << 24)

static void ch_memo_free(ch_Memo *m) {
    if (!m) return;
    free(m->slot); free(m->pool.a); free(m->seen); free(m);
}

static ch_Memo *ch_memo_new(const ch_Geo *g) {
    ch_Memo *m = calloc(1, sizeof(ch_Memo));
    if (!m) return NULL;
    m->g = g;
    m->kw = ch_memo_words(g);
    m->cap = 1024;
    m->slot = calloc((size_t)m->cap, sizeof(int));
    m->seen = calloc((size_t)(g->ncell + g->nunit * g->n), sizeof(int));
    if (!m->slot || !m->seen) { ch_memo_free(m); return NULL; }
    return m;
}

/* The key of ``in``'s run on the grid (values, cand) into key (kw ints); its hash. */
static uint64_t ch_memo_key(const ch_Memo *m, const ch_Engine *in, const uint8_t *values, const ch_mask_t *cand,
                            int *key) {
    const ch_Geo *g = m->g;
    int n = g->n, nb = (g->ncand + 31) / 32;
    memset(key, 0, sizeof(int) * (size_t)m->kw);
    key[0] = in->multiple | in->dynamic << 1 | in->nishio << 2 | in->nesting << 3;
    uint32_t *bits = (uint32_t *)(key + 1);
    for (int c = 0; c < g->ncell; c++) {
        ch_mask_t x = cand[c];
        while (x) {
            int b = c * n + ch_lowbit(x); x &= x - 1;
            bits[b >> 5] |= (uint32_t)1 << (b & 31);
        }
    }
    uint8_t *vals = (uint8_t *)(key + 1 + nb);
    memcpy(vals, values, (size_t)g->ncell);
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
    const ch_Geo *g = m->g;
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
                int id = cause == CH_CAUSE_CELL ? g->cell_of[cand] : g->ncell + cause * n + g->digit_of[cand];
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
    const ch_Geo *g = e->g;
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
        const ch_Geo *g = e->g;
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

/* ------------------------------------------------------------------ engine */

static ch_Engine *ch_engine_new(const ch_Geo *g, int multiple, int dynamic, int nishio, int nesting) {
    ch_Engine *e = calloc(1, sizeof(ch_Engine));
    if (!e) return NULL;
    e->g = g; e->multiple = multiple; e->dynamic = dynamic; e->nishio = nishio; e->nesting = nesting;
    e->cand = malloc(sizeof(ch_mask_t) * g->ncell);
    e->pos = malloc(sizeof(ch_mask_t) * g->nunit * g->n);
    e->srcpos = malloc(sizeof(ch_mask_t) * g->nunit * g->n);
    e->src_buf = malloc(sizeof(ch_mask_t) * g->ncell);
    e->empties = malloc(sizeof(int) * g->nunit);
    e->livecell = e->livemem_cell = malloc(sizeof(ch_mask_t) * 2 * g->ncell);
    e->livepos = e->livemem_pos = malloc(sizeof(ch_mask_t) * 2 * g->nunit * g->n);
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
    const ch_Geo *g = e->g;
    int n = g->n;
    ch_engine_reset(e);
    e->values = values;
    memcpy(e->cand, cand, sizeof(ch_mask_t) * g->ncell);
    if (from) {
        memcpy(e->pos, from->pos, sizeof(ch_mask_t) * g->nunit * n);
        memcpy(e->empties, from->empties, sizeof(int) * g->nunit);
        memcpy(e->placed, from->placed, sizeof e->placed);
    } else {
        memset(e->pos, 0, sizeof(ch_mask_t) * g->nunit * n);
        memset(e->empties, 0, sizeof(int) * g->nunit);
        memset(e->placed, 0, sizeof e->placed);
    }
    for (int c = 0; c < g->ncell && !from; c++) {
        const int *su = g->se_units + 3 * c, *ui = g->unit_index + 3 * c;
        if (values[c]) e->placed[values[c] - 1]++;
        else for (int t = 0; t < 3; t++) e->empties[su[t]]++;
        ch_mask_t m = e->cand[c];
        while (m) {
            int d = ch_lowbit(m); m &= m - 1;
            for (int t = 0; t < 3; t++) e->pos[su[t] * n + d] |= (ch_mask_t)1 << ui[t];
        }
    }
    memcpy(e->src_buf, e->cand, sizeof(ch_mask_t) * g->ncell);
    memcpy(e->srcpos, e->pos, sizeof(ch_mask_t) * g->nunit * n);
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

/* ------------------------------------------------------------------ geometry cache */

/* A shape's chain tables, built once and kept; threads may race to build them (next_step
 * releases the GIL), so a slot is published with a compare-and-swap and the loser frees its
 * copy. */
#define CH_MAXB (SUDOKIT_MAX_SIDE / SUDOKIT_MIN_BOX_SIDE)
static ch_Geo *_Atomic ch_geos[CH_MAXB + 1][CH_MAXB + 1];

static const ch_Geo *ch_get_geo(int br, int bc) {
    ch_Geo *g = atomic_load(&ch_geos[br][bc]);
    if (g) return g;
    g = malloc(sizeof(ch_Geo));
    if (!g) return NULL;
    if (ch_geo_init(g, br, bc)) { ch_geo_free(g); free(g); return NULL; }
    ch_Geo *expected = NULL;
    if (!atomic_compare_exchange_strong(&ch_geos[br][bc], &expected, g)) {
        ch_geo_free(g); free(g);
        return expected;
    }
    return g;
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
    const ch_Geo *g = e->g;
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

/* Run one producer and emit its cheapest hint (SE's order: unrounded difficulty, complexity,
 * sort key, discovery). */
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
static ch_Engine *ch_sink_engine(lsink *out, const ch_Geo *g, ch_spec sp) {
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

static void ch_find(const lstate *s, lsink *out, ch_spec sp) {
    const lgeo *lg = s->g;
    const ch_Geo *g = ch_get_geo(lg->br, lg->bc);
    if (!g) { out->failed = 1; return; }
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
