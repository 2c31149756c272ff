// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: pipe bindings and checked mode.
 *
 * BIND_PIPE: one live thread per pipe per TPipe (-EBUSY for a second),
 * taken over once the bound thread has exited (a process's main thread
 * too, while the rest of the process lives on), moved by a re-bind, dropped
 * by ASC_EVENT_PIPE_NONE, kept over RESET, -EINVAL for anything but the seven
 * pipes.  Bindings belong to a (TPipe, thread) pair.
 *
 * Checked mode (the default, from the module parameter "checked"): a bound
 * thread may set only the flags of HardEvents its pipe is the source of and
 * wait only for those it is the destination of (-EPERM); while a live
 * thread owns a pipe, nobody else may set that pipe's flags (-EPERM), and
 * the mode cannot change (-EBUSY).  With strict IDs (pyasc's rule, mode bit
 * ASC_EVENT_MODE_STRICT_IDS), nobody may set or wait on an ID that is
 * neither allocated nor the last fetched one of its HardEvent (-ENOENT).
 * Every test here runs in strict mode, set up before any thread binds;
 * asc_event_handwritten tests the default, Ascend C's rule.  The checks come in the order EINVAL, EPERM, ENOENT,
 * then the usual errors, and a refused call changes nothing.  With checked
 * mode off the same calls go through; a double set and the release of a
 * free ID stay errors in both modes.
 *
 * Worker threads (asc_test_threads.h) speak for the pipes; the main thread
 * never binds (unless a test says so); it checks the state with waits
 * (which an unbound thread may always issue) and sets the flags of the
 * pipes nobody owns.
 */
#include "asc_event_test.h"

/* Set by MTE2, waited for by V. */
#define EV	ASC_EVENT_MTE2_V
/* Set by V, waited for by MTE3. */
#define EV2	ASC_EVENT_V_MTE3

#define NWORKERS	(ASC_NR_PIPES + 1)

#define CHECKED_PARAM	MODULE_SYSFS "/parameters/checked"

/* The mode of every test's TPipe: checked, strict IDs. */
#define STRICT		((int)(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS))

/* The parameter's value before a test changed it, restored by teardown. */
static char saved_param[16];

FIXTURE(checked) {
	int fd;
	int ids;
	struct asc_worker w[NWORKERS];
};

FIXTURE_SETUP(checked)
{
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	asc_workers_start(_metadata, self->w, NWORKERS, self->fd);
}

FIXTURE_TEARDOWN(checked)
{
	asc_workers_stop(self->w, NWORKERS, self->fd);
	if (self->fd >= 0)
		close(self->fd);
	if (saved_param[0])
		asc_write_file(CHECKED_PARAM, saved_param);
}

/* The first HardEvent that @pipe sets (@from) or does not set (!@from). */
static int event_set_by(int pipe, bool from)
{
	int e;

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		if ((asc_event_src(e) == pipe) == from)
			return e;
	}
	return -1;
}

/* A bit mask of pipes, for assert_role(). */
#define PIPE_BIT(pipe)	(1U << (pipe))

/*
 * Assert which pipe @w stands for on @fd (ASC_EVENT_PIPE_NONE: none), by
 * sets of HardEvents: a bound thread sets its pipe's and no other; an
 * unbound one sets those of the pipes no live thread owns (@owned, a mask
 * of PIPE_BIT()s, says which are owned) and no other.  The main thread,
 * not bound, consumes what was set.  Leaves no ID allocated, no flag set.
 */
static void assert_role(struct __test_metadata *_metadata, int fd, struct asc_worker *w,
			int pipe, unsigned int owned)
{
	int k, e, id, exp, ret, src;

	for (k = 0; k < (pipe == ASC_EVENT_PIPE_NONE ? ASC_NR_PIPES : 2); k++) {
		if (pipe == ASC_EVENT_PIPE_NONE)
			e = event_set_by(asc_pipe_at(k), true);
		else
			e = event_set_by(pipe, k == 0);
		ASSERT_LE(0, e);
		id = asc_alloc(fd, e);
		ASSERT_LE(0, id);
		src = asc_event_src(e);
		if (pipe == ASC_EVENT_PIPE_NONE)
			exp = owned & PIPE_BIT(src) ? -EPERM : 0;
		else
			exp = src == pipe ? 0 : -EPERM;
		ret = W_SET(w, e, id);
		ASSERT_EQ(exp, ret) {
			TH_LOG("thread %d, expected on pipe %s: set %s:%d returned %d",
			       atomic_load(&w->tid), asc_pipe_name(pipe), asc_event_name(e), id,
			       ret);
		}
		ASSERT_EQ(ret ? -ETIMEDOUT : 0, asc_wait(fd, e, id, 0));
		ASSERT_EQ(0, asc_release(fd, e, id));
	}
}

/* Read the "checked" parameter: 1 for Y, 0 for N, -1 if unreadable. */
static int read_param(char *buf, size_t size)
{
	struct asc_text t = { 0 };
	int ret = -1;

	if (!asc_read_file(CHECKED_PARAM, &t)) {
		snprintf(buf, size, "%s", asc_text_str(&t));
		if (!strcmp(buf, "Y\n"))
			ret = 1;
		else if (!strcmp(buf, "N\n"))
			ret = 0;
	}
	asc_text_free(&t);
	return ret;
}

