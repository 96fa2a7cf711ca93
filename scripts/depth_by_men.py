#!/usr/bin/env python3
"""Depth and nodes a second of each side of a match, by the men on the board when it moved,
from a match's results file (the moves' nodes, depth and time as `match` records them); then
the endings of seven men or fewer by what stands beside the kings and pawns (none, one piece,
more), with the median nodes and time of a move, since a band's mean depth mixes endings whose
trees differ.

    python3 scripts/depth_by_men.py RESULTS.jsonl[.gz]

Moves of less than 20 ms (a single reply, a mate found at once) are left out. Needs
python-chess (`python3 -m pip install chess`) to replay the games.
"""
import gzip
import json
import statistics
import sys
from collections import defaultdict

import chess

BANDS = [(25, 32), (15, 24), (8, 14), (2, 7)]
MIN_MS = 20


def moves(path):
    """The match's header, then `(board, mover, move)` for every move of every game, the board
    as it stood before the move (the opening's moves played first). A file that cannot be read
    ends the run with its name, the line and the reason."""
    number = 0
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            number = 1
            yield json.loads(f.readline())
            for number, line in enumerate(f, start=2):
                yield from pair_moves(json.loads(line))
    except (OSError, EOFError, ValueError, KeyError, TypeError, AssertionError) as e:
        where = f", line {number}" if number else ""
        sys.exit(f"{path}{where}: not a match's results file ({type(e).__name__}: {e})")


def pair_moves(record):
    """`(board, mover, move, game)` for every move of a results line's pair of games."""
    if record.get("type") != "pair":
        return
    opening = record["opening"]
    for game in record["games"]:
        board = chess.Board(opening["fen"])
        for mv in opening.get("moves", []):
            board.push_uci(mv)
        for move in game["moves"]:
            mover = game["white"] if board.turn == chess.WHITE else game["black"]
            yield board, mover, move, game
            board.push_uci(move["move"])


def ending_kind(board):
    """What stands beside the kings and pawns in an ending: no piece, one, or more."""
    pieces = chess.popcount(board.occupied & ~board.pawns & ~board.kings)
    return KINDS[min(pieces, 2)]


KINDS = ["pawns only", "one piece", "two pieces or more"]


def main(path):
    # (side, band) -> [nodes, ms, moves, depth sum]
    sums = defaultdict(lambda: [0, 0, 0, 0])
    # (side, kind) -> [(depth, nodes, ms)] for the endings of seven men or fewer
    endings = defaultdict(list)
    stream = moves(path)
    header = next(stream)
    for board, side, move, _ in stream:
        men = chess.popcount(board.occupied)
        band = next(b for b in BANDS if b[0] <= men <= b[1])
        if move.get("time_ms", 0) >= MIN_MS:
            s = sums[(side, band)]
            s[0] += move["nodes"]
            s[1] += move["time_ms"]
            s[2] += 1
            s[3] += move["depth"]
            if men <= 7:
                endings[(side, ending_kind(board))].append(
                    (move["depth"], move["nodes"], move["time_ms"]))
    sides = [v["label"] for v in header["variants"]]

    def band_cell(side, band):
        nodes, ms, count, depth = sums[(side, band)]
        rate = nodes / ms / 1000 if ms else 0.0
        return f"{count} | {rate:.2f} M | {depth / count if count else 0:.1f}"

    def ending_cell(side, kind):
        rows = endings[(side, kind)]
        if not rows:
            return "0 | – | – | –"
        depth = sum(r[0] for r in rows) / len(rows)
        nodes = statistics.median(r[1] for r in rows)
        ms = statistics.median(r[2] for r in rows)
        return f"{len(rows)} | {depth:.1f} | {nodes:,.0f} | {ms:.0f}"

    print_table("men", ["moves", "nodes/s", "depth"], sides,
                [(band, f"{band[0]}–{band[1]}") for band in BANDS], band_cell)
    print()
    print_table("2–7 men", ["moves", "depth", "median nodes", "median ms"], sides,
                [(kind, kind) for kind in KINDS], ending_cell)


def print_table(title, columns, sides, rows, cell):
    """A Markdown table: `columns` for each side, one line per `(key, label)` of `rows`, each
    side's cells from `cell(side, key)`."""
    print(f"| {title} | " + " | ".join(f"{s}: {c}" for s in sides for c in columns) + " |")
    print("|---|" + "---:|" * (len(columns) * len(sides)))
    for key, label in rows:
        print(f"| {label} | " + " | ".join(cell(side, key) for side in sides) + " |")

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
