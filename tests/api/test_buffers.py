"""Data arguments of every storage type and layout (buffers.pxi, issue 17 item 5): NumPy float16,
ml_dtypes.bfloat16 arrays, PyTorch bf16 tensors through DLPack, arrays whose lengths and element
strides equal the descriptor's (a channels_last tensor with an NHWC descriptor, a transposed NumPy
view) used in place, and the errors: a dtype other than the descriptor's names both, strides other
than the descriptor's are refused, nothing is written. Softmax is the op (it takes every type);
every test runs on each device present."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import softmax as ref
from support.buffers import desc
from support.devices import requires_gpu
from support.dtypes import BFLOAT16, as64, check_close, np_dtype, poison, random_stored

ACC, CHANNEL = mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_MODE_CHANNEL
needs_bf16 = pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes not installed")
TORCH_CUDA = torch.cuda.is_available()


def nhwc_desc(dt, shape):
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, dt, mi.miopenTensorNHWC, list(shape), 4)
    return d


def softmax(handle, xd, x, yd, y):
    mi.softmaxForward_V2(handle, 1.0, xd, x, 0.0, yd, y, ACC, CHANNEL)


def expected(x64):
    return ref.forward(x64, ACC, CHANNEL)


@pytest.mark.parametrize("dt", [mi.miopenHalf, pytest.param(mi.miopenBFloat16, marks=needs_bf16)],
                         ids=["float16", "bfloat16"])
def test_numpy_16_bit_arrays(handle, rng, dt):
    shape = (2, 5, 3, 4)
    x = random_stored(shape, dt, rng)
    y = poison(shape, dt)
    assert x.dtype == np_dtype(dt)
    softmax(handle, desc(shape, dtype=dt), x, desc(shape, dtype=dt), y)
    check_close(y, expected(as64(x)), dt, 1.0, floor=1e-3)


def test_torch_bf16_tensors_through_dlpack(handle, rng):
    shape = (2, 7, 3, 3)
    tx = torch.randn(shape, dtype=torch.float32).to(torch.bfloat16)
    ty = torch.full(shape, float("nan"), dtype=torch.bfloat16)
    d = desc(shape, dtype=mi.miopenBFloat16)
    softmax(handle, d, tx, d, ty)
    want = torch.softmax(tx.double(), dim=1).numpy()
    check_close(ty.float().numpy(), want, mi.miopenBFloat16, 1.0, floor=1e-3)


def test_torch_channels_last_tensor_with_an_nhwc_descriptor_is_used_in_place(handle):
    shape = (2, 6, 5, 3)
    tx = torch.randn(shape).to(torch.float16).contiguous(memory_format=torch.channels_last)
    ty = torch.full(shape, float("nan"), dtype=torch.float16).contiguous(memory_format=torch.channels_last)
    assert not tx.is_contiguous()
    d = nhwc_desc(mi.miopenHalf, shape)
    softmax(handle, d, tx, d, ty)
    want = torch.softmax(tx.double(), dim=1).numpy()
    check_close(ty.float().numpy(), want, mi.miopenHalf, 1.0, floor=1e-3)


@pytest.mark.parametrize("dt", [mi.miopenFloat, mi.miopenHalf,
                                pytest.param(mi.miopenBFloat16, marks=needs_bf16)],
                         ids=["float32", "float16", "bfloat16"])
def test_numpy_view_with_the_descriptor_strides_is_used_in_place(handle, rng, dt):
    n, c, h, w = 2, 40, 3, 5
    x_nhwc = random_stored((n, h, w, c), dt, rng)
    y_nhwc = poison((n, h, w, c), dt)
    x, y = x_nhwc.transpose(0, 3, 1, 2), y_nhwc.transpose(0, 3, 1, 2)    # logical NCHW views
    assert not y.flags.c_contiguous
    d = nhwc_desc(dt, (n, c, h, w))
    softmax(handle, d, x, d, y)
    ulps = 64.0 if dt == mi.miopenFloat else 1.0
    check_close(y_nhwc, expected(as64(x_nhwc).transpose(0, 3, 1, 2)).transpose(0, 2, 3, 1), dt, ulps,
                floor=1e-3)


def test_strides_other_than_the_descriptor_are_refused_and_nothing_is_written(handle, rng):
    shape = (2, 6, 5, 3)
    x = random_stored(shape, mi.miopenHalf, rng)
    y_nhwc = poison((2, 5, 3, 6), mi.miopenHalf)
    with pytest.raises(mi.BadParmError, match="y: the array is not C-contiguous and its strides are "
                                              "not the descriptor's"):
        softmax(handle, desc(shape, dtype=mi.miopenHalf), x, desc(shape, dtype=mi.miopenHalf),
                y_nhwc.transpose(0, 3, 1, 2))          # an NHWC view, an NCHW descriptor
    with pytest.raises(mi.BadParmError, match="not C-contiguous"):
        softmax(handle, nhwc_desc(mi.miopenHalf, shape), x[:, :, :, ::-1],
                nhwc_desc(mi.miopenHalf, shape), y_nhwc.transpose(0, 3, 1, 2))
    with pytest.raises(mi.BadParmError, match="not C-contiguous"):    # the right strides, other lengths
        softmax(handle, nhwc_desc(mi.miopenHalf, (2, 6, 5, 2)), x,
                nhwc_desc(mi.miopenHalf, (2, 6, 5, 2)), y_nhwc.transpose(0, 3, 1, 2)[:, :, :, :2])
    assert np.all(np.isnan(as64(y_nhwc)))


@pytest.mark.parametrize("make,words", [
    (lambda x: x.astype(np.float32), r"x: array dtype 'f4' \(float32\) does not match the "
                                     r"descriptor's miopenHalf \(float16\)"),
    (lambda x: x.astype(np.float64), r"'f8' \(float64\) does not match the descriptor's miopenHalf"),
    (lambda x: torch.from_numpy(x.astype(np.float32)), r"'f4' \(float32\) does not match"),
    pytest.param(lambda x: x.astype(np.float32).astype(BFLOAT16),
                 r"'V2' \(bfloat16\) does not match the descriptor's miopenHalf \(float16\)",
                 marks=needs_bf16),
    (lambda x: torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16),
     r"'V2' \(bfloat16\) does not match the descriptor's miopenHalf"),
], ids=["numpy-f32", "numpy-f64", "torch-f32", "ml_dtypes-bf16", "torch-bf16"])
def test_a_dtype_other_than_the_descriptor_names_both(handle, rng, make, words):
    shape = (2, 5, 3, 4)
    x = random_stored(shape, mi.miopenHalf, rng)
    y = poison(shape, mi.miopenHalf)
    d = desc(shape, dtype=mi.miopenHalf)
    with pytest.raises(mi.BadParmError, match=words):
        softmax(handle, d, make(x), d, y)
    assert np.all(np.isnan(as64(y)))


@needs_bf16
def test_bf16_descriptor_refuses_float16_data(handle, rng):
    shape = (2, 5, 3, 4)
    d = desc(shape, dtype=mi.miopenBFloat16)
    y = poison(shape, mi.miopenBFloat16)
    with pytest.raises(mi.BadParmError, match=r"x: array dtype 'f2' \(float16\) does not match the "
                                              r"descriptor's miopenBFloat16 \(bfloat16\)"):
        softmax(handle, d, random_stored(shape, mi.miopenHalf, rng), d, y)
    assert np.all(np.isnan(as64(y)))


# ---- PyTorch CUDA tensors on a GPU handle: used in place ----------------------------------------

requires_torch_cuda = pytest.mark.skipif(not TORCH_CUDA, reason="needs PyTorch with CUDA and a GPU")


@requires_gpu
@requires_torch_cuda
@pytest.mark.parametrize("ttype,dt", [(torch.float16, mi.miopenHalf), (torch.bfloat16, mi.miopenBFloat16),
                                      (torch.float32, mi.miopenFloat)], ids=["fp16", "bf16", "fp32"])
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_torch_cuda_tensors_of_every_type_and_layout_in_place(ttype, dt, layout):
    import warnings
    h = mi.Handle(device="gpu")
    shape = (4, 24, 7, 5)
    fmt = torch.channels_last if layout == "NHWC" else torch.contiguous_format
    tx = torch.randn(shape, device="cuda").to(ttype).contiguous(memory_format=fmt)
    ty = torch.full(shape, float("nan"), device="cuda", dtype=ttype).contiguous(memory_format=fmt)
    d = nhwc_desc(dt, shape) if layout == "NHWC" else desc(shape, dtype=dt)
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # in place: no staging warning
        softmax(h, d, tx, d, ty)
    mi.cyStreamSynchronize(h)
    want = torch.softmax(tx.double(), dim=1).cpu().numpy()
    check_close(ty.float().cpu().numpy(), want, dt, 64.0 if dt == mi.miopenFloat else 1.0, floor=1e-3)


@requires_gpu
@requires_torch_cuda
def test_torch_cuda_bf16_of_the_wrong_dtype_or_strides_is_a_bad_parm():
    h = mi.Handle(device="gpu")
    shape = (2, 8, 3, 3)
    tx = torch.randn(shape, device="cuda").to(torch.bfloat16)
    ty = torch.full(shape, float("nan"), device="cuda", dtype=torch.bfloat16)
    with pytest.raises(mi.BadParmError, match=r"'V2' \(bfloat16\) does not match the descriptor's miopenHalf"):
        softmax(h, desc(shape, dtype=mi.miopenHalf), tx, desc(shape, dtype=mi.miopenHalf), ty)
    with pytest.raises(mi.BadParmError, match="not C-contiguous"):
        d = desc(shape, dtype=mi.miopenBFloat16)
        softmax(h, d, tx, d, ty.contiguous(memory_format=torch.channels_last))
    assert torch.isnan(ty.float()).all()
