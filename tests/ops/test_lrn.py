"""LRN (descriptor, miopenLRNGetWorkSpaceSize, miopenLRNForward, miopenLRNBackward) against
PyTorch's local_response_norm in float64 (cross-channel, odd N) and the float64 reference
(tests/reference/lrn.py: even N and within-channel), autograd for the gradients."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from miopen_cy.reference import lrn as ref
from support.buffers import Strided, desc, poisoned, rel_l2
from support.dtypes import FLOAT_TYPES, as64, check_close, np_dtype, poison, random_stored
from support.stored import LAYOUTS, Placed

CROSS, WITHIN = mi.miopenLRNCrossChannel, mi.miopenLRNWithinChannel
TOL = 1e-5
# alpha and K chosen so the window sum dominates the scale (a wrong window cannot pass).
ALPHA, K = 2.0, 1.0


def _lrn(mode, n, alpha=ALPHA, beta=0.75, k=K):
    d = mi.LRNDescriptor()
    mi.setLRNDescriptor(d, mode, n, alpha, beta, k)
    return d


def _ws(shape):
    return np.full(int(np.prod(shape)), np.nan, np.float32)


def _torch_lrn(x, n, alpha, beta, k):
    return torch.nn.functional.local_response_norm(
        torch.from_numpy(np.asarray(x, np.float64)), n, alpha, beta, k)


def _shape_id(shape):
    return "n{}-c{}-h{}-w{}".format(*shape)


# ---- descriptor -----------------------------------------------------------------------------------

def test_descriptor_round_trip_and_repr():
    d = mi.LRNDescriptor()
    assert repr(d) == "LRNDescriptor(unset)" and d.lrnN is None
    mi.setLRNDescriptor(d, mi.miopenLRNWithinChannel, 7, 1e-4, 0.75, 2.0)
    assert mi.getLRNDescriptor(d) == (mi.miopenLRNWithinChannel, 7, 1e-4, 0.75, 2.0)
    assert isinstance(mi.getLRNDescriptor(d)[0], mi.LRNMode)
    assert (d.mode, d.lrnN, d.lrnAlpha, d.lrnBeta, d.lrnK) == (WITHIN, 7, 1e-4, 0.75, 2.0)
    assert repr(d) == ("LRNDescriptor(miopenLRNWithinChannel, lrnN=7, lrnAlpha=0.0001, "
                       "lrnBeta=0.75, lrnK=2.0)")
    assert isinstance(mi.createLRNDescriptor(), mi.LRNDescriptor)


@pytest.mark.parametrize("args,exc,words", [
    ((5, 5, 1.0, 0.75, 1.0), mi.BadParmError, "mode = 5 is not a miopenLRNMode_t"),
    ((CROSS, 0, 1.0, 0.75, 1.0), mi.BadParmError, "lrnN = 0; must be >= 1"),
    ((CROSS, 5, math.nan, 0.75, 1.0), mi.BadParmError, "lrnAlpha = nan; must be finite"),
    ((CROSS, 5, 1.0, math.inf, 1.0), mi.BadParmError, "lrnBeta = inf; must be finite"),
    ((CROSS, 5, 1.0, 0.75, -math.inf), mi.BadParmError, "lrnK = -inf; must be finite"),
    ((CROSS, -1, 1.0, 0.75, 1.0), OverflowError, "lrnN = -1 does not fit"),
    ((CROSS, 2**32, 1.0, 0.75, 1.0), OverflowError, "lrnN = 4294967296 does not fit"),
    ((CROSS, 5, "a", 0.75, 1.0), TypeError, "lrnAlpha must be a float"),
])
def test_set_rejects_bad_values_and_keeps_the_old_state(args, exc, words):
    d = _lrn(CROSS, 3, 1.5, 0.5, 2.0)
    with pytest.raises(exc, match=words):
        mi.setLRNDescriptor(d, *args)
    assert mi.getLRNDescriptor(d) == (CROSS, 3, 1.5, 0.5, 2.0)


def test_unset_destroyed_and_null_descriptors_raise(handle):
    d = mi.LRNDescriptor()
    with pytest.raises(mi.BadParmError, match="lrnDesc has not been set"):
        mi.getLRNDescriptor(d)
    shape = (1, 3, 2, 2)
    x, y = np.ones(shape, np.float32), poisoned(shape)
    with pytest.raises(mi.BadParmError, match="lrnDesc has not been set"):
        mi.LRNForward(handle, d, 1.0, desc(shape), x, 0.0, desc(shape), y, False, None)
    with pytest.raises(mi.BadParmError, match="lrnDesc is null"):
        mi.LRNForward(handle, None, 1.0, desc(shape), x, 0.0, desc(shape), y, False, None)
    with pytest.raises(mi.BadParmError, match="lrnDesc is null"):
        mi.setLRNDescriptor(None, CROSS, 5, 1.0, 0.75, 1.0)
    mi.setLRNDescriptor(d, CROSS, 5, 1.0, 0.75, 1.0)
    mi.destroyLRNDescriptor(d)
    assert repr(d) == "LRNDescriptor(destroyed)"
    with pytest.raises(ValueError, match="lrnDesc has been destroyed"):
        mi.LRNForward(handle, d, 1.0, desc(shape), x, 0.0, desc(shape), y, False, None)
    with pytest.raises(ValueError, match="lrnDesc has been destroyed"):
        mi.getLRNDescriptor(d)
    with pytest.raises(ValueError, match="lrnDesc has been destroyed"):
        mi.destroyLRNDescriptor(d)
    assert np.all(np.isnan(y))


def test_workspace_size_is_numel_times_element_size():
    assert mi.LRNGetWorkSpaceSize(desc((2, 3, 4, 5))) == 2 * 3 * 4 * 5 * 4
    # strided: numel, not the span
    assert mi.LRNGetWorkSpaceSize(desc((2, 3, 4, 5), (100, 30, 6, 1))) == 2 * 3 * 4 * 5 * 4
    with pytest.raises(mi.BadParmError, match="yDesc has not been set"):
        mi.LRNGetWorkSpaceSize(mi.TensorDescriptor())


def test_logging_prints_the_descriptor(handle, monkeypatch, capfd):
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING", "1")
    d = _lrn(CROSS, 5, 1e-4, 0.75, 2.0)
    shape = (1, 3, 2, 2)
    mi.LRNForward(handle, d, 1.0, desc(shape), np.ones(shape, np.float32), 0.0, desc(shape),
                  poisoned(shape), False, None)
    err = capfd.readouterr().err
    assert "miopenSetLRNDescriptor(" in err and "lrnN = 5" in err
    assert "miopenLRNForward(" in err
    assert "{miopenLRNCrossChannel, lrnN=5, lrnAlpha=0.0001, lrnBeta=0.75, lrnK=2}" in err


# ---- forward ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 7, 5, 6), (1, 3, 1, 1), (4, 16, 9, 9), (1, 40, 30, 33)],
                         ids=_shape_id)
@pytest.mark.parametrize("n", [1, 3, 5, 7, 11])
@pytest.mark.parametrize("beta", [0.75, 0.5, 1.0, 0.6])
def test_cross_channel_odd_n_matches_torch(handle, rng, shape, n, beta):
    x = rng.standard_normal(shape).astype(np.float32)
    y = poisoned(shape)
    mi.LRNForward(handle, _lrn(CROSS, n, beta=beta), 1.0, desc(shape), x, 0.0, desc(shape), y,
                  False, None)
    assert rel_l2(y, _torch_lrn(x, n, ALPHA, beta, K)) <= TOL


@pytest.mark.parametrize("shape", [(2, 7, 5, 6), (1, 3, 1, 1), (2, 40, 3, 3)], ids=_shape_id)
@pytest.mark.parametrize("n", [2, 4, 6, 44])
def test_cross_channel_even_n_matches_reference_not_torch(handle, rng, shape, n):
    x = rng.standard_normal(shape).astype(np.float32)
    y = poisoned(shape)
    mi.LRNForward(handle, _lrn(CROSS, n), 1.0, desc(shape), x, 0.0, desc(shape), y, False, None)
    y_ref, _ = ref.forward(x, ref.CROSS, n, ALPHA, 0.75, K)
    assert rel_l2(y, y_ref) <= TOL
    if shape[1] > n // 2:
        # PyTorch pads N//2 before and (N-1)//2 after: its even-N window is shifted by one.
        assert rel_l2(y, _torch_lrn(x, n, ALPHA, 0.75, K)) > 1e-3


@pytest.mark.parametrize("shape", [(2, 3, 5, 6), (1, 2, 1, 1), (2, 2, 17, 9), (1, 1, 40, 3)],
                         ids=_shape_id)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 20])
def test_within_channel_matches_reference(handle, rng, shape, n):
    x = rng.standard_normal(shape).astype(np.float32)
    y = poisoned(shape)
    mi.LRNForward(handle, _lrn(WITHIN, n), 1.0, desc(shape), x, 0.0, desc(shape), y, False, None)
    assert rel_l2(y, ref.forward(x, ref.WITHIN, n, ALPHA, 0.75, K)[0]) <= TOL


@pytest.mark.parametrize("mode", [CROSS, WITHIN], ids=["cross", "within"])
def test_forward_saves_the_packed_scale(handle, rng, mode):
    shape = (2, 6, 5, 7)
    x = Strided(shape, rng, pad=(0, 1, 1, 2))
    y = Strided(shape, pad=(1, 0, 0, 3))
    ws = _ws(shape)
    mi.LRNForward(handle, _lrn(mode, 3), 1.0, x.desc(), x.buf, 0.0, y.desc(), y.buf, True, ws)
    y_ref, s_ref = ref.forward(x.view, mode, 3, ALPHA, 0.75, K)
    assert rel_l2(y.view, y_ref) <= TOL
    assert rel_l2(ws.reshape(shape), s_ref) <= TOL
    assert x.gaps_untouched() and y.gaps_untouched()


# ---- backward -----------------------------------------------------------------------------------------

def _run_backward(handle, lrn, shape, x, y, dy, ws, alpha=1.0, beta=0.0, dx=None):
    dx = poisoned(shape) if dx is None else dx
    mi.LRNBackward(handle, lrn, alpha, desc(shape), y, desc(shape), dy, desc(shape), x, beta,
                   desc(shape), dx, ws)
    return dx


@pytest.mark.parametrize("shape", [(2, 7, 5, 6), (1, 3, 1, 1), (1, 40, 30, 33)], ids=_shape_id)
@pytest.mark.parametrize("n", [1, 3, 5])
@pytest.mark.parametrize("use_ws", [True, False], ids=["workspace", "recompute"])
def test_cross_channel_backward_matches_torch_autograd(handle, rng, shape, n, use_ws):
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _lrn(CROSS, n)
    y, ws = poisoned(shape), _ws(shape)
    mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
    xt = torch.from_numpy(x.astype(np.float64)).requires_grad_(True)
    torch.nn.functional.local_response_norm(xt, n, ALPHA, 0.75, K).backward(
        torch.from_numpy(dy.astype(np.float64)))
    dx = _run_backward(handle, lrn, shape, x, y, dy, ws if use_ws else None)
    assert rel_l2(dx, xt.grad.numpy()) <= TOL


@pytest.mark.parametrize("mode,n", [(CROSS, 2), (CROSS, 4), (CROSS, 9), (WITHIN, 1), (WITHIN, 2),
                                    (WITHIN, 3), (WITHIN, 4), (WITHIN, 7)])
@pytest.mark.parametrize("shape", [(2, 5, 6, 7), (1, 2, 1, 1), (1, 3, 19, 4)], ids=_shape_id)
@pytest.mark.parametrize("use_ws", [True, False], ids=["workspace", "recompute"])
def test_backward_matches_reference_autograd(handle, rng, mode, n, shape, use_ws):
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _lrn(mode, n, beta=0.6)
    y, ws = poisoned(shape), _ws(shape)
    mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
    dx = _run_backward(handle, lrn, shape, x, y, dy, ws if use_ws else None)
    assert rel_l2(dx, ref.backward(x, dy, mode, n, ALPHA, 0.6, K)) <= TOL


@settings(max_examples=40, deadline=None)
@given(shape=st.tuples(st.integers(1, 3), st.integers(1, 12), st.integers(1, 9), st.integers(1, 9)),
       mode=st.sampled_from([CROSS, WITHIN]), n=st.integers(1, 8),
       beta=st.sampled_from([0.75, 0.5, 1.0, 0.3, 1.7]),
       alpha=st.floats(0.01, 5.0), k=st.floats(0.5, 3.0), seed=st.integers(0, 2**16))
def test_hypothesis_forward_and_backward(shape, mode, n, beta, alpha, k, seed):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _lrn(mode, n, alpha, beta, k)
    y, ws = poisoned(shape), _ws(shape)
    mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
    y_ref, s_ref = ref.forward(x, mode, n, alpha, beta, k)
    assert rel_l2(y, y_ref) <= TOL and rel_l2(ws.reshape(shape), s_ref) <= TOL
    dx = _run_backward(handle, lrn, shape, x, y, dy, ws)
    assert rel_l2(dx, ref.backward(x, dy, mode, n, alpha, beta, k)) <= TOL


# ---- strides, layouts, blending ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", [CROSS, WITHIN], ids=["cross", "within"])
def test_strided_tensors_each_with_own_strides(handle, rng, mode):
    shape = (2, 6, 7, 5)
    x = Strided(shape, rng, pad=(0, 1, 0, 3))
    y = Strided(shape, pad=(1, 0, 2, 1))
    lrn = _lrn(mode, 4)
    ws = _ws(shape)
    mi.LRNForward(handle, lrn, 1.0, x.desc(), x.buf, 0.0, y.desc(), y.buf, True, ws)
    assert rel_l2(y.view, ref.forward(x.view, mode, 4, ALPHA, 0.75, K)[0]) <= TOL
    assert x.gaps_untouched() and y.gaps_untouched()
    dy = Strided(shape, rng, pad=(0, 2, 1, 0))
    dx = Strided(shape, pad=(1, 1, 1, 1))
    for workspace in (ws, None):
        dx.view[...] = np.nan
        mi.LRNBackward(handle, lrn, 1.0, y.desc(), y.buf, dy.desc(), dy.buf, x.desc(), x.buf, 0.0,
                       dx.desc(), dx.buf, workspace)
        assert rel_l2(dx.view, ref.backward(x.view, dy.view, mode, 4, ALPHA, 0.75, K)) <= TOL
        assert dx.gaps_untouched() and dy.gaps_untouched() and y.gaps_untouched()


@pytest.mark.parametrize("mode", [CROSS, WITHIN], ids=["cross", "within"])
def test_nhwc_layout(handle, rng, mode):
    shape = (2, 5, 6, 7)
    nd = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(nd, mi.miopenFloat, mi.miopenTensorNHWC, shape, 4)
    x_nhwc = rng.standard_normal((2, 6, 7, 5)).astype(np.float32)
    x = x_nhwc.transpose(0, 3, 1, 2)
    y_nhwc = poisoned((2, 6, 7, 5))
    lrn = _lrn(mode, 3)
    mi.LRNForward(handle, lrn, 1.0, nd, x_nhwc, 0.0, nd, y_nhwc, False, None)
    assert rel_l2(y_nhwc.transpose(0, 3, 1, 2), ref.forward(x, mode, 3, ALPHA, 0.75, K)[0]) <= TOL
    dy = rng.standard_normal(shape).astype(np.float32)
    dx = poisoned(shape)
    mi.LRNBackward(handle, lrn, 1.0, nd, y_nhwc, desc(shape), dy, nd, x_nhwc, 0.0, desc(shape),
                   dx, None)
    assert rel_l2(dx, ref.backward(x, dy, mode, 3, ALPHA, 0.75, K)) <= TOL


@pytest.mark.parametrize("mode", [CROSS, WITHIN], ids=["cross", "within"])
def test_alpha_beta_blend(handle, rng, mode):
    shape = (2, 5, 4, 6)
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _lrn(mode, 3)
    y_ref, _ = ref.forward(x, mode, 3, ALPHA, 0.75, K)
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = y0.copy()
    mi.LRNForward(handle, lrn, 2.0, desc(shape), x, 0.5, desc(shape), y, False, None)
    assert rel_l2(y, 2.0 * y_ref + 0.5 * y0) <= TOL
    dx0 = rng.standard_normal(shape).astype(np.float32)
    dx = _run_backward(handle, lrn, shape, x, y_ref.astype(np.float32), dy, None, alpha=-1.5,
                       beta=0.25, dx=dx0.copy())
    assert rel_l2(dx, -1.5 * ref.backward(x, dy, mode, 3, ALPHA, 0.75, K) + 0.25 * dx0) <= TOL


@pytest.mark.parametrize("mode", [CROSS, WITHIN], ids=["cross", "within"])
def test_in_place(handle, rng, mode):
    shape = (2, 6, 5, 7)
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn, d = _lrn(mode, 3), desc(shape)
    y_ref, _ = ref.forward(x, mode, 3, ALPHA, 0.75, K)
    buf = x.copy()
    mi.LRNForward(handle, lrn, 1.0, d, buf, 0.0, d, buf, False, None)
    assert rel_l2(buf, y_ref) <= TOL
    g = dy.copy()
    mi.LRNBackward(handle, lrn, 1.0, d, y_ref.astype(np.float32), d, g, d, x, 0.0, d, g, None)
    assert rel_l2(g, ref.backward(x, dy, mode, 3, ALPHA, 0.75, K)) <= TOL


def test_alexnet_layer(handle, rng):
    shape = (4, 96, 55, 55)
    x = rng.standard_normal(shape).astype(np.float32)
    y = poisoned(shape)
    mi.LRNForward(handle, _lrn(CROSS, 5, 1e-4, 0.75, 2.0), 1.0, desc(shape), x, 0.0, desc(shape),
                  y, False, None)
    assert rel_l2(y, _torch_lrn(x, 5, 1e-4, 0.75, 2.0)) <= TOL


_SAME_BITS_SCRIPT = """
import sys, numpy as np, miopen_cy as mi
h = mi.Handle(device="cpu")
out = []
shape = (2, 32, 40, 40)
d = mi.TensorDescriptor()
mi.setTensorDescriptor(d, mi.miopenFloat, 4, list(shape), None)
x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
for mode in (0, 1):
    lrn = mi.LRNDescriptor()
    mi.setLRNDescriptor(lrn, mode, 5, 2.0, 0.6, 1.0)
    y, dx = np.empty_like(x), np.empty_like(x)
    mi.LRNForward(h, lrn, 1.0, d, x, 0.0, d, y, False, None)
    mi.LRNBackward(h, lrn, 1.0, d, y, d, x, d, x, 0.0, d, dx, None)
    out += [y, dx]
