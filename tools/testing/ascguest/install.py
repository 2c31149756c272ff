# SPDX-License-Identifier: GPL-2.0
"""asc-check-install-guest readme COMMANDS [PROGRAM] | dkms RELEASE

The part of tools/testing/asc-check-install that runs in the guest,
booted with `tools/testing/asc-vm --no-module` after an install on the
host, which the guest sees read-only: the module must come from
/lib/modules, as on a machine where it was installed.  systemd-udevd runs
as it does there (as a daemon, the way Debian's initramfs starts it: the
guest has no systemd), with the installed udev rule;
SYSTEMD_IGNORE_CHROOT=1 makes udevadm work in the chroot that asc-vm runs
commands in.

readme: runs COMMANDS (the commands of README.md's "Install" section for
the installed machine) with sh -ex in the scratch directory, then checks
what they should have given: the module loaded from updates/, the node
root:asc 0660, usable by a user in group asc and refused to one who is
not, the example program built and running, the man page, the Python
package finding the installed libasc and the device; and runs PROGRAM
(built on the host against a DESTDIR install) if given.

dkms: the module of the DKMS install for RELEASE (uname -r): modprobe
loads it from updates/dkms/, the node is root:asc 0660, the installed
ascctl sees it, modprobe -r removes it.

TAP output; exit status 1 if anything failed.
"""

import grp
import os
import pwd
import re
import stat
import subprocess
import sys

from . import scratch
from .steps import Failed, Steps, run_tap
from .tap import Tap

USAGE = "usage: asc-check-install-guest readme COMMANDS [PROGRAM] | dkms RELEASE"
NODE = "/dev/asc_event"


def commands_name(text):
    """The test name of the README's commands TEXT: its lines joined by
    "; "."""
    if text.endswith("\n"):
        text = text[:-1]
    return text.replace("\n", ";").replace(";", "; ")


