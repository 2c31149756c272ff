// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: who may open the device, what one open can reach of
 * another, and what the kernel writes into the caller's memory.
 *
 * access: the node is root's (0600 root:root, as Documentation/admin.rst
 * says); any other user is refused with EACCES whatever the open mode,
 * also through an O_PATH descriptor; the documented "chgrp GROUP; chmod
 * 0660" lets the group in and nobody else, and undoing it shuts the group
 * out again.  These tests need root, which they drop in child processes;
 * they restore the node's owner and mode whatever happens.
 *
 * reach: another process's TPipe cannot be reached.  Another user cannot
 * open, read the link of or read the fdinfo of /proc/PID/fd/N, nor take
 * the file with pidfd_getfd() or attach with ptrace.  Where /proc does
 * allow opening the link (the same user, or root), that is a new open of
 * the device: a new, empty TPipe, a different struct file (kcmp), and the
 * other process's IDs and flags are untouched.  The device has no channel
 * but ioctl: read, write, mmap and lseek fail.
 *
 * poison: every ioctl's argument is placed between guard bytes, at aligned
 * and misaligned addresses, with its output fields pre-filled with poison
 * patterns.  The kernel must write each output field with its exact value
 * (so no stale or uninitialised byte survives, padding included), never
 * write outside the struct, and write nothing at all when the ioctl fails
 * or only takes input, on every way a wait can end (the deadlock detector's
 * -EDEADLK included).
 *
 * The TPipes run in checked mode, the default: every ID set or waited on
 * is allocated or fetched first.
 */
#include "asc_event_test.h"

#include <grp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/sysmacros.h>
#include <linux/kcmp.h>

#define EV		ASC_EVENT_MTE3_V

/* Credentials of the unprivileged test users; no passwd entry is needed. */
#define UID_A		4201
#define UID_B		4202
#define GID_ASC		4200	/* the group given access the documented way */
#define GID_OTHER	4203	/* a group without access */
#define UID_NOBODY	65534
#define GID_NOGROUP	65534

#ifndef SYS_pidfd_open
#define SYS_pidfd_open	434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd	438
#endif

/*
 * CHECK() - in a child process: on a false @cond, report where and return 1
 * (the child's exit status), so the parent's ASSERT_EQ(0, ...) fails and the
 * line that did is in the log.
 */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "# %s:%d: child %d: %s is false (errno %d: %s)\n", \
			__FILE__, __LINE__, (int)getpid(), #cond, errno,	\
			strerror(errno));				\
		return 1;						\
	}								\
} while (0)

/**
 * struct creds - the identity a child process takes.
 * @uid: real, effective and saved user ID.
 * @gid: real, effective and saved group ID.
 * @ngroups: entries of @groups in use.
 * @groups: supplementary groups.
 */
struct creds {
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[2];
};

/* Take @c for good; setuid() to non-root drops every capability. */
static int become(const struct creds *c)
{
	if (setgroups(c->ngroups, c->groups) || setgid(c->gid) || setuid(c->uid))
		return -1;
	if (getuid() != c->uid || geteuid() != c->uid || getegid() != c->gid)
		return -1;
	return 0;
}

/*
 * Run @fn(@arg) in a child process with credentials @c.
 * Return: the child's exit status (0 when @fn returned 0), see asc_child_wait().
 */
static int run_as(const struct creds *c, int (*fn)(void *), void *arg)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (become(c)) {
			fprintf(stderr, "# cannot become uid %u gid %u: %s\n",
				(unsigned int)c->uid, (unsigned int)c->gid, strerror(errno));
			_exit(100);
		}
		_exit(fn(arg));
	}
	return asc_child_wait(pid, 10000);
}

static const struct creds user_a_asc = {
	.uid = UID_A, .gid = UID_A, .ngroups = 1, .groups = { GID_ASC },
};

static const struct creds user_b_asc = {
	.uid = UID_B, .gid = UID_B, .ngroups = 1, .groups = { GID_ASC },
};

static const struct creds user_a_other = {
	.uid = UID_A, .gid = GID_OTHER, .ngroups = 1, .groups = { GID_OTHER },
};

static const struct creds user_a_primary_asc = {
	.uid = UID_A, .gid = GID_ASC, .ngroups = 0,
};

static const struct creds nobody = {
	.uid = UID_NOBODY, .gid = GID_NOGROUP, .ngroups = 0,
};

