"""MIOpen's XDLOPS implicit-GEMM solvers on tensor cores (conv_hip_implicit_gemm_xdlops.cpp over
hip/kernels/conv/conv_igemm_mma.hip and hip/kernels/common/mma.hpp): forward, backward data and
backward weights in fp16 and bf16 on packed NHWC / NDHWC tensors, each solver forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) on a GPU
handle against PyTorch's float64 convolution of the same stored (rounded) inputs, outputs
NaN-poisoned; and where they refuse, with the reason.

Accuracy: the kernel accumulates in fp32 and rounds once, so every element must be within 2 units
in the last place of the storage type (check_close, relative to max(|ref|, 1)); the test also
applies MIOpenDriver's own check, rms_range <= its tolerance for forward implicit GEMM
(driver/conv_driver.hpp GetDefaultTolerance: 8.2e-3 for fp16, x8 for bf16; RunForwardGPU: x10
for implicit GEMM; backward data: the same x10 for implicit GEMM; backward weights: 2x the default,
then x5 for fp16 implicit GEMM), which is far looser.

GPU tests skip without a GPU; the refusals of problems (layout, type, channels) run on the CPU
handle too, where the solvers report the problem's reason before the device's."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from support.conv import Case, driver_tolerance
from support.devices import requires_gpu
from support.dtypes import HALF_TYPES, as64, check_close, np_dtype, random_stored, rms_range

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

IGEMM = int(mi.miopenConvolutionAlgoImplicitGEMM)
FWD_2D, GROUP_FWD_2D, FWD_3D = ("ConvHipImplicitGemmFwdXdlops", "ConvHipImplicitGemmGroupFwdXdlops",
                                "ConvHipImplicitGemm3DGroupFwdXdlops")
BWD_2D, GROUP_BWD_2D, BWD_3D = ("ConvHipImplicitGemmBwdXdlops", "ConvHipImplicitGemmGroupBwdXdlops",
                                "ConvHipImplicitGemm3DGroupBwdXdlops")
GROUP_WRW_2D, WRW_3D = "ConvHipImplicitGemmGroupWrwXdlops", "ConvHipImplicitGemm3DGroupWrwXdlops"
FWD, BWD, WRW = "F", "B", "W"
DIRECTION = {FWD_2D: FWD, GROUP_FWD_2D: FWD, FWD_3D: FWD, BWD_2D: BWD, GROUP_BWD_2D: BWD, BWD_3D: BWD,
             GROUP_WRW_2D: WRW, WRW_3D: WRW}
# MIOpen's ids (src/solver.cpp, counted by its ++id) and switches (src/solver/conv/*.cpp).
IDS = {FWD_2D: 128, GROUP_FWD_2D: 137, FWD_3D: 138, BWD_2D: 129, GROUP_BWD_2D: 155, BWD_3D: 141,
       GROUP_WRW_2D: 156, WRW_3D: 140}
SWITCHES = {FWD_2D: "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS",
            GROUP_FWD_2D: "MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS",
            FWD_3D: "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS",
            BWD_2D: "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS",
            GROUP_BWD_2D: "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_GROUP_BWD_XDLOPS",
            BWD_3D: "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS",
            GROUP_WRW_2D: "MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS",
            WRW_3D: "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS"}


def c2(n, c, hw, k, filt, pad=(0, 0), stride=(1, 1), dil=(1, 1), groups=1):
    return Case(n, c, hw, k, filt, pad, stride, dil, groups=groups)


def c3(n, c, dhw, k, filt, pad=(0, 0, 0), stride=(1, 1, 1), dil=(1, 1, 1), groups=1):
    return Case(n, c, dhw, k, filt, pad, stride, dil, groups=groups)


# Tiles are 128 (rows: N*Ho*Wo) x 128 (columns: K/G) x 32 (reduction: Y*X*C/G, c fastest).
# Forward and backward data split the reduction when there are fewer tiles than multiprocessors
# (IgemmMmaSplitsK: every part at least 4 steps, at most 16 parts): on a GPU of
# 100 or more multiprocessors, a case whose reduction has 8 steps or more is split (partials in
# the workspace, added in order), one of fewer steps is not.
CASES = {
    FWD_2D: [
        c2(1, 8, (5, 5), 8, (3, 3), (1, 1)),                       # one partial tile everywhere
        c2(3, 24, (13, 11), 40, (3, 3), (1, 1)),                   # odd N; reduction 216: tail of 24
        c2(2, 64, (28, 28), 136, (3, 3), (1, 1), (2, 2)),          # stride 2; K = 136: a column tail
        c2(2, 256, (14, 14), 64, (1, 1)),                          # 1x1, long reduction
        c2(2, 32, (15, 15), 48, (1, 1), (0, 0), (2, 2)),           # 1x1 stride 2
        c2(2, 16, (17, 17), 24, (3, 3), (2, 2), (1, 1), (2, 2)),   # dilation 2
        c2(2, 8, (32, 32), 64, (7, 7), (3, 3), (2, 2)),            # the stem's shape, C = 8
        c2(1, 16, (9, 20), 16, (3, 5), (0, 2), (2, 1), (1, 2)),    # mixed pads, strides, dilations
        c2(4, 32, (30, 30), 32, (3, 3), (1, 1)),                   # many row tiles (M = 3600)
        c2(2, 40, (6, 7), 264, (2, 2), (1, 0), (1, 1)),            # 3 column tiles; even filter
        c2(1, 8, (3, 3), 8, (5, 5), (3, 3)),                       # pads past the input
        # C/G not a multiple of 8: the narrow kernel (a chunk's 8 elements span filter taps)
        c2(2, 3, (32, 32), 64, (7, 7), (3, 3), (2, 2)),            # the stem: C = 3
        c2(2, 4, (15, 13), 24, (3, 3), (1, 1)),                    # C = 4; reduction 36
        c2(2, 12, (9, 9), 136, (3, 3), (1, 1)),                    # C = 12; column tail
        c2(1, 1, (10, 11), 8, (3, 5), (1, 2), (1, 2), (2, 1)),     # C = 1, dilation
        c2(2, 3, (64, 64), 16, (7, 7), (3, 3), (2, 2)),            # the stem at 2048 rows (16 row tiles)
        c2(2, 512, (7, 7), 64, (3, 3), (1, 1)),                    # 1 tile, reduction 4608: split 16 ways
    ],
    GROUP_FWD_2D: [
        c2(2, 32, (9, 9), 48, (3, 3), (1, 1), groups=2),           # C/G 16, K/G 24
        c2(1, 64, (7, 7), 64, (3, 3), (1, 1), groups=8),           # C/G = K/G = 8
        c2(3, 16, (10, 10), 272, (3, 3), (1, 1), (2, 2), groups=2),  # K/G 136: a column tail a group
        c2(2, 24, (11, 8), 6, (1, 1), groups=3),                   # 1x1, K/G 2
        c2(2, 24, (9, 9), 16, (3, 3), (1, 1), groups=2),           # C/G 12: narrow
        c2(2, 6, (9, 9), 12, (3, 3), (1, 1), groups=3),            # C/G 2: narrow, chunk spans 4 taps
        c2(2, 256, (7, 7), 80, (3, 3), (1, 1), groups=2),          # split reduction a group (9 parts)
    ],
    FWD_3D: [
        c3(2, 8, (5, 6, 7), 12, (3, 3, 3), (1, 1, 1)),
        c3(1, 32, (4, 9, 9), 48, (1, 3, 3), (0, 1, 1), (1, 2, 2), groups=2),
        c3(3, 16, (6, 6, 6), 20, (2, 3, 3), (1, 2, 2), (2, 1, 1), (1, 2, 2)),
        c3(1, 16, (3, 4, 5), 136, (1, 1, 1)),
        c3(2, 3, (5, 6, 7), 16, (3, 3, 3), (1, 1, 1)),            # C = 3: narrow
        c3(1, 64, (3, 4, 5), 16, (3, 3, 3), (1, 1, 1)),            # 54 steps in 11 parts: a short last
    ],
    # Backward data: rows N*H*W, columns C/G, reduction Y*X*K/G (K/G a multiple of 8).
    BWD_2D: [
        c2(1, 8, (5, 5), 8, (3, 3), (1, 1)),
        c2(3, 40, (13, 11), 24, (3, 3), (1, 1)),                   # odd N; reduction 216
        c2(2, 136, (28, 28), 64, (3, 3), (1, 1), (2, 2)),          # stride 2 (3/4 of the taps zero); C tail
        c2(2, 64, (14, 14), 256, (1, 1)),                          # 1x1
        c2(2, 48, (15, 15), 32, (1, 1), (0, 0), (2, 2)),           # 1x1 stride 2: dx zero off the grid
        c2(2, 24, (17, 17), 16, (3, 3), (2, 2), (1, 1), (2, 2)),   # dilation 2
        c2(2, 3, (32, 32), 64, (7, 7), (3, 3), (2, 2)),            # the stem: C = 3 (any C/G here)
        c2(1, 16, (9, 20), 16, (3, 5), (0, 2), (2, 1), (1, 2)),    # mixed pads, strides, dilations
        c2(2, 8, (19, 17), 8, (3, 3), (1, 1), (3, 3)),             # stride 3
        c2(2, 264, (6, 7), 40, (2, 2), (1, 0)),                    # 3 column tiles; even filter
        c2(1, 8, (3, 3), 8, (5, 5), (3, 3)),                       # pads past the input
        # Stride phases (one GEMM a residue class of dx positions, only the taps on the grid):
        c2(2, 24, (13, 11), 16, (3, 3), (1, 1), (2, 2)),           # odd sizes: phases of 7 and 6 rows
        c2(1, 16, (17, 14), 8, (5, 5), (2, 2), (3, 3)),            # stride 3, 5x5: 2 or 1 taps a phase
        c2(2, 8, (10, 9), 16, (3, 3), (1, 1), (2, 3), (2, 1)),     # dilation 2 = stride: half the phases tapless
        c2(2, 8, (9, 9), 8, (2, 2), (0, 0), (4, 4)),               # stride 4 > filter: tapless phases, zeros
        c2(1, 8, (3, 4), 8, (1, 1), (0, 0), (3, 3)),               # 1x1 stride 3, phases of 1 row
        c2(4, 32, (30, 30), 40, (3, 3), (1, 1), (2, 2)),           # 8 row tiles a phase
        c2(2, 64, (14, 14), 256, (5, 5), (2, 2), (2, 2)),          # phases of 9/6/6/4 taps, split 15: empty parts
        c2(2, 64, (7, 7), 512, (3, 3), (1, 1)),                    # 1 tile, reduction 4608: split 16 ways
        c2(2, 64, (14, 14), 256, (3, 3), (1, 1), (2, 2)),          # stride 2, split
    ],
    GROUP_BWD_2D: [
        c2(2, 48, (9, 9), 32, (3, 3), (1, 1), groups=2),           # C/G 24, K/G 16
        c2(1, 64, (7, 7), 64, (3, 3), (1, 1), groups=8),           # C/G = K/G = 8
        c2(3, 272, (10, 10), 16, (3, 3), (1, 1), (2, 2), groups=2),  # C/G 136
        c2(2, 6, (11, 8), 24, (1, 1), groups=3),                   # C/G 2
        c2(2, 32, (11, 11), 32, (3, 3), (1, 1), (2, 2), groups=4),  # stride phases a group (grid z 16)
        c2(2, 80, (7, 7), 256, (3, 3), (1, 1), groups=2),          # split reduction a group
    ],
    BWD_3D: [
        c3(2, 12, (5, 6, 7), 8, (3, 3, 3), (1, 1, 1)),
        c3(1, 48, (4, 9, 9), 32, (1, 3, 3), (0, 1, 1), (1, 2, 2), groups=2),
        c3(3, 20, (6, 6, 6), 16, (2, 3, 3), (1, 2, 2), (2, 1, 1), (1, 2, 2)),
        c3(1, 136, (3, 4, 5), 16, (1, 1, 1)),
        c3(2, 16, (7, 6, 5), 8, (3, 3, 3), (1, 1, 1), (2, 2, 2)),  # 8 stride phases
        c3(1, 8, (5, 7, 6), 16, (1, 3, 2), (0, 1, 0), (1, 3, 2)),  # strides 1, 3, 2: 6 phases
        c3(1, 16, (3, 4, 5), 64, (3, 3, 3), (1, 1, 1)),            # 54 steps in 11 parts
    ],
    # Backward weights: rows K/G, columns taps * C/G (c fastest), reduction N*Ho*Wo split over
    # blocks; any channel counts.
    GROUP_WRW_2D: [
        c2(1, 8, (5, 5), 8, (3, 3), (1, 1)),
        c2(3, 24, (13, 11), 40, (3, 3), (1, 1)),                   # odd N
        c2(2, 64, (28, 28), 136, (3, 3), (1, 1), (2, 2)),          # stride 2; K tail; long reduction
        c2(2, 256, (14, 14), 64, (1, 1)),                          # 1x1, 2 column tiles
        c2(2, 3, (32, 32), 64, (7, 7), (3, 3), (2, 2)),            # the stem: C = 3
        c2(1, 16, (9, 20), 12, (3, 5), (0, 2), (2, 1), (1, 2)),    # mixed; K = 12
        c2(8, 32, (30, 30), 32, (3, 3), (1, 1)),                   # N*Ho*Wo = 7200: many splits
        c2(2, 48, (9, 9), 32, (3, 3), (1, 1), groups=2),
        c2(1, 64, (7, 7), 64, (3, 3), (1, 1), groups=8),
        c2(2, 6, (11, 8), 9, (1, 1), groups=3),                    # C/G 2, K/G 3
        c2(1, 8, (3, 3), 8, (5, 5), (3, 3)),                       # pads past the input
    ],
    WRW_3D: [
        c3(2, 8, (5, 6, 7), 12, (3, 3, 3), (1, 1, 1)),
        c3(1, 32, (4, 9, 9), 48, (1, 3, 3), (0, 1, 1), (1, 2, 2), groups=2),
        c3(3, 5, (6, 6, 6), 7, (2, 3, 3), (1, 2, 2), (2, 1, 1), (1, 2, 2)),
    ],
}
ALL = [(s, c) for s, cs in CASES.items() for c in cs]


def layout_of(case):
    return mi.miopenTensorNHWC if case.dims == 2 else mi.miopenTensorNDHWC


def tdesc(case, dt, shape):
    d = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(d, dt, layout_of(case), [int(s) for s in shape], len(shape))
    return d


def to_last(a):
    """The channels-last bytes of logical (N, C, spatial...) array a."""
    return np.ascontiguousarray(np.moveaxis(a, 1, -1))


def from_last(a):
    return np.moveaxis(a, -1, 1)


def out_shape(case):
    cd = case.conv_desc()
    xd, wd = mi.TensorDescriptor(), mi.TensorDescriptor()
    mi.setTensorDescriptor(xd, mi.miopenFloat, len(case.xshape), list(case.xshape), None)
    mi.setTensorDescriptor(wd, mi.miopenFloat, len(case.wshape), list(case.wshape), None)
    return tuple(mi.getConvolutionNdForwardOutputDim(cd, xd, wd))


def torch_ref(case, x, w):
    return case.torch_forward(torch.from_numpy(as64(x)), torch.from_numpy(as64(w))).numpy()


def torch_bwd_ref(case, dy, w):
    """dx of the convolution for output gradient dy, by float64 autograd."""
    xt = torch.zeros(case.xshape, dtype=torch.float64, requires_grad=True)
    case.torch_forward(xt, torch.from_numpy(as64(w))).backward(torch.from_numpy(as64(dy)))
    return xt.grad.numpy()


def torch_wrw_ref(case, x, dy):
    """dw of the convolution for output gradient dy, by float64 autograd."""
    wt = torch.zeros(case.wshape, dtype=torch.float64, requires_grad=True)
    case.torch_forward(torch.from_numpy(as64(x)), wt).backward(torch.from_numpy(as64(dy)))
    return wt.grad.numpy()


def inputs(case, dt, direction, rng):
    """(a, b, float64 reference): (x, w) forward, (dy, w) backward data, (x, dy) backward weights."""
    if direction == WRW:
        x, dy = random_stored(case.xshape, dt, rng), random_stored(out_shape(case), dt, rng)
        return x, dy, torch_wrw_ref(case, x, dy)
    w = random_stored(case.wshape, dt, rng)
    if direction == FWD:
        x = random_stored(case.xshape, dt, rng)
        return x, w, torch_ref(case, x, w)
    dy = random_stored(out_shape(case), dt, rng)
    return dy, w, torch_bwd_ref(case, dy, w)


def run_gpu(h, case, dt, direction, src, w, offset=0):
    """Forward: y = conv(src = x, w); backward data: dx = conv_bwd_data(src = dy, w); backward
    weights: dw = conv_bwd_weights(src = x, w = dy); with algorithm ImplicitGEMM on GPU handle h;
    channels-last device buffers, each `offset` elements past a 256-byte-aligned allocation (1: the
    unaligned path)."""
    ys = out_shape(case)
    os_ = {FWD: ys, BWD: case.xshape, WRW: case.wshape}[direction]
    bufs = []

    def place(a):
        host = np.concatenate([np.zeros(offset, a.dtype), to_last(a).reshape(-1)])
        b = mi.DeviceBuffer.from_numpy(h, host)
        bufs.append(b)
        return b, b.ptr + offset * a.dtype.itemsize

    _, sp = place(src)
    _, wp = place(w)
    ob, op = place(np.full(os_, np.nan, dtype=np_dtype(dt)))
    xd, wd, yd = tdesc(case, dt, case.xshape), tdesc(case, dt, case.wshape), tdesc(case, dt, ys)
    cd = case.conv_desc()
    # The workspace holds the split reduction's fp32 partials (none when unsplit): NaN-filled.
    if direction == FWD:
        size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        ws = mi.DeviceBuffer.from_numpy(h, np.full(max(size, 1), 0xFF, np.uint8))
        mi.convolutionForward(h, 1.0, xd, sp, wd, wp, cd, IGEMM, 0.0, yd, op, ws, size)
    elif direction == BWD:
        size = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd)
        ws = mi.DeviceBuffer.from_numpy(h, np.full(max(size, 1), 0xFF, np.uint8))
        mi.convolutionBackwardData(h, 1.0, yd, sp, wd, wp, cd, IGEMM, 0.0, xd, op, ws, size)
    else:
        size = mi.convolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, cd, wd)
        ws = mi.DeviceBuffer.from_numpy(h, np.full(max(size, 1), 0xFF, np.uint8))   # NaN-filled partials
        # here `w` is dy
        mi.convolutionBackwardWeights(h, 1.0, yd, wp, xd, sp, cd, IGEMM, 0.0, wd, op, ws, size)
    phys = (os_[0],) + tuple(os_[2:]) + (os_[1],)
    raw = ob.to_numpy((offset + int(np.prod(os_)),), np_dtype(dt))[offset:]
    return from_last(raw.reshape(phys))


@requires_gpu
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("solver,case", ALL, ids=lambda v: str(v))
def test_forced_xdlops_matches_torch_float64(rng, monkeypatch, solver, case, dt):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    h = mi.Handle(device="gpu")
    direction = DIRECTION[solver]
    src, w, ref = inputs(case, dt, direction, rng)
    y = run_gpu(h, case, dt, direction, src, w)
    what = f"{solver} {case} {'fp16' if int(dt) == int(mi.miopenHalf) else 'bf16'}"
    assert np.all(np.isfinite(as64(y))), f"{what}: unwritten (NaN) outputs"
    assert rms_range(y, ref) <= driver_tolerance(dt, direction, igemm=True), what
    check_close(y, ref, dt, ulps=2, err_msg=what)


@requires_gpu
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("solver", list(CASES))
def test_unaligned_buffers_give_the_same_bits(rng, monkeypatch, solver, dt):
    """Buffers one element past 16-byte alignment take the kernel's 2-byte loads: same sums, same
    order, so the same bits as the aligned run (whose 16-byte copies fill transposed tiles for
    backward data's w and backward weights' x and dy); and the same bits on a second run."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    h = mi.Handle(device="gpu")
    case, direction = CASES[solver][1], DIRECTION[solver]
    src, w, ref = inputs(case, dt, direction, rng)
    a = run_gpu(h, case, dt, direction, src, w, offset=0)
    b = run_gpu(h, case, dt, direction, src, w, offset=1)
    c = run_gpu(h, case, dt, direction, src, w, offset=0)
    assert a.tobytes() == b.tobytes() == c.tobytes()
    check_close(a, ref, dt, ulps=2)


