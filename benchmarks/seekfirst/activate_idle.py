#!/usr/bin/env python3
"""activate_idle.py BIN ROOT WAIT_S N — activate p50 through the real server (stdio).

Starts BIN on a fresh runtime directory and ingests ROOT, or with RT=<runtime dir> loads that
directory's snapshot instead; waits WAIT_S seconds, prints the server's CPU in that wait (to show
it idle), makes one warm call, then times N activate calls and prints their p50 and the server's
CPU per call (utime + stime from /proc). Used for benchmarks/RESULTS.md, 2026-11-29 sixth session.
"""
import json, subprocess, sys, time, tempfile, statistics
b, root, wait, n = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
import os
rt = os.environ.get("RT") or tempfile.mkdtemp(prefix="actp50-")
p = subprocess.Popen([b, "--runtime-dir", rt, "--allow-root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
def send(m): p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def recv(i):
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == i: return m
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"qa","version":"1"}}})
recv(0); send({"jsonrpc":"2.0","method":"notifications/initialized"})
if not os.environ.get("RT"):
  t=time.time(); send({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ingest","arguments":{"agent_id":"b","path":root}}}); r1=recv(1); print(json.dumps(r1)[:300])
  print(f"ingest {time.time()-t:.1f}s", flush=True)
def cpu():
    f=open(f"/proc/{p.pid}/stat").read().split(")")[1].split()
    return (int(f[11])+int(f[12]))/os.sysconf('SC_CLK_TCK')
c0=cpu(); time.sleep(wait); c1=cpu(); time.sleep(5); c2=cpu()
print(f"server cpu during wait {c1-c0:.1f}s, in the 5 s before the calls {c2-c1:.2f}s", flush=True)
send({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"b","query":"warm up"}}}); recv(9); time.sleep(5)
c3=cpu()
qs = ["http request routing", "parse json", "tls handshake", "garbage collector", "file system walk", "regexp compile", "sort slice", "context cancel", "goroutine scheduler", "hash map"]
ts=[]
for i in range(n):
    q=qs[i%len(qs)]
    t=time.time(); send({"jsonrpc":"2.0","id":10+i,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"b","query":q}}}); r=recv(10+i); (i<3 and print('bytes', len(json.dumps(r)))); ts.append((time.time()-t)*1000)
    sc = r.get("result",{}).get("structuredContent",{})
    if i < len(qs): print(q, f"{ts[-1]:.1f} ms", "elapsed_ms", sc.get("elapsed_ms"), flush=True)
c4=cpu(); print(f"server cpu per call {(c4-c3)*1000/n:.1f} ms"); print("p50 %.1f ms  min %.1f  max %.1f" % (statistics.median(ts), min(ts), max(ts)))
p.stdin.close(); p.wait(timeout=120)
