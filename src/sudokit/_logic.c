/*
 * sudokit._logic: the logic engine in C -- every technique, and the solver loop.
 *
 * One translation unit: the shared types (_clogic/logic.h), the sink that collects steps, the
 * per-shape geometry, each technique family (_clogic/<family>.c), the technique table in
 * Sudoku Explainer's order, the solver loop, and the Python interface. Python keeps the rest:
 * Step objects, their text, hints, SVG and JSON (src/sudokit/logic/). The pure-Python
 * techniques the tests compare this engine with live in tests/logic/reference/.
 *
 * Every argument from Python is checked before use: the shape before anything is computed
 * from it, one value (0..n) and one candidate mask (bits below n) per cell, technique ids
 * within the table. A failed allocation ends the call with MemoryError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_clogic/logic.h"

#include "_faults.h"
#include "_interrupt.h"

/* ------------------------------------------------------------------ the sink */

static int lvec_push(lvec *v, int x) {
    if (v->len == v->cap) {
        int cap = v->cap ? 2 * v->cap : 64;
        int *a = realloc(v->a, sizeof(int) * (size_t)cap);
        if (!a) return -1;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->len++] = x;
    return 0;
}

static void sink_init(lsink *o, int want, double max_rating) {
    memset(o, 0, sizeof *o);
    o->want = want;
    o->max_rating = max_rating;
}

static void sink_reset(lsink *o, int want, double max_rating) {
    o->nsteps = 0;
    for (int p = 0; p < P_NPARTS; p++) o->pool[p].len = o->cur[p].len = 0;
    o->open = 0;
    o->want = want;
    o->max_rating = max_rating;
}

static void ch_sink_free(lsink *o);  /* chains.c: the kept chain engines */

static void sink_free(lsink *o) {
    ch_sink_free(o);
    free(o->steps);
    for (int p = 0; p < P_NPARTS; p++) { free(o->pool[p].a); free(o->cur[p].a); }
    memset(o, 0, sizeof *o);
}

static int lstep_end(lsink *o) {
    if (o->failed) return 1;
    if (!o->open) return 0;
    o->open = 0;
    if (o->max_rating >= 0 && o->building.rating > o->max_rating) return 0;
    if (o->nsteps == o->cap) {
        int cap = o->cap ? 2 * o->cap : 16;
        lstep *a = realloc(o->steps, sizeof(lstep) * (size_t)cap);
        if (!a) { o->failed = 1; return 1; }
        o->steps = a;
        o->cap = cap;
    }
    lstep *st = o->steps + o->nsteps;
    *st = o->building;
    for (int p = 0; p < P_NPARTS; p++) {
        lvec *src = &o->cur[p], *dst = &o->pool[p];
        st->start[p] = dst->len / lpart_width[p];
        st->count[p] = src->len / lpart_width[p];
        for (int i = 0; i < src->len; i++)
            if (lvec_push(dst, src->a[i])) { o->failed = 1; return 1; }
    }
    o->nsteps++;
    return o->want && o->nsteps >= o->want;
}

static inline const int *lstep_part(const lsink *o, const lstep *st, int part) {
    return o->pool[part].a + st->start[part] * lpart_width[part];
}

#include "_clogic/geometry.c"

/* ------------------------------------------------------------------ technique families */

#include "_clogic/singles.c"
#include "_clogic/intersections.c"
#include "_clogic/uniqueness.c"
#include "_clogic/bug.c"
#include "_clogic/patterns.c"
#include "_clogic/coloring.c"
#include "_clogic/subsets.c"
#include "_clogic/fish.c"
#include "_clogic/wings.c"
#include "_clogic/exclusion.c"
#include "_clogic/als.c"
#include "_clogic/chains.c"
#include "_clogic/killer_sums.c"
#include "_clogic/killer.c"
#include "_clogic/killer45.c"

/* ------------------------------------------------------------------ the technique table */

/* Every technique the engine knows: Sudoku Explainer's in its order, then the others. The one
 * table of techniques: the module exports it as TECHNIQUES, from which logic/_table.py builds
 * Python's (adding each one's finder, step names and groups). `slug` is the name users and
 * the CLI give, `name` the one people read. `best`: the cheapest step (by rating, then
 * complexity) is taken rather than the first found. `se`: Sudoku Explainer has it. A NULL
 * finder is one not yet moved into C. */
typedef struct {
    const char *slug, *name;
    double rating;
    int best, se;
    lfinder find;
} ltech;

