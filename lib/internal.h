/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libasc internals: not installed, not part of the API.
 *
 * Every source file includes this header instead of <asc.h> directly.  It
 * is the one place the library sees the kernel's uAPI, <linux/asc_event.h>
 * (from uapi/ in this tree): the public header has constants of its own,
 * and hard_event.c checks at build time that they are the uAPI's.
 *
 * The library is built with -fvisibility=hidden: only definitions marked
 * ASC_API are exported, everything else stays inside libasc.so.  It sees
 * asc.h without its call-site macros (ASC_NO_CALL_SITES): it defines the
 * plain functions, and calls them.
 */
#ifndef __LIBASC_INTERNAL_H__
#define __LIBASC_INTERNAL_H__

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/asc_event.h>

/* The library defines the functions the call-site macros stand for. */
#define ASC_NO_CALL_SITES
#include "asc.h"

/* Marks the definition of a public function: exported from libasc.so. */
#define ASC_API __attribute__((visibility("default")))

/* Fail with EINVAL; returns -1 so callers can "return asc_einval();". */
static inline int asc_einval(void)
{
	errno = EINVAL;
	return -1;
}

/* A HardEvent number the uAPI knows. */
static inline bool asc_event_valid(int event)
{
	return event >= 0 && event < ASC_HARD_EVENT_COUNT;
}

/*
 * The source and destination pipe of each HardEvent (hard_event.c), for
 * the fast path, which must not pay for a call through the PLT.
 */
extern const signed char asc_hard_event_src[];
extern const signed char asc_hard_event_dst[];

/*
 * One of the seven ASC_PIPE_* pipes a thread can bind to; not
 * ASC_PIPE_NONE, not the gaps of pyasc's PipeID numbering.  Defined in
 * pipe_id.c, next to the table of pipe names it reads.
 */
bool asc_pipe_id_valid(int pipe_id);

/*
 * struct asc_fast - a pipe's mapped pages (fastpath.c).
 * @ready: ASC_FAST_*: whether the pages below are mapped, being mapped,
 *	or never will be.
 * @fast_ids: IDs per HardEvent while @ready is ASC_FAST_MAPPED, else 0:
 *	the one word the inline path reads to know both that the pages are
 *	there and that an ID is in range (stored with release after them).
 * @event_ids: IDs per HardEvent.
 * @bound_shown: the state page shows the pipe bindings
 *	(ASC_EVENT_FEATURE_MAP_BOUND): only then may a thread that did not
 *	bind itself through this library on this pipe take the fast path.
 * @bound_pipes: the state page's word of bound pipes, or without
 *	@bound_shown a word of the library's with every bit set.
 * @ids_shown: the pool is in the flag page, where allocs and releases
 *	may be done in userspace (ASC_EVENT_FEATURE_MAP_IDS).
 * @pool: the pool's words once mapped, for the checks of a set or wait:
 *	the flag page's with @ids_shown, else the state page's copy.
 * @state: the TPipe's state, read-only.
 * @flags: its flag registers.
 * @module: the module's page, read-only.
 * @key: the pipe's asc_bound_key for ASC_PIPE_S (pipe.c): a thread is
 *	bound to pipe P of this open when its key is @key | P.
 * @fd: the device file.
 *
 * asc_fast_init() prepares it for the device file @fd (off without
 * ASC_EVENT_FEATURE_MAP, with more than ASC_EVENT_MAP_IDS_MAX IDs or
 * $ASC_NO_FASTPATH); asc_fast_map() maps the pages if nobody has and
 * says whether this call did (off when an mmap() fails): a set or wait
 * whose inline try failed calls it, then tries again with the whole check
 * of the caller; asc_fast_unmap() unmaps them.  asc_fast_set() and
 * asc_fast_wait() do a set or a wait in userspace and return true, or
 * return false, having changed nothing, when the pages are not mapped or
 * the ioctl must do it (or, without @full, when the caller is not one of
 * the two common cases of asc_fast_caller()).  They are inline, for the
 * calls in pipe.c: an uncontended set or wait is the library's hottest
 * path, a few loads and one atomic operation without a call.
 * asc_fast_caller_rest() is the part of the check of the caller that is
 * not: a thread not bound through this library to the pipe of the call
 * while some pipe is bound (whether it is bound, by its thread ID).
 */
