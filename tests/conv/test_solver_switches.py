"""Every convolution solver's own switch (MIOpen's variable where MIOpen's solver has one, else the
derived MIOPEN_DEBUG_CONV_<NAME>), MIOPEN_DEBUG_AMD_ROCM_PRECOMPILED_BINARIES, the other MIOpen
variables with a meaning here (immediate-mode fallback, deterministic, logging prefixes), the
solver-listing extension calls (miopenCyGetSolver*), and README's solver table."""
import os
import re

import numpy as np
import pytest

import miopen_cy as mi
from miopen_cy.driver.solvers import registry, registry_table
from support.buffers import desc

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")

# Looked up in MIOpen's sources (MIOPEN_DECLARE_ENV_VAR_BOOL in src/solver/conv/*.cpp).
MIOPEN_SWITCHES = {
    "ConvDirectNaiveConvFwd": "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD",
    "ConvDirectNaiveConvBwd": "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_BWD",
    "ConvDirectNaiveConvWrw": "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_WRW",
    "ConvMPBidirectWinograd<2-3>": "MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_F2X3",
    "ConvMPBidirectWinograd<4-3>": "MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_F4X3",
    "ConvWinograd3x3MultipassWrW<5-3>": "MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_F5X3",
    "ConvWinograd3x3MultipassWrW<5-4>": "MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_F5X4",
    "ConvAsm3x3U": "MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U",
    "ConvAsm1x1U": "MIOPEN_DEBUG_CONV_DIRECT_ASM_1X1U",
    "fft": "MIOPEN_DEBUG_CONV_FFT",
    "ConvHipImplicitGemmFwdXdlops": "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS",
    "ConvHipImplicitGemmGroupFwdXdlops": "MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS",
    "ConvHipImplicitGemm3DGroupFwdXdlops": "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS",
    "ConvHipImplicitGemmBwdXdlops": "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS",
    "ConvHipImplicitGemmGroupBwdXdlops": "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_GROUP_BWD_XDLOPS",
    "ConvHipImplicitGemm3DGroupBwdXdlops": "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS",
    "ConvHipImplicitGemmGroupWrwXdlops": "MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS",
    "ConvHipImplicitGemm3DGroupWrwXdlops": "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS",
}

DIRECTIONS = {"fwd": mi.miopenProblemDirectionForward, "bwd": mi.miopenProblemDirectionBackward,
              "wrw": mi.miopenProblemDirectionBackwardWeights}


def derived(name):
    """README's rule, written independently of the library's."""
    if name.startswith("Conv"):
        name = name[4:]
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    name = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")
    return "MIOPEN_DEBUG_CONV_" + name.upper()


def shapes(n=2, c=8, k=8, hw=10, f=3):
    x = desc((n, c, hw, hw))
    w = desc((k, c, f, f))
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 1, 1, 1, 1, 1, 1)
    y = desc(tuple(mi.getConvolutionForwardOutputDim(cd, x, w)))
    return x, w, y, cd


def problem(direction, f=3):
    x, w, y, cd = shapes(f=f)
    p = mi.ConvProblem(cd, DIRECTIONS[direction])
    mi.setProblemTensorDescriptor(p, mi.miopenTensorConvolutionX, x)
    mi.setProblemTensorDescriptor(p, mi.miopenTensorConvolutionW, w)
    mi.setProblemTensorDescriptor(p, mi.miopenTensorConvolutionY, y)
    return p


def test_every_solver_has_its_switch():
    rows = registry()
    assert len(rows) == mi.cyGetSolverCount()
    for sid, name, algo, switch in rows:
        assert switch == MIOPEN_SWITCHES.get(name, derived(name)), name
    assert len({r[3] for r in rows}) == len(rows)          # no two solvers share a switch
    assert set(MIOPEN_SWITCHES) <= {r[1] for r in rows}


def test_solver_id_name_and_info_calls():
    assert mi.cyGetSolverIdName(85) == "ConvDirectNaiveConvFwd"
    for i in range(mi.cyGetSolverCount()):
        sid, name, algo, _ = mi.cyGetSolverInfo(i)
        assert mi.cyGetSolverIdName(sid) == name
        assert mi.getSolverIdConvAlgorithm(sid) == algo
    with pytest.raises(mi.BadParmError, match="solverId = 999999 is not the id of any solver"):
        mi.cyGetSolverIdName(999999)
    with pytest.raises(mi.BadParmError, match="index"):
        mi.cyGetSolverInfo(mi.cyGetSolverCount())


