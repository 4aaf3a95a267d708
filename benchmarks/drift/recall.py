#!/usr/bin/env python3
"""recall.py labels.tsv REPO MATCH.tsv — of the repository's labelled doc fixes, how many the
tool flagged at the fix's parent on a line the fix changed (history.py match output)."""
import collections, sys

labels = {}
for l in open(sys.argv[1]):
    if l.strip() and not l.startswith("#"):
        r, fix, lab, why = l.rstrip("\n").split("\t")[:4]
        if r == sys.argv[2]:
            labels[fix] = (lab, why)
hit, total = collections.Counter(), collections.Counter()
for l in list(open(sys.argv[3]))[1:]:
    fix, _, hits, kinds, subject, mentions = (l.rstrip("\n").split("\t") + [""] * 6)[:6]
    lab = labels.get(fix, ("N", ""))[0]
    total[lab] += 1
    if int(hits) > 0:
        hit[lab] += 1
        print(f"{lab}\t{fix}\t{subject}\t{mentions}")
for lab in "WIN":
    print(f"# {sys.argv[2]} {lab}: {hit[lab]}/{total[lab]} fixes flagged on their lines")
