// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: leak reports.
 *
 * A RESET, or the close of a TPipe's last file, that finds IDs still
 * allocated or flags set that nobody waited for logs one rate-limited line
 * naming the TPipe's owner (the process that opened it):
 *
 *   asc_event: TPipe <n> (<comm>[<tgid>] uid <uid>) <reset|closed> with <k>
 *   IDs allocated (<EVENT>:<ids> ...) and <m> flags set never waited on
 *   (<EVENT>:<ids> ...)
 *
 * (one line; "none" for an empty list) and adds 1, k and m to the counters
 * leak_reports, leaked_ids and leaked_flags.  A clean reset or close
 * reports nothing.  The counters count every leak even when the log line
 * is rate-limited away.
 */
#include "asc_event_test.h"

#define COMM		"asc_leak"
#define EV		ASC_EVENT_MTE2_V

/* A leak report starts with this. */
#define LEAK_HEAD	"asc_event: TPipe "

/* Leaky closes in a row, far more than a rate limit lets through. */
#define NFLOOD		60

FIXTURE(leak) {
	int fd;
	int ids;
	int serial;
	struct asc_kmsg kmsg;
	struct asc_stats base;
	struct asc_text log;
};

FIXTURE_SETUP(leak)
{
	asc_set_comm(COMM);
	self->fd = asc_opened_or_skip(_metadata, asc_open_serial(&self->serial));
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, asc_kmsg_open(&self->kmsg)) TH_LOG("/dev/kmsg: %s", strerror(errno));
	asc_stats_read(_metadata, &self->base);
}

FIXTURE_TEARDOWN(leak)
{
	if (self->fd >= 0)
		close(self->fd);
	asc_kmsg_close(&self->kmsg);
	asc_text_free(&self->log);
}

/*
 * Assert what happened since the last check: @reports more leak reports
 * counted, with @ids IDs and @flags flags in all, and @lines report lines
 * logged (self->log keeps them).
 */
static void expect_leaks(struct __test_metadata *_metadata, FIXTURE_DATA(leak) *self,
			 int reports, int ids, int flags, int lines)
{
	struct asc_stats now;

	asc_stats_read(_metadata, &now);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	EXPECT_EQ(reports, now.v[ST_LEAK_REPORTS] - self->base.v[ST_LEAK_REPORTS]);
	EXPECT_EQ(ids, now.v[ST_LEAKED_IDS] - self->base.v[ST_LEAKED_IDS]);
	EXPECT_EQ(flags, now.v[ST_LEAKED_FLAGS] - self->base.v[ST_LEAKED_FLAGS]);
	EXPECT_EQ(lines, asc_count_lines(asc_text_str(&self->log), LEAK_HEAD));
	ASSERT_TRUE(_metadata->passed) TH_LOG("log since the last check:\n%s",
					      asc_text_str(&self->log));
	self->base = now;
}

/*
 * Assert self->log holds the report line of TPipe @serial (any when not
 * known) owned by this process, made at @at ("reset" or "closed"), with
 * the counts and lists given.
 */
static void check_line(struct __test_metadata *_metadata, FIXTURE_DATA(leak) *self,
		       int serial, pid_t owner, const char *at, int k, const char *ids, int m,
		       const char *flags)
{
	const char *log = asc_text_str(&self->log), *p;
	char tail[512], line[600];

	snprintf(tail, sizeof(tail),
		 " (%s[%d] uid %u) %s with %d IDs allocated (%s) and %d flags set never waited on (%s)",
		 COMM, owner, getuid(), at, k, ids, m, flags);
	if (serial > 0) {
		snprintf(line, sizeof(line), LEAK_HEAD "%d%s", serial, tail);
		ASSERT_EQ(1, asc_count_line(log, line)) TH_LOG("no\n%s\nin:\n%s", line, log);
		return;
	}
	p = strstr(log, LEAK_HEAD);
	ASSERT_TRUE(p != NULL) TH_LOG("%s", log);
	p = strchr(p + strlen(LEAK_HEAD), ' ');
	ASSERT_TRUE(p != NULL);
	ASSERT_EQ(0, strncmp(p, tail, strlen(tail))) TH_LOG("no\n%s\nin:\n%s", tail, log);
}

