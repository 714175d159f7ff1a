"""A small, plain interpreter for the gfx9 (Vega) instructions that the kernels in asm/ use.
Test-only: it reads `llvm-objdump -d` output of an assembled code object and executes every
wavefront of a launch (wave64), so that a kernel that has never run on AMD hardware is at least
run, instruction by instruction, and its output checked.

Model (AMD "Vega" Instruction Set Architecture reference guide, gfx9):
- per wave: 102 SGPRs, up to 256 VGPRs of 64 lanes, EXEC and VCC (64-bit), SCC, PC;
- VALU results are written only to lanes active in EXEC; a VOPC / carry-out lane mask has 0 for
  inactive lanes;
- global memory: one flat arena of allocations separated by unmapped red zones; an access by an
  active lane outside every allocation raises MemoryFault (inactive lanes never access memory);
- LDS: one array per workgroup, bounds-checked;
- memory operations are outstanding until they complete (section 4.4, "Data dependency
  resolution"): vector memory loads and stores (global_*) count in vmcnt and complete in issue
  order; scalar memory loads (s_load_*) and LDS operations (ds_*) count in lgkmcnt, LDS
  operations in order among themselves, scalar loads in any order; exports and GDS (expcnt) are
  not in the instruction set. A load's destination registers are poisoned until it completes:
  reading one, or writing one, raises WaitcntError naming the instruction and the register. A
  load reads memory and a store or LDS write changes memory when it completes, so another wave
  sees an LDS write only once it is complete. s_waitcnt (decoded from the gfx9 encoding:
  vmcnt, expcnt, lgkmcnt) completes operations until each counter is at most its field.
  Store data VGPRs are read at issue, as gfx9 does (the expcnt rule for store data is gfx6's);
  `strict_store_data=True` instead holds them until the store completes;
- the schedule comes from a seed: which scalar/LDS operation an lgkmcnt wait completes, early
  completion of outstanding operations, and the interleaving of the waves of a workgroup (each
  runs a random number of instructions in turn); s_endpgm completes what is outstanding;
- s_barrier: a wave waits until every wave of its workgroup that has not ended reaches it (it
  completes no memory operation);
- the software hazards of the manual's "Manually Inserted Wait States" table (section 4.5) are
  checked on the executed instruction stream (HazardChecker): s_nop N is N+1 wait states, every
  other instruction one; a violation raises HazardError naming both instructions;
- unassigned registers start as a NaN pattern, so a kernel that reads one shows it;
- not modelled: timing and latency, caches, memory ordering between waves beyond the randomised
  schedule, denormal and IEEE modes.
Instructions it does not know raise NotImplementedError naming them."""
import random
import re
from collections import Counter, deque

import numpy as np

from gcn_hazards import HazardChecker, HazardError, check_hazards, reg_name, reg_set  # noqa: F401

WAVE = 64
FULL = (1 << WAVE) - 1
M32 = 0xFFFFFFFF
POISON = 0x7FC0DEAD            # a quiet NaN
LANE_BITS = np.array([1 << i for i in range(WAVE)], dtype=object)


class MemoryFault(Exception):
    pass


class WaitcntError(Exception):
    """A register read or written while a memory operation that writes it (or, under
    strict_store_data, reads it) is still outstanding: a missing or too weak s_waitcnt."""


# ------------------------------------------------------------------------------------ parsing
class Instr:
    __slots__ = ("addr", "words", "op", "operands", "mods", "text", "info")

    def __init__(self, addr, words, op, operands, mods, text):
        self.addr, self.words, self.op, self.operands, self.mods, self.text = \
            addr, words, op, operands, mods, text
        self.info = None

    def __repr__(self):
        return f"{self.addr:#x}: {self.text}"


_LINE = re.compile(r"^\s+([a-z_0-9]+)\s*(.*?)\s*//\s*([0-9A-Fa-f]+):\s*((?:[0-9A-Fa-f]{8}\s*)+)")
_MOD = re.compile(r"^(offset|offset0|offset1):(-?\w+)$")


