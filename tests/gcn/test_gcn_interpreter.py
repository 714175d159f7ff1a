"""The interpreter's instruction semantics, each pinned to AMD's "Vega" Instruction Set
Architecture reference guide (gfx9; the section and the manual's pseudo-code are quoted in each
test). Each test assembles a few instructions with clang-15 for gfx906, disassembles them with
llvm-objdump-15 and runs them, so the parser is exercised on real disassembly too."""
import numpy as np
import pytest

from gcn_interpreter import (FULL, POISON, WAVE, HazardError, Interpreter, Memory, MemoryFault,
                             WaitcntError, Wave, check_hazards, parse_disassembly, waitcnt_fields)
from gcn_tools import assemble_source, disassemble, require_tools


@pytest.fixture(autouse=True)
def _gcn_tools():
    """Every test here needs the LLVM 15 tools: skipped with the reason without them (failed under
    MIOPEN_CY_REQUIRE_GCN_TOOLS=1, as in CI's GCN step)."""
    require_tools()


TEMPLATE = """
.text
.globl t
.p2align 8
.type t,@function
t:
{body}
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel t
  .amdhsa_next_free_vgpr 32
  .amdhsa_next_free_sgpr 40
  .amdhsa_group_segment_fixed_size {lds}
.end_amdhsa_kernel
"""


def program(body, lds=0, **kw):
    return Interpreter(disassemble(assemble_source(TEMPLATE.format(body=body, lds=lds), "gfx906")), "t", **kw)


def run(body, s=None, v=None, exec_mask=FULL, mem=None, lds=None, scc=0, **kw):
    interp = program(body, **kw)
    w = Wave(32)
    w.exec, w.scc = exec_mask, scc
    for i, val in (s or {}).items():
        w.s[i] = val
    for i, val in (v or {}).items():
        w.v[i] = np.asarray(val, dtype=np.uint32)
    interp.run_wave(w, mem or Memory(), lds)
    assert w.done
    return w


def f2u(x):
    return int(np.float32(x).view(np.uint32))


LANES = np.arange(WAVE, dtype=np.uint32)


# ---- SOP2 / SOP1 / SOPC ---------------------------------------------------------------------
def test_s_add_u32_sets_scc_to_carry_out():
    """S_ADD_U32: D.u = S0.u + S1.u; SCC = (S0.u + S1.u >= 0x100000000) (carry out)."""
    w = run("s_add_u32 s2, s0, s1", s={0: 0xFFFFFFFF, 1: 2})
    assert w.s[2] == 1 and w.scc == 1
    w = run("s_add_u32 s2, s0, s1", s={0: 5, 1: 7}, scc=1)
    assert w.s[2] == 12 and w.scc == 0


def test_s_addc_u32_adds_scc():
    """S_ADDC_U32: D.u = S0.u + S1.u + SCC; SCC = carry out. Used for the high half of 64-bit adds."""
    w = run("s_add_u32 s2, s0, 4\n  s_addc_u32 s3, s1, 0", s={0: 0xFFFFFFFE, 1: 7})
    assert (w.s[2], w.s[3], w.scc) == (2, 8, 0)


def test_s_sub_u32_borrow_and_wrap():
    """S_SUB_U32: D.u = S0.u - S1.u; SCC = (S1.u > S0.u) (borrow)."""
    w = run("s_sub_u32 s2, s0, 1", s={0: 0})
    assert w.s[2] == 0xFFFFFFFF and w.scc == 1


def test_s_mul_i32_keeps_low_32_bits():
    """S_MUL_I32: D.i = S0.i * S1.i (low 32 bits); SCC unchanged."""
    w = run("s_mul_i32 s2, s0, s1", s={0: 0x10001, 1: 0x10001}, scc=1)
    assert w.s[2] == 0x20001 and w.scc == 1
    w = run("s_mul_i32 s2, s0, 36", s={0: 0xFFFFFFFF})
    assert w.s[2] == (-36) & 0xFFFFFFFF


def test_s_lshl_b32_scc_is_result_nonzero():
    """S_LSHL_B32: D.u = S0.u << S1.u[4:0]; SCC = (D.u != 0)."""
    w = run("s_lshl_b32 s2, s0, 6", s={0: 3})
    assert w.s[2] == 192 and w.scc == 1
    w = run("s_lshl_b32 s2, s0, 31", s={0: 2})
    assert w.s[2] == 0 and w.scc == 0


