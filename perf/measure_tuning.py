"""Every variant of the tunable implicit-GEMM solvers against oneDNN (PyTorch CPU), in one process.

For each layer and direction the solver is forced (MIOPEN_DEBUG_FIND_ONLY_SOLVER), an exhaustive
Find writes its perf-db record, and then each variant is put in the record in turn and timed
(min of --repeat runs in a row), as is PyTorch. Runs of the two are not interleaved: each library
has its own OpenMP pool, and threads of one still spinning after its call slow the other's next
call several-fold on a 2-core machine.
Prints the ratio theirs / ours per variant (> 1: we are faster) and which variant the search chose.

    python perf/measure_tuning.py [--batch 4] [--repeat 9] [--filter SUBSTRING] [--directions FBW]
                                  [--set resnet50|extra|all]
"""
import argparse
import glob
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

os.environ["MIOPEN_USER_DB_PATH"] = tempfile.mkdtemp(prefix="measure_tuning-")
import miopen_cy as mi  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_conv import EXTRA, RESNET50, layer_name  # noqa: E402
from conv_common import layer_descs  # noqa: E402

SOLVER = {"F": "ConvCpuImplicitGemmFwd", "B": "ConvCpuImplicitGemmBwd", "W": "ConvCpuImplicitGemmWrw"}
ALGO = 5   # miopenConvolutionAlgoImplicitGEMM


def perf_db_path():
    (path,) = glob.glob(os.path.join(os.environ["MIOPEN_USER_DB_PATH"], "cpu-*.updb.txt"))
    return path


def read_record():
    with open(perf_db_path()) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    return {l.partition("=")[0]: l.partition("=")[2] for l in lines}


def set_variant(key, solver, variant):
    path = perf_db_path()
    with open(path + ".tmp", "w") as f:
        f.write(f"{key}={solver}:{variant}\n")
    os.replace(path + ".tmp", path)


def min_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1e3


def variants_of(n):
    return ["256,1", "64,1", "1024,1", "4096,1"] + [f"0,{nb}" for nb in (2, 4) if n >= nb]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--filter", default="")
    ap.add_argument("--directions", default="FBW")
    ap.add_argument("--set", default="resnet50", choices=["resnet50", "extra", "all"])
    args = ap.parse_args(argv)
    n = args.batch
    h = mi.Handle(device="cpu")
    layers = {"resnet50": RESNET50, "extra": EXTRA, "all": RESNET50 + EXTRA}[args.set]
    print(f"# miopen_cy {mi.__version__} vs PyTorch {torch.__version__} (oneDNN), CPU, "
          f"{torch.get_num_threads()} threads, batch {n}, min of {args.repeat} runs")
    print(f"{'dir':<3} {'layer':<36} {'variant':<8} {'ours ms':>9} {'peer ms':>9} {'ratio':>6}")
    rng = np.random.default_rng(0)
    for layer in layers:
        c, hh, ww, k, r, s, st, p, g = layer
        name = layer_name(n, *layer)
        if args.filter and args.filter not in name:
            continue
        cd, xs, wsh, ys, xd, wd, yd = layer_descs(n, layer)
        x = rng.standard_normal(xs).astype(np.float32)
        w = rng.standard_normal(wsh).astype(np.float32)
        dy = rng.standard_normal(ys).astype(np.float32)
        tx, tw, tdy = torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(dy)
        y, dx, dw = np.empty(ys, np.float32), np.empty(xs, np.float32), np.empty(wsh, np.float32)
        ws = np.empty(1, np.uint8)
        for d in args.directions:
            if d == "B" and st != 1:
                continue   # ConvCpuImplicitGemmBwd needs stride 1
            os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = SOLVER[d]
            if d == "F":
                mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 1, ws, 0, True)
                ours = lambda: mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, ALGO, 0.0, yd, y, ws, 0)
                theirs = lambda: F.conv2d(tx, tw, stride=st, padding=p, groups=g)
            elif d == "B":
                mi.findConvolutionBackwardDataAlgorithm(h, yd, dy, wd, w, cd, xd, dx, 1, ws, 0, True)
                ours = lambda: mi.convolutionBackwardData(h, 1.0, yd, dy, wd, w, cd, ALGO, 0.0, xd, dx, ws, 0)
                theirs = lambda: torch.ops.aten.convolution_backward(
                    tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g, [True, False, False])
            else:
                mi.findConvolutionBackwardWeightsAlgorithm(h, yd, dy, xd, x, cd, wd, dw, 1, ws, 0, True)
                ours = lambda: mi.convolutionBackwardWeights(h, 1.0, yd, dy, xd, x, cd, ALGO, 0.0, wd, dw, ws, 0)
                theirs = lambda: torch.ops.aten.convolution_backward(
                    tdy, tx, tw, None, [st, st], [p, p], [1, 1], False, [0, 0], g, [False, True, False])
            key = next(k_ for k_ in read_record() if k_.endswith("-" + d))
            chosen = read_record()[key].split(":", 1)[1]
            tt = min_ms(theirs, args.repeat)
            for v in variants_of(n):
                set_variant(key, SOLVER[d], v)
                to = min_ms(ours, args.repeat)
                mark = " <- search" if v == chosen else ""
                print(f"{d:<3} {name:<36} {v:<8} {to:9.3f} {tt:9.3f} {tt / to:6.2f}{mark}", flush=True)
            os.environ.pop("MIOPEN_DEBUG_FIND_ONLY_SOLVER")
    return 0


if __name__ == "__main__":
    sys.exit(main())
