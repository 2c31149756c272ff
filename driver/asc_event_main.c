// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event: emulated Ascend AI-core event flags as a misc device.
 *
 * Each open of /dev/asc_event creates one TPipe (asc_event_tpipe.c) with
 * its own emulated register block (asc_event_hw.c); closing the file
 * destroys it.  The TPipes that run the cores of one multi-core launch join a
 * launch (asc_event_launch.c), a file of its own.  This file is the uAPI
 * side: the module parameter, the device node and the ioctl handlers, each
 * shaped copy_from_user -> validate -> call into the TPipe.  A TPipe
 * operation with a result writes it to userspace itself, under its lock
 * and without faulting, in the same step as the change it reports; when
 * the user page is not there it changes nothing and fails with -EFAULT,
 * and the handler faults the page in and runs the operation again
 * (asc_retry_faulted()).  ALLOC_ID and FETCH_ID first try to read their
 * reference and write the ID in one user access, under the lock
 * (asc_tpipe_id_one_access()), and take that general way when they cannot.
 * Every ioctl's result is counted (asc_event_stats.c); every open TPipe is
 * in the debugfs file (asc_event_debugfs.c).  mmap() maps a TPipe's flags
 * and state (asc_event_map.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/fault-inject-usercopy.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/asc_event.h>

#include "asc_event_debugfs.h"
#include "asc_event_launch.h"
#include "asc_event_report.h"
#include "asc_event_stats.h"
#include "asc_event_tpipe.h"

static unsigned int event_ids = 8;
static bool checked = true;
static bool strict_ids;

static int event_ids_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || n < 1 || n > ASC_EVENT_IDS_MAX) {
		pr_err("event_ids=%s rejected: IDs per HardEvent must be 1..%u\n",
		       val, ASC_EVENT_IDS_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops event_ids_param_ops = {
	.set = event_ids_param_set,
	.get = param_get_uint,
};

module_param_cb(event_ids, &event_ids_param_ops, &event_ids, 0644);
MODULE_PARM_DESC(event_ids,
		 "IDs per HardEvent of every TPipe, 1..64 (default 8; 4 emulates the older training chips)");

module_param(checked, bool, 0644);
MODULE_PARM_DESC(checked,
		 "New TPipes start in checked mode: pipe roles, ID collisions, deadlock detection (default Y)");

module_param(strict_ids, bool, 0644);
MODULE_PARM_DESC(strict_ids,
		 "New checked TPipes refuse hand-written IDs, as pyasc's rule (default N: legal, as in Ascend C)");

static int asc_event_open(struct inode *inode, struct file *file)
{
	struct asc_tpipe *tp;
	u32 mode = 0;

	if (READ_ONCE(checked))
		mode = ASC_EVENT_MODE_CHECKED |
		       (READ_ONCE(strict_ids) ? ASC_EVENT_MODE_STRICT_IDS : 0);
	tp = asc_tpipe_create(READ_ONCE(event_ids), mode);
	if (!tp)
		return -ENOMEM;
	asc_debugfs_add(tp);
	asc_stat_add(ASC_STAT_TPIPES_OPEN, 1);
	asc_stat_add(ASC_STAT_TPIPES_CREATED, 1);
	file->private_data = tp;
	return nonseekable_open(inode, file);
}

static int asc_event_release(struct inode *inode, struct file *file)
{
	struct asc_tpipe *tp = file->private_data;

	asc_debugfs_remove(tp);
	asc_tpipe_destroy(tp);
	asc_stat_add(ASC_STAT_TPIPES_OPEN, -1);
	return 0;
}

static int asc_ioc_info(struct asc_tpipe *tp, void __user *argp)
{
	struct asc_event_info info = {
		.abi_version = ASC_EVENT_ABI_VERSION,
		.nr_events = ASC_EVENT_NR_HARD_EVENTS,
		.event_ids = tp->event_ids,
		.pad = 0,
		.features = ASC_EVENT_FEATURE_CHECKED | ASC_EVENT_FEATURE_ISSUE |
			    ASC_EVENT_FEATURE_LAUNCH | ASC_EVENT_FEATURE_MAP |
			    ASC_EVENT_FEATURE_SYNC_AIV | ASC_EVENT_FEATURE_MAP_BOUND |
			    ASC_EVENT_FEATURE_MAP_IDS,
	};

	if (copy_to_user(argp, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/*
 * A reference from userspace, read field by field in one user access
 * window as asc_issue_from_user() reads ISSUE's arguments: RELEASE_ID,
 * SET_FLAG and the way ALLOC_ID and FETCH_ID take when their reference is
 * not in memory.  Inline, so that a RELEASE_ID makes no call to read it.
 */
static __always_inline int asc_ref_from_user(struct asc_event_ref *ref,
					     const struct asc_event_ref __user *uref)
{
	if (should_fail_usercopy() || !user_access_begin(uref, sizeof(*uref)))
		return -EFAULT;
	unsafe_get_user(ref->event, &uref->event, fault);
	unsafe_get_user(ref->id, &uref->id, fault);
	unsafe_get_user(ref->flags, &uref->flags, fault);
	unsafe_get_user(ref->pad, &uref->pad, fault);
	user_access_end();
	if (ref->flags || ref->pad)
		return -EINVAL;
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/*
 * An operation failed with -EFAULT because a user page it writes to was not
 * there: bring the page in (without writing to it) and say whether to run
 * the operation again.  A bad address stays -EFAULT.
 */
static bool asc_retry_faulted(int ret, void __user *uptr, size_t size)
{
	return ret == -EFAULT && !fault_in_safe_writeable(uptr, size);
}

/*
 * ALLOC_ID (@take) and FETCH_ID that asc_tpipe_id_one_access() could not
 * do, their reference not in memory: the reference read again, and the ID
 * written with page faults allowed.
 */
static noinline int asc_ioc_id_faulting(struct asc_tpipe *tp,
					struct asc_event_ref __user *uref,
					bool take)
{
	struct asc_event_ref ref;
	int ret;

	ret = asc_ref_from_user(&ref, uref);
	if (ret)
		return ret;
	do {
		ret = take ? asc_tpipe_alloc_id(tp, ref.event, &uref->id) :
			     asc_tpipe_fetch_id(tp, ref.event, &uref->id);
	} while (asc_retry_faulted(ret, &uref->id, sizeof(uref->id)));
	return ret;
}

/*
 * ALLOC_ID (@take) and FETCH_ID: in one user access when it can be done so.
 * Inline, and the other way out of line, so that the call of the driver
 * that hands out the ID is the only call on the way.
 */
static __always_inline int asc_ioc_alloc_or_fetch(struct asc_tpipe *tp,
						  struct asc_event_ref __user *uref,
						  bool take)
{
	int ret;

	ret = asc_tpipe_id_one_access(tp, uref, take);
	if (likely(ret != -EAGAIN))
		return ret;
	return asc_ioc_id_faulting(tp, uref, take);
}

static int asc_ioc_release_id(struct asc_tpipe *tp,
			      const struct asc_event_ref __user *uref)
{
	struct asc_event_ref ref;
	int ret;

	ret = asc_ref_from_user(&ref, uref);
	if (ret)
		return ret;
	return asc_tpipe_release_id(tp, ref.event, ref.id);
}

static int asc_ioc_set_flag(struct asc_tpipe *tp,
			    const struct asc_event_ref __user *uref)
{
	struct asc_event_ref ref;
	int ret;

	ret = asc_ref_from_user(&ref, uref);
	if (ret)
		return ret;
	return asc_tpipe_set_flag(tp, ref.event, ref.id);
}

static int asc_ioc_wait_flag(struct asc_tpipe *tp,
			     const struct asc_event_wait __user *uwait)
{
	struct asc_event_wait args;

	/* Field by field, as asc_ref_from_user(). */
	if (should_fail_usercopy() || !user_access_begin(uwait, sizeof(*uwait)))
		return -EFAULT;
	unsafe_get_user(args.deadline, &uwait->deadline, fault);
	unsafe_get_user(args.event, &uwait->event, fault);
	unsafe_get_user(args.id, &uwait->id, fault);
	unsafe_get_user(args.flags, &uwait->flags, fault);
	unsafe_get_user(args.pad, &uwait->pad, fault);
	user_access_end();
	if (args.flags || args.pad)
		return -EINVAL;
	return asc_tpipe_wait_flag(tp, args.event, args.id, args.deadline);
fault:
	user_access_end();
	return -EFAULT;
}

static int asc_ioc_reset(struct asc_tpipe *tp, struct asc_event_reset __user *ureset)
{
	struct asc_event_reset args;
	int ret;

	if (copy_from_user(&args, ureset, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;
	do {
		ret = asc_tpipe_reset(tp, &args, ureset);
	} while (asc_retry_faulted(ret, ureset, sizeof(*ureset)));
	return ret;
}

static int asc_ioc_bind_pipe(struct asc_tpipe *tp,
			     const struct asc_event_bind __user *ubind)
{
	struct asc_event_bind args;

	if (copy_from_user(&args, ubind, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	return asc_tpipe_bind(tp, args.pipe);
}

static int asc_ioc_get_mode(struct asc_tpipe *tp, struct asc_event_mode __user *umode)
{
	struct asc_event_mode args = {
		.mode = asc_tpipe_mode(tp),
		.pad = 0,
	};

	if (copy_to_user(umode, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

static int asc_ioc_set_mode(struct asc_tpipe *tp,
			    const struct asc_event_mode __user *umode)
{
	struct asc_event_mode args;

	if (copy_from_user(&args, umode, sizeof(args)))
		return -EFAULT;
	if ((args.mode & ~(ASC_EVENT_MODE_CHECKED | ASC_EVENT_MODE_STRICT_IDS)) ||
	    args.mode == ASC_EVENT_MODE_STRICT_IDS || args.pad)
		return -EINVAL;
	return asc_tpipe_set_mode(tp, args.mode);
}

/*
 * The arguments of ISSUE, read field by field in one user access window:
 * copy_from_user() of a small struct is a string copy on x86, which costs
 * an emulator more than the loads, and the core runtime makes an ISSUE
 * and an EXECUTE per instruction.  The whole struct is read, the ticket
 * too, so that an argument running into an unreadable page is -EFAULT as
 * with the copy.  An injected user copy fault fails it as it fails
 * copy_from_user().
 */
static int asc_issue_from_user(struct asc_event_issue *args,
			       const struct asc_event_issue __user *uissue)
{
	if (should_fail_usercopy() || !user_access_begin(uissue, sizeof(*uissue)))
		return -EFAULT;
	unsafe_get_user(args->op, &uissue->op, fault);
	unsafe_get_user(args->event, &uissue->event, fault);
	unsafe_get_user(args->id, &uissue->id, fault);
	unsafe_get_user(args->flags, &uissue->flags, fault);
	unsafe_get_user(args->ticket, &uissue->ticket, fault);
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/* The arguments of EXECUTE, as asc_issue_from_user() reads ISSUE's. */
static int asc_execute_from_user(struct asc_event_execute *args,
				 const struct asc_event_execute __user *uexec)
{
	if (should_fail_usercopy() || !user_access_begin(uexec, sizeof(*uexec)))
		return -EFAULT;
	unsafe_get_user(args->ticket, &uexec->ticket, fault);
	unsafe_get_user(args->deadline, &uexec->deadline, fault);
	unsafe_get_user(args->flags, &uexec->flags, fault);
	unsafe_get_user(args->pad, &uexec->pad, fault);
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

static int asc_ioc_issue(struct asc_tpipe *tp, struct asc_event_issue __user *uissue)
{
	struct asc_pipe_queue *spare = NULL;
	struct asc_event_issue args;
	int ret;

	if (asc_issue_from_user(&args, uissue))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	if (!READ_ONCE(tp->queues)) {
		spare = kcalloc(ASC_NR_PIPES, sizeof(*spare), GFP_KERNEL_ACCOUNT);
		if (!spare)
			return -ENOMEM;
	}
	do {
		ret = asc_tpipe_issue(tp, &args, &uissue->ticket, spare);
	} while (asc_retry_faulted(ret, &uissue->ticket, sizeof(uissue->ticket)));
	if (READ_ONCE(tp->queues) != spare)
		kfree(spare);
	return ret;
}

static int asc_ioc_execute(struct asc_tpipe *tp,
			   const struct asc_event_execute __user *uexec)
{
	struct asc_event_execute args;

	if (asc_execute_from_user(&args, uexec))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;
	return asc_tpipe_execute(tp, args.ticket, args.deadline);
}

static int asc_ioc_launch(struct asc_event_launch __user *ulaunch)
{
	struct asc_event_launch args;

	if (copy_from_user(&args, ulaunch, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	return asc_launch_create(args.kind, args.block_dim, &ulaunch->fd);
}

static int asc_ioc_join(struct asc_tpipe *tp,
			const struct asc_event_join __user *ujoin)
{
	struct asc_event_join args;

	if (copy_from_user(&args, ujoin, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;
	return asc_tpipe_join(tp, args.launch_fd, args.core);
}

static int asc_ioc_core_info(struct asc_tpipe *tp,
			     struct asc_event_core_info __user *uinfo)
{
	struct asc_event_core_info info;
	int ret;

	ret = asc_tpipe_core_info(tp, &info);
	if (!ret && copy_to_user(uinfo, &info, sizeof(info)))
		ret = -EFAULT;
	return ret;
}

static int asc_ioc_cross_set(struct asc_tpipe *tp,
			     const struct asc_event_cross_set __user *uset)
{
	struct asc_event_cross_set args;

	if (copy_from_user(&args, uset, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	return asc_tpipe_cross_set(tp, &args);
}

static int asc_ioc_cross_wait(struct asc_tpipe *tp,
			      const struct asc_event_cross_wait __user *uwait)
{
	struct asc_event_cross_wait args;

	if (copy_from_user(&args, uwait, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	return asc_tpipe_cross_wait(tp, args.flag_id, args.deadline);
}

static int asc_ioc_sync_all(struct asc_tpipe *tp,
			    const struct asc_event_sync_all __user *usync)
{
	struct asc_event_sync_all args;

	if (copy_from_user(&args, usync, sizeof(args)))
		return -EFAULT;
	if ((args.flags & ~ASC_EVENT_SYNC_ALL_AIV_ONLY) || args.pad)
		return -EINVAL;
	return asc_tpipe_sync_all(tp, args.flags, args.deadline);
}

static long asc_event_dispatch(struct asc_tpipe *tp, unsigned int cmd,
			       void __user *argp)
{
	switch (cmd) {
	case ASC_EVENT_IOC_INFO:
		return asc_ioc_info(tp, argp);
	case ASC_EVENT_IOC_ALLOC_ID:
		return asc_ioc_alloc_or_fetch(tp, argp, true);
	case ASC_EVENT_IOC_FETCH_ID:
		return asc_ioc_alloc_or_fetch(tp, argp, false);
	case ASC_EVENT_IOC_RELEASE_ID:
		return asc_ioc_release_id(tp, argp);
	case ASC_EVENT_IOC_SET_FLAG:
		return asc_ioc_set_flag(tp, argp);
	case ASC_EVENT_IOC_WAIT_FLAG:
		return asc_ioc_wait_flag(tp, argp);
	case ASC_EVENT_IOC_RESET:
		return asc_ioc_reset(tp, argp);
	case ASC_EVENT_IOC_BIND_PIPE:
		return asc_ioc_bind_pipe(tp, argp);
	case ASC_EVENT_IOC_GET_MODE:
		return asc_ioc_get_mode(tp, argp);
	case ASC_EVENT_IOC_SET_MODE:
		return asc_ioc_set_mode(tp, argp);
	case ASC_EVENT_IOC_ISSUE:
		return asc_ioc_issue(tp, argp);
	case ASC_EVENT_IOC_EXECUTE:
		return asc_ioc_execute(tp, argp);
	case ASC_EVENT_IOC_LAUNCH:
		return asc_ioc_launch(argp);
	case ASC_EVENT_IOC_JOIN:
		return asc_ioc_join(tp, argp);
	case ASC_EVENT_IOC_CORE_INFO:
		return asc_ioc_core_info(tp, argp);
	case ASC_EVENT_IOC_CROSS_SET:
		return asc_ioc_cross_set(tp, argp);
	case ASC_EVENT_IOC_CROSS_WAIT:
		return asc_ioc_cross_wait(tp, argp);
	case ASC_EVENT_IOC_SYNC_ALL:
		return asc_ioc_sync_all(tp, argp);
	default:
		return -ENOTTY;
	}
}

static int asc_event_mmap(struct file *file, struct vm_area_struct *vma)
{
	return asc_tpipe_mmap(file->private_data, vma);
}

static long asc_event_ioctl(struct file *file, unsigned int cmd,
			    unsigned long parm)
{
	long ret;

	ret = asc_event_dispatch(file->private_data, cmd, (void __user *)parm);
	asc_stats_account_ioctl(cmd, ret);
	return ret;
}

static const struct file_operations asc_event_fops = {
	.owner = THIS_MODULE,
	.open = asc_event_open,
	.release = asc_event_release,
	.unlocked_ioctl = asc_event_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = asc_event_mmap,
};

static const struct attribute_group *asc_event_groups[] = {
	&asc_stats_group,
	NULL
};

static struct miscdevice asc_event_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "asc_event",
	.fops = &asc_event_fops,
	.groups = asc_event_groups,
	.mode = 0600,
};

static int __init asc_event_init(void)
{
	int ret;

	ret = asc_tpipe_cache_init();
	if (ret)
		return ret;
	ret = asc_map_init();
	if (ret) {
		asc_tpipe_cache_exit();
		return ret;
	}
	asc_debugfs_init();
	ret = misc_register(&asc_event_misc);
	if (ret) {
		asc_debugfs_exit();
		asc_map_exit();
		asc_tpipe_cache_exit();
	}
	return ret;
}
module_init(asc_event_init);

static void __exit asc_event_exit(void)
{
	misc_deregister(&asc_event_misc);
	asc_report_quotas_exit();
	asc_debugfs_exit();
	asc_map_exit();
	asc_tpipe_cache_exit();
}
module_exit(asc_event_exit);

MODULE_AUTHOR("asc-event developers");
MODULE_DESCRIPTION("Emulated Ascend AI-core event flags (HardEvent set/wait)");
MODULE_LICENSE("GPL");
