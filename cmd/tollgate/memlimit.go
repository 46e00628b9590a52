package main

import (
	"os"
	"runtime/debug"
)

// softMemoryLimit is the Go heap's soft limit when GOMEMLIMIT is unset. A review's own
// working set is well below it (about 23 MB on Go's net/http sources), so ordinary reviews
// run as before; on a large change the collector runs more often as the heap nears it, which
// keeps peak memory near the staged size plus the binary's own (issue 13). It is soft: a
// change whose content alone exceeds it still completes, with the collector's CPU share
// capped by the runtime at half.
const softMemoryLimit = 40 << 20

// setMemoryLimit applies softMemoryLimit unless GOMEMLIMIT says otherwise.
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
}

// historyMemoryLimit is the soft limit for reviews of many commits (a range, a push, a
// received push, a baseline of a range), where the goal is peak memory no more than gitleaks'
// on the same history: under softMemoryLimit the collector ran so often that a 5,531-commit
// history took 55% longer. At 80 MiB that history peaks at 77-88 MB (gitleaks: 98 MB) in the time
// it takes without any limit.
const historyMemoryLimit = 80 << 20

// historyMemory raises the soft limit to historyMemoryLimit unless GOMEMLIMIT says otherwise.
func historyMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(historyMemoryLimit)
	}
}
