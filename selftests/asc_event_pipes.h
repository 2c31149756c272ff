/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the asc_event selftests of pipe roles, checked mode, deadlock
 * detection, leak reports and observability (issue 4).
 *
 * - The pipe table (names); the HardEvent tables are asc_event_events.h.
 * - Raw ioctl wrappers for BIND_PIPE, GET_MODE and SET_MODE in the style of
 *   asc_event_test.h: 0 (or the mode) on success, -errno on failure.
 * - struct asc_worker: a thread that runs the ioctls the test hands it, one
 *   at a time, so a test can speak for several pipes (a binding belongs to
 *   the calling thread) and keep one of them blocked in a wait.
 * - The module-wide counters of /sys/class/misc/asc_event/stats.
 * - The kernel log: the "asc_event:" lines logged since a point.
 * - The debugfs file of a TPipe and its serial number.
 * - Small text helpers (a growing buffer, line search).
 *
 * Only static inline functions and macros live here.  Nothing in here uses
 * ASSERT_*() except the functions that take the harness's @_metadata.
 */
#ifndef ASC_EVENT_PIPES_H
#define ASC_EVENT_PIPES_H

#include "asc_event_test.h"
#include "asc_event_events.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/vfs.h>

#include <linux/magic.h>

/* ---- pipes and HardEvents ------------------------------------------------ */

/** ASC_NR_PIPES - the pipes a thread can bind to. */
#define ASC_NR_PIPES	7

/**
 * asc_pipe_at() - the @i-th pipe, in ASC_EVENT_PIPE_* order.
 * @i: 0 .. %ASC_NR_PIPES - 1.
 *
 * Return: its ASC_EVENT_PIPE_* number.
 */
static inline int asc_pipe_at(int i)
{
	static const int pipes[ASC_NR_PIPES] = {
		ASC_EVENT_PIPE_S, ASC_EVENT_PIPE_V, ASC_EVENT_PIPE_M, ASC_EVENT_PIPE_MTE1,
		ASC_EVENT_PIPE_MTE2, ASC_EVENT_PIPE_MTE3, ASC_EVENT_PIPE_FIX,
	};

	return pipes[i];
}

/**
 * asc_pipe_name() - the name of a pipe as the driver prints it.
 * @pipe: ASC_EVENT_PIPE_* or %ASC_EVENT_PIPE_NONE.
 *
 * Return: "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"; "-" for
 * %ASC_EVENT_PIPE_NONE; "?" for anything else.
 */
static inline const char *asc_pipe_name(int pipe)
{
	switch (pipe) {
	case ASC_EVENT_PIPE_S: return "S";
	case ASC_EVENT_PIPE_V: return "V";
	case ASC_EVENT_PIPE_M: return "M";
	case ASC_EVENT_PIPE_MTE1: return "MTE1";
	case ASC_EVENT_PIPE_MTE2: return "MTE2";
	case ASC_EVENT_PIPE_MTE3: return "MTE3";
	case ASC_EVENT_PIPE_FIX: return "FIX";
	case ASC_EVENT_PIPE_NONE: return "-";
	}
	return "?";
}

/* ---- ioctls of issue 4 --------------------------------------------------- */

/**
 * asc_bind_flags() - %ASC_EVENT_IOC_BIND_PIPE with explicit flags.
 * @fd: open device.
 * @pipe: ASC_EVENT_PIPE_*, %ASC_EVENT_PIPE_NONE or anything (to test validation).
 * @flags: the flags field.
 *
 * Return: 0 or -errno.
 */
static inline int asc_bind_flags(int fd, int pipe, __u32 flags)
{
	struct asc_event_bind bind = { .pipe = pipe, .flags = flags };

	return asc_ioctl(fd, ASC_EVENT_IOC_BIND_PIPE, &bind);
}

/**
 * asc_bind() - bind the calling thread to @pipe on @fd's TPipe.
 * @fd: open device.
 * @pipe: ASC_EVENT_PIPE_* or %ASC_EVENT_PIPE_NONE.
 *
 * Return: 0 or -errno.
 */
static inline int asc_bind(int fd, int pipe)
{
	return asc_bind_flags(fd, pipe, 0);
}

/**
 * asc_get_mode() - %ASC_EVENT_IOC_GET_MODE.
 * @fd: open device.
 *
 * Return: the mode (ASC_EVENT_MODE_* bits, never negative), -errno, or
 * -EPROTO when the driver wrote a non-zero pad.
 */
