#!/usr/bin/env python3
"""javac_contracts.py CHECKOUT [SRC_DIR] — remove each @Override method of a
Java checkout's main sources, one at a time. Truth: javac compiling the changed
file ("is not abstract and does not override abstract method"). Answer:
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
            b = text.index("{", m.end())
            semi = text.find(";", m.end())
            if 0 <= semi < b: continue  # abstract redeclaration
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
# truth
tmp = os.path.join(scratch, "tree")
truth = []
for k, (rel, sig, old, new) in enumerate(cases):
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(os.path.join(root, src), os.path.join(tmp, src))
    open(os.path.join(tmp, rel), "w").write(new)
    out = subprocess.run(["javac", "-nowarn", "-d", os.path.join(scratch, "out"), "-sourcepath", os.path.join(tmp, src), os.path.join(tmp, rel)], capture_output=True, text=True)
    truth.append("does not override abstract method" in out.stderr)
# m1nd
calls = []
for rel, sig, old, new in cases:
    calls += ["apply_batch", json.dumps({"edits": [{"file_path": rel, "new_content": new}], "verify": True, "detail": "full"})]
    calls += ["apply_batch", json.dumps({"edits": [{"file_path": rel, "new_content": old}], "verify": False})]
env = dict(os.environ, MAX="10000000")
p = subprocess.run(["python3", mcpcall, os.path.join(scratch, "runtime"), root] + calls, capture_output=True, text=True, env=env)
answers = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
tp = fp = fn = tn = 0
for k, (rel, sig, old, new) in enumerate(cases):
    a = answers[2 * k]
    v = a.get("verification", {})
    found = [f for f in v.get("removed_names_used", []) if f.get("kind") == "contract_broken"]
    sev = found[0]["severity"] if found else "-"
    t = truth[k]
    if t and found: tp += 1
    elif t: fn += 1
    elif found: fp += 1
    else: tn += 1
    print(f"{'BREAKS' if t else 'ok    '}  m1nd:{sev:8} verdict:{v.get('verdict')}  {rel.split('/')[-1]}  {sig}")
print(f"javac breaks {sum(truth)}/{len(cases)}; m1nd contract findings: tp {tp} fp {fp} fn {fn} tn {tn}")
subprocess.run(["git", "-C", root, "status", "--short"])
