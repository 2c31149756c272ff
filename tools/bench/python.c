// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: Python's issued operation, against the C core runtime's.
 *
 * One round is 8 operations issued by a kernel: data_copy of TILE floats
 * GM -> UB (MTE2), set_flag and wait_flag MTE2_V, add (V), set_flag and
 * wait_flag V_MTE3, data_copy UB -> GM (MTE3), pipe_barrier(PIPE_ALL).
 * The Python subject is tools/bench/python-issue.py, the package asc of
 * the source tree, one python3 for all the runs of the figure, started at
 * the first (the time is taken in its kernel: no start of the interpreter
 * in it); the C subject is the
 * same kernel written with asc_core_issue(), asc_core_set_flag(),
 * asc_core_wait_flag() and asc_core_pipe_barrier(), its work declaring
 * the same accesses.  Both time the rounds after one warm-up round.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bench.h"

/* Rounds per run, before --quick's scale. */
#define PY_ROUNDS	300
/* Operations per round. */
#define PY_OPS		8
/* Floats per copy and add. */
#define PY_TILE		256

/**
 * struct py_kernel - the C kernel's memory and its result.
 * @x, @y, @z: global memory.
 * @xl, @yl, @zl: the local buffers.
 * @rounds: rounds timed.
 * @ns: out: their time.
 * @timed: out: the kernel got to the end of its timed part.
 */
struct py_kernel {
	float x[PY_TILE], y[PY_TILE], z[PY_TILE];
	float xl[PY_TILE], yl[PY_TILE], zl[PY_TILE];
	unsigned long rounds;
	double ns;
	bool timed;
};

static struct py_kernel py_mem;

static void copy_x_in(void *arg)
{
	struct py_kernel *k = arg;

	memcpy(k->xl, k->x, sizeof(k->xl));
}

static void copy_y_in(void *arg)
{
	struct py_kernel *k = arg;

	memcpy(k->yl, k->y, sizeof(k->yl));
}

static void add_z(void *arg)
{
	struct py_kernel *k = arg;
	int i;

	for (i = 0; i < PY_TILE; i++)
		k->zl[i] = k->xl[i] + k->yl[i];
}

static void copy_z_out(void *arg)
{
	struct py_kernel *k = arg;

	memcpy(k->z, k->zl, sizeof(k->z));
}

static int py_round(struct asc_core *c, struct py_kernel *k, int in_id, int out_id)
{
	struct asc_access in[2] = {
		{ k->x, sizeof(k->x), false, "x_gm" }, { k->xl, sizeof(k->xl), true, "x_local" },
	};
	struct asc_access add[3] = {
		{ k->xl, sizeof(k->xl), false, "x_local" },
		{ k->yl, sizeof(k->yl), false, "y_local" },
		{ k->zl, sizeof(k->zl), true, "z_local" },
	};
	struct asc_access out[2] = {
		{ k->zl, sizeof(k->zl), false, "z_local" }, { k->z, sizeof(k->z), true, "z_gm" },
	};

	if (asc_core_issue(c, ASC_PIPE_MTE2, copy_x_in, k, "data_copy", in, 2) < 0 ||
	    asc_core_set_flag(c, ASC_HARD_EVENT_MTE2_V, in_id) < 0 ||
	    asc_core_wait_flag(c, ASC_HARD_EVENT_MTE2_V, in_id) < 0 ||
	    asc_core_issue(c, ASC_PIPE_V, add_z, k, "add", add, 3) < 0 ||
	    asc_core_set_flag(c, ASC_HARD_EVENT_V_MTE3, out_id) < 0 ||
	    asc_core_wait_flag(c, ASC_HARD_EVENT_V_MTE3, out_id) < 0 ||
	    asc_core_issue(c, ASC_PIPE_MTE3, copy_z_out, k, "data_copy", out, 2) < 0 ||
	    asc_core_pipe_barrier(c, ASC_PIPE_ALL) < 0)
		return -1;
	return 0;
}

static void py_c_kernel(struct asc_core *c, void *arg)
{
	struct py_kernel *k = arg;
	struct asc_access y[2] = {
		{ k->y, sizeof(k->y), false, "y_gm" }, { k->yl, sizeof(k->yl), true, "y_local" },
	};
	int in_id, out_id;
	unsigned long i;
	double t0 = 0;

	in_id = asc_core_alloc_event_id(c, ASC_HARD_EVENT_MTE2_V);
	out_id = asc_core_alloc_event_id(c, ASC_HARD_EVENT_V_MTE3);
	if (in_id < 0 || out_id < 0 ||
	    asc_core_issue(c, ASC_PIPE_MTE2, copy_y_in, k, "data_copy", y, 2) < 0)
		return;
	for (i = 0; i <= k->rounds; i++) {
		if (i == 1)
			t0 = bench_now_ns();
		if (py_round(c, k, in_id, out_id) < 0)
			return;
	}
	k->ns = bench_now_ns() - t0;
	k->timed = true;
	asc_core_release_event_id(c, in_id, ASC_HARD_EVENT_MTE2_V);
	asc_core_release_event_id(c, out_id, ASC_HARD_EVENT_V_MTE3);
}

/* The C kernel: @iters operations, iters / PY_OPS rounds. */
static int py_c_time(void *ctx, unsigned long iters, double *ns)
{
	const struct asc_core_attr *attr = ctx;
	struct py_kernel *k = &py_mem;
	char *report = NULL;
	int i, err;

	for (i = 0; i < PY_TILE; i++) {
		k->x[i] = i;
		k->y[i] = 2;
	}
	k->rounds = iters / PY_OPS;
	k->timed = false;
	if (asc_core_run(py_c_kernel, k, attr, &report) < 0 || !k->timed) {
		err = k->timed ? errno : (errno ? errno : EPROTO);
		if (report)
			printf("# asc_core_run: %s", report);
		free(report);
		errno = err;
		return -1;
	}
	free(report);
	if (k->z[PY_TILE - 1] != PY_TILE - 1 + 2) {
		printf("# the C kernel: wrong result\n");
		errno = EPROTO;
		return -1;
	}
	*ns = k->ns;
	return 0;
}

