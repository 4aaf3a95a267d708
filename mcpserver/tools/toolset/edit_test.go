package toolset

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func init() {
	// edit_commit's example needs a preview of its own.
	exampleSetup["edit_commit"] = func(t *testing.T, d *tools.Dispatcher) map[string]any {
		out := tooltest.MustCall(t, d, "edit_preview", map[string]any{"agent_id": "setup", "file_path": "backend/config.py", "new_content": "DEBUG = False\n"})
		return map[string]any{"agent_id": "claude", "preview_id": out["preview_id"], "confirm": true}
	}
	outputCalls["apply_batch"] = append(outputCalls["apply_batch"], map[string]any{"agent_id": "schema", "verify": true, "edits": []any{
		map[string]any{"file_path": "backend/crypto.py", "new_content": "\"\"\"Password hashing.\"\"\"\nimport hashlib\n\n\ndef hash_password(password):\n    return hashlib.sha256(password.encode()).hexdigest()\n"},
	}})
}
