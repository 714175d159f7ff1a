"""Pooling (miopenPoolingForward / miopenPoolingBackward and the pooling descriptor) against
PyTorch's max_pool2d/3d and avg_pool2d/3d in float64 (autograd for gradients), and against the
float64 NumPy reference (tests/reference/pooling.py) where PyTorch cannot check: pads above half
the window, the index of a NaN maximum. The typed section runs every mode in fp32, fp16 and bf16
in NCHW, NHWC and strided layouts (tests/support/stored.py) against PyTorch in float64 on the
stored inputs."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from miopen_cy.reference import pooling as ref
from support.buffers import Strided, desc, poisoned, rel_l2
from support.dtypes import (FLOAT_TYPES, HALF_TYPES, as64, check_close, poison, random_stored,
                            round_to)
from support.devices import requires_gpu
from support.stored import LAYOUTS, Placed

MODES = [mi.miopenPoolingMax, mi.miopenPoolingAverage, mi.miopenPoolingAverageInclusive]
MODE_IDS = ["max", "avg", "avg_inclusive"]
INDEX_DTYPES = {mi.miopenIndexUint8: np.uint8, mi.miopenIndexUint16: np.uint16,
                mi.miopenIndexUint32: np.uint32, mi.miopenIndexUint64: np.uint64}


class Case:
    """One pooling problem: x shape (N, C, *spatial), window, pad, stride per spatial dim."""

    def __init__(self, shape, window, pad, stride):
        nsp = len(shape) - 2
        expand = (lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v,) * nsp)
        self.shape, self.window, self.pad, self.stride = (tuple(shape), expand(window),
                                                          expand(pad), expand(stride))
        self.nsp = nsp

    @property
    def out_shape(self):
        return ref.output_shape(self.shape, self.window, self.pad, self.stride)

    def __str__(self):
        names = "dhw"[3 - self.nsp:]
        sp = "-".join(f"{a}{v}" for a, v in zip(names, self.shape[2:]))
        j = lambda v: "x".join(map(str, v))
        return (f"n{self.shape[0]}-c{self.shape[1]}-{sp}-win{j(self.window)}-p{j(self.pad)}"
                f"-s{j(self.stride)}")

    __repr__ = __str__


CASES = [
    Case((2, 3, 9, 11), 3, 1, 2),                  # the usual 3x3 s2 p1
    Case((2, 3, 8, 8), 2, 0, 2),                   # non-overlapping
    Case((1, 4, 7, 9), 3, 1, 1),                   # stride < window: overlapping windows
    Case((2, 2, 10, 9), 2, 1, 3),                  # stride > window: uncovered inputs
    Case((1, 3, 2, 3), 3, 1, 1),                   # window larger than the image, with padding
    Case((1, 2, 4, 4), 5, 2, 2),                   # window 5 over a 4x4 image
    Case((2, 3, 6, 13), (2, 4), (1, 2), (1, 3)),   # non-square everything
    Case((3, 2, 1, 17), (1, 3), (0, 1), (1, 2)),   # one-row image
    Case((2, 3, 5, 7, 6), 3, 1, 2),                # 3-d
    Case((1, 2, 4, 5, 6), (2, 3, 2), (1, 1, 0), (1, 2, 2)),
    Case((2, 1, 3, 3, 3), (3, 1, 2), (1, 0, 1), (2, 1, 3)),
]


def pool_desc(case, mode, nd_api=None):
    d = mi.PoolingDescriptor()
    if case.nsp == 2 and not nd_api:
        mi.set2dPoolingDescriptor(d, mode, *case.window, *case.pad, *case.stride)
    else:
        mi.setNdPoolingDescriptor(d, mode, case.nsp, case.window, case.pad, case.stride)
    return d


def torch_pool(case, mode, t, return_indices=False):
    if mode == mi.miopenPoolingMax:
        fn = F.max_pool2d if case.nsp == 2 else F.max_pool3d
        return fn(t, case.window, case.stride, case.pad, return_indices=return_indices)
    fn = F.avg_pool2d if case.nsp == 2 else F.avg_pool3d
    return fn(t, case.window, case.stride, case.pad,
              count_include_pad=mode == mi.miopenPoolingAverageInclusive)


def torch_ok(case, mode=mi.miopenPoolingMax):
    """PyTorch refuses pads above half the window, and avg_pool3d inputs smaller than the window
    (padding or not)."""
    return (all(p <= k // 2 for p, k in zip(case.pad, case.window)) and
            (case.nsp == 2 or mode == mi.miopenPoolingMax or
             all(i >= k for i, k in zip(case.shape[2:], case.window))))


def expected_forward(case, mode, x):
    if torch_ok(case, mode):
        return torch_pool(case, mode, torch.from_numpy(x.astype(np.float64))).numpy()
    return ref.forward(x, mode, case.window, case.pad, case.stride)[0]


def expected_backward(case, mode, x, dy):
    if torch_ok(case, mode):
        t = torch.from_numpy(x.astype(np.float64)).requires_grad_(True)
        torch_pool(case, mode, t).backward(torch.from_numpy(dy.astype(np.float64)))
        return t.grad.numpy()
    return ref.backward(x, dy, mode, case.window, case.pad, case.stride)


def run_forward(handle, case, mode, x, *, index_mode=None, index_type=None, alpha=1.0,
                beta=0.0, y=None):
    """y (poisoned unless given) and the index workspace (max mode)."""
    pd = pool_desc(case, mode)
    if index_mode is not None:
        mi.setPoolingWorkSpaceIndexMode(pd, index_mode)
    if index_type is not None:
        mi.setPoolingIndexType(pd, index_type)
    yd = desc(case.out_shape)
    y = poisoned(case.out_shape) if y is None else y
    ws = np.zeros(max(mi.poolingGetWorkSpaceSizeV2(pd, yd), 1), np.uint8)
    mi.poolingForward(handle, pd, alpha, desc(case.shape), x, beta, yd, y, True, ws, ws.nbytes)
    return y, ws, pd


# ---- descriptor ------------------------------------------------------------------------------

def test_2d_descriptor_round_trip_and_defaults():
    d = mi.createPoolingDescriptor()
    assert repr(d) == "PoolingDescriptor(unset)" and d.mode is None
    assert mi.getPoolingIndexType(d) == mi.miopenIndexUint8
    assert mi.getPoolingWorkSpaceIndexMode(d) == mi.miopenPoolingWorkspaceIndexMask
    mi.set2dPoolingDescriptor(d, mi.miopenPoolingAverage, 3, 2, 1, 0, 2, 1)
    got = mi.get2dPoolingDescriptor(d)
    assert got == (mi.miopenPoolingAverage, 3, 2, 1, 0, 2, 1)
    assert isinstance(got[0], mi.PoolingMode)
    assert mi.getNdPoolingDescriptor(d, 2) == (mi.miopenPoolingAverage, 2, (3, 2), (1, 0), (2, 1))
    assert (d.mode, d.window, d.pads, d.strides) == (mi.miopenPoolingAverage, (3, 2), (1, 0), (2, 1))
    assert repr(d) == ("PoolingDescriptor(miopenPoolingAverage, window=(3, 2), pads=(1, 0), "
                       "strides=(2, 1), miopenIndexUint8, miopenPoolingWorkspaceIndexMask)")


def test_nd_descriptor_round_trip_and_requested_count():
    d = mi.PoolingDescriptor()
    mi.setNdPoolingDescriptor(d, mi.miopenPoolingMax, 3, [2, 3, 4], [1, 0, 2], [1, 2, 3])
    assert mi.getNdPoolingDescriptor(d, 3) == (mi.miopenPoolingMax, 3, (2, 3, 4), (1, 0, 2), (1, 2, 3))
    assert mi.getNdPoolingDescriptor(d, 1) == (mi.miopenPoolingMax, 3, (2,), (1,), (1,))
    assert mi.getNdPoolingDescriptor(d, 8) == (mi.miopenPoolingMax, 3, (2, 3, 4), (1, 0, 2), (1, 2, 3))
    with pytest.raises(mi.BadParmError, match="nbDimsRequested = -1"):
        mi.getNdPoolingDescriptor(d, -1)
    with pytest.raises(mi.BadParmError, match="poolDesc has 3 spatial dims"):
        mi.get2dPoolingDescriptor(d)
    # MIOpen's defaults per rank: image indices for 3-d.
    assert mi.getPoolingWorkSpaceIndexMode(d) == mi.miopenPoolingWorkspaceIndexImage


def test_index_settings_round_trip_and_reset_by_set_as_in_miopen():
    d = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(d, mi.miopenPoolingMax, 2, 2, 0, 0, 2, 2)
    for t in INDEX_DTYPES:
        mi.setPoolingIndexType(d, t)
        assert mi.getPoolingIndexType(d) == t
    mi.setPoolingWorkSpaceIndexMode(d, mi.miopenPoolingWorkspaceIndexImage)
    assert mi.getPoolingWorkSpaceIndexMode(d) == mi.miopenPoolingWorkspaceIndexImage
    # MIOpen's miopenSet*PoolingDescriptor replaces the whole descriptor, index settings included.
    mi.set2dPoolingDescriptor(d, mi.miopenPoolingMax, 2, 2, 0, 0, 2, 2)
    assert mi.getPoolingIndexType(d) == mi.miopenIndexUint8
    assert mi.getPoolingWorkSpaceIndexMode(d) == mi.miopenPoolingWorkspaceIndexMask


@pytest.mark.parametrize("args,word", [
    ((7, 3, 3, 1, 1, 2, 2), "mode = 7 is not a miopenPoolingMode_t"),
    ((0, 0, 3, 0, 0, 1, 1), "windowHeight = 0; must be >= 1"),
    ((0, 3, -2, 0, 0, 1, 1), "windowWidth = -2; must be >= 1"),
    ((0, 3, 3, -1, 0, 1, 1), "pad_h = -1; must be >= 0"),
    ((0, 3, 3, 0, 3, 1, 1), "pad_w = 3 must be smaller than windowWidth = 3"),
    ((0, 3, 3, 1, 1, 0, 1), "stride_h = 0; must be >= 1"),
    ((0, 3, 3, 1, 1, 1, -1), "stride_w = -1; must be >= 1"),
])
def test_set2d_rejects_bad_values_and_keeps_the_old_state(args, word):
    d = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(d, mi.miopenPoolingMax, 2, 2, 1, 1, 1, 1)
    with pytest.raises(mi.BadParmError, match=word) as info:
        mi.set2dPoolingDescriptor(d, *args)
    assert info.value.api == "miopenSet2dPoolingDescriptor"
    assert mi.get2dPoolingDescriptor(d) == (mi.miopenPoolingMax, 2, 2, 1, 1, 1, 1)


def test_setnd_rejects_bad_values():
    d = mi.PoolingDescriptor()
    cases = [
        ((0, 1, [2], [0], [1]), mi.BadParmError, "nbDims = 1; pooling has 2 or 3 spatial dims"),
        ((0, 4, [2] * 4, [0] * 4, [1] * 4), mi.BadParmError, "nbDims = 4"),
        ((0, 0, [], [], []), mi.BadParmError, "nbDims = 0"),
        ((0, 3, [2, 2, 0], [0] * 3, [1] * 3), mi.BadParmError, r"windowDimA\[2\] = 0"),
        ((0, 2, [2, 2], [0, 2], [1, 1]), mi.BadParmError, r"padA\[1\] = 2 must be smaller"),
        ((0, 2, [2, 2], [0, 0], [1, 0]), mi.BadParmError, r"stridesA\[1\] = 0"),
        ((5, 2, [2, 2], [0, 0], [1, 1]), mi.BadParmError, "mode = 5"),
        ((0, 2, [2, 2, 2], [0, 0], [1, 1]), ValueError, "windowDimA has 3 entries but nbDims = 2"),
    ]
    for args, exc, word in cases:
        with pytest.raises(exc, match=word):
            mi.setNdPoolingDescriptor(d, *args)
    assert repr(d) == "PoolingDescriptor(unset)"


def test_bad_index_settings_name_the_parameter():
    d = mi.PoolingDescriptor()
    with pytest.raises(mi.BadParmError, match="index_type = 9 is not a miopenIndexType_t"):
        mi.setPoolingIndexType(d, 9)
    with pytest.raises(mi.BadParmError, match="workspace_index = 2 is not a"):
        mi.setPoolingWorkSpaceIndexMode(d, 2)
    assert mi.getPoolingIndexType(d) == mi.miopenIndexUint8


def test_unset_destroyed_and_null_descriptors_raise(handle):
    d = mi.PoolingDescriptor()
    xd = desc((1, 1, 4, 4))
    with pytest.raises(mi.BadParmError, match="poolDesc has not been set"):
        mi.getPoolingForwardOutputDim(d, xd)
    with pytest.raises(mi.BadParmError, match="poolDesc has not been set"):
        mi.get2dPoolingDescriptor(d)
    x, y = np.ones((1, 1, 4, 4), np.float32), poisoned((1, 1, 2, 2))
    with pytest.raises(mi.BadParmError, match="poolDesc has not been set"):
        mi.poolingForward(handle, d, 1.0, xd, x, 0.0, desc(y.shape), y, False, None, 0)
    with pytest.raises(mi.BadParmError, match="poolDesc is null"):
        mi.poolingForward(handle, None, 1.0, xd, x, 0.0, desc(y.shape), y, False, None, 0)
    mi.set2dPoolingDescriptor(d, mi.miopenPoolingMax, 2, 2, 0, 0, 2, 2)
    mi.destroyPoolingDescriptor(d)
    assert repr(d) == "PoolingDescriptor(destroyed)"
    with pytest.raises(ValueError, match="poolDesc has been destroyed"):
        mi.poolingForward(handle, d, 1.0, xd, x, 0.0, desc(y.shape), y, False, None, 0)
    with pytest.raises(ValueError, match="destroyed"):
        mi.destroyPoolingDescriptor(d)
    with pytest.raises(mi.BadParmError, match="xDesc has not been set"):
        mi.poolingForward(handle, pool_desc(Case((1, 1, 4, 4), 2, 0, 2), 0), 1.0,
                          mi.TensorDescriptor(), x, 0.0, desc(y.shape), y, False, None, 0)
    assert np.all(np.isnan(y))


# ---- output dims and workspace sizes ---------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=str)
def test_output_dims_match_torch(case):
    pd = pool_desc(case, mi.miopenPoolingMax)
    xd = desc(case.shape)
    expect = tuple(torch_pool(case, mi.miopenPoolingMax,
                              torch.zeros(case.shape)).shape) if torch_ok(case) else case.out_shape
    assert mi.getPoolingNdForwardOutputDim(pd, xd, len(case.shape)) == expect
    if case.nsp == 2:
        assert mi.getPoolingForwardOutputDim(pd, xd) == expect
    else:
        with pytest.raises(mi.BadParmError, match="use miopenGetPoolingNdForwardOutputDim"):
            mi.getPoolingForwardOutputDim(pd, xd)


def test_output_dim_errors():
    pd = pool_desc(Case((1, 1, 5, 5), 3, 0, 1), mi.miopenPoolingMax)
    with pytest.raises(mi.BadParmError, match=r"tensorDesc has 5 dims; a 2-d pooling descriptor "
                                              r"needs 4 \(N, C, H, W\)"):
        mi.getPoolingNdForwardOutputDim(pd, desc((1, 1, 5, 5, 5)), 5)
    with pytest.raises(mi.BadParmError, match="tensorDesc W = 2 plus twice the pad 0 is smaller "
                                              "than the window 3"):
        mi.getPoolingForwardOutputDim(pd, desc((1, 1, 5, 2)))
    with pytest.raises(mi.BadParmError, match="dims = 3 but the output of pooling tensorDesc has 4"):
        mi.getPoolingNdForwardOutputDim(pd, desc((1, 1, 5, 5)), 3)
    with pytest.raises(mi.BadParmError, match="tensorDesc has not been set"):
        mi.getPoolingForwardOutputDim(pd, mi.TensorDescriptor())


@pytest.mark.parametrize("index_type", list(INDEX_DTYPES))
def test_workspace_sizes(index_type):
    yd = desc((2, 3, 4, 5))
    assert mi.poolingGetWorkSpaceSize(yd) == 120          # uint8 indices, whatever the type
    for mode in MODES:
        pd = pool_desc(Case((2, 3, 8, 10), 2, 0, 2), mode)
        mi.setPoolingIndexType(pd, index_type)
        size = np.dtype(INDEX_DTYPES[index_type]).itemsize
        assert mi.poolingGetWorkSpaceSizeV2(pd, yd) == (120 * size if mode == mi.miopenPoolingMax
                                                        else 0)
    with pytest.raises(mi.BadParmError, match="yDesc has 5 dims; a 2-d pooling descriptor needs 4"):
        mi.poolingGetWorkSpaceSizeV2(pd, desc((1, 1, 1, 1, 1)))


# ---- forward and backward against PyTorch -----------------------------------------------------

@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward_matches_torch(handle, rng, case, mode):
    x = rng.standard_normal(case.shape).astype(np.float32)
    y, _, _ = run_forward(handle, case, mode, x)
    expect = expected_forward(case, mode, x)
    if mode == mi.miopenPoolingMax:
        assert np.array_equal(y, expect)                 # a max is exact
    else:
        assert rel_l2(y, expect) <= 1e-6


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("index_mode", [mi.miopenPoolingWorkspaceIndexMask,
                                        mi.miopenPoolingWorkspaceIndexImage], ids=["mask", "image"])
def test_max_indices_match_torch_return_indices(handle, rng, case, index_mode):
    x = rng.standard_normal(case.shape).astype(np.float32)
    t = torch.from_numpy(x.astype(np.float64))
    if torch_ok(case):
        _, image = torch_pool(case, mi.miopenPoolingMax, t, return_indices=True)
        image = image.numpy()
    else:
        _, image, _ = ref.forward(x, ref.MAX, case.window, case.pad, case.stride)
    # Mask index: the max's position in its window, counted from the unclipped window start.
    spatial, out = case.shape[2:], case.out_shape[2:]
    coords = np.unravel_index(image, spatial)
    grids = np.meshgrid(*(np.arange(o) for o in out), indexing="ij")
    mask = np.zeros_like(image)
    for d in range(case.nsp):
        mask = mask * case.window[d] + coords[d] - (grids[d] * case.stride[d] - case.pad[d])
    expect = image if index_mode == mi.miopenPoolingWorkspaceIndexImage else mask
    assert np.array_equal(mask, ref.forward(x, ref.MAX, case.window, case.pad, case.stride)[2])
    positions = np.prod(spatial if index_mode else case.window)
    for index_type, dt in INDEX_DTYPES.items():
        if positions >= np.iinfo(dt).max:
            continue
        _, ws, _ = run_forward(handle, case, mi.miopenPoolingMax, x, index_mode=index_mode,
                               index_type=index_type)
        got = ws[:int(np.prod(case.out_shape)) * np.dtype(dt).itemsize].view(dt)
        assert np.array_equal(got.reshape(case.out_shape), expect), index_type


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_backward_matches_torch_autograd(handle, rng, case, mode):
    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    expect = expected_backward(case, mode, x, dy)
    variants = [(mi.miopenPoolingWorkspaceIndexMask, True), (mi.miopenPoolingWorkspaceIndexImage, True),
                (None, False)] if mode == mi.miopenPoolingMax else [(None, True)]
    for index_mode, use_ws in variants:
        y, ws, pd = run_forward(handle, case, mode, x, index_mode=index_mode)
        dx = poisoned(case.shape)
        mi.poolingBackward(handle, pd, 1.0, desc(case.out_shape), y, desc(case.out_shape), dy,
                           desc(case.shape), x, 0.0, desc(case.shape), dx, ws if use_ws else None)
        assert rel_l2(dx, expect) <= 1e-6, (index_mode, use_ws)


def test_backward_needs_neither_y_nor_x_with_a_workspace(handle, rng):
    # MIOpen reads neither y nor x; a caller may pass null for them (x is needed only to find the
    # maxima again when there is no workspace).
    case = CASES[0]
    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    for mode in MODES:
        _, ws, pd = run_forward(handle, case, mode, x)
        dx = poisoned(case.shape)
        mi.poolingBackward(handle, pd, 1.0, desc(case.out_shape), None, desc(case.out_shape), dy,
                           desc(case.shape), None, 0.0, desc(case.shape), dx, ws)
        assert rel_l2(dx, expected_backward(case, mode, x, dy)) <= 1e-6
    dx = poisoned(case.shape)
    with pytest.raises(mi.BadParmError, match="x is a null pointer and so is workSpace"):
        mi.poolingBackward(handle, pool_desc(case, mi.miopenPoolingMax), 1.0, desc(case.out_shape),
                           None, desc(case.out_shape), dy, desc(case.shape), None, 0.0,
                           desc(case.shape), dx, None)
    assert np.all(np.isnan(dx))


# ---- strides, alpha/beta ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", [CASES[0], CASES[6], CASES[9]], ids=str)
def test_strided_tensors_and_alpha_beta(handle, rng, case, mode):
    pad = (0, 1, 0, 2, 3) if case.nsp == 3 else (0, 1, 0, 3)
    x = Strided(case.shape, rng, pad=pad)
    y = Strided(case.out_shape, rng, pad=pad)
    dy = Strided(case.out_shape, rng, pad=pad)
    dx = Strided(case.shape, rng, pad=pad)
    y0, dx0 = y.view.astype(np.float64), dx.view.astype(np.float64)
    pd = pool_desc(case, mode, nd_api=True)
    ws = np.zeros(max(mi.poolingGetWorkSpaceSizeV2(pd, desc(case.out_shape)), 1), np.uint8)
    mi.poolingForward(handle, pd, 1.5, x.desc(), x.buf, -0.5, y.desc(), y.buf, True, ws, ws.nbytes)
    fwd = expected_forward(case, mode, np.ascontiguousarray(x.view))
    assert rel_l2(y.view, 1.5 * fwd - 0.5 * y0) <= 1e-6
    assert x.gaps_untouched() and y.gaps_untouched()
    mi.poolingBackward(handle, pd, 2.0, y.desc(), y.buf, dy.desc(), dy.buf, x.desc(), x.buf, 0.25,
                       dx.desc(), dx.buf, ws)
    bwd = expected_backward(case, mode, np.ascontiguousarray(x.view), np.ascontiguousarray(dy.view))
    assert rel_l2(dx.view, 2.0 * bwd + 0.25 * dx0) <= 1e-6
    assert dx.gaps_untouched() and dy.gaps_untouched()


# C = 20 over a 70 x 66 image: the CPU's channels-last max backward works in bands of rows
# (several, the last one partial).
@pytest.mark.parametrize("case", [CASES[0], CASES[2], CASES[6], CASES[8],
                                  Case((2, 20, 70, 66), 3, 1, 2)], ids=str)
def test_channels_last_tensors(handle, rng, case):
    # NHWC / NDHWC: C is the contiguous dim, the kernels' second fast path.
    layout = mi.miopenTensorNHWC if case.nsp == 2 else mi.miopenTensorNDHWC
    perm = (0, *range(2, case.nsp + 2), 1)                   # NCHW -> NHWC
    back = np.argsort(perm)

    def tensor(shape, value=None):
        d = mi.TensorDescriptor()
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenFloat, layout, shape, len(shape))
        a = np.full([shape[i] for i in perm], np.nan, np.float32) if value is None else \
            np.ascontiguousarray(value.transpose(perm))
        return d, a

    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    xd, xl = tensor(case.shape, x)
    yd, _ = tensor(case.out_shape)
    dyd, dyl = tensor(case.out_shape, dy)
    _, image = torch_pool(case, mi.miopenPoolingMax, torch.from_numpy(x.astype(np.float64)),
                          return_indices=True)
    for mode in MODES:
        for index_mode in ([mi.miopenPoolingWorkspaceIndexMask, mi.miopenPoolingWorkspaceIndexImage]
                           if mode == mi.miopenPoolingMax else [None]):
            pd = pool_desc(case, mode)
            if index_mode is not None:
                mi.setPoolingWorkSpaceIndexMode(pd, index_mode)
                mi.setPoolingIndexType(pd, mi.miopenIndexUint32)
            _, yl = tensor(case.out_shape)
            ws = np.zeros(max(mi.poolingGetWorkSpaceSizeV2(pd, yd), 1), np.uint8)
            mi.poolingForward(handle, pd, 1.0, xd, xl, 0.0, yd, yl, True, ws, ws.nbytes)
            assert rel_l2(yl.transpose(back), expected_forward(case, mode, x)) <= 1e-6
            if index_mode == mi.miopenPoolingWorkspaceIndexImage:
                assert np.array_equal(ws.view(np.uint32).reshape(case.out_shape), image.numpy())
            _, dxl = tensor(case.shape)
            mi.poolingBackward(handle, pd, 1.0, yd, yl, dyd, dyl, xd, xl, 0.0, xd, dxl, ws)
            assert rel_l2(dxl.transpose(back), expected_backward(case, mode, x, dy)) <= 1e-6


# The CPU's channels-last max backward gathers (each window's index, read across the channels of
# the workspace, which is in NCDHW order in every layout as in MIOpen, is compared with the
# positions of a dx row); the NCDHW one scatters. Every index type and mode, 2-d and 3-d,
# overlapping windows, a blend into dx: the same bits in both layouts, and torch's gradient.
@pytest.mark.parametrize("index_type", list(INDEX_DTYPES),
                         ids=[np.dtype(t).name for t in INDEX_DTYPES.values()])
@pytest.mark.parametrize("index_mode", [mi.miopenPoolingWorkspaceIndexMask,
                                        mi.miopenPoolingWorkspaceIndexImage], ids=["mask", "image"])
@pytest.mark.parametrize("case", [Case((2, 5, 9, 11), 3, 1, 2), Case((1, 4, 7, 9), 3, 1, 1),
                                  Case((2, 3, 5, 7, 6), 3, 1, 2)], ids=str)
def test_channels_last_max_backward_every_index_type(handle, rng, case, index_mode, index_type):
    perm = (0, *range(2, case.nsp + 2), 1)                   # NCDHW -> channels last
    back = np.argsort(perm)
    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    dx0 = rng.standard_normal(case.shape).astype(np.float32)
    got = {}
    for channels_last in (False, True):
        def tensor(shape, value):
            if not channels_last:
                return desc(shape), value.copy()
            d = mi.TensorDescriptor()
            layout = mi.miopenTensorNHWC if case.nsp == 2 else mi.miopenTensorNDHWC
            mi.setNdTensorDescriptorWithLayout(d, mi.miopenFloat, layout, shape, len(shape))
            return d, np.ascontiguousarray(value.transpose(perm))

        pd = pool_desc(case, mi.miopenPoolingMax)
        mi.setPoolingWorkSpaceIndexMode(pd, index_mode)
        mi.setPoolingIndexType(pd, index_type)
        xd, xa = tensor(case.shape, x)
        yd, ya = tensor(case.out_shape, poisoned(case.out_shape))
        dyd, dya = tensor(case.out_shape, dy)
        _, dxa = tensor(case.shape, dx0)
        ws = np.zeros(mi.poolingGetWorkSpaceSizeV2(pd, yd), np.uint8)
        mi.poolingForward(handle, pd, 1.0, xd, xa, 0.0, yd, ya, True, ws, ws.nbytes)
        mi.poolingBackward(handle, pd, 1.5, yd, ya, dyd, dya, xd, xa, 0.5, xd, dxa, ws)
        got[channels_last] = dxa.transpose(back) if channels_last else dxa
    assert got[False].tobytes() == np.ascontiguousarray(got[True]).tobytes()
    expect = 1.5 * expected_backward(case, mi.miopenPoolingMax, x, dy) + 0.5 * dx0
    assert rel_l2(got[True], expect) <= 1e-6


def test_beta_zero_does_not_read_the_output(handle, rng):
    case = CASES[2]
    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    for mode in MODES:
        y, ws, pd = run_forward(handle, case, mode, x, alpha=2.0, beta=0.0)   # y starts as NaN
        assert np.all(np.isfinite(y))
        dx = poisoned(case.shape)
        mi.poolingBackward(handle, pd, 1.0, desc(case.out_shape), y, desc(case.out_shape), dy,
                           desc(case.shape), x, 0.0, desc(case.shape), dx, ws)
        assert np.all(np.isfinite(dx))


# ---- NaN and ties -----------------------------------------------------------------------------

def test_nan_propagates_and_its_index_is_the_first_nan(handle, rng):
    case = Case((2, 3, 9, 11), 3, 1, 2)
    x = rng.standard_normal(case.shape).astype(np.float32)
    x[0, 0, 2, 3] = x[0, 0, 2, 4] = x[1, 2, 0, 0] = x[1, 1, 8, 10] = np.nan
    x[0, 1, 4, 4] = np.inf
    x[0, 1, 0, 0] = -np.inf
    y, ws, pd = run_forward(handle, case, mi.miopenPoolingMax, x,
                            index_mode=mi.miopenPoolingWorkspaceIndexImage)
    t = torch.from_numpy(x.astype(np.float64))
    np.testing.assert_array_equal(y, torch_pool(case, mi.miopenPoolingMax, t).numpy())
    r_y, r_image, _ = ref.forward(x, ref.MAX, case.window, case.pad, case.stride)
    np.testing.assert_array_equal(y, r_y)
    assert np.array_equal(ws.reshape(case.out_shape), r_image)
    # The gradient of a NaN window goes to its first NaN (PyTorch picks its last one).
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    dx = poisoned(case.shape)
    mi.poolingBackward(handle, pd, 1.0, desc(case.out_shape), y, desc(case.out_shape), dy,
                       desc(case.shape), x, 0.0, desc(case.shape), dx, ws)
    assert rel_l2(dx, ref.backward(x, dy, ref.MAX, case.window, case.pad, case.stride)) <= 1e-6
    avg = poisoned(case.out_shape)
    mi.poolingForward(handle, pool_desc(case, mi.miopenPoolingAverage), 1.0, desc(case.shape), x,
                      0.0, desc(case.out_shape), avg, False, None, 0)
    np.testing.assert_array_equal(np.isnan(avg), np.isnan(y))


def test_ties_go_to_the_first_maximum_like_torch(handle, rng):
    for case in (Case((2, 3, 9, 11), 3, 1, 2), Case((1, 2, 7, 8), 3, 1, 1),
                 Case((1, 2, 5, 6, 7), 3, 1, 1)):
        x = rng.integers(0, 3, case.shape).astype(np.float32)
        _, ws, _ = run_forward(handle, case, mi.miopenPoolingMax, x,
                               index_mode=mi.miopenPoolingWorkspaceIndexImage,
                               index_type=mi.miopenIndexUint32)
        _, image = torch_pool(case, mi.miopenPoolingMax, torch.from_numpy(x.astype(np.float64)),
                              return_indices=True)
        assert np.array_equal(ws.view(np.uint32).reshape(case.out_shape), image.numpy())
        x[...] = -np.inf
        _, ws, _ = run_forward(handle, case, mi.miopenPoolingMax, x,
                               index_mode=mi.miopenPoolingWorkspaceIndexImage,
                               index_type=mi.miopenIndexUint32)
        _, image = torch_pool(case, mi.miopenPoolingMax, torch.from_numpy(x.astype(np.float64)),
                              return_indices=True)
        assert np.array_equal(ws.view(np.uint32).reshape(case.out_shape), image.numpy())


# ---- hypothesis -------------------------------------------------------------------------------

@st.composite
def pooling_cases(draw):
    nsp = draw(st.sampled_from([2, 3]))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    window, pad, stride, spatial = [], [], [], []
    for _ in range(nsp):
        k = draw(st.integers(1, 4))
        p = draw(st.integers(0, k - 1))
        s = draw(st.integers(1, 4))
        i = draw(st.integers(max(1, k - 2 * p), 9 if nsp == 2 else 6))
        window.append(k), pad.append(p), stride.append(s), spatial.append(i)
    return Case((n, c, *spatial), window, pad, stride)


@settings(max_examples=60, deadline=None)
@given(case=pooling_cases(), mode=st.sampled_from(MODES),
       index_mode=st.sampled_from([mi.miopenPoolingWorkspaceIndexMask,
                                   mi.miopenPoolingWorkspaceIndexImage]))
def test_hypothesis_forward_backward(case, mode, index_mode):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(sum(case.shape))
    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    y, ws, pd = run_forward(handle, case, mode, x, index_mode=index_mode,
                            index_type=mi.miopenIndexUint32)
    assert rel_l2(y, expected_forward(case, mode, x)) <= 1e-6
    dx = poisoned(case.shape)
    mi.poolingBackward(handle, pd, 1.0, desc(case.out_shape), y, desc(case.out_shape), dy,
                       desc(case.shape), x, 0.0, desc(case.shape), dx, ws)
    assert rel_l2(dx, expected_backward(case, mode, x, dy)) <= 1e-6


# ---- bad inputs -------------------------------------------------------------------------------

def test_forward_bad_inputs_leave_outputs_untouched(handle, rng):
    case = CASES[0]
    x = rng.standard_normal(case.shape).astype(np.float32)
    y = poisoned(case.out_shape)
    ws = np.full(mi.poolingGetWorkSpaceSize(desc(case.out_shape)), 7, np.uint8)
    n, c, oh, ow = case.out_shape
    cases = [
        (dict(yshape=(n, c, oh, ow + 1)), mi.BadParmError,
         r"yDesc has lengths \(2, 3, 5, 7\) but pooling xDesc \(2, 3, 9, 11\) gives \(2, 3, 5, 6\)"),
        (dict(yshape=(n, c, 1, oh, ow)), mi.BadParmError, "yDesc has lengths"),
        (dict(xshape=(2, 3, 1, 9, 11), x=np.resize(x, (2, 3, 1, 9, 11))), mi.BadParmError,
         "xDesc has 5 dims; a 2-d pooling descriptor needs 4"),
        (dict(ydtype=mi.miopenHalf, y=np.full(case.out_shape, np.nan, np.float16)), mi.BadParmError,
         "xDesc is miopenFloat but yDesc is miopenHalf"),
        (dict(xdtype=mi.miopenDouble, ydtype=mi.miopenDouble, x=x.astype(np.float64),
              y=np.full(case.out_shape, np.nan)), mi.BadParmError,
         "xDesc has data type miopenDouble; this call takes miopenFloat, miopenHalf or "
         "miopenBFloat16"),
        (dict(ws=None), mi.BadParmError,
         "workSpace is a null pointer; max pooling with do_backward writes 180"),
        (dict(wssize=179), mi.BadParmError,
         r"workSpaceSize = 179; max pooling with do_backward needs 180 \(numel\(y\) \* 1 bytes"),
        (dict(ws=np.full(10, 7, np.uint8), wssize=180), mi.BadParmError,
         "workSpace: the buffer has 10 bytes"),
        (dict(x=x[:, :2].copy()), mi.BadParmError, "x: the buffer has"),
        (dict(y=poisoned(3)), mi.BadParmError, "y: the buffer has 12 bytes"),
        (dict(x=None), mi.BadParmError, "x is a null pointer"),
        (dict(y=None), mi.BadParmError, "y is a null pointer"),
        (dict(mode=mi.miopenPoolingMax, index_type=mi.miopenIndexUint8, win=16), mi.BadParmError,
         "index type miopenIndexUint8 cannot index the 256 positions of the window"),
    ]
    for kw, exc, word in cases:
        xshape, yshape = kw.get("xshape", case.shape), kw.get("yshape", case.out_shape)
        win = kw.get("win", 3)
        pd = mi.PoolingDescriptor()
        mi.set2dPoolingDescriptor(pd, mi.miopenPoolingMax, win, win, 1, 1, 2, 2)
        if win != 3:
            xshape, yshape = (1, 1, 20, 20), (1, 1, 4, 4)
        xx = kw.get("x", x if xshape == case.shape else np.zeros(xshape, np.float32))
        yy = kw.get("y", y if yshape == case.out_shape else poisoned(yshape))
        with pytest.raises(exc, match=word):
            mi.poolingForward(handle, pd, 1.0, desc(xshape, dtype=kw.get("xdtype", mi.miopenFloat)),
                              xx, 0.0, desc(yshape, dtype=kw.get("ydtype", mi.miopenFloat)), yy,
                              True, kw.get("ws", ws), kw.get("wssize", ws.nbytes))
        assert np.all(np.isnan(y)) and np.all(ws == 7), kw
        assert yy is None or np.all(np.isnan(yy)), kw
        assert kw.get("ws") is None or np.all(kw["ws"] == 7), kw


def test_index_type_too_small_for_the_image_or_window(handle):
    # MIOpen reserves the largest index value: uint8 holds positions 0..254.
    for index_mode, shape, win, ok in [
            (mi.miopenPoolingWorkspaceIndexImage, (1, 1, 15, 16), 2, True),     # 240 positions
            (mi.miopenPoolingWorkspaceIndexImage, (1, 1, 16, 16), 2, False),    # 256
            (mi.miopenPoolingWorkspaceIndexMask, (1, 1, 17, 17), 15, True),     # 225
            (mi.miopenPoolingWorkspaceIndexMask, (1, 1, 17, 17), 16, False)]:   # 256
        case = Case(shape, win, 0, 1)
        x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        if ok:
            run_forward(handle, case, mi.miopenPoolingMax, x, index_mode=index_mode)
            continue
        with pytest.raises(mi.BadParmError, match="index type miopenIndexUint8 cannot index"):
            run_forward(handle, case, mi.miopenPoolingMax, x, index_mode=index_mode)
        y, _, _ = run_forward(handle, case, mi.miopenPoolingMax, x, index_mode=index_mode,
                              index_type=mi.miopenIndexUint16)
        assert np.array_equal(y, expected_forward(case, mi.miopenPoolingMax, x))


def test_avg_and_no_backward_need_no_workspace(handle, rng):
    case = CASES[0]
    x = rng.standard_normal(case.shape).astype(np.float32)
    for mode, save in [(mi.miopenPoolingAverage, True), (mi.miopenPoolingMax, False)]:
        y = poisoned(case.out_shape)
        mi.poolingForward(handle, pool_desc(case, mode), 1.0, desc(case.shape), x, 0.0,
                          desc(case.out_shape), y, save, None, 0)
        assert rel_l2(y, expected_forward(case, mode, x)) <= 1e-6


def test_backward_bad_inputs_leave_dx_untouched(handle, rng):
    case = CASES[0]
    x = rng.standard_normal(case.shape).astype(np.float32)
    dy = rng.standard_normal(case.out_shape).astype(np.float32)
    y, ws, pd = run_forward(handle, case, mi.miopenPoolingMax, x)
    dx = poisoned(case.shape)
    ys, xs = case.out_shape, case.shape
    cases = [
        (dict(dyshape=(2, 3, 5, 5)), "dyDesc and yDesc have different lengths"),
        (dict(dxshape=(2, 3, 9, 10)), "dxDesc and xDesc have different lengths"),
        (dict(yshape=(2, 3, 4, 6), dyshape=(2, 3, 4, 6)), r"yDesc has lengths \(2, 3, 4, 6\) but pooling xDesc"),
        (dict(dxdtype=mi.miopenHalf, dx=np.full(xs, np.nan, np.float16)),
         "dxDesc is miopenHalf but xDesc is miopenFloat"),
        (dict(dy=None), "dy is a null pointer"),
        (dict(dx=None), "dx is a null pointer"),
        (dict(ws=np.zeros(10, np.uint8)), "workSpace: the buffer has 10 bytes; its descriptor needs 180"),
        (dict(index_type=mi.miopenIndexUint8, big=True), "index type miopenIndexUint8 cannot index"),
    ]
    for kw, word in cases:
        p = pd
        if kw.get("big"):
            p = mi.PoolingDescriptor()
            mi.set2dPoolingDescriptor(p, mi.miopenPoolingMax, 3, 3, 1, 1, 2, 2)
            mi.setPoolingWorkSpaceIndexMode(p, mi.miopenPoolingWorkspaceIndexImage)
            big = (1, 1, 16, 16)
            with pytest.raises(mi.BadParmError, match=word):
                mi.poolingBackward(handle, p, 1.0, desc((1, 1, 8, 8)), None, desc((1, 1, 8, 8)),
                                   np.zeros((1, 1, 8, 8), np.float32), desc(big), None, 0.0,
                                   desc(big), dx, np.zeros(64, np.uint8))
            continue
        with pytest.raises(mi.BadParmError, match=word):
            mi.poolingBackward(handle, p, 1.0, desc(kw.get("yshape", ys)), y,
                               desc(kw.get("dyshape", ys)), kw.get("dy", dy), desc(xs), x, 0.0,
                               desc(kw.get("dxshape", xs), dtype=kw.get("dxdtype", mi.miopenFloat)),
                               kw.get("dx", dx), kw.get("ws", ws))
        assert np.all(np.isnan(dx)), kw
        assert kw.get("dx") is None or np.all(np.isnan(kw["dx"])), kw


def test_python_argument_errors_name_the_parameter(handle):
    pd = pool_desc(CASES[0], mi.miopenPoolingMax)
    with pytest.raises(TypeError, match="windowHeight must be an int"):
        mi.set2dPoolingDescriptor(pd, mi.miopenPoolingMax, "3", 3, 1, 1, 2, 2)
    with pytest.raises(TypeError, match="alpha must be a float"):
        mi.poolingForward(handle, pd, None, desc(CASES[0].shape), None, 0.0,
                          desc(CASES[0].out_shape), None, False, None, 0)
    with pytest.raises(TypeError):
        mi.poolingForward(handle, desc((1,)), 1.0, desc(CASES[0].shape), None, 0.0,
                          desc(CASES[0].out_shape), None, False, None, 0)


# ---- storage types (fp32, fp16, bf16) x layouts -------------------------------------------------
# Every mode in every type and layout on both devices against PyTorch in float64 on the stored
# inputs: the max is exact; averages are fp32 sums rounded once (1 unit of the 16-bit types).

TYPED_CASES = [
    Case((2, 4, 9, 11), 3, 1, 2),                  # 3x3 s2 p1 (2-d kernels; NHWC fast path)
    Case((2, 8, 16, 20), 3, 1, 2),                 # the quad kernel where x is aligned
    Case((1, 4, 8, 12), 2, 0, 2),                  # 2x2 s2
    Case((2, 4, 7, 9), (2, 4), (1, 2), (1, 3)),    # non-square: the generic kernels
    Case((2, 3, 6, 5), 3, 1, 1),                   # C % 4 != 0: no NHWC fast path
    Case((2, 4, 5, 7, 6), 3, 1, 2),                # 3-d
]


def _typed_x(case, mode, dt, rng):
    """Max: values distinct within any window (ties would make the argmax a matter of order);
    average: random stored values."""
    if mode != mi.miopenPoolingMax:
        return random_stored(case.shape, dt, rng)
    plane = int(np.prod(case.shape[2:]))
    flat = (np.arange(plane) * 97) % 251 - 125.0      # distinct within 251 neighbours
    x = np.tile(flat / 8.0, int(np.prod(case.shape[:2]))).reshape(case.shape)
    sign = rng.choice([-1.0, 1.0], size=case.shape[:2] + (1,) * case.nsp)
    return round_to(x * sign, dt)


def _typed_pool_desc(case, mode):
    pd = pool_desc(case, mode)
    if mode == mi.miopenPoolingMax:
        mi.setPoolingIndexType(pd, mi.miopenIndexUint16)
    return pd


def _typed_forward(handle, case, mode, dt, layout, x, alpha=1.0, beta=0.0, y0=None):
    pd = _typed_pool_desc(case, mode)
    xp = Placed(handle, x, dt, layout)
    yp = Placed(handle, poison(case.out_shape, dt) if y0 is None else y0, dt, layout)
    size = mi.poolingGetWorkSpaceSizeV2(pd, yp.desc)
    ws = mi.DeviceBuffer(handle, max(size, 1))
    mi.poolingForward(handle, pd, alpha, xp.desc, xp.buf, beta, yp.desc, yp.buf, True, ws, size)
    return pd, xp, yp, ws


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", TYPED_CASES, ids=str)
def test_typed_forward_matches_torch(handle, rng, case, mode, dt, layout):
    x = _typed_x(case, mode, dt, rng)
    pd, xp, yp, ws = _typed_forward(handle, case, mode, dt, layout, x)
    expect = expected_forward(case, mode, as64(x))
    y = yp.result()
    if mode == mi.miopenPoolingMax:
        assert np.array_equal(as64(y), expect)
        idx = ref.forward(as64(x), ref.MAX, case.window, case.pad, case.stride)
        want = idx[2] if case.nsp == 2 else idx[1]     # MIOpen's default: mask 2-d, image 3-d
        got = ws.to_numpy(case.out_shape, np.uint16)
        assert np.array_equal(got, want)
    else:
        check_close(y, expect, dt, ulps=8 if dt == mi.miopenFloat else 1)
    assert xp.gaps_untouched() and yp.gaps_untouched()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", TYPED_CASES, ids=str)
def test_typed_backward_matches_torch_autograd(handle, rng, case, mode, dt, layout):
    x = _typed_x(case, mode, dt, rng)
    dy = random_stored(case.out_shape, dt, rng)
    expect = expected_backward(case, mode, as64(x), as64(dy))
    pd, xp, yp, ws = _typed_forward(handle, case, mode, dt, layout, x)
    dyp = Placed(handle, dy, dt, layout)
    for use_ws in ([True, False] if mode == mi.miopenPoolingMax else [True]):
        dxp = Placed(handle, poison(case.shape, dt), dt, layout)
        mi.poolingBackward(handle, pd, 1.0, yp.desc, yp.buf, dyp.desc, dyp.buf, xp.desc, xp.buf,
                           0.0, dxp.desc, dxp.buf, ws if use_ws else None)
        check_close(dxp.result(), expect, dt, ulps=8 if dt == mi.miopenFloat else 1,
                    err_msg=f"workspace={use_ws}")
        assert dxp.gaps_untouched()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_typed_alpha_beta_blend(handle, rng, mode, dt, layout):
    case = TYPED_CASES[1]
    x = _typed_x(case, mode, dt, rng)
    y0 = random_stored(case.out_shape, dt, rng)
    _, _, yp, _ = _typed_forward(handle, case, mode, dt, layout, x, alpha=1.5, beta=-0.5, y0=y0)
    expect = 1.5 * expected_forward(case, mode, as64(x)) - 0.5 * as64(y0)
    check_close(yp.result(), expect, dt, ulps=1)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", [TYPED_CASES[1], TYPED_CASES[5], Case((2, 20, 70, 66), 3, 1, 2)],
                         ids=str)
def test_typed_backward_same_bits_in_every_layout(handle, rng, case, mode, dt):
    # The channels-last backward kernels (CPU and GPU) add the same terms in the same order as
    # the NCHW ones: the same dx bits from the same data in either layout.
    x = _typed_x(case, mode, dt, rng)
    dy = random_stored(case.out_shape, dt, rng)
    got = {}
    for layout in ("nchw", "nhwc"):
        pd, xp, yp, ws = _typed_forward(handle, case, mode, dt, layout, x)
        dyp = Placed(handle, dy, dt, layout)
        dxp = Placed(handle, poison(case.shape, dt), dt, layout)
        mi.poolingBackward(handle, pd, 1.0, yp.desc, yp.buf, dyp.desc, dyp.buf, xp.desc, xp.buf,
                           0.0, dxp.desc, dxp.buf, ws)
        got[layout] = dxp.result()
    assert got["nchw"].tobytes() == got["nhwc"].tobytes()


def test_typed_bad_types_and_layouts_leave_outputs_untouched(handle, rng):
    case = TYPED_CASES[0]
    h16, b16 = mi.miopenHalf, mi.miopenBFloat16
    x = Placed(handle, random_stored(case.shape, h16, rng), h16, "nhwc")
    pd = _typed_pool_desc(case, mi.miopenPoolingMax)

    def fwd(xd, yp):
        mi.poolingForward(handle, pd, 1.0, xd, x.buf, 0.0, yp.desc, yp.buf, False, None, 0)

    bad = [
        (Placed(handle, poison(case.out_shape, b16), b16, "nhwc"), x.desc,
         "xDesc is miopenHalf but yDesc is miopenBFloat16"),
        (Placed(handle, np.zeros(case.out_shape, np.int8), mi.miopenInt8, "nchw"),
         desc(case.shape, x.strides, mi.miopenInt8), "xDesc has data type miopenInt8"),
        # an NDHWC tensor for a 2-d pooling descriptor
        (Placed(handle, poison(case.out_shape, h16), h16, "nhwc"),
         desc(case.shape[:2] + (1,) + case.shape[2:], None, h16), "xDesc has 5 dims"),
        # y's lengths in NHWC order rather than MIOpen's logical NCHW
        (Placed(handle, poison(tuple(np.array(case.out_shape)[[0, 2, 3, 1]]), h16), h16, "nchw"),
         x.desc, "yDesc has lengths"),
    ]
    for yp, xd, words in bad:
        before = yp.result()
        with pytest.raises(mi.BadParmError, match=words):
            fwd(xd, yp)
        assert np.array_equal(yp.result().view(np.uint8), before.view(np.uint8)), words
    # backward: dx's type must be x's
    y = Placed(handle, poison(case.out_shape, h16), h16, "nhwc")
    dy = Placed(handle, random_stored(case.out_shape, h16, rng), h16, "nhwc")
    dx = Placed(handle, poison(case.shape, b16), b16, "nhwc")
    with pytest.raises(mi.BadParmError, match="dxDesc is miopenBFloat16 but xDesc is miopenHalf"):
        mi.poolingBackward(handle, pd, 1.0, y.desc, y.buf, dy.desc, dy.buf, x.desc, x.buf, 0.0,
                           dx.desc, dx.buf, None)
    assert np.all(np.isnan(as64(dx.result())))


# ---- GPU: the channels-last kernel (pool_nhwc.hip) equals the generic kernel bit for bit --------
# The same NHWC data at an aligned address (the channels-last kernel) and one element further on
# (misaligned: the generic kernel), in every type: the same y, index workspace and dx bits.

def _nhwc_at(h, a, offset):
    """A DeviceBuffer holding the NHWC bytes of logical array `a` `offset` elements in; its
    address there."""
    phys = np.ascontiguousarray(np.moveaxis(a, 1, -1)).reshape(-1)
    host = np.concatenate([np.zeros(offset, a.dtype), phys])
    buf = mi.DeviceBuffer.from_numpy(h, host)
    return buf, buf.ptr + offset * a.dtype.itemsize


def _nhwc_back(buf, shape, dtype, offset):
    phys_shape = (shape[0],) + tuple(shape[2:]) + (shape[1],)
    raw = buf.to_numpy((offset + int(np.prod(shape)),), dtype)[offset:]
    return np.moveaxis(raw.reshape(phys_shape), -1, 1)


@requires_gpu
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("case", [TYPED_CASES[1], TYPED_CASES[5],
                                  # the backward's 4 quads a thread: 5 quads (a thread's last
                                  # quads past C), 16 quads (every quad of a thread in C)
                                  Case((2, 20, 9, 11), 3, 1, 2), Case((2, 64, 10, 12), 3, 1, 2),
                                  # the forward's K x K kernel (K = 2, 3; pad < K; 8 channels a
                                  # thread for fp16/bf16 where C % 8 == 0, else 4 or, C = 12 in
                                  # 16 bits, the general channels-last kernel): 2x2 with pad 1,
                                  # 3x3 with pad 2 and stride 3, 3x3 stride 1
                                  Case((2, 16, 7, 9), 2, 1, 1), Case((1, 24, 10, 11), 3, 2, 3),
                                  Case((3, 12, 6, 5), 3, 1, 1)],
                         ids=str)
def test_nhwc_kernel_equals_the_generic_kernel_bit_for_bit(rng, case, mode, dt):
    h = mi.Handle(device="gpu")
    layout = mi.miopenTensorNHWC if case.nsp == 2 else mi.miopenTensorNDHWC

    def tdesc(shape):
        d = mi.TensorDescriptor()
        mi.setNdTensorDescriptorWithLayout(d, dt, layout, list(shape), len(shape))
        return d

    x = _typed_x(case, mode, dt, rng)
    y0 = random_stored(case.out_shape, dt, rng)
    dy = random_stored(case.out_shape, dt, rng)
    dx0 = random_stored(case.shape, dt, rng)
    xd, yd = tdesc(case.shape), tdesc(case.out_shape)
    pd = _typed_pool_desc(case, mode)
    size = max(mi.poolingGetWorkSpaceSizeV2(pd, yd), 1)
    out = {}
    for offset in (0, 1):                   # 0: aligned, pool_nhwc; 1: misaligned, generic
        xb, xp = _nhwc_at(h, x, offset)
        yb, yp = _nhwc_at(h, y0, offset)
        dyb, dyp = _nhwc_at(h, dy, offset)
        dxb, dxp = _nhwc_at(h, dx0, offset)
        ws = mi.DeviceBuffer.from_numpy(h, np.zeros(size, np.uint8))
        mi.poolingForward(h, pd, 1.5, xd, xp, 0.5, yd, yp, True, ws, size)
        mi.poolingBackward(h, pd, 2.0, yd, yp, yd, dyp, xd, xp, -0.25, xd, dxp, ws)
        out[offset] = (_nhwc_back(yb, case.out_shape, y0.dtype, offset),
                       ws.to_numpy((size,), np.uint8),
                       _nhwc_back(dxb, case.shape, dx0.dtype, offset))
    for a, b, what in zip(out[0], out[1], ("y", "workspace", "dx")):
        assert a.tobytes() == b.tobytes(), what
    expect = 1.5 * expected_forward(case, mode, as64(x)) + 0.5 * as64(y0)
    check_close(out[0][0], expect, dt, ulps=8 if dt == mi.miopenFloat else 2)


# ---- determinism, logging ---------------------------------------------------------------------

def test_results_do_not_depend_on_the_thread_count(tmp_path):
    script = textwrap.dedent("""
        import hashlib, numpy as np, miopen_cy as mi
        h = mi.Handle(device="cpu")
        rng = np.random.default_rng(0)
        out = []
        for mode in (0, 1, 2):
            pd = mi.PoolingDescriptor()
            mi.set2dPoolingDescriptor(pd, mode, 3, 3, 1, 1, 2, 2)
            xd = mi.TensorDescriptor(); mi.setTensorDescriptor(xd, mi.miopenFloat, 4, [4, 16, 40, 40], None)
            yd = mi.TensorDescriptor(); mi.setTensorDescriptor(yd, mi.miopenFloat, 4, [4, 16, 20, 20], None)
            x = rng.standard_normal((4, 16, 40, 40)).astype(np.float32)
            dy = rng.standard_normal((4, 16, 20, 20)).astype(np.float32)
            y = np.empty((4, 16, 20, 20), np.float32); dx = np.empty_like(x)
            ws = np.empty(max(mi.poolingGetWorkSpaceSizeV2(pd, yd), 1), np.uint8)
            mi.poolingForward(h, pd, 1.0, xd, x, 0.0, yd, y, True, ws, ws.nbytes)
            mi.poolingBackward(h, pd, 1.0, yd, y, yd, dy, xd, x, 0.0, xd, dx, ws)
            out += [y.tobytes(), dx.tobytes()]
        print(hashlib.sha256(b"".join(out)).hexdigest())
    """)
    path = tmp_path / "det.py"
    path.write_text(script)
    digests = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        digests.add(subprocess.run([sys.executable, str(path)], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert len(digests) == 1


def test_enable_logging_prints_the_pooling_descriptor(handle, monkeypatch, capfd):
    pd = pool_desc(CASES[0], mi.miopenPoolingMax)
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING", "1")
    mi.poolingGetWorkSpaceSizeV2(pd, desc(CASES[0].out_shape))
    err = capfd.readouterr().err
    assert "miopenPoolingGetWorkSpaceSizeV2(poolDesc = 0x" in err
    assert ("{miopenPoolingMax, window=(3, 3), pads=(1, 1), strides=(2, 2), index=miopenIndexUint8, "
            "index_mode=miopenPoolingWorkspaceIndexMask}") in err
