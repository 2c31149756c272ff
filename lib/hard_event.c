// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * HardEvents: their names and the pipes each connects.
 *
 * ASC_HARD_EVENTS lists every HardEvent once, as X(SRC, DST), in number
 * order; the names and the pipe columns are made from those two tokens.
 * At build time every entry is checked against both enums that number the
 * HardEvents, libasc's own (asc.h) and the kernel's uAPI
 * (<linux/asc_event.h>, the one source of the numbering): the list, the
 * public constants and the device cannot disagree.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define ASC_HARD_EVENTS(X)						\
	X(MTE2, MTE1) X(MTE1, MTE2) X(MTE1, M) X(M, MTE1) X(MTE2, V)	\
	X(V, MTE2) X(MTE3, V) X(V, MTE3) X(M, V) X(V, M) X(V, V)	\
	X(MTE3, MTE1) X(MTE1, MTE3) X(MTE1, V) X(MTE2, M) X(M, MTE2)	\
	X(V, MTE1) X(M, FIX) X(FIX, M) X(MTE3, MTE2) X(MTE2, MTE3) X(S, V)	\
	X(V, S) X(S, MTE2) X(MTE2, S) X(S, MTE3) X(MTE3, S) X(MTE2, FIX)	\
	X(FIX, MTE2) X(FIX, S) X(M, S) X(FIX, MTE3) X(MTE1, FIX)	\
	X(FIX, MTE1) X(FIX, FIX)

/*
 * Entry n is HardEvent n in both enums (__COUNTER__ counts the entries),
 * and there is one entry per HardEvent.
 */
enum { ASC_LIST_BASE = __COUNTER__ + 1 };
#define ASC_IN_PLACE(s, d)						\
	(ASC_HARD_EVENT_##s##_##d == __COUNTER__ - ASC_LIST_BASE) &&
_Static_assert(ASC_HARD_EVENTS(ASC_IN_PLACE) 1,
	       "a HardEvent of ASC_HARD_EVENTS is out of place");
#undef ASC_IN_PLACE
#define ASC_DEVICES(s, d)						\
	((int)ASC_HARD_EVENT_##s##_##d == (int)ASC_EVENT_##s##_##d) &&
_Static_assert(ASC_HARD_EVENTS(ASC_DEVICES) 1,
	       "a HardEvent of ASC_HARD_EVENTS is not the device's");
#undef ASC_DEVICES

#define ASC_ONE(s, d)	+ 1
_Static_assert((0 ASC_HARD_EVENTS(ASC_ONE)) == ASC_HARD_EVENT_COUNT,
	       "the list misses HardEvents");
_Static_assert((int)ASC_HARD_EVENT_COUNT == (int)ASC_EVENT_NR_HARD_EVENTS,
	       "libasc and the device count HardEvents differently");
#undef ASC_ONE

#define ASC_NAME(s, d)	#s "_" #d,
static const char *const asc_hard_event_names[] = {
	ASC_HARD_EVENTS(ASC_NAME)
};
#undef ASC_NAME

#define ASC_SRC(s, d)	ASC_PIPE_##s,
const signed char asc_hard_event_src[] = {
	ASC_HARD_EVENTS(ASC_SRC)
};
#undef ASC_SRC

#define ASC_DST(s, d)	ASC_PIPE_##d,
const signed char asc_hard_event_dst[] = {
	ASC_HARD_EVENTS(ASC_DST)
};
#undef ASC_DST

ASC_API const char *asc_hard_event_name(int event)
{
	if (!asc_event_valid(event)) {
		errno = EINVAL;
		return NULL;
	}
	return asc_hard_event_names[event];
}

ASC_API int asc_hard_event_from_name(const char *name)
{
	int event;

	if (!name)
		return asc_einval();

	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		if (!strcmp(name, asc_hard_event_names[event]))
			return event;
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
