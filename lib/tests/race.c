// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core runtime's missing-sync detector (lib/race.c) without a device:
 * programs issued to it in order, and what it finds.  Linked with the
 * static library, whose internal functions it calls.
 *
 * Each report is compared in full: the detector's output is a function
 * of the issue order alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "race.h"

#include "kselftest_harness.h"

#define MTE2_V	ASC_HARD_EVENT_MTE2_V
#define V_MTE2	ASC_HARD_EVENT_V_MTE2
#define V_MTE3	ASC_HARD_EVENT_V_MTE3
#define MTE3_V	ASC_HARD_EVENT_MTE3_V
#define V_S	ASC_HARD_EVENT_V_S
#define S_V	ASC_HARD_EVENT_S_V
#define V_V	ASC_HARD_EVENT_V_V
#define FIX_FIX	ASC_HARD_EVENT_FIX_FIX

/* Buffers the programs touch; only their addresses matter. */
static char x[4096], y[4096], z[4096];

#define ACC(buf, w)	((struct asc_access){ buf, sizeof(buf), w, #buf })

/* A detector and the instruction numbers of the program it is given. */
FIXTURE(race) {
	struct asc_race *race;
	unsigned long seq;
};

FIXTURE_SETUP(race)
{
	self->race = asc_race_new();
	ASSERT_NE(NULL, self->race);
	self->seq = 0;
}

FIXTURE_TEARDOWN(race)
{
	asc_race_free(self->race);
}

static int work_(struct asc_race *race, unsigned long *seq, int pipe,
		const char *what, struct asc_access a)
{
	return asc_race_work(race, pipe, ++*seq, what, &a, 1);
}

static int set_(struct asc_race *race, unsigned long *seq, int event, int id)
{
	return asc_race_flag(race, true, ++*seq, event, id);
}

static int wait_(struct asc_race *race, unsigned long *seq, int event, int id)
{
	return asc_race_flag(race, false, ++*seq, event, id);
}

#define WORK(pipe, what, a)	work_(self->race, &self->seq, pipe, what, a)
#define SET(e, id)		set_(self->race, &self->seq, e, id)
#define WAIT(e, id)		wait_(self->race, &self->seq, e, id)
#define REPORT()		asc_race_report(self->race)

#define ASSERT_FAILS(err, call) do {		\
	errno = 0;				\
	ASSERT_EQ(-1, (call));			\
	ASSERT_EQ(err, errno);			\
} while (0)

/* The declared buffer of global memory of a test: y, named @ctx. */
static bool y_in_gm(void *ctx, uintptr_t addr, uintptr_t *base, const char **name)
{
	if (addr < (uintptr_t)y || addr >= (uintptr_t)y + sizeof(y))
		return false;
	*base = (uintptr_t)y;
	*name = ctx;
	return true;
}

/* The line the detector writes for a race on buffer @b, #@s1 then #@s2. */
static char *race(const char *p1, const char *verb1, const char *b,
		  const void *addr, size_t size, unsigned long s1,
		  const char *w1, const char *p2, const char *verb2,
		  unsigned long s2, const char *w2)
{
	char *line;

	if (asprintf(&line, "missing sync: %s %s \"%s\" [%lu+%zu] (#%lu %s) and %s %s it (#%lu %s): no set/wait or barrier orders them\n",
		     p1, verb1, b, 0UL, size, s1, w1, p2, verb2,
		     s2, w2) < 0)
		return NULL;
	return line;
}

