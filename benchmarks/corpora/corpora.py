#!/usr/bin/env python3
"""Build m1nd's benchmark corpora from source trees every machine of this kind has.

    python3 benchmarks/corpora/corpora.py [NAME ...]          build (default: all)
    python3 benchmarks/corpora/corpora.py --check [NAME ...]  fingerprint what is there
    python3 benchmarks/corpora/corpora.py --list              names and what they hold

Sources (no downloads; each found with its own tool, or given in the environment):
    Go source tree     M1ND_GO_SRC   default: $(go env GOROOT)/src
    CPython stdlib     M1ND_PY_LIB   default: python3's sysconfig "stdlib" path
    npm's own package  M1ND_NPM_DIR  default: $(npm root -g)/npm

Each corpus becomes a plain directory of copied files, $M1ND_CORPORA/<name>
(default /tmp/m1nd-corpora/<name>), deleted and rebuilt on every run. Beside
the corpora, .manifest/<name>.files lists the files and .manifest/<name>.tsv
holds the counts and the fingerprint.

Fingerprint: the first 16 hex digits of the SHA-256 of the text
`sha256sum` prints for every file of the corpus, relative paths in byte
order ("<sha256>  <path>\\n" per file). It equals
    cd DIR && find . -type f -printf '%P\\0' | LC_ALL=C sort -z |
        xargs -0 sha256sum | sha256sum | cut -c1-16
so anyone can check a tree without this script. The recorded values are in
corpora.tsv beside this file; a build that differs exits 1 and says so
(another Go, CPython or npm version gives other bytes).

Exit status: 0 built and matching, 1 a fingerprint differs, 2 a source tree
or a name is missing.
"""

import hashlib
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CORPORA = {
    "py-335": "CPython stdlib subset sized like the original's published benchmark (<= 335 files, <= 52,000 lines)",
    "py-std": "CPython stdlib, every non-test .py file",
    "go-std": "the Go source tree: every .go file including tests and vendor, no testdata",
    "js-npm": "npm's own JavaScript (.js, .mjs, .cjs, its node_modules included)",
    "mixed": "py-335 under py/, Go's net/http under go/net/http, npm's lib/ under js/lib",
}

# CPython selection. Whole top-level entries of the stdlib (a package
# directory or a single module) are the unit, so a corpus never holds half
# a package. Test suites and GUI/demo code are left out everywhere.
PY_SKIP_TOP = {"test", "idlelib", "tkinter", "lib2to3", "site-packages", "turtledemo"}
PY_SKIP_DIR = {"test", "tests", "idle_test", "__pycache__"}
PY_MAX_FILES, PY_MAX_LINES = 335, 52000


def die(code, msg):
    print("corpora: " + msg, file=sys.stderr)
    sys.exit(code)


def tool_output(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""
    return out.strip()


def sources():
    """The three source trees, each from its environment variable or its tool."""
    go = os.environ.get("M1ND_GO_SRC")
    if not go:
        root = tool_output(["go", "env", "GOROOT"])
        go = os.path.join(root, "src") if root else ""
    py = os.environ.get("M1ND_PY_LIB")
    if not py:
        import sysconfig
        py = sysconfig.get_paths()["stdlib"]
    npm = os.environ.get("M1ND_NPM_DIR")
    if not npm:
        root = tool_output(["npm", "root", "-g"])
        npm = os.path.join(root, "npm") if root else ""
    return {"go": go, "py": py, "npm": npm}


def need(src, which, hint):
    if not src[which] or not os.path.isdir(src[which]):
        die(2, "source tree for %s not found (%r); %s" % (which, src[which], hint))
    return src[which]


def byte_sorted(paths):
    return sorted(paths, key=os.fsencode)


def count_lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def py_entry_files(lib, entry):
    """Non-test .py files of one top-level stdlib entry, relative to lib."""
    p = os.path.join(lib, entry)
    if os.path.islink(p):
        return []
    if os.path.isfile(p):
        return [entry] if entry.endswith(".py") else []
    found = []
    # os.walk does not descend into symlinked directories.
    for d, dirs, files in os.walk(p):
        dirs[:] = [x for x in dirs if x not in PY_SKIP_DIR]
        for f in files:
            fp = os.path.join(d, f)
            if f.endswith(".py") and os.path.isfile(fp) and not os.path.islink(fp):
                found.append(os.path.relpath(fp, lib))
    return found


def py_select(lib, capped):
    """Returns (files, entry rows). Capped: entries in byte order, each taken
    whole if the running totals stay within the caps, skipped otherwise
    (greedy, so the result depends only on the tree)."""
    files, rows = [], []
    nfiles = nlines = 0
    for entry in byte_sorted(os.listdir(lib)):
        if entry in PY_SKIP_TOP:
            continue
        fs = py_entry_files(lib, entry)
        if not fs:
            continue
        lines = sum(count_lines(os.path.join(lib, f)) for f in fs)
        if capped and (nfiles + len(fs) > PY_MAX_FILES or nlines + lines > PY_MAX_LINES):
            continue
        nfiles += len(fs)
        nlines += lines
        files.extend(fs)
        rows.append((entry, len(fs), lines, nfiles, nlines))
    return files, rows


def by_extension(root, exts):
    """Regular files with one of exts under root; directories named testdata
    and hidden directories are not entered."""
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "testdata" and not (x.startswith(".") and len(x) > 1)]
        for f in files:
            fp = os.path.join(d, f)
            if f.endswith(exts) and os.path.isfile(fp) and not os.path.islink(fp):
                found.append(os.path.relpath(fp, root))
    return found


