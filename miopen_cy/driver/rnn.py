"""rnn: MIOpenDriver's RNN forward (training or inference), backward data and backward weights of
vanilla (relu, tanh), LSTM and GRU stacks in fp32 (rnn), fp16 (rnnfp16) or bf16 (rnnbfp16, ours
beyond MIOpen), with the packed per-step API (miopenRNNForwardTraining ...). Verified against the
float64 NumPy reference miopen_cy.reference.rnn on the same stored inputs and weights (and, with
dropout, the same Philox masks as the dropout op)."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import dropout as dropout_ref
from miopen_cy.reference import rnn as rnn_ref
from .buffers import data_rng
from .dtypes import FP32, as64, tolerance
from .flags import RNN_FLAGS, UsageError, check_iters, parse_flags
from .layer import open_layer
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, rms_range
from .timing import average_excluding_first, bytes_stats, result, time_lines, timed_calls

MODES = {"relu": mi.miopenRNNRELU, "tanh": mi.miopenRNNTANH, "lstm": mi.miopenLSTM,
         "gru": mi.miopenGRU}


def step_batches(text, seq_len):
    """MIOpenDriver's -n: per-step batch sizes, the last one repeated up to -k."""
    try:
        vals = [int(v) for v in text.replace(" ", ",").split(",") if v]
    except ValueError:
        raise UsageError(f"-n {text!r}: batch sizes look like 4 or 4,4,3") from None
    if not vals or min(vals) < 1:
        raise UsageError(f"-n {text!r}: batch sizes are positive")
    if any(b > a for a, b in zip(vals, vals[1:])):
        raise UsageError(f"-n {text!r}: batch sizes must not increase from step to step")
    vals = vals[:seq_len]
    return vals + [vals[-1]] * (seq_len - len(vals))


def _desc(dt, *lens):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dt, len(lens), list(lens), None)
    return d


