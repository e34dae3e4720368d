/* The numbers of a block of --points lines, read at once where every line is a plain point
 * (see inputs/jsonl.py and inputs/csv.py, `fast`); gradcli reads any other block line by line,
 * so what is refused here is never lost, and every line that is taken is read as Python reads it.
 *
 * json(block, names, count, others) -> ([column, ...], [values, ...]) | None: the float64 bytes
 * of each name's number on each of the block's `count` lines (lines end at LF; the last needs
 * none), and the JSON text of each other key's value, each followed by an LF, where every line is
 * a plain JSON Lines point: one object of numbers, `{"x1": 0.5, "x2": -1e-3}`, and of the other
 * keys, each with a string (no escapes), a number, true, false or null. None where any line is
 * not: a key that is not one of `names` or `others` (raw bytes, no escapes) or is there twice, a
 * key missing, a name's value that is not a JSON number or NaN, Infinity, -Infinity (as Python's
 * json reads them; a string, a list, ...), a blank
 * line, another count of lines, or anything else JSON or that form does not allow.
 *
 * csv(block, width, numbers, texts) -> ([column, ...], [cells, ...]) | None: the lines of a CSV
 * block of `width` cells each; the cells at `numbers` as float64 columns, the cells at `texts` as
 * their bytes, each followed by an LF. None where
 * any line has another count of cells or a number cell is neither `[+-]digits[.digits][e[+-]digits]`
 * nor NaN or an infinity spelled as Python's float spells them, between spaces (`1_000`, `0x1`,
 * an empty cell: the line reader judges those).
 *
 * A number is Python's float of its text, correctly rounded: an integer of 64 bits rounded once; where
 * its digits fit 64 bits and its power of ten is at most 27, one long double product and a check that
 * rounding it to a double cannot round otherwise than the number would; else Python's own reader
 * (PyOS_string_to_double).
 * A number past float64's range refuses the block (to the line reader it is a bad value).
 *
 * Memory: a column of float64 a name, and for a text column its offsets and no more bytes than the
 * block. A count of lines that the block's bytes cannot hold as points is refused before anything
 * is allocated for it. Every read stays inside the block and every write inside what was allocated
 * for it, whatever the bytes are. Python's lock is let go while parsing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAX_NAMES 64

static int space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* The end of the digits starting at p (p where there are none). */
static const char *digits(const char *p, const char *end) {
    while (p < end && is_digit(*p)) {
        p++;
    }
    return p;
}

/* The end of a number's exponent `(e|E)[+-]digits` starting at p, if one does (else p); NULL where
 * one starts without digits. */
static const char *exponent_end(const char *p, const char *end) {
    if (p >= end || (*p != 'e' && *p != 'E')) {
        return p;
    }
    p++;
    if (p < end && (*p == '+' || *p == '-')) {
        p++;
    }
    const char *stop = digits(p, end);
    return stop == p ? NULL : stop;
}

/* The end of the JSON number starting at p (before end), or NULL where none starts there. */
static const char *number_end(const char *p, const char *end) {
    if (p < end && *p == '-') {
        p++;
    }
    if (p >= end || !is_digit(*p)) {
        return NULL;
    }
    p = *p == '0' ? p + 1 : digits(p, end);
    if (p < end && *p == '.') {
        const char *stop = digits(p + 1, end);
        if (stop == p + 1) {
            return NULL;
        }
        p = stop;
    }
    return exponent_end(p, end);
}

static const char *skip_space(const char *p, const char *end) {
    while (p < end && space(*p)) {
        p++;
    }
    return p;
}

/* The end of a CSV number, `[+-]digits[.digits][(e|E)[+-]digits]` with digits on at least one side
 * of the point (`5.`, `.5`), starting at p; NULL where none starts there. */
static const char *csv_number_end(const char *p, const char *end) {
    if (p < end && (*p == '-' || *p == '+')) {
        p++;
    }
    const char *stop = digits(p, end);
    int before = stop > p;
    if (stop < end && *stop == '.') {
        const char *after = digits(stop + 1, end);
        if (!before && after == stop + 1) {
            return NULL;
        }
        stop = after;
    } else if (!before) {
        return NULL;
    }
    return exponent_end(stop, end);
}

/* Is text[0:size] `word` (lowercase letters), in any case? */
static int is_word(const char *text, Py_ssize_t size, const char *word) {
    if ((size_t)size != strlen(word)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        char c = text[i];
        if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != word[i]) {
            return 0;
        }
    }
    return 1;
}

/* A CSV cell that spells NaN or an infinity as Python's float reads it (`nan`, `-inf`, `Infinity`,
 * in any case, a sign allowed) into *out: 1 where it is one, else 0. */
static int csv_special(const char *p, const char *end, double *out) {
    double sign = 1.0;
    if (p < end && (*p == '-' || *p == '+')) {
        sign = *p == '-' ? -1.0 : 1.0;
        p++;
    }
    if (is_word(p, end - p, "nan")) {
        *out = copysign(NAN, sign);
    } else if (is_word(p, end - p, "inf") || is_word(p, end - p, "infinity")) {
        *out = sign * INFINITY;
    } else {
        return 0;
    }
    return 1;
}

/* A JSON value that spells NaN or an infinity as Python's json reads it (NaN, Infinity, -Infinity):
 * its end, and the number into *out; NULL where it is none. */
static const char *json_special(const char *p, const char *end, double *out) {
    static const char *const words[] = {"NaN", "Infinity", "-Infinity"};
    static const double values[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        size_t size = strlen(words[i]);
        if ((size_t)(end - p) >= size && !memcmp(p, words[i], size)) {
            *out = values[i];
            return p + size;
        }
    }
    return NULL;
}

#if LDBL_MANT_DIG >= 64
/* Powers of ten exact in a long double of 64 bits or more (5**27 < 2**63), and their reciprocals
 * rounded to the nearest long double. */
static const long double POWERS[28] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
                                       1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
                                       1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
static const long double INVERSES[28] = {1e-0L,  1e-1L,  1e-2L,  1e-3L,  1e-4L,  1e-5L,  1e-6L,  1e-7L,
                                         1e-8L,  1e-9L,  1e-10L, 1e-11L, 1e-12L, 1e-13L, 1e-14L, 1e-15L,
                                         1e-16L, 1e-17L, 1e-18L, 1e-19L, 1e-20L, 1e-21L, 1e-22L, 1e-23L,
                                         1e-24L, 1e-25L, 1e-26L, 1e-27L};
