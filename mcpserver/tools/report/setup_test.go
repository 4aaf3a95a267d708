package report

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest/withcore"
)

// The registry of this package's tests: system (ingest), query, change
// (impact) and this family.
func init() { tooltest.Register = withcore.Family("report", Register) }
