/* The numbers of a block of JSON Lines, found where each line is the plainest kind of point
 * (see inputs/jsonl.py, Jsonl.fast): one object of numbers, `{"x1": 0.5, "x2": -1e-3}`.
 *
 * texts(block, names, count) -> [(offsets, data), ...] | None: for each name, the text of its
 * number on each of the block's `count` lines (lines end at LF; the last needs none), laid out as
 * an Arrow array of large strings (count + 1 little 64-bit offsets into data), for pyarrow to
 * turn into floats as its CSV reader does. None where any line is not such an object: a key
 * that is not one of `names` (raw bytes, no escapes) or is there twice, a name missing, a value
 * that is not a JSON number (NaN, a string, a list, ...), a blank line, another count of lines,
 * or anything else JSON or the plainest form does not allow. gradcli then reads the block as
 * before (pyarrow's JSON reader, else line by line), so what is refused here is never lost.
 *
 * Memory: the numbers of all names together are fewer bytes than the block, so each name's
 * texts start with a fair share of it and grow (doubled, never past the block) only where that
 * is too little: 64 names do not hold 64 blocks' worth. A count of lines that the block's bytes
 * cannot hold as points is refused before anything is allocated for it.
 *
 * Every read stays inside the block and every write inside what was allocated for it, whatever
 * the bytes are (the parse only moves forward: the numbers of a name never add up to more than
 * the block). Python's lock is let go while parsing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_NAMES 64

typedef struct {
    const char *name;
    Py_ssize_t size;
    int64_t *offsets; /* count + 1 */
    char *data;       /* PyMem_Raw: `room` bytes, `used` of them */
    Py_ssize_t used, room;
} Column;

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

/* Room in a column's data for `size` more bytes (which never pass the block's `most`); 0 where
 * memory ran out. Called without Python's lock: PyMem_Raw allows that. */
static int grow(Column *column, Py_ssize_t size, Py_ssize_t most) {
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

/* Parses the block into the columns: 1 where every line is a plain object of all the names, 0
 * where not, -1 where memory ran out. */
static int parse(const char *p, const char *end, Column *columns, Py_ssize_t names, Py_ssize_t count) {
    Py_ssize_t most = end - p;
    uint64_t all = names == 64 ? ~(uint64_t)0 : (((uint64_t)1 << names) - 1);
    for (Py_ssize_t k = 0; k < names; k++) {
        columns[k].offsets[0] = 0;
    }
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
            while (k < names && !(columns[k].size == size && !memcmp(columns[k].name, key, (size_t)size))) {
                k++;
            }
            if (k == names || (seen >> k) & 1) {
                return 0;
            }
            seen |= (uint64_t)1 << k;
            p = skip_space(p + 1, end);
            if (p >= end || *p != ':') {
                return 0;
            }
            p = skip_space(p + 1, end);
            const char *stop = number_end(p, end);
            if (stop == NULL) {
                return 0;
            }
            Column *column = &columns[k];
            if (stop - p > column->room - column->used && !grow(column, stop - p, most)) {
                return -1;
            }
            memcpy(column->data + column->used, p, (size_t)(stop - p));
            column->used += stop - p;
            column->offsets[line + 1] = column->used;
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

static PyObject *texts(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *given, *names = NULL, *out = NULL;
    Py_ssize_t count;
    Py_buffer block = {0};
    Column columns[MAX_NAMES] = {{0}};
    PyObject *made[2 * MAX_NAMES] = {NULL};
    if (!PyArg_ParseTuple(args, "y*On:texts", &block, &given, &count)) {
        return NULL;
    }
    names = PySequence_Tuple(given);
    if (names == NULL) {
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (n < 1 || n > MAX_NAMES) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t line_bytes = 2 + (n - 1);  /* the fewest a point's line has: {}, commas, "name":0 each */
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *name = PyTuple_GET_ITEM(names, k);
        if (!PyBytes_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "names are bytes");
            goto done;
        }
        line_bytes += PyBytes_GET_SIZE(name) + 4;
    }
    if (count < 1 || block.len < line_bytes || count - 1 > (block.len - line_bytes) / (line_bytes + 1)) {  /* LFs too */
        out = Py_NewRef(Py_None);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *name = PyTuple_GET_ITEM(names, k);
        made[2 * k] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(int64_t) * (count + 1));
        if (made[2 * k] == NULL) {
            goto done;
        }
        Py_ssize_t room = block.len / n + 16;
        columns[k] = (Column){PyBytes_AS_STRING(name), PyBytes_GET_SIZE(name), (int64_t *)PyBytes_AS_STRING(made[2 * k]),
                              PyMem_RawMalloc((size_t)room), 0, room};
        if (columns[k].data == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int good;
    Py_BEGIN_ALLOW_THREADS
    good = parse(block.buf, (const char *)block.buf + block.len, columns, n, count);
    Py_END_ALLOW_THREADS
    if (good < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (!good) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    out = PyList_New(n);
    if (out == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        made[2 * k + 1] = PyBytes_FromStringAndSize(columns[k].data, columns[k].used);
        PyMem_RawFree(columns[k].data);
        columns[k].data = NULL;
        if (made[2 * k + 1] == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyObject *pair = PyTuple_Pack(2, made[2 * k], made[2 * k + 1]);
        if (pair == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, k, pair);
    }
done:
    for (Py_ssize_t j = 0; j < 2 * MAX_NAMES; j++) {
        Py_XDECREF(made[j]);
    }
    for (Py_ssize_t k = 0; k < MAX_NAMES; k++) {
        PyMem_RawFree(columns[k].data);
    }
    Py_XDECREF(names);
    PyBuffer_Release(&block);
    return out;
}

static PyMethodDef methods[] = {
    {"texts", texts, METH_VARARGS,
     "texts(block, names, count) -> [(offsets, data), ...] | None: each name's number text on each line."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "gradcli.inputs._numbers", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__numbers(void) { return PyModule_Create(&module); }
