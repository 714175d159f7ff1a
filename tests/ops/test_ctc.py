"""CTC loss (descriptor, workspace size, miopenCTCLoss) on every device: losses and gradients
against PyTorch's F.ctc_loss in float64 (reduction='none', log_softmax of the same activations,
gradients through autograd) with both apply_softmax_layer settings, blank 0 and not 0, random
lengths per item with repeated labels and the shortest inputs that fit; the float64 NumPy
reference (miopen_cy.reference.ctc) for unnormalised log probabilities; strided tensors;
determinism; and bad descriptors, lengths, labels and sizes refused naming the parameter with
nothing written."""
import re

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import miopen_cy as mi
from miopen_cy.reference import ctc as ref
from support.buffers import desc, rel_l2
from support.dtypes import as64, np_dtype, poison, round_to

ALGO = mi.MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC
TYPES = [pytest.param(mi.miopenFloat, id="fp32"), pytest.param(mi.miopenHalf, id="fp16")]
# rel L2 of gradients and worst relative loss error: fp32 results of float64-exact sums (CPU) or
# fp64 sums of fp32 log probabilities (GPU); fp16 adds one rounding of each output.
TOL = {mi.miopenFloat: 2e-5, mi.miopenHalf: 1.5e-3}


def make_labels(rng, T, N, C, max_label, blank, repeats=True):
    """(labels, labelLengths, inputLengths): random labels of classes other than the blank, some
    with repeated neighbours; input lengths cycle through the shortest that fits, T, and random."""
    classes = [c for c in range(C) if c != blank]
    labels, ll, il = [], [], []
    for b in range(N):
        L = int(rng.integers(0, max_label + 1))
        lab = [int(v) for v in rng.choice(classes, L)]
        if repeats and L >= 2 and b % 2 == 0:
            for j in range(1, L, 3):
                lab[j] = lab[j - 1]
        while ref.min_input_length(lab) > T:
            lab.pop()
        shortest = ref.min_input_length(lab)
        il.append([shortest, T, int(rng.integers(shortest, T + 1))][b % 3])
        labels += lab
        ll.append(len(lab))
    return labels, ll, il


def ctc_desc(dt=mi.miopenFloat, blank=0, softmax=True):
    d = mi.CTCLossDescriptor()
    mi.setCTCLossDescriptor(d, dt, blank, softmax)
    return d


def run(h, x, labels, ll, il, blank=0, softmax=True, dt=mi.miopenFloat, pd=None, gd=None,
        grads=None, ws_extra=0):
    T, N, C = x.shape if pd is None else pd.shape
    pd = pd or desc((T, N, C), dtype=dt)
    gd = gd or pd
    cd = ctc_desc(dt, blank, softmax)
    n = mi.getCTCLossWorkspaceSize(h, pd, gd, labels, ll, il, ALGO, cd)
    ws = np.zeros(n + ws_extra, np.uint8)
    losses = poison((N,), dt)
    g = poison((T, N, C), dt) if grads is None else grads
    mi.CTCLoss(h, pd, x, labels, ll, il, losses, gd, g, ALGO, cd, ws, n + ws_extra)
    return losses, g


def torch_ctc(x64, labels, ll, il, blank, softmax):
    """(losses, gradients) by PyTorch in float64. softmax: d loss / d x through log_softmax.
    Otherwise x are log probabilities (normalised up to their rounding): the loss of x itself,
    and MIOpen's gradient d loss / d exp(x) = -posterior / exp(x), the posterior from autograd
    through log_softmax (softmax(x) - grad)."""
    z = torch.tensor(x64, requires_grad=True)
    lp = torch.log_softmax(z, 2)
    args = dict(targets=torch.tensor(labels, dtype=torch.long), input_lengths=torch.tensor(il),
                target_lengths=torch.tensor(ll), blank=blank, reduction="none")
    loss = F.ctc_loss(lp, **args)
    loss.sum().backward()
    grad = z.grad.numpy().copy()
    if softmax:
        return loss.detach().numpy(), grad
    loss = F.ctc_loss(torch.tensor(x64), **args).numpy()
    post = torch.softmax(torch.tensor(x64), 2).numpy() - grad
    grad = -post * np.exp(-x64)
    for b, t in enumerate(il):
        grad[t:, b, :] = 0.0
    return loss, grad


