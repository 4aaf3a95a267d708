#!/usr/bin/env python3
"""idle.py BIN ROOT WAIT_S N OUT — activate_idle.py's measurement plus memory and GC.

Starts BIN (GODEBUG=gctrace=1, stderr to OUT.err) on a fresh runtime directory, ingests ROOT,
waits until the server has used < 0.05 s CPU in 5 s (at most WAIT_S), one warm call, then N
activate calls cycling through the ten questions of activate_idle.py. Prints p50, CPU per call,
collections during the calls, VmHWM (peak RSS) and VmRSS; writes every answer (elapsed_ms
zeroed) to OUT.answers.json so two binaries' answers can be compared byte for byte.
"""
import json, subprocess, sys, time, tempfile, statistics, os
b, root, wait, n, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rt = tempfile.mkdtemp(prefix="act4-")
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
t = time.time(); send({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ingest","arguments":{"agent_id":"b","path":root}}}); recv(1)
print(f"ingest {time.time()-t:.1f}s", flush=True)
t0 = time.time()
while time.time() - t0 < wait:
    c = cpu(); time.sleep(5)
    if cpu() - c < 0.05: break
print(f"idle after {time.time()-t:.0f}s from the ingest's start; RSS {status('VmRSS')} MB, peak {status('VmHWM')} MB", flush=True)
send({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"b","query":"warm up"}}}); recv(9); time.sleep(2)
qs = ["http request routing", "parse json", "tls handshake", "garbage collector", "file system walk", "regexp compile", "sort slice", "context cancel", "goroutine scheduler", "hash map"]
ts, answers = [], []
g0, c3 = gcs(), cpu()
for i in range(n):
    q = qs[i % len(qs)]
    t = time.time(); send({"jsonrpc":"2.0","id":10+i,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"b","query":q}}}); r = recv(10+i); ts.append((time.time()-t)*1000)
    sc = json.loads(r["result"]["content"][0]["text"]); sc["elapsed_ms"] = 0; answers.append(sc)
c4 = cpu(); time.sleep(0.5); g1 = gcs()
print(f"p50 {statistics.median(ts):.1f} ms  p90 {sorted(ts)[int(n*0.9)]:.1f}  min {min(ts):.1f}  cpu/call {(c4-c3)*1000/n:.1f} ms  GCs in {n} calls: {g1-g0}  RSS {status('VmRSS')} MB  peak {status('VmHWM')} MB", flush=True)
json.dump(answers, open(out + ".answers.json", "w"), sort_keys=True)
p.stdin.close(); p.wait(timeout=120)
