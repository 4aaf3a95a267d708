"""Ground truth cycles of a TypeScript tree's relative imports by a text
scan (tstruth.py's statement rule; `import "x"` side-effect imports and
export-from count as runtime unless typed): all imports vs runtime ones.
Tests, examples, benchmarks, docs and .d.ts files left out.
Usage: tscycles.py ROOT"""
import os, re, sys
sys.setrecursionlimit(10000)
sys.path.insert(0, os.path.dirname(__file__))
from scc import cycles
root = sys.argv[1]
stmt = re.compile(r"(?m)^[ \t]*(import|export)\b([^;'\"`]*?)\bfrom\s*['\"]([^'\"]+)['\"]|^[ \t]*import\s*['\"]([^'\"]+)['\"]", re.S)
comment = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
skip = re.compile(r"(^|/)(tests?|__tests__|examples?|benchmarks?|docs|website|node_modules|\.git)(/|$)|\.(test|spec|bench)\.|\.d\.[mc]?ts$")
def typed(kind, body):
    body = body.strip()
    if kind == "import" and (re.match(r"type\s*[{*]", body) or re.match(r"type\s+(?!from\b)[A-Za-z_$]", body)):
        return True
    if kind == "export" and re.match(r"type\s*[{*]", body):
        return True
    m = re.match(r"^\{(.*)\}$", body, re.S)
    if m:
        specs = [s.strip() for s in m.group(1).split(",") if s.strip()]
        return bool(specs) and all(re.match(r"type\s+\S", s) for s in specs)
    return False
files = set()
for dp, dns, fns in os.walk(root):
    dns[:] = [d for d in dns if not skip.search(os.path.relpath(os.path.join(dp, d), root))]
    for fn in fns:
        rel = os.path.relpath(os.path.join(dp, fn), root)
        if fn.endswith((".ts", ".tsx", ".mts", ".cts")) and not skip.search(rel):
            files.add(rel)
def resolve(frm, spec):
    if not spec.startswith("."):
        return None
    base = os.path.normpath(os.path.join(os.path.dirname(frm), spec))
    stem = re.sub(r"\.(m|c)?(j|t)sx?$", "", base)
    for c in (base, stem + ".ts", stem + ".tsx", stem + ".mts", os.path.join(base, "index.ts"), os.path.join(base, "index.tsx")):
        if c in files:
            return c
    return None
E = {False: set(), True: set()}
for f in files:
    text = comment.sub(" ", open(os.path.join(root, f), encoding="utf-8", errors="replace").read())
    for m in stmt.finditer(text):
        spec = m.group(3) or m.group(4)
        t = resolve(f, spec)
        if not t or t == f:
            continue
        E[False].add((f, t))
        if m.group(4) or not typed(m.group(1), m.group(2)):
            E[True].add((f, t))
for runtime in (False, True):
    cs = cycles(files, E[runtime])
    print(f"{'runtime imports' if runtime else 'all imports'}: {len(cs)} cycles")
    for c in cs:
        print(f"  ({len(c)}) " + " ".join(c[:8]) + (" …" if len(c) > 8 else ""))
