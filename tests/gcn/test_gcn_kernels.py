"""Both asm/ convolution kernels, executed by the interpreter on generated small problems and
compared with the float64 reference convolution, miopen_cy.reference.conv (relative L2 <= 1e-5).
The output starts as NaN, so an element the kernel never writes fails. Cases cover edge widths (1,
a partial 64-column tile, exactly 64, 65, 66), heights not a multiple of the 4-row tile, C not a
multiple of the 3x3 kernel's 8-channel LDS chunk, K not a multiple of the 1x1 kernel's 4-channel
block, batch > 1, and both strides of the 1x1 kernel. Each chosen case runs under several schedule
seeds (the order in which outstanding memory operations complete and waves interleave, see
gcn_interpreter), so a wait that is too weak fails on some schedule."""
import numpy as np
import pytest

from gcn_conv import run_conv1x1, run_conv3x3
from gcn_tools import TARGETS, require_tools
from miopen_cy.reference import conv as conv_ref


@pytest.fixture(autouse=True)
def _gcn_tools():
    """Every test here needs the LLVM 15 tools: skipped with the reason without them (failed under
    MIOPEN_CY_REQUIRE_GCN_TOOLS=1, as in CI's GCN step)."""
    require_tools()


TOL = 1e-5


def rel_l2(got, ref):
    return float(np.linalg.norm(got.astype(np.float64) - ref) / np.linalg.norm(ref))


def reference(x, w, stride, pad):
    return conv_ref.forward(x, w, (pad, pad), (stride, stride), (1, 1))


def data(seed, n, c, h, wd, k, r):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, h, wd)).astype(np.float32)
    w = rng.standard_normal((k, c, r, r)).astype(np.float32)
    return x, w


#            n  c   h   w  k
CASES_3X3 = [(1, 1, 1, 1, 1), (1, 1, 3, 3, 1), (2, 3, 5, 7, 2), (1, 8, 4, 4, 1),
             (1, 9, 4, 5, 2), (3, 2, 6, 3, 1), (1, 7, 2, 64, 1), (1, 2, 3, 65, 2),
             (1, 1, 5, 66, 1), (2, 1, 9, 2, 3), (1, 16, 3, 3, 1), (1, 17, 2, 3, 1),
             (1, 5, 1, 9, 2), (1, 3, 9, 1, 2), (2, 4, 4, 4, 4), (1, 10, 5, 5, 1),
             (1, 1, 8, 8, 2), (4, 1, 2, 2, 1), (1, 2, 7, 63, 1), (1, 12, 3, 4, 3),
             (2, 6, 1, 1, 2), (1, 3, 2, 129, 1), (1, 24, 2, 2, 1), (3, 3, 3, 3, 3),
             (1, 1, 13, 5, 1), (2, 9, 3, 2, 2)]

#            n  c   h   w  k  stride
CASES_1X1 = [(1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 2), (2, 3, 5, 7, 2, 1), (2, 3, 5, 7, 2, 2),
             (1, 4, 4, 4, 4, 1), (1, 4, 4, 4, 5, 2), (1, 5, 3, 64, 3, 1), (1, 5, 3, 129, 3, 2),
             (1, 2, 2, 65, 1, 1), (1, 2, 2, 130, 1, 2), (1, 1, 5, 66, 7, 1), (1, 2, 9, 2, 6, 2),
             (3, 2, 3, 3, 2, 1), (3, 2, 3, 3, 2, 2), (1, 7, 6, 1, 9, 1), (1, 7, 1, 6, 9, 2),
             (1, 16, 2, 2, 4, 1), (1, 17, 4, 3, 8, 2), (2, 1, 8, 8, 1, 1), (2, 1, 8, 8, 1, 2),
             (1, 3, 13, 5, 2, 1), (1, 3, 14, 5, 2, 2), (4, 2, 2, 2, 3, 1), (4, 2, 3, 3, 3, 2),
             (1, 9, 4, 63, 2, 1), (1, 9, 4, 127, 2, 2)]


