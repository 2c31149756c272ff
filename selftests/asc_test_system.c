// SPDX-License-Identifier: GPL-2.0
/*
 * What the system shows of the driver: see asc_test_system.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "asc_test_system.h"
#include "asc_test_device.h"
#include "asc_test_util.h"

/*
 * The kernel log, read from /dev/kmsg: see asc_test_system.h.
 */
void asc_kmsg_decode(const char *rec, struct asc_text *out, unsigned long long *usec)
{
	const char *p = strchr(rec, ';'), *c;
	unsigned int x;

	if (usec) {
		c = strchr(rec, ',');
		c = c ? strchr(c + 1, ',') : NULL;
		*usec = c ? strtoull(c + 1, NULL, 10) : 0;
	}
	if (!p)
		return;
	for (p++; *p && *p != '\n'; p++) {
		if (p[0] == '\\' && p[1] == 'x' && sscanf(p + 2, "%2x", &x) == 1) {
			char ch = (char)x;

			asc_text_add(out, &ch, 1);
			p += 3;
			continue;
		}
		asc_text_add(out, p, 1);
	}
	asc_text_add(out, "\n", 1);
}

int asc_kmsg_open(struct asc_kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		close(k->fd);
		k->fd = -1;
		return -errno;
	}
	return 0;
}

int asc_kmsg_read(struct asc_kmsg *k, struct asc_text *out, const char *prefix)
{
	struct asc_text all = { 0 };
	char rec[8192];
	const char *p;
	size_t n = strlen(prefix);
	ssize_t len;
	int lines = 0;

	asc_text_free(out);
	asc_text_add(out, "", 0);
	for (;;) {
		len = read(k->fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on with the next */
		if (len <= 0)
			break;
		rec[len] = '\0';
		asc_kmsg_decode(rec, &all, NULL);
	}
	for (p = asc_text_str(&all); *p; ) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (!strncmp(p, prefix, n)) {
			asc_text_add(out, p, l);
			lines++;
		}
		p += l;
	}
	asc_text_free(&all);
	return lines;
}

void asc_kmsg_close(struct asc_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

void asc_kmsg_settle(const char *prefix, int needed)
{
	unsigned long long ts, now = 0, last = 0, *times = NULL;
	size_t ntimes = 0, cap = 0, i, plen = strlen(prefix);
	struct asc_text msg = { 0 };
	char rec[8192], marker[64];
	int fd, recent = 0;
	ssize_t len;

	snprintf(marker, sizeof(marker), "asc_event_selftest: settle %d\n", getpid());
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = write(fd, marker, strlen(marker));
	close(fd);
	if (len < 0)
		return;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		asc_text_free(&msg);
		asc_kmsg_decode(rec, &msg, &ts);
		if (!strncmp(asc_text_str(&msg), prefix, plen)) {
			if (ntimes == cap) {
				cap = cap ? cap * 2 : 256;
				times = realloc(times, cap * sizeof(*times));
				if (!times)
					abort();
			}
			times[ntimes++] = ts;
		} else if (!strncmp(asc_text_str(&msg), marker, strlen(marker) - 1)) {
			now = ts;
		}
	}
	close(fd);
	asc_text_free(&msg);
	for (i = 0; i < ntimes && now; i++) {
		if (times[i] <= now && now - times[i] < ASC_RATELIMIT_MS * 1000ULL) {
			recent++;
			if (times[i] > last)
				last = times[i];
		}
	}
	free(times);
	if (recent + needed > ASC_RATELIMIT_BURST)
		asc_sleep_ms((unsigned int)((last + ASC_RATELIMIT_MS * 1000ULL - now) / 1000));
}

/*
 * The driver's debugfs files: see asc_test_system.h.
 */
bool asc_fs_is(const char *path, long magic)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && (long)sfs.f_type == magic;
}

bool asc_debugfs_mounted(void)
{
	if (asc_fs_is("/sys/kernel/debug", DEBUGFS_MAGIC))
		return true;
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	return asc_fs_is("/sys/kernel/debug", DEBUGFS_MAGIC);
}

/* The next line of @p that begins "tpipe: ", or NULL. */
static const char *next_tpipe(const char *p)
{
	while (p && *p && strncmp(p, "tpipe: ", 7)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return p && *p ? p : NULL;
}

int asc_serials(unsigned char *set, int max)
{
	struct asc_text t = { 0 };
	const char *p;
	int n, high = 0, ret;

	ret = asc_read_file(ASC_DEBUGFS_FILE, &t);
	if (ret) {
		asc_text_free(&t);
		return ret;
	}
	memset(set, 0, (size_t)(max + 7) / 8);
	for (p = next_tpipe(asc_text_str(&t)); p; p = next_tpipe(p + 1)) {
		if (sscanf(p, "tpipe: %d", &n) != 1 || n <= 0)
			continue;
		if (n > high)
			high = n;
		if (n < max)
			set[n / 8] |= (unsigned char)(1u << (n % 8));
	}
	asc_text_free(&t);
	return high;
}

int asc_open_serial(int *serial)
{
	static unsigned char before[ASC_MAX_SERIAL / 8], after[ASC_MAX_SERIAL / 8];
	int fd, n, found = -1, hb, ha;

	*serial = -1;
	hb = asc_serials(before, ASC_MAX_SERIAL);
	fd = asc_open();
	if (fd < 0 || hb < 0)
		return fd;
	ha = asc_serials(after, ASC_MAX_SERIAL);
	for (n = 1; n <= ha && n < ASC_MAX_SERIAL; n++) {
		bool b = before[n / 8] & (1u << (n % 8)), a = after[n / 8] & (1u << (n % 8));

		if (a && !b) {
			if (found > 0) {
				found = -1;
				break;
			}
			found = n;
		}
	}
	*serial = found;
	return fd;
}

int asc_debugfs_tpipe(int serial, struct asc_text *out)
{
	struct asc_text t = { 0 };
	const char *p, *end;
	int n, ret;

	ret = asc_read_file(ASC_DEBUGFS_FILE, &t);
	if (ret) {
		asc_text_free(&t);
		return ret;
	}
	for (p = next_tpipe(asc_text_str(&t)); p; p = next_tpipe(p + 1)) {
		if (sscanf(p, "tpipe: %d", &n) == 1 && n == serial)
			break;
	}
	ret = -ENOENT;
	if (p) {
		end = strstr(p, "\n\n");
		end = end ? end + 1 : p + strlen(p);
		asc_text_free(out);
		asc_text_add(out, p, (size_t)(end - p));
		ret = 0;
	}
	asc_text_free(&t);
	return ret;
}

/*
 * The driver's module-wide counters: see asc_test_system.h.
 */
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

long long asc_test_stat_read(const char *name)
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
		s->v[i] = asc_test_stat_read(asc_stat_name(i));
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
