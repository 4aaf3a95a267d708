#!/usr/bin/env python3
"""server-restart-seek.py BIN ROOT RUNTIME_DIR [ingest]: starts BIN on RUNTIME_DIR, where a graph of ROOT
was saved (with "ingest": m1nd-mcp --ingest ROOT, a refresh from the ingest cache), waits WAIT seconds
(environment, default 0) after initialize, then asks seek twice and activate twice, and prints each
call's wall time. The first of each pays for any index the start did not build."""
import json, subprocess, sys, time, os
b, root, rt = sys.argv[1:4]
args = [b, "--runtime-dir", rt, "--allow-root", root]
if len(sys.argv) > 4 and sys.argv[4] == "ingest":
    args += ["--ingest", root]
t = time.time()
p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(rt + "/err.log", "a"), text=True)
def send(m): p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def recv(i):
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == i: return m
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"qa","version":"1"}}})
recv(0); send({"jsonrpc":"2.0","method":"notifications/initialized"})
out = {"init_s": round(time.time() - t, 2)}
time.sleep(float(os.environ.get("WAIT", "0")))
calls = [("seek", "parse json"), ("seek", "tls handshake"), ("activate", "garbage collector"), ("activate", "sort slice")]
for i, (tool, q) in enumerate(calls):
    t1 = time.time()
    send({"jsonrpc":"2.0","id":10+i,"method":"tools/call","params":{"name":tool,"arguments":{"agent_id":"b","query":q}}})
    m = recv(10 + i)
    out[f"{tool}{i}_ms"] = round((time.time() - t1) * 1000, 1)
    if m["result"].get("isError"): out["error"] = m["result"]["content"][0]["text"][:200]
for l in open(f"/proc/{p.pid}/status"):
    if l.startswith("VmHWM"): out["hwm_mb"] = int(l.split()[1]) // 1024
print(json.dumps(out))
p.stdin.close(); p.wait()
