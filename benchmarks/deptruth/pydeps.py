#!/usr/bin/env python3
"""Ground truth for the deptruth benchmark: file-level import dependencies of
a Python repository, computed with the standard library's ast module only.

Input (stdin, JSON): {"root": "/abs/repo", "files": ["rel/a.py", ...]} -- the
repository's tracked .py and .pyi files. Output (stdout, JSON):

    {"files":   [files parsed],
     "edges":   {"a.py": ["b.py", ...]},       # a depends on b
     "skipped": {"bad.py": "SyntaxError ..."},
     "stats":   {"imports": n, "resolved": n, "external": n, ...}}

Rules (see README.md beside this script):
  * A file's package root is the first directory upward without an
    __init__.py(i); a file whose directory has none is a top-level module of
    its own directory (scripts, tests). Absolute imports are looked up, in
    order, in the importer's package root, the repository root, src/ and the
    importer's own directory; the first of these holding the top-level name
    (a module, a regular package or a directory of Python files, i.e. a
    namespace package) wins, as on sys.path.
  * import a.b.c            -> a/b/c.py or a/b/c/__init__.py (the longest
                               prefix that exists, if the whole does not).
  * from M import n         -> M's file; n's file if n is a submodule of M;
                               and, if M binds n by an import from another
                               module of the repository (at module level,
                               also inside if/try blocks, or by a star
                               import), every file along that re-export chain
                               up to the defining one (at most 5 hops).
  * import M (or import M as a), then M.n (a.n) in the file: n is used
    from M, so it is followed as from M import n is (its submodule, or the
    re-export chain to its defining file) -- the file uses n, as Go's truth
    counts every use and not only import statements.
  * Relative imports climb level-1 directories from the importer's directory.
  * Every import statement counts: module level, under if TYPE_CHECKING:,
    inside functions and classes -- unless the request says "runtime": true,
    when imports under `if TYPE_CHECKING:` (or typing.TYPE_CHECKING), which
    only a type checker reads, are left out, and so are names they bind,
    and `from P import m` of submodules only counts them, not P's
    __init__.py (as `import P.m` counts P/m only), so a package's
    __init__ that imports everything is no hub between its modules (a
    run-time dependency truth; hypotruth reports both).
  * A .py importer depends on the .py file Python runs and on the .pyi stub
    beside it, if any (what a type checker reads in its place); a .pyi
    importer depends on the stub, else the .py file. Re-export chains are
    followed in each file with its own rule.
  * Only files of the input list; no self edges.
"""

import ast
import json
import posixpath
import sys

MAX_CHAIN = 5


def is_type_checking(test):
    """An `if` test that is only true for a type checker."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def type_only_nodes(tree):
    """Ids of every node under the body of an `if TYPE_CHECKING:` block."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for s in node.body:
                for n in ast.walk(s):
                    out.add(id(n))
    return out


