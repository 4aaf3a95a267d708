#!/usr/bin/env python3
"""drive.py BIN ROOT NWARM NTIMED OUT [ten]

Starts BIN (m1nd-mcp, GODEBUG=gctrace=1, stderr to OUT.err) on a fresh runtime directory,
initialize, ingest ROOT, wait until idle (< 0.05 s CPU in 5 s, at most 90 s), then NWARM
warm-up and NTIMED timed activate calls. Queries are taken from the corpus's functions
(the graph's function nodes): every exported top-level func of the non-test .go files, in
sorted path order, as "<package dir> <name split into words>", NWARM+NTIMED of them picked
evenly, all distinct (no repeat is served from the seed finder's cache). With "ten", the
timed calls cycle over activate-speed14's ten questions instead.
The runtime directory is removed at the end unless KEEP is set.
Prints p50/p90/min, the answers' own elapsed_ms p50 (the engine's time inside the server), server CPU a call, collections in the timed calls, VmHWM; md5 over
every timed answer (elapsed_ms zeroed, re-encoded with sorted keys) and raw md5 (the text as
sent with "elapsed_ms":... cut). Answers to OUT.answers.json.
"""
import json, subprocess, sys, time, tempfile, statistics, os, re, hashlib
b, root, nwarm, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ten = len(sys.argv) > 6 and sys.argv[6] == "ten"

def corpus_queries(root, k):
    fre = re.compile(r"^func ([A-Z][A-Za-z0-9_]*)\(", re.M)
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".go") or f.endswith("_test.go"):
                continue
            p = os.path.join(d, f)
            try:
                src = open(p, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            pkg = os.path.basename(d)
            for m in fre.finditer(src):
                words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z0-9]+|[A-Z]+", m.group(1))
                out.append(pkg + " " + " ".join(w.lower() for w in words))
    seen, uniq = set(), []
    for q in out:
        if q not in seen:
            seen.add(q); uniq.append(q)
    step = len(uniq) / k
    return [uniq[int(i * step)] for i in range(k)]

qs = corpus_queries(root, nwarm + n)
if ten:
    tq = ["http request routing", "parse json", "tls handshake", "garbage collector", "file system walk",
          "regexp compile", "sort slice", "context cancel", "goroutine scheduler", "hash map"]
    qs = qs[:nwarm] + [tq[i % 10] for i in range(n)]
rt = tempfile.mkdtemp(prefix="actN-")
env = dict(os.environ, GODEBUG="gctrace=1")
err = open(out + ".err", "w")
p = subprocess.Popen([b, "--runtime-dir", rt, "--allow-root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env)
def send(m): p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def recv(i):
    while True:
        line = p.stdout.readline()
        if not line: raise SystemExit("server closed")
        m = json.loads(line)
        if m.get("id") == i: return m, line
def cpu():
    f = open(f"/proc/{p.pid}/stat").read().split(")")[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
def status(k):
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith(k): return int(l.split()[1]) // 1024
def gcs():
    err.flush(); return sum(1 for l in open(out + ".err") if l.startswith("gc "))
def load(): return open("/proc/loadavg").read().split()[0]
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"qa","version":"1"}}})
recv(0); send({"jsonrpc":"2.0","method":"notifications/initialized"})
t = time.time(); send({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ingest","arguments":{"agent_id":"b","path":root}}}); recv(1)
print(f"ingest {time.time()-t:.1f}s", flush=True)
t0 = time.time()
while time.time() - t0 < 90:
    c = cpu(); time.sleep(5)
    if cpu() - c < 0.05: break
l0 = load()
print(f"idle after {time.time()-t:.0f}s; RSS {status('VmRSS')} MB, peak {status('VmHWM')} MB, load {l0}", flush=True)
def act(i, q):
    send({"jsonrpc":"2.0","id":i,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"b","query":q}}})
    return recv(i)
for i in range(nwarm):
    act(10 + i, qs[i])
time.sleep(1)
l1 = load()
ts, el, h, hr = [], [], hashlib.md5(), hashlib.md5()
answers = []
g0, c3 = gcs(), cpu()
cut = re.compile(r'"elapsed_ms":[0-9.e+-]+,?')
for i in range(n):
    q = qs[nwarm + i]
    t = time.perf_counter(); r, line = act(100000 + i, q); ts.append((time.perf_counter() - t) * 1000)
    if r["result"].get("isError"):
        raise SystemExit("error: " + line)
    text = r["result"]["content"][0]["text"]
    sc = json.loads(text); el.append(sc["elapsed_ms"]); sc["elapsed_ms"] = 0; answers.append(sc)
    h.update(json.dumps(sc, sort_keys=True).encode())
    hr.update(cut.sub("", text).encode())
c4 = cpu(); time.sleep(0.5); g1 = gcs()
ts_s = sorted(ts)
print(f"p50 {statistics.median(ts):.2f} ms  p90 {ts_s[int(n*0.9)]:.2f}  min {ts_s[0]:.2f}  elapsed_ms p50 {statistics.median(el):.2f}  cpu/call {(c4-c3)*1000/n:.2f} ms  "
      f"GCs {g1-g0}  VmHWM {status('VmHWM')} MB  load {l0}/{l1}->{load()}  md5 {h.hexdigest()[:10]} raw {hr.hexdigest()[:10]}  end {time.strftime('%H:%M:%S', time.gmtime())}", flush=True)
json.dump({"queries": qs[nwarm:], "times": ts, "answers": answers}, open(out + ".answers.json", "w"), sort_keys=True)
p.stdin.close(); p.wait(timeout=120)
if not os.environ.get("KEEP"):  # the runtime directory (≈ 110 MB on go-std); KEEP=1 keeps it
    import shutil; shutil.rmtree(rt, ignore_errors=True)
