"""Batch normalization (miopenDeriveBNTensorDescriptor, ForwardTraining, ForwardInference,
Backward) against PyTorch's batch_norm in float64 (autograd for the gradients; per-activation
mode as batch_norm over (N, C*H*W)) and the float64 NumPy reference in tests/reference."""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from miopen_cy.reference import batchnorm as ref
from support.buffers import Strided, desc, poisoned, rel_l2
from support.dtypes import FLOAT_TYPES, HALF_TYPES, as64, check_close, np_dtype, poison, \
    random_stored

SPATIAL, PER_ACT = mi.miopenBNSpatial, mi.miopenBNPerActivation
MODES = [pytest.param(SPATIAL, id="spatial"), pytest.param(PER_ACT, id="per_act")]
EPS = 1e-5
TOL = 1e-5


# ---- helpers ---------------------------------------------------------------------------------

def pshape(mode, shape):
    return ref.param_shape(int(mode), shape)


def layout(shape, order, rng=None, fill=np.nan):
    """A tensor of logical `shape` stored with its dims in memory order `order` (outermost
    first): (buffer, logical view, element strides)."""
    mem = np.full([shape[i] for i in order], fill, np.float32)
    view = mem.transpose(np.argsort(order))
    if rng is not None:
        view[...] = rng.standard_normal(shape).astype(np.float32)
    return mem, view, tuple(s // 4 for s in view.strides)


def torch_input(x, mode):
    t = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64))
    return t if mode == SPATIAL else t.reshape(t.shape[0], -1)


def torch_param(p):
    return torch.from_numpy(np.ascontiguousarray(p, dtype=np.float64)).reshape(-1)


def torch_train(x, mode, scale, bias, rm, rv, factor, eps=EPS):
    """(y, saved mean, saved inv std, running mean, running var) from torch, float64."""
    trm, trv = torch_param(rm), torch_param(rv)
    y, sm, si = torch.native_batch_norm(torch_input(x, mode), torch_param(scale), torch_param(bias),
                                        trm, trv, True, factor, eps)
    return y.reshape(x.shape).numpy(), sm.numpy(), si.numpy(), trm.numpy(), trv.numpy()


def torch_grads(x, dy, mode, scale, bias, eps=EPS):
    tx = torch_input(x, mode).requires_grad_()
    w = torch_param(scale).requires_grad_()
    b = torch_param(bias).requires_grad_()
    out = F.batch_norm(tx, None, None, w, b, True, 0.0, eps)
    out.backward(torch_input(dy, mode))
    return tx.grad.reshape(x.shape).numpy(), w.grad.numpy(), b.grad.numpy()


def params(rng, ps):
    scale = rng.standard_normal(ps).astype(np.float32)
    bias = rng.standard_normal(ps).astype(np.float32)
    rm = rng.standard_normal(ps).astype(np.float32)
    rv = (rng.random(ps) + 0.5).astype(np.float32)
    return scale, bias, rm, rv


def bn_desc(xd, mode):
    d = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(d, xd, mode)
    return d


def data(rng, shape, offset=0.5, spread=2.0):
    return (offset + spread * rng.standard_normal(shape)).astype(np.float32)


# ---- deriveBNTensorDescriptor -----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 3, 4, 5, 6)], ids=["4d", "5d"])
@pytest.mark.parametrize("mode", MODES)
def test_derive_shapes(mode, shape):
    d = bn_desc(desc(shape), mode)
    assert d.shape == pshape(mode, shape)
    assert d.dtype == mi.miopenFloat
    packed = np.empty(d.shape, np.float32)
    assert d.strides == tuple(s // 4 for s in packed.strides)


def test_derive_of_strided_x_is_packed():
    x = Strided((2, 3, 4, 5))
    d = bn_desc(x.desc(), PER_ACT)
    assert d.shape == (1, 3, 4, 5) and d.strides == (60, 20, 5, 1)


def test_derive_rejects_bad_mode_and_dims_and_keeps_state():
    d = bn_desc(desc((2, 3, 4, 5)), SPATIAL)
    with pytest.raises(mi.BadParmError, match="bn_mode = 2 is not a miopenBatchNormMode_t"):
        mi.deriveBNTensorDescriptor(d, desc((2, 3, 4, 5)), 2)
    with pytest.raises(mi.BadParmError, match="xDesc has 3 dims; expected 4 to 5"):
        mi.deriveBNTensorDescriptor(d, desc((2, 3, 4)), SPATIAL)
    with pytest.raises(mi.BadParmError, match="xDesc has 6 dims"):
        mi.deriveBNTensorDescriptor(d, desc((2, 3, 4, 5, 2, 2)), PER_ACT)
    assert d.shape == (1, 3, 1, 1)
    with pytest.raises(mi.BadParmError, match="xDesc has not been set"):
        mi.deriveBNTensorDescriptor(d, mi.TensorDescriptor(), SPATIAL)
    with pytest.raises(mi.BadParmError, match="derivedBnDesc is null"):
        mi.deriveBNTensorDescriptor(None, desc((2, 3, 4, 5)), SPATIAL)
    gone = mi.TensorDescriptor()
    mi.destroyTensorDescriptor(gone)
    with pytest.raises(ValueError, match="derivedBnDesc has been destroyed"):
        mi.deriveBNTensorDescriptor(gone, desc((2, 3, 4, 5)), SPATIAL)


# ---- forward training -------------------------------------------------------------------------

@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (0.75, 0.5)])
@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (3, 4, 2, 3, 5)], ids=["4d", "5d"])
@pytest.mark.parametrize("mode", MODES)
def test_fwd_train_matches_torch(handle, rng, mode, shape, alpha, beta):
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    y = poisoned(shape) if beta == 0 else rng.standard_normal(shape).astype(np.float32)
    y_before = y.astype(np.float64)
    rm_t, rv_t = rm.copy(), rv.copy()
    sm, si = poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, mode, alpha, beta, xd, x, desc(shape), y, bd,
                                         scale, bias, 0.25, rm, rv, EPS, sm, si)
    ty, tsm, tsi, trm, trv = torch_train(x, mode, scale, bias, rm_t, rv_t, 0.25)
    expect = alpha * ty + (beta * y_before if beta else 0.0)
    assert rel_l2(y, expect) <= TOL
    assert rel_l2(sm.ravel(), tsm) <= TOL and rel_l2(si.ravel(), tsi) <= TOL
    assert rel_l2(rm.ravel(), trm) <= TOL and rel_l2(rv.ravel(), trv) <= TOL


@pytest.mark.parametrize("mode", MODES)
def test_fwd_train_strided_everything_leaves_gaps(handle, rng, mode):
    shape = (3, 5, 6, 7)
    x, y = Strided(shape, rng), Strided(shape)
    ps = pshape(mode, shape)
    scale, bias, rm, rv, sm, si = (Strided(ps, rng) for _ in range(6))
    rv.view[...] = np.abs(rv.view) + 0.5
    rm0, rv0 = rm.view.astype(np.float64), rv.view.astype(np.float64)
    xd = x.desc()
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x.buf, y.desc(), y.buf,
                                         scale.desc(), scale.buf, bias.buf, 0.1, rm.buf, rv.buf,
                                         EPS, sm.buf, si.buf)
    ey, em, ei, erm, erv = ref.forward_training(x.view, int(mode), scale.view, bias.view, EPS,
                                                rm0, rv0, 0.1)
    assert rel_l2(y.view, ey) <= TOL
    assert rel_l2(sm.view, em) <= TOL and rel_l2(si.view, ei) <= TOL
    assert rel_l2(rm.view, erm) <= TOL and rel_l2(rv.view, erv) <= TOL
    for t in (x, y, scale, bias, rm, rv, sm, si):
        assert t.gaps_untouched()


# memory orders: NHWC, CHWN, and an odd one (W outermost)
ORDERS = [(0, 2, 3, 1), (1, 2, 3, 0), (3, 0, 1, 2)]


@pytest.mark.parametrize("order", ORDERS, ids=["nhwc", "chwn", "wnch"])
@pytest.mark.parametrize("mode", MODES)
def test_fwd_train_other_layouts(handle, rng, mode, order):
    shape = (4, 6, 5, 7)
    xm, xv, xs = layout(shape, order, rng)
    # y in a different layout from x
    ym, yv, ys = layout(shape, (0, 1, 2, 3))
    xd = desc(shape, xs)
    bd = bn_desc(xd, mode)
    scale, bias, _, _ = params(rng, bd.shape)
    sm, si = poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, xm, desc(shape, ys), ym, bd,
                                         scale, bias, 0.0, None, None, EPS, sm, si)
    ey, em, ei, _, _ = ref.forward_training(xv, int(mode), scale, bias, EPS)
    assert rel_l2(yv, ey) <= TOL and rel_l2(sm, em) <= TOL and rel_l2(si, ei) <= TOL


