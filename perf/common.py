"""What the benchmarks share: the device and its peer, timing, the convolution layers and their
descriptors, the `miopen-driver` command that reproduces a row, and the JSON report that
perf/results.py turns into a section of perf/RESULTS.md (imported as `common`: a script run as
`python perf/<bench>.py` has perf/ first on its import path)."""
import datetime
import json
import os
import platform
import re
import shlex
import statistics
import sys
import time

# --threads N must reach OpenMP before a library that uses it loads.
if "--threads" in sys.argv:
    os.environ["OMP_NUM_THREADS"] = sys.argv[sys.argv.index("--threads") + 1]

import numpy as np  # noqa: E402
import torch  # noqa: E402

import miopen_cy as mi  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------------------------
# Convolution layers: (c, h, w, k, r, s, stride, pad, groups), the rows of /work/shared/PERF.md.

RESNET50 = [
    (3, 224, 224, 64, 7, 7, 2, 3, 1),
    (64, 56, 56, 64, 1, 1, 1, 0, 1),
    (64, 56, 56, 64, 3, 3, 1, 1, 1),
    (64, 56, 56, 256, 1, 1, 1, 0, 1),
    (256, 56, 56, 64, 1, 1, 1, 0, 1),
    (256, 56, 56, 128, 1, 1, 1, 0, 1),
    (128, 56, 56, 128, 3, 3, 2, 1, 1),
    (128, 28, 28, 512, 1, 1, 1, 0, 1),
    (256, 56, 56, 512, 1, 1, 2, 0, 1),
    (512, 28, 28, 128, 1, 1, 1, 0, 1),
    (128, 28, 28, 128, 3, 3, 1, 1, 1),
    (512, 28, 28, 256, 1, 1, 1, 0, 1),
    (256, 28, 28, 256, 3, 3, 2, 1, 1),
    (256, 14, 14, 1024, 1, 1, 1, 0, 1),
    (512, 28, 28, 1024, 1, 1, 2, 0, 1),
    (1024, 14, 14, 256, 1, 1, 1, 0, 1),
    (256, 14, 14, 256, 3, 3, 1, 1, 1),
    (1024, 14, 14, 512, 1, 1, 1, 0, 1),
    (512, 14, 14, 512, 3, 3, 2, 1, 1),
    (512, 7, 7, 2048, 1, 1, 1, 0, 1),
    (1024, 14, 14, 2048, 1, 1, 2, 0, 1),
    (2048, 7, 7, 512, 1, 1, 1, 0, 1),
    (512, 7, 7, 512, 3, 3, 1, 1, 1),
]
# depthwise, grouped, 5x5
EXTRA = [
    (144, 56, 56, 144, 3, 3, 1, 1, 144),
    (384, 14, 14, 384, 3, 3, 1, 1, 384),
    (128, 56, 56, 128, 3, 3, 1, 1, 32),
    (256, 28, 28, 256, 3, 3, 1, 1, 32),
    (64, 56, 56, 64, 5, 5, 1, 2, 1),
]
# large filters (where the FFT solver applies)
LARGE = [
    (32, 28, 28, 64, 5, 5, 1, 2, 1),
    (64, 28, 28, 64, 7, 7, 1, 3, 1),
    (128, 17, 17, 128, 7, 7, 1, 3, 1),
    (32, 64, 64, 32, 11, 11, 1, 5, 1),
]
# --quick: one layer of each kind (7x7 stem, 1x1, 3x3, strided 3x3, depthwise, grouped)
QUICK = [RESNET50[0], RESNET50[2], RESNET50[5], RESNET50[12], EXTRA[1], EXTRA[3]]
SETS = {"resnet50": RESNET50, "extra": EXTRA, "all": RESNET50 + EXTRA, "large": LARGE, "quick": QUICK}
DIRECTIONS = {"F": "fwd", "B": "bwd-data", "W": "bwd-wt"}
DRIVER_F = {"F": 1, "B": 2, "W": 4}     # miopen-driver conv -F


def layer_name(n, c, h, w, k, r, s, st, p, g):
    return f"n{n} c{c} {h}x{w} k{k} {r}x{s} s{st} p{p} g{g}"


def desc(shape, dtype=None):
    """A packed TensorDescriptor of `shape` (float32 unless `dtype`)."""
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, mi.miopenFloat if dtype is None else dtype, len(shape), list(shape), None)
    return d


