// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: an uncontended set_flag + wait_flag in one thread, against
 * sem_post + sem_wait.
 *
 * One thread, bound to V for the run, sets the flag of (V_V, id) and at
 * once waits for it: the wait finds the flag set and consumes it, nobody sleeps or is
 * woken.  In checked mode the library does both in userspace on the mapped
 * flags (the fast path, unless $ASC_NO_FASTPATH is set).  The baseline
 * posts a sem_t and waits for it, which glibc does in userspace when
 * nobody waits.  The default user's pair is the same on a TPipe of its
 * own whose threads bind nothing (checked mode, the default).  Another
 * subject does the pair with the two ioctls on a TPipe of its own, what
 * the library does with the fast path off.
 */
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/asc_event.h>

#include "bench.h"

/* Set+wait pairs per run, before --quick's scale. */
#define UNCONTENDED_ITERS	100000

/**
 * bench_set_wait() - time set_flag + wait_flag pairs (a bench_fn).
 * @ctx: a struct bench_flag.
 * @iters: pairs.
 * @ns: out: their wall time.
 *
 * Return: 0, or -1 with errno set.
 */
int bench_set_wait(void *ctx, unsigned long iters, double *ns)
{
	struct bench_flag *f = ctx;
	unsigned long i;
	double t0;

	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		if (asc_set_flag(f->pipe, f->event, f->id) < 0 ||
		    asc_wait_flag(f->pipe, f->event, f->id) < 0)
			return -1;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

/* A TPipe with one allocated V_V ID, the calling thread bound to V if @bind. */
static int flag_open(struct bench_flag *f, const char *device, bool bind)
{
	f->event = ASC_HARD_EVENT_V_V;
	f->pipe = asc_pipe_open(device);
	if (!f->pipe) {
		printf("# asc_pipe_open(%s): %s\n", device, strerror(errno));
		return -1;
	}
	if (bind && asc_pipe_bind(f->pipe, ASC_PIPE_V) < 0) {
		printf("# asc_pipe_bind(V): %s\n", strerror(errno));
		asc_pipe_close(f->pipe);
		f->pipe = NULL;
		return -1;
	}
	f->id = asc_alloc_event_id(f->pipe, f->event);
	if (f->id < 0) {
		printf("# asc_alloc_event_id: %s\n", strerror(errno));
		asc_pipe_close(f->pipe);
		f->pipe = NULL;
		return -1;
	}
	return 0;
}

/**
 * bench_flag_open() - a TPipe with one allocated ID, for bench_set_wait().
 * @f: filled in.
 * @device: the device node.
 *
 * The calling thread is bound to V, the pipe of the HardEvent (V_V).
 *
 * Return: 0, or -1 with errno set (the failed call is printed).
 */
int bench_flag_open(struct bench_flag *f, const char *device)
{
	return flag_open(f, device, true);
}

/*
 * The bound thread's pairs: bound to V for the run only, so that the
 * thread is the default user, bound to nothing, in the runs of the
 * unbound subject.
 */
static int bound_set_wait(void *ctx, unsigned long iters, double *ns)
{
	struct bench_flag *f = ctx;
	int ret;

	if (asc_pipe_bind(f->pipe, ASC_PIPE_V) < 0)
		return -1;
	ret = bench_set_wait(ctx, iters, ns);
	if (asc_pipe_bind(f->pipe, ASC_PIPE_NONE) < 0)
		return -1;
	return ret;
}

/* The ioctl path: a TPipe opened without the library, the same pair. */
struct ioctl_flag {
	int fd;
	struct asc_event_ref ref;
	struct asc_event_wait wait;
};

static int ioctl_set_wait(void *ctx, unsigned long iters, double *ns)
{
	struct ioctl_flag *f = ctx;
	unsigned long i;
	double t0;

	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		if (ioctl(f->fd, ASC_EVENT_IOC_SET_FLAG, &f->ref) < 0 ||
		    ioctl(f->fd, ASC_EVENT_IOC_WAIT_FLAG, &f->wait) < 0)
			return -1;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

static int ioctl_flag_open(struct ioctl_flag *f, const char *device)
{
	struct asc_event_bind bind = { .pipe = ASC_EVENT_PIPE_V };

	memset(&f->ref, 0, sizeof(f->ref));
	memset(&f->wait, 0, sizeof(f->wait));
	f->ref.event = ASC_EVENT_V_V;
	f->fd = open(device, O_RDWR | O_CLOEXEC);
	if (f->fd < 0 || ioctl(f->fd, ASC_EVENT_IOC_BIND_PIPE, &bind) < 0 ||
	    ioctl(f->fd, ASC_EVENT_IOC_ALLOC_ID, &f->ref) < 0) {
		printf("# the ioctl path's TPipe: %s\n", strerror(errno));
		if (f->fd >= 0)
			close(f->fd);
		return -1;
	}
	f->wait.deadline = ASC_EVENT_WAIT_FOREVER;
	f->wait.event = f->ref.event;
	f->wait.id = f->ref.id;
	return 0;
}

/**
 * bench_sem_post_wait() - time sem_post + sem_wait pairs (a bench_fn).
 * @ctx: a sem_t nobody else uses.
 * @iters: pairs.
 * @ns: out: their wall time.
 *
 * Return: 0, or -1 with errno set.
 */
int bench_sem_post_wait(void *ctx, unsigned long iters, double *ns)
{
	sem_t *sem = ctx;
	unsigned long i;
	double t0;

	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		if (sem_post(sem) || sem_wait(sem))
			return -1;
	}
	*ns = bench_now_ns() - t0;
	return 0;
}

/**
 * bench_uncontended() - the uncontended figure, the default user's and
 *	their baseline.
 * @opts: the options.
 * @test: its TAP test number.
 * @bound: out: the goals row of a bound thread (the ratio to the sem_t).
 * @unbound: out: the row of an unbound thread.
 *
 * Return: 0, or -1 when the figure could not be measured.
 */
int bench_uncontended(const struct bench_opts *opts, unsigned int test,
		      struct bench_goal *bound, struct bench_goal *unbound)
{
	static const char figure[] = "uncontended set+wait in one thread";
	struct ioctl_flag io;
	struct bench_flag f, u;
	sem_t sem;
	struct bench_subject subj[4] = {
		{ .name = "asc set_flag + wait_flag", .fn = bound_set_wait, .ctx = &f },
		{ .name = "sem_post + sem_wait", .fn = bench_sem_post_wait, .ctx = &sem },
		{ .name = "asc, unbound thread", .fn = bench_set_wait, .ctx = &u },
		{ .name = "ioctl SET_FLAG + WAIT_FLAG", .fn = ioctl_set_wait, .ctx = &io },
	};
	unsigned long iters = UNCONTENDED_ITERS / opts->scale;
	int ret;

	printf("# %s: median of %u runs of %lu pairs each (min..max)\n",
	       figure, opts->runs, iters);
	if (sem_init(&sem, 0, 0))
		return bench_fail(test, figure, "sem_init failed");
	if (flag_open(&f, opts->device, false) < 0) {
		sem_destroy(&sem);
		return bench_fail(test, figure, "no TPipe");
	}
	if (flag_open(&u, opts->device, false) < 0) {
		asc_pipe_close(f.pipe);
		sem_destroy(&sem);
		return bench_fail(test, figure, "no TPipe for the unbound thread");
	}
	if (ioctl_flag_open(&io, opts->device) < 0) {
		asc_pipe_close(u.pipe);
		asc_pipe_close(f.pipe);
		sem_destroy(&sem);
		return bench_fail(test, figure, "no TPipe for the ioctl path");
	}
	ret = bench_run(subj, 4, iters, opts->runs);
	if (ret < 0) {
		ret = bench_fail(test, figure, "a run failed");
	} else {
		bench_print(&subj[0], "pair");
		bench_print(&subj[2], "pair");
		bench_print(&subj[1], "pair");
		bench_print(&subj[3], "pair");
		bench_print_ratio(&subj[0], &subj[1]);
		bench_print_ratio(&subj[2], &subj[1]);
		bench_print_ratio(&subj[3], &subj[1]);
		bound->value = bench_ratio(&subj[0], &subj[1], NULL, NULL);
		unbound->value = bench_ratio(&subj[2], &subj[1], NULL, NULL);
		bound->measured = unbound->measured = true;
		printf("ok %u %s\n", test, figure);
	}
	close(io.fd);
	asc_pipe_close(u.pipe);
	asc_pipe_close(f.pipe);
	sem_destroy(&sem);
	return ret;
}
