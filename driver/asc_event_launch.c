// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event launches: the cores of one kernel launch, their cross-core
 * flags and SyncAll.
 *
 * %ASC_EVENT_IOC_LAUNCH makes a launch and hands it out as a file, as
 * ntsync hands out its objects; each TPipe that is to run one core of the
 * kernel joins it with %ASC_EVENT_IOC_JOIN.  From then on the TPipe is
 * protected by the launch's lock, which all its cores share, so that a
 * cross-core set, the waits it ends and deadlock detection across the
 * cores are each one atomic step.
 *
 * A cross-core set belongs to a group of cores and a set of targets that
 * its mode and the caller's core decide (asc_cross_group()).  Each member
 * issues it; the issue that completes the group takes one issue of every
 * member and adds one to the counter of the flag on every target, or hands
 * it straight to the oldest task that waits for it there.  A core that
 * leaves (its TPipe is closed) ends its part: the waits that can then
 * never end fail with -%EPIPE instead of hanging.
 */

#include <linux/anon_inodes.h>
#include <linux/bitmap.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "asc_event_launch.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

static atomic_t asc_launch_serial = ATOMIC_INIT(0);

static void asc_launch_free(struct kref *ref)
{
	struct asc_launch *l = container_of(ref, struct asc_launch, ref);

	asc_stat_add(ASC_STAT_LAUNCHES_OPEN, -1);
	kfree(l->scratch);
	kfree(l);
}

static int asc_launch_release(struct inode *inode, struct file *file)
{
	struct asc_launch *l = file->private_data;

	kref_put(&l->ref, asc_launch_free);
	return 0;
}

static const struct file_operations asc_launch_fops = {
	.owner = THIS_MODULE,
	.release = asc_launch_release,
	.llseek = noop_llseek,
};

/**
 * asc_launch_scratch_size() - bytes of deadlock detection's work space.
 * @nodes: nodes of the wait-for graph: cores * %ASC_NR_PIPES.
 *
 * Return: room for three bitmaps of @nodes bits and a queue of @nodes
 * node numbers.
 */
size_t asc_launch_scratch_size(unsigned int nodes)
{
	return 3 * BITS_TO_LONGS(nodes) * sizeof(long) + nodes * sizeof(u16);
}

/**
 * asc_launch_create() - make a launch and give it to userspace as a file.
 * @kind: ASC_EVENT_LAUNCH_*.
 * @block_dim: AI cores, 1..%ASC_EVENT_BLOCK_DIM_MAX.
 * @ufd: where in userspace the new file descriptor goes.
 *
 * Return: 0, -%EINVAL for a bad @kind or @block_dim, -%ENOMEM, -%EMFILE,
 * -%EFAULT when @ufd cannot be written (no descriptor is made).
 */
int asc_launch_create(u32 kind, u32 block_dim, int __user *ufd)
{
	struct asc_launch *l;
	struct file *file;
	u32 ncores;
	int fd;

	if (kind < ASC_EVENT_LAUNCH_AIV || kind > ASC_EVENT_LAUNCH_MIX ||
	    !block_dim || block_dim > ASC_EVENT_BLOCK_DIM_MAX)
		return -EINVAL;
	ncores = kind == ASC_EVENT_LAUNCH_MIX ? 3 * block_dim : block_dim;

	l = kzalloc(struct_size(l, cores, ncores), GFP_KERNEL_ACCOUNT);
	if (!l)
		return -ENOMEM;
	l->scratch = kzalloc(asc_launch_scratch_size(ncores * ASC_NR_PIPES),
			     GFP_KERNEL_ACCOUNT);
	if (!l->scratch) {
		kfree(l);
		return -ENOMEM;
	}
	spin_lock_init(&l->lock);
	kref_init(&l->ref);
	l->kind = kind;
	l->block_dim = block_dim;
	l->ncores = ncores;
	l->serial = atomic_inc_return(&asc_launch_serial);
	asc_stat_add(ASC_STAT_LAUNCHES_OPEN, 1);
	asc_stat_add(ASC_STAT_LAUNCHES_CREATED, 1);

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		kref_put(&l->ref, asc_launch_free);
		return fd;
	}
	file = anon_inode_getfile("asc_event_launch", &asc_launch_fops, l,
				  O_RDWR | O_CLOEXEC);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		kref_put(&l->ref, asc_launch_free);
		return PTR_ERR(file);
	}
	if (put_user(fd, ufd)) {
		put_unused_fd(fd);
		fput(file);
		return -EFAULT;
	}
	fd_install(fd, file);
	trace_asc_event_launch(l->serial, kind, block_dim);
	return 0;
}

