/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * asc_event: emulated Ascend AI-core event flags, userspace API.
 *
 * Every open of /dev/asc_event is one TPipe running on one virtual AI core:
 * it owns a pool of event IDs per HardEvent and one flag bit per
 * (HardEvent, ID).  The ioctls below allocate, fetch and release IDs, set
 * and wait for flags, and reset the TPipe.  Closing the file destroys it.
 * A thread may declare which hardware pipe it stands for; in checked mode
 * (the default) the driver then refuses what the hardware would punish.
 *
 * See Documentation/uapi.rst for the full contract of every ioctl.
 */
#ifndef _UAPI_LINUX_ASC_EVENT_H
#define _UAPI_LINUX_ASC_EVENT_H

#include <linux/ioctl.h>
#include <linux/types.h>

/** ASC_EVENT_ABI_VERSION - version reported by %ASC_EVENT_IOC_INFO. */
#define ASC_EVENT_ABI_VERSION	1

/**
 * enum asc_event_hard_event - HardEvents, in pyasc's numbering.
 * @ASC_EVENT_MTE2_MTE1: MTE2 finished, tell MTE1.
 * @ASC_EVENT_MTE1_MTE2: MTE1 finished, tell MTE2.
 * @ASC_EVENT_MTE1_M: MTE1 finished, tell M.
 * @ASC_EVENT_M_MTE1: M finished, tell MTE1.
 * @ASC_EVENT_MTE2_V: MTE2 finished, tell V.
 * @ASC_EVENT_V_MTE2: V finished, tell MTE2.
 * @ASC_EVENT_MTE3_V: MTE3 finished, tell V.
 * @ASC_EVENT_V_MTE3: V finished, tell MTE3.
 * @ASC_EVENT_M_V: M finished, tell V.
 * @ASC_EVENT_V_M: V finished, tell M.
 * @ASC_EVENT_V_V: barrier within V: V sets, V waits.
 * @ASC_EVENT_MTE3_MTE1: MTE3 finished, tell MTE1.
 * @ASC_EVENT_MTE1_MTE3: MTE1 finished, tell MTE3.
 * @ASC_EVENT_MTE1_V: MTE1 finished, tell V.
 * @ASC_EVENT_MTE2_M: MTE2 finished, tell M.
 * @ASC_EVENT_M_MTE2: M finished, tell MTE2.
 * @ASC_EVENT_V_MTE1: V finished, tell MTE1.
 * @ASC_EVENT_M_FIX: M finished, tell FIX.
 * @ASC_EVENT_FIX_M: FIX finished, tell M.
 * @ASC_EVENT_MTE3_MTE2: MTE3 finished, tell MTE2.
 * @ASC_EVENT_MTE2_MTE3: MTE2 finished, tell MTE3.
 * @ASC_EVENT_S_V: S finished, tell V.
 * @ASC_EVENT_V_S: V finished, tell S.
 * @ASC_EVENT_S_MTE2: S finished, tell MTE2.
 * @ASC_EVENT_MTE2_S: MTE2 finished, tell S.
 * @ASC_EVENT_S_MTE3: S finished, tell MTE3.
 * @ASC_EVENT_MTE3_S: MTE3 finished, tell S.
 * @ASC_EVENT_MTE2_FIX: MTE2 finished, tell FIX.
 * @ASC_EVENT_FIX_MTE2: FIX finished, tell MTE2.
 * @ASC_EVENT_FIX_S: FIX finished, tell S.
 * @ASC_EVENT_M_S: M finished, tell S.
 * @ASC_EVENT_FIX_MTE3: FIX finished, tell MTE3.
 * @ASC_EVENT_MTE1_FIX: MTE1 finished, tell FIX.
 * @ASC_EVENT_FIX_MTE1: FIX finished, tell MTE1.
 * @ASC_EVENT_FIX_FIX: barrier within FIX: FIX sets, FIX waits.
 * @ASC_EVENT_NR_HARD_EVENTS: how many HardEvents there are.
 *
 * A HardEvent names a direction SRC_DST, "pipe SRC finished, tell pipe
 * DST": the source pipe sets the flag, the destination pipe waits for it.
 * The numbers are pyasc's (and Ascend C's "enum class HardEvent"); this
 * is the one place they are written.  The constants are ABI; the enum
 * type itself never appears in a struct.
 */
