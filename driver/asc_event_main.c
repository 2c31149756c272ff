// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event: emulated Ascend AI-core event flags as a misc device.
 *
 * Each open of /dev/asc_event creates one TPipe (asc_event_tpipe.c) on its
 * own emulated register block (asc_event_hw.c); closing the file destroys
 * it.  This file is the uAPI side: the module parameter, the device node
 * and the ioctl handlers, each shaped copy_from_user -> validate -> call
 * into the TPipe -> copy_to_user.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>
#include <linux/asc_event.h>

#include "asc_event_tpipe.h"

static unsigned int event_ids = 8;

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

static int asc_event_open(struct inode *inode, struct file *file)
{
	struct asc_tpipe *tp;

	tp = asc_tpipe_create(READ_ONCE(event_ids));
	if (!tp)
		return -ENOMEM;
	file->private_data = tp;
	return nonseekable_open(inode, file);
}

static int asc_event_release(struct inode *inode, struct file *file)
{
	asc_tpipe_destroy(file->private_data);
	return 0;
}

static int asc_ioc_info(struct asc_tpipe *tp, void __user *argp)
{
	struct asc_event_info info = {
		.abi_version = ASC_EVENT_ABI_VERSION,
		.nr_events = ASC_HARD_EVENT_COUNT,
		.event_ids = tp->event_ids,
		.pad = 0,
		.features = 0,
	};

	if (copy_to_user(argp, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static int asc_ref_from_user(struct asc_event_ref *ref,
			     const struct asc_event_ref __user *uref)
{
	if (copy_from_user(ref, uref, sizeof(*ref)))
		return -EFAULT;
	if (ref->flags || ref->pad)
		return -EINVAL;
	return 0;
}

static int asc_ioc_alloc_id(struct asc_tpipe *tp, struct asc_event_ref __user *uref)
{
	struct asc_event_ref ref;
	int ret;

	ret = asc_ref_from_user(&ref, uref);
	if (ret)
		return ret;
	ret = asc_tpipe_alloc_id(tp, ref.event, &ref.id);
	if (ret)
		return ret;
	if (put_user(ref.id, &uref->id)) {
		/* The caller never learns the ID: do not leave it taken. */
		asc_tpipe_release_id(tp, ref.event, ref.id);
		return -EFAULT;
	}
	return 0;
}

static int asc_ioc_fetch_id(struct asc_tpipe *tp, struct asc_event_ref __user *uref)
{
	struct asc_event_ref ref;
	int ret;

	ret = asc_ref_from_user(&ref, uref);
	if (ret)
		return ret;
	ret = asc_tpipe_fetch_id(tp, ref.event, &ref.id);
	if (ret)
		return ret;
	return put_user(ref.id, &uref->id) ? -EFAULT : 0;
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

	if (copy_from_user(&args, uwait, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;
	return asc_tpipe_wait_flag(tp, args.event, args.id, args.deadline);
}

static int asc_ioc_reset(struct asc_tpipe *tp, struct asc_event_reset __user *ureset)
{
	struct asc_tpipe_leftovers left;
	struct asc_event_reset args;

	if (copy_from_user(&args, ureset, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return -EINVAL;

	asc_tpipe_reset(tp, &left);
	args.ids_held = left.ids_held;
	args.flags_pending = left.flags_pending;
	if (copy_to_user(ureset, &args, sizeof(args)))
		return -EFAULT;
	return 0;
}

static long asc_event_ioctl(struct file *file, unsigned int cmd,
			    unsigned long parm)
{
	struct asc_tpipe *tp = file->private_data;
	void __user *argp = (void __user *)parm;

	switch (cmd) {
	case ASC_EVENT_IOC_INFO:
		return asc_ioc_info(tp, argp);
	case ASC_EVENT_IOC_ALLOC_ID:
		return asc_ioc_alloc_id(tp, argp);
	case ASC_EVENT_IOC_FETCH_ID:
		return asc_ioc_fetch_id(tp, argp);
	case ASC_EVENT_IOC_RELEASE_ID:
		return asc_ioc_release_id(tp, argp);
	case ASC_EVENT_IOC_SET_FLAG:
		return asc_ioc_set_flag(tp, argp);
	case ASC_EVENT_IOC_WAIT_FLAG:
		return asc_ioc_wait_flag(tp, argp);
	case ASC_EVENT_IOC_RESET:
		return asc_ioc_reset(tp, argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations asc_event_fops = {
	.owner = THIS_MODULE,
	.open = asc_event_open,
	.release = asc_event_release,
	.unlocked_ioctl = asc_event_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice asc_event_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "asc_event",
	.fops = &asc_event_fops,
	.mode = 0600,
};

module_misc_device(asc_event_misc);

MODULE_AUTHOR("asc-event developers");
MODULE_DESCRIPTION("Emulated Ascend AI-core event flags (HardEvent set/wait)");
MODULE_LICENSE("GPL");
