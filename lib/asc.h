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
 * A struct asc_core is the core runtime: a kernel written as one
 * instruction stream, as on the chip, whose scalar (the calling thread)
 * issues each instruction to the queue of its pipe, each pipe running on
 * a thread of its own, with a missing-sync detector (asc_core_run()).
 *
 * Conventions, for every function below unless its comment says otherwise:
 *
 * - Success returns 0 (or the event ID, or the count asked for).  Failure
 *   returns -1 (NULL for pointers) and sets errno, either to the code the
 *   driver returned or to EINVAL for an argument the library rejects itself
 *   (a NULL pipe, a HardEvent outside 0..ASC_HARD_EVENT_COUNT - 1, a
 *   negative event ID, a pipe ID that is not one of the seven pipes).
 * - Every function may be called from several threads on the same pipe at
 *   once.  A pipe never changes after asc_pipe_open(); each call is one
 *   ioctl on the shared file descriptor, or an alloc, release, set or wait
 *   done with atomic instructions on the pages the pipe maps (the mapped
 *   fast path, libasc.rst), and each of them is atomic.  Only asc_pipe_close() must not race with other calls on the
 *   same pipe.  The asc_core_*() calls are the exception: only the thread
 *   running the kernel makes them.
 * - HardEvents are the ASC_HARD_EVENT_* constants of enum asc_hard_event
 *   below (ASC_HARD_EVENT_MTE2_MTE1 = 0 ... ASC_HARD_EVENT_FIX_FIX = 34,
 *   ASC_HARD_EVENT_COUNT = 35), in pyasc's numbering.
 * - Pipe IDs are the ASC_PIPE_* constants of enum asc_pipe_id below, in
 *   pyasc's PipeID numbering: ASC_PIPE_S = 0, V = 1, M = 2, MTE1 = 3,
 *   MTE2 = 4, MTE3 = 5, FIX = 10.  6..9 are not pipes (6 is
 *   ASC_PIPE_ALL, for asc_core_pipe_barrier()).
 * - The header needs nothing but the C library's; the numbers are the
 *   device's (libasc checks that at build time), so a program never needs
 *   the kernel's <linux/asc_event.h>.
 *
 * Link with `pkg-config --cflags --libs libasc`.  See
 * Documentation/libasc.rst for the full description.
 */
#ifndef __LIBASC_ASC_H__
#define __LIBASC_ASC_H__

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum asc_hard_event - HardEvents, in pyasc's numbering.
 *
 * A HardEvent names a direction SRC_DST, "pipe SRC finished, tell pipe
 * DST": ASC_HARD_EVENT_MTE2_V is set by MTE2 and waited for by V (see
 * asc_hard_event_src_pipe() and asc_hard_event_dst_pipe()).
 * ASC_HARD_EVENT_COUNT is how many there are.  Functions take a HardEvent
 * as an int.
 */
enum asc_hard_event {
	ASC_HARD_EVENT_MTE2_MTE1 = 0,
	ASC_HARD_EVENT_MTE1_MTE2 = 1,
	ASC_HARD_EVENT_MTE1_M = 2,
	ASC_HARD_EVENT_M_MTE1 = 3,
	ASC_HARD_EVENT_MTE2_V = 4,
	ASC_HARD_EVENT_V_MTE2 = 5,
	ASC_HARD_EVENT_MTE3_V = 6,
	ASC_HARD_EVENT_V_MTE3 = 7,
	ASC_HARD_EVENT_M_V = 8,
	ASC_HARD_EVENT_V_M = 9,
	ASC_HARD_EVENT_V_V = 10,
	ASC_HARD_EVENT_MTE3_MTE1 = 11,
	ASC_HARD_EVENT_MTE1_MTE3 = 12,
	ASC_HARD_EVENT_MTE1_V = 13,
	ASC_HARD_EVENT_MTE2_M = 14,
	ASC_HARD_EVENT_M_MTE2 = 15,
	ASC_HARD_EVENT_V_MTE1 = 16,
	ASC_HARD_EVENT_M_FIX = 17,
	ASC_HARD_EVENT_FIX_M = 18,
	ASC_HARD_EVENT_MTE3_MTE2 = 19,
	ASC_HARD_EVENT_MTE2_MTE3 = 20,
	ASC_HARD_EVENT_S_V = 21,
	ASC_HARD_EVENT_V_S = 22,
	ASC_HARD_EVENT_S_MTE2 = 23,
	ASC_HARD_EVENT_MTE2_S = 24,
	ASC_HARD_EVENT_S_MTE3 = 25,
	ASC_HARD_EVENT_MTE3_S = 26,
	ASC_HARD_EVENT_MTE2_FIX = 27,
	ASC_HARD_EVENT_FIX_MTE2 = 28,
	ASC_HARD_EVENT_FIX_S = 29,
	ASC_HARD_EVENT_M_S = 30,
	ASC_HARD_EVENT_FIX_MTE3 = 31,
	ASC_HARD_EVENT_MTE1_FIX = 32,
	ASC_HARD_EVENT_FIX_MTE1 = 33,
	ASC_HARD_EVENT_FIX_FIX = 34,
	ASC_HARD_EVENT_COUNT = 35,
};

/**
 * enum asc_pipe_id - hardware pipes, in pyasc's PipeID numbering.
 *
 * ASC_PIPE_S scalar, ASC_PIPE_V vector, ASC_PIPE_M cube, ASC_PIPE_MTE1
 * (L1 to L0A/L0B), ASC_PIPE_MTE2 (GM to L1/UB), ASC_PIPE_MTE3 (UB to GM),
 * ASC_PIPE_FIX (L0C to GM/L1).  The gaps 6..9 are not pipes: 6 is pyasc's
 * PIPE_ALL, ASC_PIPE_ALL, which only asc_core_pipe_barrier() takes ("every
 * pipe"), 7..9 are pipes of other chips.  ASC_PIPE_NONE is no pipe: see
 * asc_pipe_bind().  Functions take a pipe ID as an int.
 */
enum asc_pipe_id {
	ASC_PIPE_NONE = -1,
	ASC_PIPE_S = 0,
	ASC_PIPE_V = 1,
	ASC_PIPE_M = 2,
	ASC_PIPE_MTE1 = 3,
	ASC_PIPE_MTE2 = 4,
	ASC_PIPE_MTE3 = 5,
	ASC_PIPE_ALL = 6,
	ASC_PIPE_FIX = 10,
};

/**
 * enum asc_mode - mode bits of a TPipe, for asc_pipe_set_mode().
 *
 * ASC_MODE_CHECKED is checked mode (see asc_pipe_set_checked()).
 * ASC_MODE_STRICT_IDS, only together with ASC_MODE_CHECKED, is pyasc's
 * rule for IDs: a set or wait on an ID that is neither allocated nor the
 * last fetched one (a hand-written ID) fails with ENOENT.  Without it,
 * checked mode allows hand-written IDs as Ascend C does (catlass writes
 * all of its IDs by hand) and refuses instead an asc_alloc_event_id() or
 * asc_fetch_event_id() that would hand out an ID hand-written code is
 * using (EADDRINUSE).  The values are the device's.
 */
