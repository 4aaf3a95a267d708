package live

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A daemon tick that reingests keeps the memory limit's room after it
// returns (the next tick of a burst shares its collections), and the
// quiet save behind it gives the room back once it has saved.
func TestTickRoomHeldUntilSave(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the memory policy, and its room, are off")
	}
	d, dir := daemonFixture(t)
	hold := tools.RoomHoldOf(d.Session)
	if err := os.WriteFile(filepath.Join(dir, "backend/config.py"), []byte("POOL_SIZE = 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := d.Session.PersistedGen()
	out := tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if len(out["roots_reingested"].([]any)) != 1 {
		t.Fatalf("tick %v", out)
	}
	if !hold.Holding() {
		t.Fatal("after a tick that reingested, no room is held for its save")
	}
	// The quiet save runs persistQuiet after the tick; the bound only
	// keeps a broken save from hanging the run (the hold's own bound is a
	// minute).
	for i := 0; i < 3000 && hold.Holding(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if hold.Holding() {
		t.Fatal("the room is still held 30 s after the tick")
	}
	if d.Session.PersistedGen() == saved {
		t.Error("the room was given back before the save behind the tick")
	}
}
