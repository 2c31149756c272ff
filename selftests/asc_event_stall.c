// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event_stall: every user copy of every ioctl held up, while every
 * other ioctl runs.
 *
 * For each ioctl that reads its argument from userspace, the read is
 * stopped (the argument sits in a missing page watched by userfaultfd),
 * and for each that writes a result back, the write is stopped (the page
 * is write-protected).  Meanwhile the test's main thread runs a fixed
 * sequence of every ioctl on the same TPipe; then the stopped copy goes
 * on.  Each ioctl is one atomic step and one that has not finished its
 * copies has changed nothing, so the stopped call must take effect after
 * the whole sequence: every result of the sequence, the stopped call's
 * result, and the state the TPipe is left in must be those of a model
 * that runs the sequence first and the stopped call last
 * (Documentation/uapi.rst, "Conventions").
 *
 * Everything runs in checked mode with strict IDs and unbound threads, on
 * IDs from the pool, but for one hand-written ID that strict mode refuses.  The test
 * skips where userfaultfd (or its write protection) is not available.
 */
#include "asc_event_test.h"

/* The mode the tests run in. */
#define STRICT	((int)(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS))

/* Two HardEvents the sequence plays with. */
#define A	ASC_EVENT_MTE2_V
#define B	ASC_EVENT_V_MTE3

/**
 * struct model - what a TPipe holds, for unbound callers in checked mode
 *	with strict IDs.
 * @pool: per HardEvent, the allocated IDs.
 * @flags: per HardEvent, the set flags.
 * @fetched: per HardEvent, the ID of the last fetch, or -1.
 * @ids: IDs per HardEvent.
 * @mode: ASC_EVENT_MODE_* bits.
 */
struct model {
	__u64 pool[ASC_NR_EVENTS];
	__u64 flags[ASC_NR_EVENTS];
	int fetched[ASC_NR_EVENTS];
	int ids;
	__u32 mode;
};

static void m_init(struct model *m, int ids)
{
	memset(m, 0, sizeof(*m));
	memset(m->fetched, -1, sizeof(m->fetched));
	m->ids = ids;
	m->mode = STRICT;
}

static int m_lowest(const struct model *m, int ev)
{
	int id;

	for (id = 0; id < m->ids; id++) {
		if (!(m->pool[ev] & (1ULL << id)))
			return id;
	}
	return -ENOSPC;
}

static int m_alloc(struct model *m, int ev)
{
	int id = m_lowest(m, ev);

	if (id >= 0)
		m->pool[ev] |= 1ULL << id;
	return id;
}

static int m_fetch(struct model *m, int ev)
{
	int id = m_lowest(m, ev);

	if (id >= 0)
		m->fetched[ev] = id;
	return id;
}

static int m_release(struct model *m, int ev, int id)
{
	if (!(m->pool[ev] & (1ULL << id)))
		return -ENOENT;
	m->pool[ev] &= ~(1ULL << id);
	return 0;
}

static bool m_usable(const struct model *m, int ev, int id)
{
	return m->mode != STRICT || (m->pool[ev] & (1ULL << id)) || m->fetched[ev] == id;
}

static int m_set(struct model *m, int ev, int id)
{
	if (!m_usable(m, ev, id))
		return -ENOENT;
	if (m->flags[ev] & (1ULL << id))
		return -EBUSY;
	m->flags[ev] |= 1ULL << id;
	return 0;
}

/* A wait with a past deadline: consume the flag, or time out. */
static int m_wait0(struct model *m, int ev, int id)
{
	if (!m_usable(m, ev, id))
		return -ENOENT;
	if (!(m->flags[ev] & (1ULL << id)))
		return -ETIMEDOUT;
	m->flags[ev] &= ~(1ULL << id);
	return 0;
}

static void m_reset(struct model *m, __u32 *held, __u32 *pending)
{
	int e;

	*held = *pending = 0;
	for (e = 0; e < ASC_NR_EVENTS; e++) {
		*held += __builtin_popcountll(m->pool[e]);
		*pending += __builtin_popcountll(m->flags[e]);
	}
	memset(m->pool, 0, sizeof(m->pool));
	memset(m->flags, 0, sizeof(m->flags));
	memset(m->fetched, -1, sizeof(m->fetched));
}

