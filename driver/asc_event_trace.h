/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asc_event tracepoints, trace system "asc_event": every operation on a
 * TPipe with its result, waits from start to end, resets, leak and
 * deadlock reports; launches, the cores that join and leave them, their
 * cross-core sets and waits and SyncAll.  Each event prints key=value
 * pairs; "tpipe" is the TPipe's serial (its debugfs file is
 * tpipe-<serial>), "pipe" the pipe the calling thread is bound to, "-"
 * when none; "launch" a launch's serial and "core" a core's number in it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM asc_event

#if !defined(_ASC_EVENT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ASC_EVENT_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>

#include "asc_event_table.h"

/*
 * Every tracepoint counts itself in the module's page while it is enabled
 * (asc_event_map.c): a process that maps it then takes the ioctls for its
 * sets and waits, which the trace sees.
 */
int asc_trace_reg(void);
void asc_trace_unreg(void);

#define ASC_TRACE_EVENT_LEN	12
#define ASC_TRACE_PIPE_LEN	5

/* Fill the entry's pipe and event names; only inside TP_fast_assign(). */
#define ASC_TRACE_NAMES(_slot, _event)					\
	do {								\
		strscpy(__entry->pipe, asc_slot_name(_slot),		\
			ASC_TRACE_PIPE_LEN);				\
		strscpy(__entry->event, asc_hard_event_name(_event),	\
			ASC_TRACE_EVENT_LEN);				\
	} while (0)

DECLARE_EVENT_CLASS(asc_event_op,
		    TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id,
			     int ret),
		    TP_ARGS(tpipe, slot, event, id, ret),
		    TP_STRUCT__entry(__field(unsigned int, tpipe)
				     __field(u32, id)
				     __field(int, ret)
				     __array(char, pipe, ASC_TRACE_PIPE_LEN)
				     __array(char, event, ASC_TRACE_EVENT_LEN)),
		    TP_fast_assign(__entry->tpipe = tpipe;
				   __entry->id = id;
				   __entry->ret = ret;
				   ASC_TRACE_NAMES(slot, event);),
		    TP_printk("tpipe=%u pipe=%s event=%s id=%u ret=%d",
			      __entry->tpipe, __entry->pipe, __entry->event,
			      __entry->id, __entry->ret)
);

DEFINE_EVENT_FN(asc_event_op, asc_event_alloc,
		TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id, int ret),
		TP_ARGS(tpipe, slot, event, id, ret),
		asc_trace_reg, asc_trace_unreg);
DEFINE_EVENT_FN(asc_event_op, asc_event_fetch,
		TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id, int ret),
		TP_ARGS(tpipe, slot, event, id, ret),
		asc_trace_reg, asc_trace_unreg);
DEFINE_EVENT_FN(asc_event_op, asc_event_release,
		TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id, int ret),
		TP_ARGS(tpipe, slot, event, id, ret),
		asc_trace_reg, asc_trace_unreg);
DEFINE_EVENT_FN(asc_event_op, asc_event_set,
		TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id, int ret),
		TP_ARGS(tpipe, slot, event, id, ret),
		asc_trace_reg, asc_trace_unreg);

