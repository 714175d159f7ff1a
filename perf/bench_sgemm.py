"""Our GPU SGEMM (miopenCySgemm, hip/kernels/gemm/sgemm.hip) against torch.matmul (cuBLAS, TF32
off) in one process: TFLOP/s and the speed ratio (theirs / ours in time: > 1 means we are faster),
on square products and on the GEMMs of ResNet-50's 1x1 convolutions at batch 32.

    python perf/bench_sgemm.py [--repeat N] [--stat median|min]

Times are CUDA-event times of one call after a warm-up, the median (or min) of --repeat.
"""
import argparse
import statistics

import torch

import miopen_cy as mi
from gpu_timing import event_times_ms

# name, trans_a, trans_b, sum_batch, m, n, k, batch
SHAPES = [
    ("square 2048", False, False, False, 2048, 2048, 2048, 1),
    ("square 4096", False, False, False, 4096, 4096, 4096, 1),
    ("square 8192", False, False, False, 8192, 8192, 8192, 1),
    ("square 4096 TN", True, False, False, 4096, 4096, 4096, 1),
    ("square 4096 NT", False, True, False, 4096, 4096, 4096, 1),
    ("fwd 1x1 c64 56x56 k256", False, False, False, 256, 3136, 64, 32),
    ("fwd 1x1 c256 56x56 k64", False, False, False, 64, 3136, 256, 32),
    ("fwd 1x1 c1024 14x14 k256", False, False, False, 256, 196, 1024, 32),
    ("fwd 1x1 c512 7x7 k2048", False, False, False, 2048, 49, 512, 32),
    ("bwd 1x1 c256 56x56 k64", True, False, False, 256, 3136, 64, 32),
    ("wrw 1x1 c256 56x56 k64", False, True, True, 64, 256, 3136, 32),
    ("wrw 1x1 c512 7x7 k2048", False, True, True, 2048, 512, 49, 32),
]


def timed(fn, repeat, stat):
    times = event_times_ms(fn, repeat)
    return min(times) if stat == "min" else statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--stat", default="median", choices=["median", "min"])
    ap.add_argument("--filter", default="")
    args = ap.parse_args(argv)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    h = mi.Handle(device="gpu")
    print(f"# miopen_cy {mi.__version__} vs PyTorch {torch.__version__} (cuBLAS, TF32 off) on "
          f"{torch.cuda.get_device_name()}; CUDA events, {args.stat} of {args.repeat}")
    print(f"{'shape':28s} {'m':>5s} {'n':>5s} {'k':>5s} {'b':>3s}  {'ours ms':>8s} {'torch ms':>8s} "
          f"{'TFLOP/s':>7s} {'tTFLOP/s':>8s} {'ratio':>6s}  {'rel err':>8s}")
    gen = torch.Generator(device="cuda").manual_seed(0)
    for name, ta, tb, sb, m, n, k, batch in SHAPES:
        if args.filter not in name:
            continue
        a = torch.randn((batch,) + ((k, m) if ta else (m, k)), device="cuda", generator=gen)
        b = torch.randn((batch,) + ((n, k) if tb else (k, n)), device="cuda", generator=gen)
        outs = 1 if sb else batch
        c = torch.full((outs, m, n), float("nan"), device="cuda")
        lda, ldb = a.shape[-1], b.shape[-1]
        sa, sb_ = a[0].numel(), b[0].numel()
        ours = lambda: mi.cySgemm(h, ta, tb, sb, m, n, k, batch, a.data_ptr(), lda, sa, b.data_ptr(), ldb,
                                  sb_, c.data_ptr(), n, m * n)
        opa = a.transpose(1, 2) if ta else a
        opb = b.transpose(1, 2) if tb else b
        if sb:
            # The summed product as one matmul over the concatenated k (what a BLAS user would do).
            lhs = opa.permute(1, 0, 2).reshape(m, batch * k)
            rhs = opb.reshape(batch * k, n)
            theirs = lambda: torch.matmul(lhs, rhs)
        else:
            theirs = lambda: torch.matmul(opa, opb)
        t_ours = timed(ours, args.repeat, args.stat)
        t_theirs = timed(theirs, args.repeat, args.stat)
        ref = theirs().double().reshape(outs, m, n)
        err = ((c.double() - ref).norm() / ref.norm()).item()
        flops = 2.0 * m * n * k * batch
        print(f"{name:28s} {m:5d} {n:5d} {k:5d} {batch:3d}  {t_ours:8.4f} {t_theirs:8.4f} "
              f"{flops / t_ours / 1e9:7.1f} {flops / t_theirs / 1e9:8.1f} {t_theirs / t_ours:6.2f}  {err:8.1e}")


if __name__ == "__main__":
    main()
