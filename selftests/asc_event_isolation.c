// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: every open() is its own TPipe.
 *
 * Two opens in one process, or in two processes, never see each other's
 * IDs, flags, waits or resets.  A descriptor inherited through fork() is
 * the same open, so it is the same TPipe.
 *
 * Each open allocates or fetches the IDs it sets and waits on, as a program
 * does: checked mode (the default) refuses hand-written IDs, and what one
 * open allocated or fetched is no ID of another's.
 */
#include "asc_event_test.h"

#define EV	ASC_EVENT_S_MTE3
#define NOPEN	32

ASC_FIXTURE(isolation)

static int open_other(struct __test_metadata *_metadata)
{
	int fd = asc_open();

	ASSERT_LE(0, fd) TH_LOG("second open: %s", strerror(errno));
	return fd;
}

TEST_F(isolation, pools_independent)
{
	int fd2 = open_other(_metadata);
	int i;

	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_fetch(fd2, EV));
	ASSERT_EQ(-ENOENT, asc_release(fd2, EV, 0));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(fd2, EV));
	}
	ASSERT_EQ(0, asc_release(fd2, EV, 0));
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_fetch(fd2, EV));
	ASSERT_RESET(fd2, self->ids - 1, 0);
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, self->ids, 0);
	ASSERT_EQ(0, close(fd2));
}

TEST_F(isolation, flags_independent)
{
	int fd2 = open_other(_metadata);

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_fetch(fd2, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(fd2, EV, 0, 0));
	ASSERT_EQ(0, asc_set(fd2, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(-EBUSY, asc_set(fd2, EV, 0));
	ASSERT_RESET(fd2, 0, 1);
	ASSERT_EQ(0, close(fd2));
}

TEST_F_TIMEOUT(isolation, set_elsewhere_does_not_wake, 10)
{
	int fd2 = open_other(_metadata);
	struct asc_test_waiter w;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_fetch(fd2, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, asc_deadline_ms(400)));
	ASSERT_TRUE(asc_waiter_blocked(&w, 300));
	ASSERT_EQ(0, asc_set(fd2, EV, 0));
	ASSERT_EQ(0, asc_waiter_join(&w, 3000));
	ASSERT_EQ(-ETIMEDOUT, w.ret);
	ASSERT_RESET(fd2, 0, 1);
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, close(fd2));
}

TEST_F_TIMEOUT(isolation, reset_elsewhere_cancels_nothing, 10)
{
	int fd2 = open_other(_metadata);
	struct asc_test_waiter w;
	int last = self->ids - 1, i;

	/* An ID held, a flag set on the last ID, a waiter: none of fd2's. */
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(0, asc_set(self->fd, EV, last));
	for (i = 1; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, EV, i));
	}
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, ASC_EVENT_V_V, 0,
				      asc_deadline_ms(400)));
	ASSERT_TRUE(asc_waiter_blocked(&w, 300));
	ASSERT_RESET(fd2, 0, 0);
	ASSERT_EQ(0, asc_waiter_join(&w, 3000));
	ASSERT_EQ(-ETIMEDOUT, w.ret);
	ASSERT_RESET(self->fd, 1, 1);
	ASSERT_EQ(0, close(fd2));
}

TEST_F(isolation, close_elsewhere_keeps_state)
{
	int fd2 = open_other(_metadata);

	ASSERT_EQ(0, asc_alloc(fd2, EV));
	ASSERT_EQ(0, asc_set(fd2, EV, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, close(fd2));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(self->ids > 1 ? 1 : -ENOSPC, asc_fetch(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 1);
}

TEST_F(isolation, many_opens)
{
	int fd[NOPEN], i, j;

	for (i = 0; i < NOPEN; i++) {
		fd[i] = open_other(_metadata);
		for (j = 0; j <= i % self->ids; j++) {
			ASSERT_EQ(j, asc_alloc(fd[i], EV));
		}
		if (i & 1) {
			ASSERT_EQ(0, asc_set(fd[i], EV, 0));
		}
	}
	for (i = 0; i < NOPEN; i++) {
		ASSERT_RESET(fd[i], i % self->ids + 1, i & 1);
		ASSERT_EQ(0, close(fd[i]));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/* The child's side of two_processes; returns its exit status. */
static int other_process(int to_parent, int from_parent, int ids)
{
	char c = 0;
	int fd, i;

	fd = asc_open();
	if (fd < 0)
		return 10;
	for (i = 0; i < ids; i++)
		if (asc_alloc(fd, EV) != i)
			return 11;
	if (asc_alloc(fd, EV) != -ENOSPC)
		return 12;
	if (asc_fetch(fd, ASC_EVENT_M_V) != 0)
		return 19;
	if (asc_wait(fd, EV, 0, 0) != -ETIMEDOUT)
		return 13;
	if (asc_set(fd, EV, 0) != 0)
		return 14;
	if (write(to_parent, &c, 1) != 1 || read(from_parent, &c, 1) != 1)
		return 15;
	if (asc_wait(fd, ASC_EVENT_M_V, 0, 0) != -ETIMEDOUT)
		return 16;
	if (asc_fetch(fd, EV) != -ENOSPC)
		return 17;
	if (asc_wait(fd, EV, 0, 0) != 0)
		return 18;
	return 0;
}

TEST_F_TIMEOUT(isolation, two_processes, 10)
{
	int up[2], down[2], i;
	pid_t pid;
	char c = 0;

	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	/* ID 0 held, a flag set on the last ID (then released). */
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(0, asc_set(self->fd, EV, self->ids - 1));
	for (i = 1; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, EV, i));
	}
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_M_V));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(self->fd);
		_exit(other_process(up[1], down[0], self->ids));
	}
	ASSERT_EQ(1, read(up[0], &c, 1)) TH_LOG("child exited early");
	ASSERT_EQ(self->ids > 1 ? 1 : -ENOSPC, asc_fetch(self->fd, EV));
	if (self->ids > 1) {
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0)) {
			TH_LOG("the other process's flag showed up here");
		}
	}
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_M_V, 0));
	ASSERT_EQ(1, write(down[1], &c, 1));
	ASSERT_EQ(0, asc_child_wait(pid, 5000));
	ASSERT_RESET(self->fd, 1, 2);
}

TEST_F_TIMEOUT(isolation, fork_shares_the_open, 10)
{
	pid_t parent = getpid(), pid;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (!asc_wait_in_ioctl(parent, parent, 2000))
			_exit(1);
		if (asc_alloc(self->fd, EV) != 0)
			_exit(2);
		_exit(asc_set(self->fd, EV, 0) ? 3 : 0);
	}
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, asc_deadline_ms(5000)));
	ASSERT_EQ(0, asc_child_wait(pid, 3000));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_HARNESS_MAIN
