"""Per row and side, the min over several saved bench_conv.py outputs, then the geomean ratio per
direction and the three worst layers (TABLE=1 also prints the rows). On a shared machine one run's
min of N can still be hit by other work; the min over several runs is the same statistic with
more samples, applied to both sides alike.

    python perf/combine_bench_conv.py run1.txt run2.txt ...
"""
import sys, math, collections
ours, theirs, algo = {}, {}, {}
for path in sys.argv[1:]:
    for line in open(path):
        if line[:2] in ("F ", "B ", "W "):
            parts = line.split()
            d = parts[0]; name = " ".join(parts[1:9]); a = parts[9]
            o, t = float(parts[10]), float(parts[11])
            key = (d, name)
            if key not in ours or o < ours[key]:
                ours[key] = o; algo[key] = a
            theirs[key] = min(theirs.get(key, 1e9), t)
rows = collections.defaultdict(list)
for key in ours:
    rows[key[0]].append((theirs[key] / ours[key], key[1], ours[key], theirs[key], algo[key]))
for d in "FBW":
    r = rows[d]
    if not r: continue
    g = math.exp(sum(math.log(x[0]) for x in r) / len(r))
    worst = sorted(r)[:3]
    print(f"{d}: geomean {g:.3f} over {len(r)} layers, min {worst[0][0]:.2f} ({worst[0][1]}); next "
          + "; ".join(f"{w[0]:.2f} ({w[1]})" for w in worst[1:]))
if __name__ == "__main__" and "TABLE" in __import__("os").environ:
    print(f"{'dir':<3} {'layer':<36} {'algo':<12} {'ours ms':>9} {'peer ms':>9} {'ratio':>6}")
    for key in ours:
        print(f"{key[0]:<3} {key[1]:<36} {algo[key]:<12} {ours[key]:9.3f} {theirs[key]:9.3f} {theirs[key] / ours[key]:6.2f}")
