"""Convolution bias (miopenConvolutionForwardBias, miopenConvolutionBackwardBias) against PyTorch
in float64. Forward is MIOpen's OpTensor Add with y as both A and C:
y = alpha * y + alpha * b + beta * y (y + b for alpha = 1, beta = 0); backward is
db = alpha * sum over N and the spatial dims of dy + beta * db. In fp32, fp16 and bf16 (inputs
stored in the type, the oracle in float64 on the stored values; fp16/bf16 within 1 ulp of the
type: fp32 arithmetic and double sums, one rounding)."""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.devices import requires_gpu
from support.dtypes import FLOAT_TYPES, as64, check_close, np_dtype, poison, random_stored

TOL = 1e-6


def bshape(shape):
    return (1, shape[1]) + (1,) * (len(shape) - 2)


def check_typed(actual, expected, dt):
    if int(dt) == int(mi.miopenFloat):
        assert rel_l2(actual, expected) <= TOL
    else:
        check_close(actual, expected, dt, ulps=1)


def fwd_expect(y0, b, alpha, beta):
    y = torch.from_numpy(as64(y0))
    tb = torch.from_numpy(as64(b))
    return (alpha * y + alpha * tb + beta * y).numpy()


def bwd_expect(dy, db0, alpha, beta):
    t = torch.from_numpy(as64(dy))
    s = t.sum(dim=[0] + list(range(2, t.dim())), keepdim=True).numpy()
    return alpha * s + (beta * as64(db0) if beta else 0.0)


def layout(shape, order, rng=None, dt=mi.miopenFloat):
    npt = np_dtype(dt)
    mem = np.full([shape[i] for i in order], np.nan, npt)
    view = mem.transpose(np.argsort(order))
    if rng is not None:
        view[...] = random_stored(shape, dt, rng) if int(dt) != int(mi.miopenFloat) \
            else rng.standard_normal(shape).astype(np.float32)
    return mem, view, tuple(s // npt.itemsize for s in view.strides)


# ---- forward ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (0.5, 0.25), (2.0, -1.0)])
@pytest.mark.parametrize("shape", [(2, 5, 4, 3), (2, 3, 4, 5, 6), (2, 3, 64, 66)],
                         ids=["4d", "5d", "rows"])
def test_fwd_bias_matches_torch(handle, rng, shape, alpha, beta, dt):
    y = random_stored(shape, dt, rng)
    b = random_stored(bshape(shape), dt, rng)
    y0 = y.copy()
    mi.convolutionForwardBias(handle, alpha, desc(b.shape, dtype=dt), b, beta,
                              desc(shape, dtype=dt), y)
    check_typed(y, fwd_expect(y0, b, alpha, beta), dt)


def test_fwd_bias_is_y_plus_b_for_miopen_defaults(handle, rng):
    shape = (3, 4, 5, 6)
    y = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(bshape(shape)).astype(np.float32)
    expect = (torch.from_numpy(y) + torch.from_numpy(b)).numpy()
    mi.convolutionForwardBias(handle, 1.0, desc(b.shape), b, 0.0, desc(shape), y)
    assert np.array_equal(y, expect)


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (0, 2, 3, 1), (1, 2, 3, 0)],
                         ids=["nchw", "nhwc", "chwn"])
def test_fwd_bias_strided_and_layouts(handle, rng, order):
    shape = (3, 5, 4, 6)
    ym, yv, ys = layout(shape, order, rng)
    b = Strided(bshape(shape), rng)
    y0 = yv.copy()
    mi.convolutionForwardBias(handle, 1.0, b.desc(), b.buf, 0.0, desc(shape, ys), ym)
    assert rel_l2(yv, fwd_expect(y0, b.view, 1.0, 0.0)) <= TOL
    assert b.gaps_untouched()
    y = Strided(shape, rng)
    y0 = y.view.copy()
    mi.convolutionForwardBias(handle, 0.5, b.desc(), b.buf, 0.5, y.desc(), y.buf)
    assert rel_l2(y.view, fwd_expect(y0, b.view, 0.5, 0.5)) <= TOL
    assert y.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (0.5, 0.25)])
@pytest.mark.parametrize("shape", [(3, 64, 5, 7), (2, 24, 3, 5), (2, 16, 2, 3, 5)],
                         ids=["c64", "c24", "5d-c16"])