#endif

/* The double nearest to the number text[0:size] (a JSON or CSV number, checked before), into *out:
 * 1 where that is found here, 0 where Python's reader must find it (more than 19 digits, a power of
 * ten past 27, a long double of 64 bits not there, or a value so near the middle of two doubles that
 * rounding to the long double first could round the other way). */
static int quick(const char *p, const char *end, double *out) {
#if LDBL_MANT_DIG >= 64
    int negative = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        negative = *p == '-';
        p++;
    }
    uint64_t w = 0;
    int digits = 0;
    long q = 0;
    for (; p < end && is_digit(*p); p++) {
        if (w == 0 && *p == '0') {
            continue;
        }
        if (digits == 19) {
            return 0;
        }
        w = w * 10 + (uint64_t)(*p - '0');
        digits++;
    }
    if (p < end && *p == '.') {
        for (p++; p < end && is_digit(*p); p++) {
            if (w == 0 && *p == '0') {
                q--;
                continue;
            }
            if (digits == 19) {
                return 0;
            }
            w = w * 10 + (uint64_t)(*p - '0');
            digits++;
            q--;
        }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        int below = 0;
        long e = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-')) {
            below = *p == '-';
            p++;
        }
        for (; p < end && is_digit(*p); p++) {
            if (e > 100000) {
                return 0;
            }
            e = e * 10 + (*p - '0');
        }
        q += below ? -e : e;
    }
    if (p != end) {
        return 0;
    }
    if (w == 0) {
        *out = negative ? -0.0 : 0.0;
        return 1;
    }
    if (q < -27 || q > 27) {
        return 0;
    }
    if (q >= 0 && w <= UINT64_MAX / (uint64_t)POWERS[q < 19 ? q : 19] && q < 20) {  /* an integer of 64 bits: */
        uint64_t whole = w;  /* exact in the long double, rounded once to a double (ties to even) */
        for (long i = 0; i < q; i++) {
            whole *= 10;
        }
        double d = (double)(long double)whole;
        *out = negative ? -d : d;
        return 1;
    }
    /* Within 2 units of the long double's last place of the number (w is exact; the product with an
     * exact power, or with a reciprocal rounded once, rounded once): only where that cannot straddle
     * the middle of two doubles is the nearest double to it the number's. */
    long double r = q >= 0 ? (long double)w * POWERS[q] : (long double)w * INVERSES[-q];
#if LDBL_MANT_DIG == 64
    /* The x87 format: 64 bits of mantissa (its leading 1 written), the last 11 of them past a double's. */
    uint64_t mantissa;
    memcpy(&mantissa, &r, sizeof mantissa);
    uint64_t past = mantissa & 0x7FF;
    if (past >= 0x400 - 4 && past <= 0x400 + 4) {
        return 0;
    }
#else
    int exponent;
    long double bits = ldexpl(frexpl(r, &exponent), 53);  /* the double's 53 bits before the point */
    if (fabsl(bits - floorl(bits) - 0.5L) <= ldexpl(4.0L, 53 - LDBL_MANT_DIG)) {
        return 0;
    }
#endif
    *out = negative ? -(double)r : (double)r;
    return 1;
#else
    (void)p;
    (void)end;
    (void)out;
    return 0;
#endif
}

/* The numbers left to Python's reader: where each goes, and its text in the block. */
typedef struct {
    double *out;
    const char *text;
    Py_ssize_t size;
} Slow;

typedef struct {
    Slow *items;
    Py_ssize_t used, room;
} SlowList;

/* A number's text into *out, now or (with Python's lock, after the parse) by Python's reader;
 * 0 where memory ran out. Called without Python's lock: PyMem_Raw allows that. */
static int number(const char *p, const char *end, double *out, SlowList *slow) {
    if (quick(p, end, out)) {
        return 1;
    }
    if (slow->used == slow->room) {
        Py_ssize_t room = slow->room ? 2 * slow->room : 64;
        Slow *items = PyMem_RawRealloc(slow->items, (size_t)room * sizeof(Slow));
        if (items == NULL) {
            return 0;
        }
        slow->items = items;
        slow->room = room;
    }
    slow->items[slow->used++] = (Slow){out, p, end - p};
    return 1;
}

/* The numbers left to Python's reader, read (with Python's lock): 1, or 0 where one is past
 * float64's range (a bad value: the block goes to the line reader), -1 with an exception set. */
