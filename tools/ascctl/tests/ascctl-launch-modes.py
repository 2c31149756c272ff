#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ascctl-launch-modes.py: two launches whose trace is ascctl-modes.trace.

A mix launch of block_dim 2 (AICs 0-1, AIVs 2-5): the AICs set flag 1 in
mode 0 twice each before they wait for it twice; the AIVs set flag 2 in
mode 0 twice and wait for it twice, then hand flag 3 between the two
AIVs of each AI core in mode 1, and set flag 2 in mode 1 once more (the
counter that mode 0 counted on).  A vector-only launch of 8 cores: three
rounds of SyncAll, another core arriving last in each, and a mode 0 set
of flag 4 by every core that each waits for.  The cores sleep by their
block index so that sets wait in their queues for the group to complete.

Recorded in a guest (tools/testing/asc-vm --cpus 2) with the asc_event events of
tracefs on and `cat trace` afterwards; tools/ascctl/tests/ascctl-launches.py
checks ascctl's arrows for it.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "lib", "python"))
import asc  # noqa: E402 (the tree's package, found above)

P = asc.PipeID
STEP = 0.02


def mix_modes():
    """Mode 0 on the AICs and the AIVs, mode 1 on each AIV pair."""
    if asc.get_sub_block_num() == 1:
        time.sleep(STEP * asc.get_block_idx())
        asc.cross_core_set_flag(1, 0, P.PIPE_FIX)
        asc.cross_core_set_flag(1, 0, P.PIPE_FIX)
        asc.cross_core_wait_flag(1, 0, P.PIPE_S)
        asc.cross_core_wait_flag(1, 0, P.PIPE_S)
        return
    v = asc.get_block_idx()
    time.sleep(STEP * (3 - v))
    asc.cross_core_set_flag(2, 0, P.PIPE_MTE3)
    asc.cross_core_set_flag(2, 0, P.PIPE_V)
    asc.cross_core_wait_flag(2, 0, P.PIPE_S)
    asc.cross_core_wait_flag(2, 0, P.PIPE_S)
    time.sleep(STEP * (v % 2))
    asc.cross_core_set_flag(3, 1, P.PIPE_MTE3)
    asc.cross_core_wait_flag(3, 0, P.PIPE_S)
    asc.cross_core_set_flag(3, 1, P.PIPE_V)
    asc.cross_core_set_flag(2, 1, P.PIPE_MTE3)
    asc.cross_core_wait_flag(3, 0, P.PIPE_S)
    asc.cross_core_wait_flag(2, 0, P.PIPE_S)


def sync_rounds():
    """Three SyncAll rounds, core 3 * r % 8 last in round r; then mode 0."""
    i = asc.get_block_idx()
    for r in range(3):
        if i == 3 * r % 8:
            time.sleep(5 * STEP)
        asc.sync_all()
    time.sleep(STEP * (i % 3))
    asc.cross_core_set_flag(4, 0, P.PIPE_MTE3)
    asc.cross_core_wait_flag(4, 0, P.PIPE_S)


def main():
    """Run both launches."""
    asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)(mix_modes)[2]()
    asc.jit(sync_rounds)[8]()


if __name__ == "__main__":
    main()
