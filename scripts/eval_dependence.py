#!/usr/bin/env python3
"""The tables of reports/eval-dependence/README.md, read from the reports `scripts/nnue.sh
eval-dependence` wrote: each toggle's effect over `modern` under `full` and under `nnue` side by
side (from each evaluation's summary.csv), and the audited error rates of the prunings under
each (from the audit runs' analysis.json). Prints Markdown.

    python3 scripts/eval_dependence.py [reports/eval-dependence]
"""

import csv
import json
import sys
from pathlib import Path

EVALS = ("full", "nnue")
# The prunings the issue asks about, as the audit names their decisions, then the other
# decisions `modern` audits. A decision the binary did not audit (`futility.frontier` before
# `modern` lost that form) prints as dashes.
DECISIONS = (
    "reverse_futility",
    "futility.frontier",
    "futility.pre_frontier",
    "null_move",
    "razoring.node",
    "razoring.move",
    "lmr",
    "late_move_pruning",
    "history_pruning",
    "see.low_depth",
    "see.quiescence",
    "iir",
)


def summary(root, ev):
    with open(root / ev / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    base = rows[0]
    return base, {r["variant"][len(ev) :]: r for r in rows[1:]}


def effect(row, base):
    ratio = float(row["node_ratio"])
    low, high = float(row["node_ratio_low95"]), float(row["node_ratio_high95"])
    plus, minus = row["only_variant_solved"], row["only_baseline_solved"]
    p = float(row["mcnemar_p"])
    p = "p<0.001" if p < 0.001 else f"p={p:.3f}"
    sts = int(row["sts_points"]) - int(base["sts_points"])
    return f"{ratio:.3f} [{low:.3f}, {high:.3f}] | +{plus} −{minus} ({p}) | {sts:+d}"


def audit_lines(root, ev):
    lines = {}
    # `modern`'s own prunings from its audit; razoring's from `modern,+razoring`'s, whose
    # other lines describe another tree.
    for part, wanted in (("audit", lambda d: not d.startswith("razoring")),
                         ("audit-razoring", lambda d: d.startswith("razoring"))):
        path = root / ev / part / "analysis.json"
        if not path.exists():
            continue
        for audit in json.loads(path.read_text())["audits"]:
            for line in audit["lines"]:
                if line["depth"] is None and wanted(line["decision"]):
                    lines[line["decision"]] = line
    return lines


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "reports/eval-dependence")
    tables = {ev: summary(root, ev) for ev in EVALS}
    for ev in EVALS:
        base = tables[ev][0]
        print(f"- `modern` with `{ev}`: solves {base['solved']}/{base['positions']}, "
              f"{base['sts_points']} STS points, {int(base['total_nodes']):,} nodes")
    print()
    print("| over `modern` | " + " | ".join(
        f"{ev}: node ratio [95%] | {ev}: solved +only −only (McNemar) | {ev}: STS points Δ"
        for ev in EVALS) + " |")
    print("|---|" + "---|---|---:|" * len(EVALS))
    for toggle in tables[EVALS[0]][1]:
        cells = [effect(tables[ev][1][toggle], tables[ev][0]) for ev in EVALS]
        print(f"| `{toggle}` | " + " | ".join(cells) + " |")
    print()
    audits = {ev: audit_lines(root, ev) for ev in EVALS}
    print("| decision | " + " | ".join(
        f"{ev}: audited (measurable) | {ev}: wrong, rate [95%] | {ev}: mean error (cp)"
        for ev in EVALS) + " |")
    print("|---|" + "---:|---|---:|" * len(EVALS))
    for decision in DECISIONS:
        cells = []
        for ev in EVALS:
            line = audits[ev].get(decision)
            if line is None:
                cells.append("- | - | -")
                continue
            # Audits that could not disagree (`mirrored`: a pre-frontier skip whose child
            # would stand pat on the skip's own test) are in `audited` but in no rate.
            measurable = line["audited"] - line.get("mirrored", 0)
            cells.append(
                f"{measurable:,} | {line['wrong']:,}, {100 * line['error_rate']:.2f}% "
                f"[{100 * line['low']:.2f}, {100 * line['high']:.2f}] | "
                f"{line['mean_error_cp']:.0f}"
            )
        print(f"| `{decision}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
