#!/usr/bin/env python3
"""Module-name probes for seek (issue 27; results: benchmarks/results/seek-names.md).

  seek_names.py gen REPOS_DIR OUT.json            probes from work trees (one dir per repository)
  seek_names.py run BIN PROBES.json OUT.json REPOS_DIR   ask a real m1nd-mcp, one server per repository
  seek_names.py sum OUT.json                      first / top-3 shares
  seek_names.py gen-dirs REPOS_DIR OUT.json       directory probes ("the zapcore package")
  seek_names.py run-dirs BIN PROBES.json OUT.json REPOS_DIR
  seek_names.py sum-dirs OUT.json

gen: in each repository, the source files (git ls-files; not tests, docs,
examples, vendored or generic names such as __init__/index/main) whose stem
is unique in the repository with plural/singular and '_'/'-' folded; five
evenly spaced in path order; the query is the stem. The answer is checked
against the tree: the file the query names is the gold. node_rank is the
gold file node's rank among seek's results (top_k 20), file_rank its rank
once results are mapped to their files. seek-names-probes.json holds the
probes as generated ("stem") and a spelling variant of each ("variant":
words for snake/kebab/camel stems, else plural/singular), fixed before
any run; the repositories and commits are in seek-names-repos.tsv."""
import json, os, re, subprocess, sys, time

EXTS = {'.py', '.go', '.js', '.ts', '.mjs', '.tsx', '.jsx'}
SKIP_DIRS = {'test', 'tests', '__tests__', 'testdata', 'docs', 'doc', 'examples', 'example', 'benchmarks', 'bench', 'vendor', 'node_modules', 'scripts', 'tools', 'typings', 'types'}
GENERIC = {'__init__', '__main__', 'index', 'mod', 'lib', 'main', 'setup', 'conftest', 'noxfile'}
PER_REPO = 5

def key(stem):
    k = re.sub(r'[^a-z0-9]', '', stem.lower())
    return k[:-1] if k.endswith('s') and len(k) > 4 else k

def is_test(p):
    b = os.path.basename(p); s = os.path.splitext(b)[0].lower()
    return s.endswith(('_test', '.test', '.spec', '_spec')) or s.startswith('test_') or s == 'conftest'

def gen(root, out):
    probes = []
    for name in sorted(os.listdir(root)):
        repo = os.path.join(root, name)
        files = subprocess.run(['git', '-C', repo, 'ls-files'], capture_output=True, text=True, check=True).stdout.split('\n')
        src = [f for f in files if os.path.splitext(f)[1] in EXTS and not f.endswith('.d.ts')]
        keys = {}
        for f in src:
            keys.setdefault(key(os.path.splitext(os.path.basename(f))[0]), []).append(f)
        elig = []
        for f in sorted(src):
            st = os.path.splitext(os.path.basename(f))[0]
            parts = f.split('/')[:-1]
            if is_test(f) or st in GENERIC or len(st.strip('_')) < 3 or any(p.lower() in SKIP_DIRS or p.startswith('.') for p in parts):
                continue
            if len(keys[key(st)]) != 1:
                continue
            elig.append((f, st))
        n = len(elig)
        pick = [elig[int((i + 0.5) * n / PER_REPO)] for i in range(min(PER_REPO, n))]
        for f, st in pick:
            probes.append({'repo': name, 'query': st.strip('_'), 'gold': f})
    json.dump(probes, open(out, 'w'), indent=1)
    print(len(probes), 'probes')