/**
 * struct step - one ioctl of the sequence.
 * @cmd: the ioctl.
 * @ev: its HardEvent (ALLOC, FETCH, RELEASE, SET, WAIT).
 * @id: its ID (RELEASE, SET, WAIT), or for SET_MODE the mode, for BIND the
 *	pipe.
 */
struct step {
	unsigned long cmd;
	int ev;
	int id;
};

/* Every ioctl, on a state every step of it changes or reads. */
static const struct step sequence[] = {
	{ ASC_EVENT_IOC_ALLOC_ID, A, 0 },
	{ ASC_EVENT_IOC_ALLOC_ID, A, 0 },
	{ ASC_EVENT_IOC_FETCH_ID, B, 0 },
	{ ASC_EVENT_IOC_SET_FLAG, A, 0 },
	{ ASC_EVENT_IOC_SET_FLAG, B, 0 },
	{ ASC_EVENT_IOC_SET_FLAG, B, 1 },	/* hand-written: ENOENT while strict */
	{ ASC_EVENT_IOC_WAIT_FLAG, A, 0 },
	{ ASC_EVENT_IOC_RELEASE_ID, A, 1 },
	{ ASC_EVENT_IOC_RESET, 0, 0 },
	{ ASC_EVENT_IOC_ALLOC_ID, A, 0 },
	{ ASC_EVENT_IOC_FETCH_ID, B, 0 },
	{ ASC_EVENT_IOC_SET_FLAG, A, 0 },
	{ ASC_EVENT_IOC_INFO, 0, 0 },
	{ ASC_EVENT_IOC_GET_MODE, 0, 0 },
	{ ASC_EVENT_IOC_SET_MODE, 0, STRICT },
	{ ASC_EVENT_IOC_BIND_PIPE, 0, ASC_EVENT_PIPE_NONE },
	{ ASC_EVENT_IOC_ALLOC_ID, A, 0 },
};

/**
 * union arg - the argument of any ioctl.
 * @ref: ALLOC, FETCH, RELEASE, SET.
 * @wait: WAIT.
 * @reset: RESET.
 * @info: INFO.
 * @mode: GET_MODE, SET_MODE.
 * @bind: BIND_PIPE.
 */
union arg {
	struct asc_event_ref ref;
	struct asc_event_wait wait;
	struct asc_event_reset reset;
	struct asc_event_info info;
	struct asc_event_mode mode;
	struct asc_event_bind bind;
};

/* The argument of @s. */
static void step_arg(const struct step *s, union arg *a)
{
	memset(a, 0, sizeof(*a));
	switch (s->cmd) {
	case ASC_EVENT_IOC_WAIT_FLAG:
		a->wait.event = s->ev;
		a->wait.id = s->id;
		a->wait.deadline = 0;
		break;
	case ASC_EVENT_IOC_SET_MODE:
		a->mode.mode = s->id;
		break;
	case ASC_EVENT_IOC_BIND_PIPE:
		a->bind.pipe = s->id;
		break;
	default:
		a->ref.event = s->ev;
		a->ref.id = s->id;
		break;
	}
}

/*
 * What @s does to @m and returns: 0, -errno, or for ALLOC and FETCH the ID
 * (the ioctl returns 0 and writes it); @out gets what the ioctl writes.
 */
static int step_model(struct model *m, const struct step *s, union arg *out)
{
	int ret;

	step_arg(s, out);
	switch (s->cmd) {
	case ASC_EVENT_IOC_ALLOC_ID:
	case ASC_EVENT_IOC_FETCH_ID:
		ret = s->cmd == ASC_EVENT_IOC_ALLOC_ID ? m_alloc(m, s->ev) : m_fetch(m, s->ev);
		if (ret >= 0)
			out->ref.id = ret;
		return ret;
	case ASC_EVENT_IOC_RELEASE_ID:
		return m_release(m, s->ev, s->id);
	case ASC_EVENT_IOC_SET_FLAG:
		return m_set(m, s->ev, s->id);
	case ASC_EVENT_IOC_WAIT_FLAG:
		return m_wait0(m, s->ev, s->id);
	case ASC_EVENT_IOC_RESET:
		m_reset(m, &out->reset.ids_held, &out->reset.flags_pending);
		return 0;
	case ASC_EVENT_IOC_INFO:
		out->info.abi_version = ASC_EVENT_ABI_VERSION;
		out->info.nr_events = ASC_EVENT_NR_HARD_EVENTS;
		out->info.event_ids = m->ids;
		out->info.features = ASC_EVENT_FEATURE_CHECKED;
		return 0;
	case ASC_EVENT_IOC_GET_MODE:
		out->mode.mode = m->mode;
		return 0;
	case ASC_EVENT_IOC_SET_MODE:
		m->mode = s->id;
		return 0;
	default:
		return 0;
	}
}

