#!/usr/bin/env python3
"""The import graph of a Rust crate, one node per source file.

    scripts/module-graph.py CRATE_SRC_DIR [ROOT_FILE...]
    scripts/module-graph.py referee/src lib.rs main.rs --lib referee

Reads every `.rs` file under the directory, maps it to its module path
(`a/b.rs` and `a/b/mod.rs` are `a::b`; the root files are the crate), and
draws an edge from a file to every module it names in code: `crate::a::b`
paths (in `use` lines with their braces, and inline), `super::` paths
(relative to the file's module; inside an indented inline module such as
`mod tests`, `super` is the file itself), bare `child::` paths in a file
that has child modules (`tournament::run` in the root) and, in a binary, `LIB::` paths
of its library crate when `--lib NAME` is given. Comments and doc links do
not count; `mod x;` declarations do not either (a parent declaring a child
is not an import). Each path goes to the deepest module file it reaches.

Prints the cycles (strongly connected components of more than one file),
and the import levels: a file that imports nothing of the crate is on
level 1, any other one level above the highest file it imports (longest
path). Exit 1 when there is a cycle.
"""

import os
import re
import sys


def module_of(rel, roots):
    """`a/b.rs` -> ('a','b'); `a/mod.rs` -> ('a',); a root file -> ()."""
    if rel == roots[0]:
        return ()
    if rel in roots:
        return (rel,)
    parts = rel[:-3].split("/")
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


def expand_use(text):
    """Expands the brace groups of one `use` tree into plain paths."""
    text = re.sub(r"\s+", "", text)
    m = re.search(r"\{", text)
    if not m:
        return [text]
    prefix = text[: m.start()]
    depth, start, items = 0, m.start() + 1, []
    end = None
    for i in range(m.start(), len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                items.append(text[start:i])
                end = i
                break
        elif c == "," and depth == 1:
            items.append(text[start:i])
            start = i + 1
    out = []
    for item in items:
        if not item:
            continue
        if item == "self":
            out.append(prefix.rstrip(":"))
        else:
            out.extend(expand_use(prefix + item))
    return out


def strip_comments(line):
    in_str = False
    i = 0
    while i < len(line) - 1:
        c = line[i]
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_str = not in_str
        if not in_str and line[i : i + 2] == "//":
            return line[:i]
        i += 1
    return line


def main():
    args = sys.argv[1:]
    lib = None
    if "--lib" in args:
        k = args.index("--lib")
        lib = args[k + 1]
        del args[k : k + 2]
    if not args:
        print(__doc__)
        return 2
    src = args[0]
    # The first root is the crate's root module; other roots (a binary
    # beside its library) are nodes of their own.
    roots = args[1:] or ["lib.rs", "main.rs"]
    files = {}
    for dirpath, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                path = os.path.join(dirpath, n)
                rel = os.path.relpath(path, src)
                files[rel] = path
    modules = {}
    for rel in files:
        if rel.split("/")[0] in ("bin",) and rel not in roots:
            continue
        modules.setdefault(module_of(rel, roots), []).append(rel)

    def target(mod_path):
        """The deepest module file of `mod_path` (a tuple)."""
        for k in range(len(mod_path), -1, -1):
            if mod_path[:k] in modules:
                return mod_path[:k]
        return None

    edges = {m: set() for m in modules}
    path_re = re.compile(r"\b(crate|super|self%s)((?:::[A-Za-z_][A-Za-z0-9_]*)+)" %
                         ("|" + lib if lib else ""))
    for m, rels in modules.items():
        for rel in rels:
            text = open(files[rel], encoding="utf-8").read()
            lines = [strip_comments(l) for l in text.split("\n")]
            # Whole `use` statements, braces expanded.
            joined = "\n".join(lines)
            uses = []
            for u in re.finditer(r"\buse\s+([^;]+);", joined):
                indent = len(joined[: u.start()].split("\n")[-1])
                for p in expand_use(u.group(1)):
                    uses.append((p, indent))
            inline = []
            for l in lines:
                if re.match(r"\s*(pub(\([a-z]+\))?\s+)?use\b", l):
                    continue
                indent = len(l) - len(l.lstrip())
                for mm in path_re.finditer(l):
                    inline.append((mm.group(1) + mm.group(2), indent))
            # In a file with child modules, a bare `child::` path names
            # its child (`tournament::run` in the root).
            children = {c[-1] for c in modules if len(c) == len(m) + 1 and c[: len(m)] == m}
            for l in lines:
                if re.match(r"\s*(pub(\([a-z]+\))?\s+)?mod\b", l):
                    continue
                for mm in re.finditer(r"(?<![:\w])([a-z_][a-z0-9_]*)::", l):
                    if mm.group(1) in children:
                        inline.append(("self::" + mm.group(1), 0))
            for p, indent in uses + inline:
                p = re.sub(r"\s+as\s+\w+$", "", p)
                p = re.sub(r"as[A-Za-z_0-9]+$", "", p) if "::" in p and p.split("::")[-1].startswith("as") else p
                segs = [s for s in p.split("::") if s and s != "*"]
                if not segs:
                    continue
                base = m if rel not in roots else ()
                in_file_is_mod = rel.endswith("mod.rs") or rel in roots
                if segs[0] == "crate" or (lib and segs[0] == lib):
                    full = tuple(segs[1:])
                elif segs[0] == "super":
                    # Inside an indented inline module (tests), `super` is
                    # the file itself.
                    cur = base
                    rest = segs
                    if indent > 0:
                        rest = segs[1:]
                    while rest and rest[0] == "super":
                        cur = cur[:-1]
                        rest = rest[1:]
                    full = cur + tuple(rest)
                elif segs[0] == "self":
                    full = base + tuple(segs[1:])
                else:
                    continue
                t = target(full)
                if t is not None and t != m:
                    edges[m].add(t)

    # Tarjan's strongly connected components.
    index, low, on, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
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
            sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(modules):
        if v not in index:
            strong(v)
    name = lambda m: "::".join(m) or "(root)"
    cycles = [c for c in sccs if len(c) > 1]
    for c in cycles:
        print("cycle:", " <-> ".join(sorted(name(m) for m in c)))
    # Levels over the component graph (a cycle counts as one node).
    comp_of = {}
    for i, c in enumerate(sccs):
        for m in c:
            comp_of[m] = i
    level = {}

    def lvl(i):
        if i in level:
            return level[i]
        level[i] = 1
        below = {comp_of[w] for m in sccs[i] for w in edges[m]} - {i}
        level[i] = 1 + max((lvl(j) for j in below), default=0)
        return level[i]

    for i in range(len(sccs)):
        lvl(i)
    by_level = {}
    for m in modules:
        by_level.setdefault(level[comp_of[m]], []).append(name(m))
    for k in sorted(by_level):
        print(f"level {k}: {' '.join(sorted(by_level[k]))}")
    print(f"{len(modules)} files, {sum(len(e) for e in edges.values())} imports, "
          f"{max(by_level)} levels, {len(cycles)} cycles")
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
