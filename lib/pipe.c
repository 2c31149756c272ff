// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * struct asc_pipe: one open of the device, i.e. one TPipe, and every call
 * on it.  Each call is one ioctl, but for the sets and waits the mapped
 * fast path does in userspace (fastpath.c); all mutable state is in the
 * driver.  The library remembers, per thread, the pipe it bound the thread
 * to, for the fast path's role check.
 *
 * The driver takes an absolute CLOCK_MONOTONIC deadline so that a wait
 * restarted after a signal (SA_RESTART, -ERESTARTSYS) keeps it; the
 * relative timeout of the API is converted here, once per call.  EINTR is
 * returned to the caller, never retried: retrying would defeat a signal
 * handler that installed itself without SA_RESTART on purpose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* The device opened by asc_pipe_open(NULL) when $ASC_EVENT_DEV is unset. */
#define ASC_PIPE_DEFAULT_PATH	"/dev/asc_event"

#define ASC_NSEC_PER_SEC	1000000000ULL

/*
 * struct asc_pipe - one open of the device.
 * @fd: the file descriptor: the TPipe lives in the driver, tied to it.
 * @event_ids: IDs per HardEvent, as reported by ASC_EVENT_IOC_INFO.
 * @features: ASC_EVENT_FEATURE_* bits reported by ASC_EVENT_IOC_INFO.
 * @serial: this open's number in the process, never 0, for
 *	asc_bound_key.
 * @fast: the mapped pages of the fast path.
 *
 * Written once by asc_pipe_open() and never changed until
 * asc_pipe_close() frees it, so any number of threads may read it without
 * locking.
 */
struct asc_pipe {
	int fd;
	unsigned int event_ids;
	uint64_t features;
	unsigned long serial;
	struct asc_fast fast;
};

static unsigned long asc_pipe_serials;

/*
 * asc_bound_key (internal.h): the driver's binding is the same while the
 * thread lives, as only the thread itself changes it (but for a raw ioctl
 * the library does not see: the fast path trusts the state page's
 * bindings first).  A child of fork() is another thread:
 * asc_bound_forget() clears it there.
 */
ASC_TLS unsigned long asc_bound_key;
static pthread_once_t asc_bound_once = PTHREAD_ONCE_INIT;

static void asc_bound_forget(void)
{
	asc_bound_key = 0;
}

static void asc_bound_init(void)
{
	pthread_atfork(NULL, NULL, asc_bound_forget);
}

_Static_assert(ASC_PIPE_FIX < 1 << ASC_BOUND_PIPE_BITS,
	       "every ASC_PIPE_* fits in the bits of a thread's key");

static unsigned long asc_pipe_key(const struct asc_pipe *pipe)
{
	return pipe->serial << ASC_BOUND_PIPE_BITS;
}

static const char *asc_pipe_default_path(void)
{
	const char *path = secure_getenv("ASC_EVENT_DEV");

	return path && *path ? path : ASC_PIPE_DEFAULT_PATH;
}

/*
 * Refuse a device this library was not written for.  Features are
 * additive, so unknown feature bits are accepted.
 */
