#!/usr/bin/env python3
"""The first seek DELAY s after a full ingest's answer (issue 29, indexes-ready.md).

    python3 benchmarks/seekfirst/late.py BIN CORPUS DELAY LOGCOPY

The real server over stdio, a fresh runtime directory; the ten seekfirst.py
queries; the server's stderr is copied to LOGCOPY (run with GODEBUG=gctrace=1
to see the collections). LATE_TAIL=s keeps the server s seconds more.
"""
import json, os, sys, tempfile, time, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seekfirst import Client, QUERIES

def main(binary, corpus, delay, logcopy):
    res = {"bin": os.path.basename(binary), "delay": delay, "load_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory(prefix="irl-") as rt:
        log = open(os.path.join(rt, "stderr.log"), "wb")
        c = Client([binary, "--runtime-dir", rt, "--allow-root", corpus], stderr=log)
        c.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "late", "version": "1"}})
        c.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        ms, text = c.tool("ingest", {"agent_id": "sf", "path": corpus})
        t_answer = time.time()
        res["ingest_ms"] = round(ms)
        time.sleep(delay)
        res["sent_after_s"] = round(time.time() - t_answer, 3)
        out = []
        for q in QUERIES:
            ms, _ = c.tool("seek", {"agent_id": "sf", "query": q})
            out.append(round(ms, 1))
        res["seek_ms"] = out
        time.sleep(float(os.environ.get("LATE_TAIL", "0")))
        c.p.stdin.close(); c.p.wait(); log.close()
        shutil.copy(log.name, logcopy)
    res["load_end"] = os.getloadavg()[0]
    print(json.dumps(res), flush=True)

if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], a[1], float(a[2]), a[3])