/**
 * asc_launch_core_type() - whether a core of a launch is an AIC or an AIV.
 * @l: launch.
 * @core: core number, below @l->ncores.
 *
 * Return: %ASC_EVENT_CORE_AIC or %ASC_EVENT_CORE_AIV.
 */
u32 asc_launch_core_type(const struct asc_launch *l, u32 core)
{
	if (l->kind == ASC_EVENT_LAUNCH_AIC ||
	    (l->kind == ASC_EVENT_LAUNCH_MIX && core < l->block_dim))
		return ASC_EVENT_CORE_AIC;
	return ASC_EVENT_CORE_AIV;
}

/* The block index and sub-block index Ascend C gives a core. */
static void asc_launch_block_of(const struct asc_launch *l, u32 core,
				u32 *block_idx, u32 *sub_block_idx)
{
	u32 v;

	if (l->kind != ASC_EVENT_LAUNCH_MIX || core < l->block_dim) {
		*block_idx = core;
		*sub_block_idx = 0;
		return;
	}
	v = core - l->block_dim;
	*block_idx = v;
	*sub_block_idx = v % 2;
}

/**
 * asc_launch_core_name() - a core for reports: "core 4 (AIV 1)".
 * @l: launch.
 * @core: core number.
 * @buf: where to write.
 * @size: size of @buf.
 *
 * The number in brackets is the core's block index.
 *
 * Return: the length written.
 */
int asc_launch_core_name(const struct asc_launch *l, u32 core, char *buf,
			 size_t size)
{
	u32 block_idx, sub;

	asc_launch_block_of(l, core, &block_idx, &sub);
	return scnprintf(buf, size, "core %u (%s %u)", core,
			 asc_launch_core_type(l, core) == ASC_EVENT_CORE_AIC ?
			 "AIC" : "AIV", block_idx);
}

/**
 * asc_cross_group() - who takes part in a cross-core set and whom it counts
 *	on.
 * @l: launch.
 * @core: the core that issues it.
 * @mode: its mode, valid for @l and @core.
 * @g: out: the group.
 *
 * Mode 0 is every core of @core's type, counting on each of them; mode 1
 * the two AIVs of @core's AI core, counting on both; mode 2 from an AIC
 * that AIC alone, counting on its two AIVs, and from an AIV the two AIVs,
 * counting on their AIC.
 */
void asc_cross_group(const struct asc_launch *l, u32 core, u32 mode,
		     struct asc_cross_group *g)
{
	u32 aiv0 = l->kind == ASC_EVENT_LAUNCH_MIX ? l->block_dim : 0;
	bool aic = asc_launch_core_type(l, core) == ASC_EVENT_CORE_AIC;
	u32 pair = aiv0 + (core - aiv0) / 2 * 2;

	g->mode = mode;
	switch (mode) {
	case 0:
		g->first = aic ? 0 : aiv0;
		g->last = aic ? (aiv0 ? aiv0 : l->ncores) - 1 : l->ncores - 1;
		g->target_first = g->first;
		g->target_last = g->last;
		break;
	case 1:
		g->first = pair;
		g->last = pair + 1;
		g->target_first = pair;
		g->target_last = pair + 1;
		break;
	default:
		if (aic) {
			g->first = core;
			g->last = core;
			g->target_first = aiv0 + 2 * core;
			g->target_last = aiv0 + 2 * core + 1;
		} else {
			g->first = pair;
			g->last = pair + 1;
			g->target_first = (pair - aiv0) / 2;
			g->target_last = g->target_first;
		}
		break;
	}
}

/**
 * asc_cross_groups_into() - the groups whose sets count on a core.
 * @l: launch.
 * @core: the core.
 * @g: out: up to %ASC_CROSS_MODES groups.
 *
 * Return: how many groups there are.
 */
unsigned int asc_cross_groups_into(const struct asc_launch *l, u32 core,
				   struct asc_cross_group *g)
{
	u32 aiv0 = l->block_dim;
	unsigned int n = 0;

