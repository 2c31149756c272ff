/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log, read from /dev/kmsg: the lines logged since a point, and
 * room in the driver's rate limit before a test counts its reports.
 */
#ifndef ASC_TEST_KMSG_H
#define ASC_TEST_KMSG_H

#include "asc_test_text.h"

/** ASC_RATELIMIT_MS - the kernel's default rate-limit interval, plus margin. */
#define ASC_RATELIMIT_MS	5300

/** ASC_RATELIMIT_BURST - the kernel's default rate-limit burst. */
#define ASC_RATELIMIT_BURST	10

/**
 * struct asc_kmsg - a reader of /dev/kmsg from a point on.
 * @fd: /dev/kmsg, or -1.
 */
struct asc_kmsg {
	int fd;
};

/**
 * asc_kmsg_decode() - one /dev/kmsg record's message, unescaped.
 * @rec: the record ("prio,seq,usec,flags;text\n" and " KEY=value" lines).
 * @out: appended: the text, one line per line of the message.
 * @usec: receives the record's timestamp; may be NULL.
 */
void asc_kmsg_decode(const char *rec, struct asc_text *out, unsigned long long *usec);

/**
 * asc_kmsg_open() - start reading the kernel log from now on.
 * @k: reader.
 *
 * Return: 0 or -errno.
 */
int asc_kmsg_open(struct asc_kmsg *k);

/**
 * asc_kmsg_read() - the log lines written since the last read (or open).
 * @k: an open reader.
 * @out: emptied, then the lines that start with @prefix, each with its
 *	newline.  A message of several lines counts line by line.
 * @prefix: e.g. "asc_event:"; "" for every line.
 *
 * Return: the number of lines in @out.
 */
int asc_kmsg_read(struct asc_kmsg *k, struct asc_text *out, const char *prefix);

/**
 * asc_kmsg_close() - close the reader.
 * @k: reader.
 */
void asc_kmsg_close(struct asc_kmsg *k);

/**
 * asc_kmsg_settle() - make room in the driver's log rate limit.
 * @prefix: what a report's first line starts with.
 * @needed: how many reports the caller is about to count.
 *
 * The driver's reports are rate-limited; a test that counts them must not
 * run while a burst of reports by earlier tests still counts.  Assuming
 * the kernel's default limit (%ASC_RATELIMIT_BURST per interval of at most
 * %ASC_RATELIMIT_MS), this counts the reports logged in the last
 * %ASC_RATELIMIT_MS (timestamps compared with a marker written to the log
 * now) and, when @needed more would not fit, sleeps until the newest is
 * that old.  A suppressed report implies a full burst printed in the same
 * interval, so what is printed tells the whole story.
 */
void asc_kmsg_settle(const char *prefix, int needed);

#endif /* ASC_TEST_KMSG_H */
