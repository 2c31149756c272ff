#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-saved-traces.py ASCCTL DIR

ascctl on input that an outside review found it mishandled (host, no root,
no module; tools/testing/asc-check).  Each case writes a saved text trace into DIR,
runs ASCCTL trace -i on it with the output files limited to 16 MiB, and
checks the result:

  span         times 1 ns and 2^64 - 1 ns apart: a finished, small SVG with
               at most 11 axis ticks (the tick loop once wrapped and wrote
               ticks forever)
  overflow     a time above 2^64 - 1 ns: exit 1 naming the line (it wrapped)
  names        comms with bytes that are not UTF-8 and '<&"', a lane named
               'a<b': JSON that json.load takes, an SVG that expat takes
  serials      TPipes 21474837 and 4294967295: pids as given, thread ids
               positive, 32-bit and distinct (they were serial * 100 in int)
  marker       comms holding ': asc_event_' and ' [7] ': parsed, not dropped

and ASCCTL load PARAM without '=' must be refused as bad usage (exit 2)
before anything is loaded.
"""
import json
import os
import resource
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
LIMIT = 16 << 20


def line(comm, tid, ts, event, fields, cpu=0):
    return b"%16s-%-7d [%03d] ..... %s: asc_event_%s: %s\n" % (
        comm, tid, cpu, ts.encode(), event.encode(), fields.encode())


def limit_output():
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def convert(ascctl, d, name, lines):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(b"# tracer: nop\n#\n" + b"".join(lines))
    p = subprocess.run([ascctl, "trace", "-i", path, "-o", path], capture_output=True,
                       preexec_fn=limit_output, timeout=60)
    return p, path + ".json", path + ".svg"


def parse(p, json_path, svg_path):
    assert p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace"))
    assert os.path.getsize(svg_path) < 1 << 20, "SVG of %d bytes" % os.path.getsize(svg_path)
    t = json.load(open(json_path, encoding="utf-8", errors="strict"))
    return t, ET.parse(svg_path).getroot()


def case_span(ascctl, d):
    p, j, s = convert(ascctl, d, "span", [
        line(b"a", 1, "0.000000001", "alloc", "tpipe=1 pipe=- event=V_S id=0 ret=0"),
        line(b"a", 1, "18446744073.709551", "release", "tpipe=1 pipe=- event=V_S id=0 ret=0"),
    ])
    t, svg = parse(p, j, s)
    ts = [e["ts"] for e in t["traceEvents"] if e["ph"] == "i"]
    assert len(ts) == 2 and ts[1] > 1.8e13, ts
    ticks = [x for x in svg.iter(SVG_NS + "text") if x.text and x.text.endswith(" s")]
    assert 2 <= len(ticks) <= 11, "%d ticks" % len(ticks)
    return "span of %.0f s: %d ticks, SVG %d bytes" % (ts[1] / 1e6, len(ticks), os.path.getsize(s))


def case_overflow(ascctl, d):
    out = []
    for ts in ("18446744073.709552", "18446744074.000000", "99999999999999999999.5"):
        p, _, _ = convert(ascctl, d, "overflow", [
            line(b"a", 1, "1.000000", "alloc", "tpipe=1 pipe=- event=V_S id=0 ret=0"),
            line(b"a", 1, ts, "release", "tpipe=1 pipe=- event=V_S id=0 ret=0"),
        ])
        err = p.stderr.decode(errors="replace")
        assert p.returncode == 1 and "overflow:4: the timestamp does not fit in 64-bit" in err, \
            "%s: exit %d, %r" % (ts, p.returncode, err)
        out.append(ts)
    return "refused " + ", ".join(out)


def case_names(ascctl, d):
    p, j, s = convert(ascctl, d, "names", [
        line(b'\xff\xfe<&"x\xc3', 10, "1.000000", "alloc", "tpipe=1 pipe=- event=V_S id=0 ret=0"),
        line(b"ok\xe2\x82\xac", 11, "1.000100", "set", "tpipe=1 pipe=a<b event=V_S id=0 ret=0"),
    ])
    t, svg = parse(p, j, s)
    tasks = [e["args"]["task"] for e in t["traceEvents"] if e["ph"] == "i"]
    assert tasks == ['\ufffd\ufffd<&"x\ufffd-10', "ok\u20ac-11"], tasks
    titles = [x.text for x in svg.iter(SVG_NS + "title")]
    assert any("TPipe 1 a<b: set V_S:0" in x for x in titles), titles
    return "tasks %r; lane 'a<b' in the SVG titles" % tasks


def case_serials(ascctl, d):
    p, j, s = convert(ascctl, d, "serials", [
        line(b"a", 1, "1.000000", "alloc", "tpipe=21474837 pipe=- event=V_S id=0 ret=0"),
        line(b"a", 1, "1.000001", "set", "tpipe=21474837 pipe=V event=V_S id=0 ret=0"),
        line(b"b", 2, "1.000002", "alloc", "tpipe=4294967295 pipe=- event=V_S id=0 ret=0"),
        line(b"b", 2, "1.000003", "set", "tpipe=4294967295 pipe=V event=V_S id=0 ret=0"),
    ])
    t, _ = parse(p, j, s)
    assert t["otherData"]["records"] == 4, t["otherData"]
    lanes = {(e["pid"], e["tid"]) for e in t["traceEvents"] if e["name"] == "thread_name"}
    pids = sorted({pid for pid, _ in lanes})
    tids = [tid for _, tid in lanes]
    assert pids == [21474837, 4294967295], pids
    assert len(set(tids)) == len(tids) == 4 and all(0 < x < 1 << 32 for x in tids), lanes
    items = [(e["pid"], e["tid"]) for e in t["traceEvents"] if e["ph"] == "i"]
    assert set(items) == lanes, (items, lanes)
    return "pids %s, tids %s" % (pids, sorted(tids))


def case_marker(ascctl, d):
    p, j, s = convert(ascctl, d, "marker", [
        line(b"x: asc_event_s", 77, "1.000000", "alloc", "tpipe=1 pipe=- event=V_S id=0 ret=0"),
        line(b"p [7] q", 78, "1.000001", "release", "tpipe=1 pipe=- event=V_S id=0 ret=0", 1),
    ])
    t, _ = parse(p, j, s)
    tasks = [e["args"]["task"] for e in t["traceEvents"] if e["ph"] == "i"]
    assert tasks == ["x: asc_event_s-77", "p [7] q-78"], tasks
    return "tasks %r" % tasks


def load_without_equals(ascctl):
    p = subprocess.run([ascctl, "load", "-m", "/nonexistent/asc_event.ko", "foo"],
                       capture_output=True, timeout=60)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 2 and "bad module parameter 'foo'" in err, (p.returncode, err)
    return "refused: " + err.strip()


def main():
    ascctl, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    failed = 0
    cases = [("span", case_span), ("overflow", case_overflow), ("names", case_names),
             ("serials", case_serials), ("marker", case_marker)]
    for name, fn in cases:
        try:
            print("ok: %s: %s" % (name, fn(ascctl, d)))
        except (AssertionError, subprocess.TimeoutExpired, OSError, ValueError) as e:
            failed += 1
            print("FAIL: %s: %s" % (name, e))
    try:
        print("ok: load foo: %s" % load_without_equals(ascctl))
    except (AssertionError, subprocess.TimeoutExpired) as e:
        failed += 1
        print("FAIL: load foo: %s" % e)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
