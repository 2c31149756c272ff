/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's module-wide counters, one file each in
 * /sys/class/misc/asc_event/stats: reading them and comparing two readings.
 * The harness's checks built on these are asc_stats_read(),
 * asc_stats_check() and ASC_STATS_EXPECT() in asc_event_pipes.h.
 */
#ifndef ASC_TEST_STATS_H
#define ASC_TEST_STATS_H

#include "asc_test_text.h"

/** ASC_STATS_DIR - the counters' directory. */
#define ASC_STATS_DIR	"/sys/class/misc/asc_event/stats"

/* The counters, in the order of asc_stat_name(). */
enum asc_stat {
	ST_TPIPES_OPEN,
	ST_TPIPES_CREATED,
	ST_OPS,
	ST_ERR_INVALID,
	ST_ERR_NO_SPACE,
	ST_ERR_NOT_ALLOCATED,
	ST_ERR_DOUBLE_SET,
	ST_ERR_BUSY_PIPE,
	ST_ERR_WRONG_PIPE,
	ST_ERR_TIMEOUT,
	ST_ERR_CANCELED,
	ST_ERR_INTERRUPTED,
	ST_ERR_DEADLOCK,
	ST_ERR_FAULT,
	ST_ERR_UNKNOWN_IOCTL,
	ST_DEADLOCKS,
	ST_LEAK_REPORTS,
	ST_LEAKED_IDS,
	ST_LEAKED_FLAGS,
	ST_REPORTS_SUPPRESSED,
	ASC_NR_STATS
};

/**
 * struct asc_stats - one reading of every counter.
 * @v: the values; -errno for a counter that could not be read.
 */
struct asc_stats {
	long long v[ASC_NR_STATS];
};

/**
 * asc_stat_name() - file name of a counter.
 * @i: enum asc_stat.
 *
 * Return: the name.
 */
const char *asc_stat_name(int i);

/**
 * asc_stat_read() - read one counter.
 * @name: its file name.
 *
 * Return: the value, -errno when the file cannot be read, -EPROTO when it
 * is not a decimal number and a newline.
 */
long long asc_stat_read(const char *name);

/**
 * asc_stats_get() - read every counter.
 * @s: filled in.
 *
 * Return: %ASC_NR_STATS when every counter was read, else the enum
 * asc_stat of the first one that could not be (its value is -errno).
 */
int asc_stats_get(struct asc_stats *s);

/**
 * asc_stats_diff() - list the counters that did not move as expected.
 * @before: an earlier reading.
 * @after: a later reading.
 * @delta: expected change of every counter (index enum asc_stat).
 * @bad: appended: " NAME +MOVED (expected +DELTA);" per counter that moved
 *	differently.
 *
 * Return: how many counters moved differently.
 */
int asc_stats_diff(const struct asc_stats *before, const struct asc_stats *after,
		   const long long delta[ASC_NR_STATS], struct asc_text *bad);

#endif /* ASC_TEST_STATS_H */
