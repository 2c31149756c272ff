// SPDX-License-Identifier: GPL-2.0
/*
 * asc-vadd - z = x + y on an emulated Ascend AI core, written as on the
 * chip: one kernel, one instruction stream, run by libasc's core runtime.
 *
 * The kernel below is the program of the scalar unit S (the thread that
 * calls asc_core_run()).  It issues each instruction to the in-order queue
 * of its pipe: MTE2 copies a tile of x and y from "global memory" into a
 * local input buffer, V adds them into a local output buffer, MTE3 copies
 * that out into z.  Each pipe runs its queue on a thread of its own, so
 * the three pipes work in parallel, ordered only by set_flag/wait_flag on
 * the device: a set goes to the queue of its HardEvent's source pipe, a
 * wait to its destination's.  There are two input and two output buffers
 * (ping/pong: tile t uses buffer t % 2), so MTE2 can load tile t+1 while V
 * adds tile t and MTE3 stores tile t-1.  Every work item declares the
 * buffers it reads and writes; the runtime's missing-sync detector checks
 * that a set/wait pair orders every two accesses of different pipes to the
 * same buffer, and the run fails with its report if one does not.
 *
 *   MTE2_V[b]   MTE2 -> V     input buffer b holds a loaded tile
 *   V_MTE2[b]   V -> MTE2     input buffer b is free again
 *   V_MTE3      V -> MTE3     the next output tile is ready
 *   MTE3_V[b]   MTE3 -> V     output buffer b is free again
 *
 * Event IDs.  The three per-buffer directions take one ID per buffer from
 * asc_core_alloc_event_id(): both buffers of a direction can be flagged at
 * the same time (both input buffers are free at the start), so they need
 * two distinct IDs, released at the end.
 *
 * V_MTE3 uses a single ID from asc_core_fetch_event_id(), as pyasc's vadd
 * does.  A fetched ID is not reserved, and the source article warns that
 * two back-to-back set/wait pairs on one pipe with a fetched ID hang: V
 * may finish tile t+1 before MTE3 has even picked up tile t, and then sets
 * V_MTE3 a second time before MTE3's wait took the first (the detector
 * reports that as a possible double set).  So V publishes a tile (sets
 * V_MTE3) only while it holds the *other* output buffer as well, which
 * MTE3 hands back only after storing the previous tile, i.e. after its
 * wait took the previous V_MTE3.  This costs no throughput: MTE3 stores the
 * tiles in order and could not start tile t+1 before finishing tile t
 * anyway.  Nothing allocates V_MTE3, so the fetched ID stays free, which
 * is what fetch relies on.
 *
 * "Buffer free" flags start set, as in real kernels: V's queue sets V_MTE2
 * for both input buffers and MTE3's sets MTE3_V for both output buffers
 * before the tiles.  At the end the consumer of each of these flags waits
 * for the ones still pending, so every set is matched by exactly one wait;
 * the kernel releases its IDs and resets the TPipe (which the runtime does
 * only once every queue has drained, and where it checks that no flag is
 * left set).
 */
#include <asc.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VADD_DEFAULT_N		(1024 * 1024)
/*
 * 32 Ki floats: 32 tiles of the default N, and enough work per tile to
 * outweigh a flag round trip through the device in an emulated guest.
 */
#define VADD_DEFAULT_TILE	(32 * 1024)
#define VADD_MAX_N		((size_t)1 << 30)
#define VADD_NR_BUFS		2
#define VADD_ALIGN		64

#define EV_MTE2_V	ASC_HARD_EVENT_MTE2_V
#define EV_V_MTE2	ASC_HARD_EVENT_V_MTE2
#define EV_V_MTE3	ASC_HARD_EVENT_V_MTE3
#define EV_MTE3_V	ASC_HARD_EVENT_MTE3_V

static const char *progname = "asc-vadd";

/**
 * enum vadd_pipe_id - the three pipes the kernel issues work to.
 * @VADD_MTE2: copies tiles of x and y in.
 * @VADD_V: adds.
 * @VADD_MTE3: copies tiles of z out.
 * @VADD_NR_PIPES: how many there are.
 */
enum vadd_pipe_id {
	VADD_MTE2,
	VADD_V,
	VADD_MTE3,
	VADD_NR_PIPES
};

struct vadd;

