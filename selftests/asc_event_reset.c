// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: TPipe.reset and TPipe.destroy (close).
 *
 * Reset releases every ID, clears every flag, cancels every blocked wait of
 * the TPipe with -ECANCELED and reports what it found.  Close does the same
 * clean-up once the last reference to the open file goes; a process that
 * dies in a wait does not hang.
 *
 * Every ID is allocated or fetched before it is set or waited on, as a
 * program does: checked mode (the default) refuses hand-written IDs, and a
 * reset forgets the fetched ones.
 */
#include "asc_event_test.h"

#define EV	ASC_EVENT_V_S
#define NWAIT	6

/* Long enough for a thread to reach its ioctl in a slow guest. */
#define BLOCK_MS	2000

ASC_FIXTURE(reset)

/* Allocate @ids IDs and set @flags flags on every HardEvent of @fd. */
static void load(struct __test_metadata *_metadata, int fd, int ids, int flags)
{
	int e, i;

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < ids; i++) {
			ASSERT_EQ(i, asc_alloc(fd, e));
		}
		for (i = 0; i < flags; i++) {
			ASSERT_EQ(0, asc_set(fd, e, i));
		}
	}
}

TEST_F(reset, fresh_tpipe_reports_nothing)
{
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(reset, reports_ids_and_flags)
{
	int a = self->ids < 3 ? self->ids : 3;
	int b = self->ids < 2 ? self->ids : 2;
	int i;

	for (i = 0; i < a; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	for (i = 0; i < b; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, ASC_EVENT_MTE2_V));
	}
	/* Released IDs are not counted; their flags are. */
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, ASC_EVENT_FIX_FIX));
	}
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_FIX_FIX, self->ids - 1));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_FIX_FIX, i));
	}
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_M_V));
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_MTE2_MTE1));

	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_M_V, 0));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_MTE2_MTE1, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_M_V, 0, 0));

	ASSERT_RESET(self->fd, a + b, 3);
}

TEST_F(reset, clears_everything)
{
	int e;

	load(_metadata, self->fd, self->ids, 1);
	ASSERT_RESET(self->fd, ASC_NR_EVENTS * self->ids, ASC_NR_EVENTS);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(-ENOENT, asc_release(self->fd, e, 0)) TH_LOG("event %d", e);
		ASSERT_EQ(0, asc_fetch(self->fd, e)) TH_LOG("event %d", e);
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, e, 0, 0)) TH_LOG("event %d", e);
	}
	ASSERT_RESET(self->fd, 0, 0);
	load(_metadata, self->fd, self->ids, self->ids);
	ASSERT_RESET(self->fd, ASC_NR_EVENTS * self->ids, ASC_NR_EVENTS * self->ids);
	load(_metadata, self->fd, 1, 0);
	ASSERT_RESET(self->fd, ASC_NR_EVENTS, 0);
}

TEST_F_TIMEOUT(reset, cancels_blocked_waiter, 10)
{
	struct asc_test_waiter w;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	ASSERT_EQ(ETIMEDOUT, asc_waiter_join(&w, 100)) TH_LOG("wait returned %d", w.ret);
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(-ECANCELED, w.ret);
}

TEST_F_TIMEOUT(reset, cancels_every_waiter, 10)
{
	const int flag[NWAIT][2] = {
		{ EV, 0 }, { EV, 0 }, { EV, self->ids - 1 },
		{ ASC_EVENT_MTE3_V, 0 }, { 0, 0 }, { ASC_NR_EVENTS - 1, 0 },
	};
	struct asc_test_waiter w[NWAIT];
	__u64 reset_ns;
	int i;

	/* Every ID of EV, so the last one is the program's too. */
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_fetch(self->fd, 0));
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_NR_EVENTS - 1));
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_start(&w[i], self->fd, flag[i][0], flag[i][1],
					      i & 1 ? asc_deadline_ms(8000) :
						      ASC_EVENT_WAIT_FOREVER));
	}
	for (i = 0; i < NWAIT; i++) {
		ASSERT_TRUE(asc_waiter_blocked(&w[i], BLOCK_MS));
	}
	reset_ns = asc_now_ns();
	ASSERT_RESET(self->fd, self->ids, 0);
	for (i = 0; i < NWAIT; i++) {
		ASSERT_EQ(0, asc_waiter_join(&w[i], 2000)) TH_LOG("waiter %d", i);
		ASSERT_EQ(-ECANCELED, w[i].ret) TH_LOG("waiter %d", i);
		ASSERT_GT(1000ULL * ASC_NSEC_PER_MSEC, w[i].end_ns - reset_ns);
	}
}