def test_s_min_u32_unsigned_and_scc():
    """S_MIN_U32: D.u = (S0.u < S1.u) ? S0.u : S1.u; SCC = (S0.u < S1.u)."""
    w = run("s_min_u32 s2, s0, 8", s={0: 0xFFFFFFFF})
    assert w.s[2] == 8 and w.scc == 0
    w = run("s_min_u32 s2, s0, 8", s={0: 3})
    assert w.s[2] == 3 and w.scc == 1


def test_s_cmp_lt_u32_is_unsigned():
    """S_CMP_LT_U32: SCC = (S0.u < S1.u)."""
    assert run("s_cmp_lt_u32 s0, s1", s={0: 0xFFFFFFFF, 1: 4}).scc == 0
    assert run("s_cmp_lt_u32 s0, s1", s={0: 3, 1: 4}).scc == 1


def test_s_cselect_b64():
    """S_CSELECT_B64: D.u64 = SCC ? S0.u64 : S1.u64."""
    w = run("s_cselect_b64 s[2:3], -1, 0", scc=1)
    assert (w.s[2], w.s[3]) == (0xFFFFFFFF, 0xFFFFFFFF)
    w = run("s_cselect_b64 s[2:3], -1, 0", scc=0)
    assert (w.s[2], w.s[3]) == (0, 0)


def test_s_and_b64_scc():
    """S_AND_B64: D.u64 = S0.u64 & S1.u64; SCC = (D.u64 != 0)."""
    w = run("s_and_b64 s[4:5], s[0:1], s[2:3]", s={0: 0xF0, 1: 1, 2: 0x30, 3: 0})
    assert (w.s[4], w.s[5], w.scc) == (0x30, 0, 1)


def test_s_and_saveexec_b64():
    """S_AND_SAVEEXEC_B64: D.u64 = EXEC; EXEC = S0.u64 & EXEC; SCC = (EXEC != 0)."""
    w = run("s_and_saveexec_b64 s[2:3], s[0:1]", s={0: 0xFF, 1: 0}, exec_mask=0x0F0F)
    assert (w.s[2], w.s[3]) == (0x0F0F, 0) and w.exec == 0x0F and w.scc == 1


def test_s_mov_b64_exec_masks_vector_writes():
    """S_MOV_B64 to EXEC: later VALU instructions write only the lanes whose EXEC bit is 1."""
    w = run("s_mov_b64 exec, s[0:1]\n  v_mov_b32 v1, 7", s={0: 0b101, 1: 0}, v={1: np.zeros(WAVE)})
    assert list(w.v[1][:4]) == [7, 0, 7, 0] and not w.v[1][4:].any()


# ---- SOPP ------------------------------------------------------------------------------------
def test_s_cbranch_scc1_taken_and_not_taken():
    """S_CBRANCH_SCC1: if SCC == 1 then PC = PC + signext(SIMM16 * 4) + 4."""
    body = "s_cmp_lt_u32 s0, 5\n  s_cbranch_scc1 .Lskip\n  s_mov_b32 s1, 1\n.Lskip:\n  s_mov_b32 s2, 2"
    w = run(body, s={0: 3, 1: 0})
    assert (w.s[1], w.s[2]) == (0, 2)
    w = run(body, s={0: 9, 1: 0})
    assert (w.s[1], w.s[2]) == (1, 2)


def test_s_cbranch_scc0_backward_loop():
    """S_CBRANCH_SCC0 with a negative SIMM16: a counted loop runs its body the right number of times."""
    body = ".Lloop:\n  s_add_u32 s1, s1, 3\n  s_add_u32 s0, s0, 1\n  s_cmp_lt_u32 s0, 5\n  s_cbranch_scc0 .Ldone\n  s_branch .Lloop\n.Ldone:"
    w = run(body, s={0: 0, 1: 0})
    assert (w.s[0], w.s[1]) == (5, 15)


def code_of(body, mcpu="gfx906"):
    return [i for i in parse_disassembly(disassemble(assemble_source(TEMPLATE.format(body=body, lds=0), mcpu)))[0]
            if i.op != "s_endpgm"]


