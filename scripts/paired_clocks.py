#!/usr/bin/env python3
"""One pairing played twice from the same book, at two clocks (or two builds): the score of one
side on the openings both runs played, paired opening by opening. A pair's two games (each side
with each colour) give one score per opening; the difference between the runs is averaged over
the openings both hold in full, with a 95% interval from the normal approximation (stated only
for 30 openings or more) and the t statistic. Pairing removes the openings' own share of the
variance, which two independent intervals cannot: the test issue 58 quotes for its replay
("12.8 ± 7.3 points higher at the longer clock, paired, t = 3.4").

    python3 scripts/paired_clocks.py FIRST.jsonl[.gz] SECOND.jsonl[.gz] [--side NAME]

NAME (default: the pairs' `dev`, the external engine in a match against one) is the side whose
score is read.
"""
import argparse
import gzip
import json
import math
import sys


def pairs(path, side):
    """Opening line -> (the side's score over the pair's games, games), for each whole pair."""
    opener = gzip.open if path.endswith(".gz") else open
    scores, names = {}, set()
    with opener(path, "rt") as f:
        for number, line in enumerate(f, 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{number}: not a JSON line ({e})")
            if record.get("type") != "pair":
                continue
            name = side or record["dev"]
            names.add(name)
            points = 0.0
            for game in record["games"]:
                if name not in (game["white"], game["black"]):
                    sys.exit(f"{path}:{number}: no player named {name!r} in this pair")
                result = game["result"]
                if result == "1/2-1/2":
                    points += 0.5
                elif (result == "1-0") == (game["white"] == name):
                    points += 1.0
            if len(record["games"]) == 2:
                scores[record["opening"]["line"]] = points / 2
    return scores, names


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--side")
    args = parser.parse_args()
    first, names_a = pairs(args.first, args.side)
    second, names_b = pairs(args.second, args.side)
    if names_a != names_b:
        sys.exit(f"the runs read different sides: {sorted(names_a)} and {sorted(names_b)}")
    common = sorted(set(first) & set(second))
    n = len(common)
    if n < 2:
        sys.exit(f"{n} opening(s) in both runs: nothing to pair")
    diffs = [second[k] - first[k] for k in common]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    side = next(iter(names_a))
    print(f"side: {side}")
    print(f"first: {args.first}: {len(first)} whole pairs")
    print(f"second: {args.second}: {len(second)} whole pairs")
    print(f"openings in both: {n}")
    print(f"{side}'s score on them, first run: {100 * sum(first[k] for k in common) / n:.2f}%")
    print(f"{side}'s score on them, second run: {100 * sum(second[k] for k in common) / n:.2f}%")
    print(f"paired difference (second - first): {100 * mean:+.2f} points, standard error {100 * se:.2f}")
    if se > 0:
        print(f"t: {mean / se:+.2f} ({n - 1} degrees of freedom)")
    if n >= 30:
        low, high = mean - 1.959964 * se, mean + 1.959964 * se
        print(f"95% interval (normal approximation): [{100 * low:+.2f}, {100 * high:+.2f}] points")
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    print(f"openings where {side} scored more in the second run: {better}; less: {worse}; the same: {n - better - worse}")


if __name__ == "__main__":
    main()
