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
 *	the flag of (@event, @id), as on the hardware.  In a mapped block,
 *	bit 32 + @id says that a task waits for it in the driver.
 *
 * Lifetime: allocated by asc_hw_core_alloc() from a cache of blocks (280
 * bytes, no page of its own) and freed by asc_hw_core_free(), until the
 * owner maps it: then the block is the start of a page
 * (struct asc_event_map_flags) that userspace writes too, the owner's.
 *
 * Locking: none of its own.  The owner serializes the driver's changes;
 * every change is an atomic compare-and-swap, as userspace's on a mapped
 * block, and every read masks the bits it may look at: a mapped word can
 * hold anything.
 */
struct asc_hw_core {
	u64 flags[ASC_EVENT_NR_HARD_EVENTS];
};

/**
 * asc_word_update() - change bits of a word userspace may change too.
 * @word: the word, in a page userspace maps or not.
 * @set: bits to set.
 * @clear: bits to clear.
 *
 * Return: the word before the change.
 */
static inline u64 asc_word_update(u64 *word, u64 set, u64 clear)
{
	u64 old = READ_ONCE(*word), prev;

	for (;;) {
		prev = cmpxchg64(word, old, (old | set) & ~clear);
		if (prev == old)
			return old;
		old = prev;
	}
}

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
 * asc_hw_flag_update() - change bits of a register atomically.
 * @core: register block.
 * @event: HardEvent, already validated.
 * @set: bits to set.
 * @clear: bits to clear.
 *
 * Return: the register before the change.
 */
static inline u64 asc_hw_flag_update(struct asc_hw_core *core,
				     unsigned int event, u64 set, u64 clear)
{
	return asc_word_update(&core->flags[event], set, clear);
}

int asc_hw_cache_init(void);
void asc_hw_cache_exit(void);
struct asc_hw_core *asc_hw_core_alloc(void);
void asc_hw_core_free(struct asc_hw_core *core);
bool asc_hw_flag_raise(struct asc_hw_core *core, unsigned int event,
		       unsigned int id);
bool asc_hw_flag_take(struct asc_hw_core *core, unsigned int event,
		      unsigned int id, u64 waiter);
unsigned int asc_hw_flags_clear_all(struct asc_hw_core *core, u64 mask);
unsigned int asc_hw_flags_count(const struct asc_hw_core *core, u64 mask);
void asc_hw_flags_read(const struct asc_hw_core *core, u64 mask,
		       u64 out[ASC_EVENT_NR_HARD_EVENTS]);

#endif /* _ASC_EVENT_HW_H */
