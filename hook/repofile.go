package hook

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// NotFileError is a repository config file that is a symbolic link or a submodule in the index
// or in a commit: it is refused, as a link in the work tree is.
type NotFileError struct {
	Name string
	What string // "a symbolic link", "a submodule"
}

func (e *NotFileError) Error() string { return e.Name + " is " + e.What + ", not a file" }

// RepoFile reads the file name at the repository root as git holds it: in the index (rev "",
// GIT_INDEX_FILE honoured) or in commit rev (a commit id). It returns nil when git holds no such
// file there: a file only in the work tree (untracked, or changed and not staged) is never
// read. A symbolic link or a submodule there is a *NotFileError. A bare repository has no
// index: nothing is read from it.
func (r *Repo) RepoFile(ctx context.Context, rev, name string) ([]byte, error) {
	if (rev == "" && r.Bare) || (rev != "" && !isOID(rev)) {
		if rev != "" {
			return nil, fmt.Errorf("failed to read %s: %q is not a commit id", name, rev)
		}
		return nil, nil
	}
	mode, oid, ok, err := r.Stat(ctx, rev, name)
	if err != nil || !ok {
		return nil, err
	}
	if mode != "100644" && mode != "100755" {
		return nil, &NotFileError{Name: name, What: modeWords(mode)}
	}
	data, err := r.ReadBlob(ctx, oid)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", name, err)
	}
	return data, nil
}

// modeWords names a git file mode.
func modeWords(mode string) string {
	switch mode {
	case "120000":
		return "a symbolic link"
	case "160000":
		return "a submodule"
	}
	return "mode " + mode
}

// RepoFileIDs returns, for each commit, the blob ids of names at its root joined in one key
// ("" for a name the commit does not hold): commits with the same key hold the same files.
// One `git cat-file --batch-check` answers every commit; what is not an object id is left out.
func (r *Repo) RepoFileIDs(ctx context.Context, commits, names []string) (map[string]string, error) {
	if len(commits) == 0 {
		return map[string]string{}, nil
	}
	var ask []string
	commits = slices.DeleteFunc(slices.Clone(commits), func(c string) bool { return !isOID(c) })
	for _, c := range commits {
		for _, n := range names {
			ask = append(ask, c+":"+n)
		}
	}
	objs, err := r.batchCheck(ctx, ask)
	if err != nil {
		return nil, err
	}
	keys := make(map[string]string, len(commits))
	for i, c := range commits {
		ids := make([]string, len(names))
		for j := range names {
			ids[j] = objs[i*len(names)+j].oid
		}
		keys[c] = strings.Join(ids, " ")
	}
	return keys, nil
}
