/* The compiled twins of the per-cell work of section parsing: numbers.parse_number (a cell to its Number) and
 * the row loop of sections/common.table_rows (a table's cells to Rows). They return exactly what the Python
 * functions return; the Python ones stay the reference and run wherever this module is not built
 * (tests/test_compiled_core.py compares them).
 *
 * parse_number reads here only the cells the Python fast path reads (a plain decimal, thousands commas, a
 * minus), in one-byte strings; every other cell, and every plain one whose float() fails, goes to the Python
 * function bound by bind(), so the grammar has one definition. White space is Python's (Py_UNICODE_ISSPACE:
 * str.strip), the float is float()'s (PyOS_string_to_double) and the resolution is the Python expression's
 * (0.5 * pow(10.0, -decimals), what 0.5 * 10.0 ** -decimals computes). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

/* bound once by numbers.py: the memo, its bound, the Python parser, the Number type and two shared Numbers */
static PyObject *memo, *slow_parse, *number_type, *empty_number, *bad_number, *overflow_flag;
static Py_ssize_t memo_max;

static const double HUGE_ = 1e100, TINY_ = 1e-100; /* numbers._HUGE, numbers._TINY */

static PyObject *bind(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *m, *s, *t, *e, *b, *o;
    Py_ssize_t mx;
    if (!PyArg_ParseTuple(args, "O!nOOOOU", &PyDict_Type, &m, &mx, &s, &t, &e, &b, &o))
        return NULL;
    if (!PyType_Check(t) || !PyType_IsSubtype((PyTypeObject *)t, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "bind(): Number must be a tuple subclass");
        return NULL;
    }
    Py_XSETREF(memo, Py_NewRef(m));
    Py_XSETREF(slow_parse, Py_NewRef(s));
    Py_XSETREF(number_type, Py_NewRef(t));
    Py_XSETREF(empty_number, Py_NewRef(e));
    Py_XSETREF(bad_number, Py_NewRef(b));
    Py_XSETREF(overflow_flag, Py_NewRef(o));
    memo_max = mx;
    Py_RETURN_NONE;
}

/* Number(v, resolution, None, None): a tuple of the NamedTuple's type, as its __new__ makes it */
static PyObject *new_number(double v, double res)
{
    PyObject *items = PyTuple_New(4);
    if (!items)
        return NULL;
    PyObject *a = PyFloat_FromDouble(v), *b = PyFloat_FromDouble(res);
    if (!a || !b) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_DECREF(items);
        return NULL;
    }
    PyTuple_SET_ITEM(items, 0, a);
    PyTuple_SET_ITEM(items, 1, b);
    PyTuple_SET_ITEM(items, 2, Py_NewRef(Py_None));
    PyTuple_SET_ITEM(items, 3, Py_NewRef(Py_None));
    PyObject *args = PyTuple_Pack(1, items);
    Py_DECREF(items);
    if (!args)
        return NULL;
    PyObject *out = PyTuple_Type.tp_new((PyTypeObject *)number_type, args, NULL);
    Py_DECREF(args);
    /* two floats and two Nones hold no reference to anything: untracked, as the collector does for a plain tuple
     * (it never does for a tuple subclass); the memo keeps up to 20,000 of them */
    if (out && PyObject_GC_IsTracked(out))
        PyObject_GC_UnTrack(out);
    return out;
}

/* _parse(cell, False) for the cells its fast path reads: a new reference, or NULL with no error set when the
 * Python function must decide (any other cell), or NULL with an error. */
static PyObject *fast_number(PyObject *cell)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(cell) < 0)
        return NULL;
#endif
    if (PyUnicode_KIND(cell) != PyUnicode_1BYTE_KIND)
        return NULL;
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(cell);
    Py_ssize_t a = 0, b = PyUnicode_GET_LENGTH(cell);
    while (a < b && Py_UNICODE_ISSPACE(s[a]))
        a++;
    while (b > a && Py_UNICODE_ISSPACE(s[b - 1]))
        b--;
    if (a == b)
        return Py_NewRef(empty_number);
    Py_UCS1 first = s[a];
    if (!((first >= '0' && first <= '9') || first == '.' || first == '-'))
        return NULL;
    char buf[64];
    Py_ssize_t k = 0, dot = -1, commas = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS1 c = s[i];
        if (c == ',') {
            commas++;
            continue;
        }
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-') || k >= 63)
            return NULL;
        if (c == '.' && dot < 0)
            dot = k;
        buf[k++] = (char)c;
    }
    buf[k] = '\0';
    char *end;
    double v = PyOS_string_to_double(buf, &end, NULL);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear(); /* float() raised ValueError: the Python function goes on from there */
        return NULL;
    }
    if (end != buf + k)
        return NULL;
    if (!(-HUGE_ < v && v < HUGE_) || (v != 0.0 && -TINY_ < v && v < TINY_))
        return Py_NewRef(bad_number);
    if (commas == 1) { /* a decimal comma ('92,07', '-1,5'): ^[-+]?\d+,\d{1,2}$, read by the Python function */
        Py_ssize_t i = a;
        if (s[i] == '-')
            i++;
        Py_ssize_t d0 = i;
        while (i < b && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i > d0 && i < b && s[i] == ',') {
            Py_ssize_t d1 = ++i;
            while (i < b && s[i] >= '0' && s[i] <= '9')
                i++;
            if (i == b && (i - d1 == 1 || i - d1 == 2))
                return NULL;
        }
    }
    double res = dot < 0 ? 0.5 : 0.5 * pow(10.0, -(double)(k - dot - 1));
    return new_number(v, res);
}

