// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libasc's mapped fast path on the device, in the test guest
 * (tools/testing/asc-check-guest).  Needs /dev/asc_event; skips without it.
 *
 * - The path taken: with the fast path on, the uncontended set+wait pairs
 *   of a bound thread and of an unbound one are no ioctl and count in
 *   fast_ops; with $ASC_NO_FASTPATH=1 each is two ioctls (the test reads
 *   the variable and expects the one or the other).
 * - Nothing weakens: a hand-written ID still fails with ENOENT in strict
 *   mode and still makes an alloc of it fail with EADDRINUSE otherwise, a
 *   wrong pipe still gets EPERM, a double set EBUSY, a fork()ed child is
 *   not taken for its parent's bound thread; for an unbound thread too,
 *   and an unbound set of a pipe another live thread is bound to still
 *   gets EPERM, a thread bound with a raw ioctl is not taken for an
 *   unbound one, a fetched ID superseded or forgotten by a reset is
 *   hand-written again.
 * - While a tracepoint is enabled every set and wait goes through the
 *   driver: the trace has each of them; so do allocs and releases.
 * - Allocs and releases are in userspace too, in the pool of the flag
 *   page, except the driver's errors (ENOSPC, ENOENT, EINVAL) and, in
 *   checked mode, an alloc of an ID hand-written code uses, by a set flag
 *   or an issued instruction (EADDRINUSE).
 * - A TPipe of ASC_EVENT_MAP_IDS_MAX (32) IDs takes the fast path too.
 * - An ID out of range is still the driver's EINVAL, in unchecked mode too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/asc_event.h>

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

/* The fast path's counts before and after some calls. */
struct counts {
	unsigned long long ops, fast;
};

static struct counts counts_now(void)
{
	struct counts c = { stat_read("ops"), stat_read("fast_ops") };

	return c;
}

/*
 * Since @c: @fast calls done in userspace and @slow ioctls, or with the fast
 * path off, all of them ioctls.
 */
static void expect_since(struct __test_metadata *_metadata, struct counts c,
			 unsigned long long fast, unsigned long long slow)
{
	struct counts now = counts_now();

	if (fastpath_off()) {
		EXPECT_EQ(c.ops + fast + slow, now.ops);
		EXPECT_EQ(c.fast, now.fast);
	} else {
		EXPECT_EQ(c.ops + slow, now.ops);
		EXPECT_EQ(c.fast + fast, now.fast);
	}
}

/* The default user's pairs: a thread that binds nothing, checked mode. */
TEST(unbound_pairs_take_the_path_chosen)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	struct counts c;
	int id, i;

	if (!p)
		return;
	ASSERT_EQ(1, asc_pipe_checked(p));
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_MTE2_V);
	ASSERT_LE(0, id);
	c = counts_now();
	for (i = 0; i < PAIRS; i++) {
		ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_MTE2_V, id));
		ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_MTE2_V, id));
	}
	expect_since(_metadata, c, 2 * PAIRS, 0);
	ASSERT_EQ(0, asc_release_event_id(p, id, ASC_HARD_EVENT_MTE2_V));
	asc_pipe_close(p);
}

/*
 * A thread that binds itself to @pipe (through libasc, or with a raw ioctl
 * on @fd when it is >= 0), then runs what binder_do() hands it, one call
 * at a time, until binder_stop().
 */
struct binder {
	struct asc_pipe *p;
	int pipe;
	int fd;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int (*fn)(struct binder *b);
	unsigned int posted, done;
	bool started, quit;
	int ret, err;
};