CPU_CASES = [(d, f) for d in DIRECTIONS for f in (1, 3, 5)]


@pytest.mark.parametrize("direction,f", CPU_CASES, ids=[f"{d}-f{f}" for d, f in CPU_CASES])
def test_each_applicable_solver_switches_off_by_its_variable(monkeypatch, direction, f):
    h = mi.Handle(device="cpu")
    p = problem(direction, f)
    applicable = [(sid, name, sw) for sid, name, _, sw in registry()
                  if mi.cyGetSolverApplicability(h, p, sid)[1]]
    assert applicable
    for sid, name, sw in applicable:
        monkeypatch.setenv(sw, "0")
        on, ok, ws, why = mi.cyGetSolverApplicability(h, p, sid)
        assert not on and not ok, name
        assert why == f"disabled by {sw}=0", (name, why)
        others = [s for s, _, _ in applicable if s != sid]
        assert all(mi.cyGetSolverApplicability(h, p, s)[1] for s in others), name
        monkeypatch.delenv(sw)


def test_a_switched_off_solver_is_absent_from_immediate_mode_and_named_when_forced(monkeypatch):
    h = mi.Handle(device="cpu")
    x, w, y, cd = shapes()
    ids = {s.solution_id for s in mi.convolutionForwardGetSolution(h, w, x, cd, y, 64)}
    assert 85 in ids
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD", "off")
    ids = {s.solution_id for s in mi.convolutionForwardGetSolution(h, w, x, cd, y, 64)}
    assert 85 not in ids and ids
    monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvDirectNaiveConvFwd")
    xa = np.random.default_rng(0).random((2, 8, 10, 10), dtype=np.float32)
    wa = np.random.default_rng(1).random((8, 8, 3, 3), dtype=np.float32)
    ya = np.empty(tuple(mi.getConvolutionForwardOutputDim(cd, x, w)), np.float32)
    with pytest.raises(mi.BadParmError, match="disabled by MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD=off"):
        mi.findConvolutionForwardAlgorithm(h, x, xa, w, wa, cd, y, ya, 4, None, 0, False)


def test_a_bad_switch_value_is_an_error_naming_the_variable(monkeypatch):
    h = mi.Handle(device="cpu")
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_GEMM_FWD_REST", "perhaps")
    with pytest.raises(mi.BadParmError, match="MIOPEN_DEBUG_CONV_GEMM_FWD_REST='perhaps' is not a boolean"):
        mi.cyGetSolverApplicability(h, problem("fwd"), 91)


def test_precompiled_binaries_off_switches_winograd_off(monkeypatch):
    h = mi.Handle(device="cpu")
    for direction in DIRECTIONS:
        p = problem(direction)
        before = {sid: mi.cyGetSolverApplicability(h, p, sid) for sid, *_ in registry()}
        monkeypatch.setenv("MIOPEN_DEBUG_AMD_ROCM_PRECOMPILED_BINARIES", "0")
        for sid, name, algo, _ in registry():
            on, ok, _, why = mi.cyGetSolverApplicability(h, p, sid)
            if algo == "Winograd":
                assert not on and not ok, name
                if before[sid][1]:           # applicable, so the switch is the reason
                    assert why == "disabled by MIOPEN_DEBUG_AMD_ROCM_PRECOMPILED_BINARIES=0", name
            else:
                assert (on, ok) == before[sid][:2], name
        assert any(before[sid][1] for sid, _, algo, _ in registry() if algo == "Winograd")
        monkeypatch.delenv("MIOPEN_DEBUG_AMD_ROCM_PRECOMPILED_BINARIES")