static const ltech TECHS[] = {
    {"full-house", "Full house", 1.0, 0, 1, lf_full_houses},
    {"hidden-single", "Hidden single", 1.2, 0, 1, lf_hidden_singles},
    {"direct-intersections", "Direct pointing and claiming", 1.7, 0, 1, lf_direct_intersections},
    {"direct-hidden-pair", "Direct hidden pair", 2.0, 0, 1, lf_direct_hidden_pairs},
    {"naked-single", "Naked single", 2.3, 0, 1, lf_naked_singles},
    {"direct-hidden-triple", "Direct hidden triple", 2.5, 0, 1, lf_direct_hidden_triples},
    {"intersections", "Pointing and claiming", 2.6, 0, 1, lf_intersections},
    {"naked-pair", "Naked pair", 3.0, 0, 1, lf_naked_pairs},
    {"x-wing", "X-Wing", 3.2, 0, 1, lf_x_wings},
    {"hidden-pair", "Hidden pair", 3.4, 0, 1, lf_hidden_pairs},
    {"naked-triple", "Naked triple", 3.6, 0, 1, lf_naked_triples},
    {"swordfish", "Swordfish", 3.8, 0, 1, lf_swordfish},
    {"hidden-triple", "Hidden triple", 4.0, 0, 1, lf_hidden_triples},
    {"xy-wing", "XY-Wing", 4.2, 0, 1, lf_xy_wings},
    {"xyz-wing", "XYZ-Wing", 4.4, 0, 1, lf_xyz_wings},
    {"unique-rectangle", "Unique rectangles and loops", 4.5, 0, 1, lf_unique_loops},
    {"naked-quad", "Naked quad", 5.0, 0, 1, lf_naked_quads},
    {"jellyfish", "Jellyfish", 5.2, 0, 1, lf_jellyfish},
    {"hidden-quad", "Hidden quad", 5.4, 0, 1, lf_hidden_quads},
    {"bug", "Bivalue universal grave", 5.6, 0, 1, lf_bug},
    {"aligned-pair-exclusion", "Aligned pair exclusion", 6.2, 0, 1, lf_aligned_pair_exclusions},
    {"forcing-chains", "Forcing chains and cycles", 6.5, 1, 1, lf_forcing_chains},
    {"aligned-triple-exclusion", "Aligned triple exclusion", 7.5, 0, 1, lf_aligned_triple_exclusions},
    {"nishio", "Nishio forcing chains", 7.5, 1, 1, lf_nishio},
    {"multiple-forcing-chains", "Multiple forcing chains", 8.0, 1, 1, lf_multiple_forcing_chains},
    {"dynamic-forcing-chains", "Dynamic forcing chains", 8.5, 1, 1, lf_dynamic_forcing_chains},
    {"dynamic-forcing-chains-plus", "Dynamic forcing chains (+)", 9.0, 1, 1, lf_dynamic_forcing_chains_plus},
    {"nested-forcing-chains-2", "Nested forcing chains, level 2", 9.5, 1, 1, lf_nested_forcing_chains_2},
    {"nested-forcing-chains-3", "Nested forcing chains, level 3", 10.0, 1, 1, lf_nested_forcing_chains_3},
    {"nested-forcing-chains-4", "Nested forcing chains, level 4", 10.5, 1, 1, lf_nested_forcing_chains_4},
    {"nested-forcing-chains-5", "Nested forcing chains, level 5", 11.0, 1, 1, lf_nested_forcing_chains_5},
    /* not in Sudoku Explainer */
    {"locked-subsets", "Locked pair and triple", 3.0, 0, 0, lf_locked_subsets},
    {"finned-x-wing", "Finned X-Wing", 3.4, 0, 0, lf_finned_x_wings},
    {"sashimi-x-wing", "Sashimi X-Wing", 3.5, 0, 0, lf_sashimi_x_wings},
    {"skyscraper", "Skyscraper", 4.0, 0, 0, lf_skyscrapers},
    {"finned-swordfish", "Finned Swordfish", 4.0, 0, 0, lf_finned_swordfish},
    {"two-string-kite", "2-String Kite", 4.1, 0, 0, lf_two_string_kites},
    {"sashimi-swordfish", "Sashimi Swordfish", 4.1, 0, 0, lf_sashimi_swordfish},
    {"turbot-fish", "Turbot Fish", 4.2, 0, 0, lf_turbot_fish},
    {"empty-rectangle", "Empty Rectangle", 4.2, 0, 0, lf_empty_rectangles},
    {"w-wing", "W-Wing", 4.4, 0, 0, lf_w_wings},
    {"finned-jellyfish", "Finned Jellyfish", 5.4, 0, 0, lf_finned_jellyfish},
    {"sashimi-jellyfish", "Sashimi Jellyfish", 5.5, 0, 0, lf_sashimi_jellyfish},
    {"wxyz-wing", "WXYZ-Wing", 5.5, 0, 0, lf_wxyz_wings},
    {"remote-pair", "Remote Pair", 6.6, 0, 0, lf_remote_pairs},
    {"simple-coloring", "Simple colouring", 6.6, 0, 0, lf_simple_colors},
    {"x-chain", "X-Chain", 6.6, 0, 0, lf_x_chains},
    {"xy-chain", "XY-Chain", 6.6, 0, 0, lf_xy_chains},
    {"als-xz", "ALS-XZ", 7.0, 0, 0, lf_als_xz},
    /* killer's (KILLER_FINDERS): a cage combination or rule of 45 per size, so that the solver
     * tries the smaller ones first (docs/rating.md, "Killer") */
    {"cage-single", "Cage single", 1.0, 0, 0, lf_cage_singles},
    {"rule-of-45-single", "Rule of 45: one innie or outie", 1.5, 0, 0, lf_rule_of_45_single},
    {"cage-combinations-2", "Cage combinations (two cells)", 1.6, 0, 0, lf_cage_combinations_2},
    {"cage-combinations-3", "Cage combinations (three cells)", 2.0, 0, 0, lf_cage_combinations_3},
    {"cage-combinations-4", "Cage combinations (four cells or more)", 2.4, 0, 0, lf_cage_combinations_4},
    {"cage-confinement", "Cage confinement", 2.5, 0, 0, lf_cage_confinement},
    {"cage-overlap", "Cage and house overlap", 2.7, 0, 0, lf_cage_overlap},
    {"rule-of-45", "Rule of 45: innies and outies of a house", 2.9, 0, 0, lf_rule_of_45},
    {"rule-of-45-groups-single", "Rule of 45 on houses: one innie or outie", 3.1, 0, 0,
     lf_rule_of_45_groups_single},
    {"rule-of-45-groups", "Rule of 45 on houses: innies and outies", 3.5, 0, 0, lf_rule_of_45_groups},
};
#define NTECHS ((int)(sizeof TECHS / sizeof TECHS[0]))

