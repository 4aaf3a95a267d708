#!/usr/bin/env python3
"""The reliability probe of issue 23: one seek of 1 MB of short words on a
server that has learned, an incremental ingest behind it, and other calls.

    seekprobe.py BINARY TREE [--wait SECONDS]

TREE is copied to a temporary directory (a file of it is edited to make the
ingest publish a new graph). Prints when each call answered, in seconds
after the seek was sent ("-" = no answer within --wait).
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, threading, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tree")
    ap.add_argument("--wait", type=float, default=60)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="m1nd-seekprobe-")
    repo = os.path.join(tmp, "repo")
    shutil.copytree(a.tree, repo, ignore=shutil.ignore_patterns(".git", ".m1nd"))
    p = subprocess.Popen([a.binary, "--runtime-dir", os.path.join(tmp, "rt"), "--ingest", repo],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    answered, lock = {}, threading.Lock()
    got = threading.Condition(lock)

    def reader():
        for line in p.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "id" in msg:
                with got:
                    answered[msg["id"]] = (time.monotonic(), msg)
                    got.notify_all()

    threading.Thread(target=reader, daemon=True).start()

    def send(obj):
        p.stdin.write(json.dumps(obj) + "\n")
        p.stdin.flush()

    def call(i, name, args):
        send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": dict(args, agent_id="probe")}})

    def wait(i, timeout):
        with got:
            got.wait_for(lambda: i in answered, timeout)
            return answered.get(i)

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    wait(1, 600)
    call(2, "glob", {"pattern": "**/*.go", "top_k": 1})
    r = wait(2, 60)
    first = json.loads(r[1]["result"]["content"][0]["text"])["files"][0]
    path = first["file_path"]
    call(3, "learn", {"query": "validate parse file", "feedback": "correct", "node_ids": ["file::" + path]})
    wait(3, 60)
    rnd = random.Random(1)
    words = []
    size = 0
    while size < (1 << 20) - 16:
        w = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(2, 6)))
        words.append(w)
        size += len(w) + 1
    t0 = time.monotonic()
    call(10, "seek", {"query": " ".join(words)})
    time.sleep(1)
    with open(os.path.join(repo, path), "a") as f:
        f.write("\n// probe\n")
    call(11, "ingest", {"path": repo, "incremental": True})
    time.sleep(1)
    call(12, "health", {})
    call(13, "glob", {"pattern": "**/*.go", "top_k": 3})
    call(14, "seek", {"query": "parse a file"})
    rows = {}
    for i, name in [(10, "seek 1 MB"), (11, "ingest (queued)"), (12, "health"), (13, "glob"), (14, "seek small")]:
        r = wait(i, max(0.1, a.wait - (time.monotonic() - t0)))
        rows[name] = round(r[0] - t0, 2) if r else "-"
        if r and i == 10:
            res = json.loads(r[1]["result"]["content"][0]["text"])
            rows["seek note"] = res.get("query_note", res.get("error", ""))[:80]
    print(json.dumps(rows))
    p.kill()
    p.wait()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
