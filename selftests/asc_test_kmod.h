/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module under test: is it loaded, unload it, load it again from the
 * .ko the test runner names in $ASC_EVENT_KO (root only).
 */
#ifndef ASC_TEST_KMOD_H
#define ASC_TEST_KMOD_H

#include <stdbool.h>

/** MODULE_NAME - the module under test, as the module loader names it. */
#define MODULE_NAME	"asc_event"

/** MODULE_SYSFS - its sysfs directory (parameters/, refcnt). */
#define MODULE_SYSFS	"/sys/module/" MODULE_NAME

/**
 * module_loaded() - is the module loaded?
 *
 * Return: true when %MODULE_SYSFS exists.
 */
bool module_loaded(void);

/**
 * module_unload() - delete_module() without waiting.
 *
 * Return: 0 or -errno (-EWOULDBLOCK while the module is in use).
 */
int module_unload(void);

/**
 * module_load() - finit_module() of $ASC_EVENT_KO.
 * @params: module parameters, e.g. "event_ids=4"; "" for none.
 *
 * Return: 0 or -errno (-ENOENT when $ASC_EVENT_KO is not set, is empty or
 * names no file).
 */
int module_load(const char *params);

#endif /* ASC_TEST_KMOD_H */
