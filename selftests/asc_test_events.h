/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HardEvents and pipes as the selftests see them: the name of each
 * HardEvent, the pipe that sets and the pipe that waits for it, and the
 * names of the pipes.
 */
#ifndef ASC_TEST_EVENTS_H
#define ASC_TEST_EVENTS_H

#include <linux/asc_event.h>

/*
 * ASC_HARD_EVENTS lists every HardEvent once, as X(SRC, DST), in number
 * order; names and pipe columns are made from those two tokens.
 * asc_test_events.c checks each entry at build time against the uAPI's
 * enum, the one source of the numbering: an entry out of place, a missing
 * one or a misspelt one does not compile.
 */
#define ASC_HARD_EVENTS(X)						\
	X(MTE2, MTE1) X(MTE1, MTE2) X(MTE1, M) X(M, MTE1) X(MTE2, V)	\
	X(V, MTE2) X(MTE3, V) X(V, MTE3) X(M, V) X(V, M) X(V, V)	\
	X(MTE3, MTE1) X(MTE1, MTE3) X(MTE1, V) X(MTE2, M) X(M, MTE2)	\
	X(V, MTE1) X(M, FIX) X(FIX, M) X(MTE3, MTE2) X(MTE2, MTE3) X(S, V)	\
	X(V, S) X(S, MTE2) X(MTE2, S) X(S, MTE3) X(MTE3, S) X(MTE2, FIX)	\
	X(FIX, MTE2) X(FIX, S) X(M, S) X(FIX, MTE3) X(MTE1, FIX)	\
	X(FIX, MTE1) X(FIX, FIX)

/** ASC_NR_PIPES - the pipes a thread can bind to. */
#define ASC_NR_PIPES	7

/**
 * asc_event_name() - name of a HardEvent ("MTE2_V").
 * @event: HardEvent number.
 *
 * Return: the name, or "?" out of range.
 */
const char *asc_event_name(int event);

/**
 * asc_event_src() - the pipe that sets a HardEvent's flags.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 *
 * Return: ASC_EVENT_PIPE_* number.
 */
int asc_event_src(int event);

/**
 * asc_event_dst() - the pipe that waits for a HardEvent's flags.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 *
 * Return: ASC_EVENT_PIPE_* number.
 */
int asc_event_dst(int event);

/**
 * asc_pipe_at() - the @i-th pipe, in ASC_EVENT_PIPE_* order.
 * @i: 0 .. %ASC_NR_PIPES - 1.
 *
 * Return: its ASC_EVENT_PIPE_* number.
 */
int asc_pipe_at(int i);

/**
 * asc_pipe_name() - the name of a pipe as the driver prints it.
 * @pipe: ASC_EVENT_PIPE_* or %ASC_EVENT_PIPE_NONE.
 *
 * Return: "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"; "-" for
 * %ASC_EVENT_PIPE_NONE; "?" for anything else.
 */
const char *asc_pipe_name(int pipe);

#endif /* ASC_TEST_EVENTS_H */