TEST_F(race, set_wait_orders_a_copy_and_its_use)
{
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_EQ(2, SET(MTE2_V, 0));
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	ASSERT_EQ(2, WORK(ASC_PIPE_V, "add", ACC(x, 0)));
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_EQ(0, asc_race_leftovers(self->race, "by the end"));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, wait_issued_before_its_set)
{
	/* V's queue waits first; MTE2 writes and sets later: still ordered. */
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	ASSERT_EQ(2, WORK(ASC_PIPE_V, "add", ACC(x, 0)));
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_EQ(2, SET(MTE2_V, 0));
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, missing_wait_is_a_race)
{
	char *want = race("MTE2", "writes", "x", x, sizeof(x), 1, "copy_in",
			  "V", "reads", 3, "add");

	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_EQ(2, SET(MTE2_V, 0));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "add", ACC(x, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, race_found_when_the_later_access_runs)
{
	char *want = race("V", "reads", "x", x, sizeof(x), 2, "add", "MTE2",
			  "writes", 4, "copy_in");

	/* V reads after the flag, but MTE2 writes after setting it. */
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	ASSERT_EQ(2, WORK(ASC_PIPE_V, "add", ACC(x, 0)));
	ASSERT_EQ(1, SET(MTE2_V, 0));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, what_is_no_race)
{
	struct asc_access lo = { x, 2048, 1, "x" }, hi = { x + 2048, 2048, 1, "x" };

	/*
	 * Reads never race; disjoint bytes never race; one pipe is ordered
	 * by a barrier of its own.
	 */
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "read", ACC(y, 0)));
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "read", ACC(y, 0)));
	ASSERT_EQ(2, WORK(ASC_PIPE_MTE2, "low", lo));
	ASSERT_EQ(2, WORK(ASC_PIPE_V, "high", hi));
	ASSERT_EQ(3, asc_race_barrier(self->race, ASC_PIPE_V, ++self->seq));
	ASSERT_EQ(4, WORK(ASC_PIPE_V, "again", hi));
	ASSERT_EQ(5, WORK(ASC_PIPE_V, "read", ACC(z, 0)));
	ASSERT_EQ(1, WORK(ASC_PIPE_M, "read", ACC(z, 0)));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, a_later_read_does_not_hide_a_write)
{
	char *want = race("V", "writes", "x", x, sizeof(x), 1, "add", "MTE3",
			  "reads", 4, "copy_out");

	/* V's own read after its write keeps the write for later checks. */
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 1)));
	ASSERT_EQ(2, asc_race_barrier(self->race, ASC_PIPE_V, ++self->seq));
	ASSERT_EQ(3, WORK(ASC_PIPE_V, "check", ACC(x, 0)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_MTE3, "copy_out", ACC(x, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

/* The line for two accesses of one pipe, #@s1 then #@s2, with no barrier. */
static char *same_pipe(const char *p, const char *verb1, const char *b,
		       const void *addr, size_t size, unsigned long s1,
		       const char *w1, const char *verb2, unsigned long s2,
		       const char *w2)
{
	char *line;

	if (asprintf(&line, "missing sync: %s %s \"%s\" [%lu+%zu] (#%lu %s) and %s %s it (#%lu %s): one pipe, but pipelined: no pipe_barrier(%s) between them\n",
		     p, verb1, b, 0UL, size, s1, w1, p, verb2,
		     s2, w2, p) < 0)
		return NULL;
	return line;
}

TEST_F(race, one_pipe_needs_its_barrier)
{
	char *want = same_pipe("V", "writes", "x", x, sizeof(x), 1, "add",
			       "reads", 2, "mul");

	/* Ascend C's example: Add, PipeBarrier<PIPE_V>, Mul reading Add's output. */
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 1)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "mul", ACC(x, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, one_pipe_write_after_read)
{
	char *want = same_pipe("MTE2", "reads", "x", x, sizeof(x), 1, "peek",
			       "writes", 2, "refill");

	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "peek", ACC(x, 0)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_MTE2, "refill", ACC(x, 1)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, the_wait_of_v_v_orders_nothing)
{
	char *want = same_pipe("V", "writes", "x", x, sizeof(x), 1, "add",
			       "reads", 3, "mul");

	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 1)));
	ASSERT_EQ(2, WAIT(V_V, 0));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "mul", ACC(x, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, what_orders_one_pipe)
{
	/* PipeBarrier of the pipe, and V_V's set. */
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 1)));
	ASSERT_EQ(2, asc_race_barrier(self->race, ASC_PIPE_V, ++self->seq));
	ASSERT_EQ(3, WORK(ASC_PIPE_V, "mul", ACC(x, 0)));
	ASSERT_EQ(4, SET(V_V, 0));
	ASSERT_EQ(5, WAIT(V_V, 0));
	ASSERT_EQ(6, WORK(ASC_PIPE_V, "sub", ACC(x, 1)));
	/* Both halves of FIX_FIX. */
	ASSERT_EQ(1, WORK(ASC_PIPE_FIX, "fix", ACC(y, 1)));
	ASSERT_EQ(2, WAIT(FIX_FIX, 0));
	ASSERT_EQ(3, WORK(ASC_PIPE_FIX, "fix", ACC(y, 0)));
	ASSERT_EQ(4, SET(FIX_FIX, 0));
	ASSERT_EQ(5, WORK(ASC_PIPE_FIX, "fix", ACC(y, 1)));
	/* A set of V that comes back to V: the set ran once sub was done. */
	ASSERT_EQ(7, SET(V_MTE3, 0));
	ASSERT_EQ(1, WAIT(V_MTE3, 0));
	ASSERT_EQ(2, SET(MTE3_V, 0));
	ASSERT_EQ(8, WAIT(MTE3_V, 0));
	ASSERT_EQ(9, WORK(ASC_PIPE_V, "div", ACC(x, 0)));
	/* A set of V the scalar waited for. */
	ASSERT_EQ(10, SET(V_S, 0));
	ASSERT_EQ(1, WAIT(V_S, 0));
	ASSERT_EQ(11, WORK(ASC_PIPE_V, "exp", ACC(x, 1)));
	/* PIPE_ALL. */
	ASSERT_LT(0, asc_race_barrier(self->race, ASC_PIPE_ALL, ++self->seq));
	ASSERT_EQ(12, WORK(ASC_PIPE_V, "ln", ACC(x, 0)));
	/* The scalar keeps its own order. */
	ASSERT_LT(0, WORK(ASC_PIPE_S, "store", ACC(z, 1)));
	ASSERT_LT(0, WORK(ASC_PIPE_S, "load", ACC(z, 0)));
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, a_set_not_yet_back_orders_nothing)
{
	char *want = same_pipe("V", "writes", "x", x, sizeof(x), 1, "add",
			       "reads", 3, "mul");

	/* V sets V_MTE3 after add, but nothing brings it back before mul. */
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 1)));
	ASSERT_EQ(2, SET(V_MTE3, 0));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "mul", ACC(x, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, a_wait_no_set_uses_names_the_nearest_set)
{
	ASSERT_EQ(1, SET(V_S, 1));
	ASSERT_FAILS(EDEADLK, WAIT(V_S, 0));
	ASSERT_STREQ("deadlock: S waits forever for V_S id 0 (#2): no set of it was issued; the nearest set of V_S is of id 1 (#1)\n",
		     REPORT());
}