enum asc_event_hard_event {
	ASC_EVENT_MTE2_MTE1 = 0,
	ASC_EVENT_MTE1_MTE2 = 1,
	ASC_EVENT_MTE1_M = 2,
	ASC_EVENT_M_MTE1 = 3,
	ASC_EVENT_MTE2_V = 4,
	ASC_EVENT_V_MTE2 = 5,
	ASC_EVENT_MTE3_V = 6,
	ASC_EVENT_V_MTE3 = 7,
	ASC_EVENT_M_V = 8,
	ASC_EVENT_V_M = 9,
	ASC_EVENT_V_V = 10,
	ASC_EVENT_MTE3_MTE1 = 11,
	ASC_EVENT_MTE1_MTE3 = 12,
	ASC_EVENT_MTE1_V = 13,
	ASC_EVENT_MTE2_M = 14,
	ASC_EVENT_M_MTE2 = 15,
	ASC_EVENT_V_MTE1 = 16,
	ASC_EVENT_M_FIX = 17,
	ASC_EVENT_FIX_M = 18,
	ASC_EVENT_MTE3_MTE2 = 19,
	ASC_EVENT_MTE2_MTE3 = 20,
	ASC_EVENT_S_V = 21,
	ASC_EVENT_V_S = 22,
	ASC_EVENT_S_MTE2 = 23,
	ASC_EVENT_MTE2_S = 24,
	ASC_EVENT_S_MTE3 = 25,
	ASC_EVENT_MTE3_S = 26,
	ASC_EVENT_MTE2_FIX = 27,
	ASC_EVENT_FIX_MTE2 = 28,
	ASC_EVENT_FIX_S = 29,
	ASC_EVENT_M_S = 30,
	ASC_EVENT_FIX_MTE3 = 31,
	ASC_EVENT_MTE1_FIX = 32,
	ASC_EVENT_FIX_MTE1 = 33,
	ASC_EVENT_FIX_FIX = 34,
	ASC_EVENT_NR_HARD_EVENTS = 35,
};

/**
 * enum asc_event_pipe - hardware pipes, in pyasc's PipeID numbering.
 * @ASC_EVENT_PIPE_NONE: not a pipe: drop the calling thread's binding.
 * @ASC_EVENT_PIPE_S: scalar.
 * @ASC_EVENT_PIPE_V: vector.
 * @ASC_EVENT_PIPE_M: cube (matrix).
 * @ASC_EVENT_PIPE_MTE1: data mover L1 -> L0A/L0B.
 * @ASC_EVENT_PIPE_MTE2: data mover GM -> L1/UB.
 * @ASC_EVENT_PIPE_MTE3: data mover UB -> GM.
 * @ASC_EVENT_PIPE_FIX: fixpipe L0C -> GM/L1.
 *
 * What a thread stands for, see %ASC_EVENT_IOC_BIND_PIPE.  The gaps (6 is
 * pyasc's PIPE_ALL, 7..9 are pipes of other chips) are not pipes a thread
 * can bind to.
 */
enum asc_event_pipe {
	ASC_EVENT_PIPE_NONE = -1,
	ASC_EVENT_PIPE_S = 0,
	ASC_EVENT_PIPE_V = 1,
	ASC_EVENT_PIPE_M = 2,
	ASC_EVENT_PIPE_MTE1 = 3,
	ASC_EVENT_PIPE_MTE2 = 4,
	ASC_EVENT_PIPE_MTE3 = 5,
	ASC_EVENT_PIPE_FIX = 10,
};