/* Every way to open the node fails with EACCES, and O_PATH gives nothing. */
static int open_refused(void *arg)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR, O_RDWR | O_NONBLOCK };
	struct asc_event_info info;
	char link[64];
	unsigned int i;
	int fd;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		errno = 0;
		fd = open(asc_dev_path(), modes[i] | O_CLOEXEC);
		CHECK(fd < 0 && errno == EACCES);
	}
	/* O_PATH needs no permission on the node, and does not open the device. */
	fd = open(asc_dev_path(), O_PATH | O_CLOEXEC);
	CHECK(fd >= 0);
	errno = 0;
	CHECK(ioctl(fd, ASC_EVENT_IOC_INFO, &info) < 0 && errno == EBADF);
	/* Reopening it through /proc checks the node's permission again. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	errno = 0;
	CHECK(open(link, O_RDWR | O_CLOEXEC) < 0 && errno == EACCES);
	close(fd);
	return 0;
}

/* The node opens, and the TPipe works. */
static int open_allowed(void *arg)
{
	struct asc_event_reset r = { 0 };
	struct asc_event_info info;
	int fd;

	(void)arg;
	fd = asc_open();
	CHECK(fd >= 0);
	CHECK(asc_info(fd, &info) == 0 && info.abi_version == ASC_EVENT_ABI_VERSION);
	CHECK(asc_alloc(fd, EV) == 0);
	CHECK(asc_set(fd, EV, 0) == 0);
	CHECK(asc_wait(fd, EV, 0, 0) == 0);
	CHECK(asc_set(fd, EV, 0) == 0);
	CHECK(asc_reset(fd, &r) == 0 && r.ids_held == 1 && r.flags_pending == 1);
	CHECK(close(fd) == 0);
	return 0;
}

/*
 * The access fixture: root only.  @node is the node as found, restored by
 * the teardown; @fd is an open of it.
 */
FIXTURE(access) {
	struct stat node;
	int fd;
	int ids;
};

FIXTURE_SETUP(access)
{
	if (geteuid() != 0)
		ASC_SKIP_SETUP("needs root to switch users");
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	ASSERT_EQ(0, stat(asc_dev_path(), &self->node));
}

FIXTURE_TEARDOWN(access)
{
	struct stat st;

	if (self->fd >= 0)
		close(self->fd);
	EXPECT_EQ(0, chown(asc_dev_path(), self->node.st_uid, self->node.st_gid));
	EXPECT_EQ(0, chmod(asc_dev_path(), self->node.st_mode & 07777));
	EXPECT_EQ(0, stat(asc_dev_path(), &st));
	EXPECT_EQ(self->node.st_mode, st.st_mode);
	EXPECT_EQ(self->node.st_uid, st.st_uid);
	EXPECT_EQ(self->node.st_gid, st.st_gid);
}

/* The documented "chgrp GROUP /dev/asc_event; chmod 0660 /dev/asc_event". */
static void grant_group(struct __test_metadata *_metadata, gid_t gid)
{
	ASSERT_EQ(0, chown(asc_dev_path(), (uid_t)-1, gid));
	ASSERT_EQ(0, chmod(asc_dev_path(), 0660));
}

/* Back to the documented default, 0600 root:root. */
static void revoke_access(struct __test_metadata *_metadata)
{
	struct stat st;

	ASSERT_EQ(0, chown(asc_dev_path(), 0, 0));
	ASSERT_EQ(0, chmod(asc_dev_path(), 0600));
	ASSERT_EQ(0, stat(asc_dev_path(), &st));
	ASSERT_EQ(0600U, st.st_mode & 07777U);
	ASSERT_EQ(0U, st.st_uid);
	ASSERT_EQ(0U, st.st_gid);
}

