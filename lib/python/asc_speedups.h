/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the files of asc._speedups share: the module's binding to the
 * package and to libasc, and the helpers each call uses.
 */
#ifndef ASC_SPEEDUPS_H
#define ASC_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "asc.h"

/*
 * struct speedups - what bind() was given: set once at import of the
 * package, under the GIL, and kept for the life of the process (the
 * module is never unloaded).
 */
struct speedups {
	PyObject *local;		/* asc.runtime._local */
	PyObject *current_core;		/* asc.runtime.current_core */
	PyObject *hard_event;		/* asc.enums.HardEvent */
	PyObject *pipe_id;		/* asc.enums.PipeID */
	PyObject *files;		/* asc.where._files: code -> file or None */
	PyObject *file_of;		/* asc.where._file(frame) */
	PyObject *error;		/* asc.errors.error(errno, what) */
	__typeof__(asc_core_set_flag_at) *set_flag_at;
	__typeof__(asc_core_wait_flag_at) *wait_flag_at;
	__typeof__(asc_core_pipe_barrier_at) *pipe_barrier_at;
	__typeof__(asc_core_issue_op_at) *issue_op_at;
};

extern struct speedups sp;

PyObject *kernel_core(const char *api);
void *core_ptr(PyObject *core);
int issue_op_here(void *ptr, int pipe, const void *op, const char *what, const void *acc,
		  int nacc, PyObject *api);
int fast_args(const char *api, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
	      const char *const *names, int n, int min, PyObject **out);

extern PyMethodDef op_methods[];
int op_names_init(void);

#endif /* ASC_SPEEDUPS_H */
