#!/usr/bin/env python3
"""Depth at a fixed time a move over stretches of a match's games, searched in order as in a
game (`context`: one game for the engine, its tables kept from move to move) or each position
afresh (`fresh`: `ucinewgame` before each), for any UCI engine, searchlab's own (`searchlab
uci`, a configuration through `--option Heuristics=SPEC`) or another.

    python3 scripts/replay_depth.py RESULTS.jsonl.gz --engine NAME=COMMAND [--option NAME=VALUE]...
        [--mode context|fresh] [--ms 230] [--games 30] [--moves 10] [--max-men 7]
        [--min-pieces 0] [--max-pieces 99] [--side default]

A stretch is up to `--moves` positions of one game where `--side` was to move with at most
`--max-men` men and `--min-pieces` to `--max-pieces` pieces beside the kings and pawns, the
game not over; the first `--games` games with at least half that many make the set, the same
for every engine.
Prints the mean depth (each engine's last `info depth`; a search that gave none is left out
and counted) and its mean by the move of the stretch. Needs python-chess (`python3 -m pip install chess`).
"""
import argparse
import shlex
import statistics
import sys

import chess
import chess.engine

from depth_by_men import moves


def stretches(path, side, max_men, min_men, length, games, max_pieces=99, min_pieces=0):
    """Up to `games` stretches: for each game of the results file, the positions (boards as
    they stood) where `side` was to move within the bounds, at most `length` of them, kept
    when at least half that many."""
    out, taken, current = [], [], None
    stream = moves(path)
    next(stream)
    for board, mover, _, game in stream:
        if game is not current:
            if len(taken) >= max(1, length // 2):
                out.append(taken)
                if len(out) >= games:
                    return out
            taken, current = [], game
        men = chess.popcount(board.occupied)
        pieces = chess.popcount(board.occupied & ~board.pawns & ~board.kings)
        fits = min_men <= men <= max_men and min_pieces <= pieces <= max_pieces
        if mover == side and fits and len(taken) < length and not board.is_game_over():
            taken.append(board.copy())
    if len(taken) >= max(1, length // 2) and len(out) < games:
        out.append(taken)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results")
    p.add_argument("--engine", required=True, help="NAME=COMMAND")
    p.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeated")
    p.add_argument("--mode", choices=["context", "fresh"], default="context")
    p.add_argument("--ms", type=int, default=230)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--moves", type=int, default=10)
    p.add_argument("--max-men", type=int, default=7)
    p.add_argument("--min-men", type=int, default=2)
    p.add_argument("--min-pieces", type=int, default=0)
    p.add_argument("--max-pieces", type=int, default=99)
    p.add_argument("--side", default="default")
    a = p.parse_args()
    if "=" not in a.engine:
        p.error(f"--engine wants NAME=COMMAND, got '{a.engine}'")
    name, command = a.engine.split("=", 1)
    options = {"Hash": 16}
    for option in a.option:
        if "=" not in option:
            p.error(f"--option wants NAME=VALUE, got '{option}'")
        key, value = option.split("=", 1)
        if key.lower() == "heuristics" and "eval=" not in value:
            # A SPEC without `eval=` is the hand-written evaluation (docs/uci.md, "One SPEC,
            # one engine"), not the default's network: a row that silently compared the two
            # had to be corrected once (reports/depth-gap/).
            print(f"note: '{option}' names no eval=: the hand-written evaluation "
                  "(the default is modern,eval=nnue)", file=sys.stderr)
        options[key] = value
    sets = stretches(a.results, a.side, a.max_men, a.min_men, a.moves, a.games, a.max_pieces,
                     a.min_pieces)
    depths, by_index, missing = [], {}, 0
    try:
        # The command is split as a shell would split it, but run without one.
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=10.0)
    except (OSError, chess.engine.EngineError, TimeoutError) as e:
        sys.exit(f"replay_depth: engine '{name}' ({command}) did not start: {e}")
    try:
        engine.configure(options)
        for stretch in sets:
            game = object()
            for i, board in enumerate(stretch):
                if a.mode == "fresh":
                    game = object()
                # A search that outlasts its time by the 10 s timeout raises TimeoutError.
                info = engine.analyse(board, chess.engine.Limit(time=a.ms / 1000), game=game)
                if "depth" not in info:
                    missing += 1
                    continue
                depths.append(info["depth"])
                by_index.setdefault(i, []).append(info["depth"])
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as e:
        sys.exit(f"replay_depth: engine '{name}' failed after {len(depths)} searches: {e!r}")
    finally:
        engine.close()
    if not depths:
        sys.exit("replay_depth: no position searched with a depth (no stretch fits the bounds?)")
    label = f"{name} {a.mode} {' '.join(a.option)}"
    print(f"{label}: {len(depths)} moves, mean depth {statistics.mean(depths):.2f}; "
          "by move of the stretch: "
          + " ".join(f"{statistics.mean(v):.1f}" for _, v in sorted(by_index.items()))
          + (f" ({missing} searches gave no depth, left out)" if missing else ""))


if __name__ == "__main__":
    main()
