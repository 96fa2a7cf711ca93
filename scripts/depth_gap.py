#!/usr/bin/env python3
"""The depth gap between two engines searched through the engine path (`run --engine A
--engine B --movetime MS`), from a results file: per engine the depth reached, the nodes and
their rate, the effective branching factor of each iteration (the geometric mean over the
positions that completed both depths of `N_d / N_(d-1)`, from the nodes each `info depth`
line reports) and the time each depth was reached (median over the positions that reached
it); per engine the counters summed when it printed counter lines.

    python3 scripts/depth_gap.py RESULTS.jsonl[.gz]
    python3 scripts/depth_gap.py RESULTS.jsonl[.gz] --counters VARIANT
    python3 scripts/depth_gap.py RESULTS.jsonl[.gz] --ablation BASE

With `--counters VARIANT` (an in-process variant of a `run`): the share of interior, horizon
and quiescence nodes, the first-move cut-off rate and every counter summed.

    python3 scripts/depth_gap.py RESULTS.jsonl[.gz] --width [--variant LABEL]

With `--width` (a `run --width`): the variant's tree by remaining depth, summed over its
searches: nodes, first-move cut-off rate, moves searched per node and the share at full
depth, LMR's reductions by depth and by move number (share reduced, mean plies, share searched
again), the pruning decisions' rates by depth (tested, and fired per tested), the null move's
success and the table's hits and cut-offs. Depths past 12 and moves past 24 are pooled.
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


MATE_BOUND = 32000 - 128


def mated(r):
    """The search ended on a mate score (Ethereal 12 then reports depth 127 and stops)."""
    return bool(r["iterations"]) and abs(r["iterations"][-1]["score"]) >= MATE_BOUND


def main(path):
    by = defaultdict(list)
    for r in records(path):
        by[r["variant"]].append(r)
    out = []
    # Depth without the positions where either engine ended on a mate score: a mate found
    # makes Ethereal 12 print depth 127, which no mean of depths survives.
    keys = [set((r["suite"], r["line"]) for r in rs if not mated(r)) for rs in by.values()]
    quiet = set.intersection(*keys) if keys else set()
    out.append(f"Without mate scores ({len(quiet)} positions where no engine ended on a mate score):")
    out.append("")
    out.append("| engine | depth reached: mean (median) | seldepth mean |")
    out.append("|---|---:|---:|")
    means = {}
    for engine, rs in by.items():
        kept = [r for r in rs if (r["suite"], r["line"]) in quiet and r["iterations"]]
        depths = [r["iterations"][-1]["depth"] for r in kept]
        sel = [r["iterations"][-1].get("seldepth") or 0 for r in kept]
        if depths:
            means[engine] = statistics.mean(depths)
            out.append(f"| {engine} | {means[engine]:.2f} ({statistics.median(depths):.0f}) | {statistics.mean(sel):.1f} |")
    out.append("")
    first = next(iter(means), None)
    for engine in list(means)[1:]:
        out.append(f"{engine} minus {first}: {means[engine] - means[first]:+.1f} plies")
        out.append("")
    out.append("All positions:")
    out.append("")
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




def counters(path, variant):
    """searchlab's own view of one in-process variant's searches: where the nodes are, how
    often the first move cuts, and its counters' rates."""
    rs = [r for r in records(path) if r["variant"] == variant]
    kinds = defaultdict(int)
    cut = first = 0
    sums = defaultdict(lambda: [0, 0, 0])
    for r in rs:
        for i in r["iterations"]:
            for k in ("interior", "horizon", "quiescence"):
                kinds[k] += i[k]
            cut += i["cutoffs"]
            first += i["first_move_cutoffs"]
        for key, c in (r.get("counters") or {}).items():
            s = sums[key]
            s[0] += c["tested"]
            s[1] += c["fired"]
            s[2] += c["overruled"]
    total = sum(kinds.values())
    print(f"{variant}: {len(rs)} searches, completed iterations' nodes {total:,}: " + ", ".join(
        f"{k} {v / total:.1%}" for k, v in kinds.items()) + f"; interior cut-offs by the first move {first / max(cut, 1):.1%}")
    print()
    print("| counter | tested | fired | fired/tested | overruled |")
    print("|---|---:|---:|---:|---:|")
    for key, (t, f, o) in sorted(sums.items()):
        rate = f"{f / t:.1%}" if t else "–"
        print(f"| {key} | {t:,} | {f:,} | {rate} | {o:,} |")