TRACE_EVENT_FN(asc_event_issue,
	       TP_PROTO(unsigned int tpipe, int slot, u32 op, u32 event, u32 id,
			u64 ticket, int ret),
	       TP_ARGS(tpipe, slot, op, event, id, ticket, ret),
	       TP_STRUCT__entry(__field(u64, ticket)
				__field(unsigned int, tpipe)
				__field(u32, id)
				__field(int, ret)
				__field(bool, set)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)
				__array(char, event, ASC_TRACE_EVENT_LEN)),
	       TP_fast_assign(__entry->ticket = ticket;
			      __entry->tpipe = tpipe;
			      __entry->id = id;
			      __entry->ret = ret;
			      __entry->set = op == ASC_EVENT_OP_SET;
			      ASC_TRACE_NAMES(slot, event);),
	       TP_printk("tpipe=%u pipe=%s op=%s event=%s id=%u ticket=%llu ret=%d",
			 __entry->tpipe, __entry->pipe,
			 __entry->set ? "set" : "wait", __entry->event,
			 __entry->id, __entry->ticket, __entry->ret),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_wait_start,
	       TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id,
			bool forever),
	       TP_ARGS(tpipe, slot, event, id, forever),
	       TP_STRUCT__entry(__field(unsigned int, tpipe)
				__field(u32, id)
				__field(bool, forever)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)
				__array(char, event, ASC_TRACE_EVENT_LEN)),
	       TP_fast_assign(__entry->tpipe = tpipe;
			      __entry->id = id;
			      __entry->forever = forever;
			      ASC_TRACE_NAMES(slot, event);),
	       TP_printk("tpipe=%u pipe=%s event=%s id=%u forever=%d",
			 __entry->tpipe, __entry->pipe, __entry->event,
			 __entry->id, __entry->forever),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_wait_end,
	       TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id, int ret,
			u64 waited_ns),
	       TP_ARGS(tpipe, slot, event, id, ret, waited_ns),
	       TP_STRUCT__entry(__field(u64, waited_ns)
				__field(unsigned int, tpipe)
				__field(u32, id)
				__field(int, ret)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)
				__array(char, event, ASC_TRACE_EVENT_LEN)),
	       TP_fast_assign(__entry->waited_ns = waited_ns;
			      __entry->tpipe = tpipe;
			      __entry->id = id;
			      __entry->ret = ret;
			      ASC_TRACE_NAMES(slot, event);),
	       TP_printk("tpipe=%u pipe=%s event=%s id=%u ret=%d waited_ns=%llu",
			 __entry->tpipe, __entry->pipe, __entry->event,
			 __entry->id, __entry->ret, __entry->waited_ns),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_reset,
	       TP_PROTO(unsigned int tpipe, unsigned int ids_held,
			unsigned int flags_pending),
	       TP_ARGS(tpipe, ids_held, flags_pending),
	       TP_STRUCT__entry(__field(unsigned int, tpipe)
				__field(unsigned int, ids_held)
				__field(unsigned int, flags_pending)),
	       TP_fast_assign(__entry->tpipe = tpipe;
			      __entry->ids_held = ids_held;
			      __entry->flags_pending = flags_pending;),
	       TP_printk("tpipe=%u ids_held=%u flags_pending=%u",
			 __entry->tpipe, __entry->ids_held, __entry->flags_pending),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_leak,
	       TP_PROTO(unsigned int tpipe, bool at_close, unsigned int ids,
			unsigned int flags),
	       TP_ARGS(tpipe, at_close, ids, flags),
	       TP_STRUCT__entry(__field(unsigned int, tpipe)
				__field(bool, at_close)
				__field(unsigned int, ids)
				__field(unsigned int, flags)),
	       TP_fast_assign(__entry->tpipe = tpipe;
			      __entry->at_close = at_close;
			      __entry->ids = ids;
			      __entry->flags = flags;),
	       TP_printk("tpipe=%u at=%s ids=%u flags=%u", __entry->tpipe,
			 __entry->at_close ? "close" : "reset", __entry->ids,
			 __entry->flags),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_deadlock,
	       TP_PROTO(unsigned int tpipe, int slot, u32 event, u32 id),
	       TP_ARGS(tpipe, slot, event, id),
	       TP_STRUCT__entry(__field(unsigned int, tpipe)
				__field(u32, id)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)
				__array(char, event, ASC_TRACE_EVENT_LEN)),
	       TP_fast_assign(__entry->tpipe = tpipe;
			      __entry->id = id;
			      ASC_TRACE_NAMES(slot, event);),
	       TP_printk("tpipe=%u pipe=%s event=%s id=%u", __entry->tpipe,
			 __entry->pipe, __entry->event, __entry->id),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_launch,
	       TP_PROTO(unsigned int launch, u32 kind, u32 block_dim),
	       TP_ARGS(launch, kind, block_dim),
	       TP_STRUCT__entry(__field(unsigned int, launch)
				__field(u32, kind)
				__field(u32, block_dim)),
	       TP_fast_assign(__entry->launch = launch;
			      __entry->kind = kind;
			      __entry->block_dim = block_dim;),
	       TP_printk("launch=%u kind=%s block_dim=%u", __entry->launch,
			 __entry->kind == ASC_EVENT_LAUNCH_AIV ? "aiv" :
			 __entry->kind == ASC_EVENT_LAUNCH_AIC ? "aic" : "mix",
			 __entry->block_dim),
	       asc_trace_reg, asc_trace_unreg
);

DECLARE_EVENT_CLASS(asc_event_core,
		    TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core),
		    TP_ARGS(tpipe, launch, core),
		    TP_STRUCT__entry(__field(unsigned int, tpipe)
				     __field(unsigned int, launch)
				     __field(u32, core)),
		    TP_fast_assign(__entry->tpipe = tpipe;
				   __entry->launch = launch;
				   __entry->core = core;),
		    TP_printk("tpipe=%u launch=%u core=%u", __entry->tpipe,
			      __entry->launch, __entry->core)
);

DEFINE_EVENT_FN(asc_event_core, asc_event_join,
		TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core),
		TP_ARGS(tpipe, launch, core),
		asc_trace_reg, asc_trace_unreg);
