# raised.py REPO_DIR LANG RUNTIME N SEED: error literals of the repo, each
# turned into the message it makes, traced; is raised_at's first line the
# literal's own (or an identical literal elsewhere)? The server binary is
# $M1ND_MCP (default m1nd-mcp on PATH); RUNTIME holds the repository's graph
# (an ingest is run first when it is empty).
import json, os, random, re, subprocess, sys
def mcp_calls(rt, root, calls):
    """Runs the server on root's graph in runtime dir rt, one tools/call a pair."""
    server = os.environ.get("M1ND_MCP", "m1nd-mcp")
    p = subprocess.Popen([server, "--runtime-dir", rt], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    def send(i, method, params):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if i is not None:
            msg["id"] = i
        p.stdin.write(json.dumps(msg) + "\n"); p.stdin.flush()
        while i is not None:
            r = json.loads(p.stdout.readline())
            if r.get("id") == i:
                return r
    send(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raised", "version": "0"}})
    send(None, "notifications/initialized", {})
    out = []
    for k, (name, args) in enumerate(calls, 1):
        r = send(k, "tools/call", {"name": name, "arguments": args})
        out.append(json.loads("".join(c.get("text", "") for c in r["result"]["content"])))
    p.stdin.close(); p.wait()
    return out

root, lang, rt, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
ext = {"go": (".go",), "python": (".py",), "ts": (".ts", ".js"), "ruby": (".rb",), "php": (".php",)}[lang]
pats = {
 "go": [r'(?:fmt\.Errorf|errors\.New)\(\s*"((?:[^"\\]|\\.)*)"'],
 "python": [r'raise\s+[\w.]+\(\s*f?"((?:[^"\\]|\\.)*)"', r"raise\s+[\w.]+\(\s*f?'((?:[^'\\]|\\.)*)'"],
 "ts": [r'throw\s+new\s+\w*Error\(\s*"((?:[^"\\]|\\.)*)"', r"throw\s+new\s+\w*Error\(\s*'((?:[^'\\]|\\.)*)'", r'throw\s+new\s+\w*Error\(\s*`((?:[^`\\]|\\.)*)`'],
 # raise Foo, "msg" / raise Foo.new("msg") / raise "msg"
 "ruby": [r'raise\s+(?:[\w:]+\s*,\s*|[\w:]+\.new\(\s*)?"((?:[^"\\]|\\.)*)"', r"raise\s+(?:[\w:]+\s*,\s*|[\w:]+\.new\(\s*)?'((?:[^'\\]|\\.)*)'"],
 "php": [r'throw\s+new\s+\\?[\w\\]+\(\s*"((?:[^"\\]|\\.)*)"', r"throw\s+new\s+\\?[\w\\]+\(\s*'((?:[^'\\]|\\.)*)'"],
}[lang]
def test_path(p):
    b = os.path.basename(p)
    return "_test." in b or b.startswith("test_") or ".test." in b or ".spec." in b or "/tests/" in "/"+p or "/test/" in "/"+p or "/__tests__/" in "/"+p
lits = []
for d, ds, fs in os.walk(root):
    ds[:] = [x for x in ds if not x.startswith(".") and x not in ("node_modules", "vendor", "testdata")]
    for f in fs:
        if not f.endswith(ext): continue
        p = os.path.join(d, f); rel = os.path.relpath(p, root)
        if test_path(rel): continue
        for i, line in enumerate(open(p, errors="replace"), 1):
            for pat in pats:
                for m in re.finditer(pat, line):
                    lits.append((rel, i, m.group(1)))
def fill(s):
    s = re.sub(r"%(\([^)]*\))?[-+# 0-9.*]*[a-zA-Z]", lambda m: {"d": "42", "q": '"foo"'}.get(m.group(0)[-1], "foo"), s)
    s = re.sub(r"[#$]?\{[^{}]*\}", "foo", s)  # ${x}, {x}, Ruby's #{x}, PHP's {$x}
    if lang == "php": s = re.sub(r"\$\w+(?:->\w+)*", "foo", s)
    return s.replace("%%", "%").replace('\\"', '"').replace("\\n", " ")
random.seed(seed); random.shuffle(lits); lits = lits[:n]
def trace(msg):
    if lang == "go": return "panic: %s\n\ngoroutine 1 [running]:\nmain.main()\n\t/elsewhere/app/main.go:1 +0x1\n" % msg
    if lang == "python": return 'Traceback (most recent call last):\n  File "/elsewhere/app.py", line 1, in <module>\nValueError: %s' % msg
    if lang == "ruby": return "/elsewhere/app.rb:1:in `<main>': %s (RuntimeError)" % msg
    if lang == "php": return "PHP Fatal error:  Uncaught Exception: %s in /elsewhere/index.php:3\nStack trace:\n#0 /elsewhere/index.php(3): main()\n#1 {main}" % msg
    return "Error: %s\n    at main (/elsewhere/app.js:1:1)" % msg
calls = [("ingest", {"agent_id": "qa", "path": root})] if not os.path.isdir(rt) else []
calls += [("trace", {"agent_id": "qa", "error_text": trace(fill(lit))}) for rel, line, lit in lits]
out = mcp_calls(rt, root, calls)[-len(lits):]
ok1 = ok3 = none = nophr = 0; misses = []
for (rel, line, lit), j in zip(lits, out):
    ra = j.get("raised_at") or []
    words = [w for w in re.split(r"\s+", fill(lit)) if w]
    if not ra: none += 1; misses.append(("none", rel, line, lit[:70])); continue
    def hit(r): return (r["file_path"] == rel and r["line"] == line) or lit in r["text"]
    if hit(ra[0]): ok1 += 1
    else: misses.append(("wrong", rel, line, lit[:60], ra[0]["file_path"], ra[0]["line"], ra[0]["text"][:60]))
    if any(hit(r) for r in ra): ok3 += 1
print(json.dumps({"repo": os.path.basename(root), "literals": len(lits), "first_right": ok1, "top3_right": ok3, "none": none}))
for m in misses: print("  ", m)