static int read_slow(SlowList *slow) {
    char small[64];
    for (Py_ssize_t i = 0; i < slow->used; i++) {
        Slow *item = &slow->items[i];
        char *text = item->size < (Py_ssize_t)sizeof small ? small : PyMem_Malloc((size_t)item->size + 1);
        if (text == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(text, item->text, (size_t)item->size);
        text[item->size] = '\0';
        char *stop;
        double value = PyOS_string_to_double(text, &stop, NULL);
        int whole = stop == text + item->size;
        if (text != small) {
            PyMem_Free(text);
        }
        if (value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (!whole || !isfinite(value)) {
            return 0;
        }
        *item->out = value;
    }
    return 1;
}

/* A column of text: each line's cell (CSV) or JSON value followed by an LF (neither holds one). */
typedef struct {
    char *data;
    Py_ssize_t used, room;
} Texts;

/* A cell or value and an LF at the end of a text column (its cells and LFs never pass `most`): its
 * room doubled, so that many columns do not each hold a block's worth at once; 0 where memory ran
 * out. Called without Python's lock: PyMem_Raw allows that. */
static int append(Texts *column, const char *text, Py_ssize_t size, Py_ssize_t most) {
    if (column->used + size + 1 > column->room) {
        Py_ssize_t room = column->room > most / 2 ? most : 2 * column->room;
        if (room < column->used + size + 1) {
            room = column->used + size + 1;
        }
        char *data = PyMem_RawRealloc(column->data, (size_t)room);
        if (data == NULL) {
            return 0;
        }
        column->data = data;
        column->room = room;
    }
    memcpy(column->data + column->used, text, (size_t)size);
    column->used += size;
    column->data[column->used++] = '\n';
    return 1;
}

/* The end of the JSON string, true, false or null starting at p, a value carried through; NULL
 * where none starts there (a string with an escape or a control character: the line reader reads it). */
static const char *value_end(const char *p, const char *end) {
    if (p < end && *p == '"') {
        for (p++; p < end && *p != '"'; p++) {
            if (*p == '\\' || (unsigned char)*p < 0x20) {
                return NULL;
            }
        }
        return p < end ? p + 1 : NULL;
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t size = strlen(words[i]);
        if ((size_t)(end - p) >= size && !memcmp(p, words[i], size)) {
            return p + size;
        }
    }
    return number_end(p, end);
}

/* Parses a JSON Lines block into the columns: 1 where every line is a plain object of all the
 * names, 0 where not, -1 where memory ran out. */
static int parse_json(const char *p, const char *end, const char **names, const Py_ssize_t *sizes, double **columns,
                      Py_ssize_t n, Py_ssize_t count, Texts *texts, Py_ssize_t m, SlowList *slow, Py_ssize_t longest) {
    Py_ssize_t most = 2 * (end - p) + 1;  /* a text column's values and LFs: never more */
    uint64_t all = n + m == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n + m)) - 1);
    for (Py_ssize_t line = 0; line < count; line++) {
        uint64_t seen = 0;
        const char *start = p;
        p = skip_space(p, end);
        if (p >= end || *p != '{') {
            return 0;
        }
        p = skip_space(p + 1, end);
        for (;;) {
            if (p >= end || *p != '"') {
                return 0;
            }
            const char *key = ++p;
            while (p < end && *p != '"') {
                if (*p == '\\' || (unsigned char)*p < 0x20) {
                    return 0;
                }
                p++;
            }
            if (p >= end) {
                return 0;
            }
            Py_ssize_t size = p - key, k = 0;
            while (k < n + m && !(sizes[k] == size && !memcmp(names[k], key, (size_t)size))) {
                k++;
            }
            if (k == n + m || (seen >> k) & 1) {
                return 0;
            }
            seen |= (uint64_t)1 << k;
            p = skip_space(p + 1, end);
            if (p >= end || *p != ':') {
                return 0;
            }
            p = skip_space(p + 1, end);
            const char *stop = k < n ? number_end(p, end) : value_end(p, end);
            if (stop == NULL && k < n) {
                stop = json_special(p, end, &columns[k][line]);
                if (stop == NULL) {
                    return 0;
                }
            } else if (stop == NULL) {
                return 0;
            } else if (k < n && !number(p, stop, &columns[k][line], slow)) {
                return -1;
            }
            if (k >= n && !append(&texts[k - n], p, stop - p, most)) {
                return -1;
            }
            p = skip_space(stop, end);
            if (p < end && *p == ',') {
                p = skip_space(p + 1, end);
                continue;
            }
            if (p < end && *p == '}') {
                break;
            }
            return 0;
        }
        if (seen != all) {
            return 0;
        }
        p = skip_space(p + 1, end);
        if (p - start > longest) {
            return 0;
        }
        if (line + 1 < count) {
            if (p >= end || *p != '\n') {
                return 0;
            }
            p++;
        } else if (p != end) {
            return 0;
        }
    }
    return 1;
}

/* What a block is read into: a float64 column (a bytes object) a number a line, a text column a value
 * carried through, and the numbers left to Python's reader. */
typedef struct {
    Py_ssize_t n, m;
    PyObject *made[MAX_NAMES];
    double *columns[MAX_NAMES];
    Texts texts[MAX_NAMES];
    SlowList slow;
} Block;

/* n float64 columns of `count` rows and m text columns for `size` bytes of lines; 0 with an
 * exception set where memory ran out. */
static int block_new(Block *b, Py_ssize_t n, Py_ssize_t m, Py_ssize_t count, Py_ssize_t size) {
    b->n = n;
    b->m = m;
    for (Py_ssize_t k = 0; k < n; k++) {
        b->made[k] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * count);
        if (b->made[k] == NULL) {
            return 0;
        }
        b->columns[k] = (double *)PyBytes_AS_STRING(b->made[k]);
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        b->texts[j].room = size / (m + 1) + count + 16;
        b->texts[j].data = PyMem_RawMalloc((size_t)b->texts[j].room);
        if (b->texts[j].data == NULL) {
            PyErr_NoMemory();
            return 0;
        }
    }
    return 1;
}

/* After a parse that gave `good` (1: every line read, 0: not, -1: memory ran out): the numbers left
 * to Python's reader read, and ([column, ...], [texts, ...]); None where the block is not read at
 * once; NULL with an exception set. */
static PyObject *block_result(Block *b, int good) {
    if (good < 0) {
        return PyErr_NoMemory();
    }
    if (good) {
        good = read_slow(&b->slow);
        if (good < 0) {
            return NULL;
        }
    }
    if (!good) {
        return Py_NewRef(Py_None);
    }
    PyObject *numbers = PyList_New(b->n), *texts = PyList_New(b->m), *out = NULL;
    if (numbers == NULL || texts == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < b->n; k++) {
        PyList_SET_ITEM(numbers, k, b->made[k]);
        b->made[k] = NULL;
    }
    for (Py_ssize_t j = 0; j < b->m; j++) {
        PyObject *data = PyBytes_FromStringAndSize(b->texts[j].data, b->texts[j].used);
        if (data == NULL) {
            goto done;
        }
        PyList_SET_ITEM(texts, j, data);
    }
    out = PyTuple_Pack(2, numbers, texts);
done:
    Py_XDECREF(numbers);
    Py_XDECREF(texts);
    return out;
}

static void block_free(Block *b) {
    for (Py_ssize_t k = 0; k < MAX_NAMES; k++) {
        Py_XDECREF(b->made[k]);
        PyMem_RawFree(b->texts[k].data);
    }
    PyMem_RawFree(b->slow.items);
}

