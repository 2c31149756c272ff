// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event_faults: make every allocation of the driver fail, one at a time.
 *
 *   asc_event_faults [-r ROUNDS] [-v]
 *
 * Needs root and a kernel with CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
 * CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS (the debug
 * kernel; CONFIG_FAULT_INJECTION_USERCOPY too for the ioctl part), else it
 * skips (exit 4).
 *
 * The driver allocates in open(): the TPipe and its register block, each
 * from a slab cache of the driver's own (no page of its own), the bitmap
 * of its hand-written sets (kmalloc), and the report quota of the opener's user, which
 * exists already while the user has another TPipe open (this program keeps
 * one open throughout, so the quota never comes into it).  Its ioctls copy
 * from and to user memory and allocate only the buffer of a report for the
 * kernel log, without waiting (a failure drops the report's text, counted
 * in reports_suppressed, never the ioctl: absorbed).  A user copy that
 * writes a result out is made with page faults disabled, under the TPipe's
 * lock, before the state changes; when it fails the driver faults the
 * page in and runs the operation again, so an injected failure there is
 * absorbed too.  Faults are
 * injected with /proc/thread-self/fail-nth: writing N makes the N-th fault
 * injection point the task passes fail, whichever fault attribute it
 * belongs to (failslab, fail_page_alloc, fail_usercopy), exactly once.  A
 * sweep writes N = 1, 2, 3... before one system call each, until the call
 * passes fewer than N points, so every point the call passes fails once.
 * Which attribute each injected fault belonged to is read from the
 * attributes' "times" counters, which count down on every injection.
 * (The stacktrace filter that could aim failslab at the module's text,
 * CONFIG_FAULT_INJECTION_STACKTRACE_FILTER, does not exist on x86_64 in
 * 6.1.)
 *
 * Where a fault was injected is established by measurement, not assumed.
 * open() of /dev/null is the control: the same VFS path (name lookup,
 * struct file, a character device's open) without the driver.
 *
 * - the slab site: with page allocations left out, open() of the device
 *   must fail (ENOMEM) on exactly the slab faults on which open() of
 *   /dev/null fails, at the same points, plus later ones: those are the
 *   driver's three allocations (the driver's open runs last in open()).
 *   Page allocations are not located: the driver makes none of its own
 *   (a failed refill of one of its caches fails an open as its slab
 *   allocation would, which the sweep of every point covers).
 *
 * Failslab's per-cache filter cannot name the cache instead: 6.1 makes
 * /sys/kernel/slab/CACHE/failslab read-only.
 *
 * Then, with every attribute live, full sweeps of open() of the device, of
 * each ioctl and of close() check that every injected fault ends as a clean
 * error: ENOMEM for an allocation (or success, when the kernel absorbs the
 * failure, as kmemleak's and KASAN's own bookkeeping does), EFAULT for a
 * user copy (or success, for a copy out that the driver retries), with the
 * TPipe in the state Documentation/uapi.rst describes for that error (an
 * ioctl that fails changes nothing: an ALLOC_ID takes no ID, a RESET
 * resets nothing).  After every injected fault the device
 * must still work: a fresh open allocates, sets, waits and resets.  Leaks
 * are the business of the kmemleak scan that tools/testing/asc-vm runs on the debug
 * kernel after the command.
 *
 * The TPipe the ioctl sweeps use, and the ones the close() sweep tears
 * down, run with checked mode off (ASC_EVENT_IOC_SET_MODE with mode 0):
 * their set-ups set and wait on IDs that were never allocated, which
 * checked mode would refuse as hand-written.  The check that a fresh open
 * works keeps the default, checked mode, and uses allocated IDs only.
 * BIND_PIPE, GET_MODE and SET_MODE are swept like the other ioctls, and so
 * are LAUNCH (a failure makes no descriptor; what a success made can be
 * joined) and JOIN (a failure leaves the TPipe out of the launch and its
 * core free).
 *
 * Fault attributes are set with verbose=0 (a stack dump in the kernel log
 * fails the run) and restored on exit.  Output is TAP, with a line per
 * site: how many faults were injected there and what they returned.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/asc_event.h>

#include "kselftest.h"
#include "asc_test_device.h"
#include "asc_test_util.h"

#define DEBUGFS		"/sys/kernel/debug"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define CONTROL_DEV	"/dev/null"

/* Larger than any number of points one system call passes. */
#define MAX_POINTS	400
/* "times" while the run lasts: a countdown of injections. */
#define TIMES_BUDGET	"1000000"
/* fail_page_alloc min-order that no allocation reaches. */
#define ORDER_NONE	"32"

#define EV		3	/* the HardEvent the ioctl checks use */

enum attr {
	A_SLAB,
	A_PAGE,
	A_COPY,
	NR_ATTRS,
	A_NONE = NR_ATTRS,
};

static const char *const attr_dirs[NR_ATTRS] = {
	"failslab", "fail_page_alloc", "fail_usercopy",
};

/**
 * struct knob - a fault-injection setting changed by this program.
 * @path: its file.
 * @saved: the value it had, written back on exit.
 */
struct knob {
	char path[PATH_MAX];
	char saved[64];
};

static struct knob knobs[64];
static unsigned int nknobs;
static bool have_attr[NR_ATTRS];
static int nth_fd = -1;
static const char *dev_path;
static bool verbose;

/**
 * struct trial - what one system call under fault injection did.
 * @n: the point that was to fail.
 * @attr: the attribute of the fault injected, or %A_NONE if the call
 *	passed fewer than @n points.
 * @err: 0 or the errno the call returned.
 */
struct trial {
	unsigned int n;
	enum attr attr;
	int err;
};

/**
 * struct tally - injected faults and their outcomes, per attribute.
 * @faults: faults injected.
 * @absorbed: of those, the ones after which the call still succeeded.
 * @errs: of those, the ones after which it failed with the expected error.
 * @bad: of those, the ones after which anything else happened.
 */
struct tally {
	unsigned int faults[NR_ATTRS];
	unsigned int absorbed[NR_ATTRS];
	unsigned int errs[NR_ATTRS];
	unsigned int bad[NR_ATTRS];
};