/**
 * struct vadd_tile - what the work items of one tile need.
 * @va: the whole computation.
 * @t: the tile.
 * @b: its buffer, t % VADD_NR_BUFS.
 * @len: its elements (the last tile may be shorter).
 */
struct vadd_tile {
	struct vadd *va;
	size_t t;
	int b;
	size_t len;
};

/**
 * struct vadd - the computation: global memory, local buffers, event IDs.
 * @n: number of elements.
 * @tile: elements per tile.
 * @ntiles: number of tiles.
 * @x: global input x.
 * @y: global input y.
 * @z: global output z.
 * @ub: the local "unified buffer" holding the six buffers below.
 * @in_x: local input buffers, x part.
 * @in_y: local input buffers, y part.
 * @out_z: local output buffers.
 * @tiles: one per tile, the argument of its work items.
 * @in_ready: MTE2_V IDs, one per input buffer (allocated).
 * @in_free: V_MTE2 IDs, one per input buffer (allocated).
 * @out_free: MTE3_V IDs, one per output buffer (allocated).
 * @out_ready: the V_MTE3 ID (fetched).
 * @mode: the TPipe's mode, ASC_MODE_* bits.
 * @busy: per pipe, per tile, start and end of its work (CLOCK_MONOTONIC
 *	ns), 2 * ntiles entries, written only by the pipe's work items.
 */