class Server:
    def __init__(self, binary, root, rt):
        self.p = subprocess.Popen([binary, '--runtime-dir', rt, '--ingest', root], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=open(rt + '.stderr', 'a'), text=True)
        self.i = 0
        self.call_raw('initialize', {'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 'probe', 'version': '1'}})
        self.send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
    def send(self, m):
        self.p.stdin.write(json.dumps(m) + '\n'); self.p.stdin.flush()
    def call_raw(self, method, params):
        self.i += 1
        self.send({'jsonrpc': '2.0', 'id': self.i, 'method': method, 'params': params})
        while True:
            line = self.p.stdout.readline()
            if not line: raise SystemExit('server closed')
            m = json.loads(line)
            if m.get('id') == self.i: return m
    def tool(self, name, args):
        r = self.call_raw('tools/call', {'name': name, 'arguments': dict(args, agent_id='probe')})['result']
        if 'structuredContent' in r: return r['structuredContent']
        return json.loads(r['content'][0]['text'])
    def close(self):
        self.p.stdin.close(); self.p.wait(timeout=60)

def run(binary, probes_path, out, root):
    probes = json.load(open(probes_path))
    res = []
    by = {}
    for p in probes: by.setdefault(p['repo'], []).append(p)
    for repo, ps in by.items():
        rt = os.path.join(os.environ.get('RT_DIR', '/tmp'), 'seek-names-rt-' + os.path.basename(binary) + '-' + repo)
        s = Server(binary, os.path.join(root, repo), rt)
        for p in ps:
            d = s.tool('seek', {'query': p['query'], 'top_k': 20})
            nodes = [(r['node_id'], r.get('file_path', '')) for r in d.get('results', [])]
            files = []
            for _, fp in nodes:
                if fp and fp not in files: files.append(fp)
            node_rank = next((i + 1 for i, (nid, _) in enumerate(nodes) if nid == 'file::' + p['gold']), 0)
            file_rank = files.index(p['gold']) + 1 if p['gold'] in files else 0
            res.append(dict(p, node_rank=node_rank, file_rank=file_rank, top=[n for n, _ in nodes[:3]]))
        s.close()
    json.dump(res, open(out, 'w'), indent=1)
    summarize(res)

def summarize(res):
    n = len(res)
    for k in ('node_rank', 'file_rank'):
        f1 = sum(1 for r in res if r[k] == 1); f3 = sum(1 for r in res if 0 < r[k] <= 3)
        print(f'{k}: first {f1}/{n} ({100*f1/n:.0f} %), top-3 {f3}/{n} ({100*f3/n:.0f} %)')

# Directory probes (seek-names2.md). A directory is eligible when it holds
# two or more source files of its own (not tests), no part of its path is
# skipped (SKIP_DIRS, dot dirs), its base name (leading '_' stripped) has
# three or more letters, is no generic container name, and is unique among
# the repository's directories with plural and '_'/'-' folded. Four evenly
# spaced in path order per repository (a path part that says test, website
# or e2e is skipped too); two queries each: "the X package"
# and "X folder". Checked against the tree: dir_rank is the rank of the
# first result whose file lies directly in the directory, entry_rank that
# of the directory's entry file (ENTRY, as seek's names.go has it; 0 when
# the directory has none or it is not in the top 20).
GENERIC_DIRS = {'src', 'lib', 'pkg', 'cmd', 'internal', 'app'}
ENTRY = ['__init__.py', 'doc.go', '*.go', 'index.ts', 'index.tsx', 'index.js', 'index.mjs', 'index.jsx', 'mod.rs', 'lib.rs', 'package-info.java']
PER_REPO_DIRS = 4

def entry_of(d, files):
    base = os.path.basename(d)
    names = {os.path.basename(f): f for f in files}
    for e in ENTRY:
        e = e.replace('*', base)
        if e in names: return names[e]
    return ''

def gen_dirs(root, out):
    probes = []
    for name in sorted(os.listdir(root)):
        repo = os.path.join(root, name)
        files = subprocess.run(['git', '-C', repo, 'ls-files'], capture_output=True, text=True, check=True).stdout.split('\n')
        src = [f for f in files if os.path.splitext(f)[1] in EXTS and not f.endswith('.d.ts')]
        by = {}
        for f in src:
            by.setdefault(os.path.dirname(f), []).append(f)
        keys = {}
        for d in by:
            if d: keys.setdefault(key(os.path.basename(d).strip('_')), []).append(d)
        elig = []
        for d in sorted(by):
            b = os.path.basename(d).strip('_')
            own = [f for f in by[d] if not is_test(f)]
            if not d or len(own) < 2 or len(b) < 3 or b.lower() in GENERIC_DIRS:
                continue
            if any(p.lower() in SKIP_DIRS or p.startswith('.') or 'test' in p.lower() or p in ('website', 'e2e') for p in d.split('/')):
                continue
            if len(keys[key(b)]) != 1:
                continue
            elig.append((d, b, entry_of(d, own)))
        n = len(elig)
        for j in sorted({int((i + 0.5) * n / PER_REPO_DIRS) for i in range(min(PER_REPO_DIRS, n))}):
            d, b, e = elig[j]
            for q in ('the %s package' % b, '%s folder' % b):
                probes.append({'repo': name, 'query': q, 'dir': d, 'entry': e})
    json.dump(probes, open(out, 'w'), indent=1)
    print(len(probes), 'probes')

def go_doc_file(repo, d):
    """The Go file of directory d (path order, not tests) whose text opens
    with the package doc comment ("// Package cmp ..." before the package
    clause); '' when none. Added after the first run (seek-names2.md)."""
    full = os.path.join(repo, d)
    for b in sorted(os.listdir(full)):
        if not b.endswith('.go') or b.endswith('_test.go'):
            continue
        for line in open(os.path.join(full, b), errors='replace'):
            t = line.strip()
            if t.startswith('package '):
                break
            if t.lstrip('/').strip().startswith('Package '):
                return d + '/' + b
    return ''

def run_dirs(binary, probes_path, out, root):
    probes = json.load(open(probes_path))
    res = []
    by = {}
    for p in probes: by.setdefault(p['repo'], []).append(p)
    for repo, ps in by.items():
        rt = os.path.join(os.environ.get('RT_DIR', '/tmp'), 'seek-dirs-rt-' + os.path.basename(binary) + '-' + repo)
        s = Server(binary, os.path.join(root, repo), rt)
        for p in ps:
            d = s.tool('seek', {'query': p['query'], 'top_k': 20})
            fps = [r.get('file_path', '') for r in d.get('results', [])]
            dir_rank = next((i + 1 for i, fp in enumerate(fps) if fp and os.path.dirname(fp) == p['dir']), 0)
            entry_rank = next((i + 1 for i, fp in enumerate(fps) if p['entry'] and fp == p['entry']), 0)
            doc = p['entry'] or go_doc_file(os.path.join(root, repo), p['dir'])
            doc_rank = next((i + 1 for i, fp in enumerate(fps) if doc and fp == doc), 0)
            res.append(dict(p, doc=doc, dir_rank=dir_rank, entry_rank=entry_rank, doc_rank=doc_rank, top=[r['node_id'] for r in d.get('results', [])[:3]]))
        s.close()
    json.dump(res, open(out, 'w'), indent=1)
    summarize_dirs(res)

def summarize_dirs(res):
    n = len(res)
    for k in ('dir_rank', 'entry_rank', 'doc_rank'):
        if k not in res[0]: continue
        rs = [r for r in res if k == 'dir_rank' or r[{'entry_rank': 'entry', 'doc_rank': 'doc'}[k]]]
        f1 = sum(1 for r in rs if r[k] == 1); f3 = sum(1 for r in rs if 0 < r[k] <= 3)
        print(f'{k} ({len(rs)} probes): first {f1} ({100*f1/max(1,len(rs)):.0f} %), top-3 {f3} ({100*f3/max(1,len(rs)):.0f} %)')

if __name__ == '__main__':
    if sys.argv[1] == 'gen': gen(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == 'run': run(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif sys.argv[1] == 'sum': summarize(json.load(open(sys.argv[2])))
    elif sys.argv[1] == 'gen-dirs': gen_dirs(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == 'run-dirs': run_dirs(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif sys.argv[1] == 'sum-dirs': summarize_dirs(json.load(open(sys.argv[2])))
    else: sys.exit(__doc__)
