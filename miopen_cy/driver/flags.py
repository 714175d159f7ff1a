"""The flags of every sub-command, in one table-driven definition, and their parser.

MIOpenDriver's InputFlags: every flag has a long name and, mostly, a one-character short name;
each takes exactly one value. miopen_cy adds the long-only --device and --json to every command.

A table is text, one flag a line: `name[|alias...] short default kind help` (short `-`: none;
default a Python literal; kind int, float, str, switch or choice:a,b). A line of bare names
takes those flags from STANDARD, the rows most sub-commands share; `name=default` takes one with
another default (its help's "(Default=...)" follows)."""
import ast
import re

PROG = "miopen-driver"


class UsageError(Exception):
    """A flag problem: reported argparse-style with exit status 2."""


class Flag:
    __slots__ = ("name", "short", "default", "kind", "help", "aliases")

    def __init__(self, name, short, default, kind, help, aliases=()):
        self.name, self.short, self.default = name, short, default
        self.kind, self.help, self.aliases = kind, help, tuple(aliases)


def _rows(text):
    """{name: Flag} of a table's full definition lines, in order."""
    flags = {}
    for line in text.strip().splitlines():
        names, short, default, kind, help = line.split(None, 4)
        name, *aliases = names.split("|")
        flags[name] = Flag(name, None if short == "-" else short, ast.literal_eval(default), kind, help, aliases)
    return flags


STANDARD = _rows("""
forw          F  0    int  0 forward and backward, 1 forward only, 2 backward only
batchsize     n  100  int  Mini-batch size (Default=100)
in_channels   c  3    int  Number of Input Channels (Default=3)
in_h          H  32   int  Input Height (Default=32)
in_w          W  32   int  Input Width (Default=32)
iter          i  10   int  Number of Iterations (Default=10)
verify        V  1    int  Verify Each Layer (Default=1)
time          t  0    int  Time Each Layer (Default=0)
wall          w  0    int  Wall-clock Time Each Layer, requires --time 1 (Default=0)
printconv     P  1    int  Print Dimensions (Default=1)
layout        L  ''   str  Tensor layout: NCHW or NHWC (Default=NCHW)
""")


def _standard(ref):
    name, eq, default = ref.partition("=")
    f = STANDARD[name]
    if not eq:
        return f
    value = ast.literal_eval(default)
    return Flag(name, f.short, value, f.kind, re.sub(r"\(Default=[^)]*\)", f"(Default={value})", f.help),
                f.aliases)


def table(text):
    """The flags of one sub-command, in the order its --help lists them."""
    flags = []
    for line in text.strip().splitlines():
        refs = line.split()
        if all(r.partition("=")[0] in STANDARD for r in refs):
            flags += [_standard(r) for r in refs]
        else:
            flags += _rows(line).values()
    return flags


COMMON_FLAGS = table("""
device  -  'cpu'  choice:cpu,gpu  miopen_cy: the device to run on (cpu or gpu)
json    -  False  switch          miopen_cy: print one JSON object instead of text
""")