static inline int asc_get_mode(int fd)
{
	struct asc_event_mode mode = { .mode = 0xdeadbeef, .pad = 0xdeadbeef };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_GET_MODE, &mode);

	if (ret)
		return ret;
	if (mode.pad)
		return -EPROTO;
	return (int)(mode.mode & INT_MAX);
}

/**
 * asc_set_mode_pad() - %ASC_EVENT_IOC_SET_MODE with an explicit pad.
 * @fd: open device.
 * @mode: ASC_EVENT_MODE_* bits (or others, to test validation).
 * @pad: the pad field.
 *
 * Return: 0 or -errno.
 */
static inline int asc_set_mode_pad(int fd, __u32 mode, __u32 pad)
{
	struct asc_event_mode m = { .mode = mode, .pad = pad };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_MODE, &m);
}

/**
 * asc_set_mode() - %ASC_EVENT_IOC_SET_MODE.
 * @fd: open device.
 * @mode: ASC_EVENT_MODE_* bits.
 *
 * Return: 0 or -errno.
 */
static inline int asc_set_mode(int fd, __u32 mode)
{
	return asc_set_mode_pad(fd, mode, 0);
}

/**
 * asc_set_comm() - name the calling thread (and so a process that has
 * only this thread) as the kernel reports it.
 * @comm: at most 15 characters.
 */
static inline void asc_set_comm(const char *comm)
{
	prctl(PR_SET_NAME, (unsigned long)comm, 0, 0, 0);
}

/* ---- worker threads ------------------------------------------------------ */

/*
 * What a worker runs.  Each is one ioctl on the worker's fd (ALLOC and FETCH
 * return the ID), except QUIT, which ends the thread.
 */
enum asc_op {
	ASC_OP_BIND,		/* a = pipe */
	ASC_OP_ALLOC,		/* a = event */
	ASC_OP_FETCH,		/* a = event */
	ASC_OP_RELEASE,		/* a = event, b = id */
	ASC_OP_SET,		/* a = event, b = id */
	ASC_OP_WAIT,		/* a = event, b = id, deadline */
	ASC_OP_RESET,
	ASC_OP_EXECUTE,		/* a = ticket, deadline */
	ASC_OP_QUIT,
};

/** ASC_WORKER_BUSY - what asc_worker_do() returns when the op did not end. */
#define ASC_WORKER_BUSY		INT_MIN

/** ASC_WORKER_MS - how long a synchronous worker op may take. */
#define ASC_WORKER_MS		5000

/**
 * struct asc_worker - a thread that runs one ioctl at a time for the test.
 *
 * The test posts an op (asc_worker_post()), the thread runs it, after
 * sleeping @delay_ms first when asked, and records the result; the test
 * collects it with asc_worker_result() or does both with asc_worker_do().
 * @posted and @done count ops, so "@done == @posted" means idle.  All fields
 * but @tid are under @lock.  The thread keeps its TID, hence its bindings,
 * until asc_worker_stop().
 *
 * @thread: the thread.
 * @lock: protects the fields below.
 * @cond: signalled on every post and every completion.
 * @fd: device for the ops.
 * @op: enum asc_op of the last posted op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: deadline of an %ASC_OP_WAIT.
 * @delay_ms: sleep before the ioctl.
 * @posted: ops posted so far.
 * @done: ops finished so far.
 * @ret: result of the last finished op: ID, 0 or -errno.
 * @start_ns: CLOCK_MONOTONIC when the last op's ioctl started.
 * @end_ns: CLOCK_MONOTONIC when the last op finished.
 * @tid: the thread's TID (0 until it runs).
 * @running: the thread exists and has not been joined.
 */
struct asc_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int fd;
	int op;
	int a;
	int b;
	__u64 deadline;
	unsigned int delay_ms;
	unsigned int posted;
	unsigned int done;
	int ret;
	__u64 start_ns;
	__u64 end_ns;
	atomic_int tid;
	bool running;
};

/**
 * asc_issue() - %ASC_EVENT_IOC_ISSUE.
 * @fd: open device.
 * @op: %ASC_EVENT_OP_SET or %ASC_EVENT_OP_WAIT (or anything, to test).
 * @event: HardEvent.
 * @id: event ID.
 *
 * Return: the ticket (positive), or -errno.
 */
static inline long long asc_issue(int fd, __u32 op, int event, int id)
{
	struct asc_event_issue is = { .op = op, .event = event, .id = id };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_ISSUE, &is);

	return ret ? ret : (long long)is.ticket;
}

