package hook

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// lfsPointerMax is the size below which git-lfs takes a blob for a possible pointer file (its
// blobSizeCutoff): git-lfs looks no further, nor does tollgate.
const lfsPointerMax = 1024

// lfsObjectMax bounds the Git LFS object tollgate reads for one pointer: the secrets scanner's
// limit for a binary file (a text file above its own, smaller limit is listed as not run
// there). A larger object is not read, and is listed as not run.
const lfsObjectMax = 64 << 20

// lfsVersions are the version lines git-lfs accepts in a pointer.
var lfsVersions = []string{
	"https://git-lfs.github.com/spec/v1",
	"https://hawser.github.com/spec/v1",
	"http://git-media.io/v/2",
}

// lfsPointer is a Git LFS pointer file: the sha256 and size of the object it stands for.
type lfsPointer struct {
	oid  string
	size int64
}

// parseLFSPointer reads a pointer as git-lfs itself does (so any pointer whose object git-lfs
// would upload is recognised): at most lfsPointerMax bytes, trimmed; "key value" lines, empty
// ones skipped; version (a known spec), then oid ("sha256:" and 64 letters or digits), then
// size (a non-negative decimal), with ext-N-name lines anywhere; nothing else.
func parseLFSPointer(data []byte) (lfsPointer, bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || len(data) >= lfsPointerMax {
		return lfsPointer{}, false
	}
	vals, ok := lfsKeys(data)
	if !ok || !knownLFSVersion(vals["version"]) {
		return lfsPointer{}, false
	}
	oid, ok := strings.CutPrefix(vals["oid"], "sha256:")
	if !ok || len(oid) < 64 || !alnum(oid[:64]) {
		return lfsPointer{}, false
	}
	size, err := strconv.ParseInt(vals["size"], 10, 64)
	if err != nil || size < 0 {
		return lfsPointer{}, false
	}
	return lfsPointer{oid: oid, size: size}, true
}

// lfsKeys reads a pointer's lines: version, oid and size in that order, each once, extension
// lines anywhere, and nothing else.
func lfsKeys(data []byte) (map[string]string, bool) {
	keys := []string{"version", "oid", "size"}
	vals := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, " ")
		switch {
		case !ok || len(vals) == len(keys): // not a key, or a line after size
			return nil, false
		case key == keys[len(vals)]:
			vals[key] = val
		case !lfsExtKey(key):
			return nil, false
		}
	}
	return vals, len(vals) == len(keys)
}

func knownLFSVersion(v string) bool {
	for _, k := range lfsVersions {
		if v == k {
			return true
		}
	}
	return false
}

// lfsExtKey reports an extension key (ext-<digit>-<word>).
func lfsExtKey(k string) bool {
	rest, ok := strings.CutPrefix(k, "ext-")
	if !ok || len(rest) < 3 || rest[0] < '0' || rest[0] > '9' || rest[1] != '-' {
		return false
	}
	return alnum(strings.ReplaceAll(rest[2:3], "_", "a"))
}

func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return s != ""
}

// lfsObjects are the Git LFS objects a change's files were replaced with: ReadBlob reads them
// by their sha256 from their file, checked again against it.
type lfsObjects struct {
	mu    sync.Mutex
	dir   string // the LFS storage directory, "" until looked up
	paths map[string]string
}

func (l *lfsObjects) add(oid, path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.paths == nil {
		l.paths = map[string]string{}
	}
	l.paths[oid] = path
}

func (l *lfsObjects) path(oid string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.paths[oid]
	return p, ok
}

// withLFS resolves the Git LFS pointers of a change just built (see resolveLFS); err is the
// builder's.
func (r *Repo) withLFS(ctx context.Context, ch *diff.Change, err error) (*diff.Change, error) {
	if err != nil {
		return nil, err
	}
	if err := r.resolveLFS(ctx, ch); err != nil {
		return nil, err
	}
	return ch, nil
}