	asc_cross_group(l, core, 0, &g[n++]);
	if (l->kind != ASC_EVENT_LAUNCH_MIX)
		return n;
	if (core >= aiv0) {
		asc_cross_group(l, core, 1, &g[n++]);
		asc_cross_group(l, (core - aiv0) / 2, 2, &g[n++]);
	} else {
		asc_cross_group(l, aiv0 + 2 * core, 2, &g[n++]);
	}
	return n;
}

/*
 * Whether a set of the group can still complete for @flag: each member
 * has issued one not yet counted, or has not left.
 */
static bool asc_cross_group_alive(const struct asc_launch *l,
				  const struct asc_cross_group *g, u32 flag)
{
	u32 m;

	for (m = g->first; m <= g->last; m++) {
		if (l->cores[m].gone && !l->cores[m].issued[g->mode][flag])
			return false;
	}
	return true;
}

/* Whether anything can still count on @flag of @core. */
static bool asc_cross_may_come(const struct asc_launch *l, u32 core, u32 flag)
{
	struct asc_cross_group g[ASC_CROSS_MODES];
	unsigned int i, n;

	n = asc_cross_groups_into(l, core, g);
	for (i = 0; i < n; i++) {
		if (asc_cross_group_alive(l, &g[i], flag))
			return true;
	}
	return false;
}

/**
 * asc_tpipe_join() - a TPipe becomes a core of a launch.
 * @tp: TPipe.
 * @launch_fd: the launch's file descriptor.
 * @core: the core, or %ASC_EVENT_CORE_ANY for the lowest free one.
 *
 * From now on @tp is protected by the launch's lock.
 *
 * Return: 0, -%EBADF when @launch_fd is not open, -%EINVAL when it is not
 * a launch or @core is not one of its cores, -%EISCONN when @tp has
 * already joined a launch, -%EBUSY when a task waits on @tp or @core has
 * been joined, -%ENOSPC when every core has been.
 */
int asc_tpipe_join(struct asc_tpipe *tp, int launch_fd, u32 core)
{
	struct asc_launch *l;
	struct file *file;
	int ret = 0;
	u32 c;

	file = fget(launch_fd);
	if (!file)
		return -EBADF;
	if (file->f_op != &asc_launch_fops) {
		fput(file);
		return -EINVAL;
	}
	l = file->private_data;
	if (core != ASC_EVENT_CORE_ANY && core >= l->ncores) {
		fput(file);
		return -EINVAL;
	}

	spin_lock(&l->lock);
	spin_lock(&tp->lock);
	if (tp->launch) {
		ret = -EISCONN;
	} else if (!list_empty(&tp->waiters)) {
		ret = -EBUSY;
	} else if (core == ASC_EVENT_CORE_ANY) {
		ret = -ENOSPC;
		for (c = 0; c < l->ncores && ret; c++) {
			if (!l->cores[c].tp && !l->cores[c].gone) {
				core = c;
				ret = 0;
			}
		}
	} else if (l->cores[core].tp || l->cores[core].gone) {
		ret = -EBUSY;
	}
	if (!ret) {
		kref_get(&l->ref);
		l->cores[core].tp = tp;
		tp->launch = l;
		tp->core = core;
		WRITE_ONCE(tp->lockp, &l->lock);
		trace_asc_event_join(tp->serial, l->serial, core);
	}
	spin_unlock(&tp->lock);
	spin_unlock(&l->lock);
	fput(file);
	return ret;
}

/**
 * asc_tpipe_core_info() - which core of its launch a TPipe is.
 * @tp: TPipe.
 * @info: out.
 *
 * Return: 0, or -%ENOTCONN when @tp has joined no launch.
 */
int asc_tpipe_core_info(struct asc_tpipe *tp, struct asc_event_core_info *info)
{
	struct asc_launch *l;
	int ret = 0;

	memset(info, 0, sizeof(*info));
	asc_tpipe_lock(tp);
	l = tp->launch;
	if (l) {
		info->core = tp->core;
		info->type = asc_launch_core_type(l, tp->core);
		asc_launch_block_of(l, tp->core, &info->block_idx,
				    &info->sub_block_idx);
		info->block_num = l->block_dim;
		info->sub_block_num = l->kind == ASC_EVENT_LAUNCH_MIX &&
				      info->type == ASC_EVENT_CORE_AIV ? 2 : 1;
		info->kind = l->kind;
	} else {
		ret = -ENOTCONN;
	}
	asc_tpipe_unlock(tp);
	return ret;
}

