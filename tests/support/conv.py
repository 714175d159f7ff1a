"""Convolution for the tests: a case (Case), its float64 answer (reference, from
miopen_cy.reference.conv), one direction run through Find or with a given algorithm (run), the case
lists the conv tests share, one direction's immediate-mode calls (Call), random geometries for
hypothesis (cases) and a case on packed channels-last tensors run through one solution
(ChannelsLast)."""
import numpy as np
import torch.nn.functional as F
from hypothesis import assume, strategies as st

import miopen_cy as mi
from miopen_cy.reference.conv import directions, reference  # noqa: F401 (the conv tests import reference from here)
from support.buffers import desc, poisoned

FWD, BWD, WRW = "F", "B", "W"
TOL = 1e-5


def magnitudes(case, x, w, dy):
    """The float64 y, dx, dw of |x|, |w|, |dy|: each output's sum of the sizes of the products it
    adds, the scale of its float32 rounding error. Where the products cancel (a 1x1 filter over a
    short image: dw is one sum of a few products), the result itself can be far smaller; pass
    them as rel_l2's `scale`."""
    return directions(np.abs(x), np.abs(w), np.abs(dy), case.pad, case.stride, case.dil, case.groups,
                      case.transpose, case.adj)



def driver_tolerance(dt, direction, igemm=False):
    """MIOpenDriver's rms_range tolerance for a convolution (driver/conv_driver.hpp):
    GetDefaultTolerance() (1.5e-6 fp32, 8.2e-3 fp16, x8 bf16); backward weights twice that; an
    implicit GEMM x10 forward and backward data (is_fwd_igemm / is_bwd_igemm) and, backward
    weights in fp16, x5 more (is_wrw_igemm; bf16 gets no extra factor there)."""
    from support.dtypes import RMS_TOL
    tol = RMS_TOL[int(dt)]
    if direction == WRW:
        tol *= 2
        if igemm and int(dt) == int(mi.miopenHalf):
            tol *= 5
    elif igemm:
        tol *= 10
    return tol


