// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Multi-core launches of the core runtime on the device: asc_launch_run()
 * in the test guest (tools/testing/asc-check-guest).  Needs /dev/asc_event with
 * launches; skips without them.
 *
 * - Every core of each kind learns who it is, as Ascend C tells it.
 * - Cross-core flags order work between cores in modes 0, 1 and 2: the
 *   consumer sees what a slower producer wrote, on every core.
 * - SyncAll: no core reads before every core has written, twice in a row;
 *   the AIVs' SyncAll of a mix launch the same among the AIVs, the AICs
 *   waiting meanwhile in theirs.
 * - The first error of one core ends the launch, with a report naming the
 *   core; the other cores' waits end instead of hanging.  A counter past
 *   15 fails on the pipe that runs the set.
 * - Deadlocks across cores, through cross-core waits and SyncAll, are
 *   reported, the same on every run.
 * - Bad arguments are refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "many-runs.h"

/* Skip the test when there is no device with launches. */
#define need_launch(_metadata) do {					\
	struct asc_pipe *probe = asc_pipe_open(NULL);			\
									\
	if (!probe)							\
		SKIP(return, "no device: %s", strerror(errno));		\
	asc_pipe_close(probe);						\
} while (0)

/* Run @kernel on @block_dim cores of @kind; its errno (0) and report. */
static int launch(asc_kernel_fn kernel, void *arg, int kind,
		  unsigned int block_dim, char **report)
{
	int ret;

	errno = 0;
	ret = asc_launch_run(kernel, arg, kind, block_dim, NULL, report);
	return ret ? errno : 0;
}

static void sleep_ms(int ms)
{
	struct timespec t = { 0, ms * 1000000L };

	nanosleep(&t, NULL);
}

/* ---- getters ---- */

#define MAX_CORES	(3 * 8)

struct who {
	int kind;
	int block_dim;
	int seen[MAX_CORES];
	int type[MAX_CORES];
	int num[MAX_CORES];
	int sub[MAX_CORES];
	int sub_num[MAX_CORES];
};

static void who_kernel(struct asc_core *core, void *arg)
{
	struct who *w = arg;
	int slot = asc_core_block_idx(core);

	/* The AIVs of a mix launch after its AICs. */
	if (w->kind == ASC_LAUNCH_MIX && asc_core_type(core) == ASC_CORE_AIV)
		slot += w->block_dim;
	if (slot < 0 || slot >= MAX_CORES)
		return;
	__atomic_add_fetch(&w->seen[slot], 1, __ATOMIC_RELAXED);
	w->type[slot] = asc_core_type(core);
	w->num[slot] = asc_core_block_num(core);
	w->sub[slot] = asc_core_sub_block_idx(core);
	w->sub_num[slot] = asc_core_sub_block_num(core);
}

static void check_who(struct __test_metadata *_metadata, int kind, int bd)
{
	struct who w = { .kind = kind, .block_dim = bd };
	int i, n = kind == ASC_LAUNCH_MIX ? 3 * bd : bd;
	bool aiv;

	ASSERT_EQ(0, launch(who_kernel, &w, kind, bd, NULL));
	for (i = 0; i < n; i++) {
		aiv = kind == ASC_LAUNCH_AIV || (kind == ASC_LAUNCH_MIX && i >= bd);
		EXPECT_EQ(1, w.seen[i]) TH_LOG("kind %d slot %d", kind, i);
		EXPECT_EQ(aiv ? ASC_CORE_AIV : ASC_CORE_AIC, w.type[i]);
		EXPECT_EQ(bd, w.num[i]);
		if (kind == ASC_LAUNCH_MIX && aiv) {
			/* block_idx 2 * AI core + sub-block. */
			EXPECT_EQ((i - bd) % 2, w.sub[i]);
			EXPECT_EQ(2, w.sub_num[i]);
		} else {
			EXPECT_EQ(0, w.sub[i]);
			EXPECT_EQ(1, w.sub_num[i]);
		}
	}
	for (; i < MAX_CORES; i++)
		EXPECT_EQ(0, w.seen[i]);
}