/** ASC_EVENT_IDS_MAX - the most IDs per HardEvent a device can have. */
#define ASC_EVENT_IDS_MAX	64

/** ASC_EVENT_WAIT_FOREVER - a wait deadline that never expires. */
#define ASC_EVENT_WAIT_FOREVER	(~(__u64)0)

/**
 * struct asc_event_info - what the device is, for %ASC_EVENT_IOC_INFO.
 * @abi_version: %ASC_EVENT_ABI_VERSION of the driver.
 * @nr_events: number of HardEvents (%ASC_EVENT_NR_HARD_EVENTS).
 * @event_ids: IDs per HardEvent on this TPipe (module parameter
 *	event_ids at the time of open(), 1..%ASC_EVENT_IDS_MAX).
 * @pad: written as zero.
 * @features: ASC_EVENT_FEATURE_* bits: what this driver offers beyond the
 *	ioctls every ABI version 1 driver has.
 */
struct asc_event_info {
	__u32 abi_version;
	__u32 nr_events;
	__u32 event_ids;
	__u32 pad;
	__u64 features;
};

/*
 * %ASC_EVENT_IOC_BIND_PIPE, %ASC_EVENT_IOC_GET_MODE and
 * %ASC_EVENT_IOC_SET_MODE exist: pipe roles, checked mode, deadlock
 * detection.
 */
#define ASC_EVENT_FEATURE_CHECKED	0x1ULL
/*
 * %ASC_EVENT_IOC_ISSUE and %ASC_EVENT_IOC_EXECUTE exist (sets and waits
 * checked when the scalar issues them, run later by their pipes), and
 * %ASC_EVENT_MODE_STRICT_IDS.
 */
#define ASC_EVENT_FEATURE_ISSUE		0x2ULL

/** ASC_EVENT_QUEUE_DEPTH - issued instructions a pipe's queue holds. */
#define ASC_EVENT_QUEUE_DEPTH	64

/*
 * %ASC_EVENT_IOC_LAUNCH, %ASC_EVENT_IOC_JOIN, %ASC_EVENT_IOC_CORE_INFO,
 * %ASC_EVENT_IOC_CROSS_SET, %ASC_EVENT_IOC_CROSS_WAIT and
 * %ASC_EVENT_IOC_SYNC_ALL exist: multi-core launches, cross-core flags.
 */
#define ASC_EVENT_FEATURE_LAUNCH	0x4ULL
/*
 * %ASC_EVENT_IOC_SYNC_ALL takes %ASC_EVENT_SYNC_ALL_AIV_ONLY: the SyncAll
 * of the AIVs only (Ascend C's SyncAll<true>).
 */
#define ASC_EVENT_FEATURE_SYNC_AIV	0x10ULL

/** ASC_EVENT_BLOCK_DIM_MAX - the most AI cores (blocks) of a launch. */
#define ASC_EVENT_BLOCK_DIM_MAX	64

/*
 * mmap() of the device file exists: the TPipe's state, its flag registers
 * and the module's state as pages, for sets and waits in userspace (see
 * struct asc_event_map_state).
 */
#define ASC_EVENT_FEATURE_MAP		0x8ULL
/*
 * The state page (struct asc_event_map_state) also shows the pipe
 * bindings: &asc_event_map_state.bound and &asc_event_map_state.bound_tid.
 */
#define ASC_EVENT_FEATURE_MAP_BOUND	0x20ULL
/*
 * The pool of a mapped TPipe is in its flag page, where userspace may
 * allocate and release IDs itself: &asc_event_map_flags.ids, and
 * &asc_event_map_state.issued.
 */
#define ASC_EVENT_FEATURE_MAP_IDS	0x40ULL

/*
 * The pages mmap() maps: the offset is the page number times the page
 * size, the length one page, MAP_SHARED.
 * ASC_EVENT_MAP_STATE - struct asc_event_map_state, read-only.
 * ASC_EVENT_MAP_FLAGS - struct asc_event_map_flags, read-write.
 * ASC_EVENT_MAP_MODULE - struct asc_event_map_module, read-only.
 */
