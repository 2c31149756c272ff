// SPDX-License-Identifier: GPL-2.0
/*
 * asc-vadd - z = x + y on an emulated Ascend AI core, ordered only by the
 * event flags of /dev/asc_event.
 *
 * Three threads stand for the hardware pipes of one AI core: MTE2 copies a
 * tile of x and y from "global memory" into a local input buffer, V adds them
 * into a local output buffer, MTE3 copies that out into z.  There are two
 * input and two output buffers (ping/pong: tile t uses buffer t % 2), so MTE2
 * can load tile t+1 while V adds tile t and MTE3 stores tile t-1.  Nothing
 * orders the threads but set_flag/wait_flag on the device, issued as on the
 * hardware: a flag is set by the source pipe of its HardEvent and waited by
 * the destination pipe.  Each thread binds itself to its pipe
 * (asc_pipe_bind()), so the device's checked mode holds it to that role and
 * `ascctl trace` shows one lane per pipe.
 *
 *   MTE2_V[b]   MTE2 -> V     input buffer b holds a loaded tile
 *   V_MTE2[b]   V -> MTE2     input buffer b is free again
 *   V_MTE3      V -> MTE3     the next output tile is ready
 *   MTE3_V[b]   MTE3 -> V     output buffer b is free again
 *
 * Event IDs.  The three per-buffer directions take one ID per buffer from
 * asc_alloc_event_id(): both buffers of a direction can be flagged at the
 * same time (both input buffers are free at the start), so they need two
 * distinct IDs, held for the whole run and released at the end.
 *
 * V_MTE3 uses a single ID from asc_fetch_event_id(), as pyasc's vadd does.
 * A fetched ID is not reserved, and the source article warns that two
 * back-to-back set/wait pairs on one pipe with a fetched ID hang; on this
 * device the second set, made before the first was waited, fails with EBUSY.
 * Double buffering invites exactly that: V may finish tile t+1 before MTE3
 * has even picked up tile t.  So V publishes a tile (sets V_MTE3) only while
 * it holds the *other* output buffer as well, which MTE3 hands back only
 * after storing the previous tile, i.e. after its wait consumed the previous
 * V_MTE3.  At most one V_MTE3 is ever pending, and sets and waits on the
 * fetched ID strictly alternate.  This costs no throughput: MTE3 stores the
 * tiles in order and could not start tile t+1 before finishing tile t anyway.
 * Nothing here allocates V_MTE3, so the fetched ID stays free, which is what
 * fetch relies on.  It also stays the ID checked mode accepts without an
 * allocation: the last fetch of V_MTE3, from the one fetch in take_ids()
 * until the final asc_pipe_reset(), with no other fetch of V_MTE3 and no
 * reset in between (a pipe that fails resets the TPipe, but then nothing
 * sets or waits any more).
 *
 * "Buffer free" flags start set, as in real kernels: before their loops V
 * sets V_MTE2 for both input buffers and MTE3 sets MTE3_V for both output
 * buffers.  At the end the consumer of each of these flags waits for the ones
 * still pending, so every set is matched by exactly one wait.  The main
 * thread then checks that no flag is left set, releases the allocated IDs and
 * resets the TPipe.
 *
 * The one other thing the threads share besides data is a cancel flag that
 * stops the other pipes when one of them fails (together with
 * asc_pipe_reset(), which wakes their blocked waits); it orders no data.
 */
#include <asc.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
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

/* A blocked wait wakes up this often to notice a cancel, and gives up here. */
#define VADD_WAIT_SLICE_NS	(200 * 1000 * 1000LL)
#define VADD_WAIT_LIMIT_NS	(30 * 1000 * 1000 * 1000LL)

#define EV_MTE2_V	ASC_HARD_EVENT_MTE2_V
#define EV_V_MTE2	ASC_HARD_EVENT_V_MTE2
#define EV_V_MTE3	ASC_HARD_EVENT_V_MTE3
#define EV_MTE3_V	ASC_HARD_EVENT_MTE3_V

static const char *progname = "asc-vadd";

/**
 * enum vadd_pipe_id - the three hardware pipes a thread stands for.
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

/**
 * struct vadd_error - the first libasc call that failed on one pipe.
 * @op: name of the libasc function; NULL when nothing failed.
 * @event: its HardEvent; -1 for asc_pipe_bind().
 * @id: its event ID; the pipe for asc_pipe_bind().
 * @err: errno it left.
 * @when: CLOCK_MONOTONIC ns, to tell the first failure from the cancels it
 *	caused on the other pipes.
 */