np.savez(sys.argv[1], *out)
"""


def test_same_bits_whatever_the_thread_count(tmp_path):
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

def test_forward_bad_inputs_raise_and_leave_outputs_untouched(handle, rng):
    shape = (2, 3, 4, 5)
    x = rng.standard_normal(shape).astype(np.float32)
    y, ws = poisoned(shape), _ws(shape)
    lrn, d = _lrn(CROSS, 3), desc(shape)

    def fwd(lrn=lrn, xd=d, x=x, yd=d, y=y, do_backward=True, ws=ws):
        mi.LRNForward(handle, lrn, 1.0, xd, x, 0.0, yd, y, do_backward, ws)

    cases = [
        (lambda: fwd(lrn=_lrn(CROSS, 3, k=0.0)), mi.BadParmError, "lrnDesc has lrnK = 0"),
        (lambda: fwd(xd=None), mi.BadParmError, "xDesc is null"),
        (lambda: fwd(yd=mi.TensorDescriptor()), mi.BadParmError, "yDesc has not been set"),
        (lambda: fwd(xd=desc((2, 3, 5, 4))), mi.BadParmError,
         "xDesc and yDesc have different lengths"),
        (lambda: fwd(xd=desc((6, 20)), yd=desc((6, 20))), mi.BadParmError,
         "xDesc has 2 dims; expected 4"),
        (lambda: fwd(xd=desc(shape, dtype=mi.miopenHalf), x=x.astype(np.float16)),
         mi.BadParmError, "xDesc is miopenHalf but yDesc is miopenFloat"),
        (lambda: fwd(x=None), mi.BadParmError, "x is a null pointer"),
        (lambda: fwd(ws=None), mi.BadParmError,
         "workSpace is a null pointer but do_backward is true"),
        (lambda: fwd(ws=ws[:10]), mi.BadParmError,
         "workSpace: the buffer has 40 bytes; its descriptor needs 480"),
        (lambda: fwd(x=x[:1]), mi.BadParmError, "x: the buffer has 240 bytes"),
    ]
    for call, exc, words in cases:
        with pytest.raises(exc, match=words):
            call()
        assert np.all(np.isnan(y)) and np.all(np.isnan(ws)), words
    yd = np.full(shape, np.nan)
    dd = desc(shape, dtype=mi.miopenDouble)
    with pytest.raises(mi.BadParmError, match="yDesc has data type miopenDouble; this call "
                                              "takes miopenFloat, miopenHalf or miopenBFloat16"):
        mi.LRNForward(handle, lrn, 1.0, dd, x.astype(np.float64), 0.0, dd, yd, False, None)
    assert np.all(np.isnan(yd))
    with pytest.raises(mi.BadParmError, match="y is a null pointer"):
        fwd(y=None)
    # without do_backward the workspace is not needed and not written
    fwd(do_backward=False, ws=None)
    assert not np.any(np.isnan(y))


def test_backward_bad_inputs_raise_and_leave_dx_untouched(handle, rng):
    shape = (2, 3, 4, 5)
    x = rng.standard_normal(shape).astype(np.float32)
    dx, d = poisoned(shape), desc(shape)
    lrn = _lrn(WITHIN, 3)

    def bwd(lrn=lrn, yd=d, y=x, dyd=d, dy=x, xd=d, x=x, dxd=d, dx=dx, ws=None):
        mi.LRNBackward(handle, lrn, 1.0, yd, y, dyd, dy, xd, x, 0.0, dxd, dx, ws)

    cases = [
        (lambda: bwd(lrn=_lrn(WITHIN, 3, k=0.0)), "lrnDesc has lrnK = 0"),
        (lambda: bwd(lrn=None), "lrnDesc is null"),
        (lambda: bwd(yd=None), "yDesc is null"),
        (lambda: bwd(dyd=None), "dyDesc is null"),
        (lambda: bwd(xd=None), "xDesc is null"),
        (lambda: bwd(dxd=None), "dxDesc is null"),
        (lambda: bwd(dyd=desc((2, 3, 5, 4))), "yDesc and dyDesc have different lengths"),
        (lambda: bwd(xd=desc((2, 3, 5, 4))), "yDesc and xDesc have different lengths"),
        (lambda: bwd(dxd=desc((2, 3, 5, 4))), "yDesc and dxDesc have different lengths"),
        (lambda: bwd(yd=desc((1, 2, 60)), dyd=desc((1, 2, 60)), xd=desc((1, 2, 60)),
                     dxd=desc((1, 2, 60))), "yDesc has 3 dims; expected 4"),
        (lambda: bwd(xd=desc(shape, dtype=mi.miopenHalf), x=x.astype(np.float16)),
         "yDesc is miopenFloat but xDesc is miopenHalf"),
        (lambda: bwd(y=None), "y is a null pointer"),
        (lambda: bwd(dy=None), "dy is a null pointer"),
        (lambda: bwd(x=None), "x is a null pointer"),
        (lambda: bwd(ws=np.zeros(3, np.float32)), "workSpace: the buffer has 12 bytes"),
    ]
    for call, words in cases:
        with pytest.raises(mi.BadParmError, match=words):
            call()
        assert np.all(np.isnan(dx)), words
    with pytest.raises(mi.BadParmError, match="dx is a null pointer"):
        bwd(dx=None)


def test_docstrings_name_the_c_function():
    for name in ("createLRNDescriptor", "setLRNDescriptor", "getLRNDescriptor",
                 "LRNGetWorkSpaceSize", "LRNForward", "LRNBackward", "destroyLRNDescriptor"):
        doc = getattr(mi, name).__doc__.strip().splitlines()
        c_name = "miopen" + (name if name.startswith("LRN") else name[0].upper() + name[1:])
        assert doc[-1].strip().endswith("C: " + c_name), name


# ---- cross-channel windows of 3 to 11 channels: the GPU's column kernels (lrn_cross_cols) --------

# ---- storage types (fp32, fp16, bf16) x layouts --------------------------------------------------
# Both modes in every type and layout on both devices against the float64 reference on the stored
# inputs: one rounding of an fp32 result (1 unit of the 16-bit types forward; the backward reads
# the rounded y and, with the workspace, the scale rounded to the type as MIOpen stores it).

TYPED_LRN = [
    (CROSS, 5, 0.75, (2, 8, 5, 6)),     # the column kernel on the GPU
    (CROSS, 3, 0.6, (1, 13, 4, 4)),     # general beta, C past the kernel's chunk
    (CROSS, 4, 0.75, (2, 6, 3, 5)),     # even N: the per-element kernel
    (WITHIN, 3, 0.75, (2, 3, 7, 6)),
    (WITHIN, 2, 0.5, (1, 2, 5, 9)),
]


def _typed_lrn_id(p):
    mode, n, beta, shape = p
    return f"{'cross' if mode == CROSS else 'within'}-n{n}-b{beta}-" + _shape_id(shape)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("problem", TYPED_LRN, ids=_typed_lrn_id)
def test_typed_forward_and_backward(handle, rng, problem, dt, layout):
    mode, n, beta, shape = problem
    lrn = _lrn(mode, n, beta=beta)
    x = random_stored(shape, dt, rng)
    dy = random_stored(shape, dt, rng)
    fp32 = dt == mi.miopenFloat
    xp, yp = Placed(handle, x, dt, layout), Placed(handle, poison(shape, dt), dt, layout)
    size = mi.LRNGetWorkSpaceSize(yp.desc)
    assert size == int(np.prod(shape)) * np_dtype(dt).itemsize
    ws = mi.DeviceBuffer(handle, size)
    mi.LRNForward(handle, lrn, 1.0, xp.desc, xp.buf, 0.0, yp.desc, yp.buf, True, ws)
    y_ref, s_ref = ref.forward(as64(x), mode, n, ALPHA, beta, K)
    check_close(yp.result(), y_ref, dt, ulps=64 if fp32 else 1, err_msg="y")
    check_close(ws.to_numpy(shape, np_dtype(dt)), s_ref, dt, ulps=64 if fp32 else 1,
                err_msg="scale")
    assert xp.gaps_untouched() and yp.gaps_untouched()
    dx_ref = ref.backward(as64(x), as64(dy), mode, n, ALPHA, beta, K)
    dyp = Placed(handle, dy, dt, layout)
    for workspace in (ws, None):
        dxp = Placed(handle, poison(shape, dt), dt, layout)
        mi.LRNBackward(handle, lrn, 1.0, yp.desc, yp.buf, dyp.desc, dyp.buf, xp.desc, xp.buf, 0.0,
                       dxp.desc, dxp.buf, workspace)
        check_close(dxp.result(), dx_ref, dt, ulps=64 if fp32 else 4,
                    err_msg=f"dx, workspace={workspace is not None}")
        assert dxp.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES[1:])
@pytest.mark.parametrize("mode", [CROSS, WITHIN], ids=["cross", "within"])
def test_typed_alpha_beta_blend(handle, rng, mode, dt):
    shape = (2, 9, 4, 5)
    x, y0 = random_stored(shape, dt, rng), random_stored(shape, dt, rng)
    xp, yp = Placed(handle, x, dt, "nhwc"), Placed(handle, y0, dt, "nhwc")
    mi.LRNForward(handle, _lrn(mode, 5), 2.0, xp.desc, xp.buf, -0.5, yp.desc, yp.buf, False, None)
    expect = 2.0 * ref.forward(as64(x), mode, 5, ALPHA, 0.75, K)[0] - 0.5 * as64(y0)
    check_close(yp.result(), expect, dt, ulps=1)


def test_typed_bad_types_and_layouts_leave_outputs_untouched(handle, rng):
    shape = (2, 4, 3, 5)
    h16, b16 = mi.miopenHalf, mi.miopenBFloat16
    lrn = _lrn(CROSS, 3)
    x = Placed(handle, random_stored(shape, h16, rng), h16, "nhwc")
    cases = [
        (x.desc, Placed(handle, poison(shape, b16), b16, "nhwc"),
         "xDesc is miopenHalf but yDesc is miopenBFloat16"),
        (desc(shape, None, mi.miopenInt8), Placed(handle, np.zeros(shape, np.int8), mi.miopenInt8,
                                                  "nchw"), "yDesc has data type miopenInt8"),
        # an NDHWC tensor: LRN is 4-d only
        (desc((2, 4, 1, 3, 5), None, h16), Placed(handle, poison((2, 4, 1, 3, 5), h16), h16, "nhwc"),
         "xDesc has 5 dims; expected 4"),
    ]
    for xd, yp, words in cases:
        before = yp.result()
        with pytest.raises(mi.BadParmError, match=words):
            mi.LRNForward(handle, lrn, 1.0, xd, x.buf, 0.0, yp.desc, yp.buf, False, None)
        assert np.array_equal(yp.result().view(np.uint8), before.view(np.uint8)), words
    y = Placed(handle, random_stored(shape, h16, rng), h16, "nhwc")
    dx = Placed(handle, poison(shape, b16), b16, "nhwc")
    with pytest.raises(mi.BadParmError, match="yDesc is miopenHalf but dxDesc is miopenBFloat16"):
        mi.LRNBackward(handle, lrn, 1.0, y.desc, y.buf, y.desc, y.buf, x.desc, x.buf, 0.0, dx.desc,
                       dx.buf, None)
    assert np.all(np.isnan(as64(dx.result())))


# Cross-channel LRN with windows of 3 to 11 channels (the column kernels of the GPU,
# lrn_cross_cols): channel counts below, at and past the kernel's chunk of 8 and the window,
# every s^-beta form, the workspace saved and recomputed, against PyTorch's local_response_norm in
# float64 (autograd for the gradient); outputs NaN-poisoned; two runs give the same bits.

def _cols_lrn(n, beta=0.75, alpha=ALPHA, k=K):
    d = mi.LRNDescriptor()
    mi.setLRNDescriptor(d, CROSS, n, alpha, beta, k)
    return d


def _torch(x, dy, n, beta, alpha=ALPHA, k=K):
    xt = torch.from_numpy(x.astype(np.float64)).requires_grad_(True)
    y = torch.nn.functional.local_response_norm(xt, n, alpha, beta, k)
    y.backward(torch.from_numpy(dy.astype(np.float64)))
    return y.detach().numpy(), xt.grad.numpy()


def _scale_ref(x, n, alpha=ALPHA, k=K):
    sq = np.pad(x.astype(np.float64) ** 2, ((0, 0), ((n - 1) // 2, n // 2), (0, 0), (0, 0)))
    c = x.shape[1]
    return k + alpha / n * sum(sq[:, j:j + c] for j in range(n))


@pytest.mark.parametrize("c", [1, 2, 4, 8, 9, 13, 16, 17, 30])
@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_cross_columns_forward_and_backward(handle, rng, c, n):
    shape = (2, c, 5, 7)
    beta = [0.75, 0.5, 1.0, 0.6][(c + n) % 4]
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _cols_lrn(n, beta)
    y, ws = poisoned(shape), poisoned(shape)
    mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
    y_ref, dx_ref = _torch(x, dy, n, beta)
    assert rel_l2(y, y_ref) <= TOL
    assert rel_l2(ws, _scale_ref(x, n)) <= TOL
    for workspace in (ws, None):
        dx = poisoned(shape)
        mi.LRNBackward(handle, lrn, 1.0, desc(shape), y, desc(shape), dy, desc(shape), x, 0.0,
                       desc(shape), dx, workspace)
        assert rel_l2(dx, dx_ref) <= TOL


@pytest.mark.parametrize("n", [3, 5, 11])
def test_cross_columns_strided_and_blended(handle, rng, n):
    shape = (3, 12, 6, 5)
    x = Strided(shape, rng, pad=(0, 1, 2, 3))
    dy = Strided(shape, rng, pad=(1, 0, 0, 1))
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = Strided(shape, pad=(0, 2, 1, 0), fill=y0)
    y_ref, dx_ref = _torch(x.view, dy.view, n, 0.75)
    mi.LRNForward(handle, _cols_lrn(n), 2.0, x.desc(), x.buf, 0.5, y.desc(), y.buf, False, None)
    assert rel_l2(y.view, 2.0 * y_ref + 0.5 * y0) <= TOL
    assert x.gaps_untouched() and y.gaps_untouched()
    yf = y_ref.astype(np.float32)
    dx0 = rng.standard_normal(shape).astype(np.float32)
    dx = Strided(shape, pad=(1, 1, 0, 2), fill=dx0)
    mi.LRNBackward(handle, _cols_lrn(n), -1.5, desc(shape), yf, dy.desc(), dy.buf, x.desc(), x.buf,
                   0.25, dx.desc(), dx.buf, None)
    assert rel_l2(dx.view, -1.5 * dx_ref + 0.25 * dx0) <= TOL
    assert dx.gaps_untouched()


def test_cross_columns_same_bits_every_run(handle, rng):
    shape = (8, 96, 27, 27)
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _cols_lrn(5, 0.75, 1e-4, 2.0)
    runs = []
    for _ in range(2):
        y, ws, dx = poisoned(shape), poisoned(shape), poisoned(shape)
        mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
        mi.LRNBackward(handle, lrn, 1.0, desc(shape), y, desc(shape), dy, desc(shape), x, 0.0,
                       desc(shape), dx, ws)
        runs.append((y, ws, dx))
    for a, b in zip(*runs):
        assert np.array_equal(a, b)
    y_ref, dx_ref = _torch(x, dy, 5, 0.75, 1e-4, 2.0)
    assert rel_l2(runs[0][0], y_ref) <= TOL and rel_l2(runs[0][2], dx_ref) <= TOL
