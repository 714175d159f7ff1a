"""Our fp32 GEMM (miopenCySgemm: hip/kernels/gemm/sgemm.hip on the GPU, OpenBLAS on the CPU) against
torch.matmul (cuBLAS with TF32 off on the GPU; oneDNN / MKL on the CPU) in one process.

Square products, and the GEMMs of ResNet-50's 1x1 convolutions (batch 32 on the GPU, 4 on the
CPU): forward (NN), backward data (TN) and weights (NT, the batch summed into one C). A row: both
times (CUDA events on the GPU; on the CPU the host clock, the sides alternating), TFLOP/s, the
ratio theirs / ours (> 1: we are faster), the error against PyTorch's product, and the
miopen-driver command of the same GEMM as a 1x1 convolution (--reproduce prints it; the driver
picks its own solver, so it reproduces the problem, not this call).

    python perf/bench_gemm.py [--device cpu|gpu] [--filter SUBSTRING] [--repeat N] [--stat median|min]
        [--threads N] [--reproduce] [--out DIR] [--results RESULTS.md]

On the CPU, OPENBLAS_CORETYPE=Haswell|SkylakeX picks OpenBLAS's kernel set (the header names it).
"""
import argparse
import sys

import common  # first: it sets OMP_NUM_THREADS for --threads before an OpenMP runtime loads
from common import Device, Report, driver, geomean

import torch

import miopen_cy as mi

COLUMNS = [("shape", "shape", "{:<26}"), ("mnkb", "m n k batch", "{:<22}"), ("ours_ms", "ours ms", "{:>9.4f}"),
           ("peer_ms", "peer ms", "{:>9.4f}"), ("ratio", "ratio", "{:>6.2f}"), ("tflops", "TFLOP/s", "{:>8.3f}"),
           ("peer_tflops", "peer TFLOP/s", "{:>12.3f}"), ("err", "rel err", "{:>7.0e}")]


def shapes(gpu):
    """(name, trans_a, trans_b, sum_batch, m, n, k, batch, (c, h, w, k, driver -F))."""
    b = 32 if gpu else 4
    sq = (2048, 4096, 8192) if gpu else (512, 1024)
    rows = [(f"square {s}", False, False, False, s, s, s, 1, (s, 1, s, s, 1)) for s in sq]
    s = sq[1]
    rows += [(f"square {s} TN", True, False, False, s, s, s, 1, (s, 1, s, s, 2)),
             (f"square {s} NT", False, True, True, s, s, s, 1, (s, 1, s, s, 4))]
    for c, hw, k in ((64, 56, 256), (256, 56, 64), (1024, 14, 256), (512, 7, 2048)):
        rows.append((f"fwd 1x1 c{c} {hw}x{hw} k{k}", False, False, False, k, hw * hw, c, b, (c, hw, hw, k, 1)))
    rows.append(("bwd 1x1 c256 56x56 k64", True, False, False, 256, 3136, 64, b, (256, 56, 56, 64, 2)))
    for c, hw, k in ((256, 56, 64), (512, 7, 2048)):
        rows.append((f"wrw 1x1 c{c} {hw}x{hw} k{k}", False, True, True, k, c, hw * hw, b, (c, hw, hw, k, 4)))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_common_args(ap, repeat=10)
    ap.add_argument("--filter", default="")
    args = ap.parse_args(argv)
    dev = Device(args)
    h = mi.Handle(device=dev.name)
    rep = Report(args, "gemm", "fp32 GEMM", COLUMNS, dev)
    gen = torch.Generator(device=dev.torch).manual_seed(0)
    for name, ta, tb, sb, m, n, k, batch, (cc, hh, ww, kk, fdir) in shapes(dev.gpu):
        if args.filter not in name:
            continue
        a = torch.randn((batch,) + ((k, m) if ta else (m, k)), device=dev.torch, generator=gen)
        b = torch.randn((batch,) + ((n, k) if tb else (k, n)), device=dev.torch, generator=gen)
        outs = 1 if sb else batch
        c = torch.full((outs, m, n), float("nan"), device=dev.torch)
        lda, ldb = a.shape[-1], b.shape[-1]
        sa, sb_ = a[0].numel(), b[0].numel()
        ours = lambda: mi.cySgemm(h, ta, tb, sb, m, n, k, batch, a.data_ptr(), lda, sa, b.data_ptr(), ldb, sb_,
                                  c.data_ptr(), n, m * n)
        opa = a.transpose(1, 2) if ta else a
        opb = b.transpose(1, 2) if tb else b
        if sb:   # the summed product as one matmul over the concatenated k (what a BLAS user would do)
            lhs = opa.permute(1, 0, 2).reshape(m, batch * k)
            rhs = opb.reshape(batch * k, n)
            theirs = lambda: torch.matmul(lhs, rhs)
        else:
            theirs = lambda: torch.matmul(opa, opb)
        t_ours, t_peer = dev.pair_ms(ours, theirs)
        ref = theirs().double().reshape(outs, m, n)
        err = float((c.double() - ref).norm() / ref.norm())
        flops = 2.0 * m * n * k * batch
        drv = driver("conv", {"-n": batch if batch > 1 else 1, "-c": cc, "-H": hh, "-W": ww, "-k": kk, "-y": 1,
                              "-x": 1, "-F": fdir}, dev.name, dev.repeat)
        rep.add(shape=name, mnkb=f"{m} {n} {k} {batch}", ours_ms=t_ours, peer_ms=t_peer, ratio=t_peer / t_ours,
                tflops=flops / t_ours / 1e9, peer_tflops=flops / t_peer / 1e9, err=err, driver=drv)
    if rep.rows:
        rep.say(f"geomean ratio {geomean(r['ratio'] for r in rep.rows):.3f} over {len(rep.rows)} shapes")
    if dev.gpu and any(r["shape"].startswith("wrw") for r in rep.rows):
        rep.say("the wrw rows call cySgemm without a workspace, so the summed product is not split over the GPU; "
                "the GemmWrw1x1_stride1 solver splits it (bench_conv's bwd-wt rows of these layers)")
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main())
