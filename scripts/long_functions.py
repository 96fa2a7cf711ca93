#!/usr/bin/env python3
"""List source files over LINES lines and functions over FN lines (test modules excluded from
the function count), largest first: the size rule of the code style.

    python3 scripts/long_functions.py [LINES [FN]]
    python3 scripts/long_functions.py --check

`--check` is CI's rule: no source file over 600 lines and no function over 80 outside tests,
except the files and functions named in `scripts/size_exceptions.txt` (each with its reason);
exit status 1 on any other, or on an exception that no longer needs to be one.
"""
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
check = sys.argv[1:] == ["--check"]
args = [] if check else sys.argv[1:]
limit_file = 600 if check else int(args[0]) if args else 450
limit_fn = 80 if check else int(args[1]) if len(args) > 1 else 70
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
                # Braces inside string and char literals do not open or close anything.
                code = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'', '""', lines[j])
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
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
if check:
    listed = Path(__file__).resolve().parent / "size_exceptions.txt"
    allowed = {
        line.split("#")[0].strip()
        for line in listed.read_text().splitlines()
        if line.split("#")[0].strip()
    }
    found = {str(p) for n, p in files if n > limit_file}
    found |= {f.split(":")[0] + " " + f.split(" ")[1] for n, f in functions if n > limit_fn}
    over = sorted(found - allowed)
    stale = sorted(allowed - found)
    for item in over:
        print(f"over the limit (split it): {item}")
    for item in stale:
        print(f"no longer over the limit (remove it from size_exceptions.txt): {item}")
    sys.exit(1 if over or stale else 0)
