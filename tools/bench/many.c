// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: a flag operation with one open TPipe, against the same with
 * many open TPipes (10,000 by default).
 *
 * The operation is the uncontended set_flag + wait_flag of
 * bench_set_wait() on one TPipe.  The runs alternate between that TPipe
 * the only one open and N - 1 more opened through asc_pipe_open(), which
 * are closed again after the run with them, then an RCU grace period and a
 * pause let the kernel free them.  So that neither state always comes
 * right after the closes, the order is ABBA: the even runs time the TPipe
 * alone first, the odd ones the many TPipes first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"

/* Set+wait pairs per run, before --quick's scale. */
#define MANY_ITERS	100000

/**
 * bench_raise_nofile() - allow the process @fds open files.
 * @fds: the file descriptors needed.
 *
 * Raises RLIMIT_NOFILE, the hard limit too when it is lower (which takes
 * CAP_SYS_RESOURCE).  Prints why not when it cannot.
 *
 * Return: 0, or -1 with errno set.
 */
int bench_raise_nofile(unsigned int fds)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		printf("# getrlimit(RLIMIT_NOFILE): %s\n", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= fds)
		return 0;
	rl.rlim_cur = fds;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < fds)
		rl.rlim_max = fds;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		printf("# setrlimit(RLIMIT_NOFILE, %u): %s\n", fds, strerror(errno));
		return -1;
	}
	return 0;
}

/* Open @n - 1 TPipes besides the one timed; -1 (printed) when not. */
static int open_others(struct asc_pipe **others, unsigned int n, const char *device)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i++) {
		others[i] = asc_pipe_open(device);
		if (!others[i]) {
			printf("# asc_pipe_open, TPipe %u of %u: %s\n", i + 2, n,
			       strerror(errno));
			while (i--)
				asc_pipe_close(others[i]);
			return -1;
		}
	}
	return 0;
}

static void close_others(struct asc_pipe **others, unsigned int n)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i++)
		asc_pipe_close(others[i]);
}

/**
 * bench_many() - the figure of many open TPipes and its baseline.
 * @opts: the options.
 * @test: its TAP test number.
 * @goal: out: its row of the goals table.
 *
 * Return: 0, or -1 when the figure could not be measured (the reason is
 * printed: the file limit, or the open that failed).
 */
int bench_many(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal)
{
	static const char figure[] = "set+wait with many open TPipes";
	unsigned long iters = MANY_ITERS / opts->scale;
	struct asc_pipe **others;
	struct bench_flag f;
	struct bench_subject subj[2] = {
		{ .name = "1 TPipe open", .fn = bench_set_wait, .ctx = &f },
		{ .fn = bench_set_wait, .ctx = &f },
	};
	double alone[BENCH_RUNS_MAX], many[BENCH_RUNS_MAX];
	double open_ns = 0, t0;
	char name[64], count[16];
	unsigned int r;
	int ret = -1;

	snprintf(name, sizeof(name), "%s TPipes open",
		 bench_count(count, sizeof(count), opts->tpipes));
	subj[1].name = name;
	printf("# %s: median of %u runs of %lu set+wait pairs each, alone and with %u TPipes open, alternately (min..max)\n",
	       figure, opts->runs, iters, opts->tpipes);
	if (bench_raise_nofile(opts->tpipes + 64) < 0)
		return bench_fail(test, figure, "cannot raise RLIMIT_NOFILE");
	others = calloc(opts->tpipes, sizeof(*others));
	if (!others)
		return bench_fail(test, figure, "out of memory");
	if (bench_flag_open(&f, opts->device) < 0) {
		free(others);
		return bench_fail(test, figure, "no TPipe");
	}
	for (r = 0; r < opts->runs; r++) {
		/* ABBA: every other run times the many TPipes first. */
		if (r % 2 == 0 && bench_run(&subj[0], 1, iters, 1) < 0)
			goto failed;
		t0 = bench_now_ns();
		if (open_others(others, opts->tpipes, opts->device) < 0) {
			bench_fail(test, figure, "cannot open that many TPipes");
			goto out;
		}
		open_ns += bench_now_ns() - t0;
		ret = bench_run(&subj[1], 1, iters, 1);
		close_others(others, opts->tpipes);
		if (ret < 0)
			goto failed;
		many[r] = subj[1].samples[0];
		/* The frees of the closes, done before the next run alone. */
		bench_settle();
		if (r % 2 == 1 && bench_run(&subj[0], 1, iters, 1) < 0)
			goto failed;
		alone[r] = subj[0].samples[0];
	}
	memcpy(subj[0].samples, alone, opts->runs * sizeof(double));
	memcpy(subj[1].samples, many, opts->runs * sizeof(double));
	subj[0].nr = subj[1].nr = opts->runs;
	bench_summarise(&subj[0]);
	bench_summarise(&subj[1]);
	bench_print(&subj[0], "pair");
	bench_print(&subj[1], "pair");
	bench_print_ratio(&subj[1], &subj[0]);
	printf("#   (asc_pipe_open of the %u others took %.0f us each)\n", opts->tpipes - 1,
	       open_ns / opts->runs / (opts->tpipes - 1) / 1e3);
	goal->value = bench_ratio(&subj[1], &subj[0], NULL, NULL);
	goal->measured = true;
	printf("ok %u %s\n", test, figure);
	ret = 0;
	goto out;
failed:
	ret = -1;
	bench_fail(test, figure, "a run failed");
out:
	free(others);
	asc_pipe_close(f.pipe);
	return ret;
}