#define ASC_EVENT_MAP_STATE	0
#define ASC_EVENT_MAP_FLAGS	1
#define ASC_EVENT_MAP_MODULE	2

/* A TPipe's flag registers can be mapped when it has at most 32 IDs. */
#define ASC_EVENT_MAP_IDS_MAX	32

/* ASC_EVENT_MAP_NO_FETCH - &asc_event_map_state.fetched: nothing fetched. */
#define ASC_EVENT_MAP_NO_FETCH	(-1)

/*
 * ASC_EVENT_MAP_PIPES - entries of &asc_event_map_state.bound_tid: one per
 * ASC_EVENT_PIPE_* value 0..%ASC_EVENT_PIPE_FIX (6..9 are no pipe, always 0).
 */
#define ASC_EVENT_MAP_PIPES	11

/**
 * struct asc_event_map_state - the TPipe as the driver sees it, in the
 *	page %ASC_EVENT_MAP_STATE; only the driver writes it, always under the
 *	TPipe's lock, so each word is current but two words may be one
 *	change apart.
 * @mode: ASC_EVENT_MODE_* bits.
 * @event_ids: IDs per HardEvent.
 * @pool: per HardEvent, bit @id set while @id is allocated; with
 *	%ASC_EVENT_FEATURE_MAP_IDS, the pool is &asc_event_map_flags.ids
 *	and this its copy as of the driver's last change of it.
 * @fetched: per HardEvent, the ID its last fetch returned, or
 *	%ASC_EVENT_MAP_NO_FETCH.
 * @issued: with %ASC_EVENT_FEATURE_MAP_IDS, 1 from the first
 *	%ASC_EVENT_IOC_ISSUE of the TPipe on (an issued instruction may use
 *	an ID by hand); else zero.
 * @bound: with %ASC_EVENT_FEATURE_MAP_BOUND, bit @pipe (an ASC_EVENT_PIPE_*
 *	value) set while a thread is bound to @pipe, whether it still runs
 *	or has exited; else zero.
 * @bound_tid: with %ASC_EVENT_FEATURE_MAP_BOUND, per ASC_EVENT_PIPE_*
 *	value, the thread bound to it as gettid() gave it to that thread
 *	when it bound (in its own PID namespace), 0 while @bound has no bit
 *	for it; else zero.
 */
struct asc_event_map_state {
	__u32 mode;
	__u32 event_ids;
	__u64 pool[ASC_EVENT_NR_HARD_EVENTS];
	__s32 fetched[ASC_EVENT_NR_HARD_EVENTS];
	__u32 issued;
	__u32 bound;
	__s32 bound_tid[ASC_EVENT_MAP_PIPES];
};

/*
 * ASC_EVENT_MAP_WAITER - in a flag word of struct asc_event_map_flags, the
 * bit that says a task is blocked in the driver waiting for the flag of
 * ID @id.
 */
#define ASC_EVENT_MAP_WAITER(id)	(1ULL << (32 + (id)))