static void single_kernel(struct asc_core *core, void *arg)
{
	int *v = arg;

	v[0] = asc_core_block_idx(core);
	v[1] = asc_core_block_num(core);
	v[2] = asc_core_sub_block_idx(core);
	v[3] = asc_core_sub_block_num(core);
	v[4] = asc_core_type(core);
}

TEST(getters_on_each_kind)
{
	int v[5] = { -1, -1, -1, -1, -1 };

	need_launch(_metadata);
	check_who(_metadata, ASC_LAUNCH_AIV, 4);
	check_who(_metadata, ASC_LAUNCH_AIC, 3);
	check_who(_metadata, ASC_LAUNCH_MIX, 2);
	check_who(_metadata, ASC_LAUNCH_MIX, 8);
	/* The core of asc_core_run() is block 0 of 1, of no launch. */
	ASSERT_EQ(0, asc_core_run(single_kernel, v, NULL, NULL));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(1, v[1]);
	EXPECT_EQ(0, v[2]);
	EXPECT_EQ(1, v[3]);
	EXPECT_EQ(0, v[4]);
	EXPECT_EQ(-1, asc_core_block_idx(NULL));
	EXPECT_EQ(EINVAL, errno);
}

/* ---- cross-core flags ---- */

/* One work item: sleep, then copy @src to @dst (or add it). */
struct step {
	int sleep_ms;
	const int *src;
	int *dst;
	int value;
};

static void step_run(void *arg)
{
	struct step *s = arg;

	if (s->sleep_ms)
		sleep_ms(s->sleep_ms);
	*s->dst = s->src ? *s->src : s->value;
}

/* Mode 0 on 4 AIVs: each writes its cell, all read every cell. */
struct mode0 {
	int cell[4];
	int seen[4][4];
	struct step put[4];
	struct step get[4][4];
};

static void mode0_kernel(struct asc_core *core, void *arg)
{
	struct mode0 *m = arg;
	int b = asc_core_block_idx(core), i;

	m->put[b] = (struct step){ .sleep_ms = b == 0 ? 200 : 0,
				   .dst = &m->cell[b], .value = 10 + b };
	asc_core_issue(core, ASC_PIPE_V, step_run, &m->put[b], "put", NULL, 0);
	asc_core_cross_set_flag(core, 1, 0, ASC_PIPE_V);
	asc_core_cross_wait_flag(core, 1, ASC_PIPE_MTE3);
	for (i = 0; i < 4; i++) {
		m->get[b][i] = (struct step){ .src = &m->cell[i],
					      .dst = &m->seen[b][i] };
		asc_core_issue(core, ASC_PIPE_MTE3, step_run, &m->get[b][i],
			       "get", NULL, 0);
	}
}

TEST(cross_mode0_orders_all_cores)
{
	struct mode0 m = { 0 };
	char *report;
	int b, i;

	need_launch(_metadata);
	ASSERT_EQ(0, launch(mode0_kernel, &m, ASC_LAUNCH_AIV, 4, &report))
		TH_LOG("%s", report ? report : "");
	for (b = 0; b < 4; b++)
		for (i = 0; i < 4; i++)
			EXPECT_EQ(10 + i, m.seen[b][i]);
}

/*
 * Mix, 2 AI cores.  Mode 2 from the AIC: its AIVs read its tile.  Mode 1:
 * each AIV reads its sibling's cell.  Mode 2 from the AIVs: the AIC reads
 * both.  Every producer is slow.
 */
struct mix {
	int tile[2];
	int cell[2][2];
	int got_tile[2][2];
	int got_sibling[2][2];
	int got_back[2][2];
	struct step steps[3 * 2][3];
};

