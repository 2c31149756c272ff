// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event core logic: event-ID pools, flag set and wait, pipe roles,
 * checked mode, reset.
 *
 * Every operation takes the TPipe's spinlock, validates its (event, id)
 * and, in checked mode, the caller's pipe and the ID's provenance, changes
 * the pool or the emulated flag registers, and drops the lock.  A set that
 * finds a task waiting for its flag hands the flag straight to the oldest
 * such waiter instead of raising it, so one set satisfies exactly one wait
 * however many tasks wait, and a woken waiter never has to race for the
 * flag again.  Waiters are hashed by what they wait for, so a set looks
 * at the few waiters of its bucket, not at every waiter of the TPipe.
 * Whoever ends a wait wakes its task only after dropping the lock (struct
 * asc_wake_list), so that the woken task does not run into the lock its
 * waker still holds.
 *
 * An operation that writes a result to userspace writes it while the lock
 * is held, with page faults disabled, before it changes anything (but
 * ALLOC_ID, which takes its ID first, since userspace may take IDs from a
 * mapped pool too, and gives it back when the write fails): the result
 * and the change it reports are one atomic step for every other ioctl.
 * When the user page is not there the operation changes nothing and
 * returns -EFAULT; the ioctl layer faults the page in and runs it again
 * from the start.  Reports for the kernel log are built under the
 * lock and printed after it is dropped.
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/cred.h>
#include <linux/fault-inject-usercopy.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/nsproxy.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time_namespace.h>
#include <linux/uaccess.h>

#include "asc_event_hw.h"
#include "asc_event_launch.h"
#include "asc_event_report.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

static atomic_t asc_tpipe_serial = ATOMIC_INIT(0);

/*
 * The TPipes, in a cache of their own: sized to the struct (under 1 KiB),
 * not rounded up to the next kmalloc size (1 KiB), and charged to the
 * opener's memory cgroup.
 */
static struct kmem_cache *asc_tpipe_cache;

/**
 * asc_tpipe_cache_init() - create the caches TPipes and their register
 *	blocks are allocated from.
 *
 * Return: 0, or -%ENOMEM.
 */
int asc_tpipe_cache_init(void)
{
	/*
	 * Lock debugging (lockdep, DEBUG_SPINLOCK) makes the locks bigger, and
	 * so does PREEMPT_RT, whose spinlocks are rt_mutexes.
	 */
	BUILD_BUG_ON(!IS_ENABLED(CONFIG_DEBUG_SPINLOCK) &&
		     !IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) &&
		     !IS_ENABLED(CONFIG_PREEMPT_RT) &&
		     sizeof(struct asc_tpipe) > ASC_TPIPE_MAX_SIZE);

	asc_tpipe_cache = KMEM_CACHE(asc_tpipe, SLAB_ACCOUNT);
	if (!asc_tpipe_cache)
		return -ENOMEM;
	if (asc_hw_cache_init()) {
		kmem_cache_destroy(asc_tpipe_cache);
		return -ENOMEM;
	}
	return 0;
}

/** asc_tpipe_cache_exit() - destroy the caches; every TPipe is freed. */
void asc_tpipe_cache_exit(void)
{
	asc_hw_cache_exit();
	kmem_cache_destroy(asc_tpipe_cache);
}

static __always_inline u64 asc_tpipe_id_mask(const struct asc_tpipe *tp)
{
	return GENMASK_ULL(tp->event_ids - 1, 0);
}

/*
 * The pool's words: the TPipe's own until its flags are mapped, then the
 * flag page's (&asc_event_map_flags.ids), which userspace changes too.
 */
static u64 *asc_tpipe_pool_words(struct asc_tpipe *tp)
{
	return tp->mapped ? ((struct asc_event_map_flags *)tp->hw)->ids : tp->pool;
}

/**
 * asc_tpipe_pool() - the allocated IDs of a HardEvent.
 * @tp: TPipe, locked or being destroyed.
 * @event: HardEvent, valid.
 *
 * Return: the pool word, only the bits of the TPipe's IDs (a mapped word
 * holds whatever userspace wrote).
 */
u64 asc_tpipe_pool(const struct asc_tpipe *tp, u32 event)
{
	const struct asc_event_map_flags *f = (const void *)tp->hw;
	const u64 *words = tp->mapped ? f->ids : tp->pool;

	return READ_ONCE(words[event]) & asc_tpipe_id_mask(tp);
}

/**
 * asc_tpipe_pool_read() - the allocated IDs of a TPipe.
 * @tp: TPipe, locked or being destroyed.
 * @out: one word per HardEvent, as asc_tpipe_pool() gives it.
 */
void asc_tpipe_pool_read(const struct asc_tpipe *tp, u64 out[ASC_EVENT_NR_HARD_EVENTS])
{
	unsigned int event;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++)
		out[event] = asc_tpipe_pool(tp, event);
}

/*
 * Take @id of the pool word @word (of asc_tpipe_pool_words()); false when
 * it was taken already (by userspace).
 */
static __always_inline bool asc_pool_word_take(u64 *word, u32 id)
{
	return !(asc_word_update(word, BIT_ULL(id), 0) & BIT_ULL(id));
}

/* Give @id of @event back; false when it was not taken. */
static __always_inline bool asc_tpipe_pool_give(struct asc_tpipe *tp, u32 event, u32 id)
{
	return asc_word_update(&asc_tpipe_pool_words(tp)[event], 0,
			       BIT_ULL(id)) & BIT_ULL(id);
}

/* The IDs a TPipe holds, every pool word emptied when @empty. */
static unsigned int asc_tpipe_pool_count(struct asc_tpipe *tp, bool empty)
{
	u64 *words = asc_tpipe_pool_words(tp);
	unsigned int event, n = 0;
	u64 held;

	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++) {
		held = empty ? asc_word_update(&words[event], 0, ~0ULL) :
			       READ_ONCE(words[event]);
		n += hweight64(held & asc_tpipe_id_mask(tp));
	}
	return n;
}