TEST_F(checked, feature_and_default_mode)
{
	struct asc_event_info info;
	char buf[16];
	int param = read_param(buf, sizeof(buf)), fd;

	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, asc_info(self->fd, &info));
	ASSERT_EQ(ASC_EVENT_FEATURE_CHECKED, info.features & ASC_EVENT_FEATURE_CHECKED) {
		TH_LOG("features %#llx: no ASC_EVENT_FEATURE_CHECKED",
		       (unsigned long long)info.features);
	}
	ASSERT_LE(0, param) TH_LOG("%s reads \"%s\"", CHECKED_PARAM, buf);
	ASSERT_EQ(1, param) TH_LOG("the default of \"checked\" is Y");
	/* A fresh TPipe: checked, hand-written IDs legal (strict_ids=N). */
	fd = asc_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(fd));
	close(fd);
}

TEST_F(checked, mode_default_from_parameter)
{
	struct stat st;
	char buf[16];
	int fd_off, fd_on, param;

	param = read_param(buf, sizeof(buf));
	ASSERT_LE(0, param) TH_LOG("%s reads \"%s\"", CHECKED_PARAM, buf);
	ASSERT_EQ(0, stat(CHECKED_PARAM, &st));
	ASSERT_EQ(0644U, st.st_mode & 0777);
	snprintf(saved_param, sizeof(saved_param), "%s", param ? "Y" : "N");

	ASSERT_EQ(0, asc_write_file(CHECKED_PARAM, "N"));
	ASSERT_EQ(0, read_param(buf, sizeof(buf)));
	fd_off = asc_open();
	ASSERT_LE(0, fd_off);
	ASSERT_EQ(0, asc_get_mode(fd_off));
	/* A TPipe opened before keeps its mode. */
	ASSERT_EQ(STRICT, asc_get_mode(self->fd));

	ASSERT_EQ(0, asc_write_file(CHECKED_PARAM, "Y"));
	ASSERT_EQ(1, read_param(buf, sizeof(buf)));
	fd_on = asc_open();
	ASSERT_LE(0, fd_on);
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(fd_on));
	ASSERT_EQ(0, asc_get_mode(fd_off));

	/* Both take a hand-written ID; the checked one refuses it when strict. */
	ASSERT_EQ(0, asc_set(fd_off, EV, self->ids - 1));
	ASSERT_EQ(0, asc_wait(fd_off, EV, self->ids - 1, 0));
	ASSERT_EQ(0, asc_set(fd_on, EV, self->ids - 1));
	ASSERT_EQ(0, asc_wait(fd_on, EV, self->ids - 1, 0));
	ASSERT_EQ(0, asc_set_mode(fd_on, STRICT));
	ASSERT_EQ(-ENOENT, asc_set(fd_on, EV, self->ids - 1));

	close(fd_off);
	close(fd_on);
	ASSERT_EQ(0, asc_write_file(CHECKED_PARAM, saved_param));
	saved_param[0] = '\0';
}

TEST_F(checked, set_mode_refuses_unknown_bits)
{
	/* Strict IDs without checked mode mean nothing: refused too. */
	static const __u32 bad[] = {
		ASC_EVENT_MODE_STRICT_IDS, 4, 5, 7, 1U << 31, ~0U, ~STRICT,
	};
	unsigned int i;
	int fd2 = asc_open();

	ASSERT_LE(0, fd2);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(-EINVAL, asc_set_mode(self->fd, bad[i])) TH_LOG("mode %#x", bad[i]);
		ASSERT_EQ(STRICT, asc_get_mode(self->fd));
	}
	ASSERT_EQ(-EINVAL, asc_set_mode_pad(self->fd, 0, 1));
	ASSERT_EQ(-EINVAL, asc_set_mode_pad(self->fd, ASC_EVENT_MODE_CHECKED, 1U << 31));
	ASSERT_EQ(STRICT, asc_get_mode(self->fd));

	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, asc_get_mode(self->fd));
	ASSERT_EQ(-EINVAL, asc_set_mode(self->fd, ASC_EVENT_MODE_STRICT_IDS));
	ASSERT_EQ(0, asc_get_mode(self->fd));
	/* The mode is per TPipe. */
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(fd2));
	ASSERT_EQ(0, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED));
	ASSERT_EQ((int)ASC_EVENT_MODE_CHECKED, asc_get_mode(self->fd));
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(STRICT, asc_get_mode(self->fd));
	close(fd2);
}

