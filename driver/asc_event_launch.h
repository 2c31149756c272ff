/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event launches: the cores of one kernel launch, their cross-core
 * flags and SyncAll.
 */
#ifndef _ASC_EVENT_LAUNCH_H
#define _ASC_EVENT_LAUNCH_H

#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/asc_event.h>

struct asc_tpipe;

/* Cross-core set modes the chip has (4, the newest chips', is not here). */
#define ASC_CROSS_MODES		3

/**
 * struct asc_launch_core - one core of a launch.
 * @tp: the TPipe that joined as this core, or NULL (not yet, or gone).
 * @gone: a TPipe joined as this core and has left (closed): the core's
 *	part of the launch is over.
 * @synced: the core has reached the current SyncAll.
 * @sync_aiv: that SyncAll is of the AIVs only (see asc_sync_group()).
 * @count: per cross-core flag, the counter its waits take from (0..15).
 * @issued: per mode and flag, sets this core issued that wait for the
 *	other cores of their group to issue theirs.
 */
struct asc_launch_core {
	struct asc_tpipe *tp;
	bool gone;
	bool synced;
	bool sync_aiv;
	u8 count[ASC_EVENT_CROSS_FLAGS];
	u8 issued[ASC_CROSS_MODES][ASC_EVENT_CROSS_FLAGS];
};

/**
 * struct asc_cross_group - the cores of one cross-core set.
 * @mode: its mode.
 * @first: the first core that must issue it.
 * @last: the last core that must issue it.
 * @target_first: the first core whose counter it adds to.
 * @target_last: the last core whose counter it adds to.
 */
struct asc_cross_group {
	u32 mode;
	u32 first;
	u32 last;
	u32 target_first;
	u32 target_last;
};

/**
 * struct asc_launch - one launch of a kernel on several cores.
 * @lock: protects the launch and, once they have joined, every TPipe of
 *	its cores (their &asc_tpipe.lockp points here): one lock for all the
 *	cores, so that cross-core state and deadlock detection across cores
 *	see one consistent state.
 * @ref: references: the launch's file, and each core's TPipe.
 * @serial: module-wide number of the launch (reports, debugfs, traces).
 * @kind: ASC_EVENT_LAUNCH_*.
 * @block_dim: AI cores.
 * @ncores: cores: @block_dim, or 3 * @block_dim for a mix launch (the
 *	AICs first, then the AIVs, two per AI core).
 * @nr_gone: cores that have left.
 * @nr_synced: cores at the current SyncAll of every core ([0]) and at
 *	that of the AIVs only ([1]).  Both may go on at once, in a mix launch
 *	the AICs in the one and the AIVs in the other: the AIVs' round ends
 *	without the AICs, then the AIVs may join theirs.
 * @scratch: work space of deadlock detection for @ncores *
 *	%ASC_NR_PIPES nodes (asc_launch_scratch_size()), used under @lock.
 * @cores: the cores.
 *
 * Lifetime: created by %ASC_EVENT_IOC_LAUNCH with the reference of its
 * file; a TPipe that joins takes one and drops it when it is destroyed.
 */
struct asc_launch {
	spinlock_t lock;	/* see above */
	struct kref ref;
	unsigned int serial;
	u32 kind;
	u32 block_dim;
	u32 ncores;
	u32 nr_gone;
	u32 nr_synced[2];
	void *scratch;
	struct asc_launch_core cores[];
};

int asc_launch_create(u32 kind, u32 block_dim, int __user *ufd);
int asc_tpipe_join(struct asc_tpipe *tp, int launch_fd, u32 core);
int asc_tpipe_core_info(struct asc_tpipe *tp,
			struct asc_event_core_info *info);
int asc_tpipe_cross_set(struct asc_tpipe *tp,
			const struct asc_event_cross_set *args);
int asc_tpipe_cross_wait(struct asc_tpipe *tp, u32 flag, u64 deadline);
int asc_tpipe_sync_all(struct asc_tpipe *tp, u32 flags, u64 deadline);
void asc_tpipe_leave(struct asc_tpipe *tp);
void asc_launch_core_reset(struct asc_tpipe *tp);

size_t asc_launch_scratch_size(unsigned int nodes);
u32 asc_launch_core_type(const struct asc_launch *l, u32 core);
void asc_cross_group(const struct asc_launch *l, u32 core, u32 mode,
		     struct asc_cross_group *g);
unsigned int asc_cross_groups_into(const struct asc_launch *l, u32 core,
				   struct asc_cross_group *g);
void asc_sync_group(const struct asc_launch *l, bool aiv, u32 *first,
		    u32 *last);
bool asc_sync_group_gone(const struct asc_launch *l, bool aiv);
int asc_launch_core_name(const struct asc_launch *l, u32 core, char *buf,
			 size_t size);

#endif /* _ASC_EVENT_LAUNCH_H */