def test_s_waitcnt_fields_come_from_the_gfx9_encoding():
    """S_WAITCNT simm16 (gfx9): vmcnt = {simm16[15:14], simm16[3:0]}, expcnt = simm16[6:4],
    lgkmcnt = simm16[11:8]; a field the source omits is at its maximum (no wait)."""
    ins = code_of("s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(5)\n  s_waitcnt vmcnt(40)\n  s_waitcnt lgkmcnt(0)")
    assert [waitcnt_fields(i) for i in ins] == [(3, 2, 5), (40, 7, 15), (63, 7, 0)]


def _two_loads(mem):
    a = mem.put(np.arange(WAVE * 2, dtype=np.uint32))
    return {0: a & 0xFFFFFFFF, 1: a >> 32}


def test_reading_a_load_destination_before_its_wait_raises():
    """VM_CNT: a vector memory load's VGPRs are written when it returns; reading one earlier is
    the error the kernels' s_waitcnt prevent. The message names the instruction and the register."""
    mem = Memory()
    with pytest.raises(WaitcntError, match=r"v_mov_b32.*reads v1 .*global_load_dword v1"):
        run("global_load_dword v1, v0, s[0:1]\n  v_mov_b32 v2, v1", s=_two_loads(mem), v={0: LANES * 4}, mem=mem)
    w = run("global_load_dword v1, v0, s[0:1]\n  s_waitcnt vmcnt(0)\n  v_mov_b32 v2, v1",
            s=_two_loads(mem), v={0: LANES * 4}, mem=mem)
    assert (w.v[2] == LANES).all()


def test_vmcnt_counts_in_order():
    """Vector memory loads return in issue order: vmcnt(1) after two loads completes the first."""
    mem = Memory()
    body = "global_load_dword v1, v0, s[0:1]\n  global_load_dword v2, v0, s[0:1] offset:4\n  s_waitcnt vmcnt(1)\n"
    for seed in (None, 0, 1, 2, 3):
        w = run(body + "  v_mov_b32 v3, v1", s=_two_loads(mem), v={0: LANES * 4}, mem=mem, seed=seed, early=0)
        assert (w.v[3] == LANES).all()
        with pytest.raises(WaitcntError, match="reads v2"):
            run(body + "  v_mov_b32 v3, v2", s=_two_loads(mem), v={0: LANES * 4}, mem=mem, seed=seed, early=0)


def test_scalar_loads_may_return_out_of_order():
    """LGKM_CNT: scalar memory reads can return out of order, so lgkmcnt(1) after two s_load
    leaves either one outstanding: reading the first one's SGPR fails on some schedules only."""
    mem = Memory()
    body = "s_load_dword s4, s[0:1], 0x0\n  s_load_dword s5, s[0:1], 0x4\n  s_waitcnt lgkmcnt(1)\n  s_mov_b32 s6, s4"
    outcomes = set()
    for seed in range(16):
        try:
            run(body, s=_two_loads(mem), mem=mem, seed=seed, early=0)
            outcomes.add("ok")
        except WaitcntError:
            outcomes.add("error")
    assert outcomes == {"ok", "error"}


def test_lds_operations_complete_in_order():
    """LDS instructions of one wave return in order: lgkmcnt(1) after two ds_read completes the first."""
    lds = np.arange(WAVE + 1, dtype=np.uint32)
    body = "v_lshlrev_b32 v1, 2, v0\n  ds_read_b32 v2, v1\n  ds_read_b32 v3, v1 offset:4\n  s_waitcnt lgkmcnt(1)\n"
    for seed in range(6):
        w = run(body + "  v_mov_b32 v4, v2", v={0: LANES}, lds=lds, seed=seed, early=0)
        assert (w.v[4] == LANES).all()
        with pytest.raises(WaitcntError, match="reads v3"):
            run(body + "  v_mov_b32 v4, v3", v={0: LANES}, lds=lds, seed=seed, early=0)


def test_writing_an_outstanding_destination_raises():
    mem = Memory()
    with pytest.raises(WaitcntError, match="writes s4"):
        run("s_load_dword s4, s[0:1], 0x0\n  s_mov_b32 s4, 0", s=_two_loads(mem), mem=mem)


