// SPDX-License-Identifier: GPL-2.0
/*
 * asc_event selftests: signals during a blocked wait.
 *
 * The wait returns -ERESTARTSYS to the kernel on a signal: userspace sees
 * EINTR when the handler lacks SA_RESTART; with SA_RESTART the call restarts
 * with the same absolute deadline, so it still gets a later set, and still
 * times out at the original deadline.  A wait that consumed its flag
 * returns success even when a signal came too, so a flag is never lost.
 *
 * Every test fetches ID 0 of EV before it waits on it, as a program does:
 * checked mode (the default) refuses hand-written IDs.
 */
#include "asc_event_test.h"

#define EV	ASC_EVENT_MTE3_V

/*
 * A wait of TIMEOUT_MS kicked by signals until shortly before its deadline:
 * a restart that took the timeout afresh would return at least about
 * TIMEOUT_MS past the deadline; a busy host delays a right one by far less
 * than SLACK_MS (383 ms was seen under a load average of 12).
 */
#define TIMEOUT_MS	2000
#define SLACK_MS	1000

ASC_FIXTURE(signal)

static atomic_int signals;

static void on_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&signals, 1);
}

static void catch_sigusr1(struct __test_metadata *_metadata, int flags)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
}

/*
 * struct kicker - a thread that signals the test's main thread each time it
 * sees it blocked in an ioctl, then optionally sets the flag it waits for.
 */
struct kicker {
	pthread_t thread;
	pthread_t target;
	pid_t target_tid;
	int fd;
	int kicks;		/* signals to send */
	unsigned int gap_ms;	/* pause after each signal */
	__u64 stop_ns;		/* no signal after this time, if not 0 */
	bool set;		/* set (EV, 0) once the kicks are done */
	int sent;
	int set_ret;
	bool lost_target;	/* the target was not seen blocked */
};

static void *kicker_fn(void *arg)
{
	struct kicker *k = arg;

	while (k->sent < k->kicks && (!k->stop_ns || asc_now_ns() < k->stop_ns)) {
		if (!asc_wait_in_ioctl(getpid(), k->target_tid, 2000)) {
			k->lost_target = true;
			return NULL;
		}
		if (k->stop_ns && asc_now_ns() >= k->stop_ns)
			break;
		pthread_kill(k->target, SIGUSR1);
		k->sent++;
		asc_sleep_ms(k->gap_ms);
	}
	if (k->set) {
		if (!asc_wait_in_ioctl(getpid(), k->target_tid, 2000)) {
			k->lost_target = true;
			return NULL;
		}
		k->set_ret = asc_set(k->fd, EV, 0);
	}
	return NULL;
}

static void kicker_start(struct __test_metadata *_metadata, struct kicker *k, int fd)
{
	k->target = pthread_self();
	k->target_tid = asc_gettid();
	k->fd = fd;
	ASSERT_EQ(0, pthread_create(&k->thread, NULL, kicker_fn, k));
}

TEST_F_TIMEOUT(signal, eintr_without_sa_restart, 10)
{
	struct kicker k = { .kicks = 1 };

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	catch_sigusr1(_metadata, 0);
	kicker_start(_metadata, &k, self->fd);
	ASSERT_EQ(-EINTR, asc_wait(self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, pthread_join(k.thread, NULL));
	ASSERT_FALSE(k.lost_target);
	ASSERT_EQ(1, atomic_load(&signals));

	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0));
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_F_TIMEOUT(signal, eintr_before_deadline, 10)
{
	struct kicker k = { .kicks = 1 };
	__u64 start = asc_now_ns();

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	catch_sigusr1(_metadata, 0);
	kicker_start(_metadata, &k, self->fd);
	ASSERT_EQ(-EINTR, asc_wait(self->fd, EV, 0, asc_deadline_ms(5000)));
	ASSERT_GT(2000, asc_ms_since(start));
	ASSERT_EQ(0, pthread_join(k.thread, NULL));
	ASSERT_FALSE(k.lost_target);
	ASSERT_EQ(1, atomic_load(&signals));
}

TEST_F_TIMEOUT(signal, sa_restart_then_set, 10)
{
	struct kicker k = { .kicks = 2, .gap_ms = 20, .set = true };

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	catch_sigusr1(_metadata, SA_RESTART);
	kicker_start(_metadata, &k, self->fd);
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, asc_deadline_ms(5000)));
	ASSERT_EQ(0, pthread_join(k.thread, NULL));
	ASSERT_FALSE(k.lost_target);
	ASSERT_EQ(0, k.set_ret);
	ASSERT_EQ(2, atomic_load(&signals));
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0));
}

TEST_F_TIMEOUT(signal, sa_restart_forever_then_set, 10)
{
	struct kicker k = { .kicks = 3, .gap_ms = 10, .set = true };

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	catch_sigusr1(_metadata, SA_RESTART);
	kicker_start(_metadata, &k, self->fd);
	ASSERT_EQ(0, asc_wait(self->fd, EV, 0, ASC_EVENT_WAIT_FOREVER));
	ASSERT_EQ(0, pthread_join(k.thread, NULL));
	ASSERT_FALSE(k.lost_target);
	ASSERT_EQ(0, k.set_ret);
	ASSERT_EQ(3, atomic_load(&signals));
}