/* The techniques that run on a rules geometry (any houses, peers beyond them): those that
 * read only the houses, the cell sets and the peers (the module exports them as
 * RULES_TECHNIQUES). The others read the classic tables of a box, row and column per cell. */
static const lfinder RULES_FINDERS[] = {
    lf_full_houses, lf_hidden_singles, lf_direct_intersections, lf_direct_hidden_pairs,
    lf_naked_singles, lf_direct_hidden_triples, lf_intersections, lf_naked_pairs, lf_x_wings,
    lf_hidden_pairs, lf_naked_triples, lf_swordfish, lf_hidden_triples, lf_naked_quads,
    lf_jellyfish, lf_hidden_quads, lf_xy_wings, lf_xyz_wings, lf_unique_loops, lf_bug,
    lf_aligned_pair_exclusions, lf_forcing_chains, lf_aligned_triple_exclusions,
};

/* Killer's techniques: they read a rules geometry's cages (and find nothing without them).
 * The module exports them as KILLER_TECHNIQUES. */
static const lfinder KILLER_FINDERS[] = {
    lf_cage_singles, lf_rule_of_45_single, lf_cage_combinations_2, lf_cage_combinations_3,
    lf_cage_combinations_4, lf_cage_confinement, lf_cage_overlap, lf_rule_of_45,
    lf_rule_of_45_groups_single, lf_rule_of_45_groups,
};

/* Whether technique tech's finder is one of the len finders of list. */
static int finder_in(const lfinder *list, size_t len, int tech) {
    for (size_t i = 0; i < len; i++)
        if (TECHS[tech].find == list[i]) return 1;
    return 0;
}

static int killer_tech(int tech) {
    return finder_in(KILLER_FINDERS, sizeof KILLER_FINDERS / sizeof KILLER_FINDERS[0], tech);
}

static int rules_ok(int tech) {
    return finder_in(RULES_FINDERS, sizeof RULES_FINDERS / sizeof RULES_FINDERS[0], tech) ||
           killer_tech(tech);
}

/* The module's tuple ``name``: the slugs of the techniques ``pred`` takes, in table order.
 * -1 on error (exception set). */
