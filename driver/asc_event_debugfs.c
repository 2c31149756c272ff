// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event debugfs: one read-only file, /sys/kernel/debug/asc_event/tpipes,
 * showing every open TPipe in serial order: its owner, mode, bound pipes,
 * allocated and fetched IDs, set flags, current waiters and the
 * instructions issued to each pipe and not yet run.
 *
 * One file for all, not one per TPipe: a debugfs file per open would cost
 * every open a dentry and an inode and take the directory's lock, which
 * all opens share.  Instead each TPipe is on a list, and the file's reader
 * walks it holding the list's mutex, which open and close take only to
 * link and unlink the TPipe; so a TPipe is never freed under a reader.
 * debugfs is for debugging: a file that cannot be created is not an error
 * (the TPipes work without it).
 */

#include <linux/debugfs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/seq_file.h>

#include "asc_event_debugfs.h"
#include "asc_event_hw.h"
#include "asc_event_launch.h"
#include "asc_event_report.h"
#include "asc_event_tpipe.h"

/* Longest line of IDs a file shows; longer ends in "...". */
#define ASC_DEBUGFS_IDS_LEN	1024

static struct dentry *asc_debugfs_dir;

/* Every TPipe between asc_debugfs_add() and asc_debugfs_remove(), by serial. */
static LIST_HEAD(asc_debugfs_tpipes);
static DEFINE_MUTEX(asc_debugfs_lock);

static void asc_debugfs_show_ids(struct seq_file *m, const char *name,
				 const u64 *words, char *buf)
{
	asc_format_ids(buf, ASC_DEBUGFS_IDS_LEN, words);
	seq_printf(m, "%s: %s\n", name, buf);
}

static void asc_debugfs_show_pipes(struct seq_file *m, struct asc_tpipe *tp)
{
	bool any = false;
	int slot;

	seq_puts(m, "pipes:");
	for (slot = 0; slot < ASC_NR_PIPES; slot++) {
		if (!tp->slots[slot].pid)
			continue;
		seq_printf(m, " %s=%d", asc_slot_name(slot),
			   pid_nr(tp->slots[slot].pid));
		any = true;
	}
	seq_puts(m, any ? "\n" : " none\n");
}

static void asc_debugfs_show_fetched(struct seq_file *m, struct asc_tpipe *tp)
{
	unsigned int event;
	bool any = false;

	seq_puts(m, "fetched:");
	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++) {
		if (tp->fetched[event] < 0)
			continue;
		seq_printf(m, " %s:%d", asc_hard_event_name(event),
			   tp->fetched[event]);
		any = true;
	}
	seq_puts(m, any ? "\n" : " none\n");
}

static void asc_debugfs_show_waiters(struct seq_file *m, struct asc_tpipe *tp)
{
	struct asc_waiter *w;

	seq_puts(m, "waiters:");
	list_for_each_entry(w, &tp->waiters, node) {
		seq_printf(m, " %d/%s:", task_pid_nr(w->task),
			   asc_slot_name(w->slot));
		if (w->kind == ASC_WAIT_CROSS)
			seq_printf(m, "cross:%u", w->event);
		else if (w->kind == ASC_WAIT_SYNC)
			seq_puts(m, "sync_all");
		else
			seq_printf(m, "%s:%u", asc_hard_event_name(w->event),
				   w->id);
	}
	seq_puts(m, list_empty(&tp->waiters) ? " none\n" : "\n");
}

/* The launch line, and the core's cross-core counters and issues. */
static void asc_debugfs_show_launch(struct seq_file *m, struct asc_tpipe *tp)
{
	const struct asc_launch_core *me;
	struct asc_launch *l = tp->launch;
	unsigned int mode, flag;
	bool any = false;
	char name[32];

	if (!l) {
		seq_puts(m, "launch: none\n");
		return;
	}
	asc_launch_core_name(l, tp->core, name, sizeof(name));
	seq_printf(m, "launch: %u %s of %u%s%s\n", l->serial, name, l->ncores,
		   l->cores[tp->core].synced ? " in sync_all" : "",
		   l->cores[tp->core].synced && l->cores[tp->core].sync_aiv ?
		   " aiv_only" : "");
	me = &l->cores[tp->core];
	seq_puts(m, "cross-counts:");
	for (flag = 0; flag < ASC_EVENT_CROSS_FLAGS; flag++) {
		if (!me->count[flag])
			continue;
		seq_printf(m, " %u=%u", flag, me->count[flag]);
		any = true;
	}
	seq_puts(m, any ? "\n" : " none\n");
	any = false;
	seq_puts(m, "cross-issued:");
	for (mode = 0; mode < ASC_CROSS_MODES; mode++) {
		for (flag = 0; flag < ASC_EVENT_CROSS_FLAGS; flag++) {
			if (!me->issued[mode][flag])
				continue;
			seq_printf(m, " %u/%u=%u", mode, flag,
				   me->issued[mode][flag]);
			any = true;
		}
	}
	seq_puts(m, any ? "\n" : " none\n");
}