def test_fwd_bias_channels_last_packed(handle, rng, shape, alpha, beta, dt):
    """Packed channels-last y with C a multiple of 8: the GPU's vector path over whole pixels
    (a thread's channels the same in every vector where C / W divides the block: c64, c16; else
    read per vector: c24 fp16/bf16), b with a C stride of 2."""
    order = (0,) + tuple(range(2, len(shape))) + (1,)
    ym, yv, ys = layout(shape, order, rng, dt)
    b = Strided(bshape(shape), pad=(0,) * (len(shape) - 1) + (1,), dtype=np_dtype(dt))
    b.view[...] = random_stored(bshape(shape), dt, rng)
    y0 = yv.copy()
    mi.convolutionForwardBias(handle, alpha, b.desc(dt), b.buf, beta, desc(shape, ys, dtype=dt), ym)
    check_typed(yv, fwd_expect(y0, b.view, alpha, beta), dt)
    assert b.gaps_untouched()


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 7), min_size=4, max_size=5), strided=st.booleans(),
       ab=st.sampled_from([(1.0, 0.0), (0.5, 1.5)]), seed=st.integers(0, 2**16))
def test_fwd_bias_hypothesis(shape, strided, ab, seed):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    y = Strided(shape, rng, pad=(1, 0, 2, 1) if strided else ())
    b = Strided(bshape(shape), rng, pad=(0, 2) if strided else ())
    y0 = y.view.copy()
    mi.convolutionForwardBias(handle, ab[0], b.desc(), b.buf, ab[1], y.desc(), y.buf)
    assert rel_l2(y.view, fwd_expect(y0, b.view, *ab)) <= TOL
    assert y.gaps_untouched() and b.gaps_untouched()


# ---- backward ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (0.5, 0.25)])
@pytest.mark.parametrize("shape", [(2, 5, 4, 3), (2, 3, 4, 5, 6), (4, 3, 128, 128)],
                         ids=["4d", "5d", "4d-chunked"])
def test_bwd_bias_matches_torch(handle, rng, shape, alpha, beta, dt):
    dy = random_stored(shape, dt, rng)
    db = poison(bshape(shape), dt) if beta == 0 else random_stored(bshape(shape), dt, rng)
    db0 = db.copy()
    mi.convolutionBackwardBias(handle, alpha, desc(shape, dtype=dt), dy, beta,
                               desc(db.shape, dtype=dt), db)
    check_typed(db, bwd_expect(dy, db0, alpha, beta), dt)


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (0, 2, 3, 1), (1, 2, 3, 0), (3, 1, 0, 2)],
                         ids=["nchw", "nhwc", "chwn", "wcnh"])
def test_bwd_bias_layouts_and_strided_db(handle, rng, order):
    shape = (3, 5, 4, 6)
    dym, dyv, dys = layout(shape, order, rng)
    db = Strided(bshape(shape))
    mi.convolutionBackwardBias(handle, 1.0, desc(shape, dys), dym, 0.0, db.desc(), db.buf)
    assert rel_l2(db.view, bwd_expect(dyv, None, 1.0, 0.0)) <= TOL
    assert db.gaps_untouched()


@pytest.mark.parametrize("shape,order", [
    ((2, 3, 300, 400), (0, 1, 2, 3)),      # few channels: each channel split into chunks
    ((4, 6, 128, 128), (0, 2, 3, 1)),      # channels-last: many chunks of points
    ((2, 4, 9, 70), (0, 1, 2, 3)),         # rows of 630 summed in memory order
    ((5, 3, 7, 2), (2, 3, 0, 1)),          # HWNC-like: short rows of N walked per channel
    ((1, 1, 1, 1), (0, 1, 2, 3)),
], ids=["few-channels", "nhwc-chunks", "memory-order-rows", "short-rows", "one-element"])
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_bwd_bias_chunked_paths(handle, rng, shape, order, dt):
    dym, dyv, dys = layout(shape, order, rng, dt)
    if int(dt) != int(mi.miopenHalf):      # sums of 5s past fp16's range would be Inf
        dyv += np.asarray(5.0).astype(dyv.dtype)
    db = poison(bshape(shape), dt)
    mi.convolutionBackwardBias(handle, 1.0, desc(shape, dys, dt), dym, 0.0,
                               desc(db.shape, dtype=dt), db)
    check_typed(db, bwd_expect(dyv, None, 1.0, 0.0), dt)


def test_bwd_bias_long_rows_with_gaps(handle, rng):
    dy = Strided((2, 4, 3, 80), rng)
    db = Strided((1, 4, 1, 1))
    mi.convolutionBackwardBias(handle, 2.0, dy.desc(), dy.buf, 0.0, db.desc(), db.buf)
    assert rel_l2(db.view, bwd_expect(dy.view, None, 2.0, 0.0)) <= TOL and db.gaps_untouched()


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 7), min_size=4, max_size=5), strided=st.booleans(),
       seed=st.integers(0, 2**16))
