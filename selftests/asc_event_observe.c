// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: what the driver shows about itself.
 *
 * - sysfs: the module-wide counters in /sys/class/misc/asc_event/stats are
 *   read-only decimal numbers; each ioctl adds 1 to "ops" and each error
 *   kind exactly 1 to its own counter; tpipes_open and tpipes_created
 *   follow opens and last closes.
 * - debugfs: /sys/kernel/debug/asc_event/tpipes, 0400, a block per TPipe
 *   from open to last close, with owner, mode, geometry, bound pipes, allocated and
 *   fetched IDs, set flags and the threads blocked in a wait.
 * - tracepoints: trace system asc_event, recorded in a tracefs instance of
 *   our own, give one key=value line per operation with its result.
 *
 * A kernel without debugfs or tracefs skips those tests; a missing file of
 * the driver's fails them.
 */
#include "asc_event_test.h"

#define COMM		"asc_observe"
#define EV		ASC_EVENT_MTE2_V

/* Long enough for a thread to reach its ioctl in a slow guest. */
#define BLOCK_MS	2000

/* Workers of the fixture. */
enum { W_V, W_MTE2, W_MTE3, W_FREE, NWORKERS };

FIXTURE(observe) {
	int fd;
	int ids;
	int serial;
	struct asc_worker w[NWORKERS];
	char instance[256];
};

FIXTURE_SETUP(observe)
{
	asc_set_comm(COMM);
	self->fd = asc_opened_or_skip(_metadata, asc_open_serial(&self->serial));
	self->ids = asc_event_ids(_metadata, self->fd);
	asc_workers_start(_metadata, self->w, NWORKERS, self->fd);
}

FIXTURE_TEARDOWN(observe)
{
	char path[300];

	asc_workers_stop(self->w, NWORKERS, self->fd);
	if (self->fd >= 0)
		close(self->fd);
	if (self->instance[0]) {
		snprintf(path, sizeof(path), "%s/events/asc_event/enable", self->instance);
		asc_write_file(path, "0");
		rmdir(self->instance);
	}
}

static void on_signal(int sig)
{
	(void)sig;
}

/* ---- sysfs ---------------------------------------------------------------- */

TEST_F(observe, counters_read_only_decimal)
{
	char path[128];
	struct stat st;
	long long v;
	int i;

	for (i = 0; i < ASC_NR_STATS; i++) {
		snprintf(path, sizeof(path), "%s/%s", ASC_STATS_DIR, asc_stat_name(i));
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		ASSERT_TRUE(S_ISREG(st.st_mode));
		ASSERT_EQ(0U, st.st_mode & 0222) TH_LOG("%s: mode %o", path, st.st_mode & 0777);
		ASSERT_NE(0U, st.st_mode & 0444);
		v = asc_test_stat_read(asc_stat_name(i));
		ASSERT_LE(0, v) TH_LOG("%s: not a decimal number and a newline", path);
		ASSERT_GT(0, asc_write_file(path, "0")) TH_LOG("%s: writable", path);
		if (i != ST_TPIPES_OPEN && i != ST_TPIPES_CREATED) {
			ASSERT_LE(v, asc_test_stat_read(asc_stat_name(i)));
		}
	}
	ASSERT_LE(1, asc_test_stat_read("tpipes_open"));
	ASSERT_LE(asc_test_stat_read("tpipes_open"), asc_test_stat_read("tpipes_created"));
}

/*
 * Every kind of result, one at a time: "ops" counts every ioctl, and only
 * the error's own counter moves with it.
 */