class Repo:
    def __init__(self, root, files, runtime=False):
        self.root = root
        # runtime: leave out what only a type checker reads.
        self.runtime = runtime
        self.skip = {}
        self.files = set(files)
        # Directories that hold Python files at any depth: namespace packages.
        self.dirs = set()
        for f in files:
            d = posixpath.dirname(f)
            while d:
                if d in self.dirs:
                    break
                self.dirs.add(d)
                d = posixpath.dirname(d)
        self.infos = {}
        self.stats = {"imports": 0, "resolved": 0, "external": 0, "reexport_hops": 0, "attribute_uses": 0}

    # --- locating modules -------------------------------------------------

    def is_package_dir(self, d):
        return posixpath.join(d, "__init__.py") in self.files or posixpath.join(d, "__init__.pyi") in self.files

    def package_root(self, f):
        d = posixpath.dirname(f)
        while d and self.is_package_dir(d):
            d = posixpath.dirname(d)
        return d

    def file_of(self, modpath, stub):
        """The file Python runs for the module at modpath ("src/attr/_make"),
        or, for a stub importer, the file a type checker reads; None if
        neither exists. A package directory wins over a module file."""
        exts = (".pyi", ".py") if stub else (".py",)
        for ext in exts:
            for cand in (posixpath.join(modpath, "__init__" + ext), modpath + ext):
                if cand in self.files:
                    return cand
        return None

    def files_of(self, modpath, stub):
        """The files an importer of the module at modpath depends on: for a
        .py importer the .py file Python runs and the .pyi stub beside it, if
        any (what a type checker reads); for a .pyi importer the stub, else
        the .py file."""
        out = []
        first = self.file_of(modpath, stub)
        if first:
            out.append(first)
        if not stub:
            s = self.file_of(modpath, True)
            if s and s not in out:
                out.append(s)
        return out

    def exists(self, modpath):
        """A module file, a regular package or a namespace package."""
        return self.file_of(modpath, True) is not None or modpath in self.dirs

    def absolute(self, importer, parts):
        """The module path of absolute module name parts for importer."""
        roots = []
        for r in (self.package_root(importer), "", "src"):
            if r not in roots:
                roots.append(r)
        for r in roots:
            if self.exists(posixpath.join(r, parts[0])):
                return posixpath.join(r, *parts)
        return None

    def relative(self, importer, level, parts):
        d = posixpath.dirname(importer)
        for _ in range(level - 1):
            if not d:
                return None  # climbs out of the repository
            d = posixpath.dirname(d)
        return posixpath.join(d, *parts) if parts else d

    def module_path(self, importer, level, module):
        parts = module.split(".") if module else []
        if level:
            return self.relative(importer, level, parts)
        if not parts:
            return None
        return self.absolute(importer, parts)

    # --- what a module binds -----------------------------------------------

    def info(self, f):
        """Module-level names of f: imports (name -> targets), local
        definitions, star-import sources."""
        if f in self.infos:
            return self.infos[f]
        info = {"bind": {}, "defs": set(), "stars": []}
        self.infos[f] = info
        tree = self.trees.get(f)
        if tree is None:
            return info

        def bind(name, target):
            info["bind"].setdefault(name, []).append(target)

        def visit(stmts):
            for s in stmts:
                if isinstance(s, ast.Import):
                    for a in s.names:
                        mp = self.module_path(f, 0, a.name)
                        if a.asname:
                            if mp:
                                bind(a.asname, ("module", mp))
                        else:
                            top = a.name.split(".")[0]
                            tmp = self.module_path(f, 0, top)
                            if tmp:
                                bind(top, ("module", tmp))
                elif isinstance(s, ast.ImportFrom):
                    mp = self.module_path(f, s.level, s.module)
                    if mp is None:
                        continue
                    for a in s.names:
                        if a.name == "*":
                            info["stars"].append(mp)
                        else:
                            bind(a.asname or a.name, ("from", mp, a.name))
                elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    info["defs"].add(s.name)
                elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                    for t in targets:
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name):
                                info["defs"].add(n.id)
                elif isinstance(s, ast.If):
                    if not (self.runtime and is_type_checking(s.test)):
                        visit(s.body)
                    visit(s.orelse)
                elif isinstance(s, ast.Try) or (hasattr(ast, "TryStar") and isinstance(s, ast.TryStar)):
                    visit(s.body)
                    for h in s.handlers:
                        visit(h.body)
                    visit(s.orelse)
                    visit(s.finalbody)
                elif isinstance(s, (ast.With, ast.AsyncWith)):
                    visit(s.body)

        visit(tree.body)
        return info

    def chain(self, f, name, depth, seen):
        """Files along the re-export chain of name as bound in module file f
        (not including f). A stub's chain stays in stubs where they exist."""
        if depth >= MAX_CHAIN or (f, name) in seen:
            return []
        seen.add((f, name))
        stub = f.endswith(".pyi")
        info = self.info(f)
        out = []
        targets = info["bind"].get(name)
        if targets:
            for t in targets:
                if t[0] == "module":
                    tf = self.file_of(t[1], stub)
                    if tf:
                        out.append(tf)
                    continue
                _, mp, orig = t
                src = self.file_of(mp, stub)
                if src:
                    out.append(src)
                sub = self.file_of(posixpath.join(mp, orig), stub)
                if sub:
                    out.append(sub)
                elif src:
                    self.stats["reexport_hops"] += 1
                    out.extend(self.chain(src, orig, depth + 1, seen))
            return out
        if name in info["defs"]:
            return out
        for mp in info["stars"]:
            src = self.file_of(mp, stub)
            if src is None:
                continue
            si = self.info(src)
            if name in si["defs"] or name in si["bind"] or si["stars"]:
                sub = self.chain(src, name, depth + 1, seen)
                if sub or name in si["defs"]:
                    out.append(src)
                    out.extend(sub)
                    break
        return out

    # --- one file's dependencies -------------------------------------------

    def skipped(self, f, node):
        """In runtime mode, node is under `if TYPE_CHECKING:` in f."""
        if not self.runtime:
            return False
        if f not in self.skip:
            self.skip[f] = type_only_nodes(self.trees[f])
        return id(node) in self.skip[f]

    def only_submodules(self, mp, names, stub):
        """from M import a, b names submodules of M only: the file uses
        them, not M's own code -- as `import M.a` counts M/a only, though
        Python runs M/__init__ first either way."""
        return all(a.name != "*" and self.files_of(posixpath.join(mp, a.name), stub) for a in names)

    def deps(self, f):
        stub = f.endswith(".pyi")
        out = set()

        def add(target):
            if target and target != f:
                out.add(target)

        for node in ast.walk(self.trees[f]):
            if self.skipped(f, node):
                continue
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.stats["imports"] += 1
                    parts = a.name.split(".")
                    targets = []
                    # The longest prefix that exists (a.b.c, else a.b, else a).
                    while parts and not targets:
                        mp = self.module_path(f, 0, ".".join(parts))
                        if mp is None:
                            break
                        targets = self.files_of(mp, stub)
                        parts = parts[:-1]
                    if targets:
                        self.stats["resolved"] += 1
                        for t in targets:
                            add(t)
                    else:
                        self.stats["external"] += 1
            elif isinstance(node, ast.ImportFrom):
                self.stats["imports"] += 1
                mp = self.module_path(f, node.level, node.module)
                if mp is None or not self.exists(mp):
                    self.stats["external"] += 1
                    continue
                self.stats["resolved"] += 1
                mfs = self.files_of(mp, stub)
                if not (self.runtime and self.only_submodules(mp, node.names, stub)):
                    for mf in mfs:
                        add(mf)
                for a in node.names:
                    if a.name == "*":
                        continue
                    subs = self.files_of(posixpath.join(mp, a.name), stub)
                    for sub in subs:
                        add(sub)
                    if subs:
                        continue
                    for mf in mfs:
                        for t in self.chain(mf, a.name, 0, set()):
                            add(t)
        for t in self.attribute_uses(f, stub):
            add(t)
        return sorted(out)

    def attribute_uses(self, f, stub):
        """Files reached through M.n where M is a module f imports by name
        (import M, import M as a, from P import M for a submodule M)."""
        aliases = {}
        for node in ast.walk(self.trees[f]):
            if self.skipped(f, node):
                continue
            if isinstance(node, ast.Import):
                for a in node.names:
                    name = a.asname or a.name.split(".")[0]
                    mp = self.module_path(f, 0, a.name if a.asname else name)
                    if mp and self.exists(mp):
                        aliases[name] = mp
            elif isinstance(node, ast.ImportFrom):
                mp = self.module_path(f, node.level, node.module)
                if mp is None:
                    continue
                for a in node.names:
                    sub = posixpath.join(mp, a.name)
                    if a.name != "*" and self.files_of(sub, stub):
                        aliases[a.asname or a.name] = sub
        out = []
        seen = set()
        for node in ast.walk(self.trees[f]):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases):
                continue
            key = (node.value.id, node.attr)
            if key in seen:
                continue
            seen.add(key)
            mp = aliases[node.value.id]
            subs = self.files_of(posixpath.join(mp, node.attr), stub)
            if subs:
                out.extend(subs)
                continue
            for mf in self.files_of(mp, stub):
                self.stats["attribute_uses"] += 1
                out.extend(self.chain(mf, node.attr, 0, set()))
        return out


def main():
    req = json.load(sys.stdin)
    root = req["root"]
    files = sorted(set(p for p in req["files"] if p.endswith((".py", ".pyi"))))
    repo = Repo(root, files, bool(req.get("runtime")))
    repo.trees = {}
    skipped = {}
    for f in files:
        try:
            with open(posixpath.join(root, f), "rb") as fh:
                src = fh.read()
            repo.trees[f] = ast.parse(src, filename=f)
        except (SyntaxError, ValueError, UnicodeDecodeError, OSError) as e:
            skipped[f] = "%s: %s" % (type(e).__name__, e)
    edges = {}
    for f in files:
        if f in repo.trees:
            d = repo.deps(f)
            if d:
                edges[f] = d
    json.dump(
        {"files": [f for f in files if f in repo.trees], "edges": edges, "skipped": skipped, "stats": repo.stats},
        sys.stdout,
        indent=None,
        sort_keys=True,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
