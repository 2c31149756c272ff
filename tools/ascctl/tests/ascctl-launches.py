#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-launches.py: check ascctl's timelines of multi-core launches.

  ascctl-launches.py ASCCTL DIR        the recorded traces beside this file
                                       and malformed launch records (host)
  ascctl-launches.py mix JSON SVG      a live `ascctl trace` of
                                       mix-matmul-epilogue -b 1 (guest)

ascctl-mix.trace is mix-matmul-epilogue -b 1 -m 64 -n 32 -k 32 (one AIC and
its two AIVs, mode-2 cross-core flags 0-3), ascctl-sync-all.trace
sync-all-reduce -c 2 (two AIVs meeting in SyncAll), both recorded from
tracefs's text (`cat trace`) in a guest; ascctl-sync-aiv.trace, written by
hand, a mix launch whose AIVs meet in their SyncAll (aiv_only=1) and then
with the AIC in the SyncAll of every core.  Checked: one group per core,
named and ordered by core; every cross-core arrow from a cross_set to a
cross_wait of the same flag on a core the set counts on, in the order the
chip counts (the k-th completed set of a flag to the k-th wait of it on
each target), every successful wait with its arrows; SyncAll's arrow from
the last core to arrive to the other; JSON that json.load takes and SVG
that expat takes.  A failed assertion fails the check.
"""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SVG = "{http://www.w3.org/2000/svg}"


def load(json_path, svg_path):
    """The JSON (json.load) and the SVG's root (expat)."""
    with open(json_path) as f:
        t = json.load(f)
    return t, ET.parse(svg_path).getroot()


