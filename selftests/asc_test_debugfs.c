// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's debugfs files: see asc_test_debugfs.h.
 */
#include "asc_test_debugfs.h"
#include "asc_test_dev.h"

#include <dirent.h>
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

int asc_serials(unsigned char *set, int max)
{
	DIR *d = opendir(ASC_DEBUGFS_DIR);
	struct dirent *de;
	int n, high = 0;

	if (!d)
		return -errno;
	memset(set, 0, (size_t)(max + 7) / 8);
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "tpipe-%d", &n) != 1 || n <= 0)
			continue;
		if (n > high)
			high = n;
		if (n < max)
			set[n / 8] |= (unsigned char)(1u << (n % 8));
	}
	closedir(d);
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

char *asc_debugfs_path(char *buf, size_t size, int serial)
{
	snprintf(buf, size, "%s/tpipe-%d", ASC_DEBUGFS_DIR, serial);
	return buf;
}
