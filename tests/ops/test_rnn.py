"""RNN (vanilla ReLU / tanh, LSTM, GRU): the packed API (miopenRNNForwardTraining / Inference,
BackwardData, BackwardWeights) and the sequence-tensor API against torch nn.RNN / nn.LSTM /
nn.GRU in float64 with the weights copied through setRNNLayerParam / setRNNLayerBias; MIOpen's
weight layout against its offset formulas; sizes; bad arguments refused with nothing written."""
import itertools

import numpy as np
import pytest
import torch

import miopen_cy as mi
from support.dtypes import FLOAT_TYPES, as64, np_dtype, poison, round_to
from support.rnn import (GATES, MODES, Stack, lengths_of, pack, round_module, set_skip_identity,
                         tensor_desc, torch_forward, unpack)

F32 = mi.miopenFloat
TOL = {int(mi.miopenFloat): 2e-5, int(mi.miopenHalf): 4e-3, int(mi.miopenBFloat16): 3e-2}


def _tol(dt):
    return TOL[int(dt)]


def _states(handle):
    """The dropout states buffer: host memory on the CPU, device memory on a GPU (the descriptor
    keeps the pointer)."""
    n = mi.dropoutGetStatesSize(handle)
    if handle.device == "cpu":
        return np.zeros(n, np.uint8), n
    return mi.DeviceBuffer.from_numpy(handle, np.zeros(n, np.uint8)), n


def _state_words(states):
    raw = states if isinstance(states, np.ndarray) else states.to_numpy((32,), np.uint8)
    return np.frombuffer(np.ascontiguousarray(raw[:32]).tobytes(), np.uint64)


def _close(actual, expected, dt, what):
    a, e = as64(actual), np.asarray(expected, np.float64)
    scale = max(1.0, float(np.max(np.abs(e))) if e.size else 1.0)
    err = float(np.max(np.abs(a - e))) if e.size else 0.0
    assert np.all(np.isfinite(a)), f"{what}: non-finite values (unwritten?)"
    assert err <= _tol(dt) * scale * 4, f"{what}: max error {err:.3g} (scale {scale:.3g})"


def _run_case(handle, rng, mode, bi, skip, bias, layers, batches, dt=F32, with_hx=True,
              with_dhy=True, in_size=5, h=4, check_backward=True):
    in_size = h if skip else in_size
    st = Stack(handle, mode, in_size, h, layers, bi, bias, skip, dt, batches)
    module = torch_module_for(st, rng)
    w = st.load(module)
    lens = lengths_of(batches)
    T, B = len(batches), batches[0]
    npdt = np_dtype(dt)
    x_pad = np.zeros((T, B, in_size))
    for j, L in enumerate(lens):
        x_pad[:L, j] = rng.uniform(-1, 1, size=(L, in_size))
    x_pad = as64(round_to(x_pad, dt))
    x = round_to(pack(x_pad, batches), dt)
    hshape = (layers * bi, B, h)
    hx = round_to(rng.uniform(-1, 1, size=hshape), dt) if with_hx else None
    cx = round_to(rng.uniform(-1, 1, size=hshape), dt) if with_hx and mode == "lstm" else None

    y = poison((st.rows, bi * h), dt)
    hy = poison(hshape, dt)
    cy = poison(hshape, dt) if mode == "lstm" else None
    ws = np.zeros(st.ws, np.uint8)
    rs = np.zeros(st.rs, np.uint8)
    mi.RNNForwardTraining(handle, st.rnn, T, st.xd, x, st.hd, hx, st.hd, cx, st.wd, w, st.yd, y,
                          st.hd, hy, st.hd, cy, ws, st.ws, rs, st.rs)

    yt, hyt, cyt, (xt, h0, c0) = torch_forward(module, mode, x_pad, lens,
                                               as64(hx) if hx is not None else None,
                                               as64(cx) if cx is not None else None)
    _close(y, pack(yt.detach().numpy(), batches), dt, "y")
    _close(hy, hyt.detach().numpy(), dt, "hy")
    if mode == "lstm":
        _close(cy, cyt.detach().numpy(), dt, "cy")

    # inference gives the same outputs
    y2 = poison((st.rows, bi * h), dt)
    hy2 = poison(hshape, dt)
    mi.RNNForwardInference(handle, st.rnn, T, st.xd, x, st.hd, hx, st.hd, cx, st.wd, w, st.yd, y2,
                           st.hd, hy2, st.hd, None, np.zeros(st.ws, np.uint8), st.ws)
    np.testing.assert_array_equal(as64(y2), as64(y))
    np.testing.assert_array_equal(as64(hy2), as64(hy))
    if not check_backward:
        return

    dy = round_to(rng.uniform(-1, 1, size=(st.rows, bi * h)), dt)
    dhy = round_to(rng.uniform(-1, 1, size=hshape), dt) if with_dhy else None
    dcy = round_to(rng.uniform(-1, 1, size=hshape), dt) if with_dhy and mode == "lstm" else None
    dx = poison((st.rows, in_size), dt)
    dhx = poison(hshape, dt)
    dcx = poison(hshape, dt) if mode == "lstm" else None
    mi.RNNBackwardData(handle, st.rnn, T, st.yd, y, st.yd, dy, st.hd, dhy, st.hd, dcy, st.wd, w,
                       st.hd, hx, st.hd, cx, st.xd, dx, st.hd, dhx, st.hd, dcx, ws, st.ws, rs,
                       st.rs)
    dw = np.full(st.nw, np.nan, npdt)
    mi.RNNBackwardWeights(handle, st.rnn, T, st.xd, x, st.hd, hx, st.yd, y, st.wd, dw, ws, st.ws,
                          rs, st.rs)

    loss = (yt * torch.from_numpy(unpack(as64(dy), batches, bi * h))).sum()
    if dhy is not None:
        loss = loss + (hyt * torch.from_numpy(as64(dhy))).sum()
    if dcy is not None:
        loss = loss + (cyt * torch.from_numpy(as64(dcy))).sum()
    module.zero_grad()
    loss.backward()
    _close(dx, pack(xt.grad.numpy(), batches), dt, "dx")
    if hx is not None:
        _close(dhx, h0.grad.numpy(), dt, "dhx")
        if mode == "lstm":
            _close(dcx, c0.grad.numpy(), dt, "dcx")
    got = st.unload(dw)
    for name, p in module.named_parameters():
        if skip and name.startswith("weight_ih_l0"):
            continue
        _close(got[name], p.grad.numpy(), dt, f"dw {name}")


