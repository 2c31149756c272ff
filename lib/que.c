// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * TPipe's other half: the local memory of a core, and the TQue, TQueBind
 * and TBuf its TPipe places there, with Ascend C's protocol.
 *
 * Local memory.  Each core maps its memories when the kernel starts, one
 * anonymous mapping with a page that is not mapped after each memory (an
 * overrun faults rather than running into the next memory): an AIV has
 * the Unified Buffer, an AIC L1, L0A, L0B, L0C, the bias table and the
 * fixpipe buffer, the core of asc_core_run() all seven.  The TPipe places
 * buffers one after the other in a memory (asc_core_init_buffer()), as
 * Ascend C's InitBuffer() does, until a reset or init forgets them all.
 * The detector names each memory, so that its reports give an offset in
 * "UB" rather than a host address.
 *
 * Queues.  A queue's buffers go FREE -> OCCUPIED (AllocTensor) -> ENQUE
 * (EnQue) -> DEQUE (DeQue) -> FREE (FreeTensor).  EnQue allocates an ID of
 * the queue's enqueue event from the TPipe's pool, through the driver,
 * and issues its set to the producer's pipe; DeQue issues the wait to the
 * consumer's and releases the ID; FreeTensor allocates an ID of the free
 * event and issues its set; the next AllocTensor of that buffer issues
 * the wait and releases it.  The sets and waits are the runtime's own
 * (asc_core_flag_issue()): the driver, checked mode, deadlock detection,
 * the missing-sync detector and the tracer see them as they see the
 * kernel's.  A depth-0 queue takes its two IDs per buffer when its
 * buffers are placed and keeps them; its consumer names the tensor it
 * dequeues.  Every misuse that Ascend C's CPU debug or pyasc's VerifySync
 * would catch fails the run with a "queue:" line naming the queue, the
 * tensor and the call site.
 *
 * Queues and the IDs they reuse.  DeQue gives its ID back as soon as it
 * has issued its wait, so the next EnQue of another buffer takes the
 * same ID, and its set may come, as far as the pipes' order goes, before
 * the consumer's wait for the previous one ran: a double set.  On the
 * chip Ascend C relies on the consumer's wait, issued first, running
 * first; here a queue's set (CORE_TICKET with @after_wait) waits on its
 * pipe until every earlier set of its flag was taken, and the detector
 * orders it after that wait.  Only the framework's sets do so: a
 * hand-written set is checked as it always was.
 *
 * IDs.  Every ID a queue or the kernel itself allocated is remembered
 * with who holds it (struct que_holder): a report of IDs that ran out
 * names them, and in checked mode a hand-written set or wait of an ID a
 * queue holds is refused (EADDRINUSE), the collision of the source
 * article.
 *
 * Everything here is the scalar's, as the rest of the kernel's
 * bookkeeping: no lock.  The mapping is made before the kernel runs and
 * unmapped after the pipes have stopped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core.h"
#include "memcheck.h"
#include "race.h"

enum que_kind {
	QUE_TQUE,
	QUE_BIND,
	QUE_TBUF,
};

enum que_state {
	BUF_FREE,
	BUF_OCCUPIED,
	BUF_ENQUE,
	BUF_DEQUE,
};

/* When a buffer's last alloc, enque or free was made. */
struct que_when {
	unsigned long seq;
	struct core_site site;
};

/*
 * struct que_buf - one buffer of a queue.
 * @offset: where it starts in its memory.
 * @state: see the comment at the top.
 * @gen: its allocations so far: the @gen of the tensor the last one gave.
 * @enq_id: the ID of the enqueue event it holds, -1 for none.
 * @free_id: the ID of the free event it holds (depth > 0: set by its last
 *	free and not waited for yet), -1 for none.
 * @free_set: depth 0: its free flag is set and not waited for.
 * @alloc_at, @enq_at, @free_at: its last alloc, enque and free.
 * @name: "que[i]", for tensors and reports.
 */
struct que_buf {
	uint32_t offset;
	enum que_state state;
	uint32_t gen;
	int enq_id;
	int free_id;
	bool free_set;
	struct que_when alloc_at;
	struct que_when enq_at;
	struct que_when free_at;
	char *name;
};

/*
 * struct asc_que - a TQue, TQueBind or TBuf.
 * @next: the core's next queue, in the order they were made.
 * @core: its core.
 * @name: its name.
 * @kind: TQue, TQueBind or TBuf.
 * @pos: the position of its tensors; @mem their memory.
 * @enq_event: the enqueue event (-1 for a TBuf); @free_event the free one.
 * @depth: its depth.
 * @nbuf: its buffers (0 until placed), @len bytes each, @bufs.
 * @cursor: where the next alloc starts looking (round robin).
 * @ring: the buffers enqueued, oldest first: @count from @head, @depth
 *	slots.
 * @retired: depth 0: destroy gave back its IDs; it needs new buffers.
 */
struct asc_que {
	struct asc_que *next;
	struct asc_core *core;
	char *name;
	enum que_kind kind;
	int pos;
	int mem;
	int enq_event;
	int free_event;
	int depth;
	unsigned int nbuf;
	uint32_t len;
	struct que_buf *bufs;
	unsigned int cursor;
	unsigned int *ring;
	unsigned int head;
	unsigned int count;
	bool retired;
};

enum que_hold {
	HOLD_NONE,
	HOLD_KERNEL,
	HOLD_ENQUE,
	HOLD_FREE,
	HOLD_DEPTH0_ENQUE,
	HOLD_DEPTH0_FREE,
};

/* Who holds an ID of the pool, and since when. */
struct que_holder {
	enum que_hold kind;
	struct asc_que *que;
	unsigned int buf;
	struct que_when at;
};

/*
 * struct que_tpipe - a core's local memory and its TPipe's buffers.
 * @map: the mapping, @map_size bytes.
 * @mem: the first byte of each memory, NULL for one the core lacks.
 * @used: the bytes placed in each memory (Ascend C's maxAddr).
 * @nbufs: buffers placed (curBufSize_).
 * @ques: the queues and TBufs, oldest first; @tail where the next goes.
 * @nque: queues made, @ntbuf TBufs made, for the default names.
 * @holders: per HardEvent, who holds each ID; allocated on first use.
 * @destroyed: Destroy() since the last Init().
 */
struct que_tpipe {
	unsigned char *map;
	size_t map_size;
	unsigned char *mem[ASC_MEM_COUNT];
	size_t used[ASC_MEM_COUNT];
	unsigned int nbufs;
	struct asc_que *ques;
	struct asc_que **tail;
	unsigned int nque;
	unsigned int ntbuf;
	struct que_holder *holders[ASC_HARD_EVENT_COUNT];
	bool destroyed;
};

