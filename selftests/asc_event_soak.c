// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event_soak - a bounded stress run of /dev/asc_event with a checked model.
 *
 *   asc_event_soak [-p PROCS] [-t THREADS] [-s SECONDS] [-S SEED]
 *                  [-k KILL_MS] [-i SIGNAL_US] [-v]
 *
 * A supervisor forks PROCS processes (default 4).  Each opens the device
 * (one TPipe) and runs THREADS worker threads (default 4) on that one file
 * descriptor for SECONDS (default $ASC_SOAK_SECONDS, else 5), each doing a
 * random mix of alloc / fetch / release / set / wait (deadlines in the past,
 * short, long and forever) / reset / close-and-reopen.  A signaller thread
 * in each process sends SIGUSR1 (handler with SA_RESTART) and SIGUSR2
 * (handler without) to random workers with tgkill(), about every SIGNAL_US
 * microseconds (default 500; 0: none).  The supervisor SIGKILLs a random
 * process about every KILL_MS milliseconds (default 1000; 0: never) and
 * forks a replacement, so TPipes die with waiters blocked in them.  At
 * most (THREADS - 1) / 2 threads of a process wait forever at once, so
 * some are always free to set or reset; allocs sometimes run a pool dry.
 * The seed (default fixed) is printed; -S repeats a run's random choices
 * (thread timing cannot be repeated).
 *
 * Checked mode is off on every TPipe of the run (ASC_EVENT_IOC_SET_MODE
 * with mode 0 right after each open): the mix sets and waits on random
 * (event, id) pairs, most of them neither allocated nor fetched, which
 * checked mode would refuse as hand-written IDs, and the conservation
 * checks below are about the raw flag semantics.  No thread binds to a
 * pipe.
 *
 * What is checked, and why it is exact under concurrency
 * -------------------------------------------------------
 * Three userspace locks per process order the test's own bookkeeping.
 * Sets, waits, releases and most allocs of one process still run in the
 * driver at the same time; resets overlap sets and waits:
 *
 * - fdgate (rwlock, writer-preferring): every ioctl on the process's fd
 *   holds it for reading, waits included; close-and-reopen holds it for
 *   writing.  So a TPipe's life (open to close) contains whole operations
 *   only, and at close nothing is in flight.  A closer that cannot get the
 *   write lock (a worker blocked in a long or forever wait holds a read
 *   lock) issues a RESET to cancel such waits and tries again.
 * - idgate (rwlock, writer-preferring): alloc, fetch and release hold it
 *   for reading, RESET for writing.  A reset therefore never overlaps an
 *   ID operation, but it does overlap sets and waits (that is how waits
 *   get ECANCELED).
 * - the model mutex guards the bookkeeping of IDs: "held" (the kernel gave
 *   it to us by alloc and no release was started), "claimed" (a release is
 *   in flight) and, per HardEvent, the number of allocs in flight.  It is
 *   taken after an ioctl returns to record the result; only the "checked"
 *   variants below hold it across their ioctl, and only when no unchecked
 *   alloc of that HardEvent is in flight.
 *
 * Invariants, checked in every process.  A SIGKILLed process loses its
 * open TPipe and its books together, so its last TPipe is not checked; the
 * checks it had completed before (TPipes it closed, single operations)
 * count like those of a process that ran to its end:
 *
 * Flags, per TPipe (checked at every close, when nothing is in flight):
 *   F1  sum of successful sets == sum of successful waits + sum of
 *       flags_pending over every RESET of that TPipe (the one before close
 *       included): no flag lost or consumed twice.  Waits that overlap a
 *       reset can consume a flag on either side of it; the per-TPipe sum
 *       does not care.
 *   F2  per (event, id): successful waits <= successful sets: a set never
 *       satisfies a wait on another flag.
 *   F3  on about half of the closes every flag is drained first with
 *       deadline-0 waits; then the reset must report flags_pending == 0
 *       and, when no reset ran during that TPipe's life, waits == sets for
 *       every (event, id).
 *
 * IDs (every reset runs with no ID operation in flight):
 *   I1  ids_held reported by every RESET == IDs the model holds.
 *   I2  an alloc never returns an ID the model holds (no double
 *       allocation), and returns an ID below event_ids.
 *   I3  a release of a held ID succeeds; a release of an ID that is
 *       neither held nor being released, with no alloc of its HardEvent in
 *       flight, fails with ENOENT; an ID >= event_ids fails with EINVAL.
 *   I4  a checked fetch or alloc (no alloc of the HardEvent in flight)
 *       returns the lowest free ID: not held, and either the lowest ID
 *       neither held nor claimed, or a lower claimed one whose release has
 *       already reached the kernel; ENOSPC only when every ID is held or
 *       claimed.
 *
 * Waits:
 *   W1  ETIMEDOUT only at or after the deadline, never for a forever wait.
 *   W2  EINTR only when the waiting thread ran the SIGUSR2 handler (no
 *       SA_RESTART) during the call; SIGUSR1 (SA_RESTART) never shows.
 *   W3  ECANCELED only when a reset started after the last one that had
 *       finished when the wait began.
 *   W4  no other error from any ioctl.
 *
 * Processes:
 *   P1  every process exits normally or was SIGKILLed by the supervisor;
 *       none crashes, none outlives its end by more than the grace time.
 *
 * Output is TAP: one result per group above and one for "every kind of
 * operation happened", then a summary line with the operations by kind,
 * operations per second, signals sent, processes killed and
 * "conservation: ok" (or FAILED).  Exit status: 0 pass, 1 fail, 4 skip
 * (no device, or no access to it).
 *
 * Not in the default selftest list (it runs for seconds): run it directly,
 * e.g. tools/testing/asc-vm -- build/selftests/asc_event_soak -s 10.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/asc_event.h>

#include "kselftest.h"
#include "asc_test_device.h"
#include "asc_test_util.h"

#define MAX_PROCS	32
#define MAX_THREADS	32
#define MAX_SLOTS	1024
#define NR_EVENTS	((int)ASC_EVENT_NR_HARD_EVENTS)
#define NR_CHANNELS	(NR_EVENTS * ASC_EVENT_IDS_MAX)
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/* How long a process may take to finish after the end of the run. */
#define GRACE_MS	30000
/* How long a SIGKILLed process may take to be reaped. */
#define KILL_REAP_MS	10000
/* A closer retries the write lock of fdgate this often, resetting between. */
#define CLOSER_RETRY_MS	2

