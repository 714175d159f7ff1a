"""The GCN assembly solvers ConvAsm3x3U (MIOpen id 1) and ConvAsm1x1U (id 2): on every device here
(the CPU; an NVIDIA GPU on the GPU machine) they are not applicable and say why, their problem
rules and their toggles (MIOPEN_DEBUG_GCN_ASM_KERNELS, MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U / _1X1U)
are reported through the same error, and switching them off changes no result. Their kernels
themselves are run by the GCN interpreter in tests/gcn/."""
import pytest

import miopen_cy as mi
from support.buffers import rel_l2
from support.conv import FWD, Case, reference, run

DIRECT = int(mi.miopenConvolutionAlgoDirect)
ASM = {"ConvAsm3x3U": ("MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U", 1),
       "ConvAsm1x1U": ("MIOPEN_DEBUG_CONV_DIRECT_ASM_1X1U", 2)}
FITS = {"ConvAsm3x3U": [Case(1, 4, (6, 7), 3, (3, 3), (1, 1), (1, 1), (1, 1)),
                        Case(2, 3, (5, 1000), 2, (3, 3), (1, 1), (1, 1), (1, 1))],
        "ConvAsm1x1U": [Case(2, 5, (6, 7), 3, (1, 1), (0, 0), (1, 1), (1, 1)),
                        Case(1, 3, (7, 9), 4, (1, 1), (0, 0), (2, 2), (1, 1))]}
RULES = [  # (solver, case, reason)
    ("ConvAsm3x3U", Case(1, 2, (6, 6), 2, (5, 5), (2, 2), (1, 1), (1, 1)), "3x3 filters only"),
    ("ConvAsm3x3U", Case(1, 2, (6, 6), 2, (3, 3), (0, 0), (1, 1), (1, 1)), "pads 1, strides 1 and dilations 1"),
    ("ConvAsm3x3U", Case(1, 2, (9, 9), 2, (3, 3), (1, 1), (2, 2), (1, 1)), "pads 1, strides 1 and dilations 1"),
    ("ConvAsm3x3U", Case(1, 2, (9, 9), 2, (3, 3), (1, 1), (1, 1), (2, 2)), "pads 1, strides 1 and dilations 1"),
    ("ConvAsm3x3U", Case(1, 2, (6, 3), 2, (3, 3), (1, 1), (1, 1), (1, 1)), "needs 3 < W <= 1000"),
    ("ConvAsm3x3U", Case(1, 2, (3, 1001), 2, (3, 3), (1, 1), (1, 1), (1, 1)), "needs 3 < W <= 1000"),
    ("ConvAsm3x3U", Case(1, 4, (6, 6), 4, (3, 3), (1, 1), (1, 1), (1, 1), groups=2), "groups = 1 only"),
    ("ConvAsm3x3U", Case(1, 2, (5, 6, 6), 2, (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1)), "2-D convolutions only"),
    ("ConvAsm1x1U", Case(1, 2, (6, 6), 2, (3, 3), (0, 0), (1, 1), (1, 1)), "1x1 filters only"),
    ("ConvAsm1x1U", Case(1, 2, (6, 6), 2, (1, 1), (1, 1), (1, 1), (1, 1)), "pads 0 and dilations 1"),
    ("ConvAsm1x1U", Case(1, 2, (9, 9), 2, (1, 1), (0, 0), (3, 3), (1, 1)), "strides 1x1 or 2x2 only"),
    ("ConvAsm1x1U", Case(1, 2, (9, 9), 2, (1, 1), (0, 0), (1, 2), (1, 1)), "strides 1x1 or 2x2 only"),
    ("ConvAsm1x1U", Case(1, 4, (6, 6), 4, (1, 1), (0, 0), (1, 1), (1, 1), groups=4), "groups = 1 only"),
]


def forced_error(handle, rng, monkeypatch, solver, case):
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
    x, w, dy, *_ = reference(case, rng)
    with pytest.raises(mi.BadParmError) as info:
        run(handle, case, FWD, x, w, dy, algo=DIRECT)
    return str(info.value)