static int add_slugs(PyObject *m, const char *name, int (*pred)(int)) {
    int k = 0;
    for (int t = 0; t < NTECHS; t++) k += pred(t);
    PyObject *out = PyTuple_New(k);
    if (!out) return -1;
    k = 0;
    for (int t = 0; t < NTECHS; t++) {
        if (!pred(t)) continue;
        PyObject *x = PyUnicode_FromString(TECHS[t].slug);
        if (!x) { Py_DECREF(out); return -1; }
        PyTuple_SET_ITEM(out, k++, x);
    }
    int bad = PyModule_AddObjectRef(m, name, out) < 0;
    Py_DECREF(out);
    return bad ? -1 : 0;
}

/* ------------------------------------------------------------------ the solver loop */

/* The step the solver takes next (logic/_solver.py next_step): the techniques in the order
 * given; a technique rated above max_rating is skipped and so are steps above it; a `best`
 * technique gives its cheapest step (rating, then complexity; the first of equals), the others
 * their first. The step is left as the sink's only step; returns 1 when found, 0 when stuck. */
static int next_step(const lstate *s, const int *techs, int ntechs, double max_rating, lsink *o) {
    for (int i = 0; i < ntechs; i++) {
        const ltech *t = TECHS + techs[i];
        if (max_rating >= 0 && t->rating > max_rating) continue;
        sink_reset(o, t->best ? 0 : 1, max_rating);
        t->find(s, o);
        if (o->failed) return 0;
        if (!o->nsteps) continue;
        if (t->best && o->nsteps > 1) {
            int b = 0;
            for (int k = 1; k < o->nsteps; k++) {
                const lstep *x = o->steps + k, *y = o->steps + b;
                if (x->rating < y->rating || (x->rating == y->rating && x->complexity < y->complexity)) b = k;
            }
            if (b) {
                /* keep only the chosen step: it becomes step 0 (its parts stay in the pools) */
                o->steps[0] = o->steps[b];
            }
        }
        o->nsteps = 1;
        return 1;
    }
    return 0;
}

/* Make the step's placements, then its eliminations (logic/_step.py apply); whether that
 * changed anything. */
static int apply_step(lstate *s, const lsink *o, const lstep *st) {
    int changed = 0;
    const int *p = lstep_part(o, st, P_PLACE);
    for (int i = 0; i < st->count[P_PLACE]; i++)
        if (!s->values[p[2 * i]]) { ls_place(s, p[2 * i], p[2 * i + 1]); changed = 1; }
    const int *e = lstep_part(o, st, P_ELIM);
    for (int i = 0; i < st->count[P_ELIM]; i++) changed |= ls_eliminate(s, e[2 * i], e[2 * i + 1]);
    return changed;
}

/* ------------------------------------------------------------------ Python interface */

static PyTypeObject *StepDataType;
static PyObject *kind_names[K_NKINDS];

static PyStructSequence_Field step_fields[] = {
    {"kind", "the step's technique name (Step.technique)"},
    {"rating", "its rating"},
    {"complexity", "chain node count (0 for patterns)"},
    {"placements", "(cell, digit) pairs"},
    {"eliminations", "(cell, digit) pairs"},
    {"cells", "cells of the pattern"},
    {"units", "units of the pattern"},
    {"digits", "digits of the pattern"},
    {"links", "(cell, digit, cell2, digit2, strong) links"},
    {"info", "raw ints for the technique's info decoder"},
    {NULL, NULL},
};
static PyStructSequence_Desc step_desc = {
    "sudokit._logic.StepData", "A step as the C engine finds it.", step_fields, 10,
};

