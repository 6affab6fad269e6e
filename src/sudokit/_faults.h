/*
 * Fault injection for sudokit's C extensions, compiled in only by tools/sanitize.sh
 * (-DSUDOKIT_FAULT_INJECTION): every allocation of the including file goes through the
 * wrappers below, and the module function _fail_after(k) makes the allocation after the next
 * k fail, so tests can walk a failure through every allocation of a search and check that
 * each one ends in MemoryError, cleanly (tests/test_c_faults.py). Include it after the
 * standard headers; add SUDOKIT_FAULT_METHODS to the module's method table. Without the
 * macro it defines nothing.
 */
#ifndef SUDOKIT_FAULTS_H
#define SUDOKIT_FAULTS_H

#ifdef SUDOKIT_FAULT_INJECTION
static _Thread_local long fail_after = -1;  /* allocations left before one fails; -1: never */

static int fail_now(void) {
    if (fail_after < 0) return 0;
    if (fail_after == 0) { fail_after = -1; return 1; }
    fail_after--;
    return 0;
}
static void *fi_malloc(size_t n) { return fail_now() ? NULL : malloc(n); }
static void *fi_calloc(size_t k, size_t n) { return fail_now() ? NULL : calloc(k, n); }
static void *fi_realloc(void *p, size_t n) { return fail_now() ? NULL : realloc(p, n); }
static void *fi_pymem_malloc(size_t n) { return fail_now() ? NULL : PyMem_Malloc(n); }
static void *fi_pymem_calloc(size_t k, size_t n) { return fail_now() ? NULL : PyMem_Calloc(k, n); }

/* _fail_after(k) -> the count it replaces. */
static PyObject *py_fail_after(PyObject *self, PyObject *arg) {
    (void)self;
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    long before = fail_after;
    fail_after = k;
    return PyLong_FromLong(before);
}

#define malloc fi_malloc
#define calloc fi_calloc
#define realloc fi_realloc
#define PyMem_Malloc fi_pymem_malloc
#define PyMem_Calloc fi_pymem_calloc
#define SUDOKIT_FAULT_METHODS \
    {"_fail_after", py_fail_after, METH_O, \
     "_fail_after(k) -> the count it replaces: make the allocation after the next k fail (-1: none)."},
#else
#define SUDOKIT_FAULT_METHODS
#endif

#endif
