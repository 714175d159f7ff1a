"""Batch-norm training forward on packed NCHW / NCDHW whose H*W is a multiple of 4 (the float4
path of the GPU: bn_train_nchw4), against the float64 reference: one element per channel
chunk up to many chunks with a short last one, N or C of 1, 5-d, blending, in place, a mean
far from 0; outputs NaN-poisoned; two runs give the same bits; on the GPU, unaligned or padded
tensors (the generic path) agree with it.

Batch-norm inference on packed tensors on the GPU:
- bn_infer_packed, spatial and per activation, against PyTorch and the general path (x with gaps
  between rows; planes not a multiple of 4 elements take the general path too), in place;
- bn_infer_peract (per-activation inference with the coefficients computed in the kernel and kept
  over 8 n) against the coefficient path (parameter tensors with gaps between rows: the same bits)
  and PyTorch, batches that are not a multiple of the n per thread, and in place.
Every output starts NaN-poisoned or random; GPU tests skip without a GPU."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

import miopen_cy as mi
from miopen_cy.reference import batchnorm as ref
from support.buffers import Strided, desc, poisoned, rel_l2
from support.devices import requires_gpu

SPATIAL = mi.miopenBNSpatial
EPS = 1e-5
TOL = 1e-5


def _bn_desc(xd):
    d = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(d, xd, SPATIAL)
    return d


def _params(rng, ps):
    scale = rng.standard_normal(ps).astype(np.float32)
    bias = rng.standard_normal(ps).astype(np.float32)
    rm = rng.standard_normal(ps).astype(np.float32)
    rv = (rng.random(ps) + 0.5).astype(np.float32)
    return scale, bias, rm, rv


def _run(handle, x, y, scale, bias, rm, rv, alpha=1.0, beta=0.0, factor=0.25):
    xd = desc(x.shape)
    bd = _bn_desc(xd)
    sm, si = poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, SPATIAL, alpha, beta, xd, x, desc(y.shape), y,
                                         bd, scale, bias, factor, rm, rv, EPS, sm, si)
    return sm, si


@pytest.mark.parametrize("shape", [(2, 3, 4, 4), (5, 7, 8, 12), (1, 1, 2, 2), (7, 1, 4, 1),
                                   (1, 2, 2, 2, 4), (3, 2, 300, 400), (33, 3, 16, 20)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (0.75, 0.5)])
def test_train_matches_reference(handle, rng, shape, alpha, beta):
    x = (10.0 + 3.0 * rng.standard_normal(shape)).astype(np.float32)
    bd_shape = _bn_desc(desc(shape)).shape
    scale, bias, rm, rv = _params(rng, bd_shape)
    rm0, rv0 = rm.astype(np.float64), rv.astype(np.float64)
    y = poisoned(shape) if beta == 0 else rng.standard_normal(shape).astype(np.float32)
    y0 = y.astype(np.float64)
    sm, si = _run(handle, x, y, scale, bias, rm, rv, alpha, beta)
    ey, em, ei, erm, erv = ref.forward_training(x, SPATIAL, scale, bias, EPS, rm0, rv0, 0.25)
    assert rel_l2(y, alpha * ey + (beta * y0 if beta else 0.0)) <= TOL
    assert rel_l2(sm, em) <= TOL and rel_l2(si, ei) <= TOL
    assert rel_l2(rm, erm) <= TOL and rel_l2(rv, erv) <= TOL


def test_train_in_place(handle, rng):
    shape = (3, 5, 6, 8)
    x = rng.standard_normal(shape).astype(np.float32)
    bd_shape = _bn_desc(desc(shape)).shape
    scale, bias, _, _ = _params(rng, bd_shape)
    ey, *_ = ref.forward_training(x, SPATIAL, scale, bias, EPS)
    xd = desc(shape)
    mi.batchNormalizationForwardTraining(handle, SPATIAL, 1.0, 0.0, xd, x, xd, x, _bn_desc(xd),
                                         scale, bias, 0.0, None, None, EPS, None, None)
    assert rel_l2(x, ey) <= TOL


def test_train_same_bits_every_run(handle, rng):
    shape = (16, 8, 64, 64)
    x = (1.0 + 2.0 * rng.standard_normal(shape)).astype(np.float32)
    scale, bias, rm, rv = _params(rng, _bn_desc(desc(shape)).shape)
    runs = []
    for _ in range(2):
        y = poisoned(shape)
        r_m, r_v = rm.copy(), rv.copy()
        sm, si = _run(handle, x, y, scale, bias, r_m, r_v)
        runs.append((y, sm, si, r_m, r_v))
    for a, b in zip(*runs):
        assert np.array_equal(a, b)
    ey, em, ei, _, _ = ref.forward_training(x, SPATIAL, scale, bias, EPS)
    assert rel_l2(runs[0][0], ey) <= TOL and rel_l2(runs[0][1], em) <= TOL


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
def test_gpu_unaligned_and_padded_take_the_generic_path_and_agree(rng):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here")
    h = mi.Handle(device="gpu")
    shape = (4, 6, 12, 16)
    n = int(np.prod(shape))
    x = (2.0 + rng.standard_normal(shape)).astype(np.float32)
    scale, bias, _, _ = _params(rng, _bn_desc(desc(shape)).shape)
    ey, em, ei, _, _ = ref.forward_training(x, SPATIAL, scale, bias, EPS)
    ts, tb = torch.from_numpy(scale).cuda(), torch.from_numpy(bias).cuda()
    for offset in (0, 1, 2):                  # 16-byte aligned, then 4 and 8 bytes off
        xb = torch.full((n + offset,), float("nan"), device="cuda")
        yb = torch.full((n + offset,), float("nan"), device="cuda")
        xb[offset:] = torch.from_numpy(x.ravel()).cuda()
        xt, yt = xb[offset:].view(shape), yb[offset:].view(shape)
        sm = torch.full(scale.shape, float("nan"), device="cuda")
        si = torch.full(scale.shape, float("nan"), device="cuda")
        xd = desc(shape)
        torch.cuda.synchronize()              # the handle's stream is not torch's
        mi.batchNormalizationForwardTraining(h, SPATIAL, 1.0, 0.0, xd, xt, xd, yt, _bn_desc(xd),
                                             ts, tb, 0.0, None, None, EPS, sm, si)
        torch.cuda.synchronize()
        assert rel_l2(yt.cpu().numpy(), ey) <= TOL
        assert rel_l2(sm.cpu().numpy(), em) <= TOL and rel_l2(si.cpu().numpy(), ei) <= TOL
        assert torch.isnan(yb[:offset]).all()
    # Padded rows (W stride 20 for W = 16): not packed, the generic path.
    buf = np.full((4, 6, 12, 20), np.nan, np.float32)
    buf[..., :16] = x
    yv = np.full((4, 6, 12, 20), np.nan, np.float32)
    xd = desc(shape, (6 * 12 * 20, 12 * 20, 20, 1))
    mi.batchNormalizationForwardTraining(h, SPATIAL, 1.0, 0.0, xd, buf, xd, yv, _bn_desc(desc(shape)),
                                         scale, bias, 0.0, None, None, EPS, None, None)
    assert rel_l2(yv[..., :16], ey) <= TOL and np.isnan(yv[..., 16:]).all()


# ---- batch-norm inference on packed tensors ---------------------------------------------------

PER_ACT = mi.miopenBNPerActivation


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
