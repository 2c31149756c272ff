// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The queues' tables without a device: the HardEvents of a TQue at each
 * position and of a TQueBind between two, against Ascend C's tables for
 * Atlas A2 (GetBufferLogicPos, GetPhyType, GetQueEvt) written out here;
 * the pairs with no events refused; asc_local_sub()'s parts and its
 * refusals.
 */
#include <errno.h>
#include <string.h>

#include <asc.h>

#include "kselftest_harness.h"

#define EV(name)	ASC_HARD_EVENT_##name

/* TQue<pos>: the enqueue and free events, or -1 for no queue. */
static const struct {
	int pos;
	int enq;
	int free;
} tque[] = {
	{ ASC_POS_GM, -1, -1 },
	{ ASC_POS_A1, EV(MTE2_MTE1), EV(MTE1_MTE2) },
	{ ASC_POS_A2, EV(MTE1_M), EV(M_MTE1) },
	{ ASC_POS_B1, EV(MTE2_MTE1), EV(MTE1_MTE2) },
	{ ASC_POS_B2, EV(MTE1_M), EV(M_MTE1) },
	{ ASC_POS_C1, EV(MTE2_MTE1), EV(MTE1_MTE2) },
	{ ASC_POS_C2, EV(MTE1_M), EV(M_MTE1) },
	{ ASC_POS_CO1, EV(M_FIX), EV(FIX_M) },
	{ ASC_POS_CO2, -1, -1 },
	{ ASC_POS_VECIN, EV(MTE2_V), EV(V_MTE2) },
	{ ASC_POS_VECOUT, EV(V_MTE3), EV(MTE3_V) },
	{ ASC_POS_VECCALC, EV(MTE2_MTE3), EV(MTE3_MTE2) },
	{ 12, -1, -1 },
	{ 13, -1, -1 },
	{ ASC_POS_C2PIPE2GM, EV(MTE1_FIX), EV(FIX_MTE1) },
	{ 15, -1, -1 },
	{ -1, -1, -1 },
};

TEST(tque_events_by_position)
{
	unsigned int i;
	int e, f;

	for (i = 0; i < sizeof(tque) / sizeof(tque[0]); i++) {
		e = f = 99;
		errno = 0;
		if (tque[i].enq < 0) {
			EXPECT_EQ(-1, asc_que_events(tque[i].pos, &e, &f)) TH_LOG("pos %d", tque[i].pos);
			EXPECT_EQ(EINVAL, errno);
			EXPECT_EQ(99, e);
			EXPECT_EQ(99, f);
			continue;
		}
		EXPECT_EQ(0, asc_que_events(tque[i].pos, &e, &f)) TH_LOG("pos %d", tque[i].pos);
		EXPECT_EQ(tque[i].enq, e) TH_LOG("pos %d", tque[i].pos);
		EXPECT_EQ(tque[i].free, f) TH_LOG("pos %d", tque[i].pos);
	}
	EXPECT_EQ(0, asc_que_events(ASC_POS_VECIN, NULL, NULL));
}