/* HardEvents whose IDs are allocated most (so pools run out). */
static const int hot_id_events[] = { 5, 6, 7 };
/* Flags set and waited on most (so sets meet waits). */
#define HOT_FLAG_EVENTS	4
#define HOT_FLAG_IDS	4

/* Per-thread counters, in memory shared with the supervisor. */
enum ctr {
	C_ALLOC, C_ALLOC_NOSPC, C_FETCH, C_FETCH_NOSPC,
	C_RELEASE, C_RELEASE_NOENT, C_RELEASE_INVAL,
	C_SET, C_SET_BUSY,
	C_WAIT, C_WAIT_TIMEDOUT, C_WAIT_INTR, C_WAIT_CANCELED,
	C_RESET, C_REOPEN,
	/* not operations: */
	C_PROBE_WAITS, C_PENDING, C_IDS_HELD,
	C_SENT_USR1, C_SENT_USR2, C_GOT_USR1, C_GOT_USR2,
	NR_CTR,
	NR_OPS = C_PROBE_WAITS,
};

static const char *const ctr_names[NR_CTR] = {
	[C_ALLOC] = "alloc", [C_ALLOC_NOSPC] = "alloc-ENOSPC",
	[C_FETCH] = "fetch", [C_FETCH_NOSPC] = "fetch-ENOSPC",
	[C_RELEASE] = "release", [C_RELEASE_NOENT] = "release-ENOENT",
	[C_RELEASE_INVAL] = "release-EINVAL",
	[C_SET] = "set", [C_SET_BUSY] = "set-EBUSY",
	[C_WAIT] = "wait", [C_WAIT_TIMEDOUT] = "wait-ETIMEDOUT",
	[C_WAIT_INTR] = "wait-EINTR", [C_WAIT_CANCELED] = "wait-ECANCELED",
	[C_RESET] = "reset", [C_REOPEN] = "reopen",
	[C_PROBE_WAITS] = "drain-waits", [C_PENDING] = "flags-pending",
	[C_IDS_HELD] = "ids-held",
	[C_SENT_USR1] = "SIGUSR1-sent", [C_SENT_USR2] = "SIGUSR2-sent",
	[C_GOT_USR1] = "SIGUSR1-handled", [C_GOT_USR2] = "SIGUSR2-handled",
};

/* Groups of invariants; each is one TAP result. */
enum check { K_PROC, K_FLAGS, K_IDS, K_WAITS, NR_CHECKS };

static const char *const check_names[NR_CHECKS] = {
	[K_PROC] = "processes",
	[K_FLAGS] = "flag conservation",
	[K_IDS] = "ID accounting",
	[K_WAITS] = "wait results",
};

enum slot_state { SLOT_FREE, SLOT_RUNNING, SLOT_DONE, SLOT_KILLED,
		  SLOT_CRASHED, SLOT_HUNG };

/*
 * struct slot - one process of the run, in shared memory.
 * @pid: its PID.
 * @state: enum slot_state, written by the supervisor.
 * @status: exit status or terminating signal.
 * @ctr: counters: rows 0..threads-1 workers, then main, then signaller.
 * @tpipes: TPipes whose conservation was checked at close.
 * @drained: of those, how many were drained flag by flag first.
 * @failures: failed checks per enum check.
 * @msg: the first failure of each group.
 */
struct slot {
	pid_t pid;
	int state;
	int status;
	uint64_t ctr[MAX_THREADS + 2][NR_CTR];
	uint32_t tpipes;
	uint32_t drained;
	uint32_t failures[NR_CHECKS];
	char msg[NR_CHECKS][240];
};

/* Parameters of the run, shared by the supervisor and every process. */
static struct {
	int procs;
	int threads;
	int seconds;
	uint64_t seed;
	unsigned int kill_ms;
	unsigned int signal_us;
	bool verbose;
	uint64_t end_ns;
	struct slot *slots;
	int nslots;
} run;

/*
 * struct proc - state of one soak process.
 *
 * @fd and @ids change only under the write lock of @fdgate, which only a
 * holder of @closer takes.  @held, @claimed and @inflight are under
 * @model_lock.  @pend_tpipe and @resets_tpipe are changed only under the
 * write lock of @idgate and read at close.  @ch_set / @ch_wait are
 * per-thread arrays of successful sets and waits per (event, id), read at
 * close; @base_* are their sums at the previous close.
 */
struct proc {
	struct slot *slot;
	int index;
	int fd;
	int ids;
	uint64_t mask;
	pthread_rwlock_t fdgate;
	pthread_rwlock_t idgate;
	pthread_mutex_t closer;
	pthread_mutex_t model_lock;
	pthread_mutex_t fail_lock;
	uint64_t held[NR_EVENTS];
	uint64_t claimed[NR_EVENTS];
	int inflight[NR_EVENTS];
	atomic_ulong resets_started;
	atomic_ulong resets_done;
	atomic_int stop;
	atomic_int forever_waiters;
	atomic_int tids[MAX_THREADS];
	uint64_t pend_tpipe;
	unsigned long resets_tpipe;
	uint32_t (*ch_set)[NR_CHANNELS];
	uint32_t (*ch_wait)[NR_CHANNELS];
	uint64_t base_set[NR_CHANNELS];
	uint64_t base_wait[NR_CHANNELS];
};

/* struct thr - one thread of a soak process. */
struct thr {
	struct proc *p;
	int idx;
	uint64_t rng;
	uint64_t *ctr;
	pthread_t thread;
};

/* Signal handler counts of the running thread (volatile: the handler writes them). */
static __thread volatile unsigned long got_usr1, got_usr2;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_usr1++;
	else
		got_usr2++;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	return ts;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* splitmix64: small, fast and good enough to pick operations. */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd(s) % n);
}

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

/*
 * Open the device and turn checked mode off for the new TPipe.
 * Return: the descriptor, or -1 with errno set.
 */
