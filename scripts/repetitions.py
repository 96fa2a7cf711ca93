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
that avoids the repetitions shows whether the lead ends in a win or in another draw. The same
line says whether the other player saw the lead: the median of its own scores over the same six
moves, turned to the leading player's side (the median of those medians over the games), and in
how many games that median was at least half the margin. A lead the other side does not share
and that does not convert is the leading player's evaluation, not its technique, at fault
(`reports/elo-ethereal/README.md`, twice the clock).

    python3 scripts/repetitions.py reports/elo-ethereal/twice-the-clock/results.jsonl.gz
"""

import argparse
import gzip
import json
import statistics


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


def lead_start(game, player, margin, running=6):
    """The index among `player`'s own moves where `running` of its scores in a row first were
    all at least `margin`, or None."""
    own = scores(game, player)
    return next(
        (
            i
            for i in range(len(own) - running + 1)
            if all(s is not None and s >= margin for s in own[i : i + running])
        ),
        None,
    )


def other_view(game, player, start, running=6):
    """The median of the other player's own scores on its `running` moves from `player`'s move
    `start` (its replies when `player` has White, the moves before them when Black), turned to
    `player`'s side; None where it gave no score."""
    other = game["black"] if game["white"] == player else game["white"]
    theirs = [-s for s in scores(game, other)[start : start + running] if s is not None]
    return statistics.median(theirs) if theirs else None


def leads(path, every, player, margin):
    """The line on what `player`'s leads of at least `margin` became."""
    ends = {"W": 0, "D": 0, "L": 0}
    rules = {}
    views = {"W": [], "D": [], "L": []}
    for game in every:
        if player not in (game["white"], game["black"]):
            continue
        start = lead_start(game, player, margin)
        if start is not None:
            end = outcome(game, player)
            view = other_view(game, player, start)
            if view is not None:
                views[end].append(view)
            ends[end] += 1
            if end == "D":
                rule = game["reason"].lower()
                rules[rule] = rules.get(rule, 0) + 1
    total = sum(ends.values())
    how = ", ".join(f"{n} {rule}" for rule, n in sorted(rules.items(), key=lambda r: -r[1]))
    every_view = views["W"] + views["D"] + views["L"]
    by_end = ", ".join(
        f"{word} {statistics.median(views[end]) / 100:+.2f}"
        for end, word in (("W", "won"), ("D", "drawn"), ("L", "lost"))
        if views[end]
    )
    seen = (
        f"; the other side's own scores over the same six moves: median "
        f"{statistics.median(every_view) / 100:+.2f} for {player} ({by_end}), at least "
        f"+{margin / 200:.2f} in {sum(v >= margin / 2 for v in every_view)} of {len(every_view)}"
        if every_view
        else ""
    )
    return (
        f"{path}: {player}: {total} games with six of its own scores running at least "
        f"+{margin / 100:.2f}: won {ends['W']}, drawn {ends['D']} ({how or 'none'}), "
        f"lost {ends['L']}{seen}"
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
