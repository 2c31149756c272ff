// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's debugfs files: see asc_test_debugfs.h.
 */
#include "asc_test_debugfs.h"
#include "asc_test_dev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>

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
