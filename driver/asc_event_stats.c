// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event module-wide counters: every ioctl's result by kind, TPipes,
 * deadlocks and leaks, as read-only decimal files in the "stats" group of
 * the misc device (/sys/class/misc/asc_event/stats/).  The counters are
 * per CPU and summed when a file is read: every ioctl adds to one, and a
 * single shared word would be a cache line all CPUs' ioctls fight for.
 */

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/asc_event.h>

#include "asc_event_debugfs.h"
#include "asc_event_stats.h"

DEFINE_PER_CPU(struct asc_stats_cpu, asc_stats);

/**
 * asc_stat_read() - the value of a counter: every CPU's share summed.
 * @stat: the counter.
 *
 * Return: the sum.
 */
long asc_stat_read(enum asc_stat stat)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(asc_stats, cpu).v[stat]);
	return sum;
}

/**
 * asc_stats_account_ioctl() - count one ioctl and its result.
 * @cmd: the ioctl command.
 * @ret: what the handler returned: 0 or a negative errno.
 */
void asc_stats_account_ioctl(unsigned int cmd, long ret)
{
	enum asc_stat stat;

	asc_stat_add(ASC_STAT_OPS, 1);
	switch (ret) {
	case 0:
		return;
	case -EINVAL:
		stat = ASC_STAT_ERR_INVALID;
		break;
	case -ENOSPC:
		stat = ASC_STAT_ERR_NO_SPACE;
		break;
	case -ENOENT:
		stat = ASC_STAT_ERR_NOT_ALLOCATED;
		break;
	case -EBUSY:
		stat = cmd == ASC_EVENT_IOC_SET_FLAG ? ASC_STAT_ERR_DOUBLE_SET :
						       ASC_STAT_ERR_BUSY_PIPE;
		break;
	case -EPERM:
		stat = ASC_STAT_ERR_WRONG_PIPE;
		break;
	case -ETIMEDOUT:
		stat = ASC_STAT_ERR_TIMEOUT;
		break;
	case -ECANCELED:
		stat = ASC_STAT_ERR_CANCELED;
		break;
	case -EINTR:
	case -ERESTARTSYS:
		stat = ASC_STAT_ERR_INTERRUPTED;
		break;
	case -EDEADLK:
		stat = ASC_STAT_ERR_DEADLOCK;
		break;
	case -EFAULT:
		stat = ASC_STAT_ERR_FAULT;
		break;
	case -ENOTTY:
		stat = ASC_STAT_ERR_UNKNOWN_IOCTL;
		break;
	case -EPIPE:
		stat = ASC_STAT_ERR_CORE_GONE;
		break;
	case -EOVERFLOW:
		stat = ASC_STAT_ERR_OVERFLOW;
		break;
	default:
		return;
	}
	asc_stat_add(stat, 1);
}

/**
 * struct asc_stat_attribute - one counter file.
 * @attr: the sysfs attribute.
 * @stat: the counter it shows.
 */
struct asc_stat_attribute {
	struct device_attribute attr;
	enum asc_stat stat;
};

static ssize_t asc_stat_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct asc_stat_attribute *sa =
		container_of(attr, struct asc_stat_attribute, attr);

	return sysfs_emit(buf, "%ld\n", asc_stat_read(sa->stat));
}

#define ASC_STAT_ATTR(_name, _stat)					\
	static struct asc_stat_attribute asc_stat_attr_##_name = {	\
		.attr = __ATTR(_name, 0444, asc_stat_show, NULL),	\
		.stat = _stat,						\
	}

