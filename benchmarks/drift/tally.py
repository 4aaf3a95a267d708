#!/usr/bin/env python3
"""tally.py OUTDIR REPO [judged.tsv] — the distinct findings of document_drift over all fix
parents of one repository (ambiguous_target left out: it claims no staleness), with the
verdict of judged.tsv when one matches (repo, doc, kind, mention prefix), and the tally.
A finding seen at many parents is one finding: judged once, counted once. The unchecked leads
document_drift lists apart (date-only changes) are counted, not tallied as findings."""
import collections, glob, json, sys

outdir, repo = sys.argv[1], sys.argv[2]
verdicts = {}
if len(sys.argv) > 3:
    for l in open(sys.argv[3]):
        if l.strip() and not l.startswith("#"):
            r, doc, kind, mention, v, why = (l.rstrip("\n").split("\t") + [""] * 6)[:6]
            if r == repo:
                verdicts[(doc, kind, mention)] = (v, why)
seen = collections.OrderedDict()
unchecked = set()  # listed apart as leads, not findings (drift-precision2.md)
for p in sorted(glob.glob(f"{outdir}/{repo}/*.json")):
    for doc in json.load(open(p)).get("documents", []):  # none: no docs at that parent
        for u in doc.get("unchecked") or []:
            unchecked.add((doc["source_path"], u["mention"][:60]))
        for f in doc["findings"]:
            if f["kind"] != "ambiguous_target":
                seen.setdefault((doc["source_path"], f["kind"], f["mention"][:60]), (p[-17:-5], f))
tally = collections.Counter()
for (doc, kind, mention), (parent, f) in seen.items():
    v, why = verdicts.get((doc, kind, mention), ("?", ""))
    tally[v] += 1
    print(f"{v}\t{parent}\t{doc}\t{kind}\t{mention}\t{f.get('detail', '')[:160]}\t{why}")
real, judged = tally["real"], sum(n for k, n in tally.items() if k != "?")
print(f"# {repo} {outdir}: {len(seen)} distinct findings; judged {judged}; real {real}; false {tally['false']}; unjudged {tally['?']}")
if unchecked:
    print(f"# {repo} {outdir}: {len(unchecked)} distinct unchecked leads (listed apart, not findings)")
