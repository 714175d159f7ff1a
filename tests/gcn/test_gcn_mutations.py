"""Mutation tests of the interpreter as a verifier: each mutation is applied to a copy of a kernel's
source in asm/ (a deleted or weakened s_waitcnt, a removed s_barrier, a wrong operand), assembled
and run; the interpreter must catch it (WaitcntError, or a wrong / unwritten output on some
schedule). The unmodified kernels pass under the same seeds (test_gcn_kernels.py)."""
import numpy as np
import pytest

from gcn_conv import run_conv1x1, run_conv3x3
from gcn_interpreter import Interpreter, WaitcntError
from gcn_tools import KERNELS, assemble_source, disassemble, require_tools
from miopen_cy.reference import conv as conv_ref


@pytest.fixture(autouse=True)
def _gcn_tools():
    require_tools()


SEEDS = (0, 1, 2)


def mutate(kernel, old, new, count=1):
    """The kernel's source with the `count`-th occurrence of the line `old` replaced by `new`
    (None deletes it)."""
    lines = KERNELS[kernel].read_text().splitlines()
    hits = [i for i, line in enumerate(lines) if line.split("//")[0].strip() == old]
    assert len(hits) >= count, f"{old!r} not in {kernel} {count} time(s)"
    i = hits[count - 1]
    if new is None:
        del lines[i]
    else:
        lines[i] = "  " + new
    return "\n".join(lines) + "\n"


def run_mutant(kernel, source, seed):
    """Runs the mutant on a problem with several chunks / channel blocks / batches; returns the
    relative L2 error against the reference (inf for a NaN output)."""
    interp = Interpreter(disassemble(assemble_source(source, "gfx906")), kernel, seed=seed)
    rng = np.random.default_rng(7)
    if kernel == "conv_fwd_3x3_gcn":
        x = rng.standard_normal((2, 17, 5, 66)).astype(np.float32)
        w = rng.standard_normal((2, 17, 3, 3)).astype(np.float32)
        y = run_conv3x3(x, w, interp=interp)
        ref = conv_ref.forward(x, w, (1, 1), (1, 1), (1, 1))
    else:
        x = rng.standard_normal((2, 5, 5, 66)).astype(np.float32)
        w = rng.standard_normal((6, 5, 1, 1)).astype(np.float32)
        y = run_conv1x1(x, w, 1, interp=interp)
        ref = conv_ref.forward(x, w, (0, 0), (1, 1), (1, 1))
    if not np.isfinite(y).all():
        return float("inf")
    return float(np.linalg.norm(y.astype(np.float64) - ref) / np.linalg.norm(ref))


def caught(kernel, source):
    """How each seed's run went: 'WaitcntError', 'wrong' or 'ok'."""
    out = []
    for seed in SEEDS:
        try:
            err = run_mutant(kernel, source, seed)
            out.append("wrong" if err > 1e-5 else "ok")
        except WaitcntError:
            out.append("WaitcntError")
    return out


K1, K3 = "conv_fwd_1x1_gcn", "conv_fwd_3x3_gcn"

# (kernel, id, line, replacement, occurrence, how it must be caught: 'WaitcntError' on every
# seed, or 'some' = a wrong output or an error on at least one seed)
MUTATIONS = [
    (K1, "delete-kernarg-wait", "s_waitcnt lgkmcnt(0)", None, 1, "WaitcntError"),
    (K1, "delete-loop-wait", "s_waitcnt vmcnt(0) lgkmcnt(0)", None, 1, "WaitcntError"),
    (K1, "weaken-vmcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(1) lgkmcnt(0)", 1, "WaitcntError"),
    (K1, "drop-lgkmcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(0)", 1, "WaitcntError"),
    (K1, "weaken-lgkmcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(2)", 1, "WaitcntError"),
    (K1, "weaken-kernarg-wait", "s_waitcnt lgkmcnt(0)", "s_waitcnt lgkmcnt(1)", 1, "WaitcntError"),
    (K1, "wrong-weight-register", "v_fmac_f32 v7, s52, v5", "v_fmac_f32 v7, s51, v5", 1, "some"),
    (K3, "delete-kernarg-wait", "s_waitcnt lgkmcnt(0)", None, 1, "WaitcntError"),
    (K3, "delete-staging-load-wait", "s_waitcnt vmcnt(0)", None, 1, "WaitcntError"),
    (K3, "delete-lds-write-wait", "s_waitcnt lgkmcnt(0)", None, 2, "some"),
    (K3, "delete-loop-wait", "s_waitcnt vmcnt(0) lgkmcnt(0)", None, 1, "WaitcntError"),
    (K3, "weaken-vmcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(1) lgkmcnt(0)", 1, "WaitcntError"),
    (K3, "drop-lgkmcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(0)", 1, "WaitcntError"),
    (K3, "weaken-lgkmcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(1)", 1, "WaitcntError"),
    (K3, "remove-first-barrier", "s_barrier", None, 1, "some"),
    (K3, "remove-second-barrier", "s_barrier", None, 2, "some"),
    (K3, "wrong-tap-offset", "ds_read_b32 v34, v16 offset:32", "ds_read_b32 v34, v16 offset:28", 1, "some"),
]


@pytest.mark.parametrize("kernel,name,old,new,count,expect", MUTATIONS,
                         ids=[f"{m[0][9:12]}-{m[1]}" for m in MUTATIONS])
def test_mutation_is_caught(kernel, name, old, new, count, expect):
    results = caught(kernel, mutate(kernel, old, new, count))
    if expect == "WaitcntError":
        assert results == ["WaitcntError"] * len(SEEDS), results
    else:
        assert any(r != "ok" for r in results), results


@pytest.mark.parametrize("kernel", [K1, K3])
def test_the_unmutated_kernel_passes_the_mutation_harness(kernel):
    """The harness itself: the original source, through the same path, passes on every seed."""
    assert caught(kernel, KERNELS[kernel].read_text()) == ["ok"] * len(SEEDS)
