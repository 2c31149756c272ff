/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libasc internals: not installed, not part of the API.
 *
 * Every source file includes this header instead of <asc.h> directly.  It
 * is the one place the library sees the kernel's uAPI, <linux/asc_event.h>
 * (from uapi/ in this tree): the public header has constants of its own,
 * and hard_event.c checks at build time that they are the uAPI's.
 *
 * The library is built with -fvisibility=hidden: only definitions marked
 * ASC_API are exported, everything else stays inside libasc.so.
 */
#ifndef __LIBASC_INTERNAL_H__
#define __LIBASC_INTERNAL_H__

#include <errno.h>
#include <stdbool.h>
#include <linux/asc_event.h>

#include "asc.h"

/* Marks the definition of a public function: exported from libasc.so. */
#define ASC_API __attribute__((visibility("default")))

/* Fail with EINVAL; returns -1 so callers can "return asc_einval();". */
static inline int asc_einval(void)
{
	errno = EINVAL;
	return -1;
}

/* A HardEvent number the uAPI knows. */
static inline bool asc_event_valid(int event)
{
	return event >= 0 && event < ASC_HARD_EVENT_COUNT;
}

/*
 * One of the seven ASC_PIPE_* pipes a thread can bind to; not
 * ASC_PIPE_NONE, not the gaps of pyasc's PipeID numbering.  Defined in
 * pipe_id.c, next to the table of pipe names it reads.
 */
bool asc_pipe_id_valid(int pipe_id);

#endif /* __LIBASC_INTERNAL_H__ */
