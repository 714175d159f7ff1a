"""Softmax (miopenSoftmaxForward[_V2], miopenSoftmaxBackward[_V2]) against PyTorch's softmax and
log_softmax in float64, autograd for the gradients."""
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from miopen_cy.reference import softmax as ref
from support.buffers import Strided, desc, poisoned, rel_l2
from support.devices import requires_gpu
from support.dtypes import (FLOAT_TYPES, EPS, as64, check_close, np_dtype, poison,
                            random_stored)

ALGOS = [mi.MIOPEN_SOFTMAX_FAST, mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_LOG]
MODES = [mi.MIOPEN_SOFTMAX_MODE_INSTANCE, mi.MIOPEN_SOFTMAX_MODE_CHANNEL]
# Shapes that reach every path: columns over positions (NCHW, H*W > 1) and over the batch (H = W = 1,
# few classes), rows (H = W = 1, C >= 32), long rows split in chunks (INSTANCE with C*H*W > 8192),
# a spatial extent larger than one column block.
SHAPES = [(2, 5, 3, 4), (4, 37, 1, 1), (50, 7, 1, 1), (1, 1, 1, 1), (3, 1, 4, 4), (2, 3, 64, 70),
          (1, 21, 40, 40)]
TOL = 1e-5


def _x(rng, shape, scale=3.0):
    return (scale * rng.standard_normal(shape)).astype(np.float32)


def _shape_id(shape):
    return "n{}-c{}-h{}-w{}".format(*shape)


# ---- forward / backward against PyTorch ---------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES, ids=_shape_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_forward_v2_matches_torch(handle, rng, shape, mode, algo):
    x = _x(rng, shape)
    y = poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, mode)
    assert rel_l2(y, ref.forward(x, algo, mode)) <= TOL


@pytest.mark.parametrize("shape", SHAPES, ids=_shape_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_backward_v2_matches_torch_autograd(handle, rng, shape, mode, algo):
    x, dy = _x(rng, shape), rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, algo, mode)
    y = y_ref.astype(np.float32)
    dx = poisoned(shape)
    mi.softmaxBackward_V2(handle, 1.0, desc(shape), y, desc(shape), dy, 0.0, desc(shape), dx,
                          algo, mode)
    assert rel_l2(dx, dx_ref) <= TOL


def test_v1_is_accurate_channel(handle, rng):
    shape = (2, 6, 5, 3)
    x, dy = _x(rng, shape), rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, ref.ACCURATE, ref.CHANNEL)
    y, dx = poisoned(shape), poisoned(shape)
    mi.softmaxForward(handle, 1.0, desc(shape), x, 0.0, desc(shape), y)
    assert rel_l2(y, y_ref) <= TOL
    mi.softmaxBackward(handle, 1.0, desc(shape), y, desc(shape), dy, 0.0, desc(shape), dx)
    assert rel_l2(dx, dx_ref) <= TOL


def test_accurate_survives_large_inputs_fast_does_not(handle, rng):
    # ACCURATE subtracts the max; FAST is exp(x) / sum exp(x) as MIOpen computes it.
    shape = (2, 4, 1, 1)
    x = (rng.standard_normal(shape) + 100.0).astype(np.float32)
    y = poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y,
                         mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_MODE_CHANNEL)
    assert rel_l2(y, ref.forward(x, ref.ACCURATE, ref.CHANNEL)) <= TOL
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y,
                         mi.MIOPEN_SOFTMAX_FAST, mi.MIOPEN_SOFTMAX_MODE_CHANNEL)
    assert np.all(np.isnan(y))    # exp overflows to inf: inf / inf


@pytest.mark.parametrize("shape", [(2, 50, 1, 1), (2, 50, 3, 3)], ids=_shape_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", [mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_LOG],
                         ids=["ACCURATE", "LOG"])
def test_wide_range_inputs_underflow_cleanly(handle, rng, shape, mode, algo):
    # x - max(x) spans [-120, 0]: exp underflows for part of each softmax.
    x = rng.uniform(-120.0, 0.0, shape).astype(np.float32)
    y = poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, mode)
    assert rel_l2(y, ref.forward(x, algo, mode)) <= TOL
    if algo == mi.MIOPEN_SOFTMAX_ACCURATE:
        assert np.all(y >= 0.0)


@settings(max_examples=40, deadline=None)
@given(shape=st.tuples(st.integers(1, 4), st.integers(1, 40), st.integers(1, 7), st.integers(1, 7)),
       algo=st.sampled_from(ALGOS), mode=st.sampled_from(MODES), seed=st.integers(0, 2**16))
def test_hypothesis_shapes_forward_and_backward(shape, algo, mode, seed):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    x, dy = _x(rng, shape), rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, algo, mode)
    y, dx = poisoned(shape), poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, mode)
    assert rel_l2(y, y_ref) <= TOL
    mi.softmaxBackward_V2(handle, 1.0, desc(shape), y, desc(shape), dy, 0.0, desc(shape), dx,
                          algo, mode)
    assert rel_l2(dx, dx_ref) <= TOL * _backward_condition(y_ref, dy, dx_ref, algo, mode)


def _backward_condition(y, dy, dx, algo, mode):
    """How much fp32 rounding the backward can amplify for these inputs (>= 1): the norm of the
    absolute terms of dx = y * (dy - sum(y * dy)) (LOG: dy - exp(y) * sum(dy)) over the norm of
    dx. Random draws can make dx nearly cancel, where no fp32 code meets a fixed 1e-5."""
    axes = (1,) if mode == mi.MIOPEN_SOFTMAX_MODE_CHANNEL else (1, 2, 3)
    y, dy = y.astype(np.float64), dy.astype(np.float64)
    if algo == mi.MIOPEN_SOFTMAX_LOG:
        terms = np.abs(dy) + np.exp(y) * np.abs(dy).sum(axis=axes, keepdims=True)
    else:
        terms = np.abs(y) * (np.abs(dy) + np.abs(y * dy).sum(axis=axes, keepdims=True))
    norm = np.linalg.norm(np.asarray(dx, np.float64).ravel())
    return max(1.0, np.linalg.norm(terms.ravel()) / norm) if norm > 0 else 1.0