def test_store_data_is_read_at_issue_unless_strict():
    """gfx9 reads a store's data VGPRs at issue (EXP_CNT covers exports and GDS only); with
    strict_store_data the data VGPR may not be overwritten before the store completes (vmcnt)."""
    mem = Memory()
    dst = mem.put(np.zeros(WAVE, np.uint32))
    s = {0: dst & 0xFFFFFFFF, 1: dst >> 32}
    body = "v_lshlrev_b32 v1, 2, v0\n  global_store_dword v1, v0, s[0:1]\n  v_mov_b32 v0, 0"
    run(body, s=s, v={0: LANES}, mem=mem)
    assert (mem.get(dst, np.uint32, WAVE) == LANES).all()     # s_endpgm completed the store
    with pytest.raises(WaitcntError, match=r"writes v0 while a store of it"):
        run(body, s=s, v={0: LANES}, mem=Memory(), strict_store_data=True)
    run(body.replace("  v_mov", "  s_waitcnt vmcnt(0)\n  v_mov"), s=s, v={0: LANES}, mem=mem, strict_store_data=True)


def lds_handoff(writer_tail):
    """Two waves: wave 1 writes 77 to LDS[0] and ends with `writer_tail` (its s_barrier and
    s_waitcnt in some order); wave 0 (which runs first) waits at the barrier, reads LDS[0] and
    stores it to the output, which it returns (the interpreter puts the kernarg pointer in s[0:1]:
    here it points straight at the output)."""
    body = f"""
  v_lshrrev_b32 v1, 6, v0
  v_readfirstlane_b32 s8, v1
  s_cmp_lt_u32 s8, 1
  s_cbranch_scc1 .Lreader
  v_mov_b32 v2, 0
  v_mov_b32 v3, 77
  ds_write_b32 v2, v3
{writer_tail}
  s_endpgm
.Lreader:
  s_barrier
  v_mov_b32 v2, 0
  ds_read_b32 v4, v2
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v5, 2, v0
  global_store_dword v5, v4, s[0:1]"""
    interp = Interpreter(disassemble(assemble_source(TEMPLATE.format(body=body, lds=4), "gfx906")), "t")
    mem = Memory()
    out = mem.put(np.zeros(WAVE, np.uint32))
    interp.launch(mem, (1, 1, 1), 128, out, lds_bytes=4)
    return mem.get(out, np.uint32, WAVE)


def test_an_lds_write_is_seen_by_another_wave_only_once_complete():
    """s_barrier does not wait for memory: without s_waitcnt lgkmcnt(0) before it, the reader wave
    can read LDS before the writer's ds_write has landed."""
    assert (lds_handoff("  s_barrier\n  s_waitcnt lgkmcnt(0)") == POISON).all()


# ---- hazards (Vega ISA section 4.5, "Manually Inserted Wait States (NOPs)") -------------------
def test_valu_sgpr_write_then_vmem_read_needs_5_wait_states():
    """VALU writes SGPR -> VMEM reads that SGPR: 5 wait states (s_nop N gives N+1)."""
    mem = Memory()
    src = mem.put(np.zeros(WAVE, np.uint32))
    hi = src >> 32
    body = "v_readfirstlane_b32 s2, v9\n  {nop}\n  global_load_dword v1, v0, s[2:3]\n  s_waitcnt vmcnt(0)"
    v = {0: LANES * 4, 9: np.full(WAVE, src & 0xFFFFFFFF)}
    with pytest.raises(HazardError, match=r"global_load_dword.*reads s2 4 wait state.*v_readfirstlane_b32 s2"):
        run(body.format(nop="s_nop 3"), s={3: hi}, v=v, mem=mem)
    run(body.format(nop="s_nop 4"), s={3: hi}, v=v, mem=mem)
    run(body.format(nop="s_nop 0\n  s_nop 1\n  s_mov_b32 s4, 0\n  s_mov_b32 s5, 0"), s={3: hi}, v=v, mem=mem)  # 1+2+1+1
    with pytest.raises(HazardError, match="reads s[23] 0 wait"):  # a VALU carry-out into s[2:3]
        check_hazards(code_of("v_add_co_u32 v1, s[2:3], v0, v1\n  global_load_dword v1, v0, s[2:3]"))
    check_hazards(code_of("s_mov_b32 s2, 0\n  global_load_dword v1, v0, s[2:3]"))   # SALU: no hazard


DPP = "v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"


