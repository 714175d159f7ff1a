"""Activation: the descriptor, miopenActivationForward and miopenActivationBackward against
PyTorch's CPU operators in float64 (autograd for the derivatives), and against the float64 NumPy
reference (tests/reference/activation.py) for MIOpen's conventions at the kinks and for POWER's
zero base. On the GPU, the packed element-wise kernel (MapPacked) under forward and backward:
against PyTorch in float64 and against the general engine (x with gaps between rows; within 2 ulp:
the same functors, compiled into another kernel), numel not a multiple of 4, unaligned operands
(the general engine). Every case runs in fp32, fp16 and bf16 (MIOpen refuses bf16 activation; we
run it): inputs stored in the type, the oracle in float64 on the stored values, fp32 within
rel_l2 1e-6 as before, fp16/bf16 within 1 ulp of the type (fp32 arithmetic, one rounding)."""
import gc

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from miopen_cy.reference import activation as ref
from support.buffers import Strided, desc, max_ulp, poisoned, rel_l2
from support.devices import requires_gpu, requires_torch_cuda
from support.dtypes import (FLOAT_TYPES, HALF_TYPES, as64, check_close, np_dtype, poison,
                            round_to)

M = mi.ActivationMode

# (mode, activAlpha, activBeta, activGamma): every mode, with parameters that are not defaults
# (modes that ignore some parameters get odd values for them, which must change nothing).
CASES = [
    (M.miopenActivationPASTHRU, 0.3, -2.0, 1.5),
    (M.miopenActivationLOGISTIC, 0.3, -2.0, 1.5),
    (M.miopenActivationTANH, 0.7, 1.3, 0.0),
    (M.miopenActivationTANH, -1.6, 0.45, 2.0),
    (M.miopenActivationRELU, 0.3, 2.0, 1.5),
    (M.miopenActivationSOFTRELU, 0.3, 2.0, 1.5),
    (M.miopenActivationABS, 0.3, 2.0, 1.5),
    (M.miopenActivationPOWER, 3.5, 0.5, 2.5),      # base in (0.5, 6.5) for |x| < 6
    (M.miopenActivationPOWER, 0.5, -1.5, 3.0),     # integer gamma: negative bases are fine
    (M.miopenActivationPOWER, 7.0, 0.75, -1.25),   # negative gamma, positive base
    (M.miopenActivationCLIPPEDRELU, 1.2, 5.0, 7.0),
    (M.miopenActivationLEAKYRELU, 0.1, 5.0, 7.0),
    (M.miopenActivationLEAKYRELU, -0.7, 5.0, 7.0),
    (M.miopenActivationELU, 0.8, 5.0, 7.0),
    (M.miopenActivationELU, 1.7, 5.0, 7.0),
]


def case_id(case):
    mode, a, b, g = case
    return f"{mode.name[len('miopenActivation'):]}-a{a}-b{b}-g{g}"


def activation(mode, a=0.0, b=0.0, g=0.0):
    d = mi.ActivationDescriptor()
    mi.setActivationDescriptor(d, mode, a, b, g)
    return d


def torch_f(mode, a, b, g, t):
    """The activation by PyTorch's own operators."""
    if mode == M.miopenActivationPASTHRU:
        return t.clone()
    if mode == M.miopenActivationLOGISTIC:
        return torch.sigmoid(t)
    if mode == M.miopenActivationTANH:
        return b * torch.tanh(a * t)
    if mode == M.miopenActivationRELU:
        return torch.relu(t)
    if mode == M.miopenActivationSOFTRELU:
        return F.softplus(t)
    if mode == M.miopenActivationABS:
        return torch.abs(t)
    if mode == M.miopenActivationPOWER:
        return torch.pow(a + b * t, g)
    if mode == M.miopenActivationCLIPPEDRELU:
        return F.hardtanh(t, 0.0, a)
    if mode == M.miopenActivationLEAKYRELU:
        return F.leaky_relu(t, a)
    if mode == M.miopenActivationELU:
        return F.elu(t, a)
    raise ValueError(mode)


def torch_fwd_bwd(case, x, dy):
    """(f(x), f'(x) * dy) in float64 by PyTorch autograd."""
    mode, a, b, g = case
    t = torch.tensor(np.asarray(x, np.float64), requires_grad=True)
    y = torch_f(mode, a, b, g, t)
    y.backward(torch.tensor(np.asarray(dy, np.float64)))
    return y.detach().numpy(), t.grad.numpy()


def inputs(case, rng, shape):
    """x for a case: spread over the interesting range, away from the kinks' exact points."""
    mode, a, b, g = case
    if mode == M.miopenActivationPOWER:
        return rng.uniform(-5.5, 5.5, shape).astype(np.float32)
    return (3.0 * rng.standard_normal(shape)).astype(np.float32)


# ---- the descriptor ------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_descriptor_set_get_round_trip(case):
    d = mi.createActivationDescriptor()
    assert repr(d) == "ActivationDescriptor(unset)" and d.mode is None
    mi.setActivationDescriptor(d, *case)
    got = mi.getActivationDescriptor(d)
    assert got == case and isinstance(got[0], mi.ActivationMode)
    assert (d.mode, d.activAlpha, d.activBeta, d.activGamma) == case
    assert repr(d) == (f"ActivationDescriptor({case[0].name}, activAlpha={case[1]!r}, "
                       f"activBeta={case[2]!r}, activGamma={case[3]!r})")


