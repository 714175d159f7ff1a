"""The whole-tensor ops (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
miopenTransformTensor) against PyTorch / float64 NumPy, in fp32, fp16 and bf16 (inputs stored in
the type, the oracle in float64 on the stored values; fp16/bf16 within 1 ulp of the type: fp32
arithmetic, one rounding), miopenSetTensor also in int8 and int32 (the int8/int32 arithmetic is in
test_tensor_int.py). The tensor descriptor calls are tested in tests/api/test_tensor_descriptor.py;
the CPU's conversion paths in test_tensor_conversions.py."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2
from support.dtypes import FLOAT_TYPES, as64, check_close, np_dtype, poison, random_stored


def check_typed(actual, expected, dt, l2=1e-6):
    """fp32: relative L2 `l2` (the fp32 tests' bound); fp16/bf16: 1 ulp of the type."""
    if int(dt) == int(mi.miopenFloat):
        assert rel_l2(actual, expected) <= l2
    else:
        check_close(actual, expected, dt, ulps=1)


# ---- opTensor ------------------------------------------------------------------------------

TORCH_OPS = {
    mi.miopenTensorOpAdd: torch.add,
    mi.miopenTensorOpMul: torch.mul,
    mi.miopenTensorOpMin: torch.minimum,
    mi.miopenTensorOpMax: torch.maximum,
}


def _op_reference(op, a1, A, a2, B, beta, C):
    r = TORCH_OPS[op](a1 * torch.from_numpy(as64(A)), a2 * torch.from_numpy(as64(B))).numpy()
    return r if beta == 0 else r + beta * as64(C)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("op", list(TORCH_OPS))
@pytest.mark.parametrize("bshape", [(2, 3, 4, 5), (1, 3, 1, 1), (1, 1, 1, 5), (2, 1, 4, 1), (1, 1, 1, 1)])
def test_op_tensor_matches_torch_with_broadcast(handle, rng, op, bshape, dt):
    shape = (2, 3, 4, 5)
    A = random_stored(shape, dt, rng)
    B = random_stored(bshape, dt, rng)
    C = poison(shape, dt)
    mi.opTensor(handle, op, 1.5, desc(shape, dtype=dt), A, -0.5, desc(bshape, dtype=dt), B, 0.0,
                desc(shape, dtype=dt), C)
    check_typed(C, _op_reference(op, 1.5, A, -0.5, B, 0.0, C), dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("op", list(TORCH_OPS))
@pytest.mark.parametrize("shape,bshape", [((2, 3, 4, 8), (1, 3, 1, 1)), ((2, 5, 3, 4, 8), (1, 5, 1, 1, 1)),
                                          ((3, 4, 40, 56), (1, 4, 1, 1)), ((2, 3, 4, 8), (1, 1, 1, 1))],
                         ids=["4d", "5d", "chunked", "scalar"])
@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_op_tensor_per_channel_broadcast_on_whole_vectors(handle, rng, op, shape, bshape, beta, dt):
    # (n, c) planes of whole 16-byte vectors: on the GPU the 16-bit types take OpTensorChannel
    # (several blocks a plane in "chunked"); in place (A is C) as the forward bias calls it
    A = random_stored(shape, dt, rng)
    B = random_stored(bshape, dt, rng)
    C = random_stored(shape, dt, rng) if beta else poison(shape, dt)
    before = C.copy()
    mi.opTensor(handle, op, 1.5, desc(shape, dtype=dt), A, -0.5, desc(bshape, dtype=dt), B, beta,
                desc(shape, dtype=dt), C)
    check_typed(C, _op_reference(op, 1.5, A, -0.5, B, beta, before), dt)
    expect = _op_reference(op, 2.0, A, 1.0, B, beta, A)
    mi.opTensor(handle, op, 2.0, desc(shape, dtype=dt), A, 1.0, desc(bshape, dtype=dt), B, beta,
                desc(shape, dtype=dt), A)
    check_typed(A, expect, dt)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_op_tensor_beta_blends_and_strided_gaps_stay(handle, rng, dt):
    shape = (3, 4, 5, 6)
    npt = np_dtype(dt)
    A, B = Strided(shape, rng, dtype=npt), Strided((1, 4, 1, 1), rng, pad=(0, 2), dtype=npt)
    C = Strided(shape, rng, dtype=npt)
    before = C.view.copy()
    mi.opTensor(handle, mi.miopenTensorOpMul, 2.0, A.desc(dt), A.buf, 0.5, B.desc(dt), B.buf, 0.25,
                C.desc(dt), C.buf)
    expect = _op_reference(mi.miopenTensorOpMul, 2.0, A.view, 0.5, B.view, 0.25, before)
    check_typed(C.view, expect, dt)
    assert C.gaps_untouched() and A.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("n", [8 * 4096 + 7, 3 * 70001])
def test_op_tensor_long_rows_and_odd_tails(handle, rng, dt, n):
    # long packed rows (the packed and rows kernels' vector groups, the threaded CPU rows) and a
    # length that is no multiple of the vector width; beta blends
    A, B = random_stored((n,), dt, rng), random_stored((n,), dt, rng)
    C = random_stored((n,), dt, rng)
    before = C.copy()
    d = desc((n,), dtype=dt)
    mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, d, A, 2.0, d, B, -1.0, d, C)
    check_typed(C, _op_reference(mi.miopenTensorOpAdd, 1.0, A, 2.0, B, -1.0, before), dt)


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(1, 6), min_size=1, max_size=5), data=st.data())
def test_op_tensor_hypothesis_shapes(shape, data):
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(len(shape))
    bshape = [data.draw(st.sampled_from([1, s])) for s in shape]
    op = data.draw(st.sampled_from(list(TORCH_OPS)))
    A = rng.standard_normal(shape).astype(np.float32)
    B = rng.standard_normal(bshape).astype(np.float32)
    C = poisoned(shape)
    mi.opTensor(handle, op, 1.0, desc(shape), A, 1.0, desc(bshape), B, 0.0, desc(shape), C)
    assert rel_l2(C, _op_reference(op, 1.0, A, 1.0, B, 0.0, C)) <= 1e-6


