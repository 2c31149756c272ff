// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: how reports reach the kernel log.
 *
 * A deadlock or leak report is one kernel log message (one /dev/kmsg
 * record, however many lines), so that lines of two reports never mix.
 * The log takes at most a burst of reports of each kind per interval from
 * each user who opened TPipes: one user's flood of reports, from as many
 * TPipes as it likes, does not silence another user's, and the counters
 * count every report and every suppressed one whatever the log takes.  A
 * report names the process that opened the TPipe, by its main thread's
 * name even when another of its threads opened it, and a list of IDs too
 * long for its line ends in "...".
 */
#include "asc_event_test.h"

#include <grp.h>

#define COMM		"asc_reports"

/* The first lines of a deadlock and of a leak report. */
#define DEADLOCK_HEAD	"asc_event: deadlock in TPipe "
#define LEAK_HEAD	"asc_event: TPipe "

/* Leaky closes by the flooding user: far more than a burst. */
#define NFLOOD		50

/* Another user than the test's (root): nobody. */
#define OTHER_UID	65534

FIXTURE(reports) {
	int fd;
	int ids;
	struct stat node;
	struct asc_kmsg kmsg;
	struct asc_text log;
};

FIXTURE_SETUP(reports)
{
	asc_set_comm(COMM);
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, stat(asc_dev_path(), &self->node));
	ASSERT_EQ(0, asc_kmsg_open(&self->kmsg)) TH_LOG("/dev/kmsg: %s", strerror(errno));
}

FIXTURE_TEARDOWN(reports)
{
	chmod(asc_dev_path(), self->node.st_mode & 07777);
	if (self->fd >= 0)
		close(self->fd);
	asc_kmsg_close(&self->kmsg);
	asc_text_free(&self->log);
}

/*
 * The raw /dev/kmsg records logged since @fd was opened (seeked to the
 * end) whose text starts with @head, each as one line (newlines inside a
 * record stay escaped as \x0a).
 */
static int raw_records(int fd, const char *head, struct asc_text *out)
{
	char rec[8192], *text;
	int n = 0;
	ssize_t len;

	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		text = strchr(rec, ';');
		if (!text || strncmp(text + 1, head, strlen(head)))
			continue;
		*strchrnul(text, '\n') = '\0';
		asc_text_printf(out, "%s\n", text + 1);
		n++;
	}
	return n;
}

/* A deadlock report is one record holding all its lines. */
TEST_F(reports, deadlock_report_is_one_message)
{
	struct asc_worker v;
	struct asc_text recs = { 0 };
	int kfd;

	asc_kmsg_settle(DEADLOCK_HEAD, 1);
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, kfd);
	ASSERT_EQ(0, (int)lseek(kfd, 0, SEEK_END));
	ASSERT_EQ(0, asc_worker_start(&v, self->fd));
	ASSERT_EQ(0, W_BIND(&v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_V));
	ASSERT_EQ(-EDEADLK, W_WAIT(&v, ASC_EVENT_V_V, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, asc_worker_stop(&v));
	ASSERT_EQ(1, raw_records(kfd, DEADLOCK_HEAD, &recs)) TH_LOG("%s", asc_text_str(&recs));
	/* Its detail lines are inside the same record, after escaped newlines. */
	ASSERT_TRUE(strstr(asc_text_str(&recs),
			   "\\x0aasc_event:   V waits for V_V id 0, set by V\\x0a") != NULL) {
		TH_LOG("record: %s", asc_text_str(&recs));
	}
	ASSERT_TRUE(strstr(asc_text_str(&recs), "\\x0aasc_event:   set: none") != NULL);
	close(kfd);
	asc_text_free(&recs);
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_V, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* One leaky TPipe of the calling user: open, allocate, close. */
static int leaky_close(void)
{
	int fd = asc_open();

	if (fd < 0)
		return -errno;
	if (asc_alloc(fd, ASC_EVENT_MTE2_V) < 0) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return 0;
}

/*
 * Another user floods the log with leak reports from NFLOOD TPipes of its
 * own; the test's own leak report right after is still logged, and the
 * counters count all of them, suppressed or not.
 */
TEST_F(reports, one_user_cannot_silence_another)
{
	long long leaks0 = asc_test_stat_read("leak_reports");
	long long supp0 = asc_test_stat_read("reports_suppressed");
	char mine[128];
	int status, i;
	pid_t pid;

	asc_kmsg_settle(LEAK_HEAD, 1);
	ASSERT_EQ(0, chmod(asc_dev_path(), 0666));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(OTHER_UID) || setuid(OTHER_UID))
			_exit(2);
		for (i = 0; i < NFLOOD; i++) {
			if (leaky_close())
				_exit(3);
		}
		_exit(0);
	}
	ASSERT_EQ(0, asc_child_wait(pid, 30000));
	ASSERT_EQ(0, chmod(asc_dev_path(), self->node.st_mode & 07777));

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_RESET(self->fd, 1, 0);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	snprintf(mine, sizeof(mine), " (%s[%d] uid 0) reset with 1 IDs allocated (V_S:0)",
		 COMM, getpid());
	ASSERT_TRUE(strstr(asc_text_str(&self->log), mine) != NULL) {
		TH_LOG("no \"%s\" after the other user's flood:\n%s", mine,
		       asc_text_str(&self->log));
	}
	/* The other user's reports: at most a burst in the log, every one counted. */
	ASSERT_LE(0, supp0) TH_LOG("no reports_suppressed counter");
	status = asc_count_lines(asc_text_str(&self->log), LEAK_HEAD);
	ASSERT_GT(NFLOOD, status - 1);
	ASSERT_EQ(leaks0 + NFLOOD + 1, asc_test_stat_read("leak_reports"));
	ASSERT_EQ(supp0 + NFLOOD - (status - 1), asc_test_stat_read("reports_suppressed"));
}