/*
 * The waiter bit of (@event, @id) of a mapped TPipe, set while a task waits
 * for its flag in the driver; none before the flags are mapped.
 */
static u64 asc_tpipe_waiter_bit(const struct asc_tpipe *tp, u32 id)
{
	return tp->mapped ? ASC_EVENT_MAP_WAITER(id) : 0;
}

/*
 * A wait for (@event, @id) has ended: the waiter bit goes once no task
 * waits for the flag any more.  @tp locked.
 */
static void asc_tpipe_waiter_left(struct asc_tpipe *tp, u32 event, u32 id)
{
	if (tp->mapped && !asc_tpipe_find_waiter(tp, ASC_WAIT_FLAG, event, id))
		asc_hw_flag_update(tp->hw, event, 0, ASC_EVENT_MAP_WAITER(id));
}

/**
 * asc_tpipe_flags_read() - the flags of a TPipe that are set.
 * @tp: TPipe, locked or being destroyed.
 * @out: one word per HardEvent, only the bits of its IDs (whatever
 *	userspace wrote to the mapped registers).
 */
void asc_tpipe_flags_read(struct asc_tpipe *tp,
			  u64 out[ASC_EVENT_NR_HARD_EVENTS])
{
	asc_hw_flags_read(tp->hw, asc_tpipe_id_mask(tp), out);
}

/**
 * asc_tpipe_check() - whether (@event, @id) exist on a TPipe.
 * @tp: TPipe.
 * @event: HardEvent from userspace.
 * @id: event ID from userspace.
 *
 * Return: 0, or -%EINVAL.
 */
int asc_tpipe_check(const struct asc_tpipe *tp, u32 event, u32 id)
{
	if (event >= ASC_EVENT_NR_HARD_EVENTS || id >= tp->event_ids)
		return -EINVAL;
	return 0;
}

/**
 * asc_tpipe_caller_slot() - the pipe slot the calling thread is bound to.
 * @tp: TPipe, locked.
 *
 * Return: the slot, or %ASC_SLOT_NONE.
 */
int asc_tpipe_caller_slot(const struct asc_tpipe *tp)
{
	struct pid *me = task_pid(current);
	int slot;

	lockdep_assert_held(tp->lockp);

	for (slot = 0; slot < ASC_NR_PIPES; slot++) {
		if (tp->slots[slot].pid == me)
			return slot;
	}
	return ASC_SLOT_NONE;
}

/* Whether the thread of a bound slot still runs (has not begun to exit). */
static bool asc_pid_alive(struct pid *pid)
{
	struct task_struct *task;
	bool alive;

	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_PID);
	alive = task && !(task->flags & PF_EXITING);
	rcu_read_unlock();
	return alive;
}

/**
 * asc_tpipe_slot_owned() - whether a live thread stands for a pipe.
 * @tp: TPipe, locked.
 * @slot: pipe slot.
 *
 * Return: true when a thread is bound to @slot and has not begun to exit:
 * that pipe's sets and waits are then its alone (checked mode).
 */
bool asc_tpipe_slot_owned(const struct asc_tpipe *tp, int slot)
{
	lockdep_assert_held(tp->lockp);

	return tp->slots[slot].pid && asc_pid_alive(tp->slots[slot].pid);
}

/*
 * Checked mode: the pipe that issues a set is the HardEvent's source, the
 * pipe that issues a wait its destination, and a bound caller must be that
 * pipe.  An unbound caller may set only while no live thread owns the
 * source pipe (it may always wait).
 */
static int asc_tpipe_check_role(const struct asc_tpipe *tp, int slot,
				u32 event, bool set)
{
	const struct asc_hard_event_info *info = &asc_hard_events[event];
	int pipe = set ? info->src : info->dst;

	lockdep_assert_held(tp->lockp);

	if (!tp->checked)
		return 0;
	if (slot != ASC_SLOT_NONE ? slot != pipe :
				    set && asc_tpipe_slot_owned(tp, pipe))
		return -EPERM;
	return 0;
}

/**
 * asc_tpipe_check_id() - checked mode's verdict on where an ID came from.
 * @tp: TPipe, locked.
 * @event: HardEvent, valid.
 * @id: event ID, valid.
 * @handwritten: out: checked mode, and @id is neither allocated nor the
 *	last one fetched for @event.
 *
 * A hand-written ID is legal, as in Ascend C, unless the TPipe is strict.
 *
 * Return: 0, or -%ENOENT for a hand-written ID in strict mode.
 */
int asc_tpipe_check_id(const struct asc_tpipe *tp, u32 event, u32 id,
		       bool *handwritten)
{
	lockdep_assert_held(tp->lockp);

	*handwritten = tp->checked && !(asc_tpipe_pool(tp, event) & BIT_ULL(id)) &&
		       tp->fetched[event] != (int)id;
	return *handwritten && tp->strict_ids ? -ENOENT : 0;
}

/**
 * asc_tpipe_put_user() - write a result to userspace with @tp locked.
 * @tp: TPipe, locked.
 * @dst: where.
 * @src: what.
 * @size: how much.
 *
 * Page faults are disabled, so a user page that is not there fails the
 * copy instead of sleeping.
 *
 * Return: 0, or -%EFAULT.
 */
int asc_tpipe_put_user(const struct asc_tpipe *tp, void __user *dst,
		       const void *src, size_t size)
{
	lockdep_assert_held(tp->lockp);

	if (should_fail_usercopy() || copy_to_user_nofault(dst, src, size))
		return -EFAULT;
	return 0;
}

/**
 * asc_tpipe_create() - create an empty TPipe owned by the calling task.
 * @event_ids: IDs per HardEvent, 1..%ASC_EVENT_IDS_MAX.
 * @mode: ASC_EVENT_MODE_* bits to start with.
 *
 * The owner is the calling process (named after its main thread, even
 * when another of its threads opens the device) and its user.
 *
 * Return: the TPipe, or NULL when out of memory.
 */