def test_op_tensor_bad_inputs_leave_output_untouched(handle, rng):
    shape = (2, 3, 4, 5)
    A = rng.standard_normal(shape).astype(np.float32)
    C = poisoned(shape)
    cases = [
        (dict(op=7), mi.BadParmError, "tensorOp = 7"),
        (dict(bshape=(2, 2, 4, 5)), mi.BadParmError, "bDesc length 2 of dim 1"),
        (dict(bshape=(3, 4, 5)), mi.BadParmError, "bDesc has 3 dims"),
        (dict(ashape=(2, 3, 4, 4)), mi.BadParmError, "aDesc and cDesc have different lengths"),
        (dict(B=np.zeros(3, np.float32)), mi.BadParmError, "B: the buffer has 12 bytes"),
        (dict(B=A.astype(np.float64)), mi.BadParmError, "B: array dtype 'f8'"),
    ]
    for kw, exc, word in cases:
        ashape, bshape = kw.get("ashape", shape), kw.get("bshape", shape)
        B = kw.get("B", rng.standard_normal(bshape).astype(np.float32))
        with pytest.raises(exc, match=word):
            mi.opTensor(handle, kw.get("op", mi.miopenTensorOpAdd), 1.0, desc(ashape),
                        np.resize(A, ashape), 1.0, desc(bshape), B, 0.0, desc(shape), C)
        assert np.all(np.isnan(C)), kw
    readonly = np.zeros(shape, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(mi.BadParmError, match="read-only"):
        mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, desc(shape), A, 1.0, desc(shape), A, 0.0,
                    desc(shape), readonly)


def test_mixed_types_are_bad_parms_and_write_nothing(handle, rng):
    A = random_stored((2, 3), mi.miopenHalf, rng)
    C = poison((2, 3), mi.miopenFloat)
    with pytest.raises(mi.BadParmError, match="aDesc is miopenHalf but cDesc is miopenFloat"):
        mi.opTensor(handle, mi.miopenTensorOpAdd, 1.0, desc((2, 3), dtype=mi.miopenHalf), A, 1.0,
                    desc((2, 3)), C, 0.0, desc((2, 3)), C)
    with pytest.raises(mi.BadParmError, match="xDesc is miopenHalf but yDesc is miopenFloat"):
        mi.transformTensor(handle, 1.0, desc((2, 3), dtype=mi.miopenHalf), A, 0.0, desc((2, 3)), C)
    assert np.all(np.isnan(C))


