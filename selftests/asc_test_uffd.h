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
 *
 * A cold page (asc_cold_page()) is a page of a memfd the test has never
 * touched: nothing stops, but the kernel's first access to it faults.
 */
#ifndef ASC_TEST_UFFD_H
#define ASC_TEST_UFFD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/** ASC_STALL_MS - how long a stopped copy is waited for. */
#define ASC_STALL_MS	5000

/* Which access of a stall page stops. */
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
int asc_stall_init(struct asc_stall *st, enum asc_stall_kind kind,
		   const void *init, size_t len);

/**
 * asc_stall_hit() - wait until an access of the page has stopped.
 * @st: the stall page.
 *
 * Return: true when an access of @st's kind stopped within %ASC_STALL_MS.
 */
bool asc_stall_hit(struct asc_stall *st);

/**
 * asc_stall_release() - let the stopped access go on, and succeed.
 * @st: the stall page.
 *
 * A READ page is filled with its content, a WRITE page unprotected.
 *
 * Return: 0 or -errno.
 */
int asc_stall_release(struct asc_stall *st);

/**
 * asc_stall_fail() - let the stopped write go on and fail: the page turns
 *	read-only first.
 * @st: a WRITE stall page.
 *
 * Return: 0 or -errno.
 */
int asc_stall_fail(struct asc_stall *st);

/**
 * asc_stall_fini() - undo asc_stall_init(); a no-op on a zeroed struct.
 * @st: the stall page.
 */
void asc_stall_fini(struct asc_stall *st);

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
void *asc_stalled_call_fn(void *p);

/**
 * asc_stalled_call_start() - start @cmd on @fd with its argument in @st.
 * @c: filled in.
 * @st: the stall page.
 * @fd: the device.
 * @cmd: the ioctl.
 *
 * Return: 0, or -errno when the thread cannot start.
 */
int asc_stalled_call_start(struct asc_stalled_call *c, struct asc_stall *st,
			   int fd, unsigned long cmd);

/**
 * asc_stalled_call_end() - wait for the call to return.
 * @c: a started call.
 *
 * Return: its result.
 */
int asc_stalled_call_end(struct asc_stalled_call *c);

/**
 * asc_cold_page() - a page this process has never touched, holding @data.
 * @memfd: out: the memfd whose page it is; pread() shows what the kernel
 *	wrote there.
 * @data: the bytes at its start.
 * @size: how many.
 * @prot: the mapping's protection, PROT_READ to refuse the kernel's writes.
 *
 * The kernel's first access to the page faults it in, with the ioctl's
 * locks held or not: what a user copy under a lock must not wait for.
 * Unmap it (one page) and close @memfd after use.
 *
 * Return: the mapping, or MAP_FAILED.
 */
void *asc_cold_page(int *memfd, const void *data, size_t size, int prot);

#endif /* ASC_TEST_UFFD_H */
