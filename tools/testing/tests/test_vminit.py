# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-vm-init and its steps (tools/testing/vminit/): every
step /init runs is a file the initramfs carries, every file is a step it
runs, each parses as busybox sh, and the initramfs's checksum covers
them."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from ascvm import initramfs  # noqa: E402

BUSYBOX = "/bin/busybox"


def named_steps():
    """The steps asc-vm-init's loop runs, in order."""
    with open(initramfs.INIT) as f:
        m = re.search(r"^for step in ([a-z ]+); do$", f.read(), re.M)
    return m.group(1).split()


class VmInitTest(unittest.TestCase):
    """/init and the files of its steps."""

    def test_every_step_a_file_every_file_a_step(self):
        files = [os.path.basename(p)[:-3] for p in initramfs._steps()]
        self.assertEqual(sorted(named_steps()), files)
        self.assertEqual(named_steps()[-1], "collect")

    @unittest.skipUnless(os.access(BUSYBOX, os.X_OK), "busybox is needed")
    def test_busybox_sh_parses_them(self):
        for path in [initramfs.INIT] + initramfs._steps():
            p = subprocess.run([BUSYBOX, "sh", "-n", path], stderr=subprocess.PIPE,
                               check=False)
            self.assertEqual(p.returncode, 0, "%s: %s" % (path, p.stderr.decode()))

    def test_checksum_covers_the_steps(self):
        with tempfile.TemporaryDirectory() as d:
            steps = os.path.join(d, "vminit")
            shutil.copytree(initramfs.STEPS, steps)
            saved = initramfs.STEPS
            try:
                initramfs.STEPS = steps
                before = initramfs._checksum("r", [])
                with open(os.path.join(steps, "ports.sh"), "a") as f:
                    f.write("# changed\n")
                self.assertNotEqual(initramfs._checksum("r", []), before)
            finally:
                initramfs.STEPS = saved

    @unittest.skipUnless(os.access(BUSYBOX, os.X_OK), "busybox is needed")
    def test_initramfs_carries_them(self):
        # In a process of its own: other tests wrap _populate.
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([sys.executable, "-c",
                            "import sys; sys.path.insert(0, sys.argv[1]);"
                            "from ascvm import initramfs; initramfs._populate(sys.argv[2], [])",
                            os.path.dirname(HERE), d], check=True)
            for path in initramfs._steps():
                with open(path, "rb") as a, \
                     open(os.path.join(d, "lib", "asc-vm-init", os.path.basename(path)),
                          "rb") as b:
                    self.assertEqual(a.read(), b.read())
            self.assertTrue(os.access(os.path.join(d, "init"), os.X_OK))


if __name__ == "__main__":
    unittest.main()
