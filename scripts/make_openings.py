#!/usr/bin/env python3
"""Regenerate suites/openings.epd, the project's balanced opening set for `searchlab match`.

How the positions are chosen (deterministic: the same Stockfish gives the same file):
  * a walk of 8 plies (4 moves each) from the start position; at each ply the move is drawn,
    with Python's `random.Random(SEED)`, among the peer engine's 4 best moves at depth 8
    (multi-PV 4, one thread, hash cleared) that score within 50 cp of the best, so each line
    is one a strong player might play and the set is varied;
  * the position after the walk is kept when Stockfish at depth 16 (one thread, hash
    cleared) scores it within +-50 cp for the side to move, when it is not already in the set,
    and when the game is still on;
  * until COUNT positions are kept. Each line records the walk and the depth-16 score:
    `id "open.N"; c0 "1. e4 c5 ..."; ce 17; acd 16;`.

Usage: python3 scripts/make_openings.py [STOCKFISH] > suites/openings.epd
       python3 scripts/make_openings.py --held-out [STOCKFISH] > suites/openings-heldout.epd

`--held-out` makes the held-out book the networks are judged on (issue 44): the same method
with seed 2027, every position absent from suites/openings.epd (the book `datagen` plays its
training games from), ids `heldout.N`.
Needs python-chess (`python3 -m pip install chess`) and Debian's `stockfish` (15.1, package
`stockfish`, /usr/games/stockfish).
"""
import random
import sys

import chess
import chess.engine

SEED = 2026
HELD_OUT_SEED = 2027
COUNT = 600
PLIES = 8
CHOICES = 4
WINDOW_CP = 50
WALK_DEPTH = 8
CHECK_DEPTH = 16
BALANCE_CP = 50


def walk(engine, rng):
    board = chess.Board()
    for _ in range(PLIES):
        engine.configure({"Clear Hash": None})
        infos = engine.analyse(
            board, chess.engine.Limit(depth=WALK_DEPTH), multipv=CHOICES
        )
        scored = [
            (info["pv"][0], info["score"].relative.score(mate_score=100000))
            for info in infos
            if info.get("pv")
        ]
        if not scored:
            return None
        best = max(score for _, score in scored)
        moves = [move for move, score in scored if score >= best - WINDOW_CP]
        board.push(rng.choice(moves))
        if board.is_game_over():
            return None
    return board


def main():
    args = sys.argv[1:]
    held_out = "--held-out" in args
    args = [a for a in args if a != "--held-out"]
    engine_path = args[0] if args else "stockfish"
    rng = random.Random(HELD_OUT_SEED if held_out else SEED)
    prefix = "heldout" if held_out else "open"
    seen = set()
    if held_out:
        # The training book's positions are never chosen: a held-out position is one no
        # datagen game started from.
        with open("suites/openings.epd") as book:
            seen = {" ".join(line.split()[:4]) for line in book if line.strip()}
    lines = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        while len(lines) < COUNT:
            board = walk(engine, rng)
            if board is None or board.epd() in seen:
                continue
            engine.configure({"Clear Hash": None})
            info = engine.analyse(board, chess.engine.Limit(depth=CHECK_DEPTH))
            cp = info["score"].relative.score(mate_score=100000)
            if abs(cp) > BALANCE_CP:
                continue
            seen.add(board.epd())
            moves = chess.Board().variation_san(board.move_stack)
            lines.append(
                f'{board.epd()} id "{prefix}.{len(lines) + 1}"; c0 "{moves}"; ce {cp}; acd {CHECK_DEPTH};'
            )
            print(len(lines), file=sys.stderr, end="\r")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