static PyObject *json(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *given, *given_others = NULL, *names = NULL, *others = NULL, *out = NULL;
    Py_ssize_t count, longest = PY_SSIZE_T_MAX;
    Py_buffer block = {0};
    const char *keys[MAX_NAMES];
    Py_ssize_t sizes[MAX_NAMES];
    Block b = {0};
    if (!PyArg_ParseTuple(args, "y*On|On:json", &block, &given, &count, &given_others, &longest)) {
        return NULL;
    }
    names = PySequence_Tuple(given);
    others = given_others == NULL ? PyTuple_New(0) : PySequence_Tuple(given_others);
    if (names == NULL || others == NULL) {
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names), m = PyTuple_GET_SIZE(others);
    if (n < 1 || n + m > MAX_NAMES) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t line_bytes = 2 + (n + m - 1);  /* the fewest a point's line has: {}, commas, "name":0 each */
    for (Py_ssize_t k = 0; k < n + m; k++) {
        PyObject *name = k < n ? PyTuple_GET_ITEM(names, k) : PyTuple_GET_ITEM(others, k - n);
        if (!PyBytes_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "names are bytes");
            goto done;
        }
        keys[k] = PyBytes_AS_STRING(name);
        sizes[k] = PyBytes_GET_SIZE(name);
        line_bytes += sizes[k] + 4;
    }
    if (count < 1 || block.len < line_bytes || count - 1 > (block.len - line_bytes) / (line_bytes + 1)) {  /* LFs too */
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (!block_new(&b, n, m, count, block.len)) {
        goto done;
    }
    int good;
    Py_BEGIN_ALLOW_THREADS
    good = parse_json(block.buf, (const char *)block.buf + block.len, keys, sizes, b.columns, n, count, b.texts, m,
                      &b.slow, longest);
    Py_END_ALLOW_THREADS
    out = block_result(&b, good);
done:
    block_free(&b);
    Py_XDECREF(names);
    Py_XDECREF(others);
    PyBuffer_Release(&block);
    return out;
}

/* Parses a CSV block: 1 where every line has `width` cells and a number in each cell `kinds` marks
 * (k >= 0: number column k; k <= -2: text column -2 - k; -1: neither), 0 where not, -1 where memory
 * ran out. A line's last CR (of a CRLF) is no part of its last cell. */
static int parse_csv(const char *p, const char *end, Py_ssize_t width, const Py_ssize_t *kinds, double **columns,
                     Texts *texts, Py_ssize_t *count, SlowList *slow, Py_ssize_t longest) {
    Py_ssize_t line = 0, most = 2 * (end - p) + 1;  /* a column's cells and LFs: never more */
    for (;;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *stop = eol == NULL ? end : eol;
        if (stop - p > longest) {
            return 0;
        }
        if (stop > p && stop[-1] == '\r') {
            stop--;
        }
        const char *cell = p;
        for (Py_ssize_t i = 0;; i++) {
            if (i == width) {
                return 0;
            }
            const char *comma = memchr(cell, ',', (size_t)(stop - cell));
            const char *cell_end = comma == NULL ? stop : comma;
            Py_ssize_t kind = kinds[i];
            if (kind >= 0) {
                const char *a = cell, *b = cell_end;
                while (a < b && space(*a)) {
                    a++;
                }
                while (b > a && space(b[-1])) {
                    b--;
                }
                if (a == b || csv_number_end(a, b) != b) {
                    if (!csv_special(a, b, &columns[kind][line])) {
                        return 0;
                    }
                } else if (!number(a, b, &columns[kind][line], slow)) {
                    return -1;
                }
            } else if (kind <= -2 && !append(&texts[-2 - kind], cell, cell_end - cell, most)) {
                return -1;
            }
            if (comma == NULL) {
                if (i + 1 != width) {
                    return 0;
                }
                break;
            }
            cell = comma + 1;
        }
        line++;
        if (eol == NULL) {
            break;
        }
        p = eol + 1;
    }
    *count = line;
    return 1;
}