ASC_STAT_ATTR(tpipes_open, ASC_STAT_TPIPES_OPEN);
ASC_STAT_ATTR(tpipes_created, ASC_STAT_TPIPES_CREATED);
ASC_STAT_ATTR(ops, ASC_STAT_OPS);
ASC_STAT_ATTR(err_invalid, ASC_STAT_ERR_INVALID);
ASC_STAT_ATTR(err_no_space, ASC_STAT_ERR_NO_SPACE);
ASC_STAT_ATTR(err_not_allocated, ASC_STAT_ERR_NOT_ALLOCATED);
ASC_STAT_ATTR(err_double_set, ASC_STAT_ERR_DOUBLE_SET);
ASC_STAT_ATTR(err_busy_pipe, ASC_STAT_ERR_BUSY_PIPE);
ASC_STAT_ATTR(err_wrong_pipe, ASC_STAT_ERR_WRONG_PIPE);
ASC_STAT_ATTR(err_timeout, ASC_STAT_ERR_TIMEOUT);
ASC_STAT_ATTR(err_canceled, ASC_STAT_ERR_CANCELED);
ASC_STAT_ATTR(err_interrupted, ASC_STAT_ERR_INTERRUPTED);
ASC_STAT_ATTR(err_deadlock, ASC_STAT_ERR_DEADLOCK);
ASC_STAT_ATTR(err_fault, ASC_STAT_ERR_FAULT);
ASC_STAT_ATTR(err_unknown_ioctl, ASC_STAT_ERR_UNKNOWN_IOCTL);
ASC_STAT_ATTR(deadlocks, ASC_STAT_DEADLOCKS);
ASC_STAT_ATTR(leak_reports, ASC_STAT_LEAK_REPORTS);
ASC_STAT_ATTR(leaked_ids, ASC_STAT_LEAKED_IDS);
ASC_STAT_ATTR(leaked_flags, ASC_STAT_LEAKED_FLAGS);
ASC_STAT_ATTR(reports_suppressed, ASC_STAT_REPORTS_SUPPRESSED);
ASC_STAT_ATTR(id_collisions, ASC_STAT_ID_COLLISIONS);
ASC_STAT_ATTR(launches_open, ASC_STAT_LAUNCHES_OPEN);
ASC_STAT_ATTR(launches_created, ASC_STAT_LAUNCHES_CREATED);
ASC_STAT_ATTR(err_core_gone, ASC_STAT_ERR_CORE_GONE);
ASC_STAT_ATTR(err_overflow, ASC_STAT_ERR_OVERFLOW);

/*
 * fast_ops: the sets and waits done in userspace on mapped flags, which no
 * ioctl counts: what the flag pages of the open TPipes say, plus what the
 * closed ones said when they were closed (ASC_STAT_FAST_OPS).  Each count
 * is written by its process, so it is as true as that process.
 */
static ssize_t fast_ops_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	u64 sum = asc_stat_read(ASC_STAT_FAST_OPS) + asc_debugfs_fast_ops();

	return sysfs_emit(buf, "%llu\n", (unsigned long long)sum);
}

static DEVICE_ATTR_RO(fast_ops);

static struct attribute *asc_stats_attrs[] = {
	&asc_stat_attr_tpipes_open.attr.attr,
	&asc_stat_attr_tpipes_created.attr.attr,
	&asc_stat_attr_ops.attr.attr,
	&asc_stat_attr_err_invalid.attr.attr,
	&asc_stat_attr_err_no_space.attr.attr,
	&asc_stat_attr_err_not_allocated.attr.attr,
	&asc_stat_attr_err_double_set.attr.attr,
	&asc_stat_attr_err_busy_pipe.attr.attr,
	&asc_stat_attr_err_wrong_pipe.attr.attr,
	&asc_stat_attr_err_timeout.attr.attr,
	&asc_stat_attr_err_canceled.attr.attr,
	&asc_stat_attr_err_interrupted.attr.attr,
	&asc_stat_attr_err_deadlock.attr.attr,
	&asc_stat_attr_err_fault.attr.attr,
	&asc_stat_attr_err_unknown_ioctl.attr.attr,
	&asc_stat_attr_deadlocks.attr.attr,
	&asc_stat_attr_leak_reports.attr.attr,
	&asc_stat_attr_leaked_ids.attr.attr,
	&asc_stat_attr_leaked_flags.attr.attr,
	&asc_stat_attr_reports_suppressed.attr.attr,
	&asc_stat_attr_id_collisions.attr.attr,
	&asc_stat_attr_launches_open.attr.attr,
	&asc_stat_attr_launches_created.attr.attr,
	&asc_stat_attr_err_core_gone.attr.attr,
	&asc_stat_attr_err_overflow.attr.attr,
	&dev_attr_fast_ops.attr,
	NULL
};

const struct attribute_group asc_stats_group = {
	.name = "stats",
	.attrs = asc_stats_attrs,
};
