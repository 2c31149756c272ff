// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_pipe: opening, checking, resetting and closing the device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

static const char *asc_pipe_default_path(void)
{
	const char *path = secure_getenv("ASC_EVENT_DEV");

	return path && *path ? path : ASC_PIPE_DEFAULT_PATH;
}

/*
 * Refuse a device this library was not written for.  Features are
 * additive, so unknown feature bits are accepted.
 */
static int asc_pipe_check_info(const struct asc_event_info *info)
{
	if (info->abi_version != ASC_EVENT_ABI_VERSION ||
	    info->nr_events != ASC_HARD_EVENT_COUNT ||
	    info->event_ids < 1 || info->event_ids > ASC_EVENT_IDS_MAX) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

ASC_API struct asc_pipe *asc_pipe_open(const char *path)
{
	struct asc_event_info info;
	struct asc_pipe *pipe;
	int err;

	if (!path)
		path = asc_pipe_default_path();

	pipe = malloc(sizeof(*pipe));
	if (!pipe)
		return NULL;

	pipe->fd = open(path, O_RDWR | O_CLOEXEC);
	if (pipe->fd < 0)
		goto err_free;

	memset(&info, 0, sizeof(info));
	if (ioctl(pipe->fd, ASC_EVENT_IOC_INFO, &info) < 0)
		goto err_close;
	if (asc_pipe_check_info(&info) < 0)
		goto err_close;

	pipe->event_ids = info.event_ids;
	pipe->features = info.features;
	return pipe;

err_close:
	err = errno;
	close(pipe->fd);
	errno = err;
err_free:
	err = errno;
	free(pipe);
	errno = err;
	return NULL;
}

ASC_API void asc_pipe_close(struct asc_pipe *pipe)
{
	int err = errno;

	if (!pipe)
		return;

	close(pipe->fd);
	free(pipe);
	errno = err;
}

ASC_API int asc_pipe_reset_leftovers(struct asc_pipe *pipe,
				     unsigned int *ids_held,
				     unsigned int *flags_pending)
{
	struct asc_event_reset reset;

	if (!pipe)
		return asc_einval();

	memset(&reset, 0, sizeof(reset));
	if (ioctl(pipe->fd, ASC_EVENT_IOC_RESET, &reset) < 0)
		return -1;
	if (ids_held)
		*ids_held = reset.ids_held;
	if (flags_pending)
		*flags_pending = reset.flags_pending;
	return 0;
}

ASC_API int asc_pipe_reset(struct asc_pipe *pipe)
{
	return asc_pipe_reset_leftovers(pipe, NULL, NULL);
}

ASC_API int asc_event_ids(struct asc_pipe *pipe)
{
	if (!pipe)
		return asc_einval();

	return pipe->event_ids;
}
