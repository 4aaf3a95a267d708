package openclaw

import (
	"bytes"
	"encoding/json"
	"strings"
)

// envelope recovers the top-level "id" and "tool" of a request line the
// JSON decoder refused — arguments nested past its depth limit, a syntax
// error after the id, or only the first chunk of an oversized line. It
// scans without recursion, so nesting costs nothing; what it cannot read
// with certainty it leaves out. Keys match case-insensitively, as the
// decoder's do.
func envelope(line []byte) (id json.RawMessage, tool string) {
	s := scanner{b: line}
	if !s.consume('{') {
		return nil, ""
	}
	for {
		s.space()
		keyStart := s.i
		if !s.skipValue() {
			return id, tool
		}
		var key string
		if json.Unmarshal(line[keyStart:s.i], &key) != nil || !s.consume(':') {
			return id, tool
		}
		s.space()
		valStart := s.i
		if !s.skipValue() {
			return id, tool
		}
		val := line[valStart:s.i]
		switch {
		case strings.EqualFold(key, "id") && json.Valid(val):
			id = bytes.Clone(val)
		case strings.EqualFold(key, "tool"):
			json.Unmarshal(val, &tool)
		}
		if !s.consume(',') {
			return id, tool
		}
	}
}

// scanner walks JSON text just far enough to find value boundaries.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && strings.IndexByte(" \t\r\n", s.b[s.i]) >= 0 {
		s.i++
	}
}

// consume skips white space and then c, reporting whether c was there.
func (s *scanner) consume(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// skipValue moves past one value. Containers are skipped by counting
// brackets outside strings; a scalar must be followed by a delimiter, so a
// number cut off at the end of a chunk is not taken as complete.
func (s *scanner) skipValue() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if !s.skipString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			s.i++
			if depth == 0 {
				return true
			}
		}
		return false
	}
	for s.i < len(s.b) {
		if strings.IndexByte(",}] \t\r\n", s.b[s.i]) >= 0 {
			return true
		}
		s.i++
	}
	return false
}

func (s *scanner) skipString() bool {
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return true
		}
	}
	return false
}
