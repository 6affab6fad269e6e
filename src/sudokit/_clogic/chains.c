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
 * them. Everything here is prefixed ch_; the shape's tables are the logic engine's (lgeo,
 * _clogic/geometry.c: cand, se_units, house_order, ...) and so is the length bonus (logic.h).
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
 *
 * The parts, in the order they are included (each one's head says what it holds):
 *   chains/core.c       the shared types (nodes, hints, closures, the engine), the node pool
 *   chains/links.c      SE's basic implications (on -> off, off -> on), the on/off sets
 *   chains/measure.c    making a hint; its rating, node count and bound; SE's order of hints
 *   chains/reach.c      which forcing chains can exist (reachability over static links)
 *   chains/static.c     forcing X/Y chains and cycles (the search loop ch_loops)
 *   chains/chaining.c   doChaining (the hot loop), closures, binary and reduction hints
 *   chains/multiple.c   binary, cell and region chainings (the search loop ch_multiple_chains)
 *   chains/advanced.c   the advanced rules of dynamic (+) chaining
 *   chains/nested.c     nested levels: inner engines and their memo
 *   chains/engine.c     an engine's life and run, the step, the finders (ch_find, lf_*)
 */
#include <math.h>

#include "chains/core.c"
#include "chains/links.c"
#include "chains/measure.c"
#include "chains/reach.c"
#include "chains/static.c"
#include "chains/chaining.c"
#include "chains/multiple.c"
#include "chains/advanced.c"
#include "chains/nested.c"
#include "chains/engine.c"