static void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print one "# " line. */
static void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/* ---- fault-injection settings ------------------------------------------- */

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* Set DEBUGFS/@dir/@name to @val, remembering the old value for exit. */
static void knob_set(const char *dir, const char *name, const char *val)
{
	struct knob *k = NULL;
	char path[PATH_MAX];
	unsigned int i;
	int ret;

	snprintf(path, sizeof(path), DEBUGFS "/%s/%s", dir, name);
	for (i = 0; i < nknobs; i++)
		if (!strcmp(knobs[i].path, path))
			k = &knobs[i];
	if (!k) {
		if (nknobs == ARRAY_SIZE(knobs))
			ksft_exit_fail_msg("too many settings\n");
		k = &knobs[nknobs];
		strcpy(k->path, path);
		if (read_file(path, k->saved, sizeof(k->saved)))
			ksft_exit_fail_msg("cannot read %s\n", path);
		nknobs++;
	}
	ret = write_file(path, val);
	if (ret)
		ksft_exit_fail_msg("cannot write %s to %s: %s\n", val, path, strerror(-ret));
}

/* Put back every setting changed, in reverse order. */
static void knobs_restore(void)
{
	while (nknobs) {
		nknobs--;
		write_file(knobs[nknobs].path, knobs[nknobs].saved);
	}
}

static long times_read(enum attr a)
{
	char path[PATH_MAX], buf[32];
	int ret;

	if (!have_attr[a])
		return 0;
	snprintf(path, sizeof(path), DEBUGFS "/%s/times", attr_dirs[a]);
	ret = read_file(path, buf, sizeof(buf));
	if (ret)
		ksft_exit_fail_msg("cannot read %s: %s\n", path, strerror(-ret));
	return strtol(buf, NULL, 10);
}

static void times_snapshot(long t[NR_ATTRS])
{
	int a;

	for (a = 0; a < NR_ATTRS; a++)
		t[a] = times_read(a);
}

/* Whether the kernel has fault injection the way this program uses it. */
static const char *why_unsupported(void)
{
	char path[PATH_MAX];
	struct stat st;
	int a;

	if (geteuid())
		return "needs root";
	if (stat(FAIL_NTH, &st))
		return "no " FAIL_NTH " (kernel without CONFIG_FAULT_INJECTION)";
	for (a = A_SLAB; a <= A_PAGE; a++) {
		snprintf(path, sizeof(path), DEBUGFS "/%s/times", attr_dirs[a]);
		if (stat(path, &st))
			return "no " DEBUGFS "/failslab or fail_page_alloc (kernel without CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC or CONFIG_FAULT_INJECTION_DEBUG_FS, or debugfs not mounted)";
	}
	return NULL;
}

/*
 * Fault attributes quiet (verbose 0: no stack dump in the kernel log),
 * never failing on their own (probability 0), counting injections down
 * from TIMES_BUDGET, and taking GFP_KERNEL allocations into account.
 */
static void setup_attrs(void)
{
	char path[PATH_MAX], val[32] = "";
	int a;

	for (a = 0; a < NR_ATTRS; a++) {
		snprintf(path, sizeof(path), DEBUGFS "/%s/times", attr_dirs[a]);
		if (a == A_COPY && access(path, F_OK)) {
			msg("no %s: user copies cannot fail (CONFIG_FAULT_INJECTION_USERCOPY)",
			    attr_dirs[a]);
			continue;
		}
		snprintf(path, sizeof(path), DEBUGFS "/%s/probability", attr_dirs[a]);
		if (read_file(path, val, sizeof(val)) || strcmp(val, "0"))
			ksft_exit_fail_msg("%s is in use (probability %s)\n", attr_dirs[a], val);
		knob_set(attr_dirs[a], "verbose", "0");
		knob_set(attr_dirs[a], "times", TIMES_BUDGET);
		have_attr[a] = true;
	}
	knob_set("failslab", "ignore-gfp-wait", "N");
	knob_set("failslab", "cache-filter", "N");
	knob_set("fail_page_alloc", "ignore-gfp-wait", "N");
	knob_set("fail_page_alloc", "min-order", "0");
}

/* Which allocations take part: every slab cache or only flagged ones, pages or not. */
static void select_points(bool all_caches, bool pages)
{
	knob_set("failslab", "cache-filter", all_caches ? "N" : "Y");
	knob_set("fail_page_alloc", "min-order", pages ? "0" : ORDER_NONE);
}

/* ---- one system call with its N-th point failing ------------------------ */

/**
 * struct call - a system call to run under fault injection.
 * @name: for messages.
 * @prepare: run before it, without faults; returns 0 or a reason in @why.
 * @run: the call itself and nothing else (any other system call would pass
 *	points of its own); returns 0 or an errno.
 * @check: run after it, without faults, given what happened; returns 0 or
 *	a reason in @why.
 * @dev: the device path for opens.
 * @fd: an open of the device for ioctls, set up by the caller.
 * @newfd: what an open under test returned.
 * @u: scratch state for the checks.
 */
struct call {
	const char *name;
	int (*prepare)(struct call *c, char *why, size_t len);
	int (*run)(struct call *c);
	int (*check)(struct call *c, const struct trial *t, char *why, size_t len);
	const char *dev;
	int fd;
	int newfd;
	union {
		struct asc_event_ref ref;
		struct asc_event_wait wait;
		struct asc_event_reset reset;
		struct asc_event_info info;
		struct asc_event_bind bind;
		struct asc_event_mode mode;
		struct asc_event_launch launch;
		struct asc_event_join join;
	} u;
};

/*
 * Arm the N-th point, make the call, disarm, and find out from the
 * attributes' counters which one (if any) injected a fault in the call.
 */