@pytest.mark.parametrize("mode,shape,order", [
    (SPATIAL, (2, 3, 512, 400), (0, 1, 2, 3)),    # few channels, long: split per channel
    (SPATIAL, (3, 8, 128, 128), (0, 2, 3, 1)),    # channels-last: many chunks per channel
    (PER_ACT, (3000, 40, 1, 1), (0, 1, 2, 3)),    # large batch: chunks along N
], ids=["spatial-split", "spatial-nhwc-chunks", "per_act-long-n"])
def test_fwd_train_and_bwd_chunked_paths(handle, rng, mode, shape, order):
    xm, xv, xs = layout(shape, order, rng)
    xv *= 3.0
    xv += 10.0                       # a mean far from 0 tests the two-pass statistics
    dym, dyv, dys = layout(shape, order, rng)
    xd = desc(shape, xs)
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    ym, yv, _ = layout(shape, order)
    sm, si = poisoned(bd.shape), poisoned(bd.shape)
    erm, erv = rm.astype(np.float64), rv.astype(np.float64)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, xm, xd, ym, bd, scale, bias,
                                         0.5, rm, rv, EPS, sm, si)
    ey, em, ei, erm, erv = ref.forward_training(xv, int(mode), scale, bias, EPS, erm, erv, 0.5)
    assert rel_l2(yv, ey) <= TOL and rel_l2(sm, em) <= TOL and rel_l2(si, ei) <= TOL
    assert rel_l2(rm, erm) <= TOL and rel_l2(rv, erv) <= TOL
    dxm, dxv, _ = layout(shape, order)
    ds, db = poisoned(bd.shape), poisoned(bd.shape)
    edx, eds, edb = ref.backward(xv, dyv, int(mode), scale, em, ei)
    for saved in ((sm, si), (None, None)):
        mi.batchNormalizationBackward(handle, mode, 1.0, 0.0, 1.0, 0.0, xd, xm, desc(shape, dys),
                                      dym, xd, dxm, bd, scale, ds, db, EPS, *saved)
        assert rel_l2(dxv, edx) <= TOL and rel_l2(ds, eds) <= TOL and rel_l2(db, edb) <= TOL


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 5), c=st.integers(1, 6), spatial=st.lists(st.integers(1, 7), min_size=2,
       max_size=3), mode=st.sampled_from([SPATIAL, PER_ACT]), strided=st.booleans(),
       beta=st.sampled_from([0.0, 0.5]), seed=st.integers(0, 2**16))
def test_fwd_train_hypothesis(n, c, spatial, mode, strided, beta, seed):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    shape = (n, c, *spatial)
    if strided:
        x, y = Strided(shape, rng), Strided(shape, rng)
    else:
        x, y = Strided(shape, rng, pad=()), Strided(shape, rng, pad=())
    if beta == 0:
        y.view[...] = np.nan
    y0 = y.view.astype(np.float64)
    xd = x.desc()
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    erm, erv = rm.astype(np.float64), rv.astype(np.float64)
    sm, si = poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.5, beta, xd, x.buf, y.desc(), y.buf, bd,
                                         scale, bias, 0.3, rm, rv, EPS, sm, si)
    ey, em, ei, erm, erv = ref.forward_training(x.view, int(mode), scale, bias, EPS, erm, erv, 0.3)
    expect = 1.5 * ey + (beta * y0 if beta else 0.0)
    assert rel_l2(y.view, expect) <= TOL
    assert rel_l2(sm, em) <= TOL and rel_l2(si, ei) <= TOL
    assert rel_l2(rm, erm) <= TOL and rel_l2(rv, erv) <= TOL
    assert x.gaps_untouched() and y.gaps_untouched()


@pytest.mark.parametrize("mode", MODES)
def test_fwd_train_optional_pairs(handle, rng, mode):
    shape = (3, 4, 5, 6)
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    ey, em, ei, erm, erv = ref.forward_training(x, int(mode), scale, bias, EPS, rm, rv, 0.5)
    # running and saved both skipped
    y = poisoned(shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.5, None, None, EPS, None, None)
    assert rel_l2(y, ey) <= TOL
    # a half-given pair counts as absent (MIOpen): the given half is not touched
    r1, s1 = rm.copy(), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.5, r1, None, EPS, s1, None)
    assert np.array_equal(r1, rm) and np.all(np.isnan(s1))
    v1, s2 = rv.copy(), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.5, None, v1, EPS, None, s2)
    assert np.array_equal(v1, rv) and np.all(np.isnan(s2))
    # running only / saved only
    r2, v2 = rm.copy(), rv.copy()
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.5, r2, v2, EPS, None, None)
    assert rel_l2(r2, erm) <= TOL and rel_l2(v2, erv) <= TOL
    s3, s4 = poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.5, None, None, EPS, s3, s4)
    assert rel_l2(s3, em) <= TOL and rel_l2(s4, ei) <= TOL


def test_fwd_train_one_element_per_statistic_keeps_variance_biased(handle, rng):
    # Per activation with N = 1: every statistic has M = 1 element. MIOpen then feeds the biased
    # variance (0) to the running variance instead of dividing by M - 1 = 0.
    shape = (1, 3, 4, 5)
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, PER_ACT)
    scale, bias, rm, rv = params(rng, bd.shape)
    rm0, rv0 = rm.astype(np.float64), rv.astype(np.float64)
    y, sm, si = poisoned(shape), poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationForwardTraining(handle, PER_ACT, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.25, rm, rv, EPS, sm, si)
    assert rel_l2(y, bias) <= TOL                     # x - mean = 0
    assert rel_l2(rm, 0.75 * rm0 + 0.25 * x) <= TOL
    assert rel_l2(rv, 0.75 * rv0) <= TOL
    assert rel_l2(sm, x) <= TOL and rel_l2(si, np.full(bd.shape, 1 / np.sqrt(EPS))) <= TOL


def test_fwd_train_in_place(handle, rng):
    shape = (4, 3, 6, 5)
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, SPATIAL)
    scale, bias, _, _ = params(rng, bd.shape)
    ey, *_ = ref.forward_training(x, SPATIAL, scale, bias, EPS)
    mi.batchNormalizationForwardTraining(handle, SPATIAL, 1.0, 0.0, xd, x, xd, x, bd, scale, bias,
                                         0.0, None, None, EPS, None, None)
    assert rel_l2(x, ey) <= TOL


_DETERMINISM_SCRIPT = r"""
import sys, hashlib, numpy as np, miopen_cy as mi
h = mi.Handle(device="cpu")
rng = np.random.default_rng(7)
out = hashlib.sha256()
for shape, mode in [((2, 3, 512, 400), 1), ((3, 8, 128, 128), 1), ((3000, 40, 1, 1), 0),
                    ((8, 16, 40, 40), 1), ((8, 16, 40, 40), 0)]:
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    xd = mi.TensorDescriptor(); mi.setTensorDescriptor(xd, mi.miopenFloat, 4, list(shape), None)
    bd = mi.TensorDescriptor(); mi.deriveBNTensorDescriptor(bd, xd, mode)
    sc = rng.standard_normal(bd.shape).astype(np.float32); bi = sc[::-1].copy()
    y = np.empty_like(x); dx = np.empty_like(x)
    sm, si, ds, db = (np.empty(bd.shape, np.float32) for _ in range(4))
    mi.batchNormalizationForwardTraining(h, mode, 1.0, 0.0, xd, x, xd, y, bd, sc, bi, 0.0, None,
                                         None, 1e-5, sm, si)
    mi.batchNormalizationBackward(h, mode, 1.0, 0.0, 1.0, 0.0, xd, x, xd, dy, xd, dx, bd, sc, ds,
                                  db, 1e-5, None, None)
    for a in (y, sm, si, dx, ds, db):
        out.update(a.tobytes())
print(out.hexdigest())
"""


def test_results_do_not_depend_on_thread_count(tmp_path):
    digests = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        # cwd outside the source tree, so that the installed package is the one imported
        run = subprocess.run([sys.executable, "-c", _DETERMINISM_SCRIPT], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True)
        digests.add(run.stdout.strip())
    assert len(digests) == 1


# ---- forward inference ------------------------------------------------------------------------

@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (2.0, -0.5)])
@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (3, 4, 2, 3, 5)], ids=["4d", "5d"])
@pytest.mark.parametrize("mode", MODES)
def test_fwd_infer_matches_torch(handle, rng, mode, shape, alpha, beta):
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    y = poisoned(shape) if beta == 0 else rng.standard_normal(shape).astype(np.float32)
    y0 = y.astype(np.float64)
    mi.batchNormalizationForwardInference(handle, mode, alpha, beta, xd, x, xd, y, bd, scale, bias,
                                          rm, rv, EPS)
    t = F.batch_norm(torch_input(x, mode), torch_param(rm), torch_param(rv), torch_param(scale),
                     torch_param(bias), False, 0.0, EPS).reshape(shape).numpy()
    assert rel_l2(y, alpha * t + (beta * y0 if beta else 0.0)) <= TOL


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (0, 2, 3, 1)], ids=["nchw", "nhwc"])
@pytest.mark.parametrize("mode", MODES)
def test_fwd_infer_strided(handle, rng, mode, order):
    shape = (3, 5, 6, 7)
    xm, xv, xs = layout(shape, order, rng)
    y = Strided(shape)
    ps = pshape(mode, shape)
    scale, bias, rm, rv = (Strided(ps, rng) for _ in range(4))
    rv.view[...] = np.abs(rv.view) + 0.1
    mi.batchNormalizationForwardInference(handle, mode, 1.0, 0.0, desc(shape, xs), xm, y.desc(),
                                          y.buf, scale.desc(), scale.buf, bias.buf, rm.buf, rv.buf,
                                          EPS)
    expect = ref.forward(xv, scale.view, bias.view, rm.view, rv.view, EPS)
    assert rel_l2(y.view, expect) <= TOL and y.gaps_untouched()


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 4), c=st.integers(1, 6), spatial=st.lists(st.integers(1, 6), min_size=2,
       max_size=3), mode=st.sampled_from([SPATIAL, PER_ACT]), seed=st.integers(0, 2**16))