TEST_F(checked, bind_seven_pipes_from_seven_threads)
{
	struct asc_worker *extra = &self->w[ASC_NR_PIPES];
	long long busy = asc_test_stat_read("err_busy_pipe");
	int i;

	for (i = 0; i < ASC_NR_PIPES; i++) {
		ASSERT_EQ(0, W_BIND(&self->w[i], asc_pipe_at(i))) TH_LOG("pipe %d", asc_pipe_at(i));
	}
	for (i = 0; i < ASC_NR_PIPES; i++) {
		/* Binding to the pipe a thread already has is a no-op. */
		ASSERT_EQ(0, W_BIND(&self->w[i], asc_pipe_at(i)));
		ASSERT_EQ(-EBUSY, W_BIND(extra, asc_pipe_at(i))) TH_LOG("pipe %d", asc_pipe_at(i));
		ASSERT_EQ(-EBUSY, asc_bind(self->fd, asc_pipe_at(i)));
	}
	if (busy >= 0) {
		ASSERT_EQ(busy + 2 * ASC_NR_PIPES, asc_test_stat_read("err_busy_pipe"));
	}
	for (i = 0; i < ASC_NR_PIPES; i++)
		assert_role(_metadata, self->fd, &self->w[i], asc_pipe_at(i), 0);
	/* The refused binds left the extra thread unbound: every pipe is owned. */
	assert_role(_metadata, self->fd, extra, ASC_EVENT_PIPE_NONE, ~0U);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, bad_pipes_einval)
{
	static const int bad[] = { 6, 7, 8, 9, 11, 12, 100, -2, -7, INT_MIN, INT_MAX, 0x10001 };
	static const __u32 flags[] = { 1, 2, 1U << 31, ~0U };
	long long inval = asc_test_stat_read("err_invalid");
	unsigned int i;

	ASSERT_EQ(0, W_BIND(&self->w[0], ASC_EVENT_PIPE_V));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(-EINVAL, W_BIND(&self->w[0], bad[i])) TH_LOG("pipe %d", bad[i]);
		ASSERT_EQ(-EINVAL, W_BIND(&self->w[1], bad[i])) TH_LOG("pipe %d", bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		ASSERT_EQ(-EINVAL, asc_bind_flags(self->fd, ASC_EVENT_PIPE_MTE2, flags[i]));
		ASSERT_EQ(-EINVAL, asc_bind_flags(self->fd, ASC_EVENT_PIPE_NONE, flags[i]));
	}
	if (inval >= 0) {
		ASSERT_EQ(inval + 2 * (long long)ARRAY_SIZE(bad) + 2 * (long long)ARRAY_SIZE(flags),
			  asc_test_stat_read("err_invalid"));
	}
	/* Nothing changed: w0 is V, w1 and the main thread are unbound, MTE2 is free. */
	assert_role(_metadata, self->fd, &self->w[0], ASC_EVENT_PIPE_V, 0);
	assert_role(_metadata, self->fd, &self->w[1], ASC_EVENT_PIPE_NONE,
		    PIPE_BIT(ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[1], ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(&self->w[1], ASC_EVENT_PIPE_MTE2));
	assert_role(_metadata, self->fd, &self->w[1], ASC_EVENT_PIPE_MTE2, 0);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, rebind_moves)
{
	struct asc_worker *a = &self->w[0], *b = &self->w[1];

	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EBUSY, W_BIND(b, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_MTE2));
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_MTE2, 0);
	/* V was freed by the move. */
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EBUSY, W_BIND(b, ASC_EVENT_PIPE_MTE2));
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_V, 0);
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_FIX));
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_V));
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_V, 0);
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_MTE2, 0);
	ASSERT_EQ(0, W_BIND(&self->w[2], ASC_EVENT_PIPE_FIX));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, busy_bind_keeps_old_binding)
{
	struct asc_worker *a = &self->w[0], *b = &self->w[1];

	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(-EBUSY, W_BIND(a, ASC_EVENT_PIPE_MTE2));
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_V, 0);
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_MTE2, 0);
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[2], ASC_EVENT_PIPE_V));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, none_unbinds)
{
	struct asc_worker *a = &self->w[0], *b = &self->w[1];

	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_bind(self->fd, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_V));
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_V, 0);
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_NONE));
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_NONE, 0);
	/* Unbound, a may set V's flags only while nobody owns V. */
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_V));
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_V, 0);
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_NONE, PIPE_BIT(ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(-EBUSY, W_BIND(a, ASC_EVENT_PIPE_V));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, takeover_after_thread_exit)
{
	struct asc_worker *a = &self->w[0], *b = &self->w[1];

	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EBUSY, W_BIND(b, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_worker_stop(a));
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_V));
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_V, 0);
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[2], ASC_EVENT_PIPE_V));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, takeover_after_process_exit)
{
	int go[2], res[2], status;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The child shares the TPipe through the inherited fd. */
		c = (char)-asc_bind(self->fd, ASC_EVENT_PIPE_S);
		if (write(res[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(1, read(res[0], &c, 1));
	ASSERT_EQ(0, c) TH_LOG("the child's bind returned %d", -c);
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[0], ASC_EVENT_PIPE_S));
	ASSERT_EQ(-EBUSY, asc_bind(self->fd, ASC_EVENT_PIPE_S));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, W_BIND(&self->w[0], ASC_EVENT_PIPE_S));
	assert_role(_metadata, self->fd, &self->w[0], ASC_EVENT_PIPE_S, 0);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
	ASSERT_RESET(self->fd, 0, 0);
}