TEST_F(observe, counters_count_ops_and_each_error)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct asc_worker *v = &self->w[W_V], *u = &self->w[W_FREE];
	struct asc_stats s;
	int i, x = 0;

	/* Room in the log's rate limits: the reports below must not be suppressed. */
	asc_kmsg_settle("asc_event: deadlock in TPipe ", 1);
	asc_kmsg_settle("asc_event: TPipe ", 1);
	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, asc_event_ids(_metadata, self->fd) - self->ids);
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(self->fd));
	/* Strict IDs: a hand-written ID is ENOENT below. */
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS));
	ASC_STATS_EXPECT(s, "info, get and set mode", [ST_OPS] = 3);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(-EINVAL, asc_alloc(self->fd, ASC_NR_EVENTS));
	ASSERT_EQ(-EINVAL, asc_set_mode(self->fd, 2));
	ASSERT_EQ(-EINVAL, asc_bind(self->fd, 6));
	ASSERT_EQ(-EINVAL, asc_wait(self->fd, EV, self->ids, 0));
	ASC_STATS_EXPECT(s, "EINVAL", [ST_OPS] = 4, [ST_ERR_INVALID] = 4);

	asc_stats_read(_metadata, &s);
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, EV, i));
	}
	ASC_STATS_EXPECT(s, "ENOSPC", [ST_OPS] = 2 * self->ids + 2, [ST_ERR_NO_SPACE] = 2);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV, 0, 0));
	ASC_STATS_EXPECT(s, "ENOENT", [ST_OPS] = 3, [ST_ERR_NOT_ALLOCATED] = 3);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASC_STATS_EXPECT(s, "EBUSY from a set", [ST_OPS] = 4, [ST_ERR_DOUBLE_SET] = 1);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EBUSY, asc_bind(self->fd, ASC_EVENT_PIPE_V));
	ASC_STATS_EXPECT(s, "EBUSY from a bind", [ST_OPS] = 2, [ST_ERR_BUSY_PIPE] = 1);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(-EPERM, W_SET(v, EV, 0));
	ASSERT_EQ(-EPERM, W_WAIT(v, ASC_EVENT_V_MTE3, 0, 0));
	ASC_STATS_EXPECT(s, "EPERM", [ST_OPS] = 2, [ST_ERR_WRONG_PIPE] = 2);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, asc_deadline_ms(20)));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASC_STATS_EXPECT(s, "ETIMEDOUT", [ST_OPS] = 3, [ST_ERR_TIMEOUT] = 2);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, W_WAIT_POST(u, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(u, BLOCK_MS));
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(-ECANCELED, asc_worker_result(u, BLOCK_MS));
	ASC_STATS_EXPECT(s, "ECANCELED", [ST_OPS] = 3, [ST_ERR_CANCELED] = 1);

	/* No SA_RESTART: the interrupted wait returns EINTR. */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, W_WAIT_POST(u, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(u, BLOCK_MS));
	ASSERT_EQ(0, pthread_kill(u->thread, SIGUSR1));
	ASSERT_EQ(-EINTR, asc_worker_result(u, BLOCK_MS));
	ASC_STATS_EXPECT(s, "EINTR", [ST_OPS] = 2, [ST_ERR_INTERRUPTED] = 1);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(-EDEADLK, W_WAIT(v, ASC_EVENT_V_V, 0, ASC_EVENT_WAIT_FOREVER));
	ASC_STATS_EXPECT(s, "EDEADLK", [ST_OPS] = 2, [ST_ERR_DEADLOCK] = 1, [ST_DEADLOCKS] = 1);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_INFO, (void *)8));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_ALLOC_ID, (void *)8));
	ASSERT_EQ(-EFAULT, asc_ioctl(self->fd, ASC_EVENT_IOC_BIND_PIPE, (void *)8));
	ASC_STATS_EXPECT(s, "EFAULT", [ST_OPS] = 3, [ST_ERR_FAULT] = 3);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(-ENOTTY, asc_ioctl(self->fd, _IO(ASC_EVENT_IOC_MAGIC, 0x7f), NULL));
	ASSERT_EQ(-ENOTTY, asc_ioctl(self->fd, _IOR('x', 1, int), &x));
	ASC_STATS_EXPECT(s, "ENOTTY", [ST_OPS] = 2, [ST_ERR_UNKNOWN_IOCTL] = 2);

	asc_stats_read(_metadata, &s);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 1));
	ASSERT_RESET(self->fd, 2, 1);
	ASC_STATS_EXPECT(s, "leaky reset", [ST_OPS] = 4, [ST_LEAK_REPORTS] = 1,
			 [ST_LEAKED_IDS] = 2, [ST_LEAKED_FLAGS] = 1);

	asc_stats_read(_metadata, &s);
	ASSERT_RESET(self->fd, 0, 0);
	ASC_STATS_EXPECT(s, "clean reset", [ST_OPS] = 1);
}

TEST_F(observe, counters_of_tpipes)
{
	struct asc_stats s;
	int fd[3], d, go[2], status, i;
	pid_t pid;
	char c = 0;

	asc_stats_read(_metadata, &s);
	for (i = 0; i < 3; i++) {
		fd[i] = asc_open();
		ASSERT_LE(0, fd[i]);
	}
	d = dup(fd[0]);
	ASSERT_LE(0, d);
	ASC_STATS_EXPECT(s, "3 opens and a dup", [ST_TPIPES_OPEN] = 3, [ST_TPIPES_CREATED] = 3);

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(0);
	}
	for (i = 0; i < 3; i++)
		close(fd[i]);
	ASC_STATS_EXPECT(s, "closes while a dup and a child hold the files",
			 [ST_TPIPES_OPEN] = 3, [ST_TPIPES_CREATED] = 3);
	close(d);
	ASC_STATS_EXPECT(s, "closes while a child holds the files",
			 [ST_TPIPES_OPEN] = 3, [ST_TPIPES_CREATED] = 3);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	ASC_STATS_EXPECT(s, "last closes", [ST_TPIPES_CREATED] = 3);
	close(go[0]);
	close(go[1]);
}