/* NFLOOD forever waits of a bound V on V_V, as @uid: each a deadlock. */
static int deadlock_flood(uid_t uid)
{
	int fd, i;

	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		return 2;
	fd = asc_open();
	if (fd < 0 || asc_bind(fd, ASC_EVENT_PIPE_V) || asc_alloc(fd, ASC_EVENT_V_V))
		return 3;
	for (i = 0; i < NFLOOD; i++) {
		if (asc_wait(fd, ASC_EVENT_V_V, 0, ASC_EVENT_WAIT_FOREVER) != -EDEADLK)
			return 4;
	}
	close(fd);
	return 0;
}

/*
 * The counters count every deadlock past the log's rate limit: NFLOOD
 * cycles, each counted and failed, at most a burst of them logged, the
 * rest counted as suppressed.
 */
TEST_F(reports, counters_count_past_the_rate_limit)
{
	long long cycles0 = asc_test_stat_read("deadlocks");
	long long failed0 = asc_test_stat_read("err_deadlock");
	long long supp0 = asc_test_stat_read("reports_suppressed");
	int logged;
	pid_t pid;

	ASSERT_LE(0, supp0) TH_LOG("no reports_suppressed counter");
	ASSERT_EQ(0, chmod(asc_dev_path(), 0666));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(deadlock_flood(OTHER_UID + 1));
	ASSERT_EQ(0, asc_child_wait(pid, 30000));
	ASSERT_EQ(0, chmod(asc_dev_path(), self->node.st_mode & 07777));
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	logged = asc_count_lines(asc_text_str(&self->log), DEADLOCK_HEAD);
	ASSERT_EQ(cycles0 + NFLOOD, asc_test_stat_read("deadlocks"));
	ASSERT_EQ(failed0 + NFLOOD, asc_test_stat_read("err_deadlock"));
	ASSERT_LT(0, logged);
	ASSERT_GT(NFLOOD, logged);
	ASSERT_EQ(supp0 + NFLOOD - logged, asc_test_stat_read("reports_suppressed"));
}

/*
 * A report names the process: a secondary thread that opens the device
 * and leaks gets its process's name (the main thread's) in the report.
 */
static void *open_leak_close(void *arg)
{
	int *ret = arg;

	asc_set_comm("worker-thread");
	*ret = leaky_close();
	return NULL;
}

TEST_F(reports, owner_is_the_process)
{
	char want[128], wrong[128];
	pthread_t t;
	int ret = -1;

	asc_kmsg_settle(LEAK_HEAD, 1);
	ASSERT_EQ(0, pthread_create(&t, NULL, open_leak_close, &ret));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(0, ret);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	snprintf(want, sizeof(want), " (%s[%d] uid %u) closed with 1 IDs allocated (MTE2_V:0)",
		 COMM, getpid(), getuid());
	snprintf(wrong, sizeof(wrong), "(worker-thread[");
	ASSERT_TRUE(strstr(asc_text_str(&self->log), want) != NULL) {
		TH_LOG("no \"%s\" in:\n%s", want, asc_text_str(&self->log));
	}
	ASSERT_TRUE(strstr(asc_text_str(&self->log), wrong) == NULL);
}

/*
 * A list of IDs too long for its line is cut and ends in "...": every ID
 * of every HardEvent allocated, then reset.
 */
TEST_F(reports, long_id_list_cut_with_marker)
{
	const char *log, *line;
	int e, i;

	asc_kmsg_settle(LEAK_HEAD, 1);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < self->ids; i++) {
			ASSERT_EQ(i, asc_alloc(self->fd, e));
		}
	}
	ASSERT_RESET(self->fd, ASC_NR_EVENTS * self->ids, 0);
	asc_kmsg_read(&self->kmsg, &self->log, "asc_event:");
	log = asc_text_str(&self->log);
	line = strstr(log, "reset with ");
	ASSERT_TRUE(line != NULL) TH_LOG("%s", log);
	/* "(MTE2_MTE1:0,1,... ...)": the list ends in the marker. */
	ASSERT_TRUE(strstr(line, "(MTE2_MTE1:0") != NULL) TH_LOG("%s", line);
	ASSERT_TRUE(strstr(line, "...) and 0 flags set") != NULL) TH_LOG("%s", line);
	ASSERT_TRUE(strstr(line, "FIX_FIX") == NULL) TH_LOG("%s", line);
}

TEST_HARNESS_MAIN