/* The state letter of thread @tid of this process ('Z' for a zombie), or 0. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Pipes of the child of takeover_after_main_thread_exit. */
static int leader_res = -1, leader_go = -1;

/* Outlive the main thread: report once it is a zombie, then wait for "go". */
static void *outlive_main_thread(void *arg)
{
	char c = 1;
	int i;

	(void)arg;
	for (i = 0; i < 500 && thread_state(getpid()) != 'Z'; i++)
		asc_sleep_ms(10);
	if (thread_state(getpid()) == 'Z')
		c = 0;
	if (write(leader_res, &c, 1) != 1 || read(leader_go, &c, 1) != 1)
		_exit(2);
	_exit(0);
}

/*
 * A main thread that has exited while its process lives on (a zombie until
 * the last thread exits) has exited too: its pipe can be taken over.
 */
TEST_F(checked, takeover_after_main_thread_exit)
{
	int go[2], res[2], status;
	pthread_t t;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Only the test's ends: "go" reads EOF if the test fails. */
		close(go[1]);
		close(res[0]);
		leader_res = res[1];
		leader_go = go[0];
		c = (char)-asc_bind(self->fd, ASC_EVENT_PIPE_M);
		if (write(res[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		if (pthread_create(&t, NULL, outlive_main_thread, NULL))
			_exit(3);
		pthread_exit(NULL);
	}
	ASSERT_EQ(1, read(res[0], &c, 1));
	ASSERT_EQ(0, c) TH_LOG("the child's bind returned %d", -c);
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[0], ASC_EVENT_PIPE_M));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(res[0], &c, 1));
	ASSERT_EQ(0, c) TH_LOG("the child's main thread did not become a zombie");
	ASSERT_EQ(0, W_BIND(&self->w[0], ASC_EVENT_PIPE_M));
	assert_role(_metadata, self->fd, &self->w[0], ASC_EVENT_PIPE_M, 0);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, bindings_survive_reset)
{
	ASSERT_EQ(0, W_BIND(&self->w[0], ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(&self->w[1], ASC_EVENT_PIPE_MTE3));
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[2], ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EBUSY, W_BIND(&self->w[2], ASC_EVENT_PIPE_MTE3));
	assert_role(_metadata, self->fd, &self->w[0], ASC_EVENT_PIPE_V, 0);
	assert_role(_metadata, self->fd, &self->w[1], ASC_EVENT_PIPE_MTE3, 0);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, bindings_per_tpipe_and_thread)
{
	struct asc_worker *a = &self->w[0], *b = &self->w[1];
	int fd2 = asc_open(), dupfd = dup(self->fd);

	ASSERT_LE(0, fd2);
	ASSERT_LE(0, dupfd);
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_V));

	/* Another TPipe: V is free there, and a is not bound there. */
	asc_worker_set_fd(b, fd2);
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_V));
	asc_worker_set_fd(a, fd2);
	assert_role(_metadata, fd2, a, ASC_EVENT_PIPE_NONE, PIPE_BIT(ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(a, ASC_EVENT_PIPE_MTE2));
	assert_role(_metadata, fd2, a, ASC_EVENT_PIPE_MTE2, 0);
	assert_role(_metadata, fd2, b, ASC_EVENT_PIPE_V, 0);

	/* On the first TPipe a is still V; b is not bound there. */
	asc_worker_set_fd(a, self->fd);
	asc_worker_set_fd(b, self->fd);
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_V, 0);
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_NONE, PIPE_BIT(ASC_EVENT_PIPE_V));

	/* A dup of the fd is the same TPipe. */
	asc_worker_set_fd(b, dupfd);
	ASSERT_EQ(-EBUSY, W_BIND(b, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(b, ASC_EVENT_PIPE_M));
	asc_worker_set_fd(b, self->fd);
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_M, 0);

	/* Closing the other TPipe changes nothing here. */
	close(fd2);
	assert_role(_metadata, self->fd, a, ASC_EVENT_PIPE_V, 0);
	close(dupfd);
	assert_role(_metadata, self->fd, b, ASC_EVENT_PIPE_M, 0);
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * Every HardEvent from every pipe: the set passes only from SRC, the wait
 * only from DST; a refused set sets nothing, a refused wait consumes
 * nothing.  One thread re-binds to each pipe in turn.
 */
