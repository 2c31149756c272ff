// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * asc._speedups: the calls a Python kernel makes for every operation,
 * in C.
 *
 * set_flag(), wait_flag() and pipe_barrier() are those of asc/sync.py,
 * issue_op() the end of asc/ops.py's _op(), and data_copy(), add() and
 * mul() (asc_speedups_ops.c) those of ops.py: each finds the calling
 * thread's core (asc.runtime._local.core), the kernel's line
 * (asc.where.call_site()), calls libasc's _at function with the GIL
 * released and raises asc.errors.error() of its errno, as the Python
 * code does, without the interpreted calls and the ctypes call of each.
 * Whatever is not the common case (no core, a cancelled one, an argument
 * to convert) is handed to the same Python functions the package uses,
 * so that the errors are theirs.
 *
 * libasc is not linked: bind() is given the addresses of its functions in
 * the copy ctypes loaded (asc._libasc.raw), so that there is one libasc
 * in the process, whichever file ASC_LIBASC named.  The package loads
 * this module, binds it and uses it unless ASC_NO_SPEEDUPS is set
 * (asc/speedups.py).
 */

#include "asc_speedups.h"

#include <frameobject.h>

#include <errno.h>

struct speedups sp;
static PyObject *str_core, *str_cancelled, *str_ptr, *str_value, *str_name;

/* Whether bind() has not been called yet: then raise RuntimeError. */
static bool unbound(void)
{
	if (sp.local)
		return false;
	PyErr_SetString(PyExc_RuntimeError, "asc._speedups: not bound (asc.speedups binds it)");
	return true;
}

/*
 * The calling thread's core, as a new reference, or NULL with an
 * exception: runtime.current_core(@api) for no core or a cancelled one,
 * which raises what the package raises.
 */
PyObject *kernel_core(const char *api)
{
	PyObject *core, *cancelled;

	if (unbound())
		return NULL;
	core = PyObject_GetAttr(sp.local, str_core);
	if (!core) {
		if (!PyErr_ExceptionMatches(PyExc_AttributeError))
			return NULL;
		PyErr_Clear();
	} else if (core != Py_None) {
		cancelled = PyObject_GetAttr(core, str_cancelled);
		if (cancelled == Py_False) {
			Py_DECREF(cancelled);
			return core;
		}
		Py_XDECREF(cancelled);
		if (!cancelled) {
			Py_DECREF(core);
			return NULL;
		}
	}
	Py_XDECREF(core);
	return PyObject_CallFunction(sp.current_core, "s", api);
}

/* The address of @core's struct asc_core (its ptr), or NULL with an exception. */
void *core_ptr(PyObject *core)
{
	PyObject *ptr = PyObject_GetAttr(core, str_ptr);
	void *p;

	if (!ptr)
		return NULL;
	p = PyLong_AsVoidPtr(ptr);
	Py_DECREF(ptr);
	if (!p && !PyErr_Occurred())
		PyErr_SetString(PyExc_ValueError, "asc: a core without its struct asc_core");
	return p;
}

/*
 * The line of each (code, instruction) seen, as asc.where keeps them:
 * PyFrame_GetLineNumber() reads the code's line table from its start.
 * A slot holds a reference to its code, so that no other code takes its
 * address while it is there.  Used under the GIL.
 */
#define LINE_SLOTS	512

struct line_slot {
	PyCodeObject *code;
	int lasti;
	int line;
};

static struct line_slot line_slots[LINE_SLOTS];

static int frame_line(PyFrameObject *frame, PyCodeObject *code)
{
	int lasti = PyFrame_GetLasti(frame);
	struct line_slot *slot;
	int line;

	if (lasti < 0)
		return PyFrame_GetLineNumber(frame);
	slot = &line_slots[(((uintptr_t)code >> 4) ^ (uintptr_t)lasti * 2654435761u) %
			   LINE_SLOTS];
	if (slot->code == code && slot->lasti == lasti)
		return slot->line;
	line = PyFrame_GetLineNumber(frame);
	Py_INCREF(code);
	Py_XDECREF(slot->code);
	*slot = (struct line_slot){ code, lasti, line };
	return line;
}