def layer_descs(n, layer):
    """The convolution of one layer at batch n: (cd, x shape, w shape, y shape, xd, wd, yd)."""
    c, hh, ww, k, r, s, st, p, g = layer
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, p, p, st, st, 1, 1)
    mi.setConvolutionGroupCount(cd, g)
    xs, wsh = (n, c, hh, ww), (k, c // g, r, s)
    xd, wd = desc(xs), desc(wsh)
    ys = tuple(mi.getConvolutionForwardOutputDim(cd, xd, wd))
    return cd, xs, wsh, ys, xd, wd, desc(ys)


# ---------------------------------------------------------------------------------------------
# The reproducer: the miopen-driver command (MIOpenDriver's flags, `miopen-driver <cmd> --help`).

def driver(sub, flags, dev, repeat):
    """`miopen-driver <sub> <flags> -t 1 -V 0 -i <repeat>` on `dev` ("cpu" or "gpu")."""
    words = ["miopen-driver", sub]
    for k, v in flags.items():
        words += [k, str(v)]
    words += ["-t", "1", "-V", "0", "-i", str(repeat)]
    if dev == "gpu":
        words += ["--device", "gpu"]
    return " ".join(shlex.quote(w) for w in words)


def conv_driver(n, layer, d, dev, repeat, solver=None, exhaustive=False):
    c, h, w, k, r, s, st, p, g = layer
    flags = {"-n": n, "-c": c, "-H": h, "-W": w, "-k": k, "-y": r, "-x": s, "-p": p, "-q": p,
             "-u": st, "-v": st, "-l": 1, "-j": 1, "-g": g, "-F": DRIVER_F[d]}
    if solver:
        flags["-S"] = solver
    if exhaustive:
        flags["-s"] = 1
    return driver("conv", flags, dev, repeat)


# ---------------------------------------------------------------------------------------------
# Devices and timing.

def Stat(args):
    """How a row's time is taken: "median of 5", "median of 5 runs of 20 back-to-back calls"."""
    inner = getattr(args, "inner", 1) or 1
    return f"{args.stat} of {args.repeat}" + (f" runs of {inner} back-to-back calls" if inner > 1 else "")


def add_common_args(ap, repeat):
    ap.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--repeat", type=int, default=repeat, help=f"timed runs per side (default {repeat})")
    ap.add_argument("--stat", default="median", choices=["median", "min"],
                    help="min is robust when other work shares the cores")
    ap.add_argument("--threads", type=int, default=None,
                    help="CPU threads for both sides (OMP_NUM_THREADS and torch.set_num_threads)")
    ap.add_argument("--reproduce", action="store_true", help="print the miopen-driver command under each row")
    ap.add_argument("--out", default=None, metavar="DIR", help="write the rows as DIR/<section>.json")
    ap.add_argument("--results", default=None, metavar="RESULTS.md",
                    help="replace this benchmark's section of RESULTS.md (and its plot) with this run")
    ap.add_argument("--tag", default="", help="suffix of the section name (a second table of the same benchmark)")
    ap.add_argument("--note", default="", help="a remark printed under the section's title, e.g. 'smoke run, machine shared'")


class Device:
    """The device of a run (args.device), its PyTorch twin, the peer library and the timer."""

    def __init__(self, args):
        self.gpu = args.device == "gpu"
        self.name = "gpu" if self.gpu else "cpu"
        self.torch = "cuda" if self.gpu else "cpu"
        self.repeat, self.stat = args.repeat, args.stat
        if args.threads:
            torch.set_num_threads(args.threads)
        if self.gpu:
            torch.backends.cudnn.benchmark = True
            torch.backends.cudnn.allow_tf32 = False
            torch.backends.cuda.matmul.allow_tf32 = False
            self.description = torch.cuda.get_device_name()
            self.peer = f"PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, TF32 off"
        else:
            self.description = f"{cpu_name()}, {torch.get_num_threads()} threads, {openblas_core()}"
            isa = os.environ.get("ONEDNN_MAX_CPU_ISA")
            self.peer = f"PyTorch {torch.__version__} (oneDNN{', ISA ' + isa if isa else ''})"

    def sync(self):
        if self.gpu:
            torch.cuda.synchronize()

    def _reduce(self, times):
        return min(times) if self.stat == "min" else statistics.median(times)

    def ms(self, fn, inner=1):
        """One call's time: on the GPU, CUDA events around `inner` back-to-back calls (not the host
        clock, which adds launch latency), on the CPU the host clock; median (or min) of repeat."""
        return self._reduce(self.samples(fn, inner))

    def samples(self, fn, inner=1):
        fn()
        fn()
        self.sync()
        times = []
        for _ in range(self.repeat):
            if self.gpu:
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(inner):
                    fn()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end) / inner)
            else:
                t0 = time.perf_counter()
                for _ in range(inner):
                    fn()
                times.append((time.perf_counter() - t0) * 1e3 / inner)
        return times

    def pair_ms(self, ours, theirs, inner=1):
        """(our ms, their ms). On the CPU the runs alternate, so that load from other processes on
        a shared machine hits both sides alike; on the GPU each side is timed with events."""
        return self.round_ms(ours, theirs, inner=inner)

    def round_ms(self, *fns, inner=1):
        """One time per callable. On the CPU the runs go round robin, so that load from other
        processes hits every side alike, and each timed run follows an untimed run of the same
        callable, so that each is timed in its own steady state of the caches (not in the state
        the previous callable left: a peer that allocates its output each call evicts the
        last-level cache, and whoever runs next would pay for it); on the GPU each is timed with
        events."""
        if self.gpu:
            return tuple(self.ms(fn, inner) for fn in fns)
        for _ in range(2):
            for fn in fns:
                fn()
        acc = [[] for _ in fns]
        for _ in range(self.repeat):
            for fn, times in zip(fns, acc):
                fn()
                t0 = time.perf_counter()
                for _ in range(inner):
                    fn()
                times.append((time.perf_counter() - t0) * 1e3 / inner)
        return tuple(self._reduce(t) for t in acc)

    def copy_fn(self, nbytes):
        """A device copy that moves `nbytes` (nbytes / 2 read, nbytes / 2 written): the ceiling a
        memory-bound op that moves as many bytes is measured against."""
        n = max(int(nbytes) // 8, 1)
        if self.gpu:
            a = torch.empty(n, device="cuda")
            b = torch.empty_like(a)
            return lambda: b.copy_(a)
        a = np.ones(n, np.float32)
        b = np.empty_like(a)
        return lambda: np.copyto(b, a)

    def copy_ms(self, nbytes, inner=1):
        """copy_fn's time."""
        return self.ms(self.copy_fn(nbytes), inner)


def cpu_name():
    """The CPU's model name (/proc/cpuinfo), or the machine type."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine() + " CPU"


def openblas_core():
    """OpenBLAS's kernel set (it follows OPENBLAS_CORETYPE when that is set): our CPU GEMMs' speed."""
    try:
        import scipy_openblas32
        return "OpenBLAS " + scipy_openblas32.get_openblas_config().split()[-2]
    except Exception:   # noqa: BLE001 - only a label
        return "OpenBLAS core unknown"


# ---------------------------------------------------------------------------------------------
# The report: rows, printed as they come and saved as JSON for perf/results.py.

class Report:
    """A benchmark's table. `columns`: (key, header, format) of each printed and written column;
    every row is a dict with those keys (and more, for the plots) and "driver"."""

    def __init__(self, args, bench, title, columns, dev, plot=None):
        self.args = args
        self.section = f"{bench}-{dev.name}" + (f"-{args.tag}" if args.tag else "")
        self.columns = columns
        self.rows, self.summary = [], []
        self.meta = {
            "section": self.section, "bench": bench, "title": title, "plot": plot,
            "command": "python " + " ".join(shlex.quote(a) for a in
                                            [os.path.relpath(sys.argv[0])] + sys.argv[1:]),
            "device": dev.name, "device_name": dev.description, "peer": dev.peer,
            "miopen_cy": mi.__version__, "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "stat": Stat(args), "note": args.note,
        }
        print(f"# {title}: miopen_cy {mi.__version__} vs {dev.peer} on {dev.description}, {Stat(args)}")
        print("  ".join(_head(h, fmt) for _, h, fmt in columns))

    def add(self, **row):
        self.rows.append(row)
        print("  ".join(fmt.format(row[k]) if row.get(k) is not None else _head("-", fmt)
                        for k, _, fmt in self.columns),
              flush=True)
        if self.args.reproduce and row.get("driver"):
            print(f"    {row['driver']}")

    def say(self, line):
        """A summary line (geomean, ceilings), printed and kept under the table."""
        self.summary.append(line)
        print(f"# {line}", flush=True)

    def finish(self):
        data = dict(self.meta, columns=self.columns, rows=self.rows, summary=self.summary)
        if self.args.out:
            os.makedirs(self.args.out, exist_ok=True)
            path = os.path.join(self.args.out, f"{self.section}.json")
            with open(path, "w") as f:
                json.dump(data, f, indent=1)
            print(f"# wrote {path}")
        if self.args.results:
            import results
            results.update(self.args.results, [data])
        return 0


def _head(text, fmt):
    """`text` aligned as `fmt` ("{:<36}", "{:>9.3f}") aligns its values."""
    m = re.search(r"([<>]?)(\d+)", fmt)
    if not m:
        return text
    return f"{text:{m.group(1) or '>'}{m.group(2)}}"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return float(np.exp(np.mean(np.log(xs)))) if xs else float("nan")
