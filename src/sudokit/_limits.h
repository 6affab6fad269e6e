/*
 * The limits every sudokit extension shares: one definition, exported to Python by
 * sudokit._engine as MAX_SIDE (sudokit._shape takes it from there, and a test checks that
 * every extension agrees).
 *
 * SUDOKIT_MAX_SIDE is the largest grid side (box_rows * box_cols) sudokit accepts. Candidate
 * masks are 64-bit, so the code could hold 64; the limit is what is tested to work in
 * reasonable time (random complete grids and generated unique puzzles), not what fits.
 */
#ifndef SUDOKIT_LIMITS_H
#define SUDOKIT_LIMITS_H

#define SUDOKIT_MAX_SIDE 36
#define SUDOKIT_MIN_BOX_SIDE 2

#if SUDOKIT_MAX_SIDE > 64
#error "candidate masks are 64-bit: SUDOKIT_MAX_SIDE must not exceed 64"
#endif

#ifdef Py_PYTHON_H
/* Check a shape before anything is computed from it (the product of two large ints would
 * overflow): one rule and one message for every extension.  Return n = br * bc, or -1 with
 * ValueError set. */
static inline int sudokit_check_shape(int br, int bc)
{
    if (br < SUDOKIT_MIN_BOX_SIDE || bc < SUDOKIT_MIN_BOX_SIDE ||
        br > SUDOKIT_MAX_SIDE / SUDOKIT_MIN_BOX_SIDE || bc > SUDOKIT_MAX_SIDE / SUDOKIT_MIN_BOX_SIDE ||
        br * bc > SUDOKIT_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError,
                     "invalid shape %dx%d: box sides must be at least %d and the grid side "
                     "(their product) at most %d",
                     br, bc, SUDOKIT_MIN_BOX_SIDE, SUDOKIT_MAX_SIDE);
        return -1;
    }
    return br * bc;
}
#endif

#endif