TEST_F(access, node_as_documented)
{
	unsigned int maj, min;
	char buf[32];
	FILE *f;

	ASSERT_TRUE(S_ISCHR(self->node.st_mode));
	ASSERT_EQ(0600U, self->node.st_mode & 07777U) {
		TH_LOG("mode %#o", self->node.st_mode & 07777U);
	}
	ASSERT_EQ(0U, self->node.st_uid);
	ASSERT_EQ(0U, self->node.st_gid);
	/* The node is the misc device the module registered. */
	f = fopen("/sys/class/misc/asc_event/dev", "re");
	ASSERT_TRUE(f != NULL) TH_LOG("no /sys/class/misc/asc_event: %s", strerror(errno));
	ASSERT_TRUE(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	ASSERT_EQ(2, sscanf(buf, "%u:%u", &maj, &min));
	ASSERT_EQ(10U, maj);
	ASSERT_EQ(maj, major(self->node.st_rdev));
	ASSERT_EQ(min, minor(self->node.st_rdev));
}

TEST_F(access, other_users_refused)
{
	const struct creds many_groups = {
		.uid = UID_A, .gid = UID_A, .ngroups = 2, .groups = { GID_ASC, GID_OTHER },
	};

	ASSERT_EQ(0, run_as(&nobody, open_refused, NULL));
	ASSERT_EQ(0, run_as(&many_groups, open_refused, NULL));
	/* Root keeps its access. */
	ASSERT_EQ(0, open_allowed(NULL));
}

TEST_F(access, group_access_the_documented_way)
{
	/* chgrp alone is not enough: the group has no bits in 0600. */
	ASSERT_EQ(0, chown(asc_dev_path(), (uid_t)-1, GID_ASC));
	ASSERT_EQ(0, run_as(&user_a_asc, open_refused, NULL));

	grant_group(_metadata, GID_ASC);
	ASSERT_EQ(0, run_as(&user_a_asc, open_allowed, NULL));
	ASSERT_EQ(0, run_as(&user_b_asc, open_allowed, NULL));
	/* Neither another group nor "others" get in. */
	ASSERT_EQ(0, run_as(&user_a_other, open_refused, NULL));
	ASSERT_EQ(0, run_as(&nobody, open_refused, NULL));
	/* The group as primary group, no supplementary groups: in. */
	ASSERT_EQ(0, run_as(&user_a_primary_asc, open_allowed, NULL));

	revoke_access(_metadata);
	ASSERT_EQ(0, run_as(&user_a_asc, open_refused, NULL));
	ASSERT_EQ(0, open_allowed(NULL));
}

/**
 * struct holder - a process that holds a TPipe with state in it: every ID
 * of EV allocated and the flag (EV, 0) set.
 * @pid: the process.
 * @fd: its descriptor number of the device.
 * @ids: event_ids of its TPipe.
 * @ready: read end: the holder writes @fd and @ids here once it is set up.
 * @done: write end: closing it tells the holder to check its state and exit.
 */
struct holder {
	pid_t pid;
	int fd;
	int ids;
	int ready;
	int done;
};

/*
 * Fill a TPipe as a holder does.
 * Return: 0, or the line that failed.
 */
static int holder_fill(int fd, int ids)
{
	int i;

	for (i = 0; i < ids; i++)
		if (asc_alloc(fd, EV) != i)
			return __LINE__;
	if (asc_alloc(fd, EV) != -ENOSPC || asc_set(fd, EV, 0) != 0)
		return __LINE__;
	return 0;
}

/*
 * The state holder_fill() made is all there.
 * Return: 0, or the line that failed.
 */
static int holder_intact(int fd, int ids)
{
	struct asc_event_reset r = { 0 };

	if (asc_fetch(fd, EV) != -ENOSPC || asc_set(fd, EV, 0) != -EBUSY)
		return __LINE__;
	if (asc_wait(fd, EV, 0, 0) != 0 || asc_wait(fd, EV, 0, 0) != -ETIMEDOUT)
		return __LINE__;
	if (asc_reset(fd, &r) || r.ids_held != (__u32)ids || r.flags_pending)
		return __LINE__;
	return 0;
}

/*
 * Body of a holder process: fill a TPipe, report, wait for the word, and
 * find the TPipe as it was left.  Return: its exit status.
 */
static int holder_main(int ready, int done)
{
	struct asc_event_info info;
	int fd, line, msg[2];
	char c;

	/* Let /proc and ptrace judge by user ID alone, not by dumpability. */
	CHECK(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0);
	fd = asc_open();
	CHECK(fd >= 0);
	CHECK(asc_info(fd, &info) == 0);
	line = holder_fill(fd, (int)info.event_ids);
	CHECK(line == 0);
	msg[0] = fd;
	msg[1] = (int)info.event_ids;
	CHECK(write(ready, msg, sizeof(msg)) == sizeof(msg));
	CHECK(read(done, &c, 1) == 0);
	line = holder_intact(fd, (int)info.event_ids);
	if (line)
		fprintf(stderr, "# holder: state changed (check at line %d)\n", line);
	CHECK(line == 0);
	return 0;
}

/* Start a holder process with credentials @c (NULL: stay root). */
static void holder_start(struct __test_metadata *_metadata, struct holder *h,
			 const struct creds *c)
{
	int ready[2], done[2], msg[2];

	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(done, O_CLOEXEC));
	h->pid = fork();
	ASSERT_LE(0, h->pid);
	if (h->pid == 0) {
		close(ready[0]);
		close(done[1]);
		if (c && become(c))
			_exit(100);
		_exit(holder_main(ready[1], done[0]));
	}
	close(ready[1]);
	close(done[0]);
	h->ready = ready[0];
	h->done = done[1];
	ASSERT_EQ((ssize_t)sizeof(msg), read(h->ready, msg, sizeof(msg))) TH_LOG("holder failed");
	h->fd = msg[0];
	h->ids = msg[1];
}

/* Tell the holder to check its state; it must find it intact. */
static void holder_finish(struct __test_metadata *_metadata, struct holder *h)
{
	close(h->done);
	close(h->ready);
	ASSERT_EQ(0, asc_child_wait(h->pid, 5000)) TH_LOG("the holder's TPipe changed");
}

/**
 * struct target - a descriptor of another process, to try to reach.
 * @pid: the process.
 * @fd: its descriptor number.
 */
struct target {
	pid_t pid;
	int fd;
};