/* The result of an ioctl that ran with @arg, in step_model()'s terms. */
static int step_result(const struct step *s, int ret, const union arg *arg)
{
	if (!ret && (s->cmd == ASC_EVENT_IOC_ALLOC_ID || s->cmd == ASC_EVENT_IOC_FETCH_ID))
		return (int)arg->ref.id;
	return ret;
}

/* What an ioctl writes back that the model predicts exactly. */
static bool outputs_match(const struct step *s, const union arg *got, const union arg *want)
{
	switch (s->cmd) {
	case ASC_EVENT_IOC_RESET:
		return got->reset.ids_held == want->reset.ids_held &&
		       got->reset.flags_pending == want->reset.flags_pending;
	case ASC_EVENT_IOC_INFO:
		return got->info.abi_version == want->info.abi_version &&
		       got->info.nr_events == want->info.nr_events &&
		       got->info.event_ids == want->info.event_ids &&
		       (got->info.features & want->info.features) == want->info.features;
	case ASC_EVENT_IOC_GET_MODE:
		return got->mode.mode == want->mode.mode && !got->mode.pad;
	default:
		return true;
	}
}

static const char *cmd_name(unsigned long cmd)
{
	switch (cmd) {
	case ASC_EVENT_IOC_INFO: return "INFO";
	case ASC_EVENT_IOC_ALLOC_ID: return "ALLOC_ID";
	case ASC_EVENT_IOC_FETCH_ID: return "FETCH_ID";
	case ASC_EVENT_IOC_RELEASE_ID: return "RELEASE_ID";
	case ASC_EVENT_IOC_SET_FLAG: return "SET_FLAG";
	case ASC_EVENT_IOC_WAIT_FLAG: return "WAIT_FLAG";
	case ASC_EVENT_IOC_RESET: return "RESET";
	case ASC_EVENT_IOC_BIND_PIPE: return "BIND_PIPE";
	case ASC_EVENT_IOC_GET_MODE: return "GET_MODE";
	case ASC_EVENT_IOC_SET_MODE: return "SET_MODE";
	}
	return "?";
}

FIXTURE(stall) {
	int fd;
	int ids;
	struct asc_stall st;
	struct asc_stalled_call call;
	bool started;
};

/**
 * FIXTURE_VARIANT(stall) - the stopped call.
 * @step: the ioctl and its arguments.
 * @kind: whether its read of the argument or its write of the result stops.
 */
FIXTURE_VARIANT(stall) {
	struct step step;
	enum asc_stall_kind kind;
};

#define STALL_VARIANT(name, cmd, ev, id, how)			\
	FIXTURE_VARIANT_ADD(stall, name) {			\
		.step = { (cmd), (ev), (id) }, .kind = (how),	\
	}

