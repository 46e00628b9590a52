package bundle

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/review/diff"
	"github.com/tollgate-dev/tollgate/review/lang"
)

// Step 4 of the pipeline: deterministic expansion outward from the change. Round 1 starts from
// the changed files, round n+1 from the files round n added. Each file contributes, in this
// order: its tests (changed files only), the schema files named by string literals on its added
// lines (changed files only), then the files it imports (Go packages of its own module, Python
// modules, relative JS/TS imports). Every file is read through the unit's BlobReader at the
// unit's version, never from the file system; a path is looked up only when it is a clean
// repository path (no "..", not absolute), so nothing outside the repository is ever named.

// maxSymlinkHops bounds a chain of symlinks followed with repository.follow_symlinks.
const maxSymlinkHops = 8

var (
	// jsExts: the extensions a JS/TS import specifier may leave out, in resolution order.
	jsExts     = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"}
	schemaExts = map[string]bool{
		".sql": true, ".proto": true, ".graphql": true, ".gql": true, ".json": true,
		".yaml": true, ".yml": true, ".xsd": true, ".avsc": true,
	}
)

// expansionSource is a file whose references expansion follows.
type expansionSource struct {
	path    string
	content string   // the whole file at the reviewed version ("" when unknown)
	added   []string // added lines (changed files only)
	changed bool
}

type loaded struct {
	text string
	ok   bool
}

// expander reads the repository at one version, caching lookups.
type expander struct {
	ctx    context.Context
	blobs  diff.BlobReader
	rev    string
	follow bool
	lists  map[string]map[string]bool // dir -> the files directly in it
	loads  map[string]loaded
	mods   map[string]goModule // dir -> the module of Go files in it
}

type goModule struct {
	dir, path string // the module root ("" for the repository root) and its module path
}

// expand adds context files to m under cfg.Context and returns the limits that cut it short.
func expand(ctx context.Context, u *diff.Unit, cfg policy.Config, m *Material) []string {
	lim := cfg.Context
	if u == nil || u.Blobs == nil || lim.MaxFiles <= 0 || lim.MaxExpansionRounds <= 0 {
		return nil
	}
	x := &expansion{
		e: &expander{
			ctx: ctx, blobs: u.Blobs, rev: u.Commit, follow: cfg.FollowSymlinks,
			lists: map[string]map[string]bool{}, loads: map[string]loaded{}, mods: map[string]goModule{},
		},
		lim: lim, m: m, have: map[string]bool{},
	}
	for _, f := range m.Files {
		x.have[f.Path] = true
	}
	frontier := x.e.seeds(u)
	for round := 1; len(frontier) > 0; round++ {
		if ctx.Err() != nil {
			return nil
		}
		cands := x.candidates(frontier)
		if round > lim.MaxExpansionRounds {
			return x.beyondRounds(cands)
		}
		var limits []string
		if frontier, limits = x.add(ctx, cands); limits != nil || frontier == nil {
			return limits
		}
	}
	return nil
}

// expansion is one run of expand: the files the material has and how many it added.
type expansion struct {
	e     *expander
	lim   policy.ContextLimits
	m     *Material
	have  map[string]bool
	added int
}

// candidates lists the files a round's frontier leads to that the material does not have, in
// order, each once.
func (x *expansion) candidates(frontier []expansionSource) []string {
	var cands []string
	inRound := map[string]bool{}
	for _, s := range frontier {
		for _, c := range x.e.candidates(s) {
			if !x.have[c] && !inRound[c] {
				inRound[c] = true
				cands = append(cands, c)
			}
		}
	}
	return cands
}

// beyondRounds reports the round limit if a candidate past it would have been added.
func (x *expansion) beyondRounds(cands []string) []string {
	for _, c := range cands {
		if _, ok := x.e.load(c); ok {
			return []string{fmt.Sprintf("context.max_expansion_rounds reached (%d)", x.lim.MaxExpansionRounds)}
		}
	}
	return nil
}

