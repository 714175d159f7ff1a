"""What the layer sub-commands (pool, lrn, activ, softmax, bnorm, tensorop) share: the checks of
the input's lengths before the device opens, and one direction timed, reported and verified."""
from .buffers import Device
from .flags import UsageError, layout_flag
from .report import apply_corrupt, rms_range
from .timing import average_excluding_first, bytes_stats, result, time_lines, timed_calls


def open_layer(o, report, info, lens=None, layout=False):
    """Checks the lengths (-n -c -H -W unless `lens` is given) and, with `layout`, the -L flag;
    opens the device and prints the --wall note `info`. Returns (lens, layout, device)."""
    if lens is None:
        lens = [o["batchsize"], o["in_channels"], o["in_h"], o["in_w"]]
    if min(lens) < 1:
        raise UsageError("tensor lengths must be >= 1")
    layout = layout_flag(o, len(lens)) if layout else None
    device = Device(o["device"])
    if info:
        report.say(info)
    return lens, layout, device


def run_direction(report, o, device, direction, label, stat, call, out, read, written, reference, tol):
    """Times `call` -i times, prints MIOpenDriver's time and stats lines (`label`, `stat`),
    verifies the output `out` (a HostTensor and its device data) against reference() within `tol`
    and adds the direction's result to the report."""
    times, wall = timed_calls(device, call, o["iter"])
    got = apply_corrupt(direction, device.get(*out))
    time_lines(report, o, device, label, times, wall)
    bytes_stats(report, o, stat, read, written, average_excluding_first(times))
    res = result(direction, times, wall, read, written)
    if o["verify"]:
        report.verdict(label, rms_range(reference(), got), tol, res)
    report.results.append(res)