/* ---- debugfs -------------------------------------------------------------- */

/* Skip unless debugfs is there; fail if the driver's directory is not. */
#define NEED_DEBUGFS() do {						\
	if (!asc_debugfs_mounted())					\
		SKIP(return, "%s: no debugfs in this kernel", _metadata->name); \
	ASSERT_EQ(0, access(ASC_DEBUGFS_DIR, F_OK)) TH_LOG("%s: %s", ASC_DEBUGFS_DIR, \
							   strerror(errno)); \
	ASSERT_LT(0, self->serial) TH_LOG("no new tpipe: N at open");	\
} while (0)

/*
 * Assert TPipe @serial's block of the debugfs file reads @expected, its
 * waiters in the order they began to wait.
 */
static void check_debugfs(struct __test_metadata *_metadata, int serial, const char *expected)
{
	struct asc_text raw = { 0 };

	ASSERT_EQ(0, asc_debugfs_tpipe(serial, &raw)) TH_LOG("no TPipe %d in %s", serial,
							    ASC_DEBUGFS_FILE);
	ASSERT_STREQ(expected, asc_text_str(&raw));
	asc_text_free(&raw);
}

TEST_F(observe, debugfs_block_from_open_to_last_close)
{
	char exp[512], key1[32], key2[32];
	const char *first, *second;
	struct asc_text t = { 0 };
	struct stat st;
	int fd, serial2, d;

	NEED_DEBUGFS();
	ASSERT_EQ(0, stat(ASC_DEBUGFS_FILE, &st));
	ASSERT_TRUE(S_ISREG(st.st_mode));
	ASSERT_EQ(0400U, st.st_mode & 0777);
	snprintf(exp, sizeof(exp),
		 "tpipe: %d\nowner: %s[%d] uid %u\nmode: checked\nevent_ids: %d\n"
		 "pipes: none\nallocated: none\nfetched: none\nset: none\nwaiters: none\nissued: none\nlaunch: none\n",
		 self->serial, COMM, getpid(), getuid(), self->ids);
	check_debugfs(_metadata, self->serial, exp);

	/* Serials grow, in order in the file; a block lives as long as its TPipe. */
	fd = asc_open_serial(&serial2);
	ASSERT_LE(0, fd);
	ASSERT_LT(self->serial, serial2);
	snprintf(key1, sizeof(key1), "tpipe: %d\n", self->serial);
	snprintf(key2, sizeof(key2), "\n\ntpipe: %d\n", serial2);
	ASSERT_EQ(0, asc_read_file(ASC_DEBUGFS_FILE, &t));
	first = strstr(asc_text_str(&t), key1);
	second = strstr(asc_text_str(&t), key2);
	ASSERT_TRUE(first && second && first < second)
		TH_LOG("TPipe %d not after %d, apart by a blank line:\n%s", serial2,
		       self->serial, asc_text_str(&t));
	asc_text_free(&t);
	d = dup(fd);
	ASSERT_LE(0, d);
	close(fd);
	ASSERT_EQ(0, asc_debugfs_tpipe(serial2, &t));
	close(d);
	ASSERT_EQ(-ENOENT, asc_debugfs_tpipe(serial2, &t))
		TH_LOG("TPipe %d is still there after the last close", serial2);

	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(-ENOENT, asc_debugfs_tpipe(self->serial, &t))
		TH_LOG("TPipe %d is still there after the last close", self->serial);
	asc_text_free(&t);
}