def parse_disassembly(text):
    """(instructions in address order, {symbol: address}) from `llvm-objdump -d` output."""
    code, symbols = [], {}
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <([\w.]+)>:$", line)
        if m:
            symbols[m.group(2)] = int(m.group(1), 16)
            continue
        m = _LINE.match(line)
        if not m:
            continue
        op, rest, addr, words = m.group(1), m.group(2), int(m.group(3), 16), m.group(4).split()
        rest = re.sub(r"<[^>]*>", "", rest).strip()
        operands, mods = [], {}
        if op == "s_waitcnt":
            operands = [rest]
        else:
            for tok in re.split(r",\s*|\s+", rest) if rest else []:
                mm = _MOD.match(tok)
                if mm:
                    mods[mm.group(1)] = int(mm.group(2), 0)
                elif tok in ("glc", "slc", "nv", "lds", "offen", "idxen"):
                    mods[tok] = True
                elif tok:
                    operands.append(tok)
        code.append(Instr(addr, [int(x, 16) for x in words], op, operands, mods,
                          (op + " " + rest).strip()))
    return code, symbols


# ------------------------------------------------------------------------------------ memory ops
class MemOp:
    """One outstanding memory operation of a wave: `finish` applies its effect when it completes."""
    __slots__ = ("ins", "kind", "dst", "held", "finish")

    def __init__(self, ins, kind, dst, finish, held=()):
        self.ins, self.kind, self.dst, self.finish, self.held = ins, kind, dst, finish, held

    @property
    def counter(self):
        return "vmcnt" if self.kind == "vmem" else "lgkmcnt"