struct asc_tpipe *asc_tpipe_create(unsigned int event_ids, u32 mode)
{
	struct asc_tpipe *tp;
	unsigned int i;

	tp = kmem_cache_zalloc(asc_tpipe_cache, GFP_KERNEL_ACCOUNT);
	if (!tp)
		return NULL;

	spin_lock_init(&tp->lock);
	tp->lockp = &tp->lock;
	INIT_LIST_HEAD(&tp->waiters);
	for (i = 0; i < ARRAY_SIZE(tp->waiter_hash); i++)
		INIT_LIST_HEAD(&tp->waiter_hash[i]);
	tp->event_ids = event_ids;
	tp->checked = mode & ASC_EVENT_MODE_CHECKED;
	tp->strict_ids = mode & ASC_EVENT_MODE_STRICT_IDS;
	tp->next_ticket = 1;
	memset(tp->fetched, -1, sizeof(tp->fetched));
	tp->owner.tgid = task_tgid_nr(current);
	tp->owner.uid = from_kuid_munged(&init_user_ns, current_uid());
	get_task_comm(tp->owner.comm, current->group_leader);
	tp->quota = asc_report_quota_get(current_uid());
	tp->hw = asc_hw_core_alloc();
	tp->handset = bitmap_zalloc(ASC_EVENT_NR_HARD_EVENTS * event_ids,
				    GFP_KERNEL_ACCOUNT);
	if (!tp->quota || !tp->hw || !tp->handset) {
		asc_tpipe_destroy(tp);
		return NULL;
	}
	tp->serial = atomic_inc_return(&asc_tpipe_serial);
	return tp;
}

/**
 * asc_tpipe_destroy() - free a TPipe and its register block.
 * @tp: TPipe, possibly half-built by asc_tpipe_create(), with no waiters.
 *
 * IDs still allocated and flags still set are reported as a leak.
 */
void asc_tpipe_destroy(struct asc_tpipe *tp)
{
	struct asc_tpipe_leftovers left = {};
	int slot;

	WARN_ON(!list_empty(&tp->waiters));
	if (tp->launch)
		asc_tpipe_leave(tp);
	if (tp->hw)
		asc_stat_add(ASC_STAT_FAST_OPS, asc_tpipe_fast_ops(tp));
	if (tp->hw && tp->quota) {
		left.ids_held = asc_tpipe_pool_count(tp, false);
		left.flags_pending = asc_hw_flags_count(tp->hw,
							asc_tpipe_id_mask(tp));
		asc_report_emit(asc_tpipe_leak_report(tp, true, &left));
	}
	for (slot = 0; slot < ASC_NR_PIPES; slot++)
		put_pid(tp->slots[slot].pid);
	asc_report_quota_put(tp->quota);
	asc_tpipe_unmap(tp);
	bitmap_free(tp->handset);
	kfree(tp->queues);
	kmem_cache_free(asc_tpipe_cache, tp);
}

/*
 * The lowest free ID of the pool word @word (of asc_tpipe_pool_words()) in
 * *@id, or -ENOSPC; @tp locked.
 */
static __always_inline int asc_tpipe_lowest_free(const struct asc_tpipe *tp,
						 const u64 *word, u32 *id)
{
	u64 free;

	free = ~READ_ONCE(*word) & asc_tpipe_id_mask(tp);
	if (!free)
		return -ENOSPC;
	*id = __ffs64(free);
	return 0;
}

/*
 * Whether hand-written code may use (@event, @id), both valid: the part of
 * asc_tpipe_handwritten_use() that makes no call, so that an alloc or
 * fetch looks for a use only where one may be.  Any waiter in the bucket
 * of (@event, @id) counts, hand-written or not; so does any instruction
 * issued on any pipe.  @tp locked.
 */
static __always_inline bool asc_tpipe_handwritten_maybe(struct asc_tpipe *tp,
							u32 event, u32 id)
{
	int s;

	if (test_bit(asc_handset_bit(tp, event, id), tp->handset))
		return true;
	if (!list_empty(asc_waiter_bucket(tp, ASC_WAIT_FLAG, event, id)))
		return true;
	for (s = 0; tp->queues && s < ASC_NR_PIPES; s++) {
		if (tp->queues[s].count)
			return true;
	}
	return false;
}

/*
 * Checked mode, not strict: an ID that alloc or fetch is about to hand out
 * must not be in use by hand-written code.  Returns the report of such a
 * collision, to print once unlocked, in *@report.
 */
static int asc_tpipe_check_collision(struct asc_tpipe *tp, const char *what,
				     u32 event, u32 id,
				     struct asc_report **report)
{
	const char *use;
	int slot;

	lockdep_assert_held(tp->lockp);

	if (!tp->checked || tp->strict_ids)
		return 0;
	use = asc_tpipe_handwritten_use(tp, event, id, &slot);
	if (!use)
		return 0;
	asc_stat_add(ASC_STAT_ID_COLLISIONS, 1);
	*report = asc_report_start(tp->quota, ASC_REPORT_COLLISION);
	asc_report_warn(*report, "TPipe %u (%s[%d]): %s of %s would hand out ID %u, which hand-written code uses: %s on %s",
			tp->serial, tp->owner.comm, tp->owner.tgid, what,
			asc_hard_event_name(event), id, use, asc_slot_name(slot));
	return -EADDRINUSE;
}

/*
 * asc_tpipe_put_user() for the ID ALLOC_ID and FETCH_ID hand out: one
 * put_user() of a known size, without the generic copy's checks of the
 * source object.
 */
static int asc_tpipe_put_id(const struct asc_tpipe *tp, u32 __user *uid, u32 id)
{
	int ret;

	lockdep_assert_held(tp->lockp);

	if (should_fail_usercopy())
		return -EFAULT;
	pagefault_disable();
	ret = put_user(id, uid);
	pagefault_enable();
	return ret ? -EFAULT : 0;
}