static PyObject *csv(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *numbers_at, *texts_at, *out = NULL;
    Py_ssize_t width, longest = PY_SSIZE_T_MAX;
    Py_buffer block = {0};
    Py_ssize_t *kinds = NULL;
    Block b = {0};
    Py_ssize_t n = 0, m = 0;
    if (!PyArg_ParseTuple(args, "y*nOO|n:csv", &block, &width, &numbers_at, &texts_at, &longest)) {
        return NULL;
    }
    if (!PyList_Check(numbers_at) || !PyList_Check(texts_at)) {
        PyErr_SetString(PyExc_TypeError, "the cells' places are lists");
        goto done;
    }
    n = PyList_GET_SIZE(numbers_at);
    m = PyList_GET_SIZE(texts_at);
    if (width < 1 || width > (Py_ssize_t)1 << 20 || n < 1 || n > MAX_NAMES || m > MAX_NAMES || block.len < 1) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    kinds = PyMem_Malloc((size_t)width * sizeof(Py_ssize_t));
    if (kinds == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < width; i++) {
        kinds[i] = -1;
    }
    for (Py_ssize_t j = 0; j < n + m; j++) {
        PyObject *item = j < n ? PyList_GET_ITEM(numbers_at, j) : PyList_GET_ITEM(texts_at, j - n);
        Py_ssize_t at = PyLong_AsSsize_t(item);
        if (at == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (at < 0 || at >= width || kinds[at] != -1) {
            PyErr_SetString(PyExc_ValueError, "a cell's place is outside the line or given twice");
            goto done;
        }
        kinds[at] = j < n ? j : -2 - (j - n);
    }
    /* Lines: a cell each at least (a number a digit, and commas): no more than the block's bytes. */
    const char *start = block.buf;
    Py_ssize_t lines = 1;
    for (const char *p = start; (p = memchr(p, '\n', (size_t)(start + block.len - p))) != NULL; p++) {
        lines++;
    }
    Py_ssize_t line_bytes = (width - 1) + n;  /* the fewest a line of points has: its commas, a digit a number */
    if ((lines - 1) > (block.len - line_bytes) / (line_bytes + 1) || block.len < line_bytes) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (!block_new(&b, n, m, lines, block.len)) {
        goto done;
    }
    int good;
    Py_ssize_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    good = parse_csv(start, start + block.len, width, kinds, b.columns, b.texts, &count, &b.slow, longest);
    Py_END_ALLOW_THREADS
    out = block_result(&b, good > 0 && count != lines ? 0 : good);
done:
    block_free(&b);
    PyMem_Free(kinds);
    PyBuffer_Release(&block);
    return out;
}

/* --- writing: lines(pieces, count) -------------------------------------------------------------- */

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 Wide;
static Wide fives[32];  /* 5**i, made when the module is (writers run on several threads at once) */

/* Python's repr of a finite double that is not 0 and lies within 1e-15 <= |x| < 1e17, into out (32
 * bytes): its length; 0 where it is not (the caller asks PyOS_double_to_string, which repr calls).
 *
 * repr writes the fewest digits that read back as x, and of those the nearest to x. x's rounding
 * interval (the numbers that read back as x: half a unit of the last place either side, a quarter
 * below a power of two, the ends included where x's last bit is 0) is scaled by 10**R, R chosen so
 * that 17 digits are whole numbers, exactly, in 128 bits (the interval's ends in quarter units times
 * 5**R, a power of two apart). The digits are then those of the multiple of the largest power of ten
 * inside the interval nearest to x (ties to even). */
static int shortest(double x, char *out) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int biased = (int)((bits >> 52) & 0x7FF);
    uint64_t fraction = bits & (((uint64_t)1 << 52) - 1);
    if (biased == 0 || biased == 0x7FF) {
        return 0;
    }
    int k = biased - 1023;  /* x's binary exponent: floor(k * log10(2)) is its decimal one, or one less */
    int e10 = k >= 0 ? (k * 315653) >> 20 : -((-k * 315653 + (1 << 20) - 1) >> 20);
    int scale = 16 - e10;
    if (scale < 0 || scale > 31) {
        return 0;
    }
    uint64_t m = fraction | ((uint64_t)1 << 52);
    int two = biased - 1075 - 2 + scale;  /* x * 10**scale = (4m) * 5**scale * 2**two */
    Wide v = (Wide)(4 * m) * fives[scale], high = (Wide)(4 * m + 2) * fives[scale];
    Wide low = (Wide)(4 * m - (fraction == 0 && biased > 1 ? 1 : 2)) * fives[scale];
    int inclusive = (m & 1) == 0;
    uint64_t v_int, low_int, high_int;
    Wide v_part = 0, half = 0;  /* the part of x below 1 (in 2**-s), and half of 1 */
    if (two >= 0) {
        v_int = (uint64_t)(v << two);
        low_int = (uint64_t)(low << two) + !inclusive;
        high_int = (uint64_t)(high << two) - !inclusive;
    } else {
        int s = -two;
        Wide unit = (Wide)1 << s, mask = unit - 1;
        v_int = (uint64_t)(v >> s);
        v_part = v & mask;
        half = unit >> 1;
        low_int = (uint64_t)(low >> s) + ((low & mask) != 0 || !inclusive);
        high_int = (uint64_t)(high >> s) - ((high & mask) == 0 && !inclusive);
    }
    if (low_int > high_int) {
        return 0;
    }
    /* Drop digits while a multiple of the next power of ten is inside (the nearest inside is one: a
     * multiple of 10**(k+1) inside is a multiple of 10**k), keeping what rounding x needs: the last digit
     * dropped and whether any before it was not 0. */
    uint64_t q = v_int, least = low_int, most = high_int;
    int drop = 0, last = -1, sticky = 0;
    while ((least + 9) / 10 <= most / 10) {
        sticky |= last > 0;
        last = (int)(q % 10);
        q /= 10;
        least = (least + 9) / 10;
        most /= 10;
        drop++;
    }
    int up;  /* is x nearer q + 1 than q (-1: halfway) */
    if (last < 0) {
        up = v_part > half ? 1 : v_part < half ? 0 : -1;
    } else {
        up = last > 5 || (last == 5 && (sticky || v_part != 0)) ? 1 : last < 5 ? 0 : -1;
    }
    if (up < 0) {
        up = (int)(q & 1);
    }
    uint64_t c = q + (uint64_t)up;
    c = c < least ? least : c > most ? most : c;
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "4041424344454647484950515253545556575859606162636465666768697071727374757677787980"
                                "81828384858687888990919293949596979899";
    char buffer[24], *digits = buffer + sizeof buffer;  /* c's digits, written from the last, two at a time */
    uint32_t below = (uint32_t)(c % 100000000);  /* c < 10**18: its last 8 digits in 32 bits */
    for (int i = 0; i < 4; i++, below /= 100) {
        digits -= 2;
        memcpy(digits, pairs + 2 * (below % 100), 2);
    }
    for (c /= 100000000; c; c /= 100) {
        digits -= 2;
        memcpy(digits, pairs + 2 * (c % 100), 2);
    }
    while (*digits == '0') {  /* c is not 0 */
        digits++;
    }
    int n = (int)(buffer + sizeof buffer - digits);
    int point = n + drop - scale;  /* x = 0.DIGITS * 10**point */
    while (n > 1 && digits[n - 1] == '0') {
        n--;
    }
    char *p = out;
    if (bits >> 63) {
        *p++ = '-';
    }
    if (point <= -4 || point > 16) {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)n - 1);
            p += n - 1;
        }
        int exponent = point - 1;
        *p++ = 'e';
        *p++ = exponent < 0 ? '-' : '+';
        exponent = exponent < 0 ? -exponent : exponent;
        memcpy(p, pairs + 2 * exponent, 2);  /* |exponent| < 100 here */
        p += 2;
    } else if (point <= 0) {
        memcpy(p, "0.0000", (size_t)(2 - point));
        p += 2 - point;
        memcpy(p, digits, (size_t)n);
        p += n;
    } else if (point >= n) {
        memcpy(p, digits, (size_t)n);
        memset(p + n, '0', (size_t)(point - n));
        p += point;
        *p++ = '.';
        *p++ = '0';
    } else {
        memcpy(p, digits, (size_t)point);
        p[point] = '.';
        memcpy(p + point + 1, digits + point, (size_t)(n - point));
        p += n + 1;
    }
    return (int)(p - out);
}
#else
static int shortest(double x, char *out) {
    (void)x;
    (void)out;
    return 0;
}
#endif

/* The bytes written so far. `saved`: Python's lock let go (no text pieces), taken back only for a
 * float the quick way cannot write. */
typedef struct {
    char *data;
    Py_ssize_t used, room;
    PyThreadState *saved;
} Out;

/* Room for `size` more bytes; 0 where memory ran out (the caller says so with Python's lock). */
static int room_for(Out *out, Py_ssize_t size) {
    if (out->used + size <= out->room) {
        return 1;
    }
    Py_ssize_t room = out->room + out->room / 2 + size + 4096;
    char *data = PyMem_RawRealloc(out->data, (size_t)room);
    if (data == NULL) {
        return 0;
    }
    out->data = data;
    out->room = room;
    return 1;
}

