/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event emulated hardware: the event-flag register block of one AI core.
 *
 * This is the "chip" side of the driver, kept apart from the TPipe logic in
 * asc_event_tpipe.c the way gpio-sim keeps its simulated chip apart from
 * gpiolib: the register block knows bits, nothing about pools, waiters or
 * validation.
 */
#ifndef _ASC_EVENT_HW_H
#define _ASC_EVENT_HW_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/asc_event.h>

/**
 * struct asc_hw_core - flag registers of one emulated AI core.
 * @flags: one 64-bit register per HardEvent; bit @id of @flags[@event] is
 *	the flag of (@event, @id), as on the hardware.
 *
 * Lifetime: allocated by asc_hw_core_alloc() from a cache of blocks (280
 * bytes, no page of its own: nothing maps it) and freed by
 * asc_hw_core_free().
 *
 * Locking: none of its own.  The owner serializes every read-modify-write;
 * stores use WRITE_ONCE() so that a lockless reader never sees a torn word.
 */
struct asc_hw_core {
	u64 flags[ASC_EVENT_NR_HARD_EVENTS];
};

/**
 * asc_hw_flag_test() - read the flag of (@event, @id).
 * @core: register block.
 * @event: HardEvent, already validated.
 * @id: event ID, already validated.
 *
 * Return: true if the flag is set.
 */
static inline bool asc_hw_flag_test(const struct asc_hw_core *core,
				    unsigned int event, unsigned int id)
{
	return READ_ONCE(core->flags[event]) & BIT_ULL(id);
}

/**
 * asc_hw_flag_set() - set the flag of (@event, @id).
 * @core: register block.
 * @event: HardEvent, already validated.
 * @id: event ID, already validated.
 */
static inline void asc_hw_flag_set(struct asc_hw_core *core,
				   unsigned int event, unsigned int id)
{
	WRITE_ONCE(core->flags[event], core->flags[event] | BIT_ULL(id));
}

/**
 * asc_hw_flag_clear() - clear the flag of (@event, @id).
 * @core: register block.
 * @event: HardEvent, already validated.
 * @id: event ID, already validated.
 */
static inline void asc_hw_flag_clear(struct asc_hw_core *core,
				     unsigned int event, unsigned int id)
{
	WRITE_ONCE(core->flags[event], core->flags[event] & ~BIT_ULL(id));
}

int asc_hw_cache_init(void);
void asc_hw_cache_exit(void);
struct asc_hw_core *asc_hw_core_alloc(void);
void asc_hw_core_free(struct asc_hw_core *core);
unsigned int asc_hw_flags_clear_all(struct asc_hw_core *core);
unsigned int asc_hw_flags_count(const struct asc_hw_core *core);

#endif /* _ASC_EVENT_HW_H */
