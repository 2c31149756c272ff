# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-vm end to end, with fake-qemu/ playing the guest on the host.

Everything before QEMU is real (kernel 6.1, its vmlinux and initramfs in
build/vm/, the run directory); the fake reads the run directory and runs
the command as the guest would.  These tests check what the runner makes
of the guest's results: exit statuses, messages, the environment the
command gets, its output, and the run directory's life.
"""

import glob
import os
import signal
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ASC_VM = os.path.join(TOP, "tools", "testing", "asc-vm")
FAKE_QEMU = os.path.join(HERE, "fake-qemu")
VMDIR = os.path.join(TOP, "build", "vm")


def run_dirs():
    """The run directories that exist now."""
    return set(glob.glob(os.path.join(VMDIR, "run.*")))


def run_dir_of(token):
    """The run directory whose command holds @token, or None: real guests
    (make check runs several at once) have theirs beside the tests'."""
    for d in run_dirs():
        try:
            with open(os.path.join(d, "cmd.sh"), encoding="utf-8") as f:
                if token in f.read():
                    return d
        except OSError:
            continue
    return None


def environment(extra=None, path_first=FAKE_QEMU):
    """The runner's environment: the fake QEMU first in PATH, TCG."""
    env = dict(os.environ)
    for name in list(env):
        if name.startswith(("FAKE_GUEST", "ASC_VM_")):
            del env[name]
    env["PATH"] = path_first + ":" + env.get("PATH", "/usr/bin:/bin")
    env["ASC_VM_ACCEL"] = "tcg"
    env.update(extra or {})
    return env


def asc_vm(args, extra=None, path_first=FAKE_QEMU, cwd=TOP):
    """Run tools/testing/asc-vm ARGS; its CompletedProcess, output as text."""
    return subprocess.run([ASC_VM] + args, env=environment(extra, path_first),
                          cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=300,
                          check=False)


@unittest.skipUnless(glob.glob("/boot/vmlinuz-6.1.*-amd64"),
                     "kernel 6.1 is not installed")