CONV_FLAGS = table("""
in_layout           I  ''  str  Input Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)
out_layout          O  ''  str  Output Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)
fil_layout          f  ''  str  Filter Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)
spatial_dim         _  2   int  convolution spatial dimension (Default-2; 1 is miopen_cy's)
forw                F  0   int  0 fwd+bwd+wrw (default), 1 fwd, 2 bwd, 4 wrw; a bitmask (3, 5, 6)
batchsize in_channels
in_d                !  32  int  Input Depth (Default=32)
in_h in_w
out_channels        k  32  int  Number of Output Channels (Default=32)
fil_d               @  3   int  Filter Depth (Default=3)
fil_h               y  3   int  Filter Height (Default=3)
fil_w               x  3   int  Filter Width (Default=3)
conv_stride_d       #  1   int  Convolution Stride for Depth (Default=1)
conv_stride_h|conv_stride_0  u  1  int  Convolution Stride for Height (Default=1)
conv_stride_w|conv_stride_1  v  1  int  Convolution Stride for Width (Default=1)
pad_d               $  0   int  Zero Padding for Depth (Default=0)
pad_h               p  0   int  Zero Padding for Height (Default=0)
pad_w               q  0   int  Zero Padding for Width (Default=0)
pad_val             r  0   int  Padding Value (Default=0; only 0 is supported)
trans_output_pad_d  %  0   int  Zero Padding Output for Depth (Default=0)
trans_output_pad_h  Y  0   int  Zero Padding Output for Height (Default=0)
trans_output_pad_w  X  0   int  Zero Padding Output for Width (Default=0)
iter verify
verification_cache  C  ''  str  Verification cache directory (accepted, not used)
time wall
search              s  0   int  Search Kernel Config (exhaustiveSearch of Find) (Default=0)
printconv           P  1   int  Print Convolution Dimensions (Default=1)
dump_output         o  0   int  Dumps the output buffers (Default=0)
in_data             d  ''  str  Input data filename (Default=)
weights             e  ''  str  Input weights filename (Default=)
bias                b  0   int  Use Bias: add it after forward, its gradient after backward (Default=0)
mode                m  'conv'     str  Convolution Mode (conv, trans) (Default=conv)
pad_mode            z  'default'  str  Padding Mode (same, valid, default) (Default=default)
tensor_vect         Z  0   int  tensor vectorization type (only 0 is supported)
vector_length       L  1   int  tensor vectorization length (only 1 is supported)
dilation_d          ^  1   int  Dilation of Filter Depth (Default=1)
dilation_h          l  1   int  Dilation of Filter Height (Default=1)
dilation_w          j  1   int  Dilation of Filter Width (Default=1)
in_bias             a  ''  str  Input bias filename (Default=)
group_count         g  1   int  Number of Groups (Default=1)
dout_data           D  ''  str  dy data filename for backward weight computation (Default=)
solution            S  '-1'  str  Solver name or id: Find runs that solver alone (the library's immediate mode is the C/Python API's *Immediate calls); <0 or 0: Find (Default=-1)
""")

POOL_FLAGS = table("""
input           -  ''    str  Input tensor NxC[xD]xHxW[,layout] (overrides -n -c -H -W)
dinput          D  ''    str  dx tensor descriptor (must match the input)
output          O  ''    str  y tensor descriptor (must match the computed output)
doutput         -  ''    str  dy tensor descriptor (must match the computed output)
forw batchsize in_channels
in_d            !  32    int  Input Depth, with --spatial_dim 3 (Default=32)
in_h            H  '32'  str  Input Height, or the dy tensor NxCxHxW (Default=32)
in_w            W  '32'  str  Input Width, or the input tensor NxCxHxW (Default=32)
spatial_dim     _  2     int  pooling spatial dimension (Default=2)
out_channels    k  0     int  ignored (old MIOpenDriver flag)
win_d           Z  3     int  Window Depth (Default=3)
win_h           y  3     int  Window Height (Default=3)
win_w           x  3     int  Window Width (Default=3)
pool_stride_d   s  1     int  Pooling Stride Depth (Default=1)
pool_stride_h   v  1     int  Pooling Stride Height (Default=1)
pool_stride_w   u  1     int  Pooling Stride Width (Default=1)
pad_d           o  0     int  Zero Padding Depth (Default=0)
pad_h           p  0     int  Zero Padding Height (Default=0)
pad_w           q  0     int  Zero Padding Width (Default=0)
pad_val         r  0     int  Padding Value (Default=0; only 0 is supported)
index_position  M  0     int  Image index 1, mask index 0 (Default=0)
iter verify time wall
print           P  1     int  Print Pooling Dimensions (Default=1)
mode            m  'max'      str  Pooling Mode (max, avg, avg_in) (Default=max)
pad_mode        z  'default'  str  Padding Mode (same, valid, default) (Default=default)
index_type      I  'miopenIndexUint8'  str  Index Data Type (miopenIndexUint8|16|32|64) (Default=miopenIndexUint8)
""")

LRN_FLAGS = table("""
forw batchsize in_channels in_h in_w
lrnN   N  5       int    lrnN (Default=5)
alpha  A  0.001   float  lrn Alpha (Default=0.001)
beta   B  0.75    float  lrn Beta (Default=0.75)
lrnK   K  1.0     float  lrnK (Default=1.0)
iter verify time wall printconv
mode   m  'within'  str  LRN Mode (within, cross) (Default=within)
""")