static void trial_run(struct call *c, unsigned int n, struct trial *t)
{
	long before[NR_ATTRS], after[NR_ATTRS];
	char num[16];
	int a, hits = 0;

	t->n = n;
	t->attr = A_NONE;
	times_snapshot(before);
	snprintf(num, sizeof(num), "%u", n);
	if (pwrite(nth_fd, num, strlen(num), 0) < 0)
		ksft_exit_fail_msg("write %s: %s\n", FAIL_NTH, strerror(errno));
	t->err = c->run(c);
	/*
	 * Disarm.  If the call passed fewer than n points, this write passes
	 * one more (its own copy from user): when that was the n-th, it is the
	 * write that fails, with EFAULT, and it is not the call's fault.
	 */
	if (pwrite(nth_fd, "0", 1, 0) < 0) {
		if (errno != EFAULT)
			ksft_exit_fail_msg("write %s: %s\n", FAIL_NTH, strerror(errno));
		before[A_COPY]--;
	}
	times_snapshot(after);
	for (a = 0; a < NR_ATTRS; a++) {
		if (before[a] - after[a] == 1) {
			t->attr = a;
			hits++;
		} else if (before[a] != after[a]) {
			hits += 2;
		}
	}
	if (hits > 1)
		ksft_exit_fail_msg("%s: point %u: %d faults counted, expected at most one (is someone else injecting faults?)\n",
				   c->name, n, hits);
}

/**
 * struct sweep_log - the ENOMEM outcomes of one sweep, in point order.
 * @n: how many.
 * @point: the point numbers.
 * @attr: the attribute each fault belonged to.
 */
struct sweep_log {
	unsigned int n;
	unsigned int point[MAX_POINTS];
	enum attr attr[MAX_POINTS];
};

/*
 * Sweep the points of @c once: N = 1, 2, ... until two calls in a row pass
 * fewer than N points.  Every injected fault is checked and tallied in
 * @tl: an allocation fault must give ENOMEM or be absorbed, a user-copy
 * fault EFAULT, and the call's check must pass.  The faults that gave
 * ENOMEM go to @log unless it is NULL.
 *
 * Return: how many outcomes were unclean.
 */
static unsigned int sweep_once(struct call *c, struct tally *tl, struct sweep_log *log)
{
	static const int expect[NR_ATTRS] = { ENOMEM, ENOMEM, EFAULT };
	unsigned int n, misses = 0, bad = 0;
	char why[256];
	struct trial t;

	if (log)
		log->n = 0;
	for (n = 1; n <= MAX_POINTS && misses < 2; n++) {
		why[0] = 0;
		if (c->prepare && c->prepare(c, why, sizeof(why))) {
			ksft_print_msg("%s: set-up before point %u failed: %s\n",
				       c->name, n, why);
			return bad + 1;
		}
		trial_run(c, n, &t);
		if (t.attr == A_NONE) {
			misses++;
		} else {
			misses = 0;
			tl->faults[t.attr]++;
		}
		why[0] = 0;
		if (t.attr != A_NONE && t.err && t.err != expect[t.attr])
			snprintf(why, sizeof(why), "expected %s or success",
				 strerror(expect[t.attr]));
		else if (c->check)
			c->check(c, &t, why, sizeof(why));
		if (t.attr != A_NONE) {
			if (why[0])
				tl->bad[t.attr]++;
			else if (t.err)
				tl->errs[t.attr]++;
			else
				tl->absorbed[t.attr]++;
		}
		if (log && t.attr != A_NONE && t.err == ENOMEM) {
			log->point[log->n] = n;
			log->attr[log->n++] = t.attr;
		}
		if (why[0]) {
			bad++;
			ksft_print_msg("%s: point %u (%s): %s: %s\n", c->name, n,
				       t.attr == A_NONE ? "no fault" : attr_dirs[t.attr],
				       t.err ? strerror(t.err) : "success", why);
		} else if (verbose && t.attr != A_NONE) {
			ksft_print_msg("%s: point %u: %s -> %s\n", c->name, n,
				       attr_dirs[t.attr],
				       t.err ? strerror(t.err) : "success (absorbed)");
		}
	}
	if (n > MAX_POINTS) {
		ksft_print_msg("%s: more than %d fault points\n", c->name, MAX_POINTS);
		bad++;
	}
	return bad;
}

/* sweep_once() @rounds times. */
static unsigned int sweep(struct call *c, struct tally *tl, int rounds)
{
	unsigned int bad = 0;
	int round;

	for (round = 0; round < rounds; round++)
		bad += sweep_once(c, tl, NULL);
	return bad;
}

/* ---- the device --------------------------------------------------------- */

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static int ref_ioctl(int fd, unsigned long cmd, uint32_t event, uint32_t id, uint32_t *out)
{
	struct asc_event_ref ref = { .event = event, .id = id };
	int err = xioctl(fd, cmd, &ref);

	if (!err && out)
		*out = ref.id;
	return err;
}

/* SET_MODE: 0 or an errno. */
static int set_mode(int fd, uint32_t mode)
{
	struct asc_event_mode m = { .mode = mode };

	return xioctl(fd, ASC_EVENT_IOC_SET_MODE, &m);
}

/* GET_MODE: 0 or an errno; the mode to *@mode. */
static int get_mode(int fd, uint32_t *mode)
{
	struct asc_event_mode m = { .mode = ~0U, .pad = ~0U };
	int err = xioctl(fd, ASC_EVENT_IOC_GET_MODE, &m);

	*mode = err || m.pad ? ~0U : m.mode;
	return err;
}

/* BIND_PIPE of the calling thread: 0 or an errno. */
static int bind_pipe(int fd, int32_t pipe)
{
	struct asc_event_bind b = { .pipe = pipe };

	return xioctl(fd, ASC_EVENT_IOC_BIND_PIPE, &b);
}

static int wait0(int fd, uint32_t event, uint32_t id)
{
	struct asc_event_wait w = { .deadline = 0, .event = event, .id = id };

	return xioctl(fd, ASC_EVENT_IOC_WAIT_FLAG, &w);
}

static int reset_counts(int fd, uint32_t *held, uint32_t *pending)
{
	struct asc_event_reset r = { 0 };
	int err = xioctl(fd, ASC_EVENT_IOC_RESET, &r);

	*held = r.ids_held;
	*pending = r.flags_pending;
	return err;
}

#define FAIL_IF(cond, ...) do {						\
	if (cond) {							\
		snprintf(why, len, __VA_ARGS__);			\
		return -1;						\
	}								\
} while (0)

/*
 * A fresh TPipe behind @fd works: INFO, two allocations, a set that is
 * then busy, a wait that consumes it, a reset that finds what is left.
 */
