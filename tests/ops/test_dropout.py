"""Dropout (descriptor, sizes, miopenDropoutForward / Backward) on every device: the mask against
the float64 NumPy reference of the documented Philox-4x32-10 generator
(miopen_cy.reference.dropout), the values against x / (1 - p) applied with that mask, the keep
statistics, use_mask, state_evo, restore, and bad arguments refused with nothing written."""
import math

import numpy as np
import pytest

import miopen_cy as mi
from miopen_cy.reference import dropout as ref
from support.buffers import Strided, desc
from support.devices import requires_gpu
from support.dtypes import FLOAT_TYPES, as64, np_dtype, poison, random_stored

XORWOW = mi.MIOPEN_RNG_PSEUDO_XORWOW


def _states(h, nbytes=None):
    n = mi.dropoutGetStatesSize(h) if nbytes is None else nbytes
    if h.device == "cpu":
        return np.zeros(n, np.uint8), n
    # zeroed: a fresh allocation may hold an old descriptor's state
    return mi.DeviceBuffer.from_numpy(h, np.zeros(n, np.uint8)), n


def _read_states(h, states):
    raw = states if isinstance(states, np.ndarray) else states.to_numpy((32,), np.uint8)
    st = np.frombuffer(np.ascontiguousarray(raw[:32]).tobytes(), np.uint64)
    return int(st[1]), int(st[2]), int(st[3])        # seed, offset, last


def _dropout(h, p, seed=1234, use_mask=False, state_evo=False, states=None):
    d = mi.DropoutDescriptor()
    if states is None:
        states, n = _states(h)
    else:
        n = mi.dropoutGetStatesSize(h)
    mi.setDropoutDescriptor(d, h, p, states, n, seed, use_mask, state_evo, XORWOW)
    return d, states


def _forward(h, d, x, dt=mi.miopenFloat, reserve=True, xd=None, yd=None, y=None):
    xd = xd or desc(x.shape, dtype=dt)
    yd = yd or xd
    y = poison(x.shape, dt) if y is None else y
    n = mi.dropoutGetReserveSpaceSize(xd)
    r = np.full(n, 7, np.uint8) if reserve else None
    mi.dropoutForward(h, d, xd, xd, x, yd, y, r, n if reserve else 0)
    return y, r


# ---- the generator ---------------------------------------------------------------------------------

def test_reference_philox_known_answers():
    """Random123's known-answer vectors for Philox-4x32-10."""
    def run(c, k):
        return [int(v[0]) for v in ref.philox4x32_10(*[[w] for w in c], *k)]
    assert run([0, 0, 0, 0], [0, 0]) == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    assert run([0xffffffff] * 4, [0xffffffff] * 2) == [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
    assert run([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]) == \
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]


