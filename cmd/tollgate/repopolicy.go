package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/tollgate-dev/tollgate/hook"
	"github.com/tollgate-dev/tollgate/policy"
	"github.com/tollgate-dev/tollgate/redact"
	"github.com/tollgate-dev/tollgate/review/baseline"
)

// The repository files that change a review are read from what git holds for the change under
// review, never from the work tree: a staged review reads them from the index (GIT_INDEX_FILE
// honoured, so `git commit -a` and `git commit -- path` see what they commit), `--all` from
// HEAD, and a commit, range, push or received push from each commit itself. A file the index or
// the commit does not hold is absent, whatever the work tree has.
var (
	gitleaksConfigName = ".gitleaks.toml"
	gitleaksIgnoreName = ".gitleaksignore"
	// repoPolicyFiles are every file read for a review, in a fixed order (RepoFileIDs' key).
	repoPolicyFiles = []string{policy.RepoConfigName, gitleaksConfigName, gitleaksIgnoreName, baseline.FileName}
)

// source is where the repository files are read: the index, or commit rev (neither: no file,
// as on an unborn branch).
type source struct {
	index bool
	rev   string
}

// repoPolicy is the policy one state of the repository files gives: the compiled config (the
// user layer on top), the secret detector and the baseline's content.
type repoPolicy struct {
	cfg      policy.Config
	detector *redact.Detector
	notes    []string
	// baseData is the baseline's content (nil: none); parsed when a review uses it, so
	// `tollgate baseline` can rewrite a baseline that does not parse.
	baseData []byte
	base     *baseline.Set
	baseErr  error
	baseDone bool
}

// loadPolicy reads the repository files from src and compiles them with the user layer.
func loadPolicy(ctx context.Context, repo *hook.Repo, src source, user *policy.Layer) (*repoPolicy, error) {
	files := map[string][]byte{}
	for _, name := range repoPolicyFiles {
		if !src.index && src.rev == "" {
			break
		}
		data, err := repo.RepoFile(ctx, src.rev, name)
		if err != nil {
			var nf *hook.NotFileError
			if errors.As(err, &nf) {
				return nil, &policy.ConfigError{File: name, Msg: "it is " + nf.What + ", and tollgate never reads its configuration through one"}
			}
			return nil, err
		}
		files[name] = data
	}
	var layers []*policy.Layer
	if data := files[policy.RepoConfigName]; data != nil {
		layers = append(layers, &policy.Layer{Name: policy.RepoConfigName, Data: data})
	}
	layers = append(layers, user)
	cfg, err := policy.Load(layers...)
	if err != nil {
		return nil, err
	}
	det, err := redact.New(redact.Options{RepoConfig: files[gitleaksConfigName], RepoConfigName: gitleaksConfigName,
		Ignore: files[gitleaksIgnoreName], IgnoreName: gitleaksIgnoreName})
	if err != nil {
		return nil, &policy.ConfigError{File: gitleaksConfigName, Msg: err.Error()}
	}
	return &repoPolicy{cfg: cfg, detector: det, notes: det.Warnings(), baseData: files[baseline.FileName]}, nil
}

// baseline is the policy's parsed baseline (nil when there is none); a file that does not parse
// is a config error (exit 2), never a silently empty baseline.
func (p *repoPolicy) baseline() (*baseline.Set, error) {
	if !p.baseDone {
		p.baseDone = true
		if p.baseData != nil {
			set, err := baseline.Parse(baseline.FileName, p.baseData)
			if err != nil {
				p.baseErr = &policy.ConfigError{File: baseline.FileName, Msg: err.Error()}
			}
			p.base = set
		}
	}
	return p.base, p.baseErr
}

// workTreeNotes says which repository files of the work tree do not apply to a staged review
// because they are not staged as they are: untracked, or changed since they were staged.
func workTreeNotes(ctx context.Context, repo *hook.Repo, b *policy.Boundary) []string {
	if repo.Bare {
		return nil
	}
	var notes []string
	for _, name := range repoPolicyFiles {
		if _, err := os.Lstat(filepath.Join(repo.Root, name)); err != nil {
			continue
		}
		work, err := policy.ReadRepoFile(b, name)
		if err != nil {
			continue
		}
		staged, err := repo.RepoFile(ctx, "", name)
		switch {
		case err != nil:
		case staged == nil:
			notes = append(notes, name+" is not staged, so it does not apply: tollgate reads its config from what is committed (git add it to use it)")
		case !bytes.Equal(staged, work):
			notes = append(notes, name+" has changes that are not staged: the staged version applies (git add it to use yours)")
		}
	}
	return notes
}
