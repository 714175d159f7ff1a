"""pool: MIOpenDriver's pooling forward and backward (2-d or 3-d; max, average, average inclusive), in
fp32 (pool), fp16 (poolfp16) or bf16 (poolbfp16, ours beyond MIOpen)."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import pooling as pool_ref
from .buffers import Device, HostTensor, data_rng, library_call
from .dtypes import FP32, as64, tolerance
from .flags import (POOL_FLAGS, Flag, UsageError, check_iters, convert, directions, parse_flags,
                    parse_tensor_spec)
from .layer import run_direction
from .report import EXIT_OK, EXIT_VERIFY_FAILED


def cmd_pool(args, report, dtype=FP32, name="pool"):
    o, given = parse_flags(name, POOL_FLAGS, args)
    info = check_iters(o)
    # MIOpenDriver's newest pool takes the input as a tensor flag (--input, short -W): a -W value
    # with an 'x' is that tensor, a plain number the old width flag.
    spec = o["input"]
    for flag, key, where in (("in_w", "input", "-W"), ("in_h", "doutput", "-H")):
        text = o[flag]
        if "x" in text or "," in text:            # a tensor descriptor, not a length
            o[key] = o[key] or text
            o[flag] = "32"
        else:
            o[flag] = convert(Flag(flag, None, 0, "int", ""), text, f"{where} (--{flag})")
    spec = spec or o["input"]
    if spec:
        lens, strides, layout = parse_tensor_spec(spec, "--input")
    else:
        if o["spatial_dim"] not in (2, 3):
            raise UsageError(f"--spatial_dim {o['spatial_dim']}: pooling is 2-d or 3-d")
        lens = [o["batchsize"], o["in_channels"]] + ([o["in_d"]] if o["spatial_dim"] == 3 else []) + [o["in_h"], o["in_w"]]
        strides, layout = None, None
    dims = len(lens) - 2
    if dims == 2 and {"win_d", "pool_stride_d", "pad_d"} & given:
        raise UsageError("-Z/-s/-o (depth window, stride, pad) given for a 2-d input: they need a 5-d --input")
    modes = {"max": 0, "avg": 1, "avg_in": 2}
    if o["mode"] not in modes:
        raise UsageError(f"-m {o['mode']!r}: the pooling mode is max, avg or avg_in")
    mode = modes[o["mode"]]
    index_types = {"miopenIndexUint8": 0, "miopenIndexUint16": 1, "miopenIndexUint32": 2, "miopenIndexUint64": 3}
    if o["index_type"] not in index_types:
        raise UsageError(f"-I {o['index_type']!r}: one of {', '.join(index_types)}")
    if o["pad_mode"] not in ("default", "same", "valid"):
        raise UsageError(f"-z {o['pad_mode']!r}: the padding mode is default, same or valid")
    if o["pad_val"] != 0:
        raise UsageError(f"-r {o['pad_val']}: only zero padding (-r 0) is supported")
    if o["index_position"] not in (0, 1):
        raise UsageError(f"-M {o['index_position']}: 0 (mask index) or 1 (image index)")
    fwd, bwd = directions(o["forw"], "pooling")
    axes = ["d", "h", "w"][3 - dims:]
    win = [o["win_" + a] for a in axes]
    pads = [o["pad_" + a] for a in axes]
    strides_p = [o["pool_stride_" + a] for a in axes]
    if min(win + strides_p) < 1 or min(pads) < 0 or min(lens) < 1:
        raise UsageError("window lengths, strides and tensor lengths must be >= 1, pads >= 0")
    if o["pad_mode"] == "valid":
        pads = [0] * dims
    elif o["pad_mode"] == "same":
        pads = [max(f - (s if i % s == 0 else i % s), 0) // 2 for i, f, s in zip(lens[2:], win, strides_p)]
    device = Device(o["device"])
    h = device.handle
    if info:
        report.say(info)
    x = HostTensor(lens, strides=strides, layout=layout, dtype=dtype)
    xd = x.desc()
    pd = library_call("PoolingDescriptor")()
    library_call("setNdPoolingDescriptor")(pd, mode, dims, win, pads, strides_p)
    library_call("setPoolingIndexType")(pd, index_types[o["index_type"]])
    library_call("setPoolingWorkSpaceIndexMode")(pd, 1 if dims == 3 else o["index_position"])
    ylens = list(library_call("getPoolingNdForwardOutputDim")(pd, xd, dims + 2))
    if min(ylens) < 1:
        raise mi.BadParmError(f"the pooling output would be {'x'.join(map(str, ylens))}: check the window and pads")
    for flag, text in (("--output/-O", o["output"]), ("--doutput", o["doutput"]), ("--dinput/-D", o["dinput"])):
        if text:
            tl, _, _ = parse_tensor_spec(text, flag)
            want = lens if "dinput" in flag else ylens
            if list(tl) != list(want):
                raise UsageError(f"{flag} {text}: lengths {tl} contradict the computed {want}")
    y = HostTensor(ylens, layout=layout if strides is None else None, dtype=dtype)
    dy = HostTensor(ylens, layout=layout if strides is None else None, dtype=dtype)
    dx = HostTensor(lens, strides=strides, layout=layout, dtype=dtype)
    yd, dyd, dxd = y.desc(), dy.desc(), dx.desc()
    rng = data_rng()
    x_data = dtype.store(rng.random(lens))                       # MIOpenDriver: U(0, 1)
    dy_data = dtype.store(0.001 * (rng.random(ylens) - 0.5))     # 0.001 * U(-0.5, 0.5)
    x.set(x_data)
    dy.set(dy_data)
    ws_size = library_call("poolingGetWorkSpaceSizeV2")(pd, yd)
    ws = device.workspace(ws_size)
    do_backward = bool(bwd)
    report.record.update(subcommand="pool", device=h.device, problem={
        "x": lens, "y": ylens, "type": dtype.name, "mode": o["mode"], "window": win, "pads": pads, "strides": strides_p,
        "index_type": o["index_type"], "layout": layout or ("strided" if strides else "NC" + "DHW"[3 - dims:])})
    if o["print"]:
        report.say(f"Pooling: {o['mode']} x {'x'.join(map(str, lens))} -> y {'x'.join(map(str, ylens))}, "
                   f"window {'x'.join(map(str, win))}, pad {'x'.join(map(str, pads))}, stride {'x'.join(map(str, strides_p))}")
    bx, by, bdy, bdx = device.put(x), device.put(y), device.put(dy), device.put(dx)
    fwd_call = lambda: mi.poolingForward(h, pd, 1.0, xd, bx, 0.0, yd, by, do_backward, ws, ws_size)
    size = lambda lst: int(np.prod(lst)) * dtype.itemsize
    tol = tolerance("pool", dtype, 1e-6)
    if fwd:
        run_direction(report, o, device, "fwd", "Forward Pooling", "pool-fwd", fwd_call, (y, by),
                      size(lens), size(ylens),
                      lambda: pool_ref.forward(as64(x_data), mode, win, pads, strides_p, ylens[2:])[0], tol)
    if bwd:
        if not fwd:
            fwd_call()
        bwd_call = lambda: mi.poolingBackward(h, pd, 1.0, yd, by, dyd, bdy, xd, bx, 0.0, dxd, bdx, ws)
        run_direction(report, o, device, "bwd", "Backward Pooling", "pool-bwd", bwd_call, (dx, bdx),
                      2 * size(ylens) + size(lens), size(lens),
                      lambda: pool_ref.backward(as64(x_data), as64(dy_data), mode, win, pads, strides_p), tol)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