def test_fwd_infer_hypothesis(n, c, spatial, mode, seed):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    shape = (n, c, *spatial)
    x, y = Strided(shape, rng), Strided(shape)
    bd = bn_desc(x.desc(), mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    mi.batchNormalizationForwardInference(handle, mode, 1.0, 0.0, x.desc(), x.buf, y.desc(), y.buf,
                                          bd, scale, bias, rm, rv, EPS)
    assert rel_l2(y.view, ref.forward(x.view, scale, bias, rm, rv, EPS)) <= TOL
    assert y.gaps_untouched()


@pytest.mark.parametrize("missing", ["both", "mean", "variance"])
@pytest.mark.parametrize("mode", MODES)
def test_fwd_infer_without_estimates_uses_batch_statistics(handle, rng, mode, missing):
    # MIOpen runs its training kernel when either estimate is null: batch statistics, nothing
    # updated.
    shape = (4, 3, 5, 6)
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    rm0, rv0 = rm.copy(), rv.copy()
    est = {"both": (None, None), "mean": (None, rv), "variance": (rm, None)}[missing]
    y = poisoned(shape)
    mi.batchNormalizationForwardInference(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                          *est, EPS)
    ey, *_ = ref.forward_training(x, int(mode), scale, bias, EPS)
    assert rel_l2(y, ey) <= TOL
    assert np.array_equal(rm, rm0) and np.array_equal(rv, rv0)


# ---- backward ---------------------------------------------------------------------------------

@pytest.mark.parametrize("use_saved", [True, False], ids=["saved", "recomputed"])
@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (3, 4, 2, 3, 5)], ids=["4d", "5d"])
@pytest.mark.parametrize("mode", MODES)
def test_bwd_matches_torch_autograd(handle, rng, mode, shape, use_saved):
    x = data(rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, bias, _, _ = params(rng, bd.shape)
    sm, si = poisoned(bd.shape), poisoned(bd.shape)
    y = poisoned(shape)
    mi.batchNormalizationForwardTraining(handle, mode, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.0, None, None, EPS, sm, si)
    dx, ds, db = poisoned(shape), poisoned(bd.shape), poisoned(bd.shape)
    saved = (sm, si) if use_saved else (None, None)
    mi.batchNormalizationBackward(handle, mode, 1.0, 0.0, 1.0, 0.0, xd, x, xd, dy, xd, dx, bd,
                                  scale, ds, db, EPS, *saved)
    tdx, tds, tdb = torch_grads(x, dy, mode, scale, bias)
    assert rel_l2(dx, tdx) <= TOL
    assert rel_l2(ds.ravel(), tds) <= TOL and rel_l2(db.ravel(), tdb) <= TOL


@pytest.mark.parametrize("mode", MODES)
def test_bwd_uses_the_saved_statistics_it_is_given(handle, rng, mode):
    # With saved mean / inv std the kernel must use them as given, not recompute them.
    shape = (4, 3, 5, 6)
    x = data(rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, _, _, _ = params(rng, bd.shape)
    sm = rng.standard_normal(bd.shape).astype(np.float32)
    si = (rng.random(bd.shape) + 0.5).astype(np.float32)
    dx, ds, db = poisoned(shape), poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationBackward(handle, mode, 1.0, 0.0, 1.0, 0.0, xd, x, xd, dy, xd, dx, bd,
                                  scale, ds, db, EPS, sm, si)
    edx, eds, edb = ref.backward(x, dy, int(mode), scale, sm.astype(np.float64),
                                 si.astype(np.float64))
    assert rel_l2(dx, edx) <= TOL and rel_l2(ds, eds) <= TOL and rel_l2(db, edb) <= TOL


@pytest.mark.parametrize("mode", MODES)
def test_bwd_blends_data_and_param_diffs(handle, rng, mode):
    shape = (4, 3, 5, 6)
    x = data(rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, _, _, _ = params(rng, bd.shape)
    mean, var, _ = ref.batch_stats(x, int(mode))
    edx, eds, edb = ref.backward(x, dy, int(mode), scale, mean, 1 / np.sqrt(var + EPS))
    dx = rng.standard_normal(shape).astype(np.float32)
    ds = rng.standard_normal(bd.shape).astype(np.float32)
    db = rng.standard_normal(bd.shape).astype(np.float32)
    dx0, ds0, db0 = (a.astype(np.float64) for a in (dx, ds, db))
    mi.batchNormalizationBackward(handle, mode, 0.5, 2.0, -1.5, 0.25, xd, x, xd, dy, xd, dx, bd,
                                  scale, ds, db, EPS, None, None)
    assert rel_l2(dx, 0.5 * edx + 2.0 * dx0) <= TOL
    assert rel_l2(ds, -1.5 * eds + 0.25 * ds0) <= TOL
    assert rel_l2(db, -1.5 * edb + 0.25 * db0) <= TOL


@pytest.mark.parametrize("mode", MODES)
def test_bwd_strided_and_mixed_layouts_leave_gaps(handle, rng, mode):
    shape = (4, 5, 6, 7)
    x = Strided(shape, rng)
    dym, dyv, dys = layout(shape, (0, 2, 3, 1), rng)
    dx = Strided(shape)
    ps = pshape(mode, shape)
    scale, ds, db = Strided(ps, rng), Strided(ps), Strided(ps)
    mi.batchNormalizationBackward(handle, mode, 1.0, 0.0, 1.0, 0.0, x.desc(), x.buf,
                                  desc(shape, dys), dym, dx.desc(), dx.buf, scale.desc(),
                                  scale.buf, ds.buf, db.buf, EPS, None, None)
    mean, var, _ = ref.batch_stats(x.view, int(mode))
    edx, eds, edb = ref.backward(x.view, dyv, int(mode), scale.view, mean, 1 / np.sqrt(var + EPS))
    assert rel_l2(dx.view, edx) <= TOL
    assert rel_l2(ds.view, eds) <= TOL and rel_l2(db.view, edb) <= TOL
    assert dx.gaps_untouched() and ds.gaps_untouched() and db.gaps_untouched()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 6), c=st.integers(1, 5), spatial=st.lists(st.integers(1, 6), min_size=2,
       max_size=3), mode=st.sampled_from([SPATIAL, PER_ACT]), use_saved=st.booleans(),
       seed=st.integers(0, 2**16))
def test_bwd_hypothesis(n, c, spatial, mode, use_saved, seed):
    # n >= 3: with 1 or 2 elements per statistic dx is ~0 up to rounding (ill-conditioned).
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    shape = (n, c, *spatial)
    x, dy, dx = Strided(shape, rng), Strided(shape, rng), Strided(shape)
    bd = bn_desc(x.desc(), mode)
    scale, bias, _, _ = params(rng, bd.shape)
    mean, var, _ = ref.batch_stats(x.view, int(mode))
    inv_std = 1 / np.sqrt(var + EPS)
    saved = (mean.astype(np.float32), inv_std.astype(np.float32)) if use_saved else (None, None)
    ds, db = poisoned(bd.shape), poisoned(bd.shape)
    mi.batchNormalizationBackward(handle, mode, 1.0, 0.0, 1.0, 0.0, x.desc(), x.buf, dy.desc(),
                                  dy.buf, dx.desc(), dx.buf, bd, scale, ds, db, EPS, *saved)
    if use_saved:
        mean, inv_std = saved[0].astype(np.float64), saved[1].astype(np.float64)
    edx, eds, edb = ref.backward(x.view, dy.view, int(mode), scale, mean, inv_std)
    assert rel_l2(dx.view, edx) <= TOL
    assert rel_l2(ds, eds) <= TOL and rel_l2(db, edb) <= TOL
    assert dx.gaps_untouched()


# ---- bad calls: a MIOpenError naming the parameter, and nothing written ------------------------

def _fwd_train_call(handle, rng, mode=SPATIAL, shape=(2, 3, 4, 5)):
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, mode)
    scale, bias, rm, rv = params(rng, bd.shape)
    return dict(handle=handle, bn_mode=mode, alpha=1.0, beta=0.0, xDesc=xd, x=x,
                yDesc=desc(shape), y=poisoned(shape), bnScaleBiasMeanVarDesc=bd, bnScale=scale,
                bnBias=bias, expAvgFactor=0.1, resultRunningMean=rm, resultRunningVariance=rv,
                epsilon=EPS, resultSaveMean=poisoned(bd.shape),
                resultSaveInvVariance=poisoned(bd.shape))


def _snapshot(kw, names):
    return {k: kw[k].copy() for k in names if isinstance(kw.get(k), np.ndarray)}


def _unchanged(kw, snap):
    return all(np.array_equal(kw[k], v, equal_nan=True) for k, v in snap.items())