def test_bwd_bias_hypothesis(shape, strided, seed):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    dy = Strided(shape, rng, pad=(0, 1, 1, 0) if strided else ())
    db = Strided(bshape(shape), pad=(0, 1) if strided else ())
    mi.convolutionBackwardBias(handle, 1.0, dy.desc(), dy.buf, 0.0, db.desc(), db.buf)
    # Relative to the sums of |dy|, not to the sums themselves: a few random values can cancel to
    # almost nothing, where float32 rounding is large relative to the sum but not to its terms.
    err = np.linalg.norm(np.asarray(db.view, np.float64) - bwd_expect(dy.view, None, 1.0, 0.0))
    scale = np.linalg.norm(bwd_expect(np.abs(dy.view), None, 1.0, 0.0))
    assert np.all(np.isfinite(db.view)) and err <= TOL * scale
    assert db.gaps_untouched()


_DETERMINISM_SCRIPT = r"""
import hashlib, numpy as np, miopen_cy as mi
h = mi.Handle(device="cpu")
rng = np.random.default_rng(3)
out = hashlib.sha256()
for shape, strides in [((2, 3, 300, 400), None), ((4, 6, 128, 128), (98304, 1, 768, 6)),
                       ((8, 32, 30, 30), None)]:
    dy = rng.standard_normal(int(np.prod(shape))).astype(np.float32) + 3
    d = mi.TensorDescriptor(); mi.setTensorDescriptor(d, mi.miopenFloat, 4, list(shape), strides)
    b = mi.TensorDescriptor(); mi.setTensorDescriptor(b, mi.miopenFloat, 4, [1, shape[1], 1, 1], None)
    db = np.empty(shape[1], np.float32)
    mi.convolutionBackwardBias(h, 1.0, d, dy, 0.0, b, db)
    out.update(db.tobytes())
print(out.hexdigest())
"""


def test_bwd_bias_does_not_depend_on_thread_count(tmp_path):
    digests = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        run = subprocess.run([sys.executable, "-c", _DETERMINISM_SCRIPT], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True)
        digests.add(run.stdout.strip())
    assert len(digests) == 1


# ---- bad calls --------------------------------------------------------------------------------

def test_fwd_bias_bad_inputs_change_nothing(handle, rng):
    shape = (2, 3, 4, 5)
    y = rng.standard_normal(shape).astype(np.float32)
    y0 = y.copy()
    b = rng.standard_normal((1, 3, 1, 1)).astype(np.float32)
    cases = [
        (dict(bDesc=desc((1, 3, 4, 5)), b=np.ones((1, 3, 4, 5), np.float32)), mi.BadParmError,
         r"bDesc is miopenFloat, lens=\(1, 3, 4, 5\).*; expected lengths \(1, 3, 1, 1\) for yDesc"),
        (dict(bDesc=desc((1, 4, 1, 1)), b=np.ones(4, np.float32)), mi.BadParmError,
         r"expected lengths \(1, 3, 1, 1\)"),
        (dict(bDesc=desc((3,))), mi.BadParmError, r"bDesc is miopenFloat, lens=\(3\)"),
        (dict(bDesc=desc((1, 3, 1, 1, 1)), b=np.ones(3, np.float32)), mi.BadParmError,
         "expected lengths"),
        (dict(bDesc=desc((1, 3, 1, 1), dtype=mi.miopenDouble), b=np.ones(3)), mi.BadParmError,
         "bDesc is miopenDouble but yDesc is miopenFloat"),
        (dict(yDesc=desc((2, 3, 20))), mi.BadParmError, "yDesc has 3 dims; expected 4 to 5"),
        (dict(b=None), mi.BadParmError, "b is a null pointer"),
        (dict(y=None), mi.BadParmError, "y is a null pointer"),
        (dict(bDesc=None), mi.BadParmError, "bDesc is null"),
        (dict(yDesc=mi.TensorDescriptor()), mi.BadParmError, "yDesc has not been set"),
        (dict(b=np.ones(2, np.float32)), mi.BadParmError, "b: the buffer has 8 bytes; its descriptor needs 12"),
        (dict(b=np.ones(3)), mi.BadParmError, "b: array dtype 'f8'"),
    ]
    for change, exc, word in cases:
        kw = dict(handle=handle, alpha=1.0, bDesc=desc(b.shape), b=b, beta=0.0, yDesc=desc(shape),
                  y=y)
        kw.update(change)
        with pytest.raises(exc, match=word):
            mi.convolutionForwardBias(**kw)
        assert np.array_equal(y, y0), change


