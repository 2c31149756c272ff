// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libasc's mapped fast path on the device, in the test guest
 * (tools/testing/asc-check-guest).  Needs /dev/asc_event; skips without it.
 *
 * - The path taken: with the fast path on, a bound thread's uncontended
 *   set+wait pairs are no ioctl and count in fast_ops; with
 *   $ASC_NO_FASTPATH=1 each is two ioctls (the test reads the variable
 *   and expects the one or the other).
 * - Nothing weakens: a hand-written ID still fails with ENOENT in strict
 *   mode and still makes an alloc of it fail with EADDRINUSE otherwise, a
 *   wrong pipe still gets EPERM, a double set EBUSY, a fork()ed child is
 *   not taken for its parent's bound thread.
 * - While a tracepoint is enabled every set and wait goes through the
 *   driver: the trace has each of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"

#define STATS	"/sys/class/misc/asc_event/stats/"
#define PAIRS	100

static struct asc_pipe *open_or_skip(struct __test_metadata *_metadata)
{
	struct asc_pipe *p = asc_pipe_open(NULL);

	if (!p)
		SKIP(return NULL, "no device: %s", strerror(errno));
	return p;
}

static unsigned long long stat_read(const char *name)
{
	char path[128], buf[32] = { 0 };
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), STATS "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ~0ULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtoull(buf, NULL, 10) : ~0ULL;
}

static bool fastpath_off(void)
{
	const char *v = getenv("ASC_NO_FASTPATH");

	return v && *v && strcmp(v, "0");
}

TEST(uncontended_pairs_take_the_path_chosen)
{
	unsigned long long ops, fast;
	struct asc_pipe *p = open_or_skip(_metadata);
	int id, i;

	if (!p)
		return;
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
	ASSERT_LE(0, id);
	ops = stat_read("ops");
	fast = stat_read("fast_ops");
	for (i = 0; i < PAIRS; i++) {
		ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
		ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));
	}
	if (fastpath_off()) {
		EXPECT_EQ(ops + 2 * PAIRS, stat_read("ops"));
		EXPECT_EQ(fast, stat_read("fast_ops"));
	} else {
		EXPECT_EQ(ops, stat_read("ops"));
		EXPECT_EQ(fast + 2 * PAIRS, stat_read("fast_ops"));
	}
	ASSERT_EQ(0, asc_release_event_id(p, id, ASC_HARD_EVENT_V_V));
	asc_pipe_close(p);
}

TEST(hand_written_ids_keep_their_errors)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int id;

	if (!p)
		return;
	ASSERT_EQ(0, asc_pipe_set_mode(p, ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS));
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
	ASSERT_EQ(0, id);
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(0, asc_release_event_id(p, id, ASC_HARD_EVENT_V_V));
	/* Released: hand-written now. */
	ASSERT_EQ(-1, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, asc_set_flag(p, ASC_HARD_EVENT_V_V, 1));
	ASSERT_EQ(ENOENT, errno);

	/* Not strict: legal, but the driver must know it was hand-written. */
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_NONE));
	ASSERT_EQ(0, asc_pipe_set_mode(p, ASC_MODE_CHECKED));
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, 0));
	ASSERT_EQ(-1, asc_alloc_event_id(p, ASC_HARD_EVENT_V_V));
	ASSERT_EQ(EADDRINUSE, errno);
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, 0));
	ASSERT_EQ(0, asc_alloc_event_id(p, ASC_HARD_EVENT_V_V));
	asc_pipe_close(p);
}

TEST(wrong_pipe_and_double_set_keep_their_errors)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int id;

	if (!p)
		return;
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
	ASSERT_LE(0, id);
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_MTE2));
	ASSERT_EQ(-1, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(EPERM, errno);
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(-1, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(EBUSY, errno);
	/* The flag is set: a wait from the wrong pipe must not take it. */
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_MTE2));
	ASSERT_EQ(-1, asc_wait_flag_timeout(p, ASC_HARD_EVENT_V_V, id, 0));
	ASSERT_EQ(EPERM, errno);
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	ASSERT_EQ(0, asc_wait_flag_timeout(p, ASC_HARD_EVENT_V_V, id, 0));
	ASSERT_EQ(-1, asc_wait_flag_timeout(p, ASC_HARD_EVENT_V_V, id, 0));
	ASSERT_EQ(ETIMEDOUT, errno);
	asc_pipe_close(p);
}

/* The child of a bound thread is not bound: V is its parent's. */
TEST(a_forked_child_is_not_the_bound_thread)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int id, status;
	pid_t pid;

	if (!p)
		return;
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
	ASSERT_LE(0, id);
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(asc_set_flag(p, ASC_HARD_EVENT_V_V, id) == -1 && errno == EPERM ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(-1, asc_wait_flag_timeout(p, ASC_HARD_EVENT_V_V, id, 0));
	ASSERT_EQ(ETIMEDOUT, errno);
	asc_pipe_close(p);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

static int count_in_file(const char *path, const char *what)
{
	char buf[4096];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		n += strstr(buf, what) != NULL;
	fclose(f);
	return n;
}

TEST(a_trace_sees_every_set_and_wait)
{
	const char *t = "/sys/kernel/tracing";
	struct asc_pipe *p;
	int id, i;

	if (access("/sys/kernel/tracing/trace", F_OK) &&
	    mount("nodev", t, "tracefs", 0, NULL))
		SKIP(return, "no tracefs");
	p = open_or_skip(_metadata);
	if (!p)
		return;
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
	ASSERT_LE(0, id);
	/* Mapped before the trace starts. */
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));

	ASSERT_EQ(0, write_file("/sys/kernel/tracing/trace", ""));
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/events/asc_event/asc_event_set/enable", "1"));
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/events/asc_event/asc_event_wait_end/enable", "1"));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
		ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));
	}
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/events/asc_event/asc_event_wait_end/enable", "0"));
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/events/asc_event/asc_event_set/enable", "0"));
	EXPECT_EQ(5, count_in_file("/sys/kernel/tracing/trace", "asc_event_set:"));
	EXPECT_EQ(5, count_in_file("/sys/kernel/tracing/trace", "asc_event_wait_end:"));
	asc_pipe_close(p);
}

TEST_HARNESS_MAIN
