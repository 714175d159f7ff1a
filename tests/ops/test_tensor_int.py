"""int8 and int32 arithmetic of the tensor calls, as MIOpen's accept it (src/ocl/tensorocl.cpp):
miopenOpTensor on int8 and int32, miopenScaleTensor on int32, miopenTransformTensor on int32 and
int8 (with MIOpen's int8 channel padding / cropping), against an int64 NumPy reference of MIOpen's
integer kernels: every scaled operand, result and blend wraps to the type (two's complement), no
rounding, no saturation. Scaling factors are host floats that must be integers in the type's range.
Inputs span the whole range, so the products wrap; outputs start from a sentinel."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc

INT_TYPES = [pytest.param(mi.miopenInt8, np.int8, id="int8"),
             pytest.param(mi.miopenInt32, np.int32, id="int32")]
OPS = [mi.miopenTensorOpAdd, mi.miopenTensorOpMul, mi.miopenTensorOpMin, mi.miopenTensorOpMax]
SENTINEL = 77


def wrap(v, npt):
    """int64 values modulo 2^bits of npt, as npt (NumPy's integer cast wraps)."""
    return np.asarray(v, np.int64).astype(npt)


def full_range(shape, npt, rng):
    info = np.iinfo(npt)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.int64).astype(npt)


def op_reference(op, a1, A, a2, B, beta, C, npt):
    a = wrap(a1 * A.astype(np.int64), npt).astype(np.int64)
    b = wrap(a2 * B.astype(np.int64), npt).astype(np.int64)
    r = {mi.miopenTensorOpAdd: np.add, mi.miopenTensorOpMul: np.multiply,
         mi.miopenTensorOpMin: np.minimum, mi.miopenTensorOpMax: np.maximum}[op](a, b)
    r = wrap(r, npt)
    if beta != 0:
        r = wrap(r.astype(np.int64) + beta * C.astype(np.int64), npt)
    return r