static void asc_debugfs_show_issued(struct seq_file *m, struct asc_tpipe *tp)
{
	bool any = false;
	int slot;

	seq_puts(m, "issued:");
	for (slot = 0; tp->queues && slot < ASC_NR_PIPES; slot++) {
		if (!tp->queues[slot].count)
			continue;
		seq_printf(m, " %s=%u", asc_slot_name(slot), tp->queues[slot].count);
		any = true;
	}
	seq_puts(m, any ? "\n" : " none\n");
}

/* The reader holds the list's mutex from start to stop. */
static void *asc_debugfs_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&asc_debugfs_lock);
	return seq_list_start(&asc_debugfs_tpipes, *pos);
}

static void *asc_debugfs_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &asc_debugfs_tpipes, pos);
}

static void asc_debugfs_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&asc_debugfs_lock);
}

/* One TPipe's block; a blank line parts it from the one before. */
static int asc_debugfs_show(struct seq_file *m, void *v)
{
	struct asc_tpipe *tp = list_entry(v, struct asc_tpipe, debugfs_node);
	u64 flags[ASC_EVENT_NR_HARD_EVENTS];
	char *buf;

	buf = kmalloc(ASC_DEBUGFS_IDS_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	if (v != asc_debugfs_tpipes.next)
		seq_putc(m, '\n');
	seq_printf(m, "tpipe: %u\n", tp->serial);
	seq_printf(m, "owner: %s[%d] uid %u\n", tp->owner.comm,
		   tp->owner.tgid, tp->owner.uid);
	asc_tpipe_lock(tp);
	seq_printf(m, "mode: %s\n", !tp->checked ? "unchecked" :
		   tp->strict_ids ? "checked strict-ids" : "checked");
	seq_printf(m, "event_ids: %u\n", tp->event_ids);
	asc_debugfs_show_pipes(m, tp);
	asc_tpipe_pool_read(tp, flags);
	asc_debugfs_show_ids(m, "allocated", flags, buf);
	asc_debugfs_show_fetched(m, tp);
	asc_tpipe_flags_read(tp, flags);
	asc_debugfs_show_ids(m, "set", flags, buf);
	asc_debugfs_show_waiters(m, tp);
	asc_debugfs_show_issued(m, tp);
	asc_debugfs_show_launch(m, tp);
	asc_tpipe_unlock(tp);
	kfree(buf);
	return 0;
}

static const struct seq_operations asc_debugfs_sops = {
	.start = asc_debugfs_start,
	.next = asc_debugfs_next,
	.stop = asc_debugfs_stop,
	.show = asc_debugfs_show,
};

DEFINE_SEQ_ATTRIBUTE(asc_debugfs);

/**
 * asc_debugfs_add() - show a new TPipe in the debugfs file.
 * @tp: TPipe, not yet visible to userspace.
 *
 * TPipes usually come in serial order, so the walk for its place stops at
 * once.
 */
void asc_debugfs_add(struct asc_tpipe *tp)
{
	struct list_head *pos;

	mutex_lock(&asc_debugfs_lock);
	for (pos = asc_debugfs_tpipes.prev; pos != &asc_debugfs_tpipes;
	     pos = pos->prev) {
		if (list_entry(pos, struct asc_tpipe, debugfs_node)->serial <
		    tp->serial)
			break;
	}
	list_add(&tp->debugfs_node, pos);
	mutex_unlock(&asc_debugfs_lock);
}

/**
 * asc_debugfs_remove() - take a TPipe out of the debugfs file.
 * @tp: TPipe about to be destroyed.
 *
 * Returns once no reader is showing it any more.
 */
void asc_debugfs_remove(struct asc_tpipe *tp)
{
	mutex_lock(&asc_debugfs_lock);
	list_del(&tp->debugfs_node);
	mutex_unlock(&asc_debugfs_lock);
}

/**
 * asc_debugfs_fast_ops() - the sets and waits done in userspace on the
 *	mapped flags of every open TPipe.
 *
 * Return: the sum of what their flag pages say (asc_tpipe_fast_ops()).
 */
u64 asc_debugfs_fast_ops(void)
{
	struct asc_tpipe *tp;
	u64 sum = 0;

	mutex_lock(&asc_debugfs_lock);
	list_for_each_entry(tp, &asc_debugfs_tpipes, debugfs_node) {
		asc_tpipe_lock(tp);
		sum += asc_tpipe_fast_ops(tp);
		asc_tpipe_unlock(tp);
	}
	mutex_unlock(&asc_debugfs_lock);
	return sum;
}

/** asc_debugfs_init() - create /sys/kernel/debug/asc_event/tpipes. */
void asc_debugfs_init(void)
{
	asc_debugfs_dir = debugfs_create_dir("asc_event", NULL);
	debugfs_create_file("tpipes", 0400, asc_debugfs_dir, NULL,
			    &asc_debugfs_fops);
}

/** asc_debugfs_exit() - remove /sys/kernel/debug/asc_event/. */
void asc_debugfs_exit(void)
{
	debugfs_remove(asc_debugfs_dir);
}