/* text[0:size] right-aligned in `width` characters (of UTF-8). */
static int put(Out *out, const char *text, Py_ssize_t size, Py_ssize_t width) {
    Py_ssize_t characters = 0;
    if (width > 0) {
        for (Py_ssize_t i = 0; i < size; i++) {
            characters += ((unsigned char)text[i] & 0xC0) != 0x80;
        }
    }
    Py_ssize_t pad = width > characters ? width - characters : 0;
    if (!room_for(out, pad + size)) {
        return 0;
    }
    memset(out->data + out->used, ' ', (size_t)pad);
    memcpy(out->data + out->used + pad, text, (size_t)size);
    out->used += pad + size;
    return 1;
}

/* A float as `repr` writes it (`null`, where given, for NaN and infinities), or as `format(x, '.6g')`. */
static int put_float(Out *out, double x, char style, const char *null, Py_ssize_t null_size, Py_ssize_t width) {
    if (null != NULL && !isfinite(x)) {
        return put(out, null, null_size, width);
    }
    if (style == 'r' && x != 0.0 && width == 0) {
        if (!room_for(out, 32)) {
            return 0;
        }
        int size = shortest(x, out->data + out->used);
        if (size) {
            out->used += size;
            return 1;
        }
    }
    if (out->saved != NULL) {
        PyEval_RestoreThread(out->saved);
    }
    char *text = PyOS_double_to_string(x, style, style == 'r' ? 0 : 6, style == 'r' ? Py_DTSF_ADD_DOT_0 : 0, NULL);
    if (text == NULL) {
        PyErr_Clear();
    }
    int done = text != NULL && put(out, text, (Py_ssize_t)strlen(text), width);
    PyMem_Free(text);
    if (out->saved != NULL) {
        out->saved = PyEval_SaveThread();
    }
    return done;
}

typedef struct {
    char kind;  /* 't' the same text on every line, 'r' and 'g' floats, 'd' integers, 's' a text a line */
    const char *text;  /* 't'; 'r': the text of NaN and infinities (NULL: repr's) */
    Py_ssize_t size, width;
    Py_buffer numbers;  /* 'r', 'g', 'd' */
    PyObject *texts;  /* 's': a list or tuple of str, bytes or None */
} Piece;

static int piece_of(PyObject *given, Piece *piece, Py_ssize_t count) {
    if (PyBytes_Check(given)) {
        piece->kind = 't';
        piece->text = PyBytes_AS_STRING(given);
        piece->size = PyBytes_GET_SIZE(given);
        return 1;
    }
    PyObject *column, *arg;
    int kind;
    if (!PyArg_ParseTuple(given, "COO:piece", &kind, &column, &arg)) {
        return 0;
    }
    piece->kind = (char)kind;
    if (kind == 's') {
        if (!PyList_Check(column) && !PyTuple_Check(column)) {
            PyErr_SetString(PyExc_TypeError, "texts are a list or a tuple");
            return 0;
        }
        if (PySequence_Fast_GET_SIZE(column) != count) {
            PyErr_SetString(PyExc_ValueError, "a column of another length");
            return 0;
        }
        piece->texts = column;
    } else if (kind == 'r' || kind == 'g' || kind == 'd') {
        if (PyObject_GetBuffer(column, &piece->numbers, PyBUF_C_CONTIGUOUS) < 0) {
            return 0;
        }
        if (piece->numbers.len != 8 * count) {
            PyErr_SetString(PyExc_ValueError, "a column of another length");
            return 0;
        }
    } else {
        PyErr_SetString(PyExc_ValueError, "a piece is bytes or (r|g|d|s, column, arg)");
        return 0;
    }
    if (kind == 'r') {
        if (arg != Py_None) {
            if (!PyBytes_Check(arg)) {
                PyErr_SetString(PyExc_TypeError, "the text of NaN is bytes");
                return 0;
            }
            piece->text = PyBytes_AS_STRING(arg);
            piece->size = PyBytes_GET_SIZE(arg);
        }
    } else {
        piece->width = PyLong_AsSsize_t(arg);
        if (piece->width == -1 && PyErr_Occurred()) {
            return 0;
        }
    }
    return 1;
}

static int put_piece(Out *out, Piece *piece, Py_ssize_t row) {
    if (piece->kind == 't') {
        return put(out, piece->text, piece->size, 0);
    }
    if (piece->kind == 's') {
        PyObject *item = PySequence_Fast_GET_ITEM(piece->texts, row);
        const char *text = "";
        Py_ssize_t size = 0;
        if (PyUnicode_Check(item)) {
            text = PyUnicode_AsUTF8AndSize(item, &size);
            if (text == NULL) {
                PyErr_Clear();  /* (said as memory, with the rest) */
                return 0;
            }
        } else if (PyBytes_Check(item)) {
            text = PyBytes_AS_STRING(item);
            size = PyBytes_GET_SIZE(item);
        } else if (item != Py_None) {
            return 0;
        }
        return put(out, text, size, piece->width);
    }
    if (piece->kind == 'd') {
        char text[24];
        int size = snprintf(text, sizeof text, "%lld", (long long)((const int64_t *)piece->numbers.buf)[row]);
        return put(out, text, size, piece->width);
    }
    return put_float(out, ((const double *)piece->numbers.buf)[row], piece->kind, piece->text, piece->size,
                     piece->width);
}

static PyObject *lines(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *given, *result = NULL;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "On:lines", &given, &count)) {
        return NULL;
    }
    PyObject *sequence = PySequence_Fast(given, "pieces are a sequence");
    if (sequence == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
    Piece *pieces = PyMem_Calloc((size_t)n + 1, sizeof(Piece));
    Out out = {0};
    if (pieces == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int texts = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!piece_of(PySequence_Fast_GET_ITEM(sequence, i), &pieces[i], count)) {
            goto done;
        }
        texts |= pieces[i].kind == 's';
    }
    int good = 1;
    if (!texts) {
        out.saved = PyEval_SaveThread();
    }
    for (Py_ssize_t row = 0; good && row < count; row++) {
        for (Py_ssize_t i = 0; good && i < n; i++) {
            good = put_piece(&out, &pieces[i], row);
        }
    }
    if (!texts) {
        PyEval_RestoreThread(out.saved);
    }
    if (!good) {  /* memory ran out, or a text is not str, bytes or None, or not UTF-8 */
        PyErr_SetString(PyExc_MemoryError, "the lines cannot be written");
        goto done;
    }
    result = PyBytes_FromStringAndSize(out.data, out.used);
