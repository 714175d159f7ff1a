"""ctc: MIOpenDriver's CTC loss (fp32): probs [max input length, batch, num_class + 1], random
labels of classes other than the blank, losses and gradients from one miopenCTCLoss call,
verified against the float64 NumPy reference (miopen_cy.reference.ctc) with MIOpenDriver's
tolerances (rms_range 1e-5 for losses, 1e-3 for gradients). MIOpenDriver's data: probs uniform
in [0, 0.01), normalised per time step and item when the softmax layer is applied."""
import re

import numpy as np

import miopen_cy as mi
from miopen_cy.reference import ctc as ctc_ref
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, as64
from .flags import CTC_FLAGS, UsageError, check_iters, directions, parse_flags
from .layer import open_layer
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, rms_range
from .timing import average_excluding_first, bytes_stats, result, time_lines, timed_calls

LOSS_TOL, GRAD_TOL = 1e-5, 1e-3


def per_batch(text, flag, batch):
    """MIOpenDriver's vector flags: values separated by commas or spaces, one per batch item;
    extra values are ignored and missing ones repeat the last."""
    try:
        vals = [int(v) for v in re.split(r"[,\s]+", text.strip()) if v]
    except ValueError:
        raise UsageError(f"{flag} {text!r}: lengths look like 20,18,20") from None
    if not vals:
        raise UsageError(f"{flag} {text!r}: at least one length is needed")
    vals = vals[:batch]
    return vals + [vals[-1]] * (batch - len(vals))


def make_labels(rng, label_lengths, num_class, blank, input_lengths):
    """Random labels of the classes other than the blank; a repeat that would make an item longer
    than its input is drawn again (with one class only, repeats cannot be avoided)."""
    classes = np.array([c for c in range(num_class + 1) if c != blank])
    labels = []
    for L, T in zip(label_lengths, input_lengths):
        lab = [int(v) for v in rng.choice(classes, L)]
        if classes.size > 1:
            for j in range(1, L):
                if ctc_ref.min_input_length(lab) <= T:
                    break
                while lab[j] == lab[j - 1]:
                    lab[j] = int(rng.choice(classes))
        labels += lab
    return labels


def cmd_ctc(args, report, name="ctc"):
    o, _ = parse_flags(name, CTC_FLAGS, args)
    info = check_iters(o)
    fwd, _ = directions(o["forw"], "CTC loss")
    n, num_class, blank = o["batchsize"], o["num_class"], o["blank_label_id"]
    if n < 1:
        raise UsageError(f"-n {n}: the batch size must be >= 1")
    if num_class < 1:
        raise UsageError(f"-c {num_class}: at least one class besides the blank is needed")
    if o["apply_softmax_layer"] not in (0, 1):
        raise UsageError(f"-m {o['apply_softmax_layer']}: apply_softmax_layer is 0 or 1")
    if o["dump_output"]:
        raise UsageError("-o 1: dumping buffers is not supported by this driver")
    softmax = bool(o["apply_softmax_layer"])
    il = per_batch(o["input_len"], "-k", n)
    ll = per_batch(o["label_len"], "-l", n)
    T, C = max(il), num_class + 1
    lens, _, device = open_layer(o, report, info, lens=[T, n, C])
    h = device.handle
    rng = data_rng()
    labels = make_labels(rng, ll, num_class, blank, il)
    probs = rng.uniform(0.0, 0.01, (T, n, C))
    if softmax:
        probs /= probs.sum(axis=2, keepdims=True)
    x = HostTensor(lens, dtype=FP32)
    x.set(FP32.store(probs))
    g = HostTensor(lens, dtype=FP32)
    loss = HostTensor([n], dtype=FP32)
    pd, gd = x.desc(), g.desc()
    cd = library_call("CTCLossDescriptor")()
    mi.setCTCLossDescriptor(cd, mi.miopenFloat, blank, softmax)
    algo = o["ctcalgo"]
    ws_size = mi.getCTCLossWorkspaceSize(h, pd, gd, labels, ll, il, algo, cd)
    ws = device.workspace(ws_size)
    report.record.update(subcommand="ctc", device=h.device, problem={
        "time_steps": T, "batch": n, "classes": C, "blank_label_id": blank,
        "apply_softmax_layer": softmax, "input_len": il, "label_len": ll})
    report.say(f"CTC loss: probs {T}x{n}x{C} fp32, blank {blank}, softmax layer {int(softmax)}, "
               f"label lengths {','.join(map(str, ll))}, input lengths {','.join(map(str, il))}")
    if not fwd:
        report.say("-F 2: MIOpenDriver's CTC backward does nothing (the forward call gives the "
                   "gradients); nothing to run")
        return EXIT_OK
    bx, bg, bl = (device.put(t) for t in (x, g, loss))
    call = lambda: mi.CTCLoss(h, pd, bx, labels, ll, il, bl, gd, bg, algo, cd, ws, ws_size)
    times, wall = timed_calls(device, call, o["iter"])
    got_loss = apply_corrupt("fwd", device.get(loss, bl))
    got_grad = apply_corrupt("fwd", device.get(g, bg))
    label = "CTC Loss"
    time_lines(report, o, device, label, times, wall)
    nbytes = T * n * C * 4
    bytes_stats(report, o, "ctc", nbytes, nbytes + n * 4, average_excluding_first(times))
    res = result("fwd", times, wall, nbytes, nbytes + n * 4)
    if o["verify"]:
        want_loss, want_grad = ctc_ref.ctc_loss(as64(x.get()), labels, ll, il, blank, softmax)
        loss_res, grad_res = dict(res, output="losses"), dict(res, output="gradients")
        report.verdict("CTC loss", rms_range(want_loss, got_loss), LOSS_TOL, loss_res)
        report.verdict("CTC gradient", rms_range(want_grad, got_grad), GRAD_TOL, grad_res)
        report.results += [loss_res, grad_res]
    else:
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK
