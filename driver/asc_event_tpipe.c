// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event core logic: event-ID pools, flag set and wait, reset.
 *
 * Every operation validates its (event, id), takes the TPipe's spinlock,
 * changes the pool or the emulated flag registers, and drops the lock.  A
 * set that finds a task waiting for its flag hands the flag straight to the
 * oldest such waiter instead of raising it, so one set satisfies exactly one
 * wait however many tasks wait, and a woken waiter never has to race for the
 * flag again.
 */

#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/time_namespace.h>

#include "asc_event_hw.h"
#include "asc_event_tpipe.h"

enum asc_wait_state {
	ASC_WAIT_PENDING,
	ASC_WAIT_DONE,
	ASC_WAIT_CANCELED,
};

/**
 * struct asc_waiter - one task blocked in asc_tpipe_wait_flag().
 * @node: entry in &asc_tpipe.waiters while @state is %ASC_WAIT_PENDING.
 * @task: the waiting task.
 * @event: HardEvent waited for.
 * @id: event ID waited for.
 * @state: enum asc_wait_state; written under &asc_tpipe.lock by whoever
 *	ends the wait (set or reset), read locklessly by the sleeping task.
 *
 * Lifetime: on the waiting task's stack.  Whoever ends the wait takes it
 * off the list and wakes the task while holding the lock; the task takes
 * the lock before it returns, so the waker never touches a dead frame.
 */
struct asc_waiter {
	struct list_head node;
	struct task_struct *task;
	u32 event;
	u32 id;
	int state;
};

static u64 asc_tpipe_id_mask(const struct asc_tpipe *tp)
{
	return GENMASK_ULL(tp->event_ids - 1, 0);
}

static int asc_tpipe_check(const struct asc_tpipe *tp, u32 event, u32 id)
{
	if (event >= ASC_HARD_EVENT_COUNT || id >= tp->event_ids)
		return -EINVAL;
	return 0;
}

/**
 * asc_tpipe_create() - create an empty TPipe.
 * @event_ids: IDs per HardEvent, 1..%ASC_EVENT_IDS_MAX.
 *
 * Return: the TPipe, or NULL when out of memory.
 */
struct asc_tpipe *asc_tpipe_create(unsigned int event_ids)
{
	struct asc_tpipe *tp;

	tp = kzalloc(sizeof(*tp), GFP_KERNEL_ACCOUNT);
	if (!tp)
		return NULL;

	spin_lock_init(&tp->lock);
	INIT_LIST_HEAD(&tp->waiters);
	tp->event_ids = event_ids;
	tp->hw = asc_hw_core_alloc();
	if (!tp->hw) {
		asc_tpipe_destroy(tp);
		return NULL;
	}
	return tp;
}

/**
 * asc_tpipe_destroy() - free a TPipe and its register block.
 * @tp: TPipe, possibly half-built by asc_tpipe_create(), with no waiters.
 */
void asc_tpipe_destroy(struct asc_tpipe *tp)
{
	WARN_ON(!list_empty(&tp->waiters));
	asc_hw_core_free(tp->hw);
	kfree(tp);
}

static int asc_tpipe_lowest_free(struct asc_tpipe *tp, u32 event, u32 *id)
{
	u64 free;

	lockdep_assert_held(&tp->lock);

	free = ~tp->pool[event] & asc_tpipe_id_mask(tp);
	if (!free)
		return -ENOSPC;
	*id = __ffs64(free);
	return 0;
}

/**
 * asc_tpipe_alloc_id() - take the lowest free ID of a HardEvent.
 * @tp: TPipe.
 * @event: HardEvent.
 * @id: out: the ID taken.
 *
 * Return: 0, -%EINVAL for a bad @event, -%ENOSPC when every ID is taken.
 */
int asc_tpipe_alloc_id(struct asc_tpipe *tp, u32 event, u32 *id)
{
	int ret;

	if (event >= ASC_HARD_EVENT_COUNT)
		return -EINVAL;

	spin_lock(&tp->lock);
	ret = asc_tpipe_lowest_free(tp, event, id);
	if (!ret)
		tp->pool[event] |= BIT_ULL(*id);
	spin_unlock(&tp->lock);
	return ret;
}

/**
 * asc_tpipe_fetch_id() - report the lowest free ID without taking it.
 * @tp: TPipe.
 * @event: HardEvent.
 * @id: out: the lowest free ID.
 *
 * Return: 0, -%EINVAL for a bad @event, -%ENOSPC when every ID is taken.
 */
int asc_tpipe_fetch_id(struct asc_tpipe *tp, u32 event, u32 *id)
{
	int ret;

	if (event >= ASC_HARD_EVENT_COUNT)
		return -EINVAL;

	spin_lock(&tp->lock);
	ret = asc_tpipe_lowest_free(tp, event, id);
	spin_unlock(&tp->lock);
	return ret;
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

	ret = asc_tpipe_check(tp, event, id);
	if (ret)
		return ret;

	spin_lock(&tp->lock);
	if (tp->pool[event] & BIT_ULL(id))
		tp->pool[event] &= ~BIT_ULL(id);
	else
		ret = -ENOENT;
	spin_unlock(&tp->lock);
	return ret;
}

