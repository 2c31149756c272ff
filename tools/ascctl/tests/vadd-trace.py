#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""vadd-trace.py JSON SVG: check the timeline of the vadd demo that
`ascctl trace -o OUT -- asc-vadd -q` wrote (tools/testing/asc-check-guest runs this
in the guest on OUT.json and OUT.svg).

The JSON must parse and hold one TPipe with one track per pipe the demo
uses (MTE2, V, MTE3) and one for the scalar (S), every set on its event's source pipe and every wait
on its destination, all succeeded, every hand-off and each of the 32 tiles
in order, and as many flow starts as flow ends.  The work the runtime ran
(libasc writes it to ascctl's trace_marker) must be on the lane of its
pipe as spans, copy_in on MTE2, add on V, copy_out on MTE3, one per tile,
none unfinished, in program order (their instruction numbers), and each
lane must show, in time order and without overlap, exactly what the
kernel issued to that pipe's queue: its waits, its work and its sets.
The SVG must be XML with the lanes' labels and a span per work item.  A
failed assertion fails the check.
"""

import json
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TILES = 32


class Timeline:
    """The events of the trace and the track each is on."""

    def __init__(self, trace):
        self.ev = trace["traceEvents"]
        self.tracks = {(e["pid"], e["tid"]): e["args"]["name"]
                       for e in self.ev
                       if e["ph"] == "M" and e["name"] == "thread_name"}
        self.sets = [e for e in self.ev
                     if e["ph"] == "i" and e["cat"] == "set"]
        self.waits = [e for e in self.ev
                      if e["ph"] == "X" and e["cat"] == "wait"]
        self.spans = [e for e in self.ev
                      if e["ph"] == "X" and e["cat"] == "work"]

    def track(self, e):
        """The name of the track of the event E."""
        return self.tracks[(e["pid"], e["tid"])]

    def times(self, kind, event, pipe):
        """When the sets of EVENT by PIPE happened, or when its waits on
        PIPE ended, in order."""
        if kind == "set":
            return sorted(e["ts"] for e in self.sets
                          if e["args"]["event"] == event
                          and self.track(e) == pipe)
        return sorted(e["ts"] + e["dur"] for e in self.waits
                      if e["args"]["event"] == event
                      and self.track(e) == pipe)


def check_tracks(trace, tl):
    """One TPipe, and a track for each pipe the demo uses."""
    assert trace["displayTimeUnit"] == "ns"
    procs = [e for e in tl.ev
             if e["ph"] == "M" and e["name"] == "process_name"]
    assert len(procs) == 1, "one TPipe, got %d" % len(procs)
    # The scalar's lane S holds its alloc, fetch and release: no set or
    # wait.
    assert "S" in tl.tracks.values(), "no lane of the scalar"
    pipes = sorted(n for n in tl.tracks.values()
                   if n not in ("unbound", "S"))
    assert pipes == ["MTE2", "MTE3", "V"], "pipe tracks %s" % pipes
    print("tracks:", ", ".join(tl.tracks.values()))


def check_roles(tl):
    """Each set on its event's source pipe, each wait on its destination,
    all of them successful."""
    for e in tl.sets + tl.waits:
        if tl.track(e) == "unbound":
            continue
        src, dst = e["args"]["event"].split("_")
        want = src if e["ph"] == "i" else dst
        assert tl.track(e) == want, "%s on track %s" % (e["name"],
                                                        tl.track(e))
        assert e["args"]["ret"] == 0, "%s failed on %s" % (e["name"],
                                                           tl.track(e))


def check_order(tl):
    """Hand-offs and tiles in order; as many flow starts as ends."""
    # Each consuming wait took the flag of a set before it: the k-th wait
    # to end, ends after the k-th set.
    for event, src, dst in (("MTE2_V", "MTE2", "V"), ("V_MTE2", "V", "MTE2"),
                            ("V_MTE3", "V", "MTE3"), ("MTE3_V", "MTE3", "V")):
        s, w = tl.times("set", event, src), tl.times("wait", event, dst)
        assert len(s) == len(w) > 0, "%s: %d sets, %d waits" % (
            event, len(s), len(w))
        assert all(a <= b for a, b in zip(s, w)), (
            "%s: a wait ended before its set" % event)

    # Per tile: MTE2 sets MTE2_V, V's wait for it ends, V sets V_MTE3,
    # MTE3's wait for it ends.
    chain = [tl.times("set", "MTE2_V", "MTE2"),
             tl.times("wait", "MTE2_V", "V"),
             tl.times("set", "V_MTE3", "V"),
             tl.times("wait", "V_MTE3", "MTE3")]
    ntiles = len(chain[0])
    assert ntiles == TILES and all(len(c) == ntiles for c in chain), [
        len(c) for c in chain]
    for t in range(ntiles):
        assert chain[0][t] <= chain[1][t] <= chain[2][t] <= chain[3][t], (
            "tile %d" % t)
    starts = [e for e in tl.ev if e["ph"] == "s"]
    ends = [e for e in tl.ev if e["ph"] == "f"]
    assert starts and len(starts) == len(ends), "flows: %d s, %d f" % (
        len(starts), len(ends))
    print("%d events, %d tiles in order, %d hand-offs" % (
        len(tl.ev), ntiles, len(starts)))


def queues():
    """What asc-vadd issues to each pipe's queue, in program order, as
    (kind, name) pairs: tools/demo/asc-vadd.c's vadd_run() for TILES tiles of
    two buffers."""
    q = {"MTE2": [], "V": [], "MTE3": []}
    own = [False, False]
    q["V"] += [("set", "V_MTE2")] * 2
    q["MTE3"] += [("set", "MTE3_V")] * 2
    for t in range(TILES):
        b, other = t % 2, (t + 1) % 2
        q["MTE2"] += [("wait", "V_MTE2"), ("work", "copy_in"), ("set", "MTE2_V")]
        q["V"].append(("wait", "MTE2_V"))
        if not own[b]:
            q["V"].append(("wait", "MTE3_V"))
            own[b] = True
        q["V"] += [("work", "add"), ("set", "V_MTE2")]
        if not own[other]:
            q["V"].append(("wait", "MTE3_V"))
            own[other] = True
        q["V"].append(("set", "V_MTE3"))
        own[b] = False
        q["MTE3"] += [("wait", "V_MTE3"), ("work", "copy_out"), ("set", "MTE3_V")]
    q["MTE2"] += [("wait", "V_MTE2")] * 2
    q["V"] += [("wait", "MTE3_V") for b in range(2) if not own[b]]
    return q


def check_spans(tl):
    """The work on each lane, in program order, between its waits and
    sets."""
    lanes = {}
    for e in tl.spans:
        assert not e["args"].get("unfinished"), "unfinished %s" % e
        lanes.setdefault(tl.track(e), []).append(e)
    assert sorted(lanes) == ["MTE2", "MTE3", "V"], "span lanes %s" % sorted(lanes)
    assert len({e["args"]["core"] for e in tl.spans}) == 1, "one run"
    work = {}
    for lane, name in (("MTE2", "copy_in"), ("V", "add"), ("MTE3", "copy_out")):
        spans = sorted(lanes[lane], key=lambda e: e["ts"])
        assert [e["name"] for e in spans] == [name] * TILES, (
            "%s: %s" % (lane, [e["name"] for e in spans]))
        ns = [e["args"]["n"] for e in spans]
        assert ns == sorted(ns) and len(set(ns)) == TILES, (
            "%s: not in program order: %s" % (lane, ns))
        work[lane] = ns
    for t in range(TILES):
        assert work["MTE2"][t] < work["V"][t] < work["MTE3"][t], (
            "tile %d: instruction numbers %s" % (t, [w[t] for w in work.values()]))

    want = queues()
    for lane in ("MTE2", "V", "MTE3"):
        items = [(e["ts"], e["ts"] + e.get("dur", 0),
                  "work" if e["cat"] == "work" else e["cat"],
                  e["name"] if e["cat"] == "work" else e["args"]["event"])
                 for e in tl.spans + tl.waits + tl.sets if tl.track(e) == lane]
        items.sort()
        got = [(kind, name) for _, _, kind, name in items]
        assert got == want[lane], "%s: in time order\n%s\nissued\n%s" % (
            lane, got, want[lane])
        for a, b in zip(items, items[1:]):
            assert a[1] <= b[0], "%s: %s overlaps %s" % (lane, a, b)
    print("spans: %d work items, each lane as issued: %s" % (
        len(tl.spans), ", ".join("%s %d" % (k, len(v)) for k, v in want.items())))


def check_svg(path):
    """Well-formed SVG with the lanes' labels and the spans."""
    svg = ET.parse(path).getroot()
    assert svg.tag == SVG + "svg", svg.tag
    labels = {t.text for t in svg.iter(SVG + "text")}
    assert {"MTE2", "V", "MTE3"} <= labels, "SVG lane labels"
    titles = [g.find(SVG + "title").text for g in svg.iter(SVG + "g")
              if g.get("class") == "span"]
    for lane, name in (("MTE2", "copy_in"), ("V", "add"), ("MTE3", "copy_out")):
        n = sum(x.startswith("TPipe ") and (" %s: work %s (#" % (lane, name)) in x
                for x in titles)
        assert n == TILES, "SVG: %d spans of %s on %s" % (n, name, lane)
    assert len(titles) == 3 * TILES, "SVG: %d spans" % len(titles)
    print("SVG: well-formed XML, lanes MTE2, V, MTE3, %d spans" % len(titles))


def main(argv):
    """Check JSON and SVG; assertions fail the check."""
    if len(argv) != 2:
        sys.exit("usage: vadd-trace.py JSON SVG")
    with open(argv[0]) as f:
        trace = json.load(f)
    tl = Timeline(trace)
    check_tracks(trace, tl)
    check_roles(tl)
    check_order(tl)
    check_spans(tl)
    check_svg(argv[1])


if __name__ == "__main__":
    main(sys.argv[1:])