TEST_F(observe, debugfs_content)
{
	struct asc_worker *v = &self->w[W_V], *m2 = &self->w[W_MTE2], *m3 = &self->w[W_MTE3];
	struct asc_worker *u = &self->w[W_FREE];
	char exp[1024], head[256];
	int vt = atomic_load(&v->tid), m2t = atomic_load(&m2->tid);
	int m3t = atomic_load(&m3->tid), ut = atomic_load(&u->tid);

	NEED_DEBUGFS();
	snprintf(head, sizeof(head), "tpipe: %d\nowner: %s[%d] uid %u\n", self->serial, COMM,
		 getpid(), getuid());
	ASSERT_EQ(0, W_BIND(m3, ASC_EVENT_PIPE_MTE3));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(m2, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	ASSERT_EQ(1, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_MTE3));
	ASSERT_EQ(0, W_SET(m2, EV, 1));
	snprintf(exp, sizeof(exp),
		 "%smode: checked\nevent_ids: %d\npipes: V=%d MTE2=%d MTE3=%d\n"
		 "allocated: MTE2_V:0,1 V_MTE2:0,1\nfetched: V_MTE3:0\nset: MTE2_V:1\n"
		 "waiters: none\nissued: none\nlaunch: none\n", head, self->ids, vt, m2t, m3t);
	check_debugfs(_metadata, self->serial, exp);

	/* Three threads blocked, listed oldest first: V and MTE3 bound, one not bound. */
	ASSERT_EQ(0, W_WAIT_POST(v, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(v, BLOCK_MS));
	ASSERT_EQ(0, W_WAIT_POST(m3, ASC_EVENT_V_MTE3, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(m3, BLOCK_MS));
	ASSERT_EQ(0, W_WAIT_POST(u, ASC_EVENT_V_MTE2, 1, asc_deadline_ms(10000)));
	ASSERT_TRUE(asc_worker_blocked(u, BLOCK_MS));
	snprintf(exp, sizeof(exp),
		 "%smode: checked\nevent_ids: %d\npipes: V=%d MTE2=%d MTE3=%d\n"
		 "allocated: MTE2_V:0,1 V_MTE2:0,1\nfetched: V_MTE3:0\nset: MTE2_V:1\n"
		 "waiters: %d/V:MTE2_V:0 %d/MTE3:V_MTE3:0 %d/-:V_MTE2:1\nissued: none\nlaunch: none\n",
		 head, self->ids, vt, m2t, m3t, vt, m3t, ut);
	check_debugfs(_metadata, self->serial, exp);

	/* Woken one by one. */
	ASSERT_EQ(0, W_SET(m2, EV, 0));
	ASSERT_EQ(0, asc_worker_result(v, BLOCK_MS));
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_MTE3, 0));
	ASSERT_EQ(0, asc_worker_result(m3, BLOCK_MS));
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_MTE2, 1));
	ASSERT_EQ(0, asc_worker_result(u, BLOCK_MS));
	/* The mode changes while no pipe is manned. */
	ASSERT_EQ(0, W_BIND(m3, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(m2, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(m2, ASC_EVENT_PIPE_MTE2));
	snprintf(exp, sizeof(exp),
		 "%smode: unchecked\nevent_ids: %d\npipes: V=%d MTE2=%d\n"
		 "allocated: MTE2_V:0,1 V_MTE2:0,1\nfetched: V_MTE3:0\nset: MTE2_V:1\n"
		 "waiters: none\nissued: none\nlaunch: none\n", head, self->ids, vt, m2t);
	check_debugfs(_metadata, self->serial, exp);

	/* Issued instructions, per pipe: a set on MTE2, two waits on FIX. */
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_SET, EV, 0));
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_WAIT, ASC_EVENT_MTE2_FIX, 0));
	ASSERT_LT(0, asc_issue(self->fd, ASC_EVENT_OP_WAIT, ASC_EVENT_FIX_FIX, 0));
	snprintf(exp, sizeof(exp),
		 "%smode: unchecked\nevent_ids: %d\npipes: V=%d MTE2=%d\n"
		 "allocated: MTE2_V:0,1 V_MTE2:0,1\nfetched: V_MTE3:0\nset: MTE2_V:1\n"
		 "waiters: none\nissued: MTE2=1 FIX=2\nlaunch: none\n", head, self->ids, vt, m2t);
	check_debugfs(_metadata, self->serial, exp);

	/* RESET forgets IDs, flags, fetches and tickets; bindings stay. */
	ASSERT_RESET(self->fd, 4, 1);
	snprintf(exp, sizeof(exp),
		 "%smode: unchecked\nevent_ids: %d\npipes: V=%d MTE2=%d\n"
		 "allocated: none\nfetched: none\nset: none\nwaiters: none\nissued: none\nlaunch: none\n",
		 head, self->ids, vt, m2t);
	check_debugfs(_metadata, self->serial, exp);
}

/* ---- tracepoints ---------------------------------------------------------- */