TEST_F(race, a_cycle_through_a_wait_no_set_uses)
{
	/* MTE2 sets id 0, V waits for id 1: the two wait for each other. */
	ASSERT_EQ(1, SET(MTE2_V, 0));
	ASSERT_EQ(1, WAIT(MTE2_V, 1));
	ASSERT_EQ(2, SET(V_MTE2, 0));
	ASSERT_FAILS(EDEADLK, WAIT(V_MTE2, 0));
	ASSERT_STREQ("deadlock: V waits forever for MTE2_V id 1 (#2), set by MTE2 (but no set of it was issued; the nearest set of MTE2_V is of id 0 (#1)), which waits forever for V_MTE2 id 0 (#4), set by V\n",
		     REPORT());
}

TEST_F(race, one_line_per_pair_of_source_lines)
{
	struct asc_access inplace[2] = { ACC(x, 0), ACC(x, 1) };
	struct asc_access parts[2] = { { x, 64, 1, "x" }, { x + 64, 64, 1, "x" } };
	char want[512];

	/* Two lines write x in two parts; a third reads and writes it all. */
	asc_race_site(self->race, "k.c", 1);
	ASSERT_EQ(1, asc_race_work(self->race, ASC_PIPE_V, ++self->seq, "fill", parts, 1));
	ASSERT_EQ(2, asc_race_work(self->race, ASC_PIPE_V, ++self->seq, "fill", parts + 1, 1));
	asc_race_site(self->race, "k.c", 2);
	ASSERT_FAILS(ENOLCK, asc_race_work(self->race, ASC_PIPE_V, ++self->seq, "adds",
					   inplace, 2));
	snprintf(want, sizeof(want),
		 "missing sync: V writes \"x\" [0+64] (#1 fill at k.c:1) and V reads \"x\" [0+4096] (#3 adds at k.c:2): one pipe, but pipelined: no pipe_barrier(V) between them, and 3 more like it (iterations 1-2)\n");
	ASSERT_STREQ(want, REPORT());
}

TEST_F(race, global_memory_and_other_buffers_by_their_offsets)
{
	struct asc_access out = { y + 256, 64, 1, "y_tile" };
	struct asc_access in = { y + 288, 64, 0, "y_tile" };

	/* y is a declared buffer: offsets in it, the tile's name kept. */
	asc_race_buffers(self->race, y_in_gm, "y_gm");
	ASSERT_EQ(1, asc_race_work(self->race, ASC_PIPE_MTE3, ++self->seq, "out", &out, 1));
	ASSERT_FAILS(ENOLCK, asc_race_work(self->race, ASC_PIPE_MTE2, ++self->seq, "in", &in, 1));
	ASSERT_STREQ("missing sync: MTE3 writes \"y_tile\" at \"y_gm\" [256+64] (#1 out) and MTE2 reads \"y_tile\" at \"y_gm\" [288+64] (#2 in): no set/wait or barrier orders them\n",
		     REPORT());
}