BAD_FWD_TRAIN = [
    (dict(bn_mode=5), mi.BadParmError, "bn_mode = 5 is not a miopenBatchNormMode_t"),
    (dict(x_shape=(2, 3, 20)), mi.BadParmError, "xDesc has 3 dims"),
    (dict(yDesc=(2, 3, 4, 6)), mi.BadParmError, "xDesc and yDesc have different lengths"),
    (dict(yDesc_dtype=mi.miopenDouble), mi.BadParmError, "xDesc is miopenFloat but yDesc is miopenDouble"),
    (dict(bn=(1, 3, 4, 5)), mi.BadParmError,
     r"bnScaleBiasMeanVarDesc has lengths \(1, 3, 4, 5\); expected \(1, 3, 1, 1\) for miopenBNSpatial"),
    (dict(bn=(1, 4, 1, 1)), mi.BadParmError, "bnScaleBiasMeanVarDesc has lengths"),
    (dict(bn=(3,)), mi.BadParmError, "bnScaleBiasMeanVarDesc has lengths"),
    # fp32 data take fp32 parameters only (fp16 ones are MIOpen's for fp16 data)
    (dict(bn_dtype=mi.miopenHalf), mi.BadParmError, "bnScaleBiasMeanVarDesc has data type miopenHalf"),
    (dict(epsilon=-1e-5), mi.BadParmError, "epsilon = -1e-05; must be finite and >= 0"),
    (dict(epsilon=float("nan")), mi.BadParmError, "epsilon = nan"),
    (dict(epsilon=float("inf")), mi.BadParmError, "epsilon = inf"),
    (dict(expAvgFactor=1.5), mi.BadParmError, r"expAvgFactor = 1.5; must be in \[0, 1\]"),
    (dict(expAvgFactor=-0.1), mi.BadParmError, "expAvgFactor = -0.1"),
    (dict(expAvgFactor=float("nan")), mi.BadParmError, "expAvgFactor = nan"),
    (dict(x=None), mi.BadParmError, "x is a null pointer"),
    (dict(y=None), mi.BadParmError, "y is a null pointer"),
    (dict(bnScale=None), mi.BadParmError, "bnScale is a null pointer"),
    (dict(bnBias=None), mi.BadParmError, "bnBias is a null pointer"),
    (dict(xDesc=None), mi.BadParmError, "xDesc is null"),
    (dict(bnScaleBiasMeanVarDesc="unset"), mi.BadParmError, "bnScaleBiasMeanVarDesc has not been set"),
    (dict(bnBias="short"), mi.BadParmError, "bnBias: the buffer has 8 bytes; its descriptor needs 12"),
    (dict(resultRunningMean="f64"), mi.BadParmError, "resultRunningMean: array dtype 'f8'"),
    (dict(x="short"), mi.BadParmError, "x: the buffer has 8 bytes"),
]


@pytest.mark.parametrize("change,exc,word", BAD_FWD_TRAIN, ids=[w[:40] for _, _, w in BAD_FWD_TRAIN])
def test_fwd_train_bad_inputs_change_nothing(handle, rng, change, exc, word):
    kw = _fwd_train_call(handle, rng)
    shape = kw["x"].shape
    for k, v in change.items():
        if k == "x_shape":
            kw["xDesc"] = desc(v)
            kw["x"] = data(rng, v)
        elif k == "yDesc":
            kw["yDesc"] = desc(v)
            kw["y"] = poisoned(v)
        elif k == "yDesc_dtype":
            kw["yDesc"] = desc(shape, dtype=v)
            kw["y"] = np.full(shape, np.nan)
        elif k == "bn":
            kw["bnScaleBiasMeanVarDesc"] = desc(v)
            for name in ("bnScale", "bnBias", "resultRunningMean", "resultRunningVariance",
                         "resultSaveMean", "resultSaveInvVariance"):
                kw[name] = np.resize(kw[name], v)
        elif k == "bn_dtype":
            kw["bnScaleBiasMeanVarDesc"] = desc(kw["bnScaleBiasMeanVarDesc"].shape, dtype=v)
            for name in ("bnScale", "bnBias", "resultRunningMean", "resultRunningVariance",
                         "resultSaveMean", "resultSaveInvVariance"):
                kw[name] = kw[name].astype(np.float16)
        elif v == "unset":
            kw[k] = mi.TensorDescriptor()
        elif v == "short":
            kw[k] = np.zeros(2, np.float32)
        elif v == "f64":
            kw[k] = kw[k].astype(np.float64)
        else:
            kw[k] = v
    snap = _snapshot(kw, ("y", "resultRunningMean", "resultRunningVariance", "resultSaveMean",
                          "resultSaveInvVariance"))
    with pytest.raises(exc, match=word):
        mi.batchNormalizationForwardTraining(**kw)
    assert _unchanged(kw, snap)


def test_double_data_is_a_bad_parm_and_changes_nothing(handle, rng):
    shape = (2, 3, 4, 5)
    xd = desc(shape, dtype=mi.miopenDouble)
    bd = bn_desc(xd, SPATIAL)
    assert bd.dtype == mi.miopenFloat           # MIOpen derives fp32 parameters for any x
    x = rng.standard_normal(shape)
    y = np.full(shape, np.nan)
    scale, bias, rm, rv = params(rng, bd.shape)
    with pytest.raises(mi.BadParmError, match="xDesc has data type miopenDouble"):
        mi.batchNormalizationForwardTraining(handle, SPATIAL, 1.0, 0.0, xd, x, xd, y, bd, scale,
                                             bias, 0.1, rm, rv, EPS, None, None)
    with pytest.raises(mi.BadParmError, match="xDesc has data type miopenDouble"):
        mi.batchNormalizationForwardInference(handle, SPATIAL, 1.0, 0.0, xd, x, xd, y, bd, scale,
                                              bias, rm, rv, EPS)
    assert np.all(np.isnan(y))


def test_destroyed_descriptor_raises_before_the_call(handle, rng):
    kw = _fwd_train_call(handle, rng)
    mi.destroyTensorDescriptor(kw["yDesc"])
    with pytest.raises(ValueError, match="yDesc has been destroyed"):
        mi.batchNormalizationForwardTraining(**kw)
    assert np.all(np.isnan(kw["y"]))


def test_per_activation_param_desc_must_match_mode(handle, rng):
    kw = _fwd_train_call(handle, rng, mode=PER_ACT)
    kw["bn_mode"] = SPATIAL
    with pytest.raises(mi.BadParmError, match=r"expected \(1, 3, 1, 1\) for miopenBNSpatial"):
        mi.batchNormalizationForwardTraining(**kw)
    kw = _fwd_train_call(handle, rng, mode=SPATIAL)
    kw["bn_mode"] = PER_ACT
    with pytest.raises(mi.BadParmError, match=r"expected \(1, 3, 4, 5\) for miopenBNPerActivation"):
        mi.batchNormalizationForwardTraining(**kw)


def test_fwd_infer_bad_inputs_change_nothing(handle, rng):
    shape = (2, 3, 4, 5)
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, SPATIAL)
    scale, bias, rm, rv = params(rng, bd.shape)
    y = poisoned(shape)
    cases = [
        (dict(bn_mode=-1), "bn_mode = -1"),
        (dict(epsilon=-1.0), "epsilon = -1"),
        (dict(yDesc=desc((2, 3, 4, 4))), "xDesc and yDesc have different lengths"),
        (dict(bnScale=None), "bnScale is a null pointer"),
        (dict(y=None), "y is a null pointer"),
        (dict(bnScaleBiasMeanVarDesc=desc((1, 3, 4, 5)), bnScale=np.ones((1, 3, 4, 5), np.float32),
              bnBias=np.ones((1, 3, 4, 5), np.float32), estimatedMean=np.ones((1, 3, 4, 5), np.float32),
              estimatedVariance=np.ones((1, 3, 4, 5), np.float32)),
         "bnScaleBiasMeanVarDesc has lengths"),
        (dict(estimatedMean=np.zeros(2, np.float32)), "estimatedMean: the buffer has 8 bytes"),
    ]
    for change, word in cases:
        kw = dict(handle=handle, bn_mode=SPATIAL, alpha=1.0, beta=0.0, xDesc=xd, x=x, yDesc=xd,
                  y=y, bnScaleBiasMeanVarDesc=bd, bnScale=scale, bnBias=bias, estimatedMean=rm,
                  estimatedVariance=rv, epsilon=EPS)
        kw.update(change)
        with pytest.raises(mi.BadParmError, match=word):
            mi.batchNormalizationForwardInference(**kw)
        assert np.all(np.isnan(y)), change


