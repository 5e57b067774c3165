/* The compiled twin of tables._cut_rows: a plain HTML table (only <tr>, <td>, <th> and row-group tags) cut
 * into rows of cleaned cells with their lines. It returns exactly what the Python function returns, from the
 * same arguments; the Python one stays the reference and runs wherever this module is not built
 * (tests/test_compiled_core.py runs both on the corpus and on generated tables and compares them).
 *
 * The patterns it follows (tables.py):
 *   row tag    <tr(?=[\s/>])                      (case-insensitive: only ASCII letters fold to t/r)
 *   cell       <[tT]([dhDH])(?=[\s/>])ATTRS>([^<]*+)
 *   ATTRS      (?:[^<>"']++|"[^"]*+"|'[^']*+'){0,256}+  or, for tables without a quoted '>', [^>]*+
 * where \s is Python's white space (Py_UNICODE_ISSPACE, what str.isspace() and re's \s use).
 * Cleaning a cell, a colspan and the table's budget notes stay in Python: they are called back. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_ROW_CELLS 1000
#define ATTR_ITERATIONS 256

/* Only one-byte texts (Latin-1: nearly every report) are cut here; tables._compiled_cut_rows hands the others
 * to the Python function. */
typedef struct {
    const Py_UCS1 *s;
} Text;

#define CH(t, i) ((Py_UCS4)(t)->s[(i)])

static inline int name_end(Py_UCS4 c) { return c == '/' || c == '>' || Py_UNICODE_ISSPACE(c); }

/* Position of the ASCII character c in [a, b), or b. */
static inline Py_ssize_t find_char(const Text *t, Py_ssize_t a, Py_ssize_t b, char c)
{
    if (a >= b)
        return b;
    const Py_UCS1 *hit = memchr(t->s + a, c, (size_t)(b - a));
    return hit ? hit - t->s : b;
}

/* A cell starting at p (text[p] == '<') inside [p, end): its kind letter, attributes [a0, a1), text [t0, t1)
 * (t1 is also where the match ends). 0 when no cell starts there; -1 when none can start there or later (plain
 * attributes with no '>' left: each later '<td' would scan to the end in vain, quadratic on a hostile row). */
static int match_cell(const Text *t, Py_ssize_t p, Py_ssize_t end, int quoted, Py_UCS4 *kind,
                      Py_ssize_t *a0, Py_ssize_t *a1, Py_ssize_t *t0, Py_ssize_t *t1)
{
    if (p + 3 >= end)
        return 0;
    Py_UCS4 c1 = CH(t, p + 1), c2 = CH(t, p + 2);
    if ((c1 != 't' && c1 != 'T') || (c2 != 'd' && c2 != 'h' && c2 != 'D' && c2 != 'H') || !name_end(CH(t, p + 3)))
        return 0;
    Py_ssize_t q = p + 3;
    if (quoted) {
        for (int iterations = 0; iterations < ATTR_ITERATIONS && q < end; iterations++) {
            Py_UCS4 c = CH(t, q);
            if (c == '"' || c == '\'') {
                Py_ssize_t r = q + 1;
                while (r < end && CH(t, r) != c)
                    r++;
                if (r >= end)
                    break; /* an unclosed quote: the repetition stops before it */
                q = r + 1;
            } else if (c == '<' || c == '>') {
                break;
            } else {
                while (q < end) {
                    Py_UCS4 d = CH(t, q);
                    if (d == '<' || d == '>' || d == '"' || d == '\'')
                        break;
                    q++;
                }
            }
        }
    } else {
        q = find_char(t, q, end, '>');
        if (q >= end)
            return -1;
    }
    if (q >= end || CH(t, q) != '>')
        return 0;
    *a0 = p + 3;
    *a1 = q;
    q++;
    *t0 = q;
    *t1 = find_char(t, q, end, '<');
    *kind = c2;
    return 1;
}

/* The next cell at or after p before end; returns its start or -1. */
static Py_ssize_t next_cell(const Text *t, Py_ssize_t p, Py_ssize_t end, int quoted, Py_UCS4 *kind,
                            Py_ssize_t *a0, Py_ssize_t *a1, Py_ssize_t *t0, Py_ssize_t *t1)
{
    for (; (p = find_char(t, p, end, '<')) < end; p++) {
        int found = match_cell(t, p, end, quoted, kind, a0, a1, t0, t1);
        if (found)
            return found > 0 ? p : -1;
    }
    return -1;
}