/* Where tracefs is, mounting it if need be; NULL when the kernel has none. */
static const char *tracefs(void)
{
	if (asc_fs_is("/sys/kernel/tracing", TRACEFS_MAGIC))
		return "/sys/kernel/tracing";
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return "/sys/kernel/tracing";
	if (asc_debugfs_mounted() && asc_fs_is("/sys/kernel/debug/tracing", TRACEFS_MAGIC))
		return "/sys/kernel/debug/tracing";
	return NULL;
}

/**
 * struct trace_exp - one expected trace line.
 * @group: lines of one group may come in any order; groups come in order.
 * @text: "asc_event_NAME: key=value ...", where a last "waited_ns=*"
 *	stands for any number.
 */
struct trace_exp {
	int group;
	char text[160];
};

#define MAX_EXP		96

struct trace_want {
	struct trace_exp e[MAX_EXP];
	int n;
	int group;
};

/* Expect one more line, in a new group unless @same_group. */
static __attribute__((format(printf, 3, 4)))
void want(struct trace_want *t, bool same_group, const char *fmt, ...)
{
	va_list ap;

	if (t->n == MAX_EXP)
		abort();
	if (!same_group)
		t->group++;
	t->e[t->n].group = t->group;
	va_start(ap, fmt);
	vsnprintf(t->e[t->n].text, sizeof(t->e[t->n].text), fmt, ap);
	va_end(ap);
	t->n++;
}

static bool trace_match(const char *want, const char *got)
{
	const char *star = strstr(want, "waited_ns=*");
	size_t n;

	if (!star)
		return !strcmp(want, got);
	n = (size_t)(star - want) + strlen("waited_ns=");
	if (strncmp(want, got, n) || !got[n])
		return false;
	for (got += n; *got; got++) {
		if (*got < '0' || *got > '9')
			return false;
	}
	return true;
}

/*
 * The asc_event lines of a tracefs "trace" file that belong to TPipe
 * @serial, as "asc_event_NAME: key=value ...", one per line.
 */
static int trace_lines(const char *trace, int serial, struct asc_text *out)
{
	char key[32];
	const char *p, *name, *nl;
	size_t len;
	int n = 0;

	snprintf(key, sizeof(key), "tpipe=%d ", serial);
	asc_text_free(out);
	asc_text_add(out, "", 0);
	for (p = trace; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (*p == '#')
			continue;
		name = strstr(p, ": asc_event_");
		if (!name || name > p + len)
			continue;
		name += 2;
		p = strstr(name, ": ");
		if (!p || p > name + (nl ? (size_t)(nl - name) : strlen(name)))
			continue;
		if (strncmp(p + 2, key, strlen(key)))
			continue;
		asc_text_add(out, name, (nl ? (size_t)(nl - name) : strlen(name)));
		asc_text_add(out, "\n", 1);
		n++;
	}
	return n;
}

/* waited_ns of the line of @got that starts with @prefix, or -1. */
static long long waited_ns(const char *got, const char *prefix)
{
	const char *p = strstr(got, prefix), *w;

	if (!p)
		return -1;
	w = strstr(p, "waited_ns=");
	return w ? strtoll(w + strlen("waited_ns="), NULL, 10) : -1;
}

/* Assert @got (one line each) is @t's lines, group by group. */
static void check_trace(struct __test_metadata *_metadata, const struct trace_want *t,
			const char *got)
{
	struct asc_text exp = { 0 };
	const char *lines[MAX_EXP + 1], *p;
	char line[256];
	bool used[MAX_EXP] = { false };
	int nlines = 0, i, j, k, g_end;

	for (p = got; *p && nlines <= MAX_EXP; p = strchr(p, '\n') + 1)
		lines[nlines++] = p;
	for (i = 0; i < t->n; i++)
		asc_text_printf(&exp, "%d %s\n", t->e[i].group, t->e[i].text);

	ASSERT_EQ(t->n, nlines) TH_LOG("expected:\n%sgot:\n%s", asc_text_str(&exp), got);
	for (i = 0; i < t->n; i = g_end) {
		for (g_end = i; g_end < t->n && t->e[g_end].group == t->e[i].group; g_end++)
			;
		for (k = i; k < g_end; k++) {
			p = strchr(lines[k], '\n');
			snprintf(line, sizeof(line), "%.*s", (int)(p - lines[k]), lines[k]);
			for (j = i; j < g_end; j++) {
				if (!used[j] && trace_match(t->e[j].text, line))
					break;
			}
			ASSERT_LT(j, g_end) {
				TH_LOG("line %d \"%s\" unexpected here; expected (group number first):\n%sgot:\n%s",
				       k + 1, line, asc_text_str(&exp), got);
			}
			used[j] = true;
		}
	}
	asc_text_free(&exp);
}

