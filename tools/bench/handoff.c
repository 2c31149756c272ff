// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: the handoff round trip between two threads.
 *
 * Thread A signals B and waits for B's answer; B waits for A's signal and
 * answers: one round trip is two handoffs, two wake-ups.  On the device
 * that is a real handoff between two pipes of one TPipe, as a kernel's
 * double buffer does it: A is bound to MTE2 and sets MTE2_V, B is bound to
 * V, waits for MTE2_V and sets V_MTE2, which A waits for (checked mode,
 * the default, waits without a deadline).  The baselines do the same with
 * the kernel's primitives: a futex word per direction (FUTEX_WAKE after
 * every store, FUTEX_WAIT while the word is 0), an eventfd per direction,
 * a sem_t per direction, and a pipe(2) per direction carrying one byte.
 * The default user's handoff is the same on a TPipe of its own with
 * threads that bind nothing (checked mode).  The floor of the device's
 * figure is the futex handoff whose every wake and every wait also makes
 * one null ioctl (ASC_EVENT_IOC_INFO) on the device: what a driver that
 * did nothing but take the ioctl's way in and out would add at most.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/asc_event.h>

#include "bench.h"

/**
 * struct handoff_ops - a way for two threads to hand off.
 * @name: the subject's name.
 * @bind: what a side does once before its loop (may be NULL).
 * @unbind: what side B does once after its loop, and side A after the
 *	run (may be NULL).
 * @signal: hand off in direction @dir (0: A to B, 1: B to A).
 * @wait: wait for the handoff in direction @dir.
 * @abort: make the waits in progress end, after a failure (may be NULL:
 *	a handoff ends them).
 */
struct handoff_ops {
	const char *name;
	int (*bind)(void *ctx, int side);
	void (*unbind)(void *ctx);
	int (*signal)(void *ctx, int dir);
	int (*wait)(void *ctx, int dir);
	void (*abort)(void *ctx);
};

/**
 * struct handoff - one subject of the figure.
 * @ops: how it hands off.
 * @ctx: for @ops.
 * @iters: round trips of the current run.
 * @stop: set when a side failed: the other stops after its wait.
 * @failed: the call that failed in B, or NULL.
 * @err: its errno.
 */
struct handoff {
	const struct handoff_ops *ops;
	void *ctx;
	unsigned long iters;
	int stop;
	const char *failed;
	int err;
};

/* futex: one word per direction, 1 when handed off. */
struct futex_ctx {
	int word[2];
};

