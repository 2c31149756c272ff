/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every asc_event selftest built on kselftest_harness.h includes, and
 * the only header it includes: the harness, the helpers of asc_test_*.h by
 * role (device, system, threads, uffd, util; compiled once, in
 * asc_test_*.c, and linked into every program) and the few pieces that
 * need the harness itself: the fixture every test uses, skipping from a
 * fixture setup, and assertions over the helpers (resets, workers, the
 * module's counters).  Those pieces are macros and short inline functions
 * that take the harness's @_metadata.
 *
 * A program of this directory that reports through kselftest.h instead
 * (the fuzzer, the soak test...) includes the asc_test_*.h headers it
 * needs, never this one: the harness defines functions of its own.
 *
 * ASSERT_*() and EXPECT_*() expand to two statements (the check, then a loop
 * that runs an optional TH_LOG()), so the body of every if/for that holds
 * one is braced.
 */
#ifndef ASC_EVENT_TEST_H
#define ASC_EVENT_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/asc_event.h>

#include "asc_test_device.h"
#include "asc_test_system.h"
#include "asc_test_threads.h"
#include "asc_test_uffd.h"
#include "asc_test_util.h"

/*
 * The harness of Linux 6.1 has an unused parameter, which -Wextra -Werror
 * would turn into an error in every program.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

/*
 * How a test process tells the harness "skipped" when it has to stop in a
 * fixture setup: kselftest_harness.h of Linux 6.1 takes exit status 255 (and
 * would run the test body after a plain SKIP(return) in a setup), the
 * harness of Linux 6.10 and later (which has XFAIL_ADD) takes KSFT_SKIP.
 */
#ifdef XFAIL_ADD
#define ASC_HARNESS_SKIP_STATUS	KSFT_SKIP
#else
#define ASC_HARNESS_SKIP_STATUS	255
#endif

/**
 * ASC_SKIP_SETUP() - skip the current test from its fixture setup.
 * @fmt: reason, printf-style, then its arguments.
 *
 * Records the reason and ends the test process, so the test body never runs.
 */
#define ASC_SKIP_SETUP(fmt, ...)					\
	SKIP(_exit(ASC_HARNESS_SKIP_STATUS), "%s: " fmt, _metadata->name, ##__VA_ARGS__)

/**
 * ASSERT_RESET() - reset @fd and assert what it reports.
 * @fd: open device.
 * @held: expected ids_held.
 * @pending: expected flags_pending.
 */
#define ASSERT_RESET(fd, held, pending) do {				\
	struct asc_event_reset __r;					\
									\
	ASSERT_EQ(0, asc_reset((fd), &__r));				\
	ASSERT_EQ((__u32)(held), __r.ids_held);				\
	ASSERT_EQ((__u32)(pending), __r.flags_pending);			\
} while (0)

/**
 * asc_opened_or_skip() - check a fixture's open of the device, or skip.
 * @_metadata: the harness's test metadata.
 * @fd: what the open returned, errno set when it is negative.
 *
 * Skips when the node is absent (no module loaded) or not accessible (not
 * root): asc_dev_absent(); fails on any other error.
 *
 * Return: @fd, an open file descriptor.
 */
static inline int asc_opened_or_skip(struct __test_metadata *_metadata, int fd)
{
	if (fd < 0 && asc_dev_absent(errno))
		ASC_SKIP_SETUP("%s: %s", asc_dev_path(), strerror(errno));
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", asc_dev_path(), strerror(errno));
	return fd;
}

/**
 * asc_open_or_skip() - open the device for a fixture, or skip the test.
 * @_metadata: the harness's test metadata.
 *
 * As asc_opened_or_skip() for asc_open().
 *
 * Return: an open file descriptor.
 */
static inline int asc_open_or_skip(struct __test_metadata *_metadata)
{
	return asc_opened_or_skip(_metadata, asc_open());
}

/**
 * asc_event_ids() - the geometry of an open device (IDs per HardEvent).
 * @_metadata: the harness's test metadata.
 * @fd: open device.
 *
 * Return: event_ids from %ASC_EVENT_IOC_INFO, checked to be 1..64.
 */
static inline int asc_event_ids(struct __test_metadata *_metadata, int fd)
{
	struct asc_event_info info = { 0 };

	ASSERT_EQ(0, asc_info(fd, &info));
	ASSERT_LE(1U, info.event_ids);
	ASSERT_GE((__u32)ASC_EVENT_IDS_MAX, info.event_ids);
	return (int)info.event_ids;
}

/**
 * ASC_FIXTURE() - the fixture every asc_event test uses.
 * @name: fixture name (the first part of each test's TAP name).
 *
 * self->fd is an open device, self->ids its event_ids.  A test that closes
 * self->fd sets it to -1.
 */
#define ASC_FIXTURE(name)						\
	FIXTURE(name) {							\
		int fd;							\
		int ids;						\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		self->fd = asc_open_or_skip(_metadata);			\
		self->ids = asc_event_ids(_metadata, self->fd);		\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		if (self->fd >= 0)					\
			close(self->fd);				\
	}

/**
 * asc_workers_start() - start @n workers on @fd, failing the test if one
 * cannot start.
 * @_metadata: the harness's test metadata.
 * @w: array of @n workers.
 * @n: how many.
 * @fd: device for their ops.
 */
static inline void asc_workers_start(struct __test_metadata *_metadata,
				     struct asc_worker *w, int n, int fd)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, asc_worker_start(&w[i], fd));
	}
}

/**
 * asc_stats_read() - read every counter.
 * @_metadata: the harness's test metadata; a missing counter fails the test.
 * @s: filled in.
 */
static inline void asc_stats_read(struct __test_metadata *_metadata, struct asc_stats *s)
{
	int bad = asc_stats_get(s);

	ASSERT_EQ(ASC_NR_STATS, bad) {
		TH_LOG("%s/%s: %s", ASC_STATS_DIR, asc_stat_name(bad),
		       strerror((int)-s->v[bad]));
	}
}

/**
 * asc_stats_check() - assert how much every counter moved.
 * @_metadata: the harness's test metadata.
 * @before: an earlier reading.
 * @delta: expected change of every counter (index enum asc_test_stat); the
 *	counters not named in a designated initializer must not move.
 * @what: what happened in between, for the log.
 *
 * Reads the counters again and fails the test, listing every counter that
 * moved differently, when any does.
 */
static inline void asc_stats_check(struct __test_metadata *_metadata,
				   const struct asc_stats *before,
				   const long long delta[ASC_NR_STATS], const char *what)
{
	struct asc_stats after;
	struct asc_text bad = { 0 };

	asc_stats_read(_metadata, &after);
	asc_stats_diff(before, &after, delta, &bad);
	ASSERT_EQ(0, (int)bad.len) TH_LOG("%s: counters:%s", what, asc_text_str(&bad));
}

/**
 * ASC_STATS_EXPECT() - assert the counters moved by exactly the deltas given.
 * @before: struct asc_stats read before.
 * @what: description for the log.
 * @...: designated initializers of the deltas, e.g. [ST_OPS] = 2.
 */
#define ASC_STATS_EXPECT(before, what, ...) do {			\
	const long long __delta[ASC_NR_STATS] = { __VA_ARGS__ };	\
									\
	asc_stats_check(_metadata, &(before), __delta, (what));	\
} while (0)

#endif /* ASC_EVENT_TEST_H */
