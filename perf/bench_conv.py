"""Convolution against PyTorch (oneDNN on the CPU, cuDNN on the GPU) in one process.

For each layer and direction: Find picks our solver (on the benchmark's buffers), then both
sides are timed (median of --repeat runs after warm-up). Prints our time, theirs, TFLOP/s
(2*N*K*(C/G)*R*S*Ho*Wo / time, as MIOpenDriver counts) and the speed ratio (theirs / ours:
> 1 means we are faster), then the geomean ratio per direction.

    python perf/bench_conv.py [--device cpu|gpu] [--batch N] [--repeat N] [--set resnet50|extra|all]
                              [--filter SUBSTRING] [--directions FBW] [--stat median|min] [--exhaustive]

--exhaustive: Find with exhaustiveSearch=true, so the tunable solvers search their variants
(conv/tuning.hpp) and the best variant is stored in the perf-db before timing.
"""
import argparse
import glob
import os
import tempfile
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from conv_common import layer_descs
from gpu_timing import event_times_ms

# (c, h, w, k, r, s, stride, pad, groups): ResNet-50 v1.5, then depthwise, grouped and 5x5
# (the rows of PERF.md).
RESNET50 = [
    (3, 224, 224, 64, 7, 7, 2, 3, 1),
    (64, 56, 56, 64, 1, 1, 1, 0, 1),
    (64, 56, 56, 64, 3, 3, 1, 1, 1),
    (64, 56, 56, 256, 1, 1, 1, 0, 1),
    (256, 56, 56, 64, 1, 1, 1, 0, 1),
    (256, 56, 56, 128, 1, 1, 1, 0, 1),
    (128, 56, 56, 128, 3, 3, 2, 1, 1),
    (128, 28, 28, 512, 1, 1, 1, 0, 1),
    (256, 56, 56, 512, 1, 1, 2, 0, 1),
    (512, 28, 28, 128, 1, 1, 1, 0, 1),
    (128, 28, 28, 128, 3, 3, 1, 1, 1),
    (512, 28, 28, 256, 1, 1, 1, 0, 1),
    (256, 28, 28, 256, 3, 3, 2, 1, 1),
    (256, 14, 14, 1024, 1, 1, 1, 0, 1),
    (512, 28, 28, 1024, 1, 1, 2, 0, 1),
    (1024, 14, 14, 256, 1, 1, 1, 0, 1),
    (256, 14, 14, 256, 3, 3, 1, 1, 1),
    (1024, 14, 14, 512, 1, 1, 1, 0, 1),
    (512, 14, 14, 512, 3, 3, 2, 1, 1),
    (512, 7, 7, 2048, 1, 1, 1, 0, 1),
    (1024, 14, 14, 2048, 1, 1, 2, 0, 1),
    (2048, 7, 7, 512, 1, 1, 1, 0, 1),
    (512, 7, 7, 512, 3, 3, 1, 1, 1),
]
EXTRA = [
    (144, 56, 56, 144, 3, 3, 1, 1, 144),
    (384, 14, 14, 384, 3, 3, 1, 1, 384),
    (128, 56, 56, 128, 3, 3, 1, 1, 32),
    (256, 28, 28, 256, 3, 3, 1, 1, 32),
    (64, 56, 56, 64, 5, 5, 1, 2, 1),
]



STAT = "median"   # --stat: median, or min (robust when other work shares the cores)
EXHAUSTIVE = False

def openblas_core():
    """OpenBLAS's kernel set (it follows OPENBLAS_CORETYPE when that is set): our GEMMs' speed."""
    try:
        import scipy_openblas32
        return "OpenBLAS " + scipy_openblas32.get_openblas_config().split()[-2] + " kernels"
    except Exception:   # noqa: BLE001 - only a label
        return "OpenBLAS core unknown"

GPU_EVENTS = False   # time with CUDA events (set for --device gpu)


def chosen_solver(key):
    """The fastest solver Find recorded for a problem key (the first entry of its find-db line)."""
    folder = os.environ.get("MIOPEN_USER_DB_PATH", "")
    for path in glob.glob(os.path.join(folder, "*.ufdb.txt")):
        with open(path) as f:
            for line in f:
                if line.split("=", 1)[0] == key:
                    return line.split("=", 1)[1].split(":", 1)[0]
    return "?"