/*
 * ALLOC_ID (@take) or FETCH_ID of @event ended with @ret, @id written to
 * userspace when @ret is 0 (and taken already by an alloc): remember a
 * fetched @id, and trace the call.
 */
static __always_inline void asc_tpipe_commit_id(struct asc_tpipe *tp, u32 event,
						u32 id, bool take, int ret)
{
	lockdep_assert_held(tp->lockp);

	if (!ret && !take)
		tp->fetched[event] = id;
	if (!ret)
		asc_tpipe_state_sync_event(tp, event);
	if (take && trace_asc_event_alloc_enabled())
		trace_asc_event_alloc(tp->serial, asc_tpipe_caller_slot(tp),
				      event, id, ret);
	else if (!take && trace_asc_event_fetch_enabled())
		trace_asc_event_fetch(tp->serial, asc_tpipe_caller_slot(tp),
				      event, id, ret);
}

/*
 * How often ALLOC_ID looks for a free ID again when userspace took each
 * one it found before the driver could: a process that races its own
 * mapped pool that hard gets -EAGAIN, not a kernel spinning under a lock.
 */
#define ASC_TPIPE_TAKE_TRIES	64

/*
 * ALLOC_ID (@take) and FETCH_ID of a valid @event, @tp locked: the lowest
 * free ID in *@id, taken by an alloc.  @words is asc_tpipe_pool_words(),
 * @collisions whether checked mode refuses an ID hand-written code uses
 * (checked, not strict), both read before any user access window: UBSAN
 * checks a bool loaded there with a call.  The ID hand-written code uses
 * is refused, its report in *@report.  Returns 0, -ENOSPC, -EADDRINUSE or
 * -EAGAIN.
 *
 * With @report NULL it makes no call, as in a user access window: where
 * hand-written code may use the ID it returns -EXDEV, nothing taken, for
 * the caller to look again with a @report once the window is closed.
 */
static __always_inline int asc_tpipe_pick_id(struct asc_tpipe *tp, u64 *words,
					     bool collisions, u32 event, bool take,
					     u32 *id, struct asc_report **report)
{
	int tries, ret;

	for (tries = 0; tries < ASC_TPIPE_TAKE_TRIES; tries++) {
		ret = asc_tpipe_lowest_free(tp, &words[event], id);
		if (!ret && collisions && asc_tpipe_handwritten_maybe(tp, event, *id))
			ret = !report ? -EXDEV :
			      asc_tpipe_check_collision(tp, take ? "ALLOC_ID" : "FETCH_ID",
							event, *id, report);
		if (ret || !take || asc_pool_word_take(&words[event], *id))
			return ret;
	}
	return -EAGAIN;
}

/* asc_tpipe_pick_id() with a @report, outside a user access window. */
static __always_inline int asc_tpipe_choose_id(struct asc_tpipe *tp, u32 event,
					       bool take, u32 *id,
					       struct asc_report **report)
{
	lockdep_assert_held(tp->lockp);

	return asc_tpipe_pick_id(tp, asc_tpipe_pool_words(tp),
				 tp->checked && !tp->strict_ids, event, take,
				 id, report);
}

/*
 * ALLOC_ID (@take) and FETCH_ID: the lowest free ID of @event, written to
 * @uid; an alloc gives it back when it could not be written.
 */
static int asc_tpipe_id_to_user(struct asc_tpipe *tp, u32 event,
				u32 __user *uid, bool take)
{
	struct asc_report *report = NULL;
	int ret = -EINVAL;
	u32 id = 0;

	asc_tpipe_lock(tp);
	if (event < ASC_EVENT_NR_HARD_EVENTS)
		ret = asc_tpipe_choose_id(tp, event, take, &id, &report);
	if (!ret) {
		ret = asc_tpipe_put_id(tp, uid, id);
		if (ret && take)
			asc_tpipe_pool_give(tp, event, id);
	}
	if (ret != -EFAULT)
		asc_tpipe_commit_id(tp, event, id, take, ret);
	asc_tpipe_unlock(tp);
	if (unlikely(report))
		asc_report_emit(report);
	return ret;
}

/*
 * One user access window, page faults disabled: write @id to @uid.
 * Returns 0, or -EFAULT when @uid could not be written.
 */
