// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: blocked waits and the sets that wake them.
 *
 * A wait blocks until its own flag is set; a set wakes exactly one waiter,
 * the one that has waited longest, and hands it the flag; N sets wake N
 * waiters; a waiter whose deadline passes times out even while others of
 * the same flag are woken.
 *
 * The IDs are allocated or fetched before they are set and waited on, as
 * a correct program does: checked mode (the default) refuses hand-written
 * IDs.
 */
#include "asc_event_test.h"

#define EV	ASC_EVENT_V_MTE3
#define NWAIT	4

/* Long enough for a thread to reach its ioctl in a slow guest. */
#define BLOCK_MS	2000

ASC_FIXTURE(wake)

static int count_done(struct asc_test_waiter *w, int n)
{
	int i, done = 0;

	for (i = 0; i < n; i++)
		done += atomic_load(&w[i].done);
	return done;
}

/* Allocate IDs 0..@n-1 of @event (n <= event_ids). */
static void take_ids(struct __test_metadata *_metadata, int fd, int event, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(i, asc_alloc(fd, event)) TH_LOG("event %d", event);
	}
}

/* Release IDs 0..@n-1 of @event, taken by take_ids(). */
static void give_ids(struct __test_metadata *_metadata, int fd, int event, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, asc_release(fd, event, i)) TH_LOG("event %d id %d", event, i);
	}
}

/* Wait up to @ms for at least @want of @w to return; how many did. */
static int wait_done(struct asc_test_waiter *w, int n, int want, unsigned int ms)
{
	__u64 end = asc_deadline_ms(ms);
	int done;

	while ((done = count_done(w, n)) < want && asc_now_ns() < end)
		asc_sleep_ms(1);
	return done;
}

TEST_F_TIMEOUT(wake, blocked_wait_woken_by_set, 10)
{
	struct asc_test_waiter w;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	ASSERT_EQ(ETIMEDOUT, asc_waiter_join(&w, 100)) TH_LOG("wait returned %d", w.ret);

	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(0, w.ret);
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(wake, woken_long_before_deadline, 20)
{
	__u64 deadline = asc_deadline_ms(10000), set_ns;
	struct asc_test_waiter w;

	take_ids(_metadata, self->fd, EV, self->ids > 1 ? 2 : 1);
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 1 % self->ids, deadline));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	set_ns = asc_now_ns();
	ASSERT_EQ(0, asc_set(self->fd, EV, 1 % self->ids));
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(0, w.ret);
	ASSERT_GT(1000ULL * ASC_NSEC_PER_MSEC, w.end_ns - set_ns);
}

TEST_F_TIMEOUT(wake, other_flags_do_not_wake, 10)
{
	struct asc_test_waiter w;
	int e;

	if (self->ids < 2)
		SKIP(return, "%s: needs 2 IDs, the device has %d", _metadata->name, self->ids);
	for (e = 0; e < ASC_NR_EVENTS; e++)
		take_ids(_metadata, self->fd, e, 2);
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 1, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		if (e != EV) {
			ASSERT_EQ(0, asc_set(self->fd, e, 1));
		}
	}
	ASSERT_EQ(ETIMEDOUT, asc_waiter_join(&w, 100)) TH_LOG("wait returned %d", w.ret);
	ASSERT_EQ(0, asc_set(self->fd, EV, 1));
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(0, w.ret);
	for (e = 0; e < ASC_NR_EVENTS; e++)
		give_ids(_metadata, self->fd, e, 2);
	ASSERT_RESET(self->fd, 0, ASC_NR_EVENTS);
}