static const size_t que_mem_size[ASC_MEM_COUNT] = {
	ASC_MEM_UB_BYTES, ASC_MEM_L1_BYTES, ASC_MEM_L0A_BYTES, ASC_MEM_L0B_BYTES,
	ASC_MEM_L0C_BYTES, ASC_MEM_BT_BYTES, ASC_MEM_FB_BYTES,
};

static const char *const que_mem_name[ASC_MEM_COUNT] = {
	"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB",
};

static const char *const que_mem_long[ASC_MEM_COUNT] = {
	"Unified Buffer", "L1", "L0A", "L0B", "L0C", "bias table",
	"fixpipe buffer",
};

/* Ascend C's Hardware of a position on Atlas A2; QUE_GM for global memory. */
#define QUE_GM		(-2)
#define QUE_NONE	(-1)

static int que_phys(int pos)
{
	switch (pos) {
	case ASC_POS_GM:
	case ASC_POS_CO2:
		return QUE_GM;
	case ASC_POS_A1:
	case ASC_POS_B1:
	case ASC_POS_C1:
		return ASC_MEM_L1;
	case ASC_POS_A2:
		return ASC_MEM_L0A;
	case ASC_POS_B2:
		return ASC_MEM_L0B;
	case ASC_POS_C2:
		return ASC_MEM_BT;
	case ASC_POS_CO1:
		return ASC_MEM_L0C;
	case ASC_POS_VECIN:
	case ASC_POS_VECOUT:
	case ASC_POS_VECCALC:
		return ASC_MEM_UB;
	case ASC_POS_C2PIPE2GM:
		return ASC_MEM_FB;
	default:
		return QUE_NONE;
	}
}

static const char *que_pos_name(int pos)
{
	static const char *const names[] = {
		"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2",
		"VECIN", "VECOUT", "VECCALC",
	};

	if (pos >= 0 && pos < (int)(sizeof(names) / sizeof(names[0])))
		return names[pos];
	return pos == ASC_POS_C2PIPE2GM ? "C2PIPE2GM" : "?";
}

/*
 * GetQueEvt of Atlas A2: the enqueue and free events of data going from
 * memory @src to @dst (QUE_GM for global memory), a row each.
 */
static const struct que_evt {
	int src, dst, enq, free_ev;
} que_evts[] = {
	{ QUE_GM, ASC_MEM_UB, ASC_HARD_EVENT_MTE2_V, ASC_HARD_EVENT_V_MTE2 },
	{ QUE_GM, ASC_MEM_L1, ASC_HARD_EVENT_MTE2_MTE1, ASC_HARD_EVENT_MTE1_MTE2 },
	{ QUE_GM, ASC_MEM_L0A, ASC_HARD_EVENT_MTE2_M, ASC_HARD_EVENT_M_MTE2 },
	{ QUE_GM, ASC_MEM_L0B, ASC_HARD_EVENT_MTE2_M, ASC_HARD_EVENT_M_MTE2 },
	{ ASC_MEM_UB, QUE_GM, ASC_HARD_EVENT_V_MTE3, ASC_HARD_EVENT_MTE3_V },
	{ ASC_MEM_UB, ASC_MEM_L1, ASC_HARD_EVENT_MTE3_MTE1, ASC_HARD_EVENT_MTE1_MTE3 },
	{ ASC_MEM_UB, ASC_MEM_UB, ASC_HARD_EVENT_MTE2_MTE3, ASC_HARD_EVENT_MTE3_MTE2 },
	{ ASC_MEM_L1, ASC_MEM_UB, ASC_HARD_EVENT_MTE1_V, ASC_HARD_EVENT_V_MTE1 },
	{ ASC_MEM_L1, ASC_MEM_L0A, ASC_HARD_EVENT_MTE1_M, ASC_HARD_EVENT_M_MTE1 },
	{ ASC_MEM_L1, ASC_MEM_L0B, ASC_HARD_EVENT_MTE1_M, ASC_HARD_EVENT_M_MTE1 },
	{ ASC_MEM_L1, ASC_MEM_BT, ASC_HARD_EVENT_MTE1_M, ASC_HARD_EVENT_M_MTE1 },
	{ ASC_MEM_L1, ASC_MEM_FB, ASC_HARD_EVENT_MTE1_FIX, ASC_HARD_EVENT_FIX_MTE1 },
	{ ASC_MEM_L0A, ASC_MEM_L0C, ASC_HARD_EVENT_M_V, ASC_HARD_EVENT_V_M },
	{ ASC_MEM_L0B, ASC_MEM_L0C, ASC_HARD_EVENT_M_V, ASC_HARD_EVENT_V_M },
	{ ASC_MEM_L0C, QUE_GM, ASC_HARD_EVENT_M_FIX, ASC_HARD_EVENT_FIX_M },
};

/* The events of que_evts[] from @src to @dst.  Return: false for none. */
static bool que_events(int src, int dst, int *enq, int *free_ev)
{
	size_t i;

	for (i = 0; i < sizeof(que_evts) / sizeof(que_evts[0]); i++) {
		if (que_evts[i].src == src && que_evts[i].dst == dst) {
			*enq = que_evts[i].enq;
			*free_ev = que_evts[i].free_ev;
			return true;
		}
	}
	return false;
}

/* GetBufferLogicPos: the positions a TQue at @pos goes between. */
static bool que_logic_pos(int pos, int *src, int *dst)
{
	switch (pos) {
	case ASC_POS_A1:
	case ASC_POS_B1:
	case ASC_POS_C1:
	case ASC_POS_VECIN:
		*src = ASC_POS_GM, *dst = pos;
		return true;
	case ASC_POS_A2:
		*src = ASC_POS_A1, *dst = pos;
		return true;
	case ASC_POS_B2:
		*src = ASC_POS_B1, *dst = pos;
		return true;
	case ASC_POS_C2:
		*src = ASC_POS_C1, *dst = pos;
		return true;
	case ASC_POS_CO1:
		*src = pos, *dst = ASC_POS_CO2;
		return true;
	case ASC_POS_VECOUT:
		*src = pos, *dst = ASC_POS_GM;
		return true;
	case ASC_POS_C2PIPE2GM:
		*src = ASC_POS_B1, *dst = pos;
		return true;
	case ASC_POS_VECCALC:
		/* Where the chip's GetPhyType() takes the unknown position. */
		*src = *dst = ASC_POS_VECCALC;
		return true;
	default:
		return false;
	}
}