# ---- strides, layouts, blending, in place ----------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 5, 3, 4), (3, 7, 1, 1), (1, 3, 40, 90)], ids=_shape_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_strided_tensors_each_with_own_strides(handle, rng, shape, mode, algo):
    x = Strided(shape, rng, pad=(0, 1, 0, 3))
    y = Strided(shape, pad=(1, 0, 2, 1))
    mi.softmaxForward_V2(handle, 1.0, x.desc(), x.buf, 0.0, y.desc(), y.buf, algo, mode)
    dy = Strided(shape, rng, pad=(0, 2, 0, 1))
    y_ref, dx_ref = ref.backward(x.view, dy.view, algo, mode)
    assert rel_l2(y.view, y_ref) <= TOL
    assert y.gaps_untouched() and x.gaps_untouched()
    yb = Strided(shape, pad=(0, 0, 1, 0), fill=y_ref.astype(np.float32))
    dx = Strided(shape, pad=(1, 1, 1, 1))
    mi.softmaxBackward_V2(handle, 1.0, yb.desc(), yb.buf, dy.desc(), dy.buf, 0.0, dx.desc(),
                          dx.buf, algo, mode)
    assert rel_l2(dx.view, dx_ref) <= TOL
    assert dx.gaps_untouched() and dy.gaps_untouched() and yb.gaps_untouched()


@pytest.mark.parametrize("shape", [(2, 6, 5, 7), (2, 40, 3, 5)], ids=_shape_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_nhwc_input_nchw_output(handle, rng, shape, mode, algo):
    # C is the unit-stride dim of x but not of y; with 40 channels CHANNEL mode runs on rows.
    n, c, h, w = shape
    x_nhwc = _x(rng, (n, h, w, c))
    x = x_nhwc.transpose(0, 3, 1, 2)
    xd = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(xd, mi.miopenFloat, mi.miopenTensorNHWC, shape, 4)
    y = poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, xd, x_nhwc, 0.0, desc(shape), y, algo, mode)
    dy = rng.standard_normal(shape)
    y_ref, dx_ref = ref.backward(x, dy, algo, mode)
    assert rel_l2(y, y_ref) <= TOL
    dy_nhwc = np.ascontiguousarray(dy.transpose(0, 2, 3, 1)).astype(np.float32)
    dx_nhwc = poisoned((n, h, w, c))
    mi.softmaxBackward_V2(handle, 1.0, desc(shape), y_ref.astype(np.float32), xd, dy_nhwc, 0.0,
                          xd, dx_nhwc, algo, mode)
    assert rel_l2(dx_nhwc.transpose(0, 3, 1, 2), dx_ref) <= TOL


@pytest.mark.parametrize("shape", [(2, 5, 3, 4), (3, 9, 1, 1), (1, 2, 70, 70)], ids=_shape_id)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
def test_alpha_beta_blend(handle, rng, shape, algo, mode):
    x, dy = _x(rng, shape), rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, algo, mode)
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = y0.copy()
    mi.softmaxForward_V2(handle, 2.0, desc(shape), x, 0.5, desc(shape), y, algo, mode)
    assert rel_l2(y, 2.0 * y_ref + 0.5 * y0) <= TOL
    dx0 = rng.standard_normal(shape).astype(np.float32)
    dx = dx0.copy()
    mi.softmaxBackward_V2(handle, -1.5, desc(shape), y_ref.astype(np.float32), desc(shape), dy,
                          0.25, desc(shape), dx, algo, mode)
    assert rel_l2(dx, -1.5 * dx_ref + 0.25 * dx0) <= TOL


def test_strided_blend_reads_only_the_tensor(handle, rng):
    shape = (2, 4, 6, 5)
    x = _x(rng, shape)
    y = Strided(shape, rng, pad=(0, 1, 1, 2))
    y0 = y.view.astype(np.float64)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, -1.0, y.desc(), y.buf,
                         mi.MIOPEN_SOFTMAX_LOG, mi.MIOPEN_SOFTMAX_MODE_INSTANCE)
    assert rel_l2(y.view, ref.forward(x, ref.LOG, ref.INSTANCE) - y0) <= TOL
    assert y.gaps_untouched()


@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_in_place(handle, rng, mode, algo):
    shape = (2, 5, 9, 3)
    x, dy = _x(rng, shape), rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, algo, mode)
    buf = x.copy()
    mi.softmaxForward_V2(handle, 1.0, desc(shape), buf, 0.0, desc(shape), buf, algo, mode)
    assert rel_l2(buf, y_ref) <= TOL
    g = dy.copy()
    mi.softmaxBackward_V2(handle, 1.0, desc(shape), y_ref.astype(np.float32), desc(shape), g, 0.0,
                          desc(shape), g, algo, mode)
    assert rel_l2(g, dx_ref) <= TOL


# Packed NHWC with C under 32: CHANNEL mode on the column engine, each block of positions loaded
# as one run and transposed into the tile (and stored the same way). In place (y over x, dx over
# dy), blended, in every type: the bits of the same call out of place.
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_nhwc_columns_in_place_equals_out_of_place(handle, rng, dt, algo):
    n, c, h, w = 2, 21, 13, 11
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, dt, mi.miopenTensorNHWC, (n, c, h, w), 4)
    x = random_stored((n, h, w, c), dt, rng, -4.0, 4.0)
    y = x.copy()
    buf = x.copy()
    mi.softmaxForward_V2(handle, 1.5, d, x, 0.5, d, y, algo, CHANNEL)
    mi.softmaxForward_V2(handle, 1.5, d, buf, 0.5, d, buf, algo, CHANNEL)
    assert buf.tobytes() == y.tobytes()
    want = 1.5 * ref.forward(as64(x).transpose(0, 3, 1, 2), algo, CHANNEL).transpose(0, 2, 3, 1) \
        + 0.5 * as64(x)
    check_close(buf, want, dt, 2 * ULPS[int(dt)])
    ys = random_stored((n, h, w, c), dt, rng, 0.0, 1.0)
    dy = _dy(rng, (n, h, w, c), dt)
    dx = dy.copy()
    g = dy.copy()
    mi.softmaxBackward_V2(handle, -1.0, d, ys, d, dy, 0.25, d, dx, algo, CHANNEL)
    mi.softmaxBackward_V2(handle, -1.0, d, ys, d, g, 0.25, d, g, algo, CHANNEL)
    assert g.tobytes() == dx.tobytes()
    want = -1.0 * ref.backward_from_output(as64(ys).transpose(0, 3, 1, 2),
                                           as64(dy).transpose(0, 3, 1, 2), algo,
                                           CHANNEL).transpose(0, 2, 3, 1) + 0.25 * as64(dy)
    check_close(dx, want, dt, 2 * ULPS[int(dt)])


