"""The GPU fast paths of issue 6, third round ("poolfwd"):
- pool_fwd_2d_quad (a thread per 4 outputs of one output row, float4 loads, no shuffles) against
  the generic kernel (x read with a W stride of 2: same bits, same index workspace) and PyTorch,
  with odd widths and heights (the last quad partly used), rows of y not 16-byte aligned (scalar
  stores), NaN and ties, alpha/beta, every index type, and the fallback when x's rows are not
  16-byte aligned;
- bn_infer_peract (per-activation inference with the coefficients computed in the kernel and
  kept over 8 n) against the coefficient path (parameter tensors with gaps between rows: the
  same bits) and PyTorch, batches that are not a multiple of the n per thread, and in place.
Every output starts NaN-poisoned or random; GPU tests skip without a GPU."""
import numpy as np
import pytest

import miopen_cy as mi
from conftest import requires_gpu
from helpers import Strided, desc, poisoned, rel_l2
from pool_helpers import MODES, pool_desc, pool_id, run_fwd, torch_fwd
from test_gpu_opsa import PER_ACT, SHFL_CASES, bn_infer, torch_bn_infer

QUAD_CASES = SHFL_CASES + [
    ((2, 3, 21, 110), (3, 3), (1, 1), (2, 2)),     # out 11 x 55: last quad 3 wide, odd rows
    ((1, 2, 15, 30), (3, 3), (0, 0), (2, 2)),      # P = 0: out_w 14, the right scalar column
    ((3, 2, 7, 44), (2, 2), (1, 1), (2, 2)),       # K = 2, P = 1: out 4 x 23
    ((2, 2, 9, 26), (2, 2), (0, 0), (2, 2)),       # K = 2, P = 0: out 4 x 13
    ((2, 2, 17, 16), (3, 3), (1, 1), (3, 2)),      # stride 3 along h
]


