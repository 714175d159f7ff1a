"""Tensor reduction (the reduction descriptor, miopenGetReductionIndicesSize / WorkspaceSize,
miopenReduceTensor) against PyTorch (torch.sum / prod / amin / amax / mean / norm, argmin /
argmax) in float64 from the same stored inputs, and the float64 reference
(miopen_cy/reference/reduce.py) for NaN propagation and alpha / beta. Every op x type x a spread
of shapes and reduced-dim sets, strided inputs and outputs, split (workspace) and unsplit plans,
bad arguments refused with nothing written. The `handle` fixture runs each on the CPU and the GPU.

Indices: the row-major index of the first winning element within the reduced dims, as
torch.argmax / argmin on the reduced dims flattened (torch's first-occurrence rule) when there is
no NaN. With NaN propagation MIOpen's reference returns the *last* NaN (torch: the first); we
follow MIOpen."""
import itertools

import numpy as np
import pytest
import torch

import miopen_cy as mi
from miopen_cy.reference import reduce as ref
from support.buffers import Strided, desc
from support.devices import requires_torch_cuda
from support.dtypes import BFLOAT16, EPS, as64, np_dtype, round_to

ADD, MUL, MIN, MAX, AMAX, AVG, NORM1, NORM2 = range(8)
OPS = [pytest.param(o, id=n) for o, n in enumerate(
    ["add", "mul", "min", "max", "amax", "avg", "norm1", "norm2"])]
