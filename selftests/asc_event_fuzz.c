// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event_fuzz: random ioctls at /dev/asc_event; nothing but clean errors.
 *
 *   asc_event_fuzz [-S SEED] [-n COUNT] [-t THREADS] [-v]
 *
 * THREADS threads (default 4) issue COUNT ioctls in all (default 1000000):
 * the ten real commands with random, edge-biased field values (BIND_PIPE
 * with the seven pipes, ASC_EVENT_PIPE_NONE and numbers that are no pipe;
 * SET_MODE turning checked mode on and off at random, and unknown bits);
 * numbers in and around the driver's range (magic 0xA5 and its
 * neighbours, nr 0x3c..0x4d, all four directions, random sizes and the
 * exact sizes of the real structs); real numbers with one of their fields
 * changed; and entirely random numbers.  The argument pointer is valid,
 * misaligned, NULL, unmapped, in kernel space, straddling into a PROT_NONE
 * page, random garbage, or read-only for a command that writes back.
 *
 * Every result must be clean: a real command returns 0 or an errno that
 * Documentation/uapi.rst lists for it, and exactly the one the argument
 * calls for where the argument decides it (EFAULT for a bad pointer, EINVAL
 * for a bad field); any other number returns ENOTTY; nothing is written
 * outside the struct, nor into it but the documented output fields; INFO
 * reports the right geometry; a timed-out wait did not return before its
 * deadline.
 *
 * Each thread owns one open of its own whose state it models exactly (the
 * lowest free ID on alloc and fetch, ENOSPC, ENOENT, EBUSY, what a wait
 * consumes, what a reset counts, and checked mode: the mode, the pipe the
 * thread is bound to, the last fetched ID of each HardEvent and the flags
 * hand-written sets left, so EPERM, ENOENT for a hand-written ID in strict
 * mode, EADDRINUSE for an alloc or fetch that collides with a hand-written
 * set and EDEADLK for a forever wait of V on V_V or FIX on FIX_FIX come
 * exactly when they must; it never joins a launch, so CORE_INFO is
 * ENOTCONN), and shares a few more opens with the others, where only the
 * rules above are checked (EPERM for a wait and EDEADLK only for a thread
 * that may be bound there, EDEADLK only for a forever wait; EPERM for a set
 * and EBUSY for SET_MODE whenever another thread may own a pipe
 * there).  ISSUE and EXECUTE, and JOIN, the cross-core calls and SYNC_ALL,
 * go to the shared opens only, which so join the launches LAUNCH
 * makes.  Every open is now and then replaced by a fresh one with dup3()
 * under the same descriptor number, even while other threads are inside
 * ioctls on it, so the last reference to a TPipe goes away in every
 * state.  Waits take deadlines of 0, just past, just ahead, far ahead and
 * forever.  One call in 200 is an mmap() of a shared open with a random
 * page, length, protection and sharing, which must fail with exactly the
 * documented error or succeed; a mapped flag page gets garbage in random
 * words, which the shared opens' rules must survive.  A watchdog thread
 * resets shared opens and interrupts (SIGUSR1,
 * no SA_RESTART: EINTR) any wait that has slept too long, so a run never
 * blocks.
 *
 * The seed is fixed unless -S is given and is printed; each thread's choices
 * follow from it, though the interleaving of the threads does not.  Output
 * is TAP with the totals, per-errno counts and the rate.  Exit status: 0
 * when every ioctl was clean, 1 otherwise, 4 (skip) without the device.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/asc_event.h>

#include "kselftest.h"
#include "asc_test_device.h"
#include "asc_test_util.h"

#define DEFAULT_SEED	0xa5e7f022u
#define DEFAULT_COUNT	1000000UL
#define DEFAULT_THREADS	4
#define MAX_THREADS	64
#define SHARED_OPENS	4
#define MAX_ERRNO	160	/* errno values counted one by one */
#define MAX_REPORTS	20	/* failures printed in full */

/* A wait asleep longer than this is interrupted by the watchdog. */
#define WATCHDOG_WAIT_NS	(20 * 1000 * 1000ULL)
#define WATCHDOG_TICK_NS	(5 * 1000 * 1000L)
/* The watchdog resets one shared open every this many ticks. */
#define WATCHDOG_RESET_TICKS	4

/* Bytes around a struct in the valid buffer that must never change. */
#define GUARD_BYTES	32
#define POISON		0x5a

#define NR_EVENTS	ASC_EVENT_NR_HARD_EVENTS

enum cmd_kind {
	CMD_INFO,
	CMD_ALLOC,
	CMD_FETCH,
	CMD_RELEASE,
	CMD_SET,
	CMD_WAIT,
	CMD_RESET,
	CMD_BIND,
	CMD_GET_MODE,
	CMD_SET_MODE,
	CMD_ISSUE,
	CMD_EXECUTE,
	CMD_LAUNCH,
	CMD_JOIN,
	CMD_CORE_INFO,
	CMD_CROSS_SET,
	CMD_CROSS_WAIT,
	CMD_SYNC_ALL,
	CMD_BOGUS,	/* any number the driver does not know */
	CMD_KINDS
};

static const char *const cmd_names[CMD_KINDS] = {
	"INFO", "ALLOC_ID", "FETCH_ID", "RELEASE_ID", "SET_FLAG", "WAIT_FLAG",
	"RESET", "BIND_PIPE", "GET_MODE", "SET_MODE", "ISSUE", "EXECUTE",
	"LAUNCH", "JOIN", "CORE_INFO", "CROSS_SET", "CROSS_WAIT", "SYNC_ALL",
	"unknown",
};

static const unsigned int real_cmds[CMD_BOGUS] = {
	ASC_EVENT_IOC_INFO, ASC_EVENT_IOC_ALLOC_ID, ASC_EVENT_IOC_FETCH_ID,
	ASC_EVENT_IOC_RELEASE_ID, ASC_EVENT_IOC_SET_FLAG,
	ASC_EVENT_IOC_WAIT_FLAG, ASC_EVENT_IOC_RESET, ASC_EVENT_IOC_BIND_PIPE,
	ASC_EVENT_IOC_GET_MODE, ASC_EVENT_IOC_SET_MODE, ASC_EVENT_IOC_ISSUE,
	ASC_EVENT_IOC_EXECUTE, ASC_EVENT_IOC_LAUNCH, ASC_EVENT_IOC_JOIN,
	ASC_EVENT_IOC_CORE_INFO, ASC_EVENT_IOC_CROSS_SET,
	ASC_EVENT_IOC_CROSS_WAIT, ASC_EVENT_IOC_SYNC_ALL,
};

static const unsigned int real_sizes[] = {
	sizeof(struct asc_event_info), sizeof(struct asc_event_ref),
	sizeof(struct asc_event_wait), sizeof(struct asc_event_reset),
	sizeof(struct asc_event_bind), sizeof(struct asc_event_mode),
	sizeof(struct asc_event_issue), sizeof(struct asc_event_execute),
	sizeof(struct asc_event_launch), sizeof(struct asc_event_join),
	sizeof(struct asc_event_core_info), sizeof(struct asc_event_cross_set),
	sizeof(struct asc_event_cross_wait), sizeof(struct asc_event_sync_all),
};


enum ptr_kind {
	PTR_VALID,
	PTR_MISALIGNED,
	PTR_READONLY,
	PTR_NULL,
	PTR_UNMAPPED,
	PTR_KERNEL,
	PTR_STRADDLE,
	PTR_GARBAGE,
	PTR_KINDS
};

static const char *const ptr_names[PTR_KINDS] = {
	"valid", "misaligned", "read-only", "NULL", "unmapped", "kernel",
	"straddling", "garbage",
};

/* Addresses no user access may reach, for this ABI's pointer width. */
static const uint64_t kernel_ptrs64[] = {
	0xffff888000000000ULL,	/* direct map */
	0xffffffff81000000ULL,	/* kernel text */
	0xffffc90000000000ULL,	/* vmalloc */
	0xfffffffffffff000ULL,
	0xffffffffffffffffULL,
	0x8000000000000000ULL,	/* non-canonical */
	0x0000800000000000ULL,	/* just above user space */
};

static const uint64_t kernel_ptrs32[] = {
	0xffffe000ULL, 0xfffff000ULL, 0xfffffffcULL, 0xffffffffULL,
};

/*
 * The kernel answers these ioctl types itself (FIOCLEX, FIONBIO, FIGETBSZ,
 * FIFREEZE, FICLONE, FS_IOC_*...) before the driver sees them; random
 * numbers of these types are drawn again.
 */
static const unsigned char vfs_types[] = { 0x00, 0x15, 'T', 'X', 'f', 0x94 };

/**
 * struct model - what one private open must hold.
 * @event_ids: IDs per HardEvent of this open.
 * @pool: allocated IDs per HardEvent.
 * @flags: set flags per HardEvent.
 * @fetched: per HardEvent, the ID the last successful fetch returned, or
 *	-1 (none since the open or the last reset).
 * @efault_fetch: per HardEvent, the ID a later fetch found but could not
 *	write back (EFAULT), or -1: such a fetch does not count, see
 *	check_efault_fetch().
 * @mode: the open's mode (ASC_EVENT_MODE_* bits).
 * @handset: per HardEvent, the flags set by a hand-written set (checked
 *	mode, the ID neither allocated nor fetched) and not consumed since;
 *	alloc and fetch refuse to hand out such an ID (EADDRINUSE) in checked
 *	mode without strict IDs.
 * @bound: the pipe the thread is bound to on the open, or %ASC_EVENT_PIPE_NONE;
 *	no other thread binds there, so no other owns a pipe.
 */
