#!/usr/bin/env python3
"""evidence.py [MIRRORS] — the pooled precision of document_drift's findings by the evidence behind
them (drift-precision8.md). Every verdict of judged.tsv is characterised by its kind and mention
shape and, for a missing name, by what git says at the last commit where the page still said it:
gone (a def/class/module of that name existed before and is absent then), present (defined
somewhere then), never (no commit before defined it). MIRRORS holds owner+name/repo clones
(default /work/.mirror). Prints one line per evidence class: real/judged."""
import collections, json, os, re, subprocess, sys
JUDGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "judged.tsv")
MIRRORS = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"
rows = []
for l in open(JUDGED):
    if "drift-precision8.md fresh held-out" in l: break  # split9's held-out is not pooled
    if l.startswith("#") or not l.strip(): continue
    r, doc, kind, mention, v, why = (l.rstrip("\n").split("\t") + [""]*6)[:6]
    rows.append((r, doc, kind, mention, v, why))
HIST = re.compile(r"(?i)(change|history|news|release|upgrad|whats|_newsfragments|blog)")
def shape(kind, m, doc):
    if kind == "example_call_rejected": return "call"
    if kind == "code_change_unreflected":
        if m.startswith(".. ") or m.startswith("def ") or "(" in m: return "ccu-quoted-sig"
        return "ccu-surface"
    if re.search(r"(?i)python ?\d|older than|prior to", m): return "version"
    if m.startswith(("from ", "import ")): return "import"
    if re.search(r"\[.*\]$", m): return "extra"
    if m.startswith("-") or " --" in m: return "cli"
    if "=" in m: return "keyword"
    if "/" in m or re.search(r"\.(py|ini|css|tcss|toml|cfg|txt|md)$", m): return "path"
    if "." in m: return "qualname"
    return "bare"
MIR = {}
for d in os.listdir(MIRRORS):
    if "+" in d: MIR[d.split("+",1)[1].lower()] = f"{MIRRORS}/{d}/repo"
def git(m, *a):
    return subprocess.run(["git", "-C", m, *a], capture_output=True, text=True).stdout
def page_time(m, doc, mention):
    # the last commit at which the page still said it
    probe = mention[:40]
    if probe in git(m, "show", "HEAD:" + doc):
        return "HEAD"
    h = git(m, "log", "-1", "--format=%H", "-S", probe, "HEAD", "--", doc).strip()
    return h + "^" if h else "HEAD"
def names(m_):
    m_ = m_.strip().rstrip("()")
    mo = re.match(r"from\s+([\w.]+)\s+import\s+(.+)", m_)
    if mo:
        return [mo.group(1)], [n.strip().split(" as ")[0] for n in re.split(r"[,\s()]+", mo.group(2)) if n.strip() and n.strip() != "as"][:1]
    mo = re.match(r"import\s+([\w.]+)", m_)
    if mo:
        return [mo.group(1)], []
    if "/" in m_ or re.search(r"\.(py|ini|css|tcss|toml|cfg|txt|md)$", m_):
        return ["FILE:" + m_], []
    return [], [m_.split(".")[-1]]
def defined(m, c, n):
    pat = rf"^\s*(async\s+)?(def|class)\s+{re.escape(n)}\b|^{re.escape(n)}\s*[:=]|import .*\b{re.escape(n)}\b"
    return subprocess.run(["git", "-C", m, "grep", "-qE", pat, c, "--", "*.py"]).returncode == 0
def ever(m, c, n):
    return bool(git(m, "log", "-1", "--format=%h", "-G", rf"(def|class)\s+{re.escape(n)}\b", c, "--", "*.py").strip())
def modfile(m, c, mod, files_cache={}):
    p = mod.replace(".", "/")
    key = (m, c)
    if key not in files_cache:
        files_cache[key] = set(git(m, "ls-tree", "-r", "--name-only", c).split())
    fs = files_cache[key]
    return any(f.endswith(p + ".py") or f.endswith(p + "/__init__.py") or f.endswith(p + ".pyi") for f in fs)
def modever(m, c, mod):
    p = mod.replace(".", "/")
    out = git(m, "log", "--format=", "--name-only", c, "--", f"*{p}.py", f"*{p}/__init__.py")
    return bool(out.strip())
def fileat(m, c, f): return subprocess.run(["git","-C",m,"cat-file","-e",f"{c}:{f}"],capture_output=True).returncode==0
def fileever(m, c, f): return bool(git(m,"log","-1","--format=%h",c,"--",f).strip())
def evidence(repo, doc, m_):
    m = MIR.get(repo)
    if not m: return "nomirror"
    c = page_time(m, doc, m_)
    mods, ns = names(m_)
    for mod in mods:
        if mod.startswith("FILE:"):
            f = mod[5:]
            return "present" if fileat(m, c, f) else ("gone" if fileever(m, c, f) else "never")
        if not modfile(m, c, mod):
            return "gone" if modever(m, c, mod) else "never"
    q = m_.strip().rstrip("()")
    if not mods and "." in q and re.match(r"^[\w.]+$", q) and not modfile(m, c, q) and modever(m, c, q):
        return "gone"  # a dotted name may name a module a commit deleted (quart.serving)
    for n in ns:
        if not re.match(r"^\w+$", n): return "odd"
        if defined(m, c, n): return "present"
        return "gone" if ever(m, c, n) else "never"
    return "present"

out = []
for r, doc, kind, mention, v, why in rows:
    s = shape(kind, mention, doc)
    e = evidence(r.lower(), doc, mention) if kind == "missing_target" and s in ("qualname", "import", "bare", "path") else ""
    out.append((r, doc, kind, mention, v, s + ("/histpage" if HIST.search(doc) else ""), e, why))
c = collections.defaultdict(collections.Counter)
ex = collections.defaultdict(list)
for r, doc, kind, m, v, shape, e, why in out:
    hist = shape.endswith("/histpage")
    s = shape.split("/")[0]
    cls = {"call": "call_checked", "ccu-quoted-sig": "page_signature", "ccu-surface": "date_or_surface (unchecked today)",
           "version": "version_claim", "extra": "extra_claim", "keyword": "keyword_claim", "cli": "cli_claim"}.get(s)
    if cls is None:
        cls = {"gone": "removed_in_history", "present": "defined_elsewhere", "never": "never_in_history"}.get(e, "other:" + e)
        cls += f" [{s}]"
    if hist: cls = "history page (skipped today)"
    c[cls][v] += 1
    ex[cls].append((v, r, m[:50]))
for k, t in sorted(c.items(), key=lambda x: -sum(x[1].values())):
    n = t["real"] + t["false"]
    print(f"{k:45s} {t['real']:3d}/{n:3d} real  {100*t['real']/n:5.1f}%")
