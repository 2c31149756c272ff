// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pipe IDs: their names, and the pipe that sets and the pipe that waits for
 * each HardEvent, generated from the table of <linux/asc_hard_event.h>.
 *
 * The uAPI defines the pipes as separate ASC_PIPE_* constants with gaps
 * (pyasc's PipeID numbering).  ASC_PIPES lists them once here; the name
 * table, the set of valid IDs and the compile-time checks of the HardEvent
 * table are all built from that list.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define ASC_PIPES(X)	X(S) X(V) X(M) X(MTE1) X(MTE2) X(MTE3) X(FIX)

/*
 * One slot per value up to the largest pipe, indexed by the constant: an
 * ID outside the array does not compile, two names in one slot fail
 * -Woverride-init, and the gaps stay NULL.
 */
#define ASC_PIPE_SLOTS	(ASC_PIPE_FIX + 1)

#define ASC_PIPE_NAME(p)	[ASC_PIPE_##p] = #p,
static const char *const asc_pipe_names[ASC_PIPE_SLOTS] = {
	ASC_PIPES(ASC_PIPE_NAME)
};
#undef ASC_PIPE_NAME

/* The same set as a bit mask, for _Static_assert. */
#define ASC_PIPE_BIT(p)		| (1U << ASC_PIPE_##p)
#define ASC_PIPE_MASK		(0U ASC_PIPES(ASC_PIPE_BIT))
#define ASC_PIPE_IS_PIPE(v)	((v) >= 0 && (v) < ASC_PIPE_SLOTS &&	\
				 ((ASC_PIPE_MASK >> (v)) & 1))

/*
 * Every SRC and DST of the HardEvent table is one of the pipes above, and
 * every HardEvent is named SRC_DST: a column that disagrees with the name
 * either names no enum constant or names another one.
 */
#define ASC_HARD_EVENT(name, value, src, dst)				\
	_Static_assert(ASC_PIPE_IS_PIPE(ASC_PIPE_##src),		\
		       "HardEvent " #name ": " #src " is not a pipe");	\
	_Static_assert(ASC_PIPE_IS_PIPE(ASC_PIPE_##dst),		\
		       "HardEvent " #name ": " #dst " is not a pipe");	\
	_Static_assert(ASC_HARD_EVENT_##name == ASC_HARD_EVENT_##src##_##dst, \
		       "HardEvent " #name " is not " #src "_" #dst);
#include <linux/asc_hard_event.h>
#undef ASC_HARD_EVENT

#define ASC_HARD_EVENT(name, value, src, dst)	[ASC_HARD_EVENT_##name] = ASC_PIPE_##src,
static const unsigned char asc_hard_event_src[ASC_HARD_EVENT_COUNT] = {
#include <linux/asc_hard_event.h>
};
#undef ASC_HARD_EVENT

#define ASC_HARD_EVENT(name, value, src, dst)	[ASC_HARD_EVENT_##name] = ASC_PIPE_##dst,
static const unsigned char asc_hard_event_dst[ASC_HARD_EVENT_COUNT] = {
#include <linux/asc_hard_event.h>
};
#undef ASC_HARD_EVENT

bool asc_pipe_id_valid(int pipe_id)
{
	return pipe_id >= 0 && pipe_id < ASC_PIPE_SLOTS &&
	       asc_pipe_names[pipe_id];
}

ASC_API const char *asc_pipe_id_name(int pipe_id)
{
	if (!asc_pipe_id_valid(pipe_id)) {
		errno = EINVAL;
		return NULL;
	}
	return asc_pipe_names[pipe_id];
}

ASC_API int asc_pipe_id_from_name(const char *name)
{
	int pipe_id;

	if (!name)
		return asc_einval();

	for (pipe_id = 0; pipe_id < ASC_PIPE_SLOTS; pipe_id++) {
		if (asc_pipe_names[pipe_id] &&
		    !strcmp(name, asc_pipe_names[pipe_id]))
			return pipe_id;
	}
	return asc_einval();
}

ASC_API int asc_hard_event_src_pipe(int event)
{
	if (!asc_event_valid(event))
		return asc_einval();
	return asc_hard_event_src[event];
}

ASC_API int asc_hard_event_dst_pipe(int event)
{
	if (!asc_event_valid(event))
		return asc_einval();
	return asc_hard_event_dst[event];
}