static long futex(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static int futex_signal(void *ctx, int dir)
{
	struct futex_ctx *f = ctx;

	__atomic_store_n(&f->word[dir], 1, __ATOMIC_RELEASE);
	return futex(&f->word[dir], FUTEX_WAKE_PRIVATE, 1) < 0 ? -1 : 0;
}

static int futex_wait(void *ctx, int dir)
{
	struct futex_ctx *f = ctx;

	while (!__atomic_exchange_n(&f->word[dir], 0, __ATOMIC_ACQUIRE)) {
		if (futex(&f->word[dir], FUTEX_WAIT_PRIVATE, 0) < 0 &&
		    errno != EAGAIN && errno != EINTR)
			return -1;
	}
	return 0;
}

static const struct handoff_ops futex_ops = {
	.name = "futex",
	.signal = futex_signal,
	.wait = futex_wait,
};

/* The floor: the futex handoff, one null ioctl on the device per call. */
struct floor_ctx {
	struct futex_ctx fx;
	int fd;
};

static int null_ioctl(int fd)
{
	struct asc_event_info info;

	return ioctl(fd, ASC_EVENT_IOC_INFO, &info) < 0 ? -1 : 0;
}

static int floor_signal(void *ctx, int dir)
{
	struct floor_ctx *f = ctx;

	if (null_ioctl(f->fd) < 0)
		return -1;
	return futex_signal(&f->fx, dir);
}

static int floor_wait(void *ctx, int dir)
{
	struct floor_ctx *f = ctx;

	if (null_ioctl(f->fd) < 0)
		return -1;
	return futex_wait(&f->fx, dir);
}

static const struct handoff_ops floor_ops = {
	.name = "futex + null ioctl (floor)",
	.signal = floor_signal,
	.wait = floor_wait,
};

/* eventfd: one per direction. */
struct eventfd_ctx {
	int fd[2];
};

static int eventfd_signal(void *ctx, int dir)
{
	struct eventfd_ctx *e = ctx;
	eventfd_t one = 1;

	return write(e->fd[dir], &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}

static int eventfd_wait(void *ctx, int dir)
{
	struct eventfd_ctx *e = ctx;
	eventfd_t v;

	return read(e->fd[dir], &v, sizeof(v)) == sizeof(v) ? 0 : -1;
}

static const struct handoff_ops eventfd_ops = {
	.name = "eventfd",
	.signal = eventfd_signal,
	.wait = eventfd_wait,
};

/* sem_t: one per direction. */
struct sem_ctx {
	sem_t sem[2];
};

static int sem_signal(void *ctx, int dir)
{
	return sem_post(&((struct sem_ctx *)ctx)->sem[dir]);
}

static int sem_wait_dir(void *ctx, int dir)
{
	return sem_wait(&((struct sem_ctx *)ctx)->sem[dir]);
}

static const struct handoff_ops sem_ops = {
	.name = "sem_t",
	.signal = sem_signal,
	.wait = sem_wait_dir,
};

/* pipe(2): one per direction, one byte per handoff. */
struct pipe_ctx {
	int fd[2][2];
};

static int pipe_signal(void *ctx, int dir)
{
	struct pipe_ctx *p = ctx;
	char c = 0;

	return write(p->fd[dir][1], &c, 1) == 1 ? 0 : -1;
}

static int pipe_wait(void *ctx, int dir)
{
	struct pipe_ctx *p = ctx;
	char c;

	return read(p->fd[dir][0], &c, 1) == 1 ? 0 : -1;
}

static const struct handoff_ops pipe_ops = {
	.name = "pipe(2)",
	.signal = pipe_signal,
	.wait = pipe_wait,
};

/* The device: MTE2 (A) sets MTE2_V, V (B) sets V_MTE2, on one TPipe. */
struct asc_ctx {
	struct asc_pipe *pipe;
	int id[2];
};

static const int asc_dir_event[2] = { ASC_HARD_EVENT_MTE2_V, ASC_HARD_EVENT_V_MTE2 };

static int asc_bind(void *ctx, int side)
{
	struct asc_ctx *a = ctx;

	return asc_pipe_bind(a->pipe, side ? ASC_PIPE_V : ASC_PIPE_MTE2);
}

static void asc_unbind(void *ctx)
{
	asc_pipe_bind(((struct asc_ctx *)ctx)->pipe, ASC_PIPE_NONE);
}

static int asc_signal(void *ctx, int dir)
{
	struct asc_ctx *a = ctx;

	return asc_set_flag(a->pipe, asc_dir_event[dir], a->id[dir]);
}

static int asc_wait(void *ctx, int dir)
{
	struct asc_ctx *a = ctx;

	return asc_wait_flag(a->pipe, asc_dir_event[dir], a->id[dir]);
}

static void asc_abort(void *ctx)
{
	asc_pipe_reset(((struct asc_ctx *)ctx)->pipe);
}

static const struct handoff_ops asc_ops = {
	.name = "asc set_flag/wait_flag",
	.bind = asc_bind,
	.unbind = asc_unbind,
	.signal = asc_signal,
	.wait = asc_wait,
	.abort = asc_abort,
};

/* The default user: the same, with threads that bind nothing. */
static const struct handoff_ops asc_unbound_ops = {
	.name = "asc, unbound threads",
	.signal = asc_signal,
	.wait = asc_wait,
	.abort = asc_abort,
};

/*
 * After a failure of side @side: stop the other side after its wait, and
 * make that wait end, whether it has started (@abort) or not (a handoff
 * from @side, the direction @side may signal).
 */
static void handoff_abort(struct handoff *h, int side)
{
	__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
	if (h->ops->abort)
		h->ops->abort(h->ctx);
	h->ops->signal(h->ctx, side);
}

static bool stopped(struct handoff *h)
{
	return __atomic_load_n(&h->stop, __ATOMIC_ACQUIRE);
}

/* B: waits for A's signal and answers, @iters + 1 times (one warm-up). */
static void *side_b(void *arg)
{
	struct handoff *h = arg;
	unsigned long i;

	if (h->ops->bind && h->ops->bind(h->ctx, 1) < 0) {
		h->failed = "bind B";
		goto fail;
	}
	for (i = 0; i <= h->iters; i++) {
		if (h->ops->wait(h->ctx, 0) < 0) {
			h->failed = "wait of B";
			goto fail;
		}
		if (stopped(h))
			return NULL;
		if (h->ops->signal(h->ctx, 1) < 0) {
			h->failed = "signal of B";
			goto fail;
		}
	}
	if (h->ops->unbind)
		h->ops->unbind(h->ctx);
	return NULL;
fail:
	h->err = errno;
	if (!stopped(h))
		handoff_abort(h, 1);
	return NULL;
}

/* A, the calling thread: one warm-up round trip, then @iters timed. */
static int handoff_time(void *arg, unsigned long iters, double *ns)
{
	struct handoff *h = arg;
	const char *failed = NULL;
	unsigned long i;
	pthread_t b;
	double t0 = 0;
	int ret;

	h->iters = iters;
	h->stop = 0;
	h->failed = NULL;
	if (h->ops->bind && h->ops->bind(h->ctx, 0) < 0)
		return -1;
	ret = pthread_create(&b, NULL, side_b, h);
	if (ret) {
		errno = ret;
		return -1;
	}
	for (i = 0; i <= iters; i++) {
		if (i == 1)
			t0 = bench_now_ns();
		if (h->ops->signal(h->ctx, 0) < 0) {
			failed = "signal of A";
			break;
		}
		if (h->ops->wait(h->ctx, 1) < 0) {
			failed = "wait of A";
			break;
		}
		if (stopped(h))
			break;
	}
	*ns = bench_now_ns() - t0;
	ret = errno;
	if (failed && !stopped(h))
		handoff_abort(h, 0);
	pthread_join(b, NULL);
	/* A is unbound again for the other subjects' runs. */
	if (h->ops->unbind)
		h->ops->unbind(h->ctx);
	if (failed) {
		printf("# %s: %s failed\n", h->ops->name, failed);
		errno = ret;
		return -1;
	}
	if (h->failed) {
		printf("# %s: %s failed\n", h->ops->name, h->failed);
		errno = h->err;
		return -1;
	}
	return 0;
}

/* A TPipe for the device's handoff, @ops's: bound threads or not. */
static void *handoff_asc_new(const char *device, const struct handoff_ops *ops)
{
	struct handoff *h = calloc(1, sizeof(*h));
	struct asc_ctx *a = calloc(1, sizeof(*a));

	if (!h || !a)
		goto fail;
	h->ops = ops;
	h->ctx = a;
	a->pipe = asc_pipe_open(device);
	if (!a->pipe) {
		printf("# asc_pipe_open(%s): %s\n", device, strerror(errno));
		goto fail;
	}
	a->id[0] = asc_alloc_event_id(a->pipe, ASC_HARD_EVENT_MTE2_V);
	a->id[1] = asc_alloc_event_id(a->pipe, ASC_HARD_EVENT_V_MTE2);
	if (a->id[0] < 0 || a->id[1] < 0) {
		printf("# asc_alloc_event_id: %s\n", strerror(errno));
		asc_pipe_close(a->pipe);
		goto fail;
	}
	return h;
fail:
	free(a);
	free(h);
	return NULL;
}

/**
 * bench_handoff_asc_new() - a TPipe set up for the device's handoff.
 * @device: the device node.
 *
 * Opens a TPipe and allocates an MTE2_V and a V_MTE2 ID on it; the two
 * sides bind themselves to MTE2 and V.
 *
 * Return: the subject's context for bench_handoff_time(), or NULL with
 * errno set (the failed call is printed).
 */
void *bench_handoff_asc_new(const char *device)
{
	return handoff_asc_new(device, &asc_ops);
}

/**
 * bench_handoff_asc_free() - close what bench_handoff_asc_new() opened.
 * @ctx: its context, or NULL.
 *
 * Also drops the calling thread's binding (side A's), if it has one.
 */
void bench_handoff_asc_free(void *ctx)
{
	struct handoff *h = ctx;
	struct asc_ctx *a;

	if (!h)
		return;
	a = h->ctx;
	asc_pipe_bind(a->pipe, ASC_PIPE_NONE);
	asc_pipe_close(a->pipe);
	free(a);
	free(h);
}

/**
 * bench_handoff_time() - time one run of round trips (a bench_fn).
 * @ctx: from bench_handoff_asc_new(), or a baseline's.
 * @iters: round trips.
 * @ns: out: their wall time.
 *
 * The calling thread is side A; side B is a thread of this run.
 *
 * Return: 0, or -1 with errno set.
 */
int bench_handoff_time(void *ctx, unsigned long iters, double *ns)
{
	return handoff_time(ctx, iters, ns);
}

/* Round trips per run, before --quick's scale. */
#define HANDOFF_ITERS	20000

/* The subjects of the figure, in the order of the printed lines. */
enum { H_ASC, H_UNBOUND, H_FUTEX, H_FLOOR, H_EVENTFD, H_SEM, H_PIPE, H_NR };

/**
 * bench_handoff() - the handoff figure, the default user's, their floor
 *	and the four baselines.
 * @opts: the options.
 * @test: its TAP test number.
 * @bound: out: the goals row of bound threads (the ratio to the futex).
 * @unbound: out: the row of unbound threads (the ratio to the futex).
 * @floor: out: the row of unbound threads against the floor.
 *
 * Return: 0, or -1 when the figure could not be measured ("not ok"
 * printed).
 */
int bench_handoff(const struct bench_opts *opts, unsigned int test,
		  struct bench_goal *bound, struct bench_goal *unbound,
		  struct bench_goal *floor)
{
	static const char figure[] = "handoff round trip between two threads";
	struct futex_ctx fx = { { 0, 0 } };
	struct floor_ctx fl = { { { 0, 0 } }, -1 };
	struct eventfd_ctx ev;
	struct sem_ctx sm;
	struct pipe_ctx pp;
	struct handoff hf = { .ops = &futex_ops, .ctx = &fx };
	struct handoff hl = { .ops = &floor_ops, .ctx = &fl };
	struct handoff he = { .ops = &eventfd_ops, .ctx = &ev };
	struct handoff hs = { .ops = &sem_ops, .ctx = &sm };
	struct handoff hp = { .ops = &pipe_ops, .ctx = &pp };
	struct bench_subject subj[H_NR] = {
		[H_ASC] = { .name = asc_ops.name, .fn = bench_handoff_time },
		[H_UNBOUND] = { .name = asc_unbound_ops.name, .fn = bench_handoff_time },
		[H_FUTEX] = { .name = futex_ops.name, .fn = bench_handoff_time, .ctx = &hf },
		[H_FLOOR] = { .name = floor_ops.name, .fn = bench_handoff_time, .ctx = &hl },
		[H_EVENTFD] = { .name = eventfd_ops.name, .fn = bench_handoff_time, .ctx = &he },
		[H_SEM] = { .name = sem_ops.name, .fn = bench_handoff_time, .ctx = &hs },
		[H_PIPE] = { .name = pipe_ops.name, .fn = bench_handoff_time, .ctx = &hp },
	};
	unsigned long iters = HANDOFF_ITERS / opts->scale / BENCH_SPLIT;
	unsigned int i, runs = opts->runs * BENCH_SPLIT;
	int ret = -1;

	printf("# %s: median of %u runs of %lu round trips each (min..max)\n",
	       figure, runs, iters);
	ev.fd[0] = eventfd(0, EFD_CLOEXEC);
	ev.fd[1] = eventfd(0, EFD_CLOEXEC);
	if (ev.fd[0] < 0 || ev.fd[1] < 0)
		return bench_fail(test, figure, "eventfd failed");
	if (sem_init(&sm.sem[0], 0, 0) || sem_init(&sm.sem[1], 0, 0))
		return bench_fail(test, figure, "sem_init failed");
	if (pipe2(pp.fd[0], O_CLOEXEC) || pipe2(pp.fd[1], O_CLOEXEC))
		return bench_fail(test, figure, "pipe2 failed");
	fl.fd = open(opts->device, O_RDWR | O_CLOEXEC);
	if (fl.fd < 0) {
		printf("# open(%s): %s\n", opts->device, strerror(errno));
		bench_fail(test, figure, "no TPipe for the floor");
		goto out;
	}
	subj[H_ASC].ctx = bench_handoff_asc_new(opts->device);
	subj[H_UNBOUND].ctx = handoff_asc_new(opts->device, &asc_unbound_ops);
	if (!subj[H_ASC].ctx || !subj[H_UNBOUND].ctx) {
		bench_fail(test, figure, "no TPipe");
		goto out;
	}
	if (bench_run(subj, H_NR, iters, runs) < 0) {
		bench_fail(test, figure, "a run failed");
		goto out;
	}
	for (i = 0; i < H_NR; i++)
		bench_print(&subj[i], "round trip");
	for (i = H_FUTEX; i < H_NR; i++)
		bench_print_ratio(&subj[H_ASC], &subj[i]);
	bench_print_ratio(&subj[H_UNBOUND], &subj[H_FUTEX]);
	bench_print_ratio(&subj[H_UNBOUND], &subj[H_FLOOR]);
	bench_print_ratio(&subj[H_FLOOR], &subj[H_FUTEX]);
	bound->value = bench_ratio(&subj[H_ASC], &subj[H_FUTEX], NULL, NULL);
	unbound->value = bench_ratio(&subj[H_UNBOUND], &subj[H_FUTEX], NULL, NULL);
	floor->value = bench_ratio(&subj[H_UNBOUND], &subj[H_FLOOR], NULL, NULL);
	bound->measured = unbound->measured = floor->measured = true;
	printf("ok %u %s\n", test, figure);
	ret = 0;
out:
	bench_handoff_asc_free(subj[H_ASC].ctx);
	bench_handoff_asc_free(subj[H_UNBOUND].ctx);
	if (fl.fd >= 0)
		close(fl.fd);
	close(ev.fd[0]);
	close(ev.fd[1]);
	sem_destroy(&sm.sem[0]);
	sem_destroy(&sm.sem[1]);
	for (i = 0; i < 2; i++) {
		close(pp.fd[i][0]);
		close(pp.fd[i][1]);
	}
	return ret;
}
