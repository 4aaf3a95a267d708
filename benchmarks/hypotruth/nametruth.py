#!/usr/bin/env python3
"""nametruth.py -- a third truth for hypotruth's Python claims: does A's code
reach B following the names it uses (issue 27, re-export hubs)?

Run-time imports as benchmarks/deptruth/pydeps.py reads them with
"runtime": true (no `if TYPE_CHECKING:`; `from P import m` of a submodule
counts P/m only), and one more rule: `from P import X` where P's
__init__.py only re-exports X (binds it by `from .b import X`) counts the
module that defines X, and P/__init__.py as a module the importer
imports but does not pass through, so the other modules that __init__
imports are no dependency of the importer. P/__init__.py is passed
through when X is defined in it, for a star import, for a name the chain
cannot resolve, and for `import P` (a namespace: every attribute may be
read). Since 2026-11-30 (issue 27, barrels not named __init__) the rule
holds for any module P, `from pkg.api import X` where api.py re-exports X
too (name_graph's init_only=True gives the __init__-only truth; on the
held-out repositories both narrow the same imports).
A reaches B when a chain of such links leads from A to B.

JavaScript/TypeScript answers are judged by jsnames.cjs beside this file
(the same rule for `import { A } from "m"` where m re-exports A, for any
m — a barrel whatever its name; it needs node and the typescript package
of benchmarks/deptruth/npm).

Usage: nametruth.py RESULTS.json REPOS_DIR > names.json
  RESULTS.json is m1nd-hypotruth -json output; for every Python and JS
  answer the output adds "names_true" (B reachable from A by names), and a
  summary of right / wrong / inconclusive on the three truths goes to stderr.
"""

import ast
import json
import os
import posixpath
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deptruth"))
import pydeps  # noqa: E402


class NameRepo(pydeps.Repo):
    def hub_names_only(self, f, node, mp, stub):
        """from mp import names, where mp (a package's __init__, or any
        module unless init_only) binds every (non-submodule) name from
        another module: the files that define them, or None when mp itself
        must count."""
        mfs = self.files_of(mp, stub)
        if len(mfs) != 1 or (self.init_only and not mfs[0].endswith(("__init__.py", "__init__.pyi"))):
            return None
        mf = mfs[0]
        info = self.info(mf)
        out = []
        for a in node.names:
            if a.name == "*":
                return None
            if self.files_of(posixpath.join(mp, a.name), stub):
                continue  # a submodule: counted by the base rule
            if a.name in info["defs"] or a.name not in info["bind"]:
                return None
            chain = self.chain(mf, a.name, 0, set())
            if not chain:
                return None
            out.append(chain[-1])  # the defining file, not the hubs between
        return out

    def skipped(self, f, node):
        """Also skip the hub imports deps narrows (their files are added
        by name)."""
        return super().skipped(f, node) or id(node) in self.narrow.get(f, ())

    def deps(self, f):
        stub = f.endswith(".pyi")
        ids, extra = set(), set()
        for node in ast.walk(self.trees[f]):
            if not isinstance(node, ast.ImportFrom) or super().skipped(f, node):
                continue
            mp = self.module_path(f, node.level, node.module)
            if mp is None or not self.exists(mp):
                continue
            only = self.hub_names_only(f, node, mp, stub)
            if only is None:
                continue
            ids.add(id(node))
            self.leaves.setdefault(f, set()).update(x for x in self.files_of(mp, stub) if x != f)
            extra.update(only)
            for a in node.names:
                extra.update(self.files_of(posixpath.join(mp, a.name), stub))
        self.narrow[f] = ids
        self.stats["hub_narrowed"] = self.stats.get("hub_narrowed", 0) + len(ids)
        out = set(super().deps(f))
        out.update(x for x in extra if x != f)
        return out


def name_graph(root, files, init_only=False):
    repo = NameRepo(root, files, True)
    repo.narrow, repo.leaves, repo.init_only = {}, {}, init_only
    repo.trees = {}
    for f in files:
        try:
            with open(posixpath.join(root, f), "rb") as fh:
                repo.trees[f] = ast.parse(fh.read(), filename=f)
        except (SyntaxError, ValueError, UnicodeDecodeError, OSError):
            pass
    edges = {f: repo.deps(f) for f in sorted(repo.trees)}
    return edges, repo.leaves, repo.stats


JS_EXTS = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts")


def js_name_graph(root, tracked):
    """jsnames.cjs over the tracked JS/TS files (none under node_modules),
    with the repository's package.json files, as deptruth's JSTruth runs
    jsdeps.cjs."""
    def in_nm(f):
        return "node_modules" in posixpath.dirname(f).split("/")
    files = [f for f in tracked if f.endswith(JS_EXTS) and not in_nm(f)]
    pkgs = [f for f in tracked if posixpath.basename(f) == "package.json" and not in_nm(f)]
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jsnames.cjs")
    req = json.dumps({"root": os.path.abspath(root), "files": files, "packages": pkgs})
    out = json.loads(subprocess.run(["node", script], input=req, capture_output=True, text=True, check=True).stdout)
    return out["edges"], out["leaves"], {"hub_narrowed": out["stats"].get("narrowed", 0)}


def reach(edges, leaves, a):
    """Files a reaches; a hub imported for re-exported names only is
    reached (a imports it) but not passed through."""
    seen, stack, leaf = {a}, [a], set()
    while stack:
        f = stack.pop()
        for t in edges.get(f, ()):
            if t not in seen:
                seen.add(t)
                stack.append(t)
        leaf.update(leaves.get(f, ()))
    return seen | leaf


def main():
    results = json.load(open(sys.argv[1]))
    repos = sys.argv[2]
    tally = {}
    for r in results:
        if r["language"] not in ("python", "js"):
            continue
        root = os.path.join(repos, r["name"])
        if r["language"] == "js":
            tracked = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
            edges, leaves, stats = js_name_graph(root, tracked)
        else:
            files = subprocess.run(["git", "-C", root, "ls-files", "*.py", "*.pyi"], capture_output=True, text=True, check=True).stdout.split()
            edges, leaves, stats = name_graph(root, files)
        print(r["name"], "hub imports narrowed:", stats.get("hub_narrowed", 0), file=sys.stderr)
        cache = {}
        for a in r["answers"] or []:
            if a["a"] not in cache:
                cache[a["a"]] = reach(edges, leaves, a["a"])
            a["names_true"] = a["b"] in cache[a["a"]] and a["b"] != a["a"]
            v = a.get("verdict", "")
            if a.get("error") or not v:
                continue
            for truth, key in ((a["true"], "all"), (a["runtime_true"], "runtime"), (a["names_true"], "names")):
                t = tally.setdefault((r["name"], key), [0, 0, 0])
                tt = tally.setdefault((r["language"], key), [0, 0, 0])
                i = 2 if v == "inconclusive" else 0 if (v == "likely_true") == truth else 1
                t[i] += 1
                tt[i] += 1
    json.dump(results, sys.stdout)
    for k in sorted(tally):
        print("%-12s %-8s right %4d wrong %3d inconclusive %3d" % (k[0], k[1], *tally[k]), file=sys.stderr)


if __name__ == "__main__":
    main()
