// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event emulated hardware: allocation and bulk operations on the
 * per-core flag register block.
 */

#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/gfp.h>
#include <linux/mm.h>

#include "asc_event_hw.h"

/**
 * asc_hw_core_alloc() - allocate the zeroed register block of one core.
 *
 * Return: the block, or NULL when out of memory.
 */
struct asc_hw_core *asc_hw_core_alloc(void)
{
	BUILD_BUG_ON(sizeof(struct asc_hw_core) > PAGE_SIZE);

	return (struct asc_hw_core *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
}

/**
 * asc_hw_core_free() - free a register block.
 * @core: block from asc_hw_core_alloc(), or NULL.
 */
void asc_hw_core_free(struct asc_hw_core *core)
{
	free_page((unsigned long)core);
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
