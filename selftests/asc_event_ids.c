// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: the geometry (event_ids, IDs per HardEvent).
 *
 * Every rule that depends on event_ids is checked against what INFO
 * reports: the pool runs out at event_ids, id event_ids is -EINVAL, id
 * event_ids - 1 works.  Run it under a module loaded with event_ids=4 and
 * ASC_EXPECT_EVENT_IDS=4 in the environment to check the 4-ID chips:
 *
 *   tools/testing/asc-vm --module-args event_ids=4 -- \
 *           env ASC_EXPECT_EVENT_IDS=4 selftests/run-tests asc_event_ids
 */
#include "asc_event_test.h"

#define PARAM_PATH	"/sys/module/asc_event/parameters/event_ids"

ASC_FIXTURE(ids)

/* The module parameter, or -1 when it cannot be read. */
static int module_param(void)
{
	FILE *f = fopen(PARAM_PATH, "re");
	int v;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

TEST_F(ids, geometry_as_expected)
{
	const char *expect = getenv("ASC_EXPECT_EVENT_IDS");
	int param = module_param();

	if (expect && *expect) {
		ASSERT_EQ(atoi(expect), self->ids) TH_LOG("ASC_EXPECT_EVENT_IDS=%s", expect);
	}
	if (param >= 0) {
		ASSERT_EQ(param, self->ids) TH_LOG("%s says %d", PARAM_PATH, param);
	}
	if ((!expect || !*expect) && param < 0)
		SKIP(return, "%s: neither ASC_EXPECT_EVENT_IDS nor %s", _metadata->name,
		     PARAM_PATH);
}

TEST_F(ids, pool_runs_out_at_event_ids)
{
	int e, i;

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < self->ids; i++) {
			ASSERT_EQ(i, asc_fetch(self->fd, e));
			ASSERT_EQ(i, asc_alloc(self->fd, e));
		}
		ASSERT_EQ(-ENOSPC, asc_fetch(self->fd, e)) TH_LOG("event %d", e);
		ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, e)) TH_LOG("event %d", e);
	}
	ASSERT_RESET(self->fd, ASC_NR_EVENTS * self->ids, 0);
}

TEST_F(ids, id_event_ids_invalid)
{
	int e, bad = self->ids;

	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(-EINVAL, asc_release(self->fd, e, bad)) TH_LOG("event %d", e);
		ASSERT_EQ(-EINVAL, asc_set(self->fd, e, bad)) TH_LOG("event %d", e);
		ASSERT_EQ(-EINVAL, asc_wait(self->fd, e, bad, 0)) TH_LOG("event %d", e);
		ASSERT_EQ(-EINVAL, asc_set(self->fd, e, bad + 1)) TH_LOG("event %d", e);
	}
	ASSERT_RESET(self->fd, 0, 0);
}

/*
 * The last ID's flag on every HardEvent, allocated or not: raw flag
 * semantics, so checked mode (which refuses hand-written IDs) is off.
 */
TEST_F(ids, last_id_usable)
{
	int e, last = self->ids - 1;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(-ENOENT, asc_release(self->fd, e, last)) TH_LOG("event %d", e);
		ASSERT_EQ(0, asc_set(self->fd, e, last)) TH_LOG("event %d", e);
		ASSERT_EQ(-EBUSY, asc_set(self->fd, e, last)) TH_LOG("event %d", e);
	}
	ASSERT_RESET(self->fd, 0, ASC_NR_EVENTS);
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, e, last, 0)) TH_LOG("event %d", e);
		ASSERT_EQ(0, asc_set(self->fd, e, last)) TH_LOG("event %d", e);
		ASSERT_EQ(0, asc_wait(self->fd, e, last, 0)) TH_LOG("event %d", e);
	}
}

TEST_F(ids, last_id_allocated_last)
{
	int i, last = self->ids - 1;

	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, ASC_EVENT_V_S));
	}
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_S, last));
	ASSERT_EQ(last, asc_fetch(self->fd, ASC_EVENT_V_S));
	ASSERT_EQ(last, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_EQ(-ENOSPC, asc_alloc(self->fd, ASC_EVENT_V_S));
	ASSERT_RESET(self->fd, self->ids, 0);
}

/* Every (event, id) flag, none allocated: checked mode off. */
TEST_F(ids, every_flag_counted)
{
	int e, i;

	ASSERT_EQ(0, asc_set_unchecked(self->fd));
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		for (i = 0; i < self->ids; i++) {
			ASSERT_EQ(0, asc_set(self->fd, e, i));
		}
	}
	ASSERT_RESET(self->fd, 0, ASC_NR_EVENTS * self->ids);
}

TEST_HARNESS_MAIN
