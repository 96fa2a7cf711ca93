#!/usr/bin/env python3
"""Regenerate suites/bench.epd, the project's own bench positions.

How the positions are chosen (deterministic, so anyone can re-derive the file):
  * 14 opening lines written for this project, one position at the end of each line;
  * each line then continued by a peer engine (Debian's `stockfish`, fixed depth 8, one thread),
    sampling the position after 20 and 50 more plies when the game is still on: middlegames
    and early endgames;
  * 8 endgame positions composed for this project (pawn, rook, minor-piece, queen endings).
Positions where the side to move is mated or stalemated are skipped.

Usage: python3 scripts/make_bench_suite.py [STOCKFISH] > suites/bench.epd
Needs python-chess (`python3 -m pip install chess`) and a UCI engine.
"""
import sys

import chess
import chess.engine

OPENINGS = [
    ("ruy-closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3"),
    ("najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3"),
    ("qgd", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6"),
    ("kings-indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6 d5 Ne7"),
    ("winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3 Ne7 Qg4"),
    ("caro-kann", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6 Nf3 Nd7 h5 Bh7"),
    ("english", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2 Nb6 O-O Be7"),
    ("slav", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5 e3 e6 Bxc4 Bb4 O-O"),
    ("italian", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O Re1 a6"),
    ("nimzo", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3 d5 Nf3 dxc4 Qxc4 b6"),
    ("scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6 Bc4 Bf5 Bd2 e6"),
    ("dutch", "d4 f5 g3 Nf6 Bg2 e6 Nf3 Be7 O-O O-O c4 d6 Nc3 Qe8"),
    ("grunfeld", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3 bxc3 Bg7 Bc4 c5 Ne2 Nc6"),
    ("dragon", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6 Be3 Bg7 f3 O-O Qd2 Nc6 Bc4 Bd7 O-O-O"),
]

ENDGAMES = [
    ("kpk-opposition", "8/8/8/4k3/8/4P3/4K3/8 w - - 0 1"),
    ("rook-lucena", "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"),
    ("rook-pawns", "8/5pk1/6p1/7p/R6P/6P1/r4PK1/8 w - - 0 1"),
    ("bishop-vs-knight", "8/4kp2/3np1p1/3p4/3P1P2/4PB2/5K2/8 w - - 0 1"),
    ("queen-vs-rook", "8/8/3k4/8/2r5/8/4Q3/4K3 w - - 0 1"),
    ("pawn-race", "8/p7/8/8/8/8/6kP/K7 w - - 0 1"),
    ("two-rooks", "6k1/5ppp/8/8/8/8/r4PPP/1R1R2K1 b - - 0 1"),
    ("knight-ending", "8/3k4/2p1n3/1pP5/1P1K4/4N3/8/8 w - - 0 1"),
]


def board_after(line):
    board = chess.Board()
    for san in line.split():
        board.push_san(san)
    return board


def playable(board):
    return not board.is_game_over()


def epd(board, name):
    return f'{board.epd()} id "{name}";'


def main():
    engine_path = sys.argv[1] if len(sys.argv) > 1 else "stockfish"
    lines = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for name, line in OPENINGS:
            board = board_after(line)
            lines.append(epd(board, f"{name}.open"))
            for ply in range(1, 51):
                engine.configure({"Clear Hash": None})
                move = engine.play(board, chess.engine.Limit(depth=8)).move
                board.push(move)
                if not playable(board):
                    break
                if ply in (20, 50):
                    lines.append(epd(board, f"{name}.{ply}"))
    for name, fen in ENDGAMES:
        board = chess.Board(fen)
        assert board.is_valid() and playable(board), name
        lines.append(epd(board, f"end.{name}"))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
