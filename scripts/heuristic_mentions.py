#!/usr/bin/env python3
"""The heuristic-mention rule: a heuristic is named (`Id::Variant`, `counter!(Variant...)`, its
module path `name::`, or a read of its configuration, `heuristics.name` or `h.name` where `h` is
the configuration of the heuristics) only in its own file, the registry, and the files of the search steps
its registry row declares (`steps: ["pruning"]` is `engine/search/pruning.rs`; `mod` is
`engine/search/mod.rs`; `movepick` is `engine/movepick.rs`, the picker of ordering ids; a path
such as `heuristics/razoring` is a file under `engine/`, a heuristic built on this one). Test
code is left out: a `tests.rs` file, a file under a `tests/` folder (a test module's
submodules) and whatever follows a file's `#[cfg(test)]`. Prints one line per heuristic; exit status 1 on any mention elsewhere, or a
declared step that does not consult it.

    python3 scripts/heuristic_mentions.py [SRC]

SRC (default: the repository's `src`) lets a test run the rule on a planted copy.
"""
import re
import sys
from pathlib import Path

SRC = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "src"
registry = (SRC / "engine/heuristics/mod.rs").read_text()
rows = re.findall(r"^    (\w+) => (\w+) \{\n(.*?)^    \}", registry, re.M | re.S)
files = {}
for path in SRC.rglob("*.rs"):
    if path.name == "tests.rs" or "tests" in path.relative_to(SRC).parts[:-1]:
        continue
    text = path.read_text()
    cut = text.find("#[cfg(test)]")
    text = text if cut < 0 else text[:cut]
    files[path.relative_to(SRC)] = re.sub(r"//[^\n]*", "", text)


def step_file(step):
    if step == "movepick" or "/" in step:
        return Path("engine") / f"{step}.rs"
    return Path("engine/search") / f"{step}.rs"


violations = 0
for variant, name, body in rows:
    steps = re.search(r"steps: \[([^\]]*)\]", body)
    declared = {step_file(s) for s in re.findall(r'"([\w/]+)"', steps.group(1))} if steps else set()
    own = Path("engine/heuristics") / f"{name}.rs"
    pattern = re.compile(
        rf"Id::{variant}\b|counter!\({variant}\b|(?<![\w.:]){name}::|heuristics::{name}::|heuristics::\{{[^}}]*\b{name}\b"
        rf"|\bheuristics\s*\.\s*{name}\b|(?<![\w.])h\.{name}\b"
    )
    where = sorted(
        p for p, text in files.items()
        if p not in (own, Path("engine/heuristics/mod.rs")) and pattern.search(text)
    )
    undeclared = [str(p) for p in where if p not in declared]
    stale = sorted(str(p) for p in declared if p not in where)
    violations += len(undeclared) + len(stale)
    flag = f"  <-- not in its row's steps: {', '.join(undeclared)}" if undeclared else ""
    flag += f"  <-- declared but never consulted: {', '.join(stale)}" if stale else ""
    print(f"{name:<20} {len(where)}  {', '.join(map(str, where))}{flag}")
if not rows:
    print("no registry rows found")
    sys.exit(1)
sys.exit(1 if violations else 0)
