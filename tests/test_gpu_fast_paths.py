"""The GPU fast paths of issue 6: DeviceBuffer.__dlpack__ / __dlpack_device__ (round trips with
NumPy and PyTorch), DLPack capsules passed as arguments, the PyTorch CUDA tensor fast path
(data_ptr read directly) and the dedicated 2-d pooling forward and backward (pool_fwd_2d,
pool_fwd_2d_quad, pool_bwd_2d) against the generic kernel (reached by reading x or dy with a W
stride of 2: same bits) and PyTorch, and
the short-rows softmax (rows of 256..1024 unit-stride elements) against PyTorch.
GPU tests skip where no GPU (or no GPU backend) is present; the DLPack tests on the CPU handle
run everywhere."""
import gc
import sys

import numpy as np
import pytest

import miopen_cy as mi
from conftest import GPU, requires_gpu
from helpers import desc, poisoned, rel_l2
from pool_helpers import MODES, out_shape, pool_id, run_bwd, run_fwd, torch_bwd, torch_fwd

import torch
from torch.utils.dlpack import to_dlpack

TORCH_CUDA = GPU and torch.cuda.is_available()
requires_torch_cuda = pytest.mark.skipif(not TORCH_CUDA, reason="needs PyTorch with CUDA and a GPU")


def relu_desc():
    d = mi.ActivationDescriptor()
    mi.setActivationDescriptor(d, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
    return d


# ---- DLPack export of DeviceBuffer, everywhere -----------------------------------------------

def test_cpu_buffer_dlpack_round_trip_with_numpy_and_torch(rng):
    h = mi.Handle(device="cpu")
    a = rng.standard_normal(12).astype(np.float32)
    buf = mi.DeviceBuffer.from_numpy(h, a)
    assert buf.__dlpack_device__() == (1, 0)
    v = np.from_dlpack(buf)
    assert v.dtype == np.uint8 and v.shape == (buf.nbytes,)
    assert np.array_equal(v.view(np.float32), a)
    t = torch.from_dlpack(buf)
    assert t.data_ptr() == buf.ptr                       # a view, not a copy
    t.view(torch.float32).mul_(2.0)
    assert np.array_equal(buf.to_numpy((12,), np.float32), 2.0 * a)


def test_dlpack_capsule_keeps_the_buffer_alive():
    h = mi.Handle(device="cpu")
    buf = mi.DeviceBuffer.from_numpy(h, np.arange(4, dtype=np.float32))
    before = sys.getrefcount(buf)
    cap = buf.__dlpack__()
    assert sys.getrefcount(buf) == before + 1
    del cap                                              # never consumed: the capsule frees it
    gc.collect()
    assert sys.getrefcount(buf) == before
    t = torch.from_dlpack(buf)
    del buf
    gc.collect()
    assert torch.equal(t.view(torch.float32), torch.arange(4, dtype=torch.float32))


def test_dlpack_export_rejects_copy_and_other_devices():
    buf = mi.DeviceBuffer(mi.Handle(device="cpu"), 8)
    with pytest.raises(BufferError, match="copy"):
        buf.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="dl_device"):
        buf.__dlpack__(dl_device=(2, 0))


def test_dlpack_capsules_are_accepted_as_arguments_on_the_cpu(rng):
    h = mi.Handle(device="cpu")
    x = torch.from_numpy(rng.standard_normal((2, 3, 4, 5)).astype(np.float32))
    y = torch.full_like(x, float("nan"))
    d = desc(x.shape)
    mi.activationForward(h, relu_desc(), 1.0, d, to_dlpack(x), 0.0, d, to_dlpack(y))
    assert torch.equal(y, torch.relu(x))


