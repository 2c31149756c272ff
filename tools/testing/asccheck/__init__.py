# SPDX-License-Identifier: GPL-2.0
"""asccheck: the orchestration of the tests, one job per module.

tools/testing/asc-check and the other launchers beside it are the entry
points; Documentation/reliability.rst says what the lanes run.

    tap        the one TAP reader of the tree, and the writer of results
    jobs       jobs side by side, judged in start order, wall and CPU time
    verdicts   what a step or job comes to: build, TAP or plain
    lanes      the host steps and guest lanes of a check
    weights    the selftest shards, weighed by the last run's times
    table      check-all's table, one row per kernel
    check      asc-check: what the quick run and --all run, in order
    runtests   selftests/run-tests: the selftest programs, their TAP counted
"""
