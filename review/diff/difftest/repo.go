package difftest

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// File is one tree entry of a fake repository.
type File struct{ Mode, Content string }

// Reg is a regular file holding c.
func Reg(c string) File { return File{Mode: "100644", Content: c} }

// Symlink is a symlink to t.
func Symlink(t string) File { return File{Mode: "120000", Content: t} }

// Repo is an in-memory diff.BlobReader: rev -> path -> entry. It records every path and
// directory it is asked about.
type Repo struct {
	Revs  map[string]map[string]File
	blobs map[string]string
	mu    sync.Mutex
	asked []string
}

// NewRepo returns a fake repository with the given versions ("" is the index).
func NewRepo(revs map[string]map[string]File) *Repo {
	r := &Repo{Revs: revs, blobs: map[string]string{}}
	for _, files := range revs {
		for _, f := range files {
			r.blobs[OID(f.Content)] = f.Content
		}
	}
	return r
}

// OID is the git blob id of content.
func OID(content string) string {
	h := sha1.Sum([]byte("blob " + fmt.Sprint(len(content)) + "\x00" + content))
	return hex.EncodeToString(h[:])
}

// ReadBlob implements diff.BlobReader.
func (r *Repo) ReadBlob(_ context.Context, oid string) ([]byte, error) {
	c, ok := r.blobs[oid]
	if !ok {
		return nil, fmt.Errorf("no blob %q", oid)
	}
	return []byte(c), nil
}

// Stat implements diff.BlobReader.
func (r *Repo) Stat(_ context.Context, rev, p string) (string, string, bool, error) {
	r.mu.Lock()
	r.asked = append(r.asked, p)
	r.mu.Unlock()
	f, ok := r.Revs[rev][p]
	if !ok {
		return "", "", false, nil
	}
	return f.Mode, OID(f.Content), true, nil
}

// List implements diff.BlobReader.
func (r *Repo) List(_ context.Context, rev, dir string) ([]string, error) {
	r.mu.Lock()
	r.asked = append(r.asked, dir)
	r.mu.Unlock()
	var out []string
	for p, f := range r.Revs[rev] {
		d := p[:max(strings.LastIndexByte(p, '/'), 0)]
		if d == dir && (rev == "" || f.Mode != "160000") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Asked returns every path and directory the reader was asked about, in order.
func (r *Repo) Asked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.asked...)
}

// Escaped returns the paths the reader was asked about that leave the repository.
func (r *Repo) Escaped() []string {
	var bad []string
	for _, p := range r.asked {
		if strings.Contains(p, "..") || strings.HasPrefix(p, "/") {
			bad = append(bad, p)
		}
	}
	return bad
}

// RepoUnit is a unit at rev of r in which each path is a new file (every line added).
func RepoUnit(r *Repo, rev string, paths ...string) *diff.Unit {
	u := &diff.Unit{Commit: rev, Blobs: r}
	for _, p := range paths {
		f, ok := r.Revs[rev][p]
		if !ok {
			panic("no file " + p)
		}
		lines := strings.Split(strings.TrimSuffix(f.Content, "\n"), "\n")
		h := diff.NewHunk(0, 0, 1, len(lines))
		for i, l := range lines {
			h.Append(diff.Line{Kind: diff.Add, New: i + 1, Text: l})
		}
		u.Files = append(u.Files, diff.FileDiff{NewPath: p, Status: diff.Added, NewMode: f.Mode, NewOID: OID(f.Content), Hunks: []diff.Hunk{h}})
	}
	return u
}
