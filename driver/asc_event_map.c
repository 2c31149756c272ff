// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event mapped fast path: the pages mmap() of the device file maps.
 *
 * A TPipe's flag registers live in a small block of their own until the
 * first mmap() of any of its pages; that mmap() moves them into a page of
 * their own (struct asc_event_map_flags), which userspace then maps
 * read-write and changes with atomic compare-and-swap, as the driver does
 * from then on.  A second page (struct asc_event_map_state), read-only,
 * mirrors what a set or wait in userspace must know to be sure the ioctl
 * would succeed with nothing beyond the flag: the mode, the pool, the
 * last fetched IDs and the pipe bindings, written under the TPipe's lock
 * on every change.  The pool itself moves into the flag page too, where
 * userspace allocates and releases IDs by compare-and-swap as the driver
 * does; the state page says whether instructions were ever issued, which
 * an alloc in userspace must leave to the ioctl's collision check.  A
 * third page, the module's (struct asc_event_map_module), one for every
 * TPipe, counts the enabled tracepoints: while any is, userspace takes the
 * ioctls, so that the trace sees every set, wait, alloc and release.
 *
 * Nothing userspace writes to the flag page is trusted: the driver masks
 * every word it reads to the TPipe's IDs, indexes nothing with what it
 * reads, and lets a process that scribbles there harm its own TPipe only.
 * The pages are the TPipe's, with a reference each; every mapping holds
 * another (vm_insert_page()), and also the file, so the TPipe outlives its
 * mappings and the pages are freed with it.
 */

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>

#include "asc_event_hw.h"
#include "asc_event_tpipe.h"
#include "asc_event_trace.h"

static struct asc_event_map_module *asc_map_module;
static unsigned int asc_trace_enabled;
static DEFINE_MUTEX(asc_map_lock);	/* asc_trace_enabled, the page's copy */

static_assert(offsetof(struct asc_event_map_flags, flags) == 0 &&
	      sizeof_field(struct asc_event_map_flags, flags) ==
	      sizeof(struct asc_hw_core));
static_assert(sizeof(struct asc_event_map_flags) <= PAGE_SIZE);
static_assert(sizeof_field(struct asc_event_map_flags, ids) ==
	      sizeof_field(struct asc_tpipe, pool));
static_assert(sizeof(struct asc_event_map_state) <= PAGE_SIZE);

static void asc_vm_flags_mod(struct vm_area_struct *vma, vm_flags_t set,
			     vm_flags_t clear)
{
#ifdef ASC_HAVE_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/**
 * asc_map_init() - allocate the module's page.
 *
 * Return: 0, or -%ENOMEM.
 */
int asc_map_init(void)
{
	struct asc_event_map_module *page;

	page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	mutex_lock(&asc_map_lock);
	WRITE_ONCE(page->tracing, asc_trace_enabled);
	asc_map_module = page;
	mutex_unlock(&asc_map_lock);
	return 0;
}

/** asc_map_exit() - free the module's page; nothing maps it any more. */
void asc_map_exit(void)
{
	mutex_lock(&asc_map_lock);
	free_page((unsigned long)asc_map_module);
	asc_map_module = NULL;
	mutex_unlock(&asc_map_lock);
}

static void asc_trace_count(int delta)
{
	mutex_lock(&asc_map_lock);
	asc_trace_enabled += delta;
	if (asc_map_module)
		WRITE_ONCE(asc_map_module->tracing, asc_trace_enabled);
	mutex_unlock(&asc_map_lock);
}

/**
 * asc_trace_reg() - a tracepoint of the module is being enabled.
 *
 * Return: 0.
 */
int asc_trace_reg(void)
{
	asc_trace_count(1);
	return 0;
}

/** asc_trace_unreg() - a tracepoint of the module has been disabled. */
void asc_trace_unreg(void)
{
	asc_trace_count(-1);
}

/**
 * asc_tpipe_state_sync_bound() - write a TPipe's pipe bindings to its
 *	mapped state page.
 * @tp: TPipe, locked.
 *
 * A bound thread is shown with its thread ID in its own PID namespace,
 * the number gettid() gives that thread, whoever calls this.  Nothing to
 * do before the first mmap().
 */
void asc_tpipe_state_sync_bound(struct asc_tpipe *tp)
{
	struct asc_event_map_state *st = tp->state;
	struct pid *pid;
	u32 bound = 0;
	s32 pipe;
	int slot;

	lockdep_assert_held(tp->lockp);

	if (!st)
		return;
	for (slot = 0; slot < ASC_NR_PIPES; slot++) {
		pid = tp->slots[slot].pid;
		pipe = asc_pipe_of_slot(slot);
		if (pid)
			bound |= BIT(pipe);
		WRITE_ONCE(st->bound_tid[pipe],
			   pid ? pid_nr_ns(pid, ns_of_pid(pid)) : 0);
	}
	WRITE_ONCE(st->bound, bound);
}

/**
 * asc_tpipe_state_sync() - write a TPipe's state to its mapped state page.
 * @tp: TPipe, locked.
 *
 * Nothing to do before the first mmap().
 */
void asc_tpipe_state_sync(struct asc_tpipe *tp)
{
	struct asc_event_map_state *st = tp->state;
	unsigned int event;

	lockdep_assert_held(tp->lockp);

	if (!st)
		return;
	WRITE_ONCE(st->mode, (tp->checked ? ASC_EVENT_MODE_CHECKED : 0) |
			     (tp->strict_ids ? ASC_EVENT_MODE_STRICT_IDS : 0));
	WRITE_ONCE(st->event_ids, tp->event_ids);
	for (event = 0; event < ASC_EVENT_NR_HARD_EVENTS; event++) {
		WRITE_ONCE(st->pool[event], asc_tpipe_pool(tp, event));
		WRITE_ONCE(st->fetched[event], tp->fetched[event]);
	}
	WRITE_ONCE(st->issued, !!tp->queues);
	asc_tpipe_state_sync_bound(tp);
}

/*
 * The flags are about to move into @hw, a page userspace will see: the
 * tasks already blocked in a flag wait get their waiter bits there, so
 * that a set in userspace of a flag one of them waits for asks the driver
 * to wake it.  @tp locked; @hw not yet visible to anyone.
 */
static void asc_tpipe_mark_waiters(struct asc_tpipe *tp, struct asc_hw_core *hw)
{
	struct asc_waiter *w;

	lockdep_assert_held(tp->lockp);

	list_for_each_entry(w, &tp->waiters, node) {
		if (w->kind == ASC_WAIT_FLAG)
			hw->flags[w->event] |= ASC_EVENT_MAP_WAITER(w->id);
	}
}

/*
 * The first mmap() of a TPipe: its state page, and its flags and pool
 * moved into a page of their own, with the waiter bits of the waits
 * already blocked.  A later one finds them there.
 */
static int asc_tpipe_map_pages(struct asc_tpipe *tp)
{
	struct page *state, *flags;
	struct asc_hw_core *old = NULL;
	struct asc_event_map_flags *f;

	if (READ_ONCE(tp->state))
		return 0;
	state = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	flags = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!state || !flags) {
		if (state)
			__free_page(state);
		if (flags)
			__free_page(flags);
		return -ENOMEM;
	}

	asc_tpipe_lock(tp);
	if (!tp->state) {
		old = tp->hw;
		f = page_address(flags);
		memcpy(f, old, sizeof(*old));
		memcpy(f->ids, tp->pool, sizeof(f->ids));
		asc_tpipe_mark_waiters(tp, page_address(flags));
		tp->hw = page_address(flags);
		tp->mapped = true;
		tp->state = page_address(state);
		asc_tpipe_state_sync(tp);
		state = NULL;
		flags = NULL;
	}
	asc_tpipe_unlock(tp);

	asc_hw_core_free(old);
	if (state)
		__free_page(state);
	if (flags)
		__free_page(flags);
	return 0;
}