/**
 * asc_execute() - %ASC_EVENT_IOC_EXECUTE.
 * @fd: open device.
 * @ticket: from asc_issue().
 * @deadline: for a wait.
 *
 * Return: 0 or -errno.
 */
static inline int asc_execute(int fd, long long ticket, __u64 deadline)
{
	struct asc_event_execute ex = { .ticket = (__u64)ticket, .deadline = deadline };

	return asc_ioctl(fd, ASC_EVENT_IOC_EXECUTE, &ex);
}

/**
 * asc_worker_run_op() - run one op on @fd from the calling thread.
 * @fd: device.
 * @op: enum asc_op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: for %ASC_OP_WAIT.
 *
 * Return: what the ioctl wrapper returned.
 */
static inline int asc_worker_run_op(int fd, int op, int a, int b, __u64 deadline)
{
	switch (op) {
	case ASC_OP_BIND: return asc_bind(fd, a);
	case ASC_OP_ALLOC: return asc_alloc(fd, a);
	case ASC_OP_FETCH: return asc_fetch(fd, a);
	case ASC_OP_RELEASE: return asc_release(fd, a, b);
	case ASC_OP_SET: return asc_set(fd, a, b);
	case ASC_OP_WAIT: return asc_wait(fd, a, b, deadline);
	case ASC_OP_RESET: return asc_reset(fd, NULL);
	case ASC_OP_EXECUTE: return asc_execute(fd, a, deadline);
	}
	return -ENOSYS;
}

/**
 * asc_worker_fn() - body of a worker thread.
 * @arg: the struct asc_worker.
 *
 * Return: NULL.
 */
static inline void *asc_worker_fn(void *arg)
{
	struct asc_worker *w = arg;
	int op, a, b, fd, ret;
	unsigned int delay;
	__u64 deadline, start;

	atomic_store(&w->tid, asc_gettid());
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->done == w->posted)
			pthread_cond_wait(&w->cond, &w->lock);
		op = w->op;
		if (op == ASC_OP_QUIT)
			break;
		fd = w->fd;
		a = w->a;
		b = w->b;
		deadline = w->deadline;
		delay = w->delay_ms;
		pthread_mutex_unlock(&w->lock);

		if (delay)
			asc_sleep_ms(delay);
		start = asc_now_ns();
		ret = asc_worker_run_op(fd, op, a, b, deadline);

		pthread_mutex_lock(&w->lock);
		w->ret = ret;
		w->start_ns = start;
		w->end_ns = asc_now_ns();
		w->done++;
		pthread_cond_broadcast(&w->cond);
	}
	w->done++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/**
 * asc_worker_start() - start a worker on @fd and wait until it runs.
 * @w: worker to initialise.
 * @fd: device for its ops.
 *
 * Return: 0 or an error number.
 */
static inline int asc_worker_start(struct asc_worker *w, int fd)
{
	pthread_condattr_t attr;
	int err;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	err = pthread_create(&w->thread, NULL, asc_worker_fn, w);
	if (err)
		return err;
	w->running = true;
	while (!atomic_load(&w->tid))
		asc_sleep_ms(1);
	return 0;
}

/**
 * asc_worker_set_fd() - make an idle worker's next ops go to @fd.
 * @w: a started, idle worker.
 * @fd: device.
 */
static inline void asc_worker_set_fd(struct asc_worker *w, int fd)
{
	pthread_mutex_lock(&w->lock);
	w->fd = fd;
	pthread_mutex_unlock(&w->lock);
}

/**
 * asc_worker_post() - hand an op to an idle worker and return at once.
 * @w: a started worker.
 * @op: enum asc_op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: for %ASC_OP_WAIT.
 * @delay_ms: sleep this long before the ioctl.
 *
 * Return: 0, or -EBUSY while the previous op runs.
 */
static inline int asc_worker_post(struct asc_worker *w, int op, int a, int b,
				  __u64 deadline, unsigned int delay_ms)
{
	pthread_mutex_lock(&w->lock);
	if (w->done != w->posted) {
		pthread_mutex_unlock(&w->lock);
		return -EBUSY;
	}
	w->op = op;
	w->a = a;
	w->b = b;
	w->deadline = deadline;
	w->delay_ms = delay_ms;
	w->posted++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

/**
 * asc_worker_result() - wait for the posted op to finish.
 * @w: a started worker.
 * @timeout_ms: how long to wait.
 *
 * Return: the op's result, or %ASC_WORKER_BUSY when it is still running.
 */
static inline int asc_worker_result(struct asc_worker *w, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);
	struct timespec ts = {
		.tv_sec = (time_t)(end / ASC_NSEC_PER_SEC),
		.tv_nsec = (long)(end % ASC_NSEC_PER_SEC),
	};
	int ret;

	pthread_mutex_lock(&w->lock);
	while (w->done != w->posted) {
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
			break;
	}
	ret = w->done == w->posted ? w->ret : ASC_WORKER_BUSY;
	pthread_mutex_unlock(&w->lock);
	return ret;
}