class RunnerTest(unittest.TestCase):
    """The runner's verdicts and what the command sees."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.module = os.path.join(self.tmp.name, "asc-event.ko")
        with open(self.module, "w") as f:
            f.write("not a module\n")

    def tearDown(self):
        self.tmp.cleanup()

    def assertStatus(self, proc, status):
        self.assertEqual(proc.returncode, status,
                         "stdout:\n%s\nstderr:\n%s" % (proc.stdout,
                                                       proc.stderr))

    def test_success_is_quiet(self):
        proc = asc_vm(["--no-module", "--", "true"])
        self.assertStatus(proc, 0)
        self.assertIn("asc-vm: kernel 6.1: ", proc.stderr)
        self.assertIn("asc-vm: kernel log: 0 findings", proc.stderr)
        self.assertNotIn("----", proc.stderr)

    def test_command_status_and_output_pass_through(self):
        proc = asc_vm(["--no-module", "--", "sh", "-c",
                       "echo out; echo err >&2; exit 3"])
        self.assertStatus(proc, 3)
        self.assertEqual(proc.stdout, "out\n")
        self.assertIn("\nerr\n", proc.stderr)
        self.assertIn("asc-vm: FAIL: command exited with status 3",
                      proc.stderr)
        self.assertIn("guest kernel log (from the start of the test)",
                      proc.stderr)

    def check_skip(self, status):
        proc = asc_vm(["--no-module", "--", "sh", "-c", "exit %d" % status])
        self.assertStatus(proc, status)
        self.assertIn("asc-vm: SKIP: command exited with status %d" % status,
                      proc.stderr)
        self.assertNotIn("FAIL", proc.stderr)
        self.assertNotIn("guest kernel log", proc.stderr)

    def test_kselftest_skip_passes_through(self):
        self.check_skip(4)

    def test_automake_skip_passes_through(self):
        self.check_skip(77)

    def test_skip_with_kernel_log_findings_fails(self):
        proc = asc_vm(["--no-module", "--", "sh", "-c", "exit 4"],
                      {"FAKE_GUEST_DMESG": "[    1.5] WARNING: CPU: 0 fake"})
        self.assertStatus(proc, 1)
        self.assertIn("asc-vm: kernel log: 1 findings", proc.stderr)
        self.assertIn("asc-vm: FAIL: command skipped (status 4); the kernel "
                      "log shows problems", proc.stderr)
        self.assertIn("    [    1.5] WARNING: CPU: 0 fake", proc.stderr)

    def test_kernel_log_findings_fail(self):
        proc = asc_vm(["--no-module", "--", "true"],
                      {"FAKE_GUEST_DMESG": "[ 1.1] BUG: fake\n[ 1.2] fine\n"
                                           "[ 1.3] Call Trace:"})
        self.assertStatus(proc, 1)
        self.assertIn("asc-vm: kernel log: 2 findings", proc.stderr)
        self.assertIn("asc-vm: FAIL: the kernel log shows problems",
                      proc.stderr)

    def test_kcsan_report_fails(self):
        report = ("[ 9.1] ==================================================\n"
                  "[ 9.1] BUG: KCSAN: data-race in asc_a [asc_event] / "
                  "asc_b [asc_event]\n"
                  "[ 9.1] \n"
                  "[ 9.1] write to 0xffff888003c1e0a8 of 4 bytes by task 71 "
                  "on cpu 1:\n"
                  "[ 9.1]  asc_a+0x3c/0x90 [asc_event]\n")
        proc = asc_vm(["--no-module", "--", "true"],
                      {"FAKE_GUEST_DMESG": report})
        self.assertStatus(proc, 1)
        self.assertIn("asc-vm: kernel log: 1 findings", proc.stderr)
        self.assertIn("    [ 9.1] BUG: KCSAN: data-race in asc_a", proc.stderr)
        self.assertIn("asc-vm: FAIL: the kernel log shows problems",
                      proc.stderr)

    def test_insmod_failure(self):
        proc = asc_vm(["--module", self.module, "--", "true"],
                      {"FAKE_GUEST_INSMOD": "1"})
        self.assertStatus(proc, 1)
        self.assertIn("asc-vm: FAIL: insmod failed", proc.stderr)

    def test_rmmod_failure(self):
        proc = asc_vm(["--module", self.module, "--", "true"],
                      {"FAKE_GUEST_RMMOD": "1"})
        self.assertStatus(proc, 1)
        self.assertIn("asc-vm: FAIL: rmmod failed", proc.stderr)

    def test_guest_panic_is_125(self):
        proc = asc_vm(["--no-module", "--", "true"], {"FAKE_GUEST": "panic"})
        self.assertStatus(proc, 125)
        self.assertIn("asc-vm: ---- guest console ----\nfake guest console\n",
                      proc.stderr)
        self.assertIn("asc-vm: the guest kernel panicked", proc.stderr)

    def test_guest_death_is_125_with_the_free_disk(self):
        proc = asc_vm(["--no-module", "--", "true"], {"FAKE_GUEST": "die"})
        self.assertStatus(proc, 125)
        self.assertIn("asc-vm: the guest died before the command finished "
                      "(qemu status 0)", proc.stderr)
        self.assertRegex(proc.stderr, r"asc-vm: [0-9]+ MiB free on the disk "
                         r"of the run directory\n")

    def test_timeout_is_124(self):
        start = time.monotonic()
        proc = asc_vm(["--no-module", "--timeout", "1", "--", "true"],
                      {"FAKE_GUEST": "hang"})
        self.assertStatus(proc, 124)
        self.assertLess(time.monotonic() - start, 60)
        self.assertIn("asc-vm: timeout: the guest did not finish within 1 s",
                      proc.stderr)

    def test_module_build_failure_is_125(self):
        # A `make` that fails stands for a broken module build.
        fake = os.path.join(self.tmp.name, "bin")
        os.mkdir(fake)
        with open(os.path.join(fake, "make"), "w") as f:
            f.write("#!/bin/sh\necho 'make: fake failure' >&2\nexit 2\n")
        os.chmod(os.path.join(fake, "make"), 0o755)
        proc = asc_vm(["--", "true"], path_first=fake + ":" + FAKE_QEMU)
        self.assertStatus(proc, 125)
        self.assertIn("asc-vm: building the module for ", proc.stderr)

    def test_usage_errors_are_2(self):
        for args in (["--bogus", "--", "true"], [], ["--kernel"],
                     ["--timeout", "0", "--", "true"],
                     ["--kernel", "nope", "--", "true"],
                     ["--no-module", "--module", "x", "--", "true"],
                     ["--cpus", "0", "--", "true"],
                     ["--cpus", "65", "--", "true"],
                     ["--cpus", "two", "--", "true"]):
            proc = asc_vm(args)
            self.assertStatus(proc, 2)
            self.assertIn("usage: tools/testing/asc-vm", proc.stderr)

    def test_cpus_reach_qemu(self):
        for args, env, smp in (([], {}, "2"), (["--cpus", "1"], {}, "1"),
                               (["--cpus=64"], {}, "64"),
                               ([], {"ASC_VM_CPUS": "3"}, "3"),
                               (["--cpus", "1"], {"ASC_VM_CPUS": "3"}, "1")):
            proc = asc_vm(["--no-module"] + args +
                          ["--", "sh", "-c", "echo $FAKE_QEMU_SMP"], env)
            self.assertStatus(proc, 0)
            self.assertEqual(proc.stdout, smp + "\n", args)

    def test_tcg_threads_by_cpus_and_qemu_version(self):
        for args, version, accel in (([], "7.2.0", "tcg,thread=single"),
                                     (["--cpus", "1"], "7.2.0", "tcg"),
                                     ([], "8.0.5", "tcg,thread=single"),
                                     ([], "8.1.0", "tcg"),
                                     ([], "10.0.2", "tcg")):
            proc = asc_vm(["--no-module"] + args +
                          ["--", "sh", "-c", "echo $FAKE_QEMU_ACCEL"],
                          {"FAKE_QEMU_VERSION": version})
            self.assertStatus(proc, 0)
            self.assertEqual(proc.stdout, accel + "\n", (args, version))
            self.assertEqual("TCG on one thread" in proc.stderr,
                             accel != "tcg", proc.stderr)

    def test_guest_environment(self):
        cwd = os.path.join(TOP, "tools", "testing")
        proc = asc_vm(["--module", self.module, "--module-args",
                       "event_ids=4", "--", "sh", "-c", "env; pwd"],
                      {"ASC_TEST_SETTING": "a b", "KSFT_TEST": "1",
                       "ASC_VM_PRIVATE": "no", "OTHER_VAR": "no"}, cwd=cwd)
        self.assertStatus(proc, 0)
        lines = proc.stdout.splitlines()
        env = dict(line.split("=", 1) for line in lines if "=" in line)
        self.assertEqual(lines[-1], cwd)
        for name, value in (("ASC_VM", "1"), ("HOME", "/tmp"),
                            ("TMPDIR", "/tmp"), ("USER", "root"),
                            ("ASC_VM_MODULE_ARGS", "event_ids=4"),
                            ("ASC_EVENT_KO", os.path.realpath(self.module)),
                            ("ASC_TEST_SETTING", "a b"), ("KSFT_TEST", "1")):
            self.assertEqual(env.get(name), value, name)
        self.assertNotIn("ASC_VM_PRIVATE", env)
        self.assertNotIn("OTHER_VAR", env)
        self.assertIn("/usr/sbin", env["PATH"].split(":"))
        self.assertRegex(env["ASC_VM_SCRATCH"],
                         "^%s/run\\.[^/]+/scratch$" % VMDIR)

    def test_output_copies_scratch(self):
        dest = os.path.join(self.tmp.name, "out", "more")
        proc = asc_vm(["--no-module", "--output", dest, "--", "sh", "-c",
                       'mkdir "$ASC_VM_SCRATCH/d" && echo x >"$ASC_VM_SCRATCH'
                       '/d/f"'])
        self.assertStatus(proc, 0)
        with open(os.path.join(dest, "d", "f")) as f:
            self.assertEqual(f.read(), "x\n")
        # DEST is made as mkdir -p would, not with the scratch's 1777.
        umask = os.umask(0o22)
        os.umask(umask)
        self.assertEqual(os.stat(dest).st_mode & 0o7777, 0o777 & ~umask)

    def test_run_directory_removed_or_kept(self):
        proc = asc_vm(["--no-module", "--", "sh", "-c", 'echo "$ASC_VM_SCRATCH"'])
        self.assertStatus(proc, 0)
        self.assertFalse(os.path.exists(os.path.dirname(proc.stdout.strip())))
        proc = asc_vm(["--no-module", "--", "sh", "-c", 'echo "$ASC_VM_SCRATCH"'],
                      {"ASC_VM_KEEP": "1"})
        self.assertStatus(proc, 0)
        kept = os.path.dirname(proc.stdout.strip())
        self.assertIn("asc-vm: kept " + kept, proc.stderr)
        self.assertTrue(os.path.isfile(os.path.join(kept, "result")))
        subprocess.run(["rm", "-rf", kept], check=True)

    def test_runs_at_once_have_their_own_run_directory(self):
        cmd = [ASC_VM, "--no-module", "--", "sh", "-c",
               'echo "$ASC_VM_SCRATCH"; sleep 2; test -z "$(ls -A '
               '"$ASC_VM_SCRATCH")" && touch "$ASC_VM_SCRATCH/mine"']
        procs = [subprocess.Popen(cmd, env=environment(), cwd=TOP,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
                 for _ in range(3)]
        outs = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, outs):
            self.assertEqual(p.returncode, 0, err)
        self.assertEqual(len({out for out, _ in outs}), 3)
        for out, _ in outs:
            self.assertFalse(os.path.exists(os.path.dirname(out.strip())))

    def test_interrupted_runner_cleans_up(self):
        token = "interrupted-%d" % os.getpid()
        proc = subprocess.Popen([ASC_VM, "--no-module", "--", "true", token],
                                env=environment({"FAKE_GUEST": "hang"}),
                                cwd=TOP, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        console = None
        for _ in range(600):
            mine = run_dir_of(token)
            if mine and os.path.exists(os.path.join(mine, "console.log")):
                console = mine
                break
            time.sleep(0.1)
        self.assertIsNotNone(console, "the fake guest did not start")
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM)
        self.assertFalse(os.path.exists(console))
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open("/proc/%s/cmdline" % pid, "rb") as f:
                        cmdline = f.read()
                except OSError:
                    continue
                self.assertNotIn(console.encode(), cmdline,
                                 "QEMU %s outlived the runner" % pid)


if __name__ == "__main__":
    unittest.main()
