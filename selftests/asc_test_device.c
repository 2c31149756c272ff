// SPDX-License-Identifier: GPL-2.0
/*
 * The device under test: see asc_test_device.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "asc_test_device.h"

/*
 * The device under test and its ioctls: see asc_test_device.h.
 */
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

/*
 * Loading and unloading the module under test: see asc_test_device.h.
 */
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

/*
 * The HardEvents and pipes: see asc_test_device.h.
 */
/* Each entry of ASC_HARD_EVENTS in its place, and none missing. */
enum { ASC_EVENTS_LIST_BASE = __COUNTER__ + 1 };
#define ASC_EVENTS_CHECK(s, d)						\
	_Static_assert(ASC_EVENT_##s##_##d == __COUNTER__ - ASC_EVENTS_LIST_BASE, \
		       "HardEvent " #s "_" #d " is out of place");	\
	_Static_assert(ASC_EVENT_PIPE_##s >= 0 && ASC_EVENT_PIPE_##d >= 0, \
		       "HardEvent " #s "_" #d ": not pipes");
ASC_HARD_EVENTS(ASC_EVENTS_CHECK)
#undef ASC_EVENTS_CHECK

#define ASC_EVENTS_ONE(s, d)	+ 1
_Static_assert((0 ASC_HARD_EVENTS(ASC_EVENTS_ONE)) == ASC_EVENT_NR_HARD_EVENTS,
	       "the list misses HardEvents");
#undef ASC_EVENTS_ONE

const char *asc_event_name(int event)
{
#define ASC_EVENTS_NAME(s, d)	#s "_" #d,
	static const char *const names[] = { ASC_HARD_EVENTS(ASC_EVENTS_NAME) };
#undef ASC_EVENTS_NAME

	return event >= 0 && event < (int)ASC_EVENT_NR_HARD_EVENTS ? names[event] : "?";
}

int asc_event_src(int event)
{
#define ASC_EVENTS_SRC(s, d)	ASC_EVENT_PIPE_##s,
	static const signed char src[] = { ASC_HARD_EVENTS(ASC_EVENTS_SRC) };
#undef ASC_EVENTS_SRC

	return src[event];
}

int asc_event_dst(int event)
{
#define ASC_EVENTS_DST(s, d)	ASC_EVENT_PIPE_##d,
	static const signed char dst[] = { ASC_HARD_EVENTS(ASC_EVENTS_DST) };
#undef ASC_EVENTS_DST

	return dst[event];
}

int asc_pipe_at(int i)
{
	static const int pipes[ASC_NR_PIPES] = {
		ASC_EVENT_PIPE_S, ASC_EVENT_PIPE_V, ASC_EVENT_PIPE_M, ASC_EVENT_PIPE_MTE1,
		ASC_EVENT_PIPE_MTE2, ASC_EVENT_PIPE_MTE3, ASC_EVENT_PIPE_FIX,
	};

	return pipes[i];
}

const char *asc_pipe_name(int pipe)
{
	switch (pipe) {
	case ASC_EVENT_PIPE_S: return "S";
	case ASC_EVENT_PIPE_V: return "V";
	case ASC_EVENT_PIPE_M: return "M";
	case ASC_EVENT_PIPE_MTE1: return "MTE1";
	case ASC_EVENT_PIPE_MTE2: return "MTE2";
	case ASC_EVENT_PIPE_MTE3: return "MTE3";
	case ASC_EVENT_PIPE_FIX: return "FIX";
	case ASC_EVENT_PIPE_NONE: return "-";
	}
	return "?";
}