/**
 * asc_worker_idle() - has the posted op finished?
 * @w: a started worker.
 *
 * Return: true when the worker is idle.
 */
static inline bool asc_worker_idle(struct asc_worker *w)
{
	bool idle;

	pthread_mutex_lock(&w->lock);
	idle = w->done == w->posted;
	pthread_mutex_unlock(&w->lock);
	return idle;
}

/**
 * asc_worker_do() - run an op on the worker and wait for its result.
 * @w: a started, idle worker.
 * @op: enum asc_op.
 * @a: first argument.
 * @b: second argument.
 * @deadline: for %ASC_OP_WAIT.
 *
 * Return: the op's result, %ASC_WORKER_BUSY when it did not finish within
 * %ASC_WORKER_MS or -EBUSY when the worker was not idle.
 */
static inline int asc_worker_do(struct asc_worker *w, int op, int a, int b, __u64 deadline)
{
	int ret = asc_worker_post(w, op, a, b, deadline, 0);

	return ret ? ret : asc_worker_result(w, ASC_WORKER_MS);
}

/**
 * asc_worker_blocked() - wait until the worker sleeps in its ioctl.
 * @w: a worker with a posted op.
 * @timeout_ms: give up after this long.
 *
 * Return: true when it is blocked in the ioctl and its op has not ended.
 */
static inline bool asc_worker_blocked(struct asc_worker *w, unsigned int timeout_ms)
{
	return asc_wait_in_ioctl(getpid(), atomic_load(&w->tid), timeout_ms) &&
	       !asc_worker_idle(w);
}

/**
 * asc_task_gone() - wait until thread @tid of this process has left /proc.
 * @tid: thread ID.
 * @timeout_ms: give up after this long.
 *
 * Return: true once /proc/self/task/TID is gone.
 */
static inline bool asc_task_gone(pid_t tid, unsigned int timeout_ms)
{
	__u64 end = asc_deadline_ms(timeout_ms);
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	while (access(path, F_OK) == 0) {
		if (asc_now_ns() > end)
			return false;
		asc_sleep_ms(1);
	}
	return true;
}

/**
 * asc_worker_stop() - end an idle worker's thread and reap it completely.
 * @w: a started worker; a no-op when it is not running.
 *
 * Waits up to %ASC_WORKER_MS for a running op first.  Returns once the
 * thread has exited and left /proc, so the driver sees it gone.
 *
 * Return: 0, or -EBUSY when the thread did not end.
 */
static inline int asc_worker_stop(struct asc_worker *w)
{
	struct timespec ts;
	pid_t tid = atomic_load(&w->tid);

	if (!w->running)
		return 0;
	if (asc_worker_result(w, ASC_WORKER_MS) == ASC_WORKER_BUSY)
		return -EBUSY;
	asc_worker_post(w, ASC_OP_QUIT, 0, 0, 0, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ASC_WORKER_MS / 1000;
	if (pthread_timedjoin_np(w->thread, NULL, &ts))
		return -EBUSY;
	w->running = false;
	return asc_task_gone(tid, ASC_WORKER_MS) ? 0 : -EBUSY;
}

/**
 * asc_workers_start() - start @n workers on @fd, failing the test if one
 * cannot start.
 * @_metadata: the harness's test metadata.
 * @w: array of @n workers.
 * @n: how many.
 * @fd: device for their ops.
 */
static inline void asc_workers_start(struct __test_metadata *_metadata,
				     struct asc_worker *w, int n, int fd)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, asc_worker_start(&w[i], fd));
	}
}

/**
 * asc_workers_stop() - stop every running worker of @w, for a teardown.
 * @w: array of @n workers.
 * @n: how many.
 * @fd: their device: reset once when a worker is still blocked (a test
 *	that failed half-way), which cancels its wait.
 */
static inline void asc_workers_stop(struct asc_worker *w, int n, int fd)
{
	bool reset = false;
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].running && !asc_worker_idle(&w[i]) && !reset && fd >= 0) {
			asc_reset(fd, NULL);
			reset = true;
		}
	}
	for (i = 0; i < n; i++)
		asc_worker_stop(&w[i]);
}

