package dynamics

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest/withcore"
)

// The registry of this package's tests: system (ingest), query, change
// (impact reads the runtime overlay) and this family.
func init() { tooltest.Register = withcore.Family("dynamics", Register) }