struct model {
	unsigned int event_ids;
	uint64_t pool[NR_EVENTS];
	uint64_t flags[NR_EVENTS];
	uint64_t handset[NR_EVENTS];
	int fetched[NR_EVENTS];
	int efault_fetch[NR_EVENTS];
	uint32_t mode;
	int bound;
};

/**
 * struct fuzzer - one fuzzing thread.
 * @index: thread number.
 * @thread: the thread.
 * @rng: its random state.
 * @buf: its read-write page, followed by a PROT_NONE page.
 * @priv_fd: its own open, modelled by @model.
 * @model: state of @priv_fd.
 * @maybe_bound: per shared open: the thread bound itself to a pipe there
 *	and has not unbound since (the open may have been replaced).
 * @ioctls: ioctls it issued.
 * @by_errno: results, by errno (0 = success, MAX_ERRNO = any larger).
 * @by_cmd: ioctls per command kind.
 * @reopens: replacements of an open by a fresh one.
 * @mmaps: mmap() calls, see fuzz_mmap().
 * @failures: unclean results.
 */
struct fuzzer {
	int index;
	pthread_t thread;
	uint64_t rng;
	unsigned char *buf;
	int priv_fd;
	struct model model;
	bool maybe_bound[SHARED_OPENS];
	unsigned long ioctls;
	unsigned long by_errno[MAX_ERRNO + 1];
	unsigned long by_cmd[CMD_KINDS];
	unsigned long reopens;
	unsigned long mmaps;
	unsigned long failures;
};

/**
 * struct op - one ioctl to issue and what it must do.
 * @fd: descriptor.
 * @priv: @fd is the thread's modelled open.
 * @shared: else, which of the shared opens @fd is.
 * @cmd: ioctl number.
 * @kind: which command @cmd is.
 * @ptr_kind: what @arg points at.
 * @arg: argument.
 * @size: bytes of the struct @kind takes (0 for CMD_BOGUS).
 * @in: the struct as the kernel reads it (when readable).
 * @readable: the kernel can read @size bytes at @arg.
 * @writable: the kernel can write @size bytes at @arg.
 * @checked: @arg is in the valid buffer, so the memory can be checked.
 * @before_ns: CLOCK_MONOTONIC ns just before the ioctl.
 * @after_ns: CLOCK_MONOTONIC ns just after it.
 */
struct op {
	int fd;
	bool priv;
	int shared;
	unsigned int cmd;
	enum cmd_kind kind;
	enum ptr_kind ptr_kind;
	unsigned char *arg;
	size_t size;
	unsigned char in[32];
	bool readable, writable, checked;
	uint64_t before_ns;
	uint64_t after_ns;
};

static unsigned int event_ids;
static size_t page_size;
static unsigned char *ro_page;		/* read-only records, see ro_init() */
static unsigned char *hole;		/* nothing is mapped here */
static int shared_fds[SHARED_OPENS];
static unsigned int nthreads = DEFAULT_THREADS;
static struct fuzzer fuzzers[MAX_THREADS];
static atomic_ulong issued;
static unsigned long target = DEFAULT_COUNT;
static atomic_bool stop;
/* Per thread: CLOCK_MONOTONIC ns at which its current wait began, or 0. */
static _Atomic uint64_t wait_since[MAX_THREADS];
/* The highest ticket an ISSUE returned, on any open: EXECUTE aims near it. */
static _Atomic uint64_t last_ticket;
/*
 * Launches LAUNCH made, for JOIN to aim at; a new one replaces (and
 * closes) a random one.  -1 for none yet.
 */
#define LAUNCH_FDS	4
static atomic_int launch_fds[LAUNCH_FDS] = { -1, -1, -1, -1 };
static atomic_ulong watchdog_resets, watchdog_kicks;
static atomic_uint reports;
static bool verbose;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- random numbers ----------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct fuzzer *f)
{
	return splitmix64(&f->rng);
}

/* A number below @n (n > 0). */
static uint32_t below(struct fuzzer *f, uint32_t n)
{
	return (uint32_t)(((rnd(f) >> 32) * n) >> 32);
}

/* True with probability @num / @den. */
static bool chance(struct fuzzer *f, uint32_t num, uint32_t den)
{
	return below(f, den) < num;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- field values ------------------------------------------------------- */

/* A HardEvent number, biased to the edges and to a few hot values. */
static uint32_t gen_event(struct fuzzer *f)
{
	static const uint32_t edges[] = {
		0, 1, NR_EVENTS - 1, NR_EVENTS, NR_EVENTS + 1, 63, 64,
		0x7fffffff, 0x80000000, 0xffffffff,
	};

	switch (below(f, 20)) {
	case 0:
	case 1:
	case 2:
		return edges[below(f, ARRAY_SIZE(edges))];
	case 3:
		return (uint32_t)rnd(f);
	case 4:
	case 5:
	case 6:
	case 7:
	case 8:
		return below(f, NR_EVENTS);
	default:
		/* a few hot events, so sets meet waits */
		return below(f, 3) == 0 ? NR_EVENTS - 1 : below(f, 2);
	}
}

/* An event ID, biased to the edges of event_ids and a few hot values. */
static uint32_t gen_id(struct fuzzer *f)
{
	const uint32_t edges[] = {
		0, event_ids - 1, event_ids, event_ids + 1, ASC_EVENT_IDS_MAX - 1,
		ASC_EVENT_IDS_MAX, 0x80000000, 0xffffffff,
	};

	switch (below(f, 20)) {
	case 0:
	case 1:
	case 2:
		return edges[below(f, ARRAY_SIZE(edges))];
	case 3:
		return (uint32_t)rnd(f);
	case 4:
	case 5:
	case 6:
	case 7:
	case 8:
		return below(f, event_ids + 2);
	default:
		return below(f, 2);
	}
}

/* A must-be-zero field: zero 19 times in 20. */
static uint32_t gen_zero_field(struct fuzzer *f)
{
	static const uint32_t bad[] = { 1, 2, 0x80000000, 0xffffffff };

	if (!chance(f, 1, 20))
		return 0;
	return chance(f, 1, 2) ? bad[below(f, 4)] : (uint32_t)rnd(f);
}

/*
 * A wait deadline: mostly 0 or already past (no sleep), often a few
 * microseconds ahead, rarely far ahead or forever (the watchdog ends those).
 * With @stable, only values that do not depend on the time of the call.
 */
static uint64_t gen_deadline(struct fuzzer *f, bool stable)
{
	uint32_t r = below(f, 1000);
	uint64_t now = stable ? 0 : now_ns();

	if (r < 400 || stable)
		return r % 3 == 0 ? 1 : 0;
	if (r < 550)
		return now - below(f, 1000000);
	if (r < 850)
		return now + below(f, 50000);
	if (r < 990)
		return now + 50000 + below(f, 1000000);
	switch (r % 5) {
	case 0:
		return ASC_EVENT_WAIT_FOREVER;
	case 1:
		return ASC_EVENT_WAIT_FOREVER - 1;
	case 2:
		return (uint64_t)INT64_MAX;
	case 3:
		return (uint64_t)INT64_MAX + 1;
	default:
		return rnd(f);
	}
}

/* A pipe number: mostly a real pipe (the hot events' most), or NONE. */
static int32_t gen_pipe(struct fuzzer *f)
{
	static const int32_t pipes[] = {
		ASC_EVENT_PIPE_FIX, ASC_EVENT_PIPE_MTE1, ASC_EVENT_PIPE_MTE2, ASC_EVENT_PIPE_FIX, ASC_EVENT_PIPE_MTE1,
		ASC_EVENT_PIPE_MTE2, ASC_EVENT_PIPE_S, ASC_EVENT_PIPE_V, ASC_EVENT_PIPE_M, ASC_EVENT_PIPE_MTE3,
	};
	static const int32_t edges[] = {
		6, 7, 8, 9, 11, 12, 63, 64, -2, INT32_MIN, INT32_MAX,
	};

	switch (below(f, 20)) {
	case 0: case 1: case 2: case 3: case 4:
	case 5: case 6: case 7: case 8: case 9: case 10:
		return pipes[below(f, ARRAY_SIZE(pipes))];
	case 11: case 12: case 13: case 14:
		return ASC_EVENT_PIPE_NONE;
	case 15: case 16: case 17:
		return edges[below(f, ARRAY_SIZE(edges))];
	default:
		return (int32_t)rnd(f);
	}
}

static bool pipe_valid(int32_t pipe)
{
	return pipe == ASC_EVENT_PIPE_NONE || (pipe >= ASC_EVENT_PIPE_S && pipe <= ASC_EVENT_PIPE_MTE3) ||
	       pipe == ASC_EVENT_PIPE_FIX;
}

/* The modes a TPipe can have. */
#define MODE_STRICT	(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS)

static bool mode_valid(uint32_t mode)
{
	return mode == 0 || mode == ASC_EVENT_MODE_CHECKED || mode == MODE_STRICT;
}

/* A mode: off, checked, checked with strict IDs; now and then a bad one. */
static uint32_t gen_mode(struct fuzzer *f)
{
	static const uint32_t bad[] = { 2, 4, 7, 0x80000000, 0xffffffff };

	switch (below(f, 10)) {
	case 0: case 1: case 2:
		return 0;
	case 3: case 4: case 5:
		return ASC_EVENT_MODE_CHECKED;
	case 6: case 7:
		return MODE_STRICT;
	case 8:
		return bad[below(f, ARRAY_SIZE(bad))];
	default:
		return (uint32_t)rnd(f);
	}
}

/* Fill @p with a struct of @kind with random field values. */
static void gen_struct(struct fuzzer *f, enum cmd_kind kind, unsigned char *p,
		       bool stable)
{
	struct asc_event_wait w;
	struct asc_event_ref r;
	struct asc_event_reset z;
	struct asc_event_bind b;
	struct asc_event_mode m;
	struct asc_event_issue is;
	struct asc_event_execute ex;
	struct asc_event_launch la;
	struct asc_event_join jo;
	struct asc_event_cross_set cs;
	struct asc_event_cross_wait cw;
	struct asc_event_sync_all sa;
	unsigned int i;

	switch (kind) {
	case CMD_LAUNCH:
		la.kind = chance(f, 1, 8) ? (uint32_t)rnd(f) : 1 + below(f, 3);
		la.block_dim = chance(f, 1, 8) ? (uint32_t)rnd(f) : below(f, 10);
		la.flags = gen_zero_field(f);
		la.fd = (int32_t)rnd(f);	/* an output */
		memcpy(p, &la, sizeof(la));
		break;
	case CMD_JOIN:
		jo.launch_fd = chance(f, 1, 5) ? (int32_t)below(f, 64) :
			       atomic_load(&launch_fds[below(f, LAUNCH_FDS)]);
		jo.core = chance(f, 1, 4) ? ASC_EVENT_CORE_ANY :
			  chance(f, 1, 8) ? (uint32_t)rnd(f) : below(f, 8);
		jo.flags = gen_zero_field(f);
		jo.pad = gen_zero_field(f);
		memcpy(p, &jo, sizeof(jo));
		break;
	case CMD_CROSS_SET:
		cs.flag_id = chance(f, 1, 8) ? (uint32_t)rnd(f) : below(f, 12);
		cs.mode = chance(f, 1, 8) ? (uint32_t)rnd(f) : below(f, 3);
		cs.pipe = gen_pipe(f);
		cs.flags = gen_zero_field(f);
		memcpy(p, &cs, sizeof(cs));
		break;
	case CMD_CROSS_WAIT:
		cw.deadline = gen_deadline(f, stable);
		cw.flag_id = chance(f, 1, 8) ? (uint32_t)rnd(f) : below(f, 12);
		cw.flags = gen_zero_field(f);
		memcpy(p, &cw, sizeof(cw));
		break;
	case CMD_SYNC_ALL:
		sa.deadline = gen_deadline(f, stable);
		sa.flags = chance(f, 1, 4) ? ASC_EVENT_SYNC_ALL_AIV_ONLY : gen_zero_field(f);
		sa.pad = gen_zero_field(f);
		memcpy(p, &sa, sizeof(sa));
		break;
	case CMD_ISSUE:
		is.op = chance(f, 1, 10) ? (uint32_t)rnd(f) : 1 + below(f, 2);
		is.event = gen_event(f);
		is.id = gen_id(f);
		is.flags = gen_zero_field(f);
		is.ticket = chance(f, 1, 2) ? 0 : rnd(f);	/* an output */
		memcpy(p, &is, sizeof(is));
		break;
	case CMD_EXECUTE:
		ex.ticket = chance(f, 1, 5) ? rnd(f) :
			    atomic_load(&last_ticket) - below(f, 4);
		ex.deadline = gen_deadline(f, stable);
		ex.flags = gen_zero_field(f);
		ex.pad = gen_zero_field(f);
		memcpy(p, &ex, sizeof(ex));
		break;
	case CMD_BIND:
		b.pipe = gen_pipe(f);
		b.flags = gen_zero_field(f);
		memcpy(p, &b, sizeof(b));
		break;
	case CMD_SET_MODE:
		m.mode = gen_mode(f);
		m.pad = gen_zero_field(f);
		memcpy(p, &m, sizeof(m));
		break;
	case CMD_WAIT:
		w.deadline = gen_deadline(f, stable);
		w.event = gen_event(f);
		w.id = gen_id(f);
		w.flags = gen_zero_field(f);
		w.pad = gen_zero_field(f);
		memcpy(p, &w, sizeof(w));
		break;
	case CMD_RESET:
		z.flags = gen_zero_field(f);
		z.pad = gen_zero_field(f);
		z.ids_held = chance(f, 1, 2) ? 0 : (uint32_t)rnd(f);
		z.flags_pending = chance(f, 1, 2) ? 0 : (uint32_t)rnd(f);
		memcpy(p, &z, sizeof(z));
		break;
	case CMD_INFO:
	case CMD_GET_MODE:
	case CMD_CORE_INFO:
	case CMD_BOGUS:
		for (i = 0; i < 32; i++)
			p[i] = chance(f, 1, 2) ? 0 : (unsigned char)rnd(f);
		break;
	default:
		r.event = gen_event(f);
		r.id = chance(f, 1, 2) ? 0 : gen_id(f);	/* an output for alloc/fetch */
		r.flags = gen_zero_field(f);
		r.pad = gen_zero_field(f);
		memcpy(p, &r, sizeof(r));
		break;
	}
}

/* ---- command numbers ---------------------------------------------------- */

static enum cmd_kind cmd_kind_of(unsigned int cmd)
{
	int k;

	for (k = 0; k < CMD_BOGUS; k++)
		if (real_cmds[k] == cmd)
			return k;
	return CMD_BOGUS;
}

static bool vfs_handles(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vfs_types); i++)
		if (_IOC_TYPE(cmd) == vfs_types[i])
			return true;
	return false;
}

