# SPDX-License-Identifier: GPL-2.0
"""tools/testing/kernels/asc-debug-kernel (asccheck/kernelbuild.py): its
command line, the identity of a build from a small fake source tarball,
the check that Kconfig took every option of the fragments, and --prune."""

import contextlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import kernelbuild  # noqa: E402

SCRIPT = os.path.join(TOP, "tools", "testing", "kernels", "asc-debug-kernel")
FAKE_MAKEFILE = r"""
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 99
EXTRAVERSION =
REL = $(VERSION).$(PATCHLEVEL).$(SUBLEVEL)$(shell sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"/\1/p' $(O)/.config)

tinyconfig:
	echo "CONFIG_TINY=y" > $(O)/.config
	echo "$(FOO)" > $(O)/make-vars

olddefconfig:
	grep -v DROPPED $(O)/.config > $(O)/.config.new; mv $(O)/.config.new $(O)/.config

all:
	mkdir -p $(O)/include/config $(O)/arch/x86/boot $(O)/scripts/mod
	echo $(REL) > $(O)/include/config/kernel.release
	touch $(O)/vmlinux $(O)/arch/x86/boot/bzImage $(O)/Module.symvers $(O)/scripts/mod/modpost
	echo built >> $(O)/builds

modules_install:
	mkdir -p $(INSTALL_MOD_PATH)/lib/modules/$(REL)
	touch $(INSTALL_MOD_PATH)/lib/modules/$(REL)/modules.dep $(INSTALL_MOD_PATH)/lib/modules/$(REL)/modules.builtin
"""
MERGE = """#!/bin/sh
# merge_config.sh -m -O DIR FILE...: the files one after another.
shift 3
cat "$@" > .config.merged && mv .config.merged .config
"""
MAKEFILE = ("# SPDX\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n"
            "EXTRAVERSION = -rc1\nNAME = Test\nVERSION = 7\n")


def no_package(path):
    """kernelbuild.package_of for a tarball no package owns, without
    asking dpkg (which takes seconds on a busy machine)."""
    del path
    return "", ""


def write(path, text):
    """Write TEXT to PATH; PATH."""
    with open(path, "w") as f:
        f.write(text)
    return path


class FakeTree(unittest.TestCase):
    """A tree with the guest fragment and NAME-kernel.config, and a source
    tarball of SOURCE_MAKEFILE (and MERGE as merge_config.sh)."""

    NAME = "test"
    SOURCE_MAKEFILE = MAKEFILE
    MERGE = None

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.top = self.tmp.name
        self.package_of = kernelbuild.package_of
        kernelbuild.package_of = no_package
        kernels = os.path.join(self.top, "tools", "testing", "kernels")
        os.makedirs(kernels)
        write(kernels + "/guest-kernel.config",
              "CONFIG_VIRTIO=y\n# make: FOO=bar\n")
        self.fragment = write(kernels + "/%s-kernel.config" % self.NAME,
                              "CONFIG_KASAN=y\n# CONFIG_SMP is not set\n")
        src = os.path.join(self.top, "src", "linux-source-6.1")
        os.makedirs(src + "/scripts/kconfig")
        write(src + "/Makefile", self.SOURCE_MAKEFILE)
        if self.MERGE:
            os.chmod(write(src + "/scripts/kconfig/merge_config.sh",
                           self.MERGE), 0o755)
        self.source = os.path.join(self.top, "linux.tar.xz")
        with tarfile.open(self.source, "w:xz") as t:
            t.add(src, arcname="linux-source-6.1")

    def tearDown(self):
        kernelbuild.package_of = self.package_of
        self.tmp.cleanup()


