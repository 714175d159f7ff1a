"""Pooling on the GPU's dedicated 2-d kernels against the generic kernel (reached by reading x or
dy with a W stride of 2: the same bits, the same index workspace) and PyTorch in float64:
- forward: pool_fwd_2d (any window) and pool_fwd_2d_quad (K x K windows, K = 2, 3, stride 2 and
  padding 0 or 1 along w, aligned rows: a thread per 4 outputs of one output row, float4 loads, no
  shuffles) on rows wider than one block's tile, odd widths and heights (the last quad partly
  used), rows of y not 16-byte aligned (scalar stores), NaN and ties; the index workspace of every
  index type, alpha/beta, and the fallback when x's rows are not 16-byte aligned;
- backward: pool_bwd_2d and its <K, S> variants, every index type, alpha/beta, strided rows, max
  without a workspace, wide rows.
The run helpers (tests/support/pooling.py) stage the operands in DeviceBuffers; outputs start
NaN-poisoned. Skipped without a GPU."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import Strided, desc, rel_l2
from support.devices import requires_gpu
from support.pooling import (MODES, out_shape, pool_desc, pool_id, run_bwd, run_fwd, torch_bwd, torch_fwd,
                             w_stride2)


# ---- pooling forward: pool_fwd_2d, any window ------------------------------------------------

POOL_CASES = [  # (n, c, h, w), window, pad, stride
    ((2, 3, 17, 19), (3, 3), (1, 1), (2, 2)),
    ((2, 5, 16, 16), (2, 2), (0, 0), (2, 2)),
    ((1, 4, 33, 70), (3, 3), (1, 1), (1, 1)),
    ((3, 2, 13, 11), (5, 3), (2, 1), (3, 2)),      # any window: the K == 0 variant
    ((1, 2, 9, 40), (1, 4), (0, 2), (1, 3)),
    ((2, 3, 16, 24), (3, 3), (1, 1), (2, 2)),      # pair variant, float4 loads
    ((1, 2, 15, 21), (3, 3), (0, 0), (1, 2)),      # pair variant, scalar loads, odd out_w
    ((1, 3, 7, 5), (3, 3), (1, 1), (2, 2)),        # pair variant, narrower than a float4 row
]
@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
@pytest.mark.parametrize("case", POOL_CASES, ids=pool_id)
def test_pool_fwd_2d_equals_the_generic_kernel_bit_for_bit_and_matches_torch(rng, case, mode):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    y_direct, ws_direct = run_fwd(h, case, mode, x)
    y_again, ws_again = run_fwd(h, case, mode, x)
    y_generic, ws_generic = run_fwd(h, case, mode, x, generic=True)
    assert y_direct.tobytes() == y_again.tobytes() == y_generic.tobytes()
    assert ws_direct.tobytes() == ws_again.tobytes() == ws_generic.tobytes()
    assert rel_l2(y_direct, torch_fwd(case, mode, x)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("image", [False, True], ids=["mask", "image"])
@pytest.mark.parametrize("index_type", [mi.miopenIndexUint8, mi.miopenIndexUint16,
                                        mi.miopenIndexUint32, mi.miopenIndexUint64])
def test_pool_fwd_2d_indices_and_alpha_beta_equal_the_generic_kernel(rng, index_type, image):
    h = mi.Handle(device="gpu")
    case = ((2, 3, 12, 14), (3, 3), (1, 1), (2, 2))
    x = rng.standard_normal(case[0]).astype(np.float32)
    x[0, 0, 3, 4] = np.nan                                # NaN counts as the largest
    y0 = rng.standard_normal((2, 3, 6, 7)).astype(np.float32)
    out = {}
    for kernel in ("direct", "generic"):
        out[kernel] = run_fwd(h, case, mi.miopenPoolingMax, x, index_type=index_type,
                              image=image, alpha=1.5, beta=-0.5, y0=y0,
                              generic=kernel == "generic")
    assert out["direct"][0].tobytes() == out["generic"][0].tobytes()
    assert out["direct"][1].tobytes() == out["generic"][1].tobytes()
    assert np.isnan(out["direct"][0][0, 0]).any()
    finite = np.isfinite(out["direct"][0])
    ref = 1.5 * torch_fwd(case, mi.miopenPoolingMax, x) - 0.5 * y0
    assert rel_l2(out["direct"][0][finite], ref[finite]) <= 1e-6



# ---- pooling forward: the shapes of the former pool_fwd_2d_shfl (now pool_fwd_2d_quad) --------

SHFL_CASES = [  # (n, c, h, w), window, pad, stride
    ((2, 3, 20, 112), (3, 3), (1, 1), (2, 2)),     # out_w 56: wider than the 32-wide max tile
    ((1, 2, 9, 300), (3, 3), (1, 1), (2, 2)),      # several tiles along w
    ((1, 2, 12, 64), (3, 3), (0, 0), (2, 2)),      # P = 0: the right column by shuffle
    ((2, 2, 11, 132), (3, 3), (0, 0), (2, 2)),     # P = 0, odd h, last lane loads itself
    ((2, 3, 16, 96), (2, 2), (0, 0), (2, 2)),      # K = 2
    ((1, 2, 13, 88), (2, 2), (1, 1), (2, 2)),      # K = 2, P = 1
    ((1, 3, 10, 8), (3, 3), (1, 1), (2, 2)),       # narrower than one float4 per lane chunk
    ((1, 2, 14, 20), (3, 3), (1, 0), (1, 2)),      # stride 1 along h, pad 0 along h
    ((2, 2, 9, 36), (3, 3), (1, 1), (2, 2)),       # out_w 18: 16 lanes, last thread half used
]
@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
@pytest.mark.parametrize("case", SHFL_CASES, ids=pool_id)
def test_pool_fwd_shfl_equals_the_generic_kernel_and_matches_torch(rng, case, mode):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    x.reshape(-1)[rng.integers(0, x.size, 3)] = -0.0        # signed zeros keep their sum bits
    y_direct, ws_direct = run_fwd(h, case, mode, x)
    y_again, _ = run_fwd(h, case, mode, x)
    y_generic, ws_generic = run_fwd(h, case, mode, x, generic=True)
    assert not np.isnan(y_direct).any()                     # every output written
    assert y_direct.tobytes() == y_again.tobytes() == y_generic.tobytes()
    assert ws_direct.tobytes() == ws_generic.tobytes()
    assert rel_l2(y_direct, torch_fwd(case, mode, x)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("index_type,image", [
    (mi.miopenIndexUint8, False), (mi.miopenIndexUint16, False), (mi.miopenIndexUint32, False),
    (mi.miopenIndexUint64, False),
    # uint8 cannot name the positions of these images: refused by the front door (its own test)
    (mi.miopenIndexUint16, True), (mi.miopenIndexUint32, True), (mi.miopenIndexUint64, True)],
    ids=["u8-mask", "u16-mask", "u32-mask", "u64-mask", "u16-image", "u32-image", "u64-image"])
@pytest.mark.parametrize("case", [SHFL_CASES[0], SHFL_CASES[3], SHFL_CASES[5]], ids=pool_id)
def test_pool_fwd_shfl_indices_nan_and_alpha_beta_equal_the_generic_kernel(
        rng, case, index_type, image):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    x[0, 0, 3, 4] = np.nan                                  # NaN counts as the largest
    x[0, 1, 2, 2:6] = 1.5                                   # ties: the first maximum wins
    oshape = mi.getPoolingForwardOutputDim(pool_desc(case, mi.miopenPoolingMax), desc(case[0]))
    y0 = rng.standard_normal(oshape).astype(np.float32)
    out = {}
    for kernel in ("direct", "generic"):
        out[kernel] = run_fwd(h, case, mi.miopenPoolingMax, x, index_type=index_type,
                              image=image, alpha=1.5, beta=-0.5, y0=y0,
                              generic=kernel == "generic")
    assert out["direct"][0].tobytes() == out["generic"][0].tobytes()
    assert out["direct"][1].tobytes() == out["generic"][1].tobytes()
    assert np.isnan(out["direct"][0][0, 0]).any()
    finite = np.isfinite(out["direct"][0])
    ref = 1.5 * torch_fwd(case, mi.miopenPoolingMax, x) - 0.5 * y0
    assert rel_l2(out["direct"][0][finite], ref[finite]) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
def test_pool_fwd_rows_not_16_byte_aligned_fall_back_with_the_same_bits(rng, mode):
    """x with a row stride that is not a multiple of 4 floats: not the quad kernel."""
    h = mi.Handle(device="gpu")
    case = ((2, 3, 12, 70), (3, 3), (1, 1), (2, 2))
    xs = Strided(case[0], rng, pad=(0, 0, 0, 1))            # rows of 71 floats
    ys = {}
    ys["direct"], _ = run_fwd(h, case, mode, xs.buf, xdesc=xs.desc())
    ys["generic"], _ = run_fwd(h, case, mode, xs.view, generic=True)
    assert not np.isnan(ys["direct"]).any()
    assert ys["direct"].tobytes() == ys["generic"].tobytes()
    assert rel_l2(ys["direct"], torch_fwd(case, mode, xs.view)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("mode", [mi.miopenPoolingMax, mi.miopenPoolingAverage], ids=["max", "avg"])
def test_pool_bwd_wide_rows_alpha_beta_equal_the_generic_kernel(rng, mode):
    """pool_bwd_2d's 4-elements-a-thread variant with beta != 0 (the float4 blend) over rows of
    several tiles: the generic kernel's bits (the blend written as one fused multiply-add)."""
    h = mi.Handle(device="gpu")
    case = ((2, 3, 14, 150), (3, 3), (1, 1), (2, 2))
    x = rng.standard_normal(case[0]).astype(np.float32)
    y, ws = run_fwd(h, case, mode, x)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    dx0 = rng.standard_normal(case[0]).astype(np.float32)
    pd = pool_desc(case, mode)
    out = {}
    for kernel in ("direct", "generic"):
        # the generic kernel: dy read with a W stride of 2
        dy_buf, dyd = w_stride2(dy) if kernel == "generic" else (dy, desc(y.shape))
        dxb = mi.DeviceBuffer.from_numpy(h, dx0)
        mi.poolingBackward(h, pd, 0.75, desc(y.shape), mi.DeviceBuffer.from_numpy(h, y),
                           dyd, mi.DeviceBuffer.from_numpy(h, dy_buf), desc(case[0]),
                           mi.DeviceBuffer.from_numpy(h, x), 1.25, desc(case[0]), dxb,
                           mi.DeviceBuffer.from_numpy(h, ws))
        out[kernel] = dxb.to_numpy(case[0], np.float32)
    assert out["direct"].tobytes() == out["generic"].tobytes()
    assert rel_l2(out["direct"], 0.75 * torch_bwd(case, mode, x, dy) + 1.25 * dx0) <= 1e-6