def test_a_dlpack_capsule_of_the_wrong_dtype_is_refused_and_nothing_is_written():
    h = mi.Handle(device="cpu")
    x = torch.ones((2, 3), dtype=torch.float64)
    y = torch.full((2, 3), float("nan"))
    d = desc((2, 3))
    with pytest.raises(mi.BadParmError, match="xDesc|x: array dtype"):
        mi.activationForward(h, relu_desc(), 1.0, d, to_dlpack(x), 0.0, d, to_dlpack(y))
    assert torch.isnan(y).all()


# ---- GPU: DLPack and the PyTorch fast path ---------------------------------------------------

@requires_torch_cuda
def test_gpu_buffer_dlpack_round_trip_with_torch(rng):
    h = mi.Handle(device="gpu")
    a = rng.standard_normal(64).astype(np.float32)
    buf = mi.DeviceBuffer.from_numpy(h, a)
    assert buf.__dlpack_device__()[1] == torch.cuda.current_device()
    assert buf.__dlpack_device__()[0] in (2, 10)
    t = torch.from_dlpack(buf)
    assert t.is_cuda and t.data_ptr() == buf.ptr
    f = t.view(torch.float32)
    assert np.array_equal(f.cpu().numpy(), a)
    f.add_(1.0)
    torch.cuda.synchronize()
    assert np.array_equal(buf.to_numpy((64,), np.float32), a + 1.0)
    # and back: the torch view of the buffer as an argument of a call
    y = torch.full((64,), float("nan"), device="cuda")
    d = desc((1, 1, 8, 8))
    mi.activationForward(h, relu_desc(), 1.0, d, f, 0.0, d, y)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.relu(f))


@requires_torch_cuda
def test_torch_fast_path_matches_torch_and_the_buffer_path(rng):
    h = mi.Handle(device="gpu")
    a = rng.standard_normal((4, 8, 16, 16)).astype(np.float32)
    x = torch.from_numpy(a).cuda()
    y = torch.full_like(x, float("nan"))
    d = desc(a.shape)
    mi.activationForward(h, relu_desc(), 1.0, d, x, 0.0, d, y)
    xb, yb = mi.DeviceBuffer.from_numpy(h, a), mi.DeviceBuffer(h, a.nbytes)
    mi.activationForward(h, relu_desc(), 1.0, d, xb, 0.0, d, yb)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.relu(x))
    assert np.array_equal(yb.to_numpy(a.shape, np.float32), y.cpu().numpy())


@requires_torch_cuda
@pytest.mark.parametrize("what", ["strided", "dtype", "small"])
def test_torch_tensors_that_do_not_fit_are_refused_by_name(what):
    h = mi.Handle(device="gpu")
    d = desc((2, 3, 4, 4))
    x = torch.randn((2, 3, 4, 4), device="cuda")
    if what == "strided":
        x = torch.randn((2, 3, 4, 8), device="cuda")[..., ::2]
        pattern = "x: .*contiguous"
    elif what == "dtype":
        x = x.double()
        pattern = "x: array dtype"
    else:
        x = x[:1]
        pattern = "x: the buffer has"
    y = torch.full((2, 3, 4, 4), float("nan"), device="cuda")
    with pytest.raises(mi.BadParmError, match=pattern):
        mi.activationForward(h, relu_desc(), 1.0, d, x, 0.0, d, y)
    torch.cuda.synchronize()
    assert torch.isnan(y).all()


@requires_torch_cuda
def test_torch_fast_path_follows_torchs_current_stream(rng):
    h = mi.Handle(device="gpu")
    s = torch.cuda.Stream()
    a = rng.standard_normal((8, 1024)).astype(np.float32)
    d = desc((8, 1024, 1, 1))
    with torch.cuda.stream(s):
        x = torch.from_numpy(a).cuda(non_blocking=False) * 3.0     # produced on stream s
        y = torch.full_like(x, float("nan"))
        mi.activationForward(h, relu_desc(), 1.0, d, x, 0.0, d, y)
    mi.cyStreamSynchronize(h)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.relu(torch.from_numpy(a).cuda() * 3.0))


