package policy

import (
	"bytes"
	"io"
	"math/rand"
	"testing"
	"testing/iotest"
)

// TestOutputBuffer: whatever the sizes of the reads and writes, Bytes returns exactly what was
// read and written, in order, and an output stays as it was once its chunks are reused.
func TestOutputBuffer(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	var kept [][]byte
	var want [][]byte
	for _, size := range []int{0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 17, 1 << 20} {
		data := make([]byte, size)
		rnd.Read(data)
		var b outputBuffer
		half := size / 3
		if _, err := b.Write(data[:half]); err != nil {
			t.Fatal(err)
		}
		// one byte at a time, then in pieces of whatever size the reader gives
		n, err := b.ReadFrom(io.MultiReader(iotest.OneByteReader(bytes.NewReader(data[half:min(half+100, size)])), bytes.NewReader(data[min(half+100, size):])))
		if err != nil || n != int64(size-half) {
			t.Fatalf("size %d: ReadFrom read %d, %v", size, n, err)
		}
		got := b.Bytes(size%2 == 0) // recycled or not, the output is the same
		if !bytes.Equal(got, data) {
			t.Fatalf("size %d: got %d bytes, not what was read", size, len(got))
		}
		if len(b.Bytes(true)) != 0 {
			t.Fatalf("size %d: the buffer is not empty after Bytes", size)
		}
		kept, want = append(kept, got), append(want, append([]byte(nil), data...))
	}
	for i := range kept {
		if !bytes.Equal(kept[i], want[i]) {
			t.Fatalf("output %d changed once its chunks went back to the pool", i)
		}
	}
}

// TestOutputBufferReadError: a read error ends ReadFrom with what was read before it.
func TestOutputBufferReadError(t *testing.T) {
	var b outputBuffer
	n, err := b.ReadFrom(iotest.TimeoutReader(bytes.NewReader(bytes.Repeat([]byte("x"), 10))))
	if err == nil || n != 10 || string(b.Bytes(false)) != "xxxxxxxxxx" {
		t.Fatalf("ReadFrom = %d, %v", n, err)
	}
}

// A buffer that is not recycled keeps its chunks out of the pool: what a late write puts into
// them reaches no other buffer.
func TestOutputBufferNotRecycled(t *testing.T) {
	var b outputBuffer
	if _, err := b.Write([]byte("late")); err != nil {
		t.Fatal(err)
	}
	c := b.chunks[0]
	_ = b.Bytes(false)
	for range 64 {
		got := chunkPool.Get().(*[]byte)
		if got == c {
			t.Fatal("a chunk of a buffer that was not recycled went back to the pool")
		}
		defer chunkPool.Put(got)
	}
}