/* A size field: often an exact struct size, else small or random. */
static unsigned int gen_size(struct fuzzer *f)
{
	switch (below(f, 4)) {
	case 0:
	case 1:
		return real_sizes[below(f, ARRAY_SIZE(real_sizes))];
	case 2:
		return below(f, 33);
	default:
		return below(f, _IOC_SIZEMASK + 1);
	}
}

/*
 * A real command, weighted so that pools fill up (ENOSPC) and flags meet
 * (EBUSY, consumed waits) between two resets.
 */
static enum cmd_kind real_pick(struct fuzzer *f)
{
	static const unsigned char weights[CMD_BOGUS] = {
		[CMD_INFO] = 2, [CMD_ALLOC] = 12, [CMD_FETCH] = 6,
		[CMD_RELEASE] = 6, [CMD_SET] = 10, [CMD_WAIT] = 10, [CMD_RESET] = 1,
		[CMD_BIND] = 3, [CMD_GET_MODE] = 1, [CMD_SET_MODE] = 2,
		[CMD_ISSUE] = 4, [CMD_EXECUTE] = 4, [CMD_LAUNCH] = 1, [CMD_JOIN] = 2,
		[CMD_CORE_INFO] = 1, [CMD_CROSS_SET] = 4, [CMD_CROSS_WAIT] = 4,
		[CMD_SYNC_ALL] = 2,
	};
	unsigned int total = 0, r, k;

	for (k = 0; k < CMD_BOGUS; k++)
		total += weights[k];
	r = below(f, total);
	for (k = 0; k < CMD_BOGUS - 1; k++) {
		if (r < weights[k])
			return k;
		r -= weights[k];
	}
	return CMD_BOGUS - 1;
}

static unsigned int gen_cmd(struct fuzzer *f)
{
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE,
	};
	unsigned int cmd, real, type, nr;

	do {
		switch (below(f, 20)) {
		case 0: case 1: case 2: case 3: case 4: case 5: case 6:
		case 7: case 8: case 9: case 10: case 11: case 12:
			return real_cmds[real_pick(f)];
		case 13: case 14: case 15:
			/* in and around the driver's range */
			type = ASC_EVENT_IOC_MAGIC;
			if (chance(f, 1, 5))
				type += chance(f, 1, 2) ? 1 : -1;
			nr = 0x3c + below(f, 0x1a);
			cmd = _IOC(dirs[below(f, 4)], type, nr, gen_size(f));
			break;
		case 16: case 17: case 18:
			/* a real number with one field changed */
			real = real_cmds[below(f, CMD_BOGUS)];
			switch (below(f, 4)) {
			case 0:
				cmd = _IOC(dirs[below(f, 4)], _IOC_TYPE(real),
					   _IOC_NR(real), _IOC_SIZE(real));
				break;
			case 1:
				cmd = _IOC(_IOC_DIR(real), _IOC_TYPE(real),
					   _IOC_NR(real), gen_size(f));
				break;
			case 2:
				cmd = _IOC(_IOC_DIR(real), _IOC_TYPE(real),
					   _IOC_NR(real) + (chance(f, 1, 2) ? 1 : -1),
					   _IOC_SIZE(real));
				break;
			default:
				cmd = real ^ (1u << below(f, 32));
				break;
			}
			break;
		default:
			cmd = (unsigned int)rnd(f);
			break;
		}
	} while (cmd_kind_of(cmd) == CMD_BOGUS && vfs_handles(cmd));
	return cmd;
}

/* ---- argument pointers -------------------------------------------------- */

/*
 * The read-only page holds 32-byte records in three areas: refs, waits
 * (with deadlines that never sleep) and resets; see ro_record().
 */
static void ro_init(struct fuzzer *f)
{
	unsigned int n = (unsigned int)(page_size / 32), i;
	enum cmd_kind kind;

	for (i = 0; i < n; i++) {
		kind = i < n / 3 ? CMD_ALLOC : i < 2 * n / 3 ? CMD_WAIT : CMD_RESET;
		memset(ro_page + 32 * i, 0, 32);
		if (i % (n / 3))	/* the first of each area stays all zero */
			gen_struct(f, kind, ro_page + 32 * i, true);
	}
	mprotect(ro_page, page_size, PROT_READ);
}

static unsigned char *ro_record(struct fuzzer *f, enum cmd_kind kind)
{
	unsigned int third = (unsigned int)(page_size / 32 / 3);
	unsigned int area = kind == CMD_WAIT ? 1 : kind == CMD_RESET ? 2 : 0;

	return ro_page + 32 * (area * third + below(f, third));
}