static int tpipe_works(int fd, char *why, size_t len)
{
	struct asc_event_info info = { 0 };
	uint32_t id = 99, held, pending;
	int err;

	err = xioctl(fd, ASC_EVENT_IOC_INFO, &info);
	FAIL_IF(err || info.abi_version != ASC_EVENT_ABI_VERSION ||
		info.nr_events != ASC_EVENT_NR_HARD_EVENTS || !info.event_ids ||
		info.event_ids > ASC_EVENT_IDS_MAX,
		"INFO: %s", err ? strerror(err) : "wrong values");
	err = ref_ioctl(fd, ASC_EVENT_IOC_ALLOC_ID, EV, 0, &id);
	FAIL_IF(err || id != 0, "first ALLOC_ID: %s, id %u", strerror(err), id);
	err = ref_ioctl(fd, ASC_EVENT_IOC_FETCH_ID, EV, 0, &id);
	FAIL_IF(info.event_ids > 1 && (err || id != 1), "FETCH_ID: %s, id %u",
		strerror(err), id);
	err = ref_ioctl(fd, ASC_EVENT_IOC_SET_FLAG, EV, 0, NULL);
	FAIL_IF(err, "SET_FLAG: %s", strerror(err));
	err = ref_ioctl(fd, ASC_EVENT_IOC_SET_FLAG, EV, 0, NULL);
	FAIL_IF(err != EBUSY, "second SET_FLAG: %s", strerror(err));
	err = wait0(fd, EV, 0);
	FAIL_IF(err, "WAIT_FLAG: %s", strerror(err));
	err = ref_ioctl(fd, ASC_EVENT_IOC_SET_FLAG, EV, 0, NULL);
	FAIL_IF(err, "SET_FLAG after the wait: %s", strerror(err));
	err = reset_counts(fd, &held, &pending);
	FAIL_IF(err || held != 1 || pending != 1, "RESET: %s, %u held, %u pending",
		strerror(err), held, pending);
	return 0;
}

/* A new open of the device works. */
static int device_works(char *why, size_t len)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC), ret;

	FAIL_IF(fd < 0, "the device does not open any more: %s", strerror(errno));
	ret = tpipe_works(fd, why, len);
	close(fd);
	return ret;
}

/* ---- calls: open and close ---------------------------------------------- */

static int run_open(struct call *c)
{
	c->newfd = open(c->dev, O_RDWR | O_CLOEXEC);
	return c->newfd < 0 ? errno : 0;
}

/*
 * After an open under fault injection: what it opened works, or, when it
 * failed, a new open of the device works.
 */
static int check_open(struct call *c, const struct trial *t, char *why, size_t len)
{
	int ret = 0;

	FAIL_IF(t->attr == A_NONE && t->err, "open failed without a fault");
	if (c->newfd >= 0) {
		if (c->dev == dev_path)
			ret = tpipe_works(c->newfd, why, len);
		close(c->newfd);
		c->newfd = -1;
	} else if (c->dev == dev_path) {
		ret = device_works(why, len);
	}
	return ret;
}

static int prepare_close(struct call *c, char *why, size_t len)
{
	uint32_t id;

	c->fd = open(dev_path, O_RDWR | O_CLOEXEC);
	FAIL_IF(c->fd < 0, "open: %s", strerror(errno));
	FAIL_IF(set_mode(c->fd, 0), "SET_MODE 0: %s", strerror(errno));
	/* something to clean up */
	FAIL_IF(ref_ioctl(c->fd, ASC_EVENT_IOC_ALLOC_ID, EV, 0, &id) ||
		ref_ioctl(c->fd, ASC_EVENT_IOC_SET_FLAG, EV, 1, NULL),
		"set-up ioctls failed");
	return 0;
}

static int run_close(struct call *c)
{
	return close(c->fd) ? errno : 0;
}

static int check_close(struct call *c, const struct trial *t, char *why, size_t len)
{
	(void)c;
	FAIL_IF(t->err, "close: %s", strerror(t->err));
	return device_works(why, len);
}

/* ---- calls: the ioctls -------------------------------------------------- */

/*
 * Each ioctl runs on a TPipe prepared by its prepare function; its check
 * function looks at the TPipe afterwards: a fault that failed the ioctl
 * must have left it as documented for that error, else the ioctl must have
 * done its job.
 */

static int prepare_empty(struct call *c, char *why, size_t len)
{
	uint32_t held, pending;

	FAIL_IF(reset_counts(c->fd, &held, &pending), "RESET: %s", strerror(errno));
	return 0;
}

static int prepare_one_id(struct call *c, char *why, size_t len)
{
	uint32_t id = 99;

	if (prepare_empty(c, why, len))
		return -1;
	FAIL_IF(ref_ioctl(c->fd, ASC_EVENT_IOC_ALLOC_ID, EV, 0, &id) || id,
		"ALLOC_ID: id %u", id);
	return 0;
}

static int prepare_one_flag(struct call *c, char *why, size_t len)
{
	if (prepare_empty(c, why, len))
		return -1;
	FAIL_IF(ref_ioctl(c->fd, ASC_EVENT_IOC_SET_FLAG, EV, 1, NULL), "SET_FLAG failed");
	return 0;
}

static int prepare_id_and_flag(struct call *c, char *why, size_t len)
{
	if (prepare_one_id(c, why, len))
		return -1;
	FAIL_IF(ref_ioctl(c->fd, ASC_EVENT_IOC_SET_FLAG, EV, 1, NULL), "SET_FLAG failed");
	return 0;
}

static int run_info(struct call *c)
{
	memset(&c->u.info, 0, sizeof(c->u.info));
	return xioctl(c->fd, ASC_EVENT_IOC_INFO, &c->u.info);
}

static int check_info(struct call *c, const struct trial *t, char *why, size_t len)
{
	FAIL_IF(!t->err && (c->u.info.abi_version != ASC_EVENT_ABI_VERSION ||
			    c->u.info.nr_events != ASC_EVENT_NR_HARD_EVENTS),
		"INFO reported wrong values");
	FAIL_IF(t->attr == A_NONE && t->err, "INFO failed without a fault");
	return 0;
}

static int run_ref(struct call *c, unsigned long cmd, uint32_t id)
{
	c->u.ref = (struct asc_event_ref){ .event = EV, .id = id };
	return xioctl(c->fd, cmd, &c->u.ref);
}

