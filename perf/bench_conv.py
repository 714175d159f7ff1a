"""Convolution against PyTorch (cuDNN on the GPU, oneDNN on the CPU) in one process.

For each layer and direction, Find picks our solver on the benchmark's buffers, then both sides
are timed (CUDA events on the GPU, the host clock on the CPU, runs alternating; median of
--repeat after warm-up). A row: our time, theirs, the speed ratio theirs / ours (> 1: we are
faster), TFLOP/s (2*N*K*(C/G)*R*S*Ho*Wo / time, as MIOpenDriver counts), Find's time, the solver
it chose, our output's relative error against a float64 reference (PyTorch in double), and the
miopen-driver command that reproduces the row (--reproduce prints it). Then the geomean ratio
per direction.

    python perf/bench_conv.py [--device cpu|gpu] [--dtype fp32|fp16|bf16] [--layout nchw|nhwc]
        [--set resnet50|extra|all|large|quick] [--quick]
        [--batch N] [--directions FBW] [--filter SUBSTRING] [--solvers NAME,NAME] [--exhaustive]
        [--repeat N] [--stat median|min] [--threads N] [--reproduce] [--out DIR] [--results RESULTS.md]
    python perf/bench_conv.py --overhead [--device cpu|gpu]     # per-call host cost of each call path

--set: resnet50 (the 23 ResNet-50 v1.5 layers), extra (depthwise, grouped, 5x5), all (both),
large (5x5 to 11x11 filters, where FFT applies), quick (one layer of each kind). --quick: the
quick set, 3 repeats. --solvers: also a row per solver forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER,
as `miopen-driver conv -S NAME`), e.g. `--solvers ConvMPBidirectWinograd<4-3>,fft`; a solver that
does not apply prints n/a. --exhaustive: Find searches the tunable solvers' variants first
(perf-db). On the CPU, OPENBLAS_CORETYPE picks OpenBLAS's kernel set (the header names it),
ONEDNN_MAX_CPU_ISA=AVX2 and MIOPEN_CY_DEBUG_CPU_ISA=avx2 hold both sides to AVX2.
--dtype / --layout: x, w and y in that type (fp32 accumulation on both sides) and layout (nhwc:
channels_last tensors with NHWC descriptors); the peer runs in the same type and layout (cuDNN
with TF32 off; oneDNN on the CPU). A type or layout other than fp32 NCHW writes its own section
(conv-fp16-nhwc-gpu, ...). The err column is against PyTorch in float64 on the same stored values.
--overhead: the per-call host time of a tiny convolution through each way in (legacy call with
and without a find-db record, immediate mode, Find 2.0's runSolution) beside F.conv2d.
"""
import argparse
import contextlib
import glob
import os
import statistics
import sys
import tempfile
import time

import common  # first: it sets OMP_NUM_THREADS for --threads before an OpenMP runtime loads
from common import DIRECTIONS, SETS, Device, Report, conv_driver, geomean, layer_descs, layer_name

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi

COLUMNS = [("dir", "dir", "{:<8}"), ("layer", "layer", "{:<36}"), ("ours_ms", "ours ms", "{:>9.4f}"),
           ("peer_ms", "peer ms", "{:>9.4f}"), ("ratio", "ratio", "{:>6.2f}"), ("tflops", "TFLOP/s", "{:>8.3f}"),
           ("peer_tflops", "peer TFLOP/s", "{:>12.3f}"),
           ("find_ms", "Find ms", "{:>8.1f}"), ("err", "err f64", "{:>7.0e}"), ("solver", "solver", "{:<30}")]


@contextlib.contextmanager
def only_solver(name):
    """MIOPEN_DEBUG_FIND_ONLY_SOLVER=name while inside (nothing when name is None)."""
    if name is None:
        yield
        return
    os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = name
    try:
        yield
    finally:
        del os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"]


def chosen_solver(key):
    """The fastest solver Find recorded for a problem key (the first entry of its find-db line)."""
    for path in glob.glob(os.path.join(os.environ["MIOPEN_USER_DB_PATH"], "*.ufdb.txt")):
        with open(path) as f:
            for line in f:
                if line.split("=", 1)[0] == key:
                    return line.split("=", 1)[1].split(":", 1)[0]
    return "?"


# --dtype: (MIOpen's type, PyTorch's, the find-db key's word, the driver's sub-command suffix)
DTYPES = {"fp32": (mi.miopenFloat, torch.float32, "FP32", ""),
          "fp16": (mi.miopenHalf, torch.float16, "FP16", "fp16"),
          "bf16": (mi.miopenBFloat16, torch.bfloat16, "BF16", "bfp16")}


