// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cross-core missing-sync detector (lib/race_launch.c) without a device: the
 * programs of the cores of a launch issued to their detectors (lib/race.c)
 * and to it, in order, and what it finds after the launch.  Linked with
 * the static library, whose internal functions it calls.
 *
 * Each report is compared in full: the finding is a function of each
 * core's issue order alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "race.h"
#include "race_launch.h"

#include "kselftest_harness.h"

#define MAX_CORES	8

/* Global memory the cores share; only the addresses matter. */
static char x[256], y[256];

/* A launch's cores, each with its detector and instruction numbers. */
struct prog {
	struct asc_xrace *xrace;
	struct asc_race *race[MAX_CORES];
	unsigned long seq[MAX_CORES];
	unsigned int ncores;
	struct asc_report report;
	char *text;
};

static struct prog *prog_new(int kind, unsigned int block_dim)
{
	struct prog *p = calloc(1, sizeof(*p));
	char name[32];
	unsigned int i;

	p->ncores = kind == ASC_LAUNCH_MIX ? 3 * block_dim : block_dim;
	p->xrace = asc_xrace_new(kind, block_dim);
	for (i = 0; i < p->ncores; i++) {
		p->race[i] = asc_race_new();
		snprintf(name, sizeof(name), "core %u", i);
		asc_xrace_attach(p->xrace, i, p->race[i], name);
	}
	return p;
}

static void prog_free(struct prog *p)
{
	unsigned int i;

	for (i = 0; i < p->ncores; i++)
		asc_race_free(p->race[i]);
	asc_xrace_free(p->xrace);
	asc_report_free(&p->report);
	free(p->text);
	free(p);
}

/* Work of @core on @pipe touching @buf (@write), named @what. */
static int work(struct prog *p, unsigned int core, int pipe, const char *what,
		char *buf, const char *name, int write)
{
	struct asc_access a = { buf, 64, write, name };

	return asc_race_work(p->race[core], pipe, ++p->seq[core], what, &a, 1) < 0 ?
	       -1 : 0;
}

static int xset(struct prog *p, unsigned int core, int flag, int mode,
		int pipe)
{
	unsigned long seq = ++p->seq[core];
	long mark = asc_xrace_cross_set(p->xrace, core, flag, mode, seq);

	if (mark < 0)
		return -1;
	return asc_race_mark(p->race[core], pipe, seq, "cross_set_flag", mark) < 0 ?
	       -1 : 0;
}

static int xwait(struct prog *p, unsigned int core, int flag, int pipe)
{
	unsigned long seq = ++p->seq[core];
	int pos = asc_race_work(p->race[core], pipe, seq, "cross_wait_flag", NULL, 0);

	if (pos < 0)
		return -1;
	return asc_xrace_cross_wait(p->xrace, core, flag, pipe, pos, seq);
}

/* SyncAll of @core: of every core, or (@aiv) the AIVs' of a mix launch. */
static int sync_kind(struct prog *p, unsigned int core, int aiv)
{
	if (asc_race_barrier(p->race[core], ASC_PIPE_ALL, ++p->seq[core]) < 0)
		return -1;
	return asc_xrace_sync_all(p->xrace, core, aiv, p->race[core], ++p->seq[core]);
}

static int sync_all(struct prog *p, unsigned int core)
{
	return sync_kind(p, core, 0);
}

/* The check after the launch: 0 or its errno; the report in p->text. */
static int check(struct prog *p)
{
	int ret = asc_xrace_check(p->xrace, &p->report) ? errno : 0;

	p->text = asc_report_take(&p->report);
	return ret;
}

/* The line of a race on the first 64 bytes of @buf, as the report has it. */
static char *race_line(const char *first, const char *buf, const char *second)
{
	char *s = NULL;

	if (asprintf(&s, "missing sync: %s \"%s\" [%td+64] %s: no cross-core set/wait or SyncAll orders them\n",
		     first, buf == x ? "x" : "y", buf - (buf == x ? x : y), second) < 0)
		return NULL;
	return s;
}