TYPES = [
    pytest.param(mi.miopenFloat, id="fp32"),
    pytest.param(mi.miopenHalf, id="fp16"),
    pytest.param(mi.miopenBFloat16, id="bf16",
                 marks=pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes not installed")),
    pytest.param(mi.miopenDouble, id="fp64"),
    pytest.param(mi.miopenInt8, id="int8"),
    pytest.param(mi.miopenInt32, id="int32"),
]
INT_TYPES = (int(mi.miopenInt8), int(mi.miopenInt32))
# (input shape, reduced dims)
SHAPES = [
    ((7,), (0,)),
    ((5, 33), (1,)),
    ((33, 5), (0,)),
    ((4, 6, 10), (0, 2)),
    ((4, 6, 10), (1,)),
    ((3, 4, 5, 6), (1, 2)),
    ((3, 4, 5, 6), (0, 3)),
    ((2, 3, 4, 5, 6), (0, 2, 4)),
    ((2, 3, 1, 5, 6), (2,)),
    ((2, 3, 4, 5, 3, 2), (0, 1, 2, 3, 4, 5)),
    # rows the GPU reads in 16-byte groups (fp32 / fp16; int8 here not), one row and several
    ((6, 48), (1,)),
    ((4, 6, 16), (0, 2)),
]


def rdesc(op, nan=0, ind=0, comp=mi.miopenFloat, itype=mi.MIOPEN_32BIT_INDICES):
    d = mi.ReduceTensorDescriptor()
    mi.setReduceTensorDescriptor(d, op, comp, nan, ind, itype)
    return d


def out_shape(shape, dims):
    return tuple(1 if d in dims else s for d, s in enumerate(shape))


def stored(shape, dt, rng, op=ADD):
    """Random inputs of the storage type: ints small, products near 1 (no overflow)."""
    if int(dt) in INT_TYPES:
        hi = 3 if op == MUL else 100
        return rng.integers(-hi, hi + 1, size=shape).astype(np_dtype(dt))
    if op == MUL:
        v = rng.uniform(0.9, 1.1, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    else:
        v = rng.uniform(-2.0, 2.0, size=shape)
    if int(dt) == int(mi.miopenDouble):
        return v
    return round_to(v, dt)


def poisoned_like(shape, dt):
    if int(dt) in INT_TYPES:
        return np.full(shape, 77, np_dtype(dt))
    return np.full(shape, np.nan, np_dtype(dt))


def run(handle, d, x, oshape, dt, alpha=1.0, beta=0.0, c=None, xdesc=None, cdesc=None, cbuf=None):
    xd = xdesc if xdesc is not None else desc(x.shape, dtype=dt)
    cd = cdesc if cdesc is not None else desc(oshape, dtype=dt)
    y = cbuf if cbuf is not None else (c.copy() if c is not None else poisoned_like(oshape, dt))
    nind = mi.getReductionIndicesSize(handle, d, xd, cd)
    nws = mi.getReductionWorkspaceSize(handle, d, xd, cd)
    ind = np.full(max(nind // 4, 1), -5, np.int32)
    ws = np.full(max(nws, 1), 0xAB, np.uint8)
    mi.reduceTensor(handle, d, ind if nind else None, nind, ws if nws else None, nws, alpha, xd,
                    x, beta, cd, y)
    return y, ind[:nind // 4], nws


def torch_ref(x64, dims, op):
    t = torch.from_numpy(x64)
    dims = list(dims)
    if op == ADD:
        return t.sum(dim=dims, keepdim=True)
    if op == AVG:
        return t.mean(dim=dims, keepdim=True)
    if op == NORM1:
        return t.abs().sum(dim=dims, keepdim=True)
    if op == NORM2:
        return torch.linalg.vector_norm(t, 2, dim=dims, keepdim=True)
    if op == MIN:
        return t.amin(dim=dims, keepdim=True)
    if op == MAX:
        return t.amax(dim=dims, keepdim=True)
    if op == AMAX:
        return t.abs().amax(dim=dims, keepdim=True)
    r = t
    for d in sorted(dims, reverse=True):
        r = r.prod(dim=d, keepdim=True)
    return r


def torch_index(x64, dims, op):
    """torch.argmin / argmax over the reduced dims flattened (kept dims first)."""
    t = torch.from_numpy(x64)
    keep = [d for d in range(t.ndim) if d not in dims]
    r = t.permute(keep + list(dims)).reshape(-1, int(np.prod([t.shape[d] for d in dims])))
    if op == AMAX:
        r = r.abs()
    i = r.argmin(dim=1) if op == MIN else r.argmax(dim=1)
    return i.numpy()


def check(y, expect, x64, dims, op, dt, comp_double=False, alpha=1.0, blend_mag=0.0):
    """y (stored) against the float64 expectation: one rounding to the type, plus the fp32 (or
    fp64) accumulation's error bounded by the sum of the magnitudes folded."""
    got = as64(y).astype(np.float64)
    if int(dt) in INT_TYPES:
        np.testing.assert_array_equal(y, ref.round_int(expect, np_dtype(dt)))
        return
    acc_eps = 2.0 ** -52 if (comp_double or int(dt) == int(mi.miopenDouble)) else 2.0 ** -23
    out_eps = 2.0 ** -52 if int(dt) == int(mi.miopenDouble) else EPS[int(dt)]
    k = int(np.prod([x64.shape[d] for d in dims]))
    mag = np.abs(torch_ref(np.abs(x64), dims, ADD if op != NORM2 else NORM1).numpy())
    if op == NORM2:
        mag = torch_ref(x64, dims, NORM2).numpy()
    if op == AVG:
        mag = mag / k
    if op == MUL:
        mag = np.abs(expect) * k
    if op in (MIN, MAX, AMAX):
        mag = np.zeros_like(mag)
    # Subnormal results: the output's spacing there, and for MUL the accumulator's underflow (a
    # product that leaves the normal range loses its relative accuracy; the fold order decides
    # which subnormal it lands on).
    acc_tiny = 2.0 ** -1074 if (comp_double or int(dt) == int(mi.miopenDouble)) else 2.0 ** -149
    out_tiny = {int(mi.miopenHalf): 2.0 ** -24, int(mi.miopenBFloat16): 2.0 ** -133,
                int(mi.miopenDouble): 2.0 ** -1074}.get(int(dt), 2.0 ** -149)
    bound = (abs(alpha) * 4 * acc_eps * mag * np.sqrt(k) + 1.01 * out_eps * np.abs(expect)
             + 2 * acc_eps * blend_mag + 0.5 * out_tiny
             + (abs(alpha) * k * acc_tiny if op == MUL else 0.0) + 1e-300)
    with np.errstate(invalid="ignore"):
        err = np.abs(got - expect)
        bad = ~((err <= bound) | (np.isnan(got) & np.isnan(expect)) | (got == expect))
    assert not bad.any(), (f"{bad.sum()} bad of {bad.size}: got {got[bad][:4]}, "
                           f"expected {expect[bad][:4]}, bound {bound[bad][:4]}")


@pytest.mark.parametrize("dt", TYPES)
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape,dims", SHAPES, ids=lambda v: "x".join(map(str, v)))
def test_against_torch(handle, rng, shape, dims, op, dt):
    x = stored(shape, dt, rng, op)
    x64 = as64(x)
    oshape = out_shape(shape, dims)
    ind = int(op in (MIN, MAX, AMAX))
    y, idx, _ = run(handle, rdesc(op, ind=ind), x, oshape, dt)
    expect = torch_ref(x64, dims, op).numpy()
    check(y, expect, x64, dims, op, dt)
    if ind:
        np.testing.assert_array_equal(idx, torch_index(x64, dims, op))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape,dims", [((3000, 40), (0,)), ((40, 30000), (1,)),
                                        ((200000,), (0,)), ((64, 7, 900), (0, 2)),
                                        ((3, 70000), (1,))],
                         ids=lambda v: "x".join(map(str, v)))
def test_split_plans_use_workspace(handle, rng, shape, dims, op):
    """Long reductions over few outputs are split into chunks through the workspace."""
    dt = mi.miopenFloat
    x = stored(shape, dt, rng, op)
    if op == MUL:
        x = np.where(np.abs(x) > 0, np.sign(x), 1.0).astype(np.float32)  # +-1: exact products
    x64 = as64(x)
    ind = int(op in (MIN, MAX, AMAX))
    y, idx, nws = run(handle, rdesc(op, ind=ind), x, out_shape(shape, dims), dt)
    assert nws > 0
    check(y, torch_ref(x64, dims, op).numpy(), x64, dims, op, dt)
    if ind:
        np.testing.assert_array_equal(idx, torch_index(x64, dims, op))


def test_ties_pick_the_first_occurrence(handle):
    x = np.zeros((3, 1000), np.float32)
    x[:, 17] = 5.0
    x[:, 900] = 5.0
    x[1, 3] = -5.0
    for op, want in ((MAX, [17, 17, 17]), (AMAX, [17, 3, 17]), (MIN, [0, 3, 0])):
        _, idx, _ = run(handle, rdesc(op, ind=1), x, (3, 1), mi.miopenFloat)
        np.testing.assert_array_equal(idx.ravel(), want)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("nan", [0, 1], ids=["keep-nan-out", "propagate"])
def test_nan_propagation(handle, rng, op, nan):
    x = rng.uniform(-2, 2, size=(6, 257)).astype(np.float32)
    x[1, 5] = np.nan
    x[2, 7] = x[2, 200] = np.nan
    x[3, :] = np.nan
    ind = int(op in (MIN, MAX, AMAX))
    y, idx, _ = run(handle, rdesc(op, nan=nan, ind=ind), x, (6, 1), mi.miopenFloat)
    expect, eidx = ref.reduce(as64(x), (6, 1), op, nan_propagate=bool(nan))
    check(y, expect, as64(x), (1,), op, mi.miopenFloat)
    if op in (ADD, MUL, AVG, NORM1, NORM2) or nan:
        assert np.isnan(y[1:4]).all()  # arithmetic ops carry NaN whatever the option
    else:
        assert not np.isnan(y[1:3]).any()
    if ind:
        np.testing.assert_array_equal(idx, eidx.ravel())
        if nan:
            assert list(idx[1:4].ravel()) == [5, 200, 256]  # the last NaN, as MIOpen


@pytest.mark.parametrize("dt", TYPES)
@pytest.mark.parametrize("op", [ADD, MAX, NORM2], ids=["add", "max", "norm2"])
def test_alpha_beta_blend(handle, rng, op, dt):
    shape, dims = (5, 12, 9), (1,)
    x = stored(shape, dt, rng, op)
    c = stored(out_shape(shape, dims), dt, rng)
    alpha, beta = (2.0, -3.0) if int(dt) in INT_TYPES else (0.75, -1.5)
    y, _, _ = run(handle, rdesc(op), x, out_shape(shape, dims), dt, alpha, beta, c)
    expect, _ = ref.reduce(as64(x), out_shape(shape, dims), op, alpha=alpha, beta=beta,
                           c=as64(c))
    v, _ = ref.reduce(as64(x), out_shape(shape, dims), op)
    check(y, expect, as64(x), dims, op, dt, alpha=alpha,
          blend_mag=np.abs(alpha * v) + np.abs(beta * as64(c)))


def test_beta_zero_never_reads_the_output(handle, rng):
    x = rng.standard_normal((4, 50)).astype(np.float32)
    y, _, _ = run(handle, rdesc(ADD), x, (4, 1), mi.miopenFloat, 1.0, 0.0,
                  c=np.full((4, 1), np.nan, np.float32))
    np.testing.assert_allclose(y.ravel(), x.astype(np.float64).sum(axis=1), rtol=1e-5)


@pytest.mark.parametrize("dt", [mi.miopenFloat, mi.miopenHalf], ids=["fp32", "fp16"])
def test_comp_type_double_accumulates_in_fp64(handle, rng, dt):
    x = stored((3, 100000), dt, rng)
    y, _, _ = run(handle, rdesc(ADD, comp=mi.miopenDouble), x, (3, 1), dt)
    expect = as64(x).sum(axis=1, keepdims=True)
    check(y, expect, as64(x), (1,), ADD, dt, comp_double=True)


def test_strided_input_and_output(handle, rng):
    a = Strided((6, 7, 9), rng, pad=(1, 2, 3))
    c = Strided((6, 1, 9), pad=(2, 0, 5), fill=np.nan)
    y, idx, _ = run(handle, rdesc(MAX, ind=1), a.buf, (6, 1, 9), mi.miopenFloat,
                    xdesc=a.desc(), cdesc=c.desc(), cbuf=c.buf)
    assert c.gaps_untouched()
    v = a.view.astype(np.float64)
    np.testing.assert_array_equal(c.view, v.max(axis=1, keepdims=True))
    np.testing.assert_array_equal(idx.reshape(6, 9), v.argmax(axis=1))


def test_descriptor_round_trip_and_repr():
    d = mi.ReduceTensorDescriptor()
    assert repr(d) == "ReduceTensorDescriptor(unset)" and d.reduceTensorOp is None
    mi.setReduceTensorDescriptor(d, mi.MIOPEN_REDUCE_TENSOR_AMAX, mi.miopenHalf,
                                 mi.MIOPEN_PROPAGATE_NAN, mi.MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES,
                                 mi.MIOPEN_32BIT_INDICES)
    got = mi.getReduceTensorDescriptor(d)
    assert got == (4, mi.miopenHalf, 1, 1, 0)
    assert isinstance(got[0], mi.ReduceTensorOp) and isinstance(got[4], mi.IndicesType)
    assert d.reduceTensorNanOpt == mi.MIOPEN_PROPAGATE_NAN
    assert repr(d) == ("ReduceTensorDescriptor(MIOPEN_REDUCE_TENSOR_AMAX, miopenHalf, "
                       "MIOPEN_PROPAGATE_NAN, MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES, "
                       "MIOPEN_32BIT_INDICES)")
    assert isinstance(mi.createReduceTensorDescriptor(), mi.ReduceTensorDescriptor)
    mi.destroyReduceTensorDescriptor(d)
    with pytest.raises(ValueError, match="reduceTensorDesc has been destroyed"):
        mi.getReduceTensorDescriptor(d)


def test_enum_values_are_miopens():
    assert [int(mi.ReduceTensorOp[n]) for n in mi.ReduceTensorOp.__members__] == list(range(8))
    assert mi.MIOPEN_REDUCE_TENSOR_NORM2 == 7 and mi.MIOPEN_PROPAGATE_NAN == 1
    assert mi.MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES == 1 and mi.MIOPEN_8BIT_INDICES == 3


@pytest.mark.parametrize("args,words", [
    ((8, 1, 0, 0, 0), "reduceTensorOp = 8 is not a miopenReduceTensorOp_t"),
    ((0, 9, 0, 0, 0), "reduceTensorCompType = 9"),
    ((0, 1, 2, 0, 0), "reduceTensorNanOpt = 2"),
    ((0, 1, 0, 2, 0), "reduceTensorIndices = 2"),
    ((0, 1, 0, 0, 4), "reduceTensorIndicesType = 4"),
    ((3, 1, 0, 1, 1), "only MIOPEN_32BIT_INDICES"),
])
def test_bad_descriptor_settings_refused(args, words):
    d = mi.ReduceTensorDescriptor()
    with pytest.raises(mi.BadParmError, match=words):
        mi.setReduceTensorDescriptor(d, *args)
    assert d.reduceTensorOp is None  # unchanged: still unset


def test_unset_descriptor_refused(handle):
    with pytest.raises(mi.BadParmError, match="reduceTensorDesc has not been set"):
        mi.getReductionWorkspaceSize(handle, mi.ReduceTensorDescriptor(), desc((2, 3)),
                                     desc((2, 1)))


def test_sizes():
    h = mi.Handle()
    xd, cd = desc((8, 100)), desc((8, 1))
    assert mi.getReductionIndicesSize(h, rdesc(MAX, ind=1), xd, cd) == 8 * 4
    assert mi.getReductionIndicesSize(h, rdesc(MAX, ind=0), xd, cd) == 0
    assert mi.getReductionIndicesSize(h, rdesc(ADD, ind=1), xd, cd) == 0
    assert mi.getReductionWorkspaceSize(h, rdesc(ADD), xd, cd) == 0
    big = desc((1, 1 << 20))
    assert mi.getReductionWorkspaceSize(h, rdesc(ADD), big, desc((1, 1))) > 0


@pytest.mark.parametrize("ashape,cshape,words", [
    ((4, 5), (4, 5), "reduces no dimension"),
    ((4, 5), (4, 2), "length 2 of dimension 1 is neither 1 nor"),
    ((4, 5), (4, 5, 1), "cDesc has 3 dimensions but aDesc has 2"),
    ((2, 2, 2, 2, 2, 2, 2), (1, 2, 2, 2, 2, 2, 2), "at most 6"),
])
def test_bad_shapes_refused_nothing_written(handle, ashape, cshape, words):
    x = np.ones(ashape, np.float32)
    y = np.full(cshape, 7.0, np.float32)
    with pytest.raises(mi.BadParmError, match=words):
        mi.reduceTensor(handle, rdesc(ADD), None, 0, None, 0, 1.0, desc(ashape), x, 0.0,
                        desc(cshape), y)
    assert (y == 7.0).all()
    with pytest.raises(mi.BadParmError, match=words):
        mi.getReductionWorkspaceSize(handle, rdesc(ADD), desc(ashape), desc(cshape))


def test_bad_types_refused(handle):
    x = np.ones((4, 5), np.float32)
    y = np.full((4, 1), 7.0, np.float16)
    with pytest.raises(mi.BadParmError, match="cDesc"):
        mi.reduceTensor(handle, rdesc(ADD), None, 0, None, 0, 1.0, desc((4, 5)), x, 0.0,
                        desc((4, 1), dtype=mi.miopenHalf), y)
    assert (y == 7.0).all()


def test_too_small_indices_or_workspace_refused(handle):
    x = np.ones((2, 1 << 18), np.float32)
    xd, cd = desc(x.shape), desc((2, 1))
    d = rdesc(MAX, ind=1)
    nws = mi.getReductionWorkspaceSize(handle, d, xd, cd)
    assert nws > 0
    y = np.full((2, 1), 7.0, np.float32)
    ind = np.full(2, -5, np.int32)
    ws = np.zeros(nws, np.uint8)
    with pytest.raises(mi.BadParmError, match="indicesSizeInBytes = 4 but the indices need 8"):
        mi.reduceTensor(handle, d, ind, 4, ws, nws, 1.0, xd, x, 0.0, cd, y)
    with pytest.raises(mi.BadParmError, match=r"workspaceSizeInBytes = \d+ but the reduction needs"):
        mi.reduceTensor(handle, d, ind, 8, ws, nws - 1, 1.0, xd, x, 0.0, cd, y)
    with pytest.raises(mi.BadParmError, match="indices is a null pointer"):
        mi.reduceTensor(handle, d, None, 8, ws, nws, 1.0, xd, x, 0.0, cd, y)
    assert (y == 7.0).all() and (ind == -5).all()
    with pytest.raises(mi.MIOpenError, match="indices"):
        mi.reduceTensor(handle, d, np.zeros(1, np.int32), 8, ws, nws, 1.0, xd, x, 0.0, cd, y)
    mi.reduceTensor(handle, d, ind, 8, ws, nws, 1.0, xd, x, 0.0, cd, y)
    assert (y == 1.0).all() and (ind == 0).all()


def test_deterministic(handle, rng):
    x = rng.standard_normal((3, 300001)).astype(np.float32)
    a, _, _ = run(handle, rdesc(ADD), x, (3, 1), mi.miopenFloat)
    b, _, _ = run(handle, rdesc(ADD), x, (3, 1), mi.miopenFloat)
    assert a.tobytes() == b.tobytes()


@requires_torch_cuda
@pytest.mark.parametrize("op", [ADD, MAX, NORM2], ids=["add", "max", "norm2"])
@pytest.mark.parametrize("tdt,dt", [(torch.float32, mi.miopenFloat), (torch.float16, mi.miopenHalf)],
                         ids=["fp32", "fp16"])
@pytest.mark.parametrize("shape,dims", [((37, 64), (1,)), ((3, 70000), (1,)), ((4, 5, 32), (0, 2))],
                         ids=lambda v: "x".join(map(str, v)))
def test_unaligned_input_gives_the_aligned_bits(rng, shape, dims, op, tdt, dt):
    """The GPU reads a row plan's groups as 16-byte vectors only from an aligned A; from A one
    element past an aligned address it loads them element by element, in the same order: the
    same bits, the same indices."""
    h = mi.Handle(device="gpu")
    n = int(np.prod(shape))
    x = torch.from_numpy(rng.uniform(-2.0, 2.0, n)).to(tdt)
    aligned = x.cuda().view(shape)
    buf = torch.empty(n + 1, dtype=tdt, device="cuda")
    buf[1:] = x.cuda()
    shifted = buf[1:].view(shape)
    oshape = out_shape(shape, dims)
    ind = int(op == MAX)
    d = rdesc(op, ind=ind)
    xd, cd = desc(shape, dtype=dt), desc(oshape, dtype=dt)
    nind = mi.getReductionIndicesSize(h, d, xd, cd)
    nws = mi.getReductionWorkspaceSize(h, d, xd, cd)
    outs = []
    for a in (aligned, shifted):
        y = torch.full(oshape, float("nan"), dtype=tdt, device="cuda")
        idx = torch.full((max(nind // 4, 1),), -5, dtype=torch.int32, device="cuda")
        ws = torch.empty(max(nws, 1), dtype=torch.uint8, device="cuda")
        mi.reduceTensor(h, d, idx if nind else None, nind, ws if nws else None, nws, 1.0, xd, a,
                        0.0, cd, y)
        mi.cyStreamSynchronize(h)
        outs.append((y.cpu(), idx.cpu()))
    assert not torch.isnan(outs[0][0]).any()
    assert torch.equal(outs[0][0].view(torch.int16 if tdt == torch.float16 else torch.int32),
                       outs[1][0].view(torch.int16 if tdt == torch.float16 else torch.int32))
    assert torch.equal(outs[0][1], outs[1][1])
    x64 = x.double().numpy().reshape(shape)
    check(outs[0][0].double().numpy(), torch_ref(x64, dims, op).numpy(), x64, dims, op, dt)