def ablation(path, base):
    """Each variant of an off-one ablation at fixed time against its base, position by
    position: the depth it reached (mean difference), its nodes per second, and the positions
    only it or only the base solved (exact McNemar p, two-sided)."""
    by = defaultdict(dict)
    for r in records(path):
        by[r["variant"]][(r["suite"], r["line"])] = r
    depth = lambda r: r["iterations"][-1]["depth"] if r["iterations"] else 0
    ref = by[base]
    print("| variant | mean depth reached | Δ depth vs base (paired) | nodes per second | solved | +only / −only vs base (McNemar p) |")
    print("|---|---:|---:|---:|---:|---|")
    for variant, rs in sorted(by.items(), key=lambda kv: kv[0] != base):
        keys = [k for k in rs if k in ref]
        d = [depth(rs[k]) - depth(ref[k]) for k in keys]
        nps = sum(rs[k]["nodes"] for k in keys) / max(sum(rs[k]["time_ms"] for k in keys) / 1000, 1e-9)
        plus = sum(1 for k in keys if rs[k].get("solved") and not ref[k].get("solved"))
        minus = sum(1 for k in keys if ref[k].get("solved") and not rs[k].get("solved"))
        solved = sum(1 for k in keys if rs[k].get("solved"))
        n = plus + minus
        p = min(1.0, 2 * sum(math.comb(n, i) for i in range(0, min(plus, minus) + 1)) / 2 ** n) if n else 1.0
        mean_depth = statistics.mean(depth(rs[k]) for k in keys)
        print(f"| {variant} | {mean_depth:.2f} | {statistics.mean(d):+.2f} | {nps:,.0f} | {solved} | +{plus} −{minus} (p={p:.3g}) |")


DEEPEST = 12
LATEST = 24
MOVE_GROUPS = [(1, 1), (2, 2), (3, 3), (4, 5), (6, 8), (9, 12), (13, 24), (25, 10**6)]


def pooled(values, cap):
    """Counts by index with everything from `cap` on added into `cap`."""
    out = [0] * (cap + 1)
    for i, v in enumerate(values):
        out[min(i, cap)] += v
    return out