TEST_F(race, a_named_buffer_by_the_offset_from_its_lowest_byte)
{
	struct asc_access head = { x + 512, 64, 1, "buf" };
	struct asc_access tail = { x + 1024, 64, 1, "buf" };
	struct asc_access all = { x + 512, 1024, 0, "buf" };

	ASSERT_EQ(1, asc_race_work(self->race, ASC_PIPE_V, ++self->seq, "head", &head, 1));
	ASSERT_EQ(1, asc_race_work(self->race, ASC_PIPE_MTE3, ++self->seq, "tail", &tail, 1));
	ASSERT_FAILS(ENOLCK, asc_race_work(self->race, ASC_PIPE_MTE2, ++self->seq, "all", &all, 1));
	ASSERT_STREQ("missing sync: V writes \"buf\" [0+64] (#1 head) and MTE2 reads \"buf\" [0+1024] (#3 all): no set/wait or barrier orders them\n"
		     "missing sync: MTE3 writes \"buf\" [512+64] (#2 tail) and MTE2 reads \"buf\" [0+1024] (#3 all): no set/wait or barrier orders them\n",
		     REPORT());
}

TEST_F(race, a_double_set_names_an_early_release)
{
	ASSERT_EQ(1, SET(MTE2_V, 0));
	asc_race_release(self->race, MTE2_V, 0, ++self->seq);
	ASSERT_FAILS(EBUSY, SET(MTE2_V, 0));
	ASSERT_STREQ("possible double set: MTE2 sets MTE2_V id 0 (#3) before its previous set (#1) was waited for: no wait for it is ordered before it; the ID was released early (#2), while its set (#1) had no wait issued\n",
		     REPORT());
}

TEST_F(race, a_release_after_the_wait_is_issued_is_not_early)
{
	/* pyasc's vadd: set, wait, release, all issued before they run. */
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_EQ(2, SET(MTE2_V, 0));
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	asc_race_release(self->race, MTE2_V, 0, ++self->seq);
	/* Set again with nothing ordering V's wait first: no early release. */
	ASSERT_FAILS(EBUSY, SET(MTE2_V, 0));
	ASSERT_NE(NULL, strstr(REPORT(), "possible double set"));
	ASSERT_EQ(NULL, strstr(REPORT(), "early"));
}

TEST_F(race, an_ordered_write_replaces_what_it_covers)
{
	char *want = race("MTE2", "writes", "x", x, sizeof(x), 4, "refill",
			  "MTE3", "reads", 5, "late");

	/* V reads, MTE2 overwrites after V_MTE2: MTE3 races with the write. */
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 0)));
	ASSERT_EQ(2, SET(V_MTE2, 0));
	ASSERT_EQ(1, WAIT(V_MTE2, 0));
	ASSERT_EQ(2, WORK(ASC_PIPE_MTE2, "refill", ACC(x, 1)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_MTE3, "late", ACC(x, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, overlap_of_different_ranges)
{
	struct asc_access part = { x + 100, 8, 0, "x.part" };
	char want[256];

	snprintf(want, sizeof(want),
		 "missing sync: MTE3 writes \"x\" [0+4096] (#1 fill) and FIX reads \"x.part\" [0+8] (#2 peek): no set/wait or barrier orders them\n");
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE3, "fill", ACC(x, 1)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_FIX, "peek", part));
	ASSERT_STREQ(want, REPORT());
}

TEST_F(race, every_racing_pair_of_the_step)
{
	struct asc_access two[2] = { ACC(x, 0), ACC(y, 1) };
	char *a = race("MTE2", "writes", "x", x, sizeof(x), 1, "in_x", "V",
		       "reads", 3, "add");
	char *b = race("MTE2", "reads", "y", y, sizeof(y), 2, "in_y", "V",
		       "writes", 3, "add");
	char *want;

	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "in_x", ACC(x, 1)));
	ASSERT_EQ(2, WORK(ASC_PIPE_MTE2, "in_y", ACC(y, 0)));
	ASSERT_FAILS(ENOLCK, asc_race_work(self->race, ASC_PIPE_V, ++self->seq,
					 "add", two, 2));
	ASSERT_LT(0, asprintf(&want, "%s%s", a, b));
	ASSERT_STREQ(want, REPORT());
	free(a);
	free(b);
	free(want);
}

TEST_F(race, scalar_stores_need_a_flag)
{
	/* Issued after the scalar's store does not mean ordered after it. */
	ASSERT_EQ(1, WORK(ASC_PIPE_S, "set_value", ACC(z, 1)));
	ASSERT_EQ(2, SET(S_V, 0));
	ASSERT_EQ(1, WAIT(S_V, 0));
	ASSERT_EQ(2, WORK(ASC_PIPE_V, "use", ACC(z, 0)));
	ASSERT_EQ(3, SET(V_S, 0));
	ASSERT_EQ(3, WAIT(V_S, 0));
	ASSERT_EQ(4, WORK(ASC_PIPE_S, "get_value", ACC(z, 1)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "late", ACC(z, 0)));
}

