#!/usr/bin/env python3
"""The early-game score gap of a match against another engine (reports/elo-ethereal/README.md):
over our first 20 moves of each game, our score for our side plus the other engine's score
for its side one ply later (the reply's), positions beyond ±20 pawns left out. Positive: the
other engine thought its side better than we had thought ours. The engines' scales differ, so
read it as a trend across runs of the same pairing, not as either evaluation's error.

    python3 scripts/score_gap.py reports/elo-ethereal/results.jsonl.gz [--us strongest]
"""

import argparse
import gzip
import json
import statistics


def gaps(path, us, moves=20, limit=2000):
    found = []
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("type") != "pair":
                continue
            for game in record["games"]:
                plies = game["moves"]
                first = 0 if game["white"] == us else 1
                for i in range(first, min(len(plies) - 1, 2 * moves), 2):
                    ours, reply = plies[i]["score"], plies[i + 1]["score"]
                    if abs(ours) <= limit and abs(reply) <= limit:
                        found.append(ours + reply)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--us", default="strongest", help="our player's label in the match")
    args = parser.parse_args()
    for path in args.results:
        found = gaps(path, args.us)
        if not found:
            print(f"{path}: no moves of '{args.us}'")
            continue
        share = 100 * sum(g >= 50 for g in found) / len(found)
        print(f"{path}: {len(found)} moves, median {statistics.median(found):.0f} cp, "
              f"mean {statistics.mean(found):.0f} cp, at least 50 cp in {share:.0f}%")


if __name__ == "__main__":
    main()
