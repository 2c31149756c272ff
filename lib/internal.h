/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libasc internals: not installed, not part of the API.
 *
 * Every source file includes this header instead of <asc.h> directly.  The
 * library is built with -fvisibility=hidden: only definitions marked
 * ASC_API are exported, everything else stays inside libasc.so.
 */
#ifndef __LIBASC_INTERNAL_H__
#define __LIBASC_INTERNAL_H__

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include "asc.h"

/* Marks the definition of a public function: exported from libasc.so. */
#define ASC_API __attribute__((visibility("default")))

/* The device opened by asc_pipe_open(NULL) when $ASC_EVENT_DEV is unset. */
#define ASC_PIPE_DEFAULT_PATH	"/dev/asc_event"

/*
 * struct asc_pipe - one open of the device.
 * @fd: the file descriptor: the TPipe lives in the driver, tied to it.
 * @event_ids: IDs per HardEvent, as reported by ASC_EVENT_IOC_INFO.
 * @features: ASC_EVENT_FEATURE_* bits reported by ASC_EVENT_IOC_INFO.
 *
 * Written once by asc_pipe_open() and never changed until
 * asc_pipe_close() frees it, so any number of threads may read it without
 * locking; all mutable state is in the driver.
 */
struct asc_pipe {
	int fd;
	unsigned int event_ids;
	uint64_t features;
};

/* Fail with EINVAL; returns -1 so callers can "return asc_einval();". */
static inline int asc_einval(void)
{
	errno = EINVAL;
	return -1;
}

/*
 * One of the seven ASC_PIPE_* pipes a thread can bind to; not
 * ASC_PIPE_NONE, not the gaps of pyasc's PipeID numbering.  Defined in
 * pipe_id.c, next to the table of pipe names it reads.
 */
bool asc_pipe_id_valid(int pipe_id);

/* A HardEvent number the uAPI knows. */
static inline bool asc_event_valid(int event)
{
	return event >= 0 && event < ASC_HARD_EVENT_COUNT;
}

/*
 * Arguments the library rejects itself.  An ID at or above event_ids is
 * left for the driver to refuse: it is the authority on its own geometry.
 */
static inline bool asc_ref_valid(const struct asc_pipe *pipe, int event,
				 int id)
{
	return pipe && asc_event_valid(event) && id >= 0;
}

/*
 * One ioctl on (event, id) with a struct asc_event_ref: release and set.
 * Returns 0, or -1 with errno set.
 */
static inline int asc_ref_ioctl(struct asc_pipe *pipe, unsigned long cmd,
				int event, int id)
{
	struct asc_event_ref ref;

	if (!asc_ref_valid(pipe, event, id))
		return asc_einval();

	memset(&ref, 0, sizeof(ref));
	ref.event = event;
	ref.id = id;
	return ioctl(pipe->fd, cmd, &ref) < 0 ? -1 : 0;
}

#endif /* __LIBASC_INTERNAL_H__ */
