# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared fixtures: tests marked ``device`` skip where /dev/asc_event is missing."""

import os

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "device: needs the event device (run in the guest)")


def pytest_collection_modifyitems(config, items):
    dev = os.environ.get("ASC_EVENT_DEV") or "/dev/asc_event"
    if os.path.exists(dev):
        return
    skip = pytest.mark.skip(reason=f"no {dev}")
    for item in items:
        if "device" in item.keywords:
            item.add_marker(skip)
