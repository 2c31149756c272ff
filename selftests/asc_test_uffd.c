// SPDX-License-Identifier: GPL-2.0
/*
 * Holding up the driver's user copies with userfaultfd: see asc_test_uffd.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "asc_test_uffd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#include "asc_test_device.h"

int asc_stall_init(struct asc_stall *st, enum asc_stall_kind kind,
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

bool asc_stall_hit(struct asc_stall *st)
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

int asc_stall_release(struct asc_stall *st)
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

int asc_stall_fail(struct asc_stall *st)
{
	struct uffdio_range range = { .start = (unsigned long)st->page, .len = st->size };

	if (mprotect(st->page, st->size, PROT_READ))
		return -errno;
	return ioctl(st->uffd, UFFDIO_WAKE, &range) ? -errno : 0;
}

void asc_stall_fini(struct asc_stall *st)
{
	if (st->page)
		munmap(st->page, st->size);
	if (st->uffd > 0)
		close(st->uffd);
	free(st->content);
	memset(st, 0, sizeof(*st));
	st->uffd = -1;
}

void *asc_stalled_call_fn(void *p)
{
	struct asc_stalled_call *c = p;

	c->ret = asc_ioctl(c->fd, c->cmd, c->arg);
	return NULL;
}

int asc_stalled_call_start(struct asc_stalled_call *c, struct asc_stall *st,
			   int fd, unsigned long cmd)
{
	*c = (struct asc_stalled_call){ .fd = fd, .cmd = cmd, .arg = st->page };
	return -pthread_create(&c->thread, NULL, asc_stalled_call_fn, c);
}

int asc_stalled_call_end(struct asc_stalled_call *c)
{
	pthread_join(c->thread, NULL);
	return c->ret;
}

void *asc_cold_page(int *memfd, const void *data, size_t size, int prot)
{
	long page = sysconf(_SC_PAGESIZE);

	*memfd = syscall(SYS_memfd_create, "asc-cold", 0);
	if (*memfd < 0)
		return MAP_FAILED;
	if (ftruncate(*memfd, page) || pwrite(*memfd, data, size, 0) != (ssize_t)size) {
		close(*memfd);
		*memfd = -1;
		return MAP_FAILED;
	}
	return mmap(NULL, page, prot, MAP_SHARED, *memfd, 0);
}
