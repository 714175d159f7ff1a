"""Assemble, link, disassemble and read the metadata of the GCN kernels in asm/ with Debian's
LLVM 15 (clang-15, ld.lld-15, llvm-objdump-15, llvm-readelf-15). Test-only.

When a tool is missing the tests that need it are skipped with the reason, unless
MIOPEN_CY_REQUIRE_GCN_TOOLS=1 (CI's GCN step), which turns the skip into a failure."""
import hashlib
import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASM_DIR = ROOT / "asm"
TARGETS = ("gfx906", "gfx908", "gfx90a")
KERNELS = {"conv_fwd_3x3_gcn": ASM_DIR / "conv_fwd_3x3_gcn.s",
           "conv_fwd_1x1_gcn": ASM_DIR / "conv_fwd_1x1_gcn.s"}
ARGS_HEADER = ROOT / "hip" / "src" / "conv" / "solver_support" / "conv_asm_args.hpp"
# kernel symbol -> host struct mirroring its kernel arguments (conv_asm_args.hpp)
HOST_STRUCT = {"conv_fwd_3x3_gcn": "ConvAsm3x3Args", "conv_fwd_1x1_gcn": "ConvAsm1x1Args"}

_TOOLS = {"clang": ("clang-15", "clang"), "lld": ("ld.lld-15", "ld.lld"),
          "objdump": ("llvm-objdump-15", "llvm-objdump"), "readelf": ("llvm-readelf-15", "llvm-readelf")}


def tool(name):
    """The path of an LLVM tool, or None."""
    for candidate in _TOOLS[name]:
        path = shutil.which(candidate)
        if path:
            return path
    return None


def require_tools():
    """Skip (or fail, under MIOPEN_CY_REQUIRE_GCN_TOOLS=1) when an LLVM tool is missing."""
    missing = [_TOOLS[n][0] for n in _TOOLS if tool(n) is None]
    if missing:
        why = ("GCN tools missing: " + ", ".join(missing)
               + " (apt-get install llvm-15 clang-15 lld-15)")
        if os.environ.get("MIOPEN_CY_REQUIRE_GCN_TOOLS") == "1":
            pytest.fail(why + "; MIOPEN_CY_REQUIRE_GCN_TOOLS=1 requires them")
        pytest.skip(why)


_CACHE = Path(tempfile.gettempdir()) / f"miopen_cy_gcn_{os.getuid()}"


def _run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{r.stderr}")
    return r.stdout


def assemble_source(source, mcpu, include_dir=ASM_DIR / "include"):
    """Assembles GCN source text for `mcpu` and links it into a code object; returns its path
    (cached by content)."""
    digest = hashlib.sha256((mcpu + "\0" + source + "\0" + "".join(
        p.read_text() for p in sorted(Path(include_dir).glob("*.inc")))).encode()).hexdigest()[:20]
    _CACHE.mkdir(exist_ok=True)
    hsaco = _CACHE / f"{digest}_{mcpu}.hsaco"
    if hsaco.exists():
        return hsaco
    src = _CACHE / f"{digest}.s"
    obj = _CACHE / f"{digest}_{mcpu}.o"
    src.write_text(source)
    _run([tool("clang"), "-x", "assembler", "-target", "amdgcn-amd-amdhsa", f"-mcpu={mcpu}",
          f"-I{include_dir}", "-c", str(src), "-o", str(obj)])
    tmp = hsaco.with_suffix(f".{os.getpid()}.tmp")
    _run([tool("lld"), "-shared", str(obj), "-o", str(tmp)])
    os.replace(tmp, hsaco)
    return hsaco


def assemble(kernel, mcpu="gfx906"):
    return assemble_source(KERNELS[kernel].read_text(), mcpu)


def disassemble(hsaco):
    return _run([tool("objdump"), "-d", str(hsaco)])


def metadata(hsaco):
    """The code object's kernel metadata (llvm-readelf --notes), as {kernel name: fields}, each
    with its scalar fields and an 'args' list of dicts. A small reader for the YAML readelf prints
    (no YAML library needed)."""
    text = _run([tool("readelf"), "--notes", str(hsaco)])
    kernels, kernel, arg, in_args = {}, None, None, False
    for line in text.splitlines():
        m = re.match(r"^(\s*)(- )?\.?([\w.]+):\s*(.*)$", line)
        if not m:
            continue
        indent, dash, key, value = len(m.group(1)), m.group(2), m.group(3), m.group(4).strip()
        if indent == 2 and dash:            # "  - .args:" starts a kernel
            kernel, in_args = {"args": []}, False
        if kernel is None:
            continue
        if indent <= 4 and key == "args":
            in_args = True
            continue
        if indent == 6 and dash and in_args:   # "      - .name: ..." starts an argument
            arg = {}
            kernel["args"].append(arg)
        if in_args and indent >= 6 and arg is not None:
            arg[key] = _scalar(value)
            continue
        if indent in (2, 4):
            in_args = False
            kernel[key] = _scalar(value)
            if key == "name":
                kernels[value] = kernel
    return kernels


def _scalar(v):
    try:
        return int(v, 0)
    except ValueError:
        return v


def kernel_descriptor(hsaco, kernel):
    """The 64-byte kernel descriptor `<kernel>.kd`, decoded (AMDGPUUsage, code object v3+)."""
    syms = _run([tool("readelf"), "-s", "-W", str(hsaco)])
    secs = _run([tool("readelf"), "-S", "-W", str(hsaco)])
    m = re.search(r"\s([0-9a-f]+)\s+64\s+OBJECT\s+\w+\s+\w+\s+(\d+)\s+" + re.escape(kernel) + r"\.kd$",
                  syms, re.M)
    assert m, f"{kernel}.kd not in the symbol table"
    addr, shndx = int(m.group(1), 16), int(m.group(2))
    s = re.search(r"\[\s*%d\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)" % shndx, secs)
    sec_addr, sec_off = int(s.group(1), 16), int(s.group(2), 16)
    raw = Path(hsaco).read_bytes()[sec_off + addr - sec_addr:][:64]
    group, private, kernarg = struct.unpack_from("<III", raw, 0)
    rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
    return {"group_segment_fixed_size": group, "private_segment_fixed_size": private,
            "kernarg_size": kernarg, "rsrc1": rsrc1, "rsrc2": rsrc2, "rsrc3": rsrc3,
            "vgpr_granules": (rsrc1 & 0x3F) + 1, "sgpr_granules": ((rsrc1 >> 6) & 0xF) + 1,
            "accum_offset": ((rsrc3 & 0x3F) + 1) * 4}


def host_struct_sizes(header=ARGS_HEADER):
    """{struct name: size} from the static_asserts on sizeof in conv_asm_args.hpp."""
    text = Path(header).read_text()
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"static_assert\(sizeof\((\w+)\)\s*==\s*(\d+)", text)}


def host_struct_offsets(header=ARGS_HEADER):
    """{struct name: {field: offset}} from the static_asserts on offsetof in conv_asm_args.hpp."""
    out = {}
    for m in re.finditer(r"static_assert\(offsetof\((\w+),\s*(\w+)\)\s*==\s*(\d+)", Path(header).read_text()):
        out.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
    return out
