#!/bin/bash
# A/B of GPU convolution between source trees on one GPU machine, in one call: each tree is built
# into its own --target, the GPU conv tests run on every tree but the first, then
# perf/bench_conv.py (--set all --repeat 20) runs once per tree, in the order given. Ratios vs cuDNN
# are in-process; absolute times can drift between the runs (compare the peer column too).
# Usage: perf/ab_conv_gpu.sh OUTDIR TREE [TREE...]   (a TREE may carry CUDA flags: dir:-DFOO=1)
# Needs scipy-openblas32 importable (PYTHONPATH) for the build.
set -u
out=$1; shift; mkdir -p "$out"; t0=$SECONDS; i=0; names=()
for spec in "$@"; do
  src=${spec%%:*}; flags=""; [[ $spec == *:* ]] && flags=${spec#*:}
  n=$i; names+=("$n:$src"); i=$((i + 1))
  ( cd "$src" && CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-5} python3 -m pip install --no-build-isolation --no-deps -q \
      --target /tmp/ab_s$n . -Cbuild-dir=/tmp/ab_b$n -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 \
      "-Ccmake.define.CMAKE_CUDA_FLAGS=$flags" > "$out/build$n.txt" 2>&1; echo "build $n ($spec) rc=$?" ) &
done
wait; echo "builds $((SECONDS - t0)) s"
for e in "${names[@]:1}"; do
  n=${e%%:*}; src=$(cd "${e#*:}" && pwd)
  ( cd /tmp && PYTHONPATH=/tmp/ab_s$n:${PYTHONPATH:-} timeout 120 python3 -m pytest -q -p no:cacheprovider \
      -c "$src/pyproject.toml" --rootdir "$src" "$src/tests/test_conv_gpu.py" "$src/tests/test_conv.py" -k gpu \
      > "$out/t$n.txt" 2>&1; echo "tests $n: $(tail -1 "$out/t$n.txt")" )
done
for e in "${names[@]}"; do
  n=${e%%:*}; src=${e#*:}
  ( cd "$src" && PYTHONPATH=/tmp/ab_s$n:${PYTHONPATH:-} timeout 120 python3 perf/bench_conv.py --device gpu --set all \
      --repeat 20 > "$out/conv$n.txt" 2>&1; echo "bench $n $((SECONDS - t0)) s"; grep '^# [FBW]:' "$out/conv$n.txt" )
done
