/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Holding up the driver's user copies with userfaultfd.
 *
 * A stall page is an anonymous page watched by a userfaultfd: either
 * missing (ASC_STALL_READ: the kernel's first access to it, a read of an
 * ioctl's argument, stops until the test fills the page) or present and
 * write-protected (ASC_STALL_WRITE: the kernel's write of a result stops
 * until the test lifts the protection).  The test runs the ioctl on
 * another thread, waits for the stop with asc_stall_hit(), does what it
 * likes meanwhile, then lets the copy go on.
 */
#ifndef ASC_EVENT_UFFD_H
#define ASC_EVENT_UFFD_H

#include "asc_event_test.h"

#include <linux/userfaultfd.h>
#include <poll.h>

/* How long a stopped copy is waited for. */
#define ASC_STALL_MS	5000

enum asc_stall_kind {
	ASC_STALL_READ,
	ASC_STALL_WRITE,
};

/**
 * struct asc_stall - a page whose first read or whose writes stop.
 * @uffd: the userfaultfd watching it, or -1.
 * @page: the page.
 * @size: its size.
 * @kind: which access stops.
 * @content: what a READ stall page is filled with when released.
 */
struct asc_stall {
	int uffd;
	char *page;
	size_t size;
	enum asc_stall_kind kind;
	char *content;
};

/**
 * asc_stall_init() - make a stall page.
 * @st: filled in.
 * @kind: which access stops.
 * @init: the page's first bytes (the ioctl's argument).
 * @len: how many.
 *
 * Return: 0; a positive errno when this kernel or process cannot (the test
 * should skip); a negative errno on failure.
 */
static inline int asc_stall_init(struct asc_stall *st, enum asc_stall_kind kind,
				 const void *init, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };

	memset(st, 0, sizeof(*st));
	st->uffd = -1;
	st->kind = kind;
	st->size = (size_t)sysconf(_SC_PAGESIZE);
	st->content = calloc(1, st->size);
	if (!st->content)
		return -ENOMEM;
	memcpy(st->content, init, len);
	if (kind == ASC_STALL_WRITE)
		api.features = UFFD_FEATURE_PAGEFAULT_FLAG_WP;
	st->uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (st->uffd < 0)
		return errno;
	if (ioctl(st->uffd, UFFDIO_API, &api))
		return errno;
	if (kind == ASC_STALL_WRITE && !(api.features & UFFD_FEATURE_PAGEFAULT_FLAG_WP))
		return EOPNOTSUPP;
	st->page = mmap(NULL, st->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (st->page == MAP_FAILED) {
		st->page = NULL;
		return -errno;
	}
	if (kind == ASC_STALL_WRITE)
		memcpy(st->page, init, len);
	reg.range.start = (unsigned long)st->page;
	reg.range.len = st->size;
	reg.mode = kind == ASC_STALL_WRITE ? UFFDIO_REGISTER_MODE_WP : UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(st->uffd, UFFDIO_REGISTER, &reg))
		return errno;
	if (kind == ASC_STALL_WRITE) {
		struct uffdio_writeprotect wp = {
			.range = reg.range,
			.mode = UFFDIO_WRITEPROTECT_MODE_WP,
		};

		if (ioctl(st->uffd, UFFDIO_WRITEPROTECT, &wp))
			return -errno;
	}
	return 0;
}

/**
 * asc_stall_hit() - wait until an access of the page has stopped.
 * @st: the stall page.
 *
 * Return: true when an access of @st's kind stopped within %ASC_STALL_MS.
 */
static inline bool asc_stall_hit(struct asc_stall *st)
{
	struct pollfd pfd = { .fd = st->uffd, .events = POLLIN };
	struct uffd_msg msg;
	__u64 flags;

	if (poll(&pfd, 1, ASC_STALL_MS) != 1)
		return false;
	if (read(st->uffd, &msg, sizeof(msg)) != sizeof(msg) || msg.event != UFFD_EVENT_PAGEFAULT)
		return false;
	flags = msg.arg.pagefault.flags;
	if (st->kind == ASC_STALL_WRITE)
		return (flags & UFFD_PAGEFAULT_FLAG_WP) && (flags & UFFD_PAGEFAULT_FLAG_WRITE);
	return !(flags & UFFD_PAGEFAULT_FLAG_WP);
}

