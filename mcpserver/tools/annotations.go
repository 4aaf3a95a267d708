package tools

// Hints are a tool's MCP behaviour annotations (readOnlyHint,
// destructiveHint, idempotentHint, openWorldHint). They are hints for
// clients deciding what to confirm with the user, not guarantees.
type Hints struct {
	// ReadOnly: the tool changes nothing the server keeps.
	ReadOnly bool
	// Destructive: the tool may replace or discard state (not only add to
	// it). Meaningful only when not ReadOnly.
	Destructive bool
	// Idempotent: calling it again with the same arguments changes
	// nothing more. Meaningful only when not ReadOnly.
	Idempotent bool
	// OpenWorld: the tool reaches beyond the server's own graph and
	// allowed roots (the network, other machines). No m1nd tool does.
	OpenWorld bool
}

// Annotations returns the tool's hints: its Hints when declared, else what
// its class implies. Read tools only read; write tools add learned state
// (weights, boosts, feedback) that each call moves further; exclusive tools
// replace the graph served (ingest in replace mode, persist's load), and
// repeating them with the same arguments ends in the same state.
func (t *Tool) Annotations() Hints {
	if t.Hints != nil {
		return *t.Hints
	}
	switch t.Class {
	case Write:
		return Hints{}
	case Exclusive:
		return Hints{Destructive: true, Idempotent: true}
	}
	return Hints{ReadOnly: true, Idempotent: true}
}
