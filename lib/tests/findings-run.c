// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Findings of the core runtime that name their cause, on the device, run
 * by asc_core_run() in the test guest (tools/testing/asc-check-guest).
 * Needs /dev/asc_event; skips without it.  The calls go through <asc.h>'s
 * call-site macros, and each report is compared in full: every line names
 * lines of this file, and none a host address.
 *
 * - Leaks: an ID the kernel allocated and never released, at reset(),
 *   destroy() and by the end of the kernel, naming the allocating line;
 *   a flag set and never waited for before destroy(); none when the
 *   kernel released what it allocated.
 * - A hand-written use, then an alloc of the same HardEvent: decided from
 *   the issue order, whatever the pipes have run.  The issue's example
 *   (the allocated ID's first set queues behind a wait that comes after
 *   the hand-written wait) succeeds on every run; a hand-written set and
 *   wait that nothing orders before the next set is refused on every
 *   run, the pipes having run it or not.
 * - An ID released while its set has no wait issued, then allocated
 *   again: refused, the report naming the early release and the set.
 * - A launch where every core from 4 up leaves a flag set: the report
 *   names core 4 on every run, the odd or the even cores lagging in turn,
 *   by each of five lags (ten runs: short enough for the debug kernel).
 * - Four cores writing one tile of a declared buffer three times from one
 *   line: one line, by the offset in the buffer, with "and 53 more like
 *   it (cores 0-3, iterations 1-3)".
 * - The AIVs of a mix launch set a flag in mode 0, the AIC waits for it:
 *   the deadlock report names the set and its wrong mode, one line for
 *   both cores of the one call; one line each when they set it from two.
 * - Two AIVs set a flag in mode 0 that no wait takes: a line for each
 *   core's count, naming the set's line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "many-runs.h"
#include "need-device.h"

#define MTE2_V	ASC_HARD_EVENT_MTE2_V
#define V_MTE2	ASC_HARD_EVENT_V_MTE2
#define V_S	ASC_HARD_EVENT_V_S

static const struct asc_core_attr checked = { 0 };

/* Run @kernel; its errno (0 on success) and report. */
static int run(asc_kernel_fn kernel, void *arg, char **report)
{
	int ret;

	errno = 0;
	ret = asc_core_run(kernel, arg, &checked, report);
	return ret ? errno : 0;
}

#define CHECK(call) do { if ((call) < 0) return; } while (0)

/* ---- leaks ---- */

enum leak_at { LEAK_RESET, LEAK_DESTROY, LEAK_END, LEAK_NONE, FLAG_DESTROY };

/* What a leak kernel does (@at), and the lines of its calls. */
struct leak {
	enum leak_at at;
	int alloc_line, end_line;
};

static void leak_kernel(struct asc_core *core, void *arg)
{
	struct leak *l = arg;
	int id;

	if (l->at == FLAG_DESTROY) {
		l->alloc_line = __LINE__ + 1;
		CHECK(asc_core_set_flag(core, MTE2_V, 2));
		l->end_line = __LINE__ + 1;
		CHECK(asc_core_tpipe_destroy(core));
		return;
	}
	l->alloc_line = __LINE__ + 1;
	id = asc_core_alloc_event_id(core, V_S);
	CHECK(id);
	CHECK(asc_core_set_flag(core, V_S, id));
	CHECK(asc_core_wait_flag(core, V_S, id));
	if (l->at == LEAK_NONE)
		CHECK(asc_core_release_event_id(core, id, V_S));
	if (l->at == LEAK_RESET || l->at == LEAK_NONE) {
		l->end_line = __LINE__ + 1;
		CHECK(asc_core_reset(core));
	} else if (l->at == LEAK_DESTROY) {
		l->end_line = __LINE__ + 1;
		CHECK(asc_core_tpipe_destroy(core));
	}
}

TEST(id_leaked_at_reset_destroy_and_the_end)
{
	static const char *const when[] = {
		[LEAK_RESET] = "before reset (#4 at findings-run.c:%d)",
		[LEAK_DESTROY] = "before destroy (#4 at findings-run.c:%d)",
		[LEAK_END] = "by the end of the kernel",
	};
	char want[256], end[96], *report;
	struct leak l;
	int at;

	need_device(_metadata);
	for (at = LEAK_RESET; at <= LEAK_END; at++) {
		memset(&l, 0, sizeof(l));
		l.at = at;
		ASSERT_EQ(ENOLCK, run(leak_kernel, &l, &report)) TH_LOG("%s", report);
		snprintf(end, sizeof(end), when[at], l.end_line);
		snprintf(want, sizeof(want),
			 "leaked ID: V_S id 0, allocated by the kernel (#1 at findings-run.c:%d), never released %s\n",
			 l.alloc_line, end);
		ASSERT_STREQ(want, report);
		free(report);
	}
}

