"""The GPU SGEMM (hip/kernels/gemm/sgemm.hip, through the miopenCySgemm extension) against a
float64 NumPy product on every device, and the 1x1 GEMM convolution solvers (GemmFwd1x1_0_1,
GemmBwd1x1_stride1, GemmWrw1x1_stride1; strided: GemmFwd1x1_0_2, GemmBwd1x1_stride2) forced alone
on a GPU handle against PyTorch: odd sizes,
k below the kernel's step, batch 1, groups, 1-3 spatial dims, transposed convolution, the split
backward-weights sum; outputs poisoned (NaN) so unwritten elements fail. The solver tests skip
without a GPU; the SGEMM tests run on the CPU too (the BLAS behind the same call).

MIOpen's general GEMM solvers on a GPU handle (GemmFwdRest, GemmBwdRest, GemmWrwUniversal:
im2col / col2im of one image and group around our SGEMM, conv/conv_gemm_gpu.cpp and
hip/kernels/gemm/im2col.hip), each forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) against PyTorch's
float64 operators on 2-d and 3-d problems with strides, dilations, pads wider than the filter,
groups and transposed convolutions; outputs NaN-poisoned; the same bits on a second run; the
workspace sizes (backward weights on the GPU also holds one image's gradient) and a workspace too
small refused by name. tests/conv/test_convolution.py runs them beside every other GPU solver as
well. Skipped without a GPU, except the CPU workspace check.

ConvGpuGemmFwd1x1Split (forward 1x1 on the GPU: one batch-folded GEMM whose sum over C is
split into parts added in order through the workspace) forced alone on a GPU handle against
PyTorch float64: stride 1 and strided (gathered x), groups, odd column counts (the scalar paths),
1-d and 3-d, the split forced to several values (MIOPEN_CY_DEBUG_SGEMM_FOLD_SPLIT) and the
launcher's own choice; outputs poisoned (NaN) so unwritten elements fail; repeats bit-identical.
Skips without a GPU.

The 1x1 solvers on packed NHWC / NDHWC (one GEMM over the batch's pixels, strided through a
channels-last gather or scatter; GemmWrwUniversal for the strided 1x1's backward weights) forced alone through immediate mode on every device against
PyTorch float64, every direction, outputs poisoned, repeats bit for bit; through legacy Find and
the run call; and where they (and the general GEMM solvers, NCHW-only) do not apply."""
import numpy as np
import pytest

import miopen_cy as mi
from support.buffers import desc, poisoned, rel_l2
from support.conv import BWD, FWD, TOL, WRW, Case, ChannelsLast, channels_last, reference, run
from support.devices import requires_gpu

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

GEMM_SOLVERS = {FWD: "GemmFwd1x1_0_1", BWD: "GemmBwd1x1_stride1", WRW: "GemmWrw1x1_stride1"}


# ---- the SGEMM itself --------------------------------------------------------------------------

class Operand:
    """`count` matrices of rows x cols in one DeviceBuffer, leading dimension ld, `stride` apart,
    starting `offset` elements in (an offset of 1 breaks 16-byte alignment: the scalar path)."""

    def __init__(self, handle, rng, count, rows, cols, pad, offset, fill=None):
        self.ld = cols + (3 if pad else 0)
        self.stride = rows * self.ld + (5 if pad else 0)
        total = offset + max(count - 1, 0) * self.stride + rows * self.ld + 8
        host = np.full(total, np.nan, np.float32)
        self.mats = []
        for b in range(count):
            m = rng.standard_normal((rows, cols)).astype(np.float32) if fill is None else None
            if m is not None:
                start = offset + b * self.stride
                host[start:start + rows * self.ld].reshape(rows, self.ld)[:, :cols] = m
            self.mats.append(m)
        self.host = host
        self.buf = mi.DeviceBuffer.from_numpy(handle, host)
        self.addr = self.buf.ptr + 4 * offset
        self.offset, self.rows, self.cols, self.count = offset, rows, cols, count

    def read(self):
        """The matrices as written by the call, from the device."""
        host = self.buf.to_numpy((self.host.size,), np.float32)
        out = []
        for b in range(self.count):
            start = self.offset + b * self.stride
            out.append(host[start:start + self.rows * self.ld].reshape(self.rows, self.ld)[:, :self.cols])
        return np.stack(out), host


SIZES = [  # m, n, k, batch
    (1, 1, 1, 1),
    (5, 7, 3, 2),          # k below the kernel's step of 8
    (37, 45, 19, 3),       # nothing a multiple of the tile or of 4
    (130, 70, 33, 2),      # past one tile in m
    (64, 64, 64, 1),       # the vectorised path
    (128, 256, 40, 4),     # several tiles, vectorised
    (72, 200, 264, 3),
]