TEST_F(leak, reset_reports_ids_and_flags)
{
	asc_kmsg_settle(LEAK_HEAD, 1);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(0, asc_set(self->fd, EV, 1));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_V_V, 0));
	/* Consumed flags and fetched IDs are no leak. */
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_S_V));
	ASSERT_RESET(self->fd, 4, 2);
	expect_leaks(_metadata, self, 1, 4, 2, 1);
	check_line(_metadata, self, self->serial, getpid(), "reset", 4,
		   "MTE2_V:0,1 V_MTE2:0 V_V:0", 2, "MTE2_V:1 V_V:0");

	/* Reset left nothing: the next reset is clean. */
	ASSERT_RESET(self->fd, 0, 0);
	expect_leaks(_metadata, self, 0, 0, 0, 0);
}

TEST_F(leak, close_reports_ids_and_flags)
{
	int serial, fd = asc_open_serial(&serial);

	asc_kmsg_settle(LEAK_HEAD, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, asc_alloc(fd, ASC_EVENT_FIX_S));
	ASSERT_EQ(0, asc_alloc(fd, ASC_EVENT_S_V));
	ASSERT_EQ(1, asc_alloc(fd, ASC_EVENT_S_V));
	ASSERT_EQ(0, asc_set(fd, ASC_EVENT_FIX_S, 0));
	close(fd);
	expect_leaks(_metadata, self, 1, 3, 1, 1);
	check_line(_metadata, self, serial, getpid(), "closed", 3, "S_V:0,1 FIX_S:0", 1,
		   "FIX_S:0");
}

TEST_F(leak, only_flags_or_only_ids)
{
	asc_kmsg_settle(LEAK_HEAD, 3);
	/* A flag whose ID was released: a set with no wait. */
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_RESET(self->fd, 0, 1);
	expect_leaks(_metadata, self, 1, 0, 1, 1);
	check_line(_metadata, self, self->serial, getpid(), "reset", 0, "none", 1, "MTE2_V:0");

	/* IDs never released. */
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_EQ(1, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_RESET(self->fd, 2, 0);
	expect_leaks(_metadata, self, 1, 2, 0, 1);
	check_line(_metadata, self, self->serial, getpid(), "reset", 2, "V_S:0,1", 0, "none");

	/* A flag set in unchecked mode on a hand-written ID. */
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_FIX_FIX, self->ids - 1));
	close(self->fd);
	self->fd = -1;
	expect_leaks(_metadata, self, 1, 0, 1, 1);
	{
		char flag[32];

		snprintf(flag, sizeof(flag), "FIX_FIX:%d", self->ids - 1);
		check_line(_metadata, self, self->serial, getpid(), "closed", 0, "none", 1, flag);
	}
}

TEST_F(leak, clean_reset_and_close_report_nothing)
{
	struct asc_test_waiter w;
	int fd = asc_open(), e, id;

	ASSERT_LE(0, fd);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		id = asc_alloc(self->fd, e);
		ASSERT_LE(0, id);
		ASSERT_EQ(0, asc_set(self->fd, e, id));
		ASSERT_EQ(-EBUSY, asc_set(self->fd, e, id));
		ASSERT_EQ(0, asc_wait(self->fd, e, id, 0));
		ASSERT_EQ(0, asc_release(self->fd, e, id));
		ASSERT_EQ(0, asc_fetch(fd, e));
	}
	/* A canceled waiter of a fetched ID leaves nothing either. */
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, 2000));
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(-ECANCELED, w.ret);
	close(self->fd);
	self->fd = -1;
	close(fd);
	expect_leaks(_metadata, self, 0, 0, 0, 0);
}

TEST_F(leak, reset_then_close_two_reports)
{
	asc_kmsg_settle(LEAK_HEAD, 2);
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_RESET(self->fd, 1, 0);
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE1_M));
	ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_MTE1_M, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	close(self->fd);
	self->fd = -1;
	expect_leaks(_metadata, self, 2, 3, 2, 2);
	check_line(_metadata, self, self->serial, getpid(), "reset", 1, "MTE2_V:0", 0, "none");
	check_line(_metadata, self, self->serial, getpid(), "closed", 2, "MTE1_M:0 MTE2_V:0", 2,
		   "MTE1_M:0 MTE2_V:0");
}