def _device_reason(handle):
    return "this handle is the CPU" if handle.device == "cpu" else "backend (NVIDIA)"


@pytest.mark.parametrize("solver", ASM)
def test_not_applicable_without_an_amd_gpu(handle, rng, monkeypatch, solver):
    for case in FITS[solver]:
        msg = forced_error(handle, rng, monkeypatch, solver, case)
        assert f"{solver} not applicable: the GCN assembly kernel" in msg, msg
        assert "runs only on AMD GPUs (gfx906, gfx908, gfx90a)" in msg and _device_reason(handle) in msg, msg


@pytest.mark.parametrize("solver", ASM)
def test_forced_by_id(handle, rng, monkeypatch, solver):
    """MIOpen's ids: MIOPEN_DEBUG_FIND_ONLY_SOLVER=1 is ConvAsm3x3U, =2 is ConvAsm1x1U."""
    msg = forced_error(handle, rng, monkeypatch, str(ASM[solver][1]), FITS[solver][0])
    assert f"{solver} not applicable" in msg, msg


@pytest.mark.parametrize("solver,case,reason", RULES, ids=lambda v: str(v))
def test_problem_rules_say_why(handle, rng, monkeypatch, solver, case, reason):
    msg = forced_error(handle, rng, monkeypatch, solver, case)
    assert f"{solver} not applicable: {reason}" in msg, msg


@pytest.mark.parametrize("value", ["0", "off", "false", "disabled", "NO"])
@pytest.mark.parametrize("solver", ASM)
def test_gcn_asm_kernels_toggle(handle, rng, monkeypatch, solver, value):
    """MIOPEN_DEBUG_GCN_ASM_KERNELS=0 switches off every assembly solver, checked first (MIOpen's order)."""
    monkeypatch.setenv("MIOPEN_DEBUG_GCN_ASM_KERNELS", value)
    msg = forced_error(handle, rng, monkeypatch, solver, FITS[solver][0])
    assert f"{solver} not applicable: disabled by MIOPEN_DEBUG_GCN_ASM_KERNELS={value}" in msg, msg


@pytest.mark.parametrize("solver", ASM)
def test_solver_toggle(handle, rng, monkeypatch, solver):
    toggle = ASM[solver][0]
    monkeypatch.setenv(toggle, "0")
    msg = forced_error(handle, rng, monkeypatch, solver, FITS[solver][0])
    assert f"{solver} not applicable: disabled by {toggle}=0" in msg, msg
    # the other solver's toggle does not touch this one
    other = next(s for s in ASM if s != solver)
    monkeypatch.delenv(toggle)
    monkeypatch.setenv(ASM[other][0], "0")
    msg = forced_error(handle, rng, monkeypatch, solver, FITS[solver][0])
    assert "disabled by" not in msg.split(f"{solver} not applicable:")[1].split(";")[0], msg


@pytest.mark.parametrize("toggle", ["MIOPEN_DEBUG_GCN_ASM_KERNELS", "MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U",
                                    "MIOPEN_DEBUG_CONV_DIRECT_ASM_1X1U"])
def test_a_bad_toggle_value_names_the_variable(handle, rng, monkeypatch, toggle):
    monkeypatch.setenv(toggle, "maybe")
    case = FITS["ConvAsm3x3U"][0]
    x, w, dy, *_ = reference(case, rng)
    with pytest.raises(mi.BadParmError, match=toggle):
        run(handle, case, FWD, x, w, dy)


@pytest.mark.parametrize("solver", ASM)
@pytest.mark.parametrize("value", [None, "0"])
def test_toggles_change_no_result(handle, rng, monkeypatch, solver, value):
    """With or without the assembly solvers, Find and the Direct algorithm still give the right answer."""
    if value is not None:
        monkeypatch.setenv("MIOPEN_DEBUG_GCN_ASM_KERNELS", value)
    for case in FITS[solver]:
        x, w, dy, y_ref, *_ = reference(case, rng)
        assert rel_l2(run(handle, case, FWD, x, w, dy), y_ref) <= 1e-5
        assert rel_l2(run(handle, case, FWD, x, w, dy, algo=DIRECT), y_ref) <= 1e-5
