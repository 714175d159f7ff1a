"""Dynamic instruction counts of the GCN assembly kernels (asm/), taken from the test-only
interpreter in tests/gcn/: a rough cost model, since no AMD GPU is available here. For each
kernel and problem it runs one launch and reports, per wave, the instructions executed by class
(VALU, SALU, VMEM, SMEM, LDS, branch/wait/barrier), the FMA share of the VALU work and the
instructions per output element and input channel. These are counts, not times: they say where
the issue slots go (e.g. address arithmetic versus FMAs), not how fast the kernel runs.

    python perf/gcn_instruction_counts.py [--mcpu gfx906]

Needs clang-15, ld.lld-15, llvm-objdump-15 and llvm-readelf-15 (apt-get install llvm-15 clang-15
lld-15), NumPy and pytest (for the test helpers' imports)."""
import argparse
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gcn"))

from gcn_conv import interpreter, run_conv1x1, run_conv3x3  # noqa: E402

CLASSES = [("VALU", lambda op: op.startswith("v_")),
           ("SALU", lambda op: op.startswith("s_") and not op.startswith(("s_load", "s_cbranch", "s_branch",
                                                                             "s_waitcnt", "s_barrier", "s_endpgm"))),
           ("SMEM", lambda op: op.startswith("s_load")),
           ("VMEM", lambda op: op.startswith(("global_", "buffer_"))),
           ("LDS", lambda op: op.startswith("ds_")),
           ("control", lambda op: op.startswith(("s_cbranch", "s_branch", "s_waitcnt", "s_barrier", "s_endpgm")))]


def classify(counts):
    out = Counter()
    for op, n in counts.items():
        for name, test in CLASSES:
            if test(op):
                out[name] += n
                break
        else:
            out["other"] += n
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcpu", default="gfx906", choices=["gfx906", "gfx908", "gfx90a"])
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    problems = [("conv_fwd_3x3_gcn", (1, 8, 4, 64, 1, 1)), ("conv_fwd_3x3_gcn", (1, 16, 4, 64, 1, 1)),
                ("conv_fwd_3x3_gcn", (2, 9, 8, 64, 2, 1)),
                ("conv_fwd_1x1_gcn", (1, 16, 4, 64, 4, 1)), ("conv_fwd_1x1_gcn", (1, 32, 4, 64, 4, 1)),
                ("conv_fwd_1x1_gcn", (1, 16, 8, 128, 4, 2))]
    print(f"# dynamic instruction counts per wave, interpreter, {args.mcpu} code object")
    print(f"{'kernel':18} {'n c h w k s':>16} {'waves':>6} {'VALU':>7} {'FMA':>7} {'SALU':>7} {'SMEM':>6} "
          f"{'VMEM':>6} {'LDS':>6} {'ctrl':>6} {'FMA/VALU':>9} {'instr/(out*c)':>14}")
    for kernel, (n, c, h, w, k, s) in problems:
        interp = interpreter(kernel, args.mcpu)
        x = rng.standard_normal((n, c, h, w)).astype(np.float32)
        if kernel == "conv_fwd_3x3_gcn":
            wt = rng.standard_normal((k, c, 3, 3)).astype(np.float32)
            y = run_conv3x3(x, wt, mcpu=args.mcpu, interp=interp)
            waves = 4 * -(-w // 64) * -(-h // 4) * k
        else:
            wt = rng.standard_normal((k, c, 1, 1)).astype(np.float32)
            y = run_conv1x1(x, wt, s, mcpu=args.mcpu, interp=interp)
            waves = 4 * -(-y.shape[3] // 64) * -(-y.shape[2] // 4) * -(-k // 4)
        cls = classify(interp.counts)
        fma = interp.counts["v_fmac_f32_e32"]
        total = sum(interp.counts.values())
        per = total / (y.size * c)
        print(f"{kernel:18} {f'{n} {c} {h} {w} {k} {s}':>16} {waves:>6} {cls['VALU'] // waves:>7} "
              f"{fma // waves:>7} {cls['SALU'] // waves:>7} {cls['SMEM'] // waves:>6} {cls['VMEM'] // waves:>6} "
              f"{cls['LDS'] // waves:>6} {cls['control'] // waves:>6} {fma / cls['VALU']:>9.2f} {per:>14.3f}")


if __name__ == "__main__":
    main()
