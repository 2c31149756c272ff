# SPDX-License-Identifier: GPL-2.0
"""The selftest shards of `make check`, weighed by the last run's times.

selftests/run-tests prints "# NAME: ran for T s" after each program.  After
a quick run the times of its selftest guests are learned: kept in
build/check-times.json, per kernel, each program's latest time (a program
that did not run keeps its old one; one no longer listed is dropped).  The
next run splits the programs over its guests by those times, longest
first, each to the guest with the least work so far.  A program never
timed weighs the median of those that were (one second when none was).
"""

import json
import os
import re
import statistics

TIMED = re.compile(r"^# (asc_event_\w+): ran for ([0-9.]+) s$", re.M)
DEFAULT = 1.0


def learned(texts):
    """{program: seconds} from the run-tests output TEXTS (the last time
    of a program that ran twice)."""
    times = {}
    for text in texts:
        for name, seconds in TIMED.findall(text):
            times[name] = float(seconds)
    return times


def load(path, kernel):
    """The times kept in PATH for KERNEL, {} when there are none."""
    try:
        with open(path, encoding="utf-8") as f:
            kept = json.load(f).get(kernel, {})
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {k: float(v) for k, v in kept.items()
            if isinstance(v, (int, float)) and v >= 0}


def save(path, kernel, times, programs):
    """Keep TIMES for KERNEL in PATH over what it had, only PROGRAMS'."""
    try:
        with open(path, encoding="utf-8") as f:
            everything = json.load(f)
        if not isinstance(everything, dict):
            everything = {}
    except (OSError, ValueError):
        everything = {}
    merged = load(path, kernel)
    merged.update(times)
    everything[kernel] = {p: round(merged[p], 2) for p in programs
                          if p in merged}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = "%s.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(everything, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def weigh(programs, times):
    """{program: weight}: its time, or the default for one never timed."""
    known = [times[p] for p in programs if p in times]
    default = statistics.median(known) if known else DEFAULT
    return {p: times.get(p, default) for p in programs}


def split(programs, times, count):
    """PROGRAMS over COUNT shards, longest first, each to the lightest
    shard so far (the first of equals); each shard in the order of
    PROGRAMS."""
    weight = weigh(programs, times)
    load_of = [0.0] * count
    shards = [[] for _ in range(count)]
    order = sorted(programs, key=lambda p: (-weight[p], programs.index(p)))
    for p in order:
        best = min(range(count), key=lambda i: (load_of[i], i))
        shards[best].append(p)
        load_of[best] += weight[p]
    return [sorted(s, key=programs.index) for s in shards]
