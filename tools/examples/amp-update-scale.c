// SPDX-License-Identifier: GPL-2.0
/*
 * amp-update-scale - the loss-scale update of mixed-precision training
 * (torch's _amp_update_scale_), where the scalar unit does the work: MTE2
 * loads the scale, the growth tracker and found_inf, V tells S they are
 * there, S reads them (GetValue), decides, writes the new values
 * (SetValue), tells V, and V tells MTE3, which stores them.
 *
 * Follows, line by line, repository hicann/ops-math
 * (github.com/hicann/ops-math), file
 * math/amp_update_scale/op_kernel/amp_update_scale.h, commit c41933244c31,
 * lines 65-84 (SyncM2toV, SyncVtoM3, SyncM3toM2), 86-94 (IsFinite) and
 * 96-190 (LoadInputData, ComputeScaleUpdate, StoreOutputData, Compute),
 * for T = float.  Our own code: the Ascend C calls become asc_core_*()
 * calls, each copy a work item with the buffers it touches, GetValue and
 * SetValue work items on S.
 *
 * Sync, as the original has it: the pipe-to-pipe hand-offs take fetched
 * IDs (FetchEventID of MTE2_V, V_MTE3, MTE3_MTE2), the scalar's V_S and
 * S_V write EVENT_ID0 by hand.  The scalar waits for V (V_S) before its
 * loads: its wait orders them after everything V waited for.  Its stores
 * are posted: S_V orders them before V's, and so MTE3's, reads.
 *
 * The kernel runs once per case below, each on a new core, and every
 * case's result is checked against the same update in plain C.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "example.h"

#define EVENT_ID0	0
#define BLOCK_BYTES	32

#define MTE2_V		ASC_HARD_EVENT_MTE2_V
#define V_MTE3		ASC_HARD_EVENT_V_MTE3
#define MTE3_MTE2	ASC_HARD_EVENT_MTE3_MTE2
#define V_S		ASC_HARD_EVENT_V_S
#define S_V		ASC_HARD_EVENT_S_V

static const struct ex_site sites[] = {
	{ "68", "SetFlag<HardEvent::MTE2_V>(eventId)" },
	{ "69", "WaitFlag<HardEvent::MTE2_V>(eventId)" },
	{ "75", "SetFlag<HardEvent::V_MTE3>(eventId)" },
	{ "76", "WaitFlag<HardEvent::V_MTE3>(eventId)" },
	{ "82", "SetFlag<HardEvent::MTE3_MTE2>(eventId)" },
	{ "83", "WaitFlag<HardEvent::MTE3_MTE2>(eventId)" },
	{ "113", "SetFlag<HardEvent::V_S>(EVENT_ID0)" },
	{ "114", "WaitFlag<HardEvent::V_S>(EVENT_ID0)" },
	{ "174", "SetFlag<HardEvent::S_V>(EVENT_ID0)" },
	{ "175", "WaitFlag<HardEvent::S_V>(EVENT_ID0)" },
};

/* One case: the inputs and attributes, and what the update must give. */
struct amp_case {
	float current_scale;
	int32_t growth_tracker;
	float found_inf;
	float growth_factor, backoff_factor;
	int32_t growth_interval;
	float want_scale;
	int32_t want_tracker;
};

