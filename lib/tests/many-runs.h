/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The harness's timeout for the tests of a program whose tests run many
 * kernels (core-run's hundred racing pairs, launch-run's 64-core mix
 * launches, que-run's and findings-run's repeated runs); include it after
 * kselftest_harness.h.
 *
 * Each run starts its pipe threads, and on the debug kernel under TCG a
 * thread start costs milliseconds: KASAN and kmemleak record a stack trace
 * for every allocation and free.  There missing_wait_reported_every_time
 * took 23.5 s and arguments 28.4 s in a guest of their own, against the
 * harness's 30 s, and both timed out beside the other guests of check-all;
 * que-run's hand_written_id_collides_with_a_queues took 19 s beside one.
 * The macro is expanded where TEST() is, so the value set here is the one
 * every test of the file gets.
 */
#ifndef ASC_TESTS_MANY_RUNS_H
#define ASC_TESTS_MANY_RUNS_H

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 120

#endif /* ASC_TESTS_MANY_RUNS_H */