/* The oldest task waiting on @core for cross-core @flag, or NULL. */
static struct asc_waiter *asc_cross_waiter(const struct asc_launch *l,
					   u32 core, u32 flag)
{
	struct asc_tpipe *tp = l->cores[core].tp;

	return tp ? asc_tpipe_find_waiter(tp, ASC_WAIT_CROSS, flag, 0) : NULL;
}

/*
 * Count a completed set of @g: each target's counter goes up by one, or
 * its oldest waiter takes it.  -EOVERFLOW, with nothing changed, when a
 * counter would pass %ASC_EVENT_CROSS_COUNT_MAX.
 */
static int asc_cross_count(struct asc_launch *l,
			   const struct asc_cross_group *g, u32 flag,
			   struct asc_wake_list *wake)
{
	struct asc_waiter *w;
	u32 t;

	for (t = g->target_first; t <= g->target_last; t++) {
		if (!l->cores[t].gone &&
		    l->cores[t].count[flag] >= ASC_EVENT_CROSS_COUNT_MAX &&
		    !asc_cross_waiter(l, t, flag))
			return -EOVERFLOW;
	}
	for (t = g->target_first; t <= g->target_last; t++) {
		if (l->cores[t].gone)
			continue;
		w = asc_cross_waiter(l, t, flag);
		if (w)
			asc_waiter_end(w, ASC_WAIT_DONE, wake);
		else
			l->cores[t].count[flag]++;
	}
	return 0;
}

/* Checked mode's rule for the pipe a cross-core set is issued on. */
static int asc_cross_check_pipe(const struct asc_tpipe *tp, int slot)
{
	int me;

	if (!tp->checked)
		return 0;
	me = asc_tpipe_caller_slot(tp);
	if (me != ASC_SLOT_NONE ? me != slot : asc_tpipe_slot_owned(tp, slot))
		return -EPERM;
	return 0;
}

/**
 * asc_tpipe_cross_set() - CrossCoreSetFlag<mode, pipe>(flag_id).
 * @tp: TPipe, a core of a launch.
 * @args: the ioctl's arguments, @args->flags zero.
 *
 * The set counts once every core of its group has issued it.  In checked
 * mode the caller must stand for @args->pipe, or nobody may.
 *
 * Return: 0, -%EINVAL for a flag ID outside 0..10, a mode the launch or
 * the core does not have, or a pipe that is S or no pipe, -%ENOTCONN when
 * @tp has joined no launch, -%EPERM (checked mode) for the wrong pipe,
 * -%EPIPE when a core of the group has left without issuing it,
 * -%EOVERFLOW when the core has 15 issues waiting for its group, or a
 * target's counter would pass 15.  Nothing is changed on failure.
 */
int asc_tpipe_cross_set(struct asc_tpipe *tp,
			const struct asc_event_cross_set *args)
{
	struct asc_wake_list wake = { .n = 0 };
	u32 flag = args->flag_id, mode = args->mode;
	struct asc_launch_core *me;
	struct asc_cross_group g;
	struct asc_launch *l;
	int slot, ret = 0;
	bool complete;
	u32 m;

	slot = asc_slot_of_pipe(args->pipe);
	if (slot < 0 || slot == ASC_SLOT_S || flag >= ASC_EVENT_CROSS_FLAGS ||
	    mode >= ASC_CROSS_MODES)
		return -EINVAL;

	asc_tpipe_lock(tp);
	l = tp->launch;
	if (!l) {
		ret = -ENOTCONN;
		goto out;
	}
	if (mode && (l->kind != ASC_EVENT_LAUNCH_MIX ||
		     (mode == 1 && asc_launch_core_type(l, tp->core) !=
				   ASC_EVENT_CORE_AIV))) {
		ret = -EINVAL;
		goto out;
	}
	ret = asc_cross_check_pipe(tp, slot);
	if (ret)
		goto out;

	me = &l->cores[tp->core];
	asc_cross_group(l, tp->core, mode, &g);
	complete = true;
	for (m = g.first; m <= g.last; m++) {
		if (m == tp->core || l->cores[m].issued[mode][flag])
			continue;
		if (l->cores[m].gone) {
			ret = -EPIPE;
			goto out;
		}
		complete = false;
	}
	if (!complete) {
		if (me->issued[mode][flag] >= ASC_EVENT_CROSS_COUNT_MAX)
			ret = -EOVERFLOW;
		else
			me->issued[mode][flag]++;
		goto out;
	}
	ret = asc_cross_count(l, &g, flag, &wake);
	if (ret)
		goto out;
	for (m = g.first; m <= g.last; m++) {
		if (m != tp->core)
			l->cores[m].issued[mode][flag]--;
	}
out:
	trace_asc_event_cross_set(tp->serial, l ? l->serial : 0, tp->core,
				  asc_tpipe_caller_slot(tp), flag, mode, ret);
	asc_tpipe_unlock(tp);
	asc_wake_up_all(&wake);
	return ret;
}

