/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event module-wide counters, read in sysfs under
 * /sys/class/misc/asc_event/stats/.
 */
#ifndef _ASC_EVENT_STATS_H
#define _ASC_EVENT_STATS_H

#include <linux/percpu.h>
#include <linux/sysfs.h>

/*
 * One counter per file of the stats directory, in the order of the
 * directory listing of the documentation.  Counters only grow, except
 * %ASC_STAT_TPIPES_OPEN and %ASC_STAT_LAUNCHES_OPEN; none is reset while
 * the module is loaded.
 */
enum asc_stat {
	ASC_STAT_TPIPES_OPEN,
	ASC_STAT_TPIPES_CREATED,
	ASC_STAT_OPS,
	ASC_STAT_ERR_INVALID,
	ASC_STAT_ERR_NO_SPACE,
	ASC_STAT_ERR_NOT_ALLOCATED,
	ASC_STAT_ERR_DOUBLE_SET,
	ASC_STAT_ERR_BUSY_PIPE,
	ASC_STAT_ERR_WRONG_PIPE,
	ASC_STAT_ERR_TIMEOUT,
	ASC_STAT_ERR_CANCELED,
	ASC_STAT_ERR_INTERRUPTED,
	ASC_STAT_ERR_DEADLOCK,
	ASC_STAT_ERR_FAULT,
	ASC_STAT_ERR_UNKNOWN_IOCTL,
	ASC_STAT_DEADLOCKS,
	ASC_STAT_LEAK_REPORTS,
	ASC_STAT_LEAKED_IDS,
	ASC_STAT_LEAKED_FLAGS,
	ASC_STAT_REPORTS_SUPPRESSED,
	ASC_STAT_ID_COLLISIONS,
	ASC_STAT_LAUNCHES_OPEN,
	ASC_STAT_LAUNCHES_CREATED,
	ASC_STAT_ERR_CORE_GONE,
	ASC_STAT_ERR_OVERFLOW,
	ASC_STAT_FAST_OPS,
	ASC_STAT_COUNT
};

/**
 * struct asc_stats_cpu - the counters' share of one CPU.
 * @v: per enum asc_stat, what this CPU added; a *_OPEN share may be
 *	negative (a TPipe opened on one CPU and closed on another).
 *
 * Lifetime: one per possible CPU, for as long as the module is loaded.
 * Locking: none; each CPU adds to its own share with this_cpu_add(), and
 * a reader sums every CPU's share, so no ioctl writes a cache line that
 * another CPU's ioctls write.  A sum read while CPUs add is as of some
 * moment during the read, as an atomic counter read would be.
 */
struct asc_stats_cpu {
	long v[ASC_STAT_COUNT];
};

DECLARE_PER_CPU(struct asc_stats_cpu, asc_stats);
extern const struct attribute_group asc_stats_group;

/**
 * asc_stat_add() - add to a counter.
 * @stat: the counter.
 * @n: how much; negative for the *_OPEN counters only.
 */
static inline void asc_stat_add(enum asc_stat stat, long n)
{
	this_cpu_add(asc_stats.v[stat], n);
}

long asc_stat_read(enum asc_stat stat);

void asc_stats_account_ioctl(unsigned int cmd, long ret);

#endif /* _ASC_EVENT_STATS_H */