static void mix_kernel(struct asc_core *core, void *arg)
{
	struct mix *m = arg;
	int b = asc_core_block_idx(core), ai, s;
	struct step *st;

	if (asc_core_type(core) == ASC_CORE_AIC) {
		st = m->steps[b];
		st[0] = (struct step){ .sleep_ms = 150, .dst = &m->tile[b],
				       .value = 100 + b };
		asc_core_issue(core, ASC_PIPE_FIX, step_run, &st[0], "tile",
			       NULL, 0);
		asc_core_cross_set_flag(core, 3, 2, ASC_PIPE_FIX);
		asc_core_cross_wait_flag(core, 4, ASC_PIPE_S);
		st[1] = (struct step){ .src = &m->cell[b][0],
				       .dst = &m->got_back[b][0] };
		st[2] = (struct step){ .src = &m->cell[b][1],
				       .dst = &m->got_back[b][1] };
		asc_core_issue(core, ASC_PIPE_S, step_run, &st[1], "back", NULL, 0);
		asc_core_issue(core, ASC_PIPE_S, step_run, &st[2], "back", NULL, 0);
		return;
	}
	ai = b / 2;
	s = asc_core_sub_block_idx(core);
	st = m->steps[2 + b];
	asc_core_cross_wait_flag(core, 3, ASC_PIPE_V);
	st[0] = (struct step){ .src = &m->tile[ai], .dst = &m->got_tile[ai][s] };
	asc_core_issue(core, ASC_PIPE_V, step_run, &st[0], "read tile", NULL, 0);
	st[1] = (struct step){ .sleep_ms = s ? 100 : 0, .dst = &m->cell[ai][s],
			       .value = 1000 + 10 * ai + s };
	asc_core_issue(core, ASC_PIPE_V, step_run, &st[1], "cell", NULL, 0);
	asc_core_cross_set_flag(core, 2, 1, ASC_PIPE_V);
	asc_core_cross_wait_flag(core, 2, ASC_PIPE_MTE3);
	st[2] = (struct step){ .src = &m->cell[ai][1 - s],
			       .dst = &m->got_sibling[ai][s] };
	asc_core_issue(core, ASC_PIPE_MTE3, step_run, &st[2], "sibling", NULL, 0);
	asc_core_cross_set_flag(core, 4, 2, ASC_PIPE_MTE3);
}

TEST(cross_modes_1_and_2_on_mix)
{
	struct mix m = { 0 };
	char *report;
	int ai, s;

	need_launch(_metadata);
	ASSERT_EQ(0, launch(mix_kernel, &m, ASC_LAUNCH_MIX, 2, &report))
		TH_LOG("%s", report ? report : "");
	for (ai = 0; ai < 2; ai++) {
		for (s = 0; s < 2; s++) {
			EXPECT_EQ(100 + ai, m.got_tile[ai][s]);
			EXPECT_EQ(1000 + 10 * ai + (1 - s), m.got_sibling[ai][s]);
			EXPECT_EQ(1000 + 10 * ai + s, m.got_back[ai][s]);
		}
	}
}

/* ---- SyncAll ---- */

#define SYNC_CORES	8

struct sync {
	int cell[2][SYNC_CORES];
	int sum[2][SYNC_CORES];
	struct step put[2][SYNC_CORES];
};

static void sync_kernel(struct asc_core *core, void *arg)
{
	struct sync *y = arg;
	int b = asc_core_block_idx(core), r, i;

	for (r = 0; r < 2; r++) {
		y->put[r][b] = (struct step){ .sleep_ms = (b * 37 + r * 50) % 120,
					      .dst = &y->cell[r][b],
					      .value = r * 100 + b };
		asc_core_issue(core, ASC_PIPE_MTE3, step_run, &y->put[r][b],
			       "put", NULL, 0);
		if (asc_core_sync_all(core) < 0)
			return;
		/* The scalar reads after SyncAll: every core wrote. */
		for (i = 0; i < SYNC_CORES; i++)
			y->sum[r][b] += y->cell[r][i];
	}
}

TEST(sync_all_meets_every_core)
{
	struct sync y = { 0 };
	char *report;
	int r, b, want;

	need_launch(_metadata);
	ASSERT_EQ(0, launch(sync_kernel, &y, ASC_LAUNCH_AIV, SYNC_CORES, &report))
		TH_LOG("%s", report ? report : "");
	for (r = 0; r < 2; r++) {
		want = r * 100 * SYNC_CORES + SYNC_CORES * (SYNC_CORES - 1) / 2;
		for (b = 0; b < SYNC_CORES; b++)
			EXPECT_EQ(want, y.sum[r][b]);
	}
}