static PyObject *int_tuple(const int *a, int k) {
    PyObject *t = PyTuple_New(k);
    if (!t) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *x = PyLong_FromLong(a[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* A tuple of k tuples of w ints each (the last one a bool when as_bool). */
static PyObject *group_tuple(const int *a, int k, int w, int last_bool) {
    PyObject *t = PyTuple_New(k);
    if (!t) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *item = PyTuple_New(w);
        if (!item) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, item);
        for (int j = 0; j < w; j++) {
            int v = a[i * w + j];
            PyObject *x = last_bool && j == w - 1 ? PyBool_FromLong(v) : PyLong_FromLong(v);
            if (!x) { Py_DECREF(t); return NULL; }
            PyTuple_SET_ITEM(item, j, x);
        }
    }
    return t;
}

static PyObject *export_step(const lsink *o, const lstep *st) {
    PyObject *r = PyStructSequence_New(StepDataType);
    if (!r) return NULL;
    PyObject *items[10];
    items[0] = Py_NewRef(kind_names[st->kind]);
    items[1] = PyFloat_FromDouble(st->rating);
    items[2] = PyLong_FromLong(st->complexity);
    items[3] = group_tuple(lstep_part(o, st, P_PLACE), st->count[P_PLACE], 2, 0);
    items[4] = group_tuple(lstep_part(o, st, P_ELIM), st->count[P_ELIM], 2, 0);
    items[5] = int_tuple(lstep_part(o, st, P_CELL), st->count[P_CELL]);
    items[6] = int_tuple(lstep_part(o, st, P_UNIT), st->count[P_UNIT]);
    items[7] = int_tuple(lstep_part(o, st, P_DIGIT), st->count[P_DIGIT]);
    items[8] = group_tuple(lstep_part(o, st, P_LINK), st->count[P_LINK], 5, 1);
    items[9] = int_tuple(lstep_part(o, st, P_INFO), st->count[P_INFO]);
    int bad = 0;
    for (int i = 0; i < 10; i++) {
        if (!items[i]) bad = 1;
        PyStructSequence_SET_ITEM(r, i, items[i]);  /* NULL slots are fine for the dealloc */
    }
    if (bad) { Py_DECREF(r); return NULL; }
    return r;
}

/* The position argument: (box_rows, box_cols, values, cand), checked; fills *s. cand None:
 * the puzzle's candidates (every digit no peer holds). */
/* A rules geometry argument (bytes from logic/_state.py engine_geometry, or None for the
 * classic rules): its geometry, checked against the shape; NULL with an exception set. */
static lgeo *parse_rules_geo(PyObject *blob, int br, int bc, int *owned) {
    if (!PyBytes_Check(blob)) {
        PyErr_SetString(PyExc_TypeError, "geometry must be bytes or None");
        return NULL;
    }
    int bad = 0;
    lgeo *g = get_rules_geo((const uint8_t *)PyBytes_AS_STRING(blob), PyBytes_GET_SIZE(blob), owned, &bad);
    if (!g) {
        if (bad == 2) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, "geometry: not a rules geometry the engine can read");
        return NULL;
    }
    if (g->br != br || g->bc != bc) {
        PyErr_Format(PyExc_ValueError, "geometry: for shape %dx%d, the position is %dx%d", g->br, g->bc, br, bc);
        if (*owned) geo_free(g);
        *owned = 0;
        return NULL;
    }
    return g;
}

/* Every technique of techs runs on a rules geometry; else ValueError naming the first that
 * does not. */
static int check_rules_techs(const lgeo *g, const int *techs, int ntechs) {
    if (!g->rules) return 0;
    for (int i = 0; i < ntechs; i++)
        if (!rules_ok(techs[i])) {
            PyErr_Format(PyExc_ValueError, "technique %s does not run on rules beyond the classic ones",
                         TECHS[techs[i]].slug);
            return -1;
        }
    return 0;
}