SEEDS = (None, 1, 2)     # None: program order, operations complete only when a wait forces them


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("case", CASES_3X3, ids=lambda c: "n{}c{}h{}w{}k{}".format(*c))
def test_conv_fwd_3x3_gcn(case, seed):
    n, c, h, wd, k = case
    x, w = data(hash(case) & 0xFFFF, n, c, h, wd, k, 3)
    y = run_conv3x3(x, w, seed=seed)
    assert y.shape == (n, k, h, wd)
    assert np.isfinite(y).all(), "elements left unwritten (NaN)"
    assert rel_l2(y, reference(x, w, 1, 1)) <= TOL


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("case", CASES_1X1, ids=lambda c: "n{}c{}h{}w{}k{}s{}".format(*c))
def test_conv_fwd_1x1_gcn(case, seed):
    n, c, h, wd, k, s = case
    x, w = data(hash(case) & 0xFFFF, n, c, h, wd, k, 1)
    y = run_conv1x1(x, w, s, seed=seed)
    assert np.isfinite(y).all(), "elements left unwritten (NaN)"
    assert rel_l2(y, reference(x, w, s, 0)) <= TOL


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("mcpu", TARGETS)
def test_each_target_runs(mcpu, seed):
    """The code each target's assembler produced (not only gfx906's) computes the convolution,
    with its waits and without hazards, under each schedule seed."""
    x, w = data(1, 2, 9, 5, 66, 2, 3)
    assert rel_l2(run_conv3x3(x, w, mcpu=mcpu, seed=seed), reference(x, w, 1, 1)) <= TOL
    for s in (1, 2):
        x, w = data(2 + s, 2, 5, 5, 66, 5, 1)
        assert rel_l2(run_conv1x1(x, w, s, mcpu=mcpu, seed=seed), reference(x, w, s, 0)) <= TOL


def test_a_wrong_kernel_is_caught():
    """The check can fail: the same kernel with one tap's weight offset broken gives a wrong result."""
    from gcn_conv import _disassembly
    from gcn_interpreter import Interpreter
    text = _disassembly("conv_fwd_3x3_gcn", "gfx906")
    broken = text.replace("ds_read_b32 v34, v16 offset:32", "ds_read_b32 v34, v16 offset:28", 1)
    assert broken != text
    x, w = data(5, 1, 3, 4, 5, 2, 3)
    y = run_conv3x3(x, w, interp=Interpreter(broken, "conv_fwd_3x3_gcn"))
    assert rel_l2(y, reference(x, w, 1, 1)) > 1e-3


def _random_problems(seed, count):
    rng = np.random.default_rng(seed)
    return [tuple(int(v) for v in (rng.integers(1, 4), rng.integers(1, 20), rng.integers(1, 10),
                                   rng.integers(1, 140), rng.integers(1, 10))) for _ in range(count)]


@pytest.mark.parametrize("case", _random_problems(3, 8), ids=lambda c: "n{}c{}h{}w{}k{}".format(*c))
def test_conv_fwd_3x3_gcn_random(case):
    """Random shapes (fixed seed) besides the chosen ones above, each under its own schedule seed."""
    n, c, h, wd, k = case
    x, w = data(sum(case), n, c, h, wd, k, 3)
    y = run_conv3x3(x, w, seed=sum(case))
    assert np.isfinite(y).all() and rel_l2(y, reference(x, w, 1, 1)) <= TOL


@pytest.mark.parametrize("case", _random_problems(1, 8), ids=lambda c: "n{}c{}h{}w{}k{}".format(*c))
@pytest.mark.parametrize("stride", [1, 2])
def test_conv_fwd_1x1_gcn_random(case, stride):
    n, c, h, wd, k = case
    x, w = data(sum(case) + stride, n, c, h, wd, k, 1)
    y = run_conv1x1(x, w, stride, seed=sum(case) + stride)
    assert np.isfinite(y).all() and rel_l2(y, reference(x, w, stride, 0)) <= TOL
