"""The GPU RNN's launcher and kernels (hip/kernels/rnn/) compiled for the host with the launches
emulated (tests/ops/rnn_gpu_emulation/) and run against the CPU kernel on the same arguments: the
GPU path's bookkeeping and arithmetic are checked where no GPU is present, under AddressSanitizer
and UBSan. Needs the source tree and a C++ compiler (skips otherwise)."""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HIP = os.path.join(ROOT, "hip")


@pytest.mark.skipif(shutil.which("g++") is None or not os.path.isdir(os.path.join(HIP, "kernels", "rnn")),
                    reason="needs g++ and the source tree")
def test_gpu_rnn_emulated_matches_cpu(tmp_path):
    emu = os.path.join(HERE, "rnn_gpu_emulation")
    exe = str(tmp_path / "rnn_gpu_emulated")
    # AddressSanitizer and UBSan: an index past a buffer's room (the launcher's layouts) fails the
    # test even where the value read is not used.
    cmd = ["g++", "-std=c++17", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
           f"-I{emu}", f"-I{HIP}/include", f"-I{HIP}/src", f"-I{HIP}",
           "-x", "c++", os.path.join(HIP, "kernels", "rnn", "rnn.hip"),
           "-x", "c++", os.path.join(HIP, "kernels", "rnn", "rnn_launch.cpp"),
           os.path.join(HIP, "src", "cpu", "rnn.cpp"), os.path.join(emu, "harness.cpp"), "-o", exe]
    built = subprocess.run(cmd, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-4000:]
    ran = subprocess.run([exe], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0 and "0 failures" in ran.stdout, ran.stdout + ran.stderr
