// SPDX-License-Identifier: GPL-2.0
/*
 * The HardEvents and pipes: see asc_test_events.h.
 */
#include "asc_test_events.h"

/* Each entry of ASC_HARD_EVENTS in its place, and none missing. */
enum { ASC_EVENTS_LIST_BASE = __COUNTER__ + 1 };
#define ASC_EVENTS_CHECK(s, d)						\
	_Static_assert(ASC_EVENT_##s##_##d == __COUNTER__ - ASC_EVENTS_LIST_BASE, \
		       "HardEvent " #s "_" #d " is out of place");	\
	_Static_assert(ASC_EVENT_PIPE_##s >= 0 && ASC_EVENT_PIPE_##d >= 0, \
		       "HardEvent " #s "_" #d ": not pipes");
ASC_HARD_EVENTS(ASC_EVENTS_CHECK)
#undef ASC_EVENTS_CHECK

#define ASC_EVENTS_ONE(s, d)	+ 1
_Static_assert((0 ASC_HARD_EVENTS(ASC_EVENTS_ONE)) == ASC_EVENT_NR_HARD_EVENTS,
	       "the list misses HardEvents");
#undef ASC_EVENTS_ONE

const char *asc_event_name(int event)
{
#define ASC_EVENTS_NAME(s, d)	#s "_" #d,
	static const char *const names[] = { ASC_HARD_EVENTS(ASC_EVENTS_NAME) };
#undef ASC_EVENTS_NAME

	return event >= 0 && event < (int)ASC_EVENT_NR_HARD_EVENTS ? names[event] : "?";
}

int asc_event_src(int event)
{
#define ASC_EVENTS_SRC(s, d)	ASC_EVENT_PIPE_##s,
	static const signed char src[] = { ASC_HARD_EVENTS(ASC_EVENTS_SRC) };
#undef ASC_EVENTS_SRC

	return src[event];
}

int asc_event_dst(int event)
{
#define ASC_EVENTS_DST(s, d)	ASC_EVENT_PIPE_##d,
	static const signed char dst[] = { ASC_HARD_EVENTS(ASC_EVENTS_DST) };
#undef ASC_EVENTS_DST

	return dst[event];
}

int asc_pipe_at(int i)
{
	static const int pipes[ASC_NR_PIPES] = {
		ASC_EVENT_PIPE_S, ASC_EVENT_PIPE_V, ASC_EVENT_PIPE_M, ASC_EVENT_PIPE_MTE1,
		ASC_EVENT_PIPE_MTE2, ASC_EVENT_PIPE_MTE3, ASC_EVENT_PIPE_FIX,
	};

	return pipes[i];
}

const char *asc_pipe_name(int pipe)
{
	switch (pipe) {
	case ASC_EVENT_PIPE_S: return "S";
	case ASC_EVENT_PIPE_V: return "V";
	case ASC_EVENT_PIPE_M: return "M";
	case ASC_EVENT_PIPE_MTE1: return "MTE1";
	case ASC_EVENT_PIPE_MTE2: return "MTE2";
	case ASC_EVENT_PIPE_MTE3: return "MTE3";
	case ASC_EVENT_PIPE_FIX: return "FIX";
	case ASC_EVENT_PIPE_NONE: return "-";
	}
	return "?";
}