def test_bwd_bias_bad_inputs_change_nothing(handle, rng):
    shape = (2, 3, 4, 5)
    dy = rng.standard_normal(shape).astype(np.float32)
    db = poisoned((1, 3, 1, 1))
    cases = [
        (dict(dbDesc=desc((1, 3, 4, 1)), db=poisoned((1, 3, 4, 1))), mi.BadParmError,
         r"dbDesc is .*; expected lengths \(1, 3, 1, 1\) for dyDesc"),
        (dict(dbDesc=desc((1, 1, 1, 1)), db=poisoned(1)), mi.BadParmError, "dbDesc is"),
        (dict(dyDesc=desc((2, 3, 20)), dy=np.ones((2, 3, 20), np.float32)), mi.BadParmError,
         "dyDesc has 3 dims"),
        (dict(dy=None), mi.BadParmError, "dy is a null pointer"),
        (dict(db=None), mi.BadParmError, "db is a null pointer"),
        (dict(dyDesc=None), mi.BadParmError, "dyDesc is null"),
        (dict(db=np.full(2, np.nan, np.float32)), mi.BadParmError, "db: the buffer has 8 bytes"),
    ]
    for change, exc, word in cases:
        kw = dict(handle=handle, alpha=1.0, dyDesc=desc(shape), dy=dy, beta=0.0,
                  dbDesc=desc(db.shape), db=db)
        kw.update(change)
        with pytest.raises(exc, match=word):
            mi.convolutionBackwardBias(**kw)
        assert kw["db"] is None or np.all(np.isnan(kw["db"])), change
    dd = desc(shape, dtype=mi.miopenDouble)
    bd = desc((1, 3, 1, 1), dtype=mi.miopenDouble)
    out = np.full(3, np.nan)
    with pytest.raises(mi.MIOpenNotImplementedError, match="dyDesc has data type miopenDouble"):
        mi.convolutionBackwardBias(handle, 1.0, dd, dy.astype(np.float64), 0.0, bd, out)
    assert np.all(np.isnan(out))
    for dt, npt in [(mi.miopenInt8, np.int8), (mi.miopenInt32, np.int32)]:
        out = np.full(3, 7, npt)
        with pytest.raises(mi.MIOpenNotImplementedError,
                           match=f"dyDesc has data type {mi.DataType(dt).name}"):
            mi.convolutionBackwardBias(handle, 1.0, desc(shape, dtype=dt), dy.astype(npt), 0.0,
                                       desc((1, 3, 1, 1), dtype=dt), out)
        with pytest.raises(mi.MIOpenNotImplementedError,
                           match=f"yDesc has data type {mi.DataType(dt).name}"):
            mi.convolutionForwardBias(handle, 1.0, desc((1, 3, 1, 1), dtype=dt), out, 0.0,
                                      desc(shape, dtype=dt), dy.astype(npt))
        assert np.all(out == 7)


def test_destroyed_descriptors_raise(handle, rng):
    d = desc((1, 3, 1, 1))
    mi.destroyTensorDescriptor(d)
    y = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    with pytest.raises(ValueError, match="bDesc has been destroyed"):
        mi.convolutionForwardBias(handle, 1.0, d, np.ones(3, np.float32), 0.0, desc(y.shape), y)
    with pytest.raises(ValueError, match="dbDesc has been destroyed"):
        mi.convolutionBackwardBias(handle, 1.0, desc(y.shape), y, 0.0, d, np.ones(3, np.float32))


# ---- forward on the packed kernel (BiasFwdPacked) and on y with gaps ------------------------------

# BiasFwdPacked (on packed y; y with gaps takes OpTensor's element-wise engine): y = alpha * y +
# alpha * b + beta * y, MIOpen's OpTensor definition, on 4-D and 5-D y, planes that are and are not
# whole float4s, against a float64 NumPy reference; y with gaps gives the same bits. Every test
# runs on each device present.

def bias_ref(y0, b, alpha, beta):
    shape = [1] * y0.ndim
    shape[1] = y0.shape[1]
    y64 = y0.astype(np.float64)
    return alpha * y64 + alpha * b.astype(np.float64).reshape(shape) + beta * y64


