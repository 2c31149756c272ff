// SPDX-License-Identifier: GPL-2.0
/*
 * The device under test and its ioctls: see asc_test_dev.h.
 */
#include "asc_test_dev.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>

const char *asc_dev_path(void)
{
	const char *path = getenv("ASC_EVENT_DEV");

	return path && *path ? path : ASC_DEV_PATH;
}

bool asc_dev_absent(int err)
{
	return err == ENOENT || err == ENODEV || err == ENXIO ||
	       err == EACCES || err == EPERM;
}

int asc_open(void)
{
	return open(asc_dev_path(), O_RDWR | O_CLOEXEC);
}

int asc_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	return ret < 0 ? -errno : ret;
}

int asc_info(int fd, struct asc_event_info *info)
{
	return asc_ioctl(fd, ASC_EVENT_IOC_INFO, info);
}

int asc_alloc(int fd, int event)
{
	struct asc_event_ref ref = { .event = event };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_ALLOC_ID, &ref);

	return ret ? ret : (int)ref.id;
}

int asc_fetch(int fd, int event)
{
	struct asc_event_ref ref = { .event = event };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_FETCH_ID, &ref);

	return ret ? ret : (int)ref.id;
}

int asc_release(int fd, int event, int id)
{
	struct asc_event_ref ref = { .event = event, .id = id };

	return asc_ioctl(fd, ASC_EVENT_IOC_RELEASE_ID, &ref);
}

int asc_set(int fd, int event, int id)
{
	struct asc_event_ref ref = { .event = event, .id = id };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_FLAG, &ref);
}

int asc_wait(int fd, int event, int id, __u64 deadline)
{
	struct asc_event_wait wait = {
		.deadline = deadline,
		.event = event,
		.id = id,
	};

	return asc_ioctl(fd, ASC_EVENT_IOC_WAIT_FLAG, &wait);
}

int asc_reset(int fd, struct asc_event_reset *out)
{
	struct asc_event_reset reset = { 0 };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_RESET, &reset);

	if (out)
		*out = reset;
	return ret;
}

int asc_set_unchecked(int fd)
{
	struct asc_event_mode mode = { .mode = 0, .pad = 0 };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_MODE, &mode);
}

int asc_bind_flags(int fd, int pipe, __u32 flags)
{
	struct asc_event_bind bind = { .pipe = pipe, .flags = flags };

	return asc_ioctl(fd, ASC_EVENT_IOC_BIND_PIPE, &bind);
}

int asc_bind(int fd, int pipe)
{
	return asc_bind_flags(fd, pipe, 0);
}

int asc_get_mode(int fd)
{
	struct asc_event_mode mode = { .mode = 0xdeadbeef, .pad = 0xdeadbeef };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_GET_MODE, &mode);

	if (ret)
		return ret;
	if (mode.pad)
		return -EPROTO;
	return (int)(mode.mode & INT_MAX);
}

int asc_set_mode_pad(int fd, __u32 mode, __u32 pad)
{
	struct asc_event_mode m = { .mode = mode, .pad = pad };

	return asc_ioctl(fd, ASC_EVENT_IOC_SET_MODE, &m);
}

int asc_set_mode(int fd, __u32 mode)
{
	return asc_set_mode_pad(fd, mode, 0);
}

long long asc_issue(int fd, __u32 op, int event, int id)
{
	struct asc_event_issue is = { .op = op, .event = event, .id = id };
	int ret = asc_ioctl(fd, ASC_EVENT_IOC_ISSUE, &is);

	return ret ? ret : (long long)is.ticket;
}

int asc_execute(int fd, long long ticket, __u64 deadline)
{
	struct asc_event_execute ex = { .ticket = (__u64)ticket, .deadline = deadline };

	return asc_ioctl(fd, ASC_EVENT_IOC_EXECUTE, &ex);
}