/*
 * A mix launch of 4 AI cores: the 8 AIVs meet twice in their SyncAll, as
 * sync_kernel's cores do, while each AIC waits in the SyncAll of every
 * core; after their rounds the AIVs come to it too, and the AICs read
 * what the AIVs wrote.
 */
#define AIV_AI_CORES	4

struct sync_aiv {
	struct sync y;
	int aic_sum[AIV_AI_CORES];
	int aic_err[AIV_AI_CORES];
};

static void sync_aiv_kernel(struct asc_core *core, void *arg)
{
	struct sync_aiv *a = arg;
	int b = asc_core_block_idx(core), r, i;

	if (asc_core_type(core) == ASC_CORE_AIC) {
		if (asc_core_sync_all(core) < 0) {
			a->aic_err[b] = errno;
			return;
		}
		for (i = 0; i < SYNC_CORES; i++)
			a->aic_sum[b] += a->y.cell[1][i];
		return;
	}
	for (r = 0; r < 2; r++) {
		a->y.put[r][b] = (struct step){ .sleep_ms = (b * 37 + r * 50) % 120,
						.dst = &a->y.cell[r][b],
						.value = r * 100 + b };
		asc_core_issue(core, ASC_PIPE_MTE3, step_run, &a->y.put[r][b],
			       "put", NULL, 0);
		if (asc_core_sync_all_aiv(core) < 0)
			return;
		for (i = 0; i < SYNC_CORES; i++)
			a->y.sum[r][b] += a->y.cell[r][i];
	}
	asc_core_sync_all(core);
}

TEST(sync_all_aiv_meets_the_aivs_only)
{
	struct sync_aiv a = { 0 };
	char *report;
	int r, b, want;

	need_launch(_metadata);
	ASSERT_EQ(0, launch(sync_aiv_kernel, &a, ASC_LAUNCH_MIX, AIV_AI_CORES, &report))
		TH_LOG("%s", report ? report : "");
	for (r = 0; r < 2; r++) {
		want = r * 100 * SYNC_CORES + SYNC_CORES * (SYNC_CORES - 1) / 2;
		for (b = 0; b < SYNC_CORES; b++)
			EXPECT_EQ(want, a.y.sum[r][b]) TH_LOG("round %d AIV %d", r, b);
	}
	for (b = 0; b < AIV_AI_CORES; b++) {
		EXPECT_EQ(0, a.aic_err[b]);
		EXPECT_EQ(100 * SYNC_CORES + SYNC_CORES * (SYNC_CORES - 1) / 2, a.aic_sum[b]);
	}
}

/* On an AIV launch it is every core's SyncAll, with asc_core_sync_all() or not. */
static void sync_aiv_vector_kernel(struct asc_core *core, void *arg)
{
	struct sync *y = arg;
	int b = asc_core_block_idx(core), i;

	y->put[0][b] = (struct step){ .sleep_ms = (b * 37) % 120,
				      .dst = &y->cell[0][b], .value = b };
	asc_core_issue(core, ASC_PIPE_MTE3, step_run, &y->put[0][b], "put", NULL, 0);
	if ((b % 2 ? asc_core_sync_all(core) : asc_core_sync_all_aiv(core)) < 0)
		return;
	for (i = 0; i < SYNC_CORES; i++)
		y->sum[0][b] += y->cell[0][i];
}

TEST(sync_all_aiv_on_vector_cores_is_sync_all)
{
	struct sync y = { 0 };
	char *report;
	int b;

	need_launch(_metadata);
	ASSERT_EQ(0, launch(sync_aiv_vector_kernel, &y, ASC_LAUNCH_AIV, SYNC_CORES, &report))
		TH_LOG("%s", report ? report : "");
	for (b = 0; b < SYNC_CORES; b++)
		EXPECT_EQ(SYNC_CORES * (SYNC_CORES - 1) / 2, y.sum[0][b]);
}

/* ---- errors ---- */

struct fail {
	int err[4];
};

