// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: an uncontended set_flag + wait_flag in one thread, against
 * sem_post + sem_wait.
 *
 * One thread sets the flag of (MTE2_V, id) and at once waits for it: the
 * wait finds the flag set and consumes it, nobody sleeps or is woken.  The
 * thread is not bound to a pipe (checked mode lets an unbound thread set
 * and wait while no thread is bound).  The baseline posts a sem_t and
 * waits for it, which glibc does in userspace when nobody waits.
 */
#include <errno.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/**
 * bench_flag_open() - a TPipe with one allocated ID, for bench_set_wait().
 * @f: filled in.
 * @device: the device node.
 *
 * Return: 0, or -1 with errno set (the failed call is printed).
 */
int bench_flag_open(struct bench_flag *f, const char *device)
{
	f->event = ASC_HARD_EVENT_MTE2_V;
	f->pipe = asc_pipe_open(device);
	if (!f->pipe) {
		printf("# asc_pipe_open(%s): %s\n", device, strerror(errno));
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

static int sem_post_wait(void *ctx, unsigned long iters, double *ns)
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
 * bench_uncontended() - the uncontended figure and its baseline.
 * @opts: the options.
 * @test: its TAP test number.
 * @goal: out: its row of the goals table (the ratio to the sem_t).
 *
 * Return: 0, or -1 when the figure could not be measured.
 */
int bench_uncontended(const struct bench_opts *opts, unsigned int test,
		      struct bench_goal *goal)
{
	static const char figure[] = "uncontended set+wait in one thread";
	struct bench_flag f;
	sem_t sem;
	struct bench_subject subj[2] = {
		{ .name = "asc set_flag + wait_flag", .fn = bench_set_wait, .ctx = &f },
		{ .name = "sem_post + sem_wait", .fn = sem_post_wait, .ctx = &sem },
	};
	unsigned long iters = UNCONTENDED_ITERS / opts->scale;
	int ret;

	printf("# %s: median of %u runs of %lu pairs each (min..max)\n",
	       figure, opts->runs, iters);
	if (sem_init(&sem, 0, 0))
		return bench_fail(test, figure, "sem_init failed");
	if (bench_flag_open(&f, opts->device) < 0) {
		sem_destroy(&sem);
		return bench_fail(test, figure, "no TPipe");
	}
	ret = bench_compare(subj, iters, opts->runs, test, figure, "pair", goal);
	asc_pipe_close(f.pipe);
	sem_destroy(&sem);
	return ret;
}