/* As another user: nothing of @arg's descriptor is reachable. */
static int reach_refused(void *arg)
{
	const struct target *t = arg;
	char path[64], buf[256];
	int pidfd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, t->fd);
	errno = 0;
	CHECK(open(path, O_RDWR | O_CLOEXEC) < 0 && errno == EACCES);
	errno = 0;
	CHECK(open(path, O_RDONLY | O_CLOEXEC) < 0 && errno == EACCES);
	errno = 0;
	CHECK(readlink(path, buf, sizeof(buf)) < 0 && errno == EACCES);
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", t->pid, t->fd);
	errno = 0;
	CHECK(open(path, O_RDONLY | O_CLOEXEC) < 0 && errno == EACCES);

	/* pidfd_getfd() would give the very same file: it needs ptrace rights. */
	pidfd = syscall(SYS_pidfd_open, t->pid, 0);
	if (pidfd < 0 && errno == ENOSYS) {
		fprintf(stderr, "# no pidfd_open() here\n");
	} else {
		CHECK(pidfd >= 0);
		errno = 0;
		CHECK(syscall(SYS_pidfd_getfd, pidfd, t->fd, 0) < 0 && errno == EPERM);
		close(pidfd);
	}
	errno = 0;
	CHECK(ptrace(PTRACE_SEIZE, t->pid, NULL, NULL) < 0 && errno == EPERM);
	return 0;
}

TEST_F_TIMEOUT(access, other_user_cannot_reach_a_tpipe, 30)
{
	struct target t;
	struct holder h;

	/* The device's own permission is not what stops them here. */
	grant_group(_metadata, GID_ASC);

	/* Root's TPipe (this process's), reached for by user A. */
	ASSERT_EQ(0, holder_fill(self->fd, self->ids));
	t = (struct target){ .pid = getpid(), .fd = self->fd };
	ASSERT_EQ(0, run_as(&user_a_asc, reach_refused, &t));
	ASSERT_EQ(0, run_as(&nobody, reach_refused, &t));
	ASSERT_EQ(0, holder_intact(self->fd, self->ids));

	/* User B's TPipe, reached for by user A of the same group. */
	holder_start(_metadata, &h, &user_b_asc);
	t = (struct target){ .pid = h.pid, .fd = h.fd };
	ASSERT_EQ(0, run_as(&user_a_asc, reach_refused, &t));
	ASSERT_EQ(0, run_as(&nobody, reach_refused, &t));
	holder_finish(_metadata, &h);
}

/*
 * Through /proc: a descriptor opened from @arg's link is a new, empty TPipe
 * (state in it does not show in the target's, which the holder checks).
 */
static int reopen_is_new_tpipe(void *arg)
{
	const struct target *t = arg;
	struct asc_event_reset r = { 0 };
	char path[64];
	long same;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, t->fd);
	fd = open(path, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	same = syscall(SYS_kcmp, getpid(), t->pid, KCMP_FILE, fd, t->fd);
	if (same < 0 && (errno == ENOSYS || errno == EPERM))
		fprintf(stderr, "# kcmp() not usable here: %s\n", strerror(errno));
	else
		CHECK(same > 0);
	/* None of the holder's IDs or flags. */
	CHECK(asc_fetch(fd, EV) == 0);
	CHECK(asc_release(fd, EV, 0) == -ENOENT);
	CHECK(asc_wait(fd, EV, 0, 0) == -ETIMEDOUT);
	/* And what happens here stays here. */
	CHECK(asc_alloc(fd, EV) == 0);
	CHECK(asc_set(fd, EV, 0) == 0);
	CHECK(asc_reset(fd, &r) == 0 && r.ids_held == 1 && r.flags_pending == 1);
	CHECK(close(fd) == 0);
	return 0;
}

/* Without access to the node, @arg's link does not open either. */
static int reopen_refused(void *arg)
{
	const struct target *t = arg;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, t->fd);
	errno = 0;
	CHECK(open(path, O_RDWR | O_CLOEXEC) < 0 && errno == EACCES);
	errno = 0;
	CHECK(open(path, O_RDONLY | O_CLOEXEC) < 0 && errno == EACCES);
	return 0;
}

TEST_F_TIMEOUT(access, proc_fd_of_same_user_opens_a_new_tpipe, 30)
{
	struct target t;
	struct holder h;

	grant_group(_metadata, GID_ASC);
	holder_start(_metadata, &h, &user_b_asc);
	t = (struct target){ .pid = h.pid, .fd = h.fd };
	/* The same user may follow the link: it is a new open. */
	ASSERT_EQ(0, run_as(&user_b_asc, reopen_is_new_tpipe, &t));
	/*
	 * Following the link checks the node's permission like any open: once
	 * access is taken away, not even the holder's own user gets in.
	 */
	revoke_access(_metadata);
	ASSERT_EQ(0, run_as(&user_b_asc, reopen_refused, &t));
	holder_finish(_metadata, &h);
}

TEST_F_TIMEOUT(access, proc_fd_opened_by_root_is_a_new_tpipe, 30)
{
	struct target t;
	struct holder h;

	/* Another user's TPipe, and another root process's. */
	grant_group(_metadata, GID_ASC);
	holder_start(_metadata, &h, &user_b_asc);
	t = (struct target){ .pid = h.pid, .fd = h.fd };
	ASSERT_EQ(0, reopen_is_new_tpipe(&t));
	holder_finish(_metadata, &h);

	revoke_access(_metadata);
	holder_start(_metadata, &h, NULL);
	t = (struct target){ .pid = h.pid, .fd = h.fd };
	ASSERT_EQ(0, reopen_is_new_tpipe(&t));
	holder_finish(_metadata, &h);
}