def test_long_rows_are_deterministic(handle, rng):
    # INSTANCE mode over 3 * 64 * 70 = 13440 elements per row runs chunk by chunk.
    shape = (2, 3, 64, 70)
    x = _x(rng, shape)
    y1, y2 = poisoned(shape), poisoned(shape)
    for y in (y1, y2):
        mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y,
                             mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_MODE_INSTANCE)
    assert np.array_equal(y1, y2)
    assert abs(float(y1[0].astype(np.float64).sum()) - 1.0) <= 1e-5


_SAME_BITS_SCRIPT = """
import sys, numpy as np, miopen_cy as mi
h = mi.Handle(device="cpu")
out = []
for shape, mode in [((2, 3, 100, 120), 0), ((2, 21, 64, 64), 1), ((400, 300, 1, 1), 1)]:
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, mi.miopenFloat, 4, list(shape), None)
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    y, dx = np.empty_like(x), np.empty_like(x)
    mi.softmaxForward_V2(h, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE, mode)
    mi.softmaxBackward_V2(h, 1.0, d, y, d, x, 0.0, d, dx, mi.MIOPEN_SOFTMAX_ACCURATE, mode)
    out += [y, dx]
np.savez(sys.argv[1], *out)
"""


def test_same_bits_whatever_the_thread_count(tmp_path):
    # Large enough to run in parallel; every sum has a fixed order, so one thread gives the same
    # bits as two.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    results = []
    for threads in ("1", "2"):
        path = tmp_path / f"t{threads}.npz"
        subprocess.run([sys.executable, "-c", _SAME_BITS_SCRIPT, str(path)], check=True,
                       env=dict(env, OMP_NUM_THREADS=threads), cwd=tmp_path)
        with np.load(path) as f:
            results.append([f[k] for k in sorted(f.files)])
    for a, b in zip(*results):
        assert np.array_equal(a, b)


# ---- bad inputs ------------------------------------------------------------------------------------

def _fwd(handle, xd, x, yd, y, algo=mi.MIOPEN_SOFTMAX_ACCURATE, mode=mi.MIOPEN_SOFTMAX_MODE_CHANNEL,
         alpha=1.0, beta=0.0):
    mi.softmaxForward_V2(handle, alpha, xd, x, beta, yd, y, algo, mode)


def _bwd(handle, yd, y, dyd, dy, dxd, dx, algo=mi.MIOPEN_SOFTMAX_ACCURATE,
         mode=mi.MIOPEN_SOFTMAX_MODE_CHANNEL):
    mi.softmaxBackward_V2(handle, 1.0, yd, y, dyd, dy, 0.0, dxd, dx, algo, mode)


def test_forward_bad_inputs_raise_and_leave_y_untouched(handle, rng):
    shape = (2, 3, 4, 5)
    x = _x(rng, shape)
    y = poisoned(shape)
    unset = mi.TensorDescriptor()
    cases = [
        (lambda: _fwd(handle, desc(shape), x, desc(shape), y, algo=3), mi.BadParmError,
         "algorithm = 3 is not a miopenSoftmaxAlgorithm_t"),
        (lambda: _fwd(handle, desc(shape), x, desc(shape), y, mode=-1), mi.BadParmError,
         "mode = -1 is not a miopenSoftmaxMode_t"),
        (lambda: _fwd(handle, None, x, desc(shape), y), mi.BadParmError, "xDesc is null"),
        (lambda: _fwd(handle, desc(shape), x, None, y), mi.BadParmError, "yDesc is null"),
        (lambda: _fwd(handle, unset, x, desc(shape), y), mi.BadParmError, "xDesc has not been set"),
        (lambda: _fwd(handle, desc((2, 3, 4, 4)), x, desc(shape), y), mi.BadParmError,
         "xDesc and yDesc have different lengths"),
        (lambda: _fwd(handle, desc((6, 20)), x, desc((6, 20)), y), mi.BadParmError,
         "xDesc has 2 dims; expected 4"),
        (lambda: _fwd(handle, desc((1, 2, 3, 4, 5)), x, desc((1, 2, 3, 4, 5)), y),
         mi.BadParmError, "xDesc has 5 dims; expected 4"),
        (lambda: _fwd(handle, desc(shape, dtype=mi.miopenHalf), x.astype(np.float16), desc(shape),
                      y), mi.BadParmError, "xDesc is miopenHalf but yDesc is miopenFloat"),
        (lambda: _fwd(handle, desc(shape), None, desc(shape), y), mi.BadParmError,
         "x is a null pointer"),
        (lambda: _fwd(handle, desc(shape), x[:1], desc(shape), y), mi.BadParmError,
         "x: the buffer has 240 bytes; its descriptor needs 480"),
        (lambda: _fwd(handle, desc(shape), x.astype(np.float64), desc(shape), y), mi.BadParmError,
         "x: array dtype 'f8'"),
        (lambda: _fwd(handle, desc(shape), x, desc(shape), y, alpha="a"), TypeError,
         "alpha must be a float"),
    ]
    for call, exc, words in cases:
        with pytest.raises(exc, match=words):
            call()
        assert np.all(np.isnan(y)), words
    yd = np.full(shape, np.nan)
    with pytest.raises(mi.BadParmError, match="yDesc has data type miopenDouble"):
        _fwd(handle, desc(shape, dtype=mi.miopenDouble), x.astype(np.float64),
             desc(shape, dtype=mi.miopenDouble), yd)
    assert np.all(np.isnan(yd))
    with pytest.raises(mi.BadParmError, match="y: the array is read-only"):
        ro = np.zeros(shape, np.float32)
        ro.flags.writeable = False
        _fwd(handle, desc(shape), x, desc(shape), ro)


