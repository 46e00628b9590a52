package serve

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestGuardGC: without GOGC a guard call collects only near a finite memory limit (its own
// unless GOMEMLIMIT sets one); with no limit at all it collects at three times the live heap;
// GOGC wins over both.
func TestGuardGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	cases := []struct {
		name, gogc, gomemlimit string
		limitBefore            int64
		wantPercent            int
		wantLimit              int64
	}{
		{"defaults", "", "", math.MaxInt64, -1, GuardMemoryLimit},
		{"a lower limit kept", "", "", 20 << 20, -1, 20 << 20},
		{"GOMEMLIMIT sets it", "", "100MiB", 100 << 20, -1, 100 << 20},
		{"GOMEMLIMIT=off", "", "off", math.MaxInt64, 200, math.MaxInt64},
		{"GOGC wins", "50", "", math.MaxInt64, 100, math.MaxInt64},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOGC", c.gogc)
			t.Setenv("GOMEMLIMIT", c.gomemlimit)
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(c.limitBefore)
			GuardGC()
			if got := debug.SetGCPercent(100); got != c.wantPercent {
				t.Errorf("GC percent %d, want %d", got, c.wantPercent)
			}
			if got := debug.SetMemoryLimit(-1); got != c.wantLimit {
				t.Errorf("memory limit %d, want %d", got, c.wantLimit)
			}
		})
	}
}
