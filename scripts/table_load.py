#!/usr/bin/env python3
"""Does the transposition table's size or shape change what a search of a game's length costs?
(reports/elo-tt-ways/README.md). The question behind `tt.ways=4` at 4 MiB: at 16+0.16 the
default searches about 729,000 nodes a move into a 16 MiB table of 1,048,576 slots, kept from
move to move, so a table that holds more, or keeps the deeper results, might reach a depth with
fewer nodes at the longer clock.

Each configuration replays our side's positions of the first games of a match's PGN (the games'
own moves, so every configuration sees the same positions in the same order), searching each to
a node limit through the UCI with the table kept between the moves of a game (`ucinewgame`
between games), and records the nodes at which each iteration completed. For each position the
depth compared is the deepest every configuration completed there; a configuration's cost is the
geometric mean, over the positions, of its nodes to that depth divided by the first
configuration's, with a 95% interval from the logs' standard error. Nodes are deterministic, so
the machine's load does not change the numbers.

    python3 scripts/table_load.py --engine target/engine/searchlab \
        --pgn reports/elo-ethereal/history/cc04d5b/twice-the-clock/games.pgn.gz --games 8 --nodes 730000 \
        h16=Hash=16 h256=Hash=256 h16-ways4=Hash=16,tt.ways=4
"""

import argparse
import gzip
import math
import sys

import chess
import chess.engine
import chess.pgn

OUR_NAME = "default"


def our_positions(pgn_path, games, last_move):
    """Per game: its start FEN and, for each of our moves to `last_move`, the moves before it."""
    out = []
    with gzip.open(pgn_path, "rt") if pgn_path.endswith(".gz") else open(pgn_path) as f:
        while len(out) < games:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if OUR_NAME not in (game.headers["White"], game.headers["Black"]):
                sys.exit(f"{pgn_path}: game {len(out) + 1} has no player named {OUR_NAME!r}")
            ours = chess.WHITE if game.headers["White"] == OUR_NAME else chess.BLACK
            board = game.board()
            start, played, searches = board.fen(), [], []
            for move in game.mainline_moves():
                if board.turn == ours and board.fullmove_number <= last_move:
                    searches.append(list(played))
                played.append(move.uci())
                board.push(move)
            out.append((start, searches))
    return out


def run(command, options, games, nodes):
    """Every position's completed iterations (depth to nodes; bound lines left out), and the
    engine's name. python-chess sends `ucinewgame` when the `game` key changes."""
    engine = chess.engine.SimpleEngine.popen_uci(command.split())
    engine.configure(dict(options))
    rows = []
    for number, (start, searches) in enumerate(games):
        for moves in searches:
            board = chess.Board(start)
            for move in moves:
                board.push_uci(move)
            completed = {}
            with engine.analysis(board, chess.engine.Limit(nodes=nodes), game=number) as lines:
                for info in lines:
                    if "depth" in info and "nodes" in info and not (
                        info.get("lowerbound") or info.get("upperbound")
                    ):
                        completed[info["depth"]] = info["nodes"]
            rows.append(completed)
    name = engine.id.get("name", command)
    engine.quit()
    return rows, name


def parse_config(text):
    label, _, options = text.partition("=")
    pairs = [option.split("=", 1) for option in options.split(",") if option]
    if not label or any(len(pair) != 2 for pair in pairs):
        sys.exit(f"a configuration is LABEL=NAME=VALUE[,NAME=VALUE...], not {text!r}")
    return label, [tuple(pair) for pair in pairs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the UCI command")
    parser.add_argument("--pgn", required=True)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--last-move", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=730_000)
    parser.add_argument("configs", nargs="+", help="LABEL=NAME=VALUE[,NAME=VALUE...]")
    args = parser.parse_args()
    configs = [parse_config(text) for text in args.configs]
    games = our_positions(args.pgn, args.games, args.last_move)
    results = {}
    for label, options in configs:
        print(f"{label}: searching", file=sys.stderr)
        results[label], engine_name = run(args.engine, options, games, args.nodes)
    count = len(results[configs[0][0]])
    print(f"# Nodes to a depth, table configurations ({engine_name}, `go nodes {args.nodes}`)\n")
    print(f"{count} positions: our moves to move {args.last_move} of the first {len(games)} games of")
    print(f"`{args.pgn}`, the table kept between the moves of a game.\n")
    print("| configuration | UCI options | mean depth completed | nodes to the common depth, "
          "against the first [95%] |")
    print("|---|---|---:|---|")
    base = results[configs[0][0]]
    # The deepest iteration every configuration completed at each position.
    common = [
        max(set.intersection(*(set(results[label][i]) for label, _ in configs)))
        for i in range(count)
    ]
    for label, options in configs:
        rows = results[label]
        depth = sum(max(row) for row in rows) / count
        logs = [math.log(rows[i][d] / base[i][d]) for i, d in enumerate(common)]
        mean = sum(logs) / count
        se = (sum((x - mean) ** 2 for x in logs) / (count - 1)) ** 0.5 / count**0.5
        ratio = (f"{math.exp(mean):.3f} [{math.exp(mean - 1.96 * se):.3f}, "
                 f"{math.exp(mean + 1.96 * se):.3f}]") if rows is not base else "1"
        shown = ", ".join(f"{name}={value}" for name, value in options) or "(defaults)"
        print(f"| {label} | {shown} | {depth:.2f} | {ratio} |")


if __name__ == "__main__":
    main()