static void *binder_main(void *arg)
{
	struct binder *b = arg;
	struct asc_event_bind bind = { .pipe = b->pipe };
	int (*fn)(struct binder *b);
	int ret, err;

	if (b->fd >= 0)
		ret = ioctl(b->fd, ASC_EVENT_IOC_BIND_PIPE, &bind);
	else
		ret = asc_pipe_bind(b->p, b->pipe);
	err = errno;
	pthread_mutex_lock(&b->lock);
	b->ret = ret;
	b->err = err;
	b->started = true;
	pthread_cond_broadcast(&b->cond);
	for (;;) {
		while (b->done == b->posted && !b->quit)
			pthread_cond_wait(&b->cond, &b->lock);
		if (b->done == b->posted)
			break;
		fn = b->fn;
		pthread_mutex_unlock(&b->lock);
		ret = fn(b);
		err = errno;
		pthread_mutex_lock(&b->lock);
		b->ret = ret;
		b->err = err;
		b->done++;
		pthread_cond_broadcast(&b->cond);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

/* Run @fn in the binder's thread: its return value, its errno in @b->err. */
static int binder_do(struct binder *b, int (*fn)(struct binder *b))
{
	int ret;

	pthread_mutex_lock(&b->lock);
	b->fn = fn;
	b->posted++;
	pthread_cond_broadcast(&b->cond);
	while (b->done != b->posted)
		pthread_cond_wait(&b->cond, &b->lock);
	ret = b->ret;
	pthread_mutex_unlock(&b->lock);
	return ret;
}

/* Start the binder's thread: the result of its bind. */
static int binder_start(struct binder *b, pthread_t *t)
{
	int ret;

	b->posted = b->done = 0;
	b->started = b->quit = false;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	if (pthread_create(t, NULL, binder_main, b))
		return -1;
	pthread_mutex_lock(&b->lock);
	while (!b->started)
		pthread_cond_wait(&b->cond, &b->lock);
	ret = b->ret;
	pthread_mutex_unlock(&b->lock);
	return ret;
}

/* End the binder's thread; it exits bound unless it unbound itself. */
static void binder_stop(struct binder *b, pthread_t t)
{
	pthread_mutex_lock(&b->lock);
	b->quit = true;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
	pthread_join(t, NULL);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->cond);
}

static int set_v_v0(struct binder *b)
{
	return asc_set_flag(b->p, ASC_HARD_EVENT_V_V, 0);
}

static int unbind(struct binder *b)
{
	return asc_pipe_bind(b->p, ASC_PIPE_NONE);
}

static int set_mte2_v0(struct binder *b)
{
	return asc_set_flag(b->p, ASC_HARD_EVENT_MTE2_V, 0);
}

static int wait_v_mte2_0(struct binder *b)
{
	return asc_wait_flag_timeout(b->p, ASC_HARD_EVENT_V_MTE2, 0, 0);
}

/*
 * While another live thread stands for V, an unbound thread's set of V_V
 * is the driver's EPERM; its wait is its own, in userspace.  Once V is
 * free the set is done in userspace too; once V's thread has exited bound,
 * the driver allows the set, which libasc leaves to it.
 */
TEST(unbound_set_of_an_owned_pipe_is_the_drivers)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	struct binder b = { .pipe = ASC_PIPE_V, .fd = -1 };
	struct counts c;
	pthread_t t;

	if (!p)
		return;
	b.p = p;
	ASSERT_EQ(0, asc_alloc_event_id(p, ASC_HARD_EVENT_V_V));
	ASSERT_EQ(0, binder_start(&b, &t));
	c = counts_now();
	ASSERT_EQ(-1, asc_set_flag(p, ASC_HARD_EVENT_V_V, 0));
	ASSERT_EQ(EPERM, errno);
	expect_since(_metadata, c, 0, 1);
	ASSERT_EQ(0, binder_do(&b, set_v_v0));
	c = counts_now();
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, 0));
	expect_since(_metadata, c, 1, 0);

	ASSERT_EQ(0, binder_do(&b, unbind));
	c = counts_now();
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, 0));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, 0));
	expect_since(_metadata, c, 2, 0);

	/* Bound again, then gone without unbinding. */
	binder_stop(&b, t);
	ASSERT_EQ(0, binder_start(&b, &t));
	binder_stop(&b, t);
	c = counts_now();
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, 0));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, 0));
	expect_since(_metadata, c, 1, 1);
	asc_pipe_close(p);
}

/* The file descriptor of the one open of the device this process has. */
static int device_fd(void)
{
	const char *path = getenv("ASC_EVENT_DEV");
	struct stat dev, st;
	struct dirent *d;
	int fd, found = -1;
	DIR *dir;

	if (stat(path && *path ? path : "/dev/asc_event", &dev) < 0)
		return -1;
	dir = opendir("/proc/self/fd");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		fd = atoi(d->d_name);
		if (d->d_name[0] != '.' && !fstat(fd, &st) && S_ISCHR(st.st_mode) &&
		    st.st_rdev == dev.st_rdev)
			found = fd;
	}
	closedir(dir);
	return found;
}

/*
 * A thread bound to V with a raw ioctl, which libasc did not see: its set
 * of MTE2_V and its wait for V_MTE2 are still the driver's EPERM, though
 * no thread stands for MTE2.
 */