TEST_F_TIMEOUT(observe, tracepoints, 60)
{
	static const char *const events[] = {
		"alloc", "fetch", "release", "set", "wait_start", "wait_end", "reset",
		"leak", "deadlock",
	};
	struct asc_worker *v = &self->w[W_V], *m2 = &self->w[W_MTE2], *u = &self->w[W_FREE];
	struct asc_text trace = { 0 }, got = { 0 };
	struct trace_want *t = calloc(1, sizeof(*t));
	const char *root = tracefs();
	char path[512], ev[16];
	unsigned int i;
	int n = self->serial, ids = self->ids, id;
	long long ns, timed_ns;

	ASSERT_TRUE(t != NULL);
	if (!root)
		SKIP(return, "%s: no tracefs in this kernel", _metadata->name);
	if (self->ids < 3)
		SKIP(return, "%s: needs 3 IDs, the device has %d", _metadata->name, self->ids);
	snprintf(self->instance, sizeof(self->instance), "%s/instances/asc_event_observe_%d",
		 root, getpid());
	ASSERT_EQ(0, mkdir(self->instance, 0755)) {
		self->instance[0] = '\0';
		TH_LOG("mkdir %s/instances/...: %s", root, strerror(errno));
	}
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		snprintf(path, sizeof(path), "%s/events/asc_event/asc_event_%s/format",
			 self->instance, events[i]);
		ASSERT_EQ(0, access(path, R_OK)) TH_LOG("%s: %s", path, strerror(errno));
	}
	/*
	 * The "counter" clock is one atomic count for all CPUs: lines of
	 * different threads keep their order even where "global", clamping a
	 * CPU whose sched_clock lags, stamps two of them with the same time.
	 */
	snprintf(path, sizeof(path), "%s/trace_clock", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "counter"));
	snprintf(path, sizeof(path), "%s/events/asc_event/enable", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "1"));
	snprintf(path, sizeof(path), "%s/tracing_on", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "1"));

	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(m2, ASC_EVENT_PIPE_MTE2));

	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	want(t, 0, "asc_event_alloc: tpipe=%d pipe=- event=MTE2_V id=0 ret=0", n);
	ASSERT_EQ(1, W_ALLOC(m2, EV));
	want(t, 0, "asc_event_alloc: tpipe=%d pipe=MTE2 event=MTE2_V id=1 ret=0", n);
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_MTE2));
	want(t, 0, "asc_event_fetch: tpipe=%d pipe=- event=V_MTE2 id=0 ret=0", n);
	ASSERT_EQ(0, W_SET(m2, EV, 0));
	want(t, 0, "asc_event_set: tpipe=%d pipe=MTE2 event=MTE2_V id=0 ret=0", n);
	ASSERT_EQ(-EBUSY, W_SET(m2, EV, 0));
	want(t, 0, "asc_event_set: tpipe=%d pipe=MTE2 event=MTE2_V id=0 ret=%d", n, -EBUSY);
	ASSERT_EQ(-EPERM, W_SET(v, EV, 1));
	want(t, 0, "asc_event_set: tpipe=%d pipe=V event=MTE2_V id=1 ret=%d", n, -EPERM);
	ASSERT_EQ(-EPERM, asc_set(self->fd, EV, ids - 1));
	want(t, 0, "asc_event_set: tpipe=%d pipe=- event=MTE2_V id=%d ret=%d", n, ids - 1,
	     -EPERM);
	ASSERT_EQ(-ENOENT, W_SET(m2, EV, ids - 1));
	want(t, 0, "asc_event_set: tpipe=%d pipe=MTE2 event=MTE2_V id=%d ret=%d", n, ids - 1,
	     -ENOENT);
	/* A wait refused before it starts leaves no trace. */
	ASSERT_EQ(-EPERM, W_WAIT(m2, EV, 0, 0));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV, ids - 1, 0));

	ASSERT_EQ(0, W_WAIT(v, EV, 0, 0));
	want(t, 0, "asc_event_wait_start: tpipe=%d pipe=V event=MTE2_V id=0 forever=0", n);
	want(t, 0, "asc_event_wait_end: tpipe=%d pipe=V event=MTE2_V id=0 ret=0 waited_ns=*", n);
	ASSERT_EQ(-ETIMEDOUT, W_WAIT(v, EV, 0, asc_deadline_ms(200)));
	timed_ns = v->end_ns - v->start_ns;
	want(t, 0, "asc_event_wait_start: tpipe=%d pipe=V event=MTE2_V id=0 forever=0", n);
	want(t, 0, "asc_event_wait_end: tpipe=%d pipe=V event=MTE2_V id=0 ret=%d waited_ns=*",
	     n, -ETIMEDOUT);
	ASSERT_EQ(0, W_WAIT_POST(v, EV, 1, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(v, BLOCK_MS));
	want(t, 0, "asc_event_wait_start: tpipe=%d pipe=V event=MTE2_V id=1 forever=1", n);
	asc_sleep_ms(50);
	ASSERT_EQ(0, W_SET(m2, EV, 1));
	ASSERT_EQ(0, asc_worker_result(v, BLOCK_MS));
	want(t, 0, "asc_event_set: tpipe=%d pipe=MTE2 event=MTE2_V id=1 ret=0", n);
	want(t, 1, "asc_event_wait_end: tpipe=%d pipe=V event=MTE2_V id=1 ret=0 waited_ns=*", n);

	ASSERT_EQ(0, asc_release(self->fd, EV, 1));
	want(t, 0, "asc_event_release: tpipe=%d pipe=- event=MTE2_V id=1 ret=0", n);
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, 1));
	want(t, 0, "asc_event_release: tpipe=%d pipe=- event=MTE2_V id=1 ret=%d", n, -ENOENT);
	for (id = 1; id < ids; id++) {
		ASSERT_EQ(id, asc_alloc(self->fd, EV));
		want(t, 0, "asc_event_alloc: tpipe=%d pipe=- event=MTE2_V id=%d ret=0", n, id);
	}
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV));
	want(t, 0, "asc_event_alloc: tpipe=%d pipe=- event=MTE2_V id=0 ret=%d", n, -ENOSPC);
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	want(t, 0, "asc_event_fetch: tpipe=%d pipe=- event=MTE2_V id=0 ret=%d", n, -ENOSPC);
	ASSERT_EQ(0, W_SET(m2, EV, 2));
	want(t, 0, "asc_event_set: tpipe=%d pipe=MTE2 event=MTE2_V id=2 ret=0", n);

	ASSERT_RESET(self->fd, ids, 1);
	want(t, 0, "asc_event_reset: tpipe=%d ids_held=%d flags_pending=1", n, ids);
	want(t, 1, "asc_event_leak: tpipe=%d at=reset ids=%d flags=1", n, ids);
	ASSERT_RESET(self->fd, 0, 0);
	want(t, 0, "asc_event_reset: tpipe=%d ids_held=0 flags_pending=0", n);

	ASSERT_EQ(0, W_FETCH(v, ASC_EVENT_V_V));
	want(t, 0, "asc_event_fetch: tpipe=%d pipe=V event=V_V id=0 ret=0", n);
	ASSERT_EQ(-EDEADLK, W_WAIT(v, ASC_EVENT_V_V, 0, ASC_EVENT_WAIT_FOREVER));
	want(t, 0, "asc_event_wait_start: tpipe=%d pipe=V event=V_V id=0 forever=1", n);
	want(t, 1, "asc_event_deadlock: tpipe=%d pipe=V event=V_V id=0", n);
	want(t, 1, "asc_event_wait_end: tpipe=%d pipe=V event=V_V id=0 ret=%d waited_ns=*", n,
	     -EDEADLK);

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	want(t, 0, "asc_event_fetch: tpipe=%d pipe=- event=MTE2_V id=0 ret=0", n);
	ASSERT_EQ(0, W_WAIT_POST(u, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_worker_blocked(u, BLOCK_MS));
	want(t, 0, "asc_event_wait_start: tpipe=%d pipe=- event=MTE2_V id=0 forever=1", n);
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(-ECANCELED, asc_worker_result(u, BLOCK_MS));
	want(t, 0, "asc_event_wait_end: tpipe=%d pipe=- event=MTE2_V id=0 ret=%d waited_ns=*", n,
	     -ECANCELED);
	want(t, 1, "asc_event_reset: tpipe=%d ids_held=0 flags_pending=0", n);

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_S));
	want(t, 0, "asc_event_alloc: tpipe=%d pipe=- event=V_S id=0 ret=0", n);
	ASSERT_EQ(0, W_SET(v, ASC_EVENT_V_S, 0));
	want(t, 0, "asc_event_set: tpipe=%d pipe=V event=V_S id=0 ret=0", n);
	close(self->fd);
	self->fd = -1;
	want(t, 0, "asc_event_leak: tpipe=%d at=close ids=1 flags=1", n);

	snprintf(path, sizeof(path), "%s/events/asc_event/enable", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "0"));
	snprintf(path, sizeof(path), "%s/trace", self->instance);
	ASSERT_EQ(0, asc_read_file(path, &trace));
	if (n <= 0) {
		/* No debugfs to tell the serial: take the first line's. */
		const char *p = strstr(asc_text_str(&trace), ": tpipe=");

		ASSERT_TRUE(p != NULL) TH_LOG("no asc_event line in:\n%s", asc_text_str(&trace));
		n = atoi(p + strlen(": tpipe="));
		for (i = 0; i < (unsigned int)t->n; i++) {
			char *k = strstr(t->e[i].text, "tpipe=");
			char rest[160];

			snprintf(rest, sizeof(rest), "%s", strchr(k, ' '));
			snprintf(k, sizeof(t->e[i].text) - (size_t)(k - t->e[i].text),
				 "tpipe=%d%s", n, rest);
		}
	}
	trace_lines(asc_text_str(&trace), n, &got);
	check_trace(_metadata, t, asc_text_str(&got));

	/* The times waited are real. */
	snprintf(ev, sizeof(ev), "id=0 ret=%d", -ETIMEDOUT);
	ns = waited_ns(asc_text_str(&got), ev);
	/*
	 * The deadline was taken before the worker got the wait: a loaded
	 * host can eat part of it, not half.
	 */
	ASSERT_LE(100LL * 1000 * 1000, ns) TH_LOG("timed wait of 200 ms: waited_ns=%lld", ns);
	ASSERT_GE(timed_ns, ns) TH_LOG("the worker saw the wait take %lld ns", timed_ns);
	ns = waited_ns(asc_text_str(&got), "asc_event_wait_end: tpipe");
	ASSERT_LE(0, ns);
	ns = waited_ns(asc_text_str(&got), "event=MTE2_V id=1 ret=0 ");
	ASSERT_LE(40LL * 1000 * 1000, ns) TH_LOG("forever wait woken after 50 ms: waited_ns=%lld",
						 ns);
	asc_text_free(&trace);
	asc_text_free(&got);
	free(t);
}

