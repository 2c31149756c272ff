// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event_reload: unload and load the module again and again, with
 * traffic on the device in between.
 *
 *   asc_event_reload [-n CYCLES]      (root; $ASC_EVENT_KO names the .ko)
 *
 * Each cycle, on the module as it is loaded:
 *  - opens the device and checks INFO reports the event_ids it was loaded
 *    with and the TPipe starts in checked mode (the default of the
 *    "checked" parameter, which no load here sets); allocates every ID of
 *    a HardEvent, sets and waits for flags on IDs allocated or fetched
 *    first, as checked mode wants; a waiter thread is woken by a set,
 *    another is canceled by a reset;
 *  - checks delete_module() is refused with EWOULDBLOCK while a waiter
 *    sleeps and while the descriptor is merely open, and that the module's
 *    refcnt counts the open;
 *  - gives the node to a group with mode 0660 (Documentation/admin.rst's
 *    chgrp/chmod), closes the descriptor, then delete_module() must succeed
 *    at once, and the module and its node must be gone;
 *  - loads $ASC_EVENT_KO with finit_module() and the next parameters of
 *    "" (the default, 8), "event_ids=4", "event_ids=64", "event_ids=1",
 *    and checks the parameter and a fresh node: 0600 root:root again.
 * At the end the module is loaded with the event_ids it had at the start
 * (the test runner removes it).  Prints TAP, one result per cycle and one
 * for the final reload; exit status 0 (all passed), 1 (a failure: the run
 * stops there, after putting the module back) or 4 (skipped: not root, no
 * $ASC_EVENT_KO, module not loaded).  Not in the default run: started by
 * hand or by "make check-all".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/asc_event.h>

#include "kselftest.h"
#include "asc_test_device.h"
#include "asc_test_util.h"
#include "asc_test_threads.h"

#define PARAM_PATH	MODULE_SYSFS "/parameters/event_ids"
#define REFCNT_PATH	MODULE_SYSFS "/refcnt"
#define EV		ASC_EVENT_MTE2_MTE1
#define GID_ASC		4200
#define DEFAULT_CYCLES	100

/* Parameters of the loads, in turn, and the event_ids each gives. */
static const struct {
	const char *params;
	int ids;
} loads[] = {
	{ "", 8 },
	{ "event_ids=4", 4 },
	{ "event_ids=64", 64 },
	{ "event_ids=1", 1 },
};

/*
 * FAIL_IF() - in a cycle: on a true @cond, print why (as a TAP comment) and
 * return -1 from the function.
 */
#define FAIL_IF(cond) do {						\
	if (cond) {							\
		ksft_print_msg("%s:%d: %s (errno %d: %s)\n", __FILE__,	\
			       __LINE__, #cond, errno, strerror(errno));\
		return -1;						\
	}								\
} while (0)

/* A small decimal number from a sysfs file, or -errno. */
static int read_sysfs_int(const char *path)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return atoi(buf);
}

/*
 * Unload, retrying for a while on EWOULDBLOCK: only to put the module back
 * after a failure, when a waiter may still be on its way out.
 */
static int module_unload_patiently(void)
{
	int i, ret = module_unload();

	for (i = 0; i < 200 && ret == -EWOULDBLOCK; i++) {
		asc_sleep_ms(10);
		ret = module_unload();
	}
	return ret;
}

/**
 * struct session - one open of the device during a cycle.
 * @fd: the descriptor.
 * @w: a waiter thread on @fd.
 * @live: @w is started and not joined yet.
 */
struct session {
	int fd;
	struct asc_test_waiter w;
	bool live;
};

/* Start a waiter on (EV, @id); once it sleeps, delete_module() is refused. */
static int start_blocked_waiter(struct session *s, int id)
{
	int ret;

	FAIL_IF(asc_waiter_start(&s->w, s->fd, EV, id, asc_deadline_ms(10000)));
	s->live = true;
	FAIL_IF(!asc_waiter_blocked(&s->w, 3000));
	ret = module_unload();
	if (ret != -EWOULDBLOCK) {
		ksft_print_msg("delete_module with a waiter asleep: %d, not %d\n",
			       ret, -EWOULDBLOCK);
		return -1;
	}
	return 0;
}