TEST_F_TIMEOUT(wake, waiters_of_different_flags, 10)
{
	const int flag[NWAIT][2] = {
		{ EV, 0 }, { EV, self->ids - 1 }, { ASC_EVENT_MTE3_V, 0 }, { 0, 0 },
	};
	struct asc_test_waiter w[NWAIT];
	int i, j;

	take_ids(_metadata, self->fd, EV, self->ids);
	take_ids(_metadata, self->fd, ASC_EVENT_MTE3_V, 1);
	take_ids(_metadata, self->fd, 0, 1);
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, flag[i][0], flag[i][1],
					      ASC_EVENT_WAIT_FOREVER));
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS));
	}
	for (i = NWAIT - 1; i >= 0; i--) {
		/* With one ID, waiters 0 and 1 share a flag: either may go first. */
		if (i == 1 && self->ids == 1) {
			ASSERT_EQ(0, asc_set(self->fd, EV, 0));
			ASSERT_EQ(NWAIT - 1, wait_done(w, NWAIT, NWAIT - 1, 2000));
			ASSERT_EQ(0, asc_set(self->fd, EV, 0));
			ASSERT_EQ(NWAIT, wait_done(w, NWAIT, NWAIT, 2000));
			break;
		}
		ASSERT_EQ(0, asc_set(self->fd, flag[i][0], flag[i][1]));
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000)) TH_LOG("waiter %d", i);
		ASSERT_EQ(0, w[i].ret);
		for (j = 0; j < i; j++) {
			ASSERT_FALSE(atomic_load(&w[j].done)) TH_LOG("waiter %d woke with %d", j, i);
		}
	}
	for (i = 0; i < NWAIT; i++) {
		if (self->ids == 1 && i < 2) {
			ASSERT_EQ(0, asc_waiter_join(&w[i], 2000));
		}
		ASSERT_EQ(0, w[i].ret) TH_LOG("waiter %d", i);
	}
	give_ids(_metadata, self->fd, EV, self->ids);
	give_ids(_metadata, self->fd, ASC_EVENT_MTE3_V, 1);
	give_ids(_metadata, self->fd, 0, 1);
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * A set wakes only a waiter of its own ID, whatever other IDs of the
 * HardEvent are waited on: every ID has a waiter (with more than four IDs,
 * some share a bucket of the driver's waiter hash), and the sets come
 * youngest waiter first, so that an older waiter of another ID is there
 * to be woken by mistake.
 */
TEST_F_TIMEOUT(wake, each_set_wakes_its_own_id_only, 20)
{
	struct asc_test_waiter w[ASC_EVENT_IDS_MAX];
	int i, j;

	take_ids(_metadata, self->fd, EV, self->ids);
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, EV, i, ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS));
	}
	for (i = self->ids - 1; i >= 0; i--) {
		ASSERT_EQ(0, asc_set(self->fd, EV, i));
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000)) TH_LOG("the waiter of ID %d", i);
		ASSERT_EQ(0, w[i].ret);
		for (j = 0; j < i; j++) {
			ASSERT_FALSE(atomic_load(&w[j].done)) TH_LOG("ID %d woke with %d", j, i);
		}
	}
	give_ids(_metadata, self->fd, EV, self->ids);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(wake, one_set_wakes_exactly_one, 10)
{
	struct asc_test_waiter w[NWAIT];
	int i, ok = 0, canceled = 0;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS));
	}
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_LE(1, wait_done(w, NWAIT, 1, 2000));
	asc_sleep_ms(100);
	ASSERT_EQ(1, count_done(w, NWAIT));

	ASSERT_RESET(self->fd, 0, 0);
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000));
		ok += w[i].ret == 0;
		canceled += w[i].ret == -ECANCELED;
	}
	ASSERT_EQ(1, ok);
	ASSERT_EQ(NWAIT - 1, canceled);
}

TEST_F_TIMEOUT(wake, one_set_others_time_out, 10)
{
	__u64 deadline = asc_deadline_ms(600);
	struct asc_test_waiter w[NWAIT];
	int i, ok = 0, timedout = 0;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, EV, 0, deadline));
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_TRUE(asc_waiter_blocked(&w[i], 500));
	}
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_join(&w[i], 3000));
		ok += w[i].ret == 0;
		if (w[i].ret == -ETIMEDOUT) {
			timedout++;
			ASSERT_LE(deadline, w[i].end_ns);
		}
	}
	ASSERT_EQ(1, ok);
	ASSERT_EQ(NWAIT - 1, timedout);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(wake, n_sets_hand_off_to_n_waiters, 10)
{
	struct asc_test_waiter w[NWAIT];
	int i;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS));
	}
	/* Each set hands the flag to a blocked waiter, so none is -EBUSY. */
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_set(self->fd, EV, 0)) TH_LOG("set %d", i);
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000));
		ASSERT_EQ(0, w[i].ret) TH_LOG("waiter %d", i);
	}
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 1);
}

/* The waiters of one flag are woken in the order they began to wait. */
TEST_F_TIMEOUT(wake, oldest_waiter_first, 20)
{
	struct asc_test_waiter w[NWAIT];
	int i, k;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS));
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_set(self->fd, EV, 0));
		ASSERT_EQ(i + 1, wait_done(w, NWAIT, i + 1, 2000));
		for (k = 0; k < NWAIT; k++) {
			ASSERT_EQ(k <= i, atomic_load(&w[k].done)) {
				TH_LOG("set %d woke waiter %d instead of waiter %d", i, k, i);
			}
		}
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000));
		ASSERT_EQ(0, w[i].ret);
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(wake, huge_deadline_blocks, 10)
{
	const __u64 deadline[] = { 1ULL << 63, ASC_EVENT_WAIT_FOREVER - 1 };
	struct asc_test_waiter w[2];
	int i;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, EV, 0, deadline[i]));
	}
	for (i = 0; i < 2; i++) {
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS))
			TH_LOG("deadline %#llx returned %d", (unsigned long long)deadline[i],
			       w[i].ret);
	}
	ASSERT_RESET(self->fd, 0, 0);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000));
		ASSERT_EQ(-ECANCELED, w[i].ret);
	}
}

TEST_HARNESS_MAIN