def test_double_tensor_is_not_implemented(handle):
    d = desc((4,), dtype=mi.miopenDouble)
    y = np.zeros(4, np.float64)
    with pytest.raises(mi.MIOpenNotImplementedError, match="miopenDouble"):
        mi.setTensor(handle, d, y, 1.0)
    assert np.all(y == 0)


# ---- set / scale / transform ---------------------------------------------------------------

ALL_TYPES = FLOAT_TYPES + [pytest.param(mi.miopenInt8, id="int8"),
                           pytest.param(mi.miopenInt32, id="int32")]


@pytest.mark.parametrize("dt", ALL_TYPES)
def test_set_tensor_strided(handle, dt):
    npt = np_dtype(dt)
    integer = np.issubdtype(npt, np.integer)
    value, gap = (-3, 99) if integer else (2.5, 7.0)
    for shape, padded in [((3, 4, 5), (3, 5, 8)), ((2, 4099), (2, 4099))]:  # strided; packed
        buf = np.full(padded, gap, npt)
        view = buf[tuple(slice(0, s) for s in shape)]
        mi.setTensor(handle, desc(shape, [st // npt.itemsize for st in view.strides], dt), buf,
                     value)
        assert np.all(as64(view) == value)
        view[...] = gap
        assert np.all(as64(buf) == gap)       # nothing outside the view was written
    y = np.zeros(3, npt)
    fine = 5 if integer else 1.0 + 2.0 ** -12
    mi.setTensor(handle, desc((3,), dtype=dt), y, fine)
    expect = np.full(3, fine, npt) if integer else np.full(3, np.float32(fine)).astype(npt)
    assert np.array_equal(y.view(np.uint8), expect.view(np.uint8))   # rounded once, to even


@pytest.mark.parametrize("dt,bad", [(mi.miopenInt8, 128), (mi.miopenInt8, 1.5),
                                    (mi.miopenInt32, 2.0 ** 31), (mi.miopenInt32, float("nan"))])
def test_set_tensor_integer_value_must_fit(handle, dt, bad):
    y = np.full(4, 7, np_dtype(dt))
    with pytest.raises(mi.BadParmError, match="alpha = .* is not an integer"):
        mi.setTensor(handle, desc((4,), dtype=dt), y, bad)
    assert np.all(y == 7)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_scale_tensor_strided(handle, rng, dt):
    y = Strided((3, 4, 5, 2), rng, dtype=np_dtype(dt))
    before = as64(y.view)
    mi.scaleTensor(handle, y.desc(dt), y.buf, -3.0)
    check_typed(y.view, -3.0 * before, dt, l2=1e-7)
    assert y.gaps_untouched()


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_transform_tensor_nchw_to_nhwc(handle, rng, beta, dt):
    x = random_stored((2, 3, 4, 5), dt, rng)
    yd = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(yd, dt, mi.miopenTensorNHWC, (2, 3, 4, 5), 4)
    y_nhwc = poison((2, 4, 5, 3), dt) if beta == 0 else random_stored((2, 4, 5, 3), dt, rng)
    before = as64(y_nhwc.transpose(0, 3, 1, 2))
    mi.transformTensor(handle, 2.0, desc(x.shape, dtype=dt), x, beta, yd, y_nhwc)
    expect = 2.0 * as64(x) + (beta * before if beta else 0)
    check_typed(y_nhwc.transpose(0, 3, 1, 2), expect, dt, l2=1e-7)


def test_torch_tensors_are_accepted_in_place(handle):
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    y = torch.full((3, 4), float("nan"))
    mi.transformTensor(handle, 1.0, desc((3, 4)), x, 0.0, desc((3, 4)), y)
    assert torch.equal(x, y)