def tensor_desc(t, dtype):
    """The TensorDescriptor of torch tensor t (its lengths and element strides) in MIOpen's dtype."""
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dtype, t.dim(), list(t.shape), list(t.stride()))
    return d


class Layer:
    """One layer's buffers on both sides and, per direction, our call after Find and PyTorch's."""

    def __init__(self, h, dev, n, layer, dtype="fp32", layout="nchw"):
        self.h, self.dev, self.n, self.layer = h, dev, n, layer
        self.dtype, self.layout = dtype, layout
        mtype, ttype, word, _ = DTYPES[dtype]
        fmt = torch.channels_last if layout == "nhwc" else torch.contiguous_format
        c, hh, ww, k, r, s, st, p, g = layer
        self.cd, xs, wsh, ys, _, _, _ = layer_descs(n, layer)
        self.flops = 2.0 * n * k * (c // g) * r * s * ys[2] * ys[3]
        lay = "NHWC-NHWC-NHWC" if layout == "nhwc" else "NCHW"
        self.key = f"{c}-{hh}-{ww}-{r}x{s}-{k}-{ys[2]}-{ys[3]}-{n}-{p}x{p}-{st}x{st}-1x1-{g}-{lay}-{word}-"
        rng = np.random.default_rng(0)
        # The inputs rounded to the type; both sides and the float64 reference use these values.
        self.tx, self.tw, self.tdy = (torch.from_numpy(rng.standard_normal(sh).astype(np.float32)).to(ttype)
                                      .to(dev.torch).contiguous(memory_format=fmt) for sh in (xs, wsh, ys))
        self.xd, self.wd, self.yd = (tensor_desc(t, mtype) for t in (self.tx, self.tw, self.tdy))
        outs = tuple(torch.empty(sh, dtype=ttype, device=dev.torch).contiguous(memory_format=fmt)
                     for sh in (ys, xs, wsh))
        if dev.gpu or dtype == "bf16":      # CUDA tensors, or CPU bf16 through DLPack
            self.x, self.w, self.dy = self.tx, self.tw, self.tdy
            self.y, self.dx, self.dw = outs
        else:
            self.x, self.w, self.dy = self.tx.numpy(), self.tw.numpy(), self.tdy.numpy()
            self.y, self.dx, self.dw = (o.numpy() for o in outs)
        self.refs = {}
        conv_bwd = torch.ops.aten.convolution_backward
        self.theirs = {
            "F": lambda: F.conv2d(self.tx, self.tw, stride=st, padding=p, groups=g),
            "B": lambda: conv_bwd(self.tdy, self.tx, self.tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g,
                                  [True, False, False])[0],
            "W": lambda: conv_bwd(self.tdy, self.tx, self.tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g,
                                  [False, True, False])[1],
        }

    def reference(self, d):
        """Direction d's output in float64 (PyTorch on the same device), for the error column."""
        if d not in self.refs:
            c, hh, ww, k, r, s, st, p, g = self.layer
            x, w, dy = self.tx.double(), self.tw.double(), self.tdy.double()
            if d == "F":
                self.refs[d] = F.conv2d(x, w, stride=st, padding=p, groups=g)
            else:
                self.refs[d] = torch.ops.aten.convolution_backward(
                    dy, x, w, None, [st, st], [p, p], [1, 1], False, [0, 0], g, [d == "B", d == "W", False])[
                    0 if d == "B" else 1]
        return self.refs[d]

    def alloc(self, nbytes):
        if self.dev.gpu:
            return torch.empty(max(nbytes, 1), dtype=torch.uint8, device="cuda")
        return np.empty(max(nbytes, 1), np.uint8)

    def ours(self, d, exhaustive):
        """(our call, its output, Find's ms) for direction d, after Find on these buffers."""
        h, cd, xd, wd, yd = self.h, self.cd, self.xd, self.wd, self.yd
        t0 = time.perf_counter()
        if d == "F":
            wsz = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
            ws = self.alloc(wsz)
            algo = mi.findConvolutionForwardAlgorithm(h, xd, self.x, wd, self.w, cd, yd, self.y, 5, ws, wsz,
                                                      exhaustive)[0].fwd_algo
            fn = lambda: mi.convolutionForward(h, 1.0, xd, self.x, wd, self.w, cd, algo, 0.0, yd, self.y, ws, wsz)
            out = self.y
        elif d == "B":
            wsz = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd)
            ws = self.alloc(wsz)
            algo = mi.findConvolutionBackwardDataAlgorithm(h, yd, self.dy, wd, self.w, cd, xd, self.dx, 5, ws, wsz,
                                                           exhaustive)[0].bwd_data_algo
            fn = lambda: mi.convolutionBackwardData(h, 1.0, yd, self.dy, wd, self.w, cd, algo, 0.0, xd, self.dx,
                                                    ws, wsz)
            out = self.dx
        else:
            wsz = mi.convolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, cd, wd)
            ws = self.alloc(wsz)
            algo = mi.findConvolutionBackwardWeightsAlgorithm(h, yd, self.dy, xd, self.x, cd, wd, self.dw, 5, ws,
                                                              wsz, exhaustive)[0].bwd_weights_algo
            fn = lambda: mi.convolutionBackwardWeights(h, 1.0, yd, self.dy, xd, self.x, cd, algo, 0.0, wd, self.dw,
                                                       ws, wsz)
            out = self.dw
        return fn, out, (time.perf_counter() - t0) * 1e3

    def row(self, d, args, solver=None):
        """One row: Find's choice, or `solver` forced alone (None where it does not apply)."""
        with only_solver(solver):
            try:
                fn, out, find_ms = self.ours(d, args.exhaustive)
                t_ours, t_peer = self.dev.pair_ms(fn, self.theirs[d], inner=args.inner)
            except mi.MIOpenError as e:
                print(f"# {d} {layer_name(self.n, *self.layer)} {solver}: n/a ({str(e)[-80:]})")
                return None
        ref = self.reference(d)
        got = torch.as_tensor(out).to(ref.device).double()
        err = float((got - ref).norm() / ref.norm())
        drv = conv_driver(self.n, self.layer, d, self.dev.name, self.dev.repeat, solver, args.exhaustive)
        suffix = DTYPES[self.dtype][3]
        if suffix:
            drv = drv.replace("miopen-driver conv ", f"miopen-driver conv{suffix} ", 1)
        if self.layout == "nhwc":
            drv += " -I NHWC -f NHWC -O NHWC"
        return dict(dir=DIRECTIONS[d], layer=layer_name(self.n, *self.layer), ours_ms=t_ours, peer_ms=t_peer,
                    ratio=t_peer / t_ours, tflops=self.flops / t_ours / 1e9, peer_tflops=self.flops / t_peer / 1e9,
                    find_ms=find_ms, err=err, dtype=self.dtype, layout=self.layout,
                    solver=solver or chosen_solver(self.key + d), forced=solver is not None, driver=drv)


