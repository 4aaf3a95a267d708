package analysis

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ClaimType is the structural question a claim asks.
type ClaimType string

// The claim types Hypothesize answers. Negated forms are answered as the
// opposite of the positive one, with the evidence read the other way.
const (
	ClaimDependsOn    ClaimType = "depends_on"    // A depends on B (any dependency chain)
	ClaimNoDependency ClaimType = "no_dependency" // A does not depend on B
	ClaimImports      ClaimType = "imports"       // A imports B directly
	ClaimCalls        ClaimType = "calls"         // A calls B (directly or through a call chain)
	ClaimNeverCalls   ClaimType = "never_calls"   // no call chain from A to B
	ClaimInherits     ClaimType = "inherits"      // A inherits from or implements B
	ClaimAffects      ClaimType = "affects"       // changing A breaks B: B depends on A
	ClaimIndependent  ClaimType = "independent"   // no dependency either way
	ClaimCoupled      ClaimType = "coupling"      // a dependency one way or the other
	ClaimCircular     ClaimType = "circular"      // A and B depend on each other (or A is in a cycle)
	ClaimIsolated     ClaimType = "isolated"      // A has no dependency in or out
	ClaimUnused       ClaimType = "unused"        // nothing depends on A
	ClaimTestedBy     ClaimType = "tested_by"     // test B exercises A
	ClaimTested       ClaimType = "tested"        // some test exercises A
	ClaimUntested     ClaimType = "untested"      // no test exercises A
)

// Claim is a parsed claim: its type and the phrases naming its subject
// and object (Object is empty for claims about one node). The phrases
// still have to be resolved to nodes.
type Claim struct {
	Text    string    `json:"claim"`
	Type    ClaimType `json:"claim_type"`
	Subject string    `json:"subject"`
	Object  string    `json:"object,omitempty"`
}

// Binary reports whether the claim relates two nodes.
func (c Claim) Binary() bool { return c.Object != "" }

// ClaimForm is one sentence shape ParseClaim understands, with an example.
type ClaimForm struct {
	Type    ClaimType `json:"claim_type"`
	Form    string    `json:"form"`
	Example string    `json:"example"`
}

// ClaimForms lists the sentence shapes ParseClaim understands.
func ClaimForms() []ClaimForm {
	return []ClaimForm{
		{ClaimDependsOn, "A depends on / uses / relies on / requires B", "payments depends on session"},
		{ClaimImports, "A imports B", "auth.py imports crypto.py"},
		{ClaimCalls, "A calls B", "AuthService.login calls SessionStore.create"},
		{ClaimNeverCalls, "A never calls / does not call B", "payments never calls hash_password"},
		{ClaimNoDependency, "A does not depend on / never imports / does not use B", "config.py does not depend on auth.py"},
		{ClaimInherits, "A inherits from / extends / implements B", "AdminUser extends User"},
		{ClaimAffects, "changing A breaks / affects B; A affects B", "changing session.py breaks payments.py"},
		{ClaimIndependent, "A and B are independent; A is independent of B", "crypto and middleware are independent"},
		{ClaimCoupled, "A and B are coupled; A is coupled to B", "auth and session are coupled"},
		{ClaimCircular, "A and B depend on each other; A has a circular dependency", "auth and session depend on each other"},
		{ClaimIsolated, "A is isolated / standalone", "config.py is isolated"},
		{ClaimUnused, "A is unused / dead code; nothing uses A", "payments.py is unused"},
		{ClaimTestedBy, "A is tested by B; B tests A", "auth.py is tested by test_auth.py"},
		{ClaimTested, "A is tested; A has tests", "session.py is tested"},
		{ClaimUntested, "A is untested; A has no tests", "payments.py has no tests"},
	}
}

type claimRule struct {
	re   *regexp.Regexp
	typ  ClaimType
	swap bool // the sentence names the object first
}

const (
	rNeg     = `(?:never|does\s+not|doesn't|do\s+not|don't|cannot|can't|can\s+not|should\s+not|shouldn't|must\s+not)`
	rDepVerb = `(?:depends\s+on|relies\s+on|uses|requires|needs|references|is\s+dependent\s+on|reaches)`
)

