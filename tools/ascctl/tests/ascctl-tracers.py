#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-tracers.py VADD_OUT ASCCTL_JSON DAT_JSON REPORT SCRIPT

asc-vadd recorded by the tracers of the ecosystem (tools/testing/asc-check-guest):
every one must show every set and every consuming wait of the demo, per
HardEvent, as many as asc-vadd did (from its "N tiles ... B buffers" line:
MTE2_V and V_MTE3 once per tile, V_MTE2 and MTE3_V once per tile plus once
per buffer handed out at the start), none failed.

  VADD_OUT     asc-vadd's output under ascctl trace
  ASCCTL_JSON  ascctl trace of it (binary ring buffer)
  DAT_JSON     ascctl trace -i of trace-cmd record's trace.dat
  REPORT       trace-cmd report of that trace.dat
  SCRIPT       perf script of perf record -e 'asc_event:*'

The two JSON timelines must also carry nanosecond times: most records at a
time that is not a whole microsecond plus the 1 ns steps ascctl adds to keep
equal times apart.
"""
import collections
import json
import re
import sys

ETIMEDOUT = -110


def expected(vadd_out):
    m = re.search(r"(\d+) tiles of \d+ floats, (\d+) buffers in and (\d+) out",
                  open(vadd_out).read())
    assert m, "no tile line in %s" % vadd_out
    tiles, bufs_in, bufs_out = map(int, m.groups())
    return {"MTE2_V": tiles, "V_MTE3": tiles,
            "V_MTE2": tiles + bufs_in, "MTE3_V": tiles + bufs_out}


def from_text(path):
    """Sets and consuming waits of trace-cmd report or perf script output."""
    sets, waits = collections.Counter(), collections.Counter()
    bad = []
    for line in open(path, errors="replace"):
        m = re.search(r"\basc_event_(set|wait_end):\s+(.*)$", line)
        if not m:
            continue
        f = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv)
        ret = int(f["ret"])
        if m.group(1) == "set":
            if ret:
                bad.append(line)
            sets[f["event"]] += 1
        elif ret == 0:
            waits[f["event"]] += 1
        elif ret != ETIMEDOUT:
            bad.append(line)
    return sets, waits, bad


def from_json(path):
    t = json.load(open(path, encoding="utf-8"))
    ev = t["traceEvents"]
    sets, waits = collections.Counter(), collections.Counter()
    bad = []
    for e in ev:
        if e["ph"] == "i" and e["cat"] == "set":
            if e["args"]["ret"]:
                bad.append(e)
            sets[e["args"]["event"]] += 1
        elif e["ph"] == "X" and e["cat"] == "wait":
            if e["args"]["ret"] == 0:
                waits[e["args"]["event"]] += 1
            elif e["args"]["ret"] != ETIMEDOUT:
                bad.append(e)
    # ts is microseconds with three decimals: the ns of each record.
    ns = [round(e["ts"] * 1000) % 1000 for e in ev if e["ph"] in "Xi"]
    sub_us = sum(1 for n in ns if n >= 10)
    assert ns and sub_us * 2 > len(ns), \
        "%s: %d of %d times below the microsecond: no ns times" % (path, sub_us, len(ns))
    print("%s: %d of %d records at a time below the microsecond, %d distinct ns parts"
          % (path, sub_us, len(ns), len(set(ns))))
    return sets, waits, bad


def main():
    want = expected(sys.argv[1])
    tools = [("ascctl trace", from_json, sys.argv[2]),
             ("ascctl trace -i trace.dat", from_json, sys.argv[3]),
             ("trace-cmd report", from_text, sys.argv[4]),
             ("perf script", from_text, sys.argv[5])]
    ok = True
    for name, parse, path in tools:
        sets, waits, bad = parse(path)
        got = {e: (sets[e], waits[e]) for e in sorted(set(sets) | set(waits) | set(want))}
        exp = {e: (want.get(e, 0), want.get(e, 0)) for e in got}
        if got != exp or bad:
            ok = False
            print("FAIL: %s: sets, waits per HardEvent %s, expected %s; failed: %s"
                  % (name, got, exp, bad[:3]))
        else:
            print("%s: sets and waits %s" % (name, ", ".join(
                "%s %d/%d" % (e, s, w) for e, (s, w) in got.items())))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
