/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The core runtime's insides, shared by core.c (one core) and launch.c
 * (the cores of a launch, cross-core flags, SyncAll).  Not installed.
 */
#ifndef __LIBASC_CORE_H__
#define __LIBASC_CORE_H__

#include <pthread.h>

#include "internal.h"

struct asc_launch;

#define CORE_LANES		7
#define CORE_S			0

/*
 * A pipe's queue holds at most CORE_QUEUE_MAX instructions of the runtime
 * and ASC_EVENT_QUEUE_DEPTH tickets of the driver.  A scalar waiting for
 * room in a full queue goes on once it is down to half (when the pipe
 * will get that far): one wake-up per many instructions, not one each.
 */
#define CORE_QUEUE_MAX		1024

/* A wait of the scalar looks at the core's error this often. */
#define CORE_WAIT_SLICE_NS	(100 * 1000 * 1000LL)


/*
 * struct core_site - where in the kernel's source a call was made.
 * @file: the file's name after its last '/', interned by the core (it
 *	lives as long as the core); NULL when the call named no site.
 * @line: the line.
 */
struct core_site {
	const char *file;
	int line;
};

/*
 * What a queued instruction is: work, a set or wait issued to the driver
 * (a ticket), a cross-core set or wait of a launch (launch.c), or a set
 * or wait of the software sync over a workspace in global memory
 * (workspace_sync.c).
 */
enum core_kind {
	CORE_WORK,
	CORE_TICKET,
	CORE_CROSS_SET,
	CORE_CROSS_WAIT,
	CORE_GM_SET,
	CORE_GM_WAIT,
};

/*
 * What a thread of a core of a launch is blocked in, for the launch's
 * deadlock detector (launch.c): nothing (it runs, or a pipe's thread is
 * idle), a wait for a flag of its core, a cross-core wait, SyncAll, the
 * software sync's wait, or a queue's set waiting for the previous set of
 * its flag to be taken (core.c).
 */
enum core_block {
	CORE_RUNS,
	CORE_BLOCK_FLAG,
	CORE_BLOCK_CROSS,
	CORE_BLOCK_SYNC,
	CORE_BLOCK_GM,
	CORE_BLOCK_QSET,
};

/*
 * One instruction in a pipe's queue; @pos is the detector's position,
 * @name the work's name for the trace marker (NULL without one; a ticket
 * a queue issued has its call's, e.g. "inQueueX.enque"), @site where the
 * kernel issued it.  Work is @fn(@arg), or, when @op.kind is set, @op
 * (work_ops.c).  A set of a queue (@after_wait) runs only once every
 * earlier set of its flag was taken by a wait.  A
 * software sync's counters: @gm, @gm_n of them 32 bytes apart; a set adds
 * one to the first, a wait waits until each is at least @gm_target (an
 * IBWait's block and event in @id and @event, @event -1 for SyncAll's).
 */
struct core_item {
	enum core_kind kind;
	uint32_t pos;
	asc_work_fn fn;
	void *arg;
	struct asc_op op;
	char *name;
	uint64_t ticket;
	unsigned long seq;
	int event;
	int id;
	bool set;
	uint32_t *gm;
	unsigned int gm_n;
	uint32_t gm_target;
	struct core_site site;
	bool after_wait;
};

/*
 * struct core_lane - one pipe but S: its thread and its queue.
 * @core: the core.
 * @pipe_id: the pipe.
 * @started: @thread runs.
 * @thread: the pipe's thread.
 * @wake: the thread waits here for work.
 * @q: the instructions issued to the pipe and not yet taken by the
 *	thread, a ring of CORE_QUEUE_MAX from @qhead, @qlen of them
 *	(allocated with the thread: no allocation per instruction).
 * @idle: the thread waits on @wake for its queue to fill: an enqueue
 *	signals it only then.
 * @busy: the thread runs one it took.
 * @tk_pos: the detector's positions of the tickets issued to the driver
 *	for this pipe and not yet executed, a ring from @tk_head, @tk_count
 *	of them: the driver's queue of the pipe.
 * @block: what the thread is blocked in (launch.c), with @block_event and
 *	@block_id, and the blocked instruction's number @block_seq and call
 *	site @block_site for the deadlock report; in a software sync's wait
 *	(CORE_BLOCK_GM), @gm_wait is the instruction.
 */
struct core_lane {
	struct asc_core *core;
	int pipe_id;
	bool started;
	pthread_t thread;
	pthread_cond_t wake;
	struct core_item *q;
	size_t qhead;
	size_t qlen;
	bool idle;
	bool busy;
	uint32_t tk_pos[ASC_EVENT_QUEUE_DEPTH];
	unsigned int tk_head;
	unsigned int tk_count;
	enum core_block block;
	int block_event;
	int block_id;
	unsigned long block_seq;
	struct core_site block_site;
	const struct core_item *gm_wait;
};

