/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event core logic: one TPipe, i.e. the event-ID pool, the flag waits
 * and the pipe roles of one kernel running on one emulated AI core.
 */
#ifndef _ASC_EVENT_TPIPE_H
#define _ASC_EVENT_TPIPE_H

#include <linux/hash.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/asc_event.h>

#include "asc_event_table.h"

struct asc_hw_core;
struct asc_report;
struct asc_report_quota;
struct asc_event_reset;
struct asc_event_issue;
struct asc_launch;
struct pid;
struct vm_area_struct;

enum asc_wait_state {
	ASC_WAIT_PENDING,
	ASC_WAIT_DONE,
	ASC_WAIT_CANCELED,
	ASC_WAIT_DEADLOCK,
	ASC_WAIT_GONE,
};

/* What a wait waits for. */
enum asc_wait_kind {
	ASC_WAIT_FLAG,		/* a flag of this core: @event, @id */
	ASC_WAIT_CROSS,		/* a cross-core flag: @event is its ID */
	ASC_WAIT_SYNC,		/* every core of the launch, at SyncAll */
};

/**
 * struct asc_waiter - one task blocked in a wait (WAIT_FLAG, or EXECUTE of
 *	an issued wait).
 * @node: entry in &asc_tpipe.waiters while @state is %ASC_WAIT_PENDING.
 * @hnode: entry in the bucket of &asc_tpipe.waiter_hash that (@kind,
 *	@event, @id) hash to, under the same rule.
 * @task: the waiting task.
 * @kind: enum asc_wait_kind.
 * @event: HardEvent waited for, or the cross-core flag ID.
 * @id: event ID waited for.
 * @slot: pipe slot the task is bound to, or %ASC_SLOT_NONE.
 * @forever: no deadline: only a set, a reset or a signal ends the wait.
 * @handwritten: checked mode: @id is neither allocated nor fetched.
 * @state: enum asc_wait_state; written under &asc_tpipe.lock by whoever
 *	ends the wait (set, reset or deadlock detection), read locklessly by
 *	the sleeping task.
 *
 * Lifetime: on the waiting task's stack.  Whoever ends the wait takes it
 * off both lists and queues its task on a struct asc_wake_list (taking a
 * reference to the task) while holding the lock, and wakes the task once
 * the lock is dropped, without touching the waiter again: the task may
 * see @state change and return before it is woken, so the waker never
 * touches a dead frame, and a woken task does not find the lock held by
 * its waker.
 */
struct asc_waiter {
	struct list_head node;
	struct list_head hnode;
	struct task_struct *task;
	u8 kind;
	u32 event;
	u32 id;
	int slot;
	bool forever;
	bool handwritten;
	int state;
};

/* Tasks a struct asc_wake_list holds before it wakes the rest at once. */
#define ASC_WAKE_BATCH		8

/**
 * struct asc_wake_list - tasks whose wait has ended, to wake once the
 *	TPipe's lock is dropped.
 * @n: how many are in @task.
 * @task: the tasks, oldest wait first, each a counted reference.
 *
 * Lifetime: on the stack of whoever ends waits, from before it takes the
 * lock to asc_wake_up_all() after it drops it.  A wait ended while @task
 * is full wakes its task at once, under the lock (a reset or a launch
 * ending more than %ASC_WAKE_BATCH waits at a time).
 */
struct asc_wake_list {
	unsigned int n;
	struct task_struct *task[ASC_WAKE_BATCH];
};

/*
 * Buckets of &asc_tpipe.waiter_hash, as a power of 2: a TPipe has about
 * one blocked waiter per pipe.
 */
#define ASC_WAITER_HASH_BITS	2

/**
 * struct asc_ticket - one issued set or wait in a pipe's queue.
 * @seq: the ticket userspace holds: unique on the TPipe, never 0.
 * @event: HardEvent.
 * @id: event ID.
 * @op: %ASC_EVENT_OP_SET or %ASC_EVENT_OP_WAIT.
 * @handwritten: the ID was hand-written when issued (checked mode).
 */
