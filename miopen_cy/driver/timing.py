"""Timing: the library's kernel time of each call (the wall clock where that reads 0), MIOpenDriver's
time and `stats:` lines, and the result record of one direction."""
import time

import numpy as np

import miopen_cy as mi


def timed_calls(device, fn, iters):
    """Runs fn() `iters` times; returns (per-call ms list, wall ms list). The time of a call is
    the library's kernel time (miopenGetKernelTime) and the wall clock where that reads 0."""
    kernel, wall = [], []
    for _ in range(max(iters, 1)):
        t0 = time.perf_counter()
        fn()
        w = (time.perf_counter() - t0) * 1e3
        k = float(mi.getKernelTime(device.handle))
        kernel.append(k if k > 0 else w)
        wall.append(w)
    return kernel, wall


def average_excluding_first(times):
    return float(np.mean(times[1:])) if len(times) > 1 else float(times[0])


def time_lines(report, o, device, label, times, wall):
    if o["time"]:
        if o["wall"]:
            report.say(f"Wall-clock Time {label} Elapsed: {average_excluding_first(wall):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Time {label} Elapsed: "
                   f"{average_excluding_first(times):f} ms (average)")


def bytes_stats(report, o, name, read, written, t):
    if o["time"]:
        report.say("stats: name, bytesRead, bytesWritten, GB/s, timeMs")
        report.say(f"stats: {name}, {read}, {written}, {(read + written) / t / 1e6 if t > 0 else 0:f}, {t:f}")


def result(direction, times, wall, read, written, **extra):
    t = average_excluding_first(times)
    r = {"direction": direction, "iterations": len(times), "time_ms": t, "first_time_ms": times[0],
         "wall_ms": average_excluding_first(wall), "bytes_read": read, "bytes_written": written,
         "gbps": (read + written) / t / 1e6 if t > 0 else None}
    r.update(extra)
    return r
