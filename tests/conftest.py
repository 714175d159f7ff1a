"""Shared fixtures: every test that takes `handle` runs on each device present (the CPU always,
the GPU when one is built in and present), so the GPU runs exactly what the CPU runs."""
import os
import zlib

import numpy as np
import pytest

import miopen_cy as mi


def _gpu_available():
    try:
        mi.Handle(device="gpu")
        return True
    except mi.MIOpenError:
        return False


GPU = _gpu_available()
requires_gpu = pytest.mark.skipif(not GPU, reason="no GPU backend or no GPU on this machine")


@pytest.fixture(params=["cpu", pytest.param("gpu", marks=requires_gpu)])
def handle(request):
    return mi.Handle(device=request.param)


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
    monkeypatch.setenv("MIOPEN_USER_DB_PATH", str(tmp_path_factory.mktemp("finddb")))