class KernelBuildTest(FakeTree):
    """The identity of a build, the checks, --prune, the command line."""

    def build(self):
        return kernelbuild.Build(self.top, self.source, self.fragment)

    def test_identity_of_a_build(self):
        b = self.build()
        self.assertEqual(b.name, "test")
        self.assertEqual(b.package, "none")
        self.assertRegex(b.version, r"^sha256-[0-9a-f]{12}$")
        self.assertEqual(b.makevars, ["FOO=bar"])
        self.assertEqual(b.dir, os.path.join(self.top, "build", "kernel",
                                             "test-%s-%s" % (b.version,
                                                             b.sha[:12])))
        self.assertEqual(b.release(), "6.1.99-rc1-asc-test-" + b.sha[:8])
        info = dict(line.split("=", 1) for line in b.info())
        self.assertEqual(info["built"], "no")
        self.assertEqual(info["fragment_sha256"], b.sha)
        before = b.sha
        write(self.fragment, "CONFIG_KASAN=y\n")
        self.assertNotEqual(self.build().sha, before)

    def test_a_stamp_of_this_build_makes_it_built(self):
        b = self.build()
        os.makedirs(os.path.join(b.dir, "include", "config"))
        write(os.path.join(b.dir, "include/config/kernel.release"),
                   "6.1.99-x\n")
        write(b.stamp, b.stamp_text().replace("version=", "version=old"))
        self.assertFalse(b.built())
        write(b.stamp, b.stamp_text())
        self.assertTrue(b.built())
        self.assertEqual(b.release(), "6.1.99-x")

    def test_unmet_options(self):
        config = ("CONFIG_A=y\nCONFIG_B=m\nCONFIG_C=y\n"
                  "# CONFIG_D is not set\n")
        base = "CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n"
        fragment = "CONFIG_E=y\n# CONFIG_D is not set\nCONFIG_A=y\n"
        self.assertEqual(kernelbuild.unmet(config, base, fragment),
                         ["CONFIG_B=y (got m)", "CONFIG_C off (got y)",
                          "CONFIG_E=y (not set)"])
        self.assertEqual(kernelbuild.unmet(config, "CONFIG_C=y\n",
                                           "# CONFIG_C is not set\n"),
                         ["CONFIG_C off (got y)"])

    def test_bad_make_line(self):
        with self.assertRaises(kernelbuild.Failed):
            kernelbuild.make_vars("# make: FOO=$(shell rm)\n")

    def test_prune_keeps_the_current_builds(self):
        b = self.build()
        root = os.path.join(self.top, "build", "kernel")
        for d in (b.dir, b.srcdir, root + "/test-old-123",
                  root + "/src-old", root + "/guest-x-y"):
            os.makedirs(d)
        with contextlib.redirect_stderr(io.StringIO()) as said:
            b.prune()
        self.assertIn("removing %s/test-old-123" % root, said.getvalue())
        self.assertEqual(sorted(os.listdir(root)),
                         sorted([os.path.basename(b.dir),
                                 os.path.basename(b.srcdir)]))

    def test_command_line(self):
        # A dpkg-query that knows no file: dpkg takes seconds when busy.
        bindir = os.path.join(self.top, "bin")
        os.mkdir(bindir)
        os.chmod(write(bindir + "/dpkg-query", "#!/bin/sh\nexit 1\n"), 0o755)
        env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])

        def run(*args):
            return subprocess.run([SCRIPT] + list(args), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env,
                                  check=False)
        for args, says in ((["--bogus"], "unknown argument '--bogus'"),
                           (["-j", "0"], "bad -j '0'"),
                           (["--config"], "--config needs an argument")):
            p = run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("asc-debug-kernel: " + says, p.stderr)
            self.assertIn("usage: tools/testing/kernels/asc-debug-kernel",
                          p.stderr)
        p = run("--config", "/nonexistent.config", "--info")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no config fragment /nonexistent.config", p.stderr)
        p = run("--source=/nonexistent.tar.xz", "--info")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no kernel source /nonexistent.tar.xz", p.stderr)
        p = run("--source", self.source, "--info")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"(?m)^release=6\.1\.99-rc1-asc-debug-")
        self.assertEqual(run("--help").returncode, 0)

    def test_prerequisites_are_looked_up_on_path(self):
        path = os.environ.get("PATH", "")
        os.environ["PATH"] = self.top
        try:
            self.assertEqual(kernelbuild.missing_prerequisite(),
                             "make not found")
        finally:
            os.environ["PATH"] = path

    def test_name_of_a_fragment(self):
        odd = write(os.path.join(self.top, "Odd_Name.config"), "")
        with self.assertRaises(kernelbuild.Failed):
            kernelbuild.Build(self.top, self.source, odd)


class FakeSourceBuildTest(FakeTree):
    """A whole build, from a fake kernel source whose Makefile and
    merge_config.sh do what the kernel's do in a few lines."""

    NAME = "fake"
    SOURCE_MAKEFILE = FAKE_MAKEFILE
    MERGE = MERGE

    def setUp(self):
        super().setUp()
        self.missing = kernelbuild.missing_prerequisite
        kernelbuild.missing_prerequisite = lambda: None

    def tearDown(self):
        kernelbuild.missing_prerequisite = self.missing
        super().tearDown()

    def build(self):
        b = kernelbuild.Build(self.top, self.source, self.fragment)
        with contextlib.redirect_stderr(io.StringIO()) as said:
            try:
                return b, b.build("2"), said.getvalue()
            except kernelbuild.Failed as e:
                return b, e, said.getvalue()

    def test_built_once(self):
        b, out, said = self.build()
        self.assertEqual(out, b.dir, said)
        self.assertTrue(b.built())
        release = "6.1.99-asc-fake-" + b.sha[:8]
        self.assertEqual(b.release(), release)
        self.assertIn("built %s in " % release, said)
        with open(os.path.join(b.dir, "make-vars")) as f:
            self.assertEqual(f.read(), "bar\n")
        self.assertTrue(os.path.isfile(os.path.join(
            b.dir, "mod/lib/modules", release, "modules.dep")))
        _, again, said = self.build()
        self.assertEqual((again, said), (b.dir, ""))
        with open(os.path.join(b.dir, "builds")) as f:
            self.assertEqual(f.read(), "built\n")

    def test_a_missing_tool_fails_before_building(self):
        kernelbuild.missing_prerequisite = lambda: "bison not found"
        b, out, said = self.build()
        self.assertIsInstance(out, kernelbuild.Failed)
        self.assertEqual(str(out), "bison not found; run "
                         "tools/scripts/asc-install-deps --all")
        self.assertFalse(b.built())
        self.assertFalse(os.path.exists(b.dir))

    def test_an_option_kconfig_dropped_fails(self):
        write(self.fragment, "CONFIG_KASAN=y\nCONFIG_DROPPED=y\n")
        b, out, said = self.build()
        self.assertIsInstance(out, kernelbuild.Failed)
        self.assertIn("Kconfig did not take these options", said)
        self.assertIn("    CONFIG_DROPPED=y (not set)\n", said)
        self.assertFalse(b.built())


if __name__ == "__main__":
    unittest.main()
