// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mapped fast path: sets and waits in userspace on the flag registers
 * the driver maps (ASC_EVENT_FEATURE_MAP, Documentation/uapi.rst), and
 * allocs and releases on the pool in the flag page (..._MAP_IDS: the
 * rules are at asc_fast_alloc() and asc_fast_release() in internal.h).
 *
 * A set or wait is done here only when the library can tell from the
 * read-only state page that the ioctl would succeed and change nothing
 * but the flag: no tracepoint of the driver is enabled, the ID is below
 * the TPipe's count and, in checked mode, allocated or the last fetched
 * one, and the calling thread is either bound (through this library, to
 * this pipe) to the HardEvent's source pipe for a set, its destination
 * pipe for a wait, or bound to no pipe of the TPipe, and for a set no
 * thread is bound to the source pipe (the state page shows the bindings
 * with the thread IDs, ASC_EVENT_FEATURE_MAP_BOUND).  Then a set sets its
 * flag bit with compare-and-swap unless the bit or its waiter bit is set,
 * and a wait clears a set flag bit; everything else (a double set, a
 * blocked waiter to wake, a flag not yet set, any error) is the ioctl's.
 * Each operation done here adds one to the page's count, which the
 * driver's counters read.
 *
 * The pages are mapped by the first alloc, set or wait of the pipe (so an
 * open that never does one costs the kernel no page): that thread maps
 * them, and every call takes the ioctl until they are ready.
 *
 * $ASC_NO_FASTPATH set to anything but "" or "0" maps nothing: every call
 * is an ioctl.  It is read once per process.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

static pthread_once_t asc_fast_once = PTHREAD_ONCE_INIT;
static bool asc_fast_off;

/*
 * The calling thread's ID, as gettid() gives it, once asked for; 0 before.
 * A child of fork() is another thread: asc_fast_forget_tid() clears it.
 */
static __thread __attribute__((tls_model("initial-exec"))) pid_t asc_fast_tid;

static void asc_fast_forget_tid(void)
{
	asc_fast_tid = 0;
}

static void asc_fast_read_env(void)
{
	const char *v = secure_getenv("ASC_NO_FASTPATH");

	asc_fast_off = v && *v && strcmp(v, "0");
	pthread_atfork(NULL, NULL, asc_fast_forget_tid);
}

/* The bound pipes of a driver that does not show them: every pipe. */
static const __u32 asc_fast_all_pipes = ~0U;

/*
 * The module page of a pipe whose pages are not mapped: "tracing", so
 * that the inline path may read it before it knows they are.
 */
static const struct asc_event_map_module asc_fast_no_module = { .tracing = 1 };

/*
 * What asc_fast_caller() leaves: a thread bound through this library to
 * another pipe of this open is refused; without the bindings in the page
 * any other thread too.  Else the thread is bound to none of the pipes
 * the page shows bound when its thread ID is none of theirs: a thread
 * that bound itself has its own ID there, and another thread's ID that
 * happens to be equal (a thread of another PID namespace, or an exited
 * bound thread whose ID was given again) only sends the call to the
 * driver.  A set needs its source pipe free too.
 */
bool asc_fast_caller_rest(const struct asc_fast *f, unsigned long bound, int role,
			  bool set)
{
	unsigned int pipes;
	pid_t me;
	int pipe;

	if ((bound && (bound & ~ASC_BOUND_PIPE_MASK) == f->key) || !f->bound_shown)
		return false;
	pipes = __atomic_load_n(&f->state->bound, __ATOMIC_RELAXED);
	if (set && (pipes >> role & 1))
		return false;
	me = asc_fast_tid;
	if (!me) {
		me = (pid_t)syscall(SYS_gettid);
		asc_fast_tid = me;
	}
	for (pipe = 0; pipe < ASC_EVENT_MAP_PIPES; pipe++) {
		if ((pipes >> pipe & 1) &&
		    __atomic_load_n(&f->state->bound_tid[pipe], __ATOMIC_RELAXED) == me)
			return false;
	}
	return true;
}

static void *asc_fast_page(int fd, int page, int prot)
{
	long size = sysconf(_SC_PAGESIZE);
	void *p;

	p = mmap(NULL, size, prot, MAP_SHARED, fd, (off_t)page * size);
	return p == MAP_FAILED ? NULL : p;
}

void asc_fast_init(struct asc_fast *f, int fd, uint64_t features,
		   unsigned int event_ids, unsigned long key)
{
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->event_ids = event_ids;
	f->key = key;
	f->bound_shown = features & ASC_EVENT_FEATURE_MAP_BOUND;
	f->ids_shown = features & ASC_EVENT_FEATURE_MAP_IDS;
	f->bound_pipes = &asc_fast_all_pipes;
	f->module = &asc_fast_no_module;
	pthread_once(&asc_fast_once, asc_fast_read_env);
	if (asc_fast_off || !(features & ASC_EVENT_FEATURE_MAP) ||
	    event_ids > ASC_EVENT_MAP_IDS_MAX)
		f->ready = ASC_FAST_OFF;
}

static void asc_fast_unmap_pages(struct asc_fast *f)
{
	long size = sysconf(_SC_PAGESIZE);

	if (f->state)
		munmap((void *)f->state, size);
	if (f->module != &asc_fast_no_module)
		munmap((void *)f->module, size);
	if (f->flags)
		munmap(f->flags, size);
	f->state = NULL;
	__atomic_store_n(&f->module, &asc_fast_no_module, __ATOMIC_RELAXED);
	f->flags = NULL;
}

/*
 * The first caller maps the pages; until they are, every call asks the
 * driver.  Out of line and cold: pipe.c calls it only when the inline
 * fast path did not do a set or wait.  True only for the call that mapped
 * them.
 */
__attribute__((cold, noinline)) bool asc_fast_map(struct asc_fast *f)
{
	int state = __atomic_load_n(&f->ready, __ATOMIC_ACQUIRE);
	const struct asc_event_map_module *module;
	int none = ASC_FAST_UNMAPPED;

	if (state != ASC_FAST_UNMAPPED ||
	    !__atomic_compare_exchange_n(&f->ready, &none, ASC_FAST_MAPPING, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;

	f->state = asc_fast_page(f->fd, ASC_EVENT_MAP_STATE, PROT_READ);
	module = asc_fast_page(f->fd, ASC_EVENT_MAP_MODULE, PROT_READ);
	if (module)
		__atomic_store_n(&f->module, module, __ATOMIC_RELAXED);
	f->flags = asc_fast_page(f->fd, ASC_EVENT_MAP_FLAGS, PROT_READ | PROT_WRITE);
	if (!f->state || !module || !f->flags) {
		asc_fast_unmap_pages(f);
		__atomic_store_n(&f->ready, ASC_FAST_OFF, __ATOMIC_RELEASE);
		return false;
	}
	if (f->bound_shown)
		f->bound_pipes = &f->state->bound;
	f->pool = f->ids_shown ? f->flags->ids : f->state->pool;
	__atomic_store_n(&f->ready, ASC_FAST_MAPPED, __ATOMIC_RELEASE);
	__atomic_store_n(&f->fast_ids, f->event_ids, __ATOMIC_RELEASE);
	return true;
}

void asc_fast_unmap(struct asc_fast *f)
{
	__atomic_store_n(&f->fast_ids, 0, __ATOMIC_RELAXED);
	if (f->ready == ASC_FAST_MAPPED)
		asc_fast_unmap_pages(f);
	f->ready = ASC_FAST_OFF;
}