ASC_API int asc_que_bind_events(int src, int dst, int *enque_event,
				int *free_event)
{
	int ps = que_phys(src), pd = que_phys(dst), e, f;

	if (ps == QUE_NONE || pd == QUE_NONE || !que_events(ps, pd, &e, &f))
		return asc_einval();
	if (enque_event)
		*enque_event = e;
	if (free_event)
		*free_event = f;
	return 0;
}

ASC_API int asc_que_events(int pos, int *enque_event, int *free_event)
{
	int src, dst;

	if (!que_logic_pos(pos, &src, &dst))
		return asc_einval();
	return asc_que_bind_events(src, dst, enque_event, free_event);
}

/* Which memories a core has: AIV, AIC, or all for the core of asc_core_run(). */
static bool que_core_has(const struct asc_core *c, int mem)
{
	if (c->type == ASC_CORE_AIV)
		return mem == ASC_MEM_UB;
	if (c->type == ASC_CORE_AIC)
		return mem != ASC_MEM_UB;
	return true;
}

static size_t que_page_up(size_t n, size_t page)
{
	return (n + page - 1) / page * page;
}

int asc_que_setup(struct asc_core *c)
{
	size_t page = sysconf(_SC_PAGESIZE), size = 0, off = 0;
	struct que_tpipe *tp;
	int m;

	tp = calloc(1, sizeof(*tp));
	if (!tp)
		return asc_core_call_fail(c, ENOMEM, "the core's local memory");
	tp->tail = &tp->ques;
	c->tpipe = tp;
	for (m = 0; m < ASC_MEM_COUNT; m++)
		if (que_core_has(c, m))
			size += que_page_up(que_mem_size[m], page) + page;
	tp->map = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		       MAP_NORESERVE, -1, 0);
	if (tp->map == MAP_FAILED) {
		tp->map = NULL;
		return asc_core_call_fail(c, ENOMEM, "the core's local memory (%zu bytes)",
					  size);
	}
	tp->map_size = size;
	for (m = 0; m < ASC_MEM_COUNT; m++) {
		if (!que_core_has(c, m))
			continue;
		tp->mem[m] = tp->map + off;
		if (mprotect(tp->mem[m], que_mem_size[m], PROT_READ | PROT_WRITE))
			return asc_core_call_fail(c, errno, "the core's %s", que_mem_name[m]);
		asc_race_region(c->race, (uintptr_t)tp->mem[m],
				(uintptr_t)tp->mem[m] + que_mem_size[m], que_mem_name[m]);
		off += que_page_up(que_mem_size[m], page) + page;
	}
	return 0;
}

static void que_free_one(struct asc_que *q)
{
	unsigned int i;

	for (i = 0; i < q->nbuf; i++)
		free(q->bufs[i].name);
	free(q->bufs);
	free(q->ring);
	free(q->name);
	free(q);
}

void asc_que_free(struct asc_core *c)
{
	struct que_tpipe *tp = c->tpipe;
	struct asc_que *q, *next;
	int e;

	if (!tp)
		return;
	for (q = tp->ques; q; q = next) {
		next = q->next;
		que_free_one(q);
	}
	for (e = 0; e < ASC_HARD_EVENT_COUNT; e++)
		free(tp->holders[e]);
	if (tp->map)
		munmap(tp->map, tp->map_size);
	free(tp);
	c->tpipe = NULL;
}

ASC_API void *asc_core_local_mem(struct asc_core *c, int mem, size_t *size)
{
	if (!c || mem < 0 || mem >= ASC_MEM_COUNT || !c->tpipe || !c->tpipe->mem[mem]) {
		errno = EINVAL;
		return NULL;
	}
	if (size)
		*size = que_mem_size[mem];
	return c->tpipe->mem[mem];
}

/* The instruction being made, for the holders and the buffers. */
static struct que_when que_now(const struct asc_core *c)
{
	struct que_when w = { c->seq, c->site };

	return w;
}

/* "#5 at x.c:3", or "#5". */
static void que_when_text(const struct que_when *w, char *buf, size_t len)
{
	char at[96];

	asc_core_site_text(&w->site, at, sizeof(at));
	snprintf(buf, len, "#%lu%s", w->seq, at);
}

/*
 * A queue call fails: "queue: #N QUE.OP(ARG) at SITE: WHY: STRERROR", then
 * the lines of @more.  Return: -1.
 */