@requires_gpu
@pytest.mark.parametrize("solver", list(CASES))
def test_switch_turns_the_solver_off(rng, monkeypatch, solver):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    monkeypatch.setenv(SWITCHES[solver], "0")
    h = mi.Handle(device="gpu")
    case, direction = CASES[solver][0], DIRECTION[solver]
    src, w, _ = inputs(case, mi.miopenHalf, direction, rng)
    with pytest.raises(mi.MIOpenError, match=f"{SWITCHES[solver]}=0"):
        run_gpu(h, case, mi.miopenHalf, direction, src, w)


@requires_gpu
def test_find_and_immediate_mode_prefer_the_tensor_cores(rng):
    """Without forcing, Find's best and the immediate-mode first choice for an fp16 NHWC layer is
    the tensor-core solver."""
    h = mi.Handle(device="gpu")
    case = c2(8, 64, (28, 28), 64, (3, 3), (1, 1))
    dt = mi.miopenHalf
    xd, wd = tdesc(case, dt, case.xshape), tdesc(case, dt, case.wshape)
    yd = tdesc(case, dt, out_shape(case))
    cd = case.conv_desc()
    sols = mi.convolutionForwardGetSolution(h, wd, xd, cd, yd, 4)
    assert sols and int(sols[0].solution_id) == IDS[FWD_2D], [int(s.solution_id) for s in sols]
    sols = mi.convolutionBackwardDataGetSolution(h, yd, wd, cd, xd, 4)
    assert sols and int(sols[0].solution_id) == IDS[BWD_2D], [int(s.solution_id) for s in sols]
    sols = mi.convolutionBackwardWeightsGetSolution(h, yd, xd, cd, wd, 4)
    assert sols and int(sols[0].solution_id) == IDS[GROUP_WRW_2D], [int(s.solution_id) for s in sols]