/* parse_number(cell) without ``binary``: the memo, then the fast path, then the Python function; the result
 * is kept in the memo as the Python function keeps it. A new reference. */
static PyObject *number_of(PyObject *cell)
{
    PyObject *n = PyDict_GetItemWithError(memo, cell);
    if (n)
        return Py_NewRef(n);
    if (PyErr_Occurred())
        return NULL;
    n = PyUnicode_Check(cell) ? fast_number(cell) : NULL;
    if (!n) {
        if (PyErr_Occurred())
            return NULL;
        n = PyObject_CallFunctionObjArgs(slow_parse, cell, Py_False, NULL);
        if (!n)
            return NULL;
    }
    if (PyUnicode_Check(cell) && PyUnicode_GET_LENGTH(cell) <= 40) {
        if (PyDict_GET_SIZE(memo) >= memo_max)
            PyDict_Clear(memo);
        if (PyDict_SetItem(memo, cell, n) < 0) {
            Py_DECREF(n);
            return NULL;
        }
    }
    return n;
}

static PyObject *parse_number(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!memo) {
        PyErr_SetString(PyExc_RuntimeError, "awrscope.parsers._values: bind() was not called");
        return NULL;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs != 1 || nkw > 1 || (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "binary") != 0)) {
        PyErr_SetString(PyExc_TypeError, "parse_number(cell, *, binary=False)");
        return NULL;
    }
    if (nkw == 1) {
        int binary = PyObject_IsTrue(args[1]);
        if (binary < 0)
            return NULL;
        if (binary) /* 1024-based suffixes: never kept in the memo */
            return PyObject_CallFunctionObjArgs(slow_parse, args[0], Py_True, NULL);
    }
    return number_of(args[0]);
}

/* str.strip() bounds of s, any kind */
static void strip_bounds(PyObject *s, Py_ssize_t *pa, Py_ssize_t *pb)
{
    int kind = PyUnicode_KIND(s);
    const void *d = PyUnicode_DATA(s);
    Py_ssize_t a = 0, b = PyUnicode_GET_LENGTH(s);
    while (a < b && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, a)))
        a++;
    while (b > a && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, b - 1)))
        b--;
    *pa = a;
    *pb = b;
}

static PyObject *substring(PyObject *s, Py_ssize_t a, Py_ssize_t b)
{
    return PyUnicode_Substring(s, a, b); /* s itself when exact and whole; a str (copy) for a str subclass */
}

typedef struct {
    Py_ssize_t idx;
    int how;
    int timed, header_unit; /* a time field: own (its unit in seconds) set; header: the header's unit differs */
    double own, header;
    PyObject *col, *hunit, *field; /* strong: a callback may empty the plan, a field may be computed */
} Step;