struct vadd {
	size_t n;
	size_t tile;
	size_t ntiles;
	float *x;
	float *y;
	float *z;
	float *ub;
	float *in_x[VADD_NR_BUFS];
	float *in_y[VADD_NR_BUFS];
	float *out_z[VADD_NR_BUFS];
	struct vadd_tile *tiles;
	int in_ready[VADD_NR_BUFS];
	int in_free[VADD_NR_BUFS];
	int out_free[VADD_NR_BUFS];
	int out_ready;
	int mode;
	uint64_t *busy[VADD_NR_PIPES];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* MTE2: tile t of x and y into input buffer b. */
static void copy_in(void *arg)
{
	const struct vadd_tile *tl = arg;
	struct vadd *va = tl->va;
	uint64_t *busy = va->busy[VADD_MTE2] + 2 * tl->t;

	busy[0] = now_ns();
	memcpy(va->in_x[tl->b], va->x + tl->t * va->tile, tl->len * sizeof(float));
	memcpy(va->in_y[tl->b], va->y + tl->t * va->tile, tl->len * sizeof(float));
	busy[1] = now_ns();
}

/* V: output buffer b = input buffer b, x + y. */
static void add(void *arg)
{
	const struct vadd_tile *tl = arg;
	struct vadd *va = tl->va;
	uint64_t *busy = va->busy[VADD_V] + 2 * tl->t;
	const float *x = va->in_x[tl->b], *y = va->in_y[tl->b];
	float *z = va->out_z[tl->b];
	size_t i;

	busy[0] = now_ns();
	for (i = 0; i < tl->len; i++)
		z[i] = x[i] + y[i];
	busy[1] = now_ns();
}

/* MTE3: output buffer b into tile t of z. */
static void copy_out(void *arg)
{
	const struct vadd_tile *tl = arg;
	struct vadd *va = tl->va;
	uint64_t *busy = va->busy[VADD_MTE3] + 2 * tl->t;

	busy[0] = now_ns();
	memcpy(va->z + tl->t * va->tile, va->out_z[tl->b], tl->len * sizeof(float));
	busy[1] = now_ns();
}

/* Fail the kernel's step: the runtime has the error and its report. */
#define TRY(call) do { if ((call) < 0) return -1; } while (0)

static int issue(struct asc_core *core, int pipe, void (*fn)(void *),
		 struct vadd_tile *tl, const char *what,
		 const struct asc_access *acc, unsigned int nacc)
{
	return asc_core_issue(core, pipe, fn, tl, what, acc, nacc);
}

/* The three work items of tile @tl, with the buffers each touches. */
static int issue_copy_in(struct asc_core *core, struct vadd_tile *tl)
{
	struct vadd *va = tl->va;
	size_t bytes = tl->len * sizeof(float);
	const struct asc_access acc[] = {
		{ va->x + tl->t * va->tile, bytes, 0, "x" },
		{ va->y + tl->t * va->tile, bytes, 0, "y" },
		{ va->in_x[tl->b], bytes, 1, tl->b ? "in_x[1]" : "in_x[0]" },
		{ va->in_y[tl->b], bytes, 1, tl->b ? "in_y[1]" : "in_y[0]" },
	};

	return issue(core, ASC_PIPE_MTE2, copy_in, tl, "copy_in", acc, 4);
}

static int issue_add(struct asc_core *core, struct vadd_tile *tl)
{
	struct vadd *va = tl->va;
	size_t bytes = tl->len * sizeof(float);
	const struct asc_access acc[] = {
		{ va->in_x[tl->b], bytes, 0, tl->b ? "in_x[1]" : "in_x[0]" },
		{ va->in_y[tl->b], bytes, 0, tl->b ? "in_y[1]" : "in_y[0]" },
		{ va->out_z[tl->b], bytes, 1, tl->b ? "out_z[1]" : "out_z[0]" },
	};

	return issue(core, ASC_PIPE_V, add, tl, "add", acc, 3);
}

static int issue_copy_out(struct asc_core *core, struct vadd_tile *tl)
{
	struct vadd *va = tl->va;
	size_t bytes = tl->len * sizeof(float);
	const struct asc_access acc[] = {
		{ va->out_z[tl->b], bytes, 0, tl->b ? "out_z[1]" : "out_z[0]" },
		{ va->z + tl->t * va->tile, bytes, 1, "z" },
	};

	return issue(core, ASC_PIPE_MTE3, copy_out, tl, "copy_out", acc, 2);
}

static int take_ids(struct asc_core *core, struct vadd *va)
{
	int b;

	for (b = 0; b < VADD_NR_BUFS; b++) {
		TRY(va->in_ready[b] = asc_core_alloc_event_id(core, EV_MTE2_V));
		TRY(va->in_free[b] = asc_core_alloc_event_id(core, EV_V_MTE2));
		TRY(va->out_free[b] = asc_core_alloc_event_id(core, EV_MTE3_V));
	}
	TRY(va->out_ready = asc_core_fetch_event_id(core, EV_V_MTE3));
	return 0;
}

static int release_ids(struct asc_core *core, struct vadd *va)
{
	int b;

	for (b = VADD_NR_BUFS - 1; b >= 0; b--) {
		TRY(asc_core_release_event_id(core, va->out_free[b], EV_MTE3_V));
		TRY(asc_core_release_event_id(core, va->in_free[b], EV_V_MTE2));
		TRY(asc_core_release_event_id(core, va->in_ready[b], EV_MTE2_V));
	}
	return 0;
}

/*
 * The kernel, in program order.  own[b]: V holds output buffer b (it took
 * MTE3_V[b] and has not handed the buffer to MTE3 yet).
 */
static int vadd_run(struct asc_core *core, struct vadd *va)
{
	bool own[VADD_NR_BUFS] = { false };
	struct vadd_tile *tl;
	int b, other;
	size_t t;

	va->mode = asc_pipe_mode(asc_core_pipe(core));
	TRY(take_ids(core, va));
	for (b = 0; b < VADD_NR_BUFS; b++)
		TRY(asc_core_set_flag(core, EV_V_MTE2, va->in_free[b]));
	for (b = 0; b < VADD_NR_BUFS; b++)
		TRY(asc_core_set_flag(core, EV_MTE3_V, va->out_free[b]));

	for (t = 0; t < va->ntiles; t++) {
		tl = &va->tiles[t];
		b = tl->b;
		other = (b + 1) % VADD_NR_BUFS;

		/* MTE2: wait for a free input buffer, load, hand it to V. */
		TRY(asc_core_wait_flag(core, EV_V_MTE2, va->in_free[b]));
		TRY(issue_copy_in(core, tl));
		TRY(asc_core_set_flag(core, EV_MTE2_V, va->in_ready[b]));

		/* V: wait for the tile and a free output buffer, add. */
		TRY(asc_core_wait_flag(core, EV_MTE2_V, va->in_ready[b]));
		if (!own[b]) {
			TRY(asc_core_wait_flag(core, EV_MTE3_V, va->out_free[b]));
			own[b] = true;
		}
		TRY(issue_add(core, tl));
		TRY(asc_core_set_flag(core, EV_V_MTE2, va->in_free[b]));
		/* Hold the other output buffer too: MTE3 is done with tile t-1. */
		if (!own[other]) {
			TRY(asc_core_wait_flag(core, EV_MTE3_V, va->out_free[other]));
			own[other] = true;
		}
		TRY(asc_core_set_flag(core, EV_V_MTE3, va->out_ready));
		own[b] = false;

		/* MTE3: wait for the tile, store it, hand the buffer back. */
		TRY(asc_core_wait_flag(core, EV_V_MTE3, va->out_ready));
		TRY(issue_copy_out(core, tl));
		TRY(asc_core_set_flag(core, EV_MTE3_V, va->out_free[b]));
	}

	/* Take the "buffer free" flags still pending. */
	for (b = 0; b < VADD_NR_BUFS; b++)
		TRY(asc_core_wait_flag(core, EV_V_MTE2, va->in_free[b]));
	for (b = 0; b < VADD_NR_BUFS; b++)
		if (!own[b])
			TRY(asc_core_wait_flag(core, EV_MTE3_V, va->out_free[b]));
	TRY(release_ids(core, va));
	return asc_core_reset(core);
}

static void vadd_kernel(struct asc_core *core, void *arg)
{
	vadd_run(core, arg);
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-n N] [-t T] [-d DEVICE] [-q] [-h]\n"
		"Compute z = x + y over N floats in tiles of T floats: one kernel whose scalar\n"
		"issues the copies and adds to the MTE2, V and MTE3 pipes of an AI core (libasc's\n"
		"core runtime, a thread per pipe), double buffered and ordered only by the\n"
		"event flags of the asc_event device.\n"
		"  -n N       number of elements (default %d); suffix k or m for 2^10, 2^20\n"
		"  -t T       tile size in elements (default %d)\n"
		"  -d DEVICE  device node (default $ASC_EVENT_DEV, else /dev/asc_event)\n"
		"  -q         quiet: print only the result line\n"
		"  -h         this help\n"
		"Exit status: 0 verified, 1 error, 2 bad usage, 4 device absent.\n",
		progname, VADD_DEFAULT_N, VADD_DEFAULT_TILE);
}

