#!/usr/bin/env python3
"""history.py — document_drift against documentation fixes found in git history.

  history.py run   BIN CLONE DOCS FIXES.tsv OUTDIR   check out each fix's parent in CLONE (a
                   clone of your own), ingest it and DOCS (adapter universal, merge), save
                   document_drift {"top_k": 1000} as OUTDIR/<fix>.json
  history.py match CLONE FIXES.tsv OUTDIR            per fix: the doc lines it changed (parent
                   side) and the findings at the parent on those lines (TSV)

FIXES.tsv is docfixes.py's output (hash, parent, files, subject). A finding "hits" a fix when it
is on a file the fix changed and either a changed line is at or just below its example line, or its mention's
last name occurs in a removed line of the finding's section. Hits are candidates to check by
hand, not verdicts.
"""
import json, os, re, subprocess, sys, time


def git(clone, *args):
    return subprocess.run(["git", "-C", clone, *args], capture_output=True, text=True, check=True).stdout


def checkout(clone, commit):
    """Check out commit; False when git cannot (a mirror may lack a large blob: apscheduler's five
    newest parents hold tools/dockerize, which its mirror does not have, drift-prose.md). Such a
    parent is skipped: a half-written tree would be ingested with the previous parent's files."""
    if subprocess.run(["git", "-C", clone, "checkout", "-f", "-q", "--detach", commit], capture_output=True, text=True).returncode != 0:
        return False
    git(clone, "clean", "-fdq")  # files a failed checkout left behind are no part of this parent
    return True


def mcp(binary, rt, root, calls):
    """One server over stdio, the calls in order; the last call's structured result."""
    p = subprocess.Popen([binary, "--runtime-dir", rt, "--ingest", root], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=open(rt + ".stderr", "a"), text=True)
    def send(m):
        p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
    def recv(i):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("server closed; see " + rt + ".stderr")
            m = json.loads(line)
            if m.get("id") == i:
                return m
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "drift-history", "version": "1"}}})
    recv(0)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    res = None
    for n, (tool, args) in enumerate(calls, 1):
        send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": dict(args, agent_id="h")}})
        r = recv(n).get("result") or {}
        res = r.get("structuredContent") or json.loads(r["content"][0]["text"])
    p.stdin.close(); p.wait(timeout=120)
    return res


def fixes(path):
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            h, parent, files, subject = line.rstrip("\n").split("\t")[:4]
            yield h, parent, files.split(","), subject


def run(binary, clone, docs, fixes_tsv, outdir):
    os.makedirs(outdir, exist_ok=True)
    for h, parent, _, _ in fixes(fixes_tsv):
        out = os.path.join(outdir, h + ".json")
        if os.path.exists(out):
            continue
        if not checkout(clone, parent):
            print(h, "skipped: cannot check out", parent, flush=True)
            continue
        rt = os.path.join(outdir, "rt-" + h)
        subprocess.run(["rm", "-rf", rt])
        t = time.time()
        res = mcp(binary, rt, clone, [("ingest", {"path": os.path.join(clone, docs), "adapter": "universal", "mode": "merge"}),
                                      ("document_drift", {"top_k": 1000})])
        res["harness_seconds"] = round(time.time() - t, 1)
        json.dump(res, open(out, "w"), indent=1)
        subprocess.run(["rm", "-rf", rt])
        print(h, res.get("summary", {}).get("total_findings"), res["harness_seconds"], flush=True)


CALL_LINES = 15  # how far below an example finding's line a changed line still counts
HEADING_MD = re.compile(r"^#{1,6}\s")
UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")


def heading_lines(text):
    """1-based lines where a Markdown or reST section starts."""
    ls = text.split("\n")
    out = set()
    for i, l in enumerate(ls):
        if HEADING_MD.match(l) or (i + 1 < len(ls) and l.strip() and UNDERLINE.match(ls[i + 1]) and not UNDERLINE.match(l)):
            out.add(i + 1)
    return out


def changed(clone, parent, h, f):
    """Parent-side changed lines of f and the removed lines' text by line."""
    diff = git(clone, "diff", "-U0", parent, h, "--", f)
    lines, removed = set(), {}
    cur = None
    for l in diff.split("\n"):
        m = re.match(r"^@@ -(\d+)(?:,(\d+))? \+", l)
        if m:
            start, n = int(m.group(1)), int(m.group(2) or 1)
            lines.update(range(start, start + max(n, 1)))  # n == 0: the insertion point
            cur = start
        elif l.startswith("-") and not l.startswith("---") and cur is not None:
            removed[cur] = l[1:]
            cur += 1
    return lines, removed


def hits(clone, h, parent, files, res):
    """Findings at the parent on lines the fix changed."""
    out = []
    for doc in res.get("documents", []):
        f = doc["source_path"]
        if f not in files:
            continue
        lines, removed = changed(clone, parent, h, f)
        heads = heading_lines(git(clone, "show", parent + ":" + f))
        for fd in doc["findings"]:
            if fd.get("line"):
                # An example's call or import starts on its line; the fix may
                # change only its argument lines below (up to the next heading).
                stop = min([x for x in heads if x > fd["line"]] + [fd["line"] + CALL_LINES])
                if any(fd["line"] <= n < stop for n in lines):
                    out.append((f, fd))
                continue
            start = fd["line_start"] or 1
            end = min([x for x in heads if x > start] or [10**9])
            name = re.split(r"[./]", fd["mention"].rstrip("/()"))[-1]
            if any(start <= n < end and re.search(r"\b" + re.escape(name) + r"\b", t) for n, t in removed.items()):
                out.append((f, fd))
    return out


def match(clone, fixes_tsv, outdir):
    print("fix\tfindings_at_parent\thits\tkinds\tsubject\thit_mentions")
    for h, parent, files, subject in fixes(fixes_tsv):
        p = os.path.join(outdir, h + ".json")
        if not os.path.exists(p):
            continue
        res = json.load(open(p))
        if "summary" not in res:
            continue  # an error answer: the parent has no documentation to check (a page added by the fix)
        hs = hits(clone, h, parent, files, res)
        kinds = ",".join(sorted({fd["kind"] for _, fd in hs}))
        ms = "; ".join(f'{f}:{fd.get("line") or fd["line_start"]} {fd["kind"]} {fd["mention"]}' for f, fd in hs)
        print("\t".join([h, str(res["summary"]["total_findings"]), str(len(hs)), kinds, subject, ms]))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "run":
        run(*sys.argv[2:7])
    elif cmd == "match":
        match(*sys.argv[2:5])
    else:
        raise SystemExit(__doc__)
