#!/usr/bin/env python3
"""Drive searchlab through python-chess as a GUI would, and fail loudly on any protocol fault.

1. Analysis: 20 positions of suites/bench.epd, 0.1 s each; every best move must be legal.
2. Self-play: 10 games at 1 s + 0.01 s per move (clock kept here, as a GUI keeps it), from
   the bench suite's opening positions; no illegal move, no time loss, no crash.

Usage: python3 scripts/uci_check.py [ENGINE_COMMAND]   (default: target/release/searchlab)
Needs python-chess: python3 -m pip install chess
"""
import shlex
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
ENGINE = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/searchlab")
BASE, INC = 1.0, 0.01
MAX_PLIES = 300


def positions():
    boards = []
    for line in (ROOT / "suites/bench.epd").read_text().splitlines():
        if line.strip():
            board, ops = chess.Board.from_epd(line)
            boards.append((ops.get("id", "?"), board))
    return boards


def analysis(engine):
    for name, board in positions()[:20]:
        info = engine.analyse(board, chess.engine.Limit(time=0.1))
        move = info["pv"][0]
        if move not in board.legal_moves:
            raise SystemExit(f"analysis {name}: illegal move {move}")
        print(f"analysis {name:<24} depth {info.get('depth')} nodes {info.get('nodes')} "
              f"score {info.get('score')} pv {move}")


def game(white, black, start, number):
    board = start.copy()
    clocks = {chess.WHITE: BASE, chess.BLACK: BASE}
    engines = {chess.WHITE: white, chess.BLACK: black}
    for engine in engines.values():
        engine.configure({})
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=INC, black_inc=INC)
        began = time.monotonic()
        result = engines[side].play(board, limit)
        spent = time.monotonic() - began
        clocks[side] -= spent
        if clocks[side] < 0:
            raise SystemExit(f"game {number}: {'white' if side else 'black'} lost on time "
                             f"after {board.ply()} plies ({clocks[side]:.3f} s)")
        clocks[side] += INC
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"game {number}: illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    verdict = outcome.result() if outcome else "1/2-1/2 (adjudicated at ply limit)"
    print(f"game {number}: {verdict} in {board.ply()} plies, clocks "
          f"{clocks[chess.WHITE]:.2f}/{clocks[chess.BLACK]:.2f} s")


def main():
    command = shlex.split(ENGINE)
    with chess.engine.SimpleEngine.popen_uci(command) as a, \
         chess.engine.SimpleEngine.popen_uci(command) as b:
        analysis(a)
        openings = [board for name, board in positions() if name.endswith(".open")]
        for number in range(10):
            white, black = (a, b) if number % 2 == 0 else (b, a)
            game(white, black, openings[number // 2 % len(openings)], number + 1)
    print("uci_check: 20 analyses and 10 games, no illegal move, no time loss, no crash")


if __name__ == "__main__":
    main()
