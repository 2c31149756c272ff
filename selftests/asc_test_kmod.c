// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading the module under test: see asc_test_kmod.h.
 */
#include "asc_test_kmod.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

bool module_loaded(void)
{
	return access(MODULE_SYSFS, F_OK) == 0;
}

int module_unload(void)
{
	return syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK) ? -errno : 0;
}

int module_load(const char *params)
{
	const char *ko = getenv("ASC_EVENT_KO");
	int fd, ret;

	if (!ko || !*ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}
