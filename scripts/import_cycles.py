#!/usr/bin/env python3
"""Draw searchlab's module import graph from `use` lines and report every cycle.

A module is a file under src/ (`a/b.rs` and `a/b/mod.rs` are both `a::b`). An edge A -> B
means non-test code in A names a path inside B (`crate::x::y`, `super::y`, `self::y`), so a
parent that re-exports from a child and a child that imports from its parent form a cycle. The
test modules (`#[cfg(test)] mod tests` blocks and `tests.rs` files) are left out: they may
import what they test. Exit status 1 when a cycle exists, with the cycles printed.

    python3 scripts/import_cycles.py [--dot]
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src"


def module_of(path: Path) -> tuple:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_tests(text: str) -> str:
    # Drop everything from the first `#[cfg(test)]` on: the project keeps tests last.
    index = text.find("#[cfg(test)]")
    return text if index < 0 else text[:index]


def use_paths(text: str):
    text = re.sub(r"//[^\n]*", "", text)
    # Paths written inline (`crate::harness::plot::CHARTS.len()`) are imports too.
    for match in re.finditer(r"\b(?:crate|super)(?:::(?:super|[A-Za-z_]\w*))+", text):
        yield match.group(0)
    for match in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text, re.M | re.S):
        body = re.sub(r"\s+", "", match.group(1))
        yield from expand(body)


def expand(body: str):
    """`a::{b, c::{d}}` -> a::b, a::c::d."""
    depth = 0
    for i, ch in enumerate(body):
        if ch == "{":
            prefix = body[:i]
            inner = body[i + 1 : body.rfind("}")]
            items, depth, start = [], 0, 0
            for j, c in enumerate(inner):
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                elif c == "," and depth == 0:
                    items.append(inner[start:j])
                    start = j + 1
            items.append(inner[start:])
            for item in items:
                if item:
                    yield from expand(prefix + item)
            return
    yield body


def resolve(module: tuple, path: str, modules: set):
    parts = path.split("::")
    if parts[0] == "crate":
        base, rest = (), parts[1:]
    elif parts[0] == "super":
        base = module
        rest = parts
        while rest and rest[0] == "super":
            base = base[:-1]
            rest = rest[1:]
    elif parts[0] == "self":
        base, rest = module, parts[1:]
    elif module + (parts[0],) in modules:
        base, rest = module, parts  # a child module named without `self::`
    else:
        return None
    target = base
    for part in rest:
        if target + (part,) in modules:
            target = target + (part,)
        else:
            break
    return target


def main():
    files = [p for p in ROOT.rglob("*.rs") if p.name != "tests.rs"]
    modules = {module_of(p) for p in files}
    edges = {}
    for p in files:
        m = module_of(p)
        code = strip_tests(p.read_text())
        children = {c[-1] for c in modules if c[:-1] == m and len(c) == len(m) + 1}
        inline = [
            match.group(0)
            for match in re.finditer(r"(?<![\w:])(\w+)(?:::\w+)+", re.sub(r"//[^\n]*", "", code))
            if match.group(1) in children
        ]
        for path in list(use_paths(code)) + inline:
            t = resolve(m, path, modules)
            if t is None or t == m:
                continue
            edges.setdefault(m, set()).add(t)
    name = lambda m: "::".join(m) or "crate"
    if "--dot" in sys.argv:
        print("digraph imports {")
        for a, bs in sorted(edges.items()):
            for b in sorted(bs):
                print(f'  "{name(a)}" -> "{name(b)}";')
        print("}")
    # Cycles: strongly connected components with more than one module.
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(modules):
        if v not in index:
            visit(v)
    for comp in sccs:
        members = set(comp)
        print("cycle:", ", ".join(sorted(name(m) for m in comp)))
        for a in sorted(comp):
            for b in sorted(edges.get(a, ())):
                if b in members:
                    print(f"  {name(a)} -> {name(b)}")
    print(f"{len(modules)} modules, {sum(len(b) for b in edges.values())} imports, {len(sccs)} cycles")
    sys.exit(1 if sccs else 0)


main()
