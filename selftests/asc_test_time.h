/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time for the selftests: CLOCK_MONOTONIC in ns (the clock of the driver's
 * wait deadlines), deadlines, sleeps.
 */
#ifndef ASC_TEST_TIME_H
#define ASC_TEST_TIME_H

#include <linux/types.h>

/** ASC_NSEC_PER_MSEC - nanoseconds in a millisecond. */
#define ASC_NSEC_PER_MSEC	1000000ULL

/** ASC_NSEC_PER_SEC - nanoseconds in a second. */
#define ASC_NSEC_PER_SEC	1000000000ULL

/**
 * asc_now_ns() - CLOCK_MONOTONIC now, in ns.
 *
 * Return: the time, in the caller's time namespace.
 */
__u64 asc_now_ns(void);

/**
 * asc_deadline_ms() - an absolute deadline @ms milliseconds from now.
 * @ms: milliseconds.
 *
 * Return: CLOCK_MONOTONIC ns.
 */
__u64 asc_deadline_ms(unsigned int ms);

/**
 * asc_sleep_ms() - sleep @ms milliseconds, resuming after signals.
 * @ms: milliseconds.
 */
void asc_sleep_ms(unsigned int ms);

/**
 * asc_ms_since() - milliseconds elapsed since @start_ns.
 * @start_ns: an asc_now_ns() value.
 *
 * Return: whole milliseconds.
 */
long asc_ms_since(__u64 start_ns);

#endif /* ASC_TEST_TIME_H */
