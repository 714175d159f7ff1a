"""The API fuzzer (tests/support/fuzz_api.py) over every public callable, in a child process so that a
crash is a failure with its output rather than the end of the test run; and checks that the
fuzzer's own checks fail when they should."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import miopen_cy as mi
from support import fuzz_api

FUZZER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support", "fuzz_api.py")


def test_fuzz_every_public_callable_in_a_child_process(tmp_path):
    env = dict(os.environ, MIOPEN_USER_DB_PATH=str(tmp_path), OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, FUZZER, "--examples", "25"],
                       capture_output=True, text=True, env=env, timeout=1200)
    assert r.returncode == 0, (r.returncode, r.stdout[-4000:], r.stderr[-4000:])
    m = re.search(r"fuzz_api: (\d+) calls over (\d+) callables \(addresses from the sources\); "
                  r"(\d+) rejected", r.stdout)
    assert m, r.stdout
    calls, callables, rejected = map(int, m.groups())
    assert callables >= 100 and calls >= 25 * callables
    assert rejected >= calls // 2                    # mostly invalid, as intended
    print(r.stdout.strip())


def test_discovery_finds_every_mirrored_function_and_the_classes():
    names = {name for name, _, _ in fuzz_api.discover()}
    assert {"activationForward", "convolutionForward", "findConvolutionForwardAlgorithm",
            "setTensorDescriptor", "cyDeviceFree", "Handle", "TensorDescriptor",
            "DeviceBuffer"} <= names
    params = dict((n, p) for n, _, p in fuzz_api.discover())
    assert params["activationForward"] == ["handle", "activDesc", "alpha", "xDesc", "x", "beta",
                                           "yDesc", "y"]
    assert fuzz_api.pointer_params()["convolutionForward"] >= {"x", "w", "y", "workSpace"}


def test_the_checks_catch_a_write_before_a_rejection_and_an_untyped_error():
    out = np.full(4, np.nan, np.float32)

    def writes_then_raises(a):
        a[0] = 1.0
        raise ValueError("rejected after writing")

    with pytest.raises(AssertionError, match="wrote an output"):
        fuzz_api.check_call(writes_then_raises, "bad", [out], [out])

    def raises_untyped(a):
        raise RuntimeError("boom")

    out2 = np.full(4, np.nan, np.float32)
    with pytest.raises(AssertionError, match="RuntimeError"):
        fuzz_api.check_call(raises_untyped, "bad2", [out2], [out2])

    def raises_empty(a):
        raise TypeError("")

    with pytest.raises(AssertionError, match="without a message"):
        fuzz_api.check_call(raises_empty, "bad3", [out2], [out2])
    # A real rejection passes the checks.
    fuzz_api.check_call(mi.activationForward, "activationForward",
                        [mi.Handle(device="cpu"), None, 1.0, None, out2, 0.0, None, out2], [out2])
