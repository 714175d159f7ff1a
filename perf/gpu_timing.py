"""CUDA-event timing shared by the perf scripts (METHOD.md: events around each run, not the host
clock, which would add launch latency). Imported as `gpu_timing` by scripts run as
`python3 perf/<script>.py` (their folder is first on the import path)."""
import torch


def event_times_ms(fn, repeat, inner=1, warmup=1):
    """`repeat` samples of the GPU time of one call of fn, each the CUDA-event time of `inner`
    back-to-back calls divided by inner, after `warmup` untimed calls and a synchronize."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(inner):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / inner)
    return times