@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True), (True, True)],
                         ids=["NN", "TN", "NT", "TT"])
@pytest.mark.parametrize("sum_batch", [False, True], ids=["batched", "summed"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "m{}-n{}-k{}-b{}".format(*s))
@pytest.mark.parametrize("layout", ["tight", "padded"])
def test_sgemm_matches_numpy(handle, rng, trans_a, trans_b, sum_batch, size, layout):
    m, n, k, batch = size
    pad = layout == "padded"
    offset = 1 if pad else 0
    a = Operand(handle, rng, batch, k if trans_a else m, m if trans_a else k, pad, offset)
    b = Operand(handle, rng, batch, n if trans_b else k, k if trans_b else n, pad, offset)
    outs = 1 if sum_batch else batch
    c = Operand(handle, rng, outs, m, n, pad, offset, fill=np.nan)
    mi.cySgemm(handle, trans_a, trans_b, sum_batch, m, n, k, batch, a.addr, a.ld, a.stride,
               b.addr, b.ld, b.stride, c.addr, c.ld, c.stride)
    mi.cyStreamSynchronize(handle)
    got, host = c.read()
    prods = [(am.T if trans_a else am).astype(np.float64) @ (bm.T if trans_b else bm).astype(np.float64)
             for am, bm in zip(a.mats, b.mats)]
    expect = np.stack([sum(prods)] if sum_batch else prods)
    assert rel_l2(got, expect) <= TOL
    # Nothing outside C's matrices was written (the padding stays NaN).
    mask = np.ones(host.size, bool)
    for i in range(outs):
        start = offset + i * c.stride
        mask[start:start + m * c.ld].reshape(m, c.ld)[:, :n] = False
    assert np.isnan(host[mask]).all()


# A shared by every product (strideA 0), as the 1x1 forward and backward data have it: big enough
# batches of narrow products that the GPU launcher folds the batch into the columns (one GEMM).
SHARED_A = [  # m, n, k, batch
    (512, 49, 8, 256),     # odd columns: the scalar path
    (512, 7, 9, 1024),     # a vector of 4 columns spans images
    (512, 52, 16, 128),    # columns a multiple of 4: vectorised
]


@pytest.mark.parametrize("trans_a", [False, True], ids=["N", "T"])
@pytest.mark.parametrize("size", SHARED_A, ids=lambda s: "m{}-n{}-k{}-b{}".format(*s))
@pytest.mark.parametrize("layout", ["tight", "padded"])
def test_sgemm_shared_a_matches_numpy(handle, rng, trans_a, size, layout):
    m, n, k, batch = size
    pad = layout == "padded"
    offset = 1 if pad else 0
    a = Operand(handle, rng, 1, k if trans_a else m, m if trans_a else k, pad, offset)
    b = Operand(handle, rng, batch, k, n, pad, offset)
    c = Operand(handle, rng, batch, m, n, pad, offset, fill=np.nan)
    mi.cySgemm(handle, trans_a, False, False, m, n, k, batch, a.addr, a.ld, 0, b.addr, b.ld, b.stride,
               c.addr, c.ld, c.stride)
    got, host = c.read()
    am = (a.mats[0].T if trans_a else a.mats[0]).astype(np.float64)
    expect = np.einsum("ik,bkj->bij", am, np.stack(b.mats).astype(np.float64))
    assert rel_l2(got, expect) <= TOL
    mask = np.ones(host.size, bool)
    for i in range(batch):
        start = offset + i * c.stride
        mask[start:start + m * c.ld].reshape(m, c.ld)[:, :n] = False
    assert np.isnan(host[mask]).all()


def test_sgemm_k_zero_writes_zeros(handle, rng):
    c = Operand(handle, rng, 2, 9, 6, False, 0, fill=np.nan)
    mi.cySgemm(handle, False, False, False, 9, 6, 0, 2, 0, 1, 0, 0, 6, 0, c.addr, c.ld, c.stride)
    mi.cyStreamSynchronize(handle)
    got, _ = c.read()
    assert (got == 0).all()


def test_sgemm_batch_beyond_the_grid_limit(handle, rng):
    # More than 65535 products: the GPU launcher runs the batch in slices.
    m, n, k, batch = 2, 3, 5, 70001
    a = rng.standard_normal((batch, m, k)).astype(np.float32)
    b = rng.standard_normal((batch, k, n)).astype(np.float32)
    da, db = mi.DeviceBuffer.from_numpy(handle, a), mi.DeviceBuffer.from_numpy(handle, b)
    dc = mi.DeviceBuffer.from_numpy(handle, np.full((batch, m, n), np.nan, np.float32))
    mi.cySgemm(handle, False, False, False, m, n, k, batch, da, k, m * k, db, n, k * n, dc, n, m * n)
    got = dc.to_numpy((batch, m, n), np.float32)
    assert rel_l2(got, np.einsum("bik,bkj->bij", a.astype(np.float64), b.astype(np.float64))) <= TOL


@pytest.mark.parametrize("field,args,match", [
    ("m", dict(m=-1), "m is -1"),
    ("k", dict(k=-2), "k is -2"),
    ("lda", dict(lda=3), "lda is 3"),
    ("ldb", dict(ldb=2), "ldb is 2"),
    ("ldc", dict(ldc=1), "ldc is 1"),
    ("strideC", dict(strideC=4), "strideC is 4"),
])
def test_sgemm_bad_arguments_name_the_field_and_write_nothing(handle, rng, field, args, match):
    m, n, k, batch = 4, 5, 6, 2
    a = mi.DeviceBuffer.from_numpy(handle, rng.standard_normal(batch * m * k).astype(np.float32))
    b = mi.DeviceBuffer.from_numpy(handle, rng.standard_normal(batch * k * n).astype(np.float32))
    c = mi.DeviceBuffer.from_numpy(handle, np.full(batch * m * n, np.nan, np.float32))
    kw = dict(m=m, n=n, k=k, lda=k, ldb=n, ldc=n, strideC=m * n)
    kw.update(args)
    with pytest.raises(mi.BadParmError, match=match):
        mi.cySgemm(handle, False, False, False, kw["m"], kw["n"], kw["k"], batch, a.ptr, kw["lda"], m * k,
                   b.ptr, kw["ldb"], k * n, c.ptr, kw["ldc"], kw["strideC"])
    assert np.isnan(c.to_numpy((batch * m * n,), np.float32)).all()


def test_sgemm_buffer_too_small_is_refused(handle, rng):
    a = mi.DeviceBuffer.from_numpy(handle, np.ones(10, np.float32))
    b = mi.DeviceBuffer.from_numpy(handle, np.ones(12, np.float32))
    c = mi.DeviceBuffer.from_numpy(handle, np.full(5, np.nan, np.float32))
    with pytest.raises(mi.BadParmError, match="C: the buffer has 20 bytes"):
        mi.cySgemm(handle, False, False, False, 2, 3, 4, 1, a, 4, 0, b, 3, 0, c, 3, 0)
    assert np.isnan(c.to_numpy((5,), np.float32)).all()


# ---- the 1x1 GEMM convolution solvers on the GPU ---------------------------------------------

GEMM_CASES = [
    Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (1, 1), (1, 1)),
    Case(1, 3, (7, 9), 5, (1, 1), (0, 0), (1, 1), (1, 1)),                  # batch 1, c and k < 8
    Case(3, 36, (13, 11), 70, (1, 1), (0, 0), (1, 1), (1, 1), groups=2),    # odd per-group sizes
    Case(2, 64, (8, 8), 128, (1, 1), (0, 0), (1, 1), (1, 1)),               # vectorised loads
    Case(32, 16, (7, 7), 24, (1, 1), (0, 0), (1, 1), (1, 1)),               # split image sum (wrw)
    Case(4, 256, (14, 14), 64, (1, 1), (0, 0), (1, 1), (1, 1), groups=4),
    Case(3, 6, (17,), 10, (1,), (0,), (1,), (1,)),                          # 1-d
    Case(2, 4, (5, 6, 7), 4, (1, 1, 1), (0, 0, 0), (1, 1, 1), (1, 1, 1), groups=2),   # 3-d
    Case(2, 8, (5, 6), 12, (1, 1), (0, 0), (1, 1), (1, 1), transpose=True),
    Case(2, 6, (5, 6), 9, (1, 1), (0, 0), (1, 1), (1, 1), groups=3),
    Case(64, 32, (7, 7), 1024, (1, 1), (0, 0), (1, 1), (1, 1)),             # forward folds the batch
    Case(64, 32, (8, 8), 1024, (1, 1), (0, 0), (1, 1), (1, 1)),             # folded, 4-column vectors
]


