"""Ground truth cycles of a Python package's import graph by ast: files
linked by the imports they execute (any nesting, outside `if TYPE_CHECKING:`
bodies; .pyi stubs and tests left out) and, for comparison, by every import.
Usage: pycycles.py ROOT SRCDIR [SRCDIR...]  (SRCDIR relative to ROOT, the
import root: "." for starlette/, "src" for src/attr)."""
import ast, os, sys

from scc import cycles
sys.setrecursionlimit(10000)
root = sys.argv[1]
files = {}  # module name -> rel path
for base in sys.argv[2:]:
    top = os.path.join(root, base)
    for dp, dns, fns in os.walk(top):
        dns[:] = [d for d in dns if d not in (".git", "tests", "docs", "docs_src", "scripts", "node_modules")]
        for fn in fns:
            if not fn.endswith(".py") or fn.startswith("test_"):
                continue
            p = os.path.relpath(os.path.join(dp, fn), top)
            mod = p[:-3].replace(os.sep, ".")
            if mod.endswith(".__init__"):
                mod = mod[: -len(".__init__")]
            files[mod] = os.path.relpath(os.path.join(dp, fn), root)

def tc(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")

def imports(node, typed, out):
    if isinstance(node, ast.Import):
        for a in node.names:
            out.append((a.name, None, 0, typed))
        return
    if isinstance(node, ast.ImportFrom):
        for a in node.names:
            out.append((node.module or "", a.name, node.level, typed))
        return
    if isinstance(node, ast.If):
        for c in node.body:
            imports(c, typed or tc(node.test), out)
        for c in node.orelse:
            imports(c, typed, out)
        return
    for c in ast.iter_child_nodes(node):
        imports(c, typed, out)

def target(mod, frm, name, level):
    if level:
        parts = mod.split(".")
        pkg = parts if files.get(mod, "").endswith("__init__.py") else parts[:-1]
        pkg = pkg[: len(pkg) - (level - 1)]
        frm = ".".join(pkg + ([frm] if frm else []))
    cands = []
    if name and (frm + "." + name) in files:
        cands.append(frm + "." + name)
    elif frm in files:
        cands.append(frm)
    else:  # import a.b.c: the deepest known prefix
        parts = frm.split(".")
        for k in range(len(parts), 0, -1):
            if ".".join(parts[:k]) in files:
                cands.append(".".join(parts[:k])); break
    return cands

edges = {True: set(), False: set()}  # runtime_only -> edges
for mod, rel in files.items():
    tree = ast.parse(open(os.path.join(root, rel), encoding="utf-8").read())
    out = []
    imports(tree, False, out)
    for frm, name, level, typed in out:
        for t in target(mod, frm, name, level):
            if t != mod:
                edges[False].add((mod, t))
                if not typed:
                    edges[True].add((mod, t))

for runtime in (False, True):
    cs = cycles(files, edges[runtime], files.get)
    print(f"{'runtime imports' if runtime else 'all imports'}: {len(cs)} cycles")
    for c in cs:
        print(f"  ({len(c)}) " + " ".join(c))