TEST(a_thread_bound_by_a_raw_ioctl_is_not_unbound)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	struct binder b = { .pipe = ASC_EVENT_PIPE_V };
	pthread_t t;

	if (!p)
		return;
	b.p = p;
	b.fd = device_fd();
	ASSERT_LE(0, b.fd);
	ASSERT_EQ(0, asc_alloc_event_id(p, ASC_HARD_EVENT_MTE2_V));
	ASSERT_EQ(0, asc_alloc_event_id(p, ASC_HARD_EVENT_V_MTE2));
	ASSERT_EQ(0, asc_alloc_event_id(p, ASC_HARD_EVENT_V_V));
	ASSERT_EQ(0, binder_start(&b, &t));
	ASSERT_EQ(-1, binder_do(&b, set_mte2_v0));
	ASSERT_EQ(EPERM, b.err);
	ASSERT_EQ(-1, binder_do(&b, wait_v_mte2_0));
	ASSERT_EQ(EPERM, b.err);
	ASSERT_EQ(0, binder_do(&b, set_v_v0));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, 0));
	/* The test's own thread is unbound: MTE2 is free for it. */
	ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_MTE2_V, 0));
	ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_MTE2_V, 0));
	binder_stop(&b, t);
	asc_pipe_close(p);
}

/*
 * Strict IDs for an unbound thread: a hand-written ID, a fetched ID that a
 * later fetch superseded and an ID that a reset released or forgot are
 * the driver's ENOENT, for sets and waits.
 */
TEST(unbound_strict_ids_keep_their_errors)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int e = ASC_HARD_EVENT_MTE2_V;

	if (!p)
		return;
	ASSERT_EQ(0, asc_pipe_set_mode(p, ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS));
	ASSERT_EQ(-1, asc_set_flag(p, e, 1));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, asc_wait_flag_timeout(p, e, 1, 0));
	ASSERT_EQ(ENOENT, errno);

	ASSERT_EQ(0, asc_fetch_event_id(p, e));
	ASSERT_EQ(0, asc_set_flag(p, e, 0));
	ASSERT_EQ(0, asc_wait_flag(p, e, 0));
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
	ASSERT_EQ(1, asc_fetch_event_id(p, e));
	ASSERT_EQ(0, asc_release_event_id(p, 0, e));
	/* 0: released, and no longer the last one fetched. */
	ASSERT_EQ(-1, asc_set_flag(p, e, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, asc_wait_flag_timeout(p, e, 0, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(0, asc_set_flag(p, e, 1));
	ASSERT_EQ(0, asc_wait_flag(p, e, 1));

	/* A reset forgets the fetch and releases the allocation. */
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
	ASSERT_EQ(0, asc_pipe_reset(p));
	ASSERT_EQ(-1, asc_set_flag(p, e, 1));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, asc_set_flag(p, e, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, asc_wait_flag_timeout(p, e, 0, 0));
	ASSERT_EQ(ENOENT, errno);
	asc_pipe_close(p);
}

/* Not strict: an unbound hand-written set is the driver's, for EADDRINUSE. */
TEST(unbound_hand_written_set_is_seen_by_the_alloc)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int e = ASC_HARD_EVENT_MTE2_V;

	if (!p)
		return;
	ASSERT_EQ(0, asc_set_flag(p, e, 0));
	ASSERT_EQ(-1, asc_alloc_event_id(p, e));
	ASSERT_EQ(EADDRINUSE, errno);
	ASSERT_EQ(-1, asc_fetch_event_id(p, e));
	ASSERT_EQ(EADDRINUSE, errno);
	ASSERT_EQ(0, asc_wait_flag(p, e, 0));
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
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

/* tracefs at /sys/kernel/tracing, mounted there if it is not yet. */
static bool tracefs_ready(void)
{
	return !access("/sys/kernel/tracing/trace", F_OK) ||
	       !mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
}

TEST(a_trace_sees_every_set_and_wait)
{
	struct asc_pipe *p;
	int id, i;

	if (!tracefs_ready())
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
	/* An unbound thread's too. */
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_NONE));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
		ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));
	}
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/events/asc_event/asc_event_wait_end/enable", "0"));
	ASSERT_EQ(0, write_file("/sys/kernel/tracing/events/asc_event/asc_event_set/enable", "0"));
	EXPECT_EQ(10, count_in_file("/sys/kernel/tracing/trace", "asc_event_set:"));
	EXPECT_EQ(10, count_in_file("/sys/kernel/tracing/trace", "asc_event_wait_end:"));
	asc_pipe_close(p);
}

/*
 * A TPipe of ASC_EVENT_MAP_IDS_MAX IDs per HardEvent, as many as a flag
 * word maps: the fast path is on for it, its last ID included.
 */
