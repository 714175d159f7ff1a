"""Host cost of one convolution run call (miopenConvolutionForward / BackwardData /
BackwardWeights through miopen_cy) on a layer whose kernel is short, in two states of one process:
"record": after a Find, the run looks at the find-db record's solvers first (surveying only them);
"no record": MIOPEN_DEBUG_DISABLE_FIND_DB=1, every run surveys all solvers (what every run paid
before dwgrp2). Per state: the median host time of the call alone (launches are asynchronous),
and the CUDA-event time around one call (what perf/bench_conv.py reports), next to cuDNN's.

    python perf/bench_run_overhead.py [--device gpu|cpu] [--repeat N]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import torch

import miopen_cy as mi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_timing import event_times_ms   # noqa: E402
from bench_conv import layer_name  # noqa: E402
from conv_common import layer_descs  # noqa: E402

GPU_LAYERS = [(384, 14, 14, 384, 3, 3, 1, 1, 384), (256, 28, 28, 256, 3, 3, 1, 1, 32)]
CPU_LAYERS = [(8, 6, 6, 8, 3, 3, 1, 1, 8)]


def host_us(fn, repeat, sync):
    fn()
    sync()
    t = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t.append((time.perf_counter() - t0) * 1e6)
        sync()
    return statistics.median(t)


def event_ms(fn, repeat):
    return statistics.median(event_times_ms(fn, repeat))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="gpu", choices=["gpu", "cpu"])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args(argv)
    gpu = args.device == "gpu"
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp(prefix="bench_overhead_db_"))
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    h_ = mi.Handle(device=args.device)
    dev = "cuda" if gpu else "cpu"
    sync = torch.cuda.synchronize if gpu else (lambda: None)
    n = args.batch if gpu else 1
    print(f"# miopen_cy {mi.__version__}, {torch.cuda.get_device_name() if gpu else 'CPU'}, batch {n}")
    print(f"{'layer':<36} {'state':<10} {'host us':>8} {'event ms':>9} {'cuDNN ms':>9}")
    rng = np.random.default_rng(0)
    for layer in (GPU_LAYERS if gpu else CPU_LAYERS):
        c, hh, ww, k, r, s, st, p, g = layer
        cd, xs, wsh, ys, xd, wd, yd = layer_descs(n, layer)
        tx = torch.from_numpy(rng.standard_normal(xs).astype(np.float32)).to(dev)
        tw = torch.from_numpy(rng.standard_normal(wsh).astype(np.float32)).to(dev)
        y = torch.empty(ys, device=dev)
        xa, wa, ya = (tx, tw, y) if gpu else (tx.numpy(), tw.numpy(), y.numpy())
        wsz = mi.convolutionForwardGetWorkSpaceSize(h_, wd, xd, cd, yd)
        ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device=dev)
        wsa = ws if gpu else ws.numpy()
        algo = mi.findConvolutionForwardAlgorithm(h_, xd, xa, wd, wa, cd, yd, ya, 5, wsa, wsz, False)[0].fwd_algo
        fn = lambda: mi.convolutionForward(h_, 1.0, xd, xa, wd, wa, cd, algo, 0.0, yd, ya, wsa, wsz)
        ref = torch.nn.functional.conv2d(tx, tw, stride=st, padding=p, groups=g)
        peer = lambda: torch.nn.functional.conv2d(tx, tw, stride=st, padding=p, groups=g)
        t_peer = event_ms(peer, 50) if gpu else float("nan")
        for state in ("record", "no record"):
            if state == "no record":
                os.environ["MIOPEN_DEBUG_DISABLE_FIND_DB"] = "1"
            try:
                y.fill_(float("nan"))
                fn()
                sync()
                err = float((y.double() - ref.double()).norm() / ref.double().norm())
                hu = host_us(fn, args.repeat, sync)
                ev = event_ms(fn, 50) if gpu else float("nan")
            finally:
                os.environ.pop("MIOPEN_DEBUG_DISABLE_FIND_DB", None)
            print(f"{layer_name(n, c, hh, ww, k, r, s, st, p, g):<36} {state:<10} {hu:8.1f} {ev:9.4f} {t_peer:9.4f}"
                  + ("" if err < 1e-4 else f"  WRONG rel err {err:.1e}"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
