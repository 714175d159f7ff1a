"""The batch-norm training chains of the fusion API in every activation mode (BnFwdTrgActivationFused:
batch-norm training with the activation applied where y is stored; BnBwdTrgActivationFused: the
batch-norm backward with dy' = act'(bn(x)) * dy computed on the fly), on each device, in fp32, fp16
and bf16, NCHW and NHWC, spatial and per activation, at shapes that take the general kernels and
the packed fast paths (H*W and C multiples of 4), against float64 references (NumPy and PyTorch
autograd) and against the same ops run one by one; every output poisoned first."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import activation as ref_act
from miopen_cy.reference import batchnorm as ref_bn
from fusion.test_fusion import ACT, ALL_MODES, act_desc, fp32, nchw, tensor, tol
from support.buffers import desc, rel_l2
from support.dtypes import FLOAT_TYPES, as64

BN_MODES = [pytest.param(mi.miopenBNSpatial, id="spatial"),
            pytest.param(mi.miopenBNPerActivation, id="per-activation")]
# (4, 6, 5, 5): the general kernels; (8, 8, 4, 4): the packed quad paths (NCHW and NHWC) and the
# one-kernel per-activation path.
SHAPES = [pytest.param((4, 6, 5, 5), id="general"), pytest.param((8, 8, 4, 4), id="packed")]
LAYOUTS = ["NCHW", "NHWC"]


def nans(shape):
    return np.full(shape, np.nan, np.float32)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("bn_mode", BN_MODES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("act", ALL_MODES, ids=lambda m: m.name)
def test_bn_training_activation_every_mode(handle, dt, layout, bn_mode, shape, act, rng):
    xd, x = tensor(shape, dt, layout, rng)
    ps = ref_bn.param_shape(int(bn_mode), shape)
    pd = desc(ps)
    scale, bias = fp32(ps, rng, 0.5, 1.5), fp32(ps, rng)
    rm0, rv0 = fp32(ps, rng), fp32(ps, rng, 0.5, 1.5)
    rm, rv = rm0.copy(), rv0.copy()
    sm, siv = nans(ps), nans(ps)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, xd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormForward(plan, bn_mode, True)
    mi.setOpArgsBatchNormForward(args, bn, 1.0, 0.0, scale, bias, sm, siv, rm, rv, 0.1, 1e-5)
    op = mi.createOpActivationForward(plan, act)
    mi.setOpArgsActivForward(args, op, 1.0, 0.0, *ACT)
    mi.compileFusionPlan(handle, plan)
    yd, y = tensor(shape, dt, layout)
    mi.executeFusionPlan(handle, plan, xd, x, yd, y, args)

    ry, rmean, rinv, nrm, nrv = ref_bn.forward_training(nchw(x, layout), int(bn_mode), scale,
                                                        bias, 1e-5, rm0, rv0, 0.1)
    want = ref_act.forward(int(act), *ACT, ry)
    assert rel_l2(nchw(y, layout), want) <= tol(dt)
    assert rel_l2(sm, rmean) <= 1e-5 and rel_l2(siv, rinv) <= 1e-5
    assert rel_l2(rm, nrm) <= 1e-5 and rel_l2(rv, nrv) <= 1e-5

    # The same ops one by one: the statistics agree to the bit, y to a rounding (the fused
    # chain rounds once, after the activation).
    rm2, rv2, sm2, siv2 = rm0.copy(), rv0.copy(), nans(ps), nans(ps)
    y2d, y2 = tensor(shape, dt, layout)
    mi.batchNormalizationForwardTraining(handle, bn_mode, 1.0, 0.0, xd, x, y2d, y2, pd, scale,
                                         bias, 0.1, rm2, rv2, 1e-5, sm2, siv2)
    mi.activationForward(handle, act_desc(act), 1.0, y2d, y2, 0.0, y2d, y2)
    assert rel_l2(as64(y), as64(y2)) <= tol(dt)
    np.testing.assert_array_equal(sm, sm2)
    np.testing.assert_array_equal(siv, siv2)
    np.testing.assert_array_equal(rm, rm2)
    np.testing.assert_array_equal(rv, rv2)


def torch_act(mode, t):
    """f(t) in PyTorch float64 for MIOpen's mode and ACT's parameters (autograd's derivative is
    MIOpen's away from the kinks)."""
    a, b, g = ACT
    m = mi.ActivationMode(int(mode))
    if m == mi.miopenActivationPASTHRU:
        return t
    if m == mi.miopenActivationLOGISTIC:
        return torch.sigmoid(t)
    if m == mi.miopenActivationTANH:
        return b * torch.tanh(a * t)
    if m == mi.miopenActivationRELU:
        return torch.relu(t)
    if m == mi.miopenActivationSOFTRELU:
        return torch.nn.functional.softplus(t)
    if m == mi.miopenActivationABS:
        return torch.abs(t)
    if m == mi.miopenActivationPOWER:
        return (a + b * t) ** g
    if m == mi.miopenActivationCLIPPEDRELU:
        return torch.clamp(t, 0.0, a)
    if m == mi.miopenActivationLEAKYRELU:
        return torch.nn.functional.leaky_relu(t, a)
    return torch.nn.functional.elu(t, a)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("bn_mode", BN_MODES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("act", ALL_MODES, ids=lambda m: m.name)
def test_bn_backward_activation_every_mode(handle, dt, layout, bn_mode, shape, act, rng):
    dyd, dy = tensor(shape, dt, layout, rng)
    _, x = tensor(shape, dt, layout, rng)
    ps = ref_bn.param_shape(int(bn_mode), shape)
    pd = desc(ps)
    scale, bias = fp32(ps, rng, 0.5, 1.5), fp32(ps, rng)
    x64 = nchw(x, layout)
    mean, var, _ = ref_bn.batch_stats(x64, int(bn_mode))
    sm = np.ascontiguousarray(mean, np.float32)
    siv = np.ascontiguousarray(1.0 / np.sqrt(var + 1e-5), np.float32)
    ds, db = nans(ps), nans(ps)
    plan = mi.createFusionPlan(mi.miopenVerticalFusion, dyd)
    args = mi.createOperatorArgs()
    bn = mi.createOpBatchNormBackward(plan, bn_mode)
    mi.setOpArgsBatchNormBackward(args, bn, 1.0, 0.0, x, scale, bias, ds, db, sm, siv)
    op = mi.createOpActivationBackward(plan, act)
    mi.setOpArgsActivBackward(args, op, 1.0, 0.0, None, None, *ACT)
    mi.compileFusionPlan(handle, plan)
    dxd, dx = tensor(shape, dt, layout)
    mi.executeFusionPlan(handle, plan, dyd, dy, dxd, dx, args)

    # float64: dy' = f'(u) dy at u = bn(x) with the saved statistics, then the batch norm's
    # backward (NumPy), and PyTorch's autograd through f(bn(x)) with the statistics as functions
    # of x (away from f's kinks the two agree).
    dy64 = nchw(dy, layout)
    u = as64(scale) * (x64 - as64(sm)) * as64(siv) + as64(bias)
    dyp = ref_act.backward(int(act), *ACT, u, dy64)
    rdx, rds, rdb = ref_bn.backward(x64, dyp, int(bn_mode), as64(scale), as64(sm), as64(siv))
    assert rel_l2(nchw(dx, layout), rdx) <= 10 * tol(dt)
    assert rel_l2(ds, rds) <= 10 * tol(dt)
    assert rel_l2(db, rdb) <= 10 * tol(dt)
    xt = torch.from_numpy(x64.copy()).requires_grad_(True)
    st = torch.from_numpy(as64(scale)).requires_grad_(True)
    bt = torch.from_numpy(as64(bias)).requires_grad_(True)
    ax = ref_bn.axes(int(bn_mode), 4)
    mu = xt.mean(dim=ax, keepdim=True)
    v = ((xt - mu) ** 2).mean(dim=ax, keepdim=True)
    out = torch_act(act, st * (xt - mu) / torch.sqrt(v + 1e-5) + bt)
    out.backward(torch.from_numpy(dy64))
    assert rel_l2(nchw(dx, layout), xt.grad.numpy()) <= 10 * tol(dt)
    assert rel_l2(ds, st.grad.numpy()) <= 10 * tol(dt)
    assert rel_l2(db, bt.grad.numpy()) <= 10 * tol(dt)

    # The same ops one by one (u recomputed by an inference call, the activation's backward
    # into a temporary, then the batch norm's backward).
    ud, ub = tensor(shape, dt, layout)
    var_of_inv = (1.0 / siv.astype(np.float64) ** 2).astype(np.float32)
    mi.batchNormalizationForwardInference(handle, bn_mode, 1.0, 0.0, dyd, x, ud, ub, pd, scale,
                                          bias, sm, var_of_inv, 0.0)
    gd, gb = tensor(shape, dt, layout)
    mi.activationBackward(handle, act_desc(act), 1.0, ud, ub, dyd, dy, ud, ub, 0.0, gd, gb)
    dx2d, dx2 = tensor(shape, dt, layout)
    ds2, db2 = nans(ps), nans(ps)
    mi.batchNormalizationBackward(handle, bn_mode, 1.0, 0.0, 1.0, 0.0, dyd, x, gd, gb, dx2d, dx2,
                                  pd, scale, ds2, db2, 0.0, sm, siv)
    if dt == mi.miopenFloat or int(act) not in KINKED:
        # 16-bit: the op-by-op chain rounds u to the data type first, which can move it across
        # a kink of f' (the fused chain keeps u in fp32, as the float64 checks above show).
        assert rel_l2(as64(dx), as64(dx2)) <= 10 * tol(dt)
        assert rel_l2(ds, ds2) <= 10 * tol(dt)
        assert rel_l2(db, db2) <= 10 * tol(dt)


KINKED = {int(m) for m in (mi.miopenActivationRELU, mi.miopenActivationABS,
                           mi.miopenActivationCLIPPEDRELU, mi.miopenActivationLEAKYRELU,
                           mi.miopenActivationELU)}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_bn_backward_plain_unchanged(handle, layout, rng):
    """The plain batch-norm backward (no activation) through the same kernels gives what it gave
    before: against the float64 reference, with and without saved statistics."""
    shape = (2, 8, 4, 4)
    dyd, dy = tensor(shape, mi.miopenFloat, layout, rng)
    _, x = tensor(shape, mi.miopenFloat, layout, rng)
    ps = ref_bn.param_shape(int(mi.miopenBNSpatial), shape)
    pd = desc(ps)
    scale = fp32(ps, rng, 0.5, 1.5)
    x64 = nchw(x, layout)
    mean, var, _ = ref_bn.batch_stats(x64, int(mi.miopenBNSpatial))
    inv = 1.0 / np.sqrt(var + 1e-5)
    rdx, rds, rdb = ref_bn.backward(x64, nchw(dy, layout), int(mi.miopenBNSpatial), as64(scale),
                                    mean, inv)
    for saved in (True, False):
        dxd, dx = tensor(shape, mi.miopenFloat, layout)
        ds, db = nans(ps), nans(ps)
        sm = np.ascontiguousarray(mean, np.float32) if saved else None
        siv = np.ascontiguousarray(inv, np.float32) if saved else None
        mi.batchNormalizationBackward(handle, mi.miopenBNSpatial, 1.0, 0.0, 1.0, 0.0, dyd, x, dyd,
                                      dy, dxd, dx, pd, scale, ds, db, 1e-5, sm, siv)
        assert rel_l2(nchw(dx, layout), rdx) <= 1e-4
        assert rel_l2(ds, rds) <= 1e-4 and rel_l2(db, rdb) <= 1e-4
