/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event: what the uAPI enums mean, for the driver.  The names of the
 * HardEvents and pipes, the source and destination pipe of every
 * HardEvent, and the pipe slots a TPipe keeps (one per pipe a thread can
 * bind to).
 */
#ifndef _ASC_EVENT_TABLE_H
#define _ASC_EVENT_TABLE_H

#include <linux/types.h>
#include <linux/asc_event.h>

/*
 * Pipe slots: ASC_EVENT_PIPE_S..MTE3 are slots 0..5, ASC_EVENT_PIPE_FIX
 * is slot 6.  A slot number is what the driver stores; ASC_EVENT_PIPE_*
 * values are what the uAPI speaks.
 */
#define ASC_NR_PIPES		7
#define ASC_SLOT_S		ASC_EVENT_PIPE_S
#define ASC_SLOT_V		ASC_EVENT_PIPE_V
#define ASC_SLOT_M		ASC_EVENT_PIPE_M
#define ASC_SLOT_MTE1		ASC_EVENT_PIPE_MTE1
#define ASC_SLOT_MTE2		ASC_EVENT_PIPE_MTE2
#define ASC_SLOT_MTE3		ASC_EVENT_PIPE_MTE3
#define ASC_SLOT_FIX		6
#define ASC_SLOT_NONE		(-1)

/**
 * struct asc_hard_event_info - what one HardEvent is.
 * @name: pyasc's name without prefix, "MTE2_V".
 * @src: slot of the pipe that sets the flag.
 * @dst: slot of the pipe that waits for it.
 */
struct asc_hard_event_info {
	const char *name;
	u8 src;
	u8 dst;
};

/* Indexed by HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS. */
extern const struct asc_hard_event_info asc_hard_events[];

const char *asc_hard_event_name(u32 event);
const char *asc_slot_name(int slot);
int asc_slot_of_pipe(s32 pipe);

/**
 * asc_pipe_of_slot() - the ASC_EVENT_PIPE_* value of a pipe slot.
 * @slot: 0..%ASC_NR_PIPES - 1.
 *
 * Return: the pipe's number in pyasc's PipeID numbering.
 */
static inline s32 asc_pipe_of_slot(int slot)
{
	return slot == ASC_SLOT_FIX ? ASC_EVENT_PIPE_FIX : slot;
}

#endif /* _ASC_EVENT_TABLE_H */
