#!/usr/bin/env python3
"""Depth at equal time: searchlab's configurations and a UCI engine on the same positions.

    python3 scripts/depth_at_time.py EPD --ms 500 [--count 40] [--engine /usr/games/ethereal-chess]
        SPEC [SPEC ...] > OUT.ndjson

Each position of EPD (its first COUNT) is searched for MS milliseconds by `searchlab search
--heuristics SPEC --eval nnue --movetime MS`, once per SPEC, and by the engine (`go movetime
MS`, Hash 16, a new game each time). One JSON line a position: for the engine its last
depth and score, for each SPEC the last iteration's number (the depth UCI engines report),
the depth its last search reached (less where a fail high was searched again shallower), the
score and how many iterations aspiration searched again.
A summary by SPEC goes to stderr, over the positions where no side found a mate. Ethereal 12
ignores `go nodes`, hence the clock: two runs on a loaded machine differ, so compare
configurations of one run only. (`.ndjson`, not `.jsonl`: a report folder's `.jsonl` files are
results files with a header, which the reports' index reads.)
"""
import argparse
import json
import re
import subprocess
import sys
import threading

SEARCHLAB = "target/release/searchlab"
MATE = 99.0


def ours(fen, ms, spec, binary):
    """`(depth: the last iteration's number, the depth its last search reached, score in pawns,
    aspiration's iterations searched again)`."""
    try:
        out = subprocess.run(
            [binary, "search", "--heuristics", spec, "--eval", "nnue", "--movetime", str(ms), fen],
            capture_output=True, text=True, check=True, timeout=deadline(ms)).stdout
    except subprocess.TimeoutExpired:
        sys.exit(f"{binary}: no answer within {deadline(ms):.0f} s for {spec} on {fen}")
    except subprocess.CalledProcessError as e:
        sys.exit(f"{binary}: {spec} on {fen} failed (exit {e.returncode}): {e.stderr.strip()}")
    rows = [line.split() for line in out.splitlines() if re.match(r"^\d+/\d+ ", line)]
    if not rows:
        return 0, 0, 0.0, 0
    # `depth/seldepth  T ms  nodes  nps  score  PV`
    score_text = rows[-1][5]
    score = MATE if "#" in score_text else float(score_text)
    again = re.search(r"aspiration\s+tested\s+\d+\s+fired\s+\d+\s+overruled\s+(\d+)", out)
    depth = int(rows[-1][0].split("/")[0])
    searched = re.search(r"\[searched (\d+)\]", " ".join(rows[-1]))
    return depth, int(searched.group(1)) if searched else depth, score, int(again.group(1)) if again else 0


def deadline(ms):
    """Seconds after which a search of `ms` milliseconds is taken for hung."""
    return ms / 1000 * 10 + 30


def engine(fen, ms, binary):
    """The engine's last exact depth and score (pawns) at `go movetime`; an engine silent past
    the deadline is killed and named."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    timer = threading.Timer(deadline(ms), proc.kill)
    timer.start()
    proc.stdin.write(f"uci\nsetoption name Hash value 16\nisready\nucinewgame\n"
                     f"position fen {fen}\ngo movetime {ms}\n")
    proc.stdin.flush()
    depth, score = 0, 0.0
    for line in proc.stdout:
        found = re.search(r"info depth (\d+).* score (cp|mate) (-?\d+)", line)
        if found and "bound" not in line:
            depth = int(found.group(1))
            score = int(found.group(3)) / 100 if found.group(2) == "cp" else MATE
        if line.startswith("bestmove"):
            break
    else:
        timer.cancel()
        sys.exit(f"{binary}: no bestmove within {deadline(ms):.0f} s for {fen}")
    timer.cancel()
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return depth, score


def summary(rows, specs):
    """Means over the positions where no search found a mate."""
    kept = [r for r in rows if abs(r["engine"][1]) < MATE and all(abs(r[s][2]) < MATE for s in specs)]
    print(f"{len(kept)} of {len(rows)} positions without a mate score", file=sys.stderr)
    if not kept:
        return
    mean = lambda xs: sum(xs) / len(kept)
    print(f"  engine: depth {mean(r['engine'][0] for r in kept):.2f}", file=sys.stderr)
    for s in specs:
        print(f"  {s}: depth {mean(r[s][0] for r in kept):.2f}, "
              f"searched {mean(r[s][1] for r in kept):.2f}, "
              f"searched again {mean(r[s][3] for r in kept):.2f}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("epd")
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--ms", type=int, default=500)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--engine", default="/usr/games/ethereal-chess")
    parser.add_argument("--searchlab", default=SEARCHLAB)
    args = parser.parse_args()
    with open(args.epd) as f:
        fens = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()][:args.count]
    rows = []
    for fen in fens:
        row = {"fen": fen, "engine": engine(fen, args.ms, args.engine)}
        for spec in args.specs:
            row[spec] = ours(fen, args.ms, spec, args.searchlab)
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary(rows, args.specs)


if __name__ == "__main__":
    main()
