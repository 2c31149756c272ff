// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: the module itself (root only).
 *
 * rmmod is refused while a TPipe is open, and works once it is closed;
 * the module loads with any event_ids in 1..64 and refuses any other.
 * Each test leaves the module loaded again with the event_ids it found,
 * from $ASC_EVENT_KO (the .ko the test runner loaded); without it, or
 * without root, the tests skip.
 */
#include "asc_event_test.h"

#define PARAM_PATH	MODULE_SYSFS "/parameters/event_ids"
#define EV		ASC_EVENT_M_V

FIXTURE(module) {
	int saved_ids;		/* event_ids of the module found loaded */
	int fd;			/* the test's open, -1 when closed */
	pid_t child;		/* a child holding the device, 0 when none */
};

static int module_load_ids(int ids)
{
	char params[32];

	snprintf(params, sizeof(params), "event_ids=%d", ids);
	return module_load(params);
}

/* event_ids of a fresh open, or -errno. */
static int device_ids(void)
{
	struct asc_event_info info;
	int fd = asc_open(), ret;

	if (fd < 0)
		return -errno;
	ret = asc_info(fd, &info);
	close(fd);
	return ret ? ret : (int)info.event_ids;
}

FIXTURE_SETUP(module)
{
	const char *ko = getenv("ASC_EVENT_KO");

	if (geteuid() != 0)
		ASC_SKIP_SETUP("needs root");
	if (!ko || !*ko)
		ASC_SKIP_SETUP("ASC_EVENT_KO is not set");
	if (access(ko, R_OK))
		ASC_SKIP_SETUP("%s: %s", ko, strerror(errno));
	if (!module_loaded())
		ASC_SKIP_SETUP("module %s is not loaded", MODULE_NAME);
	self->fd = -1;
	close(asc_open_or_skip(_metadata));
	self->saved_ids = device_ids();
	ASSERT_LT(0, self->saved_ids);
}

/* Unload, retrying while a canceled waiter is still on its way out. */
static int module_unload_retry(void)
{
	int i, ret = module_unload();

	for (i = 0; i < 100 && ret == -EWOULDBLOCK; i++) {
		asc_sleep_ms(10);
		ret = module_unload();
	}
	return ret;
}

/*
 * Leave the module loaded as it was found, whatever the test did: after a
 * failed assertion the test's open (maybe with a waiter on it) and child
 * are still there, so drop them first.
 */
FIXTURE_TEARDOWN(module)
{
	if (self->saved_ids <= 0)
		return;
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	if (self->fd >= 0) {
		asc_reset(self->fd, NULL);
		close(self->fd);
	}
	if (module_loaded()) {
		if (device_ids() == self->saved_ids)
			return;
		EXPECT_EQ(0, module_unload_retry());
	}
	EXPECT_EQ(0, module_load_ids(self->saved_ids));
	EXPECT_EQ(self->saved_ids, device_ids());
}

/* Unload (nothing may hold it), check it is gone, load it back as found. */
static void unload_and_reload(struct __test_metadata *_metadata, int ids)
{
	ASSERT_EQ(0, module_unload());
	ASSERT_FALSE(module_loaded());
	ASSERT_GT(0, device_ids());
	ASSERT_EQ(0, module_load_ids(ids));
	ASSERT_TRUE(module_loaded());
	ASSERT_EQ(ids, device_ids());
}

TEST_F_TIMEOUT(module, rmmod_refused_while_open, 20)
{
	int ret;

	self->fd = asc_open();
	ASSERT_LE(0, self->fd);
	ret = module_unload();
	ASSERT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("delete_module: %d", ret);
	ASSERT_TRUE(module_loaded());
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	unload_and_reload(_metadata, self->saved_ids);
}

