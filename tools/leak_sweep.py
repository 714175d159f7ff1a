"""Leak sweep: every op and every Find path, with the handle and every descriptor created and
destroyed in each cycle; the process's resident memory (RSS) is sampled as the cycles run.

A cycle: a new handle; tensor, activation, convolution, pooling and LRN descriptors (created, set,
read back, destroyed); activation, softmax (V1 and V2), pooling, LRN, batch norm (training,
inference, backward), bias, opTensor, setTensor, scaleTensor and transformTensor forward and
backward; the three convolutions by each algorithm; the three Finds, alternately through the
find-db (hits after the first cycle) and with it disabled (measuring every time); device memory
allocated and freed; a rejected call (its error path); then everything destroyed explicitly.

    python3 tools/leak_sweep.py [--cycles 10000] [--warmup 200]
prints RSS after the warm-up and at the end and the growth per 1,000 cycles. Memory is flat when
the growth stays within the allocator's noise (a few pages). Run it under LeakSanitizer with
tools/lsan_report.py."""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

# One OpenMP thread: the cycles are tiny, and on a shared machine an idle team spinning at barriers
# only slows them down (the sweep is about memory, not speed). Set before the library loads.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import miopen_cy as mi  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def tensor(shape):
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, mi.miopenFloat, len(shape), list(shape), None)
    return d


