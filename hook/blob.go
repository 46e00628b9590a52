package hook

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tollgate-dev/tollgate/review/diff"
)

// bigFileThreshold is git's core.bigFileThreshold for every call: git diffs a file above it as
// binary instead of holding its lines (its diff of a new file of 10 MB of empty lines peaks at
// 400 MB). A new file git showed as binary is read from its blob instead (addedText); any other
// is diffed again as text (textIfText).
const bigFileThreshold = "1m"

// addedText reads a new regular file that git showed as binary from its blob and, when the
// blob is text (no NUL in its first 8000 bytes, as git decides), gives it the hunk git's text
// diff would: every line added, from line 1. The text is read once, at its exact size.
func (r *Repo) addedText(ctx context.Context, commit string, e *rawEntry, f *diff.FileDiff) error {
	text, err := r.blobString(ctx, e.newOID)
	if err != nil {
		if missingObject(err) {
			return &unreadableError{commit: commit, err: err}
		}
		return err
	}
	if strings.IndexByte(text[:min(len(text), 8000)], 0) >= 0 {
		return nil
	}
	f.Binary, f.Hunks = false, nil
	if text != "" {
		f.Hunks = []diff.Hunk{diff.TextHunk(text)}
	}
	return nil
}

// blobString reads blob oid into a string grown to the blob's size first, git's output
// streamed into it.
func (r *Repo) blobString(ctx context.Context, oid string) (string, error) {
	if oid == "" || isZeroOID(oid) || strings.ContainsAny(oid, " -") {
		return "", fmt.Errorf("no blob %q", oid)
	}
	var (
		catFile = "cat-file"
		size    = "-s"
		blob    = "blob"
	)
	out, err := r.Git.output(ctx, catFile, size, oid)
	if err != nil {
		return "", fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	n, err := strconv.Atoi(out)
	if err != nil || n < 0 {
		return "", fmt.Errorf("failed to read blob %s: bad size %q", oid, out)
	}
	var b strings.Builder
	b.Grow(n)
	if _, err := r.Git.runTo(ctx, nil, &b, catFile, blob, oid); err != nil {
		return "", fmt.Errorf("failed to read blob %s: %w", oid, err)
	}
	return b.String(), nil
}
