#!/usr/bin/env python3
"""An agent's first ingest: a fresh m1nd-mcp, one ingest call (issue 29).

    firstingest.py BINARY TREE RUNS

Per run: starts BINARY --runtime-dir <tmp> --no-attach --allow-root TREE
with GODEBUG=gctrace=1, sends initialize, waits 0.2 s, then one ingest call
(mode replace) of TREE over stdio, and prints one JSON line:

  client_ms  the call's round trip
  cpu_ms     the server's utime+stime from before the call to the answer
  gcs        collections the runtime traced during the call
  hwm_mb     the server's VmHWM at the answer
  answer_ms  the tool's elapsed_ms; ingest_ms and phases: its stats

Alternate binaries under `flock /tmp/m1nd-heavy.lock` and record the load
(benchmarks/results/ingest-durable2.md).
"""
import json, os, shutil, subprocess, sys, tempfile, time

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "firstingest", "version": "0"}}}
INITED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def gc_lines(path):
    with open(path) as f:
        return sum(1 for line in f if line.startswith("gc "))


def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def one(binary, tree):
    rt = tempfile.mkdtemp(prefix="m1nd-first-")
    errpath = rt + ".err"
    with open(errpath, "w") as err:
        p = subprocess.Popen([binary, "--runtime-dir", rt, "--no-attach", "--allow-root", tree],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                             env=dict(os.environ, GODEBUG="gctrace=1"), text=True)

    def send(m):
        p.stdin.write(json.dumps(m) + "\n")
        p.stdin.flush()

    def wait(i):
        for line in p.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("id") == i:
                return msg
        raise SystemExit(f"the server closed its output before answering call {i} (see {errpath})")

    try:
        send(INIT)
        wait(1)
        send(INITED)
        c0 = cpu_ms(p.pid)
        time.sleep(0.2)
        g0 = gc_lines(errpath)
        t = time.monotonic()
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "ingest", "arguments": {"agent_id": "bench", "path": tree, "mode": "replace"}}})
        msg = wait(2)
        wall = (time.monotonic() - t) * 1000
        c1 = cpu_ms(p.pid)
        gcs = gc_lines(errpath) - g0
        with open(f"/proc/{p.pid}/status") as f:
            hwm = next(line for line in f if line.startswith("VmHWM")).split()[1]
        res = msg["result"]
        sc = res.get("structuredContent") or json.loads(res["content"][0]["text"])
        if res.get("isError"):
            raise SystemExit(f"ingest failed: {json.dumps(sc)[:500]}")
        st = sc.get("stats") or {}
        return {"client_ms": round(wall, 1), "cpu_ms": c1 - c0, "gcs": gcs, "hwm_mb": round(int(hwm) / 1024),
                "answer_ms": sc["elapsed_ms"], "ingest_ms": st.get("elapsed_ms"),
                "phases": {k: round(v, 1) for k, v in (st.get("phase_ms") or {}).items()},
                "nodes": sc["graph"]["node_count"], "edges": sc["graph"]["edge_count"], "persisted": sc.get("persisted")}
    finally:
        p.stdin.close()
        p.wait()
        shutil.rmtree(rt, ignore_errors=True)
        os.remove(errpath)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    binary, tree, runs = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3])
    for _ in range(runs):
        print(json.dumps(one(binary, tree)), flush=True)


if __name__ == "__main__":
    main()
