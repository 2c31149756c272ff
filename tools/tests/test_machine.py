# SPDX-License-Identifier: GPL-2.0
"""tools/ascvm/machine.py: which QEMU machine, and how many CPUs, a kernel
gets from its configuration; multi-threaded TCG only on a QEMU where it is
safe."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from ascvm.machine import machine_for, tcg_threads  # noqa: E402


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
