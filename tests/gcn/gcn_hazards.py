"""The software hazards of the gfx9 (Vega) ISA manual's "Manually Inserted Wait States" table
(section 4.5) for the GCN interpreter (gcn_interpreter.py): HazardChecker observes the executed
instruction stream and raises HazardError naming both instructions of a violation; s_nop N counts
as N+1 wait states, every other instruction as one. Test-only, like the interpreter."""
import re
from collections import deque


class HazardError(Exception):
    """Two instructions closer than the wait states the ISA manual requires between them."""


_SPECIAL_SGPRS = {"vcc": (106, 107), "vcc_lo": (106,), "vcc_hi": (107,), "m0": (124,),
                  "exec": ("exec",), "exec_lo": ("exec",), "exec_hi": ("exec",)}


def reg_set(tok):
    """The registers an operand names, as a set of ('s', i) / ('v', i) (VCC is s[106:107] on
    gfx9, M0 s124; EXEC is ('s', 'exec')); constants give the empty set."""
    m = re.match(r"^([sv])(\d+)$", tok)
    if m:
        return {(m.group(1), int(m.group(2)))}
    m = re.match(r"^([sv])\[(\d+):(\d+)\]$", tok)
    if m:
        return {(m.group(1), i) for i in range(int(m.group(2)), int(m.group(3)) + 1)}
    return {("s", i) for i in _SPECIAL_SGPRS.get(tok, ())}


def reg_name(r):
    return f"{r[0]}{r[1]}" if r[1] != "exec" else "exec"


_CARRY_OUT = {"v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32", "v_subb_co_u32",
              "v_subbrev_co_u32", "v_div_scale_f32", "v_div_scale_f64", "v_mad_u64_u32",
              "v_mad_i64_i32"}
_VMEM_PREFIXES = ("global_", "flat_", "buffer_", "scratch_", "image_", "tbuffer_")
_M0_READERS = ("s_movrels_", "s_movreld_", "s_sendmsg", "s_ttracedata", "v_interp_")


class HazInfo:
    """What the hazard rules need to know of one instruction (computed once per instruction)."""
    __slots__ = ("ws", "valu_writes", "salu_writes_m0", "setreg", "big_store_data",
                 "vmem_sgpr_reads", "lane_select", "reads_vcc_for_fmas", "reads_vccz_execz",
                 "dpp", "dpp_vgpr_reads", "reads_m0", "getsetreg", "valu")

    def __init__(self, ins):
        op = re.sub(r"_e(32|64)$", "", ins.op)
        o = ins.operands
        self.ws = (ins.words[0] & 0xF) + 1 if op == "s_nop" else 1
        self.valu = op.startswith("v_")
        self.valu_writes = set()
        if self.valu and o:
            self.valu_writes |= reg_set(o[0])
            if op in _CARRY_OUT and len(o) > 1:
                self.valu_writes |= reg_set(o[1])
            if op.startswith("v_cmpx_"):
                self.valu_writes.add(("s", "exec"))
        salu = op.startswith("s_") and not op.startswith(("s_load_", "s_buffer_", "s_store_"))
        self.salu_writes_m0 = bool(salu and o and o[0] == "m0" and not op.startswith("s_cmp"))
        m = re.search(r"hwreg\((\w+)", ins.text)
        self.setreg = m.group(1) if m and op.startswith("s_setreg") else None
        self.getsetreg = m.group(1) if m and op.startswith(("s_setreg", "s_getreg")) else None
        self.big_store_data = set()
        if op.startswith(_VMEM_PREFIXES) and "store" in op and len(o) > 1:
            data = {r for r in reg_set(o[1]) if r[0] == "v"}
            soffset_sgpr = op.startswith(("buffer_", "tbuffer_")) and len(o) > 3 and \
                any(r[0] == "s" for r in reg_set(o[3]))
            if len(data) > 2 and not soffset_sgpr:
                self.big_store_data = data
        self.vmem_sgpr_reads = set()
        if op.startswith(_VMEM_PREFIXES):
            for t in o:
                self.vmem_sgpr_reads |= {r for r in reg_set(t) if r[0] == "s"}
            self.vmem_sgpr_reads.add(("s", "exec"))
        self.lane_select = set()
        if op in ("v_readlane_b32", "v_writelane_b32") and len(o) > 2:
            self.lane_select = {r for r in reg_set(o[2]) if r[0] == "s"}
        self.reads_vcc_for_fmas = op.startswith("v_div_fmas_")
        self.reads_vccz_execz = self.valu and any(t in ("vccz", "execz") for t in o[1:])
        self.dpp = self.valu and bool(re.search(r"\b(quad_perm|row_\w+|wave_\w+|bank_mask|row_mask)\b", ins.text))
        self.dpp_vgpr_reads = set()
        if self.dpp:
            for t in o[1:]:
                self.dpp_vgpr_reads |= {r for r in reg_set(t) if r[0] == "v"}
        self.reads_m0 = op.startswith(_M0_READERS) or "addtid" in op or \
            op == "buffer_store_lds_dword" or (op.startswith("ds_") and "gds" in ins.text.split()) or \
            (op.startswith(("global_", "scratch_")) and ins.mods.get("lds", False))