/*
 * struct asc_core - one emulated AI core running one kernel.
 * @pipe: the TPipe.
 * @scalar: the thread running the kernel, bound to S.
 * @race: the missing-sync detector.
 * @seq: instructions the scalar has issued, this one included.
 * @lock: protects what the comment at the top says.
 * @progress: the scalar waits here for the pipes.
 * @waiting: the scalar waits on @progress, for the queue of lane
 *	@wait_lane to be down to @wait_items instructions (the one the
 *	thread runs included) and @wait_tickets tickets, or for every pipe
 *	to be idle when @wait_lane is -1; the pipe that makes it so signals
 *	it.
 * @wait_lane: see @waiting.
 * @wait_items: see @waiting.
 * @wait_tickets: see @waiting.
 * @stopping: the kernel is over; the pipe threads exit once idle.
 * @ended: the kernel has returned: what the scalar waits for now is the
 *	end of the kernel's (asc_core_finish()), no call of it.
 * @err: the first error (an errno), 0 while there is none.
 * @report: its report.
 * @marker: the trace marker, written by whoever runs a work item.
 * @lane: the pipes; lane[CORE_S] has no thread.
 * @own_lock: @lock of a core of its own (asc_core_run()).
 * @launch: the launch the core belongs to, NULL for asc_core_run(); then
 *	@lock is the launch's, and the fields below are launch.c's.
 * @index: the core's number in the launch (the driver's).
 * @type: ASC_CORE_AIC or ASC_CORE_AIV; 0 outside a launch.
 * @block_idx: GetBlockIdx(), from the driver.
 * @block_num: GetBlockNum().
 * @sub_block_idx: GetSubBlockIdx().
 * @sub_block_num: GetSubBlockNum().
 * @gone: the core's TPipe is closed (or about to be): it left the launch.
 * @block: what the scalar is blocked in (a wait on S, a cross-core wait
 *	or SyncAll; @waiting says when it waits for its pipes).
 * @block_event: the HardEvent or cross-core flag of @block; for SyncAll
 *	1 when it is the AIVs' of a mix launch (asc_core_sync_all_aiv()).
 * @block_id: the ID of a flag wait; the SyncAll round of a SyncAll.
 * @block_seq: the instruction number of the call blocked, @block_site its
 *	call site (for the deadlock report).
 * @flag_sets: sets of each (HardEvent, ID) run, ASC_HARD_EVENT_COUNT *
 *	ASC_EVENT_IDS_MAX of them; @flag_waits: waits that took one.
 * @flag_cond: a queue's set waits here for a wait of its flag to run
 *	(broadcast when a wait runs while @qset_waiters, and on an error).
 * @qset_waiters: the pipes waiting on @flag_cond.
 * @cross_count: the core's cross-core flag counters, as the driver's.
 * @cross_issued: sets the core issued per mode and flag not yet counted.
 * @cross_last: per flag, the last cross-core set the scalar issued (for
 *	the deadlock report: a set whose mode does not reach the core
 *	waiting); @seq 0 for none.
 * @gm_waits: the software sync's waits the scalar issued per counter
 *	(workspace_sync.c), @n_gm_waits counters.
 * @mode: the TPipe's ASC_MODE_* bits.
 * @site: the call site of the call of the kernel being made (the
 *	scalar's).
 * @files: the file names of the call sites, interned (@nfiles of them).
 * @tpipe: local memory, queues and TBufs (que.c); NULL until the kernel
 *	runs.
 * @memcheck: the memory checks of its accesses (memcheck.c).
 */
struct asc_core {
	struct asc_pipe *pipe;
	pthread_t scalar;
	struct asc_race *race;
	unsigned long seq;
	pthread_mutex_t *lock;
	pthread_cond_t progress;
	bool waiting;
	int wait_lane;
	size_t wait_items;
	unsigned int wait_tickets;
	bool stopping;
	bool ended;
	int err;
	char *report;
	struct asc_marker marker;
	struct core_lane lane[CORE_LANES];
	pthread_mutex_t own_lock;
	struct asc_launch *launch;
	unsigned int index;
	int type;
	int block_idx;
	int block_num;
	int sub_block_idx;
	int sub_block_num;
	bool gone;
	enum core_block block;
	int block_event;
	unsigned long block_id;
	unsigned long block_seq;
	struct core_site block_site;
	uint32_t *flag_sets;
	uint32_t *flag_waits;
	pthread_cond_t flag_cond;
	unsigned int qset_waiters;
	int cross_count[ASC_EVENT_CROSS_FLAGS];
	int cross_issued[3][ASC_EVENT_CROSS_FLAGS];
	struct core_cross_set {
		unsigned long seq;
		int mode;
		struct core_site site;
	} cross_last[ASC_EVENT_CROSS_FLAGS];
	struct core_gm_count *gm_waits;
	size_t n_gm_waits;
	int mode;
	struct core_site site;
	char **files;
	size_t nfiles;
	struct que_tpipe *tpipe;
	struct asc_memcheck *memcheck;
};

/* How many waits a core issued for the counter at @gm. */
struct core_gm_count {
	const uint32_t *gm;
	uint32_t n;
};

struct que_tpipe;

/*
 * The call sites (core.c).  An _at variant of a call pushes its site for
 * the calling thread, calls the plain function and pops it again;
 * asc_core_enter() gives the call the site pushed (none when the plain
 * function was called).  asc_core_site_push() returns what it replaced,
 * for asc_core_site_pop(), which keeps errno.
 */
