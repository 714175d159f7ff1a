"""Cross-channel LRN with windows of 3 to 11 channels (the column kernels of the GPU,
lrn_cross_cols): channel counts below, at and past the kernel's chunk of 8 and the window,
every s^-beta form, the workspace saved and recomputed, against PyTorch's local_response_norm in
float64 (autograd for the gradient); outputs NaN-poisoned; two runs give the same bits."""
import numpy as np
import pytest
import torch

import miopen_cy as mi
from helpers import Strided, desc, poisoned, rel_l2

CROSS = mi.miopenLRNCrossChannel
TOL = 1e-5
ALPHA, K = 2.0, 1.0


def _lrn(n, beta=0.75, alpha=ALPHA, k=K):
    d = mi.LRNDescriptor()
    mi.setLRNDescriptor(d, CROSS, n, alpha, beta, k)
    return d


def _torch(x, dy, n, beta, alpha=ALPHA, k=K):
    xt = torch.from_numpy(x.astype(np.float64)).requires_grad_(True)
    y = torch.nn.functional.local_response_norm(xt, n, alpha, beta, k)
    y.backward(torch.from_numpy(dy.astype(np.float64)))
    return y.detach().numpy(), xt.grad.numpy()


def _scale_ref(x, n, alpha=ALPHA, k=K):
    sq = np.pad(x.astype(np.float64) ** 2, ((0, 0), ((n - 1) // 2, n // 2), (0, 0), (0, 0)))
    c = x.shape[1]
    return k + alpha / n * sum(sq[:, j:j + c] for j in range(n))


@pytest.mark.parametrize("c", [1, 2, 4, 8, 9, 13, 16, 17, 30])
@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_cross_columns_forward_and_backward(handle, rng, c, n):
    shape = (2, c, 5, 7)
    beta = [0.75, 0.5, 1.0, 0.6][(c + n) % 4]
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _lrn(n, beta)
    y, ws = poisoned(shape), poisoned(shape)
    mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
    y_ref, dx_ref = _torch(x, dy, n, beta)
    assert rel_l2(y, y_ref) <= TOL
    assert rel_l2(ws, _scale_ref(x, n)) <= TOL
    for workspace in (ws, None):
        dx = poisoned(shape)
        mi.LRNBackward(handle, lrn, 1.0, desc(shape), y, desc(shape), dy, desc(shape), x, 0.0,
                       desc(shape), dx, workspace)
        assert rel_l2(dx, dx_ref) <= TOL


@pytest.mark.parametrize("n", [3, 5, 11])
def test_cross_columns_strided_and_blended(handle, rng, n):
    shape = (3, 12, 6, 5)
    x = Strided(shape, rng, pad=(0, 1, 2, 3))
    dy = Strided(shape, rng, pad=(1, 0, 0, 1))
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = Strided(shape, pad=(0, 2, 1, 0), fill=y0)
    y_ref, dx_ref = _torch(x.view, dy.view, n, 0.75)
    mi.LRNForward(handle, _lrn(n), 2.0, x.desc(), x.buf, 0.5, y.desc(), y.buf, False, None)
    assert rel_l2(y.view, 2.0 * y_ref + 0.5 * y0) <= TOL
    assert x.gaps_untouched() and y.gaps_untouched()
    yf = y_ref.astype(np.float32)
    dx0 = rng.standard_normal(shape).astype(np.float32)
    dx = Strided(shape, pad=(1, 1, 0, 2), fill=dx0)
    mi.LRNBackward(handle, _lrn(n), -1.5, desc(shape), yf, dy.desc(), dy.buf, x.desc(), x.buf,
                   0.25, dx.desc(), dx.buf, None)
    assert rel_l2(dx.view, -1.5 * dx_ref + 0.25 * dx0) <= TOL
    assert dx.gaps_untouched()


def test_cross_columns_same_bits_every_run(handle, rng):
    shape = (8, 96, 27, 27)
    x = rng.standard_normal(shape).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    lrn = _lrn(5, 0.75, 1e-4, 2.0)
    runs = []
    for _ in range(2):
        y, ws, dx = poisoned(shape), poisoned(shape), poisoned(shape)
        mi.LRNForward(handle, lrn, 1.0, desc(shape), x, 0.0, desc(shape), y, True, ws)
        mi.LRNBackward(handle, lrn, 1.0, desc(shape), y, desc(shape), dy, desc(shape), x, 0.0,
                       desc(shape), dx, ws)
        runs.append((y, ws, dx))
    for a, b in zip(*runs):
        assert np.array_equal(a, b)
    y_ref, dx_ref = _torch(x, dy, 5, 0.75, 1e-4, 2.0)
    assert rel_l2(runs[0][0], y_ref) <= TOL and rel_l2(runs[0][2], dx_ref) <= TOL