@requires_gpu
@pytest.mark.parametrize("case", GEMM_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gpu_gemm_solver_alone(rng, monkeypatch, case, direction):
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    canonical = {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", GEMM_SOLVERS[canonical])
    got = run(handle, case, direction, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))
    assert rel_l2(got, expect) <= TOL


STRIDED_SOLVERS = {FWD: "GemmFwd1x1_0_2", BWD: "GemmBwd1x1_stride2"}
STRIDED_CASES = [
    Case(2, 8, (7, 6), 4, (1, 1), (0, 0), (2, 2), (1, 1)),
    Case(3, 36, (13, 11), 70, (1, 1), (0, 0), (2, 3), (1, 1), groups=2),    # odd sizes, mixed strides
    Case(4, 64, (14, 14), 128, (1, 1), (0, 0), (2, 2), (1, 1)),             # vectorised GEMM
    Case(32, 64, (14, 14), 1024, (1, 1), (0, 0), (2, 2), (1, 1)),           # forward folds the batch
    Case(3, 6, (17,), 10, (1,), (0,), (3,), (1,)),                          # 1-d
    Case(2, 4, (5, 6, 7), 6, (1, 1, 1), (0, 0, 0), (2, 1, 2), (1, 1, 1)),   # 3-d
    Case(2, 6, (5, 6), 9, (1, 1), (0, 0), (1, 1), (2, 2), groups=3),        # stride 1, dilation 2
    Case(2, 8, (5, 6), 12, (1, 1), (0, 0), (2, 2), (1, 1), transpose=True),
    Case(3, 5, (9, 11), 7, (1, 1), (0, 0), (2, 2), (1, 1)),                 # odd width: scatter's cut run
    Case(2, 4, (8, 12), 6, (1, 1), (0, 0), (3, 2), (1, 1)),                 # stride-2 columns, paired stores
    Case(2, 3, (10, 9), 5, (1, 1), (0, 0), (1, 4), (1, 1)),                 # stride 1 rows, runs of 4
]


@requires_gpu
@pytest.mark.parametrize("case", STRIDED_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD])
def test_gpu_strided_gemm_solver_alone(rng, monkeypatch, case, direction):
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref}[direction]
    canonical = {FWD: BWD, BWD: FWD}[direction] if case.transpose else direction
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", STRIDED_SOLVERS[canonical])
    got = run(handle, case, direction, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))
    assert rel_l2(got, expect) <= TOL