static void *bad_pointer(struct fuzzer *f, enum ptr_kind kind)
{
	uint64_t v;

	switch (kind) {
	case PTR_UNMAPPED:
		return hole + below(f, (uint32_t)page_size);
	case PTR_KERNEL:
		if (sizeof(void *) == 8)
			v = kernel_ptrs64[below(f, ARRAY_SIZE(kernel_ptrs64))];
		else
			v = kernel_ptrs32[below(f, ARRAY_SIZE(kernel_ptrs32))];
		return (void *)(uintptr_t)(v + below(f, 4) * 8);
	case PTR_GARBAGE:
		/* never an address that could be mapped */
		v = rnd(f);
		if (sizeof(void *) == 8)
			v = chance(f, 1, 2) ? (v | 0x8000000000000000ULL) : (v & 0xffff);
		else
			v = chance(f, 1, 2) ? (0xffffe000u | (v & 0x1fff)) : (v & 0xffff);
		return (void *)(uintptr_t)v;
	default:
		return NULL;
	}
}

/*
 * Put the argument of @op somewhere of a random kind and record what the
 * kernel can do with it.
 */
static void place_arg(struct fuzzer *f, struct op *op)
{
	size_t sz = op->size ? op->size : 32, k;
	unsigned int r = below(f, 100);
	unsigned char *p;

	op->readable = op->writable = op->checked = false;
	gen_struct(f, op->kind, op->in, false);

	if (r < 66)
		op->ptr_kind = PTR_VALID;
	else if (r < 72)
		op->ptr_kind = PTR_MISALIGNED;
	else if (r < 78)
		op->ptr_kind = PTR_READONLY;
	else if (r < 82)
		op->ptr_kind = PTR_NULL;
	else if (r < 86)
		op->ptr_kind = PTR_UNMAPPED;
	else if (r < 90)
		op->ptr_kind = PTR_KERNEL;
	else if (r < 96)
		op->ptr_kind = PTR_STRADDLE;
	else
		op->ptr_kind = PTR_GARBAGE;

	switch (op->ptr_kind) {
	case PTR_VALID:
	case PTR_MISALIGNED:
		p = f->buf + 256;
		if (op->ptr_kind == PTR_MISALIGNED)
			p += 1 + below(f, 7);
		memset(p - GUARD_BYTES, POISON, sz + 2 * GUARD_BYTES);
		memcpy(p, op->in, sz);
		op->arg = p;
		op->readable = op->writable = op->checked = true;
		break;
	case PTR_READONLY:
		p = ro_record(f, op->kind);
		memcpy(op->in, p, 32);
		op->arg = p;
		op->readable = true;
		break;
	case PTR_STRADDLE:
		/* k bytes before the PROT_NONE page, the rest in it */
		k = 1 + below(f, (uint32_t)(sz - 1));
		p = f->buf + page_size - k;
		memcpy(p, op->in, k);
		op->arg = p;
		break;
	default:
		op->arg = bad_pointer(f, op->ptr_kind);
		break;
	}
}

/* ---- checking ----------------------------------------------------------- */

static void report(struct fuzzer *f, const struct op *op, int err,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Count and print one unclean result. */
static void report(struct fuzzer *f, const struct op *op, int err,
		   const char *fmt, ...)
{
	char why[256];
	va_list ap;

	f->failures++;
	if (atomic_fetch_add(&reports, 1) >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&print_lock);
	printf("# FAIL thread %d ioctl %lu: fd %d%s cmd 0x%08x (%s) arg %p (%s): %s (%s)\n",
	       f->index, f->ioctls, op->fd, op->priv ? " (private)" : "",
	       op->cmd, cmd_names[op->kind], (void *)op->arg,
	       ptr_names[op->ptr_kind], err ? strerror(err) : "success", why);
	if (op->readable) {
		unsigned int i;

		printf("#   input:");
		for (i = 0; i < (op->size ? op->size : 16); i++)
			printf(" %02x", op->in[i]);
		printf("\n");
	}
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
}

static bool err_in(int err, const int *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == err)
			return true;
	return false;
}

#define ERR_IN(err, ...) ({						\
	static const int __set[] = { __VA_ARGS__ };			\
	err_in((err), __set, ARRAY_SIZE(__set));	\
})

/* Bytes around the struct must be untouched; so must @from..@size. */
static bool guards_intact(const struct op *op, size_t from)
{
	size_t i, sz = op->size ? op->size : 32;

	for (i = 1; i <= GUARD_BYTES; i++)
		if (op->arg[-(ssize_t)i] != POISON || op->arg[sz + i - 1] != POISON)
			return false;
	return !memcmp(op->arg + from, op->in + from, sz - from);
}

static uint32_t lowest_free(const struct model *m, uint32_t event)
{
	uint64_t mask = m->event_ids >= 64 ? ~0ULL : (1ULL << m->event_ids) - 1;
	uint64_t free = ~m->pool[event] & mask;

	return free ? (uint32_t)__builtin_ctzll(free) : UINT32_MAX;
}

/*
 * Checked mode's verdict on a set (@set) or wait of (@event, @id) on the
 * private open: EPERM when the thread is bound to another pipe than the
 * source (destination) of @event, ENOENT when @id is neither allocated nor
 * the last fetched one, else 0.
 */
static int model_use(const struct model *m, uint32_t event, uint32_t id, bool set)
{
	if (!(m->mode & ASC_EVENT_MODE_CHECKED))
		return 0;
	if (m->bound != ASC_EVENT_PIPE_NONE && m->bound != (set ? asc_event_src(event) : asc_event_dst(event)))
		return EPERM;
	if (m->mode == MODE_STRICT && !(m->pool[event] & (1ULL << id)) &&
	    m->fetched[event] != (int)id)
		return ENOENT;
	return 0;
}

/*
 * A FETCH_ID that found an ID but failed with EFAULT writing it back is no
 * successful fetch: the last fetched ID stays what it was (uapi.rst).  If
 * the set or wait (@set) of (@event, @id) on the private open, with result
 * @err, shows that the driver took that ID as fetched all the same, say so
 * (once, instead of a model mismatch) and follow the driver from here on.
 */
static void check_efault_fetch(struct fuzzer *f, struct op *op, int err, uint32_t event,
			       uint32_t id, bool set)
{
	struct model *m = &f->model;
	int want, alt, saved = m->fetched[event];

	if (m->efault_fetch[event] < 0)
		return;
	want = model_use(m, event, id, set);
	m->fetched[event] = m->efault_fetch[event];
	alt = model_use(m, event, id, set);
	m->fetched[event] = saved;
	if (want == alt || (want == ENOENT) == (err == ENOENT))
		return;
	report(f, op, err, "the driver took ID %d of HardEvent %u, found by a FETCH_ID that failed with EFAULT, as fetched",
	       m->efault_fetch[event], event);
	m->fetched[event] = m->efault_fetch[event];
	m->efault_fetch[event] = -1;
}

/* A fresh open: nothing allocated, set, fetched or bound; the mode it has. */
static void model_fresh(struct fuzzer *f)
{
	struct model *m = &f->model;
	struct asc_event_mode mode = { 0 };
	unsigned int e;

	memset(m->pool, 0, sizeof(m->pool));
	memset(m->flags, 0, sizeof(m->flags));
	memset(m->handset, 0, sizeof(m->handset));
	for (e = 0; e < NR_EVENTS; e++)
		m->fetched[e] = m->efault_fetch[e] = -1;
	m->bound = ASC_EVENT_PIPE_NONE;
	if (ioctl(f->priv_fd, ASC_EVENT_IOC_GET_MODE, &mode) || mode.pad ||
	    !mode_valid(mode.mode)) {
		f->failures++;
		printf("# FAIL thread %d: GET_MODE of a new open: %s, mode %#x pad %#x\n",
		       f->index, strerror(errno), mode.mode, mode.pad);
	}
	m->mode = mode.mode;
}

/* GET_MODE: writes the mode, the model's on the private open, and a zero pad. */
static void check_get_mode(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_mode mode;

	if (!op->writable) {
		if (err != EFAULT)
			report(f, op, err, "GET_MODE to an unwritable pointer must be EFAULT");
		return;
	}
	if (err) {
		report(f, op, err, "GET_MODE must succeed");
		return;
	}
	memcpy(&mode, op->arg, sizeof(mode));
	if (mode.pad || !mode_valid(mode.mode) || (op->priv && mode.mode != f->model.mode))
		report(f, op, err, "GET_MODE reported mode %#x pad %#x%s%#x", mode.mode, mode.pad,
		       op->priv ? ", model: " : "", op->priv ? f->model.mode : 0);
	else if (op->checked && !guards_intact(op, sizeof(mode)))
		report(f, op, err, "GET_MODE wrote outside its struct");
}

/*
 * BIND_PIPE and SET_MODE, whose argument was readable: EINVAL for a bad
 * field, else success, or EBUSY for a pipe another thread holds, or for a
 * change of mode while a thread holds a pipe; nothing written either way.
 */
