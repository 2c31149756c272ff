#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-spans.py ASCCTL DIR: the work spans of libasc's core runtime in
`ascctl trace -i` (host, no root, no module; tools/testing/asc-check).

ASCCTL trace -i converts the saved trace ascctl-spans.trace beside this
file into DIR, and this checks every span of the JSON and the SVG.  The
trace holds, next to asc_event records: begin and end lines (tracefs's
and trace-cmd report's format) of five runs on five TPipes; the lanes
of a pipe whose thread made no record (MTE3) and of the scalar (S); a run
placed by its scalar's records alone, two runs of one scalar on two
TPipes, thread IDs reused by a later run (the record nearest in time
places a line, before or after it); a begin whose end was lost and one
still open at the end of the trace; an end without a begin and one whose
begin is another item's; six malformed span lines; a run no record places; somebody else's marker.
Then two generated traces: span names with bytes that are not UTF-8 or not
XML characters (JSON and SVG must parse), and span lines with no record
at all (dropped, counted).  A failed assertion fails the check.
"""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
HERE = os.path.dirname(os.path.abspath(__file__))


def convert(ascctl, trace, out):
    """ASCCTL trace -i TRACE -o OUT: the JSON, the SVG root, stderr."""
    p = subprocess.run([ascctl, "trace", "-i", trace, "-o", out],
                       capture_output=True, timeout=60)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, "exit %d: %s" % (p.returncode, err)
    with open(out + ".json", encoding="utf-8", errors="strict") as f:
        t = json.load(f)
    return t, ET.parse(out + ".svg").getroot(), err


def spans_by_lane(t):
    """{(TPipe, lane name): [(n, name, ts, dur, unfinished, core, task)]}"""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in t["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    lanes = {}
    for e in t["traceEvents"]:
        if e.get("cat") != "work":
            continue
        assert e["ph"] == "X", e
        a = e["args"]
        lanes.setdefault((e["pid"], names[(e["pid"], e["tid"])]), []).append(
            (a["n"], e["name"], round(e["ts"], 3), round(e["dur"], 3),
             a.get("unfinished", False), a["core"], a["task"]))
    for v in lanes.values():
        v.sort()
    return lanes


def check_sample(ascctl, d):
    """The saved trace: every span where it belongs, the counts."""
    t, svg, err = convert(ascctl, os.path.join(HERE, "ascctl-spans.trace"),
                          os.path.join(d, "sample"))
    o = t["otherData"]
    assert (o["records"], o["spans"], o["span_lines"]) == (17, 13, 26), o
    assert (o["span_lines_malformed"], o["span_ends_unmatched"],
            o["span_lines_no_tpipe"]) == (6, 2, 2), o
    assert "17 events, 13 spans, 6 TPipes" in err, err
    assert "span lines skipped: 6 malformed, 2 unmatched, 2 of no TPipe" in err, err
    vadd, s_only, late = "my vadd-50", "s only-600", "reused-502"
    want = {
        (7, "MTE2"): [(2, "copy_in", 100, 100, False, "500.1", vadd + "1"),
                      (15, "copy_in", 600, 100, True, "500.1", vadd + "1"),
                      (17, "copy_in", 700, 50, False, "500.1", vadd + "1")],
        (7, "V"): [(5, 'add <&"x"', 230, 70, False, "500.1", vadd + "2"),
                   (13, "add", 500, 50, False, "500.1", vadd + "2"),
                   (19, "add", 800, 700, True, "500.1", vadd + "2")],
        (7, "MTE3"): [(7, "copy_out", 320, 80, False, "500.1", vadd + "3")],
        (7, "S"): [(11, "get  value", 410, 10, False, "500.1", vadd + "0")],
        (8, "S"): [(1, "init", 900, 10, False, "600.1", s_only),
                   (3, "use", 930, 10, False, "600.1", s_only)],
        (9, "S"): [(2, "again", 1000, 20, False, "600.2", s_only)],
        (10, "V"): [(4, "late", 1200, 10, False, "800.1", late)],
        (11, "FIX"): [(6, "fixpipe", 1410, 10, False, "900.1", "tail-901")],
    }
    got = spans_by_lane(t)
    assert got == want, "spans:\n%s\nwant\n%s" % (got, want)
    # The records around them are as without spans.
    waits = [(e["pid"], e["name"], e["ts"], e["dur"]) for e in t["traceEvents"]
             if e["ph"] == "X" and e["cat"] == "wait"]
    assert waits == [(7, "wait MTE2_V:0", 50.0, 170.0),
                     (10, "wait V_S:0", 1230.0, 10.0),
                     (11, "wait FIX_S:1", 1430.0, 10.0)], waits
    tracks = sorted((e["pid"], e["args"]["name"]) for e in t["traceEvents"]
                    if e["ph"] == "M" and e["name"] == "thread_name")
    assert tracks == [(7, "MTE2"), (7, "MTE3"), (7, "S"), (7, "V"), (8, "S"),
                      (9, "S"), (10, "S"), (10, "V"), (11, "FIX"), (11, "S"),
                      (12, "FIX")], tracks

    groups = [g for g in svg.iter(SVG + "g") if g.get("class") == "span"]
    assert len(groups) == 13, len(groups)
    titles = [g.find(SVG + "title").text for g in groups]
    assert 'TPipe 7 V: work add <&"x" (#5) at 230.000 us, ran 70.000 us (my vadd-502)' in titles, titles
    for g in groups:
        r = g.find(SVG + "rect")
        assert r.get("fill") == "#dadaeb", r.attrib
        unfinished = "its end not in the trace" in g.find(SVG + "title").text
        assert (r.get("stroke-dasharray") is not None) == unfinished, r.attrib
    assert sum("its end not in the trace" in x for x in titles) == 2, titles
    # Under the waits: every span is drawn before the first wait bar.
    kids = list(svg)
    last_span = max(i for i, e in enumerate(kids) if e.get("class") == "span")
    first_wait = min(i for i, e in enumerate(kids)
                     if e.tag == SVG + "rect" and e.get("height") == "12")
    assert last_span < first_wait, (last_span, first_wait)
    labels = {x.text for x in svg.iter(SVG + "text")}
    assert "work (libasc)" in labels and "MTE3" in labels, labels
    return "6 TPipes, 13 spans on their lanes, 10 lines skipped, SVG"


def write_trace(path, lines):
    with open(path, "wb") as f:
        f.write(b"# tracer: nop\n#\n" + b"".join(lines))


def mark(comm, tid, ts, text):
    return b"%16s-%-7d [000] ..... %s: tracing_mark_write: %s\n" % (
        comm, tid, ts, text)


def check_bytes(ascctl, d):
    """Span names that are not UTF-8, not XML characters, control bytes."""
    path = os.path.join(d, "bytes.trace")
    write_trace(path, [
        b"   p-10      [000] ..... 1.000001: asc_event_alloc: tpipe=3 pipe=S event=V_S id=0 ret=0\n",
        mark(b"p", 11, b"1.000002", b"asc_span begin core=10.1 pipe=V n=2 name=\xff\xfe<\x01\xef\xbf\xbe&"),
        mark(b"p", 11, b"1.000003", b"asc_span end core=10.1 pipe=V n=2"),
        b"   p-11      [000] ..... 1.000004: asc_event_set: tpipe=3 pipe=V event=V_S id=0 ret=0\n",
    ])
    t, svg, _ = convert(ascctl, path, path)
    got = spans_by_lane(t)
    # JSON takes control characters (escaped) and U+FFFE; XML does not.
    assert got == {(3, "V"): [(2, "\ufffd\ufffd<\x01\ufffe&", 1.0, 1.0, False, "10.1", "p-11")]}, got
    title = [g.find(SVG + "title").text for g in svg.iter(SVG + "g") if g.get("class") == "span"]
    assert title == ["TPipe 3 V: work \ufffd\ufffd<\ufffd& (#2) at 1.000 us, ran 1.000 us (p-11)"], title
    return "names as U+FFFD in JSON and SVG"


def check_alone(ascctl, d):
    """Span lines and no record: nothing places them."""
    path = os.path.join(d, "alone.trace")
    write_trace(path, [
        mark(b"q", 21, b"2.000001", b"asc_span begin core=20.1 pipe=M n=1 name=mmad"),
        mark(b"q", 21, b"2.000002", b"asc_span end core=20.1 pipe=M n=1"),
    ])
    t, _, err = convert(ascctl, path, path)
    o = t["otherData"]
    assert (o["records"], o["spans"], o["span_lines"], o["span_lines_no_tpipe"]) == (0, 0, 0, 2), o
    assert not spans_by_lane(t) and "2 of no TPipe" in err, err
    return "dropped and counted"


def main(argv):
    """Run the cases; any failure fails the check."""
    if len(argv) != 2:
        sys.exit("usage: ascctl-spans.py ASCCTL DIR")
    ascctl, d = argv
    os.makedirs(d, exist_ok=True)
    failed = 0
    for name, fn in (("sample", check_sample), ("bytes", check_bytes),
                     ("alone", check_alone)):
        try:
            print("ok: %s: %s" % (name, fn(ascctl, d)))
        except (AssertionError, subprocess.TimeoutExpired, OSError, ValueError) as e:
            failed += 1
            print("FAIL: %s: %s" % (name, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