def check(losses, grads, want_l, want_g, dt):
    tol = TOL[dt]
    assert np.all(np.isfinite(as64(losses))) and np.all(np.isfinite(as64(grads)))
    np.testing.assert_allclose(as64(losses), want_l, rtol=tol, atol=tol)
    assert rel_l2(as64(grads), want_g) <= tol


CASES = [  # T, N, C, max label
    (1, 2, 3, 1),
    (6, 4, 5, 3),
    (20, 5, 12, 8),
    (50, 3, 30, 20),
]


@pytest.mark.parametrize("dt", TYPES)
@pytest.mark.parametrize("softmax", [True, False], ids=["softmax", "logprobs"])
@pytest.mark.parametrize("blank", ["first", "last"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "t{}-n{}-c{}-l{}".format(*c))
def test_loss_and_gradient_match_torch(handle, rng, dt, softmax, blank, case):
    T, N, C, max_label = case
    blank = 0 if blank == "first" else C - 1
    labels, ll, il = make_labels(rng, T, N, C, max_label, blank)
    if softmax:
        x = round_to(rng.uniform(-3, 3, (T, N, C)), dt)
    else:   # log probabilities
        z = torch.tensor(rng.uniform(-3, 3, (T, N, C)))
        x = round_to(torch.log_softmax(z, 2).numpy(), dt)
    losses, grads = run(handle, x, labels, ll, il, blank, softmax, dt)
    want_l, want_g = torch_ctc(as64(x), labels, ll, il, blank, softmax)
    check(losses, grads, want_l, want_g, dt)


@pytest.mark.parametrize("softmax", [True, False], ids=["softmax", "logprobs"])
def test_reference_matches_torch(rng, softmax):
    """The float64 reference the driver and the unnormalised cases use, against PyTorch."""
    T, N, C = 15, 6, 7
    labels, ll, il = make_labels(rng, T, N, C, 6, 2)
    x = rng.uniform(-3, 3, (T, N, C))
    if not softmax:
        x = torch.log_softmax(torch.tensor(x), 2).numpy()
    losses, grads = ref.ctc_loss(x, labels, ll, il, 2, softmax)
    want_l, want_g = torch_ctc(x, labels, ll, il, 2, softmax)
    np.testing.assert_allclose(losses, want_l, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(grads, want_g, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dt", TYPES)
def test_unnormalised_log_probabilities_match_reference(handle, rng, dt):
    """apply_softmax_layer false takes probs as log probabilities as they are (MIOpen's driver
    feeds it values in [0, 0.01]); the gradient is d loss / d exp(probs)."""
    T, N, C = 12, 4, 6
    labels, ll, il = make_labels(rng, T, N, C, 5, 0)
    x = round_to(rng.uniform(-1.5, 0.5, (T, N, C)), dt)
    losses, grads = run(handle, x, labels, ll, il, 0, False, dt)
    want_l, want_g = ref.ctc_loss(as64(x), labels, ll, il, 0, False)
    check(losses, grads, want_l, want_g, dt)


@pytest.mark.parametrize("softmax", [True, False], ids=["softmax", "logprobs"])
def test_long_labels_span_several_passes_of_the_block(handle, rng, softmax):
    """Labels of more states than a GPU block has threads (2 L + 1 > 256), many classes."""
    T, N, C = 420, 3, 300
    labels, ll, il = _fix_lengths(rng, T, C, 7, [200, 0, 150])     # and an empty label
    x = round_to(rng.uniform(-2, 2, (T, N, C)), mi.miopenFloat)
    if not softmax:
        x = round_to(torch.log_softmax(torch.tensor(as64(x)), 2).numpy(), mi.miopenFloat)
    losses, grads = run(handle, x, labels, ll, il, 7, softmax)
    want_l, want_g = torch_ctc(as64(x), labels, ll, il, 7, softmax)
    check(losses, grads, want_l, want_g, mi.miopenFloat)


def _fix_lengths(rng, T, C, blank, lengths):
    classes = [c for c in range(C) if c != blank]
    labels, il = [], []
    for L in lengths:
        lab = [int(v) for v in rng.choice(classes, L)]
        labels += lab
        il.append(int(rng.integers(ref.min_input_length(lab), T + 1)))
    return labels, list(lengths), il


def test_empty_labels_and_empty_inputs(handle, rng):
    """An empty label: the all-blank path, loss -sum_t log p_t(blank). An item of no time steps
    (and so no labels): loss 0 and a zero gradient, as in PyTorch."""
    T, N, C = 5, 3, 4
    x = round_to(rng.uniform(-2, 2, (T, N, C)), mi.miopenFloat)
    labels, ll, il = [2, 3], [0, 0, 2], [5, 0, 3]
    losses, grads = run(handle, x, labels, ll, il)
    want_l, want_g = torch_ctc(as64(x), labels, ll, il, 0, True)
    check(losses, grads, want_l, want_g, mi.miopenFloat)
    assert losses[1] == 0 and np.all(grads[:, 1, :] == 0)
    lsm = torch.log_softmax(torch.tensor(as64(x)), 2).numpy()
    np.testing.assert_allclose(losses[0], -lsm[:, 0, 0].sum(), rtol=1e-6)


def test_repeats_need_blanks_between(handle, rng):
    """A label of repeats fits exactly in L + repeats steps: one path, blanks between the
    repeats; one step fewer is refused."""
    T, N, C = 5, 1, 3
    x = round_to(rng.uniform(-2, 2, (T, N, C)), mi.miopenFloat)
    losses, grads = run(handle, x, [1, 1, 1], [3], [5])
    lsm = torch.log_softmax(torch.tensor(as64(x)), 2).numpy()[:, 0, :]
    path = [1, 0, 1, 0, 1]
    np.testing.assert_allclose(losses[0], -sum(lsm[t, k] for t, k in enumerate(path)), rtol=1e-6)
    want = np.exp(lsm)
    want[np.arange(5), path] -= 1.0
    np.testing.assert_allclose(grads[:, 0, :], want, atol=1e-6)
    pd = desc((T, N, C))
    with pytest.raises(mi.BadParmError, match=r"inputLengths\[0\] = 4"):
        mi.getCTCLossWorkspaceSize(handle, pd, pd, [1, 1, 1], [3], [4], ALGO, ctc_desc())


def test_strided_probs_and_gradients(handle, rng):
    """probs batch-major in memory ([N, T, C] buffer, a [T, N, C] descriptor) and gradients with
    gaps between rows: the results match the packed call and the gaps stay untouched."""
    T, N, C = 9, 4, 6
    labels, ll, il = make_labels(rng, T, N, C, 4, 0)
    x_ntc = round_to(rng.uniform(-2, 2, (N, T, C)), mi.miopenFloat)
    x = np.ascontiguousarray(x_ntc.transpose(1, 0, 2))
    pd = desc((T, N, C), strides=(C, T * C, 1))
    gp = C + 3
    gd = desc((T, N, C), strides=(N * gp, gp, 1))
    gbuf = np.full(T * N * gp, np.nan, np.float32)
    losses, _ = run(handle, x_ntc, labels, ll, il, pd=pd, gd=gd, grads=gbuf)
    want_l, want_g = run(handle, x, labels, ll, il)
    g = gbuf.reshape(T, N, gp)
    np.testing.assert_array_equal(losses, want_l)
    np.testing.assert_array_equal(g[:, :, :C], want_g)
    assert np.all(np.isnan(g[:, :, C:]))


def test_results_are_deterministic(handle, rng):
    T, N, C = 40, 6, 20
    labels, ll, il = make_labels(rng, T, N, C, 15, 3)
    x = round_to(rng.uniform(-2, 2, (T, N, C)), mi.miopenFloat)
    first = run(handle, x, labels, ll, il, 3)
    for _ in range(2):
        again = run(handle, x, labels, ll, il, 3)
        np.testing.assert_array_equal(again[0], first[0])
        np.testing.assert_array_equal(again[1], first[1])


def test_workspace_may_be_larger_and_unaligned(handle, rng):
    T, N, C = 7, 3, 5
    labels, ll, il = make_labels(rng, T, N, C, 3, 0)
    x = round_to(rng.uniform(-2, 2, (T, N, C)), mi.miopenFloat)
    want = run(handle, x, labels, ll, il)
    got = run(handle, x, labels, ll, il, ws_extra=1000)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


# ---- the descriptor ----------------------------------------------------------------------------

def test_descriptor_defaults_round_trip_and_repr():
    d = mi.CTCLossDescriptor()
    assert mi.getCTCLossDescriptor(d) == (mi.miopenFloat, 0, True)     # MIOpen's defaults
    mi.setCTCLossDescriptor(d, mi.miopenHalf, 5, False)
    assert mi.getCTCLossDescriptor(d) == (mi.miopenHalf, 5, False)
    assert (d.dataType, d.blank_label_id, d.apply_softmax_layer) == (mi.miopenHalf, 5, False)
    assert repr(d) == "CTCLossDescriptor(miopenHalf, blank_label_id=5, apply_softmax_layer=False)"
    assert isinstance(mi.createCTCLossDescriptor(), mi.CTCLossDescriptor)
    assert mi.CTCLossAlgo.MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC == 0


@pytest.mark.parametrize("dt, blank, match", [
    (mi.miopenBFloat16, 0, "dataType = 5 .miopenBFloat16.; CTC loss takes miopenFloat or miopenHalf"),
    (mi.miopenInt32, 0, "dataType = 2 .miopenInt32."),
    (99, 0, "dataType = 99"),
    (mi.miopenFloat, -1, "blank_label_id = -1 is negative"),
])
def test_bad_descriptor_settings_are_refused_and_change_nothing(dt, blank, match):
    d = ctc_desc(mi.miopenFloat, 2, False)
    with pytest.raises(mi.BadParmError, match="miopenSetCTCLossDescriptor: miopenStatusBadParm: " + match):
        mi.setCTCLossDescriptor(d, dt, blank, True)
    assert mi.getCTCLossDescriptor(d) == (mi.miopenFloat, 2, False)


def test_descriptors_die_cleanly():
    """Created and collected, or destroyed and then collected (never destroyed twice)."""
    import gc
    for i in range(2000):
        d = ctc_desc(blank=i % 7)
        if i % 2:
            mi.destroyCTCLossDescriptor(d)
    del d
    gc.collect()
    assert mi.getCTCLossDescriptor(ctc_desc(blank=4)) == (mi.miopenFloat, 4, True)


def test_destroyed_descriptor_raises():
    d = ctc_desc()
    mi.destroyCTCLossDescriptor(d)
    assert repr(d) == "CTCLossDescriptor(destroyed)"
    with pytest.raises(ValueError, match="ctcLossDesc has been destroyed"):
        mi.getCTCLossDescriptor(d)
    with pytest.raises(mi.BadParmError, match="ctcLossDesc is null"):
        mi.getCTCLossDescriptor(None)


# ---- bad calls: refused naming the parameter, nothing written ------------------------------------

def _bad_call(h, **kw):
    """A valid call with the keyword overrides; (exception info, losses, grads, workspace)."""
    T, N, C = 6, 3, 5
    args = dict(pd=desc((T, N, C)), gd=desc((T, N, C)), labels=[1, 2, 2, 3], ll=[2, 0, 2],
                il=[3, 6, 4], cd=ctc_desc(), algo=ALGO, ws=None, nws=None)
    args.update(kw)
    x = np.random.default_rng(0).uniform(-1, 1, (T, N, C)).astype(np.float32)
    losses = np.full(N, np.nan, np.float32)
    g = np.full((T, N, C), np.nan, np.float32)
    nws = args["nws"] if args["nws"] is not None else 1 << 16
    ws = np.full(nws, 0xAB, np.uint8) if args["ws"] is None else args["ws"]
    with pytest.raises(mi.MIOpenError) as info:
        mi.CTCLoss(h, args["pd"], x, args["labels"], args["ll"], args["il"], losses, args["gd"],
                   g, args["algo"], args["cd"], ws, nws)
    assert np.all(np.isnan(losses)) and np.all(np.isnan(g))
    if isinstance(ws, np.ndarray):
        assert np.all(ws == 0xAB)
    return info


@pytest.mark.parametrize("kw, match", [
    (dict(il=[3, 7, 4]), r"inputLengths\[1\] = 7 is not in \[0, 6\]"),
    (dict(il=[3, 6, -1]), r"inputLengths\[2\] = -1 is not in \[0, 6\]"),
    (dict(ll=[2, -1, 3]), r"labelLengths\[1\] = -1 is not in \[0, 6\]"),
    (dict(il=[3, 6, 1]), r"labelLengths\[2\] = 2 with 0 repeated labels needs at least 2 time "
                         r"steps; inputLengths\[2\] = 1"),
    (dict(labels=[1, 1, 2, 3], il=[2, 6, 4]), r"labelLengths\[0\] = 2 with 1 repeated labels "
                                              r"needs at least 3 time steps; inputLengths\[0\] = 2"),
    (dict(labels=[1, 2, 5, 3]), r"labels\[2\] = 5 \(batch item 2, label 0\) is not a class of "
                                r"probsDesc \(0 to 4\)"),
    (dict(labels=[1, -2, 2, 3]), r"labels\[1\] = -2 \(batch item 0, label 1\) is not a class"),
    (dict(labels=[1, 0, 2, 3]), r"labels\[1\] = 0 \(batch item 0, label 1\) is the blank label"),
    (dict(cd="blank5"), r"blank_label_id = 5 of ctcLossDesc is not a class of probsDesc \(0 to 4\)"),
    (dict(gd=desc((6, 3, 4))), r"probsDesc and gradientsDesc have different lengths"),
    (dict(pd=desc((6, 3, 5, 1)), gd=desc((6, 3, 5, 1))), r"probsDesc has 4 dims; CTC loss takes 3"),
    (dict(algo=1), r"algo = 1 is not a miopenCTCLossAlgo_t value"),
    (dict(nws=64), r"workSpaceSize = 64 is less than the \d+ bytes miopenGetCTCLossWorkspaceSize gives"),
    (dict(ws=None, nws=0), r"workSpace is a null pointer|workSpaceSize = 0"),
])
def test_bad_calls_are_refused_naming_the_parameter(handle, kw, match):
    if kw.get("cd") == "blank5":
        kw["cd"] = ctc_desc(blank=5)
    if kw.get("nws") == 0:
        kw["ws"] = np.zeros(0, np.uint8)
    info = _bad_call(handle, **kw)
    assert isinstance(info.value, mi.BadParmError), info.value
    assert info.value.api == "miopenCTCLoss"
    assert re.search(match, str(info.value)), str(info.value)


def test_null_workspace_is_refused(handle):
    info = _bad_call(handle, ws=0, nws=1 << 16)
    assert "workSpace is a null pointer" in str(info.value)


def test_types_bfloat16_not_implemented_double_and_mixed_refused(handle):
    bf = desc((6, 3, 5), dtype=mi.miopenBFloat16)
    pd64 = desc((6, 3, 5), dtype=mi.miopenDouble)
    with pytest.raises(mi.BadParmError, match="probsDesc is miopenFloat but gradientsDesc is miopenHalf"):
        mi.getCTCLossWorkspaceSize(handle, desc((6, 3, 5)), desc((6, 3, 5), dtype=mi.miopenHalf),
                                   [1], [1, 0, 0], [2, 2, 2], ALGO, ctc_desc())
    with pytest.raises(mi.MIOpenNotImplementedError, match="miopenBFloat16; CTC loss takes"):
        mi.getCTCLossWorkspaceSize(handle, bf, bf, [1], [1, 0, 0], [2, 2, 2], ALGO, ctc_desc())
    with pytest.raises(mi.BadParmError, match="probsDesc has data type miopenDouble"):
        mi.getCTCLossWorkspaceSize(handle, pd64, pd64, [1], [1, 0, 0], [2, 2, 2], ALGO, ctc_desc())


@pytest.mark.parametrize("kw, match", [
    (dict(ll=[2, 0]), "labelLengths has 2 entries; probsDesc's batch is 3"),
    (dict(il=[3, 6, 4, 1]), "inputLengths has 4 entries; probsDesc's batch is 3"),
    (dict(labels=[1, 2, 2]), "labels has 3 entries; labelLengths add up to 4"),
])
def test_python_sequences_must_match_the_batch(handle, kw, match):
    info = _bad_call(handle, **kw)
    assert isinstance(info.value, mi.BadParmError) and match in str(info.value)


def test_workspace_size_checks_like_the_call_and_grows_with_labels():
    h = mi.Handle(device="cpu")
    pd = desc((10, 2, 5))
    small = mi.getCTCLossWorkspaceSize(h, pd, pd, [1, 2], [1, 1], [10, 10], ALGO, ctc_desc())
    big = mi.getCTCLossWorkspaceSize(h, pd, pd, [1, 2, 3, 4, 1, 2], [3, 3], [10, 10], ALGO,
                                     ctc_desc())
    assert 0 < small < big
    with pytest.raises(mi.BadParmError, match=r"miopenGetCTCLossWorkspaceSize: .*labels\[0\] = 0 .* is the blank"):
        mi.getCTCLossWorkspaceSize(h, pd, pd, [0, 2], [1, 1], [10, 10], ALGO, ctc_desc())
    # labels given as a NumPy array
    assert mi.getCTCLossWorkspaceSize(h, pd, pd, np.array([1, 2]), np.array([1, 1]),
                                      np.array([10, 10]), ALGO, ctc_desc()) == small


def test_logged_command_runs_in_the_driver(monkeypatch, capfd):
    """MIOPEN_ENABLE_LOGGING_CMD=1 prints MIOpen's line for the call; the command after "] " runs
    in miopen-driver and describes the same problem."""
    import json
    import shlex
    from miopen_cy import driver
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING_CMD", "1")
    h = mi.Handle(device="cpu")
    x = np.random.default_rng(0).uniform(-1, 1, (9, 3, 6)).astype(np.float32)
    run(h, x, [1, 2, 3, 4, 5], [2, 0, 3], [9, 4, 6], blank=0, softmax=False)
    lines = [ln.split("] ", 1)[1] for ln in capfd.readouterr().err.splitlines()
             if "Command [LogCmdCTC] " in ln]
    assert lines == ["miopen-driver ctc -a 0 -b 0 -c 5 -m 0 -n 3 -l 2,0,3 -k 9,4,6"]
    argv = shlex.split(lines[0])
    assert driver.main(argv[1:] + ["--json"]) == 0
    doc = json.loads(capfd.readouterr().out)
    assert doc["problem"] == {"time_steps": 9, "batch": 3, "classes": 6, "blank_label_id": 0,
                              "apply_softmax_layer": False, "input_len": [9, 4, 6],
                              "label_len": [2, 0, 3]}
