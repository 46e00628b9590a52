package diskcache

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func key(n int) string {
	return strings.Repeat(string(rune('a'+n%6)), 2) + strings.Repeat("0", 14) + string(rune('0'+n%10))
}

func TestReadWrite(t *testing.T) {
	d := Dir{Path: t.TempDir()}
	if _, ok := d.Read(key(1)); ok {
		t.Fatal("a miss reads as a hit")
	}
	if err := d.Write(key(1), []byte("one")); err != nil {
		t.Fatal(err)
	}
	if got, ok := d.Read(key(1)); !ok || string(got) != "one" {
		t.Fatalf("Read = %q, %v", got, ok)
	}
	for _, bad := range []string{"", "short", "../../etc/passwd", "ABCDEF0123", "zzzzzzzzzz"} {
		if err := d.Write(bad, nil); err == nil {
			t.Errorf("Write(%q) accepted a key that is not a hash", bad)
		}
		if _, ok := d.Read(bad); ok {
			t.Errorf("Read(%q) hit", bad)
		}
	}
	// no cache: misses, and writes do nothing
	if err := (Dir{}).Write(key(1), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := (Dir{}).Read(key(1)); ok {
		t.Fatal("the empty Dir hit")
	}
}

func TestExt(t *testing.T) {
	d := Dir{Path: t.TempDir(), Ext: ".json", MaxBytes: 1}
	if err := d.Write(key(1), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d.Path, key(1)[:2], key(1)+".json")); err == nil {
		t.Fatal("an entry over MaxBytes stays")
	}
	// an entry of an older layout (flat key.json) is pruned too
	flat := filepath.Join(d.Path, key(2)+".json")
	os.WriteFile(flat, []byte("{}"), 0o600)
	if err := d.Prune(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(flat); !os.IsNotExist(err) {
		t.Fatal("a flat entry is never pruned")
	}
}

func TestWriteError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (Dir{Path: file}).Write(key(1), []byte("x")); err == nil {
		t.Fatal("a write under a regular file succeeded")
	}
}

func TestExpiry(t *testing.T) {
	now := time.Now()
	d := Dir{Path: t.TempDir(), MaxAge: time.Hour, now: func() time.Time { return now }}
	if err := d.Write(key(1), []byte("old")); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Hour)
	if _, ok := d.Read(key(1)); ok {
		t.Fatal("an entry past MaxAge is a hit")
	}
	if _, err := os.Stat(filepath.Join(d.Path, key(1)[:2], key(1))); !os.IsNotExist(err) {
		t.Fatalf("the expired entry is still there: %v", err)
	}
}

func TestPruneBySizeOldestFirst(t *testing.T) {
	d := Dir{Path: t.TempDir(), MaxBytes: 30}
	base := time.Now().Add(-time.Hour)
	for i := 0; i < 5; i++ {
		if err := (Dir{Path: d.Path}).Write(key(i), []byte("0123456789")); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d.Path, key(i)[:2], key(i))
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	// a file that is no entry is never removed
	other := filepath.Join(d.Path, "README")
	if err := os.WriteFile(other, []byte(strings.Repeat("x", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.Prune(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		_, ok := d.Read(key(i))
		if want := i >= 2; ok != want {
			t.Errorf("entry %d present = %v, want %v (the oldest go first, to 30 bytes)", i, ok, want)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("prune removed a file that is not an entry: %v", err)
	}
}

func TestPruneLeftoverTemp(t *testing.T) {
	d := Dir{Path: t.TempDir(), MaxAge: time.Hour}
	sub := filepath.Join(d.Path, "ab")
	os.MkdirAll(sub, 0o700)
	stale, fresh := filepath.Join(sub, ".tmp-1"), filepath.Join(sub, ".tmp-2")
	os.WriteFile(stale, nil, 0o600)
	os.WriteFile(fresh, nil, 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	if err := d.Prune(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("a crashed writer's temporary file stays")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a writer's temporary file in use was removed")
	}
}

// TestConcurrentWrites: writers of one key never see a torn entry.
func TestConcurrentWrites(t *testing.T) {
	d := Dir{Path: t.TempDir(), MaxBytes: 1 << 20}
	a, b := strings.Repeat("a", 4096), strings.Repeat("b", 4096)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			v := a
			if i%2 == 1 {
				v = b
			}
			for n := 0; n < 20; n++ {
				if err := d.Write(key(1), []byte(v)); err != nil {
					t.Error(err)
				}
				if got, ok := d.Read(key(1)); ok && string(got) != a && string(got) != b {
					t.Error("a torn entry")
				}
			}
		}(i)
	}
	wg.Wait()
}