/* One cell of a row by its plan step, into values, text or *name. 0, or -1 with an error. */
static int read_cell(const Step *st, PyObject *cell, PyObject *line, PyObject *values, PyObject *text,
                     PyObject **name, PyObject *on_overflow, PyObject *convert)
{
    if (st->how == 0) { /* a number; an overflow is told; a time converted to the field's unit */
        PyObject *n = number_of(cell);
        if (!n)
            return -1;
        if (!PyTuple_Check(n) || PyTuple_GET_SIZE(n) < 4) {
            PyErr_Format(PyExc_TypeError, "a parsed cell must be a Number, not %.100s", Py_TYPE(n)->tp_name);
            Py_DECREF(n);
            return -1;
        }
        PyObject *v = PyTuple_GET_ITEM(n, 0), *scaled = NULL;
        int err = 0;
        if (v != Py_None && st->timed) {
            double x = PyFloat_AsDouble(v);
            if (x == -1.0 && PyErr_Occurred()) {
                Py_DECREF(n);
                return -1;
            }
            PyObject *unit = PyTuple_GET_ITEM(n, 2);
            int own_unit = unit == Py_None ? 0 : PyObject_IsTrue(unit);
            if (own_unit > 0) /* the cell printed its own unit: the value is in seconds */
                scaled = PyFloat_FromDouble(x / st->own);
            else if (own_unit == 0 && st->header_unit)
                scaled = PyFloat_FromDouble(x * st->header / st->own);
            if (own_unit < 0 || ((own_unit || st->header_unit) && !scaled)) {
                Py_DECREF(n);
                return -1;
            }
            if (scaled)
                v = scaled;
        }
        if (v == Py_None) {
            int over = PyObject_RichCompareBool(PyTuple_GET_ITEM(n, 3), overflow_flag, Py_EQ);
            if (over > 0) {
                PyObject *r = PyObject_CallFunctionObjArgs(on_overflow, st->col, line, cell, NULL);
                over = r ? 0 : -1;
                Py_XDECREF(r);
            }
            err = over < 0 ? -1 : 0;
        }
        if (!err)
            err = PyDict_SetItem(values, st->field, v);
        Py_XDECREF(scaled);
        Py_DECREF(n);
        return err;
    }
    if (st->how == 1) { /* through cell_value */
        PyObject *v = PyObject_CallFunctionObjArgs(convert, cell, st->col, st->hunit, line, NULL);
        if (!v)
            return -1;
        int err = PyDict_SetItem(values, st->field, v);
        Py_DECREF(v);
        return err;
    }
    if (!PyUnicode_Check(cell)) {
        PyErr_Format(PyExc_TypeError, "a cell must be a str, not %.100s", Py_TYPE(cell)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(cell) < 0)
        return -1;
#endif
    Py_ssize_t a, b;
    strip_bounds(cell, &a, &b);
    if (st->how == 2) { /* the name: cell.strip().rstrip(":").strip() or None */
        int kind = PyUnicode_KIND(cell);
        const void *d = PyUnicode_DATA(cell);
        while (b > a && PyUnicode_READ(kind, d, b - 1) == ':')
            b--;
        while (b > a && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, d, b - 1)))
            b--;
        Py_CLEAR(*name);
        return b > a && !(*name = substring(cell, a, b)) ? -1 : 0;
    }
    if (b == a) /* text: kept when not blank */
        return 0;
    PyObject *t = substring(cell, a, b);
    if (!t)
        return -1;
    int err = PyDict_SetItem(text, st->field, t);
    Py_DECREF(t);
    return err;
}

/* One row: values, text and name by the plan; NULL with no error when the row holds nothing (skipped). */
static PyObject *read_row(PyObject *line, PyObject *cells, const Step *plan, Py_ssize_t nplan, PyObject *row_type,
                          PyObject *on_overflow, PyObject *convert, PyObject *name_fix, PyObject *cut_at)
{
    PyObject *seq = PySequence_Fast(cells, "a row's cells must be a sequence");
    if (!seq)
        return NULL;
    PyObject *values = PyDict_New(), *text = PyDict_New(), *name = NULL, *row = NULL;
    int any_value = 0;
    if (!values || !text)
        goto done;
    for (Py_ssize_t p = 0; p < nplan; p++) {
        if (plan[p].idx >= PySequence_Fast_GET_SIZE(seq)) /* read again: a callback may have changed the list */
            continue;
        PyObject *cell = Py_NewRef(PySequence_Fast_GET_ITEM(seq, plan[p].idx));
        int err = read_cell(&plan[p], cell, line, values, text, &name, on_overflow, convert);
        Py_DECREF(cell);
        if (err < 0)
            goto done;
    }
    if (!name && PyDict_GET_SIZE(text) == 0) { /* any(v is not None for v in values.values()) */
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (!any_value && PyDict_Next(values, &pos, &k, &v))
            any_value = v != Py_None;
    }
    if (!name && PyDict_GET_SIZE(text) == 0 && !any_value)
        goto done; /* nothing in the row: skipped, no error */
    if (name && name_fix != Py_None) {
        PyObject *fixed = PyObject_CallFunctionObjArgs(name_fix, name, cut_at, NULL);
        if (!fixed)
            goto done;
        Py_SETREF(name, fixed);
    }
    row = PyObject_CallFunctionObjArgs(row_type, name ? name : Py_None, line, values, text, NULL);
done:
    Py_DECREF(seq);
    Py_XDECREF(values);
    Py_XDECREF(text);
    Py_XDECREF(name);
    return row;
}

/* read_rows(rows, plan, Row, on_overflow, convert, name_fix, cut_at) -> list of Row: the loop of table_rows.
 * rows: (line, cells) pairs; plan: (index, Col, header unit, how, own, header) as sections/common._plan makes it;
 * on_overflow(col, line, cell) is told of an overflowed number cell; convert(cell, col, hunit, line) reads a
 * how-1 cell (cell_value); name_fix(name, cut_at), or None. */
