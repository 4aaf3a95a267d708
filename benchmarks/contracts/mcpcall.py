#!/usr/bin/env python3
"""mcpcall.py RUNTIME ROOT tool '{json}' [tool '{json}' ...] — one m1nd-mcp over stdio.
ROOT '-' = no --ingest; '@FILE' instead of the calls reads them from a JSON list. MAX=N truncates each answer's text. BIN overrides the binary."""
import json, os, subprocess, sys, time
rt, root = sys.argv[1], sys.argv[2]
calls = sys.argv[3:]
if len(calls) == 1 and calls[0].startswith("@"):  # a JSON list in a file: argv is bounded
    calls = json.load(open(calls[0][1:]))
binp = os.environ.get("BIN", "m1nd-mcp")
args = [binp, "--runtime-dir", rt] + ([] if root == "-" else ["--ingest", root])
p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(rt + ".stderr", "a") if os.path.isdir(os.path.dirname(rt) or ".") else None, text=True)
def send(o): p.stdin.write(json.dumps(o) + "\n"); p.stdin.flush()
def recv(i):
    while True:
        line = p.stdout.readline()
        if not line: raise SystemExit("server closed")
        m = json.loads(line)
        if m.get("id") == i: return m
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})
recv(0); send({"jsonrpc":"2.0","method":"notifications/initialized"})
mx = int(os.environ.get("MAX", "4000"))
for k in range(0, len(calls), 2):
    name, a = calls[k], json.loads(calls[k+1])
    if name == "_sleep": time.sleep(a["s"]); continue
    if name == "_sh": print("$", a["cmd"]); subprocess.run(a["cmd"], shell=True); continue
    a.setdefault("agent_id", "bench")
    t = time.time(); send({"jsonrpc":"2.0","id":k+1,"method":"tools/call","params":{"name":name,"arguments":a}})
    m = recv(k+1); dt = (time.time()-t)*1000
    r = m.get("result") or m.get("error")
    txt = "".join(c.get("text","") for c in (r.get("content") or [])) if isinstance(r, dict) and "content" in r else json.dumps(r)
    err = r.get("isError") if isinstance(r, dict) else None
    print(f"=== {name} {dt:.0f} ms{' ERROR' if err else ''} ({len(txt)} B)")
    print(txt[:mx])
p.stdin.close(); p.wait(timeout=120)