TEST(a_word_of_ids_takes_the_path_chosen)
{
	const char *param = "/sys/module/asc_event/parameters/event_ids";
	char old[16] = { 0 }, ids[16];
	int pfd, n, len, i, id = ASC_EVENT_MAP_IDS_MAX - 1;
	struct asc_pipe *p;
	struct counts c;

	pfd = open(param, O_RDWR);
	if (pfd < 0)
		SKIP(return, "%s: %s", param, strerror(errno));
	n = read(pfd, old, sizeof(old) - 1);
	ASSERT_LT(0, n);
	len = snprintf(ids, sizeof(ids), "%d", ASC_EVENT_MAP_IDS_MAX);
	ASSERT_EQ(len, pwrite(pfd, ids, len, 0));
	p = asc_pipe_open(NULL);
	ASSERT_EQ(n, pwrite(pfd, old, n, 0));
	close(pfd);
	ASSERT_TRUE(p != NULL);
	ASSERT_EQ(ASC_EVENT_MAP_IDS_MAX, asc_event_ids(p));
	ASSERT_EQ(0, asc_pipe_bind(p, ASC_PIPE_V));
	for (i = 0; i <= id; i++)
		ASSERT_EQ(i, asc_alloc_event_id(p, ASC_HARD_EVENT_V_V));
	c = counts_now();
	for (i = 0; i < PAIRS; i++) {
		ASSERT_EQ(0, asc_set_flag(p, ASC_HARD_EVENT_V_V, id));
		ASSERT_EQ(0, asc_wait_flag(p, ASC_HARD_EVENT_V_V, id));
	}
	expect_since(_metadata, c, 2 * PAIRS, 0);
	asc_pipe_close(p);
}

/*
 * An ID at or past the TPipe's count, or negative, is the driver's EINVAL
 * on a mapped pipe too, in unchecked mode (where the fast path asks
 * nothing of the ID but its range) as in checked mode; so is one whose
 * bit would be a waiter bit (32..63) or beyond the flag word.
 */
TEST(ids_out_of_range_are_the_drivers)
{
	static const int fixed[] = { -1, -32, 31, 32, 33, 63, 64, 1 << 30 };
	const int nfixed = sizeof(fixed) / sizeof(fixed[0]);
	struct asc_pipe *p = open_or_skip(_metadata);
	int e = ASC_HARD_EVENT_V_V, n, mode, i, id;
	struct counts c;

	if (!p)
		return;
	n = asc_event_ids(p);
	ASSERT_LT(0, n);
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
	/* Mapped, and the pair of a valid ID in userspace. */
	ASSERT_EQ(0, asc_set_flag(p, e, 0));
	ASSERT_EQ(0, asc_wait_flag(p, e, 0));
	for (mode = 0; mode <= ASC_MODE_CHECKED; mode += ASC_MODE_CHECKED) {
		ASSERT_EQ(0, asc_pipe_set_mode(p, mode));
		c = counts_now();
		ASSERT_EQ(0, asc_set_flag(p, e, 0));
		ASSERT_EQ(0, asc_wait_flag(p, e, 0));
		expect_since(_metadata, c, 2, 0);
		/* The fixed IDs, then the count and the count + 1. */
		for (i = 0; i < nfixed + 2; i++) {
			id = i < nfixed ? fixed[i] : n + i - nfixed;
			if (id >= 0 && id < n)
				continue;
			ASSERT_EQ(-1, asc_set_flag(p, e, id)) TH_LOG("mode %d id %d", mode, id);
			ASSERT_EQ(EINVAL, errno);
			ASSERT_EQ(-1, asc_wait_flag_timeout(p, e, id, 0))
				TH_LOG("mode %d id %d", mode, id);
			ASSERT_EQ(EINVAL, errno);
		}
	}
	asc_pipe_close(p);
}

/*
 * The default user's alloc+release pairs: in userspace once the pages are
 * mapped (the first alloc maps them), in checked mode and unchecked, with
 * $ASC_NO_FASTPATH=1 two ioctls each.
 */
TEST(alloc_release_pairs_take_the_path_chosen)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int e = ASC_HARD_EVENT_MTE2_V, mode, id, i;
	struct counts c;

	if (!p)
		return;
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
	ASSERT_EQ(0, asc_release_event_id(p, 0, e));
	for (mode = ASC_MODE_CHECKED; mode >= 0; mode -= ASC_MODE_CHECKED) {
		ASSERT_EQ(0, asc_pipe_set_mode(p, mode));
		c = counts_now();
		for (i = 0; i < PAIRS; i++) {
			id = asc_alloc_event_id(p, e);
			ASSERT_EQ(0, id);
			ASSERT_EQ(0, asc_release_event_id(p, id, e));
		}
		expect_since(_metadata, c, 2 * PAIRS, 0);
	}
	asc_pipe_close(p);
}