static void check_bind_or_mode(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_bind bind;
	struct asc_event_mode mode;
	bool bad;
	int want;

	memcpy(&bind, op->in, sizeof(bind));
	memcpy(&mode, op->in, sizeof(mode));
	if (op->kind == CMD_BIND)
		bad = bind.flags || !pipe_valid(bind.pipe);
	else
		bad = mode.pad || !mode_valid(mode.mode);

	if (bad) {
		if (err != EINVAL)
			report(f, op, err, "a bad field must be EINVAL");
	} else if (op->kind == CMD_SET_MODE && op->priv) {
		/* The mode changes only while no pipe is held. */
		want = f->model.bound != ASC_EVENT_PIPE_NONE &&
		       f->model.mode != mode.mode ? EBUSY : 0;
		if (err != want)
			report(f, op, err, "model: SET_MODE must give %s",
			       want ? strerror(want) : "success");
		else if (!err)
			f->model.mode = mode.mode;
	} else if (op->kind == CMD_SET_MODE) {
		if (!ERR_IN(err, 0, EBUSY))
			report(f, op, err, "not a result of SET_MODE");
	} else if (op->priv) {
		/* Nobody else binds on the private open: never EBUSY. */
		if (err)
			report(f, op, err, "model: BIND_PIPE must succeed");
		else
			f->model.bound = bind.pipe;
	} else if (!ERR_IN(err, 0, EBUSY)) {
		report(f, op, err, "not a result of BIND_PIPE");
	} else if (!err) {
		f->maybe_bound[op->shared] = bind.pipe != ASC_EVENT_PIPE_NONE;
	}
	if (op->checked && !guards_intact(op, 0))
		report(f, op, err, "%s wrote to its argument", cmd_names[op->kind]);
}

/*
 * ISSUE, on a shared open: a bad field is EINVAL; else the scalar's checks
 * (EPERM, ENOENT in strict mode), a full queue (EAGAIN) or a ticket that
 * cannot be written (EFAULT, and then nothing was queued).  A success
 * writes a ticket that is not 0, and nothing else.
 */
static void check_issue(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_issue is;
	uint64_t seen;

	memcpy(&is, op->in, sizeof(is));
	if ((is.op != ASC_EVENT_OP_SET && is.op != ASC_EVENT_OP_WAIT) || is.flags ||
	    is.event >= NR_EVENTS || is.id >= event_ids) {
		if (err != EINVAL)
			report(f, op, err, "a bad field must be EINVAL");
		else if (op->checked && !guards_intact(op, 0))
			report(f, op, err, "EINVAL wrote to the argument");
		return;
	}
	if (!ERR_IN(err, 0, EPERM, ENOENT, EAGAIN, ENOMEM, EFAULT) ||
	    (err == EFAULT && op->writable) || (!err && !op->writable)) {
		report(f, op, err, "not a result of ISSUE");
		return;
	}
	if (err) {
		if (op->checked && !guards_intact(op, 0))
			report(f, op, err, "a failed ISSUE wrote to its argument");
		return;
	}
	memcpy(&is, op->arg, sizeof(is));
	if (!is.ticket)
		report(f, op, err, "ISSUE returned ticket 0");
	else if (op->checked && (!guards_intact(op, sizeof(is)) ||
				 memcmp(op->arg, op->in, offsetof(struct asc_event_issue, ticket))))
		report(f, op, err, "ISSUE wrote more than the ticket");
	seen = atomic_load(&last_ticket);
	while (is.ticket > seen && !atomic_compare_exchange_weak(&last_ticket, &seen, is.ticket))
		;
}

/*
 * EXECUTE, on a shared open: input only.  A bad field is EINVAL, and so is
 * a ticket that is not the oldest of a pipe; the caller must be bound to
 * the ticket's pipe (EPERM); then a set's or a wait's results.
 */
static void check_execute(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_execute ex;
	bool forever;

	memcpy(&ex, op->in, sizeof(ex));
	forever = ex.deadline == ASC_EVENT_WAIT_FOREVER;
	if (ex.flags || ex.pad) {
		if (err != EINVAL)
			report(f, op, err, "a bad field must be EINVAL");
	} else if (!ERR_IN(err, 0, EINVAL, EPERM, EBUSY, ETIMEDOUT, ECANCELED, EINTR) &&
		   !(err == EDEADLK && forever && f->maybe_bound[op->shared])) {
		report(f, op, err, "not a result of EXECUTE");
	} else if (err != EINVAL && err != EPERM && !f->maybe_bound[op->shared]) {
		report(f, op, err, "EXECUTE ran for a thread that is not bound");
	}
	if (err == ETIMEDOUT && forever)
		report(f, op, err, "an EXECUTE with deadline forever timed out");
	if (err == ETIMEDOUT && ex.deadline <= INT64_MAX && op->after_ns < ex.deadline)
		report(f, op, err, "timed out %llu ns before the deadline",
		       (unsigned long long)(ex.deadline - op->after_ns));
	if (op->checked && !guards_intact(op, 0))
		report(f, op, err, "EXECUTE wrote to its argument");
}

/* CORE_INFO: the private open never joins; a shared one may have. */
static void check_core_info(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_core_info info;

	if (op->priv ? err != ENOTCONN :
	    !ERR_IN(err, 0, ENOTCONN, EFAULT) || (err == EFAULT && op->writable) ||
	    (!err && !op->writable)) {
		report(f, op, err, "not a result of CORE_INFO");
		return;
	}
	if (err) {
		if (op->checked && !guards_intact(op, 0))
			report(f, op, err, "a failed CORE_INFO wrote to its argument");
		return;
	}
	memcpy(&info, op->arg, sizeof(info));
	if ((info.type != ASC_EVENT_CORE_AIC && info.type != ASC_EVENT_CORE_AIV) ||
	    info.kind < ASC_EVENT_LAUNCH_AIV || info.kind > ASC_EVENT_LAUNCH_MIX ||
	    !info.block_num || info.block_num > ASC_EVENT_BLOCK_DIM_MAX ||
	    info.sub_block_idx >= info.sub_block_num || info.sub_block_num > 2 || info.pad ||
	    info.core >= 3 * info.block_num || info.block_idx >= 2 * info.block_num)
		report(f, op, err, "CORE_INFO reported core %u type %u block %u/%u sub %u/%u kind %u pad %u",
		       info.core, info.type, info.block_idx, info.block_num, info.sub_block_idx,
		       info.sub_block_num, info.kind, info.pad);
	else if (op->checked && !guards_intact(op, sizeof(info)))
		report(f, op, err, "CORE_INFO wrote outside its struct");
}

/* Keep a launch LAUNCH made for JOIN, closing the one it replaces. */
static void keep_launch(struct fuzzer *f, int fd)
{
	int old = atomic_exchange(&launch_fds[below(f, LAUNCH_FDS)], fd);

	if (old >= 0)
		close(old);
}

/*
 * LAUNCH and, on shared opens, JOIN, CROSS_SET, CROSS_WAIT and SYNC_ALL:
 * a bad field is EINVAL; else only the errors each may give.  LAUNCH
 * writes a close-on-exec descriptor and nothing else; the others write
 * nothing.
 */
static void check_launch_cmd(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_launch la;
	struct asc_event_join jo;
	struct asc_event_cross_set cs;
	struct asc_event_cross_wait cw;
	struct asc_event_sync_all sa;
	bool bad = false, ok, forever = false, maybe_bound = f->maybe_bound[op->shared];
	uint64_t deadline = 0;

	switch (op->kind) {
	case CMD_LAUNCH:
		memcpy(&la, op->in, sizeof(la));
		bad = la.kind < ASC_EVENT_LAUNCH_AIV || la.kind > ASC_EVENT_LAUNCH_MIX ||
		      !la.block_dim || la.block_dim > ASC_EVENT_BLOCK_DIM_MAX || la.flags;
		ok = ERR_IN(err, 0, ENOMEM, EMFILE, EFAULT) &&
		     !(err == EFAULT && op->writable) && !(!err && !op->writable);
		break;
	case CMD_JOIN:
		memcpy(&jo, op->in, sizeof(jo));
		bad = jo.flags || jo.pad;
		ok = ERR_IN(err, 0, EBADF, EINVAL, EISCONN, EBUSY, ENOSPC);
		break;
	case CMD_CROSS_SET:
		memcpy(&cs, op->in, sizeof(cs));
		bad = cs.flags || cs.flag_id >= ASC_EVENT_CROSS_FLAGS || cs.mode > 2 ||
		      !pipe_valid(cs.pipe) || cs.pipe == ASC_EVENT_PIPE_S ||
		      cs.pipe == ASC_EVENT_PIPE_NONE;
		ok = ERR_IN(err, 0, EINVAL, ENOTCONN, EPERM, EPIPE, EOVERFLOW);
		break;
	case CMD_CROSS_WAIT:
		memcpy(&cw, op->in, sizeof(cw));
		bad = cw.flags || cw.flag_id >= ASC_EVENT_CROSS_FLAGS;
		deadline = cw.deadline;
		forever = deadline == ASC_EVENT_WAIT_FOREVER;
		ok = ERR_IN(err, 0, ENOTCONN, EPIPE, ETIMEDOUT, EINTR, ECANCELED) ||
		     (err == EDEADLK && forever && maybe_bound);
		break;
	default:
		memcpy(&sa, op->in, sizeof(sa));
		bad = (sa.flags & ~ASC_EVENT_SYNC_ALL_AIV_ONLY) || sa.pad;
		deadline = sa.deadline;
		forever = deadline == ASC_EVENT_WAIT_FOREVER;
		/*
		 * EINVAL: the AIVs' SyncAll asked by an AIC; EDEADLK, whatever
		 * the deadline: an AIV came to one SyncAll while another waits
		 * in the other.
		 */
		ok = ERR_IN(err, 0, ENOTCONN, EPERM, EBUSY, EPIPE, ETIMEDOUT, EINTR,
			    ECANCELED, EDEADLK) ||
		     (err == EINVAL && (sa.flags & ASC_EVENT_SYNC_ALL_AIV_ONLY));
		break;
	}
	if (bad) {
		if (err != EINVAL)
			report(f, op, err, "a bad field must be EINVAL");
		else if (op->checked && !guards_intact(op, 0))
			report(f, op, err, "EINVAL wrote to the argument");
		return;
	}
	if (!ok) {
		report(f, op, err, "not a result of %s", cmd_names[op->kind]);
		return;
	}
	if (err == ETIMEDOUT && forever)
		report(f, op, err, "a wait with deadline forever timed out");
	if (err == ETIMEDOUT && deadline <= INT64_MAX && op->after_ns < deadline)
		report(f, op, err, "timed out %llu ns before the deadline",
		       (unsigned long long)(deadline - op->after_ns));
	if (op->kind == CMD_LAUNCH && !err) {
		memcpy(&la, op->arg, sizeof(la));
		if (la.fd < 0 || !(fcntl(la.fd, F_GETFD) & FD_CLOEXEC))
			report(f, op, err, "LAUNCH gave descriptor %d, not close-on-exec", la.fd);
		else if (op->checked && (!guards_intact(op, sizeof(la)) ||
					 memcmp(op->arg, op->in, offsetof(struct asc_event_launch, fd))))
			report(f, op, err, "LAUNCH wrote more than the descriptor");
		if (la.fd >= 0)
			keep_launch(f, la.fd);
		return;
	}
	if (op->checked && !guards_intact(op, 0))
		report(f, op, err, "%s wrote to its argument", cmd_names[op->kind]);
}