def bench(args, dev):
    n = args.batch or (32 if dev.gpu else 4)
    h = mi.Handle(device=dev.name)
    typed = (args.dtype, args.layout) != ("fp32", "nchw")
    title = (f"Convolution, {args.dtype} {args.layout.upper()}, batch {n}, set {args.set}"
             + (", exhaustive Find" if args.exhaustive else ""))
    rep = Report(args, f"conv-{args.dtype}-{args.layout}" if typed else "conv", title, COLUMNS, dev, plot="conv")
    rep.meta.update(dtype=args.dtype, layout=args.layout)
    solvers = [s for s in args.solvers.split(",") if s]
    for layer in SETS[args.set]:
        if args.filter and args.filter not in layer_name(n, *layer):
            continue
        lay = Layer(h, dev, n, layer, args.dtype, args.layout)
        for d in args.directions:
            for solver in [None] + solvers:
                row = lay.row(d, args, solver)
                if row:
                    rep.add(**row)
    for d, dname in DIRECTIONS.items():
        ratios = [r["ratio"] for r in rep.rows if r["dir"] == dname and not r["forced"]]
        if ratios:
            tfl = [r["tflops"] for r in rep.rows if r["dir"] == dname and not r["forced"]]
            rep.say(f"{dname}: geomean ratio {geomean(ratios):.3f} over {len(ratios)} layers, min {min(ratios):.2f}; "
                    f"geomean {geomean(tfl):.2f} effective TFLOP/s")
    finds = [r["find_ms"] for r in rep.rows if not r["forced"]]
    if finds:
        rep.say(f"Find: median {statistics.median(finds):.1f} ms per layer and direction")
    # fp32: 1e-3; fp16 / bf16: MIOpenDriver's rms tolerance scale (8.2e-3, x8 for bf16) as a relative L2 bound
    bound = {"fp32": 1e-3, "fp16": 8.2e-3, "bf16": 8.2e-3 * 8}[args.dtype]
    wrong = [r for r in rep.rows if r["err"] > bound]
    if wrong:
        rep.say(f"{len(wrong)} rows differ from the float64 reference by more than {bound:g} (err f64 column)")
    return rep.finish()