/*
 * Shorthands: run one op on worker W and return its result.  W is a
 * struct asc_worker pointer.
 */
#define W_BIND(w, pipe)			asc_worker_do((w), ASC_OP_BIND, (pipe), 0, 0)
#define W_ALLOC(w, ev)			asc_worker_do((w), ASC_OP_ALLOC, (ev), 0, 0)
#define W_FETCH(w, ev)			asc_worker_do((w), ASC_OP_FETCH, (ev), 0, 0)
#define W_RELEASE(w, ev, id)		asc_worker_do((w), ASC_OP_RELEASE, (ev), (id), 0)
#define W_SET(w, ev, id)		asc_worker_do((w), ASC_OP_SET, (ev), (id), 0)
#define W_WAIT(w, ev, id, dl)		asc_worker_do((w), ASC_OP_WAIT, (ev), (id), (dl))
/* Start a wait on W and return at once (0, or -EBUSY if W is busy). */
#define W_WAIT_POST(w, ev, id, dl)	asc_worker_post((w), ASC_OP_WAIT, (ev), (id), (dl), 0)
#define W_EXEC(w, t)			asc_worker_do((w), ASC_OP_EXECUTE, (int)(t), 0, \
					      ASC_EVENT_WAIT_FOREVER)
#define W_EXEC_POST(w, t, dl)		asc_worker_post((w), ASC_OP_EXECUTE, (int)(t), 0, (dl), 0)

/* ---- text ------------------------------------------------------------------ */

/**
 * struct asc_text - a growing, NUL-terminated text buffer.
 * @buf: the text (NULL while empty and never written).
 * @len: its length.
 * @size: bytes allocated.
 */
struct asc_text {
	char *buf;
	size_t len;
	size_t size;
};

/**
 * asc_text_add() - append @n bytes to @t.
 * @t: buffer.
 * @s: bytes.
 * @n: how many.
 */