// claimRules are tried in order: negations and specific verbs before
// the general "depends on".
var claimRules = []claimRule{
	{rule(`(?:changing|modifying|editing|touching|a\s+change\s+(?:to|in)|changes\s+(?:to|in))\s+(.+?)\s+(?:breaks|would\s+break|will\s+break|can\s+break|could\s+break|may\s+break|affects|would\s+affect|will\s+affect|can\s+affect|impacts|would\s+impact)\s+(.+)`), ClaimAffects, false},
	{rule(`(.+?)\s+(?:and|&)\s+(.+?)\s+(?:depend\s+on\s+each\s+other|are\s+mutually\s+dependent|form\s+a\s+cycle|are\s+in\s+a\s+cycle|have\s+a\s+circular\s+dependency|are\s+circular(?:ly\s+dependent)?)`), ClaimCircular, false},
	{rule(`(.+?)\s+(?:has|is\s+in|is\s+part\s+of|participates\s+in)\s+(?:a\s+)?(?:circular\s+dependency|circular\s+import|dependency\s+cycle|import\s+cycle|cycle)`), ClaimCircular, false},
	{rule(`(.+?)\s+(?:and|&)\s+(.+?)\s+are\s+(?:independent|decoupled|unrelated|not\s+coupled|not\s+connected|separate)(?:\s+(?:of|from)\s+each\s+other)?`), ClaimIndependent, false},
	{rule(`(.+?)\s+is\s+(?:independent\s+of|decoupled\s+from|unrelated\s+to|isolated\s+from|separate\s+from|not\s+coupled\s+(?:to|with))\s+(.+)`), ClaimIndependent, false},
	{rule(`(.+?)\s+(?:and|&)\s+(.+?)\s+are\s+(?:coupled|connected|related|linked|interdependent)`), ClaimCoupled, false},
	{rule(`(.+?)\s+is\s+(?:coupled|connected|linked|related)\s+(?:to|with)\s+(.+)`), ClaimCoupled, false},
	{rule(`(.+?)\s+` + rNeg + `\s+(?:ever\s+)?(?:calls?|invokes?|call\s+into)\s+(.+)`), ClaimNeverCalls, false},
	{rule(`(.+?)\s+` + rNeg + `\s+(?:ever\s+)?(?:depends?|rel(?:y|ies))\s+on\s+(.+)`), ClaimNoDependency, false},
	{rule(`(.+?)\s+` + rNeg + `\s+(?:ever\s+)?(?:imports?|uses?|references?|needs?|requires?|touch(?:es)?|reach(?:es)?)\s+(.+)`), ClaimNoDependency, false},
	{rule(`(.+?)\s+(?:is|are)\s+not\s+dependent\s+on\s+(.+)`), ClaimNoDependency, false},
	{rule(`(.+?)\s+(?:is|are)\s+not\s+(?:used|imported|called|referenced)\s+by\s+(.+)`), ClaimNoDependency, true},
	{rule(`(.+?)\s+(?:is|are)\s+(?:tested|covered|exercised)\s+by\s+(.+)`), ClaimTestedBy, false},
	{rule(`(.+?)\s+(?:is|are)\s+(?:untested|not\s+tested|not\s+covered(?:\s+by\s+tests)?|without\s+tests)`), ClaimUntested, false},
	{rule(`(.+?)\s+(?:has|have)\s+no\s+tests?`), ClaimUntested, false},
	{rule(`(.+?)\s+(?:is|are)\s+(?:tested|covered(?:\s+by\s+tests)?)`), ClaimTested, false},
	{rule(`(.+?)\s+(?:has|have)\s+(?:a\s+)?tests?`), ClaimTested, false},
	{rule(`(.+?)\s+(?:is|are)\s+(?:isolated|standalone|self[-\s]contained)`), ClaimIsolated, false},
	{rule(`(.+?)\s+(?:is|are)\s+(?:unused|dead(?:\s+code)?|never\s+used|not\s+used(?:\s+anywhere)?|orphaned|unreferenced)`), ClaimUnused, false},
	{rule(`(?:nothing|no\s+one|nobody|no\s+code|no\s+module)\s+(?:uses|calls|imports|depends\s+on|references|needs)\s+(.+)`), ClaimUnused, false},
	{rule(`(.+?)\s+(?:is|are)\s+(?:called|invoked)\s+by\s+(.+)`), ClaimCalls, true},
	{rule(`(.+?)\s+(?:is|are)\s+imported\s+by\s+(.+)`), ClaimImports, true},
	{rule(`(.+?)\s+(?:is|are)\s+(?:used|referenced|needed|required)\s+by\s+(.+)`), ClaimDependsOn, true},
	{rule(`(.+?)\s+(?:tests|covers|exercises)\s+(.+)`), ClaimTestedBy, true},
	{rule(`(.+?)\s+(?:calls|invokes|calls\s+into)\s+(.+)`), ClaimCalls, false},
	{rule(`(.+?)\s+imports\s+(.+)`), ClaimImports, false},
	{rule(`(.+?)\s+(?:inherits\s+from|inherits|extends|subclasses|implements|derives\s+from)\s+(.+)`), ClaimInherits, false},
	{rule(`(.+?)\s+` + rDepVerb + `\s+(.+)`), ClaimDependsOn, false},
	{rule(`(.+?)\s+(?:affects|impacts|breaks)\s+(.+)`), ClaimAffects, false},
}