/*
 * The kernel's call site, asc.where.call_site(): the innermost frame
 * outside the package.  *@file is a new reference to its file's name
 * (bytes) or NULL for none; return 0, or -1 with an exception.
 */
static int call_site(PyObject **file, int *line)
{
	PyFrameObject *frame = PyEval_GetFrame();
	PyFrameObject *back;
	PyCodeObject *code;
	PyObject *name;

	*file = NULL;
	*line = 0;
	if (unbound())
		return -1;
	Py_XINCREF(frame);
	while (frame) {
		code = PyFrame_GetCode(frame);
		name = PyDict_GetItemWithError(sp.files, (PyObject *)code);
		if (name) {
			Py_INCREF(name);
		} else {
			if (PyErr_Occurred())
				goto fail;
			name = PyObject_CallOneArg(sp.file_of, (PyObject *)frame);
			if (!name)
				goto fail;
		}
		if (name != Py_None) {
			if (!PyBytes_Check(name)) {
				Py_DECREF(name);
				PyErr_SetString(PyExc_TypeError, "asc: a file name that is no bytes");
				goto fail;
			}
			*file = name;
			*line = frame_line(frame, code);
			Py_DECREF(code);
			Py_DECREF(frame);
			return 0;
		}
		Py_DECREF(name);
		Py_DECREF(code);
		back = PyFrame_GetBack(frame);
		Py_DECREF(frame);
		frame = back;
	}
	return 0;
fail:
	Py_DECREF(code);
	Py_DECREF(frame);
	return -1;
}

/* Raise asc.errors.error(@err, @what), stealing @what; return NULL. */
static PyObject *raise_error(int err, PyObject *what)
{
	PyObject *exc;

	if (!what)
		return NULL;
	exc = PyObject_CallFunction(sp.error, "iO", err, what);
	Py_DECREF(what);
	if (exc) {
		PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
		Py_DECREF(exc);
	}
	return NULL;
}

/*
 * Raise the error of @api(@member's name, *@id) (no @id: @api(@member's
 * name)) for @err, as sync.py's core.check() of the call does.
 */
static void raise_call_error(int err, const char *api, PyObject *member, const int *id)
{
	PyObject *name = PyObject_GetAttr(member, str_name);

	if (!name)
		return;
	if (id)
		raise_error(err, PyUnicode_FromFormat("%s(%U, %d)", api, name, *id));
	else
		raise_error(err, PyUnicode_FromFormat("%s(%U)", api, name));
	Py_DECREF(name);
}

/*
 * @obj as a member of the enum @type (type(obj) is type, else
 * type(obj), which raises its ValueError), a new reference; its value in
 * *@value.
 */
static PyObject *enum_member(PyObject *type, PyObject *obj, int *value)
{
	PyObject *member, *v;
	long n;

	if ((PyObject *)Py_TYPE(obj) == type) {
		member = obj;
		Py_INCREF(member);
	} else {
		member = PyObject_CallOneArg(type, obj);
		if (!member)
			return NULL;
	}
	v = PyObject_GetAttr(member, str_value);
	if (!v)
		goto fail;
	n = PyLong_AsLong(v);
	Py_DECREF(v);
	if (n == -1 && PyErr_Occurred())
		goto fail;
	*value = (int)n;
	return member;
fail:
	Py_DECREF(member);
	return NULL;
}

/* int(@obj) as a C int, or -1 with an exception (check PyErr_Occurred()). */
static int as_int(PyObject *obj)
{
	PyObject *n = PyLong_CheckExact(obj) ? (Py_INCREF(obj), obj) : PyNumber_Long(obj);
	int overflow;
	long v;

	if (!n)
		return -1;
	v = PyLong_AsLongAndOverflow(n, &overflow);
	Py_DECREF(n);
	if (overflow || v > INT_MAX || v < INT_MIN) {
		PyErr_SetString(PyExc_OverflowError, "asc: an argument past the range of a C int");
		return -1;
	}
	return (int)v;
}

