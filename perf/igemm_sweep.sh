#!/bin/sh
# Builds perf/igemm_sweep (see igemm_sweep.cu) for sm_90: the tree's conv_igemm.hip with the sweep
# shapes, conv_bwd_smallc.hip, and BASE's conv_igemm.hip (a commit, default HEAD) as Old*.
# Usage: perf/igemm_sweep.sh OUTDIR [BASE]
set -e
out=${1:?outdir}; base=${2:-HEAD}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
inc="-I$root/hip/include -I$root/hip/src -I$root/hip/kernels"
flags="-std=c++17 -O3 -arch=sm_90 -DMIOPEN_CY_HAVE_CUDA=1 -Xptxas -v"
git -C "$root" show "$base:hip/kernels/conv/conv_igemm.hip" > "$out/old_igemm.cu"
nvcc -x cu $flags $inc -DLaunchConvIgemmFwd=OldLaunchConvIgemmFwd -DLaunchConvIgemmBwd=OldLaunchConvIgemmBwd \
  -DLaunchConvIgemmWrw=OldLaunchConvIgemmWrw -c "$out/old_igemm.cu" -o "$out/old.o" 2> "$out/old.ptxas"
nvcc -x cu $flags $inc -c "$root/hip/kernels/conv/conv_bwd_smallc.hip" -o "$out/smallc.o" 2> "$out/smallc.ptxas"
nvcc $flags $inc -c "$root/perf/igemm_sweep.cu" -o "$out/sweep.o" 2> "$out/sweep.ptxas"
nvcc -arch=sm_90 "$out/sweep.o" "$out/old.o" "$out/smallc.o" -o "$out/igemm_sweep"