struct asc_ticket {
	u64 seq;
	u8 event;
	u8 id;
	u8 op;
	bool handwritten;
};

/**
 * struct asc_pipe_queue - the issued instructions of one pipe, in order.
 * @t: a ring of them.
 * @head: index in @t of the oldest.
 * @count: how many there are.
 */
struct asc_pipe_queue {
	struct asc_ticket t[ASC_EVENT_QUEUE_DEPTH];
	unsigned int head;
	unsigned int count;
};

/**
 * struct asc_pipe_slot - the thread standing for one pipe of a TPipe.
 * @pid: the bound thread (a counted reference), or NULL.
 * @wait: the wait it is blocked in, or NULL while it runs.
 */
struct asc_pipe_slot {
	struct pid *pid;
	struct asc_waiter *wait;
};

/**
 * struct asc_tpipe_owner - who opened a TPipe, for reports.
 * @tgid: process ID (in the initial PID namespace).
 * @uid: user ID (in the initial user namespace).
 * @comm: the process's name (its main thread's) at open().
 */
struct asc_tpipe_owner {
	pid_t tgid;
	uid_t uid;
	char comm[TASK_COMM_LEN];
};

/**
 * struct asc_tpipe - one TPipe: what one open of /dev/asc_event owns.
 * @lock: the TPipe's own lock, until it joins a launch.
 * @lockp: the lock that protects the TPipe: @lock, or once the TPipe has
 *	joined a launch, the launch's, which all its cores share.  Take it
 *	with asc_tpipe_lock().  It protects everything below that is not
 *	fixed at creation:
 *	@checked, @strict_ids, @pool, @fetched, @handset, @slots, @waiters,
 *	@waiter_hash and every waiter on them, @queues (the pointer once set, and the
 *	queues) and @next_ticket, and serializes all access to the flags in
 *	@hw.
 * @serial: module-wide number of the TPipe (reports, debugfs, traces).
 * @event_ids: IDs per HardEvent, fixed at creation (module parameter).
 * @checked: checked mode (%ASC_EVENT_MODE_CHECKED).
 * @strict_ids: with @checked, hand-written IDs are refused
 *	(%ASC_EVENT_MODE_STRICT_IDS).
 * @owner: who opened it; fixed at creation.
 * @quota: the report rate limit of the opener's user, shared with every
 *	TPipe that user has open; a counted reference, fixed at creation.
 * @hw: the emulated flag registers of this TPipe's core: a block of their
 *	own (an open that does not map them costs no page), or from the first
 *	mmap() on, the start of the flag page userspace maps
 *	(struct asc_event_map_flags, asc_event_map.c); the pointer changes
 *	only under the lock.
 * @state: the page userspace maps read-only (struct asc_event_map_state),
 *	kept equal to @checked, @strict_ids, @pool, @fetched and the pids of
 *	@slots under the lock; NULL until the first mmap().  Set once, under
 *	the lock.
 * @mapped: @hw is the flag page; its waiter bits are kept (set once, under
 *	the lock).
 * @pool: occupancy word per HardEvent: bit @id set while @id is allocated,
 *	until the flags are mapped; from then on the pool is the flag page's
 *	(&asc_event_map_flags.ids), which userspace changes too, and this is
 *	unused.  Read and change it with asc_tpipe_pool() and its kin, which
 *	pick the right one.
 * @fetched: per HardEvent, the ID the last fetch returned, or -1.
 * @handset: the flags that are set by a hand-written set (checked mode),
 *	for the collision check of alloc and fetch: a bitmap of @event_ids
 *	bits per HardEvent (see asc_handset_bit()), allocated with the TPipe
 *	and sized by @event_ids, 40 bytes at the default 8.
 * @slots: the thread bound to each pipe and its current wait.
 * @waiters: struct asc_waiter of every task blocked in a wait, oldest
 *	first.
 * @waiter_hash: the same waiters by what they wait for (kind, event and
 *	ID), oldest first in each bucket, so that a set finds the longest
 *	waiter of its flag without walking every waiter.
 * @queues: the issued instructions of each pipe slot; allocated by the
 *	first %ASC_EVENT_IOC_ISSUE, NULL before.
 * @next_ticket: the ticket of the next issued instruction.
 * @launch: the launch this TPipe is a core of (a counted reference), or
 *	NULL; set once, by %ASC_EVENT_IOC_JOIN.
 * @core: its core number in @launch.
 * @debugfs_node: entry in the list of TPipes the debugfs file shows, under
 *	that list's mutex (asc_event_debugfs.c).
 *
 * Lifetime: created by asc_tpipe_create() in open() and destroyed by
 * asc_tpipe_destroy() in release().  A task blocked in a wait holds a
 * reference to the file through its ioctl, so release() never runs while
 * @waiters is non-empty.  Until it joins a launch, no lock is shared with
 * any other TPipe; after, the lock of every core of the launch is one.
 *
 * Pipe ownership: while a live thread is bound to a pipe, it alone sets
 * that pipe's flags; in checked mode a set whose source is that pipe from
 * any other thread fails with -%EPERM.  A cycle of bound threads in
 * forever waits is therefore final, which is what makes deadlock
 * detection independent of timing.
 */