static int asc_ref_write_id_nofault(u32 __user *uid, u32 id)
{
	if (!user_access_begin(uid, sizeof(*uid)))
		return -EFAULT;
	unsafe_put_user(id, uid, fault);
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/*
 * ALLOC_ID (@take) or FETCH_ID in one user access window, @tp locked and
 * page faults disabled: read @uref into *@ref, choose the ID (and take
 * it) and write it.  Returns what asc_tpipe_pick_id() returns without a
 * report, -EINVAL for a reference that is not good, -EFAULT when @uref
 * could not be read, or -EAGAIN, nothing taken, when the ID could not be
 * written.
 */
static __always_inline int asc_tpipe_id_window(struct asc_tpipe *tp,
					       struct asc_event_ref __user *uref,
					       bool take, struct asc_event_ref *ref)
{
	bool collisions = tp->checked && !tp->strict_ids;
	u64 *words = asc_tpipe_pool_words(tp);
	int ret = -EINVAL;

	lockdep_assert_held(tp->lockp);

	if (!user_access_begin(uref, sizeof(*uref)))
		return -EFAULT;
	unsafe_get_user(ref->event, &uref->event, fault);
	unsafe_get_user(ref->flags, &uref->flags, fault);
	unsafe_get_user(ref->pad, &uref->pad, fault);
	if (!ref->flags && !ref->pad && ref->event < ASC_EVENT_NR_HARD_EVENTS)
		ret = asc_tpipe_pick_id(tp, words, collisions, ref->event, take,
					&ref->id, NULL);
	if (!ret)
		unsafe_put_user(ref->id, &uref->id, fault_taken);
	user_access_end();
	return ret;
fault_taken:
	user_access_end();
	if (take)
		asc_tpipe_pool_give(tp, ref->event, ref->id);
	return -EAGAIN;
fault:
	user_access_end();
	return -EFAULT;
}

/**
 * asc_tpipe_id_one_access() - ALLOC_ID or FETCH_ID without a copy of the
 *	whole reference.
 * @tp: TPipe.
 * @uref: the caller's struct asc_event_ref.
 * @take: ALLOC_ID, else FETCH_ID.
 *
 * The reference is read and the ID chosen, taken and written in one user
 * access window, under the lock with page faults disabled, where the
 * general way (the reference read, then asc_tpipe_alloc_id() or
 * asc_tpipe_fetch_id()) opens two.  When checked mode must look for a
 * hand-written use of the ID, which makes calls, the window closes before
 * the look and another writes the ID.  Under an emulator each window
 * costs about as much as the rest of the call (Documentation/performance.rst).
 *
 * Return: what the general way returns, -%EINVAL also for flags or pad
 * not zero, -%EFAULT with nothing changed when a user-copy fault is
 * injected (fail_usercopy: the general way's copy in would fail so); or
 * -%EAGAIN, with nothing changed and nothing traced, when @uref is not in
 * memory: the caller then takes the general way.
 */
int asc_tpipe_id_one_access(struct asc_tpipe *tp,
			    struct asc_event_ref __user *uref, bool take)
{
	struct asc_report *report = NULL;
	struct asc_event_ref ref;
	int ret;

	if (should_fail_usercopy())
		return -EFAULT;
	asc_tpipe_lock(tp);
	pagefault_disable();
	ret = asc_tpipe_id_window(tp, uref, take, &ref);
	if (ret == -EXDEV) {
		ret = asc_tpipe_choose_id(tp, ref.event, take, &ref.id, &report);
		if (!ret && asc_ref_write_id_nofault(&uref->id, ref.id)) {
			if (take)
				asc_tpipe_pool_give(tp, ref.event, ref.id);
			ret = -EAGAIN;
		}
	}
	pagefault_enable();
	if (ret == -EFAULT || ret == -EAGAIN) {
		asc_tpipe_unlock(tp);
		return -EAGAIN;
	}
	if (ret != -EINVAL || (!ref.flags && !ref.pad))
		asc_tpipe_commit_id(tp, ref.event, ret ? 0 : ref.id, take, ret);
	asc_tpipe_unlock(tp);
	if (unlikely(report))
		asc_report_emit(report);
	return ret;
}

/**
 * asc_tpipe_alloc_id() - take the lowest free ID of a HardEvent.
 * @tp: TPipe.
 * @event: HardEvent.
 * @uid: where in userspace the ID goes.
 *
 * The ID is taken only once it is written to @uid.
 *
 * Return: 0, -%EINVAL for a bad @event, -%ENOSPC when every ID is taken,
 * -%EADDRINUSE (checked mode, not strict) when hand-written code uses the
 * lowest free ID, -%EFAULT when @uid could not be written without a page
 * fault.  Nothing is changed on failure.
 */
int asc_tpipe_alloc_id(struct asc_tpipe *tp, u32 event, u32 __user *uid)
{
	return asc_tpipe_id_to_user(tp, event, uid, true);
}

/**
 * asc_tpipe_fetch_id() - report the lowest free ID without taking it.
 * @tp: TPipe.
 * @event: HardEvent.
 * @uid: where in userspace the ID goes.
 *
 * Checked mode lets sets and waits use the last fetched ID of @event until
 * the next fetch of @event or a reset.  The ID is remembered only once it
 * is written to @uid, in the same step.
 *
 * Return: as asc_tpipe_alloc_id().
 */
int asc_tpipe_fetch_id(struct asc_tpipe *tp, u32 event, u32 __user *uid)
{
	return asc_tpipe_id_to_user(tp, event, uid, false);
}

/**
 * asc_tpipe_release_id() - give an allocated ID back.
 * @tp: TPipe.
 * @event: HardEvent.
 * @id: the ID.
 *
 * Return: 0, -%EINVAL for a bad @event or @id, -%ENOENT when @id is not
 * allocated.
 */
int asc_tpipe_release_id(struct asc_tpipe *tp, u32 event, u32 id)
{
	int ret;

	asc_tpipe_lock(tp);
	ret = asc_tpipe_check(tp, event, id);
	if (!ret && !asc_tpipe_pool_give(tp, event, id))
		ret = -ENOENT;
	if (!ret)
		asc_tpipe_state_sync_event(tp, event);
	if (trace_asc_event_release_enabled())
		trace_asc_event_release(tp->serial, asc_tpipe_caller_slot(tp),
					event, id, ret);
	asc_tpipe_unlock(tp);
	return ret;
}

/**
 * asc_tpipe_find_waiter() - the oldest wait for (@kind, @event, @id).
 * @tp: TPipe, locked.
 * @kind: enum asc_wait_kind.
 * @event: HardEvent, or cross-core flag ID; 0 for SyncAll.
 * @id: event ID; 0 unless @kind is %ASC_WAIT_FLAG.
 *
 * Return: the waiter, or NULL when no task waits for it.
 */
struct asc_waiter *asc_tpipe_find_waiter(struct asc_tpipe *tp, u8 kind,
					 u32 event, u32 id)
{
	struct asc_waiter *w;

	lockdep_assert_held(tp->lockp);

	list_for_each_entry(w, asc_waiter_bucket(tp, kind, event, id), hnode) {
		if (w->kind == kind && w->event == event && w->id == id)
			return w;
	}
	return NULL;
}

/**
 * asc_waiter_end() - end a wait: take it off its lists and queue its task
 *	to be woken.
 * @w: a pending wait, its TPipe locked.
 * @state: how it ended: enum asc_wait_state.
 * @wake: where the task goes; asc_wake_up_all() wakes it once the TPipe
 *	is unlocked.  @w is not touched after this returns.
 */
void asc_waiter_end(struct asc_waiter *w, int state, struct asc_wake_list *wake)
{
	struct task_struct *task = w->task;

	list_del_init(&w->node);
	list_del_init(&w->hnode);
	WRITE_ONCE(w->state, state);
	if (wake->n == ARRAY_SIZE(wake->task)) {
		wake_up_process(task);
		return;
	}
	get_task_struct(task);
	wake->task[wake->n++] = task;
}

/**
 * asc_wake_up_all() - wake the tasks whose waits asc_waiter_end() ended.
 * @wake: the list, filled under a TPipe's lock; empty on return.
 *
 * Call with no TPipe locked.  A task that already saw its wait end and
 * went on gets a spurious wake-up, which every sleep of the driver
 * tolerates.
 */
void asc_wake_up_all(struct asc_wake_list *wake)
{
	unsigned int i;

	for (i = 0; i < wake->n; i++) {
		wake_up_process(wake->task[i]);
		put_task_struct(wake->task[i]);
	}
	wake->n = 0;
}

/**
 * asc_tpipe_raise() - set the flag of (@event, @id), or hand it to a waiter.
 * @tp: TPipe, locked.
 * @event: HardEvent, valid.
 * @id: event ID, valid.
 * @handwritten: the set used a hand-written ID (checked mode).
 * @wake: where a waiter's task goes, to be woken once @tp is unlocked.
 *
 * The oldest task waiting for the flag, if any, consumes it at once.
 *
 * Return: 0, or -%EBUSY when the flag is already set (nothing changes).
 */
int asc_tpipe_raise(struct asc_tpipe *tp, u32 event, u32 id, bool handwritten,
		    struct asc_wake_list *wake)
{
	struct asc_waiter *w;

	lockdep_assert_held(tp->lockp);

	if (asc_hw_flag_test(tp->hw, event, id))
		return -EBUSY;
	w = asc_tpipe_find_waiter(tp, ASC_WAIT_FLAG, event, id);
	if (w) {
		asc_waiter_end(w, ASC_WAIT_DONE, wake);
		asc_tpipe_waiter_left(tp, event, id);
		return 0;
	}
	if (!asc_hw_flag_raise(tp->hw, event, id))
		return -EBUSY;
	if (handwritten)
		__set_bit(asc_handset_bit(tp, event, id), tp->handset);
	return 0;
}

/**
 * asc_tpipe_set_flag() - set the flag of (@event, @id); never blocks.
 * @tp: TPipe.
 * @event: HardEvent.
 * @id: event ID.
 *
 * The oldest task waiting for the flag, if any, consumes it at once.
 *
 * Return: 0, -%EINVAL for a bad @event or @id, -%EPERM (checked mode) when
 * the caller is bound to a pipe other than @event's source, or is not
 * bound while a live thread owns @event's source pipe, -%ENOENT
 * (checked mode, strict) when @id is neither allocated nor the last one
 * fetched, -%EBUSY when the flag is already set (undefined on the
 * hardware; nothing is changed).
 */
int asc_tpipe_set_flag(struct asc_tpipe *tp, u32 event, u32 id)
{
	struct asc_wake_list wake = { .n = 0 };
	bool handwritten;
	int slot, ret;

	asc_tpipe_lock(tp);
	slot = asc_tpipe_caller_slot(tp);
	ret = asc_tpipe_check(tp, event, id);
	if (!ret)
		ret = asc_tpipe_check_role(tp, slot, event, true);
	if (!ret)
		ret = asc_tpipe_check_id(tp, event, id, &handwritten);
	if (!ret)
		ret = asc_tpipe_raise(tp, event, id, handwritten, &wake);
	trace_asc_event_set(tp->serial, slot, event, id, ret);
	asc_tpipe_unlock(tp);
	if (wake.n)
		asc_wake_up_all(&wake);
	return ret;
}

/*
 * Sleep until the wait is ended by a set, a reset or the deadlock
 * detector, the absolute CLOCK_MONOTONIC @deadline passes (never if NULL),
 * or a signal arrives.
 */
static int asc_waiter_sleep(struct asc_waiter *w, ktime_t *deadline)
{
	int ret = 0;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(w->state) != ASC_WAIT_PENDING)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (!schedule_hrtimeout(deadline, HRTIMER_MODE_ABS)) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	__set_current_state(TASK_RUNNING);
	return ret;
}

