// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The software sync over a workspace in global memory (lib/workspace_sync.c) on
 * launches of several cores, on the device (tools/testing/asc-check-guest); skips
 * without it.
 *
 * - IBSet / IBWait hand values around a ring of cores: each reads what
 *   the previous one wrote, whatever the order the cores get there, and
 *   the n-th wait waits for the n-th set.
 * - Without the IBWait, the cross-core detector reports the race.
 * - SyncAll over global memory: no core reads before every core that
 *   takes part has written, twice in a row; a subset of the cores.
 * - An IBWait no set ever ends is a deadlock, reported, not a hang.
 * - Bad arguments are refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "need-device.h"

#define CORES	4
#define ROUNDS	2

static void sleep_ms(int ms)
{
	struct timespec t = { 0, ms * 1000000L };

	nanosleep(&t, NULL);
}

/* A copy of one int after a sleep, as a slow pipe does it. */
struct copy {
	int sleep_ms;
	int *dst;
	const int *src;
	int value;	/* when @src is NULL */
};

static void copy_run(void *arg)
{
	struct copy *c = arg;

	sleep_ms(c->sleep_ms);
	*c->dst = c->src ? *c->src : c->value;
}

/*
 * The ring: in round r, core b writes cell[r][b] on MTE3, sets its flag,
 * waits for the flag of core b - 1 and copies its cell on MTE2.
 */
struct ring {
	int skip_wait;
	int cell[ROUNDS][CORES];
	int got[ROUNDS][CORES];
	struct copy put[ROUNDS][CORES], get[ROUNDS][CORES];
	int err[CORES];
	uint32_t ws[CORES * 8] __attribute__((aligned(32)));
};

static void ring_kernel(struct asc_core *core, void *arg)
{
	struct ring *g = arg;
	int b = asc_core_block_idx(core), prev = (b + CORES - 1) % CORES, r;

	for (r = 0; r < ROUNDS; r++) {
		struct asc_access put = { &g->cell[r][b], sizeof(int), 1, "cell" };
		struct asc_access get[] = {
			{ &g->cell[r][prev], sizeof(int), 0, "cell" },
			{ &g->got[r][b], sizeof(int), 1, "got" },
		};

		/* Later cores write first: the wait must really wait. */
		g->put[r][b] = (struct copy){ .sleep_ms = (CORES - 1 - b) * 15,
					      .dst = &g->cell[r][b],
					      .value = 100 * r + b };
		g->get[r][b] = (struct copy){ .dst = &g->got[r][b],
					      .src = &g->cell[r][prev] };
		if (asc_core_issue(core, ASC_PIPE_MTE3, copy_run, &g->put[r][b],
				   "put", &put, 1) ||
		    asc_core_ib_set(core, g->ws, b, 0) ||
		    (!g->skip_wait && asc_core_ib_wait(core, g->ws, prev, 0)) ||
		    asc_core_issue(core, ASC_PIPE_MTE2, copy_run, &g->get[r][b],
				   "get", get, 2)) {
			g->err[b] = errno;
			return;
		}
	}
}

TEST(ib_set_and_wait_hand_values_around_a_ring)
{
	struct ring *g = calloc(1, sizeof(*g));
	char *report = NULL;
	int r, b;

	need_device(_metadata);
	ASSERT_EQ(0, asc_launch_run(ring_kernel, g, ASC_LAUNCH_AIV, CORES, NULL,
				    &report))
		TH_LOG("%s: %s", strerror(errno), report ? report : "");
	for (r = 0; r < ROUNDS; r++)
		for (b = 0; b < CORES; b++)
			EXPECT_EQ(100 * r + (b + CORES - 1) % CORES, g->got[r][b]);
	/* Each core's counter counted its sets. */
	for (b = 0; b < CORES; b++)
		EXPECT_EQ(ROUNDS, (int)g->ws[b * 8]);
	free(report);
	free(g);
}

TEST(ib_wait_deleted_is_a_race_reported)
{
	struct ring *g = calloc(1, sizeof(*g));
	char *report = NULL;

	need_device(_metadata);
	g->skip_wait = 1;
	errno = 0;
	ASSERT_EQ(-1, asc_launch_run(ring_kernel, g, ASC_LAUNCH_AIV, CORES,
				     NULL, &report));
	EXPECT_EQ(ENOLCK, errno);
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report,
			       "missing sync: core 0 (AIV 0) MTE3 writes \"cell\""))
		TH_LOG("%s", report);
	EXPECT_NE(NULL, strstr(report, "and core 1 (AIV 1) MTE2 reads it (#"))
		TH_LOG("%s", report);
	free(report);
	free(g);
}

/*
 * SyncAll over global memory, twice: core b writes cell[r][b], SyncAll,
 * then sums the cells of the cores that take part on MTE2.
 */
struct meet {
	int used;	/* asc_core_sync_all_gm()'s used_cores */
	int cell[ROUNDS][CORES];
	int sum[ROUNDS][CORES];
	struct copy put[ROUNDS][CORES];
	struct meet_sum {
		struct meet *m;
		int r, b;
	} add[ROUNDS][CORES];
	int err[CORES];
	uint32_t ws[CORES * 8] __attribute__((aligned(32)));
};

static void meet_sum_run(void *arg)
{
	struct meet_sum *s = arg;
	int i, n = s->m->used ? s->m->used : CORES;

	for (i = 0; i < n; i++)
		s->m->sum[s->r][s->b] += s->m->cell[s->r][i];
}