STALL_VARIANT(alloc_read, ASC_EVENT_IOC_ALLOC_ID, A, 0, ASC_STALL_READ);
STALL_VARIANT(alloc_write, ASC_EVENT_IOC_ALLOC_ID, A, 0, ASC_STALL_WRITE);
STALL_VARIANT(fetch_read, ASC_EVENT_IOC_FETCH_ID, A, 0, ASC_STALL_READ);
STALL_VARIANT(fetch_write, ASC_EVENT_IOC_FETCH_ID, A, 0, ASC_STALL_WRITE);
STALL_VARIANT(release_read, ASC_EVENT_IOC_RELEASE_ID, A, 0, ASC_STALL_READ);
STALL_VARIANT(set_read, ASC_EVENT_IOC_SET_FLAG, B, 0, ASC_STALL_READ);
STALL_VARIANT(wait_read, ASC_EVENT_IOC_WAIT_FLAG, A, 0, ASC_STALL_READ);
STALL_VARIANT(reset_read, ASC_EVENT_IOC_RESET, 0, 0, ASC_STALL_READ);
STALL_VARIANT(reset_write, ASC_EVENT_IOC_RESET, 0, 0, ASC_STALL_WRITE);
STALL_VARIANT(info_write, ASC_EVENT_IOC_INFO, 0, 0, ASC_STALL_WRITE);
STALL_VARIANT(get_mode_write, ASC_EVENT_IOC_GET_MODE, 0, 0, ASC_STALL_WRITE);
STALL_VARIANT(set_mode_read, ASC_EVENT_IOC_SET_MODE, 0, 0, ASC_STALL_READ);
STALL_VARIANT(bind_read, ASC_EVENT_IOC_BIND_PIPE, 0, ASC_EVENT_PIPE_S, ASC_STALL_READ);

FIXTURE_SETUP(stall)
{
	self->fd = asc_open_or_skip(_metadata);
	self->ids = asc_event_ids(_metadata, self->fd);
	/* Strict IDs: the tests tell fetched IDs from hand-written ones. */
	ASSERT_EQ(0, asc_set_mode(self->fd, STRICT));
	self->st.uffd = -1;
	if (self->ids < 2)
		SKIP(return, "%s: needs 2 IDs, the device has %d", _metadata->name, self->ids);
}

FIXTURE_TEARDOWN(stall)
{
	if (self->started) {
		asc_stall_release(&self->st);
		asc_stalled_call_end(&self->call);
	}
	asc_stall_fini(&self->st);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(stall, sequence_runs_first)
{
	const struct step *stopped = &variant->step;
	union arg arg, want;
	struct model m;
	unsigned int i;
	int ret, exp, low;

	m_init(&m, self->ids);
	step_arg(stopped, &arg);
	ret = asc_stall_init(&self->st, variant->kind, &arg, sizeof(arg));
	if (ret > 0)
		SKIP(return, "%s: userfaultfd: %s", _metadata->name, strerror(ret));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, asc_stalled_call_start(&self->call, &self->st, self->fd, stopped->cmd));
	self->started = true;
	ASSERT_TRUE(asc_stall_hit(&self->st)) {
		TH_LOG("%s's %s of its argument did not stop", cmd_name(stopped->cmd),
		       variant->kind == ASC_STALL_READ ? "read" : "write");
	}

	for (i = 0; i < ARRAY_SIZE(sequence); i++) {
		const struct step *s = &sequence[i];

		exp = step_model(&m, s, &want);
		step_arg(s, &arg);
		ret = step_result(s, asc_ioctl(self->fd, s->cmd, &arg), &arg);
		ASSERT_EQ(exp, ret) {
			TH_LOG("step %u, %s (%s:%d), while %s was stopped", i, cmd_name(s->cmd),
			       asc_event_name(s->ev), s->id, cmd_name(stopped->cmd));
		}
		ASSERT_TRUE(outputs_match(s, &arg, &want)) TH_LOG("step %u, %s", i, cmd_name(s->cmd));
	}

	/* Now the stopped call: it comes after the whole sequence. */
	ASSERT_EQ(0, asc_stall_release(&self->st));
	self->started = false;
	exp = step_model(&m, stopped, &want);
	ret = step_result(stopped, asc_stalled_call_end(&self->call),
			  (const union arg *)self->st.page);
	ASSERT_EQ(exp, ret) TH_LOG("the stopped %s", cmd_name(stopped->cmd));
	ASSERT_TRUE(outputs_match(stopped, (const union arg *)self->st.page, &want));

	/* And the state: lowest free IDs and what a reset finds. */
	for (i = 0; i < 2; i++) {
		low = m_lowest(&m, i ? B : A);
		ASSERT_EQ(low, asc_fetch(self->fd, i ? B : A)) TH_LOG("lowest free %s", i ? "B" : "A");
	}
	m_reset(&m, &want.reset.ids_held, &want.reset.flags_pending);
	ASSERT_RESET(self->fd, want.reset.ids_held, want.reset.flags_pending);
}

TEST_HARNESS_MAIN
