# Writes the benchmark antibodies (antibodies.json) for py-335 ("py") or go-std ("go"):
#   python3 benchmarks/immune/antibodies.py py|go OUT.json
# 19 shapes: absent edges, a regex, substring roots, and one "calls X" per common callee.
import json, sys
lang = sys.argv[1]
def n(id, label=None, typ=None, mode=None):
    d = {"id": id}
    if label: d["label"] = label
    if typ: d["type"] = typ
    if mode: d["match_mode"] = mode
    return d
def e(a, b, rel=None):
    d = {"from": a, "to": b}
    if rel: d["relation"] = rel
    return d
pats = []
if lang == "py":
    calls = ["open", "close", "read", "write", "send", "recv", "connect", "load", "dump", "encode", "decode", "join", "split"]
    pats.append(({"nodes": [n("f", "close", "function"), n("w", "write", None, "exact"), n("fl", "flush", None, "exact")], "edges": [e("f", "w", "calls")], "negative_edges": [e("f", "fl", "calls")]}, "High"))
    pats.append(({"nodes": [n("c", None, "class"), n("en", "__enter__", None, "exact"), n("ex", "__exit__", None, "exact")], "edges": [e("c", "en", "contains")], "negative_edges": [e("c", "ex", "contains")]}, "Critical"))
    pats.append(({"nodes": [n("f", "^_?parse", "function", "regex"), n("s", "split", None, "exact")], "edges": [e("f", "s", "calls")]}, "Low"))
    pats.append(({"nodes": [n("m", "lock", None), n("a", "acquire", None, "exact"), n("r", "release", None, "exact")], "edges": [e("m", "a", "calls")], "negative_edges": [e("m", "r", "calls")]}, "Critical"))
    pats.append(({"nodes": [n("f", None, "file"), n("s", "subprocess.py", None, "exact")], "edges": [e("f", "s", "imports")]}, "Medium"))
    pats.append(({"nodes": [n("a", "get", "function"), n("b", "set", "function"), n("c", "del", "function")], "edges": [e("a", "b", "calls"), e("b", "c", "calls")]}, "Low"))
else:
    calls = ["Close", "Read", "Write", "Errorf", "Open", "Lock", "Unlock", "Sprintf", "Copy", "Parse", "String", "Len", "New"]
    pats.append(({"nodes": [n("f", "Close", "function"), n("w", "Write", None, "exact"), n("fl", "Flush", None, "exact")], "edges": [e("f", "w", "calls")], "negative_edges": [e("f", "fl", "calls")]}, "High"))
    pats.append(({"nodes": [n("m", None, "function"), n("l", "Lock", None, "exact"), n("u", "Unlock", None, "exact")], "edges": [e("m", "l", "calls")], "negative_edges": [e("m", "u", "calls")]}, "Critical"))
    pats.append(({"nodes": [n("f", "^(parse|Parse)", "function", "regex"), n("s", "Split", None, "exact")], "edges": [e("f", "s", "calls")]}, "Low"))
    pats.append(({"nodes": [n("f", None, "file"), n("s", "exec.go", None, "exact")], "edges": [e("f", "s", "imports")]}, "Medium"))
    pats.append(({"nodes": [n("a", "Read", "function"), n("b", "Write", "function"), n("c", "Close", "function")], "edges": [e("a", "b", "calls"), e("b", "c", "calls")]}, "Low"))
    pats.append(({"nodes": [n("h", "Handle", None), n("x", "Exec", None)], "edges": [e("h", "x", "calls")]}, "High"))
for c in calls:
    pats.append(({"nodes": [n("f", None, "function"), n("x", c, None, "exact")], "edges": [e("f", "x", "calls")]}, "Medium"))
abs_ = []
for i, (p, sev) in enumerate(pats, 1):
    abs_.append({"id": "ab_%03d" % i, "pattern": p, "severity": sev, "description": "benchmark shape %d" % i, "enabled": True, "specificity": 0.5, "source": "manual", "created": 1767225600, "scans": 0, "matches": 0})
json.dump({"version": 1, "next_id": len(abs_) + 1, "antibodies": abs_}, open(sys.argv[2], "w"), indent=1)
print(len(abs_), "antibodies")