enum {
	ASC_FAST_UNMAPPED,
	ASC_FAST_MAPPING,
	ASC_FAST_MAPPED,
	ASC_FAST_OFF,
};

/*
 * The fast path's functions: inline in every call, or the compiler may
 * make one of them a function of its own, called from each.
 */
#define ASC_FAST_INLINE	inline __attribute__((always_inline))

/* The bits of a thread's key that name the pipe it is bound to. */
#define ASC_BOUND_PIPE_BITS	4
#define ASC_BOUND_PIPE_MASK	((1UL << ASC_BOUND_PIPE_BITS) - 1)

struct asc_fast {
	int ready;
	unsigned int fast_ids;
	unsigned int event_ids;
	bool bound_shown;
	bool ids_shown;
	const __u32 *bound_pipes;
	const __u64 *pool;
	const struct asc_event_map_state *state;
	struct asc_event_map_flags *flags;
	const struct asc_event_map_module *module;
	unsigned long key;
	int fd;
};

/*
 * The pipe the calling thread bound itself to through asc_pipe_bind(),
 * and on which open, as one key (pipe.c): the open's serial shifted left
 * by ASC_BOUND_PIPE_BITS, ORed with the ASC_PIPE_*; 0 when the thread is
 * not bound.  Initial-exec: read by the fast path of a bound thread,
 * without a call to find it.
 */
#define ASC_TLS	__thread __attribute__((tls_model("initial-exec")))
extern ASC_TLS unsigned long asc_bound_key;

void asc_fast_init(struct asc_fast *f, int fd, uint64_t features,
		   unsigned int event_ids, unsigned long key);
bool asc_fast_map(struct asc_fast *f);
void asc_fast_unmap(struct asc_fast *f);
bool asc_fast_caller_rest(const struct asc_fast *f, unsigned long bound, int role,
			  bool set);

/*
 * Checked mode's rule for the caller of a set (@set) or wait whose pipe is
 * @role, on an ID the driver knows: a thread bound to @role; or a thread
 * bound to no pipe, for a set while no thread is bound to @role (alive or
 * not: an exited one leaves the call to the driver).  Inline, the common
 * cases, in this order: no thread bound to any pipe of the TPipe (the
 * default user binds nothing), whoever calls; the thread bound to @role
 * through this library; unchecked mode.  The rest is
 * asc_fast_caller_rest(), only with @full (the calls out of line: a call
 * in the inline ones would make them save registers on every call).
 */
static ASC_FAST_INLINE bool asc_fast_caller(const struct asc_fast *f,
					    const struct asc_event_map_state *s,
					    int role, bool set, bool full)
{
	unsigned long bound;

	if (!__atomic_load_n(f->bound_pipes, __ATOMIC_RELAXED))
		return true;
	bound = asc_bound_key;
	if (bound == (f->key | (unsigned int)role) ||
	    !(__atomic_load_n(&s->mode, __ATOMIC_RELAXED) & ASC_EVENT_MODE_CHECKED))
		return true;
	return full && asc_fast_caller_rest(f, bound, role, set);
}

/*
 * Whether the ioctl would succeed and change nothing but the flag: the
 * pages mapped and @id in range (one unsigned compare, which a negative
 * @id fails too) with no tracepoint on, in one test (@module is a page of
 * the library's that says "tracing" until the driver's is mapped); then
 * either an ID the driver knows (allocated, or the last fetched) with a
 * caller checked mode allows, or a mode that is not checked.
 */
static ASC_FAST_INLINE bool asc_fast_allowed(struct asc_fast *f, int event, int id,
					     int role, bool set, bool full)
{
	unsigned int ids = __atomic_load_n(&f->fast_ids, __ATOMIC_ACQUIRE);
	const struct asc_event_map_module *m;
	const struct asc_event_map_state *s;

	m = __atomic_load_n(&f->module, __ATOMIC_RELAXED);
	if (((__u64)__atomic_load_n(&m->tracing, __ATOMIC_RELAXED) << 32 |
	     (unsigned int)id) >= ids)
		return false;
	s = f->state;
	if ((__atomic_load_n(&f->pool[event], __ATOMIC_RELAXED) >> id & 1) ||
	    __atomic_load_n(&s->fetched[event], __ATOMIC_RELAXED) == id)
		return asc_fast_caller(f, s, role, set, full);
	return !(__atomic_load_n(&s->mode, __ATOMIC_RELAXED) & ASC_EVENT_MODE_CHECKED);
}

