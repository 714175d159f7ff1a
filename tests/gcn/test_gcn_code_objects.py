"""Every asm/ kernel assembles for gfx906, gfx908 and gfx90a, and each code object's metadata is
consistent with the host and with the code: symbol and descriptor present, kernel-argument size
and offsets equal to the host struct in conv_asm_args.hpp, the VGPRs / SGPRs the code touches
within what the descriptor reserves and within the target's limits, LDS within 64 KiB."""
import re

import pytest

from gcn_tools import (ARGS_HEADER, HOST_STRUCT, KERNELS, TARGETS, assemble, disassemble,
                       host_struct_offsets, host_struct_sizes, kernel_descriptor, metadata,
                       require_tools)


@pytest.fixture(autouse=True)
def _gcn_tools():
    """Every test here needs the LLVM 15 tools: skipped with the reason without them (failed under
    MIOPEN_CY_REQUIRE_GCN_TOOLS=1, as in CI's GCN step)."""
    require_tools()


CASES = [(k, t) for k in KERNELS for t in TARGETS]
IDS = [f"{k}-{t}" for k, t in CASES]
MAX_SGPRS = 102          # gfx9 addressable SGPRs, VCC included
MAX_ARCH_VGPRS = 256
MAX_LDS = 65536


def used_registers(text, kind):
    """The highest register index of `kind` ('s' or 'v') the disassembly names, or -1."""
    top = -1
    for m in re.finditer(r"\b%s(?:\[(\d+):(\d+)\]|(\d+))\b" % kind, text):
        top = max(top, int(m.group(2) or m.group(3)))
    return top


@pytest.mark.parametrize("kernel,target", CASES, ids=IDS)
def test_metadata_matches_the_host_struct(kernel, target):
    co = assemble(kernel, target)
    md = metadata(co)
    assert kernel in md, f"no metadata for {kernel}"
    k = md[kernel]
    assert k["symbol"] == kernel + ".kd"
    struct = HOST_STRUCT[kernel]
    size = host_struct_sizes()[struct]
    assert k["kernarg_segment_size"] == size, f"{struct} is {size} bytes ({ARGS_HEADER.name})"
    assert kernel_descriptor(co, kernel)["kernarg_size"] == size
    offsets = host_struct_offsets()[struct]
    assert {a["name"]: a["offset"] for a in k["args"]} == offsets
    assert sum(a["size"] for a in k["args"]) == size
    assert k["wavefront_size"] == 64
    assert k["max_flat_workgroup_size"] == 256


@pytest.mark.parametrize("kernel,target", CASES, ids=IDS)
def test_registers_and_lds_within_limits(kernel, target):
    co = assemble(kernel, target)
    text = disassemble(co)
    k = metadata(co)[kernel]
    kd = kernel_descriptor(co, kernel)
    top_v, top_s = used_registers(text, "v"), used_registers(text, "s")
    assert top_v < k["vgpr_count"] <= MAX_ARCH_VGPRS
    # the descriptor reserves whole granules (4 VGPRs; 8 on gfx90a) covering the metadata's count
    granule = 8 if target == "gfx90a" else 4
    assert kd["vgpr_granules"] * granule >= k["vgpr_count"]
    if target == "gfx90a":
        assert kd["accum_offset"] >= k["vgpr_count"]   # arch VGPRs end before the AGPRs
    assert top_s + 1 + 2 <= k["sgpr_count"] <= MAX_SGPRS   # + VCC
    assert kd["sgpr_granules"] * 16 >= top_s + 1
    assert k["group_segment_fixed_size"] == kd["group_segment_fixed_size"] <= MAX_LDS
    assert kd["private_segment_fixed_size"] == 0


@pytest.mark.parametrize("kernel", KERNELS)
def test_each_source_documents_its_kernargs_and_registers(kernel):
    """Each .s starts with its kernel-argument byte layout and initial register state; the layout
    table agrees with the host struct."""
    src = KERNELS[kernel].read_text()
    head = src[:src.index(".include")]
    assert "Kernel arguments" in head and "Initial register state" in head
    table = {m.group(3): int(m.group(1)) for m in
             re.finditer(r"^//\s+(\d+)\s+(\d+)\s+(\w+)\s", head, re.M)}
    assert table == host_struct_offsets()[HOST_STRUCT[kernel]]
