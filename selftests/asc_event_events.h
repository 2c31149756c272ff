/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HardEvents as the selftests see them: the name of each and the pipe
 * that sets and the pipe that waits for it.
 *
 * ASC_HARD_EVENTS lists every HardEvent once, as X(SRC, DST), in number
 * order; names and pipe columns are made from those two tokens.  Each
 * entry is checked at build time against the uAPI's enum, the one source
 * of the numbering: an entry out of place, a missing one or a misspelt
 * one does not compile.
 */
#ifndef ASC_EVENT_EVENTS_H
#define ASC_EVENT_EVENTS_H

#include <linux/asc_event.h>

#define ASC_HARD_EVENTS(X)						\
	X(MTE2, MTE1) X(MTE1, MTE2) X(MTE1, M) X(M, MTE1) X(MTE2, V)	\
	X(V, MTE2) X(MTE3, V) X(V, MTE3) X(M, V) X(V, M) X(V, V)	\
	X(MTE3, MTE1) X(MTE1, MTE3) X(MTE1, V) X(MTE2, M) X(M, MTE2)	\
	X(V, MTE1) X(M, FIX) X(FIX, M) X(MTE3, MTE2) X(MTE2, MTE3) X(S, V)	\
	X(V, S) X(S, MTE2) X(MTE2, S) X(S, MTE3) X(MTE3, S) X(MTE2, FIX)	\
	X(FIX, MTE2) X(FIX, S) X(M, S) X(FIX, MTE3) X(MTE1, FIX)	\
	X(FIX, MTE1) X(FIX, FIX)

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

/**
 * asc_event_name() - name of a HardEvent ("MTE2_V").
 * @event: HardEvent number.
 *
 * Return: the name, or "?" out of range.
 */
static inline const char *asc_event_name(int event)
{
#define ASC_EVENTS_NAME(s, d)	#s "_" #d,
	static const char *const names[] = { ASC_HARD_EVENTS(ASC_EVENTS_NAME) };
#undef ASC_EVENTS_NAME

	return event >= 0 && event < (int)ASC_EVENT_NR_HARD_EVENTS ? names[event] : "?";
}

/**
 * asc_event_src() - the pipe that sets a HardEvent's flags.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 *
 * Return: ASC_EVENT_PIPE_* number.
 */
static inline int asc_event_src(int event)
{
#define ASC_EVENTS_SRC(s, d)	ASC_EVENT_PIPE_##s,
	static const signed char src[] = { ASC_HARD_EVENTS(ASC_EVENTS_SRC) };
#undef ASC_EVENTS_SRC

	return src[event];
}

/**
 * asc_event_dst() - the pipe that waits for a HardEvent's flags.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 *
 * Return: ASC_EVENT_PIPE_* number.
 */
static inline int asc_event_dst(int event)
{
#define ASC_EVENTS_DST(s, d)	ASC_EVENT_PIPE_##d,
	static const signed char dst[] = { ASC_HARD_EVENTS(ASC_EVENTS_DST) };
#undef ASC_EVENTS_DST

	return dst[event];
}

#endif /* ASC_EVENT_EVENTS_H */
