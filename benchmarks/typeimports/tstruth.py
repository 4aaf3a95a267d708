"""Ground truth for TypeScript by a scan of the text: every `import … from`
and `export … from` statement (file, line of its first token) and whether it
is type-only: import type X / {…} / * as ns, export type {…} / *, or a brace
list whose every specifier starts with `type ` and no default import.
Usage: tstruth.py ROOT"""
import os, re, sys

stmt = re.compile(r"(?m)^[ \t]*(import|export)\b([^;'\"`]*?)\bfrom\s*['\"]([^'\"]+)['\"]", re.S)
comment = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)

def typed(kind, body):
    body = body.strip()
    if re.match(r"type\s*[{*]", body) or re.match(r"type\s+(?!from\b)[A-Za-z_$]", body) and kind == "import":
        return True
    if kind == "export" and re.match(r"type\s*[{*]", body):
        return True
    m = re.match(r"^\{(.*)\}$", body, re.S)
    if m:
        specs = [s.strip() for s in m.group(1).split(",") if s.strip()]
        return bool(specs) and all(re.match(r"type\s+\S", s) for s in specs)
    return False

root = sys.argv[1]
for dp, dns, fns in os.walk(root):
    dns[:] = sorted(d for d in dns if d not in (".git", "node_modules"))
    for fn in sorted(fns):
        if not fn.endswith((".ts", ".tsx", ".mts", ".cts")):
            continue
        p = os.path.join(dp, fn)
        text = open(p, encoding="utf-8", errors="replace").read()
        # blank out comments, keeping newlines so line numbers hold
        text = comment.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        rel = os.path.relpath(p, root)
        for m in stmt.finditer(text):
            start = m.start(1)
            line = text.count("\n", 0, start) + 1
            print(f"{rel}\t{line}\t{'true' if typed(m.group(1), m.group(2)) else 'false'}")
