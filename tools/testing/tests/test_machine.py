# SPDX-License-Identifier: GPL-2.0
"""tools/testing/ascvm/machine.py: which QEMU machine, and how many CPUs, a kernel
gets from its configuration; multi-threaded TCG only on a QEMU where it is
safe."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from ascvm.machine import host_tsc_khz, machine_for, tcg_threads  # noqa: E402


class FakeKernel:
    """A kernel whose configuration enables OPTIONS (names without
    CONFIG_)."""

    name = "fake"

    def __init__(self, *options):
        self.options = set(options)

    def enabled(self, option):
        """Whether CONFIG_OPTION is set."""
        return option in self.options


class MachineTest(unittest.TestCase):
    """machine_for() on the kinds of kernel asc-vm boots."""

    def test_pci_kernel_gets_pc_with_two_cpus(self):
        m = machine_for(FakeKernel("PCI"))
        self.assertEqual(m.args, ["-machine", "pc"])
        self.assertEqual(m.cpus, 2)

    def test_debug_kernel_gets_microvm_with_one_cpu(self):
        m = machine_for(FakeKernel("VIRTIO_MMIO_CMDLINE_DEVICES", "KASAN"))
        self.assertTrue(m.args[1].startswith("microvm,"))
        self.assertEqual(m.transport, "virtio_mmio")
        self.assertEqual(m.cpus, 1)

    def test_kcsan_kernel_gets_two_cpus(self):
        m = machine_for(FakeKernel("VIRTIO_MMIO_CMDLINE_DEVICES", "KCSAN"))
        self.assertTrue(m.args[1].startswith("microvm,"))
        self.assertEqual(m.cpus, 2)


class HostTscTest(unittest.TestCase):
    """host_tsc_khz(): the TSC's rate only where "cpu MHz" is that rate."""

    VM = ("processor\t: 0\ncpu MHz\t\t: 2096.024\n"
          "flags\t\t: fpu tsc constant_tsc nopl tsc_known_freq pni\n")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.none = os.path.join(self.tmp.name, "cpufreq")
        os.mkdir(self.none)

    def tearDown(self):
        self.tmp.cleanup()

    def test_a_virtual_machine_knows_it(self):
        self.assertEqual(host_tsc_khz(self.VM, self.none), 2096024)

    def test_unknown_without_a_known_constant_rate(self):
        for flag in ("constant_tsc", "tsc_known_freq"):
            self.assertIsNone(host_tsc_khz(self.VM.replace(" " + flag, ""), self.none))
        self.assertIsNone(host_tsc_khz("flags\t\t: constant_tsc tsc_known_freq\n",
                                       self.none))

    def test_unknown_where_cpufreq_scales_the_clock(self):
        os.mkdir(os.path.join(self.none, "policy0"))
        self.assertIsNone(host_tsc_khz(self.VM, self.none))


class TcgThreadsTest(unittest.TestCase):
    """tcg_threads(): one thread for several vCPUs before QEMU 8.1."""

    TCG = ["-accel", "tcg", "-cpu", "max"]
    SINGLE = ["-accel", "tcg,thread=single", "-cpu", "max"]

    def test_several_cpus_before_8_1_share_a_thread(self):
        for version in ((7, 2), (8, 0), (0,)):
            self.assertEqual(tcg_threads(self.TCG, 2, version), self.SINGLE)
            self.assertEqual(tcg_threads(self.TCG, 64, version), self.SINGLE)

    def test_one_cpu_or_a_fixed_qemu_keeps_its_threads(self):
        self.assertEqual(tcg_threads(self.TCG, 1, (7, 2)), self.TCG)
        self.assertEqual(tcg_threads(self.TCG, 2, (8, 1)), self.TCG)
        self.assertEqual(tcg_threads(self.TCG, 2, (10, 0)), self.TCG)

    def test_kvm_is_left_alone(self):
        kvm = ["-accel", "kvm", "-cpu", "host"]
        self.assertEqual(tcg_threads(kvm, 2, (7, 2)), kvm)


if __name__ == "__main__":
    unittest.main()