struct core_site_tls {
	const char *file;
	int line;
};

struct core_site_tls asc_core_site_push(const char *file, int line);
void asc_core_site_pop(struct core_site_tls saved);

/*
 * The body of an _at variant: the plain call @call, of type @type, with
 * the site @file, @line (the variant's last two arguments).
 */
#define CORE_AT(type, call)						\
	do {								\
		struct core_site_tls saved_ = asc_core_site_push(file, line); \
		type ret_ = (call);					\
		asc_core_site_pop(saved_);				\
		return ret_;						\
	} while (0)

/* core.c, for launch.c: see there. */
struct asc_core *asc_core_new(void);
int asc_core_setup(struct asc_core *c, const struct asc_core_attr *attr);
void asc_core_finish(struct asc_core *c);
void asc_core_stop(struct asc_core *c);
void asc_core_destroy(struct asc_core *c);
void asc_core_fail(struct asc_core *c, int err, char *text);
int asc_core_enter(struct asc_core *c);
int asc_core_call_fail(struct asc_core *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int asc_core_site_fail(struct asc_core *c, const struct core_site *site,
		       const char *prefix, int err, struct asc_report *more,
		       const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void asc_core_site_text(const struct core_site *site, char *buf, size_t len);
int asc_core_flag_issue(struct asc_core *c, bool set, int event, int id,
			const char *name);
int asc_core_barrier_all(struct asc_core *c);
void asc_core_count_flag(struct asc_core *c, const struct core_item *it);
int asc_core_race_fail(struct asc_core *c, const char *what);
int asc_core_room(struct asc_core *c, int lane, bool ticket);
int asc_core_enqueue(struct asc_core *c, int lane, const struct core_item *it,
		     uint32_t pos);
int asc_core_lane_of(int pipe_id);

/*
 * que.c, for core.c: local memory, queues and TBufs.  asc_que_setup()
 * maps the core's local memory before the kernel runs (0 or -1 with
 * errno); asc_que_free() unmaps it and frees the queues.
 * asc_que_leftovers() fails the run with ENOLCK for a tensor not freed or
 * not dequeued (@when for the report).  asc_que_wait_frees() issues the
 * waits for the free events still set, as the instruction the scalar is
 * making (@op: "destroy", "reset" or "~TPipe", for the reports), releases
 * their IDs and gives back those of depth-0 queues; asc_que_forget() forgets
 * every placement and holder after the pool was reset.  asc_que_user_id()
 * refuses, in checked mode, a kernel's set, wait or release of an ID a
 * queue holds (EADDRINUSE); asc_que_hold() and asc_que_unhold() keep
 * track of the IDs the kernel itself allocates; asc_que_holders() adds a
 * line per ID of @event held to @r; asc_que_leaked_ids() fails the run
 * with ENOLCK for an ID the kernel allocated and has not released (@when
 * for the report).  All return 0, or -1 with the run failed.
 */
int asc_que_setup(struct asc_core *c);
void asc_que_free(struct asc_core *c);
int asc_que_leftovers(struct asc_core *c, const char *when);
int asc_que_wait_frees(struct asc_core *c, const char *op);
void asc_que_forget(struct asc_core *c);
int asc_que_user_id(struct asc_core *c, int event, int id, const char *op);
void asc_que_hold(struct asc_core *c, int event, int id);
void asc_que_unhold(struct asc_core *c, int event, int id);
void asc_que_holders(struct asc_core *c, int event, struct asc_report *r);
int asc_que_leaked_ids(struct asc_core *c, const char *when);
bool asc_que_destroyed(const struct asc_core *c);
void asc_que_set_destroyed(struct asc_core *c, bool destroyed);

/* launch.c, for core.c and workspace_sync.c: see there. */
void asc_launch_core_failed(struct asc_core *c);
void asc_launch_check(struct asc_launch *l);
void asc_launch_lane_run(struct asc_core *c, struct core_lane *l,
			 const struct core_item *it);
struct asc_xrace *asc_launch_xrace(struct asc_launch *l);

/* core.c, for work_ops.c: asc_core_issue() of @fn(@arg), or of @op (@is_op). */
int asc_core_issue_work(struct asc_core *c, int pipe_id, asc_work_fn fn,
			void *arg, bool is_op, const struct asc_op *op,
			const char *what, const struct asc_access *acc,
			unsigned int nacc);

/* work_ops.c, for core.c: see there. */
const char *asc_work_op_invalid(const struct asc_op *op, int pipe_id,
				const struct asc_access *acc,
				unsigned int nacc);
void asc_work_op_run(const struct asc_op *op);

/* workspace_sync.c, for launch.c: see there. */
void asc_wsync_lane_run(struct asc_core *c, struct core_lane *ln,
			 const struct core_item *it);
bool asc_wsync_stuck(const struct core_lane *ln);
void asc_wsync_report(const struct core_lane *ln, const char *name,
		       struct asc_report *r);

#endif /* __LIBASC_CORE_H__ */
