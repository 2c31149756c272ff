# SPDX-License-Identifier: LGPL-2.1-or-later
"""README.md's Python example, as written there (run in the guest)."""

import os
import re

import pytest

import asc

pytestmark = pytest.mark.device

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "README.md")


def readme_python():
    """The one ```python block of README.md."""
    with open(README, encoding="utf-8") as f:
        blocks = re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)
    assert len(blocks) == 1, "README.md has %d Python blocks, not 1" % len(blocks)
    return blocks[0]


def test_readme_example_runs():
    exec(compile(readme_python(), "README.md", "exec"), {})


def test_readme_example_without_its_wait_flag_raises_missing_sync():
    lines = readme_python().splitlines()
    kept = [l for l in lines if "asc.wait_flag(" not in l]
    assert len(kept) == len(lines) - 1
    with pytest.raises(asc.MissingSyncError) as e:
        exec(compile("\n".join(kept), "README.md", "exec"), {})
    assert "missing wait" in e.value.report