@requires_gpu
@pytest.mark.parametrize("case", STRIDED_CASES[:3] + STRIDED_CASES[-3:], ids=str)
def test_gpu_strided_bwd_scatter_repeats_bitwise(rng, monkeypatch, case):
    """GemmBwd1x1_stride2's scatter (one thread per stride-wide run) writes every element of dx,
    repeatably, and matches PyTorch."""
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    direction = FWD if case.transpose else BWD
    expect = y_ref if case.transpose else dx_ref
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "GemmBwd1x1_stride2")
    gemm = int(mi.miopenConvolutionAlgoGEMM)
    a = run(handle, case, direction, x, w, dy, algo=gemm)
    b = run(handle, case, direction, x, w, dy, algo=gemm)
    assert rel_l2(a, expect) <= TOL
    assert np.array_equal(a, b)


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gpu_gemm_solver_not_applicable_beyond_1x1_stride_1(rng, monkeypatch, direction):
    handle = mi.Handle(device="gpu")
    for case in (Case(2, 4, (9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1)),
                 Case(2, 8, (7, 6), 4, (1, 1), (0, 0), (2, 2), (1, 1)),
                 Case(2, 8, (7, 6), 4, (1, 1), (1, 1), (1, 1), (1, 1))):
        x, w, dy, *_ = reference(case, rng)
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", GEMM_SOLVERS[direction])
        with pytest.raises(mi.BadParmError, match="not applicable"):
            run(handle, case, direction, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))


@requires_gpu
def test_gpu_gemm_wrw_split_is_deterministic_and_reports_its_workspace(rng, monkeypatch):
    handle = mi.Handle(device="gpu")
    case = Case(32, 16, (7, 7), 24, (1, 1), (0, 0), (1, 1), (1, 1))
    x, w, dy, _, _, dw_ref = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "GemmWrw1x1_stride1")
    gemm = int(mi.miopenConvolutionAlgoGEMM)
    a = run(handle, case, WRW, x, w, dy, algo=gemm)
    b = run(handle, case, WRW, x, w, dy, algo=gemm)
    assert rel_l2(a, dw_ref) <= TOL and np.array_equal(a, b)
    # The split image sum needs a workspace (the unsplit sum is the summed SGEMM tested above).
    cd, xd, wd, yd = case.conv_desc(), desc(x.shape), desc(w.shape), desc(dy.shape)
    need = mi.convolutionBackwardWeightsGetSolutionWorkspaceSize(handle, yd, xd, cd, wd, 101)
    assert need > 0
    dw = poisoned(w.shape)
    ws = mi.DeviceBuffer(handle, need)
    mi.convolutionBackwardWeightsImmediate(handle, yd, dy, xd, x, cd, wd, dw, ws, need, 101)
    assert np.array_equal(dw, a)


@requires_gpu
@pytest.mark.parametrize("case", [Case(32, 16, (7, 7), 24, (1, 1), (0, 0), (1, 1), (1, 1)),
                                  Case(8, 64, (28, 28), 64, (1, 1), (0, 0), (1, 1), (1, 1))], ids=str)
