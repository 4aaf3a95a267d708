package localize

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ProcStatus is the memory of a process as Linux's /proc/PID/status
// reports it, in MB (the harnesses read the server's, not their own).
type ProcStatus struct {
	RSSMB, PeakRSSMB, AnonMB float64
	Threads                  int
}

// ReadProcStatus reads pid's VmRSS, VmHWM, RssAnon and thread count.
func ReadProcStatus(pid int) (ProcStatus, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ProcStatus{}, fmt.Errorf("reading a process's memory needs Linux /proc: %w", err)
	}
	var s ProcStatus
	mb := func(v string) float64 {
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		return kb / 1024
	}
	for _, line := range strings.Split(string(data), "\n") {
		name, v, _ := strings.Cut(line, ":")
		switch name {
		case "VmRSS":
			s.RSSMB = mb(v)
		case "VmHWM":
			s.PeakRSSMB = mb(v)
		case "RssAnon":
			s.AnonMB = mb(v)
		case "Threads":
			s.Threads, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if s.RSSMB == 0 {
		return s, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
	}
	return s, nil
}