TEST_F_TIMEOUT(signal, sa_restart_keeps_deadline, 10)
{
	__u64 deadline = asc_deadline_ms(TIMEOUT_MS), end;
	struct kicker k = {
		.kicks = 1000, .gap_ms = 40, .stop_ns = deadline - 60 * ASC_NSEC_PER_MSEC,
	};

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	catch_sigusr1(_metadata, SA_RESTART);
	kicker_start(_metadata, &k, self->fd);
	ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, deadline));
	end = asc_now_ns();
	ASSERT_EQ(0, pthread_join(k.thread, NULL));
	ASSERT_FALSE(k.lost_target);
	ASSERT_LE(2, atomic_load(&signals));
	ASSERT_LE(deadline, end);
	ASSERT_GE(deadline + SLACK_MS * ASC_NSEC_PER_MSEC, end) {
		TH_LOG("returned %llu ms after the deadline, %d signals",
		       (unsigned long long)(end - deadline) / ASC_NSEC_PER_MSEC,
		       atomic_load(&signals));
	}
}

/*
 * The set and the signal arrive together, again and again: whatever the
 * wait returns, the flag is consumed exactly once per set.
 */
#define RACE_ROUNDS	100

struct racer {
	pthread_t thread;
	pthread_t target;
	pid_t target_tid;
	int fd;
	pthread_barrier_t *round;
	int rounds_done;
	int set_err;
	bool lost_target;
};

static void *racer_fn(void *arg)
{
	struct racer *r = arg;
	int i, ret;

	for (i = 0; i < RACE_ROUNDS; i++) {
		pthread_barrier_wait(r->round);
		if (!asc_wait_in_ioctl(getpid(), r->target_tid, 2000)) {
			r->lost_target = true;
			return NULL;
		}
		ret = asc_set(r->fd, EV, 0);
		pthread_kill(r->target, SIGUSR1);
		if (ret) {
			r->set_err = ret;
			return NULL;
		}
		r->rounds_done++;
	}
	return NULL;
}

TEST_F_TIMEOUT(signal, race_never_loses_flag, 60)
{
	struct racer r = { .fd = self->fd };
	pthread_barrier_t round;
	int i, ret, woken = 0, interrupted = 0;
	__u64 end;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	catch_sigusr1(_metadata, 0);
	ASSERT_EQ(0, pthread_barrier_init(&round, NULL, 2));
	r.round = &round;
	r.target = pthread_self();
	r.target_tid = asc_gettid();
	ASSERT_EQ(0, pthread_create(&r.thread, NULL, racer_fn, &r));

	for (i = 0; i < RACE_ROUNDS; i++) {
		pthread_barrier_wait(&round);
		ret = asc_wait(self->fd, EV, 0, asc_deadline_ms(3000));
		end = asc_deadline_ms(2000);
		while (atomic_load(&signals) < i + 1 && asc_now_ns() < end)
			;
		ASSERT_EQ(i + 1, atomic_load(&signals)) TH_LOG("round %d", i);
		if (ret == -EINTR) {
			interrupted++;
			ASSERT_EQ(0, asc_wait(self->fd, EV, 0, 0)) {
				TH_LOG("round %d: EINTR, and the flag is gone", i);
			}
		} else {
			ASSERT_EQ(0, ret) TH_LOG("round %d", i);
			woken++;
		}
		ASSERT_EQ(-ETIMEDOUT, asc_wait(self->fd, EV, 0, 0)) TH_LOG("round %d", i);
	}
	ASSERT_EQ(0, pthread_join(r.thread, NULL));
	ASSERT_FALSE(r.lost_target);
	ASSERT_EQ(0, r.set_err);
	ASSERT_EQ(RACE_ROUNDS, r.rounds_done);
	TH_LOG("%d woken, %d interrupted", woken, interrupted);
	ASSERT_RESET(self->fd, 0, 0);
	pthread_barrier_destroy(&round);
}

TEST_F_TIMEOUT(signal, stop_and_continue_restarts, 10)
{
	pid_t pid;
	int status;

	ASSERT_EQ(0, asc_fetch(self->fd, EV));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int ret = asc_wait(self->fd, EV, 0, asc_deadline_ms(5000));

		_exit(ret == 0 ? 0 : -ret);
	}
	ASSERT_TRUE(asc_wait_in_ioctl(pid, pid, 2000));
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_EQ(pid, waitpid(pid, &status, WUNTRACED));
	ASSERT_TRUE(WIFSTOPPED(status));
	asc_sleep_ms(50);
	ASSERT_EQ(0, kill(pid, SIGCONT));
	ASSERT_TRUE(asc_wait_in_ioctl(pid, pid, 2000));
	ASSERT_EQ(0, asc_set(self->fd, EV, 0));
	ASSERT_EQ(0, asc_child_wait(pid, 3000)) TH_LOG("the child's wait failed");
	ASSERT_RESET(self->fd, 0, 0);
}

TEST_HARNESS_MAIN
