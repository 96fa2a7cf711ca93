#!/usr/bin/env python3
"""Nodes per second of searchlab and of a peer engine, driven by the same client in one run.

Both engines search every position of suites/bench.epd for the same fixed time, one thread,
through python-chess; the script prints each engine's total nodes / total time and the ratio.
Engines are alternated position by position, so machine load affects both alike.

Usage: python3 scripts/compare_nps.py [--movetime MS] [SEARCHLAB] [PEER]
Defaults: 500 ms, target/release/searchlab, ethereal-chess (Debian's package).
"""
import argparse
import shlex
import shutil
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--movetime", type=int, default=500)
    parser.add_argument("searchlab", nargs="?", default=str(ROOT / "target/release/searchlab"))
    parser.add_argument("peer", nargs="?", default=shutil.which("ethereal-chess")
                        or "/usr/games/ethereal-chess")
    args = parser.parse_args()
    boards = [chess.Board.from_epd(line)[0]
              for line in (ROOT / "suites/bench.epd").read_text().splitlines() if line.strip()]
    totals = {}
    engines = {}
    try:
        for name, cmd in (("searchlab", args.searchlab), ("peer", args.peer)):
            engines[name] = chess.engine.SimpleEngine.popen_uci(shlex.split(cmd))
        for name, engine in engines.items():
            if "Threads" in engine.options:
                engine.configure({"Threads": 1})
            totals[name] = [0, 0.0]
        for board in boards:
            for name, engine in engines.items():
                if "Clear Hash" in engine.options:
                    engine.configure({"Clear Hash": None})
                info = engine.analyse(board, chess.engine.Limit(time=args.movetime / 1000))
                totals[name][0] += info.get("nodes", 0)
                totals[name][1] += info.get("time", args.movetime / 1000)
    finally:
        for engine in engines.values():
            engine.quit()
    nps = {name: nodes / secs for name, (nodes, secs) in totals.items()}
    for name, (nodes, secs) in totals.items():
        print(f"{name:<10} {nodes:>12} nodes {secs:8.2f} s {nps[name]:>12.0f} nps")
    print(f"ratio searchlab/peer nps: {nps['searchlab'] / nps['peer']:.2f}")


if __name__ == "__main__":
    main()
