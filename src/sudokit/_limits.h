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

#endif
