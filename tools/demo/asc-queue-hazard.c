// SPDX-License-Identifier: GPL-2.0
/*
 * asc-queue-hazard - the source article's warning, reproduced: a
 * hand-written event ID "easily collides with the framework's sync events
 * and hangs the program".  The framework's sync events are the queues'.
 *
 * A kernel scales x by s: MTE2 copies a tile of x into a VECIN queue's
 * buffer and EnQue()s it, which allocates the lowest free MTE2_V ID, 0,
 * and sets it; then MTE2 copies s into a TBuf, and the kernel tells V by
 * hand, set_flag(MTE2_V, 0): "nothing else uses MTE2_V yet".  V waits for
 * MTE2_V 0 (the hand-written wait), DeQue()s x (the queue's wait for the
 * same flag), multiplies, and the result goes out through a VECOUT queue.
 *
 * On the chip both sets land on one flag bit: the second is lost (the
 * first was not waited for yet) and one of the two waits hangs, or the
 * hand-written wait takes the queue's flag and V reads s before MTE2 has
 * written it.  Here, in checked mode (the default), the core runtime knows
 * the ID is the queue's and refuses the hand-written set, naming the
 * queue, its EnQue and both lines, on every run; with --unchecked the
 * missing-sync detector says what the chip would do (a possible double
 * set); with --alloc the kernel takes its ID from alloc_event_id(),
 * which gives 1, and the same program runs clean.
 */
#define _GNU_SOURCE
#include <asc.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE	256

static const char *progname = "asc-queue-hazard";

static float x[TILE], z[TILE], s = 3.0f;

/* The kernel's choice: the hand-written ID, or one from alloc_event_id(). */
static int use_alloc;

struct op {
	float *dst;
	const float *src, *scale;
};

static void copy_x(void *arg)
{
	struct op *o = arg;

	memcpy(o->dst, o->src, TILE * sizeof(float));
}

static void copy_s(void *arg)
{
	struct op *o = arg;

	*o->dst = *o->src;
}

static void muls(void *arg)
{
	struct op *o = arg;
	int i;

	for (i = 0; i < TILE; i++)
		o->dst[i] = o->src[i] * *o->scale;
}

#define ACC(t, w)	{ (t).addr, (t).size, (w), (t).name }
#define TRY(call)	do { if ((call) < 0) return; } while (0)

