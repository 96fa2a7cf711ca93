#!/usr/bin/env python3
"""The positions of WAC and ECM whose best move is a mate in three moves or fewer.

Stockfish (Debian's `stockfish`, a trusted reference outside the product) searches each
position's `bm` moves alone (`go searchmoves`) to a fixed depth; a position is listed when it
reports a mate in 1..=MAX for the side to move. The list feeds
`tests/mates.rs` (`MATES_IN_THREE`), which checks that the UCI default finds each mate by depth
10 wherever `classic` finds it. Needs python-chess (`python3 -m pip install chess`).

    python3 scripts/mate_positions.py suites/wac.epd suites/ecm.epd
"""
import sys

import chess
import chess.engine

MAX = 3
DEPTH = 18


def main(paths):
    engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    engine.configure({"Threads": 1, "Hash": 64})
    found = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                board, ops = chess.Board.from_epd(line)
                best = ops.get("bm", [])
                if not best:
                    continue
                limit = chess.engine.Limit(depth=DEPTH)
                info = engine.analyse(board, limit, root_moves=best)
                mate = info["score"].pov(board.turn).mate()
                if mate is not None and 0 < mate <= MAX:
                    found.append((ops.get("id", f"{path}:{number}"), mate))
    engine.quit()
    for pid, mate in found:
        print(f"{pid}\tmate in {mate}")
    print(f"{len(found)} positions", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
