"""conv: one convolution layer in its three directions (Find, timed calls, verification), with
MIOpenDriver's flags, output lines and optional bias; ConvCase and ConvRunner also serve `net`."""
import contextlib
import os
import shlex
import tempfile

import numpy as np

import miopen_cy as mi
from miopen_cy.reference import conv as conv_ref
from .buffers import Device, HostTensor, data_rng, load_or
from .dtypes import FP32, as64
from .flags import CONV_FLAGS, LAYOUTS, PROG, UsageError, parse_flags
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, corrupt_hook, rms_range
from .timing import average_excluding_first, result, timed_calls

# fp32 tolerance on MIOpen's error metric (rms_range): MIOpen's own ConvDriver values.
CONV_TOL = 1.5e-6
# fp16's (driver/conv_driver.hpp GetDefaultTolerance); bf16 takes 8 times it.
CONV_TOL_FP16 = 8.2e-3

DIRECTIONS = [(1, "fwd", "Forward Convolution", "Forward Conv.", "fwd-conv"),
              (2, "bwd", "Backward Convolution Data", "Backward Data Conv.", "bwdd-conv"),
              (4, "wrw", "Backward Convolution Weights", "Backward Weights Conv.", "bwdw-conv")]
ALGO_NAMES = {0: "GEMM", 1: "Direct", 2: "FFT", 3: "Winograd", 5: "ImplicitGEMM"}


