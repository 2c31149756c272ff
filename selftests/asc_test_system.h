/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the system shows of the driver: the kernel log, the debugfs file of
 * open TPipes, and the module-wide counters in sysfs.
 */
#ifndef ASC_TEST_SYSTEM_H
#define ASC_TEST_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/magic.h>	/* DEBUGFS_MAGIC, TRACEFS_MAGIC for asc_fs_is() */

#include "asc_test_util.h"

/*
 * The kernel log, read from /dev/kmsg: the lines logged since a point, and
 * room in the driver's rate limit before a test counts its reports.
 */
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

/*
 * The driver's debugfs file, /sys/kernel/debug/asc_event/tpipes: every
 * open TPipe, each a block of lines that begins "tpipe: N" (N its serial),
 * blocks apart by a blank line; and which filesystem a path is.
 */
/** ASC_DEBUGFS_DIR - the driver's debugfs directory. */
#define ASC_DEBUGFS_DIR	"/sys/kernel/debug/asc_event"

/** ASC_DEBUGFS_FILE - its file of every open TPipe. */
#define ASC_DEBUGFS_FILE	ASC_DEBUGFS_DIR "/tpipes"

/** ASC_MAX_SERIAL - serials asc_open_serial() can tell apart. */
#define ASC_MAX_SERIAL	(1 << 20)

/**
 * asc_fs_is() - is the filesystem at @path of type @magic?
 * @path: a mount point.
 * @magic: statfs f_type, e.g. %DEBUGFS_MAGIC.
 *
 * Return: true if so.
 */
bool asc_fs_is(const char *path, long magic);

/**
 * asc_debugfs_mounted() - is debugfs at /sys/kernel/debug?
 *
 * Mounts it when it is not (the tests run as root in a test guest).
 *
 * Return: true when debugfs is there.
 */
bool asc_debugfs_mounted(void);

/**
 * asc_serials() - the serials of the TPipes in the debugfs file now.
 * @set: bitmap of serials below @max, filled in.
 * @max: size of @set in bits.
 *
 * Return: the highest serial seen, 0 when none, -errno when the file
 * cannot be read.
 */
int asc_serials(unsigned char *set, int max);

/**
 * asc_open_serial() - open the device and learn its TPipe's serial.
 * @serial: receives the serial (the N of its "tpipe: N" in debugfs), or
 *	-1 when debugfs cannot tell.
 *
 * Not thread-safe: it compares the debugfs file before and after the open,
 * in static bitmaps.
 *
 * Return: the fd, or -1 with errno set.
 */
int asc_open_serial(int *serial);

/**
 * asc_debugfs_tpipe() - the block of one TPipe in the debugfs file.
 * @serial: the TPipe's serial.
 * @out: receives its lines, from "tpipe: N" on, each with its newline,
 *	without the blank line that parts it from the next.
 *
 * Return: 0, -%ENOENT when the file has no TPipe @serial, -errno when it
 * cannot be read.
 */
int asc_debugfs_tpipe(int serial, struct asc_text *out);

/*
 * The driver's module-wide counters, one file each in
 * /sys/class/misc/asc_event/stats: reading them and comparing two readings.
 * The harness's checks built on these are asc_stats_read(),
 * asc_stats_check() and ASC_STATS_EXPECT() in asc_event_test.h.
 */
/** ASC_STATS_DIR - the counters' directory. */
#define ASC_STATS_DIR	"/sys/class/misc/asc_event/stats"

/* The counters, in the order of asc_stat_name(). */
enum asc_test_stat {
	ST_TPIPES_OPEN,
	ST_TPIPES_CREATED,
	ST_OPS,
	ST_ERR_INVALID,
	ST_ERR_NO_SPACE,
	ST_ERR_NOT_ALLOCATED,
	ST_ERR_DOUBLE_SET,
	ST_ERR_BUSY_PIPE,
	ST_ERR_WRONG_PIPE,
	ST_ERR_TIMEOUT,
	ST_ERR_CANCELED,
	ST_ERR_INTERRUPTED,
	ST_ERR_DEADLOCK,
	ST_ERR_FAULT,
	ST_ERR_UNKNOWN_IOCTL,
	ST_DEADLOCKS,
	ST_LEAK_REPORTS,
	ST_LEAKED_IDS,
	ST_LEAKED_FLAGS,
	ST_REPORTS_SUPPRESSED,
	ASC_NR_STATS
};

/**
 * struct asc_stats - one reading of every counter.
 * @v: the values; -errno for a counter that could not be read.
 */
struct asc_stats {
	long long v[ASC_NR_STATS];
};

/**
 * asc_stat_name() - file name of a counter.
 * @i: enum asc_test_stat.
 *
 * Return: the name.
 */
const char *asc_stat_name(int i);

/**
 * asc_test_stat_read() - read one counter.
 * @name: its file name.
 *
 * Return: the value, -errno when the file cannot be read, -EPROTO when it
 * is not a decimal number and a newline.
 */
long long asc_test_stat_read(const char *name);

/**
 * asc_stats_get() - read every counter.
 * @s: filled in.
 *
 * Return: %ASC_NR_STATS when every counter was read, else the enum
 * asc_stat of the first one that could not be (its value is -errno).
 */
int asc_stats_get(struct asc_stats *s);

/**
 * asc_stats_diff() - list the counters that did not move as expected.
 * @before: an earlier reading.
 * @after: a later reading.
 * @delta: expected change of every counter (index enum asc_test_stat).
 * @bad: appended: " NAME +MOVED (expected +DELTA);" per counter that moved
 *	differently.
 *
 * Return: how many counters moved differently.
 */
int asc_stats_diff(const struct asc_stats *before, const struct asc_stats *after,
		   const long long delta[ASC_NR_STATS], struct asc_text *bad);

#endif /* ASC_TEST_SYSTEM_H */
