#!/usr/bin/env python3
"""docfixes.py REPO DOCS [LIMIT] — documentation fixes in first-parent history, as TSV.

A doc fix is a first-parent commit whose files are all documentation under DOCS
(or top-level *.md/*.rst that are not changelogs) and whose subject says it brings
the docs in line with the code. Printed: hash, parent, files, subject.
Changelog pages are left out: a fix there is history, not drift.
"""
import re, subprocess, sys

SAYS = re.compile(r"(?i)(outdated|out[- ]of[- ]date|stale|obsolete|incorrect|wrong|mismatch|inaccura|"
                  r"renam|remov|no longer|deprecat|signature|argument|parameter|keyword|kwarg|"
                  r"(update|fix|correct)\w*\s+(the\s+)?(api\s+)?(docs?|documentation|docstring|example|reference|usage|import|name|type|default)|"
                  r"(docs?|documentation|example)s?\s+(for|of|to)\s+\w+|match)")
NOT = re.compile(r"(?i)\b(typo|spelling|grammar|link|url|css|theme|sphinx|mkdocs|readthedocs|badge|sponsor|translation|changelog)\b")
HISTORY = re.compile(r"(?i)(change[-_]?log|changes|history|news|release|versions?|whats[-_]?new)[^/]*$")

def main():
    repo, docs = sys.argv[1], sys.argv[2].rstrip("/") + "/"
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    out = subprocess.run(["git", "-C", repo, "log", "--first-parent", f"-{limit}", "--format=@@%H %P%x00%s", "--name-only", "--no-renames"],
                         capture_output=True, text=True, check=True).stdout
    for block in out.split("@@")[1:]:
        head, _, rest = block.partition("\n")
        hashes, subject = head.split("\x00", 1)
        h, *parents = hashes.split()
        files = [f for f in rest.split("\n") if f.strip()]
        if not files or not parents:
            continue
        docfiles = [f for f in files if (f.startswith(docs) or "/" not in f) and f.endswith((".md", ".rst", ".txt")) and not HISTORY.search(f)]
        if len(docfiles) != len(files) or not SAYS.search(subject) or NOT.search(subject):
            continue
        print("\t".join([h[:12], parents[0][:12], ",".join(files), subject]))

main()