static inline void asc_text_add(struct asc_text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->size) {
		size_t size = t->size ? t->size : 4096;
		char *buf;

		while (size < t->len + n + 1)
			size *= 2;
		buf = realloc(t->buf, size);
		if (!buf)
			abort();
		t->buf = buf;
		t->size = size;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/**
 * asc_text_printf() - append formatted text to @t.
 * @t: buffer.
 * @fmt: printf format, then its arguments.
 */
static inline __attribute__((format(printf, 2, 3)))
void asc_text_printf(struct asc_text *t, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		asc_text_add(t, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/**
 * asc_text_str() - the text so far.
 * @t: buffer.
 *
 * Return: the text, "" when empty.
 */
static inline const char *asc_text_str(const struct asc_text *t)
{
	return t->buf ? t->buf : "";
}

/**
 * asc_text_free() - free @t's buffer and make it empty.
 * @t: buffer.
 */
static inline void asc_text_free(struct asc_text *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/**
 * asc_count_lines() - lines of @text that start with @prefix.
 * @text: newline-separated lines.
 * @prefix: what a counted line starts with.
 *
 * Return: how many.
 */
static inline int asc_count_lines(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;
	int count = 0;

	while (*p) {
		if (!strncmp(p, prefix, n))
			count++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return count;
}

/**
 * asc_count_line() - lines of @text equal to @line.
 * @text: newline-separated lines.
 * @line: the whole line, without its newline.
 *
 * Return: how many.
 */
static inline int asc_count_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;
	int count = 0;

	while (*p) {
		if (!strncmp(p, line, n) && (p[n] == '\n' || p[n] == '\0'))
			count++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return count;
}

/**
 * asc_read_file() - read a whole (small) file into @t.
 * @path: file.
 * @t: buffer, emptied first.
 *
 * Return: 0 or -errno.
 */
static inline int asc_read_file(const char *path, struct asc_text *t)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	asc_text_free(t);
	asc_text_add(t, "", 0);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		asc_text_add(t, buf, (size_t)n);
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/**
 * asc_write_file() - write @s to @path (sysfs, tracefs).
 * @path: file.
 * @s: what to write.
 *
 * Return: 0 or -errno.
 */
static inline int asc_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	size_t n = strlen(s);

	if (fd < 0)
		return -errno;
	errno = EIO;
	if (write(fd, s, n) != (ssize_t)n)
		ret = -errno;
	close(fd);
	return ret;
}

/* ---- module-wide counters -------------------------------------------------- */

/** ASC_STATS_DIR - the counters' directory. */
#define ASC_STATS_DIR	"/sys/class/misc/asc_event/stats"

/* The counters, in the order of asc_stat_name(). */
enum asc_stat {
	ST_TPIPES_OPEN,
	ST_TPIPES_CREATED,
	ST_OPS,
	ST_ERR_INVALID,
	ST_ERR_NO_SPACE,
	ST_ERR_NOT_ALLOCATED,
	ST_ERR_DOUBLE_SET,
	ST_ERR_BUSY_PIPE,
	ST_ERR_WRONG_PIPE,
	ST_ERR_TIMEOUT,
	ST_ERR_CANCELED,
	ST_ERR_INTERRUPTED,
	ST_ERR_DEADLOCK,
	ST_ERR_FAULT,
	ST_ERR_UNKNOWN_IOCTL,
	ST_DEADLOCKS,
	ST_LEAK_REPORTS,
	ST_LEAKED_IDS,
	ST_LEAKED_FLAGS,
	ST_REPORTS_SUPPRESSED,
	ASC_NR_STATS
};

/**
 * asc_stat_name() - file name of a counter.
 * @i: enum asc_stat.
 *
 * Return: the name.
 */
static inline const char *asc_stat_name(int i)
{
	static const char *const names[ASC_NR_STATS] = {
		"tpipes_open", "tpipes_created", "ops", "err_invalid", "err_no_space",
		"err_not_allocated", "err_double_set", "err_busy_pipe", "err_wrong_pipe",
		"err_timeout", "err_canceled", "err_interrupted", "err_deadlock",
		"err_fault", "err_unknown_ioctl", "deadlocks", "leak_reports",
		"leaked_ids", "leaked_flags", "reports_suppressed",
	};

	return names[i];
}

/**
 * struct asc_stats - one reading of every counter.
 * @v: the values; -1 for a counter that could not be read.
 */
struct asc_stats {
	long long v[ASC_NR_STATS];
};

/**
 * asc_stat_read() - read one counter.
 * @name: its file name.
 *
 * Return: the value, -errno when the file cannot be read, -EPROTO when it
 * is not a decimal number and a newline.
 */
static inline long long asc_stat_read(const char *name)
{
	char path[128], buf[64], *end;
	long long v;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", ASC_STATS_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n < 2 || buf[n - 1] != '\n' || buf[0] < '0' || buf[0] > '9')
		return -EPROTO;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end != '\n')
		return -EPROTO;
	return v;
}

/**
 * asc_stats_read() - read every counter.
 * @_metadata: the harness's test metadata; a missing counter fails the test.
 * @s: filled in.
 */
static inline void asc_stats_read(struct __test_metadata *_metadata, struct asc_stats *s)
{
	int i;

	for (i = 0; i < ASC_NR_STATS; i++) {
		s->v[i] = asc_stat_read(asc_stat_name(i));
		ASSERT_LE(0, s->v[i]) {
			TH_LOG("%s/%s: %s", ASC_STATS_DIR, asc_stat_name(i),
			       strerror((int)-s->v[i]));
		}
	}
}

/**
 * asc_stats_check() - assert how much every counter moved.
 * @_metadata: the harness's test metadata.
 * @before: an earlier reading.
 * @delta: expected change of every counter (index enum asc_stat); the
 *	counters not named in a designated initializer must not move.
 * @what: what happened in between, for the log.
 *
 * Reads the counters again and fails the test, listing every counter that
 * moved differently, when any does.
 */
static inline void asc_stats_check(struct __test_metadata *_metadata,
				   const struct asc_stats *before,
				   const long long delta[ASC_NR_STATS], const char *what)
{
	struct asc_stats after;
	struct asc_text bad = { 0 };
	int i;

	asc_stats_read(_metadata, &after);
	for (i = 0; i < ASC_NR_STATS; i++) {
		if (after.v[i] - before->v[i] != delta[i])
			asc_text_printf(&bad, " %s %+lld (expected %+lld);", asc_stat_name(i),
					after.v[i] - before->v[i], delta[i]);
	}
	ASSERT_EQ(0, (int)bad.len) TH_LOG("%s: counters:%s", what, asc_text_str(&bad));
}

/**
 * ASC_STATS_EXPECT() - assert the counters moved by exactly the deltas given.
 * @before: struct asc_stats read before.
 * @what: description for the log.
 * @...: designated initializers of the deltas, e.g. [ST_OPS] = 2.
 */
#define ASC_STATS_EXPECT(before, what, ...) do {			\
	const long long __delta[ASC_NR_STATS] = { __VA_ARGS__ };	\
									\
	asc_stats_check(_metadata, &(before), __delta, (what));	\
} while (0)

/* ---- kernel log ------------------------------------------------------------ */

/**
 * struct asc_kmsg - a reader of /dev/kmsg from a point on.
 * @fd: /dev/kmsg, or -1.
 */
struct asc_kmsg {
	int fd;
};

/**
 * asc_kmsg_decode() - one /dev/kmsg record's message, unescaped.
 * @rec: the record ("prio,seq,usec,flags;text\n" and " KEY=value" lines).
 * @out: appended: the text, one line per line of the message.
 * @usec: receives the record's timestamp; may be NULL.
 */
static inline void asc_kmsg_decode(const char *rec, struct asc_text *out,
				   unsigned long long *usec)
{
	const char *p = strchr(rec, ';'), *c;
	unsigned int x;

	if (usec) {
		c = strchr(rec, ',');
		c = c ? strchr(c + 1, ',') : NULL;
		*usec = c ? strtoull(c + 1, NULL, 10) : 0;
	}
	if (!p)
		return;
	for (p++; *p && *p != '\n'; p++) {
		if (p[0] == '\\' && p[1] == 'x' && sscanf(p + 2, "%2x", &x) == 1) {
			char ch = (char)x;

			asc_text_add(out, &ch, 1);
			p += 3;
			continue;
		}
		asc_text_add(out, p, 1);
	}
	asc_text_add(out, "\n", 1);
}

/**
 * asc_kmsg_open() - start reading the kernel log from now on.
 * @k: reader.
 *
 * Return: 0 or -errno.
 */
static inline int asc_kmsg_open(struct asc_kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		close(k->fd);
		k->fd = -1;
		return -errno;
	}
	return 0;
}

/**
 * asc_kmsg_read() - the log lines written since the last read (or open).
 * @k: an open reader.
 * @out: emptied, then the lines that start with @prefix, each with its
 *	newline.  A message of several lines counts line by line.
 * @prefix: e.g. "asc_event:"; "" for every line.
 *
 * Return: the number of lines in @out.
 */
static inline int asc_kmsg_read(struct asc_kmsg *k, struct asc_text *out, const char *prefix)
{
	struct asc_text all = { 0 };
	char rec[8192];
	const char *p;
	size_t n = strlen(prefix);
	ssize_t len;
	int lines = 0;

	asc_text_free(out);
	asc_text_add(out, "", 0);
	for (;;) {
		len = read(k->fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on with the next */
		if (len <= 0)
			break;
		rec[len] = '\0';
		asc_kmsg_decode(rec, &all, NULL);
	}
	for (p = asc_text_str(&all); *p; ) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (!strncmp(p, prefix, n)) {
			asc_text_add(out, p, l);
			lines++;
		}
		p += l;
	}
	asc_text_free(&all);
	return lines;
}

/**
 * asc_kmsg_close() - close the reader.
 * @k: reader.
 */
static inline void asc_kmsg_close(struct asc_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/** ASC_RATELIMIT_MS - the kernel's default rate-limit interval, plus margin. */
#define ASC_RATELIMIT_MS	5300

/** ASC_RATELIMIT_BURST - the kernel's default rate-limit burst. */
#define ASC_RATELIMIT_BURST	10

/**
 * asc_kmsg_settle() - make room in the driver's log rate limit.
 * @prefix: what a report's first line starts with.
 * @needed: how many reports the caller is about to count.
 *
 * The driver's reports are rate-limited; a test that counts them must not
 * run while a burst of reports by earlier tests still counts.  Assuming
 * the kernel's default limit (%ASC_RATELIMIT_BURST per interval of at most
 * %ASC_RATELIMIT_MS), this counts the reports logged in the last
 * %ASC_RATELIMIT_MS (timestamps compared with a marker written to the log
 * now) and, when @needed more would not fit, sleeps until the newest is
 * that old.  A suppressed report implies a full burst printed in the same
 * interval, so what is printed tells the whole story.
 */
static inline void asc_kmsg_settle(const char *prefix, int needed)
{
	unsigned long long ts, now = 0, last = 0, *times = NULL;
	size_t ntimes = 0, cap = 0, i, plen = strlen(prefix);
	struct asc_text msg = { 0 };
	char rec[8192], marker[64];
	int fd, recent = 0;
	ssize_t len;

	snprintf(marker, sizeof(marker), "asc_event_selftest: settle %d\n", getpid());
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = write(fd, marker, strlen(marker));
	close(fd);
	if (len < 0)
		return;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		asc_text_free(&msg);
		asc_kmsg_decode(rec, &msg, &ts);
		if (!strncmp(asc_text_str(&msg), prefix, plen)) {
			if (ntimes == cap) {
				cap = cap ? cap * 2 : 256;
				times = realloc(times, cap * sizeof(*times));
				if (!times)
					abort();
			}
			times[ntimes++] = ts;
		} else if (!strncmp(asc_text_str(&msg), marker, strlen(marker) - 1)) {
			now = ts;
		}
	}
	close(fd);
	asc_text_free(&msg);
	for (i = 0; i < ntimes && now; i++) {
		if (times[i] <= now && now - times[i] < ASC_RATELIMIT_MS * 1000ULL) {
			recent++;
			if (times[i] > last)
				last = times[i];
		}
	}
	free(times);
	if (recent + needed > ASC_RATELIMIT_BURST)
		asc_sleep_ms((unsigned int)((last + ASC_RATELIMIT_MS * 1000ULL - now) / 1000));
}

/* ---- debugfs --------------------------------------------------------------- */

/** ASC_DEBUGFS_DIR - the driver's debugfs directory. */
#define ASC_DEBUGFS_DIR	"/sys/kernel/debug/asc_event"

/**
 * asc_fs_is() - is the filesystem at @path of type @magic?
 * @path: a mount point.
 * @magic: statfs f_type, e.g. %DEBUGFS_MAGIC.
 *
 * Return: true if so.
 */
static inline bool asc_fs_is(const char *path, long magic)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && (long)sfs.f_type == magic;
}