static int run_alloc(struct call *c)
{
	return run_ref(c, ASC_EVENT_IOC_ALLOC_ID, 0);
}

/* Prepared: ID 0 taken.  Success takes ID 1; EFAULT takes nothing. */
static int check_alloc(struct call *c, const struct trial *t, char *why, size_t len)
{
	uint32_t low = 99;
	int err = ref_ioctl(c->fd, ASC_EVENT_IOC_FETCH_ID, EV, 0, &low);

	FAIL_IF(t->attr == A_NONE && t->err, "ALLOC_ID failed without a fault");
	FAIL_IF(!t->err && c->u.ref.id != 1, "ALLOC_ID gave id %u, not 1", c->u.ref.id);
	FAIL_IF(err || low != (t->err ? 1u : 2u),
		"after ALLOC_ID (%s) the lowest free id is %u", t->err ? "failed" : "done", low);
	return 0;
}

static int run_fetch(struct call *c)
{
	return run_ref(c, ASC_EVENT_IOC_FETCH_ID, 0);
}

/* Prepared: ID 0 taken.  FETCH_ID reports 1 and takes nothing either way. */
static int check_fetch(struct call *c, const struct trial *t, char *why, size_t len)
{
	uint32_t id = 99;
	int err = ref_ioctl(c->fd, ASC_EVENT_IOC_ALLOC_ID, EV, 0, &id);

	FAIL_IF(t->attr == A_NONE && t->err, "FETCH_ID failed without a fault");
	FAIL_IF(!t->err && c->u.ref.id != 1, "FETCH_ID gave id %u, not 1", c->u.ref.id);
	FAIL_IF(err || id != 1, "after FETCH_ID, ALLOC_ID gave %u, not 1", id);
	return 0;
}

static int run_release(struct call *c)
{
	return run_ref(c, ASC_EVENT_IOC_RELEASE_ID, 0);
}

/* Prepared: ID 0 taken.  Success frees it; EFAULT leaves it taken. */
static int check_release(struct call *c, const struct trial *t, char *why, size_t len)
{
	int err = ref_ioctl(c->fd, ASC_EVENT_IOC_RELEASE_ID, EV, 0, NULL);

	FAIL_IF(t->attr == A_NONE && t->err, "RELEASE_ID failed without a fault");
	FAIL_IF(err != (t->err ? 0 : ENOENT), "after RELEASE_ID (%s) a second one gave %s",
		t->err ? "failed" : "done", strerror(err));
	return 0;
}

static int run_set(struct call *c)
{
	return run_ref(c, ASC_EVENT_IOC_SET_FLAG, 1);
}

/* Prepared: empty.  Success sets the flag; EFAULT does not. */
static int check_set(struct call *c, const struct trial *t, char *why, size_t len)
{
	int err = wait0(c->fd, EV, 1);

	FAIL_IF(t->attr == A_NONE && t->err, "SET_FLAG failed without a fault");
	FAIL_IF(err != (t->err ? ETIMEDOUT : 0), "after SET_FLAG (%s) a wait gave %s",
		t->err ? "failed" : "done", strerror(err));
	return 0;
}

static int run_wait(struct call *c)
{
	c->u.wait = (struct asc_event_wait){ .deadline = 0, .event = EV, .id = 1 };
	return xioctl(c->fd, ASC_EVENT_IOC_WAIT_FLAG, &c->u.wait);
}

/* Prepared: the flag set.  Success consumes it; EFAULT leaves it set. */
static int check_wait(struct call *c, const struct trial *t, char *why, size_t len)
{
	int err = wait0(c->fd, EV, 1);

	FAIL_IF(t->attr == A_NONE && t->err, "WAIT_FLAG failed without a fault");
	FAIL_IF(err != (t->err ? 0 : ETIMEDOUT), "after WAIT_FLAG (%s) a second wait gave %s",
		t->err ? "failed" : "done", strerror(err));
	return 0;
}

/*
 * Prepared: empty, and a deadline 2 ms ahead.  The clock is read here, not
 * in the call: without a usable vDSO clock (as under TCG) clock_gettime()
 * is a system call with a user copy of its own, which would take the fault.
 */
static int prepare_sleep(struct call *c, char *why, size_t len)
{
	struct timespec ts;

	if (prepare_empty(c, why, len))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->u.wait = (struct asc_event_wait){
		.deadline = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec + 2000000,
		.event = EV, .id = 1,
	};
	return 0;
}

static int run_wait_sleep(struct call *c)
{
	return xioctl(c->fd, ASC_EVENT_IOC_WAIT_FLAG, &c->u.wait);
}

/* The wait sleeps 2 ms and times out, or faults at once. */
static int check_wait_sleep(struct call *c, const struct trial *t, char *why, size_t len)
{
	(void)c;
	FAIL_IF(t->attr == A_NONE && t->err != ETIMEDOUT,
		"a sleeping WAIT_FLAG gave %s, not ETIMEDOUT", strerror(t->err));
	FAIL_IF(t->attr != A_NONE && t->err && t->err != EFAULT && t->err != ETIMEDOUT,
		"a sleeping WAIT_FLAG gave %s", strerror(t->err));
	return 0;
}

static int run_reset(struct call *c)
{
	memset(&c->u.reset, 0, sizeof(c->u.reset));
	return xioctl(c->fd, ASC_EVENT_IOC_RESET, &c->u.reset);
}

/*
 * Prepared: one ID and one flag.  A fault in copying the arguments in
 * (the first user copy) fails the call and changes nothing; a fault in
 * copying the counts out (the second) is retried, and the call succeeds.
 */
static int check_reset(struct call *c, const struct trial *t, char *why, size_t len)
{
	uint32_t held, pending, left = 1;
	int err = reset_counts(c->fd, &held, &pending);

	FAIL_IF(t->attr == A_NONE && t->err, "RESET failed without a fault");
	FAIL_IF(!t->err && (c->u.reset.ids_held != 1 || c->u.reset.flags_pending != 1),
		"RESET reported %u/%u, not 1/1", c->u.reset.ids_held, c->u.reset.flags_pending);
	if (!t->err)
		left = 0;
	FAIL_IF(err || held != left || pending != left,
		"after RESET (%s at point %u) a second RESET found %u/%u, expected %u/%u",
		t->err ? strerror(t->err) : "success", t->n, held, pending, left, left);
	return 0;
}