TEST_F_TIMEOUT(reset, pending_flags_exclude_waiters, 10)
{
	struct asc_test_waiter w;

	if (self->ids < 2)
		SKIP(return, "%s: needs 2 IDs, the device has %d", _metadata->name, self->ids);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	ASSERT_EQ(0, asc_set(self->fd, EV, 1));
	ASSERT_RESET(self->fd, 1, 1);
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(-ECANCELED, w.ret);
}

TEST_F_TIMEOUT(reset, later_waits_not_canceled, 10)
{
	struct asc_test_waiter w;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(-ECANCELED, w.ret);

	/* The reset forgot the fetched ID: fetch it again. */
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, asc_deadline_ms(50)));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, asc_deadline_ms(5000)));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(0, w.ret);
}

TEST_F_TIMEOUT(reset, close_with_state_then_clean_open, 30)
{
	int round, fd, e;

	for (round = 0; round < 50; round++) {
		fd = asc_open();
		ASSERT_LE(0, fd);
		for (e = 0; e < ASC_NR_EVENTS; e++) {
			ASSERT_EQ(0, asc_fetch(fd, e)) TH_LOG("round %d event %d", round, e);
			ASSERT_EQ(-ETIMEDOUT, asc_wait(fd, e, 0, 0)) {
				TH_LOG("round %d event %d", round, e);
			}
		}
		load(_metadata, fd, self->ids, self->ids);
		ASSERT_EQ(0, close(fd));
	}
	load(_metadata, self->fd, 1, 1);
	ASSERT_EQ(0, close(self->fd));
	self->fd = asc_open();
	ASSERT_LE(0, self->fd);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(reset, dup_shares_the_tpipe, 10)
{
	int fd2 = dup(self->fd);

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1 % self->ids ? 1 : -ENOSPC, asc_alloc(fd2, EV));
	ASSERT_EQ(0, asc_set(fd2, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, close(fd2));
	ASSERT_RESET(self->fd, self->ids > 1 ? 2 : 1, 0);
}

TEST_F_TIMEOUT(reset, close_during_wait_keeps_the_tpipe, 10)
{
	struct asc_test_waiter w;
	int fd2 = dup(self->fd);

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, BLOCK_MS));
	/* The waiter's ioctl holds the file: closing the fd destroys nothing. */
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_EQ(ETIMEDOUT, asc_waiter_join(&w, 100)) TH_LOG("wait returned %d", w.ret);
	ASSERT_EQ(0, asc_set(fd2, EV, 0));
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(0, w.ret);
	ASSERT_RESET(fd2, 0, 0);
	ASSERT_EQ(0, close(fd2));
}

TEST_F_TIMEOUT(reset, exit_with_blocked_waiters, 10)
{
	pid_t pid;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct asc_test_waiter w[2];
		int fd = asc_open();

		if (fd < 0 || asc_alloc(fd, EV) != 0 || asc_fetch(fd, ASC_EVENT_M_V) != 0 ||
		    asc_set(fd, ASC_EVENT_M_V, 0))
			_exit(1);
		if (asc_waiter_start(&w[0], fd, EV, 0, ASC_EVENT_WAIT_FOREVER) ||
		    asc_waiter_start(&w[1], self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER))
			_exit(2);
		if (!asc_waiter_blocked(&w[0], BLOCK_MS) || !asc_waiter_blocked(&w[1], BLOCK_MS))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(0, asc_child_wait(pid, 5000)) TH_LOG("the child did not exit cleanly");
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(reset, sigkill_blocked_waiter, 10)
{
	pid_t pid;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		asc_wait(self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER);
		_exit(1);
	}
	ASSERT_TRUE(asc_wait_in_ioctl(pid, pid, BLOCK_MS));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(256 + SIGKILL, asc_child_wait(pid, 3000));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 1);
}

TEST_HARNESS_MAIN