struct vadd_error {
	const char *op;
	int event;
	int id;
	int err;
	uint64_t when;
};

struct vadd;

/**
 * struct vadd_stage - one pipe and the thread that runs it.
 * @va: the whole computation.
 * @name: pipe name for messages.
 * @run: the pipe's program.
 * @pipe_id: the ASC_PIPE_* the thread binds to.
 * @busy: per tile, start and end of the pipe's work (CLOCK_MONOTONIC ns),
 *	2 * ntiles entries, written only by this thread until it is joined.
 * @error: why the pipe stopped early.
 * @thread: the thread.
 */
struct vadd_stage {
	struct vadd *va;
	const char *name;
	void (*run)(struct vadd_stage *st);
	int pipe_id;
	uint64_t *busy;
	struct vadd_error error;
	pthread_t thread;
};

/**
 * struct vadd - the computation: global memory, local buffers, event IDs.
 * @pipe: the TPipe (one open of the device), shared by the three threads.
 * @n: number of elements.
 * @tile: elements per tile (the last tile may be shorter).
 * @ntiles: number of tiles.
 * @x: global input x.
 * @y: global input y.
 * @z: global output z.
 * @ub: the local "unified buffer" holding the six buffers below.
 * @in_x: local input buffers, x part.
 * @in_y: local input buffers, y part.
 * @out_z: local output buffers.
 * @in_ready: MTE2_V IDs, one per input buffer (allocated).
 * @in_free: V_MTE2 IDs, one per input buffer (allocated).
 * @out_free: MTE3_V IDs, one per output buffer (allocated).
 * @out_ready: the V_MTE3 ID (fetched).
 * @nr_alloc: how many of the allocated IDs are currently held, in the
 *	order in_ready[0], in_free[0], out_free[0], in_ready[1], ...
 * @unbound: the driver predates pipe roles (asc_pipe_bind() ENOTTY): the
 *	threads run unbound.
 * @cancelled: set when a pipe failed; the others stop at their next wait.
 * @stage: the three pipes.
 */
struct vadd {
	struct asc_pipe *pipe;
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
	int in_ready[VADD_NR_BUFS];
	int in_free[VADD_NR_BUFS];
	int out_free[VADD_NR_BUFS];
	int out_ready;
	int nr_alloc;
	atomic_bool unbound;
	atomic_bool cancelled;
	struct vadd_stage stage[VADD_NR_PIPES];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static const char *event_name(int event)
{
	const char *name = asc_hard_event_name(event);

