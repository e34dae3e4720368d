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
 * csv(block, width, numbers, texts) -> (count, [column, ...], [(offsets, data), ...]) | None:
 * the lines of a CSV block of `width` cells each; the cells at `numbers` as float64 columns, the
 * cells at `texts` as their bytes (an Arrow array of large strings' offsets and data). None where
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

/* The end of the JSON number starting at p (before end), or NULL where none starts there. */
static const char *number_end(const char *p, const char *end) {
    if (p < end && *p == '-') {
        p++;
    }
    if (p >= end || !is_digit(*p)) {
        return NULL;
    }
    if (*p == '0') {
        p++;
    } else {
        while (p < end && is_digit(*p)) {
            p++;
        }
    }
    if (p < end && *p == '.') {
        p++;
        if (p >= end || !is_digit(*p)) {
            return NULL;
        }
        while (p < end && is_digit(*p)) {
            p++;
        }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) {
            p++;
        }
        if (p >= end || !is_digit(*p)) {
            return NULL;
        }
        while (p < end && is_digit(*p)) {
            p++;
        }
    }
    return p;
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
    const char *digits = p;
    while (p < end && is_digit(*p)) {
        p++;
    }
    int before = p > digits;
    if (p < end && *p == '.') {
        p++;
        digits = p;
        while (p < end && is_digit(*p)) {
            p++;
        }
        if (!before && p == digits) {
            return NULL;
        }
    } else if (!before) {
        return NULL;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) {
            p++;
        }
        if (p >= end || !is_digit(*p)) {
            return NULL;
        }
        while (p < end && is_digit(*p)) {
            p++;
        }
    }
    return p;
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

/* Room in a text column for `size` more bytes (its cells and LFs never pass `most`): doubled, so
 * that many columns do not each hold a block's worth at once; 0 where memory ran out. Called
 * without Python's lock: PyMem_Raw allows that. */