/* ENOSPC, ENOENT and EINVAL of allocs and releases stay the driver's. */
TEST(alloc_and_release_keep_their_errors)
{
	struct asc_pipe *p = open_or_skip(_metadata);
	int e = ASC_HARD_EVENT_V_MTE3, n, i;
	struct counts c;

	if (!p)
		return;
	n = asc_event_ids(p);
	for (i = 0; i < n; i++)
		ASSERT_EQ(i, asc_alloc_event_id(p, e));
	c = counts_now();
	ASSERT_EQ(-1, asc_alloc_event_id(p, e));
	ASSERT_EQ(ENOSPC, errno);
	expect_since(_metadata, c, 0, 1);
	ASSERT_EQ(0, asc_release_event_id(p, n - 1, e));
	c = counts_now();
	ASSERT_EQ(-1, asc_release_event_id(p, n - 1, e));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, asc_release_event_id(p, n, e));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, asc_release_event_id(p, 63, e));
	ASSERT_EQ(EINVAL, errno);
	expect_since(_metadata, c, 0, 3);
	ASSERT_EQ(-1, asc_release_event_id(p, -1, e));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, asc_alloc_event_id(p, ASC_HARD_EVENT_COUNT));
	ASSERT_EQ(EINVAL, errno);
	asc_pipe_close(p);
}

/*
 * Checked mode without strict IDs: an alloc that would hand out an ID
 * hand-written code uses is the driver's EADDRINUSE, whether the use is
 * a set flag or a set issued to the pipe (ASC_EVENT_IOC_ISSUE, not yet
 * run); once anything was issued, every alloc asks the driver.
 */
TEST(an_alloc_leaves_a_hand_written_use_to_the_driver)
{
	struct asc_event_issue issue = {
		.op = ASC_EVENT_OP_SET, .event = ASC_EVENT_MTE2_V, .id = 0,
	};
	struct asc_pipe *p = open_or_skip(_metadata);
	int e = ASC_HARD_EVENT_MTE2_V, fd;
	struct counts c;

	if (!p)
		return;
	fd = device_fd();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
	ASSERT_EQ(0, asc_release_event_id(p, 0, e));
	ASSERT_EQ(0, asc_set_flag(p, e, 0));
	ASSERT_EQ(-1, asc_alloc_event_id(p, e));
	ASSERT_EQ(EADDRINUSE, errno);
	ASSERT_EQ(0, asc_wait_flag(p, e, 0));

	ASSERT_EQ(0, ioctl(fd, ASC_EVENT_IOC_ISSUE, &issue));
	c = counts_now();
	ASSERT_EQ(-1, asc_alloc_event_id(p, e));
	ASSERT_EQ(EADDRINUSE, errno);
	ASSERT_EQ(0, asc_pipe_reset(p));
	ASSERT_EQ(0, asc_alloc_event_id(p, e));
	ASSERT_EQ(0, asc_release_event_id(p, 0, e));
	expect_since(_metadata, c, 1, 3);
	asc_pipe_close(p);
}

TEST(a_trace_sees_every_alloc_and_release)
{
	static const char ev[] = "/sys/kernel/tracing/events/asc_event/";
	char path[128];
	struct asc_pipe *p;
	int id, i;

	if (!tracefs_ready())
		SKIP(return, "no tracefs");
	p = open_or_skip(_metadata);
	if (!p)
		return;
	/* Mapped before the trace starts. */
	id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
	ASSERT_LE(0, id);
	ASSERT_EQ(0, asc_release_event_id(p, id, ASC_HARD_EVENT_V_V));

	ASSERT_EQ(0, write_file("/sys/kernel/tracing/trace", ""));
	snprintf(path, sizeof(path), "%sasc_event_alloc/enable", ev);
	ASSERT_EQ(0, write_file(path, "1"));
	snprintf(path, sizeof(path), "%sasc_event_release/enable", ev);
	ASSERT_EQ(0, write_file(path, "1"));
	for (i = 0; i < 5; i++) {
		id = asc_alloc_event_id(p, ASC_HARD_EVENT_V_V);
		ASSERT_LE(0, id);
		ASSERT_EQ(0, asc_release_event_id(p, id, ASC_HARD_EVENT_V_V));
	}
	ASSERT_EQ(0, write_file(path, "0"));
	snprintf(path, sizeof(path), "%sasc_event_alloc/enable", ev);
	ASSERT_EQ(0, write_file(path, "0"));
	EXPECT_EQ(5, count_in_file("/sys/kernel/tracing/trace", "asc_event_alloc:"));
	EXPECT_EQ(5, count_in_file("/sys/kernel/tracing/trace", "asc_event_release:"));
	asc_pipe_close(p);
}

TEST_HARNESS_MAIN
