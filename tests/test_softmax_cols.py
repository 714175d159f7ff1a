"""Softmax CHANNEL mode on the columns engine (one thread per (n, h, w), looping over C): every
register bucket of the GPU kernel (C up to 8, 16, 24, 32) at its edges, and C past the registers,
against PyTorch in float64; outputs NaN-poisoned; two runs give the same bits."""
import numpy as np
import pytest

import miopen_cy as mi
from helpers import desc, poisoned, rel_l2
from miopen_cy.reference import softmax as ref

ALGOS = [mi.MIOPEN_SOFTMAX_FAST, mi.MIOPEN_SOFTMAX_ACCURATE, mi.MIOPEN_SOFTMAX_LOG]
CHANNEL = mi.MIOPEN_SOFTMAX_MODE_CHANNEL
TOL = 1e-5
# C at each bucket's edges; H * W > 1 and odd, so C is never unit-stride (columns, not rows).
CHANNELS = [1, 2, 7, 8, 9, 15, 16, 17, 21, 23, 24, 25, 31, 32, 33, 40]


@pytest.mark.parametrize("c", CHANNELS)
@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_columns_every_register_bucket(handle, rng, c, algo):
    shape = (3, c, 5, 7)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y = poisoned(shape)
    mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, CHANNEL)
    y_ref, dx_ref = ref.backward(x, dy, algo, CHANNEL)
    assert rel_l2(y, y_ref) <= TOL
    dx = poisoned(shape)
    mi.softmaxBackward_V2(handle, 1.0, desc(shape), y_ref.astype(np.float32), desc(shape), dy,
                          0.0, desc(shape), dx, algo, CHANNEL)
    assert rel_l2(dx, dx_ref) <= TOL


@pytest.mark.parametrize("c", [5, 21, 30])
def test_columns_blend(handle, rng, c):
    shape = (2, c, 6, 9)
    x = (2.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    y_ref, dx_ref = ref.backward(x, dy, mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    y0 = rng.standard_normal(shape).astype(np.float32)
    y = y0.copy()
    mi.softmaxForward_V2(handle, 0.5, desc(shape), x, 2.0, desc(shape), y,
                         mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert rel_l2(y, 0.5 * y_ref + 2.0 * y0) <= TOL
    dx0 = rng.standard_normal(shape).astype(np.float32)
    dx = dx0.copy()
    mi.softmaxBackward_V2(handle, -1.5, desc(shape), y_ref.astype(np.float32), desc(shape), dy,
                          0.25, desc(shape), dx, mi.MIOPEN_SOFTMAX_ACCURATE, CHANNEL)
    assert rel_l2(dx, -1.5 * dx_ref + 0.25 * dx0) <= TOL


@pytest.mark.parametrize("algo", ALGOS, ids=lambda a: mi.SoftmaxAlgorithm(a).name)
def test_columns_same_bits_every_run(handle, rng, algo):
    # The benchmark's channel count over more columns (288000) than a grid of 8 blocks of 256
    # per multiprocessor covers on a 132-SM GPU: threads take several columns.
    shape = (3, 21, 300, 320)
    x = (3.0 * rng.standard_normal(shape)).astype(np.float32)
    dy = rng.standard_normal(shape).astype(np.float32)
    runs = []
    for _ in range(2):
        y, dx = poisoned(shape), poisoned(shape)
        mi.softmaxForward_V2(handle, 1.0, desc(shape), x, 0.0, desc(shape), y, algo, CHANNEL)
        mi.softmaxBackward_V2(handle, 1.0, desc(shape), y, desc(shape), dy, 0.0, desc(shape), dx,
                              algo, CHANNEL)
        runs.append((y, dx))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    y_ref, dx_ref = ref.backward(x, dy, algo, CHANNEL)
    assert rel_l2(runs[0][0], y_ref) <= TOL
    assert rel_l2(runs[0][1], dx_ref) <= TOL     # dx from our float32 y