static int lines(const char *text)
{
	int n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Core 0 writes x on MTE3 and sets flag 0 in mode 0 on @set_pipe; core 1
 * sets it too, waits on @wait_pipe (the wait deleted when -1), and reads
 * x on MTE2; core 0 takes its count on S.
 */
static int handoff(struct prog *p, int set_pipe, int wait_pipe)
{
	if (work(p, 0, ASC_PIPE_MTE3, "copy out", x, "x", 1) ||
	    xset(p, 0, 0, 0, set_pipe) || xwait(p, 0, 0, ASC_PIPE_S) ||
	    xset(p, 1, 0, 0, ASC_PIPE_MTE2))
		return -1;
	if (wait_pipe >= 0 && xwait(p, 1, 0, wait_pipe))
		return -1;
	return work(p, 1, ASC_PIPE_MTE2, "copy in", x, "x", 0);
}

TEST(race_between_two_cores_reported)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 2);
	char *want;

	ASSERT_EQ(0, handoff(p, ASC_PIPE_MTE3, -1));
	ASSERT_EQ(ENOLCK, check(p));
	want = race_line("core 0 MTE3 writes", x, "(#1 copy out) and core 1 MTE2 reads it (#2 copy in)");
	/* The count core 1 never took is the second finding. */
	ASSERT_NE(NULL, p->text);
	EXPECT_EQ(0, strncmp(p->text, want, strlen(want))) {
		TH_LOG("report:\n%s", p->text);
	}
	EXPECT_NE(NULL, strstr(p->text, "missing wait: cross-core flag 0 of core 1 counts a set of core 1 (#1 MTE2, mode 0) that no wait takes by the end of the launch\n"))
		TH_LOG("report:\n%s", p->text);
	free(want);
	prog_free(p);
}

TEST(the_same_program_with_its_wait_is_clean)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 2);

	ASSERT_EQ(0, handoff(p, ASC_PIPE_MTE3, ASC_PIPE_MTE2));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);

	/* A wait of the scalar orders what it issues after it. */
	p = prog_new(ASC_LAUNCH_AIV, 2);
	ASSERT_EQ(0, handoff(p, ASC_PIPE_MTE3, ASC_PIPE_S));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);
}

TEST(set_or_wait_on_the_wrong_pipe_orders_nothing)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 2);
	char *want;

	/* Set on V: V knows nothing of MTE3's write. */
	ASSERT_EQ(0, handoff(p, ASC_PIPE_V, ASC_PIPE_MTE2));
	ASSERT_EQ(ENOLCK, check(p));
	want = race_line("core 0 MTE3 writes", x, "(#1 copy out) and core 1 MTE2 reads it (#3 copy in)");
	EXPECT_STREQ(want, p->text);
	free(want);
	prog_free(p);

	/* Wait on V: MTE2 does not wait. */
	p = prog_new(ASC_LAUNCH_AIV, 2);
	ASSERT_EQ(0, handoff(p, ASC_PIPE_MTE3, ASC_PIPE_V));
	ASSERT_EQ(ENOLCK, check(p));
	want = race_line("core 0 MTE3 writes", x, "(#1 copy out) and core 1 MTE2 reads it (#3 copy in)");
	EXPECT_STREQ(want, p->text);
	free(want);
	prog_free(p);
}

/* Each of @n cores writes its slot of y, SyncAll (or not), reads the next one's. */
static int exchange(struct prog *p, unsigned int n, bool sync)
{
	unsigned int c;

	for (c = 0; c < n; c++) {
		if (work(p, c, ASC_PIPE_MTE3, "copy out", y + 64 * c, "y", 1))
			return -1;
		if (sync && sync_all(p, c))
			return -1;
		if (work(p, c, ASC_PIPE_MTE2, "copy in", y + 64 * ((c + 1) % n),
			 "y", 0))
			return -1;
	}
	return 0;
}

TEST(sync_all_orders_every_core)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 3);

	ASSERT_EQ(0, exchange(p, 3, true));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);

	p = prog_new(ASC_LAUNCH_AIV, 3);
	ASSERT_EQ(0, exchange(p, 3, false));
	ASSERT_EQ(ENOLCK, check(p));
	/* Three races, each reported once, from the writer's side. */
	ASSERT_NE(NULL, p->text);
	EXPECT_NE(NULL, strstr(p->text, "core 0 MTE3 writes \"y\""));
	EXPECT_NE(NULL, strstr(p->text, "core 1 MTE3 writes \"y\""));
	EXPECT_NE(NULL, strstr(p->text, "core 2 MTE3 writes \"y\""));
	EXPECT_EQ(3, lines(p->text));
	prog_free(p);
}

/*
 * A mix launch of one AI core: the AIVs' SyncAll orders the two AIVs
 * without the AIC, and its rounds are counted apart from the SyncAll of
 * every core, in which the AIC waits meanwhile.  It orders nothing with
 * the AIC: the AIC's write of x before its SyncAll races with the AIVs'
 * reads after theirs.
 */