/* Core 2 sets flag 11 (SyncAll's); the others wait in vain. */
static void fail_kernel(struct asc_core *core, void *arg)
{
	struct fail *f = arg;
	int b = asc_core_block_idx(core);

	if (b == 2) {
		sleep_ms(100);
		if (asc_core_cross_set_flag(core, 11, 0, ASC_PIPE_V) < 0)
			f->err[b] = errno;
		return;
	}
	if (b == 3) {
		if (asc_core_sync_all(core) < 0)
			f->err[b] = errno;
		return;
	}
	if (asc_core_cross_wait_flag(core, 5, b ? ASC_PIPE_S : ASC_PIPE_V) < 0)
		f->err[b] = errno;
	/* Core 0's wait is on V: the scalar learns of the end here. */
	if (!b && asc_core_pipe_barrier(core, ASC_PIPE_ALL) < 0)
		f->err[b] = errno;
}

TEST(error_of_one_core_ends_the_launch)
{
	struct fail f = { { 0 } };
	char *report = NULL;
	int b;

	need_launch(_metadata);
	ASSERT_EQ(EINVAL, launch(fail_kernel, &f, ASC_LAUNCH_AIV, 4, &report));
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "core 2 (AIV 2):")) TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "cross_set_flag(11, mode 0) on pipe 1: flag IDs are 0..10"))
		TH_LOG("%s", report);
	EXPECT_EQ(EINVAL, f.err[2]);
	for (b = 0; b < 4; b++)
		if (b != 2)
			EXPECT_EQ(ECANCELED, f.err[b]) TH_LOG("core %d", b);
	free(report);
}

static void overflow_kernel(struct asc_core *core, void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 16; i++)
		asc_core_cross_set_flag(core, 0, 0, ASC_PIPE_MTE2);
}

TEST(counter_past_15_fails_on_the_pipe)
{
	char *report = NULL;

	need_launch(_metadata);
	ASSERT_EQ(EOVERFLOW, launch(overflow_kernel, NULL, ASC_LAUNCH_AIV, 1,
				    &report));
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "#16 cross_set_flag(0, mode 0) on MTE2"))
		TH_LOG("%s", report);
	free(report);
}

/* ---- deadlocks ---- */

/*
 * Two AIVs wait for flag 1 before they set it: a mode 0 set counts once
 * both have issued it, which neither ever does.
 */
static int cross_wait_line, sync_wait_line, sync_all_line, aiv_sync_line,
	   aiv_wait_line;

static void cross_cycle_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	cross_wait_line = __LINE__ + 1;
	asc_core_cross_wait_flag(core, 1, ASC_PIPE_V);
	asc_core_cross_set_flag(core, 1, 0, ASC_PIPE_V);
}

static int barrier_line;

/* The same, with the scalar in a barrier behind the wait. */
static void cross_barrier_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	asc_core_cross_wait_flag(core, 1, ASC_PIPE_V);
	barrier_line = __LINE__ + 1;
	asc_core_pipe_barrier(core, ASC_PIPE_ALL);
	asc_core_cross_set_flag(core, 1, 0, ASC_PIPE_V);
}

/* The AIVs meet in SyncAll after their set; the AIC waits for it first. */
static void sync_cycle_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	if (asc_core_type(core) == ASC_CORE_AIC) {
		sync_wait_line = __LINE__ + 1;
		asc_core_cross_wait_flag(core, 6, ASC_PIPE_S);
		asc_core_sync_all(core);
		return;
	}
	sync_all_line = __LINE__ + 1;
	asc_core_sync_all(core);
	asc_core_cross_set_flag(core, 6, 2, ASC_PIPE_MTE3);
}