def median_ms(fn, repeat, sync):
    if GPU_EVENTS:
        times = event_times_ms(fn, repeat)
        return min(times) if STAT == "min" else statistics.median(times)
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return min(times) if STAT == "min" else statistics.median(times)


def layer_name(n, c, h, w, k, r, s, st, p, g):
    return f"n{n} c{c} {h}x{w} k{k} {r}x{s} s{st} p{p} g{g}"


def driver_line(n, c, h, w, k, r, s, st, p, g, f):
    return (f"miopen-driver conv -n {n} -c {c} -H {h} -W {w} -k {k} -y {r} -x {s} -p {p} -q {p} "
            f"-u {st} -v {st} -l 1 -j 1 -m conv -g {g} -F {f} -t 1")


def bench_layer(h_, dev, n, layer, directions, repeat, sync):
    c, hh, ww, k, r, s, st, p, g = layer
    cd, xs, wsh, ys, xd, wd, yd = layer_descs(n, layer)
    flops = 2.0 * n * k * (c // g) * r * s * ys[2] * ys[3]
    rng = np.random.default_rng(0)
    tx = torch.from_numpy(rng.standard_normal(xs).astype(np.float32)).to(dev)
    tw = torch.from_numpy(rng.standard_normal(wsh).astype(np.float32)).to(dev)
    tdy = torch.from_numpy(rng.standard_normal(ys).astype(np.float32)).to(dev)
    if dev == "cpu":
        x, w, dy = tx.numpy(), tw.numpy(), tdy.numpy()
        y, dx, dw = np.empty(ys, np.float32), np.empty(xs, np.float32), np.empty(wsh, np.float32)
        alloc = lambda nbytes: np.empty(max(nbytes, 1), np.uint8)
    else:
        x, w, dy = tx, tw, tdy
        y, dx, dw = torch.empty(ys, device=dev), torch.empty(xs, device=dev), torch.empty(wsh, device=dev)
        alloc = lambda nbytes: torch.empty(max(nbytes, 1), dtype=torch.uint8, device=dev)
    rows = []
    for d in directions:
        if d == "F":
            wsz = mi.convolutionForwardGetWorkSpaceSize(h_, wd, xd, cd, yd)
            ws = alloc(wsz)
            t0 = time.perf_counter()
            perf = mi.findConvolutionForwardAlgorithm(h_, xd, x, wd, w, cd, yd, y, 5, ws, wsz, EXHAUSTIVE)
            find_ms = (time.perf_counter() - t0) * 1e3
            algo = perf[0].fwd_algo
            ours = lambda: mi.convolutionForward(h_, 1.0, xd, x, wd, w, cd, algo, 0.0, yd, y, ws, wsz)
            theirs = lambda: F.conv2d(tx, tw, stride=st, padding=p, groups=g)
        elif d == "B":
            wsz = mi.convolutionBackwardDataGetWorkSpaceSize(h_, yd, wd, cd, xd)
            ws = alloc(wsz)
            t0 = time.perf_counter()
            perf = mi.findConvolutionBackwardDataAlgorithm(h_, yd, dy, wd, w, cd, xd, dx, 5, ws, wsz, EXHAUSTIVE)
            find_ms = (time.perf_counter() - t0) * 1e3
            algo = perf[0].bwd_data_algo
            ours = lambda: mi.convolutionBackwardData(h_, 1.0, yd, dy, wd, w, cd, algo, 0.0, xd, dx, ws, wsz)
            theirs = lambda: torch.ops.aten.convolution_backward(
                tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g, [True, False, False])
        else:
            wsz = mi.convolutionBackwardWeightsGetWorkSpaceSize(h_, yd, xd, cd, wd)
            ws = alloc(wsz)
            t0 = time.perf_counter()
            perf = mi.findConvolutionBackwardWeightsAlgorithm(h_, yd, dy, xd, x, cd, wd, dw, 5, ws, wsz, EXHAUSTIVE)
            find_ms = (time.perf_counter() - t0) * 1e3
            algo = perf[0].bwd_weights_algo
            ours = lambda: mi.convolutionBackwardWeights(h_, 1.0, yd, dy, xd, x, cd, algo, 0.0, wd, dw, ws, wsz)
            theirs = lambda: torch.ops.aten.convolution_backward(
                tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g, [False, True, False])
        t_ours = median_ms(ours, repeat, sync)
        t_theirs = median_ms(theirs, repeat, sync)
        # The problem key (ConvProblem::Key): C-H-W-RxS-K-Ho-Wo-N-pads-strides-dilations-G-...
        solver = chosen_solver(f"{c}-{hh}-{ww}-{r}x{s}-{k}-{ys[2]}-{ys[3]}-{n}-{p}x{p}-{st}x{st}-1x1-{g}"
                               f"-NCHW-FP32-{d}")
        rows.append((d, layer, t_ours, t_theirs, flops, mi.ConvAlgorithm(int(algo)).name[len("miopenConvolutionAlgo"):],
                     find_ms, solver))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--batch", type=int, default=None, help="default: 4 on the CPU, 32 on the GPU")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--set", default="resnet50", choices=["resnet50", "extra", "all"])
    ap.add_argument("--filter", default="")
    ap.add_argument("--directions", default="FBW")
    ap.add_argument("--stat", default="median", choices=["median", "min"])
    ap.add_argument("--exhaustive", action="store_true", help="Find with exhaustiveSearch=true")
    args = ap.parse_args(argv)
    global STAT, EXHAUSTIVE, GPU_EVENTS
    STAT = args.stat
    EXHAUSTIVE = args.exhaustive
    GPU_EVENTS = args.device.startswith("gpu")
    gpu = args.device.startswith("gpu")
    dev = "cuda" if gpu else "cpu"
    n = args.batch or (32 if gpu else 4)
    if gpu:
        torch.backends.cudnn.benchmark = True
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
        sync = torch.cuda.synchronize
    else:
        sync = lambda: None
    # A fresh find-db unless one is given: Find benchmarks (its time is reported), and the chosen
    # solver is read back from the record it writes.
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp(prefix="bench_conv_db_"))
    h_ = mi.Handle(device=args.device)
    layers = {"resnet50": RESNET50, "extra": EXTRA, "all": RESNET50 + EXTRA}[args.set]
    peer = "cuDNN " + torch.backends.cudnn.version().__str__() if gpu else "oneDNN"
    where = torch.cuda.get_device_name() if gpu else f"CPU, {torch.get_num_threads()} threads, {openblas_core()}"
    print(f"# miopen_cy {mi.__version__} vs PyTorch {torch.__version__} ({peer}) on {where}, batch {n}"
          + (", exhaustive search" if EXHAUSTIVE else ""))
    print(f"{'dir':<3} {'layer':<36} {'algo':<12} {'ours ms':>9} {'peer ms':>9} {'TFLOP/s':>8} "
          f"{'ratio':>6} {'find ms':>8}  solver")
    all_rows = []
    for layer in layers:
        name = layer_name(n, *layer)
        if args.filter and args.filter not in name:
            continue
        for d, lay, t_o, t_t, flops, algo, find_ms, solver in bench_layer(h_, dev, n, layer, args.directions,
                                                                  args.repeat, sync):
            all_rows.append((d, t_o, t_t, find_ms))
            print(f"{d:<3} {name:<36} {algo:<12} {t_o:9.3f} {t_t:9.3f} {flops / t_o / 1e9:8.3f} "
                  f"{t_t / t_o:6.2f} {find_ms:8.1f}  {solver}", flush=True)
    for d in args.directions:
        ratios = [t / o for dd, o, t, _ in all_rows if dd == d]
        if ratios:
            print(f"# {d}: geomean ratio {np.exp(np.mean(np.log(ratios))):.3f} over {len(ratios)} layers, "
                  f"min {min(ratios):.2f}")
    if all_rows:
        print(f"# Find: median {statistics.median(r[3] for r in all_rows):.1f} ms per layer and direction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