/**
 * asc_stall_release() - let the stopped access go on, and succeed.
 * @st: the stall page.
 *
 * A READ page is filled with its content, a WRITE page unprotected.
 *
 * Return: 0 or -errno.
 */
static inline int asc_stall_release(struct asc_stall *st)
{
	if (st->kind == ASC_STALL_WRITE) {
		struct uffdio_writeprotect wp = {
			.range = { .start = (unsigned long)st->page, .len = st->size },
			.mode = 0,
		};

		return ioctl(st->uffd, UFFDIO_WRITEPROTECT, &wp) ? -errno : 0;
	} else {
		struct uffdio_copy copy = {
			.dst = (unsigned long)st->page,
			.src = (unsigned long)st->content,
			.len = st->size,
		};

		return ioctl(st->uffd, UFFDIO_COPY, &copy) ? -errno : 0;
	}
}

/**
 * asc_stall_fail() - let the stopped write go on and fail: the page turns
 *	read-only first.
 * @st: a WRITE stall page.
 *
 * Return: 0 or -errno.
 */
static inline int asc_stall_fail(struct asc_stall *st)
{
	struct uffdio_range range = { .start = (unsigned long)st->page, .len = st->size };

	if (mprotect(st->page, st->size, PROT_READ))
		return -errno;
	return ioctl(st->uffd, UFFDIO_WAKE, &range) ? -errno : 0;
}

/**
 * asc_stall_fini() - undo asc_stall_init(); a no-op on a zeroed struct.
 * @st: the stall page.
 */
static inline void asc_stall_fini(struct asc_stall *st)
{
	if (st->page)
		munmap(st->page, st->size);
	if (st->uffd > 0)
		close(st->uffd);
	free(st->content);
	memset(st, 0, sizeof(*st));
	st->uffd = -1;
}

/**
 * struct asc_stalled_call - an ioctl whose argument is in a stall page,
 *	made on a thread of its own.
 * @thread: the thread.
 * @fd: the device.
 * @cmd: the ioctl.
 * @arg: its argument.
 * @ret: its result: 0 or -errno.
 */
struct asc_stalled_call {
	pthread_t thread;
	int fd;
	unsigned long cmd;
	void *arg;
	int ret;
};

/**
 * asc_stalled_call_fn() - body of an asc_stalled_call thread.
 * @p: the struct asc_stalled_call.
 *
 * Return: NULL.
 */
static inline void *asc_stalled_call_fn(void *p)
{
	struct asc_stalled_call *c = p;

	c->ret = asc_ioctl(c->fd, c->cmd, c->arg);
	return NULL;
}

/**
 * asc_stalled_call_start() - start @cmd on @fd with its argument in @st.
 * @c: filled in.
 * @st: the stall page.
 * @fd: the device.
 * @cmd: the ioctl.
 *
 * Return: 0, or -errno when the thread cannot start.
 */
static inline int asc_stalled_call_start(struct asc_stalled_call *c, struct asc_stall *st,
					 int fd, unsigned long cmd)
{
	*c = (struct asc_stalled_call){ .fd = fd, .cmd = cmd, .arg = st->page };
	return -pthread_create(&c->thread, NULL, asc_stalled_call_fn, c);
}

/**
 * asc_stalled_call_end() - wait for the call to return.
 * @c: a started call.
 *
 * Return: its result.
 */
static inline int asc_stalled_call_end(struct asc_stalled_call *c)
{
	pthread_join(c->thread, NULL);
	return c->ret;
}

#endif /* ASC_EVENT_UFFD_H */