enum asc_mode {
	ASC_MODE_CHECKED = 1,
	ASC_MODE_STRICT_IDS = 2,
};

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
 * file, same TPipe).  An explicit @path is used as given.  The library
 * asks the device what it is (ASC_EVENT_IOC_INFO) and refuses one it does
 * not know.  Nothing is left open on failure.
 *
 * Return: the new pipe, or NULL with errno set: ENOMEM; any error of
 * open(2) (ENOENT when the node does not exist, EACCES...); ENOTTY when
 * @path is not an event device (a regular file, /dev/null...); EPROTO
 * when the device reports an ABI version other than the one libasc was
 * built for, a number of HardEvents other than ASC_HARD_EVENT_COUNT, or a
 * number of IDs outside 1..64.
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
 * Releases every ID, clears every flag, forgets the ID of every
 * asc_fetch_event_id(), and makes every call blocked in asc_wait_flag() or
 * asc_wait_flag_timeout() on this pipe fail with ECANCELED.  The pipe
 * stays open and usable; the bindings of asc_pipe_bind() stay.  The same
 * as asc_pipe_reset_leftovers() with both counts NULL.
 *
 * Return: 0, or -1 with errno set (EINVAL for a NULL @pipe, or the
 * driver's code).
 */
int asc_pipe_reset(struct asc_pipe *pipe);

/**
 * asc_pipe_reset_leftovers() - reset a TPipe and count what was left over.
 * @pipe: the pipe.
 * @ids_held: where to store how many IDs were still allocated, or NULL.
 * @flags_pending: where to store how many flags were set and never waited
 *	on, or NULL.
 *
 * As asc_pipe_reset(), and reports the two counts the driver returns: a
 * correct kernel releases every ID it allocates and waits for every flag
 * it sets, so both are 0 after one.  Nothing is stored on failure.
 *
 * Return: 0, or -1 with errno set (EINVAL for a NULL @pipe, or the
 * driver's code).
 */
int asc_pipe_reset_leftovers(struct asc_pipe *pipe, unsigned int *ids_held,
			     unsigned int *flags_pending);

/**
 * asc_pipe_bind() - declare the pipe the calling thread stands for.
 * @pipe: the pipe.
 * @pipe_id: an ASC_PIPE_* pipe, or ASC_PIPE_NONE to drop the binding.
 *
 * From now on the calling thread (the thread, not the process) is pipe
 * @pipe_id of this TPipe.  In checked mode the driver then refuses an
 * asc_set_flag() of a HardEvent whose source pipe is not @pipe_id and an
 * asc_wait_flag() or asc_wait_flag_timeout() of one whose destination pipe
 * is not @pipe_id (EPERM), and watches the thread for deadlocks (EDEADLK).
 * The thread also owns the pipe: while it lives, no other thread may set
 * the HardEvents whose source is @pipe_id (EPERM), and checked mode cannot
 * be turned on or off (EBUSY from asc_pipe_set_checked()).  Threads that
 * never bind are not checked for their role.
 *
 * One thread per pipe per TPipe: binding a thread to a pipe it already
 * has succeeds and changes nothing, binding it to another pipe moves it
 * there, and a pipe whose thread has exited can be taken over.
 * ASC_PIPE_NONE succeeds even for a thread that was not bound.  A binding
 * survives asc_pipe_reset() and ends with asc_pipe_close().
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @pipe or a @pipe_id
 * that is neither a pipe nor ASC_PIPE_NONE; EBUSY when another live thread
 * is bound to @pipe_id on this TPipe (nothing changes); ENOTTY when the
 * driver predates pipe roles (no ASC_EVENT_FEATURE_CHECKED).
 */
int asc_pipe_bind(struct asc_pipe *pipe, int pipe_id);

/**
 * asc_pipe_set_checked() - turn checked mode of a TPipe on or off.
 * @pipe: the pipe.
 * @checked: nonzero for on, 0 for off.
 *
 * Checked mode is on by default for a new TPipe (the module parameter
 * checked sets the default).  It makes the driver refuse what the hardware
 * would punish: a set or wait from the wrong pipe (EPERM), an
 * asc_alloc_event_id() or asc_fetch_event_id() that would hand out an ID
 * that hand-written code uses (EADDRINUSE; a hand-written ID is one that
 * is neither allocated nor the one the last asc_fetch_event_id() of its
 * HardEvent returned), and a wait that can never end (EDEADLK).  Turn it
 * off for code that relies on hardware quirks on purpose; the behaviour is
 * then that of a driver without checked mode.  Double sets (EBUSY) and
 * releases of a free ID (ENOENT) are errors either way.
 *
 * Writes the whole mode of the TPipe in one ASC_EVENT_IOC_SET_MODE,
 * without reading it first, ASC_MODE_CHECKED or 0 (so it also turns strict
 * IDs off, see asc_pipe_set_mode()), for all the threads of the TPipe.  Choose the mode before threads bind to pipes: it
 * cannot change while one is bound, so that no check depends on when the
 * change lands.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @pipe; EBUSY when
 * the mode would change while a live thread is bound to a pipe of the
 * TPipe (nothing changes); ENOTTY when the driver predates checked mode.
 */
int asc_pipe_set_checked(struct asc_pipe *pipe, int checked);

/**
 * asc_pipe_set_mode() - set the mode of a TPipe.
 * @pipe: the pipe.
 * @mode: 0, ASC_MODE_CHECKED, or ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS.
 *
 * As asc_pipe_set_checked(), with strict IDs too: writes the whole mode
 * of the TPipe in one ioctl.  Choose the mode before threads bind to
 * pipes.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @pipe, a negative
 * @mode, bits the device does not know, or ASC_MODE_STRICT_IDS without
 * ASC_MODE_CHECKED; EBUSY when the mode would change while a live thread
 * is bound to a pipe of the TPipe (nothing changes); ENOTTY when the
 * driver predates checked mode.
 */
int asc_pipe_set_mode(struct asc_pipe *pipe, int mode);

/**
 * asc_pipe_mode() - the mode of a TPipe.
 * @pipe: the pipe.
 *
 * One ASC_EVENT_IOC_GET_MODE.
 *
 * Return: the ASC_MODE_* bits of @pipe (0 when checked mode is off; bits
 * a later driver may add are passed on, but for bit 31, left out so that
 * the result stays positive), or -1 with errno set: EINVAL for a NULL
 * @pipe; ENOTTY when the driver predates checked mode.
 */
int asc_pipe_mode(struct asc_pipe *pipe);

/**
 * asc_pipe_checked() - whether checked mode of a TPipe is on.
 * @pipe: the pipe.
 *
 * One ASC_EVENT_IOC_GET_MODE.
 *
 * Return: 1 when checked mode is on, 0 when it is off, or -1 with errno
 * set: EINVAL for a NULL @pipe; ENOTTY when the driver predates checked
 * mode.
 */
int asc_pipe_checked(struct asc_pipe *pipe);

/**
 * asc_alloc_event_id() - allocate an event ID (TPipe.alloc_event_id).
 * @pipe: the pipe.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * Takes the lowest free ID of @event and marks it allocated.
 *
 * Return: the ID (0..asc_event_ids() - 1), or -1 with errno set: EINVAL
 * for a NULL @pipe or a bad @event; ENOSPC when every ID of @event is
 * allocated (nothing changes); EADDRINUSE in checked mode without strict
 * IDs when hand-written code uses the ID it would hand out (its flag set
 * by a hand-written set, a hand-written set or wait issued or blocked;
 * nothing changes, and the driver logs a report naming the use).
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
 * @event; ENOSPC when every ID of @event is allocated; EADDRINUSE as for
 * asc_alloc_event_id().
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
 * otherwise the flag stays set until a wait consumes it.  Done in
 * userspace on the mapped flags when that gives the ioctl's result (see
 * "The mapped fast path" in libasc(3); $ASC_NO_FASTPATH turns it off).  The ID need not
 * be allocated, but with strict IDs (asc_pipe_set_mode()) it must be
 * allocated or be the ID the last asc_fetch_event_id() of @event
 * returned.  In checked mode (the default) the call must come from the
 * source pipe of @event (asc_hard_event_src_pipe()): the thread bound to
 * it, or an unbound thread while no live thread is bound to it.
 *
 * Return: 0, or -1 with errno set, checked in this order: EINVAL for a NULL
 * @pipe, a bad @event or an @id out of range; EPERM in checked mode when
 * the calling thread is bound to another pipe than the source of @event,
 * or is not bound while another live thread is;
 * ENOENT with strict IDs when @id is neither allocated nor fetched (a
 * hand-written ID); EBUSY when the flag is already set (undefined on the
 * hardware).  Nothing changes on failure.
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
 * A flag already set is taken in userspace on the mapped flags when that
 * gives the ioctl's result (see asc_set_flag()); a wait that must block
 * always blocks in the driver.
 *
 * A signal handler installed with SA_RESTART restarts the wait
 * transparently.  Without SA_RESTART the call fails with EINTR; the
 * library does not retry it, so the caller decides.  A wait that had
 * already consumed the flag when the signal came succeeds.
 *
 * With strict IDs the ID must be allocated or be the ID the last
 * asc_fetch_event_id() of @event returned.  In checked mode (the default)
 * a thread bound with asc_pipe_bind() must be bound to the destination
 * pipe of @event (asc_hard_event_dst_pipe()).
 *
 * Checked mode also detects deadlocks.  A bound thread waiting forever for
 * @event waits for the thread bound to the source pipe of @event, the only
 * thread that may set @event while it lives.  When a bound thread starts
 * such a wait and these links, followed from it, come back to it (a V
 * thread waiting for V_V is the shortest case), nobody can ever set the
 * flags: every wait of that cycle fails with EDEADLK instead of hanging,
 * and the driver logs one report.  A chain that reaches a pipe no live
 * thread is bound to, or a thread that is running or waiting with a
 * deadline, is no deadlock, and a wait that only leads into a cycle waits
 * on (the cycle's threads come back and may still set its flag).  What
 * other threads do before or after does not change the outcome.
 *
 * Return: 0 once the flag was consumed, or -1 with errno set: EINVAL for a
 * NULL @pipe, a bad @event or an @id out of range; EPERM in checked mode
 * when the calling thread is bound to another pipe than the destination of
 * @event; ENOENT with strict IDs when @id is neither allocated nor fetched
 * (a hand-written ID); EINTR; ECANCELED when asc_pipe_reset() ran while
 * waiting; EDEADLK in checked mode when the wait can never end.  EINVAL,
 * EPERM and ENOENT are checked in this order, before waiting, and change
 * nothing.
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
 * ioctl, so a wait restarted after a signal keeps its original deadline:
 * the uAPI's ASC_EVENT_WAIT_FOREVER for a negative @timeout_ns, 0 (in the
 * past) for 0, else now plus @timeout_ns.  A deadline beyond the range of
 * the clock (a sum that does not fit in 64 bits) waits forever.
 *
 * Only a wait that waits forever (a negative @timeout_ns, or a deadline
 * beyond the range of the clock) takes part in deadlock detection: a wait
 * with a deadline ends by itself, so it never fails with EDEADLK and never
 * makes another wait fail with it.
 *
 * Return: 0 once the flag was consumed, or -1 with errno set as for
 * asc_wait_flag() (EDEADLK only when waiting forever), plus ETIMEDOUT when
 * the flag was not set in time (immediately, for a @timeout_ns of 0).
 */
int asc_wait_flag_timeout(struct asc_pipe *pipe, int event, int id,
			  int64_t timeout_ns);

/**
 * asc_event_ids() - number of IDs per HardEvent on a pipe.
 * @pipe: the pipe.
 *
 * The module parameter event_ids of the driver at the time the pipe was
 * opened (8 by default, 4 emulates the older training chips); valid IDs
 * are 0..asc_event_ids() - 1.  It never changes for the life of the pipe,
 * so the call makes no system call.
 *
 * Return: 1..64, or -1 with errno EINVAL for a NULL @pipe.
 */
int asc_event_ids(struct asc_pipe *pipe);

/**
 * asc_hard_event_name() - name of a HardEvent.
 * @event: HardEvent number.
 *
 * Needs no device.
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
 * Needs no device.
 *
 * Return: the ASC_HARD_EVENT_* value, or -1 with errno EINVAL if @name is
 * NULL or not a HardEvent name.
 */
int asc_hard_event_from_name(const char *name);

/**
 * asc_hard_event_src_pipe() - the pipe that sets a HardEvent's flags.
 * @event: HardEvent number.
 *
 * Every HardEvent is a direction SRC_DST, "pipe SRC finished, tell pipe
 * DST": ASC_PIPE_MTE2 for ASC_HARD_EVENT_MTE2_V.  In checked mode only a
 * thread bound to this pipe, or an unbound thread while no live thread is
 * bound to it, may call asc_set_flag() on @event.  Needs no device.
 *
 * Return: the ASC_PIPE_* value, or -1 with errno EINVAL if @event is not
 * below ASC_HARD_EVENT_COUNT (-1 is never a pipe).
 */
int asc_hard_event_src_pipe(int event);

/**
 * asc_hard_event_dst_pipe() - the pipe that waits for a HardEvent's flags.
 * @event: HardEvent number.
 *
 * ASC_PIPE_V for ASC_HARD_EVENT_MTE2_V.  V_V and FIX_FIX are barriers
 * within one pipe: their source and destination are the same.  In checked
 * mode only a thread bound to this pipe, or an unbound thread, may wait
 * for @event.  Needs no device.
 *
 * Return: the ASC_PIPE_* value, or -1 with errno EINVAL if @event is not
 * below ASC_HARD_EVENT_COUNT (-1 is never a pipe).
 */
int asc_hard_event_dst_pipe(int event);

/**
 * asc_pipe_id_name() - name of a pipe.
 * @pipe_id: an ASC_PIPE_* value.
 *
 * Needs no device.
 *
 * Return: the pyasc name of @pipe_id without prefix: "S", "V", "M",
 * "MTE1", "MTE2", "MTE3" or "FIX", as a static string; or NULL with errno
 * EINVAL if @pipe_id is not one of these seven pipes (ASC_PIPE_NONE and
 * the gaps 6..9 included).
 */
const char *asc_pipe_id_name(int pipe_id);

/**
 * asc_pipe_id_from_name() - pipe ID of a name.
 * @name: a name as returned by asc_pipe_id_name(), e.g. "MTE2"; the match
 *	is exact and case-sensitive.
 *
 * Needs no device.
 *
 * Return: the ASC_PIPE_* value, or -1 with errno EINVAL if @name is NULL
 * or not a pipe name ("NONE" is not one).
 */
int asc_pipe_id_from_name(const char *name);

/*
 * The core runtime: a kernel written as on the chip, one instruction
 * stream, run by the scalar of one emulated AI core.  See
 * Documentation/libasc.rst, "Core runtime".
 */

/**
 * struct asc_core - one emulated AI core running one kernel.
 *
 * Opaque.  asc_core_run() creates it, hands it to the kernel function and
 * destroys it when that returns.  Only the thread running the kernel
 * function (the scalar) may call the asc_core_*() functions with it.
 */
struct asc_core;

/**
 * asc_kernel_fn - a kernel: the program of the scalar unit.
 * @core: the core it runs on, for the asc_core_*() calls.
 * @arg: the argument given to asc_core_run().
 *
 * Called once, on the thread that called asc_core_run().
 */
typedef void (*asc_kernel_fn)(struct asc_core *core, void *arg);

/**
 * asc_work_fn - the work of one instruction, run by a pipe.
 * @arg: the argument given to asc_core_issue().
 *
 * Runs on the thread of the pipe it was issued to, in issue order with
 * the other instructions of that pipe; it must not call the asc_core_*()
 * functions.
 */
typedef void (*asc_work_fn)(void *arg);

/**
 * struct asc_access - a buffer an instruction reads or writes.
 * @addr: first byte, not NULL.
 * @size: number of bytes, at least 1.
 * @write: nonzero when the instruction writes them (or writes some and
 *	reads others), 0 when it only reads them.
 * @name: the buffer's name in the report, or NULL; copied.
 *
 * What asc_core_issue() declares for the missing-sync detector: two
 * accesses of overlapping bytes from different pipes, at least one a
 * write, must be ordered by a set/wait pair or a barrier.
 */
struct asc_access {
	const void *addr;
	size_t size;
	int write;
	const char *name;
};

/**
 * struct asc_core_attr - how asc_core_run() sets up the core.
 * @device: the device node, as for asc_pipe_open() (NULL: the default).
 * @unchecked: nonzero to run the TPipe with checked mode off (mode 0).
 * @strict_ids: nonzero for checked mode with strict IDs (pyasc's rule,
 *	ASC_MODE_CHECKED | ASC_MODE_STRICT_IDS); not with @unchecked.
 *
 * Zeroed, or a NULL pointer, is the default device in checked mode,
 * hand-written IDs allowed (ASC_MODE_CHECKED).
 */
struct asc_core_attr {
	const char *device;
	int unchecked;
	int strict_ids;
};

/**
 * asc_core_run() - run a kernel on one emulated AI core.
 * @kernel: the kernel function.
 * @arg: passed to @kernel.
 * @attr: the device and mode, or NULL for the defaults.
 * @report: where to store the report, or NULL: a malloc()ed text, one
 *	line per finding, for the caller to free(); NULL when there is none.
 *	After a run without an error, the memory checks' warnings
 *	("uninitialized read: ..."), or NULL when there are none.
 *
 * Opens a new TPipe (asc_pipe_open() of @attr->device), sets its mode,
 * binds the calling thread to ASC_PIPE_S and calls @kernel on it: the
 * calling thread is the scalar unit, which runs the kernel in program
 * order and issues each instruction into the in-order queue of its pipe
 * (asc_core_issue(), asc_core_set_flag(), asc_core_wait_flag()).  Each
 * other pipe has a thread of its own, started when something is first
 * issued to it and bound to its pipe, which runs its queue in order; the
 * pipes run in parallel.  When @kernel returns, the scalar waits until
 * every queue has drained, the threads end, and the TPipe is closed.
 *
 * Every instruction is also fed, in program order, to a missing-sync
 * detector, before its pipe gets it.  It finds, from the issue order
 * alone and so the same on every run: accesses (struct asc_access) of
 * different pipes to the same bytes, one of them a write, that no set/wait
 * pair or barrier orders (what the scalar did itself, a wait on S or a
 * load, is ordered before what it issues after; its stores are not)
 * (ENOLCK, "missing sync"); a set of a flag that
 * may come before the wait for the previous set of that flag (EBUSY,
 * "possible double set"); waits that wait for one another in a cycle, and
 * a wait no issued set can satisfy where the scalar must wait for it (a
 * wait on S, a full queue, asc_core_pipe_barrier() of ASC_PIPE_ALL,
 * asc_core_reset(), the end of the kernel) (EDEADLK); a flag set and never
 * waited for by the end of the kernel or a reset (ENOLCK, "missing wait").
 *
 * The first error wins: the kernel's calls fail from then on with its
 * errno and do nothing, the TPipe is reset (which ends the pipes' waits),
 * the pipes skip what is left in their queues, and asc_core_run() returns
 * it, with the report: the detector's findings, or the call that failed,
 * its instruction number (1, 2, ... counting every asc_core_*() call of
 * the kernel but asc_core_pipe() and the getters), its call site when
 * known ("at vadd.c:42", see "Call sites" below), its pipe and the error.
 *
 * The core has local memory (asc_core_local_mem()), where its TPipe
 * places the buffers of its queues and TBufs (asc_core_tque(),
 * asc_core_init_buffer()).  When the kernel returns, a tensor of a queue
 * allocated and not freed, or enqueued and not dequeued, is an error
 * (ENOLCK, one "queue:" line each), and the TPipe is destroyed unless the
 * kernel did (asc_core_tpipe_destroy()), before the pipes drain.
 *
 * When the environment variable ASC_TRACE_MARKER names a file (read with
 * secure_getenv() when the run starts; ascctl trace sets it to the
 * trace_marker of its tracefs instance), the pipe that runs a work item
 * writes a line to it just before and one just after, each in one
 * write(2): "asc_span begin core=TID.RUN pipe=PIPE n=N name=NAME" and
 * "asc_span end core=TID.RUN pipe=PIPE n=N", where TID is the calling
 * thread, RUN counts the process's runs from 1, N is the item's
 * instruction number and NAME its @what (see asc_core_issue()), at most
 * 64 bytes, control characters as '?'.  Each set and wait a queue issues
 * is a span too, on its pipe, named after the queue's call
 * ("inQueueX.enque", "inQueueX.deque", "inQueueX.free_tensor",
 * "inQueueX.alloc_tensor").  A marker that is neither a
 * regular file nor a character device, cannot be opened, or fails a
 * write is ignored from then on; it never fails the kernel.
 *
 * Return: 0 when the kernel ran to its end without an error, or -1 with
 * errno set: EINVAL for a NULL @kernel or an @attr with both @unchecked
 * and @strict_ids; the errors of asc_pipe_open(); ENOTTY when the driver
 * cannot issue instructions (one older than ASC_EVENT_IOC_ISSUE);
 * ENOMEM; EAGAIN when a pipe's thread cannot be created; the detector's
 * ENOLCK, EBUSY and EDEADLK; the memory checks' EFAULT (an access out of
 * bounds or misaligned, see asc_core_gm_buffer() and
 * Documentation/libasc.rst, "Memory checks"); or the first error of a call of the kernel
 * (see each call) or of a pipe running an instruction.
 */
int asc_core_run(asc_kernel_fn kernel, void *arg,
		 const struct asc_core_attr *attr, char **report);

/**
 * asc_core_issue() - issue work to a pipe.
 * @core: the core.
 * @pipe_id: the ASC_PIPE_* pipe that runs it.
 * @fn: the work.
 * @arg: passed to @fn.
 * @what: what it is, for the report and the trace marker (copied), or
 *	NULL for "work".
 * @acc: the buffers it reads and writes, @nacc of them (copied).
 * @nacc: how many; 0 with a NULL @acc.
 *
 * Queues @fn at the end of the queue of @pipe_id: the pipe's thread calls
 * @fn(@arg) once everything issued to that pipe before it has run.
 * ASC_PIPE_S runs it at once, on the scalar, before this returns.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a @pipe_id
 * that is not one of the seven pipes, a NULL @fn, a NULL @acc with a
 * nonzero @nacc, or an access with a NULL @addr, of size 0 or past the
 * end of the address space; EPERM when the calling thread is not @core's scalar (nothing
 * recorded); EFAULT when an access is out of bounds of its local memory,
 * of its buffer there or of a declared global buffer
 * (asc_core_gm_buffer()), or is MTE2's or MTE3's at a Unified Buffer
 * address off a 32-byte boundary (and, with ASC_UNINIT_READS=error, when
 * it reads local memory nothing wrote since its buffer was placed);
 * ENOLCK when the detector finds a missing sync; EDEADLK when
 * the queue of @pipe_id is full (1024 instructions) and the pipe can never
 * run them; ENOMEM; or the kernel's first error, unchanged.
 */
int asc_core_issue(struct asc_core *core, int pipe_id, asc_work_fn fn,
		   void *arg, const char *what, const struct asc_access *acc,
		   unsigned int nacc);

/**
 * enum asc_op_kind - the work libasc itself runs for asc_core_issue_op().
 *
 * ASC_OP_COPY: dst = src0 (data_copy; overlapping bytes as memmove());
 * ASC_OP_ADD: dst = src0 + src1; ASC_OP_MUL: dst = src0 * src1;
 * ASC_OP_MULS: dst = src0 * scalar; ASC_OP_DUPLICATE: dst = scalar; each
 * over @count elements of struct asc_op.  ASC_OP_COPY runs on any pipe,
 * the others are vector instructions: ASC_PIPE_V only.
 */
enum asc_op_kind {
	ASC_OP_COPY = 1,
	ASC_OP_ADD = 2,
	ASC_OP_MUL = 3,
	ASC_OP_MULS = 4,
	ASC_OP_DUPLICATE = 5,
};

/**
 * enum asc_dtype - the element types of struct asc_op.
 *
 * ASC_DTYPE_INT8 .. ASC_DTYPE_INT64 and ASC_DTYPE_UINT8 ..
 * ASC_DTYPE_UINT64 are two's complement integers of 8 to 64 bits, whose
 * sums and products wrap around; ASC_DTYPE_FLOAT16, ASC_DTYPE_FLOAT32 and
 * ASC_DTYPE_FLOAT64 IEEE 754 binary16, binary32 and binary64, rounded to
 * nearest.  A sum or product of half values is computed in binary32 and
 * rounded once to binary16, as numpy does.
 */
enum asc_dtype {
	ASC_DTYPE_INT8 = 1,
	ASC_DTYPE_INT16 = 2,
	ASC_DTYPE_INT32 = 3,
	ASC_DTYPE_INT64 = 4,
	ASC_DTYPE_UINT8 = 5,
	ASC_DTYPE_UINT16 = 6,
	ASC_DTYPE_UINT32 = 7,
	ASC_DTYPE_UINT64 = 8,
	ASC_DTYPE_FLOAT16 = 9,
	ASC_DTYPE_FLOAT32 = 10,
	ASC_DTYPE_FLOAT64 = 11,
};

/**
 * struct asc_op - the work of one data_copy or vector instruction.
 * @kind: an ASC_OP_* kind.
 * @dtype: the ASC_DTYPE_* type of every operand.
 * @dst: the first element written.
 * @src0: the first element of the source (ASC_OP_COPY, ASC_OP_ADD,
 *	ASC_OP_MUL, ASC_OP_MULS); NULL for ASC_OP_DUPLICATE.
 * @src1: the first element of the second source (ASC_OP_ADD, ASC_OP_MUL);
 *	NULL for the others.
 * @scalar: the scalar of ASC_OP_MULS and ASC_OP_DUPLICATE: @scalar.i (or
 *	@scalar.u, the same bits) for an integer @dtype, taken modulo its
 *	width; @scalar.f for a float one, rounded to it.  Zero for the
 *	other kinds.
 * @count: elements of each operand, at least 1.
 *
 * asc_core_issue_op() copies it into the pipe's queue: the pipe runs it
 * in C, no callback.  Operands need no alignment.  @dst may be a source
 * or lie apart from it; for the vector kinds it must not overlap one
 * partly.
 */
struct asc_op {
	int kind;
	int dtype;
	void *dst;
	const void *src0;
	const void *src1;
	union {
		int64_t i;
		uint64_t u;
		double f;
	} scalar;
	size_t count;
};

/**
 * asc_core_issue_op() - issue a data_copy or vector instruction that
 * libasc runs.
 * @core: the core.
 * @pipe_id: the ASC_PIPE_* pipe that runs it.
 * @op: what it computes (copied).
 * @what: as for asc_core_issue().
 * @acc: as for asc_core_issue(): the bytes of each operand of @op must
 *	lie in one of these accesses, @dst's in one that writes.
 * @nacc: as for asc_core_issue().
 *
 * asc_core_issue() with @op as the work: the same detector, memory
 * checks, reports and trace marker spans, but the pipe's thread runs @op
 * itself, with no call of a function of the program and no allocation.
 *
 * Return: 0, or -1 with errno set as for asc_core_issue(); EINVAL also
 * for a NULL @op, an unknown @kind or @dtype, a @count of 0 or whose
 * bytes wrap around, an operand NULL that @kind reads or writes, or not
 * NULL (or a nonzero @scalar) that it does not, a vector kind issued to
 * another pipe than ASC_PIPE_V, an operand whose bytes lie in no access
 * of @acc (@dst: in no written one), or a @dst that partly overlaps a
 * source of a vector kind.
 */
int asc_core_issue_op(struct asc_core *core, int pipe_id,
		      const struct asc_op *op, const char *what,
		      const struct asc_access *acc, unsigned int nacc);

/**
 * asc_core_set_flag() - issue set_flag(event, id).
 * @core: the core.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 * @id: event ID, 0..asc_event_ids() - 1.
 *
 * Issued to the queue of the source pipe of @event: the flag is set once
 * everything issued to that pipe before it has run.  A set of an S_*
 * HardEvent runs at once, on the scalar.  ASC_HARD_EVENT_V_V and
 * ASC_HARD_EVENT_FIX_FIX set no flag: they are a barrier of their pipe.
 * Whether @id is allocated, fetched or hand-written is decided now, by
 * the scalar's bookkeeping, not when the pipe runs the set.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a bad @event
 * or an @id out of range; EPERM from another thread than the scalar
 * (nothing recorded); ENOENT with strict IDs for a hand-written @id;
 * EBUSY when the detector finds a possible double set; EDEADLK when the
 * queue is full (1024 instructions, or 64 sets and waits) and the pipe can
 * never run them; or the kernel's first error, unchanged.
 */
int asc_core_set_flag(struct asc_core *core, int event, int id);

/**
 * asc_core_wait_flag() - issue wait_flag(event, id).
 * @core: the core.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 * @id: event ID, 0..asc_event_ids() - 1.
 *
 * Issued to the queue of the destination pipe of @event: that pipe runs
 * nothing issued after it until it has taken the flag.  The k-th wait of
 * (@event, @id) takes the flag of the k-th set.  A wait of a *_S
 * HardEvent runs at once, on the scalar: it blocks until the flag is set,
 * or fails with EDEADLK before blocking when no issued set can ever set
 * it.  ASC_HARD_EVENT_V_V waits for nothing; ASC_HARD_EVENT_FIX_FIX is a
 * barrier of FIX.
 *
 * Return: 0, or -1 with errno set: as asc_core_set_flag(), and EDEADLK
 * when the wait closes a cycle of waits or is a wait on S no issued set
 * satisfies.
 */
int asc_core_wait_flag(struct asc_core *core, int event, int id);

/**
 * asc_core_pipe_barrier() - issue pipe_barrier(pipe).
 * @core: the core.
 * @pipe_id: a pipe other than ASC_PIPE_S, or ASC_PIPE_ALL.
 *
 * A barrier of one pipe makes everything issued to it before finish
 * before anything issued to it after starts: a pipe is in order but
 * pipelined, and the detector reports two overlapping accesses of one
 * pipe (but S and M), one a write, with no barrier of it between them
 * (Documentation/libasc.rst, "One pipe").  It is recorded as an
 * instruction of that pipe.  ASC_PIPE_ALL
 * makes the scalar wait until every pipe has run everything issued to it,
 * and orders all of that before everything issued after.  As on the
 * chip, ASC_PIPE_S is not supported.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, ASC_PIPE_S or
 * anything else that is neither a pipe nor ASC_PIPE_ALL; EPERM from
 * another thread than the scalar (nothing recorded); EDEADLK for
 * ASC_PIPE_ALL when a pipe waits for a flag no issued set satisfies; or
 * the kernel's first error, unchanged.
 */
int asc_core_pipe_barrier(struct asc_core *core, int pipe_id);

/**
 * asc_core_alloc_event_id() - TPipe.alloc_event_id, on the scalar.
 * @core: the core.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * Scalar bookkeeping, done when the scalar reaches it: asc_alloc_event_id()
 * on the core's TPipe.  An ID may be released right after issuing its set
 * and wait (pyasc's vadd does): they were checked when issued.
 *
 * Return: the ID, or -1 with errno set: EINVAL for a NULL @core or a bad
 * @event; EPERM from another thread than the scalar (nothing recorded);
 * ENOSPC; EADDRINUSE when hand-written code uses the ID it would hand out
 * (the report lists the uses of @event); or the kernel's first error,
 * unchanged.
 */
int asc_core_alloc_event_id(struct asc_core *core, int event);

/**
 * asc_core_fetch_event_id() - TPipe.fetch_event_id, on the scalar.
 * @core: the core.
 * @event: HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * asc_fetch_event_id() on the core's TPipe, when the scalar reaches it.
 *
 * Return: the ID, or -1 with errno set as for asc_core_alloc_event_id().
 */
int asc_core_fetch_event_id(struct asc_core *core, int event);

/**
 * asc_core_release_event_id() - TPipe.release_event_id, on the scalar.
 * @core: the core.
 * @id: the ID to release.
 * @event: its HardEvent, an ASC_HARD_EVENT_* constant.
 *
 * asc_release_event_id() on the core's TPipe, when the scalar reaches it;
 * ID before HardEvent, as in pyasc.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a bad @event
 * or an @id out of range; EPERM from another thread than the scalar
 * (nothing recorded); ENOENT when @id is not allocated; or the kernel's
 * first error, unchanged.
 */
int asc_core_release_event_id(struct asc_core *core, int id, int event);

/**
 * asc_core_reset() - TPipe.Reset(), on the scalar.
 * @core: the core.
 *
 * As Ascend C's Reset(): for every free buffer whose free event is set,
 * issues the wait for it (see asc_core_tpipe_destroy()); then waits until
 * every pipe has run everything issued to it (the device's reset would
 * cancel their waits) and resets the TPipe with asc_pipe_reset(): every
 * ID is released and every fetched ID forgotten, and every buffer placed
 * by asc_core_init_buffer() is forgotten (see asc_core_tpipe_init()).  A
 * tensor allocated and not freed, or enqueued and not dequeued, is an
 * error, and so is a flag set and never waited for by then (a missing
 * wait).  It orders nothing between the pipes: that is
 * asc_core_pipe_barrier() of ASC_PIPE_ALL.  Without queues it is also
 * TPipe.Init() (asc_core_tpipe_init() differs only in the free events it
 * does not wait for).
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core; EPERM from
 * another thread than the scalar (nothing recorded); EDEADLK when a pipe
 * waits for a flag no issued set satisfies; ENOLCK for a flag set and
 * never waited for, or a tensor not freed or not dequeued; or the
 * kernel's first error, unchanged.
 */
int asc_core_reset(struct asc_core *core);

/**
 * asc_core_pipe() - the TPipe of a core.
 * @core: the core.
 *
 * For calls that do not set, wait or reset, such as asc_event_ids() or
 * asc_pipe_mode(): a set, wait or reset made directly on it escapes the
 * runtime and its detector.  The pipe belongs to the core; do not close
 * it.
 *
 * Return: the pipe, or NULL with errno EINVAL for a NULL @core.
 */
struct asc_pipe *asc_core_pipe(struct asc_core *core);

/**
 * asc_core_cancel() - end a core's run from another thread (Ctrl-C).
 * @core: a core whose kernel function has not returned yet: the caller
 *	makes sure it does not return before this call does (the core is
 *	freed once the run is over).
 *
 * Any thread may call it, a signal handler not.  It records EINTR as the
 * core's first error, unless an error came first (then it does nothing),
 * as a failing call would: the core's TPipe is reset, so every wait
 * blocked in the driver ends (a wait on S, a cross-core wait, SyncAll, a
 * pipe's wait), what is left in the pipes' queues is skipped, and every
 * later call of the kernel fails with EINTR.  In a launch it is the first
 * error of the launch: every other core's calls fail with ECANCELED.
 * Work a pipe is running runs to its end.  asc_core_run() or
 * asc_launch_run() then returns -1 with errno EINTR and a report saying
 * the run was cancelled.
 *
 * Return: 0, or -1 with errno EINVAL for a NULL @core.
 */
int asc_core_cancel(struct asc_core *core);

/**
 * enum asc_launch_kind - the cores a launch runs on, for asc_launch_run().
 *
 * ASC_LAUNCH_AIV: block_dim vector cores (AIV); ASC_LAUNCH_AIC: block_dim
 * cube cores (AIC); ASC_LAUNCH_MIX: per AI core one AIC and two AIVs
 * (Ascend C's MIX_AIC_1_2), 3 * block_dim cores.  The values are the
 * device's.
 */
enum asc_launch_kind {
	ASC_LAUNCH_AIV = 1,
	ASC_LAUNCH_AIC = 2,
	ASC_LAUNCH_MIX = 3,
};

/**
 * enum asc_core_type - what a core of a launch is, asc_core_type().
 *
 * ASC_CORE_AIC is a cube core, ASC_CORE_AIV a vector core.  The values
 * are the device's.
 */
enum asc_core_type {
	ASC_CORE_AIC = 1,
	ASC_CORE_AIV = 2,
};

/**
 * asc_launch_run() - run a kernel on block_dim emulated cores
 * (kernel[block_dim]() in pyasc, <<<block_dim>>> in Ascend C).
 * @kernel: the kernel function, called once on every core.
 * @arg: passed to @kernel on every core.
 * @kind: an ASC_LAUNCH_* kind.
 * @block_dim: AI cores, 1..64.
 * @attr: the device and mode of every core, or NULL for the defaults.
 * @report: where to store the report, or NULL: a malloc()ed text for the
 *	caller to free(); NULL when there is none.
 *
 * Makes one launch of the driver and runs each of its cores as
 * asc_core_run() runs one: a scalar thread of its own, started by this
 * call, with its own TPipe joined to the launch, its own pipe threads and
 * its own missing-sync detector.  In a mix launch the cores are numbered
 * as the driver numbers them: the AICs first, then the two AIVs of each AI
 * core.  Every core has joined before any runs @kernel.  A core leaves the
 * launch (closes its TPipe) when its kernel has returned and its pipes
 * have drained.  The calling thread waits for every core.
 *
 * Cores meet through asc_core_cross_set_flag(),
 * asc_core_cross_wait_flag() and asc_core_sync_all(), and learn who they
 * are from asc_core_block_idx() and the other getters.
 *
 * The error of the lowest-numbered core that fails ends the launch,
 * whatever the threads' timing (the cores below one that failed run on
 * until each has left, failed or can no longer act; a cancel ends it at
 * once): every other core's
 * calls fail from then on with ECANCELED and do nothing, their TPipes are
 * reset (which ends their waits, cross-core and SyncAll included) until
 * they have ended, and asc_launch_run() returns that error, with its
 * report after a line naming the core: "core N (AIV|AIC BLOCK_IDX):".  A
 * core that left makes the waits that only it could end fail with EPIPE
 * (the driver's rule).
 *
 * Waits that can never end across cores (a cycle through cross-core
 * waits, SyncAll, flag waits and pipes waiting for each other) are found
 * when the last thread of the launch that could still act blocks: the
 * launch ends with EDEADLK and a report naming, for each core, what its
 * scalar and its blocked pipes wait for.  The detector follows what the
 * cores have run, not the threads' timing, so the same kernel gets the
 * same verdict on every run.
 *
 * Return: 0 when every core ran its kernel to its end without an error,
 * or -1 with errno set: EINVAL for a NULL @kernel, a bad @kind, a
 * @block_dim outside 1..64, or an @attr with both @unchecked and
 * @strict_ids; the errors of asc_pipe_open(); ENOTTY when the driver has
 * no launches (ASC_EVENT_IOC_LAUNCH); ENOMEM; EAGAIN when a thread cannot
 * be created; EDEADLK for a deadlock across cores; or the first error of
 * a core, as asc_core_run() returns it.
 */
int asc_launch_run(asc_kernel_fn kernel, void *arg, int kind,
		   unsigned int block_dim, const struct asc_core_attr *attr,
		   char **report);

/**
 * asc_core_block_idx() - GetBlockIdx() / pyasc get_block_idx().
 * @core: the core.
 *
 * 0..block_dim - 1 on an AIC and on every core of a vector-only or
 * cube-only launch; 2 * AI core + asc_core_sub_block_idx() on an AIV of a
 * mix launch.  0 on the core of asc_core_run().  Like the other getters,
 * any thread may call it; it is not an instruction (it is not counted).
 *
 * Return: the index, or -1 with errno EINVAL for a NULL @core.
 */
int asc_core_block_idx(struct asc_core *core);

/**
 * asc_core_block_num() - GetBlockNum() / pyasc get_block_num().
 * @core: the core.
 *
 * Return: the launch's block_dim (1 on the core of asc_core_run()), or -1
 * with errno EINVAL for a NULL @core.
 */
int asc_core_block_num(struct asc_core *core);

/**
 * asc_core_sub_block_idx() - GetSubBlockIdx() / pyasc get_sub_block_idx().
 * @core: the core.
 *
 * Return: which of its AI core's two AIVs an AIV of a mix launch is (0 or
 * 1); 0 on any other core; or -1 with errno EINVAL for a NULL @core.
 */
int asc_core_sub_block_idx(struct asc_core *core);

/**
 * asc_core_sub_block_num() - GetSubBlockNum().
 * @core: the core.
 *
 * Return: 2 on an AIV of a mix launch, 1 on any other core, or -1 with
 * errno EINVAL for a NULL @core.
 */
int asc_core_sub_block_num(struct asc_core *core);

/**
 * asc_core_type() - whether a core is an AIC or an AIV.
 * @core: the core.
 *
 * Return: ASC_CORE_AIC or ASC_CORE_AIV for a core of a launch, 0 for the
 * core of asc_core_run() (which belongs to no launch), or -1 with errno
 * EINVAL for a NULL @core.
 */
int asc_core_type(struct asc_core *core);

/**
 * asc_core_cross_set_flag() - issue CrossCoreSetFlag<mode, pipe>(flag_id)
 * (pyasc cross_core_set_flag(flag_id, mode_id, pipe)).
 * @core: the core.
 * @flag_id: the cross-core flag, 0..10 (11-15 are SyncAll's and the
 *	chip's).
 * @mode: 0: every core of this core's type issues it, each gets one;
 *	1 (mix, from an AIV): both AIVs of this AI core issue it, each gets
 *	one; 2 (mix): from an AIC, each of its two AIVs gets one; from an
 *	AIV, once both AIVs of the AI core issued it, their AIC gets one.
 * @pipe_id: the pipe that issues it, in order with its other work: any
 *	pipe but ASC_PIPE_S (and not ASC_PIPE_ALL).
 *
 * Queued on @pipe_id like work: the driver gets the set once everything
 * issued to that pipe before it has run.  The arguments are checked when
 * the scalar issues it, as the chip stops a kernel there.  A set that
 * would take a counter past 15, or a 16th set of this core still waiting
 * for the rest of its group, fails when the pipe runs it (EOVERFLOW), and
 * so ends the launch.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a @flag_id
 * outside 0..10, a @mode outside 0..2, mode 1 or 2 outside a mix launch,
 * mode 1 on an AIC, or a @pipe_id that is ASC_PIPE_S or not a pipe;
 * ENOTCONN on the core of asc_core_run(); EPERM from another thread than
 * the scalar (nothing recorded); EDEADLK when the queue is full and the
 * pipe can never run it; ENOMEM; or the launch's first error, unchanged.
 */
int asc_core_cross_set_flag(struct asc_core *core, int flag_id, int mode,
			    int pipe_id);

/**
 * asc_core_cross_wait_flag() - issue CrossCoreWaitFlag(flag_id)
 * (pyasc cross_core_wait_flag(flag_id, mode_id, pipe)).
 * @core: the core.
 * @flag_id: the cross-core flag, 0..10.
 * @pipe_id: ASC_PIPE_S: the scalar waits, so nothing issued after the
 *	wait runs before it, on any pipe (the A2/A3 chips' wait, which
 *	ignores mode and pipe and blocks every pipe); any other pipe: the
 *	wait is queued on that pipe, which runs nothing issued after it
 *	until the flag comes (chips whose wait has a pipe).
 *
 * The wait blocks while this core's counter of @flag_id is 0, then takes
 * one.  It ends with the launch's first error (ECANCELED), with EPIPE when
 * the cores that could set the flag have left, and with EDEADLK when the
 * launch deadlocks (see asc_launch_run()).  Cross-core waits order
 * nothing between the pipes of one core: the missing-sync detector sees a
 * queued wait as an instruction of its pipe.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a @flag_id
 * outside 0..10, or a @pipe_id that is not a pipe; ENOTCONN on the core
 * of asc_core_run(); EPERM from another thread than the scalar (nothing
 * recorded); EPIPE, EDEADLK, ECANCELED for a wait on S (a queued wait's
 * error ends the launch); EDEADLK when the queue is full and the pipe can
 * never run it; ENOMEM; or the launch's first error, unchanged.
 */
int asc_core_cross_wait_flag(struct asc_core *core, int flag_id, int pipe_id);

/**
 * asc_core_sync_all() - SyncAll() / pyasc sync_all(): the hardware
 * variant.
 * @core: the core.
 *
 * As on the chip, a PIPE_ALL barrier (asc_core_pipe_barrier() of
 * ASC_PIPE_ALL: the scalar waits until its pipes have run everything
 * issued), then the driver's SYNC_ALL: the scalar waits until every core
 * of the launch has reached it, then all go on.  A core that has left
 * makes every later SyncAll of the launch fail with EPIPE.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core; ENOTCONN on
 * the core of asc_core_run(); EPERM from another thread than the scalar
 * (nothing recorded); the errors of the barrier; EPIPE when a core of the
 * launch has left; EDEADLK when the launch deadlocks, or (MIX launch) an
 * AIV comes while another AIV waits in asc_core_sync_all_aiv(); or the
 * launch's first error, unchanged.
 */
int asc_core_sync_all(struct asc_core *core);

/**
 * asc_core_sync_all_aiv() - SyncAll<true>() / pyasc sync_all() with
 * is_aiv_only=True: the hardware SyncAll of the AIVs only.
 * @core: the core, an AIV.
 *
 * As asc_core_sync_all(), but the driver's SYNC_ALL of the AIVs
 * (ASC_EVENT_SYNC_ALL_AIV_ONLY): in a MIX launch the scalar waits until
 * every AIV of the launch has reached it, and the AICs take no part; in an
 * AIV launch it is asc_core_sync_all() (every core is an AIV).  Its rounds
 * are counted apart from those of asc_core_sync_all(): the AICs may wait
 * in theirs meanwhile, and the AIVs join it after.  An AIV that comes to
 * one while another AIV waits in the other would wait forever (each
 * waits for the other): it fails with EDEADLK, as does asc_core_sync_all()
 * in the same case.  An AIV that leaves makes every later SyncAll of the
 * AIVs fail with EPIPE; an AIC that leaves does not.  Needs a driver with
 * ASC_EVENT_FEATURE_SYNC_AIV.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or an AIC (the
 * cores of an AIC launch, the AICs of a MIX launch); ENOTCONN on the core
 * of asc_core_run(); EPERM from another thread than the scalar (nothing
 * recorded); the errors of the barrier; EPIPE when an AIV of the launch
 * has left; EDEADLK when the launch deadlocks or another AIV waits in the
 * SyncAll of every core; or the launch's first error, unchanged.
 */
int asc_core_sync_all_aiv(struct asc_core *core);

/**
 * enum asc_gm_sync - the software sync's workspace.
 *
 * ASC_GM_SLOT_BYTES: its unit, one 32-bit counter every 32 bytes (the
 * chip's unit of a copy to global memory).
 * A workspace of asc_core_ib_set() and asc_core_ib_wait() for event IDs
 * 0..E-1 is E * N * ASC_GM_SLOT_BYTES bytes, N the cores of the caller's
 * type (asc_core_block_num() * asc_core_sub_block_num()); one of
 * asc_core_sync_all_gm() is N * ASC_GM_SLOT_BYTES bytes.  Either is
 * zeroed before the launch and used for one protocol only.
 */
enum asc_gm_sync {
	ASC_GM_SLOT_BYTES = 32,
};

/**
 * asc_core_ib_set() - IBSet(gmWorkspace, ubWorkspace, blockIdx, eventID):
 * the software sync's set, over a workspace in global memory.
 * @core: the core, of a launch.
 * @gm_workspace: the workspace (see ASC_GM_SLOT_BYTES), 4-byte aligned,
 *	zeroed before the launch.
 * @block_idx: the block whose flag this sets, 0..N-1 (N the cores of the
 *	caller's type); usually the caller's own asc_core_block_idx().
 * @event_id: the event, 0 or more.
 *
 * A pipe_barrier(ASC_PIPE_ALL) (everything issued before it has run),
 * then a set queued on MTE3: it adds one to the 32-bit counter of
 * (@block_idx, @event_id), at byte ASC_GM_SLOT_BYTES * (@event_id * N +
 * @block_idx) of @gm_workspace.  No ubWorkspace: the emulated pipes
 * write global memory directly.  Both missing-sync detectors take it
 * for the set of a flag: what the core did before it is ordered before
 * what a core does after an asc_core_ib_wait() that waited for it.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a NULL or
 * misaligned @gm_workspace, a @block_idx outside 0..N-1 or a negative
 * @event_id; ENOTCONN on the core of asc_core_run(); EPERM from another
 * thread than the scalar; the errors of the barrier; ENOMEM; or the
 * launch's first error, unchanged.
 */
int asc_core_ib_set(struct asc_core *core, void *gm_workspace, int block_idx,
		    int event_id);

/**
 * asc_core_ib_wait() - IBWait(gmWorkspace, ubWorkspace, blockIdx,
 * eventID): the software sync's wait, over a workspace in global memory.
 * @core: the core, of a launch.
 * @gm_workspace: the workspace asc_core_ib_set() sets.
 * @block_idx: the block whose flag to wait for, 0..N-1.
 * @event_id: the event, 0 or more.
 *
 * A wait queued on MTE2: the pipe polls the counter of (@block_idx,
 * @event_id) until it has counted as many sets as this core has issued
 * waits for it (this one included: the n-th wait waits for the n-th
 * set), then a pipe_barrier(ASC_PIPE_ALL): nothing issued after it runs
 * before the wait has ended.  The poll sleeps between looks and ends with
 * the launch's first error; when no thread of the launch can act and the
 * counter is short, the launch fails with EDEADLK (see asc_launch_run()).
 *
 * Return: as asc_core_ib_set(), and the errors of the wait (EDEADLK,
 * ECANCELED).
 */
int asc_core_ib_wait(struct asc_core *core, void *gm_workspace, int block_idx,
		     int event_id);

/**
 * asc_core_sync_all_gm() - SyncAll<false>(gmWorkspace, ubWorkspace,
 * usedCores): the software SyncAll, over a workspace in global memory.
 * @core: the core, of a launch.
 * @gm_workspace: N * ASC_GM_SLOT_BYTES bytes, 4-byte aligned, zeroed
 *	before the launch, used by this SyncAll only.
 * @used_cores: the cores that take part, blocks 0..@used_cores-1 of the
 *	caller's type; 0 for all N of them.
 *
 * A pipe_barrier(ASC_PIPE_ALL); a set on MTE3 of the caller's counter
 * (block asc_core_block_idx()); a wait on MTE2 until the counter of every
 * core that takes part has counted this round (the n-th SyncAll over
 * @gm_workspace waits for n); a pipe_barrier(ASC_PIPE_ALL).  Waits as
 * asc_core_ib_wait() waits.  Both missing-sync detectors take it as
 * SyncAll of the cores that take part.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a NULL or
 * misaligned @gm_workspace, a @used_cores outside 0..N, or a caller that
 * does not take part; ENOTCONN on the core of asc_core_run(); EPERM from
 * another thread than the scalar; the errors of the barriers and of the
 * wait (EDEADLK, ECANCELED); ENOMEM; or the launch's first error,
 * unchanged.
 */
int asc_core_sync_all_gm(struct asc_core *core, void *gm_workspace,
			 int used_cores);

/*
 * Local memory, TQue, TQueBind and TBuf: TPipe's other half.  See
 * Documentation/libasc.rst, "Local memory and queues".
 */

/**
 * enum asc_position - TPosition: where a tensor lives, in Ascend C's and
 * pyasc's numbering.
 *
 * ASC_POS_GM is global memory.  ASC_POS_VECIN, ASC_POS_VECOUT and
 * ASC_POS_VECCALC are in the Unified Buffer; ASC_POS_A1, ASC_POS_B1 and
 * ASC_POS_C1 in L1; ASC_POS_A2 in L0A, ASC_POS_B2 in L0B, ASC_POS_C2 in
 * the bias table, ASC_POS_CO1 in L0C; ASC_POS_CO2 is global memory on
 * Atlas A2; ASC_POS_C2PIPE2GM is the fixpipe buffer (Ascend C's value,
 * pyasc has no name for it).  Functions take a position as an int.
 */
enum asc_position {
	ASC_POS_GM = 0,
	ASC_POS_A1 = 1,
	ASC_POS_A2 = 2,
	ASC_POS_B1 = 3,
	ASC_POS_B2 = 4,
	ASC_POS_C1 = 5,
	ASC_POS_C2 = 6,
	ASC_POS_CO1 = 7,
	ASC_POS_CO2 = 8,
	ASC_POS_VECIN = 9,
	ASC_POS_VECOUT = 10,
	ASC_POS_VECCALC = 11,
	ASC_POS_C2PIPE2GM = 14,
};

/**
 * enum asc_mem - the local memories of a core (Ascend C's Hardware).
 *
 * ASC_MEM_UB the Unified Buffer, ASC_MEM_L1, ASC_MEM_L0A, ASC_MEM_L0B,
 * ASC_MEM_L0C, ASC_MEM_BT the bias table, ASC_MEM_FB the fixpipe buffer;
 * ASC_MEM_COUNT is how many there are.  An AIV has the Unified Buffer, an
 * AIC the other six, the core of asc_core_run() all seven (see
 * asc_core_local_mem()).
 */
enum asc_mem {
	ASC_MEM_UB = 0,
	ASC_MEM_L1 = 1,
	ASC_MEM_L0A = 2,
	ASC_MEM_L0B = 3,
	ASC_MEM_L0C = 4,
	ASC_MEM_BT = 5,
	ASC_MEM_FB = 6,
	ASC_MEM_COUNT = 7,
};

/**
 * enum asc_local_limits - the sizes of local memory (Atlas A2, per core)
 * and of a TPipe's buffers.
 *
 * ASC_MEM_UB_BYTES 192 KiB, ASC_MEM_L1_BYTES 512 KiB, ASC_MEM_L0A_BYTES
 * and ASC_MEM_L0B_BYTES 64 KiB, ASC_MEM_L0C_BYTES 128 KiB,
 * ASC_MEM_BT_BYTES 1 KiB, ASC_MEM_FB_BYTES 7 KiB.  ASC_TPIPE_BUFFERS_MAX:
 * a TPipe places at most 64 buffers (a TBuf is one).  ASC_LOCAL_ALIGN:
 * buffer lengths are rounded up to 32 bytes, and every buffer starts on a
 * 32-byte boundary of its memory.
 */
enum asc_local_limits {
	ASC_MEM_UB_BYTES = 192 * 1024,
	ASC_MEM_L1_BYTES = 512 * 1024,
	ASC_MEM_L0A_BYTES = 64 * 1024,
	ASC_MEM_L0B_BYTES = 64 * 1024,
	ASC_MEM_L0C_BYTES = 128 * 1024,
	ASC_MEM_BT_BYTES = 1024,
	ASC_MEM_FB_BYTES = 7 * 1024,
	ASC_TPIPE_BUFFERS_MAX = 64,
	ASC_LOCAL_ALIGN = 32,
};

/**
 * struct asc_que - a TQue, TQueBind or TBuf of a core.
 *
 * Opaque.  Made by asc_core_tque(), asc_core_tque_bind() or
 * asc_core_tbuf(); it belongs to its core and is freed with it when the
 * run ends.
 */
struct asc_que;

/**
 * struct asc_local - a LocalTensor: bytes of a core's local memory that a
 * queue handed out or a TBuf gave.
 * @addr: the first byte, in the core's local memory (host memory: the
 *	pipes' work reads and writes it).
 * @size: bytes.
 * @name: the name of its buffer, e.g. "inQueueX[1]" (the queue's name and
 *	the buffer's index; a TBuf's name alone), for struct asc_access;
 *	valid until the run ends.
 * @que: the queue or TBuf it comes from.
 * @pos: its TPosition, an ASC_POS_* value.
 * @mem: the memory it is in, an ASC_MEM_* value.
 * @offset: the byte offset of @addr in @mem.
 * @buf: the index of its buffer in @que (0 for a TBuf).
 * @gen: which allocation of that buffer it is: 1 for the first
 *	asc_core_alloc_tensor() of the buffer, 2 for the next...; 0 for a
 *	TBuf's.
 * @reserved: zero.
 *
 * Filled in by the library (asc_core_alloc_tensor(), asc_core_deque(),
 * asc_core_tbuf_get(), asc_local_sub()...); a kernel reads it and passes
 * it back.  It names the tensor without a host address: queue, buffer,
 * position, offset and length.
 */
struct asc_local {
	void *addr;
	size_t size;
	const char *name;
	struct asc_que *que;
	int pos;
	int mem;
	uint32_t offset;
	int buf;
	uint32_t gen;
	uint32_t reserved[5];
};

/**
 * asc_core_local_mem() - a core's local memory.
 * @core: the core.
 * @mem: an ASC_MEM_* memory.
 * @size: where to store its size in bytes, or NULL.
 *
 * Local memory is host memory of the core, zeroed when the run starts,
 * 32-byte aligned (page aligned, in fact); the pipes' work computes in it.
 * An AIV has ASC_MEM_UB only, an AIC every memory but ASC_MEM_UB, and the
 * core of asc_core_run() (a core of no launch, as on chips that do not
 * split cube and vector) all seven.  Any thread may call it; it is not an
 * instruction (not counted).
 *
 * Return: the first byte of @mem, or NULL with errno EINVAL for a NULL
 * @core, a bad @mem or a memory the core does not have (nothing is
 * stored).
 */
void *asc_core_local_mem(struct asc_core *core, int mem, size_t *size);

/**
 * asc_core_gm_buffer() - declare a buffer of global memory for the memory
 * checks: an array the launch was given, or a GlobalTensor's part of it.
 * @core: the core.
 * @addr: its first byte.
 * @size: its bytes, at least 1.
 * @name: its name in the reports (copied), or NULL for "GM".
 *
 * From then on, until the run ends, an access an instruction declares
 * (struct asc_access) whose first byte is in the buffer must end in it,
 * else the instruction fails with EFAULT and an "out of bounds:" line
 * naming the buffer, the offset and length in it, the instruction, its
 * pipe, the core and the call site.  When several declared buffers hold
 * the first byte, the smallest is checked.  Declaring the same buffer
 * twice is one declaration.  Only the scalar may call it; it is not an
 * instruction (not counted).  See Documentation/libasc.rst, "Memory
 * checks".
 *
 * Return: 0, or -1 with errno EINVAL for a NULL @core or @addr, a @size of
 * 0 or one that wraps around, EPERM from another thread than the scalar,
 * ENOMEM.
 */
int asc_core_gm_buffer(struct asc_core *core, const void *addr, size_t size,
		       const char *name);

/**
 * asc_local_sub() - a part of a local tensor (LocalTensor operator[]).
 * @t: the tensor.
 * @offset: the first byte of the part, from @t->addr.
 * @size: bytes of the part; 0 for the rest of @t.
 * @out: where to store the part: @t with @addr, @size and @offset moved;
 *	the same buffer, queue and allocation.
 *
 * Needs no core; @out may be @t.
 *
 * Return: 0, or -1 with errno EINVAL for a NULL @t or @out, a @t that is
 * not a tensor of a queue or TBuf, or a part that does not lie in @t
 * (nothing is stored).
 */
int asc_local_sub(const struct asc_local *t, size_t offset, size_t size,
		  struct asc_local *out);

/**
 * asc_que_events() - the HardEvents of a TQue at a position.
 * @pos: an ASC_POS_* position.
 * @enque_event: where to store the HardEvent of its enqueue (EnQue sets it
 *	on the producer's pipe, DeQue waits for it on the consumer's), or
 *	NULL.
 * @free_event: where to store the HardEvent of its free (FreeTensor sets
 *	it on the consumer's pipe, AllocTensor waits for it on the
 *	producer's), or NULL.
 *
 * Ascend C's table for Atlas A2 (GetBufferLogicPos, GetQueEvt): VECIN
 * MTE2_V / V_MTE2; VECOUT V_MTE3 / MTE3_V; A1, B1, C1 MTE2_MTE1 /
 * MTE1_MTE2; A2, B2, C2 MTE1_M / M_MTE1; CO1 M_FIX / FIX_M; C2PIPE2GM
 * MTE1_FIX / FIX_MTE1; VECCALC MTE2_MTE3 / MTE3_MTE2, what a VECCALC
 * TQue gets on the chip, where the assertion of GetBufferLogicPos is
 * compiled out (a queue from UB to UB).  Needs no device.
 *
 * Return: 0, or -1 with errno EINVAL for ASC_POS_GM, ASC_POS_CO2 (global
 * memory) or a value that is no position (nothing is stored).
 */
int asc_que_events(int pos, int *enque_event, int *free_event);

/**
 * asc_que_bind_events() - the HardEvents of a TQueBind.
 * @src: the ASC_POS_* position the data comes from.
 * @dst: the ASC_POS_* position it goes to.
 * @enque_event: as for asc_que_events(), or NULL.
 * @free_event: as for asc_que_events(), or NULL.
 *
 * Ascend C's GetQueEvt for the memories of @src and @dst: GM to UB
 * MTE2_V / V_MTE2, GM to L1 MTE2_MTE1 / MTE1_MTE2, GM to L0A or L0B
 * MTE2_M / M_MTE2, UB to GM V_MTE3 / MTE3_V, UB to L1 MTE3_MTE1 /
 * MTE1_MTE3, UB to UB MTE2_MTE3 / MTE3_MTE2, L1 to UB MTE1_V / V_MTE1,
 * L1 to L0A, L0B or the bias table MTE1_M / M_MTE1, L1 to the fixpipe
 * buffer MTE1_FIX / FIX_MTE1, L0A or L0B to L0C M_V / V_M, L0C to GM
 * M_FIX / FIX_M.  Needs no device.
 *
 * Return: 0, or -1 with errno EINVAL for a pair the table does not have
 * (nothing is stored).
 */
int asc_que_bind_events(int src, int dst, int *enque_event, int *free_event);

/**
 * asc_core_tque() - TQue<pos, depth>: a queue of the core's TPipe.
 * @core: the core.
 * @pos: its ASC_POS_* position: it takes buffers at the position's memory
 *	and its events from asc_que_events().
 * @depth: how many tensors it may hold enqueued, 1..64; 0 for a depth-0
 *	queue (see asc_core_deque_tensor()).
 * @name: its name in reports and in its buffers' names (copied), e.g.
 *	"inQueueX"; NULL for "que<N>", N its number on the core from 0.
 *
 * Scalar bookkeeping, as a constructor: it syncs nothing.  The queue has
 * no buffer until asc_core_init_buffer().
 *
 * Return: the queue, or NULL with errno set: EINVAL for a NULL @core, a
 * @pos asc_que_events() refuses, or a @depth outside 0..64; EPERM from
 * another thread than the scalar (nothing recorded); ENOMEM; or the
 * kernel's first error, unchanged.
 */
struct asc_que *asc_core_tque(struct asc_core *core, int pos, int depth,
			      const char *name);

/**
 * asc_core_tque_bind() - TQueBind<src, dst, depth>: a queue between two
 * positions.
 * @core: the core.
 * @src: the ASC_POS_* position the data comes from.
 * @dst: the ASC_POS_* position it goes to.
 * @depth: as for asc_core_tque().
 * @name: as for asc_core_tque().
 *
 * As asc_core_tque(), with the events of asc_que_bind_events(); its
 * buffers are at the memory of @dst, or of @src when @dst is global
 * memory (ASC_POS_GM, ASC_POS_CO2), and its tensors' position is @dst, or
 * @src when @dst is global memory (Ascend C's GetBufferPos and
 * GetPosition).
 *
 * Return: as asc_core_tque(); EINVAL also for a pair whose events
 * asc_que_bind_events() refuses, or whose buffers would be in global
 * memory.
 */
struct asc_que *asc_core_tque_bind(struct asc_core *core, int src, int dst,
				   int depth, const char *name);

/**
 * asc_core_tbuf() - TBuf<pos>: a buffer of the core's TPipe that takes no
 * events.
 * @core: the core.
 * @pos: its ASC_POS_* position, a local one (not ASC_POS_GM or
 *	ASC_POS_CO2).
 * @name: as for asc_core_tque(); NULL for "buf<N>".
 *
 * A TBuf's tensors (asc_core_tbuf_get()) are synced by hand, by the
 * kernel's own sets and waits.
 *
 * Return: the TBuf, or NULL with errno set as for asc_core_tque().
 */
struct asc_que *asc_core_tbuf(struct asc_core *core, int pos, const char *name);

/**
 * asc_core_init_buffer() - TPipe.InitBuffer(que, num, len), or
 * InitBuffer(buf, len) for a TBuf.
 * @core: the core.
 * @que: a queue or TBuf of @core.
 * @num: buffers, 1..64; 1 for a TBuf.
 * @len: bytes of each, at least 1, rounded up to a multiple of 32.
 *
 * Places @num buffers of @len bytes one after the other in the memory of
 * @que's position, after the buffers placed there before, as Ascend C's
 * TPipe does; each buffer is free.  A depth-0 queue also allocates, per
 * buffer, an ID of its enqueue event and one of its free event, held
 * until the TPipe is reset, and sets the free event's flag (its buffers
 * are free for the first asc_core_alloc_tensor()).  The placements last
 * until asc_core_reset() or asc_core_tpipe_init().
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core, a @que of
 * another core, a @num outside 1..64 (other than 1 for a TBuf), a @len of
 * 0, or a memory the core does not have (an AIC has no Unified Buffer, an
 * AIV no L1...); EALREADY when @que already has its buffers; ENOBUFS when
 * the memory would hold more than it has (the report names the kernel's
 * total there and the limit) or the TPipe more than 64 buffers; ENOSPC
 * (depth 0) when the IDs run out; EPERM from another thread than the
 * scalar (nothing recorded); or the kernel's first error, unchanged.
 */
int asc_core_init_buffer(struct asc_core *core, struct asc_que *que, int num,
			 size_t len);

/**
 * asc_core_alloc_tensor() - que.AllocTensor(): take a free buffer.
 * @core: the core.
 * @que: a queue of @core with its buffers.
 * @out: where to store the tensor: the whole buffer.
 *
 * Takes the next free buffer, round robin from the one after the buffer
 * it took last, as Ascend C does.  If a asc_core_free_tensor() gave it
 * back, waits for that free event's flag on the pipe that refills the
 * buffer (issued there: the pipe waits, not the scalar) and releases the
 * ID; a depth-0 queue waits for its buffer's free flag and keeps the ID.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or @out, a
 * @que of another core, a TBuf, or a queue without buffers; EDEADLK when
 * every buffer is allocated (on the chip the scalar would wait forever:
 * only it frees buffers); EPERM from another thread than the scalar
 * (nothing recorded); the errors of asc_core_wait_flag(); or the kernel's
 * first error, unchanged.
 */
int asc_core_alloc_tensor(struct asc_core *core, struct asc_que *que,
			  struct asc_local *out);

/**
 * asc_core_enque() - que.EnQue(t): hand a tensor to the consumer.
 * @core: the core.
 * @que: the queue that allocated @t.
 * @t: a tensor asc_core_alloc_tensor() or asc_core_deque() of @que gave
 *	(a part of one will do).
 *
 * Allocates an ID of @que's enqueue event from the TPipe's pool and
 * issues its set to the producer's pipe, behind the work that filled the
 * tensor; the queue holds the tensor until asc_core_deque(), oldest first.
 * A depth-0 queue sets the ID its buffer holds.  The consumer must not
 * touch the tensor before it dequeues it: the missing-sync detector sees
 * such an access as a race.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or @t or a
 * @que of another core; EXDEV for a tensor @que did not hand out; ENOENT
 * for a tensor freed since (a stale tensor); EALREADY for a tensor already
 * enqueued; EOVERFLOW when @que already holds depth tensors; ENOSPC when
 * the IDs of the event run out (the report names who holds them);
 * EADDRINUSE in checked mode when hand-written code uses the ID the
 * alloc would take; EPERM from another thread than the scalar (nothing
 * recorded); the errors of asc_core_set_flag(); or the kernel's first
 * error, unchanged.
 */
int asc_core_enque(struct asc_core *core, struct asc_que *que,
		   const struct asc_local *t);

/**
 * asc_core_deque() - que.DeQue(): take the oldest tensor of a queue.
 * @core: the core.
 * @que: a queue of @core, of depth 1 or more.
 * @out: where to store the tensor: the whole buffer.
 *
 * Issues the wait for its enqueue flag to the consumer's pipe (nothing it
 * is issued after the wait runs before the producer's work is done) and
 * releases the ID.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or @out, a
 * @que of another core, a TBuf or a depth-0 queue; ENODATA when @que holds
 * no tensor; EPERM from another thread than the scalar (nothing
 * recorded); the errors of asc_core_wait_flag(); or the kernel's first
 * error, unchanged.
 */
int asc_core_deque(struct asc_core *core, struct asc_que *que,
		   struct asc_local *out);

/**
 * asc_core_deque_tensor() - que.DeQue(t) of a depth-0 queue: wait for a
 * tensor's enqueue.
 * @core: the core.
 * @que: a depth-0 queue of @core.
 * @t: a tensor of @que that asc_core_enque() enqueued.
 *
 * A depth-0 queue keeps no order: its consumer names the tensor it waits
 * for.  Issues the wait for the enqueue flag of @t's buffer to the
 * consumer's pipe; the ID stays with the buffer.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or @t, a @que
 * of another core or of depth 1 or more; EXDEV, ENOENT as for
 * asc_core_enque(); ENODATA for a tensor not enqueued; EPERM from another
 * thread than the scalar (nothing recorded); or the kernel's first error,
 * unchanged.
 */
int asc_core_deque_tensor(struct asc_core *core, struct asc_que *que,
			  const struct asc_local *t);

/**
 * asc_core_free_tensor() - que.FreeTensor(t): give a buffer back.
 * @core: the core.
 * @que: the queue that allocated @t.
 * @t: a tensor of @que, allocated and not enqueued (dequeued, or never
 *	enqueued); a part of one will do.
 *
 * Allocates an ID of @que's free event and issues its set to the
 * consumer's pipe, behind the work that used the tensor; the next
 * asc_core_alloc_tensor() of the buffer waits for it.  A depth-0 queue
 * sets the free ID its buffer holds.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or @t, a @que
 * of another core or a TBuf; EXDEV for a tensor @que did not hand out;
 * ENOENT for a tensor freed already (freed twice, or stale); EBUSY for a
 * tensor enqueued and not dequeued; ENOSPC, EADDRINUSE as for
 * asc_core_enque(); EPERM from another thread than the scalar (nothing
 * recorded); or the kernel's first error, unchanged.
 */
int asc_core_free_tensor(struct asc_core *core, struct asc_que *que,
			 const struct asc_local *t);

/**
 * asc_core_tbuf_get() - buf.Get(): a TBuf's tensor.
 * @core: the core.
 * @buf: a TBuf of @core with its buffer.
 * @len: bytes from the start of the buffer; 0 for all of it.
 * @out: where to store the tensor.
 *
 * Scalar bookkeeping: no event.  Every call gives the same bytes; the
 * kernel orders their uses itself.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core or @out, a
 * @buf of another core, a queue, a TBuf without its buffer, or a @len
 * past its end; EPERM from another thread than the scalar (nothing
 * recorded); or the kernel's first error, unchanged.
 */
int asc_core_tbuf_get(struct asc_core *core, struct asc_que *buf, size_t len,
		      struct asc_local *out);

/**
 * asc_core_tbuf_get_with_offset() - buf.GetWithOffset(): a part of a
 * TBuf.
 * @core: the core.
 * @buf: a TBuf of @core with its buffer.
 * @len: bytes, at least 1.
 * @offset: where they start in the buffer, in bytes.
 * @out: where to store the tensor.
 *
 * As asc_core_tbuf_get(), from @offset.
 *
 * Return: as asc_core_tbuf_get(); EINVAL also for a @len of 0 or bytes
 * past the end of the buffer.
 */
int asc_core_tbuf_get_with_offset(struct asc_core *core, struct asc_que *buf,
				  size_t len, size_t offset,
				  struct asc_local *out);

/**
 * asc_core_tpipe_init() - TPipe.Init(), on the scalar.
 * @core: the core.
 *
 * As Ascend C's Init(): waits until every pipe has run everything issued
 * to it (as asc_core_reset() does), then empties the ID pool and forgets
 * every buffer placed: every queue and TBuf must get its buffers again
 * (asc_core_init_buffer()), and local memory is free.  Unlike
 * asc_core_reset() it does not wait for the free events that
 * asc_core_free_tensor() set: a flag set and never waited for is then a
 * missing wait (asc_core_tpipe_destroy() first, as pyasc's kernels do).
 * A tensor allocated and not freed, or enqueued and not dequeued, is an
 * error, since its buffer is forgotten.  The Matmul API's M_MTE1 IDs that
 * Init sets on an AIC are not emulated.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @core; ENOLCK for a
 * tensor not freed or not dequeued, or a flag set and never waited for;
 * EDEADLK when a pipe waits for a flag no issued set satisfies; EPERM from
 * another thread than the scalar (nothing recorded); or the kernel's
 * first error, unchanged.
 */
int asc_core_tpipe_init(struct asc_core *core);

/**
 * asc_core_tpipe_destroy() - TPipe.Destroy(), on the scalar.
 * @core: the core.
 *
 * As Ascend C's Destroy(): for every free buffer whose free event is set,
 * issues the wait for it (on its pipe) and releases the ID (Ascend C
 * leaves it to the next Init()); then a barrier of ASC_PIPE_ALL.  The
 * pool and the placements stay.  When the kernel returns without
 * destroying its TPipe since the last asc_core_tpipe_init() or
 * asc_core_reset(), the core destroys it, as TPipe's destructor does.
 *
 * Return: 0, or -1 with errno set as for asc_core_pipe_barrier() of
 * ASC_PIPE_ALL.
 */
int asc_core_tpipe_destroy(struct asc_core *core);

/*
 * Call sites.  Every asc_core_*() call that is an instruction of the
 * kernel has a variant ending in _at that takes the caller's file and line
 * last; the core records them with the instruction, and its reports name
 * them ("#5 add at vadd.c:42").  Unless ASC_NO_CALL_SITES is defined
 * before <asc.h> is included, the plain names are macros that pass
 * __FILE__ and __LINE__ to the _at variant (end of this header), so that a
 * kernel written with <asc.h> names its lines.  The plain functions stay
 * exported and do what they did: their reports name no line.  A file is
 * named by the part of @file after its last '/'; @file is copied.
 */

/**
 * asc_core_issue_at() - asc_core_issue() at a call site.
 * @core: as for asc_core_issue().
 * @pipe_id: as for asc_core_issue().
 * @fn: as for asc_core_issue().
 * @arg: as for asc_core_issue().
 * @what: as for asc_core_issue().
 * @acc: as for asc_core_issue().
 * @nacc: as for asc_core_issue().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_issue().
 */
int asc_core_issue_at(struct asc_core *core, int pipe_id, asc_work_fn fn,
		      void *arg, const char *what, const struct asc_access *acc,
		      unsigned int nacc, const char *file, int line);

/**
 * asc_core_issue_op_at() - asc_core_issue_op() at a call site.
 * @core: as for asc_core_issue_op().
 * @pipe_id: as for asc_core_issue_op().
 * @op: as for asc_core_issue_op().
 * @what: as for asc_core_issue_op().
 * @acc: as for asc_core_issue_op().
 * @nacc: as for asc_core_issue_op().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_issue_op().
 */
int asc_core_issue_op_at(struct asc_core *core, int pipe_id,
			 const struct asc_op *op, const char *what,
			 const struct asc_access *acc, unsigned int nacc,
			 const char *file, int line);

/**
 * asc_core_set_flag_at() - asc_core_set_flag() at a call site.
 * @core: as for asc_core_set_flag().
 * @event: as for asc_core_set_flag().
 * @id: as for asc_core_set_flag().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_set_flag().
 */
int asc_core_set_flag_at(struct asc_core *core, int event, int id,
			 const char *file, int line);

/**
 * asc_core_wait_flag_at() - asc_core_wait_flag() at a call site.
 * @core: as for asc_core_wait_flag().
 * @event: as for asc_core_wait_flag().
 * @id: as for asc_core_wait_flag().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_wait_flag().
 */
int asc_core_wait_flag_at(struct asc_core *core, int event, int id,
			  const char *file, int line);

/**
 * asc_core_pipe_barrier_at() - asc_core_pipe_barrier() at a call site.
 * @core: as for asc_core_pipe_barrier().
 * @pipe_id: as for asc_core_pipe_barrier().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_pipe_barrier().
 */
int asc_core_pipe_barrier_at(struct asc_core *core, int pipe_id,
			     const char *file, int line);

/**
 * asc_core_alloc_event_id_at() - asc_core_alloc_event_id() at a call site.
 * @core: as for asc_core_alloc_event_id().
 * @event: as for asc_core_alloc_event_id().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_alloc_event_id().
 */
int asc_core_alloc_event_id_at(struct asc_core *core, int event,
			       const char *file, int line);

/**
 * asc_core_fetch_event_id_at() - asc_core_fetch_event_id() at a call site.
 * @core: as for asc_core_fetch_event_id().
 * @event: as for asc_core_fetch_event_id().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_fetch_event_id().
 */
int asc_core_fetch_event_id_at(struct asc_core *core, int event,
			       const char *file, int line);

/**
 * asc_core_release_event_id_at() - asc_core_release_event_id() at a call site.
 * @core: as for asc_core_release_event_id().
 * @id: as for asc_core_release_event_id().
 * @event: as for asc_core_release_event_id().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_release_event_id().
 */
int asc_core_release_event_id_at(struct asc_core *core, int id, int event,
				 const char *file, int line);

/**
 * asc_core_reset_at() - asc_core_reset() at a call site.
 * @core: as for asc_core_reset().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_reset().
 */
int asc_core_reset_at(struct asc_core *core, const char *file, int line);

/**
 * asc_core_cross_set_flag_at() - asc_core_cross_set_flag() at a call site.
 * @core: as for asc_core_cross_set_flag().
 * @flag_id: as for asc_core_cross_set_flag().
 * @mode: as for asc_core_cross_set_flag().
 * @pipe_id: as for asc_core_cross_set_flag().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_cross_set_flag().
 */
int asc_core_cross_set_flag_at(struct asc_core *core, int flag_id, int mode,
			       int pipe_id, const char *file, int line);

/**
 * asc_core_cross_wait_flag_at() - asc_core_cross_wait_flag() at a call site.
 * @core: as for asc_core_cross_wait_flag().
 * @flag_id: as for asc_core_cross_wait_flag().
 * @pipe_id: as for asc_core_cross_wait_flag().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_cross_wait_flag().
 */
int asc_core_cross_wait_flag_at(struct asc_core *core, int flag_id, int pipe_id,
				const char *file, int line);

/**
 * asc_core_sync_all_at() - asc_core_sync_all() at a call site.
 * @core: as for asc_core_sync_all().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_sync_all().
 */
int asc_core_sync_all_at(struct asc_core *core, const char *file, int line);

/**
 * asc_core_sync_all_aiv_at() - asc_core_sync_all_aiv() at a call site.
 * @core: as for asc_core_sync_all_aiv().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_sync_all_aiv().
 */
int asc_core_sync_all_aiv_at(struct asc_core *core, const char *file, int line);

/**
 * asc_core_ib_set_at() - asc_core_ib_set() at a call site.
 * @core: as for asc_core_ib_set().
 * @gm_workspace: as for asc_core_ib_set().
 * @block_idx: as for asc_core_ib_set().
 * @event_id: as for asc_core_ib_set().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_ib_set().
 */
int asc_core_ib_set_at(struct asc_core *core, void *gm_workspace, int block_idx,
		       int event_id, const char *file, int line);

/**
 * asc_core_ib_wait_at() - asc_core_ib_wait() at a call site.
 * @core: as for asc_core_ib_wait().
 * @gm_workspace: as for asc_core_ib_wait().
 * @block_idx: as for asc_core_ib_wait().
 * @event_id: as for asc_core_ib_wait().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_ib_wait().
 */
int asc_core_ib_wait_at(struct asc_core *core, void *gm_workspace,
			int block_idx, int event_id, const char *file, int line);

/**
 * asc_core_sync_all_gm_at() - asc_core_sync_all_gm() at a call site.
 * @core: as for asc_core_sync_all_gm().
 * @gm_workspace: as for asc_core_sync_all_gm().
 * @used_cores: as for asc_core_sync_all_gm().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_sync_all_gm().
 */
int asc_core_sync_all_gm_at(struct asc_core *core, void *gm_workspace,
			    int used_cores, const char *file, int line);

/**
 * asc_core_tque_at() - asc_core_tque() at a call site.
 * @core: as for asc_core_tque().
 * @pos: as for asc_core_tque().
 * @depth: as for asc_core_tque().
 * @name: as for asc_core_tque().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tque().
 */
struct asc_que *asc_core_tque_at(struct asc_core *core, int pos, int depth,
				 const char *name, const char *file, int line);

/**
 * asc_core_tque_bind_at() - asc_core_tque_bind() at a call site.
 * @core: as for asc_core_tque_bind().
 * @src: as for asc_core_tque_bind().
 * @dst: as for asc_core_tque_bind().
 * @depth: as for asc_core_tque_bind().
 * @name: as for asc_core_tque_bind().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tque_bind().
 */
struct asc_que *asc_core_tque_bind_at(struct asc_core *core, int src, int dst,
				      int depth, const char *name, const char *file, int line);

/**
 * asc_core_tbuf_at() - asc_core_tbuf() at a call site.
 * @core: as for asc_core_tbuf().
 * @pos: as for asc_core_tbuf().
 * @name: as for asc_core_tbuf().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tbuf().
 */
struct asc_que *asc_core_tbuf_at(struct asc_core *core, int pos,
				 const char *name, const char *file, int line);

/**
 * asc_core_init_buffer_at() - asc_core_init_buffer() at a call site.
 * @core: as for asc_core_init_buffer().
 * @que: as for asc_core_init_buffer().
 * @num: as for asc_core_init_buffer().
 * @len: as for asc_core_init_buffer().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_init_buffer().
 */
int asc_core_init_buffer_at(struct asc_core *core, struct asc_que *que, int num,
			    size_t len, const char *file, int line);

/**
 * asc_core_alloc_tensor_at() - asc_core_alloc_tensor() at a call site.
 * @core: as for asc_core_alloc_tensor().
 * @que: as for asc_core_alloc_tensor().
 * @out: as for asc_core_alloc_tensor().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_alloc_tensor().
 */
int asc_core_alloc_tensor_at(struct asc_core *core, struct asc_que *que,
			     struct asc_local *out, const char *file, int line);

/**
 * asc_core_enque_at() - asc_core_enque() at a call site.
 * @core: as for asc_core_enque().
 * @que: as for asc_core_enque().
 * @t: as for asc_core_enque().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_enque().
 */
int asc_core_enque_at(struct asc_core *core, struct asc_que *que,
		      const struct asc_local *t, const char *file, int line);

/**
 * asc_core_deque_at() - asc_core_deque() at a call site.
 * @core: as for asc_core_deque().
 * @que: as for asc_core_deque().
 * @out: as for asc_core_deque().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_deque().
 */
int asc_core_deque_at(struct asc_core *core, struct asc_que *que,
		      struct asc_local *out, const char *file, int line);

/**
 * asc_core_deque_tensor_at() - asc_core_deque_tensor() at a call site.
 * @core: as for asc_core_deque_tensor().
 * @que: as for asc_core_deque_tensor().
 * @t: as for asc_core_deque_tensor().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_deque_tensor().
 */
int asc_core_deque_tensor_at(struct asc_core *core, struct asc_que *que,
			     const struct asc_local *t, const char *file, int line);

/**
 * asc_core_free_tensor_at() - asc_core_free_tensor() at a call site.
 * @core: as for asc_core_free_tensor().
 * @que: as for asc_core_free_tensor().
 * @t: as for asc_core_free_tensor().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_free_tensor().
 */
int asc_core_free_tensor_at(struct asc_core *core, struct asc_que *que,
			    const struct asc_local *t, const char *file, int line);

/**
 * asc_core_tbuf_get_at() - asc_core_tbuf_get() at a call site.
 * @core: as for asc_core_tbuf_get().
 * @buf: as for asc_core_tbuf_get().
 * @len: as for asc_core_tbuf_get().
 * @out: as for asc_core_tbuf_get().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tbuf_get().
 */
int asc_core_tbuf_get_at(struct asc_core *core, struct asc_que *buf, size_t len,
			 struct asc_local *out, const char *file, int line);

/**
 * asc_core_tbuf_get_with_offset_at() - asc_core_tbuf_get_with_offset() at
 * a call site.
 * @core: as for asc_core_tbuf_get_with_offset().
 * @buf: as for asc_core_tbuf_get_with_offset().
 * @len: as for asc_core_tbuf_get_with_offset().
 * @offset: as for asc_core_tbuf_get_with_offset().
 * @out: as for asc_core_tbuf_get_with_offset().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tbuf_get_with_offset().
 */
int asc_core_tbuf_get_with_offset_at(struct asc_core *core, struct asc_que *buf,
				     size_t len, size_t offset, struct asc_local *out, const char *file,
				     int line);

/**
 * asc_core_tpipe_init_at() - asc_core_tpipe_init() at a call site.
 * @core: as for asc_core_tpipe_init().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tpipe_init().
 */
int asc_core_tpipe_init_at(struct asc_core *core, const char *file, int line);

/**
 * asc_core_tpipe_destroy_at() - asc_core_tpipe_destroy() at a call site.
 * @core: as for asc_core_tpipe_destroy().
 * @file: the caller's source file (__FILE__), or NULL.
 * @line: its line (__LINE__).
 *
 * Return: as asc_core_tpipe_destroy().
 */
int asc_core_tpipe_destroy_at(struct asc_core *core, const char *file,
			      int line);
/**
 * asc_version_string() - version of the libasc package.
 *
 * This is the release of the package, "MAJOR.MINOR.PATCH"; it is
 * independent of the soname (libasc.so.1 for ABI 1), which changes only
 * when the ABI breaks.
 *
 * Return: a static string.
 */
const char *asc_version_string(void);

/*
 * The call sites of the asc_core_*() calls: see "Call sites" above.  A
 * function-like macro expands only where its name is followed by "(", so
 * that &asc_core_issue is still the function.
 */
#ifndef ASC_NO_CALL_SITES
#define ASC_AT __FILE__, __LINE__
#define asc_core_issue(...) asc_core_issue_at(__VA_ARGS__, ASC_AT)
#define asc_core_issue_op(...) asc_core_issue_op_at(__VA_ARGS__, ASC_AT)
#define asc_core_set_flag(...) asc_core_set_flag_at(__VA_ARGS__, ASC_AT)
#define asc_core_wait_flag(...) asc_core_wait_flag_at(__VA_ARGS__, ASC_AT)
#define asc_core_pipe_barrier(...) asc_core_pipe_barrier_at(__VA_ARGS__, ASC_AT)
#define asc_core_alloc_event_id(...) \
	asc_core_alloc_event_id_at(__VA_ARGS__, ASC_AT)
#define asc_core_fetch_event_id(...) \
	asc_core_fetch_event_id_at(__VA_ARGS__, ASC_AT)
#define asc_core_release_event_id(...) \
	asc_core_release_event_id_at(__VA_ARGS__, ASC_AT)
#define asc_core_reset(...) asc_core_reset_at(__VA_ARGS__, ASC_AT)
#define asc_core_cross_set_flag(...) \
	asc_core_cross_set_flag_at(__VA_ARGS__, ASC_AT)
#define asc_core_cross_wait_flag(...) \
	asc_core_cross_wait_flag_at(__VA_ARGS__, ASC_AT)
#define asc_core_sync_all(...) asc_core_sync_all_at(__VA_ARGS__, ASC_AT)
#define asc_core_sync_all_aiv(...) asc_core_sync_all_aiv_at(__VA_ARGS__, ASC_AT)
#define asc_core_ib_set(...) asc_core_ib_set_at(__VA_ARGS__, ASC_AT)
#define asc_core_ib_wait(...) asc_core_ib_wait_at(__VA_ARGS__, ASC_AT)
#define asc_core_sync_all_gm(...) asc_core_sync_all_gm_at(__VA_ARGS__, ASC_AT)
#define asc_core_tque(...) asc_core_tque_at(__VA_ARGS__, ASC_AT)
#define asc_core_tque_bind(...) asc_core_tque_bind_at(__VA_ARGS__, ASC_AT)
#define asc_core_tbuf(...) asc_core_tbuf_at(__VA_ARGS__, ASC_AT)
#define asc_core_init_buffer(...) asc_core_init_buffer_at(__VA_ARGS__, ASC_AT)
#define asc_core_alloc_tensor(...) asc_core_alloc_tensor_at(__VA_ARGS__, ASC_AT)
#define asc_core_enque(...) asc_core_enque_at(__VA_ARGS__, ASC_AT)
#define asc_core_deque(...) asc_core_deque_at(__VA_ARGS__, ASC_AT)
#define asc_core_deque_tensor(...) asc_core_deque_tensor_at(__VA_ARGS__, ASC_AT)
#define asc_core_free_tensor(...) asc_core_free_tensor_at(__VA_ARGS__, ASC_AT)
#define asc_core_tbuf_get(...) asc_core_tbuf_get_at(__VA_ARGS__, ASC_AT)
#define asc_core_tbuf_get_with_offset(...) \
	asc_core_tbuf_get_with_offset_at(__VA_ARGS__, ASC_AT)
#define asc_core_tpipe_init(...) asc_core_tpipe_init_at(__VA_ARGS__, ASC_AT)
#define asc_core_tpipe_destroy(...) \
	asc_core_tpipe_destroy_at(__VA_ARGS__, ASC_AT)
#endif /* ASC_NO_CALL_SITES */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* __LIBASC_ASC_H__ */
