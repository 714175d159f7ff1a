"""LeakSanitizer over the leak sweep: runs tools/leak_sweep.py in a child process against the
ASan build of .ci/sanitize (MIOPEN_CY_SANITIZE=ON, installed in /tmp/miopen_cy_sanitize) with
leak detection on, and sorts the leaks LSan reports at exit: those whose allocation stack passes
through libmiopen_cy.so are ours (must be zero); the rest belong to Python, NumPy and friends
(memory they keep until exit by design) and are counted, not judged.

    .ci/sanitize  (builds /tmp/miopen_cy_sanitize; or build it as that script does)
    python3 tools/lsan_report.py [--cycles 300] [--prefix /tmp/miopen_cy_sanitize]
exits 1 when a definite ("Direct") or indirect leak of ours is found."""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def tool(name):
    return subprocess.run(["c++", f"-print-file-name={name}"], capture_output=True, text=True,
                          check=True).stdout.strip()


def parse(text):
    """[(kind, bytes, objects, stack text)] of every leak in an LSan report."""
    leaks = []
    blocks = re.split(r"\n(?=(?:Direct|Indirect) leak of )", text)
    for b in blocks:
        m = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object\(s\)", b)
        if m:
            leaks.append((m.group(1), int(m.group(2)), int(m.group(3)), b))
    return leaks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=300)
    ap.add_argument("--prefix", default="/tmp/miopen_cy_sanitize")
    args = ap.parse_args(argv)
    lib = os.path.join(args.prefix, "miopen_cy", "lib", "libmiopen_cy.so")
    if not os.path.exists(lib):
        sys.exit(f"no sanitized build at {args.prefix}: run .ci/sanitize first")
    logs = tempfile.mkdtemp(prefix="lsan_logs")
    env = dict(os.environ)
    env["PYTHONPATH"] = args.prefix + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["LD_PRELOAD"] = tool("libasan.so") + ":" + tool("libstdc++.so.6")
    env["ASAN_OPTIONS"] = (f"detect_leaks=1:allocator_may_return_null=1:log_path={logs}/lsan:"
                           "fast_unwind_on_malloc=0:malloc_context_size=30")
    env["LSAN_OPTIONS"] = "report_objects=0:exitcode=23"
    env.setdefault("MIOPEN_CY_DEVICE", "cpu")
    cmd = [sys.executable, os.path.join(HERE, "leak_sweep.py"), "--cycles", str(args.cycles),
           "--warmup", "10"]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    print(r.stdout.strip())
    if r.returncode not in (0, 23):
        print(r.stderr[-4000:])
        sys.exit(f"the sweep failed under ASan (exit {r.returncode})")
    leaks = []
    for path in glob.glob(os.path.join(logs, "lsan*")):
        with open(path) as f:
            leaks += parse(f.read())
    # Ours: an allocation stack through the native library (by module, or by source path and
    # name when symbolized).
    native = re.compile(r"libmiopen_cy\.so|/hip/src/|/hip/kernels/| in miopen[A-Z:]")
    ours = [lk for lk in leaks if native.search(lk[3])]
    direct_ours = [lk for lk in ours if lk[0] == "Direct"]
    # Python objects allocated under the Cython module (_mirror): one-time (the module's own
    # dict at import) unless their object count grows with the cycles.
    mirror = [lk for lk in leaks if "_mirror" in lk[3] and lk not in ours]
    per_cycle = [lk for lk in mirror if lk[2] >= args.cycles // 2]
    total_bytes = sum(lk[1] for lk in leaks)
    print(f"lsan_report: {args.cycles} sweep cycles under LeakSanitizer ({lib}): "
          f"{len(ours)} leak(s) through libmiopen_cy ({len(direct_ours)} definite, "
          f"{sum(lk[1] for lk in ours)} bytes); {len(mirror)} under the Cython module "
          f"({sum(lk[2] for lk in mirror)} objects, {sum(lk[1] for lk in mirror)} bytes, "
          f"{len(per_cycle)} growing with the cycles); "
          f"{len(leaks) - len(ours) - len(mirror)} elsewhere (Python and its extensions at exit, "
          f"{total_bytes - sum(lk[1] for lk in ours + mirror)} bytes)")
    for lk in (ours + per_cycle)[:10]:
        print(lk[3][:3000])
    return 1 if ours or per_cycle else 0


if __name__ == "__main__":
    sys.exit(main())