# ---- GPU: the 2-d pooling kernel against the generic one and PyTorch -------------------------

POOL_CASES = [  # (n, c, h, w), window, pad, stride
    ((2, 3, 17, 19), (3, 3), (1, 1), (2, 2)),
    ((2, 5, 16, 16), (2, 2), (0, 0), (2, 2)),
    ((1, 4, 33, 70), (3, 3), (1, 1), (1, 1)),
    ((3, 2, 13, 11), (5, 3), (2, 1), (3, 2)),      # any window: the K == 0 variant
    ((1, 2, 9, 40), (1, 4), (0, 2), (1, 3)),
    ((2, 3, 16, 24), (3, 3), (1, 1), (2, 2)),      # pair variant, float4 loads
    ((1, 2, 15, 21), (3, 3), (0, 0), (1, 2)),      # pair variant, scalar loads, odd out_w
    ((1, 3, 7, 5), (3, 3), (1, 1), (2, 2)),        # pair variant, narrower than a float4 row
]
@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
@pytest.mark.parametrize("case", POOL_CASES, ids=pool_id)
def test_pool_fwd_2d_equals_the_generic_kernel_bit_for_bit_and_matches_torch(rng, case, mode):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    y_direct, ws_direct = run_fwd(h, case, mode, x)
    y_again, ws_again = run_fwd(h, case, mode, x)
    y_generic, ws_generic = run_fwd(h, case, mode, x, generic=True)
    assert y_direct.tobytes() == y_again.tobytes() == y_generic.tobytes()
    assert ws_direct.tobytes() == ws_again.tobytes() == ws_generic.tobytes()
    assert rel_l2(y_direct, torch_fwd(case, mode, x)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("image", [False, True], ids=["mask", "image"])
@pytest.mark.parametrize("index_type", [mi.miopenIndexUint8, mi.miopenIndexUint16,
                                        mi.miopenIndexUint32, mi.miopenIndexUint64])
def test_pool_fwd_2d_indices_and_alpha_beta_equal_the_generic_kernel(rng, index_type, image):
    h = mi.Handle(device="gpu")
    case = ((2, 3, 12, 14), (3, 3), (1, 1), (2, 2))
    x = rng.standard_normal(case[0]).astype(np.float32)
    x[0, 0, 3, 4] = np.nan                                # NaN counts as the largest
    y0 = rng.standard_normal((2, 3, 6, 7)).astype(np.float32)
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


# ---- GPU: softmax on short contiguous rows ---------------------------------------------------

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


# ---- the dedicated 2-d pooling backward (pool_bwd_2d) -----------------------------------------

POOL_BWD_CASES = POOL_CASES + [
    ((2, 3, 20, 36), (2, 2), (0, 0), (2, 2)),      # 2x2 s2: the <2, 2> variant
    ((2, 2, 19, 45), (3, 3), (1, 1), (2, 2)),      # 3x3 s2 p1: the <3, 2> variant, odd sizes
    ((1, 3, 18, 33), (3, 3), (1, 1), (1, 1)),      # 3x3 s1 p1: the <3, 1> variant
    ((1, 2, 10, 12), (3, 3), (0, 0), (1, 1)),      # 3x3 s1, no padding
    ((1, 2, 14, 15), (2, 2), (1, 1), (3, 3)),      # stride > window: uncovered dx elements
    ((1, 2, 6, 150), (3, 3), (1, 1), (2, 2)),      # rows wider than one tile of dx
]


@requires_gpu
@pytest.mark.parametrize("mode", MODES, ids=["max", "avg", "avg_incl"])
@pytest.mark.parametrize("case", POOL_BWD_CASES, ids=pool_id)
def test_pool_bwd_2d_equals_the_generic_kernel_bit_for_bit_and_matches_torch(rng, case, mode):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    dy = rng.standard_normal(out_shape(case)).astype(np.float32)
    dx_direct = run_bwd(h, case, mode, x, dy)
    dx_again = run_bwd(h, case, mode, x, dy)
    dx_generic = run_bwd(h, case, mode, x, dy, generic=True)
    assert dx_direct.tobytes() == dx_again.tobytes() == dx_generic.tobytes()
    assert rel_l2(dx_direct, torch_bwd(case, mode, x, dy)) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("image", [False, True], ids=["mask", "image"])
@pytest.mark.parametrize("index_type", [mi.miopenIndexUint8, mi.miopenIndexUint16,
                                        mi.miopenIndexUint32, mi.miopenIndexUint64])
@pytest.mark.parametrize("case", [((2, 3, 12, 14), (3, 3), (1, 1), (2, 2)),
                                  ((1, 2, 9, 11), (3, 3), (1, 1), (1, 1)),
                                  ((2, 2, 8, 10), (2, 2), (0, 0), (2, 2))],
                         ids=pool_id)
def test_pool_bwd_2d_index_types_and_alpha_beta_equal_the_generic_kernel(
        rng, case, index_type, image):
    h = mi.Handle(device="gpu")
    x = rng.standard_normal(case[0]).astype(np.float32)
    dy = rng.standard_normal(out_shape(case)).astype(np.float32)
    dx0 = rng.standard_normal(case[0]).astype(np.float32)
    out = {}
    for kernel in ("direct", "generic"):
        out[kernel] = run_bwd(h, case, mi.miopenPoolingMax, x, dy, index_type=index_type,
                              image=image, alpha=1.5, beta=-0.5, dx0=dx0,
                              generic=kernel == "generic")
    assert out["direct"].tobytes() == out["generic"].tobytes()
    ref = 1.5 * torch_bwd(case, mi.miopenPoolingMax, x, dy) - 0.5 * dx0
    assert rel_l2(out["direct"], ref) <= 1e-6


@requires_gpu
@pytest.mark.parametrize("mode", [mi.miopenPoolingMax, mi.miopenPoolingAverage], ids=["max", "avg"])
def test_pool_bwd_2d_with_strided_rows_and_max_without_workspace(rng, mode):
    """Rows with gaps (H stride > W) take the direct kernel, only the tensor is written; max
    without a workspace takes the generic kernel (the argmax found again from x)."""
    from helpers import Strided
    h = mi.Handle(device="gpu")
    case = ((2, 3, 13, 17), (3, 3), (1, 1), (2, 2))
    x = rng.standard_normal(case[0]).astype(np.float32)
    dy_a = rng.standard_normal(out_shape(case)).astype(np.float32)
    ref = torch_bwd(case, mode, x, dy_a)
    pd = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(pd, mode, 3, 3, 1, 1, 2, 2)
    y, ws = run_fwd(h, case, mode, x)
    dx = Strided(case[0])
    dy = Strided(out_shape(case), fill=dy_a)
    dxb = mi.DeviceBuffer.from_numpy(h, dx.buf)
    mi.poolingBackward(h, pd, 1.0, desc(y.shape), mi.DeviceBuffer.from_numpy(h, y), dy.desc(),
                       mi.DeviceBuffer.from_numpy(h, dy.buf), desc(case[0]),
                       mi.DeviceBuffer.from_numpy(h, x), 0.0, dx.desc(), dxb,
                       mi.DeviceBuffer.from_numpy(h, ws))
    dx.buf[...] = dxb.to_numpy(dx.buf.shape, np.float32)
    assert dx.gaps_untouched()
    assert rel_l2(dx.view, ref) <= 1e-6
    generic = run_bwd(h, case, mode, x, dy_a, generic=True)
    assert np.ascontiguousarray(dx.view).tobytes() == generic.tobytes()
    if mode == mi.miopenPoolingMax:
        no_ws = run_bwd(h, case, mode, x, dy_a, use_ws=False)
        assert rel_l2(no_ws, ref) <= 1e-6