def test_gpu_gemm_wrw_split(rng, monkeypatch, case):
    """The split image sum as the launcher picks it matches PyTorch into a poisoned dw and repeats
    bit for bit."""
    handle = mi.Handle(device="gpu")
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "GemmWrw1x1_stride1")
    x, w, dy, _, _, dw_ref = reference(case, rng)
    gemm = int(mi.miopenConvolutionAlgoGEMM)
    a = run(handle, case, WRW, x, w, dy, algo=gemm)
    b = run(handle, case, WRW, x, w, dy, algo=gemm)
    assert rel_l2(a, dw_ref) <= TOL and np.array_equal(a, b)


@requires_gpu
def test_gpu_gemm_toggle_disables_the_gemm_solvers(rng, monkeypatch):
    handle = mi.Handle(device="gpu")
    case = Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (1, 1), (1, 1))
    x, w, dy, y_ref, *_ = reference(case, rng)
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(y_ref.shape)
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poisoned(y_ref.shape), 5,
                                              None, 0, False)
    assert mi.miopenConvolutionFwdAlgoGEMM in {p.fwd_algo for p in perf}
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM", "0")
    perf = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poisoned(y_ref.shape), 5,
                                              None, 0, False)
    assert mi.miopenConvolutionFwdAlgoGEMM not in {p.fwd_algo for p in perf}
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "GemmFwd1x1_0_1")
    with pytest.raises(mi.BadParmError, match="MIOPEN_DEBUG_CONV_GEMM=0"):
        run(handle, case, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))


# ---- the general GEMM solvers: GemmFwdRest, GemmBwdRest, GemmWrwUniversal ----------------------

GEMM = int(mi.miopenConvolutionAlgoGEMM)
REST = {FWD: "GemmFwdRest", BWD: "GemmBwdRest", WRW: "GemmWrwUniversal"}
REST_CASES = [
    Case(2, 3, (9, 11), 5, (3, 3), (1, 1), (1, 1), (1, 1)),
    Case(3, 4, (12, 10), 6, (5, 3), (2, 1), (2, 3), (1, 2)),
    Case(2, 6, (11, 12), 8, (3, 3), (1, 1), (2, 2), (2, 2), groups=2),
    Case(1, 2, (6, 7), 3, (3, 3), (4, 3), (1, 2), (1, 1)),              # pads wider than the filter
    Case(2, 4, (5, 6, 7), 3, (3, 2, 3), (1, 0, 1), (2, 1, 1), (1, 1, 2)),  # 3-d
    Case(2, 8, (7, 9), 4, (1, 1), (0, 0), (1, 1), (1, 1)),              # 1x1: the Rest solvers apply too
    Case(3, 6, (8, 9), 4, (3, 3), (1, 1), (2, 2), (1, 1), transpose=True, adj=(1, 0)),
    Case(2, 4, (7, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1), groups=2, transpose=True),
]


def gpu_handle():
    return mi.Handle(device="gpu")


