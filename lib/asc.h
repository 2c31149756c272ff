/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libasc: userspace access to the emulated Ascend AI-core event flags of
 * /dev/asc_event.
 *
 * A struct asc_pipe is one TPipe: one open of the device, running on its
 * own virtual AI core with its own pool of event IDs per HardEvent and its
 * own flag registers.  Names follow pyasc: asc_alloc_event_id() is
 * TPipe.alloc_event_id(), asc_set_flag() is set_flag(), and so on.
 *
 * Conventions, for every function below unless its comment says otherwise:
 *
 * - Success returns 0 (or the event ID, or the count asked for).  Failure
 *   returns -1 (NULL for pointers) and sets errno, either to the code the
 *   driver returned or to EINVAL for an argument the library rejects itself
 *   (a NULL pipe, a HardEvent outside 0..ASC_HARD_EVENT_COUNT - 1, a
 *   negative event ID).
 * - Every function may be called from several threads on the same pipe at
 *   once.  A pipe never changes after asc_pipe_open(); each call is one
 *   ioctl on the shared file descriptor, and the driver makes each of them
 *   atomic.  Only asc_pipe_close() must not race with other calls on the
 *   same pipe.
 * - HardEvents are the ASC_HARD_EVENT_* constants of <linux/asc_event.h>,
 *   included below (ASC_HARD_EVENT_MTE2_MTE1 = 0 ... ASC_HARD_EVENT_FIX_FIX
 *   = 34, ASC_HARD_EVENT_COUNT = 35).
 *
 * Link with `pkg-config --cflags --libs libasc`.  See
 * Documentation/libasc.rst for the full description.
 */
#ifndef __LIBASC_ASC_H__
#define __LIBASC_ASC_H__

#include <stdint.h>
#include <linux/asc_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct asc_pipe - one TPipe: an open of the event device.
 *
 * Opaque.  Created by asc_pipe_open(), destroyed by asc_pipe_close().
 */
struct asc_pipe;

/**
 * asc_pipe_open() - open the event device as a new TPipe.
 * @path: device node to open, or NULL for the default: the value of the
 *	environment variable ASC_EVENT_DEV if it is set and not empty
 *	(ignored in set-user-ID and similar programs, see secure_getenv(3)),
 *	else "/dev/asc_event".
 *
 * The node is opened O_RDWR | O_CLOEXEC.  The new TPipe has no ID allocated
 * and no flag set, and shares nothing with any other open of the device
 * (but a child created by fork(2) shares its parent's pipes: same open
 * file, same TPipe).  The library asks the device what it is and refuses
 * one it does not know.
 *
 * Return: the new pipe, or NULL with errno set: ENOMEM; any error of
 * open(2) (ENOENT when the node does not exist, EACCES...); ENOTTY when
 * @path is not an event device; EPROTO when the device reports an ABI
 * version other than ASC_EVENT_ABI_VERSION, a number of HardEvents other
 * than ASC_HARD_EVENT_COUNT, or a number of IDs outside
 * 1..ASC_EVENT_IDS_MAX.
 */
struct asc_pipe *asc_pipe_open(const char *path);

/**
 * asc_pipe_close() - destroy a TPipe (TPipe.destroy).
 * @pipe: pipe to close; NULL does nothing.
 *
 * Closes the file descriptor: the driver releases every ID, clears every
 * flag and discards the TPipe.  @pipe is freed and must not be used again;
 * no other thread may be using it.  errno is preserved.
 */
void asc_pipe_close(struct asc_pipe *pipe);

/**
 * asc_pipe_reset() - return a TPipe to its initial state (TPipe.reset).
 * @pipe: the pipe.
 *
 * Releases every ID, clears every flag, and makes every call blocked in
 * asc_wait_flag() or asc_wait_flag_timeout() on this pipe fail with
 * ECANCELED.  The pipe stays open and usable.
 *
 * Return: 0, or -1 with errno set (EINVAL for a NULL @pipe, or the
 * driver's code).
 */
int asc_pipe_reset(struct asc_pipe *pipe);

/**
 * asc_alloc_event_id() - allocate an event ID (TPipe.alloc_event_id).
 * @pipe: the pipe.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * Takes the lowest free ID of @event and marks it allocated.
 *
 * Return: the ID (0..asc_event_ids() - 1), or -1 with errno set: EINVAL
 * for a NULL @pipe or a bad @event; ENOSPC when every ID of @event is
 * allocated (nothing changes).
 */
int asc_alloc_event_id(struct asc_pipe *pipe, int event);

/**
 * asc_fetch_event_id() - look up the next free event ID
 * (TPipe.fetch_event_id).
 * @pipe: the pipe.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * Reports the ID asc_alloc_event_id() would return now, without
 * allocating it: two fetches in a row return the same ID.
 *
 * Return: the ID, or -1 with errno set: EINVAL for a NULL @pipe or a bad
 * @event; ENOSPC when every ID of @event is allocated.
 */