TEST(tque_bind_events)
{
	static const struct {
		int src, dst, enq, free;
	} bind[] = {
		{ ASC_POS_GM, ASC_POS_VECIN, EV(MTE2_V), EV(V_MTE2) },
		{ ASC_POS_VECOUT, ASC_POS_GM, EV(V_MTE3), EV(MTE3_V) },
		{ ASC_POS_VECIN, ASC_POS_VECOUT, EV(MTE2_MTE3), EV(MTE3_MTE2) },
		{ ASC_POS_GM, ASC_POS_A1, EV(MTE2_MTE1), EV(MTE1_MTE2) },
		{ ASC_POS_GM, ASC_POS_A2, EV(MTE2_M), EV(M_MTE2) },
		{ ASC_POS_GM, ASC_POS_B2, EV(MTE2_M), EV(M_MTE2) },
		{ ASC_POS_VECOUT, ASC_POS_A1, EV(MTE3_MTE1), EV(MTE1_MTE3) },
		{ ASC_POS_A1, ASC_POS_VECIN, EV(MTE1_V), EV(V_MTE1) },
		{ ASC_POS_B1, ASC_POS_B2, EV(MTE1_M), EV(M_MTE1) },
		{ ASC_POS_C1, ASC_POS_C2, EV(MTE1_M), EV(M_MTE1) },
		{ ASC_POS_B1, ASC_POS_C2PIPE2GM, EV(MTE1_FIX), EV(FIX_MTE1) },
		{ ASC_POS_A2, ASC_POS_CO1, EV(M_V), EV(V_M) },
		{ ASC_POS_CO1, ASC_POS_CO2, EV(M_FIX), EV(FIX_M) },
		{ ASC_POS_CO1, ASC_POS_GM, EV(M_FIX), EV(FIX_M) },
		{ ASC_POS_GM, ASC_POS_GM, -1, -1 },
		{ ASC_POS_GM, ASC_POS_CO1, -1, -1 },
		{ ASC_POS_VECIN, ASC_POS_CO1, -1, -1 },
		{ ASC_POS_A1, ASC_POS_A1, -1, -1 },
		{ ASC_POS_CO1, ASC_POS_VECIN, -1, -1 },
		{ ASC_POS_VECIN, 12, -1, -1 },
	};
	unsigned int i;
	int e, f;

	for (i = 0; i < sizeof(bind) / sizeof(bind[0]); i++) {
		e = f = 99;
		if (bind[i].enq < 0) {
			errno = 0;
			EXPECT_EQ(-1, asc_que_bind_events(bind[i].src, bind[i].dst, &e, &f))
				TH_LOG("%d to %d", bind[i].src, bind[i].dst);
			EXPECT_EQ(EINVAL, errno);
			EXPECT_EQ(99, e);
			continue;
		}
		EXPECT_EQ(0, asc_que_bind_events(bind[i].src, bind[i].dst, &e, &f))
			TH_LOG("%d to %d", bind[i].src, bind[i].dst);
		EXPECT_EQ(bind[i].enq, e) TH_LOG("%d to %d", bind[i].src, bind[i].dst);
		EXPECT_EQ(bind[i].free, f) TH_LOG("%d to %d", bind[i].src, bind[i].dst);
	}
}

TEST(local_sub)
{
	char bytes[256];
	struct asc_local t = {
		.addr = bytes + 64, .size = 128, .name = "q[1]",
		.que = (struct asc_que *)bytes, .pos = ASC_POS_VECIN,
		.mem = ASC_MEM_UB, .offset = 64, .buf = 1, .gen = 3,
	};
	struct asc_local part, keep;

	ASSERT_EQ(0, asc_local_sub(&t, 32, 64, &part));
	EXPECT_EQ(bytes + 96, part.addr);
	EXPECT_EQ(64U, part.size);
	EXPECT_EQ(96U, part.offset);
	EXPECT_EQ(t.que, part.que);
	EXPECT_EQ(1, part.buf);
	EXPECT_EQ(3U, part.gen);
	EXPECT_STREQ("q[1]", part.name);
	/* 0: the rest; in place. */
	part = t;
	ASSERT_EQ(0, asc_local_sub(&part, 120, 0, &part));
	EXPECT_EQ(8U, part.size);
	EXPECT_EQ(184U, part.offset);
	/* Past the end, an empty part, no tensor: nothing stored. */
	memset(&keep, 0x5a, sizeof(keep));
	part = keep;
	errno = 0;
	EXPECT_EQ(-1, asc_local_sub(&t, 128, 0, &part));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, asc_local_sub(&t, 64, 65, &part));
	EXPECT_EQ(-1, asc_local_sub(&t, 0, 129, &part));
	EXPECT_EQ(0, memcmp(&keep, &part, sizeof(part)));
	EXPECT_EQ(-1, asc_local_sub(NULL, 0, 0, &part));
	EXPECT_EQ(-1, asc_local_sub(&t, 0, 0, NULL));
	t.que = NULL;
	EXPECT_EQ(-1, asc_local_sub(&t, 0, 0, &part));
}

TEST_HARNESS_MAIN
