// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: many threads on one TPipe, fixed iteration counts.
 *
 * Two threads ping-pong a token through two flags, four threads pass one
 * around a ring, as pipes of one AI core would; every round is counted
 * and the data passed along with each flag is checked, so a lost or
 * duplicated wake-up, or a flag that does not order memory, shows.
 * Every ID a test uses is allocated or fetched first, as on the hardware:
 * checked mode (the default) refuses hand-written IDs.
 *
 * $ASC_STRESS_PERCENT (1 to 100, default 100) runs that per cent of the
 * rounds: the KCSAN lane (tools/testing/asc-check-kcsan-guest) runs these tests on
 * a guest where a round takes some milliseconds.
 */
#include "asc_event_test.h"

#define PING_ROUNDS	20000
#define RING_THREADS	4
#define RING_ROUNDS	5000
#define RACE_ROUNDS	1000

/* A wait in these tests gives up after this long (it is a failure). */
#define STALL_MS	5000

ASC_FIXTURE(stress)

/* N rounds, or $ASC_STRESS_PERCENT per cent of them (at least one). */
static int rounds(int n)
{
	const char *env = getenv("ASC_STRESS_PERCENT");
	char *end;
	long pc = 100;

	if (env) {
		pc = strtol(env, &end, 10);
		if (!*env || *end || pc < 1 || pc > 100) {
			fprintf(stderr, "ASC_STRESS_PERCENT=%s: want 1 to 100\n", env);
			exit(KSFT_FAIL);
		}
	}
	return n * pc / 100 ?: 1;
}

/*
 * struct player - one thread of a ping-pong or ring: waits for (@in, @in_id),
 * checks and bumps the token, sets (@out, @out_id), @rounds times.
 */
struct player {
	pthread_t thread;
	int fd;
	int in, in_id;
	int out, out_id;
	int rounds;
	bool starts;		/* sets @out before its first wait */
	int index, nplayers;
	long *token;		/* plain memory, ordered by the flags only */
	int done;
	int error;		/* -errno of the first failure, or 1 */
	int err_round;
};

static void *player_fn(void *arg)
{
	struct player *p = arg;
	int i, ret;

	if (p->starts) {
		ret = asc_set(p->fd, p->out, p->out_id);
		if (ret) {
			p->error = ret;
			return NULL;
		}
	}
	for (i = 0; i < p->rounds; i++) {
		ret = asc_wait(p->fd, p->in, p->in_id, asc_deadline_ms(STALL_MS));
		if (ret) {
			p->error = ret;
			p->err_round = i;
			return NULL;
		}
		if (*p->token != (long)i * p->nplayers + p->index) {
			p->error = 1;
			p->err_round = i;
			return NULL;
		}
		++*p->token;
		p->done++;
		if (p->starts && i == p->rounds - 1)
			break;
		ret = asc_set(p->fd, p->out, p->out_id);
		if (ret) {
			p->error = ret;
			p->err_round = i;
			return NULL;
		}
	}
	return NULL;
}

/*
 * Player k waits on hop k and sets hop k+1; player 0 starts by setting hop 1,
 * sees the token come back after each full turn and stops after its last.
 */
static void run_ring(struct __test_metadata *_metadata, int fd, const int (*hop)[2],
		     int n, int rounds)
{
	struct player p[RING_THREADS];
	long token = 0;
	int i;

	ASSERT_GE(RING_THREADS, n);
	for (i = 0; i < n; i++) {
		p[i] = (struct player){
			.fd = fd,
			.in = hop[i][0], .in_id = hop[i][1],
			.out = hop[(i + 1) % n][0], .out_id = hop[(i + 1) % n][1],
			.rounds = rounds,
			.starts = i == 0,
			.index = (i + n - 1) % n,
			.nplayers = n,
			.token = &token,
		};
	}
	for (i = n - 1; i >= 0; i--) {
		ASSERT_EQ(0, pthread_create(&p[i].thread, NULL, player_fn, &p[i]));
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pthread_join(p[i].thread, NULL));
	}
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, p[i].error) {
			TH_LOG("player %d failed in round %d: %d", i, p[i].err_round,
			       p[i].error);
		}
		EXPECT_EQ(rounds, p[i].done) TH_LOG("player %d", i);
	}
	ASSERT_EQ((long)rounds * n, token);
}

