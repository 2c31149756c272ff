/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's debugfs file, /sys/kernel/debug/asc_event/tpipes: every
 * open TPipe, each a block of lines that begins "tpipe: N" (N its serial),
 * blocks apart by a blank line; and which filesystem a path is.
 */
#ifndef ASC_TEST_DEBUGFS_H
#define ASC_TEST_DEBUGFS_H

#include <stdbool.h>
#include <stddef.h>

#include "asc_test_text.h"

#include <linux/magic.h>	/* DEBUGFS_MAGIC, TRACEFS_MAGIC for asc_fs_is() */

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

#endif /* ASC_TEST_DEBUGFS_H */