def cycle(i, data):
    x, w, dy_c, g = data["x"], data["w"], data["dy_c"], data["g"]
    if i % 2:
        os.environ["MIOPEN_DEBUG_DISABLE_FIND_DB"] = "1"
    else:
        os.environ.pop("MIOPEN_DEBUG_DISABLE_FIND_DB", None)
    h = mi.Handle(device="cpu")
    xs, ws_, = x.shape, w.shape
    xd, wd = tensor(xs), tensor(ws_)
    mi.getTensorDescriptor(xd)
    conv = mi.ConvolutionDescriptor()
    mi.initConvolutionNdDescriptor(conv, 2, (1, 1), (1, 1), (1, 1), mi.miopenConvolution)
    ys = tuple(mi.getConvolutionNdForwardOutputDim(conv, xd, wd))
    yd = tensor(ys)
    y = np.empty(ys, np.float32)
    # convolutions: each algorithm, and the three Finds
    need = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd)
    ws = np.empty(max(need, 1), np.uint8)
    for p in mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, conv, yd, y, 5, ws, need, False):
        mi.convolutionForward(h, 1.0, xd, x, wd, w, conv, int(p.fwd_algo), 0.0, yd, y, ws, need)
    dx = np.empty(xs, np.float32)
    need = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, conv, xd)
    ws = np.empty(max(need, 1), np.uint8)
    for p in mi.findConvolutionBackwardDataAlgorithm(h, yd, dy_c, wd, w, conv, xd, dx, 5, ws, need, False):
        mi.convolutionBackwardData(h, 1.0, yd, dy_c, wd, w, conv, int(p.bwd_data_algo), 0.0, xd, dx, ws, need)
    dw = np.empty(ws_, np.float32)
    need = mi.convolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, conv, wd)
    ws = np.empty(max(need, 1), np.uint8)
    for p in mi.findConvolutionBackwardWeightsAlgorithm(h, yd, dy_c, xd, x, conv, wd, dw, 5, ws, need, False):
        mi.convolutionBackwardWeights(h, 1.0, yd, dy_c, xd, x, conv, int(p.bwd_weights_algo), 0.0, wd, dw, ws, need)
    # bias
    bd = tensor((1, ys[1], 1, 1))
    b = np.ones(ys[1], np.float32)
    mi.convolutionForwardBias(h, 1.0, bd, b, 1.0, yd, y)
    db = np.empty(ys[1], np.float32)
    mi.convolutionBackwardBias(h, 1.0, yd, dy_c, 0.0, bd, db)
    # activation
    act = mi.ActivationDescriptor()
    mi.setActivationDescriptor(act, mi.miopenActivationELU, 1.0, 0.0, 0.0)
    mi.getActivationDescriptor(act)
    a = np.empty(ys, np.float32)
    mi.activationForward(h, act, 1.0, yd, y, 0.0, yd, a)
    da = np.empty(ys, np.float32)
    mi.activationBackward(h, act, 1.0, yd, a, yd, g, yd, y, 0.0, yd, da)
    # softmax
    s = np.empty(ys, np.float32)
    mi.softmaxForward(h, 1.0, yd, a, 0.0, yd, s)
    mi.softmaxBackward(h, 1.0, yd, s, yd, g, 0.0, yd, da)
    mi.softmaxForward_V2(h, 1.0, yd, a, 0.0, yd, s, mi.MIOPEN_SOFTMAX_LOG, mi.MIOPEN_SOFTMAX_MODE_INSTANCE)
    mi.softmaxBackward_V2(h, 1.0, yd, s, yd, g, 0.0, yd, da, mi.MIOPEN_SOFTMAX_LOG,
                          mi.MIOPEN_SOFTMAX_MODE_INSTANCE)
    # pooling
    pool = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(pool, mi.miopenPoolingMax, 2, 2, 0, 0, 2, 2)
    mi.get2dPoolingDescriptor(pool)
    ps = tuple(mi.getPoolingForwardOutputDim(pool, yd))
    pd = tensor(ps)
    p = np.empty(ps, np.float32)
    pws = np.empty(max(mi.poolingGetWorkSpaceSize(pd), 1), np.uint8)
    mi.poolingForward(h, pool, 1.0, yd, a, 0.0, pd, p, True, pws, pws.nbytes)
    dp = np.ones(ps, np.float32)
    mi.poolingBackward(h, pool, 1.0, pd, p, pd, dp, yd, a, 0.0, yd, da, pws)
    # LRN
    lrn = mi.LRNDescriptor()
    mi.setLRNDescriptor(lrn, mi.miopenLRNCrossChannel, 3, 1e-4, 0.75, 2.0)
    mi.getLRNDescriptor(lrn)
    ln = np.empty(ys, np.float32)
    lws = np.empty(max(mi.LRNGetWorkSpaceSize(yd), 1), np.uint8)
    mi.LRNForward(h, lrn, 1.0, yd, a, 0.0, yd, ln, True, lws)
    mi.LRNBackward(h, lrn, 1.0, yd, ln, yd, g, yd, a, 0.0, yd, da, lws)
    # batch norm
    bnd = mi.TensorDescriptor()
    mi.deriveBNTensorDescriptor(bnd, yd, mi.miopenBNSpatial)
    c = ys[1]
    scale, bias = np.ones(c, np.float32), np.zeros(c, np.float32)
    rm, rv = np.zeros(c, np.float32), np.ones(c, np.float32)
    sm, siv = np.empty(c, np.float32), np.empty(c, np.float32)
    bn = np.empty(ys, np.float32)
    mi.batchNormalizationForwardTraining(h, mi.miopenBNSpatial, 1.0, 0.0, yd, a, yd, bn, bnd, scale,
                                         bias, 0.1, rm, rv, 1e-5, sm, siv)
    mi.batchNormalizationForwardInference(h, mi.miopenBNSpatial, 1.0, 0.0, yd, a, yd, bn, bnd, scale,
                                          bias, rm, rv, 1e-5)
    ds, dbb = np.empty(c, np.float32), np.empty(c, np.float32)
    mi.batchNormalizationBackward(h, mi.miopenBNSpatial, 1.0, 0.0, 1.0, 0.0, yd, a, yd, g, yd, da,
                                  bnd, scale, ds, dbb, 1e-5, sm, siv)
    # tensor ops
    t = np.empty(ys, np.float32)
    mi.opTensor(h, mi.miopenTensorOpAdd, 1.0, yd, a, 1.0, yd, bn, 0.0, yd, t)
    mi.setTensor(h, yd, t, 0.5)
    mi.scaleTensor(h, yd, t, 2.0)
    mi.transformTensor(h, 1.0, yd, a, 0.0, yd, t)
    # device memory, and an error path
    ptr = mi.cyDeviceAlloc(h, 4096)
    mi.cyDeviceFree(h, ptr)
    buf = mi.DeviceBuffer(h, 256)
    del buf
    try:
        mi.activationForward(h, act, 1.0, yd, y, 0.0, pd, a)      # mismatched shapes
    except mi.MIOpenError:
        pass
    else:
        raise AssertionError("a mismatched call was accepted")
    # everything destroyed explicitly (and then dropped)
    for d in (xd, wd, yd, bd, pd, bnd):
        mi.destroyTensorDescriptor(d)
    mi.destroyActivationDescriptor(act)
    mi.destroyConvolutionDescriptor(conv)
    mi.destroyPoolingDescriptor(pool)
    mi.destroyLRNDescriptor(lrn)
    mi.destroy(h)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=10000)
    ap.add_argument("--warmup", type=int, default=1000)
    args = ap.parse_args(argv)
    os.environ.setdefault("MIOPEN_USER_DB_PATH", tempfile.mkdtemp(prefix="leak_sweep_db"))
    os.environ.setdefault("MIOPEN_CY_DEVICE", "cpu")
    rng = np.random.default_rng(0)
    data = dict(x=rng.standard_normal((1, 2, 6, 6)).astype(np.float32),
                w=rng.standard_normal((4, 2, 3, 3)).astype(np.float32),
                dy_c=rng.standard_normal((1, 4, 6, 6)).astype(np.float32),
                g=rng.standard_normal((1, 4, 6, 6)).astype(np.float32))
    for i in range(args.warmup):
        cycle(i, data)
    start = rss_bytes()
    t0 = time.perf_counter()
    samples = []
    for i in range(args.cycles):
        cycle(i, data)
        if (i + 1) % max(args.cycles // 10, 1) == 0:
            samples.append(rss_bytes())
    seconds = time.perf_counter() - t0
    end = rss_bytes()
    growth = end - start
    print(f"leak_sweep: {args.cycles} cycles ({seconds:.1f} s) after {args.warmup} warm-up; "
          f"RSS {start / 2**20:.2f} MiB -> {end / 2**20:.2f} MiB, growth {growth / 1024:+.0f} KiB "
          f"({growth / 1024 / max(args.cycles / 1000, 1e-9):+.1f} KiB per 1,000 cycles); "
          f"samples (MiB): {' '.join(f'{s / 2**20:.2f}' for s in samples)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