def test_bwd_bad_inputs_change_nothing(handle, rng):
    shape = (2, 3, 4, 5)
    x = data(rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    xd = desc(shape)
    bd = bn_desc(xd, PER_ACT)
    scale, _, sm, si = params(rng, bd.shape)
    dx, ds, db = poisoned(shape), poisoned(bd.shape), poisoned(bd.shape)
    cases = [
        (dict(bn_mode=3), mi.BadParmError, "bn_mode = 3"),
        (dict(dyDesc=desc((2, 3, 4, 6)), dy=np.ones((2, 3, 4, 6), np.float32)), mi.BadParmError,
         "xDesc and dyDesc have different lengths"),
        (dict(dxDesc=desc((2, 3, 5, 5)), dx=poisoned((2, 3, 5, 5))), mi.BadParmError,
         "xDesc and dxDesc have different lengths"),
        (dict(dxDesc=desc(shape, dtype=mi.miopenHalf), dx=np.full(shape, np.nan, np.float16)),
         mi.BadParmError, "xDesc is miopenFloat but dxDesc is miopenHalf"),
        (dict(bnScaleBiasDiffDesc=desc((1, 3, 1, 1)), bnScale=scale[:, :, :1, :1].copy(),
              resultBnScaleDiff=poisoned((1, 3, 1, 1)), resultBnBiasDiff=poisoned((1, 3, 1, 1)),
              savedMean=sm[:, :, :1, :1].copy(), savedInvVariance=si[:, :, :1, :1].copy()),
         mi.BadParmError,
         r"bnScaleBiasDiffDesc has lengths \(1, 3, 1, 1\); expected \(1, 3, 4, 5\)"),
        (dict(x=None), mi.BadParmError, "x is a null pointer"),
        (dict(dy=None), mi.BadParmError, "dy is a null pointer"),
        (dict(dx=None), mi.BadParmError, "dx is a null pointer"),
        (dict(bnScale=None), mi.BadParmError, "bnScale is a null pointer"),
        (dict(resultBnScaleDiff=None), mi.BadParmError, "resultBnScaleDiff is a null pointer"),
        (dict(resultBnBiasDiff=None), mi.BadParmError, "resultBnBiasDiff is a null pointer"),
        (dict(epsilon=float("-inf")), mi.BadParmError, "epsilon = -inf"),
        (dict(dyDesc=None), mi.BadParmError, "dyDesc is null"),
        (dict(savedMean=np.zeros(3, np.float32)), mi.BadParmError, "savedMean: the buffer has 12 bytes"),
    ]
    for change, exc, word in cases:
        kw = dict(handle=handle, bn_mode=PER_ACT, alphaDataDiff=1.0, betaDataDiff=0.0,
                  alphaParamDiff=1.0, betaParamDiff=0.0, xDesc=xd, x=x, dyDesc=xd, dy=dy,
                  dxDesc=xd, dx=dx, bnScaleBiasDiffDesc=bd, bnScale=scale, resultBnScaleDiff=ds,
                  resultBnBiasDiff=db, epsilon=EPS, savedMean=sm, savedInvVariance=si)
        kw.update(change)
        with pytest.raises(exc, match=word):
            mi.batchNormalizationBackward(**kw)
        for out in ("dx", "resultBnScaleDiff", "resultBnBiasDiff"):
            assert kw[out] is None or np.all(np.isnan(kw[out])), (change, out)


def test_epsilon_zero_is_allowed(handle, rng):
    # cuDNN's CUDNN_BN_MIN_EPSILON is 0 (since 7.5) and MIOpen has no minimum.
    shape = (3, 2, 4, 4)
    x = data(rng, shape)
    xd = desc(shape)
    bd = bn_desc(xd, SPATIAL)
    scale, bias, _, _ = params(rng, bd.shape)
    y = poisoned(shape)
    mi.batchNormalizationForwardTraining(handle, SPATIAL, 1.0, 0.0, xd, x, xd, y, bd, scale, bias,
                                         0.0, None, None, 0.0, None, None)
    assert rel_l2(y, ref.forward_training(x, SPATIAL, scale, bias, 0.0)[0]) <= TOL


def test_profiling_records_a_kernel_time(rng):
    handle = mi.Handle(device="cpu")
    mi.enableProfiling(handle, True)
    kw = _fwd_train_call(handle, rng)
    mi.batchNormalizationForwardTraining(**kw)
    assert mi.getKernelTime(handle) >= 0.0


def test_logging_prints_the_call(tmp_path):
    code = ("import numpy as np, miopen_cy as mi\n"
            "d = mi.TensorDescriptor(); mi.setTensorDescriptor(d, mi.miopenFloat, 4, [2, 3, 4, 5], None)\n"
            "b = mi.TensorDescriptor(); mi.deriveBNTensorDescriptor(b, d, mi.miopenBNSpatial)\n")
    env = dict(os.environ, MIOPEN_ENABLE_LOGGING="1")
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True,
                         text=True, check=True)
    assert "miopenDeriveBNTensorDescriptor" in run.stderr and "bn_mode = 1" in run.stderr


# ---- storage types: fp16 / bf16 data, fp32 (MIOpen's mixed mode) or same-type parameters -------
# The oracle is PyTorch in float64 on the stored (already rounded) inputs; a 16-bit output is one
# rounding of an fp32 result, so it is checked to 2 units of its type (absolute below 1).

LAYOUTS = [pytest.param((0, 1, 2, 3), id="nchw"), pytest.param((0, 2, 3, 1), id="nhwc")]
PARAM_TYPES = [pytest.param("fp32", id="p32"), pytest.param("data", id="pdata")]


class _ArrayInterface:
    """A bf16 NumPy array seen through __array_interface__ alone: the buffer protocol cannot
    carry ml_dtypes' bfloat16 (NumPy refuses its format), the array interface can."""

    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


def _arg(a):
    if isinstance(a, np.ndarray) and a.dtype.kind == "V":
        return _ArrayInterface(a)
    if isinstance(a, np.ndarray) and a.dtype.name == "bfloat16":
        return _ArrayInterface(a)
    return a


def bn_call(fn, *args, **kw):
    return fn(*[_arg(a) for a in args], **{k: _arg(v) for k, v in kw.items()})