TEST(released_ids_are_no_leak)
{
	struct leak l = { .at = LEAK_NONE };
	char *report;

	need_device(_metadata);
	ASSERT_EQ(0, run(leak_kernel, &l, &report)) TH_LOG("%s", report);
	ASSERT_EQ(NULL, report);
}

TEST(flag_never_waited_for_before_destroy)
{
	struct leak l = { .at = FLAG_DESTROY };
	char want[256], *report;

	need_device(_metadata);
	ASSERT_EQ(ENOLCK, run(leak_kernel, &l, &report));
	snprintf(want, sizeof(want),
		 "missing wait: MTE2 sets MTE2_V id 2 (#1 at findings-run.c:%d) and no wait takes it before destroy (#2 at findings-run.c:%d)\n",
		 l.alloc_line, l.end_line);
	ASSERT_STREQ(want, report);
	free(report);
}

/* ---- a hand-written use, then an alloc ---- */

#define COLLISION_RUNS	30

struct collide {
	bool back;		/* MTE2 waits for V_MTE2 after V's wait */
	bool late;		/* the scalar gives the pipes time first */
	int run;
	int id;
	int wait_line, alloc_line;
};

static void slow(void *arg)
{
	struct collide *k = arg;

	/* Every other run, V lags behind the scalar. */
	if (k->run % 2)
		usleep(2000);
}

static void collide_kernel(struct asc_core *core, void *arg)
{
	struct collide *k = arg;

	CHECK(asc_core_set_flag(core, MTE2_V, 0));
	CHECK(asc_core_issue(core, ASC_PIPE_V, slow, k, "slow", NULL, 0));
	k->wait_line = __LINE__ + 1;
	CHECK(asc_core_wait_flag(core, MTE2_V, 0));
	if (k->back) {
		CHECK(asc_core_set_flag(core, V_MTE2, 0));
		CHECK(asc_core_wait_flag(core, V_MTE2, 0));
	}
	if (k->late)
		usleep(5000);
	k->alloc_line = __LINE__ + 1;
	k->id = asc_core_alloc_event_id(core, MTE2_V);
	CHECK(k->id);
	CHECK(asc_core_set_flag(core, MTE2_V, k->id));
	CHECK(asc_core_wait_flag(core, MTE2_V, k->id));
	CHECK(asc_core_release_event_id(core, k->id, MTE2_V));
}

TEST(alloc_after_a_use_it_queues_behind_succeeds_every_time)
{
	struct collide k = { .back = true };
	char *report;

	need_device(_metadata);
	for (k.run = 0; k.run < COLLISION_RUNS; k.run++) {
		k.id = -1;
		ASSERT_EQ(0, run(collide_kernel, &k, &report)) TH_LOG("run %d: %s", k.run, report);
		ASSERT_EQ(0, k.id);
	}
}

TEST(alloc_that_may_collide_is_refused_every_time)
{
	struct collide k = { 0 };
	char want[512], *report;

	need_device(_metadata);
	for (k.run = 0; k.run < COLLISION_RUNS; k.run++) {
		k.late = k.run % 3 == 0;
		ASSERT_EQ(EADDRINUSE, run(collide_kernel, &k, &report))
			TH_LOG("run %d: %s", k.run, report);
		snprintf(want, sizeof(want),
			 "error: #4 alloc_event_id(MTE2_V) on S at findings-run.c:%d: Address already in use\n"
			 "in use: MTE2_V id 0: its last wait, on V (#3 at findings-run.c:%d), is ordered before nothing MTE2 issues next: a set of it could come first\n",
			 k.alloc_line, k.wait_line);
		ASSERT_STREQ(want, report) TH_LOG("run %d", k.run);
		free(report);
	}
}

/* ---- an early release ---- */

struct early {
	int set_line, release_line, alloc_line;
};

static void early_kernel(struct asc_core *core, void *arg)
{
	struct early *e = arg;
	int id;

	id = asc_core_alloc_event_id(core, MTE2_V);
	CHECK(id);
	e->set_line = __LINE__ + 1;
	CHECK(asc_core_set_flag(core, MTE2_V, id));
	e->release_line = __LINE__ + 1;
	CHECK(asc_core_release_event_id(core, id, MTE2_V));
	e->alloc_line = __LINE__ + 1;
	CHECK(asc_core_alloc_event_id(core, MTE2_V));
}

