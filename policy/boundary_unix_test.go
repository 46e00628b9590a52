//go:build unix

package policy

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO in the repository must be refused, not opened: opening it blocks until a writer
// appears, which would hang the hook.
func TestBoundaryReadFileFIFO(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, follow := range []bool{false, true} {
		b, err := NewBoundary(root, follow)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := b.ReadFile("pipe", 0)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("follow=%v ReadFile(fifo) error = %v, want not a regular file", follow, err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("follow=%v ReadFile on a FIFO blocked", follow)
		}
	}
}