TEST_F_TIMEOUT(module, rmmod_refused_while_waiting, 20)
{
	struct asc_test_waiter w;
	int ret;

	self->fd = asc_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	ASSERT_EQ(0, asc_waiter_start(&w, self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_TRUE(asc_waiter_blocked(&w, 2000));
	ret = module_unload();
	ASSERT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("delete_module: %d", ret);
	ASSERT_RESET(self->fd, 0, 0);
	ASSERT_EQ(0, asc_waiter_join(&w, 2000));
	ASSERT_EQ(-ECANCELED, w.ret);
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	unload_and_reload(_metadata, self->saved_ids);
}

TEST_F_TIMEOUT(module, rmmod_refused_while_child_holds_it, 20)
{
	int pipefd[2], ret;
	char c;

	self->fd = asc_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, pipe(pipefd));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		close(pipefd[1]);
		_exit(read(pipefd[0], &c, 1) == 0 ? 0 : 1);
	}
	close(pipefd[0]);
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	ret = module_unload();
	ASSERT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("delete_module: %d", ret);
	ASSERT_EQ(0, close(pipefd[1]));
	ASSERT_EQ(0, asc_child_wait(self->child, 3000));
	self->child = 0;
	unload_and_reload(_metadata, self->saved_ids);
}

TEST_F_TIMEOUT(module, load_with_each_geometry, 30)
{
	static const int geometry[] = { 1, 4, ASC_EVENT_IDS_MAX };
	unsigned int g;
	int i;

	for (g = 0; g < ARRAY_SIZE(geometry); g++) {
		int n = geometry[g];

		unload_and_reload(_metadata, n);
		self->fd = asc_open();
		ASSERT_LE(0, self->fd);
		for (i = 0; i < n; i++) {
			ASSERT_EQ(i, asc_alloc(self->fd, EV));
		}
		ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, EV)) TH_LOG("event_ids=%d", n);
		ASSERT_EQ(-EINVAL, asc_set(self->fd, EV, n)) TH_LOG("event_ids=%d", n);
		ASSERT_EQ(0, asc_set(self->fd, EV, n - 1)) TH_LOG("event_ids=%d", n);
		ASSERT_EQ(0, asc_wait(self->fd, EV, n - 1, 0)) TH_LOG("event_ids=%d", n);
		ASSERT_RESET(self->fd, n, 0);
		ASSERT_EQ(0, close(self->fd));
		self->fd = -1;
	}
	unload_and_reload(_metadata, self->saved_ids);
}

TEST_F_TIMEOUT(module, bad_event_ids_refused, 30)
{
	static const char * const bad[] = {
		"event_ids=0", "event_ids=65", "event_ids=1000", "event_ids=-1",
		"event_ids=abc", "event_ids=4294967300", "event_ids=",
	};
	unsigned int i;
	int ret;

	ASSERT_EQ(0, module_unload());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = module_load(bad[i]);
		EXPECT_TRUE(ret == -EINVAL || ret == -ERANGE) TH_LOG("%s: %d", bad[i], ret);
		if (!ret) {
			ASSERT_EQ(0, module_unload());
		}
		ASSERT_FALSE(module_loaded()) TH_LOG("%s", bad[i]);
	}
	ASSERT_EQ(0, module_load_ids(self->saved_ids));
	ASSERT_EQ(self->saved_ids, device_ids());
}

/* Write @value to the event_ids parameter: 0 or -errno. */
static int write_param(const char *value)
{
	int fd = open(PARAM_PATH, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(value), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, value, len);
	ret = ret == len ? 0 : ret < 0 ? -errno : -EIO;
	close(fd);
	return (int)ret;
}

TEST_F_TIMEOUT(module, param_change_applies_to_new_opens, 20)
{
	static const char * const bad[] = { "0", "65", "-1", "abc" };
	int other = self->saved_ids == 4 ? 2 : 4;
	char value[16];
	struct stat st;
	unsigned int i;
	int ret;

	if (stat(PARAM_PATH, &st) || !(st.st_mode & 0200))
		SKIP(return, "%s: %s is read-only", _metadata->name, PARAM_PATH);
	self->fd = asc_open();
	ASSERT_LE(0, self->fd);
	snprintf(value, sizeof(value), "%d", other);
	ASSERT_EQ(0, write_param(value));
	ASSERT_EQ(other, device_ids());
	ASSERT_EQ(self->saved_ids, asc_event_ids(_metadata, self->fd));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = write_param(bad[i]);
		EXPECT_TRUE(ret == -EINVAL || ret == -ERANGE) TH_LOG("event_ids=%s: %d", bad[i], ret);
	}
	ASSERT_EQ(other, device_ids());
	snprintf(value, sizeof(value), "%d", self->saved_ids);
	ASSERT_EQ(0, write_param(value));
	ASSERT_EQ(self->saved_ids, device_ids());
}

TEST_HARNESS_MAIN