static int grow(Texts *column, Py_ssize_t size, Py_ssize_t most) {
    Py_ssize_t room = column->room > most / 2 ? most : 2 * column->room;
    if (room < column->used + size) {
        room = column->used + size;
    }
    char *data = PyMem_RawRealloc(column->data, (size_t)room);
    if (data == NULL) {
        return 0;
    }
    column->data = data;
    column->room = room;
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
                      Py_ssize_t n, Py_ssize_t count, Texts *texts, Py_ssize_t m, SlowList *slow) {
    Py_ssize_t most = 2 * (end - p) + 1;  /* a text column's values and LFs: never more */
    uint64_t all = n + m == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n + m)) - 1);
    for (Py_ssize_t line = 0; line < count; line++) {
        uint64_t seen = 0;
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
            if (k >= n) {
                Texts *column = &texts[k - n];
                if (column->used + (stop - p) + 1 > column->room && !grow(column, (stop - p) + 1, most)) {
                    return -1;
                }
                memcpy(column->data + column->used, p, (size_t)(stop - p));
                column->used += stop - p;
                column->data[column->used++] = '\n';
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

/* New float64 columns (bytes objects) of `count` rows, `n` of them, into made[]; their data into
 * columns[]. 0 with an exception set where memory ran out. */
static int new_columns(PyObject **made, double **columns, Py_ssize_t n, Py_ssize_t count) {
    for (Py_ssize_t k = 0; k < n; k++) {
        made[k] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * count);
        if (made[k] == NULL) {
            return 0;
        }
        columns[k] = (double *)PyBytes_AS_STRING(made[k]);
    }
    return 1;
}

static PyObject *json(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *given, *given_others = NULL, *names = NULL, *others = NULL, *out = NULL, *numbers = NULL, *values = NULL;
    Py_ssize_t count;
    Py_buffer block = {0};
    const char *keys[MAX_NAMES];
    Py_ssize_t sizes[MAX_NAMES];
    double *columns[MAX_NAMES];
    PyObject *made[MAX_NAMES] = {NULL};
    Texts texts[MAX_NAMES] = {{0}};
    SlowList slow = {0};
    if (!PyArg_ParseTuple(args, "y*On|O:json", &block, &given, &count, &given_others)) {
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
    if (!new_columns(made, columns, n, count)) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        texts[j].room = block.len / (m + 1) + count + 16;
        texts[j].data = PyMem_RawMalloc((size_t)texts[j].room);
        if (texts[j].data == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int good;
    Py_BEGIN_ALLOW_THREADS
    good = parse_json(block.buf, (const char *)block.buf + block.len, keys, sizes, columns, n, count, texts, m, &slow);
    Py_END_ALLOW_THREADS
    if (good < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (good) {
        good = read_slow(&slow);
        if (good < 0) {
            goto done;
        }
    }
    if (!good) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    numbers = PyList_New(n);
    values = PyList_New(m);
    if (numbers == NULL || values == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyList_SET_ITEM(numbers, k, made[k]);
        made[k] = NULL;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *data = PyBytes_FromStringAndSize(texts[j].data, texts[j].used);
        if (data == NULL) {
            goto done;
        }
        PyList_SET_ITEM(values, j, data);
    }
    out = PyTuple_Pack(2, numbers, values);
done:
    for (Py_ssize_t k = 0; k < MAX_NAMES; k++) {
        Py_XDECREF(made[k]);
        PyMem_RawFree(texts[k].data);
    }
    Py_XDECREF(numbers);
    Py_XDECREF(values);
    PyMem_RawFree(slow.items);
    Py_XDECREF(names);
    Py_XDECREF(others);
    PyBuffer_Release(&block);
    return out;
}

/* Parses a CSV block: 1 where every line has `width` cells and a number in each cell `kinds` marks
 * (k >= 0: number column k; k <= -2: text column -2 - k; -1: neither), 0 where not, -1 where memory
 * ran out. A line's last CR (of a CRLF) is no part of its last cell. */
static int parse_csv(const char *p, const char *end, Py_ssize_t width, const Py_ssize_t *kinds, double **columns,
                     Texts *texts, Py_ssize_t *count, SlowList *slow) {
    Py_ssize_t line = 0, most = 2 * (end - p) + 1;  /* a column's cells and LFs: never more */
    for (;;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *stop = eol == NULL ? end : eol;
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
            } else if (kind <= -2) {
                Texts *column = &texts[-2 - kind];
                Py_ssize_t size = cell_end - cell;
                if (column->used + size + 1 > column->room && !grow(column, size + 1, most)) {
                    return -1;
                }
                memcpy(column->data + column->used, cell, (size_t)size);
                column->used += size;
                column->data[column->used++] = '\n';
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
    PyObject *numbers_at, *texts_at, *out = NULL, *numbers = NULL, *cells = NULL;
    Py_ssize_t width;
    Py_buffer block = {0};
    Py_ssize_t *kinds = NULL;
    double *columns[MAX_NAMES];
    PyObject *made[MAX_NAMES] = {NULL};
    Texts texts[MAX_NAMES] = {{0}};
    SlowList slow = {0};
    Py_ssize_t n = 0, m = 0;
    if (!PyArg_ParseTuple(args, "y*nOO:csv", &block, &width, &numbers_at, &texts_at)) {
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
    if (!new_columns(made, columns, n, lines)) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        texts[j].room = block.len / (m + 1) + lines + 16;
        texts[j].data = PyMem_RawMalloc((size_t)texts[j].room);
        if (texts[j].data == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int good;
    Py_ssize_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    good = parse_csv(start, start + block.len, width, kinds, columns, texts, &count, &slow);
    Py_END_ALLOW_THREADS
    if (good < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (good) {
        good = read_slow(&slow);
        if (good < 0) {
            goto done;
        }
    }
    if (!good || count != lines) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    numbers = PyList_New(n);
    cells = PyList_New(m);
    if (numbers == NULL || cells == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyList_SET_ITEM(numbers, k, made[k]);
        made[k] = NULL;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *data = PyBytes_FromStringAndSize(texts[j].data, texts[j].used);
        if (data == NULL) {
            goto done;
        }
        PyList_SET_ITEM(cells, j, data);
    }
    out = Py_BuildValue("nOO", count, numbers, cells);
done:
    for (Py_ssize_t k = 0; k < MAX_NAMES; k++) {
        Py_XDECREF(made[k]);
        PyMem_RawFree(texts[k].data);
    }
    Py_XDECREF(numbers);
    Py_XDECREF(cells);
    PyMem_Free(kinds);
    PyMem_RawFree(slow.items);
    PyBuffer_Release(&block);
    return out;
}

static PyMethodDef methods[] = {
    {"json", json, METH_VARARGS,
     "json(block, names, count, others=()) -> ([column, ...], [values, ...]) | None: each name's number on each "
     "line (float64 bytes), each other key's JSON value (each followed by an LF)."},
    {"csv", csv, METH_VARARGS,
     "csv(block, width, numbers, texts) -> (count, [column, ...], [cells, ...]) | None: a CSV block's cells."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "gradcli.inputs._numbers", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__numbers(void) { return PyModule_Create(&module); }
