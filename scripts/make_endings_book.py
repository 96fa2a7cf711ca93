#!/usr/bin/env python3
"""Make a book of balanced endings for `searchlab match`, for a search change that acts only in
endings of a few pieces beside the kings and pawns (a book of openings reaches them in a few of
its games' moves, so an SPRT from it measures little else): suites/endings-few-pieces.epd
(one piece or none, the defaults) and suites/endings-two-three-pieces.epd (`--min-pieces 2
--max-pieces 3 --count 900 --name endings23`).

How the positions are chosen (deterministic: the same files and Stockfish give the same book):
  * the games of every committed match under reports/ (`results.jsonl.gz`, paths sorted), each
    game's first position with `--min-pieces` to `--max-pieces` pieces (knights, bishops,
    rooks or queens, of either side; 0 to 1 by default) beside the kings and pawns and at least
    two pawns, not already seen (the four FEN fields);
  * shuffled with `random.Random(SEED)` and taken in that order: a position is kept when
    Debian's Stockfish at depth 16 (one thread, Hash 16, cleared) scores it within +-100 cp for
    the side to move but not exactly 0 (a draw Stockfish sees to its end gives two draws
    whatever the search: no signal), until `--count` (350) are kept. Each line: `id
    "NAME.N"; ce CP; acd 16; c0 "FOLDER"` (`--name`, `endings` by default; the report folder
    whose games it came from).

Usage: python3 scripts/make_endings_book.py [--stockfish PATH] [--min-pieces 0] [--max-pieces 1]
           [--count 350] [--name endings] > suites/endings-few-pieces.epd
Needs python-chess and Debian's `stockfish` (15.1, /usr/games/stockfish).
"""
import argparse
import glob
import os
import random
import sys

import chess
import chess.engine

from depth_by_men import moves

SEED = 2028
MIN_PAWNS = 2
CHECK_DEPTH = 16
BALANCE_CP = 100


def few_pieces(board, min_pieces, max_pieces):
    """`min_pieces` to `max_pieces` pieces beside the kings and pawns, at least MIN_PAWNS pawns."""
    pieces = chess.popcount(board.occupied & ~board.pawns & ~board.kings)
    return min_pieces <= pieces <= max_pieces and chess.popcount(board.pawns) >= MIN_PAWNS


def candidates(paths, min_pieces, max_pieces):
    """(EPD, folder) of each game's first ending of few pieces, each position once."""
    seen, found = set(), []
    for path in paths:
        folder = os.path.dirname(path).removeprefix("reports/")
        stream = moves(path)
        next(stream)
        taken = None
        for board, _, _, game in stream:
            if game is taken or board.is_game_over():
                continue
            if not few_pieces(board, min_pieces, max_pieces):
                continue
            taken = game
            if board.epd() not in seen:
                seen.add(board.epd())
                found.append((board.epd(), folder))
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--stockfish", default="stockfish")
    p.add_argument("--min-pieces", type=int, default=0)
    p.add_argument("--max-pieces", type=int, default=1)
    p.add_argument("--count", type=int, default=350)
    p.add_argument("--name", default="endings")
    a = p.parse_args()
    paths = sorted(glob.glob("reports/**/results.jsonl.gz", recursive=True))
    if not paths:
        sys.exit("no reports/**/results.jsonl.gz here: run from the repository's top")
    found = candidates(paths, a.min_pieces, a.max_pieces)
    print(f"{len(found)} candidates from {len(paths)} matches", file=sys.stderr)
    random.Random(SEED).shuffle(found)
    lines = []
    with chess.engine.SimpleEngine.popen_uci(a.stockfish) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for epd, folder in found:
            if len(lines) == a.count:
                break
            engine.configure({"Clear Hash": None})
            board = chess.Board(epd + " 0 1")
            info = engine.analyse(board, chess.engine.Limit(depth=CHECK_DEPTH))
            cp = info["score"].relative.score(mate_score=100000)
            if cp == 0 or abs(cp) > BALANCE_CP:
                continue
            number = len(lines) + 1
            lines.append(f'{epd} id "{a.name}.{number}"; ce {cp}; acd {CHECK_DEPTH}; c0 "{folder}";')
            print(len(lines), file=sys.stderr, end="\r")
    if len(lines) < a.count:
        sys.exit(f"only {len(lines)} balanced positions of {a.count}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