/*
 * A set in userspace.  @event is a valid HardEvent; @id is anything (one
 * out of range is the ioctl's).
 */
static ASC_FAST_INLINE bool asc_fast_set(struct asc_fast *f, int event, int id,
					 bool full)
{
	struct asc_event_map_flags *flags;
	__u64 *word, busy, bit, old;

	if (!asc_fast_allowed(f, event, id, asc_hard_event_src[event], true, full))
		return false;
	flags = f->flags;
	word = &flags->flags[event];
	busy = (ASC_EVENT_MAP_WAITER(0) | 1) << id;
	bit = (__u32)busy;
	old = __atomic_load_n(word, __ATOMIC_RELAXED);
	do {
		if (old & busy)
			return false;
	} while (!__atomic_compare_exchange_n(word, &old, old | bit, false,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	__atomic_fetch_add(&flags->fast_ops, 1, __ATOMIC_RELAXED);
	return true;
}

/* As asc_fast_set(); clearing a flag bit that is not set changes nothing. */
static ASC_FAST_INLINE bool asc_fast_wait(struct asc_fast *f, int event, int id,
					  bool full)
{
	struct asc_event_map_flags *flags;
	__u64 bit;

	if (!asc_fast_allowed(f, event, id, asc_hard_event_dst[event], false, full))
		return false;
	flags = f->flags;
	bit = 1ULL << id;
	if (!(__atomic_fetch_and(&flags->flags[event], ~bit, __ATOMIC_ACQUIRE) & bit))
		return false;
	__atomic_fetch_add(&flags->fast_ops, 1, __ATOMIC_RELAXED);
	return true;
}

/*
 * Whether an alloc or release may be done in userspace: the pool in the
 * mapped flag page and no tracepoint on (one test, as in
 * asc_fast_allowed()).  Returns the IDs per HardEvent, or 0.
 */
static ASC_FAST_INLINE unsigned int asc_fast_ids_allowed(struct asc_fast *f)
{
	unsigned int ids = __atomic_load_n(&f->fast_ids, __ATOMIC_ACQUIRE);
	const struct asc_event_map_module *m;

	m = __atomic_load_n(&f->module, __ATOMIC_RELAXED);
	if (!f->ids_shown || __atomic_load_n(&m->tracing, __ATOMIC_RELAXED))
		return 0;
	return ids;
}

/*
 * An alloc in userspace: the lowest free ID of @event (valid) taken by
 * compare-and-swap, or -1 when the ioctl must do it: the pages not
 * mapped, every ID taken (ENOSPC is the driver's), or, in checked mode
 * without strict IDs, a lowest free ID that hand-written code may use
 * (its flag or waiter bit set) or any once instructions were issued: the
 * driver's collision check.
 */
static ASC_FAST_INLINE int asc_fast_alloc(struct asc_fast *f, int event)
{
	unsigned int ids = asc_fast_ids_allowed(f), mode;
	__u64 *word, old, free, busy;
	bool hand;
	int id;

	if (!ids)
		return -1;
	mode = __atomic_load_n(&f->state->mode, __ATOMIC_RELAXED);
	hand = (mode & (ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS)) ==
	       ASC_EVENT_MODE_CHECKED;
	if (hand && __atomic_load_n(&f->state->issued, __ATOMIC_RELAXED))
		return -1;
	word = &f->flags->ids[event];
	old = __atomic_load_n(word, __ATOMIC_RELAXED);
	do {
		free = ~old & ((2ULL << (ids - 1)) - 1);
		if (!free)
			return -1;
		id = __builtin_ctzll(free);
		busy = (ASC_EVENT_MAP_WAITER(0) | 1) << id;
		if (hand && (__atomic_load_n(&f->flags->flags[event],
					     __ATOMIC_RELAXED) & busy))
			return -1;
	} while (!__atomic_compare_exchange_n(word, &old, old | 1ULL << id, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	__atomic_fetch_add(&f->flags->fast_ops, 1, __ATOMIC_RELAXED);
	return id;
}

/*
 * A release in userspace of (@event, @id), @event valid: true when the ID
 * was allocated and now is not; false, nothing changed, when the ioctl
 * must do it (the pages not mapped, @id out of range or not allocated:
 * the errors are the driver's).
 */
static ASC_FAST_INLINE bool asc_fast_release(struct asc_fast *f, int event, int id)
{
	unsigned int ids = asc_fast_ids_allowed(f);
	__u64 bit;

	if ((unsigned int)id >= ids)
		return false;
	bit = 1ULL << id;
	if (!(__atomic_fetch_and(&f->flags->ids[event], ~bit, __ATOMIC_ACQ_REL) & bit))
		return false;
	__atomic_fetch_add(&f->flags->fast_ops, 1, __ATOMIC_RELAXED);
	return true;
}

/*
 * What the core runtime needs of a pipe beyond the public calls (pipe.c):
 * whether the driver issues instructions (ASC_EVENT_FEATURE_ISSUE), and
 * the two ioctls.  asc_pipe_issue() returns the ticket; asc_pipe_execute()
 * runs the calling pipe's oldest ticket, a wait without deadline.  Both
 * return 0 or -1 with errno set, as the public calls do.
 */
bool asc_pipe_has_issue(const struct asc_pipe *pipe);
int asc_pipe_issue(struct asc_pipe *pipe, bool set, int event, int id,
		   uint64_t *ticket);
int asc_pipe_execute(struct asc_pipe *pipe, uint64_t ticket);

/*
 * Multi-core launches (pipe.c), for launch.c: whether the driver has them
 * (ASC_EVENT_FEATURE_LAUNCH); ASC_EVENT_IOC_LAUNCH, returning the
 * launch's descriptor; ASC_EVENT_IOC_JOIN then ASC_EVENT_IOC_CORE_INFO;
 * CROSS_SET; CROSS_WAIT and SYNC_ALL without deadline.  -1 with errno on
 * failure, as the public calls.
 */
bool asc_pipe_has_launch(const struct asc_pipe *pipe);
int asc_pipe_launch(struct asc_pipe *pipe, int kind, unsigned int block_dim);
int asc_pipe_join(struct asc_pipe *pipe, int launch_fd, unsigned int core,
		  struct asc_event_core_info *info);
int asc_pipe_cross_set(struct asc_pipe *pipe, int flag_id, int mode,
		       int pipe_id);
int asc_pipe_cross_wait(struct asc_pipe *pipe, int flag_id);
int asc_pipe_sync_all(struct asc_pipe *pipe, unsigned int flags);

/*
 * struct asc_report - text of the core runtime's report, one line per
 * finding (report.c).  Zeroed is empty.  asc_report_add() appends a line
 * (the newline is added); when memory runs out the text keeps what
 * fitted, ends with a line saying so, and takes nothing more.
 * asc_report_take() hands the text over (NULL when empty) and empties
 * the report.
 */
struct asc_report {
	char *buf;
	size_t len;
	size_t cap;
	bool truncated;
};

void asc_report_add(struct asc_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *asc_report_take(struct asc_report *r);
void asc_report_free(struct asc_report *r);

/*
 * struct asc_marker - the core runtime's trace marker (marker.c): the
 * file named by ASC_TRACE_MARKER, where the pipes write a line before and
 * after each work item they run.
 * @fd: the marker, open for writing; -1 when there is none.
 * @failed: a write failed, nothing more is written (set by any pipe's
 *	thread, atomically).
 * @core: "<tid>.<run>" of the run, in every line.
 *
 * asc_marker_open() opens the marker when the environment names one
 * (secure_getenv()), a regular file or a character device; any failure
 * leaves @fd at -1, silently.  asc_marker_name() is the name a line
 * gives @what (NULL: "work"): at most ASC_MARKER_NAME_MAX bytes, control
 * characters as '?', malloc()ed, NULL when out of memory.
 * asc_marker_work() writes the line before (@begin) or after work item
 * @n on @pipe_id, in one write(2), preserving errno; it never fails.
 */
#define ASC_MARKER_NAME_MAX	64

struct asc_marker {
	int fd;
	int failed;
	char core[24];
};

void asc_marker_open(struct asc_marker *m);
void asc_marker_close(struct asc_marker *m);
char *asc_marker_name(const char *what);
void asc_marker_work(struct asc_marker *m, bool begin, int pipe_id,
		     unsigned long n, const char *name);

#endif /* __LIBASC_INTERNAL_H__ */
