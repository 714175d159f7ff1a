"""Issue 6, fourth round: the forward softmax a warp per row and the packed bias kernels.
- softmax_rows_warp (a warp per row; rows it does not take go to the block-per-row kernel):
  N x C rows of whole float4s up to 1024 long, every algorithm, both modes that give rows,
  alpha/beta, against PyTorch in float64 (tests/reference/softmax.py); rows that must fall back
  (C not a multiple of 4, C past 1024, rows whose stride breaks the alignment) give the same
  answer; the same bits on two runs.
- BiasFwdPacked (on packed y; y with gaps takes OpTensor's element-wise engine): y = alpha * y +
  alpha * b + beta * y, MIOpen's OpTensor definition, on 4-D and 5-D y, planes that are and are
  not whole float4s, against a float64 NumPy reference; y with gaps gives the same bits.
- BiasBwdNchw4 (on packed dy with planes of whole float4s, else the group reduction): the
  per-channel sums of dy against float64, alpha/beta, the same bits on two runs.
Every test runs on each device present; outputs start NaN-poisoned or random."""
import numpy as np
import pytest

import miopen_cy as mi
from conftest import requires_gpu
from helpers import Strided, desc, poisoned, rel_l2
from miopen_cy.reference import softmax as ref

ALGOS = [mi.MIOPEN_SOFTMAX_FAST, mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_LOG]
CHANNEL, INSTANCE = mi.MIOPEN_SOFTMAX_MODE_CHANNEL, mi.MIOPEN_SOFTMAX_MODE_INSTANCE
TOL = 1e-5


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


# ---- bias forward ----------------------------------------------------------------------------

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


# ---- bias backward ---------------------------------------------------------------------------

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