TEST_F(checked, roles_every_event_every_pipe)
{
	struct asc_worker *w = &self->w[0];
	long long wrong = asc_test_stat_read("err_wrong_pipe");
	int id[ASC_NR_EVENTS], p, e, pipe, ret, exp, nperm = 0;

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		id[e] = asc_alloc(self->fd, e);
		ASSERT_LE(0, id[e]);
	}
	for (p = 0; p < ASC_NR_PIPES; p++) {
		pipe = asc_pipe_at(p);
		ASSERT_EQ(0, W_BIND(w, pipe));
		for (e = 0; e < ASC_NR_EVENTS; e++) {
			exp = asc_event_src(e) == pipe ? 0 : -EPERM;
			nperm += !!exp;
			ret = W_SET(w, e, id[e]);
			ASSERT_EQ(exp, ret) {
				TH_LOG("pipe %s sets %s: %d", asc_pipe_name(pipe), asc_event_name(e),
				       ret);
			}
			ASSERT_EQ(ret ? -ETIMEDOUT : 0, asc_wait(self->fd, e, id[e], 0)) {
				TH_LOG("after pipe %s set %s: %d", asc_pipe_name(pipe),
				       asc_event_name(e), ret);
			}

			exp = asc_event_dst(e) == pipe ? 0 : -EPERM;
			nperm += !!exp;
			/* w owns its pipe: only w may set that pipe's flags. */
			if (asc_event_src(e) == pipe) {
				ASSERT_EQ(0, W_SET(w, e, id[e]));
			} else {
				ASSERT_EQ(0, asc_set(self->fd, e, id[e]));
			}
			ret = W_WAIT(w, e, id[e], 0);
			ASSERT_EQ(exp, ret) {
				TH_LOG("pipe %s waits for %s: %d", asc_pipe_name(pipe),
				       asc_event_name(e), ret);
			}
			ASSERT_EQ(ret ? 0 : -ETIMEDOUT, asc_wait(self->fd, e, id[e], 0)) {
				TH_LOG("after pipe %s waited for %s: %d", asc_pipe_name(pipe),
				       asc_event_name(e), ret);
			}
		}
	}
	/* Each HardEvent has one source and one destination pipe (both V for V_V). */
	ASSERT_EQ(ASC_NR_EVENTS * 2 * (ASC_NR_PIPES - 1), nperm);
	if (wrong >= 0) {
		ASSERT_EQ(wrong + nperm, asc_test_stat_read("err_wrong_pipe"));
	}
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(0, asc_release(self->fd, e, id[e]));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, forever_wait_from_wrong_pipe_refused_at_once)
{
	int id = asc_alloc(self->fd, EV);
	__u64 start;

	ASSERT_LE(0, id);
	ASSERT_EQ(0, W_BIND(&self->w[0], ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_SET(&self->w[0], EV, id));
	start = asc_now_ns();
	ASSERT_EQ(-EPERM, W_WAIT(&self->w[0], EV, id, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(-EPERM, W_WAIT(&self->w[0], EV, id, asc_deadline_ms(3000)));
	ASSERT_GT(1000, asc_ms_since(start));
	ASSERT_EQ(0, asc_wait(self->fd, EV, id, 0));
	ASSERT_EQ(0, asc_release(self->fd, EV, id));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, unbound_threads_not_role_checked)
{
	int id[ASC_NR_EVENTS], e, fd2 = asc_open();

	ASSERT_LE(0, fd2);
	/* w0 is bound on another TPipe only; w1 was bound here, then unbound. */
	asc_worker_set_fd(&self->w[0], fd2);
	ASSERT_EQ(0, W_BIND(&self->w[0], ASC_EVENT_PIPE_V));
	asc_worker_set_fd(&self->w[0], self->fd);
	ASSERT_EQ(0, W_BIND(&self->w[1], ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(&self->w[1], ASC_EVENT_PIPE_NONE));

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		id[e] = asc_alloc(self->fd, e);
		ASSERT_LE(0, id[e]);
		ASSERT_EQ(0, asc_set(self->fd, e, id[e])) TH_LOG("%s", asc_event_name(e));
		ASSERT_EQ(0, asc_wait(self->fd, e, id[e], 0)) TH_LOG("%s", asc_event_name(e));
		ASSERT_EQ(0, W_SET(&self->w[0], e, id[e])) TH_LOG("%s", asc_event_name(e));
		ASSERT_EQ(0, W_WAIT(&self->w[1], e, id[e], 0)) TH_LOG("%s", asc_event_name(e));
		ASSERT_EQ(0, W_SET(&self->w[1], e, id[e])) TH_LOG("%s", asc_event_name(e));
		ASSERT_EQ(0, W_WAIT(&self->w[0], e, id[e], 0)) TH_LOG("%s", asc_event_name(e));
	}
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(0, asc_release(self->fd, e, id[e]));
	}
	close(fd2);
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, handwritten_ids_enoent)
{
	struct asc_worker *src = &self->w[0], *dst = &self->w[1];
	long long noent = asc_test_stat_read("err_not_allocated");
	int i, n = 0;

	ASSERT_EQ(0, W_BIND(src, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(dst, ASC_EVENT_PIPE_V));
	for (i = 0; i < self->ids; i++) {
		/* MTE2 has its thread: the main thread may not set for it at all. */
		ASSERT_EQ(-EPERM, asc_set(self->fd, EV, i)) TH_LOG("id %d", i);
		ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV, i, 0)) TH_LOG("id %d", i);
		ASSERT_EQ(-ENOENT, W_SET(src, EV, i)) TH_LOG("id %d", i);
		ASSERT_EQ(-ENOENT, W_WAIT(dst, EV, i, 0)) TH_LOG("id %d", i);
		ASSERT_EQ(-ENOENT, W_WAIT(dst, EV, i, asc_deadline_ms(2000))) TH_LOG("id %d", i);
		ASSERT_EQ(-ENOENT, W_WAIT(dst, EV, i, ASC_EVENT_WAIT_FOREVER)) TH_LOG("id %d", i);
		n += 5;
	}
	if (noent >= 0) {
		ASSERT_EQ(noent + n, asc_test_stat_read("err_not_allocated"));
	}
	/*
	 * Nothing was set by the refused sets: a past wait (unchecked) would say
	 * so.  The mode changes only with no pipe owned.
	 */
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, W_BIND(src, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, W_BIND(dst, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, i, 0)) TH_LOG("id %d", i);
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, order_einval_eperm_enoent)
{
	struct asc_worker *v = &self->w[0];
	struct asc_event_ref ref = { .event = EV, .id = 0, .flags = 1 };
	struct asc_event_wait wait = { .deadline = 0, .event = EV, .id = 0, .pad = 1 };

	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	/* Bad arguments first, even from the wrong pipe with a hand-written ID. */
	ASSERT_EQ(-EINVAL, W_SET(v, ASC_NR_EVENTS, 0));
	ASSERT_EQ(-EINVAL, W_SET(v, EV, self->ids));
	ASSERT_EQ(-EINVAL, W_SET(v, EV, -1));
	ASSERT_EQ(-EINVAL, W_WAIT(&self->w[1], ASC_NR_EVENTS, 0, 0));
	ASSERT_EQ(-EINVAL, W_WAIT(v, EV2, self->ids, 0));
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_FLAG, &ref));
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_WAIT_FLAG, &wait));
	/* Then the role, before the ID. */
	ASSERT_EQ(-EPERM, W_SET(v, EV, 0));
	ASSERT_EQ(-EPERM, W_WAIT(v, EV2, 0, 0));
	/* Then the ID. */
	ASSERT_EQ(-ENOENT, W_SET(v, EV2, 0));
	ASSERT_EQ(-ENOENT, W_WAIT(v, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, allocated_ids_usable)
{
	struct asc_worker *src = &self->w[0], *dst = &self->w[1];
	int i, id;

	ASSERT_EQ(0, W_BIND(src, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(dst, ASC_EVENT_PIPE_V));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, W_SET(src, EV, i)) TH_LOG("id %d", i);
		ASSERT_EQ(0, W_WAIT(dst, EV, i, 0)) TH_LOG("id %d", i);
	}
	/* Allocated by a bound thread: the same pool. */
	id = self->ids - 1;
	ASSERT_EQ(0, asc_release(self->fd, EV, id));
	ASSERT_EQ(-ENOENT, W_SET(src, EV, id));
	ASSERT_EQ(id, W_ALLOC(dst, EV));
	ASSERT_EQ(0, W_SET(src, EV, id));
	ASSERT_EQ(0, W_WAIT(dst, EV, id, ASC_EVENT_WAIT_FOREVER));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, EV, i));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, last_fetched_id_usable)
{
	struct asc_worker *src = &self->w[0], *dst = &self->w[1];

	ASSERT_EQ(0, W_BIND(src, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(dst, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, W_SET(src, EV, 0));
	ASSERT_EQ(0, W_WAIT(dst, EV, 0, 0));
	/* It stays usable, as the article's back-to-back pairs use it. */
	ASSERT_EQ(0, W_SET(src, EV, 0));
	ASSERT_EQ(0, W_WAIT(dst, EV, 0, ASC_EVENT_WAIT_FOREVER));
	/* Fetched by a bound thread: the same memory. */
	ASSERT_EQ(0, W_FETCH(dst, EV));
	ASSERT_EQ(0, W_SET(src, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	/* Only that ID. */
	if (self->ids > 1) {
		ASSERT_EQ(-ENOENT, W_SET(src, EV, 1));
	}
	/* Fetches of other HardEvents do not make it forget. */
	ASSERT_EQ(0, asc_fetch(self->fd, EV2));
	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_MTE2));
	ASSERT_EQ(0, W_SET(src, EV, 0));
	ASSERT_EQ(0, W_WAIT(dst, EV, 0, 0));
	ASSERT_EQ(0, W_SET(dst, EV2, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV2, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, earlier_fetch_forgotten_unless_allocated)
{
	struct asc_worker *src = &self->w[0], *dst = &self->w[1];

	if (self->ids < 3)
		SKIP(return, "%s: needs 3 IDs, the device has %d", _metadata->name, self->ids);
	ASSERT_EQ(0, W_BIND(src, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(dst, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_fetch(self->fd, EV));
	/* 0 is allocated, 1 is the last fetch: both fine. */
	ASSERT_EQ(0, W_SET(src, EV, 0));
	ASSERT_EQ(0, W_SET(src, EV, 1));
	ASSERT_EQ(0, W_WAIT(dst, EV, 0, 0));
	ASSERT_EQ(0, W_WAIT(dst, EV, 1, 0));

	/* Released, 0 is neither allocated nor the last fetch any more. */
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, W_SET(src, EV, 0));
	ASSERT_EQ(-ENOENT, W_WAIT(dst, EV, 0, 0));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, W_SET(src, EV, 1));
	ASSERT_EQ(0, W_WAIT(dst, EV, 1, 0));

	/* A new fetch returns 0 again and makes 1 hand-written. */
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, W_SET(src, EV, 0));
	ASSERT_EQ(-ENOENT, W_SET(src, EV, 1));
	ASSERT_EQ(-ENOENT, W_WAIT(dst, EV, 1, 0));
	ASSERT_EQ(0, W_WAIT(dst, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, failed_fetch_keeps_last_fetched)
{
	int i;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, EV));
	}
	ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, EV));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, EV, i));
	}
	/* The last successful fetch of EV returned 0. */
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	if (self->ids > 1) {
		ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, self->ids - 1));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * Regression: a FETCH_ID whose result cannot be written back fails with
 * EFAULT, and the ID the caller never received must not become the last
 * fetched one (found by asc_event_fuzz).  The argument sits in a read-only
 * page: the driver reads it, and its write of the ID faults.
 */
