package continuity

import (
	"fmt"
	"strings"
)

// Kind classifies an Error.
type Kind uint8

// Error kinds.
const (
	// Invalid input: a malformed id, value or parameter.
	Invalid Kind = iota
	// NotFound: no such item.
	NotFound
	// NotOwner: the item belongs to another agent.
	NotOwner
	// Limit: a cap would be exceeded.
	Limit
	// Stale: the caller's version of the item is out of date.
	Stale
)

// Error is a refusal that teaches: what was wrong, how to fix it, and what
// to call next. The tool layer turns it into a teaching tool error; the
// state is unchanged by a call that returns one.
type Error struct {
	Kind Kind
	Msg  string
	Hint string
	Next string
	// Details are machine-readable context (the current version, the
	// caller's own ids).
	Details map[string]any
}

func (e *Error) Error() string { return e.Msg }

func errf(k Kind, hint, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

func (e *Error) next(step string) *Error {
	e.Next = step
	return e
}

func (e *Error) with(key string, v any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = v
	return e
}

// Agent id bounds: ids name files, so they are short and plain.
const MaxAgentIDLen = 64

// ValidateAgentID accepts 1–64 ASCII letters, digits, '-', '_' and '.',
// starting with a letter or digit: agent ids end up in item ids and file
// names, so nothing that could climb out of a directory or collide on a
// case-insensitive filesystem by accident is taken.
func ValidateAgentID(id string) error {
	bad := func(why string) error {
		return errf(Invalid, "agent_id names the calling agent for perspectives, locks, trails and boot memory: 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit, e.g. \"jimi\" or \"hacker-auth\".",
			"agent_id %q cannot own continuity state: %s", clip(id), why)
	}
	if id == "" {
		return bad("it is empty")
	}
	if len(id) > MaxAgentIDLen {
		return bad(fmt.Sprintf("it is %d bytes, over %d", len(id), MaxAgentIDLen))
	}
	for i, r := range id {
		alnum := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		if i == 0 && !alnum {
			return bad("it must start with a letter or digit")
		}
		if !alnum && r != '-' && r != '_' && r != '.' {
			return bad(fmt.Sprintf("character %q is not allowed", r))
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// notOwner is the refusal to touch another agent's item: it names the
// owner, never the item's content, and lists the caller's own ids.
func notOwner(kind, id, owner, agent string, own []string) *Error {
	return errf(NotOwner,
		fmt.Sprintf("Each agent sees and changes only its own %ss. Use one of yours (details.your_%ss), or create one.", kind, kind),
		"%s %s belongs to agent %q, not to %q", kind, id, owner, agent).with("your_"+kind+"s", own)
}

// notFound is the refusal for an unknown id, listing the caller's own.
func notFound(kind, id string, own []string) *Error {
	hint := fmt.Sprintf("Use an id a %s_... call returned; details.your_%ss lists yours.", kind, kind)
	if len(own) == 0 {
		hint = fmt.Sprintf("You have no %ss; create one first.", kind)
	}
	return errf(NotFound, hint, "no %s %q", kind, clip(id)).with("your_"+kind+"s", own)
}

// cleanText trims s and reports whether it is within n bytes and free of
// control characters other than newlines and tabs.
func cleanText(s string, n int) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s, false
	}
	return s, !strings.ContainsFunc(s, func(r rune) bool { return (r < ' ' && r != '\n' && r != '\t') || r == 0x7f })
}
