/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * asc_event: emulated Ascend AI-core event flags, userspace API.
 *
 * Every open of /dev/asc_event is one TPipe running on one virtual AI core:
 * it owns a pool of event IDs per HardEvent and one flag bit per
 * (HardEvent, ID).  The ioctls below allocate, fetch and release IDs, set
 * and wait for flags, and reset the TPipe.  Closing the file destroys it.
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
#define ASC_HARD_EVENT(name, value)	ASC_HARD_EVENT_##name,
#include <linux/asc_hard_event.h>
#undef ASC_HARD_EVENT
	ASC_HARD_EVENT_COUNT
};

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
 * @features: ASC_EVENT_FEATURE_* bits; none are defined by ABI version 1.
 */
struct asc_event_info {
	__u32 abi_version;
	__u32 nr_events;
	__u32 event_ids;
	__u32 pad;
	__u64 features;
};

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

#endif /* _UAPI_LINUX_ASC_EVENT_H */