func rule(body string) *regexp.Regexp { return regexp.MustCompile(`(?i)^` + body + `$`) }

// MaxClaimLen bounds the claims ParseClaim reads.
const MaxClaimLen = 1000

// ParseClaim reads a claim in plain English ("payments depends on
// session", "changing crypto.py breaks auth.py", "config.py is unused")
// into its type and the phrases naming its nodes. Node names keep their
// case; articles, quotes and qualifiers such as "at runtime" or "module"
// are dropped. A sentence that matches no form is an error; ClaimForms
// lists the forms.
func ParseClaim(text string) (Claim, error) {
	c := Claim{Text: text}
	s := strings.Join(strings.Fields(text), " ")
	s = strings.TrimRight(s, " .!?;")
	if s == "" {
		return c, errors.New("the claim is empty")
	}
	if len(s) > MaxClaimLen {
		return c, fmt.Errorf("the claim is %d bytes long; at most %d", len(s), MaxClaimLen)
	}
	for _, r := range claimRules {
		m := r.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		c.Type = r.typ
		c.Subject = cleanPhrase(m[1])
		if len(m) > 2 {
			c.Object = cleanPhrase(m[2])
			if r.swap {
				c.Subject, c.Object = c.Object, c.Subject
			}
		}
		if c.Subject == "" || (len(m) > 2 && c.Object == "") {
			return c, fmt.Errorf("the claim %q names no node on one side of %q", text, c.Type)
		}
		return c, nil
	}
	return c, fmt.Errorf("the claim %q matches none of the forms hypothesize understands", text)
}

// phraseTrims are qualifiers that say how, not what.
var phraseTrims = []string{
	" at runtime", " at run time", " at run-time", " directly", " indirectly", " transitively", " at all", " anywhere", " ever",
	" in any way", " in production", " module", " modules", " file", " files", " class", " function",
	" method", " package", " code", " each other",
}

// cleanPhrase turns the words naming a node into a reference: no quotes,
// articles or qualifiers.
func cleanPhrase(p string) string {
	p = strings.TrimSpace(p)
	for changed := true; changed; {
		changed = false
		low := strings.ToLower(p)
		for _, art := range []string{"the ", "a ", "an ", "module ", "file ", "class ", "function ", "method ", "package "} {
			if strings.HasPrefix(low, art) && len(p) > len(art) {
				p, changed = strings.TrimSpace(p[len(art):]), true
				break
			}
		}
		low = strings.ToLower(p)
		for _, q := range phraseTrims {
			if strings.HasSuffix(low, q) && len(p) > len(q) {
				p, changed = strings.TrimSpace(p[:len(p)-len(q)]), true
				break
			}
		}
		if t := strings.Trim(p, "\"'`“”‘’()[]"); t != p {
			p, changed = strings.TrimSpace(t), true
		}
	}
	return p
}