/**
 * asc_debugfs_mounted() - is debugfs at /sys/kernel/debug?
 *
 * Mounts it when it is not (the tests run as root in a test guest).
 *
 * Return: true when debugfs is there.
 */
static inline bool asc_debugfs_mounted(void)
{
	if (asc_fs_is("/sys/kernel/debug", DEBUGFS_MAGIC))
		return true;
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	return asc_fs_is("/sys/kernel/debug", DEBUGFS_MAGIC);
}

/**
 * asc_serials() - the serials of the TPipes with a debugfs file now.
 * @set: bitmap of serials below @max, filled in.
 * @max: size of @set in bits.
 *
 * Return: the highest serial seen, 0 when none, -errno when the directory
 * cannot be read.
 */
static inline int asc_serials(unsigned char *set, int max)
{
	DIR *d = opendir(ASC_DEBUGFS_DIR);
	struct dirent *de;
	int n, high = 0;

	if (!d)
		return -errno;
	memset(set, 0, (size_t)(max + 7) / 8);
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "tpipe-%d", &n) != 1 || n <= 0)
			continue;
		if (n > high)
			high = n;
		if (n < max)
			set[n / 8] |= (unsigned char)(1u << (n % 8));
	}
	closedir(d);
	return high;
}

/** ASC_MAX_SERIAL - serials asc_open_serial() can tell apart. */
#define ASC_MAX_SERIAL	(1 << 20)