// resolveLFS reviews what a Git LFS pointer stands for: each file whose new blob is a pointer
// (and whose diff adds its oid line: an unchanged object was reviewed when it came) is
// replaced by the object the pointer names, read from the LFS storage directory
// (<common git dir>/lfs, or lfs.storage) and checked against the pointer's sha256 and size. A
// text object is reviewed as added text from line 1, a binary one as a binary file read
// through ReadBlob. An object that is not there, or too large, or does not match its pointer
// is listed in r.Unreadable (not run), never passed as clean; the pointer itself is still
// reviewed. git-lfs is never run: reading the object is enough.
func (r *Repo) resolveLFS(ctx context.Context, ch *diff.Change) error {
	for ui := range ch.Units {
		u := &ch.Units[ui]
		for fi := range u.Files {
			f := &u.Files[fi]
			if !lfsCandidate(f) {
				continue
			}
			p, ok, err := r.pointerBlob(ctx, f.NewOID)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := r.lfsFile(ctx, u.Commit, f, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// lfsCandidate reports a file whose new blob may be a pointer with a new object: a small
// regular text file whose diff adds an "oid " line.
func lfsCandidate(f *diff.FileDiff) bool {
	if f.Status == diff.Deleted || f.Binary || !blobID(f.NewOID) || (f.NewMode != "100644" && f.NewMode != "100755") {
		return false
	}
	size := 0
	for i := range f.Hunks {
		size += f.Hunks[i].AddedSizeBound()
	}
	if size > 4*lfsPointerMax {
		return false
	}
	for l := range f.Added() {
		if strings.HasPrefix(l.Text, "oid sha256:") {
			return true
		}
	}
	return false
}

// pointerBlob reads blob oid as a pointer; a blob of lfsPointerMax bytes or more is not read.
func (r *Repo) pointerBlob(ctx context.Context, oid string) (lfsPointer, bool, error) {
	var data []byte
	err := r.cat.read(ctx, r.Git, oid, func(size int, src io.Reader) error {
		if size >= lfsPointerMax {
			_, err := io.Copy(io.Discard, src)
			return err
		}
		data = make([]byte, size)
		_, err := io.ReadFull(src, data)
		return err
	})
	if err != nil {
		if missingObject(err) {
			return lfsPointer{}, false, nil // the diff already listed what it could not read
		}
		return lfsPointer{}, false, fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	p, ok := parseLFSPointer(data)
	return p, ok, nil
}

// lfsFile replaces f's content with the object p names, or lists why it cannot.
func (r *Repo) lfsFile(ctx context.Context, commit string, f *diff.FileDiff, p lfsPointer) error {
	where := f.Path()
	if commit != "" {
		where += " in commit " + commit
	}
	notRun := func(why string) error {
		r.Unreadable = append(r.Unreadable, fmt.Sprintf("%s is a Git LFS pointer, and its object (sha256 %s, %d bytes) %s: its content was not reviewed", where, short(p.oid), p.size, why))
		return nil
	}
	if !lowerHex(p.oid) || len(p.oid) != 64 {
		return notRun("is named by an id that is not a sha256")
	}
	if p.size > lfsObjectMax {
		return notRun(fmt.Sprintf("exceeds the %d-byte limit", lfsObjectMax))
	}
	dir, err := r.lfsDir(ctx)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "objects", p.oid[0:2], p.oid[2:4], p.oid)
	data, err := readLFSObject(path, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		hint := " (`git lfs fetch` brings it)"
		if r.Bare {
			hint = " (a server's repository seldom holds LFS objects: they go to the LFS server)"
		}
		return notRun("is not in " + filepath.Join(dir, "objects") + hint)
	case err != nil:
		return notRun(err.Error())
	}
	r.lfs.add(p.oid, path)
	f.NewOID = p.oid
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		f.Binary, f.Hunks = true, nil // the scanners read it again through ReadBlob
		return nil
	}
	f.Binary, f.Hunks = false, nil
	if len(data) > 0 {
		f.Hunks = []diff.Hunk{diff.TextHunk(string(data))}
	}
	return nil
}

// readLFSObject reads the object file at path, checked against the pointer: a regular file of
// its size whose sha256 is its oid.
func readLFSObject(path string, p lfsPointer) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("is not a regular file in the LFS storage")
	}
	if fi.Size() != p.size {
		return nil, fmt.Errorf("has %d bytes in the LFS storage, not the pointer's %d", fi.Size(), p.size)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("could not be read: %w", err)
	}
	if int64(len(data)) != p.size {
		return nil, fmt.Errorf("changed while read (%d bytes)", len(data))
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != p.oid {
		return nil, errors.New("in the LFS storage does not match its pointer's sha256")
	}
	return data, nil
}

// lfsRead is ReadBlob for an LFS object a file was replaced with; ok is false for any other id.
func (r *Repo) lfsRead(oid string) ([]byte, bool, error) {
	path, ok := r.lfs.path(oid)
	if !ok {
		return nil, false, nil
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, true, fmt.Errorf("failed to read Git LFS object %s: %w", short(oid), err)
	}
	data, err := readLFSObject(path, lfsPointer{oid: oid, size: fi.Size()})
	if err != nil {
		return nil, true, fmt.Errorf("Git LFS object %s %w", short(oid), err)
	}
	return data, true, nil
}

// lfsDir is the LFS storage directory: lfs.storage (relative to the common git directory, ~/
// for the home directory), or <common git dir>/lfs.
func (r *Repo) lfsDir(ctx context.Context) (string, error) {
	r.lfs.mu.Lock()
	dir := r.lfs.dir
	r.lfs.mu.Unlock()
	if dir != "" {
		return dir, nil
	}
	var (
		config = "config"
		get    = "--get"
		key    = "lfs.storage"
	)
	out, err := r.Git.output(ctx, config, get, key)
	switch {
	case err != nil && exitCode(err) != 1:
		return "", fmt.Errorf("failed to read lfs.storage: %w", err)
	case out == "":
		dir = filepath.Join(r.CommonDir, "lfs")
	case strings.HasPrefix(out, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("failed to resolve lfs.storage %q: %w", out, err)
		}
		dir = filepath.Join(home, out[2:])
	case filepath.IsAbs(out):
		dir = out
	default:
		dir = filepath.Join(r.CommonDir, out)
	}
	r.lfs.mu.Lock()
	r.lfs.dir = dir
	r.lfs.mu.Unlock()
	return dir, nil
}

func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// short is an object id cut to 12 characters, for a message.
func short(oid string) string {
	if len(oid) > 12 {
		return oid[:12]
	}
	return oid
}
