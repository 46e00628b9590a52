package policy

import (
	"io"
	"sync"
)

// outputBuffer collects a process's stdout. A bytes.Buffer doubles as it grows: on the tens of
// megabytes a `git diff-tree` of a long history prints, it allocated (and cleared) three to
// four times the output, most of it garbage at once. outputBuffer reads into chunks it takes
// from a pool and returns there, and allocates the output once, at its exact size.
type outputBuffer struct {
	chunks []*[]byte
	n      int
}

// chunkSize is the size of a pooled chunk: small against the outputs that cost, large enough
// that a long one is read in few of them.
const chunkSize = 256 << 10

var chunkPool = sync.Pool{New: func() any { c := make([]byte, 0, chunkSize); return &c }}

// spare returns the last chunk if it has room, else a new one from the pool.
func (b *outputBuffer) spare() *[]byte {
	if k := len(b.chunks); k > 0 {
		if c := b.chunks[k-1]; len(*c) < cap(*c) {
			return c
		}
	}
	c := chunkPool.Get().(*[]byte)
	*c = (*c)[:0]
	b.chunks = append(b.chunks, c)
	return c
}

// ReadFrom reads r to its end into the buffer (io.Copy uses it).
func (b *outputBuffer) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for {
		c := b.spare()
		m, err := r.Read((*c)[len(*c):cap(*c)])
		*c = (*c)[:len(*c)+m]
		b.n += m
		total += int64(m)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Write appends p to the buffer.
func (b *outputBuffer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		c := b.spare()
		m := copy((*c)[len(*c):cap(*c)], p)
		*c = (*c)[:len(*c)+m]
		b.n += m
		p = p[m:]
	}
	return n, nil
}

// Bytes returns everything read, in a slice of its own (the buffer is then empty). With
// recycle, the chunks go back to the pool: only when the copy into the buffer is known to be
// over (the process ended and its output was read to the end). After a timeout or an error,
// os/exec may return while its copying goroutine still writes (WaitDelay): a chunk given back
// then could be written into while another process's output is read into it.
func (b *outputBuffer) Bytes(recycle bool) []byte {
	out := make([]byte, 0, b.n)
	for _, c := range b.chunks {
		out = append(out, *c...)
		if recycle {
			chunkPool.Put(c)
		}
	}
	b.chunks, b.n = nil, 0
	return out
}
