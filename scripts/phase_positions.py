#!/usr/bin/env python3
"""Positions from a match's games, by the men on the board: one position a game where the
named side was to move with more than one legal reply, drawn with seed 58, up to 150 a band.
Writes `DIR/phase-end.epd` (2-7 men), `DIR/phase-late.epd` (8-14) and `DIR/phase-mid.epd`
(15-24), for `run` to search with the heuristics on and off by phase.

    python3 scripts/phase_positions.py RESULTS.jsonl[.gz] SIDE DIR

Needs python-chess (`python3 -m pip install chess`).
"""
import os
import random
import sys

import chess

from depth_by_men import moves

BANDS = {"end": (2, 7), "late": (8, 14), "mid": (15, 24)}
PER_BAND = 150


def main(path, side, folder):
    rng = random.Random(58)
    chosen = {band: [] for band in BANDS}
    stream = moves(path)
    next(stream)
    seen, current = {band: [] for band in BANDS}, None

    def choose():
        for band in BANDS:
            if seen[band]:
                chosen[band].append(rng.choice(seen[band]))
            seen[band] = []

    for board, mover, _, game in stream:
        if game is not current:
            choose()
            current = game
        men = chess.popcount(board.occupied)
        if mover == side and board.legal_moves.count() > 1:
            for band, (low, high) in BANDS.items():
                if low <= men <= high:
                    seen[band].append(board.fen())
    choose()
    os.makedirs(folder, exist_ok=True)
    for band, fens in chosen.items():
        rng.shuffle(fens)
        with open(os.path.join(folder, f"phase-{band}.epd"), "w") as out:
            for i, fen in enumerate(fens[:PER_BAND]):
                out.write(" ".join(fen.split()[:4]) + f' id "{band}.{i + 1}";\n')
        print(f"{band}: {min(len(fens), PER_BAND)} of {len(fens)} games", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
