"""The CPU's conversion paths between fp32 and fp16/bf16 (cpu/storage_convert.cpp: portable, AVX2,
AVX-512 / AVX-512 BF16, chosen once per process and capped by MIOPEN_CY_DEBUG_CPU_ISA) give the
same bits, through the tensor calls that convert and round: each cap runs in its own subprocess
over all 65536 fp16 and bf16 values (miopenTransformTensor, alpha 1: widen then round back) and
over sums a + b that land exactly on, just below and just above the halfway point between two
neighbours of the storage type (miopenOpTensor Add: fp32 sums that are exact, rounded once),
denormals, overflow to Inf and NaN included. The bits must agree across the caps and with NumPy's
and ml_dtypes' round-to-nearest-even casts."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import miopen_cy as mi
from support.dtypes import BFLOAT16

SCRIPT = r"""
import sys, numpy as np, miopen_cy as mi
try:
    import ml_dtypes
    types = [(mi.miopenHalf, np.dtype(np.float16), 10)] + \
            [(mi.miopenBFloat16, np.dtype(ml_dtypes.bfloat16), 7)]
except ImportError:
    types = [(mi.miopenHalf, np.dtype(np.float16), 10)]
h = mi.Handle(device="cpu")

def desc(dt, n):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dt, 1, (n,), None)
    return d

out = {}
for dt, npt, mant in types:
    every = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(npt)
    y = np.full(every.shape, 0, npt)
    d = desc(dt, every.size)
    mi.transformTensor(h, 1.0, d, every, 0.0, d, y)
    out[f"{int(dt)}-every"] = y.view(np.uint16).tobytes().hex()
    # a: every finite value; b: half the gap above a, and that nudged down and up by one unit
    # of b's own type (all exact in the type; a + b exact in fp32)
    a = every[np.isfinite(every.astype(np.float32))]
    a32 = a.astype(np.float32)
    exp = np.floor(np.log2(np.maximum(np.abs(a32), np.float32(2.0 ** -133)))).astype(np.int32)
    half_gap = np.ldexp(np.float32(1.0), exp - mant - 1).astype(np.float32)
    rows_a, rows_b = [], []
    for scale in (1.0, 1.0 - 2.0 ** -(mant + 1), 1.0 + 2.0 ** -mant):
        b = (half_gap * np.float32(scale)).astype(npt)
        ok = (b.astype(np.float32) != 0) & np.isfinite(b.astype(np.float32))
        rows_a.append(a[ok]); rows_b.append(b[ok])
    A = np.concatenate(rows_a); B = np.concatenate(rows_b)
    C = np.full(A.shape, 0, npt)
    d = desc(dt, A.size)
    mi.opTensor(h, mi.miopenTensorOpAdd, 1.0, d, A, 1.0, d, B, 0.0, d, C)
    out[f"{int(dt)}-ties"] = C.view(np.uint16).tobytes().hex()
    out[f"{int(dt)}-ties-a"] = A.view(np.uint16).tobytes().hex()
    out[f"{int(dt)}-ties-b"] = B.view(np.uint16).tobytes().hex()
import json; json.dump(out, sys.stdout)
"""


def run_capped(cap, tmp_path):
    env = dict(os.environ)
    env.pop("MIOPEN_CY_DEBUG_CPU_ISA", None)
    if cap is not None:
        env["MIOPEN_CY_DEBUG_CPU_ISA"] = cap
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_conversion_paths_give_the_same_bits_and_round_to_nearest_even(tmp_path):
    results = {cap: run_capped(cap, tmp_path) for cap in (None, "avx512", "avx2", "none")}
    base = results["none"]
    for cap, got in results.items():
        assert got.keys() == base.keys()
        for key in base:
            assert got[key] == base[key], f"MIOPEN_CY_DEBUG_CPU_ISA={cap}: {key} differs from the portable path"
    types = [(str(int(mi.miopenHalf)), np.dtype(np.float16))]
    if BFLOAT16 is not None:
        types.append((str(int(mi.miopenBFloat16)), BFLOAT16))
    for code, npt in types:
        def arr(key):
            return np.frombuffer(bytes.fromhex(base[f"{code}-{key}"]), np.uint16).view(npt)
        every = np.arange(65536, dtype=np.uint32).astype(np.uint16)
        y = arr("every")
        nan = np.isnan(every.view(npt).astype(np.float32))
        assert np.array_equal(y.view(np.uint16)[~nan], every[~nan])      # widen, round back
        assert np.all(np.isnan(y[nan].astype(np.float32)))              # NaN stays NaN
        assert np.array_equal(np.signbit(y[nan].astype(np.float32)),
                              np.signbit(every.view(npt)[nan].astype(np.float32)))
        A, B, C = arr("ties-a"), arr("ties-b"), arr("ties")
        with np.errstate(over="ignore"):        # sums past the type's range round to Inf
            expect = (A.astype(np.float32) + B.astype(np.float32)).astype(npt)  # RNE, once
        assert np.array_equal(C.view(np.uint16), expect.view(np.uint16))
        assert A.size > 3 * 60000