static int parse_position(int br, int bc, Py_buffer *values, PyObject *cand_seq, PyObject *blob,
                          lstate *s, lgeo **geo, int *owned) {
    int n = sudokit_check_shape(br, bc);
    if (n < 0) return -1;
    if (blob != Py_None) {
        lgeo *g = parse_rules_geo(blob, br, bc, owned);
        if (!g) return -1;
        *geo = g;
    }
    int size = n * n;
    if (values->len != size) {
        PyErr_Format(PyExc_ValueError, "expected %d values, got %zd", size, values->len);
        return -1;
    }
    const uint8_t *v = values->buf;
    for (int i = 0; i < size; i++)
        if (v[i] > n) {
            PyErr_Format(PyExc_ValueError, "values: cell %d holds %d, over the largest digit %d", i, v[i], n);
            return -1;
        }
    static dmask cand[LG_MAXC];  /* only used with the GIL held */
    if (cand_seq == Py_None && *geo) {
        /* the candidates of the puzzle under rules: every digit no peer holds */
        lgeo *g = *geo;
        dmask all = n < 64 ? (((dmask)1 << n) - 1) : ~(dmask)0;
        for (int c = 0; c < size; c++) cand[c] = v[c] ? 0 : all;
        for (int c = 0; c < size; c++) {
            if (!v[c]) continue;
            dmask bit = ~((dmask)1 << (v[c] - 1));
            CS_FOREACH(p, &g->peer_mask[c], g->nw) cand[p] &= bit;
        }
        ls_init(s, g, v, cand);
        return 0;
    }
    if (cand_seq == Py_None) {
        /* the candidates of the puzzle: every digit no peer holds (the digits of each row,
         * column and box first, in one pass) */
        dmask rows[LG_MAXN] = {0}, cols[LG_MAXN] = {0}, boxes[LG_MAXN] = {0};
        int per_band = n / bc;
        for (int c = 0; c < size; c++) {
            if (!v[c]) continue;
            int r = c / n, col = c % n;
            dmask bit = (dmask)1 << (v[c] - 1);
            rows[r] |= bit; cols[col] |= bit; boxes[(r / br) * per_band + col / bc] |= bit;
        }
        dmask all = n < 64 ? (((dmask)1 << n) - 1) : ~(dmask)0;
        for (int c = 0; c < size; c++) {
            int r = c / n, col = c % n;
            cand[c] = v[c] ? 0 : all & ~(rows[r] | cols[col] | boxes[(r / br) * per_band + col / bc]);
        }
        lgeo *g = get_geo(br, bc, owned);
        if (!g) { PyErr_NoMemory(); return -1; }
        *geo = g;
        ls_init(s, g, v, cand);
        return 0;
    }
    PyObject *fast = PySequence_Fast(cand_seq, "cand must be a sequence of ints, or None");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        PyErr_Format(PyExc_ValueError, "expected %d candidate masks, got %zd", size,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    dmask beyond = n < 64 ? ~(((dmask)1 << n) - 1) : 0;
    for (int i = 0; i < size; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "cand: mask %d is not an int", i);
            Py_DECREF(fast);
            return -1;
        }
        unsigned long long m = PyLong_AsUnsignedLongLong(item);
        if (m == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "cand: mask %d is not a %d-bit candidate mask", i, n);
            Py_DECREF(fast);
            return -1;
        }
        if ((dmask)m & beyond) {
            PyErr_Format(PyExc_ValueError, "cand: mask %d has bits at or above %d (digits are 1..%d)", i, n, n);
            Py_DECREF(fast);
            return -1;
        }
        if (m && v[i]) {
            PyErr_Format(PyExc_ValueError, "cand: cell %d holds a value and has candidates", i);
            Py_DECREF(fast);
            return -1;
        }
        cand[i] = (dmask)m;
    }
    Py_DECREF(fast);
    lgeo *g = *geo ? *geo : get_geo(br, bc, owned);
    if (!g) { PyErr_NoMemory(); return -1; }
    *geo = g;
    ls_init(s, g, v, cand);
    return 0;
}

/* A sequence of technique ids, checked. Returns a malloc'd array (caller frees) or NULL. */
static int *parse_techs(PyObject *seq, int *count) {
    PyObject *fast = PySequence_Fast(seq, "techniques must be a sequence of ints");
    if (!fast) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    if (k > 4 * NTECHS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many techniques (%zd)", k);
        return NULL;
    }
    int *ids = malloc(sizeof(int) * (size_t)(k + 1));
    if (!ids) { Py_DECREF(fast); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < k; i++) {
        long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (t == -1 && PyErr_Occurred()) { free(ids); Py_DECREF(fast); return NULL; }
        if (t < 0 || t >= NTECHS) {
            PyErr_Format(PyExc_ValueError, "unknown technique id %ld (0..%d)", t, NTECHS - 1);
            free(ids); Py_DECREF(fast); return NULL;
        }
        if (!TECHS[t].find) {
            PyErr_Format(PyExc_ValueError, "technique %s is not in the C engine", TECHS[t].slug);
            free(ids); Py_DECREF(fast); return NULL;
        }
        ids[i] = (int)t;
    }
    Py_DECREF(fast);
    *count = (int)k;
    return ids;
}

static lstate *new_state(void) {
    lstate *s = PyMem_Malloc(sizeof(lstate));
    if (!s) PyErr_NoMemory();
    return s;
}

/* find(tech, box_rows, box_cols, values, cand) -> every step of one technique, in order. */
static PyObject *py_find(PyObject *self, PyObject *args) {
    (void)self;
    int tech, br, bc;
    Py_buffer values;
    PyObject *cand, *blob = Py_None;
    if (!PyArg_ParseTuple(args, "iiiy*O|O", &tech, &br, &bc, &values, &cand, &blob)) return NULL;
    PyObject *out = NULL;
    lgeo *g = NULL;
    int owned = 0;
    lsink o;
    sink_init(&o, 0, -1);
    lstate *s = new_state();
    if (!s) goto end;
    if (tech < 0 || tech >= NTECHS || !TECHS[tech].find) {
        PyErr_Format(PyExc_ValueError, "unknown technique id %d, or not in the C engine", tech);
        goto end;
    }
    if (parse_position(br, bc, &values, cand, blob, s, &g, &owned)) goto end;
    if (check_rules_techs(g, &tech, 1)) goto end;
    sudokit_interrupt_begin();
    TECHS[tech].find(s, &o);
    if (sudokit_interrupt_end()) goto end;
    if (o.failed) { PyErr_NoMemory(); goto end; }
    out = PyList_New(o.nsteps);
    if (!out) goto end;
    for (int i = 0; i < o.nsteps; i++) {
        PyObject *st = export_step(&o, o.steps + i);
        if (!st) { Py_CLEAR(out); goto end; }
        PyList_SET_ITEM(out, i, st);
    }
end:
    PyBuffer_Release(&values);
    sink_free(&o);
    PyMem_Free(s);
    if (owned) geo_free(g);
    return out;
}