/**
 * struct asc_event_map_flags - the flag registers of a TPipe, in the page
 *	%ASC_EVENT_MAP_FLAGS, shared by the driver and the processes that map
 *	it; changed only with atomic compare-and-swap.
 * @flags: per HardEvent, bit @id (0..31) is the flag of (event, @id) and
 *	bit %ASC_EVENT_MAP_WAITER(@id) is set while a task waits for it in
 *	the driver.  A set in userspace sets its flag bit only when neither
 *	it nor the waiter bit is set, else it asks the driver
 *	(%ASC_EVENT_IOC_SET_FLAG); a wait clears a set flag bit, else it
 *	asks the driver (%ASC_EVENT_IOC_WAIT_FLAG).
 * @fast_ops: sets, waits, allocs and releases done in userspace, counted
 *	by whoever did them (atomically); the driver only reads it, for its
 *	counters.
 * @ids: with %ASC_EVENT_FEATURE_MAP_IDS, the pool: per HardEvent, bit @id
 *	(0..31) set while @id is allocated.  The driver reads it at every
 *	ioctl that looks at the pool (a set, wait or issue in checked mode,
 *	an alloc, fetch or release, a reset, the leak report) and changes
 *	it with atomic compare-and-swap, as userspace may: an alloc sets the
 *	lowest clear bit below the TPipe's IDs, a release clears a set bit.  In checked
 *	mode without %ASC_EVENT_MODE_STRICT_IDS an alloc in userspace must
 *	leave to %ASC_EVENT_IOC_ALLOC_ID an ID whose flag or waiter bit is
 *	set, or any ID once &asc_event_map_state.issued is set (hand-written
 *	code may use it: the ioctl's collision check).  While
 *	&asc_event_map_module.tracing is non-zero, allocs and releases take
 *	the ioctls, as sets and waits do.
 *
 * The driver trusts nothing it reads here: what a process writes harms
 * only its own TPipe.
 */
struct asc_event_map_flags {
	__u64 flags[ASC_EVENT_NR_HARD_EVENTS];
	__u64 fast_ops;
	__u64 ids[ASC_EVENT_NR_HARD_EVENTS];
};

/**
 * struct asc_event_map_module - the module's state, in the page
 *	%ASC_EVENT_MAP_MODULE, one page for every TPipe, only the driver
 *	writes it.
 * @tracing: how many of the module's tracepoints are enabled; while
 *	non-zero, sets, waits, allocs and releases must take the ioctls, so
 *	that the trace sees them.
 * @pad: zero.
 */
struct asc_event_map_module {
	__u32 tracing;
	__u32 pad;
};

/** ASC_EVENT_CROSS_FLAGS - cross-core flag IDs a user may set: 0..10. */
#define ASC_EVENT_CROSS_FLAGS	11

/** ASC_EVENT_CROSS_COUNT_MAX - a cross-core flag counter counts to 15. */
#define ASC_EVENT_CROSS_COUNT_MAX	15

/* The kind of a launch: which cores it runs on. */
#define ASC_EVENT_LAUNCH_AIV	1	/* vector cores (AIV) only */
#define ASC_EVENT_LAUNCH_AIC	2	/* cube cores (AIC) only */
#define ASC_EVENT_LAUNCH_MIX	3	/* per AI core one AIC and two AIVs */

/* The type of a core. */
#define ASC_EVENT_CORE_AIC	1
#define ASC_EVENT_CORE_AIV	2

/* JOIN: the lowest core of the launch no TPipe has joined. */
#define ASC_EVENT_CORE_ANY	(~0U)

/**
 * struct asc_event_ref - one (HardEvent, ID), for alloc, fetch, release
 * and set_flag.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 * @id: the event ID; written by alloc and fetch, read by release and set.
 * @flags: must be zero.
 * @pad: must be zero.
 */
struct asc_event_ref {
	__u32 event;
	__u32 id;
	__u32 flags;
	__u32 pad;
};

/**
 * struct asc_event_wait - arguments of %ASC_EVENT_IOC_WAIT_FLAG.
 * @deadline: absolute CLOCK_MONOTONIC time in ns (of the caller's time
 *	namespace) at which the wait gives up; %ASC_EVENT_WAIT_FOREVER never
 *	gives up; a time in the past tests and consumes without sleeping.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 * @id: the event ID.
 * @flags: must be zero.
 * @pad: must be zero.
 */
struct asc_event_wait {
	__u64 deadline;
	__u32 event;
	__u32 id;
	__u32 flags;
	__u32 pad;
};

