"""The GPU SGEMM's split-k entry (hip/kernels/gemm/sgemm_launch.cpp: LaunchSgemmSplitK and its
chooser) compiled for the host with the tile launcher replaced by a recorder
(tests/ops/sgemm_split_host/): the plans for issue 22's RNN step products on an H200's 132
multiprocessors (a 64-row tile and a split for the batch-64 and batch-16 outputs, none for the
big input product), the workspace cap, the test hook MIOPEN_CY_DEBUG_SGEMM_SPLIT, and that the
parts it reports (which the RNN's gate kernels add) are the parts the launcher makes. Needs the
source tree and a C++ compiler (skips otherwise)."""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HIP = os.path.join(ROOT, "hip")


@pytest.mark.skipif(shutil.which("g++") is None or not os.path.isdir(os.path.join(HIP, "kernels", "gemm")),
                    reason="needs g++ and the source tree")
def test_sgemm_split_k_plans(tmp_path):
    src = os.path.join(HERE, "sgemm_split_host")
    exe = str(tmp_path / "sgemm_split_host")
    cmd = ["g++", "-std=c++17", "-O1", f"-I{HIP}/include", f"-I{HIP}/src", f"-I{HIP}",
           os.path.join(HIP, "kernels", "gemm", "sgemm_launch.cpp"),
           os.path.join(HIP, "src", "core", "env.cpp"), os.path.join(src, "harness.cpp"), "-o", exe]
    built = subprocess.run(cmd, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-4000:]
    env = {k: v for k, v in os.environ.items() if k != "MIOPEN_CY_DEBUG_SGEMM_SPLIT"}
    ran = subprocess.run([exe], capture_output=True, text=True, timeout=300, env=env)
    assert ran.returncode == 0 and "0 failures" in ran.stdout, ran.stdout + ran.stderr