static int dev_open(void)
{
	struct asc_event_mode mode = { .mode = 0 };
	int fd, err;

	fd = asc_open();
	if (fd >= 0 && ioctl(fd, ASC_EVENT_IOC_SET_MODE, &mode)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/**
 * fail() - record a failed check of this process.
 * @p: the process.
 * @k: which group of invariants.
 * @fmt: what went wrong, printf-style.
 *
 * The first failure of each group is kept for the supervisor's report.
 */
static void __attribute__((format(printf, 3, 4)))
fail(struct proc *p, enum check k, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&p->fail_lock);
	if (!p->slot->failures[k]++) {
		va_start(ap, fmt);
		vsnprintf(p->slot->msg[k], sizeof(p->slot->msg[k]), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&p->fail_lock);
}

static int lowest_bit(uint64_t v)
{
	return v ? __builtin_ctzll(v) : -1;
}

/* The @k-th (from 0) set bit of @v, which has more than @k bits set. */
static int nth_bit(uint64_t v, int k)
{
	while (k--)
		v &= v - 1;
	return __builtin_ctzll(v);
}

static int pick_id_event(struct thr *t)
{
	if (rnd_below(&t->rng, 10) < 7)
		return hot_id_events[rnd_below(&t->rng, 3)];
	return (int)rnd_below(&t->rng, NR_EVENTS);
}

static void pick_channel(struct thr *t, int *event, int *id)
{
	int ids = t->p->ids;

	if (rnd_below(&t->rng, 10) < 9) {
		*event = (int)rnd_below(&t->rng, HOT_FLAG_EVENTS);
		*id = (int)rnd_below(&t->rng, ids < HOT_FLAG_IDS ? ids : HOT_FLAG_IDS);
	} else {
		*event = (int)rnd_below(&t->rng, NR_EVENTS);
		*id = (int)rnd_below(&t->rng, ids);
	}
}

/*
 * Check an ID reported by a fetch or alloc that ran under the model lock
 * with no alloc of @event in flight (I4).  @r is the ID or -errno.
 */
static void check_lowest(struct proc *p, const char *op, int event, int r)
{
	uint64_t busy = p->held[event] | p->claimed[event];
	int lowest = lowest_bit(~busy & p->mask);

	if (r == -ENOSPC) {
		if (lowest >= 0)
			fail(p, K_IDS, "%s(%d): ENOSPC, but ID %d is free",
			     op, event, lowest);
		return;
	}
	if (r < 0) {
		fail(p, K_IDS, "%s(%d): %s", op, event, strerror(-r));
		return;
	}
	/*
	 * The kernel's free IDs are those neither held nor claimed, plus
	 * claimed ones whose release has already run.
	 */
	if (r >= p->ids || (p->held[event] >> r) & 1 ||
	    (r != lowest && ((lowest >= 0 && r > lowest) ||
			     !((p->claimed[event] >> r) & 1))))
		fail(p, K_IDS, "%s(%d) = %d, expected the lowest free ID (held %#" PRIx64
		     ", being released %#" PRIx64 ")", op, event, r, p->held[event],
		     p->claimed[event]);
}

/*
 * ALLOC_ID on @event; a quarter of them checked under the model lock.
 * Return: 0 or -errno.
 */
static int op_alloc(struct thr *t, int event)
{
	struct proc *p = t->p;
	struct asc_event_ref ref = { .event = (uint32_t)event };
	bool checked = false;
	int r;

	pthread_rwlock_rdlock(&p->idgate);
	pthread_mutex_lock(&p->model_lock);
	if (rnd_below(&t->rng, 4) == 0 && p->inflight[event] == 0) {
		checked = true;
		r = xioctl(p->fd, ASC_EVENT_IOC_ALLOC_ID, &ref);
		check_lowest(p, "alloc", event, r ? r : (int)ref.id);
	} else {
		p->inflight[event]++;
		pthread_mutex_unlock(&p->model_lock);
		r = xioctl(p->fd, ASC_EVENT_IOC_ALLOC_ID, &ref);
		pthread_mutex_lock(&p->model_lock);
		p->inflight[event]--;
	}
	if (!r) {
		if (ref.id >= (uint32_t)p->ids)
			fail(p, K_IDS, "alloc(%d) = %u, beyond event_ids %d",
			     event, ref.id, p->ids);
		else if ((p->held[event] >> ref.id) & 1)
			fail(p, K_IDS, "alloc(%d) = %u, which is already allocated", event, ref.id);
		else
			p->held[event] |= 1ULL << ref.id;
		t->ctr[C_ALLOC]++;
	} else if (r == -ENOSPC) {
		t->ctr[C_ALLOC_NOSPC]++;
	} else if (!checked) {
		fail(p, K_IDS, "alloc(%d): %s", event, strerror(-r));
	}
	pthread_mutex_unlock(&p->model_lock);
	pthread_rwlock_unlock(&p->idgate);
	return r;
}

/* Allocate IDs of one HardEvent until it runs out, racing other threads. */
static void op_fill(struct thr *t)
{
	int event = pick_id_event(t), i;

	for (i = 0; i <= t->p->ids; i++)
		if (op_alloc(t, event))
			break;
}

/* FETCH_ID; checked (I4) when no alloc of the event is in flight. */
static void op_fetch(struct thr *t)
{
	struct proc *p = t->p;
	int event = pick_id_event(t);
	struct asc_event_ref ref = { .event = (uint32_t)event };
	int r;

	pthread_rwlock_rdlock(&p->idgate);
	pthread_mutex_lock(&p->model_lock);
	if (p->inflight[event] == 0) {
		r = xioctl(p->fd, ASC_EVENT_IOC_FETCH_ID, &ref);
		check_lowest(p, "fetch", event, r ? r : (int)ref.id);
		pthread_mutex_unlock(&p->model_lock);
	} else {
		pthread_mutex_unlock(&p->model_lock);
		r = xioctl(p->fd, ASC_EVENT_IOC_FETCH_ID, &ref);
		if ((r && r != -ENOSPC) || (!r && ref.id >= (uint32_t)p->ids))
			fail(p, K_IDS, "fetch(%d) = %d / %u", event, r, ref.id);
	}
	pthread_rwlock_unlock(&p->idgate);
	t->ctr[r ? C_FETCH_NOSPC : C_FETCH]++;
}

/* RELEASE_ID of a random held ID (I3). */
static void op_release(struct thr *t)
{
	struct proc *p = t->p;
	int event = pick_id_event(t), i, id;
	struct asc_event_ref ref;
	int r;

	pthread_rwlock_rdlock(&p->idgate);
	pthread_mutex_lock(&p->model_lock);
	for (i = 0; i < NR_EVENTS && !p->held[event]; i++)
		event = (event + 1) % NR_EVENTS;
	if (!p->held[event]) {
		pthread_mutex_unlock(&p->model_lock);
		pthread_rwlock_unlock(&p->idgate);
		return;
	}
	id = nth_bit(p->held[event],
		     (int)rnd_below(&t->rng, (uint32_t)__builtin_popcountll(p->held[event])));
	p->held[event] &= ~(1ULL << id);
	p->claimed[event] |= 1ULL << id;
	pthread_mutex_unlock(&p->model_lock);

	ref = (struct asc_event_ref){ .event = (uint32_t)event, .id = (uint32_t)id };
	r = xioctl(p->fd, ASC_EVENT_IOC_RELEASE_ID, &ref);
	if (r)
		fail(p, K_IDS, "release(%d, %d) of an allocated ID: %s", event, id, strerror(-r));

	pthread_mutex_lock(&p->model_lock);
	p->claimed[event] &= ~(1ULL << id);
	pthread_mutex_unlock(&p->model_lock);
	pthread_rwlock_unlock(&p->idgate);
	t->ctr[C_RELEASE]++;
}

/* RELEASE_ID of an ID that is not allocated, or out of range (I3). */
static void op_release_bad(struct thr *t)
{
	struct proc *p = t->p;
	int event = pick_id_event(t), id;
	struct asc_event_ref ref = { .event = (uint32_t)event };
	uint64_t free;
	int r;

	if (rnd_below(&t->rng, 3) == 0) {
		ref.id = (uint32_t)p->ids + rnd_below(&t->rng, 8);
		pthread_rwlock_rdlock(&p->idgate);
		r = xioctl(p->fd, ASC_EVENT_IOC_RELEASE_ID, &ref);
		pthread_rwlock_unlock(&p->idgate);
		if (r != -EINVAL)
			fail(p, K_IDS, "release(%d, %u) beyond event_ids %d: %d, expected EINVAL",
			     event, ref.id, p->ids, r);
		t->ctr[C_RELEASE_INVAL]++;
		return;
	}

	pthread_rwlock_rdlock(&p->idgate);
	pthread_mutex_lock(&p->model_lock);
	free = ~(p->held[event] | p->claimed[event]) & p->mask;
	if (p->inflight[event] == 0 && free) {
		id = nth_bit(free, (int)rnd_below(&t->rng, (uint32_t)__builtin_popcountll(free)));
		ref.id = (uint32_t)id;
		r = xioctl(p->fd, ASC_EVENT_IOC_RELEASE_ID, &ref);
		if (r != -ENOENT)
			fail(p, K_IDS, "release(%d, %d) of a free ID: %d, expected ENOENT",
			     event, id, r);
		t->ctr[C_RELEASE_NOENT]++;
	}
	pthread_mutex_unlock(&p->model_lock);
	pthread_rwlock_unlock(&p->idgate);
}

/* SET_FLAG on a mostly hot (event, id). */
static void op_set(struct thr *t)
{
	struct proc *p = t->p;
	struct asc_event_ref ref = { 0 };
	int event, id, r;

	pick_channel(t, &event, &id);
	ref.event = (uint32_t)event;
	ref.id = (uint32_t)id;
	r = xioctl(p->fd, ASC_EVENT_IOC_SET_FLAG, &ref);
	if (!r) {
		p->ch_set[t->idx][event * ASC_EVENT_IDS_MAX + id]++;
		t->ctr[C_SET]++;
	} else if (r == -EBUSY) {
		t->ctr[C_SET_BUSY]++;
	} else {
		fail(p, K_FLAGS, "set(%d, %d): %s", event, id, strerror(-r));
	}
}

/* WAIT_FLAG with a random deadline; checks W1..W4. */
static void op_wait(struct thr *t)
{
	struct proc *p = t->p;
	struct asc_event_wait w = { 0 };
	unsigned long usr2 = got_usr2, done = atomic_load(&p->resets_done);
	uint32_t kind = rnd_below(&t->rng, 100);
	bool forever = false;
	uint64_t end;
	int event, id, r;

	pick_channel(t, &event, &id);
	w.event = (uint32_t)event;
	w.id = (uint32_t)id;
	if (kind < 15) {
		w.deadline = 0;
	} else if (kind < 25) {
		w.deadline = now_ns();
	} else if (kind < 55) {
		w.deadline = now_ns() + rnd_below(&t->rng, 500000);
	} else if (kind < 80) {
		w.deadline = now_ns() + NSEC_PER_MSEC + rnd_below(&t->rng, 20 * NSEC_PER_MSEC);
	} else if (kind < 90) {
		w.deadline = now_ns() + 20 * NSEC_PER_MSEC +
			     rnd_below(&t->rng, 200 * NSEC_PER_MSEC);
	} else if (atomic_fetch_add(&p->forever_waiters, 1) < (run.threads - 1) / 2) {
		/* Some threads always stay free to set or reset. */
		forever = true;
		w.deadline = ASC_EVENT_WAIT_FOREVER;
	} else {
		atomic_fetch_sub(&p->forever_waiters, 1);
		w.deadline = now_ns() + 5 * NSEC_PER_MSEC;
	}

	r = xioctl(p->fd, ASC_EVENT_IOC_WAIT_FLAG, &w);
	end = now_ns();
	if (forever)
		atomic_fetch_sub(&p->forever_waiters, 1);

	switch (r) {
	case 0:
		p->ch_wait[t->idx][event * ASC_EVENT_IDS_MAX + id]++;
		t->ctr[C_WAIT]++;
		break;
	case -ETIMEDOUT:
		if (forever || end < w.deadline)
			fail(p, K_WAITS, "wait(%d, %d) timed out %s", event, id,
			     forever ? "with deadline forever" : "before its deadline");
		t->ctr[C_WAIT_TIMEDOUT]++;
		break;
	case -EINTR:
		if (got_usr2 == usr2)
			fail(p, K_WAITS, "wait(%d, %d): EINTR, but no SIGUSR2 came",
			     event, id);
		t->ctr[C_WAIT_INTR]++;
		break;
	case -ECANCELED:
		if (atomic_load(&p->resets_started) <= done)
			fail(p, K_WAITS, "wait(%d, %d): ECANCELED with no reset during the wait",
			     event, id);
		t->ctr[C_WAIT_CANCELED]++;
		break;
	default:
		fail(p, K_WAITS, "wait(%d, %d): %s", event, id, strerror(-r));
		break;
	}
}

/*
 * RESET that may overlap sets and waits but no ID operation (I1).  The
 * caller holds a read lock of fdgate, or @closer.
 */
static void do_reset(struct thr *t)
{
	struct proc *p = t->p;
	struct asc_event_reset rs = { 0 };
	int r, e, held = 0;

	pthread_rwlock_wrlock(&p->idgate);
	pthread_mutex_lock(&p->model_lock);
	for (e = 0; e < NR_EVENTS; e++) {
		held += __builtin_popcountll(p->held[e]);
		if (p->claimed[e] || p->inflight[e])
			fail(p, K_IDS, "bookkeeping: ID operation in flight during a reset");
	}
	atomic_fetch_add(&p->resets_started, 1);
	r = xioctl(p->fd, ASC_EVENT_IOC_RESET, &rs);
	atomic_fetch_add(&p->resets_done, 1);
	if (r)
		fail(p, K_IDS, "reset: %s", strerror(-r));
	else if (rs.ids_held != (uint32_t)held)
		fail(p, K_IDS, "reset: ids_held %u, but %d IDs are allocated", rs.ids_held, held);
	memset(p->held, 0, sizeof(p->held));
	p->pend_tpipe += rs.flags_pending;
	p->resets_tpipe++;
	pthread_mutex_unlock(&p->model_lock);
	pthread_rwlock_unlock(&p->idgate);
	t->ctr[C_RESET]++;
	t->ctr[C_PENDING] += rs.flags_pending;
	t->ctr[C_IDS_HELD] += rs.ids_held;
}

/*
 * The end of a TPipe's life, with nothing in flight: maybe drain every flag
 * with deadline-0 waits, reset, check F1..F3 and I1, then close the file
 * and, if @reopen, open a new TPipe.  Return: false if reopen failed.
 */
static bool end_tpipe(struct thr *t, bool reopen)
{
	struct proc *p = t->p;
	struct asc_event_reset rs = { 0 };
	uint64_t sets = 0, waits = 0, s, w;
	bool drain = rnd_below(&t->rng, 2);
	struct asc_event_wait wt = { .deadline = 0 };
	struct asc_event_info info = { 0 };
	int c, i, e, id, r, held = 0;

	if (drain) {
		for (e = 0; e < NR_EVENTS; e++) {
			for (id = 0; id < p->ids; id++) {
				wt.event = (uint32_t)e;
				wt.id = (uint32_t)id;
				r = xioctl(p->fd, ASC_EVENT_IOC_WAIT_FLAG, &wt);
				if (!r) {
					p->ch_wait[t->idx][e * ASC_EVENT_IDS_MAX + id]++;
					t->ctr[C_PROBE_WAITS]++;
				} else if (r != -ETIMEDOUT) {
					fail(p, K_WAITS, "drain wait(%d, %d, 0): %s", e, id,
					     strerror(-r));
				}
			}
		}
	}

	for (c = 0; c < NR_CHANNELS; c++) {
		s = 0;
		w = 0;
		for (i = 0; i <= run.threads; i++) {
			s += p->ch_set[i][c];
			w += p->ch_wait[i][c];
		}
		sets += s - p->base_set[c];
		waits += w - p->base_wait[c];
		if (w - p->base_wait[c] > s - p->base_set[c])
			fail(p, K_FLAGS, "(%d, %d): %" PRIu64 " waits consumed only %" PRIu64
			     " sets", c / ASC_EVENT_IDS_MAX, c % ASC_EVENT_IDS_MAX,
			     w - p->base_wait[c], s - p->base_set[c]);
		else if (drain && !p->resets_tpipe && w - p->base_wait[c] != s - p->base_set[c])
			fail(p, K_FLAGS, "(%d, %d): %" PRIu64 " sets, %" PRIu64
			     " waits, and nothing left to drain", c / ASC_EVENT_IDS_MAX,
			     c % ASC_EVENT_IDS_MAX, s - p->base_set[c], w - p->base_wait[c]);
		p->base_set[c] = s;
		p->base_wait[c] = w;
	}

	for (e = 0; e < NR_EVENTS; e++)
		held += __builtin_popcountll(p->held[e]);
	atomic_fetch_add(&p->resets_started, 1);
	r = xioctl(p->fd, ASC_EVENT_IOC_RESET, &rs);
	atomic_fetch_add(&p->resets_done, 1);
	t->ctr[C_RESET]++;
	t->ctr[C_PENDING] += rs.flags_pending;
	t->ctr[C_IDS_HELD] += rs.ids_held;
	if (r)
		fail(p, K_IDS, "reset before close: %s", strerror(-r));
	else if (rs.ids_held != (uint32_t)held)
		fail(p, K_IDS, "reset before close: ids_held %u, but %d IDs are allocated",
		     rs.ids_held, held);
	if (drain && rs.flags_pending)
		fail(p, K_FLAGS, "reset after draining every flag: flags_pending %u",
		     rs.flags_pending);
	if (sets != waits + p->pend_tpipe + rs.flags_pending)
		fail(p, K_FLAGS, "TPipe %u: %" PRIu64 " sets, but %" PRIu64 " waits + %" PRIu64
		     " pending at resets + %u pending at close",
		     p->slot->tpipes, sets, waits, p->pend_tpipe, rs.flags_pending);
	p->slot->tpipes++;
	p->slot->drained += drain;
	memset(p->held, 0, sizeof(p->held));
	p->pend_tpipe = 0;
	p->resets_tpipe = 0;

	close(p->fd);
	p->fd = -1;
	if (!reopen)
		return true;
	t->ctr[C_REOPEN]++;
	p->fd = dev_open();
	if (p->fd < 0 || xioctl(p->fd, ASC_EVENT_IOC_INFO, &info) ||
	    info.event_ids < 1 || info.event_ids > ASC_EVENT_IDS_MAX) {
		fail(p, K_PROC, "reopen/set_mode/info: %s", strerror(errno));
		return false;
	}
	p->ids = (int)info.event_ids;
	p->mask = p->ids == 64 ? ~0ULL : (1ULL << p->ids) - 1;
	return true;
}

/*
 * Close and reopen the TPipe: take fdgate for writing, resetting (which
 * cancels long waits holding it for reading) between attempts.
 */
static void op_reopen(struct thr *t)
{
	struct proc *p = t->p;
	struct timespec ts;

	if (pthread_mutex_trylock(&p->closer))
		return;
	for (;;) {
		ts = ns_to_ts(now_ns() + CLOSER_RETRY_MS * NSEC_PER_MSEC);
		if (!pthread_rwlock_clockwrlock(&p->fdgate, CLOCK_MONOTONIC, &ts))
			break;
		do_reset(t);
	}
	if (!end_tpipe(t, true))
		atomic_store(&p->stop, 1);
	pthread_rwlock_unlock(&p->fdgate);
	pthread_mutex_unlock(&p->closer);
}

static void *worker_fn(void *arg)
{
	struct thr *t = arg;
	struct proc *p = t->p;
	uint32_t op;

	atomic_store(&p->tids[t->idx], (int)syscall(SYS_gettid));
	while (!atomic_load(&p->stop) && now_ns() < run.end_ns) {
		op = rnd_below(&t->rng, 1000);
		if (op < 6) {
			op_reopen(t);
			continue;
		}
		pthread_rwlock_rdlock(&p->fdgate);
		if (op < 12)
			do_reset(t);
		else if (op < 20)
			op_fill(t);
		else if (op < 150)
			op_alloc(t, pick_id_event(t));
		else if (op < 270)
			op_release(t);
		else if (op < 320)
			op_fetch(t);
		else if (op < 350)
			op_release_bad(t);
		else if (op < 660)
			op_set(t);
		else
			op_wait(t);
		pthread_rwlock_unlock(&p->fdgate);
	}
	t->ctr[C_GOT_USR1] = got_usr1;
	t->ctr[C_GOT_USR2] = got_usr2;
	return NULL;
}

static void *signaller_fn(void *arg)
{
	struct thr *t = arg;
	struct proc *p = t->p;
	pid_t pid = getpid();
	uint64_t due = now_ns();
	int tid, sig, burst;

	/*
	 * Sleeps are coarser than the interval in a slow guest: send every
	 * signal that is due after each sleep, up to a burst of 64.
	 */
	while (!atomic_load(&p->stop)) {
		sleep_ns(rnd_below(&t->rng, 2 * run.signal_us + 1) * 1000ULL);
		for (burst = 0; burst < 64 && due <= now_ns(); burst++) {
			due += rnd_below(&t->rng, 2 * run.signal_us + 1) * 1000ULL;
			tid = atomic_load(&p->tids[rnd_below(&t->rng, (uint32_t)run.threads)]);
			if (!tid)
				continue;
			sig = rnd_below(&t->rng, 5) < 3 ? SIGUSR1 : SIGUSR2;
			if (!syscall(SYS_tgkill, pid, tid, sig))
				t->ctr[sig == SIGUSR1 ? C_SENT_USR1 : C_SENT_USR2]++;
			else if (errno != ESRCH)	/* a worker that saw the end */
				fail(p, K_PROC, "tgkill(%d, %d): %s", pid, tid, strerror(errno));
		}
		if (due < now_ns())
			due = now_ns();
	}
	return NULL;
}

/*
 * One soak process: open, run the workers and the signaller until the end
 * of the run, then cancel what still waits, join, and close the last TPipe
 * with the full check.  Return: its exit status.
 */
static int proc_main(int index)
{
	struct slot *slot = &run.slots[index];
	struct thr thr[MAX_THREADS + 2];
	struct asc_event_info info = { 0 };
	pthread_rwlockattr_t ra;
	struct proc *p;
	int i, joined, nthr = run.threads;
	uint64_t now;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		return 1;
	p = calloc(1, sizeof(*p));
	if (!p)
		return 1;
	p->slot = slot;
	p->index = index;
	p->ch_set = calloc((size_t)nthr + 1, sizeof(*p->ch_set));
	p->ch_wait = calloc((size_t)nthr + 1, sizeof(*p->ch_wait));
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&p->fdgate, &ra);
	pthread_rwlock_init(&p->idgate, &ra);
	pthread_mutex_init(&p->closer, NULL);
	pthread_mutex_init(&p->model_lock, NULL);
	pthread_mutex_init(&p->fail_lock, NULL);
	if (!p->ch_set || !p->ch_wait) {
		fail(p, K_PROC, "out of memory");
		return 1;
	}

	p->fd = dev_open();
	if (p->fd < 0 || xioctl(p->fd, ASC_EVENT_IOC_INFO, &info) ||
	    info.event_ids < 1 || info.event_ids > ASC_EVENT_IDS_MAX) {
		fail(p, K_PROC, "open/set_mode/info: %s", strerror(errno));
		return 1;
	}
	p->ids = (int)info.event_ids;
	p->mask = p->ids == 64 ? ~0ULL : (1ULL << p->ids) - 1;

	for (i = 0; i < nthr + 2; i++) {
		thr[i].p = p;
		thr[i].idx = i;
		thr[i].rng = run.seed ^ (0x100000001b3ULL * (uint64_t)(index + 1)) ^
			     (0xc2b2ae3d27d4eb4fULL * (uint64_t)(i + 1));
		thr[i].ctr = slot->ctr[i];
	}
	for (i = 0; i < nthr; i++) {
		if (pthread_create(&thr[i].thread, NULL, worker_fn, &thr[i])) {
			fail(p, K_PROC, "pthread_create failed");
			atomic_store(&p->stop, 1);
			nthr = i;
			break;
		}
	}
	if (run.signal_us && pthread_create(&thr[run.threads + 1].thread, NULL,
					    signaller_fn, &thr[run.threads + 1]))
		fail(p, K_PROC, "pthread_create failed");

	for (now = now_ns(); !atomic_load(&p->stop) && now < run.end_ns; now = now_ns())
		sleep_ns(run.end_ns - now < 10 * NSEC_PER_MSEC ?
			 run.end_ns - now : 10 * NSEC_PER_MSEC);
	atomic_store(&p->stop, 1);
	if (run.signal_us)
		pthread_join(thr[run.threads + 1].thread, NULL);

	/* Workers may sit in forever waits: reset until all have left. */
	pthread_mutex_lock(&p->closer);
	for (joined = 0; joined < nthr;) {
		if (p->fd >= 0)
			do_reset(&thr[run.threads]);
		sleep_ns(CLOSER_RETRY_MS * NSEC_PER_MSEC);
		for (joined = 0, i = 0; i < nthr; i++)
			if (!thr[i].thread || !pthread_tryjoin_np(thr[i].thread, NULL)) {
				thr[i].thread = 0;
				joined++;
			}
	}
	if (p->fd >= 0)
		end_tpipe(&thr[run.threads], false);
	pthread_mutex_unlock(&p->closer);

	for (i = 0; i < NR_CHECKS; i++)
		if (slot->failures[i])
			return 1;
	return 0;
}

/* Fork process @index; the child never returns.  Return: its PID or -1. */
static pid_t spawn(int index)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(proc_main(index));
	if (pid > 0) {
		run.slots[index].pid = pid;
		run.slots[index].state = SLOT_RUNNING;
	}
	return pid;
}

