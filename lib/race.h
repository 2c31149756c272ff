/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The core runtime's missing-sync detector (race.c): happens-before over
 * the instructions the scalar issues, from the issue order alone.
 *
 * Not installed.  core.c feeds it every instruction in program order
 * before the pipes get it; lib/tests/race.c drives it without a device.
 *
 * Every function returns what its comment says, or -1 with errno set:
 * ENOLCK (accesses no sync orders; a set no wait consumes), EBUSY (a
 * possible double set), EDEADLK (a wait that can never end, where the
 * scalar would block on it), EINVAL (a bad argument) or ENOMEM.  The
 * first failure sticks: every later call fails with the same errno and
 * does nothing.  The findings are lines of the report.
 */
#ifndef __LIBASC_RACE_H__
#define __LIBASC_RACE_H__

#include <stdint.h>

#include "internal.h"

struct asc_race;

/*
 * The clocks: one component per lane, S first (ASC_RACE_S), then V, M,
 * MTE1, MTE2, MTE3, FIX; and ASC_RACE_ISSUE, what the scalar had done when
 * it issued an instruction (the position of its last instruction on S).
 */
#define ASC_RACE_S	0
#define ASC_RACE_ISSUE	7
#define ASC_RACE_CLOCKS	8

/*
 * struct asc_race_site - where the kernel made an instruction: @file (the
 * caller keeps it alive as long as the detector) and @line; @file NULL
 * for no site.
 */
struct asc_race_site {
	const char *file;
	int line;
};

/*
 * An access of a work item the detector keeps: bytes [lo, hi); @in_gm
 * when a buffer of global memory the kernel declared holds its first byte
 * (asc_race_buffers()): that buffer's first byte @base and name @in.
 */
struct asc_race_span {
	uintptr_t lo;
	uintptr_t hi;
	bool write;
	char *name;
	bool in_gm;
	uintptr_t base;
	const char *in;
};

/*
 * struct asc_race_ran - what the tap (asc_race_tap()) learns of a work item
 * when the abstract execution runs it.
 * @lane: its lane, an ASC_RACE_* component.
 * @pos: its position on the lane.
 * @seq: the instruction number it was issued as.
 * @what: its name.
 * @clock: its vector clock, ASC_RACE_CLOCKS components.
 * @mark: what asc_race_mark() gave it; 0 for asc_race_work().
 * @acc: its accesses, @nacc of them.
 * @site: where the kernel made it.
 * @iter: the how-manieth work item of @site it is (1, 2, ...); 0 for
 *	none.
 */
struct asc_race_ran {
	int lane;
	uint32_t pos;
	unsigned long seq;
	const char *what;
	const uint32_t *clock;
	unsigned long mark;
	const struct asc_race_span *acc;
	unsigned int nacc;
	struct asc_race_site site;
	unsigned int iter;
};

/* A new detector: nothing issued; NULL with errno ENOMEM. */
struct asc_race *asc_race_new(void);
void asc_race_free(struct asc_race *race);

/*
 * The report so far, one finding a line; NULL when there is none.  Owned
 * by @race; asc_race_take_report() hands it over and empties it.
 */
const char *asc_race_report(const struct asc_race *race);
char *asc_race_take_report(struct asc_race *race);

/*
 * The call site of the instructions issued from now on (asc_race_site)
 * and the name of a region of memory in reports (asc_race_region): an
 * access in [@lo, @hi) is printed as "NAME+OFFSET+SIZE" rather than by
 * its address; @name lives as long as the detector.  Up to 8 regions;
 * asc_race_region() returns 0, or -1 with errno ENOSPC.
 */
void asc_race_site(struct asc_race *race, const char *file, int line);

/*
 * How reports name global memory: @fn(@ctx, @addr, &base, &name) says
 * whether a buffer the kernel declared holds @addr, with its first byte
 * and name (alive as long as the detector); an access there is printed
 * as "NAME" at "BUFFER" [OFFSET+SIZE].  A named access in no region and
 * no such buffer is printed by its offset from the lowest byte the
 * detector saw under its name: never by a host address.
 */
void asc_race_buffers(struct asc_race *race,
		      bool (*fn)(void *ctx, uintptr_t addr, uintptr_t *base,
				 const char **name),
		      void *ctx);
int asc_race_region(struct asc_race *race, uintptr_t lo, uintptr_t hi,
		    const char *name);

/*
 * Issue @what with its accesses to @pipe_id (a pipe: S runs it at once)
 * as instruction @seq.  Return: its position on the pipe (1, 2, ...).
 */