@pytest.mark.parametrize("first,second,short,enough,match", [
    ("v_cmp_gt_u32_e64 s[4:5], v0, v1", "v_readlane_b32 s6, v2, s4", "s_nop 2", "s_nop 3", "lane select s4"),
    ("v_add_co_u32 v1, vcc, v0, v1", "v_div_fmas_f32 v3, v0, v1, v2", "s_nop 2", "s_nop 3", "v_div_fmas reads VCC"),
    ("v_cmpx_gt_u32_e32 vcc, v0, v1", DPP, "s_nop 3", "s_nop 4", "DPP"),
    ("v_mov_b32 v1, v0", DPP, "s_nop 0", "s_nop 1", "DPP reads v1"),
    ("s_mov_b32 m0, s0", "s_movrels_b32 s1, s2", "", "s_nop 0", "reads M0"),
    ("s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)", "s_nop 0",
     "s_nop 1", "hwreg HW_REG_MODE"),
    ("global_store_dwordx4 v[0:1], v[2:5], off", "v_mov_b32 v3, 0", "", "s_nop 0", "writes v3"),
])
def test_the_manuals_other_wait_state_rules(first, second, short, enough, match):
    """The other rows of the table, checked on the instruction stream (these instructions are not
    in the kernels, so they are checked without being executed): one wait state too few raises,
    naming both instructions; the required number passes."""
    with pytest.raises(HazardError, match=match + ".*" + __import__("re").escape(first.split()[0])):
        check_hazards(code_of(f"{first}\n  {short}\n  {second}"))
    check_hazards(code_of(f"{first}\n  {enough}\n  {second}"))


# ---- SMEM ------------------------------------------------------------------------------------
def test_s_load_dword_forms():
    """S_LOAD_DWORD{,X2,X4,X8}: SGPRs = memory[SBASE + OFFSET]; the offset is an immediate byte
    offset or an SGPR (soffset)."""
    mem = Memory()
    a = mem.put(np.arange(100, 116, dtype=np.uint32))
    w = run("s_load_dwordx8 s[8:15], s[0:1], 0x10\n  s_load_dword s16, s[0:1], s2\n"
            "  s_load_dwordx2 s[18:19], s[0:1], 0x0\n  s_load_dwordx4 s[20:23], s[0:1], 0x20\n  s_waitcnt lgkmcnt(0)",
            s={0: a & 0xFFFFFFFF, 1: a >> 32, 2: 12}, mem=mem)
    assert w.s[8:16] == list(range(104, 112)) and w.s[16] == 103
    assert w.s[18:20] == [100, 101] and w.s[20:24] == list(range(108, 112))


# ---- VOP1 / VOP2 / VOP3 / VOPC ---------------------------------------------------------------
def test_v_readfirstlane_b32_reads_the_first_active_lane():
    """V_READFIRSTLANE_B32: SGPR = VGPR of the lowest lane with EXEC = 1 (lane 0 when EXEC = 0)."""
    w = run("v_readfirstlane_b32 s0, v1", v={1: LANES * 10}, exec_mask=0b11000)
    assert w.s[0] == 30


def test_v_and_b32_and_shifts_take_the_shift_amount_first():
    """V_AND_B32: D = S0 & S1. V_LSHRREV_B32: D = S1 >> S0[4:0]. V_LSHLREV_B32: D = S1 << S0[4:0].
    V_ASHRREV_I32: D.i = S1.i >> S0[4:0] (arithmetic)."""
    tid = np.arange(256, dtype=np.uint32)[:WAVE] + 128
    w = run("v_and_b32 v1, 63, v0\n  v_lshrrev_b32 v2, 6, v0\n  v_lshlrev_b32 v3, 2, v0\n"
            "  v_ashrrev_i32 v4, 31, v5", v={0: tid, 5: np.where(LANES % 2, 0x80000000, 5)})
    assert (w.v[1] == tid & 63).all() and (w.v[2] == tid >> 6).all() and (w.v[3] == tid * 4).all()
    assert (w.v[4] == np.where(LANES % 2, 0xFFFFFFFF, 0)).all()


def test_v_add_u32_wraps_without_carry():
    """V_ADD_U32 (gfx9): D.u = S0.u + S1.u, no carry out (VCC untouched)."""
    w = run("v_add_u32 v1, -1, v0", v={0: LANES})
    assert w.v[1][0] == 0xFFFFFFFF and w.v[1][5] == 4 and w.vcc == 0