done:
    for (Py_ssize_t i = 0; pieces != NULL && i < n; i++) {
        if (pieces[i].numbers.obj != NULL) {
            PyBuffer_Release(&pieces[i].numbers);
        }
    }
    PyMem_Free(pieces);
    PyMem_RawFree(out.data);
    Py_DECREF(sequence);
    return result;
}

/* --- float64 kernels in PyTorch's order of operations (gradcli/ops/float64.py says which, and holds the same steps in
 * NumPy for where this helper is not built: the two give the same bits). Plain C doubles: each operation rounded on
 * its own (setup.py turns off the compiler's contraction into fused multiply-adds), fma() where PyTorch's kernel
 * fuses. Buffers are C-contiguous float64; rows of n. */

#define MOST_LANES 16

static int doubles(Py_buffer *view, Py_ssize_t *count) {
    if (view->len % (Py_ssize_t)sizeof(double) != 0) {
        PyErr_SetString(PyExc_ValueError, "buffers hold float64");
        return 0;
    }
    *count = view->len / (Py_ssize_t)sizeof(double);
    return 1;
}

/* fma(a, b, c, out): out = a * b + c rounded once, element by element. */
static PyObject *fused(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer a = {0}, b = {0}, c = {0}, out = {0};
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*w*:fma", &a, &b, &c, &out)) {
        return NULL;
    }
    Py_ssize_t n;
    if (!doubles(&out, &n)) {
        goto done;
    }
    if (a.len != out.len || b.len != out.len || c.len != out.len) {
        PyErr_SetString(PyExc_ValueError, "fma's buffers differ in size");
        goto done;
    }
    const double *pa = a.buf, *pb = b.buf, *pc = c.buf;
    double *po = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        po[i] = fma(pa[i], pb[i], pc[i]);
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    PyBuffer_Release(&out);
    return result;
}

/* vec::reduce_all's sum of a row: `lanes` accumulators along it, the elements left over added into the first, then
 * the lanes left to right; a row shorter than a vector left to right. Where a and b are given (x = a * b), the
 * elements left over are fused into their lanes, fma(a, b, lane), as map2_reduce_all's compiled tail is. */
static double lane_sum(const double *x, const double *a, const double *b, Py_ssize_t n, int lanes) {
    if (n < lanes) {
        double total = x[0];
        for (Py_ssize_t i = 1; i < n; i++) {
            total += x[i];
        }
        return total;
    }
    double acc[MOST_LANES] = {0};
    Py_ssize_t whole = n - n % lanes;
    for (int l = 0; l < lanes; l++) {
        acc[l] = x[l];
    }
    for (Py_ssize_t i = lanes; i < whole; i += lanes) {
        for (int l = 0; l < lanes; l++) {
            acc[l] += x[i + l];
        }
    }
    for (Py_ssize_t i = whole; i < n; i++) {
        acc[i - whole] = a == NULL ? acc[i - whole] + x[i] : fma(a[i], b[i], acc[i - whole]);
    }
    double total = acc[0];
    for (int l = 1; l < lanes; l++) {
        total += acc[l];
    }
    return total;
}

/* lane_sums(x, n, lanes, out[, a, b]): out[r] = lane_sum of row r (n >= 1). */
static PyObject *lane_sums(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer x = {0}, out = {0}, a = {0}, b = {0};
    Py_ssize_t n, size, rows;
    int lanes;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*niw*|y*y*:lane_sums", &x, &n, &lanes, &out, &a, &b)) {
        return NULL;
    }
    if (!doubles(&x, &size) || !doubles(&out, &rows)) {
        goto done;
    }
    if (n < 1 || lanes < 1 || lanes > MOST_LANES || size != rows * n || (a.buf != NULL && a.len != x.len)
            || (a.buf == NULL) != (b.buf == NULL) || (b.buf != NULL && b.len != x.len)) {
        PyErr_SetString(PyExc_ValueError, "lane_sums: rows of n >= 1, 1 to 16 lanes, a sum a row, a and b as x");
        goto done;
    }
    const double *px = x.buf, *pa = a.buf, *pb = b.buf;
    double *po = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++) {
        po[r] = lane_sum(px + r * n, pa == NULL ? NULL : pa + r * n, pb == NULL ? NULL : pb + r * n, n, lanes);
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    if (a.buf != NULL) {
        PyBuffer_Release(&a);
    }
    if (b.buf != NULL) {
        PyBuffer_Release(&b);
    }
    return result;
}

/* RowwiseMoments (moments_utils.h) of a row of float64: 4 lanes; in each, Welford's steps over chunks of 16 vectors
 * (fused); the chunks merged as a binary counter merges (AddMomentsVec); the elements left over one at a time (not
 * fused); then each lane merged into those (AddMoments, fused). */
#define NORM_LANES 4
#define CHUNK 16
#define MOST_LEVELS 64

typedef struct {
    int64_t m0;
    double m1[NORM_LANES], m2[NORM_LANES];
} LaneMoments;

static void merge_vectors(const LaneMoments *added, LaneMoments *into) {
    int64_t n = into->m0 + added->m0;
    double c = n == 0 ? 0.0 : (double)added->m0 / (double)n;
    for (int l = 0; l < NORM_LANES; l++) {
        double delta = added->m1[l] - into->m1[l];
        double part = c * delta;
        double m2 = into->m2[l] + added->m2[l];
        into->m1[l] = into->m1[l] + part;
        into->m2[l] = fma(delta * (double)into->m0, part, m2);
    }
    into->m0 = n;
}