/* Prepared: unchecked mode.  GET_MODE reports it, fault or not. */
static int run_get_mode(struct call *c)
{
	memset(&c->u.mode, 0xa5, sizeof(c->u.mode));
	return xioctl(c->fd, ASC_EVENT_IOC_GET_MODE, &c->u.mode);
}

static int check_get_mode(struct call *c, const struct trial *t, char *why, size_t len)
{
	uint32_t mode;
	int err = get_mode(c->fd, &mode);

	FAIL_IF(t->attr == A_NONE && t->err, "GET_MODE failed without a fault");
	FAIL_IF(!t->err && (c->u.mode.mode || c->u.mode.pad), "GET_MODE reported %u/%u, not 0/0",
		c->u.mode.mode, c->u.mode.pad);
	FAIL_IF(err || mode, "after GET_MODE the mode is %#x (%s)", mode, strerror(err));
	return 0;
}

static int prepare_unchecked(struct call *c, char *why, size_t len)
{
	FAIL_IF(set_mode(c->fd, 0), "SET_MODE 0: %s", strerror(errno));
	return 0;
}

static int run_set_mode(struct call *c)
{
	c->u.mode = (struct asc_event_mode){ .mode = ASC_EVENT_MODE_CHECKED };
	return xioctl(c->fd, ASC_EVENT_IOC_SET_MODE, &c->u.mode);
}

/* Prepared: unchecked.  Success turns checked mode on; EFAULT does not. */
static int check_set_mode(struct call *c, const struct trial *t, char *why, size_t len)
{
	uint32_t mode;
	int err = get_mode(c->fd, &mode);

	FAIL_IF(t->attr == A_NONE && t->err, "SET_MODE failed without a fault");
	FAIL_IF(err || mode != (t->err ? 0 : ASC_EVENT_MODE_CHECKED),
		"after SET_MODE (%s) the mode is %#x", t->err ? "failed" : "done", mode);
	return prepare_unchecked(c, why, len);
}

/*
 * Prepared: ID 0 of EV taken, the thread unbound, checked (the mode cannot
 * change once the thread is bound).
 */
static int prepare_bind(struct call *c, char *why, size_t len)
{
	if (prepare_one_id(c, why, len))
		return -1;
	FAIL_IF(bind_pipe(c->fd, ASC_EVENT_PIPE_NONE), "BIND_PIPE NONE: %s", strerror(errno));
	FAIL_IF(set_mode(c->fd, ASC_EVENT_MODE_CHECKED), "SET_MODE: %s", strerror(errno));
	return 0;
}

static int run_bind(struct call *c)
{
	c->u.bind = (struct asc_event_bind){ .pipe = ASC_EVENT_PIPE_V };
	return xioctl(c->fd, ASC_EVENT_IOC_BIND_PIPE, &c->u.bind);
}

/*
 * Success binds the thread to V, a failure does not: in checked mode a set
 * of EV (source M) is then EPERM, or goes through.
 */
static int check_bind(struct call *c, const struct trial *t, char *why, size_t len)
{
	int err = ref_ioctl(c->fd, ASC_EVENT_IOC_SET_FLAG, EV, 0, NULL);

	FAIL_IF(bind_pipe(c->fd, ASC_EVENT_PIPE_NONE), "BIND_PIPE NONE: %s", strerror(errno));
	if (prepare_unchecked(c, why, len))
		return -1;
	FAIL_IF(t->attr == A_NONE && t->err, "BIND_PIPE failed without a fault");
	FAIL_IF(err != (t->err ? 0 : EPERM), "after BIND_PIPE (%s) a set from the thread gave %s",
		t->err ? "failed" : "done", strerror(err));
	return 0;
}

/*
 * LAUNCH makes a launch and its file descriptor; a failure makes neither:
 * the lowest free descriptor, noted before, is still free.
 */
static int prepare_launch(struct call *c, char *why, size_t len)
{
	c->newfd = dup(c->fd);
	FAIL_IF(c->newfd < 0, "dup: %s", strerror(errno));
	close(c->newfd);
	return 0;
}

static int run_launch(struct call *c)
{
	c->u.launch = (struct asc_event_launch){ .kind = ASC_EVENT_LAUNCH_AIV,
						 .block_dim = 2, .fd = -1 };
	return xioctl(c->fd, ASC_EVENT_IOC_LAUNCH, &c->u.launch);
}

static int check_launch(struct call *c, const struct trial *t, char *why, size_t len)
{
	int lfd = c->u.launch.fd, tp, err = 0;

	FAIL_IF(t->attr == A_NONE && t->err, "LAUNCH failed without a fault");
	if (t->err) {
		FAIL_IF(fcntl(c->newfd, F_GETFD) >= 0,
			"LAUNCH failed (%s) but made descriptor %d", strerror(t->err), c->newfd);
		return 0;
	}
	FAIL_IF(lfd < 0 || fcntl(lfd, F_GETFD) != FD_CLOEXEC,
		"LAUNCH gave descriptor %d, not an open close-on-exec one", lfd);
	tp = open(dev_path, O_RDWR | O_CLOEXEC);
	if (tp < 0)
		err = errno;
	else if (xioctl(tp, ASC_EVENT_IOC_JOIN,
			&(struct asc_event_join){ .launch_fd = lfd, .core = 1 }))
		err = errno;
	if (tp >= 0)
		close(tp);
	close(lfd);
	FAIL_IF(err, "joining the launch LAUNCH made: %s", strerror(err));
	return 0;
}

/*
 * JOIN makes a fresh TPipe core 0 of a launch of two; a failure leaves it
 * out and core 0 free: another TPipe joins as core 0, and the first can
 * still join (as core 1).
 */
static int prepare_join(struct call *c, char *why, size_t len)
{
	struct asc_event_launch l = { .kind = ASC_EVENT_LAUNCH_AIV, .block_dim = 2 };

	FAIL_IF(xioctl(c->fd, ASC_EVENT_IOC_LAUNCH, &l), "LAUNCH: %s", strerror(errno));
	c->newfd = open(dev_path, O_RDWR | O_CLOEXEC);
	if (c->newfd < 0)
		close(l.fd);
	FAIL_IF(c->newfd < 0, "open: %s", strerror(errno));
	c->u.join = (struct asc_event_join){ .launch_fd = l.fd, .core = 0 };
	return 0;
}

