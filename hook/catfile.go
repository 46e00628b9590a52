package hook

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// catFile is one long-lived `git cat-file --batch` process that reads every blob a review
// needs, instead of one process (or two) per blob: on a long history most of the time of a
// blob read was git starting. It is started on first use through Git.runTo, like every git
// call, reads one object at a time (callers are serialised) and is started again when it has
// ended (gitTimeout, or a failed read). Repo.Close ends it.
type catFile struct {
	mu   sync.Mutex
	in   *io.PipeWriter
	pipe *io.PipeReader // what out reads
	out  *bufio.Reader
	// done is closed when the process has ended.
	done chan struct{}
}

// errMissingBlob is a blob the repository does not have (cat-file --batch: "<id> missing").
var errMissingBlob = errors.New("object missing")

// read reads blob oid through g's process and hands its size and content to take, which must read exactly size
// bytes from the stream. A blob git does not have is a *GitError that missingObject knows.
func (c *catFile) read(ctx context.Context, g *Git, oid string, take func(size int, r io.Reader) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for attempt := 0; ; attempt++ {
		err := c.readOnce(ctx, g, oid, take)
		var ge *GitError
		if err == nil || errors.As(err, &ge) || ctx.Err() != nil || attempt > 0 {
			return err
		}
		// The process ended or the stream broke: start again once.
		c.stop()
	}
}

// readOnce asks the running process (started if need be) for oid.
func (c *catFile) readOnce(ctx context.Context, g *Git, oid string, take func(size int, r io.Reader) error) error {
	if c.in == nil {
		c.start(ctx, g)
	}
	if _, err := io.WriteString(c.in, oid+"\n"); err != nil {
		return err
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return err
	}
	typ, size, err := batchHeader(header, oid)
	if err != nil {
		var ge *GitError
		if !errors.As(err, &ge) {
			c.stop() // out of step with git: never read on from here
		}
		return err
	}
	if typ != "blob" {
		if _, err := c.out.Discard(size + 1); err != nil {
			c.stop()
		}
		return &GitError{Args: []string{"cat-file", "--batch"}, Stderr: "object " + oid + " is a " + typ + ", not a blob", Err: errNotBlob}
	}
	lr := &io.LimitedReader{R: c.out, N: int64(size)}
	err = take(size, lr)
	if err == nil && lr.N != 0 {
		err = fmt.Errorf("blob %s: %d bytes left unread", oid, lr.N)
	}
	if err == nil {
		if b, rerr := c.out.ReadByte(); rerr != nil || b != '\n' {
			err = fmt.Errorf("blob %s: no newline after the content", oid)
		}
	}
	if err != nil {
		c.stop()
	}
	return err
}

// errNotBlob is an object that is not a blob.
var errNotBlob = errors.New("not a blob")

// batchHeader parses cat-file --batch's header for oid: "<id> <type> <size>", or
// "<id> missing" (a *GitError that missingObject knows).
func batchHeader(header, oid string) (string, int, error) {
	f := strings.Fields(header)
	if len(f) == 2 && f[0] == oid && f[1] == "missing" {
		return "", 0, &GitError{Args: []string{"cat-file", "--batch"}, Stderr: "missing blob " + oid, Err: errMissingBlob}
	}
	if len(f) != 3 || f[0] != oid {
		return "", 0, fmt.Errorf("unexpected cat-file header %q", strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil || size < 0 {
		return "", 0, fmt.Errorf("unexpected cat-file header %q", strings.TrimSpace(header))
	}
	return f[1], size, nil
}

// start starts the process. Its context is not the caller's: the process outlives one read,
// and ends with Close (or gitTimeout).
func (c *catFile) start(ctx context.Context, g *Git) {
	var (
		catFileCmd = "cat-file"
		batch      = "--batch"
	)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	c.in, c.pipe, c.out, c.done = inW, outR, bufio.NewReaderSize(outR, 64<<10), done
	go func() {
		defer close(done)
		_, err := g.runTo(context.WithoutCancel(ctx), inR, outW, catFileCmd, batch)
		if err == nil {
			err = io.EOF
		}
		inR.CloseWithError(err)
		outW.CloseWithError(err)
	}()
}

// stop ends the process and waits for it: its stdin is closed (git exits) and its output
// refused (git never blocks writing what nobody reads).
func (c *catFile) stop() {
	if c.in == nil {
		return
	}
	c.in.Close()
	c.pipe.Close()
	<-c.done
	c.in, c.pipe, c.out, c.done = nil, nil, nil, nil
}

// close ends the process, if one runs.
func (c *catFile) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop()
}