@requires_gpu
@pytest.mark.parametrize("case", REST_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_rest_solver_alone_matches_torch_and_repeats_its_bits(rng, monkeypatch, case, direction):
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    canonical = {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", REST[canonical])
    first = run(handle, case, direction, x, w, dy, algo=GEMM)      # run() poisons its output
    again = run(handle, case, direction, x, w, dy, algo=GEMM)
    assert rel_l2(first, expect) <= TOL
    assert first.tobytes() == again.tobytes()


def wrw_workspace(handle, case):
    cd = case.conv_desc()
    xd, wd = desc(case.xshape), desc(case.wshape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    return mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, wd)


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=requires_gpu)])
def test_rest_workspace_is_one_column_matrix_plus_one_gradient_on_the_gpu(monkeypatch, device):
    case = Case(2, 6, (11, 12), 8, (3, 3), (1, 1), (2, 2), (1, 1), groups=2)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "GemmWrwUniversal")
    col = 4 * (6 // 2) * 9 * 6 * 6                  # Cg*R*S x Ho*Wo floats
    grad = 4 * (8 // 2) * (6 // 2) * 9              # Kg x Cg*R*S floats
    expect = col + grad if device == "gpu" else col
    assert wrw_workspace(mi.Handle(device=device), case) == expect


@requires_gpu
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_rest_solver_with_too_small_a_workspace_is_refused_and_writes_nothing(rng, monkeypatch, direction):
    handle = gpu_handle()
    case = REST_CASES[1]
    x, w, dy, *_ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", REST[direction])
    cd = case.conv_desc()
    xd, wd = desc(x.shape), desc(w.shape)
    yd = desc(dy.shape)
    ws = np.empty(64, np.uint8)
    out = poisoned({FWD: dy.shape, BWD: x.shape, WRW: w.shape}[direction])
    with pytest.raises(mi.BadParmError, match="no solver|workSpace|workspace"):
        if direction == FWD:
            mi.convolutionForward(handle, 1.0, xd, x, wd, w, cd, GEMM, 0.0, yd, out, ws, 64)
        elif direction == BWD:
            mi.convolutionBackwardData(handle, 1.0, yd, dy, wd, w, cd, GEMM, 0.0, xd, out, ws, 64)
        else:
            mi.convolutionBackwardWeights(handle, 1.0, yd, dy, xd, x, cd, GEMM, 0.0, wd, out, ws, 64)
    assert np.isnan(out).all()


# ---- ConvGpuGemmFwd1x1Split: the batch-folded 1x1 forward with its sum over C split ------------

SPLIT_SOLVER = "ConvGpuGemmFwd1x1Split"
SPLIT_SOLVER_ID = 2161

FORCED_CASES = [  # (case, forced split)
    (Case(4, 512, (7, 7), 64, (1, 1), (0, 0), (1, 1), (1, 1)), 2),
    (Case(4, 512, (7, 7), 64, (1, 1), (0, 0), (1, 1), (1, 1)), 4),          # 4 parts of 16 steps
    (Case(3, 520, (5, 6), 36, (1, 1), (0, 0), (1, 1), (1, 1), groups=2), 2),  # 260 per group, 30 columns
    (Case(2, 300, (5, 7), 9, (1, 1), (0, 0), (1, 1), (1, 1)), 2),           # C not a multiple of 8
    (Case(4, 384, (14, 14), 64, (1, 1), (0, 0), (2, 2), (1, 1)), 3),        # strided: gathered x
    (Case(3, 264, (9, 11), 20, (1, 1), (0, 0), (2, 3), (1, 1)), 2),         # strided, odd sizes
    (Case(2, 256, (33,), 12, (1,), (0,), (1,), (1,)), 2),                   # 1-d
    (Case(2, 272, (3, 4, 5), 8, (1, 1, 1), (0, 0, 0), (1, 1, 1), (1, 1, 1)), 2),   # 3-d
]


@requires_gpu
@pytest.mark.parametrize("case,split", FORCED_CASES, ids=lambda v: str(v))
def test_split_gemm_forced_split_matches_torch_and_repeats(rng, monkeypatch, case, split):
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, _, _ = reference(case, rng)
    monkeypatch.setenv("MIOPEN_CY_DEBUG_SGEMM_FOLD_SPLIT", str(split))
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SPLIT_SOLVER)
    gemm = int(mi.miopenConvolutionAlgoGEMM)
    a = run(handle, case, FWD, x, w, dy, algo=gemm)
    b = run(handle, case, FWD, x, w, dy, algo=gemm)
    assert rel_l2(a, y_ref) <= TOL
    assert np.array_equal(a, b)


@requires_gpu
@pytest.mark.parametrize("case", [
    Case(8, 2048, (7, 7), 256, (1, 1), (0, 0), (1, 1), (1, 1)),     # 8 tiles of 128x128: splits
    Case(8, 1024, (14, 14), 256, (1, 1), (0, 0), (2, 2), (1, 1)),   # strided
], ids=str)
def test_split_gemm_own_choice_through_immediate_mode(rng, monkeypatch, case):
    """Without the switch the launcher's model splits a small output with a long sum; the
    immediate-mode call with exactly the reported workspace matches PyTorch and the Find path."""
    handle = mi.Handle(device="gpu")
    x, w, dy, y_ref, _, _ = reference(case, rng)
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))
    need = mi.convolutionForwardGetSolutionWorkspaceSize(handle, wd, xd, cd, yd, SPLIT_SOLVER_ID)
    assert need > 0
    y = poisoned(y_ref.shape)
    ws = mi.DeviceBuffer(handle, need)
    mi.convolutionForwardImmediate(handle, wd, w, xd, x, cd, yd, y, ws, need, SPLIT_SOLVER_ID)
    assert rel_l2(y, y_ref) <= TOL
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SPLIT_SOLVER)
    again = run(handle, case, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))
    assert np.array_equal(again, y)


@requires_gpu
def test_split_gemm_not_applicable_where_no_split_pays_or_not_1x1(rng, monkeypatch):
    handle = mi.Handle(device="gpu")
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", SPLIT_SOLVER)
    for case in (Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (1, 1), (1, 1)),        # k too short to split
                 Case(2, 512, (9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1)),      # 3x3
                 Case(2, 512, (7, 6), 4, (1, 1), (1, 1), (1, 1), (1, 1))):     # padded
        x, w, dy, *_ = reference(case, rng)
        with pytest.raises(mi.BadParmError, match="not applicable"):
            run(handle, case, FWD, x, w, dy, algo=int(mi.miopenConvolutionAlgoGEMM))