def width(path, variant):
    """The tree of one in-process variant by remaining depth, from `run --width`."""
    rs = [r for r in records(path) if r.get("width") and (variant is None or r["variant"] == variant)]
    if not rs:
        sys.exit(f"{path}: no record with a width tally" + (f" for '{variant}'" if variant else "") + " (run --width)")
    name = variant or rs[0]["variant"]
    rs = [r for r in rs if r["variant"] == name]
    total = defaultdict(lambda: [0] * (DEEPEST + 1))
    grid = defaultdict(lambda: [[0] * (LATEST + 1) for _ in range(DEEPEST + 1)])
    decisions = defaultdict(lambda: ([0] * (DEEPEST + 1), [0] * (DEEPEST + 1)))
    for r in rs:
        w = r["width"]
        for key in ("nodes", "tt_probes", "tt_hits", "tt_cutoffs", "searched", "full_depth", "cutoffs", "first_move_cutoffs",
                    "cut_nodes", "fail_highs", "cut_node_fail_highs"):
            for d, v in enumerate(pooled(w.get(key, []), DEEPEST)):
                total[key][d] += v
        for key in ("by_move", "reduced", "reduction_plies", "researched"):
            for d, row in enumerate(w.get(key, [])):
                for m, v in enumerate(pooled(row, LATEST)):
                    grid[key][min(d, DEEPEST)][m] += v
        for key, c in w.get("decisions", {}).items():
            tested, fired = decisions[key]
            for d, v in enumerate(pooled(c.get("tested", []), DEEPEST)):
                tested[d] += v
            for d, v in enumerate(pooled(c.get("fired", []), DEEPEST)):
                fired[d] += v
    pct = lambda a, b: f"{a / b:.1%}" if b else "–"
    depth_label = lambda d: f"{d}+" if d == DEEPEST else str(d)
    print(f"{name}: {len(rs)} searches with a width tally")
    print()
    print("| depth | nodes | moves searched per node | at full depth | first-move cut-offs | table hits | table cut-offs |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for d in range(1, DEEPEST + 1):
        n = total["nodes"][d]
        if not n:
            continue
        print(f"| {depth_label(d)} | {n:,} | {total['searched'][d] / n:.2f} | {pct(total['full_depth'][d], total['searched'][d])} | "
              f"{pct(total['first_move_cutoffs'][d], total['cutoffs'][d])} | {pct(total['tt_hits'][d], total['tt_probes'][d])} | "
              f"{pct(total['tt_cutoffs'][d], total['tt_probes'][d])} |")
    if sum(total["fail_highs"]):
        # Files written before the node types were counted have none of these keys.
        print()
        print("Expected cut nodes (a reduced late move's child, or the full-depth child of an expected all node) "
              "and the other nodes: share of the nodes, and how often each failed high (by a node pruning or the moves)")
        print()
        print("| depth | expected cut nodes | their fail highs | the others' fail highs |")
        print("|---:|---:|---:|---:|")
        for d in range(1, DEEPEST + 1):
            n, cut = total["nodes"][d], total["cut_nodes"][d]
            if not n:
                continue
            cut_highs = total["cut_node_fail_highs"][d]
            print(f"| {depth_label(d)} | {pct(cut, n)} | {pct(cut_highs, cut)} | "
                  f"{pct(total['fail_highs'][d] - cut_highs, n - cut)} |")
    print()
    print("LMR by move number (all depths): moves searched, share reduced, mean plies of a reduction, share of the reduced searched again")
    print()
    print("| move | searched | reduced | mean reduction | searched again |")
    print("|---|---:|---:|---:|---:|")
    for lo, hi in MOVE_GROUPS:
        cols = range(lo, min(hi, LATEST) + 1)
        sumof = lambda key: sum(grid[key][d][m] for d in range(DEEPEST + 1) for m in cols)
        s_, red, plies, again = (sumof(k) for k in ("by_move", "reduced", "reduction_plies", "researched"))
        if s_:
            label = f"{lo}" if lo == hi else (f"{lo}–{hi}" if hi < 10**6 else f"{lo}+")
            print(f"| {label} | {s_:,} | {pct(red, s_)} | {f'{plies / red:.2f}' if red else '–'} | {pct(again, red)} |")
    print()
    print("LMR by depth: share of searched moves reduced, mean plies, share searched again")
    print()
    print("| depth | reduced | mean reduction | searched again |")
    print("|---:|---:|---:|---:|")
    for d in range(1, DEEPEST + 1):
        s_, red, plies, again = (sum(grid[k][d]) for k in ("by_move", "reduced", "reduction_plies", "researched"))
        if s_:
            print(f"| {depth_label(d)} | {pct(red, s_)} | {f'{plies / red:.2f}' if red else '–'} | {pct(again, red)} |")
    print()
    keys = [k for k in sorted(decisions) if sum(decisions[k][0])]
    print("Decisions by depth: fired per tested (tested per node in brackets)")
    print()
    print("| decision | " + " | ".join(depth_label(d) for d in range(1, DEEPEST + 1)) + " |")
    print("|---|" + "---:|" * DEEPEST)
    for key in keys:
        tested, fired = decisions[key]
        cells = []
        for d in range(1, DEEPEST + 1):
            n = total["nodes"][d]
            cells.append(f"{pct(fired[d], tested[d])} ({tested[d] / n:.2f})" if tested[d] and n else "–")
        print(f"| {key} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if "--width" in sys.argv:
        variant = sys.argv[sys.argv.index("--variant") + 1] if "--variant" in sys.argv else None
        width(sys.argv[1], variant)
    elif "--ablation" in sys.argv:
        at = sys.argv.index("--ablation")
        ablation(sys.argv[1], sys.argv[at + 1])
    elif "--counters" in sys.argv:
        at = sys.argv.index("--counters")
        counters(sys.argv[1], sys.argv[at + 1])
    else:
        main(sys.argv[1])