def torch_module_for(st, rng):
    from support.rnn import torch_module
    m = torch_module(st.mode, st.in_size, st.h, st.layers, st.bi, st.bias, rng)
    if st.skip:
        set_skip_identity(m, st.h, GATES[st.mode])
    round_module(m, st.dt)
    return m


CASES = list(itertools.product(["relu", "tanh", "lstm", "gru"], [1, 2], [False, True],
                               [False, True]))


@pytest.mark.parametrize("mode,bi,skip,bias", CASES,
                         ids=[f"{m}-bi{b}-{'skip' if s else 'lin'}-{'bias' if c else 'nobias'}"
                              for m, b, s, c in CASES])
def test_rnn_matches_torch(handle, rng, mode, bi, skip, bias):
    _run_case(handle, rng, mode, bi, skip, bias, layers=2, batches=[3, 3, 2, 1])


@pytest.mark.parametrize("mode", ["relu", "tanh", "lstm", "gru"])
@pytest.mark.parametrize("layers", [1, 3])
def test_rnn_layers_and_lengths(handle, rng, mode, layers):
    _run_case(handle, rng, mode, 2, False, True, layers=layers, batches=[4, 3, 3, 1, 1],
              in_size=3, h=6)


@pytest.mark.parametrize("split", [2, 5])
@pytest.mark.parametrize("mode", ["relu", "lstm", "gru"])
def test_rnn_step_products_split(handle, rng, monkeypatch, mode, split):
    """The per-step products split over k (the GPU's LaunchSgemmSplitK) with their reductions in
    the gate passes, forced by MIOPEN_CY_DEBUG_SGEMM_SPLIT on a shape the model leaves unsplit
    (h 40: the forward's k = 40 is 5 steps of 8, backward's 4h or 3h more): both directions and
    lengths that end mid-sequence, so the reverse steps whose sequences start (two products,
    each reduced by the split's own kernel), the backward steps where sequences end (dhx read
    from the reduced carry) and the fused reductions all run. Training and inference give the
    same bits (the parts are added in a fixed order). The CPU ignores the switch."""
    monkeypatch.setenv("MIOPEN_CY_DEBUG_SGEMM_SPLIT", str(split))
    _run_case(handle, rng, mode, 2, False, True, layers=2, batches=[4, 3, 3, 1, 1], in_size=7,
              h=40)


@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_rnn_step_products_model_split(handle, rng, mode):
    """Issue 22's small shape's widths (hidden 256, batch 16), a few steps: on a GPU the split
    model itself splits the step products (16 x 1024 and 16 x 256 outputs over k 256 / 1024),
    no switch."""
    _run_case(handle, rng, mode, 1, False, True, layers=1, batches=[16, 16, 16], in_size=8, h=256)


@pytest.mark.parametrize("dt", FLOAT_TYPES)
def test_rnn_step_products_split_storage_types(handle, rng, monkeypatch, dt):
    """The forced split with fp16 / bf16 storage (fp32 parameters staged in the workspace, whose
    split room follows them)."""
    monkeypatch.setenv("MIOPEN_CY_DEBUG_SGEMM_SPLIT", "3")
    _run_case(handle, rng, "lstm", 1, False, True, layers=2, batches=[3, 3, 2], in_size=6, h=32,
              dt=dt)


@pytest.mark.parametrize("mode", ["lstm", "gru", "tanh"])
def test_rnn_without_states(handle, rng, mode):
    """hx / cx / dhy / dcy absent: zero initial states and zero final-state gradients."""
    _run_case(handle, rng, mode, 2, False, True, layers=2, batches=[2, 2, 1], with_hx=False,
              with_dhy=False)


# How a GPU runs fp16 / bf16 products: on tensor cores from 16-bit operand copies (where the GPU
# has them), or staged through fp32 on the SGEMM (a GPU without them; the test hook forces it).
# The CPU has one path, so there both parameters run it.
PRODUCTS = ["tensor-cores", "fp32-staged"]


def _products(monkeypatch, products):
    if products == "fp32-staged":
        monkeypatch.setenv("MIOPEN_CY_DEBUG_RNN_FP32_PRODUCTS", "1")
    else:
        monkeypatch.delenv("MIOPEN_CY_DEBUG_RNN_FP32_PRODUCTS", raising=False)


