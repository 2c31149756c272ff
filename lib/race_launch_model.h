/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the cross-core detector keeps of each core of a launch, shared by
 * race_launch.c (recording, as the cores issue and their detectors run) and
 * race_launch_check.c (the clocks and findings after the launch).  Not installed.
 */
#ifndef __LIBASC_XHB_MODEL_H__
#define __LIBASC_XHB_MODEL_H__

#include <stddef.h>
#include <stdint.h>

#include "ranges.h"
#include "race_launch.h"

#define XRACE_MODES	3
#define XRACE_FLAGS	16
#define XRACE_C		ASC_RACE_CLOCKS

/*
 * A work item with accesses or a cross-core set, as its race ran it: @site
 * and @iter as struct asc_race_ran has them (the file is the core's, alive
 * until the launch ends).
 */
struct xrace_item {
	int lane;
	uint32_t pos;
	unsigned long seq;
	uint32_t clock[XRACE_C];
	char *what;
	struct asc_race_site site;
	unsigned int iter;
};

/*
 * An access: bytes, of item @item of core @core; @in_gm, @base and @in as
 * struct asc_race_span has them.
 */
struct xrace_acc {
	struct asc_range range;		/* first: in the check's index */
	unsigned int core;
	size_t item;
	int lane;			/* ASC_RACE_ISSUE for a load of S */
	bool write;
	char *name;
	bool in_gm;
	uintptr_t base;
	const char *in;
};

/*
 * A cross-core set, or (@gm not NULL) a software sync's set of the
 * counter at @gm; @g is its global clock, @round its j.
 */
struct xrace_set {
	const void *gm;
	int flag;
	int mode;
	struct asc_xrace_range group;
	struct asc_xrace_range targets;
	unsigned long seq;
	bool ran;
	size_t item;
	unsigned int round;
	uint32_t *g;
};

/* The j-th count of a group: @members[i] the set of core group.first + i. */
struct xrace_count {
	unsigned int round;
	int mode;
	unsigned int nmembers;
	struct xrace_set **members;
	uint32_t *g;
};

/* A cross-core wait, or one until the counter at @gm reached @count. */
struct xrace_wait {
	const void *gm;
	uint32_t count;
	int flag;
	int lane;
	uint32_t pos;
	unsigned long seq;
};

/*
 * A SyncAll: @aiv 1 for the AIVs' of a mix launch, 0 for every core's;
 * @round its number among the core's SyncAlls of that kind.
 */
struct xrace_sync {
	int aiv;
	size_t round;
	uint32_t pos;
	uint32_t clock[XRACE_C];
	unsigned long seq;
	uint32_t *g;
};

/* What a wait or SyncAll brings in at (@lane, @pos); @cum the join so far. */
struct xrace_import {
	int lane;
	uint32_t pos;
	const uint32_t *src;
	uint32_t *cum;
};

/*
 * struct xrace_core - what one core did.
 * @name: for the report.
 * @err: ENOMEM while recording: the check says so.
 * @items, @accs, @sets, @waits, @syncs: growing arrays (XRACE_PUSH()), each
 *	with its length n_NAME and its room cap_NAME.
 * @counts: per flag, the counts that land on the core (struct xrace_count
 *	pointers), @ncounts of each, in the order waits take them.
 * @imports: the waits and SyncAlls with something to bring in, by lane
 *	then position; @lane_first[k] is lane k's first, @lane_first[k + 1]
 *	its end.
 */
struct xrace_core {
	char name[48];
	int err;
	struct xrace_item *items;
	size_t n_items, cap_items;
	struct xrace_acc *accs;
	size_t n_accs, cap_accs;
	struct xrace_set *sets;
	size_t n_sets, cap_sets;
	struct xrace_wait *waits;
	size_t n_waits, cap_waits;
	struct xrace_sync *syncs;
	size_t n_syncs, cap_syncs;
	struct xrace_count **counts[XRACE_FLAGS];
	size_t ncounts[XRACE_FLAGS];
	struct xrace_import *imports;
	size_t nimports;
	size_t lane_first[XRACE_C + 1];
};

/*
 * struct asc_xrace - the detector of a launch.
 * @ncores: cores; @width: components of a global clock, XRACE_C each.
 * @cores: what each did, by the driver's numbering.
 * @counts: every count, @ncounts of them.
 * @rounds: per kind of SyncAll (@aiv of struct xrace_sync), per round
 *	completed by every core of the kind's group, its clock; @nrounds of
 *	them.
 */
struct asc_xrace {
	int kind;
	unsigned int block_dim;
	unsigned int ncores;
	size_t width;
	struct xrace_core *cores;
	struct xrace_count *counts;
	size_t ncounts;
	uint32_t **rounds[2];
	size_t nrounds[2];
};

/*
 * Make room for one more in a growing array (@pv points to its pointer,
 * @n its length, @cap its room, @size its elements'): the slot, or NULL
 * when out of memory.  XRACE_PUSH(core, name) for a growing array of a
 * core: its @name, n_@name and cap_@name.
 */
void *asc_xrace_grow(void *pv, size_t *n, size_t *cap, size_t size);

#define XRACE_PUSH(core, name) \
	((typeof((core)->name))asc_xrace_grow(&(core)->name, &(core)->n_##name, \
					&(core)->cap_##name, \
					sizeof(*(core)->name)))

#endif /* __LIBASC_XHB_MODEL_H__ */
