// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's module-wide counters: see asc_test_stats.h.
 */
#include "asc_test_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *asc_stat_name(int i)
{
	static const char *const names[ASC_NR_STATS] = {
		"tpipes_open", "tpipes_created", "ops", "err_invalid", "err_no_space",
		"err_not_allocated", "err_double_set", "err_busy_pipe", "err_wrong_pipe",
		"err_timeout", "err_canceled", "err_interrupted", "err_deadlock",
		"err_fault", "err_unknown_ioctl", "deadlocks", "leak_reports",
		"leaked_ids", "leaked_flags", "reports_suppressed",
	};

	return names[i];
}

long long asc_stat_read(const char *name)
{
	char path[128], buf[64], *end;
	long long v;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", ASC_STATS_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n < 2 || buf[n - 1] != '\n' || buf[0] < '0' || buf[0] > '9')
		return -EPROTO;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end != '\n')
		return -EPROTO;
	return v;
}

int asc_stats_get(struct asc_stats *s)
{
	int i, bad = ASC_NR_STATS;

	for (i = 0; i < ASC_NR_STATS; i++) {
		s->v[i] = asc_stat_read(asc_stat_name(i));
		if (s->v[i] < 0 && bad == ASC_NR_STATS)
			bad = i;
	}
	return bad;
}

int asc_stats_diff(const struct asc_stats *before, const struct asc_stats *after,
		   const long long delta[ASC_NR_STATS], struct asc_text *bad)
{
	int i, n = 0;

	for (i = 0; i < ASC_NR_STATS; i++) {
		if (after->v[i] - before->v[i] != delta[i]) {
			asc_text_printf(bad, " %s %+lld (expected %+lld);", asc_stat_name(i),
					after->v[i] - before->v[i], delta[i]);
			n++;
		}
	}
	return n;
}
