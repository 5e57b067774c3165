/* The compiled twin of text/tables.assign: one line of a text table cut into cells by its column spans. It
 * returns exactly what the Python function returns for the same line, spans and owner list; the Python one
 * stays the reference and runs wherever this module is not built (tests/test_compiled_core.py compares them).
 * Only one-byte (Latin-1) lines are read here: for others, and for a table without columns, it returns
 * NotImplemented and the caller runs the Python function. White space and printability are Python's
 * (Py_UNICODE_ISSPACE, Py_UNICODE_ISPRINTABLE: str.strip, str.split, str.isprintable). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static inline int space(Py_UCS1 c) { return Py_UNICODE_ISSPACE(c); }

static int all_space(const Py_UCS1 *s, Py_ssize_t a, Py_ssize_t b)
{
    for (; a < b; a++)
        if (!space(s[a]))
            return 0;
    return 1;
}

/* line[a:b].strip(), then kept as it is when it holds no two spaces and only printable characters, else its
 * white-space runs made single spaces (" ".join(cell.split())). */
static PyObject *cell_text(PyObject *line, const Py_UCS1 *s, Py_ssize_t a, Py_ssize_t b)
{
    while (a < b && space(s[a]))
        a++;
    while (b > a && space(s[b - 1]))
        b--;
    int plain = 1;
    for (Py_ssize_t i = a; i < b && plain; i++)
        if ((s[i] == ' ' && i + 1 < b && s[i + 1] == ' ') || !Py_UNICODE_ISPRINTABLE(s[i]))
            plain = 0;
    if (plain)
        return PyUnicode_Substring(line, a, b);
    Py_UCS1 *buf = PyMem_Malloc((size_t)(b - a) + 1);
    if (!buf)
        return PyErr_NoMemory();
    Py_ssize_t k = 0;
    for (Py_ssize_t i = a; i < b;) {
        if (space(s[i])) {
            while (i < b && space(s[i]))
                i++;
            buf[k++] = ' ';
        } else {
            buf[k++] = s[i++];
        }
    }
    PyObject *out = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, buf, k);
    PyMem_Free(buf);
    return out;
}

typedef struct {
    Py_ssize_t start, end;
} Span;

/* _best_column: the column the token [a, b) overlaps most; in a gap or past the last, the nearest one. */
static Py_ssize_t best_column(Py_ssize_t a, Py_ssize_t b, const Span *spans, Py_ssize_t n)
{
    Py_ssize_t best = -1, best_overlap = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (spans[k].start >= b)
            break;
        Py_ssize_t ov = (b < spans[k].end ? b : spans[k].end) - (a > spans[k].start ? a : spans[k].start);
        if (ov > best_overlap) {
            best = k;
            best_overlap = ov;
        }
    }
    if (best >= 0)
        return best;
    Py_ssize_t best_distance = PY_SSIZE_T_MAX;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t d1 = spans[k].start - b, d2 = spans[k].end - a;
        d1 = d1 < 0 ? -d1 : d1;
        d2 = d2 < 0 ? -d2 : d2;
        Py_ssize_t d = d1 < d2 ? d1 : d2;
        if (d < best_distance) {
            best = k;
            best_distance = d;
        }
    }
    return best;
}

