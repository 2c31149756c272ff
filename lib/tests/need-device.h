/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * need_device() - skip the test of the harness (kselftest_harness.h,
 * included before this) when there is no device to open: the tests of
 * libasc that need /dev/asc_event run in the guest, and skip elsewhere.
 */
#ifndef ASC_TESTS_NEED_DEVICE_H
#define ASC_TESTS_NEED_DEVICE_H

#include <errno.h>
#include <string.h>

#include <asc.h>

#define need_device(_metadata) do {					\
	struct asc_pipe *probe = asc_pipe_open(NULL);			\
									\
	if (!probe)							\
		SKIP(return, "no device: %s", strerror(errno));		\
	asc_pipe_close(probe);						\
} while (0)

#endif