static int slot_of(pid_t pid)
{
	int i;

	for (i = 0; i < run.nslots; i++)
		if (run.slots[i].state == SLOT_RUNNING && run.slots[i].pid == pid)
			return i;
	return -1;
}

/* Record how process @pid ended; @killed: the supervisor SIGKILLed it. */
static void record_exit(pid_t pid, int status, bool killed)
{
	int i = slot_of(pid);
	struct slot *s;

	if (i < 0)
		return;
	s = &run.slots[i];
	if (WIFEXITED(status)) {
		s->state = SLOT_DONE;
		s->status = WEXITSTATUS(status);
	} else if (killed && WTERMSIG(status) == SIGKILL) {
		s->state = SLOT_KILLED;
		s->status = SIGKILL;
	} else {
		s->state = SLOT_CRASHED;
		s->status = WTERMSIG(status);
	}
}

/* Print what the threads of a hung process are doing. */
static void dump_tasks(pid_t pid)
{
	char path[300], buf[256];
	struct dirent *de;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/wchan", pid, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f))
			ksft_print_msg("  pid %d tid %s wchan %s\n", pid, de->d_name, buf);
		fclose(f);
	}
	closedir(dir);
}

/*
 * The supervisor: fork the processes, SIGKILL one now and then and fork a
 * replacement, then reap them all.  Return: slots used.
 */