class ConvCase:
    """One convolution layer as MIOpenDriver describes it: the user's x (N, C, spatial), the
    filter (K, C/g, filt) or, transposed, (C, K/g, filt), pads/strides/dilations per spatial dim
    (outermost first), groups, mode and the transposed output padding."""

    def __init__(self, n, c, k, spatial, filt, pads, strides, dils, groups=1, transpose=False,
                 adj=None, layouts=("", "", ""), name=None):
        self.n, self.c, self.k = int(n), int(c), int(k)
        self.spatial, self.filt = tuple(spatial), tuple(filt)
        self.pads, self.strides, self.dils = tuple(pads), tuple(strides), tuple(dils)
        self.groups, self.transpose = int(groups), bool(transpose)
        self.adj = tuple(adj) if adj else (0,) * len(self.spatial)
        self.layouts = layouts
        self.name = name

    @property
    def dims(self):
        return len(self.spatial)

    @property
    def xlens(self):
        return (self.n, self.c) + self.spatial

    @property
    def wlens(self):
        if self.transpose:
            return (self.c, self.k // self.groups) + self.filt
        return (self.k, self.c // self.groups) + self.filt

    def validate(self):
        g = self.groups
        if g < 1:
            raise UsageError(f"-g {g}: the group count must be >= 1")
        if self.c % g or self.k % g:
            raise UsageError(f"-g {g}: the group count must divide both -c {self.c} and -k {self.k}")
        for what, vals, lo in (("batch/channel/spatial length", (self.n, self.c, self.k) + self.spatial, 1),
                               ("filter length", self.filt, 1), ("stride", self.strides, 1),
                               ("dilation", self.dils, 1), ("pad", self.pads, 0), ("output pad", self.adj, 0)):
            bad = [v for v in vals if v < lo]
            if bad:
                raise UsageError(f"a {what} of {bad[0]} is invalid (must be >= {lo})")

    def conv_desc(self):
        cd = mi.ConvolutionDescriptor()
        mode = mi.miopenTranspose if self.transpose else mi.miopenConvolution
        mi.initConvolutionNdDescriptor(cd, self.dims, list(self.pads), list(self.strides),
                                       list(self.dils), mode)
        mi.setConvolutionGroupCount(cd, self.groups)
        if self.transpose and any(self.adj):
            mi.setTransposeConvNdOutputPadding(cd, self.dims, list(self.adj))
        return cd

    def describe(self):
        s = "x".join
        mode = "trans" if self.transpose else "conv"
        return (f"{mode} {self.dims}-d: x {s(map(str, self.xlens))}, w {s(map(str, self.wlens))}, "
                f"pad {s(map(str, self.pads))}, stride {s(map(str, self.strides))}, "
                f"dilation {s(map(str, self.dils))}, groups {self.groups}"
                + (f", output pad {s(map(str, self.adj))}" if self.transpose else ""))

    def command(self, forw, dtype=FP32):
        """The miopen-driver command line of this layer (the shape convolution.cpp logs)."""
        d = self.dims
        parts = ["conv" + dtype.suffix]
        if d != 2:
            parts += ["--spatial_dim", str(d)]
        parts += ["-n", self.n, "-c", self.c]
        if d == 3:
            parts += ["-!", self.spatial[0], "-H", self.spatial[1], "-W", self.spatial[2]]
        elif d == 2:
            parts += ["-H", self.spatial[0], "-W", self.spatial[1]]
        else:
            parts += ["-W", self.spatial[0]]
        parts += ["-k", self.k]
        if d == 3:
            parts += ["-@", self.filt[0], "-y", self.filt[1], "-x", self.filt[2],
                      "-$", self.pads[0], "-#", self.strides[0], "-^", self.dils[0]]
        if d >= 2:
            if d == 2:
                parts += ["-y", self.filt[0], "-x", self.filt[1]]
            parts += ["-p", self.pads[-2], "-q", self.pads[-1], "-u", self.strides[-2],
                      "-v", self.strides[-1], "-l", self.dils[-2], "-j", self.dils[-1]]
        else:
            parts += ["-x", self.filt[0], "-q", self.pads[0], "-v", self.strides[0], "-j", self.dils[0]]
        parts += ["-m", "trans" if self.transpose else "conv", "-g", self.groups]
        if self.transpose:
            if d == 3:
                parts += ["-%", self.adj[0]]
            if d >= 2:
                parts += ["-Y", self.adj[-2]]
            parts += ["-X", self.adj[-1]]
        parts += ["-F", forw, "-t", 1]
        for flag, lay in zip(("--in_layout", "--fil_layout", "--out_layout"), self.layouts):
            if lay and lay not in ("NCHW", "NCDHW", "NCW"):
                parts += [flag, lay]
        return f"{PROG} " + " ".join(shlex.quote(str(p)) for p in parts)

    def canonical_key(self, direction, ylens, packed, dtype=FP32):
        """The find-db key (hip/src/conv/problem.cpp ConvProblem::Key) of this layer's problem in
        canonical terms: a transposed convolution is the adjoint of an ordinary one."""
        t = self.transpose
        xin = ylens if t else self.xlens                 # the convolution's input side
        yout = self.xlens if t else ylens
        canon = {"fwd": "B" if t else "F", "bwd": "F" if t else "B", "wrw": "W"}[direction]
        j = lambda v, sep: sep.join(str(int(e)) for e in v)
        if packed:
            lay = "NCDHW" if self.dims == 3 else "NCHW"
        elif all(lay.endswith("C") for lay in self.layouts):       # all channels-last, packed
            lay = "NDHWC-NDHWC-NDHWC" if self.dims == 3 else "NHWC-NHWC-NHWC"
        else:
            lay = "STRIDED"
        word = {"fp32": "FP32", "fp16": "FP16", "bf16": "BF16"}[dtype.name]
        return (f"{xin[1]}-{j(xin[2:], '-')}-{j(self.filt, 'x')}-{yout[1]}-{j(yout[2:], '-')}-"
                f"{xin[0]}-{j(self.pads, 'x')}-{j(self.strides, 'x')}-{j(self.dils, 'x')}-"
                f"{self.groups}-{lay}-{word}-{canon}")

    def macs(self, ylens):
        """Multiply-adds of the convolution (the same in every direction)."""
        small = ylens if not self.transpose else self.xlens          # the convolution's output
        big_c = self.c if not self.transpose else self.k              # its input channels
        out_c = small[1]
        return (self.n * out_c * (big_c // self.groups) * int(np.prod(self.filt))
                * int(np.prod(small[2:])))


# MIOpen's immediate-mode variables that change which solutions it lists (not which solver a
# convolution call runs): cleared while the driver asks which solver ran.
_IMMEDIATE_VARS = ("MIOPEN_DEBUG_FORCE_IMMED_MODE_FALLBACK", "MIOPEN_DEBUG_CONV_IMMED_FALLBACK")


@contextlib.contextmanager
def _without(names):
    saved = {n: os.environ.pop(n) for n in names if n in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def solver_that_ran(handle, direction, xd, wd, yd, cd, algo, workspace_limit):
    """The name of the solver a convolution call of `algo` with `workspace_limit` bytes of
    workspace runs, asked of the library as MIOpenDriver does after Find: immediate mode lists the
    problem's solutions, those of Find's find-db record first and fastest first (what the call
    picks), then the estimates; the first of `algo` that fits the workspace is the one. Its name
    comes from the id (miopenCyGetSolverIdName). None when the library lists none."""
    with _without(_IMMEDIATE_VARS):
        if direction == "fwd":
            n = mi.convolutionForwardGetSolutionCount(handle, wd, xd, cd, yd)
            sols = mi.convolutionForwardGetSolution(handle, wd, xd, cd, yd, max(n, 1)) if n else []
        elif direction == "bwd":
            n = mi.convolutionBackwardDataGetSolutionCount(handle, yd, wd, cd, xd)
            sols = mi.convolutionBackwardDataGetSolution(handle, yd, wd, cd, xd, max(n, 1)) if n else []
        else:
            n = mi.convolutionBackwardWeightsGetSolutionCount(handle, yd, xd, cd, wd)
            sols = mi.convolutionBackwardWeightsGetSolution(handle, yd, xd, cd, wd, max(n, 1)) if n else []
    for s in sols:
        if int(s.algorithm) == int(algo) and s.workspace_size <= workspace_limit:
            return mi.cyGetSolverIdName(s.solution_id)
    return None


class ConvRunner:
    """Runs the directions of one ConvCase on a device: Find, then `iters` timed calls with the
    fastest algorithm, then verification against the float64 reference."""

    def __init__(self, device, case, seed=0, search=False, files=None, dtype=FP32):
        self.device, self.case, self.search, self.dtype = device, case, search, dtype
        case.validate()
        lay_x, lay_w, lay_y = case.layouts
        self.x = HostTensor(case.xlens, layout=lay_x or None, dtype=dtype)
        self.w = HostTensor(case.wlens, layout=lay_w or None, dtype=dtype)
        self.xd, self.wd = self.x.desc(), self.w.desc()
        self.cd = case.conv_desc()
        self.ylens = tuple(mi.getConvolutionNdForwardOutputDim(self.cd, self.xd, self.wd))
        if min(self.ylens) < 1:
            raise mi.BadParmError(f"the output would be {'x'.join(map(str, self.ylens))}: "
                                  "the filter does not fit the padded input")
        self.y = HostTensor(self.ylens, layout=lay_y or None, dtype=dtype)
        self.yd = self.y.desc()
        # MIOpenDriver's data: x and dy in 0.01 * U(0, 1), w in 0.01 * U(-0.5, 0.5).
        rng = data_rng(seed)
        files = files or {}
        self.x_data = load_or(files.get("in_data"), self.x.lens, lambda s: 0.01 * rng.random(s))
        self.w_data = load_or(files.get("weights"), self.w.lens, lambda s: 0.01 * (rng.random(s) - 0.5))
        self.dy_data = load_or(files.get("dout_data"), self.ylens, lambda s: 0.01 * rng.random(s))
        # In fp16/bf16 the data is rounded once to the type, and the float64 reference runs on
        # the stored values (as MIOpenDriver's host reference does).
        if dtype is not FP32:
            self.x_data, self.w_data, self.dy_data = (as64(dtype.store(a)) for a in
                                                      (self.x_data, self.w_data, self.dy_data))
        self.packed = self.x.packed and self.w.packed and self.y.packed

    def reference(self, direction):
        c = self.case
        args = (c.pads, c.strides, c.dils, c.groups)
        if direction == "fwd":
            if c.transpose:
                return conv_ref.backward_data(self.x_data, self.w_data, self.ylens[2:], *args)
            return conv_ref.forward(self.x_data, self.w_data, *args)
        if direction == "bwd":
            if c.transpose:
                return conv_ref.forward(self.dy_data, self.w_data, *args, out=c.spatial)
            return conv_ref.backward_data(self.dy_data, self.w_data, c.spatial, *args)
        if c.transpose:
            return conv_ref.backward_weights(self.dy_data, self.x_data, c.filt, *args)
        return conv_ref.backward_weights(self.x_data, self.dy_data, c.filt, *args)

    def run(self, direction, iters, corrupt=None):
        """One direction: returns a result dict (algorithm, solver, times, output array)."""
        dev, h = self.device, self.device.handle
        xd, wd, yd, cd = self.xd, self.wd, self.yd, self.cd
        # Inputs of this direction hold data; its output is NaN-poisoned so unwritten elements fail.
        for t, data in ((self.x, self.x_data), (self.w, self.w_data), (self.y, self.dy_data)):
            t.buf[...] = np.nan
        if direction == "fwd":
            self.x.set(self.x_data)
            self.w.set(self.w_data)
            out_t = self.y
            ws_size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        elif direction == "bwd":
            self.y.set(self.dy_data)
            self.w.set(self.w_data)
            out_t = self.x
            ws_size = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd)
        else:
            self.y.set(self.dy_data)
            self.x.set(self.x_data)
            out_t = self.w
            ws_size = mi.convolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, cd, wd)
        bx, bw, by = dev.put(self.x), dev.put(self.w), dev.put(self.y)
        ws = dev.workspace(ws_size)
        if direction == "fwd":
            perf = mi.findConvolutionForwardAlgorithm(h, xd, bx, wd, bw, cd, yd, by, 5, ws, ws_size, self.search)
            algo = int(perf[0].fwd_algo)
        elif direction == "bwd":
            perf = mi.findConvolutionBackwardDataAlgorithm(h, yd, by, wd, bw, cd, xd, bx, 5, ws, ws_size, self.search)
            algo = int(perf[0].bwd_data_algo)
        else:
            perf = mi.findConvolutionBackwardWeightsAlgorithm(h, yd, by, xd, bx, cd, wd, bw, 5, ws, ws_size, self.search)
            algo = int(perf[0].bwd_weights_algo)
        need = int(perf[0].memory)
        ws_run = dev.workspace(need)
        # Find wrote the output: poison it again, so the timed calls alone must produce it.
        out_t.buf[...] = np.nan
        out_dev = {"fwd": by, "bwd": bx, "wrw": bw}[direction]
        if dev.gpu:
            out_dev.copy_from(out_t.buf)

        def call():
            if direction == "fwd":
                mi.convolutionForward(h, 1.0, xd, bx, wd, bw, cd, algo, 0.0, yd, by, ws_run, need)
            elif direction == "bwd":
                mi.convolutionBackwardData(h, 1.0, yd, by, wd, bw, cd, algo, 0.0, xd, bx, ws_run, need)
            else:
                mi.convolutionBackwardWeights(h, 1.0, yd, by, xd, bx, cd, algo, 0.0, wd, bw, ws_run, need)

        kernel, wall = timed_calls(dev, call, iters)
        out = dev.get(out_t, out_dev)
        if corrupt is not None:
            out = corrupt(direction, out)
        key = self.case.canonical_key(direction, self.ylens, self.packed, self.dtype)
        solver = solver_that_ran(h, direction, xd, wd, yd, cd, algo, need)
        macs = self.case.macs(self.ylens)
        size = self.dtype.itemsize
        sizes = {"x": int(np.prod(self.x.lens)) * size, "w": int(np.prod(self.w.lens)) * size,
                 "y": int(np.prod(self.ylens)) * size}
        read, written = {"fwd": (sizes["x"] + sizes["w"], sizes["y"]),
                         "bwd": (sizes["y"] + sizes["w"], sizes["x"]),
                         "wrw": (sizes["y"] + sizes["x"], sizes["w"])}[direction]
        avg = average_excluding_first(kernel)
        return {
            "direction": direction, "algorithm": algo, "algorithm_name": ALGO_NAMES.get(algo, str(algo)),
            "solver": solver, "workspace_bytes": need, "find": [
                {"algorithm": int(p.fwd_algo), "time_ms": float(p.time), "workspace_bytes": int(p.memory)}
                for p in perf],
            "iterations": len(kernel), "time_ms": avg, "first_time_ms": kernel[0],
            "wall_ms": average_excluding_first(wall), "flop": 2 * macs, "bytes_read": read,
            "bytes_written": written, "gflops": 2 * macs / avg / 1e6 if avg > 0 else None,
            "gbps": (read + written) / avg / 1e6 if avg > 0 else None, "key": key,
            "output": out,
        }

    def tolerance(self, direction, algo):
        if self.dtype is FP32:
            tol = CONV_TOL * (2 if direction == "wrw" else 1)
            return tol * (10 if algo in (2, 3, 5) else 1)
        # MIOpenDriver's (driver/conv_driver.hpp): 8.2e-3 in fp16, x8 in bf16; forward and
        # backward data x10 for implicit GEMM; backward weights x2, and x5 more for implicit GEMM
        # in fp16.
        tol = CONV_TOL_FP16 * (8 if self.dtype.name == "bf16" else 1)
        if direction == "wrw":
            return tol * 2 * (5 if algo == 5 and self.dtype.name == "fp16" else 1)
        return tol * (10 if algo == 5 else 1)


def stats_lines(case, ylens, direction, res):
    """MIOpenDriver's two `stats:` lines (the header and the values) of one direction."""
    name = {"fwd": "fwd-conv", "bwd": "bwdd-conv", "wrw": "bwdw-conv"}[direction]
    filt = case.filt if case.dims > 1 else (1,) + case.filt
    small = ylens if not case.transpose else case.xlens
    out = tuple(small[2:]) if case.dims > 1 else (1,) + tuple(small[2:])
    tag = "x".join(map(str, filt)) + f"u{case.strides[0]}"
    t = res["time_ms"]
    tail = (f"  {res['flop']}, {res['bytes_read']}, {res['bytes_written']}, "
            f"{res['flop'] / t / 1e6 if t > 0 else 0:.0f}, "
            f"{(res['bytes_read'] + res['bytes_written']) / t / 1e6 if t > 0 else 0:.0f}, {t:f}")
    in_c = case.c if not case.transpose else case.k
    k = small[1]
    if case.dims == 3:
        return ["stats: name  , n, c, do, ho, wo, z, y, x, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs",
                f"stats: {name}{tag}, {case.n}, {in_c}, {out[0]}, {out[1]}, {out[2]}, "
                f"{filt[0]}, {filt[1]}, {filt[2]}, {k}," + tail]
    return ["stats: name, n, c, ho, wo, x, y, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs",
            f"stats: {name}{tag}, {case.n}, {in_c}, {out[0]}, {out[1]}, {filt[1]}, {filt[0]}, {k}," + tail]


def conv_case_of(o, given):
    """The ConvCase and the directions (DIRECTIONS rows) that conv's flags describe; UsageError
    for flags that contradict each other or that this driver does not support."""
    dims = o["spatial_dim"]
    if dims not in (1, 2, 3):
        raise UsageError(f"--spatial_dim {dims}: 1, 2 or 3 spatial dims are supported")
    three_d = {"in_d", "fil_d", "conv_stride_d", "pad_d", "dilation_d", "trans_output_pad_d"} & given
    if three_d and dims != 3:
        raise UsageError("--" + " --".join(sorted(three_d)) + f" given with --spatial_dim {dims}: "
                         "the depth flags (-! -@ -# -$ -^ -%) need --spatial_dim 3")
    if dims == 1:
        hflags = {"in_h", "fil_h", "conv_stride_h", "pad_h", "dilation_h", "trans_output_pad_h"} & given
        if hflags:
            raise UsageError("--" + " --".join(sorted(hflags)) + " given with --spatial_dim 1: a 1-d "
                             "convolution takes its length from -W, -x, -q, -v, -j, -X")
    mode = o["mode"]
    if mode not in ("conv", "trans"):
        raise UsageError(f"-m {mode!r}: the convolution mode is conv or trans")
    forw = o["forw"]
    if not 0 <= forw <= 7:
        raise UsageError(f"-F {forw}: a bitmask of 1 (fwd), 2 (bwd data), 4 (bwd weights); 0 means all three")
    trans_pad = {"trans_output_pad_d", "trans_output_pad_h", "trans_output_pad_w"}
    if mode == "conv" and any(o[f] for f in trans_pad):
        raise UsageError("-Y/-X/-% (transposed output padding) given with -m conv: they need -m trans")
    if o["tensor_vect"] != 0 or o["vector_length"] != 1:
        raise UsageError("-Z/-L (vectorized tensors) are not supported: only -Z 0 -L 1")
    if o["pad_val"] != 0:
        raise UsageError(f"-r {o['pad_val']}: only zero padding (-r 0) is supported")
    if o["iter"] < 1:
        raise UsageError(f"-i {o['iter']}: the number of iterations must be > 0")
    pm = o["pad_mode"]
    if pm not in ("default", "same", "valid"):
        raise UsageError(f"-z {pm!r}: the padding mode is default, same or valid")
    pick = {1: ["w"], 2: ["h", "w"], 3: ["d", "h", "w"]}[dims]
    spatial = [o["in_" + a] for a in pick]
    filt = [o["fil_" + a] for a in pick]
    pads = [o["pad_" + a] for a in pick]
    strides = [o["conv_stride_" + a] for a in pick]
    dils = [o["dilation_" + a] for a in pick]
    adj = [o["trans_output_pad_" + a] for a in pick]
    if mode == "conv" and pm != "default" and (all(d == 1 for d in dils) or all(f == 1 for f in filt)):
        if pm == "valid":
            pads = [0] * dims
        else:        # MIOpenDriver's "same": half the window overhang, rounded down
            pads = [max(f - (s if i % s == 0 else i % s), 0) // 2 for i, f, s in zip(spatial, filt, strides)]
    default_layout = "NCDHW" if dims == 3 else ("NCHW" if dims == 2 else "NCW")
    layouts = []
    for flag in ("in_layout", "fil_layout", "out_layout"):
        lay = (o[flag] or default_layout).upper()
        if lay not in LAYOUTS[dims + 2]:
            raise UsageError(f"--{flag} {o[flag]}: expected one of {', '.join(LAYOUTS[dims + 2])}")
        layouts.append(lay)
    case = ConvCase(o["batchsize"], o["in_channels"], o["out_channels"], spatial, filt, pads, strides,
                    dils, o["group_count"], mode == "trans", adj, (layouts[0], layouts[1], layouts[2]))
    case.validate()
    return case, [d for d in DIRECTIONS if forw == 0 or forw & d[0]]


def cmd_conv(args, report, dtype=FP32, name="conv"):
    o, given = parse_flags(name, CONV_FLAGS, args)
    case, directions = conv_case_of(o, given)
    solution = o["solution"].strip()
    if solution in ("", "0") or solution.lstrip("-").isdigit() and int(solution) < 0:
        solution = None            # Find (-S 0, "the fastest solution", is what Find picks)
    if o["wall"] and not o["time"]:
        report.say(f"Info: '--wall {o['wall']}' is ignored because '--time' is not set")
    device = Device(o["device"])
    report.record.update(subcommand=name, device=device.handle.device, problem=_conv_problem(case))
    report.record["problem"]["type"] = dtype.name
    if o["printconv"]:
        report.say(f"Convolution: {case.describe()}")
    runner = ConvRunner(device, case, search=bool(o["search"]),
                        files={"in_data": o["in_data"], "weights": o["weights"], "dout_data": o["dout_data"]},
                        dtype=dtype)
    report.record["problem"]["y"] = list(runner.ylens)
    bias = _ConvBias(device, runner, o["in_bias"]) if o["bias"] else None
    if solution is not None:
        report.say(f"Note: -S {solution}: the driver does not use immediate mode; Find runs that solver alone "
                   "(MIOPEN_DEBUG_FIND_ONLY_SOLVER) with a find-db of its own")
        report.record["solution"] = solution
    with _only_solver(solution):
        _conv_directions(report, o, case, runner, device, directions, bias)
    if bias is not None and o["forw"] != 1:
        bias.backward(report, o)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


@contextlib.contextmanager
def _only_solver(solution):
    """-S name|id: Find restricted to that solver, in a temporary find-db so the user's records
    keep every solver."""
    if solution is None:
        yield
        return
    names = ("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "MIOPEN_USER_DB_PATH")
    saved = {n: os.environ.get(n) for n in names}
    with tempfile.TemporaryDirectory(prefix="miopen-driver-") as db:
        os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solution
        os.environ["MIOPEN_USER_DB_PATH"] = db
        try:
            yield
        finally:
            for n, v in saved.items():
                if v is None:
                    os.environ.pop(n, None)
                else:
                    os.environ[n] = v


def _conv_directions(report, o, case, runner, device, directions, bias):
    for bit, dname, vlabel, tlabel, _ in directions:
        res = runner.run(dname, o["iter"], corrupt=corrupt_hook())
        out = res.pop("output")
        if o["dump_output"]:
            path = f"dump_{dname}_out_{device.arch}.bin"
            out.astype(np.float32).tofile(path)
            report.say(f"Wrote output to file {path}")
        if o["time"]:
            solver = res["solver"] or "UNKNOWN"
            if o["wall"]:
                report.say(f"Wall-clock Time {tlabel} Elapsed: {res['wall_ms']:f} ms")
            report.say(f"MIOpen {tlabel} Algorithm: {res['algorithm']} ({res['algorithm_name']}), Solution: {solver}")
            report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Time {tlabel} Elapsed: {res['time_ms']:f} ms (average)")
            for line in stats_lines(case, runner.ylens, dname, res):
                report.say(line)
        if bias is not None and dname == "fwd":
            out = bias.forward(report, o, out)
        if o["verify"]:
            ref = runner.reference(dname)
            if bias is not None and dname == "fwd":
                ref = ref + bias.data
            report.verdict(vlabel, rms_range(ref, as64(out)), runner.tolerance(dname, res["algorithm"]), res)
        else:
            res["verified"] = None
        report.results.append(res)


class _ConvBias:
    """-b 1: MIOpenDriver adds a per-channel bias after the forward convolution
    (miopenConvolutionForwardBias) and computes its gradient after the backward ones
    (miopenConvolutionBackwardBias). Bias values: channel % 8 + U(0, 1), as MIOpenDriver's."""

    def __init__(self, device, runner, path):
        self.device, self.runner = device, runner
        k = runner.ylens[1]
        self.lens = (1, k) + (1,) * (len(runner.ylens) - 2)
        rng = data_rng(1)
        self.data = load_or(path, self.lens, lambda s: (np.arange(k) % 8).reshape(s) + rng.random(s))
        self.dtype = runner.dtype
        self.t = HostTensor(self.lens, dtype=self.dtype)
        self.t.set(self.data)
        self.data = as64(self.t.get())
        self.desc = self.t.desc()

    def forward(self, report, o, out):
        """Adds the bias to the forward output; returns the output to verify."""
        dev, h = self.device, self.device.handle
        y = HostTensor(self.runner.ylens, strides=self.runner.y.strides, dtype=self.dtype)
        y.set(out)
        by, bb = dev.put(y), dev.put(self.t)
        times, wall = timed_calls(dev, lambda: mi.convolutionForwardBias(h, 1.0, self.desc, bb, 0.0,
                                                                         self.runner.yd, by), 1)
        if o["time"]:
            report.say(f"{'GPU' if dev.gpu else 'CPU'} Kernel Time Forward Conv. Bias Elapsed: {times[0]:f} ms")
        return dev.get(y, by)

    def backward(self, report, o):
        dev, h = self.device, self.device.handle
        dy = HostTensor(self.runner.ylens, strides=self.runner.y.strides, dtype=self.dtype)
        dy.set(self.runner.dy_data)
        db = HostTensor(self.lens, dtype=self.dtype)
        bdy, bdb = dev.put(dy), dev.put(db)
        times, wall = timed_calls(dev, lambda: mi.convolutionBackwardBias(h, 1.0, self.runner.yd, bdy, 0.0,
                                                                          self.desc, bdb), 1)
        if o["time"]:
            report.say(f"{'GPU' if dev.gpu else 'CPU'} Kernel Time Backward Bias Conv. Elapsed: {times[0]:f} ms")
        out = apply_corrupt("bias", dev.get(db, bdb))
        size = self.dtype.itemsize
        res = result("bias", times, wall, int(np.prod(self.runner.ylens)) * size, int(np.prod(self.lens)) * size)
        if o["verify"]:
            axes = (0,) + tuple(range(2, len(self.runner.ylens)))
            ref = np.asarray(self.runner.dy_data, np.float64).sum(axis=axes, keepdims=True)
            tol = CONV_TOL if self.dtype is FP32 else CONV_TOL_FP16 * (8 if self.dtype.name == "bf16" else 1)
            report.verdict("Backward Convolution Bias", rms_range(ref, as64(out)), tol, res)
        report.results.append(res)


def _conv_problem(case):
    return {"n": case.n, "c": case.c, "k": case.k, "spatial": list(case.spatial), "filter": list(case.filt),
            "pads": list(case.pads), "strides": list(case.strides), "dilations": list(case.dils),
            "groups": case.groups, "mode": "trans" if case.transpose else "conv",
            "output_pads": list(case.adj), "x": list(case.xlens), "w": list(case.wlens),
            "layouts": list(case.layouts)}