/* An unknown command: ENOTTY, and the argument untouched. */
static void check_bogus(struct fuzzer *f, struct op *op, int err)
{
	if (err != ENOTTY)
		report(f, op, err, "an unknown ioctl must fail with ENOTTY");
	else if (op->checked && !guards_intact(op, 0))
		report(f, op, err, "an unknown ioctl wrote to its argument");
}

/* INFO: the device's constants, written and nothing past them. */
static void check_info(struct fuzzer *f, struct op *op, int err)
{
	struct asc_event_info info;

	if (!op->writable) {
		if (err != EFAULT)
			report(f, op, err, "INFO to an unwritable pointer must be EFAULT");
		return;
	}
	if (err) {
		report(f, op, err, "INFO must succeed");
		return;
	}
	memcpy(&info, op->arg, sizeof(info));
	if (info.abi_version != ASC_EVENT_ABI_VERSION ||
	    info.nr_events != NR_EVENTS || info.event_ids != event_ids ||
	    info.pad || info.features != ASC_DEV_FEATURES)
		report(f, op, err, "INFO reported %u/%u/%u/%u/%llu", info.abi_version,
		       info.nr_events, info.event_ids, info.pad,
		       (unsigned long long)info.features);
	else if (op->checked && !guards_intact(op, sizeof(info)))
		report(f, op, err, "INFO wrote outside its struct");
}

/**
 * struct ref_args - what ALLOC_ID, FETCH_ID, RELEASE_ID, SET_FLAG,
 * WAIT_FLAG and RESET read, once their fields are valid.
 * @event: the HardEvent (not RESET).
 * @id: the ID (an output of ALLOC_ID and FETCH_ID).
 * @bound: whether the thread is (private open) or may be (shared) bound.
 * @wait: WAIT_FLAG's argument.
 */
struct ref_args {
	uint32_t event, id;
	bool bound;
	struct asc_event_wait wait;
};

/*
 * Read @op's fields into @a.  Return: false, with the check of EINVAL
 * done, when a field is bad.
 */
static bool ref_fields(struct fuzzer *f, struct op *op, int err, struct ref_args *a)
{
	struct asc_event_ref ref = { 0 };
	struct asc_event_reset reset = { 0 };
	bool bad, ids_ok;

	memset(a, 0, sizeof(*a));
	if (op->kind == CMD_WAIT) {
		memcpy(&a->wait, op->in, sizeof(a->wait));
		a->event = a->wait.event;
		a->id = a->wait.id;
		bad = a->wait.flags || a->wait.pad;
	} else if (op->kind == CMD_RESET) {
		memcpy(&reset, op->in, sizeof(reset));
		bad = reset.flags || reset.pad;
	} else {
		memcpy(&ref, op->in, sizeof(ref));
		a->event = ref.event;
		a->id = ref.id;
		bad = ref.flags || ref.pad;
	}
	ids_ok = a->event < NR_EVENTS && a->id < event_ids;
	if (op->kind == CMD_ALLOC || op->kind == CMD_FETCH)
		ids_ok = a->event < NR_EVENTS;	/* id is an output */
	if (op->kind != CMD_RESET && !ids_ok)
		bad = true;
	if (bad) {
		if (err != EINVAL)
			report(f, op, err, "a bad field must be EINVAL");
		else if (op->checked && !guards_intact(op, 0))
			report(f, op, err, "EINVAL wrote to the argument");
		return false;
	}
	a->bound = op->priv ? f->model.bound != ASC_EVENT_PIPE_NONE :
			      f->maybe_bound[op->shared];
	return true;
}

/*
 * ALLOC_ID and FETCH_ID: the lowest free ID, ENOSPC, EADDRINUSE for an ID
 * hand-written code uses (checked mode), EFAULT when the ID cannot be
 * written back; on a shared open, whose mapped pool gets garbage, also
 * EAGAIN (the pool changed under the alloc every time).  Return: whether the argument must be as it was.
 */
static bool check_alloc_or_fetch(struct fuzzer *f, struct op *op, int err,
				 const struct ref_args *a)
{
	struct model *m = &f->model;
	struct asc_event_ref ref;
	uint32_t event = a->event, low = 0;
	int want = -1;

	if (op->priv) {
		low = lowest_free(m, event);
		want = low == UINT32_MAX ? ENOSPC :
		       m->mode == ASC_EVENT_MODE_CHECKED &&
		       (m->handset[event] & (1ULL << low)) ? EADDRINUSE :
		       op->writable ? 0 : EFAULT;
	} else if (!ERR_IN(err, 0, ENOSPC, EFAULT, EADDRINUSE, EAGAIN) ||
		   (err == EFAULT && op->writable) ||
		   (err == 0 && !op->writable)) {
		report(f, op, err, "not a result of %s", cmd_names[op->kind]);
		return false;
	}
	if (want >= 0 && err != want) {
		report(f, op, err, "model: expected %s", want ? strerror(want) : "success");
		return false;
	}
	if (op->priv && op->kind == CMD_FETCH && err == EFAULT)
		m->efault_fetch[event] = (int)low;
	if (err)
		return true;
	memcpy(&ref, op->arg, sizeof(ref));
	if (ref.id >= event_ids || (op->priv && ref.id != low))
		report(f, op, err, "returned id %u, lowest free is %u", ref.id,
		       op->priv ? low : 0);
	else if (op->checked && (!guards_intact(op, 8) || memcmp(op->arg, op->in, 4)))
		report(f, op, err, "wrote more than the id");
	if (op->priv && op->kind == CMD_ALLOC)
		m->pool[event] |= 1ULL << ref.id;
	if (op->priv && op->kind == CMD_FETCH) {
		m->fetched[event] = (int)ref.id;
		m->efault_fetch[event] = -1;
	}
	return false;
}

/* RELEASE_ID: success for an allocated ID, else ENOENT. */
static bool check_release(struct fuzzer *f, struct op *op, int err,
			  const struct ref_args *a)
{
	struct model *m = &f->model;
	int want = -1;

	if (op->priv)
		want = m->pool[a->event] & (1ULL << a->id) ? 0 : ENOENT;
	else if (!ERR_IN(err, 0, ENOENT))
		report(f, op, err, "not a result of RELEASE_ID");
	if (want >= 0 && err != want)
		report(f, op, err, "model: expected %s", want ? strerror(want) : "success");
	if (op->priv && !err)
		m->pool[a->event] &= ~(1ULL << a->id);
	return true;
}

/* SET_FLAG: EBUSY for a flag already set, the model's errors of the ID. */
static bool check_set(struct fuzzer *f, struct op *op, int err, const struct ref_args *a)
{
	struct model *m = &f->model;
	uint32_t event = a->event, id = a->id;
	int want = -1;

	if (op->priv) {
		check_efault_fetch(f, op, err, event, id, true);
		want = model_use(m, event, id, true);
		if (!want)
			want = m->flags[event] & (1ULL << id) ? EBUSY : 0;
	} else if (!ERR_IN(err, 0, EBUSY, ENOENT, EPERM)) {
		/* EPERM: bound elsewhere, or another thread owns the pipe. */
		report(f, op, err, "not a result of SET_FLAG");
	}
	if (want >= 0 && err != want)
		report(f, op, err, "model: expected %s", want ? strerror(want) : "success");
	if (op->priv && !err) {
		m->flags[event] |= 1ULL << id;
		if ((m->mode & ASC_EVENT_MODE_CHECKED) && !(m->pool[event] & (1ULL << id)) &&
		    m->fetched[event] != (int)id)
			m->handset[event] |= 1ULL << id;
	}
	return true;
}

/*
 * WAIT_FLAG: the errors a wait may end with, its deadline kept, and on
 * the private open the model's flag taken or EDEADLK for a pipe waiting
 * forever for itself.
 */
