// Package diskcache is tollgate's one on-disk cache: the model's review verdicts, the agent
// guard's model verdicts and the guard's per-session denial counts (the breaker) all live in
// one, each in its own directory under the user's cache or state directory.
//
// Rules and guarantees:
//   - An entry is one file named by its key (a hex hash: key[:2]/key+Ext), written atomically (a
//     unique temporary file in the same directory, then a rename), so a reader sees the old
//     content or the new, never half of it, and two writers never share a temporary file.
//   - Every error is returned; nothing is dropped. A failed read is a miss.
//   - The cache is bounded: an entry older than MaxAge is a miss and is removed, and after each
//     write the directory is pruned: entries past MaxAge go, then the oldest until the whole is
//     at most MaxBytes. Files that are not entries (no key name) are left alone.
//   - Nothing here decides where a cache may live; callers keep it out of the repository under
//     review.
package diskcache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Dir is one cache directory and its bounds.
type Dir struct {
	Path     string        // "" is no cache: every read misses, every write is a no-op
	MaxAge   time.Duration // entries older than this are misses and pruned (<= 0: no age bound)
	MaxBytes int64         // the directory's entries are pruned, oldest first, to this (<= 0: no size bound)
	Ext      string        // the entries' file name extension (".json"), "" for none
	now      func() time.Time
}

func (d Dir) clock() time.Time {
	if d.now != nil {
		return d.now()
	}
	return time.Now()
}

// validKey reports a key that names an entry: at least 8 lower-case hex digits.
func validKey(key string) bool {
	if len(key) < 8 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (d Dir) path(key string) (string, error) {
	if !validKey(key) {
		return "", fmt.Errorf("invalid cache key %q", key)
	}
	return filepath.Join(d.Path, key[:2], key+d.Ext), nil
}

// Read returns the entry of key; ok is false for a miss (absent, unreadable or expired).
func (d Dir) Read(key string) (data []byte, ok bool) {
	if d.Path == "" {
		return nil, false
	}
	p, err := d.path(key)
	if err != nil {
		return nil, false
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	if d.expired(fi) {
		os.Remove(p)
		return nil, false
	}
	data, err = os.ReadFile(p)
	return data, err == nil
}

func (d Dir) expired(fi fs.FileInfo) bool {
	return d.MaxAge > 0 && d.clock().Sub(fi.ModTime()) > d.MaxAge
}

// Write stores data under key atomically, then prunes the directory to its bounds. Its error is
// the file system's (naming the path); the caller says what failed.
func (d Dir) Write(key string, data []byte) error {
	if d.Path == "" {
		return nil
	}
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return d.Prune()
}

type entry struct {
	path string
	size int64
	mod  time.Time
}

// Prune removes the entries past MaxAge, then the oldest until the entries take at most
// MaxBytes, and temporary files a crashed writer left (older than a minute).
func (d Dir) Prune() error {
	if d.Path == "" || (d.MaxAge <= 0 && d.MaxBytes <= 0) {
		return nil
	}
	now := d.clock()
	var live []entry
	var errs []error
	err := filepath.WalkDir(d.Path, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if de.IsDir() || !de.Type().IsRegular() {
			return nil
		}
		fi, err := de.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		name := de.Name()
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			if now.Sub(fi.ModTime()) > time.Minute {
				errs = append(errs, removeErr(p))
			}
		case !strings.HasSuffix(name, d.Ext) || !validKey(strings.TrimSuffix(name, d.Ext)):
		case d.expired(fi):
			errs = append(errs, removeErr(p))
		default:
			live = append(live, entry{p, fi.Size(), fi.ModTime()})
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if d.MaxBytes > 0 {
		var total int64
		for _, e := range live {
			total += e.size
		}
		sort.Slice(live, func(i, j int) bool { return live[i].mod.Before(live[j].mod) })
		for _, e := range live {
			if total <= d.MaxBytes {
				break
			}
			errs = append(errs, removeErr(e.path))
			total -= e.size
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("failed to prune the cache %s: %w", d.Path, err)
	}
	return nil
}

func removeErr(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
