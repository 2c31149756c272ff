// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event: the HardEvent and pipe tables, generated from the uAPI's
 * <linux/asc_hard_event.h>, the only place the HardEvents are written.
 */

#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "asc_event_table.h"

#define ASC_SLOT_S	ASC_PIPE_S
#define ASC_SLOT_V	ASC_PIPE_V
#define ASC_SLOT_M	ASC_PIPE_M
#define ASC_SLOT_MTE1	ASC_PIPE_MTE1
#define ASC_SLOT_MTE2	ASC_PIPE_MTE2
#define ASC_SLOT_MTE3	ASC_PIPE_MTE3

/*
 * The enum counts the table's entries; each entry states its value: a
 * value out of place fails the build.
 */
static const char *const asc_hard_event_names[ASC_HARD_EVENT_COUNT] = {
#define ASC_HARD_EVENT(name, value, from, to)				\
	[ASC_HARD_EVENT_##name] =					\
		#name + BUILD_BUG_ON_ZERO(ASC_HARD_EVENT_##name != (value)),
#include <linux/asc_hard_event.h>
#undef ASC_HARD_EVENT
};

const struct asc_hard_event_pipes asc_hard_event_pipes[ASC_HARD_EVENT_COUNT] = {
#define ASC_HARD_EVENT(name, value, from, to)	\
	[value] = { .src = ASC_SLOT_##from, .dst = ASC_SLOT_##to },
#include <linux/asc_hard_event.h>
#undef ASC_HARD_EVENT
};

static const char *const asc_slot_names[ASC_NR_PIPES] = {
	[ASC_SLOT_S] = "S",
	[ASC_SLOT_V] = "V",
	[ASC_SLOT_M] = "M",
	[ASC_SLOT_MTE1] = "MTE1",
	[ASC_SLOT_MTE2] = "MTE2",
	[ASC_SLOT_MTE3] = "MTE3",
	[ASC_SLOT_FIX] = "FIX",
};

/**
 * asc_hard_event_name() - name of a HardEvent.
 * @event: HardEvent number.
 *
 * Return: pyasc's name without prefix ("MTE2_V"), or "?" when @event is
 * not a HardEvent.
 */
const char *asc_hard_event_name(u32 event)
{
	return event < ASC_HARD_EVENT_COUNT ? asc_hard_event_names[event] : "?";
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
 * asc_slot_of_pipe() - the slot of an ASC_PIPE_* value.
 * @pipe: pipe number from userspace.
 *
 * Return: 0..%ASC_NR_PIPES - 1, or -%EINVAL when @pipe is not a pipe a
 * thread can bind to.
 */
int asc_slot_of_pipe(s32 pipe)
{
	BUILD_BUG_ON(ASC_PIPE_MTE3 + 1 != ASC_SLOT_FIX);

	if (pipe >= ASC_PIPE_S && pipe <= ASC_PIPE_MTE3)
		return pipe;
	if (pipe == ASC_PIPE_FIX)
		return ASC_SLOT_FIX;
	return -EINVAL;
}
