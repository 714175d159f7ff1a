"""The gemm2 choices side by side on the GPU, in one process: each solver forced by its solution
id (immediate mode), under the debug switches that select the variants, against cuDNN.

    python perf/bench_gemm2.py [--repeat N] [--batch N] [--only wrw,scatter,split] [--profile]

- wrw:     ConvCpuWinogradWrw<4-3>/<2-3> on the 3x3 stride-1 layers, the tile-element SGEMM with
           the default split and tile (ChooseWrw) and forced ones (MIOPEN_CY_DEBUG_WINO_WRW_SPLITS /
           _TILE; a forced split keeps the default tile and the reverse);
- scatter: GemmBwd1x1_stride2 with the run scatter (default) and the per-element one
           (MIOPEN_CY_DEBUG_GEMM_SCATTER=element), and the forward twin GemmFwd1x1_0_2;
- split:   GemmWrw1x1_stride1 with the split image sum capped at 1024 parts (default) and fewer
           (MIOPEN_CY_DEBUG_SGEMM_MAX_SPLIT).
Median of --repeat CUDA-event times (immediate mode builds its invoker in each call, so a
switch set between calls takes effect); ratio = cuDNN / ours."""
import argparse
import os
import statistics

import torch

import miopen_cy as mi
from gpu_timing import event_times_ms


def desc(shape):
    d = mi.TensorDescriptor()
    mi.set4dTensorDescriptor(d, mi.miopenFloat, *shape)
    return d


def median_ms(fn, repeat):
    return statistics.median(event_times_ms(fn, repeat))


class Layer:
    def __init__(self, h, n, c, hw, k, r, st, p):
        self.h, self.st, self.p = h, st, p
        self.cd = mi.ConvolutionDescriptor()
        mi.initConvolutionDescriptor(self.cd, mi.miopenConvolution, p, p, st, st, 1, 1)
        xs, ws = (n, c, hw, hw), (k, c, r, r)
        self.xd, self.wd = desc(xs), desc(ws)
        ys = mi.getConvolutionForwardOutputDim(self.cd, self.xd, self.wd)
        self.yd = desc(ys)
        g = torch.Generator(device="cuda").manual_seed(0)
        self.x = torch.randn(xs, device="cuda", generator=g)
        self.w = torch.randn(ws, device="cuda", generator=g)
        self.dy = torch.randn(ys, device="cuda", generator=g)
        self.y, self.dx, self.dw = torch.empty(ys, device="cuda"), torch.empty(xs, device="cuda"), torch.empty(ws, device="cuda")
        self.name = f"n{n} c{c} {hw}x{hw} k{k} {r}x{r} s{st} p{p}"

    def ours(self, d, sid):
        h = self.h
        if d == "F":
            wsz = mi.convolutionForwardGetSolutionWorkspaceSize(h, self.wd, self.xd, self.cd, self.yd, sid)
            ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device="cuda")
            return lambda: mi.convolutionForwardImmediate(h, self.wd, self.w, self.xd, self.x, self.cd, self.yd,
                                                          self.y, ws, wsz, sid), self.y
        if d == "B":
            wsz = mi.convolutionBackwardDataGetSolutionWorkspaceSize(h, self.yd, self.wd, self.cd, self.xd, sid)
            ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device="cuda")
            return lambda: mi.convolutionBackwardDataImmediate(h, self.yd, self.dy, self.wd, self.w, self.cd, self.xd,
                                                               self.dx, ws, wsz, sid), self.dx
        wsz = mi.convolutionBackwardWeightsGetSolutionWorkspaceSize(h, self.yd, self.xd, self.cd, self.wd, sid)
        ws = torch.empty(max(wsz, 1), dtype=torch.uint8, device="cuda")
        return lambda: mi.convolutionBackwardWeightsImmediate(h, self.yd, self.dy, self.xd, self.x, self.cd, self.wd,
                                                              self.dw, ws, wsz, sid), self.dw

    def theirs(self, d):
        st, p = [self.st] * 2, [self.p] * 2
        if d == "F":
            return lambda: torch.nn.functional.conv2d(self.x, self.w, stride=st, padding=p)
        mask = [d == "B", d == "W", False]
        return lambda: torch.ops.aten.convolution_backward(self.dy, self.x, self.w, None, st, p, [1, 1], False,
                                                           [0, 0], 1, mask)


SWITCHES = ("MIOPEN_CY_DEBUG_WINO_WRW_SPLITS", "MIOPEN_CY_DEBUG_WINO_WRW_TILE", "MIOPEN_CY_DEBUG_GEMM_SCATTER",
            "MIOPEN_CY_DEBUG_SGEMM_MAX_SPLIT")


