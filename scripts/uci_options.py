#!/usr/bin/env python3
"""Every option searchlab advertises configures through python-chess, and MultiPV works.

For each option of `uci`: its name must reach python-chess whole (a UCI keyword inside a name
splits it), and `configure` must accept a value in its range (spin: min, default and max;
check: both; combo: each var; string: the default); the engine must answer `isready` after.
Then `analyse(..., multipv=3)` must return three lines with three different first moves.
Prints `N passed, M failed`; exit status 1 on any failure.

Usage: python3 scripts/uci_options.py ENGINE_COMMAND
Needs python-chess: python3 -m pip install chess
"""
import sys

import chess
import chess.engine

SKIP = {"Hash"}  # the largest table is tested by the UCI tests; here it would only take memory


def values(option):
    if option.type == "spin":
        return sorted({option.min, option.default, option.max})
    if option.type == "check":
        return [True, False]
    if option.type == "combo":
        return list(option.var)
    if option.type == "string":
        return [option.default]
    return []


def main():
    engine_command = sys.argv[1]
    advertised = []
    with chess.engine.SimpleEngine.popen_uci(engine_command) as engine:
        passed, failures = 0, []
        for name, option in engine.options.items():
            advertised.append(name)
            # python-chess sets MultiPV itself (analyse's multipv=, tested below).
            if name in SKIP or option.type == "button" or option.is_managed():
                continue
            for value in values(option):
                try:
                    engine.configure({name: value})
                    engine.ping()
                    passed += 1
                except Exception as e:  # noqa: BLE001 - every failure is reported
                    failures.append(f"{name} = {value!r}: {e}")
            # Back to the default, so the next options are tried on the default configuration.
            if option.default is not None and option.type != "button" and not option.is_managed():
                engine.configure({name: option.default})
        broken = [n for n in advertised if n.endswith((".", "_")) or n != n.strip()]
        failures += [f"option name cut by python-chess: {n!r}" for n in broken]
        try:
            lines = engine.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
            firsts = {line["pv"][0] for line in lines if line.get("pv")}
            if len(lines) == 3 and len(firsts) == 3:
                passed += 1
            else:
                failures.append(f"multipv=3 returned {len(lines)} lines, first moves {firsts}")
        except Exception as e:  # noqa: BLE001
            failures.append(f"multipv=3: {e}")
    for failure in failures:
        print("FAILED", failure)
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