def test_descriptor_keeps_doubles_exactly_and_accepts_plain_ints():
    d = activation(8, 0.1, 1e-300, -7)
    assert mi.getActivationDescriptor(d) == (M.miopenActivationLEAKYRELU, 0.1, 1e-300, -7.0)


@pytest.mark.parametrize("args,exc,word", [
    ((10, 1.0, 1.0, 1.0), mi.BadParmError, "mode = 10 is not a miopenActivationMode_t"),
    ((-1, 1.0, 1.0, 1.0), mi.BadParmError, "mode = -1"),
    ((M.miopenActivationELU, float("nan"), 1.0, 1.0), mi.BadParmError, "activAlpha = nan"),
    ((M.miopenActivationTANH, 1.0, float("-inf"), 1.0), mi.BadParmError, "activBeta = -inf"),
    ((M.miopenActivationPOWER, 1.0, 1.0, float("inf")), mi.BadParmError, "activGamma = inf"),
    ((M.miopenActivationELU, "one", 1.0, 1.0), TypeError, "activAlpha must be a float"),
    (("RELU", 1.0, 1.0, 1.0), TypeError, "mode must be an int"),
])
def test_descriptor_set_rejects_bad_values_and_keeps_the_old_state(args, exc, word):
    d = activation(M.miopenActivationCLIPPEDRELU, 6.0, 0.0, 0.0)
    with pytest.raises(exc, match=word):
        mi.setActivationDescriptor(d, *args)
    assert mi.getActivationDescriptor(d) == (M.miopenActivationCLIPPEDRELU, 6.0, 0.0, 0.0)


def test_descriptor_unset_destroyed_and_null():
    d = mi.ActivationDescriptor()
    with pytest.raises(mi.BadParmError, match="activDesc has not been set"):
        mi.getActivationDescriptor(d)
    with pytest.raises(mi.BadParmError, match="activDesc is null"):
        mi.getActivationDescriptor(None)
    with pytest.raises(mi.BadParmError, match="activDesc is null"):
        mi.setActivationDescriptor(None, M.miopenActivationRELU, 0, 0, 0)
    mi.setActivationDescriptor(d, M.miopenActivationRELU, 0, 0, 0)
    mi.destroyActivationDescriptor(d)
    assert repr(d) == "ActivationDescriptor(destroyed)" and d.mode is None
    for call in (lambda: mi.getActivationDescriptor(d),
                 lambda: mi.setActivationDescriptor(d, M.miopenActivationRELU, 0, 0, 0),
                 lambda: mi.destroyActivationDescriptor(d)):
        with pytest.raises(ValueError, match="activDesc has been destroyed"):
            call()


def test_descriptor_lifecycle_under_gc():
    for _ in range(200):
        activation(M.miopenActivationTANH, 1.0, 1.0, 0.0)
    gc.collect()
    d = activation(M.miopenActivationTANH, 2.0, 3.0, 0.0)
    assert d.activBeta == 3.0


def test_logging_prints_the_descriptor(handle, monkeypatch, capfd):
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING", "1")
    d = activation(M.miopenActivationTANH, 0.5, 2.0, 0.0)
    x = np.ones(6, np.float32)
    mi.activationForward(handle, d, 1.0, desc((6,)), x, 0.0, desc((6,)), x)
    err = capfd.readouterr().err
    assert "miopenSetActivationDescriptor(" in err
    assert "miopenActivationForward(" in err
    assert "{miopenActivationTANH, activAlpha=0.5, activBeta=2, activGamma=0}" in err


# ---- forward and backward against PyTorch --------------------------------------------------

