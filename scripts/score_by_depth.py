#!/usr/bin/env python3
"""How a search's score moves as it deepens: UCI engines on the same positions to a fixed depth.

    python3 scripts/score_by_depth.py EPD NAME=CMD@DEPTH[/WINDOW] [...] [--count 40] > OUT.ndjson

Each engine (`CMD` run as a UCI engine, Hash 16, `ucinewgame` before each position) searches
each of the first COUNT positions of EPD with `go depth DEPTH`; the score of every finished
iteration (the last exact `info depth N ... score` line of each depth, bounds left out) is
kept. A depth limit makes both searchlab and Ethereal 12 (one thread) deterministic, so a
loaded machine changes how long this takes, never what it prints. One JSON line a position
(`{"fen", NAME: {depth: centipawns or null for a mate}}`) goes to stdout, and a summary to
stderr over the positions where no engine reported a mate or a score beyond ±10 pawns, each
engine in its own units:

- the score's change from one depth to a later one (median, mean, how many positions fell),
  for the bands 1 to 6, 6 to the middle of the rest, the middle to the last depth, and 1 to the
  last;
- from depth 5 on, the median change from one iteration to the next and the share beyond
  WINDOW centipawns (the engine's first aspiration margin in its own units: the default's 18,
  Ethereal 12's 14; 18 when not given), and beyond it from the mean of the two iterations
  before (where a score swings odd-even, that mean moves less);
- the correlation of consecutive changes (negative: the score swings back and forth; near 0 or
  positive: it drifts one way).

Positions drawn from games one side played (`scripts/phase_positions.py`) were chosen by that
side's own searches: a score that falls as it deepens on the positions where that side was to
move, and not on positions neither side chose (a book), fits a search that steered toward what
its evaluation overrated.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import threading

BEYOND = 1000
TIMEOUT_S = 600


def parse_engine(text):
    """`NAME=CMD@DEPTH[/WINDOW]` into `(name, command words, depth, window)`."""
    found = re.fullmatch(r"([^=]+)=(.+)@(\d+)(?:/(\d+))?", text)
    if not found:
        sys.exit(f"'{text}': an engine is NAME=CMD@DEPTH[/WINDOW] (for example ethereal=/usr/games/ethereal-chess@15/14)")
    return found.group(1), found.group(2).split(), int(found.group(3)), int(found.group(4) or 18)


def scores_by_depth(proc, fen, depth, name):
    """`{depth: centipawns, or None for a mate}` of one `go depth`; an engine silent for
    TIMEOUT_S is killed and named."""
    timer = watchdog(proc)
    scores = {}
    try:
        proc.stdin.write(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
        proc.stdin.flush()
    except OSError:
        sys.exit(f"{name}: the engine ended before it was given {fen}")
    for line in proc.stdout:
        found = re.search(r"info depth (\d+).* score (cp|mate) (-?\d+)", line)
        multipv = re.search(r" multipv (\d+)", line)
        if found and "bound" not in line and (not multipv or multipv.group(1) == "1"):
            scores[int(found.group(1))] = int(found.group(3)) if found.group(2) == "cp" else None
        if line.startswith("bestmove"):
            break
    else:
        sys.exit(f"{name}: no bestmove at depth {depth} for {fen} (the engine ended, or fell silent for {TIMEOUT_S} s)")
    timer.cancel()
    return scores


def start(command, name):
    """A UCI engine after `uciok`, with Hash 16; one silent for TIMEOUT_S is killed and named."""
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"{name}: cannot start {' '.join(command)}: {e}")
    timer = watchdog(proc)
    for ask, answer in [("uci", "uciok"), ("setoption name Hash value 16\nisready", "readyok")]:
        try:
            proc.stdin.write(ask + "\n")
            proc.stdin.flush()
            answered = any(line.strip() == answer for line in proc.stdout)
        except OSError:
            answered = False
        if not answered:
            timer.cancel()
            proc.kill()
            sys.exit(f"{name}: {' '.join(command)} ended or fell silent before {answer}")
    timer.cancel()
    return proc


def watchdog(proc):
    """A started timer that kills `proc` after TIMEOUT_S (a daemon: it never holds the exit)."""
    timer = threading.Timer(TIMEOUT_S, proc.kill)
    timer.daemon = True
    timer.start()
    return timer


def read_fens(path, count):
    """The first `count` positions of the EPD at `path` as FENs (its four fields, then `0 1`);
    a line that does not start with a board of eight ranks and a side to move is named."""
    fens = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                fields = line.split()
                if not fields:
                    continue
                if len(fields) < 4 or fields[0].count("/") != 7 or fields[1] not in ("w", "b"):
                    sys.exit(f"{path}:{number}: not an EPD position (a board of eight ranks, the side to move, castling, en passant)")
                fens.append(" ".join(fields[:4]) + " 0 1")
                if len(fens) == count:
                    break
    except OSError as e:
        sys.exit(f"{path}: {e}")
    return fens


def change(rows, name, low, high):
    """Each kept position's score at `high` less its score at `low`."""
    return [r[name][high] - r[name][low] for r in rows if low in r[name] and high in r[name]]