DEFINE_EVENT_FN(asc_event_core, asc_event_leave,
		TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core),
		TP_ARGS(tpipe, launch, core),
		asc_trace_reg, asc_trace_unreg);

TRACE_EVENT_FN(asc_event_cross_set,
	       TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core,
			int slot, u32 flag, u32 mode, int ret),
	       TP_ARGS(tpipe, launch, core, slot, flag, mode, ret),
	       TP_STRUCT__entry(__field(unsigned int, tpipe)
				__field(unsigned int, launch)
				__field(u32, core)
				__field(u32, flag)
				__field(u32, mode)
				__field(int, ret)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)),
	       TP_fast_assign(__entry->tpipe = tpipe;
			      __entry->launch = launch;
			      __entry->core = core;
			      __entry->flag = flag;
			      __entry->mode = mode;
			      __entry->ret = ret;
			      strscpy(__entry->pipe, asc_slot_name(slot),
				      ASC_TRACE_PIPE_LEN);),
	       TP_printk("tpipe=%u launch=%u core=%u pipe=%s flag=%u mode=%u ret=%d",
			 __entry->tpipe, __entry->launch, __entry->core,
			 __entry->pipe, __entry->flag, __entry->mode, __entry->ret),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_cross_wait,
	       TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core,
			int slot, u32 flag, int ret, u64 waited_ns),
	       TP_ARGS(tpipe, launch, core, slot, flag, ret, waited_ns),
	       TP_STRUCT__entry(__field(u64, waited_ns)
				__field(unsigned int, tpipe)
				__field(unsigned int, launch)
				__field(u32, core)
				__field(u32, flag)
				__field(int, ret)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)),
	       TP_fast_assign(__entry->waited_ns = waited_ns;
			      __entry->tpipe = tpipe;
			      __entry->launch = launch;
			      __entry->core = core;
			      __entry->flag = flag;
			      __entry->ret = ret;
			      strscpy(__entry->pipe, asc_slot_name(slot),
				      ASC_TRACE_PIPE_LEN);),
	       TP_printk("tpipe=%u launch=%u core=%u pipe=%s flag=%u ret=%d waited_ns=%llu",
			 __entry->tpipe, __entry->launch, __entry->core,
			 __entry->pipe, __entry->flag, __entry->ret,
			 __entry->waited_ns),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_sync_all,
	       TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core,
			int slot, bool aiv_only, int ret, u64 waited_ns),
	       TP_ARGS(tpipe, launch, core, slot, aiv_only, ret, waited_ns),
	       TP_STRUCT__entry(__field(u64, waited_ns)
				__field(unsigned int, tpipe)
				__field(unsigned int, launch)
				__field(u32, core)
				__field(int, ret)
				__field(bool, aiv_only)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)),
	       TP_fast_assign(__entry->waited_ns = waited_ns;
			      __entry->tpipe = tpipe;
			      __entry->launch = launch;
			      __entry->core = core;
			      __entry->ret = ret;
			      __entry->aiv_only = aiv_only;
			      strscpy(__entry->pipe, asc_slot_name(slot),
				      ASC_TRACE_PIPE_LEN);),
	       TP_printk("tpipe=%u launch=%u core=%u pipe=%s aiv_only=%d ret=%d waited_ns=%llu",
			 __entry->tpipe, __entry->launch, __entry->core,
			 __entry->pipe, __entry->aiv_only, __entry->ret,
			 __entry->waited_ns),
	       asc_trace_reg, asc_trace_unreg
);

TRACE_EVENT_FN(asc_event_cross_deadlock,
	       TP_PROTO(unsigned int tpipe, unsigned int launch, u32 core,
			int slot, bool sync, u32 flag),
	       TP_ARGS(tpipe, launch, core, slot, sync, flag),
	       TP_STRUCT__entry(__field(unsigned int, tpipe)
				__field(unsigned int, launch)
				__field(u32, core)
				__field(u32, flag)
				__field(bool, sync)
				__array(char, pipe, ASC_TRACE_PIPE_LEN)),
	       TP_fast_assign(__entry->tpipe = tpipe;
			      __entry->launch = launch;
			      __entry->core = core;
			      __entry->flag = flag;
			      __entry->sync = sync;
			      strscpy(__entry->pipe, asc_slot_name(slot),
				      ASC_TRACE_PIPE_LEN);),
	       TP_printk("tpipe=%u launch=%u core=%u pipe=%s wait=%s flag=%u",
			 __entry->tpipe, __entry->launch, __entry->core,
			 __entry->pipe, __entry->sync ? "sync_all" : "cross",
			 __entry->flag),
	       asc_trace_reg, asc_trace_unreg
);

#endif /* _ASC_EVENT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE asc_event_trace
#include <trace/define_trace.h>
