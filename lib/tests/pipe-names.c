// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pipe names both ways, and the source and destination pipe of every
 * HardEvent.
 *
 * The expected pipes are pyasc's PipeID numbering written out by hand; the
 * expected source and destination of each HardEvent come from its name,
 * split at the underscore, so the test checks the SRC and DST columns of
 * the library against the NAME column.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <asc.h>

#include "kselftest_harness.h"

struct expected_pipe {
	int constant;
	int value;
	const char *name;
};

#define P(name, value)	{ ASC_PIPE_##name, value, #name }

static const struct expected_pipe pyasc_pipes[] = {
	P(S, 0), P(V, 1), P(M, 2), P(MTE1, 3), P(MTE2, 4), P(MTE3, 5),
	P(FIX, 10),
};

#define NR_PYASC_PIPES	(int)(sizeof(pyasc_pipes) / sizeof(pyasc_pipes[0]))

/* Not pipes: ASC_PIPE_NONE, pyasc's PIPE_ALL (6), other chips' 7..9. */
static const int not_pipes[] = {
	ASC_PIPE_NONE, -2, 6, 7, 8, 9, 11, 12, 64, INT_MIN, INT_MAX,
};

#define NR_NOT_PIPES	(sizeof(not_pipes) / sizeof(not_pipes[0]))

TEST(constants_match_pyasc)
{
	int i;

	for (i = 0; i < NR_PYASC_PIPES; i++) {
		EXPECT_EQ(pyasc_pipes[i].value, pyasc_pipes[i].constant)
			TH_LOG("ASC_PIPE_%s", pyasc_pipes[i].name);
	}
	EXPECT_EQ(-1, ASC_PIPE_NONE);
}

TEST(name_of_every_pipe)
{
	const char *name;
	int i;

	for (i = 0; i < NR_PYASC_PIPES; i++) {
		name = asc_pipe_id_name(pyasc_pipes[i].constant);
		ASSERT_NE(NULL, name) TH_LOG("pipe %d", pyasc_pipes[i].value);
		EXPECT_STREQ(pyasc_pipes[i].name, name);
		EXPECT_EQ(name, asc_pipe_id_name(pyasc_pipes[i].constant));
	}
}

TEST(number_of_every_name)
{
	int i;

	for (i = 0; i < NR_PYASC_PIPES; i++) {
		EXPECT_EQ(pyasc_pipes[i].constant,
			  asc_pipe_id_from_name(pyasc_pipes[i].name))
			TH_LOG("%s", pyasc_pipes[i].name);
	}
}

/* Exactly the seven pipes have names in the range the table covers. */
TEST(only_pipes_have_names)
{
	int named = 0;
	const char *name;
	int id;

	for (id = -1; id <= ASC_PIPE_FIX + 1; id++) {
		errno = 0;
		name = asc_pipe_id_name(id);
		if (!name) {
			EXPECT_EQ(EINVAL, errno) TH_LOG("%d", id);
			continue;
		}
		named++;
		EXPECT_EQ(id, asc_pipe_id_from_name(name)) TH_LOG("%s", name);
	}
	EXPECT_EQ(NR_PYASC_PIPES, named);
}

