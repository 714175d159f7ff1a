"""Softmax and LRN on the CPU, miopen_cy beside PyTorch in one process.

For each case: `ours` is the Python call (mi.softmaxForward ...), `C` the time inside the C
library (handle profiling: miopenGetKernelTime, validation excluded), `torch` PyTorch's CPU op
(default threads). Medians over interleaved rounds after warm-up, in ms; ratio = torch / ours.

    PYTHONPATH=<site> python perf/measure_softmax_lrn.py [--rounds 15]

On a machine whose cores are shared with other work, wall-clock times of two-thread runs swing
by orders of magnitude (a thread waits for a core at every parallel region). `--one-thread`
runs both libraries on one thread (OMP_NUM_THREADS=1, torch.set_num_threads(1)) and times the
loops in process CPU time, which such sharing barely moves:

    OMP_NUM_THREADS=1 PYTHONPATH=<site> python perf/measure_softmax_lrn.py --one-thread
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch

import miopen_cy as mi
from conv_common import desc


CLOCK = time.perf_counter


def loop_ms(f, n):
    t0 = CLOCK()
    for _ in range(n):
        f()
    return (CLOCK() - t0) / n * 1e3


def kernel_ms(handle, f, n):
    mi.enableProfiling(handle, True)
    ts = []
    for _ in range(n):
        f()
        ts.append(mi.getKernelTime(handle))
    mi.enableProfiling(handle, False)
    return statistics.median(ts)


def measure(handle, ours, peers, n, rounds):
    """Interleaves ours and each peer `rounds` times; returns medians."""
    for f in [ours, *peers.values()]:
        loop_ms(f, max(3, n // 5))
    r_ours, r_c, r_peer = [], [], {k: [] for k in peers}
    for _ in range(rounds):
        r_ours.append(loop_ms(ours, n))
        r_c.append(kernel_ms(handle, ours, n))
        for k, f in peers.items():
            r_peer[k].append(loop_ms(f, n))
    return (statistics.median(r_ours), statistics.median(r_c),
            {k: statistics.median(v) for k, v in r_peer.items()})


def softmax_cases(handle, rng):
    for shape, n in [((32, 1000, 1, 1), 2000), ((1, 21, 256, 256), 40)]:
        x = rng.standard_normal(shape).astype(np.float32)
        y = np.empty_like(x)
        dy = rng.standard_normal(shape).astype(np.float32)
        dx = np.empty_like(x)
        d = desc(shape)
        mi.softmaxForward(handle, 1.0, d, x, 0.0, d, y)
        xt, dyt = torch.from_numpy(x), torch.from_numpy(dy)
        yt = torch.softmax(xt, 1)
        peers = {"torch": lambda: torch.softmax(xt, 1)}
        bpeers = {"torch": lambda: torch._softmax_backward_data(dyt, yt, 1, torch.float32)}
        if shape[2:] == (1, 1):        # the same data as the 2-d (N, C) matrix torch users have
            x2, dy2 = xt.reshape(shape[:2]), dyt.reshape(shape[:2])
            y2 = torch.softmax(x2, 1)
            peers["torch 2-d"] = lambda: torch.softmax(x2, 1)
            bpeers["torch 2-d"] = lambda: torch._softmax_backward_data(dy2, y2, 1, torch.float32)
        yield ("softmax_fwd", shape, "channel accurate",
               lambda: mi.softmaxForward(handle, 1.0, d, x, 0.0, d, y), peers, n)
        yield ("softmax_bwd", shape, "channel accurate",
               lambda: mi.softmaxBackward(handle, 1.0, d, y, d, dy, 0.0, d, dx), bpeers, n)


def lrn_cases(handle, rng):
    shape, n = (4, 96, 55, 55), 10
    x = rng.standard_normal(shape).astype(np.float32)
    y, dx = np.empty_like(x), np.empty_like(x)
    dy = rng.standard_normal(shape).astype(np.float32)
    d = desc(shape)
    lrn = mi.LRNDescriptor()
    mi.setLRNDescriptor(lrn, mi.miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0)
    ws = np.empty(mi.LRNGetWorkSpaceSize(d), np.uint8)
    mi.LRNForward(handle, lrn, 1.0, d, x, 0.0, d, y, True, ws)
    xt = torch.from_numpy(x).requires_grad_(True)
    yt = torch.nn.functional.local_response_norm(xt, 5, 1e-4, 0.75, 2.0)
    dyt = torch.from_numpy(dy)
    yield ("lrn_fwd", shape, "cross n5",
           lambda: mi.LRNForward(handle, lrn, 1.0, d, x, 0.0, d, y, True, ws),
           {"torch": lambda: torch.nn.functional.local_response_norm(xt.detach(), 5, 1e-4, 0.75, 2.0)}, n)
    yield ("lrn_bwd", shape, "cross n5",
           lambda: mi.LRNBackward(handle, lrn, 1.0, d, y, d, dy, d, x, 0.0, d, dx, ws),
           {"torch": lambda: torch.autograd.grad(yt, xt, dyt, retain_graph=True)}, n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--one-thread", action="store_true",
                    help="one thread each, loops timed in process CPU time")
    args = ap.parse_args()
    if args.one_thread:
        global CLOCK
        if os.environ.get("OMP_NUM_THREADS") != "1":
            ap.error("--one-thread needs OMP_NUM_THREADS=1 in the environment (read at load)")
        torch.set_num_threads(1)
        CLOCK = time.process_time
    handle = mi.Handle(device="cpu")
    rng = np.random.default_rng(0)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; medians of "
          f"{args.rounds} interleaved rounds, ms ({'process CPU time' if args.one_thread else 'wall'});"
          f" load average {os.getloadavg()[0]:.2f}")
    print(f"{'op':12} {'shape':18} {'case':17} {'ours':>9} {'C':>9} {'peer':>10} {'peer ms':>9}"
          f" {'ratio':>6}")
    for gen in (softmax_cases, lrn_cases):
        for op, shape, case, ours, peers, n in gen(handle, rng):
            t_ours, t_c, t_peers = measure(handle, ours, peers, n, args.rounds)
            for name, t in t_peers.items():
                print(f"{op:12} {str(shape):18} {case:17} {t_ours:9.4f} {t_c:9.4f} {name:>10} "
                      f"{t:9.4f} {t / t_ours:6.2f}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
