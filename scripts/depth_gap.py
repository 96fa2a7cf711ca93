#!/usr/bin/env python3
"""The depth gap between two engines searched through the engine path (`run --engine A
--engine B --movetime MS`), from a results file: per engine the depth reached, the nodes and
their rate, the effective branching factor of each iteration (the geometric mean over the
positions that completed both depths of `N_d / N_(d-1)`, from the nodes each `info depth`
line reports) and the time each depth was reached (median over the positions that reached
it); per engine the counters summed when it printed counter lines.

    python3 scripts/depth_gap.py RESULTS.jsonl[.gz] [--markdown]
"""
import gzip
import json
import math
import statistics
import sys
from collections import defaultdict


def records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "position" and not r.get("failure"):
                yield r


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(path, markdown):
    by = defaultdict(list)
    for r in records(path):
        by[r["variant"]].append(r)
    out = []
    out.append("| engine | positions | depth reached: mean (median) | seldepth mean | nodes per search (geomean) | nodes per second | solved |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    ebf = {}
    reach = {}
    for engine, rs in by.items():
        depths = [r["iterations"][-1]["depth"] for r in rs if r["iterations"]]
        sel = [r["iterations"][-1].get("seldepth") or 0 for r in rs if r["iterations"]]
        nodes = [max(r["nodes"], 1) for r in rs]
        nps = sum(r["nodes"] for r in rs) / max(sum(r["time_ms"] for r in rs) / 1000, 1e-9)
        solved = sum(1 for r in rs if r.get("solved"))
        judged = sum(1 for r in rs if r.get("solved") is not None)
        out.append(
            f"| {engine} | {len(rs)} | {statistics.mean(depths):.1f} ({statistics.median(depths):.0f}) | "
            f"{statistics.mean(sel):.1f} | {geomean(nodes):,.0f} | {nps:,.0f} | {solved}/{judged} |"
        )
        ratios = defaultdict(list)
        times = defaultdict(list)
        for r in rs:
            it = r["iterations"]
            total = lambda i: i["interior"] + i["horizon"] + i["quiescence"]
            for a, b in zip(it, it[1:]):
                if total(a) > 0 and total(b) > 0 and b["depth"] == a["depth"] + 1:
                    ratios[b["depth"]].append(total(b) / total(a))
            for i in it:
                times[i["depth"]].append(i["time_ms"])
        ebf[engine] = {d: geomean(v) for d, v in ratios.items() if len(v) >= 20}
        reach[engine] = {d: (statistics.median(v), len(v)) for d, v in times.items()}
    engines = list(by)
    out.append("")
    out.append("| depth | " + " | ".join(f"{e}: EBF N_d/N_(d−1)" for e in engines) + " | "
               + " | ".join(f"{e}: median ms to finish it (positions)" for e in engines) + " |")
    out.append("|---:|" + "---:|" * (2 * len(engines)))
    depths = sorted({d for e in engines for d in reach[e]})
    for d in depths:
        cells = [f"{ebf[e][d]:.2f}" if d in ebf[e] else "–" for e in engines]
        cells += [f"{reach[e][d][0]:.0f} ({reach[e][d][1]})" if d in reach[e] else "–" for e in engines]
        out.append(f"| {d} | " + " | ".join(cells) + " |")
    for engine, rs in by.items():
        sums = defaultdict(lambda: [0, 0, 0])
        for r in rs:
            for key, c in (r.get("counters") or {}).items():
                s = sums[key]
                s[0] += c["tested"]
                s[1] += c["fired"]
                s[2] += c["overruled"]
        if sums:
            out.append("")
            out.append(f"Counters of {engine} (summed over its searches):")
            out.append("")
            out.append("| counter | tested | fired | fired/tested |")
            out.append("|---|---:|---:|---:|")
            for key, (t, f, o) in sorted(sums.items()):
                out.append(f"| {key} | {t:,} | {f:,} | {f / t:.1%} |" if t else f"| {key} | 0 | {f:,} | – |")
    print("\n".join(out))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(args[0], "--markdown" in sys.argv)
