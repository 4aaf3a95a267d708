package toolset

import (
	"context"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// The warm-up gives way to the next change: stop calls off the build in
// progress, and an ended warm-up does not take a newer one's off switch
// with it.
func TestWarmerStop(t *testing.T) {
	t.Parallel()
	var w tools.Warmer
	ctx1, done1 := w.BeginUnder(context.Background())
	w.Stop()
	if ctx1.Err() == nil {
		t.Fatal("stop did not call off the warm-up in progress")
	}
	done1()
	ctx2, done2 := w.BeginUnder(context.Background())
	ctx3, done3 := w.BeginUnder(context.Background()) // a second warm-up began before the first ended
	done2()
	w.Stop()
	if ctx3.Err() == nil {
		t.Fatal("the newest warm-up was not called off: an older one's end cleared its switch")
	}
	done3()
	if ctx2.Err() == nil {
		t.Fatal("an ended warm-up's context is still live")
	}
	w.Stop() // nothing in progress: nothing to do

	// Close calls off the build in progress and the one scheduled.
	ctx4, done4 := w.BeginUnder(context.Background())
	w.Quiet.Schedule(time.Hour, func() { t.Error("a closed warmer ran its warm-up") })
	w.Close()
	if ctx4.Err() == nil {
		t.Fatal("Close left the warm-up in progress running")
	}
	done4()
	if w.Quiet.T.Stop() {
		t.Fatal("Close left the scheduled warm-up pending")
	}
}