TEST(deadlock_across_cores_reported)
{
	char *report = NULL, *first = NULL, want[256];
	int i, core;

	need_launch(_metadata);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(EDEADLK, launch(cross_cycle_kernel, NULL,
					  ASC_LAUNCH_AIV, 2, &report));
		ASSERT_NE(NULL, report);
		EXPECT_NE(NULL, strstr(report, "deadlock across the cores"));
		for (core = 0; core < 2; core++) {
			snprintf(want, sizeof(want),
				 "core %d (AIV %d) V waits for cross-core flag 1 (#1 at launch-run.c:%d), which cores 0 (mode 0), 1 (mode 0) have not set",
				 core, core, cross_wait_line);
			EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
			snprintf(want, sizeof(want),
				 "core %d (AIV %d) S waits for its pipes to run what it issued (#3, the end of the kernel)\n",
				 core, core);
			EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
		}
		if (!first)
			first = report;
		else
			EXPECT_STREQ(first, report);
		if (report != first)
			free(report);
	}
	free(first);

	ASSERT_EQ(EDEADLK, launch(cross_barrier_kernel, NULL, ASC_LAUNCH_AIV, 2,
				  &report));
	ASSERT_NE(NULL, report);
	snprintf(want, sizeof(want),
		 "core 0 (AIV 0) S waits for its pipes to run what it issued (#2 at launch-run.c:%d)\n",
		 barrier_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	free(report);

	ASSERT_EQ(EDEADLK, launch(sync_cycle_kernel, NULL, ASC_LAUNCH_MIX, 1,
				  &report));
	ASSERT_NE(NULL, report);
	snprintf(want, sizeof(want),
		 "core 0 (AIC 0) S waits for cross-core flag 6 (#1 at launch-run.c:%d), which cores 0 (mode 0), 1 (mode 2), 2 (mode 2) have not set",
		 sync_wait_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	snprintf(want, sizeof(want),
		 "core 1 (AIV 0) S waits in SyncAll (#2 at launch-run.c:%d), which cores 0 have not reached",
		 sync_all_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	free(report);
}

/*
 * The AIC leaves at once; AIV 0 meets in the AIVs' SyncAll before its set
 * of flag 6 (mode 1), which AIV 1 waits for before it comes: only the
 * AIVs could end either wait, the AIC that left is none of them.
 */
static void sync_aiv_cycle_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	if (asc_core_type(core) == ASC_CORE_AIC)
		return;
	if (!asc_core_sub_block_idx(core)) {
		aiv_sync_line = __LINE__ + 1;
		asc_core_sync_all_aiv(core);
		asc_core_cross_set_flag(core, 6, 1, ASC_PIPE_MTE3);
		return;
	}
	asc_core_cross_set_flag(core, 6, 1, ASC_PIPE_MTE3);
	aiv_wait_line = __LINE__ + 1;
	asc_core_cross_wait_flag(core, 6, ASC_PIPE_S);
	asc_core_sync_all_aiv(core);
}

/* AIV 0 meets in the AIVs' SyncAll, AIV 1 and the AIC in every core's. */
static void sync_mixed_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	if (asc_core_type(core) == ASC_CORE_AIV && !asc_core_sub_block_idx(core))
		asc_core_sync_all_aiv(core);
	else
		asc_core_sync_all(core);
}