/* next_step(techniques, max_rating, box_rows, box_cols, values, cand) -> StepData or None */
static PyObject *py_next_step(PyObject *self, PyObject *args) {
    (void)self;
    int br, bc;
    double max_rating;
    Py_buffer values;
    PyObject *techs_seq, *cand, *blob = Py_None;
    if (!PyArg_ParseTuple(args, "Odiiy*O|O", &techs_seq, &max_rating, &br, &bc, &values, &cand, &blob))
        return NULL;
    PyObject *out = NULL;
    lgeo *g = NULL;
    int owned = 0, ntechs = 0;
    lsink o;
    sink_init(&o, 0, -1);
    lstate *s = NULL;
    int *techs = parse_techs(techs_seq, &ntechs);
    if (!techs) goto end;
    if (!(s = new_state())) goto end;
    if (parse_position(br, bc, &values, cand, blob, s, &g, &owned)) goto end;
    if (check_rules_techs(g, techs, ntechs)) goto end;
    int found;
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS
    found = next_step(s, techs, ntechs, max_rating, &o);
    Py_END_ALLOW_THREADS
    if (sudokit_interrupt_end()) goto end;
    if (o.failed) { PyErr_NoMemory(); goto end; }
    out = found ? export_step(&o, o.steps) : Py_NewRef(Py_None);
end:
    PyBuffer_Release(&values);
    free(techs);
    sink_free(&o);
    PyMem_Free(s);
    if (owned) geo_free(g);
    return out;
}

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { END_SOLVED, END_STUCK, END_CAPPED, END_TIMEOUT };

/* path(techniques, max_rating, stop_above, deadline, box_rows, box_cols, values, cand)
 *   -> (end, steps, values, cand)
 * The solver loop from a position: next_step with max_rating (as solve_steps does), applied,
 * until solved (end 0) or stuck (1). With stop_above >= 0, a step rated above it ends the path
 * (end 2) as the last item of steps, not applied (rate()'s cap). With deadline >= 0 (a
 * time.monotonic() value), the path ends (end 3) when it is passed, checked between steps.
 * values and cand are the position reached. */
static PyObject *py_path(PyObject *self, PyObject *args) {
    (void)self;
    int br, bc;
    double max_rating, stop_above, deadline;
    Py_buffer values;
    PyObject *techs_seq, *cand, *blob = Py_None;
    if (!PyArg_ParseTuple(args, "Odddiiy*O|O", &techs_seq, &max_rating, &stop_above, &deadline, &br,
                          &bc, &values, &cand, &blob))
        return NULL;
    PyObject *out = NULL, *steps = NULL;
    lgeo *g = NULL;
    int owned = 0, ntechs = 0, end = END_STUCK;
    lsink o, path;
    sink_init(&o, 0, -1);
    sink_init(&path, 0, -1);
    lstate *s = NULL;
    int *techs = parse_techs(techs_seq, &ntechs);
    if (!techs) goto end;
    if (!(s = new_state())) goto end;
    if (parse_position(br, bc, &values, cand, blob, s, &g, &owned)) goto end;
    if (check_rules_techs(g, techs, ntechs)) goto end;
    int broken = 0;
    sudokit_interrupt_begin();
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        if (sudokit_poll_signals()) break; /* between steps; a chaining step checks inside too */
        if (ls_solved(s)) { end = END_SOLVED; break; }
        if (deadline >= 0 && monotonic_now() > deadline) { end = END_TIMEOUT; break; }
        if (!next_step(s, techs, ntechs, max_rating, &o)) { end = END_STUCK; break; }
        /* copy the step into the path sink */
        const lstep *st = o.steps;
        path.open = 1;
        path.building.kind = st->kind;
        path.building.rating = st->rating;
        path.building.complexity = st->complexity;
        for (int p = 0; p < P_NPARTS; p++) {
            path.cur[p].len = 0;
            const int *a = lstep_part(&o, st, p);
            for (int i = 0; i < st->count[p] * lpart_width[p]; i++) lstep_put(&path, p, a[i]);
        }
        lstep_end(&path);
        if (path.failed) break;
        if (stop_above >= 0 && st->rating > stop_above) { end = END_CAPPED; break; }
        if (!apply_step(s, &o, st)) { broken = 1; break; }
    }
    Py_END_ALLOW_THREADS
    if (sudokit_interrupt_end()) goto end;
    if (o.failed || path.failed) { PyErr_NoMemory(); goto end; }
    if (broken) {
        PyErr_Format(PyExc_RuntimeError, "internal error: a %s step changed nothing",
                     PyUnicode_AsUTF8(kind_names[o.steps[0].kind]));
        goto end;
    }
    steps = PyList_New(path.nsteps);
    if (!steps) goto end;
    for (int i = 0; i < path.nsteps; i++) {
        PyObject *st = export_step(&path, path.steps + i);
        if (!st) goto end;
        PyList_SET_ITEM(steps, i, st);
    }
    int size = g->size;
    PyObject *cands = PyTuple_New(size);
    if (!cands) goto end;
    for (int i = 0; i < size; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(s->cand[i]);
        if (!x) { Py_DECREF(cands); goto end; }
        PyTuple_SET_ITEM(cands, i, x);
    }
    out = Py_BuildValue("(iOy#N)", end, steps, (const char *)s->values, (Py_ssize_t)size, cands);
