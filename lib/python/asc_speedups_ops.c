// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * asc._speedups' ops: data_copy(), add() and mul() of asc/ops.py.
 *
 * Their common case is issued here: arguments of the tensor types the op
 * takes (positional or by keyword), an int count above 0, a running
 * core, and an op the core has issued before on the same operands.  That
 * op is found in the core's cache (Core.ops) under a key of bytes
 * (struct op_key): the op's kind, pipe and count and each operand (the
 * tensor's _operand(), made again by the tensor when it changed): its
 * address and bytes, its dtype and name as objects (numpy's dtypes of one
 * kind are one object, and asc.runtime._encoded() keeps the names it
 * made).  The entry holds the operands, so that no other object takes
 * the address of their dtypes and names while it is there.  A miss
 * asks ops.py's _checked(), which issues what libasc's ops do not cover
 * as numpy itself, then _op_args().  Anything else is handed to the op's
 * Python code (ops.py's py_* functions), so that the errors and the rare
 * cases are theirs.
 */
#include "asc_speedups.h"

#include <string.h>

/*
 * struct op_binding - what bind_ops() was given: set once at import of
 * asc.ops, under the GIL, and kept for the life of the process.
 */
struct op_binding {
	PyTypeObject *local_tensor;	/* asc.tensor.LocalTensor */
	PyTypeObject *global_tensor;	/* asc.tensor.GlobalTensor */
	PyObject *checked;		/* ops._checked */
	PyObject *op_args;		/* ops._op_args */
	PyObject *py[3];		/* py_data_copy, py_add, py_mul (enum op_which) */
	Py_ssize_t kept;		/* ops._OPS_KEPT: entries before the cache is cleared */
};

static struct op_binding ob;

enum op_which { OP_DATA_COPY, OP_ADD, OP_MUL };

static PyObject *str_opk, *str_opc, *str_operand, *str_tcore, *str_alive, *str_data,
	*str_tname, *str_ops;

/* The most arguments an op takes. */
#define OP_ARGS_MAX	5

/*
 * struct op_def - an op: its name for errors and bind_ops() (@api, made
 * a str in @api_str), its name in reports (@what), its ASC_OP_* kind,
 * how many sources it reads, its parameters (@names, @nargs of them, the
 * first @nargs_min needed; at most OP_ARGS_MAX), and @pipe_of: the pipe
 * that runs it for its arguments, or -1 where they are not its common
 * case (tensors of other types).
 */
struct op_def {
	const char *api;
	const char *what;
	int kind;
	int nsrc;
	const char *const *names;
	int nargs;
	int nargs_min;
	int (*pipe_of)(PyObject *const *arg);
	PyObject *api_str;
};

/* Whether GlobalTensor @t has its buffer (data is not None); errors are py_data_copy's. */
static bool has_data(PyObject *t)
{
	PyObject *data = PyObject_GetAttr(t, str_data);

	if (!data) {
		PyErr_Clear();
		return false;
	}
	Py_DECREF(data);
	return data != Py_None;
}

/* data_copy(dst, src, count): GM to local on MTE2, local to GM (with a buffer) on MTE3. */
static int copy_pipe(PyObject *const *arg)
{
	if (Py_IS_TYPE(arg[0], ob.local_tensor) && Py_IS_TYPE(arg[1], ob.global_tensor))
		return ASC_PIPE_MTE2;
	if (Py_IS_TYPE(arg[0], ob.global_tensor) && Py_IS_TYPE(arg[1], ob.local_tensor) &&
	    has_data(arg[0]))
		return ASC_PIPE_MTE3;
	return -1;
}

/* add() and mul(): three LocalTensors on V (is_set_mask unused, as in ops.py). */
static int vector_pipe(PyObject *const *arg)
{
	if (Py_IS_TYPE(arg[0], ob.local_tensor) && Py_IS_TYPE(arg[1], ob.local_tensor) &&
	    Py_IS_TYPE(arg[2], ob.local_tensor))
		return ASC_PIPE_V;
	return -1;
}

static const char *const copy_names[] = { "dst", "src", "count" };
static const char *const vector_names[] = { "dst", "src0", "src1", "count", "is_set_mask" };

static struct op_def op_defs[] = {
	[OP_DATA_COPY] = { "data_copy", "data_copy", ASC_OP_COPY, 1, copy_names, 3, 3,
			   copy_pipe, NULL },
	[OP_ADD] = { "add", "add", ASC_OP_ADD, 2, vector_names, 5, 4, vector_pipe, NULL },
	[OP_MUL] = { "mul", "mul", ASC_OP_MUL, 2, vector_names, 5, 4, vector_pipe, NULL },
};

/* The key of an op in Core.ops: no padding, every member set. */
struct op_key {
	long kind;
	long pipe;
	long count;
	struct {
		void *addr;
		Py_ssize_t nbytes;
		const void *dtype;
		const void *name;
	} operand[3];
};

/*
 * The operand of LocalTensor @t as its _operand() returns it (a new
 * reference, or NULL with an exception): its _opc while it has its _opk
 * (which every change of the tensor forgets) and its core is alive, else
 * _operand()'s.
 */
static PyObject *local_operand(PyObject *t)
{
	PyObject *key, *core, *alive;

	key = PyObject_GetAttr(t, str_opk);
	if (!key)
		return NULL;
	Py_DECREF(key);
	if (key == Py_None)
		goto slow;
	core = PyObject_GetAttr(t, str_tcore);
	if (!core)
		return NULL;
	alive = PyObject_GetAttr(core, str_alive);
	Py_DECREF(core);
	if (!alive)
		return NULL;
	Py_DECREF(alive);
	if (alive == Py_True)
		return PyObject_GetAttr(t, str_opc);
slow:
	return PyObject_CallMethodNoArgs(t, str_operand);
}

/* The same for GlobalTensor @t: its _opk is (data, name), by identity. */
static PyObject *global_operand(PyObject *t)
{
	PyObject *key, *data, *name;
	bool same;

	key = PyObject_GetAttr(t, str_opk);
	if (!key)
		return NULL;
	if (PyTuple_CheckExact(key) && PyTuple_GET_SIZE(key) == 2) {
		data = PyObject_GetAttr(t, str_data);
		name = data ? PyObject_GetAttr(t, str_tname) : NULL;
		same = name && PyTuple_GET_ITEM(key, 0) == data && PyTuple_GET_ITEM(key, 1) == name;
		Py_XDECREF(data);
		Py_XDECREF(name);
		if (!name) {
			Py_DECREF(key);
			return NULL;
		}
		if (same) {
			Py_DECREF(key);
			return PyObject_GetAttr(t, str_opc);
		}
	}
	Py_DECREF(key);
	return PyObject_CallMethodNoArgs(t, str_operand);
}

static PyObject *operand(PyObject *t)
{
	return Py_IS_TYPE(t, ob.local_tensor) ? local_operand(t) : global_operand(t);
}

/*
 * The key of @kind on @pipe over @count elements of the operands
 * @opnd[0..@n) (or NULL with an exception: an operand that is no
 * (address, bytes, dtype, name)).
 */
static PyObject *op_key(int kind, int pipe, long count, PyObject *const *opnd, int n)
{
	struct op_key key;
	int i;

	memset(&key, 0, sizeof(key));
	key.kind = kind;
	key.pipe = pipe;
	key.count = count;
	for (i = 0; i < n; i++) {
		if (!PyTuple_CheckExact(opnd[i]) || PyTuple_GET_SIZE(opnd[i]) != 4) {
			PyErr_SetString(PyExc_TypeError, "asc: an operand is no 4-tuple");
			return NULL;
		}
		key.operand[i].addr = PyLong_AsVoidPtr(PyTuple_GET_ITEM(opnd[i], 0));
		key.operand[i].nbytes = PyLong_AsSsize_t(PyTuple_GET_ITEM(opnd[i], 1));
		key.operand[i].dtype = PyTuple_GET_ITEM(opnd[i], 2);
		key.operand[i].name = PyTuple_GET_ITEM(opnd[i], 3);
	}
	if (PyErr_Occurred())
		return NULL;
	return PyBytes_FromStringAndSize((const char *)&key, sizeof(key));
}

/*
 * The cache entry of @def on @pipe over @count elements of @t[0..n)
 * (dst, then the sources), whose operands are @opnd, from @ops or made
 * and put there: (made, operands...) as a new reference.  NULL with no
 * exception: _checked() issued it as numpy.
 */
static PyObject *op_entry(const struct op_def *def, int pipe, long count, PyObject *ops,
			  PyObject *const *t, PyObject *const *opnd)
{
	PyObject *key, *entry, *srcs, *operands = NULL, *made = NULL;
	int n = def->nsrc + 1, i;

	key = op_key(def->kind, pipe, count, opnd, n);
	if (!key)
		return NULL;
	entry = PyDict_GetItemWithError(ops, key);
	Py_DECREF(key);
	if (entry)
		return Py_NewRef(entry);
	if (PyErr_Occurred())
		return NULL;
	srcs = PyTuple_New(def->nsrc);
	if (!srcs)
		return NULL;
	for (i = 0; i < def->nsrc; i++)
		PyTuple_SET_ITEM(srcs, i, Py_NewRef(t[i + 1]));
	operands = PyObject_CallFunction(ob.checked, "OiiOOlO", def->api_str, pipe, def->kind,
					 t[0], srcs, count, Py_None);
	Py_DECREF(srcs);
	if (!operands || operands == Py_None)
		goto out;
	if (!PyTuple_CheckExact(operands) || PyTuple_GET_SIZE(operands) != 3) {
		PyErr_SetString(PyExc_TypeError, "asc: _checked() returned no (d, a, b)");
		goto out;
	}
	made = PyObject_CallFunction(ob.op_args, "iOOOl", def->kind,
				     PyTuple_GET_ITEM(operands, 0), PyTuple_GET_ITEM(operands, 1),
				     PyTuple_GET_ITEM(operands, 2), count);
	if (!made)
		goto out;
	if (!PyTuple_CheckExact(made) || PyTuple_GET_SIZE(made) != 6) {
		PyErr_SetString(PyExc_TypeError, "asc: _op_args() returned no 6-tuple");
		goto out;
	}
	entry = PyTuple_New(n + 1);
	if (!entry)
		goto out;
	PyTuple_SET_ITEM(entry, 0, Py_NewRef(made));
	for (i = 0; i < n; i++)
		PyTuple_SET_ITEM(entry, i + 1, Py_NewRef(PyTuple_GET_ITEM(operands, i)));
	if (PyDict_GET_SIZE(ops) >= ob.kept)
		PyDict_Clear(ops);
	key = op_key(def->kind, pipe, count, &PyTuple_GET_ITEM(operands, 0), n);
	if (!key || PyDict_SetItem(ops, key, entry) < 0)
		Py_CLEAR(entry);
	Py_XDECREF(key);
out:
	Py_XDECREF(made);
	Py_XDECREF(operands);
	return entry;
}

/*
 * Issue @entry's op on @pipe of @core, at the kernel's line; return 0,
 * or -1 with error(errno, api) raised.
 */
static int op_call(const struct op_def *def, int pipe, PyObject *core, PyObject *entry)
{
	PyObject *made = PyTuple_GET_ITEM(entry, 0);
	void *ptr, *op, *acc;
	int nacc;

	ptr = core_ptr(core);
	op = PyLong_AsVoidPtr(PyTuple_GET_ITEM(made, 4));
	acc = PyLong_AsVoidPtr(PyTuple_GET_ITEM(made, 5));
	nacc = (int)PyLong_AsLong(PyTuple_GET_ITEM(made, 3));
	if (!ptr || PyErr_Occurred())
		return -1;
	return issue_op_here(ptr, pipe, op, def->what, acc, nacc, def->api_str);
}

/*
 * Issue @def on @pipe over the tensors @t (dst, then the sources) and
 * @count, as ops.py's _op() does: return 0, -1 with an exception, or 1
 * when it is not the common case (nothing done: the Python op is to run).
 */
static int op_issue(const struct op_def *def, int pipe, PyObject *const *t, PyObject *count)
{
	PyObject *opnd[3] = { NULL, NULL, NULL }, *core, *ops = NULL, *entry = NULL;
	int n = def->nsrc + 1, i, ret = -1;
	long c;

	if (!PyLong_CheckExact(count))
		return 1;
	c = PyLong_AsLong(count);
	if (c <= 0) {
		PyErr_Clear();
		return 1;
	}
	core = kernel_core(def->api);
	if (!core)
		return -1;
	for (i = 0; i < n; i++) {
		opnd[i] = operand(t[i]);
		if (!opnd[i])
			goto out;
	}
	ops = PyObject_GetAttr(core, str_ops);
	if (!ops)
		goto out;
	if (!PyDict_CheckExact(ops)) {
		PyErr_SetString(PyExc_TypeError, "asc: a core's ops are no dict");
		goto out;
	}
	entry = op_entry(def, pipe, c, ops, t, opnd);
	if (!entry) {
		if (!PyErr_Occurred())
			ret = 0;
		goto out;
	}
	ret = op_call(def, pipe, core, entry);
out:
	Py_XDECREF(entry);
	Py_XDECREF(ops);
	for (i = 0; i < n; i++)
		Py_XDECREF(opnd[i]);
	Py_DECREF(core);
	return ret;
}

static bool ops_unbound(void)
{
	if (ob.checked)
		return false;
	PyErr_SetString(PyExc_RuntimeError, "asc._speedups: ops not bound (asc.ops binds them)");
	return true;
}

/*
 * The arguments of @def's call in @arg, as its Python code takes them;
 * return 0, -1 with an exception, or 1 for a call its Python code is to
 * make (and raise for).
 */
static int op_args(const struct op_def *def, PyObject *const *args, Py_ssize_t nargs,
		   PyObject *kwnames, PyObject **arg)
{
	if (ops_unbound())
		return -1;
	if (!kwnames && nargs >= def->nargs_min && nargs <= def->nargs) {
		memcpy(arg, args, nargs * sizeof(*arg));
		return 0;
	}
	if (fast_args(def->api, args, nargs, kwnames, def->names, def->nargs, def->nargs_min,
		      arg)) {
		PyErr_Clear();
		return 1;
	}
	return 0;
}

/* The op @which of a call: issued here in its common case, else by its Python code. */
static PyObject *run_op(enum op_which which, PyObject *const *args, Py_ssize_t nargs,
			PyObject *kwnames)
{
	const struct op_def *def = &op_defs[which];
	PyObject *arg[OP_ARGS_MAX];
	int pipe, rc;

	rc = op_args(def, args, nargs, kwnames, arg);
	if (rc < 0)
		return NULL;
	if (rc == 0) {
		pipe = def->pipe_of(arg);
		rc = pipe < 0 ? 1 : op_issue(def, pipe, arg, arg[def->nsrc + 1]);
	}
	if (rc < 0)
		return NULL;
	if (rc == 0)
		Py_RETURN_NONE;
	return PyObject_Vectorcall(ob.py[which], args, nargs, kwnames);
}

static PyObject *data_copy(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			   PyObject *kwnames)
{
	return run_op(OP_DATA_COPY, args, nargs, kwnames);
}

static PyObject *add(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
	return run_op(OP_ADD, args, nargs, kwnames);
}

static PyObject *mul(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
	return run_op(OP_MUL, args, nargs, kwnames);
}

/*
 * bind_ops(local_tensor, global_tensor, checked, op_args, py, kept): what
 * the ops use (see struct op_binding); py maps each op's name to its
 * Python code.
 */
static PyObject *bind_ops(PyObject *self, PyObject *args)
{
	struct op_binding b;
	PyObject *py, *fn;
	size_t i;

	if (ob.checked) {
		PyErr_Format(PyExc_RuntimeError, "%s(): bound already", __func__);
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "O!O!OOO!n", &PyType_Type, &b.local_tensor, &PyType_Type,
			      &b.global_tensor, &b.checked, &b.op_args, &PyDict_Type, &py, &b.kept))
		return NULL;
	for (i = 0; i < sizeof(op_defs) / sizeof(op_defs[0]); i++) {
		fn = PyDict_GetItemString(py, op_defs[i].api);
		if (!fn || !PyCallable_Check(fn)) {
			PyErr_Format(PyExc_KeyError, "%s(): no Python code of %s", __func__,
				     op_defs[i].api);
			return NULL;
		}
		b.py[i] = fn;
	}
	Py_INCREF(b.local_tensor);
	Py_INCREF(b.global_tensor);
	Py_INCREF(b.checked);
	Py_INCREF(b.op_args);
	for (i = 0; i < sizeof(op_defs) / sizeof(op_defs[0]); i++)
		Py_INCREF(b.py[i]);
	ob = b;
	Py_RETURN_NONE;
}