class Case:
    """One convolution: input (n, c, *spatial), k filters of (c/groups, *filter)."""

    def __init__(self, n, c, spatial, k, filt, pad, stride, dil, groups=1, transpose=False, adj=None):
        self.n, self.c, self.spatial, self.k, self.filt = n, c, tuple(spatial), k, tuple(filt)
        self.pad, self.stride, self.dil = tuple(pad), tuple(stride), tuple(dil)
        self.groups, self.transpose = groups, transpose
        self.adj = tuple(adj) if adj else (0,) * len(spatial)

    @property
    def dims(self):
        return len(self.spatial)

    @property
    def xshape(self):
        return (self.n, self.c) + self.spatial

    @property
    def wshape(self):
        if self.transpose:          # (C, K/groups, filter)
            return (self.c, self.k // self.groups) + self.filt
        return (self.k, self.c // self.groups) + self.filt

    def conv_desc(self):
        cd = mi.ConvolutionDescriptor()
        mode = mi.miopenTranspose if self.transpose else mi.miopenConvolution
        mi.initConvolutionNdDescriptor(cd, self.dims, self.pad, self.stride, self.dil, mode)
        mi.setConvolutionGroupCount(cd, self.groups)
        if self.transpose and any(self.adj):
            mi.setTransposeConvNdOutputPadding(cd, self.dims, self.adj)
        return cd

    def torch_forward(self, x, w):
        if self.transpose:
            fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[self.dims]
            return fn(x, w, stride=self.stride, padding=self.pad, output_padding=self.adj,
                      dilation=self.dil, groups=self.groups)
        fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[self.dims]
        return fn(x, w, stride=self.stride, padding=self.pad, dilation=self.dil, groups=self.groups)

    def __str__(self):
        s = "x".join
        return (f"n{self.n}-c{self.c}-{s(map(str, self.spatial))}-k{self.k}-{s(map(str, self.filt))}"
                f"-p{s(map(str, self.pad))}-s{s(map(str, self.stride))}-d{s(map(str, self.dil))}"
                f"-g{self.groups}" + ("-T" if self.transpose else ""))


def run(handle, case, direction, x, w, dy, algo=None, alpha=1.0, beta=0.0, out=None, strided=None):
    """Runs one direction through Find (algo None: Find's best) or with `algo`; returns the output."""
    cd = case.conv_desc()
    xd, wd = desc(x.shape), desc(w.shape)
    ys = mi.getConvolutionNdForwardOutputDim(cd, xd, wd)
    yd = desc(ys)
    if direction == FWD:
        ws_size = mi.convolutionForwardGetWorkSpaceSize(handle, wd, xd, cd, yd)
        ws = np.empty(max(ws_size, 1), np.uint8)
        y = poisoned(ys) if out is None else out
        if algo is None:
            algo = mi.findConvolutionForwardAlgorithm(handle, xd, x, wd, w, cd, yd, poisoned(ys), 5, ws,
                                                      ws_size, False)[0].fwd_algo
        mi.convolutionForward(handle, alpha, xd, x, wd, w, cd, algo, beta, yd, y, ws, ws_size)
        return y
    if direction == BWD:
        ws_size = mi.convolutionBackwardDataGetWorkSpaceSize(handle, yd, wd, cd, xd)
        ws = np.empty(max(ws_size, 1), np.uint8)
        dx = poisoned(x.shape) if out is None else out
        if algo is None:
            algo = mi.findConvolutionBackwardDataAlgorithm(handle, yd, dy, wd, w, cd, xd, poisoned(x.shape),
                                                           5, ws, ws_size, False)[0].bwd_data_algo
        mi.convolutionBackwardData(handle, alpha, yd, dy, wd, w, cd, algo, beta, xd, dx, ws, ws_size)
        return dx
    ws_size = mi.convolutionBackwardWeightsGetWorkSpaceSize(handle, yd, xd, cd, wd)
    ws = np.empty(max(ws_size, 1), np.uint8)
    dw = poisoned(w.shape) if out is None else out
    if algo is None:
        algo = mi.findConvolutionBackwardWeightsAlgorithm(handle, yd, dy, xd, x, cd, wd, poisoned(w.shape),
                                                          5, ws, ws_size, False)[0].bwd_weights_algo
    mi.convolutionBackwardWeights(handle, alpha, yd, dy, xd, x, cd, algo, beta, wd, dw, ws, ws_size)
    return dw


CASES = [
    Case(2, 4, (9, 8), 6, (3, 3), (1, 1), (1, 1), (1, 1)),
    Case(2, 8, (9, 8), 6, (3, 2), (1, 2), (2, 1), (1, 2), groups=2),
    Case(1, 6, (7, 7), 6, (3, 3), (1, 1), (1, 1), (1, 1), groups=6),           # depthwise
    Case(2, 8, (6, 5), 12, (1, 1), (0, 0), (1, 1), (1, 1)),                     # 1x1
    Case(2, 8, (7, 6), 4, (1, 1), (0, 0), (2, 2), (1, 1)),                      # 1x1 stride 2
    Case(1, 3, (15, 13), 5, (5, 5), (2, 1), (3, 2), (1, 1)),
    Case(1, 2, (11, 12), 3, (3, 3), (0, 0), (1, 1), (3, 2)),                    # dilation
    Case(2, 4, (5, 6, 4), 3, (3, 2, 2), (1, 0, 1), (1, 2, 1), (1, 1, 2)),       # 3-d
    Case(2, 4, (5, 6, 7), 4, (1, 1, 1), (0, 0, 0), (1, 1, 1), (1, 1, 1), groups=2),
    Case(3, 4, (17,), 6, (3,), (1,), (2,), (1,)),                                # 1-d
    Case(2, 4, (5, 6), 6, (3, 3), (1, 1), (2, 2), (1, 1), transpose=True, adj=(1, 0)),
    Case(1, 4, (4, 3, 3), 2, (3, 3, 2), (1, 1, 0), (2, 1, 2), (1, 1, 1), groups=2, transpose=True),
]

# The GPU solvers' cases: CASES and larger problems too (tiles partly filled, several k steps,
# and a split backward-weights reduction).
GPU_CASES = CASES + [
    Case(4, 64, (14, 14), 96, (3, 3), (1, 1), (1, 1), (1, 1)),
    Case(3, 40, (13, 11), 136, (1, 1), (0, 0), (2, 2), (1, 1)),
    Case(2, 64, (12, 12), 64, (3, 3), (1, 1), (1, 1), (1, 1), groups=4),
    Case(2, 32, (16, 16), 32, (3, 3), (1, 1), (2, 2), (1, 1), groups=32),
    Case(2, 3, (33, 31), 16, (7, 7), (3, 3), (2, 2), (1, 1)),
    Case(2, 8, (11, 10), 8, (3, 3), (1, 1), (2, 2), (2, 1), groups=8),        # depthwise, stride, dilation
    Case(2, 4, (9, 13), 4, (5, 5), (2, 2), (1, 1), (1, 1), groups=4),         # depthwise 5x5
    Case(1, 3, (12, 12), 3, (7, 7), (3, 3), (1, 1), (1, 1), groups=3),        # depthwise, 49 taps
]

# The GPU implicit-GEMM variants with a k step of 16, by canonical direction.
IGEMM_K16 = {
    FWD: ["ConvGpuImplicitGemmFwd<128x64x16>", "ConvGpuImplicitGemmFwd<64x128x16>"],
    BWD: ["ConvGpuImplicitGemmBwd<128x64x16>", "ConvGpuImplicitGemmBwd<64x128x16>"],
    WRW: ["ConvGpuImplicitGemmWrw<128x64x16>", "ConvGpuImplicitGemmWrw<64x128x16>"],
}


def is_gpu(handle):
    return handle.device.startswith("gpu")


# A 3x3 layer every device has several solutions for.
LAYER = Case(2, 8, (10, 9), 6, (3, 3), (1, 1), (1, 1), (1, 1))
# A problem with solutions that need a workspace: on the CPU LAYER's forward (the GEMMs); on the
# GPU only backward weights does (the implicit GEMM splits a reduction of n x out spatial >= 512
# into parts summed through the workspace), so a wider layer.
WIDE = Case(2, 8, (20, 20), 6, (3, 3), (1, 1), (1, 1), (1, 1))


def needy(handle):
    """(case, direction) of a problem some of whose solutions need a workspace on the handle."""
    return (WIDE, WRW) if is_gpu(handle) else (LAYER, FWD)


class Call:
    """One direction of a case: the descriptors in the C argument order of its immediate calls,
    the inputs, a poisoned output and PyTorch's float64 answer."""

    def __init__(self, case, direction, rng):
        x, w, dy, y, dx, dw = reference(case, rng)
        self.cd, self.direction = case.conv_desc(), direction
        xd, wd, yd = desc(x.shape), desc(w.shape), desc(y.shape)
        if direction == FWD:
            self.descs = (wd, xd, self.cd, yd)
            self.inputs, self.expected = ((wd, w), (xd, x)), y
            self.prefix = "convolutionForward"
        elif direction == BWD:
            self.descs = (yd, wd, self.cd, xd)
            self.inputs, self.expected = ((yd, dy), (wd, w)), dx
            self.prefix = "convolutionBackwardData"
        else:
            self.descs = (yd, xd, self.cd, wd)
            self.inputs, self.expected = ((yd, dy), (xd, x)), dw
            self.prefix = "convolutionBackwardWeights"
        self.out_desc = self.descs[3]

    def fn(self, suffix):
        return getattr(mi, self.prefix + suffix)

    def count(self, handle):
        return self.fn("GetSolutionCount")(handle, *self.descs)

    def solutions(self, handle, n=16):
        return self.fn("GetSolution")(handle, *self.descs, n)

    def workspace(self, handle, sid):
        return self.fn("GetSolutionWorkspaceSize")(handle, *self.descs, sid)

    def compile(self, handle, sid):
        self.fn("CompileSolution")(handle, *self.descs, sid)

    def run(self, handle, sid, ws=None, ws_size=None, out=None):
        out = poisoned(self.expected.shape) if out is None else out
        if ws_size is None:
            ws_size = self.workspace(handle, sid)
            ws = np.empty(max(ws_size, 1), np.uint8)
        (ad, a), (bd, b) = self.inputs
        self.fn("Immediate")(handle, ad, a, bd, b, self.cd, self.out_desc, out, ws, ws_size, sid)
        return out


@st.composite
def cases(draw):
    """Random geometries: 1-3 spatial dims, groups, pads, strides, dilations, transposed ones."""
    dims = draw(st.sampled_from([1, 2, 2, 3]))
    groups = draw(st.sampled_from([1, 1, 2, 3]))
    cpg, kpg = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    transpose = draw(st.booleans())
    filt = [draw(st.sampled_from([1, 2, 3, 3])) for _ in range(dims)]
    dil = [draw(st.integers(1, 2)) for _ in range(dims)]
    pad = [draw(st.integers(0, 2)) for _ in range(dims)]
    stride = [draw(st.integers(1, 3)) for _ in range(dims)]
    span = [d * (f - 1) + 1 for d, f in zip(dil, filt)]
    spatial = [draw(st.integers(max(1, s - 2 * p), max(1, s - 2 * p) + 6)) for s, p in zip(span, pad)]
    adj = [draw(st.integers(0, max(0, max(s, d) - 1))) for s, d in zip(stride, dil)] if transpose else None
    if transpose:
        assume(all((i - 1) * s - 2 * p + d * (f - 1) + a + 1 >= 1
                   for i, s, p, d, f, a in zip(spatial, stride, pad, dil, filt, adj)))
    return Case(draw(st.integers(1, 2)), cpg * groups, spatial, kpg * groups, filt, pad, stride, dil,
                groups=groups, transpose=transpose, adj=adj)


def channels_last(a):
    """`a` (logical n, c, spatial...) stored channels-last: a view of a packed (n, spatial..., c) array."""
    return np.moveaxis(np.ascontiguousarray(np.moveaxis(a, 1, -1)), -1, 1)


def cl_desc(a):
    return desc(a.shape, [s // a.itemsize for s in a.strides])


class ChannelsLast:
    """One case on packed channels-last (NHWC / NDHWC) tensors: the inputs, their descriptors and PyTorch's float64
    answers; `run` calls the user's direction through solution `sid` alone (immediate mode, the
    workspace the solution asks for) into a poisoned channels-last output."""

    def __init__(self, case, rng):
        x, w, dy, self.y_ref, self.dx_ref, self.dw_ref = reference(case, rng)
        self.x, self.w, self.dy = channels_last(x), channels_last(w), channels_last(dy)
        self.cd = case.conv_desc()
        self.xd, self.wd, self.yd = cl_desc(self.x), cl_desc(self.w), cl_desc(self.dy)

    def expected(self, direction):
        return {FWD: self.y_ref, BWD: self.dx_ref, WRW: self.dw_ref}[direction]

    def workspace(self, handle, direction, sid):
        if direction == FWD:
            return mi.convolutionForwardGetSolutionWorkspaceSize(handle, self.wd, self.xd, self.cd, self.yd, sid)
        if direction == BWD:
            return mi.convolutionBackwardDataGetSolutionWorkspaceSize(handle, self.yd, self.wd, self.cd, self.xd,
                                                                      sid)
        return mi.convolutionBackwardWeightsGetSolutionWorkspaceSize(handle, self.yd, self.xd, self.cd, self.wd, sid)

    def run(self, handle, direction, sid):
        out = channels_last(poisoned(self.expected(direction).shape))
        size = self.workspace(handle, direction, sid)
        ws = np.empty(max(size, 1), np.uint8)
        if direction == FWD:
            mi.convolutionForwardImmediate(handle, self.wd, self.w, self.xd, self.x, self.cd, self.yd, out, ws,
                                           size, sid)
        elif direction == BWD:
            mi.convolutionBackwardDataImmediate(handle, self.yd, self.dy, self.wd, self.w, self.cd, self.xd, out,
                                                ws, size, sid)
        else:
            mi.convolutionBackwardWeightsImmediate(handle, self.yd, self.dy, self.xd, self.x, self.cd, self.wd,
                                                   out, ws, size, sid)
        return out
