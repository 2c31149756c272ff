// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event: the HardEvent and pipe tables of the driver.
 *
 * The uAPI's enum asc_event_hard_event is the one place the HardEvents are
 * numbered.  The table below names each of them once more, as its source
 * and destination pipe, and makes the rest (the name, the pipe slots) from
 * those two tokens, so an entry cannot disagree with the enum: a misspelt
 * pair names no enum constant.  Each entry also states that it sits at
 * the position of its HardEvent, and the table has as many entries as
 * there are HardEvents: a missing, extra or misplaced entry fails the
 * build.
 */

#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "asc_event_table.h"

/*
 * __COUNTER__ numbers the entries: the n-th entry must be HardEvent n.
 * Nothing else in this file expands __COUNTER__.
 */
enum { ASC_TABLE_BASE = __COUNTER__ + 1 };

#define ASC_HARD_EVENT(s, d) {						\
	.name = #s "_" #d,						\
	.src = ASC_SLOT_##s,						\
	.dst = ASC_SLOT_##d +						\
	       BUILD_BUG_ON_ZERO(ASC_EVENT_##s##_##d != __COUNTER__ - ASC_TABLE_BASE) }

const struct asc_hard_event_info asc_hard_events[] = {
	ASC_HARD_EVENT(MTE2, MTE1),
	ASC_HARD_EVENT(MTE1, MTE2),
	ASC_HARD_EVENT(MTE1, M),
	ASC_HARD_EVENT(M, MTE1),
	ASC_HARD_EVENT(MTE2, V),
	ASC_HARD_EVENT(V, MTE2),
	ASC_HARD_EVENT(MTE3, V),
	ASC_HARD_EVENT(V, MTE3),
	ASC_HARD_EVENT(M, V),
	ASC_HARD_EVENT(V, M),
	ASC_HARD_EVENT(V, V),
	ASC_HARD_EVENT(MTE3, MTE1),
	ASC_HARD_EVENT(MTE1, MTE3),
	ASC_HARD_EVENT(MTE1, V),
	ASC_HARD_EVENT(MTE2, M),
	ASC_HARD_EVENT(M, MTE2),
	ASC_HARD_EVENT(V, MTE1),
	ASC_HARD_EVENT(M, FIX),
	ASC_HARD_EVENT(FIX, M),
	ASC_HARD_EVENT(MTE3, MTE2),
	ASC_HARD_EVENT(MTE2, MTE3),
	ASC_HARD_EVENT(S, V),
	ASC_HARD_EVENT(V, S),
	ASC_HARD_EVENT(S, MTE2),
	ASC_HARD_EVENT(MTE2, S),
	ASC_HARD_EVENT(S, MTE3),
	ASC_HARD_EVENT(MTE3, S),
	ASC_HARD_EVENT(MTE2, FIX),
	ASC_HARD_EVENT(FIX, MTE2),
	ASC_HARD_EVENT(FIX, S),
	ASC_HARD_EVENT(M, S),
	ASC_HARD_EVENT(FIX, MTE3),
	ASC_HARD_EVENT(MTE1, FIX),
	ASC_HARD_EVENT(FIX, MTE1),
	ASC_HARD_EVENT(FIX, FIX),
};

static_assert(ARRAY_SIZE(asc_hard_events) == ASC_EVENT_NR_HARD_EVENTS);

static const char *const asc_slot_names[ASC_NR_PIPES] = {
	[ASC_SLOT_S] = "S",
	[ASC_SLOT_V] = "V",
	[ASC_SLOT_M] = "M",
	[ASC_SLOT_MTE1] = "MTE1",
	[ASC_SLOT_MTE2] = "MTE2",
	[ASC_SLOT_MTE3] = "MTE3",
	[ASC_SLOT_FIX] = "FIX",
};

static_assert(ASC_EVENT_PIPE_MTE3 + 1 == ASC_SLOT_FIX);

/**
 * asc_hard_event_name() - name of a HardEvent.
 * @event: HardEvent number.
 *
 * Return: pyasc's name without prefix ("MTE2_V"), or "?" when @event is
 * not a HardEvent.
 */
const char *asc_hard_event_name(u32 event)
{
	return event < ASC_EVENT_NR_HARD_EVENTS ? asc_hard_events[event].name : "?";
}

/**
 * asc_slot_name() - name of a pipe slot.
 * @slot: pipe slot, or %ASC_SLOT_NONE.
 *
 * Return: "S", "V", "M", "MTE1", "MTE2", "MTE3" or "FIX"; "-" for
 * %ASC_SLOT_NONE or anything else.
 */
const char *asc_slot_name(int slot)
{
	return slot >= 0 && slot < ASC_NR_PIPES ? asc_slot_names[slot] : "-";
}

/**
 * asc_slot_of_pipe() - the slot of an ASC_EVENT_PIPE_* value.
 * @pipe: pipe number from userspace.
 *
 * Return: 0..%ASC_NR_PIPES - 1, or -%EINVAL when @pipe is not a pipe a
 * thread can bind to.
 */
int asc_slot_of_pipe(s32 pipe)
{
	if (pipe >= ASC_EVENT_PIPE_S && pipe <= ASC_EVENT_PIPE_MTE3)
		return pipe;
	if (pipe == ASC_EVENT_PIPE_FIX)
		return ASC_SLOT_FIX;
	return -EINVAL;
}