end:
    Py_XDECREF(steps);
    PyBuffer_Release(&values);
    free(techs);
    sink_free(&o);
    sink_free(&path);
    PyMem_Free(s);
    if (owned) geo_free(g);
    return out;
}

static PyMethodDef methods[] = {
    SUDOKIT_FAULT_METHODS
    {"find", py_find, METH_VARARGS,
     "find(technique, box_rows, box_cols, values, cand) -> list of StepData\n"
     "Every step one technique finds in a position, in its search order."},
    {"next_step", py_next_step, METH_VARARGS,
     "next_step(techniques, max_rating, box_rows, box_cols, values, cand) -> StepData | None\n"
     "The step the solver takes next (max_rating < 0: no cap)."},
    {"path", py_path, METH_VARARGS,
     "path(techniques, max_rating, stop_above, deadline, box_rows, box_cols, values, cand)\n"
     "-> (end, steps, values, cand): the solver loop; end is 0 solved, 1 stuck, 2 capped,\n"
     "3 out of time (negative numbers: no cap, no deadline)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_logic", "The logic engine in C (see sudokit/logic/).", -1,
    methods, NULL, NULL, NULL, NULL,
};

#define LOGIC_KIND_NAME(id, name) name,
static const char *const KIND_NAMES[] = {LOGIC_STEP_KINDS(LOGIC_KIND_NAME)};
#undef LOGIC_KIND_NAME

PyMODINIT_FUNC PyInit__logic(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    StepDataType = PyStructSequence_NewType(&step_desc);
    if (!StepDataType || PyModule_AddObjectRef(m, "StepData", (PyObject *)StepDataType) < 0) goto fail;
    PyObject *kinds = PyTuple_New(K_NKINDS);
    if (!kinds) goto fail;
    for (int k = 0; k < K_NKINDS; k++) {
        kind_names[k] = PyUnicode_InternFromString(KIND_NAMES[k]);
        if (!kind_names[k]) { Py_DECREF(kinds); goto fail; }
        PyTuple_SET_ITEM(kinds, k, Py_NewRef(kind_names[k]));
    }
    int bad = PyModule_AddObjectRef(m, "STEP_KINDS", kinds) < 0;
    Py_DECREF(kinds);
    if (bad) goto fail;
    PyObject *techs = PyTuple_New(NTECHS);
    if (!techs) goto fail;
    for (int t = 0; t < NTECHS; t++) {
        const ltech *x = TECHS + t;
        PyObject *item = Py_BuildValue("(ssdOOO)", x->slug, x->name, x->rating, x->best ? Py_True : Py_False,
                                       x->se ? Py_True : Py_False, x->find ? Py_True : Py_False);
        if (!item) { Py_DECREF(techs); goto fail; }
        PyTuple_SET_ITEM(techs, t, item);
    }
    /* (slug, name, rating, best, in SE, in C) for each technique id */
    bad = PyModule_AddObjectRef(m, "TECHNIQUES", techs) < 0;
    Py_DECREF(techs);
    if (bad) goto fail;
    if (PyModule_AddIntConstant(m, "MAX_SIDE", SUDOKIT_MAX_SIDE) < 0) goto fail;
    if (add_slugs(m, "RULES_TECHNIQUES", rules_ok) < 0) goto fail;
    if (add_slugs(m, "KILLER_TECHNIQUES", killer_tech) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