TEST(name_of_non_pipes)
{
	unsigned int i;

	for (i = 0; i < NR_NOT_PIPES; i++) {
		errno = 0;
		EXPECT_EQ(NULL, asc_pipe_id_name(not_pipes[i]))
			TH_LOG("%d", not_pipes[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%d", not_pipes[i]);
	}
}

TEST(unknown_names)
{
	static const char *const bad[] = {
		"", "s", "v", "Mte2", "MTE2 ", " MTE2", "MTE", "MTE4", "MTE2_V",
		"ASC_PIPE_V", "PIPE_V", "NONE", "ALL", "FIX\n", "-", "1", "10",
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, asc_pipe_id_from_name(bad[i]))
			TH_LOG("\"%s\"", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("\"%s\"", bad[i]);
	}
}

TEST(null_name)
{
	errno = 0;
	EXPECT_EQ(-1, asc_pipe_id_from_name(NULL));
	EXPECT_EQ(EINVAL, errno);
}

/* Every HardEvent SRC_DST is set by pipe SRC and waited for by pipe DST. */
TEST(src_and_dst_of_every_event)
{
	char src[16], dst[16];
	const char *name, *sep;
	int event, s, d;

	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		name = asc_hard_event_name(event);
		ASSERT_NE(NULL, name);
		sep = strchr(name, '_');
		ASSERT_NE(NULL, sep) TH_LOG("%s", name);
		ASSERT_EQ(sep, strrchr(name, '_')) TH_LOG("%s", name);
		ASSERT_GT(sizeof(src), (size_t)(sep - name));
		snprintf(src, sizeof(src), "%.*s", (int)(sep - name), name);
		snprintf(dst, sizeof(dst), "%s", sep + 1);

		s = asc_hard_event_src_pipe(event);
		d = asc_hard_event_dst_pipe(event);
		EXPECT_EQ(asc_pipe_id_from_name(src), s) TH_LOG("%s", name);
		EXPECT_EQ(asc_pipe_id_from_name(dst), d) TH_LOG("%s", name);
		ASSERT_NE(NULL, asc_pipe_id_name(s)) TH_LOG("%s", name);
		ASSERT_NE(NULL, asc_pipe_id_name(d)) TH_LOG("%s", name);
		EXPECT_STREQ(src, asc_pipe_id_name(s));
		EXPECT_STREQ(dst, asc_pipe_id_name(d));
	}
}

TEST(src_and_dst_examples)
{
	static const struct { int event, src, dst; } ex[] = {
		{ ASC_HARD_EVENT_MTE2_MTE1, ASC_PIPE_MTE2, ASC_PIPE_MTE1 },
		{ ASC_HARD_EVENT_MTE2_V, ASC_PIPE_MTE2, ASC_PIPE_V },
		{ ASC_HARD_EVENT_V_MTE3, ASC_PIPE_V, ASC_PIPE_MTE3 },
		{ ASC_HARD_EVENT_V_V, ASC_PIPE_V, ASC_PIPE_V },
		{ ASC_HARD_EVENT_S_V, ASC_PIPE_S, ASC_PIPE_V },
		{ ASC_HARD_EVENT_M_FIX, ASC_PIPE_M, ASC_PIPE_FIX },
		{ ASC_HARD_EVENT_FIX_S, ASC_PIPE_FIX, ASC_PIPE_S },
		{ ASC_HARD_EVENT_FIX_FIX, ASC_PIPE_FIX, ASC_PIPE_FIX },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		EXPECT_EQ(ex[i].src, asc_hard_event_src_pipe(ex[i].event))
			TH_LOG("event %d", ex[i].event);
		EXPECT_EQ(ex[i].dst, asc_hard_event_dst_pipe(ex[i].event))
			TH_LOG("event %d", ex[i].event);
	}
}

/* Each of the seven pipes sets some HardEvent and waits for another. */
TEST(every_pipe_sets_and_waits)
{
	int i, event, sets, waits;

	for (i = 0; i < NR_PYASC_PIPES; i++) {
		sets = 0;
		waits = 0;
		for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
			sets += asc_hard_event_src_pipe(event) == pyasc_pipes[i].constant;
			waits += asc_hard_event_dst_pipe(event) == pyasc_pipes[i].constant;
		}
		EXPECT_LT(0, sets) TH_LOG("%s", pyasc_pipes[i].name);
		EXPECT_LT(0, waits) TH_LOG("%s", pyasc_pipes[i].name);
	}
}

TEST(src_and_dst_of_bad_events)
{
	static const int bad[] = {
		-1, ASC_HARD_EVENT_COUNT, ASC_HARD_EVENT_COUNT + 1, 64,
		INT_MIN, INT_MAX,
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, asc_hard_event_src_pipe(bad[i])) TH_LOG("%d", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%d", bad[i]);
		errno = 0;
		EXPECT_EQ(-1, asc_hard_event_dst_pipe(bad[i])) TH_LOG("%d", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%d", bad[i]);
	}
}

TEST_HARNESS_MAIN
