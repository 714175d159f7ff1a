"""Pooling on a GPU handle for the tests of the GPU's 2-d pooling kernels
(tests/ops/test_pooling_2d_kernels.py): a case is ((n, c, h, w), window, pad, stride); the run
helpers stage the operands in DeviceBuffers (outputs NaN-poisoned, the index workspace filled with
0xAB) and return NumPy arrays; the torch helpers are the float64 PyTorch CPU oracle."""
import numpy as np
import torch
import torch.nn.functional as F

import miopen_cy as mi
from support.buffers import desc, poisoned

MODES = [mi.miopenPoolingMax, mi.miopenPoolingAverage, mi.miopenPoolingAverageInclusive]


def pool_id(case):
    (n, c, h, w), (r, s), (ph, pw), (sh, sw) = case
    return f"n{n}-c{c}-h{h}-w{w}-y{r}-x{s}-p{ph}x{pw}-s{sh}x{sw}"


def out_shape(case):
    (n, c, h, w), (r, s), (ph, pw), (sh, sw) = case
    return (n, c, (h + 2 * ph - r) // sh + 1, (w + 2 * pw - s) // sw + 1)


def pool_desc(case, mode, index_type=None, image=False):
    _, (r, s), (ph, pw), (sh, sw) = case
    pd = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(pd, mode, r, s, ph, pw, sh, sw)
    if index_type is not None:
        mi.setPoolingIndexType(pd, index_type)
    if image:
        mi.setPoolingWorkSpaceIndexMode(pd, mi.miopenPoolingWorkspaceIndexImage)
    return pd


def w_stride2(a):
    """a (n, c, h, w) inside a NaN-filled buffer twice as wide, read with a W stride of 2: the
    generic pooling kernels take it (the 2-d ones need unit W strides). Returns (buffer, desc)."""
    a = np.asarray(a, np.float32)
    buf = np.full(a.shape + (2,), np.nan, np.float32)
    buf[..., 0] = a
    n, c, h, w = a.shape
    return buf, desc(a.shape, (c * h * w * 2, h * w * 2, w * 2, 2))


def run_fwd(h, case, mode, x, *, xdesc=None, index_type=None, image=False, alpha=1.0, beta=0.0,
            y0=None, generic=False):
    """The forward; returns y and the index workspace. generic: through the generic kernel (x
    read with a W stride of 2), the reference of the 2-d kernels' bits."""
    if generic:
        assert xdesc is None, "generic takes the logical x"
        x, xdesc = w_stride2(x)
    pd = pool_desc(case, mode, index_type, image)
    xd = xdesc if xdesc is not None else desc(case[0])
    oshape = mi.getPoolingForwardOutputDim(pd, desc(case[0]))
    yd = desc(oshape)
    xb = mi.DeviceBuffer.from_numpy(h, x)
    yb = mi.DeviceBuffer.from_numpy(h, poisoned(oshape) if y0 is None else y0)
    ws_size = mi.poolingGetWorkSpaceSizeV2(pd, yd)
    ws = mi.DeviceBuffer.from_numpy(h, np.full(max(ws_size, 1), 0xAB, np.uint8))
    mi.poolingForward(h, pd, alpha, xd, xb, beta, yd, yb, mode == mi.miopenPoolingMax, ws, ws_size)
    return yb.to_numpy(oshape, np.float32), ws.to_numpy((max(ws_size, 1),), np.uint8)


def run_bwd(h, case, mode, x, dy, *, index_type=None, image=False, alpha=1.0, beta=0.0, dx0=None,
            use_ws=True, generic=False):
    """The forward (with its index workspace) then the backward; returns dx. generic: the
    backward through the generic kernel (dy read with a W stride of 2)."""
    shape = case[0]
    y, ws = run_fwd(h, case, mode, x, index_type=index_type, image=image)
    pd = pool_desc(case, mode, index_type, image)
    xd, yd = desc(shape), desc(y.shape)
    dxb = mi.DeviceBuffer.from_numpy(h, poisoned(shape) if dx0 is None else dx0)
    wsb = mi.DeviceBuffer.from_numpy(h, ws) if use_ws else None
    dyd = yd
    if generic:
        dy, dyd = w_stride2(dy)
    mi.poolingBackward(h, pd, alpha, yd, mi.DeviceBuffer.from_numpy(h, y), dyd,
                       mi.DeviceBuffer.from_numpy(h, dy), xd, mi.DeviceBuffer.from_numpy(h, x),
                       beta, xd, dxb, wsb)
    return dxb.to_numpy(shape, np.float32)


def _torch_pool(case, mode, t):
    _, window, pad, stride = case
    if mode == mi.miopenPoolingMax:
        return F.max_pool2d(t, window, stride, pad)
    return F.avg_pool2d(t, window, stride, pad,
                        count_include_pad=mode == mi.miopenPoolingAverageInclusive)


def torch_fwd(case, mode, x):
    return _torch_pool(case, mode, torch.from_numpy(np.ascontiguousarray(x, np.float64))).numpy()


def torch_bwd(case, mode, x, dy):
    t = torch.from_numpy(np.ascontiguousarray(x, np.float64)).requires_grad_(True)
    (g,) = torch.autograd.grad(_torch_pool(case, mode, t), t,
                               torch.from_numpy(dy.astype(np.float64)))
    return g.numpy()
