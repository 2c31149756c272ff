// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The memory checks' map of written bytes (lib/memcheck.c), a bit per
 * byte marked and read a byte at a time where it can be: against a map
 * kept one bool per byte, over ranges at every offset and length of a
 * small memory, and a random run of marks, clears and reads.  Linked with
 * the static library, whose internal functions it calls.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memcheck.h"

#include "kselftest_harness.h"

/* Bytes of the memory the maps are of. */
#define BYTES	200

struct maps {
	uint8_t bits[BYTES / 8 + 1];
	bool plain[BYTES];
};

static void mark_both(struct maps *m, size_t from, size_t len, bool on)
{
	asc_memcheck_mark(m->bits, from, len, on);
	memset(m->plain + from, on, len);
}

/* Whether the count and first unwritten byte of every range agree. */
static bool ranges_agree(const struct maps *m, struct __test_metadata *_metadata)
{
	size_t from, len, i, n, first, want_first, got;

	for (from = 0; from < BYTES; from++) {
		for (len = 0; from + len <= BYTES; len++) {
			n = 0;
			want_first = 0;
			for (i = from; i < from + len; i++)
				if (!m->plain[i] && !n++)
					want_first = i;
			first = (size_t)-1;
			got = asc_memcheck_unwritten(m->bits, from, len, &first);
			EXPECT_EQ(n, got) {
				TH_LOG("range %zu+%zu", from, len);
				return false;
			}
			if (n)
				EXPECT_EQ(want_first, first) {
					TH_LOG("range %zu+%zu", from, len);
					return false;
				}
		}
	}
	return true;
}

TEST(marks_at_every_offset_and_length)
{
	struct maps m;
	size_t from, len, i;

	for (from = 0; from < 24; from++) {
		for (len = 0; from + len <= BYTES; len += 1 + len / 4) {
			memset(&m, 0, sizeof(m));
			mark_both(&m, from, len, true);
			for (i = 0; i < BYTES; i++)
				ASSERT_EQ(m.plain[i], !!(m.bits[i / 8] & (1u << (i % 8))));
			mark_both(&m, from + len / 3, len / 2, false);
			for (i = 0; i < BYTES; i++)
				ASSERT_EQ(m.plain[i], !!(m.bits[i / 8] & (1u << (i % 8))));
		}
	}
}

TEST(reads_agree_after_random_marks)
{
	struct maps m;
	unsigned int seed = 7;
	int round;

	memset(&m, 0, sizeof(m));
	for (round = 0; round < 12; round++) {
		size_t from = rand_r(&seed) % BYTES;
		size_t len = rand_r(&seed) % (BYTES - from + 1);

		mark_both(&m, from, len, rand_r(&seed) % 3 != 0);
		ASSERT_TRUE(ranges_agree(&m, _metadata));
	}
}

TEST_HARNESS_MAIN