static inline int is_row_tag(const Text *t, Py_ssize_t p, Py_ssize_t n)
{
    if (p + 3 >= n || CH(t, p) != '<')
        return 0;
    Py_UCS4 c1 = CH(t, p + 1), c2 = CH(t, p + 2);
    return (c1 == 't' || c1 == 'T') && (c2 == 'r' || c2 == 'R') && name_end(CH(t, p + 3));
}

/* The next row tag at or after p, or n. */
static Py_ssize_t next_row_tag(const Text *t, Py_ssize_t p, Py_ssize_t n)
{
    for (; (p = find_char(t, p, n, '<')) < n; p++)
        if (is_row_tag(t, p, n))
            return p;
    return n;
}

static Py_ssize_t count_newlines(const Text *t, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t k = 0;
    for (; (a = find_char(t, a, b, '\n')) < b; a++)
        k++;
    return k;
}

/* Whether the ASCII needle occurs in [a, b). */
static int holds(const Text *t, Py_ssize_t a, Py_ssize_t b, const char *needle)
{
    Py_ssize_t m = (Py_ssize_t)strlen(needle);
    for (; (a = find_char(t, a, b, needle[0])) + m <= b; a++) {
        Py_ssize_t j = 1;
        while (j < m && CH(t, a + j) == (Py_UCS4)(unsigned char)needle[j])
            j++;
        if (j == m)
            return 1;
    }
    return 0;
}

/* _QUOTED_GT: ="[^"<>]*> or ='[^'<>]*> anywhere: an attribute value holding '>' (the cells then need the
 * quoted ATTRS). */
static int quoted_gt(const Text *t, Py_ssize_t n)
{
    for (Py_ssize_t p = 0; (p = find_char(t, p, n, '=')) + 1 < n; p++) {
        Py_UCS4 q = CH(t, p + 1);
        if (q != '"' && q != '\'')
            continue;
        for (Py_ssize_t r = p + 2; r < n; r++) {
            Py_UCS4 c = CH(t, r);
            if (c == '>')
                return 1;
            if (c == q || c == '<')
                break;
        }
    }
    return 0;
}

typedef struct {
    PyObject *budget, *cache, *clean, *colspan;
    Py_ssize_t rows_left, cells_left;
    Text text;
    Py_ssize_t cache_max, max_chars; /* tables._CLEAN_CACHE_MAX, cells.MAX_CELL_CHARS */
    Py_ssize_t starts[MAX_ROW_CELLS], ends[MAX_ROW_CELLS]; /* one fast-path row's cell texts */
} Context;

/* budget.take(line, cells) counted here; past the bound the Python method counts again and writes its note. */
static int take(Context *cx, Py_ssize_t line, Py_ssize_t cells)
{
    if (cx->rows_left - 1 >= 0 && cx->cells_left - cells >= 0) {
        cx->rows_left -= 1;
        cx->cells_left -= cells;
        return 1;
    }
    PyObject *v;
    if (!(v = PyLong_FromSsize_t(cx->rows_left)) || PyObject_SetAttrString(cx->budget, "rows", v) < 0)
        goto fail;
    Py_DECREF(v);
    if (!(v = PyLong_FromSsize_t(cx->cells_left)) || PyObject_SetAttrString(cx->budget, "cells", v) < 0)
        goto fail;
    Py_DECREF(v);
    PyObject *ok = PyObject_CallMethod(cx->budget, "take", "nn", line, cells);
    if (!ok)
        return -1;
    int truth = PyObject_IsTrue(ok);
    Py_DECREF(ok);
    if (truth < 0)
        return -1;
    PyObject *r = PyObject_GetAttrString(cx->budget, "rows"), *c = PyObject_GetAttrString(cx->budget, "cells");
    if (!r || !c) {
        Py_XDECREF(r);
        Py_XDECREF(c);
        return -1;
    }
    cx->rows_left = PyLong_AsSsize_t(r);
    cx->cells_left = PyLong_AsSsize_t(c);
    Py_DECREF(r);
    Py_DECREF(c);
    if (PyErr_Occurred())
        return -1;
    return truth;
fail:
    Py_XDECREF(v);
    return -1;
}

