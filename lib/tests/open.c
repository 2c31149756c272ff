// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * asc_pipe_open() on real paths that are not the device, and
 * $ASC_EVENT_DEV.  The default path itself is tested in fake-device.c,
 * which sees the path the library opens.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <asc.h>

#include "kselftest_harness.h"

/* The lowest free descriptor: a failed open must not leak one. */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/* NULL and errno for @path; and no descriptor left behind. */
#define EXPECT_OPEN_FAILS(path, err) do {				\
	const char *__path = (path);					\
	int __fd = lowest_free_fd();					\
	errno = 0;							\
	EXPECT_EQ(NULL, asc_pipe_open(__path))				\
		TH_LOG("%s", __path ?: "NULL");				\
	EXPECT_EQ((err), errno) TH_LOG("%s", __path ?: "NULL");		\
	EXPECT_EQ(__fd, lowest_free_fd());				\
} while (0)

TEST(missing_path)
{
	EXPECT_OPEN_FAILS("/nonexistent-asc/asc_event", ENOENT);
}

TEST(empty_path)
{
	EXPECT_OPEN_FAILS("", ENOENT);
}

TEST(dev_null_is_not_the_device)
{
	EXPECT_OPEN_FAILS("/dev/null", ENOTTY);
}

TEST(regular_file_is_not_the_device)
{
	char path[] = "/tmp/libasc-open-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_OPEN_FAILS(path, ENOTTY);
	unlink(path);
}

TEST(directory_is_refused_by_open)
{
	EXPECT_OPEN_FAILS("/", EISDIR);
}

TEST(env_names_the_device)
{
	ASSERT_EQ(0, setenv("ASC_EVENT_DEV", "/dev/null", 1));
	EXPECT_OPEN_FAILS(NULL, ENOTTY);
	ASSERT_EQ(0, setenv("ASC_EVENT_DEV", "/nonexistent-asc/dev", 1));
	EXPECT_OPEN_FAILS(NULL, ENOENT);
}

TEST(env_ignored_for_explicit_path)
{
	ASSERT_EQ(0, setenv("ASC_EVENT_DEV", "/dev/null", 1));
	EXPECT_OPEN_FAILS("/nonexistent-asc/asc_event", ENOENT);
}

TEST_HARNESS_MAIN
