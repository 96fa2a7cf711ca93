#!/usr/bin/env python3
"""Nodes a second of two or more searchlab builds, measured side by side (issue 58, section 3).

Each round runs `BUILD bench --depth D [ARGS]` once per build, the builds alternating and the
order turning each round, pinned to one core when `taskset` is there, so that a machine whose
load drifts slows every build alike. It prints each run's line, then per build the median
nodes a second and its ratio to the first build's median. Every build must report the same
node count for its speed to be the same work done faster: when the counts differ (a search
change), the script says so under the medians, and the ratio is one of unlike trees; it then
prints each build's time to the depth (its nodes over its median speed), the comparison such
trees allow (a narrower tree can count fewer nodes a second and reach the depth sooner).

A BUILD is a binary, optionally with bench arguments of its own in the same word
("target/engine/searchlab --heuristics modern,eval=nnue,quiet_keys=reached"): a search change
measured against the build before it.

Usage: python3 scripts/bench_side_by_side.py [--depth 12] [--rounds 8] [--core 1]
           [--args '--heuristics modern,eval=nnue'] BUILD BUILD [BUILD ...]
"""
import argparse
import re
import shlex
import shutil
import statistics
import subprocess
import sys


def bench(build, depth, extra, core):
    binary, *own = shlex.split(build)
    command = [binary, "bench", "--depth", str(depth)] + own + extra
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", str(core)] + command
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"{binary}: cannot run it: {error}")
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        sys.exit(f"{binary}: bench exited with status {done.returncode}: {reason}")
    out = done.stdout
    match = re.search(r"^(\d+) nodes (\d+) nps\s*$", out, re.M)
    if not match:
        sys.exit(f"{binary}: no '<N> nodes <M> nps' line in its bench output")
    return int(match.group(1)), int(match.group(2))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--core", type=int, default=1)
    parser.add_argument("--args", default="", help="further bench arguments, for every build")
    parser.add_argument("builds", nargs="+")
    args = parser.parse_args()
    if len(args.builds) < 2:
        sys.exit("give at least two builds to compare")
    extra = shlex.split(args.args)
    speeds = {b: [] for b in args.builds}
    nodes = {}
    for round_ in range(args.rounds):
        shift = round_ % len(args.builds)
        for binary in args.builds[shift:] + args.builds[:shift]:
            n, nps = bench(binary, args.depth, extra, args.core)
            nodes.setdefault(binary, n)
            speeds[binary].append(nps)
            print(f"round {round_ + 1} {binary}: {n} nodes {nps} nps", flush=True)
    base = statistics.median(speeds[args.builds[0]])
    for binary in args.builds:
        median = statistics.median(speeds[binary])
        print(f"{binary}: median {median / 1e6:.3f} M nodes/s over {args.rounds} rounds, "
              f"{median / base:.3f}x the first build ({nodes[binary]} nodes)")
    if len(set(nodes.values())) > 1:
        print("WARNING: the builds searched different trees (their node counts differ): the "
              "ratios compare the speed of unlike searches, not the same work done faster")
        # Unlike trees: what each took to reach the same depth, nodes over its median speed.
        # A tree with fewer, dearer nodes can be slower a node and quicker to the depth.
        first = nodes[args.builds[0]] / base
        for binary in args.builds:
            seconds = nodes[binary] / statistics.median(speeds[binary])
            print(f"{binary}: {seconds:.2f} s to depth {args.depth} at its median speed, "
                  f"{seconds / first:.3f}x the first build's")


if __name__ == "__main__":
    main()
