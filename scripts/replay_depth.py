#!/usr/bin/env python3
"""Depth at a fixed time a move over stretches of a match's games, searched in order as in a
game (`context`: one game for the engine, its tables kept from move to move) or each position
afresh (`fresh`: `ucinewgame` before each), for any UCI engine, searchlab's own (`searchlab
uci`, a configuration through `--option Heuristics=SPEC`) or another.

    python3 scripts/replay_depth.py RESULTS.jsonl.gz --engine NAME=COMMAND [--option NAME=VALUE]...
        [--mode context|fresh] [--ms 230] [--games 30] [--moves 10] [--max-men 7]
        [--max-pieces 99] [--side default]

A stretch is up to `--moves` positions of one game where `--side` was to move with at most
`--max-men` men and `--max-pieces` pieces beside the kings and pawns, the game not over; the
first `--games` games with at least half that many make the set, the same for every engine.
Prints the mean depth (each engine's last `info depth`) and its mean by the move of the
stretch. Needs python-chess (`python3 -m pip install chess`).
"""
import argparse
import gzip
import json
import statistics

import chess
import chess.engine

def stretches(path, side, max_men, min_men, moves, games, max_pieces=99):
    out = []
    with gzip.open(path, "rt") as f:
        f.readline()
        for line in f:
            rec = json.loads(line)
            if rec.get("type") != "pair":
                continue
            for game in rec["games"]:
                board = chess.Board(rec["opening"]["fen"])
                for mv in rec["opening"].get("moves", []):
                    board.push_uci(mv)
                taken = []
                for m in game["moves"]:
                    mover = game["white"] if board.turn == chess.WHITE else game["black"]
                    men = chess.popcount(board.occupied)
                    pieces = chess.popcount(board.occupied & ~board.pawns & ~board.kings)
                    if mover == side and min_men <= men <= max_men and pieces <= max_pieces and len(taken) < moves and not board.is_game_over():
                        taken.append(board.copy())
                    board.push_uci(m["move"])
                if len(taken) >= moves // 2:
                    out.append(taken)
                if len(out) >= games:
                    return out
    return out

def main():
    p = argparse.ArgumentParser()
    p.add_argument("results")
    p.add_argument("--engine", required=True)
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--mode", choices=["context", "fresh"], default="context")
    p.add_argument("--ms", type=int, default=230)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--moves", type=int, default=10)
    p.add_argument("--max-men", type=int, default=7)
    p.add_argument("--min-men", type=int, default=2)
    p.add_argument("--side", default="default")
    p.add_argument("--max-pieces", type=int, default=99)
    a = p.parse_args()
    name, cmd = a.engine.split("=", 1)
    eng = chess.engine.SimpleEngine.popen_uci(cmd.split())
    opts = {"Hash": 16}
    for o in a.option:
        k, v = o.split("=", 1)
        opts[k] = v
    eng.configure(opts)
    depths, by_index = [], {}
    for stretch in stretches(a.results, a.side, a.max_men, a.min_men, a.moves, a.games, a.max_pieces):
        gid = object()
        for i, board in enumerate(stretch):
            if a.mode == "fresh":
                gid = object()
            info = eng.analyse(board, chess.engine.Limit(time=a.ms / 1000), game=gid)
            d = info.get("depth", 0)
            depths.append(d)
            by_index.setdefault(i, []).append(d)
    eng.quit()
    label = f"{name} {a.mode} {' '.join(a.option)}"
    print(f"{label}: {len(depths)} moves, mean depth {statistics.mean(depths):.2f}; by move of the stretch: "
          + " ".join(f"{statistics.mean(v):.1f}" for _, v in sorted(by_index.items())))

if __name__ == "__main__":
    main()