static PyObject *read_rows(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *rows, *plan, *row_type, *on_overflow, *convert, *name_fix, *cut_at;
    if (!PyArg_ParseTuple(args, "OO!OOOOO", &rows, &PyList_Type, &plan, &row_type, &on_overflow, &convert,
                          &name_fix, &cut_at))
        return NULL;
    if (!memo) {
        PyErr_SetString(PyExc_RuntimeError, "awrscope.parsers._values: bind() was not called");
        return NULL;
    }
    PyObject *planv = PyList_AsTuple(plan); /* holds every step while Python code runs */
    if (!planv)
        return NULL;
    Py_ssize_t nplan = PyTuple_GET_SIZE(planv);
    Step *steps = PyMem_Calloc((size_t)(nplan ? nplan : 1), sizeof(Step));
    if (!steps) {
        Py_DECREF(planv);
        return PyErr_NoMemory();
    }
    PyObject *out = NULL, *seq = NULL;
    for (Py_ssize_t p = 0; p < nplan; p++) {
        PyObject *t = PyTuple_GET_ITEM(planv, p);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 6) {
            PyErr_SetString(PyExc_TypeError, "a plan step is (index, col, hunit, how, own, header)");
            goto done;
        }
        PyObject *own = PyTuple_GET_ITEM(t, 4), *header = PyTuple_GET_ITEM(t, 5);
        steps[p].timed = own != Py_None;
        steps[p].header_unit = header != Py_None;
        steps[p].own = steps[p].timed ? PyFloat_AsDouble(own) : 1.0;
        steps[p].header = steps[p].header_unit ? PyFloat_AsDouble(header) : 1.0;
        if (PyErr_Occurred())
            goto done;
        steps[p].idx = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0));
        long how = PyLong_AsLong(PyTuple_GET_ITEM(t, 3));
        if ((steps[p].idx == -1 || how == -1) && PyErr_Occurred())
            goto done;
        if (steps[p].idx < 0 || how < 0 || how > 3) {
            PyErr_SetString(PyExc_ValueError, "a plan step's index or kind is out of range");
            goto done;
        }
        steps[p].how = (int)how;
        steps[p].col = Py_NewRef(PyTuple_GET_ITEM(t, 1));
        steps[p].hunit = Py_NewRef(PyTuple_GET_ITEM(t, 2));
    }
    for (Py_ssize_t p = 0; p < nplan; p++) { /* each step's field, held here (a property may make a new one) */
        if (!(steps[p].field = PyObject_GetAttrString(steps[p].col, "field")))
            goto done;
    }
    seq = PySequence_Fast(rows, "rows must be a sequence");
    if (!seq)
        goto done;
    out = PyList_New(0);
    if (!out)
        goto done;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) { /* read again: a callback may change rows */
        PyObject *pair = Py_NewRef(PySequence_Fast_GET_ITEM(seq, i));
        PyObject *two = PySequence_Fast(pair, "a row is a (line, cells) pair");
        Py_DECREF(pair);
        if (two && PySequence_Fast_GET_SIZE(two) != 2) {
            PyErr_SetString(PyExc_ValueError, "a row is a (line, cells) pair");
            Py_CLEAR(two);
        }
        if (!two) {
            Py_CLEAR(out);
            goto done;
        }
        PyObject *line = Py_NewRef(PySequence_Fast_GET_ITEM(two, 0)), *cells = Py_NewRef(PySequence_Fast_GET_ITEM(two, 1));
        Py_DECREF(two);
        PyObject *row = read_row(line, cells, steps, nplan, row_type, on_overflow, convert, name_fix, cut_at);
        Py_DECREF(line);
        Py_DECREF(cells);
        if (!row) {
            if (PyErr_Occurred()) {
                Py_CLEAR(out);
                goto done;
            }
            continue;
        }
        int err = PyList_Append(out, row);
        Py_DECREF(row);
        if (err < 0) {
            Py_CLEAR(out);
            goto done;
        }
    }
done:
    Py_XDECREF(seq);
    for (Py_ssize_t p = 0; p < nplan; p++) {
        Py_XDECREF(steps[p].col);
        Py_XDECREF(steps[p].hunit);
        Py_XDECREF(steps[p].field);
    }
    PyMem_Free(steps);
    Py_DECREF(planv);
    return out;
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS, "bind(memo, memo_max, parse, Number, EMPTY, BAD, OVERFLOW): numbers.py's own."},
    {"parse_number", (PyCFunction)(void (*)(void))parse_number, METH_FASTCALL | METH_KEYWORDS,
     "parse_number(cell, *, binary=False) -> Number, as numbers.parse_number."},
    {"read_rows", read_rows, METH_VARARGS, "The row loop of sections/common.table_rows."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_values", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__values(void) { return PyModule_Create(&module); }