def variant_rows(layer, d, sid, label, variants, repeat):
    t_peer = median_ms(layer.theirs(d), repeat)
    ref = None
    for vname, env in variants:
        for k in SWITCHES:
            os.environ.pop(k, None)
        os.environ.update(env)
        fn, out = layer.ours(d, sid)
        t = median_ms(fn, repeat)
        got = out.clone()
        same = "" if ref is None else ("same" if torch.equal(got, ref) else
                                       f"relerr {float((got - ref).norm() / ref.norm()):.1e}")
        ref = got if ref is None else ref
        print(f"{d} {layer.name:<28} {label:<26} {vname:<16} {t:8.4f} {t_peer:8.4f} {t_peer / t:6.2f}  {same}",
              flush=True)
    for k in SWITCHES:
        os.environ.pop(k, None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--only", default="wrw,scatter,split")
    ap.add_argument("--profile", action="store_true", help="also the per-kernel CUDA times of the default choices")
    args = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    h = mi.Handle(device="gpu")
    n = args.batch
    only = args.only.split(",")
    print(f"# miopen_cy {mi.__version__}, PyTorch {torch.__version__} (cuDNN {torch.backends.cudnn.version()}) "
          f"on {torch.cuda.get_device_name()}, batch {n}, median of {args.repeat}")
    print(f"{'d'} {'layer':<28} {'solver':<26} {'variant':<16} {'ours ms':>8} {'cuDNN':>8} {'ratio':>6}")
    if "wrw" in only:
        for c, hw in ((64, 56), (128, 28), (256, 14), (512, 7)):
            layer = Layer(h, n, c, hw, c, 3, 1, 1)
            variants = [("default", {})]
            variants += [(f"splits {s}", {"MIOPEN_CY_DEBUG_WINO_WRW_SPLITS": str(s)})
                         for s in (1, 2, 3, 4, 6, 8, 12, 16, 32)]
            variants += [(f"tile {t}", {"MIOPEN_CY_DEBUG_WINO_WRW_TILE": str(t)}) for t in range(4)]
            variants += [(f"s{s} t{t}", {"MIOPEN_CY_DEBUG_WINO_WRW_SPLITS": str(s), "MIOPEN_CY_DEBUG_WINO_WRW_TILE": str(t)})
                         for s in (1, 2, 4, 8, 16) for t in range(4)]
            variant_rows(layer, "W", 1010, "ConvCpuWinogradWrw<4-3>", variants, args.repeat)
            variant_rows(layer, "W", 1011, "ConvCpuWinogradWrw<2-3>", variants, args.repeat)
    if "scatter" in only:
        for c, hw, k in ((256, 56, 512), (512, 28, 1024), (1024, 14, 2048)):
            layer = Layer(h, n, c, hw, k, 1, 2, 0)
            variant_rows(layer, "B", 95, "GemmBwd1x1_stride2", [("runs", {}), ("per-element", {
                "MIOPEN_CY_DEBUG_GEMM_SCATTER": "element"})], args.repeat)
            variant_rows(layer, "F", 90, "GemmFwd1x1_0_2", [("default", {})], args.repeat)
    if "split" in only:
        for c, hw, k in ((64, 56, 64), (64, 56, 256), (256, 56, 64), (128, 28, 512), (2048, 7, 512)):
            layer = Layer(h, n, c, hw, k, 1, 1, 0)
            variant_rows(layer, "W", 101, "GemmWrw1x1_stride1", [("cap 1024", {})] + [
                (f"cap {m}", {"MIOPEN_CY_DEBUG_SGEMM_MAX_SPLIT": str(m)}) for m in (64, 128, 256, 512)], args.repeat)
    if args.profile:
        profile(h, n)


def profile(h, n):
    """Per-kernel device time (torch.profiler, CUPTI) of the default choices, 10 runs each."""
    from torch.profiler import ProfilerActivity, profile as tprofile
    cases = [(Layer(h, n, c, hw, c, 3, 1, 1), "W", 1010) for c, hw in ((128, 28), (256, 14), (512, 7))]
    cases.append((Layer(h, n, 256, 56, 512, 1, 2, 0), "B", 95))
    for layer, d, sid in cases:
        fn, _ = layer.ours(d, sid)
        fn()
        torch.cuda.synchronize()
        with tprofile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                fn()
            torch.cuda.synchronize()
        print(f"# profile {d} {layer.name} solver {sid}: per-kernel CUDA time over 10 runs")
        try:
            print(prof.key_averages().table(sort_by="device_time_total", row_limit=8, max_name_column_width=60))
        except Exception as e:   # older PyTorch names the column cuda_time_total
            print(f"# ({e})")
            print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=8, max_name_column_width=60))


if __name__ == "__main__":
    main()
