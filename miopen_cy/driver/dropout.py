"""dropout: MIOpenDriver's dropout forward and backward, in fp32 (dropout), fp16 (dropoutfp16) or
bf16 (dropoutbfp16, ours beyond MIOpen). Verified against a float64 NumPy reference that applies
the mask of the documented generator (miopen_cy.reference.dropout: the same seed gives the same
mask), or, with -e 1, the host-made mask the forward reads (MIOpenDriver's use_mask test)."""
import re

import numpy as np

import miopen_cy as mi
from miopen_cy.reference import dropout as dropout_ref
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, as64, tolerance
from .flags import DROPOUT_FLAGS, UsageError, check_iters, directions, parse_flags
from .layer import open_layer
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, rms_range
from .timing import average_excluding_first, bytes_stats, result, time_lines, timed_calls


def input_dims(text):
    """MIOpenDriver's -d: up to 5 lengths separated by commas or spaces (x accepted too)."""
    try:
        lens = [int(v) for v in re.split(r"[,\sx]+", text.strip()) if v]
    except ValueError:
        raise UsageError(f"-d {text!r}: lengths look like 2,3,32,32") from None
    if not 1 <= len(lens) <= 5:
        raise UsageError(f"-d {text!r}: dropout takes 1 to 5 dims")
    return lens


def cmd_dropout(args, report, dtype=FP32, name="dropout"):
    o, _ = parse_flags(name, DROPOUT_FLAGS, args)
    info = check_iters(o)
    fwd, bwd = directions(o["forw"], "dropout")
    p = o["dropout"]
    if not 0.0 <= p <= 1.0:
        raise UsageError(f"-p {p}: the dropout rate is in [0, 1]")
    if o["use_mask"] not in (0, 1):
        raise UsageError(f"-e {o['use_mask']}: use_mask is 0 or 1")
    if o["dump_output"]:
        raise UsageError("-o 1: dumping buffers is not supported by this driver")
    seed = (max(o["seed_high"], 0) << 32) | max(o["seed_low"], 0)
    use_mask = bool(o["use_mask"])
    lens, _, device = open_layer(o, report, info, lens=input_dims(o["input_dim"]))
    h = device.handle
    x, y, dy, dx = (HostTensor(lens, dtype=dtype) for _ in range(4))
    xd, yd = x.desc(), y.desc()
    n = int(np.prod(lens))
    rng = data_rng()
    x_data = dtype.store(0.01 * rng.random(lens))
    dy_data = dtype.store(0.01 * rng.random(lens))
    x.set(x_data)
    dy.set(dy_data)
    dd = library_call("DropoutDescriptor")()
    states_size = mi.dropoutGetStatesSize(h)
    states = device.workspace(states_size)
    mi.setDropoutDescriptor(dd, h, p, states, states_size, seed, use_mask, False,
                            mi.MIOPEN_RNG_PSEUDO_XORWOW)
    rs_size = mi.dropoutGetReserveSpaceSize(xd)
    host_mask = (rng.random(n) > np.float32(p)).astype(np.uint8) if use_mask else None
    reserve = np.ones(rs_size, np.uint8) if host_mask is None else host_mask.copy()
    rs = reserve if not device.gpu else mi.DeviceBuffer.from_numpy(h, reserve)
    report.record.update(subcommand="dropout", device=h.device, problem={
        "x": lens, "type": dtype.name, "dropout": p, "seed": seed, "use_mask": use_mask})
    report.say(f"Dropout: x {'x'.join(map(str, lens))} {dtype.name}, rate {p:g}, seed {seed}, "
               f"use_mask {int(use_mask)}")
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = n * dtype.itemsize
    # The mask the forward draws (or reads): the backward and both references apply it.
    keep = host_mask if use_mask else dropout_ref.mask(seed, 0, n, p)
    tol = tolerance("dropout", dtype, 1e-6)

    def run(direction, label, stat, call, out, read, written, reference):
        times, wall = timed_calls(device, call, o["iter"])
        got = apply_corrupt(direction, device.get(*out))
        time_lines(report, o, device, label, times, wall)
        bytes_stats(report, o, stat, read, written, average_excluding_first(times))
        res = result(direction, times, wall, read, written)
        if o["verify"]:
            mask = reserve if not device.gpu else rs.to_numpy((rs_size,), np.uint8)
            same = bool(np.array_equal(mask, keep))
            res.update(mask_matches=same)
            if not same:
                report.say(f"{label}: the mask in the reserve space is not the reference's "
                           f"({int(np.sum(mask != keep))} of {n} differ)")
            report.verdict(label, rms_range(reference(), got) if same else float("inf"), tol, res)
        report.results.append(res)

    if fwd:
        run("fwd", "Forward Dropout", "dropout-fwd",
            lambda: mi.dropoutForward(h, dd, xd, xd, bx, yd, by, rs, rs_size), (y, by),
            nbytes + (rs_size if use_mask else 0), nbytes + (0 if use_mask else rs_size),
            lambda: dropout_ref.apply(as64(x_data), keep, p))
    if bwd:
        if not fwd:
            mi.dropoutForward(h, dd, xd, xd, bx, yd, by, rs, rs_size)
        run("bwd", "Backward Dropout", "dropout-bwd",
            lambda: mi.dropoutBackward(h, dd, xd, yd, bdy, xd, bdx, rs, rs_size), (dx, bdx),
            nbytes + rs_size, nbytes, lambda: dropout_ref.apply(as64(dy_data), keep, p))
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