TEST_F(race, pipe_all_orders_everything)
{
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_EQ(1, asc_race_barrier(self->race, ASC_PIPE_ALL, ++self->seq));
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "add", ACC(x, 1)));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, one_pipe_barrier_orders_nothing_across)
{
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE2, "copy_in", ACC(x, 1)));
	ASSERT_EQ(2, asc_race_barrier(self->race, ASC_PIPE_MTE2, ++self->seq));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "add", ACC(x, 0)));
}

TEST_F(race, barrier_of_s_or_non_pipe_refused)
{
	ASSERT_FAILS(EINVAL, asc_race_barrier(self->race, ASC_PIPE_S, 1));
	ASSERT_FAILS(EINVAL, asc_race_barrier(self->race, 7, 1));
	ASSERT_FAILS(EINVAL, asc_race_flag(self->race, true, 1, ASC_HARD_EVENT_COUNT, 0));
	ASSERT_FAILS(EINVAL, asc_race_flag(self->race, true, 1, MTE2_V, ASC_EVENT_IDS_MAX));
	ASSERT_FAILS(EINVAL, asc_race_work(self->race, 6, 1, "x", NULL, 0));
	/* Refusals of arguments do not stick. */
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "ok", ACC(x, 1)));
}

TEST_F(race, double_set_without_wait)
{
	ASSERT_EQ(1, SET(MTE2_V, 3));
	ASSERT_FAILS(EBUSY, SET(MTE2_V, 3));
	ASSERT_STREQ("possible double set: MTE2 sets MTE2_V id 3 (#2) before its previous set (#1) was waited for: no wait for it is ordered before it\n",
		     REPORT());
}

TEST_F(race, double_set_before_an_unordered_wait)
{
	/* The fetch hazard: set, wait, set on one pipe, nothing back. */
	ASSERT_EQ(1, SET(V_MTE3, 0));
	ASSERT_EQ(1, WAIT(V_MTE3, 0));
	ASSERT_FAILS(EBUSY, SET(V_MTE3, 0));
	ASSERT_STREQ("possible double set: V sets V_MTE3 id 0 (#3) before its previous set (#1) was waited for: nothing orders MTE3's wait (#2) before it\n",
		     REPORT());
}

TEST_F(race, second_set_after_the_wait_is_fine)
{
	int round;

	for (round = 0; round < 3; round++) {
		ASSERT_LT(0, SET(V_MTE3, 0));
		ASSERT_LT(0, WAIT(V_MTE3, 0));
		ASSERT_LT(0, SET(MTE3_V, 0));
		ASSERT_LT(0, WAIT(MTE3_V, 0));
	}
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_EQ(0, asc_race_leftovers(self->race, "by the end"));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, barrier_events_have_no_flag)
{
	/* V_V sets twice without a wait, waits for nothing; FIX_FIX too. */
	ASSERT_EQ(1, SET(V_V, 0));
	ASSERT_EQ(2, SET(V_V, 0));
	ASSERT_EQ(3, WAIT(V_V, 1));
	ASSERT_EQ(1, WAIT(FIX_FIX, 0));
	ASSERT_EQ(2, SET(FIX_FIX, 0));
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_EQ(0, asc_race_leftovers(self->race, "by the end"));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, cycle_found_when_it_closes)
{
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	ASSERT_FAILS(EDEADLK, WAIT(V_MTE2, 1));
	ASSERT_STREQ("deadlock: V waits forever for MTE2_V id 0 (#1), set by MTE2, which waits forever for V_MTE2 id 1 (#2), set by V\n",
		     REPORT());
}

TEST_F(race, wait_for_the_scalar_is_no_cycle)
{
	/* S may still set S_V: V waits, MTE2 waits behind V, no deadlock yet. */
	ASSERT_EQ(1, WAIT(S_V, 0));
	ASSERT_EQ(2, SET(V_MTE2, 0));
	ASSERT_EQ(1, WAIT(V_MTE2, 0));
	ASSERT_EQ(1, SET(S_V, 0));
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
}

TEST_F(race, scalar_wait_without_set)
{
	ASSERT_FAILS(EDEADLK, WAIT(V_S, 2));
	ASSERT_STREQ("deadlock: S waits forever for V_S id 2 (#1): no set of it was issued\n",
		     REPORT());
}

TEST_F(race, scalar_wait_behind_a_stuck_pipe)
{
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	ASSERT_EQ(2, SET(V_S, 0));
	ASSERT_FAILS(EDEADLK, WAIT(V_S, 0));
	ASSERT_STREQ("deadlock: S waits forever for V_S id 0 (#3): its set (#2) is queued on V behind V's wait (#1)\n"
		     "deadlock: V waits forever for MTE2_V id 0 (#1): no set of it was issued\n",
		     REPORT());
}

