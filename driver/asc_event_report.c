// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event reports: what a sanitizer prints.  The kernel log names the
 * TPipe's owner and the exact (HardEvent, ID)s; the counters in sysfs and
 * the tracepoints count every occurrence, whatever the log drops.
 *
 * Any user can cause reports at will, so the log is rate-limited, per user
 * who opened the TPipe (struct asc_report_quota): one user's flood of
 * reports, however many TPipes it opens, never silences another's.  A
 * report is built into a buffer of its own while the TPipe is locked (the
 * state it describes must not change under it) and printed after the lock
 * is dropped, as one message: lines never interleave with other reports
 * and nothing waits for the console under the lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "asc_event_hw.h"
#include "asc_event_report.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

/* Room for one report; a report that does not fit ends in this line. */
#define ASC_REPORT_LEN		1024
#define ASC_REPORT_CUT		pr_fmt("...\n")

/* Room for a report line's list of IDs; longer lists end in "...". */
#define ASC_REPORT_IDS_LEN	160

/* Reports per user per interval the log takes. */
#define ASC_REPORT_BURST	20
#define ASC_REPORT_INTERVAL	(5 * HZ)

/**
 * struct asc_report_quota - the report rate limit of one user.
 * @node: entry in asc_report_quotas.
 * @uid: the user (who opened the TPipes).
 * @users: TPipes holding a reference.
 * @idle_since: jiffies when @users dropped to 0.
 * @rs: the rate limit of each kind of report; each logs how many reports
 *	it suppressed when the quota is freed.
 *
 * Lifetime: created by the first open of the device by @uid.  It outlives
 * the user's last TPipe by a rate-limit interval, so that a loop of opens
 * and closes stays within one quota: an idle quota is freed by the next
 * asc_report_quota_get() once the interval has passed, or at module
 * unload.  asc_report_quotas_lock protects @node, @users and @idle_since;
 * @rs has its own lock.
 */
struct asc_report_quota {
	struct hlist_node node;
	kuid_t uid;
	unsigned int users;
	unsigned long idle_since;
	struct ratelimit_state rs[ASC_REPORT_KINDS];
};

static DEFINE_HASHTABLE(asc_report_quotas, 4);
static DEFINE_MUTEX(asc_report_quotas_lock);

/**
 * struct asc_report - one report on its way to the kernel log.
 * @len: length of @text, without the terminating NUL.
 * @cut: something did not fit: the report ends in "...".
 * @text: the report, lines starting with the module's name.
 */
struct asc_report {
	size_t len;
	bool cut;
	char text[ASC_REPORT_LEN];
};

static void asc_report_quota_free(struct asc_report_quota *q)
{
	int kind;

	lockdep_assert_held(&asc_report_quotas_lock);

	hash_del(&q->node);
	for (kind = 0; kind < ASC_REPORT_KINDS; kind++)
		ratelimit_state_exit(&q->rs[kind]);
	kfree(q);
}

/* Free the quotas nobody has used for a whole rate-limit interval. */
static void asc_report_quotas_expire(bool all)
{
	struct asc_report_quota *q;
	struct hlist_node *tmp;
	int bkt;

	lockdep_assert_held(&asc_report_quotas_lock);

	hash_for_each_safe(asc_report_quotas, bkt, tmp, q, node) {
		if (!q->users && (all || time_after(jiffies, q->idle_since +
						     ASC_REPORT_INTERVAL)))
			asc_report_quota_free(q);
	}
}

/**
 * asc_report_quota_get() - the report rate limit of a user.
 * @uid: the user opening a TPipe.
 *
 * Return: a counted reference, or NULL when out of memory.
 */
struct asc_report_quota *asc_report_quota_get(kuid_t uid)
{
	struct asc_report_quota *q;
	int kind;

	mutex_lock(&asc_report_quotas_lock);
	asc_report_quotas_expire(false);
	hash_for_each_possible(asc_report_quotas, q, node, __kuid_val(uid)) {
		if (uid_eq(q->uid, uid)) {
			q->users++;
			goto out;
		}
	}
	q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	if (!q)
		goto out;
	q->uid = uid;
	q->users = 1;
	for (kind = 0; kind < ASC_REPORT_KINDS; kind++) {
		ratelimit_state_init(&q->rs[kind], ASC_REPORT_INTERVAL,
				     ASC_REPORT_BURST);
		ratelimit_set_flags(&q->rs[kind], RATELIMIT_MSG_ON_RELEASE);
	}
	hash_add(asc_report_quotas, &q->node, __kuid_val(uid));
out:
	mutex_unlock(&asc_report_quotas_lock);
	return q;
}

/**
 * asc_report_quota_put() - drop a reference from asc_report_quota_get().
 * @quota: the reference, or NULL.
 */
void asc_report_quota_put(struct asc_report_quota *quota)
{
	if (!quota)
		return;

	mutex_lock(&asc_report_quotas_lock);
	if (!--quota->users)
		quota->idle_since = jiffies;
	mutex_unlock(&asc_report_quotas_lock);
}

/** asc_report_quotas_exit() - free every quota, at module unload. */
void asc_report_quotas_exit(void)
{
	mutex_lock(&asc_report_quotas_lock);
	asc_report_quotas_expire(true);
	mutex_unlock(&asc_report_quotas_lock);
}

/**
 * asc_report_start() - begin a report, if the log will take it.
 * @quota: the rate limits of the user the report is about.
 * @kind: what the report is about.
 *
 * May be called with a TPipe's spinlock held: it does not sleep.  A report
 * over the rate limit, or one there is no memory for, is not built and is
 * counted in reports_suppressed.
 *
 * Return: an empty report, or NULL.
 */
