"""net: every distinct convolution of a network (ResNet-50 v1.5), run and verified, in one table."""
import fnmatch
import sys

import numpy as np

from .buffers import Device
from .conv import ConvCase, ConvRunner
from .dtypes import BF16, FP16, FP32, as64
from .flags import NET_FLAGS, PROG, UsageError, parse_flags
from .report import EXIT_OK, EXIT_VERIFY_FAILED, corrupt_hook, finite_or_none, rms_range


def resnet50_layers(batch):
    """The distinct convolutions of ResNet-50 v1.5 (stride 2 in the 3x3 of each first bottleneck)
    at 224x224: (name, ConvCase, how many times the network has this problem)."""
    L = []

    def conv(name, c, k, hw, f, s, count):
        p = f // 2
        L.append((name, ConvCase(batch, c, k, (hw, hw), (f, f), (p, p), (s, s), (1, 1), name=name), count))

    conv("conv1", 3, 64, 224, 7, 2, 1)
    stages = [("layer1", 64, 256, 56, 3, 1), ("layer2", 128, 512, 56, 4, 2),
              ("layer3", 256, 1024, 28, 6, 2), ("layer4", 512, 2048, 14, 3, 2)]
    c_in = 64
    for name, mid, out, hw, blocks, s in stages:
        hw_out = hw // s
        conv(f"{name}.0.conv1", c_in, mid, hw, 1, 1, 1)
        conv(f"{name}.0.conv2", mid, mid, hw, 3, s, 1 if s > 1 else blocks)
        # conv3 of every block; in layer1 the downsample (64 -> 256, stride 1) is the same problem.
        conv(f"{name}.0.conv3", mid, out, hw_out, 1, 1, blocks + (1 if s == 1 else 0))
        if s > 1:
            conv(f"{name}.0.downsample", c_in, out, hw, 1, s, 1)
        conv(f"{name}.1.conv1", out, mid, hw_out, 1, 1, blocks - 1)
        if s > 1:
            conv(f"{name}.1.conv2", mid, mid, hw_out, 3, 1, blocks - 1)
        c_in = out
    return L


NETWORKS = {"resnet50": resnet50_layers}


def _net_directions(text):
    text = str(text).strip().lower()
    if text in ("all", "0", ""):
        return ["fwd", "bwd", "wrw"]
    if text.isdigit():
        mask = int(text)
        if not 1 <= mask <= 7:
            raise UsageError(f"--directions {text}: a bitmask of 1 (fwd), 2 (bwd), 4 (wrw)")
        return [d for bit, d in ((1, "fwd"), (2, "bwd"), (4, "wrw")) if mask & bit]
    alias = {"fwd": "fwd", "f": "fwd", "forward": "fwd", "bwd": "bwd", "b": "bwd", "bwd_data": "bwd",
             "backward": "bwd", "wrw": "wrw", "w": "wrw", "bwd_weights": "wrw", "weights": "wrw"}
    out = []
    for part in text.split(","):
        if part.strip() not in alias:
            raise UsageError(f"--directions {text}: use all, a list of fwd,bwd,wrw, or a bitmask 1..7")
        d = alias[part.strip()]
        if d not in out:
            out.append(d)
    return [d for d in ("fwd", "bwd", "wrw") if d in out]