TEST(sync_all_of_the_aivs_orders_the_aivs)
{
	struct prog *p = prog_new(ASC_LAUNCH_MIX, 1);
	unsigned int c;

	ASSERT_EQ(0, work(p, 0, ASC_PIPE_FIX, "copy out", x, "x", 1));
	ASSERT_EQ(0, sync_all(p, 0));
	for (c = 1; c < 3; c++) {
		ASSERT_EQ(0, work(p, c, ASC_PIPE_MTE3, "copy out", y + 64 * c, "y", 1));
		ASSERT_EQ(0, sync_kind(p, c, 1));
	}
	ASSERT_EQ(0, work(p, 1, ASC_PIPE_MTE2, "copy in", y + 64 * 2, "y", 0));
	ASSERT_EQ(0, work(p, 2, ASC_PIPE_MTE2, "copy in", y + 64 * 1, "y", 0));
	ASSERT_EQ(0, work(p, 2, ASC_PIPE_MTE2, "copy in", x, "x", 0));
	ASSERT_EQ(ENOLCK, check(p));
	ASSERT_NE(NULL, p->text);
	EXPECT_NE(NULL, strstr(p->text, "core 0 FIX writes \"x\"")) TH_LOG("%s", p->text);
	EXPECT_EQ(1, lines(p->text)) TH_LOG("only x races:\n%s", p->text);
	prog_free(p);

	/* Then the AIVs come to the AIC's SyncAll: x is ordered too. */
	p = prog_new(ASC_LAUNCH_MIX, 1);
	ASSERT_EQ(0, work(p, 0, ASC_PIPE_FIX, "copy out", x, "x", 1));
	ASSERT_EQ(0, sync_all(p, 0));
	for (c = 1; c < 3; c++) {
		ASSERT_EQ(0, work(p, c, ASC_PIPE_MTE3, "copy out", y + 64 * c, "y", 1));
		ASSERT_EQ(0, sync_kind(p, c, 1));
		ASSERT_EQ(0, sync_all(p, c));
	}
	ASSERT_EQ(0, work(p, 1, ASC_PIPE_MTE2, "copy in", y + 64 * 2, "y", 0));
	ASSERT_EQ(0, work(p, 2, ASC_PIPE_MTE2, "copy in", x, "x", 0));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);
}

/*
 * Mode 0 on 3 AIVs: a set counts once every core has issued it, and the
 * k-th wait takes the k-th count.  Core 0 writes x between its first
 * and second set; core 2 reads x after @waits waits.
 */
static int mode0_rounds(struct prog *p, int waits)
{
	int c, k;

	if (xset(p, 0, 3, 0, ASC_PIPE_MTE3) ||
	    work(p, 0, ASC_PIPE_MTE3, "copy out", x, "x", 1) ||
	    xset(p, 0, 3, 0, ASC_PIPE_MTE3))
		return -1;
	for (c = 1; c < 3; c++)
		if (xset(p, c, 3, 0, ASC_PIPE_V) || xset(p, c, 3, 0, ASC_PIPE_V))
			return -1;
	for (k = 0; k < waits; k++)
		if (xwait(p, 2, 3, ASC_PIPE_MTE2))
			return -1;
	if (work(p, 2, ASC_PIPE_MTE2, "copy in", x, "x", 0))
		return -1;
	for (k = waits; k < 2; k++)
		if (xwait(p, 2, 3, ASC_PIPE_MTE2))
			return -1;
	for (c = 0; c < 2; c++)
		for (k = 0; k < 2; k++)
			if (xwait(p, c, 3, ASC_PIPE_S))
				return -1;
	return 0;
}

TEST(mode0_kth_wait_joins_kth_count)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 3);
	char *want;

	/* After the first count only: the write came after core 0's set. */
	ASSERT_EQ(0, mode0_rounds(p, 1));
	ASSERT_EQ(ENOLCK, check(p));
	want = race_line("core 0 MTE3 writes", x, "(#2 copy out) and core 2 MTE2 reads it (#4 copy in)");
	EXPECT_STREQ(want, p->text);
	free(want);
	prog_free(p);

	p = prog_new(ASC_LAUNCH_AIV, 3);
	ASSERT_EQ(0, mode0_rounds(p, 2));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);
}

TEST(mode0_counts_only_once_every_core_set)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 2);

	/* Core 1 never sets: no count, so core 1's wait brings nothing. */
	ASSERT_EQ(0, work(p, 0, ASC_PIPE_MTE3, "copy out", x, "x", 1));
	ASSERT_EQ(0, xset(p, 0, 0, 0, ASC_PIPE_MTE3));
	ASSERT_EQ(0, xwait(p, 1, 0, ASC_PIPE_MTE2));
	ASSERT_EQ(0, work(p, 1, ASC_PIPE_MTE2, "copy in", x, "x", 0));
	ASSERT_EQ(ENOLCK, check(p));
	EXPECT_NE(NULL, strstr(p->text, "core 0 MTE3 writes \"x\""));
	prog_free(p);
}