def groups(t):
    """process_name per pid, and the pids in sort order."""
    ev = t["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "process_name"}
    order = sorted((e["args"]["sort_index"], e["pid"]) for e in ev
                   if e["ph"] == "M" and e["name"] == "process_sort_index")
    return names, [p for _, p in order]


def binds(wait, start, ts):
    """Whether a flow that leaves at START and ends at TS ends on WAIT: 1 ns
    before its end, or at its end when that is 1 ns after START."""
    end = wait["ts"] + wait["dur"]
    if abs(end - 0.001 - ts) < 0.0005:
        return end - 0.001 > start + 0.0005
    return abs(end - ts) < 0.0005 and abs(end - 0.001 - start) < 0.0005


def endpoints(t, name):
    """The flows called NAME as (source event, wait event) pairs."""
    ev = t["traceEvents"]
    marks = {}
    for e in ev:
        if e["ph"] in "sf" and e["name"] == name:
            marks.setdefault(e["id"], {})[e["ph"]] = e
    pairs = []
    for fid, m in sorted(marks.items()):
        assert set(m) == {"s", "f"}, (fid, m)
        src = [e for e in ev if e["ph"] in "iX" and e["pid"] == m["s"]["pid"]
               and e["tid"] == m["s"]["tid"] and e.get("cat") != "work"
               and (abs(e["ts"] - m["s"]["ts"]) < 0.0005 or
                    (e["ph"] == "X" and
                     abs(e["ts"] + e["dur"] - 0.001 - m["s"]["ts"]) < 0.0005))]
        dst = [e for e in ev if e["ph"] == "X" and e["cat"] == "wait"
               and e["pid"] == m["f"]["pid"] and e["tid"] == m["f"]["tid"]
               and binds(e, m["s"]["ts"], m["f"]["ts"])]
        assert len(src) == 1 and len(dst) == 1, (m, src, dst)
        pairs.append((src[0], dst[0]))
    return pairs


def check_mix(t, svg, block_dim=1):
    """A mix launch: groups per core, each cross-core wait's sets."""
    names, order = groups(t)
    cores = {}
    for pid, n in names.items():
        assert n.startswith("launch "), n
        core = int(n.split(" core ")[1].split(" ")[0])
        cores[core] = pid
        kind = "AIC" if core < block_dim else "AIV"
        block = core if core < block_dim else core - block_dim
        assert f"core {core} ({kind} {block}): TPipe {pid} (" in n, n
    assert sorted(cores) == list(range(3 * block_dim)), names
    assert order == [cores[c] for c in sorted(cores)], (order, cores)
    core_of = {p: c for c, p in cores.items()}
    ev = t["traceEvents"]
    sets = sorted((e for e in ev if e["ph"] == "i" and e["cat"] == "cross_set"
                   and e["args"]["ret"] == 0), key=lambda e: e["ts"])
    waits = sorted((e for e in ev if e["ph"] == "X" and e["cat"] == "wait"
                    and e["name"].startswith("cross_wait ")
                    and e["args"]["ret"] == 0), key=lambda e: e["ts"] + e["dur"])
    assert sets and waits, "no cross-core sets or waits"
    for e in sets + waits:
        assert core_of[e["pid"]] == e["args"]["core"], e
    # Mode 2, independently: an AIC set counts on its two AIVs; the sets of
    # both AIVs of an AI core (the k-th of each) count once on their AIC.
    counts = {}
    issued = {}
    for s in sets:
        c, f = s["args"]["core"], s["args"]["flag"]
        assert s["args"]["mode"] == 2, s
        if c < block_dim:
            for t_ in (block_dim + 2 * c, block_dim + 2 * c + 1):
                counts.setdefault((t_, f), []).append([s])
            continue
        v = c - block_dim
        mine = issued.setdefault((v // 2, v % 2, f), [])
        other = issued.setdefault((v // 2, 1 - v % 2, f), [])
        if other:
            counts.setdefault((v // 2, f), []).append(
                sorted([other.pop(0), s], key=lambda e: e["args"]["core"]))
        else:
            mine.append(s)
    want = {}
    for w in waits:
        key = (w["args"]["core"], w["args"]["flag"])
        got = counts.get(key, [])
        assert got, ("a successful wait without its count", w)
        want[id(w)] = got.pop(0)
    pairs = endpoints(t, "cross")
    have = {}
    for s, w in pairs:
        assert s["cat"] == "cross_set" and w["name"].startswith("cross_wait"), (s, w)
        assert s["args"]["flag"] == w["args"]["flag"], (s, w)
        assert s["ts"] < w["ts"] + w["dur"], (s, w)
        have.setdefault(id(w), []).append(s)
    for w in waits:
        got = sorted(have.get(id(w), []), key=lambda e: e["args"]["core"])
        assert [id(e) for e in got] == [id(e) for e in want[id(w)]], \
            (w, got, want[id(w)])
    assert len(pairs) == sum(len(v) for v in want.values()), len(pairs)
    assert t["otherData"]["launches"] == 1
    assert t["otherData"]["cross_waits_unmatched"] == 0, t["otherData"]
    text = [x.text or "" for x in svg.iter(SVG + "text")]
    assert any(x.startswith("launch ") and ": mix, block_dim %d, %d cores"
               % (block_dim, 3 * block_dim) in x for x in text), text
    for pid in cores.values():
        assert any(x == names[pid] for x in text), (names[pid], text)
    arrows = [x for x in svg.iter(SVG + "line")
              if x.get("class") == "arrow-cross"]
    assert len(arrows) == len(pairs), (len(arrows), len(pairs))
    return len(pairs), len(waits)


def check_sync_all(t, svg):
    """Two AIVs in SyncAll: groups, the last arrival's arrow."""
    names, order = groups(t)
    assert names == {9: "launch 2 core 0 (AIV 0): TPipe 9 (sync-all-reduce)",
                     8: "launch 2 core 1 (AIV 1): TPipe 8 (sync-all-reduce)"}, names
    assert order == [9, 8], order
    ev = t["traceEvents"]
    syncs = [e for e in ev if e["ph"] == "X" and e["name"] == "sync_all"]
    assert len(syncs) == 2, syncs
    last = min(syncs, key=lambda e: e["ts"] + e["dur"])
    pairs = endpoints(t, "sync_all")
    assert len(pairs) == 1, pairs
    s, w = pairs[0]
    assert s is last and w is not last and w["name"] == "sync_all", pairs
    assert s["pid"] == 8 and w["pid"] == 9, pairs
    text = [x.text or "" for x in svg.iter(SVG + "text")]
    assert "launch 2: aiv, block_dim 2, 2 cores" in text, text
    arrows = [x for x in svg.iter(SVG + "line")
              if x.get("class") == "arrow-sync"]
    assert len(arrows) == 1, arrows


def check_sync_aiv(t, svg):
    """The AIVs' round apart from every core's: one arrow to the other
    AIV, then two from the last to arrive of all three."""
    ev = t["traceEvents"]
    syncs = sorted((e for e in ev if e["ph"] == "X" and e["name"] == "sync_all"),
                   key=lambda e: e["ts"] + e["dur"])
    assert len(syncs) == 5, syncs
    nth, seen = {}, {}
    for e in syncs:
        nth[id(e)] = (e["pid"], seen.get(e["pid"], 0))
        seen[e["pid"]] = seen.get(e["pid"], 0) + 1
    got = sorted((nth[id(s)], nth[id(w)]) for s, w in endpoints(t, "sync_all"))
    assert got == [((13, 0), (12, 0)), ((13, 1), (11, 0)), ((13, 1), (12, 1))], got
    arrows = [x for x in svg.iter(SVG + "line") if x.get("class") == "arrow-sync"]
    assert len(arrows) == 3, arrows


def run(ascctl, trace, prefix):
    """ascctl trace -i TRACE -o PREFIX: its stderr; it must exit 0."""
    p = subprocess.run([ascctl, "trace", "-i", trace, "-o", prefix],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, (trace, p.returncode, p.stderr)
    return p.stderr


LINE = " prog-%d [000] ..... %d.%06d: asc_event_%s: %s\n"

# Malformed launch records: missing fields (skipped, named on stderr), a
# cross-core wait no set counts for, a set of a flag out of range, a core
# outside its launch, a launch with an absurd block_dim, and a launch
# whose launch record is missing.  All drawn, none with a cross arrow.
MALFORMED = [
    (1, "launch", "launch=1 kind=mix"),
    (1, "launch", "kind=mix block_dim=1"),
    (1, "launch", "launch=1 kind=mix block_dim=1"),
    (2, "join", "tpipe=2 launch=1"),
    (2, "join", "tpipe=2 launch=1 core=0"),
    (3, "join", "tpipe=3 launch=1 core=1"),
    (3, "cross_wait", "tpipe=3 launch=1 core=1 pipe=S flag=0 ret=0 waited_ns=5"),
    (2, "cross_set", "tpipe=2 launch=1 core=0 pipe=FIX flag=99 mode=2 ret=0"),
    (2, "cross_set", "tpipe=2 launch=1 core=0 pipe=FIX flag=1 mode=7 ret=0"),
    (3, "cross_wait", "tpipe=3 launch=1 core=1 pipe=S flag=1 ret=0 waited_ns=9"),
    (4, "join", "tpipe=4 launch=1 core=9"),
    (4, "cross_wait", "tpipe=4 launch=1 core=9 pipe=S flag=0 ret=0 waited_ns=1"),
    (5, "launch", "launch=2 kind=aiv block_dim=4294967295"),
    (5, "join", "tpipe=5 launch=2 core=0"),
    (5, "cross_set", "tpipe=5 launch=2 core=0 pipe=V flag=0 mode=0 ret=0"),
    (5, "cross_wait", "tpipe=5 launch=2 core=0 pipe=S flag=0 ret=0 waited_ns=1"),
    (6, "cross_wait", "tpipe=6 launch=7 core=1 pipe=S flag=0 ret=0 waited_ns=1"),
    (6, "sync_all", "tpipe=6 launch=7 core=1 pipe=S ret=0 waited_ns=1"),
    (6, "cross_deadlock", "tpipe=6 launch=7 core=1 pipe=S wait=sync_all flag=0"),
    (6, "cross_set", "tpipe=6 launch=7 pipe=V flag=0 mode=0 ret=0"),
]


def check_malformed(ascctl, d):
    """Malformed launch records: counted or drawn without arrows."""
    path = os.path.join(d, "malformed.trace")
    with open(path, "w") as f:
        for i, (tid, name, fields) in enumerate(MALFORMED):
            f.write(LINE % (tid, 1, 1000 * (i + 1), name, fields))
    err = run(ascctl, path, os.path.join(d, "malformed"))
    assert err.count("a launch record without its") == 4, err
    assert "malformed.trace:1: a launch record without its launch, kind or " \
           "block_dim" in err, err
    assert "malformed.trace:4: a launch record without its tpipe, launch or " \
           "core" in err, err
    assert "5 cross-core waits with no set in the trace (no arrow)" in err, err
    t, svg = load(os.path.join(d, "malformed.json"),
                  os.path.join(d, "malformed.svg"))
    od = t["otherData"]
    assert od["records_malformed"] == 4 and od["cross_waits_unmatched"] == 5, od
    assert od["launches"] == 3, od
    assert not [e for e in t["traceEvents"] if e["ph"] in "sf"], "an arrow"
    names, order = groups(t)
    assert names == {
        2: "launch 1 core 0 (AIC 0): TPipe 2 (prog)",
        3: "launch 1 core 1 (AIV 0): TPipe 3 (prog)",
        4: "launch 1 core 9: TPipe 4 (prog)",
        5: "launch 2 core 0: TPipe 5 (prog)",
        6: "launch 7 core 1: TPipe 6 (prog)"}, names
    assert order == [2, 3, 4, 5, 6], order
    text = [x.text or "" for x in svg.iter(SVG + "text")]
    assert "launch 2: block_dim out of range" in text, text
    assert "launch 7: no launch record in the trace" in text, text
    by = {e["name"] for e in t["traceEvents"] if e["ph"] in "iX"}
    assert {"cross_set 99 mode 2", "cross_wait 0", "sync_all",
            "deadlock: waits sync_all", "join launch 1 core 9"} <= by, by


def check_binds():
    """binds() takes both places ascctl puts a flow's end, and no other."""
    wait = {"ts": 10.0, "dur": 5.0}
    assert binds(wait, 12.0, 14.999)
    assert not binds(wait, 12.0, 15.0)
    assert binds(wait, 14.999, 15.0)
    assert not binds(wait, 14.999, 14.999)
    assert not binds(wait, 12.0, 14.0)


def main(argv):
    """See the module's doc."""
    check_binds()
    if len(argv) == 3 and argv[0] == "mix":
        t, svg = load(argv[1], argv[2])
        n, w = check_mix(t, svg)
        print(f"ok: live mix launch: 3 cores, {w} cross-core waits, {n} arrows")
        return
    if len(argv) != 2:
        sys.exit(__doc__)
    ascctl, d = argv
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, "mix")
    run(ascctl, os.path.join(HERE, "ascctl-mix.trace"), p)
    n, w = check_mix(*load(p + ".json", p + ".svg"))
    print(f"ok: mix launch: 3 cores, {w} cross-core waits, {n} arrows")
    p = os.path.join(d, "sync-all")
    run(ascctl, os.path.join(HERE, "ascctl-sync-all.trace"), p)
    check_sync_all(*load(p + ".json", p + ".svg"))
    print("ok: SyncAll of 2 AIVs: groups, the last arrival's arrow")
    p = os.path.join(d, "sync-aiv")
    run(ascctl, os.path.join(HERE, "ascctl-sync-aiv.trace"), p)
    check_sync_aiv(*load(p + ".json", p + ".svg"))
    print("ok: the AIVs' SyncAll of a mix launch, then every core's: their arrows")
    check_malformed(ascctl, d)
    print("ok: malformed launch records: counted, drawn, no arrows")


if __name__ == "__main__":
    main(sys.argv[1:])
