#!/usr/bin/env python3
"""Where two engines' scores of the same positions part (reports/elo-ethereal/README.md): for
every move of `--us` in a match against another engine, our score for our side and the other
engine's score of its reply (the position our move left, which our score was of), turned to our
side, grouped by what stands on the board after our move (scores printed in pawns). Only moves
we scored between `--low` and `--high` centipawns are grouped (default +100 to +300: the leads
that did not convert), so that every group holds the same kind of claim and the engines'
different scales matter alike in each. Each line: how many such moves, our median, the other
engine's median, how often it shared at least half of our claim (its score on the same side of
zero as ours and at least half of it in size; over the moves we scored other than 0), how often
it scored within ±2 centipawns (a draw score, or near one), and our points from those games (a
game counted once a move). A first table reads every move by our score's band, −20 to +20 pawns
(scores beyond, mates among them, are left out of it; every table leaves out the moves whose
reply scored beyond ±20 pawns): how far the other engine and the results follow our scale.

A group whose other-engine median and points both fall below the rest's is a kind of position
our evaluation rates above what the games and the other engine bear out.

    python3 scripts/score_disagreement.py reports/elo-ethereal/twice-the-clock/results.jsonl.gz

Needs python-chess (`python3 -m pip install chess`) to replay the games.
"""

import argparse
import gzip
import json
import statistics
from collections import defaultdict

import chess

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def moves(path, us):
    """`(board after our move, our score, their score turned to our side, our points)` for
    every move of ours that the other engine answered with a score."""
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("type") != "pair":
                continue
            for game in record["games"]:
                yield from game_moves(record["opening"], game, us)


def game_moves(opening, game, us):
    board = chess.Board(opening["fen"])
    for mv in opening.get("moves", []):
        board.push_uci(mv)
    white = game["white"] == us
    points = {"1-0": 1.0, "0-1": 0.0}.get(game["result"], 0.5)
    points = points if white else 1.0 - points
    plies = game["moves"]
    for i, move in enumerate(plies):
        ours = (board.turn == chess.WHITE) == white
        board.push_uci(move["move"])
        if ours and i + 1 < len(plies):
            mine, reply = move.get("score"), plies[i + 1].get("score")
            if mine is not None and reply is not None and abs(reply) < 2000:
                yield board.copy(stack=False), mine, -reply, points


def material(board, color):
    return sum(VALUES[p.piece_type] for p in board.piece_map().values() if p.color == color)


def passed(board, color):
    """Pawns of `color` with no enemy pawn ahead on their own or a neighbouring file."""
    enemy = board.pieces(chess.PAWN, not color)
    count = 0
    for sq in board.pieces(chess.PAWN, color):
        f, r = chess.square_file(sq), chess.square_rank(sq)
        ahead = range(r + 1, 8) if color == chess.WHITE else range(0, r)
        if not any(
            chess.square(ff, rr) in enemy for ff in (f - 1, f, f + 1) if 0 <= ff < 8 for rr in ahead
        ):
            count += 1
    return count


def light(square):
    return (chess.square_file(square) + chess.square_rank(square)) % 2 == 1


def features(board, us):
    """The groups a position belongs to, as `(heading, group)` pairs."""
    them = not us
    men = len(board.piece_map())
    balance = material(board, us) - material(board, them)
    kinds = [
        (len(board.pieces(t, us)), len(board.pieces(t, them)))
        for t in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
    ]
    minors = kinds[1][0] + kinds[2][0], kinds[1][1] + kinds[2][1]
    passers = passed(board, us) - passed(board, them)
    bishops = list(board.pieces(chess.BISHOP, us)), list(board.pieces(chess.BISHOP, them))
    opposite = len(bishops[0]) == 1 and len(bishops[1]) == 1 and light(bishops[0][0]) != light(
        bishops[1][0]
    )
    return [
        ("men", "25-32" if men >= 25 else "15-24" if men >= 15 else "8-14" if men >= 8 else "2-7"),
        ("material, ours less theirs", "<= -1" if balance <= -1 else str(balance) if balance < 2 else ">= +2"),
        ("pieces", "the same men of each kind" if all(a == b for a, b in kinds)
         else "the same pieces, pawns differ" if all(a == b for a, b in kinds[1:])
         else "minor pieces differ" if minors[0] != minors[1] and kinds[3][0] == kinds[3][1]
         and kinds[4][0] == kinds[4][1] else "rooks or queens differ"),
        ("queens", "on" if kinds[4] != (0, 0) else "off"),
        ("passed pawns, ours less theirs", "<= -1" if passers <= -1 else "0" if passers == 0 else ">= +1"),
        ("bishops of opposite colour, one each", "yes" if opposite else "no"),
    ]


BANDS = [(-2000, -300), (-300, -100), (-100, -50), (-50, 50), (50, 100), (100, 200), (200, 300),
         (300, 600), (600, 2000)]
DRAWN = 2  # a reply scored within ±2 centipawns: a draw score, or as near one as makes no odds


def shares(mine, theirs):
    """The other engine's score is on our side of zero and at least half of ours in size."""
    return 2 * theirs >= mine if mine > 0 else 2 * theirs <= mine


def line(heading, group, rows):
    """One table row: moves, both medians, how often the other engine shared at least half of
    our claim (over the moves we scored other than 0), how often it scored a draw, and our
    points."""
    claims = [(m, t) for m, t, _ in rows if m != 0]
    half = f"{100 * sum(shares(m, t) for m, t in claims) / len(claims):.1f}%" if claims else "-"
    drawn = sum(1 for _, t, _ in rows if abs(t) <= DRAWN)
    return (f"{heading} | {group} | {len(rows)} | {statistics.median(m for m, _, _ in rows) / 100:+.2f} | "
            f"{statistics.median(t for _, t, _ in rows) / 100:+.2f} | {half} | "
            f"{100 * drawn / len(rows):.1f}% | {100 * statistics.mean(p for _, _, p in rows):.1f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--us", default="default")
    parser.add_argument("--low", type=int, default=100)
    parser.add_argument("--high", type=int, default=300)
    args = parser.parse_args()
    every = [m for path in args.results for m in moves(path, args.us)]
    columns = (f"moves | our median | theirs | theirs shares half ours | theirs within ±{DRAWN} | "
               "our points")
    print(f"{', '.join(args.results)}: every move of '{args.us}' answered with a score, by our score")
    print(f"heading | band | {columns}")
    for low, high in BANDS:
        rows = [(m, t, p) for _, m, t, p in every if low <= m < high]
        if rows:
            print(line("our score", f"{low / 100:+.2f} to {high / 100:+.2f}", rows))
    groups = defaultdict(list)
    for board, mine, theirs, points in every:
        if args.low <= mine <= args.high:
            groups[("all", "")].append((mine, theirs, points))
            for key in features(board, not board.turn):
                groups[key].append((mine, theirs, points))
    print()
    print(f"moves of '{args.us}' scored {args.low / 100:+.2f} to {args.high / 100:+.2f}, by what stands "
          "on the board after them")
    print(f"heading | group | {columns}")
    for key in sorted(groups, key=lambda k: (k[0] != "all", k)):
        print(line(*key, groups[key]))


if __name__ == "__main__":
    main()
