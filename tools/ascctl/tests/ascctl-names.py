#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-names.py run | check JSON SVG

run: in threads named with bytes prctl(PR_SET_NAME) accepts but JSON and
XML do not take as they are (b'\\xff\\xfe<&"tpipe': not UTF-8, markup), an
asc_event_ marker ('x: asc_event_s') and a CPU-like column ('p [7] q'),
allocate and release an ID of /dev/asc_event each.  The command that
tools/testing/asc-check-guest records with ascctl trace.

check: the JSON ascctl wrote is UTF-8 that json.load takes, the SVG XML that
expat takes, and each thread's alloc and release are there under its name,
invalid bytes as U+FFFD.
"""
import ctypes
import fcntl
import json
import os
import struct
import sys
import threading
import xml.etree.ElementTree as ET

NAMES = [b'\xff\xfe<&"tpipe', b"x: asc_event_s", b"p [7] q"]
SHOWN = ['\ufffd\ufffd<&"tpipe', "x: asc_event_s", "p [7] q"]
PR_SET_NAME = 15
# _IOWR/_IOW(0xA5, 0x41/0x43, struct asc_event_ref) of uapi/linux/asc_event.h
ALLOC_ID = 0xC010A541
RELEASE_ID = 0x4010A543
V_S = 22


def run():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open("/dev/asc_event", os.O_RDWR)
    tids = []

    def work(name):
        if libc.prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0):
            raise OSError(ctypes.get_errno(), "prctl")
        ref = bytearray(struct.pack("IIII", V_S, 0, 0, 0))
        fcntl.ioctl(fd, ALLOC_ID, ref)
        fcntl.ioctl(fd, RELEASE_ID, bytes(ref))
        tids.append(threading.get_native_id())

    for name in NAMES:
        t = threading.Thread(target=work, args=(name,))
        t.start()
        t.join()
    os.close(fd)
    assert len(tids) == len(NAMES), tids
    print("threads", tids)


def check(json_path, svg_path):
    t = json.load(open(json_path, encoding="utf-8", errors="strict"))
    ops = {}
    for e in t["traceEvents"]:
        if e["ph"] == "i" and e["cat"] in ("alloc", "release"):
            task = e["args"]["task"]
            ops.setdefault(task.rsplit("-", 1)[0], []).append(e["cat"])
    for name in SHOWN:
        assert ops.get(name) == ["alloc", "release"], \
            "%r: %r (all: %r)" % (name, ops.get(name), ops)
    procs = [e["args"]["name"] for e in t["traceEvents"] if e["name"] == "process_name"]
    assert procs == ["TPipe %s (%s)" % (procs[0].split()[1], SHOWN[0])], procs
    svg = ET.parse(svg_path).getroot()
    titles = " ".join(x.text for x in svg.iter("{http://www.w3.org/2000/svg}title"))
    for name in SHOWN:
        assert "(%s-" % name in titles, "%r not in the SVG titles" % name
    print("JSON and SVG parse; names", ", ".join(repr(n) for n in SHOWN))


if __name__ == "__main__":
    if sys.argv[1:] == ["run"]:
        run()
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: ascctl-names.py run | check JSON SVG")