def loaded_from(s, path):
    """The module is loaded, and modprobe finds it at PATH, compressed or
    not (DKMS compresses it as the kernel's own modules are on 6.12)."""
    if not os.path.isdir("/sys/module/asc_event"):
        raise Failed("asc_event is not loaded")
    p = subprocess.run(["modinfo", "-n", "asc_event"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, check=False)
    got = p.stdout.decode(errors="replace").strip()
    if p.returncode != 0:
        raise Failed("modinfo -n asc_event: exit status %d" % p.returncode)
    s.say("modinfo -n asc_event: " + got)
    s.check("expected " + path, got in [path + x for x in ("", ".xz", ".zst", ".gz")])


def node_is_asc_0660(s):
    """What the installed udev rule makes of /dev/asc_event."""
    st = os.stat(NODE)
    got = "%s %o %s" % (owner(st), stat.S_IMODE(st.st_mode),
                        "character special file" if stat.S_ISCHR(st.st_mode) else "other")
    s.say("%s: %s" % (NODE, got))
    s.check("expected root:asc 660 character special file",
            got == "root:asc 660 character special file")


def owner(st):
    """USER:GROUP of the stat ST, by name."""
    return "%s:%s" % (pwd.getpwuid(st.st_uid).pw_name, grp.getgrgid(st.st_gid).gr_name)


def as_nobody(option, cmd):
    """CMD as user nobody, group nogroup, with the supplementary groups
    that the setpriv OPTION gives."""
    return ["setpriv", "--reuid=nobody", "--regid=nogroup"] + option + cmd


def succeeds(s, cmd):
    """CMD must succeed; its output said."""
    rc, out = s.run(cmd)
    s.say(out)
    s.check("exit status %d" % rc, rc == 0)


def refused(s, cmd):
    """CMD fails because it may not open the device."""
    rc, out = s.run(cmd)
    s.say(out)
    s.check("succeeded", rc != 0)
    s.check("not refused", "asc_pipe_open: Permission denied" in out)


def said(pattern):
    """A check of the README commands' output: a line matches PATTERN."""
    def test(s):
        with open(os.path.join(scratch(), "readme.out"), errors="replace") as f:
            s.check("no line matches " + pattern, re.search(pattern, f.read(), re.M))
    return test


def run_commands(s, commands):
    """sh -ex COMMANDS in the scratch directory, its output into
    readme.out and said."""
    out = os.path.join(scratch(), "readme.out")
    with open(out, "w") as f:
        p = subprocess.run(["sh", "-ex", commands], cwd=scratch(), stdin=subprocess.DEVNULL,
                           stdout=f, stderr=subprocess.STDOUT, check=False)
    with open(out, errors="replace") as f:
        s.say(f.read())
    s.check("exit status %d" % p.returncode, p.returncode == 0)


def readme(tap, release, commands, program=None):
    """The checks after the README's commands."""
    with open(commands) as f:
        name = commands_name(f.read())
    hello = os.path.join(scratch(), "asc-hello")
    checks = [
        ("README commands: " + name, lambda s: run_commands(s, commands)),
        ("README: modprobe loaded the module from updates/",
         lambda s: loaded_from(s, "/lib/modules/%s/updates/asc_event.ko" % release)),
        ("README: ls -l shows crw-rw---- root asc",
         said(r"^crw-rw---- +[0-9]+ +root +asc .*/dev/asc_event$")),
        ("the udev rule made /dev/asc_event root:asc 0660", node_is_asc_0660),
        ("README: the example program ran to its end",
         said(r"^S: released the ID, TPipe closed$")),
        ("README: man asc_alloc_event_id shows the page",
         said(r"^ +asc_alloc_event_id - allocate an event ID")),
        ("README: /usr/bin/python3 -m asc.info found the installed libasc",
         said(r"^libasc: /usr/local/lib/libasc\.so\.1 \(version ")),
        ("README: /usr/bin/python3 -m asc.info opened the device",
         said(r"^device: /dev/asc_event: event IDs per HardEvent [0-9]+")),
        ("a user in group asc may use the device",
         lambda s: succeeds(s, as_nobody(["--groups", "asc"], [hello]))),
        ("a user not in group asc is refused (EACCES)",
         lambda s: refused(s, as_nobody(["--clear-groups"], [hello]))),
    ]
    if program:
        checks.append(("a program built against the DESTDIR install with pkg-config runs",
                       lambda s: succeeds(s, [program])))
    return checks


def dkms(tap, release, want):
    """The checks of the DKMS module."""
    if release != want:
        tap.write("Bail out! guest runs %s, not %s" % (release, want))
        sys.exit(1)
    return [
        ("modprobe asc_event", lambda s: succeeds(s, ["modprobe", "asc_event"])),
        ("udevadm settle", lambda s: succeeds(s, ["udevadm", "settle"])),
        ("modprobe loaded the DKMS module (updates/dkms/)",
         lambda s: loaded_from(s, "/lib/modules/%s/updates/dkms/asc_event.ko" % release)),
        ("the udev rule made /dev/asc_event root:asc 0660", node_is_asc_0660),
        ("the installed ascctl status sees it live", live),
    ]


def live(s):
    """The installed ascctl's status says live."""
    rc, out = s.run(["ascctl", "status"])
    s.say(out)
    s.check("exit status %d" % rc, rc == 0)
    s.check("not live", re.search(r"^state +live$", out, re.M))


def removed(s):
    """modprobe -r removes the module and its node."""
    s.check("asc_event is not loaded", os.path.isdir("/sys/module/asc_event"))
    succeeds(s, ["modprobe", "-r", "asc_event"])
    succeeds(s, ["udevadm", "settle"])
    s.check("%s is still there" % NODE, not os.path.exists(NODE))
    s.check("asc_event is still loaded", not os.path.isdir("/sys/module/asc_event"))


def start_udevd():
    """systemd-udevd as a daemon; whether it started."""
    os.environ["SYSTEMD_IGNORE_CHROOT"] = "1"
    return Steps().run(["/lib/systemd/systemd-udevd", "--daemon"])[0] == 0


def main(args):
    """asc-check-install-guest ARGS: the exit status."""
    modes = {"readme": readme, "dkms": dkms}
    if len(args) < 2 or args[0] not in modes:
        print(USAGE, file=sys.stderr)
        return 2
    release = os.uname().release
    tap = Tap(prefix="- guest %s: " % release)
    if not start_udevd():
        tap.write("Bail out! systemd-udevd did not start")
        return 1
    checks = modes[args[0]](tap, release, *args[1:3 if args[0] == "readme" else 2])
    checks.append(("modprobe -r asc_event removes the module and its node", removed))
    ok = True
    for name, test in checks:
        ok = run_tap(tap, name, test) and ok
    return 0 if ok else 1