/* The first line of each is its signature, for inspect.signature(). */
PyDoc_STRVAR(data_copy_doc,
	     "data_copy(dst, src, count)\n--\n\n"
	     "Copy count elements: GM to local on MTE2, local to GM on MTE3.");
PyDoc_STRVAR(add_doc,
	     "add(dst, src0, src1, count, is_set_mask=True)\n--\n\n"
	     "dst = src0 + src1, count elements, on V.");
PyDoc_STRVAR(mul_doc,
	     "mul(dst, src0, src1, count, is_set_mask=True)\n--\n\n"
	     "dst = src0 * src1, count elements, on V.");
PyDoc_STRVAR(bind_ops_doc,
	     "bind_ops(local_tensor, global_tensor, checked, op_args, py, kept): "
	     "what the ops use, once.");

PyMethodDef op_methods[] = {
	{ "data_copy", (PyCFunction)(void (*)(void))data_copy, METH_FASTCALL | METH_KEYWORDS,
	  data_copy_doc },
	{ "add", (PyCFunction)(void (*)(void))add, METH_FASTCALL | METH_KEYWORDS, add_doc },
	{ "mul", (PyCFunction)(void (*)(void))mul, METH_FASTCALL | METH_KEYWORDS, mul_doc },
	{ "bind_ops", bind_ops, METH_VARARGS, bind_ops_doc },
	{ NULL, NULL, 0, NULL },
};

/* The interned names the ops use; return 0, or -1 with an exception. */
int op_names_init(void)
{
	struct {
		PyObject **str;
		const char *name;
	} names[] = {
		{ &str_opk, "_opk" }, { &str_opc, "_opc" }, { &str_operand, "_operand" },
		{ &str_tcore, "_core" }, { &str_alive, "alive" }, { &str_data, "data" },
		{ &str_tname, "name" }, { &str_ops, "ops" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		*names[i].str = PyUnicode_InternFromString(names[i].name);
		if (!*names[i].str)
			return -1;
	}
	for (i = 0; i < sizeof(op_defs) / sizeof(op_defs[0]); i++) {
		op_defs[i].api_str = PyUnicode_InternFromString(op_defs[i].api);
		if (!op_defs[i].api_str)
			return -1;
	}
	return 0;
}
