package documents

import (
	"fmt"
	"slices"
	"time"
)

// A signature written on the page (11 of 16 real when pooled) and a
// keyword named in prose (3 of 9) are wrong when the page quotes the
// reader's own function, a namesake or a placeholder; those never
// matched the def. The ones that were real were mostly pages the code
// left behind: an older version of the def fitted them (starlette's
// StaticFiles before html, pyjwt's decode before subject). History
// tells the two apart: the def's file is read back, newest first, to
// the first version the page's claim fits, and the commit after it is
// where the code left the page.

// evSigChanged: a version of the def in git fitted the page's
// signature or keyword; a later commit changed it.
const evSigChanged = "signature_changed"

// pageLeft is where a def's history last fitted a page's claim.
type pageLeft struct {
	commit, subject string
	when            float64
	note            string // why no commit is named
}

func (p pageLeft) describe(what string) string {
	if p.commit == "" {
		return "; " + p.note
	}
	return fmt.Sprintf("; git: %s until %s (%s, %q)", what, p.commit, time.Unix(int64(p.when), 0).UTC().Format("2006-01-02"), p.subject)
}

// lastFit walks path's versions newest first to the first one whose
// signature (read by sigAt) fits; the commit after it changed the def
// away from the page. A version without the def ends the walk: a move
// is not read across.
func (s *driftSources) lastFit(path string, sigAt func([]byte) (pySig, bool), fits func(pySig) bool) pageLeft {
	v, err := s.versions(path)
	if err != nil {
		return pageLeft{note: "no commit named: " + err.Error()}
	}
	for i := range v.commits {
		sig, ok := sigAt(v.texts[i])
		if !ok {
			return pageLeft{note: fmt.Sprintf("git: no version of the def fits the page (%s, %d read back to where the def is absent)", path, i)}
		}
		if !fits(sig) {
			continue
		}
		if i == 0 {
			return pageLeft{note: "no commit named: the last commit fits the page (an uncommitted change does not)"}
		}
		return pageLeft{commit: short(v.commits[i-1]), when: v.times[i-1], subject: v.subjects[i-1]}
	}
	return pageLeft{note: fmt.Sprintf("git: no version of the def fits the page (%s, %d read)", path, len(v.commits))}
}

// quoteFits: the quote agrees with sig, and every parameter it claims
// is one sig names (a **kwargs that would swallow it is no fit: it
// proves nothing about the page's name).
func quoteFits(q sigQuote) func(pySig) bool {
	return func(sig pySig) bool {
		if q.mismatch(sig) != "" {
			return false
		}
		for i, p := range q.params {
			if (q.full || q.named[i]) && !slices.ContainsFunc(sig.params, func(sp sigParam) bool { return sp.name == p }) {
				return false
			}
		}
		return true
	}
}

// keywordLeft is where the first of defs that once took keyword by
// name stopped taking it.
func (s *driftSources) keywordLeft(defs []namedDef, keyword string) pageLeft {
	last := pageLeft{note: "git: no version of " + defs[0].qual + " took " + keyword}
	for _, d := range defs {
		qual := d.qual
		p := s.lastFit(d.path, func(text []byte) (pySig, bool) {
			if text == nil {
				return pySig{}, false
			}
			sig, _, ok := sigIn(string(text), qual)
			return sig, ok
		}, func(sig pySig) bool { return sig.hasKeyword(keyword) })
		if p.commit != "" {
			return p
		}
	}
	return last
}