static int supervise(void)
{
	uint64_t rng = run.seed ^ 0x5eed5eed5eedULL, next_kill, reap_end, t;
	int used = 0, live = 0, i, n, status, victim;
	pid_t pid;

	for (i = 0; i < run.procs; i++) {
		if (spawn(used) < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		used++;
		live++;
	}
	next_kill = now_ns() + (run.kill_ms / 2 + rnd_below(&rng, run.kill_ms + 1)) * NSEC_PER_MSEC;
	while ((t = now_ns()) < run.end_ns && live) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid > 0) {
			record_exit(pid, status, false);
			live--;
			continue;
		}
		if (run.kill_ms && t >= next_kill && used < run.nslots) {
			next_kill = t + (run.kill_ms / 2 + rnd_below(&rng, run.kill_ms + 1)) *
				    NSEC_PER_MSEC;
			victim = -1;
			for (i = (int)rnd_below(&rng, (uint32_t)used), n = 0; n < used;
			     n++, i = (i + 1) % used)
				if (run.slots[i].state == SLOT_RUNNING) {
					victim = i;
					break;
				}
			if (victim < 0)
				continue;
			pid = run.slots[victim].pid;
			kill(pid, SIGKILL);
			reap_end = now_ns() + KILL_REAP_MS * NSEC_PER_MSEC;
			while (waitpid(pid, &status, WNOHANG) != pid) {
				if (now_ns() > reap_end) {
					ksft_print_msg("pid %d did not die of SIGKILL\n", pid);
					dump_tasks(pid);
					run.slots[victim].state = SLOT_HUNG;
					break;
				}
				sleep_ns(NSEC_PER_MSEC);
			}
			if (run.slots[victim].state == SLOT_RUNNING)
				record_exit(pid, status, true);
			live--;
			if (spawn(used) > 0) {
				used++;
				live++;
			}
			continue;
		}
		sleep_ns(2 * NSEC_PER_MSEC);
	}

	reap_end = run.end_ns + GRACE_MS * NSEC_PER_MSEC;
	while (live) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid > 0) {
			record_exit(pid, status, false);
			live--;
			continue;
		}
		if (now_ns() > reap_end)
			break;
		sleep_ns(2 * NSEC_PER_MSEC);
	}
	for (i = 0; i < used; i++) {
		if (run.slots[i].state != SLOT_RUNNING)
			continue;
		ksft_print_msg("pid %d still running %d ms after the end\n",
			       run.slots[i].pid, GRACE_MS);
		dump_tasks(run.slots[i].pid);
		kill(run.slots[i].pid, SIGKILL);
		waitpid(run.slots[i].pid, &status, 0);
		run.slots[i].state = SLOT_HUNG;
	}
	return used;
}