@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
@pytest.mark.parametrize("case", QUAD_CASES, ids=pool_id)
def test_pool_fwd_quad_equals_the_generic_kernel_and_matches_torch(rng, case, mode):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    x.reshape(-1)[rng.integers(0, x.size, 3)] = -0.0        # signed zeros keep their sum bits
    y_quad, ws_quad = run_fwd(h, case, mode, x)
    y_again, _ = run_fwd(h, case, mode, x)
    y_generic, ws_generic = run_fwd(h, case, mode, x, generic=True)
    assert not np.isnan(y_quad).any()                       # every output written
    assert y_quad.tobytes() == y_again.tobytes() == y_generic.tobytes()
    assert ws_quad.tobytes() == ws_generic.tobytes()
    assert rel_l2(y_quad, torch_fwd(case, mode, x)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("index_type,image", [
    (mi.miopenIndexUint8, False), (mi.miopenIndexUint16, False), (mi.miopenIndexUint32, False),
    (mi.miopenIndexUint64, False), (mi.miopenIndexUint16, True), (mi.miopenIndexUint32, True),
    (mi.miopenIndexUint64, True)],
    ids=["u8-mask", "u16-mask", "u32-mask", "u64-mask", "u16-image", "u32-image", "u64-image"])
@pytest.mark.parametrize("case", [SHFL_CASES[0], SHFL_CASES[3], SHFL_CASES[5],
                                  ((2, 3, 21, 110), (3, 3), (1, 1), (2, 2))], ids=pool_id)
def test_pool_fwd_quad_indices_nan_and_alpha_beta_equal_the_generic_kernel(
        rng, case, index_type, image):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    x[0, 0, 3, 4] = np.nan                                  # NaN counts as the largest
    x[0, 1, 2, 2:6] = 1.5                                   # ties: the first maximum wins
    x[1 % x.shape[0], 0, 5, 8:12] = 2.5
    oshape = mi.getPoolingForwardOutputDim(pool_desc(case, mi.miopenPoolingMax), desc(case[0]))
    y0 = rng.standard_normal(oshape).astype(np.float32)
    kernel = "quad"
    out = {}
    for k in (kernel, "generic"):
        out[k] = run_fwd(h, case, mi.miopenPoolingMax, x, index_type=index_type, image=image,
                         alpha=1.5, beta=-0.5, y0=y0, generic=k == "generic")
    assert out[kernel][0].tobytes() == out["generic"][0].tobytes()
    assert out[kernel][1].tobytes() == out["generic"][1].tobytes()
    assert np.isnan(out[kernel][0][0, 0]).any()
    finite = np.isfinite(out[kernel][0])
    ref = 1.5 * torch_fwd(case, mi.miopenPoolingMax, x) - 0.5 * y0
    assert rel_l2(out[kernel][0][finite], ref[finite]) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
def test_pool_fwd_quad_rows_not_16_byte_aligned_fall_back_with_the_same_bits(rng, mode):
    """x with a row stride that is not a multiple of 4 floats: not the quad kernel."""
    h = mi.Handle(device="gpu")
    case = ((2, 3, 12, 70), (3, 3), (1, 1), (2, 2))
    xs = Strided(case[0], rng, pad=(0, 0, 0, 1))            # rows of 71 floats
    kernel = "quad"
    ys = {}
    ys[kernel], _ = run_fwd(h, case, mode, xs.buf, xdesc=xs.desc())
    ys["generic"], _ = run_fwd(h, case, mode, xs.view, generic=True)
    assert not np.isnan(ys[kernel]).any()
    assert ys[kernel].tobytes() == ys["generic"].tobytes()
    assert rel_l2(ys[kernel], torch_fwd(case, mode, xs.view)) <= 1e-6


# ---- per-activation batch-norm inference: bn_infer_peract -----------------------------------

def peract_params(rng, shape):
    ps = (1,) + tuple(shape[1:])
    scale, bias, rm = (rng.standard_normal(ps).astype(np.float32) for _ in range(3))
    rv = (rng.random(ps) + 0.5).astype(np.float32)
    return scale, bias, rm, rv


@requires_gpu
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (1.5, -0.5)])
@pytest.mark.parametrize("shape", [(3, 5, 12, 20), (37, 3, 4, 12), (1, 2, 6, 6), (2, 4, 4, 5, 6),
                                   (70, 300, 1, 4)],
                         ids=["4d", "n37", "n1", "5d", "n70-wide"])
def test_peract_bn_inference_equals_the_coefficient_path_and_matches_torch(
        rng, shape, alpha, beta):
    h = mi.Handle(device="gpu")
    x = (0.5 + 2.0 * rng.standard_normal(shape)).astype(np.float32)
    params = peract_params(rng, shape)
    y0 = poisoned(shape) if beta == 0 else rng.standard_normal(shape).astype(np.float32)
    y = bn_infer(h, PER_ACT, x, alpha, beta, y0, *params)
    assert not np.isnan(y).any()
    ref = alpha * torch_bn_infer(PER_ACT, x, *params)
    if beta != 0:
        ref = ref + beta * y0.astype(np.float64)
    assert rel_l2(y, ref) <= 1e-6
    y_coef = bn_infer(h, PER_ACT, x, alpha, beta, y0, *params, strided_params=True)
    assert y.tobytes() == y_coef.tobytes()                  # the same formulas, the same bits


@requires_gpu
def test_peract_bn_inference_in_place(rng):
    h = mi.Handle(device="gpu")
    shape = (9, 3, 8, 12)
    x = rng.standard_normal(shape).astype(np.float32)
    params = peract_params(rng, shape)
    xd = desc(shape)
    bd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(bd, xd, PER_ACT)
    xb = mi.DeviceBuffer.from_numpy(h, x)
    mi.batchNormalizationForwardInference(
        h, PER_ACT, 1.0, 0.0, xd, xb, xd, xb, bd,
        *(mi.DeviceBuffer.from_numpy(h, a) for a in params), 1e-5)
    y = xb.to_numpy(shape, np.float32)
    assert rel_l2(y, torch_bn_infer(PER_ACT, x, *params)) <= 1e-6
