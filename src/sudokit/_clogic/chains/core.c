/*
 * Chains, core (part of chains.c): the types every part of the chain engine shares -- bit
 * helpers, growable int vectors, nodes, hints, closures, the reachability tables, the engine
 * itself -- and the node pool.
 */
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
/* The houses the engine keeps places for: a rules geometry's all, else rows, columns, boxes. */
static inline int ch_nunits(const lgeo *g) { return g->rules ? g->nhouse : g->nunit; }

/* Grids up to this many candidates get the reachability filter (its tables are ncand^2 bits)
 * and bit sets of candidates (the closures' sets, the geometry's peerbits). */
#define CH_REACH_MAX LG_CANDBITS_MAX

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

/* ------------------------------------------------------------------ reachability tables */

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
    int *oto;   /* per candidate, CH_OTO ints: how many "on"s its "off" gives (-1: not known yet), then
                   those candidates (ch_reach_build: the grid is the same for all "on"s) */
    char *onstk;
} ch_Reach;

/* ------------------------------------------------------------------ the engine */

typedef struct ch_Engine ch_Engine;

struct ch_Engine {
    const lgeo *g;
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

/* ------------------------------------------------------------------ the node pool */

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