/**
 * asc_deadline_to_host() - a deadline of the caller's time namespace on the
 *	host's CLOCK_MONOTONIC.
 * @deadline: absolute CLOCK_MONOTONIC ns in the caller's time namespace;
 *	not %ASC_EVENT_WAIT_FOREVER.
 *
 * The namespace of a task on the host has zero offsets.
 *
 * Return: the same instant on the host's clock, clamped to its range.
 */
ktime_t asc_deadline_to_host(u64 deadline)
{
	ktime_t offset = timespec64_to_ktime(current->nsproxy->time_ns->offsets.monotonic);
	ktime_t t = deadline > KTIME_MAX ? KTIME_MAX : (ktime_t)deadline;

	if (offset > 0 && t < offset)
		return 0;
	if (offset < 0 && t > KTIME_MAX + offset)
		return KTIME_MAX;
	return t - offset;
}

/*
 * Whether the flag wait @w, just stuck in its slot, can end the plain way:
 * the source pipe of its HardEvent on the same core is not stuck and may
 * still set the flag.  The first test of asc_tpipe_end_deadlocked(),
 * inline, so that the wait of a handoff makes no call to the detector.
 */
static bool asc_flag_wait_may_end(const struct asc_tpipe *tp,
				  const struct asc_waiter *w)
{
	return w->kind == ASC_WAIT_FLAG &&
	       !asc_tpipe_slot_stuck(tp, asc_hard_events[w->event].src);
}