static bool check_wait(struct fuzzer *f, struct op *op, int err, const struct ref_args *a)
{
	const struct asc_event_wait *wait = &a->wait;
	struct model *m = &f->model;
	uint32_t event = a->event, id = a->id;
	bool forever = wait->deadline == ASC_EVENT_WAIT_FOREVER, bound = a->bound;
	int want;

	if (wait->deadline < op->before_ns) {
		/* already past: a test that never sleeps */
		if (!ERR_IN(err, 0, ETIMEDOUT, ENOENT) && !(bound && err == EPERM))
			report(f, op, err, "not a result of a wait with a past deadline");
	} else if (!ERR_IN(err, 0, ETIMEDOUT, ECANCELED, EINTR, ENOENT) &&
		   !(bound && (err == EPERM || (err == EDEADLK && forever)))) {
		report(f, op, err, "not a result of WAIT_FLAG%s",
		       err == EDEADLK ? " (EDEADLK: not bound or not forever)" :
		       err == EPERM ? " (EPERM: not bound)" : "");
	}
	if (err == ETIMEDOUT && forever)
		report(f, op, err, "a wait with deadline forever timed out");
	if (err == ETIMEDOUT && wait->deadline <= INT64_MAX && op->after_ns < wait->deadline)
		report(f, op, err, "timed out %llu ns before the deadline",
		       (unsigned long long)(wait->deadline - op->after_ns));
	if (!op->priv)
		return true;
	check_efault_fetch(f, op, err, event, id, false);
	want = model_use(m, event, id, false);
	if (want) {
		if (err != want)
			report(f, op, err, "model: expected %s", strerror(want));
	} else if (m->flags[event] & (1ULL << id)) {
		if (err)
			report(f, op, err, "model: the flag was set");
		m->flags[event] &= ~(1ULL << id);
		m->handset[event] &= ~(1ULL << id);
	} else if (forever && (m->mode & ASC_EVENT_MODE_CHECKED) && bound &&
		   asc_event_src(event) == m->bound) {
		/* V on V_V, FIX on FIX_FIX: it waits for itself. */
		if (err != EDEADLK)
			report(f, op, err, "model: a pipe waiting forever for itself must be EDEADLK");
	} else if (!ERR_IN(err, ETIMEDOUT, EINTR)) {
		report(f, op, err, "model: the flag was clear");
	}
	return true;
}

/* RESET: the counts of what it dropped, the model's on the private open. */
static bool check_reset(struct fuzzer *f, struct op *op, int err, const struct ref_args *a)
{
	struct model *m = &f->model;
	struct asc_event_reset reset;
	unsigned int held = 0, pending = 0, e;

	(void)a;
	if (err != (op->writable ? 0 : EFAULT)) {
		report(f, op, err, "RESET must give %s", op->writable ? "success" : "EFAULT");
		return false;
	}
	/* A RESET that cannot write its counts back changes nothing. */
	if (op->priv && !err) {
		for (e = 0; e < NR_EVENTS; e++) {
			held += __builtin_popcountll(m->pool[e]);
			pending += __builtin_popcountll(m->flags[e]);
			m->fetched[e] = m->efault_fetch[e] = -1;
		}
		memset(m->pool, 0, sizeof(m->pool));
		memset(m->flags, 0, sizeof(m->flags));
		memset(m->handset, 0, sizeof(m->handset));
		memcpy(&reset, op->arg, sizeof(reset));
		if (reset.ids_held != held || reset.flags_pending != pending)
			report(f, op, err, "model: reset found %u/%u, expected %u/%u",
			       reset.ids_held, reset.flags_pending, held, pending);
	}
	if (!err && op->checked) {
		memcpy(&reset, op->arg, sizeof(reset));
		if (reset.ids_held > NR_EVENTS * event_ids ||
		    reset.flags_pending > NR_EVENTS * event_ids || !guards_intact(op, 16) ||
		    memcmp(op->arg, op->in, 8))
			report(f, op, err, "RESET wrote %u/%u or outside its counts",
			       reset.ids_held, reset.flags_pending);
	}
	return false;
}

/**
 * struct cmd_check - how the result of one kind of command is checked.
 * @whole: checks everything of the command; or
 * @use: checks a command of struct ref_args, once its fields are valid,
 *	and returns whether the argument must be as it was;
 * @reads: the command reads its struct first, so an unreadable one is
 *	EFAULT before anything else.
 */
struct cmd_check {
	void (*whole)(struct fuzzer *f, struct op *op, int err);
	bool (*use)(struct fuzzer *f, struct op *op, int err, const struct ref_args *a);
	bool reads;
};

static const struct cmd_check cmd_checks[CMD_KINDS] = {
	[CMD_INFO]	 = { .whole = check_info },
	[CMD_ALLOC]	 = { .use = check_alloc_or_fetch, .reads = true },
	[CMD_FETCH]	 = { .use = check_alloc_or_fetch, .reads = true },
	[CMD_RELEASE]	 = { .use = check_release, .reads = true },
	[CMD_SET]	 = { .use = check_set, .reads = true },
	[CMD_WAIT]	 = { .use = check_wait, .reads = true },
	[CMD_RESET]	 = { .use = check_reset, .reads = true },
	[CMD_BIND]	 = { .whole = check_bind_or_mode, .reads = true },
	[CMD_GET_MODE]	 = { .whole = check_get_mode },
	[CMD_SET_MODE]	 = { .whole = check_bind_or_mode, .reads = true },
	[CMD_ISSUE]	 = { .whole = check_issue, .reads = true },
	[CMD_EXECUTE]	 = { .whole = check_execute, .reads = true },
	[CMD_LAUNCH]	 = { .whole = check_launch_cmd, .reads = true },
	[CMD_JOIN]	 = { .whole = check_launch_cmd, .reads = true },
	[CMD_CORE_INFO]	 = { .whole = check_core_info },
	[CMD_CROSS_SET]	 = { .whole = check_launch_cmd, .reads = true },
	[CMD_CROSS_WAIT] = { .whole = check_launch_cmd, .reads = true },
	[CMD_SYNC_ALL]	 = { .whole = check_launch_cmd, .reads = true },
	[CMD_BOGUS]	 = { .whole = check_bogus },
};

/*
 * Check one ioctl's result @err (0 or an errno) against the rules and, for
 * the private open, against the model, which it then updates: the entry
 * of cmd_checks[] for its kind.
 */
static void check(struct fuzzer *f, struct op *op, int err)
{
	const struct cmd_check *c = &cmd_checks[op->kind];
	struct ref_args a;

	if (c->reads && !op->readable) {
		if (err != EFAULT)
			report(f, op, err, "an unreadable argument must be EFAULT");
		return;
	}
	if (c->whole) {
		c->whole(f, op, err);
		return;
	}
	if (!ref_fields(f, op, err, &a))
		return;
	/* Nothing was written back for a failed or input-only command. */
	if (c->use(f, op, err, &a) && op->checked && !guards_intact(op, 0))
		report(f, op, err, "the argument changed");
}

/* ---- the threads -------------------------------------------------------- */

/*
 * Replace the open under @fd by a fresh one, keeping the number, so that
 * another thread inside an ioctl on @fd keeps the old file alive until it
 * returns and then drops the last reference.
 */
static int reopen(int fd)
{
	int nfd = asc_open();

	if (nfd < 0)
		return -errno;
	if (dup3(nfd, fd, O_CLOEXEC) < 0) {
		close(nfd);
		return -errno;
	}
	close(nfd);
	return 0;
}

static void count_result(struct fuzzer *f, const struct op *op, int err)
{
	f->by_errno[err > MAX_ERRNO || err < 0 ? MAX_ERRNO : err]++;
	f->by_cmd[op->kind]++;
}

/*
 * mmap() of a shared open with a random page, length, protection and
 * sharing: exactly the documented error, and a flag page, once mapped, gets
 * garbage (the shared opens' rules hold whatever their flags say).
 */
static void fuzz_mmap(struct fuzzer *f)
{
	static const int prots[] = { PROT_READ, PROT_READ | PROT_WRITE, PROT_WRITE, PROT_NONE };
	int fd = shared_fds[below(f, SHARED_OPENS)];
	unsigned int page = below(f, 5), i, n;
	size_t len = chance(f, 1, 5) ? 2 * page_size : page_size;
	int prot = prots[below(f, 4)], flags = chance(f, 1, 5) ? MAP_PRIVATE : MAP_SHARED;
	int want = 0, err = 0;
	__u64 *w;
	void *p;

	if (len != page_size || page > ASC_EVENT_MAP_MODULE || flags == MAP_PRIVATE)
		want = EINVAL;
	else if ((prot & PROT_WRITE) && page != ASC_EVENT_MAP_FLAGS)
		want = EACCES;
	else if (event_ids > ASC_EVENT_MAP_IDS_MAX)
		want = EOPNOTSUPP;
	p = mmap(NULL, len, prot, flags, fd, (off_t)page * page_size);
	if (p == MAP_FAILED)
		err = errno;
	f->mmaps++;
	if (err != want) {
		f->failures++;
		printf("# FAIL thread %d: mmap(page %u, %zu bytes, prot %#x, flags %#x): %s, not %s\n",
		       f->index, page, len, prot, flags, strerror(err), strerror(want));
	}
	if (err)
		return;
	if (page == ASC_EVENT_MAP_FLAGS && (prot & PROT_WRITE)) {
		w = p;
		n = below(f, 8);
		for (i = 0; i < n; i++)
			__atomic_store_n(&w[below(f, sizeof(struct asc_event_map_flags) / sizeof(*w))],
					 chance(f, 1, 3) ? ~0ULL : rnd(f), __ATOMIC_RELAXED);
	}
	munmap(p, len);
}