/**
 * struct py_script - the Python subject: one interpreter for every run.
 * @python: the interpreter.
 * @script: tools/bench/python-issue.py of the source tree.
 * @pkg: lib/python of the source tree.
 * @lib: the libasc.so.1 of the build.
 * @pid: the interpreter running @script, from the first run on; 0 before.
 * @to: its standard input: one run's rounds per line.
 * @from: its standard output: one run's nanoseconds per line.
 */
struct py_script {
	const char *python;
	char script[PATH_MAX + 32];
	char pkg[PATH_MAX + 32];
	char lib[PATH_MAX + 32];
	pid_t pid;
	FILE *to, *from;
};

/*
 * The source tree of this program, build/tools/asc-bench: two levels above
 * its directory.  Return: 0, or -1.
 */
static int py_find(struct py_script *py)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -1;
	exe[n] = '\0';
	for (i = 0; i < 3; i++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	snprintf(py->script, sizeof(py->script), "%s/tools/bench/python-issue.py", exe);
	snprintf(py->pkg, sizeof(py->pkg), "%s/lib/python", exe);
	snprintf(py->lib, sizeof(py->lib), "%s/build/lib/libasc.so.1", exe);
	py->python = access("/usr/bin/python3", X_OK) ? "python3" : "/usr/bin/python3";
	return access(py->script, R_OK) || access(py->lib, R_OK) ? -1 : 0;
}

/*
 * Start the interpreter on the script, its stdin and stdout piped, the
 * package and libasc of the tree in the environment.  Return: 0, or -1.
 */
static int py_start(struct py_script *py)
{
	int in[2], out[2];

	if (setenv("PYTHONPATH", py->pkg, 1) < 0 || setenv("ASC_LIBASC", py->lib, 1) < 0 ||
	    pipe2(in, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) < 0)
		goto close_in;
	fflush(stdout);
	py->pid = fork();
	if (py->pid < 0)
		goto close_out;
	if (!py->pid) {
		if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0)
			_exit(127);
		execlp(py->python, py->python, py->script, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	py->to = fdopen(in[1], "w");
	if (!py->to)
		close(in[1]);
	py->from = fdopen(out[0], "r");
	if (!py->from)
		close(out[0]);
	return py->to && py->from ? 0 : -1;

close_out:
	close(out[0]);
	close(out[1]);
close_in:
	close(in[0]);
	close(in[1]);
	return -1;
}

/*
 * End the interpreter: the end of its input, then its exit.  Return: its
 * wait status, or -1 when it was never started or could not be waited for.
 */
static int py_stop(struct py_script *py)
{
	int status;

	if (py->pid <= 0)
		return -1;
	if (py->to)
		fclose(py->to);
	if (py->from)
		fclose(py->from);
	py->to = NULL;
	py->from = NULL;
	while (waitpid(py->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	py->pid = 0;
	return status;
}

/* The Python kernel: @iters operations, iters / PY_OPS rounds. */
static int py_python_time(void *ctx, unsigned long iters, double *ns)
{
	struct py_script *py = ctx;
	char line[128] = "";
	int status;

	if (!py->pid && py_start(py) < 0)
		return -1;
	if (fprintf(py->to, "%lu\n", iters / PY_OPS) < 0 || fflush(py->to) ||
	    !fgets(line, sizeof(line), py->from) || sscanf(line, "%lf", ns) != 1) {
		status = py_stop(py);
		printf("# %s: exit status %d, printed \"%.*s\"\n", py->script,
		       status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		       (int)strcspn(line, "\n"), line);
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/**
 * bench_python() - Python's issued operation and the C core runtime's.
 * @opts: the options.
 * @test: its TAP test number.
 * @goal: out: its row of the goals table (the ratio of the two).
 *
 * Return: 0, or -1 when the figure could not be measured.
 */
int bench_python(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal)
{
	static const char figure[] = "Python's issued operation";
	static struct py_script py;
	struct asc_core_attr attr = { .device = opts->device };
	struct bench_subject subj[2] = {
		{ .name = "Python asc (python-issue.py)", .fn = py_python_time, .ctx = &py },
		{ .name = "C asc_core_issue/set/wait/barrier", .fn = py_c_time, .ctx = &attr },
	};
	unsigned long rounds = PY_ROUNDS / opts->scale;
	sighandler_t old_pipe;
	int err, status;

	if (!rounds)
		rounds = 1;
	if (py_find(&py) < 0)
		return bench_fail(test, figure, "no tools/bench/python-issue.py or build/lib/libasc.so.1 beside the program");
	if (setenv("ASC_EVENT_DEV", opts->device, 1) < 0)
		return bench_fail(test, figure, "setenv");
	printf("# %s: median of %u runs of %lu rounds of %d operations each (min..max)\n",
	       figure, opts->runs, rounds, PY_OPS);
	/* An interpreter that ended early is an EPIPE of the next line, not a signal. */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	err = bench_compare(subj, rounds * PY_OPS, opts->runs, test, figure, "operation", goal);
	status = py_stop(&py);
	signal(SIGPIPE, old_pipe);
	if (!err && status) {
		printf("# %s: exit status %d at the end of its runs\n", py.script,
		       status > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return err;
}