def check_typed(actual, expected, dt, err_msg=""):
    """fp32: relative L2 1e-6 (as the fp32 tests always were); fp16/bf16: 1 ulp of the type."""
    if int(dt) == int(mi.miopenFloat):
        assert rel_l2(actual, expected) <= 1e-6, err_msg
    else:
        check_close(actual, expected, dt, ulps=1, err_msg=err_msg)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_forward_matches_torch(handle, rng, case, dt):
    shape = (2, 3, 5, 7)
    x = round_to(inputs(case, rng, shape), dt)
    y = poison(shape, dt)
    mi.activationForward(handle, activation(*case), 1.0, desc(shape, dtype=dt), x, 0.0,
                         desc(shape, dtype=dt), y)
    expect, _ = torch_fwd_bwd(case, as64(x), np.ones(shape))
    check_typed(y, expect, dt)
    check_typed(y, ref.forward(*case, as64(x)), dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_backward_matches_torch_autograd(handle, rng, case, dt):
    shape = (3, 4, 6, 5)
    x = round_to(inputs(case, rng, shape), dt)
    dy = round_to(rng.standard_normal(shape), dt)
    y = poison(shape, dt)         # derivatives come from x: y is checked but never read
    dx = poison(shape, dt)
    d = desc(shape, dtype=dt)
    mi.activationBackward(handle, activation(*case), 1.0, d, y, d, dy, d, x, 0.0, d, dx)
    _, expect = torch_fwd_bwd(case, as64(x), as64(dy))
    check_typed(dx, expect, dt)
    check_typed(dx, ref.backward(*case, as64(x), as64(dy)), dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_forward_blends_and_keeps_strided_gaps(handle, rng, case, dt):
    shape = (2, 3, 4, 9)
    npt = np_dtype(dt)
    x = Strided(shape, pad=(1, 0, 2, 5), fill=round_to(inputs(case, rng, shape), dt), dtype=npt)
    y = Strided(shape, rng, pad=(0, 2, 1, 3), dtype=npt)
    before = as64(y.view)
    mi.activationForward(handle, activation(*case), 1.5, x.desc(dt), x.buf, -0.75, y.desc(dt),
                         y.buf)
    expect, _ = torch_fwd_bwd(case, as64(x.view), np.ones(shape))
    check_typed(y.view, 1.5 * expect - 0.75 * before, dt)
    assert y.gaps_untouched() and x.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_backward_blends_and_keeps_strided_gaps(handle, rng, case, dt):
    shape = (3, 2, 5, 4)
    npt = np_dtype(dt)
    x = Strided(shape, pad=(0, 1, 0, 2), fill=round_to(inputs(case, rng, shape), dt), dtype=npt)
    dy = Strided(shape, rng, pad=(1, 0, 3, 1), dtype=npt)
    y = Strided(shape, pad=(0, 0, 1, 0), fill=0.0, dtype=npt)
    dx = Strided(shape, rng, pad=(2, 1, 0, 4), dtype=npt)
    before = as64(dx.view)
    mi.activationBackward(handle, activation(*case), -0.5, y.desc(dt), y.buf, dy.desc(dt), dy.buf,
                          x.desc(dt), x.buf, 0.25, dx.desc(dt), dx.buf)
    _, expect = torch_fwd_bwd(case, as64(x.view), as64(dy.view))
    check_typed(dx.view, -0.5 * expect + 0.25 * before, dt)
    assert dx.gaps_untouched() and dy.gaps_untouched() and x.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("case", CASES[::3], ids=case_id)
def test_typed_in_place_and_large_rows(handle, rng, case, dt):
    # in place (x == y, dy == dx), and a tensor long enough for the threaded rows and the blocks
    shape = (3, 70001)
    x = round_to(inputs(case, rng, shape), dt)
    dy = round_to(rng.standard_normal(shape), dt)
    expect_y, expect_dx = torch_fwd_bwd(case, as64(x), as64(dy))
    d = desc(shape, dtype=dt)
    buf = x.copy()
    mi.activationForward(handle, activation(*case), 1.0, d, buf, 0.0, d, buf)
    check_typed(buf, expect_y, dt)
    buf = dy.copy()
    mi.activationBackward(handle, activation(*case), 1.0, d, x, d, buf, d, x, 0.0, d, buf)
    check_typed(buf, expect_dx, dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("beta", [0.0, -0.75])
def test_forward_packed_blend_and_tail(handle, rng, case, dt, beta):
    # packed x and y: on the GPU the 16-bit types take ActivationPacked (four 16-byte vectors a
    # thread, the fast fp32 forms of logistic / tanh / elu), several blocks, the last one partial,
    # and a tail of numel % 8 elements; within 1 ulp of the type like every path
    shape = (5, 2063)
    x = round_to(inputs(case, rng, shape), dt)
    y = round_to(rng.standard_normal(shape), dt) if beta else poison(shape, dt)
    before = as64(y)
    d = desc(shape, dtype=dt)
    mi.activationForward(handle, activation(*case), 1.5, d, x, beta, d, y)
    expect, _ = torch_fwd_bwd(case, as64(x), np.ones(shape))
    check_typed(y, 1.5 * expect + (beta * before if beta else 0.0), dt)


def test_beta_zero_never_reads_the_output(handle, rng):
    # NaN in y / dx must not leak when beta == 0, on the packed and on the strided path.
    case = (M.miopenActivationTANH, 0.7, 1.3, 0.0)
    shape = (4, 3, 8)
    x = inputs(case, rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    for strided in (False, True):
        y = Strided(shape, pad=(0, 0, 1 if strided else 0))       # all NaN, gaps included
        mi.activationForward(handle, activation(*case), 2.0, desc(shape), x, 0.0, y.desc(), y.buf)
        assert rel_l2(y.view, 2.0 * torch_fwd_bwd(case, x, dy)[0]) <= 1e-6
        dx = Strided(shape, pad=(0, 0, 1 if strided else 0))
        mi.activationBackward(handle, activation(*case), 2.0, desc(shape), x, desc(shape), dy,
                              desc(shape), x, 0.0, dx.desc(), dx.buf)
        assert rel_l2(dx.view, 2.0 * torch_fwd_bwd(case, x, dy)[1]) <= 1e-6


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_forward_in_place(handle, rng, case):
    shape = (5, 4, 33)
    x = inputs(case, rng, shape)
    buf = x.copy()
    mi.activationForward(handle, activation(*case), 1.0, desc(shape), buf, 0.0, desc(shape), buf)
    assert rel_l2(buf, torch_fwd_bwd(case, x, np.ones(shape))[0]) <= 1e-6
    # strided in place: same buffer, same strides
    s = Strided(shape, pad=(0, 1, 3), fill=x)
    mi.activationForward(handle, activation(*case), 1.0, s.desc(), s.buf, 0.0, s.desc(), s.buf)
    assert rel_l2(s.view, torch_fwd_bwd(case, x, np.ones(shape))[0]) <= 1e-6
    assert s.gaps_untouched()


@pytest.mark.parametrize("case", CASES[1::2], ids=case_id)
def test_backward_in_place_over_dy_and_over_x(handle, rng, case):
    shape = (3, 50)
    x = inputs(case, rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    _, expect = torch_fwd_bwd(case, x, dy)
    buf = dy.copy()
    mi.activationBackward(handle, activation(*case), 1.0, desc(shape), x, desc(shape), buf,
                          desc(shape), x, 0.0, desc(shape), buf)
    assert rel_l2(buf, expect) <= 1e-6
    buf = x.copy()
    mi.activationBackward(handle, activation(*case), 1.0, desc(shape), x, desc(shape), dy,
                          desc(shape), buf, 0.0, desc(shape), buf)
    assert rel_l2(buf, expect) <= 1e-6


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(1, 7), min_size=1, max_size=5), data=st.data())
def test_hypothesis_shapes_and_layouts(shape, data):
    """Random shapes, each tensor in its own random dimension order, random alpha/beta."""
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(len(shape) * 31 + sum(shape))
    case = data.draw(st.sampled_from(CASES), label="case")
    alpha = data.draw(st.sampled_from([1.0, -0.5, 2.0]), label="alpha")
    beta = data.draw(st.sampled_from([0.0, 1.0, -0.25]), label="beta")

    def laid_out(values):
        """(buffer, descriptor, logical view) of `values` stored in a random dimension order."""
        perm = data.draw(st.permutations(range(len(shape))), label="perm")
        buf = np.transpose(values, perm).copy()     # always a fresh C-contiguous copy
        view = np.transpose(buf, np.argsort(perm))
        return buf, desc(shape, [s // 4 for s in view.strides]), view

    x = inputs(case, rng, shape)
    dy = rng.standard_normal(shape).astype(np.float32)
    out0 = rng.standard_normal(shape).astype(np.float32) if beta else np.full(shape, np.nan, np.float32)
    fwd, grad = torch_fwd_bwd(case, x, dy)
    act = activation(*case)
    base = out0.astype(np.float64) if beta else 0.0

    xb, xd, _ = laid_out(x)
    yb, yd, yv = laid_out(out0)
    mi.activationForward(handle, act, alpha, xd, xb, beta, yd, yb)
    assert rel_l2(yv, alpha * fwd + beta * base) <= 1e-5

    dyb, dyd, _ = laid_out(dy)
    dxb, dxd, dxv = laid_out(out0)
    mi.activationBackward(handle, act, alpha, yd, yb, dyd, dyb, xd, xb, beta, dxd, dxb)
    assert rel_l2(dxv, alpha * grad + beta * base) <= 1e-5


def test_large_tensor_runs_threaded_and_matches(handle, rng):
    # Big enough for the OpenMP path (and its chunking of one long row).
    shape = (3, 64, 41, 43)
    for case in [CASES[2], CASES[4], CASES[13]]:
        x = inputs(case, rng, shape)
        dy = rng.standard_normal(shape).astype(np.float32)
        y, dx = poisoned(shape), poisoned(shape)
        act = activation(*case)
        mi.activationForward(handle, act, 1.0, desc(shape), x, 0.0, desc(shape), y)
        mi.activationBackward(handle, act, 1.0, desc(shape), y, desc(shape), dy, desc(shape), x,
                              0.0, desc(shape), dx)
        fwd, grad = torch_fwd_bwd(case, x, dy)
        assert rel_l2(y, fwd) <= 1e-6 and rel_l2(dx, grad) <= 1e-6


def test_streaming_stores_on_large_memory_bound_tensors(handle, rng):
    """Outputs over the streaming threshold (48 MiB touched) take the non-temporal-store path:
    misaligned start, odd length, exact results, nothing written outside."""
    n = 6_300_001
    x = rng.standard_normal(n, dtype=np.float32)
    dy = rng.standard_normal(n, dtype=np.float32)
    d = desc((n,))
    full = np.full(n + 2, np.nan, np.float32)
    y = full[1:-1]                                   # 4 bytes past a 64-byte boundary
    mi.activationForward(handle, activation(M.miopenActivationRELU), 1.0, d, x, 0.0, d, y)
    assert np.array_equal(y, np.where(x < 0, np.float32(0), x))
    assert np.isnan(full[0]) and np.isnan(full[-1])
    full[:] = np.nan
    mi.activationBackward(handle, activation(M.miopenActivationLEAKYRELU, 0.25), 1.0, d, x, d,
                          dy, d, x, 0.0, d, y)
    assert np.array_equal(y, np.where(x > 0, dy, np.float32(0.25) * dy))
    assert np.isnan(full[0]) and np.isnan(full[-1])
    # in place over x, with alpha
    buf = x.copy()
    mi.activationForward(handle, activation(M.miopenActivationCLIPPEDRELU, 1.0), 2.0, d, buf,
                         0.0, d, buf)
    assert np.array_equal(buf, np.float32(2) * np.clip(x, 0, 1))


# ---- numerics: large |x|, kinks, POWER's base, NaN ----------------------------------------

BIG = np.array([-np.inf, -1e30, -1e4, -500.0, -103.0, -87.0, -80.0, -40.0, -17.0, -9.5, -1e-3,
                1e-3, 9.5, 17.0, 40.0, 80.0, 87.0, 103.0, 500.0, 1e4, 1e30, np.inf], np.float32)


def forward_backward(handle, case, x, dy):
    """y and dx of activation `case` for fp32 vectors x and dy, both written over poison."""
    y, dx = poisoned(x.shape), poisoned(x.shape)
    act = activation(*case)
    d = desc(x.shape)
    mi.activationForward(handle, act, 1.0, d, x, 0.0, d, y)
    mi.activationBackward(handle, act, 1.0, d, y, d, dy, d, x, 0.0, d, dx)
    return y, dx


def test_elu_elementwise_accuracy_on_both_sides_of_the_expm1_switch(handle):
    """The CPU's e^x - 1 is a polynomial for |x| < 0.5 and Exp(x) - 1 beyond (cpu/vector_math.hpp):
    every value of a dense sweep across the switch within 1e-6 of the float64 reference."""
    case = (M.miopenActivationELU, 1.3, 0.0, 0.0)
    x = np.concatenate([np.linspace(-4.0, 1.0, 50001), np.float32(0.5) * (1 + np.arange(-64, 65) * 2.0 ** -23),
                        -np.float32(0.5) * (1 + np.arange(-64, 65) * 2.0 ** -23)]).astype(np.float32)
    dy = np.full(x.shape, 0.75, np.float32)
    y, dx = forward_backward(handle, case, x, dy)
    np.testing.assert_allclose(y, ref.forward(*case, x), rtol=1e-6, atol=1e-30)
    np.testing.assert_allclose(dx, ref.backward(*case, x, dy), rtol=1e-6, atol=1e-30)


@pytest.mark.parametrize("case", [
    (M.miopenActivationLOGISTIC, 0.0, 0.0, 0.0),
    (M.miopenActivationSOFTRELU, 0.0, 0.0, 0.0),
    (M.miopenActivationTANH, 1.0, 1.0, 0.0),
    (M.miopenActivationTANH, 0.5, -3.0, 0.0),
    (M.miopenActivationELU, 1.3, 0.0, 0.0),
], ids=case_id)
def test_large_inputs_are_stable_and_accurate_elementwise(handle, case):
    """No overflow for large |x|, and full relative accuracy far out in the tails (SOFTRELU and
    LOGISTIC near e^x for very negative x), value by value, not only in the L2 sense."""
    x = BIG
    dy = np.full(x.shape, 0.75, np.float32)
    y, dx = forward_backward(handle, case, x, dy)
    for got, expect in ((y, ref.forward(*case, x)), (dx, ref.backward(*case, x, dy))):
        assert not np.any(np.isnan(got)), got
        normal = np.abs(expect) >= np.finfo(np.float32).tiny          # comparable in float32
        np.testing.assert_allclose(got[normal], expect[normal], rtol=2e-6, atol=0)
        np.testing.assert_allclose(got[~normal], expect[~normal], rtol=0, atol=1e-38)
    # torch agrees on the values for finite x, and on the derivatives for moderate |x| (further
    # out its s(1 - s) and 1 - tanh^2 cancel to 0 while the true derivative is still a normal
    # float32: the reference above, written without cancellation, is the oracle there).
    finite = np.abs(x) < 1e30
    fwd, grad = torch_fwd_bwd(case, x[finite], dy[finite])
    np.testing.assert_allclose(y[finite], fwd, rtol=2e-6, atol=1e-38)
    moderate = np.abs(x[finite]) <= 10
    np.testing.assert_allclose(dx[finite][moderate], grad[moderate], rtol=2e-6, atol=1e-38)


# The 16-bit forms of the GPU: the forward of logistic / tanh / elu takes fast fp32 forms (on
# NVIDIA tanh and elu the flush-to-zero exponential and reciprocal), the backward of the three the
# fast exponential and reciprocal with denormals kept. Value by value, on every device: NaN and
# the infinities as in fp32, saturation far out, the Taylor forms and the exponential forms on
# both sides of |u| = 1/16, tiny and denormal inputs, and results far out in the tails (bf16
# reaches fp32's range: logistic(-90) and tanh's derivative at |u| = 45 are bf16 denormals): within
# 1 ulp of the type down to its smallest normal, within the smallest normal below it (the fp32
# tests' convention: the CPU's vector exponential flushes fp32 denormals, logistic(-90) = 0).
EDGE_16 = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 3e-7, -3e-7, 1e-4, -1e-4, 0.0624, -0.0624,
                    0.0626, -0.0626, 0.0893, -0.0893, 0.25, -0.5, 1.0, -1.0, 3.0, -3.0, 9.0, -9.0,
                    17.0, -17.0, 40.0, -40.0, 64.0, -64.0, 90.0, -90.0, 120.0, -120.0, 1e4, -1e4])


@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("case", [
    (M.miopenActivationLOGISTIC, 0.0, 0.0, 0.0),
    (M.miopenActivationTANH, 1.0, 1.0, 0.0),
    (M.miopenActivationTANH, 0.7, -1.3, 0.0),
    (M.miopenActivationELU, 1.0, 0.0, 0.0),
    (M.miopenActivationELU, 0.3, 0.0, 0.0),
], ids=case_id)
def test_16_bit_fast_forms_at_edge_values(handle, case, dt):
    x = round_to(np.tile(EDGE_16, 3), dt)          # 105 elements: packed vectors and a tail
    dy = round_to(np.full(x.shape, 0.75), dt)
    d = desc(x.shape, dtype=dt)
    y, dx = poison(x.shape, dt), poison(x.shape, dt)
    act = activation(*case)
    mi.activationForward(handle, act, 1.0, d, x, 0.0, d, y)
    mi.activationBackward(handle, act, 1.0, d, y, d, dy, d, x, 0.0, d, dx)
    tiny = float(np.finfo(np.float16).tiny) if int(dt) == int(mi.miopenHalf) \
        else float(np.finfo(np.float32).tiny)
    with np.errstate(all="ignore"):
        fwd, bwd = ref.forward(*case, as64(x)), ref.backward(*case, as64(x), as64(dy))
    for got, expect, what in ((y, fwd, "y"), (dx, bwd, "dx")):
        assert np.array_equal(np.isnan(as64(got)), np.isnan(expect)), what
        normal = ~(np.abs(expect) < tiny)                       # NaN and the infinities too
        with np.errstate(invalid="ignore"):                     # inf - inf where both are inf
            check_close(got[normal], expect[normal], dt, ulps=1, floor=tiny, err_msg=what)
        assert np.all(np.abs(as64(got[~normal]) - expect[~normal]) <= tiny), what


KINKS = {
    M.miopenActivationRELU: (0.0, 0.0, 0.0, [0.0]),
    M.miopenActivationABS: (0.0, 0.0, 0.0, [0.0]),
    M.miopenActivationCLIPPEDRELU: (1.25, 0.0, 0.0, [0.0, 1.25]),
    M.miopenActivationLEAKYRELU: (0.125, 0.0, 0.0, [0.0]),
    M.miopenActivationELU: (0.5, 0.0, 0.0, [0.0]),
}


@pytest.mark.parametrize("mode", list(KINKS), ids=lambda m: m.name)
def test_kinks_near_match_torch_and_at_follow_miopen(handle, mode):
    a, b, g, points = KINKS[mode]
    case = (mode, a, b, g)
    offsets = np.array([-1e-3, -1e-5, -1e-7, 1e-7, 1e-5, 1e-3], np.float32)
    near = np.concatenate([np.float32(p) + offsets for p in points]).astype(np.float32)
    at = np.array(points + [-0.0], np.float32)
    for x, oracle in ((near, "torch"), (at, "reference")):
        dy = np.linspace(0.5, 1.5, x.size).astype(np.float32)
        y, dx = forward_backward(handle, case, x, dy)
        if oracle == "torch":
            fwd, grad = torch_fwd_bwd(case, x, dy)
        else:
            fwd, grad = ref.forward(*case, x), ref.backward(*case, x, dy)
        np.testing.assert_allclose(y, fwd, rtol=1e-6, atol=0)
        np.testing.assert_allclose(dx, grad, rtol=1e-6, atol=0)


def test_kink_conventions_spelled_out(handle):
    """MIOpen's choices at the exact kinks, written down (see activation.hpp)."""
    x = np.array([0.0], np.float32)

    def grad(case, at=x):
        dx = poisoned(at.shape)
        d = desc(at.shape)
        mi.activationBackward(handle, activation(*case), 1.0, d, at, d,
                              np.full(at.shape, 2.0, np.float32), d, at, 0.0, d, dx)
        return dx.tolist()

    assert grad((M.miopenActivationRELU, 0, 0, 0)) == [0.0]
    assert grad((M.miopenActivationLEAKYRELU, 0.25, 0, 0)) == [0.5]
    assert grad((M.miopenActivationABS, 0, 0, 0)) == [2.0]
    assert grad((M.miopenActivationELU, 0.25, 0, 0)) == [2.0]
    assert grad((M.miopenActivationCLIPPEDRELU, 3.0, 0, 0)) == [0.0]
    assert grad((M.miopenActivationCLIPPEDRELU, 3.0, 0, 0), np.array([3.0], np.float32)) == [0.0]


@pytest.mark.parametrize("gamma", [2.5, 1.0, 0.5, 0.0, -1.0, 3.0, 2.0])
def test_power_zero_and_negative_base(handle, gamma):
    """base = alpha + beta*x: zero base gives 0 whatever gamma (MIOpen's rule), a negative base
    gives pow(): signed for integer gamma, NaN otherwise. Derivatives are the true ones, with
    beta at a zero base for gamma == 1 and 0 otherwise."""
    a, b = 1.0, 0.5
    x = np.array([-2.0, -4.0, -6.0, 2.0, -1.0], np.float32)      # bases 0, -1, -2, 2, 0.5
    dy = np.array([1.5, 1.0, -0.5, 2.0, 0.25], np.float32)
    y, dx = forward_backward(handle, (M.miopenActivationPOWER, a, b, gamma), x, dy)
    assert y[0] == 0.0 and dx[0] == (b * dy[0] if gamma == 1.0 else 0.0)
    np.testing.assert_allclose(y, ref.forward(M.miopenActivationPOWER, a, b, gamma, x),
                               rtol=1e-6, equal_nan=True)
    np.testing.assert_allclose(dx, ref.backward(M.miopenActivationPOWER, a, b, gamma, x, dy),
                               rtol=1e-6, equal_nan=True)
    integer = float(gamma).is_integer()
    assert np.isnan(y[1:3]).any() != integer
    # torch agrees away from the zero base
    fwd, grad = torch_fwd_bwd((M.miopenActivationPOWER, a, b, gamma), x[1:], dy[1:])
    np.testing.assert_allclose(y[1:], fwd, rtol=1e-6, equal_nan=True)
    np.testing.assert_allclose(dx[1:], grad, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_nan_input_gives_nan_output(handle, case):
    x = np.array([np.nan, 0.5, np.nan, -0.5], np.float32)
    y = np.zeros(4, np.float32)
    mi.activationForward(handle, activation(*case), 1.0, desc((4,)), x, 0.0, desc((4,)), y)
    assert np.isnan(y[0]) and np.isnan(y[2]) and np.isfinite(y[1]) and np.isfinite(y[3])


# ---- bad calls: an error naming the parameter, and nothing written ------------------------

def _fwd_call(handle, **kw):
    shape = (2, 3, 4, 5)
    args = dict(activDesc=activation(M.miopenActivationRELU), alpha=1.0, xDesc=desc(shape),
                x=np.ones(shape, np.float32), beta=0.0, yDesc=desc(shape))
    args.update(kw)
    y = kw.get("y", poisoned(shape))
    return y, lambda: mi.activationForward(handle, args["activDesc"], args["alpha"],
                                           args["xDesc"], args["x"], args["beta"],
                                           args["yDesc"], y)


def _destroyed():
    d = activation(M.miopenActivationRELU)
    mi.destroyActivationDescriptor(d)
    return d


def _destroyed_tensor():
    d = desc((2, 3, 4, 5))
    mi.destroyTensorDescriptor(d)
    return d


FWD_BAD = [
    (dict(activDesc=None), mi.BadParmError, "activDesc is null"),
    (dict(activDesc=mi.ActivationDescriptor()), mi.BadParmError, "activDesc has not been set"),
    (dict(activDesc=_destroyed()), ValueError, "activDesc has been destroyed"),
    (dict(xDesc=None), mi.BadParmError, "xDesc is null"),
    (dict(xDesc=mi.TensorDescriptor()), mi.BadParmError, "xDesc has not been set"),
    (dict(yDesc=_destroyed_tensor()), ValueError, "yDesc has been destroyed"),
    (dict(xDesc=desc((2, 3, 4, 6)), x=np.ones(144, np.float32)), mi.BadParmError,
     "xDesc and yDesc have different lengths"),
    (dict(xDesc=desc((2, 3, 20)), x=np.ones(120, np.float32)), mi.BadParmError,
     "xDesc and yDesc have different lengths"),
    (dict(xDesc=desc((2, 3, 4, 5), dtype=mi.miopenDouble), x=np.ones(120)), mi.BadParmError,
     "xDesc is miopenDouble but yDesc is miopenFloat"),
    (dict(x=None), mi.BadParmError, "x is a null pointer"),
    (dict(x=np.ones(119, np.float32)), mi.BadParmError, "x: the buffer has 476 bytes"),
    (dict(x=np.ones(120)), mi.BadParmError, "x: array dtype 'f8'"),
    (dict(alpha=None), TypeError, "alpha must be a float"),
    (dict(beta="b"), TypeError, "beta must be a float"),
]


@pytest.mark.parametrize("kw,exc,word", FWD_BAD, ids=lambda v: v if isinstance(v, str) else None)
def test_forward_bad_inputs_raise_and_leave_y_untouched(handle, kw, exc, word):
    y, call = _fwd_call(handle, **kw)
    with pytest.raises(exc, match=word):
        call()
    assert np.all(np.isnan(y))


def test_forward_bad_output_buffers(handle):
    shape = (2, 3, 4, 5)
    y, call = _fwd_call(handle, y=None)
    with pytest.raises(mi.BadParmError, match="y is a null pointer"):
        call()
    ro = np.full(shape, np.nan, np.float32)
    ro.flags.writeable = False
    _, call = _fwd_call(handle, y=ro)
    with pytest.raises(mi.BadParmError, match="y: the array is read-only"):
        call()
    short = np.full(10, np.nan, np.float32)
    _, call = _fwd_call(handle, y=short)
    with pytest.raises(mi.BadParmError, match="y: the buffer has 40 bytes"):
        call()
    assert np.all(np.isnan(short))


def test_forward_in_place_needs_the_same_layout(handle):
    buf = np.arange(24, dtype=np.float32) - 12
    before = buf.copy()
    with pytest.raises(mi.BadParmError, match="x and y are the same buffer but xDesc and yDesc "
                                              "have different strides"):
        mi.activationForward(handle, activation(M.miopenActivationRELU), 1.0, desc((4, 6)), buf,
                             0.0, desc((4, 6), (1, 4)), buf)
    assert np.array_equal(buf, before)


@pytest.mark.parametrize("dt,npt", [(mi.miopenDouble, np.float64), (mi.miopenInt8, np.int8),
                                    (mi.miopenInt32, np.int32)], ids=["double", "int8", "int32"])
def test_types_miopen_does_not_define_are_bad_parms(handle, dt, npt):
    # activation is fp32/fp16/bf16 only: any other type is a BadParm naming the output's
    # descriptor, and nothing is written
    d = desc((2, 3), dtype=dt)
    x = np.ones((2, 3), npt)
    y = np.full((2, 3), 7, npt)
    with pytest.raises(mi.BadParmError, match=f"yDesc has data type {mi.DataType(dt).name}"):
        mi.activationForward(handle, activation(M.miopenActivationRELU), 1.0, d, x, 0.0, d, y)
    with pytest.raises(mi.BadParmError, match=f"dxDesc has data type {mi.DataType(dt).name}"):
        mi.activationBackward(handle, activation(M.miopenActivationRELU), 1.0, d, x, d, x, d, x,
                              0.0, d, y)
    assert np.all(y == 7)


@pytest.mark.parametrize("dt", FLOAT_TYPES[1:])
def test_mixed_16_bit_types_are_bad_parms(handle, dt):
    other = mi.miopenBFloat16 if int(dt) == int(mi.miopenHalf) else mi.miopenHalf
    x = np.ones((2, 3), np_dtype(dt))
    y = poison((2, 3), other)
    with pytest.raises(mi.BadParmError, match=f"xDesc is {mi.DataType(dt).name} but yDesc is"):
        mi.activationForward(handle, activation(M.miopenActivationRELU), 1.0,
                             desc((2, 3), dtype=dt), x, 0.0, desc((2, 3), dtype=other), y)
    assert np.all(np.isnan(as64(y)))


def _bwd_args(**kw):
    shape = (2, 3, 4, 5)
    args = dict(activDesc=activation(M.miopenActivationELU, 0.5), alpha=1.0, yDesc=desc(shape),
                y=np.ones(shape, np.float32), dyDesc=desc(shape), dy=np.ones(shape, np.float32),
                xDesc=desc(shape), x=np.ones(shape, np.float32), beta=0.0, dxDesc=desc(shape),
                dx=poisoned(shape))
    args.update(kw)
    return args


BWD_BAD = [
    (dict(activDesc=None), mi.BadParmError, "activDesc is null"),
    (dict(activDesc=mi.ActivationDescriptor()), mi.BadParmError, "activDesc has not been set"),
    (dict(yDesc=None), mi.BadParmError, "yDesc is null"),
    (dict(dyDesc=mi.TensorDescriptor()), mi.BadParmError, "dyDesc has not been set"),
    (dict(xDesc=_destroyed_tensor()), ValueError, "xDesc has been destroyed"),
    (dict(yDesc=desc((2, 3, 5, 4))), mi.BadParmError, "yDesc and dxDesc have different lengths"),
    (dict(dyDesc=desc((1, 3, 4, 5))), mi.BadParmError, "dyDesc and dxDesc have different lengths"),
    (dict(xDesc=desc((2, 3, 4, 5, 1))), mi.BadParmError, "xDesc and dxDesc have different lengths"),
    (dict(yDesc=desc((2, 3, 4, 5), dtype=mi.miopenDouble), y=np.ones(120)), mi.BadParmError,
     "yDesc is miopenDouble but dxDesc is miopenFloat"),
    (dict(dyDesc=desc((2, 3, 4, 5), dtype=mi.miopenHalf), dy=np.ones(120, np.float16)),
     mi.BadParmError, "dyDesc is miopenHalf but dxDesc is miopenFloat"),
    (dict(xDesc=desc((2, 3, 4, 5), dtype=mi.miopenInt32), x=np.ones(120, np.int32)),
     mi.BadParmError, "xDesc is miopenInt32 but dxDesc is miopenFloat"),
    (dict(y=None), mi.BadParmError, "y is a null pointer"),
    (dict(dy=None), mi.BadParmError, "dy is a null pointer"),
    (dict(x=None), mi.BadParmError, "x is a null pointer"),
    (dict(dy=np.ones(100, np.float32)), mi.BadParmError, "dy: the buffer has 400 bytes"),
    (dict(x=np.ones((2, 3, 4, 5))), mi.BadParmError, "x: array dtype 'f8'"),
    (dict(alpha="a"), TypeError, "alpha must be a float"),
]


@pytest.mark.parametrize("kw,exc,word", BWD_BAD, ids=lambda v: v if isinstance(v, str) else None)
def test_backward_bad_inputs_raise_and_leave_dx_untouched(handle, kw, exc, word):
    a = _bwd_args(**kw)
    with pytest.raises(exc, match=word):
        mi.activationBackward(handle, a["activDesc"], a["alpha"], a["yDesc"], a["y"], a["dyDesc"],
                              a["dy"], a["xDesc"], a["x"], a["beta"], a["dxDesc"], a["dx"])
    assert np.all(np.isnan(a["dx"]))


def test_backward_bad_output_and_aliasing(handle):
    a = _bwd_args(dx=None)
    with pytest.raises(mi.BadParmError, match="dx is a null pointer"):
        mi.activationBackward(handle, a["activDesc"], 1.0, a["yDesc"], a["y"], a["dyDesc"],
                              a["dy"], a["xDesc"], a["x"], 0.0, a["dxDesc"], None)
    shape = (4, 6)
    for alias in ("dy", "x"):
        buf = np.linspace(-1, 1, 24, dtype=np.float32)
        before = buf.copy()
        other = np.ones(24, np.float32)
        dy, x = (buf, other) if alias == "dy" else (other, buf)
        with pytest.raises(mi.BadParmError, match=f"{alias} and dx are the same buffer but "
                                                  f"{alias}Desc and dxDesc have different strides"):
            mi.activationBackward(handle, activation(M.miopenActivationTANH, 1, 1), 1.0,
                                  desc(shape), other, desc(shape), dy, desc(shape), x, 0.0,
                                  desc(shape, (1, 4)), buf)
        assert np.array_equal(buf, before)


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
