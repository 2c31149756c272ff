// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: set_flag and wait_flag without blocking.
 *
 * A set raises one bit per (HardEvent, ID); a wait consumes it; a second set
 * of a raised flag is -EBUSY and changes nothing; a past deadline tests and
 * consumes without sleeping; a future one times out on time.
 *
 * Most tests fetch ID 0 of EV first, as a program does before it sets and
 * waits: checked mode (the default) refuses a hand-written ID.  The tests
 * of the raw flag semantics on every (event, id), or on IDs nobody
 * allocated, turn checked mode off for their TPipe and say so.
 */
#include "asc_event_test.h"

#define EV	ASC_EVENT_MTE2_V

/* A wait that must return at once may take this long in a slow guest. */
#define QUICK_MS	100

/* How late a timed-out wait may return, past its deadline. */
#define SLACK_MS	150

ASC_FIXTURE(flag)

TEST_F(flag, set_then_wait)
{
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(flag, wait_consumes, 10)
{
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, asc_deadline_ms(1000)));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(flag, double_set_busy)
{
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 1);
}

TEST_F(flag, past_deadline_does_not_sleep)
{
	const __u64 past[] = { 0, 1, asc_now_ns() - ASC_NSEC_PER_SEC, asc_now_ns() };
	unsigned int i;
	__u64 start;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < ARRAY_SIZE(past); i++) {
		start = asc_now_ns();
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, past[i])) {
			TH_LOG("deadline %llu", (unsigned long long)past[i]);
		}
		ASSERT_GT(QUICK_MS, asc_ms_since(start));

		ASSERT_EQ(0, asc_set(self->fd, EV, 0));
		start = asc_now_ns();
		ASSERT_EQ(0, asc_wait(self->fd, EV, 0, past[i]));
		ASSERT_GT(QUICK_MS, asc_ms_since(start));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/* Raw flag semantics on every (event, id): checked mode off. */
TEST_F(flag, one_flag_per_event_and_id)
{
	const int pos[][2] = {
		{ 0, 0 }, { EV, self->ids - 1 }, { ASC_NR_EVENTS - 1, self->ids / 2 },
	};
	unsigned int p;
	int e, i;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	for (p = 0; p < ARRAY_SIZE(pos); p++) {
		ASSERT_EQ(0, asc_set(self->fd, pos[p][0], pos[p][1]));
		for (e = 0; e < ASC_NR_EVENTS; e++) {
			for (i = 0; i < self->ids; i++) {
				if (e == pos[p][0] && i == pos[p][1])
					continue;
				ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, e, i, 0)) {
					TH_LOG("set (%d, %d), flag (%d, %d) was set too",
					       pos[p][0], pos[p][1], e, i);
				}
			}
		}
		ASSERT_EQ(0, asc_wait(self->fd, pos[p][0], pos[p][1], 0));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/* Raw flag semantics on every (event, id): checked mode off. */
TEST_F(flag, every_flag_usable)
{
	int e, i;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < self->ids; i++) {
			ASSERT_EQ(0, asc_set(self->fd, e, i)) TH_LOG("(%d, %d)", e, i);
		}
	}
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < self->ids; i++) {
			ASSERT_EQ(-EBUSY, asc_set(self->fd, e, i)) TH_LOG("(%d, %d)", e, i);
		}
	}
	for (e = ASC_NR_EVENTS - 1; e >= 0; e--) {
		for (i = self->ids - 1; i >= 0; i--) {
			ASSERT_EQ(0, asc_wait(self->fd, e, i, 0)) TH_LOG("(%d, %d)", e, i);
			ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, e, i, 0)) TH_LOG("(%d, %d)", e, i);
		}
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * The flags themselves need no allocated ID; checked mode, which refuses
 * such hand-written IDs, is off for this test.
 */
TEST_F(flag, set_and_wait_need_no_alloc)
{
	int last = self->ids - 1;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	ASSERT_EQ(0, asc_set(self->fd, EV, last));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_wait(self->fd, EV, last, 0));

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));

	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(flag, timeout_accuracy, 10)
{
	static const unsigned int ms[] = { 50, 100, 200 };
	unsigned int i;
	__u64 deadline, end;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < ARRAY_SIZE(ms); i++) {
		deadline = asc_deadline_ms(ms[i]);
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, deadline));
		end = asc_now_ns();
		ASSERT_LE(deadline, end) {
			TH_LOG("%u ms wait returned %llu us early", ms[i],
			       (unsigned long long)(deadline - end) / 1000);
		}
		ASSERT_GE(deadline + SLACK_MS * ASC_NSEC_PER_MSEC, end) {
			TH_LOG("%u ms wait returned %llu ms late", ms[i],
			       (unsigned long long)(end - deadline) / ASC_NSEC_PER_MSEC);
		}
	}
}

TEST_F_TIMEOUT(flag, set_before_deadline_returns_at_once, 10)
{
	__u64 start = asc_now_ns();

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, asc_deadline_ms(5000)));
	ASSERT_GT(QUICK_MS, asc_ms_since(start));
}

TEST_HARNESS_MAIN
