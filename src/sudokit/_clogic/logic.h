/*
 * sudokit._logic: the logic engine in C. Shared types of every technique family.
 *
 * The extension is one translation unit: src/sudokit/_logic.c includes this header, then each
 * family's .c file (singles.c, intersections.c, ...), then the technique table and the Python
 * interface. Everything here is `static`.
 *
 * Terms (as in src/sudokit/logic/_state.py, which the Python reference works on):
 *   n          the grid side; digits are 1..n; cells 0..n*n-1 row-major
 *   units      rows 0..n-1, columns n..2n-1, boxes 2n..3n-1 (Shape.units order)
 *   dmask      a set of digits: bit d-1 for digit d (Candidates.cand[c])
 *   cset       a set of cells: bit c for cell c, g->nw 64-bit words used (Candidates.where[d],
 *              Candidates.empty, Geometry.unit_mask[u], Geometry.peer_mask[c])
 * Iterating a cset visits cells in ascending order, as the reference's bits() does.
 *
 * A finder has the signature   static void lf_NAME(const lstate *s, lsink *out);
 * It emits steps in the reference's order:
 *     lstep_begin(out, K_HIDDEN_SINGLE, 1.2);
 *     lstep_place(out, cell, digit);  lstep_cell(out, cell);  lstep_unit(out, u);  ...
 *     if (lstep_end(out)) return;     -- nonzero: the caller wants no more steps (or memory ran out)
 * The parts of a step may be added in any order; each part keeps the order it was added in.
 */
#ifndef SUDOKIT_LOGIC_H
#define SUDOKIT_LOGIC_H

#include <stdint.h>
#include <string.h>

#include "../_limits.h"

#define LG_MAXN SUDOKIT_MAX_SIDE
#define LG_MAXC (LG_MAXN * LG_MAXN)
#define LG_MAXW ((LG_MAXC + 63) / 64)
#define LG_MAXU (3 * LG_MAXN)
/* The most links one candidate has under rules: the cell's other digits and the cell's peers
 * (geo_from_blob refuses a blob whose peers pass it; the worst real rules, 36x36 with every
 * extra and both neighbour rules, come to 206). The chains' and aligned exclusions' buffers
 * are sized by it. */
#define LG_MAX_LINKS 256
#define LG_HMAX 8               /* houses of one cell: row, column, box, and the rules' extra
                                   ones (group, window, two diagonals) */

typedef uint64_t dmask;
typedef struct { uint64_t w[LG_MAXW]; } cset;

/* ------------------------------------------------------------------ bit helpers */

/* A popcount that stays inline: __builtin_popcountll is a libgcc call without -mpopcnt, and
 * the build targets plain x86-64: a call for every count would show in a rating's time. */