struct asc_tpipe {
	spinlock_t lock;	/* see above */
	unsigned int serial;
	spinlock_t *lockp;	/* see above */
	unsigned int event_ids;
	u32 core;
	struct asc_tpipe_owner owner;
	bool checked;
	bool strict_ids;
	bool mapped;
	s8 fetched[ASC_EVENT_NR_HARD_EVENTS];
	struct asc_report_quota *quota;
	struct asc_hw_core *hw;
	struct asc_event_map_state *state;
	unsigned long *handset;
	u64 pool[ASC_EVENT_NR_HARD_EVENTS];
	struct asc_pipe_slot slots[ASC_NR_PIPES];
	struct list_head waiters;
	struct list_head waiter_hash[1 << ASC_WAITER_HASH_BITS];
	struct asc_pipe_queue *queues;
	u64 next_ticket;
	struct asc_launch *launch;
	struct list_head debugfs_node;
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

/*
 * The most a TPipe may take (checked at build time).  An open costs the
 * kernel, besides its struct file, the TPipe, its flag block (280 bytes,
 * cache asc_hw_core) and its handset bitmap (a 64-byte kmalloc slot at the
 * default 8 event IDs): with 632 here (624 before @state, the mapped fast
 * path's one pointer), 976 bytes, under the 1 KiB per open of
 * Documentation/performance.rst.  (A mapped TPipe has two pages more, the
 * flag block given back: the price of the fast path, paid only by who
 * maps.)  A field that does not fit takes room
 * from another, or the goal moves, on purpose.  Kernels with lock
 * debugging or PREEMPT_RT have bigger locks and are not held to it.
 */
#define ASC_TPIPE_MAX_SIZE	632

int asc_tpipe_cache_init(void);
void asc_tpipe_cache_exit(void);
struct asc_tpipe *asc_tpipe_create(unsigned int event_ids, u32 mode);
void asc_tpipe_destroy(struct asc_tpipe *tp);

int asc_tpipe_alloc_id(struct asc_tpipe *tp, u32 event, u32 __user *uid);
int asc_tpipe_fetch_id(struct asc_tpipe *tp, u32 event, u32 __user *uid);
int asc_tpipe_release_id(struct asc_tpipe *tp, u32 event, u32 id);
int asc_tpipe_set_flag(struct asc_tpipe *tp, u32 event, u32 id);
int asc_tpipe_wait_flag(struct asc_tpipe *tp, u32 event, u32 id,
			u64 deadline);
int asc_tpipe_reset(struct asc_tpipe *tp, struct asc_event_reset *args,
		    struct asc_event_reset __user *uargs);
int asc_tpipe_bind(struct asc_tpipe *tp, s32 pipe);
u32 asc_tpipe_mode(struct asc_tpipe *tp);
int asc_tpipe_set_mode(struct asc_tpipe *tp, u32 mode);
bool asc_tpipe_slot_owned(const struct asc_tpipe *tp, int slot);
u64 asc_tpipe_fast_ops(struct asc_tpipe *tp);
u64 asc_tpipe_pool(const struct asc_tpipe *tp, u32 event);
void asc_tpipe_pool_read(const struct asc_tpipe *tp,
			 u64 out[ASC_EVENT_NR_HARD_EVENTS]);
void asc_tpipe_flags_read(struct asc_tpipe *tp,
			  u64 out[ASC_EVENT_NR_HARD_EVENTS]);

/* asc_event_map.c */
int asc_map_init(void);
void asc_map_exit(void);
int asc_tpipe_mmap(struct asc_tpipe *tp, struct vm_area_struct *vma);
void asc_tpipe_state_sync(struct asc_tpipe *tp);
void asc_tpipe_state_sync_bound(struct asc_tpipe *tp);
void asc_tpipe_unmap(struct asc_tpipe *tp);

/* Shared with asc_event_queue.c; @tp locked. */
int asc_tpipe_caller_slot(const struct asc_tpipe *tp);
int asc_tpipe_check(const struct asc_tpipe *tp, u32 event, u32 id);
int asc_tpipe_check_id(const struct asc_tpipe *tp, u32 event, u32 id,
		       bool *handwritten);
int asc_tpipe_put_user(const struct asc_tpipe *tp, void __user *dst,
		       const void *src, size_t size);
int asc_tpipe_id_one_access(struct asc_tpipe *tp,
			    struct asc_event_ref __user *uref, bool take);
int asc_tpipe_raise(struct asc_tpipe *tp, u32 event, u32 id,
		    bool handwritten, struct asc_wake_list *wake);
int asc_tpipe_wait_locked(struct asc_tpipe *tp, struct asc_waiter *w,
			  ktime_t expires);
int asc_tpipe_block(struct asc_tpipe *tp, struct asc_waiter *w,
		    ktime_t expires);
struct asc_waiter *asc_tpipe_find_waiter(struct asc_tpipe *tp, u8 kind,
					 u32 event, u32 id);
void asc_waiter_end(struct asc_waiter *w, int state,
		    struct asc_wake_list *wake);
void asc_wake_up_all(struct asc_wake_list *wake);
ktime_t asc_deadline_to_host(u64 deadline);

/* asc_event_queue.c */
int asc_tpipe_issue(struct asc_tpipe *tp, struct asc_event_issue *args,
		    u64 __user *uticket, struct asc_pipe_queue *spare);
int asc_tpipe_execute(struct asc_tpipe *tp, u64 ticket, u64 deadline);
void asc_tpipe_queues_clear(struct asc_tpipe *tp);
const char *asc_tpipe_handwritten_use(struct asc_tpipe *tp, u32 event, u32 id,
				      int *slot);

/* asc_event_deadlock.c */
struct asc_report *asc_tpipe_end_deadlocked(struct asc_tpipe *tp,
					    struct asc_waiter *w,
					    struct asc_wake_list *wake);

/* asc_event_report.c */
struct asc_report *asc_tpipe_leak_report(struct asc_tpipe *tp, bool at_close,
					 const struct asc_tpipe_leftovers *left);

/**
 * asc_waiter_bucket() - the bucket of a TPipe's waiter hash that the waits
 *	for (@kind, @event, @id) go to.
 * @tp: TPipe, locked.
 * @kind: enum asc_wait_kind.
 * @event: HardEvent, or cross-core flag ID; 0 for SyncAll.
 * @id: event ID; 0 unless @kind is %ASC_WAIT_FLAG.
 *
 * Return: the bucket's list head.
 */
static inline struct list_head *asc_waiter_bucket(struct asc_tpipe *tp,
						  u8 kind, u32 event, u32 id)
{
	u32 key = (u32)kind << 16 | event << 6 | id;

	return tp->waiter_hash + hash_32(key, ASC_WAITER_HASH_BITS);
}

/* The bit of (@event, @id) in @tp->handset; both already validated. */
static inline unsigned int asc_handset_bit(const struct asc_tpipe *tp,
					   u32 event, u32 id)
{
	return event * tp->event_ids + id;
}

/**
 * asc_waited_ns() - how long a traced wait took.
 * @start: ktime_get() when it began, read only while the tracepoint that
 *	reports it was enabled; 0 when it was not.
 *
 * The clock is read only for a wait that is traced (inline, so that the
 * tracepoint's argument costs no call while tracing is off); a wait whose
 * trace was enabled while it waited reports 0.
 *
 * Return: nanoseconds since @start, or 0.
 */
static inline u64 asc_waited_ns(ktime_t start)
{
	return start ? ktime_to_ns(ktime_sub(ktime_get(), start)) : 0;
}

/**
 * asc_tpipe_slot_stuck() - the wait that makes a pipe slot stuck, for
 *	deadlock detection (asc_event_deadlock.c).
 * @tp: TPipe, locked.
 * @slot: pipe slot.
 *
 * A slot is stuck while the thread bound to it is blocked, on a checked
 * TPipe, in a wait that only a set can end (no deadline).
 *
 * Return: that wait, or NULL.
 */
static inline struct asc_waiter *asc_tpipe_slot_stuck(const struct asc_tpipe *tp,
						      int slot)
{
	struct asc_waiter *w = tp->slots[slot].wait;

	if (!tp->checked || !w || !w->forever ||
	    READ_ONCE(w->state) != ASC_WAIT_PENDING)
		return NULL;
	return w;
}

/**
 * asc_tpipe_lock() - lock a TPipe.
 * @tp: TPipe.
 *
 * Takes the TPipe's own lock, or its launch's once it has joined one; a
 * join that happens meanwhile is seen, and the launch's lock taken.
 */
static inline void asc_tpipe_lock(struct asc_tpipe *tp)
	__acquires(tp->lockp)
{
	spinlock_t *lock = READ_ONCE(tp->lockp);

	spin_lock(lock);
	while (unlikely(lock != READ_ONCE(tp->lockp))) {
		spin_unlock(lock);
		lock = READ_ONCE(tp->lockp);
		spin_lock(lock);
	}
}

/**
 * asc_tpipe_unlock() - drop the lock asc_tpipe_lock() took.
 * @tp: TPipe.
 */
static inline void asc_tpipe_unlock(struct asc_tpipe *tp)
	__releases(tp->lockp)
{
	spin_unlock(tp->lockp);
}

/**
 * asc_tpipe_state_sync_event() - write one HardEvent's words of a TPipe's
 *	state to its mapped state page.
 * @tp: TPipe, locked.
 * @event: the HardEvent whose pool or fetched ID changed.
 *
 * For ALLOC_ID, FETCH_ID and RELEASE_ID, which change nothing else: the
 * words of the other HardEvents are left as they are (a change of the mode
 * or a reset takes asc_tpipe_state_sync()).  Nothing to do before the
 * first mmap(); inline, so that a TPipe never mapped pays one test.
 */
static inline void asc_tpipe_state_sync_event(struct asc_tpipe *tp, u32 event)
{
	struct asc_event_map_state *st = tp->state;

	lockdep_assert_held(tp->lockp);

	if (!st)
		return;
	WRITE_ONCE(st->pool[event], asc_tpipe_pool(tp, event));
	WRITE_ONCE(st->fetched[event], tp->fetched[event]);
}

#endif /* _ASC_EVENT_TPIPE_H */