static int run_join(struct call *c)
{
	return xioctl(c->newfd, ASC_EVENT_IOC_JOIN, &c->u.join);
}

static int check_join(struct call *c, const struct trial *t, char *why, size_t len)
{
	struct asc_event_core_info ci = { 0 };
	int info = xioctl(c->newfd, ASC_EVENT_IOC_CORE_INFO, &ci);
	int other = open(dev_path, O_RDWR | O_CLOEXEC), join0 = EBADF, rejoin = 0;

	if (other >= 0) {
		join0 = xioctl(other, ASC_EVENT_IOC_JOIN, &c->u.join);
		close(other);
	}
	if (t->err)
		rejoin = xioctl(c->newfd, ASC_EVENT_IOC_JOIN,
				&(struct asc_event_join){ .launch_fd = c->u.join.launch_fd,
							  .core = 1 });
	close(c->newfd);
	close(c->u.join.launch_fd);
	c->newfd = -1;
	FAIL_IF(t->attr == A_NONE && t->err, "JOIN failed without a fault");
	if (t->err) {
		FAIL_IF(!info, "JOIN failed (%s) but CORE_INFO says core %u",
			strerror(t->err), ci.core);
		FAIL_IF(join0, "JOIN failed (%s) and core 0 is taken: %s",
			strerror(t->err), strerror(join0));
		FAIL_IF(rejoin, "JOIN failed (%s) and a second JOIN failed: %s",
			strerror(t->err), strerror(rejoin));
		return 0;
	}
	FAIL_IF(info || ci.core != 0 || ci.block_num != 2,
		"after JOIN, CORE_INFO: %s, core %u of %u", strerror(info), ci.core,
		ci.block_num);
	FAIL_IF(join0 != EBUSY, "after JOIN, core 0 joined again: %s", strerror(join0));
	return 0;
}

/* ---- the run ------------------------------------------------------------ */

static void tally_add(struct tally *to, const struct tally *from)
{
	int a;

	for (a = 0; a < NR_ATTRS; a++) {
		to->faults[a] += from->faults[a];
		to->absorbed[a] += from->absorbed[a];
		to->errs[a] += from->errs[a];
		to->bad[a] += from->bad[a];
	}
}

static void tally_print(const char *what, const struct tally *tl)
{
	char line[512];
	size_t off = 0;
	int a;

	off += snprintf(line + off, sizeof(line) - off, "%s:", what);
	for (a = 0; a < NR_ATTRS; a++) {
		if (!tl->faults[a] && a == A_COPY && !have_attr[A_COPY])
			continue;
		off += snprintf(line + off, sizeof(line) - off,
				"%s %s %u (%u -> %s, %u absorbed%s)", a ? ";" : "",
				attr_dirs[a], tl->faults[a], tl->errs[a],
				a == A_COPY ? "EFAULT" : "ENOMEM", tl->absorbed[a],
				tl->bad[a] ? ", SOME UNCLEAN" : "");
	}
	msg("%s", line);
}

/**
 * struct site - one allocation site of the driver in open().
 * @what: what it is.
 * @attr: the fault attribute its allocations go through.
 * @faults: faults injected at it.
 * @enomem: of those, the ones that failed open() with ENOMEM.
 * @rounds: sweeps that located it.
 */
struct site {
	const char *what;
	enum attr attr;
	unsigned int faults;
	unsigned int enomem;
	unsigned int rounds;
};

static void log_print(const char *name, const struct sweep_log *log)
{
	char line[512];
	size_t off = 0;
	unsigned int i;

	for (i = 0; i < log->n && off < sizeof(line) - 32; i++)
		off += snprintf(line + off, sizeof(line) - off, " %u", log->point[i]);
	ksft_print_msg("%s: ENOMEM at point%s\n", name, log->n ? line : "s: none");
}

/*
 * Locate the driver's allocation site of the kind @site->attr in open(),
 * with only that kind of allocation taking part: sweep open() of the device
 * and of CONTROL_DEV, @rounds times in agreement.  The device's ENOMEM
 * points must begin with the control's, at the same point numbers (the
 * VFS's allocations, which come first); the ones after those are the
 * driver's.  A round whose two sweeps disagree (an allocation of the
 * kernel's own, such as a slab refill, came and went between them), or
 * whose fault an allocation of the kernel's own took instead, is swept
 * again, up to 3 * @rounds more times.
 */
static void locate_site(struct site *site, int rounds, unsigned int *bad, struct tally *all)
{
	struct call open_dev = { .name = "open(device)", .run = run_open,
				 .check = check_open, .newfd = -1 };
	struct call open_ctl = { .name = "open(" CONTROL_DEV ")", .run = run_open,
				 .check = check_open, .newfd = -1, .dev = CONTROL_DEV };
	static struct sweep_log ld, lc;
	struct tally td = { 0 }, tc = { 0 };
	int tries = 4 * rounds;
	unsigned int i, mine;

	open_dev.dev = dev_path;
	select_points(site->attr == A_SLAB, site->attr == A_PAGE);
	while (site->rounds < (unsigned int)rounds && tries--) {
		*bad += sweep_once(&open_dev, &td, &ld);
		*bad += sweep_once(&open_ctl, &tc, &lc);
		if (verbose) {
			log_print(open_dev.name, &ld);
			log_print(open_ctl.name, &lc);
		}
		for (i = 0; i < lc.n; i++)
			if (i >= ld.n || ld.point[i] != lc.point[i] || ld.attr[i] != lc.attr[i])
				break;
		if (i < lc.n) {
			ksft_print_msg("%s: open(device) and open(%s) disagree on the VFS's points; again\n",
				       site->what, CONTROL_DEV);
			continue;
		}
		for (mine = 0; i < ld.n; i++)
			mine += ld.attr[i] == site->attr;
		site->faults += mine;
		site->enomem += mine;
		site->rounds += mine > 0;
	}
	tally_add(all, &td);
	msg("%s: open(device) %u faults (%u ENOMEM), open(%s) %u faults (%u ENOMEM)",
	    attr_dirs[site->attr], td.faults[site->attr], td.errs[site->attr], CONTROL_DEV,
	    tc.faults[site->attr], tc.errs[site->attr]);
}

