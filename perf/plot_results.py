"""The plots of perf/RESULTS.md, from the benchmarks' JSON outputs (matplotlib, the `perf` extra):

- conv-<device>.png: per layer and direction, the speed ratio against cuDNN (GPU) / oneDNN (CPU);
- ops-<device>.png: per op, our bandwidth and PyTorch's as a fraction of a device copy of the same bytes.

    python perf/plot_results.py OUT/*.json [--plots perf/plots]

perf/results.py calls it for each section it writes; this command is for the plots alone.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

GOOD, BAD, PEER = "#2a9d4b", "#d1495b", "#9aa5b1"


def _peer(data):
    return "cuDNN" if data["device"] == "gpu" else "oneDNN"


def _subtitle(data):
    note = f" - {data['note']}" if data.get("note") else ""
    return f"{data['device_name']}, {data['date']}{note}"


def plot_conv(data, path):
    """Three panels (fwd, bwd-data, bwd-wt), one bar per layer: peer time / our time, log scale."""
    dirs = [d for d in ("fwd", "bwd-data", "bwd-wt") if any(r["dir"] == d for r in data["rows"])]
    labels = []
    for r in data["rows"]:
        lab = r["layer"] + (f" [{r['solver']}]" if r.get("forced") else "")
        if lab not in labels:
            labels.append(lab)
    fig, axes = plt.subplots(1, len(dirs), figsize=(4.2 * len(dirs) + 2.6, 0.26 * len(labels) + 1.6),
                             sharey=True, squeeze=False)
    y = np.arange(len(labels))
    for ax, d in zip(axes[0], dirs):
        ratio = {r["layer"] + (f" [{r['solver']}]" if r.get("forced") else ""): r["ratio"]
                 for r in data["rows"] if r["dir"] == d}
        vals = np.array([ratio.get(lab, np.nan) for lab in labels])
        ax.barh(y, vals, color=[GOOD if v >= 1 else BAD for v in vals], height=0.7)
        ax.axvline(1.0, color="black", lw=1)
        ax.set_xscale("log")
        lo, hi = np.nanmin(vals), np.nanmax(vals)
        ax.set_xlim(min(0.5, lo / 1.3), max(2.0, hi * 1.3))
        ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator([0.125, 0.25, 0.5, 1, 2, 4, 8, 16]))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        finite = vals[np.isfinite(vals)]
        gm = float(np.exp(np.mean(np.log(finite)))) if finite.size else float("nan")
        ax.set_title(f"{d}: geomean {gm:.2f}x", fontsize=10)
        ax.grid(axis="x", which="both", alpha=0.3)
        for yi, v in zip(y, vals):
            if np.isfinite(v):
                ax.text(v, yi, f" {v:.2f}", va="center", fontsize=7)
    axes[0][0].set_yticks(y)
    axes[0][0].set_yticklabels(labels, fontsize=8)
    axes[0][0].invert_yaxis()
    fig.suptitle(f"miopen_cy speed against {_peer(data)} ({_peer(data)} time / ours: > 1 is faster, green)\n"
                 f"{_subtitle(data)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_ops(data, path):
    """One pair of bars per op: our bandwidth and PyTorch's, as a fraction of the copy's (1 = copy)."""
    rows = data["rows"]
    labels = [f"{r['op']} {r['shape']}" for r in rows]
    ours = np.array([r["of_copy"] for r in rows])
    peer = np.array([r["copy_ms"] / r["peer_ms"] for r in rows])
    y = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(rows) + 1.6))
    ax.barh(y - 0.2, ours, height=0.4, color=[GOOD if o >= p else BAD for o, p in zip(ours, peer)],
            label="miopen_cy")
    ax.barh(y + 0.2, peer, height=0.4, color=PEER, label="PyTorch")
    ax.axvline(1.0, color="black", lw=1)
    ax.text(1.0, -0.9, " device copy", fontsize=8, va="bottom")
    ax.axvline(0.9, color="black", lw=0.8, ls="--")
    ax.text(0.9, -0.9, "0.9 ", fontsize=8, va="bottom", ha="right")
    for yi, v in zip(y, ours):
        ax.text(v, yi - 0.2, f" {v:.2f}", va="center", fontsize=7)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(1.15, np.nanmax(np.concatenate([ours, peer])) * 1.12))
    ax.set_xlabel("achieved bandwidth / bandwidth of a copy of the same bytes (bytes read + written once)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(f"Memory-bound ops: bandwidth against a device copy (green: miopen_cy ahead of PyTorch)\n"
                 f"{_subtitle(data)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


PLOTS = {"conv": plot_conv, "ops": plot_ops}


def plot(data, folder):
    """Draws data's plot into folder/<section>.png; returns the path (None: no plot for it)."""
    if data.get("plot") not in PLOTS or not data["rows"]:
        return None
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{data['section']}.png")
    PLOTS[data["plot"]](data, path)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--plots", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots"))
    args = ap.parse_args(argv)
    for p in args.json:
        with open(p) as f:
            out = plot(json.load(f), args.plots)
        if out:
            print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