TEST_F(checked, undelivered_fetch_not_remembered)
{
	struct asc_event_ref *ro;
	void *page;
	int i;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(page != MAP_FAILED);
	ro = page;
	ro->event = EV;
	ASSERT_EQ(0, mprotect(page, 4096, PROT_READ));
	ASSERT_EQ(-1, ioctl(self->fd, ASC_EVENT_IOC_FETCH_ID, ro));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(0, munmap(page, 4096));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	/* 0 was the last fetch the caller saw; 1 was never delivered. */
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	for (i = 1; i < self->ids; i++) {
		ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, i));
	}
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, reset_forgets_fetched_and_allocated)
{
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_alloc(self->fd, EV2));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_release(self->fd, EV2, 0));
	ASSERT_EQ(0, asc_alloc(self->fd, EV2));
	ASSERT_RESET(self->fd, 1, 0);
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV2, 0));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV2, 0, 0));
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * Build a known state, throw every kind of refused call at it, and find
 * the state unchanged and the TPipe working.
 */
TEST_F(checked, refused_calls_change_nothing)
{
	struct asc_worker *mte2 = &self->w[0], *v = &self->w[1], *mte3 = &self->w[2];
	struct asc_event_ref ref = { .event = EV, .id = 0, .pad = 1 };
	struct asc_event_wait wait = { .deadline = 0, .event = EV, .id = 0, .flags = 1 };
	int hand = self->ids - 1;

	if (self->ids < 3)
		SKIP(return, "%s: needs 3 IDs, the device has %d", _metadata->name, self->ids);
	ASSERT_EQ(0, W_BIND(mte2, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(0, W_BIND(mte3, ASC_EVENT_PIPE_MTE3));
	/* State: EV 0 and 1 allocated, EV:0 set, EV2:0 fetched. */
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(1, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, W_SET(mte2, EV, 0));
	ASSERT_EQ(0, asc_fetch(self->fd, EV2));

	ASSERT_EQ(-EBUSY, W_SET(mte2, EV, 0));
	ASSERT_EQ(-EPERM, asc_set(self->fd, EV, 0));
	ASSERT_EQ(-EPERM, W_SET(v, EV, 1));
	ASSERT_EQ(-EPERM, W_SET(mte3, EV, 0));
	ASSERT_EQ(-EPERM, W_WAIT(mte2, EV, 0, 0));
	ASSERT_EQ(-EPERM, W_WAIT(mte3, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(-EPERM, W_SET(mte3, EV2, 0));
	ASSERT_EQ(-ENOENT, W_SET(mte2, EV, hand));
	ASSERT_EQ(-ENOENT, W_WAIT(v, EV, hand, 0));
	ASSERT_EQ(-EPERM, asc_set(self->fd, EV2, 1));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV2, 1, 0));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, hand));
	ASSERT_EQ(-ENOENT, asc_release(self->fd, EV2, 0));
	ASSERT_EQ(-EINVAL, W_SET(mte2, ASC_NR_EVENTS, 0));
	ASSERT_EQ(-EINVAL, W_SET(mte2, EV, self->ids));
	ASSERT_EQ(-EINVAL, W_WAIT(v, EV, self->ids, 0));
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_FLAG, &ref));
	ASSERT_EQ(-EINVAL, asc_ioctl(self->fd, ASC_EVENT_IOC_WAIT_FLAG, &wait));
	ASSERT_EQ(-EINVAL, asc_release(self->fd, EV, self->ids));
	ASSERT_EQ(-EINVAL, asc_alloc(self->fd, ASC_NR_EVENTS));
	ASSERT_EQ(-EINVAL, W_BIND(v, 6));
	ASSERT_EQ(-EBUSY, W_BIND(v, ASC_EVENT_PIPE_MTE2));
	ASSERT_EQ(-EINVAL, asc_set_mode(self->fd, 2));
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, 0));

	/* Nothing moved: 2 allocated (the next alloc is 2), EV:0 set, EV:1 not. */
	ASSERT_EQ(2, asc_fetch(self->fd, EV));
	ASSERT_EQ(-ETIMEDOUT, W_WAIT(v, EV, 1, 0));
	ASSERT_EQ(0, W_WAIT(v, EV, 0, 0));
	ASSERT_EQ(-ETIMEDOUT, W_WAIT(v, EV, 0, 0));
	/* EV2:0 is still the last fetch, roles unchanged. */
	ASSERT_EQ(0, W_SET(v, EV2, 0));
	ASSERT_EQ(0, W_WAIT(mte3, EV2, 0, 0));
	ASSERT_EQ(STRICT, asc_get_mode(self->fd));
	/* And it works on. */
	ASSERT_EQ(0, W_SET(mte2, EV, 1));
	ASSERT_EQ(0, W_WAIT(v, EV, 1, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, asc_release(self->fd, EV, 0));
	ASSERT_EQ(0, asc_release(self->fd, EV, 1));
	ASSERT_RESET(self->fd, 0, 0);
}