static void kernel(struct asc_core *core, void *arg)
{
	static struct op in_x, in_s, mul, out;
	struct asc_que *inQueueX, *outQueueZ, *scaleBuf;
	struct asc_local xLocal, zLocal, sLocal;
	int id = 0;

	(void)arg;
	inQueueX = asc_core_tque(core, ASC_POS_VECIN, 1, "inQueueX");
	outQueueZ = asc_core_tque(core, ASC_POS_VECOUT, 1, "outQueueZ");
	scaleBuf = asc_core_tbuf(core, ASC_POS_VECIN, "scaleBuf");
	if (!inQueueX || !outQueueZ || !scaleBuf)
		return;
	TRY(asc_core_init_buffer(core, inQueueX, 1, sizeof(x)));
	TRY(asc_core_init_buffer(core, outQueueZ, 1, sizeof(z)));
	TRY(asc_core_init_buffer(core, scaleBuf, 1, sizeof(float)));

	/* CopyIn: x through the queue, whose EnQue takes MTE2_V ID 0. */
	TRY(asc_core_alloc_tensor(core, inQueueX, &xLocal));
	in_x = (struct op){ xLocal.addr, x, NULL };
	{
		const struct asc_access acc[] = { ACC(xLocal, 1), { x, sizeof(x), 0, "xGm" } };

		TRY(asc_core_issue(core, ASC_PIPE_MTE2, copy_x, &in_x, "DataCopy(xLocal, xGm)",
				   acc, 2));
	}
	TRY(asc_core_enque(core, inQueueX, &xLocal));

	/* s through a TBuf, and the hand-off to V by hand. */
	TRY(asc_core_tbuf_get(core, scaleBuf, sizeof(float), &sLocal));
	in_s = (struct op){ sLocal.addr, &s, NULL };
	{
		const struct asc_access acc[] = { ACC(sLocal, 1), { &s, sizeof(s), 0, "sGm" } };

		TRY(asc_core_issue(core, ASC_PIPE_MTE2, copy_s, &in_s, "DataCopy(sLocal, sGm)",
				   acc, 2));
	}
	if (use_alloc)
		TRY(id = asc_core_alloc_event_id(core, ASC_HARD_EVENT_MTE2_V));
	TRY(asc_core_set_flag(core, ASC_HARD_EVENT_MTE2_V, id));
	TRY(asc_core_wait_flag(core, ASC_HARD_EVENT_MTE2_V, id));
	if (use_alloc)
		TRY(asc_core_release_event_id(core, id, ASC_HARD_EVENT_MTE2_V));

	/* Compute */
	TRY(asc_core_deque(core, inQueueX, &xLocal));
	TRY(asc_core_alloc_tensor(core, outQueueZ, &zLocal));
	mul = (struct op){ zLocal.addr, xLocal.addr, sLocal.addr };
	{
		const struct asc_access acc[] = { ACC(xLocal, 0), ACC(sLocal, 0), ACC(zLocal, 1) };

		TRY(asc_core_issue(core, ASC_PIPE_V, muls, &mul, "Muls(zLocal, xLocal, s)", acc, 3));
	}
	TRY(asc_core_enque(core, outQueueZ, &zLocal));
	TRY(asc_core_free_tensor(core, inQueueX, &xLocal));

	/* CopyOut */
	TRY(asc_core_deque(core, outQueueZ, &zLocal));
	out = (struct op){ z, zLocal.addr, NULL };
	{
		const struct asc_access acc[] = { ACC(zLocal, 0), { z, sizeof(z), 1, "zGm" } };

		TRY(asc_core_issue(core, ASC_PIPE_MTE3, copy_x, &out, "DataCopy(zGm, zLocal)",
				   acc, 2));
	}
	TRY(asc_core_free_tensor(core, outQueueZ, &zLocal));
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--alloc] [--unchecked] [-d DEVICE] [-h]\n"
		"A VECIN queue's EnQue takes MTE2_V ID 0; the kernel then hand-writes\n"
		"set_flag(MTE2_V, 0) for another hand-off of MTE2 to V.  On the chip one of\n"
		"the two sets is lost and a wait hangs, or V reads data MTE2 has not written.\n"
		"In checked mode the core runtime refuses the hand-written set and names the\n"
		"queue that holds the ID (EADDRINUSE), on every run.\n"
		"  --alloc, -a      the kernel's ID from alloc_event_id(): a clean run\n"
		"  --unchecked, -u  checked mode off: the detector's possible double set\n"
		"  -d DEVICE        device node (default $ASC_EVENT_DEV, else /dev/asc_event)\n"
		"  -h, --help       this help\n"
		"Exit status: 0 clean run, 1 the run was refused (the hazard), 2 bad usage,\n"
		"4 no device.\n", progname);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "alloc", no_argument, NULL, 'a' },
		{ "unchecked", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct asc_core_attr attr = { 0 };
	struct asc_pipe *probe;
	char *report = NULL;
	int opt, err, i;

	while ((opt = getopt_long(argc, argv, "aud:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			use_alloc = 1;
			break;
		case 'u':
			attr.unchecked = 1;
			break;
		case 'd':
			attr.device = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		print_usage(stderr);
		return 2;
	}
	probe = asc_pipe_open(attr.device);
	if (!probe) {
		err = errno;
		fprintf(stderr, "%s: asc_pipe_open: %s\n", progname, strerror(err));
		return err == ENOENT || err == ENODEV || err == ENXIO ? 4 : 1;
	}
	asc_pipe_close(probe);
	for (i = 0; i < TILE; i++)
		x[i] = (float)(i % 13) - 6.0f;

	printf("%s: %s mode; the kernel's MTE2_V ID: %s\n", progname,
	       attr.unchecked ? "unchecked" : "checked",
	       use_alloc ? "alloc_event_id()" : "0, hand-written");
	printf("MTE2  DataCopy(xLocal, xGm); inQueueX.EnQue(xLocal): alloc MTE2_V -> 0, set_flag(MTE2_V, 0)\n");
	printf("MTE2  DataCopy(sLocal, sGm); set_flag(MTE2_V, %s)\n", use_alloc ? "1" : "0");
	printf("V     wait_flag(MTE2_V, %s); inQueueX.DeQue(): wait_flag(MTE2_V, 0); Muls\n",
	       use_alloc ? "1" : "0");
	if (asc_core_run(kernel, NULL, &attr, &report) < 0) {
		err = errno;
		printf("%s: the run failed: %s (%s)\n", progname, strerror(err),
		       strerrorname_np(err) ? strerrorname_np(err) : "?");
		fputs(report ? report : "(no report)\n", stdout);
		free(report);
		return 1;
	}
	for (i = 0; i < TILE; i++) {
		if (z[i] != x[i] * s) {
			printf("%s: z[%d] = %g, expected %g\n", progname, i, z[i], x[i] * s);
			return 1;
		}
	}
	printf("%s: clean run, z = x * s verified\n", progname);
	return 0;
}