static int wide(Context *cx, Py_ssize_t line)
{
    PyObject *r = PyObject_CallMethod(cx->budget, "wide", "n", line);
    if (!r)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* tables._NOTHING_TO_CLEAN finds nothing in [a, b) and the cell is not longer than MAX_CELL_CHARS: no entity,
 * no-break space, line break, tab, two spaces, nor white space at either end. */
static int nothing_to_clean(const Text *t, Py_ssize_t a, Py_ssize_t b, Py_ssize_t max_chars)
{
    if (b - a > max_chars)
        return 0;
    if (b > a && (Py_UNICODE_ISSPACE(CH(t, a)) || Py_UNICODE_ISSPACE(CH(t, b - 1))))
        return 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = CH(t, i);
        if (c == '&' || c == 0xa0 || c == '\n' || c == '\t' || (c == ' ' && i + 1 < b && CH(t, i + 1) == ' '))
            return 0;
    }
    return 1;
}

/* tables._clean_cached of the raw cell [a, b): the cache's entry; else, as that function does, the cache
 * emptied past its bound and the raw text kept as it is when there is nothing to clean; else the Python
 * function's answer (which fills the cache). */
static PyObject *cleaned_raw(Context *cx, PyObject *raw, Py_ssize_t a, Py_ssize_t b)
{
    PyObject *text = PyDict_GetItemWithError(cx->cache, raw);
    if (text) {
        Py_INCREF(text);
    } else if (!PyErr_Occurred()) {
        if (nothing_to_clean(&cx->text, a, b, cx->max_chars)) {
            if (PyDict_GET_SIZE(cx->cache) > cx->cache_max)
                PyDict_Clear(cx->cache);
            if (PyDict_SetItem(cx->cache, raw, raw) == 0) {
                text = raw;
                Py_INCREF(text);
            }
        } else {
            text = PyObject_CallOneArg(cx->clean, raw);
        }
    }
    if (text && !PyUnicode_Check(text)) {
        Py_DECREF(text);
        PyErr_SetString(PyExc_TypeError, "a cleaned cell must be a str");
        return NULL;
    }
    return text;
}

static PyObject *cleaned(Context *cx, PyObject *own, Py_ssize_t a, Py_ssize_t b)
{
    PyObject *raw = PyUnicode_Substring(own, a, b);
    if (!raw)
        return NULL;
    PyObject *text = cleaned_raw(cx, raw, a, b);
    Py_DECREF(raw);
    return text;
}

/* tables._close_row: a header row (only <th> and blank cells, before any data row) or a data row, colspans
 * padded with blank cells. 1 kept, 0 over the budget, -1 error. spans is NULL when every span is 1. */
static int close_row(Context *cx, PyObject *texts, PyObject *spans, int header, Py_ssize_t line, PyObject *rows,
                     PyObject *header_rows)
{
    Py_ssize_t n = PyList_GET_SIZE(texts), width = n;
    if (spans) {
        width = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            width += PyLong_AsSsize_t(PyList_GET_ITEM(spans, i));
    }
    if (width > MAX_ROW_CELLS && wide(cx, line) < 0)
        return -1;
    int ok = take(cx, line, width < MAX_ROW_CELLS ? width : MAX_ROW_CELLS);
    if (ok <= 0)
        return ok;
    PyObject *row = NULL;
    if (header && PyList_GET_SIZE(rows) == 0) {
        row = PyList_New(n);
        if (!row)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *span = spans ? PyList_GET_ITEM(spans, i) : NULL;
            PyObject *pair = span ? PyTuple_Pack(2, PyList_GET_ITEM(texts, i), span)
                                  : Py_BuildValue("(Oi)", PyList_GET_ITEM(texts, i), 1);
            if (!pair) {
                Py_DECREF(row);
                return -1;
            }
            PyList_SET_ITEM(row, i, pair);
        }
        ok = PyList_Append(header_rows, row) < 0 ? -1 : 1;
        Py_DECREF(row);
        return ok;
    }
    PyObject *cells = texts;
    Py_INCREF(cells);
    if (spans) {
        Py_DECREF(cells);
        cells = PyList_New(0);
        if (!cells)
            return -1;
        PyObject *blank = PyUnicode_New(0, 0);
        if (!blank) {
            Py_DECREF(cells);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (PyList_Append(cells, PyList_GET_ITEM(texts, i)) < 0)
                goto fail;
            Py_ssize_t span = PyLong_AsSsize_t(PyList_GET_ITEM(spans, i));
            for (Py_ssize_t k = 1; k < span; k++)
                if (PyList_Append(cells, blank) < 0)
                    goto fail;
        }
        Py_XDECREF(blank);
        if (PyList_GET_SIZE(cells) > MAX_ROW_CELLS && PyList_SetSlice(cells, MAX_ROW_CELLS, PyList_GET_SIZE(cells), NULL) < 0) {
            Py_DECREF(cells);
            return -1;
        }
        goto append;
fail:
        Py_XDECREF(blank);
        Py_DECREF(cells);
        return -1;
    }