/**
 * struct asc_event_reset - arguments of %ASC_EVENT_IOC_RESET.
 * @flags: must be zero.
 * @pad: must be zero.
 * @ids_held: out: IDs that were still allocated.
 * @flags_pending: out: flags that were set and never waited on.
 */
struct asc_event_reset {
	__u32 flags;
	__u32 pad;
	__u32 ids_held;
	__u32 flags_pending;
};

/**
 * struct asc_event_bind - arguments of %ASC_EVENT_IOC_BIND_PIPE.
 * @pipe: ASC_EVENT_PIPE_* the calling thread stands for on this TPipe, or
 *	%ASC_EVENT_PIPE_NONE to drop its binding.
 * @flags: must be zero.
 */
struct asc_event_bind {
	__s32 pipe;
	__u32 flags;
};

/*
 * ASC_EVENT_MODE_CHECKED - checked mode: sets and waits must come from the
 * HardEvent's source and destination pipe (for bound threads); an ID that
 * is neither allocated nor fetched is hand-written, legal as in Ascend C,
 * but an alloc or fetch that would hand it out while hand-written code
 * uses it fails with -EADDRINUSE; waits that can never end fail with
 * -EDEADLK.
 * ASC_EVENT_MODE_STRICT_IDS - with checked mode, pyasc's rule: sets and
 * waits on hand-written IDs fail with -ENOENT.
 */
#define ASC_EVENT_MODE_CHECKED		0x1U
#define ASC_EVENT_MODE_STRICT_IDS	0x2U

/**
 * struct asc_event_mode - arguments of %ASC_EVENT_IOC_GET_MODE and
 * %ASC_EVENT_IOC_SET_MODE.
 * @mode: ASC_EVENT_MODE_* bits; unknown bits are refused.
 * @pad: must be zero (written as zero by GET_MODE).
 */
struct asc_event_mode {
	__u32 mode;
	__u32 pad;
};

/*
 * Ioctl numbers: magic 0xA5, numbers 0x40-0x5f, taken by this driver
 * (0xA5 0x01-0x05 and 0x20-0x2f belong to the Surface drivers, see the
 * kernel's Documentation/userspace-api/ioctl/ioctl-number.rst).
 */
/* The instruction of %ASC_EVENT_IOC_ISSUE. */
#define ASC_EVENT_OP_SET	1
#define ASC_EVENT_OP_WAIT	2

/**
 * struct asc_event_issue - arguments of %ASC_EVENT_IOC_ISSUE.
 * @op: %ASC_EVENT_OP_SET or %ASC_EVENT_OP_WAIT.
 * @event: HardEvent number, below %ASC_EVENT_NR_HARD_EVENTS.
 * @id: the event ID.
 * @flags: must be zero.
 * @ticket: out: the instruction's ticket, for %ASC_EVENT_IOC_EXECUTE.
 */
struct asc_event_issue {
	__u32 op;
	__u32 event;
	__u32 id;
	__u32 flags;
	__u64 ticket;
};

/**
 * struct asc_event_execute - arguments of %ASC_EVENT_IOC_EXECUTE.
 * @ticket: what %ASC_EVENT_IOC_ISSUE returned.
 * @deadline: for a wait, as in struct asc_event_wait; ignored for a set.
 * @flags: must be zero.
 * @pad: must be zero.
 */
struct asc_event_execute {
	__u64 ticket;
	__u64 deadline;
	__u32 flags;
	__u32 pad;
};

/**
 * struct asc_event_launch - arguments of %ASC_EVENT_IOC_LAUNCH.
 * @kind: %ASC_EVENT_LAUNCH_AIV, %ASC_EVENT_LAUNCH_AIC or
 *	%ASC_EVENT_LAUNCH_MIX.
 * @block_dim: AI cores, 1..%ASC_EVENT_BLOCK_DIM_MAX; a mix launch has
 *	@block_dim AICs and 2 * @block_dim AIVs.
 * @flags: must be zero.
 * @fd: out: a new file descriptor (close-on-exec) for the launch.
 */
