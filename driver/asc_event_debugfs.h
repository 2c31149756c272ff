/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event debugfs: /sys/kernel/debug/asc_event/tpipes, the state of
 * every open TPipe.
 */
#ifndef _ASC_EVENT_DEBUGFS_H
#define _ASC_EVENT_DEBUGFS_H

struct asc_tpipe;

void asc_debugfs_init(void);
void asc_debugfs_exit(void);
void asc_debugfs_add(struct asc_tpipe *tp);
void asc_debugfs_remove(struct asc_tpipe *tp);
u64 asc_debugfs_fast_ops(void);

#endif /* _ASC_EVENT_DEBUGFS_H */