/*
 * The arguments of a call taking the @n @names, @min of them needed:
 * positional then keyword, in @out (borrowed; NULL when not given).
 * Return 0, or -1 with a TypeError.
 */
int fast_args(const char *api, PyObject *const *args, Py_ssize_t nargs,
	      PyObject *kwnames, const char *const *names, int n, int min,
	      PyObject **out)
{
	Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
	Py_ssize_t i;
	int j;

	if (nargs > n) {
		PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)",
			     api, n, nargs + nkw);
		return -1;
	}
	for (j = 0; j < n; j++)
		out[j] = j < nargs ? args[j] : NULL;
	for (i = 0; i < nkw; i++) {
		PyObject *key = PyTuple_GET_ITEM(kwnames, i);

		for (j = 0; j < n; j++)
			if (PyUnicode_CompareWithASCIIString(key, names[j]) == 0)
				break;
		if (j == n) {
			PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'",
				     api, key);
			return -1;
		}
		if (out[j]) {
			PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
				     api, names[j]);
			return -1;
		}
		out[j] = args[nargs + i];
	}
	for (j = 0; j < min; j++)
		if (!out[j]) {
			PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'",
				     api, names[j]);
			return -1;
		}
	return 0;
}

static const char *const flag_names[] = { "event", "event_id" };

/* set_flag() or wait_flag(): sync.py's _flag(). */
static PyObject *flag(const char *api, __typeof__(asc_core_set_flag_at) *fn,
		      PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
	PyObject *arg[2], *core, *event = NULL, *file = NULL, *ret = NULL;
	int value, id = 0, line, rc, err;
	PyThreadState *ts;
	void *ptr;

	if (fast_args(api, args, nargs, kwnames, flag_names, 2, 1, arg))
		return NULL;
	core = kernel_core(api);
	if (!core)
		return NULL;
	event = enum_member(sp.hard_event, arg[0], &value);
	if (!event)
		goto out;
	if (arg[1]) {
		id = as_int(arg[1]);
		if (id == -1 && PyErr_Occurred())
			goto out;
	}
	ptr = core_ptr(core);
	if (!ptr || call_site(&file, &line))
		goto out;
	ts = PyEval_SaveThread();
	rc = fn(ptr, value, id, file ? PyBytes_AS_STRING(file) : NULL, line);
	err = errno;
	PyEval_RestoreThread(ts);
	if (rc < 0) {
		raise_call_error(err, api, event, &id);
		goto out;
	}
	ret = Py_NewRef(Py_None);
out:
	Py_XDECREF(file);
	Py_XDECREF(event);
	Py_DECREF(core);
	return ret;
}

static PyObject *set_flag(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			  PyObject *kwnames)
{
	return flag("set_flag", sp.set_flag_at, args, nargs, kwnames);
}

static PyObject *wait_flag(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			   PyObject *kwnames)
{
	return flag("wait_flag", sp.wait_flag_at, args, nargs, kwnames);
}

static const char *const barrier_names[] = { "pipe" };

static PyObject *pipe_barrier(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			      PyObject *kwnames)
{
	PyObject *arg[1], *core, *pipe = NULL, *file = NULL, *ret = NULL;
	int value, line, rc, err;
	PyThreadState *ts;
	void *ptr;

	if (fast_args("pipe_barrier", args, nargs, kwnames, barrier_names, 1, 1, arg))
		return NULL;
	core = kernel_core("pipe_barrier");
	if (!core)
		return NULL;
	pipe = enum_member(sp.pipe_id, arg[0], &value);
	if (!pipe)
		goto out;
	ptr = core_ptr(core);
	if (!ptr || call_site(&file, &line))
		goto out;
	ts = PyEval_SaveThread();
	rc = sp.pipe_barrier_at(ptr, value, file ? PyBytes_AS_STRING(file) : NULL, line);
	err = errno;
	PyEval_RestoreThread(ts);
	if (rc < 0) {
		raise_call_error(err, "pipe_barrier", pipe, NULL);
		goto out;
	}
	ret = Py_NewRef(Py_None);
out:
	Py_XDECREF(file);
	Py_XDECREF(pipe);
	Py_DECREF(core);
	return ret;
}

