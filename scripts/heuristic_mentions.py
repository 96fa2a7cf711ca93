#!/usr/bin/env python3
"""For each heuristic of the registry, list the source files outside its own file and the
registry that name it (`Id::Variant`, `counter!(Variant...)` or its module path `name::`).
Issue 9's rule: at most 2 (its consulting step, and the picker for ordering ids). Test
modules are left out. Exit status 1 when a heuristic is named in more than 2 files.

    python3 scripts/heuristic_mentions.py
"""
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
registry = (SRC / "engine/heuristics/mod.rs").read_text()
rows = re.findall(r"^\s+(\w+) => (\w+) \{", registry, re.M)
files = {}
for path in SRC.rglob("*.rs"):
    if path.name == "tests.rs":
        continue
    text = path.read_text()
    cut = text.find("#[cfg(test)]")
    text = text if cut < 0 else text[:cut]
    files[path.relative_to(SRC)] = re.sub(r"//[^\n]*", "", text)
worst = 0
for variant, name in rows:
    own = Path("engine/heuristics") / f"{name}.rs"
    pattern = re.compile(
        rf"Id::{variant}\b|counter!\({variant}\b|(?<![\w.:]){name}::|heuristics::{name}::|heuristics::\{{[^}}]*\b{name}\b"
    )
    where = sorted(
        str(p) for p, text in files.items()
        if p != own and p != Path("engine/heuristics/mod.rs") and pattern.search(text)
    )
    worst = max(worst, len(where))
    flag = "  <-- more than 2" if len(where) > 2 else ""
    print(f"{name:<20} {len(where)}  {', '.join(where)}{flag}")
sys.exit(1 if worst > 2 else 0)
