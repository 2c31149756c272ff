// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event emulated hardware: allocation and bulk operations on the
 * per-core flag register block.
 */

#include <linux/bitops.h>
#include <linux/slab.h>

#include "asc_event_hw.h"

/*
 * Register blocks are 280 bytes: a cache of their own packs them, where a
 * page each would cost 4 KiB per open and kmalloc-512 almost twice their
 * size.
 */
static struct kmem_cache *asc_hw_cache;

/**
 * asc_hw_cache_init() - create the cache of register blocks.
 *
 * Return: 0, or -%ENOMEM.
 */
int asc_hw_cache_init(void)
{
	asc_hw_cache = KMEM_CACHE(asc_hw_core, SLAB_ACCOUNT);
	return asc_hw_cache ? 0 : -ENOMEM;
}

/** asc_hw_cache_exit() - destroy the cache; every block is freed. */
void asc_hw_cache_exit(void)
{
	kmem_cache_destroy(asc_hw_cache);
}

/**
 * asc_hw_core_alloc() - allocate the zeroed register block of one core.
 *
 * Return: the block, or NULL when out of memory.
 */
struct asc_hw_core *asc_hw_core_alloc(void)
{
	return kmem_cache_zalloc(asc_hw_cache, GFP_KERNEL_ACCOUNT);
}

/**
 * asc_hw_core_free() - free a register block.
 * @core: block from asc_hw_core_alloc(), or NULL.
 */
void asc_hw_core_free(struct asc_hw_core *core)
{
	if (core)
		kmem_cache_free(asc_hw_cache, core);
}

/**
 * asc_hw_flag_raise() - set the flag of (@event, @id) unless it is set.
 * @core: register block.
 * @event: HardEvent, already validated.
 * @id: event ID, already validated.
 *
 * Return: true if this call set it, false if it was already set.
 */
bool asc_hw_flag_raise(struct asc_hw_core *core, unsigned int event,
		       unsigned int id)
{
	u64 old = READ_ONCE(core->flags[event]), prev;

	while (!(old & BIT_ULL(id))) {
		prev = cmpxchg64(&core->flags[event], old, old | BIT_ULL(id));
		if (prev == old)
			return true;
		old = prev;
	}
	return false;
}

/**
 * asc_hw_flag_take() - consume the flag of (@event, @id), or mark a waiter.
 * @core: register block.
 * @event: HardEvent, already validated.
 * @id: event ID, already validated.
 * @waiter: bits to set when the flag is not set (the waiter bit of a
 *	mapped block, or 0), in the same atomic step as the test.
 *
 * Return: true if the flag was set and is now clear.
 */
bool asc_hw_flag_take(struct asc_hw_core *core, unsigned int event,
		      unsigned int id, u64 waiter)
{
	u64 old = READ_ONCE(core->flags[event]), new, prev;

	for (;;) {
		new = old & BIT_ULL(id) ? old & ~BIT_ULL(id) : old | waiter;
		if (new == old)
			return false;
		prev = cmpxchg64(&core->flags[event], old, new);
		if (prev == old)
			return old & BIT_ULL(id);
		old = prev;
	}
}

/**
 * asc_hw_flags_clear_all() - clear every flag (and waiter bit) of a core.
 * @core: register block.
 * @mask: the bits of a register that are flags.
 *
 * Return: how many flags were set.
 */
unsigned int asc_hw_flags_clear_all(struct asc_hw_core *core, u64 mask)
{
	unsigned int event, set = 0;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++)
		set += hweight64(asc_hw_flag_update(core, event, 0, ~0ULL) & mask);
	return set;
}

/**
 * asc_hw_flags_count() - count the flags of a core that are set.
 * @core: register block.
 * @mask: the bits of a register that are flags.
 *
 * Return: how many flags are set.
 */
unsigned int asc_hw_flags_count(const struct asc_hw_core *core, u64 mask)
{
	unsigned int event, set = 0;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++)
		set += hweight64(READ_ONCE(core->flags[event]) & mask);
	return set;
}

/**
 * asc_hw_flags_read() - a copy of the flags of a core.
 * @core: register block.
 * @mask: the bits of a register that are flags.
 * @out: the flags, one word per HardEvent.
 */
void asc_hw_flags_read(const struct asc_hw_core *core, u64 mask,
		       u64 out[ASC_EVENT_NR_HARD_EVENTS])
{
	unsigned int event;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++)
		out[event] = READ_ONCE(core->flags[event]) & mask;
}
