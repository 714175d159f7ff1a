"""miopen-driver: MIOpenDriver's command line over miopen_cy.

`miopen-driver <sub-command> [flags]` (also `python -m miopen_cy ...`) sets up one layer from
MIOpenDriver's flags, runs it through the public Python mirror of the C API (Find for
convolution), times it (average over -i iterations, excluding the first) and verifies the result
against an independent float64 NumPy reference that lives in this file and shares no code with
the library. Sub-commands: conv, pool, lrn, activ, softmax, bnorm, tensorop (MIOpenDriver's), and
`net resnet50`, which runs every distinct convolution of ResNet-50 v1.5 and prints one table.

The lines that MIOPEN_ENABLE_LOGGING_CMD=1 prints run here unchanged. Exit status: 0 when every
verification passed, 1 when one failed, 2 for a usage error (unknown or contradictory flags),
3 when the library refused the problem.
"""
import contextlib
import fnmatch
import json
import math
import glob
import os
import shlex
import sys
import tempfile
import time

import numpy as np

import miopen_cy as mi

EXIT_OK, EXIT_VERIFY_FAILED, EXIT_USAGE, EXIT_LIBRARY = 0, 1, 2, 3
PROG = "miopen-driver"

# fp32 tolerance on MIOpen's error metric (rms_range): MIOpen's own ConvDriver values.
CONV_TOL = 1.5e-6


class UsageError(Exception):
    """A flag problem: reported argparse-style with exit status 2."""


# ================================================================================================
# Flags: MIOpenDriver's InputFlags (every flag has a long name and, mostly, a one-character short
# name; each takes exactly one value), plus miopen_cy's own long-only --device and --json.
# ================================================================================================

class Flag:
    __slots__ = ("name", "short", "default", "kind", "help", "aliases")

    def __init__(self, name, short, default, kind, help, aliases=()):
        self.name, self.short, self.default = name, short, default
        self.kind, self.help, self.aliases = kind, help, tuple(aliases)


def F(name, short, default, kind, help, *aliases):
    return Flag(name, short, default, kind, help, aliases)


COMMON_FLAGS = [
    F("device", None, "cpu", "choice:cpu,gpu", "miopen_cy: the device to run on (cpu or gpu)"),
    F("json", None, False, "switch", "miopen_cy: print one JSON object instead of text"),
]