static int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end == 'k' || *end == 'K') {
		v = v > VADD_MAX_N ? VADD_MAX_N + 1 : v << 10;
		end++;
	} else if (*end == 'm' || *end == 'M') {
		v = v > VADD_MAX_N ? VADD_MAX_N + 1 : v << 20;
		end++;
	}
	if (*end || v == 0 || v > VADD_MAX_N)
		return -1;
	*out = v;
	return 0;
}

static int setup_memory(struct vadd *va)
{
	size_t i, buf = (va->tile * sizeof(float) + VADD_ALIGN - 1) & ~(size_t)(VADD_ALIGN - 1);
	int b, p;

	va->x = malloc(va->n * sizeof(float));
	va->y = malloc(va->n * sizeof(float));
	va->z = malloc(va->n * sizeof(float));
	va->ub = aligned_alloc(VADD_ALIGN, 3 * VADD_NR_BUFS * buf);
	va->tiles = calloc(va->ntiles, sizeof(*va->tiles));
	for (p = 0; p < VADD_NR_PIPES; p++)
		va->busy[p] = calloc(2 * va->ntiles, sizeof(uint64_t));
	if (!va->x || !va->y || !va->z || !va->ub || !va->tiles || !va->busy[VADD_MTE2] ||
	    !va->busy[VADD_V] || !va->busy[VADD_MTE3]) {
		fprintf(stderr, "%s: out of memory for %zu elements\n", progname, va->n);
		return -1;
	}
	for (b = 0; b < VADD_NR_BUFS; b++) {
		va->in_x[b] = va->ub + (3 * b) * buf / sizeof(float);
		va->in_y[b] = va->ub + (3 * b + 1) * buf / sizeof(float);
		va->out_z[b] = va->ub + (3 * b + 2) * buf / sizeof(float);
	}
	for (i = 0; i < va->ntiles; i++) {
		size_t left = va->n - i * va->tile;

		va->tiles[i] = (struct vadd_tile){
			.va = va, .t = i, .b = i % VADD_NR_BUFS,
			.len = left < va->tile ? left : va->tile,
		};
	}
	for (i = 0; i < va->n; i++) {
		va->x[i] = (float)(i % 65521);
		va->y[i] = (float)((i * 7919) % 4099);
		va->z[i] = __builtin_nanf("");
	}
	return 0;
}