struct asc_event_launch {
	__u32 kind;
	__u32 block_dim;
	__u32 flags;
	__s32 fd;
};

/**
 * struct asc_event_join - arguments of %ASC_EVENT_IOC_JOIN.
 * @launch_fd: a file descriptor from %ASC_EVENT_IOC_LAUNCH.
 * @core: the core to be: 0..cores - 1 (in a mix launch the AICs come
 *	first), or %ASC_EVENT_CORE_ANY.
 * @flags: must be zero.
 * @pad: must be zero.
 */
struct asc_event_join {
	__s32 launch_fd;
	__u32 core;
	__u32 flags;
	__u32 pad;
};

/**
 * struct asc_event_core_info - what %ASC_EVENT_IOC_CORE_INFO reports.
 * @core: the core's number in its launch.
 * @type: %ASC_EVENT_CORE_AIC or %ASC_EVENT_CORE_AIV.
 * @block_idx: Ascend C's GetBlockIdx(): 0..block_dim - 1 on an AIC; on an
 *	AIV of a mix launch 2 * AI core + @sub_block_idx.
 * @block_num: GetBlockNum(): the launch's block_dim.
 * @sub_block_idx: on an AIV of a mix launch, which of its AI core's two
 *	AIVs it is (0 or 1); else 0.
 * @sub_block_num: 2 on an AIV of a mix launch, else 1.
 * @kind: the launch's ASC_EVENT_LAUNCH_* kind.
 * @pad: written as zero.
 */
struct asc_event_core_info {
	__u32 core;
	__u32 type;
	__u32 block_idx;
	__u32 block_num;
	__u32 sub_block_idx;
	__u32 sub_block_num;
	__u32 kind;
	__u32 pad;
};

/**
 * struct asc_event_cross_set - arguments of %ASC_EVENT_IOC_CROSS_SET.
 * @flag_id: 0..%ASC_EVENT_CROSS_FLAGS - 1.
 * @mode: 0: every core of the caller's type; 1 (mix): the two AIVs of the
 *	caller's AI core; 2 (mix): an AIC and its two AIVs.
 * @pipe: the ASC_EVENT_PIPE_* that issues it; not S.
 * @flags: must be zero.
 */
struct asc_event_cross_set {
	__u32 flag_id;
	__u32 mode;
	__s32 pipe;
	__u32 flags;
};

/**
 * struct asc_event_cross_wait - arguments of %ASC_EVENT_IOC_CROSS_WAIT.
 * @deadline: as in struct asc_event_wait.
 * @flag_id: 0..%ASC_EVENT_CROSS_FLAGS - 1.
 * @flags: must be zero.
 */
struct asc_event_cross_wait {
	__u64 deadline;
	__u32 flag_id;
	__u32 flags;
};

/**
 * struct asc_event_sync_all - arguments of %ASC_EVENT_IOC_SYNC_ALL.
 * @deadline: as in struct asc_event_wait.
 * @flags: 0 (every core of the launch meets) or
 *	%ASC_EVENT_SYNC_ALL_AIV_ONLY; other bits must be zero.
 * @pad: must be zero.
 */
struct asc_event_sync_all {
	__u64 deadline;
	__u32 flags;
	__u32 pad;
};

/*
 * SyncAll of the AIVs only: in a mix launch every AIV meets and no AIC
 * takes part; in a vector-only launch every core, as without it.  An AIC
 * may not ask for it (-EINVAL).  %ASC_EVENT_FEATURE_SYNC_AIV says it exists.
 */
#define ASC_EVENT_SYNC_ALL_AIV_ONLY	0x1U

#define ASC_EVENT_IOC_MAGIC	0xA5