def test_backward_bad_inputs_raise_and_leave_dx_untouched(handle, rng):
    shape = (2, 3, 4, 5)
    y, dy = _x(rng, shape), _x(rng, shape)
    dx = poisoned(shape)
    d = desc(shape)
    cases = [
        (lambda: _bwd(handle, d, y, d, dy, d, dx, algo=9), "algorithm = 9"),
        (lambda: _bwd(handle, d, y, d, dy, d, dx, mode=2), "mode = 2"),
        (lambda: _bwd(handle, None, y, d, dy, d, dx), "yDesc is null"),
        (lambda: _bwd(handle, d, y, None, dy, d, dx), "dyDesc is null"),
        (lambda: _bwd(handle, d, y, d, dy, None, dx), "dxDesc is null"),
        (lambda: _bwd(handle, desc((2, 3, 4, 1)), y, d, dy, d, dx),
         "yDesc and dyDesc have different lengths"),
        (lambda: _bwd(handle, d, y, d, dy, desc((2, 3, 5, 4)), dx),
         "dyDesc and dxDesc have different lengths"),
        (lambda: _bwd(handle, d, y, desc(shape, dtype=mi.miopenHalf), dy.astype(np.float16), d,
                      dx), "yDesc is miopenFloat but dyDesc is miopenHalf"),
        (lambda: _bwd(handle, d, None, d, dy, d, dx), "y is a null pointer"),
        (lambda: _bwd(handle, d, y, d, None, d, dx), "dy is a null pointer"),
        (lambda: _bwd(handle, d, y, d, dy[:1], d, dx), "dy: the buffer has"),
    ]
    for call, words in cases:
        with pytest.raises(mi.BadParmError, match=words):
            call()
        assert np.all(np.isnan(dx)), words
    with pytest.raises(mi.BadParmError, match="dx is a null pointer"):
        _bwd(handle, d, y, d, dy, d, None)


def test_destroyed_descriptor_and_handle_raise(handle, rng):
    shape = (1, 2, 2, 2)
    x, y = _x(rng, shape), poisoned(shape)
    d = desc(shape)
    mi.destroyTensorDescriptor(d)
    with pytest.raises(ValueError, match="xDesc has been destroyed"):
        _fwd(handle, d, x, desc(shape), y)
    with pytest.raises(ValueError, match="dyDesc has been destroyed"):
        _bwd(handle, desc(shape), x, d, x, desc(shape), y)
    h = mi.Handle(device="cpu")
    mi.destroy(h)
    with pytest.raises(ValueError, match="handle has been destroyed"):
        mi.softmaxForward(h, 1.0, desc(shape), x, 0.0, desc(shape), y)
    assert np.all(np.isnan(y))


def test_docstrings_name_the_c_function():
    for name in ("softmaxForward", "softmaxBackward", "softmaxForward_V2", "softmaxBackward_V2"):
        doc = getattr(mi, name).__doc__.strip().splitlines()
        assert doc[-1].strip().endswith("C: miopen" + name[0].upper() + name[1:])


# ---- CHANNEL mode on the columns engine (a thread per (n, h, w), looping over C) -----------------

# Softmax CHANNEL mode on the columns engine (one thread per (n, h, w), looping over C): every
# register bucket of the GPU kernel (C up to 8, 16, 24, 32; the backward's 64) at its edges, and C
# past the registers, against PyTorch in float64; outputs NaN-poisoned; two runs give the same bits.

CHANNEL = mi.MIOPEN_SOFTMAX_MODE_CHANNEL
# C at each bucket's edges; H * W > 1 and odd, so C is never unit-stride (columns, not rows).
CHANNELS = [1, 2, 7, 8, 9, 15, 16, 17, 21, 23, 24, 25, 31, 32, 33, 40, 64, 65]


@pytest.mark.parametrize("c", CHANNELS)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_columns_every_register_bucket(handle, rng, c, algo):
    shape = (3, c, 5, 7)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y = poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, CHANNEL)
    y_ref, dx_ref = ref.backward(x, dy, algo, CHANNEL)
    assert rel_l2(y, y_ref) <= TOL
    dx = poisoned(shape)
    mi.softmaxBackward_V2(handle, 1.0, desc(shape), y_ref.astype(np.float32), desc(shape), dy,
                          0.0, desc(shape), dx, algo, CHANNEL)
    assert rel_l2(dx, dx_ref) <= TOL


