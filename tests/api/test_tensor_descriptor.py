"""Tensor descriptors (miopenSet4dTensorDescriptor[Ex], miopenSetTensorDescriptor,
miopenSetNdTensorDescriptorWithLayout and their getters): round trips, strides and sizes, bad values
named with the old state kept, unset and destroyed descriptors."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc


def test_set4d_and_get4d_round_trip():
    d = mi.TensorDescriptor()
    mi.set4dTensorDescriptor(d, mi.miopenFloat, 2, 3, 4, 5)
    assert mi.get4dTensorDescriptor(d) == (mi.miopenFloat, 2, 3, 4, 5, 60, 20, 5, 1)
    assert mi.getTensorDescriptorSize(d) == 4
    assert mi.getTensorNumBytes(d) == 2 * 3 * 4 * 5 * 4
    assert d.shape == (2, 3, 4, 5) and d.strides == (60, 20, 5, 1) and d.dtype == mi.miopenFloat


def test_set4d_ex_strides_and_num_bytes():
    d = mi.TensorDescriptor()
    mi.set4dTensorDescriptorEx(d, mi.miopenFloat, 2, 3, 4, 5, 100, 30, 6, 1)
    assert mi.getTensorDescriptor(d) == (mi.miopenFloat, (2, 3, 4, 5), (100, 30, 6, 1))
    # (largest offset + 1) * 4 bytes
    assert mi.getTensorNumBytes(d) == (1 * 100 + 2 * 30 + 3 * 6 + 4 + 1) * 4


@pytest.mark.parametrize("layout,lens,strides", [
    (mi.miopenTensorNCHW, (2, 3, 4, 5), (60, 20, 5, 1)),
    (mi.miopenTensorNHWC, (2, 3, 4, 5), (60, 1, 15, 3)),
    (mi.miopenTensorNCDHW, (2, 3, 4, 5, 6), (360, 120, 30, 6, 1)),
    (mi.miopenTensorNDHWC, (2, 3, 4, 5, 6), (360, 1, 90, 18, 3)),
])
def test_nd_with_layout_strides(layout, lens, strides):
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, mi.miopenFloat, layout, lens, len(lens))
    assert d.shape == lens and d.strides == strides


@pytest.mark.parametrize("args,word", [
    ((mi.miopenFloat, 0, 3, 4, 5), "n = 0"),
    ((mi.miopenFloat, 2, -1, 4, 5), "c = -1"),
    ((99, 2, 3, 4, 5), "dataType"),
])
def test_set4d_rejects_bad_values_and_keeps_the_old_state(args, word):
    d = desc((1, 2, 3, 4))
    with pytest.raises(mi.BadParmError, match=word):
        mi.set4dTensorDescriptor(d, *args)
    assert d.shape == (1, 2, 3, 4)


def test_nd_rejects_zero_stride_count_mismatch_and_overflow():
    d = mi.TensorDescriptor()
    with pytest.raises(mi.BadParmError, match="stridesA\\[1\\] = 0"):
        mi.setTensorDescriptor(d, mi.miopenFloat, 2, [2, 3], [3, 0])
    with pytest.raises(ValueError, match="dimsA has 2 entries but nbDims = 3"):
        mi.setTensorDescriptor(d, mi.miopenFloat, 3, [2, 3], None)
    with pytest.raises(mi.BadParmError, match="nbDims = 0"):
        mi.setTensorDescriptor(d, mi.miopenFloat, 0, [], None)
    with pytest.raises(mi.BadParmError, match="overflows"):
        mi.setTensorDescriptor(d, mi.miopenFloat, 4, [2**31 - 1] * 4, None)
    with pytest.raises(OverflowError, match="n = "):
        mi.set4dTensorDescriptor(d, mi.miopenFloat, 2**40, 1, 1, 1)
    with pytest.raises(TypeError, match="h must be an int"):
        mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 1, "3", 1)


def test_unset_and_destroyed_descriptors_raise(handle):
    d = mi.TensorDescriptor()
    with pytest.raises(mi.BadParmError, match="has not been set"):
        mi.getTensorNumBytes(d)
    x = np.ones(4, np.float32)
    with pytest.raises(mi.BadParmError, match="yDesc has not been set"):
        mi.setTensor(handle, d, x, 1.0)
    mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 1, 1, 4)
    mi.destroyTensorDescriptor(d)
    with pytest.raises(ValueError, match="destroyed"):
        mi.setTensor(handle, d, x, 1.0)
    with pytest.raises(ValueError, match="destroyed"):
        mi.destroyTensorDescriptor(d)
    assert repr(d) == "TensorDescriptor(destroyed)"
    with pytest.raises(mi.BadParmError, match="yDesc is null"):
        mi.setTensor(handle, None, x, 1.0)


def test_layout_vectorised_is_not_implemented_and_bad_layout_is_bad_parm():
    d = mi.TensorDescriptor()
    with pytest.raises(mi.MIOpenNotImplementedError):
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenFloat, mi.miopenTensorNCHWc4, [1, 4, 2, 2], 4)
    with pytest.raises(mi.BadParmError, match="tensorLayout = 42"):
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenFloat, 42, [1, 4, 2, 2], 4)
    with pytest.raises(mi.BadParmError, match="num_lens = 5"):
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenFloat, mi.miopenTensorNHWC, [1, 4, 2, 2, 2], 5)


# ---- layouts and types (issue 17 item 4): lengths in logical N, C, [D,] H, W order whatever the
# layout, strides from the layout (MIOpen's miopenSetNdTensorDescriptorWithLayout), read back by
# miopenGetTensorDescriptor / get4dTensorDescriptor and the read-only desc.layout ----------------

LAYOUT_CASES = [
    (mi.miopenTensorNCHW, (2, 3, 4, 5), (60, 20, 5, 1)),
    (mi.miopenTensorNHWC, (2, 3, 4, 5), (60, 1, 15, 3)),
    (mi.miopenTensorCHWN, (2, 3, 4, 5), (1, 40, 10, 2)),
    (mi.miopenTensorNCDHW, (2, 3, 4, 5, 6), (360, 120, 30, 6, 1)),
    (mi.miopenTensorNDHWC, (2, 3, 4, 5, 6), (360, 1, 90, 18, 3)),
]


@pytest.mark.parametrize("dtype", [mi.miopenFloat, mi.miopenHalf, mi.miopenBFloat16, mi.miopenInt8,
                                   mi.miopenInt32], ids=lambda t: mi.DataType(t).name)
@pytest.mark.parametrize("layout,lens,strides", LAYOUT_CASES, ids=lambda v: str(v))
def test_layout_strides_read_back_for_every_type(dtype, layout, lens, strides):
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, dtype, layout, list(lens), len(lens))
    assert mi.getTensorDescriptor(d) == (dtype, lens, strides)
    assert d.layout == layout and d.dtype == dtype
    size = {mi.miopenFloat: 4, mi.miopenInt32: 4, mi.miopenInt8: 1}.get(dtype, 2)
    assert mi.getTensorNumBytes(d) == int(np.prod(lens)) * size
    if len(lens) == 4:
        assert mi.get4dTensorDescriptor(d) == (dtype,) + lens + strides


def test_nhwc_descriptor_equals_the_same_strides_set_by_hand():
    a, b = mi.TensorDescriptor(), mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(a, mi.miopenHalf, mi.miopenTensorNHWC, [8, 64, 7, 9], 4)
    mi.set4dTensorDescriptorEx(b, mi.miopenHalf, 8, 64, 7, 9, 64 * 7 * 9, 1, 64 * 9, 64)
    assert mi.getTensorDescriptor(a) == mi.getTensorDescriptor(b)
    assert b.layout == mi.miopenTensorNHWC


def test_layout_of_other_strides_is_none_and_ties_go_to_nchw():
    assert desc((2, 3, 4, 5), (100, 30, 6, 1)).layout is None
    assert desc((4, 5)).layout is None
    assert desc((2, 1, 1, 1)).layout == mi.miopenTensorNCHW          # every layout fits: NCHW
    assert desc((2, 3, 1, 1), (3, 1, 3, 3)).layout == mi.miopenTensorNCHW


@pytest.mark.parametrize("layout,lens", [
    (mi.miopenTensorNCHW, [1, 2, 3]), (mi.miopenTensorNHWC, [1, 2, 3, 4, 5]),
    (mi.miopenTensorCHWN, [1, 2, 3, 4, 5]), (mi.miopenTensorNCDHW, [1, 2, 3, 4]),
    (mi.miopenTensorNDHWC, [1, 2, 3, 4]),
])
def test_layout_with_the_wrong_number_of_lens_is_bad_parm_and_keeps_the_old_state(layout, lens):
    d = desc((1, 2, 3, 4))
    with pytest.raises(mi.BadParmError, match=f"num_lens = {len(lens)}"):
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenHalf, layout, lens, len(lens))
    assert d.shape == (1, 2, 3, 4) and d.dtype == mi.miopenFloat


def test_layout_rejects_bad_lengths_and_types():
    d = mi.TensorDescriptor()
    with pytest.raises(mi.BadParmError, match="lens"):
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenHalf, mi.miopenTensorNHWC, [1, 0, 2, 2], 4)
    with pytest.raises(mi.BadParmError, match="dataType"):
        mi.setNdTensorDescriptorWithLayout(d, 4, mi.miopenTensorNHWC, [1, 2, 2, 2], 4)
    with pytest.raises(mi.BadParmError, match="overflows"):
        mi.setNdTensorDescriptorWithLayout(d, mi.miopenHalf, mi.miopenTensorNHWC, [2**31 - 1] * 4, 4)
    assert d.layout is None and repr(d) == "TensorDescriptor(unset)"
