// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log, read from /dev/kmsg: see asc_test_kmsg.h.
 */
#include "asc_test_kmsg.h"
#include "asc_test_time.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