CONV_FLAGS = [
    F("in_layout", "I", "", "str", "Input Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)"),
    F("out_layout", "O", "", "str", "Output Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)"),
    F("fil_layout", "f", "", "str", "Filter Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)"),
    F("spatial_dim", "_", 2, "int", "convolution spatial dimension (Default-2; 1 is miopen_cy's)"),
    F("forw", "F", 0, "int", "0 fwd+bwd+wrw (default), 1 fwd, 2 bwd, 4 wrw; a bitmask (3, 5, 6)"),
    F("batchsize", "n", 100, "int", "Mini-batch size (Default=100)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_d", "!", 32, "int", "Input Depth (Default=32)"),
    F("in_h", "H", 32, "int", "Input Height (Default=32)"),
    F("in_w", "W", 32, "int", "Input Width (Default=32)"),
    F("out_channels", "k", 32, "int", "Number of Output Channels (Default=32)"),
    F("fil_d", "@", 3, "int", "Filter Depth (Default=3)"),
    F("fil_h", "y", 3, "int", "Filter Height (Default=3)"),
    F("fil_w", "x", 3, "int", "Filter Width (Default=3)"),
    F("conv_stride_d", "#", 1, "int", "Convolution Stride for Depth (Default=1)"),
    F("conv_stride_h", "u", 1, "int", "Convolution Stride for Height (Default=1)", "conv_stride_0"),
    F("conv_stride_w", "v", 1, "int", "Convolution Stride for Width (Default=1)", "conv_stride_1"),
    F("pad_d", "$", 0, "int", "Zero Padding for Depth (Default=0)"),
    F("pad_h", "p", 0, "int", "Zero Padding for Height (Default=0)"),
    F("pad_w", "q", 0, "int", "Zero Padding for Width (Default=0)"),
    F("pad_val", "r", 0, "int", "Padding Value (Default=0; only 0 is supported)"),
    F("trans_output_pad_d", "%", 0, "int", "Zero Padding Output for Depth (Default=0)"),
    F("trans_output_pad_h", "Y", 0, "int", "Zero Padding Output for Height (Default=0)"),
    F("trans_output_pad_w", "X", 0, "int", "Zero Padding Output for Width (Default=0)"),
    F("iter", "i", 10, "int", "Number of Iterations (Default=10)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("verification_cache", "C", "", "str", "Verification cache directory (accepted, not used)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
    F("search", "s", 0, "int", "Search Kernel Config (exhaustiveSearch of Find) (Default=0)"),
    F("printconv", "P", 1, "int", "Print Convolution Dimensions (Default=1)"),
    F("dump_output", "o", 0, "int", "Dumps the output buffers (Default=0)"),
    F("in_data", "d", "", "str", "Input data filename (Default=)"),
    F("weights", "e", "", "str", "Input weights filename (Default=)"),
    F("bias", "b", 0, "int", "Use Bias: add it after forward, its gradient after backward (Default=0)"),
    F("mode", "m", "conv", "str", "Convolution Mode (conv, trans) (Default=conv)"),
    F("pad_mode", "z", "default", "str", "Padding Mode (same, valid, default) (Default=default)"),
    F("tensor_vect", "Z", 0, "int", "tensor vectorization type (only 0 is supported)"),
    F("vector_length", "L", 1, "int", "tensor vectorization length (only 1 is supported)"),
    F("dilation_d", "^", 1, "int", "Dilation of Filter Depth (Default=1)"),
    F("dilation_h", "l", 1, "int", "Dilation of Filter Height (Default=1)"),
    F("dilation_w", "j", 1, "int", "Dilation of Filter Width (Default=1)"),
    F("in_bias", "a", "", "str", "Input bias filename (Default=)"),
    F("group_count", "g", 1, "int", "Number of Groups (Default=1)"),
    F("dout_data", "D", "", "str", "dy data filename for backward weight computation (Default=)"),
    F("solution", "S", "-1", "str", "Solver name or id: Find runs that solver alone (the library's immediate mode is the C/Python API's *Immediate calls); <0 or 0: Find (Default=-1)"),
]

POOL_FLAGS = [
    F("input", None, "", "str", "Input tensor NxC[xD]xHxW[,layout] (overrides -n -c -H -W)"),
    F("dinput", "D", "", "str", "dx tensor descriptor (must match the input)"),
    F("output", "O", "", "str", "y tensor descriptor (must match the computed output)"),
    F("doutput", None, "", "str", "dy tensor descriptor (must match the computed output)"),
    F("forw", "F", 0, "int", "0 forward and backward, 1 forward only, 2 backward only"),
    F("batchsize", "n", 100, "int", "Mini-batch size (Default=100)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_d", "!", 32, "int", "Input Depth, with --spatial_dim 3 (Default=32)"),
    F("in_h", "H", "32", "str", "Input Height, or the dy tensor NxCxHxW (Default=32)"),
    F("in_w", "W", "32", "str", "Input Width, or the input tensor NxCxHxW (Default=32)"),
    F("spatial_dim", "_", 2, "int", "pooling spatial dimension (Default=2)"),
    F("out_channels", "k", 0, "int", "ignored (old MIOpenDriver flag)"),
    F("win_d", "Z", 3, "int", "Window Depth (Default=3)"),
    F("win_h", "y", 3, "int", "Window Height (Default=3)"),
    F("win_w", "x", 3, "int", "Window Width (Default=3)"),
    F("pool_stride_d", "s", 1, "int", "Pooling Stride Depth (Default=1)"),
    F("pool_stride_h", "v", 1, "int", "Pooling Stride Height (Default=1)"),
    F("pool_stride_w", "u", 1, "int", "Pooling Stride Width (Default=1)"),
    F("pad_d", "o", 0, "int", "Zero Padding Depth (Default=0)"),
    F("pad_h", "p", 0, "int", "Zero Padding Height (Default=0)"),
    F("pad_w", "q", 0, "int", "Zero Padding Width (Default=0)"),
    F("pad_val", "r", 0, "int", "Padding Value (Default=0; only 0 is supported)"),
    F("index_position", "M", 0, "int", "Image index 1, mask index 0 (Default=0)"),
    F("iter", "i", 10, "int", "Number of Iterations (Default=10)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
    F("print", "P", 1, "int", "Print Pooling Dimensions (Default=1)"),
    F("mode", "m", "max", "str", "Pooling Mode (max, avg, avg_in) (Default=max)"),
    F("pad_mode", "z", "default", "str", "Padding Mode (same, valid, default) (Default=default)"),
    F("index_type", "I", "miopenIndexUint8", "str",
      "Index Data Type (miopenIndexUint8|16|32|64) (Default=miopenIndexUint8)"),
]

LRN_FLAGS = [
    F("forw", "F", 0, "int", "0 forward and backward, 1 forward only, 2 backward only"),
    F("batchsize", "n", 100, "int", "Mini-batch size (Default=100)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_h", "H", 32, "int", "Input Height (Default=32)"),
    F("in_w", "W", 32, "int", "Input Width (Default=32)"),
    F("lrnN", "N", 5, "int", "lrnN (Default=5)"),
    F("alpha", "A", 0.001, "float", "lrn Alpha (Default=0.001)"),
    F("beta", "B", 0.75, "float", "lrn Beta (Default=0.75)"),
    F("lrnK", "K", 1.0, "float", "lrnK (Default=1.0)"),
    F("iter", "i", 10, "int", "Number of Iterations (Default=10)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
    F("printconv", "P", 1, "int", "Print Dimensions (Default=1)"),
    F("mode", "m", "within", "str", "LRN Mode (within, cross) (Default=within)"),
]

ACTIV_FLAGS = [
    F("forw", "F", 0, "int", "0 forward and backward, 1 forward only, 2 backward only"),
    F("batchsize", "n", 100, "int", "Mini-batch size (Default=100)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_h", "H", 32, "int", "Input Height (Default=32)"),
    F("in_w", "W", 32, "int", "Input Width (Default=32)"),
    F("layout", "L", "", "str", "Tensor layout: NCHW or NHWC (Default=NCHW)"),
    F("mode", "m", 3, "int", "Activation Mode (0 PASTHRU .. 9 ELU, miopenActivationMode_t) (Default=3, RELU)"),
    F("alpha", "A", 1.0, "float", "Activation alpha (Default=1)"),
    F("beta", "B", 1.0, "float", "Activation beta (Default=1)"),
    F("gamma", "G", 1.0, "float", "Activation gamma (Default=1)", "power"),
    F("power", "P", None, "float", "Activation power: old name of --gamma"),
    F("iter", "i", 10, "int", "Number of Iterations (Default=10)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
]

SOFTMAX_FLAGS = [
    F("forw", "F", 0, "int", "0 forward and backward, 1 forward only, 2 backward only"),
    F("layout", "L", "", "str", "Tensor layout: NCHW or NHWC (Default=NCHW)"),
    F("batchsize", "n", 100, "int", "Mini-batch size (Default=100)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_h", "H", 32, "int", "Input Height (Default=32)"),
    F("in_w", "W", 32, "int", "Input Width (Default=32)"),
    F("alpha", "A", 1.0, "float", "Softmax alpha (Default=1.0)"),
    F("beta", "B", 0.0, "float", "Softmax beta (Default=0.0)"),
    F("algorithm", "a", 1, "int", "softmax algorithms: fast (0), accurate (1), logsoftmax (2) (Default=1)"),
    F("mode", "m", 1, "int", "instance mode (0), channel mode (1) (Default=1)"),
    F("iter", "i", 10, "int", "Number of Iterations (Default=10)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
]

BNORM_FLAGS = [
    F("forw", "F", 0, "int", "Run Forward Train (off: 0, train: 1, inference: 2) (Default=0: train unless -b 1)"),
    F("back", "b", 0, "int", "Backwards Propagation (off: 0, on: 1) (Default=0)"),
    F("batchsize", "n", 32, "int", "Mini-batch size (Default=32)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_h", "H", 32, "int", "Input Height (Default=32)"),
    F("in_w", "W", 32, "int", "Input Width (Default=32)"),
    F("in_d", "D", 0, "int", "Input Depth (Default=0: a 2-d input)"),
    F("layout", "L", "", "str", "Layout NCHW, NHWC, NCDHW, NDHWC (Default=NCHW / NCDHW)"),
    F("alpha", "A", 1.0, "float", "Alpha (Default=1.0)"),
    F("beta", "B", 0.0, "float", "Beta (Default=0.)"),
    F("iter", "i", 1, "int", "Number of Iterations (Default=1)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("printconv", "P", 1, "int", "Print Dimensions (Default=1)"),
    F("mode", "m", 0, "int", "Normalization Mode (per-activation (0) or spatial (1)) (Default=0)"),
    F("save", "s", 0, "int", "Save off mean and inverse variance, or on backprop, use these values (Default=0)"),
    F("run", "r", 0, "int", "Keep running mean and variance, or on inference, use these values (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
]

TENSOROP_FLAGS = [
    F("forw", "F", 1, "int", "Direction of operation (not used)"),
    F("batchsize", "n", 64, "int", "Mini-batch size (Default=64)"),
    F("in_channels", "c", 3, "int", "Number of Input Channels (Default=3)"),
    F("in_h", "H", 32, "int", "Input Height (Default=32)"),
    F("in_w", "W", 32, "int", "Input Width (Default=32)"),
    F("alpha1", "A", 1.0, "float", "alpha1 (Default=1)"),
    F("alpha2", "B", 1.0, "float", "alpha2 (Default=1)"),
    F("beta", "G", 0.0, "float", "beta (Default=0)"),
    F("iter", "i", 10, "int", "Number of Iterations (Default=10)"),
    F("verify", "V", 1, "int", "Verify Each Layer (Default=1)"),
    F("time", "t", 0, "int", "Time Each Layer (Default=0)"),
    F("wall", "w", 0, "int", "Wall-clock Time Each Layer, requires --time 1 (Default=0)"),
    F("tensor_op", "o", 0, "int", "0 SetTensor, 1 ScaleTensor, 2 Add, 3 Mul, 4 Min, 5 Max (Default=0)"),
    F("tensor_val", "v", 1.0, "float", "Scalar value for SetTensor and ScaleTensor (Default=1)"),
]

NET_FLAGS = [
    F("batch", "n", 8, "int", "Mini-batch size (Default=8)", "batchsize"),
    F("directions", "F", "all", "str",
      "Directions: all, or a list of fwd,bwd,wrw, or MIOpenDriver's -F bitmask (Default=all)"),
    F("layers", None, "*", "str", "Comma-separated glob patterns of layer names to run (Default=*)"),
    F("iter", "i", 3, "int", "Timed iterations per direction; the first is excluded (Default=3)"),
    F("verify", "V", 1, "int", "Verify every direction against the float64 reference (Default=1)"),
    F("commands", None, 0, "int", "1: also print each layer's miopen-driver command line"),
]


def _convert(flag, text, where):
    kind = flag.kind
    if kind == "str":
        return text
    if kind.startswith("choice:"):
        choices = kind.split(":", 1)[1].split(",")
        if text not in choices:
            raise UsageError(f"{where}: invalid choice {text!r} (choose from {', '.join(choices)})")
        return text
    try:
        if kind == "int":
            if text == "":
                return 0
            try:
                return int(text, 10)
            except ValueError:
                v = float(text)                      # MIOpenDriver reads ints with atoi: 2.0 is 2
                if v != int(v):
                    raise
                return int(v)
        if kind == "float":
            return float(text)
    except ValueError:
        raise UsageError(f"{where}: invalid {kind} value {text!r}") from None
    raise AssertionError(kind)


def parse_flags(cmd, flags, args):
    """MIOpenDriver's flag syntax: `-x value` or `--long_name value` (also `--long_name=value`);
    the last occurrence of a flag wins. Returns (values by long name, set of names given)."""
    flags = list(flags) + COMMON_FLAGS
    by_long, by_short = {}, {}
    for f in flags:
        for name in (f.name,) + f.aliases:
            by_long[name] = f
        if f.short:
            by_short[f.short] = f
    values = {f.name: f.default for f in flags}
    given = set()
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help", "-?"):
            raise HelpRequested(cmd, flags)
        value = None
        if a.startswith("--") and len(a) > 2:
            name = a[2:]
            if "=" in name:
                name, value = name.split("=", 1)
            f = by_long.get(name)
            if f is None:
                raise UsageError(f"unknown flag --{name} for '{cmd}'" + _suggest(name, by_long))
            where = f"--{name}"
        elif a.startswith("-") and len(a) >= 2:
            f = by_short.get(a[1])
            if f is None:
                raise UsageError(f"unknown flag -{a[1]} for '{cmd}'")
            where = f"-{a[1]} (--{f.name})"
            if len(a) > 2:
                value = a[2:]
        else:
            raise UsageError(f"unexpected argument {a!r} for '{cmd}' (flags look like -n 4 or --batchsize 4)")
        if f.kind == "switch":
            if value is not None:
                raise UsageError(f"{where} takes no value")
            values[f.name] = True
        else:
            if value is None:
                if i + 1 >= len(args):
                    raise UsageError(f"{where} needs a value")
                i += 1
                value = args[i]
            values[f.name] = _convert(f, value, where)
        given.add(f.name)
        i += 1
    return values, given


def _suggest(name, names):
    close = [n for n in names if n.startswith(name[:3])] if len(name) >= 3 else []
    return f" (did you mean {', '.join('--' + c for c in sorted(close)[:3])}?)" if close else ""


class HelpRequested(Exception):
    def __init__(self, cmd, flags):
        super().__init__(cmd)
        self.cmd, self.flags = cmd, flags

    def text(self):
        lines = [f"usage: {PROG} {self.cmd} [flags]", "", "flags:"]
        for f in self.flags:
            names = (f"-{f.short}, " if f.short else "    ") + f"--{f.name}"
            default = "" if f.kind == "switch" else f" (default {f.default!r})"
            lines.append(f"  {names:<26} {f.help}{default}")
        return "\n".join(lines)


# ================================================================================================
# Output: text in MIOpenDriver's shape, or one JSON object (--json).
# ================================================================================================

class Report:
    """Collects what a run prints; in --json mode the text is kept out of stdout."""

    def __init__(self, as_json, stream=None):
        self.as_json = as_json
        self.stream = stream if stream is not None else sys.stdout
        self.record = {}
        self.results = []
        self.failed = False

    def say(self, line=""):
        if not self.as_json:
            print(line, file=self.stream, flush=True)

    def verdict(self, label, err, tol, result):
        """MIOpenDriver's verification line; marks the run failed when err > tol or not finite."""
        ok = bool(np.isfinite(err) and err <= tol)
        result.update(verified=ok, error=_finite_or_none(err), tolerance=tol)
        if ok:
            self.say(f"{label} Verifies OK on CPU reference ({err:g} < {tol:g})")
        else:
            self.failed = True
            self.say(f"{label} FAILED: {err:g} > {tol:g}")
        return ok

    def finish(self, code):
        if self.as_json:
            self.record["results"] = self.results
            self.record["ok"] = code == EXIT_OK
            self.record["exit_code"] = code
            print(json.dumps(self.record, indent=2, default=_json_default), file=self.stream, flush=True)
        return code


def _finite_or_none(v):
    return float(v) if v is not None and np.isfinite(v) else None


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, tuple):
        return list(o)
    return str(o)


def rms_range(ref, out):
    """MIOpen's verification metric (test/verify.hpp rms_range): the RMS difference divided by the
    largest magnitude of either range. Not finite when `out` holds a NaN or Inf."""
    r = np.asarray(ref, dtype=np.float64).ravel()
    o = np.asarray(out, dtype=np.float64).ravel()
    if r.size != o.size:
        return math.inf
    if r.size == 0:
        return 0.0
    if not np.all(np.isfinite(o)):
        return math.inf
    mag = max(float(np.max(np.abs(r))), float(np.max(np.abs(o))), np.finfo(np.float64).tiny)
    return float(np.sqrt(np.sum((r - o) ** 2)) / (math.sqrt(r.size) * mag))


# ================================================================================================
# Tensors and the device
# ================================================================================================

LAYOUTS = {4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC"), 3: ("NCW", "NWC")}


def layout_strides(lens, layout):
    """Packed strides of logical (N, C, spatial...) lengths stored in `layout` order."""
    logical = "NC" + {1: "W", 2: "HW", 3: "DHW"}[len(lens) - 2]
    if sorted(layout) != sorted(logical):
        raise UsageError(f"layout {layout} does not fit a {len(lens)}-d tensor ({logical})")
    order = [logical.index(ch) for ch in layout]     # memory order, outermost first
    strides = [0] * len(lens)
    s = 1
    for axis in reversed(order):
        strides[axis] = s
        s *= lens[axis]
    return strides


class HostTensor:
    """A float32 tensor of logical (N, C, spatial...) lengths with element strides: `buf` is the
    whole buffer the library gets, `view` the logical array over it."""

    def __init__(self, lens, strides=None, layout=None, fill=np.nan):
        self.lens = tuple(int(v) for v in lens)
        if strides is None:
            strides = layout_strides(self.lens, layout) if layout else _packed(self.lens)
        self.strides = tuple(int(s) for s in strides)
        span = 0 if 0 in self.lens else 1 + sum((l - 1) * s for l, s in zip(self.lens, self.strides))
        self.buf = np.full(max(span, 1), fill, dtype=np.float32)
        self.view = np.lib.stride_tricks.as_strided(self.buf, self.lens, [s * 4 for s in self.strides])

    @property
    def packed(self):
        return self.strides == tuple(_packed(self.lens))

    def desc(self):
        d = mi.TensorDescriptor()
        mi.setTensorDescriptor(d, mi.miopenFloat, len(self.lens), list(self.lens),
                               None if self.packed else list(self.strides))
        return d

    def set(self, values):
        self.view[...] = values

    def get(self):
        return np.array(self.view, dtype=np.float32)


def _packed(lens):
    strides, s = [], 1
    for l in reversed(lens):
        strides.append(s)
        s *= max(int(l), 1)
    return list(reversed(strides))


class Device:
    """The handle and the data the calls get: NumPy arrays on the CPU (used in place), device
    buffers on a GPU."""

    def __init__(self, name):
        self.handle = mi.Handle(device=name)
        self.gpu = self.handle.device != "cpu"
        self.arch = "cpu" if not self.gpu else "gpu"
        mi.enableProfiling(self.handle, True)

    def put(self, t):
        """What to pass for HostTensor `t` (its buffer goes to the device on a GPU)."""
        if not self.gpu:
            return t.buf
        return mi.DeviceBuffer.from_numpy(self.handle, t.buf)

    def get(self, t, dev):
        """Copies the device data `dev` of `t` back into t.buf (no-op on the CPU)."""
        if self.gpu:
            t.buf[...] = dev.to_numpy(t.buf.shape, np.float32)
        return t.get()

    def workspace(self, nbytes):
        if nbytes == 0:
            return None
        if not self.gpu:
            return np.empty(nbytes, np.uint8)
        return mi.DeviceBuffer(self.handle, nbytes)


def timed_calls(device, fn, iters):
    """Runs fn() `iters` times; returns (per-call ms list, wall ms list). The time of a call is
    the library's kernel time (miopenGetKernelTime) and the wall clock where that reads 0."""
    kernel, wall = [], []
    for _ in range(max(iters, 1)):
        t0 = time.perf_counter()
        fn()
        w = (time.perf_counter() - t0) * 1e3
        k = float(mi.getKernelTime(device.handle))
        kernel.append(k if k > 0 else w)
        wall.append(w)
    return kernel, wall


def average_excluding_first(times):
    return float(np.mean(times[1:])) if len(times) > 1 else float(times[0])


def _rng(seed=0):
    return np.random.default_rng(seed)


def _api(name):
    """The mirror function `name`, or a clear error when this build lacks it."""
    fn = getattr(mi, name, None)
    if fn is None:
        raise LibraryMissing(f"this build of miopen_cy has no {name} (the operation is not implemented yet)")
    return fn


class LibraryMissing(Exception):
    pass


# ================================================================================================
# The float64 reference: plain NumPy, independent of the library's code.
# ================================================================================================

def _window_slices(offsets, dils, out, strides):
    return tuple(slice(o * dl, o * dl + (ot - 1) * st + 1, st)
                 for o, dl, ot, st in zip(offsets, dils, out, strides))


def _im2col(xp, filt, out, strides, dils):
    """(N, C, padded...) -> (N, C, prod(filt), prod(out)): every filter tap's strided window."""
    n, c = xp.shape[:2]
    cols = np.empty((n, c, int(np.prod(filt))) + tuple(out), dtype=np.float64)
    for fi, offs in enumerate(np.ndindex(*filt)):
        cols[:, :, fi] = xp[(slice(None), slice(None)) + _window_slices(offs, dils, out, strides)]
    return cols.reshape(n, c, cols.shape[2], -1)


def _pad(x, pads, value=0.0, extra=None):
    extra = extra or [0] * len(pads)
    return np.pad(x, [(0, 0), (0, 0)] + [(p, p + e) for p, e in zip(pads, extra)], constant_values=value)


REF_CHUNK_BYTES = 256 << 20      # bound on the float64 column matrix of one batch chunk


def _batch_chunks(n, per_item):
    """Batch slices whose column matrices stay under REF_CHUNK_BYTES (a big layer would
    otherwise need gigabytes of float64 columns)."""
    step = max(1, int(REF_CHUNK_BYTES // max(per_item * 8, 1)))
    return [slice(i, min(i + step, n)) for i in range(0, n, step)]


def ref_conv_fwd(x, w, pads, strides, dils, groups):
    """y = conv(x, w): x (N, C, in...), w (K, C/groups, filt...), float64."""
    x = np.asarray(x, np.float64)
    w = np.asarray(w, np.float64)
    n, c = x.shape[:2]
    k, filt = w.shape[0], w.shape[2:]
    out = [(i + 2 * p - d * (f - 1) - 1) // s + 1
           for i, p, d, f, s in zip(x.shape[2:], pads, dils, filt, strides)]
    g = groups
    wm = w.reshape(g, k // g, -1)[None]
    y = np.empty((n, k) + tuple(out))
    for b in _batch_chunks(n, c * int(np.prod(filt)) * int(np.prod(out))):
        cols = _im2col(_pad(x[b], pads), filt, out, strides, dils)           # (n, C, F, O)
        cols = cols.reshape(cols.shape[0], g, (c // g) * cols.shape[2], -1)
        y[b] = np.matmul(wm, cols).reshape((cols.shape[0], k) + tuple(out))   # (n, G, K/G, O)
    return y


def ref_conv_bwd_data(dy, w, in_spatial, pads, strides, dils, groups):
    """dx of y = conv(x, w), for x of spatial lengths `in_spatial` (the adjoint of ref_conv_fwd)."""
    dy = np.asarray(dy, np.float64)
    w = np.asarray(w, np.float64)
    n, k = dy.shape[:2]
    out = dy.shape[2:]
    cg, filt = w.shape[1], w.shape[2:]
    g = groups
    nf = int(np.prod(filt))
    wt = w.reshape(g, k // g, cg * nf).transpose(0, 2, 1)[None]
    dx = np.empty((n, g * cg) + tuple(in_spatial))
    for b in _batch_chunks(n, g * cg * nf * int(np.prod(out))):
        m = dy[b].shape[0]
        cols = np.matmul(wt, dy[b].reshape(m, g, k // g, -1))                # (n, G, Cg*F, O)
        cols = cols.reshape((m, g * cg, nf) + tuple(out))
        dxp = np.zeros((m, g * cg) + tuple(i + 2 * p for i, p in zip(in_spatial, pads)))
        for fi, offs in enumerate(np.ndindex(*filt)):
            dxp[(slice(None), slice(None)) + _window_slices(offs, dils, out, strides)] += cols[:, :, fi]
        dx[b] = dxp[(slice(None), slice(None)) + tuple(slice(p, p + i) for p, i in zip(pads, in_spatial))]
    return dx


def ref_conv_bwd_weights(x, dy, filt, pads, strides, dils, groups):
    """dw of y = conv(x, w), w of filter lengths `filt`."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    n, c = x.shape[:2]
    k, out = dy.shape[1], dy.shape[2:]
    g = groups
    dw = np.zeros((g, k // g, (c // g) * int(np.prod(filt))))
    for b in _batch_chunks(n, c * int(np.prod(filt)) * int(np.prod(out))):
        cols = _im2col(_pad(x[b], pads), filt, out, strides, dils)
        m = cols.shape[0]
        cols = cols.reshape(m, g, (c // g) * cols.shape[2], -1)              # (n, G, Cg*F, O)
        dw += np.matmul(dy[b].reshape(m, g, k // g, -1), cols.transpose(0, 1, 3, 2)).sum(axis=0)
    return dw.reshape((k, c // g) + tuple(filt))


# ---- pooling ------------------------------------------------------------------------------------

def _pool_windows(x, win, pads, strides, out, fill):
    extra = [max(0, (o - 1) * s + f - (i + 2 * p))
             for o, s, f, i, p in zip(out, strides, win, x.shape[2:], pads)]
    xp = _pad(x, pads, fill, extra)
    return _im2col(xp, win, out, strides, [1] * len(win)), extra      # (N, C, F, O)


def ref_pool_fwd(x, mode, win, pads, strides, out):
    """mode 0 max (padding excluded), 1 average excluding padding, 2 average over the full window."""
    x = np.asarray(x, np.float64)
    per_item = x.shape[1] * int(np.prod(win)) * int(np.prod(out))
    return np.concatenate([_pool_fwd(x[b], mode, win, pads, strides, out)
                           for b in _batch_chunks(x.shape[0], per_item)])


def _pool_fwd(x, mode, win, pads, strides, out):
    n, c = x.shape[:2]
    if mode == 0:
        cols, _ = _pool_windows(x, win, pads, strides, out, -np.inf)
        y = cols.max(axis=2)
    else:
        cols, _ = _pool_windows(x, win, pads, strides, out, 0.0)
        if mode == 2:
            y = cols.sum(axis=2) / float(np.prod(win))
        else:
            ones, _ = _pool_windows(np.ones((1, 1) + x.shape[2:]), win, pads, strides, out, 0.0)
            y = cols.sum(axis=2) / np.maximum(ones.sum(axis=2), 1.0)
    return y.reshape((n, c) + tuple(out))


def ref_pool_bwd(x, dy, mode, win, pads, strides):
    """dx: max sends dy to the first largest element of each window; averages spread it."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    per_item = x.shape[1] * int(np.prod(win)) * int(np.prod(dy.shape[2:]))
    return np.concatenate([_pool_bwd(x[b], dy[b], mode, win, pads, strides)
                           for b in _batch_chunks(x.shape[0], per_item)])


def _pool_bwd(x, dy, mode, win, pads, strides):
    n, c = x.shape[:2]
    out = dy.shape[2:]
    fill = -np.inf if mode == 0 else 0.0
    cols, extra = _pool_windows(x, win, pads, strides, out, fill)
    dyf = dy.reshape(n, c, -1)
    if mode == 0:
        pick = cols.argmax(axis=2)
    elif mode == 2:
        share = dyf / float(np.prod(win))
    else:
        ones, _ = _pool_windows(np.ones((1, 1) + x.shape[2:]), win, pads, strides, out, 0.0)
        share = dyf / np.maximum(ones.sum(axis=2), 1.0)
    dxp = np.zeros((n, c) + tuple(i + 2 * p + e for i, p, e in zip(x.shape[2:], pads, extra)))
    for fi, offs in enumerate(np.ndindex(*win)):
        part = np.where(pick == fi, dyf, 0.0) if mode == 0 else share
        dxp[(slice(None), slice(None)) + _window_slices(offs, [1] * len(win), out, strides)] += \
            part.reshape((n, c) + tuple(out))
    return dxp[(slice(None), slice(None)) + tuple(slice(p, p + i) for p, i in zip(pads, x.shape[2:]))]


# ---- LRN ----------------------------------------------------------------------------------------

def _window_sum(v, axis, lo, hi):
    """out[i] = sum of v[i - lo .. i + hi] along `axis`, zero outside."""
    size = v.shape[axis]
    pad = [(0, 0)] * v.ndim
    pad[axis] = (lo, hi)
    vp = np.pad(v, pad)
    out = np.zeros_like(v)
    for o in range(lo + hi + 1):
        out += np.take(vp, range(o, o + size), axis=axis)
    return out


def _lrn_terms(x, mode, size, alpha, k):
    pre = (size - 1) // 2
    post = size - 1 - pre
    sq = x * x
    if mode == 1:                                   # cross-channel
        s = _window_sum(sq, 1, pre, post)
        a = alpha / size
    else:                                           # within-channel: a size x size box
        s = _window_sum(_window_sum(sq, 2, pre, post), 3, pre, post)
        a = alpha / (size * size)
    return k + a * s, a, pre, post


def ref_lrn_fwd(x, mode, size, alpha, beta, k):
    x = np.asarray(x, np.float64)
    scale, *_ = _lrn_terms(x, mode, size, alpha, k)
    return x * scale ** (-beta)


def ref_lrn_bwd(x, dy, mode, size, alpha, beta, k):
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    scale, a, pre, post = _lrn_terms(x, mode, size, alpha, k)
    y = x * scale ** (-beta)
    t = dy * y / scale
    if mode == 1:
        back = _window_sum(t, 1, post, pre)
    else:
        back = _window_sum(_window_sum(t, 2, post, pre), 3, post, pre)
    return dy * scale ** (-beta) - 2.0 * a * beta * x * back


# ---- activation ---------------------------------------------------------------------------------

ACTIV_NAMES = ["PASTHRU", "LOGISTIC", "TANH", "RELU", "SOFTRELU", "ABS", "POWER", "CLIPPEDRELU",
               "LEAKYRELU", "ELU"]


def ref_activ_fwd(x, mode, a, b, g):
    x = np.asarray(x, np.float64)
    if mode == 0:
        return x.copy()
    if mode == 1:
        return 1.0 / (1.0 + np.exp(-x))
    if mode == 2:
        return b * np.tanh(a * x)
    if mode == 3:
        return np.maximum(x, 0.0)
    if mode == 4:
        return np.logaddexp(0.0, x)
    if mode == 5:
        return np.abs(x)
    if mode == 6:
        return (a + b * x) ** g
    if mode == 7:
        return np.minimum(a, np.maximum(0.0, x))
    if mode == 8:
        return np.where(x > 0, x, a * x)
    if mode == 9:
        return np.where(x > 0, x, a * np.expm1(x))
    raise UsageError(f"-m {mode}: activation modes are 0..9 ({', '.join(ACTIV_NAMES)})")


def ref_activ_bwd(x, dy, mode, a, b, g):
    """The true derivative times dy (POWER included, unlike MIOpen's own POWER backward)."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    if mode == 0:
        d = np.ones_like(x)
    elif mode == 1:
        s = 1.0 / (1.0 + np.exp(-x))
        d = s * (1.0 - s)
    elif mode == 2:
        d = a * b * (1.0 - np.tanh(a * x) ** 2)
    elif mode == 3:
        d = (x > 0).astype(np.float64)
    elif mode == 4:
        d = 1.0 / (1.0 + np.exp(-x))
    elif mode == 5:
        d = np.sign(x)
    elif mode == 6:
        d = g * b * (a + b * x) ** (g - 1.0)
    elif mode == 7:
        d = ((x > 0) & (x <= a)).astype(np.float64)
    elif mode == 8:
        d = np.where(x > 0, 1.0, a)
    else:
        d = np.where(x > 0, 1.0, a * np.exp(x))
    return dy * d


# ---- softmax ------------------------------------------------------------------------------------

def ref_softmax_fwd(x, algorithm, mode):
    x = np.asarray(x, np.float64)
    axes = (1, 2, 3) if mode == 0 else (1,)
    if algorithm == 0:
        e = np.exp(x)
        return e / e.sum(axis=axes, keepdims=True)
    z = x - x.max(axis=axes, keepdims=True)
    e = np.exp(z)
    s = e.sum(axis=axes, keepdims=True)
    return z - np.log(s) if algorithm == 2 else e / s


def ref_softmax_bwd(y, dy, algorithm, mode):
    y = np.asarray(y, np.float64)
    dy = np.asarray(dy, np.float64)
    axes = (1, 2, 3) if mode == 0 else (1,)
    if algorithm == 2:
        return dy - np.exp(y) * dy.sum(axis=axes, keepdims=True)
    return y * (dy - (y * dy).sum(axis=axes, keepdims=True))


# ---- batch norm ---------------------------------------------------------------------------------

def _bn_axes(mode, ndim):
    return (0,) + tuple(range(2, ndim)) if mode == 1 else (0,)


def ref_bn_train(x, scale, bias, mode, eps):
    """(y, batch mean, unbiased batch variance, saved mean, saved 1/sqrt(var + eps))."""
    x = np.asarray(x, np.float64)
    axes = _bn_axes(mode, x.ndim)
    m = x.size // int(np.prod([x.shape[i] for i in range(x.ndim) if i not in axes]))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    inv = 1.0 / np.sqrt(var + eps)
    y = scale * (x - mean) * inv + bias
    unbiased = var * m / (m - 1) if m > 1 else var
    return y, mean, unbiased, mean, inv


def ref_bn_infer(x, scale, bias, mean, var, eps):
    x = np.asarray(x, np.float64)
    return scale * (x - mean) / np.sqrt(var + eps) + bias


def ref_bn_bwd(x, dy, scale, mode, eps, saved_mean=None, saved_inv=None):
    """(dx, dscale, dbias); the batch statistics are recomputed unless saved ones are given."""
    x = np.asarray(x, np.float64)
    dy = np.asarray(dy, np.float64)
    axes = _bn_axes(mode, x.ndim)
    m = x.size // int(np.prod([x.shape[i] for i in range(x.ndim) if i not in axes]))
    if saved_mean is None:
        mean = x.mean(axis=axes, keepdims=True)
        inv = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    else:
        mean, inv = saved_mean, saved_inv
    xhat = (x - mean) * inv
    dbias = dy.sum(axis=axes, keepdims=True)
    dscale = (dy * xhat).sum(axis=axes, keepdims=True)
    dx = scale * inv / m * (m * dy - dbias - xhat * dscale)
    return dx, dscale, dbias


# ================================================================================================
# Convolution
# ================================================================================================

DIRECTIONS = [(1, "fwd", "Forward Convolution", "Forward Conv.", "fwd-conv"),
              (2, "bwd", "Backward Convolution Data", "Backward Data Conv.", "bwdd-conv"),
              (4, "wrw", "Backward Convolution Weights", "Backward Weights Conv.", "bwdw-conv")]
ALGO_NAMES = {0: "GEMM", 1: "Direct", 2: "FFT", 3: "Winograd", 5: "ImplicitGEMM"}


class ConvCase:
    """One convolution layer as MIOpenDriver describes it: the user's x (N, C, spatial), the
    filter (K, C/g, filt) or, transposed, (C, K/g, filt), pads/strides/dilations per spatial dim
    (outermost first), groups, mode and the transposed output padding."""

    def __init__(self, n, c, k, spatial, filt, pads, strides, dils, groups=1, transpose=False,
                 adj=None, layouts=("", "", ""), name=None):
        self.n, self.c, self.k = int(n), int(c), int(k)
        self.spatial, self.filt = tuple(spatial), tuple(filt)
        self.pads, self.strides, self.dils = tuple(pads), tuple(strides), tuple(dils)
        self.groups, self.transpose = int(groups), bool(transpose)
        self.adj = tuple(adj) if adj else (0,) * len(self.spatial)
        self.layouts = layouts
        self.name = name

    @property
    def dims(self):
        return len(self.spatial)

    @property
    def xlens(self):
        return (self.n, self.c) + self.spatial

    @property
    def wlens(self):
        if self.transpose:
            return (self.c, self.k // self.groups) + self.filt
        return (self.k, self.c // self.groups) + self.filt

    def validate(self):
        g = self.groups
        if g < 1:
            raise UsageError(f"-g {g}: the group count must be >= 1")
        if self.c % g or self.k % g:
            raise UsageError(f"-g {g}: the group count must divide both -c {self.c} and -k {self.k}")
        for what, vals, lo in (("batch/channel/spatial length", (self.n, self.c, self.k) + self.spatial, 1),
                               ("filter length", self.filt, 1), ("stride", self.strides, 1),
                               ("dilation", self.dils, 1), ("pad", self.pads, 0), ("output pad", self.adj, 0)):
            bad = [v for v in vals if v < lo]
            if bad:
                raise UsageError(f"a {what} of {bad[0]} is invalid (must be >= {lo})")

    def conv_desc(self):
        cd = mi.ConvolutionDescriptor()
        mode = mi.miopenTranspose if self.transpose else mi.miopenConvolution
        mi.initConvolutionNdDescriptor(cd, self.dims, list(self.pads), list(self.strides),
                                       list(self.dils), mode)
        mi.setConvolutionGroupCount(cd, self.groups)
        if self.transpose and any(self.adj):
            mi.setTransposeConvNdOutputPadding(cd, self.dims, list(self.adj))
        return cd

    def describe(self):
        s = "x".join
        mode = "trans" if self.transpose else "conv"
        return (f"{mode} {self.dims}-d: x {s(map(str, self.xlens))}, w {s(map(str, self.wlens))}, "
                f"pad {s(map(str, self.pads))}, stride {s(map(str, self.strides))}, "
                f"dilation {s(map(str, self.dils))}, groups {self.groups}"
                + (f", output pad {s(map(str, self.adj))}" if self.transpose else ""))

    def command(self, forw):
        """The miopen-driver command line of this layer (the shape convolution.cpp logs)."""
        d = self.dims
        parts = ["conv"]
        if d != 2:
            parts += ["--spatial_dim", str(d)]
        parts += ["-n", self.n, "-c", self.c]
        if d == 3:
            parts += ["-!", self.spatial[0], "-H", self.spatial[1], "-W", self.spatial[2]]
        elif d == 2:
            parts += ["-H", self.spatial[0], "-W", self.spatial[1]]
        else:
            parts += ["-W", self.spatial[0]]
        parts += ["-k", self.k]
        if d == 3:
            parts += ["-@", self.filt[0], "-y", self.filt[1], "-x", self.filt[2],
                      "-$", self.pads[0], "-#", self.strides[0], "-^", self.dils[0]]
        if d >= 2:
            if d == 2:
                parts += ["-y", self.filt[0], "-x", self.filt[1]]
            parts += ["-p", self.pads[-2], "-q", self.pads[-1], "-u", self.strides[-2],
                      "-v", self.strides[-1], "-l", self.dils[-2], "-j", self.dils[-1]]
        else:
            parts += ["-x", self.filt[0], "-q", self.pads[0], "-v", self.strides[0], "-j", self.dils[0]]
        parts += ["-m", "trans" if self.transpose else "conv", "-g", self.groups]
        if self.transpose:
            if d == 3:
                parts += ["-%", self.adj[0]]
            if d >= 2:
                parts += ["-Y", self.adj[-2]]
            parts += ["-X", self.adj[-1]]
        parts += ["-F", forw, "-t", 1]
        return f"{PROG} " + " ".join(shlex.quote(str(p)) for p in parts)

    def canonical_key(self, direction, ylens, packed):
        """The find-db key (hip/src/conv/problem.cpp ConvProblem::Key) of this layer's problem in
        canonical terms: a transposed convolution is the adjoint of an ordinary one."""
        t = self.transpose
        xin = ylens if t else self.xlens                 # the convolution's input side
        yout = self.xlens if t else ylens
        canon = {"fwd": "B" if t else "F", "bwd": "F" if t else "B", "wrw": "W"}[direction]
        j = lambda v, sep: sep.join(str(int(e)) for e in v)
        lay = ("NCDHW" if self.dims == 3 else "NCHW") if packed else "STRIDED"
        return (f"{xin[1]}-{j(xin[2:], '-')}-{j(self.filt, 'x')}-{yout[1]}-{j(yout[2:], '-')}-"
                f"{xin[0]}-{j(self.pads, 'x')}-{j(self.strides, 'x')}-{j(self.dils, 'x')}-"
                f"{self.groups}-{lay}-FP32-{canon}")

    def macs(self, ylens):
        """Multiply-adds of the convolution (the same in every direction)."""
        small = ylens if not self.transpose else self.xlens          # the convolution's output
        big_c = self.c if not self.transpose else self.k              # its input channels
        out_c = small[1]
        return (self.n * out_c * (big_c // self.groups) * int(np.prod(self.filt))
                * int(np.prod(small[2:])))


def find_db_solver(device, key, algo):
    """The solver that ran: the fastest find-db entry of `algo` for `key` (what the library's
    convolution calls choose), or None when there is no record."""
    if os.environ.get("MIOPEN_DEBUG_DISABLE_FIND_DB", "").lower() not in ("", "0", "no", "off", "false", "disable", "disabled"):
        return None
    folder = os.environ.get("MIOPEN_USER_DB_PATH") or os.path.join(os.path.expanduser("~"), ".cache", "miopen_cy")
    # <arch>-<solver-set fingerprint>.ufdb.txt: the file Find just wrote is the newest one.
    paths = glob.glob(os.path.join(folder, f"{device.arch}-*.ufdb.txt"))
    if not paths:
        return None
    path = max(paths, key=os.path.getmtime)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                k, sep, rest = line.rstrip("\n").partition("=")
                if not sep or k != key:
                    continue
                for entry in rest.split(";"):
                    name, _, fields = entry.partition(":")
                    parts = fields.split(",")
                    if len(parts) == 3 and parts[2].strip().lstrip("-").isdigit() and int(parts[2]) == int(algo):
                        return name
    except OSError:
        return None
    return None


class ConvRunner:
    """Runs the directions of one ConvCase on a device: Find, then `iters` timed calls with the
    fastest algorithm, then verification against the float64 reference."""

    def __init__(self, device, case, seed=0, search=False, files=None):
        self.device, self.case, self.search = device, case, search
        case.validate()
        lay_x, lay_w, lay_y = case.layouts
        self.x = HostTensor(case.xlens, layout=lay_x or None)
        self.w = HostTensor(case.wlens, layout=lay_w or None)
        self.xd, self.wd = self.x.desc(), self.w.desc()
        self.cd = case.conv_desc()
        self.ylens = tuple(mi.getConvolutionNdForwardOutputDim(self.cd, self.xd, self.wd))
        if min(self.ylens) < 1:
            raise mi.BadParmError(f"the output would be {'x'.join(map(str, self.ylens))}: "
                                  "the filter does not fit the padded input")
        self.y = HostTensor(self.ylens, layout=lay_y or None)
        self.yd = self.y.desc()
        # MIOpenDriver's data: x and dy in 0.01 * U(0, 1), w in 0.01 * U(-0.5, 0.5).
        rng = _rng(seed)
        files = files or {}
        self.x_data = _load_or(files.get("in_data"), self.x.lens, lambda s: 0.01 * rng.random(s))
        self.w_data = _load_or(files.get("weights"), self.w.lens, lambda s: 0.01 * (rng.random(s) - 0.5))
        self.dy_data = _load_or(files.get("dout_data"), self.ylens, lambda s: 0.01 * rng.random(s))
        self.packed = self.x.packed and self.w.packed and self.y.packed

    def reference(self, direction):
        c = self.case
        args = (c.pads, c.strides, c.dils, c.groups)
        if direction == "fwd":
            if c.transpose:
                return ref_conv_bwd_data(self.x_data, self.w_data, self.ylens[2:], *args)
            return ref_conv_fwd(self.x_data, self.w_data, *args)
        if direction == "bwd":
            if c.transpose:
                return ref_conv_fwd(self.dy_data, self.w_data, *args)
            return ref_conv_bwd_data(self.dy_data, self.w_data, c.spatial, *args)
        if c.transpose:
            return ref_conv_bwd_weights(self.dy_data, self.x_data, c.filt, *args)
        return ref_conv_bwd_weights(self.x_data, self.dy_data, c.filt, *args)

    def run(self, direction, iters, corrupt=None):
        """One direction: returns a result dict (algorithm, solver, times, output array)."""
        dev, h = self.device, self.device.handle
        xd, wd, yd, cd = self.xd, self.wd, self.yd, self.cd
        # Inputs of this direction hold data; its output is NaN-poisoned so unwritten elements fail.
        for t, data in ((self.x, self.x_data), (self.w, self.w_data), (self.y, self.dy_data)):
            t.buf[...] = np.nan
        if direction == "fwd":
            self.x.set(self.x_data)
            self.w.set(self.w_data)
            out_t = self.y
            ws_size = mi.convolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd)
        elif direction == "bwd":
            self.y.set(self.dy_data)
            self.w.set(self.w_data)
            out_t = self.x
            ws_size = mi.convolutionBackwardDataGetWorkSpaceSize(h, yd, wd, cd, xd)
        else:
            self.y.set(self.dy_data)
            self.x.set(self.x_data)
            out_t = self.w
            ws_size = mi.convolutionBackwardWeightsGetWorkSpaceSize(h, yd, xd, cd, wd)
        bx, bw, by = dev.put(self.x), dev.put(self.w), dev.put(self.y)
        ws = dev.workspace(ws_size)
        if direction == "fwd":
            perf = mi.findConvolutionForwardAlgorithm(h, xd, bx, wd, bw, cd, yd, by, 5, ws, ws_size, self.search)
            algo = int(perf[0].fwd_algo)
        elif direction == "bwd":
            perf = mi.findConvolutionBackwardDataAlgorithm(h, yd, by, wd, bw, cd, xd, bx, 5, ws, ws_size, self.search)
            algo = int(perf[0].bwd_data_algo)
        else:
            perf = mi.findConvolutionBackwardWeightsAlgorithm(h, yd, by, xd, bx, cd, wd, bw, 5, ws, ws_size, self.search)
            algo = int(perf[0].bwd_weights_algo)
        need = int(perf[0].memory)
        ws_run = dev.workspace(need)
        # Find wrote the output: poison it again, so the timed calls alone must produce it.
        out_t.buf[...] = np.nan
        out_dev = {"fwd": by, "bwd": bx, "wrw": bw}[direction]
        if dev.gpu:
            out_dev.copy_from(out_t.buf)

        def call():
            if direction == "fwd":
                mi.convolutionForward(h, 1.0, xd, bx, wd, bw, cd, algo, 0.0, yd, by, ws_run, need)
            elif direction == "bwd":
                mi.convolutionBackwardData(h, 1.0, yd, by, wd, bw, cd, algo, 0.0, xd, bx, ws_run, need)
            else:
                mi.convolutionBackwardWeights(h, 1.0, yd, by, xd, bx, cd, algo, 0.0, wd, bw, ws_run, need)

        kernel, wall = timed_calls(dev, call, iters)
        out = dev.get(out_t, out_dev)
        if corrupt is not None:
            out = corrupt(direction, out)
        key = self.case.canonical_key(direction, self.ylens, self.packed)
        solver = find_db_solver(dev, key, algo)
        macs = self.case.macs(self.ylens)
        sizes = {"x": int(np.prod(self.x.lens)) * 4, "w": int(np.prod(self.w.lens)) * 4,
                 "y": int(np.prod(self.ylens)) * 4}
        read, written = {"fwd": (sizes["x"] + sizes["w"], sizes["y"]),
                         "bwd": (sizes["y"] + sizes["w"], sizes["x"]),
                         "wrw": (sizes["y"] + sizes["x"], sizes["w"])}[direction]
        avg = average_excluding_first(kernel)
        return {
            "direction": direction, "algorithm": algo, "algorithm_name": ALGO_NAMES.get(algo, str(algo)),
            "solver": solver, "workspace_bytes": need, "find": [
                {"algorithm": int(p.fwd_algo), "time_ms": float(p.time), "workspace_bytes": int(p.memory)}
                for p in perf],
            "iterations": len(kernel), "time_ms": avg, "first_time_ms": kernel[0],
            "wall_ms": average_excluding_first(wall), "flop": 2 * macs, "bytes_read": read,
            "bytes_written": written, "gflops": 2 * macs / avg / 1e6 if avg > 0 else None,
            "gbps": (read + written) / avg / 1e6 if avg > 0 else None, "key": key,
            "output": out,
        }

    def tolerance(self, direction, algo):
        tol = CONV_TOL * (2 if direction == "wrw" else 1)
        return tol * (10 if algo in (2, 3, 5) else 1)


def _load_or(path, lens, make):
    n = int(np.prod(lens))
    if path:
        try:
            data = np.fromfile(path, dtype=np.float32, count=n)
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}") from None
        if data.size == n:
            return data.reshape(lens)
        raise UsageError(f"{path} holds {data.size} floats; {n} are needed")
    return make(tuple(lens)).astype(np.float32)


def stats_lines(case, ylens, direction, res):
    """MIOpenDriver's two `stats:` lines (the header and the values) of one direction."""
    name = {"fwd": "fwd-conv", "bwd": "bwdd-conv", "wrw": "bwdw-conv"}[direction]
    filt = case.filt if case.dims > 1 else (1,) + case.filt
    small = ylens if not case.transpose else case.xlens
    out = tuple(small[2:]) if case.dims > 1 else (1,) + tuple(small[2:])
    tag = "x".join(map(str, filt)) + f"u{case.strides[0]}"
    t = res["time_ms"]
    tail = (f"  {res['flop']}, {res['bytes_read']}, {res['bytes_written']}, "
            f"{res['flop'] / t / 1e6 if t > 0 else 0:.0f}, "
            f"{(res['bytes_read'] + res['bytes_written']) / t / 1e6 if t > 0 else 0:.0f}, {t:f}")
    in_c = case.c if not case.transpose else case.k
    k = small[1]
    if case.dims == 3:
        return ["stats: name  , n, c, do, ho, wo, z, y, x, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs",
                f"stats: {name}{tag}, {case.n}, {in_c}, {out[0]}, {out[1]}, {out[2]}, "
                f"{filt[0]}, {filt[1]}, {filt[2]}, {k}," + tail]
    return ["stats: name, n, c, ho, wo, x, y, k, flopCnt, bytesRead, bytesWritten, GFLOPs, GB/s, timeMs",
            f"stats: {name}{tag}, {case.n}, {in_c}, {out[0]}, {out[1]}, {filt[1]}, {filt[0]}, {k}," + tail]


# A hook for tests: None, or f(direction, output array) -> array, applied to every device result
# before verification (a planted wrong result must fail).
_corrupt_hook = None


def cmd_conv(args, report):
    o, given = parse_flags("conv", CONV_FLAGS, args)
    dims = o["spatial_dim"]
    if dims not in (1, 2, 3):
        raise UsageError(f"--spatial_dim {dims}: 1, 2 or 3 spatial dims are supported")
    three_d = {"in_d", "fil_d", "conv_stride_d", "pad_d", "dilation_d", "trans_output_pad_d"} & given
    if three_d and dims != 3:
        raise UsageError("--" + " --".join(sorted(three_d)) + f" given with --spatial_dim {dims}: "
                         "the depth flags (-! -@ -# -$ -^ -%) need --spatial_dim 3")
    if dims == 1:
        hflags = {"in_h", "fil_h", "conv_stride_h", "pad_h", "dilation_h", "trans_output_pad_h"} & given
        if hflags:
            raise UsageError("--" + " --".join(sorted(hflags)) + " given with --spatial_dim 1: a 1-d "
                             "convolution takes its length from -W, -x, -q, -v, -j, -X")
    mode = o["mode"]
    if mode not in ("conv", "trans"):
        raise UsageError(f"-m {mode!r}: the convolution mode is conv or trans")
    forw = o["forw"]
    if not 0 <= forw <= 7:
        raise UsageError(f"-F {forw}: a bitmask of 1 (fwd), 2 (bwd data), 4 (bwd weights); 0 means all three")
    trans_pad = {"trans_output_pad_d", "trans_output_pad_h", "trans_output_pad_w"}
    if mode == "conv" and any(o[f] for f in trans_pad):
        raise UsageError("-Y/-X/-% (transposed output padding) given with -m conv: they need -m trans")
    if o["tensor_vect"] != 0 or o["vector_length"] != 1:
        raise UsageError("-Z/-L (vectorized tensors) are not supported: only -Z 0 -L 1")
    if o["pad_val"] != 0:
        raise UsageError(f"-r {o['pad_val']}: only zero padding (-r 0) is supported")
    if o["iter"] < 1:
        raise UsageError(f"-i {o['iter']}: the number of iterations must be > 0")
    pm = o["pad_mode"]
    if pm not in ("default", "same", "valid"):
        raise UsageError(f"-z {pm!r}: the padding mode is default, same or valid")
    pick = {1: ["w"], 2: ["h", "w"], 3: ["d", "h", "w"]}[dims]
    spatial = [o["in_" + a] for a in pick]
    filt = [o["fil_" + a] for a in pick]
    pads = [o["pad_" + a] for a in pick]
    strides = [o["conv_stride_" + a] for a in pick]
    dils = [o["dilation_" + a] for a in pick]
    adj = [o["trans_output_pad_" + a] for a in pick]
    if mode == "conv" and pm != "default" and (all(d == 1 for d in dils) or all(f == 1 for f in filt)):
        if pm == "valid":
            pads = [0] * dims
        else:        # MIOpenDriver's "same": half the window overhang, rounded down
            pads = [max(f - (s if i % s == 0 else i % s), 0) // 2 for i, f, s in zip(spatial, filt, strides)]
    default_layout = "NCDHW" if dims == 3 else ("NCHW" if dims == 2 else "NCW")
    layouts = []
    for flag in ("in_layout", "fil_layout", "out_layout"):
        lay = (o[flag] or default_layout).upper()
        if lay not in LAYOUTS[dims + 2]:
            raise UsageError(f"--{flag} {o[flag]}: expected one of {', '.join(LAYOUTS[dims + 2])}")
        layouts.append(lay)
    solution = o["solution"].strip()
    if solution in ("", "0") or solution.lstrip("-").isdigit() and int(solution) < 0:
        solution = None            # Find (-S 0, "the fastest solution", is what Find picks)
    if o["wall"] and not o["time"]:
        report.say(f"Info: '--wall {o['wall']}' is ignored because '--time' is not set")
    case = ConvCase(o["batchsize"], o["in_channels"], o["out_channels"], spatial, filt, pads, strides,
                    dils, o["group_count"], mode == "trans", adj, (layouts[0], layouts[1], layouts[2]))
    case.validate()
    directions = [d for d in DIRECTIONS if forw == 0 or forw & d[0]]
    device = Device(o["device"])
    report.record.update(subcommand="conv", device=device.handle.device, problem=_conv_problem(case))
    if o["printconv"]:
        report.say(f"Convolution: {case.describe()}")
    runner = ConvRunner(device, case, search=bool(o["search"]),
                        files={"in_data": o["in_data"], "weights": o["weights"], "dout_data": o["dout_data"]})
    report.record["problem"]["y"] = list(runner.ylens)
    bias = _ConvBias(device, runner, o["in_bias"]) if o["bias"] else None
    if solution is not None:
        report.say(f"Note: -S {solution}: the driver does not use immediate mode; Find runs that solver alone "
                   "(MIOPEN_DEBUG_FIND_ONLY_SOLVER) with a find-db of its own")
        report.record["solution"] = solution
    with _only_solver(solution):
        _conv_directions(report, o, case, runner, device, directions, bias)
    if bias is not None and forw != 1:
        bias.backward(report, o)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


@contextlib.contextmanager
def _only_solver(solution):
    """-S name|id: Find restricted to that solver, in a temporary find-db so the user's records
    keep every solver."""
    if solution is None:
        yield
        return
    names = ("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "MIOPEN_USER_DB_PATH")
    saved = {n: os.environ.get(n) for n in names}
    with tempfile.TemporaryDirectory(prefix="miopen-driver-") as db:
        os.environ["MIOPEN_DEBUG_FIND_ONLY_SOLVER"] = solution
        os.environ["MIOPEN_USER_DB_PATH"] = db
        try:
            yield
        finally:
            for n, v in saved.items():
                if v is None:
                    os.environ.pop(n, None)
                else:
                    os.environ[n] = v


def _conv_directions(report, o, case, runner, device, directions, bias):
    for bit, dname, vlabel, tlabel, _ in directions:
        res = runner.run(dname, o["iter"], corrupt=_corrupt_hook)
        out = res.pop("output")
        if o["dump_output"]:
            path = f"dump_{dname}_out_{device.arch}.bin"
            out.astype(np.float32).tofile(path)
            report.say(f"Wrote output to file {path}")
        if o["time"]:
            solver = res["solver"] or "UNKNOWN"
            if o["wall"]:
                report.say(f"Wall-clock Time {tlabel} Elapsed: {res['wall_ms']:f} ms")
            report.say(f"MIOpen {tlabel} Algorithm: {res['algorithm']} ({res['algorithm_name']}), Solution: {solver}")
            report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Time {tlabel} Elapsed: {res['time_ms']:f} ms (average)")
            for line in stats_lines(case, runner.ylens, dname, res):
                report.say(line)
        if bias is not None and dname == "fwd":
            out = bias.forward(report, o, out)
        if o["verify"]:
            ref = runner.reference(dname)
            if bias is not None and dname == "fwd":
                ref = ref + bias.data
            report.verdict(vlabel, rms_range(ref, out), runner.tolerance(dname, res["algorithm"]), res)
        else:
            res["verified"] = None
        report.results.append(res)


class _ConvBias:
    """-b 1: MIOpenDriver adds a per-channel bias after the forward convolution
    (miopenConvolutionForwardBias) and computes its gradient after the backward ones
    (miopenConvolutionBackwardBias). Bias values: channel % 8 + U(0, 1), as MIOpenDriver's."""

    def __init__(self, device, runner, path):
        self.device, self.runner = device, runner
        k = runner.ylens[1]
        self.lens = (1, k) + (1,) * (len(runner.ylens) - 2)
        rng = _rng(1)
        self.data = _load_or(path, self.lens, lambda s: (np.arange(k) % 8).reshape(s) + rng.random(s))
        self.t = HostTensor(self.lens)
        self.t.set(self.data)
        self.desc = self.t.desc()

    def forward(self, report, o, out):
        """Adds the bias to the forward output; returns the output to verify."""
        dev, h = self.device, self.device.handle
        y = HostTensor(self.runner.ylens, strides=self.runner.y.strides)
        y.set(out)
        by, bb = dev.put(y), dev.put(self.t)
        times, wall = timed_calls(dev, lambda: mi.convolutionForwardBias(h, 1.0, self.desc, bb, 0.0,
                                                                         self.runner.yd, by), 1)
        if o["time"]:
            report.say(f"{'GPU' if dev.gpu else 'CPU'} Kernel Time Forward Conv. Bias Elapsed: {times[0]:f} ms")
        return dev.get(y, by)

    def backward(self, report, o):
        dev, h = self.device, self.device.handle
        dy = HostTensor(self.runner.ylens, strides=self.runner.y.strides)
        dy.set(self.runner.dy_data)
        db = HostTensor(self.lens)
        bdy, bdb = dev.put(dy), dev.put(db)
        times, wall = timed_calls(dev, lambda: mi.convolutionBackwardBias(h, 1.0, self.runner.yd, bdy, 0.0,
                                                                          self.desc, bdb), 1)
        if o["time"]:
            report.say(f"{'GPU' if dev.gpu else 'CPU'} Kernel Time Backward Bias Conv. Elapsed: {times[0]:f} ms")
        out = _apply_corrupt("bias", dev.get(db, bdb))
        res = _result("bias", times, wall, int(np.prod(self.runner.ylens)) * 4, int(np.prod(self.lens)) * 4)
        if o["verify"]:
            axes = (0,) + tuple(range(2, len(self.runner.ylens)))
            ref = np.asarray(self.runner.dy_data, np.float64).sum(axis=axes, keepdims=True)
            report.verdict("Backward Convolution Bias", rms_range(ref, out), CONV_TOL, res)
        report.results.append(res)


def _conv_problem(case):
    return {"n": case.n, "c": case.c, "k": case.k, "spatial": list(case.spatial), "filter": list(case.filt),
            "pads": list(case.pads), "strides": list(case.strides), "dilations": list(case.dils),
            "groups": case.groups, "mode": "trans" if case.transpose else "conv",
            "output_pads": list(case.adj), "x": list(case.xlens), "w": list(case.wlens),
            "layouts": list(case.layouts)}


# ================================================================================================
# The other layers: pooling, LRN, activation, softmax, batch norm, tensor ops
# ================================================================================================

def _directions(forw, what):
    """MIOpenDriver's main(): forward when -F is 0 or odd, backward when -F is not 1."""
    if forw not in (0, 1, 2):
        raise UsageError(f"-F {forw}: 0 runs forward and backward {what}, 1 forward only, 2 backward only")
    return (forw in (0, 1)), (forw != 1)


def _time_lines(report, o, device, label, times, wall):
    if o["time"]:
        if o["wall"]:
            report.say(f"Wall-clock Time {label} Elapsed: {average_excluding_first(wall):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Time {label} Elapsed: "
                   f"{average_excluding_first(times):f} ms (average)")


def _bytes_stats(report, o, name, read, written, t):
    if o["time"]:
        report.say("stats: name, bytesRead, bytesWritten, GB/s, timeMs")
        report.say(f"stats: {name}, {read}, {written}, {(read + written) / t / 1e6 if t > 0 else 0:f}, {t:f}")


def _result(direction, times, wall, read, written, **extra):
    t = average_excluding_first(times)
    r = {"direction": direction, "iterations": len(times), "time_ms": t, "first_time_ms": times[0],
         "wall_ms": average_excluding_first(wall), "bytes_read": read, "bytes_written": written,
         "gbps": (read + written) / t / 1e6 if t > 0 else None}
    r.update(extra)
    return r


def _layout4(o, dims=4):
    lay = (o.get("layout") or ("NCHW" if dims == 4 else "NCDHW")).upper()
    if lay not in LAYOUTS[dims]:
        raise UsageError(f"-L {lay}: expected one of {', '.join(LAYOUTS[dims])}")
    return lay


def _check_iters(o):
    if o["iter"] < 1:
        raise UsageError(f"-i {o['iter']}: the number of iterations must be > 0")
    if o["wall"] and not o["time"]:
        return f"Info: '--wall {o['wall']}' is ignored because '--time' is not set"
    return None


def _apply_corrupt(direction, out):
    return _corrupt_hook(direction, out) if _corrupt_hook is not None else out


def _parse_tensor_spec(text, flag):
    """MIOpenDriver's tensor flag: NxC[xD]xHxW[,layout or strides]."""
    parts = text.split(",")
    if len(parts) > 2:
        raise UsageError(f"{flag} {text!r}: too many tensor descriptor parameters")
    try:
        lens = [int(v) for v in parts[0].split("x")]
    except ValueError:
        raise UsageError(f"{flag} {text!r}: lengths look like 100x3x32x32") from None
    if len(lens) not in (4, 5):
        raise UsageError(f"{flag} {text!r}: a 4-d (NCHW) or 5-d (NCDHW) tensor is expected")
    layout = strides = None
    if len(parts) == 2:
        if parts[1][:1].isdigit():
            try:
                strides = [int(v) for v in parts[1].split("x")]
            except ValueError:
                raise UsageError(f"{flag} {text!r}: strides look like 3072x1024x32x1") from None
            if len(strides) != len(lens):
                raise UsageError(f"{flag} {text!r}: {len(strides)} strides for {len(lens)} lengths")
        else:
            layout = parts[1].upper()
            if layout not in LAYOUTS[len(lens)]:
                raise UsageError(f"{flag} {text!r}: layout {layout} is not one of {', '.join(LAYOUTS[len(lens)])}")
    return lens, strides, layout


def cmd_pool(args, report):
    o, given = parse_flags("pool", POOL_FLAGS, args)
    info = _check_iters(o)
    # MIOpenDriver's newest pool takes the input as a tensor flag (--input, short -W): a -W value
    # with an 'x' is that tensor, a plain number the old width flag.
    spec = o["input"]
    for flag, key, where in (("in_w", "input", "-W"), ("in_h", "doutput", "-H")):
        text = o[flag]
        if "x" in text or "," in text:            # a tensor descriptor, not a length
            o[key] = o[key] or text
            o[flag] = "32"
        else:
            o[flag] = _convert(Flag(flag, None, 0, "int", ""), text, f"{where} (--{flag})")
    spec = spec or o["input"]
    if spec:
        lens, strides, layout = _parse_tensor_spec(spec, "--input")
    else:
        if o["spatial_dim"] not in (2, 3):
            raise UsageError(f"--spatial_dim {o['spatial_dim']}: pooling is 2-d or 3-d")
        lens = [o["batchsize"], o["in_channels"]] + ([o["in_d"]] if o["spatial_dim"] == 3 else []) + [o["in_h"], o["in_w"]]
        strides, layout = None, None
    dims = len(lens) - 2
    if dims == 2 and {"win_d", "pool_stride_d", "pad_d"} & given:
        raise UsageError("-Z/-s/-o (depth window, stride, pad) given for a 2-d input: they need a 5-d --input")
    modes = {"max": 0, "avg": 1, "avg_in": 2}
    if o["mode"] not in modes:
        raise UsageError(f"-m {o['mode']!r}: the pooling mode is max, avg or avg_in")
    mode = modes[o["mode"]]
    index_types = {"miopenIndexUint8": 0, "miopenIndexUint16": 1, "miopenIndexUint32": 2, "miopenIndexUint64": 3}
    if o["index_type"] not in index_types:
        raise UsageError(f"-I {o['index_type']!r}: one of {', '.join(index_types)}")
    if o["pad_mode"] not in ("default", "same", "valid"):
        raise UsageError(f"-z {o['pad_mode']!r}: the padding mode is default, same or valid")
    if o["pad_val"] != 0:
        raise UsageError(f"-r {o['pad_val']}: only zero padding (-r 0) is supported")
    if o["index_position"] not in (0, 1):
        raise UsageError(f"-M {o['index_position']}: 0 (mask index) or 1 (image index)")
    fwd, bwd = _directions(o["forw"], "pooling")
    axes = ["d", "h", "w"][3 - dims:]
    win = [o["win_" + a] for a in axes]
    pads = [o["pad_" + a] for a in axes]
    strides_p = [o["pool_stride_" + a] for a in axes]
    if min(win + strides_p) < 1 or min(pads) < 0 or min(lens) < 1:
        raise UsageError("window lengths, strides and tensor lengths must be >= 1, pads >= 0")
    if o["pad_mode"] == "valid":
        pads = [0] * dims
    elif o["pad_mode"] == "same":
        pads = [max(f - (s if i % s == 0 else i % s), 0) // 2 for i, f, s in zip(lens[2:], win, strides_p)]
    device = Device(o["device"])
    h = device.handle
    if info:
        report.say(info)
    x = HostTensor(lens, strides=strides, layout=layout)
    xd = x.desc()
    pd = _api("PoolingDescriptor")()
    _api("setNdPoolingDescriptor")(pd, mode, dims, win, pads, strides_p)
    _api("setPoolingIndexType")(pd, index_types[o["index_type"]])
    _api("setPoolingWorkSpaceIndexMode")(pd, 1 if dims == 3 else o["index_position"])
    ylens = list(_api("getPoolingNdForwardOutputDim")(pd, xd, dims + 2))
    if min(ylens) < 1:
        raise mi.BadParmError(f"the pooling output would be {'x'.join(map(str, ylens))}: check the window and pads")
    for flag, text in (("--output/-O", o["output"]), ("--doutput", o["doutput"]), ("--dinput/-D", o["dinput"])):
        if text:
            tl, _, _ = _parse_tensor_spec(text, flag)
            want = lens if "dinput" in flag else ylens
            if list(tl) != list(want):
                raise UsageError(f"{flag} {text}: lengths {tl} contradict the computed {want}")
    y = HostTensor(ylens, layout=layout if strides is None else None)
    dy, dx = HostTensor(ylens, layout=layout if strides is None else None), HostTensor(lens, strides=strides, layout=layout)
    yd, dyd, dxd = y.desc(), dy.desc(), dx.desc()
    rng = _rng()
    x_data = rng.random(lens).astype(np.float32)                       # MIOpenDriver: U(0, 1)
    dy_data = (0.001 * (rng.random(ylens) - 0.5)).astype(np.float32)   # 0.001 * U(-0.5, 0.5)
    x.set(x_data)
    dy.set(dy_data)
    ws_size = _api("poolingGetWorkSpaceSizeV2")(pd, yd)
    ws = device.workspace(ws_size)
    do_backward = bool(bwd)
    report.record.update(subcommand="pool", device=h.device, problem={
        "x": lens, "y": ylens, "mode": o["mode"], "window": win, "pads": pads, "strides": strides_p,
        "index_type": o["index_type"], "layout": layout or ("strided" if strides else "NC" + "DHW"[3 - dims:])})
    if o["print"]:
        report.say(f"Pooling: {o['mode']} x {'x'.join(map(str, lens))} -> y {'x'.join(map(str, ylens))}, "
                   f"window {'x'.join(map(str, win))}, pad {'x'.join(map(str, pads))}, stride {'x'.join(map(str, strides_p))}")
    bx, by, bdy, bdx = device.put(x), device.put(y), device.put(dy), device.put(dx)
    fwd_call = lambda: mi.poolingForward(h, pd, 1.0, xd, bx, 0.0, yd, by, do_backward, ws, ws_size)
    size = lambda lst: int(np.prod(lst)) * 4
    if fwd:
        times, wall = timed_calls(device, fwd_call, o["iter"])
        out = _apply_corrupt("fwd", device.get(y, by))
        _time_lines(report, o, device, "Forward Pooling", times, wall)
        _bytes_stats(report, o, "pool-fwd", size(lens), size(ylens), average_excluding_first(times))
        res = _result("fwd", times, wall, size(lens), size(ylens))
        if o["verify"]:
            ref = ref_pool_fwd(x_data, mode, win, pads, strides_p, ylens[2:])
            report.verdict("Forward Pooling", rms_range(ref, out), 1e-6, res)
        report.results.append(res)
    if bwd:
        if not fwd:
            fwd_call()
        bwd_call = lambda: mi.poolingBackward(h, pd, 1.0, yd, by, dyd, bdy, xd, bx, 0.0, dxd, bdx, ws)
        times, wall = timed_calls(device, bwd_call, o["iter"])
        out = _apply_corrupt("bwd", device.get(dx, bdx))
        _time_lines(report, o, device, "Backward Pooling", times, wall)
        _bytes_stats(report, o, "pool-bwd", 2 * size(ylens) + size(lens), size(lens), average_excluding_first(times))
        res = _result("bwd", times, wall, 2 * size(ylens) + size(lens), size(lens))
        if o["verify"]:
            ref = ref_pool_bwd(x_data, dy_data, mode, win, pads, strides_p)
            report.verdict("Backward Pooling", rms_range(ref, out), 1e-6, res)
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


def cmd_lrn(args, report):
    o, _ = parse_flags("lrn", LRN_FLAGS, args)
    info = _check_iters(o)
    modes = {"within": 0, "within_channel": 0, "cross": 1, "cross_channel": 1}
    if o["mode"] not in modes:
        raise UsageError(f"-m {o['mode']!r}: the LRN mode is within or cross")
    mode = modes[o["mode"]]
    if o["lrnN"] < 1:
        raise UsageError(f"-N {o['lrnN']}: the window must be >= 1")
    fwd, bwd = _directions(o["forw"], "LRN")
    lens = [o["batchsize"], o["in_channels"], o["in_h"], o["in_w"]]
    if min(lens) < 1:
        raise UsageError("tensor lengths must be >= 1")
    device = Device(o["device"])
    h = device.handle
    if info:
        report.say(info)
    x, y, dy, dx = (HostTensor(lens) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    ld = _api("LRNDescriptor")()
    N, A, B, K = o["lrnN"], o["alpha"], o["beta"], o["lrnK"]
    _api("setLRNDescriptor")(ld, mode, N, A, B, K)
    rng = _rng()
    x_data = rng.random(lens).astype(np.float32)
    dy_data = (0.001 * (rng.random(lens) - 0.5)).astype(np.float32)
    x.set(x_data)
    dy.set(dy_data)
    ws_size = _api("LRNGetWorkSpaceSize")(yd)
    ws = device.workspace(ws_size) if bwd else None
    report.record.update(subcommand="lrn", device=h.device, problem={
        "x": lens, "mode": ["within", "cross"][mode], "lrnN": N, "alpha": A, "beta": B, "lrnK": K})
    if o["printconv"]:
        report.say(f"LRN: {['within', 'cross'][mode]}-channel x {'x'.join(map(str, lens))}, N {N}, "
                   f"alpha {A:g}, beta {B:g}, K {K:g}")
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * 4
    fwd_call = lambda: mi.LRNForward(h, ld, 1.0, xd, bx, 0.0, yd, by, bwd, ws)
    if fwd:
        times, wall = timed_calls(device, fwd_call, o["iter"])
        out = _apply_corrupt("fwd", device.get(y, by))
        _time_lines(report, o, device, "Forward LRN", times, wall)
        _bytes_stats(report, o, "lrn-fwd", nbytes, nbytes, average_excluding_first(times))
        res = _result("fwd", times, wall, nbytes, nbytes)
        if o["verify"]:
            report.verdict("Forward LRN", rms_range(ref_lrn_fwd(x_data, mode, N, A, B, K), out), 1e-6, res)
        report.results.append(res)
    if bwd:
        if not fwd:
            fwd_call()
        bwd_call = lambda: mi.LRNBackward(h, ld, 1.0, yd, by, dyd, bdy, xd, bx, 0.0, dxd, bdx, ws)
        times, wall = timed_calls(device, bwd_call, o["iter"])
        out = _apply_corrupt("bwd", device.get(dx, bdx))
        _time_lines(report, o, device, "Backward LRN", times, wall)
        _bytes_stats(report, o, "lrn-bwd", 3 * nbytes, nbytes, average_excluding_first(times))
        res = _result("bwd", times, wall, 3 * nbytes, nbytes)
        if o["verify"]:
            report.verdict("Backward LRN", rms_range(ref_lrn_bwd(x_data, dy_data, mode, N, A, B, K), out), 1e-5, res)
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


def cmd_activ(args, report):
    o, given = parse_flags("activ", ACTIV_FLAGS, args)
    info = _check_iters(o)
    mode = o["mode"]
    if not 0 <= mode <= 9:
        raise UsageError(f"-m {mode}: activation modes are 0..9 ({', '.join(f'{i} {n}' for i, n in enumerate(ACTIV_NAMES))})")
    if "power" in given:
        if "gamma" in given and o["gamma"] != o["power"]:
            raise UsageError(f"-P {o['power']} and -G {o['gamma']} contradict: -P is the old name of -G")
        o["gamma"] = o["power"]
    a, b, g = o["alpha"], o["beta"], o["gamma"]
    fwd, bwd = _directions(o["forw"], "activation")
    lens = [o["batchsize"], o["in_channels"], o["in_h"], o["in_w"]]
    if min(lens) < 1:
        raise UsageError("tensor lengths must be >= 1")
    layout = _layout4(o)
    device = Device(o["device"])
    h = device.handle
    if info:
        report.say(info)
    x, y, dy, dx = (HostTensor(lens, layout=layout) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    ad = _api("ActivationDescriptor")()
    _api("setActivationDescriptor")(ad, mode, a, b, g)
    rng = _rng()
    # POWER needs a positive base for fractional powers: MIOpenDriver's U(0, 1) there, U(-1, 1)
    # elsewhere so that both sides of RELU-like kinks are exercised.
    x_data = (rng.random(lens) if mode == 6 else 2.0 * rng.random(lens) - 1.0).astype(np.float32)
    dy_data = (0.001 * (rng.random(lens) - 0.5)).astype(np.float32)
    x.set(x_data)
    dy.set(dy_data)
    report.record.update(subcommand="activ", device=h.device, problem={
        "x": lens, "layout": layout, "mode": mode, "mode_name": ACTIV_NAMES[mode], "alpha": a, "beta": b, "gamma": g})
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * 4
    fwd_call = lambda: mi.activationForward(h, ad, 1.0, xd, bx, 0.0, yd, by)
    if fwd:
        times, wall = timed_calls(device, fwd_call, o["iter"])
        out = _apply_corrupt("fwd", device.get(y, by))
        _time_lines(report, o, device, "Forward Activation", times, wall)
        _bytes_stats(report, o, "activ-fwd", nbytes, nbytes, average_excluding_first(times))
        res = _result("fwd", times, wall, nbytes, nbytes)
        if o["verify"]:
            report.verdict("Forward Activation", rms_range(ref_activ_fwd(x_data, mode, a, b, g), out), 1e-6, res)
        report.results.append(res)
    if bwd:
        if not fwd:
            fwd_call()
        bwd_call = lambda: mi.activationBackward(h, ad, 1.0, yd, by, dyd, bdy, xd, bx, 0.0, dxd, bdx)
        times, wall = timed_calls(device, bwd_call, o["iter"])
        out = _apply_corrupt("bwd", device.get(dx, bdx))
        _time_lines(report, o, device, "Backward Activation", times, wall)
        _bytes_stats(report, o, "activ-bwd", 3 * nbytes, nbytes, average_excluding_first(times))
        res = _result("bwd", times, wall, 3 * nbytes, nbytes)
        if o["verify"]:
            report.verdict("Backward Activation", rms_range(ref_activ_bwd(x_data, dy_data, mode, a, b, g), out), 1e-6, res)
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


def cmd_softmax(args, report):
    o, _ = parse_flags("softmax", SOFTMAX_FLAGS, args)
    info = _check_iters(o)
    algo, mode = o["algorithm"], o["mode"]
    if algo not in (0, 1, 2):
        raise UsageError(f"-a {algo}: fast (0), accurate (1) or logsoftmax (2)")
    if mode not in (0, 1):
        raise UsageError(f"-m {mode}: instance (0) or channel (1)")
    alpha, beta = o["alpha"], o["beta"]
    fwd, bwd = _directions(o["forw"], "softmax")
    lens = [o["batchsize"], o["in_channels"], o["in_h"], o["in_w"]]
    if min(lens) < 1:
        raise UsageError("tensor lengths must be >= 1")
    layout = _layout4(o)
    device = Device(o["device"])
    h = device.handle
    if info:
        report.say(info)
    x, y, dy, dx = (HostTensor(lens, layout=layout) for _ in range(4))
    xd, yd, dyd, dxd = x.desc(), y.desc(), dy.desc(), dx.desc()
    rng = _rng()
    x_data = rng.random(lens).astype(np.float32)
    dy_data = (0.001 * (rng.random(lens) - 0.5)).astype(np.float32)
    # With beta != 0 the outputs blend in their previous contents: give them known data.
    y0 = rng.random(lens).astype(np.float32)
    dx0 = rng.random(lens).astype(np.float32)
    x.set(x_data)
    dy.set(dy_data)
    names = ["fast", "accurate", "log"]
    report.record.update(subcommand="softmax", device=h.device, problem={
        "x": lens, "layout": layout, "algorithm": names[algo], "mode": ["instance", "channel"][mode],
        "alpha": alpha, "beta": beta})
    fwd_api, bwd_api = _api("softmaxForward_V2"), _api("softmaxBackward_V2")
    bx, by, bdy, bdx = (device.put(t) for t in (x, y, dy, dx))
    nbytes = int(np.prod(lens)) * 4
    ref_y = ref_softmax_fwd(x_data, algo, mode)

    def fwd_call():
        if beta != 0:
            y.set(y0)
            if device.gpu:
                by.copy_from(y.buf)
        fwd_api(h, alpha, xd, bx, beta, yd, by, algo, mode)

    if fwd:
        times, wall = timed_calls(device, fwd_call, o["iter"])
        out = _apply_corrupt("fwd", device.get(y, by))
        _time_lines(report, o, device, "Forward Softmax", times, wall)
        _bytes_stats(report, o, "softmax-fwd", nbytes, nbytes, average_excluding_first(times))
        res = _result("fwd", times, wall, nbytes, nbytes)
        if o["verify"]:
            ref = alpha * ref_y + (beta * y0 if beta != 0 else 0.0)
            report.verdict("Forward Softmax", rms_range(ref, out), 1e-6, res)
        report.results.append(res)
    if bwd:
        # Backward takes the exact forward output (alpha 1, beta 0) as its y.
        y.set(ref_y.astype(np.float32))
        by = device.put(y)
        y_used = y.get()

        def bwd_call():
            if beta != 0:
                dx.set(dx0)
                if device.gpu:
                    bdx.copy_from(dx.buf)
            bwd_api(h, alpha, yd, by, dyd, bdy, beta, dxd, bdx, algo, mode)

        times, wall = timed_calls(device, bwd_call, o["iter"])
        out = _apply_corrupt("bwd", device.get(dx, bdx))
        _time_lines(report, o, device, "Backward Softmax", times, wall)
        _bytes_stats(report, o, "softmax-bwd", 2 * nbytes, nbytes, average_excluding_first(times))
        res = _result("bwd", times, wall, 2 * nbytes, nbytes)
        if o["verify"]:
            ref = alpha * ref_softmax_bwd(y_used, dy_data, algo, mode) + (beta * dx0 if beta != 0 else 0.0)
            report.verdict("Backward Softmax", rms_range(ref, out), 1e-6, res)
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


BN_EPS = 1e-3          # MIOpenDriver's EPSILON
BN_TOL = 1e-4          # MIOpenDriver's RMSTOL_FP32


def cmd_bnorm(args, report):
    o, _ = parse_flags("bnorm", BNORM_FLAGS, args)
    info = _check_iters(o)
    mode = o["mode"]
    if mode not in (0, 1):
        raise UsageError(f"-m {mode}: per-activation (0) or spatial (1)")
    for flag in ("save", "run", "back"):
        if o[flag] not in (0, 1):
            raise UsageError(f"--{flag} {o[flag]}: 0 or 1")
    forw, back = o["forw"], o["back"]
    if not 0 <= forw <= 2:
        raise UsageError(f"-F {forw}: off (0), train (1) or inference (2)")
    notes = []
    if back and forw:
        notes.append("Warning: Deactivate forward to run backward on Batch Norm.\nRunning forward only.")
        back = 0
    elif not back and not forw:
        forw = 1
    lens = [o["batchsize"], o["in_channels"]] + ([o["in_d"]] if o["in_d"] else []) + [o["in_h"], o["in_w"]]
    if min(lens) < 1:
        raise UsageError("tensor lengths must be >= 1")
    layout = _layout4(o, len(lens))
    device = Device(o["device"])
    h = device.handle
    for line in ([info] if info else []) + notes:
        report.say(line)
    alpha, beta = o["alpha"], o["beta"]
    x = HostTensor(lens, layout=layout)
    xd = x.desc()
    pd = mi.TensorDescriptor()
    _api("deriveBNTensorDescriptor")(pd, xd, mode)
    plens = list(pd.shape)
    rng = _rng()
    x_data = rng.random(lens).astype(np.float32)
    x.set(x_data)
    params = lambda lo=0.0, hi=1.0: (lo + (hi - lo) * rng.random(plens)).astype(np.float32)
    p = lambda data: BnParam(device, plens, data)
    kind = "train" if forw == 1 else ("inference" if forw == 2 else "backward")
    report.record.update(subcommand="bnorm", device=h.device, problem={
        "x": lens, "layout": layout, "mode": ["per-activation", "spatial"][mode], "run": kind,
        "save": o["save"], "running": o["run"], "epsilon": BN_EPS})
    if o["printconv"]:
        report.say(f"BatchNorm: {['per-activation', 'spatial'][mode]} {kind}, x {'x'.join(map(str, lens))} "
                   f"({layout}), parameters {'x'.join(map(str, plens))}")
    nbytes = int(np.prod(lens)) * 4
    pbytes = int(np.prod(plens)) * 4
    bx = device.put(x)
    if forw:
        y = HostTensor(lens, layout=layout)
        yd = y.desc()
        by = device.put(y)
        scale, bias = p(params()), p(params())
        y0 = rng.random(lens).astype(np.float32)
        checks = []
        if forw == 1:
            run_mean, run_var = p(params()), p(params())
            save_mean, save_inv = p(np.full(plens, np.nan, np.float32)), p(np.full(plens, np.nan, np.float32))
            keep, save = bool(o["run"]), bool(o["save"])
            calls = [0]
            api = _api("batchNormalizationForwardTraining")

            def call():
                i = calls[0]
                calls[0] += 1
                if beta != 0:
                    y.set(y0)
                    if device.gpu:
                        by.copy_from(y.buf)
                api(h, mode, alpha, beta, xd, bx, yd, by, pd, scale.dev, bias.dev, 1.0 / (i + 1),
                    run_mean.dev if keep else None, run_var.dev if keep else None, BN_EPS,
                    save_mean.dev if save else None, save_inv.dev if save else None)

            times, wall = timed_calls(device, call, o["iter"])
            ref_y, mean, unbiased, smean, sinv = ref_bn_train(x_data, scale.data, bias.data, mode, BN_EPS)
            checks.append(("Forward train batch norm", ref_y, y, by))
            if keep:
                # Every iteration sees the same batch: with expAvgFactor 1/(i+1) the running
                # statistics end as the batch statistics.
                checks += [("Forward train batch norm running mean", mean, run_mean, None),
                           ("Forward train batch norm running variance", unbiased, run_var, None)]
            if save:
                checks += [("Forward train batch norm saved mean", smean, save_mean, None),
                           ("Forward train batch norm saved inverse variance", sinv, save_inv, None)]
            label = "Forward Batch Normalization"
        else:
            est_mean, est_var = p(params()), p(params(0.5, 1.5))
            api = _api("batchNormalizationForwardInference")

            def call():
                if beta != 0:
                    y.set(y0)
                    if device.gpu:
                        by.copy_from(y.buf)
                api(h, mode, alpha, beta, xd, bx, yd, by, pd, scale.dev, bias.dev, est_mean.dev, est_var.dev, BN_EPS)

            times, wall = timed_calls(device, call, o["iter"])
            ref_y = ref_bn_infer(x_data, scale.data, bias.data, est_mean.data, est_var.data, BN_EPS)
            checks.append(("Forward inference batch norm", ref_y, y, by))
            label = "Forward Batch Normalization"
        _time_lines(report, o, device, label, times, wall)
        t = average_excluding_first(times)
        if o["time"]:
            data_sz = nbytes + 2 * pbytes
            rd = 2 if forw == 1 else 1
            report.say(f"stats: bnormf, 0, {data_sz}, {data_sz}, 0, {(rd + 1) * data_sz / t / 1e6 if t > 0 else 0:f}, {t:f}")
        res = _result("fwd", times, wall, nbytes + 2 * pbytes, nbytes, kind=kind)
        if o["verify"]:
            _bn_verify(report, device, checks, alpha, beta, y0, res)
        report.results.append(res)
    else:
        dy, dx = HostTensor(lens, layout=layout), HostTensor(lens, layout=layout)
        dyd, dxd = dy.desc(), dx.desc()
        dy_data = (1e-2 * (rng.integers(0, 100, lens) + 1)).astype(np.float32)
        dy.set(dy_data)
        bdy, bdx = device.put(dy), device.put(dx)
        scale = p((1e-2 * (rng.integers(0, 100, plens) + 1)).astype(np.float32))
        dscale, dbias = p(np.full(plens, np.nan, np.float32)), p(np.full(plens, np.nan, np.float32))
        save = bool(o["save"])
        s_mean = p((1e-2 * (rng.integers(0, 100, plens) + 1)).astype(np.float32))
        s_inv = p((1e-2 * (rng.integers(0, 100, plens) + 1)).astype(np.float32))
        dx0 = rng.random(lens).astype(np.float32)
        api = _api("batchNormalizationBackward")

        def call():
            if beta != 0:
                dx.set(dx0)
                if device.gpu:
                    bdx.copy_from(dx.buf)
            api(h, mode, alpha, beta, 1.0, 0.0, xd, bx, dyd, bdy, dxd, bdx, pd, scale.dev, dscale.dev,
                dbias.dev, BN_EPS, s_mean.dev if save else None, s_inv.dev if save else None)

        times, wall = timed_calls(device, call, o["iter"])
        _time_lines(report, o, device, "Backward Batch Normalization", times, wall)
        t = average_excluding_first(times)
        if o["time"]:
            data_sz = nbytes + 2 * pbytes
            report.say(f"stats: bnormb, 0, {data_sz}, {data_sz}, 0, {3 * data_sz / t / 1e6 if t > 0 else 0:f}, {t:f}")
        res = _result("bwd", times, wall, 2 * nbytes + 3 * pbytes, nbytes + 2 * pbytes, kind=kind)
        if o["verify"]:
            rdx, rds, rdb = ref_bn_bwd(x_data, dy_data, scale.data, mode, BN_EPS,
                                       s_mean.data if save else None, s_inv.data if save else None)
            checks = [("Backward batch norm dx", rdx, dx, bdx), ("Backward batch norm dscale", rds, dscale, None),
                      ("Backward batch norm dbias", rdb, dbias, None)]
            _bn_verify(report, device, checks, alpha, beta, dx0, res)
        report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


class BnParam:
    """A batch-norm parameter vector (shape of the derived descriptor) and its device data."""

    def __init__(self, device, plens, data):
        self.device = device
        self.data = np.asarray(data, np.float32).reshape(plens)
        self.host = np.ascontiguousarray(self.data).copy()
        self.dev = self.host if not device.gpu else mi.DeviceBuffer.from_numpy(device.handle, self.host)

    def get(self):
        if self.device.gpu:
            return self.dev.to_numpy(self.host.shape, np.float32)
        return self.host


def _bn_verify(report, device, checks, alpha, beta, prev, res):
    errors = {}
    worst = 0.0
    for label, ref, t, dev in checks:
        if isinstance(t, HostTensor):
            out = device.get(t, dev)
            out = _apply_corrupt(res["direction"], out)
            ref = alpha * ref + (beta * prev if beta != 0 else 0.0)
        else:
            out = t.get()
        err = rms_range(ref, out)
        errors[label] = _finite_or_none(err)
        worst = err if not np.isfinite(err) else max(worst, err)
        if not np.isfinite(worst):
            break
    res["errors"] = errors
    name = "Forward Batch Normalization" if res["direction"] == "fwd" else "Backward Batch Normalization"
    report.verdict(name, worst, BN_TOL, res)


def cmd_tensorop(args, report):
    o, _ = parse_flags("tensorop", TENSOROP_FLAGS, args)
    info = _check_iters(o)
    op = o["tensor_op"]
    if not 0 <= op <= 5:
        raise UsageError(f"-o {op}: 0 SetTensor, 1 ScaleTensor, 2 Add, 3 Mul, 4 Min, 5 Max")
    lens = [o["batchsize"], o["in_channels"], o["in_h"], o["in_w"]]
    if min(lens) < 1:
        raise UsageError("tensor lengths must be >= 1")
    device = Device(o["device"])
    h = device.handle
    if info:
        report.say(info)
    a1, a2, b, val = o["alpha1"], o["alpha2"], o["beta"], o["tensor_val"]
    rng = _rng()
    a_data = (4.0 * rng.random(lens) - 2.0).astype(np.float32)        # MIOpenDriver: U(-2, 2)
    b_data = (4.0 * rng.random(lens) - 2.0).astype(np.float32)
    c_data = (4.0 * rng.random(lens) - 2.0).astype(np.float32)
    A, B, C = HostTensor(lens), HostTensor(lens), HostTensor(lens)
    ad, bd, cdesc = A.desc(), B.desc(), C.desc()
    names = ["set", "scale", "add", "mul", "min", "max"]
    report.record.update(subcommand="tensorop", device=h.device, problem={
        "x": lens, "op": names[op], "alpha1": a1, "alpha2": a2, "beta": b, "tensor_val": val})
    A.set(a_data)
    B.set(b_data)
    C.set(c_data)
    dA, dB, dC = device.put(A), device.put(B), device.put(C)

    def call():
        if op == 0:
            mi.setTensor(h, ad, dA, val)
        elif op == 1:
            A.set(a_data)                      # scale the same data every iteration
            if device.gpu:
                dA.copy_from(A.buf)
            mi.scaleTensor(h, ad, dA, val)
        else:
            C.set(c_data)
            if device.gpu:
                dC.copy_from(C.buf)
            mi.opTensor(h, op - 2, a1, ad, dA, a2, bd, dB, b, cdesc, dC)

    times, wall = timed_calls(device, call, o["iter"])
    nbytes = int(np.prod(lens)) * 4
    t = average_excluding_first(times)
    if o["time"]:
        if o["wall"]:
            report.say(f"Wall-clock Time Tensor Ops Elapsed: {average_excluding_first(wall):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Min Time Tensor Op Elapsed: {min(times):f} ms")
        report.say(f"{'GPU' if device.gpu else 'CPU'} Kernel Avg Time Tensor Op Elapsed: {t:f} ms, "
                   f"for {max(len(times) - 1, 1)} iterations.")
        report.say("stats: name, bytesRead, bytesWritten, GB/s, timeMs")
        report.say(f"stats: tensor op, {3 * nbytes}, {nbytes}, {4 * nbytes / t / 1e6 if t > 0 else 0:f}, {t:f}")
    res = _result("fwd", times, wall, 3 * nbytes if op >= 2 else nbytes, nbytes)
    if op == 0:
        ref, out = np.full(lens, val), device.get(A, dA)
    elif op == 1:
        ref, out = a_data.astype(np.float64) * val, device.get(A, dA)
    else:
        fa, fb = a1 * a_data.astype(np.float64), a2 * b_data.astype(np.float64)
        r = {2: fa + fb, 3: fa * fb, 4: np.minimum(fa, fb), 5: np.maximum(fa, fb)}[op]
        ref, out = r + b * c_data.astype(np.float64), device.get(C, dC)
    out = _apply_corrupt("fwd", out)
    if o["verify"]:
        report.verdict("Tensor Op", rms_range(ref, out), 1e-6, res)
    report.results.append(res)
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


# ================================================================================================
# net: every convolution of a network, one table
# ================================================================================================

def resnet50_layers(batch):
    """The distinct convolutions of ResNet-50 v1.5 (stride 2 in the 3x3 of each first bottleneck)
    at 224x224: (name, ConvCase, how many times the network has this problem)."""
    L = []

    def conv(name, c, k, hw, f, s, count):
        p = f // 2
        L.append((name, ConvCase(batch, c, k, (hw, hw), (f, f), (p, p), (s, s), (1, 1), name=name), count))

    conv("conv1", 3, 64, 224, 7, 2, 1)
    stages = [("layer1", 64, 256, 56, 3, 1), ("layer2", 128, 512, 56, 4, 2),
              ("layer3", 256, 1024, 28, 6, 2), ("layer4", 512, 2048, 14, 3, 2)]
    c_in = 64
    for name, mid, out, hw, blocks, s in stages:
        hw_out = hw // s
        conv(f"{name}.0.conv1", c_in, mid, hw, 1, 1, 1)
        conv(f"{name}.0.conv2", mid, mid, hw, 3, s, 1 if s > 1 else blocks)
        # conv3 of every block; in layer1 the downsample (64 -> 256, stride 1) is the same problem.
        conv(f"{name}.0.conv3", mid, out, hw_out, 1, 1, blocks + (1 if s == 1 else 0))
        if s > 1:
            conv(f"{name}.0.downsample", c_in, out, hw, 1, s, 1)
        conv(f"{name}.1.conv1", out, mid, hw_out, 1, 1, blocks - 1)
        if s > 1:
            conv(f"{name}.1.conv2", mid, mid, hw_out, 3, 1, blocks - 1)
        c_in = out
    return L


NETWORKS = {"resnet50": resnet50_layers}


def _net_directions(text):
    text = str(text).strip().lower()
    if text in ("all", "0", ""):
        return ["fwd", "bwd", "wrw"]
    if text.isdigit():
        mask = int(text)
        if not 1 <= mask <= 7:
            raise UsageError(f"--directions {text}: a bitmask of 1 (fwd), 2 (bwd), 4 (wrw)")
        return [d for bit, d in ((1, "fwd"), (2, "bwd"), (4, "wrw")) if mask & bit]
    alias = {"fwd": "fwd", "f": "fwd", "forward": "fwd", "bwd": "bwd", "b": "bwd", "bwd_data": "bwd",
             "backward": "bwd", "wrw": "wrw", "w": "wrw", "bwd_weights": "wrw", "weights": "wrw"}
    out = []
    for part in text.split(","):
        if part.strip() not in alias:
            raise UsageError(f"--directions {text}: use all, a list of fwd,bwd,wrw, or a bitmask 1..7")
        d = alias[part.strip()]
        if d not in out:
            out.append(d)
    return [d for d in ("fwd", "bwd", "wrw") if d in out]


class Progress:
    """One self-rewriting status line on stderr, only when stderr is a terminal."""

    def __init__(self, total):
        self.total, self.done = total, 0
        self.on = sys.stderr.isatty()
        self.width = 0

    def show(self, text):
        if self.on:
            line = f"[{self.done + 1:>3}/{self.total}] {text}"
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = len(line)

    def step(self):
        self.done += 1

    def close(self):
        if self.on and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def cmd_net(args, report):
    if not args or args[0].startswith("-"):
        raise UsageError(f"net needs a network name: {', '.join(NETWORKS)} (e.g. {PROG} net resnet50 --batch 8)")
    net = args[0]
    if net not in NETWORKS:
        raise UsageError(f"unknown network {net!r}: known networks are {', '.join(NETWORKS)}")
    o, _ = parse_flags(f"net {net}", NET_FLAGS, args[1:])
    if o["batch"] < 1:
        raise UsageError(f"--batch {o['batch']}: must be >= 1")
    if o["iter"] < 1:
        raise UsageError(f"--iter {o['iter']}: must be >= 1")
    directions = _net_directions(o["directions"])
    patterns = [p.strip() for p in o["layers"].split(",") if p.strip()]
    layers = [(n, c, k) for n, c, k in NETWORKS[net](o["batch"])
              if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    if not layers:
        names = ", ".join(n for n, _, _ in NETWORKS[net](1))
        raise UsageError(f"--layers {o['layers']!r} matches no layer of {net}: {names}")
    device = Device(o["device"])
    report.record.update(subcommand="net", network=net, device=device.handle.device, batch=o["batch"],
                         directions=directions, layers=[n for n, _, _ in layers])
    report.say(f"{net}: {len(layers)} distinct convolutions, batch {o['batch']}, "
               f"directions {','.join(directions)}, {o['iter']} timed iterations each (first excluded), "
               f"device {device.handle.device}")
    progress = Progress(len(layers) * len(directions))
    rows = []
    totals = {d: [0.0, 0.0] for d in directions}       # ms and flop, counting repeats
    try:
        for name, case, count in layers:
            runner = ConvRunner(device, case)
            for d in directions:
                progress.show(f"{name} {d}: Find and {o['iter']} runs")
                res = runner.run(d, o["iter"], corrupt=_corrupt_hook)
                out = res.pop("output")
                if o["verify"]:
                    progress.show(f"{name} {d}: verifying")
                    err = rms_range(runner.reference(d), out)
                    tol = runner.tolerance(d, res["algorithm"])
                    ok = bool(np.isfinite(err) and err <= tol)
                    res.update(verified=ok, error=_finite_or_none(err), tolerance=tol)
                    if not ok:
                        report.failed = True
                else:
                    res["verified"] = None
                res.update(layer=name, count=count, command=case.command({"fwd": 1, "bwd": 2, "wrw": 4}[d]),
                           shape=_layer_shape(case))
                rows.append(res)
                report.results.append(res)
                totals[d][0] += count * res["time_ms"]
                totals[d][1] += count * res["flop"]
                progress.step()
    finally:
        progress.close()
    _net_table(report, rows, totals, bool(o["verify"]), bool(o["commands"]))
    report.record["totals"] = {d: {"time_ms": t, "flop": f, "tflops": f / t / 1e9 if t > 0 else None}
                               for d, (t, f) in totals.items()}
    return EXIT_VERIFY_FAILED if report.failed else EXIT_OK


def _layer_shape(case):
    f = "x".join(map(str, case.filt))
    return f"{case.c}->{case.k} {case.spatial[0]}x{case.spatial[1]} {f}/{case.strides[0]}"


def _net_table(report, rows, totals, verify, commands):
    head = ("layer", "shape", "x", "dir", "algorithm / solver", "time ms", "TFLOP/s", "verify")
    body = []
    for r in rows:
        solver = f"{r['algorithm_name']} / {r['solver'] or 'UNKNOWN'}"
        tf = r["flop"] / r["time_ms"] / 1e9 if r["time_ms"] > 0 else 0.0
        v = "-" if r["verified"] is None else (f"OK {r['error']:.1e}" if r["verified"] else
                                               f"FAILED {r['error'] if r['error'] is not None else 'nan'}")
        body.append((r["layer"], r["shape"], str(r["count"]), r["direction"], solver,
                     f"{r['time_ms']:.3f}", f"{tf:.3f}", v))
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    fmt = lambda row: "  ".join(c.ljust(w) if i in (0, 1, 3, 4, 7) else c.rjust(w)
                                for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    report.say(fmt(head))
    report.say("  ".join("-" * w for w in widths))
    for row, r in zip(body, rows):
        report.say(fmt(row))
        if commands:
            report.say(f"    {r['command']}")
    report.say("")
    all_t = sum(t for t, _ in totals.values())
    all_f = sum(f for _, f in totals.values())
    for d, (t, f) in totals.items():
        report.say(f"total {d}: {t:.3f} ms, {f / t / 1e9 if t > 0 else 0:.3f} TFLOP/s "
                   f"(every convolution of the network, repeats counted)")
    n_fail = sum(1 for r in rows if r["verified"] is False)
    report.say(f"total: {all_t:.3f} ms, {all_f / all_t / 1e9 if all_t > 0 else 0:.3f} TFLOP/s"
               + ("" if not verify else f"; verification: {len(rows) - n_fail}/{len(rows)} OK"))


# ================================================================================================
# main
# ================================================================================================

COMMANDS = {"conv": cmd_conv, "pool": cmd_pool, "lrn": cmd_lrn, "activ": cmd_activ,
            "softmax": cmd_softmax, "bnorm": cmd_bnorm, "tensorop": cmd_tensorop, "net": cmd_net}
# MIOpenDriver's other base arguments: data-type variants and operations this driver lacks.
OTHER_TYPES = {"fp16": "fp16 (miopenHalf)", "bfp16": "bfloat16", "int8": "int8", "fp64": "fp64",
               "fp8": "fp8", "bfp8": "bfp8"}
OTHER_OPS = ("CBAInfer", "CBAInferfp16", "rnn", "rnnfp16", "gemm", "gemmfp16", "ctc", "dropout",
             "dropoutfp16", "reduce", "reducefp16", "reducefp64")


def usage_text():
    return (f"usage: {PROG} <sub-command> [flags]   ({PROG} <sub-command> --help lists the flags)\n"
            f"sub-commands: {', '.join(c for c in COMMANDS if c != 'net')} (MIOpenDriver's), "
            f"net resnet50 (every convolution of ResNet-50)\n"
            f"miopen_cy flags: --device cpu|gpu (default cpu), --json")


def _usage_error(cmd, message):
    where = f"{PROG} {cmd}" if cmd else PROG
    usage = f"{where} [flags]" if cmd else f"{PROG} <sub-command> [flags]"
    print(f"usage: {usage}   (see {where} --help)\n{where}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv=None):
    """Runs one miopen-driver command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "-?", "help"):
        print(usage_text(), file=sys.stdout if argv else sys.stderr)
        return EXIT_OK if argv else EXIT_USAGE
    if argv[0] == "--version":
        major, minor, patch = mi.getVersion()
        print(f"MIOpen (version: {major}.{minor}.{patch}), miopen_cy {mi.__version__}")
        return EXIT_OK
    cmd, args = argv[0], argv[1:]
    if cmd not in COMMANDS:
        if cmd in OTHER_OPS:
            return _usage_error(None, f"'{cmd}' is a MIOpenDriver sub-command this driver does not implement "
                                      f"(available: {', '.join(COMMANDS)})")
        for base in COMMANDS:
            if cmd.startswith(base) and cmd[len(base):] in OTHER_TYPES:
                return _usage_error(None, f"'{cmd}': data type {OTHER_TYPES[cmd[len(base):]]} is not supported; "
                                          f"miopen_cy computes in fp32 only: use '{base}'")
        return _usage_error(None, f"unknown sub-command {cmd!r} (choose from {', '.join(COMMANDS)})")
    as_json = "--json" in args
    report = Report(as_json)
    report.record.update(command=" ".join([PROG] + [shlex.quote(a) for a in argv]))
    try:
        report.say(" ".join([PROG] + argv))      # MIOpenDriver echoes its command
        code = COMMANDS[cmd](args, report)
    except HelpRequested as h:
        print(h.text())
        return EXIT_OK
    except UsageError as e:
        return _usage_error(cmd, str(e))
    except LibraryMissing as e:
        print(f"{PROG} {cmd}: error: {e}", file=sys.stderr)
        return report.finish(EXIT_LIBRARY) if as_json else EXIT_LIBRARY
    except mi.MIOpenError as e:
        print(f"{PROG} {cmd}: error: {e}", file=sys.stderr)
        report.record["error"] = str(e)
        return report.finish(EXIT_LIBRARY) if as_json else EXIT_LIBRARY
    return report.finish(code)


if __name__ == "__main__":
    sys.exit(main())