TEST_F(race, scalar_wait_that_can_end)
{
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "compute", ACC(z, 1)));
	ASSERT_EQ(2, SET(V_S, 0));
	ASSERT_EQ(1, WAIT(V_S, 0));
	ASSERT_EQ(2, WORK(ASC_PIPE_S, "get_value", ACC(z, 0)));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, scalar_wait_orders_what_is_issued_after_it)
{
	int round;

	/*
	 * The seed's V_S example in a loop: the scalar blocks in its wait,
	 * so the next set of V_S 0, issued after, comes after it; so does
	 * V's next write of what the scalar read (a load is done when the
	 * scalar has the value).
	 */
	for (round = 0; round < 3; round++) {
		ASSERT_LT(0, WORK(ASC_PIPE_V, "reduce", ACC(z, 1)));
		ASSERT_LT(0, SET(V_S, 0));
		ASSERT_LT(0, WAIT(V_S, 0));
		ASSERT_LT(0, WORK(ASC_PIPE_S, "get_value", ACC(z, 0)));
	}
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_EQ(0, asc_race_leftovers(self->race, "by the end"));
	ASSERT_EQ(NULL, REPORT());
}

TEST_F(race, scalar_read_is_done_before_later_issues)
{
	char *want = race("S", "writes", "y", y, sizeof(y), 3, "set_value",
			  "V", "reads", 4, "late");

	/* A read of the scalar needs no flag before a later write... */
	ASSERT_EQ(1, WORK(ASC_PIPE_S, "get_value", ACC(x, 0)));
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "overwrite", ACC(x, 1)));
	/* ...a store does, before a later read: it is posted. */
	ASSERT_EQ(2, WORK(ASC_PIPE_S, "set_value", ACC(y, 1)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_V, "late", ACC(y, 0)));
	ASSERT_STREQ(want, REPORT());
	free(want);
}

TEST_F(race, a_store_published_by_a_flag_that_came_back)
{
	/* S stores, sets S_V; V waits, sets V_S; S waits: the store is out. */
	ASSERT_EQ(1, WORK(ASC_PIPE_S, "set_value", ACC(y, 1)));
	ASSERT_EQ(2, SET(S_V, 0));
	ASSERT_EQ(1, WAIT(S_V, 0));
	ASSERT_EQ(2, SET(V_S, 0));
	ASSERT_EQ(3, WAIT(V_S, 0));
	ASSERT_EQ(1, WORK(ASC_PIPE_MTE3, "copy_out", ACC(y, 0)));
	ASSERT_EQ(NULL, REPORT());
	/* A store after the flag went out is not. */
	ASSERT_EQ(4, WORK(ASC_PIPE_S, "set_value", ACC(x, 1)));
	ASSERT_EQ(5, SET(S_V, 1));
	ASSERT_EQ(3, WAIT(S_V, 1));
	ASSERT_EQ(4, SET(V_S, 1));
	ASSERT_EQ(6, WAIT(V_S, 1));
	ASSERT_EQ(7, WORK(ASC_PIPE_S, "set_value", ACC(z, 1)));
	ASSERT_EQ(2, WORK(ASC_PIPE_MTE3, "copy_out", ACC(x, 0)));
	ASSERT_FAILS(ENOLCK, WORK(ASC_PIPE_MTE3, "copy_out", ACC(z, 0)));
}

TEST_F(race, drain_names_every_stuck_pipe)
{
	ASSERT_EQ(1, WAIT(MTE2_V, 1));
	ASSERT_EQ(1, WAIT(V_MTE3, 0));
	ASSERT_EQ(2, SET(V_MTE3, 0));
	ASSERT_FAILS(EDEADLK, asc_race_drain(self->race, "at the end of the kernel"));
	ASSERT_STREQ("deadlock: at the end of the kernel, V waits forever for MTE2_V id 1 (#1): no set of it was issued\n"
		     "deadlock: at the end of the kernel, MTE3 waits forever for V_MTE3 id 0 (#2): its set (#3) is queued on V behind V's wait (#1)\n",
		     REPORT());
}

TEST_F(race, pipe_all_with_a_stuck_pipe)
{
	ASSERT_EQ(1, WAIT(MTE2_V, 0));
	ASSERT_FAILS(EDEADLK, asc_race_barrier(self->race, ASC_PIPE_ALL, ++self->seq));
	ASSERT_STREQ("deadlock: at pipe_barrier(ALL) (#2), V waits forever for MTE2_V id 0 (#1): no set of it was issued\n",
		     REPORT());
}