def test_immediate_fallback_variables(monkeypatch):
    h = mi.Handle(device="cpu")
    x, w, y, cd = shapes()
    estimated = [(s.solution_id, s.time) for s in mi.convolutionForwardGetSolution(h, w, x, cd, y, 64)]
    assert estimated
    # MIOPEN_DEBUG_CONV_IMMED_FALLBACK=0: without a find-db record there are no solutions.
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_IMMED_FALLBACK", "0")
    assert mi.convolutionForwardGetSolutionCount(h, w, x, cd, y) == 0
    rng = np.random.default_rng(2)
    xa = rng.random((2, 8, 10, 10), dtype=np.float32)
    wa = rng.random((8, 8, 3, 3), dtype=np.float32)
    ya = np.empty(tuple(mi.getConvolutionForwardOutputDim(cd, x, w)), np.float32)
    ws = np.empty(max(1, mi.convolutionForwardGetWorkSpaceSize(h, w, x, cd, y)), np.uint8)
    mi.findConvolutionForwardAlgorithm(h, x, xa, w, wa, cd, y, ya, 4, ws, ws.nbytes, False)
    recorded = [(s.solution_id, s.time) for s in mi.convolutionForwardGetSolution(h, w, x, cd, y, 64)]
    assert recorded and len(recorded) <= len(estimated)
    monkeypatch.delenv("MIOPEN_DEBUG_CONV_IMMED_FALLBACK")
    # MIOPEN_DEBUG_FORCE_IMMED_MODE_FALLBACK=1: the record is ignored, the estimates answer.
    monkeypatch.setenv("MIOPEN_DEBUG_FORCE_IMMED_MODE_FALLBACK", "1")
    assert [(s.solution_id, s.time) for s in mi.convolutionForwardGetSolution(h, w, x, cd, y, 64)] == estimated


@pytest.mark.parametrize("allow", [False, True])
def test_find_short_of_workspace_stores_no_record_unless_allowed(monkeypatch, allow):
    h = mi.Handle(device="cpu")
    x, w, y, cd = shapes()
    assert mi.convolutionForwardGetWorkSpaceSize(h, w, x, cd, y) > 0     # some solver needs workspace
    if allow:
        monkeypatch.setenv("MIOPEN_FIND_CONV_INSUFFICIENT_WORKSPACE_ALLOW_FINDDB_UPDATE", "1")
    rng = np.random.default_rng(3)
    xa = rng.random((2, 8, 10, 10), dtype=np.float32)
    wa = rng.random((8, 8, 3, 3), dtype=np.float32)
    ya = np.empty(tuple(mi.getConvolutionForwardOutputDim(cd, x, w)), np.float32)
    perf = mi.findConvolutionForwardAlgorithm(h, x, xa, w, wa, cd, y, ya, 4, None, 0, False)
    assert perf and all(p.memory == 0 for p in perf)
    monkeypatch.setenv("MIOPEN_DEBUG_CONV_IMMED_FALLBACK", "0")          # list the record alone
    assert (mi.convolutionForwardGetSolutionCount(h, w, x, cd, y) > 0) == allow


def test_deterministic_variable_overrides_the_attribute(monkeypatch):
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 0, 0, 1, 1, 1, 1)
    assert mi.getConvolutionAttribute(cd, mi.MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC) == 0
    monkeypatch.setenv("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", "1")
    assert mi.getConvolutionAttribute(cd, mi.MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC) == 1
    monkeypatch.setenv("MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC", "x")
    with pytest.raises(mi.BadParmError, match="MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC='x' is not an integer"):
        mi.getConvolutionAttribute(cd, mi.MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC)


def test_logging_prefixes(monkeypatch, capfd):
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING", "1")
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING_MPMT", "1")
    monkeypatch.setenv("MIOPEN_ENABLE_LOGGING_ELAPSED_TIME", "1")
    mi.TensorDescriptor()
    err = capfd.readouterr().err
    assert re.search(r"^\d+ MIOpen\(CY\) *\d+\.\d{3}: miopenCreateTensorDescriptor\(", err, re.M), err
    monkeypatch.delenv("MIOPEN_ENABLE_LOGGING_MPMT")
    monkeypatch.delenv("MIOPEN_ENABLE_LOGGING_ELAPSED_TIME")
    mi.TensorDescriptor()
    err = capfd.readouterr().err
    assert re.search(r"^MIOpen\(CY\): miopenCreateTensorDescriptor\(", err, re.M), err


def test_readme_solver_table_is_the_registry():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- solver table: begin[^>]*-->\n(.*?)\n<!-- solver table: end -->", text, re.S)
    assert m, "README.md has no generated solver table"
    assert m.group(1).strip() == registry_table(), (
        "README's solver table differs from the registry: paste the output of `miopen-driver solvers`")
