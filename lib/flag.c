// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Flags: set and wait.
 *
 * The driver takes an absolute CLOCK_MONOTONIC deadline so that a wait
 * restarted after a signal (SA_RESTART, -ERESTARTSYS) keeps it; the
 * relative timeout of the API is converted here, once per call.  EINTR is
 * returned to the caller, never retried: retrying would defeat a signal
 * handler that installed itself without SA_RESTART on purpose.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "internal.h"

#define ASC_NSEC_PER_SEC	1000000000ULL

/*
 * A negative timeout waits forever and 0 is any deadline in the past; a
 * sum beyond the range of the clock is also forever.
 */
static int asc_deadline(int64_t timeout_ns, __u64 *deadline)
{
	struct timespec now;
	__u64 now_ns;

	if (timeout_ns < 0) {
		*deadline = ASC_EVENT_WAIT_FOREVER;
		return 0;
	}
	if (timeout_ns == 0) {
		*deadline = 0;
		return 0;
	}

	if (clock_gettime(CLOCK_MONOTONIC, &now) < 0)
		return -1;
	now_ns = (__u64)now.tv_sec * ASC_NSEC_PER_SEC + now.tv_nsec;
	if (__builtin_add_overflow(now_ns, (__u64)timeout_ns, deadline))
		*deadline = ASC_EVENT_WAIT_FOREVER;
	return 0;
}

ASC_API int asc_set_flag(struct asc_pipe *pipe, int event, int id)
{
	return asc_ref_ioctl(pipe, ASC_EVENT_IOC_SET_FLAG, event, id);
}

ASC_API int asc_wait_flag_timeout(struct asc_pipe *pipe, int event, int id,
				  int64_t timeout_ns)
{
	struct asc_event_wait wait;

	if (!asc_ref_valid(pipe, event, id))
		return asc_einval();

	memset(&wait, 0, sizeof(wait));
	if (asc_deadline(timeout_ns, &wait.deadline) < 0)
		return -1;
	wait.event = event;
	wait.id = id;
	if (ioctl(pipe->fd, ASC_EVENT_IOC_WAIT_FLAG, &wait) < 0)
		return -1;
	return 0;
}

ASC_API int asc_wait_flag(struct asc_pipe *pipe, int event, int id)
{
	return asc_wait_flag_timeout(pipe, event, id, -1);
}
