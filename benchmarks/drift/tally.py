#!/usr/bin/env python3
"""tally.py OUTDIR REPO [judged.tsv] [--low] — the distinct findings of document_drift over all fix
parents of one repository (ambiguous_target left out: it claims no staleness), with the
verdict of judged.tsv when one matches (repo, doc, kind, mention prefix), and the tally.
A finding seen at many parents is one finding: judged once, counted once. The unchecked leads
document_drift lists apart (date-only changes) are counted, not tallied as findings. --low tallies the lower_confidence lists instead (the first
few per document the answer lists, each with its evidence) and sums their totals."""
import collections, glob, json, sys

low = "--low" in sys.argv
sys.argv = [a for a in sys.argv if a != "--low"]
outdir, repo = sys.argv[1], sys.argv[2]
lowtotal = collections.Counter()  # parent → lower-confidence findings counted
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
        lowtotal[p] += doc.get("lower_confidence_total") or 0
        for f in (doc.get("lower_confidence") or []) if low else doc["findings"]:
            if f["kind"] != "ambiguous_target":
                seen.setdefault((doc["source_path"], f["kind"], f["mention"][:60]), (p[-17:-5], f))
tally = collections.Counter()
for (doc, kind, mention), (parent, f) in seen.items():
    v, why = verdicts.get((doc, kind, mention), ("?", ""))
    tally[v] += 1
    ev = f.get("evidence", "")
    print(f"{v}\t{parent}\t{doc}\t{kind}\t{mention}\t{ev}\t{f.get('detail', '')[:160]}\t{why}")
real, judged = tally["real"], sum(n for k, n in tally.items() if k != "?")
print(f"# {repo} {outdir}: {len(seen)} distinct findings; judged {judged}; real {real}; false {tally['false']}; unjudged {tally['?']}")
if low:
    print(f"# {repo} {outdir}: lower_confidence_total summed over parents {sum(lowtotal.values())}, at most {max(lowtotal.values(), default=0)} at one parent")
if unchecked:
    print(f"# {repo} {outdir}: {len(unchecked)} distinct unchecked leads (listed apart, not findings)")
