"""Cycles of an import graph, shared by pycycles.py and tscycles.py."""


def cycles(nodes, edges, name=lambda v: v):
    """The strongly connected components of more than one node (Tarjan),
    each as the sorted names of its nodes, largest first."""
    adj = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
    idx, low, st, on, res, c = {}, {}, [], set(), [], [0]
    def dfs(v):
        idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in adj.get(v, []):
            if w not in idx:
                dfs(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: res.append(sorted(name(m) for m in comp))
    for v in sorted(nodes):
        if v not in idx: dfs(v)
    return sorted(res, key=lambda c: (-len(c), c))