/*
 * asc_core_issue_op_at() of the core at @ptr: the op at @op on @pipe,
 * its @nacc accesses at @acc, @what in reports, at the kernel's line,
 * with the GIL released.  Return 0, or -1 with error(errno, @api) raised.
 */
int issue_op_here(void *ptr, int pipe, const void *op, const char *what, const void *acc,
		  int nacc, PyObject *api)
{
	PyObject *file;
	int line, rc, err;
	PyThreadState *ts;

	if (call_site(&file, &line))
		return -1;
	ts = PyEval_SaveThread();
	rc = sp.issue_op_at(ptr, pipe, op, what, acc, nacc,
			    file ? PyBytes_AS_STRING(file) : NULL, line);
	err = errno;
	PyEval_RestoreThread(ts);
	Py_XDECREF(file);
	if (rc < 0) {
		raise_error(err, Py_NewRef(api));
		return -1;
	}
	return 0;
}

/*
 * issue_op(ptr, pipe, op, what, acc, nacc, api): asc_core_issue_op_at()
 * of the core at ptr, the op and its accesses at the addresses op and
 * acc (ctypes objects the caller keeps), what as bytes, at the kernel's
 * line; raises error(errno, api) when it fails.
 */
static PyObject *issue_op(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	void *ptr, *op, *acc;
	int pipe, nacc;

	if (nargs != 7) {
		PyErr_Format(PyExc_TypeError, "%s() takes 7 arguments", __func__);
		return NULL;
	}
	if (!PyBytes_Check(args[3]) || !PyUnicode_Check(args[6])) {
		PyErr_Format(PyExc_TypeError, "%s(): what is bytes, api a str", __func__);
		return NULL;
	}
	ptr = PyLong_AsVoidPtr(args[0]);
	pipe = as_int(args[1]);
	op = PyLong_AsVoidPtr(args[2]);
	acc = PyLong_AsVoidPtr(args[4]);
	nacc = as_int(args[5]);
	if (PyErr_Occurred() ||
	    issue_op_here(ptr, pipe, op, PyBytes_AS_STRING(args[3]), acc, nacc, args[6]))
		return NULL;
	return Py_NewRef(Py_None);
}

/* call_site(): asc.where.call_site() */
static PyObject *py_call_site(PyObject *self, PyObject *unused)
{
	PyObject *file, *ret;
	int line;

	if (call_site(&file, &line))
		return NULL;
	ret = Py_BuildValue("(Oi)", file ? file : Py_None, line);
	Py_XDECREF(file);
	return ret;
}

static int bind_fn(PyObject *fns, const char *name, void **fn)
{
	PyObject *addr = PyDict_GetItemString(fns, name);

	if (!addr) {
		PyErr_Format(PyExc_KeyError, "bind(): no address of %s", name);
		return -1;
	}
	*fn = PyLong_AsVoidPtr(addr);
	if (!*fn) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_ValueError, "bind(): %s at NULL", name);
		return -1;
	}
	return 0;
}

/*
 * bind(local, current_core, hard_event, pipe_id, files, file_of, error,
 * fns): what the calls use (see struct speedups); fns maps the names of
 * libasc's _at functions to their addresses.
 */
