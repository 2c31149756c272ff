#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-offline.py JSON SVG: check what `ascctl trace -i` made of the
saved trace ascctl-offline.trace beside this file.

The trace holds what a run rarely shows: comms with spaces and dashes, an
irq-flags column, lost events, other events, a waiter recorded before its
setter, a refused set, a deadlock, a reset with a leak report, a second
TPipe with a wait still blocked at the end.  tools/testing/asc-check runs
`ascctl trace -i ascctl-offline.trace -o OUT` and then this on OUT.json and
OUT.svg; a failed assertion fails the check.
"""

import json
import sys
import xml.etree.ElementTree as ET

SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def check_json(path):
    """The Chrome trace JSON: TPipes, lanes, waits, sets, flows."""
    with open(path) as f:
        t = json.load(f)
    ev = t["traceEvents"]
    assert t["displayTimeUnit"] == "ns" and t["otherData"]["lost_events"] == 3
    assert t["otherData"]["records"] == 17, t["otherData"]["records"]
    meta = {(e["name"], e["pid"], e["tid"]): e["args"]
            for e in ev if e["ph"] == "M"}
    procs = {p: a["name"] for (n, p, _), a in meta.items()
             if n == "process_name"}
    assert procs == {5: "TPipe 5 (my prog)", 6: "TPipe 6 (other)"}, procs
    tracks = {(p, tid): a["name"] for (n, p, tid), a in meta.items()
              if n == "thread_name"}
    assert tracks == {(5, 1): "MTE2", (5, 2): "V", (5, 3): "unbound",
                      (6, 9): "S", (6, 10): "unbound"}, tracks
    by = {}
    for e in ev:
        if e["ph"] in "Xi":
            by.setdefault(e["name"], []).append(e)
    w = by["wait MTE2_V:0"]
    assert len(w) == 2 and w[0]["tid"] == 2 and abs(w[0]["ts"] - 100) < 0.01
    assert abs(w[0]["dur"] - 100) < 0.01, w[0]
    assert w[0]["args"]["task"] == "my-prog-v-201", w[0]
    assert by["set MTE2_V:0"][0]["args"]["task"] == "<...>-202"
    assert by["set MTE2_V:1 EBUSY"][0]["cname"] == "terrible"
    assert by["wait MTE3_V:1 EDEADLK"][0]["args"]["error"] == "EDEADLK"
    assert by["deadlock: waits MTE3_V:1"][0]["tid"] == 2
    assert by["reset"][0]["s"] == "p"
    assert by["leak at reset"][0]["args"]["ids"] == 2
    u = by["wait V_S:0 unfinished"][0]
    assert u["pid"] == 6 and u["args"]["ret"] == "unfinished", u
    flows = [e for e in ev if e["ph"] in "sf"]
    assert [(e["ph"], e["tid"]) for e in flows] == [("s", 1),
                                                    ("f", 2)], flows
    assert flows[0]["ts"] < flows[1]["ts"] <= w[0]["ts"] + w[0]["dur"]


def check_svg(path):
    """The SVG: well-formed, with the lanes' and TPipe's labels."""
    svg = ET.parse(path).getroot()
    text = {x.text for x in svg.iter(SVG_TEXT)}
    assert {"MTE2", "V", "S", "unbound", "TPipe 5 (my prog)"} <= text, text


def main(argv):
    """Check JSON and SVG; assertions fail the check."""
    if len(argv) != 2:
        sys.exit("usage: ascctl-offline.py JSON SVG")
    check_json(argv[0])
    check_svg(argv[1])
    print("ok: 2 TPipes, 5 lanes, waits, refused set, deadlock, leak, flows,"
          " SVG")


if __name__ == "__main__":
    main(sys.argv[1:])
