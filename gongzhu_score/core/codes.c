/* A column of card-code texts read into bit masks in one pass: gongzhu_score.core._codes.
 *
 * The column path (gongzhu_score/batch/columns.py) reads each player's captured and exposed
 * cards from an Arrow string column. Numpy read them in some fifteen passes over the column's
 * tokens; this reads each byte once, without the interpreter's lock, and is about four times as
 * fast. It reads only canonical codes ("QS 6H 10C", core/bits.py) and says which entries hold
 * anything else, whose hands then go the row path: what a hand may hold, and every rule, are
 * the engine's (core/hand.py, core/engine.py), never this file's. Built at install beside the
 * mypyc modules (setup.py); without it the same masks come from Arrow (_masks_by_arrow), and
 * the tests hold the two to the same numbers.
 *
 * The same reading serves hand-file data (read_hands, for Scorer.score_many) and a large JSON
 * Lines batch's lines, read from their bytes in only the plainest shape (read_lines), whose
 * scored hands' lines write_lines writes as render/lines.py does: batch/arrays.py. Any other
 * hand or line goes the engine's own way, which gives the same result or says what is wrong.
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

/* The buffers of ``objects`` (n of them) into ``views``: from ``written`` on, buffers to write.
 * How many were got: n, or fewer after an error (then set). */
static int get_all(PyObject **objects, Py_buffer *views, int n, const char **names,
                   int written) {
    for (int k = 0; k < n; k++) {
        int flags = k >= written ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS;
        if (get(objects[k], &views[k], flags, names[k]) < 0)
            return k;
    }
    return n;
}

static void release_all(Py_buffer *views, int got) {
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
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
    PyObject *result = NULL;
    int got = get_all(objects, views, 4, names, 0);
    if (got < 4)
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
    release_all(views, got);
    return result;
}


/* --- JSON Lines read straight from their bytes, and scored lines written back ------------- */