static PyObject *assign(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *line, *span_list, *owner;
    if (!PyArg_ParseTuple(args, "UO!O!", &line, &PyList_Type, &span_list, &PyList_Type, &owner))
        return NULL;
    Py_ssize_t ncols = PyList_GET_SIZE(span_list), width = PyList_GET_SIZE(owner);
    if (PyUnicode_KIND(line) != PyUnicode_1BYTE_KIND || ncols == 0)
        Py_RETURN_NOTIMPLEMENTED;
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(line);
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    Span *spans = PyMem_Malloc(sizeof(Span) * (size_t)ncols);
    if (!spans)
        return PyErr_NoMemory();
    PyObject *out = NULL;
    for (Py_ssize_t k = 0; k < ncols; k++) {
        PyObject *pair = PyList_GET_ITEM(span_list, k);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) { /* not (start, end) tuples: the Python function's */
            PyMem_Free(spans);
            Py_RETURN_NOTIMPLEMENTED;
        }
        spans[k].start = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 0));
        spans[k].end = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 1));
        if (PyErr_Occurred())
            goto done;
        if (spans[k].start < 0 || spans[k].end < 0) { /* slices from the end: the Python function's */
            PyMem_Free(spans);
            Py_RETURN_NOTIMPLEMENTED;
        }
    }
    /* the fast path: no token crosses a column border, nor lies left of the first column or past the last */
    Py_ssize_t first = spans[0].start;
    if ((first == 0 || all_space(s, 0, first < n ? first : n)) && (n <= width || all_space(s, width, n))) {
        out = PyList_New(0);
        if (!out)
            goto done;
        Py_ssize_t prev = first, k;
        for (k = 0; k < ncols; k++) {
            Py_ssize_t e = spans[k].end;
            if (0 < e && e < n && !space(s[e - 1]) && !space(s[e]))
                break;
            Py_ssize_t a = prev < n ? prev : n, b = e < n ? e : n;
            PyObject *cell = cell_text(line, s, a, b > a ? b : a);
            if (!cell || PyList_Append(out, cell) < 0) {
                Py_XDECREF(cell);
                Py_CLEAR(out);
                goto done;
            }
            Py_DECREF(cell);
            prev = e;
        }
        if (k == ncols)
            goto done;
        Py_CLEAR(out);
    }
    /* token by token: a token inside one column's positions goes there, others to the column they overlap most */
    PyObject **cells = PyMem_Calloc((size_t)ncols, sizeof(PyObject *)); /* a token (str) or a list of them */
    if (!cells) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n;) {
        if (space(s[i])) {
            i++;
            continue;
        }
        Py_ssize_t a = i;
        while (i < n && !space(s[i]))
            i++;
        Py_ssize_t b = i, col = -1;
        if (a < width) {
            Py_ssize_t ka = PyLong_AsSsize_t(PyList_GET_ITEM(owner, a));
            if (ka >= 0 && b - 1 < width && PyLong_AsSsize_t(PyList_GET_ITEM(owner, b - 1)) == ka)
                col = ka;
        }
        if (PyErr_Occurred())
            goto fail;
        if (col < 0 || col >= ncols)
            col = best_column(a, b, spans, ncols);
        PyObject *token = PyUnicode_Substring(line, a, b);
        if (!token)
            goto fail;
        if (!cells[col]) {
            cells[col] = token;
        } else {
            if (PyUnicode_Check(cells[col])) {
                PyObject *list = PyList_New(1);
                if (!list) {
                    Py_DECREF(token);
                    goto fail;
                }
                PyList_SET_ITEM(list, 0, cells[col]);
                cells[col] = list;
            }
            int bad = PyList_Append(cells[col], token) < 0;
            Py_DECREF(token);
            if (bad)
                goto fail;
        }
    }
    PyObject *space_str = PyUnicode_FromString(" ");
    if (!space_str)
        goto fail;
    out = PyList_New(ncols);
    if (!out) {
        Py_DECREF(space_str);
        goto fail;
    }
    for (Py_ssize_t k = 0; k < ncols; k++) {
        PyObject *text;
        if (!cells[k])
            text = PyUnicode_New(0, 0);
        else if (PyUnicode_Check(cells[k]))
            text = Py_NewRef(cells[k]);
        else
            text = PyUnicode_Join(space_str, cells[k]);
        if (!text) {
            Py_DECREF(space_str);
            Py_CLEAR(out);
            goto fail;
        }
        PyList_SET_ITEM(out, k, text);
    }
    Py_DECREF(space_str);
fail:
    for (Py_ssize_t k = 0; k < ncols; k++)
        Py_XDECREF(cells[k]);
    PyMem_Free(cells);
done:
    PyMem_Free(spans);
    return out;
}

static PyMethodDef methods[] = {
    {"assign", assign, METH_VARARGS,
     "assign(line, spans, owner) -> cells: text.tables.assign, compiled; NotImplemented for a line with "
     "characters past Latin-1 or a table without columns"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_assign", "Text table lines cut in C (tables.assign)",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__assign(void) { return PyModule_Create(&module); }