/**
 * asc_tpipe_cross_wait() - CrossCoreWaitFlag(flag_id): wait while the
 *	counter of a cross-core flag is 0, then take 1 from it.
 * @tp: TPipe, a core of a launch.
 * @flag: flag ID.
 * @deadline: as for asc_tpipe_wait_flag().
 *
 * Return: 0, -%EINVAL for a flag ID outside 0..10, -%ENOTCONN when @tp
 * has joined no launch, -%EPIPE when no set can ever count on it any more
 * (the cores that would have to issue it have left), and as
 * asc_tpipe_wait_flag() for how a wait ends.
 */
int asc_tpipe_cross_wait(struct asc_tpipe *tp, u32 flag, u64 deadline)
{
	struct asc_waiter w = {
		.task = current,
		.kind = ASC_WAIT_CROSS,
		.event = flag,
		.forever = deadline == ASC_EVENT_WAIT_FOREVER,
		.state = ASC_WAIT_PENDING,
	};
	ktime_t expires = 0, start = 0;
	struct asc_launch *l;
	u8 *count;
	int ret;

	if (flag >= ASC_EVENT_CROSS_FLAGS)
		return -EINVAL;
	if (!w.forever)
		expires = asc_deadline_to_host(deadline);
	if (trace_asc_event_cross_wait_enabled())
		start = ktime_get();

	asc_tpipe_lock(tp);
	l = tp->launch;
	if (!l) {
		asc_tpipe_unlock(tp);
		return -ENOTCONN;
	}
	w.slot = asc_tpipe_caller_slot(tp);
	count = &l->cores[tp->core].count[flag];
	if (*count) {
		(*count)--;
		ret = 0;
	} else if (!asc_cross_may_come(l, tp->core, flag)) {
		ret = -EPIPE;
	} else if (!w.forever && ktime_compare(expires, ktime_get()) <= 0) {
		ret = -ETIMEDOUT;
	} else {
		ret = asc_tpipe_block(tp, &w, expires);
	}
	trace_asc_event_cross_wait(tp->serial, l->serial, tp->core, w.slot,
				   flag, ret, asc_waited_ns(start));
	asc_tpipe_unlock(tp);
	return ret;
}

/**
 * asc_sync_group() - the cores a SyncAll waits for.
 * @l: launch.
 * @aiv: the SyncAll of the AIVs only of a mix launch (in any other launch
 *	it is every core's: pass false).
 * @first: out: the first core.
 * @last: out: the last core.
 */
void asc_sync_group(const struct asc_launch *l, bool aiv, u32 *first,
		    u32 *last)
{
	*first = aiv ? l->block_dim : 0;
	*last = l->ncores - 1;
}

/**
 * asc_sync_group_gone() - whether a core a SyncAll waits for has left.
 * @l: launch.
 * @aiv: as for asc_sync_group().
 *
 * Return: true when that SyncAll can never complete again.
 */
bool asc_sync_group_gone(const struct asc_launch *l, bool aiv)
{
	u32 first, last, c;

	if (!l->nr_gone)
		return false;
	asc_sync_group(l, aiv, &first, &last);
	for (c = first; c <= last; c++) {
		if (l->cores[c].gone)
			return true;
	}
	return false;
}

static bool asc_sync_in_group(const struct asc_launch *l, bool aiv, u32 core)
{
	u32 first, last;

	asc_sync_group(l, aiv, &first, &last);
	return core >= first && core <= last;
}

/*
 * Whether @core, coming to the SyncAll of @aiv, would wait for a core that
 * waits in the other SyncAll, which waits for @core: neither could end.
 */