# ---- pooling forward: pool_fwd_2d_quad ------------------------------------------------------

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


# ---- the dedicated 2-d pooling backward (pool_bwd_2d) -----------------------------------------

POOL_BWD_CASES = POOL_CASES + [
    ((2, 3, 20, 36), (2, 2), (0, 0), (2, 2)),      # 2x2 s2: the <2, 2> variant
    ((2, 2, 19, 45), (3, 3), (1, 1), (2, 2)),      # 3x3 s2 p1: the <3, 2> variant, odd sizes
    ((1, 3, 18, 33), (3, 3), (1, 1), (1, 1)),      # 3x3 s1 p1: the <3, 1> variant
    ((1, 2, 10, 12), (3, 3), (0, 0), (1, 1)),      # 3x3 s1, no padding
    ((1, 2, 14, 15), (2, 2), (1, 1), (3, 3)),      # stride > window: uncovered dx elements
    ((1, 2, 6, 150), (3, 3), (1, 1), (2, 2)),      # rows wider than one tile of dx
]


@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
@pytest.mark.parametrize("case", POOL_BWD_CASES, ids=pool_id)
def test_pool_bwd_2d_equals_the_generic_kernel_bit_for_bit_and_matches_torch(rng, case, mode):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    dy = rng.standard_normal(out_shape(case)).astype(np.float32)
    dx_direct = run_bwd(h, case, mode, x, dy)
    dx_again = run_bwd(h, case, mode, x, dy)
    dx_generic = run_bwd(h, case, mode, x, dy, generic=True)
    assert dx_direct.tobytes() == dx_again.tobytes() == dx_generic.tobytes()
    assert rel_l2(dx_direct, torch_bwd(case, mode, x, dy)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("image", [False, True], ids=["mask", "image"])
@pytest.mark.parametrize("index_type", [mi.miopenIndexUint8, mi.miopenIndexUint16,
                                        mi.miopenIndexUint32, mi.miopenIndexUint64])
@pytest.mark.parametrize("case", [((2, 3, 12, 14), (3, 3), (1, 1), (2, 2)),
                                  ((1, 2, 9, 11), (3, 3), (1, 1), (1, 1)),
                                  ((2, 2, 8, 10), (2, 2), (0, 0), (2, 2))],
                         ids=pool_id)
def test_pool_bwd_2d_index_types_and_alpha_beta_equal_the_generic_kernel(
        rng, case, index_type, image):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    dy = rng.standard_normal(out_shape(case)).astype(np.float32)
    dx0 = rng.standard_normal(case[0]).astype(np.float32)
    out = {}
    for kernel in ("direct", "generic"):
        out[kernel] = run_bwd(h, case, mi.miopenPoolingMax, x, dy, index_type=index_type,
                              image=image, alpha=1.5, beta=-0.5, dx0=dx0,
                              generic=kernel == "generic")
    assert out["direct"].tobytes() == out["generic"].tobytes()
    ref = 1.5 * torch_bwd(case, mi.miopenPoolingMax, x, dy) - 0.5 * dx0
    assert rel_l2(out["direct"], ref) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("mode", [mi.miopenPoolingMax, mi.miopenPoolingAverage], ids=["max", "avg"])
def test_pool_bwd_2d_with_strided_rows_and_max_without_workspace(rng, mode):
    """Rows with gaps (H stride > W) take the direct kernel, only the tensor is written; max
    without a workspace takes the generic kernel (the argmax found again from x)."""
    h = mi.Handle(device="gpu")
    case = ((2, 3, 13, 17), (3, 3), (1, 1), (2, 2))
    x = rng.standard_normal(case[0]).astype(np.float32)
    dy_a = rng.standard_normal(out_shape(case)).astype(np.float32)
    ref = torch_bwd(case, mode, x, dy_a)
    pd = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(pd, mode, 3, 3, 1, 1, 2, 2)
    y, ws = run_fwd(h, case, mode, x)
    dx = Strided(case[0])
    dy = Strided(out_shape(case), fill=dy_a)
    dxb = mi.DeviceBuffer.from_numpy(h, dx.buf)
    mi.poolingBackward(h, pd, 1.0, desc(y.shape), mi.DeviceBuffer.from_numpy(h, y), dy.desc(),
                       mi.DeviceBuffer.from_numpy(h, dy.buf), desc(case[0]),
                       mi.DeviceBuffer.from_numpy(h, x), 0.0, dx.desc(), dxb,
                       mi.DeviceBuffer.from_numpy(h, ws))
    dx.buf[...] = dxb.to_numpy(dx.buf.shape, np.float32)
    assert dx.gaps_untouched()
    assert rel_l2(dx.view, ref) <= 1e-6
    generic = run_bwd(h, case, mode, x, dy_a, generic=True)
    assert np.ascontiguousarray(dx.view).tobytes() == generic.tobytes()
    if mode == mi.miopenPoolingMax:
        no_ws = run_bwd(h, case, mode, x, dy_a, use_ws=False)
        assert rel_l2(no_ws, ref) <= 1e-6
