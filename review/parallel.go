package review

import (
	"context"
	"fmt"
	"github.com/tollgate-dev/tollgate/review/diff"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// ForEachFile runs fn on every file of the unit, spread over the cores, each with a private
// Result that is merged back in file order (reports stay deterministic). When ctx ends first
// it returns an error naming the files that were not finished.
func ForEachFile(ctx context.Context, u *diff.Unit, r *Result, fn func(f *diff.FileDiff, r *Result)) error {
	n := len(u.Files)
	if n == 0 {
		return ctx.Err()
	}
	parts := make([]Result, n)
	done := make([]bool, n)
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n || ctx.Err() != nil {
				return
			}
			fn(&u.Files[i], &parts[i])
			done[i] = ctx.Err() == nil
		}
	}
	if workers := min(runtime.GOMAXPROCS(0), n); workers == 1 {
		// one file (most commits of a history) or one core: in this goroutine, without
		// starting and waiting for another
		work()
	} else {
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work()
			}()
		}
		wg.Wait()
	}
	var unfinished []string
	for i := range parts {
		if !done[i] {
			unfinished = append(unfinished, u.Files[i].Path())
			continue
		}
		r.merge(&parts[i])
	}
	if len(unfinished) > 0 {
		return &unfinishedError{cause: ctx.Err(), files: unfinished}
	}
	return nil
}

// unfinishedError names the files a scanner did not finish.
type unfinishedError struct {
	cause error
	files []string
}

func (e *unfinishedError) Error() string {
	list := e.files
	more := ""
	if len(list) > 10 {
		list, more = list[:10], fmt.Sprintf(" and %d more", len(e.files)-10)
	}
	return fmt.Sprintf("%v; not finished: %s%s", e.cause, strings.Join(list, ", "), more)
}

func (e *unfinishedError) Unwrap() error { return e.cause }
