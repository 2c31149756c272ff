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
 * enum asc_hard_event - HardEvent numbers in pyasc's numbering
 * (%ASC_HARD_EVENT_MTE2_MTE1 = 0 ... %ASC_HARD_EVENT_FIX_FIX = 34).
 *
 * Generated from the table in <linux/asc_hard_event.h>, the only place it is
 * written.  %ASC_HARD_EVENT_COUNT is how many there are.  The constants are
 * ABI; the enum type itself never appears in a struct.
 */
enum asc_hard_event {
#define ASC_HARD_EVENT(name, value, src, dst)	ASC_HARD_EVENT_##name,
#include <linux/asc_hard_event.h>
#undef ASC_HARD_EVENT
	ASC_HARD_EVENT_COUNT
};

/*
 * Hardware pipes, in pyasc's PipeID numbering: what a thread stands for,
 * see %ASC_EVENT_IOC_BIND_PIPE.  The gaps (6 is PIPE_ALL, 7..9 pipes of
 * other chips) are not pipes a thread can bind to.
 */
#define ASC_PIPE_S	0	/* scalar */
#define ASC_PIPE_V	1	/* vector */
#define ASC_PIPE_M	2	/* cube (matrix) */
#define ASC_PIPE_MTE1	3	/* data mover L1 -> L0A/L0B */
#define ASC_PIPE_MTE2	4	/* data mover GM -> L1/UB */
#define ASC_PIPE_MTE3	5	/* data mover UB -> GM */
#define ASC_PIPE_FIX	10	/* fixpipe L0C -> GM/L1 */
/* Not a pipe: drop the calling thread's binding. */
#define ASC_PIPE_NONE	(-1)

/** ASC_EVENT_IDS_MAX - the most IDs per HardEvent a device can have. */
#define ASC_EVENT_IDS_MAX	64

/** ASC_EVENT_WAIT_FOREVER - a wait deadline that never expires. */
#define ASC_EVENT_WAIT_FOREVER	(~(__u64)0)

/**
 * struct asc_event_info - what the device is, for %ASC_EVENT_IOC_INFO.
 * @abi_version: %ASC_EVENT_ABI_VERSION of the driver.
 * @nr_events: number of HardEvents (%ASC_HARD_EVENT_COUNT).
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

/**
 * struct asc_event_ref - one (HardEvent, ID), for alloc, fetch, release
 * and set_flag.
 * @event: HardEvent number, below %ASC_HARD_EVENT_COUNT.
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
 * @event: HardEvent number, below %ASC_HARD_EVENT_COUNT.
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
 * @pipe: ASC_PIPE_* the calling thread stands for on this TPipe, or
 *	%ASC_PIPE_NONE to drop its binding.
 * @flags: must be zero.
 */
struct asc_event_bind {
	__s32 pipe;
	__u32 flags;
};

/*
 * ASC_EVENT_MODE_CHECKED - checked mode: sets and waits must come from the
 * HardEvent's source and destination pipe (for bound threads) and use an
 * allocated or fetched ID; waits that can never end fail with -EDEADLK.
 */
#define ASC_EVENT_MODE_CHECKED	0x1U

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

#endif /* _UAPI_LINUX_ASC_EVENT_H */
