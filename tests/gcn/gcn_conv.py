"""Launches the two asm/ convolution kernels in the interpreter (test-only): packs the kernel
arguments as the host structs in hip/src/conv/solver_support/conv_asm_args.hpp do, sizes the grid as
the solvers do, poisons the output with NaN and returns it."""
import struct
from functools import lru_cache

import numpy as np

from gcn_interpreter import Interpreter, Memory
from gcn_tools import assemble, disassemble

GROUP = 256          # 4 waves: 4 output rows x 64 output columns


@lru_cache(maxsize=None)
def _disassembly(kernel, mcpu):
    return disassemble(assemble(kernel, mcpu))


def interpreter(kernel, mcpu="gfx906", seed=None):
    """The kernel's interpreter; seed picks the schedule (see Interpreter)."""
    return Interpreter(_disassembly(kernel, mcpu), kernel, seed=seed)


def _ceil(a, b):
    return (a + b - 1) // b


def run_conv3x3(x, w, mcpu="gfx906", interp=None, seed=None):
    """y = conv2d(x, w, stride 1, pad 1) by conv_fwd_3x3_gcn."""
    n, c, h, wd = x.shape
    k = w.shape[0]
    assert w.shape == (k, c, 3, 3)
    mem = Memory()
    xa = mem.put(np.ascontiguousarray(x, np.float32))
    wa = mem.put(np.ascontiguousarray(w, np.float32))
    ya = mem.put(np.full((n, k, h, wd), np.nan, np.float32))
    args = struct.pack("<QQQIIIIII", xa, wa, ya, n, c, h, wd, k, 0)
    assert len(args) == 48
    ka = mem.put(np.frombuffer(args, np.uint8))
    interp = interp or interpreter("conv_fwd_3x3_gcn", mcpu, seed)
    interp.launch(mem, (_ceil(wd, 64), _ceil(h, 4), k), GROUP, ka, lds_bytes=8 * 9 * 4)
    return mem.get(ya, np.float32, n * k * h * wd).reshape(n, k, h, wd)


def run_conv1x1(x, w, stride, mcpu="gfx906", interp=None, seed=None):
    """y = conv2d(x, w, stride, pad 0) for a 1x1 filter by conv_fwd_1x1_gcn."""
    n, c, h, wd = x.shape
    k = w.shape[0]
    assert w.shape == (k, c, 1, 1)
    ho, wo = (h - 1) // stride + 1, (wd - 1) // stride + 1
    mem = Memory()
    xa = mem.put(np.ascontiguousarray(x, np.float32))
    wa = mem.put(np.ascontiguousarray(w, np.float32))
    ya = mem.put(np.full((n, k, ho, wo), np.nan, np.float32))
    args = struct.pack("<QQQIIIIIIII", xa, wa, ya, n, c, h, wd, k, ho, wo, stride)
    assert len(args) == 56
    ka = mem.put(np.frombuffer(args, np.uint8))
    interp = interp or interpreter("conv_fwd_1x1_gcn", mcpu, seed)
    interp.launch(mem, (_ceil(wo, 64), _ceil(ho, 4), _ceil(k, 4)), GROUP, ka)
    return mem.get(ya, np.float32, n * k * ho * wo).reshape(n, k, ho, wo)