int asc_race_work(struct asc_race *race, int pipe_id, unsigned long seq,
		const char *what, const struct asc_access *acc,
		unsigned int nacc);

/*
 * asc_race_work() of an instruction without accesses, marked @mark (not 0)
 * for the tap.  Return: its position on the pipe.
 */
int asc_race_mark(struct asc_race *race, int pipe_id, unsigned long seq,
		const char *what, unsigned long mark);

/*
 * Call @fn(@ctx, ...) for every work item with accesses or a mark when
 * it runs, from the thread calling the detector (the cross-core
 * detector, race_launch.c, taps the detector of each core of a launch).
 */
void asc_race_tap(struct asc_race *race,
		void (*fn)(void *ctx, const struct asc_race_ran *ran), void *ctx);

/* The clock of the last instruction run on @pipe_id into @out. */
void asc_race_clock(const struct asc_race *race, int pipe_id,
		  uint32_t out[ASC_RACE_CLOCKS]);

/* The lane of @pipe_id, an ASC_RACE_* component; -1 for no pipe. */
int asc_race_lane(int pipe_id);

/*
 * Issue a set (@set) or a wait of (@event, @id) as instruction @seq, to
 * the source pipe of @event for a set, its destination for a wait.  V_V
 * and FIX_FIX are barriers of their pipe (the wait of V_V is nothing):
 * see asc_race_barrier().
 * A wait on S must end at once (EDEADLK when no issued set ever
 * satisfies it).  Return: its position on its pipe.
 */
int asc_race_flag(struct asc_race *race, bool set, unsigned long seq, int event,
		int id);

/*
 * asc_race_flag() of a set or wait a call @what made ("inQueueX.enque").
 * asc_race_flag_que() with @after_wait: a queue's set, which runs only
 * once the flag's previous set was taken, and after that wait (see
 * "Queues and the IDs they reuse" in que.c).
 */
int asc_race_flag_named(struct asc_race *race, bool set, unsigned long seq,
			int event, int id, const char *what);
int asc_race_flag_que(struct asc_race *race, bool set, unsigned long seq,
		      int event, int id, const char *what, bool after_wait);

/*
 * pipe_barrier(@pipe_id) as instruction @seq: on one pipe other than S
 * everything issued to it before finishes before anything after starts
 * (without one, two overlapping accesses of V, MTE1, MTE2, MTE3 or FIX,
 * one a write, are a missing sync); ASC_PIPE_ALL waits
 * for every pipe (EDEADLK when one never drains) and orders everything
 * before it before everything after.  Return: the position on its pipe,
 * S for ASC_PIPE_ALL.
 */
int asc_race_barrier(struct asc_race *race, int pipe_id, unsigned long seq);

/*
 * The scalar waits, @when (for the report), until the instruction at
 * position @pos of @pipe_id has run, or (asc_race_drain()) until every
 * issued instruction has.  Return: 0, or EDEADLK when that can never be.
 */
int asc_race_reach(struct asc_race *race, int pipe_id, uint32_t pos,
		 const char *when);

/*
 * How many instructions of @pipe_id (a pipe) have run, and how many were
 * issued: positions.
 */
uint32_t asc_race_done(const struct asc_race *race, int pipe_id);
uint32_t asc_race_issued(const struct asc_race *race, int pipe_id);
int asc_race_drain(struct asc_race *race, const char *when);

/*
 * After a drain: a flag set and never waited for is a missing wait
 * (ENOLCK), @when for the report.  Return: 0.
 */
int asc_race_leftovers(struct asc_race *race, const char *when);

/*
 * Whether the detector has seen a set or wait of @event
 * (asc_race_event_used()); whether a set of (@event, @id) issued now
 * could come before the wait of a set already issued
 * (asc_race_may_collide()): a set or wait of it not run yet, its flag
 * still set, or its last wait not ordered before what @event's source
 * pipe has run and the scalar knows.  Only the issue order decides.
 */
bool asc_race_event_used(const struct asc_race *race, int event);

/*
 * The kernel released (@event, @id) as instruction @seq: when a set of
 * it has no wait issued yet, the release was early, and a later double
 * set or collision of the ID names it.
 */
void asc_race_release(struct asc_race *race, int event, int id, unsigned long seq);
bool asc_race_may_collide(const struct asc_race *race, int event, int id);

/*
 * Add a line to the report for every live use of @event: a set issued or
 * whose flag is still set, a wait issued and not yet ended, a last wait
 * not ordered before the next set (asc_race_may_collide()).  For a report
 * of the caller's; no error.
 */
void asc_race_uses(struct asc_race *race, int event, struct asc_report *out);

#endif /* __LIBASC_RACE_H__ */