// add adds the candidates that load, in order, until a limit is reached; it returns the next
// frontier sorted by path (nil when the expansion stops: a limit, returned, or ctx ended).
func (x *expansion) add(ctx context.Context, cands []string) ([]expansionSource, []string) {
	next := []expansionSource{}
	for _, c := range cands {
		if ctx.Err() != nil {
			return nil, nil
		}
		text, ok := x.e.load(c)
		if !ok {
			x.have[c] = true
			continue
		}
		mf := contextFile(c, text)
		if x.added >= x.lim.MaxFiles {
			return nil, []string{fmt.Sprintf("context.max_files reached (%d)", x.lim.MaxFiles)}
		}
		if x.lim.MaxTotalBytes > 0 && x.m.size+mf.bytes() > x.lim.MaxTotalBytes {
			return nil, []string{fmt.Sprintf("context.max_total_bytes reached (%d)", x.lim.MaxTotalBytes)}
		}
		x.m.Files = append(x.m.Files, mf)
		x.m.size += mf.bytes()
		x.have[c] = true
		x.added++
		next = append(next, expansionSource{path: c, content: text})
	}
	sort.Slice(next, func(i, j int) bool { return next[i].path < next[j].path })
	return next, nil
}

// contextFile is a whole file, numbered from 1, no line marked added.
func contextFile(p, text string) File {
	mf := File{Path: p, Role: "context"}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		mf.Lines = append(mf.Lines, Line{N: i + 1, Text: l})
	}
	return mf
}

// seeds are the changed files expansion starts from, sorted by path.
func (e *expander) seeds(u *diff.Unit) []expansionSource {
	var out []expansionSource
	for i := range u.Files {
		f := &u.Files[i]
		if !seedable(f) {
			continue
		}
		s := expansionSource{path: f.NewPath, changed: true, content: e.newContent(f)}
		for l := range f.Added() {
			s.added = append(s.added, l.Text)
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// seedable: a changed file that is text at a clean repository path (not deleted, a mode change,
// binary, a symlink or a submodule).
func seedable(f *diff.FileDiff) bool {
	return f.Status != diff.Deleted && f.Status != diff.ModeOnly && !f.Binary && f.NewPath != "" &&
		f.NewMode != "120000" && f.NewMode != "160000" && policy.CleanRepoPath(f.NewPath)
}

// newContent is the changed file at the reviewed version; when its blob cannot be read, its
// new-side lines of the diff (they still name imports).
func (e *expander) newContent(f *diff.FileDiff) string {
	if f.NewOID != "" && strings.Trim(f.NewOID, "0") != "" {
		if data, err := e.blobs.ReadBlob(e.ctx, f.NewOID); err == nil && !bytes.ContainsRune(data, 0) && len(data) > 0 {
			return string(data)
		}
	}
	var b strings.Builder
	for _, h := range f.Hunks {
		for _, l := range h.Lines() {
			if l.Kind != diff.Del {
				b.WriteString(l.Text)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// candidates lists the files s leads to, in a fixed order: tests, schemas, imports.
func (e *expander) candidates(s expansionSource) []string {
	var out []string
	seen := map[string]bool{}
	add := func(ps ...string) {
		for _, p := range ps {
			if p != s.path && !seen[p] && policy.CleanRepoPath(p) {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	kind := lang.KindOf(s.path)
	if s.changed {
		switch kind {
		case lang.Go:
			add(e.goTests(s.path)...)
		case lang.Python:
			add(e.pyTests(s.path)...)
		case lang.JS:
			add(e.jsTests(s.path)...)
		}
		add(e.schemas(s)...)
	}
	switch kind {
	case lang.Go:
		add(e.goImports(s)...)
	case lang.Python:
		add(e.pyImports(s)...)
	case lang.JS:
		add(e.jsImports(s)...)
	}
	return out
}

// dedup drops repeats from a sorted list.
func dedup(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
