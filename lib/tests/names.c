// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * HardEvent names both ways, and the static strings of the library.
 *
 * The expected table is pyasc's numbering written out by hand, so it checks
 * the uAPI enum as well as the names libasc generates from it.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <asc.h>

#include "kselftest_harness.h"

struct expected_event {
	int constant;
	int value;
	const char *name;
};

#define E(name, value)	{ ASC_HARD_EVENT_##name, value, #name }

static const struct expected_event pyasc_events[] = {
	E(MTE2_MTE1, 0), E(MTE1_MTE2, 1), E(MTE1_M, 2), E(M_MTE1, 3),
	E(MTE2_V, 4), E(V_MTE2, 5), E(MTE3_V, 6), E(V_MTE3, 7),
	E(M_V, 8), E(V_M, 9), E(V_V, 10), E(MTE3_MTE1, 11),
	E(MTE1_MTE3, 12), E(MTE1_V, 13), E(MTE2_M, 14), E(M_MTE2, 15),
	E(V_MTE1, 16), E(M_FIX, 17), E(FIX_M, 18), E(MTE3_MTE2, 19),
	E(MTE2_MTE3, 20), E(S_V, 21), E(V_S, 22), E(S_MTE2, 23),
	E(MTE2_S, 24), E(S_MTE3, 25), E(MTE3_S, 26), E(MTE2_FIX, 27),
	E(FIX_MTE2, 28), E(FIX_S, 29), E(M_S, 30), E(FIX_MTE3, 31),
	E(MTE1_FIX, 32), E(FIX_MTE1, 33), E(FIX_FIX, 34),
};

#define NR_PYASC_EVENTS	(int)(sizeof(pyasc_events) / sizeof(pyasc_events[0]))

TEST(count_is_35)
{
	EXPECT_EQ(35, ASC_HARD_EVENT_COUNT);
	EXPECT_EQ(35, NR_PYASC_EVENTS);
}

TEST(constants_match_pyasc)
{
	int i;

	for (i = 0; i < NR_PYASC_EVENTS; i++) {
		EXPECT_EQ(pyasc_events[i].value, pyasc_events[i].constant)
			TH_LOG("ASC_HARD_EVENT_%s", pyasc_events[i].name);
	}
}

TEST(name_of_every_event)
{
	const char *name;
	int i;

	for (i = 0; i < NR_PYASC_EVENTS; i++) {
		name = asc_hard_event_name(pyasc_events[i].constant);
		ASSERT_NE(NULL, name) TH_LOG("event %d", pyasc_events[i].value);
		EXPECT_STREQ(pyasc_events[i].name, name);
	}
}

TEST(number_of_every_name)
{
	int i;

	for (i = 0; i < NR_PYASC_EVENTS; i++) {
		EXPECT_EQ(pyasc_events[i].constant,
			  asc_hard_event_from_name(pyasc_events[i].name))
			TH_LOG("%s", pyasc_events[i].name);
	}
}

TEST(round_trip_and_distinct)
{
	const char *a, *b;
	int i, j;

	for (i = 0; i < ASC_HARD_EVENT_COUNT; i++) {
		a = asc_hard_event_name(i);
		ASSERT_NE(NULL, a);
		EXPECT_EQ(i, asc_hard_event_from_name(a));
		EXPECT_EQ(a, asc_hard_event_name(i));
		for (j = 0; j < i; j++) {
			b = asc_hard_event_name(j);
			EXPECT_NE(0, strcmp(a, b)) TH_LOG("%d and %d", i, j);
		}
	}
}

TEST(name_out_of_range)
{
	static const int bad[] = {
		-1, ASC_HARD_EVENT_COUNT, ASC_HARD_EVENT_COUNT + 1, 64, 1000,
		INT_MIN, INT_MAX,
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(NULL, asc_hard_event_name(bad[i])) TH_LOG("%d", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%d", bad[i]);
	}
}

TEST(unknown_names)
{
	static const char *const bad[] = {
		"", "mte2_v", "Mte2_V", "MTE2_V ", " MTE2_V", "MTE2", "MTE2_",
		"MTE2_V_", "MTE2_VV", "ASC_HARD_EVENT_MTE2_V", "FIX_FIX\n",
		"V_MTE", "COUNT", "4",
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, asc_hard_event_from_name(bad[i]))
			TH_LOG("\"%s\"", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("\"%s\"", bad[i]);
	}
}

TEST(null_name)
{
	errno = 0;
	EXPECT_EQ(-1, asc_hard_event_from_name(NULL));
	EXPECT_EQ(EINVAL, errno);
}

TEST(version_string)
{
	const char *v = asc_version_string();

	ASSERT_NE(NULL, v);
	EXPECT_STREQ(ASC_PACKAGE_VERSION, v);
	EXPECT_EQ(v, asc_version_string());
}

TEST_HARNESS_MAIN
