package document

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// crossrefWork is the part of a CrossRef work record the lane reads.
type crossrefWork struct {
	DOI       string   `json:"DOI"`
	Title     []string `json:"title"`
	Type      string   `json:"type"`
	Publisher string   `json:"publisher"`
	Container []string `json:"container-title"`
	Subject   []string `json:"subject"`
	Abstract  string   `json:"abstract"`
	URL       string   `json:"URL"`
	Author    []struct {
		Given  string `json:"given"`
		Family string `json:"family"`
		Name   string `json:"name"`
		ORCID  string `json:"ORCID"`
	} `json:"author"`
	Reference []struct {
		Key          string `json:"key"`
		DOI          string `json:"DOI"`
		ArticleTitle string `json:"article-title"`
		Unstructured string `json:"unstructured"`
	} `json:"reference"`
	Issued struct {
		DateParts [][]int `json:"date-parts"`
	} `json:"issued"`
}

var jatsTagRe = regexp.MustCompile(`<[^>]{0,200}>`)

// ParseCrossRef reads CrossRef API JSON: a work, a {"message": work}
// answer, or a {"message": {"items": [...]}} list. Each work is a section
// (anchor: its DOI) with its abstract, authors (with ORCIDs), subjects as
// keywords and references as citations.
func ParseCrossRef(path string, data []byte) (*Canonical, error) {
	var env struct {
		Message json.RawMessage `json:"message"`
	}
	var works []crossrefWork
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("CrossRef JSON: %v", err)
	}
	raw := data
	if len(env.Message) > 0 {
		raw = env.Message
	}
	var list struct {
		Items []crossrefWork `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err == nil && len(list.Items) > 0 {
		works = list.Items
	} else {
		var w crossrefWork
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, fmt.Errorf("CrossRef JSON: %v", err)
		}
		works = []crossrefWork{w}
	}
	c := newCanonical(path, CrossRef)
	n := 0
	for _, w := range works {
		if w.DOI == "" {
			continue
		}
		n++
		title := strings.Join(w.Title, " ")
		if title == "" {
			title = w.DOI
		}
		i := c.open(title, 1, 1)
		s := &c.Sections[i]
		if len(works) == 1 {
			c.Title = title
		}
		s.AddProse(strings.Join(strings.Fields(jatsTagRe.ReplaceAllString(w.Abstract, " ")), " "))
		s.AddProse(strings.TrimSpace(w.Type + " " + strings.Join(w.Container, " ") + " " + w.Publisher))
		if w.URL != "" {
			s.Links = append(s.Links, Link{Target: w.URL, Line: 1})
		}
		c.entity(i, "doi", w.DOI, doiKey(w.DOI), RelIdentifiedBy, 1)
		for _, a := range w.Author {
			name := strings.TrimSpace(a.Given + " " + a.Family)
			if name == "" {
				name = a.Name
			}
			c.entity(i, "author", name, normName(name), RelAuthoredBy, 1)
			if k := orcidKey(a.ORCID); k != "" {
				c.entity(i, "orcid", k, k, RelHasORCID, 1)
			}
		}
		for _, sub := range w.Subject {
			c.entity(i, "keyword", sub, normName(sub), RelHasKeyword, 1)
		}
		for _, r := range w.Reference {
			title := r.ArticleTitle
			if title == "" {
				title = cut(r.Unstructured, 300)
			}
			if title == "" {
				title = r.DOI
			}
			key := doiKey(r.DOI)
			if key == "" {
				key = "ref:" + strings.ToLower(w.DOI+"/"+r.Key)
			}
			c.entity(i, "citation", title, key, RelCites, 1)
		}
	}
	if n > 1 {
		c.Title = "CrossRef works " + pathBase(path)
	}
	if n == 0 {
		return nil, errors.New("no CrossRef work with a DOI found (expected {\"DOI\": …, \"title\": […], …} or {\"message\": …})")
	}
	c.Finish(lineCount(data))
	return c, nil
}