/**
 * asc_tpipe_block() - block in a wait until it ends.
 * @tp: TPipe, locked; still locked on return, though dropped meanwhile.
 * @w: the wait, on the caller's stack, not yet on any list.
 * @expires: its deadline on the host's clock, unless @w waits forever.
 *
 * A bound thread's forever wait in checked mode runs deadlock detection
 * first.  A flag wait that a set ended (asc_tpipe_raise()) finds its
 * waiter bit already dealt with by that set; any other end of a flag wait
 * drops the bit here once no task waits for the flag.
 *
 * Return: 0 when the wait was satisfied, -%ECANCELED (reset), -%EDEADLK,
 * -%EPIPE (a core it needed left the launch), -%ETIMEDOUT, -%ERESTARTSYS.
 */
int asc_tpipe_block(struct asc_tpipe *tp, struct asc_waiter *w,
		    ktime_t expires)
{
	struct asc_wake_list wake = { .n = 0 };
	struct asc_report *report = NULL;
	int ret;

	list_add_tail(&w->node, &tp->waiters);
	list_add_tail(&w->hnode, asc_waiter_bucket(tp, w->kind, w->event, w->id));
	if (w->slot != ASC_SLOT_NONE) {
		tp->slots[w->slot].wait = w;
		if (w->forever && tp->checked && !asc_flag_wait_may_end(tp, w))
			report = asc_tpipe_end_deadlocked(tp, w, &wake);
	}
	asc_tpipe_unlock(tp);

	asc_wake_up_all(&wake);
	asc_report_emit(report);
	ret = asc_waiter_sleep(w, w->forever ? NULL : &expires);

	asc_tpipe_lock(tp);
	if (w->slot != ASC_SLOT_NONE)
		tp->slots[w->slot].wait = NULL;
	if (w->state == ASC_WAIT_PENDING) {
		list_del(&w->node);
		list_del(&w->hnode);
	}
	if (w->kind == ASC_WAIT_FLAG && w->state != ASC_WAIT_DONE)
		asc_tpipe_waiter_left(tp, w->event, w->id);
	switch (w->state) {
	case ASC_WAIT_DONE:
		return 0;
	case ASC_WAIT_CANCELED:
		return -ECANCELED;
	case ASC_WAIT_DEADLOCK:
		return -EDEADLK;
	case ASC_WAIT_GONE:
		return -EPIPE;
	default:
		return ret;
	}
}

/**
 * asc_tpipe_wait_locked() - consume the flag @w waits for, or block for it.
 * @tp: TPipe, locked; still locked on return, though dropped meanwhile.
 * @w: the wait, on the caller's stack, not yet on any list.
 * @expires: its deadline on the host's clock, unless @w waits forever.
 *
 * On a mapped TPipe the test of the flag and the waiter bit that makes
 * userspace's sets of it ask the driver are one atomic step: a set that
 * lands in between is consumed here instead.
 *
 * Return: as asc_tpipe_wait_flag(), after its checks.
 */
int asc_tpipe_wait_locked(struct asc_tpipe *tp, struct asc_waiter *w,
			  ktime_t expires)
{
	bool expired;
	u64 waiter;

	lockdep_assert_held(tp->lockp);

	expired = !w->forever && ktime_compare(expires, ktime_get()) <= 0;
	waiter = expired ? 0 : asc_tpipe_waiter_bit(tp, w->id);
	if (asc_hw_flag_take(tp->hw, w->event, w->id, waiter)) {
		__clear_bit(asc_handset_bit(tp, w->event, w->id), tp->handset);
		return 0;
	}
	if (expired)
		return -ETIMEDOUT;
	return asc_tpipe_block(tp, w, expires);
}

/**
 * asc_tpipe_wait_flag() - wait for the flag of (@event, @id) and consume it.
 * @tp: TPipe.
 * @event: HardEvent.
 * @id: event ID.
 * @deadline: absolute CLOCK_MONOTONIC ns of the caller's time namespace;
 *	%ASC_EVENT_WAIT_FOREVER never expires; a past time does not sleep.
 *
 * A wait that has consumed its flag succeeds even if a signal is pending.
 * In checked mode, a forever wait of a bound thread that closes a cycle of
 * bound threads waiting forever on one another fails every wait of the
 * cycle.
 *
 * Return: 0 when the flag was consumed, -%EINVAL for a bad @event or @id,
 * -%EPERM or -%ENOENT as for asc_tpipe_set_flag() (destination pipe),
 * -%ETIMEDOUT at the deadline, -%ERESTARTSYS on a signal, -%ECANCELED when
 * a reset ended the wait, -%EDEADLK when nothing can ever end it.
 */
int asc_tpipe_wait_flag(struct asc_tpipe *tp, u32 event, u32 id, u64 deadline)
{
	struct asc_waiter w = {
		.task = current,
		.event = event,
		.id = id,
		.forever = deadline == ASC_EVENT_WAIT_FOREVER,
		.state = ASC_WAIT_PENDING,
	};
	ktime_t expires = 0, start = 0;
	int ret;

	if (!w.forever)
		expires = asc_deadline_to_host(deadline);

	asc_tpipe_lock(tp);
	w.slot = asc_tpipe_caller_slot(tp);
	ret = asc_tpipe_check(tp, event, id);
	if (!ret)
		ret = asc_tpipe_check_role(tp, w.slot, event, false);
	if (!ret)
		ret = asc_tpipe_check_id(tp, event, id, &w.handwritten);
	if (ret) {
		asc_tpipe_unlock(tp);
		return ret;
	}

	if (trace_asc_event_wait_end_enabled())
		start = ktime_get();
	trace_asc_event_wait_start(tp->serial, w.slot, event, id, w.forever);
	ret = asc_tpipe_wait_locked(tp, &w, expires);
	trace_asc_event_wait_end(tp->serial, w.slot, event, id, ret,
				 asc_waited_ns(start));
	asc_tpipe_unlock(tp);
	return ret;
}

