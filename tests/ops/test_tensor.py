"""The whole-tensor ops (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
miopenTransformTensor) against PyTorch / float64 NumPy. The tensor descriptor calls are tested in
tests/api/test_tensor_descriptor.py."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

import miopen_cy as mi
from support.buffers import Strided, desc, poisoned, rel_l2


# ---- opTensor ------------------------------------------------------------------------------

TORCH_OPS = {
    mi.miopenTensorOpAdd: torch.add,
    mi.miopenTensorOpMul: torch.mul,
    mi.miopenTensorOpMin: torch.minimum,
    mi.miopenTensorOpMax: torch.maximum,
}


def _op_reference(op, a1, A, a2, B, beta, C):
    r = TORCH_OPS[op](a1 * torch.from_numpy(A.astype(np.float64)),
                      a2 * torch.from_numpy(B.astype(np.float64))).numpy()
    return r if beta == 0 else r + beta * C.astype(np.float64)


@pytest.mark.parametrize("op", list(TORCH_OPS))
@pytest.mark.parametrize("bshape", [(2, 3, 4, 5), (1, 3, 1, 1), (1, 1, 1, 5), (2, 1, 4, 1), (1, 1, 1, 1)])
def test_op_tensor_matches_torch_with_broadcast(handle, rng, op, bshape):
    shape = (2, 3, 4, 5)
    A = rng.standard_normal(shape).astype(np.float32)
    B = rng.standard_normal(bshape).astype(np.float32)
    C = poisoned(shape)
    mi.opTensor(handle, op, 1.5, desc(shape), A, -0.5, desc(bshape), B, 0.0, desc(shape), C)
    assert rel_l2(C, _op_reference(op, 1.5, A, -0.5, B, 0.0, C)) <= 1e-6


def test_op_tensor_beta_blends_and_strided_gaps_stay(handle, rng):
    shape = (3, 4, 5, 6)
    A, B, C = Strided(shape, rng), Strided((1, 4, 1, 1), rng, pad=(0, 2)), Strided(shape, rng)
    before = C.view.copy()
    mi.opTensor(handle, mi.miopenTensorOpMul, 2.0, A.desc(), A.buf, 0.5, B.desc(), B.buf, 0.25,
                C.desc(), C.buf)
    expect = _op_reference(mi.miopenTensorOpMul, 2.0, A.view, 0.5, B.view, 0.25, before)
    assert rel_l2(C.view, expect) <= 1e-6
    assert C.gaps_untouched() and A.gaps_untouched()


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


def test_double_tensor_is_not_implemented(handle):
    d = desc((4,), dtype=mi.miopenDouble)
    y = np.zeros(4, np.float64)
    with pytest.raises(mi.MIOpenNotImplementedError, match="miopenDouble"):
        mi.setTensor(handle, d, y, 1.0)
    assert np.all(y == 0)


# ---- set / scale / transform ---------------------------------------------------------------

def test_set_tensor_strided(handle):
    y = Strided((3, 4, 5), fill=0.0)
    mi.setTensor(handle, y.desc(), y.buf, 2.5)
    assert np.all(y.view == 2.5) and y.gaps_untouched()


def test_scale_tensor_strided(handle, rng):
    y = Strided((3, 4, 5, 2), rng)
    before = y.view.astype(np.float64)
    mi.scaleTensor(handle, y.desc(), y.buf, -3.0)
    assert rel_l2(y.view, -3.0 * before) <= 1e-7 and y.gaps_untouched()


@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_transform_tensor_nchw_to_nhwc(handle, rng, beta):
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    yd = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(yd, mi.miopenFloat, mi.miopenTensorNHWC, (2, 3, 4, 5), 4)
    y_nhwc = poisoned((2, 4, 5, 3)) if beta == 0 else rng.standard_normal((2, 4, 5, 3)).astype(np.float32)
    before = y_nhwc.transpose(0, 3, 1, 2).astype(np.float64)
    mi.transformTensor(handle, 2.0, desc(x.shape), x, beta, yd, y_nhwc)
    expect = 2.0 * x + (beta * before if beta else 0)
    assert rel_l2(y_nhwc.transpose(0, 3, 1, 2), expect) <= 1e-7


def test_torch_tensors_are_accepted_in_place(handle):
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    y = torch.full((3, 4), float("nan"))
    mi.transformTensor(handle, 1.0, desc((3, 4)), x, 0.0, desc((3, 4)), y)
    assert torch.equal(x, y)
