#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-launch-holder.py SECONDS: hold a mix launch of one AI core open.

Its three cores (one AIC, two AIVs) each sleep SECONDS in the kernel, so
that `ascctl dump` sees their TPipes joined to the launch;
tools/testing/asc-check-guest runs it in the background and checks the dump.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "lib", "python"))
import asc  # noqa: E402 (the tree's package, found above)


def main(argv):
    """Run the launch; it ends when every core has slept."""
    if len(argv) != 1:
        sys.exit(__doc__)
    seconds = float(argv[0])

    @asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)
    def hold():
        time.sleep(seconds)

    hold[1]()


if __name__ == "__main__":
    main(sys.argv[1:])