# ------------------------------------------------------------------------------------ machine
class Memory:
    """Global memory: allocations at fixed addresses with unmapped gaps between them."""
    BASE = 0x1_0000_0000
    GAP = 4096

    def __init__(self):
        self.regions = []            # (start, bytearray-backed np.uint8 array)
        self.next = self.BASE

    def alloc(self, nbytes, fill=None):
        start = self.next
        buf = np.zeros(max(int(nbytes), 1), dtype=np.uint8)
        if fill is not None:
            buf[:] = fill
        self.regions.append((start, buf))
        self.next = start + ((len(buf) + 255) // 256) * 256 + self.GAP
        return start

    def put(self, array):
        a = np.ascontiguousarray(array)
        addr = self.alloc(a.nbytes)
        self.view(addr, a.nbytes)[:] = a.view(np.uint8).reshape(-1)
        return addr

    def view(self, addr, nbytes):
        for start, buf in self.regions:
            if start <= addr and addr + nbytes <= start + len(buf):
                return buf[addr - start: addr - start + nbytes]
        raise MemoryFault(f"access of {nbytes} bytes at {addr:#x} is outside every allocation")

    def get(self, addr, dtype, count):
        return self.view(addr, np.dtype(dtype).itemsize * count).view(dtype).copy()

    def load_u32(self, addrs):
        return np.array([int(self.view(int(a), 4).view(np.uint32)[0]) for a in addrs], dtype=np.uint32)

    def store_u32(self, addrs, values):
        for a, v in zip(addrs, values):
            self.view(int(a), 4).view(np.uint32)[0] = v


class Wave:
    def __init__(self, nvgpr):
        self.s = [POISON] * 102
        self.v = np.full((nvgpr, WAVE), POISON, dtype=np.uint32)
        self.exec = FULL
        self.vcc = 0
        self.scc = 0
        self.pc = 0
        self.done = False
        self.at_barrier = False
        self.steps = 0
        self.vm = deque()           # outstanding vector memory operations, oldest first
        self.lgkm = []              # outstanding scalar memory and LDS operations, oldest first
        self.pend = {}              # ('s'|'v', index) -> MemOp that will write it
        self.held = {}              # ('v', index) -> store MemOp still reading it (strict mode)
        self.hazards = HazardChecker()


def _lanes(mask):
    return np.array([(mask >> i) & 1 for i in range(WAVE)], dtype=bool)


def _mask(bits):
    m = 0
    for i in np.nonzero(bits)[0]:
        m |= 1 << int(i)
    return m


def _f32(u):
    return np.asarray(u, dtype=np.uint32).view(np.float32)


def _u32(f):
    return np.asarray(f, dtype=np.float32).view(np.uint32)


_INLINE_FLOATS = {"0.5": 0.5, "-0.5": -0.5, "1.0": 1.0, "-1.0": -1.0, "2.0": 2.0, "-2.0": -2.0,
                  "4.0": 4.0, "-4.0": -4.0}


VMCNT_MAX, EXPCNT_MAX, LGKMCNT_MAX = 63, 7, 15


def waitcnt_fields(ins):
    """(vmcnt, expcnt, lgkmcnt) of an s_waitcnt, from its gfx9 SOPP simm16: vmcnt in bits 3:0
    and 15:14, expcnt in 6:4, lgkmcnt in 11:8; checked against the fields the disassembly prints
    (a field it omits is at its maximum, i.e. no wait)."""
    simm = ins.words[0] & 0xFFFF
    fields = ((simm & 0xF) | ((simm >> 14) & 3) << 4, (simm >> 4) & 7, (simm >> 8) & 0xF)
    for name, val in zip(("vmcnt", "expcnt", "lgkmcnt"), fields):
        m = re.search(name + r"\((\d+)\)", ins.text)
        if m and int(m.group(1)) != val:
            raise RuntimeError(f"{ins.text}: {name} {m.group(1)} in the text, {val} in the encoding")
    return fields


class Interpreter:
    """Executes one kernel of a disassembled code object. `counts` accumulates the dynamic
    instruction counts (per mnemonic, per wave) over every launch.

    seed: the schedule (None: waves in order, each until its barrier, operations complete only
    when a wait or s_endpgm forces them, oldest first); otherwise a random.Random(seed) picks the
    interleaving of the waves, which scalar/LDS operation an lgkmcnt wait completes, and early
    completions (each instruction completes one eligible outstanding operation with probability
    `early`). strict_store_data: hold a store's data VGPRs until it completes (gfx6's rule; gfx9
    reads them at issue). hazards: check the wait-state hazards (HazardChecker)."""

    def __init__(self, disassembly, symbol, nvgpr=256, max_steps=50_000_000, seed=None,
                 early=0.05, strict_store_data=False, hazards=True):
        self.code, symbols = parse_disassembly(disassembly)
        if symbol not in symbols:
            raise KeyError(f"{symbol} not in the disassembly (have {sorted(symbols)})")
        self.index = {ins.addr: i for i, ins in enumerate(self.code)}
        self.entry = self.index[symbols[symbol]]
        self.nvgpr = nvgpr
        self.max_steps = max_steps
        self.counts = Counter()
        self.rng = None if seed is None else random.Random(seed)
        self.early = early if seed is not None else 0.0
        self.strict_store_data = strict_store_data
        self.hazards = hazards
        self._ins = None

    # -- outstanding memory operations ----------------------------------------------------------
    def _conflict(self, w, verb, reg):
        op = w.pend.get(reg) or w.held.get(reg)
        ins = self._ins
        what = "a load into it" if reg in w.pend else "a store of it"
        raise WaitcntError(
            f"{ins.addr:#x}: {ins.text}: {verb} {reg_name(reg)} while {what} is outstanding "
            f"({op.ins.addr:#x}: {op.ins.text}; {op.counter} {self._count(w, op)}): "
            f"an s_waitcnt is missing or too weak")

    @staticmethod
    def _count(w, op):
        return len(w.vm) if op.kind == "vmem" else len(w.lgkm)

    def _issue(self, w, op):
        for r in op.dst:
            prev = w.pend.get(r)
            if prev is not None and not (prev.kind == op.kind == "vmem"):
                # two loads into one register that may complete in either order
                self._conflict(w, "loads into", r)
            if r in w.held:
                self._conflict(w, "loads into", r)
        for r in op.dst:
            w.pend[r] = op
        for r in op.held:
            w.held[r] = op
        (w.vm if op.kind == "vmem" else w.lgkm).append(op)

    def _complete(self, w, op):
        if op.kind == "vmem":
            assert w.vm[0] is op
            w.vm.popleft()
        else:
            w.lgkm.remove(op)
        for r in op.dst:
            if w.pend.get(r) is op:
                del w.pend[r]
        for r in op.held:
            if w.held.get(r) is op:
                del w.held[r]
        op.finish()

    def _lgkm_eligible(self, w):
        """Scalar loads may complete in any order; LDS operations in order among themselves."""
        out, lds_seen = [], False
        for op in w.lgkm:
            if op.kind == "lds":
                if lds_seen:
                    continue
                lds_seen = True
            out.append(op)
        return out

    def _complete_lgkm_one(self, w):
        ok = self._lgkm_eligible(w)
        self._complete(w, ok[0] if self.rng is None else self.rng.choice(ok))

    def _maybe_complete_early(self, w):
        if (w.vm or w.lgkm) and self.rng.random() < self.early:
            if w.vm and (not w.lgkm or self.rng.random() < 0.5):
                self._complete(w, w.vm[0])
            else:
                self._complete_lgkm_one(w)

    def drain(self, w):
        while w.vm:
            self._complete(w, w.vm[0])
        while w.lgkm:
            self._complete_lgkm_one(w)

    # -- operands -----------------------------------------------------------------------------
    @staticmethod
    def _reg(tok):
        m = re.match(r"^([sv])(\d+)$", tok)
        if m:
            return m.group(1), int(m.group(2)), int(m.group(2))
        m = re.match(r"^([sv])\[(\d+):(\d+)\]$", tok)
        if m:
            return m.group(1), int(m.group(2)), int(m.group(3))
        return None

    def sread(self, w, tok, bits=32):
        """A scalar operand (SGPR, SGPR pair, special register or constant) as an int."""
        r = self._reg(tok)
        if r and r[0] == "s":
            val = 0
            for i in range(r[2], r[1] - 1, -1):
                if w.pend and ("s", i) in w.pend:
                    self._conflict(w, "reads", ("s", i))
                val = (val << 32) | (w.s[i] & M32)
            return val
        if tok == "exec":
            return w.exec
        if tok == "vcc":
            return w.vcc
        if tok == "exec_lo":
            return w.exec & M32
        if tok == "exec_hi":
            return w.exec >> 32
        if tok == "vcc_lo":
            return w.vcc & M32
        if tok == "vcc_hi":
            return w.vcc >> 32
        if tok == "scc":
            return w.scc
        if tok in _INLINE_FLOATS:
            return int(_u32(np.float32(_INLINE_FLOATS[tok])))
        v = int(tok, 0)
        if bits == 64 and v < 0:
            return v & ((1 << 64) - 1)
        if v < 0:
            return v & M32
        return v

    def swrite(self, w, tok, val, bits=32):
        r = self._reg(tok)
        if r and r[0] == "s":
            for i in range(r[1], r[2] + 1):
                if w.pend and ("s", i) in w.pend:
                    self._conflict(w, "writes", ("s", i))
                w.s[i] = val & M32
                val >>= 32
            return
        if tok == "exec":
            w.exec = val & FULL
        elif tok == "vcc":
            w.vcc = val & FULL
        elif tok == "exec_lo":
            w.exec = (w.exec & ~M32 & FULL) | (val & M32)
        elif tok == "vcc_lo":
            w.vcc = (w.vcc & ~M32 & FULL) | (val & M32)
        else:
            raise NotImplementedError(f"scalar destination {tok}")

    def vread(self, w, tok):
        """A vector operand (VGPR, or a scalar broadcast to every lane) as uint32[64]."""
        r = self._reg(tok)
        if r and r[0] == "v":
            if w.pend and ("v", r[1]) in w.pend:
                self._conflict(w, "reads", ("v", r[1]))
            return w.v[r[1]].copy()
        return np.full(WAVE, self.sread(w, tok) & M32, dtype=np.uint32)

    def vread64(self, w, tok):
        r = self._reg(tok)
        assert r and r[0] == "v" and r[2] == r[1] + 1, tok
        for i in (r[1], r[2]):
            if w.pend and ("v", i) in w.pend:
                self._conflict(w, "reads", ("v", i))
        return w.v[r[1]].astype(np.uint64) | (w.v[r[2]].astype(np.uint64) << np.uint64(32))

    def vwrite(self, w, tok, vals, active):
        r = self._reg(tok)
        assert r and r[0] == "v", tok
        if (w.pend or w.held) and (("v", r[1]) in w.pend or ("v", r[1]) in w.held):
            self._conflict(w, "writes", ("v", r[1]))
        w.v[r[1]][active] = np.asarray(vals, dtype=np.uint32)[active]

    # -- launch ---------------------------------------------------------------------------------
    def launch(self, mem, grid, block, kernarg_addr, lds_bytes=0):
        """Runs every workgroup of a grid (in workgroups, x/y/z) of `block` work-items (x only)."""
        gx, gy, gz = grid
        nwaves = (block + WAVE - 1) // WAVE
        for z in range(gz):
            for y in range(gy):
                for x in range(gx):
                    self._run_group(mem, (x, y, z), block, nwaves, kernarg_addr, lds_bytes)

    def _run_group(self, mem, gid, block, nwaves, kernarg_addr, lds_bytes):
        lds = np.full(max(lds_bytes // 4, 1), POISON, dtype=np.uint32) if lds_bytes else np.zeros(0, np.uint32)
        waves = []
        for i in range(nwaves):
            w = Wave(self.nvgpr)
            w.pc = self.entry
            w.s[0], w.s[1] = kernarg_addr & M32, kernarg_addr >> 32
            w.s[2], w.s[3], w.s[4] = gid
            w.v[0] = np.arange(i * WAVE, (i + 1) * WAVE, dtype=np.uint32)
            n_active = min(WAVE, block - i * WAVE)
            w.exec = (1 << n_active) - 1
            waves.append(w)
        while True:
            runnable = [w for w in waves if not w.done and not w.at_barrier]
            if not runnable:
                live = [w for w in waves if not w.done]
                if not live:
                    return
                for w in live:               # every live wave is at the barrier
                    w.at_barrier = False
                continue
            if self.rng is None:             # in order, each until its barrier or end
                for w in runnable:
                    self._run_wave(w, mem, lds)
            else:                            # a random wave runs a random number of instructions
                self._run_wave(self.rng.choice(runnable), mem, lds, budget=self.rng.randint(1, 48))

    def run_wave(self, w, mem, lds=None):
        """Runs a single wave (already set up) until s_endpgm or s_barrier (tests)."""
        if w.pc == 0:
            w.pc = self.entry
        self._run_wave(w, mem, np.zeros(0, np.uint32) if lds is None else lds)

    def _run_wave(self, w, mem, lds, budget=None):
        while True:
            ins = self.code[w.pc]
            self.counts[ins.op] += 1
            w.steps += 1
            if w.steps > self.max_steps:
                raise RuntimeError("too many steps (an endless loop?)")
            if self.hazards:
                w.hazards.observe(ins)
            nxt = self.step(w, ins, mem, lds)
            if self.early and not w.done:
                self._maybe_complete_early(w)
            if w.done or w.at_barrier:
                w.pc = w.pc + 1
                return
            w.pc = nxt if nxt is not None else w.pc + 1
            if budget is not None:
                budget -= 1
                if budget <= 0:
                    return

    # -- instructions ---------------------------------------------------------------------------
    def step(self, w, ins, mem, lds):
        """Executes one instruction; returns the next instruction index for a taken branch."""
        op = re.sub(r"_e(32|64)$", "", ins.op)
        o = ins.operands
        handler = getattr(self, "op_" + op, None)
        if handler is None:
            raise NotImplementedError(f"instruction {ins.op} ({ins.text}) is not interpreted")
        self._ins = ins
        return handler(w, o, ins, mem, lds)

    # program control
    def op_s_endpgm(self, w, o, ins, mem, lds):
        self.drain(w)                    # outstanding stores still reach memory
        w.done = True

    def op_s_barrier(self, w, o, ins, mem, lds):
        w.at_barrier = True

    def op_s_waitcnt(self, w, o, ins, mem, lds):
        vm, exp, lgkm = waitcnt_fields(ins)
        while len(w.vm) > vm:
            self._complete(w, w.vm[0])
        while len(w.lgkm) > lgkm:
            self._complete_lgkm_one(w)
        # expcnt: no export or GDS instruction is interpreted, so nothing counts in it

    def op_s_nop(self, w, o, ins, mem, lds):
        pass

    def _branch(self, ins, o):
        simm = ins.words[0] & 0xFFFF               # SOPP simm16 (the text may show a label)
        if simm >= 0x8000:
            simm -= 0x10000
        target = ins.addr + 4 + 4 * simm
        if target not in self.index:
            raise RuntimeError(f"branch to {target:#x} is not an instruction")
        return self.index[target]

    def op_s_branch(self, w, o, ins, mem, lds):
        return self._branch(ins, o)

    def op_s_cbranch_scc0(self, w, o, ins, mem, lds):
        return self._branch(ins, o) if w.scc == 0 else None

    def op_s_cbranch_scc1(self, w, o, ins, mem, lds):
        return self._branch(ins, o) if w.scc == 1 else None

    def op_s_cbranch_execz(self, w, o, ins, mem, lds):
        return self._branch(ins, o) if w.exec == 0 else None

    def op_s_cbranch_vccz(self, w, o, ins, mem, lds):
        return self._branch(ins, o) if w.vcc == 0 else None

    # scalar ALU (SOP1 / SOP2 / SOPC)
    def op_s_mov_b32(self, w, o, ins, mem, lds):
        self.swrite(w, o[0], self.sread(w, o[1]))

    def op_s_mov_b64(self, w, o, ins, mem, lds):
        self.swrite(w, o[0], self.sread(w, o[1], 64), 64)

    def op_s_add_u32(self, w, o, ins, mem, lds):
        r = self.sread(w, o[1]) + self.sread(w, o[2])
        w.scc = int(r > M32)
        self.swrite(w, o[0], r & M32)

    def op_s_addc_u32(self, w, o, ins, mem, lds):
        r = self.sread(w, o[1]) + self.sread(w, o[2]) + w.scc
        w.scc = int(r > M32)
        self.swrite(w, o[0], r & M32)

    def op_s_sub_u32(self, w, o, ins, mem, lds):
        a, b = self.sread(w, o[1]), self.sread(w, o[2])
        w.scc = int(b > a)
        self.swrite(w, o[0], (a - b) & M32)

    def op_s_mul_i32(self, w, o, ins, mem, lds):
        self.swrite(w, o[0], (self.sread(w, o[1]) * self.sread(w, o[2])) & M32)

    def op_s_lshl_b32(self, w, o, ins, mem, lds):
        r = (self.sread(w, o[1]) << (self.sread(w, o[2]) & 31)) & M32
        w.scc = int(r != 0)
        self.swrite(w, o[0], r)

    def op_s_lshr_b32(self, w, o, ins, mem, lds):
        r = self.sread(w, o[1]) >> (self.sread(w, o[2]) & 31)
        w.scc = int(r != 0)
        self.swrite(w, o[0], r)

    def op_s_min_u32(self, w, o, ins, mem, lds):
        a, b = self.sread(w, o[1]), self.sread(w, o[2])
        w.scc = int(a < b)
        self.swrite(w, o[0], a if a < b else b)

    def op_s_and_b64(self, w, o, ins, mem, lds):
        r = self.sread(w, o[1], 64) & self.sread(w, o[2], 64)
        w.scc = int(r != 0)
        self.swrite(w, o[0], r, 64)

    def op_s_cselect_b64(self, w, o, ins, mem, lds):
        self.swrite(w, o[0], self.sread(w, o[1], 64) if w.scc else self.sread(w, o[2], 64), 64)

    def op_s_and_saveexec_b64(self, w, o, ins, mem, lds):
        old = w.exec
        w.exec = self.sread(w, o[1], 64) & old
        w.scc = int(w.exec != 0)
        self.swrite(w, o[0], old, 64)

    def op_s_cmp_lt_u32(self, w, o, ins, mem, lds):
        w.scc = int(self.sread(w, o[0]) < self.sread(w, o[1]))

    def op_s_cmp_eq_u32(self, w, o, ins, mem, lds):
        w.scc = int(self.sread(w, o[0]) == self.sread(w, o[1]))

    # scalar memory
    def _s_load(self, w, o, ins, mem, n):
        base = self.sread(w, o[1], 64)
        off = self.sread(w, o[2]) if len(o) > 2 else 0
        first = self._reg(o[0])[1]
        addr = (base + off) & ~3
        mem.view(addr, 4 * n)                  # faults at issue

        def finish():
            vals = mem.get(addr, np.uint32, n)
            for i in range(n):
                w.s[first + i] = int(vals[i])
        self._issue(w, MemOp(ins, "smem", [("s", first + i) for i in range(n)], finish))

    def op_s_load_dword(self, w, o, ins, mem, lds):
        self._s_load(w, o, ins, mem, 1)

    def op_s_load_dwordx2(self, w, o, ins, mem, lds):
        self._s_load(w, o, ins, mem, 2)

    def op_s_load_dwordx4(self, w, o, ins, mem, lds):
        self._s_load(w, o, ins, mem, 4)

    def op_s_load_dwordx8(self, w, o, ins, mem, lds):
        self._s_load(w, o, ins, mem, 8)

    # vector ALU
    def _active(self, w):
        return _lanes(w.exec)

    def op_v_mov_b32(self, w, o, ins, mem, lds):
        self.vwrite(w, o[0], self.vread(w, o[1]), self._active(w))

    def op_v_readfirstlane_b32(self, w, o, ins, mem, lds):
        act = self._active(w)
        lane = int(np.argmax(act)) if act.any() else 0
        self.swrite(w, o[0], int(self.vread(w, o[1])[lane]))

    def op_v_and_b32(self, w, o, ins, mem, lds):
        self.vwrite(w, o[0], self.vread(w, o[1]) & self.vread(w, o[2]), self._active(w))

    def op_v_lshrrev_b32(self, w, o, ins, mem, lds):   # D = S1 >> S0[4:0]
        self.vwrite(w, o[0], self.vread(w, o[2]) >> (self.vread(w, o[1]) & 31), self._active(w))

    def op_v_lshlrev_b32(self, w, o, ins, mem, lds):   # D = S1 << S0[4:0]
        self.vwrite(w, o[0], self.vread(w, o[2]) << (self.vread(w, o[1]) & 31), self._active(w))

    def op_v_ashrrev_i32(self, w, o, ins, mem, lds):   # D = signed(S1) >> S0[4:0]
        r = self.vread(w, o[2]).view(np.int32) >> (self.vread(w, o[1]) & 31).astype(np.int32)
        self.vwrite(w, o[0], r.view(np.uint32), self._active(w))

    def op_v_add_u32(self, w, o, ins, mem, lds):       # gfx9: no carry out
        r = (self.vread(w, o[1]).astype(np.uint64) + self.vread(w, o[2])) & M32
        self.vwrite(w, o[0], r.astype(np.uint32), self._active(w))

    def op_v_sub_u32(self, w, o, ins, mem, lds):
        r = (self.vread(w, o[1]).astype(np.int64) - self.vread(w, o[2])) & M32
        self.vwrite(w, o[0], r.astype(np.uint32), self._active(w))

    def op_v_mul_lo_u32(self, w, o, ins, mem, lds):
        a = self.vread(w, o[1]).astype(object)
        b = self.vread(w, o[2]).astype(object)
        r = np.array([(int(x) * int(y)) & M32 for x, y in zip(a, b)], dtype=np.uint32)
        self.vwrite(w, o[0], r, self._active(w))

    def op_v_add_co_u32(self, w, o, ins, mem, lds):    # D = S0 + S1; sdst lane = carry out
        act = self._active(w)
        r = self.vread(w, o[2]).astype(np.uint64) + self.vread(w, o[3])
        self.vwrite(w, o[0], (r & M32).astype(np.uint32), act)
        self.swrite(w, o[1], _mask((r > M32) & act), 64)

    def op_v_addc_co_u32(self, w, o, ins, mem, lds):   # D = S0 + S1 + carry-in lane of S2
        act = self._active(w)
        cin = _lanes(self.sread(w, o[4], 64)).astype(np.uint64)
        r = self.vread(w, o[2]).astype(np.uint64) + self.vread(w, o[3]) + cin
        self.vwrite(w, o[0], (r & M32).astype(np.uint32), act)
        self.swrite(w, o[1], _mask((r > M32) & act), 64)

    def _vcmp(self, w, o, fn, signed=False):
        act = self._active(w)
        a, b = self.vread(w, o[1]), self.vread(w, o[2])
        if signed:
            a, b = a.view(np.int32), b.view(np.int32)
        self.swrite(w, o[0], _mask(fn(a, b) & act), 64)

    def op_v_cmp_gt_u32(self, w, o, ins, mem, lds):
        self._vcmp(w, o, np.greater)

    def op_v_cmp_lt_u32(self, w, o, ins, mem, lds):
        self._vcmp(w, o, np.less)

    def op_v_cmp_gt_i32(self, w, o, ins, mem, lds):
        self._vcmp(w, o, np.greater, signed=True)

    def op_v_cndmask_b32(self, w, o, ins, mem, lds):   # D = lane bit of S2 ? S1 : S0
        sel = _lanes(self.sread(w, o[3], 64))
        self.vwrite(w, o[0], np.where(sel, self.vread(w, o[2]), self.vread(w, o[1])), self._active(w))

    def op_v_fmac_f32(self, w, o, ins, mem, lds):      # D = S0 * S1 + D, one rounding
        # The fp32 product is exact in float64; the float64 sum is then rounded to fp32, a double
        # rounding that can differ from the hardware's single rounding in the last bit in rare ties.
        a = _f32(self.vread(w, o[1])).astype(np.float64)
        b = _f32(self.vread(w, o[2])).astype(np.float64)
        d = _f32(self.vread(w, o[0])).astype(np.float64)
        with np.errstate(all="ignore"):
            r = (a * b + d).astype(np.float32)
        self.vwrite(w, o[0], _u32(r), self._active(w))

    def op_v_fma_f32(self, w, o, ins, mem, lds):       # D = S0 * S1 + S2
        a, b, c = (_f32(self.vread(w, t)).astype(np.float64) for t in o[1:4])
        with np.errstate(all="ignore"):
            r = (a * b + c).astype(np.float32)
        self.vwrite(w, o[0], _u32(r), self._active(w))

    def op_v_add_f32(self, w, o, ins, mem, lds):
        with np.errstate(all="ignore"):
            r = _f32(self.vread(w, o[1])) + _f32(self.vread(w, o[2]))
        self.vwrite(w, o[0], _u32(r), self._active(w))

    def op_v_mul_f32(self, w, o, ins, mem, lds):
        with np.errstate(all="ignore"):
            r = _f32(self.vread(w, o[1])) * _f32(self.vread(w, o[2]))
        self.vwrite(w, o[0], _u32(r), self._active(w))

    # vector memory (global): "vaddr64, off" or "vaddr32, saddr64"; signed 13-bit offset
    def _gaddr(self, w, vaddr_tok, saddr_tok, ins):
        off = ins.mods.get("offset", 0)
        if saddr_tok == "off":
            return (self.vread64(w, vaddr_tok).astype(object) + off) & ((1 << 64) - 1)
        base = self.sread(w, saddr_tok, 64)
        return (self.vread(w, vaddr_tok).astype(object) + base + off) & ((1 << 64) - 1)

    def op_global_load_dword(self, w, o, ins, mem, lds):
        act = self._active(w)
        addrs = self._gaddr(w, o[1], o[2], ins)
        dst = self._reg(o[0])[1]

        def finish():
            w.v[dst][act] = mem.load_u32(addrs[act])
        self._issue(w, MemOp(ins, "vmem", [("v", dst)], finish))

    def op_global_store_dword(self, w, o, ins, mem, lds):
        act = self._active(w)
        addrs = self._gaddr(w, o[0], o[2], ins)
        data = self.vread(w, o[1])[act]        # gfx9 reads the store data at issue
        held = [("v", self._reg(o[1])[1])] if self.strict_store_data else []
        self._issue(w, MemOp(ins, "vmem", [], lambda: mem.store_u32(addrs[act], data), held))

    # LDS
    def _lds_index(self, w, tok, ins, lds):
        act = self._active(w)
        addr = self.vread(w, tok).astype(np.int64) + ins.mods.get("offset", 0)
        a = addr[act]
        if a.size and (np.any(a % 4) or np.any(a < 0) or np.any(a + 4 > lds.size * 4)):
            raise MemoryFault(f"LDS access out of range or unaligned: {a.min()}..{a.max()} "
                              f"of {lds.size * 4} bytes")
        return act, addr // 4

    def op_ds_write_b32(self, w, o, ins, mem, lds):
        act, idx = self._lds_index(w, o[0], ins, lds)
        data = self.vread(w, o[1])

        def finish():
            for lane in np.nonzero(act)[0]:         # lanes in order: the highest lane wins
                lds[idx[lane]] = data[lane]
        held = [("v", self._reg(o[1])[1])] if self.strict_store_data else []
        self._issue(w, MemOp(ins, "lds", [], finish, held))

    def op_ds_read_b32(self, w, o, ins, mem, lds):
        act, idx = self._lds_index(w, o[1], ins, lds)
        dst = self._reg(o[0])[1]

        def finish():
            w.v[dst][act] = lds[idx[act]]
        self._issue(w, MemOp(ins, "lds", [("v", dst)], finish))
