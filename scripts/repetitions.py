#!/usr/bin/env python3
"""Draws by threefold repetition that one player thought it was winning
(reports/elo-upcoming-repetition/README.md): for each game of a match's results file that ended
by threefold repetition, the player's own scores on its four moves before the last (the last is
the move that allowed or made the repetition, often scored 0). A game counts as thrown when all
four are at least `--margin` centipawns for that player; the line says how many of those the
other player scored at most minus half of the margin for itself, so that both engines agreed.
Each player is read in turn, `--player` limits it to one label.

    python3 scripts/repetitions.py reports/elo-ethereal/twice-the-clock/results.jsonl.gz
"""

import argparse
import gzip
import json


def games(path):
    """Every game of a match's results file."""
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            record = json.loads(line)
            if record.get("type") == "pair":
                yield from record["games"]


def scores(game, player):
    """The scores `player` gave its own moves of `game`, in order (None where it gave none)."""
    white = game["white"] == player
    return [m.get("score") for i, m in enumerate(game["moves"]) if (i % 2 == 0) == white]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--margin", type=int, default=100, help="centipawns (default 100)")
    parser.add_argument("--player", help="one player's label (default: each in turn)")
    args = parser.parse_args()
    for path in args.results:
        every = list(games(path))
        labels = sorted({g["white"] for g in every} | {g["black"] for g in every})
        repeated = [g for g in every if "repetition" in g["reason"].lower()]
        for player in [args.player] if args.player else labels:
            thrown = agreed = 0
            for game in repeated:
                if player not in (game["white"], game["black"]):
                    continue
                other = game["black"] if game["white"] == player else game["white"]
                own = [s for s in scores(game, player)[-5:-1] if s is not None]
                if len(own) < 4 or min(own) < args.margin:
                    continue
                thrown += 1
                theirs = [s for s in scores(game, other)[-5:-1] if s is not None]
                agreed += bool(theirs) and max(theirs) <= -args.margin // 2
            print(
                f"{path}: {player}: {len(every)} games, {len(repeated)} threefold repetitions, "
                f"{thrown} with {player}'s four scores before the last at least "
                f"+{args.margin / 100:.2f}, {agreed} of them with the other side at most "
                f"-{args.margin / 200:.2f} for itself"
            )


if __name__ == "__main__":
    main()