/* Report the ABI version and geometry of the device. */
#define ASC_EVENT_IOC_INFO	_IOR(ASC_EVENT_IOC_MAGIC, 0x40, struct asc_event_info)
/* Take the lowest free ID of @event; -ENOSPC when all are taken. */
#define ASC_EVENT_IOC_ALLOC_ID	_IOWR(ASC_EVENT_IOC_MAGIC, 0x41, struct asc_event_ref)
/* Report the lowest free ID of @event without taking it; -ENOSPC if none. */
#define ASC_EVENT_IOC_FETCH_ID	_IOWR(ASC_EVENT_IOC_MAGIC, 0x42, struct asc_event_ref)
/* Give an allocated ID back; -ENOENT when it was not allocated. */
#define ASC_EVENT_IOC_RELEASE_ID _IOW(ASC_EVENT_IOC_MAGIC, 0x43, struct asc_event_ref)
/* Set the flag of (@event, @id); -EBUSY when it is already set. */
#define ASC_EVENT_IOC_SET_FLAG	_IOW(ASC_EVENT_IOC_MAGIC, 0x44, struct asc_event_ref)
/* Wait until the flag is set, then clear it; -ETIMEDOUT at the deadline. */
#define ASC_EVENT_IOC_WAIT_FLAG	_IOW(ASC_EVENT_IOC_MAGIC, 0x45, struct asc_event_wait)
/* Release every ID, clear every flag, cancel every wait (-ECANCELED). */
#define ASC_EVENT_IOC_RESET	_IOWR(ASC_EVENT_IOC_MAGIC, 0x46, struct asc_event_reset)

/* The calling thread stands for @pipe on this TPipe; -EBUSY if taken. */
#define ASC_EVENT_IOC_BIND_PIPE	_IOW(ASC_EVENT_IOC_MAGIC, 0x47, struct asc_event_bind)
/* Report the TPipe's mode (ASC_EVENT_MODE_*). */
#define ASC_EVENT_IOC_GET_MODE	_IOR(ASC_EVENT_IOC_MAGIC, 0x48, struct asc_event_mode)
/* Change the TPipe's mode: e.g. checked mode off for code using quirks. */
#define ASC_EVENT_IOC_SET_MODE	_IOW(ASC_EVENT_IOC_MAGIC, 0x49, struct asc_event_mode)

/* The scalar issues a set or wait to its pipe's queue; checked now. */
#define ASC_EVENT_IOC_ISSUE	_IOWR(ASC_EVENT_IOC_MAGIC, 0x4a, struct asc_event_issue)
/* The pipe runs the oldest instruction of its queue. */
#define ASC_EVENT_IOC_EXECUTE	_IOW(ASC_EVENT_IOC_MAGIC, 0x4b, struct asc_event_execute)

/* A new multi-core launch, as a file descriptor. */
#define ASC_EVENT_IOC_LAUNCH	_IOWR(ASC_EVENT_IOC_MAGIC, 0x4c, struct asc_event_launch)
/* This TPipe becomes a core of a launch. */
#define ASC_EVENT_IOC_JOIN	_IOW(ASC_EVENT_IOC_MAGIC, 0x4d, struct asc_event_join)
/* Which core of its launch this TPipe is. */
#define ASC_EVENT_IOC_CORE_INFO	_IOR(ASC_EVENT_IOC_MAGIC, 0x4e, struct asc_event_core_info)
/* CrossCoreSetFlag<mode, pipe>(flag_id). */
#define ASC_EVENT_IOC_CROSS_SET	_IOW(ASC_EVENT_IOC_MAGIC, 0x4f, struct asc_event_cross_set)
/* CrossCoreWaitFlag(flag_id): wait for the counter, take 1. */
#define ASC_EVENT_IOC_CROSS_WAIT _IOW(ASC_EVENT_IOC_MAGIC, 0x50, struct asc_event_cross_wait)
/* SyncAll(): every core of the launch meets here. */
#define ASC_EVENT_IOC_SYNC_ALL	_IOW(ASC_EVENT_IOC_MAGIC, 0x51, struct asc_event_sync_all)

#endif /* _UAPI_LINUX_ASC_EVENT_H */