struct asc_report *asc_report_start(struct asc_report_quota *quota,
				    enum asc_report_kind kind)
{
	struct asc_report *r = NULL;

	if (__ratelimit(&quota->rs[kind]))
		r = kmalloc(sizeof(*r), GFP_NOWAIT | __GFP_NOWARN);
	if (!r) {
		asc_stat_add(ASC_STAT_REPORTS_SUPPRESSED, 1);
		return NULL;
	}
	r->len = 0;
	r->cut = false;
	r->text[0] = '\0';
	return r;
}

static __printf(2, 0) void asc_report_vline(struct asc_report *r, const char *fmt,
			     va_list args)
{
	size_t room = sizeof(r->text) - sizeof(ASC_REPORT_CUT) - r->len;
	int n;

	n = scnprintf(r->text + r->len, room, "%s", pr_fmt(""));
	n += vscnprintf(r->text + r->len + n, room - n, fmt, args);
	if (n + 1 >= room) {
		r->text[r->len] = '\0';
		r->cut = true;
		return;
	}
	r->len += n;
	r->text[r->len++] = '\n';
	r->text[r->len] = '\0';
}

/**
 * asc_report_warn() - add a line to a report (printed at warning level).
 * @r: report from asc_report_start(), or NULL (then nothing happens).
 * @fmt: printf format of the line, without the module's prefix and
 *	without a newline.
 *
 * A line that does not fit is left out and the report ends in "...".
 */
void asc_report_warn(struct asc_report *r, const char *fmt, ...)
{
	va_list args;

	if (!r || r->cut)
		return;
	va_start(args, fmt);
	asc_report_vline(r, fmt, args);
	va_end(args);
}

/**
 * asc_report_ids() - add a line "  @label: MTE2_V:0,1 V_MTE3:3" to a report.
 * @r: report, or NULL.
 * @label: what the IDs are ("allocated", "set").
 * @words: one bit word per HardEvent (a pool or the flag registers).
 */
void asc_report_ids(struct asc_report *r, const char *label, const u64 *words)
{
	char ids[ASC_REPORT_IDS_LEN];

	if (!r)
		return;
	asc_format_ids(ids, sizeof(ids), words);
	asc_report_warn(r, "  %s: %s", label, ids);
}

/**
 * asc_report_emit() - print a report as one message and free it.
 * @r: report, or NULL.
 *
 * Must be called with no spinlock held.
 */
void asc_report_emit(struct asc_report *r)
{
	if (!r)
		return;
	if (r->cut)
		strscpy(r->text + r->len, ASC_REPORT_CUT, sizeof(r->text) - r->len);
	pr_warn("%s", r->text + strlen(pr_fmt("")));
	kfree(r);
}

/**
 * asc_format_ids() - write a set of (HardEvent, ID)s as text.
 * @buf: where to write.
 * @size: size of @buf, at least 4.
 * @words: one bit word per HardEvent (a pool or the flag registers).
 *
 * The text is "MTE2_V:0,1 V_MTE3:3", "none" for an empty set, cut short
 * with "..." when it does not fit.
 *
 * Return: the length written, without the terminating NUL.
 */
int asc_format_ids(char *buf, size_t size, const u64 *words)
{
	unsigned int event, id;
	int len = 0;

	buf[0] = '\0';
	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++) {
		u64 word = READ_ONCE(words[event]);
		const char *sep = ":";

		if (!word)
			continue;
		len += scnprintf(buf + len, size - len, "%s%s", len ? " " : "",
				 asc_hard_event_name(event));
		while (word) {
			id = __ffs64(word);
			word &= word - 1;
			len += scnprintf(buf + len, size - len, "%s%u", sep, id);
			sep = ",";
		}
	}
	if (!len)
		return scnprintf(buf, size, "none");
	if ((size_t)len >= size - 1)
		len = size - 4 + scnprintf(buf + size - 4, 4, "...");
	return len;
}

/**
 * asc_tpipe_leak_report() - count, trace and word the IDs and flags a
 *	reset or close left.
 * @tp: TPipe, locked unless it is being destroyed.
 * @at_close: the TPipe is being closed rather than reset.
 * @left: what was left.
 *
 * Return: the report to print once @tp is unlocked, or NULL.
 */
struct asc_report *asc_tpipe_leak_report(struct asc_tpipe *tp, bool at_close,
					 const struct asc_tpipe_leftovers *left)
{
	char ids[ASC_REPORT_IDS_LEN], flags[ASC_REPORT_IDS_LEN];
	u64 set[ASC_EVENT_NR_HARD_EVENTS];
	struct asc_report *r;

	if (!left->ids_held && !left->flags_pending)
		return NULL;

	asc_stat_add(ASC_STAT_LEAK_REPORTS, 1);
	asc_stat_add(ASC_STAT_LEAKED_IDS, left->ids_held);
	asc_stat_add(ASC_STAT_LEAKED_FLAGS, left->flags_pending);
	trace_asc_event_leak(tp->serial, at_close, left->ids_held,
			     left->flags_pending);

	r = asc_report_start(tp->quota, ASC_REPORT_LEAK);
	if (!r)
		return NULL;
	asc_tpipe_pool_read(tp, set);
	asc_format_ids(ids, sizeof(ids), set);
	asc_tpipe_flags_read(tp, set);
	asc_format_ids(flags, sizeof(flags), set);
	asc_report_warn(r, "TPipe %u (%s[%d] uid %u) %s with %u IDs allocated (%s) and %u flags set never waited on (%s)",
			tp->serial, tp->owner.comm, tp->owner.tgid,
			tp->owner.uid, at_close ? "closed" : "reset",
			left->ids_held, ids, left->flags_pending, flags);
	return r;
}
