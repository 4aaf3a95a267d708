package audit

import "github.com/m1nd-go/m1nd/mcpserver/tools"

// Register adds the audit family's tools to r.
func Register(r *tools.Registry) {
	registerAudit(r)
	registerAuditProfile(r)
	registerScan(r)
}
