#!/bin/bash
# The dwgrp2 device call: build (CUDA, sm_90), the grouped/depthwise GPU tests, then
# bench_conv's extra set, bench_grouped and bench_run_overhead; logs under $OUT.
R=$PWD
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$(date +%s)
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -q . \
    -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
cd /tmp
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 60 python3 -m pytest -q -x -c "$R/pyproject.toml" --rootdir "$R" -p no:cacheprovider \
    "$R/tests/test_conv_gpu_grouped.py" "$R/tests/test_conv_run_choice.py" > "$OUT/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/tests.log"
timeout 50 python3 "$R/perf/bench_conv.py" --device gpu --set extra --repeat 20 > "$OUT/bench_conv.log" 2>&1
echo "bench_conv rc=$? $(( $(date +%s) - t0 )) s"; cat "$OUT/bench_conv.log"
timeout 40 python3 "$R/perf/bench_grouped.py" --repeat 20 > "$OUT/bench_grouped.log" 2>&1
echo "bench_grouped rc=$? $(( $(date +%s) - t0 )) s"; cat "$OUT/bench_grouped.log"
timeout 20 python3 "$R/perf/bench_run_overhead.py" > "$OUT/overhead.log" 2>&1
echo "overhead rc=$? $(( $(date +%s) - t0 )) s"; cat "$OUT/overhead.log"