int asc_fetch_event_id(struct asc_pipe *pipe, int event);

/**
 * asc_release_event_id() - give back an allocated event ID
 * (TPipe.release_event_id).
 * @pipe: the pipe.
 * @id: the ID to release.
 * @event: its HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * Note the order of the arguments, ID before HardEvent, as in pyasc.  The
 * flag of the ID is not touched.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @pipe, a bad @event,
 * or an @id that is negative or not below asc_event_ids(); ENOENT when @id
 * is in range but not allocated.
 */
int asc_release_event_id(struct asc_pipe *pipe, int id, int event);

/**
 * asc_set_flag() - set the flag of an event ID (set_flag).
 * @pipe: the pipe.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 * @id: event ID, 0..asc_event_ids() - 1.
 *
 * Never blocks.  Wakes one caller waiting for this flag, if there is one;
 * otherwise the flag stays set until a wait consumes it.  The ID need not
 * be allocated.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @pipe, a bad @event or
 * an @id out of range; EBUSY when the flag is already set (undefined on the
 * hardware; nothing changes).
 */
int asc_set_flag(struct asc_pipe *pipe, int event, int id);

/**
 * asc_wait_flag() - wait for the flag of an event ID (wait_flag).
 * @pipe: the pipe.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 * @id: event ID, 0..asc_event_ids() - 1.
 *
 * Blocks until the flag is set, then clears it: the wait consumes the
 * flag, and one asc_set_flag() satisfies exactly one wait however many
 * threads wait.  Same as asc_wait_flag_timeout() with a negative timeout.
 *
 * A signal handler installed with SA_RESTART restarts the wait
 * transparently.  Without SA_RESTART the call fails with EINTR; the
 * library does not retry it, so the caller decides.  A wait that had
 * already consumed the flag when the signal came succeeds.
 *
 * Return: 0 once the flag was consumed, or -1 with errno set: EINVAL for a
 * NULL @pipe, a bad @event or an @id out of range; EINTR; ECANCELED when
 * asc_pipe_reset() ran while waiting.
 */
int asc_wait_flag(struct asc_pipe *pipe, int event, int id);

/**
 * asc_wait_flag_timeout() - wait for the flag of an event ID, for a while.
 * @pipe: the pipe.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 * @id: event ID, 0..asc_event_ids() - 1.
 * @timeout_ns: how long to wait, in nanoseconds, from now.  Negative waits
 *	forever.  0 only tests: it consumes the flag if it is set and never
 *	sleeps.
 *
 * As asc_wait_flag(), but gives up after @timeout_ns.  The timeout is
 * turned into an absolute CLOCK_MONOTONIC deadline once, before the
 * ioctl, so a wait restarted after a signal keeps its original deadline.
 * A deadline beyond the range of the clock waits forever.
 *
 * Return: 0 once the flag was consumed, or -1 with errno set as for
 * asc_wait_flag(), plus ETIMEDOUT when the flag was not set in time
 * (immediately, for a @timeout_ns of 0).
 */
int asc_wait_flag_timeout(struct asc_pipe *pipe, int event, int id,
			  int64_t timeout_ns);

/**
 * asc_event_ids() - number of IDs per HardEvent on a pipe.
 * @pipe: the pipe.
 *
 * The module parameter event_ids of the driver at the time the pipe was
 * opened (8 by default, 4 emulates the older training chips); valid IDs
 * are 0..asc_event_ids() - 1.  It never changes for the life of the pipe.
 *
 * Return: 1..ASC_EVENT_IDS_MAX, or -1 with errno EINVAL for a NULL @pipe.
 */
int asc_event_ids(struct asc_pipe *pipe);

/**
 * asc_hard_event_name() - name of a HardEvent.
 * @event: HardEvent number.
 *
 * Return: the pyasc name of @event without prefix, e.g. "MTE2_V" for
 * ASC_HARD_EVENT_MTE2_V, as a static string; or NULL with errno EINVAL if
 * @event is not below ASC_HARD_EVENT_COUNT.
 */
const char *asc_hard_event_name(int event);

/**
 * asc_hard_event_from_name() - HardEvent number of a name.
 * @name: a name as returned by asc_hard_event_name(), e.g. "MTE2_V"; the
 *	match is exact and case-sensitive.
 *
 * Return: the ASC_HARD_EVENT_* value, or -1 with errno EINVAL if @name is
 * NULL or not a HardEvent name.
 */
int asc_hard_event_from_name(const char *name);

/**
 * asc_version_string() - version of the libasc package.
 *
 * This is the release of the package, e.g. "0.1.0"; it is independent of
 * the soname (libasc.so.0), which changes only when the ABI breaks.
 *
 * Return: a static string.
 */
const char *asc_version_string(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* __LIBASC_ASC_H__ */