@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("shape", [(7,), (2, 3, 5), (2, 3, 4, 5), (2, 2, 3, 4, 5), (3, 1000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_forward_mask_and_values_match_reference(handle, dt, shape):
    rng = np.random.default_rng(1)
    x = random_stored(shape, dt, rng)
    seed, p = (0x1234_5678_9abc_def0, 0.3)
    d, _ = _dropout(handle, p, seed)
    y, r = _forward(handle, d, x, dt)
    n = x.size
    keep = ref.mask(seed, 0, n, p)
    np.testing.assert_array_equal(r, keep)
    want = ref.apply(as64(x), keep, p).astype(np.float32).astype(np_dtype(dt))
    np.testing.assert_array_equal(as64(y), as64(want))


@requires_gpu
@pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")
@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_cpu_and_gpu_draw_the_same_mask(dt):
    rng = np.random.default_rng(2)
    x = random_stored((3, 5, 7, 11), dt, rng)   # odd sizes: the packed kernel's tail too
    outs = []
    for dev in ("cpu", "gpu"):
        h = mi.Handle(device=dev)
        d, _ = _dropout(h, 0.45, seed=99)
        outs.append(_forward(h, d, x, dt))
    np.testing.assert_array_equal(outs[0][1], outs[1][1])
    np.testing.assert_array_equal(as64(outs[0][0]), as64(outs[1][0]))


# ---- statistics --------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", [0.05, 0.3, 0.5, 0.8, 0.97])
def test_keep_fraction_and_independence(handle, p):
    n = 1 << 18
    x = np.ones(n, np.float32)
    d, _ = _dropout(handle, p, seed=int(p * 1000) + 7)
    y, r = _forward(handle, d, x)
    q = 1.0 - p
    kept = int(r.sum())
    # binomial: within 5 standard deviations
    assert abs(kept - n * q) <= 5 * math.sqrt(n * p * q), (kept, n * q)
    np.testing.assert_allclose(y[r == 1], np.float32(1) / np.float32(1 - np.float32(p)), rtol=0)
    assert np.all(y[r == 0] == 0)
    # neighbours within a Philox group (lag 1) and across groups (lag 4) are uncorrelated
    m = r.astype(np.float64) - r.mean()
    for lag in (1, 2, 4, 5):
        corr = float(np.dot(m[:-lag], m[lag:]) / np.dot(m, m))
        assert abs(corr) < 5 / math.sqrt(n), (lag, corr)
    # mean of x / (1 - p) over the mask: E[y] = x
    assert abs(float(y.astype(np.float64).mean()) - 1.0) < 5 * math.sqrt(p / q / n)


def test_torch_dropout_statistics_agree(handle):
    """The kept fraction is F.dropout's (PyTorch's own generator, same rate) within noise."""
    torch = pytest.importorskip("torch")
    n, p = 1 << 17, 0.35
    t = torch.nn.functional.dropout(torch.ones(n), p=p, training=True)
    d, _ = _dropout(handle, p, seed=5)
    y, r = _forward(handle, d, np.ones(n, np.float32))
    sd = math.sqrt(2 * n * p * (1 - p))
    assert abs(int((t != 0).sum()) - int(r.sum())) <= 5 * sd
    np.testing.assert_allclose(float(t.max()), float(y.max()), rtol=1e-6)


# ---- seeds, offsets, state_evo, restore -------------------------------------------------------------

def test_same_seed_same_bits_different_seeds_differ(handle):
    x = np.random.default_rng(3).standard_normal(10000).astype(np.float32)
    masks = []
    for seed in (11, 11, 12, 11 + (1 << 32)):
        d, _ = _dropout(handle, 0.5, seed)
        masks.append(_forward(handle, d, x)[1])
    np.testing.assert_array_equal(masks[0], masks[1])
    for other in masks[2:]:
        frac = float(np.mean(masks[0] != other))
        assert 0.45 < frac < 0.55, frac           # independent masks differ in half the places


def test_without_state_evo_every_forward_draws_the_same_mask(handle):
    x = np.ones(4096, np.float32)
    d, states = _dropout(handle, 0.5, seed=21)
    r1 = _forward(handle, d, x)[1]
    r2 = _forward(handle, d, x)[1]
    np.testing.assert_array_equal(r1, r2)
    assert _read_states(handle, states) == (21, 0, 0)


def test_state_evo_advances_the_offset(handle):
    x = np.ones(4099, np.float32)
    d, states = _dropout(handle, 0.5, seed=77, state_evo=True)
    masks = [_forward(handle, d, x)[1] for _ in range(3)]
    for k, m in enumerate(masks):
        np.testing.assert_array_equal(m, ref.mask(77, k, x.size, 0.5))
    assert _read_states(handle, states) == (77, 3, 2)
    # backward without reserveSpace draws the last forward's mask again
    dy = np.random.default_rng(4).standard_normal(x.size).astype(np.float32)
    dx = poison(x.shape, mi.miopenFloat)
    xd = desc(x.shape)
    mi.dropoutBackward(handle, d, xd, xd, dy, xd, dx, None, 0)
    np.testing.assert_array_equal(dx, ref.apply(dy, masks[2], 0.5).astype(np.float32))
    # a forward that reads its mask does not advance
    d2 = mi.DropoutDescriptor()
    n = mi.dropoutGetStatesSize(handle)
    mi.restoreDropoutDescriptor(d2, handle, 0.5, states, n, 77, True, True, XORWOW)
    y = poison(x.shape, mi.miopenFloat)
    mi.dropoutForward(handle, d2, xd, xd, x, xd, y, masks[0].copy(), x.size)
    assert _read_states(handle, states) == (77, 3, 2)


def test_restore_continues_the_saved_state(handle):
    x = np.ones(1000, np.float32)
    d, states = _dropout(handle, 0.25, seed=5, state_evo=True)
    _forward(handle, d, x)
    d2 = mi.DropoutDescriptor()
    n = mi.dropoutGetStatesSize(handle)
    mi.restoreDropoutDescriptor(d2, handle, 0.25, states, n, 5, False, True, XORWOW)
    np.testing.assert_array_equal(_forward(handle, d2, x)[1], ref.mask(5, 1, x.size, 0.25))
    assert mi.getDropoutDescriptor(d2, handle)[2:] == (5, False, True, XORWOW)


def test_restore_refuses_states_never_set(handle):
    states, n = _states(handle)
    d = mi.DropoutDescriptor()
    with pytest.raises(mi.BadParmError, match="states does not hold a dropout generator state"):
        mi.restoreDropoutDescriptor(d, handle, 0.5, states, n, 1, False, False, XORWOW)
    assert repr(d) == "DropoutDescriptor(unset)"


# ---- edge rates, types, layouts -------------------------------------------------------------------

def test_rate_zero_keeps_everything_rate_one_drops_everything(handle):
    x = np.random.default_rng(5).standard_normal((4, 33)).astype(np.float32)
    d, _ = _dropout(handle, 0.0)
    y, r = _forward(handle, d, x)
    assert np.all(r == 1)
    np.testing.assert_array_equal(y, x)
    d, _ = _dropout(handle, 1.0)
    y, r = _forward(handle, d, x)
    assert np.all(r == 0) and np.all(y == 0)


def test_rate_close_to_one(handle):
    n, p = 1 << 16, 0.999
    d, _ = _dropout(handle, p, seed=8)
    y, r = _forward(handle, d, np.ones(n, np.float32))
    kept = int(r.sum())
    assert 0 < kept and abs(kept - n * 0.001) <= 5 * math.sqrt(n * 0.001)
    np.testing.assert_allclose(y[r == 1], 1.0 / np.float32(1 - np.float32(p)), rtol=1e-6)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_strided_tensors_leave_gaps_untouched(handle, dt):
    rng = np.random.default_rng(6)
    shape = (2, 3, 5, 6)
    npdt = np_dtype(dt)
    xs = Strided(shape, pad=(0, 1, 0, 2), dtype=npdt)
    xs.view[...] = random_stored(shape, dt, rng)
    ys = Strided(shape, pad=(1, 0, 2, 1), dtype=npdt)
    d, _ = _dropout(handle, 0.4, seed=9)
    n = int(np.prod(shape))
    r = np.zeros(n, np.uint8)
    mi.dropoutForward(handle, d, desc(shape, dtype=dt), xs.desc(dt), xs.buf, ys.desc(dt), ys.buf,
                      r, n)
    keep = ref.mask(9, 0, n, 0.4)
    np.testing.assert_array_equal(r, keep)
    want = ref.apply(as64(xs.view), keep, 0.4).astype(np.float32).astype(npdt)
    np.testing.assert_array_equal(as64(ys.view), as64(want))
    assert ys.gaps_untouched()


def test_in_place(handle):
    x = np.random.default_rng(7).standard_normal(1003).astype(np.float32)
    x0 = x.copy()
    d, _ = _dropout(handle, 0.5, seed=3)
    xd = desc(x.shape)
    r = np.zeros(x.size, np.uint8)
    mi.dropoutForward(handle, d, xd, xd, x, xd, x, r, x.size)
    np.testing.assert_array_equal(x, ref.apply(x0, ref.mask(3, 0, x.size, 0.5), 0.5).astype(np.float32))


# ---- backward and use_mask --------------------------------------------------------------------------

@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_backward_applies_the_forward_mask(handle, dt):
    rng = np.random.default_rng(8)
    shape = (3, 4, 17)
    x, dy = random_stored(shape, dt, rng), random_stored(shape, dt, rng)
    d, _ = _dropout(handle, 0.6, seed=10)
    _, r = _forward(handle, d, x, dt)
    xd = desc(shape, dtype=dt)
    npdt = np_dtype(dt)
    for reserve in (r, None):
        dx = poison(shape, dt)
        mi.dropoutBackward(handle, d, xd, xd, dy, xd, dx, reserve, r.size if reserve is not None else 0)
        want = ref.apply(as64(dy), r, 0.6).astype(np.float32).astype(npdt)
        np.testing.assert_array_equal(as64(dx), as64(want))


def test_use_mask_reads_the_given_mask(handle):
    rng = np.random.default_rng(9)
    x = rng.standard_normal((5, 40)).astype(np.float32)
    user = (rng.random(x.size) > 0.3).astype(np.uint8)
    d, _ = _dropout(handle, 0.3, use_mask=True)
    xd = desc(x.shape)
    y = poison(x.shape, mi.miopenFloat)
    r = user.copy()
    mi.dropoutForward(handle, d, xd, xd, x, xd, y, r, r.size)
    np.testing.assert_array_equal(r, user)
    np.testing.assert_array_equal(y, ref.apply(x, user, 0.3).astype(np.float32))


def test_forward_without_reserve_space(handle):
    x = np.ones(333, np.float32)
    d, _ = _dropout(handle, 0.5, seed=44)
    y, _ = _forward(handle, d, x, reserve=False)
    np.testing.assert_array_equal(y != 0, ref.mask(44, 0, x.size, 0.5) == 1)


# ---- the descriptor -------------------------------------------------------------------------------

def test_descriptor_round_trip_and_sizes(handle):
    d = mi.createDropoutDescriptor()
    assert repr(d) == "DropoutDescriptor(unset)" and d.dropout is None
    states, n = _states(handle)
    assert n == 16384 * 24                         # MIOpen's: 256 * 64 XORWOW states of 24 bytes
    mi.setDropoutDescriptor(d, handle, 0.25, states, n, 2 ** 64 - 1, True, True, XORWOW)
    p, addr, seed, use_mask, evo, mode = mi.getDropoutDescriptor(d, handle)
    assert (p, seed, use_mask, evo, mode) == (0.25, 2 ** 64 - 1, True, True, XORWOW)
    assert isinstance(mode, mi.RNGType) and addr != 0
    assert (d.dropout, d.seed, d.use_mask, d.state_evo) == (0.25, 2 ** 64 - 1, True, True)
    assert repr(d) == ("DropoutDescriptor(dropout=0.25, seed=18446744073709551615, use_mask=True, "
                       "state_evo=True, rng_mode=MIOPEN_RNG_PSEUDO_XORWOW)")
    assert mi.dropoutGetReserveSpaceSize(desc((2, 3, 4))) == 24
    mi.destroyDropoutDescriptor(d)
    assert repr(d) == "DropoutDescriptor(destroyed)"
    with pytest.raises(ValueError, match="dropoutDesc has been destroyed"):
        mi.getDropoutDescriptor(d, handle)


@pytest.mark.parametrize("change,exc,words", [
    (dict(p=-0.1), mi.BadParmError, "dropout = -0.1 is not a probability"),
    (dict(p=1.5), mi.BadParmError, "dropout = 1.5 is not a probability"),
    (dict(p=float("nan")), mi.BadParmError, "dropout = nan is not a probability"),
    (dict(n=31), mi.BadParmError, "stateSizeInBytes = 31 is less than the 32 bytes"),
    (dict(states=None), mi.BadParmError, "states is a null pointer"),
    (dict(mode=1), mi.BadParmError, "rng_mode = 1 is not a miopenRNGType_t value"),
    (dict(seed=-1), OverflowError, "seed = -1"),
], ids=["p-negative", "p-above-1", "p-nan", "states-too-small", "states-null", "rng-mode", "seed"])
def test_set_refuses_bad_arguments(handle, change, exc, words):
    states, n = _states(handle)
    a = dict(p=0.5, states=states, n=n, seed=1, mode=XORWOW)
    a.update(change)
    d = mi.DropoutDescriptor()
    with pytest.raises(exc, match=words):
        mi.setDropoutDescriptor(d, handle, a["p"], a["states"], a["n"], a["seed"], False, False,
                                a["mode"])
    assert repr(d) == "DropoutDescriptor(unset)"


def _bad(handle, **kw):
    """A forward with one argument spoilt; returns (exception, y), y poisoned before."""
    shape = kw.pop("shape", (4, 8))
    x = np.ones(shape, np.float32)
    d, _ = _dropout(handle, 0.5, use_mask=kw.pop("use_mask", False), states=kw.pop("states", None)) \
        if "d" not in kw else (kw.pop("d"), None)
    xd = kw.pop("xd", desc(shape))
    yd = kw.pop("yd", desc(shape))
    nd = kw.pop("nd", desc(shape))
    y = np.full(int(np.prod(shape)) * 2, np.nan, np.float32)
    r = kw.pop("r", np.full(x.size, 9, np.uint8))
    n = kw.pop("n", x.size)
    with pytest.raises(mi.MIOpenError) as e:        # addresses: the C checks, not Python's
        mi.dropoutForward(handle, d, nd, xd, x.ctypes.data, yd, y.ctypes.data, r, n)
    assert np.all(np.isnan(y)), "written before refusing"
    if r is not None:
        assert np.all(r == 9), "mask written before refusing"
    return e.value


def test_forward_refuses_bad_arguments(handle):
    assert "xDesc has 6 dims" in str(_bad(handle, shape=(1, 2, 1, 2, 1, 2)))
    assert "yDesc" in str(_bad(handle, yd=desc((4, 9))))
    assert "yDesc" in str(_bad(handle, yd=desc((4, 8), dtype=mi.miopenHalf)))
    assert "noise_shape" in str(_bad(handle, nd=desc((32,))))
    assert "reserveSpaceSizeInBytes = 31 is less than the 32 bytes" in str(_bad(handle, n=31))
    assert "reserveSpace is a null pointer; use_mask" in str(_bad(handle, use_mask=True, r=None, n=0))
    assert "dropoutDesc is not set" in str(_bad(handle, d=mi.DropoutDescriptor()))
    e = _bad(handle, xd=desc((4, 8), dtype=mi.miopenInt32), yd=desc((4, 8), dtype=mi.miopenInt32))
    assert "xDesc has data type miopenInt32" in str(e)
    # states enough for the descriptor but fewer than MIOpen's count for this tensor
    states, _ = _states(handle)
    d = mi.DropoutDescriptor()
    mi.setDropoutDescriptor(d, handle, 0.5, states, 6144, 1, False, False, XORWOW)
    assert "stateSizeInBytes = 6144 of dropoutDesc is less than the 12288 bytes" in \
        str(_bad(handle, d=d, shape=(300,)))


@requires_gpu
def test_gpu_states_must_be_device_memory():
    h = mi.Handle(device="gpu")
    n = mi.dropoutGetStatesSize(h)
    with pytest.raises(mi.BadParmError, match="states must be device memory"):
        mi.setDropoutDescriptor(mi.DropoutDescriptor(), h, 0.5, np.zeros(n, np.uint8), n, 1,
                                False, False, XORWOW)