int main(int argc, char **argv)
{
	struct call ioctls[] = {
		{ .name = "INFO", .run = run_info, .check = check_info },
		{ .name = "ALLOC_ID", .prepare = prepare_one_id, .run = run_alloc, .check = check_alloc },
		{ .name = "FETCH_ID", .prepare = prepare_one_id, .run = run_fetch, .check = check_fetch },
		{ .name = "RELEASE_ID", .prepare = prepare_one_id, .run = run_release, .check = check_release },
		{ .name = "SET_FLAG", .prepare = prepare_empty, .run = run_set, .check = check_set },
		{ .name = "WAIT_FLAG", .prepare = prepare_one_flag, .run = run_wait, .check = check_wait },
		{ .name = "WAIT_FLAG (sleeping)", .prepare = prepare_sleep, .run = run_wait_sleep, .check = check_wait_sleep },
		{ .name = "RESET", .prepare = prepare_id_and_flag, .run = run_reset, .check = check_reset },
		{ .name = "BIND_PIPE", .prepare = prepare_bind, .run = run_bind, .check = check_bind },
		{ .name = "GET_MODE", .prepare = prepare_unchecked, .run = run_get_mode, .check = check_get_mode },
		{ .name = "SET_MODE", .prepare = prepare_unchecked, .run = run_set_mode, .check = check_set_mode },
		{ .name = "LAUNCH", .prepare = prepare_launch, .run = run_launch, .check = check_launch },
		{ .name = "JOIN", .prepare = prepare_join, .run = run_join, .check = check_join },
	};
	struct call open_all = { .name = "open(device)", .run = run_open,
				 .check = check_open, .newfd = -1 };
	struct call close_call = { .name = "close", .prepare = prepare_close,
				   .run = run_close, .check = check_close };
	struct tally t_open = { 0 }, t_find = { 0 }, t_ioctl = { 0 }, t_close = { 0 };
	unsigned int bad_open = 0, bad_find = 0, bad_ioctl = 0, bad_close = 0;
	struct site slab_site = { .what = "the TPipe, its register block and bitmap (slab)",
				  .attr = A_SLAB };
	unsigned int i, ioctl_allocs = 0, ioctl_nocopy = 0;
	const char *why;
	static char dev_buf[PATH_MAX];
	int rounds = 2, fd, a;
	const struct asc_option opts[] = {
		ASC_OPTION('r', rounds, 1, 0, "ROUNDS", "sweeps per call"),
		ASC_SWITCH('v', verbose, "print every injected fault"),
	};

	asc_parse_options(argc, argv, opts, ARRAY_SIZE(opts));

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	/*
	 * A copy the program has written: open() must not be the first to touch
	 * the page of the path, whose fault would be one more allocation point.
	 */
	snprintf(dev_buf, sizeof(dev_buf), "%s", asc_dev_path());
	dev_path = dev_buf;
	why = why_unsupported();
	if (why)
		ksft_exit_skip("%s\n", why);
	fd = open(dev_path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		ksft_exit_skip("%s: %s\n", dev_path, strerror(errno));
	nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (nth_fd < 0)
		ksft_exit_skip("%s: %s\n", FAIL_NTH, strerror(errno));
	if (set_mode(fd, 0))
		ksft_exit_fail_msg("SET_MODE 0: %s\n", strerror(errno));
	ksft_set_plan(4);
	atexit(knobs_restore);
	setup_attrs();

	/* 1: where the driver's allocations are, each failed. */
	locate_site(&slab_site, rounds, &bad_find, &t_find);
	msg("open site: %s: %u faults -> ENOMEM, in %u of %d sweeps", slab_site.what,
	    slab_site.enomem, slab_site.rounds, rounds);
	tally_print("open(device) while locating the sites", &t_find);
	ksft_test_result(slab_site.rounds == (unsigned int)rounds && !bad_find,
			 "open: the TPipe's and its register block's allocations failed, ENOMEM each time\n");

	/* 2: every point of open() at once. */
	select_points(true, true);
	open_all.dev = dev_path;
	bad_open = sweep(&open_all, &t_open, rounds);
	tally_print("open(device), every point", &t_open);
	ksft_test_result(!bad_open && t_open.errs[A_SLAB],
			 "open: every fault clean, the device works after each\n");

	/* 3: the ioctls: user copies, and report buffers only. */
	for (i = 0; i < ARRAY_SIZE(ioctls); i++) {
		struct tally ti = { 0 };

		ioctls[i].fd = fd;
		ioctls[i].newfd = -1;
		bad_ioctl += sweep(&ioctls[i], &ti, rounds);
		tally_print(ioctls[i].name, &ti);
		ioctl_allocs += ti.faults[A_SLAB] + ti.faults[A_PAGE];
		if (have_attr[A_COPY] && !ti.errs[A_COPY])
			ioctl_nocopy++;
		tally_add(&t_ioctl, &ti);
	}
	if (ioctl_allocs)
		msg("the ioctls passed %u allocation points (report buffers: absorbed)",
		    ioctl_allocs);
	ksft_test_result(!bad_ioctl && !ioctl_nocopy,
			 "ioctls: every user copy failed -> EFAULT or retried, TPipe as documented\n");

	/* 4: close() tears down without failing. */
	bad_close = sweep(&close_call, &t_close, rounds);
	tally_print("close", &t_close);
	ksft_test_result(!bad_close, "close: clean under fault injection\n");

	close(fd);
	for (a = 0; a < NR_ATTRS; a++)
		t_open.faults[a] += t_find.faults[a] + t_ioctl.faults[a] + t_close.faults[a];
	msg("faults injected in all: failslab %u, fail_page_alloc %u, fail_usercopy %u",
	    t_open.faults[A_SLAB], t_open.faults[A_PAGE], t_open.faults[A_COPY]);
	if (ksft_get_fail_cnt())
		ksft_exit_fail();
	ksft_exit_pass();
}
