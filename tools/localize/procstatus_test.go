package localize

import (
	"os"
	"runtime"
	"testing"
)

func TestReadProcStatus(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	s, err := ReadProcStatus(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if s.RSSMB <= 0 || s.PeakRSSMB < s.RSSMB || s.Threads < 1 {
		t.Fatalf("implausible status of this process: %+v", s)
	}
	if _, err := ReadProcStatus(-1); err == nil {
		t.Fatal("no error for a process that does not exist")
	}
}
