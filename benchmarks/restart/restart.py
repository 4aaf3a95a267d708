#!/usr/bin/env python3
"""Time a restart of m1nd-mcp on a tree with nothing changed (issue 23).

    restart.py BINARY TREE [--runs N] [--hold SECONDS] [--rt DIR]

Starts BINARY --runtime-dir RT --ingest TREE once to fill RT (a fresh
ingest, not timed), then N more times with nothing changed on disk. Each
run sends initialize and a health call on stdin and records:

  ready_s    spawn to the health answer (what a client waits for)
  ingest_s   the start-up ingest's own time ("ingested ... in T" on stderr)
  cpu_s      user+sys CPU of the process until it exits: stdin is held open
             HOLD seconds after the answer, so background work started at
             start (query engine, seek index warm-up) is counted too

and prints one JSON line per run, then the medians.
"""
import argparse, json, os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "restart-bench", "version": "0"}}}
INITED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
HEALTH = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "health", "arguments": {"agent_id": "bench"}}}


def run(binary, tree, rt, hold):
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen([binary, "--runtime-dir", rt, "--ingest", tree],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for m in (INIT, INITED, HEALTH):
        p.stdin.write(json.dumps(m) + "\n")
    p.stdin.flush()
    ready = None
    for line in p.stdout:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("id") == 2:
            ready = time.monotonic() - start
            break
    time.sleep(hold)
    p.stdin.close()
    p.stdout.read()
    err = p.stderr.read()
    p.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"ingested \S+: (\d+) nodes, (\d+) edges in ([0-9.]+)(ms|s)", err)
    ingest = None
    if m:
        ingest = float(m.group(3)) / (1000 if m.group(4) == "ms" else 1)
    return {"ready_s": round(ready, 3) if ready else None, "ingest_s": ingest, "cpu_s": round(cpu, 2),
            "nodes": int(m.group(1)) if m else None, "exit": p.returncode}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tree")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--hold", type=float, default=10.0)
    ap.add_argument("--rt", help="runtime directory (default: a new temporary one)")
    a = ap.parse_args()
    rt = a.rt or tempfile.mkdtemp(prefix="m1nd-restart-")
    first = run(a.binary, a.tree, rt, a.hold)
    print(json.dumps({"fresh": first, "load": os.getloadavg()}), flush=True)
    rows = []
    for i in range(a.runs):
        r = run(a.binary, a.tree, rt, a.hold)
        r["load"] = [round(x, 2) for x in os.getloadavg()]
        rows.append(r)
        print(json.dumps(r), flush=True)
    med = {k: statistics.median([r[k] for r in rows if r[k] is not None]) for k in ("ready_s", "ingest_s", "cpu_s")}
    print(json.dumps({"median": med}), flush=True)
    if not a.rt:
        shutil.rmtree(rt, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