append:
    row = Py_BuildValue("(nN)", line, cells);
    if (!row)
        return -1;
    ok = PyList_Append(rows, row) < 0 ? -1 : 1;
    Py_DECREF(row);
    return ok;
}

static PyObject *cut_rows(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *own, *budget, *cache, *clean, *colspan;
    Py_ssize_t line, cache_max, max_chars;
    int with_spans, header_only, quoted;
    if (!PyArg_ParseTuple(args, "UnppiOOOOnn", &own, &line, &with_spans, &header_only, &quoted, &budget, &cache,
                          &clean, &colspan, &cache_max, &max_chars))
        return NULL;
    if (!PyDict_Check(cache)) {
        PyErr_SetString(PyExc_TypeError, "cache must be a dict");
        return NULL;
    }
    if (PyUnicode_KIND(own) != PyUnicode_1BYTE_KIND) /* a character past Latin-1: the Python function's */
        Py_RETURN_NOTIMPLEMENTED;
    Text t = {PyUnicode_1BYTE_DATA(own)};
    Py_ssize_t n = PyUnicode_GET_LENGTH(own);
    if (quoted < 0)
        quoted = quoted_gt(&t, n);
    Context cx = {budget, cache, clean, colspan, 0, 0, t, cache_max, max_chars};
    PyObject *r = PyObject_GetAttrString(budget, "rows"), *c = PyObject_GetAttrString(budget, "cells");
    if (!r || !c) {
        Py_XDECREF(r);
        Py_XDECREF(c);
        return NULL;
    }
    cx.rows_left = PyLong_AsSsize_t(r);
    cx.cells_left = PyLong_AsSsize_t(c);
    Py_DECREF(r);
    Py_DECREF(c);
    if (PyErr_Occurred())
        return NULL;

    /* the text before the first <tr>: a cell there is an implied row, which the marked-up reader handles */
    Py_ssize_t first = next_row_tag(&t, 0, n);
    Py_UCS4 kind;
    Py_ssize_t a0, a1, t0, t1;
    if (next_cell(&t, 0, first, 1, &kind, &a0, &a1, &t0, &t1) >= 0)
        Py_RETURN_NONE;
    line += count_newlines(&t, 0, first);

    PyObject *rows = PyList_New(0), *header_rows = PyList_New(0), *texts = NULL, *spans = NULL;
    if (!rows || !header_rows)
        goto error;
    Py_ssize_t chunk = first;
    while (chunk < n) {
        Py_ssize_t a = chunk + 3, b = next_row_tag(&t, a, n); /* a chunk: after one <tr up to the next */
        chunk = b;
        Py_ssize_t gt = find_char(&t, a, b, '>');
        /* chunk.count("\n", 0, chunk.find(">")): without a '>', find gives -1, which counts to the last char */
        Py_ssize_t row_line = line + count_newlines(&t, a, gt < b ? gt : (b > a ? b - 1 : a));
        line += count_newlines(&t, a, b);
        Py_ssize_t nrows = PyList_GET_SIZE(rows);
        if (nrows && !(with_spans && (holds(&t, a, b, "pan") || holds(&t, a, b, "PAN"))) && !holds(&t, a, b, "/>")) {
            /* as the Python fast path: the row's cells found, the budget taken, then every cell looked up in the
             * cache and the misses cleaned (a row over the budget is never cleaned) */
            Py_ssize_t p = a, found = 0;
            while ((p = next_cell(&t, p, b, quoted, &kind, &a0, &a1, &t0, &t1)) >= 0) {
                if (found == MAX_ROW_CELLS) {
                    if (wide(&cx, row_line) < 0)
                        goto error;
                    break;
                }
                cx.starts[found] = t0;
                cx.ends[found++] = t1;
                p = t1;
            }
            if (found) {
                int ok = take(&cx, row_line, found);
                if (ok < 0)
                    goto error;
                if (!ok)
                    break;
                texts = PyList_New(found);
                if (!texts)
                    goto error;
                PyObject *raws[MAX_ROW_CELLS];
                Py_ssize_t made = 0, i;
                for (; made < found; made++) {
                    raws[made] = PyUnicode_Substring(own, cx.starts[made], cx.ends[made]);
                    if (!raws[made])
                        break;
                    PyObject *hit = PyDict_GetItemWithError(cache, raws[made]);
                    if (!hit && PyErr_Occurred()) {
                        Py_DECREF(raws[made]);
                        break;
                    }
                    Py_XINCREF(hit);
                    PyList_SET_ITEM(texts, made, hit); /* NULL for a miss, filled below */
                }
                for (i = 0; made == found && i < found; i++) {
                    if (PyList_GET_ITEM(texts, i))
                        continue;
                    PyObject *text = cleaned_raw(&cx, raws[i], cx.starts[i], cx.ends[i]);
                    if (!text)
                        break;
                    PyList_SET_ITEM(texts, i, text);
                }
                for (Py_ssize_t k = 0; k < made; k++)
                    Py_DECREF(raws[k]);
                if (made < found || i < found)
                    goto error; /* texts may hold NULL items still: list_dealloc skips them */
                PyObject *row = Py_BuildValue("(nO)", row_line, texts);
                if (!row || PyList_Append(rows, row) < 0) {
                    Py_XDECREF(row);
                    goto error;
                }
                Py_DECREF(row);
            }
            Py_CLEAR(texts);
            continue;
        }
        texts = PyList_New(0);
        if (!texts)
            goto error;
        int has_th = 0, row_is_header = 1;
        Py_ssize_t p = a;
        while ((p = next_cell(&t, p, b, 1, &kind, &a0, &a1, &t0, &t1)) >= 0) {
            if (PyList_GET_SIZE(texts) == MAX_ROW_CELLS) {
                if (wide(&cx, row_line) < 0)
                    goto error;
                break;
            }
            PyObject *text;
            if (a1 > a0 && CH(&t, a1 - 1) == '/') { /* <td/>: an empty cell */
                text = PyUnicode_New(0, 0);
            } else {
                text = cleaned(&cx, own, t0, t1);
            }
            if (!text)
                goto error;
            if (with_spans) {
                Py_ssize_t span = 1;
                if (holds(&t, a0, a1, "pan") || holds(&t, a0, a1, "PAN")) {
                    PyObject *attrs = PyUnicode_Substring(own, a0, a1);
                    PyObject *s = attrs ? PyObject_CallOneArg(colspan, attrs) : NULL;
                    Py_XDECREF(attrs);
                    span = s ? PyLong_AsSsize_t(s) : -1;
                    Py_XDECREF(s);
                    if (span == -1 && PyErr_Occurred()) {
                        Py_DECREF(text);
                        goto error;
                    }
                }
                if (span != 1 && !spans) {
                    spans = PyList_New(0);
                    for (Py_ssize_t i = 0; spans && i < PyList_GET_SIZE(texts); i++) {
                        PyObject *one = PyLong_FromLong(1);
                        if (!one || PyList_Append(spans, one) < 0) {
                            Py_XDECREF(one);
                            Py_CLEAR(spans);
                            break;
                        }
                        Py_DECREF(one);
                    }
                    if (!spans) {
                        Py_DECREF(text);
                        goto error;
                    }
                }
                if (spans) {
                    PyObject *v = PyLong_FromSsize_t(span);
                    if (!v || PyList_Append(spans, v) < 0) {
                        Py_XDECREF(v);
                        Py_DECREF(text);
                        goto error;
                    }
                    Py_DECREF(v);
                }
            }
            if (kind == 'h' || kind == 'H')
                has_th = 1;
            else if (PyUnicode_GET_LENGTH(text))
                row_is_header = 0;
            if (PyList_Append(texts, text) < 0) {
                Py_DECREF(text);
                goto error;
            }
            Py_DECREF(text);
            p = t1;
        }
        if (PyList_GET_SIZE(texts)) {
            int ok = close_row(&cx, texts, spans, has_th && row_is_header, row_line, rows, header_rows);
            if (ok < 0)
                goto error;
            Py_CLEAR(texts);
            Py_CLEAR(spans);
            if (!ok || (header_only && PyList_GET_SIZE(rows)))
                break;
        }
        Py_CLEAR(texts);
        Py_CLEAR(spans);
    }
    PyObject *v;
    if (!(v = PyLong_FromSsize_t(cx.rows_left)) || PyObject_SetAttrString(budget, "rows", v) < 0) {
        Py_XDECREF(v);
        goto error;
    }
    Py_DECREF(v);
    if (!(v = PyLong_FromSsize_t(cx.cells_left)) || PyObject_SetAttrString(budget, "cells", v) < 0) {
        Py_XDECREF(v);
        goto error;
    }
    Py_DECREF(v);
    return Py_BuildValue("(NN)", header_rows, rows);
error:
    Py_XDECREF(texts);
    Py_XDECREF(spans);
    Py_XDECREF(rows);
    Py_XDECREF(header_rows);
    return NULL;
}