def overhead(args, dev):
    """Per-call host time on a 1x1x2x2 problem with a 1x1 filter: the call path is all there is."""
    cols = [("path", "path", "{:<44}"), ("us", "us/call", "{:>8.2f}"), ("ratio", "torch/ours", "{:>10.2f}")]
    rep = Report(args, "conv-overhead", "Convolution call overhead, 1x1x2x2 input, 1x1 filter", cols, dev)
    h = mi.Handle(device=dev.name)
    layer = (1, 2, 2, 1, 1, 1, 1, 0, 1)
    cd, xs, wsh, ys, xd, wd, yd = layer_descs(1, layer)
    tx, tw, ty = torch.ones(xs, device=dev.torch), torch.ones(wsh, device=dev.torch), torch.empty(ys, device=dev.torch)
    x, w, y = (tx, tw, ty) if dev.gpu else (tx.numpy(), tw.numpy(), ty.numpy())
    problem = mi.ConvProblem(cd, mi.miopenProblemDirectionForward)
    for role, dsc in ((mi.miopenTensorConvolutionX, xd), (mi.miopenTensorConvolutionW, wd),
                      (mi.miopenTensorConvolutionY, yd)):
        mi.setProblemTensorDescriptor(problem, role, dsc)
    solution = mi.findSolutions(h, problem, None, 16)[0]
    sid = mi.getSolutionSolverId(solution)
    tensors = [(mi.miopenTensorConvolutionX, None, x), (mi.miopenTensorConvolutionW, None, w),
               (mi.miopenTensorConvolutionY, None, y)]
    algo = mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 5, None, 0, False)[0].fwd_algo
    legacy = lambda: mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, algo, 0.0, yd, y, None, 0)
    paths = [("convolutionForward, find-db record", legacy, None),
             ("convolutionForward, find-db off", legacy, "MIOPEN_DEBUG_DISABLE_FIND_DB"),
             (f"convolutionForwardImmediate (solver id {sid})",
              lambda: mi.convolutionForwardImmediate(h, wd, w, xd, x, cd, yd, y, None, 0, sid), None),
             ("runSolution (Find 2.0)", lambda: mi.runSolution(h, solution, 3, tensors, None, 0), None),
             ("torch F.conv2d (peer)", lambda: F.conv2d(tx, tw), None)]
    calls = 2000
    times = []
    for name, fn, env in paths:
        if env:
            os.environ[env] = "1"
        try:
            for _ in range(100):
                fn()
            best = float("inf")
            for _ in range(args.repeat):     # host time of `calls` calls, no synchronisation
                t0 = time.perf_counter()
                for _ in range(calls):
                    fn()
                best = min(best, (time.perf_counter() - t0) / calls * 1e6)
                dev.sync()
        finally:
            if env:
                del os.environ[env]
        times.append((name, best))
    peer = times[-1][1]
    drv = conv_driver(1, layer, "F", dev.name, calls)
    for name, us in times:
        rep.add(path=name, us=us, ratio=peer / us, driver=drv)
    rep.say(f"min of {args.repeat} x {calls} calls without synchronisation (the host cost)")
    return rep.finish()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_common_args(ap, repeat=5)
    ap.add_argument("--batch", type=int, default=None, help="default: 4 on the CPU, 32 on the GPU")
    ap.add_argument("--set", default="all", choices=sorted(SETS))
    ap.add_argument("--quick", action="store_true", help="the quick set, 3 repeats")
    ap.add_argument("--filter", default="", help="only the layers whose name contains this")
    ap.add_argument("--directions", default="FBW")
    ap.add_argument("--inner", type=int, default=None,
                    help="back-to-back calls a timed run (default 20 on the GPU, where one call "
                         "between events also times the host's launch latency; 1 on the CPU)")
    ap.add_argument("--solvers", default="", help="comma-separated solver names, each also forced alone")
    ap.add_argument("--exhaustive", action="store_true", help="Find with exhaustiveSearch=true")
    ap.add_argument("--overhead", action="store_true", help="the per-call host cost of each call path")
    ap.add_argument("--dtype", default="fp32", choices=sorted(DTYPES), help="x, w and y's type (default fp32)")
    ap.add_argument("--layout", default="nchw", choices=["nchw", "nhwc"], help="x, w and y's layout (default nchw)")
    args = ap.parse_args(argv)
    if args.inner is None:
        args.inner = 20 if args.device == "gpu" else 1
    if args.quick:
        args.set = "quick"
        args.repeat = min(args.repeat, 3)
    # A fresh find-db unless one is given: Find's time is reported, and the solver it chose is read
    # back from the record it writes.
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp(prefix="bench_conv_db_"))
    dev = Device(args)
    return overhead(args, dev) if args.overhead else bench(args, dev)


if __name__ == "__main__":
    sys.exit(main())