class Progress:
    """One self-rewriting status line on stderr, only when stderr is a terminal."""

    def __init__(self, total):
        self.total, self.done = total, 0
        self.on = sys.stderr.isatty()
        self.width = 0

    def show(self, text):
        if self.on:
            line = f"[{self.done + 1:>3}/{self.total}] {text}"
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = len(line)

    def step(self):
        self.done += 1

    def close(self):
        if self.on and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def cmd_net(args, report):
    if not args or args[0].startswith("-"):
        raise UsageError(f"net needs a network name: {', '.join(NETWORKS)} (e.g. {PROG} net resnet50 --batch 8)")
    net = args[0]
    if net not in NETWORKS:
        raise UsageError(f"unknown network {net!r}: known networks are {', '.join(NETWORKS)}")
    o, _ = parse_flags(f"net {net}", NET_FLAGS, args[1:])
    if o["batch"] < 1:
        raise UsageError(f"--batch {o['batch']}: must be >= 1")
    if o["iter"] < 1:
        raise UsageError(f"--iter {o['iter']}: must be >= 1")
    directions = _net_directions(o["directions"])
    patterns = [p.strip() for p in o["layers"].split(",") if p.strip()]
    layers = [(n, c, k) for n, c, k in NETWORKS[net](o["batch"])
              if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    if not layers:
        names = ", ".join(n for n, _, _ in NETWORKS[net](1))
        raise UsageError(f"--layers {o['layers']!r} matches no layer of {net}: {names}")
    dtype = {"fp32": FP32, "fp16": FP16, "bf16": BF16}[o["dtype"]]
    if o["layout"] == "nhwc":
        for _, case, _ in layers:
            case.layouts = ("NHWC", "NHWC", "NHWC")
    device = Device(o["device"])
    report.record.update(subcommand="net", network=net, device=device.handle.device, batch=o["batch"],
                         directions=directions, layers=[n for n, _, _ in layers], dtype=dtype.name,
                         layout=o["layout"])
    report.say(f"{net}: {len(layers)} distinct convolutions, {dtype.name} {o['layout'].upper()}, batch {o['batch']}, "
               f"directions {','.join(directions)}, {o['iter']} timed iterations each (first excluded), "
               f"device {device.handle.device}")
    progress = Progress(len(layers) * len(directions))
    rows = []
    totals = {d: [0.0, 0.0] for d in directions}       # ms and flop, counting repeats
    try:
        for name, case, count in layers:
            runner = ConvRunner(device, case, dtype=dtype)
            for d in directions:
                progress.show(f"{name} {d}: Find and {o['iter']} runs")
                res = runner.run(d, o["iter"], corrupt=corrupt_hook())
                out = res.pop("output")
                if o["verify"]:
                    progress.show(f"{name} {d}: verifying")
                    err = rms_range(runner.reference(d), as64(out))
                    tol = runner.tolerance(d, res["algorithm"])
                    ok = bool(np.isfinite(err) and err <= tol)
                    res.update(verified=ok, error=finite_or_none(err), tolerance=tol)
                    if not ok:
                        report.failed = True
                else:
                    res["verified"] = None
                res.update(layer=name, count=count, command=case.command({"fwd": 1, "bwd": 2, "wrw": 4}[d], dtype),
                           shape=_layer_shape(case))
                rows.append(res)
                report.results.append(res)
                totals[d][0] += count * res["time_ms"]
                totals[d][1] += count * res["flop"]
                progress.step()
    finally:
        progress.close()
    _net_table(report, rows, totals, bool(o["verify"]), bool(o["commands"]))
    report.record["totals"] = {d: {"time_ms": t, "flop": f, "tflops": f / t / 1e9 if t > 0 else None}
                               for d, (t, f) in totals.items()}
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


def _layer_shape(case):
    f = "x".join(map(str, case.filt))
    return f"{case.c}->{case.k} {case.spatial[0]}x{case.spatial[1]} {f}/{case.strides[0]}"


def _net_table(report, rows, totals, verify, commands):
    head = ("layer", "shape", "x", "dir", "algorithm / solver", "time ms", "TFLOP/s", "verify")
    body = []
    for r in rows:
        solver = f"{r['algorithm_name']} / {r['solver'] or 'UNKNOWN'}"
        tf = r["flop"] / r["time_ms"] / 1e9 if r["time_ms"] > 0 else 0.0
        v = "-" if r["verified"] is None else (f"OK {r['error']:.1e}" if r["verified"] else
                                               f"FAILED {r['error'] if r['error'] is not None else 'nan'}")
        body.append((r["layer"], r["shape"], str(r["count"]), r["direction"], solver,
                     f"{r['time_ms']:.3f}", f"{tf:.3f}", v))
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    fmt = lambda row: "  ".join(c.ljust(w) if i in (0, 1, 3, 4, 7) else c.rjust(w)
                                for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    report.say(fmt(head))
    report.say("  ".join("-" * w for w in widths))
    for row, r in zip(body, rows):
        report.say(fmt(row))
        if commands:
            report.say(f"    {r['command']}")
    report.say("")
    all_t = sum(t for t, _ in totals.values())
    all_f = sum(f for _, f in totals.values())
    for d, (t, f) in totals.items():
        report.say(f"total {d}: {t:.3f} ms, {f / t / 1e9 if t > 0 else 0:.3f} TFLOP/s "
                   f"(every convolution of the network, repeats counted)")
    n_fail = sum(1 for r in rows if r["verified"] is False)
    report.say(f"total: {all_t:.3f} ms, {all_f / all_t / 1e9 if all_t > 0 else 0:.3f} TFLOP/s"
               + ("" if not verify else f"; verification: {len(rows) - n_fail}/{len(rows)} OK"))
