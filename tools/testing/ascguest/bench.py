# SPDX-License-Identifier: GPL-2.0
"""The smoke test of the benchmark in the guest: asc-bench --quick runs,
measures every figure and prints every row of the goals table; -f runs
only the figures it names, the others skipped, and refuses an unknown
name.  No figure is judged.  A function of a steps.Steps.
"""

import re

from asccheck.tap import read

from . import build

BENCH = build("tools", "asc-bench")
ROWS = ["handoff RTT", r"uncontended set\+wait", r"alloc\+release",
        "flag op with [0-9,]+ open TPipes", "kernel memory per open, unmapped",
        "core runtime issued round trip", "Python issued operation"]
PICKED = re.compile(r"^(alloc_event_id|set\+wait with many)")


def passed(text):
    """The "ok" results of the TAP TEXT, skips included."""
    return [r for r in read(text).results if r.ok]


def smoke(s):
    """asc-bench --quick, then -f ids,many, then -f ids,bogus."""
    rc, out = s.run([BENCH, "--quick"])
    s.say(out)
    s.check("exit status 0", rc == 0)
    s.check("7 figures measured", len(passed(out)) == 7)
    for row in ROWS:
        s.check("goal row: " + row,
                re.search(r"^# \| %s +\|.*\| (met|not met) +\|$" % row, out, re.M))
    rc, out = s.run([BENCH, "--quick", "-f", "ids,many"])
    s.say(out)
    s.check("-f ids,many: exit status 0", rc == 0)
    s.check("-f ids,many: 2 figures measured",
            len([r for r in passed(out) if PICKED.match(r.description)]) == 2)
    s.check("-f ids,many: the 5 others skipped", len([r for r in passed(out) if r.skipped]) == 5)
    out = s.exits(2, [BENCH, "-f", "ids,bogus"])
    s.check("-f ids,bogus: the bad name said", "bad figure list" in out)