static inline int dm_count(dmask m) {
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}
static inline int dm_low(dmask m) { return __builtin_ctzll(m); }  /* index of the lowest bit */
static inline int dm_single(dmask m) { return m && !(m & (m - 1)); }
/* for (each digit index d0 in m, ascending) -- d0 is 0-based; the digit is d0 + 1 */
#define DM_FOREACH(d0, m) \
    for (dmask _dm_##d0 = (m); _dm_##d0 && (((d0) = dm_low(_dm_##d0)), 1); _dm_##d0 &= _dm_##d0 - 1)

/* ------------------------------------------------------------------ chain length bonus */

/* Sudoku Explainer's chain length bonus (getLengthDifficulty), in tenths: how many times the
 * ceiling (4, then alternately * 3/2 and * 4/3) is passed by ``length`` (patterns.length_bonus
 * * 10). coloring.c and patterns.c rate with it in tenths; the chain engine with
 * length_bonus. */
static inline int length_bonus_steps(int length) {
    int steps = 0, ceiling = 4, up = 1;
    while (length > ceiling) {
        steps++;
        ceiling = up ? ceiling * 3 / 2 : ceiling * 4 / 3;
        up = !up;
    }
    return steps;
}

/* The bonus as the double SE adds to a chain's rating: 0.1 added once per step, so that the
 * unrounded difficulties the chain engine sorts by are SE's to the last bit (0.1 + 0.1 + 0.1
 * is not 0.3). */
static inline double length_bonus(int length) {
    double added = 0.0;
    for (int k = length_bonus_steps(length); k > 0; k--) added += 0.1;
    return added;
}

/* ------------------------------------------------------------------ geometry */

/* Grids up to this many candidates (cells * digits) get bit sets of candidates: the geometry's
 * peerbits, and the chain engine's closures and reachability filter (ncand^2 bits). */
#define LG_CANDBITS_MAX 4096

/* A candidate's places in its units, for the chain engine's hot loops: for its box, row and
 * column u (t = 0, 1, 2: lgeo.se_units' order), unit[t] = u, pos[t] = u * n + digit,
 * ucells[t] = u * n, idx[t] its cell's index in u. */
typedef struct {
    int cell, digit, unit[3], pos[3], ucells[3], idx[3];
} lcand;

/* A shape's tables, built once (_clogic/geometry.c) and shared by every technique family. A
 * candidate (cand) is cell * n + digit index; the tables from se_units on are in the order
 * Sudoku Explainer visits houses (box, row, column), which the chain engine follows. */
typedef struct lgeo {
    int br, bc, n, size, nunit, nw;
    int ncand;                  /* size * n */
    int *unit_cells;            /* nunit * n: the cells of unit u, ascending */
    int *units_of;              /* size * 3: row, column and box unit of each cell */
    int npeer;                  /* peers per cell */
    int *house_order;           /* size * npeer: each cell's peers in SE's order (box w/o the
                                   cell, row outside the box, column outside the box;
                                   logic/_state.py house_order) */
    int *se_units;              /* size * 3: box, row, column unit of each cell */
    int *peer_unit;             /* as house_order: the unit that makes each peer */
    int *unit_index;            /* size * 3: the cell's index in each of its se_units */
    dmask *skip;                /* size * 3: per se_unit of the cell, the indexes that are not
                                   its peers there (box: the cell; row, column: its box's) */
    int nlock;
    int *locking;               /* nlock * 2: crossing (unit1, unit2) in SE's order */
    dmask *lock_in;             /* nlock * 2: the indexes of unit1 inside unit2, of unit2 in unit1 */
    int npairs;
    int *pairs;                 /* npairs * 2: (i, j), i < j, in SE's Permutations order */
    int *cell_of, *digit_of;    /* ncand: cand / n and cand % n (no division in hot loops) */
    lcand *cg;                  /* ncand */
    int ncw;                    /* words of a bit set of candidates */
    uint64_t *peerbits;         /* grids up to LG_CANDBITS_MAX candidates: per candidate, its
                                   digit's candidates in the cell's peers (ncw words each);
                                   else NULL */
    /* A rules geometry (geo_from_blob): houses beyond the classic three kinds, peers beyond
     * them (neighbour rules). Classic geometries have rules = 0 and none of these. */
    int *cell_houses;           /* size * LG_HMAX: each cell's houses in SukakuExplainer's
                                   region order (box, row, column, then the extra houses in
                                   scan order: group, window, diagonals) */
    int *ncell_houses;          /* size: how many */
    int *cell_hidx;             /* size * LG_HMAX: the cell's index in each of those houses */
    dmask *cell_hskip;          /* size * LG_HMAX: the indexes in each of those houses that are
                                   no new peers of the cell (itself, cells of earlier houses):
                                   the chain engine's on -> off order under rules */
    int *nbr_start, *nbr;       /* rules: the peers no house gives (neighbour rules), per cell
                                   nbr[nbr_start[c] .. nbr_start[c + 1]), in SK's order */
    int rules;
    int *peer_start;            /* size + 1: cell c's peers are house_order[peer_start[c] ..
                                   peer_start[c + 1]), in SukakuExplainer's order (its
                                   visible cells; logic/_state.py visible_order) */
    int nhouse;                 /* houses: rows, columns, boxes (or jigsaw regions), extras */
    cset *xmask;                /* cells of each extra house (house nunit + i) */
    int nscan, *scan;           /* extra houses singles and hidden sets visit, in order */
    int nnscan, *nscan_h;       /* extra houses naked sets visit, in order */
    int nltype;                 /* house kinds intersections pair (SukakuExplainer's Locking) */
    int *ltype_len, *ltype_houses;  /* per kind: its houses (n at most each) */
    int *ltype_flags;           /* per kind: 1 a line (row, column), 2 a box or region */
    int *ltype_of;              /* nltype * size: the house of each kind a cell is in, or -1 */
    int nlpair, *lpairs;        /* (kind1, kind2) pairs, in order */
    /* Killer cages (a rules geometry whose blob has them; killer.c reads them): each cage's
     * sum, size and cells (n slots each), the cage of each cell (-1: none), each cage's
     * cells as a set; the groups of houses the rule of 45 reads (1 to 3 houses each). */
    int ncage, *cage_total, *cage_len, *cage_cells, *cage_of;
    cset *cage_mask;
    int ngroup, *group_len, *group_houses;  /* group_houses: 3 slots per group */
    uint8_t *blob;              /* what it was built from (get_rules_geo finds it again) */
    Py_ssize_t bloblen;
    cset all;                   /* every cell */
    cset unit_mask[LG_MAXU];    /* cells of each unit */
    cset *peer_mask;            /* size entries: the peers of each cell */
} lgeo;

static inline int lg_row(const lgeo *g, int c) { return g->units_of[3 * c]; }
static inline int lg_col(const lgeo *g, int c) { return g->units_of[3 * c + 1]; }
static inline int lg_box(const lgeo *g, int c) { return g->units_of[3 * c + 2]; }
static inline const int *lg_unit(const lgeo *g, int u) { return g->unit_cells + u * g->n; }
/* The houses of cell c in SukakuExplainer's region order; *k gets their count. */
static inline const int *lg_houses(const lgeo *g, int c, int *k) {
    *k = g->ncell_houses[c];
    return g->cell_houses + c * LG_HMAX;
}
/* The peers of cell c in the order the wings and aligned exclusions search them (SE's house
 * order; under rules SukakuExplainer's visible order); *k gets their count. */
static inline const int *lg_peers(const lgeo *g, int c, int *k) {
    if (g->peer_start) {
        *k = g->peer_start[c + 1] - g->peer_start[c];
        return g->house_order + g->peer_start[c];
    }
    *k = g->npeer;
    return g->house_order + c * g->npeer;
}
/* The cells of house u as a cset: classic units and a rules geometry's extra houses alike. */
static inline const cset *lg_mask(const lgeo *g, int u) {
    return u < g->nunit ? &g->unit_mask[u] : &g->xmask[u - g->nunit];
}

/* ------------------------------------------------------------------ cell sets */

static inline void cs_clear(cset *a, int nw) { memset(a->w, 0, sizeof(uint64_t) * nw); }
static inline int cs_has(const cset *a, int c) { return (int)((a->w[c >> 6] >> (c & 63)) & 1); }
static inline void cs_add(cset *a, int c) { a->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static inline void cs_del(cset *a, int c) { a->w[c >> 6] &= ~((uint64_t)1 << (c & 63)); }
static inline int cs_empty(const cset *a, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i]) return 0;
    return 1;
}
static inline int cs_count(const cset *a, int nw) {
    int k = 0;
    for (int i = 0; i < nw; i++) k += dm_count(a->w[i]);
    return k;
}
/* The lowest cell, or -1 when empty. */
static inline int cs_first(const cset *a, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i]) return (i << 6) + __builtin_ctzll(a->w[i]);
    return -1;
}
/* The highest cell, or -1 when empty. */
static inline int cs_last(const cset *a, int nw) {
    for (int i = nw - 1; i >= 0; i--) if (a->w[i]) return (i << 6) + 63 - __builtin_clzll(a->w[i]);
    return -1;
}
/* The next cell after c (c = -1 for the first), or -1. */
static inline int cs_next(const cset *a, int nw, int c) {
    c++;
    int i = c >> 6;
    if (i >= nw) return -1;
    uint64_t w = a->w[i] & (~(uint64_t)0 << (c & 63));
    for (;;) {
        if (w) return (i << 6) + __builtin_ctzll(w);
        if (++i >= nw) return -1;
        w = a->w[i];
    }
}
#define CS_FOREACH(c, set, nw) for (int c = cs_next((set), (nw), -1); c >= 0; c = cs_next((set), (nw), c))