/* A flag set with checked mode off stays set through refused waits. */
TEST_F(checked, refused_wait_keeps_flag_across_modes)
{
	struct asc_worker *v = &self->w[0];
	int hand = self->ids - 1;

	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, hand));
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-ENOENT, W_WAIT(v, EV, hand, 0));
	ASSERT_EQ(-ENOENT, asc_wait(self->fd, EV, hand, 0));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, hand));
	/* The mode, strict IDs included, changes once V is unmanned. */
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, 0));
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, ASC_EVENT_MODE_CHECKED));
	ASSERT_EQ(STRICT, asc_get_mode(self->fd));
	ASSERT_EQ(0, W_BIND(v, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, hand));
	ASSERT_EQ(0, W_WAIT(v, EV, hand, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F(checked, double_set_and_free_release_in_both_modes)
{
	long long dbl = asc_test_stat_read("err_double_set");
	long long noent = asc_test_stat_read("err_not_allocated");
	int m, id;

	for (m = 0; m < 2; m++) {
		ASSERT_EQ(0, asc_set_mode(self->fd, m ? 0 : ASC_EVENT_MODE_CHECKED));
		id = asc_alloc(self->fd, EV);
		ASSERT_EQ(0, id);
		ASSERT_EQ(0, asc_set(self->fd, EV, id));
		ASSERT_EQ(-EBUSY, asc_set(self->fd, EV, id)) TH_LOG("mode %d", !m);
		ASSERT_EQ(0, asc_wait(self->fd, EV, id, 0));
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, id, 0));
		ASSERT_EQ(0, asc_release(self->fd, EV, id));
		ASSERT_EQ(-ENOENT, asc_release(self->fd, EV, id)) TH_LOG("mode %d", !m);
		ASSERT_EQ(-ENOENT, asc_release(self->fd, EV2, self->ids - 1)) TH_LOG("mode %d", !m);
		ASSERT_RESET(self->fd, 0, 0);
	}
	if (dbl >= 0) {
		ASSERT_EQ(dbl + 2, asc_test_stat_read("err_double_set"));
		ASSERT_EQ(noent + 4, asc_test_stat_read("err_not_allocated"));
	}
}

