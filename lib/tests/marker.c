// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core runtime's trace marker (lib/marker.c) without a device: what
 * ASC_TRACE_MARKER opens, the lines written to it, the names they give,
 * and a marker that fails being left alone after its first failure.
 * Linked with the static library, whose internal functions it calls.
 *
 * This program defines write(): the library's calls come here, are
 * counted per file descriptor, and go on to the system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#include "kselftest_harness.h"

static int counted_fd = -1;
static int writes;

ssize_t write(int fd, const void *buf, size_t count)
{
	if (fd == counted_fd)
		__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
	return syscall(SYS_write, fd, buf, count);
}

/* A marker opened with ASC_TRACE_MARKER=@path (unset when NULL). */
static void open_with(struct asc_marker *m, const char *path)
{
	if (path)
		setenv("ASC_TRACE_MARKER", path, 1);
	else
		unsetenv("ASC_TRACE_MARKER");
	memset(m, 0x5a, sizeof(*m));
	asc_marker_open(m);
	counted_fd = m->fd;
	writes = 0;
}

/* The whole of @path, in a static buffer. */
static const char *contents(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

TEST(no_marker_in_the_environment)
{
	struct asc_marker m;

	open_with(&m, NULL);
	ASSERT_EQ(-1, m.fd);
	asc_marker_work(&m, true, ASC_PIPE_V, 1, "add");
	EXPECT_EQ(0, writes);
	open_with(&m, "");
	ASSERT_EQ(-1, m.fd);
}

TEST(lines_of_a_run)
{
	char path[] = "/tmp/asc-marker-XXXXXX", want[512], core[32];
	struct asc_marker m, m2;
	int fd = mkstemp(path);
	unsigned int run;

	ASSERT_LE(0, fd);
	/* Lines are appended, never written over what is there. */
	ASSERT_EQ(4, syscall(SYS_write, fd, "old\n", 4));
	close(fd);
	open_with(&m, path);
	ASSERT_LE(0, m.fd);
	snprintf(core, sizeof(core), "%d.", (int)gettid());
	ASSERT_EQ(0, strncmp(m.core, core, strlen(core)));
	run = strtoul(m.core + strlen(core), NULL, 10);
	EXPECT_LE(1U, run);

	errno = EDOM;
	asc_marker_work(&m, true, ASC_PIPE_MTE2, 3, "copy in");
	asc_marker_work(&m, false, ASC_PIPE_MTE2, 3, "copy in");
	asc_marker_work(&m, true, ASC_PIPE_S, 12, "work");
	asc_marker_work(&m, false, ASC_PIPE_S, 12, "work");
	asc_marker_work(&m, true, ASC_PIPE_FIX, 4000000000UL, "");
	EXPECT_EQ(EDOM, errno);
	EXPECT_EQ(5, writes);
	snprintf(want, sizeof(want),
		 "old\n"
		 "asc_span begin core=%s pipe=MTE2 n=3 name=copy in\n"
		 "asc_span end core=%s pipe=MTE2 n=3\n"
		 "asc_span begin core=%s pipe=S n=12 name=work\n"
		 "asc_span end core=%s pipe=S n=12\n"
		 "asc_span begin core=%s pipe=FIX n=4000000000 name=\n",
		 m.core, m.core, m.core, m.core, m.core);
	EXPECT_STREQ(want, contents(path));
	EXPECT_EQ(0, m.failed);

	/* The next run of the process has the next number. */
	asc_marker_open(&m2);
	snprintf(want, sizeof(want), "%s%u", core, run + 1);
	EXPECT_STREQ(want, m2.core);
	asc_marker_close(&m2);
	asc_marker_close(&m);
	EXPECT_EQ(-1, m.fd);
	unlink(path);
}

TEST(names)
{
	char in[128], want[128], *name;

	name = asc_marker_name(NULL);
	EXPECT_STREQ("work", name);
	free(name);
	name = asc_marker_name("a\nb\tc\177d\xc3\xa9 <&\"");
	EXPECT_STREQ("a?b?c?d\xc3\xa9 <&\"", name);
	free(name);

	/* At most ASC_MARKER_NAME_MAX bytes, never half a UTF-8 sequence. */
	memset(in, 'x', 70);
	in[70] = '\0';
	name = asc_marker_name(in);
	EXPECT_EQ((size_t)ASC_MARKER_NAME_MAX, strlen(name));
	free(name);
	memset(in, 'x', 63);
	strcpy(in + 63, "\xc3\xa9yz");
	name = asc_marker_name(in);
	in[63] = '\0';
	EXPECT_STREQ(in, name);
	free(name);
	memset(in, 'x', 62);
	strcpy(in + 62, "\xc3\xa9yz");
	name = asc_marker_name(in);
	memcpy(want, in, 64);
	want[64] = '\0';
	EXPECT_STREQ(want, name);
	free(name);
}

TEST(a_failing_marker_is_written_once)
{
	struct asc_marker m;
	int i;

	open_with(&m, "/dev/full");
	ASSERT_LE(0, m.fd);
	for (i = 0; i < 10; i++) {
		errno = EDOM;
		asc_marker_work(&m, i % 2 == 0, ASC_PIPE_V, 1 + i / 2, "add");
		EXPECT_EQ(EDOM, errno);
	}
	EXPECT_EQ(1, writes);
	EXPECT_EQ(1, m.failed);
	asc_marker_close(&m);
}

TEST(what_is_no_marker)
{
	char dir[] = "/tmp/asc-marker-XXXXXX", fifo[64];
	struct asc_marker m;
	int reader;

	open_with(&m, "/nonexistent/trace_marker");
	EXPECT_EQ(-1, m.fd);
	ASSERT_NE(NULL, mkdtemp(dir));
	open_with(&m, dir);
	EXPECT_EQ(-1, m.fd);
	/* A FIFO could raise SIGPIPE: refused, with or without a reader. */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	open_with(&m, fifo);
	EXPECT_EQ(-1, m.fd);
	reader = open(fifo, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, reader);
	open_with(&m, fifo);
	EXPECT_EQ(-1, m.fd);
	close(reader);
	unlink(fifo);
	rmdir(dir);
}

TEST_HARNESS_MAIN