DROPOUT_FLAGS = table("""
forw
input_dim    d  '4'  str    Input dimension, up to 5 lengths (Default=4, support up to 5D)
dropout      p  0.5  float  Dropout rate (Default=0.5)
seed_low     l  0    int    Least significant 32 bits of seed (Default=0)
seed_high    m  0    int    Most significant 32 bits of seed (Default=0)
use_mask     e  0    int    Use existing mask in reservespace: Use 1, Not use 0 (Default=0)
gen_file     f  0    int    Generate PRNG skipahead files: accepted, nothing to do here (Default=0)
iter=1 verify time wall
dump_output  o  0    int    Dumps the output buffers (Default=0; not supported)
""")

RNN_FLAGS = table("""
forw         F  0     int    0 forward, backward data and weights; 1 forward, 2 backward data, 4 backward weights (a bitmask) (Default=0)
num_layer    l  1     int    Number of hidden stacks (Default=1)
seq_len      k  1     int    Number of iterations to unroll over (Default=1)
bidirection  r  0     int    uni- or bi-direction, default uni- (Default=0)
batchsize    n  '4'   str    Mini-batch size per step, comma-separated, non-increasing; the last repeats up to seq_len (Default=4)
hid_h        H  32    int    Hidden State Length (Default=32)
in_h         W  32    int    Input Length (Default=32)
iter=1 verify time wall
dump_output  o  0     int    Dumps the output buffers (Default=0; not supported)
bias         b  0     int    Use Bias (Default=0)
mode         m  'tanh'  str  RNN Mode (relu, tanh, lstm, gru) (Default=tanh)
inputmode    p  0     int    linear == 0 or skip == 1, (Default=0)
use_padding  q  0     int    packed tensors == 0 or padded == 1, (Default=0)
rnnalgo      a  0     int    default, fundamental (Default=0)
fwdtype      c  0     int    RNN forward being training or inference, Default training (Default=0)
datatype     f  1     int    16-bit or 32-bit fp: accepted; the sub-command picks the type (rnn, rnnfp16) (Default=1)
use_dropout  U  0     int    Use dropout: 1; Not use dropout: 0 (Default=0)
dropout      P  0.0   float  Dropout rate (Default=0.0)
seed_low     L  0     int    Least significant 32 bits of seed (Default=0)
seed_high    M  0     int    Most significant 32 bits of seed (Default=0)
""")

ACTIV_FLAGS = table("""
forw batchsize in_channels in_h in_w layout
mode         m  3     int    Activation Mode (0 PASTHRU .. 9 ELU, miopenActivationMode_t) (Default=3, RELU)
alpha        A  1.0   float  Activation alpha (Default=1)
beta         B  1.0   float  Activation beta (Default=1)
gamma|power  G  1.0   float  Activation gamma (Default=1)
power        P  None  float  Activation power: old name of --gamma
iter verify time wall
""")

SOFTMAX_FLAGS = table("""
forw layout batchsize in_channels in_h in_w
alpha      A  1.0  float  Softmax alpha (Default=1.0)
beta       B  0.0  float  Softmax beta (Default=0.0)
algorithm  a  1    int    softmax algorithms: fast (0), accurate (1), logsoftmax (2) (Default=1)
mode       m  1    int    instance mode (0), channel mode (1) (Default=1)
iter verify time wall
""")

BNORM_FLAGS = table("""
forw    F  0    int    Run Forward Train (off: 0, train: 1, inference: 2) (Default=0: train unless -b 1)
back    b  0    int    Backwards Propagation (off: 0, on: 1) (Default=0)
batchsize=32 in_channels in_h in_w
in_d    D  0    int    Input Depth (Default=0: a 2-d input)
layout  L  ''   str    Layout NCHW, NHWC, NCDHW, NDHWC (Default=NCHW / NCDHW)
alpha   A  1.0  float  Alpha (Default=1.0)
beta    B  0.0  float  Beta (Default=0.)
iter=1 verify time printconv
mode    m  0    int    Normalization Mode (per-activation (0) or spatial (1)) (Default=0)
save    s  0    int    Save off mean and inverse variance, or on backprop, use these values (Default=0)
run     r  0    int    Keep running mean and variance, or on inference, use these values (Default=0)
wall
""")