/* 0 or 1 cells, or 2 for more than one (no count: the build has no popcount instruction) */
static inline int cs_few(const cset *a, int nw) {
    int seen = 0;
    for (int i = 0; i < nw; i++) {
        uint64_t w = a->w[i];
        if (!w) continue;
        if (seen || (w & (w - 1))) return 2;
        seen = 1;
    }
    return seen;
}
/* exactly one cell */
static inline int cs_single(const cset *a, int nw) { return cs_few(a, nw) == 1; }
/* more than one cell (the reference's `m & (m - 1)`) */
static inline int cs_many(const cset *a, int nw) { return cs_few(a, nw) == 2; }
static inline void cs_and(cset *r, const cset *a, const cset *b, int nw) {
    for (int i = 0; i < nw; i++) r->w[i] = a->w[i] & b->w[i];
}
static inline void cs_or(cset *r, const cset *a, const cset *b, int nw) {
    for (int i = 0; i < nw; i++) r->w[i] = a->w[i] | b->w[i];
}
static inline void cs_andnot(cset *r, const cset *a, const cset *b, int nw) {
    for (int i = 0; i < nw; i++) r->w[i] = a->w[i] & ~b->w[i];
}
static inline int cs_meets(const cset *a, const cset *b, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i] & b->w[i]) return 1;
    return 0;
}
/* a is a subset of b */
static inline int cs_within(const cset *a, const cset *b, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i] & ~b->w[i]) return 0;
    return 1;
}
static inline int cs_equal(const cset *a, const cset *b, int nw) {
    for (int i = 0; i < nw; i++) if (a->w[i] != b->w[i]) return 0;
    return 1;
}
/* Python-int order of two csets (a < b as numbers): -1, 0 or 1. */
static inline int cs_cmp(const cset *a, const cset *b, int nw) {
    for (int i = nw - 1; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* Call finder body ``name(s, out, nw)`` (an always_inline function taking the word count of
 * a cell set) with the 9x9 grid's 2 as a constant, or the shape's own count: inlined twice,
 * the set operations unroll for 9x9 (the singles and intersections run at nearly every step
 * of every path). */
#define LG_NW_SPECIALIZED(name, s, out) \
    do { if ((s)->g->nw == 2) name((s), (out), 2); else name((s), (out), (s)->g->nw); } while (0)

/* ------------------------------------------------------------------ the candidate state */

typedef struct lstate {
    const lgeo *g;
    uint8_t values[LG_MAXC];     /* 0 for an empty cell */
    dmask cand[LG_MAXC];         /* 0 for a filled cell */
    cset where[LG_MAXN + 1];     /* where[d], d = 1..n: cells with candidate d */
    cset empty;                  /* empty cells */
} lstate;

/* The state of a position (values and candidates), with where[] and empty derived. */
static void ls_init(lstate *s, const lgeo *g, const uint8_t *values, const dmask *cand) {
    int size = g->size, nw = g->nw;
    s->g = g;
    memcpy(s->values, values, (size_t)size);
    memcpy(s->cand, cand, sizeof(dmask) * (size_t)size);
    for (int d = 0; d <= g->n; d++) cs_clear(&s->where[d], nw);
    cs_clear(&s->empty, nw);
    for (int c = 0; c < size; c++) {
        if (!values[c]) cs_add(&s->empty, c);
        int d0;
        DM_FOREACH(d0, cand[c]) cs_add(&s->where[d0 + 1], c);
    }
}

/* Candidates.place: put digit in cell and remove it from the candidates of the cell's peers. */
static void ls_place(lstate *s, int cell, int digit) {
    const lgeo *g = s->g;
    int nw = g->nw, d0;
    DM_FOREACH(d0, s->cand[cell]) cs_del(&s->where[d0 + 1], cell);
    s->cand[cell] = 0;
    s->values[cell] = (uint8_t)digit;
    cs_del(&s->empty, cell);
    cset hit;
    cs_and(&hit, &s->where[digit], &g->peer_mask[cell], nw);
    cs_andnot(&s->where[digit], &s->where[digit], &hit, nw);
    dmask bit = ~((dmask)1 << (digit - 1));
    CS_FOREACH(p, &hit, nw) s->cand[p] &= bit;
}

/* Candidates.eliminate: remove candidate digit from cell; whether it was there. */
static int ls_eliminate(lstate *s, int cell, int digit) {
    dmask bit = (dmask)1 << (digit - 1);
    if (!(s->cand[cell] & bit)) return 0;
    s->cand[cell] &= ~bit;
    cs_del(&s->where[digit], cell);
    return 1;
}

static inline int ls_solved(const lstate *s) { return cs_empty(&s->empty, s->g->nw); }

/* ------------------------------------------------------------------ steps */

/* Killer's step kinds (killer.c, killer45.c): kept apart so that other families' kinds can be
 * added above them without touching these lines. */
#define KILLER_STEP_KINDS(X)                                                                   \
    X(K_CAGE_SINGLE, "cage-single")                                                            \
    X(K_CAGE_COMBINATION, "cage-combination")                                                  \
    X(K_CAGE_CONFINEMENT, "cage-confinement")                                                  \
    X(K_CAGE_OVERLAP, "cage-overlap")                                                          \
    X(K_INNIES, "innies")                                                                      \
    X(K_OUTIES, "outies")

/* Step kinds: the technique names steps carry (Step.technique), in one list. The Python side
 * reads the names from the module (STEP_KINDS). Add new ones at the end of their family. */
#define LOGIC_STEP_KINDS(X)                                                                    \
    X(K_FULL_HOUSE, "full-house")                                                              \
    X(K_HIDDEN_SINGLE, "hidden-single")                                                        \
    X(K_NAKED_SINGLE, "naked-single")                                                          \
    X(K_DIRECT_POINTING, "direct-pointing")                                                    \
    X(K_DIRECT_CLAIMING, "direct-claiming")                                                    \
    X(K_POINTING, "pointing")                                                                  \
    X(K_CLAIMING, "claiming")                                                                  \
    X(K_DIRECT_HIDDEN_PAIR, "direct-hidden-pair")                                              \
    X(K_DIRECT_HIDDEN_TRIPLE, "direct-hidden-triple")                                          \
    X(K_NAKED_PAIR, "naked-pair")                                                              \
    X(K_NAKED_TRIPLE, "naked-triple")                                                          \
    X(K_NAKED_QUAD, "naked-quad")                                                              \
    X(K_HIDDEN_PAIR, "hidden-pair")                                                            \
    X(K_HIDDEN_TRIPLE, "hidden-triple")                                                        \
    X(K_HIDDEN_QUAD, "hidden-quad")                                                            \
    X(K_X_WING, "x-wing")                                                                      \
    X(K_SWORDFISH, "swordfish")                                                                \
    X(K_JELLYFISH, "jellyfish")                                                                \
    X(K_XY_WING, "xy-wing")                                                                    \
    X(K_XYZ_WING, "xyz-wing")                                                                  \
    X(K_UNIQUE_RECTANGLE, "unique-rectangle")                                                  \
    X(K_UNIQUE_LOOP, "unique-loop")                                                            \
    X(K_BUG, "bug")                                                                            \
    X(K_APE, "aligned-pair-exclusion")                                                         \
    X(K_ATE, "aligned-triple-exclusion")                                                       \
    X(K_LOCKED_PAIR, "locked-pair")                                                            \
    X(K_LOCKED_TRIPLE, "locked-triple")                                                        \
    X(K_FINNED_X_WING, "finned-x-wing")                                                        \
    X(K_SASHIMI_X_WING, "sashimi-x-wing")                                                      \
    X(K_SKYSCRAPER, "skyscraper")                                                              \
    X(K_FINNED_SWORDFISH, "finned-swordfish")                                                  \
    X(K_TWO_STRING_KITE, "two-string-kite")                                                    \
    X(K_SASHIMI_SWORDFISH, "sashimi-swordfish")                                                \
    X(K_TURBOT_FISH, "turbot-fish")                                                            \
    X(K_EMPTY_RECTANGLE, "empty-rectangle")                                                    \
    X(K_W_WING, "w-wing")                                                                      \
    X(K_FINNED_JELLYFISH, "finned-jellyfish")                                                  \
    X(K_SASHIMI_JELLYFISH, "sashimi-jellyfish")                                                \
    X(K_WXYZ_WING, "wxyz-wing")                                                                \
    X(K_REMOTE_PAIR, "remote-pair")                                                            \
    X(K_COLOR_TRAP, "color-trap")                                                              \
    X(K_COLOR_WRAP, "color-wrap")                                                              \
    X(K_X_CHAIN, "x-chain")                                                                    \
    X(K_XY_CHAIN, "xy-chain")                                                                  \
    X(K_ALS_XZ, "als-xz")                                                                      \
    X(K_X_CYCLE, "x-cycle")                                                                    \
    X(K_Y_CYCLE, "y-cycle")                                                                    \
    X(K_XY_CYCLE, "xy-cycle")                                                                  \
    X(K_FORCING_X_CHAIN, "forcing-x-chain")                                                    \
    X(K_FORCING_Y_CHAIN, "forcing-y-chain")                                                    \
    X(K_FORCING_CHAIN, "forcing-chain")                                                        \
    X(K_NISHIO, "nishio-forcing-chain")                                                        \
    X(K_CELL_FORCING_CHAIN, "cell-forcing-chain")                                              \
    X(K_REGION_FORCING_CHAIN, "region-forcing-chain")                                          \
    X(K_DYNAMIC_FORCING_CHAIN, "dynamic-forcing-chain")                                        \
    X(K_DYNAMIC_FORCING_CHAIN_PLUS, "dynamic-forcing-chain-plus")                              \
    X(K_NESTED_2, "nested-forcing-chain-2")                                                    \
    X(K_NESTED_3, "nested-forcing-chain-3")                                                    \
    X(K_NESTED_4, "nested-forcing-chain-4")                                                    \
    X(K_NESTED_5, "nested-forcing-chain-5")                                                    \
    KILLER_STEP_KINDS(X)

#define LOGIC_KIND_ENUM(id, name) id,
enum { LOGIC_STEP_KINDS(LOGIC_KIND_ENUM) K_NKINDS };
#undef LOGIC_KIND_ENUM

/* A growable int vector (the sink's pools). */
typedef struct { int *a; int len, cap; } lvec;

/* Parts of a step, in the sink's pools. Placements and eliminations are (cell, digit) pairs;
 * links are (cell, digit, cell2, digit2, strong) quintuples; info is raw ints that the
 * technique's Python module decodes into Step.info (register_info in logic/_step.py). */
enum { P_PLACE, P_ELIM, P_CELL, P_UNIT, P_DIGIT, P_LINK, P_INFO, P_NPARTS };
static const int lpart_width[P_NPARTS] = {2, 2, 1, 1, 1, 5, 1};

typedef struct lstep {
    int kind;
    double rating;
    int complexity;
    int start[P_NPARTS], count[P_NPARTS];  /* in items (an item is lpart_width ints) */
} lstep;

/* One engine slot per chain producer: forcing chains, nishio, multiple, dynamic (+, nested). */
#define LS_NCHAIN_ENGINES 9
struct ch_Engine;
struct ch_Memo;

typedef struct lsink {
    lstep *steps;
    int nsteps, cap;
    lvec pool[P_NPARTS];     /* finished steps' parts */
    lvec cur[P_NPARTS];      /* the step being built */
    lstep building;
    int open;                /* a step is being built */
    int want;                /* steps wanted before a finder is told to stop (0: all) */
    double max_rating;       /* steps rated above are dropped as they come (< 0: no cap) */
    int failed;              /* an allocation failed: every call is a no-op, finders stop */
    /* The chain producers' engines (chains.c), kept from one finder call to the next (the
     * steps of a path): their pools stay grown. Freed by sink_free. */
    struct ch_Engine *chain_engines[LS_NCHAIN_ENGINES];
    /* What nested chains' inner engines found on each grid, kept for the path (chains.c). */
    struct ch_Memo *chain_memo;
} lsink;

static int lvec_push(lvec *v, int x);  /* defined in _logic.c; 0 or -1 when out of memory */

static inline void lstep_begin(lsink *o, int kind, double rating) {
    o->open = 1;
    o->building.kind = kind;
    o->building.rating = rating;
    o->building.complexity = 0;
    for (int p = 0; p < P_NPARTS; p++) o->cur[p].len = 0;
}
static inline void lstep_complexity(lsink *o, int complexity) { o->building.complexity = complexity; }
static inline void lstep_put(lsink *o, int part, int x) {
    if (!o->failed && lvec_push(&o->cur[part], x)) o->failed = 1;
}
static inline void lstep_place(lsink *o, int cell, int digit) {
    lstep_put(o, P_PLACE, cell); lstep_put(o, P_PLACE, digit);
}
static inline void lstep_elim(lsink *o, int cell, int digit) {
    lstep_put(o, P_ELIM, cell); lstep_put(o, P_ELIM, digit);
}
static inline void lstep_cell(lsink *o, int cell) { lstep_put(o, P_CELL, cell); }
static inline void lstep_unit(lsink *o, int unit) { lstep_put(o, P_UNIT, unit); }
static inline void lstep_digit(lsink *o, int digit) { lstep_put(o, P_DIGIT, digit); }
static inline void lstep_info(lsink *o, int x) { lstep_put(o, P_INFO, x); }
static inline void lstep_link(lsink *o, int cell, int digit, int cell2, int digit2, int strong) {
    lstep_put(o, P_LINK, cell); lstep_put(o, P_LINK, digit); lstep_put(o, P_LINK, cell2);
    lstep_put(o, P_LINK, digit2); lstep_put(o, P_LINK, strong);
}
/* Drop the step being built (a finder that finds out late that it has nothing). */
static inline void lstep_cancel(lsink *o) { o->open = 0; }
/* Finish the step; nonzero when the finder must stop (enough steps, or out of memory). */
static int lstep_end(lsink *o);  /* defined in _logic.c */

/* 0-based, n-bit-wide helpers for finders that compare with the reference's Python ints. */
typedef void (*lfinder)(const lstate *s, lsink *out);

#endif
