/*
 * Ctrl+C inside sudokit's long C loops. Python runs a signal's handler (KeyboardInterrupt)
 * only between bytecodes, so a search that runs for minutes in C would not stop. Each long
 * loop calls sudokit_interrupted() once a step (a node of a search, a step of a path): a
 * counter, and every SUDOKIT_TICKS calls a look at the clock; at most every 100 ms the poll
 * takes the GIL and runs PyErr_CheckSignals(). When a handler raises, the exception stays set
 * on the thread and every later call answers 1 at once, so the loops unwind as from a node
 * budget; the module function then sees sudokit_interrupt_end() true and returns NULL.
 *
 * Use: sudokit_interrupt_begin() before the work (GIL held or not), the checks inside it,
 * and after it, with the GIL held: if (sudokit_interrupt_end()) { free; return NULL; }.
 * Only the main thread runs signal handlers; in other threads the poll finds nothing.
 */
#ifndef SUDOKIT_INTERRUPT_H
#define SUDOKIT_INTERRUPT_H

#include <time.h>

/* Checks between clock reads, a power of two (a 9x9 node is ~100 ns: a read every ~0.1 ms). */
#define SUDOKIT_TICKS 1024u

/* Shared by the threads (a lost increment only delays a poll); the stop is each thread's. */
static unsigned sudokit_ticks;
static _Thread_local int sudokit_stopped;
static _Thread_local long long sudokit_poll_at; /* monotonic ns of the next signal check */

static void sudokit_interrupt_begin(void) { sudokit_stopped = 0; }

__attribute__((noinline, cold)) static int sudokit_poll_signals(void)
{
    if (!sudokit_stopped) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        long long now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
        if (now < sudokit_poll_at)
            return 0;
        sudokit_poll_at = now + 100000000LL;
        PyGILState_STATE gil = PyGILState_Ensure();
        sudokit_stopped = PyErr_CheckSignals() < 0;
        PyGILState_Release(gil);
        if (!sudokit_stopped)
            return 0;
    }
    sudokit_ticks = SUDOKIT_TICKS - 1; /* stopped: the next check polls again, and stops */
    return 1;
}

/* Whether the work should stop now: a handler raised (its exception is set). */
static inline int sudokit_interrupted(void)
{
    return !(++sudokit_ticks & (SUDOKIT_TICKS - 1)) && sudokit_poll_signals();
}

/* After the work, GIL held: whether it was stopped (then an exception is set); clears it. */
static int sudokit_interrupt_end(void)
{
    int stopped = sudokit_stopped;
    sudokit_stopped = 0;
    return stopped && PyErr_Occurred() != NULL;
}

#endif