def plan(name, src):
    """The corpus as a list of (source file, path inside the corpus)."""
    if name in ("py-335", "py-std"):
        lib = need(src, "py", "set M1ND_PY_LIB to CPython's Lib directory")
        files, rows = py_select(lib, name == "py-335")
        return [(os.path.join(lib, f), f) for f in files], rows
    if name == "go-std":
        go = need(src, "go", "set M1ND_GO_SRC to $(go env GOROOT)/src")
        return [(os.path.join(go, f), f) for f in by_extension(go, (".go",))], None
    if name == "js-npm":
        npm = need(src, "npm", "set M1ND_NPM_DIR to npm's package directory ($(npm root -g)/npm)")
        return [(os.path.join(npm, f), f) for f in by_extension(npm, (".js", ".mjs", ".cjs"))], None
    if name == "mixed":
        py, _ = plan("py-335", src)
        http = os.path.join(need(src, "go", "set M1ND_GO_SRC"), "net", "http")
        lib = os.path.join(need(src, "npm", "set M1ND_NPM_DIR"), "lib")
        out = [(s, os.path.join("py", d)) for s, d in py]
        out += [(os.path.join(http, f), os.path.join("go/net/http", f)) for f in by_extension(http, (".go",))]
        out += [(os.path.join(lib, f), os.path.join("js/lib", f)) for f in by_extension(lib, (".js", ".mjs", ".cjs"))]
        return out, None
    die(2, "unknown corpus %r (known: %s)" % (name, ", ".join(CORPORA)))


def measure(dest):
    """Counts and fingerprint of a corpus directory as it is on disk."""
    rel = []
    for d, _, files in os.walk(dest):
        for f in files:
            fp = os.path.join(d, f)
            if os.path.isfile(fp) and not os.path.islink(fp):
                rel.append(os.path.relpath(fp, dest))
    rel = byte_sorted(rel)
    listing = hashlib.sha256()
    lines = size = 0
    for r in rel:
        with open(os.path.join(dest, r), "rb") as f:
            data = f.read()
        lines += data.count(b"\n")
        size += len(data)
        # The line sha256sum prints (no file name here needs its escaping).
        listing.update(("%s  %s\n" % (hashlib.sha256(data).hexdigest(), r)).encode())
    return rel, (len(rel), lines, size, listing.hexdigest()[:16])


def recorded():
    want = {}
    path = os.path.join(HERE, "corpora.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if len(cols) == 5 and cols[0] != "name":
                    want[cols[0]] = (int(cols[1]), int(cols[2]), int(cols[3]), cols[4])
    return want


def row(name, st):
    return "%s\t%d\t%d\t%d\t%s" % ((name,) + st)


def main(argv):
    check = "--check" in argv
    if "--list" in argv:
        for n, what in CORPORA.items():
            print("%s\t%s" % (n, what))
        return 0
    if any(a.startswith("-") and a != "--check" for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    names = [a for a in argv if not a.startswith("-")] or list(CORPORA)
    for n in names:
        if n not in CORPORA:
            die(2, "unknown corpus %r (known: %s)" % (n, ", ".join(CORPORA)))
    out = os.environ.get("M1ND_CORPORA", "/tmp/m1nd-corpora")
    manifest = os.path.join(out, ".manifest")
    src = None if check else sources()
    want = recorded()
    status = 0
    print("name\tfiles\tlines\tbytes\tfingerprint")
    for n in names:
        dest = os.path.join(out, n)
        if check:
            if not os.path.isdir(dest):
                env = "M1ND_CORPORA=%s " % out if "M1ND_CORPORA" in os.environ else ""
                print("corpora: %s is missing; build it with: %spython3 %s %s" % (dest, env, os.path.relpath(__file__), n), file=sys.stderr)
                status = max(status, 2)
                continue
        else:
            files, rows = plan(n, src)
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            for s, d in files:
                os.makedirs(os.path.dirname(os.path.join(dest, d)), exist_ok=True)
                shutil.copyfile(s, os.path.join(dest, d))
            if rows is not None:
                os.makedirs(manifest, exist_ok=True)
                with open(os.path.join(manifest, n + ".entries"), "w") as f:
                    f.write("entry\tfiles\tlines\tcum_files\tcum_lines\n")
                    f.writelines("%s\t%d\t%d\t%d\t%d\n" % r for r in rows)
        rel, st = measure(dest)
        os.makedirs(manifest, exist_ok=True)
        with open(os.path.join(manifest, n + ".files"), "w") as f:
            f.writelines(r + "\n" for r in rel)
        with open(os.path.join(manifest, n + ".tsv"), "w") as f:
            f.write(row(n, st) + "\n")
        print(row(n, st), flush=True)
        if n in want and want[n] != st:
            print("corpora: %s differs from corpora.tsv, which records %d files, %d lines, %d bytes, fingerprint %s; "
                  "other Go, CPython or npm versions give other bytes (benchmarks/corpora/README.md)" % ((n,) + want[n]), file=sys.stderr)
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
