"""Shared fixtures: every test that takes `handle` runs on each device present (the CPU always,
the GPU when one is built in and present), so the GPU runs exactly what the CPU runs.

On the GPU the tests pass NumPy arrays, which a GPU handle stages (copies in and back); the
one-time PerformanceWarning that says so is expected there. An op whose GPU kernel does not exist
yet raises MIOpenNotImplementedError "... on the GPU is not implemented yet": such a GPU test is
reported as skipped with that message (never silently passed). Tests that take no `handle` and
create their own with mi.Handle() run on the CPU (MIOPEN_CY_DEVICE=cpu), as they were written."""
import os
import zlib

import numpy as np
import pytest

import miopen_cy as mi
from support.devices import requires_gpu




@pytest.fixture(params=["cpu", pytest.param(
    "gpu", marks=[requires_gpu, pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")])])
def handle(request):
    return mi.Handle(device=request.param)


GPU_NOT_IMPLEMENTED = "on the GPU is not implemented yet"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if (call.when == "call" and call.excinfo is not None
            and call.excinfo.errisinstance(mi.MIOpenNotImplementedError)
            and GPU_NOT_IMPLEMENTED in str(call.excinfo.value)):
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0,
                           f"Skipped: {call.excinfo.value}")
    return report


@pytest.fixture
def rng(request):
    # A stable seed per test, so a failure reproduces.
    seed = zlib.crc32(request.node.nodeid.encode())
    return np.random.default_rng(seed)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path_factory):
    # Tests that set MIOPEN_* variables use monkeypatch; start each test without stray ones, and
    # with a find-db of its own (never the user's ~/.cache).
    for name in list(os.environ):
        if name.startswith("MIOPEN_"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MIOPEN_CY_DEVICE", "cpu")
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path_factory.mktemp("finddb")))
