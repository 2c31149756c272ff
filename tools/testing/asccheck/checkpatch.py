# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-checkpatch: the kernel's checkpatch.pl over the tree.

Two passes: --strict over the driver and the uAPI headers, then without
--strict over the userspace C (USERSPACE), less the types that hold for
the kernel only (IGNORE).  checkpatch.pl comes from Debian's
linux-source-* package, unpacked once under build/checkpatch/;
ASC_CHECKPATCH names another checkpatch.pl (the tests' fake).

A file found clean is remembered under build/checkpatch/clean/ by a hash
of its bytes, the pass's options and checkpatch.pl with its data files:
the next run checks only what changed since, so a run on an unchanged
tree costs no perl at all.  A file with findings is never remembered, and
when checkpatch.pl fails without naming a file nothing of that call is.

Exit status: 0 when both passes are clean, 1 when not, 2 when
checkpatch.pl cannot be had.
"""

import glob
import hashlib
import os
import re
import subprocess
import sys

# ARRAY_SIZE, PREFER_DEFINED_ATTRIBUTE_MACRO: <linux/kernel.h> and
#   <linux/compiler.h> are the kernel's; libc has neither.
# USE_NEGATIVE_ERRNO: userspace returns errno values as they are.
# SPLIT_STRING: usage texts and JSON and SVG templates, split by line.
# MACRO_WITH_FLOW_CONTROL: the tests' assertion macros end the test.
# COMPLEX_MACRO: X-macro lists, whose entries are not expressions.
IGNORE = ("ARRAY_SIZE,PREFER_DEFINED_ATTRIBUTE_MACRO,USE_NEGATIVE_ERRNO,"
          "SPLIT_STRING,MACRO_WITH_FLOW_CONTROL,COMPLEX_MACRO")
USERSPACE = ("lib", "tools")
DATA = ("spelling.txt", "const_structs.checkpatch")
COMMON = ["--no-tree", "--terse", "--show-types"]


def unpacked(top):
    """The path of checkpatch.pl, unpacked from the newest linux-source
    tarball if need be; None when there is none."""
    tarballs = sorted(glob.glob("/usr/src/linux-source-*.tar.xz"),
                      key=lambda p: [int(n) for n in re.findall(r"\d+", p)])
    if not tarballs:
        return None
    src = os.path.basename(tarballs[-1])[:-len(".tar.xz")]
    cache = os.path.join(top, "build", "checkpatch")
    script = os.path.join(cache, src, "scripts", "checkpatch.pl")
    if not os.path.isfile(script):
        os.makedirs(cache, exist_ok=True)
        members = [src + "/scripts/" + n for n in ("checkpatch.pl",) + DATA]
        if subprocess.run(["tar", "-xJf", tarballs[-1], "-C", cache]
                          + members, check=False).returncode:
            return None
    return script


def digest(*parts):
    """The sha256 of PARTS (bytes) in turn, each with its length."""
    h = hashlib.sha256()
    for p in parts:
        h.update(b"%d:" % len(p))
        h.update(p)
    return h.hexdigest()


def read(path):
    """The bytes of PATH, empty when it does not exist."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


class Checker:
    """checkpatch.pl SCRIPT with its cache of clean files CLEAN."""

    def __init__(self, script, clean):
        self.script = script
        self.clean = clean
        scripts = os.path.dirname(script)
        self.tool = digest(*[read(os.path.join(scripts, n))
                             for n in (os.path.basename(script),) + DATA])

    def key(self, options, path):
        """The name of PATH's mark of cleanliness under OPTIONS."""
        return os.path.join(self.clean, digest(self.tool.encode(),
                                               " ".join(options).encode(),
                                               read(path)))

    def check(self, options, files):
        """checkpatch.pl OPTIONS over those of FILES not known clean; its
        output printed; (whether all are clean, how many were checked)."""
        todo = [f for f in files if not os.path.exists(self.key(options, f))]
        if not todo:
            return True, 0
        proc = subprocess.run(["perl", self.script] + COMMON + options
                              + ["-f"] + todo, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              check=False)
        sys.stdout.write(proc.stdout)
        named = {line.split(":", 1)[0] for line in proc.stdout.splitlines()}
        found = [f for f in todo if f in named]
        if proc.returncode and not found:
            print("# checkpatch.pl failed (exit status %d) and named no file"
                  % proc.returncode)
            return False, len(todo)
        os.makedirs(self.clean, exist_ok=True)
        for f in todo:
            if f not in named:
                with open(self.key(options, f), "w", encoding="utf-8"):
                    pass
        return not found, len(todo)


def userspace_files(top):
    """The C files of USERSPACE that git tracks."""
    pats = [p for d in USERSPACE for p in (d + "/*.c", d + "/*.h")]
    out = subprocess.run(["git", "ls-files"] + pats, cwd=top, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return out.split()


def main(argv, top):
    """asc-checkpatch ARGV in the tree TOP: the exit status."""
    if argv:
        sys.stderr.write("usage: asc-checkpatch\n")
        return 2
    os.chdir(top)
    script = os.environ.get("ASC_CHECKPATCH") or unpacked(top)
    if not script:
        sys.stderr.write("asc-checkpatch: no /usr/src/linux-source-*.tar.xz;"
                         " run tools/scripts/asc-install-deps\n")
        return 2
    checker = Checker(script, os.path.join(top, "build", "checkpatch", "clean"))
    passes = [
        ("checkpatch --strict: driver/ uapi/", ["--strict"],
         sorted(glob.glob("driver/*.[ch]")) + sorted(glob.glob("uapi/linux/*.h"))),
        ("checkpatch: %s (C)" % " ".join(USERSPACE), ["--ignore", IGNORE],
         userspace_files(top)),
    ]
    status = 0
    for title, options, files in passes:
        ok, checked = checker.check(options, files)
        print("# %s: %d files, %d checked, %d clean before and unchanged"
              % (title, len(files), checked, len(files) - checked))
        status = status or (0 if ok else 1)
    return status
