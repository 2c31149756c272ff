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
 * asc_hw_flags_clear_all() - clear every flag of a core.
 * @core: register block.
 *
 * Return: how many flags were set.
 */
unsigned int asc_hw_flags_clear_all(struct asc_hw_core *core)
{
	unsigned int event, set = 0;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++) {
		set += hweight64(core->flags[event]);
		WRITE_ONCE(core->flags[event], 0);
	}
	return set;
}

/**
 * asc_hw_flags_count() - count the flags of a core that are set.
 * @core: register block.
 *
 * Return: how many flags are set.
 */
unsigned int asc_hw_flags_count(const struct asc_hw_core *core)
{
	unsigned int event, set = 0;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++)
		set += hweight64(READ_ONCE(core->flags[event]));
	return set;
}
