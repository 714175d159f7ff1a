"""bnorm: MIOpenDriver's batch normalization: forward training or inference, or backward; data and
parameters in fp32 (bnorm), fp16 (bnormfp16), fp16 data with fp32 parameters (bnormfp16fp32), bf16
data with fp32 parameters (bnormbfp16fp32), or bf16 both (bnormbfp16, ours beyond MIOpen)."""
import numpy as np

import miopen_cy as mi
from miopen_cy.reference import batchnorm as bn_ref
from .buffers import HostTensor, data_rng, library_call
from .dtypes import FP32, as64, tolerance
from .flags import BNORM_FLAGS, UsageError, check_iters, parse_flags
from .layer import open_layer
from .report import EXIT_OK, EXIT_VERIFY_FAILED, apply_corrupt, finite_or_none, rms_range
from .timing import average_excluding_first, result, time_lines, timed_calls


BN_EPS = 1e-3          # MIOpenDriver's EPSILON
BN_TOL = 1e-4          # MIOpenDriver's RMSTOL_FP32


def cmd_bnorm(args, report, dtype=FP32, ptype=FP32, name="bnorm"):
    o, _ = parse_flags(name, BNORM_FLAGS, args)
    info = check_iters(o)
    mode = o["mode"]
    if mode not in (0, 1):
        raise UsageError(f"-m {mode}: per-activation (0) or spatial (1)")
    for flag in ("save", "run", "back"):
        if o[flag] not in (0, 1):
            raise UsageError(f"--{flag} {o[flag]}: 0 or 1")
    forw, back = o["forw"], o["back"]
    if not 0 <= forw <= 2:
        raise UsageError(f"-F {forw}: off (0), train (1) or inference (2)")
    notes = []
    if back and forw:
        notes.append("Warning: Deactivate forward to run backward on Batch Norm.\nRunning forward only.")
        back = 0
    elif not back and not forw:
        forw = 1
    lens = [o["batchsize"], o["in_channels"]] + ([o["in_d"]] if o["in_d"] else []) + [o["in_h"], o["in_w"]]
    lens, layout, device = open_layer(o, report, info, lens, layout=True)
    h = device.handle
    for line in notes:
        report.say(line)
    alpha, beta = o["alpha"], o["beta"]
    x = HostTensor(lens, layout=layout, dtype=dtype)
    xd = x.desc()
    pd = mi.TensorDescriptor()
    library_call("deriveBNTensorDescriptor")(pd, xd, mode)
    plens = list(pd.shape)
    if dtype is not FP32:       # the parameters in their own type (fp32: MIOpen's mixed mode)
        pd = HostTensor(plens, dtype=ptype).desc()
    tol = tolerance("bnorm", dtype, BN_TOL)
    rng = data_rng()
    x_data = dtype.store(rng.random(lens))
    x.set(x_data)
    params = lambda lo=0.0, hi=1.0: ptype.store(lo + (hi - lo) * rng.random(plens))
    p = lambda data: BnParam(device, plens, data, ptype)
    kind = "train" if forw == 1 else ("inference" if forw == 2 else "backward")
    report.record.update(subcommand="bnorm", device=h.device, problem={
        "x": lens, "layout": layout, "type": dtype.name, "parameter_type": ptype.name, "mode": ["per-activation", "spatial"][mode], "run": kind,
        "save": o["save"], "running": o["run"], "epsilon": BN_EPS})
    if o["printconv"]:
        report.say(f"BatchNorm: {['per-activation', 'spatial'][mode]} {kind}, x {'x'.join(map(str, lens))} "
                   f"({layout}), parameters {'x'.join(map(str, plens))}")
    nbytes = int(np.prod(lens)) * dtype.itemsize
    pbytes = int(np.prod(plens)) * ptype.itemsize
    bx = device.put(x)
    if forw:
        y = HostTensor(lens, layout=layout, dtype=dtype)
        yd = y.desc()
        by = device.put(y)
        scale, bias = p(params()), p(params())
        y0 = dtype.store(rng.random(lens))
        checks = []
        if forw == 1:
            run_mean, run_var = p(params()), p(params())
            save_mean, save_inv = p(np.full(plens, np.nan)), p(np.full(plens, np.nan))
            keep, save = bool(o["run"]), bool(o["save"])
            calls = [0]
            api = library_call("batchNormalizationForwardTraining")

            def call():
                i = calls[0]
                calls[0] += 1
                if beta != 0:
                    device.refill(y, by, y0)
                api(h, mode, alpha, beta, xd, bx, yd, by, pd, scale.dev, bias.dev, 1.0 / (i + 1),
                    run_mean.dev if keep else None, run_var.dev if keep else None, BN_EPS,
                    save_mean.dev if save else None, save_inv.dev if save else None)

            times, wall = timed_calls(device, call, o["iter"])
            # Every iteration sees the same batch: with expAvgFactor 1/(i+1) the running statistics
            # end as the batch statistics (the unbiased variance), as one update with factor 1 gives.
            ref_y, smean, sinv, mean, unbiased = bn_ref.forward_training(
                as64(x_data), mode, as64(scale.data), as64(bias.data), BN_EPS, as64(run_mean.data),
                as64(run_var.data), 1.0)
            checks.append(("Forward train batch norm", ref_y, y, by))
            if keep:
                checks += [("Forward train batch norm running mean", mean, run_mean, None),
                           ("Forward train batch norm running variance", unbiased, run_var, None)]
            if save:
                checks += [("Forward train batch norm saved mean", smean, save_mean, None),
                           ("Forward train batch norm saved inverse variance", sinv, save_inv, None)]
            label = "Forward Batch Normalization"
        else:
            est_mean, est_var = p(params()), p(params(0.5, 1.5))
            api = library_call("batchNormalizationForwardInference")

            def call():
                if beta != 0:
                    device.refill(y, by, y0)
                api(h, mode, alpha, beta, xd, bx, yd, by, pd, scale.dev, bias.dev, est_mean.dev, est_var.dev, BN_EPS)

            times, wall = timed_calls(device, call, o["iter"])
            ref_y = bn_ref.forward(as64(x_data), as64(scale.data), as64(bias.data), as64(est_mean.data),
                                   as64(est_var.data), BN_EPS)
            checks.append(("Forward inference batch norm", ref_y, y, by))
            label = "Forward Batch Normalization"
        time_lines(report, o, device, label, times, wall)
        t = average_excluding_first(times)
        if o["time"]:
            data_sz = nbytes + 2 * pbytes
            rd = 2 if forw == 1 else 1
            report.say(f"stats: bnormf, 0, {data_sz}, {data_sz}, 0, {(rd + 1) * data_sz / t / 1e6 if t > 0 else 0:f}, {t:f}")
        res = result("fwd", times, wall, nbytes + 2 * pbytes, nbytes, kind=kind)
        if o["verify"]:
            _bn_verify(report, device, checks, alpha, beta, as64(y0), res, tol)
        report.results.append(res)
    else:
        dy, dx = HostTensor(lens, layout=layout, dtype=dtype), HostTensor(lens, layout=layout, dtype=dtype)
        dyd, dxd = dy.desc(), dx.desc()
        dy_data = dtype.store(1e-2 * (rng.integers(0, 100, lens) + 1))
        dy.set(dy_data)
        bdy, bdx = device.put(dy), device.put(dx)
        scale = p(1e-2 * (rng.integers(0, 100, plens) + 1))
        dscale, dbias = p(np.full(plens, np.nan)), p(np.full(plens, np.nan))
        save = bool(o["save"])
        s_mean = p(1e-2 * (rng.integers(0, 100, plens) + 1))
        s_inv = p(1e-2 * (rng.integers(0, 100, plens) + 1))
        dx0 = dtype.store(rng.random(lens))
        api = library_call("batchNormalizationBackward")

        def call():
            if beta != 0:
                device.refill(dx, bdx, dx0)
            api(h, mode, alpha, beta, 1.0, 0.0, xd, bx, dyd, bdy, dxd, bdx, pd, scale.dev, dscale.dev,
                dbias.dev, BN_EPS, s_mean.dev if save else None, s_inv.dev if save else None)

        times, wall = timed_calls(device, call, o["iter"])
        time_lines(report, o, device, "Backward Batch Normalization", times, wall)
        t = average_excluding_first(times)
        if o["time"]:
            data_sz = nbytes + 2 * pbytes
            report.say(f"stats: bnormb, 0, {data_sz}, {data_sz}, 0, {3 * data_sz / t / 1e6 if t > 0 else 0:f}, {t:f}")
        res = result("bwd", times, wall, 2 * nbytes + 3 * pbytes, nbytes + 2 * pbytes, kind=kind)
        if o["verify"]:
            if save:
                mean, inv = as64(s_mean.data), as64(s_inv.data)
            else:
                mean, var, _ = bn_ref.batch_stats(as64(x_data), mode)
                inv = 1.0 / np.sqrt(var + BN_EPS)
            rdx, rds, rdb = bn_ref.backward(as64(x_data), as64(dy_data), mode, as64(scale.data), mean, inv)
            checks = [("Backward batch norm dx", rdx, dx, bdx), ("Backward batch norm dscale", rds, dscale, None),
                      ("Backward batch norm dbias", rdb, dbias, None)]
            _bn_verify(report, device, checks, alpha, beta, as64(dx0), res, tol)
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


