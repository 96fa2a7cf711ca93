#!/usr/bin/env python3
"""Whether the machine kept its speed through a match played at a reference speed
(reports/elo-ethereal/README.md). `match` measures the yardstick before the first game and
after the last; a reading that moved says the machine changed at some time, not when. Each
engine's own nodes a second in the games, block by block of pairs, says whether the games
themselves ran slower: both engines slow together when the machine does. Moves of 50 ms or
more only (a short move's time is mostly overhead). Each engine counts its nodes its own way:
compare a column with itself down the blocks, not the two columns.

    python3 scripts/speed_by_pair.py reports/elo-ethereal/results.jsonl.gz [--block 20]
"""

import argparse
import gzip
import json

MIN_TIME_MS = 50


def read(path):
    """The match header, every `speed` record and every pair of a results file, in order."""
    header, speeds, pairs = None, [], []
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            record = json.loads(line)
            kind = record.get("type")
            if kind == "match":
                header = record
            elif kind == "speed":
                speeds.append(record)
            elif kind == "pair":
                pairs.append(record)
    return header, speeds, pairs


def block_row(pairs, names):
    """Each engine's nodes a second (millions) and mean depth over the block's long moves."""
    sums = {name: [0, 0, 0, 0] for name in names}
    for pair in pairs:
        for game in pair["games"]:
            sides = [game["white"], game["black"]]
            for ply, move in enumerate(game["moves"]):
                if move.get("time_ms", 0) < MIN_TIME_MS or not move.get("nodes"):
                    continue
                s = sums[sides[ply % 2]]
                s[0] += move["nodes"]
                s[1] += move["time_ms"]
                s[2] += move.get("depth", 0)
                s[3] += 1
    cells = []
    for name in names:
        nodes, ms, depth, moves = sums[name]
        cells.append(f"{nodes / ms / 1000:.2f} M" if ms else "-")
        cells.append(f"{depth / moves:.2f}" if moves else "-")
    return cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--block", type=int, default=20, help="pairs a row (20)")
    args = parser.parse_args()
    header, speeds, pairs = read(args.results)
    if header is None or not pairs:
        raise SystemExit(f"{args.results}: no match header or no pairs")
    names = [pairs[0]["base"], pairs[0]["dev"]]
    reference = header.get("reference")
    if reference:
        start = reference["measured"]
        print(f"yardstick `{reference['yardstick']}` before the first game: "
              + ", ".join(f"{r / 1e6:.2f}" for r in start["runs"])
              + f" M nodes/s, median {start['nps'] / 1e6:.2f} M")
    for speed in speeds:
        print(f"yardstick after {speed['after_pairs']} pairs: "
              + ", ".join(f"{r / 1e6:.2f}" for r in speed["runs"])
              + f" M nodes/s, median {speed['nps'] / 1e6:.2f} M")
    print()
    print(f"moves of {MIN_TIME_MS} ms or more; each engine's own nodes a second and depth")
    print("| pairs | " + " | ".join(f"{n} nodes/s | {n} depth" for n in names) + " |")
    print("|---|" + "---:|" * (2 * len(names)))
    for lo in range(0, len(pairs), args.block):
        block = pairs[lo:lo + args.block]
        print(f"| {lo + 1}-{lo + len(block)} | " + " | ".join(block_row(block, names)) + " |")
    print(f"| all | " + " | ".join(block_row(pairs, names)) + " |")


if __name__ == "__main__":
    main()