TENSOROP_FLAGS = table("""
forw        F  1    int    Direction of operation (not used)
batchsize=64 in_channels in_h in_w
alpha1      A  1.0  float  alpha1 (Default=1)
alpha2      B  1.0  float  alpha2 (Default=1)
beta        G  0.0  float  beta (Default=0)
iter verify time wall
tensor_op   o  0    int    0 SetTensor, 1 ScaleTensor, 2 Add, 3 Mul, 4 Min, 5 Max (Default=0)
tensor_val  v  1.0  float  Scalar value for SetTensor and ScaleTensor (Default=1)
""")

REDUCE_FLAGS = table("""
forw            F  1                 int    Run only Forward (Default=1)
DimLengths      D  '100,60,16,240'   str    The dimensional lengths of the input tensor
DimsToReduce    R  '0,2'             str    The indices of the dimensions to be reduced
ReduceOp        O  0                 int    Reduction Operation Type (miopenReduceTensorOp_t: 0 ADD ... 7 NORM2) (Default=0)
CompType        C  1                 int    The computation type of the Reduce operation (miopenDataType_t) (Default=1(Float))
NanPropagation  N  0                 int    Nan number propagation mode (miopenNanPropagation_t) (Default=0)
IndicesUsed     I  0                 int    Whether indices of the reduced values are output for Min/Max/AMax (Default=0)
alpha           A  1.0               float  Scale factor for input tensor
beta            B  0.0               float  Scale factor for output tensor
wall
iter=1 verify time
dump_output     o  0                 int    Dumps the output buffers (Default=0)
in_data         d  ''                str    Input data filename (Default=)
""")

CTC_FLAGS = table("""
forw                 F  1     int  Run only Forward CTC == 1 (Default=1; the one call gives losses and gradients)
apply_softmax_layer  m  1     int  Apply == 1, Not apply == 0 (Default=1)
blank_label_id       b  0     int  Index of blank label (Default=0)
input_len            k  '20'  str  Number of time steps in each batch, comma-separated; the last repeats (Default=20)
label_len            l  '5'   str  Number of labels in each batch, comma-separated; the last repeats (Default=5)
num_class            c  9     int  Number of classes without blank (Default=9)
batchsize=4
iter=1 verify
verify_path          v  1     int  Verify Path for CTC losses and gradients: accepted; the float64 reference is used (Default=1)
time wall
dump_output          o  0     int  Dumps the output buffers (Default=0; not supported)
ctcalgo              a  0     int  MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC (Default=0)
""")

NET_FLAGS = table("""
batch|batchsize  n  8      int  Mini-batch size (Default=8)
directions       F  'all'  str  Directions: all, or a list of fwd,bwd,wrw, or MIOpenDriver's -F bitmask (Default=all)
layers           -  '*'    str  Comma-separated glob patterns of layer names to run (Default=*)
iter             i  3      int  Timed iterations per direction; the first is excluded (Default=3)
verify           V  1      int  Verify every direction against the float64 reference (Default=1)
commands         -  0      int  1: also print each layer's miopen-driver command line
dtype            -  'fp32' choice:fp32,fp16,bf16  Data type of x, w and y: fp32, fp16 or bf16 (Default=fp32)
layout           -  'nchw' choice:nchw,nhwc  Layout of x, w and y: nchw or nhwc (Default=nchw)
""")


def convert(flag, text, where):
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
            values[f.name] = convert(f, value, where)
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


# ---- checks the layer sub-commands share -------------------------------------------------------

LAYOUTS = {4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC"), 3: ("NCW", "NWC")}


def directions(forw, what):
    """MIOpenDriver's main(): forward when -F is 0 or odd, backward when -F is not 1."""
    if forw not in (0, 1, 2):
        raise UsageError(f"-F {forw}: 0 runs forward and backward {what}, 1 forward only, 2 backward only")
    return (forw in (0, 1)), (forw != 1)


def layout_flag(o, dims=4):
    lay = (o.get("layout") or ("NCHW" if dims == 4 else "NCDHW")).upper()
    if lay not in LAYOUTS[dims]:
        raise UsageError(f"-L {lay}: expected one of {', '.join(LAYOUTS[dims])}")
    return lay


def check_iters(o):
    if o["iter"] < 1:
        raise UsageError(f"-i {o['iter']}: the number of iterations must be > 0")
    if o["wall"] and not o["time"]:
        return f"Info: '--wall {o['wall']}' is ignored because '--time' is not set"
    return None


def parse_tensor_spec(text, flag):
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