TEST(deadlock_in_the_aivs_sync_all_reported)
{
	char *report = NULL, want[160];
	int i;

	need_launch(_metadata);
	ASSERT_EQ(EDEADLK, launch(sync_aiv_cycle_kernel, NULL, ASC_LAUNCH_MIX, 1, &report));
	ASSERT_NE(NULL, report);
	snprintf(want, sizeof(want),
		 "core 1 (AIV 0) S waits in SyncAll of the AIVs (#2 at launch-run.c:%d), which cores 2 have not reached",
		 aiv_sync_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	snprintf(want, sizeof(want),
		 "core 2 (AIV 1) S waits for cross-core flag 6 (#2 at launch-run.c:%d)",
		 aiv_wait_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	free(report);

	/* The AIV that comes second fails, whichever it is. */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(EDEADLK, launch(sync_mixed_kernel, NULL, ASC_LAUNCH_MIX, 1, &report));
		ASSERT_NE(NULL, report);
		EXPECT_TRUE(strstr(report, "sync_all_aiv: deadlock: another AIV waits in the SyncAll of every core, which waits for this one") ||
			    strstr(report, "sync_all: deadlock: another AIV waits in the SyncAll of the AIVs, which waits for this one"))
			TH_LOG("%s", report);
		free(report);
	}
}

/* ---- arguments ---- */

struct args {
	int no_launch_set;
	int no_launch_wait;
	int no_launch_sync;
	int mode1_aiv_only;
	int aic_sync_aiv;
};

static void nothing_kernel(struct asc_core *core, void *arg)
{
	(void)core;
	(void)arg;
}

static void no_launch_kernel(struct asc_core *core, void *arg)
{
	struct args *a = arg;

	if (asc_core_cross_set_flag(core, 0, 0, ASC_PIPE_V) < 0)
		a->no_launch_set = errno;
	/* The first error wins: later calls repeat it. */
	if (asc_core_cross_wait_flag(core, 0, ASC_PIPE_V) < 0)
		a->no_launch_wait = errno;
}

static void mode1_kernel(struct asc_core *core, void *arg)
{
	struct args *a = arg;

	if (asc_core_cross_set_flag(core, 0, 1, ASC_PIPE_V) < 0)
		a->mode1_aiv_only = errno;
}

static void aic_sync_aiv_kernel(struct asc_core *core, void *arg)
{
	struct args *a = arg;

	if (asc_core_type(core) == ASC_CORE_AIC && asc_core_sync_all_aiv(core) < 0)
		a->aic_sync_aiv = errno;
}

static void set_on_s_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	asc_core_cross_set_flag(core, 0, 0, ASC_PIPE_S);
}

TEST(arguments)
{
	struct args a = { 0 };
	char *report = NULL;

	need_launch(_metadata);
	EXPECT_EQ(EINVAL, launch(NULL, NULL, ASC_LAUNCH_AIV, 1, NULL));
	EXPECT_EQ(EINVAL, launch(nothing_kernel, NULL, 0, 1, NULL));
	EXPECT_EQ(EINVAL, launch(nothing_kernel, NULL, 4, 1, NULL));
	EXPECT_EQ(EINVAL, launch(nothing_kernel, NULL, ASC_LAUNCH_AIV, 0, NULL));
	EXPECT_EQ(EINVAL, launch(nothing_kernel, NULL, ASC_LAUNCH_AIV, 65, NULL));
	EXPECT_EQ(0, launch(nothing_kernel, NULL, ASC_LAUNCH_MIX, 64, NULL));

	errno = 0;
	EXPECT_EQ(-1, asc_core_run(no_launch_kernel, &a, NULL, NULL));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(ENOTCONN, a.no_launch_set);
	EXPECT_EQ(ENOTCONN, a.no_launch_wait);

	EXPECT_EQ(EINVAL, launch(mode1_kernel, &a, ASC_LAUNCH_AIV, 1, &report));
	EXPECT_EQ(EINVAL, a.mode1_aiv_only);
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "modes 1 and 2 are for mix launches"))
		TH_LOG("%s", report);
	free(report);

	/*
	 * An AIC takes no part in the AIVs' SyncAll, of a mix launch or not.
	 * One AI core: with two, the first AIC's error ends the launch and
	 * the second may see ECANCELED instead.
	 */
	EXPECT_EQ(EINVAL, launch(aic_sync_aiv_kernel, &a, ASC_LAUNCH_MIX, 1, &report));
	EXPECT_EQ(EINVAL, a.aic_sync_aiv);
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "sync_all_aiv: an AIC takes no part in the AIVs' SyncAll"))
		TH_LOG("%s", report);
	free(report);
	a.aic_sync_aiv = 0;
	EXPECT_EQ(EINVAL, launch(aic_sync_aiv_kernel, &a, ASC_LAUNCH_AIC, 1, &report));
	EXPECT_EQ(EINVAL, a.aic_sync_aiv);
	free(report);
	errno = 0;
	EXPECT_EQ(-1, asc_core_sync_all_aiv(NULL));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(EINVAL, launch(set_on_s_kernel, NULL, ASC_LAUNCH_AIC, 1, &report));
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "core 0 (AIC 0):")) TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "not on S")) TH_LOG("%s", report);
	free(report);
}

TEST_HARNESS_MAIN