def cmd_rnn(args, report, dtype=FP32, name="rnn"):
    o, _ = parse_flags(name, RNN_FLAGS, args)
    info = check_iters(o)
    if o["forw"] not in range(8):
        raise UsageError(f"-F {o['forw']}: 0 all, 1 forward, 2 backward data, 4 backward "
                         f"weights, or a sum of them")
    forw = o["forw"] or 7
    mode = o["mode"].lower()
    if mode not in MODES:
        raise UsageError(f"-m {o['mode']}: relu, tanh, lstm or gru")
    for flag, key in (("-r", "bidirection"), ("-b", "bias"), ("-p", "inputmode"),
                      ("-q", "use_padding"), ("-a", "rnnalgo"), ("-c", "fwdtype"),
                      ("-U", "use_dropout")):
        if o[key] not in (0, 1):
            raise UsageError(f"{flag} {o[key]}: 0 or 1")
    if o["dump_output"]:
        raise UsageError("-o 1: dumping buffers is not supported by this driver")
    T, layers, h, in_size = o["seq_len"], o["num_layer"], o["hid_h"], o["in_h"]
    if min(T, layers, h, in_size) < 1:
        raise UsageError("-k, -l, -H and -W must be >= 1")
    skip = bool(o["inputmode"])
    if skip and in_size != h:
        raise UsageError(f"-p 1 (skip input) needs -W {in_size} equal to -H {h}")
    inference = bool(o["fwdtype"])
    if inference and forw != 1:
        raise UsageError("-c 1 (inference) runs the forward alone: add -F 1")
    batches = step_batches(o["batchsize"], T)
    bi = 2 if o["bidirection"] else 1
    bias = bool(o["bias"])
    rate = float(o["dropout"]) if o["use_dropout"] else 0.0
    if not 0.0 <= rate <= 1.0:
        raise UsageError(f"-P {rate}: the dropout rate is in [0, 1]")
    seed = (max(o["seed_high"], 0) << 32) | max(o["seed_low"], 0)
    _, _, device = open_layer(o, report, info, lens=[batches[0], in_size, h])
    hnd = device.handle
    dt = dtype.mi
    rnn = mi.RNNDescriptor()
    rest = (mi.miopenRNNskip if skip else mi.miopenRNNlinear,
            mi.miopenRNNbidirection if bi == 2 else mi.miopenRNNunidirection, MODES[mode],
            mi.miopenRNNwithBias if bias else mi.miopenRNNNoBias, o["rnnalgo"], dt)
    if o["use_dropout"]:
        dd = mi.DropoutDescriptor()
        states_size = mi.dropoutGetStatesSize(hnd)
        states = device.workspace(states_size)
        mi.setDropoutDescriptor(dd, hnd, rate, states, states_size, seed, False, False,
                                mi.MIOPEN_RNG_PSEUDO_XORWOW)
        mi.setRNNDescriptor_V2(rnn, h, layers, dd, *rest)
    else:
        mi.setRNNDescriptor(rnn, h, layers, *rest)
    if o["use_padding"]:
        mi.setRNNPaddingMode(rnn, mi.miopenRNNIOWithPadding)
    xd = [_desc(dt, b, in_size) for b in batches]
    yd = [_desc(dt, b, bi * h) for b in batches]
    hd = _desc(dt, layers * bi, batches[0], h)
    wd = mi.TensorDescriptor()
    mi.getRNNParamsDescriptor(hnd, rnn, xd[0], wd, dt)
    nw = int(np.prod(wd.shape))
    ws_size = mi.getRNNWorkspaceSize(hnd, rnn, T, xd)
    rs_size = mi.getRNNTrainingReserveSize(hnd, rnn, T, xd)
    N = sum(batches)
    rows = T * batches[0] if o["use_padding"] else N

    rng = data_rng()
    w = dtype.store(rng.uniform(-0.1, 0.1, size=nw))
    x_rows = dtype.store(rng.uniform(-1, 1, size=(N, in_size)))
    hx = dtype.store(rng.uniform(-1, 1, size=(layers * bi, batches[0], h)))
    cx = dtype.store(rng.uniform(-1, 1, size=hx.shape)) if mode == "lstm" else None
    dy_rows = dtype.store(rng.uniform(-1, 1, size=(N, bi * h)))
    dhy = dtype.store(rng.uniform(-1, 1, size=hx.shape))
    dcy = dtype.store(rng.uniform(-1, 1, size=hx.shape)) if mode == "lstm" else None

    def to_io(packed_rows, width):
        """The packed rows in the call's layout (padded: each step batches[0] rows)."""
        if not o["use_padding"]:
            return np.ascontiguousarray(packed_rows)
        out = np.zeros((T * batches[0], width), packed_rows.dtype)
        off = 0
        for t, b in enumerate(batches):
            out[t * batches[0]:t * batches[0] + b] = packed_rows[off:off + b]
            off += b
        return out

    def from_io(io_rows):
        if not o["use_padding"]:
            return io_rows
        return np.concatenate([io_rows[t * batches[0]:t * batches[0] + b]
                               for t, b in enumerate(batches)], 0)

    def buf(a):
        return a if not device.gpu else mi.DeviceBuffer.from_numpy(hnd, np.ascontiguousarray(a))

    def back(dev, like):
        if not device.gpu:
            return dev
        return dev.to_numpy(like.shape, like.dtype)

    x = to_io(x_rows, in_size)
    y = np.full((rows, bi * h), np.nan, dtype.np)
    hy = np.full(hx.shape, np.nan, dtype.np)
    cy = np.full(hx.shape, np.nan, dtype.np) if mode == "lstm" else None
    dx = np.full((rows, in_size), np.nan, dtype.np)
    dhx = np.full(hx.shape, np.nan, dtype.np)
    dcx = np.full(hx.shape, np.nan, dtype.np) if mode == "lstm" else None
    dw = np.full(nw, np.nan, dtype.np)
    bx, bw, bhx, bcx, by, bhy, bcy = (buf(a) if a is not None else None
                                      for a in (x, w, hx, cx, y, hy, cy))
    bdy, bdhy, bdcy, bdx, bdhx, bdcx, bdw = (buf(a) if a is not None else None for a in (
        to_io(dy_rows, bi * h), dhy, dcy, dx, dhx, dcx, dw))
    ws = device.workspace(ws_size)
    rs = device.workspace(rs_size)
    cdesc = hd if mode == "lstm" else None

    lay = rnn_ref.Layout(int(MODES[mode]), in_size, h, layers, bi, bias, skip)
    keep = None
    if rate > 0 and not inference:
        n = N * bi * h
        keep = [dropout_ref.mask(seed, l - 1, n, rate).reshape(N, bi * h)
                for l in range(1, layers)]
    ref = {}

    def reference():
        if "fwd" not in ref:
            ref["fwd"] = rnn_ref.forward(lay, as64(w), as64(x_rows), batches, as64(hx),
                                         as64(cx) if cx is not None else None, keep, rate)
        return ref["fwd"]

    def reference_bwd():
        if "bwd" not in ref:
            _, _, _, cache = reference()
            ref["bwd"] = rnn_ref.backward(lay, as64(w), cache, as64(dy_rows), as64(dhy),
                                          as64(dcy) if dcy is not None else None)
        return ref["bwd"]

    report.record.update(subcommand="rnn", device=hnd.device, problem={
        "mode": mode, "seq_len": T, "batches": batches, "in_h": in_size, "hid_h": h,
        "num_layer": layers, "bidirection": bi == 2, "bias": bias, "inputmode": int(skip),
        "use_padding": int(o["use_padding"]), "fwdtype": int(inference), "dropout": rate,
        "type": dtype.name})
    report.say(f"RNN: {mode}, {layers} layer(s), {'bi' if bi == 2 else 'uni'}directional, "
               f"hidden {h}, input {in_size}, steps {T}, batches {','.join(map(str, batches))}, "
               f"{'skip' if skip else 'linear'} input, {'with' if bias else 'no'} bias, "
               f"{dtype.name}")
    tol = tolerance("rnn", dtype, 1e-6 * max(1, layers) * 10)
    esize = dtype.itemsize
    io_x, io_y = rows * in_size * esize, rows * bi * h * esize
    states = hx.size * esize

    def run(direction, label, stat, call, outs, read, written):
        times, wall = timed_calls(device, call, o["iter"])
        time_lines(report, o, device, label, times, wall)
        bytes_stats(report, o, stat, read, written, average_excluding_first(times))
        res = result(direction, times, wall, read, written)
        if o["verify"]:
            err = 0.0
            for got, expected in outs():
                err = max(err, rms_range(expected, apply_corrupt(direction, got)))
            report.verdict(label, err, tol, res)
        report.results.append(res)

    def fwd_call():
        if inference:
            mi.RNNForwardInference(hnd, rnn, T, xd, bx, hd, bhx, cdesc, bcx, wd, bw, yd, by, hd,
                                   bhy, cdesc, bcy, ws, ws_size)
        else:
            mi.RNNForwardTraining(hnd, rnn, T, xd, bx, hd, bhx, cdesc, bcx, wd, bw, yd, by, hd, bhy,
                                  cdesc, bcy, ws, ws_size, rs, rs_size)

    def fwd_outs():
        yr, hyr, cyr, _ = reference()
        outs = [(from_io(back(by, y)), yr), (back(bhy, hy), hyr)]
        if mode == "lstm":
            outs.append((back(bcy, cy), cyr))
        return outs

    def bwd_call():
        mi.RNNBackwardData(hnd, rnn, T, yd, by, yd, bdy, hd, bdhy, cdesc, bdcy, wd, bw, hd, bhx,
                           cdesc, bcx, xd, bdx, hd, bdhx, cdesc, bdcx, ws, ws_size, rs, rs_size)

    def bwd_outs():
        dxr, dhxr, dcxr, _ = reference_bwd()
        outs = [(from_io(back(bdx, dx)), dxr), (back(bdhx, dhx), dhxr)]
        if mode == "lstm":
            outs.append((back(bdcx, dcx), dcxr))
        return outs

    def wrw_call():
        mi.RNNBackwardWeights(hnd, rnn, T, xd, bx, hd, bhx, yd, by, wd, bdw, ws, ws_size, rs,
                              rs_size)

    def wrw_outs():
        return [(back(bdw, dw), reference_bwd()[3])]

    wbytes = nw * esize
    if forw & 1 or forw & 6:
        if forw & 1:
            run("fwd", "Forward RNN", "rnn-fwd", fwd_call, fwd_outs, io_x + wbytes + 2 * states,
                io_y + 2 * states)
        else:
            fwd_call()
    if forw & 6:
        bwd_call()                      # backward weights reads the gate gradients it leaves
    if forw & 2:
        run("bwd", "Backward Data RNN", "rnn-bwd", bwd_call, bwd_outs,
            io_y + wbytes + 3 * states, io_x + 2 * states)
    if forw & 4:
        run("wrw", "Backward Weights RNN", "rnn-wrw", wrw_call, wrw_outs, io_x + io_y + states,
            wbytes)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
