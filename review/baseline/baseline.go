// Package baseline reads and writes .tollgate-baseline.json, the findings a team accepted when
// it adopted tollgate: reviews drop them and count them.
//
// Rules and guarantees:
//   - An entry is keyed by content (review.Finding.ContentKey: the rule id and the normalised
//     matched value or line), never by path or line number: moving code or renaming its file
//     neither hides a new finding nor resurrects an old one, so one baseline serves a review
//     of HEAD and of the whole history (where a file had other names). The same accepted
//     secret or line in another file matches the same entry; a different one is new. The path
//     is stored as a hint for people (status, review), never matched.
//   - Version 1 files (keyed by rule, path and content) still load and match as they did,
//     path included; `tollgate baseline` rewrites a file as version 2.
//   - The file never holds a secret in clear: each entry stores the rule id, the path hint and
//     SHA-256 of a per-file random salt followed by the content key. The salt defeats
//     precomputed tables; a short, guessable secret can still be confirmed by someone who has
//     the file and guesses it, as with any hash, which is why a baselined secret is to be
//     rotated, not kept.
//   - Extend adds entries to a file with its own salt, every entry it had kept; a version 1
//     file is not extended (it is to be rewritten).
//   - A file that does not parse, or has an unknown version, is an error naming the file.
package baseline

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/tollgate-dev/tollgate/review"
)

// FileName is where the baseline lives, at the repository root.
const FileName = ".tollgate-baseline.json"

// version is the version Build writes: 2, keyed by content alone. Version 1 entries hashed
// the path in too (review.Finding.PathKey).
const version = 2

// File is the JSON form of a baseline.
type File struct {
	Version int     `json:"version"`
	Salt    string  `json:"salt"`
	Entries []Entry `json:"entries"`
}

// Entry is one accepted finding. Path is where it was found (the first path, in the order
// Build was given the findings): a hint for people, not part of the match (in version 2).
type Entry struct {
	RuleID string `json:"rule_id"`
	Path   string `json:"path"`
	Hash   string `json:"hash"`
}

// Set is a loaded baseline; it implements review.Baseline.
type Set struct {
	file   File
	salt   []byte
	hashes map[string]bool
}

// Parse reads a baseline file's content; name is used in errors.
func Parse(name string, data []byte) (*Set, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", name, err)
	}
	if f.Version != version && f.Version != 1 {
		return nil, fmt.Errorf("failed to read %s: version %d is not 1 or %d (rewrite it with `tollgate baseline`)", name, f.Version, version)
	}
	salt, err := hex.DecodeString(f.Salt)
	if err != nil || len(salt) < 16 {
		return nil, fmt.Errorf("failed to read %s: the salt must be at least 16 bytes in hex", name)
	}
	s := &Set{file: f, salt: salt, hashes: map[string]bool{}}
	for i, e := range f.Entries {
		if e.RuleID == "" || e.Path == "" || len(e.Hash) != 64 {
			return nil, fmt.Errorf("failed to read %s: entry %d needs rule_id, path and a 64-digit hash", name, i+1)
		}
		s.hashes[e.Hash] = true
	}
	return s, nil
}

// Has reports whether f is in the baseline: by content (version 2), or by path and content
// (a version 1 file).
func (s *Set) Has(f *review.Finding) bool {
	if s.file.Version == 1 {
		return s.hashes[hash(s.salt, f.PathKey())]
	}
	return s.hashes[hash(s.salt, f.ContentKey())]
}

// Version is the file's version (1: keyed by path too; 2: by content).
func (s *Set) Version() int { return s.file.Version }

// Entries returns the baseline's entries.
func (s *Set) Entries() []Entry { return s.file.Entries }

// Stale returns the entries whose path hint no longer exists (exists says whether a path
// does). In a version 1 file those never match again; in version 2 an entry still matches its
// content wherever it moved.
func (s *Set) Stale(exists func(path string) bool) []Entry {
	var out []Entry
	for _, e := range s.file.Entries {
		if !exists(e.Path) {
			out = append(out, e)
		}
	}
	return out
}

// Build makes a baseline of findings (unmasked, as review.Options.Collect sees them) with a
// new random salt; identical entries are kept once, with the path of the first.
func Build(findings []review.Finding) (File, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return File{}, fmt.Errorf("failed to make a salt: %w", err)
	}
	return build(salt, nil, findings), nil
}

// Extend is s with findings added (with s's salt; entries s has are kept as they are), for a
// baseline that accepts one more change. A version 1 set cannot be extended: its entries are
// keyed differently.
func Extend(s *Set, findings []review.Finding) (File, error) {
	if s.file.Version != version {
		return File{}, fmt.Errorf("the baseline is version %d (keyed by path): rewrite it first with `tollgate baseline` (--all or --all-history)", s.file.Version)
	}
	return build(s.salt, s.file.Entries, findings), nil
}

func build(salt []byte, entries []Entry, findings []review.Finding) File {
	f := File{Version: version, Salt: hex.EncodeToString(salt), Entries: append([]Entry{}, entries...)}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Hash] = true
	}
	for i := range findings {
		h := hash(salt, findings[i].ContentKey())
		if seen[h] {
			continue
		}
		seen[h] = true
		f.Entries = append(f.Entries, Entry{RuleID: findings[i].RuleID, Path: findings[i].Path, Hash: h})
	}
	sort.Slice(f.Entries, func(i, j int) bool {
		a, b := f.Entries[i], f.Entries[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.RuleID != b.RuleID {
			return a.RuleID < b.RuleID
		}
		return a.Hash < b.Hash
	})
	return f
}

// Marshal is the file's content: indented JSON with a final newline.
func (f File) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func hash(salt []byte, key string) string {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(key))
	return hex.EncodeToString(h.Sum(nil))
}
