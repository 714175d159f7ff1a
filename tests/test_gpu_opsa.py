"""The GPU fast paths of issue 6, second round ("opsa"):
- the 2-d pooling forward on K x K windows (K = 2, 3), stride 2 and padding 0 or 1 along w,
  aligned rows (pool_fwd_2d_quad) against the generic kernel (x read with a W stride of 2: same
  bits) and PyTorch, on rows wider than one block's tile, with the index workspace, alpha/beta,
  and the fallback when rows are not 16-byte aligned;
- the packed element-wise kernel (MapPacked) under activation forward and backward: against
  PyTorch in float64 and against the general engine (x with gaps between rows; within 2 ulp:
  the same functors, compiled into another kernel), numel not a multiple of 4, unaligned
  operands (the general engine);
- batch-norm inference on packed tensors (bn_infer_packed), spatial and per activation, against
  PyTorch and the general path (x with gaps between rows; planes not a multiple of 4 elements
  take the general path too).
Every output starts NaN-poisoned or random; GPU tests skip without a GPU."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conftest import GPU, requires_gpu
from helpers import Strided, desc, poisoned, rel_l2
from pool_helpers import MODES, pool_desc, pool_id, run_fwd, torch_bwd, torch_fwd, w_stride2

TORCH_CUDA = GPU and torch.cuda.is_available()
requires_torch_cuda = pytest.mark.skipif(not TORCH_CUDA, reason="needs PyTorch with CUDA and a GPU")


def max_ulp(a, b):
    """The largest distance in float32 units in the last place between a and b (NaN-free)."""
    a = np.ascontiguousarray(a, np.float32).view(np.int32).astype(np.int64)
    b = np.ascontiguousarray(b, np.float32).view(np.int32).astype(np.int64)
    a = np.where(a < 0, -(a & 0x7FFFFFFF), a)
    b = np.where(b < 0, -(b & 0x7FFFFFFF), b)
    return int(np.max(np.abs(a - b))) if a.size else 0


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


# ---- activation on the packed kernel ----------------------------------------------------------

A = mi.ActivationMode
ACT_CASES = [
    (A.miopenActivationLOGISTIC, 0.0, 0.0, 0.0),
    (A.miopenActivationTANH, 0.7, 1.3, 0.0),
    (A.miopenActivationELU, 0.8, 0.0, 0.0),
    (A.miopenActivationRELU, 0.0, 0.0, 0.0),
    (A.miopenActivationSOFTRELU, 0.0, 0.0, 0.0),
    (A.miopenActivationLEAKYRELU, 0.1, 0.0, 0.0),
]


def act_id(case):
    return case[0].name[len("miopenActivation"):]


def torch_act(case, x, dy):
    mode, a, b, _ = case
    t = torch.from_numpy(np.ascontiguousarray(x, np.float64)).requires_grad_(True)
    y = {A.miopenActivationLOGISTIC: lambda: torch.sigmoid(t),
         A.miopenActivationTANH: lambda: b * torch.tanh(a * t),
         A.miopenActivationELU: lambda: F.elu(t, a),
         A.miopenActivationRELU: lambda: torch.relu(t),
         A.miopenActivationSOFTRELU: lambda: F.softplus(t),
         A.miopenActivationLEAKYRELU: lambda: F.leaky_relu(t, a)}[mode]()
    (g,) = torch.autograd.grad(y, t, torch.from_numpy(np.asarray(dy, np.float64)))
    return y.detach().numpy(), g.numpy()


def run_act(h, case, x, dy, alpha=1.0, beta=0.0, y0=None, dx0=None, general=False):
    """Forward and backward; general: x with gaps between rows, so the general engine runs."""
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, *case)
    shape = x.shape
    d = xd = desc(shape)
    if general:
        xs = Strided(shape, pad=(0, 0, 0, 1), fill=x)
        x, xd = xs.buf, xs.desc()
    xb, dyb = mi.DeviceBuffer.from_numpy(h, x), mi.DeviceBuffer.from_numpy(h, dy)
    yb = mi.DeviceBuffer.from_numpy(h, poisoned(shape) if y0 is None else y0)
    dxb = mi.DeviceBuffer.from_numpy(h, poisoned(shape) if dx0 is None else dx0)
    mi.activationForward(h, ad, alpha, xd, xb, beta, d, yb)
    mi.activationBackward(h, ad, alpha, d, yb, d, dyb, xd, xb, beta, d, dxb)
    return yb.to_numpy(shape, np.float32), dxb.to_numpy(shape, np.float32)


@requires_gpu
@pytest.mark.parametrize("shape", [(3, 5, 17, 23), (2, 4, 64, 66), (1, 1, 1, 3)],
                         ids=["tail3", "blocks", "tail-only"])
@pytest.mark.parametrize("case", ACT_CASES, ids=act_id)
def test_packed_activation_matches_torch_and_the_general_engine(rng, case, shape):
    h = mi.Handle(device="gpu")
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y, dx = run_act(h, case, x, dy)
    assert not np.isnan(y).any() and not np.isnan(dx).any()
    fwd, grad = torch_act(case, x, dy)
    assert rel_l2(y, fwd) <= 1e-6 and rel_l2(dx, grad) <= 1e-6
    y_rows, dx_rows = run_act(h, case, x, dy, general=True)
    assert max_ulp(y, y_rows) <= 2 and max_ulp(dx, dx_rows) <= 2


@requires_gpu
@pytest.mark.parametrize("case", ACT_CASES[:3], ids=act_id)
def test_packed_activation_blends_alpha_beta(rng, case):
    h = mi.Handle(device="gpu")
    shape = (2, 3, 40, 41)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y0 = rng.standard_normal(shape).astype(np.float32)
    dx0 = rng.standard_normal(shape).astype(np.float32)
    # y0 is also the y the backward sees: the derivative comes from x alone
    y, dx = run_act(h, case, x, dy, alpha=1.5, beta=-0.75, y0=y0, dx0=dx0)
    fwd, grad = torch_act(case, x, dy)
    assert rel_l2(y, 1.5 * fwd - 0.75 * y0) <= 1e-6
    assert rel_l2(dx, 1.5 * grad - 0.75 * dx0) <= 1e-6


@requires_torch_cuda
@pytest.mark.parametrize("case", ACT_CASES[:3], ids=act_id)
def test_unaligned_operands_take_the_general_engine(rng, case):
    """A tensor starting 4 bytes past an aligned address: MapPacked does not apply."""
    h = mi.Handle(device="gpu")
    shape = (2, 3, 16, 16)
    n = int(np.prod(shape))
    x = (3.0 * rng.standard_normal(n)).astype(np.float32)
    xt = torch.empty(n + 1, device="cuda")
    xt[1:] = torch.from_numpy(x).cuda()
    yt = torch.full((n + 1,), float("nan"), device="cuda")
    xv, yv = xt[1:].view(shape), yt[1:].view(shape)
    ad = mi.ActivationDescriptor()
    mi.setActivationDescriptor(ad, *case)
    d = desc(shape)
    mi.activationForward(h, ad, 1.0, d, xv, 0.0, d, yv)
    mi.cyStreamSynchronize(h)
    torch.cuda.synchronize()
    y = yv.cpu().numpy()
    fwd, _ = torch_act(case, x.reshape(shape), np.ones(shape, np.float32))
    assert rel_l2(y, fwd) <= 1e-6
    assert np.isnan(yt[0].item())                            # nothing before the tensor


# ---- batch-norm inference on packed tensors ---------------------------------------------------

SPATIAL, PER_ACT = mi.miopenBNSpatial, mi.miopenBNPerActivation


def bn_infer(h, mode, x, alpha, beta, y0, scale, bias, rm, rv, eps=1e-5, general=False,
             strided_params=False):
    """general: x with gaps between rows (the general path); strided_params: the four parameter
    tensors with gaps between rows (per activation: the coefficient path of bn_infer_packed)."""
    xd = yd = desc(x.shape)
    if general:
        xs = Strided(x.shape, pad=(0, 0, 0, 1), fill=x)
        x, xd = xs.buf, xs.desc()
    bd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(bd, yd, mode)
    params = (scale, bias, rm, rv)
    if strided_params:
        ps = [Strided(a.shape, pad=(0, 0, 0, 1), fill=a) for a in params]
        params, bd = [p.buf for p in ps], ps[0].desc()
    yb = mi.DeviceBuffer.from_numpy(h, y0)
    mi.batchNormalizationForwardInference(
        h, mode, alpha, beta, xd, mi.DeviceBuffer.from_numpy(h, x), yd, yb, bd,
        *(mi.DeviceBuffer.from_numpy(h, a) for a in params), eps)
    return yb.to_numpy(y0.shape, np.float32)


def torch_bn_infer(mode, x, scale, bias, rm, rv, eps=1e-5):
    t = torch.from_numpy(x.astype(np.float64))
    if mode == PER_ACT:
        t = t.reshape(t.shape[0], -1)
    p = [torch.from_numpy(a.astype(np.float64)).reshape(-1) for a in (rm, rv, scale, bias)]
    return F.batch_norm(t, p[0], p[1], p[2], p[3], False, 0.0, eps).reshape(x.shape).numpy()


@requires_gpu
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (1.5, -0.5)])
@pytest.mark.parametrize("shape", [(3, 5, 12, 20), (2, 3, 33, 36), (2, 4, 4, 5, 6), (2, 3, 5, 7)],
                         ids=["4d", "4d-chunks", "5d", "hw-not-4"])
@pytest.mark.parametrize("mode", [SPATIAL, PER_ACT], ids=["spatial", "per_act"])
def test_packed_bn_inference_matches_torch_and_the_general_path(rng, mode, shape, alpha, beta):
    h = mi.Handle(device="gpu")
    x = (0.5 + 2.0 * rng.standard_normal(shape)).astype(np.float32)
    ps = (1, shape[1], 1, 1) if mode == SPATIAL else (1,) + shape[1:]
    if mode == SPATIAL and len(shape) == 5:
        ps = (1, shape[1], 1, 1, 1)
    scale, bias, rm = (rng.standard_normal(ps).astype(np.float32) for _ in range(3))
    rv = (rng.random(ps) + 0.5).astype(np.float32)
    y0 = poisoned(shape) if beta == 0 else rng.standard_normal(shape).astype(np.float32)
    y = bn_infer(h, mode, x, alpha, beta, y0, scale, bias, rm, rv)
    assert not np.isnan(y).any()
    ref = alpha * torch_bn_infer(mode, x, scale, bias, rm, rv)
    if beta != 0:
        ref = ref + beta * y0.astype(np.float64)
    assert rel_l2(y, ref) <= 1e-6
    y_rows = bn_infer(h, mode, x, alpha, beta, y0, scale, bias, rm, rv, general=True)
    # the same formulas; the general path's contraction of (x - m) * a + c is the compiler's
    assert rel_l2(y, y_rows) <= 2e-7


@requires_gpu
def test_packed_bn_inference_in_place(rng):
    h = mi.Handle(device="gpu")
    shape = (2, 3, 8, 12)
    x = rng.standard_normal(shape).astype(np.float32)
    ps = (1, 3, 1, 1)
    scale, bias, rm = (rng.standard_normal(ps).astype(np.float32) for _ in range(3))
    rv = (rng.random(ps) + 0.5).astype(np.float32)
    xd = desc(shape)
    bd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(bd, xd, SPATIAL)
    xb = mi.DeviceBuffer.from_numpy(h, x)
    mi.batchNormalizationForwardInference(
        h, SPATIAL, 1.0, 0.0, xd, xb, xd, xb, bd,
        *(mi.DeviceBuffer.from_numpy(h, a) for a in (scale, bias, rm, rv)), 1e-5)
    y = xb.to_numpy(shape, np.float32)
    assert rel_l2(y, torch_bn_infer(SPATIAL, x, scale, bias, rm, rv)) <= 1e-6
