// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event IDs: alloc, fetch and release, one ioctl each.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "internal.h"

/* ALLOC_ID and FETCH_ID differ only in whether the driver occupies the ID. */
static int asc_event_id_query(struct asc_pipe *pipe, int event,
			      unsigned long request)
{
	struct asc_event_ref ref;

	if (!pipe || !asc_event_valid(event))
		return asc_einval();

	memset(&ref, 0, sizeof(ref));
	ref.event = event;
	if (ioctl(pipe->fd, request, &ref) < 0)
		return -1;
	return ref.id;
}

ASC_API int asc_alloc_event_id(struct asc_pipe *pipe, int event)
{
	return asc_event_id_query(pipe, event, ASC_EVENT_IOC_ALLOC_ID);
}

ASC_API int asc_fetch_event_id(struct asc_pipe *pipe, int event)
{
	return asc_event_id_query(pipe, event, ASC_EVENT_IOC_FETCH_ID);
}

ASC_API int asc_release_event_id(struct asc_pipe *pipe, int id, int event)
{
	return asc_ref_ioctl(pipe, ASC_EVENT_IOC_RELEASE_ID, event, id);
}
