#!/usr/bin/env python3
"""Draws by threefold repetition that one player thought it was winning
(reports/elo-upcoming-repetition/README.md): for each game of a match's results file that ended
by threefold repetition, the player's own scores on its four moves before the last (the last is
the move that allowed or made the repetition, often scored 0). A game counts as thrown when all
four are at least `--margin` centipawns for that player; the line says how many of those the
other player scored at most minus half of the margin for itself, so that both engines agreed.
Each player is read in turn, `--player` limits it to one label.

A second line for each player tells what its leads became: the games in which six of its own scores
running were all at least `--margin`, and how many of those it won, drew (by which rule) and
lost. Without it a count of repetitions from a lead reads as wins given away; with it, a change
that avoids the repetitions shows whether the lead ends in a win or in another draw.

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


def outcome(game, player):
    """'W', 'D' or 'L' for `player`."""
    if game["result"] == "1/2-1/2":
        return "D"
    return "W" if (game["result"] == "1-0") == (game["white"] == player) else "L"


def led(game, player, margin, running=6):
    """Whether `running` of `player`'s own scores in a row were all at least `margin`."""
    own = scores(game, player)
    return any(
        all(s is not None and s >= margin for s in own[i : i + running])
        for i in range(len(own) - running + 1)
    )


def leads(path, every, player, margin):
    """The line on what `player`'s leads of at least `margin` became."""
    ends = {"W": 0, "D": 0, "L": 0}
    rules = {}
    for game in every:
        if player in (game["white"], game["black"]) and led(game, player, margin):
            end = outcome(game, player)
            ends[end] += 1
            if end == "D":
                rule = game["reason"].lower()
                rules[rule] = rules.get(rule, 0) + 1
    total = sum(ends.values())
    how = ", ".join(f"{n} {rule}" for rule, n in sorted(rules.items(), key=lambda r: -r[1]))
    return (
        f"{path}: {player}: {total} games with six of its own scores running at least "
        f"+{margin / 100:.2f}: won {ends['W']}, drawn {ends['D']} ({how or 'none'}), "
        f"lost {ends['L']}"
    )


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
            print(leads(path, every, player, args.margin))


if __name__ == "__main__":
    main()
