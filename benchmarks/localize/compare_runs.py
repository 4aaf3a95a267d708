"""Paired, task-by-task comparison of activate between m1nd-localize runs.

Usage: compare_runs.py BASE.json[,BASE2.json] OTHER.json[,OTHER2.json] ...
Each argument is one -json output or several over disjoint repositories,
comma-separated. For each OTHER it prints how many tasks keep their top-10
files and their first-gold rank, how many rank better or worse, Acc@1 and
MRR over the tasks both ran, and activate's median latency.
"""
import json, sys, statistics
def load(fs):
    out = {}
    for f in fs.split(','):
        for r in json.load(open(f))['repos']:
            for t in r['report']['results']:
                out[(r['name'], t['commit'])] = (t['first_gold_rank'].get('activate', 0), (t.get('ranked') or {}).get('activate'), t['latency_ms'].get('activate', 0), t['nodes'])
    return out
base = load(sys.argv[1])
def metrics(d, keys):
    n = len(keys); r = [d[k][0] for k in keys]
    return (sum(1 for x in r if x == 1)/n, sum(1/x for x in r if x > 0)/n)
for f in sys.argv[2:]:
    o = load(f); keys = sorted(set(base) & set(o))
    better = worse = same_rank = same_top10 = 0; moved_repos = {}
    for k in keys:
        a, b = base[k][0] or 10**6, o[k][0] or 10**6
        if base[k][1] == o[k][1]: same_top10 += 1
        if a == b: same_rank += 1
        elif b < a: better += 1; moved_repos[k[0]] = moved_repos.get(k[0], 0) + 1
        else: worse += 1; moved_repos[k[0]] = moved_repos.get(k[0], 0) + 1
    ba, bm = metrics(base, keys); oa, om = metrics(o, keys)
    lb = statistics.median(base[k][2] for k in keys); lo = statistics.median(o[k][2] for k in keys)
    print(f"{f}: tasks {len(keys)} | top10 identical {same_top10} | first-gold rank same {same_rank}, better {better}, worse {worse} | Acc@1 {ba:.3f}->{oa:.3f} MRR {bm:.4f}->{om:.4f} | activate p50 ms {lb:.1f}->{lo:.1f} | moved by repo {moved_repos}")
