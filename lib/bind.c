// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pipe roles: the calling thread declares the hardware pipe it stands for.
 *
 * The binding belongs to the kernel task that makes the ioctl, so the
 * library passes the call straight through: it has no thread state of its
 * own to keep in step.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "internal.h"

ASC_API int asc_pipe_bind(struct asc_pipe *pipe, int pipe_id)
{
	struct asc_event_bind bind;

	if (!pipe || (pipe_id != ASC_PIPE_NONE && !asc_pipe_id_valid(pipe_id)))
		return asc_einval();

	memset(&bind, 0, sizeof(bind));
	bind.pipe = pipe_id;
	return ioctl(pipe->fd, ASC_EVENT_IOC_BIND_PIPE, &bind) < 0 ? -1 : 0;
}
