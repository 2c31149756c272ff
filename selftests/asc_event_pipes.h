/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selftests of pipe roles, checked mode, deadlock detection,
 * reports, issued instructions and observability include:
 * asc_event_test.h, the helpers for
 * HardEvents and pipes, worker threads, text, the module-wide counters,
 * the kernel log and debugfs (asc_test_*.h), and the assertions over them
 * that need the harness: starting workers, reading and checking the
 * counters.
 */
#ifndef ASC_EVENT_PIPES_H
#define ASC_EVENT_PIPES_H

#include "asc_event_test.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/vfs.h>

#include "asc_test_debugfs.h"
#include "asc_test_events.h"
#include "asc_test_kmsg.h"
#include "asc_test_stats.h"
#include "asc_test_text.h"
#include "asc_test_worker.h"

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
 * @delta: expected change of every counter (index enum asc_stat); the
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

#endif /* ASC_EVENT_PIPES_H */