@pytest.mark.parametrize("products", PRODUCTS)
@pytest.mark.parametrize("dt", FLOAT_TYPES)
@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_rnn_storage_types(handle, rng, monkeypatch, dt, mode, products):
    """fp16 / bf16 storage: fp32 sums; compared with float64 torch on the same rounded inputs
    and weights."""
    _products(monkeypatch, products)
    _run_case(handle, rng, mode, 2, False, True, layers=2, batches=[3, 2, 2], dt=dt)


@pytest.mark.parametrize("split", [0, 3])
@pytest.mark.parametrize("dt", [mi.miopenHalf, mi.miopenBFloat16])
@pytest.mark.parametrize("mode", ["tanh", "lstm", "gru"])
def test_rnn_tensor_core_tiles(handle, rng, monkeypatch, dt, mode, split):
    """16-bit products over several 128 x 128 tiles in each dimension (389 packed rows, 512 gate
    columns; steps of 130 rows), operands in 16-byte chunks (h and the input multiples of 8),
    reverse steps where sequences start; split 3: the tensor-core GEMM's split over k forced
    (MIOPEN_CY_DEBUG_GEMM_MMA_SPLIT), its parts added by the gate passes. Not ReLU at this size:
    among 50000 pre-activations some lie within the 16-bit operands' rounding of 0, where ReLU's
    derivative flips between 0 and 1 against the float64 reference (an error of order 1 in dx;
    the emulated GPU test covers ReLU on the tensor-core path at small sizes)."""
    _products(monkeypatch, "tensor-cores")
    if split:
        monkeypatch.setenv("MIOPEN_CY_DEBUG_GEMM_MMA_SPLIT", str(split))
    _run_case(handle, rng, mode, 2, False, True, layers=2, batches=[130, 130, 129], dt=dt,
              in_size=16, h=64)