static void meet_kernel(struct asc_core *core, void *arg)
{
	struct meet *m = arg;
	int b = asc_core_block_idx(core), r;
	int n = m->used ? m->used : CORES;

	if (b >= n)
		return;
	for (r = 0; r < ROUNDS; r++) {
		struct asc_access put = { &m->cell[r][b], sizeof(int), 1, "cell" };
		struct asc_access add[] = {
			{ m->cell[r], n * sizeof(int), 0, "cell" },
			{ &m->sum[r][b], sizeof(int), 1, "sum" },
		};

		m->put[r][b] = (struct copy){ .sleep_ms = (b * 37 + r * 50) % 60,
					      .dst = &m->cell[r][b],
					      .value = r * 100 + b };
		m->add[r][b] = (struct meet_sum){ m, r, b };
		if (asc_core_issue(core, ASC_PIPE_MTE3, copy_run, &m->put[r][b],
				   "put", &put, 1) ||
		    asc_core_sync_all_gm(core, m->ws, m->used) ||
		    asc_core_issue(core, ASC_PIPE_MTE2, meet_sum_run,
				   &m->add[r][b], "sum", add, 2)) {
			m->err[b] = errno;
			return;
		}
	}
}

static void check_meet(struct __test_metadata *_metadata, int used)
{
	struct meet *m = calloc(1, sizeof(*m));
	int n = used ? used : CORES, r, b, want;
	char *report = NULL;

	m->used = used;
	ASSERT_EQ(0, asc_launch_run(meet_kernel, m, ASC_LAUNCH_AIV, CORES, NULL,
				    &report))
		TH_LOG("%s: %s", strerror(errno), report ? report : "");
	for (r = 0; r < ROUNDS; r++) {
		want = r * 100 * n + n * (n - 1) / 2;
		for (b = 0; b < n; b++)
			EXPECT_EQ(want, m->sum[r][b]) TH_LOG("round %d core %d", r, b);
	}
	free(report);
	free(m);
}

TEST(sync_all_gm_meets_every_core)
{
	need_device(_metadata);
	check_meet(_metadata, 0);
}

TEST(sync_all_gm_of_some_cores)
{
	need_device(_metadata);
	check_meet(_metadata, 2);
}

static int lonely_line;

/* Core 0 waits for a flag core 1 never sets. */
static void lonely_kernel(struct asc_core *core, void *arg)
{
	uint32_t *ws = arg;

	if (asc_core_block_idx(core) == 0) {
		lonely_line = __LINE__ + 1;
		asc_core_ib_wait(core, ws, 1, 0);
	}
}

TEST(ib_wait_never_set_is_a_deadlock)
{
	uint32_t ws[2 * 8] __attribute__((aligned(32))) = { 0 };
	char *report = NULL, want[160];

	need_device(_metadata);
	errno = 0;
	ASSERT_EQ(-1, asc_launch_run(lonely_kernel, ws, ASC_LAUNCH_AIV, 2, NULL,
				     &report));
	EXPECT_EQ(EDEADLK, errno);
	ASSERT_NE(NULL, report);
	snprintf(want, sizeof(want),
		 "core 0 (AIV 0) MTE2 waits (#1 IBWait at gm-sync-run.c:%d) for the counter of block 1, event 0 to reach 1; it is 0\n",
		 lonely_line);
	EXPECT_NE(NULL, strstr(report, want)) TH_LOG("%s", report);
	EXPECT_EQ(NULL, strstr(report, "0x")) TH_LOG("%s", report);
	free(report);
}

/* Core 0 makes bad call @which; @err gets its errno. */
struct bad {
	int which;
	int err;
	uint32_t ws[8 * 8] __attribute__((aligned(32)));
};

static void bad_kernel(struct asc_core *core, void *arg)
{
	struct bad *d = arg;
	int ret = 0;

	if (asc_core_block_idx(core) != 0)
		return;
	switch (d->which) {
	case 0:		/* no block 3 of 3 */
		ret = asc_core_ib_set(core, d->ws, 3, 0);
		break;
	case 1:		/* misaligned */
		ret = asc_core_ib_wait(core, (char *)d->ws + 2, 1, 0);
		break;
	case 2:		/* a negative event */
		ret = asc_core_ib_set(core, d->ws, 0, -1);
		break;
	case 3:		/* more cores than the launch has */
		ret = asc_core_sync_all_gm(core, d->ws, 4);
		break;
	}
	if (ret < 0)
		d->err = errno;
}

TEST(bad_arguments_refused)
{
	struct bad d;
	int i;

	need_device(_metadata);
	EXPECT_EQ(-1, asc_core_ib_set(NULL, d.ws, 0, 0));
	EXPECT_EQ(-1, asc_core_ib_wait(NULL, d.ws, 0, 0));
	EXPECT_EQ(-1, asc_core_sync_all_gm(NULL, d.ws, 0));
	for (i = 0; i < 4; i++) {
		memset(&d, 0, sizeof(d));
		d.which = i;
		errno = 0;
		EXPECT_EQ(-1, asc_launch_run(bad_kernel, &d, ASC_LAUNCH_AIV, 3,
					     NULL, NULL));
		EXPECT_EQ(EINVAL, errno) TH_LOG("call %d", i);
		EXPECT_EQ(EINVAL, d.err) TH_LOG("call %d", i);
	}
}

TEST_HARNESS_MAIN