@requires_gpu
def test_split_gemm_too_small_workspace_is_refused_and_writes_nothing(rng):
    handle = mi.Handle(device="gpu")
    case = Case(8, 2048, (7, 7), 256, (1, 1), (0, 0), (1, 1), (1, 1))
    x, w, dy, y_ref, _, _ = reference(case, rng)
    cd, xd, wd = case.conv_desc(), desc(x.shape), desc(w.shape)
    yd = desc(y_ref.shape)
    need = mi.convolutionForwardGetSolutionWorkspaceSize(handle, wd, xd, cd, yd, SPLIT_SOLVER_ID)
    y = poisoned(y_ref.shape)
    ws = mi.DeviceBuffer(handle, need // 2)
    with pytest.raises(mi.BadParmError, match="[Ww]ork[Ss]pace"):
        mi.convolutionForwardImmediate(handle, wd, w, xd, x, cd, yd, y, ws, need // 2, SPLIT_SOLVER_ID)
    assert np.isnan(y).all()


# ---- the 1x1 GEMM solvers on packed NHWC / NDHWC (issue 18 item 3) -----------------------------
# Channels-last tensors are matrices of pixels x channels as they lie: each direction is one GEMM
# per group over the batch's pixels (strided: through a gather or scatter of the whole batch on
# the GPU, of one image on the CPU). Each solver is forced alone through immediate mode on every
# device, against PyTorch float64, outputs poisoned, repeats bit for bit.

UNIT_1X1_IDS = {FWD: 88, BWD: 96, WRW: 101}
STRIDED_1X1_IDS = {FWD: 90, BWD: 95}
NHWC_UNIT_CASES = [
    Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (1, 1), (1, 1)),
    Case(1, 3, (7, 9), 5, (1, 1), (0, 0), (1, 1), (1, 1)),                  # c and k < 4: scalar loads
    Case(3, 36, (13, 11), 70, (1, 1), (0, 0), (1, 1), (1, 1), groups=2),    # odd per-group sizes
    Case(2, 64, (8, 8), 128, (1, 1), (0, 0), (1, 1), (1, 1)),               # vectorised loads
    Case(32, 16, (7, 7), 24, (1, 1), (0, 0), (1, 1), (1, 1)),               # long pixel sum (wrw)
    Case(4, 256, (14, 14), 64, (1, 1), (0, 0), (1, 1), (1, 1), groups=4),
    Case(8, 1024, (7, 7), 64, (1, 1), (0, 0), (1, 1), (1, 1)),              # few tiles: a split sum on the GPU
    Case(3, 6, (17,), 10, (1,), (0,), (1,), (1,)),                          # 1-d
    Case(2, 4, (5, 6, 7), 4, (1, 1, 1), (0, 0, 0), (1, 1, 1), (1, 1, 1), groups=2),   # 3-d
    Case(2, 8, (5, 6), 12, (1, 1), (0, 0), (1, 1), (1, 1), transpose=True),
    Case(2, 6, (5, 6), 9, (1, 1), (0, 0), (1, 1), (1, 1), groups=3),
]
NHWC_STRIDED_CASES = [
    Case(2, 8, (7, 6), 4, (1, 1), (0, 0), (2, 2), (1, 1)),
    Case(3, 36, (13, 11), 70, (1, 1), (0, 0), (2, 3), (1, 1), groups=2),    # odd sizes, mixed strides
    Case(4, 64, (14, 14), 128, (1, 1), (0, 0), (2, 2), (1, 1)),             # float4 gather and scatter
    Case(3, 6, (17,), 10, (1,), (0,), (3,), (1,)),                          # 1-d
    Case(2, 4, (5, 6, 7), 6, (1, 1, 1), (0, 0, 0), (2, 1, 2), (1, 1, 1)),   # 3-d
    Case(2, 8, (5, 6), 12, (1, 1), (0, 0), (2, 2), (1, 1), transpose=True),
    Case(3, 5, (9, 11), 7, (1, 1), (0, 0), (2, 2), (1, 1)),                 # odd sizes: scalar moves
]


def canonical_of(case, direction):
    return {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction


@pytest.mark.parametrize("case", NHWC_UNIT_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gemm_1x1_solver_alone_on_nhwc(handle, rng, case, direction):
    t = ChannelsLast(case, rng)
    sid = UNIT_1X1_IDS[canonical_of(case, direction)]
    first = t.run(handle, direction, sid)
    again = t.run(handle, direction, sid)
    assert rel_l2(first, t.expected(direction)) <= TOL
    assert first.tobytes() == again.tobytes()


@pytest.mark.parametrize("case", NHWC_STRIDED_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD])
def test_strided_gemm_1x1_solver_alone_on_nhwc(handle, rng, case, direction):
    t = ChannelsLast(case, rng)
    sid = STRIDED_1X1_IDS[canonical_of(case, direction)]
    first = t.run(handle, direction, sid)
    again = t.run(handle, direction, sid)
    assert rel_l2(first, t.expected(direction)) <= TOL
    assert first.tobytes() == again.tobytes()


@pytest.mark.parametrize("case", NHWC_STRIDED_CASES, ids=str)
def test_gemm_wrw_universal_on_nhwc_strided_1x1(handle, rng, case):
    """GemmWrwUniversal takes the strided 1x1 on channels-last tensors (the subsampled x gathered,
    then one product over the pixels)."""
    t = ChannelsLast(case, rng)
    first = t.run(handle, WRW, 102)
    again = t.run(handle, WRW, 102)
    assert rel_l2(first, t.expected(WRW)) <= TOL
    assert first.tobytes() == again.tobytes()


def test_gemm_1x1_nhwc_through_find_and_the_run_call(handle, rng):
    """Legacy Find offers the GEMM algorithm for a channels-last 1x1 layer in every direction, and
    its run call (the find-db's GEMM solver) matches PyTorch."""
    case = NHWC_UNIT_CASES[3]
    t = ChannelsLast(case, rng)
    gemm = int(mi.miopenConvolutionAlgoGEMM)
    for direction in (FWD, BWD, WRW):
        size = max(t.workspace(handle, direction, UNIT_1X1_IDS[direction]), 1)
        ws = np.empty(size, np.uint8)
        out = channels_last(poisoned(t.expected(direction).shape))
        scratch = channels_last(poisoned(t.expected(direction).shape))
        if direction == FWD:
            perf = mi.findConvolutionForwardAlgorithm(handle, t.xd, t.x, t.wd, t.w, t.cd, t.yd, scratch, 5, ws,
                                                      size, False)
            assert gemm in {int(p.fwd_algo) for p in perf}
            mi.convolutionForward(handle, 1.0, t.xd, t.x, t.wd, t.w, t.cd, gemm, 0.0, t.yd, out, ws, size)
        elif direction == BWD:
            perf = mi.findConvolutionBackwardDataAlgorithm(handle, t.yd, t.dy, t.wd, t.w, t.cd, t.xd, scratch, 5,
                                                           ws, size, False)
            assert gemm in {int(p.bwd_data_algo) for p in perf}
            mi.convolutionBackwardData(handle, 1.0, t.yd, t.dy, t.wd, t.w, t.cd, gemm, 0.0, t.xd, out, ws, size)
        else:
            perf = mi.findConvolutionBackwardWeightsAlgorithm(handle, t.yd, t.dy, t.xd, t.x, t.cd, t.wd, scratch,
                                                              5, ws, size, False)
            assert gemm in {int(p.bwd_weights_algo) for p in perf}
            mi.convolutionBackwardWeights(handle, 1.0, t.yd, t.dy, t.xd, t.x, t.cd, gemm, 0.0, t.wd, out, ws,
                                          size)
        assert rel_l2(out, t.expected(direction)) <= TOL


@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_gemm_solvers_on_nhwc_not_applicable_beyond_unpadded_1x1(handle, rng, direction):
    """On channels-last tensors the 1x1 solvers refuse padding and (stride 1 solvers) strides,
    and the general GEMM solvers stay NCHW-only, each with a BadParm saying why."""
    rest = {FWD: 91, BWD: 97, WRW: 102}[direction]
    for case, sid in ((Case(2, 4, (9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1)), UNIT_1X1_IDS[direction]),
                      (Case(2, 8, (7, 6), 4, (1, 1), (1, 1), (1, 1), (1, 1)), UNIT_1X1_IDS[direction]),
                      (Case(2, 8, (7, 6), 4, (1, 1), (0, 0), (2, 2), (1, 1)), UNIT_1X1_IDS[direction]),
                      (Case(2, 8, (7, 6), 4, (1, 1), (0, 0), (1, 1), (1, 1)), rest)):
        t = ChannelsLast(case, rng)
        out = channels_last(poisoned(t.expected(direction).shape))
        with pytest.raises(mi.BadParmError, match="not applicable"):
            if direction == FWD:
                mi.convolutionForwardImmediate(handle, t.wd, t.w, t.xd, t.x, t.cd, t.yd, out, None, 0, sid)
            elif direction == BWD:
                mi.convolutionBackwardDataImmediate(handle, t.yd, t.dy, t.wd, t.w, t.cd, t.xd, out, None, 0, sid)
            else:
                mi.convolutionBackwardWeightsImmediate(handle, t.yd, t.dy, t.xd, t.x, t.cd, t.wd, out, None, 0, sid)
        assert np.isnan(out).all()