/* Join the waiter, which must have returned @want_ret. */
static int join_waiter(struct session *s, int want_ret)
{
	FAIL_IF(asc_waiter_join(&s->w, 3000));
	s->live = false;
	FAIL_IF(s->w.ret != want_ret);
	return 0;
}

/* Everything one open does, on a module loaded with @ids IDs per HardEvent. */
static int traffic(struct session *s, int ids)
{
	struct asc_event_reset r = { 0 };
	struct asc_event_mode mode = { .mode = ~0U, .pad = ~0U };
	struct asc_event_info info;
	int fd = s->fd, i;

	FAIL_IF(asc_info(fd, &info));
	FAIL_IF(info.event_ids != (__u32)ids);
	FAIL_IF(!(info.features & ASC_EVENT_FEATURE_CHECKED));
	FAIL_IF(asc_ioctl(fd, ASC_EVENT_IOC_GET_MODE, &mode));
	FAIL_IF(mode.mode != ASC_EVENT_MODE_CHECKED || mode.pad);
	for (i = 0; i < ids; i++)
		FAIL_IF(asc_alloc(fd, EV) != i);
	FAIL_IF(asc_alloc(fd, EV) != -ENOSPC);
	FAIL_IF(asc_fetch(fd, EV) != -ENOSPC);
	FAIL_IF(asc_set(fd, EV, ids - 1));
	FAIL_IF(asc_set(fd, EV, ids - 1) != -EBUSY);
	FAIL_IF(asc_wait(fd, EV, ids - 1, 0));
	FAIL_IF(asc_release(fd, EV, ids - 1));
	/* Fetched: with one ID per HardEvent, that makes (EV, 0) usable again. */
	FAIL_IF(asc_fetch(fd, EV) != ids - 1);

	/* Woken by a set... */
	if (start_blocked_waiter(s, 0))
		return -1;
	FAIL_IF(asc_set(fd, EV, 0));
	if (join_waiter(s, 0))
		return -1;
	/* ...or canceled by a reset, which also reports what was left. */
	if (start_blocked_waiter(s, 0))
		return -1;
	FAIL_IF(asc_fetch(fd, ASC_EVENT_FIX_FIX) != 0);
	FAIL_IF(asc_set(fd, ASC_EVENT_FIX_FIX, 0));
	FAIL_IF(asc_reset(fd, &r));
	if (join_waiter(s, -ECANCELED))
		return -1;
	FAIL_IF(r.ids_held != (__u32)ids - 1 || r.flags_pending != 1);
	FAIL_IF(asc_fetch(fd, EV) != 0);
	return 0;
}

/* The node of a fresh load: the misc device, 0600 root:root. */
static int check_fresh_node(void)
{
	struct stat st;

	FAIL_IF(stat(asc_dev_path(), &st));
	FAIL_IF(!S_ISCHR(st.st_mode) || major(st.st_rdev) != 10);
	FAIL_IF((st.st_mode & 07777) != 0600);
	FAIL_IF(st.st_uid != 0 || st.st_gid != 0);
	return 0;
}

/*
 * One cycle on a module loaded with @ids: traffic, refused unloads, unload,
 * then the load of loads[@next].
 */
