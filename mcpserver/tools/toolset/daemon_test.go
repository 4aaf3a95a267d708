package toolset

import (
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// alerts_ack's example acknowledges an alert that exists.
func init() {
	exampleSetup["alerts_ack"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		ids := tools.DaemonOf(d).Alerts.Add(time.Now(), daemon.Alert{Kind: daemon.KindHeadMoved, Severity: "info", Message: "example"})
		return map[string]any{"alert_ids": ids}
	}
}