/**
 * asc_open_serial() - open the device and learn its TPipe's serial.
 * @serial: receives the serial (the N of debugfs tpipe-N), or -1 when
 *	debugfs cannot tell.
 *
 * Return: the fd, or -1 with errno set.
 */
static inline int asc_open_serial(int *serial)
{
	static unsigned char before[ASC_MAX_SERIAL / 8], after[ASC_MAX_SERIAL / 8];
	int fd, n, found = -1, hb, ha;

	*serial = -1;
	hb = asc_serials(before, ASC_MAX_SERIAL);
	fd = asc_open();
	if (fd < 0 || hb < 0)
		return fd;
	ha = asc_serials(after, ASC_MAX_SERIAL);
	for (n = 1; n <= ha && n < ASC_MAX_SERIAL; n++) {
		bool b = before[n / 8] & (1u << (n % 8)), a = after[n / 8] & (1u << (n % 8));

		if (a && !b) {
			if (found > 0) {
				found = -1;
				break;
			}
			found = n;
		}
	}
	*serial = found;
	return fd;
}

/**
 * asc_debugfs_path() - path of a TPipe's debugfs file.
 * @buf: receives the path.
 * @size: size of @buf.
 * @serial: the TPipe's serial.
 *
 * Return: @buf.
 */
static inline char *asc_debugfs_path(char *buf, size_t size, int serial)
{
	snprintf(buf, size, "%s/tpipe-%d", ASC_DEBUGFS_DIR, serial);
	return buf;
}

#endif /* ASC_EVENT_PIPES_H */