def correlation(pairs):
    xs, ys = [a for a, _ in pairs], [b for _, b in pairs]
    sx, sy = statistics.pstdev(xs), statistics.pstdev(ys)
    if sx == 0 or sy == 0:
        return 0.0
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((a - mx) * (b - my) for a, b in pairs) / len(pairs) / (sx * sy)


def swings(rows, name, window):
    """From depth 5 on: changes from the iteration before, distances from the mean of the two
    before, and consecutive pairs of changes."""
    steps, from_mean, pairs = [], [], []
    for r in rows:
        s = r[name]
        before = None
        for d in sorted(s):
            if d < 5 or d - 1 not in s:
                continue
            step = s[d] - s[d - 1]
            steps.append(step)
            if d - 2 in s:
                from_mean.append(s[d] - (s[d - 1] + s[d - 2]) / 2)
            if before is not None:
                pairs.append((before, step))
            before = step
    if not steps or not from_mean or not pairs:
        return "fewer than three iterations from depth 5: no swings to read"
    beyond = lambda xs: sum(abs(x) > window for x in xs) / len(xs)
    return (f"from depth 5, {len(steps)} iterations: median |change| {statistics.median(map(abs, steps)):.0f} cp, "
            f"beyond ±{window} {beyond(steps):.1%}; beyond ±{window} of the mean of the two before "
            f"{beyond(from_mean):.1%}; correlation of consecutive changes {correlation(pairs):+.2f}")


def summary(rows, engines):
    kept = [r for r in rows if all(v is not None and abs(v) < BEYOND for n, *_ in engines for v in r[n].values())]
    print(f"{len(kept)} of {len(rows)} positions without a mate or a score beyond ±10 pawns", file=sys.stderr)
    if not kept:
        return
    for name, _, depth, window in engines:
        middle = 6 + (depth - 6) // 2
        print(f"  {name} (depth {depth}):", file=sys.stderr)
        for low, high in dict.fromkeys([(1, 6), (6, middle), (middle, depth), (1, depth)]):
            xs = change(kept, name, low, high)
            if low >= high or not xs:
                continue
            print(f"    {low} to {high}: median {statistics.median(xs):+.0f} cp, mean {statistics.mean(xs):+.1f}, "
                  f"fell in {sum(x < 0 for x in xs)} of {len(xs)}, rose in {sum(x > 0 for x in xs)}", file=sys.stderr)
        print(f"    {swings(kept, name, window)}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("epd")
    parser.add_argument("engines", nargs="+", help="NAME=CMD@DEPTH[/WINDOW]")
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()
    engines = [parse_engine(e) for e in args.engines]
    names = [name for name, *_ in engines]
    if len(set(names)) != len(names):
        sys.exit(f"engine names {names}: each engine needs a name of its own")
    fens = read_fens(args.epd, args.count)
    procs = {name: start(command, name) for name, command, *_ in engines}
    rows = []
    for fen in fens:
        row = {"fen": fen}
        for name, _, depth, _ in engines:
            row[name] = scores_by_depth(procs[name], fen, depth, name)
        rows.append(row)
        print(json.dumps(row), flush=True)
    for proc in procs.values():
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=10)
    summary(rows, engines)


if __name__ == "__main__":
    main()