static int64_t skip_space(const unsigned char *d, int64_t i, int64_t end) {
    while (i < end && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'))
        i++;
    return i;
}

/* A JSON string at d[i] with no escape and no control byte: its content is [*s, *e) and the
 * place after its closing quote is returned; -1 for anything else (then not plain). */
static int64_t plain_string(const unsigned char *d, int64_t i, int64_t end, int64_t *s,
                            int64_t *e) {
    if (i >= end || d[i] != '"')
        return -1;
    for (int64_t j = i + 1; j < end; j++) {
        unsigned char c = d[j];
        if (c == '"') {
            *s = i + 1;
            *e = j;
            return j + 1;
        }
        if (c == '\\' || c < 0x20)
            return -1;
    }
    return -1;
}

/* Which of ``words`` (n of them) the bytes [s, e) spell, or -1. */
static int which_word(const unsigned char *d, int64_t s, int64_t e, const char **words, int n) {
    for (int k = 0; k < n; k++)
        if ((int64_t)strlen(words[k]) == e - s && memcmp(d + s, words[k], e - s) == 0)
            return k;
    return -1;
}

/* The number of the text [s, e) in ``numbers`` (a new text gets the next) into *out; 0 if the
 * bytes are not UTF-8 (then not plain), -1 on a Python error. */
static int number_of(const unsigned char *d, int64_t s, int64_t e, PyObject *numbers,
                     int64_t *out) {
    PyObject *text = PyUnicode_DecodeUTF8((const char *)d + s, e - s, NULL);
    if (text == NULL) { /* not UTF-8: the careful path says so */
        PyErr_Clear();
        return 0;
    }
    PyObject *number = PyDict_GetItemWithError(numbers, text);
    if (number == NULL) {
        if (PyErr_Occurred()) {
            Py_DECREF(text);
            return -1;
        }
        number = PyLong_FromSsize_t(PyDict_GET_SIZE(numbers));
        if (number == NULL || PyDict_SetItem(numbers, text, number) < 0) {
            Py_XDECREF(number);
            Py_DECREF(text);
            return -1;
        }
        Py_DECREF(number);
    }
    Py_DECREF(text);
    *out = PyLong_AsLongLong(number);
    return 1;
}

/* Names met in one call of read_lines, by their bytes: most lines repeat names the call has met,
 * whose number is then found without making their str. Open addressing; when it is half full,
 * later names are looked up in the dict alone. */
#define SLOTS (1 << 16)
typedef struct {
    const unsigned char *at; /* (NULL: an empty slot) */
    int64_t size, number;
} Slot;
typedef struct {
    Slot *slots;
    int64_t used;
} Met;

static int named(Met *met, const unsigned char *d, int64_t s, int64_t e, PyObject *numbers,
                 int64_t *out) {
    uint64_t hash = 1469598103934665603ULL;
    for (int64_t i = s; i < e; i++)
        hash = (hash ^ d[i]) * 1099511628211ULL;
    uint64_t at = hash & (SLOTS - 1);
    for (;;) {
        Slot *slot = &met->slots[at];
        if (slot->at == NULL)
            break;
        if (slot->size == e - s && memcmp(slot->at, d + s, e - s) == 0) {
            *out = slot->number;
            return 1;
        }
        at = (at + 1) & (SLOTS - 1);
    }
    int found = number_of(d, s, e, numbers, out);
    if (found > 0 && met->used < SLOTS / 2) {
        met->slots[at] = (Slot){d + s, e - s, *out};
        met->used++;
    }
    return found;
}

static const char *FIELD_WORDS[4] = {"name", "captured", "exposed", "first_exposed"};

/* One player's object at d[i], read as read_hand reads its dict (player e of n); the place
 * after it, 0 if it is not plain, -1 on a Python error. */
static int64_t read_player(const unsigned char *d, int64_t i, int64_t end, PyObject *numbers,
                           Met *met, int64_t e, int64_t n, int64_t *masks, unsigned char *bad,
                           int64_t *codes) {
    int64_t s[4] = {0, 0, 0, 0}, t[4] = {0, 0, 0, 0};
    int seen[4] = {0, 0, 0, 0};
    if (i >= end || d[i] != '{')
        return 0;
    i = skip_space(d, i + 1, end);
    for (;;) {
        int64_t ks, ke;
        i = plain_string(d, i, end, &ks, &ke);
        if (i < 0)
            return 0;
        int f = which_word(d, ks, ke, FIELD_WORDS, 4);
        if (f < 0 || seen[f]) /* a claim, a misspelt key, a key twice: not plain */
            return 0;
        seen[f] = 1;
        i = skip_space(d, i, end);
        if (i >= end || d[i] != ':')
            return 0;
        i = plain_string(d, skip_space(d, i + 1, end), end, &s[f], &t[f]);
        if (i < 0) /* a null, a list, a number: not plain */
            return 0;
        i = skip_space(d, i, end);
        if (i < end && d[i] == ',') {
            i = skip_space(d, i + 1, end);
            continue;
        }
        if (i < end && d[i] == '}')
            break;
        return 0;
    }
    if (!seen[0])
        return 0;
    for (int f = 1; f < 4; f++) {
        int64_t *at = &masks[(3 * f - 3) * n + e];
        if (seen[f])
            read_entry(d, s[f], t[f], at, at + n, at + 2 * n, &bad[(f - 1) * n + e]);
        else
            at[0] = at[n] = at[2 * n] = bad[(f - 1) * n + e] = 0;
    }
    int found = named(met, d, s[0], t[0], numbers, &codes[e]);
    return found <= 0 ? found : i + 1;
}

static const char *TOP_WORDS[3] = {"players", "variant", "teams"};

/* Whether the line [i, end) is a plain hand: one object of "players" (a list of four players)
 * and perhaps "variant" and "teams" (text, numbered in ``values`` into rules[0..1], else -1). */
static int read_line(const unsigned char *d, int64_t i, int64_t end, PyObject *numbers,
                     Met *met, PyObject *values, int64_t j, int64_t n, int64_t *masks,
                     unsigned char *bad, int64_t *codes, int64_t *rules) {
    int seen[3] = {0, 0, 0};
    rules[0] = rules[1] = -1;
    i = skip_space(d, i, end);
    if (i >= end || d[i] != '{')
        return 0;
    i = skip_space(d, i + 1, end);
    for (;;) {
        int64_t ks, ke, vs, ve;
        i = plain_string(d, i, end, &ks, &ke);
        int k = i < 0 ? -1 : which_word(d, ks, ke, TOP_WORDS, 3);
        if (k < 0 || seen[k])
            return 0;
        seen[k] = 1;
        i = skip_space(d, i, end);
        if (i >= end || d[i] != ':')
            return 0;
        i = skip_space(d, i + 1, end);
        if (k > 0) { /* the rules the line names: text only (a null or a list goes the careful way) */
            i = plain_string(d, i, end, &vs, &ve);
            if (i < 0)
                return 0;
            int found = number_of(d, vs, ve, values, &rules[k - 1]);
            if (found <= 0)
                return found;
        } else {
            if (i >= end || d[i] != '[')
                return 0;
            for (int p = 0; p < 4; p++) {
                int64_t after = read_player(d, skip_space(d, i + 1, end), end, numbers, met,
                                            j + p, n, masks, bad, codes);
                if (after <= 0)
                    return (int)after;
                i = skip_space(d, after, end);
                if (i >= end || d[i] != (p < 3 ? ',' : ']'))
                    return 0;
            }
            i++;
        }
        i = skip_space(d, i, end);
        if (i < end && d[i] == ',') {
            i = skip_space(d, i + 1, end);
            continue;
        }
        if (i >= end || d[i] != '}' || !seen[0])
            return 0;
        return skip_space(d, i + 1, end) == end;
    }
}

PyDoc_STRVAR(read_lines_doc,
"read_lines(data, offsets, numbers, values, masks, bad, codes, rules, plain)\n\n"
"read_hands for n JSON Lines given as bytes: line h is data[offsets[h]:offsets[h + 1]]\n"
"(int64 offsets, n + 1 of them). A line is read only in the plainest shape: one object of\n"
"\"players\" (a list of four players) and perhaps \"variant\" and \"teams\", each key given once,\n"
"every value text with no escape. rules (int64, 2 rows of n) gets the numbers of the line's\n"
"variant and teams in the dict ``values`` (-1: not given). plain (uint8, n) is 0 for any other\n"
"line, which the caller reads its own way.");

static PyObject *read_lines(PyObject *self, PyObject *args) {
    PyObject *numbers, *values, *objects[7];
    if (!PyArg_ParseTuple(args, "OOO!O!OOOOO:read_lines", &objects[0], &objects[1],
                          &PyDict_Type, &numbers, &PyDict_Type, &values, &objects[2],
                          &objects[3], &objects[4], &objects[5], &objects[6]))
        return NULL;
    static const char *names[7] = {"data", "offsets", "masks", "bad", "codes", "rules", "plain"};
    Py_buffer views[7];
    PyObject *result = NULL;
    int got = get_all(objects, views, 7, names, 2);
    if (got < 7)
        goto done;
    const unsigned char *data = views[0].buf;
    const int64_t *offsets = views[1].buf;
    int64_t n = views[1].len / 8 - 1, e = 4 * n;
    if (n < 0 || views[2].len < 8 * 9 * e || views[3].len < 3 * e || views[4].len < 8 * e ||
        views[5].len < 16 * n || views[6].len < n) {
        PyErr_SetString(PyExc_ValueError, "read_lines: buffers of the wrong sizes");
        goto done;
    }
    unsigned char *plain = views[6].buf;
    int64_t *rules = views[5].buf;
    Met met = {PyMem_Calloc(SLOTS, sizeof(Slot)), 0};
    if (met.slots == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int64_t h = 0; h < n; h++) {
        int64_t start = offsets[h], end = offsets[h + 1], got_rules[2] = {-1, -1};
        int read = 0;
        if (0 <= start && start <= end && end <= views[0].len)
            read = read_line(data, start, end, numbers, &met, values, 4 * h, e, views[2].buf,
                             views[3].buf, views[4].buf, got_rules);
        rules[h] = got_rules[0];
        rules[n + h] = got_rules[1];
        if (read < 0) {
            PyMem_Free(met.slots);
            goto done;
        }
        plain[h] = (unsigned char)read;
    }
    PyMem_Free(met.slots);
    result = Py_None;
    Py_INCREF(result);
done:
    release_all(views, got);
    return result;
}

/* A growing run of bytes. */
typedef struct {
    char *bytes;
    Py_ssize_t size, room;
} Text;

static int put(Text *t, const char *bytes, Py_ssize_t size) {
    if (t->size + size > t->room) {
        Py_ssize_t room = 2 * t->room + size;
        char *more = PyMem_Realloc(t->bytes, room);
        if (more == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        t->bytes = more;
        t->room = room;
    }
    memcpy(t->bytes + t->size, bytes, size);
    t->size += size;
    return 0;
}

static int put_number(Text *t, int64_t value) {
    char digits[24];
    int at = 24;
    uint64_t left = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        digits[--at] = (char)('0' + left % 10);
        left /= 10;
    } while (left);
    if (value < 0)
        digits[--at] = '-';
    return put(t, digits + at, 24 - at);
}

PyDoc_STRVAR(write_lines_doc,
"write_lines(prefix, names, rows, numbers, codes, raws, finals, ends)\n\n"
"The JSON Lines of scored hands, as render/lines.py's HandLines writes them: for each hand h\n"
"in rows (int64), {\"source\": prefix + numbers[h]\", \"players\": [...]} with player e = 4h + k's\n"
"name (names[codes[e]], the name's JSON as UTF-8 bytes), raw and final (int64). prefix is the\n"
"source's JSON up to the line number, as UTF-8 bytes. Returns the lines as a list of bytes cut\n"
"before each of the places ``ends`` (int64, ascending, within rows): len(ends) + 1 of them.");

static PyObject *write_lines(PyObject *self, PyObject *args) {
    PyObject *names, *objects[7];
    if (!PyArg_ParseTuple(args, "OO!OOOOOO:write_lines", &objects[0], &PyList_Type, &names,
                          &objects[1], &objects[2], &objects[3], &objects[4], &objects[5],
                          &objects[6]))
        return NULL;
    static const char *what[7] = {"prefix", "rows", "numbers", "codes", "raws", "finals", "ends"};
    Py_buffer views[7];
    PyObject *result = NULL, *pieces = NULL;
    Text t = {NULL, 0, 0};
    int got = get_all(objects, views, 7, what, 7);
    if (got < 7)
        goto done;
    const int64_t *rows = views[1].buf, *numbers = views[2].buf, *codes = views[3].buf;
    const int64_t *raws = views[4].buf, *finals = views[5].buf, *ends = views[6].buf;
    int64_t k = views[1].len / 8, n = views[2].len / 8, cuts = views[6].len / 8;
    int64_t known = PyList_GET_SIZE(names);
    if (views[3].len < 32 * n || views[4].len < 32 * n || views[5].len < 32 * n) {
        PyErr_SetString(PyExc_ValueError, "write_lines: buffers of the wrong sizes");
        goto done;
    }
    for (int64_t c = 0; c < cuts; c++)
        if (ends[c] < (c ? ends[c - 1] : 0) || ends[c] > k) {
            PyErr_SetString(PyExc_ValueError, "write_lines: ends beyond the rows, or not ascending");
            goto done;
        }
    if (!(pieces = PyList_New(0)))
        goto done;
    int64_t cut = 0;
    for (int64_t r = 0; r <= k; r++) {
        while (cut < cuts && ends[cut] <= r) { /* a piece ends before row r */
            PyObject *piece = PyBytes_FromStringAndSize(t.bytes, t.size);
            if (piece == NULL || PyList_Append(pieces, piece) < 0) {
                Py_XDECREF(piece);
                goto done;
            }
            Py_DECREF(piece);
            t.size = 0;
            cut++;
        }
        if (r == k)
            break;
        int64_t h = rows[r];
        if (h < 0 || h >= n) {
            PyErr_Format(PyExc_IndexError, "write_lines: hand %lld of %lld", (long long)h,
                         (long long)n);
            goto done;
        }
        if (put(&t, "{\"source\": ", 11) < 0 || put(&t, views[0].buf, views[0].len) < 0 ||
            put_number(&t, numbers[h]) < 0 || put(&t, "\", \"players\": [", 15) < 0)
            goto done;
        for (int p = 0; p < 4; p++) {
            int64_t e = 4 * h + p, c = codes[e];
            PyObject *name = c >= 0 && c < known ? PyList_GET_ITEM(names, c) : NULL;
            if (name == NULL || !PyBytes_Check(name)) {
                PyErr_Format(PyExc_IndexError, "write_lines: no name's bytes for %lld",
                             (long long)c);
                goto done;
            }
            if (put(&t, p ? ", {\"name\": " : "{\"name\": ", p ? 11 : 9) < 0 ||
                put(&t, PyBytes_AS_STRING(name), PyBytes_GET_SIZE(name)) < 0 ||
                put(&t, ", \"raw\": ", 9) < 0 || put_number(&t, raws[e]) < 0 ||
                put(&t, ", \"final\": ", 11) < 0 || put_number(&t, finals[e]) < 0 ||
                put(&t, "}", 1) < 0)
                goto done;
        }
        if (put(&t, "]}\n", 3) < 0)
            goto done;
    }
    PyObject *last = PyBytes_FromStringAndSize(t.bytes, t.size);
    if (last == NULL || PyList_Append(pieces, last) < 0) {
        Py_XDECREF(last);
        goto done;
    }
    Py_DECREF(last);
    result = pieces;
    pieces = NULL;
done:
    Py_XDECREF(pieces);
    PyMem_Free(t.bytes);
    release_all(views, got);
    return result;
}

PyDoc_STRVAR(line_ends_doc,
"line_ends(data, begin, ends) -> int\n\n"
"Where each newline of ``data`` from byte ``begin`` on is, written to ``ends`` (int64) until it\n"
"is full; how many were written. A large batch finds its lines so, without a bytes object for\n"
"each.");

static PyObject *line_ends(PyObject *self, PyObject *args) {
    PyObject *objects[2];
    Py_ssize_t begin;
    if (!PyArg_ParseTuple(args, "OnO:line_ends", &objects[0], &begin, &objects[1]))
        return NULL;
    static const char *names[2] = {"data", "ends"};
    Py_buffer views[2];
    PyObject *result = NULL;
    int got = get_all(objects, views, 2, names, 1);
    if (got < 2)
        goto done;
    if (begin < 0 || begin > views[0].len) {
        PyErr_SetString(PyExc_ValueError, "line_ends: begin is not within the data");
        goto done;
    }
    const char *data = views[0].buf, *at = data + begin, *end = data + views[0].len;
    int64_t *ends = views[1].buf, room = views[1].len / 8, k = 0;
    while (k < room) {
        const char *found = memchr(at, '\n', (size_t)(end - at));
        if (found == NULL)
            break;
        ends[k++] = found - data;
        at = found + 1;
    }
    result = PyLong_FromLongLong(k);
done:
    release_all(views, got);
    return result;
}

static PyMethodDef methods[] = {
    {"read_codes", read_codes, METH_VARARGS, read_codes_doc},
    {"read_hands", read_hands, METH_VARARGS, read_hands_doc},
    {"read_lines", read_lines, METH_VARARGS, read_lines_doc},
    {"write_lines", write_lines, METH_VARARGS, write_lines_doc},
    {"line_ends", line_ends, METH_VARARGS, line_ends_doc},
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
