#!/bin/bash
# One call on the GPU machine for the "poolfwd" work (issue 6: pooling forward, per-activation
# batch-norm inference): build, the GPU tests of the ops touched, the benchmark rows of those
# ops. Run from the tree's root with the scipy-openblas wheel installed and PYTHONPATH set (see
# perf/RESULTS.md "GPU pooling forward, poolfwd"); logs go to $OUT (or /tmp/poolfwd-out).
set -u
OUT=${OUT:-/tmp/poolfwd-out}
mkdir -p "$OUT"
R=$(pwd)
t0=$(date +%s)
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -q \
    --target /tmp/site --upgrade . -Cbuild-dir=/tmp/build-poolfwd \
    -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "# build: $(( $(date +%s) - t0 )) s"
cd /tmp
t1=$(date +%s)
timeout ${TEST_TIMEOUT:-75} python3 -m pytest -q -rf --maxfail=40 -p no:cacheprovider -c "$R/pyproject.toml" \
    --rootdir "$R" "$R/tests/test_gpu_poolfwd.py" "$R/tests/test_gpu_opsa.py" \
    "$R/tests/test_gpu_fast_paths.py" "$R/tests/test_pooling.py" "$R/tests/test_batchnorm.py" \
    -k "(gpu or cuda or GPU or not cpu) and not train and not test_bwd_ and not activation" \
    > "$OUT/tests.log" 2>&1
echo "# tests rc=$?: $(( $(date +%s) - t1 )) s"
grep -E "passed|failed|error" "$OUT/tests.log" | tail -3
grep -E "^(FAILED|ERROR)" "$OUT/tests.log" | head -20
cd "$R"
t2=$(date +%s)
timeout ${BENCH_TIMEOUT:-80} python3 perf/bench_ops.py --device gpu --repeat 10 \
    --filter "${BENCH_FILTER:-pooling,batchnorm}" > "$OUT/bench.log" 2>&1
echo "# bench rc=$?: $(( $(date +%s) - t2 )) s"
cat "$OUT/bench.log"