static int que_fail(struct asc_core *c, int err, const struct asc_que *q,
		    const char *op, const char *arg, struct asc_report *more,
		    const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int que_fail(struct asc_core *c, int err, const struct asc_que *q,
		    const char *op, const char *arg, struct asc_report *more,
		    const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return asc_core_site_fail(c, &c->site, "queue", err, more, "#%lu %s.%s(%s)%s%s",
				  c->seq, q->name, op, arg ? arg : "",
				  why[0] ? ": " : "", why);
}

static struct que_holder *que_holder(struct asc_core *c, int event, int id)
{
	struct que_tpipe *tp = c->tpipe;

	if (!tp || id < 0 || id >= ASC_EVENT_IDS_MAX)
		return NULL;
	if (!tp->holders[event])
		tp->holders[event] = calloc(ASC_EVENT_IDS_MAX, sizeof(struct que_holder));
	return tp->holders[event] ? &tp->holders[event][id] : NULL;
}

static void que_hold(struct asc_core *c, int event, int id, enum que_hold kind,
		     struct asc_que *q, unsigned int buf)
{
	struct que_holder *h = que_holder(c, event, id);

	if (h)
		*h = (struct que_holder){ kind, q, buf, que_now(c) };
}

void asc_que_hold(struct asc_core *c, int event, int id)
{
	que_hold(c, event, id, HOLD_KERNEL, NULL, 0);
}

void asc_que_unhold(struct asc_core *c, int event, int id)
{
	struct que_holder *h = que_holder(c, event, id);

	if (h)
		h->kind = HOLD_NONE;
}

/* What holds @h, for a report: "queue inQueueX (the enque of inQueueX[0], #5)". */
static void que_holder_text(const struct que_holder *h, char *buf, size_t len)
{
	static const char *const what[] = {
		[HOLD_ENQUE] = "the enque of", [HOLD_FREE] = "the free of",
		[HOLD_DEPTH0_ENQUE] = "the enqueue ID of depth-0",
		[HOLD_DEPTH0_FREE] = "the free ID of depth-0",
	};
	char when[128];

	que_when_text(&h->at, when, sizeof(when));
	if (h->kind == HOLD_KERNEL)
		snprintf(buf, len, "allocated by the kernel (%s)", when);
	else
		snprintf(buf, len, "held by queue %s: %s %s (%s)", h->que->name,
			 what[h->kind], h->que->bufs[h->buf].name, when);
}

void asc_que_holders(struct asc_core *c, int event, struct asc_report *r)
{
	struct que_tpipe *tp = c->tpipe;
	char text[320];
	int id;

	if (!tp || !tp->holders[event])
		return;
	for (id = 0; id < ASC_EVENT_IDS_MAX; id++) {
		if (tp->holders[event][id].kind == HOLD_NONE)
			continue;
		que_holder_text(&tp->holders[event][id], text, sizeof(text));
		asc_report_add(r, "in use: %s id %d: %s", asc_hard_event_name(event),
			       id, text);
	}
}

int asc_que_leaked_ids(struct asc_core *c, const char *when)
{
	struct que_tpipe *tp = c->tpipe;
	struct asc_report r = { 0 };
	char at[128];
	char *text;
	int event, id;

	if (!tp)
		return 0;
	for (event = 0; event < ASC_HARD_EVENT_COUNT; event++) {
		for (id = 0; tp->holders[event] && id < ASC_EVENT_IDS_MAX; id++) {
			const struct que_holder *h = &tp->holders[event][id];

			if (h->kind != HOLD_KERNEL)
				continue;
			que_when_text(&h->at, at, sizeof(at));
			asc_report_add(&r, "leaked ID: %s id %d, allocated by the kernel (%s), never released %s",
				       asc_hard_event_name(event), id, at, when);
		}
	}
	text = asc_report_take(&r);
	if (!text)
		return 0;
	asc_core_fail(c, ENOLCK, text);
	errno = ENOLCK;
	return -1;
}

int asc_que_user_id(struct asc_core *c, int event, int id, const char *op)
{
	struct que_holder *h;
	char text[320];

	if (!(c->mode & ASC_MODE_CHECKED) || !c->tpipe || !c->tpipe->holders[event])
		return 0;
	h = &c->tpipe->holders[event][id];
	if (h->kind == HOLD_NONE || h->kind == HOLD_KERNEL)
		return 0;
	que_holder_text(h, text, sizeof(text));
	return asc_core_call_fail(c, EADDRINUSE,
				  "#%lu %s(%s, %d): the ID is %s: a hand-written ID collides with the framework's sync",
				  c->seq, op, asc_hard_event_name(event), id, text);
}

bool asc_que_destroyed(const struct asc_core *c)
{
	return c->tpipe && c->tpipe->destroyed;
}

void asc_que_set_destroyed(struct asc_core *c, bool destroyed)
{
	if (c->tpipe)
		c->tpipe->destroyed = destroyed;
}

/* The start of a queue call on @q: the scalar, and a queue of this core. */
static int que_enter(struct asc_core *c, const struct asc_que *q, const char *op)
{
	if (asc_core_enter(c))
		return -1;
	if (!q)
		return asc_core_call_fail(c, EINVAL, "#%lu %s(NULL): no queue", c->seq, op);
	if (q->core != c)
		return asc_core_call_fail(c, EINVAL, "#%lu %s.%s(): a queue of another core",
					  c->seq, q->name, op);
	return 0;
}

/* Allocate an ID of @event for @q's buffer @b; -1 with the run failed. */
static int que_alloc_id(struct asc_core *c, struct asc_que *q, unsigned int b,
			int event, enum que_hold kind, const char *op)
{
	struct asc_report more = { 0 };
	int id, err;

	id = asc_alloc_event_id(c->pipe, event);
	if (id >= 0) {
		que_hold(c, event, id, kind, q, b);
		return id;
	}
	err = errno;
	if (err == EADDRINUSE)
		asc_race_uses(c->race, event, &more);
	else if (err == ENOSPC)
		asc_que_holders(c, event, &more);
	return asc_core_site_fail(c, &c->site, "error", err, &more,
				  "#%lu %s.%s(%s): alloc_event_id(%s)", c->seq, q->name,
				  op, q->bufs[b].name, asc_hard_event_name(event));
}

static int que_release_id(struct asc_core *c, struct asc_que *q, int event, int id)
{
	if (asc_release_event_id(c->pipe, id, event) < 0)
		return asc_core_call_fail(c, errno, "#%lu %s: release_event_id(%d, %s)",
					  c->seq, q->name, id, asc_hard_event_name(event));
	asc_que_unhold(c, event, id);
	return 0;
}

/* A set (@set) or wait of @q's, named "QUE.OP" in the trace and reports. */
static int que_flag(struct asc_core *c, struct asc_que *q, bool set, int event,
		    int id, const char *op)
{
	char name[96];

	snprintf(name, sizeof(name), "%s.%s", q->name, op);
	return asc_core_flag_issue(c, set, event, id, name);
}

static struct asc_que *que_new(struct asc_core *c, enum que_kind kind, int pos,
			       int mem, int enq, int free_ev, int depth,
			       const char *name)
{
	struct que_tpipe *tp = c->tpipe;
	struct asc_que *q;
	char def[32];

	q = calloc(1, sizeof(*q));
	if (!q) {
		asc_core_call_fail(c, ENOMEM, "#%lu a queue", c->seq);
		return NULL;
	}
	if (!name) {
		if (kind == QUE_TBUF)
			snprintf(def, sizeof(def), "buf%u", tp->ntbuf);
		else
			snprintf(def, sizeof(def), "que%u", tp->nque);
		name = def;
	}
	q->name = strdup(name);
	q->ring = depth ? calloc(depth, sizeof(*q->ring)) : NULL;
	if (!q->name || (depth && !q->ring)) {
		que_free_one(q);
		asc_core_call_fail(c, ENOMEM, "#%lu a queue", c->seq);
		return NULL;
	}
	if (kind == QUE_TBUF)
		tp->ntbuf++;
	else
		tp->nque++;
	q->core = c;
	q->kind = kind;
	q->pos = pos;
	q->mem = mem;
	q->enq_event = enq;
	q->free_event = free_ev;
	q->depth = depth;
	*tp->tail = q;
	tp->tail = &q->next;
	return q;
}

/* A TQue or TQueBind from @src to @dst; @pos the position it was asked at. */
static struct asc_que *que_make(struct asc_core *c, enum que_kind kind, int src,
				int dst, int depth, const char *name, const char *op)
{
	int ps, pd, enq, free_ev, pos, mem;

	if (asc_core_enter(c))
		return NULL;
	ps = que_phys(src);
	pd = que_phys(dst);
	if (depth < 0 || depth > ASC_TPIPE_BUFFERS_MAX) {
		asc_core_call_fail(c, EINVAL, "#%lu %s(%s): depth %d: depths are 0..%d",
				   c->seq, op, name ? name : "", depth,
				   ASC_TPIPE_BUFFERS_MAX);
		return NULL;
	}
	if (ps == QUE_NONE || pd == QUE_NONE || !que_events(ps, pd, &enq, &free_ev)) {
		asc_core_call_fail(c, EINVAL, "#%lu %s(%s): %s to %s: Ascend C has no queue events for it",
				   c->seq, op, name ? name : "", que_pos_name(src),
				   que_pos_name(dst));
		return NULL;
	}
	/* GetPosition and GetBufferPos: at @dst, unless it is global memory. */
	pos = pd == QUE_GM ? src : dst;
	mem = pd == QUE_GM ? ps : pd;
	if (mem == QUE_GM) {
		asc_core_call_fail(c, EINVAL, "#%lu %s(%s): %s to %s: its buffers would be in global memory",
				   c->seq, op, name ? name : "", que_pos_name(src),
				   que_pos_name(dst));
		return NULL;
	}
	return que_new(c, kind, pos, mem, enq, free_ev, depth, name);
}

ASC_API struct asc_que *asc_core_tque(struct asc_core *c, int pos, int depth,
				      const char *name)
{
	int src, dst;

	if (!que_logic_pos(pos, &src, &dst)) {
		if (asc_core_enter(c))
			return NULL;
		if (que_phys(pos) == QUE_GM)
			asc_core_call_fail(c, EINVAL, "#%lu tque(%s): %s is global memory: it has no queue",
					   c->seq, name ? name : "", que_pos_name(pos));
		else
			asc_core_call_fail(c, EINVAL, "#%lu tque(%s): %d is no position",
					   c->seq, name ? name : "", pos);
		return NULL;
	}
	return que_make(c, QUE_TQUE, src, dst, depth, name, "tque");
}

ASC_API struct asc_que *asc_core_tque_bind(struct asc_core *c, int src, int dst,
					   int depth, const char *name)
{
	return que_make(c, QUE_BIND, src, dst, depth, name, "tque_bind");
}

ASC_API struct asc_que *asc_core_tbuf(struct asc_core *c, int pos, const char *name)
{
	int mem;

	if (asc_core_enter(c))
		return NULL;
	mem = que_phys(pos);
	if (mem < 0) {
		asc_core_call_fail(c, EINVAL, "#%lu tbuf(%s): position %d is not local memory",
				   c->seq, name ? name : "", pos);
		return NULL;
	}
	return que_new(c, QUE_TBUF, pos, mem, -1, -1, 0, name);
}

/* Place @q's @num buffers of @len bytes (rounded up) after the others. */
static int que_place(struct asc_core *c, struct asc_que *q, unsigned int num,
		     uint32_t len, const char *arg)
{
	struct que_tpipe *tp = c->tpipe;
	unsigned int i;
	char name[160];

	if (tp->used[q->mem] + (size_t)num * len > que_mem_size[q->mem])
		return asc_core_call_fail(c, ENOBUFS,
					  "#%lu init_buffer(%s): %s would hold %zu bytes (the kernel's total), past its %zu",
					  c->seq, arg, que_mem_name[q->mem],
					  tp->used[q->mem] + (size_t)num * len,
					  que_mem_size[q->mem]);
	if (tp->nbufs + num > ASC_TPIPE_BUFFERS_MAX)
		return asc_core_call_fail(c, ENOBUFS,
					  "#%lu init_buffer(%s): the TPipe would manage %u buffers, past its %d",
					  c->seq, arg, tp->nbufs + num,
					  ASC_TPIPE_BUFFERS_MAX);
	q->bufs = calloc(num, sizeof(*q->bufs));
	if (!q->bufs)
		return asc_core_call_fail(c, ENOMEM, "#%lu init_buffer(%s)", c->seq, arg);
	for (i = 0; i < num; i++) {
		if (q->kind == QUE_TBUF)
			snprintf(name, sizeof(name), "%s", q->name);
		else
			snprintf(name, sizeof(name), "%s[%u]", q->name, i);
		q->bufs[i].name = strdup(name);
		if (!q->bufs[i].name) {
			q->nbuf = i;
			return asc_core_call_fail(c, ENOMEM, "#%lu init_buffer(%s)",
						  c->seq, arg);
		}
		q->bufs[i].offset = tp->used[q->mem] + i * len;
		q->bufs[i].enq_id = -1;
		q->bufs[i].free_id = -1;
	}
	q->nbuf = num;
	q->len = len;
	asc_memcheck_placed(c, q->mem, tp->used[q->mem], (size_t)num * len);
	q->cursor = 0;
	q->head = 0;
	q->count = 0;
	q->retired = false;
	tp->used[q->mem] += (size_t)num * len;
	tp->nbufs += num;
	return 0;
}

ASC_API int asc_core_init_buffer(struct asc_core *c, struct asc_que *q, int num,
				 size_t len)
{
	unsigned int i;
	uint32_t len32;
	char arg[128];

	if (que_enter(c, q, "init_buffer"))
		return -1;
	snprintf(arg, sizeof(arg), "%s, %d, %zu", q->name, num, len);
	if (num < 1 || num > ASC_TPIPE_BUFFERS_MAX || (q->kind == QUE_TBUF && num != 1))
		return asc_core_call_fail(c, EINVAL, "#%lu init_buffer(%s): %s", c->seq, arg,
					  q->kind == QUE_TBUF ? "a TBuf has one buffer" :
					  "buffers are 1..64");
	if (!len)
		return asc_core_call_fail(c, EINVAL, "#%lu init_buffer(%s): a buffer of 0 bytes",
					  c->seq, arg);
	if (!c->tpipe->mem[q->mem])
		return asc_core_call_fail(c, EINVAL, "#%lu init_buffer(%s): an %s has no %s",
					  c->seq, arg, c->type == ASC_CORE_AIC ? "AIC" : "AIV",
					  que_mem_long[q->mem]);
	if (q->nbuf)
		return asc_core_call_fail(c, EALREADY,
					  "#%lu init_buffer(%s): it has its buffers already (init() or reset() the TPipe first)",
					  c->seq, arg);
	if (len > que_mem_size[q->mem])
		return asc_core_call_fail(c, ENOBUFS,
					  "#%lu init_buffer(%s): a buffer of %zu bytes, past the %zu of %s",
					  c->seq, arg, len, que_mem_size[q->mem],
					  que_mem_name[q->mem]);
	len32 = (len + ASC_LOCAL_ALIGN - 1) / ASC_LOCAL_ALIGN * ASC_LOCAL_ALIGN;
	if (que_place(c, q, num, len32, arg))
		return -1;
	if (q->kind == QUE_TBUF || q->depth)
		return 0;
	/* Depth 0: two IDs per buffer for good, and its buffer free. */
	for (i = 0; i < q->nbuf; i++) {
		q->bufs[i].enq_id = que_alloc_id(c, q, i, q->enq_event,
						 HOLD_DEPTH0_ENQUE, "init_buffer");
		if (q->bufs[i].enq_id < 0)
			return -1;
		q->bufs[i].free_id = que_alloc_id(c, q, i, q->free_event,
						  HOLD_DEPTH0_FREE, "init_buffer");
		if (q->bufs[i].free_id < 0 ||
		    que_flag(c, q, true, q->free_event, q->bufs[i].free_id, "init_buffer"))
			return -1;
		q->bufs[i].free_set = true;
	}
	return 0;
}

bool asc_que_buffer_at(const struct asc_core *c, int mem, size_t offset,
		       size_t *start, size_t *len, const char **name)
{
	const struct asc_que *q;
	unsigned int i;

	if (!c->tpipe)
		return false;
	for (q = c->tpipe->ques; q; q = q->next) {
		if (q->mem != mem)
			continue;
		for (i = 0; i < q->nbuf; i++) {
			if (offset < q->bufs[i].offset ||
			    offset - q->bufs[i].offset >= q->len)
				continue;
			*start = q->bufs[i].offset;
			*len = q->len;
			*name = q->bufs[i].name;
			return true;
		}
	}
	return false;
}

/* The tensor of buffer @b of @q: all of it. */
static void que_tensor(const struct asc_que *q, unsigned int b, struct asc_local *t)
{
	const struct que_buf *buf = &q->bufs[b];

	memset(t, 0, sizeof(*t));
	t->addr = q->core->tpipe->mem[q->mem] + buf->offset;
	t->size = q->len;
	t->name = buf->name;
	t->que = (struct asc_que *)q;
	t->pos = q->pos;
	t->mem = q->mem;
	t->offset = buf->offset;
	t->buf = b;
	t->gen = buf->gen;
}

/* A queue (not a TBuf) with its buffers, for @op; -1 with the run failed. */
static int que_usable(struct asc_core *c, const struct asc_que *q, const char *op,
		      const char *arg)
{
	if (q->kind == QUE_TBUF)
		return que_fail(c, EINVAL, q, op, arg, NULL,
				"a TBuf has no %s (it takes no events: get() its tensor)", op);
	if (!q->nbuf)
		return que_fail(c, EINVAL, q, op, arg, NULL,
				"the queue has no buffers (init_buffer() it)");
	if (q->retired)
		return que_fail(c, EINVAL, q, op, arg, NULL,
				"destroy() gave back the IDs of this depth-0 queue (init() the TPipe and init_buffer() it again)");
	return 0;
}

/*
 * The buffer of tensor @t of @q, for @op: one @q handed out, in the
 * allocation it was handed out in.  Return: the buffer's index, or -1
 * with the run failed (EXDEV, ENOENT).
 */
static int que_buf_of(struct asc_core *c, struct asc_que *q, const struct asc_local *t,
		      const char *op)
{
	const char *name = t->name ? t->name : "?";
	const struct que_buf *b;
	unsigned char *lo;
	char when[128], again[128];

	if (t->que != q || t->buf < 0 || (unsigned int)t->buf >= q->nbuf)
		return que_fail(c, EXDEV, q, op, name, NULL,
				"not a tensor of this queue%s%s",
				t->que ? ": it comes from " : "",
				t->que ? t->que->name : "");
	b = &q->bufs[t->buf];
	lo = q->core->tpipe->mem[q->mem] + b->offset;
	if ((unsigned char *)t->addr < lo || !t->size ||
	    (unsigned char *)t->addr + t->size > lo + q->len)
		return que_fail(c, EXDEV, q, op, name, NULL,
				"not a tensor of this queue: its bytes are not %s's",
				b->name);
	if (t->gen == b->gen && b->state != BUF_FREE)
		return t->buf;
	if (!t->gen || t->gen > b->gen)
		return que_fail(c, EXDEV, q, op, name, NULL,
				"not a tensor of this queue: %s never gave it", b->name);
	que_when_text(&b->free_at, when, sizeof(when));
	if (t->gen == b->gen)
		return que_fail(c, ENOENT, q, op, name, NULL, "freed already (by %s)", when);
	que_when_text(&b->alloc_at, again, sizeof(again));
	return que_fail(c, ENOENT, q, op, name, NULL,
			"a stale tensor: its buffer was freed and allocated again since (%s)",
			again);
}

/*
 * The start of a queue call on tensor @t of @q: que_enter(), a queue with
 * its buffers, a tensor it handed out.  Return: its buffer's index, or -1
 * with the run failed.
 */
static int que_enter_tensor(struct asc_core *c, struct asc_que *q,
			    const struct asc_local *t, const char *op)
{
	if (que_enter(c, q, op) || que_usable(c, q, op, t && t->name ? t->name : NULL))
		return -1;
	if (!t)
		return que_fail(c, EINVAL, q, op, NULL, NULL, "no tensor");
	return que_buf_of(c, q, t, op);
}

/* "inQueueX[0] allocated (#5 at x.c:3), ..." for the report of a full queue. */
static void que_list_allocated(const struct asc_que *q, struct asc_report *r)
{
	static const char *const state[] = {
		[BUF_OCCUPIED] = "allocated", [BUF_ENQUE] = "enqueued",
		[BUF_DEQUE] = "dequeued",
	};
	char when[128];
	unsigned int i;

	for (i = 0; i < q->nbuf; i++) {
		que_when_text(q->bufs[i].state == BUF_ENQUE ? &q->bufs[i].enq_at :
			      &q->bufs[i].alloc_at, when, sizeof(when));
		asc_report_add(r, "in use: %s: %s (%s), not freed", q->bufs[i].name,
			       state[q->bufs[i].state], when);
	}
}

ASC_API int asc_core_alloc_tensor(struct asc_core *c, struct asc_que *q,
				  struct asc_local *out)
{
	const char *op = "alloc_tensor";
	struct asc_report more = { 0 };
	struct que_buf *b = NULL;
	unsigned int k, i = 0;

	if (que_enter(c, q, op) || que_usable(c, q, op, NULL))
		return -1;
	if (!out)
		return que_fail(c, EINVAL, q, op, NULL, NULL, "no tensor to store");
	for (k = 0; k < q->nbuf && !b; k++) {
		i = q->cursor;
		q->cursor = (q->cursor + 1) % q->nbuf;
		if (q->bufs[i].state == BUF_FREE)
			b = &q->bufs[i];
	}
	if (!b) {
		que_list_allocated(q, &more);
		return que_fail(c, EDEADLK, q, op, NULL, &more,
				"no free buffer: all %u are in use and only the kernel frees them (on the chip the scalar waits forever)",
				q->nbuf);
	}
	if (b->free_id >= 0) {
		if (que_flag(c, q, false, q->free_event, b->free_id, op))
			return -1;
		if (q->depth) {
			if (que_release_id(c, q, q->free_event, b->free_id))
				return -1;
			b->free_id = -1;
		}
		b->free_set = false;
	}
	b->state = BUF_OCCUPIED;
	b->gen++;
	b->alloc_at = que_now(c);
	que_tensor(q, i, out);
	return 0;
}

ASC_API int asc_core_enque(struct asc_core *c, struct asc_que *q,
			   const struct asc_local *t)
{
	const char *op = "enque";
	struct que_buf *b;
	int i, id;

	i = que_enter_tensor(c, q, t, op);
	if (i < 0)
		return -1;
	b = &q->bufs[i];
	if (b->state == BUF_ENQUE) {
		char when[128];

		que_when_text(&b->enq_at, when, sizeof(when));
		return que_fail(c, EALREADY, q, op, b->name, NULL,
				"enqueued already (by %s) and not dequeued", when);
	}
	if (!q->depth) {
		if (que_flag(c, q, true, q->enq_event, b->enq_id, op))
			return -1;
	} else {
		if (q->count == (unsigned int)q->depth)
			return que_fail(c, EOVERFLOW, q, op, b->name, NULL,
					"past the depth: the queue holds %u tensor%s already, its depth is %d",
					q->count, q->count == 1 ? "" : "s", q->depth);
		id = que_alloc_id(c, q, i, q->enq_event, HOLD_ENQUE, op);
		if (id < 0 || que_flag(c, q, true, q->enq_event, id, op))
			return -1;
		b->enq_id = id;
		q->ring[(q->head + q->count++) % q->depth] = i;
	}
	b->state = BUF_ENQUE;
	b->enq_at = que_now(c);
	return 0;
}

ASC_API int asc_core_deque(struct asc_core *c, struct asc_que *q,
			   struct asc_local *out)
{
	const char *op = "deque";
	struct que_buf *b;
	unsigned int i;

	if (que_enter(c, q, op) || que_usable(c, q, op, NULL))
		return -1;
	if (!q->depth)
		return que_fail(c, EINVAL, q, op, NULL, NULL,
				"a depth-0 queue dequeues the tensor it is given (deque_tensor())");
	if (!out)
		return que_fail(c, EINVAL, q, op, NULL, NULL, "no tensor to store");
	if (!q->count)
		return que_fail(c, ENODATA, q, op, NULL, NULL,
				"the queue is empty: no tensor is enqueued");
	i = q->ring[q->head];
	b = &q->bufs[i];
	if (que_flag(c, q, false, q->enq_event, b->enq_id, op) ||
	    que_release_id(c, q, q->enq_event, b->enq_id))
		return -1;
	q->head = (q->head + 1) % q->depth;
	q->count--;
	b->enq_id = -1;
	b->state = BUF_DEQUE;
	que_tensor(q, i, out);
	return 0;
}

ASC_API int asc_core_deque_tensor(struct asc_core *c, struct asc_que *q,
				  const struct asc_local *t)
{
	const char *op = "deque_tensor";
	struct que_buf *b;
	int i;

	i = que_enter_tensor(c, q, t, op);
	if (i < 0)
		return -1;
	if (q->depth)
		return que_fail(c, EINVAL, q, op, NULL, NULL,
				"a queue of depth %d dequeues its oldest tensor (deque())",
				q->depth);
	b = &q->bufs[i];
	if (b->state != BUF_ENQUE)
		return que_fail(c, ENODATA, q, op, b->name, NULL, "it is not enqueued");
	if (que_flag(c, q, false, q->enq_event, b->enq_id, op))
		return -1;
	b->state = BUF_DEQUE;
	return 0;
}

ASC_API int asc_core_free_tensor(struct asc_core *c, struct asc_que *q,
				 const struct asc_local *t)
{
	const char *op = "free_tensor";
	struct que_buf *b;
	char when[128];
	int i, id;

	i = que_enter_tensor(c, q, t, op);
	if (i < 0)
		return -1;
	b = &q->bufs[i];
	if (b->state == BUF_ENQUE) {
		que_when_text(&b->enq_at, when, sizeof(when));
		return que_fail(c, EBUSY, q, op, b->name, NULL,
				"it is enqueued (by %s) and not dequeued", when);
	}
	if (q->depth) {
		id = que_alloc_id(c, q, i, q->free_event, HOLD_FREE, op);
		if (id < 0 || que_flag(c, q, true, q->free_event, id, op))
			return -1;
		b->free_id = id;
	} else if (que_flag(c, q, true, q->free_event, b->free_id, op)) {
		return -1;
	}
	b->free_set = true;
	b->state = BUF_FREE;
	b->free_at = que_now(c);
	return 0;
}

/* A TBuf's tensor: @len bytes (0: all) from @offset. */
static int que_get(struct asc_core *c, struct asc_que *q, size_t len, size_t offset,
		   struct asc_local *out, const char *op)
{
	char arg[64];

	if (que_enter(c, q, op))
		return -1;
	snprintf(arg, sizeof(arg), "%zu, %zu", len, offset);
	if (q->kind != QUE_TBUF)
		return que_fail(c, EINVAL, q, op, arg, NULL,
				"a queue's tensors come from alloc_tensor() and deque()");
	if (!q->nbuf)
		return que_fail(c, EINVAL, q, op, arg, NULL, "the TBuf has no buffer (init_buffer() it)");
	if (!out)
		return que_fail(c, EINVAL, q, op, arg, NULL, "no tensor to store");
	if (!len && !offset)
		len = q->len;
	if (!len || offset > q->len || len > q->len - offset)
		return que_fail(c, EINVAL, q, op, arg, NULL,
				"bytes %zu..%zu are past the end of its %u", offset,
				offset + len, q->len);
	que_tensor(q, 0, out);
	out->addr = (unsigned char *)out->addr + offset;
	out->offset += offset;
	out->size = len;
	return 0;
}

ASC_API int asc_core_tbuf_get(struct asc_core *c, struct asc_que *buf, size_t len,
			      struct asc_local *out)
{
	return que_get(c, buf, len, 0, out, "get");
}

ASC_API int asc_core_tbuf_get_with_offset(struct asc_core *c, struct asc_que *buf,
					  size_t len, size_t offset,
					  struct asc_local *out)
{
	if (!len) {
		if (asc_core_enter(c))
			return -1;
		return asc_core_call_fail(c, EINVAL, "#%lu %s.get_with_offset(0, %zu): a tensor of 0 bytes",
					  c->seq, buf ? buf->name : "NULL", offset);
	}
	return que_get(c, buf, len, offset, out, "get_with_offset");
}

ASC_API int asc_local_sub(const struct asc_local *t, size_t offset, size_t size,
			  struct asc_local *out)
{
	struct asc_local part;

	if (!t || !out || !t->que || offset >= t->size ||
	    (size && size > t->size - offset))
		return asc_einval();
	part = *t;
	part.addr = (unsigned char *)t->addr + offset;
	part.offset = t->offset + offset;
	part.size = size ? size : t->size - offset;
	*out = part;
	return 0;
}

int asc_que_leftovers(struct asc_core *c, const char *when)
{
	struct asc_report r = { 0 };
	struct asc_que *q;
	char at[128];
	unsigned int i;
	char *text;

	if (!c->tpipe)
		return 0;
	for (q = c->tpipe->ques; q; q = q->next) {
		if (q->kind == QUE_TBUF)
			continue;
		for (i = 0; i < q->nbuf; i++) {
			const struct que_buf *b = &q->bufs[i];

			if (b->state == BUF_ENQUE) {
				que_when_text(&b->enq_at, at, sizeof(at));
				asc_report_add(&r, "queue: %s enqueued (%s) and never dequeued %s",
					       b->name, at, when);
			} else if (b->state != BUF_FREE) {
				que_when_text(&b->alloc_at, at, sizeof(at));
				asc_report_add(&r, "queue: %s allocated (%s) and never freed %s",
					       b->name, at, when);
			}
		}
	}
	text = asc_report_take(&r);
	if (!text)
		return 0;
	asc_core_fail(c, ENOLCK, text);
	errno = ENOLCK;
	return -1;
}

int asc_que_wait_frees(struct asc_core *c, const char *op)
{
	struct asc_que *q;
	unsigned int i;

	if (!c->tpipe)
		return 0;
	for (q = c->tpipe->ques; q; q = q->next) {
		if (q->kind == QUE_TBUF || q->retired)
			continue;
		for (i = 0; i < q->nbuf; i++) {
			struct que_buf *b = &q->bufs[i];

			if (b->free_set && b->state == BUF_FREE &&
			    que_flag(c, q, false, q->free_event, b->free_id, op))
				return -1;
			b->free_set = false;
			if (b->free_id >= 0 && que_release_id(c, q, q->free_event, b->free_id))
				return -1;
			b->free_id = -1;
		}
		if (q->depth)
			continue;
		/* Depth 0: its enqueue IDs too; the queue is done until re-placed. */
		for (i = 0; i < q->nbuf; i++) {
			struct que_buf *b = &q->bufs[i];

			if (b->enq_id >= 0 && que_release_id(c, q, q->enq_event, b->enq_id))
				return -1;
			b->enq_id = -1;
		}
		q->retired = q->nbuf > 0;
	}
	return 0;
}

void asc_que_forget(struct asc_core *c)
{
	struct que_tpipe *tp = c->tpipe;
	struct asc_que *q;
	unsigned int i;
	int e;

	if (!tp)
		return;
	for (q = tp->ques; q; q = q->next) {
		for (i = 0; i < q->nbuf; i++)
			free(q->bufs[i].name);
		free(q->bufs);
		q->bufs = NULL;
		q->nbuf = 0;
		q->len = 0;
		q->count = 0;
		q->head = 0;
		q->retired = false;
	}
	memset(tp->used, 0, sizeof(tp->used));
	tp->nbufs = 0;
	for (e = 0; e < ASC_HARD_EVENT_COUNT; e++)
		if (tp->holders[e])
			memset(tp->holders[e], 0, ASC_EVENT_IDS_MAX * sizeof(struct que_holder));
}

ASC_API struct asc_que *asc_core_tque_at(struct asc_core *c, int pos, int depth,
					 const char *name, const char *file, int line)
{
	CORE_AT(struct asc_que *, asc_core_tque(c, pos, depth, name));
}

ASC_API struct asc_que *asc_core_tque_bind_at(struct asc_core *c, int src, int dst,
					      int depth, const char *name,
					      const char *file, int line)
{
	CORE_AT(struct asc_que *, asc_core_tque_bind(c, src, dst, depth, name));
}

ASC_API struct asc_que *asc_core_tbuf_at(struct asc_core *c, int pos, const char *name,
					 const char *file, int line)
{
	CORE_AT(struct asc_que *, asc_core_tbuf(c, pos, name));
}

ASC_API int asc_core_init_buffer_at(struct asc_core *c, struct asc_que *que, int num,
				    size_t len, const char *file, int line)
{
	CORE_AT(int, asc_core_init_buffer(c, que, num, len));
}

ASC_API int asc_core_alloc_tensor_at(struct asc_core *c, struct asc_que *que,
				     struct asc_local *out, const char *file, int line)
{
	CORE_AT(int, asc_core_alloc_tensor(c, que, out));
}

ASC_API int asc_core_enque_at(struct asc_core *c, struct asc_que *que,
			      const struct asc_local *t, const char *file, int line)
{
	CORE_AT(int, asc_core_enque(c, que, t));
}

ASC_API int asc_core_deque_at(struct asc_core *c, struct asc_que *que,
			      struct asc_local *out, const char *file, int line)
{
	CORE_AT(int, asc_core_deque(c, que, out));
}

ASC_API int asc_core_deque_tensor_at(struct asc_core *c, struct asc_que *que,
				     const struct asc_local *t, const char *file,
				     int line)
{
	CORE_AT(int, asc_core_deque_tensor(c, que, t));
}

ASC_API int asc_core_free_tensor_at(struct asc_core *c, struct asc_que *que,
				    const struct asc_local *t, const char *file,
				    int line)
{
	CORE_AT(int, asc_core_free_tensor(c, que, t));
}

ASC_API int asc_core_tbuf_get_at(struct asc_core *c, struct asc_que *buf, size_t len,
				 struct asc_local *out, const char *file, int line)
{
	CORE_AT(int, asc_core_tbuf_get(c, buf, len, out));
}

ASC_API int asc_core_tbuf_get_with_offset_at(struct asc_core *c, struct asc_que *buf,
					     size_t len, size_t offset,
					     struct asc_local *out,
					     const char *file, int line)
{
	CORE_AT(int, asc_core_tbuf_get_with_offset(c, buf, len, offset, out));
}