static bool asc_sync_rounds_cross(const struct asc_launch *l, u32 core,
				  bool aiv)
{
	u32 first, last, c;

	if (!l->nr_synced[!aiv] || !asc_sync_in_group(l, !aiv, core))
		return false;
	asc_sync_group(l, aiv, &first, &last);
	for (c = first; c <= last; c++) {
		if (l->cores[c].synced && l->cores[c].sync_aiv != aiv)
			return true;
	}
	return false;
}

/* End the SyncAll wait of @core, which has reached it (its task to @wake). */
static void asc_sync_end(struct asc_launch *l, u32 core, int state,
			 struct asc_wake_list *wake)
{
	struct asc_launch_core *lc = &l->cores[core];
	struct asc_waiter *w, *tmp;

	lc->synced = false;
	l->nr_synced[lc->sync_aiv]--;
	if (!lc->tp)
		return;
	list_for_each_entry_safe(w, tmp, &lc->tp->waiters, node) {
		if (w->kind == ASC_WAIT_SYNC)
			asc_waiter_end(w, state, wake);
	}
}

/* Every core of the SyncAll of @aiv has reached it: let them go on. */
static void asc_sync_all_done(struct asc_launch *l, bool aiv,
			      struct asc_wake_list *wake)
{
	u32 first, last, c;

	asc_sync_group(l, aiv, &first, &last);
	for (c = first; c <= last; c++) {
		if (l->cores[c].synced && l->cores[c].sync_aiv == aiv)
			asc_sync_end(l, c, ASC_WAIT_DONE, wake);
	}
}

/*
 * The SyncAll @flags ask @tp's core for: -EINVAL for an AIC's SyncAll of
 * the AIVs only (the AICs of a mix launch, every core of a cube launch),
 * else whether it is the AIVs' SyncAll of a mix launch (false: every core).
 */
static int asc_sync_kind(const struct asc_tpipe *tp, u32 flags)
{
	const struct asc_launch *l = tp->launch;

	if (!(flags & ASC_EVENT_SYNC_ALL_AIV_ONLY))
		return 0;
	if (asc_launch_core_type(l, tp->core) != ASC_EVENT_CORE_AIV)
		return -EINVAL;
	return l->kind == ASC_EVENT_LAUNCH_MIX;
}

/**
 * asc_tpipe_sync_all() - SyncAll(): wait until every core of the launch,
 *	or every AIV, has reached it.
 * @tp: TPipe, a core of a launch.
 * @flags: 0 or %ASC_EVENT_SYNC_ALL_AIV_ONLY (the caller checked).
 * @deadline: as for asc_tpipe_wait_flag().
 *
 * Without @flags every core of the launch meets.  With
 * %ASC_EVENT_SYNC_ALL_AIV_ONLY the AIVs meet: in a mix launch without its
 * AICs, in a vector-only launch every core, as without it.  The AICs of a
 * mix launch may meet in theirs while the AIVs meet in this one; an AIV
 * that comes to one while another AIV waits in the other would wait
 * forever (each waits for the other), and fails at once.
 *
 * In checked mode, while a live thread stands for S, only it may call it:
 * the scalar unit runs SyncAll.  A wait that ends in failure leaves the
 * core as if it had not come.
 *
 * Return: 0, -%ENOTCONN when @tp has joined no launch, -%EINVAL for
 * %ASC_EVENT_SYNC_ALL_AIV_ONLY on an AIC (a cube launch has no AIVs; an
 * AIC of a mix launch is no AIV), -%EPERM (checked mode) when another
 * thread stands for S, -%EPIPE when a core it waits for has left (or
 * leaves meanwhile), -%EBUSY when another thread of the core is already
 * there, -%EDEADLK when an AIV it waits for waits in the other SyncAll,
 * and as asc_tpipe_wait_flag() for how a wait ends.  Nothing is changed
 * on failure.
 */
