package model

import (
	"fmt"
	"time"
)

// progress shows a one-line indicator until stop is called.
func (m *Step) progress(what string) (stop func()) {
	if m.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		frames := `|/-\`
		for i := 0; ; i++ {
			fmt.Fprintf(m.Progress, "\r\x1b[Ktollgate: %s %c %.1fs", what, frames[i%4], time.Since(start).Seconds())
			select {
			case <-done:
				fmt.Fprint(m.Progress, "\r\x1b[K")
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