static void asc_waiter_end(struct asc_waiter *w, int state)
{
	list_del_init(&w->node);
	WRITE_ONCE(w->state, state);
	wake_up_process(w->task);
}

/**
 * asc_tpipe_set_flag() - set the flag of (@event, @id); never blocks.
 * @tp: TPipe.
 * @event: HardEvent.
 * @id: event ID.
 *
 * The oldest task waiting for the flag, if any, consumes it at once.
 *
 * Return: 0, -%EINVAL for a bad @event or @id, -%EBUSY when the flag is
 * already set (undefined on the hardware; nothing is changed).
 */
int asc_tpipe_set_flag(struct asc_tpipe *tp, u32 event, u32 id)
{
	struct asc_waiter *w;
	int ret;

	ret = asc_tpipe_check(tp, event, id);
	if (ret)
		return ret;

	spin_lock(&tp->lock);
	if (asc_hw_flag_test(tp->hw, event, id)) {
		ret = -EBUSY;
		goto out;
	}
	list_for_each_entry(w, &tp->waiters, node) {
		if (w->event == event && w->id == id) {
			asc_waiter_end(w, ASC_WAIT_DONE);
			goto out;
		}
	}
	asc_hw_flag_set(tp->hw, event, id);
out:
	spin_unlock(&tp->lock);
	return ret;
}

/*
 * Sleep until the wait is ended by a set or a reset, the absolute
 * CLOCK_MONOTONIC @deadline passes (never if NULL), or a signal arrives.
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

/*
 * A deadline given in the caller's time namespace, on the host's
 * CLOCK_MONOTONIC.  The namespace of a task on the host has zero offsets.
 */
static ktime_t asc_deadline_to_host(u64 deadline)
{
	ktime_t offset = timespec64_to_ktime(current->nsproxy->time_ns->offsets.monotonic);
	ktime_t t = deadline > KTIME_MAX ? KTIME_MAX : (ktime_t)deadline;

	if (offset > 0 && t < offset)
		return 0;
	if (offset < 0 && t > KTIME_MAX + offset)
		return KTIME_MAX;
	return t - offset;
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
 *
 * Return: 0 when the flag was consumed, -%EINVAL for a bad @event or @id,
 * -%ETIMEDOUT at the deadline, -%ERESTARTSYS on a signal, -%ECANCELED when
 * a reset ended the wait.
 */
int asc_tpipe_wait_flag(struct asc_tpipe *tp, u32 event, u32 id, u64 deadline)
{
	struct asc_waiter w = {
		.task = current,
		.event = event,
		.id = id,
		.state = ASC_WAIT_PENDING,
	};
	bool forever = deadline == ASC_EVENT_WAIT_FOREVER;
	ktime_t expires = 0;
	int ret;

	ret = asc_tpipe_check(tp, event, id);
	if (ret)
		return ret;
	if (!forever)
		expires = asc_deadline_to_host(deadline);

	spin_lock(&tp->lock);
	if (asc_hw_flag_test(tp->hw, event, id)) {
		asc_hw_flag_clear(tp->hw, event, id);
		spin_unlock(&tp->lock);
		return 0;
	}
	if (!forever && ktime_compare(expires, ktime_get()) <= 0) {
		spin_unlock(&tp->lock);
		return -ETIMEDOUT;
	}
	list_add_tail(&w.node, &tp->waiters);
	spin_unlock(&tp->lock);

	ret = asc_waiter_sleep(&w, forever ? NULL : &expires);

	spin_lock(&tp->lock);
	switch (w.state) {
	case ASC_WAIT_DONE:
		ret = 0;
		break;
	case ASC_WAIT_CANCELED:
		ret = -ECANCELED;
		break;
	default:
		list_del(&w.node);
		break;
	}
	spin_unlock(&tp->lock);
	return ret;
}

/**
 * asc_tpipe_reset() - release every ID, clear every flag, cancel every wait.
 * @tp: TPipe.
 * @left: out: what was still allocated or set.
 *
 * Every task blocked in a wait on @tp returns -%ECANCELED.
 */
void asc_tpipe_reset(struct asc_tpipe *tp, struct asc_tpipe_leftovers *left)
{
	struct asc_waiter *w, *tmp;
	unsigned int event;

	spin_lock(&tp->lock);
	left->ids_held = 0;
	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		left->ids_held += hweight64(tp->pool[event]);
		tp->pool[event] = 0;
	}
	left->flags_pending = asc_hw_flags_clear_all(tp->hw);
	list_for_each_entry_safe(w, tmp, &tp->waiters, node)
		asc_waiter_end(w, ASC_WAIT_CANCELED);
	spin_unlock(&tp->lock);
}