static void free_memory(struct vadd *va)
{
	int p;

	for (p = 0; p < VADD_NR_PIPES; p++)
		free(va->busy[p]);
	free(va->tiles);
	free(va->ub);
	free(va->z);
	free(va->y);
	free(va->x);
}

/* Every z[i] must be the exact integer sum: both inputs are integers below 2^24. */
static int verify(const struct vadd *va)
{
	size_t i, bad = 0, first = 0;
	float want;

	for (i = 0; i < va->n; i++) {
		want = (float)(i % 65521 + (i * 7919) % 4099);
		if (va->z[i] != want) {
			if (!bad)
				first = i;
			bad++;
		}
	}
	if (bad) {
		want = (float)(first % 65521 + (first * 7919) % 4099);
		fprintf(stderr, "%s: z wrong in %zu of %zu elements\n", progname, bad, va->n);
		fprintf(stderr, "%s: first z[%zu] = %g, expected %g (tile %zu)\n", progname,
			first, va->z[first], want, first / va->tile);
		return -1;
	}
	return 0;
}

/**
 * struct vadd_stats - how the pipes' busy intervals lay in time.
 * @span: first start to last end of any pipe's work, ns.
 * @busy: per pipe, total busy time, ns.
 * @multi: time during which at least two pipes were busy, ns.
 * @all: time during which all three pipes were busy, ns.
 */
struct vadd_stats {
	uint64_t span;
	uint64_t busy[VADD_NR_PIPES];
	uint64_t multi;
	uint64_t all;
};

/*
 * Sweep the boundaries of the three pipes in time order.  Each pipe's
 * intervals are already sorted and disjoint, so this is a three-way merge.
 */
static void compute_stats(const struct vadd *va, struct vadd_stats *s)
{
	size_t next[VADD_NR_PIPES] = { 0 }, last_idx = 2 * va->ntiles;
	uint64_t now = 0, prev = 0, first = 0;
	int p, pick, active = 0;
	bool started = false;

	memset(s, 0, sizeof(*s));
	for (p = 0; p < VADD_NR_PIPES; p++) {
		const uint64_t *b = va->busy[p];
		size_t t;

		for (t = 0; t < va->ntiles; t++)
			s->busy[p] += b[2 * t + 1] - b[2 * t];
	}
	for (;;) {
		pick = -1;
		for (p = 0; p < VADD_NR_PIPES; p++) {
			if (next[p] == last_idx)
				continue;
			if (pick < 0 || va->busy[p][next[p]] < now)
				pick = p;
			if (pick == p)
				now = va->busy[p][next[p]];
		}
		if (pick < 0)
			break;
		if (!started) {
			first = now;
			started = true;
		} else {
			if (active >= 2)
				s->multi += now - prev;
			if (active == 3)
				s->all += now - prev;
		}
		prev = now;
		active += next[pick] % 2 ? -1 : 1;
		next[pick]++;
	}
	s->span = prev - first;
}

static const char *mode_name(int mode)
{
	if (mode < 0)
		return "unknown";
	if (!(mode & ASC_MODE_CHECKED))
		return "off";
	return mode & ASC_MODE_STRICT_IDS ? "on, strict IDs" : "on";
}

