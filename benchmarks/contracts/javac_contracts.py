#!/usr/bin/env python3
"""javac_contracts.py CHECKOUT [SRC_DIR] — remove each @Override method of a
Java checkout's main sources, one at a time. Truth: javac compiling the changed
file ("is not abstract and does not override abstract method") against the
whole tree compiled once (CLASSPATH: the jars it needs; stubs/ stands in for
annotation jars absent here). Answer:
m1nd's apply_batch {verify: true} through the real server (a contract_broken
finding), then the file is written back. Needs mcpcall.py (beside this file,
or MCPCALL) and BIN = the m1nd-mcp binary; scratch under SCRATCH."""
import json, os, re, shutil, subprocess, sys
root = os.path.abspath(sys.argv[1])
src = sys.argv[2] if len(sys.argv) > 2 else "src/main/java"
scratch = os.environ.get("SCRATCH", "/tmp/javac-contracts")
mcpcall = os.environ.get("MCPCALL", os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcpcall.py"))
cases = []
for dp, _, fs in os.walk(os.path.join(root, src)):
    for f in fs:
        if not f.endswith(".java"): continue
        rel = os.path.relpath(os.path.join(dp, f), root)
        text = open(os.path.join(root, rel)).read()
        for m in re.finditer(r"(?m)^[ \t]+@Override\s+", text):
            start = m.start()
            b = text.find("{", m.end())
            semi = text.find(";", m.end())
            if 0 <= semi < b or b < 0: continue  # abstract redeclaration
            depth, i = 0, b
            while True:
                if text[i] == "{": depth += 1
                elif text[i] == "}":
                    depth -= 1
                    if depth == 0: break
                i += 1
            end = text.index("\n", i) + 1
            sig = text[m.end():b].strip().split("\n")[-1]
            cases.append((rel, sig, text, text[:start] + text[end:]))
print(len(cases), "cases", file=sys.stderr)
def label(t): return {True: "BREAKS", False: "ok    ", None: "OTHER "}[t]
# truth: the tree compiled once, then only the changed file against it;
# TRUTH_CACHE (a file) keeps javac's answers for the next run on the same cases
cache = os.environ.get("TRUTH_CACHE")
key = [rel + "\t" + sig for rel, sig, _, _ in cases]
cached = json.load(open(cache)) if cache and os.path.exists(cache) else None
cp = ":".join(x for x in [os.environ.get("CLASSPATH", "")] if x)
stubs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs")
base, stubout = os.path.join(scratch, "base"), os.path.join(scratch, "stubs")
def javac(out, files, cpath):
    return subprocess.run(["javac", "-nowarn", "-Xmaxerrs", "100000", "-implicit:none", "-proc:none", "-d", out, "-cp", cpath] + files, capture_output=True, text=True)
srcs = lambda d: [os.path.join(dp, f) for dp, _, fs in os.walk(d) for f in fs if f.endswith(".java")]
def truth_of():
    global cp
    if cached and cached["cases"] == key: return cached["truth"]
    t = javac_truth()
    if cache: json.dump({"cases": key, "truth": t}, open(cache, "w"))
    return t
def javac_truth():
  global cp
  shutil.rmtree(base, ignore_errors=True); shutil.rmtree(stubout, ignore_errors=True)
  javac(stubout, srcs(stubs), cp or ".")
  cp = ":".join(x for x in [base, stubout, cp] if x)
  out = javac(base, srcs(os.path.join(root, src)), cp)
  if out.returncode: raise SystemExit("the unchanged tree does not compile:\n" + out.stderr[:3000])
  tmp = os.path.join(scratch, "tree")
  shutil.rmtree(tmp, ignore_errors=True)
  files = []
  for k, (rel, sig, old, new) in enumerate(cases):
      f = os.path.join(tmp, str(k), os.path.basename(rel))
      os.makedirs(os.path.dirname(f)); open(f, "w").write(new); files.append(f)
  each = os.path.join(os.path.dirname(os.path.abspath(__file__)), "JavacEach.java")
  out = subprocess.run(["java", each, cp, os.path.join(scratch, "out")], input="\n".join(files) + "\n", capture_output=True, text=True)
  truth = [{"1": True, "0": False}.get(l) for l in out.stdout.split()]  # None: refused for something else
  if len(truth) != len(cases): raise SystemExit("JavacEach: " + out.stderr[:3000])
  return truth
truth = truth_of()
if os.environ.get("TRUTH_ONLY"):
    for t, (rel, sig, _, _) in zip(truth, cases): print(label(t), rel.split("/")[-1], sig)
    raise SystemExit(f"javac breaks {truth.count(True)}/{len(cases)}, refuses otherwise {truth.count(None)}")
# m1nd
calls = []
for rel, sig, old, new in cases:
    calls += ["apply_batch", json.dumps({"edits": [{"file_path": rel, "new_content": new}], "verify": True, "detail": "full"})]
    calls += ["apply_batch", json.dumps({"edits": [{"file_path": rel, "new_content": old}], "verify": False})]
env = dict(os.environ, MAX="10000000")
os.makedirs(scratch, exist_ok=True)
json.dump(calls, open(os.path.join(scratch, "calls.json"), "w"))
p = subprocess.run(["python3", mcpcall, os.path.join(scratch, "runtime"), root, "@" + os.path.join(scratch, "calls.json")], capture_output=True, text=True, env=env)
answers = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
def breaks_elsewhere(rel, new):
    """javac on the whole tree with the change: the changed file alone
    compiles when only another file's class stops implementing its base."""
    tree, out = os.path.join(scratch, "whole"), os.path.join(scratch, "whole-out")
    shutil.rmtree(tree, ignore_errors=True); shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(os.path.join(root, src), tree)
    open(os.path.join(tree, os.path.relpath(rel, src)), "w").write(new)
    stubs_out = os.path.join(scratch, "whole-stubs")
    javac(stubs_out, srcs(stubs), os.environ.get("CLASSPATH") or ".")
    r = javac(out, srcs(tree), ":".join(x for x in [stubs_out, os.environ.get("CLASSPATH", "")] if x))
    return "does not override abstract method" in r.stderr
tp = fp = fn = tn = elsewhere = 0
for k, (rel, sig, old, new) in enumerate(cases):
    a = answers[2 * k]
    v = a.get("verification", {})
    found = [f for f in v.get("removed_names_used", []) if f.get("kind") == "contract_broken"]
    sev = found[0]["severity"] if found else "-"
    t = truth[k]
    if t is False and any(f.get("file") != rel for f in found) and breaks_elsewhere(rel, new):
        t, elsewhere, sig = True, elsewhere + 1, sig + "  [breaks another file: whole tree]"  # javac on the whole tree says so
    if t is None: pass  # the cut broke the syntax: neither a break nor harmless
    elif t and found: tp += 1
    elif t: fn += 1
    elif found: fp += 1
    else: tn += 1
    print(f"{label(t)}  m1nd:{sev:8} verdict:{v.get('verdict')}  {rel.split('/')[-1]}  {sig}")
print(f"javac breaks {truth.count(True)}/{len(cases)} (+{elsewhere} in another file, by the whole tree), refuses otherwise {truth.count(None)}; m1nd contract findings: tp {tp} fp {fp} fn {fn} tn {tn}")
subprocess.run(["git", "-C", root, "status", "--short"])