TEST(an_early_release_is_named)
{
	struct early e = { 0 };
	char want[768], *report;

	need_device(_metadata);
	ASSERT_EQ(EADDRINUSE, run(early_kernel, &e, &report)) TH_LOG("%s", report);
	snprintf(want, sizeof(want),
		 "error: #4 alloc_event_id(MTE2_V) on S at findings-run.c:%d: Address already in use\n"
		 "in use: MTE2_V id 0: its flag, set by MTE2 (#2 at findings-run.c:%d), not waited for yet\n"
		 "in use: MTE2_V id 0: released early (#3 at findings-run.c:%d), while its set (#2 at findings-run.c:%d) had no wait issued\n",
		 e.alloc_line, e.set_line, e.release_line, e.set_line);
	ASSERT_STREQ(want, report);
	free(report);
}

/* ---- the lowest-numbered core ---- */

#define LOW_CORES	8
#define LOW_FIRST	4
#define LOW_RUNS	10

struct lowest {
	int run;
	int set_line;
};

static void lowest_kernel(struct asc_core *core, void *arg)
{
	struct lowest *k = arg;
	unsigned int idx = asc_core_block_idx(core);

	/* On odd runs the odd cores lag, on even runs the even ones. */
	if ((idx + k->run) % 2)
		usleep(1000 + 300 * (k->run % 5));
	k->set_line = __LINE__ + 1;
	CHECK(asc_core_set_flag(core, MTE2_V, 0));
	if (idx < LOW_FIRST)
		CHECK(asc_core_wait_flag(core, MTE2_V, 0));
}

TEST(a_launch_names_the_lowest_numbered_core_every_time)
{
	struct lowest k = { 0 };
	char want[512], *report;
	int ret;

	need_device(_metadata);
	for (k.run = 0; k.run < LOW_RUNS; k.run++) {
		errno = 0;
		ret = asc_launch_run(lowest_kernel, &k, ASC_LAUNCH_AIV,
				     LOW_CORES, &checked, &report);
		ASSERT_EQ(-1, ret);
		ASSERT_EQ(ENOLCK, errno) TH_LOG("run %d: %s", k.run, report);
		snprintf(want, sizeof(want),
			 "core %d (AIV %d):\n"
			 "missing wait: MTE2 sets MTE2_V id 0 (#1 at findings-run.c:%d) and no wait takes it by the end of the kernel\n",
			 LOW_FIRST, LOW_FIRST, k.set_line);
		ASSERT_STREQ(want, report) TH_LOG("run %d", k.run);
		free(report);
	}
}

/* ---- one line for the races of a pair of lines ---- */

#define TILE_BYTES	256

struct overwrite {
	char out[4 * TILE_BYTES];
	char tile[4][TILE_BYTES];
	int copy_line;
};

static void copy_out(void *arg)
{
	(void)arg;
}

static void overwrite_kernel(struct asc_core *core, void *arg)
{
	struct overwrite *o = arg;
	unsigned int idx = asc_core_block_idx(core);
	struct asc_access acc[2] = {
		{ o->tile[idx], TILE_BYTES, 0, "tile" },
		{ o->out + TILE_BYTES, TILE_BYTES, 1, "outTile" },
	};
	int i;

	CHECK(asc_core_gm_buffer(core, o->out, sizeof(o->out), "out"));
	for (i = 0; i < 3; i++) {
		o->copy_line = __LINE__ + 1;
		CHECK(asc_core_issue(core, ASC_PIPE_MTE3, copy_out, NULL, "DataCopy", acc, 2));
		CHECK(asc_core_pipe_barrier(core, ASC_PIPE_MTE3));
	}
}

TEST(races_of_one_pair_of_lines_print_once)
{
	static struct overwrite o;
	char want[768], *report;
	int ret;

	need_device(_metadata);
	errno = 0;
	ret = asc_launch_run(overwrite_kernel, &o, ASC_LAUNCH_AIV, 4, &checked, &report);
	ASSERT_EQ(-1, ret);
	ASSERT_EQ(ENOLCK, errno) TH_LOG("%s", report);
	snprintf(want, sizeof(want),
		 "missing sync: core 0 (AIV 0) MTE3 writes \"outTile\" at \"out\" [256+256] (#1 DataCopy at findings-run.c:%d) and core 1 (AIV 1) MTE3 writes it (#1 DataCopy at findings-run.c:%d): no cross-core set/wait or SyncAll orders them, and 53 more like it (cores 0-3, iterations 1-3)\n",
		 o.copy_line, o.copy_line);
	ASSERT_STREQ(want, report);
	free(report);
}

/* ---- a wrong cross-core mode ---- */

