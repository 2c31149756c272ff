// SPDX-License-Identifier: GPL-2.0
/*
 * Time for the selftests: see asc_test_time.h.
 */
#include "asc_test_time.h"

#include <errno.h>
#include <time.h>

__u64 asc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * ASC_NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

__u64 asc_deadline_ms(unsigned int ms)
{
	return asc_now_ns() + ms * ASC_NSEC_PER_MSEC;
}

void asc_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

long asc_ms_since(__u64 start_ns)
{
	return (long)((asc_now_ns() - start_ns) / ASC_NSEC_PER_MSEC);
}