static void fuzz_one(struct fuzzer *f)
{
	struct op op = { 0 };
	int ret, err;

	if (chance(f, 1, 1000)) {
		bool priv = chance(f, 1, 3);
		int fd = priv ? f->priv_fd : shared_fds[below(f, SHARED_OPENS)];

		ret = reopen(fd);
		if (ret) {
			f->failures++;
			printf("# FAIL thread %d: reopen: %s\n", f->index, strerror(-ret));
			return;
		}
		if (priv)
			model_fresh(f);
		f->reopens++;
	}

	if (chance(f, 1, 200)) {
		fuzz_mmap(f);
		return;
	}

	op.priv = chance(f, 2, 5);
	op.shared = op.priv ? -1 : (int)below(f, SHARED_OPENS);
	op.fd = op.priv ? f->priv_fd : shared_fds[op.shared];
	op.cmd = gen_cmd(f);
	op.kind = cmd_kind_of(op.cmd);
	if (op.priv && (op.kind == CMD_ISSUE || op.kind == CMD_EXECUTE ||
			op.kind == CMD_JOIN || op.kind == CMD_CROSS_SET ||
			op.kind == CMD_CROSS_WAIT || op.kind == CMD_SYNC_ALL)) {
		/* The model of the private open has no queues and no launch. */
		op.priv = false;
		op.shared = (int)below(f, SHARED_OPENS);
		op.fd = shared_fds[op.shared];
	}
	op.size = op.kind == CMD_BOGUS ? 0 : _IOC_SIZE(op.cmd);
	place_arg(f, &op);

	op.before_ns = now_ns();
	if (op.kind == CMD_WAIT || op.kind == CMD_EXECUTE || op.kind == CMD_CROSS_WAIT ||
	    op.kind == CMD_SYNC_ALL)
		atomic_store(&wait_since[f->index], op.before_ns);
	ret = ioctl(op.fd, op.cmd, op.arg);
	err = ret < 0 ? errno : 0;
	if (op.kind == CMD_WAIT || op.kind == CMD_EXECUTE || op.kind == CMD_CROSS_WAIT ||
	    op.kind == CMD_SYNC_ALL)
		atomic_store(&wait_since[f->index], 0);
	op.after_ns = now_ns();
	f->ioctls++;
	if (ret > 0)
		report(f, &op, 0, "ioctl returned %d", ret);
	count_result(f, &op, err);
	check(f, &op, err);
}

static void *fuzz_thread(void *arg)
{
	struct fuzzer *f = arg;

	while (!atomic_load(&stop) && atomic_fetch_add(&issued, 1) < target)
		fuzz_one(f);
	return NULL;
}

static void on_sigusr1(int sig)
{
	(void)sig;
}

/* Resets shared opens and interrupts waits that have slept too long. */
static void *watchdog_thread(void *arg)
{
	struct timespec tick = { 0, WATCHDOG_TICK_NS };
	struct asc_event_reset r;
	uint64_t rng = (uint64_t)(uintptr_t)arg, since;
	unsigned int i, n = 0;

	while (!atomic_load(&stop)) {
		nanosleep(&tick, NULL);
		if (++n % WATCHDOG_RESET_TICKS == 0) {
			memset(&r, 0, sizeof(r));
			if (!ioctl(shared_fds[splitmix64(&rng) % SHARED_OPENS],
				   ASC_EVENT_IOC_RESET, &r))
				atomic_fetch_add(&watchdog_resets, 1);
		}
		for (i = 0; i < nthreads; i++) {
			since = atomic_load(&wait_since[i]);
			if (since && now_ns() - since > WATCHDOG_WAIT_NS) {
				pthread_kill(fuzzers[i].thread, SIGUSR1);
				atomic_fetch_add(&watchdog_kicks, 1);
			}
		}
	}
	return NULL;
}

/* ---- set-up and report -------------------------------------------------- */

/* Map @pages read-write pages, the last @none of them PROT_NONE. */
static unsigned char *map_pages(size_t pages, size_t none)
{
	unsigned char *p = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	if (none && mprotect(p + (pages - none) * page_size, none * page_size, PROT_NONE))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	return p;
}

/*
 * A page far from where the kernel places new mappings, proven free by
 * mapping it and unmapped again, so that it stays a hole for the run.
 */
static unsigned char *make_hole(void)
{
	uintptr_t want = sizeof(void *) == 8 ? 0x200000000000ULL : 0x20000000UL;
	unsigned char *p = mmap((void *)want, page_size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("cannot map the probe page at %#lx: %s\n",
				   (unsigned long)want, strerror(errno));
	munmap(p, page_size);
	return p;
}

static bool hole_still_unmapped(void)
{
	return msync(hole, page_size, MS_ASYNC) && errno == ENOMEM;
}

int main(int argc, char **argv)
{
	unsigned long seed = DEFAULT_SEED, total = 0, failures = 0, reopens = 0, mmaps = 0;
	unsigned long by_errno[MAX_ERRNO + 1] = { 0 }, by_cmd[CMD_KINDS] = { 0 };
	struct asc_event_info info = { 0 };
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	struct fuzzer seeder = { .rng = 0 };
	pthread_t watchdog;
	uint64_t start, elapsed;
	unsigned int i, k;
	int fd;
	const struct asc_option opts[] = {
		ASC_OPTION_HEX('S', seed, 0, 0, "SEED", "random seed"),
		ASC_OPTION('n', target, 1, 0, "COUNT", "ioctls in all"),
		ASC_OPTION('t', nthreads, 1, MAX_THREADS, "THREADS", "fuzzing threads"),
		ASC_SWITCH('v', verbose, "per-thread figures"),
	};

	asc_parse_options(argc, argv, opts, ARRAY_SIZE(opts));

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	fd = asc_open();
	if (fd < 0) {
		ksft_print_msg("%s: %s\n", asc_dev_path(), strerror(errno));
		ksft_exit_skip("device not available\n");
	}
	if (ioctl(fd, ASC_EVENT_IOC_INFO, &info))
		ksft_exit_fail_msg("INFO: %s\n", strerror(errno));
	event_ids = info.event_ids;
	if (!event_ids || event_ids > ASC_EVENT_IDS_MAX)
		ksft_exit_fail_msg("INFO reports event_ids %u\n", event_ids);
	close(fd);
	ksft_set_plan(1);
	ksft_print_msg("seed %#lx (rerun with -S %#lx), %lu ioctls, %u threads, event_ids %u, %zu-bit\n",
		       seed, seed, target, nthreads, event_ids, sizeof(void *) * 8);

	page_size = (size_t)sysconf(_SC_PAGESIZE);
	seeder.rng = seed;
	ro_page = map_pages(1, 0);
	ro_init(&seeder);
	hole = make_hole();
	for (i = 0; i < SHARED_OPENS; i++) {
		shared_fds[i] = asc_open();
		if (shared_fds[i] < 0)
			ksft_exit_fail_msg("open: %s\n", strerror(errno));
	}
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: an interrupted wait gives EINTR */
	sigaction(SIGUSR1, &sa, NULL);

	start = now_ns();
	for (i = 0; i < nthreads; i++) {
		struct fuzzer *f = &fuzzers[i];

		f->index = i;
		f->rng = seed ^ (0x1000003ULL * (i + 1));
		splitmix64(&f->rng);
		f->buf = map_pages(2, 1);
		f->priv_fd = asc_open();
		if (f->priv_fd < 0)
			ksft_exit_fail_msg("open: %s\n", strerror(errno));
		f->model.event_ids = event_ids;
		model_fresh(f);
		if (pthread_create(&f->thread, NULL, fuzz_thread, f))
			ksft_exit_fail_msg("pthread_create failed\n");
	}
	if (pthread_create(&watchdog, NULL, watchdog_thread, (void *)(uintptr_t)seed))
		ksft_exit_fail_msg("pthread_create failed\n");
	for (i = 0; i < nthreads; i++)
		pthread_join(fuzzers[i].thread, NULL);
	elapsed = now_ns() - start;
	atomic_store(&stop, true);
	pthread_join(watchdog, NULL);

	for (i = 0; i < nthreads; i++) {
		struct fuzzer *f = &fuzzers[i];

		total += f->ioctls;
		failures += f->failures;
		reopens += f->reopens;
		mmaps += f->mmaps;
		for (k = 0; k <= MAX_ERRNO; k++)
			by_errno[k] += f->by_errno[k];
		for (k = 0; k < CMD_KINDS; k++)
			by_cmd[k] += f->by_cmd[k];
		if (verbose)
			ksft_print_msg("thread %u: %lu ioctls, %lu reopens, %lu failures\n",
				       i, f->ioctls, f->reopens, f->failures);
		close(f->priv_fd);
	}
	for (i = 0; i < SHARED_OPENS; i++)
		close(shared_fds[i]);
	if (!hole_still_unmapped()) {
		ksft_print_msg("something was mapped at the unmapped probe address %p\n",
			       (void *)hole);
		failures++;
	}

	ksft_print_msg("ioctls: %lu in %.1f s, %.0f/s; %lu reopens; watchdog: %lu resets, %lu interrupted waits\n",
		       total, elapsed / 1e9, total / (elapsed / 1e9), reopens,
		       atomic_load(&watchdog_resets), atomic_load(&watchdog_kicks));
	ksft_print_msg("mmaps: %lu\n", mmaps);
	for (k = 0; k < CMD_KINDS; k++)
		ksft_print_msg("  %-10s %lu\n", cmd_names[k], by_cmd[k]);
	for (k = 0; k <= MAX_ERRNO; k++) {
		const char *name = k ? strerrorname_np((int)k) : "success";

		if (!by_errno[k])
			continue;
		if (k == MAX_ERRNO)
			name = "other";
		ksft_print_msg("  %-10s %lu\n", name ? name : "?", by_errno[k]);
	}
	ksft_print_msg("unclean results: %lu\n", failures);
	ksft_test_result(failures == 0, "fuzz: %lu ioctls, seed %#lx\n", total, seed);
	if (failures)
		ksft_exit_fail();
	ksft_exit_pass();
}