static void report(const struct vadd *va, uint64_t elapsed, const char *dev, int ids)
{
	struct vadd_stats s;
	double span_ms, sum = 0;
	int p;

	compute_stats(va, &s);
	for (p = 0; p < VADD_NR_PIPES; p++)
		sum += s.busy[p];
	span_ms = s.span / 1e6;

	printf("%s: device %s, %d event IDs per HardEvent\n", progname, dev, ids);
	printf("%s: one kernel on the core runtime: the scalar issues to MTE2, V and MTE3, checked mode %s\n",
	       progname, mode_name(va->mode));
	printf("%s: IDs MTE2_V %d,%d V_MTE2 %d,%d MTE3_V %d,%d (alloc), V_MTE3 %d (fetch)\n",
	       progname, va->in_ready[0], va->in_ready[1], va->in_free[0], va->in_free[1],
	       va->out_free[0], va->out_free[1], va->out_ready);
	printf("%s: N = %zu floats, %zu tiles of %zu floats, %d buffers in and %d out\n",
	       progname, va->n, va->ntiles, va->tile, VADD_NR_BUFS, VADD_NR_BUFS);
	printf("%s: elapsed %.3f ms (%.1f MB/s of x, y and z)\n", progname, elapsed / 1e6,
	       elapsed ? 3.0 * va->n * sizeof(float) * 1e3 / elapsed : 0.0);
	printf("%s: busy MTE2 %.3f ms, V %.3f ms, MTE3 %.3f ms, span %.3f ms\n", progname,
	       s.busy[VADD_MTE2] / 1e6, s.busy[VADD_V] / 1e6, s.busy[VADD_MTE3] / 1e6, span_ms);
	printf("%s: overlap %.2f = busy sum %.3f ms / span (1.00 serial, 3.00 perfect)\n",
	       progname, s.span ? sum / s.span : 0.0, sum / 1e6);
	printf("%s: >=2 pipes busy %.1f%% of span, all 3 busy %.1f%%\n", progname,
	       s.span ? 100.0 * s.multi / s.span : 0.0, s.span ? 100.0 * s.all / s.span : 0.0);
	printf("%s: no missing sync, every flag waited for, IDs released, reset ok\n",
	       progname);
}

/* The runtime's report, one line each, after what failed. */
static void print_failure(int err, const char *text)
{
	const char *line = text, *nl;

	fprintf(stderr, "%s: asc_core_run: %s\n", progname, strerror(err));
	while (line && *line) {
		nl = strchr(line, '\n');
		fprintf(stderr, "%s: %.*s\n", progname,
			(int)(nl ? nl - line : (long)strlen(line)), line);
		line = nl ? nl + 1 : NULL;
	}
}

int main(int argc, char **argv)
{
	struct vadd va = { .n = VADD_DEFAULT_N, .tile = VADD_DEFAULT_TILE };
	struct asc_core_attr attr = { 0 };
	const char *shown;
	struct asc_pipe *probe;
	char *text = NULL;
	uint64_t elapsed;
	bool quiet = false;
	int opt, ids, ret = 1;

	while ((opt = getopt(argc, argv, "n:t:d:qh")) != -1) {
		switch (opt) {
		case 'n':
			if (parse_size(optarg, &va.n)) {
				fprintf(stderr, "%s: bad -n '%s': 1..%zu elements\n", progname,
					optarg, VADD_MAX_N);
				return 2;
			}
			break;
		case 't':
			if (parse_size(optarg, &va.tile)) {
				fprintf(stderr, "%s: bad -t '%s': 1..%zu elements\n", progname,
					optarg, VADD_MAX_N);
				return 2;
			}
			break;
		case 'd':
			attr.device = optarg;
			break;
		case 'q':
			quiet = true;
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
	if (va.tile > va.n)
		va.tile = va.n;
	va.ntiles = (va.n + va.tile - 1) / va.tile;

	/* Is there a device, and does it have IDs enough for two buffers? */
	shown = attr.device ? attr.device :
		getenv("ASC_EVENT_DEV") ? getenv("ASC_EVENT_DEV") : "/dev/asc_event";
	probe = asc_pipe_open(attr.device);
	if (!probe) {
		int err = errno;

		fprintf(stderr, "%s: asc_pipe_open(%s): %s\n", progname, shown, strerror(err));
		if (err == ENOENT || err == ENODEV || err == ENXIO) {
			fprintf(stderr, "%s: no device (load asc_event.ko); skipping\n", progname);
			return 4;
		}
		return 1;
	}
	ids = asc_event_ids(probe);
	asc_pipe_close(probe);
	if (ids < VADD_NR_BUFS) {
		fprintf(stderr, "%s: %d event ID(s) per HardEvent; double buffering needs %d\n",
			progname, ids, VADD_NR_BUFS);
		return 1;
	}
	if (setup_memory(&va))
		goto out_free;

	elapsed = now_ns();
	if (asc_core_run(vadd_kernel, &va, &attr, &text) < 0) {
		print_failure(errno, text);
		goto out_free;
	}
	elapsed = now_ns() - elapsed;
	if (!quiet)
		report(&va, elapsed, shown, ids);
	if (verify(&va))
		goto out_free;
	printf("%s: OK z verified (%zu elements)\n", progname, va.n);
	ret = 0;

out_free:
	free(text);
	free_memory(&va);
	return ret;
}