@pytest.mark.parametrize("c", [5, 21, 30])
def test_columns_blend(handle, rng, c):
    shape = (2, c, 6, 9)
    x = (2.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = y0.copy()
    mi.softmaxForward_V2(handle, 0.5, desc(shape), x, 2.0, desc(shape), y,
                         mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert rel_l2(y, 0.5 * y_ref + 2.0 * y0) <= TOL
    dx0 = rng.standard_normal(shape).astype(np.float32)
    dx = dx0.copy()
    mi.softmaxBackward_V2(handle, -1.5, desc(shape), y_ref.astype(np.float32), desc(shape), dy,
                          0.25, desc(shape), dx, mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert rel_l2(dx, -1.5 * dx_ref + 0.25 * dx0) <= TOL


@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_columns_same_bits_every_run(handle, rng, algo):
    # The benchmark's channel count over more columns (288000) than a grid of 8 blocks of 256
    # per multiprocessor covers on a 132-SM GPU: threads take several columns.
    shape = (3, 21, 300, 320)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    runs = []
    for _ in range(2):
        y, dx = poisoned(shape), poisoned(shape)
        mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, CHANNEL)
        mi.softmaxBackward_V2(handle, 1.0, desc(shape), y, desc(shape), dy, 0.0, desc(shape), dx,
                              algo, CHANNEL)
        runs.append((y, dx))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    y_ref, dx_ref = ref.backward(x, dy, algo, CHANNEL)
    assert rel_l2(runs[0][0], y_ref) <= TOL
    assert rel_l2(runs[0][1], dx_ref) <= TOL     # dx from our float32 y


# ---- rows: a warp per row (softmax_rows_warp), else a block per row -----------------------------

# softmax_rows_warp (a warp per row; rows it does not take go to the block-per-row kernel): N x C
# rows of whole float4s up to 1024 long, every algorithm, both modes that give rows, alpha/beta,
# against PyTorch in float64 (miopen_cy.reference.softmax); rows that must fall back (C not a
# multiple of 4, C past 1024, rows whose stride breaks the alignment) give the same answer; the
# same bits on two runs. Every test runs on each device present; outputs start NaN-poisoned or
# random.

INSTANCE = mi.MIOPEN_SOFTMAX_MODE_INSTANCE



def algo_id(a):
    return mi.SoftmaxAlgorithm(a).name


# C: whole float4s from one to the 1024 limit (lanes partly used, a lane's last float4 partly
# past the row), then rows that fall back: C % 4 != 0, C > 1024.
@pytest.mark.parametrize("c", [4, 8, 100, 128, 252, 256, 1000, 1024, 999, 1001, 1028, 2000])
@pytest.mark.parametrize("algo", ALGOS, ids=algo_id)
def test_softmax_rows_match_torch(handle, rng, c, algo):
    shape = (37, c, 1, 1)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    for mode in (CHANNEL, INSTANCE):
        y = poisoned(shape)
        mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, mode)
        assert rel_l2(y, ref.forward(x, algo, mode)) <= TOL


@pytest.mark.parametrize("algo", ALGOS, ids=algo_id)
def test_softmax_rows_blend(handle, rng, algo):
    shape = (19, 1000, 1, 1)
    x = (2.0 * rng.standard_normal(shape)).astype(np.float32)
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = y0.copy()
    mi.softmaxForward_V2(handle, 0.5, desc(shape), x, 2.0, desc(shape), y, algo, CHANNEL)
    assert rel_l2(y, 0.5 * ref.forward(x, algo, CHANNEL) + 2.0 * y0) <= TOL


@pytest.mark.parametrize("pad", [(0, 1, 0, 0), (0, 2, 0, 0), (0, 4, 0, 0)],
                         ids=["stride+1", "stride+2", "stride+4"])
def test_softmax_rows_with_a_row_stride(handle, rng, pad):
    # N x C rows 1000 long at a stride of 1001 / 1002 (rows not 16-byte aligned: the warp kernel
    # must not take them) and 1004 (aligned: it may); the gaps stay unwritten.
    xs = Strided((23, 1000, 1, 1), rng, pad=pad)
    xs.view[...] = (2.0 * rng.standard_normal(xs.shape)).astype(np.float32)
    y = Strided((23, 1000, 1, 1), pad=pad)
    mi.softmaxForward_V2(handle, 1.0, xs.desc(), xs.buf, 0.0, y.desc(), y.buf,
                         mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert rel_l2(y.view, ref.forward(np.ascontiguousarray(xs.view), mi.MIOPEN_SOFTMAX_ACCURATE,
                                      CHANNEL)) <= TOL
    assert y.gaps_untouched()


@pytest.mark.parametrize("algo", ALGOS, ids=algo_id)
def test_softmax_rows_same_bits_every_run(handle, rng, algo):
    # more rows than the grid's first pass when warps are 64 wide; 8 MB
    shape = (2100, 1000, 1, 1)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    runs = []
    for _ in range(2):
        y = poisoned(shape)
        mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, CHANNEL)
        runs.append(y)
    assert runs[0].tobytes() == runs[1].tobytes()
    assert rel_l2(runs[0], ref.forward(x, algo, CHANNEL)) <= TOL


# ---- short contiguous rows on the GPU (256..1024 unit-stride elements) --------------------------

SOFTMAX_ALGOS = [mi.MIOPEN_SOFTMAX_FAST, mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_LOG]


@requires_gpu
@pytest.mark.parametrize("algo", SOFTMAX_ALGOS, ids=["fast", "accurate", "log"])
@pytest.mark.parametrize("shape, mode", [
    ((64, 1000, 1, 1), mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
    ((33, 256, 1, 1), mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
    ((5, 1024, 1, 1), mi.MIOPEN_SOFTMAX_MODE_CHANNEL),
    ((7, 3, 17, 10), mi.MIOPEN_SOFTMAX_MODE_INSTANCE),      # rows of 510
    ((4, 200, 1, 1), mi.MIOPEN_SOFTMAX_MODE_CHANNEL),       # below the short range: the old engine
], ids=str)
def test_short_row_softmax_matches_torch_and_repeats_its_bits(rng, shape, mode, algo):
    h = mi.Handle(device="gpu")
    x = (3 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y0 = rng.standard_normal(shape).astype(np.float32)
    d = desc(shape)
    xb, dyb = mi.DeviceBuffer.from_numpy(h, x), mi.DeviceBuffer.from_numpy(h, dy)

    def forward(beta):
        yb = mi.DeviceBuffer.from_numpy(h, y0 if beta else poisoned(shape))
        mi.softmaxForward_V2(h, 1.5, d, xb, beta, d, yb, algo, mode)
        return yb, yb.to_numpy(shape, np.float32)

    yb, y = forward(0.0)
    assert y.tobytes() == forward(0.0)[1].tobytes()
    t = torch.from_numpy(x.astype(np.float64))
    flat = t.reshape(shape[0], -1) if mode == mi.MIOPEN_SOFTMAX_MODE_INSTANCE else t
    dim = 1
    ref = (torch.log_softmax(flat, dim) if algo == mi.MIOPEN_SOFTMAX_LOG
           else torch.softmax(flat, dim)).reshape(shape).numpy()
    assert rel_l2(y, 1.5 * ref) <= 1e-5
    _, yb2 = forward(-0.5)
    assert rel_l2(yb2, 1.5 * ref - 0.5 * y0) <= 1e-5

    # backward from our y (alpha 1 forward), against the float64 formula
    yb = mi.DeviceBuffer.from_numpy(h, ref.astype(np.float32))
    yv = yb.to_numpy(shape, np.float32).astype(np.float64)
    dxb = mi.DeviceBuffer.from_numpy(h, poisoned(shape))
    mi.softmaxBackward_V2(h, 1.0, d, yb, d, dyb, 0.0, d, dxb, algo, mode)
    dx = dxb.to_numpy(shape, np.float32)
    rows = shape[0] if mode == mi.MIOPEN_SOFTMAX_MODE_INSTANCE else None
    y2 = yv.reshape(rows, -1) if rows else yv
    d2 = dy.astype(np.float64).reshape(rows, -1) if rows else dy.astype(np.float64)
    if algo == mi.MIOPEN_SOFTMAX_LOG:
        ref_dx = d2 - np.exp(y2) * d2.sum(axis=1, keepdims=True)
    else:
        ref_dx = y2 * (d2 - (y2 * d2).sum(axis=1, keepdims=True))
    assert rel_l2(dx, ref_dx.reshape(shape)) <= 1e-5
    dxb2 = mi.DeviceBuffer.from_numpy(h, poisoned(shape))
    mi.softmaxBackward_V2(h, 1.0, d, yb, d, dyb, 0.0, d, dxb2, algo, mode)
    assert dxb2.to_numpy(shape, np.float32).tobytes() == dx.tobytes()


# ---- storage types: fp16 and bf16 (bf16 is ours: MIOpen's softmax refuses it) ------------------

# Inputs rounded to the storage type; the float64 reference runs on the stored values, so a right
# kernel is off by fp32 arithmetic plus one rounding: 1 ulp of fp16/bf16 relative to
# max(|ref|, floor). fp32 keeps its own bound (vectorised exp, sums of up to 1000 terms).
ULPS = {int(mi.miopenFloat): 64.0, int(mi.miopenHalf): 1.0, int(mi.miopenBFloat16): 1.0}
TYPE_SHAPES = [(2, 5, 3, 4), (4, 37, 1, 1), (3, 1000, 1, 1), (2, 3, 64, 70), (1, 21, 40, 40)]


def _check_y(y, ref_y, dt, algo):
    floor = 1.0 if algo == mi.MIOPEN_SOFTMAX_LOG else 1e-3
    check_close(y, ref_y, dt, ULPS[int(dt)], floor=floor)


def _check_dx(dx, ref_dx, dt):
    # dx cancels (dy - sum): fp32's own error is absolute, about 1e-7 (far below 1e-2 ulp of fp16)
    check_close(dx, ref_dx, dt, ULPS[int(dt)], floor=1.0 if int(dt) == int(mi.miopenFloat) else 1e-2)


def _dy(rng, shape, dt):
    return random_stored(shape, dt, rng, -1.0, 1.0)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("shape", TYPE_SHAPES, ids=_shape_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_types_forward_and_backward(handle, rng, dt, shape, mode, algo):
    x = random_stored(shape, dt, rng, -4.0, 4.0)
    y = poison(shape, dt)
    mi.softmaxForward_V2(handle, 1.0, desc(shape, dtype=dt), x, 0.0, desc(shape, dtype=dt), y,
                         algo, mode)
    assert y.dtype == np_dtype(dt)
    _check_y(y, ref.forward(as64(x), algo, mode), dt, algo)
    dy = _dy(rng, shape, dt)
    dx = poison(shape, dt)
    mi.softmaxBackward_V2(handle, 1.0, desc(shape, dtype=dt), y, desc(shape, dtype=dt), dy, 0.0,
                          desc(shape, dtype=dt), dx, algo, mode)
    _check_dx(dx, ref.backward_from_output(as64(y), as64(dy), algo, mode), dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_types_v1(handle, rng, dt):
    shape = (2, 6, 5, 3)
    d = desc(shape, dtype=dt)
    x, dy = random_stored(shape, dt, rng, -4.0, 4.0), _dy(rng, shape, dt)
    y, dx = poison(shape, dt), poison(shape, dt)
    mi.softmaxForward(handle, 1.0, d, x, 0.0, d, y)
    _check_y(y, ref.forward(as64(x), ref.ACCURATE, ref.CHANNEL), dt, ref.ACCURATE)
    mi.softmaxBackward(handle, 1.0, d, y, d, dy, 0.0, d, dx)
    _check_dx(dx, ref.backward_from_output(as64(y), as64(dy), ref.ACCURATE, ref.CHANNEL), dt)


# NHWC: CHANNEL mode over unit-stride channels (on the GPU a group of lanes per position, vectors
# of four when C % 4 == 0, single elements otherwise; long C a warp or a block per row).
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("c", [2, 3, 8, 21, 64, 100, 256, 1000])
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_types_nhwc_channel(handle, rng, dt, c, algo):
    n, h, w = 2, 5, 3
    shape = (n, c, h, w)
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, dt, mi.miopenTensorNHWC, shape, 4)
    x_nhwc = random_stored((n, h, w, c), dt, rng, -4.0, 4.0)
    y_nhwc = poison((n, h, w, c), dt)
    mi.softmaxForward_V2(handle, 1.0, d, x_nhwc, 0.0, d, y_nhwc, algo, CHANNEL)
    x = as64(x_nhwc).transpose(0, 3, 1, 2)
    _check_y(as64(y_nhwc).transpose(0, 3, 1, 2), ref.forward(x, algo, CHANNEL), dt, algo)
    dy_nhwc = _dy(rng, (n, h, w, c), dt)
    dx_nhwc = poison((n, h, w, c), dt)
    mi.softmaxBackward_V2(handle, 1.0, d, y_nhwc, d, dy_nhwc, 0.0, d, dx_nhwc, algo, CHANNEL)
    ref_dx = ref.backward_from_output(as64(y_nhwc).transpose(0, 3, 1, 2),
                                      as64(dy_nhwc).transpose(0, 3, 1, 2), algo, CHANNEL)
    _check_dx(as64(dx_nhwc).transpose(0, 3, 1, 2), ref_dx, dt)


# NHWC with a short C that is not whole groups of four: on the GPU a block per tile of rows lying
# end to end (softmax_rows_tile.hip). Many tiles and a partial last one (41 * 37 * 3 positions),
# blended; C = 2 (the shortest row), 21 (segmentation's classes), 31 (the longest such row).
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("c", [2, 21, 31])
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_types_nhwc_short_rows_tiles_blend(handle, rng, dt, c, algo):
    n, h, w = 3, 37, 41
    shape = (n, c, h, w)
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, dt, mi.miopenTensorNHWC, shape, 4)
    x_nhwc = random_stored((n, h, w, c), dt, rng, -4.0, 4.0)
    y0 = random_stored((n, h, w, c), dt, rng)
    y = y0.copy()
    mi.softmaxForward_V2(handle, 2.0, d, x_nhwc, 0.5, d, y, algo, CHANNEL)
    y_ref = ref.forward(as64(x_nhwc).transpose(0, 3, 1, 2), algo, CHANNEL).transpose(0, 2, 3, 1)
    check_close(y, 2.0 * y_ref + 0.5 * as64(y0), dt, 2 * ULPS[int(dt)])
    ys = random_stored((n, h, w, c), dt, rng, 0.0, 1.0)
    dy = _dy(rng, (n, h, w, c), dt)
    dx0 = random_stored((n, h, w, c), dt, rng)
    dx = dx0.copy()
    mi.softmaxBackward_V2(handle, -1.5, d, ys, d, dy, 0.25, d, dx, algo, CHANNEL)
    dx_ref = ref.backward_from_output(as64(ys).transpose(0, 3, 1, 2),
                                      as64(dy).transpose(0, 3, 1, 2), algo,
                                      CHANNEL).transpose(0, 2, 3, 1)
    check_close(dx, -1.5 * dx_ref + 0.25 * as64(dx0), dt, 2 * ULPS[int(dt)])


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("shape", [(2, 5, 3, 4), (5, 64, 1, 1), (1, 2, 70, 70)], ids=_shape_id)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_types_blend(handle, rng, dt, shape, algo):
    d = desc(shape, dtype=dt)
    x, dy = random_stored(shape, dt, rng, -4.0, 4.0), _dy(rng, shape, dt)
    y0 = random_stored(shape, dt, rng)
    y = y0.copy()
    mi.softmaxForward_V2(handle, 2.0, d, x, 0.5, d, y, algo, CHANNEL)
    y_ref = ref.forward(as64(x), algo, CHANNEL)
    check_close(y, 2.0 * y_ref + 0.5 * as64(y0), dt, 2 * ULPS[int(dt)])
    dx0 = random_stored(shape, dt, rng)
    dx = dx0.copy()
    ys = random_stored(shape, dt, rng, 0.0, 1.0)
    mi.softmaxBackward_V2(handle, -1.5, d, ys, d, dy, 0.25, d, dx, algo, CHANNEL)
    dx_ref = ref.backward_from_output(as64(ys), as64(dy), algo, CHANNEL)
    check_close(dx, -1.5 * dx_ref + 0.25 * as64(dx0), dt, 2 * ULPS[int(dt)])


@pytest.mark.parametrize("dt", FLOAT_TYPES[1:])
@pytest.mark.parametrize("mode", MODES, ids=lambda m: mi.SoftmaxMode(m).name)
def test_types_strided(handle, rng, dt, mode):
    shape = (2, 5, 3, 4)
    npdt = np_dtype(dt)
    xs = Strided(shape, pad=(0, 1, 0, 3), dtype=npdt)
    xs.view[...] = random_stored(shape, dt, rng, -4.0, 4.0)
    ys = Strided(shape, pad=(1, 0, 2, 1), dtype=npdt)
    mi.softmaxForward_V2(handle, 1.0, xs.desc(dt), xs.buf, 0.0, ys.desc(dt), ys.buf,
                         mi.MIOPEN_SOFTMAX_ACCURATE, mode)
    _check_y(ys.view, ref.forward(as64(xs.view), ref.ACCURATE, mode), dt, ref.ACCURATE)
    assert ys.gaps_untouched() and xs.gaps_untouched()
    dy = _dy(rng, shape, dt)
    dxs = Strided(shape, pad=(1, 1, 1, 1), dtype=npdt)
    mi.softmaxBackward_V2(handle, 1.0, ys.desc(dt), ys.buf, desc(shape, dtype=dt), dy, 0.0,
                          dxs.desc(dt), dxs.buf, mi.MIOPEN_SOFTMAX_ACCURATE, mode)
    _check_dx(dxs.view, ref.backward_from_output(as64(ys.view), as64(dy), ref.ACCURATE, mode), dt)
    assert dxs.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES[1:])
def test_types_same_bits_every_run_and_in_place(handle, rng, dt):
    for shape, mode in [((2, 3, 100, 120), INSTANCE), ((2, 21, 64, 64), CHANNEL),
                        ((400, 300, 1, 1), CHANNEL)]:
        d = desc(shape, dtype=dt)
        x = random_stored(shape, dt, rng, -4.0, 4.0)
        y1, y2 = poison(shape, dt), poison(shape, dt)
        mi.softmaxForward_V2(handle, 1.0, d, x, 0.0, d, y1, mi.MIOPEN_SOFTMAX_ACCURATE, mode)
        mi.softmaxForward_V2(handle, 1.0, d, x, 0.0, d, y2, mi.MIOPEN_SOFTMAX_ACCURATE, mode)
        assert y1.tobytes() == y2.tobytes()
        buf = x.copy()
        mi.softmaxForward_V2(handle, 1.0, d, buf, 0.0, d, buf, mi.MIOPEN_SOFTMAX_ACCURATE, mode)
        assert buf.tobytes() == y1.tobytes()


@pytest.mark.parametrize("dt", FLOAT_TYPES[1:])
def test_types_nan_and_inf_propagate(handle, dt):
    shape = (1, 4, 1, 1)
    d = desc(shape, dtype=dt)
    x = np.array([1.0, np.nan, 0.0, -1.0]).reshape(shape).astype(np.float32).astype(np_dtype(dt))
    y = poison(shape, dt)
    mi.softmaxForward_V2(handle, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert np.all(np.isnan(as64(y)))
    x = np.array([1.0, -np.inf, 0.0, -1.0]).reshape(shape).astype(np.float32).astype(np_dtype(dt))
    mi.softmaxForward_V2(handle, 1.0, d, x, 0.0, d, y, mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert as64(y)[0, 1, 0, 0] == 0.0
    _check_y(y, ref.forward(as64(x), ref.ACCURATE, ref.CHANNEL), dt, ref.ACCURATE)


def test_types_bad_inputs_raise_and_leave_outputs_untouched(handle, rng):
    shape = (2, 3, 4, 5)
    h16 = random_stored(shape, mi.miopenHalf, rng)
    y16 = poison(shape, mi.miopenHalf)
    d16 = desc(shape, dtype=mi.miopenHalf)
    i8 = np.zeros(shape, np.int8)
    di8 = desc(shape, dtype=mi.miopenInt8)
    cases = [
        (lambda: _fwd(handle, di8, i8, di8, np.zeros(shape, np.int8)),
         "yDesc has data type miopenInt8"),
        (lambda: _fwd(handle, d16, h16, desc(shape, dtype=mi.miopenFloat), poisoned(shape)),
         "xDesc is miopenHalf but yDesc is miopenFloat"),
        (lambda: _fwd(handle, d16, h16.astype(np.float32), d16, y16),
         r"x: array dtype 'f4' \(float32\) does not match the descriptor's miopenHalf \(float16\)"),
        (lambda: _bwd(handle, d16, h16, d16, h16, di8, np.zeros(shape, np.int8)),
         "dyDesc is miopenHalf but dxDesc is miopenInt8"),
        (lambda: _bwd(handle, di8, i8, di8, i8, di8, np.zeros(shape, np.int8)),
         "dxDesc has data type miopenInt8"),
    ]
    for call, words in cases:
        with pytest.raises(mi.BadParmError, match=words):
            call()
        assert np.all(np.isnan(as64(y16))), words


# Rows of the group kernel (softmax_rows_warp) that are not whole aligned groups of four take
# single elements (up to 256 a row); past that the block-per-row kernels. Row strides of +1 break
# the alignment; +4 keeps it.
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("c,pad", [(200, 1), (200, 4), (256, 1), (300, 1), (1000, 2), (37, 0)],
                         ids=["c200+1", "c200+4", "c256+1", "c300+1", "c1000+2", "c37"])
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_types_rows_with_a_row_stride(handle, rng, dt, c, pad, algo):
    shape = (23, c, 1, 1)
    npdt = np_dtype(dt)
    xs = Strided(shape, pad=(0, pad, 0, 0), dtype=npdt)
    xs.view[...] = random_stored(shape, dt, rng, -4.0, 4.0)
    ys = Strided(shape, pad=(0, pad, 0, 0), dtype=npdt)
    mi.softmaxForward_V2(handle, 1.0, xs.desc(dt), xs.buf, 0.0, ys.desc(dt), ys.buf, algo, CHANNEL)
    _check_y(ys.view, ref.forward(as64(xs.view), algo, CHANNEL), dt, algo)
    assert ys.gaps_untouched()
    dy = Strided(shape, pad=(0, pad, 0, 0), dtype=npdt)
    dy.view[...] = _dy(rng, shape, dt)
    dxs = Strided(shape, pad=(0, pad, 0, 0), dtype=npdt)
    mi.softmaxBackward_V2(handle, 1.0, ys.desc(dt), ys.buf, dy.desc(dt), dy.buf, 0.0, dxs.desc(dt),
                          dxs.buf, algo, CHANNEL)
    _check_dx(dxs.view, ref.backward_from_output(as64(ys.view), as64(dy.view), algo, CHANNEL), dt)
    assert dxs.gaps_untouched()


# CHANNEL mode on NCHW in fp16/bf16: the GPU's columns engine takes two neighbouring positions a
# thread where H * W is even (and the strides and pointers allow: C up to 64),
# one a thread otherwise; every register bucket's edges (the backward's 64 included), both
# parities, a blend.
@pytest.mark.parametrize("dt", FLOAT_TYPES[1:])
@pytest.mark.parametrize("c", [1, 7, 8, 9, 16, 17, 24, 25, 32, 33, 64, 65])
@pytest.mark.parametrize("hw", [(6, 8), (5, 7)], ids=["even", "odd"])
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_types_columns_every_bucket(handle, rng, dt, c, hw, algo):
    shape = (3, c) + hw
    d = desc(shape, dtype=dt)
    x, dy = random_stored(shape, dt, rng, -4.0, 4.0), _dy(rng, shape, dt)
    y0 = random_stored(shape, dt, rng)
    y = y0.copy()
    beta = 0.5 if c % 2 else 0.0
    mi.softmaxForward_V2(handle, 1.0, d, x, beta, d, y, algo, CHANNEL)
    y_ref = ref.forward(as64(x), algo, CHANNEL) + (beta * as64(y0) if beta else 0.0)
    check_close(y, y_ref, dt, 2.0, floor=1.0 if beta or algo == mi.MIOPEN_SOFTMAX_LOG else 1e-3)
    ys = random_stored(shape, dt, rng, 0.0, 1.0)
    dx = poison(shape, dt)
    mi.softmaxBackward_V2(handle, 1.0, d, ys, d, dy, 0.0, d, dx, algo, CHANNEL)
    _check_dx(dx, ref.backward_from_output(as64(ys), as64(dy), algo, CHANNEL), dt)