def test_rnn_offsets_match_miopen_formula(handle):
    """getRNNLayerParamOffset / BiasOffset against MIOpen's paramsOffsetCalculation and
    biasOffsetCalculation, restated here from MIOpen's rnn.cpp."""
    for mode, bi, skip, layers, in_size, h in itertools.product(
            ["tanh", "lstm", "gru"], [1, 2], [False, True], [1, 3], [5], [4]):
        n = GATES[mode]
        in_size = h if skip else in_size
        st = Stack(handle, mode, in_size, h, layers, bi, True, skip, F32, [2, 1])
        ivl = 0 if skip else in_size

        def param_off(layer, pid):
            if bi == 2:
                if layer > 1:
                    j = (ivl * h + h * h) * n * 2 + (3 * h * h) * n * (layer // 2 - 1) * 2
                    if pid >= n:
                        j += 2 * h * h * n * 2 + (n * h * h if layer % 2 else 0) + h * h * (pid - n)
                    else:
                        j += (n * 2 * h * h if layer % 2 else 0) + 2 * h * h * pid
                    return j
                if pid >= n:
                    return ivl * h * n * 2 + (n * h * h if layer == 1 else 0) + h * h * (pid - n)
                return (n * ivl * h if layer == 1 else 0) + ivl * h * pid
            if layer > 0:
                return (ivl * h + h * h) * n + 2 * h * h * n * (layer - 1) + h * h * pid
            return (ivl * h * n if pid >= n else 0) + (h * h * (pid - n) if pid >= n else ivl * h * pid)

        def bias_off(layer, bid):
            base = param_off(layers * bi, 0)
            if bi == 2:
                j = 2 * h * n * (layer // 2) * 2 + (h * n if bid >= n else 0)
                j += (n * h if layer % 2 else 0) + h * bid
                return base + j
            return base + 2 * h * n * layer + h * bid

        total = 0
        for li in range(layers * bi):
            for pid in range(2 * n):
                pd = mi.TensorDescriptor()
                if skip and li < bi and pid < n:
                    with pytest.raises(mi.MIOpenError, match="paramID"):
                        mi.getRNNLayerParamOffset(st.rnn, li, st.xd[0], pid, pd)
                else:
                    off = mi.getRNNLayerParamOffset(st.rnn, li, st.xd[0], pid, pd)
                    assert off == param_off(li, pid), (mode, bi, skip, li, pid)
                    total += int(np.prod(pd.shape))
                bd = mi.TensorDescriptor()
                boff = mi.getRNNLayerBiasOffset(st.rnn, li, st.xd[0], pid, bd)
                assert boff == bias_off(li, pid)
                assert tuple(bd.shape) == (h,)
                total += h
        assert total == st.nw
        assert int(np.prod(st.wd.shape)) == st.nw
        assert st.wbytes == 4 * (n * h * bi * (ivl + h + (layers - 1) * (bi + 1) * h)
                                 + layers * 2 * n * h * bi)


def test_rnn_descriptor_roundtrip(handle):
    r = mi.RNNDescriptor()
    mi.setRNNDescriptor(r, 7, 2, mi.miopenRNNskip, mi.miopenRNNbidirection, mi.miopenGRU,
                        mi.miopenRNNwithBias, mi.miopenRNNfundamental, mi.miopenHalf)
    assert mi.getRNNDescriptor(r) == (mi.miopenGRU, mi.miopenRNNfundamental, mi.miopenRNNskip,
                                      mi.miopenRNNbidirection, mi.miopenRNNwithBias, 7, 2)
    v2 = mi.getRNNDescriptor_V2(r)
    assert v2[:2] == (7, 2) and v2[2] is None and v2[-1] == mi.miopenHalf
    assert mi.getRNNPaddingMode(r) == mi.miopenRNNIONotPadded
    mi.setRNNPaddingMode(r, mi.miopenRNNIOWithPadding)
    assert mi.getRNNPaddingMode(r) == mi.miopenRNNIOWithPadding
    with pytest.raises(mi.MIOpenError, match="paddingMode"):
        mi.setRNNPaddingMode(r, 5)
    mi.destroyRNNDescriptor(r)
    with pytest.raises(ValueError):
        mi.getRNNDescriptor(r)


@pytest.mark.parametrize("args,match", [
    ((0, 1, 0, 0, 0, 0, 0, F32), "hsize"),
    ((4, 0, 0, 0, 0, 0, 0, F32), "nlayers"),
    ((4, 1, 2, 0, 0, 0, 0, F32), "inMode"),
    ((4, 1, 0, 2, 0, 0, 0, F32), "direction"),
    ((4, 1, 0, 0, 4, 0, 0, F32), "rnnMode"),
    ((4, 1, 0, 0, 0, 2, 0, F32), "biasMode"),
    ((4, 1, 0, 0, 0, 0, 2, F32), "algo"),
    ((4, 1, 0, 0, 0, 0, 0, mi.miopenInt8), "dataType"),
])
def test_rnn_descriptor_refused(args, match):
    r = mi.RNNDescriptor()
    with pytest.raises(mi.MIOpenError, match=match):
        mi.setRNNDescriptor(r, *args)
    with pytest.raises(mi.MIOpenError, match="not set"):
        mi.getRNNDescriptor(r)


def test_rnn_sizes(handle):
    st = Stack(handle, "lstm", 5, 4, 2, 2, True, False, F32, [3, 2])
    assert mi.getRNNInputTensorSize(handle, st.rnn, 2, st.xd) == 5 * 5 * 4
    assert mi.getRNNHiddenTensorSize(handle, st.rnn, 2, st.xd) == 3 * 4 * 2 * 2 * 4
    assert mi.getRNNLayerParamSize(handle, st.rnn, 0, st.xd[0], 0) == 4 * 5 * 4
    assert mi.getRNNLayerParamSize(handle, st.rnn, 2, st.xd[0], 0) == 4 * 8 * 4
    assert mi.getRNNLayerParamSize(handle, st.rnn, 2, st.xd[0], 4) == 4 * 4 * 4
    assert mi.getRNNLayerBiasSize(handle, st.rnn, 3, 7) == 4 * 4
    with pytest.raises(mi.MIOpenError, match="layer"):
        mi.getRNNLayerParamSize(handle, st.rnn, 4, st.xd[0], 0)
    with pytest.raises(mi.MIOpenError, match="paramID"):
        mi.getRNNLayerParamSize(handle, st.rnn, 0, st.xd[0], 8)
    with pytest.raises(mi.MIOpenError, match="biasID"):
        mi.getRNNLayerBiasSize(handle, st.rnn, 0, 8)
    with pytest.raises(ValueError, match="sequenceLen"):
        mi.getRNNWorkspaceSize(handle, st.rnn, 3, st.xd)
    with pytest.raises(mi.MIOpenError, match="sequenceLen"):
        mi.getRNNWorkspaceSize(handle, st.rnn, 0, [])
    grow = [tensor_desc(F32, 2, 5), tensor_desc(F32, 3, 5)]
    with pytest.raises(mi.MIOpenError, match=r"xDesc\[1\].*increase"):
        mi.getRNNWorkspaceSize(handle, st.rnn, 2, grow)
    with pytest.raises(mi.MIOpenError, match="dtype"):
        mi.getRNNParamsSize(handle, st.rnn, st.xd[0], mi.miopenHalf)
    nob = Stack(handle, "gru", 4, 4, 1, 1, False, True, F32, [1])
    with pytest.raises(mi.MIOpenError, match="no biases"):
        mi.getRNNLayerBiasSize(handle, nob.rnn, 0, 0)
    with pytest.raises(mi.MIOpenError, match="skip-input"):
        Stack(handle, "gru", 5, 4, 1, 1, False, True, F32, [1])


def test_rnn_forward_refused_nothing_written(handle, rng):
    st = Stack(handle, "lstm", 5, 4, 2, 1, True, False, F32, [2, 2])
    w = np.zeros(st.nw, np.float32)
    x = np.zeros((st.rows, 5), np.float32)
    hs = (2, 2, 4)

    def run(ws_n=st.ws, rs_n=st.rs, yd=None, hd=None, x_=x):
        y = np.full((st.rows, 4), 7.0, np.float32)
        hy = np.full(hs, 7.0, np.float32)
        try:
            mi.RNNForwardTraining(handle, st.rnn, 2, st.xd, x_, hd or st.hd, None, st.hd, None,
                                  st.wd, w, yd or st.yd, y, hd or st.hd, hy, st.hd, None,
                                  np.zeros(max(ws_n, 1), np.uint8), ws_n,
                                  np.zeros(max(rs_n, 1), np.uint8), rs_n)
        finally:
            assert np.all(y == 7.0) and np.all(hy == 7.0), "written on a refused call"

    with pytest.raises(mi.MIOpenError, match="workSpaceNumBytes"):
        run(ws_n=st.ws - 1)
    with pytest.raises(mi.MIOpenError, match="reserveSpaceNumBytes"):
        run(rs_n=st.rs - 1)
    with pytest.raises(mi.MIOpenError, match="yDesc"):
        run(yd=[tensor_desc(F32, 2, 4), tensor_desc(F32, 1, 4)])
    with pytest.raises(mi.MIOpenError, match="hxDesc"):
        run(hd=tensor_desc(F32, 2, 4, 2))
    with pytest.raises(mi.MIOpenError, match="x"):
        run(x_=np.zeros(3, np.float32))


def test_rnn_dropout_between_layers(handle, rng):
    """Dropout between layers: the mask of the dropout op's generator (Philox) on the packed
    output of layer 0; rate 0 gives the plain stack, and the backward matches torch with the
    mask applied."""
    states, ns = _states(handle)
    dd = mi.DropoutDescriptor()
    mi.setDropoutDescriptor(dd, handle, 0.0, states, ns, 5, False, False,
                            mi.MIOPEN_RNG_PSEUDO_XORWOW)
    st0 = Stack(handle, "gru", 3, 4, 2, 1, True, False, F32, [2, 2, 1], dropout_desc=dd)
    st = Stack(handle, "gru", 3, 4, 2, 1, True, False, F32, [2, 2, 1])
    module = torch_module_for(st, rng)
    w = st.load(module)
    x = rng.uniform(-1, 1, size=(st.rows, 3)).astype(np.float32)
    ys = []
    for s in (st0, st):
        y = poison((s.rows, 4), F32)
        mi.RNNForwardTraining(handle, s.rnn, 3, s.xd, x, None, None, None, None, s.wd, w, s.yd,
                              y, None, None, None, None, np.zeros(s.ws, np.uint8), s.ws,
                              np.zeros(s.rs, np.uint8), s.rs)
        ys.append(y)
    np.testing.assert_array_equal(ys[0], ys[1])
    # rate 1 between layers: layer 1 sees zeros
    mi.setDropoutDescriptor(dd, handle, 1.0, states, ns, 5, False, False,
                            mi.MIOPEN_RNG_PSEUDO_XORWOW)
    st1 = Stack(handle, "gru", 3, 4, 2, 1, True, False, F32, [2, 2, 1], dropout_desc=dd)
    y1 = poison((st1.rows, 4), F32)
    mi.RNNForwardTraining(handle, st1.rnn, 3, st1.xd, x, None, None, None, None, st1.wd, w, st1.yd,
                          y1, None, None, None, None, np.zeros(st1.ws, np.uint8), st1.ws,
                          np.zeros(st1.rs, np.uint8), st1.rs)
    x_pad = unpack(x.astype(np.float64), [2, 2, 1], 3)
    with torch.no_grad():
        m1 = torch.nn.GRU(4, 4, 1, dtype=torch.float64)
        m1.weight_ih_l0.copy_(module.weight_ih_l1)
        m1.weight_hh_l0.copy_(module.weight_hh_l1)
        m1.bias_ih_l0.copy_(module.bias_ih_l1)
        m1.bias_hh_l0.copy_(module.bias_hh_l1)
        yt, _, _, _ = torch_forward(m1, "gru", np.zeros((3, 2, 4)), lengths_of([2, 2, 1]))
    _close(y1, pack(yt.detach().numpy(), [2, 2, 1]), F32, "y with dropout 1")


@pytest.mark.parametrize("layout", [mi.miopenRNNDataSeqMajorNotPadded,
                                    mi.miopenRNNDataSeqMajorPadded,
                                    mi.miopenRNNDataBatchMajorPadded])
@pytest.mark.parametrize("mode", ["lstm", "gru"])
@pytest.mark.parametrize("empty", [False, True], ids=["", "with-empty"])
def test_rnn_seq_tensor_api(handle, rng, layout, mode, empty):
    """miopenRNNForward / BackwardSeqData / BackwardWeightsSeqTensor in each layout, unsorted
    lengths in the padded ones (and a sequence of length 0: its hy is hx, its dhx dhy), against
    torch."""
    h, in_size, bi, layers = 4, 3, 2, 2
    lens = [3, 3, 2, 1] if layout == mi.miopenRNNDataSeqMajorNotPadded else [2, 3, 1, 3]
    if empty:
        lens = lens + [0] if layout == mi.miopenRNNDataSeqMajorNotPadded else [2, 0, 3, 1]
    B, T = len(lens), 4                       # maxSequenceLen 4 > the longest, 3
    st = Stack(handle, mode, in_size, h, layers, bi, True, False, F32, [2, 1])  # for weights
    module = torch_module_for(st, rng)
    w = st.load(module)
    xs, ys = mi.SeqTensorDescriptor(), mi.SeqTensorDescriptor()
    mi.setRNNDataSeqTensorDescriptor(xs, F32, layout, T, B, in_size, lens, None)
    mi.setRNNDataSeqTensorDescriptor(ys, F32, layout, T, B, bi * h, lens, -5.0)
    got = mi.getRNNDataSeqTensorDescriptor(ys, 10)
    assert got[:5] == (F32, layout, T, B, bi * h) and got[5] == lens and got[6] == -5.0
    ws, rs = mi.getRNNTempSpaceSizes(handle, st.rnn, xs, mi.miopenRNNTraining)
    assert mi.getRNNTempSpaceSizes(handle, st.rnn, xs, mi.miopenRNNInference)[1] == 0

    # torch reference on the batch sorted by length
    order = sorted(range(B), key=lambda j: -lens[j])
    x_pad = np.zeros((max(lens), B, in_size))
    for j in range(B):
        x_pad[:lens[j], j] = rng.uniform(-1, 1, size=(lens[j], in_size))
    x_pad = as64(round_to(x_pad, F32))
    hx = rng.uniform(-1, 1, size=(layers * bi, B, h)).astype(np.float32)
    cx = rng.uniform(-1, 1, size=(layers * bi, B, h)).astype(np.float32) if mode == "lstm" else None

    def to_user(pad, n, fill=0.0):           # (maxlen, B, n) -> the layout's array
        if layout == mi.miopenRNNDataSeqMajorNotPadded:
            bt = [sum(1 for L in lens if L > t) for t in range(max(lens))]
            return pack(pad, bt)
        full = np.full((T, B, n), fill)
        full[:pad.shape[0]] = pad
        return full if layout == mi.miopenRNNDataSeqMajorPadded else full.transpose(1, 0, 2).copy()

    x = to_user(x_pad, in_size).astype(np.float32)
    hd = tensor_desc(F32, layers * bi, B, h)
    y = poison(to_user(np.zeros((max(lens), B, bi * h)), bi * h).shape, F32)
    hy = poison(hx.shape, F32)
    cy = poison(hx.shape, F32) if mode == "lstm" else None
    wsb, rsb = np.zeros(ws, np.uint8), np.zeros(rs, np.uint8)
    mi.RNNForward(handle, st.rnn, mi.miopenRNNTraining, xs, x, hd, hx, hy, hd, cx, cy, ys, y, w,
                  st.wbytes, wsb, ws, rsb, rs)

    live = [j for j in order if lens[j] > 0]     # torch packs no empty sequence
    yt, hyt, cyt, (xt, h0, c0) = torch_forward(
        module, mode, x_pad[:, live], [lens[j] for j in live], as64(hx)[:, live],
        as64(cx)[:, live] if cx is not None else None)
    y_ref = np.zeros((max(lens), B, bi * h))
    y_ref[:, live] = yt.detach().numpy()
    for j in range(B):
        y_ref[lens[j]:, j] = -5.0            # the padding marker
    hy_ref = as64(hx).copy()
    hy_ref[:, live] = hyt.detach().numpy()
    _close(y, to_user(y_ref, bi * h, -5.0), F32, "y")
    _close(hy, hy_ref, F32, "hy")
    if mode == "lstm":
        cy_ref = as64(cx).copy()
        cy_ref[:, live] = cyt.detach().numpy()
        _close(cy, cy_ref, F32, "cy")

    dy_pad = np.zeros((max(lens), B, bi * h))
    for j in range(B):
        dy_pad[:lens[j], j] = rng.uniform(-1, 1, size=(lens[j], bi * h))
    dy = to_user(dy_pad, bi * h).astype(np.float32)
    dhy = rng.uniform(-1, 1, size=hx.shape).astype(np.float32)
    dx = poison(x.shape, F32)
    dhx = poison(hx.shape, F32)
    dcx = poison(hx.shape, F32) if mode == "lstm" else None
    dcy = rng.uniform(-1, 1, size=hx.shape).astype(np.float32) if mode == "lstm" else None
    mi.RNNBackwardSeqData(handle, st.rnn, ys, y, dy, hd, hx, dhy, dhx, hd, cx, dcy, dcx, xs, dx,
                          w, st.wbytes, wsb, ws, rsb, rs)
    dw = np.full(st.nw, np.nan, np.float32)
    mi.RNNBackwardWeightsSeqTensor(handle, st.rnn, xs, x, hd, hx, ys, y, dw, st.wbytes, wsb, ws,
                                   rsb, rs)
    loss = (yt * torch.from_numpy(dy_pad[:, live])).sum() + \
        (hyt * torch.from_numpy(as64(dhy)[:, live])).sum()
    if mode == "lstm":
        loss = loss + (cyt * torch.from_numpy(as64(dcy)[:, live])).sum()
    module.zero_grad()
    loss.backward()
    dx_ref = np.zeros((max(lens), B, in_size))
    dx_ref[:, live] = xt.grad.numpy()
    _close(dx, to_user(dx_ref, in_size), F32, "dx")
    dhx_ref = as64(dhy).copy()
    dhx_ref[:, live] = h0.grad.numpy()
    _close(dhx, dhx_ref, F32, "dhx")
    if mode == "lstm":
        dcx_ref = as64(dcy).copy()
        dcx_ref[:, live] = c0.grad.numpy()
        _close(dcx, dcx_ref, F32, "dcx")
    got = st.unload(dw)
    for name, p in module.named_parameters():
        _close(got[name], p.grad.numpy(), F32, f"dw {name}")


def test_seq_tensor_refused():
    d = mi.SeqTensorDescriptor()
    with pytest.raises(mi.MIOpenError, match="layout"):
        mi.setRNNDataSeqTensorDescriptor(d, F32, 0, 3, 2, 4, [1, 1], None)
    with pytest.raises(mi.MIOpenError, match="non-increasing"):
        mi.setRNNDataSeqTensorDescriptor(d, F32, mi.miopenRNNDataSeqMajorNotPadded, 3, 2, 4,
                                         [1, 2], None)
    with pytest.raises(mi.MIOpenError, match=r"sequenceLenArray\[0\]"):
        mi.setRNNDataSeqTensorDescriptor(d, F32, mi.miopenRNNDataSeqMajorPadded, 3, 2, 4,
                                         [4, 2], None)
    with pytest.raises(ValueError, match="batchSize"):
        mi.setRNNDataSeqTensorDescriptor(d, F32, mi.miopenRNNDataSeqMajorPadded, 3, 2, 4, [1],
                                         None)
    with pytest.raises(mi.MIOpenError, match="not set"):
        mi.getRNNDataSeqTensorDescriptor(d, 0)


def test_rnn_padded_packed_api(handle, rng):
    """miopenRNNIOWithPadding in the packed API: each step holds the first step's batch of rows."""
    st = Stack(handle, "lstm", 3, 4, 1, 2, True, False, F32, [3, 2, 1])
    module = torch_module_for(st, rng)
    w = st.load(module)
    mi.setRNNPaddingMode(st.rnn, mi.miopenRNNIOWithPadding)
    ws = mi.getRNNWorkspaceSize(handle, st.rnn, 3, st.xd)
    rs = mi.getRNNTrainingReserveSize(handle, st.rnn, 3, st.xd)
    lens = lengths_of([3, 2, 1])
    x_pad = np.zeros((3, 3, 3))
    for j, L in enumerate(lens):
        x_pad[:L, j] = rng.uniform(-1, 1, size=(L, 3))
    x = x_pad.astype(np.float32).reshape(9, 3)
    y = poison((9, 8), F32)
    mi.RNNForwardTraining(handle, st.rnn, 3, st.xd, x, None, None, None, None, st.wd, w, st.yd, y,
                          None, None, None, None, np.zeros(ws, np.uint8), ws,
                          np.zeros(rs, np.uint8), rs)
    yt, _, _, _ = torch_forward(module, "lstm", x_pad, lens)
    _close(y, yt.detach().numpy().reshape(9, 8), F32, "y padded")


@pytest.mark.parametrize("mode", ["relu", "lstm", "gru"])
def test_rnn_dropout_mask_against_reference(handle, rng, mode):
    """Dropout 0.5 between 3 layers: the Philox masks of the dropout op (layer l at the
    generator's offset + l - 1) applied to layer l - 1's packed output, forward and backward,
    against the float64 NumPy reference (miopen_cy.reference.rnn); state_evo advances the
    offset by layers - 1."""
    from miopen_cy.reference import dropout as dref
    from miopen_cy.reference import rnn as rref
    states, ns = _states(handle)
    dd = mi.DropoutDescriptor()
    seed, p, layers, bi, h, in_size = 77, 0.5, 3, 2, 5, 3
    mi.setDropoutDescriptor(dd, handle, p, states, ns, seed, False, True,
                            mi.MIOPEN_RNG_PSEUDO_XORWOW)
    batches = [3, 3, 2]
    st = Stack(handle, mode, in_size, h, layers, bi, True, False, F32, batches, dropout_desc=dd)
    w = rng.uniform(-0.5, 0.5, size=st.nw).astype(np.float32)
    x = rng.uniform(-1, 1, size=(st.rows, in_size)).astype(np.float32)
    hx = rng.uniform(-1, 1, size=(layers * bi, 3, h)).astype(np.float32)
    lay = rref.Layout(int(MODES[mode]), in_size, h, layers, bi, True, False)
    n = st.rows * bi * h
    keep = [dref.mask(seed, l - 1, n, p).reshape(st.rows, bi * h) for l in range(1, layers)]
    y_ref, hy_ref, cy_ref, cache = rref.forward(lay, as64(w), as64(x), batches, as64(hx),
                                                 drop_keep=keep, rate=p)
    y = poison((st.rows, bi * h), F32)
    hy = poison(hx.shape, F32)
    ws, rs = np.zeros(st.ws, np.uint8), np.zeros(st.rs, np.uint8)
    mi.RNNForwardTraining(handle, st.rnn, 3, st.xd, x, st.hd, hx, None, None, st.wd, w, st.yd, y,
                          st.hd, hy, None, None, ws, st.ws, rs, st.rs)
    _close(y, y_ref, F32, "y")
    _close(hy, hy_ref, F32, "hy")
    assert mi.getDropoutDescriptor(dd, handle)[0] == p
    st_evo = _state_words(states)
    assert int(st_evo[2]) == layers - 1 and int(st_evo[3]) == 0   # offset advanced by layers - 1
    dy = rng.uniform(-1, 1, size=y.shape).astype(np.float32)
    dhy = rng.uniform(-1, 1, size=hx.shape).astype(np.float32)
    dx = poison(x.shape, F32)
    dhx = poison(hx.shape, F32)
    mi.RNNBackwardData(handle, st.rnn, 3, st.yd, y, st.yd, dy, st.hd, dhy, None, None, st.wd, w,
                       st.hd, hx, None, None, st.xd, dx, st.hd, dhx, None, None, ws, st.ws, rs,
                       st.rs)
    dw = np.full(st.nw, np.nan, np.float32)
    mi.RNNBackwardWeights(handle, st.rnn, 3, st.xd, x, st.hd, hx, st.yd, y, st.wd, dw, ws, st.ws,
                          rs, st.rs)
    dx_ref, dhx_ref, _, dw_ref = rref.backward(lay, as64(w), cache, as64(dy), as64(dhy))
    _close(dx, dx_ref, F32, "dx")
    _close(dhx, dhx_ref, F32, "dhx")
    _close(dw, dw_ref, F32, "dw")


def test_rnn_backward_refused_nothing_written(handle, rng):
    """Backward data / weights: a too-small workspace or reserve space, a wrong dhy descriptor
    and a dw descriptor of the wrong type are refused naming the parameter; dx, dhx, dw keep their
    contents."""
    st = Stack(handle, "gru", 3, 4, 1, 2, True, False, F32, [2, 1])
    w = rng.uniform(-0.5, 0.5, size=st.nw).astype(np.float32)
    x = rng.uniform(-1, 1, size=(st.rows, 3)).astype(np.float32)
    y = np.zeros((st.rows, 8), np.float32)
    ws, rs = np.zeros(st.ws, np.uint8), np.zeros(st.rs, np.uint8)
    mi.RNNForwardTraining(handle, st.rnn, 2, st.xd, x, None, None, None, None, st.wd, w, st.yd, y,
                          None, None, None, None, ws, st.ws, rs, st.rs)
    hs = (2, 2, 4)

    def bwd(ws_n=st.ws, rs_n=st.rs, dhyd=None):
        dx = np.full((st.rows, 3), 7.0, np.float32)
        dhx = np.full(hs, 7.0, np.float32)
        try:
            mi.RNNBackwardData(handle, st.rnn, 2, st.yd, y, st.yd, y, dhyd or st.hd,
                               np.zeros(hs, np.float32), None, None, st.wd, w, None, None, None,
                               None, st.xd, dx, st.hd, dhx, None, None, ws, ws_n, rs, rs_n)
        finally:
            assert np.all(dx == 7.0) and np.all(dhx == 7.0), "written on a refused call"

    with pytest.raises(mi.MIOpenError, match="workSpaceNumBytes"):
        bwd(ws_n=st.ws - 4)
    with pytest.raises(mi.MIOpenError, match="reserveSpaceNumBytes"):
        bwd(rs_n=st.rs - 4)
    with pytest.raises(mi.MIOpenError, match="dhyDesc"):
        bwd(dhyd=tensor_desc(F32, 2, 4, 2))
    dw = np.full(st.nw, 7.0, np.float32)
    with pytest.raises(mi.MIOpenError, match="reserveSpaceNumBytes"):
        mi.RNNBackwardWeights(handle, st.rnn, 2, st.xd, x, None, None, st.yd, y, st.wd, dw, ws,
                              st.ws, rs, st.rs - 4)
    half = mi.TensorDescriptor()
    mi.setTensorDescriptor(half, mi.miopenHalf, 1, [2 * st.nw], None)
    with pytest.raises(mi.MIOpenError, match="dw: array dtype"):     # the mirror's check
        mi.RNNBackwardWeights(handle, st.rnn, 2, st.xd, x, None, None, st.yd, y, half, dw, ws,
                              st.ws, rs, st.rs)
    with pytest.raises(mi.MIOpenError, match="dwDesc has data type miopenHalf"):   # the C one
        mi.RNNBackwardWeights(handle, st.rnn, 2, st.xd, x, None, None, st.yd, y, half,
                              dw.ctypes.data, ws, st.ws, rs, st.rs)
    assert np.all(dw == 7.0)


@pytest.mark.parametrize("isa", ["avx512", "avx2", "none"])
@pytest.mark.parametrize("mode,h,batches", [("lstm", 40, [9, 9, 7, 2]), ("gru", 20, [13, 6, 6]),
                                            ("lstm", 256, [16, 16])],
                         ids=["lstm-h40-tails", "gru-h20-tails", "lstm-h256-threads"])
def test_rnn_cpu_step_products_every_isa(handle, rng, monkeypatch, mode, h, batches, isa):
    """The CPU's per-step products (cpu/rnn_gemm.cpp: register tiles of 8 x 32 on AVX-512, 6 x 16
    on AVX2, element by element without either) against torch in every ISA the switch allows,
    on row counts and widths that leave partial tiles (9 rows: 8 + 1, 6 + 3; 4h = 160, h = 40;
    3h = 60) and on a product large enough to be split over threads (16 x 1024 x 256); and the
    same bits in every ISA (one fused multiply-add chain over k per element)."""
    if handle.device != "cpu":
        pytest.skip("the ISA switch is the CPU's")
    monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", isa)
    _run_case(handle, rng, mode, 1, False, True, layers=1, batches=batches, in_size=6, h=h)

    def forward(cap):
        monkeypatch.setenv("MIOPEN_CY_DEBUG_CPU_ISA", cap)
        st = Stack(handle, mode, 6, h, 1, 1, True, False, F32, batches)
        r = np.random.default_rng(7)
        w = r.uniform(-0.2, 0.2, st.nw).astype(np.float32)
        x = r.uniform(-1, 1, (st.rows, 6)).astype(np.float32)
        y = poison((st.rows, h), F32)
        mi.RNNForwardTraining(handle, st.rnn, len(batches), st.xd, x, st.hd, None, st.hd, None,
                              st.wd, w, st.yd, y, st.hd, None, st.hd, None,
                              np.zeros(st.ws, np.uint8), st.ws, np.zeros(st.rs, np.uint8), st.rs)
        return y
    np.testing.assert_array_equal(forward(isa).view(np.uint32), forward("avx512").view(np.uint32))