/*
 * A mix launch of one AI core: the AIC (core 0) writes x on FIX and sets
 * mode 2, both AIVs (cores 1, 2) wait and read it; each AIV writes its
 * half of y, both set mode 2 (one count on the AIC, once both have set),
 * the AIC waits and reads y.  @aiv2_sets: whether AIV 2 sets.
 */
static int mode2_round_trip(struct prog *p, bool aiv2_sets)
{
	unsigned int v;

	if (work(p, 0, ASC_PIPE_FIX, "fixpipe", x, "x", 1) ||
	    xset(p, 0, 0, 2, ASC_PIPE_FIX))
		return -1;
	for (v = 1; v <= 2; v++) {
		if (xwait(p, v, 0, ASC_PIPE_S) ||
		    work(p, v, ASC_PIPE_MTE2, "copy in", x, "x", 0) ||
		    work(p, v, ASC_PIPE_MTE3, "copy out", y + 64 * (v - 1), "y", 1))
			return -1;
		if ((v == 1 || aiv2_sets) && xset(p, v, 1, 2, ASC_PIPE_MTE3))
			return -1;
	}
	if (xwait(p, 0, 1, ASC_PIPE_MTE2))
		return -1;
	if (work(p, 0, ASC_PIPE_MTE2, "copy in", y, "y", 0))
		return -1;
	return work(p, 0, ASC_PIPE_MTE2, "copy in", y + 64, "y", 0);
}

TEST(mode2_orders_the_aic_and_its_aivs)
{
	struct prog *p = prog_new(ASC_LAUNCH_MIX, 1);

	ASSERT_EQ(0, mode2_round_trip(p, true));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);

	/* One AIV's set alone never counts on the AIC. */
	p = prog_new(ASC_LAUNCH_MIX, 1);
	ASSERT_EQ(0, mode2_round_trip(p, false));
	ASSERT_EQ(ENOLCK, check(p));
	EXPECT_NE(NULL, strstr(p->text, "core 1 MTE3 writes \"y\""));
	EXPECT_NE(NULL, strstr(p->text, "core 2 MTE3 writes \"y\""));
	prog_free(p);
}

TEST(mode1_orders_the_two_aivs)
{
	struct prog *p = prog_new(ASC_LAUNCH_MIX, 1);

	/* AIV 1 writes x, both AIVs set mode 1 and wait, AIV 2 reads x. */
	ASSERT_EQ(0, work(p, 1, ASC_PIPE_MTE3, "copy out", x, "x", 1));
	ASSERT_EQ(0, xset(p, 1, 5, 1, ASC_PIPE_MTE3));
	ASSERT_EQ(0, xwait(p, 1, 5, ASC_PIPE_S));
	ASSERT_EQ(0, xset(p, 2, 5, 1, ASC_PIPE_V));
	ASSERT_EQ(0, xwait(p, 2, 5, ASC_PIPE_MTE2));
	ASSERT_EQ(0, work(p, 2, ASC_PIPE_MTE2, "copy in", x, "x", 0));
	EXPECT_EQ(0, check(p));
	EXPECT_EQ(NULL, p->text);
	prog_free(p);
}

/* One row of the chip's table: who must set, who gets the count. */
struct group_row {
	int kind;
	unsigned int block_dim, core;
	int mode;
	unsigned int group_first, group_last, target_first, target_last;
};

