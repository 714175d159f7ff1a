"""Joins two sets of saved bench_conv.py outputs (before and after a change) into one per-layer
table: ours before and after (each the min over its set's runs), the peer (the min over both
sets), both ratios and the solver Find chose after; then the geomean and min ratio per direction.

    python perf/compare_bench_conv.py --before 'before*.txt' --after 'after*.txt'
"""
import argparse
import glob
import math


def load(pattern):
    ours, theirs, solver = {}, {}, {}
    for path in sorted(glob.glob(pattern)):
        for line in open(path):
            if line[:2] not in ("F ", "B ", "W "):
                continue
            parts = line.split()
            key = (parts[0], " ".join(parts[1:9]))
            o, t = float(parts[10]), float(parts[11])
            if key not in ours or o < ours[key]:
                ours[key], solver[key] = o, parts[-1]
            theirs[key] = min(theirs.get(key, 1e9), t)
    return ours, theirs, solver


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True, help="glob of the 'before' outputs")
    ap.add_argument("--after", required=True, help="glob of the 'after' outputs")
    args = ap.parse_args()
    bo, bt, _ = load(args.before)
    ao, at, asol = load(args.after)
    keys = [k for k in ao if k in bo]
    print(f"{'dir':<3} {'layer':<36} {'before':>7} {'after':>7} {'peer':>7} {'ratio before':>12} {'ratio after':>11}"
          "  after's solver")
    for d in "FBW":
        rows = [k for k in keys if k[0] == d]
        if not rows:
            continue
        rb, ra = [], []
        for k in rows:
            peer = min(bt[k], at[k])
            rb.append(peer / bo[k])
            ra.append(peer / ao[k])
            print(f"{d:<3} {k[1]:<36} {bo[k]:7.3f} {ao[k]:7.3f} {peer:7.3f} {rb[-1]:12.2f} {ra[-1]:11.2f}  {asol[k]}")
        g = lambda r: math.exp(sum(map(math.log, r)) / len(r))
        print(f"# {d}: geomean before {g(rb):.3f} (min {min(rb):.2f}), after {g(ra):.3f} (min {min(ra):.2f}),"
              f" layers < 0.7x after: {sum(r < 0.7 for r in ra)}, over {len(rows)} layers")


if __name__ == "__main__":
    main()