# ---- refusals (any handle: the problem's rules come before the device's) ------------------------

def _refusal(handle, monkeypatch, solver, case, dt, layout):
    """The error of a forced run of `solver` on the problem; the output must stay NaN."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    direction = DIRECTION[solver]
    ys = out_shape(case)
    a_shape, b_shape, out_shape_ = {FWD: (case.xshape, case.wshape, ys), BWD: (ys, case.wshape, case.xshape),
                                    WRW: (case.xshape, ys, case.wshape)}[direction]
    a = random_stored(a_shape, dt, np.random.default_rng(0))
    b = random_stored(b_shape, dt, np.random.default_rng(1))

    def d(shape):
        t = mi.TensorDescriptor()
        mi.setNdTensorDescriptorWithLayout(t, dt, layout, [int(s) for s in shape], len(shape))
        return t

    nhwc = layout in (mi.miopenTensorNHWC, mi.miopenTensorNDHWC)
    out = np.full(out_shape_, np.nan, dtype=np_dtype(dt))
    aa, ba, oa = (to_last(v) if nhwc else v for v in (a, b, out))
    if handle.device != "cpu":                  # "gpu:N"
        aa, ba, oa = (mi.DeviceBuffer.from_numpy(handle, v) for v in (aa, ba, oa))
    ws = np.empty(1, np.uint8) if handle.device == "cpu" else mi.DeviceBuffer(handle, 1)
    xd, wd, yd = d(case.xshape), d(case.wshape), d(ys)
    cd = case.conv_desc()
    with pytest.raises(mi.MIOpenError) as info:
        if direction == FWD:
            mi.convolutionForward(handle, 1.0, xd, aa, wd, ba, cd, IGEMM, 0.0, yd, oa, ws, 0)
        elif direction == BWD:
            mi.convolutionBackwardData(handle, 1.0, yd, aa, wd, ba, cd, IGEMM, 0.0, xd, oa, ws, 0)
        else:
            mi.convolutionBackwardWeights(handle, 1.0, yd, ba, xd, aa, cd, IGEMM, 0.0, wd, oa, ws, 0)
    after = oa if handle.device == "cpu" else oa.to_numpy((int(np.prod(out_shape_)),), np_dtype(dt))
    assert np.all(np.isnan(as64(after))), "a refused call wrote its output"
    return str(info.value)


def _handles():
    out = [pytest.param("cpu", id="cpu")]
    out.append(pytest.param("gpu", id="gpu", marks=requires_gpu))
    return out


REFUSALS = [
    # (solver, case, type, layout, reason)
    (FWD_2D, CASES[FWD_2D][1], mi.miopenHalf, mi.miopenTensorNCHW,
     "needs packed NHWC / NDHWC tensors (channels last)"),
    (FWD_2D, CASES[GROUP_FWD_2D][0], mi.miopenHalf, mi.miopenTensorNHWC, "needs one group"),
    (GROUP_FWD_2D, CASES[FWD_2D][0], mi.miopenHalf, mi.miopenTensorNHWC, "needs several groups"),
    (FWD_2D, CASES[FWD_3D][0], mi.miopenHalf, mi.miopenTensorNDHWC, "needs 2 spatial dims"),
    (FWD_3D, CASES[FWD_2D][0], mi.miopenHalf, mi.miopenTensorNHWC, "needs 3 spatial dims"),
    (FWD_2D, CASES[FWD_2D][0], mi.miopenFloat, mi.miopenTensorNHWC, "does not compute in miopenFloat"),
    (BWD_2D, CASES[BWD_2D][1], mi.miopenHalf, mi.miopenTensorNCHW,
     "needs packed NHWC / NDHWC tensors (channels last)"),
    (BWD_2D, c2(2, 16, (9, 9), 12, (3, 3), (1, 1)), mi.miopenHalf, mi.miopenTensorNHWC,
     "needs K/G a multiple of 8"),
    (GROUP_BWD_2D, CASES[BWD_2D][0], mi.miopenBFloat16, mi.miopenTensorNHWC, "needs several groups"),
    (BWD_3D, CASES[BWD_2D][0], mi.miopenHalf, mi.miopenTensorNHWC, "needs 3 spatial dims"),
    (GROUP_WRW_2D, CASES[GROUP_WRW_2D][1], mi.miopenHalf, mi.miopenTensorNCHW,
     "needs packed NHWC / NDHWC tensors (channels last)"),
    (GROUP_WRW_2D, CASES[WRW_3D][0], mi.miopenBFloat16, mi.miopenTensorNDHWC, "needs 2 spatial dims"),
    (WRW_3D, CASES[GROUP_WRW_2D][0], mi.miopenHalf, mi.miopenTensorNHWC, "needs 3 spatial dims"),
    (WRW_3D, CASES[WRW_3D][0], mi.miopenFloat, mi.miopenTensorNDHWC, "does not compute in miopenFloat"),
]


@pytest.mark.parametrize("device", _handles())
@pytest.mark.parametrize("solver,case,dt,layout,reason", REFUSALS, ids=lambda v: str(v))
def test_refusals_say_why(monkeypatch, device, solver, case, dt, layout, reason):
    if int(dt) == int(mi.miopenBFloat16):
        np_dtype(dt)   # skips without ml_dtypes
    msg = _refusal(mi.Handle(device=device), monkeypatch, solver, case, dt, layout)
    assert f"{solver} not applicable: {reason}" in msg, msg


# ---- split reduction (forward and backward data) ------------------------------------------------

SPLIT_CASES = [(FWD_2D, CASES[FWD_2D][-1]), (BWD_2D, CASES[BWD_2D][-2]), (GROUP_FWD_2D, CASES[GROUP_FWD_2D][-1]),
               (BWD_3D, CASES[BWD_3D][-1]), (BWD_2D, CASES[BWD_2D][-1]), (BWD_2D, CASES[BWD_2D][-3])]


@requires_gpu
@pytest.mark.parametrize("dt", HALF_TYPES)
@pytest.mark.parametrize("solver,case", SPLIT_CASES, ids=lambda v: str(v))
def test_split_reduction_needs_a_workspace_and_repeats_its_bits(rng, monkeypatch, solver, case, dt):
    """A layer of one or two output tiles and a long reduction splits it: the solver asks for the
    partials' workspace (splits * output elements floats), and two runs give the same bits."""
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    h = mi.Handle(device="gpu")
    direction = DIRECTION[solver]
    ys = out_shape(case)
    xd, wd, yd = tdesc(case, dt, case.xshape), tdesc(case, dt, case.wshape), tdesc(case, dt, ys)
    cd = case.conv_desc()
    if direction == FWD:
        size, out_elems = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd), int(np.prod(ys))
    else:
        size, out_elems = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd), int(np.prod(case.xshape))
    assert size > 0 and size % (4 * out_elems) == 0 and 2 <= size // (4 * out_elems) <= 16, size
    src, w, ref = inputs(case, dt, direction, rng)
    a = run_gpu(h, case, dt, direction, src, w)
    b = run_gpu(h, case, dt, direction, src, w)
    assert a.tobytes() == b.tobytes()
    check_close(a, ref, dt, ulps=2)
