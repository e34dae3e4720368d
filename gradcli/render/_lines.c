/* Lines of text put together from columns of text: the one loop of --points output that
 * no library does at the cost of a copy (see render/stream.py, _join).
 *
 * join(pieces, count) -> bytes: line i is, for each piece in order, its text at i. A piece is
 * either bytes-like (the same text on every line) or a pair (offsets, data): offsets are
 * count + 1 little 64-bit integers, not decreasing, into the bytes-like data, and the text at i
 * is data[offsets[i]:offsets[i + 1]], as an Arrow array of large strings lays out its text.
 * Every offset is checked before a byte is copied; Python's lock is let go while copying, and
 * each offset is checked again as it is used (another thread may change a buffer meanwhile: its
 * size is held, not its bytes), so no change makes the copy leave its buffers: it raises.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const char *data;
    const volatile int64_t *offsets; /* NULL: the same text on every line; volatile: read once a use */
    Py_ssize_t size; /* the text's length, where it is the same on every line; else the data's */
} Piece;

/* The pieces' buffers, taken from Python objects; `held` of them to release. */
typedef struct {
    Py_buffer *views;
    Py_ssize_t held;
} Views;

static int take(Views *views, PyObject *object, int flags) {
    if (PyObject_GetBuffer(object, &views->views[views->held], flags) < 0) {
        return -1;
    }
    views->held++;
    return 0;
}

/* Whether a buffer of offsets holds 64-bit integers, or bytes (as Arrow's buffers are exported). */
static int integers(const Py_buffer *view) {
    const char *format = view->format == NULL ? "B" : view->format;
    if (*format == '@' || *format == '=' || *format == '<') {
        format++;
    }
    if (view->itemsize == 1) {
        return !strcmp(format, "B") || !strcmp(format, "b") || !strcmp(format, "c");
    }
    return view->itemsize == 8 && (!strcmp(format, "q") || !strcmp(format, "l"));
}

static int fail(const char *message, Py_ssize_t piece) {
    PyErr_Format(PyExc_ValueError, message, piece);
    return -1;
}

/* Piece k from `item`, and the bytes it adds to all lines in *total; -1 with an error set. */
static int piece_of(PyObject *item, Py_ssize_t k, Py_ssize_t count, Views *views, Piece *piece, Py_ssize_t *total) {
    Py_ssize_t adds;
    if (PyTuple_Check(item)) {
        if (PyTuple_GET_SIZE(item) != 2) {
            return fail("piece %zd: a pair (offsets, data) was expected", k);
        }
        if (take(views, PyTuple_GET_ITEM(item, 0), PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0
            || take(views, PyTuple_GET_ITEM(item, 1), PyBUF_C_CONTIGUOUS) < 0) {
            return -1;
        }
        Py_buffer *offsets = &views->views[views->held - 2], *data = &views->views[views->held - 1];
        if (!integers(offsets)) {
            return fail("piece %zd: offsets not 64-bit integers (nor their bytes)", k);
        }
        if (count >= offsets->len / (Py_ssize_t)sizeof(int64_t)) { /* count + 1 could overflow */
            return fail("piece %zd: fewer offsets than lines + 1", k);
        }
        if ((uintptr_t)offsets->buf % sizeof(int64_t)) {
            return fail("piece %zd: offsets not aligned to 8 bytes", k);
        }
        const int64_t *at = offsets->buf;
        int64_t first = ((const volatile int64_t *)at)[0], last = ((const volatile int64_t *)at)[count];
        if (first < 0 || last > (int64_t)data->len) {
            return fail("piece %zd: offsets outside its data", k);
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            if (at[i + 1] < at[i]) {
                return fail("piece %zd: offsets that decrease", k);
            }
        }
        if (last < first) {  /* only where another thread changes them meanwhile */
            return fail("piece %zd: offsets that decrease", k);
        }
        piece->offsets = at;
        piece->data = data->buf;
        piece->size = data->len;
        adds = (Py_ssize_t)(last - first);
    } else {
        if (take(views, item, PyBUF_C_CONTIGUOUS) < 0) {
            return -1;
        }
        piece->data = views->views[views->held - 1].buf;
        piece->size = views->views[views->held - 1].len;
        if (piece->size && count > PY_SSIZE_T_MAX / piece->size) {
            PyErr_NoMemory();
            return -1;
        }
        adds = piece->size * count;
    }
    if (adds > PY_SSIZE_T_MAX - *total) {
        PyErr_NoMemory();
        return -1;
    }
    *total += adds;
    return 0;
}

static PyObject *join(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *given, *out = NULL;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "O!n:join", &PyList_Type, &given, &count)) {
        return NULL;
    }
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "a count of lines below 0");
        return NULL;
    }
    PyObject *items = PyList_AsTuple(given);  /* held: the list may change once the lock is let go */
    if (items == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(items), total = 0;
    Piece *pieces = PyMem_Calloc(n ? n : 1, sizeof(Piece));
    Views views = {PyMem_Calloc(n ? 2 * n : 1, sizeof(Py_buffer)), 0};
    if (pieces == NULL || views.views == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (piece_of(PyTuple_GET_ITEM(items, k), k, count, &views, &pieces[k], &total) < 0) {
            goto done;
        }
    }
    out = PyBytes_FromStringAndSize(NULL, total);
    if (out == NULL) {
        goto done;
    }
    if (total == 0) { /* nothing to copy, however many lines (a count need not be a size) */
        goto done;
    }
    char *to = PyBytes_AS_STRING(out), *end = to + total;
    int changed = 0; /* offsets found changed since they were checked */
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        for (Py_ssize_t k = 0; k < n; k++) {
            const Piece *piece = &pieces[k];
            if (piece->offsets != NULL) {
                int64_t from = piece->offsets[i], upto = piece->offsets[i + 1];
                /* 0 <= from <= upto <= the data's size, and room for it (as unsigned: below 0 is past all) */
                if ((uint64_t)upto > (uint64_t)piece->size || (uint64_t)from > (uint64_t)upto
                    || upto - from > end - to) {
                    changed = 1;
                    goto copied;
                }
                memcpy(to, piece->data + from, (size_t)(upto - from));
                to += upto - from;
            } else {
                if (piece->size > end - to) { /* texts before it longer than they were */
                    changed = 1;
                    goto copied;
                }
                memcpy(to, piece->data, (size_t)piece->size);
                to += piece->size;
            }
        }
    }
copied:
    Py_END_ALLOW_THREADS
    if (changed || to != end) { /* a line left out, or bytes not written */
        PyErr_SetString(PyExc_ValueError, "offsets changed while the lines were joined");
        Py_CLEAR(out);
    }
done:
    for (Py_ssize_t j = 0; j < views.held; j++) {
        PyBuffer_Release(&views.views[j]);
    }
    PyMem_Free(views.views);
    PyMem_Free(pieces);
    Py_DECREF(items);
    return out;
}

static PyMethodDef methods[] = {
    {"join", join, METH_VARARGS, "join(pieces, count) -> bytes: lines put together from columns of text."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "gradcli.render._lines", .m_size = -1, .m_methods = methods,
};

PyMODINIT_FUNC PyInit__lines(void) { return PyModule_Create(&module); }