def run_bias(h, y0, b, alpha, beta, gaps=False):
    """gaps: y with gaps between rows (OpTensor's element-wise engine on the GPU)."""
    bshape = [1] * y0.ndim
    bshape[1] = y0.shape[1]
    if gaps:
        ys = Strided(y0.shape, pad=(0, 0, 0, 1), fill=y0)
        mi.convolutionForwardBias(h, alpha, desc(bshape), b, beta, ys.desc(), ys.buf)
        assert ys.gaps_untouched()
        return np.ascontiguousarray(ys.view)
    y = y0.copy()
    mi.convolutionForwardBias(h, alpha, desc(bshape), b, beta, desc(y0.shape), y)
    return y


# planes (the [D]HW run of one (n, c)) of 16, 12 and 3136 floats (whole float4s: the packed
# kernel) and of 9 and 15 (not: the element-wise engine)
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (1.5, -0.5), (0.5, 1.0)])
@pytest.mark.parametrize("shape", [(2, 3, 4, 4), (3, 5, 2, 2, 3), (2, 7, 56, 56), (2, 5, 3, 3),
                                   (1, 4, 3, 5)],
                         ids=["4d", "5d", "56x56", "plane9", "plane15"])
def test_bias_forward_matches_numpy_and_every_kernel_agrees(handle, rng, shape, alpha, beta):
    y0 = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32)
    y = run_bias(handle, y0, b, alpha, beta)
    assert rel_l2(y, bias_ref(y0, b, alpha, beta)) <= 1e-6
    gaps = run_bias(handle, y0, b, alpha, beta, gaps=True)
    if handle.device.startswith("gpu"):                     # BiasFwdPacked: OpTensor's bits
        assert y.tobytes() == gaps.tobytes()
    else:
        assert rel_l2(gaps, bias_ref(y0, b, alpha, beta)) <= 1e-6


@requires_gpu
def test_bias_forward_on_device_buffers_in_place(rng):
    h = mi.Handle(device="gpu")
    shape = (3, 6, 10, 12)
    y0 = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32)
    yb = mi.DeviceBuffer.from_numpy(h, y0)
    bb = mi.DeviceBuffer.from_numpy(h, b)
    mi.convolutionForwardBias(h, 1.0, desc((1, 6, 1, 1)), bb, 0.0, desc(shape), yb)
    assert rel_l2(yb.to_numpy(shape, np.float32), bias_ref(y0, b, 1.0, 0.0)) <= 1e-6



# ---- backward on the packed reduction (BiasBwdNchw4) and the group reduction ---------------------

# BiasBwdNchw4 (on packed dy with planes of whole float4s, else the group reduction): the
# per-channel sums of dy against float64, alpha/beta, the same bits on two runs.

def run_bias_bwd(h, dy, alpha, beta, db0):
    db = db0.copy()
    bshape = [1] * dy.ndim
    bshape[1] = dy.shape[1]
    mi.convolutionBackwardBias(h, alpha, desc(dy.shape), dy, beta, desc(bshape), db)
    return db


# S = D*H*W a multiple of 4 (BiasBwdNchw4; the 64-image case has several chunks a channel) and
# not (the group reduction)
@pytest.mark.parametrize("alpha,beta", [(1.0, 0.0), (0.75, 1.5)])
@pytest.mark.parametrize("shape", [(2, 3, 4, 4), (64, 5, 28, 28), (3, 4, 2, 2, 3), (2, 5, 3, 3)],
                         ids=["4d", "n64", "5d", "s9"])
def test_bias_backward_matches_numpy_and_repeats_its_bits(handle, rng, shape, alpha, beta):
    dy = (1.0 + rng.standard_normal(shape)).astype(np.float32)
    c = shape[1]
    db0 = (rng.standard_normal(c) if beta else np.full(c, np.nan)).astype(np.float32)
    bshape = (1, c) + (1,) * (len(shape) - 2)
    db = run_bias_bwd(handle, dy, alpha, beta, db0.reshape(bshape)).reshape(c)
    axes = tuple(d for d in range(len(shape)) if d != 1)
    ref = alpha * dy.astype(np.float64).sum(axis=axes)
    if beta:
        ref = ref + beta * db0.astype(np.float64)
    # double sums rounded once: within a few float32 ulps of the float64 reference
    assert np.allclose(db, ref, rtol=2e-7, atol=1e-6)
    again = run_bias_bwd(handle, dy, alpha, beta, db0.reshape(bshape)).reshape(c)
    assert db.tobytes() == again.tobytes()
