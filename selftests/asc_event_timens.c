// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: wait deadlines inside a time namespace.
 *
 * A deadline is CLOCK_MONOTONIC of the caller's time namespace, so the
 * driver must translate it to the host's clock.  A child runs in a
 * namespace whose monotonic clock is 10 days ahead of the host's (or 2 s
 * behind): its 200 ms wait must still take 200 ms, and its past deadline
 * must still not sleep.  An untranslated deadline would block for 10 days
 * (the child is then killed) or return at once.  The process that called
 * unshare(CLONE_NEWTIME) itself stays in its old namespace: its own waits
 * use its own clock, not its children's.  The children fetch the ID they
 * wait on first, as a program does: checked mode (the default) refuses
 * hand-written IDs.
 */
#include "asc_event_test.h"

#include <sched.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME	0x00000080
#endif

#define EV	ASC_EVENT_MTE3_MTE2

/*
 * How late a timed-out wait may return, past its deadline.  Under TCG on a
 * busy host a wakeup comes hundreds of ms late at times; a deadline read in
 * the wrong clock is off by 2 s at least (the smaller offset below).
 */
#define SLACK_MS	1000

ASC_FIXTURE(timens)

FIXTURE_VARIANT(timens) {
	long offset_sec;	/* namespace clock minus host clock */
};

FIXTURE_VARIANT_ADD(timens, ahead) {
	.offset_sec = 10L * 24 * 3600,
};

FIXTURE_VARIANT_ADD(timens, behind) {
	.offset_sec = -2,
};

/*
 * Make the children of this process start in a new time namespace offset by
 * @offset_sec; false (the test skipped) when this kernel or user cannot.
 */
static bool offset_children(struct __test_metadata *_metadata, long offset_sec)
{
	char buf[64];
	int fd, len;

	if (offset_sec < 0 && asc_now_ns() < (__u64)(-offset_sec + 1) * ASC_NSEC_PER_SEC) {
		SKIP(return false, "%s: the system is up for less than %ld s",
		     _metadata->name, -offset_sec + 1);
	}
	if (unshare(CLONE_NEWTIME)) {
		SKIP(return false, "%s: unshare(CLONE_NEWTIME): %s", _metadata->name,
		     strerror(errno));
	}
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	len = snprintf(buf, sizeof(buf), "monotonic %ld 0\n", offset_sec);
	ASSERT_EQ(len, write(fd, buf, len)) TH_LOG("timens_offsets: %s", strerror(errno));
	close(fd);
	return true;
}

/*
 * Run @fn in a child in the offset namespace; it returns its exit status.
 * First check the child's clock really is offset.
 */
static void in_namespace(struct __test_metadata *_metadata, int fd, long offset_sec,
			 int (*fn)(int fd))
{
	__u64 host_now = asc_now_ns();
	pid_t pid;
	int status;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		__s64 diff = (__s64)(asc_now_ns() - host_now);
		__s64 want = offset_sec * (__s64)ASC_NSEC_PER_SEC;

		if (diff < want || diff > want + 5 * (__s64)ASC_NSEC_PER_SEC)
			_exit(100);
		_exit(fn(fd));
	}
	status = asc_child_wait(pid, 3000);
	ASSERT_NE(100, status) TH_LOG("the child's clock is not offset");
	ASSERT_NE(-1, status) TH_LOG("the wait hung: deadline not translated");
	ASSERT_EQ(0, status);
}

/* 0, or which check failed. */
static int wait_times_out_on_time(int fd)
{
	__u64 deadline, end;

	if (asc_fetch(fd, EV) != 0)
		return 4;
	deadline = asc_deadline_ms(200);
	if (asc_wait(fd, EV, 0, deadline) != -ETIMEDOUT)
		return 1;
	end = asc_now_ns();
	if (end < deadline)
		return 2;
	if (end > deadline + SLACK_MS * ASC_NSEC_PER_MSEC)
		return 3;
	return 0;
}

static int past_deadline_does_not_sleep(int fd)
{
	__u64 start;

	if (asc_fetch(fd, EV) != 0)
		return 4;
	start = asc_now_ns();
	if (asc_wait(fd, EV, 0, start - ASC_NSEC_PER_MSEC) != -ETIMEDOUT)
		return 1;
	if (asc_set(fd, EV, 0) || asc_wait(fd, EV, 0, asc_now_ns() - 1))
		return 2;
	if (asc_ms_since(start) > 100)
		return 3;
	return 0;
}

static int set_wakes_deadline_wait(int fd)
{
	pid_t pid;
	int ret;

	if (asc_fetch(fd, EV) != 0)
		return 4;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (!asc_wait_in_ioctl(getppid(), getppid(), 1000))
			_exit(1);
		_exit(asc_set(fd, EV, 0) ? 1 : 0);
	}
	ret = asc_wait(fd, EV, 0, asc_deadline_ms(1000));
	if (asc_child_wait(pid, 2000) != 0)
		return 2;
	return ret ? 3 : 0;
}

TEST_F_TIMEOUT(timens, wait_times_out_on_time, 10)
{
	if (!offset_children(_metadata, variant->offset_sec))
		return;
	in_namespace(_metadata, self->fd, variant->offset_sec, wait_times_out_on_time);
}

TEST_F_TIMEOUT(timens, past_deadline_does_not_sleep, 10)
{
	if (!offset_children(_metadata, variant->offset_sec))
		return;
	in_namespace(_metadata, self->fd, variant->offset_sec, past_deadline_does_not_sleep);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(timens, set_wakes_deadline_wait, 10)
{
	if (!offset_children(_metadata, variant->offset_sec))
		return;
	in_namespace(_metadata, self->fd, variant->offset_sec, set_wakes_deadline_wait);
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * The process that made the namespace for its children is not in it: its
 * own 200 ms wait takes 200 ms of its own clock, whatever the children's
 * offset.
 */
TEST_F_TIMEOUT(timens, wait_in_the_unsharing_process, 10)
{
	if (!offset_children(_metadata, variant->offset_sec))
		return;
	ASSERT_EQ(0, wait_times_out_on_time(self->fd));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_HARNESS_MAIN