/*
 * Reads, writes and seeks are not channels; mmap() is only the mapped
 * fast path's (asc_event_map.c tests it), and mapping changes nothing.
 */
TEST_F(access, ioctl_is_the_only_channel)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char buf[16] = { 0 };
	void *p;

	ASSERT_EQ(0, holder_fill(self->fd, self->ids));
	ASSERT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, write(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, lseek(self->fd, 0, SEEK_SET));
	ASSERT_EQ(ESPIPE, errno);
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, self->fd, 0);
	ASSERT_TRUE(p == MAP_FAILED);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	ASSERT_EQ(0, munmap(p, page));
	ASSERT_EQ(0, holder_intact(self->fd, self->ids));
}

/*
 * Poisoned arguments.  The struct sits in an arena at offset GUARD + @skew,
 * with poison everywhere else; the checks below look at every byte of the
 * arena after the ioctl.
 */
#define GUARD		64
#define ARENA		(2 * GUARD + 64)

static const unsigned char patterns[] = { 0xa5, 0x00, 0xff, 0x5a, 0x01, 0x80 };
static const size_t skews[] = { 0, 1, 3, 4, 8 };

/**
 * struct arena - an ioctl argument between guard bytes.
 * @buf: the bytes.
 * @off: where the struct starts in @buf.
 * @size: size of the struct.
 * @pat: the poison byte.
 */
struct arena {
	unsigned char buf[ARENA];
	size_t off;
	size_t size;
	unsigned char pat;
};

/*
 * Lay out @in (@size bytes) at GUARD + @skew in poison @pat, then poison its
 * output bytes [@out_off, @out_off + @out_len) too.
 */
static void *arena_prep(struct arena *a, unsigned char pat, size_t skew,
			const void *in, size_t size, size_t out_off, size_t out_len)
{
	memset(a->buf, pat, sizeof(a->buf));
	a->off = GUARD + skew;
	a->size = size;
	a->pat = pat;
	memcpy(a->buf + a->off, in, size);
	memset(a->buf + a->off + out_off, pat, out_len);
	return a->buf + a->off;
}

/*
 * The arena holds @want where the struct is and poison elsewhere.
 * Return: the offset of the first wrong byte, or -1 when all are right.
 */
static long arena_wrong_byte(const struct arena *a, const void *want)
{
	const unsigned char *w = want;
	size_t i;

	for (i = 0; i < sizeof(a->buf); i++) {
		bool in = i >= a->off && i < a->off + a->size;
		unsigned char expect = in ? w[i - a->off] : a->pat;

		if (a->buf[i] != expect)
			return (long)i;
	}
	return -1;
}

/* Advanced by every poisoned_ioctl(), to cycle through patterns and skews. */
static unsigned int poison_round;

#define POISON_ROUNDS	(ARRAY_SIZE(patterns) * ARRAY_SIZE(skews))

/*
 * Issue @cmd once on an arena made from @in with poisoned outputs, with the
 * next pattern and skew; it must return @want_ret and leave @want (NULL:
 * @in, output bytes still poisoned) in the struct and poison elsewhere.
 */
static void poisoned_ioctl(struct __test_metadata *_metadata, int fd, unsigned long cmd,
			   const void *in, size_t size, size_t out_off, size_t out_len,
			   int want_ret, const void *want)
{
	unsigned char pat = patterns[poison_round % ARRAY_SIZE(patterns)];
	size_t skew = skews[poison_round / ARRAY_SIZE(patterns) % ARRAY_SIZE(skews)];
	unsigned char expect[64];
	struct arena a;
	void *arg;
	long bad;

	poison_round++;
	arg = arena_prep(&a, pat, skew, in, size, out_off, out_len);
	memcpy(expect, want ? want : arg, size);
	ASSERT_EQ(want_ret, asc_ioctl(fd, cmd, arg)) {
		TH_LOG("cmd %#lx poison %#x skew %zu", cmd, pat, skew);
	}
	bad = arena_wrong_byte(&a, expect);
	ASSERT_EQ(-1, bad) {
		TH_LOG("cmd %#lx poison %#x skew %zu: arena byte %ld is %#x (struct at %zu, %zu bytes)",
		       cmd, pat, skew, bad, a.buf[bad], a.off, size);
	}
}

ASC_FIXTURE(poison)

TEST_F(poison, info)
{
	const struct asc_event_info in = { 0 }, want = {
		.abi_version = ASC_EVENT_ABI_VERSION,
		.nr_events = ASC_EVENT_NR_HARD_EVENTS,
		.event_ids = self->ids,
		.features = ASC_DEV_FEATURES,
	};
	unsigned int r;

	/* The whole struct is output; INFO changes nothing, so try them all. */
	for (r = 0; r < POISON_ROUNDS; r++) {
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_INFO, &in, sizeof(in),
			       0, sizeof(in), 0, &want);
	}
}

/*
 * ALLOC_ID and FETCH_ID write the id and nothing else: event, flags and
 * pad come back as given, on every ID of every HardEvent.
 */