def stored_layout(shape, order, dt, rng=None, lo=-2.0, hi=3.0):
    """Like layout(), in storage type dt: (buffer, logical view, element strides)."""
    mem = poison([shape[i] for i in order], dt)
    view = mem.transpose(np.argsort(order))
    if rng is not None:
        view[...] = random_stored(shape, dt, rng, lo, hi)
    return mem, view, tuple(s // mem.itemsize for s in view.strides)


def close(actual, expected, dt, what=""):
    if int(dt) == int(mi.miopenFloat):
        assert rel_l2(as64(actual), expected) <= TOL, what
    else:
        check_close(actual, expected, dt, ulps=2, err_msg=what)


def typed_params(rng, ps, pt):
    scale = random_stored(ps, pt, rng, -2.0, 2.0)
    bias = random_stored(ps, pt, rng, -2.0, 2.0)
    rm = random_stored(ps, pt, rng, -1.0, 1.0)
    rv = random_stored(ps, pt, rng, 0.5, 1.5)
    return scale, bias, rm, rv


def param_type(dt, kind):
    return mi.miopenFloat if kind == "fp32" else dt


def check_blended_bwd(handle, rng, dt, mode, xd, x, dy, dx, use_saved):
    """A blended backward (alpha/beta data 1.5/0.5, param 2/-1) on x, dy, dx (each a pair: the
    buffer passed and its logical view; all described by xd) with fp32 parameters, the saved
    statistics from torch or recomputed, checked against torch autograd / the float64 reference."""
    (xm, xv), (dym, dyv), (dxm, dxv) = x, dy, dx
    shape = xv.shape
    dx0 = as64(dxv)
    ps = pshape(mode, shape)
    scale, bias, _, _ = typed_params(rng, ps, mi.miopenFloat)
    ds0, db0 = typed_params(rng, ps, mi.miopenFloat)[:2]
    ds, db = ds0.copy(), db0.copy()
    x64 = as64(xv)
    saved = (None, None)
    if use_saved:
        _, tsm, tsi, _, _ = torch_train(x64, mode, as64(scale), as64(bias), np.zeros(ps),
                                        np.ones(ps), 0.0)
        saved = (tsm.reshape(ps).astype(np.float32), tsi.reshape(ps).astype(np.float32))
    bn_call(mi.batchNormalizationBackward, handle, mode, 1.5, 0.5, 2.0, -1.0, xd, xm, xd, dym,
            xd, dxm, desc(ps), scale, ds, db, EPS, *saved)
    if use_saved:
        edx, eds, edb = ref.backward(x64, as64(dyv), mode, as64(scale), as64(saved[0]),
                                     as64(saved[1]))
    else:
        edx, eds, edb = torch_grads(x64, as64(dyv), mode, as64(scale), as64(bias))
    edx = 1.5 * np.asarray(edx) + 0.5 * dx0
    if int(dt) == int(mi.miopenFloat):
        assert rel_l2(as64(dxv), edx) <= TOL
    else:
        check_close(dxv, edx, dt, ulps=2, floor=float(np.max(np.abs(edx))), err_msg="dx")
    close(ds.ravel(), 2.0 * np.ravel(eds) - as64(ds0).ravel(), mi.miopenFloat, "dscale")
    close(db.ravel(), 2.0 * np.ravel(edb) - as64(db0).ravel(), mi.miopenFloat, "dbias")


@pytest.mark.parametrize("ptype", PARAM_TYPES)
@pytest.mark.parametrize("order", LAYOUTS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fwd_train_matches_torch(handle, rng, dt, mode, order, ptype):
    if int(dt) == int(mi.miopenFloat) and ptype == "data":
        pytest.skip("fp32 parameters of fp32 data: the p32 case")
    shape = (4, 6, 5, 7)
    pt = param_type(dt, ptype)
    xm, xv, xs = stored_layout(shape, order, dt, rng)
    ym, yv, ys = stored_layout(shape, order, dt)
    xd = desc(shape, xs, dt)
    bd = desc(pshape(mode, shape), dtype=pt)
    scale, bias, rm, rv = typed_params(rng, bd.shape, pt)
    rm0, rv0 = as64(rm), as64(rv)
    sm, si = poison(bd.shape, pt), poison(bd.shape, pt)
    bn_call(mi.batchNormalizationForwardTraining, handle, mode, 1.0, 0.0, xd, xm, desc(shape, ys, dt), ym,
                                         bd, scale, bias, 0.25, rm, rv, EPS, sm, si)
    ty, tsm, tsi, trm, trv = torch_train(as64(xv), mode, as64(scale), as64(bias), rm0, rv0, 0.25)
    close(yv, ty, dt, "y")
    close(sm.ravel(), tsm, pt, "saved mean")
    close(si.ravel(), tsi, pt, "saved inv std")
    close(rm.ravel(), trm, pt, "running mean")
    close(rv.ravel(), trv, pt, "running variance")


@pytest.mark.parametrize("ptype", PARAM_TYPES)
@pytest.mark.parametrize("order", LAYOUTS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", HALF_TYPES)
def test_types_fwd_infer_matches_torch(handle, rng, dt, mode, order, ptype):
    shape = (3, 5, 6, 4)
    pt = param_type(dt, ptype)
    xm, xv, xs = stored_layout(shape, order, dt, rng)
    ym, yv, ys = stored_layout(shape, order, dt)
    xd = desc(shape, xs, dt)
    bd = desc(pshape(mode, shape), dtype=pt)
    scale, bias, rm, rv = typed_params(rng, bd.shape, pt)
    bn_call(mi.batchNormalizationForwardInference, handle, mode, 1.0, 0.0, xd, xm, desc(shape, ys, dt), ym,
                                          bd, scale, bias, rm, rv, EPS)
    ty = F.batch_norm(torch_input(as64(xv), mode), torch_param(as64(rm)), torch_param(as64(rv)),
                      torch_param(as64(scale)), torch_param(as64(bias)), False, 0.0, EPS)
    close(yv, ty.reshape(shape).numpy(), dt, "y")


@pytest.mark.parametrize("use_saved", [True, False], ids=["saved", "recomputed"])
@pytest.mark.parametrize("ptype", PARAM_TYPES)
@pytest.mark.parametrize("order", LAYOUTS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", HALF_TYPES)
def test_types_bwd_matches_torch(handle, rng, dt, mode, order, ptype, use_saved):
    shape = (4, 3, 5, 6)
    pt = param_type(dt, ptype)
    xm, xv, xs = stored_layout(shape, order, dt, rng)
    dym, dyv, dys = stored_layout(shape, order, dt, rng, -1.0, 1.0)
    dxm, dxv, dxs = stored_layout(shape, order, dt)
    xd = desc(shape, xs, dt)
    bd = desc(pshape(mode, shape), dtype=pt)
    scale, bias, _, _ = typed_params(rng, bd.shape, pt)
    ds, db = poison(bd.shape, pt), poison(bd.shape, pt)
    x64 = as64(xv)
    saved = (None, None)
    if use_saved:
        _, tsm, tsi, _, _ = torch_train(x64, mode, as64(scale), as64(bias), np.zeros(bd.shape),
                                        np.ones(bd.shape), 0.0)
        saved = (np.asarray(tsm.reshape(bd.shape)).astype(np_dtype(pt)),
                 np.asarray(tsi.reshape(bd.shape)).astype(np_dtype(pt)))
    bn_call(mi.batchNormalizationBackward, handle, mode, 1.0, 0.0, 1.0, 0.0, xd, xm, desc(shape, dys, dt),
                                  dym, desc(shape, dxs, dt), dxm, bd, scale, ds, db, EPS, *saved)
    if use_saved:
        edx, eds, edb = ref.backward(x64, as64(dyv), int(mode), as64(scale), as64(saved[0]),
                                     as64(saved[1]))
    else:
        edx, eds, edb = torch_grads(x64, as64(dyv), mode, as64(scale), as64(bias))
    # dx adds three terms of the size of dy / sigma: absolute to the largest of them
    check_close(dxv, edx, dt, ulps=2, floor=float(np.max(np.abs(edx))), err_msg="dx")
    close(ds.ravel(), np.ravel(eds), pt, "dscale")
    close(db.ravel(), np.ravel(edb), pt, "dbias")


def typed_layout(shape, order, dt, rng, kind, lo=-2.0, hi=3.0):
    """Like stored_layout(), with the memory's innermost dim padded by 3 elements ("gaps") or
    taken every other element ("step2"), or neither ("dense")."""
    mshape = [shape[i] for i in order]
    extra = {"dense": mshape[-1], "gaps": mshape[-1] + 3, "step2": 2 * mshape[-1]}[kind]
    mem = poison(mshape[:-1] + [extra], dt)
    sub = mem[..., ::2] if kind == "step2" else mem[..., :mshape[-1]]
    view = sub.transpose(np.argsort(order))
    view[...] = random_stored(shape, dt, rng, lo, hi)
    return mem, view, tuple(s // mem.itemsize for s in view.strides)


STAGED_CASES = [
    pytest.param(SPATIAL, (2, 3, 512, 400), (0, 1, 2, 3), "dense", id="spatial-split"),
    pytest.param(SPATIAL, (3, 8, 128, 128), (0, 2, 3, 1), "dense", id="nhwc-chunks"),
    pytest.param(PER_ACT, (3000, 40, 1, 1), (0, 1, 2, 3), "dense", id="per_act-long-n"),
    pytest.param(SPATIAL, (3, 8, 40, 48), (0, 2, 3, 1), "gaps", id="nhwc-gaps"),
    pytest.param(SPATIAL, (2, 5, 30, 36), (0, 1, 2, 3), "step2", id="spatial-step2"),
    pytest.param(PER_ACT, (4, 6, 10, 12), (0, 1, 2, 3), "step2", id="per_act-step2"),
]


@pytest.mark.parametrize("mode,shape,order,kind", STAGED_CASES)
@pytest.mark.parametrize("dt", HALF_TYPES)
def test_types_staged_items(handle, rng, dt, mode, shape, order, kind):
    """The CPU stages fp16 / bf16 work items as fp32 (cpu/batchnorm_common.hpp's ItemStage): several
    chunks a group, one bulk conversion for packed NHWC, runs with gaps between them, element by
    element at stride 2, and blended outputs (beta: y and dx read back before they are written)."""
    ps = pshape(mode, shape)
    bd = desc(ps)
    xm, xv, xs = typed_layout(shape, order, dt, rng, kind, 8.0, 14.0)   # a mean far from 0
    ym, yv, ys = typed_layout(shape, order, dt, rng, kind)
    xd = desc(shape, xs, dt)
    x64, y0 = as64(xv), as64(yv)
    scale, bias, rm, rv = typed_params(rng, ps, mi.miopenFloat)
    erm, erv = as64(rm), as64(rv)
    sm, si = poison(ps, mi.miopenFloat), poison(ps, mi.miopenFloat)
    bn_call(mi.batchNormalizationForwardTraining, handle, mode, 1.0, 0.5, xd, xm, desc(shape, ys, dt), ym,
            bd, scale, bias, 0.5, rm, rv, EPS, sm, si)
    ey, em, ei, erm, erv = ref.forward_training(x64, int(mode), as64(scale), as64(bias), EPS, erm, erv, 0.5)
    check_close(yv, np.asarray(ey) + 0.5 * y0, dt, err_msg="training y")
    assert rel_l2(sm, em) <= TOL and rel_l2(si, ei) <= TOL
    assert rel_l2(rm, erm) <= TOL and rel_l2(rv, erv) <= TOL

    ym, yv, ys = typed_layout(shape, order, dt, rng, kind)
    y0 = as64(yv)
    em_in, ev_in = typed_params(rng, ps, mi.miopenFloat)[2:]
    bn_call(mi.batchNormalizationForwardInference, handle, mode, 1.0, 0.5, xd, xm, desc(shape, ys, dt), ym,
            bd, scale, bias, em_in, ev_in, EPS)
    ey = (x64 - as64(em_in)) / np.sqrt(as64(ev_in) + EPS) * as64(scale) + as64(bias)
    check_close(yv, ey + 0.5 * y0, dt, err_msg="inference y")

    for use_saved in (True, False):
        dy = typed_layout(shape, order, dt, rng, kind, -1.0, 1.0)
        dx = typed_layout(shape, order, dt, rng, kind)
        check_blended_bwd(handle, rng, dt, mode, xd, (xm, xv), dy[:2], dx[:2], use_saved)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_v2_separate_descriptors(handle, rng, dt, mode):
    """_V2: scale in the data's type, bias fp32 with gaps, mean/variance fp32, all checked."""
    shape = (3, 4, 5, 6)
    ps = pshape(mode, shape)
    x = random_stored(shape, dt, rng)
    xd = desc(shape, dtype=dt)
    y = poison(shape, dt)
    scale = random_stored(ps, dt, rng)
    sd = desc(ps, dtype=dt)
    bias = Strided(ps, rng)
    bias.view[...] = random_stored(ps, mi.miopenFloat, rng)
    md = desc(ps)
    rm = random_stored(ps, mi.miopenFloat, rng, -1, 1)
    rv = random_stored(ps, mi.miopenFloat, rng, 0.5, 1.5)
    rm0, rv0 = as64(rm), as64(rv)
    sm, si = poison(ps, mi.miopenFloat), poison(ps, mi.miopenFloat)
    bn_call(mi.batchNormalizationForwardTraining_V2, handle, mode, 1.0, 0.0, xd, x, xd, y, sd, bias.desc(),
                                            md, md, scale, bias.buf, 0.5, rm, rv, EPS, sm, si)
    b64 = as64(bias.view)
    ty, tsm, tsi, trm, trv = torch_train(as64(x), mode, as64(scale), b64, rm0, rv0, 0.5)
    close(y, ty, dt, "y")
    close(sm.ravel(), tsm, mi.miopenFloat, "saved mean")
    close(si.ravel(), tsi, mi.miopenFloat, "saved inv std")
    close(rm.ravel(), trm, mi.miopenFloat, "running mean")
    close(rv.ravel(), trv, mi.miopenFloat, "running variance")
    assert bias.gaps_untouched()

    y2 = poison(shape, dt)
    bn_call(mi.batchNormalizationForwardInference_V2, handle, mode, 1.0, 0.0, xd, x, xd, y2, sd,
                                             bias.desc(), md, md, scale, bias.buf, rm, rv, EPS)
    ti = F.batch_norm(torch_input(as64(x), mode), torch_param(as64(rm)), torch_param(as64(rv)),
                      torch_param(as64(scale)), torch_param(b64), False, 0.0, EPS)
    close(y2, ti.reshape(shape).numpy(), dt, "inference y")

    dy = random_stored(shape, dt, rng, -1, 1)
    dx = poison(shape, dt)
    ds = poison(ps, dt)
    db = Strided(ps)
    bn_call(mi.batchNormalizationBackward_V2, handle, mode, 1.0, 0.0, 1.0, 0.0, xd, x, xd, dy, xd, dx, sd,
                                     db.desc(), md, md, scale, ds, db.buf, EPS, None, None)
    edx, eds, edb = torch_grads(as64(x), as64(dy), mode, as64(scale), b64)
    check_close(dx, edx, dt, ulps=2, floor=float(np.max(np.abs(edx))), err_msg="dx") \
        if int(dt) != int(mi.miopenFloat) else None
    if int(dt) == int(mi.miopenFloat):
        assert rel_l2(dx, edx) <= TOL
    close(ds.ravel(), np.ravel(eds), dt, "dscale")
    close(db.view.ravel(), np.ravel(edb), mi.miopenFloat, "dbias")
    assert db.gaps_untouched()


def _typed_train_kw(handle, rng, dt=mi.miopenHalf, pt=mi.miopenFloat, shape=(2, 3, 4, 5)):
    ps = pshape(SPATIAL, shape)
    bd = desc(ps, dtype=pt)
    scale, bias, rm, rv = typed_params(rng, ps, pt)
    return dict(handle=handle, bn_mode=SPATIAL, alpha=1.0, beta=0.0, xDesc=desc(shape, dtype=dt),
                x=random_stored(shape, dt, rng), yDesc=desc(shape, dtype=dt), y=poison(shape, dt),
                scaleDesc=bd, biasVarDesc=bd, savedMeanDesc=bd, savedVarDesc=bd, bnScale=scale,
                bnBias=bias, expAvgFactor=0.1, resultRunningMean=rm, resultRunningVariance=rv,
                epsilon=EPS, resultSaveMean=poison(ps, pt), resultSaveInvVariance=poison(ps, pt))


BAD_TYPES = [
    # (changes: name -> (kind, dtype)), expected message
    (dict(x=mi.miopenInt8, y=mi.miopenInt8), "xDesc has data type miopenInt8"),
    (dict(y=mi.miopenBFloat16), "xDesc is miopenHalf but yDesc is miopenBFloat16"),
    (dict(scaleDesc=mi.miopenBFloat16), "scaleDesc has data type miopenBFloat16; for xDesc of miopenHalf"),
    (dict(biasVarDesc=mi.miopenDouble), "biasVarDesc has data type miopenDouble"),
    (dict(savedVarDesc=mi.miopenHalf), "savedVarDesc has data type miopenHalf; savedMeanDesc has miopenFloat"),
    (dict(savedMeanDesc=mi.miopenInt32, savedVarDesc=mi.miopenInt32), "savedMeanDesc has data type miopenInt32"),
]


@pytest.mark.parametrize("change,word", BAD_TYPES, ids=[w[:40] for _, w in BAD_TYPES])
def test_types_bad_or_mismatched_types_change_nothing(handle, rng, change, word):
    if any(int(v) == int(mi.miopenBFloat16) for v in change.values()):
        np_dtype(mi.miopenBFloat16)            # skips without ml_dtypes
    kw = _typed_train_kw(handle, rng)
    shape, ps = kw["x"].shape, kw["bnScale"].shape
    owners = {"scaleDesc": ["bnScale"], "biasVarDesc": ["bnBias"],
              "savedMeanDesc": ["resultRunningMean", "resultSaveMean"],
              "savedVarDesc": ["resultRunningVariance", "resultSaveInvVariance"]}
    for k, t in change.items():
        if k == "x":
            kw["xDesc"] = desc(shape, dtype=t)
            kw["x"] = np.ones(shape, np_dtype(t))
        elif k == "y":
            kw["yDesc"] = desc(shape, dtype=t)
            kw["y"] = (poison(shape, t) if np.dtype(np_dtype(t)).kind == "f"
                       else np.full(shape, 7, np_dtype(t)))
        else:
            kw[k] = desc(ps, dtype=t)
            for name in owners[k]:
                kw[name] = (np.full(ps, np.nan, np_dtype(t)) if np.dtype(np_dtype(t)).kind == "f"
                            else np.full(ps, 7, np_dtype(t)))
    snap = _snapshot(kw, ("y", "resultRunningMean", "resultRunningVariance", "resultSaveMean",
                          "resultSaveInvVariance"))
    with pytest.raises(mi.BadParmError, match=word):
        bn_call(mi.batchNormalizationForwardTraining_V2, **kw)
    assert _unchanged(kw, snap)


@pytest.mark.parametrize("dt", HALF_TYPES)
def test_types_backward_and_inference_refuse_mismatches(handle, rng, dt):
    shape = (2, 3, 4, 5)
    ps = pshape(SPATIAL, shape)
    x = random_stored(shape, dt, rng)
    xd = desc(shape, dtype=dt)
    bd = desc(ps)
    scale, bias, rm, rv = typed_params(rng, ps, mi.miopenFloat)
    dx, ds, db = poison(shape, dt), poison(ps, mi.miopenFloat), poison(ps, mi.miopenFloat)
    with pytest.raises(mi.BadParmError, match="dxDesc is miopenFloat"):
        bn_call(mi.batchNormalizationBackward, handle, SPATIAL, 1.0, 0.0, 1.0, 0.0, xd, x, xd, x,
                                      desc(shape), np.full(shape, np.nan, np.float32), bd, scale,
                                      ds, db, EPS, None, None)
    other = mi.miopenHalf if int(dt) == int(mi.miopenBFloat16) else mi.miopenBFloat16
    with pytest.raises(mi.BadParmError, match=f"biasDesc has data type {mi.DataType(int(other)).name}"):
        bn_call(mi.batchNormalizationBackward_V2, handle, SPATIAL, 1.0, 0.0, 1.0, 0.0, xd, x, xd, x, xd, dx,
                                         bd, desc(ps, dtype=other), bd, bd, scale, ds,
                                         np.full(ps, np.nan, np_dtype(other)), EPS, None, None)
    assert np.all(np.isnan(as64(dx))) and np.all(np.isnan(ds)) and np.all(np.isnan(db))
    y = poison(shape, dt)
    with pytest.raises(mi.BadParmError, match="estVarianceDesc has data type"):
        bn_call(mi.batchNormalizationForwardInference_V2, handle, SPATIAL, 1.0, 0.0, xd, x, xd, y, bd, bd,
                                                 bd, desc(ps, dtype=dt), scale, bias, rm,
                                                 rv.astype(np_dtype(dt)), EPS)
    assert np.all(np.isnan(as64(y)))


# The GPU's special paths in every type (on the CPU the same cases run the general kernels):
# spatial training on packed NCHW with H*W a multiple of 4 (bn_train_nchw4), per-activation
# training and backward on packed data with N <= 64 (bn_peract_train / bn_peract_bwd: one group a
# thread, its column staged in steps of 32 or 16 rows, then 16, 8, ..., 1 for the rest of N: N = 63,
# 46 and 7 take every tail step; N = 70 takes the group reduction), inference on packed NHWC with C a multiple of 4
# (bn_infer_packed's channels-last mode); blending and in place.

@pytest.mark.parametrize("inplace", [False, True], ids=["out", "inplace"])
@pytest.mark.parametrize("mode,shape", [(SPATIAL, (5, 8, 8, 12)), (PER_ACT, (33, 3, 4, 5)),
                                        (PER_ACT, (64, 2, 4, 4)), (PER_ACT, (70, 2, 3, 4)),
                                        (PER_ACT, (1, 3, 2, 4)), (PER_ACT, (17, 5, 7, 9)),
                                        (PER_ACT, (63, 3, 5, 7)), (PER_ACT, (7, 2, 3, 5))],
                         ids=["spatial-nchw4", "per_act-n33", "per_act-n64", "per_act-n70",
                              "per_act-n1", "per_act-n17-blocks", "per_act-n63-tail-steps",
                              "per_act-n7-tail-steps"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fast_paths_train(handle, rng, dt, mode, shape, inplace):
    ps = pshape(mode, shape)
    x = random_stored(shape, dt, rng, -1.0, 4.0)
    x64 = as64(x)
    y0 = random_stored(shape, dt, rng)
    y = x if inplace else y0.copy()
    alpha, beta = (1.0, 0.0) if inplace else (0.75, 0.5)
    scale, bias, rm, rv = typed_params(rng, ps, mi.miopenFloat)
    rm0, rv0 = as64(rm), as64(rv)
    rv0_kept = rv0.copy()
    sm, si = poison(ps, mi.miopenFloat), poison(ps, mi.miopenFloat)
    xd = desc(shape, dtype=dt)
    bn_call(mi.batchNormalizationForwardTraining, handle, mode, alpha, beta, xd, x, xd, y,
            desc(ps), scale, bias, 0.25, rm, rv, EPS, sm, si)
    ty, tsm, tsi, trm, trv = torch_train(x64, mode, as64(scale), as64(bias), rm0, rv0, 0.25)
    if shape[0] == 1:
        trv = 0.75 * as64(rv0_kept).ravel()   # M = 1: MIOpen keeps the biased variance (0)
    expect = alpha * ty + beta * as64(y0) if beta else alpha * ty
    close(y, expect, dt, "y")
    close(sm.ravel(), tsm, mi.miopenFloat, "saved mean")
    close(si.ravel(), tsi, mi.miopenFloat, "saved inv std")
    close(rm.ravel(), trm, mi.miopenFloat, "running mean")
    close(rv.ravel(), trv, mi.miopenFloat, "running variance")


@pytest.mark.parametrize("use_saved", [True, False], ids=["saved", "recomputed"])
@pytest.mark.parametrize("shape", [(33, 3, 4, 5), (64, 2, 4, 4), (70, 2, 3, 4), (17, 5, 7, 9),
                                   (64, 3, 9, 11), (63, 3, 5, 7), (46, 2, 3, 5), (7, 3, 3, 3)],
                         ids=["n33", "n64", "n70", "n17-blocks", "n64-blocks", "n63-tail-steps",
                              "n46-tail-steps", "n7-tail-steps"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fast_paths_peract_bwd(handle, rng, dt, shape, use_saved):
    x = random_stored(shape, dt, rng, -1.0, 4.0)
    dy = random_stored(shape, dt, rng, -1.0, 1.0)
    dx = random_stored(shape, dt, rng)
    check_blended_bwd(handle, rng, dt, PER_ACT, desc(shape, dtype=dt), (x, x), (dy, dy), (dx, dx),
                      use_saved)


@pytest.mark.parametrize("beta", [0.0, 0.5])
@pytest.mark.parametrize("shape", [(3, 8, 5, 6), (2, 4, 1, 1), (2, 12, 3, 3, 2), (2, 64, 20, 20),
                                   (2, 1024, 3, 5), (2, 136, 3, 5), (3, 24, 5, 7)],
                         ids=["c8", "c4-1x1", "5d-c12", "c64-chunks", "c1024", "c136-c8-not-fixed",
                              "c24-odd-spatial"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fast_paths_nhwc_inference(handle, rng, dt, shape, beta):
    order = (0,) + tuple(range(2, len(shape))) + (1,)
    xm, xv, xs = stored_layout(shape, order, dt, rng)
    ym, yv, ys = stored_layout(shape, order, dt, rng)
    y0 = as64(yv)
    ps = pshape(SPATIAL, shape)
    scale, bias, rm, rv = typed_params(rng, ps, mi.miopenFloat)
    bn_call(mi.batchNormalizationForwardInference, handle, SPATIAL, 1.0, beta,
            desc(shape, xs, dt), xm, desc(shape, ys, dt), ym, desc(ps), scale, bias, rm, rv, EPS)
    ty = F.batch_norm(torch.from_numpy(as64(xv)), torch_param(rm), torch_param(rv),
                      torch_param(scale), torch_param(bias), False, 0.0, EPS).numpy()
    close(yv, ty + beta * y0 if beta else ty, dt, "y")


# Spatial inference on packed NCHW (bn_infer_packed's plane mode): 16-bit data whose [D]HW is a
# multiple of 8 moves 8 elements an access (16-byte loads), one of 4 but not 8 quads, others the
# general path; chunks with a short last step, odd sizes, 5-d, blending and in place.
@pytest.mark.parametrize("inplace", [False, True], ids=["out", "inplace"])
@pytest.mark.parametrize("beta", [0.0, 0.5])
@pytest.mark.parametrize("shape", [(3, 5, 8, 8), (2, 3, 40, 52), (2, 2, 64, 72), (2, 3, 5, 4),
                                   (2, 3, 6, 6), (2, 3, 5, 7), (2, 3, 2, 4, 3), (1, 1, 1, 8)],
                         ids=["hw64", "hw2080-chunk-tail", "hw4608-chunks", "hw20-quads",
                              "hw36-quads", "hw35-general", "5d-dhw24", "hw8-one-unit"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fast_paths_nchw_inference(handle, rng, dt, shape, beta, inplace):
    x = random_stored(shape, dt, rng)
    x64 = as64(x)
    y0 = random_stored(shape, dt, rng)
    y = x if inplace else y0.copy()
    y_before = x64 if inplace else as64(y0)
    ps = pshape(SPATIAL, shape)
    scale, bias, rm, rv = typed_params(rng, ps, mi.miopenFloat)
    xd = desc(shape, dtype=dt)
    bn_call(mi.batchNormalizationForwardInference, handle, SPATIAL, 0.75, beta, xd, x, xd, y,
            desc(ps), scale, bias, rm, rv, EPS)
    ty = F.batch_norm(torch.from_numpy(x64), torch_param(rm), torch_param(rv),
                      torch_param(scale), torch_param(bias), False, 0.0, EPS).numpy()
    close(y, 0.75 * ty + beta * y_before if beta else 0.75 * ty, dt, "y")


@pytest.mark.parametrize("beta", [0.0, 0.5])
@pytest.mark.parametrize("shape", [(3, 8, 5, 6), (4, 16, 20, 20), (5, 4, 3, 7), (2, 12, 3, 3, 2),
                                   (2, 136, 3, 5), (2, 256, 64, 72)],
                         ids=["c8", "c16-chunks", "c4", "5d-c12", "c136", "c256-many-chunks"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fast_paths_nhwc_train(handle, rng, dt, shape, beta):
    """Spatial training on packed channels-last data, C a multiple of 4 (bn_train_nhwc4)."""
    order = (0,) + tuple(range(2, len(shape))) + (1,)
    xm, xv, xs = stored_layout(shape, order, dt, rng, -1.0, 4.0)
    ym, yv, ys = stored_layout(shape, order, dt, rng)
    y0 = as64(yv)
    ps = pshape(SPATIAL, shape)
    scale, bias, rm, rv = typed_params(rng, ps, mi.miopenFloat)
    rm0, rv0 = as64(rm), as64(rv)
    sm, si = poison(ps, mi.miopenFloat), poison(ps, mi.miopenFloat)
    bn_call(mi.batchNormalizationForwardTraining, handle, SPATIAL, 1.0, beta, desc(shape, xs, dt),
            xm, desc(shape, ys, dt), ym, desc(ps), scale, bias, 0.25, rm, rv, EPS, sm, si)
    ty, tsm, tsi, trm, trv = torch_train(as64(xv), SPATIAL, as64(scale), as64(bias), rm0, rv0,
                                         0.25)
    close(yv, ty + beta * y0 if beta else ty, dt, "y")
    close(sm.ravel(), tsm, mi.miopenFloat, "saved mean")
    close(si.ravel(), tsi, mi.miopenFloat, "saved inv std")
    close(rm.ravel(), trm, mi.miopenFloat, "running mean")
    close(rv.ravel(), trv, mi.miopenFloat, "running variance")


@pytest.mark.parametrize("use_saved", [True, False], ids=["saved", "recomputed"])
@pytest.mark.parametrize("layout_,shape", [
    ("nchw", (5, 8, 8, 12)), ("nchw", (3, 2, 300, 40)), ("nchw", (2, 3, 2, 2, 4)),
    ("nhwc", (3, 8, 5, 6)), ("nhwc", (4, 16, 20, 20)), ("nhwc", (2, 12, 3, 3, 2)),
    ("nhwc", (2, 256, 64, 72))],
    ids=["nchw-8x12", "nchw-chunks", "ncdhw", "nhwc-c8", "nhwc-c16-chunks", "ndhwc-c12",
         "nhwc-c256-many-chunks"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_fast_paths_spatial_bwd(handle, rng, dt, layout_, shape, use_saved):
    """Spatial backward on packed NCHW (H*W % 4 == 0) and NHWC (C % 4 == 0): the GPU's quad
    kernels (bn_grad_sums_nchw4 / _nhwc4 and their applies), blended."""
    nd = len(shape)
    order = tuple(range(nd)) if layout_ == "nchw" else (0,) + tuple(range(2, nd)) + (1,)
    xm, xv, xs = stored_layout(shape, order, dt, rng, -1.0, 4.0)
    dym, dyv, _ = stored_layout(shape, order, dt, rng, -1.0, 1.0)
    dxm, dxv, _ = stored_layout(shape, order, dt, rng)
    check_blended_bwd(handle, rng, dt, SPATIAL, desc(shape, xs, dt), (xm, xv), (dym, dyv),
                      (dxm, dxv), use_saved)
