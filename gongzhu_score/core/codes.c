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

/* Keys of hand-file data, made once: a lookup by one of these compares pointers first. */
static PyObject *TOP_KEYS[3], *KEY_FIELDS[4];

/* One player's cards as hand-file data gives them, read into its masks (``at``: out[0..2]);
 * 0 for another shape (the hand is then not plain). None or absent: no cards. Text: as an
 * Arrow entry is read. A list: each item exactly one canonical code. */
static int read_cards(PyObject *cards, int64_t *out_or, int64_t *out_sum, int64_t *out_count,
                      unsigned char *bad) {
    *out_or = *out_sum = *out_count = 0;
    *bad = 0;
    if (cards == NULL || cards == Py_None)
        return 1;
    if (PyUnicode_CheckExact(cards)) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(cards, &size);
        if (text == NULL) { /* (a lone surrogate: not plain; the careful path says why) */
            PyErr_Clear();
            return 0;
        }
        read_entry((const unsigned char *)text, 0, size, out_or, out_sum, out_count, bad);
        return 1;
    }
    if (!PyList_CheckExact(cards))
        return 0;
    uint64_t sum = 0;
    int64_t or_ = 0;
    Py_ssize_t n = PyList_GET_SIZE(cards);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *token = PyList_GET_ITEM(cards, i);
        if (!PyUnicode_CheckExact(token))
            return 0;
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(token, &size);
        if (text == NULL) {
            PyErr_Clear();
            return 0;
        }
        int64_t o, s, c;
        unsigned char wrong;
        read_entry((const unsigned char *)text, 0, size, &o, &s, &c, &wrong);
        /* exactly one code, nothing around it ("QS", not " QS" nor "QS JD") */
        if (wrong || c != 1 || size < 2 || text[0] == ' ' || text[size - 1] == ' ')
            *bad = 1;
        or_ |= o;
        sum += (uint64_t)s;
    }
    *out_or = or_;
    *out_sum = (int64_t)sum;
    *out_count = n;
    return 1;
}

/* Which of ``keys`` (n of them) ``key`` is, or -1 (another key, or not exactly a str): so
 * looking up a hand's keys runs no Python code, and nothing read can change as it is read. */
static int which(PyObject *key, PyObject **keys, int n) {
    if (!PyUnicode_CheckExact(key))
        return -1;
    for (int k = 0; k < n; k++)
        if (key == keys[k])
            return k;
    Py_ssize_t size = PyUnicode_GET_LENGTH(key);
    if (PyUnicode_KIND(key) != PyUnicode_1BYTE_KIND)
        return -1;
    for (int k = 0; k < n; k++)
        if (size == PyUnicode_GET_LENGTH(keys[k]) &&
            memcmp(PyUnicode_DATA(key), PyUnicode_DATA(keys[k]), size) == 0)
            return k;
    return -1;
}

/* Whether ``data`` is a plain hand (the shape Hands.add_data reads: core/engine.py), its
 * players' masks written from ``j`` on and their names' numbers found in ``numbers`` (a new
 * name gets the next); -1 on a Python error. */