static int cycle(int ids, unsigned int next)
{
	struct session s = { .live = false };
	int fd, ret;

	fd = asc_open();
	FAIL_IF(fd < 0);
	s.fd = fd;
	ret = traffic(&s, ids);
	if (s.live) {
		/* A failure left the waiter behind: cancel it before going on. */
		asc_reset(fd, NULL);
		if (asc_waiter_join(&s.w, 5000))
			ksft_exit_fail_msg("a waiter thread is stuck in the driver\n");
	}
	if (!ret && read_sysfs_int(REFCNT_PATH) != 1) {
		ksft_print_msg("refcnt %d with one open\n", read_sysfs_int(REFCNT_PATH));
		ret = -1;
	}
	if (!ret) {
		ret = module_unload();
		if (ret != -EWOULDBLOCK)
			ksft_print_msg("delete_module while open: %d, not %d\n", ret,
				       -EWOULDBLOCK);
		ret = ret == -EWOULDBLOCK ? 0 : -1;
	}
	/* Documented access: gone with the node on unload (checked below). */
	if (!ret && (chown(asc_dev_path(), (uid_t)-1, GID_ASC) ||
		     chmod(asc_dev_path(), 0660))) {
		ksft_print_msg("chgrp/chmod %s: %s\n", asc_dev_path(), strerror(errno));
		ret = -1;
	}
	if (close(fd)) {
		ksft_print_msg("close: %s\n", strerror(errno));
		ret = -1;
	}
	if (ret)
		return ret;

	FAIL_IF(read_sysfs_int(REFCNT_PATH) != 0);
	ret = module_unload();
	if (ret) {
		ksft_print_msg("delete_module after close: %d\n", ret);
		return -1;
	}
	FAIL_IF(module_loaded());
	FAIL_IF(asc_open() >= 0 || errno != ENOENT);

	ret = module_load(loads[next].params);
	if (ret) {
		ksft_print_msg("finit_module \"%s\": %d\n", loads[next].params, ret);
		return -1;
	}
	FAIL_IF(read_sysfs_int(PARAM_PATH) != loads[next].ids);
	FAIL_IF(read_sysfs_int(REFCNT_PATH) != 0);
	return check_fresh_node();
}

/* Load the module with event_ids=@ids, unloading it first if needed. */
static int reload_with(int ids)
{
	char params[32];
	int ret;

	if (module_loaded()) {
		ret = module_unload_patiently();
		if (ret)
			return ret;
	}
	snprintf(params, sizeof(params), "event_ids=%d", ids);
	return module_load(params);
}

int main(int argc, char **argv)
{
	int cycles = DEFAULT_CYCLES, saved, ids, i, ret;
	const char *ko = getenv("ASC_EVENT_KO");
	__u64 start, t;
	const struct asc_option opts[] = {
		ASC_OPTION('n', cycles, 1, 0, "CYCLES", "unload-load cycles"),
	};

	asc_parse_options(argc, argv, opts, ARRAY_SIZE(opts));

	ksft_print_header();
	if (geteuid() != 0)
		ksft_exit_skip("needs root\n");
	if (!ko || !*ko)
		ksft_exit_skip("ASC_EVENT_KO is not set\n");
	if (access(ko, R_OK))
		ksft_exit_skip("%s: %s\n", ko, strerror(errno));
	if (!module_loaded())
		ksft_exit_skip("module %s is not loaded\n", MODULE_NAME);
	saved = read_sysfs_int(PARAM_PATH);
	if (saved < 1)
		ksft_exit_fail_msg("%s: %d\n", PARAM_PATH, saved);
	ksft_set_plan(cycles + 1);

	ids = saved;
	start = asc_now_ns();
	for (i = 0; i < cycles; i++) {
		unsigned int next = (unsigned int)i % ARRAY_SIZE(loads);

		t = asc_now_ns();
		ret = cycle(ids, next);
		ksft_test_result(ret == 0, "cycle %d: event_ids=%d, then %s (%ld ms)\n",
				 i + 1, ids, *loads[next].params ? loads[next].params :
				 "default", asc_ms_since(t));
		if (ret)
			break;
		ids = loads[next].ids;
	}
	if (i == cycles)
		ksft_print_msg("%d cycles in %ld ms\n", cycles, asc_ms_since(start));

	/* Put the module back as found, failure or not. */
	ret = reload_with(saved);
	if (!ret && read_sysfs_int(PARAM_PATH) != saved)
		ret = -EINVAL;
	if (i < cycles) {
		if (ret)
			ksft_print_msg("could not reload with event_ids=%d: %d\n", saved, ret);
		ksft_exit_fail_msg("stopped after cycle %d\n", i + 1);
	}
	ksft_test_result(ret == 0, "reloaded with event_ids=%d as found\n", saved);
	ksft_finished();
}
