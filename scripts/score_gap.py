#!/usr/bin/env python3
"""The early-game score gap of a match against another engine (reports/elo-ethereal/README.md):
over our first 20 moves of each game, our score for our side plus the other engine's score
for its side one ply later (the reply's), positions beyond ±20 pawns left out. Positive: the
other engine thought its side better than we had thought ours. The engines' scales differ, so
read it as a trend across runs of the same pairing, not as either evaluation's error.

    python3 scripts/score_gap.py reports/elo-ethereal/results.jsonl.gz [--us strongest]

With `--losses` (needs python-chess: `python3 -m pip install chess`) it reads the games we
lost instead: the ply at which the other engine first scored its side 1.5 pawns up, the
number of pieces then, and how many plies later our own score first showed 1.5 pawns down.
"""

import argparse
import gzip
import json
import statistics


def games(path):
    """Every game of a match's results file, with its pair's opening FEN."""
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("type") == "pair":
                for game in record["games"]:
                    yield record["opening"]["fen"], game


def gaps(path, us, moves=20, limit=2000):
    found = []
    for _, game in games(path):
        plies = game["moves"]
        first = 0 if game["white"] == us else 1
        for i in range(first, min(len(plies) - 1, 2 * moves), 2):
            ours, reply = plies[i]["score"], plies[i + 1]["score"]
            if abs(ours) <= limit and abs(reply) <= limit:
                found.append(ours + reply)
    return found


def where_lost(path, us, margin=150):
    import chess  # python-chess, only for this reading

    found = []
    for fen, game in games(path):
        we_are_white = game["white"] == us
        if game["result"] != ("0-1" if we_are_white else "1-0"):
            continue
        board = chess.Board(fen)
        theirs = ours = None
        for ply, move in enumerate(game["moves"]):
            our_move = (board.turn == chess.WHITE) == we_are_white
            if not our_move and theirs is None and move["score"] >= margin:
                theirs = (ply, len(board.piece_map()))
            if our_move and ours is None and move["score"] <= -margin:
                ours = ply
            board.push_uci(move["move"])
        found.append((theirs, ours))
    return found


def print_losses(path, us):
    found = where_lost(path, us)
    seen = [t for t, _ in found if t is not None]
    phases = {"26 or more pieces": 0, "16 to 25": 0, "fewer than 16": 0}
    for _, pieces in seen:
        key = "26 or more pieces" if pieces >= 26 else "16 to 25" if pieces >= 16 else "fewer than 16"
        phases[key] += 1
    lags = [o - t[0] for t, o in found if t is not None and o is not None]
    print(f"{path}: {len(found)} games lost; the other side first 1.5 pawns up at ply "
          f"{statistics.median(p for p, _ in seen):.0f} (median) in {len(seen)}, with "
          + ", ".join(f"{k} {v}" for k, v in phases.items())
          + f"; our score followed {statistics.median(lags):.0f} plies later (median)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--us", default="strongest", help="our player's label in the match")
    parser.add_argument("--losses", action="store_true", help="where the lost games turned")
    args = parser.parse_args()
    for path in args.results:
        if args.losses:
            print_losses(path, args.us)
            continue
        found = gaps(path, args.us)
        if not found:
            print(f"{path}: no moves of '{args.us}'")
            continue
        share = 100 * sum(g >= 50 for g in found) / len(found)
        print(f"{path}: {len(found)} moves, median {statistics.median(found):.0f} cp, "
              f"mean {statistics.mean(found):.0f} cp, at least 50 cp in {share:.0f}%")


if __name__ == "__main__":
    main()
