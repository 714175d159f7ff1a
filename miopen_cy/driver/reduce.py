"""reduce: MIOpenDriver's tensor reduction (miopenReduceTensor) in fp32 (reduce), fp16 (reducefp16:
fp16 data, its -C compType as given) and fp64 (reducefp64: fp64 data, compType forced to
miopenDouble), verified against the float64 reference (miopen_cy/reference/reduce.py) on
MIOpenDriver's rms_range metric within its tolerance (1.5e-4; x4 for fp16; x12 for fp32 NORM2),
and the indices exactly. As MIOpenDriver: input U(0, 1), output preset to 0.2, alpha = 1 and
beta = 0 when indices are returned."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import reduce as reduce_ref
from .buffers import data_rng
from .flags import REDUCE_FLAGS, UsageError, check_iters, parse_flags
from .layer import open_layer
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, rms_range
from .timing import average_excluding_first, bytes_stats, result, timed_calls

# sub-command -> (NumPy dtype, miopenDataType_t, tolerance factor)
TYPES = {"reduce": (np.float32, mi.miopenFloat, 1.0), "reducefp16": (np.float16, mi.miopenHalf, 4.0),
         "reducefp64": (np.float64, mi.miopenDouble, 1.0)}


def _int_list(text, flag):
    try:
        return [int(v, 10) for v in str(text).split(",")]
    except ValueError:
        raise UsageError(f"{flag} {text!r}: a comma-separated list of integers") from None


def _desc(dt, lens):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, dt, len(lens), list(lens), None)
    return d


def cmd_reduce(args, report, name="reduce"):
    o, _ = parse_flags(name, REDUCE_FLAGS, args)
    info = check_iters(o)
    np_dt, dt, tol_factor = TYPES[name]
    lens = _int_list(o["DimLengths"], "-D")
    dims = sorted(set(_int_list(o["DimsToReduce"], "-R")))
    if not 1 <= len(lens) <= 6:
        raise UsageError(f"-D {o['DimLengths']}: 1 to 6 lengths")
    if any(d < 0 or d >= len(lens) for d in dims):
        raise UsageError(f"-R {o['DimsToReduce']}: dims in 0..{len(lens) - 1}")
    op = o["ReduceOp"]
    if not 0 <= op <= 7:
        raise UsageError(f"-O {op}: 0 ADD, 1 MUL, 2 MIN, 3 MAX, 4 AMAX, 5 AVG, 6 NORM1, 7 NORM2")
    comp = mi.miopenDouble if dt == mi.miopenDouble else o["CompType"]
    nan, used = o["NanPropagation"], o["IndicesUsed"]
    out_lens = [1 if d in dims else n for d, n in enumerate(lens)]
    _, _, device = open_layer(o, report, info, lens=lens)
    h = device.handle
    rd = mi.ReduceTensorDescriptor()
    mi.setReduceTensorDescriptor(rd, op, comp, nan, used, mi.MIOPEN_32BIT_INDICES)
    need_indices = bool(used) and op in (reduce_ref.MIN, reduce_ref.MAX, reduce_ref.AMAX)
    alpha, beta = (1.0, 0.0) if need_indices else (o["alpha"], o["beta"])
    ad, cd = _desc(dt, lens), _desc(dt, out_lens)
    nws = mi.getReductionWorkspaceSize(h, rd, ad, cd)
    nind = mi.getReductionIndicesSize(h, rd, ad, cd)
    report.record.update(subcommand=name, device=h.device, problem={
        "lengths": lens, "reduce_dims": dims, "type": np.dtype(np_dt).name, "op": op,
        "comp_type": int(comp), "nan_propagation": nan, "indices": int(need_indices),
        "alpha": alpha, "beta": beta, "workspace_bytes": nws})
    a = data_rng().random(lens).astype(np_dt)          # MIOpenDriver: U(0, 1)
    c0 = np.full(out_lens, 0.2, np_dt)
    c = c0.copy()
    ind = np.zeros(max(nind // 4, 1), np.int32)
    if device.gpu:
        A = mi.DeviceBuffer.from_numpy(h, a)
        C = mi.DeviceBuffer.from_numpy(h, c)
        I = mi.DeviceBuffer.from_numpy(h, ind)
    else:
        A, C, I = a, c, ind
    ws = device.workspace(nws)

    def call():
        if beta != 0.0:                                # the same blend every iteration
            if device.gpu:
                C.copy_from(c0)
            else:
                C[...] = c0
        mi.reduceTensor(h, rd, I if nind else None, nind, ws, nws, alpha, ad, A, beta, cd, C)

    times, wall = timed_calls(device, call, o["iter"])
    got = C.to_numpy(c.shape, c.dtype) if device.gpu else C
    got_ind = (I.to_numpy(ind.shape, ind.dtype) if device.gpu else I)[:nind // 4]
    got = apply_corrupt("fwd", got)
    t = average_excluding_first(times)
    if o["time"]:
        if o["wall"]:
            report.say(f"Wall-clock Time Reduction Elapsed: {average_excluding_first(wall):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Time Reduction Elapsed: {t:f} ms")
    read, written = a.nbytes, c.nbytes + nind
    bytes_stats(report, o, "reduce", read, written, t)
    res = result("fwd", times, wall, read, written)
    if o["verify"]:
        expect, eind = reduce_ref.reduce(a.astype(np.float64), out_lens, op, bool(nan), alpha,
                                         beta, c0.astype(np.float64))
        tol = 1.5e-4 * tol_factor * (12.0 if (dt == mi.miopenFloat and op == reduce_ref.NORM2) else 1.0)
        ok = report.verdict("ReduceTensor()", rms_range(expect, np.asarray(got, np.float64)), tol, res)
        if ok and need_indices:
            wrong = int(np.count_nonzero(got_ind != eind.reshape(-1)))
            report.verdict("ReduceTensor() indices (wrong count)", float(wrong), 0.5, res)
    report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
