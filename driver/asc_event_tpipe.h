/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event core logic: one TPipe, i.e. the event-ID pool and the flag
 * waits of one kernel running on one emulated AI core.
 */
#ifndef _ASC_EVENT_TPIPE_H
#define _ASC_EVENT_TPIPE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/asc_event.h>

struct asc_hw_core;

/**
 * struct asc_tpipe - one TPipe: what one open of /dev/asc_event owns.
 * @lock: protects @pool, @waiters and every waiter on it, and serializes
 *	all access to the flags in @hw.
 * @event_ids: IDs per HardEvent, fixed at creation (module parameter).
 * @hw: the emulated flag registers of this TPipe's core.
 * @pool: occupancy word per HardEvent: bit @id set while @id is allocated.
 * @waiters: struct asc_waiter of every task blocked in a wait, oldest
 *	first, so that a set hands its flag to the longest waiter.
 *
 * Lifetime: created by asc_tpipe_create() in open() and destroyed by
 * asc_tpipe_destroy() in release().  A task blocked in a wait holds a
 * reference to the file through its ioctl, so release() never runs while
 * @waiters is non-empty.  No lock is shared with any other TPipe.
 */
struct asc_tpipe {
	spinlock_t lock;	/* protects @pool, @waiters, @hw flags */
	unsigned int event_ids;
	struct asc_hw_core *hw;
	u64 pool[ASC_HARD_EVENT_COUNT];
	struct list_head waiters;
};

/**
 * struct asc_tpipe_leftovers - what a reset or destroy found still in use.
 * @ids_held: IDs that were still allocated.
 * @flags_pending: flags that were set and never waited on.
 */
struct asc_tpipe_leftovers {
	unsigned int ids_held;
	unsigned int flags_pending;
};

struct asc_tpipe *asc_tpipe_create(unsigned int event_ids);
void asc_tpipe_destroy(struct asc_tpipe *tp);

int asc_tpipe_alloc_id(struct asc_tpipe *tp, u32 event, u32 *id);
int asc_tpipe_fetch_id(struct asc_tpipe *tp, u32 event, u32 *id);
int asc_tpipe_release_id(struct asc_tpipe *tp, u32 event, u32 id);
int asc_tpipe_set_flag(struct asc_tpipe *tp, u32 event, u32 id);
int asc_tpipe_wait_flag(struct asc_tpipe *tp, u32 event, u32 id,
			u64 deadline);
void asc_tpipe_reset(struct asc_tpipe *tp, struct asc_tpipe_leftovers *left);

#endif /* _ASC_EVENT_TPIPE_H */