static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_flags = 0;
	sigaction(SIGUSR2, &sa, NULL);
}

int main(int argc, char **argv)
{
	const char *env = getenv("ASC_SOAK_SECONDS");
	uint64_t tot[NR_CTR] = { 0 }, ops = 0, start;
	uint32_t failures[NR_CHECKS] = { 0 }, tpipes = 0, drained = 0;
	int finished = 0, killed = 0, crashed = 0, hung = 0, used, i, j, k, fd;
	struct asc_event_info info = { 0 };
	const char *first[NR_CHECKS] = { 0 };
	bool activity, ok;
	unsigned long long env_seconds = 5;
	size_t size;
	double secs;
	const struct asc_option opts[] = {
		ASC_OPTION('p', run.procs, 1, MAX_PROCS, "PROCS", "processes running at once"),
		ASC_OPTION('t', run.threads, 1, MAX_THREADS, "THREADS",
			   "worker threads per process"),
		ASC_OPTION('s', run.seconds, 1, 86400, "SECONDS",
			   "seconds; $ASC_SOAK_SECONDS sets the default"),
		ASC_OPTION_HEX('S', run.seed, 0, 0, "SEED", "random seed, printed at the start"),
		ASC_OPTION('k', run.kill_ms, 0, 3600000, "KILL_MS",
			   "SIGKILL a process every ~KILL_MS ms, 0: never"),
		ASC_OPTION('i', run.signal_us, 0, 10000000, "SIGNAL_US",
			   "signal a worker every ~SIGNAL_US us, 0: never"),
		ASC_SWITCH('v', run.verbose, "one line per process"),
	};

	if (env && *env && asc_parse_number(env, 1, 86400, &env_seconds)) {
		fprintf(stderr, "%s: ASC_SOAK_SECONDS=%s: not a number of seconds in 1..86400\n",
			argv[0], env);
		exit(KSFT_FAIL);
	}
	run.procs = 4;
	run.threads = 4;
	run.seconds = (int)env_seconds;
	run.seed = 0x61736365766e74ULL;
	run.kill_ms = 1000;
	run.signal_us = 500;
	asc_parse_options(argc, argv, opts, ARRAY_SIZE(opts));

	ksft_print_header();
	fd = dev_open();
	if (fd < 0 && asc_dev_absent(errno))
		ksft_exit_skip("cannot open the device: %s\n", strerror(errno));
	if (fd < 0 || xioctl(fd, ASC_EVENT_IOC_INFO, &info))
		ksft_exit_fail_msg("open/set_mode/info: %s\n", strerror(errno));
	close(fd);

	run.nslots = run.procs;
	if (run.kill_ms)
		run.nslots += (int)((uint64_t)run.seconds * 2000 / run.kill_ms) + 2;
	if (run.nslots > MAX_SLOTS)
		run.nslots = MAX_SLOTS;
	size = sizeof(struct slot) * (size_t)run.nslots;
	run.slots = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run.slots == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	install_handlers();

	ksft_print_msg("seed %#" PRIx64 " (repeat with -S), %d processes x %d threads, %d s, "
		       "event_ids %u, SIGKILL every ~%u ms, a signal every ~%u us\n",
		       run.seed, run.procs, run.threads, run.seconds, info.event_ids,
		       run.kill_ms, run.signal_us);
	ksft_set_plan(NR_CHECKS + 1);

	start = now_ns();
	run.end_ns = start + (uint64_t)run.seconds * NSEC_PER_SEC;
	used = supervise();
	secs = (double)(now_ns() - start) / NSEC_PER_SEC;

	for (i = 0; i < used; i++) {
		struct slot *s = &run.slots[i];
		uint64_t pops = 0;

		for (j = 0; j < run.threads + 2; j++)
			for (k = 0; k < NR_CTR; k++) {
				tot[k] += s->ctr[j][k];
				if (k < NR_OPS)
					pops += s->ctr[j][k];
			}
		ops += pops;
		/*
		 * A killed process's checks of TPipes it closed, and of single
		 * operations, were complete when it recorded them: count them.
		 */
		tpipes += s->tpipes;
		drained += s->drained;
		for (k = 0; k < NR_CHECKS; k++) {
			failures[k] += s->failures[k];
			if (s->failures[k] && !first[k])
				first[k] = s->msg[k];
			if (s->failures[k])
				ksft_print_msg("pid %d: %s: %u failures, first: %s\n",
					       s->pid, check_names[k], s->failures[k], s->msg[k]);
		}
		switch (s->state) {
		case SLOT_DONE:
			finished++;
			if (s->status && !s->failures[K_PROC] && !s->failures[K_FLAGS] &&
			    !s->failures[K_IDS] && !s->failures[K_WAITS]) {
				failures[K_PROC]++;
				ksft_print_msg("pid %d exited with status %d\n", s->pid, s->status);
			}
			break;
		case SLOT_KILLED:
			killed++;
			break;
		case SLOT_CRASHED:
			crashed++;
			failures[K_PROC]++;
			ksft_print_msg("pid %d died of signal %d\n", s->pid, s->status);
			break;
		default:
			hung++;
			failures[K_PROC]++;
			break;
		}
		if (run.verbose)
			ksft_print_msg("pid %d: %s, %" PRIu64 " ops, %u TPipes checked\n", s->pid,
				       s->state == SLOT_DONE ? "finished" :
				       s->state == SLOT_KILLED ? "killed" : "FAILED",
				       pops, s->tpipes);
	}

	ksft_test_result(!failures[K_PROC],
			 "processes: %d finished, %d killed by the supervisor, %d crashed, %d hung\n",
			 finished, killed, crashed, hung);
	ksft_test_result(!failures[K_FLAGS],
			 "flag conservation: %u TPipes checked at close (%u drained flag by flag)\n",
			 tpipes, drained);
	ksft_test_result(!failures[K_IDS],
			 "ID accounting: ids_held of %" PRIu64 " resets, %" PRIu64 " allocs, %"
			 PRIu64 " releases\n", tot[C_RESET], tot[C_ALLOC] + tot[C_ALLOC_NOSPC],
			 tot[C_RELEASE] + tot[C_RELEASE_NOENT] + tot[C_RELEASE_INVAL]);
	ksft_test_result(!failures[K_WAITS],
			 "wait results: ETIMEDOUT after the deadline, EINTR after SIGUSR2, ECANCELED by a reset\n");
	activity = tot[C_ALLOC] && tot[C_FETCH] && tot[C_RELEASE] && tot[C_SET] &&
		   tot[C_WAIT] && tot[C_WAIT_TIMEDOUT] && tot[C_RESET] && finished && tpipes;
	ksft_test_result(activity, "activity: every kind of operation succeeded\n");

	for (k = 0; k < NR_CHECKS; k++)
		if (first[k])
			ksft_print_msg("first %s failure: %s\n", check_names[k], first[k]);
	for (k = 0; k < NR_CTR; k++)
		ksft_print_msg("  %-16s %" PRIu64 "\n", ctr_names[k], tot[k]);
	ok = !failures[K_FLAGS] && !failures[K_IDS];
	ksft_print_msg("soak: %" PRIu64 " ops in %.1f s (%.0f ops/s): alloc %" PRIu64
		       " fetch %" PRIu64 " release %" PRIu64 " set %" PRIu64 " wait %" PRIu64
		       " reset %" PRIu64 " reopen %" PRIu64 "; signals sent %" PRIu64
		       "; processes killed %d; conservation: %s\n",
		       ops, secs, ops / secs,
		       tot[C_ALLOC] + tot[C_ALLOC_NOSPC],
		       tot[C_FETCH] + tot[C_FETCH_NOSPC],
		       tot[C_RELEASE] + tot[C_RELEASE_NOENT] + tot[C_RELEASE_INVAL],
		       tot[C_SET] + tot[C_SET_BUSY],
		       tot[C_WAIT] + tot[C_WAIT_TIMEDOUT] + tot[C_WAIT_INTR] + tot[C_WAIT_CANCELED],
		       tot[C_RESET], tot[C_REOPEN], tot[C_SENT_USR1] + tot[C_SENT_USR2],
		       killed, ok ? "ok" : "FAILED");
	ksft_print_cnts();
	return ksft_get_fail_cnt() ? KSFT_FAIL : KSFT_PASS;
}