def test_v_add_co_u32_and_v_addc_co_u32_make_64_bit_adds():
    """V_ADD_CO_U32: D.u = S0.u + S1.u; VCC[lane] = carry out. V_ADDC_CO_U32: D.u = S0.u + S1.u +
    VCC[lane]; VCC[lane] = carry out. Inactive lanes' VCC bits are 0."""
    lo = np.where(LANES < 32, 0xFFFFFFF0, 1).astype(np.uint32)
    w = run("v_add_co_u32 v1, vcc, s0, v1\n  v_addc_co_u32 v2, vcc, 0, v2, vcc",
            s={0: 0x20}, v={1: lo, 2: np.full(WAVE, 7)}, exec_mask=(1 << 63) - 1)
    assert (w.v[1][:32] == 0x10).all() and (w.v[1][32:63] == 0x21).all()
    assert (w.v[2][:32] == 8).all() and (w.v[2][32:63] == 7).all()
    assert w.v[2][63] == 7 and w.vcc == 0


def test_v_cmp_gt_u32_writes_a_lane_mask_with_inactive_lanes_zero():
    """V_CMP_GT_U32 (VOP3 form): SGPR pair[lane] = (S0.u > S1.u) for active lanes, 0 otherwise."""
    w = run("v_cmp_gt_u32_e64 s[2:3], s0, v0", s={0: 10}, v={0: LANES}, exec_mask=(1 << 64) - 1 - 1)
    assert (w.s[2] | (w.s[3] << 32)) == ((1 << 10) - 1) & ~1


def test_v_fmac_f32_rounds_once():
    """V_FMAC_F32: D.f = S0.f * S1.f + D.f, fused (one rounding): (1+2^-12)^2 - (1+2^-11) is 2^-24,
    which an unfused multiply then add would lose."""
    a = f2u(1 + 2.0 ** -12)
    w = run("v_fmac_f32 v2, v0, v1", v={0: np.full(WAVE, a), 1: np.full(WAVE, a),
                                        2: np.full(WAVE, f2u(-(1 + 2.0 ** -11)))})
    assert np.float32(w.v[2].view(np.float32)[0]) == np.float32(2.0 ** -24)


def test_v_fmac_f32_with_an_sgpr_operand():
    w = run("v_fmac_f32 v2, s0, v1", s={0: f2u(1.5)}, v={1: np.full(WAVE, f2u(2.0)), 2: np.full(WAVE, f2u(0.25))})
    assert (w.v[2].view(np.float32) == 3.25).all()


def test_v_mul_lo_u32():
    """V_MUL_LO_U32: D.u = (S0.u * S1.u)[31:0]."""
    w = run("v_mul_lo_u32 v1, v0, s0", s={0: 0x10001}, v={0: np.full(WAVE, 0x10001)})
    assert (w.v[1] == 0x20001).all()


# ---- global memory ---------------------------------------------------------------------------
def test_global_load_dword_64_bit_address_masked_lanes_keep_their_value():
    """GLOBAL_LOAD_DWORD vdst, vaddr[2], off offset:imm: VGPR = memory[vaddr64 + offset] for active
    lanes; inactive lanes neither access memory nor change vdst."""
    mem = Memory()
    base = mem.put(np.arange(1000, 1000 + WAVE + 1, dtype=np.uint32))
    addr = base + 4 * LANES.astype(np.uint64)
    w = run("global_load_dword v3, v[0:1], off offset:4\n  s_waitcnt vmcnt(0)",
            v={0: (addr & 0xFFFFFFFF).astype(np.uint32), 1: (addr >> 32).astype(np.uint32),
               3: np.full(WAVE, 5)}, exec_mask=0xFFFF, mem=mem)
    assert (w.v[3][:16] == 1001 + LANES[:16]).all() and (w.v[3][16:] == 5).all()


def test_global_load_and_store_with_sgpr_base():
    """GLOBAL_LOAD/STORE_DWORD with SADDR: address = SGPR pair + VGPR offset (32-bit) + offset."""
    mem = Memory()
    src = mem.put(np.arange(WAVE, dtype=np.float32))
    dst = mem.put(np.full(WAVE, np.nan, np.float32))
    w = run("global_load_dword v1, v0, s[0:1]\n  s_waitcnt vmcnt(0)\n  global_store_dword v0, v1, s[2:3]",
            s={0: src & 0xFFFFFFFF, 1: src >> 32, 2: dst & 0xFFFFFFFF, 3: dst >> 32},
            v={0: LANES * 4}, exec_mask=(1 << 40) - 1, mem=mem)
    out = mem.get(dst, np.float32, WAVE)
    assert (out[:40] == np.arange(40)).all() and np.isnan(out[40:]).all()
    assert w.done