TEST_F(checked, mode_off_lets_the_same_calls_through)
{
	struct asc_worker *w = &self->w[0];
	long long wrong = asc_test_stat_read("err_wrong_pipe");
	long long noent = asc_test_stat_read("err_not_allocated");
	int p, e, hand = self->ids - 1;

	ASSERT_EQ(0, asc_set_mode(self->fd, 0));
	ASSERT_EQ(0, asc_get_mode(self->fd));
	for (p = 0; p < ASC_NR_PIPES; p++) {
		ASSERT_EQ(0, W_BIND(w, asc_pipe_at(p)));
		for (e = 0; e < ASC_NR_EVENTS; e++) {
			/* Wrong pipe (mostly), hand-written ID: refused in checked mode. */
			ASSERT_EQ(0, W_SET(w, e, hand)) {
				TH_LOG("pipe %s sets %s:%d", asc_pipe_name(asc_pipe_at(p)),
				       asc_event_name(e), hand);
			}
			ASSERT_EQ(0, W_WAIT(w, e, hand, 0)) {
				TH_LOG("pipe %s waits for %s:%d", asc_pipe_name(asc_pipe_at(p)),
				       asc_event_name(e), hand);
			}
		}
	}
	if (wrong >= 0) {
		ASSERT_EQ(wrong, asc_test_stat_read("err_wrong_pipe"));
		ASSERT_EQ(noent, asc_test_stat_read("err_not_allocated"));
	}
	/* Bound to V: back in checked mode the same calls are refused. */
	ASSERT_EQ(-EBUSY, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(0, W_BIND(w, ASC_EVENT_PIPE_NONE));
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	ASSERT_EQ(0, W_BIND(w, ASC_EVENT_PIPE_V));
	ASSERT_EQ(-EPERM, W_SET(w, EV, hand));
	ASSERT_EQ(-ENOENT, W_SET(w, EV2, hand));
	ASSERT_EQ(-ENOENT, asc_set(self->fd, EV, hand));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_HARNESS_MAIN