static PyObject *bind(PyObject *self, PyObject *args)
{
	struct speedups s;
	PyObject *fns;

	if (sp.local) {
		PyErr_Format(PyExc_RuntimeError, "%s(): bound already", __func__);
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "OOOOO!OOO!", &s.local, &s.current_core,
			      &s.hard_event, &s.pipe_id, &PyDict_Type, &s.files,
			      &s.file_of, &s.error, &PyDict_Type, &fns))
		return NULL;
	if (bind_fn(fns, "asc_core_set_flag_at", (void **)&s.set_flag_at) ||
	    bind_fn(fns, "asc_core_wait_flag_at", (void **)&s.wait_flag_at) ||
	    bind_fn(fns, "asc_core_pipe_barrier_at", (void **)&s.pipe_barrier_at) ||
	    bind_fn(fns, "asc_core_issue_op_at", (void **)&s.issue_op_at))
		return NULL;
	Py_INCREF(s.local);
	Py_INCREF(s.current_core);
	Py_INCREF(s.hard_event);
	Py_INCREF(s.pipe_id);
	Py_INCREF(s.files);
	Py_INCREF(s.file_of);
	Py_INCREF(s.error);
	sp = s;
	Py_RETURN_NONE;
}

/* The first line of each is its signature, for inspect.signature(). */
PyDoc_STRVAR(set_flag_doc,
	     "set_flag(event, event_id=0)\n--\n\n"
	     "set_flag(event, event_id): the source pipe of event sets the flag.");
PyDoc_STRVAR(wait_flag_doc,
	     "wait_flag(event, event_id=0)\n--\n\n"
	     "wait_flag(event, event_id): the destination pipe of event waits for it.");
PyDoc_STRVAR(pipe_barrier_doc,
	     "pipe_barrier(pipe)\n--\n\n"
	     "pipe_barrier(pipe): order the pipe; PIPE_ALL waits for every pipe.");
PyDoc_STRVAR(issue_op_doc,
	     "issue_op(ptr, pipe, op, what, acc, nacc, api): asc_core_issue_op_at() "
	     "at the kernel's line.");
PyDoc_STRVAR(call_site_doc,
	     "call_site() -> (file, line): the kernel's frame, as asc.where.call_site().");
PyDoc_STRVAR(bind_doc,
	     "bind(local, current_core, hard_event, pipe_id, files, file_of, error, fns): "
	     "what the calls use, once.");

static PyMethodDef speedups_methods[] = {
	{ "set_flag", (PyCFunction)(void (*)(void))set_flag, METH_FASTCALL | METH_KEYWORDS,
	  set_flag_doc },
	{ "wait_flag", (PyCFunction)(void (*)(void))wait_flag, METH_FASTCALL | METH_KEYWORDS,
	  wait_flag_doc },
	{ "pipe_barrier", (PyCFunction)(void (*)(void))pipe_barrier,
	  METH_FASTCALL | METH_KEYWORDS, pipe_barrier_doc },
	{ "issue_op", (PyCFunction)(void (*)(void))issue_op, METH_FASTCALL, issue_op_doc },
	{ "call_site", py_call_site, METH_NOARGS, call_site_doc },
	{ "bind", bind, METH_VARARGS, bind_doc },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef speedups_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "asc._speedups",
	.m_doc = "The calls a Python kernel makes for every operation, in C.",
	.m_size = -1,
	.m_methods = speedups_methods,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
	PyObject *mod;

	str_core = PyUnicode_InternFromString("core");
	str_cancelled = PyUnicode_InternFromString("cancelled");
	str_ptr = PyUnicode_InternFromString("ptr");
	str_value = PyUnicode_InternFromString("_value_");
	str_name = PyUnicode_InternFromString("name");
	if (!str_core || !str_cancelled || !str_ptr || !str_value || !str_name ||
	    op_names_init())
		return NULL;
	mod = PyModule_Create(&speedups_module);
	if (mod && PyModule_AddFunctions(mod, op_methods) < 0)
		Py_CLEAR(mod);
	return mod;
}
