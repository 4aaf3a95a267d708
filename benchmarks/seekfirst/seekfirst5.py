#!/usr/bin/env python3
"""The first seek after an ingest in the cases seekfirst.py does not time
(issue 29, seek-first5.md): as the client sees it, the real server over
stdio with a fresh runtime directory.

    python3 benchmarks/seekfirst/seekfirst5.py BIN CASE CORPUS [ARG]

CASE:
  patch  full ingest of CORPUS (a copy you may write to), ARG seconds
         (default 20) for the work behind it, then append a comment line
         to three files and ingest again with incremental: true; the
         first seek follows the patched ingest's answer at once.
  late   full ingest, then the first seek ARG seconds (default 3) after
         the answer, while the work behind it runs.
  hist   full ingest of CORPUS (a git repository: seek's rerank takes
         co-change), the first seek at once.
Prints one JSON line; the seeks are the ten queries of seekfirst.py.
"""
import json, os, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seekfirst import Client, QUERIES  # noqa: E402

PATCHED = ["net/http/server.go", "encoding/json/decode.go", "strings/strings.go"]


def seeks(c):
    out = []
    for q in QUERIES:
        ms, _ = c.tool("seek", {"agent_id": "sf", "query": q})
        out.append(round(ms, 1))
    return out


def run(binary, case, corpus, arg):
    res = {"bin": os.path.basename(binary), "case": case, "load_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory(prefix="sf5-") as rt:
        log = open(os.path.join(rt, "stderr.log"), "wb")
        c = Client([binary, "--runtime-dir", rt, "--allow-root", corpus], stderr=log)
        c.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "seekfirst5", "version": "1"}})
        c.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        ms, text = c.tool("ingest", {"agent_id": "sf", "path": corpus})
        res["ingest_ms"] = round(ms)
        if case == "patch":
            time.sleep(float(arg or 20))
            for rel in PATCHED:
                with open(os.path.join(corpus, rel), "a") as f:
                    f.write("// seekfirst5 %f\n" % time.time())
            ms, text = c.tool("ingest", {"agent_id": "sf", "path": corpus, "incremental": True})
            a = json.loads(text)
            res["patch_ms"] = round(ms)
            res["patched"] = ((a.get("stats") or {}).get("incremental") or {}).get("patched")
        elif case == "late":
            time.sleep(float(arg or 3))
        res["seek_ms"] = seeks(c)
        c.p.stdin.close()
        c.p.wait()
        log.close()
        res["log"] = [l for l in open(log.name, errors="replace").read().splitlines() if "seek" in l][-3:]
    res["load_end"] = os.getloadavg()[0]
    return res


if __name__ == "__main__":
    a = sys.argv[1:]
    print(json.dumps(run(a[0], a[1], a[2], a[3] if len(a) > 3 else None)), flush=True)