static int asc_pipe_check_info(const struct asc_event_info *info)
{
	if (info->abi_version != ASC_EVENT_ABI_VERSION ||
	    info->nr_events != ASC_EVENT_NR_HARD_EVENTS ||
	    info->event_ids < 1 || info->event_ids > ASC_EVENT_IDS_MAX) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

ASC_API struct asc_pipe *asc_pipe_open(const char *path)
{
	struct asc_event_info info;
	struct asc_pipe *pipe;
	int err;

	if (!path)
		path = asc_pipe_default_path();

	pipe = malloc(sizeof(*pipe));
	if (!pipe)
		return NULL;

	pipe->fd = open(path, O_RDWR | O_CLOEXEC);
	if (pipe->fd < 0)
		goto err_free;

	memset(&info, 0, sizeof(info));
	if (ioctl(pipe->fd, ASC_EVENT_IOC_INFO, &info) < 0)
		goto err_close;
	if (asc_pipe_check_info(&info) < 0)
		goto err_close;

	pipe->event_ids = info.event_ids;
	pipe->features = info.features;
	pipe->serial = __atomic_add_fetch(&asc_pipe_serials, 1, __ATOMIC_RELAXED);
	asc_fast_init(&pipe->fast, pipe->fd, pipe->features, pipe->event_ids,
		      asc_pipe_key(pipe));
	return pipe;

err_close:
	err = errno;
	close(pipe->fd);
	errno = err;
err_free:
	err = errno;
	free(pipe);
	errno = err;
	return NULL;
}

ASC_API void asc_pipe_close(struct asc_pipe *pipe)
{
	int err = errno;

	if (!pipe)
		return;

	asc_fast_unmap(&pipe->fast);
	close(pipe->fd);
	free(pipe);
	errno = err;
}

ASC_API int asc_pipe_reset_leftovers(struct asc_pipe *pipe,
				     unsigned int *ids_held,
				     unsigned int *flags_pending)
{
	struct asc_event_reset reset;

	if (!pipe)
		return asc_einval();

	memset(&reset, 0, sizeof(reset));
	if (ioctl(pipe->fd, ASC_EVENT_IOC_RESET, &reset) < 0)
		return -1;
	if (ids_held)
		*ids_held = reset.ids_held;
	if (flags_pending)
		*flags_pending = reset.flags_pending;
	return 0;
}

ASC_API int asc_pipe_reset(struct asc_pipe *pipe)
{
	return asc_pipe_reset_leftovers(pipe, NULL, NULL);
}

ASC_API int asc_event_ids(struct asc_pipe *pipe)
{
	if (!pipe)
		return asc_einval();

	return pipe->event_ids;
}

ASC_API int asc_pipe_bind(struct asc_pipe *pipe, int pipe_id)
{
	struct asc_event_bind bind;

	if (!pipe || (pipe_id != ASC_PIPE_NONE && !asc_pipe_id_valid(pipe_id)))
		return asc_einval();

	memset(&bind, 0, sizeof(bind));
	bind.pipe = pipe_id;
	pthread_once(&asc_bound_once, asc_bound_init);
	if (ioctl(pipe->fd, ASC_EVENT_IOC_BIND_PIPE, &bind) < 0)
		return -1;
	asc_bound_key = pipe_id == ASC_PIPE_NONE ? 0 :
			asc_pipe_key(pipe) | (unsigned int)pipe_id;
	return 0;
}

ASC_API int asc_pipe_set_checked(struct asc_pipe *pipe, int checked)
{
	struct asc_event_mode mode;

	if (!pipe)
		return asc_einval();

	memset(&mode, 0, sizeof(mode));
	mode.mode = checked ? ASC_EVENT_MODE_CHECKED : 0;
	return ioctl(pipe->fd, ASC_EVENT_IOC_SET_MODE, &mode) < 0 ? -1 : 0;
}

_Static_assert((int)ASC_MODE_CHECKED == (int)ASC_EVENT_MODE_CHECKED,
	       "ASC_MODE_CHECKED is not the device's");
_Static_assert((int)ASC_MODE_STRICT_IDS == (int)ASC_EVENT_MODE_STRICT_IDS,
	       "ASC_MODE_STRICT_IDS is not the device's");

ASC_API int asc_pipe_set_mode(struct asc_pipe *pipe, int mode)
{
	struct asc_event_mode m;

	if (!pipe || mode < 0)
		return asc_einval();

	memset(&m, 0, sizeof(m));
	m.mode = mode;
	return ioctl(pipe->fd, ASC_EVENT_IOC_SET_MODE, &m) < 0 ? -1 : 0;
}

/* GET_MODE: the whole mode word. */
static int asc_pipe_get_mode(struct asc_pipe *pipe, __u32 *mode)
{
	struct asc_event_mode m;

	if (!pipe)
		return asc_einval();

	memset(&m, 0, sizeof(m));
	if (ioctl(pipe->fd, ASC_EVENT_IOC_GET_MODE, &m) < 0)
		return -1;
	*mode = m.mode;
	return 0;
}

/* Bit 31 would make the result negative: it is not reported. */
ASC_API int asc_pipe_mode(struct asc_pipe *pipe)
{
	__u32 mode;

	if (asc_pipe_get_mode(pipe, &mode) < 0)
		return -1;
	return mode & 0x7fffffff;
}

ASC_API int asc_pipe_checked(struct asc_pipe *pipe)
{
	__u32 mode;

	if (asc_pipe_get_mode(pipe, &mode) < 0)
		return -1;
	return !!(mode & ASC_EVENT_MODE_CHECKED);
}

/*
 * Arguments the library rejects itself.  An ID at or above event_ids is
 * left for the driver to refuse: it is the authority on its own geometry.
 */
static bool asc_ref_valid(const struct asc_pipe *pipe, int event, int id)
{
	return pipe && asc_event_valid(event) && id >= 0;
}

/* ALLOC_ID and FETCH_ID differ only in whether the driver occupies the ID. */
static int asc_event_id_query(struct asc_pipe *pipe, int event,
			      unsigned long request)
{
	struct asc_event_ref ref;

	if (!pipe || !asc_event_valid(event))
		return asc_einval();

	memset(&ref, 0, sizeof(ref));
	ref.event = event;
	if (ioctl(pipe->fd, request, &ref) < 0)
		return -1;
	return ref.id;
}

/* RELEASE_ID and SET_FLAG: one ioctl on (event, id). */
static int asc_ref_ioctl(struct asc_pipe *pipe, unsigned long request,
			 int event, int id)
{
	struct asc_event_ref ref;

	if (!asc_ref_valid(pipe, event, id))
		return asc_einval();

	memset(&ref, 0, sizeof(ref));
	ref.event = event;
	ref.id = id;
	return ioctl(pipe->fd, request, &ref) < 0 ? -1 : 0;
}

ASC_API int asc_fetch_event_id(struct asc_pipe *pipe, int event)
{
	return asc_event_id_query(pipe, event, ASC_EVENT_IOC_FETCH_ID);
}

/*
 * The calls of the fast path each start at a multiple of 256
 * bytes, and are shorter than that: none crosses a page, where an
 * emulator such as QEMU's TCG cannot chain the blocks of its jumps.
 */
#define ASC_HOT	__attribute__((aligned(256)))

/*
 * What asc_alloc_event_id() does when the inline fast path did not: with
 * the pool in the flag page, map the pages if this is the first alloc,
 * set or wait and try the fast path again; else the ioctl.
 */
static __attribute__((noinline)) int asc_alloc_event_id_slow(struct asc_pipe *pipe,
							      int event)
{
	int id;

	if (pipe && asc_event_valid(event) && pipe->fast.ids_shown) {
		asc_fast_map(&pipe->fast);
		id = asc_fast_alloc(&pipe->fast, event);
		if (id >= 0)
			return id;
	}
	return asc_event_id_query(pipe, event, ASC_EVENT_IOC_ALLOC_ID);
}

ASC_API ASC_HOT int asc_alloc_event_id(struct asc_pipe *pipe, int event)
{
	int id;

	if (pipe && asc_event_valid(event)) {
		id = asc_fast_alloc(&pipe->fast, event);
		if (id >= 0)
			return id;
	}
	return asc_alloc_event_id_slow(pipe, event);
}

ASC_API ASC_HOT int asc_release_event_id(struct asc_pipe *pipe, int id, int event)
{
	if (pipe && asc_event_valid(event) &&
	    asc_fast_release(&pipe->fast, event, id))
		return 0;
	return asc_ref_ioctl(pipe, ASC_EVENT_IOC_RELEASE_ID, event, id);
}

/*
 * What asc_set_flag() does when the inline fast path did not: map the
 * pages if this is the first set or wait, then the fast path with the
 * whole check of the caller, or the ioctl.  Out of line, so that the hot
 * path saves no registers and makes no call.
 */
static __attribute__((noinline)) int asc_set_flag_slow(struct asc_pipe *pipe,
							int event, int id)
{
	if (asc_ref_valid(pipe, event, id)) {
		asc_fast_map(&pipe->fast);
		if (asc_fast_set(&pipe->fast, event, id, true))
			return 0;
	}
	return asc_ref_ioctl(pipe, ASC_EVENT_IOC_SET_FLAG, event, id);
}

ASC_API ASC_HOT int asc_set_flag(struct asc_pipe *pipe, int event, int id)
{
	if (pipe && asc_event_valid(event) &&
	    asc_fast_set(&pipe->fast, event, id, false))
		return 0;
	return asc_set_flag_slow(pipe, event, id);
}

/*
 * A negative timeout waits forever and 0 is any deadline in the past; a
 * sum beyond the range of the clock is also forever.
 */
static int asc_deadline(int64_t timeout_ns, __u64 *deadline)
{
	struct timespec now;
	__u64 now_ns;

	if (timeout_ns < 0) {
		*deadline = ASC_EVENT_WAIT_FOREVER;
		return 0;
	}
	if (timeout_ns == 0) {
		*deadline = 0;
		return 0;
	}

	if (clock_gettime(CLOCK_MONOTONIC, &now) < 0)
		return -1;
	now_ns = (__u64)now.tv_sec * ASC_NSEC_PER_SEC + now.tv_nsec;
	if (__builtin_add_overflow(now_ns, (__u64)timeout_ns, deadline))
		*deadline = ASC_EVENT_WAIT_FOREVER;
	return 0;
}

/* As asc_set_flag_slow(), for asc_wait_flag_timeout(). */
static __attribute__((noinline)) int asc_wait_flag_slow(struct asc_pipe *pipe,
							 int event, int id,
							 int64_t timeout_ns)
{
	struct asc_event_wait wait;

	if (!asc_ref_valid(pipe, event, id))
		return asc_einval();
	asc_fast_map(&pipe->fast);
	if (asc_fast_wait(&pipe->fast, event, id, true))
		return 0;

	memset(&wait, 0, sizeof(wait));
	if (asc_deadline(timeout_ns, &wait.deadline) < 0)
		return -1;
	wait.event = event;
	wait.id = id;
	if (ioctl(pipe->fd, ASC_EVENT_IOC_WAIT_FLAG, &wait) < 0)
		return -1;
	return 0;
}

ASC_API ASC_HOT int asc_wait_flag_timeout(struct asc_pipe *pipe, int event, int id,
					  int64_t timeout_ns)
{
	if (pipe && asc_event_valid(event) &&
	    asc_fast_wait(&pipe->fast, event, id, false))
		return 0;
	return asc_wait_flag_slow(pipe, event, id, timeout_ns);
}

ASC_API ASC_HOT int asc_wait_flag(struct asc_pipe *pipe, int event, int id)
{
	if (pipe && asc_event_valid(event) &&
	    asc_fast_wait(&pipe->fast, event, id, false))
		return 0;
	return asc_wait_flag_slow(pipe, event, id, -1);
}

bool asc_pipe_has_issue(const struct asc_pipe *pipe)
{
	return pipe->features & ASC_EVENT_FEATURE_ISSUE;
}

int asc_pipe_issue(struct asc_pipe *pipe, bool set, int event, int id,
		   uint64_t *ticket)
{
	struct asc_event_issue issue;

	if (!asc_ref_valid(pipe, event, id))
		return asc_einval();

	memset(&issue, 0, sizeof(issue));
	issue.op = set ? ASC_EVENT_OP_SET : ASC_EVENT_OP_WAIT;
	issue.event = event;
	issue.id = id;
	if (ioctl(pipe->fd, ASC_EVENT_IOC_ISSUE, &issue) < 0)
		return -1;
	*ticket = issue.ticket;
	return 0;
}

int asc_pipe_execute(struct asc_pipe *pipe, uint64_t ticket)
{
	struct asc_event_execute exec;

	memset(&exec, 0, sizeof(exec));
	exec.ticket = ticket;
	exec.deadline = ASC_EVENT_WAIT_FOREVER;
	return ioctl(pipe->fd, ASC_EVENT_IOC_EXECUTE, &exec) < 0 ? -1 : 0;
}

bool asc_pipe_has_launch(const struct asc_pipe *pipe)
{
	return pipe->features & ASC_EVENT_FEATURE_LAUNCH;
}

int asc_pipe_launch(struct asc_pipe *pipe, int kind, unsigned int block_dim)
{
	struct asc_event_launch launch;

	memset(&launch, 0, sizeof(launch));
	launch.kind = kind;
	launch.block_dim = block_dim;
	if (ioctl(pipe->fd, ASC_EVENT_IOC_LAUNCH, &launch) < 0)
		return -1;
	return launch.fd;
}

int asc_pipe_join(struct asc_pipe *pipe, int launch_fd, unsigned int core,
		  struct asc_event_core_info *info)
{
	struct asc_event_join join;

	memset(&join, 0, sizeof(join));
	join.launch_fd = launch_fd;
	join.core = core;
	if (ioctl(pipe->fd, ASC_EVENT_IOC_JOIN, &join) < 0)
		return -1;
	return ioctl(pipe->fd, ASC_EVENT_IOC_CORE_INFO, info) < 0 ? -1 : 0;
}

int asc_pipe_cross_set(struct asc_pipe *pipe, int flag_id, int mode,
		       int pipe_id)
{
	struct asc_event_cross_set set;

	memset(&set, 0, sizeof(set));
	set.flag_id = flag_id;
	set.mode = mode;
	set.pipe = pipe_id;
	return ioctl(pipe->fd, ASC_EVENT_IOC_CROSS_SET, &set) < 0 ? -1 : 0;
}

int asc_pipe_cross_wait(struct asc_pipe *pipe, int flag_id)
{
	struct asc_event_cross_wait wait;

	memset(&wait, 0, sizeof(wait));
	wait.deadline = ASC_EVENT_WAIT_FOREVER;
	wait.flag_id = flag_id;
	return ioctl(pipe->fd, ASC_EVENT_IOC_CROSS_WAIT, &wait) < 0 ? -1 : 0;
}

int asc_pipe_sync_all(struct asc_pipe *pipe, unsigned int flags)
{
	struct asc_event_sync_all sync;

	memset(&sync, 0, sizeof(sync));
	sync.deadline = ASC_EVENT_WAIT_FOREVER;
	sync.flags = flags;
	return ioctl(pipe->fd, ASC_EVENT_IOC_SYNC_ALL, &sync) < 0 ? -1 : 0;
}
