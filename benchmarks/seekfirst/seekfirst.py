#!/usr/bin/env python3
"""Time seeks after a fresh ingest, as the client sees them (issue 29).

Starts the real server (m1nd-mcp over stdio, line framing) with a fresh
runtime directory, ingests a corpus, then times ten seeks (each a
different query, so no answer cache can help): request written to the
response read. Prints one JSON line per run.

    python3 benchmarks/seekfirst/seekfirst.py BIN CORPUS [RUNS [SETTLE [ACTIVATE]]]

SETTLE seconds (default 0) pass between the ingest's answer and the
first seek: with enough of them the index builds and warm-ups are over,
and the first seek measures what the call itself pays once.

ACTIVATE (default 0) activate calls follow the seeks, cycling through
ACTIVATE_QUERIES (activate has no answer cache; its plasticity moves a
few hundred edge weights per call, as an agent's calls do): activate_ms
lists them, activate_p50 is the median of all but the first (which may
still wait for the query engine's build behind the ingest).
"""
import json, os, re, statistics, subprocess, sys, tempfile, time

QUERIES = [
    "parse an http request header", "gzip writer flush", "json decoder token",
    "tls handshake client hello", "goroutine scheduler preemption",
    "regexp compile syntax tree", "sort slice stable", "time format layout",
    "sql driver connection pool", "utf8 decode rune",
]

ACTIVATE_QUERIES = [
    "parse http request header", "tls handshake client certificate", "json encoder struct fields",
    "goroutine scheduler", "decode utf-8 string", "file path clean join", "timeout context cancel", "sort slice",
]


class Client:
    def __init__(self, argv, stderr=subprocess.DEVNULL):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=stderr)
        self.id = 0

    def call(self, method, params):
        self.id += 1
        msg = {"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}
        t0 = time.perf_counter()
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("server closed its output")
            m = json.loads(line)
            if m.get("id") == self.id:
                return (time.perf_counter() - t0) * 1000, m

    def tool(self, name, args):
        ms, m = self.call("tools/call", {"name": name, "arguments": args})
        res = m.get("result") or {}
        if "error" in m or res.get("isError"):
            raise RuntimeError(f"{name}: {json.dumps(m)[:400]}")
        return ms, res["content"][0]["text"]


def run(binary, corpus, settle=0.0, activates=0):
    with tempfile.TemporaryDirectory(prefix="sf3-") as rt:
        log = open(os.path.join(rt, "stderr.log"), "wb")
        c = Client([binary, "--runtime-dir", rt, "--allow-root", corpus], stderr=log)
        c.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "seekfirst", "version": "1"}})
        c.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        ingest_ms, answer = c.tool("ingest", {"agent_id": "sf", "path": corpus})
        answer = json.loads(answer)
        time.sleep(settle)
        seeks, sizes, stale = [], [], 0
        for q in QUERIES:
            ms, text = c.tool("seek", {"agent_id": "sf", "query": q})
            seeks.append(round(ms, 1))
            sizes.append(len(text))
            stale += '"stale_files"' in text
        acts = []
        for i in range(activates):
            ms, _ = c.tool("activate", {"agent_id": "sf", "query": ACTIVATE_QUERIES[i % len(ACTIVATE_QUERIES)]})
            acts.append(round(ms, 2))
        c.p.stdin.close()
        c.p.wait()
        log.close()
        # The server logs how long a large ingest's answer waited for its
        # seek index (the builds before the answer; absent in older builds).
        m = re.search(r"the answer waited (\S+) for the seek index", open(log.name, errors="replace").read())
    out = {"ingest_ms": round(ingest_ms), "answer_elapsed_ms": answer.get("elapsed_ms"),
           "ingest_elapsed_ms": (answer.get("stats") or {}).get("elapsed_ms"),
           "seek_wait": m.group(1) if m else None, "settle_s": settle, "seek_ms": seeks, "bytes": sizes, "stale": stale}
    if acts:
        out["activate_ms"] = acts
        out["activate_p50"] = round(statistics.median(acts[1:] or acts), 2)
    out["load"] = os.getloadavg()[0]
    return out


if __name__ == "__main__":
    binary, corpus = sys.argv[1], sys.argv[2]
    settle = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    activates = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    for _ in range(int(sys.argv[3]) if len(sys.argv) > 3 else 1):
        print(json.dumps({"bin": binary, **run(binary, corpus, settle, activates)}), flush=True)
