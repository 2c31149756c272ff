// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pipe IDs: their names.
 *
 * The pipes are ASC_PIPE_* constants with gaps (pyasc's PipeID
 * numbering).  ASC_PIPES lists them once here; the name table and the set
 * of valid IDs are built from that list, and each constant is checked at
 * build time against the device's (<linux/asc_event.h>).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define ASC_PIPES(X)	X(S) X(V) X(M) X(MTE1) X(MTE2) X(MTE3) X(FIX)

#define ASC_DEVICES(p)	((int)ASC_PIPE_##p == (int)ASC_EVENT_PIPE_##p) &&
_Static_assert(ASC_PIPES(ASC_DEVICES) 1, "a pipe of ASC_PIPES is not the device's");
#undef ASC_DEVICES
_Static_assert((int)ASC_PIPE_NONE == (int)ASC_EVENT_PIPE_NONE, "ASC_PIPE_NONE is not the device's");

/*
 * One slot per value up to the largest pipe, indexed by the constant: an
 * ID outside the array does not compile, two names in one slot fail
 * -Woverride-init, and the gaps stay NULL.
 */
#define ASC_PIPE_SLOTS	(ASC_PIPE_FIX + 1)

#define ASC_PIPE_NAME(p)						\
	[ASC_PIPE_##p] = #p,
static const char *const asc_pipe_names[ASC_PIPE_SLOTS] = {
	ASC_PIPES(ASC_PIPE_NAME)
};
#undef ASC_PIPE_NAME

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