TEST_F_TIMEOUT(stress, ping_pong, 120)
{
	int mte2_v = asc_alloc(self->fd, ASC_EVENT_MTE2_V);
	int v_mte2 = asc_alloc(self->fd, ASC_EVENT_V_MTE2);
	int hop[2][2] = {
		{ ASC_EVENT_V_MTE2, v_mte2 },
		{ ASC_EVENT_MTE2_V, mte2_v },
	};
	__u64 start = asc_now_ns();

	ASSERT_EQ(0, mte2_v);
	ASSERT_EQ(0, v_mte2);
	run_ring(_metadata, self->fd, (const int (*)[2])hop, 2,
		 rounds(PING_ROUNDS));
	TH_LOG("%d rounds in %ld ms", rounds(PING_ROUNDS), asc_ms_since(start));
	ASSERT_RESET(self->fd, 2, 0);
}

TEST_F_TIMEOUT(stress, ping_pong_fetched_ids, 120)
{
	int hop[2][2];

	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_S_V));
	hop[0][0] = ASC_EVENT_S_V;
	hop[0][1] = asc_fetch(self->fd, ASC_EVENT_S_V);
	hop[1][0] = ASC_EVENT_V_S;
	hop[1][1] = asc_fetch(self->fd, ASC_EVENT_V_S);
	ASSERT_EQ(self->ids > 1 ? 1 : -ENOSPC, hop[0][1]);
	if (hop[0][1] < 0)
		hop[0][1] = 0;
	ASSERT_EQ(0, hop[1][1]);
	run_ring(_metadata, self->fd, (const int (*)[2])hop, 2,
		 rounds(PING_ROUNDS / 4));
	ASSERT_RESET(self->fd, 1, 0);
}

TEST_F_TIMEOUT(stress, ring_of_four_pipes, 120)
{
	const int hop[RING_THREADS][2] = {
		{ ASC_EVENT_MTE3_V, 0 },
		{ ASC_EVENT_V_MTE2, 0 },
		{ ASC_EVENT_MTE2_V, self->ids - 1 },
		{ ASC_EVENT_V_MTE3, 0 },
	};
	__u64 start = asc_now_ns();
	int i;

	/* Every ID of MTE2_V, so the last one is ours too. */
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(i, asc_alloc(self->fd, ASC_EVENT_MTE2_V));
	}
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_MTE3_V));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE2));
	ASSERT_EQ(0, asc_alloc(self->fd, ASC_EVENT_V_MTE3));
	run_ring(_metadata, self->fd, hop, RING_THREADS, rounds(RING_ROUNDS));
	TH_LOG("%d rounds of %d hops in %ld ms", rounds(RING_ROUNDS),
	       RING_THREADS, asc_ms_since(start));
	for (i = 0; i < self->ids; i++) {
		ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE2_V, i));
	}
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_MTE3_V, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE2, 0));
	ASSERT_EQ(0, asc_release(self->fd, ASC_EVENT_V_MTE3, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

/* Two threads set the same flag at once: exactly one of them wins. */
struct setter {
	pthread_t thread;
	int fd;
	pthread_barrier_t *go, *done;
	int rounds;
	int ret[RACE_ROUNDS];
};

static void *setter_fn(void *arg)
{
	struct setter *s = arg;
	int i;

	for (i = 0; i < s->rounds; i++) {
		pthread_barrier_wait(s->go);
		s->ret[i] = asc_set(s->fd, ASC_EVENT_FIX_FIX, 0);
		pthread_barrier_wait(s->done);
	}
	return NULL;
}

TEST_F_TIMEOUT(stress, concurrent_set_one_wins, 60)
{
	pthread_barrier_t go, done;
	int n = rounds(RACE_ROUNDS);
	struct setter *s;
	int i;

	ASSERT_EQ(0, asc_fetch(self->fd, ASC_EVENT_FIX_FIX));
	s = calloc(2, sizeof(*s));
	ASSERT_TRUE(s != NULL);
	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, 3));
	ASSERT_EQ(0, pthread_barrier_init(&done, NULL, 3));
	for (i = 0; i < 2; i++) {
		s[i].fd = self->fd;
		s[i].go = &go;
		s[i].done = &done;
		s[i].rounds = n;
		ASSERT_EQ(0, pthread_create(&s[i].thread, NULL, setter_fn, &s[i]));
	}
	for (i = 0; i < n; i++) {
		pthread_barrier_wait(&go);
		pthread_barrier_wait(&done);
		ASSERT_TRUE((s[0].ret[i] == 0 && s[1].ret[i] == -EBUSY) ||
			    (s[0].ret[i] == -EBUSY && s[1].ret[i] == 0)) {
			TH_LOG("round %d: %d and %d", i, s[0].ret[i], s[1].ret[i]);
		}
		ASSERT_EQ(0, asc_wait(self->fd, ASC_EVENT_FIX_FIX, 0, 0));
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, ASC_EVENT_FIX_FIX, 0, 0));
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_join(s[i].thread, NULL));
	}
	ASSERT_RESET(self->fd, 0, 0);
	free(s);
}

TEST_HARNESS_MAIN