TEST_F(poison, alloc_and_fetch)
{
	const size_t id_off = offsetof(struct asc_event_ref, id);
	struct asc_event_ref in, want;
	int ev, i;

	for (ev = 0; ev < ASC_NR_EVENTS; ev++) {
		for (i = 0; i < self->ids; i++) {
			in = (struct asc_event_ref){ .event = ev, .id = 0 };
			want = (struct asc_event_ref){ .event = ev, .id = i };
			poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_FETCH_ID, &in,
				       sizeof(in), id_off, sizeof(in.id), 0, &want);
			poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_ALLOC_ID, &in,
				       sizeof(in), id_off, sizeof(in.id), 0, &want);
		}
		/* Full: both fail and write nothing, not even the id. */
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_FETCH_ID, &in,
			       sizeof(in), id_off, sizeof(in.id), -ENOSPC, NULL);
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_ALLOC_ID, &in,
			       sizeof(in), id_off, sizeof(in.id), -ENOSPC, NULL);
	}
	ASSERT_RESET(self->fd, ASC_NR_EVENTS * self->ids, 0);
}

TEST_F(poison, alloc_and_fetch_rejected)
{
	static const unsigned long cmds[] = { ASC_EVENT_IOC_ALLOC_ID, ASC_EVENT_IOC_FETCH_ID };
	const struct asc_event_ref bad[] = {
		{ .event = ASC_EVENT_NR_HARD_EVENTS },
		{ .event = ~0U },
		{ .event = EV, .flags = 1 },
		{ .event = EV, .pad = 0x80000000U },
	};
	const size_t id_off = offsetof(struct asc_event_ref, id);
	unsigned int r, c, i;

	for (r = 0; r < POISON_ROUNDS; r++) {
		for (c = 0; c < ARRAY_SIZE(cmds); c++) {
			for (i = 0; i < ARRAY_SIZE(bad); i++) {
				poisoned_ioctl(_metadata, self->fd, cmds[c], &bad[i],
					       sizeof(bad[i]), id_off, sizeof(bad[i].id),
					       -EINVAL, NULL);
			}
		}
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/* RESET writes its two counts, exactly, and leaves flags and pad alone. */
TEST_F(poison, reset)
{
	const size_t out_off = offsetof(struct asc_event_reset, ids_held);
	const size_t out_len = sizeof(struct asc_event_reset) - out_off;
	struct asc_event_reset in = { 0 }, want;
	unsigned int r;
	int n, i;

	for (r = 0; r < POISON_ROUNDS; r++) {
		/*
		 * n IDs held and n + 1 flags set (n = 0 included), n varying:
		 * a flag on each ID held and one on a fetched ID of V_V.
		 */
		n = (int)(r % (unsigned int)(self->ids + 1));
		for (i = 0; i < n; i++) {
			ASSERT_EQ(i, asc_alloc(self->fd, EV));
		}
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, asc_set(self->fd, EV, i));
		}
		ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_V_V));
		ASSERT_EQ(0, asc_set(self->fd, ASC_EVENT_V_V, 0));
		want = (struct asc_event_reset){ .ids_held = n, .flags_pending = n + 1 };
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_RESET, &in, sizeof(in),
			       out_off, out_len, 0, &want);
		/* An empty TPipe reports zeros: written, not left as poison. */
		want = (struct asc_event_reset){ 0 };
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_RESET, &in, sizeof(in),
			       out_off, out_len, 0, &want);
	}
	/* Rejected: nothing written, nothing reset. */
	ASSERT_EQ(0, asc_alloc(self->fd, EV));
	for (r = 0; r < POISON_ROUNDS; r++) {
		in = (struct asc_event_reset){ .flags = 1 << (r % 32) };
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_RESET, &in, sizeof(in),
			       out_off, out_len, -EINVAL, NULL);
		in = (struct asc_event_reset){ .pad = 1 << (r % 32) };
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_RESET, &in, sizeof(in),
			       out_off, out_len, -EINVAL, NULL);
	}
	ASSERT_RESET(self->fd, 1, 0);
}

/*
 * RELEASE_ID, SET_FLAG and WAIT_FLAG (when it does not sleep) take input
 * only: whether they succeed or fail, they write nothing.
 */
