/* A column of card-code texts read into bit masks in one pass: gongzhu_score.core._codes.
 *
 * The column path (gongzhu_score/batch/columns.py) reads each player's captured and exposed
 * cards from an Arrow string column. Numpy read them in some fifteen passes over the column's
 * tokens; this reads each byte once, without the interpreter's lock, and is about four times as
 * fast. It reads only canonical codes ("QS 6H 10C", core/bits.py) and says which entries hold
 * anything else, whose hands then go the row path: what a hand may hold, and every rule, are
 * the engine's (core/hand.py, core/engine.py), never this file's. Built at install beside the
 * mypyc modules (setup.py); without it the same masks come from numpy (_masks_by_numpy), and
 * the tests hold the two to the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A byte's rank place (2..9 -> 0..7, J Q K A -> 9..12; the "1" of "10" is -2; -1: none) and
 * suit block (S H D C -> 0, 13, 26, 39; -1: none), as core/bits.py's RANK_OF_BYTE and
 * SUIT_OF_BYTE; the tests compare the masks with the engine's. */
static signed char RANK[256], SUIT[256];

/* One entry's tokens (runs of bytes other than a space) read into its masks. A code is looked
 * for where each token starts (a rank byte and a suit byte, or "10" and a suit byte, then a
 * space or the end); anything else is a token of its own, run to its end and marked. */
static void read_entry(const unsigned char *d, int64_t start, int64_t end, int64_t *ors,
                       int64_t *sums, int64_t *counts, unsigned char *bad) {
    int64_t or_ = 0, count = 0;
    uint64_t sum = 0; /* (unsigned: a long entry's sum wraps, as numpy's does, never overflows) */
    unsigned char wrong = 0;
    int64_t i = start;
    while (i < end) {
        unsigned char c = d[i];
        if (c == ' ') {
            i++;
            continue;
        }
        count++;
        int rank = RANK[c], width = 2, place = rank;
        if (rank == -2) { /* "10": three bytes, a "0" in the middle */
            width = 3;
            place = (i + 1 < end && d[i + 1] == '0') ? 8 : -1;
        }
        int64_t after = i + width; /* the byte after the code: a space, or the end */
        int suit = after <= end ? SUIT[d[after - 1]] : -1;
        if (place >= 0 && suit >= 0 && (after == end || d[after] == ' ')) {
            int64_t bit = (int64_t)1 << (suit + place);
            or_ |= bit;
            sum += (uint64_t)bit;
            i = after + 1; /* past the space after it (or the end) */
            continue;
        }
        wrong = 1;
        while (i < end && d[i] != ' ')
            i++;
    }
    *ors = or_;
    *sums = (int64_t)sum;
    *counts = count;
    *bad = wrong;
}

static int get(PyObject *object, Py_buffer *view, int flags, const char *what) {
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "read_codes: %s must be a contiguous buffer", what);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(read_codes_doc,
"read_codes(data, offsets, entries, ors, sums, counts, bad)\n\n"
"Read entries of an Arrow string column (its data bytes and its int32 offsets, n + 1 of\n"
"them) into each entry's or'ed card bits, summed card bits (a card twice carries), number of\n"
"tokens, and 1 where a token is not a canonical code (or the entry's offsets are out of\n"
"range). ``entries`` (int64) says which entries, in order; None: all n. The outputs (int64,\n"
"int64, int64, uint8) hold one item per entry read.");

static PyObject *read_codes(PyObject *self, PyObject *args) {
    PyObject *objects[7];
    if (!PyArg_UnpackTuple(args, "read_codes", 7, 7, &objects[0], &objects[1], &objects[2],
                           &objects[3], &objects[4], &objects[5], &objects[6]))
        return NULL;
    static const char *names[7] = {"data", "offsets", "entries", "ors", "sums", "counts", "bad"};
    Py_buffer views[7];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 7; got++) {
        if (got == 2 && objects[2] == Py_None)
            continue;
        int flags = got >= 3 ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS;
        if (get(objects[got], &views[got], flags, names[got]) < 0)
            goto done;
    }
    const unsigned char *data = views[0].buf;
    int64_t size = views[0].len;
    const int32_t *offsets = views[1].buf;
    int64_t n = views[1].len / 4 - 1;
    const int64_t *entries = objects[2] == Py_None ? NULL : views[2].buf;
    int64_t k = entries ? views[2].len / 8 : n;
    if (n < 0 || views[3].len < 8 * k || views[4].len < 8 * k || views[5].len < 8 * k ||
        views[6].len < k) {
        PyErr_SetString(PyExc_ValueError, "read_codes: buffers of the wrong sizes");
        goto done;
    }
    int64_t *ors = views[3].buf, *sums = views[4].buf, *counts = views[5].buf;
    unsigned char *bad = views[6].buf;
    int64_t outside = 0;
    int stray = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int64_t j = 0; j < k; j++) {
        int64_t e = entries ? entries[j] : j;
        if (e < 0 || e >= n) {
            outside = e;
            stray = 1;
            break;
        }
        int64_t start = offsets[e], end = offsets[e + 1];
        if (start < 0 || end < start || end > size) {
            ors[j] = sums[j] = counts[j] = 0;
            bad[j] = 1;
            continue;
        }
        read_entry(data, start, end, &ors[j], &sums[j], &counts[j], &bad[j]);
    }
    Py_END_ALLOW_THREADS
    if (stray) {
        PyErr_Format(PyExc_IndexError, "read_codes: entry %lld of %lld", (long long)outside,
                     (long long)n);
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int i = 0; i < got; i++)
        if (!(i == 2 && objects[2] == Py_None))
            PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"read_codes", read_codes, METH_VARARGS, read_codes_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_codes", "Card-code texts read into bit masks (codes.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__codes(void) {
    memset(RANK, -1, sizeof RANK);
    memset(SUIT, -1, sizeof SUIT);
    for (int k = 0; k < 8; k++)
        RANK[(unsigned char)"23456789"[k]] = (signed char)k;
    for (int k = 0; k < 4; k++) {
        RANK[(unsigned char)"JQKA"[k]] = (signed char)(9 + k);
        SUIT[(unsigned char)"SHDC"[k]] = (signed char)(13 * k);
    }
    RANK['1'] = -2;
    return PyModule_Create(&module);
}