class BnParam:
    """A batch-norm parameter vector (shape of the derived descriptor) and its device data."""

    def __init__(self, device, plens, data, ptype=FP32):
        self.device = device
        self.data = ptype.store(data).reshape(plens)
        self.host = np.ascontiguousarray(self.data).copy()
        self.dev = self.host if not device.gpu else mi.DeviceBuffer.from_numpy(device.handle, self.host)

    def get(self):
        if self.device.gpu:
            return self.dev.to_numpy(self.host.shape, self.host.dtype)
        return self.host


def _bn_verify(report, device, checks, alpha, beta, prev, res, tol=BN_TOL):
    errors = {}
    worst = 0.0
    for label, ref, t, dev in checks:
        if isinstance(t, HostTensor):
            out = device.get(t, dev)
            out = apply_corrupt(res["direction"], out)
            ref = alpha * ref + (beta * prev if beta != 0 else 0.0)
        else:
            out = t.get()
        err = rms_range(ref, out)
        errors[label] = finite_or_none(err)
        worst = err if not np.isfinite(err) else max(worst, err)
        if not np.isfinite(worst):
            break
    res["errors"] = errors
    name = "Forward Batch Normalization" if res["direction"] == "fwd" else "Backward Batch Normalization"
    report.verdict(name, worst, tol, res)