static struct amp_case cases[] = {
	{ 65536.0f, 0, 0.0f, 2.0f, 0.5f, 2000, 0, 0 },	/* grows the tracker */
	{ 1024.0f, 1999, 0.0f, 2.0f, 0.5f, 2000, 0, 0 },	/* grows the scale */
	{ 1024.0f, 5, 1.0f, 2.0f, 0.5f, 2000, 0, 0 },	/* backs off */
	{ 3.0e38f, 1999, 0.0f, 2.0f, 0.5f, 2000, 0, 0 },	/* would overflow */
	{ 8.0f, 2, 0.0f, 4.0f, 0.25f, 3, 0, 0 },		/* interval 3 */
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

/* Global memory of the current run, and the results of every run. */
static float currentScaleGm_, foundInfGm_, updatedScaleGm_[NCASES];
static int32_t growthTrackerGm_, updatedGrowthTrackerGm_[NCASES];

/* The UB buffers (TBuf of BlockBytes each), and the scalar's registers. */
static float currentScaleBuf_[BLOCK_BYTES / 4], foundInfBuf_[BLOCK_BYTES / 4];
static int32_t growthTrackerBuf_[BLOCK_BYTES / 4];
static float updatedScaleBuf_[BLOCK_BYTES / 4];
static int32_t updatedGrowthTrackerBuf_[BLOCK_BYTES / 4];
static float growthFactor_, backoffFactor_, currentScale_, newScale_, foundInf_;
static int32_t growthInterval_, growthTracker_, successful_;

#define TRY(call) do { if ((call) < 0) return -1; } while (0)

/* A copy of one 4-byte value; the scalar's GetValue and SetValue too. */
struct move {
	void *dst;
	const void *src;
};

static struct move moves[16];
static unsigned int nmoves;

static void move_op(void *arg)
{
	struct move *m = arg;

	memcpy(m->dst, m->src, 4);
}

/* @what moves 4 bytes from @src (@sname) to @dst (@dname) on @pipe. */
static int move(struct asc_core *core, int pipe, const char *what, void *dst,
		const char *dname, const void *src, const char *sname)
{
	const struct asc_access acc[] = {
		{ src, 4, 0, sname },
		{ dst, 4, 1, dname },
	};
	struct move *m = &moves[nmoves++ % 16];

	*m = (struct move){ dst, src };
	return asc_core_issue(core, pipe, move_op, m, what, acc, 2);
}

/* Lines 65-84: hand-offs with a fetched ID. */
static int SyncM2toV(struct asc_core *core)
{
	int eventId = asc_core_fetch_event_id(core, MTE2_V);

	TRY(eventId);
	TRY(ex_set(core, "68", MTE2_V, eventId));
	return ex_wait(core, "69", MTE2_V, eventId);
}

static int SyncVtoM3(struct asc_core *core)
{
	int eventId = asc_core_fetch_event_id(core, V_MTE3);

	TRY(eventId);
	TRY(ex_set(core, "75", V_MTE3, eventId));
	return ex_wait(core, "76", V_MTE3, eventId);
}

static int SyncM3toM2(struct asc_core *core)
{
	int eventId = asc_core_fetch_event_id(core, MTE3_MTE2);

	TRY(eventId);
	TRY(ex_set(core, "82", MTE3_MTE2, eventId));
	return ex_wait(core, "83", MTE3_MTE2, eventId);
}

/* Lines 86-94: not inf or NaN, from the bits. */
static int IsFinite(float value)
{
	uint32_t tmpValue;

	memcpy(&tmpValue, &value, sizeof(tmpValue));
	return ((tmpValue & 0x7FFFFFFF) >> 23) != 0xFF;
}

/* Lines 96-136, T = float. */
static int LoadInputData(struct asc_core *core)
{
	TRY(move(core, ASC_PIPE_MTE2, "DataCopyPad(currentScale)", currentScaleBuf_,
		 "currentScaleLocal", &currentScaleGm_, "current_scale"));
	TRY(move(core, ASC_PIPE_MTE2, "DataCopyPad(growthTracker)", growthTrackerBuf_,
		 "growthTrackerLocal", &growthTrackerGm_, "growth_tracker"));
	TRY(move(core, ASC_PIPE_MTE2, "DataCopyPad(foundInf)", foundInfBuf_,
		 "foundInfLocal", &foundInfGm_, "found_inf"));
	TRY(SyncM2toV(core));

	TRY(ex_set(core, "113", V_S, EVENT_ID0));
	TRY(ex_wait(core, "114", V_S, EVENT_ID0));
	TRY(move(core, ASC_PIPE_S, "GetValue(currentScale)", &currentScale_,
		 "currentScale_", currentScaleBuf_, "currentScaleLocal"));
	TRY(move(core, ASC_PIPE_S, "GetValue(foundInf)", &foundInf_, "foundInf_",
		 foundInfBuf_, "foundInfLocal"));
	return move(core, ASC_PIPE_S, "GetValue(growthTracker)", &growthTracker_,
		    "growthTracker_", growthTrackerBuf_, "growthTrackerLocal");
}

/* Lines 138-155: the scalar's decision. */
static void ComputeScaleUpdate(void)
{
	if (foundInf_) {
		currentScale_ *= backoffFactor_;
		growthTracker_ = 0;
	} else {
		successful_ = growthTracker_ + 1;
		if (successful_ == growthInterval_) {
			newScale_ = currentScale_ * growthFactor_;
			if (IsFinite(newScale_))
				currentScale_ = newScale_;
			growthTracker_ = 0;
		} else {
			growthTracker_ = successful_;
		}
	}
}

/* Lines 157-183, T = float. */
static int StoreOutputData(struct asc_core *core)
{
	TRY(move(core, ASC_PIPE_S, "SetValue(updatedScale)", updatedScaleBuf_,
		 "updatedScaleLocal", &currentScale_, "currentScale_"));
	TRY(move(core, ASC_PIPE_S, "SetValue(updatedGrowthTracker)",
		 updatedGrowthTrackerBuf_, "updatedGrowthTrackerLocal",
		 &growthTracker_, "growthTracker_"));
	TRY(ex_set(core, "174", S_V, EVENT_ID0));
	TRY(ex_wait(core, "175", S_V, EVENT_ID0));
	TRY(SyncVtoM3(core));

	TRY(move(core, ASC_PIPE_MTE3, "DataCopyPad(updatedScale)",
		 &updatedScaleGm_[ex_run], "updated_scale", updatedScaleBuf_,
		 "updatedScaleLocal"));
	TRY(move(core, ASC_PIPE_MTE3, "DataCopyPad(updatedGrowthTracker)",
		 &updatedGrowthTrackerGm_[ex_run], "updated_growth_tracker",
		 updatedGrowthTrackerBuf_, "updatedGrowthTrackerLocal"));
	return SyncM3toM2(core);
}

/* Lines 185-190, after Init's attributes. */
static void kernel(struct asc_core *core, void *arg)
{
	const struct amp_case *c = &cases[ex_run];

	(void)arg;
	nmoves = 0;
	currentScaleGm_ = c->current_scale;
	growthTrackerGm_ = c->growth_tracker;
	foundInfGm_ = c->found_inf;
	growthFactor_ = c->growth_factor;
	backoffFactor_ = c->backoff_factor;
	growthInterval_ = c->growth_interval;
	if (LoadInputData(core) < 0)
		return;
	ComputeScaleUpdate();
	StoreOutputData(core);
}

/* The update as torch documents it, in plain C. */
static int prepare(void)
{
	struct amp_case *c;
	unsigned int i;
	float grown;

	for (i = 0; i < NCASES; i++) {
		c = &cases[i];
		c->want_scale = c->current_scale;
		c->want_tracker = 0;
		if (c->found_inf != 0) {
			c->want_scale = c->current_scale * c->backoff_factor;
		} else if (c->growth_tracker + 1 == c->growth_interval) {
			grown = c->current_scale * c->growth_factor;
			if (isfinite(grown))
				c->want_scale = grown;
		} else {
			c->want_tracker = c->growth_tracker + 1;
		}
		updatedScaleGm_[i] = -1;
		updatedGrowthTrackerGm_[i] = -1;
	}
	return 0;
}

static int verify(void)
{
	unsigned int i;

	for (i = 0; i < NCASES; i++) {
		if (updatedScaleGm_[i] == cases[i].want_scale &&
		    updatedGrowthTrackerGm_[i] == cases[i].want_tracker)
			continue;
		fprintf(stderr, "amp-update-scale: case %u: scale %g tracker %d, expected %g and %d\n",
			i, updatedScaleGm_[i], updatedGrowthTrackerGm_[i],
			cases[i].want_scale, cases[i].want_tracker);
		return -1;
	}
	return 0;
}

static const struct example amp_update_scale = {
	.name = "amp-update-scale",
	.what = "the loss-scale update of mixed precision, decided by the scalar between\n"
		"MTE2 -> V -> S (V_S) and S -> V -> MTE3 (S_V), for five cases.",
	.follows = "hicann/ops-math math/amp_update_scale/op_kernel/amp_update_scale.h\n"
		   "lines 65-190 (commit c41933244c31), T = float",
	.sites = sites,
	.nsites = sizeof(sites) / sizeof(sites[0]),
	.prepare = prepare,
	.runs = NCASES,
	.kernel = kernel,
	.verify = verify,
};

int main(int argc, char **argv)
{
	return ex_main(&amp_update_scale, argc, argv);
}