/*
 * Every HardEvent by its whole name, the longest ones (MTE2_MTE1 and the
 * five others of nine characters) included: an alloc and a release of
 * each.
 */
TEST_F_TIMEOUT(observe, tracepoints_name_every_event, 60)
{
	struct asc_text trace = { 0 }, got = { 0 };
	struct trace_want *t = calloc(1, sizeof(*t));
	const char *root = tracefs();
	char path[512];
	int n = self->serial, e;

	ASSERT_TRUE(t != NULL);
	if (!root)
		SKIP(return, "%s: no tracefs in this kernel", _metadata->name);
	if (n <= 0)
		SKIP(return, "%s: no debugfs to tell the TPipe's serial", _metadata->name);
	snprintf(self->instance, sizeof(self->instance), "%s/instances/asc_event_names_%d",
		 root, getpid());
	ASSERT_EQ(0, mkdir(self->instance, 0755)) {
		self->instance[0] = '\0';
		TH_LOG("mkdir %s/instances/...: %s", root, strerror(errno));
	}
	/* One count for all CPUs: the order of the lines is the order of the calls. */
	snprintf(path, sizeof(path), "%s/trace_clock", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "counter"));
	snprintf(path, sizeof(path), "%s/events/asc_event/enable", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "1"));
	snprintf(path, sizeof(path), "%s/tracing_on", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "1"));

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(0, asc_alloc(self->fd, e));
		want(t, 0, "asc_event_alloc: tpipe=%d pipe=- event=%s id=0 ret=0", n,
		     asc_event_name(e));
		ASSERT_EQ(0, asc_release(self->fd, e, 0));
		want(t, 0, "asc_event_release: tpipe=%d pipe=- event=%s id=0 ret=0", n,
		     asc_event_name(e));
	}

	snprintf(path, sizeof(path), "%s/events/asc_event/enable", self->instance);
	ASSERT_EQ(0, asc_write_file(path, "0"));
	snprintf(path, sizeof(path), "%s/trace", self->instance);
	ASSERT_EQ(0, asc_read_file(path, &trace));
	trace_lines(asc_text_str(&trace), n, &got);
	check_trace(_metadata, t, asc_text_str(&got));
	asc_text_free(&trace);
	asc_text_free(&got);
	free(t);
}

TEST_HARNESS_MAIN