def test_an_active_lane_outside_every_allocation_faults():
    mem = Memory()
    src = mem.put(np.zeros(4, np.float32))
    with pytest.raises(MemoryFault):
        run("global_load_dword v1, v0, s[0:1]", s={0: src & 0xFFFFFFFF, 1: src >> 32},
            v={0: LANES * 4}, exec_mask=0x1F, mem=mem)
    # the same load with only the in-range lanes active is fine
    run("global_load_dword v1, v0, s[0:1]", s={0: src & 0xFFFFFFFF, 1: src >> 32},
        v={0: LANES * 4}, exec_mask=0xF, mem=mem)


# ---- LDS and barriers ------------------------------------------------------------------------
def test_ds_write_read_b32_with_offset():
    """DS_WRITE_B32: LDS[ADDR + offset] = DATA0. DS_READ_B32: VDST = LDS[ADDR + offset]."""
    lds = np.zeros(WAVE + 4, np.uint32)
    w = run("v_lshlrev_b32 v1, 2, v0\n  ds_write_b32 v1, v0 offset:8\n  s_waitcnt lgkmcnt(0)\n"
            "  ds_read_b32 v2, v1 offset:4\n  s_waitcnt lgkmcnt(0)", v={0: LANES}, lds=lds)
    assert (lds[2:WAVE + 2] == LANES).all()
    assert w.v[2][0] == 0                        # lane 0 reads LDS[1], never written
    assert (w.v[2][1:] == LANES[:-1]).all()


def test_lds_out_of_range_faults():
    with pytest.raises(MemoryFault):
        run("ds_read_b32 v2, v0 offset:256", v={0: np.zeros(WAVE)}, lds=np.zeros(64, np.uint32))


def test_s_barrier_orders_lds_between_waves():
    """S_BARRIER: a wave waits until every wave of the workgroup has reached the barrier. Wave 1
    writes LDS (and waits for the write) before the barrier; wave 0 (which runs first) reads it
    after."""
    assert (lds_handoff("  s_waitcnt lgkmcnt(0)\n  s_barrier") == 77).all()

def test_registers_start_poisoned_and_unknown_instructions_are_refused():
    w = run("v_mov_b32 v1, v9")
    assert (w.v[1] == POISON).all() and w.s[30] == POISON
    with pytest.raises(NotImplementedError, match="v_sin_f32"):
        run("v_sin_f32 v1, v0", v={0: np.zeros(WAVE)})


def test_every_instruction_of_the_kernels_is_interpreted_and_tested():
    """Each mnemonic in the assembled kernels (every target) has a handler here and a test above."""
    import re
    from pathlib import Path

    from gcn_interpreter import parse_disassembly
    from gcn_tools import KERNELS, TARGETS, assemble

    tests = Path(__file__).read_text().split("def test_every_instruction")[0]
    interp = Interpreter.__dict__
    for kernel in KERNELS:
        for target in TARGETS:
            code, _ = parse_disassembly(disassemble(assemble(kernel, target)))
            for op in {re.sub(r"_e(32|64)$", "", ins.op) for ins in code}:
                assert "op_" + op in interp, f"{op} ({kernel}, {target}) has no handler"
                assert re.search(r"\b%s(_e32|_e64)?\b" % op, tests), f"{op} ({kernel}, {target}) has no test"


def test_missing_tools_skip_or_fail(monkeypatch):
    """Without the LLVM tools the tests skip with the reason; MIOPEN_CY_REQUIRE_GCN_TOOLS=1 fails them."""
    import gcn_tools
    monkeypatch.setattr(gcn_tools, "tool", lambda name: None)
    monkeypatch.delenv("MIOPEN_CY_REQUIRE_GCN_TOOLS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="clang-15"):
        gcn_tools.require_tools()
    monkeypatch.setenv("MIOPEN_CY_REQUIRE_GCN_TOOLS", "1")
    with pytest.raises(pytest.fail.Exception, match="MIOPEN_CY_REQUIRE_GCN_TOOLS=1"):
        gcn_tools.require_tools()