TEST_F(race, reach_a_position)
{
	ASSERT_EQ(1, WORK(ASC_PIPE_V, "a", ACC(x, 1)));
	ASSERT_EQ(2, WAIT(MTE2_V, 0));
	ASSERT_EQ(3, WORK(ASC_PIPE_V, "b", ACC(x, 1)));
	ASSERT_EQ(0, asc_race_reach(self->race, ASC_PIPE_V, 1, "full"));
	ASSERT_FAILS(EINVAL, asc_race_reach(self->race, ASC_PIPE_V, 4, "full"));
	ASSERT_FAILS(EDEADLK, asc_race_reach(self->race, ASC_PIPE_V, 2, "when the queue of V is full (#9)"));
	ASSERT_STREQ("deadlock: when the queue of V is full (#9), V waits forever for MTE2_V id 0 (#2): no set of it was issued\n",
		     REPORT());
}

TEST_F(race, flag_never_waited)
{
	ASSERT_EQ(1, SET(MTE2_V, 0));
	ASSERT_EQ(0, asc_race_drain(self->race, "at the end"));
	ASSERT_FAILS(ENOLCK, asc_race_leftovers(self->race, "by the end of the kernel"));
	ASSERT_STREQ("missing wait: MTE2 sets MTE2_V id 0 (#1) and no wait takes it by the end of the kernel\n",
		     REPORT());
}

TEST_F(race, first_finding_sticks)
{
	ASSERT_EQ(1, SET(MTE2_V, 0));
	ASSERT_FAILS(EBUSY, SET(MTE2_V, 0));
	ASSERT_FAILS(EBUSY, WAIT(MTE2_V, 0));
	ASSERT_FAILS(EBUSY, WORK(ASC_PIPE_V, "x", ACC(x, 1)));
	ASSERT_FAILS(EBUSY, asc_race_drain(self->race, "end"));
	ASSERT_FAILS(EBUSY, asc_race_barrier(self->race, ASC_PIPE_ALL, 9));
	ASSERT_FAILS(EBUSY, asc_race_leftovers(self->race, "end"));
	ASSERT_FAILS(EBUSY, asc_race_reach(self->race, ASC_PIPE_V, 1, "x"));
	/* Nothing was added to the report after the finding. */
	ASSERT_EQ(NULL, strchr(strchr(REPORT(), '\n') + 1, '\n'));
}

TEST_F(race, uses_of_an_event)
{
	struct asc_report out = { 0 };
	char *text;

	ASSERT_EQ(1, SET(MTE2_V, 0));
	ASSERT_EQ(1, WAIT(MTE2_V, 5));
	ASSERT_EQ(2, SET(V_MTE2, 1));
	asc_race_uses(self->race, MTE2_V, &out);
	text = asc_report_take(&out);
	ASSERT_STREQ("in use: MTE2_V id 0: its flag, set by MTE2 (#1), not waited for yet\n"
		     "in use: MTE2_V id 5: a wait issued (#2), queued on V\n", text);
	free(text);
}

/*
 * A double-buffered copy-in / compute / copy-out pipeline, as a list of
 * instructions, one of which can be left out: with every set and wait it
 * is correct; without any one of them the detector must say so.
 */
enum op_kind { OP_WORK, OP_SET, OP_WAIT };

struct op {
	enum op_kind kind;
	int pipe;	/* OP_WORK */
	int event, id;	/* OP_SET, OP_WAIT */
	char *buf;	/* OP_WORK: reads buf_in ... */
	int write;
};

#define NTILES	4
#define MAX_OPS	128

static char in_buf[2][64], out_buf[2][64];

static int pipeline(struct op *ops)
{
	int n = 0, t, b;

#define OP(...)	(ops[n++] = (struct op){ __VA_ARGS__ })
	OP(OP_SET, .event = V_MTE2, .id = 0);
	OP(OP_SET, .event = V_MTE2, .id = 1);
	OP(OP_SET, .event = MTE3_V, .id = 0);
	OP(OP_SET, .event = MTE3_V, .id = 1);
	for (t = 0; t < NTILES; t++) {
		b = t % 2;
		OP(OP_WAIT, .event = V_MTE2, .id = b);
		OP(OP_WORK, .pipe = ASC_PIPE_MTE2, .buf = in_buf[b], .write = 1);
		OP(OP_SET, .event = MTE2_V, .id = b);
		OP(OP_WAIT, .event = MTE2_V, .id = b);
		OP(OP_WAIT, .event = MTE3_V, .id = b);
		OP(OP_WORK, .pipe = ASC_PIPE_V, .buf = in_buf[b], .write = 0);
		OP(OP_WORK, .pipe = ASC_PIPE_V, .buf = out_buf[b], .write = 1);
		OP(OP_SET, .event = V_MTE2, .id = b);
		OP(OP_SET, .event = V_MTE3, .id = b);
		OP(OP_WAIT, .event = V_MTE3, .id = b);
		OP(OP_WORK, .pipe = ASC_PIPE_MTE3, .buf = out_buf[b], .write = 0);
		OP(OP_SET, .event = MTE3_V, .id = b);
	}
	OP(OP_WAIT, .event = V_MTE2, .id = 0);
	OP(OP_WAIT, .event = V_MTE2, .id = 1);
	OP(OP_WAIT, .event = MTE3_V, .id = 0);
	OP(OP_WAIT, .event = MTE3_V, .id = 1);
#undef OP
	return n;
}

