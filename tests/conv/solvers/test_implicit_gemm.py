"""The GPU implicit-GEMM solvers with a k step of 16 (ConvGpuImplicitGemm{Fwd,Bwd,Wrw}<128x64x16>,
<64x128x16>), each forced alone (MIOPEN_DEBUG_FIND_ONLY_SOLVER) on a GPU handle against PyTorch's
float64 operators in all three directions, outputs NaN-poisoned. The other tiles are forced alone
in tests/conv/test_convolution_gpu.py; the CPU implicit GEMM's variants in tests/conv/test_tuning.py;
that a CPU handle never runs these, in tests/conv/solvers/test_small_c.py. Skipped without a GPU."""
import pytest

import miopen_cy as mi
from support.buffers import rel_l2
from support.conv import BWD, FWD, GPU_CASES, IGEMM_K16, TOL, WRW, reference, run
from support.devices import requires_gpu

pytestmark = pytest.mark.filterwarnings("ignore::miopen_cy.PerformanceWarning")

IGEMM = int(mi.miopenConvolutionAlgoImplicitGEMM)


def gpu_handle():
    return mi.Handle(device="gpu")


@requires_gpu
@pytest.mark.parametrize("case", GPU_CASES, ids=str)
@pytest.mark.parametrize("direction", [FWD, BWD, WRW])
def test_k16_igemm_variants_alone(rng, monkeypatch, case, direction):
    handle = gpu_handle()
    x, w, dy, y_ref, dx_ref, dw_ref = reference(case, rng)
    expect = {FWD: y_ref, BWD: dx_ref, WRW: dw_ref}[direction]
    canonical = {FWD: BWD, BWD: FWD, WRW: WRW}[direction] if case.transpose else direction
    for solver in IGEMM_K16[canonical]:
        monkeypatch.setenv("MIOPEN_DEBUG_FIND_ONLY_SOLVER", solver)
        got = run(handle, case, direction, x, w, dy, algo=IGEMM)
        assert rel_l2(got, expect) <= TOL, solver

