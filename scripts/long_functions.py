#!/usr/bin/env python3
"""List source files over LINES lines and functions over FN lines (test modules excluded from
the function count), largest first: the size rule of the code style.

    python3 scripts/long_functions.py [LINES [FN]]
"""
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
limit_file = int(sys.argv[1]) if len(sys.argv) > 1 else 450
limit_fn = int(sys.argv[2]) if len(sys.argv) > 2 else 80
files, functions = [], []
for path in sorted(SRC.rglob("*.rs")):
    lines = path.read_text().splitlines()
    files.append((len(lines), path.relative_to(SRC)))
    tests_at = next((i for i, l in enumerate(lines) if l.strip() == "#[cfg(test)]"), len(lines))
    if path.name == "tests.rs":
        continue
    i = 0
    while i < tests_at:
        m = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?fn\s+(\w+)", lines[i])
        if m and "{" in "".join(lines[i : i + 12]):
            depth, j, opened = 0, i, False
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                opened = opened or "{" in lines[j]
                if opened and depth <= 0:
                    break
                j += 1
            functions.append((j - i + 1, f"{path.relative_to(SRC)}:{i + 1} {m.group(1)}"))
            i = j + 1
            continue
        i += 1
files.sort(reverse=True)
functions.sort(reverse=True)
print(f"largest file: {files[0][0]} lines ({files[0][1]}); longest function: {functions[0][0]} lines ({functions[0][1]})")
for n, p in files:
    if n > limit_file:
        print(f"file {n:5}  {p}")
for n, f in functions:
    if n > limit_fn:
        print(f"fn   {n:5}  {f}")
