/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event reports: text for the kernel log about a program's misuse
 * (deadlocks, leaks), built while the TPipe is locked and printed after it
 * is unlocked, as one message, within the rate limit of the user who
 * opened the TPipe.
 */
#ifndef _ASC_EVENT_REPORT_H
#define _ASC_EVENT_REPORT_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct asc_report;
struct asc_report_quota;

/* Each kind of report has a rate limit of its own, per user. */
enum asc_report_kind {
	ASC_REPORT_DEADLOCK,
	ASC_REPORT_LEAK,
	ASC_REPORT_COLLISION,
	ASC_REPORT_KINDS
};

struct asc_report_quota *asc_report_quota_get(kuid_t uid);
void asc_report_quota_put(struct asc_report_quota *quota);
void asc_report_quotas_exit(void);

struct asc_report *asc_report_start(struct asc_report_quota *quota,
				    enum asc_report_kind kind);
__printf(2, 3)
void asc_report_warn(struct asc_report *r, const char *fmt, ...);
void asc_report_ids(struct asc_report *r, const char *label, const u64 *words);
void asc_report_emit(struct asc_report *r);

int asc_format_ids(char *buf, size_t size, const u64 *words);

#endif /* _ASC_EVENT_REPORT_H */
