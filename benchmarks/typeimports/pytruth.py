"""Ground truth for Python: every import statement (file, line) and whether
it sits in the body of an `if` whose test names TYPE_CHECKING (a Name, or an
Attribute whose attr is TYPE_CHECKING). Usage: pytruth.py ROOT"""
import ast, os, sys

def names_tc(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
           (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")

def walk(node, typed, out):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        out.append((node.lineno, typed))
        return
    if isinstance(node, ast.If):
        walk(node.test, typed, out)
        for c in node.body:
            walk(c, typed or names_tc(node.test), out)
        for c in node.orelse:
            walk(c, typed, out)
        return
    for c in ast.iter_child_nodes(node):
        walk(c, typed, out)

root = sys.argv[1]
for dp, dns, fns in os.walk(root):
    dns[:] = sorted(d for d in dns if d not in (".git", "node_modules"))
    for fn in sorted(fns):
        if not fn.endswith((".py", ".pyi")):
            continue
        p = os.path.join(dp, fn)
        try:
            tree = ast.parse(open(p, encoding="utf-8").read())
        except Exception:
            continue
        out = []
        walk(tree, False, out)
        rel = os.path.relpath(p, root)
        for line, typed in sorted(set(out)):
            print(f"{rel}\t{line}\t{'true' if typed else 'false'}")
