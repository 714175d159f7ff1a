"""MIOPEN_CY_MAP_CHUNK: the element-wise rows kernel cuts rows longer than one block's chunk into
chunks of fixed length (the default) or of equal length ("balanced"). Each element's arithmetic is
the same, so both must give the same bits, and both must match a float64 reference. Rows here are
longer than 4096 floats (one chunk), not multiples of it, some not multiples of 4; the operands
broadcast one value per channel (bias forward, OpTensor with a per-channel B), so the rows kernel
(not the packed one) runs. GPU tests skip without a GPU."""
import numpy as np
import pytest

import miopen_cy as mi
from conftest import requires_gpu
from helpers import desc, poisoned, rel_l2

SHAPES = [(2, 3, 70, 90),      # rows of 6300: two chunks, 3204 / 3096 when balanced
          (1, 2, 112, 112),    # 12544: three full chunks and 256 by default
          (2, 2, 41, 101),     # 4141: not a multiple of 4
          (1, 1, 3, 4097)]     # rows of 12291 after collapse, odd


def run_bias(h, shape, rng):
    c = shape[1]
    y0 = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(c).astype(np.float32)
    yb = mi.DeviceBuffer.from_numpy(h, y0)
    bb = mi.DeviceBuffer.from_numpy(h, b)
    mi.convolutionForwardBias(h, 1.0, desc((1, c, 1, 1)), bb, 0.0, desc(shape), yb)
    return yb.to_numpy(shape, np.float32), y0.astype(np.float64) + b.reshape(1, c, 1, 1)


def run_op_tensor(h, shape, rng):
    c = shape[1]
    a = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal((1, c, 1, 1)).astype(np.float32)
    ab, bb = mi.DeviceBuffer.from_numpy(h, a), mi.DeviceBuffer.from_numpy(h, b)
    cb = mi.DeviceBuffer.from_numpy(h, poisoned(shape))
    mi.opTensor(h, mi.miopenTensorOpMul, 1.5, desc(shape), ab, -0.5, desc(b.shape), bb, 0.0,
                desc(shape), cb)
    return cb.to_numpy(shape, np.float32), (1.5 * a.astype(np.float64)) * (-0.5 * b.astype(np.float64))


@requires_gpu
@pytest.mark.parametrize("op", [run_bias, run_op_tensor], ids=["bias_fwd", "opTensor_mul"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_balanced_chunks_give_the_same_bits(monkeypatch, op, shape):
    h = mi.Handle(device="gpu")
    results = {}
    for policy in ("fixed", "balanced"):
        monkeypatch.setenv("MIOPEN_CY_MAP_CHUNK", policy)
        got, want = op(h, shape, np.random.default_rng(7))
        assert rel_l2(got, want) <= 1e-6, policy
        results[policy] = got
    monkeypatch.delenv("MIOPEN_CY_MAP_CHUNK")
    unset, _ = op(h, shape, np.random.default_rng(7))
    assert np.array_equal(results["fixed"].view(np.int32), results["balanced"].view(np.int32))
    assert np.array_equal(results["fixed"].view(np.int32), unset.view(np.int32))


@requires_gpu
def test_bad_value_is_an_error_naming_the_variable(monkeypatch):
    h = mi.Handle(device="gpu")
    shape = (1, 2, 70, 90)
    y0 = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    yb = mi.DeviceBuffer.from_numpy(h, y0)
    bb = mi.DeviceBuffer.from_numpy(h, np.ones(2, np.float32))
    monkeypatch.setenv("MIOPEN_CY_MAP_CHUNK", "even")
    with pytest.raises(mi.BadParmError, match="MIOPEN_CY_MAP_CHUNK"):
        mi.convolutionForwardBias(h, 1.0, desc((1, 2, 1, 1)), bb, 0.0, desc(shape), yb)
    assert np.array_equal(yb.to_numpy(shape, np.float32), y0)   # nothing written
