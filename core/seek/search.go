package seek

import (
	"cmp"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// idealTerms is how many of the strongest query terms define one match
// unit: a node carrying them all at full strength scores x ≈ 1 however
// long the query is, so scores of three-word queries and of pasted bug
// reports read on the same scale.
const idealTerms = 5

// Evidence weights of stack frames and symbols, in match units.
const (
	frameFile      = 1.0  // the frame's file, per unit of path strength
	frameEntity    = 0.8  // the innermost entity containing the frame's line
	frameOuter     = 0.3  // enclosing entities containing the line
	frameFunc      = 0.6  // an entity of the frame's file named like its function
	frameFuncAny   = 0.3  // an entity elsewhere named like an unplaced frame's function
	proseMention   = 0.8  // depth weight of a file mentioned in prose
	symbolMatch    = 0.35 // a node named exactly like a code symbol of the query
	maxSymbolNodes = 50   // symbols naming more nodes than this are too common to count
	componentFile  = 0.3  // a file under the component a title names ("net/http: ...")
	componentInner = 0.1  // a matching entity in such a file
	maxTrace       = 2.5  // cap of the stack-trace evidence per node
	fileBest       = 0.9  // a file's floor, as a fraction of its best entity
	centralScore   = 0.01 // the most central file's score when nothing matched
)

// scratch is one search's per-node state, pooled per index. Slots are
// cleared lazily: a node's slot is zeroed when a search first touches it
// (epoch stamps), so a query costs what it touches, not the graph size.
type scratch struct {
	epoch uint32
	// at holds each node's slot: a search reads and writes a touched
	// node's evidence together, so one slot per node is one or two cache
	// lines where nine arrays were nine (go-std: 9 K nodes touched by a
	// three-word question, 28 K at p90).
	at      []slot
	touched []graph.NodeID
	// cands, src and files are the candidate lists of Search and fuse,
	// kept with the scratch: they were most of a search's allocations
	// (go-std: 0.4 MB a call of 0.77 MB an activate).
	cands, src, files []graph.Scored
}

// slot is one node's evidence in a search.
type slot struct {
	mark                         uint32 // the epoch that touched it
	lex, trace, graphv, co, base float32
	agg                          [3]float32 // a file's best three entities
	frame                        int32      // index+1 of the frame that points at the node
	frameW                       float32
}

func (x *Index) getScratch() *scratch {
	s, ok := x.pool.Get()
	if !ok {
		s = x.newScratch()
	}
	s.epoch++
	if s.epoch == 0 {
		for i := range s.at {
			s.at[i].mark = 0
		}
		s.epoch = 1
	}
	s.touched = s.touched[:0]
	return s
}

func (x *Index) putScratch(s *scratch) { x.pool.Put(s) }

// newScratch allocates one search's per-node slots (44 bytes a node:
// 5.3 MB on go-std's 120 K nodes, zeroed and faulted in on first touch).
func (x *Index) newScratch() *scratch {
	x.scratchMade.Add(1)
	return &scratch{at: make([]slot, x.n)}
}

func (s *scratch) touch(n graph.NodeID) {
	a := &s.at[n]
	if a.mark == s.epoch {
		return
	}
	*a = slot{mark: s.epoch}
	s.touched = append(s.touched, n)
}

type usedTerm struct {
	id   uint32
	text string
	w    float32
	df   int
	// from is the query term an expansion came from ("" for the query's
	// own terms).
	from string
}

// SearchText parses text and searches for it. A question asked of the
// index before takes the lexical part of its search from a cache
// (cache.go); the rerank, which reads learned weights, runs every time.
func (x *Index) SearchText(text string, p Params) Result {
	if text == "" || len(text) > lexCacheQueryMax {
		return x.Search(ParseQuery(text), p)
	}
	return x.search(text, Query{}, p)
}

// Search ranks the graph's nodes against q.
func (x *Index) Search(q Query, p Params) Result { return x.search("", q, p) }

// search ranks the graph's nodes against q, or against text when it is
// set (then q is parsed from it only when the cache has not seen it).
func (x *Index) search(text string, q Query, p Params) Result {
	topK := p.TopK
	if topK <= 0 {
		topK = DefaultTopK
	}
	maxTerms := p.MaxTerms
	if maxTerms <= 0 {
		maxTerms = DefaultMaxTerms
	}
	if x.n == 0 {
		if text != "" {
			q = ParseQuery(text)
		}
		return Result{Frames: q.Frames, Symbols: q.Symbols}
	}
	s := x.getScratch()
	defer x.putScratch(s)
	q, terms := x.lexical(text, q, maxTerms, s)
	res := Result{Frames: q.Frames, Symbols: q.Symbols}
	for _, t := range terms {
		res.Terms = append(res.Terms, WeightedTerm{Term: t.text, Weight: t.w, DF: t.df, From: t.from})
	}
	if p.GraphRerank {
		x.fuse(s, p)
	}
	prior := x.priorFunc(q, p)
	x.nameEvidence(s, q, terms, prior, p.GraphRerank)
	res.Candidates = len(s.touched)
	if p.GraphRerank && res.Candidates == 0 {
		x.centralFiles(s)
	}

	// Filter and rank.
	var typeOK [256]bool
	for _, t := range p.Types {
		typeOK[t] = true
	}
	scope := normScope(p.Scope)
	fb := feedbackMap(p)
	// squash(t) >= MinScore  ⟺  t >= −ln(1 − MinScore)/2: compare match
	// units, not squashed scores, in the loop over every candidate.
	tmin := float32(0)
	if p.MinScore > 0 {
		tmin = float32(-math.Log(1-math.Min(float64(p.MinScore), 0.999999)) / 2)
	}
	cands := s.cands[:0]
	for _, n := range s.touched {
		if len(p.Types) > 0 && !typeOK[x.g.Type(n)] {
			continue
		}
		if scope != "" && !x.inScope(n, scope) {
			continue
		}
		if p.ExcludeTests && x.kind[n]&kindTest != 0 {
			continue
		}
		t := x.total(s, n, p.GraphRerank) * prior(n)
		if f, ok := fb[n]; ok {
			t = withFeedback(t, f)
		}
		if !(t > 0) || t < tmin || !graph.IsFinite(t) {
			continue
		}
		cands = append(cands, graph.Scored{Node: n, Score: t})
	}
	s.cands = cands
	top := graph.SelectTop(cands, topK)
	res.Hits = make([]Hit, 0, len(top))
	for _, c := range top {
		pr := prior(c.Node)
		b := x.breakdown(s, c.Node, p.GraphRerank).scale(pr)
		if _, ok := fb[c.Node]; ok {
			b.Feedback = graph.Finite(c.Score - b.Total())
		}
		h := Hit{Node: c.Node, Score: squash(c.Score), Breakdown: b, Prior: pr, Matched: x.matched(c.Node, terms)}
		if fi := s.at[c.Node].frame; fi > 0 {
			f := q.Frames[fi-1]
			h.Frame = &f
		}
		res.Hits = append(res.Hits, h)
	}
	return res
}

// lexicalFresh is the lexical part of a search (cache.go): the query's
// weighted terms and expansions summed over their postings, and the
// stack-trace and symbol evidence, into s; it returns the terms used.
func (x *Index) lexicalFresh(q Query, maxTerms int, s *scratch) []usedTerm {
	terms := x.weighTerms(q, maxTerms)
	if len(terms) == 0 && len(q.Frames) == 0 && len(q.Symbols) == 0 {
		// "fix traceback chdir issue": when only report words are left,
		// they are all the query has ("traceback" names rich/traceback.py).
		terms = x.weighTerms(Query{Terms: noiseTerms(q.Text)}, maxTerms)
	}
	var ideal float32
	for i := 0; i < len(terms) && i < idealTerms; i++ {
		ideal += terms[i].w
	}
	// Expansions count towards matches but not towards the ideal: a node
	// matching only synonyms is a weaker match than one matching the
	// words themselves.
	terms = append(terms, x.expand(q, terms)...)
	for _, t := range terms {
		scale := t.w / ideal / math.MaxUint16
		lo, hi := x.off[t.id], x.off[t.id+1]
		for k := lo; k < hi; k++ {
			n := x.pnode[k]
			s.touch(n)
			s.at[n].lex += scale * float32(x.psat[k])
		}
	}
	x.traceEvidence(q, s)
	for _, n := range s.touched {
		s.at[n].trace = min(s.at[n].trace, maxTrace)
		s.at[n].base = s.at[n].lex + s.at[n].trace
	}
	return terms
}

// noiseTerms are the terms of text with the report words ("fix",
// "issue", "traceback") kept.
func noiseTerms(text string) []QueryTerm {
	var tok tokenizer
	idx := map[string]int{}
	var out []QueryTerm
	tok.terms([]byte(text), func(w []byte) {
		if i, ok := idx[string(w)]; ok {
			out[i].Count++
			return
		}
		if len(out) < MaxQueryTerms {
			idx[string(w)] = len(out)
			out = append(out, QueryTerm{Term: string(w), Count: 1, Boost: 1})
		}
	})
	return out
}

// centralFiles answers a query nothing matched ("Fix typo") with the
// code files by centrality, at a token score (centralScore match units at
// most): the files most code depends on are the likeliest subject of a
// report that names nothing.
func (x *Index) centralFiles(s *scratch) {
	for i := 0; i < x.n; i++ {
		n := graph.NodeID(i)
		if x.fileOf[n] == n && x.kind[n] == 0 {
			s.touch(n)
			s.at[n].graphv = centralScore * float32(1+int(x.prRank[n])) / 256
		}
	}
}

// feedbackMap indexes Params.Feedback; nil when graph fusion is off (pure
// text matches) or there is none.
func feedbackMap(p Params) map[graph.NodeID]float32 {
	if !p.GraphRerank || len(p.Feedback) == 0 {
		return nil
	}
	m := make(map[graph.NodeID]float32, len(p.Feedback))
	for _, f := range p.Feedback {
		if graph.IsFinite(f.Score) {
			m[f.Node] = finite.Clamp(f.Score, -1, 1)
		}
	}
	return m
}

// withFeedback moves a total t (match units) by learned relevance f in
// (−1, 1) the way activation does, on the squashed score s = 1 − e^(−2t):
// s + (1 − s)·f when f > 0, s·(1 + f) when f < 0; and returns it in match
// units again.
func withFeedback(t, f float32) float32 {
	s := float64(squash(t))
	if f > 0 {
		s += (1 - s) * float64(f)
	} else {
		s *= 1 + float64(f)
	}
	s = math.Min(s, 1-1e-6)
	return graph.Finite(float32(-math.Log(1-s) / 2))
}

// breakdown reads a node's components; without graph fusion only the
// lexical and stack-trace evidence count.
func (x *Index) breakdown(s *scratch, n graph.NodeID, fused bool) Breakdown {
	b := Breakdown{Lexical: fin(s.at[n].lex), StackTrace: fin(s.at[n].trace)}
	if fused {
		b.Graph = fin(s.at[n].graphv)
		b.PageRank = fin(s.at[n].base * x.opts.Fusion.PageRank * float32(x.prRank[n]) / 255)
		b.CoChange = fin(s.at[n].co)
	}
	return b
}

// total is breakdown(s, n, fused).Total() without building the breakdown
// (it runs for every candidate).
func (x *Index) total(s *scratch, n graph.NodeID, fused bool) float32 {
	t := s.at[n].lex + s.at[n].trace
	if fused {
		t += s.at[n].graphv + s.at[n].co + s.at[n].base*x.opts.Fusion.PageRank*float32(x.prRank[n])/255
	}
	return t
}

// scale multiplies every component by f.
func (b Breakdown) scale(f float32) Breakdown {
	if f == 1 {
		return b
	}
	return Breakdown{b.Lexical * f, b.StackTrace * f, b.Graph * f, b.PageRank * f, b.CoChange * f, b.Feedback * f}
}

// priorFunc returns the kind prior of a search: with graph re-ranking on,
// tests (unless the query speaks of tests), non-code files, fixtures,
// type stubs and directories are discounted; without it, scores stay pure text matches.
func (x *Index) priorFunc(q Query, p Params) func(graph.NodeID) float32 {
	kp, tp := x.opts.Fusion.KindPrior, x.opts.Fusion.TestPrior
	if tp == 0 {
		tp = kp
	}
	if !p.GraphRerank || kp == 1 && tp == 1 {
		return func(graph.NodeID) float32 { return 1 }
	}
	mask := kindNotCode | kindFixture | kindDir | kindStub
	if !aboutTests(q) {
		mask |= kindTest
	}
	return func(n graph.NodeID) float32 {
		f := float32(1)
		k := x.kind[n] & mask
		if k&kindTest != 0 {
			f, k = tp, k&^kindTest
		}

		for ; k != 0; k &= k - 1 {
			f *= kp
		}
		return f
	}
}

// aboutTests reports whether a query asks for tests: a test word among
// its first line's terms. A bug report's body often says "added a test"
// without being about tests.
func aboutTests(q Query) bool {
	if q.Text == "" { // a Query built by hand: its terms are all there is
		for _, t := range q.Terms {
			if isTestWord(t.Term) {
				return true
			}
		}
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(q.Text), "\n")
	var tok tokenizer
	found := false
	tok.terms([]byte(first), func(w []byte) { found = found || isTestWord(string(w)) })
	return found
}

func isTestWord(w string) bool {
	switch w {
	case "test", "unittest", "pytest", "spec", "bench", "benchmark", "fuzz":
		return true
	}
	return false
}

func fin(v float32) float32 {
	if !graph.IsFinite(v) || v < 0 {
		return 0
	}
	return v
}

// weighTerms returns the query's known terms with their weights
// (boost × (1 + ln count) × IDF), strongest first, capped at maxTerms.
func (x *Index) weighTerms(q Query, maxTerms int) []usedTerm {
	var out []usedTerm
	seen := map[uint32]int{}
	add := func(t QueryTerm, term, from string) {
		id, ok := x.vocab.lookup(term)
		if !ok {
			return
		}
		df := int(x.off[id+1] - x.off[id])
		if df == 0 {
			return
		}
		boost := float64(t.Boost)
		if !(boost > 0) || math.IsInf(boost, 0) {
			boost = 1
		}
		w := float32(boost*(1+math.Log(float64(max(1, t.Count))))) * x.termIDF(id, df)
		if !(w > 0) || !graph.IsFinite(w) {
			return
		}
		if i, ok := seen[id]; ok {
			out[i].w = max(out[i].w, w)
			if from == "" {
				out[i].from = "" // the query's own word too
			}
			return
		}
		seen[id] = len(out)
		out = append(out, usedTerm{id: id, text: term, w: w, df: df, from: from})
	}
	for _, t := range q.Terms {
		if _, ok := x.vocab.lookup(t.Term); ok {
			add(t, t.Term, "")
			continue
		}
		// A word the index does not know, written as one where code
		// writes two ("filesystem"), is searched as its two parts.
		for _, part := range x.compoundParts(t.Term) {
			add(t, part, t.Term)
		}
	}
	slices.SortFunc(out, func(a, b usedTerm) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	return out[:min(len(out), maxTerms)]
}

// termIDF blends the node-level IDF with the file-level one
// (Options.FileIDF is the file level's share, as an exponent).
func (x *Index) termIDF(id uint32, df int) float32 {
	a := x.opts.FileIDF
	if a == 0 || len(x.fdf) == 0 || len(x.filePaths) == 0 {
		return x.idf(df)
	}
	nf := float64(len(x.filePaths))
	fd := math.Min(float64(x.fdf[id]), nf)
	fidf := math.Log(1 + (nf-fd+0.5)/(fd+0.5))
	return float32(math.Pow(float64(x.idf(df)), float64(1-a)) * math.Pow(fidf, float64(a)))
}

// matched lists the terms node n carries, strongest contribution first.
func (x *Index) matched(n graph.NodeID, terms []usedTerm) []string {
	type mc struct {
		t string
		c float32
	}
	var ms []mc
	for _, t := range terms {
		lo, hi := int(x.off[t.id]), int(x.off[t.id+1])
		if k, ok := slices.BinarySearch(x.pnode[lo:hi], n); ok {
			ms = append(ms, mc{t.text, t.w * float32(x.psat[lo+k])})
		}
	}
	slices.SortStableFunc(ms, func(a, b mc) int { return cmp.Compare(b.c, a.c) })
	out := make([]string, 0, min(len(ms), 8))
	for i := 0; i < len(ms) && i < 8; i++ {
		out = append(out, ms[i].t)
	}
	return out
}

// pathMatch is a source path a frame's path may name.
type pathMatch struct {
	path     string
	strength float32
}

// matchPath finds the indexed source paths a trace path names. A source
// path that is a whole suffix of it ("/home/ci/repo/app/auth.py" names
// "app/auth.py") is certain; fewer shared trailing segments are weaker,
// and a tie between several files splits the strength among them.
func (x *Index) matchPath(p string) []pathMatch {
	segs := strings.Split(p, "/")
	base := strings.ToLower(segs[len(segs)-1])
	cands := x.byBase[base]
	if len(cands) == 0 {
		return nil
	}
	best := 0
	var bestS float32
	var out []pathMatch
	for _, c := range cands {
		cs := strings.Split(c, "/")
		m := 0
		for m < len(cs) && m < len(segs) && strings.EqualFold(cs[len(cs)-1-m], segs[len(segs)-1-m]) {
			m++
		}
		var st float32
		switch {
		case m == 0:
			continue
		case m == len(cs):
			st = 1
		case m >= 2:
			st = 0.75
		default:
			st = 0.5
		}
		if m > best || (m == best && st > bestS) {
			best, bestS, out = m, st, out[:0]
		}
		if m == best && st == bestS {
			out = append(out, pathMatch{c, st})
		}
	}
	if len(out) > 1 {
		for i := range out {
			out[i].strength /= float32(len(out))
		}
	}
	return out
}

// depthWeight discounts frames far from where the error surfaced.
func depthWeight(f Frame) float32 {
	if f.Lang == "path" {
		return proseMention
	}
	return max(0.3, float32(math.Pow(0.85, float64(min(f.Depth, 50)))))
}

// traceEvidence adds what stack frames, file mentions and code symbols
// say about nodes.
func (x *Index) traceEvidence(q Query, s *scratch) {
	g := x.g
	add := func(n graph.NodeID, v float32, fi int) {
		if !(v > 0) {
			return
		}
		s.touch(n)
		s.at[n].trace += v
		if fi >= 0 && v > s.at[n].frameW {
			s.at[n].frameW = v
			s.at[n].frame = int32(fi + 1)
		}
	}
	for fi, f := range q.Frames {
		dw := depthWeight(f)
		fn := compactLower(f.Func)
		placed := false
		for _, m := range x.matchPath(f.Path) {
			file, ok := x.files[m.path]
			if !ok {
				continue
			}
			placed = true
			st := m.strength * dw
			add(file, frameFile*st, fi)
			if f.Line <= 0 && fn == "" {
				continue
			}
			var inner graph.NodeID = graph.NoNode
			var innerSpan uint32
			var containing []graph.NodeID
			for _, n := range g.NodesByPath(m.path) {
				t := g.Type(n)
				if t == graph.File || t == graph.Directory {
					continue
				}
				if fn != "" && x.labelKey(n) == fn {
					add(n, frameFunc*st, fi)
				}
				if f.Line > 0 {
					pv := g.Provenance(n)
					if pv.LineStart > 0 && int(pv.LineStart) <= f.Line && f.Line <= int(max(pv.LineEnd, pv.LineStart)) {
						containing = append(containing, n)
						span := max(pv.LineEnd, pv.LineStart) - pv.LineStart
						if inner == graph.NoNode || span < innerSpan {
							inner, innerSpan = n, span
						}
					}
				}
			}
			for _, n := range containing {
				if n == inner {
					add(n, frameEntity*st, fi)
				} else {
					add(n, frameOuter*st, fi)
				}
			}
		}
		if !placed && fn != "" {
			ns := x.nodesNamed(fn)
			if len(ns) > 0 && len(ns) <= maxSymbolNodes {
				v := frameFuncAny * dw / (1 + float32(math.Log(float64(len(ns)))))
				for _, n := range ns {
					add(n, v, fi)
				}
			}
		}
	}
	if len(q.Components) > 0 {
		in := map[graph.NodeID]bool{}
		for _, c := range q.Components {
			for _, f := range x.componentFiles(c) {
				in[f] = true
			}
		}
		for f := range in {
			add(f, componentFile, -1)
		}
		for _, n := range s.touched {
			if f := x.fileOf[n]; f != n && in[f] && s.at[n].lex > 0 {
				add(n, componentInner, -1)
			}
		}
	}
	for _, sym := range q.Symbols {
		ns := x.nodesNamed(sym)
		if len(ns) == 0 || len(ns) > maxSymbolNodes {
			continue
		}
		v := symbolMatch / (1 + float32(math.Log(float64(len(ns)))))
		for _, n := range ns {
			add(n, v, -1)
		}
	}
}

// componentFiles returns the files under the directory a component
// names ("core/analysis", "snapshot"); a slash-separated list that names
// no directory ("seed/semantic") counts part by part, and a name that is
// no directory may be a file stem ("auth" for auth.py). A component
// covering more than half the files says nothing and yields none.
func (x *Index) componentFiles(c string) []graph.NodeID {
	match := func(pred func(p string) bool) []graph.NodeID {
		var out []graph.NodeID
		for _, p := range x.filePaths {
			if pred(p) {
				out = append(out, x.files[p])
			}
		}
		return out
	}
	inDir := func(c string) []graph.NodeID {
		seg := "/" + c + "/"
		return match(func(p string) bool { return strings.Contains("/"+path.Dir(p)+"/", seg) })
	}
	out := inDir(c)
	if len(out) == 0 && strings.Contains(c, "/") {
		for _, part := range strings.Split(c, "/") {
			if part != "" {
				out = append(out, inDir(part)...)
			}
		}
	}
	if len(out) == 0 {
		// "[inspect]" names rich/_inspect.py: private modules keep the
		// name they are known by.
		out = match(func(p string) bool { return strings.EqualFold(strings.TrimLeft(stem(path.Base(p)), "_"), c) })
	}
	if len(out) > max(1, len(x.filePaths)/2) {
		return nil
	}
	return out
}

// relFactor says how much of a hit's score a relation passes on.
func relFactor(rel string) float32 {
	switch rel {
	case "contains":
		return 0.5
	case "calls", "inherits", "implements", "decorated_by", "overrides":
		return 0.35
	case "imports", "depends_on", "tests":
		return 0.3
	case "references", "member_of", "uses":
		return 0.2
	}
	return 0.15
}

// learnedWeight is edge e's ingest weight (at most 1) scaled by what
// plasticity made of it, current/original, so learning shows both ways:
// an edge strengthened above its ingest weight passes on more (up to
// WeightCap times), a weakened one less. An edge nothing learned keeps its
// ingest weight clamped to [0, 1], as before learning was read here.
func learnedWeight(g *graph.Graph, e graph.EdgeIdx) float32 {
	w := g.Weight(e)
	o := g.EdgePlasticity().Original[e]
	if !(o > 0) || w == o {
		return finite.Clamp(w, 0, 1)
	}
	return finite.Clamp(min(o, 1)*w/o, 0, graph.WeightCap)
}

// fuse adds the graph signals: neighbours of the best hits, the PageRank
// prior (applied in breakdown), file aggregation, co-change partners.
func (x *Index) fuse(s *scratch, p Params) {
	g := x.g
	fu := x.opts.Fusion
	// Sources: the best hits by base score.
	src := s.src[:0]
	var xmax float32
	for _, n := range s.touched {
		if b := s.at[n].base; b > 0 {
			src = append(src, graph.Scored{Node: n, Score: b})
			xmax = max(xmax, b)
		}
	}
	s.src = src
	src = graph.SelectTop(src, fu.SpreadSources)
	if fu.SpreadAlpha > 0 {
		for _, sc := range src {
			n := sc.Node
			damp := fu.SpreadAlpha * sc.Score / float32(math.Log(math.E+float64(g.Degree(n))))
			parent := x.fileOf[n]
			give := func(to graph.NodeID, e graph.EdgeIdx) {
				if to == n || to == parent {
					// A file hears from its entities through
					// aggregation, not spreading.
					return
				}
				v := damp * relFactor(g.RelationName(e)) * learnedWeight(g, e)
				if v > 0 {
					s.touch(to)
					s.at[to].graphv += v
				}
			}
			lo, hi := g.OutRange(n)
			for e := lo; e < hi; e++ {
				give(g.Target(e), e)
			}
			ilo, ihi := g.InRange(n)
			for k := ilo; k < ihi; k++ {
				give(g.InSource(k), g.InEdge(k))
			}
		}
		limit := 0.5 * xmax
		for _, n := range s.touched {
			s.at[n].graphv = min(s.at[n].graphv, limit)
		}
	}
	// File aggregation: a file's best three entities.
	if fu.FileAgg > 0 {
		nt := len(s.touched)
		for i := 0; i < nt; i++ {
			n := s.touched[i]
			f := x.fileOf[n]
			v := s.at[n].base
			if f == graph.NoNode || f == n || !(v > 0) {
				continue
			}
			s.touch(f)
			a := &s.at[f].agg
			switch {
			case v > a[0]:
				a[0], a[1], a[2] = v, a[0], a[1]
			case v > a[1]:
				a[1], a[2] = v, a[1]
			case v > a[2]:
				a[2] = v
			}
		}
		for _, n := range s.touched {
			a := s.at[n].agg
			if !(a[0] > 0) {
				continue
			}
			// A file is at least nearly as relevant as its best entity,
			// and a little more when other entities back it up.
			lift := max(0, fileBest*a[0]-s.at[n].base)
			s.at[n].graphv += lift + fu.FileAgg*(a[1]/2+a[2]/4)
		}
	}
	// Co-change partners of the best files.
	if p.CoChange != nil && fu.CoChange > 0 && fu.CoChangeFiles > 0 {
		files := s.files[:0]
		for _, n := range s.touched {
			if g.Type(n) == graph.File {
				if v := s.at[n].base + s.at[n].graphv; v > 0 {
					files = append(files, graph.Scored{Node: n, Score: v})
				}
			}
		}
		s.files = files
		for _, f := range graph.SelectTop(files, fu.CoChangeFiles) {
			for _, pt := range p.CoChange.Partners(f.Node, fu.CoChangePartners) {
				if int(pt.Node) >= x.n || pt.Node == f.Node {
					continue
				}
				if v := fu.CoChange * finite.Clamp(pt.Strength, 0, 1) * f.Score; v > 0 {
					s.touch(pt.Node)
					s.at[pt.Node].co += v
				}
			}
		}
	}
}

// normScope gives a scope prefix the spelling of source paths.
func normScope(sc string) string {
	sc = strings.TrimSpace(strings.ReplaceAll(sc, "\\", "/"))
	for strings.HasPrefix(sc, "./") {
		sc = sc[2:]
	}
	sc = strings.TrimPrefix(sc, "/")
	if sc == "." {
		return ""
	}
	return sc
}

// inScope reports whether n's source path (or, for nodes without one,
// its external ID after the "file::"/"dir::" prefix) starts with scope.
func (x *Index) inScope(n graph.NodeID, scope string) bool {
	p := x.g.SourcePath(n)
	if p == "" {
		p = x.g.ExternalID(n)
		if i := strings.Index(p, "::"); i >= 0 {
			p = p[i+2:]
		}
	}
	if strings.HasPrefix(p, scope) {
		return true
	}
	// "backend" matches the directory "backend" itself.
	return strings.TrimSuffix(scope, "/") == p || path.Clean(scope) == p
}
