#!/usr/bin/env python3
"""Make suites/endings-few-pieces.epd: balanced endings of one piece or none beside the kings and
pawns, a book for `searchlab match` when a search change acts only in such endings (a book of
openings reaches them in a few of its games' moves, so an SPRT from it measures little else).

How the positions are chosen (deterministic: the same files and Stockfish give the same book):
  * the games of every committed match under reports/ (`results.jsonl.gz`, paths sorted), each
    game's first position with at most one piece (knight, bishop, rook or queen, of either
    side) beside the kings and pawns and at least two pawns, not already seen (the four FEN
    fields);
  * shuffled with `random.Random(SEED)` and taken in that order: a position is kept when
    Debian's Stockfish at depth 16 (one thread, Hash 16, cleared) scores it within +-100 cp for
    the side to move but not exactly 0 (a draw Stockfish sees to its end gives two draws
    whatever the search: no signal), until COUNT are kept. Each line: `id "endings.N";
    ce CP; acd 16; c0 "FOLDER"` (the report folder whose games it came from).

Usage: python3 scripts/make_endings_book.py [STOCKFISH] > suites/endings-few-pieces.epd
Needs python-chess and Debian's `stockfish` (15.1, /usr/games/stockfish).
"""
import glob
import os
import random
import sys

import chess
import chess.engine

from depth_by_men import moves

SEED = 2028
COUNT = 350
MAX_PIECES = 1
MIN_PAWNS = 2
CHECK_DEPTH = 16
BALANCE_CP = 100


def few_pieces(board):
    """At most MAX_PIECES pieces beside the kings and pawns, at least MIN_PAWNS pawns."""
    pieces = chess.popcount(board.occupied & ~board.pawns & ~board.kings)
    return pieces <= MAX_PIECES and chess.popcount(board.pawns) >= MIN_PAWNS


def candidates(paths):
    """(EPD, folder) of each game's first ending of few pieces, each position once."""
    seen, found = set(), []
    for path in paths:
        folder = os.path.dirname(path).removeprefix("reports/")
        stream = moves(path)
        next(stream)
        taken = None
        for board, _, _, game in stream:
            if game is taken or not few_pieces(board) or board.is_game_over():
                continue
            taken = game
            if board.epd() not in seen:
                seen.add(board.epd())
                found.append((board.epd(), folder))
    return found


def main():
    engine_path = sys.argv[1] if len(sys.argv) > 1 else "stockfish"
    paths = sorted(glob.glob("reports/**/results.jsonl.gz", recursive=True))
    if not paths:
        sys.exit("no reports/**/results.jsonl.gz here: run from the repository's top")
    found = candidates(paths)
    print(f"{len(found)} candidates from {len(paths)} matches", file=sys.stderr)
    random.Random(SEED).shuffle(found)
    lines = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for epd, folder in found:
            if len(lines) == COUNT:
                break
            engine.configure({"Clear Hash": None})
            board = chess.Board(epd + " 0 1")
            info = engine.analyse(board, chess.engine.Limit(depth=CHECK_DEPTH))
            cp = info["score"].relative.score(mate_score=100000)
            if cp == 0 or abs(cp) > BALANCE_CP:
                continue
            number = len(lines) + 1
            lines.append(f'{epd} id "endings.{number}"; ce {cp}; acd {CHECK_DEPTH}; c0 "{folder}";')
            print(len(lines), file=sys.stderr, end="\r")
    if len(lines) < COUNT:
        sys.exit(f"only {len(lines)} balanced positions of {COUNT}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