static int wrong_mode_line, wrong_mode_line_b, wrong_mode_wait_line;

/*
 * The AIVs set flag 5 in mode 0, which counts on the AIVs, the AIC waits
 * for it: from one line, or (*@arg) AIV 1 from another one.
 */
static void wrong_mode_kernel(struct asc_core *core, void *arg)
{
	const bool *two_lines = arg;

	if (asc_core_type(core) == ASC_CORE_AIC) {
		wrong_mode_wait_line = __LINE__ + 1;
		CHECK(asc_core_cross_wait_flag(core, 5, ASC_PIPE_S));
		return;
	}
	if (*two_lines && asc_core_block_idx(core)) {
		wrong_mode_line_b = __LINE__ + 1;
		CHECK(asc_core_cross_set_flag(core, 5, 0, ASC_PIPE_MTE3));
		return;
	}
	wrong_mode_line = __LINE__ + 1;
	CHECK(asc_core_cross_set_flag(core, 5, 0, ASC_PIPE_MTE3));
}

/* The deadlock report of wrong_mode_kernel(); in @want its first two lines. */
static char *wrong_mode_report(struct __test_metadata *_metadata, bool two_lines,
			       char *want, size_t size)
{
	char *report = NULL;
	int ret;

	errno = 0;
	ret = asc_launch_run(wrong_mode_kernel, &two_lines, ASC_LAUNCH_MIX, 1,
			     &checked, &report);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EDEADLK, errno) TH_LOG("%s", report);
	snprintf(want, size,
		 "error: deadlock across the cores of the launch: these cores and pipes wait forever for one another\n"
		 "  core 0 (AIC 0) S waits for cross-core flag 5 (#1 at findings-run.c:%d), which cores 0 (mode 0), 1 (mode 2), 2 (mode 2) have not set\n",
		 wrong_mode_wait_line);
	return report;
}

TEST(a_wrong_cross_core_mode_names_the_set)
{
	char want[1024], *report;
	size_t len;

	need_device(_metadata);
	report = wrong_mode_report(_metadata, false, want, sizeof(want));
	len = strlen(want);
	snprintf(want + len, sizeof(want) - len,
		 "  wrong mode: cores 1 (AIV 0) and 2 (AIV 1) set cross-core flag 5 in mode 0 (#1 at findings-run.c:%d), which counts on cores 1-2, not on core 0 (AIC 0), which waits for it\n",
		 wrong_mode_line);
	ASSERT_STREQ(want, report);
	free(report);
}

TEST(wrong_modes_of_two_calls_are_two_lines)
{
	char want[1024], *report;
	size_t len;

	need_device(_metadata);
	report = wrong_mode_report(_metadata, true, want, sizeof(want));
	len = strlen(want);
	snprintf(want + len, sizeof(want) - len,
		 "  wrong mode: core 1 (AIV 0) sets cross-core flag 5 in mode 0 (#1 at findings-run.c:%d), which counts on cores 1-2, not on core 0 (AIC 0), which waits for it\n"
		 "  wrong mode: core 2 (AIV 1) sets cross-core flag 5 in mode 0 (#1 at findings-run.c:%d), which counts on cores 1-2, not on core 0 (AIC 0), which waits for it\n",
		 wrong_mode_line, wrong_mode_line_b);
	ASSERT_STREQ(want, report);
	free(report);
}

/* ---- a cross-core count no wait takes ---- */

static int leftover_line;

static void leftover_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	leftover_line = __LINE__ + 1;
	CHECK(asc_core_cross_set_flag(core, 1, 0, ASC_PIPE_MTE3));
}

TEST(a_count_no_wait_takes_names_the_set_line)
{
	char want[1024], *report;
	int ret;

	need_device(_metadata);
	errno = 0;
	ret = asc_launch_run(leftover_kernel, NULL, ASC_LAUNCH_AIV, 2, &checked, &report);
	ASSERT_EQ(-1, ret);
	ASSERT_EQ(ENOLCK, errno) TH_LOG("%s", report);
	snprintf(want, sizeof(want),
		 "missing wait: cross-core flag 1 of core 0 (AIV 0) counts a set of core 1 (AIV 1) (#1 MTE3 at findings-run.c:%d, mode 0) that no wait takes by the end of the launch\n"
		 "missing wait: cross-core flag 1 of core 1 (AIV 1) counts a set of core 1 (AIV 1) (#1 MTE3 at findings-run.c:%d, mode 0) that no wait takes by the end of the launch\n",
		 leftover_line, leftover_line);
	ASSERT_STREQ(want, report);
	free(report);
}

TEST_HARNESS_MAIN
