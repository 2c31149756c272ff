// SPDX-License-Identifier: GPL-2.0
/*
 * asc-bench: the core runtime's issued set/wait, against a direct one.
 *
 * A kernel run by asc_core_run() issues round trips between MTE2 and V as
 * a double buffer does: set_flag(MTE2_V) and wait_flag(V_MTE2) go to the
 * queue of MTE2, wait_flag(MTE2_V) and set_flag(V_MTE2) to the queue of V
 * (asc_core_set_flag(), asc_core_wait_flag()); the scalar issues ahead as
 * far as the queues let it, the two pipe threads run them.  The time is
 * taken in the kernel, from before the first round trip is issued until
 * asc_core_pipe_barrier(ASC_PIPE_ALL) has seen both queues drained (the
 * set-up and one warm-up round trip are not in it).  The baseline is the
 * same round trip made directly by two threads bound to MTE2 and V, the
 * device's subject of the handoff figure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Round trips per run, before --quick's scale. */
#define CORE_ITERS	10000

/**
 * struct core_run - one run of the kernel.
 * @iters: round trips.
 * @ns: out: their time.
 * @timed: out: the kernel got to the end of its timed part.
 */
struct core_run {
	unsigned long iters;
	double ns;
	bool timed;
};

static int round_trip(struct asc_core *core, int id_mte2_v, int id_v_mte2)
{
	if (asc_core_set_flag(core, ASC_HARD_EVENT_MTE2_V, id_mte2_v) < 0 ||
	    asc_core_wait_flag(core, ASC_HARD_EVENT_MTE2_V, id_mte2_v) < 0 ||
	    asc_core_set_flag(core, ASC_HARD_EVENT_V_MTE2, id_v_mte2) < 0 ||
	    asc_core_wait_flag(core, ASC_HARD_EVENT_V_MTE2, id_v_mte2) < 0)
		return -1;
	return 0;
}

static void kernel(struct asc_core *core, void *arg)
{
	struct core_run *run = arg;
	int id0, id1;
	unsigned long i;
	double t0;

	id0 = asc_core_alloc_event_id(core, ASC_HARD_EVENT_MTE2_V);
	id1 = asc_core_alloc_event_id(core, ASC_HARD_EVENT_V_MTE2);
	if (id0 < 0 || id1 < 0)
		return;
	/* The warm-up starts both pipe threads. */
	if (round_trip(core, id0, id1) < 0 ||
	    asc_core_pipe_barrier(core, ASC_PIPE_ALL) < 0)
		return;
	t0 = bench_now_ns();
	for (i = 0; i < run->iters; i++) {
		if (round_trip(core, id0, id1) < 0)
			return;
	}
	if (asc_core_pipe_barrier(core, ASC_PIPE_ALL) < 0)
		return;
	run->ns = bench_now_ns() - t0;
	run->timed = true;
	asc_core_release_event_id(core, id0, ASC_HARD_EVENT_MTE2_V);
	asc_core_release_event_id(core, id1, ASC_HARD_EVENT_V_MTE2);
}

static int core_time(void *ctx, unsigned long iters, double *ns)
{
	const struct asc_core_attr *attr = ctx;
	struct core_run run = { .iters = iters };
	char *report = NULL;
	int err;

	if (asc_core_run(kernel, &run, attr, &report) < 0 || !run.timed) {
		err = run.timed ? errno : (errno ? errno : EPROTO);
		if (report)
			printf("# asc_core_run: %s", report);
		free(report);
		errno = err;
		return -1;
	}
	free(report);
	*ns = run.ns;
	return 0;
}

/**
 * bench_core() - the core runtime's figure and its baseline.
 * @opts: the options.
 * @test: its TAP test number.
 * @goal: out: its row of the goals table (the ratio to the direct one).
 *
 * Return: 0, or -1 when the figure could not be measured.
 */
int bench_core(const struct bench_opts *opts, unsigned int test, struct bench_goal *goal)
{
	static const char figure[] = "core runtime's issued round trip";
	struct asc_core_attr attr = { .device = opts->device };
	struct bench_subject subj[2] = {
		{ .name = "asc_core_set_flag/wait_flag", .fn = core_time, .ctx = &attr },
		{ .name = "asc set_flag/wait_flag", .fn = bench_handoff_time },
	};
	unsigned long iters = CORE_ITERS / opts->scale;
	int ret;

	printf("# %s: median of %u runs of %lu round trips MTE2 -> V -> MTE2 each (min..max)\n",
	       figure, opts->runs, iters);
	subj[1].ctx = bench_handoff_asc_new(opts->device);
	if (!subj[1].ctx)
		return bench_fail(test, figure, "no TPipe");
	ret = bench_compare(subj, iters, opts->runs, test, figure, "round trip", goal);
	bench_handoff_asc_free(subj[1].ctx);
	return ret;
}