/* Replay @ops without @skip; the errno of the finding, or 0. */
static int replay(const struct op *ops, int n, int skip, char **report)
{
	struct asc_race *race = asc_race_new();
	unsigned long seq = 0;
	struct asc_access a;
	int i, ret = 0;

	for (i = 0; i < n && ret >= 0; i++) {
		if (i == skip)
			continue;
		a = (struct asc_access){ ops[i].buf, 64, ops[i].write, "buf" };
		switch (ops[i].kind) {
		case OP_WORK:
			ret = asc_race_work(race, ops[i].pipe, ++seq, "work", &a, 1);
			break;
		default:
			ret = asc_race_flag(race, ops[i].kind == OP_SET, ++seq,
					  ops[i].event, ops[i].id);
		}
	}
	if (ret >= 0)
		ret = asc_race_drain(race, "at the end of the kernel");
	if (!ret)
		ret = asc_race_leftovers(race, "by the end of the kernel");
	ret = ret < 0 ? errno : 0;
	*report = asc_race_take_report(race);
	asc_race_free(race);
	return ret;
}

TEST(pipeline_correct)
{
	struct op ops[MAX_OPS];
	int n = pipeline(ops);
	char *report;

	ASSERT_EQ(0, replay(ops, n, -1, &report));
	ASSERT_EQ(NULL, report);
}

TEST(pipeline_without_any_one_sync)
{
	struct op ops[MAX_OPS];
	int n = pipeline(ops), i, err, syncs = 0;
	char *report, *again;

	for (i = 0; i < n; i++) {
		if (ops[i].kind == OP_WORK)
			continue;
		syncs++;
		err = replay(ops, n, i, &report);
		EXPECT_TRUE(err == ENOLCK || err == EDEADLK || err == EBUSY)
			TH_LOG("without instruction %d: %s", i, strerror(err));
		ASSERT_NE(NULL, report);
		/* The same program, the same report. */
		ASSERT_EQ(err, replay(ops, n, i, &again));
		ASSERT_STREQ(report, again);
		free(report);
		free(again);
	}
	ASSERT_EQ(4 + NTILES * 8 + 4, syncs);
}

/* A long correct pipeline: what is kept stays small, so this is quick. */
TEST(long_pipeline_stays_fast)
{
	struct asc_race *race = asc_race_new();
	struct asc_access a;
	unsigned long seq = 0;
	int t, b;

	ASSERT_NE(NULL, race);
	ASSERT_LT(0, asc_race_flag(race, true, ++seq, V_MTE2, 0));
	ASSERT_LT(0, asc_race_flag(race, true, ++seq, V_MTE2, 1));
	for (t = 0; t < 200000; t++) {
		b = t % 2;
		a = (struct asc_access){ in_buf[b], 64, 1, "in" };
		ASSERT_LT(0, asc_race_flag(race, false, ++seq, V_MTE2, b));
		ASSERT_LT(0, asc_race_work(race, ASC_PIPE_MTE2, ++seq, "in", &a, 1));
		ASSERT_LT(0, asc_race_flag(race, true, ++seq, MTE2_V, b));
		ASSERT_LT(0, asc_race_flag(race, false, ++seq, MTE2_V, b));
		a.write = 0;
		ASSERT_LT(0, asc_race_work(race, ASC_PIPE_V, ++seq, "use", &a, 1));
		ASSERT_LT(0, asc_race_flag(race, true, ++seq, V_MTE2, b));
	}
	ASSERT_LT(0, asc_race_flag(race, false, ++seq, V_MTE2, 0));
	ASSERT_LT(0, asc_race_flag(race, false, ++seq, V_MTE2, 1));
	ASSERT_EQ(0, asc_race_drain(race, "end"));
	ASSERT_EQ(0, asc_race_leftovers(race, "end"));
	asc_race_free(race);
}

TEST_HARNESS_MAIN
