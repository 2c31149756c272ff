// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * asc_core_cancel() on the device, in the test guest
 * (tools/testing/asc-check-guest).  Needs /dev/asc_event with launches; skips
 * without it.
 *
 * - A scalar blocked in wait_flag on S (its V still busy) is cancelled
 *   from another thread: the wait and the run end with EINTR, promptly,
 *   with a report saying so.
 * - In a launch, a core blocked in a cross-core wait or in SyncAll is
 *   cancelled: its wait ends with EINTR, the other core's next call fails
 *   with ECANCELED, the launch returns EINTR naming the cancelled core.
 * - The device runs a launch right after; NULL is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"
#include "need-device.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/*
 * What a canceller and the kernel share.  @lock is held by the canceller
 * around asc_core_cancel() and taken by the blocked kernel before it
 * returns, as asc_core_cancel() asks.
 */
struct cancel {
	pthread_mutex_t lock;
	struct asc_core *victim;	/* set by the kernel before it blocks */
	int blocked_core;		/* the launch core that blocks */
	int sync_all;			/* block in SyncAll, not a cross-core wait */
	int release;			/* the busy V work item may end */
	int wait_err;			/* errno of the blocked wait */
	int other_err;			/* errno of the other core's failed call */
};

static void cancel_init(struct cancel *cc)
{
	memset(cc, 0, sizeof(*cc));
	pthread_mutex_init(&cc->lock, NULL);
}

/* Cancel the victim once it is there and has had time to block. */
static void *canceller(void *arg)
{
	struct cancel *cc = arg;
	struct asc_core *victim;

	for (;;) {
		victim = __atomic_load_n(&cc->victim, __ATOMIC_ACQUIRE);
		if (victim)
			break;
		sleep_ms(10);
	}
	sleep_ms(300);
	pthread_mutex_lock(&cc->lock);
	asc_core_cancel(victim);
	pthread_mutex_unlock(&cc->lock);
	__atomic_store_n(&cc->release, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* V is busy until released (at most 10 s): the set S waits for is late. */
static void busy_work(void *arg)
{
	struct cancel *cc = arg;
	int i;

	for (i = 0; i < 1000 && !__atomic_load_n(&cc->release, __ATOMIC_ACQUIRE); i++)
		sleep_ms(10);
}

static void single_kernel(struct asc_core *core, void *arg)
{
	struct cancel *cc = arg;

	if (asc_core_issue(core, ASC_PIPE_V, busy_work, cc, "busy", NULL, 0) ||
	    asc_core_set_flag(core, ASC_HARD_EVENT_V_S, 0))
		return;
	__atomic_store_n(&cc->victim, core, __ATOMIC_RELEASE);
	if (asc_core_wait_flag(core, ASC_HARD_EVENT_V_S, 0))
		cc->wait_err = errno;
	pthread_mutex_lock(&cc->lock);
	pthread_mutex_unlock(&cc->lock);
}

TEST(cancel_a_wait_on_s)
{
	struct cancel cc;
	char *report = NULL;
	pthread_t t;
	double t0;
	int ret;

	need_device(_metadata);
	cancel_init(&cc);
	ASSERT_EQ(0, pthread_create(&t, NULL, canceller, &cc));
	t0 = now_s();
	errno = 0;
	ret = asc_core_run(single_kernel, &cc, NULL, &report);
	ASSERT_EQ(-1, ret);
	EXPECT_EQ(EINTR, errno);
	pthread_join(t, NULL);
	EXPECT_EQ(EINTR, cc.wait_err);
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "asc_core_cancel(): the run was cancelled"));
	EXPECT_LT(now_s() - t0, 3.0);
	free(report);
}

/* Core cc->blocked_core blocks; the other calls until its calls fail. */
static void launch_kernel(struct asc_core *core, void *arg)
{
	struct cancel *cc = arg;
	int i, ret;

	if (asc_core_block_idx(core) == cc->blocked_core) {
		__atomic_store_n(&cc->victim, core, __ATOMIC_RELEASE);
		if (cc->sync_all)
			ret = asc_core_sync_all(core);
		else
			ret = asc_core_cross_wait_flag(core, 0, ASC_PIPE_S);
		if (ret)
			cc->wait_err = errno;
		pthread_mutex_lock(&cc->lock);
		pthread_mutex_unlock(&cc->lock);
		return;
	}
	for (i = 0; i < 1000; i++) {
		if (asc_core_pipe_barrier(core, ASC_PIPE_ALL)) {
			cc->other_err = errno;
			return;
		}
		sleep_ms(10);
	}
}

static void nothing_kernel(struct asc_core *core, void *arg)
{
	(void)arg;
	asc_core_sync_all(core);
}

static void check_launch_cancel(struct __test_metadata *_metadata, int sync_all)
{
	struct cancel cc;
	char *report = NULL;
	pthread_t t;
	double t0;
	int ret;

	need_device(_metadata);
	cancel_init(&cc);
	cc.blocked_core = 1;
	cc.sync_all = sync_all;
	ASSERT_EQ(0, pthread_create(&t, NULL, canceller, &cc));
	t0 = now_s();
	errno = 0;
	ret = asc_launch_run(launch_kernel, &cc, ASC_LAUNCH_AIV, 2, NULL, &report);
	ASSERT_EQ(-1, ret);
	EXPECT_EQ(EINTR, errno);
	pthread_join(t, NULL);
	EXPECT_EQ(EINTR, cc.wait_err);
	EXPECT_EQ(ECANCELED, cc.other_err);
	ASSERT_NE(NULL, report);
	EXPECT_NE(NULL, strstr(report, "core 1 (AIV 1)"));
	EXPECT_NE(NULL, strstr(report, "the run was cancelled"));
	EXPECT_LT(now_s() - t0, 3.0);
	free(report);
	/* The device is usable right after. */
	EXPECT_EQ(0, asc_launch_run(nothing_kernel, NULL, ASC_LAUNCH_AIV, 8, NULL, NULL));
}

TEST(cancel_a_cross_core_wait)
{
	check_launch_cancel(_metadata, 0);
}

TEST(cancel_sync_all)
{
	check_launch_cancel(_metadata, 1);
}

TEST(cancel_null)
{
	errno = 0;
	EXPECT_EQ(-1, asc_core_cancel(NULL));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
