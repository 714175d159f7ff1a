"""tensorop: MIOpenDriver's tensor operations (SetTensor, ScaleTensor, OpTensor add, mul, min, max), in
fp32 (tensorop), fp16 (tensoropfp16) or bf16 (tensoropbfp16, ours beyond MIOpen)."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import tensor as tensor_ref
from .buffers import HostTensor, data_rng
from .dtypes import FP32, as64, tolerance
from .flags import TENSOROP_FLAGS, UsageError, check_iters, parse_flags
from .layer import open_layer
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, rms_range
from .timing import average_excluding_first, result, timed_calls


def cmd_tensorop(args, report, dtype=FP32, name="tensorop"):
    o, _ = parse_flags(name, TENSOROP_FLAGS, args)
    info = check_iters(o)
    op = o["tensor_op"]
    if not 0 <= op <= 5:
        raise UsageError(f"-o {op}: 0 SetTensor, 1 ScaleTensor, 2 Add, 3 Mul, 4 Min, 5 Max")
    lens, _, device = open_layer(o, report, info)
    h = device.handle
    a1, a2, b, val = o["alpha1"], o["alpha2"], o["beta"], o["tensor_val"]
    rng = data_rng()
    a_data = dtype.store(4.0 * rng.random(lens) - 2.0)        # MIOpenDriver: U(-2, 2)
    b_data = dtype.store(4.0 * rng.random(lens) - 2.0)
    c_data = dtype.store(4.0 * rng.random(lens) - 2.0)
    A, B, C = (HostTensor(lens, dtype=dtype) for _ in range(3))
    ad, bd, cdesc = A.desc(), B.desc(), C.desc()
    names = ["set", "scale", "add", "mul", "min", "max"]
    report.record.update(subcommand="tensorop", device=h.device, problem={
        "x": lens, "type": dtype.name, "op": names[op], "alpha1": a1, "alpha2": a2, "beta": b, "tensor_val": val})
    A.set(a_data)
    B.set(b_data)
    C.set(c_data)
    dA, dB, dC = device.put(A), device.put(B), device.put(C)

    def call():
        if op == 0:
            mi.setTensor(h, ad, dA, val)
        elif op == 1:
            device.refill(A, dA, a_data)  # scale the same data every iteration
            mi.scaleTensor(h, ad, dA, val)
        else:
            device.refill(C, dC, c_data)
            mi.opTensor(h, op - 2, a1, ad, dA, a2, bd, dB, b, cdesc, dC)

    times, wall = timed_calls(device, call, o["iter"])
    nbytes = int(np.prod(lens)) * dtype.itemsize
    t = average_excluding_first(times)
    if o["time"]:
        if o["wall"]:
            report.say(f"Wall-clock Time Tensor Ops Elapsed: {average_excluding_first(wall):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Min Time Tensor Op Elapsed: {min(times):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Avg Time Tensor Op Elapsed: {t:f} ms, "
                   f"for {max(len(times) - 1, 1)} iterations.")
        report.say("stats: name, bytesRead, bytesWritten, GB/s, timeMs")
        report.say(f"stats: tensor op, {3 * nbytes}, {nbytes}, {4 * nbytes / t / 1e6 if t > 0 else 0:f}, {t:f}")
    res = result("fwd", times, wall, 3 * nbytes if op >= 2 else nbytes, nbytes)
    if op == 0:
        ref, out = tensor_ref.set_tensor(lens, val), device.get(A, dA)
    elif op == 1:
        ref, out = tensor_ref.scale_tensor(as64(a_data), val), device.get(A, dA)
    else:
        ref, out = tensor_ref.op_tensor(op - 2, a1, as64(a_data), a2, as64(b_data), b, as64(c_data)), device.get(C, dC)
    out = apply_corrupt("fwd", out)
    if o["verify"]:
        report.verdict("Tensor Op", rms_range(ref, out), tolerance("tensorop", dtype, 1e-6), res)
    report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