static int read_hand(PyObject *data, PyObject *numbers, int64_t j, int64_t n, int64_t *masks,
                     unsigned char *bad, int64_t *codes) {
    if (!PyDict_CheckExact(data))
        return 0;
    PyObject *key, *value, *players = NULL;
    Py_ssize_t at = 0;
    while (PyDict_Next(data, &at, &key, &value)) {
        int k = which(key, TOP_KEYS, 3); /* players, variant, teams (the caller chose these) */
        if (k < 0)
            return 0;
        if (k == 0)
            players = value;
    }
    if (players == NULL || !PyList_CheckExact(players) || PyList_GET_SIZE(players) != 4)
        return 0;
    for (int i = 0; i < 4; i++) {
        PyObject *p = PyList_GET_ITEM(players, i), *got[4] = {NULL, NULL, NULL, NULL};
        if (!PyDict_CheckExact(p))
            return 0;
        at = 0;
        while (PyDict_Next(p, &at, &key, &value)) {
            int f = which(key, KEY_FIELDS, 4);
            if (f < 0 || value == Py_None) /* a claim, a misspelt key, a null: not plain */
                return 0;
            got[f] = value;
        }
        if (got[0] == NULL || !PyUnicode_CheckExact(got[0]))
            return 0;
        int64_t e = j + i;
        for (int f = 1; f < 4; f++)
            if (!read_cards(got[f], &masks[(3 * f - 3) * n + e], &masks[(3 * f - 2) * n + e],
                            &masks[(3 * f - 1) * n + e], &bad[(f - 1) * n + e]))
                return 0;
        PyObject *number = PyDict_GetItemWithError(numbers, got[0]);
        if (number == NULL) {
            if (PyErr_Occurred())
                return -1;
            number = PyLong_FromSsize_t(PyDict_GET_SIZE(numbers));
            if (number == NULL || PyDict_SetItem(numbers, got[0], number) < 0) {
                Py_XDECREF(number);
                return -1;
            }
            Py_DECREF(number);
        }
        codes[e] = PyLong_AsLongLong(number);
    }
    return 1;
}

PyDoc_STRVAR(read_hands_doc,
"read_hands(hands, numbers, masks, bad, codes, plain)\n\n"
"Read a list of n hands given as hand-file data, in the plain shape (a dict with a list of\n"
"four player dicts: name, captured, exposed, first_exposed). For player e (4 a hand), masks\n"
"(int64, 9 rows of 4n) gets captured's or, sum and count, then exposed's, then\n"
"first_exposed's; bad (uint8, 3 rows of 4n) 1 where a field holds a token that is no\n"
"canonical code; codes (int64, 4n) the name's number in the dict ``numbers`` (a new name gets\n"
"the next). plain (uint8, n) is 1 for a hand of that shape; another's entries are left as\n"
"they were.");

static PyObject *read_hands(PyObject *self, PyObject *args) {
    PyObject *hands, *numbers, *objects[4];
    if (!PyArg_ParseTuple(args, "O!O!OOOO:read_hands", &PyList_Type, &hands, &PyDict_Type,
                          &numbers, &objects[0], &objects[1], &objects[2], &objects[3]))
        return NULL;
    static const char *names[4] = {"masks", "bad", "codes", "plain"};
    Py_buffer views[4];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 4; got++)
        if (get(objects[got], &views[got], PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS, names[got]) < 0)
            goto done;
    int64_t n = PyList_GET_SIZE(hands), e = 4 * n;
    if (views[0].len < 8 * 9 * e || views[1].len < 3 * e || views[2].len < 8 * e ||
        views[3].len < n) {
        PyErr_SetString(PyExc_ValueError, "read_hands: buffers of the wrong sizes");
        goto done;
    }
    unsigned char *plain = views[3].buf;
    for (int64_t h = 0; h < n; h++) { /* (no Python code runs: the list keeps its size) */
        int read = read_hand(PyList_GET_ITEM(hands, h), numbers, 4 * h, e, views[0].buf,
                             views[1].buf, views[2].buf);
        if (read < 0)
            goto done;
        plain[h] = (unsigned char)read;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"read_codes", read_codes, METH_VARARGS, read_codes_doc},
    {"read_hands", read_hands, METH_VARARGS, read_hands_doc},
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
    static const char *fields[4] = {"name", "captured", "exposed", "first_exposed"};
    static const char *top[3] = {"players", "variant", "teams"};
    for (int k = 0; k < 3; k++)
        if (!(TOP_KEYS[k] = PyUnicode_InternFromString(top[k])))
            return NULL;
    for (int k = 0; k < 4; k++)
        if (!(KEY_FIELDS[k] = PyUnicode_InternFromString(fields[k])))
            return NULL;
    return PyModule_Create(&module);
}
