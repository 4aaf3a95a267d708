#!/usr/bin/env python3
"""server-restart-drive.py BIN ROOT RUNTIME_DIR: starts BIN --runtime-dir RUNTIME_DIR --ingest ROOT (a
full ingest the first time, a refresh from the ingest cache after), asks health once and stops;
the server logs the ingest's time in RUNTIME_DIR/err.log."""
import json, subprocess, sys, time, os
b, root, rt = sys.argv[1:4]
p = subprocess.Popen([b, "--runtime-dir", rt, "--ingest", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(rt + "/err.log", "a"), text=True)
def send(m): p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def recv(i):
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == i: return m
t = time.time()
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"qa","version":"1"}}})
recv(0); send({"jsonrpc":"2.0","method":"notifications/initialized"})
send({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"health","arguments":{"agent_id":"b"}}}); m = recv(1)
print(f"health after {time.time()-t:.1f}s:", m["result"]["content"][0]["text"][:600])
p.stdin.close(); p.wait()