/**
 * asc_tpipe_mmap() - map one of the pages of a TPipe.
 * @tp: TPipe.
 * @vma: the mapping: one page, shared, at the offset of %ASC_EVENT_MAP_STATE,
 *	%ASC_EVENT_MAP_FLAGS or %ASC_EVENT_MAP_MODULE pages; writable only
 *	for the flags.
 *
 * Return: 0, -%EINVAL for another length or offset or a private mapping,
 * -%EACCES for a writable state or module page or an executable page,
 * -%EOPNOTSUPP when the TPipe has more than %ASC_EVENT_MAP_IDS_MAX IDs,
 * -%ENOMEM.
 */
int asc_tpipe_mmap(struct asc_tpipe *tp, struct vm_area_struct *vma)
{
	unsigned long pgoff = vma->vm_pgoff;
	struct page *page;
	int ret;

	if (vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    pgoff > ASC_EVENT_MAP_MODULE || !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if ((vma->vm_flags & VM_EXEC) ||
	    (pgoff != ASC_EVENT_MAP_FLAGS && (vma->vm_flags & VM_WRITE)))
		return -EACCES;
	if (tp->event_ids > ASC_EVENT_MAP_IDS_MAX)
		return -EOPNOTSUPP;

	if (pgoff == ASC_EVENT_MAP_MODULE) {
		page = virt_to_page(asc_map_module);
	} else {
		ret = asc_tpipe_map_pages(tp);
		if (ret)
			return ret;
		asc_tpipe_lock(tp);
		page = virt_to_page(pgoff == ASC_EVENT_MAP_FLAGS ?
				    (void *)tp->hw : (void *)tp->state);
		asc_tpipe_unlock(tp);
	}
	asc_vm_flags_mod(vma, VM_DONTEXPAND,
			 VM_MAYEXEC | (pgoff == ASC_EVENT_MAP_FLAGS ? 0 : VM_MAYWRITE));
	return vm_insert_page(vma, vma->vm_start, page);
}

/**
 * asc_tpipe_fast_ops() - the sets and waits userspace says it did on a
 *	TPipe's mapped flags.
 * @tp: TPipe, locked or being destroyed.
 *
 * Return: the count in its flag page (whatever the process wrote), 0
 * before the first mmap().
 */
u64 asc_tpipe_fast_ops(struct asc_tpipe *tp)
{
	struct asc_event_map_flags *f = (void *)tp->hw;

	return tp->mapped ? READ_ONCE(f->fast_ops) : 0;
}

/**
 * asc_tpipe_unmap() - free the flags of a TPipe being destroyed.
 * @tp: TPipe, with no mapping left (each holds its file).
 *
 * Frees the block, or the TPipe's references to the pages.
 */
void asc_tpipe_unmap(struct asc_tpipe *tp)
{
	if (!tp->mapped) {
		asc_hw_core_free(tp->hw);
		return;
	}
	put_page(virt_to_page(tp->hw));
	put_page(virt_to_page(tp->state));
}
