#!/usr/bin/env python3
"""server-ingest-drive.py BIN ROOT OUT: one ingest through a fresh m1nd-mcp on a new runtime
directory (GODEBUG=gctrace=1, stderr to OUT.err); prints the answer's wall time, the server's CPU
from the call to the answer, collections before the answer, CPU in the 8 s after, VmHWM."""
import json, subprocess, sys, time, tempfile, os
b, root, out = sys.argv[1:4]
rt = tempfile.mkdtemp(prefix="ingN-")
env = dict(os.environ, GODEBUG="gctrace=1")
err = open(out + ".err", "w")
p = subprocess.Popen([b, "--runtime-dir", rt, "--allow-root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env)
def send(m): p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def recv(i):
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == i: return m
def cpu():
    f = open(f"/proc/{p.pid}/stat").read().split(")")[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
def status(k):
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith(k): return int(l.split()[1]) // 1024
def gcs():
    err.flush(); return sum(1 for l in open(out + ".err") if l.startswith("gc "))
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"qa","version":"1"}}})
recv(0); send({"jsonrpc":"2.0","method":"notifications/initialized"})
time.sleep(0.3); c0 = cpu(); g0 = gcs()
t = time.time(); send({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ingest","arguments":{"agent_id":"b","path":root}}}); m = recv(1)
w = time.time() - t; c1 = cpu(); g1 = gcs()
time.sleep(8); c2 = cpu()
print(json.dumps({"wall_s": round(w, 2), "cpu_s": round(c1 - c0, 2), "gcs": g1 - g0, "cpu_after8s": round(c2 - c1, 2), "hwm_mb": status("VmHWM"), "load": open("/proc/loadavg").read().split()[0]}))
p.stdin.close(); p.wait()
