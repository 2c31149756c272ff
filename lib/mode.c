// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Checked mode of a TPipe: one ioctl to read it, one to change it.
 *
 * ASC_EVENT_MODE_CHECKED is the only mode bit, so asc_pipe_set_checked()
 * writes the whole mode word with one SET_MODE and never reads it first: a
 * GET_MODE then SET_MODE pair would not be atomic, and would cost a second
 * ioctl for nothing.  A library that learns more mode bits must revisit
 * this.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "internal.h"

ASC_API int asc_pipe_set_checked(struct asc_pipe *pipe, int checked)
{
	struct asc_event_mode mode;

	if (!pipe)
		return asc_einval();

	memset(&mode, 0, sizeof(mode));
	mode.mode = checked ? ASC_EVENT_MODE_CHECKED : 0;
	return ioctl(pipe->fd, ASC_EVENT_IOC_SET_MODE, &mode) < 0 ? -1 : 0;
}

ASC_API int asc_pipe_checked(struct asc_pipe *pipe)
{
	struct asc_event_mode mode;

	if (!pipe)
		return asc_einval();

	memset(&mode, 0, sizeof(mode));
	if (ioctl(pipe->fd, ASC_EVENT_IOC_GET_MODE, &mode) < 0)
		return -1;
	return !!(mode.mode & ASC_EVENT_MODE_CHECKED);
}