class StridedInt:
    """An integer tensor inside a larger sentinel-filled buffer (gaps after each row and plane)."""

    def __init__(self, shape, npt, values=None, pad=(0, 1, 0, 3)):
        padded = tuple(s + (pad[i] if i < len(pad) else 0) for i, s in enumerate(shape))
        self.buf = np.full(padded, SENTINEL, npt)
        self.view = self.buf[tuple(slice(0, s) for s in shape)]
        if values is not None:
            self.view[...] = values
        self.strides = [s // np.dtype(npt).itemsize for s in self.view.strides]
        self.shape = shape

    def desc(self, dt):
        return desc(self.shape, self.strides, dt)

    def gaps_untouched(self):
        mask = np.ones(self.buf.shape, bool)
        mask[tuple(slice(0, s) for s in self.shape)] = False
        return bool(np.all(self.buf[mask] == SENTINEL))


@pytest.mark.parametrize("dt,npt", INT_TYPES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("bshape", [(2, 3, 4, 5), (1, 3, 1, 1), (1, 1, 1, 5), (1, 1, 1, 1)])
@pytest.mark.parametrize("a1,a2,beta", [(1, 1, 0), (3, -2, 0), (-1, 5, 2)])
def test_op_tensor_int_wraps_as_miopen(handle, rng, dt, npt, op, bshape, a1, a2, beta):
    shape = (2, 3, 4, 5)
    A, B, C = full_range(shape, npt, rng), full_range(bshape, npt, rng), full_range(shape, npt, rng)
    before = C.copy()
    if beta == 0:
        C[...] = SENTINEL
    mi.opTensor(handle, op, a1, desc(shape, dtype=dt), A, a2, desc(bshape, dtype=dt), B, beta,
                desc(shape, dtype=dt), C)
    np.testing.assert_array_equal(C, op_reference(op, a1, A, a2, B, beta, before, npt))


@pytest.mark.parametrize("dt,npt", INT_TYPES)
def test_op_tensor_int_strided_and_long(handle, rng, dt, npt):
    shape = (3, 4, 5, 6)
    A = StridedInt(shape, npt, full_range(shape, npt, rng))
    B = StridedInt((1, 4, 1, 1), npt, full_range((1, 4, 1, 1), npt, rng), pad=(0, 2))
    C = StridedInt(shape, npt, full_range(shape, npt, rng))
    before = C.view.copy()
    mi.opTensor(handle, mi.miopenTensorOpMul, 2, A.desc(dt), A.buf, -3, B.desc(dt), B.buf, 1,
                C.desc(dt), C.buf)
    expect = op_reference(mi.miopenTensorOpMul, 2, A.view, -3, B.view, 1, before, npt)
    np.testing.assert_array_equal(C.view, expect)
    assert C.gaps_untouched() and A.gaps_untouched()
    n = 3 * 70001                                  # the threaded CPU rows, the GPU grid stride
    A, B = full_range((n,), npt, rng), full_range((n,), npt, rng)
    C = np.full(n, SENTINEL, npt)
    d = desc((n,), dtype=dt)
    mi.opTensor(handle, mi.miopenTensorOpAdd, 7, d, A, 1, d, B, 0, d, C)
    np.testing.assert_array_equal(C, op_reference(mi.miopenTensorOpAdd, 7, A, 1, B, 0, C, npt))


def test_scale_tensor_int32_wraps(handle, rng):
    shape = (3, 4, 5, 2)
    y = StridedInt(shape, np.int32, full_range(shape, np.int32, rng))
    before = y.view.copy()
    mi.scaleTensor(handle, y.desc(mi.miopenInt32), y.buf, -3)
    np.testing.assert_array_equal(y.view, wrap(-3 * before.astype(np.int64), np.int32))
    assert y.gaps_untouched()


@pytest.mark.parametrize("dt,npt", INT_TYPES)
@pytest.mark.parametrize("alpha,beta", [(1, 0), (2, 0), (-3, 5)])
def test_transform_tensor_int_nchw_to_nhwc(handle, rng, dt, npt, alpha, beta):
    x = full_range((2, 3, 4, 5), npt, rng)
    yd = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(yd, dt, mi.miopenTensorNHWC, (2, 3, 4, 5), 4)
    y_nhwc = full_range((2, 4, 5, 3), npt, rng)
    before = y_nhwc.transpose(0, 3, 1, 2).astype(np.int64)
    if beta == 0:
        y_nhwc[...] = SENTINEL
    mi.transformTensor(handle, alpha, desc(x.shape, dtype=dt), x, beta, yd, y_nhwc)
    expect = wrap(wrap(alpha * x.astype(np.int64), npt).astype(np.int64) + beta * before, npt)
    np.testing.assert_array_equal(y_nhwc.transpose(0, 3, 1, 2), expect)


@pytest.mark.parametrize("xc,yc", [(3, 4), (1, 4), (5, 8), (8, 5), (4, 1), (12, 7)])
def test_transform_tensor_int8_pads_and_crops_channels(handle, rng, xc, yc):
    # MIOpen's int8 TransformTensor between tensors differing in C (NCHW_VECT_C): x's channels into
    # y's first ones and the rest of y zeroed, or y = x's first channels
    x = StridedInt((2, xc, 3, 5), np.int8, full_range((2, xc, 3, 5), np.int8, rng))
    y = StridedInt((2, yc, 3, 5), np.int8)
    mi.transformTensor(handle, 1.0, x.desc(mi.miopenInt8), x.buf, 0.0, y.desc(mi.miopenInt8), y.buf)
    c = min(xc, yc)
    np.testing.assert_array_equal(y.view[:, :c], x.view[:, :c])
    assert np.all(y.view[:, c:] == 0)
    assert y.gaps_untouched()


def test_int_bad_inputs_are_errors_naming_the_parameter_and_write_nothing(handle):
    d8, d32 = desc((2, 4, 3, 3), dtype=mi.miopenInt8), desc((2, 4, 3, 3), dtype=mi.miopenInt32)
    x8, x32 = np.ones((2, 4, 3, 3), np.int8), np.ones((2, 4, 3, 3), np.int32)
    y8, y32 = np.full_like(x8, SENTINEL), np.full_like(x32, SENTINEL)
    cases = [
        (lambda: mi.opTensor(handle, mi.miopenTensorOpAdd, 1.5, d8, x8, 1.0, d8, x8, 0.0, d8, y8),
         mi.BadParmError, r"alpha1 = 1.5 is not an integer in \[-128, 127\]"),
        (lambda: mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, d8, x8, 128.0, d8, x8, 0.0, d8, y8),
         mi.BadParmError, "alpha2 = 128 is not an integer"),
        (lambda: mi.opTensor(handle, mi.miopenTensorOpMul, 1.0, d32, x32, 1.0, d32, x32,
                             float("nan"), d32, y32), mi.BadParmError, "beta = nan is not an integer"),
        (lambda: mi.scaleTensor(handle, d32, y32, 2.0 ** 31), mi.BadParmError,
         r"alpha = 2.14748e\+09 is not an integer in \[-2147483648, 2147483647\]"),
        (lambda: mi.scaleTensor(handle, d8, y8, 2.0), mi.BadParmError,
         "yDesc has data type miopenInt8; miopenScaleTensor takes"),
        (lambda: mi.transformTensor(handle, 0.5, d32, x32, 0.0, d32, y32), mi.BadParmError,
         "alpha = 0.5 is not an integer"),
        (lambda: mi.transformTensor(handle, 1.0, d8, x8, 0.0, d32, y32), mi.BadParmError,
         "xDesc is miopenInt8 but yDesc is miopenInt32"),
        (lambda: mi.transformTensor(handle, 1.0, desc((2, 3, 3, 3), dtype=mi.miopenInt8),
                                    x8[:, :3].copy(), 0.0, desc((2, 6, 3, 3), dtype=mi.miopenInt8),
                                    np.full((2, 6, 3, 3), SENTINEL, np.int8)),
         mi.BadParmError, "yDesc has C = 6 for xDesc's C = 3"),
        (lambda: mi.transformTensor(handle, 1.0, desc((2, 3, 3, 3), dtype=mi.miopenInt8),
                                    x8[:, :3].copy(), 0.0, desc((2, 8, 3, 3), dtype=mi.miopenInt8),
                                    np.full((2, 8, 3, 3), SENTINEL, np.int8)),
         mi.BadParmError, "yDesc has C = 8 for xDesc's C = 3"),
        (lambda: mi.transformTensor(handle, 1.0, desc((2, 6, 3, 3), dtype=mi.miopenInt8),
                                    np.ones((2, 6, 3, 3), np.int8), 0.0, d8, y8),
         mi.BadParmError, "xDesc has C = 6 above yDesc's C = 4"),
        (lambda: mi.transformTensor(handle, 1.0, desc((2, 3, 3, 2), dtype=mi.miopenInt8),
                                    np.ones((2, 3, 3, 2), np.int8), 0.0, d8, y8),
         mi.BadParmError, "xDesc length 2 of dim 3 differs from yDesc's 3"),
        (lambda: mi.transformTensor(handle, 2.0, desc((2, 3, 3, 3), dtype=mi.miopenInt8),
                                    x8[:, :3].copy(), 0.0, d8, y8),
         mi.MIOpenNotImplementedError, "alpha = 2; miopenTransformTensor pads or crops"),
        (lambda: mi.transformTensor(handle, 1.0, d32, x32, 0.0, desc((2, 5, 3, 3), dtype=mi.miopenInt32),
                                    np.full((2, 5, 3, 3), SENTINEL, np.int32)),
         mi.BadParmError, "xDesc and yDesc have different lengths"),
    ]
    for call, exc, match in cases:
        with pytest.raises(exc, match=match):
            call()
    assert np.all(y8 == SENTINEL) and np.all(y32 == SENTINEL)
