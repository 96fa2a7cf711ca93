#!/usr/bin/env python3
"""Where each engine of a match spends its clock (reports/elo-ethereal/README.md): the mean time
a move by the engine's own move number, the share of the game's time spent by move 30, and the
clock each side had left at the end of the long games (more than 60 moves each), rebuilt from
the base and increment the games were played at (the results header's `control`, the scaled
one when the match played a reference speed) and every move's time. A clock left unspent at the end
of a game is time the engine could have searched with.

    python3 scripts/time_by_move.py reports/elo-ethereal/results.jsonl.gz
"""

import argparse
import gzip
import json
import statistics

BANDS = [(1, 1), (2, 5), (6, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 80), (81, 999)]


def read(path):
    """The match header and every game of a results file."""
    header, games = None, []
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("type") == "match":
                header = record
            elif record.get("type") == "pair":
                games.extend(record["games"])
    return header, games


def clock_of(header):
    """The base and increment, milliseconds, the games were played at (the header's `control`
    is the scaled clock when the match played a reference speed; `reference` keeps the asked one)."""
    clock = header["control"]["clock"]
    return clock["base_ms"], clock["inc_ms"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    args = parser.parse_args()
    header, games = read(args.results)
    base, inc = clock_of(header)
    times, by_30, total, left = {}, {}, {}, {}
    for game in games:
        clock = {game["white"]: base, game["black"]: base}
        for i, move in enumerate(game["moves"]):
            side = game["white"] if i % 2 == 0 else game["black"]
            number = i // 2 + 1
            times.setdefault(side, {}).setdefault(number, []).append(move["time_ms"])
            total[side] = total.get(side, 0) + move["time_ms"]
            if number <= 30:
                by_30[side] = by_30.get(side, 0) + move["time_ms"]
            clock[side] += inc - move["time_ms"]
        if len(game["moves"]) > 120:
            for side, ms in clock.items():
                left.setdefault(side, []).append(ms)
    print(f"clock {base}+{inc} ms, {len(games)} games")
    print("\nmean time a move (ms) by the engine's move number (moves in brackets)\n")
    sides = sorted(times)
    print("| moves | " + " | ".join(sides) + " |")
    print("|---|" + "---:|" * len(sides))
    for low, high in BANDS:
        cells = []
        for side in sides:
            values = [t for n, ts in times[side].items() if low <= n <= high for t in ts]
            cells.append(f"{statistics.mean(values):.0f} ({len(values)})" if values else "–")
        label = f"{low}" if low == high else (f"{low}–{high}" if high < 999 else f"{low}+")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    for side in sides:
        ends = sorted(left.get(side, []))
        end = f"median {statistics.median(ends):.0f} ms left at the end of {len(ends)} games over 60 moves" if ends else "no game over 60 moves"
        print(f"- {side}: {100 * by_30[side] / total[side]:.1f}% of its time spent by move 30; {end}")


if __name__ == "__main__":
    main()
