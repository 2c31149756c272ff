# SPDX-License-Identifier: GPL-2.0
"""What runs of tools/testing/asc-vm at once share: the caches under build/vm/
(initramfs, vmlinux) and the directory of run directories.

Each test points the runner's code at a temporary directory and makes two
processes build one cache at the same moment: the cache is built once,
the other waits for it and both get a complete file.
"""

import contextlib
import glob
import io
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOOLS = os.path.dirname(HERE)
sys.path.insert(0, TOOLS)

# pylint: disable=wrong-import-position
from ascvm import bootimage, initramfs, kernels, machine, modfinder  # noqa
from ascvm import rundir  # noqa: E402


def counted(func, log):
    """FUNC, slowed down so that callers overlap, noting each call in the
    file LOG."""
    def wrapper(*args):
        with open(log, "a") as f:
            f.write("call\n")
        time.sleep(1)
        return func(*args)
    return wrapper


def quiet(target, *args):
    """TARGET(*ARGS) with the runner's messages on stderr dropped."""
    with contextlib.redirect_stderr(io.StringIO()):
        return target(*args)


def at_once(target, args, count=2):
    """Run TARGET(*ARGS) in COUNT forked processes at once; their results."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(count) as pool:
        return pool.starmap(quiet, [(target,) + args] * count)


def build_initramfs(tmp, release, modules):
    initramfs.VMDIR = tmp
    initramfs._populate = counted(initramfs._populate,
                                  os.path.join(tmp, "calls"))
    return initramfs.initramfs(release, modules)


def build_vmlinux(tmp, kernel, script):
    bootimage.VMDIR = tmp
    bootimage.extract_vmlinux = lambda kernel: script
    bootimage._extract = counted(bootimage._extract,
                                 os.path.join(tmp, "calls"))
    return bootimage.boot_image(kernel)


def fresh_vmlinux(vmdir, kernel, script):
    bootimage.VMDIR = vmdir
    bootimage.extract_vmlinux = lambda kernel: script
    return bootimage.boot_image(kernel)


def fresh_initramfs(vmdir, release, modules):
    initramfs.VMDIR = vmdir
    return initramfs.initramfs(release, modules)


def calls(tmp):
    with open(os.path.join(tmp, "calls")) as f:
        return len(f.readlines())


@unittest.skipUnless(glob.glob("/boot/vmlinuz-6.1.*-amd64"),
                     "kernel 6.1 is not installed")
class CacheTest(unittest.TestCase):
    """Caches built by two runs at once, for kernel 6.1."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.kernel = kernels.lookup("6.1")

    def tearDown(self):
        self.tmp.cleanup()

    def test_initramfs_built_once(self):
        mods = modfinder.module_files(
            self.kernel, machine.machine_for(self.kernel).guest_modules)
        paths = at_once(build_initramfs,
                        (self.tmp.name, self.kernel.release, mods))
        self.assertEqual(calls(self.tmp.name), 1)
        self.assertEqual(len(set(paths)), 1)
        listing = subprocess.run(["cpio", "-t", "--quiet", "-F", paths[0]],
                                 stdout=subprocess.PIPE, text=True,
                                 check=True).stdout.splitlines()
        self.assertIn("init", listing)
        self.assertIn("bin/busybox", listing)
        self.assertIn("lib/modules/9pnet_virtio.ko", listing)
        # Current: a third run builds nothing.
        quiet(build_initramfs, self.tmp.name, self.kernel.release, mods)
        self.assertEqual(calls(self.tmp.name), 1)

    def test_vmlinux_extracted_once(self):
        if not self.kernel.enabled("PVH"):
            self.skipTest("kernel 6.1 boots without a vmlinux")
        script = bootimage.extract_vmlinux(self.kernel)
        self.assertIsNotNone(script)
        paths = at_once(build_vmlinux, (self.tmp.name, self.kernel, script))
        self.assertEqual(calls(self.tmp.name), 1)
        self.assertEqual(len(set(paths)), 1)
        with open(paths[0], "rb") as f:
            self.assertEqual(f.read(4), b"\x7fELF")
        leftovers = [p for p in os.listdir(self.tmp.name)
                     if p.startswith("vmlinux.")]
        self.assertEqual(leftovers, [], "temporary files left")

    def test_caches_made_in_a_fresh_tree(self):
        # A fresh clone has no build/vm/ yet: each cache makes it.
        if self.kernel.enabled("PVH"):
            script = bootimage.extract_vmlinux(self.kernel)
            fresh = os.path.join(self.tmp.name, "vmlinux", "build", "vm")
            path, = at_once(fresh_vmlinux, (fresh, self.kernel, script), 1)
            self.assertTrue(path.startswith(fresh), path)
            self.assertTrue(os.path.isfile(path))
        mods = modfinder.module_files(
            self.kernel, machine.machine_for(self.kernel).guest_modules)
        fresh = os.path.join(self.tmp.name, "initramfs", "build", "vm")
        path, = at_once(fresh_initramfs, (fresh, self.kernel.release, mods), 1)
        self.assertTrue(path.startswith(fresh), path)
        self.assertTrue(os.path.isfile(path))


class RunDirTest(unittest.TestCase):
    """Run directories: one per run, removed when their runner is gone."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.saved = rundir.VMDIR
        rundir.VMDIR = self.tmp.name

    def tearDown(self):
        rundir.VMDIR = self.saved
        self.tmp.cleanup()

    def test_runs_get_their_own_directory(self):
        a, b = rundir.RunDir(), rundir.RunDir()
        self.assertNotEqual(a.path, b.path)
        self.assertEqual(os.stat(a.scratch).st_mode & 0o7777, 0o1777)
        a.close()
        self.assertFalse(os.path.exists(a.path))
        self.assertTrue(os.path.isdir(b.path))
        b.close()

    def test_only_dead_runs_are_reaped(self):
        dead = os.path.join(self.tmp.name, "run.dead")
        os.makedirs(dead)
        open(os.path.join(dead, "lock"), "w").close()
        kept = os.path.join(self.tmp.name, "run.kept")
        os.makedirs(kept)
        live = rundir.RunDir()
        old = rundir.RunDir()
        quiet(old.close, True)
        rundir.RunDir().close()
        self.assertFalse(os.path.exists(dead))
        self.assertTrue(os.path.isdir(kept))
        self.assertTrue(os.path.isdir(live.path))
        self.assertTrue(os.path.isdir(old.path))
        live.close()


if __name__ == "__main__":
    unittest.main()