int asc_tpipe_sync_all(struct asc_tpipe *tp, u32 flags, u64 deadline)
{
	struct asc_waiter w = {
		.task = current,
		.kind = ASC_WAIT_SYNC,
		.forever = deadline == ASC_EVENT_WAIT_FOREVER,
		.state = ASC_WAIT_PENDING,
	};
	struct asc_wake_list wake = { .n = 0 };
	ktime_t expires = 0, start = 0;
	struct asc_launch_core *me;
	u32 first, last, aiv = 0;
	struct asc_launch *l;
	int ret;

	if (!w.forever)
		expires = asc_deadline_to_host(deadline);
	if (trace_asc_event_sync_all_enabled())
		start = ktime_get();

	asc_tpipe_lock(tp);
	l = tp->launch;
	if (!l) {
		asc_tpipe_unlock(tp);
		return -ENOTCONN;
	}
	w.slot = asc_tpipe_caller_slot(tp);
	me = &l->cores[tp->core];
	ret = asc_sync_kind(tp, flags);
	if (ret < 0)
		goto out;
	aiv = ret;
	ret = 0;
	asc_sync_group(l, aiv, &first, &last);
	if (tp->checked && w.slot != ASC_SLOT_S &&
	    asc_tpipe_slot_owned(tp, ASC_SLOT_S)) {
		ret = -EPERM;
	} else if (asc_sync_group_gone(l, aiv)) {
		ret = -EPIPE;
	} else if (me->synced) {
		ret = -EBUSY;
	} else if (asc_sync_rounds_cross(l, tp->core, aiv)) {
		ret = -EDEADLK;
	} else if (l->nr_synced[aiv] + 1 == last - first + 1) {
		asc_sync_all_done(l, aiv, &wake);
	} else if (!w.forever && ktime_compare(expires, ktime_get()) <= 0) {
		ret = -ETIMEDOUT;
	} else {
		me->synced = true;
		me->sync_aiv = aiv;
		l->nr_synced[aiv]++;
		ret = asc_tpipe_block(tp, &w, expires);
		if (ret && me->synced) {
			me->synced = false;
			l->nr_synced[aiv]--;
		}
	}
out:
	trace_asc_event_sync_all(tp->serial, l->serial, tp->core, w.slot,
				 flags & ASC_EVENT_SYNC_ALL_AIV_ONLY, ret,
				 asc_waited_ns(start));
	asc_tpipe_unlock(tp);
	asc_wake_up_all(&wake);
	return ret;
}

/**
 * asc_launch_core_reset() - a reset of a core's TPipe: its cross-core
 *	counters and issues are cleared, and it leaves SyncAll.
 * @tp: TPipe, a core of a launch, locked.
 */
void asc_launch_core_reset(struct asc_tpipe *tp)
{
	struct asc_launch_core *me = &tp->launch->cores[tp->core];

	lockdep_assert_held(tp->lockp);

	memset(me->count, 0, sizeof(me->count));
	memset(me->issued, 0, sizeof(me->issued));
	if (me->synced) {
		me->synced = false;
		tp->launch->nr_synced[me->sync_aiv]--;
	}
}

/**
 * asc_tpipe_leave() - a core's TPipe is closed: its part of the launch is
 *	over.
 * @tp: TPipe, a core of a launch, with no waiters, unlocked.
 *
 * Every SyncAll that waits for the core fails with -%EPIPE (in a mix
 * launch an AIC's leaving ends no SyncAll of the AIVs only), as does every
 * cross-core wait no set can count on any more.  The TPipe drops its reference to
 * the launch and goes back to its own lock.
 */
void asc_tpipe_leave(struct asc_tpipe *tp)
{
	struct asc_wake_list wake = { .n = 0 };
	struct asc_launch *l = tp->launch;
	struct asc_waiter *w, *tmp;
	struct asc_tpipe *other;
	u32 c;

	asc_tpipe_lock(tp);
	l->cores[tp->core].tp = NULL;
	l->cores[tp->core].gone = true;
	l->nr_gone++;
	for (c = 0; c < l->ncores; c++) {
		if (l->cores[c].synced &&
		    asc_sync_in_group(l, l->cores[c].sync_aiv, tp->core))
			asc_sync_end(l, c, ASC_WAIT_GONE, &wake);
		other = l->cores[c].tp;
		if (!other)
			continue;
		list_for_each_entry_safe(w, tmp, &other->waiters, node) {
			if (w->kind == ASC_WAIT_CROSS &&
			    !asc_cross_may_come(l, c, w->event))
				asc_waiter_end(w, ASC_WAIT_GONE, &wake);
		}
	}
	trace_asc_event_leave(tp->serial, l->serial, tp->core);
	tp->lockp = &tp->lock;
	spin_unlock(&l->lock);
	asc_wake_up_all(&wake);

	tp->launch = NULL;
	kref_put(&l->ref, asc_launch_free);
}