TEST(set_groups_as_the_chip_counts)
{
	/* Two AI cores: AICs 0-1, AIVs 2-5 (pairs 2-3 and 4-5). */
	static const struct group_row rows[] = {
		{ ASC_LAUNCH_MIX, 2, 1, 0, 0, 1, 0, 1 },
		{ ASC_LAUNCH_MIX, 2, 3, 0, 2, 5, 2, 5 },
		{ ASC_LAUNCH_MIX, 2, 5, 1, 4, 5, 4, 5 },
		{ ASC_LAUNCH_MIX, 2, 1, 2, 1, 1, 4, 5 },
		{ ASC_LAUNCH_MIX, 2, 2, 2, 2, 3, 0, 0 },
		{ ASC_LAUNCH_MIX, 2, 5, 2, 4, 5, 1, 1 },
		{ ASC_LAUNCH_AIV, 8, 7, 0, 0, 7, 0, 7 },
		{ ASC_LAUNCH_AIC, 1, 0, 0, 0, 0, 0, 0 },
	};
	struct asc_xrace_range g, t;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct group_row *r = &rows[i];

		ASSERT_EQ(0, asc_xrace_set_group(r->kind, r->block_dim, r->core,
					       r->mode, &g, &t));
		EXPECT_TRUE(g.first == r->group_first && g.last == r->group_last &&
			    t.first == r->target_first && t.last == r->target_last)
			TH_LOG("row %zu: group %u-%u, targets %u-%u", i, g.first,
			       g.last, t.first, t.last);
	}
	/* Modes a core does not have, a core the launch does not have. */
	EXPECT_EQ(-1, asc_xrace_set_group(ASC_LAUNCH_MIX, 2, 0, 1, &g, &t));
	EXPECT_EQ(-1, asc_xrace_set_group(ASC_LAUNCH_AIV, 2, 0, 2, &g, &t));
	EXPECT_EQ(-1, asc_xrace_set_group(ASC_LAUNCH_AIV, 2, 2, 0, &g, &t));
}

TEST(counts_no_wait_takes_reported)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 2);

	ASSERT_EQ(0, xset(p, 0, 4, 0, ASC_PIPE_V));
	ASSERT_EQ(0, xset(p, 1, 4, 0, ASC_PIPE_V));
	ASSERT_EQ(0, xwait(p, 0, 4, ASC_PIPE_S));
	ASSERT_EQ(ENOLCK, check(p));
	EXPECT_STREQ("missing wait: cross-core flag 4 of core 1 counts a set of core 1 (#1 V, mode 0) that no wait takes by the end of the launch\n",
		     p->text);
	prog_free(p);
}

/*
 * Four cores each write x three times from one line (k.c:10), a barrier
 * of MTE3 between: every pair of cores races, 54 races of one pair of
 * lines, printed once with the cores and iterations.
 */
TEST(races_of_one_pair_of_lines_print_once)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 4);
	unsigned int core;
	int i;

	for (core = 0; core < 4; core++) {
		for (i = 0; i < 3; i++) {
			asc_race_site(p->race[core], "k.c", 10);
			ASSERT_EQ(0, work(p, core, ASC_PIPE_MTE3, "copy out", x, "x", 1));
			asc_race_site(p->race[core], "k.c", 11);
			ASSERT_LE(0, asc_race_barrier(p->race[core], ASC_PIPE_MTE3,
						      ++p->seq[core]));
		}
		ASSERT_EQ(0, asc_race_drain(p->race[core], "at the end"));
	}
	ASSERT_EQ(ENOLCK, check(p));
	ASSERT_STREQ("missing sync: core 0 MTE3 writes \"x\" [0+64] (#1 copy out at k.c:10) and core 1 MTE3 writes it (#1 copy out at k.c:10): no cross-core set/wait or SyncAll orders them, and 53 more like it (cores 0-3, iterations 1-3)\n",
		     p->text);
	prog_free(p);
}

/*
 * Accesses in a buffer of global memory the kernel declared are named by
 * their offset there, with the buffer's name: never a host address.
 */
static bool y_is_declared(void *ctx, uintptr_t addr, uintptr_t *base,
			  const char **name)
{
	if (addr < (uintptr_t)y || addr >= (uintptr_t)y + sizeof(y))
		return false;
	*base = (uintptr_t)y;
	*name = ctx;
	return true;
}

TEST(a_declared_buffer_is_named_by_the_offset_in_it)
{
	struct prog *p = prog_new(ASC_LAUNCH_AIV, 2);

	asc_race_buffers(p->race[0], y_is_declared, "y");
	asc_race_buffers(p->race[1], y_is_declared, "y");
	ASSERT_EQ(0, work(p, 0, ASC_PIPE_MTE3, "copy out", y + 128, "y_gm", 1));
	ASSERT_EQ(0, work(p, 1, ASC_PIPE_MTE2, "copy in", y + 160, "y_gm", 0));
	ASSERT_EQ(0, asc_race_drain(p->race[0], "at the end"));
	ASSERT_EQ(0, asc_race_drain(p->race[1], "at the end"));
	ASSERT_EQ(ENOLCK, check(p));
	ASSERT_STREQ("missing sync: core 0 MTE3 writes \"y_gm\" at \"y\" [128+64] (#1 copy out) and core 1 MTE2 reads \"y_gm\" at \"y\" [160+64] (#1 copy in): no cross-core set/wait or SyncAll orders them\n",
		     p->text);
	prog_free(p);
}

TEST_HARNESS_MAIN
