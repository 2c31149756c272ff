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
    checks     named checks printed as TAP, guest runs counted as one's own
    install    asc-check-install: the man pages and the DESTDIR installs
    manpages   the man pages' checks
    hostinstall  the installs on the host: the README's, DKMS
    kselftest  asc-kselftest-tree: the selftests in a kernel's kselftest tree
    kernelbuild  kernels/asc-debug-kernel: the debug and KCSAN kernels
    coverage   asc-coverage: the driver's coverage from gcov data
    checkpatch asc-checkpatch: checkpatch.pl over the tree, clean files kept
    mutants    the mutants file of make mutate, read and checked
    mutate     asc-mutate: mutation testing
"""
