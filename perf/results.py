"""Writes perf/RESULTS.md from the benchmarks' JSON outputs: each JSON file replaces its own
section (conv-gpu, ops-cpu, ...; the others stay) and redraws its plot under perf/plots/.

    python perf/results.py OUT/*.json [--results perf/RESULTS.md] [--drop SECTION ...]
    python perf/results.py --compare BEFORE.json AFTER.json      # a change's effect, row by row

A benchmark run with `--results perf/RESULTS.md` does the same for its own table directly.
"""
import argparse
import glob
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["conv-gpu", "conv-fp16-nhwc-gpu", "conv-bf16-nhwc-gpu", "conv-fp16-nchw-gpu", "conv-bf16-nchw-gpu",
         "conv-fp32-nhwc-gpu", "ops-gpu", "fusion-conv-gpu", "fusion-bn-gpu", "gemm-gpu", "conv-overhead-gpu", "conv-cpu", "conv-bf16-nhwc-cpu", "conv-bf16-nchw-cpu",
         "conv-fp16-nhwc-cpu", "conv-fp32-nhwc-cpu", "ops-cpu", "fusion-conv-cpu", "fusion-bn-cpu", "gemm-cpu", "conv-overhead-cpu"]
BEGIN = re.compile(r"^<!-- section: (\S+) -->$")

HEADER = """\
# Performance results

Current figures only, each table written by the benchmark that measured it (perf/results.py from
its JSON output; do not edit the sections by hand). The history of the work passes and their
figures is in CHANGELOG.md at the repository root. Ratios are the peer's time over ours, in one
process (> 1: miopen_cy is faster); the peer is PyTorch (cuDNN on the GPU with TF32 off, oneDNN on
the CPU). Each row's `miopen-driver` command reproduces it (`--reproduce` prints it under the row).

To refresh the tables and the plots: on the GPU machine, from the repository root with the GPU
build and the `perf` extra installed,

    python perf/bench_conv.py --device gpu --out perf-out      # about 25 s each on an H200
    python perf/bench_ops.py --device gpu --out perf-out
    python perf/bench_gemm.py --device gpu --out perf-out
    python perf/bench_conv.py --device gpu --overhead --out perf-out

and on a quiet CPU machine the same four commands without `--device gpu` (the full CPU
convolution set takes under 10 minutes on 2 cores); then bring `perf-out/` here and run

    python perf/results.py perf-out/*.json

which replaces those sections below and redraws perf/plots/*.png.
"""


def load(paths):
    """The JSON outputs in `paths` (files, or folders holding *.json)."""
    out = []
    for p in paths:
        for f in sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p]:
            with open(f) as fh:
                out.append(json.load(fh))
    return out


def read_sections(path):
    """{section: its text} of an existing RESULTS.md, in file order (the header is not kept)."""
    sections, name = {}, None
    if not os.path.exists(path):
        return sections
    with open(path) as f:
        for line in f:
            m = BEGIN.match(line.rstrip("\n"))
            if m:
                name = m.group(1)
                sections[name] = ""
            if name:
                sections[name] += line
                if line.startswith(f"<!-- end section: {name} -->"):
                    name = None
    return sections


def _cell(fmt, v):
    if v is None:
        return "-"
    return fmt.format(v).strip().replace("<", "\\<").replace("|", "\\|")


def render(data, plot_path, results_dir):
    s = data["section"]
    dev = "GPU" if data["device"] == "gpu" else "CPU"
    lines = [f"<!-- section: {s} -->", f"## {data['title']}, {dev} ({s})", ""]
    if data.get("note"):
        lines += [f"**{data['note']}.**", ""]
    lines += [f"- Command: `{data['command']}`",
              f"- Device: {data['device_name']}; peer: {data['peer']}; miopen_cy {data['miopen_cy']}; "
              f"{data['date']}; {data['stat']}{' per side' if 'runs' in data['stat'] else ' runs per side'}"]
    lines += [f"- {line}" for line in data["summary"]]
    lines.append("")
    if plot_path:
        rel = os.path.relpath(plot_path, results_dir)
        lines += [f"![{s}]({rel})", ""]
    cols = data["columns"]
    lines.append("| " + " | ".join(h for _, h, _ in cols) + " | reproduce |")
    lines.append("|" + "---|" * (len(cols) + 1))
    for r in data["rows"]:
        cells = [_cell(fmt, r.get(k)) for k, _, fmt in cols]
        repro = f"`{r['driver']}`" if r.get("driver") else "-"
        lines.append("| " + " | ".join(cells) + f" | {repro} |")
    lines += [f"<!-- end section: {s} -->", ""]
    return "\n".join(lines) + "\n"


def update(results_md, datas, drop=()):
    """Replaces (or adds) the sections of `datas` in results_md, redraws their plots, drops `drop`."""
    import plot_results
    results_dir = os.path.dirname(os.path.abspath(results_md))
    sections = read_sections(results_md)
    for s in drop:
        sections.pop(s, None)
    for data in datas:
        png = plot_results.plot(data, os.path.join(results_dir, "plots"))
        sections[data["section"]] = render(data, png, results_dir)
        print(f"{results_md}: section {data['section']} ({len(data['rows'])} rows)" + (f", {png}" if png else ""))
    names = [s for s in ORDER if s in sections] + [s for s in sections if s not in ORDER]
    with open(results_md, "w") as f:
        f.write(HEADER + "\n" + "\n".join(sections[s].rstrip("\n") + "\n" for s in names))


def compare(before, after):
    """Before / after a change, row by row (rows matched on their first two columns): our times,
    both ratios against the peer, then the geomean of each per direction (or over all rows)."""
    key = lambda d, r: tuple(str(r.get(k)) for k, _, _ in d["columns"][:2]) + (r.get("solver") if r.get("forced") else "",)
    old = {key(before, r): r for r in before["rows"]}
    groups = {}
    print(f"{'row':<58} {'before ms':>10} {'after ms':>10} {'ratio before':>12} {'ratio after':>11}")
    for r in after["rows"]:
        b = old.get(key(after, r))
        if b is None:
            continue
        print(f"{' '.join(key(after, r)).strip():<58} {b['ours_ms']:10.4f} {r['ours_ms']:10.4f} "
              f"{b['ratio']:12.2f} {r['ratio']:11.2f}")
        groups.setdefault(r.get("dir", "all"), []).append((b["ratio"], r["ratio"], b["ours_ms"] / r["ours_ms"]))
    for g, v in groups.items():
        gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
        print(f"# {g}: geomean ratio {gm([x[0] for x in v]):.3f} -> {gm([x[1] for x in v]):.3f}, "
              f"our own time {gm([x[2] for x in v]):.3f}x faster, over {len(v)} rows")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="*", help="JSON outputs of the benchmarks (files or folders)")
    ap.add_argument("--results", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--drop", nargs="*", default=[], help="sections to remove")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE.json", "AFTER.json"),
                    help="print two runs of one benchmark side by side instead (RESULTS.md untouched)")
    args = ap.parse_args(argv)
    if args.compare:
        before, after = load(args.compare)
        compare(before, after)
        return 0
    update(args.results, load(args.json), args.drop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