static PyObject *has_quoted_gt(PyObject *Py_UNUSED(module), PyObject *arg)
{
    if (!PyUnicode_Check(arg) || PyUnicode_KIND(arg) != PyUnicode_1BYTE_KIND) {
        PyErr_SetString(PyExc_TypeError, "a one-byte str");
        return NULL;
    }
    Text t = {PyUnicode_1BYTE_DATA(arg)};
    return PyBool_FromLong(quoted_gt(&t, PyUnicode_GET_LENGTH(arg)));
}


/* The scanner's next table event (scanner._Scanner._next_table_event): the first "<table", "</table", "<!--",
 * "<script" or "<style" at or after pos in the lower-cased text, in one pass where the Python function runs five
 * str.find. -1: none left; -2: the text is not one-byte (the Python function's). */
static PyObject *next_table_event(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *low;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "Un", &low, &pos))
        return NULL;
    if (PyUnicode_KIND(low) != PyUnicode_1BYTE_KIND)
        return PyLong_FromLong(-2);
    const unsigned char *s = PyUnicode_1BYTE_DATA(low);
    Py_ssize_t n = PyUnicode_GET_LENGTH(low);
    if (pos < 0)
        pos = 0;
    while (pos < n) {
        const unsigned char *lt = memchr(s + pos, '<', (size_t)(n - pos));
        if (lt == NULL)
            break;
        Py_ssize_t at = lt - s, left = n - at - 1;
        const char *after = (const char *)lt + 1;
        if ((left >= 5 && memcmp(after, "table", 5) == 0) || (left >= 6 && memcmp(after, "/table", 6) == 0) ||
            (left >= 3 && memcmp(after, "!--", 3) == 0) || (left >= 6 && memcmp(after, "script", 6) == 0) ||
            (left >= 5 && memcmp(after, "style", 5) == 0))
            return PyLong_FromSsize_t(at);
        pos = at + 1;
    }
    return PyLong_FromLong(-1);
}

static PyMethodDef methods[] = {
    {"has_quoted_gt", has_quoted_gt, METH_O, "has_quoted_gt(text) -> bool: tables._QUOTED_GT.search(text) is not None"},
    {"cut_rows", cut_rows, METH_VARARGS,
     "cut_rows(own, line, with_spans, header_only, quoted, budget, cache, clean, colspan, cache_max, max_chars) -> "
     "(header rows, rows) "
     "or None: tables._cut_rows, compiled (quoted -1: look for a quoted '>' here); NotImplemented for a text "
     "with characters past Latin-1"},
    {"next_table_event", next_table_event, METH_VARARGS,
     "next_table_event(low, pos) -> int: scanner._Scanner._next_table_event in one pass (-1 none, -2 not one-byte)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cut", "HTML table rows cut in C (tables._cut_rows)", -1,
                                    methods};

PyMODINIT_FUNC PyInit__cut(void) { return PyModule_Create(&module); }