TEST_F(poison, input_only_ioctls)
{
	const struct asc_event_ref ref = { .event = EV, .id = 0 };
	const struct asc_event_ref bad_ref = { .event = EV, .id = self->ids };
	const struct asc_event_wait wait = { .deadline = 0, .event = EV, .id = 0 };
	const struct asc_event_wait bad_wait = { .event = EV, .id = 0, .pad = 1 };
	const struct {
		unsigned long cmd;
		const void *arg;
		size_t size;
		int ret;
	} step[] = {
		{ ASC_EVENT_IOC_RELEASE_ID, &ref, sizeof(ref), 0 },
		{ ASC_EVENT_IOC_RELEASE_ID, &ref, sizeof(ref), -ENOENT },
		{ ASC_EVENT_IOC_RELEASE_ID, &bad_ref, sizeof(bad_ref), -EINVAL },
		{ ASC_EVENT_IOC_SET_FLAG, &ref, sizeof(ref), 0 },
		{ ASC_EVENT_IOC_SET_FLAG, &ref, sizeof(ref), -EBUSY },
		{ ASC_EVENT_IOC_SET_FLAG, &bad_ref, sizeof(bad_ref), -EINVAL },
		{ ASC_EVENT_IOC_WAIT_FLAG, &wait, sizeof(wait), 0 },
		{ ASC_EVENT_IOC_WAIT_FLAG, &wait, sizeof(wait), -ETIMEDOUT },
		{ ASC_EVENT_IOC_WAIT_FLAG, &bad_wait, sizeof(bad_wait), -EINVAL },
	};
	unsigned int r, i;

	for (r = 0; r < POISON_ROUNDS; r++) {
		/* Fetched too, so the set and wait after the release are legal. */
		ASSERT_EQ(0, asc_fetch(self->fd, EV));
		ASSERT_EQ(0, asc_alloc(self->fd, EV));
		for (i = 0; i < ARRAY_SIZE(step); i++) {
			poisoned_ioctl(_metadata, self->fd, step[i].cmd, step[i].arg,
				       step[i].size, 0, 0, step[i].ret, NULL);
		}
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/**
 * struct arena_waiter - a thread blocked in WAIT_FLAG on an arena.
 * @w: the thread and its result (w.deadline, w.event, w.id unused).
 * @a: the argument, laid out by arena_prep().
 * @arg: where in @a the struct is.
 * @pipe: ASC_EVENT_PIPE_* the thread binds to before it waits, or
 *	%ASC_EVENT_PIPE_NONE to stay unbound.
 */
struct arena_waiter {
	struct asc_test_waiter w;
	struct arena a;
	void *arg;
	int pipe;
};

static void *arena_waiter_fn(void *p)
{
	struct arena_waiter *aw = p;
	struct asc_event_bind bind = { .pipe = aw->pipe };

	atomic_store(&aw->w.tid, asc_gettid());
	if (aw->pipe != ASC_EVENT_PIPE_NONE)
		aw->w.ret = asc_ioctl(aw->w.fd, ASC_EVENT_IOC_BIND_PIPE, &bind);
	if (!aw->w.ret)
		aw->w.ret = asc_ioctl(aw->w.fd, ASC_EVENT_IOC_WAIT_FLAG, aw->arg);
	atomic_store(&aw->w.done, 1);
	return NULL;
}

static void on_sigusr1(int sig)
{
	(void)sig;
}

enum wake_by { WAKE_SET, WAKE_RESET, WAKE_SIGNAL, WAKE_TIMEOUT };

/*
 * A wait that slept and then ended by @how leaves its argument alone.
 * It sleeps on (EV, 0) with a deadline 500 ms away, or forever for the
 * others.
 */
static void sleeping_wait(struct __test_metadata *_metadata, int fd, enum wake_by how,
			  unsigned char pat, int want_ret)
{
	struct asc_event_wait in = { .event = EV, .id = 0 };
	struct arena_waiter aw;

	ASSERT_EQ(0, asc_fetch(fd, EV));
	memset(&aw, 0, sizeof(aw));
	in.deadline = how == WAKE_TIMEOUT ? asc_deadline_ms(500) : ASC_EVENT_WAIT_FOREVER;
	aw.w.fd = fd;
	aw.pipe = ASC_EVENT_PIPE_NONE;
	aw.arg = arena_prep(&aw.a, pat, 3, &in, sizeof(in), 0, 0);
	ASSERT_EQ(0, pthread_create(&aw.w.thread, NULL, arena_waiter_fn, &aw));
	ASSERT_TRUE(asc_waiter_blocked(&aw.w, 2000));
	switch (how) {
	case WAKE_SET:
		ASSERT_EQ(0, asc_set(fd, EV, 0));
		break;
	case WAKE_RESET:
		ASSERT_EQ(0, asc_reset(fd, NULL));
		break;
	case WAKE_SIGNAL:
		ASSERT_EQ(0, pthread_kill(aw.w.thread, SIGUSR1));
		break;
	case WAKE_TIMEOUT:
		break;
	}
	ASSERT_EQ(0, asc_waiter_join(&aw.w, 3000));
	ASSERT_EQ(want_ret, aw.w.ret);
	ASSERT_EQ(-1, arena_wrong_byte(&aw.a, &in)) TH_LOG("wait ended by %d wrote", how);
}

TEST_F_TIMEOUT(poison, sleeping_waits, 30)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	unsigned int p;

	/* No SA_RESTART: the interrupted wait returns EINTR to us. */
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	for (p = 0; p < 2; p++) {
		sleeping_wait(_metadata, self->fd, WAKE_SET, patterns[p], 0);
		sleeping_wait(_metadata, self->fd, WAKE_RESET, patterns[p], -ECANCELED);
		sleeping_wait(_metadata, self->fd, WAKE_SIGNAL, patterns[p], -EINTR);
		sleeping_wait(_metadata, self->fd, WAKE_TIMEOUT, patterns[p], -ETIMEDOUT);
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * Two bound pipes waiting forever on each other: V for MTE2_V (set by
 * MTE2), then MTE2 for V_MTE2 (set by V).  The second wait closes the
 * cycle; the detector ends both with EDEADLK, the first one asleep, and
 * neither argument is written.
 */
TEST_F_TIMEOUT(poison, deadlocked_waits, 10)
{
	struct asc_event_mode checked = { .mode = ASC_EVENT_MODE_CHECKED };
	const struct {
		int pipe;
		int event;
	} side[2] = {
		{ ASC_EVENT_PIPE_V, ASC_EVENT_MTE2_V },
		{ ASC_EVENT_PIPE_MTE2, ASC_EVENT_V_MTE2 },
	};
	struct asc_event_wait in[2];
	struct arena_waiter aw[2];
	int i;

	ASSERT_EQ(0, asc_ioctl(self->fd, ASC_EVENT_IOC_SET_MODE, &checked));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, asc_alloc(self->fd, side[i].event));
		in[i] = (struct asc_event_wait){
			.deadline = ASC_EVENT_WAIT_FOREVER, .event = side[i].event, .id = 0,
		};
		memset(&aw[i], 0, sizeof(aw[i]));
		aw[i].w.fd = self->fd;
		aw[i].pipe = side[i].pipe;
		aw[i].arg = arena_prep(&aw[i].a, patterns[i], 1 + 2 * i, &in[i], sizeof(in[i]),
				       0, 0);
	}
	ASSERT_EQ(0, pthread_create(&aw[0].w.thread, NULL, arena_waiter_fn, &aw[0]));
	ASSERT_TRUE(asc_waiter_blocked(&aw[0].w, 2000)) TH_LOG("V's wait returned %d", aw[0].w.ret);
	ASSERT_EQ(0, pthread_create(&aw[1].w.thread, NULL, arena_waiter_fn, &aw[1]));
	for (i = 0; i < 2; i++) {
		if (asc_waiter_join(&aw[i].w, 3000)) {
			/* Not detected: end the waits before failing. */
			asc_reset(self->fd, NULL);
			ASSERT_EQ(0, asc_waiter_join(&aw[i].w, 3000));
		}
		EXPECT_EQ(-EDEADLK, aw[i].w.ret) TH_LOG("pipe %d", side[i].pipe);
		EXPECT_EQ(-1, arena_wrong_byte(&aw[i].a, &in[i])) TH_LOG("pipe %d", side[i].pipe);
	}
	ASSERT_RESET(self->fd, 2, 0);
}

/*
 * GET_MODE writes its whole struct (mode and a zero pad); SET_MODE and
 * BIND_PIPE only read theirs, whether they succeed or refuse.
 */
TEST_F(poison, mode_and_bind)
{
	const struct asc_event_mode mode[2] = { { .mode = ASC_EVENT_MODE_CHECKED }, { .mode = 0 } };
	const struct asc_event_mode bad_mode[] = {
		{ .mode = 2 }, { .mode = ~0U }, { .mode = ASC_EVENT_MODE_CHECKED, .pad = 1 },
		{ .mode = 0, .pad = 0x80000000U },
	};
	const struct asc_event_bind bind[] = {
		{ .pipe = ASC_EVENT_PIPE_V }, { .pipe = ASC_EVENT_PIPE_FIX }, { .pipe = ASC_EVENT_PIPE_NONE },
	};
	const struct asc_event_bind bad_bind[] = {
		{ .pipe = 6 }, { .pipe = -2 }, { .pipe = ASC_EVENT_PIPE_V, .flags = 1 },
	};
	const struct asc_event_mode zero = { 0 };
	const size_t msz = sizeof(struct asc_event_mode), bsz = sizeof(struct asc_event_bind);
	unsigned int r, i;

	for (r = 0; r < POISON_ROUNDS; r++) {
		const struct asc_event_mode *m = &mode[r & 1];

		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_SET_MODE, m, msz, 0, 0, 0, NULL);
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_GET_MODE, &zero, msz, 0, msz,
			       0, m);
		for (i = 0; i < ARRAY_SIZE(bad_mode); i++) {
			poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_SET_MODE, &bad_mode[i],
				       msz, 0, 0, -EINVAL, NULL);
		}
		/* The refused ones changed nothing. */
		poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_GET_MODE, &zero, msz, 0, msz,
			       0, m);
		for (i = 0; i < ARRAY_SIZE(bind); i++) {
			poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_BIND_PIPE, &bind[i],
				       bsz, 0, 0, 0, NULL);
		}
		for (i = 0; i < ARRAY_SIZE(bad_bind); i++) {
			poisoned_ioctl(_metadata, self->fd, ASC_EVENT_IOC_BIND_PIPE, &bad_bind[i],
				       bsz, 0, 0, -EINVAL, NULL);
		}
	}
}

TEST_HARNESS_MAIN