/* Every ID of every HardEvent and every flag: the counts are exact. */
TEST_F(leak, full_tpipe_counts)
{
	struct asc_event_reset r;
	int e, i;

	asc_kmsg_settle(LEAK_HEAD, 1);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < self->ids; i++) {
			ASSERT_EQ(i, asc_alloc(self->fd, e));
			ASSERT_EQ(0, asc_set(self->fd, e, i));
		}
	}
	ASSERT_EQ(0, asc_reset(self->fd, &r));
	ASSERT_EQ((__u32)(ASC_NR_EVENTS * self->ids), r.ids_held);
	ASSERT_EQ((__u32)(ASC_NR_EVENTS * self->ids), r.flags_pending);
	expect_leaks(_metadata, self, 1, ASC_NR_EVENTS * self->ids, ASC_NR_EVENTS * self->ids, 1);
	{
		char head[128];

		snprintf(head, sizeof(head), " (%s[%d] uid %u) reset with %d IDs allocated (MTE2_MTE1:0",
			 COMM, getpid(), getuid(), ASC_NR_EVENTS * self->ids);
		ASSERT_TRUE(strstr(asc_text_str(&self->log), head) != NULL) {
			TH_LOG("no \"%s\" in:\n%s", head, asc_text_str(&self->log));
		}
		snprintf(head, sizeof(head), " and %d flags set never waited on (MTE2_MTE1:0",
			 ASC_NR_EVENTS * self->ids);
		ASSERT_TRUE(strstr(asc_text_str(&self->log), head) != NULL) {
			TH_LOG("no \"%s\" in:\n%s", head, asc_text_str(&self->log));
		}
	}
}

/*
 * The report names the owner, the process that opened the TPipe, even when
 * another process closes its last file; closing a file that is not the
 * last reports nothing.
 */
TEST_F(leak, owner_named_when_another_process_closes)
{
	int go[2], serial, fd, status;
	pid_t pid;
	char c = 0;

	asc_kmsg_settle(LEAK_HEAD, 1);
	fd = asc_open_serial(&serial);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, asc_alloc(fd, EV));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		asc_set_comm("asc_closer");
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		close(fd);
		_exit(0);
	}
	close(fd);
	expect_leaks(_metadata, self, 0, 0, 0, 0);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	expect_leaks(_metadata, self, 1, 1, 0, 1);
	check_line(_metadata, self, serial, getpid(), "closed", 1, "MTE2_V:0", 0, "none");
	ASSERT_TRUE(strstr(asc_text_str(&self->log), "asc_closer") == NULL);
	close(go[0]);
	close(go[1]);
}

/*
 * Many leaky closes in a row: the log is rate-limited, the counters count
 * every one, and the device works on.  Last in this file: it uses up the
 * log's rate limit.
 */
TEST_F(leak, rate_limited_flood)
{
	struct asc_stats before;
	char tail[256];
	int i, fd, lines, exact;

	asc_kmsg_settle(LEAK_HEAD, 1);
	asc_stats_read(_metadata, &before);
	for (i = 0; i < NFLOOD; i++) {
		fd = asc_open();
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, asc_alloc(fd, EV));
		ASSERT_EQ(0, asc_set(fd, EV, 0));
		close(fd);
	}
	asc_stats_read(_metadata, &self->base);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	EXPECT_EQ(NFLOOD, self->base.v[ST_LEAK_REPORTS] - before.v[ST_LEAK_REPORTS]);
	EXPECT_EQ(NFLOOD, self->base.v[ST_LEAKED_IDS] - before.v[ST_LEAKED_IDS]);
	EXPECT_EQ(NFLOOD, self->base.v[ST_LEAKED_FLAGS] - before.v[ST_LEAKED_FLAGS]);
	EXPECT_EQ(NFLOOD, self->base.v[ST_TPIPES_CREATED] - before.v[ST_TPIPES_CREATED]);
	EXPECT_EQ(0, self->base.v[ST_TPIPES_OPEN] - before.v[ST_TPIPES_OPEN]);

	/* Some lines, not all, and each one whole. */
	lines = asc_count_lines(asc_text_str(&self->log), LEAK_HEAD);
	snprintf(tail, sizeof(tail),
		 " (%s[%d] uid %u) closed with 1 IDs allocated (MTE2_V:0) and 1 flags set never waited on (MTE2_V:0)\n",
		 COMM, getpid(), getuid());
	{
		const char *p = asc_text_str(&self->log);

		exact = 0;
		while ((p = strstr(p, tail))) {
			exact++;
			p += strlen(tail);
		}
	}
	EXPECT_LE(1, lines);
	EXPECT_GT(NFLOOD, lines);
	EXPECT_EQ(lines, exact);
	ASSERT_TRUE(_metadata->passed) TH_LOG("%d report lines:\n%s", lines,
					      asc_text_str(&self->log));

	/* The device works on, and a clean close is still silent. */
	fd = asc_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, asc_alloc(fd, EV));
	ASSERT_EQ(0, asc_set(fd, EV, 0));
	ASSERT_EQ(0, asc_wait(fd, EV, 0, 0));
	ASSERT_EQ(0, asc_release(fd, EV, 0));
	close(fd);
	expect_leaks(_metadata, self, 0, 0, 0, 0);
}

TEST_HARNESS_MAIN