	return name ? name : "?";
}

static size_t tile_len(const struct vadd *va, size_t t)
{
	size_t left = va->n - t * va->tile;

	return left < va->tile ? left : va->tile;
}

static int stage_fail(struct vadd_stage *st, const char *op, int event, int id)
{
	int err = errno;

	st->error = (struct vadd_error){ op, event, id, err, now_ns() };
	if (err != ECANCELED) {
		atomic_store(&st->va->cancelled, true);
		asc_pipe_reset(st->va->pipe);
	}
	return -1;
}

static int stage_set(struct vadd_stage *st, int event, int id)
{
	if (asc_set_flag(st->va->pipe, event, id) < 0)
		return stage_fail(st, "asc_set_flag", event, id);
	return 0;
}

static int stage_wait(struct vadd_stage *st, int event, int id)
{
	struct vadd *va = st->va;
	int64_t waited;

	for (waited = 0; ; waited += VADD_WAIT_SLICE_NS) {
		if (atomic_load_explicit(&va->cancelled, memory_order_relaxed)) {
			errno = ECANCELED;
			return stage_fail(st, "asc_wait_flag_timeout", event, id);
		}
		if (!asc_wait_flag_timeout(va->pipe, event, id, VADD_WAIT_SLICE_NS))
			return 0;
		if (errno != ETIMEDOUT || waited + VADD_WAIT_SLICE_NS >= VADD_WAIT_LIMIT_NS)
			return stage_fail(st, "asc_wait_flag_timeout", event, id);
	}
}

static void mte2_run(struct vadd_stage *st)
{
	struct vadd *va = st->va;
	size_t t, len;
	int b;

	for (t = 0; t < va->ntiles; t++) {
		b = t % VADD_NR_BUFS;
		len = tile_len(va, t);
		if (stage_wait(st, EV_V_MTE2, va->in_free[b]))
			return;
		st->busy[2 * t] = now_ns();
		memcpy(va->in_x[b], va->x + t * va->tile, len * sizeof(float));
		memcpy(va->in_y[b], va->y + t * va->tile, len * sizeof(float));
		st->busy[2 * t + 1] = now_ns();
		if (stage_set(st, EV_MTE2_V, va->in_ready[b]))
			return;
	}
	for (b = 0; b < VADD_NR_BUFS; b++)
		if (stage_wait(st, EV_V_MTE2, va->in_free[b]))
			return;
}

static void v_run(struct vadd_stage *st)
{
	struct vadd *va = st->va;
	bool own[VADD_NR_BUFS] = { false };
	size_t t, i, len;
	int b, other;
	float *z;
	const float *x, *y;

	for (b = 0; b < VADD_NR_BUFS; b++)
		if (stage_set(st, EV_V_MTE2, va->in_free[b]))
			return;

	for (t = 0; t < va->ntiles; t++) {
		b = t % VADD_NR_BUFS;
		other = (t + 1) % VADD_NR_BUFS;
		len = tile_len(va, t);
		if (stage_wait(st, EV_MTE2_V, va->in_ready[b]))
			return;
		if (!own[b]) {
			if (stage_wait(st, EV_MTE3_V, va->out_free[b]))
				return;
			own[b] = true;
		}

		st->busy[2 * t] = now_ns();
		x = va->in_x[b];
		y = va->in_y[b];
		z = va->out_z[b];
		for (i = 0; i < len; i++)
			z[i] = x[i] + y[i];
		st->busy[2 * t + 1] = now_ns();

		if (stage_set(st, EV_V_MTE2, va->in_free[b]))
			return;
		/* Hold the other output buffer too: MTE3 is done with tile t-1. */
		if (!own[other]) {
			if (stage_wait(st, EV_MTE3_V, va->out_free[other]))
				return;
			own[other] = true;
		}
		if (stage_set(st, EV_V_MTE3, va->out_ready))
			return;
		own[b] = false;
	}
	for (b = 0; b < VADD_NR_BUFS; b++)
		if (!own[b] && stage_wait(st, EV_MTE3_V, va->out_free[b]))
			return;
}

static void mte3_run(struct vadd_stage *st)
{
	struct vadd *va = st->va;
	size_t t, len;
	int b;

	for (b = 0; b < VADD_NR_BUFS; b++)
		if (stage_set(st, EV_MTE3_V, va->out_free[b]))
			return;

	for (t = 0; t < va->ntiles; t++) {
		b = t % VADD_NR_BUFS;
		len = tile_len(va, t);
		if (stage_wait(st, EV_V_MTE3, va->out_ready))
			return;
		st->busy[2 * t] = now_ns();
		memcpy(va->z + t * va->tile, va->out_z[b], len * sizeof(float));
		st->busy[2 * t + 1] = now_ns();
		if (stage_set(st, EV_MTE3_V, va->out_free[b]))
			return;
	}
}

static void *stage_thread(void *arg)
{
	struct vadd_stage *st = arg;

	if (asc_pipe_bind(st->va->pipe, st->pipe_id) < 0) {
		if (errno != ENOTTY) {
			stage_fail(st, "asc_pipe_bind", -1, st->pipe_id);
			return NULL;
		}
		atomic_store(&st->va->unbound, true);
	}
	st->run(st);
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-n N] [-t T] [-d DEVICE] [-q] [-h]\n"
		"Compute z = x + y over N floats in tiles of T floats with three threads\n"
		"standing for the MTE2, V and MTE3 pipes of an AI core, double buffered and\n"
		"ordered only by the event flags of the asc_event device.\n"
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

static void lib_error(const char *op, int event, int id, int err)
{
	if (id >= 0)
		fprintf(stderr, "%s: %s(%s, %d): %s\n", progname, op, event_name(event), id,
			strerror(err));
	else
		fprintf(stderr, "%s: %s(%s): %s\n", progname, op, event_name(event),
			strerror(err));
}

static int *alloc_slot(struct vadd *va, int i)
{
	int b = i / 3;

	switch (i % 3) {
	case 0:
		return &va->in_ready[b];
	case 1:
		return &va->in_free[b];
	default:
		return &va->out_free[b];
	}
}

static int alloc_slot_event(int i)
{
	static const int events[3] = { EV_MTE2_V, EV_V_MTE2, EV_MTE3_V };

	return events[i % 3];
}

#define VADD_NR_ALLOC	(3 * VADD_NR_BUFS)

static int take_ids(struct vadd *va)
{
	int event;

	for (va->nr_alloc = 0; va->nr_alloc < VADD_NR_ALLOC; va->nr_alloc++) {
		event = alloc_slot_event(va->nr_alloc);
		*alloc_slot(va, va->nr_alloc) = asc_alloc_event_id(va->pipe, event);
		if (*alloc_slot(va, va->nr_alloc) < 0) {
			lib_error("asc_alloc_event_id", event, -1, errno);
			return -1;
		}
	}
	va->out_ready = asc_fetch_event_id(va->pipe, EV_V_MTE3);
	if (va->out_ready < 0) {
		lib_error("asc_fetch_event_id", EV_V_MTE3, -1, errno);
		return -1;
	}
	return 0;
}

static int release_ids(struct vadd *va)
{
	int ret = 0, event, id;

	while (va->nr_alloc > 0) {
		va->nr_alloc--;
		event = alloc_slot_event(va->nr_alloc);
		id = *alloc_slot(va, va->nr_alloc);
		if (asc_release_event_id(va->pipe, id, event) < 0) {
			lib_error("asc_release_event_id", event, id, errno);
			ret = -1;
		}
	}
	return ret;
}

/* Test-and-consume every flag this program uses: after a clean run none is set. */
static int count_leftover_flags(struct vadd *va, int *left)
{
	int i, event, id;

	*left = 0;
	for (i = 0; i <= VADD_NR_ALLOC; i++) {
		event = i < VADD_NR_ALLOC ? alloc_slot_event(i) : EV_V_MTE3;
		id = i < VADD_NR_ALLOC ? *alloc_slot(va, i) : va->out_ready;
		if (!asc_wait_flag_timeout(va->pipe, event, id, 0)) {
			fprintf(stderr, "%s: flag %s/%d left set after the run\n", progname,
				event_name(event), id);
			(*left)++;
		} else if (errno != ETIMEDOUT) {
			lib_error("asc_wait_flag_timeout", event, id, errno);
			return -1;
		}
	}
	return 0;
}

static int setup_memory(struct vadd *va)
{
	size_t i, buf = (va->tile * sizeof(float) + VADD_ALIGN - 1) & ~(size_t)(VADD_ALIGN - 1);
	int b;

	va->x = malloc(va->n * sizeof(float));
	va->y = malloc(va->n * sizeof(float));
	va->z = malloc(va->n * sizeof(float));
	va->ub = aligned_alloc(VADD_ALIGN, 3 * VADD_NR_BUFS * buf);
	for (b = 0; b < VADD_NR_PIPES; b++)
		va->stage[b].busy = calloc(2 * va->ntiles, sizeof(uint64_t));
	if (!va->x || !va->y || !va->z || !va->ub || !va->stage[VADD_MTE2].busy ||
	    !va->stage[VADD_V].busy || !va->stage[VADD_MTE3].busy) {
		fprintf(stderr, "%s: out of memory for %zu elements\n", progname, va->n);
		return -1;
	}
	for (b = 0; b < VADD_NR_BUFS; b++) {
		va->in_x[b] = va->ub + (3 * b) * buf / sizeof(float);
		va->in_y[b] = va->ub + (3 * b + 1) * buf / sizeof(float);
		va->out_z[b] = va->ub + (3 * b + 2) * buf / sizeof(float);
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
		free(va->stage[p].busy);
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
		const uint64_t *b = va->stage[p].busy;
		size_t t;

		for (t = 0; t < va->ntiles; t++)
			s->busy[p] += b[2 * t + 1] - b[2 * t];
	}
	for (;;) {
		pick = -1;
		for (p = 0; p < VADD_NR_PIPES; p++) {
			if (next[p] == last_idx)
				continue;
			if (pick < 0 || va->stage[p].busy[next[p]] < now)
				pick = p;
			if (pick == p)
				now = va->stage[p].busy[next[p]];
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
	if (atomic_load(&va->unbound))
		printf("%s: driver without pipe roles: threads ran unbound\n", progname);
	else
		printf("%s: threads bound to MTE2, V and MTE3, checked mode %s\n", progname,
		       asc_pipe_checked(va->pipe) > 0 ? "on" : "off");
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
}

/* A real failure comes before the cancels it caused on the other pipes. */
static bool error_before(const struct vadd_error *a, const struct vadd_error *b)
{
	bool a_cancel = a->err == ECANCELED, b_cancel = b->err == ECANCELED;

	if (a_cancel != b_cancel)
		return b_cancel;
	return a->when < b->when;
}

static int run_pipes(struct vadd *va, uint64_t *elapsed)
{
	static void (*const runs[VADD_NR_PIPES])(struct vadd_stage *) = {
		[VADD_MTE2] = mte2_run, [VADD_V] = v_run, [VADD_MTE3] = mte3_run,
	};
	static const int pipe_ids[VADD_NR_PIPES] = {
		[VADD_MTE2] = ASC_PIPE_MTE2, [VADD_V] = ASC_PIPE_V, [VADD_MTE3] = ASC_PIPE_MTE3,
	};
	const struct vadd_error *first = NULL;
	uint64_t start;
	int p, started, err;

	start = now_ns();
	for (started = 0; started < VADD_NR_PIPES; started++) {
		struct vadd_stage *st = &va->stage[started];

		st->va = va;
		st->pipe_id = pipe_ids[started];
		st->name = asc_pipe_id_name(st->pipe_id);
		st->run = runs[started];
		err = pthread_create(&st->thread, NULL, stage_thread, st);
		if (err) {
			fprintf(stderr, "%s: pthread_create(%s): %s\n", progname, st->name,
				strerror(err));
			atomic_store(&va->cancelled, true);
			asc_pipe_reset(va->pipe);
			break;
		}
	}
	for (p = 0; p < started; p++)
		pthread_join(va->stage[p].thread, NULL);
	*elapsed = now_ns() - start;
	if (started < VADD_NR_PIPES)
		return -1;

	for (p = 0; p < VADD_NR_PIPES; p++) {
		const struct vadd_error *e = &va->stage[p].error;

		if (e->op && (!first || error_before(e, first)))
			first = e;
	}
	if (!first)
		return 0;
	for (p = 0; p < VADD_NR_PIPES; p++)
		if (&va->stage[p].error == first)
			fprintf(stderr, "%s: pipe %s failed: ", progname, va->stage[p].name);
	if (first->event < 0)
		fprintf(stderr, "%s(%s): %s\n", first->op, asc_pipe_id_name(first->id),
			strerror(first->err));
	else
		fprintf(stderr, "%s(%s, %d): %s\n", first->op, event_name(first->event),
			first->id, strerror(first->err));
	return -1;
}

int main(int argc, char **argv)
{
	struct vadd va = { .n = VADD_DEFAULT_N, .tile = VADD_DEFAULT_TILE };
	const char *dev = NULL, *shown;
	uint64_t elapsed;
	bool quiet = false;
	int opt, ids, left, ret = 1;

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
			dev = optarg;
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

	shown = dev ? dev : getenv("ASC_EVENT_DEV") ? getenv("ASC_EVENT_DEV") : "/dev/asc_event";
	va.pipe = asc_pipe_open(dev);
	if (!va.pipe) {
		int err = errno;

		fprintf(stderr, "%s: asc_pipe_open(%s): %s\n", progname, shown, strerror(err));
		if (err == ENOENT || err == ENODEV || err == ENXIO) {
			fprintf(stderr, "%s: no device (load asc_event.ko); skipping\n", progname);
			return 4;
		}
		return 1;
	}
	ids = asc_event_ids(va.pipe);
	if (ids < 0) {
		fprintf(stderr, "%s: asc_event_ids: %s\n", progname, strerror(errno));
		goto out_close;
	}
	if (ids < VADD_NR_BUFS) {
		fprintf(stderr, "%s: %d event ID(s) per HardEvent; double buffering needs %d\n",
			progname, ids, VADD_NR_BUFS);
		goto out_close;
	}
	if (setup_memory(&va) || take_ids(&va))
		goto out_free;

	if (run_pipes(&va, &elapsed))
		goto out_free;
	if (count_leftover_flags(&va, &left))
		goto out_free;
	if (release_ids(&va))
		goto out_free;
	if (asc_pipe_reset(va.pipe) < 0) {
		fprintf(stderr, "%s: asc_pipe_reset: %s\n", progname, strerror(errno));
		goto out_free;
	}
	if (!quiet) {
		report(&va, elapsed, shown, ids);
		printf("%s: flags left set %d, allocated IDs released, asc_pipe_reset ok\n",
		       progname, left);
	}
	if (left || verify(&va))
		goto out_free;
	printf("%s: OK z verified (%zu elements)\n", progname, va.n);
	ret = 0;

out_free:
	free_memory(&va);
out_close:
	asc_pipe_close(va.pipe);
	return ret;
}