class HazardChecker:
    """The software hazards of the Vega ISA manual's "Manually Inserted Wait States (NOPs)" table
    (section 4.5) that can arise among the instructions this interpreter knows, plus the ones of
    the table that need only the instruction text. `observe(ins)` is called for each executed
    instruction in order (one checker per wave) and raises HazardError on a violation.
    Rules (first instruction -> second instruction: wait states):
      VALU writes an SGPR or VCC          -> VMEM (global/flat/buffer) reads that SGPR: 5
      VALU writes EXEC                    -> VMEM (which reads EXEC): 5
      VALU writes an SGPR or VCC          -> v_readlane/v_writelane lane select: 4
      VALU writes VCC                     -> v_div_fmas: 4
      VALU writes VCC or EXEC             -> VALU reading VCCZ or EXECZ as data: 5
      VALU writes EXEC                    -> VALU DPP: 5
      VALU writes a VGPR                  -> VALU DPP reads it: 2
      SALU writes M0                      -> s_movrel, s_sendmsg, s_ttracedata, GDS, LDS add-TID,
                                             buffer_store_lds_dword, global/scratch with lds,
                                             v_interp: 1
      s_setreg                            -> s_getreg / s_setreg of the same register: 2
      VMEM store of more than 64 bits     -> VALU writes a VGPR of its data: 1
    s_nop N is N+1 wait states, every other instruction one."""
    DEPTH = 5

    def __init__(self):
        self.recent = deque()              # (Instr, HazInfo), newest last

    def _since(self, pred):
        """(wait states between the newest earlier instruction matching pred and now, it)."""
        dist = 0
        for ins, info in reversed(self.recent):
            if pred(info):
                return dist, ins
            dist += info.ws
            if dist >= self.DEPTH:
                break
        return None, None

    def _need(self, ins, what, pred, states, rule):
        dist, first = self._since(pred)
        if dist is not None and dist < states:
            raise HazardError(
                f"{ins.addr:#x}: {ins.text}: {what} {dist} wait state(s) after "
                f"{first.addr:#x}: {first.text} (the ISA manual requires {states}: {rule}; "
                f"insert s_nop {states - dist - 1})")

    def observe(self, ins):
        info = ins.info
        if info is None:
            info = ins.info = HazInfo(ins)
        for r in info.vmem_sgpr_reads:
            self._need(ins, f"VMEM reads {reg_name(r)}",
                       lambda i, r=r: i.valu and r in i.valu_writes, 5,
                       "VALU writes SGPR/VCC/EXEC -> VMEM reads it")
        for r in info.lane_select:
            self._need(ins, f"lane select {reg_name(r)}",
                       lambda i, r=r: i.valu and r in i.valu_writes, 4,
                       "VALU writes SGPR -> v_readlane/v_writelane lane select")
        if info.reads_vcc_for_fmas:
            self._need(ins, "v_div_fmas reads VCC",
                       lambda i: i.valu and ("s", 106) in i.valu_writes, 4,
                       "VALU writes VCC -> v_div_fmas")
        if info.reads_vccz_execz:
            self._need(ins, "reads VCCZ/EXECZ",
                       lambda i: i.valu and (("s", 106) in i.valu_writes or ("s", "exec") in i.valu_writes),
                       5, "VALU writes VCC/EXEC -> VALU uses VCCZ/EXECZ")
        if info.dpp:
            self._need(ins, "DPP", lambda i: i.valu and ("s", "exec") in i.valu_writes, 5,
                       "VALU writes EXEC -> DPP")
            for r in info.dpp_vgpr_reads:
                self._need(ins, f"DPP reads {reg_name(r)}",
                           lambda i, r=r: i.valu and r in i.valu_writes, 2,
                           "VALU writes VGPR -> DPP reads it")
        if info.reads_m0:
            self._need(ins, "reads M0", lambda i: i.salu_writes_m0, 1,
                       "SALU writes M0 -> s_movrel/s_sendmsg/GDS/LDS add-TID/LDS DMA")
        if info.getsetreg:
            self._need(ins, f"accesses hwreg {info.getsetreg}",
                       lambda i, h=info.getsetreg: i.setreg == h, 2,
                       "s_setreg -> s_getreg/s_setreg of the same register")
        if info.valu:
            for r in info.valu_writes:
                if r[0] == "v":
                    self._need(ins, f"writes {reg_name(r)}",
                               lambda i, r=r: r in i.big_store_data, 1,
                               "VMEM store of more than 64 bits -> write of its data VGPRs")
        self.recent.append((ins, info))
        if len(self.recent) > 8:
            self.recent.popleft()


def check_hazards(code):
    """Checks a straight-line instruction sequence (a list of Instr) for hazards (tests)."""
    hc = HazardChecker()
    for ins in code:
        hc.observe(ins)