static void row_moments(const double *x, Py_ssize_t size, double *mean_out, double *variance_out) {
    static const LaneMoments zero = {0};
    Py_ssize_t vectors = size / NORM_LANES, chunks = (vectors + CHUNK - 1) / CHUNK;
    int depth = 0;
    while (depth < MOST_LEVELS && ((Py_ssize_t)1 << depth) < chunks) {
        depth++;  /* the bits of chunks - 1 */
    }
    LaneMoments stack[MOST_LEVELS + 1];
    for (int j = 0; j <= depth; j++) {
        stack[j] = zero;
    }
    for (Py_ssize_t k = 0; k < chunks; k++) {
        Py_ssize_t steps = k + 1 < chunks ? CHUNK : vectors - k * CHUNK;
        LaneMoments part = {.m0 = steps};
        for (Py_ssize_t j = 0; j < steps; j++) {
            const double *v = x + (k * CHUNK + j) * NORM_LANES;
            double step = 1.0 / (double)(j + 1);
            for (int l = 0; l < NORM_LANES; l++) {
                double delta = v[l] - part.m1[l];
                part.m1[l] = fma(step, delta, part.m1[l]);
                part.m2[l] = fma(delta, v[l] - part.m1[l], part.m2[l]);
            }
        }
        merge_vectors(&part, &stack[0]);
        Py_ssize_t mask = k + 1;
        for (int j = 1; j < depth && (mask & 1) == 0; j++) {
            merge_vectors(&stack[j - 1], &stack[j]);
            stack[j - 1] = zero;
            mask >>= 1;
        }
    }
    for (int j = 1; j < depth; j++) {
        merge_vectors(&stack[j], &stack[0]);
    }
    int64_t count = 0;
    double mean = 0.0, m2 = 0.0;
    for (Py_ssize_t i = vectors * NORM_LANES; i < size; i++) {
        double delta = x[i] - mean;
        count++;
        mean = mean + delta / (double)count;
        m2 = m2 + delta * (x[i] - mean);
    }
    for (int l = 0; l < NORM_LANES; l++) {
        int64_t n = count + vectors;
        double c = n == 0 ? 0.0 : (double)vectors / (double)n;
        double delta = stack[0].m1[l] - mean;
        mean = fma(c, delta, mean);
        m2 = m2 + fma(delta * delta * c, (double)count, stack[0].m2[l]);
        count = n;
    }
    *mean_out = mean;
    *variance_out = m2 / (double)size;
}

/* moments(x, n, mean, variance): each row's mean and biased variance (n >= 1). */
static PyObject *moments(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer x = {0}, mean = {0}, variance = {0};
    Py_ssize_t n, size, rows;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*nw*w*:moments", &x, &n, &mean, &variance)) {
        return NULL;
    }
    if (!doubles(&x, &size) || !doubles(&mean, &rows)) {
        goto done;
    }
    if (n < 1 || size != rows * n || variance.len != mean.len) {
        PyErr_SetString(PyExc_ValueError, "moments: rows of n >= 1, a mean and a variance a row");
        goto done;
    }
    const double *px = x.buf;
    double *pm = mean.buf, *pv = variance.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++) {
        row_moments(px + r * n, n, pm + r, pv + r);
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&x);
    PyBuffer_Release(&mean);
    PyBuffer_Release(&variance);
    return result;
}

/* welford(x, n, m2[, mean]): each row's sum of squared deviations (and its running mean) by Welford's steps one
 * element after another, as PyTorch's reduction kernel takes var and std along dims (WelfordOps: not fused). */
static PyObject *welford(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer x = {0}, m2 = {0}, means = {0};
    Py_ssize_t n, size, rows;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*nw*|w*:welford", &x, &n, &m2, &means)) {
        return NULL;
    }
    if (!doubles(&x, &size) || !doubles(&m2, &rows)) {
        goto done;
    }
    if (n < 1 || size != rows * n || (means.buf != NULL && means.len != m2.len)) {
        PyErr_SetString(PyExc_ValueError, "welford: rows of n >= 1, a sum (and a mean) a row");
        goto done;
    }
    const double *px = x.buf;
    double *po = m2.buf, *pm = means.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++) {
        const double *row = px + r * n;
        double mean = 0.0, squares = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) {
            double delta = row[i] - mean;
            mean = mean + delta / (double)(i + 1);
            squares = squares + delta * (row[i] - mean);
        }
        po[r] = squares;
        if (pm != NULL) {
            pm[r] = mean;
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&x);
    PyBuffer_Release(&m2);
    PyBuffer_Release(&means);
    return result;
}

static PyMethodDef methods[] = {
    {"json", json, METH_VARARGS,
     "json(block, names, count, others=(), longest=no limit) -> ([column, ...], [values, ...]) | None: each name's "
     "number on each line (float64 bytes), each other key's JSON value (each followed by an LF); None where a line "
     "has more than `longest` bytes."},
    {"csv", csv, METH_VARARGS,
     "csv(block, width, numbers, texts, longest=no limit) -> ([column, ...], [cells, ...]) | None: a CSV block's "
     "cells; None where a line has more than `longest` bytes."},
    {"lines", lines, METH_VARARGS,
     "lines(pieces, count) -> bytes: `count` lines, each the pieces in turn: bytes (the same on every line), "
     "('r', float64s, null) as repr writes each (null: bytes for NaN and infinities, or None), ('g', float64s, "
     "width) as format(x, '.6g') right-aligned, ('d', int64s, width), ('s', [str | bytes | None], width)."},
    {"fma", fused, METH_VARARGS, "fma(a, b, c, out): out = a * b + c rounded once (float64 buffers of one size)."},
    {"lane_sums", lane_sums, METH_VARARGS,
     "lane_sums(x, n, lanes, out[, a, b]): each row of n float64 summed as PyTorch's vec::reduce_all sums it (x = a * "
     "b: the elements left over fused into their lanes)."},
    {"moments", moments, METH_VARARGS,
     "moments(x, n, mean, variance): each row's mean and biased variance in PyTorch's RowwiseMoments' steps."},
    {"welford", welford, METH_VARARGS,
     "welford(x, n, m2[, mean]): each row's sum of squared deviations (and its running mean) by Welford's steps, one "
     "element after another."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "gradcli.inputs._numbers", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__numbers(void) {
#ifdef __SIZEOF_INT128__
    fives[0] = 1;
    for (int i = 1; i < 32; i++) {
        fives[i] = fives[i - 1] * 5;
    }
#endif
    PyObject *made = PyModule_Create(&module);
    if (made != NULL && PyModule_AddIntConstant(made, "version", 3) < 0) {  /* 2: csv and json take `longest`; 3: kernels */
        Py_CLEAR(made);
    }
    return made;
}