/**
 * asc_tpipe_reset() - release every ID, clear every flag, cancel every wait.
 * @tp: TPipe.
 * @args: the ioctl's arguments; its leftover counts are filled in.
 * @uargs: where in userspace @args goes.
 *
 * Every task blocked in a wait on @tp returns -%ECANCELED, and every
 * issued instruction not yet run is dropped.  The last fetched IDs are
 * forgotten; pipe bindings and the mode stay.  Leftovers
 * are reported as a leak.  The reset happens only once its counts are
 * written to @uargs.
 *
 * Return: 0, or -%EFAULT when @uargs could not be written without a page
 * fault (nothing is changed).
 */
int asc_tpipe_reset(struct asc_tpipe *tp, struct asc_event_reset *args,
		    struct asc_event_reset __user *uargs)
{
	struct asc_wake_list wake = { .n = 0 };
	struct asc_tpipe_leftovers left = {};
	struct asc_report *report;
	struct asc_waiter *w, *tmp;

	asc_tpipe_lock(tp);
	left.ids_held = asc_tpipe_pool_count(tp, false);
	left.flags_pending = asc_hw_flags_count(tp->hw, asc_tpipe_id_mask(tp));
	args->ids_held = left.ids_held;
	args->flags_pending = left.flags_pending;
	if (asc_tpipe_put_user(tp, uargs, args, sizeof(*args))) {
		asc_tpipe_unlock(tp);
		return -EFAULT;
	}

	report = asc_tpipe_leak_report(tp, false, &left);
	asc_tpipe_pool_count(tp, true);
	memset(tp->fetched, -1, sizeof(tp->fetched));
	bitmap_zero(tp->handset, ASC_EVENT_NR_HARD_EVENTS * tp->event_ids);
	asc_hw_flags_clear_all(tp->hw, asc_tpipe_id_mask(tp));
	asc_tpipe_state_sync(tp);
	asc_tpipe_queues_clear(tp);
	if (tp->launch)
		asc_launch_core_reset(tp);
	list_for_each_entry_safe(w, tmp, &tp->waiters, node)
		asc_waiter_end(w, ASC_WAIT_CANCELED, &wake);
	trace_asc_event_reset(tp->serial, left.ids_held, left.flags_pending);
	asc_tpipe_unlock(tp);
	asc_wake_up_all(&wake);

	asc_report_emit(report);
	return 0;
}

/**
 * asc_tpipe_bind() - the calling thread stands for a pipe.
 * @tp: TPipe.
 * @pipe: ASC_EVENT_PIPE_* value, or %ASC_EVENT_PIPE_NONE to drop the binding.
 *
 * A thread stands for at most one pipe and a pipe has at most one thread:
 * binding again moves the thread; a pipe whose thread has exited can be
 * taken over.
 *
 * Return: 0, -%EINVAL when @pipe is not a pipe, -%EBUSY when another live
 * thread stands for it.
 */
int asc_tpipe_bind(struct asc_tpipe *tp, s32 pipe)
{
	struct asc_pipe_slot *slot = NULL;
	int old, new = ASC_SLOT_NONE;

	if (pipe != ASC_EVENT_PIPE_NONE) {
		new = asc_slot_of_pipe(pipe);
		if (new < 0)
			return new;
	}

	asc_tpipe_lock(tp);
	old = asc_tpipe_caller_slot(tp);
	if (new != ASC_SLOT_NONE && new != old) {
		slot = &tp->slots[new];
		if (asc_tpipe_slot_owned(tp, new)) {
			asc_tpipe_unlock(tp);
			return -EBUSY;
		}
		put_pid(slot->pid);
		slot->pid = get_task_pid(current, PIDTYPE_PID);
	}
	if (old != ASC_SLOT_NONE && new != old) {
		put_pid(tp->slots[old].pid);
		tp->slots[old].pid = NULL;
	}
	if (new != old)
		asc_tpipe_state_sync_bound(tp);
	asc_tpipe_unlock(tp);
	return 0;
}

/**
 * asc_tpipe_mode() - the mode of a TPipe.
 * @tp: TPipe.
 *
 * Return: ASC_EVENT_MODE_* bits.
 */
u32 asc_tpipe_mode(struct asc_tpipe *tp)
{
	u32 mode;

	asc_tpipe_lock(tp);
	mode = (tp->checked ? ASC_EVENT_MODE_CHECKED : 0) |
	       (tp->strict_ids ? ASC_EVENT_MODE_STRICT_IDS : 0);
	asc_tpipe_unlock(tp);
	return mode;
}

/**
 * asc_tpipe_set_mode() - change the mode of a TPipe.
 * @tp: TPipe.
 * @mode: ASC_EVENT_MODE_* bits, already validated.
 *
 * The mode is chosen before the pipes are manned: it cannot change while a
 * live thread is bound to a pipe of @tp, so that no check depends on when
 * the change lands among the pipes' calls.  Setting the mode it already
 * has always succeeds.
 *
 * Return: 0, or -%EBUSY when the mode would change while a live thread is
 * bound (nothing is changed).
 */
int asc_tpipe_set_mode(struct asc_tpipe *tp, u32 mode)
{
	bool checked = mode & ASC_EVENT_MODE_CHECKED;
	bool strict = mode & ASC_EVENT_MODE_STRICT_IDS;
	int slot, ret = 0;

	asc_tpipe_lock(tp);
	for (slot = 0; slot < ASC_NR_PIPES; slot++) {
		if ((tp->checked != checked || tp->strict_ids != strict) &&
		    asc_tpipe_slot_owned(tp, slot)) {
			ret = -EBUSY;
			break;
		}
	}
	if (!ret) {
		tp->checked = checked;
		tp->strict_ids = strict;
		asc_tpipe_state_sync(tp);
	}
	asc_tpipe_unlock(tp);
	return ret;
}
