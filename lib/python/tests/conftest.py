# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared fixtures: tests marked ``device`` skip where /dev/asc_event is missing,
tests marked ``torch`` unless ASC_TEST_TORCH=1 and torch imports.  Every
report a launch hands back, in every test, must be free of host addresses
(a ``0x`` number but a region's offset such as ``UB+0x400``).

torch takes a minute to import in the guest (TCG): `make check` leaves its
tests out; `make check-all` runs them with the programs of its long run and sets
ASC_TEST_TORCH=1.
"""

import os
import re

import pytest

#: A host address in a report: a hex number not right after "UB+" and the like.
HOST_ADDRESS = re.compile(r"(?<![A-Za-z0-9]\+)\b0x[0-9a-fA-F]+")


def pytest_configure(config):
    config.addinivalue_line("markers", "device: needs the event device (run in the guest)")
    config.addinivalue_line("markers", "torch: needs torch, run with ASC_TEST_TORCH=1")


def _torch_skip():
    if os.environ.get("ASC_TEST_TORCH") != "1":
        return "torch is slow to import under TCG: ASC_TEST_TORCH=1 runs it"
    try:
        import torch  # noqa: F401
    except ImportError:
        return "torch is not installed (python3-torch)"
    return None


def pytest_collection_modifyitems(config, items):
    dev = os.environ.get("ASC_EVENT_DEV") or "/dev/asc_event"
    no_dev = None if os.path.exists(dev) else pytest.mark.skip(reason=f"no {dev}")
    no_torch = None
    if any(item.get_closest_marker("torch") for item in items):
        why = _torch_skip()
        no_torch = pytest.mark.skip(reason=why) if why else None
    for item in items:
        if no_dev and "device" in item.keywords:
            item.add_marker(no_dev)
        if no_torch and item.get_closest_marker("torch"):
            item.add_marker(no_torch)


@pytest.fixture(autouse=True)
def no_host_address_in_reports(monkeypatch):
    """Every report of the test's launches, line by line: no host address."""
    try:
        from asc import _libasc
    except (ImportError, OSError):
        yield
        return
    seen = []
    take = _libasc.take_report

    def taking(ptr):
        text = take(ptr)
        if text:
            seen.append(text)
        return text

    monkeypatch.setattr(_libasc, "take_report", taking)
    yield
    bad = [line for text in seen for line in text.splitlines() if HOST_ADDRESS.search(line)]
    assert not bad, "host addresses in reports:\n" + "\n".join(bad)
