package server

import "testing"

func TestRun(t *testing.T) {
	s := NewServer(nil)
	if err := s.Run(nil, nil); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkRun(b *testing.B) {
	for i := 0; i < b.N; i++ {
		helperBench(b)
	}
}

func helperBench(b *testing.B) {}

func Testable() {}
